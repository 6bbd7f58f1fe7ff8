//! Life-and-death problems: the text format (one or many problems per file, as GoTools' `lvA-B`
//! files), drawing, and SGF import and export.
//!
//! ```text
//! # comments start with '#' (outside maps)
//! problem lv1-3-017      starts a problem; the name is free text without spaces
//! size 19                board size (default 19)
//! to-move defender       defender or attacker
//! attacker black         the attacker's colour, for SGF and drawing (default black)
//! origin 0 0             board row and column of the map's first character (default 0 0)
//! targets C18 D18        target stones (default: every defender stone)
//! status l1d             optional: the recorded answer (l, d, lNd, dNl)
//! winning B17 pass       optional: the recorded winning first moves
//! unique B17             optional: the unique winning first move (the static fitness uses it)
//! level 3                optional: the difficulty level
//! map
//! ########
//! #..O.X.#
//! #.OO..##
//! ####..#
//!    ####
//! end
//! ```
//! Map symbols: `X` attacker stone inside the region, `O` defender stone, `.` empty point of the
//! region, `#` wall (attacker stones outside the region, never captured), space (or the end
//! of a line) outside the problem. The map's first row is board row `origin` from the top (row
//! 0 is row `size` in Go notation). The region must be closed: each of its points' neighbours
//! is in the region, a wall stone or off the board. Every chain inside the region needs a
//! liberty (attacker stones touching the wall belong to the wall).
//!
//! SGF: `AB`/`AW` stones, `PL` side to move, `TR` the region's points (so the region survives
//! a round trip and shows in any Go program), `MA` the targets, `GN` the name.

use super::board::{Bits, Coord, Move, Position, Region, Side, bit, coord_name, parse_coord};
use crate::game::colosseum::text::TextError;

/// Threat budgets tried by the status sweep: `N` of `lNd`/`dNl` runs 1..=MAX_THREATS.
pub const MAX_THREATS: u8 = 5;

/// What GoTools prints for a problem, from the defender's point of view, with the problem's
/// side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// `l`: alive however many ko threats the attacker has.
    Alive,
    /// `d`: dead however many ko threats the defender has.
    Dead,
    /// `lNd`: alive unless the attacker has N external ko threats.
    AliveUnlessKo(u8),
    /// `dNl`: dead unless the defender has N external ko threats.
    DeadUnlessKo(u8),
    /// The node budget ran out.
    Unknown,
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Status::Alive => write!(f, "l"),
            Status::Dead => write!(f, "d"),
            Status::AliveUnlessKo(n) => write!(f, "l{n}d"),
            Status::DeadUnlessKo(n) => write!(f, "d{n}l"),
            Status::Unknown => write!(f, "?"),
        }
    }
}

impl std::str::FromStr for Status {
    type Err = String;
    fn from_str(s: &str) -> Result<Status, String> {
        let bad = || format!("status '{s}': expected l, d, lNd or dNl (N = 1..{MAX_THREATS})");
        match s {
            "l" => return Ok(Status::Alive),
            "d" => return Ok(Status::Dead),
            _ => {}
        }
        let b = s.as_bytes();
        if b.len() != 3 || !(b'1'..=b'0' + MAX_THREATS).contains(&b[1]) {
            return Err(bad());
        }
        let n = b[1] - b'0';
        match (b[0], b[2]) {
            (b'l', b'd') => Ok(Status::AliveUnlessKo(n)),
            (b'd', b'l') => Ok(Status::DeadUnlessKo(n)),
            _ => Err(bad()),
        }
    }
}

impl Status {
    /// Whether the side to move reaches its aim without ko threats.
    pub fn mover_wins(self, to_move: Side) -> Option<bool> {
        let lives = match self {
            Status::Alive | Status::AliveUnlessKo(_) => true,
            Status::Dead | Status::DeadUnlessKo(_) => false,
            Status::Unknown => return None,
        };
        Some(lives == (to_move == Side::Defender))
    }
}

