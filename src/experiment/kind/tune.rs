//! Runs a `tune` job: a tuner changes the weight vector of one agent by games against a fixed
//! opponent, then the final weights play that opponent again. Tuners: the report's
//! hill-climber (`tune::hillclimb`), the GA (`tune::ga`, its population evaluated by games
//! against the opponent rather than against each other, so that both tuners spend the same
//! games on the same question), or none (the starting weights, the baseline).
//!
//! One row per game, in both phases ("tune", then "eval"): the weights that played, the
//! hill-climber's advantage shares, the result for the tuned agent. The weight trajectories of
//! the report's Figure 2 are the tune-phase rows of a hill-climbing job.
//!
//! Games are seeded from (job seed, phase, game), so a job is reproducible and independent of
//! the thread count. The hill-climber's games run one after another (each game changes the
//! weights); the GA's games of a generation and the evaluation games run in parallel. A killed
//! job is rerun from its start (it has no checkpoint; its part file is written at the end).
//!
//! `kind = "tune"` goes beyond DESIGN.md's `hillclimb` job kind: one kind with the tuner as a
//! swept setting makes "the two tuners at equal game budgets" one grid axis.

use super::contract::{DefaultTable, JobContext, KindRunner, RowColumns};
use crate::agent::AgentSpec;
use crate::experiment::grid::{Job, MAX_GAMES_PER_JOB, PointAgents};
use crate::experiment::rows::{JobColumns, id_columns};
use crate::experiment::spec::{ExperimentFile, GameName, Stage, TunerName};
use crate::experiment::{Experiment, InputError};
use crate::game::freckers::Freckers;
use crate::game::freckers::agents::{EVAL_FEATURES, eval_features};
use crate::game::{Game, Player};
use crate::play::{GameRow, play_game_observed, seat_result};
use crate::report::spec::{Statistic, TableSpec};
use crate::rng::{derive_seed, rng_from_seed};
use crate::tune::ga::{elite, next_generation, random_population};
use crate::tune::hillclimb::{Advantage, climb};
use anyhow::{Context, Result};
use polars::prelude::{Column, DataFrame};
use rayon::prelude::*;

/// The job kind `tune`: a tuner against an opponent at a game budget, one row per game; run from
/// its start after a kill (no checkpoint), the part written at the end.
pub struct Tune;

/// Group keys of tune-job rows besides the grid keys (`weight` exists in the long form a
/// pattern metric such as `w_*` makes).
pub const TUNE_KEYS: [&str; 8] = [
    "tuner",
    "phase",
    "game",
    "generation",
    "individual",
    "repeat",
    "tuned_first",
    "weight",
];

/// Numeric columns of tune-job rows; `w_*` (the weights) and `a_*` (the advantage shares) are
/// patterns: a mean table of one is computed over one record per row and weight, with the
/// weight's name in the key column `weight`.
pub const TUNE_MEASURES: [&str; 6] = ["result", "plies", "game", "generation", "w_*", "a_*"];

