//! Expansion of an experiment into jobs: the `[grid]` axes x `repeats`, each job's canonical
//! resolved config, its hash and its seed.
//!
//! The job hash is a hash of the job's fully resolved config (stage written out, tables
//! replaced by their numbers, participants listed, repeat and experiment seed included), as
//! canonical JSON: struct fields in declaration order and maps sorted by key; the game count is
//! left out (`identity_hash`), so a sweep grows by playing only its new games. The seed is
//! derived from (experiment seed, job hash, repeat), never from a position in a queue, so the
//! same file and seed give the same jobs and rows however they are scheduled or sharded.

mod point;
pub use point::opening_error;
use point::*;

use super::error::InputError;
use super::openings::{OpeningError, Openings, SpecError};
use super::spec::{
    Experiment, ExperimentFile, GaSpec, GameName, JobKind, MatchSpec, SolveSpec, Stage,
    TournamentSpec, TsumegoGaSpec, TuneSpec,
};
use crate::agent::{AgentSpec, Arena};
use crate::game::colosseum::Colosseum;
use crate::game::freckers::Freckers;
use crate::game::openspiel::{OpenSpiel, OpenSpielStage};
use crate::game::othello::Othello;
use crate::rng::derive_seed;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// Everything that determines a job's rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobConfig {
    /// The file's `name`, when it gives one. A file without one is named after the file (its
    /// folder and rows' `experiment` column say so), but its jobs' identity leaves the file
    /// name out: renaming the file keeps every job's hash and seed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub experiment: String,
    pub kind: JobKind,
    pub game: GameName,
    pub stage: Stage,
    pub seed: u64,
    pub repeat: u32,
    /// The agents that play, by label, with tables resolved.
    pub agents: BTreeMap<String, AgentSpec>,
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub match_: Option<MatchSpec>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentSpec>,
    /// Matches and tournaments: the openings' lines or random plies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<Openings>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ga: Option<GaSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tune: Option<TuneSpec>,
    /// Life-and-death jobs, with weight vectors resolved (see `tsumego_spec`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solve: Option<SolveSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tsumego_ga: Option<TsumegoGaSpec>,
    /// A kind registered from outside gamelab: the file's `[settings]`, which the kind reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<toml::Table>,
}

impl JobConfig {
    /// The config of a grid point of `file` on `stage` (repeat 0) without agents or sections:
    /// each job kind fills in its own.
    fn bare(file: &ExperimentFile, stage: Stage) -> JobConfig {
        JobConfig {
            experiment: file.name.clone().unwrap_or_default(),
            kind: file.kind,
            game: file.game,
            stage,
            seed: file.seed,
            repeat: 0,
            agents: BTreeMap::new(),
            match_: None,
            tournament: None,
            openings: None,
            ga: None,
            tune: None,
            solve: None,
            tsumego_ga: None,
            settings: None,
        }
    }
}

/// One unit of work: a grid point and a repeat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub hash: String,
    pub seed: u64,
    /// The grid values of this job, in grid-key order.
    pub swept: Vec<(String, toml::Value)>,
    pub config: JobConfig,
}

impl Job {
    pub fn hash_u64(&self) -> u64 {
        u64::from_str_radix(&self.hash, 16).expect("job hashes are 16 hex digits")
    }

    /// The seed of its games' starts (a random setup, OpenSpiel's chance, random opening
    /// plies, the order of a suite's lines), from (experiment seed, repeat) only: every grid
    /// point of a file meets the same starts pair by pair, so pair k is one block of a paired
    /// comparison between points (`race`), and differences between points are not differences
    /// between their boards.
    pub fn start_seed(&self) -> u64 {
        /// Keeps start seeds apart from job seeds.
        const STARTS: u64 = 0x57a27;
        derive_seed(self.config.seed, &[STARTS, self.config.repeat as u64])
    }

    /// What a report was made from, for telling a stale report (`jobs.json`): the hash, and for
    /// matches and tournaments the game count after a `/` (the count is not in the hash, but a
    /// report of 200 games is not one of 300).
    pub fn report_key(&self) -> String {
        match self.config.kind {
            super::spec::JobKind::Match | super::spec::JobKind::Tournament => {
                format!("{}/{}", self.hash, self.game_count())
            }
            _ => self.hash.clone(),
        }
    }

