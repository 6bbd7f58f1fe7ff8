//! Runs a GA job: evolves a weight table for the job's stage with the tuner of `tune::ga`,
//! evaluating each generation by play (`tune::fitness`), and writes one row per individual per
//! generation, the best table as a table file, and checkpoints.
//!
//! Every random draw comes from the job's generator (selection, crossover, mutation) or from a
//! seed derived from (job seed, generation) (the evaluation games), so a GA with a generations
//! budget is reproducible. A checkpoint (generation, population, generator state, rows so far)
//! is written atomically every `checkpoint_s` seconds; a killed run resumes from it and ends
//! with the same rows and table as an uninterrupted one. The checkpoint is removed when the job
//! is done.

use super::contract::{DefaultFigure, DefaultTable, JobContext, KindRunner, RowColumns};
use super::generation_report::{GENERATION_KEYS, GENERATION_UNITS, arena_table, generation_tables};
use crate::experiment::grid::{Job, PointAgents};
use crate::experiment::remote::{self, Held, UnitKind};
use crate::experiment::rows::{JobColumns, generation_columns};
use crate::experiment::rows::{read_checkpoint, write_atomic, write_checkpoint};
use crate::experiment::spec::{ExperimentFile, GameName};
use crate::experiment::{Experiment, InputError};
use crate::game::othello::Othello;
use crate::report::spec::{FigureKind, FigureSpec, RowSource};
use crate::rng::{GameRng, derive_seed, rng_from_seed};
use crate::tune::fitness::{evaluate, evaluation_games, play_evaluation, tally};
use crate::tune::ga::{next_generation, random_population};
use crate::tune::symmetry::TableLayout;
use anyhow::{Context, Result};
use polars::prelude::{Column, DataFrame};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

/// The job kind `ga`: an Othello weight table evolved generation by generation; a checkpoint
/// every `checkpoint_s` seconds, the part written at the end.
pub struct Ga;

impl KindRunner for Ga {
    fn rows_folder(&self) -> &'static str {
        "generations"
    }
    /// `[ga]` (and its `[arena]`) alone of the sections, on Othello, checked; the point plays
    /// none of the file's agents (the GA's own players are its weight tables), and the arena's
    /// agents are built and checked on the point's start.
    fn point_agents(&self, file: &ExperimentFile) -> Result<PointAgents, (String, String)> {
        let err = |key: &str, m: String| Err((key.to_string(), m));
        let (Some(ga), None, None) = (&file.ga, &file.match_, &file.tournament) else {
            return err(
                "ga",
                "kind = \"ga\" needs a [ga] table and no [match] or [tournament]".into(),
            );
        };
        if file.game != GameName::Othello {
            return err(
                "game",
                "GA jobs evolve Othello weight tables; use game = \"othello\"".into(),
            );
        }
        ga.check().map_err(|e| ("ga".to_string(), e))?;
        let mut checked = Vec::new();
        if let Some(arena) = &file.arena {
            if arena.rollouts == 0 || arena.rounds == 0 {
                return err("arena", "rollouts and rounds must be at least 1".into());
            }
            for (label, spec) in &arena.agents {
                checked.push((format!("arena.agents.{label}"), spec.clone()));
            }
        }
        Ok(PointAgents {
            labels: Vec::new(),
            checked,
        })
    }
    fn unit(&self) -> &'static str {
        "generations"
    }
    fn steps(&self, job: &Job) -> usize {
        job.config
            .ga
            .as_ref()
            .and_then(|g| g.generations)
            .unwrap_or(1) as usize
    }
    fn report_columns(&self) -> RowColumns {
        RowColumns::with_units(&GENERATION_KEYS, &GA_MEASURES, &GENERATION_UNITS)
    }
    /// The best's fitness at the end and by generation, a fitness curve and the best table
    /// drawn on its board; the arena's games by agent when there is one.
    fn default_tables(
        &self,
        exp: &Experiment,
        group: &[String],
    ) -> Result<Vec<DefaultTable>, InputError> {
        let best = FigureSpec {
            name: "best".into(),
            kind: FigureKind::Heatmap,
            weights: Some("evolved".into()),
            ..FigureSpec::default()
        };
        let mut tables = generation_tables(exp, group, DefaultFigure::This(best));
        tables.extend(arena_table(exp));
        Ok(tables)
    }
    fn other_rows(&self) -> &'static [RowSource] {
        &[RowSource::Arena]
    }
    fn figure_error(&self, exp: &Experiment, f: &FigureSpec) -> Option<&'static str> {
        (f.kind == FigureKind::Matrix && exp.file.arena.is_none())
            .then_some("a GA experiment has games only in its [arena]")
    }
    fn run(&self, cx: &JobContext) -> Result<usize> {
        let outcome = run_ga(cx.job, &cx.files.checkpoint, &|| (cx.progress)(1))?;
        (cx.kept)(outcome.resumed_rows);
        write_table_file(&cx.files.table, cx.job, &outcome.best)?;
        let rows = cx.write_part(&cx.files.part, generations_frame(&cx.id, &outcome.rows)?)?;
        std::fs::remove_file(&cx.files.checkpoint).ok();
        Ok(rows)
    }
}

