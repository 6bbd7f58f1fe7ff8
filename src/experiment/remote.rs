//! The units of work a distributed run (`farm`, `gamelab run --mpi`) sends to its workers, and
//! what a worker does with them. One kind per parallel loop of a job kind:
//!
//! | kind         | context (sent once per worker)             | payload             | answer                       |
//! |--------------|--------------------------------------------|---------------------|------------------------------|
//! | `games`      | the job and its agents                     | games i..j          | their rows                   |
//! | `ga-games`   | an Othello GA job, a generation's tables   | evaluation games i..j | each game's winner         |
//! | `solves`     | a problem selection, labelled weights, limits | units i..j       | their solve rows             |
//! | `tsumego-ga` | a life-and-death GA job, its base weights and the base's leaves | chromosomes | (fitness, training leaves) each |
//!
//! Each is computed by the same function a one-process run calls (`games_job::play_range`,
//! `tune::fitness::play_evaluation`, `SolveWork::solve`, `solve_job::evaluate`), from seeds
//! the unit carries, so the rows are identical. Contexts and answers are JSON (serde_json with
//! exact float round trips). Workers read problem libraries from the results folder, which on
//! a cluster is a shared file system (as Slurm clusters have); everything else comes in the
//! units. `tune` jobs (a sequential hill-climber, or a GA over a few dozen games) run on rank 0.

