//! Othello opening suites: every distinct position a few plies from a stage's start, one line
//! each, deduplicated under the symmetries of the square (what `gamelab openings` writes and the
//! shipped `openings/othello-<stage>.txt` files are).
//!
//! Two positions are the same opening when one of the 8 rotations and reflections of the board
//! maps the discs, the blocked cells and the side to move of one onto the other: the games from
//! them are the same games, mirrored. The line kept for a class is the first reached by a
//! depth-first walk that tries moves in row-major order (a1, b1, ..., h8), so the suite is a
//! function of the stage and the ply count alone. Positions in which the game is over are left
//! out; a forced pass counts as a ply (and is left out of the line, as in transcripts).

use super::{Othello, PASS, stage};
use crate::game::Game;

/// The 8 symmetries of an n x n board as maps of (row, column).
fn symmetries(n: u8) -> [Box<dyn Fn(u8, u8) -> (u8, u8)>; 8] {
    let m = n - 1;
    [
        Box::new(|r, c| (r, c)),
        Box::new(move |r, c| (c, m - r)),
        Box::new(move |r, c| (m - r, m - c)),
        Box::new(move |r, c| (m - c, r)),
        Box::new(move |r, c| (r, m - c)),
        Box::new(move |r, c| (m - r, c)),
        Box::new(|r, c| (c, r)),
        Box::new(move |r, c| (m - c, m - r)),
    ]
}

/// A position's class under the board's symmetries: the least image of (black, white, blocked)
/// with the side to move.
fn class(g: &Othello, maps: &[Box<dyn Fn(u8, u8) -> (u8, u8)>; 8]) -> ([u64; 3], usize) {
    let n = g.rules().size;
    let sets = [
        g.discs(crate::game::Player::First),
        g.discs(crate::game::Player::Second),
        g.rules().blocked,
    ];
    let image = |f: &dyn Fn(u8, u8) -> (u8, u8)| -> [u64; 3] {
        sets.map(|bits| {
            let mut out = 0u64;
            for r in 0..n {
                for c in 0..n {
                    if bits & stage::bit(r, c) != 0 {
                        let (r2, c2) = f(r, c);
                        out |= stage::bit(r2, c2);
                    }
                }
            }
            out
        })
    };
    (
        maps.iter()
            .map(|f| image(f.as_ref()))
            .min()
            .expect("eight maps"),
        g.to_move().index(),
    )
}

/// The suite of `start` at `plies` plies: one line (moves concatenated, passes left out) per
/// class of positions reached, in the order the walk first reaches them.
pub fn suite(start: &Othello, plies: u32) -> Vec<String> {
    let maps = symmetries(start.rules().size);
    let mut seen = std::collections::HashSet::new();
    let mut lines = Vec::new();
    fn walk(
        g: &Othello,
        left: u32,
        line: &mut String,
        maps: &[Box<dyn Fn(u8, u8) -> (u8, u8)>; 8],
        seen: &mut std::collections::HashSet<([u64; 3], usize)>,
        lines: &mut Vec<String>,
    ) {
        if g.is_over() {
            return;
        }
        if left == 0 {
            if seen.insert(class(g, maps)) {
                lines.push(line.clone());
            }
            return;
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        for mv in moves {
            let mut next = *g;
            next.play(mv);
            let len = line.len();
            if mv != PASS {
                line.push_str(&g.move_name(mv));
            }
            walk(&next, left - 1, line, maps, seen, lines);
            line.truncate(len);
        }
    }
    walk(
        start,
        plies,
        &mut String::new(),
        &maps,
        &mut seen,
        &mut lines,
    );
    lines
}

/// The suite as the file `gamelab openings` writes: a header saying how it was made, then one
/// line per opening.
pub fn suite_file(stage_id: &str, start: &Othello, plies: u32) -> String {
    let lines = suite(start, plies);
    let mut text = format!(
        "# Othello openings for stage {stage_id}: every position {plies} plies from the start, one per class\n\
         # under the 8 rotations and reflections of the board (discs, blocked cells and side to move),\n\
         # the line kept being the first a row-major depth-first walk reaches; positions where the game\n\
         # is over are left out. {} openings.\n\
         # Made by: gamelab openings --game othello --stage {stage_id} --plies {plies}\n",
        lines.len()
    );
    for l in &lines {
        text.push_str(l);
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_start_has_one_opening_move_up_to_symmetry() {
        let start = Othello::from_stage_id("standard8");
        // f5, e6, d3 and c4 are one move under the symmetries of the start.
        assert_eq!(suite(&start, 1), vec!["d3"]);
        // After two plies: the diagonal, perpendicular and parallel openings.
        assert_eq!(suite(&start, 2).len(), 3);
    }

    #[test]
    fn every_line_reaches_a_position_that_no_other_line_mirrors() {
        let start = Othello::from_stage_id("standard8");
        let maps = symmetries(8);
        let lines = suite(&start, 4);
        let mut classes = std::collections::HashSet::new();
        for l in &lines {
            let mut g = start;
            g.play_transcript(l).unwrap();
            assert!(classes.insert(class(&g, &maps)), "{l} repeats a class");
        }
        // Every position after 4 plies is in some line's class.
        let mut all = std::collections::HashSet::new();
        let mut stack = vec![(start, 0)];
        while let Some((g, d)) = stack.pop() {
            if d == 4 {
                all.insert(class(&g, &maps));
                continue;
            }
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            for m in moves {
                let mut n = g;
                n.play(m);
                stack.push((n, d + 1));
            }
        }
        assert_eq!(all, classes);
    }

    #[test]
    fn the_shipped_suites_are_what_gamelab_openings_writes() {
        for id in super::super::stage::BUILTIN_STAGES {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("openings/othello-{id}.txt"));
            let shipped = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                shipped == suite_file(id, &Othello::from_stage_id(id), 6),
                "{} differs from `gamelab openings --stage {id} --plies 6`",
                path.display()
            );
        }
    }

    #[test]
    fn blocked_cells_that_break_a_symmetry_keep_mirrored_positions_apart() {
        // partial-c8's blocked cells turn with the board but do not mirror: fewer classes merge.
        let plain = suite(&Othello::from_stage_id("standard8"), 3).len();
        let partial = suite(&Othello::from_stage_id("partial-c8"), 3).len();
        assert!(partial > plain, "{partial} vs {plain}");
    }
}