    /// How many games this job plays (0 for a GA job, which plays the games of its evaluations).
    pub fn game_count(&self) -> usize {
        match (&self.config.match_, &self.config.tournament) {
            (Some(m), _) => m.games as usize,
            (None, Some(t)) => {
                let n = t
                    .participants
                    .as_ref()
                    .expect("participants are resolved")
                    .len();
                t.rounds as usize * n * n.saturating_sub(1)
            }
            (None, None) => 0,
        }
    }

    /// Game `i` of this job (`i < game_count()`), computed on its own: `pairings()[i]` without
    /// the list, so a job of millions of games holds none of them.
    pub fn pairing(&self, i: usize) -> Pairing {
        match (&self.config.match_, &self.config.tournament) {
            (Some(m), _) => {
                let g = i as u32;
                let k = (g % 2) as usize;
                // Games 2k and 2k+1 swap colours. An odd last game is still in its pair (whose
                // partner is not played): a game's row never depends on the game count, so a
                // match grown from 5 games to 6 keeps its first 5.
                Pairing {
                    first: m.players[k].clone(),
                    second: m.players[1 - k].clone(),
                    pair: Some(g / 2),
                }
            }
            (None, Some(t)) => {
                let p = t.participants.as_ref().expect("participants are resolved");
                let n = p.len();
                let (round, a, b) = tournament_game(i, n);
                let pair = (round * n * n + a.min(b) * n + a.max(b)) as u32;
                Pairing {
                    first: p[a].clone(),
                    second: p[b].clone(),
                    pair: Some(pair),
                }
            }
            (None, None) => panic!("a GA job has no fixed games"),
        }
    }

    /// The opening slot of game `i`: colour-swapped partners share one, numbered in the order
    /// pairs first appear (`slots` over `pairings()`, computed on its own).
    pub fn opening_slot(&self, i: usize) -> u64 {
        match (&self.config.match_, &self.config.tournament) {
            (Some(_), _) => (i / 2) as u64,
            (None, Some(t)) => {
                let n = t
                    .participants
                    .as_ref()
                    .expect("participants are resolved")
                    .len();
                let (round, a, b) = tournament_game(i, n);
                let (lo, hi) = (a.min(b), a.max(b));
                // Unordered pairs first appear as (lo, hi), lo < hi, in lexicographic order.
                let rank = lo * (n - 1) - lo * lo.saturating_sub(1) / 2 + (hi - lo - 1);
                (round * n * (n - 1) / 2 + rank) as u64
            }
            (None, None) => panic!("a GA job has no fixed games"),
        }
    }

    /// The games of this job in game-index order, written out as a list: the reference the
    /// one-at-a-time `pairing` and `opening_slot` are tested against.
    #[cfg(test)]
    pub fn pairings(&self) -> Vec<Pairing> {
        let game = |first: &String, second: &String, pair: Option<u32>| Pairing {
            first: first.clone(),
            second: second.clone(),
            pair,
        };
        match (&self.config.match_, &self.config.tournament) {
            (Some(m), _) => (0..m.games)
                .map(|g| {
                    let i = (g % 2) as usize;
                    // Games 2k and 2k+1 swap colours (an odd last game's partner is not played).
                    game(&m.players[i], &m.players[1 - i], Some(g / 2))
                })
                .collect(),
            (None, Some(t)) => {
                let p = t.participants.as_ref().expect("participants are resolved");
                let n = p.len() as u32;
                let mut games = Vec::new();
                for round in 0..t.rounds {
                    for (i, a) in p.iter().enumerate() {
                        for (j, b) in p.iter().enumerate() {
                            if i != j {
                                // (a, b) and (b, a) of one round swap colours.
                                let pair = round * n * n + (i.min(j) as u32) * n + i.max(j) as u32;
                                games.push(game(a, b, Some(pair)));
                            }
                        }
                    }
                }
                games
            }
            // A GA job plays the games of its evaluations, not a fixed list.
            (None, None) => Vec::new(),
        }
    }
}

/// Game `i` of a tournament of `n` participants as (round, first seat, second seat): each
/// round plays the ordered pairs (a, b), a != b, a-major, so row a holds n - 1 games.
fn tournament_game(i: usize, n: usize) -> (usize, usize, usize) {
    let per_round = n * (n - 1);
    let (round, k) = (i / per_round, i % per_round);
    let (a, j) = (k / (n - 1), k % (n - 1));
    (round, a, if j >= a { j + 1 } else { j })
}

