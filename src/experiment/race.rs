//! Racing a sweep (`[race]`): the grid points play in rounds, and after each round the points a
//! paired test finds worse than the best stop playing, so games go where they still decide
//! something (F-race and irace, Birattari et al., on game-playing agents).
//!
//! **Blocks.** A block is a colour-swapped pair of games (a match) or one round of a tournament
//! (every ordered pair once). Block b of every grid point starts from the same positions (random
//! setups, openings and chance come from the start seed, `Job::start_seed`, not the job's), so a
//! block is the unit of a paired comparison between points. A point's value in a block is the
//! mean result of the raced agent in the block's games (win 1, draw 1/2, loss 0).
//!
//! **Rounds.** Round r asks every point still in the race for its first r x `blocks_per_round`
//! blocks (at most the file's games). From round `min_rounds` on, the best point is the one with
//! the highest mean over those blocks (the first in grid order on a tie); every other point in
//! the race is tested against it with a paired t-test on the block differences, one-sided
//! (the best is better), and the p-values are adjusted by Holm across them; a point whose
//! adjusted p is below `level` is dropped. The race ends when one point is left, when the points
//! left have played every block the file asks for, or when all points together have played
//! `max_games`.
//!
//! **From the rows alone.** Every decision is computed from the rows on disk (`decide` over each
//! point's complete blocks), never from state kept between rounds: a race killed in any round
//! replays its decisions from the saved rows and goes on, the same on any thread count, and
//! `--shard` parts of one race on a shared results folder each play their own points and wait
//! for the others' rows before the next round (MPI runs spread the games instead); a shard
//! whose partner ended before its points were done stops, naming it, rather than wait without
//! end (`shard_ended`: the partner's lock file, and on a Slurm cluster the queue, which holds a
//! partner task that has not started yet). A round is run as a sweep grown to the round's games
//! (`runner`: a sealed job grows), so the rows of a point equal the first games of the full
//! sweep's point. Dropped points keep their rows, and the report analyses them like any others;
//! its race section (`report::race`) recomputes the rounds from the rows the same way.

use super::grid::Job;
use super::runner::{RunOptions, RunSummary};
use super::spec::Experiment;
use super::spec::race::RaceSpec;
use crate::play::seat_result;
use crate::stats::means::{mean, paired};
use crate::stats::two_sample::holm;
use anyhow::{Context, Result};
use std::path::Path;

/// The file's `[race]` section.
pub fn spec_of(exp: &Experiment) -> Result<&RaceSpec> {
    exp.file
        .race
        .as_ref()
        .context("the file has a [race] section")
}

/// The raced agent of a job.
pub fn raced_agent(spec: &RaceSpec, job: &Job) -> String {
    spec.agent.clone().unwrap_or_else(|| {
        job.config
            .match_
            .as_ref()
            .map(|m| m.players[0].clone())
            .unwrap_or_default()
    })
}

/// Games in a block of `job`: a colour-swapped pair, or a tournament round.
pub fn games_per_block(job: &Job) -> usize {
    match &job.config.tournament {
        Some(t) => {
            let n = t.participants.as_ref().map_or(0, Vec::len);
            n * n.saturating_sub(1)
        }
        None => 2,
    }
}

/// The blocks the file asks of each point (its games, or its tournament rounds).
fn max_blocks(job: &Job) -> usize {
    job.game_count().div_ceil(games_per_block(job).max(1))
}

/// `job` asked for its first `blocks` blocks.
fn with_blocks(job: &Job, blocks: usize) -> Job {
    let mut j = job.clone();
    let games = blocks * games_per_block(job);
    if let Some(m) = j.config.match_.as_mut() {
        m.games = (games as u32).min(m.games);
    }
    if let Some(t) = j.config.tournament.as_mut() {
        t.rounds = (blocks as u32).min(t.rounds);
    }
    j
}

/// Why a race ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ended {
    OneLeft,
    AllBlocks,
    MaxGames,
}

