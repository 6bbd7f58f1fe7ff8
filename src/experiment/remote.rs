//! The transport of a distributed run (`farm`, `gamelab run --mpi`): how rank 0 sends units of
//! work to its workers (`map`, `gather`, `context`) and how a worker computes them (`compute`,
//! through each unit's `UnitKind`). It knows no job kind: each kind's file defines its units, and
//! `kind::registry::unit_kinds` lists them for the workers:
//!
//! | unit         | defined in     | context (sent once per worker)             | payload             | answer                       |
//! |--------------|----------------|--------------------------------------------|---------------------|------------------------------|
//! | `games`      | `kind::games`  | the job and its agents                     | games i..j          | their rows                   |
//! | `ga-games`   | `kind::ga`     | an Othello GA job, a generation's tables   | evaluation games i..j | each game's winner         |
//! | `solves`     | `kind::solve`  | a problem selection, labelled weights, limits | units i..j       | their solve rows             |
//! | `tsumego-ga` | `kind::solve`  | a life-and-death GA job, its base weights and the base's leaves | chromosomes | (fitness, training leaves) each |
//! | `echo`       | here           | none                                       | bytes               | the same bytes               |
//!
//! Each is computed by the same function a one-process run calls (`kind::games::play_range`,
//! `kind::ga::play_evaluation_range`, `SolveWork::solve`, `kind::solve::evaluate_here`), from
//! seeds the unit carries, so the rows are identical. Contexts and answers are JSON (serde_json
//! with exact float round trips). Workers read problem libraries from the results folder, which
//! on a cluster is a shared file system (as Slurm clusters have); everything else comes in the
//! units. `tune` jobs (a sequential hill-climber, or a GA over a few dozen games) run on rank 0.

use crate::farm::{Context, Farm, Unit};
use anyhow::{Context as _, Result};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

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

/// A context to send: `c` encoded, under `key` (which tells it from the job's other contexts).
pub fn context<C: Serialize>(key: String, c: &C) -> Result<Arc<Context>> {
    Ok(Arc::new(Context {
        key,
        bytes: serde_json::to_vec(c)?,
    }))
}

/// A kind of unit a worker computes (one parallel loop of a job kind, `experiment::kind`'s
/// registry lists them): how a worker holds a context it was sent and computes a unit from it.
pub trait UnitKind: Sync {
    /// The unit's name on the wire (`Unit::kind`).
    fn name(&self) -> &'static str;
    /// Decodes a context as rank 0 sent it, loading what it names (problems from the shared
    /// results folder); the worker keeps it for the rest of the run.
    fn hold(&self, context: &[u8]) -> Result<Held>;
    /// Computes one unit (`payload`) from its held context; returns the encoded answer.
    fn compute(&self, held: &Held, payload: &[u8]) -> Result<Vec<u8>>;
}

/// A context as a worker keeps it: what `UnitKind::hold` made of it (its kind's own type).
pub type Held = Box<dyn std::any::Any + Send + Sync>;

/// The held context as its kind's type (`UnitKind::compute` of the kind that held it).
pub fn held<T: 'static>(held: &Held) -> Result<&T> {
    held.downcast_ref::<T>()
        .context("a unit's context was held by another unit kind")
}

/// Echo units: a unit that comes back as it went.
pub struct Echo;

impl UnitKind for Echo {
    fn name(&self) -> &'static str {
        ECHO
    }
    fn hold(&self, _context: &[u8]) -> Result<Held> {
        Ok(Box::new(()))
    }
    fn compute(&self, _held: &Held, payload: &[u8]) -> Result<Vec<u8>> {
        Ok(payload.to_vec())
    }
}

/// The contexts a worker holds, by key. Rank 0 sends a context once per worker, so a worker
/// keeps every context it was sent for the rest of the run.
static HELD: Mutex<Option<HashMap<String, Arc<Held>>>> = Mutex::new(None);

/// A worker's side: computes one unit of `kind` (one of `kinds`; its context `key`, sent as
/// `context` with the first unit of it this worker gets) and returns the encoded answer.
pub fn compute(
    kinds: &[&dyn UnitKind],
    kind: &str,
    key: &str,
    context: Option<&[u8]>,
    payload: &[u8],
) -> Result<Vec<u8>> {
    let Some(unit_kind) = kinds.iter().find(|k| k.name() == kind) else {
        anyhow::bail!(
            "unknown unit kind '{kind}' (rank 0 and this worker run different versions of gamelab?)"
        )
    };
    let held = {
        let mut map = HELD.lock().expect("the held contexts");
        let map = map.get_or_insert_with(HashMap::new);
        if let Some(bytes) = context {
            map.insert(
                key.to_string(),
                Arc::new(
                    unit_kind
                        .hold(bytes)
                        .with_context(|| format!("reading the context of a '{kind}' unit"))?,
                ),
            );
        }
        map.get(key)
            .cloned()
            .with_context(|| format!("a '{kind}' unit arrived without its context '{key}'"))?
    };
    unit_kind.compute(&held, payload)
}

#[cfg(test)]
mod tests {
    use crate::experiment::grid::Job;

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
