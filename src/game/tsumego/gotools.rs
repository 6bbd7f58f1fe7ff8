//! GoTools' own problem files (Thomas Wolf's collection, files `lvA.B`: volume A, level B),
//! read into gamelab problems with GoTools' answers beside them. The files are copyrighted and
//! never ship with gamelab: whatever reads them takes a folder from the user
//! (`GOTOOLS_PROBLEMS`, `--gotools`). The format, as worked out from the files, is written down
//! in docs/rules/tsumego.md ("GoTools' problem files"); in short:
//!
//! ```text
//!            (C) Copyright 1994 Thomas Wolf All Rights Reserved     header (any lines before the first `$`)
//! 217 problems
//! $ P2058006                                                         a problem
//! ?AB?AC?AEAAF...ADD[AB][BD]                                         stones, then marked chains
//! ?+l1d#5 3 1 40.00 4 ?? 0 255 :CCBC:                                one line per first move
//! ?-d#1 3 1 0.00 2 ?? 0 255 :DBDA:
//! ```
//! A stone is `?` (the side whose marked chains live or die: gamelab's defender) or `A` (the
//! other side: the attacker) and two letters, column then row, `A` = 0. `[XY]` marks a `?` chain
//! whose life is asked. A line longer than the file's width ends in `\` and goes on on the next.
//! An answer line is `S±STATUS#numbers :MOVES:`: `S` the side that moves first (`?` or `A`), then
//! GoTools' main line `MOVES` from that side's first move (two letters a move, `@@` a pass);
//! `+` when that first move reaches the mover's aim (status `l`/`lNd` for `?`, `d`/`dNl` for
//! `A`), `-` when it does not. So each line is one first move and what it gives; the answer to
//! "S moves first" is the best of S's lines (most alive for `?`, most dead for `A`), and the `+`
//! lines' first moves are GoTools' winning first moves. The numbers after `#` are GoTools' own
//! search figures and settings; gamelab keeps them as text and does not read them.
//!
//! The region: the empty points of the board connected to the largest empty area are outside;
//! `A` chains touching the outside are the wall (never captured, as GoTools' closed boundary);
//! everything else (the `?` stones, the other `A` stones and the enclosed empty points) is the
//! region. The targets are the marked chains.

use super::board::{Coord, Move, Position, Region, Side, bit};
use super::problem::Problem;
use super::solver::Status;
use crate::game::colosseum::text::TextError;

/// GoTools' board: 19x19.
pub const SIZE: u8 = 19;

/// One answer line: a first move of the side that moves first and GoTools' status after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// 1-based line of the file where the answer starts.
    pub line: usize,
    /// The side that moves first.
    pub mover: Side,
    /// `+`: the move reaches the mover's aim (with ko, perhaps); `-`: it does not.
    pub succeeds: bool,
    pub status: Status,
    /// The text after `#` up to the main line (GoTools' figures and settings), as written.
    pub settings: String,
    /// GoTools' main line from this first move (None = pass), in board coordinates; a few
    /// lines of the files have none (`::`).
    pub main_line: Vec<Option<Coord>>,
}

/// One question of a GoTools problem: the position with a side to move, and GoTools' answer.
#[derive(Clone, Debug)]
pub struct Question {
    /// The problem as gamelab solves it (name `P2058006` with `/defender` or `/attacker` for the
    /// side that moves first; `status` and `winning` are GoTools' answer).
    pub problem: Problem,
    /// 1-based line of the problem's `$` line.
    pub line: usize,
    /// GoTools' answer lines for this side to move, in the file's order.
    pub answers: Vec<Answer>,
}

impl Question {
    /// GoTools' status for the question: the best of the mover's first moves.
    pub fn status(&self) -> Status {
        self.problem
            .status
            .expect("a GoTools question has a status")
    }

    /// GoTools' first move of its best line (the first of the best in the file's order).
    pub fn best_first_move(&self) -> Option<Move> {
        let mover = self.problem.start.to_move;
        let best = self
            .answers
            .iter()
            .max_by_key(|a| (for_mover(a.status, mover), std::cmp::Reverse(a.line)))?;
        first_move(&self.problem, best)
    }
}

/// The first move of an answer as a move of the problem (None when it is off the region).
pub fn first_move(problem: &Problem, a: &Answer) -> Option<Move> {
    match a.main_line.first()? {
        None => Some(Move::Pass),
        Some(c) => problem.region.index_of(*c).map(|i| Move::Play(i as u8)),
    }
}