/// One round's decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub round: u32,
    /// Blocks every point in the race had played.
    pub blocks: usize,
    /// Points in the race at the round's test, with each one's mean; the best first.
    pub best: usize,
    /// (point, Holm-adjusted one-sided p against the best, dropped) for the others in the race;
    /// empty before `min_rounds`.
    pub tests: Vec<(usize, f64, bool)>,
    /// Points in the race when the round was played.
    pub racing: Vec<usize>,
}

/// The race as far as the rows go.
#[derive(Clone, Debug, PartialEq)]
pub struct Race {
    pub rounds: Vec<Round>,
    /// Per point: the round it was dropped in, with its adjusted p.
    pub dropped: Vec<Option<(u32, f64)>>,
    /// Per point: the blocks it was asked for (its games / games per block).
    pub blocks: Vec<usize>,
    /// The blocks each point still in the race must reach next; None when the race has ended.
    pub next: Option<usize>,
    pub ended: Option<Ended>,
}

/// Decides the race from each point's block values (`scores[p][b]`, the complete blocks it has,
/// in block order): the rounds whose blocks are all there, and what to play next.
pub fn decide(
    spec: &RaceSpec,
    max_blocks: usize,
    games_per_block: usize,
    scores: &[Vec<f64>],
) -> Race {
    let n = scores.len();
    let k = spec.blocks_per_round as usize;
    let mut race = Race {
        rounds: Vec::new(),
        dropped: vec![None; n],
        blocks: vec![0; n],
        next: None,
        ended: None,
    };
    let mut racing: Vec<usize> = (0..n).collect();
    for round in 1u32.. {
        let target = (round as usize * k).min(max_blocks);
        for &p in &racing {
            race.blocks[p] = target;
        }
        if racing.iter().any(|&p| scores[p].len() < target) {
            race.next = Some(target);
            return race;
        }
        let means: Vec<f64> = racing.iter().map(|&p| mean(&scores[p][..target])).collect();
        // The best: the highest mean, the first in grid order on a tie.
        let best_at = (0..racing.len()).fold(0, |b, i| if means[i] > means[b] { i } else { b });
        let best = racing[best_at];
        let mut tests = Vec::new();
        if round >= spec.min_rounds {
            let others: Vec<usize> = racing.iter().copied().filter(|&p| p != best).collect();
            let ps: Vec<f64> = others
                .iter()
                .map(|&p| one_sided_p(&scores[best][..target], &scores[p][..target]))
                .collect();
            let adjusted = holm(&ps);
            for (&p, &q) in others.iter().zip(&adjusted) {
                let drop = q < spec.level;
                if drop {
                    race.dropped[p] = Some((round, q));
                }
                tests.push((p, q, drop));
            }
        }
        race.rounds.push(Round {
            round,
            blocks: target,
            best,
            tests,
            racing: racing.clone(),
        });
        racing.retain(|&p| race.dropped[p].is_none());
        let games: u64 = race
            .blocks
            .iter()
            .map(|&b| (b * games_per_block) as u64)
            .sum();
        race.ended = if racing.len() <= 1 {
            Some(Ended::OneLeft)
        } else if target >= max_blocks {
            Some(Ended::AllBlocks)
        } else if spec.max_games.is_some_and(|m| games >= m) {
            Some(Ended::MaxGames)
        } else {
            None
        };
        if race.ended.is_some() {
            return race;
        }
    }
    unreachable!("the rounds end when the blocks do")
}

/// The one-sided p of "the best's blocks are better" from a paired t-test (1 when the best is
/// not ahead; an exact difference, no spread, gives 0 or 1).
fn one_sided_p(best: &[f64], other: &[f64]) -> f64 {
    match paired(best, other, 0.95) {
        Some(t) if t.difference.value > 0.0 => t.p / 2.0,
        Some(_) => 1.0,
        None => f64::NAN,
    }
}

