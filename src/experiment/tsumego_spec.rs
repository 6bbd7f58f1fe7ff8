//! The life-and-death sections of an experiment file: `[solve]` (solve a problem set with
//! several weight vectors) and `[tsumego_ga]` (the GoTools report's GA), and how they name
//! weight vectors.
//!
//! A weight vector is `"reference"`, `"zero"`, a weights file (relative to the experiment
//! file), `"trained:EXPERIMENT"` or `"trained:EXPERIMENT/key=value,key=value"` (the best weights
//! of the one `tsumego_ga` job of that experiment whose grid values match; a key may be written
//! as its last dotted part; results of an older problem generator are never read, and among
//! several matches the job trained on the reading job's own library wins), or a table `{ static = ..., dynamic = ... }` taking each part from
//! one of those. Built-ins and files are resolved into numbers when the experiment is expanded,
//! so they are part of the job's hash; `trained:` is resolved when the job runs (the other
//! experiment must have run first), so its job hash names the source, not the numbers. The
//! runner keeps the numbers a job read in its record and runs the job again when they have
//! changed (the other experiment was trained again): see `kind::solve::resolved_inputs`.
//!
//! Where the other experiment's results hold no such finished job (a fresh clone), `trained:`
//! reads the weights its kept report holds (`docs/reports/EXPERIMENT/trained_weights.csv`
//! under the run's `--out`, written by `report::trained_weights`), provided
//! `experiments/EXPERIMENT.toml` there is still the file the report was kept from: the same
//! numbers, so the reading jobs' hashes and rows are the ones a run after the GA gives.

use crate::game::tsumego::fitness::{Formula, REPORT_BONUS};
use crate::game::tsumego::generate::GENERATOR_VERSION;
use crate::game::tsumego::heuristic::{WeightSet, Weights, load_weights};
use crate::game::tsumego::library::{LibrarySpec, Selection, default_budget};
use crate::game::tsumego::solver::{Limits, Search};
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// A weight vector as an experiment names it (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum WeightsRef {
    /// Resolved numbers (what job configs hold for built-ins and files).
    Values(Weights),
    Named(String),
    Parts(WeightParts),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightParts {
    #[serde(rename = "static")]
    pub statics: Box<WeightsRef>,
    pub dynamic: Box<WeightsRef>,
}

fn reference() -> WeightsRef {
    WeightsRef::Named("reference".into())
}

impl WeightsRef {
    /// Built-ins and files become numbers; `trained:` stays a name (its syntax checked).
    pub fn resolve(&self, base_dir: &Path) -> Result<WeightsRef, String> {
        match self {
            WeightsRef::Values(_) => Ok(self.clone()),
            WeightsRef::Named(name) => {
                if let Some(rest) = name.strip_prefix("trained:") {
                    parse_trained(rest)?;
                    return Ok(self.clone());
                }
                let spec = if Weights::builtin(name).is_some() {
                    name.clone()
                } else {
                    base_dir.join(name).to_string_lossy().into_owned()
                };
                load_weights(&spec).map(WeightsRef::Values)
            }
            WeightsRef::Parts(p) => {
                let (s, d) = (p.statics.resolve(base_dir)?, p.dynamic.resolve(base_dir)?);
                match (&s, &d) {
                    (WeightsRef::Values(a), WeightsRef::Values(b)) => {
                        Ok(WeightsRef::Values(Weights {
                            statics: a.statics,
                            dynamics: b.dynamics,
                        }))
                    }
                    _ => Ok(WeightsRef::Parts(WeightParts {
                        statics: Box::new(s),
                        dynamic: Box::new(d),
                    })),
                }
            }
        }
    }

    /// Whether any part is `trained:` (read from another experiment's results when the job runs).
    pub fn reads_results(&self) -> bool {
        match self {
            WeightsRef::Values(_) => false,
            WeightsRef::Named(name) => name.starts_with("trained:"),
            WeightsRef::Parts(p) => p.statics.reads_results() || p.dynamic.reads_results(),
        }
    }

    /// The numbers, reading `trained:` weights from the results under `out` (the run's --out);
    /// `library` is the reading job's library (see `load_trained`).
    pub fn load(&self, out: &Path, library: &LibrarySpec) -> Result<Weights> {
        match self {
            WeightsRef::Values(w) => Ok(w.clone()),
            WeightsRef::Named(name) => match name.strip_prefix("trained:") {
                Some(rest) => load_trained(out, rest, library),
                None => load_weights(name).map_err(|e| anyhow::anyhow!(e)),
            },
            WeightsRef::Parts(p) => {
                let (s, d) = (p.statics.load(out, library)?, p.dynamic.load(out, library)?);
                Ok(Weights {
                    statics: s.statics,
                    dynamics: d.dynamics,
                })
            }
        }
    }
}

