//! The problem generator: gamelab's own `lv<set>-<level>` library in the spirit of GoTools'.
//!
//! One problem: choose a placement (corner 40%, edge 40%, centre 20%, as GoTools' mix), grow a
//! compact connected region of the level's size from the anchor, wall it (every on-board
//! neighbour), carve the level's number of empty points as a connected eye space grown from the
//! point farthest from the wall, and fill the rest with defender stones (attacker stones with
//! probability 0.15). Reject it when a chain has no liberty, when it is already decided, when
//! the reference weights cannot solve it within the node budget, or when the side to move
//! (drawn 50/50) cannot reach its aim; keep its status and winning first moves, and tag a unique
//! winning move (the static fitness needs those). Duplicates up to the board's symmetries (and
//! sliding along an edge) are dropped.
//!
//! Reproducible: attempt k of file (set, level) draws from a generator seeded by (seed, set,
//! level, k), files are generated in parallel and each is written whole (temporary file, then
//! rename).
//!
//! Levels: level L has round(7 + 7 (L - 1) / 13) empty points (7 at level 1, 10 at level 7,
//! 14 at level 14, as GoTools) in a region of 16 + round(5 (L - 1) / 13) points (16..21).
//! Calibration, measured with `gamelab gen-problems --sets 1 --levels 1-14 --per-level 20
//! --seed 1` (reference weights, node budget 2,000,000 per problem; leaves of the status sweep
//! and the winning-move search; 174 s on 2 cores). Only 20 problems per level so far: the full
//! 280-per-level calibration is still to be run. Not yet calibrated as issue 7 asks: at
//! levels 11-14 about half of the drawn positions exceed the node budget (column "unsolved";
//! they are not kept, so every kept problem is solved, but the levels are biased towards the
//! easier draws), and leaves grow with the level only roughly (level 14's median is below
//! level 13's). Unique winning moves are rare (1-4 in 20).
//!
//! | level | empty | region | problems | unique move | drawn | median leaves | p90 leaves | max leaves | unsolved | decided | mover loses | duplicates |
//! |---|---|---|---|---|---|---|---|---|---|---|---|---|
//! | 1 | 7 | 16 | 20 | 0 | 49 | 647 | 4904 | 27886 | 1 | 15 | 13 | 0 |
//! | 2 | 8 | 16 | 20 | 0 | 47 | 5044 | 45154 | 161580 | 1 | 12 | 14 | 0 |
//! | 3 | 8 | 17 | 20 | 1 | 43 | 18298 | 102614 | 203737 | 3 | 10 | 10 | 0 |
//! | 4 | 9 | 17 | 20 | 2 | 52 | 8020 | 66682 | 138281 | 3 | 10 | 19 | 0 |
//! | 5 | 9 | 18 | 20 | 2 | 55 | 13989 | 91346 | 156474 | 10 | 7 | 18 | 0 |
//! | 6 | 10 | 18 | 20 | 4 | 68 | 12920 | 131620 | 180112 | 12 | 13 | 23 | 0 |
//! | 7 | 10 | 18 | 20 | 0 | 43 | 10325 | 37985 | 82269 | 10 | 5 | 8 | 0 |
//! | 8 | 11 | 19 | 20 | 2 | 59 | 38360 | 377812 | 431873 | 18 | 10 | 11 | 0 |
//! | 9 | 11 | 19 | 20 | 2 | 49 | 22591 | 168289 | 425423 | 16 | 5 | 8 | 0 |
//! | 10 | 12 | 19 | 20 | 2 | 61 | 79210 | 267796 | 321466 | 21 | 10 | 10 | 0 |
//! | 11 | 12 | 20 | 20 | 1 | 88 | 54433 | 333506 | 580484 | 39 | 11 | 18 | 0 |
//! | 12 | 13 | 20 | 20 | 1 | 85 | 94717 | 364705 | 556682 | 38 | 11 | 16 | 0 |
//! | 13 | 13 | 21 | 20 | 1 | 96 | 110844 | 475587 | 576879 | 48 | 15 | 13 | 0 |
//! | 14 | 14 | 21 | 20 | 1 | 89 | 57223 | 219327 | 238736 | 46 | 10 | 13 | 0 |

use super::board::{Coord, Position, Region, Side, bit};
use super::heuristic::Weights;
use super::life::decided;
use super::problem::Problem;
use super::solver::{Limits, Solver, Status};
use crate::rng::{GameRng, below, derive_seed, rng_from_seed, unit_f64};
use std::collections::HashSet;