/// Each job's complete blocks, in block order: the raced agent's mean result in each, read from
/// the job's sealed part under `out` (no part: no blocks).
pub fn block_scores(exp: &Experiment, jobs: &[Job], out: &Path) -> Result<Vec<Vec<f64>>> {
    let spec = spec_of(exp)?;
    let dir = super::layout::results_dir(out, &exp.name);
    let rows_dir = dir.join(super::kind::rows_folder(exp.file.kind));
    let mut all = Vec::new();
    for job in jobs {
        let me = raced_agent(spec, job);
        let per = games_per_block(job).max(1);
        // No part, or one that fails its check (being replaced by another shard, or broken: the
        // runner plays such a job again): no blocks yet.
        let part = super::layout::sound_part(&dir, &rows_dir, &exp.name, &job.hash);
        let Some(df) = part
            .ok()
            .flatten()
            .and_then(|(part, _)| super::rows::read_part(&part).ok())
        else {
            all.push(Vec::new());
            continue;
        };
        let col = |name: &str| -> Result<Vec<String>> {
            let c = df.column(name)?.cast(&polars::prelude::DataType::String)?;
            Ok(c.str()?
                .iter()
                .map(|v| v.unwrap_or("").to_string())
                .collect())
        };
        let (game, first, second, winner) = (
            col("game")?,
            col("first_agent")?,
            col("second_agent")?,
            col("winner")?,
        );
        // block -> (games seen, the agent's results)
        let mut blocks: std::collections::BTreeMap<usize, (usize, Vec<f64>)> = Default::default();
        for i in 0..df.height() {
            let g: usize = game[i].parse().context("a game index")?;
            let b = blocks.entry(g / per).or_default();
            b.0 += 1;
            if first[i] == me || second[i] == me {
                b.1.push(seat_result(&winner[i], first[i] == me));
            }
        }
        let mut scores = Vec::new();
        for (expected, (b, (seen, results))) in blocks.into_iter().enumerate() {
            if b != expected || seen < per || results.is_empty() {
                break;
            }
            scores.push(mean(&results));
        }
        all.push(scores);
    }
    Ok(all)
}

/// The race over `jobs` from the rows under `out`, with each point's block values.
pub fn race_of(exp: &Experiment, jobs: &[Job], out: &Path) -> Result<(Race, Vec<Vec<f64>>)> {
    let spec = spec_of(exp)?;
    let scores = block_scores(exp, jobs, out)?;
    let first = jobs.first().context("a race has grid points")?;
    let race = decide(spec, max_blocks(first), games_per_block(first), &scores);
    Ok((race, scores))
}