/// A life-and-death problem.
#[derive(Clone, Debug)]
pub struct Problem {
    pub name: String,
    pub region: Region,
    /// Stones and side to move (no passes, no threats).
    pub start: Position,
    /// Target points: the defender lives when a chain through one of them lives.
    pub targets: u64,
    /// Black attacks (true) or White does.
    pub attacker_black: bool,
    pub status: Option<Status>,
    pub winning: Vec<Move>,
    pub unique: Option<Move>,
    pub level: Option<u8>,
    /// The library set the problem was read from (`Selection::load` sets it; for GoTools' files
    /// the volume, which their problem names do not carry). None for a problem read on its own.
    pub set: Option<u8>,
    /// Board row and column of the map's top-left character.
    pub origin: Coord,
}

impl Problem {
    /// Go notation of a move.
    pub fn move_name(&self, m: Move) -> String {
        match m {
            Move::Play(i) => self.region.point_name(i as usize),
            Move::Pass => "pass".into(),
        }
    }

    fn parse_move(&self, s: &str) -> Option<Move> {
        if s.eq_ignore_ascii_case("pass") {
            return Some(Move::Pass);
        }
        let c = parse_coord(self.region.size, s)?;
        self.region.index_of(c).map(|i| Move::Play(i as u8))
    }

    /// The map: rows from the origin's row to the last row with a problem point or wall stone.
    pub fn map(&self) -> Vec<String> {
        let r = &self.region;
        let mut cells: Vec<(Coord, char)> = r.wall.iter().map(|&c| (c, '#')).collect();
        for (i, &c) in r.coords.iter().enumerate() {
            let ch = if self.start.of(Side::Attacker) & bit(i) != 0 {
                'X'
            } else if self.start.of(Side::Defender) & bit(i) != 0 {
                'O'
            } else {
                '.'
            };
            cells.push((c, ch));
        }
        let last_row = cells.iter().map(|c| c.0.0).max().unwrap_or(self.origin.0);
        let mut rows = Vec::new();
        for row in self.origin.0..=last_row {
            let mut line: Vec<char> = Vec::new();
            for &((_, col), ch) in cells.iter().filter(|c| c.0.0 == row) {
                let at = (col - self.origin.1) as usize;
                if line.len() <= at {
                    line.resize(at + 1, ' ');
                }
                line[at] = ch;
            }
            rows.push(line.into_iter().collect());
        }
        rows
    }

    /// The problem in the text format (parsed back to the same problem).
    pub fn to_text(&self) -> String {
        let mut s = format!("problem {}\n", self.name);
        s += &format!(
            "size {}\nto-move {}\nattacker {}\n",
            self.region.size,
            self.start.to_move.name(),
            if self.attacker_black {
                "black"
            } else {
                "white"
            }
        );
        if self.origin != (0, 0) {
            s += &format!("origin {} {}\n", self.origin.0, self.origin.1);
        }
        if self.targets != self.start.of(Side::Defender) {
            let names: Vec<String> = Bits(self.targets)
                .map(|i| self.region.point_name(i))
                .collect();
            s += &format!("targets {}\n", names.join(" "));
        }
        if let Some(level) = self.level {
            s += &format!("level {level}\n");
        }
        if let Some(st) = self.status {
            s += &format!("status {st}\n");
        }
        if !self.winning.is_empty() {
            let names: Vec<String> = self.winning.iter().map(|&m| self.move_name(m)).collect();
            s += &format!("winning {}\n", names.join(" "));
        }
        if let Some(u) = self.unique {
            s += &format!("unique {}\n", self.move_name(u));
        }
        s += "map\n";
        for row in self.map() {
            s += row.trim_end();
            s.push('\n');
        }
        s += "end\n";
        s
    }