pub const BOARD: u8 = 19;

/// The size of a level: empty points and region points.
pub fn level_shape(level: u8) -> (usize, usize) {
    let l = level.max(1) as f64 - 1.0;
    ((7.0 + 7.0 * l / 13.0).round() as usize, (16.0 + 5.0 * l / 13.0).round() as usize)
}

/// Why a drawn position was not kept (counted for the calibration table).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rejections {
    pub no_liberty: u64,
    pub decided: u64,
    pub unsolved: u64,
    pub mover_loses: u64,
    pub duplicate: u64,
}

/// One generated file's problems and what it took.
pub struct LevelFile {
    pub set: u8,
    pub level: u8,
    pub problems: Vec<Problem>,
    /// Reference-weight leaves of each kept problem (status sweep and winning moves).
    pub leaves: Vec<u64>,
    pub attempts: u64,
    pub rejections: Rejections,
}

/// Draws one candidate problem (not yet solved).
fn draw(level: u8, rng: &mut GameRng) -> Option<Problem> {
    let (n_empty, n_region) = level_shape(level);
    let u = unit_f64(rng);
    let anchor: Coord = if u < 0.4 {
        (0, 0)
    } else if u < 0.8 {
        (0, 6 + below(rng, 4) as u8)
    } else {
        (6 + below(rng, 3) as u8, 6 + below(rng, 3) as u8)
    };
    // Grow the region: frontier points weighted by (neighbours in the region)^2, so it stays
    // compact.
    let on_board = |r: i32, c: i32| r >= 0 && c >= 0 && r < BOARD as i32 && c < BOARD as i32;
    let nbrs = |(r, c): Coord| -> Vec<Coord> {
        [(-1, 0), (1, 0), (0, -1), (0, 1)].iter().map(|(dr, dc)| (r as i32 + dr, c as i32 + dc)).filter(|&(r, c)| on_board(r, c)).map(|(r, c)| (r as u8, c as u8)).collect()
    };
    let mut region: Vec<Coord> = vec![anchor];
    while region.len() < n_region {
        let mut frontier: Vec<(Coord, u32)> = Vec::new();
        for &p in &region {
            for q in nbrs(p) {
                if !region.contains(&q) && !frontier.iter().any(|f| f.0 == q) {
                    let k = nbrs(q).iter().filter(|x| region.contains(x)).count() as u32;
                    frontier.push((q, k * k));
                }
            }
        }
        frontier.sort();
        let total: u32 = frontier.iter().map(|f| f.1).sum();
        let mut pick = below(rng, total as usize) as u32;
        let chosen = frontier.iter().find(|f| {
            if pick < f.1 {
                true
            } else {
                pick -= f.1;
                false
            }
        })?;
        region.push(chosen.0);
    }
    let mut wall: Vec<Coord> = Vec::new();
    for &p in &region {
        for q in nbrs(p) {
            if !region.contains(&q) && !wall.contains(&q) {
                wall.push(q);
            }
        }
    }
    let reg = Region::new(BOARD, region, wall);
    // Eye space: grown from the point farthest from the wall.
    let mut dist = vec![u32::MAX; reg.len()];
    let mut queue: Vec<usize> = (0..reg.len()).filter(|&i| reg.wall_adj & bit(i) != 0).collect();
    for &i in &queue {
        dist[i] = 0;
    }
    let mut k = 0;
    while k < queue.len() {
        let i = queue[k];
        for j in super::board::Bits(reg.nbr[i]) {
            if dist[j] == u32::MAX {
                dist[j] = dist[i] + 1;
                queue.push(j);
            }
        }
        k += 1;
    }
    let far = *dist.iter().filter(|&&d| d != u32::MAX).max()?;
    let seeds: Vec<usize> = (0..reg.len()).filter(|&i| dist[i] == far).collect();
    let mut empty = bit(seeds[below(rng, seeds.len())]);
    while (empty.count_ones() as usize) < n_empty {
        let frontier = reg.dilate(empty) & !empty;
        let pts: Vec<usize> = super::board::Bits(frontier).collect();
        if pts.is_empty() {
            return None;
        }
        empty |= bit(pts[below(rng, pts.len())]);
    }
    let (mut att, mut def) = (0u64, 0u64);
    for i in super::board::Bits(reg.all & !empty) {
        if unit_f64(rng) < 0.15 {
            att |= bit(i);
        } else {
            def |= bit(i);
        }
    }
    let to_move = if unit_f64(rng) < 0.5 { Side::Defender } else { Side::Attacker };
    let start = Position::new(&reg, att, def, to_move);
    let cells = || reg.coords.iter().chain(reg.wall.iter());
    let origin = (cells().map(|c| c.0).min()?, cells().map(|c| c.1).min()?);
    Some(Problem { name: String::new(), region: reg, start, targets: def, attacker_black: true, status: None, winning: Vec::new(), unique: None, level: Some(level), origin })
}

