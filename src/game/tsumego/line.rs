//! The solver's main line of a problem: the moves `gamelab games` writes into a solve row's SGF.
//!
//! From the problem's position, the side the solver says wins plays its first winning move (the
//! first of `Solution::winning_moves`, which are proven without ko threats), and the losing side
//! plays the move whose refutation costs the solver the most nodes (the longest resistance),
//! until the position is decided (no target stone left, two eyes, two passes), a search runs out
//! of its node budget, or the line reaches its length cap. Moves are the solver's: points of the
//! region, and the pass where the solver's model allows it (`solver::may_pass`; the second pass
//! in a row starts the judging phase, a new line). A move that would repeat a position of the
//! line is skipped, as the solver bans repetition.
//! Each step is a fresh solve of the position reached, without the line's history: a line
//! is the solver's answer position by position, not one search's principal variation.

use super::board::{Move, Position};
use super::life::decided;
use super::solver::{after_pass, may_pass};
use super::{Limits, Problem, Solver, Status, Weights};

/// A main line: the root's status, the moves, and whether it ends in a decided position.
#[derive(Clone, Debug, PartialEq)]
pub struct MainLine {
    pub status: Status,
    pub moves: Vec<Move>,
    /// False when a search ran out of budget or the cap was reached first.
    pub complete: bool,
}

/// The moves of the side to move at `pos`: plays that are legal and do not repeat a position in
/// `seen`, and the pass where the model allows it.
fn moves(problem: &Problem, pos: &Position, seen: &[u64]) -> Vec<(Move, Position)> {
    let r = &problem.region;
    let mut out: Vec<(Move, Position)> = super::board::Bits(pos.empty(r))
        .filter_map(|i| {
            pos.play(r, i)
                .map(|(child, _)| (Move::Play(i as u8), child))
        })
        .filter(|(_, child)| !seen.contains(&child.hash))
        .collect();
    if may_pass(pos) {
        out.push((Move::Pass, after_pass(pos)));
    }
    out
}

/// The main line of `problem` with `weights` (each solve within `limits`), at most `cap` moves.
pub fn main_line(
    solver: &mut Solver,
    problem: &Problem,
    weights: &Weights,
    limits: Limits,
    cap: usize,
) -> MainLine {
    let mut here = Problem {
        status: None,
        winning: Vec::new(),
        unique: None,
        ..problem.clone()
    };
    let mut solution = solver.solve(&here, weights, limits, true);
    let status = solution.status;
    let mut seen = vec![here.start.hash];
    let mut line = Vec::new();
    for _ in 0..cap {
        if decided(&here.region, &here.start, here.targets).is_some() {
            return MainLine {
                status,
                moves: line,
                complete: true,
            };
        }
        let Some(wins) = solution.status.mover_wins(here.start.to_move) else {
            break;
        };
        let options = moves(&here, &here.start, &seen);
        let next = if wins {
            solution
                .winning_moves
                .iter()
                .find_map(|m| options.iter().find(|(o, _)| o == m))
                .copied()
        } else {
            // The longest resistance; ties to the first move (points in order, the pass last).
            let mut best: Option<(u64, (Move, Position))> = None;
            for &(m, child) in &options {
                let s = solver.solve(
                    &Problem {
                        start: child,
                        ..here.clone()
                    },
                    weights,
                    limits,
                    false,
                );
                if s.status == Status::Unknown {
                    return MainLine {
                        status,
                        moves: line,
                        complete: false,
                    };
                }
                if best.is_none_or(|(n, _)| s.counters.nodes > n) {
                    best = Some((s.counters.nodes, (m, child)));
                }
            }
            best.map(|(_, o)| o)
        };
        let Some((m, child)) = next else { break };
        line.push(m);
        if child.judging && !here.start.judging {
            seen.clear();
        }
        seen.push(child.hash);
        here.start = child;
        solution = solver.solve(&here, weights, limits, true);
    }
    MainLine {
        status,
        moves: line,
        complete: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tsumego::Side;

    #[test]
    fn a_line_ends_decided_and_its_first_move_is_a_winning_move() {
        use crate::rng::{derive_seed, rng_from_seed};
        let limits = Limits::with_budget(200_000);
        let (mut solver, w) = (Solver::new(16), Weights::reference());
        let (mut checked, mut complete) = (0, 0);
        for case in 0..60u64 {
            let mut rng = rng_from_seed(derive_seed(11, &[case]));
            let Some(p) = super::super::generate::draw(1 + (case % 4) as u8, &mut rng) else {
                continue;
            };
            if p.start.chain_without_liberty(&p.region).is_some()
                || decided(&p.region, &p.start, p.targets).is_some()
            {
                continue;
            }
            let s = solver.solve(&p, &w, limits, true);
            if s.status == Status::Unknown {
                continue;
            }
            let l = main_line(&mut solver, &p, &w, limits, 60);
            assert_eq!(l.status, s.status, "{}", p.to_text());
            if s.status.mover_wins(p.start.to_move) == Some(true) {
                assert!(
                    s.winning_moves.contains(&l.moves[0]),
                    "{:?} not in {:?}:\n{}",
                    l.moves[0],
                    s.winning_moves,
                    p.to_text()
                );
            }
            checked += 1;
            if !l.complete || !matches!(s.status, Status::Alive | Status::Dead) {
                continue;
            }
            // Replayed, a complete line of a plain status ends decided for the side it names.
            let mut pos = p.start;
            for m in &l.moves {
                pos = match m {
                    Move::Play(i) => pos.play(&p.region, *i as usize).expect("legal").0,
                    Move::Pass => after_pass(&pos),
                };
            }
            let winner = decided(&p.region, &pos, p.targets).expect("a complete line ends decided");
            assert_eq!(
                winner == Side::Defender,
                s.status == Status::Alive,
                "{:?}:\n{}",
                l.moves,
                p.to_text()
            );
            complete += 1;
        }
        assert!(
            checked >= 30 && complete >= 20,
            "{checked} lines, {complete} complete"
        );
    }
}