impl KindRunner for Tune {
    fn rows_folder(&self) -> &'static str {
        "tuning"
    }
    /// `[tune]` alone of the sections (no `[match]` or `[tournament]`), checked; the point plays
    /// the tuned agent and its opponent.
    fn point_agents(&self, file: &ExperimentFile) -> Result<PointAgents, (String, String)> {
        let err = |key: &str, m: String| Err((key.to_string(), m));
        let (Some(t), None, None) = (&file.tune, &file.match_, &file.tournament) else {
            return err(
                "tune",
                "kind = \"tune\" needs a [tune] table and no [match], [tournament] or [ga]".into(),
            );
        };
        t.check().map_err(|e| ("tune".to_string(), e))?;
        if t.games as u64 > MAX_GAMES_PER_JOB {
            return err(
                "tune.games",
                format!("{} games: at most {MAX_GAMES_PER_JOB} per job", t.games),
            );
        }
        if !file.agents.contains_key(&t.agent) {
            return err("tune.agent", format!("no agent labelled '{}'", t.agent));
        }
        // Its starting weights are checked once the job has its agents (`check`).
        Ok(PointAgents {
            labels: vec![
                (t.agent.clone(), "tune.agent"),
                (t.opponent.clone(), "tune.opponent"),
            ],
            checked: Vec::new(),
        })
    }
    fn report_columns(&self) -> RowColumns {
        RowColumns::with_units(
            &TUNE_KEYS,
            &TUNE_MEASURES,
            &["repeat", "job", "generation", "individual", "game"],
        )
    }
    fn scores_games(&self) -> Result<(), &'static str> {
        Err("tune rows are scored by their `result`")
    }
    /// The final weights' score against the opponent, and the final weights themselves.
    fn default_tables(
        &self,
        _exp: &Experiment,
        group: &[String],
    ) -> Result<Vec<DefaultTable>, InputError> {
        let eval: std::collections::BTreeMap<String, toml::Value> =
            [("phase".to_string(), toml::Value::from("eval"))].into();
        let mut by_weight = group.to_vec();
        by_weight.push("weight".into());
        Ok(vec![
            DefaultTable::usual(TableSpec {
                statistic: Statistic::Mean,
                metric: Some("result".into()),
                filter: eval.clone(),
                ..TableSpec::new(
                    "eval",
                    "Score of the final weights against the opponent (1 win, 0.5 draw)",
                    Some(group.to_vec()),
                )
            }),
            DefaultTable::usual(TableSpec {
                statistic: Statistic::Mean,
                metric: Some("w_*".into()),
                unit: Some("repeat".into()),
                filter: eval,
                ..TableSpec::new(
                    "final_weights",
                    "The final weights (mean over repeats)",
                    Some(by_weight),
                )
            }),
        ])
    }
    /// The starting weights of the tuned agent: a weight vector this game can tune, inside the
    /// bounds.
    fn check(&self, exp: &Experiment, job: &Job) -> Result<(), InputError> {
        let Some(t) = &job.config.tune else {
            return Ok(());
        };
        let err = |msg: String| {
            if job.swept.is_empty() {
                exp.error("tune.agent", msg)
            } else {
                exp.error(
                    "tune.agent",
                    format!(
                        "with {}: {msg}",
                        crate::experiment::grid::describe_point(&job.swept)
                    ),
                )
            }
        };
        // A tuned agent that is not there is the grid's error (`tune.agent`), made before this.
        let Some(spec) = job.config.agents.get(&t.agent) else {
            return Ok(());
        };
        let weights = tunable_weights(exp.file.game, spec).map_err(err)?;
        if let Some((name, w)) = weights
            .iter()
            .find(|(_, w)| !(t.bounds[0]..=t.bounds[1]).contains(w))
        {
            return Err(err(format!(
                "the starting weight {name} = {w} is outside bounds [{}, {}]",
                t.bounds[0], t.bounds[1]
            )));
        }
        Ok(())
    }
    fn unit(&self) -> &'static str {
        "games"
    }
    fn steps(&self, job: &Job) -> usize {
        games_of(job)
    }
    fn run(&self, cx: &JobContext) -> Result<usize> {
        let (names, rows) = run_tune(cx.job, &|| (cx.progress)(1))?;
        cx.write_part(&cx.files.part, tuning_frame(&cx.id, &names, &rows)?)
    }
}

/// One game of a tune job.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneRow {
    pub tuner: &'static str,
    /// "tune" or "eval".
    pub phase: &'static str,
    /// Game index within the phase.
    pub game: u32,
    /// GA generation (hill-climber: the game index; eval: 0).
    pub generation: u32,
    /// GA individual (0 otherwise).
    pub individual: u32,
    /// The tuned agent moved first.
    pub tuned_first: bool,
    /// 1 win, 0.5 draw, 0 loss for the tuned agent.
    pub result: f64,
    pub plies: u32,
    /// The weights that played this game.
    pub weights: Vec<f64>,
    /// The hill-climber's advantage shares of this game (zeros for other tuners).
    pub advantage: Vec<f64>,
}

/// The starting weights of `spec` when `game` can tune them, with their names.
pub fn tunable_weights(
    game: GameName,
    spec: &AgentSpec,
) -> Result<Vec<(&'static str, f64)>, String> {
    if game != GameName::Freckers {
        return Err(
            "tune jobs tune a Freckers alpha-beta evaluation; use game = \"freckers\"".into(),
        );
    }
    let weights = spec.weights().ok_or_else(|| {
        format!(
            "agent kind '{}' has no weight vector to tune (alphabeta has: {})",
            spec.kind_name(),
            EVAL_FEATURES.join(", ")
        )
    })?;
    Ok(EVAL_FEATURES.into_iter().zip(weights).collect())
}