/// Runs the race: round after round, the points still in it grow to the round's blocks
/// (`runner::run_locked` on the jobs as the round asks for them, dropped points at the games
/// they have), until `decide` says it has ended. Returns the rounds' summaries added up.
pub fn run(exp: &Experiment, jobs: &[Job], opts: &RunOptions) -> Result<RunSummary> {
    let dir = super::layout::results_dir(&opts.out, &exp.name);
    let _locks = super::runner::lock_results(
        &dir,
        opts.shard,
        &format!("gamelab run {}", exp.path.display()),
    )?;
    let mut total: Option<RunSummary> = None;
    let mut said = 0;
    let mut waiting_for = None;
    // Checks in a row that found every shard this one waits for (`waited_for`) ended.
    let mut ended_checks = 0;
    let mut queue = crate::slurm::queue::QueuePoller::default();
    loop {
        let (race, scores) = race_of(exp, jobs, &opts.out)?;
        // (A shard may read an earlier round while another shard grows a point: said once.)
        for r in race.rounds.iter().skip(said) {
            eprintln!("{}", round_line(jobs, r));
        }
        said = said.max(race.rounds.len());
        // Each point as far as the race asks (a dropped point: the blocks it had).
        let asked: Vec<Job> = jobs
            .iter()
            .zip(&race.blocks)
            .map(|(j, &b)| with_blocks(j, b))
            .collect();
        if race.next.is_none() {
            let ended = race
                .ended
                .map(|e| format!("race ended: {}", ended_text(e, jobs, &race)));
            if let Some(ended) = &ended {
                eprintln!("{ended}");
            }
            let mut summary = match total {
                Some(t) => t,
                // Nothing was left to play: one pass over the jobs as the race asks for them
                // counts what is kept (and plays nothing).
                None => super::runner::run_locked(exp, &asked, opts)?,
            };
            summary.stopped.extend(ended);
            return Ok(summary);
        }
        let summary = super::runner::run_locked(exp, &asked, opts)?;
        // A shard plays its own points of the round (`Shard::select`, by hash) and waits for the
        // other shards' rows in the shared results folder: every shard decides the same rounds
        // from the same rows. (A point another shard is growing has no sealed part for a moment,
        // so the race read here may be an earlier round's; it asks this shard for nothing new.)
        if let (Some(me), 0) = (opts.shard, summary.jobs_run) {
            let peers = waited_for(jobs, &race, &scores, me);
            let lock = |k: u64| {
                super::runner::Shard {
                    index: k,
                    count: me.count,
                }
                .lock_file(&dir)
            };
            // Shard k's task in this shard's Slurm job array, if it runs in one.
            let task = |k: u64| crate::slurm::queue::array_task_of_shard(me.index, k, me.count);
            if waiting_for != race.next {
                let said: Vec<String> = peers
                    .iter()
                    .map(|(k, points)| {
                        let state = match (std::fs::metadata(lock(*k)), task(*k)) {
                            (Err(_), Some(task)) => format!("; not started yet: Slurm task {task}"),
                            (Err(_), None) => "; not started yet".to_string(),
                            (Ok(_), _) => String::new(),
                        };
                        let n = points.len();
                        let s = if n == 1 { "" } else { "s" };
                        format!("shard {k}/{} ({n} point{s}{state})", me.count)
                    })
                    .collect();
                eprintln!(
                    "race: waiting for {} to reach {} blocks",
                    if said.is_empty() {
                        "the other shards' points".to_string()
                    } else {
                        said.join(", ")
                    },
                    race.next.unwrap_or(0)
                );
                waiting_for = race.next;
            }
            // A shard this one waits for that ended before its points were done would be waited
            // for without end: stop, saying how to go on.
            let ended = !peers.is_empty()
                && peers
                    .keys()
                    .all(|&k| shard_ended(&lock(k), task(k).as_deref(), &mut queue));
            ended_checks = if ended { ended_checks + 1 } else { 0 };
            if ended_checks >= ENDED_CHECKS {
                let (k, points) = peers.iter().next().expect("not empty");
                let slurm = match task(*k) {
                    Some(task) => format!(
                        " (its Slurm task {task} left the queue; from the folder of `gamelab \
                         slurm`'s scripts, `sbatch --array={k},{i} run.sbatch` runs both again)",
                        i = me.index
                    ),
                    None => String::new(),
                };
                anyhow::bail!(
                    "race: shard {k}/{n} ended before its points reached {b} blocks ({}){slurm}, \
                     and this shard needs them to decide the next round: run `gamelab run {f} \
                     --shard {k}/{n}` again (every shard's rows so far are kept), with this shard \
                     beside it",
                    points
                        .iter()
                        .map(|&i| point_name(&jobs[i]))
                        .collect::<Vec<_>>()
                        .join("; "),
                    n = me.count,
                    b = race.next.unwrap_or(0),
                    f = exp.path.display(),
                );
            }
            std::thread::sleep(std::time::Duration::from_millis(500));
        }
        total = Some(match total {
            None => summary,
            Some(t) => RunSummary {
                jobs_run: t.jobs_run + summary.jobs_run,
                rows: t.rows + summary.rows,
                seconds: t.seconds + summary.seconds,
                stopped: [t.stopped, summary.stopped].concat(),
                ..t
            },
        });
    }
}

/// Checks (half a second apart) that must find every waited-for shard ended before a shard of a
/// race gives up: a shard killed and started again at once takes its lock back within them.
const ENDED_CHECKS: u32 = 10;

