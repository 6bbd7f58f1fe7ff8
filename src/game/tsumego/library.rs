//! Problem libraries as experiments use them: the `[library]` settings that generate one (the
//! generator's `sets`, `levels`, `per_level`, `seed`, node budget), where it lives, generating
//! it once on first use, and selecting training and test sets from it.
//!
//! A library is either generated (`source = "generated"`, the default: what CI and the quick
//! experiments use) or read from GoTools' own problem files (`source = "gotools"`: set A of the
//! library is GoTools' volume A, so `{ sets = [3], levels = "6" }` is GoTools' file lv3.6, the
//! report's "lv3-6"). GoTools' files are copyrighted and never part of the repository: the
//! folder comes from `folder = "DIR"` (relative to the experiment file) or `$GOTOOLS_PROBLEMS`,
//! and without one the experiment fails at once saying how to get them. Each of GoTools'
//! questions (a problem with a side to move first) is one problem of the library, with GoTools'
//! status and winning first moves, the first `per_level` of each file in the file's order. The
//! folder's path is not part of the settings' digest (another machine keeps the files
//! elsewhere); a digest of the files read is (`files`), so other files never reuse a library.
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

/// Parses a selection's levels: "A-B", "A", or a comma list of those ("6,10,14"), into the
/// levels in the order written (each once).
pub fn parse_level_list(s: &str) -> Result<Vec<u8>, String> {
    let mut out: Vec<u8> = Vec::new();
    for part in s.split(',') {
        for l in parse_levels(part).map_err(|_| {
            format!(
                "levels '{s}' must be A-B, A, or a list such as \"6,10,14\" (1 <= A <= B <= 14)"
            )
        })? {
            if !out.contains(&l) {
                out.push(l);
            }
        }
    }
    Ok(out)
}

/// The most problems a level of a library may have (GoTools' largest file has a few hundred):
/// each one is generated, solved and kept in memory.
pub const MAX_PER_LEVEL: usize = 100_000;

/// The `[library]` section: how the experiment's problem library is generated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibrarySpec {
    /// Sets lv1-* .. lv<sets>-* (GoTools' files: volumes 1..=sets).
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
    /// Where the problems come from: generated (the default) or GoTools' files.
    #[serde(default, skip_serializing_if = "LibrarySource::is_generated")]
    pub source: LibrarySource,
    /// GoTools' files: their folder as the file names it (relative to the experiment file);
    /// without it, `$GOTOOLS_PROBLEMS`. Not part of the digest (see the module docs).
    #[serde(default, skip_serializing)]
    pub folder: Local<String>,
    /// GoTools' files: where they were found (`locate`), and a digest of the files the library
    /// reads (not settings: set when the experiment is expanded; the digest is part of the
    /// settings' digest and the job hashes).
    #[serde(skip)]
    pub gotools_dir: Local<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<String>,
}

/// A value of this machine, not a setting: never serialised, and equal to any other (a job
/// sent to a worker comes back equal without it).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct Local<T>(pub Option<T>);

impl<T> PartialEq for Local<T> {
    fn eq(&self, _: &Local<T>) -> bool {
        true
    }
}

/// Where a library's problems come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LibrarySource {
    /// Drawn and solved by `generate` (the default).
    #[default]
    Generated,
    /// GoTools' own problem files (`lvA.B`), from a folder outside the repository.
    Gotools,
}

impl LibrarySource {
    fn is_generated(&self) -> bool {
        *self == LibrarySource::Generated
    }
}

/// GoTools' volumes (the sets of a GoTools library).
pub const GOTOOLS_VOLUMES: u8 = 6;