const TUNE: u64 = 1;
const EVAL: u64 = 2;

fn tuner_name(t: TunerName) -> &'static str {
    match t {
        TunerName::Hillclimb => "hillclimb",
        TunerName::Ga => "ga",
        TunerName::None => "none",
    }
}

/// Plays game `index` of a phase between the tuned agent (with `weights`) and the opponent;
/// the tuned agent moves first in even games. With `advantage`, accumulates the tuned side's
/// advantage vector over its moves.
fn play(
    job: &Job,
    weights: &[f64],
    phase: u64,
    index: u32,
    advantage: Option<&mut Advantage>,
) -> Result<(GameRow, bool, f64)> {
    let t = job
        .config
        .tune
        .as_ref()
        .context("a tune job has a [tune] section")?;
    let Stage::Freckers(stage) = &job.config.stage else {
        anyhow::bail!("tune jobs play Freckers")
    };
    let start = Freckers::new(stage.strict);
    let tuned = job.config.agents[&t.agent].with_weights(weights);
    let opponent = &job.config.agents[&t.opponent];
    let tuned_first = index % 2 == 0;
    let (first, second) = if tuned_first {
        ((t.agent.as_str(), &tuned), (t.opponent.as_str(), opponent))
    } else {
        ((t.opponent.as_str(), opponent), (t.agent.as_str(), &tuned))
    };
    let seed = derive_seed(job.seed, &[phase, index as u64]);
    let me = if tuned_first {
        Player::First
    } else {
        Player::Second
    };
    let mut observe = advantage.map(|adv| {
        move |before: &Freckers, after: &Freckers| {
            if before.to_move() == me {
                adv.add(
                    weights,
                    &eval_features(before, me, [true; 5]),
                    &eval_features(after, me, [true; 5]),
                );
            }
        }
    });
    let observer = observe
        .as_mut()
        .map(|f| f as &mut dyn FnMut(&Freckers, &Freckers));
    let row = play_game_observed(&start, first, second, seed, index, &stage.id, observer)?;
    let result = seat_result(row.winner, tuned_first);
    Ok((row, tuned_first, result))
}

/// Runs a tune job; `on_game` is called after every game. Returns the weight names and rows.
pub fn run_tune(
    job: &Job,
    on_game: &(dyn Fn() + Sync),
) -> Result<(Vec<&'static str>, Vec<TuneRow>)> {
    let t = job
        .config
        .tune
        .as_ref()
        .context("a tune job has a [tune] section")?;
    let named = tunable_weights(job.config.game, &job.config.agents[&t.agent])
        .map_err(|e| anyhow::anyhow!(e))?;
    let names: Vec<&'static str> = named.iter().map(|(n, _)| *n).collect();
    let start: Vec<f64> = named.iter().map(|(_, w)| *w).collect();
    let bounds = (t.bounds[0], t.bounds[1]);
    let tuner = tuner_name(t.tuner);
    let zeros = vec![0.0; names.len()];
    let mut rows = Vec::new();
    let last = match t.tuner {
        TunerName::None => start,
        TunerName::Hillclimb => {
            let mut w = start;
            for g in 0..t.games {
                let mut adv = Advantage::new(w.len(), t.advantage);
                let (row, tuned_first, result) = play(job, &w, TUNE, g, Some(&mut adv))?;
                let shares = adv.shares();
                let next = climb(&w, &shares, result, t.step, bounds);
                rows.push(TuneRow {
                    tuner,
                    phase: "tune",
                    game: g,
                    generation: g,
                    individual: 0,
                    tuned_first,
                    result,
                    plies: row.plies,
                    weights: std::mem::replace(&mut w, next),
                    advantage: shares,
                });
                on_game();
            }
            w
        }
        TunerName::Ga => {
            let cfg = t.ga_config();
            let mut rng = rng_from_seed(job.seed);
            let mut population =
                random_population(cfg.population, start.len(), cfg.bounds, &mut rng);
            population[0] = start;
            let k = t.games_per_individual;
            let mut best = population[0].clone();
            for generation in 0..t.generations() {
                let base = generation * cfg.population as u32 * k;
                let games: Vec<(usize, u32)> = (0..cfg.population)
                    .flat_map(|i| (0..k).map(move |j| (i, j)))
                    .collect();
                let played: Vec<(usize, TuneRow)> = games
                    .par_iter()
                    .map(|&(i, j)| -> Result<(usize, TuneRow)> {
                        let g = base + i as u32 * k + j;
                        let (row, tuned_first, result) = play(job, &population[i], TUNE, g, None)?;
                        on_game();
                        Ok((
                            i,
                            TuneRow {
                                tuner,
                                phase: "tune",
                                game: g,
                                generation,
                                individual: i as u32,
                                tuned_first,
                                result,
                                plies: row.plies,
                                weights: population[i].clone(),
                                advantage: zeros.clone(),
                            },
                        ))
                    })
                    .collect::<Result<_>>()?;
                let mut fitness = vec![0.0; cfg.population];
                for (i, row) in played {
                    fitness[i] += row.result / k as f64;
                    rows.push(row);
                }
                best = population[elite(&fitness, 1)[0]].clone();
                population = next_generation(&population, &fitness, &cfg, &mut rng);
            }
            best
        }
    };
    let evals: Vec<TuneRow> = (0..t.eval_games)
        .into_par_iter()
        .map(|g| -> Result<TuneRow> {
            let (row, tuned_first, result) = play(job, &last, EVAL, g, None)?;
            on_game();
            Ok(TuneRow {
                tuner,
                phase: "eval",
                game: g,
                generation: 0,
                individual: 0,
                tuned_first,
                result,
                plies: row.plies,
                weights: last.clone(),
                advantage: zeros.clone(),
            })
        })
        .collect::<Result<_>>()?;
    rows.extend(evals);
    Ok((names, rows))
}