    /// A drawing with coordinates: the map with the board's column letters and row numbers.
    pub fn draw(&self) -> String {
        let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
        let rows = self.map();
        let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let cols: String = (0..width)
            .map(|c| letters.as_bytes()[self.origin.1 as usize + c] as char)
            .collect();
        let mut s = format!("    {cols}\n");
        for (k, row) in rows.iter().enumerate() {
            let number = self.region.size as usize - (self.origin.0 as usize + k);
            s += &format!("{number:>3} {row}\n");
        }
        let colour = |side: Side| {
            if (side == Side::Attacker) == self.attacker_black {
                "black"
            } else {
                "white"
            }
        };
        s += &format!(
            "{} to move ({}); attacker X = {}, defender O = {}; region of {} points, {} empty\n",
            self.start.to_move.name(),
            colour(self.start.to_move),
            colour(Side::Attacker),
            colour(Side::Defender),
            self.region.len(),
            self.start.empty(&self.region).count_ones()
        );
        if self.targets != self.start.of(Side::Defender) {
            let names: Vec<String> = Bits(self.targets)
                .map(|i| self.region.point_name(i))
                .collect();
            s += &format!("targets: {}\n", names.join(" "));
        }
        s
    }

    /// The problem as SGF (AB/AW stones, PL, TR region points, MA targets, GN name).
    pub fn to_sgf(&self) -> String {
        let comment = self
            .status
            .map(|st| format!("status {st}"))
            .unwrap_or_default();
        self.to_sgf_with_line(&comment, &[])
    }

    /// `to_sgf` with the root comment `comment` (none when empty) and `line` played from the
    /// problem's position as the game's main line (a pass is an empty move, `B[]`).
    pub fn to_sgf_with_line(&self, comment: &str, line: &[Move]) -> String {
        let pt = |c: Coord| format!("[{}{}]", (b'a' + c.1) as char, (b'a' + c.0) as char);
        let r = &self.region;
        let mut att: Vec<Coord> = r.wall.clone();
        att.extend(Bits(self.start.of(Side::Attacker)).map(|i| r.coords[i]));
        att.sort();
        let def: Vec<Coord> = Bits(self.start.of(Side::Defender))
            .map(|i| r.coords[i])
            .collect();
        let (black, white) = if self.attacker_black {
            (att, def)
        } else {
            (def, att)
        };
        let list = |v: &[Coord]| v.iter().map(|&c| pt(c)).collect::<String>();
        let mover_black = (self.start.to_move == Side::Attacker) == self.attacker_black;
        let mut s = format!(
            "(;GM[1]FF[4]CA[UTF-8]SZ[{}]GN[{}]PL[{}]",
            r.size,
            self.name,
            if mover_black { "B" } else { "W" }
        );
        if !black.is_empty() {
            s += &format!("AB{}", list(&black));
        }
        if !white.is_empty() {
            s += &format!("AW{}", list(&white));
        }
        s += &format!("TR{}", list(&r.coords));
        s += &format!(
            "MA{}",
            list(&Bits(self.targets).map(|i| r.coords[i]).collect::<Vec<_>>())
        );
        if !comment.is_empty() {
            s += &format!("C[{}]", comment.replace('\\', "\\\\").replace(']', "\\]"));
        }
        let mut black = mover_black;
        for m in line {
            let at = match m {
                Move::Play(i) => pt(r.coords[*i as usize]),
                Move::Pass => "[]".to_string(),
            };
            s += &format!(";{}{at}", if black { "B" } else { "W" });
            black = !black;
        }
        s += ")\n";
        s
    }
}

fn err<T>(line: usize, name: &str, message: impl Into<String>) -> Result<T, TextError> {
    let m = message.into();
    Err(TextError {
        line,
        message: if name.is_empty() {
            m
        } else {
            format!("problem {name}: {m}")
        },
    })
}