/// How to get GoTools' files, for the errors that need them.
pub const GOTOOLS_HOWTO: &str = "GoTools' problem files (lv1.1 .. lv6.14, copyrighted, never part of gamelab) are in the public repository github.com/cameron-martin/tsumego-solver, folder benches/gotools/puzzles: `git clone --depth 1 https://github.com/cameron-martin/tsumego-solver /some/where` and set GOTOOLS_PROBLEMS=/some/where/benches/gotools/puzzles (or folder = \"DIR\" in [library])";

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
    /// A generated library's settings (the default node budget, this generator).
    pub fn generated(sets: u8, levels: &str, per_level: usize, seed: u64) -> LibrarySpec {
        LibrarySpec {
            sets,
            levels: levels.into(),
            per_level,
            seed,
            node_budget: default_budget(),
            generator: generator_version(),
            source: LibrarySource::Generated,
            folder: Local(None),
            gotools_dir: Local(None),
            files: None,
        }
    }

    pub fn check(&self) -> Result<(), String> {
        parse_levels(&self.levels)?;
        if self.sets == 0 || self.per_level == 0 {
            return Err("sets and per_level must be at least 1".into());
        }
        if self.per_level > MAX_PER_LEVEL {
            return Err(format!(
                "per_level = {} is past the largest, {MAX_PER_LEVEL} problems a level",
                self.per_level
            ));
        }
        if self.source == LibrarySource::Gotools && self.sets > GOTOOLS_VOLUMES {
            return Err(format!(
                "sets = {}: GoTools' library has volumes 1..={GOTOOLS_VOLUMES} (set A is volume A)",
                self.sets
            ));
        }
        if self.source == LibrarySource::Generated && self.folder.0.is_some() {
            return Err("folder names GoTools' files: it goes with source = \"gotools\"".into());
        }
        if self.node_budget == 0 {
            return Err("node_budget must be at least 1".into());
        }
        Ok(())
    }

    /// GoTools' files: finds their folder (`folder`, relative to `base_dir`, else
    /// `$GOTOOLS_PROBLEMS`), checks that every file the library reads is there, and sets
    /// `gotools_dir` and the files' digest. Generated libraries: nothing to do.
    pub fn locate(&mut self, base_dir: &Path) -> Result<(), (&'static str, String)> {
        if self.source != LibrarySource::Gotools {
            return Ok(());
        }
        let dir = match (&self.folder.0, std::env::var_os("GOTOOLS_PROBLEMS")) {
            (Some(f), _) => base_dir.join(f),
            (None, Some(v)) if !v.is_empty() => PathBuf::from(v),
            _ => {
                return Err((
                    "library.source",
                    format!(
                        "source = \"gotools\" needs GoTools' files and none were given. {GOTOOLS_HOWTO}"
                    ),
                ));
            }
        };
        let key = if self.folder.0.is_some() {
            "library.folder"
        } else {
            "library.source"
        };
        if !dir.is_dir() {
            return Err((
                key,
                format!(
                    "{} (GoTools' files) is not a folder. {GOTOOLS_HOWTO}",
                    dir.display()
                ),
            ));
        }
        let (digest, _) = self.gotools_files(&dir).map_err(|(set, level, e)| {
            (
                key,
                format!("{e}: the library reads GoTools' file lv{set}.{level}. {GOTOOLS_HOWTO}"),
            )
        })?;
        self.files = Some(digest);
        self.gotools_dir = Local(Some(dir));
        Ok(())
    }

    /// The texts of GoTools' files this library reads from `dir` (set, level, path, text), in
    /// set and level order, with their digest; or the file that cannot be read and why.
    #[allow(clippy::type_complexity)]
    fn gotools_files(
        &self,
        dir: &Path,
    ) -> Result<(String, Vec<(u8, u8, PathBuf, String)>), (u8, u8, String)> {
        let mut digest = xxhash_rust::xxh3::Xxh3::new();
        let mut files = Vec::new();
        for set in 1..=self.sets {
            for level in self.level_range() {
                let path = dir.join(format!("lv{set}.{level}"));
                let text = crate::durable::read_input(&path).map_err(|e| (set, level, e))?;
                digest.update(format!("lv{set}.{level}\n").as_bytes());
                digest.update(text.as_bytes());
                files.push((set, level, path, text));
            }
        }
        Ok((format!("{:016x}", digest.digest()), files))
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
        if self.source == LibrarySource::Gotools {
            self.read_gotools(&dir)?;
            crate::durable::write_atomic(&marker, |w| {
                Ok(std::io::Write::write_all(
                    w,
                    &serde_json::to_vec_pretty(self)?,
                )?)
            })?;
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
        crate::durable::write_atomic(&marker, |w| {
            Ok(std::io::Write::write_all(
                w,
                &serde_json::to_vec_pretty(self)?,
            )?)
        })?;
        Ok(dir)
    }
}

impl LibrarySpec {
    /// Writes the library's files from GoTools' files: `lv<set>-<level>` holds the first
    /// `per_level` questions of GoTools' lv<set>.<level>, each with GoTools' status and winning
    /// first moves and its level. The files must be those the experiment was expanded with.
    fn read_gotools(&self, dir: &Path) -> Result<()> {
        use super::gotools::parse_gotools;
        let from = self.gotools_dir.0.as_ref().ok_or_else(|| {
            anyhow::anyhow!("the GoTools library has no folder of GoTools' files. {GOTOOLS_HOWTO}")
        })?;
        let (digest, texts) = self
            .gotools_files(from)
            .map_err(|(_, _, e)| anyhow::anyhow!(e))?;
        let mut files = Vec::new();
        for (set, level, path, text) in texts {
            let questions = parse_gotools(&text)
                .map_err(|e| anyhow::anyhow!("{}:{}:1: {}", path.display(), e.line, e.message))?;
            let problems: Vec<Problem> = questions
                .into_iter()
                .take(self.per_level)
                .map(|q| {
                    let mut p = q.problem;
                    p.level = Some(level);
                    p
                })
                .collect();
            files.push((set, level, problems));
        }
        anyhow::ensure!(
            self.files.as_deref() == Some(digest.as_str()),
            "GoTools' files in {} changed since the experiment was read: run it again",
            from.display()
        );
        std::fs::create_dir_all(dir)?;
        for (set, level, problems) in files {
            let header = format!(
                "GoTools' lv{set}.{level} (volume {set}, level {level}): the first {} questions, status and winning first moves GoTools' own; read from {} for this machine's runs only (copyrighted: never commit or share this folder)",
                problems.len(),
                from.display()
            );
            let text = crate::durable::sealed(&super::generate::problems_text(&header, &problems));
            crate::durable::write_atomic(&dir.join(format!("lv{set}-{level}")), |w| {
                use std::io::Write;
                w.write_all(text.as_bytes())?;
                Ok(())
            })?;
        }
        Ok(())
    }
}

/// A training or test set: problems of some sets and levels of the library.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selection {
    pub sets: Vec<u8>,
    /// "A-B", "A", or a list such as "6,10,14" (files taken in the order written).
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
        let levels = parse_level_list(&self.levels)?;
        let have = library.level_range();
        if levels.iter().any(|l| !have.contains(l)) {
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
        let levels = parse_level_list(&self.levels).map_err(|e| anyhow::anyhow!(e))?;
        let mut files: Vec<Vec<Problem>> = Vec::new();
        for &set in &self.sets {
            for &level in &levels {
                let path = dir.join(format!("lv{set}-{level}"));
                let text = crate::durable::read_sealed(&path, "the problem library file")?;
                let problems = parse_problems(&text).map_err(|e| {
                    anyhow::anyhow!("{}:{}:1: {}", path.display(), e.line, e.message)
                })?;
                files.push(
                    problems
                        .into_iter()
                        .filter(|p| !self.unique || p.unique.is_some())
                        .map(|p| Problem {
                            set: Some(set),
                            ..p
                        })
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