/// "EXPERIMENT" or "EXPERIMENT/key=value,key=value".
fn parse_trained(s: &str) -> Result<(String, Vec<(String, String)>), String> {
    let (exp, filter) = s.split_once('/').unwrap_or((s, ""));
    if exp.is_empty() {
        return Err(format!(
            "'trained:{s}' names no experiment (expected trained:EXPERIMENT or trained:EXPERIMENT/key=value,...)"
        ));
    }
    let mut pairs = Vec::new();
    for kv in filter.split(',').filter(|x| !x.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("'{kv}' in 'trained:{s}' is not key=value"))?;
        pairs.push((k.trim().to_string(), v.trim().to_string()));
    }
    Ok((exp.to_string(), pairs))
}

/// The best weights of the matching `tsumego_ga` job of another experiment: its jobs whose
/// swept values match the filter, among those of the experiment file as it was last run (the
/// results folder's list of current jobs; records left by an older version of the file are
/// skipped) and trained on a library of this generator version (results left by an older
/// version are never read); when several match, the one trained on the reading job's own
/// library.
///
/// Where the results hold no such finished job (a fresh clone), the GA's kept report is read
/// instead (`kept_weights::load`); its error is added to the results' one when it cannot be.
fn load_trained(out: &Path, s: &str, library: &LibrarySpec) -> Result<Weights> {
    let from_results = load_trained_from_results(out, s, library);
    if from_results.is_ok() {
        return from_results;
    }
    let (exp, filter) = parse_trained(s).map_err(|e| anyhow::anyhow!(e))?;
    match super::kept_weights::load(out, &exp, &filter) {
        Ok(Some(w)) => Ok(w),
        Ok(None) => from_results,
        Err(kept) => from_results
            .map_err(|e| anyhow::anyhow!("{e:#}; and its kept report cannot stand in: {kept:#}")),
    }
}

fn load_trained_from_results(out: &Path, s: &str, library: &LibrarySpec) -> Result<Weights> {
    let (exp, filter) = parse_trained(s).map_err(|e| anyhow::anyhow!(e))?;
    let dir = crate::experiment::layout::results_dir(out, &exp);
    let jobs_dir = dir.join("jobs");
    let current = crate::experiment::layout::current_jobs(&dir)?;
    let mut matches = Vec::new();
    let mut same_library = Vec::new();
    let mut seen = Vec::new();
    let ours = serde_json::to_value(library)?;
    let entries = std::fs::read_dir(&jobs_dir).with_context(|| {
        format!(
            "trained:{s}: no results in {} (run experiments/{exp}.toml first)",
            jobs_dir.display()
        )
    })?;
    for e in entries.flatten() {
        let text = std::fs::read_to_string(e.path())?;
        let job: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("reading {}", e.path().display()))?;
        let hash = job["hash"].as_str().unwrap_or_default().to_string();
        let swept = job["swept"].as_object().cloned().unwrap_or_default();
        let text_of = |v: &serde_json::Value| {
            v.as_str()
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string())
        };
        let describe: Vec<String> = swept
            .iter()
            .map(|(k, v)| format!("{k}={}", text_of(v)))
            .collect();
        let theirs = &job["config"]["stage"]["library"];
        if theirs["generator"].as_u64() != Some(GENERATOR_VERSION as u64)
            || current.as_ref().is_some_and(|c| !c.contains(&hash))
        {
            continue;
        }
        if super::kept_weights::matches_filter(
            swept.iter().map(|(k, v)| (k.as_str(), text_of(v))),
            &filter,
        ) {
            if *theirs == ours {
                same_library.push(hash.clone());
            }
            matches.push(hash);
        }
        seen.push(describe.join(","));
    }
    seen.sort();
    if matches.len() > 1 && same_library.len() == 1 {
        matches = same_library;
    }
    match matches.as_slice() {
        [hash] => {
            let path = dir.join("tables").join(format!("{hash}.weights"));
            if !path.exists() {
                anyhow::bail!(
                    "trained:{s}: the GA job {hash} has not finished ({} is missing)",
                    path.display()
                );
            }
            let text = crate::durable::read_sealed(&path, "the GA's trained weights")?;
            crate::game::tsumego::heuristic::parse_weights(&text)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
        }
        [] if seen.is_empty() => anyhow::bail!(
            "trained:{s}: {exp} has no results of its current jobs (its file changed since it ran, or it ran on an older problem generator): run experiments/{exp}.toml again"
        ),
        [] => anyhow::bail!(
            "trained:{s}: no job of {exp} matches (its jobs: {})",
            seen.join("; ")
        ),
        _ => anyhow::bail!(
            "trained:{s}: {} jobs of {exp} match; add key=value to pick one (its jobs: {})",
            matches.len(),
            seen.join("; ")
        ),
    }
}

/// The `[solve]` section: every weight vector solves every selected problem.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveSpec {
    pub problems: Selection,
    /// Label -> weights; rows carry the label in column `weights`.
    pub weights: BTreeMap<String, WeightsRef>,
    /// Nodes per problem; past it the status is `?` (the row says `budget_hit`).
    #[serde(default = "default_budget")]
    pub node_budget: u64,
    /// The search: `dfpn` (the default) or `alphabeta`, the plain depth-first search.
    #[serde(default, skip_serializing_if = "Search::is_dfpn")]
    pub search: Search,
}