/// A status on one scale from the defender's point of view: `d` 0, `d5l` 1 .. `d1l` 5,
/// `l1d` 7 .. `l5d` 11, `l` 12 (higher = more alive). Unknown is None.
pub fn aliveness(s: Status) -> Option<u8> {
    match s {
        Status::Dead => Some(0),
        Status::DeadUnlessKo(n) => Some(6 - n),
        Status::AliveUnlessKo(n) => Some(6 + n),
        Status::Alive => Some(12),
        Status::Unknown => None,
    }
}

/// How good a status is for `mover` (higher = better for it).
fn for_mover(s: Status, mover: Side) -> i16 {
    let a = aliveness(s).unwrap_or(6) as i16;
    if mover == Side::Defender { a } else { -a }
}

/// Whether a text looks like a GoTools file: a `$ ` problem line before any line of
/// gamelab's own format.
pub fn is_gotools(text: &str) -> bool {
    for line in text.lines().take(40) {
        let l = line.trim_end_matches('\r');
        if l.starts_with("$ ") {
            return true;
        }
        let w = l.split_whitespace().next().unwrap_or("");
        if matches!(w, "problem" | "map") || l.starts_with("(;") {
            return false;
        }
    }
    false
}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, TextError> {
    Err(TextError {
        line,
        message: message.into(),
    })
}

/// Logical lines (a trailing `\` joins the next), each with the 1-based line it starts on.
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cur: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim_end_matches('\r');
        let (body, more) = match l.strip_suffix('\\') {
            Some(b) => (b, true),
            None => (l, false),
        };
        let entry = cur.get_or_insert_with(|| (i + 1, String::new()));
        entry.1.push_str(body);
        if !more {
            out.push(cur.take().expect("just set"));
        }
    }
    if let Some(c) = cur {
        out.push(c);
    }
    out
}

fn letter(b: u8, line: usize, what: &str) -> Result<u8, TextError> {
    if b.is_ascii_uppercase() && b - b'A' < SIZE {
        Ok(b - b'A')
    } else {
        err(
            line,
            format!("{what}: '{}' is not a board letter A..S", b as char),
        )
    }
}

/// A point `XY` (column, row) as gamelab's (row, column).
fn point(two: &[u8], line: usize, what: &str) -> Result<Coord, TextError> {
    let col = letter(two[0], line, what)?;
    let row = letter(two[1], line, what)?;
    Ok((row, col))
}

/// Parses a GoTools file into its questions (one per side that moves first in the answers).
/// Errors name the 1-based line.
pub fn parse_gotools(text: &str) -> Result<Vec<Question>, TextError> {
    let lines = logical_lines(text);
    let mut k = lines
        .iter()
        .position(|(_, l)| l.starts_with("$"))
        .ok_or(TextError {
            line: 1,
            message: "no problem: a GoTools file has '$ NAME' lines".into(),
        })?;
    let mut out = Vec::new();
    while k < lines.len() {
        let (n, head) = &lines[k];
        let Some(name) = head
            .strip_prefix("$ ")
            .map(str::trim)
            .filter(|s| !s.is_empty() && !s.contains(' '))
        else {
            return err(
                *n,
                format!("expected '$ NAME' (a problem), found '{}'", short(head)),
            );
        };
        k += 1;
        let Some((bn, board)) = lines.get(k) else {
            return err(*n, format!("problem {name}: no stones line"));
        };
        k += 1;
        let mut answers = Vec::new();
        while let Some((an, a)) = lines.get(k) {
            if a.trim().is_empty() {
                k += 1;
                if lines
                    .get(k)
                    .is_some_and(|(_, l)| !l.trim().is_empty() && !l.starts_with('$'))
                {
                    // A blank line inside a problem: the next must be a new problem.
                    return err(
                        lines[k].0,
                        format!(
                            "problem {name}: expected '$ NAME' after a blank line, found '{}'",
                            short(&lines[k].1)
                        ),
                    );
                }
                continue;
            }
            if a.starts_with('$') {
                break;
            }
            answers.push(parse_answer(a, *an).map_err(|e| TextError {
                line: e.line,
                message: format!("problem {name}: {}", e.message),
            })?);
            k += 1;
        }
        if answers.is_empty() {
            return err(*n, format!("problem {name}: no answer lines"));
        }
        out.extend(questions(name, *n, *bn, board, answers)?);
    }
    Ok(out)
}

fn short(s: &str) -> String {
    let t: String = s.chars().take(40).collect();
    if t.len() < s.len() {
        format!("{t}...")
    } else {
        t
    }
}