/// Whether a shard whose points this shard waits for is known to have ended before they were
/// done, from its lock file `lock` and, on a Slurm cluster, its `task` in this shard's job array
/// (`gamelab slurm` writes task k to run shard k). While the queue holds that task (pending for
/// hours, or running on any node) it has not ended. Otherwise the lock file's last holder says:
/// one on this machine ended when its process is gone; one on another machine when the Slurm job
/// its lock file names left the queue (a task submitted again alone writes its own job there);
/// with no lock file, a task of this array that left the queue without starting. Unknown
/// (another machine outside Slurm, no lock file outside an array) is not ended: that shard may
/// still start.
fn shard_ended(
    lock: &Path,
    task: Option<&str>,
    queue: &mut crate::slurm::queue::QueuePoller,
) -> bool {
    let task_ended = task.and_then(|t| queue.job_ended(t));
    if task_ended == Some(false) {
        return false;
    }
    match crate::durable::lock_holder(lock) {
        Some(h) => match h.ended_here() {
            Some(ended) => ended,
            None => h
                .slurm_job
                .is_some_and(|j| queue.job_ended(&j) == Some(true)),
        },
        None => task_ended == Some(true),
    }
}

/// The shards (other than `me`) that play points the race still waits for, with those points
/// (indexes into `jobs`): points with fewer complete blocks than the round asks.
fn waited_for(
    jobs: &[Job],
    race: &Race,
    scores: &[Vec<f64>],
    me: super::runner::Shard,
) -> std::collections::BTreeMap<u64, Vec<usize>> {
    let missing: Vec<usize> = (0..jobs.len())
        .filter(|&i| scores[i].len() < race.blocks[i])
        .collect();
    let mut peers = std::collections::BTreeMap::new();
    for k in (1..=me.count).filter(|&k| k != me.index) {
        let theirs: std::collections::HashSet<&str> = super::runner::Shard {
            index: k,
            count: me.count,
        }
        .select(jobs)
        .iter()
        .map(|j| j.hash.as_str())
        .collect();
        let points: Vec<usize> = missing
            .iter()
            .copied()
            .filter(|&i| theirs.contains(jobs[i].hash.as_str()))
            .collect();
        if !points.is_empty() {
            peers.insert(k, points);
        }
    }
    peers
}