use super::games_job::Agents;
use super::grid::Job;
use crate::farm::{Context, Farm, Unit};
use anyhow::{Context as _, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

pub const GAMES: &str = "games";
pub const GA_GAMES: &str = "ga-games";
pub const SOLVES: &str = "solves";
pub const TSUMEGO_GA: &str = "tsumego-ga";
/// A unit that comes back as it went (`gamelab mpi-check`: the cost of a unit's round trip).
pub const ECHO: &str = "echo";

/// Sends `units` echo units of `bytes` bytes each through the farm and checks every answer;
/// returns the seconds it took.
pub fn echo(farm: &Farm, units: usize, bytes: usize) -> Result<f64> {
    let context = Arc::new(Context {
        key: ECHO.into(),
        bytes: Vec::new(),
    });
    let t0 = std::time::Instant::now();
    let payloads: Vec<Vec<u8>> = (0..units).map(|i| vec![(i % 251) as u8; bytes]).collect();
    let sent = payloads.clone();
    let answers = farm.map(
        payloads
            .into_iter()
            .map(|payload| Unit {
                kind: ECHO,
                context: context.clone(),
                payload,
            })
            .collect(),
    );
    for (i, (answer, payload)) in answers.zip(&sent).enumerate() {
        anyhow::ensure!(&answer? == payload, "echo unit {i} came back changed");
    }
    Ok(t0.elapsed().as_secs_f64())
}

/// Sends one unit of `kind` per payload to the farm; the answers come back decoded, in order.
pub fn map<P: Serialize, T: DeserializeOwned>(
    farm: &Farm,
    kind: &'static str,
    context: &Arc<Context>,
    payloads: impl IntoIterator<Item = P>,
) -> Result<impl Iterator<Item = Result<T>>> {
    let units = payloads
        .into_iter()
        .map(|p| {
            Ok(Unit {
                kind,
                context: context.clone(),
                payload: serde_json::to_vec(&p)?,
            })
        })
        .collect::<Result<Vec<Unit>>>()?;
    Ok(farm.map(units).map(move |bytes| {
        serde_json::from_slice(&bytes?)
            .with_context(|| format!("reading a worker's answer to a '{kind}' unit"))
    }))
}

/// `map` for units whose answers are lists: the answers joined in order.
pub fn gather<P: Serialize, T: DeserializeOwned>(
    farm: &Farm,
    kind: &'static str,
    context: &Arc<Context>,
    payloads: impl IntoIterator<Item = P>,
) -> Result<Vec<T>> {
    let mut all = Vec::new();
    for answer in map::<P, Vec<T>>(farm, kind, context, payloads)? {
        all.extend(answer?);
    }
    Ok(all)
}

fn context<C: Serialize>(key: String, c: &C) -> Result<Arc<Context>> {
    Ok(Arc::new(Context {
        key,
        bytes: serde_json::to_vec(c)?,
    }))
}

#[derive(Serialize, Deserialize)]
struct GamesContext {
    job: Job,
    agents: Agents,
    /// External agents' log files, by label (not part of an agent's JSON).
    logs: std::collections::BTreeMap<String, PathBuf>,
}

/// The context of a games job's units: the job and its agents (with their log files).
pub fn games_context(job: &Job, agents: &Agents) -> Result<Arc<Context>> {
    let logs = agents
        .iter()
        .filter_map(|(label, spec)| match spec {
            crate::agent::AgentSpec::External(e) => e.log.clone().map(|log| (label.clone(), log)),
            _ => None,
        })
        .collect();
    context(
        format!("{GAMES}/{}", job.hash),
        &GamesContext {
            job: job.clone(),
            agents: agents.clone(),
            logs,
        },
    )
}

#[derive(Serialize, Deserialize)]
struct GaGamesContext {
    job: Job,
    generation: u32,
    tables: Vec<Vec<Vec<f64>>>,
}

/// The context of an Othello GA generation's evaluation games: the job and the tables.
pub fn ga_games_context(
    job: &Job,
    generation: u32,
    tables: &[Vec<Vec<f64>>],
) -> Result<Arc<Context>> {
    context(
        format!("{GA_GAMES}/{}/{generation}", job.hash),
        &GaGamesContext {
            job: job.clone(),
            generation,
            tables: tables.to_vec(),
        },
    )
}

#[derive(Serialize, Deserialize)]
struct SolvesContext {
    library: PathBuf,
    problems: crate::game::tsumego::library::Selection,
    weights: Vec<(String, crate::game::tsumego::heuristic::Weights)>,
    limits: crate::game::tsumego::solver::Limits,
    /// `SolveWork::reuse`: a worker reuses its own earlier solves of a GA's test set.
    #[serde(default)]
    reuse: bool,
    /// `SolveWork::store`: the folder of shared solves, where the worker's file system has it.
    #[serde(default)]
    store: Option<PathBuf>,
}

/// The context of a set of solves: the problems (read by the worker from `library`), the
/// labelled weights and the limits. `key` tells this set from the job's others.
pub fn solves_context(
    key: String,
    library: &std::path::Path,
    problems: &crate::game::tsumego::library::Selection,
    work: &super::solve_job::SolveWork,
) -> Result<Arc<Context>> {
    context(
        format!("{SOLVES}/{key}"),
        &SolvesContext {
            library: library.to_path_buf(),
            problems: problems.clone(),
            weights: work.weights.clone(),
            limits: work.limits,
            reuse: work.reuse,
            store: work.store.clone(),
        },
    )
}

#[derive(Serialize, Deserialize)]
struct TsumegoGaContext {
    job: Job,
    library: PathBuf,
    base: crate::game::tsumego::heuristic::Weights,
    old_leaves: Vec<u64>,
}

/// The context of a life-and-death GA's evaluations: the job, its library, its base weights
/// and their leaves on the training set (the dynamic fitness's "old").
pub fn tsumego_ga_context(
    job: &Job,
    library: &std::path::Path,
    base: &crate::game::tsumego::heuristic::Weights,
    old_leaves: &[u64],
) -> Result<Arc<Context>> {
    context(
        format!("{TSUMEGO_GA}/{}", job.hash),
        &TsumegoGaContext {
            job: job.clone(),
            library: library.to_path_buf(),
            base: base.clone(),
            old_leaves: old_leaves.to_vec(),
        },
    )
}

/// A context as a worker keeps it: decoded, with what it loaded (problems).
enum Held {
    Games(GamesContext),
    GaGames(GaGamesContext),
    Solves(super::solve_job::SolveWork),
    TsumegoGa(
        TsumegoGaContext,
        Vec<crate::game::tsumego::problem::Problem>,
    ),
    Echo,
}

/// The contexts a worker holds, by key. Rank 0 sends a context once per worker, so a worker
/// keeps every context it was sent for the rest of the run.
static HELD: Mutex<Option<HashMap<String, Arc<Held>>>> = Mutex::new(None);

fn decode(kind: &str, bytes: &[u8]) -> Result<Held> {
    Ok(match kind {
        GAMES => {
            let mut c: GamesContext = serde_json::from_slice(bytes)?;
            for (label, spec) in c.agents.iter_mut() {
                if let crate::agent::AgentSpec::External(e) = spec {
                    e.log = c.logs.get(label).cloned();
                }
            }
            Held::Games(c)
        }
        GA_GAMES => Held::GaGames(serde_json::from_slice(bytes)?),
        SOLVES => {
            let c: SolvesContext = serde_json::from_slice(bytes)?;
            let problems = c.problems.load(&c.library)?;
            Held::Solves(super::solve_job::SolveWork {
                problems,
                weights: c.weights,
                limits: c.limits,
                reuse: c.reuse,
                store: c.store,
            })
        }
        TSUMEGO_GA => {
            let c: TsumegoGaContext = serde_json::from_slice(bytes)?;
            let spec = c
                .job
                .config
                .tsumego_ga
                .as_ref()
                .context("a tsumego_ga job has a [tsumego_ga] section")?;
            let train = spec.train.load(&c.library)?;
            Held::TsumegoGa(c, train)
        }
        ECHO => Held::Echo,
        other => anyhow::bail!(
            "unknown unit kind '{other}' (rank 0 and this worker run different versions of gamelab?)"
        ),
    })
}

/// A worker's side: computes one unit of `kind` (its context `key`, sent as `context` with
/// the first unit of it this worker gets) and returns the encoded answer.
pub fn compute(kind: &str, key: &str, context: Option<&[u8]>, payload: &[u8]) -> Result<Vec<u8>> {
    let held = {
        let mut map = HELD.lock().expect("the held contexts");
        let map = map.get_or_insert_with(HashMap::new);
        if let Some(bytes) = context {
            map.insert(
                key.to_string(),
                Arc::new(
                    decode(kind, bytes)
                        .with_context(|| format!("reading the context of a '{kind}' unit"))?,
                ),
            );
        }
        map.get(key)
            .cloned()
            .with_context(|| format!("a '{kind}' unit arrived without its context '{key}'"))?
    };
    let answer = match &*held {
        Held::Games(c) => serde_json::to_vec(&super::games_job::play_range(
            &c.job,
            &c.agents,
            serde_json::from_slice(payload)?,
        )?)?,
        Held::GaGames(c) => serde_json::to_vec(&super::ga_job::play_evaluation_range(
            &c.job,
            c.generation,
            &c.tables,
            serde_json::from_slice(payload)?,
        )?)?,
        Held::Solves(work) => {
            serde_json::to_vec(&work.solve(serde_json::from_slice(payload)?, &|| {}))?
        }
        Held::Echo => payload.to_vec(),
        Held::TsumegoGa(c, train) => {
            let genes: Vec<Vec<f64>> = serde_json::from_slice(payload)?;
            serde_json::to_vec(&super::solve_job::evaluate_here(
                &c.job,
                &c.base,
                train,
                &c.old_leaves,
                &genes,
            )?)?
        }
    };
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Workers rebuild jobs from their JSON: every job of every shipped experiment must come
    /// back exactly (the untagged `Stage` must come back as the same variant).
    #[test]
    fn every_shipped_job_survives_the_trip_to_a_worker() {
        let mut checked = 0;
        for entry in std::fs::read_dir("experiments").unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            // Files on GoTools' problems need GoTools' files, which are never here: a copy
            // names a folder of stand-ins (expansion reads the files only for their digest).
            let text = std::fs::read_to_string(&path).unwrap();
            // Files on OpenSpiel's games or bots ask OpenSpiel when they expand: without it
            // (`make test` installs it first) they are skipped, as the OpenSpiel tests are,
            // unless REQUIRE_OPENSPIEL is set (CI sets it).
            let names_openspiel = text
                .lines()
                .any(|l| !l.trim_start().starts_with('#') && l.contains("openspiel"));
            if names_openspiel
                && std::env::var_os("REQUIRE_OPENSPIEL").is_none()
                && !crate::game::openspiel::imports_pyspiel(&crate::game::openspiel::python())
            {
                eprintln!(
                    "{}: SKIPPED (OpenSpiel cannot be imported; `make openspiel` installs it)",
                    path.display()
                );
                continue;
            }
            let stand_ins = tempfile::tempdir().unwrap();
            let path = if text.contains("source = \"gotools\"") {
                for a in 1..=crate::game::tsumego::library::GOTOOLS_VOLUMES {
                    for b in 1..=14 {
                        std::fs::write(stand_ins.path().join(format!("lv{a}.{b}")), "x").unwrap();
                    }
                }
                let copy = stand_ins.path().join(path.file_name().unwrap());
                let folder = format!(
                    "source = \"gotools\"\nfolder = \"{}\"",
                    stand_ins.path().display()
                );
                std::fs::write(&copy, text.replace("source = \"gotools\"", &folder)).unwrap();
                copy
            } else {
                path
            };
            let exp = crate::experiment::Experiment::load(&path).unwrap();
            for job in crate::experiment::expand(&exp).unwrap() {
                let back: Job = serde_json::from_slice(&serde_json::to_vec(&job).unwrap())
                    .unwrap_or_else(|e| panic!("{}: job {}: {e}", path.display(), job.hash));
                assert_eq!(back, job, "{}: job {}", path.display(), job.hash);
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked} jobs");
    }
}