/// The header and map of one problem as read, before checking.
#[derive(Default)]
struct Draft {
    name: String,
    line: usize,
    size: Option<u8>,
    to_move: Option<Side>,
    attacker_black: bool,
    origin: (u8, u8),
    targets: Option<(usize, Vec<String>)>,
    status: Option<Status>,
    winning: Option<(usize, Vec<String>)>,
    unique: Option<(usize, String)>,
    level: Option<u8>,
    map: Vec<(usize, String)>,
}

/// Parses a problem file: one or more problems. Errors name the problem and the line.
pub fn parse_problems(text: &str) -> Result<Vec<Problem>, TextError> {
    let mut out = Vec::new();
    let mut draft: Option<Draft> = None;
    let mut in_map = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let raw = raw.trim_end_matches('\r');
        if in_map {
            let d = draft.as_mut().expect("a map is inside a problem");
            if raw.trim() == "end" {
                in_map = false;
                out.push(finish(draft.take().expect("checked"))?);
            } else {
                d.map.push((n, raw.to_string()));
            }
            continue;
        }
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words[0] == "problem" {
            if words.len() != 2 {
                return err(n, "", "expected 'problem NAME' (a name without spaces)");
            }
            if let Some(d) = &draft {
                return err(
                    n,
                    &d.name,
                    "no map: expected 'map', the map rows, then 'end'",
                );
            }
            draft = Some(Draft {
                name: words[1].to_string(),
                line: n,
                attacker_black: true,
                ..Draft::default()
            });
            continue;
        }
        let Some(d) = draft.as_mut() else {
            return err(
                n,
                "",
                format!("'{}' before the first 'problem NAME' line", words[0]),
            );
        };
        let name = d.name.clone();
        let one = |w: &[&str]| -> Result<String, TextError> {
            if w.len() == 2 {
                Ok(w[1].to_string())
            } else {
                err(n, &name, format!("expected '{} VALUE'", w[0]))
            }
        };
        match words[0] {
            "size" => {
                let v = one(&words)?;
                d.size = Some(v.parse().ok().filter(|s| (2..=25).contains(s)).ok_or_else(
                    || TextError {
                        line: n,
                        message: format!("problem {name}: size '{v}': expected 2..25"),
                    },
                )?);
            }
            "to-move" => {
                d.to_move = Some(match one(&words)?.as_str() {
                    "defender" => Side::Defender,
                    "attacker" => Side::Attacker,
                    v => {
                        return err(
                            n,
                            &name,
                            format!("to-move '{v}': expected defender or attacker"),
                        );
                    }
                })
            }
            "attacker" => {
                d.attacker_black = match one(&words)?.as_str() {
                    "black" => true,
                    "white" => false,
                    v => return err(n, &name, format!("attacker '{v}': expected black or white")),
                }
            }
            "origin" => {
                let (Some(r), Some(c), 3) = (
                    words.get(1).and_then(|v| v.parse().ok()),
                    words.get(2).and_then(|v| v.parse().ok()),
                    words.len(),
                ) else {
                    return err(
                        n,
                        &name,
                        "expected 'origin ROW COLUMN' (board row and column from the top left, from 0)",
                    );
                };
                d.origin = (r, c);
            }
            "targets" => d.targets = Some((n, words[1..].iter().map(|s| s.to_string()).collect())),
            "winning" => d.winning = Some((n, words[1..].iter().map(|s| s.to_string()).collect())),
            "unique" => d.unique = Some((n, one(&words)?)),
            "status" => {
                d.status = Some(one(&words)?.parse().map_err(|e: String| TextError {
                    line: n,
                    message: format!("problem {name}: {e}"),
                })?)
            }
            "level" => {
                let v = one(&words)?;
                d.level = Some(v.parse().map_err(|_| TextError {
                    line: n,
                    message: format!("problem {name}: level '{v}': expected a number"),
                })?);
            }
            "map" => in_map = true,
            w => {
                return err(
                    n,
                    &name,
                    format!(
                        "unknown line '{w}': expected size, to-move, attacker, origin, targets, status, winning, unique, level or map"
                    ),
                );
            }
        }
    }
    if let Some(d) = draft {
        let what = if in_map {
            "the map has no 'end' line"
        } else {
            "no map: expected 'map', the map rows, then 'end'"
        };
        return err(d.line, &d.name, what);
    }
    if out.is_empty() {
        return err(1, "", "no problems: a problem starts with 'problem NAME'");
    }
    Ok(out)
}