fn parse_answer(a: &str, n: usize) -> Result<Answer, TextError> {
    let b = a.as_bytes();
    let mover = match b.first() {
        Some(b'?') => Side::Defender,
        Some(b'A') => Side::Attacker,
        _ => {
            return err(
                n,
                format!(
                    "answer '{}': expected '?' or 'A' (the side that moves first)",
                    short(a)
                ),
            );
        }
    };
    let succeeds = match b.get(1) {
        Some(b'+') => true,
        Some(b'-') => false,
        _ => {
            return err(
                n,
                format!("answer '{}': expected '+' or '-' after the side", short(a)),
            );
        }
    };
    let hash = a.find('#').ok_or(TextError {
        line: n,
        message: format!("answer '{}': no '#'", short(a)),
    })?;
    let status: Status = a[2..hash].parse().map_err(|e: String| TextError {
        line: n,
        message: format!("answer '{}': {e}", short(a)),
    })?;
    let rest = &a[hash + 1..];
    let (settings, moves) = match (rest.find(':'), rest.rfind(':')) {
        (Some(i), Some(j)) if j > i => (rest[..i].trim(), &rest[i + 1..j]),
        _ => {
            return err(
                n,
                format!(
                    "answer '{}': expected the main line between ':' and ':'",
                    short(a)
                ),
            );
        }
    };
    if moves.len() % 2 != 0 {
        return err(
            n,
            format!(
                "answer '{}': the main line has an odd number of letters",
                short(a)
            ),
        );
    }
    let mut main_line = Vec::new();
    for two in moves.as_bytes().chunks(2) {
        main_line.push(if two == b"@@" {
            None
        } else {
            Some(point(two, n, "main line")?)
        });
    }
    let aim =
        matches!(status, Status::Alive | Status::AliveUnlessKo(_)) == (mover == Side::Defender);
    if aim != succeeds {
        return err(
            n,
            format!(
                "answer '{}': '{}' with status {status}, which is {} for the side that moves first",
                short(a),
                if succeeds { '+' } else { '-' },
                if aim { "a success" } else { "a failure" }
            ),
        );
    }
    Ok(Answer {
        line: n,
        mover,
        succeeds,
        status,
        settings: settings.to_string(),
        main_line,
    })
}