/// The slot of each game of `pairings`: colour-swapped pairs numbered in order of their first
/// game, a game without a partner a slot of its own.
#[cfg(test)]
pub fn slots(pairings: &[Pairing]) -> Vec<u64> {
    let mut seen = std::collections::HashMap::new();
    let mut next = 0u64;
    pairings
        .iter()
        .map(|p| {
            let mut fresh = || {
                next += 1;
                next - 1
            };
            match p.pair {
                Some(pair) => *seen.entry(pair).or_insert_with(fresh),
                None => fresh(),
            }
        })
        .collect()
}

/// One game of a job: who moves first and second, and the colour-swapped pair it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub first: String,
    pub second: String,
    pub pair: Option<u32>,
}

/// Keys that cannot be grid axes: they do not describe a job.
const UNSWEEPABLE: [&str; 7] = [
    "grid",
    "zip",
    "report",
    "race",
    "name",
    "description",
    "repeats",
];

/// The agents a game-playing grid point plays, as its job kind says
/// (`KindRunner::point_agents`).
#[derive(Debug, Default)]
pub struct PointAgents {
    /// Labels of `[agents.*]` the point plays, in order, each with the key an unknown label's
    /// error names (`match.players`).
    pub labels: Vec<(String, &'static str)>,
    /// Agents of the kind's own sections, each at its key (a GA's `arena.agents.LABEL`): built
    /// and checked on the point's start as the file's agents are, not among the job's agents.
    pub checked: Vec<(String, AgentSpec)>,
}

impl PointAgents {
    /// The agents `labels`, each named at `key` when unknown.
    pub fn named(labels: &[String], key: &'static str) -> PointAgents {
        PointAgents {
            labels: labels.iter().map(|l| (l.clone(), key)).collect(),
            checked: Vec::new(),
        }
    }

    /// Every agent of the file: what a kind with no sections of its own plays.
    pub fn every_agent(file: &ExperimentFile) -> PointAgents {
        let labels: Vec<String> = file.agents.keys().cloned().collect();
        PointAgents::named(&labels, "agents")
    }
}

/// The error of a life-and-death point whose kind solves no problems (key, message).
pub fn solves_no_problems() -> (String, String) {
    (
        "kind".into(),
        "game = \"tsumego\" goes with kind = \"solve\" or \"tsumego_ga\"".into(),
    )
}

/// What a job kind checks of each grid point, handed to `expand_grid` by `kind::registry` (a
/// point's file is `file`, the point's values written in; an error is (key, message)).
pub struct KindChecks<'a> {
    /// A game-playing point's own sections, and the agents it plays
    /// (`KindRunner::point_agents`).
    pub point_agents: &'a dyn Fn(&ExperimentFile) -> Result<PointAgents, (String, String)>,
    /// A life-and-death point's own section checked against its library, its weight vectors
    /// resolved from the file's folder (the `Path`), written into the point's config
    /// (`KindRunner::library_point`).
    pub library_point: &'a dyn Fn(
        &ExperimentFile,
        &crate::game::tsumego::library::LibrarySpec,
        &std::path::Path,
        &mut JobConfig,
    ) -> Result<(), (String, String)>,
}

