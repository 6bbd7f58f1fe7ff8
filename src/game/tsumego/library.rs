//! Problem libraries as experiments use them: the `[library]` settings that generate one (the
//! generator's `sets`, `levels`, `per_level`, `seed`, node budget), where it lives, generating
//! it once on first use, and selecting training and test sets from it.
//!
//! A library is generated into `<out>/results/libraries/<name>-<digest>/` (the digest covers the
//! settings, so changing them never reuses stale files); `library.json`, written last, marks it
//! complete. Experiments that name the same settings share one library.
//!
//! A selection (`{ sets = [1], levels = "3-6", count = 128 }`) takes problems round-robin over
//! its files (problem 1 of every level of every set, then problem 2, ...), so a smaller count is
//! a prefix of a larger one and every level is equally represented; `unique = true` keeps only
//! problems with a unique winning move (the report's static fitness needs one).

use super::problem::{Problem, parse_problems};
use super::solver::Limits;
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// Parses "A-B" (or "A") into a range of levels 1..=14.
pub fn parse_levels(s: &str) -> Result<RangeInclusive<u8>, String> {
    let bad = || format!("levels '{s}' must be A-B with 1 <= A <= B <= 14, e.g. \"3-6\"");
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (
            a.trim().parse::<u8>().map_err(|_| bad())?,
            b.trim().parse::<u8>().map_err(|_| bad())?,
        ),
        None => {
            let a = s.trim().parse::<u8>().map_err(|_| bad())?;
            (a, a)
        }
    };
    if !(1 <= a && a <= b && b <= 14) {
        return Err(bad());
    }
    Ok(a..=b)
}

/// The `[library]` section: how the experiment's problem library is generated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibrarySpec {
    /// Sets lv1-* .. lv<sets>-*.
    pub sets: u8,
    /// Levels "A-B".
    pub levels: String,
    pub per_level: usize,
    pub seed: u64,
    /// Nodes the generator may spend on a drawn position (more: the draw is rejected).
    #[serde(default = "default_budget")]
    pub node_budget: u64,
    /// The generator's version (not settable in a file): a library made by another version
    /// lives in another folder, and the jobs reading it have other hashes. Read back only as
    /// this version (a job sent to a worker of a distributed run carries it).
    #[serde(default = "generator_version", deserialize_with = "this_generator")]
    pub generator: u32,
}

fn generator_version() -> u32 {
    super::generate::GENERATOR_VERSION
}

fn this_generator<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let v = u32::deserialize(d)?;
    if v != generator_version() {
        return Err(serde::de::Error::custom(format!(
            "generator {v}: the library generator is version {}, and the version is not a setting",
            generator_version()
        )));
    }
    Ok(v)
}

pub fn default_budget() -> u64 {
    Limits::default().node_budget
}

impl LibrarySpec {
    pub fn check(&self) -> Result<(), String> {
        parse_levels(&self.levels)?;
        if self.sets == 0 || self.per_level == 0 {
            return Err("sets and per_level must be at least 1".into());
        }
        if self.node_budget == 0 {
            return Err("node_budget must be at least 1".into());
        }
        Ok(())
    }

    pub fn level_range(&self) -> RangeInclusive<u8> {
        parse_levels(&self.levels).expect("checked")
    }

    /// The library's folder under `out` (the results folder).
    pub fn dir(&self, out: &Path, name: &str) -> PathBuf {
        let json = serde_json::to_string(self).expect("serialises");
        out.join("results").join("libraries").join(format!(
            "{name}-{:08x}",
            xxhash_rust::xxh3::xxh3_64(json.as_bytes()) as u32
        ))
    }

    /// The library's folder, generated first if it is not complete yet.
    pub fn ensure(&self, out: &Path, name: &str, threads: Option<usize>) -> Result<PathBuf> {
        let dir = self.dir(out, name);
        let marker = dir.join("library.json");
        if marker.exists() {
            return Ok(dir);
        }
        eprintln!(
            "generating problem library {} ({} sets, levels {}, {} per level, seed {})",
            dir.display(),
            self.sets,
            self.levels,
            self.per_level,
            self.seed
        );
        let limits = Limits::with_budget(self.node_budget);
        let files = super::generate::generate_library(
            self.sets,
            self.level_range(),
            self.per_level,
            self.seed,
            &dir,
            limits,
            threads,
        )?;
        let table = super::generate::calibration_table(&files);
        crate::durable::write_atomic(&dir.join("calibration.md"), |w| {
            use std::io::Write;
            writeln!(
                w,
                "# Calibration: seed {}, node budget {}\n\n{table}",
                self.seed, self.node_budget
            )?;
            Ok(())
        })?;
        crate::durable::write_atomic(&marker, |w| Ok(serde_json::to_writer_pretty(w, self)?))?;
        Ok(dir)
    }
}

/// A training or test set: problems of some sets and levels of the library.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selection {
    pub sets: Vec<u8>,
    pub levels: String,
    /// At most this many problems (all of them when left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// Only problems with a unique winning first move.
    #[serde(default)]
    pub unique: bool,
}

impl Selection {
    /// What is wrong with the selection for a library, if anything.
    pub fn check(&self, library: &LibrarySpec) -> Result<(), String> {
        let levels = parse_levels(&self.levels)?;
        let have = library.level_range();
        if levels.start() < have.start() || levels.end() > have.end() {
            return Err(format!(
                "levels {} are outside the library's levels {}",
                self.levels, library.levels
            ));
        }
        if self.sets.is_empty() || self.sets.iter().any(|&s| s == 0 || s > library.sets) {
            return Err(format!(
                "sets {:?} must be among the library's sets 1..={}",
                self.sets, library.sets
            ));
        }
        if self.count == Some(0) {
            return Err("count must be at least 1".into());
        }
        Ok(())
    }

    /// The selected problems from the library in `dir`, round-robin over its files.
    pub fn load(&self, dir: &Path) -> Result<Vec<Problem>> {
        let levels = parse_levels(&self.levels).map_err(|e| anyhow::anyhow!(e))?;
        let mut files: Vec<Vec<Problem>> = Vec::new();
        for &set in &self.sets {
            for level in levels.clone() {
                let path = dir.join(format!("lv{set}-{level}"));
                let text = crate::durable::read_sealed(&path, "the problem library file")?;
                let problems = parse_problems(&text).map_err(|e| {
                    anyhow::anyhow!("{}:{}:1: {}", path.display(), e.line, e.message)
                })?;
                files.push(
                    problems
                        .into_iter()
                        .filter(|p| !self.unique || p.unique.is_some())
                        .collect(),
                );
            }
        }
        let limit = self.count.unwrap_or(usize::MAX);
        let longest = files.iter().map(Vec::len).max().unwrap_or(0);
        let mut out = Vec::new();
        'fill: for k in 0..longest {
            for f in &files {
                if out.len() >= limit {
                    break 'fill;
                }
                if let Some(p) = f.get(k) {
                    out.push(p.clone());
                }
            }
        }
        if let Some(n) = self.count {
            anyhow::ensure!(
                out.len() == n,
                "the library {} holds only {} problems for sets {:?}, levels {}{} (asked for {n}): generate it with a larger per_level",
                dir.display(),
                out.len(),
                self.sets,
                self.levels,
                if self.unique {
                    " with a unique winning move"
                } else {
                    ""
                }
            );
        }
        Ok(out)
    }
}

/// The difficulty band of a level, as the report's test sets split them: easy (levels 1-6),
/// medium (7-10), hard (11-14).
pub fn band(level: u8) -> &'static str {
    match level {
        0..=6 => "easy",
        7..=10 => "medium",
        _ => "hard",
    }
}