/// Checks a drafted problem and builds it.
fn finish(d: Draft) -> Result<Problem, TextError> {
    let name = d.name.as_str();
    let size = d.size.unwrap_or(19);
    let Some(to_move) = d.to_move else {
        return err(d.line, name, "no 'to-move defender|attacker' line");
    };
    // Read the map into board cells.
    let mut cells: Vec<(Coord, char, usize)> = Vec::new();
    for (k, (n, row)) in d.map.iter().enumerate() {
        for (j, ch) in row.chars().enumerate() {
            if ch == ' ' {
                continue;
            }
            if !matches!(ch, 'X' | 'O' | '.' | '#') {
                return err(
                    *n,
                    name,
                    format!(
                        "unknown symbol '{ch}' in column {} of the map (expected X, O, '.', '#' or space)",
                        j + 1
                    ),
                );
            }
            let (r, c) = (d.origin.0 as usize + k, d.origin.1 as usize + j);
            if r >= size as usize || c >= size as usize {
                return err(
                    *n,
                    name,
                    format!(
                        "the map does not fit the board: column {} of this row is off a {size}x{size} board",
                        j + 1
                    ),
                );
            }
            cells.push(((r as u8, c as u8), ch, *n));
        }
    }
    let points: Vec<Coord> = cells.iter().filter(|c| c.1 != '#').map(|c| c.0).collect();
    let wall: Vec<Coord> = cells.iter().filter(|c| c.1 == '#').map(|c| c.0).collect();
    if points.is_empty() {
        return err(d.line, name, "the map has no region points (X, O or '.')");
    }
    if points.len() > 64 {
        return err(
            d.line,
            name,
            format!("the region has {} points; at most 64", points.len()),
        );
    }
    let line_of = |c: Coord| cells.iter().find(|x| x.0 == c).map_or(d.line, |x| x.2);
    // Closure: every on-board neighbour of a region point is a region point or wall.
    for &c in &points {
        for (dr, dc) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
            let (r, cc) = (c.0 as i32 + dr, c.1 as i32 + dc);
            if r < 0 || cc < 0 || r >= size as i32 || cc >= size as i32 {
                continue;
            }
            let q = (r as u8, cc as u8);
            if !cells.iter().any(|x| x.0 == q) {
                return err(
                    line_of(c),
                    name,
                    format!(
                        "open region: {} has the neighbour {}, which is neither in the region nor wall",
                        coord_name(size, c),
                        coord_name(size, q)
                    ),
                );
            }
        }
    }
    let region = Region::new(size, points, wall);
    let (mut att, mut def) = (0u64, 0u64);
    for &(c, ch, _) in &cells {
        if let Some(i) = region.index_of(c) {
            match ch {
                'X' => att |= bit(i),
                'O' => def |= bit(i),
                _ => {}
            }
        }
    }
    if def == 0 {
        return err(
            d.line,
            name,
            "no defender stones (O): nothing to kill or save",
        );
    }
    let start = Position::new(&region, att, def, to_move);
    if let Some((side, chain)) = start.chain_without_liberty(&region) {
        let first = chain.trailing_zeros() as usize;
        return err(
            line_of(region.coords[first]),
            name,
            format!(
                "the {} chain at {} has no liberties",
                side.name(),
                region.point_name(first)
            ),
        );
    }
    let mut p = Problem {
        name: d.name.clone(),
        region,
        start,
        targets: def,
        attacker_black: d.attacker_black,
        status: d.status,
        winning: Vec::new(),
        unique: None,
        level: d.level,
        set: None,
        origin: d.origin,
    };
    if let Some((n, names)) = &d.targets {
        let mut t = 0u64;
        for s in names {
            match parse_coord(size, s).and_then(|c| p.region.index_of(c)) {
                Some(i) if def & bit(i) != 0 => t |= bit(i),
                _ => {
                    return err(
                        *n,
                        name,
                        format!("target '{s}' is not a defender stone of the region"),
                    );
                }
            }
        }
        if t == 0 {
            return err(*n, name, "'targets' lists no stones");
        }
        p.targets = t;
    }
    if let Some((n, names)) = &d.winning {
        for s in names {
            let m = p.parse_move(s).ok_or_else(|| TextError {
                line: *n,
                message: format!(
                    "problem {name}: winning move '{s}' is not a point of the region or pass"
                ),
            })?;
            p.winning.push(m);
        }
    }
    if let Some((n, s)) = &d.unique {
        p.unique = Some(p.parse_move(s).ok_or_else(|| TextError {
            line: *n,
            message: format!(
                "problem {name}: unique move '{s}' is not a point of the region or pass"
            ),
        })?);
    }
    Ok(p)
}