/// The problem's position and region, and one question per side that moves first.
fn questions(
    name: &str,
    line: usize,
    board_line: usize,
    board: &str,
    answers: Vec<Answer>,
) -> Result<Vec<Question>, TextError> {
    let b = board.trim().as_bytes();
    let mut stones: Vec<(Coord, Side)> = Vec::new();
    let mut marks: Vec<Coord> = Vec::new();
    let mut i = 0;
    let bad = |m: String| TextError {
        line: board_line,
        message: format!("problem {name}: {m}"),
    };
    while i < b.len() {
        match b[i] {
            b'?' | b'A' if i + 3 <= b.len() => {
                let c = point(&b[i + 1..i + 3], board_line, "stone").map_err(|e| bad(e.message))?;
                if stones.iter().any(|s| s.0 == c) {
                    return Err(bad(format!(
                        "two stones on {}{}",
                        b[i + 1] as char,
                        b[i + 2] as char
                    )));
                }
                stones.push((
                    c,
                    if b[i] == b'?' {
                        Side::Defender
                    } else {
                        Side::Attacker
                    },
                ));
                i += 3;
            }
            b'[' if i + 4 <= b.len() && b[i + 3] == b']' => {
                marks
                    .push(point(&b[i + 1..i + 3], board_line, "mark").map_err(|e| bad(e.message))?);
                i += 4;
            }
            _ => {
                return Err(bad(format!(
                    "unexpected '{}' at column {} of the stones (expected ?XY, AXY or [XY])",
                    b[i] as char,
                    i + 1
                )));
            }
        }
    }
    let n = SIZE as usize;
    let idx = |c: Coord| c.0 as usize * n + c.1 as usize;
    let mut cell = vec![None; n * n];
    for &(c, s) in &stones {
        cell[idx(c)] = Some(s);
    }
    let nbrs = |p: usize| {
        let (r, c) = (p / n, p % n);
        let mut v = Vec::with_capacity(4);
        if r > 0 {
            v.push(p - n);
        }
        if r + 1 < n {
            v.push(p + n);
        }
        if c > 0 {
            v.push(p - 1);
        }
        if c + 1 < n {
            v.push(p + 1);
        }
        v
    };
    let flood = |start: usize, inside: &dyn Fn(usize) -> bool| -> Vec<usize> {
        let mut seen = vec![start];
        let mut todo = vec![start];
        let mut mark = vec![false; n * n];
        mark[start] = true;
        while let Some(p) = todo.pop() {
            for q in nbrs(p) {
                if !mark[q] && inside(q) {
                    mark[q] = true;
                    seen.push(q);
                    todo.push(q);
                }
            }
        }
        seen
    };
    // The outside: the largest connected set of empty points.
    let mut outside = vec![false; n * n];
    {
        let mut done = vec![false; n * n];
        let mut best: Vec<usize> = Vec::new();
        for p in 0..n * n {
            if cell[p].is_none() && !done[p] {
                let comp = flood(p, &|q| cell[q].is_none());
                comp.iter().for_each(|&q| done[q] = true);
                if comp.len() > best.len() {
                    best = comp;
                }
            }
        }
        best.iter().for_each(|&q| outside[q] = true);
    }
    // The wall: attacker chains next to the outside. A defender stone next to it: not closed.
    let mut wall = vec![false; n * n];
    for &(c, s) in &stones {
        let p = idx(c);
        if nbrs(p).iter().any(|&q| outside[q]) {
            if s == Side::Defender {
                return Err(bad(format!(
                    "the '?' stone on {} touches the open board: not a closed problem",
                    gotools_name(c)
                )));
            }
            if !wall[p] {
                for q in flood(p, &|q| cell[q] == Some(Side::Attacker)) {
                    wall[q] = true;
                }
            }
        }
    }
    let points: Vec<Coord> = (0..n * n)
        .filter(|&p| !outside[p] && !wall[p])
        .map(|p| ((p / n) as u8, (p % n) as u8))
        .collect();
    let wall_stones: Vec<Coord> = (0..n * n)
        .filter(|&p| wall[p])
        .map(|p| ((p / n) as u8, (p % n) as u8))
        .collect();
    if points.len() > 64 {
        return Err(bad(format!(
            "the enclosed region has {} points; gamelab solves at most 64",
            points.len()
        )));
    }
    let region = Region::new(SIZE, points, wall_stones);
    let (mut att, mut def) = (0u64, 0u64);
    for &(c, s) in &stones {
        if let Some(i) = region.index_of(c) {
            match s {
                Side::Attacker => att |= bit(i),
                Side::Defender => def |= bit(i),
            }
        }
    }
    let mut targets = 0u64;
    for &m in &marks {
        match region.index_of(m) {
            Some(i) if def & bit(i) != 0 => targets |= region.chain(i, def).0,
            _ => {
                return Err(bad(format!(
                    "the mark [{}] is not on a '?' stone",
                    gotools_name(m)
                )));
            }
        }
    }
    if targets == 0 {
        return Err(bad("no marked chain ([XY] on a '?' stone)".into()));
    }
    let mut out = Vec::new();
    for mover in [Side::Defender, Side::Attacker] {
        let mine: Vec<Answer> = answers
            .iter()
            .filter(|a| a.mover == mover)
            .cloned()
            .collect();
        if mine.is_empty() {
            continue;
        }
        let start = Position::new(&region, att, def, mover);
        if let Some((side, chain)) = start.chain_without_liberty(&region) {
            return Err(bad(format!(
                "the {} chain at {} has no liberties",
                side.name(),
                region.point_name(chain.trailing_zeros() as usize)
            )));
        }
        let best = mine
            .iter()
            .map(|a| a.status)
            .max_by_key(|&s| for_mover(s, mover))
            .expect("non-empty");
        let mut problem = Problem {
            name: format!("{name}/{}", mover.name()),
            region: region.clone(),
            start,
            targets,
            // GoTools' `A` plays black in its diagrams; the colours do not change the answer.
            attacker_black: true,
            status: Some(best),
            winning: Vec::new(),
            unique: None,
            level: None,
            set: None,
            origin: (0, 0),
        };
        let mut winning: Vec<Move> = mine
            .iter()
            .filter(|a| a.succeeds)
            .filter_map(|a| first_move(&problem, a))
            .collect();
        winning.sort_by_key(|m| match m {
            Move::Play(i) => *i as u16,
            Move::Pass => 64,
        });
        winning.dedup();
        problem.unique = (winning.len() == 1).then(|| winning[0]);
        problem.winning = winning;
        out.push(Question {
            problem,
            line,
            answers: mine,
        });
    }
    Ok(out)
}

/// GoTools' name of a point (column letter, row letter).
pub fn gotools_name(c: Coord) -> String {
    format!("{}{}", (b'A' + c.1) as char, (b'A' + c.0) as char)
}