impl SolveSpec {
    /// The limits of every solve of the job.
    pub fn limits(&self) -> Limits {
        Limits::with_budget(self.node_budget).searching(self.search)
    }
}

/// Which fitness the GA uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FitnessKind {
    /// Rank bonus of the winning move in the heuristic's ordering (no search).
    Static,
    /// Leaves of solving the training set, combined by `formula`.
    Dynamic,
}

/// The `[tsumego_ga]` section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TsumegoGaSpec {
    /// The subset the chromosome holds: "static" or "dynamic".
    pub part: WeightSet,
    pub fitness: FitnessKind,
    /// Dynamic fitness: the report's formula 1-4 (3, sum of -leaves, is the report's choice).
    #[serde(default = "formula_3")]
    pub formula: Formula,
    /// Static fitness: bonus for the winning move at places 1, 2, ...
    #[serde(default = "report_bonus")]
    pub bonus: Vec<f64>,
    /// The weights a chromosome is written into (the other part stays), and the "old" weights
    /// of formulas 1 and 2.
    #[serde(default = "reference")]
    pub base: WeightsRef,
    pub population: usize,
    pub children: usize,
    pub generations: u32,
    #[serde(default = "crossover_rate")]
    pub crossover: f64,
    #[serde(default = "mutation_rate")]
    pub mutation: f64,
    /// Gene range (default: the report's, [0, 1000] static and [0, 10000] dynamic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<[f64; 2]>,
    pub train: Selection,
    /// Solved after training with the best weights (label `trained`) and each of `compare`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<Selection>,
    #[serde(default)]
    pub compare: BTreeMap<String, WeightsRef>,
    #[serde(default = "default_budget")]
    pub node_budget: u64,
    /// The search of every solve, training and test: `dfpn` (the default) or `alphabeta`, the
    /// plain depth-first search (the report's GoTools searches depth first, where the move
    /// order, and so the weights, decides the tree's size; df-pn forgives a poor order).
    #[serde(default, skip_serializing_if = "Search::is_dfpn")]
    pub search: Search,
    /// Seconds between checkpoints.
    #[serde(default = "checkpoint_s")]
    pub checkpoint_s: f64,
}

fn formula_3() -> Formula {
    Formula::MinusNew
}
fn report_bonus() -> Vec<f64> {
    REPORT_BONUS.to_vec()
}
fn crossover_rate() -> f64 {
    0.065
}
fn mutation_rate() -> f64 {
    0.5
}
fn checkpoint_s() -> f64 {
    30.0
}

impl TsumegoGaSpec {
    /// The limits of every solve of the job, training and test.
    pub fn limits(&self) -> Limits {
        Limits::with_budget(self.node_budget).searching(self.search)
    }

    pub fn config(&self) -> crate::tune::ga::PlusConfig {
        let bounds = self
            .bounds
            .map(|[a, b]| (a, b))
            .unwrap_or(self.part.bounds());
        crate::tune::ga::PlusConfig {
            population: self.population,
            children: self.children,
            crossover: self.crossover,
            mutation: self.mutation,
            bounds,
            integer: true,
        }
    }

    /// What is wrong with the section, if anything (`key`, message).
    pub fn check(&self, library: &LibrarySpec) -> Result<(), (&'static str, String)> {
        self.config().check().map_err(|e| ("tsumego_ga", e))?;
        if self.generations == 0 {
            return Err(("tsumego_ga.generations", "must be at least 1".into()));
        }
        if self.fitness == FitnessKind::Static
            && (self.bonus.is_empty() || self.bonus.iter().any(|b| !b.is_finite()))
        {
            return Err((
                "tsumego_ga.bonus",
                "give the bonus of places 1, 2, ... as numbers".into(),
            ));
        }
        self.train
            .check(library)
            .map_err(|e| ("tsumego_ga.train", e))?;
        if let Some(t) = &self.test {
            t.check(library).map_err(|e| ("tsumego_ga.test", e))?;
        }
        if self.compare.contains_key("trained") {
            return Err((
                "tsumego_ga.compare",
                "the label 'trained' is the GA's own result; name the others differently".into(),
            ));
        }
        if !self.compare.is_empty() && self.test.is_none() {
            return Err((
                "tsumego_ga.compare",
                "baselines are solved on the test set: give [tsumego_ga.test]".into(),
            ));
        }
        if self.node_budget == 0 || !(self.checkpoint_s > 0.0) {
            return Err((
                "tsumego_ga",
                "node_budget and checkpoint_s must be positive".into(),
            ));
        }
        Ok(())
    }
}

impl SolveSpec {
    pub fn check(&self, library: &LibrarySpec) -> Result<(), (&'static str, String)> {
        self.problems
            .check(library)
            .map_err(|e| ("solve.problems", e))?;
        if self.weights.is_empty() {
            return Err((
                "solve.weights",
                "name at least one weight vector, e.g. reference = \"reference\"".into(),
            ));
        }
        if self.node_budget == 0 {
            return Err(("solve.node_budget", "must be at least 1".into()));
        }
        Ok(())
    }
}