/// A point's name: its swept values.
pub fn point_name(job: &Job) -> String {
    job.swept
        .iter()
        .map(|(k, v)| format!("{k}={}", super::rows::swept_text(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A point's swept values alone, for a table's cells and a legend headed by the keys.
pub fn point_values(job: &Job) -> Vec<String> {
    job.swept
        .iter()
        .map(|(_, v)| super::rows::swept_text(v))
        .collect()
}

fn round_line(jobs: &[Job], r: &Round) -> String {
    let dropped: Vec<String> = r
        .tests
        .iter()
        .filter(|t| t.2)
        .map(|(p, q, _)| format!("{} (p {:.3})", point_name(&jobs[*p]), q))
        .collect();
    format!(
        "race round {}: {} points at {} blocks, best {}; {}",
        r.round,
        r.racing.len(),
        r.blocks,
        point_name(&jobs[r.best]),
        if r.tests.is_empty() {
            "no test before min_rounds".to_string()
        } else if dropped.is_empty() {
            "none dropped".to_string()
        } else {
            format!("dropped {}", dropped.join(", "))
        }
    )
}

pub fn ended_text(ended: Ended, jobs: &[Job], race: &Race) -> String {
    let left: Vec<String> = (0..jobs.len())
        .filter(|&p| race.dropped[p].is_none())
        .map(|p| point_name(&jobs[p]))
        .collect();
    let why = match ended {
        Ended::OneLeft => "one point left",
        Ended::AllBlocks => "the points left played every block the file asks for",
        Ended::MaxGames => "race.max_games reached",
    };
    format!("{why}; left: {}", left.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(blocks: u32, min_rounds: u32) -> RaceSpec {
        RaceSpec {
            agent: None,
            blocks_per_round: blocks,
            level: 0.05,
            min_rounds,
            max_games: None,
        }
    }

    /// Block values cycling through `values`.
    fn blocks(values: &[f64], n: usize) -> Vec<f64> {
        (0..n).map(|i| values[i % values.len()]).collect()
    }

    #[test]
    fn a_race_without_rows_asks_for_the_first_round() {
        let r = decide(&spec(4, 2), 50, 2, &[vec![], vec![], vec![]]);
        assert_eq!(r.next, Some(4));
        assert!(r.rounds.is_empty() && r.ended.is_none());
        assert_eq!(r.blocks, vec![4, 4, 4]);
    }

    #[test]
    fn a_clearly_worse_point_is_dropped_at_the_first_test_and_the_race_ends() {
        // Point 1 wins every block, point 0 scores a quarter, point 2 half.
        let scores = vec![
            blocks(&[0.0, 0.5, 0.5, 0.0], 8),
            blocks(&[1.0], 8),
            blocks(&[0.5, 1.0, 0.0, 0.5], 8),
        ];
        let r = decide(&spec(4, 2), 50, 2, &scores);
        // Round 1: no test; round 2 at 8 blocks: point 0 dropped (best 1 by 0.75 in every block).
        assert_eq!(r.rounds.len(), 2);
        assert!(r.rounds[0].tests.is_empty());
        assert_eq!(r.rounds[1].best, 1);
        assert_eq!(r.dropped[0].map(|d| d.0), Some(2));
        assert!(r.dropped[0].unwrap().1 < 0.05);
        // Point 2 (mean 0.5 against 1.0 with spread): paired t on d = [0.5, 0, 1, 0.5] x 2:
        // mean 0.5, sd 0.378, t = 3.74 on 7 df, one-sided p 0.0036; Holm multiplies the
        // smaller p (point 0's) by 2 and this one, the second, by 1.
        let q2 = r.rounds[1].tests.iter().find(|t| t.0 == 2).unwrap().1;
        assert!((q2 - 0.0036).abs() < 0.0003, "{q2}");
        assert_eq!(r.ended, Some(Ended::OneLeft));
        assert_eq!(r.next, None);
        assert_eq!(r.blocks, vec![8, 8, 8]);
    }

    #[test]
    fn equal_points_stay_until_every_block_is_played() {
        let scores = vec![blocks(&[0.0, 1.0], 10), blocks(&[1.0, 0.0], 10)];
        let r = decide(&spec(4, 1), 10, 2, &scores);
        assert!(r.dropped.iter().all(Option::is_none));
        assert_eq!(
            r.rounds.iter().map(|r| r.blocks).collect::<Vec<_>>(),
            vec![4, 8, 10]
        );
        assert_eq!(r.ended, Some(Ended::AllBlocks));
        // Ties go to the first point in grid order.
        assert!(r.rounds.iter().all(|r| r.best == 0));
    }

    #[test]
    fn a_dropped_point_plays_no_more_and_the_others_go_on() {
        let scores = vec![
            blocks(&[0.0], 4),
            blocks(&[1.0, 0.5], 6),
            blocks(&[0.5, 1.0], 6),
        ];
        let r = decide(&spec(2, 2), 20, 2, &scores);
        assert_eq!(r.dropped[0].map(|d| d.0), Some(2));
        // Round 3 asks the two left for 6 blocks, which they have; round 4 for 8.
        assert_eq!(r.rounds.len(), 3);
        assert_eq!(r.next, Some(8));
        assert_eq!(r.blocks, vec![4, 8, 8]);
    }

    #[test]
    fn max_games_stops_the_race() {
        let scores = vec![blocks(&[0.0, 1.0], 10), blocks(&[1.0, 0.0], 10)];
        let mut s = spec(2, 1);
        s.max_games = Some(16);
        let r = decide(&s, 10, 2, &scores);
        // 2 points x 4 blocks x 2 games = 16 games after round 2.
        assert_eq!(r.rounds.len(), 2);
        assert_eq!(r.ended, Some(Ended::MaxGames));
    }
}