/// Numeric columns of `ga` generation rows.
pub const GA_MEASURES: [&str; 4] = ["fitness", "points", "games", "generation"];

/// One individual in one generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationRow {
    pub generation: u32,
    pub individual: u32,
    pub fitness: f64,
    pub points: f64,
    pub games: u32,
    /// The fittest of its generation (the first of equals).
    pub best: bool,
    /// The full table, row-major, values separated by spaces.
    pub table: String,
}

#[derive(Serialize, Deserialize)]
struct Checkpoint {
    job: String,
    generation: u32,
    population: Vec<Vec<f64>>,
    rng: GameRng,
    elapsed_s: f64,
    rows: Vec<GenerationRow>,
}

/// What a finished GA job produced.
pub struct GaOutcome {
    pub rows: Vec<GenerationRow>,
    /// The best table of the last generation, as rows.
    pub best: Vec<Vec<f64>>,
    /// Rows of `rows` an earlier run had checkpointed (0 for a fresh job).
    pub resumed_rows: usize,
}

fn table_text(t: &[f64]) -> String {
    t.iter()
        .map(|v| format!("{v:.3}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The Othello stage of a GA job (validation allows GA jobs on Othello only).
fn othello_stage(job: &Job) -> Result<&crate::game::othello::StageDef> {
    job.config
        .stage
        .othello()
        .context("GA jobs evolve Othello tables")
}

/// Runs (or resumes) the GA of `job`; `checkpoint` is its checkpoint file; `on_generation` is
/// called after each generation.
pub fn run_ga(
    job: &Job,
    checkpoint: &Path,
    on_generation: &(dyn Fn() + Sync),
) -> Result<GaOutcome> {
    let spec = job
        .config
        .ga
        .as_ref()
        .context("a GA job has a [ga] section")?;
    let cfg = spec.config();
    let eval = spec.evaluation();
    let start = Othello::new(othello_stage(job)?).map_err(|e| anyhow::anyhow!(e))?;
    let layout = TableLayout::new(othello_stage(job)?.size as usize, spec.symmetry);
    let saved = read_checkpoint(checkpoint, &job.hash, |c: &Checkpoint| &c.job)?;
    let resumed_rows = saved.as_ref().map_or(0, |ck| ck.rows.len());
    let mut state = match saved {
        Some(ck) => ck,
        None => {
            let mut rng = rng_from_seed(job.seed);
            let population = random_population(cfg.population, layout.params, cfg.bounds, &mut rng);
            Checkpoint {
                job: job.hash.clone(),
                generation: 0,
                population,
                rng,
                elapsed_s: 0.0,
                rows: Vec::new(),
            }
        }
    };
    let t0 = Instant::now();
    let resumed_at_s = state.elapsed_s;
    let mut last_checkpoint = Instant::now();
    loop {
        let elapsed = resumed_at_s + t0.elapsed().as_secs_f64();
        let done = match (spec.generations, spec.time_s) {
            (Some(g), _) => state.generation >= g,
            (None, Some(t)) => elapsed >= t && state.generation > 0,
            (None, None) => true,
        };
        if done {
            break;
        }
        let tables: Vec<Vec<Vec<f64>>> = state.population.iter().map(|p| layout.rows(p)).collect();
        let seed = derive_seed(job.seed, &[state.generation as u64]);
        let scores = match crate::farm::farm() {
            None => evaluate(&start, &tables, &eval, seed)?,
            Some(farm) => {
                // A distributed run: the generation's games go out in units (`remote`).
                let games = evaluation_games(tables.len(), &eval, seed);
                let context = ga_games_context(job, state.generation, &tables)?;
                let units = crate::farm::ranges(0..games.len(), farm.workers(), 4, 1, 1);
                let winners: Vec<String> = remote::gather(farm, GA_GAMES, &context, units)?;
                tally(
                    tables.len(),
                    &games,
                    &winners.iter().map(String::as_str).collect::<Vec<_>>(),
                    eval.draw,
                )
            }
        };
        let fitness: Vec<f64> = scores.iter().map(|s| s.fitness(eval.measure)).collect();
        let top = crate::tune::ga::elite(&fitness, 1)[0];
        for (i, (p, s)) in state.population.iter().zip(&scores).enumerate() {
            state.rows.push(GenerationRow {
                generation: state.generation,
                individual: i as u32,
                fitness: fitness[i],
                points: s.points,
                games: s.games,
                best: i == top,
                table: table_text(&layout.table(p)),
            });
        }
        state.population = next_generation(&state.population, &fitness, &cfg, &mut state.rng);
        state.generation += 1;
        on_generation();
        if last_checkpoint.elapsed().as_secs_f64() >= spec.checkpoint_s {
            state.elapsed_s = resumed_at_s + t0.elapsed().as_secs_f64();
            write_checkpoint(checkpoint, &state)?;
            last_checkpoint = Instant::now();
        }
    }
    // The best table of the last generation, as its row records it (so a resumed run and an
    // uninterrupted one write the same file).
    let last = state
        .rows
        .iter()
        .rev()
        .find(|r| r.best)
        .context("a finished GA has rows")?;
    let values: Vec<f64> = last
        .table
        .split(' ')
        .map(|v| v.parse().expect("written by table_text"))
        .collect();
    let best = values.chunks(layout.size).map(<[f64]>::to_vec).collect();
    Ok(GaOutcome {
        rows: state.rows,
        best,
        resumed_rows,
    })
}

/// Evaluation games `range` of generation `generation` of a GA job, whose individuals' tables
/// are `tables`: each game's winner. What a worker of a distributed run computes for a unit.
pub fn play_evaluation_range(
    job: &Job,
    generation: u32,
    tables: &[Vec<Vec<f64>>],
    range: std::ops::Range<usize>,
) -> Result<Vec<&'static str>> {
    let spec = job
        .config
        .ga
        .as_ref()
        .context("a GA job has a [ga] section")?;
    let eval = spec.evaluation();
    let start = Othello::new(othello_stage(job)?).map_err(|e| anyhow::anyhow!(e))?;
    let seed = derive_seed(job.seed, &[generation as u64]);
    let games = evaluation_games(tables.len(), &eval, seed);
    let stretch = games
        .get(range.clone())
        .with_context(|| format!("evaluation games {range:?} of {}", games.len()))?;
    play_evaluation(&start, tables, &eval, seed, stretch)
}

/// Writes a GA job's best table as a table file (one row per line) that agents can name.
pub fn write_table_file(path: &Path, job: &Job, best: &[Vec<f64>]) -> Result<()> {
    let rows: Vec<String> = best
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| format!("{v}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let text = format!(
        "# best table of GA job {} ({}), last generation\n{}\n",
        job.hash,
        job.config.stage.id(),
        rows.join("\n")
    );
    write_atomic(path, |f| {
        use std::io::Write;
        f.write_all(crate::durable::sealed(&text).as_bytes())?;
        Ok(())
    })
}

/// The rows of one GA job as a DataFrame: one row per individual per generation; `final`
/// marks the job's last generation.
pub fn generations_frame(id: &JobColumns, rows: &[GenerationRow]) -> Result<DataFrame> {
    let cols = generation_columns(
        id,
        rows.iter().map(|r| r.generation as i64).collect(),
        rows.iter().map(|r| r.individual as i64).collect(),
        rows.iter().map(|r| r.fitness).collect(),
        vec![
            Column::new(
                "points".into(),
                rows.iter().map(|r| r.points).collect::<Vec<f64>>(),
            ),
            Column::new(
                "games".into(),
                rows.iter().map(|r| r.games as i64).collect::<Vec<i64>>(),
            ),
        ],
        rows.iter().map(|r| r.best as i64).collect(),
        vec![Column::new(
            "table".into(),
            rows.iter()
                .map(|r| r.table.clone())
                .collect::<Vec<String>>(),
        )],
    );
    Ok(DataFrame::new(rows.len(), cols)?)
}

#[derive(Serialize, Deserialize)]
struct GaGamesContext {
    job: Job,
    generation: u32,
    tables: Vec<Vec<Vec<f64>>>,
}

/// The context of an Othello GA generation's evaluation games: the job and the tables.
fn ga_games_context(
    job: &Job,
    generation: u32,
    tables: &[Vec<Vec<f64>>],
) -> Result<std::sync::Arc<crate::farm::Context>> {
    remote::context(
        format!("{GA_GAMES}/{}/{generation}", job.hash),
        &GaGamesContext {
            job: job.clone(),
            generation,
            tables: tables.to_vec(),
        },
    )
}

/// The name of an Othello GA generation's evaluation units on the wire.
const GA_GAMES: &str = "ga-games";

/// An Othello GA generation's evaluation units: games i..j, each game's winner
/// (`play_evaluation_range`).
pub struct GaGamesUnit;

impl UnitKind for GaGamesUnit {
    fn name(&self) -> &'static str {
        GA_GAMES
    }
    fn hold(&self, bytes: &[u8]) -> Result<Held> {
        Ok(Box::new(serde_json::from_slice::<GaGamesContext>(bytes)?))
    }
    fn compute(&self, held: &Held, payload: &[u8]) -> Result<Vec<u8>> {
        let c: &GaGamesContext = remote::held(held)?;
        Ok(serde_json::to_vec(&play_evaluation_range(
            &c.job,
            c.generation,
            &c.tables,
            serde_json::from_slice(payload)?,
        )?)?)
    }
}
