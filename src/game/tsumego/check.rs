//! Our solver against recorded answers (GoTools' own, from `gotools`): one comparison per
//! question, and the table per level that `gamelab check-gotools` prints.
//!
//! What is compared, when our solve finished (an unknown is counted as unsolved, never as an
//! agreement or a difference):
//! - plain: whether the side that moves first reaches its aim without ko threats (`l`/`lNd`
//!   against `d`/`dNl` for the defender);
//! - ko: the exact status (`l1d` is not `l2d`);
//! - first move: where GoTools' mover wins and so do we, whether GoTools' best first move wins
//!   for us too (one search of that move, or a look in our list of every winning first move).

use super::gotools::Question;
use super::{Limits, Move, Solver, Status, Weights};

/// One question solved by gamelab beside GoTools' answer.
#[derive(Clone, Debug)]
pub struct Compared {
    pub name: String,
    /// Volume and level of the file the question comes from.
    pub volume: u8,
    pub level: u8,
    pub gotools: Status,
    pub ours: Status,
    /// Our winning first moves when every one was searched (`compare`'s `all_moves`), else empty.
    pub ours_moves: Vec<Move>,
    pub gotools_best: Option<Move>,
    /// Whether GoTools' best first move wins for us without ko threats (None: not searched, as
    /// where GoTools' mover loses or our status differs, or not decided within the limits).
    pub best_wins_for_us: Option<bool>,
    pub nodes: u64,
    pub leaves: u64,
    pub time_s: f64,
}

/// Agreement of one aspect: agree, differ, or unknown (our solve did not finish).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Agree,
    Differ,
    Unknown,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Agree => "agree",
            Verdict::Differ => "differ",
            Verdict::Unknown => "unknown",
        }
    }
}

impl Compared {
    pub fn solved(&self) -> bool {
        self.ours != Status::Unknown
    }

    /// Whether the side that moves first wins without ko threats, in both answers.
    pub fn plain(&self) -> Verdict {
        let mover = if self.name.ends_with("/attacker") {
            super::Side::Attacker
        } else {
            super::Side::Defender
        };
        match (self.ours.mover_wins(mover), self.gotools.mover_wins(mover)) {
            (Some(a), Some(b)) if a == b => Verdict::Agree,
            (Some(_), Some(_)) => Verdict::Differ,
            _ => Verdict::Unknown,
        }
    }

    /// The exact status, ko included.
    pub fn exact(&self) -> Verdict {
        if !self.solved() {
            Verdict::Unknown
        } else if self.ours == self.gotools {
            Verdict::Agree
        } else {
            Verdict::Differ
        }
    }

    /// One word for the question: unknown (not solved), agree (the exact status), or differ.
    pub fn verdict(&self) -> Verdict {
        match (self.plain(), self.exact()) {
            (Verdict::Unknown, _) => Verdict::Unknown,
            (_, Verdict::Agree) => Verdict::Agree,
            _ => Verdict::Differ,
        }
    }

    /// GoTools' best first move among our winning first moves (None where GoTools' mover loses,
    /// or where we have no winning moves to compare: unknown, or a plain difference).
    pub fn first_move(&self) -> Option<Verdict> {
        self.gotools_best?;
        if !self.solved() {
            return Some(Verdict::Unknown);
        }
        if self.plain() != Verdict::Agree {
            return None;
        }
        Some(match self.best_wins_for_us {
            Some(true) => Verdict::Agree,
            Some(false) => Verdict::Differ,
            None => Verdict::Unknown,
        })
    }
}

/// Which first moves `compare` searches after the status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstMoves {
    /// Every winning first move (as `gamelab solve` prints them).
    All,
    /// Only GoTools' best first move (the first-move check needs no more); its search counts in
    /// the nodes.
    GoToolsBest,
    /// None: the status sweep alone (`gamelab solve --status-only`); the first-move verdict is
    /// then unknown.
    None,
}

/// Solves a question with `weights` within `limits` (and the solver's time limit) and sets
/// the answer beside GoTools', searching the first moves `moves` says.
pub fn compare(
    solver: &mut Solver,
    q: &Question,
    volume: u8,
    level: u8,
    weights: &Weights,
    limits: Limits,
    moves: FirstMoves,
) -> Compared {
    let mover = q.problem.start.to_move;
    let all_moves = moves == FirstMoves::All;
    let s = solver.solve(&q.problem, weights, limits, all_moves);
    let gotools_best = if q.status().mover_wins(mover) == Some(true) {
        q.best_first_move()
    } else {
        None
    };
    let (mut ours, mut nodes, mut time_s) = (s.status, s.counters.nodes, s.counters.time_s);
    let mut best_wins_for_us = None;
    if let Some(best) =
        gotools_best.filter(|_| moves != FirstMoves::None && ours.mover_wins(mover) == Some(true))
    {
        if all_moves {
            best_wins_for_us = Some(s.winning_moves.contains(&best));
        } else {
            let t0 = std::time::Instant::now();
            best_wins_for_us = solver.first_move_wins(&q.problem, weights, limits, best);
            nodes += solver.counters().nodes;
            time_s += t0.elapsed().as_secs_f64();
            if best_wins_for_us.is_none() {
                ours = Status::Unknown;
            }
        }
    }
    Compared {
        name: q.problem.name.clone(),
        volume,
        level,
        gotools: q.status(),
        ours,
        ours_moves: s.winning_moves,
        gotools_best,
        best_wins_for_us,
        nodes,
        leaves: s.counters.leaves,
        time_s,
    }
}