/// A key equal for problems equal up to the board's symmetries and translation: the cells
/// (stones, empty points, wall, and the off-board points next to them) relative to their
/// bounding box, minimised over the 8 rotations and reflections.
pub fn symmetry_key(p: &Problem) -> Vec<(i32, i32, u8)> {
    let mut cells: Vec<(i32, i32, u8)> = Vec::new();
    let r = &p.region;
    for (i, &(y, x)) in r.coords.iter().enumerate() {
        let kind = if p.start.of(Side::Attacker) & bit(i) != 0 {
            1
        } else if p.start.of(Side::Defender) & bit(i) != 0 {
            2
        } else {
            0
        };
        cells.push((y as i32, x as i32, kind));
    }
    for &(y, x) in &r.wall {
        cells.push((y as i32, x as i32, 3));
    }
    let n = cells.len();
    for k in 0..n {
        let (y, x, _) = cells[k];
        for (dy, dx) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (a, b) = (y + dy, x + dx);
            if (a < 0 || b < 0 || a >= r.size as i32 || b >= r.size as i32) && !cells.contains(&(a, b, 4)) {
                cells.push((a, b, 4));
            }
        }
    }
    cells.push((-100, -100, 5 + (p.start.to_move == Side::Defender) as u8));
    let mut best: Option<Vec<(i32, i32, u8)>> = None;
    for t in 0..8 {
        let mut v: Vec<(i32, i32, u8)> = cells
            .iter()
            .filter(|c| c.2 < 5)
            .map(|&(y, x, k)| {
                let (y, x) = if t & 4 != 0 { (x, y) } else { (y, x) };
                let y = if t & 1 != 0 { -y } else { y };
                let x = if t & 2 != 0 { -x } else { x };
                (y, x, k)
            })
            .collect();
        let (my, mx) = (v.iter().map(|c| c.0).min().unwrap_or(0), v.iter().map(|c| c.1).min().unwrap_or(0));
        v.iter_mut().for_each(|c| {
            c.0 -= my;
            c.1 -= mx;
        });
        v.sort();
        v.push(*cells.last().expect("the side-to-move marker"));
        if best.as_ref().is_none_or(|b| v < *b) {
            best = Some(v);
        }
    }
    best.expect("eight transforms")
}

/// Generates the file `lv<set>-<level>`: `count` problems, reproducibly from `seed`.
/// `on_problem` is called after each kept problem (the progress bar).
pub fn generate_level(set: u8, level: u8, count: usize, seed: u64, limits: Limits, on_problem: &(dyn Fn() + Sync)) -> LevelFile {
    let mut solver = Solver::new(20);
    let weights = Weights::reference();
    let mut out = LevelFile { set, level, problems: Vec::new(), leaves: Vec::new(), attempts: 0, rejections: Rejections::default() };
    let mut seen: HashSet<Vec<(i32, i32, u8)>> = HashSet::new();
    let max_attempts = 2_000 * count as u64 + 10_000;
    while out.problems.len() < count && out.attempts < max_attempts {
        let mut rng = rng_from_seed(derive_seed(seed, &[set as u64, level as u64, out.attempts]));
        out.attempts += 1;
        let Some(mut p) = draw(level, &mut rng) else { continue };
        if p.start.chain_without_liberty(&p.region).is_some() {
            out.rejections.no_liberty += 1;
            continue;
        }
        if decided(&p.region, &p.start, p.targets).is_some() {
            out.rejections.decided += 1;
            continue;
        }
        let key = symmetry_key(&p);
        if seen.contains(&key) {
            out.rejections.duplicate += 1;
            continue;
        }
        let s = solver.solve(&p, &weights, limits, true);
        if s.status == Status::Unknown {
            out.rejections.unsolved += 1;
            continue;
        }
        if s.status.mover_wins(p.start.to_move) != Some(true) {
            out.rejections.mover_loses += 1;
            continue;
        }
        seen.insert(key);
        p.name = format!("lv{set}-{level}-{:03}", out.problems.len() + 1);
        p.status = Some(s.status);
        p.unique = if s.winning_moves.len() == 1 { Some(s.winning_moves[0]) } else { None };
        p.winning = s.winning_moves;
        out.leaves.push(s.counters.leaves);
        out.problems.push(p);
        on_problem();
    }
    out
}