/// Expands an experiment into its jobs, validating every grid point as far as the file goes.
/// What only a job kind knows it checks itself: its own sections of each point and the agents
/// they play, a life-and-death point's section (`checks`), a match's openings against its
/// stage and a tune's starting weights (`KindRunner::check`). `experiment::expand`
/// (`kind::expand`) runs both, so this module needs no job kind.
pub fn expand_grid(exp: &Experiment, checks: &KindChecks) -> Result<Vec<Job>, InputError> {
    let named: Vec<(String, &String, &Vec<toml::Value>)> = exp
        .file
        .grid
        .iter()
        .map(|(k, v)| (format!("grid.{k}"), k, v))
        .chain(exp.file.zip.iter().map(|(k, v)| (format!("zip.{k}"), k, v)))
        .collect();
    for (at, key, values) in &named {
        if values.is_empty() {
            return Err(exp.error(at, "the axis is empty; give at least one value"));
        }
        let parts: Vec<&str> = key.split('.').collect();
        if parts.iter().any(|p| p.is_empty()) || UNSWEEPABLE.contains(&parts[0]) {
            return Err(exp.error(at, format!("'{key}' cannot be swept (expected a dotted path to a job setting, e.g. agents.NAME.rollouts)")));
        }
        let mut table = &exp.raw;
        for (i, part) in parts[..parts.len() - 1].iter().enumerate() {
            match table.get(*part) {
                Some(toml::Value::Table(t)) => table = t,
                _ => {
                    let prefix = parts[..=i].join(".");
                    return Err(exp.error(
                        at,
                        format!("the grid path names nothing: the file has no table `{prefix}`"),
                    ));
                }
            }
        }
    }
    // A value listed twice on a grid axis (or a zipped row listed twice) would make two identical
    // jobs: one hash, its games counted twice.
    // Found through a map from each value's TOML text (its type shows in it: `10` and `10.0`
    // differ), so a long axis costs linear time.
    for (at, _, values) in named.iter().filter(|(at, _, _)| at.starts_with("grid.")) {
        if let Some((first, i)) = first_repeat(values.iter().map(|v| v.to_string())) {
            return Err(exp.error(at, format!("the value {} is listed twice (at positions {} and {}): each value makes one job; use `repeats` to run a job again", values[i], first + 1, i + 1)));
        }
    }
    let zip_rows = exp.file.zip.values().map(Vec::len).min().unwrap_or(0);
    let zip_row = |i: usize| {
        exp.file
            .zip
            .values()
            .map(|v| v[i].to_string())
            .collect::<Vec<_>>()
    };
    if let Some((i, j)) = first_repeat((0..zip_rows).map(zip_row)) {
        return Err(exp.error("zip", format!("rows {} and {} of the zipped lists are the same: each row makes one job; use `repeats` to run a job again", i + 1, j + 1)));
    }
    // The grid's size, before anything is built.
    let points = exp
        .file
        .grid
        .values()
        .map(|v| v.len() as u128)
        .product::<u128>()
        * exp.file.zip.values().next().map_or(1, |v| v.len() as u128);
    if points * exp.file.repeats as u128 > MAX_JOBS as u128 {
        let at = if exp.file.repeats as usize > MAX_JOBS
            || exp.file.grid.is_empty() && exp.file.zip.is_empty()
        {
            "repeats"
        } else {
            "grid"
        };
        return Err(exp.error(at, format!("{points} grid points x {} repeats is more than {MAX_JOBS} jobs; split the experiment into several files", exp.file.repeats)));
    }
    if let Some(k) = exp.file.zip.keys().find(|k| exp.file.grid.contains_key(*k)) {
        return Err(exp.error(
            &format!("zip.{k}"),
            "a key is swept either in [grid] or in [zip], not both",
        ));
    }
    let zip_len = exp.file.zip.values().next().map(Vec::len);
    if let Some((k, v)) = exp.file.zip.iter().find(|(_, v)| Some(v.len()) != zip_len) {
        return Err(exp.error(
            &format!("zip.{k}"),
            format!(
                "has {} values, but the zipped lists must all have {}",
                v.len(),
                zip_len.unwrap_or(0)
            ),
        ));
    }
    // Axes: one per grid key, and one for all zipped keys together. A point of an axis sets
    // one or more keys.
    let mut axes: Vec<Vec<Vec<(String, toml::Value)>>> = exp
        .file
        .grid
        .iter()
        .map(|(k, v)| v.iter().map(|x| vec![(k.clone(), x.clone())]).collect())
        .collect();
    if let Some(n) = zip_len {
        axes.push(
            (0..n)
                .map(|i| {
                    exp.file
                        .zip
                        .iter()
                        .map(|(k, v)| (k.clone(), v[i].clone()))
                        .collect()
                })
                .collect(),
        );
    }
    // Each point's file is the experiment's without its axes and report (which no job setting
    // reads): copying the axes into every point made expansion quadratic in their length.
    let mut base = exp.raw.clone();
    for key in ["grid", "zip", "report", "race"] {
        base.remove(key);
    }
    let mut jobs = Vec::new();
    let mut index = vec![0usize; axes.len()];
    loop {
        let swept: Vec<(String, toml::Value)> = axes
            .iter()
            .zip(&index)
            .flat_map(|(axis, &i)| axis[i].iter().cloned())
            .collect();
        let config = point_config(exp, &base, &swept, checks)?;
        for repeat in 0..exp.file.repeats {
            let mut config = config.clone();
            config.repeat = repeat;
            let h = identity_hash(&config, &swept);
            let seed = derive_seed(exp.file.seed, &[h, repeat as u64]);
            jobs.push(Job {
                hash: format!("{h:016x}"),
                seed,
                swept: swept.clone(),
                config,
            });
        }
        // Odometer over the axes.
        let mut d = axes.len();
        loop {
            if d == 0 {
                return unique(exp, jobs);
            }
            d -= 1;
            index[d] += 1;
            if index[d] < axes[d].len() {
                break;
            }
            index[d] = 0;
        }
    }
}