/// Counts of one level (or of all).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelCounts {
    pub questions: usize,
    pub solved: usize,
    pub plain_agree: usize,
    pub exact_agree: usize,
    pub first_compared: usize,
    pub first_agree: usize,
    pub median_nodes: u64,
    pub nodes: u64,
    pub time_s: f64,
}

impl LevelCounts {
    pub fn of(rows: &[&Compared]) -> LevelCounts {
        let mut c = LevelCounts {
            questions: rows.len(),
            ..LevelCounts::default()
        };
        let mut nodes: Vec<u64> = Vec::with_capacity(rows.len());
        for r in rows {
            c.solved += r.solved() as usize;
            c.plain_agree += (r.plain() == Verdict::Agree) as usize;
            c.exact_agree += (r.exact() == Verdict::Agree) as usize;
            if let Some(v) = r.first_move().filter(|v| *v != Verdict::Unknown) {
                c.first_compared += 1;
                c.first_agree += (v == Verdict::Agree) as usize;
            }
            nodes.push(r.nodes);
            c.nodes += r.nodes;
            c.time_s += r.time_s;
        }
        nodes.sort_unstable();
        c.median_nodes = nodes.get(nodes.len() / 2).copied().unwrap_or(0);
        c
    }
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "-".into()
    } else {
        format!("{a}/{b} ({:.1}%)", 100.0 * a as f64 / b as f64)
    }
}

/// The table per level: questions, solved, plain and ko agreement (of the solved), first-move
/// agreement (of those compared), median nodes, nodes per second (the level's nodes over its
/// solving time, one core each).
pub fn level_table(rows: &[Compared]) -> String {
    let mut s = String::from(
        "| level | questions | solved | plain status agrees | ko status agrees | best first move among ours | median nodes | nodes/s |\n|---|---|---|---|---|---|---|---|\n",
    );
    let mut levels: Vec<u8> = rows.iter().map(|r| r.level).collect();
    levels.sort_unstable();
    levels.dedup();
    let line = |label: String, sel: Vec<&Compared>| {
        let c = LevelCounts::of(&sel);
        format!(
            "| {label} | {} | {} | {} | {} | {} | {} | {} |\n",
            c.questions,
            pct(c.solved, c.questions),
            pct(c.plain_agree, c.solved),
            pct(c.exact_agree, c.solved),
            pct(c.first_agree, c.first_compared),
            c.median_nodes,
            if c.time_s > 0.0 {
                format!("{:.2} M", c.nodes as f64 / c.time_s / 1e6)
            } else {
                "-".into()
            }
        )
    };
    for l in levels {
        s += &line(
            l.to_string(),
            rows.iter().filter(|r| r.level == l).collect(),
        );
    }
    s += &line("all".into(), rows.iter().collect());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        name: &str,
        gotools: Status,
        ours: Status,
        moves: Vec<Move>,
        best: Option<Move>,
    ) -> Compared {
        let best_wins_for_us = best
            .filter(|_| {
                ours.mover_wins(if name.ends_with("/attacker") {
                    super::super::Side::Attacker
                } else {
                    super::super::Side::Defender
                }) == Some(true)
            })
            .map(|b| moves.contains(&b));
        Compared {
            name: name.into(),
            volume: 1,
            level: 3,
            gotools,
            ours,
            ours_moves: moves,
            gotools_best: best,
            best_wins_for_us,
            nodes: 10,
            leaves: 1,
            time_s: 0.001,
        }
    }

    #[test]
    fn verdicts_count_only_what_was_solved() {
        let m = Move::Play(3);
        let rows = [
            row(
                "a/defender",
                Status::AliveUnlessKo(1),
                Status::AliveUnlessKo(1),
                vec![m],
                Some(m),
            ),
            row(
                "b/defender",
                Status::AliveUnlessKo(1),
                Status::Alive,
                vec![Move::Play(4)],
                Some(m),
            ),
            row(
                "c/attacker",
                Status::Dead,
                Status::DeadUnlessKo(2),
                vec![m],
                Some(m),
            ),
            row(
                "d/attacker",
                Status::Dead,
                Status::AliveUnlessKo(1),
                vec![],
                Some(m),
            ),
            row("e/defender", Status::Dead, Status::Unknown, vec![], None),
        ];
        assert_eq!(
            rows.iter().map(|r| r.plain()).collect::<Vec<_>>(),
            [
                Verdict::Agree,
                Verdict::Agree,
                Verdict::Agree,
                Verdict::Differ,
                Verdict::Unknown
            ]
        );
        assert_eq!(
            rows.iter().map(|r| r.exact()).collect::<Vec<_>>(),
            [
                Verdict::Agree,
                Verdict::Differ,
                Verdict::Differ,
                Verdict::Differ,
                Verdict::Unknown
            ]
        );
        assert_eq!(
            rows.iter().map(|r| r.first_move()).collect::<Vec<_>>(),
            [
                Some(Verdict::Agree),
                Some(Verdict::Differ),
                Some(Verdict::Agree),
                None,
                None
            ]
        );
        let c = LevelCounts::of(&rows.iter().collect::<Vec<_>>());
        assert_eq!(
            (
                c.questions,
                c.solved,
                c.plain_agree,
                c.exact_agree,
                c.first_compared,
                c.first_agree
            ),
            (5, 4, 3, 1, 3, 2)
        );
        let t = level_table(&rows);
        assert!(
            t.contains("| 3 | 5 | 4/5 (80.0%) | 3/4 (75.0%) | 1/4 (25.0%) | 2/3 (66.7%) | 10 |"),
            "{t}"
        );
    }
}