/// The file's text: a header, then the problems.
pub fn level_text(f: &LevelFile, seed: u64) -> String {
    let (e, r) = level_shape(f.level);
    let mut s = format!(
        "# gamelab life-and-death problems lv{}-{}: level {} ({e} empty points, region of {r} points), seed {seed}\n# {} problems from {} drawn positions; status and winning moves by the reference weights\n\n",
        f.set, f.level, f.level, f.problems.len(), f.attempts
    );
    for p in &f.problems {
        s += &p.to_text();
        s.push('\n');
    }
    s
}

/// The median and 90th percentile of a list of counts.
pub fn median_p90(v: &[u64]) -> (u64, u64) {
    if v.is_empty() {
        return (0, 0);
    }
    let mut v = v.to_vec();
    v.sort_unstable();
    let at = |q: f64| v[((q * (v.len() - 1) as f64).round() as usize).min(v.len() - 1)];
    (at(0.5), at(0.9))
}

/// Generates sets x levels files into `out` in parallel (one file per task, so the result does
/// not depend on the thread count), with a progress bar; returns the files' summaries, in
/// (set, level) order.
pub fn generate_library(sets: u8, levels: std::ops::RangeInclusive<u8>, per_level: usize, seed: u64, out: &std::path::Path, limits: Limits, threads: Option<usize>) -> anyhow::Result<Vec<LevelFile>> {
    use anyhow::Context;
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use rayon::prelude::*;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let tasks: Vec<(u8, u8)> = (1..=sets).flat_map(|s| levels.clone().map(move |l| (s, l))).collect();
    let bar = ProgressBar::with_draw_target(Some((tasks.len() * per_level) as u64), ProgressDrawTarget::stderr());
    bar.set_style(ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} problems, ETA {eta}").expect("a valid template").progress_chars("=> "));
    let work = || -> anyhow::Result<Vec<LevelFile>> {
        tasks
            .par_iter()
            .map(|&(set, level)| {
                let f = generate_level(set, level, per_level, seed, limits, &|| bar.inc(1));
                let path = out.join(format!("lv{set}-{level}"));
                crate::experiment::record::write_atomic(&path, |w| {
                    use std::io::Write;
                    w.write_all(level_text(&f, seed).as_bytes())?;
                    Ok(())
                })?;
                Ok(f)
            })
            .collect()
    };
    let files = crate::experiment::runner::with_threads(threads, work)?;
    bar.finish_and_clear();
    Ok(files)
}

/// The calibration table: per level, problems kept, draws, leaves (median, 90th percentile,
/// maximum) with the reference weights, and why draws were rejected.
pub fn calibration_table(files: &[LevelFile]) -> String {
    let mut levels: Vec<u8> = files.iter().map(|f| f.level).collect();
    levels.sort_unstable();
    levels.dedup();
    let mut s = String::from("| level | empty | region | problems | unique move | drawn | median leaves | p90 leaves | max leaves | unsolved | decided | mover loses | duplicates |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for l in levels {
        let fs: Vec<&LevelFile> = files.iter().filter(|f| f.level == l).collect();
        let leaves: Vec<u64> = fs.iter().flat_map(|f| f.leaves.iter().copied()).collect();
        let (m, p90) = median_p90(&leaves);
        let sum = |g: &dyn Fn(&LevelFile) -> u64| fs.iter().map(|f| g(f)).sum::<u64>();
        let (e, r) = level_shape(l);
        s += &format!(
            "| {l} | {e} | {r} | {} | {} | {} | {m} | {p90} | {} | {} | {} | {} | {} |\n",
            sum(&|f| f.problems.len() as u64),
            sum(&|f| f.problems.iter().filter(|p| p.unique.is_some()).count() as u64),
            sum(&|f| f.attempts),
            leaves.iter().max().copied().unwrap_or(0),
            sum(&|f| f.rejections.unsolved),
            sum(&|f| f.rejections.decided + f.rejections.no_liberty),
            sum(&|f| f.rejections.mover_loses),
            sum(&|f| f.rejections.duplicate),
        );
    }
    s
}