/// Volume and level of a file named `lvA.B` (also `lvA-B`).
pub fn volume_level(file_name: &str) -> Option<(u8, u8)> {
    let rest = file_name.strip_prefix("lv")?;
    let (a, b) = rest.split_once(['.', '-'])?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Problems written for this test in GoTools' layout (not from GoTools' files): a corner
    // (rows A, B; columns A..D) with the `?` chain DA AB BB CB DB over the empty edge points
    // AA BA CA, walled by `A` stones on row C and column E. `?` at BA makes two eyes.
    const FILE: &str = "            (test file in GoTools' layout)\r\n2 problems\r\n\r\n$ T1\r\n?DA?AB?BB?CB?DBAEA\\\r\nAEBAACABCACCADCAEC[AB]\r\n?+l#3 3 1 0.00 2 ?? 0 255 :BA:\r\n?-d#1 3 1 0.00 2 ?? 0 255 :@@BA:\r\nA+d#2 3 1 0.00 2 ?? 0 255 :BAAA:\r\n\r\n$ T2\r\n?DA?AB?BB?CB?DBAEA\\\r\nAEBAACABCACCADCAEC[AB]\r\nA+d1l#3 3 1 0.00 2 ?? 0 255 :CA:\r\nA+d#3 3 1 0.00 2 ?? 0 255 :BA:\r\nA-l#3 3 1 0.00 2 ?? 0 255 :AA\\\r\nBA:\r\n\r\n";

    #[test]
    fn a_file_reads_into_one_question_per_side_that_moves_first() {
        assert!(is_gotools(FILE));
        let qs = parse_gotools(FILE).unwrap();
        let names: Vec<&str> = qs.iter().map(|q| q.problem.name.as_str()).collect();
        assert_eq!(names, ["T1/defender", "T1/attacker", "T2/attacker"]);
        let t1 = &qs[0];
        assert_eq!(t1.line, 4);
        assert_eq!(t1.problem.start.to_move, Side::Defender);
        let at = |q: &Question, row: u8, col: u8| {
            Move::Play(q.problem.region.index_of((row, col)).unwrap() as u8)
        };
        // The best of ?'s lines: l (BA) over d (a pass).
        assert_eq!(t1.status(), Status::Alive);
        assert_eq!(t1.problem.winning, vec![at(t1, 0, 1)]);
        assert_eq!(t1.best_first_move(), Some(at(t1, 0, 1)));
        assert_eq!(t1.answers[1].main_line, vec![None, Some((0, 1))]);
        // The region: the enclosed points (empty and ? stones); the A stones on the open board
        // are wall.
        assert_eq!(t1.problem.region.len(), 8);
        assert_eq!(t1.problem.region.wall.len(), 7);
        assert!(t1.problem.region.index_of((2, 4)).is_none(), "EC is wall");
        // The marked chain is the target: the whole ? chain through AB.
        assert_eq!(t1.problem.targets, t1.problem.start.of(Side::Defender));
        assert_eq!(t1.problem.targets.count_ones(), 5);
        // For A, the most dead of its lines: d over d1l; the continued line is read whole.
        let t2 = &qs[1 + 1];
        assert_eq!(t2.status(), Status::Dead);
        assert_eq!(t2.answers.len(), 3);
        assert_eq!(t2.answers[2].main_line, vec![Some((0, 0)), Some((0, 1))]);
        assert_eq!(t2.best_first_move(), Some(at(t2, 0, 1)));
        assert_eq!(t2.problem.winning, vec![at(t2, 0, 1), at(t2, 0, 2)]);
    }

    #[test]
    fn a_malformed_file_names_the_line() {
        let bad = [
            (FILE.replace("?+l#3", "?*l#3"), 7, "'+' or '-'"),
            (FILE.replace("?+l#3", "?+x#3"), 7, "status 'x'"),
            (FILE.replace("?+l#3", "?-l#3"), 7, "a success"),
            (FILE.replacen("[AB]", "[AB][ZZ]", 1), 5, "board letter"),
            (FILE.replace("$ T2", "% T2"), 11, "'$ NAME'"),
            (FILE.replace(":BAAA:", ":BAA:"), 9, "odd number"),
            (FILE.replacen("[AB]", "[AA]", 1), 5, "not on a '?' stone"),
            (
                FILE.replacen("AEA\\", "AEA?FF\\", 1),
                5,
                "touches the open board",
            ),
        ];
        for (text, line, what) in bad {
            let e = parse_gotools(&text).unwrap_err();
            assert_eq!(e.line, line, "{e}");
            assert!(e.message.contains(what), "{e}");
        }
    }

    #[test]
    fn files_are_named_by_volume_and_level() {
        assert_eq!(volume_level("lv3.14"), Some((3, 14)));
        assert_eq!(volume_level("lv4-6"), Some((4, 6)));
        assert_eq!(volume_level("notes.txt"), None);
    }
}