/// The hash of a job's identity: its resolved config as canonical JSON, without how many games
/// it plays (`match.games`, `tournament.rounds`) unless the grid sweeps that count. Game i of a
/// job is seeded by (job seed, i) and its pair, so a job's first N games are the same at any
/// count: raising the count keeps the job and plays only the new games (`runner`), lowering it
/// reports the first N (`report`).
pub fn identity_hash(config: &JobConfig, swept: &[(String, toml::Value)]) -> u64 {
    let swept_key = |k: &str| swept.iter().any(|(key, _)| key == k);
    let mut identity = config.clone();
    if let Some(m) = identity.match_.as_mut()
        && !swept_key("match.games")
    {
        m.games = 0;
    }
    if let Some(t) = identity.tournament.as_mut()
        && !swept_key("tournament.rounds")
    {
        t.rounds = 0;
    }
    let json = serde_json::to_string(&identity).expect("job configs serialise");
    xxhash_rust::xxh3::xxh3_64(json.as_bytes())
}

/// Starts every external agent of `jobs` once (`external::probe`), so a command that does not
/// exist, a handshake that never comes or a wrong protocol version is an error naming the agent
/// before anything runs. `gamelab run` calls it (also with --dry-run); reports never start agents.
pub fn probe_external(exp: &Experiment, jobs: &[Job]) -> Result<(), InputError> {
    for job in jobs {
        for (label, spec) in &job.config.agents {
            if let Some((e, dialect)) = spec.external() {
                let game = super::spec::GAMES[exp.file.game as usize];
                crate::agent::external::probe(e, dialect, game).map_err(|m| {
                    exp.error(
                        &format!("agents.{label}"),
                        format!(
                            "the external agent could not start: {m}{}",
                            command_path_hint(exp, e)
                        ),
                    )
                })?;
            }
        }
    }
    Ok(())
}

/// Where a relative path in an agent's `command` is missing from the folder the agent runs in
/// (`cwd`, else the folder gamelab runs in, as a shell would take it) but is there beside the
/// experiment file (where `[openings]`' and tables' paths are taken from): says so, with the
/// path to write. Empty otherwise.
fn command_path_hint(exp: &Experiment, e: &crate::agent::external::ExternalSpec) -> String {
    let runs_in = std::path::PathBuf::from(e.cwd.as_deref().unwrap_or("."));
    let beside = exp.base_dir();
    for arg in &e.command {
        let path = std::path::Path::new(arg);
        if path.is_absolute() || runs_in.join(path).exists() || !beside.join(path).is_file() {
            continue;
        }
        let from_here = super::openings::relative_to(&beside.join(path), &runs_in);
        return format!(
            "; `command` paths are taken from the folder the agent runs in (`cwd`, else the folder gamelab runs in: {}), not from the experiment file's folder: '{arg}' is not there, but {} is: write \"{}\" (or set cwd)",
            runs_in.canonicalize().unwrap_or(runs_in.clone()).display(),
            beside.join(path).display(),
            from_here.display()
        );
    }
    String::new()
}

/// The most jobs an experiment file may expand into.
pub const MAX_JOBS: usize = 100_000;
/// The most games one job may play (a typo guard: its games are computed one at a time, and
/// its run's memory does not follow them); more games are more repeats, which also spreads
/// them over shards.
pub const MAX_GAMES_PER_JOB: u64 = 10_000_000;

/// The first item equal to an earlier one, as (the earlier one's index, its index).
fn first_repeat<T: std::hash::Hash + Eq>(items: impl Iterator<Item = T>) -> Option<(usize, usize)> {
    let mut seen = std::collections::HashMap::new();
    for (i, item) in items.enumerate() {
        if let Some(&first) = seen.get(&item) {
            return Some((first, i));
        }
        seen.insert(item, i);
    }
    None
}

/// Two grid points whose settings resolve to the same job (`10` and `10.0`, say) would share one
/// hash and be counted twice: an error naming both.
fn unique(exp: &Experiment, jobs: Vec<Job>) -> Result<Vec<Job>, InputError> {
    let mut seen: std::collections::HashMap<&str, &Job> = std::collections::HashMap::new();
    for j in &jobs {
        if let Some(other) = seen.insert(&j.hash, j) {
            return Err(exp.error(
                "grid",
                format!(
                    "the grid points {} and {} make the same job; list each setting once",
                    describe_point(&other.swept),
                    describe_point(&j.swept)
                ),
            ));
        }
    }
    Ok(jobs)
}

pub fn describe_point(swept: &[(String, toml::Value)]) -> String {
    swept
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests;
