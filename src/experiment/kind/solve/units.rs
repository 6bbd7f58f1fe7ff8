//! A life-and-death job's units for a distributed run (`experiment::remote`): a set of solves
//! (`SolveWork::solve` on units of its problems) and a life-and-death GA's evaluations
//! (`evaluate_here` on chromosomes), their contexts as sent to a worker and held there.

use super::{SolveWork, evaluate_here};
use crate::experiment::grid::Job;
use crate::experiment::remote::{self, Held, UnitKind};
use crate::game::tsumego::Problem;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

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
pub(super) fn solves_context(
    key: String,
    library: &std::path::Path,
    problems: &crate::game::tsumego::library::Selection,
    work: &SolveWork,
) -> Result<std::sync::Arc<crate::farm::Context>> {
    remote::context(
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
pub(super) fn tsumego_ga_context(
    job: &Job,
    library: &std::path::Path,
    base: &crate::game::tsumego::heuristic::Weights,
    old_leaves: &[u64],
) -> Result<std::sync::Arc<crate::farm::Context>> {
    remote::context(
        format!("{TSUMEGO_GA}/{}", job.hash),
        &TsumegoGaContext {
            job: job.clone(),
            library: library.to_path_buf(),
            base: base.clone(),
            old_leaves: old_leaves.to_vec(),
        },
    )
}

/// The name of a set of solves' units on the wire.
pub(super) const SOLVES: &str = "solves";
/// The name of a life-and-death GA's evaluation units on the wire.
pub(super) const TSUMEGO_GA: &str = "tsumego-ga";

/// Solve units: units i..j of a set of solves (`SolveWork::solve`), their rows.
pub struct SolvesUnit;

impl UnitKind for SolvesUnit {
    fn name(&self) -> &'static str {
        SOLVES
    }
    fn hold(&self, bytes: &[u8]) -> Result<Held> {
        let c: SolvesContext = serde_json::from_slice(bytes)?;
        let problems = c.problems.load(&c.library)?;
        Ok(Box::new(SolveWork {
            problems,
            weights: c.weights,
            limits: c.limits,
            reuse: c.reuse,
            store: c.store,
        }))
    }
    fn compute(&self, held: &Held, payload: &[u8]) -> Result<Vec<u8>> {
        let work: &SolveWork = remote::held(held)?;
        Ok(serde_json::to_vec(
            &work.solve(serde_json::from_slice(payload)?, &|| {}),
        )?)
    }
}

/// A life-and-death GA's evaluation units: chromosomes, each one's (fitness, training leaves)
/// (`evaluate_here`).
pub struct TsumegoGaUnit;

impl UnitKind for TsumegoGaUnit {
    fn name(&self) -> &'static str {
        TSUMEGO_GA
    }
    fn hold(&self, bytes: &[u8]) -> Result<Held> {
        let c: TsumegoGaContext = serde_json::from_slice(bytes)?;
        let spec = c
            .job
            .config
            .tsumego_ga
            .as_ref()
            .context("a tsumego_ga job has a [tsumego_ga] section")?;
        let train = spec.train.load(&c.library)?;
        Ok(Box::new((c, train)))
    }
    fn compute(&self, held: &Held, payload: &[u8]) -> Result<Vec<u8>> {
        let (c, train): &(TsumegoGaContext, Vec<Problem>) = remote::held(held)?;
        let genes: Vec<Vec<f64>> = serde_json::from_slice(payload)?;
        Ok(serde_json::to_vec(&evaluate_here(
            &c.job,
            &c.base,
            train,
            &c.old_leaves,
            &genes,
        )?)?)
    }
}