/// Reads an SGF problem: `AB`/`AW`, `PL`, `SZ`, `GN`, `TR` (the region) and `MA` (targets).
/// Without `TR`, the defender is the colour of the `MA` stones and the region is everything
/// reachable from its stones through empty and defender points (attacker stones around it are
/// the wall). The result goes through the same checks as the text format (as one map).
pub fn parse_sgf(text: &str) -> Result<Problem, TextError> {
    let mut props: Vec<(String, Vec<String>)> = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    let mut ident = String::new();
    while i < b.len() {
        let ch = b[i] as char;
        if ch.is_ascii_uppercase() {
            ident.push(ch);
            i += 1;
        } else if ch == '[' {
            let mut values = Vec::new();
            while i < b.len() && b[i] == b'[' {
                let mut v = String::new();
                i += 1;
                while i < b.len() && b[i] != b']' {
                    if b[i] == b'\\' && i + 1 < b.len() {
                        i += 1;
                    }
                    v.push(b[i] as char);
                    i += 1;
                }
                i += 1;
                values.push(v);
                while i < b.len() && (b[i] as char).is_whitespace() {
                    i += 1;
                }
            }
            if ident.is_empty() {
                return err(1, "", "SGF: a value without a property name");
            }
            props.push((std::mem::take(&mut ident), values));
        } else {
            if ch == ';' && props.iter().any(|p| p.0 == "AB" || p.0 == "AW") {
                break; // Only the first node with setup stones.
            }
            ident.clear();
            i += 1;
        }
    }
    // Garbage (no SGF game tree, no setup stones) is said to be what it is, not a missing mark.
    if !text.trim_start().starts_with("(;") {
        return err(
            1,
            "",
            "not an SGF file: it must start with '(;' (an SGF game tree)",
        );
    }
    if !props.iter().any(|p| p.0 == "AB" || p.0 == "AW") {
        return err(
            1,
            "",
            "SGF: no setup stones (AB[..] and AW[..] properties) in the first node with any",
        );
    }
    let get = |k: &str| {
        props
            .iter()
            .filter(|p| p.0 == k)
            .flat_map(|p| p.1.clone())
            .collect::<Vec<String>>()
    };
    let size: u8 = get("SZ").first().and_then(|s| s.parse().ok()).unwrap_or(19);
    let point = |s: &str| -> Result<Coord, TextError> {
        let v = s.as_bytes();
        if v.len() != 2
            || !v[0].is_ascii_lowercase()
            || !v[1].is_ascii_lowercase()
            || v[0] - b'a' >= size
            || v[1] - b'a' >= size
        {
            return err(
                1,
                "",
                format!("SGF: bad point '{s}' on a {size}x{size} board"),
            );
        }
        Ok((v[1] - b'a', v[0] - b'a'))
    };
    let points =
        |k: &str| -> Result<Vec<Coord>, TextError> { get(k).iter().map(|s| point(s)).collect() };
    let (black, white, region_pts, marks) =
        (points("AB")?, points("AW")?, points("TR")?, points("MA")?);
    let name = get("GN")
        .first()
        .cloned()
        .unwrap_or_else(|| "sgf".into())
        .replace(' ', "_");
    let in_region = |c: &Coord, r: &[Coord]| r.contains(c);
    let attacker_black = if !region_pts.is_empty() {
        let outside_black = black.iter().any(|c| !in_region(c, &region_pts));
        let outside_white = white.iter().any(|c| !in_region(c, &region_pts));
        match (outside_black, outside_white) {
            (true, false) => true,
            (false, true) => false,
            _ => {
                return err(
                    1,
                    &name,
                    "SGF: the stones outside the TR region must all be one colour (the attacker's wall)",
                );
            }
        }
    } else if let Some(m) = marks.first() {
        !black.contains(m)
    } else {
        return err(
            1,
            &name,
            "SGF: mark the region with TR or the targets with MA",
        );
    };
    let (att, def) = if attacker_black {
        (&black, &white)
    } else {
        (&white, &black)
    };
    let region_pts = if region_pts.is_empty() {
        // Flood from the defender's stones through empty and defender points.
        let mut reg: Vec<Coord> = def.clone();
        let mut k = 0;
        while k < reg.len() {
            let c = reg[k];
            for (dr, dc) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                let (r, cc) = (c.0 as i32 + dr, c.1 as i32 + dc);
                if r < 0 || cc < 0 || r >= size as i32 || cc >= size as i32 {
                    continue;
                }
                let q = (r as u8, cc as u8);
                if !att.contains(&q) && !reg.contains(&q) {
                    reg.push(q);
                }
            }
            k += 1;
            if reg.len() > 64 {
                return err(
                    1,
                    &name,
                    "open region: the defender's area reaches more than 64 points (mark the region with TR)",
                );
            }
        }
        reg
    } else {
        region_pts
    };
    // Build the map text and parse it, so every check is the text format's.
    let mut grid = vec![vec![' '; size as usize]; size as usize];
    for c in &region_pts {
        grid[c.0 as usize][c.1 as usize] = '.';
    }
    for c in att {
        grid[c.0 as usize][c.1 as usize] = if region_pts.contains(c) { 'X' } else { '#' };
    }
    for c in def {
        if !region_pts.contains(c) {
            return err(
                1,
                &name,
                format!(
                    "SGF: defender stone {} outside the region",
                    coord_name(size, *c)
                ),
            );
        }
        grid[c.0 as usize][c.1 as usize] = 'O';
    }
    let mover_black = get("PL").first().is_none_or(|p| p == "B");
    let to_move = if mover_black == attacker_black {
        "attacker"
    } else {
        "defender"
    };
    let mut t = format!(
        "problem {name}\nsize {size}\nto-move {to_move}\nattacker {}\n",
        if attacker_black { "black" } else { "white" }
    );
    if !marks.is_empty() {
        let names: Vec<String> = marks.iter().map(|&c| coord_name(size, c)).collect();
        t += &format!("targets {}\n", names.join(" "));
    }
    t += "map\n";
    let last = grid
        .iter()
        .rposition(|r| r.iter().any(|&c| c != ' '))
        .unwrap_or(0);
    for row in &grid[..=last] {
        let s: String = row.iter().collect();
        t += s.trim_end();
        t.push('\n');
    }
    t += "end\n";
    parse_problems(&t)
        .map(|mut v| v.remove(0))
        .map_err(|e| TextError {
            line: 1,
            message: format!("SGF: {}", e.message),
        })
}