/// Games a tune job plays (for progress).
pub fn games_of(job: &Job) -> usize {
    job.config.tune.as_ref().map_or(0, |t| {
        let tuning = match t.tuner {
            TunerName::None => 0,
            TunerName::Hillclimb => t.games,
            TunerName::Ga => t.generations() * t.population as u32 * t.games_per_individual,
        };
        (tuning + t.eval_games) as usize
    })
}

/// A tune job's rows: one per game, each weight as a column `w_<name>` and each advantage
/// share as `a_<name>`.
pub fn tuning_frame(id: &JobColumns, names: &[&str], rows: &[TuneRow]) -> Result<DataFrame> {
    let n = rows.len();
    let mut cols = id_columns(id, n, &[]);
    cols.extend([
        Column::new(
            "tuner".into(),
            rows.iter().map(|r| r.tuner).collect::<Vec<&str>>(),
        ),
        Column::new(
            "phase".into(),
            rows.iter().map(|r| r.phase).collect::<Vec<&str>>(),
        ),
        Column::new(
            "game".into(),
            rows.iter().map(|r| r.game as i64).collect::<Vec<i64>>(),
        ),
        Column::new(
            "generation".into(),
            rows.iter()
                .map(|r| r.generation as i64)
                .collect::<Vec<i64>>(),
        ),
        Column::new(
            "individual".into(),
            rows.iter()
                .map(|r| r.individual as i64)
                .collect::<Vec<i64>>(),
        ),
        Column::new(
            "tuned_first".into(),
            rows.iter().map(|r| r.tuned_first).collect::<Vec<bool>>(),
        ),
        Column::new(
            "result".into(),
            rows.iter().map(|r| r.result).collect::<Vec<f64>>(),
        ),
        Column::new(
            "plies".into(),
            rows.iter().map(|r| r.plies as i64).collect::<Vec<i64>>(),
        ),
    ]);
    for (i, name) in names.iter().enumerate() {
        cols.push(Column::new(
            format!("w_{name}").into(),
            rows.iter().map(|r| r.weights[i]).collect::<Vec<f64>>(),
        ));
    }
    for (i, name) in names.iter().enumerate() {
        cols.push(Column::new(
            format!("a_{name}").into(),
            rows.iter().map(|r| r.advantage[i]).collect::<Vec<f64>>(),
        ));
    }
    Ok(DataFrame::new(n, cols)?)
}
