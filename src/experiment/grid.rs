//! Expansion of an experiment into jobs: the `[grid]` axes x `repeats`, each job's canonical
//! resolved config, its hash and its seed.
//!
//! The job hash is a hash of the job's fully resolved config (stage written out, tables
//! replaced by their numbers, participants listed, repeat and experiment seed included), as
//! canonical JSON: struct fields in declaration order and maps sorted by key; the game count is
//! left out (`identity_hash`), so a sweep grows by playing only its new games. The seed is
//! derived from (experiment seed, job hash, repeat), never from a position in a queue, so the
//! same file and seed give the same jobs and rows however they are scheduled or sharded.

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
}

impl JobConfig {
    /// The config of a grid point of `file` on `stage` (repeat 0) without agents or sections:
    /// each job kind fills in its own.
    fn bare(exp: &Experiment, file: &ExperimentFile, stage: Stage) -> JobConfig {
        JobConfig {
            experiment: exp.name.clone(),
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
    /// pairs first appear (`openings::slots` over `pairings()`, computed on its own).
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

/// Expands an experiment into its jobs, validating every grid point as far as the file goes.
/// What only a job kind knows (a match's openings against its stage, a tune's starting weights)
/// it checks itself (`KindRunner::check`): `experiment::expand` (`job_kind::expand`) runs both,
/// so this module needs no job kind.
pub fn expand_grid(exp: &Experiment) -> Result<Vec<Job>, InputError> {
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
        let config = point_config(exp, &base, &swept)?;
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
            if let crate::agent::AgentSpec::External(e) = spec {
                let game = super::spec::GAMES[exp.file.game as usize];
                crate::agent::external::probe(e, game).map_err(|m| {
                    exp.error(
                        &format!("agents.{label}"),
                        format!("the external agent could not start: {m}"),
                    )
                })?;
            }
        }
    }
    Ok(())
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

/// The validated config of one grid point (repeat 0).
fn point_config(
    exp: &Experiment,
    base: &toml::Table,
    swept: &[(String, toml::Value)],
) -> Result<JobConfig, InputError> {
    let file: ExperimentFile = if swept.is_empty() {
        exp.file.clone()
    } else {
        let mut raw = base.clone();
        for (key, value) in swept {
            let parts: Vec<&str> = key.split('.').collect();
            let mut table = &mut raw;
            for part in &parts[..parts.len() - 1] {
                table = table
                    .get_mut(*part)
                    .and_then(toml::Value::as_table_mut)
                    .expect("grid paths were checked");
            }
            table.insert(parts[parts.len() - 1].to_string(), value.clone());
        }
        toml::Value::Table(raw)
            .try_into()
            .map_err(|e: toml::de::Error| {
                let key = if swept.len() == 1 && exp.file.zip.is_empty() {
                    format!("grid.{}", swept[0].0)
                } else if exp.file.grid.is_empty() {
                    "zip".to_string()
                } else {
                    "grid".to_string()
                };
                exp.error(
                    &key,
                    format!("with {}: {}", describe_point(swept), e.message()),
                )
            })?
    };
    // Errors of a grid point name the key it sits on; with a grid, they also say the point.
    // An error of a swept setting (`iterations = 0` of `agents.m` on the axis
    // `agents.m.iterations`) points at that axis's line in [grid] or [zip].
    let err = |key: &str, msg: String| {
        if swept.is_empty() {
            return exp.error(key, msg);
        }
        let setting = super::spec::leading_setting(&msg).map(|name| format!("{key}.{name}"));
        let axis = swept
            .iter()
            .map(|(k, _)| k.as_str())
            .find(|k| Some(*k) == setting.as_deref() || *k == key);
        let msg = format!("with {}: {msg}", describe_point(swept));
        match axis {
            Some(k) => {
                let section = if exp.file.zip.contains_key(k) {
                    "zip"
                } else {
                    "grid"
                };
                let e = InputError::at_key(
                    &exp.path,
                    &exp.text,
                    &format!("{section}.{k}"),
                    msg.clone(),
                );
                if e.line_col.is_some() {
                    e
                } else {
                    exp.error(key, msg)
                }
            }
            None => exp.error(key, msg),
        }
    };
    if file.repeats == 0 {
        return Err(err("repeats", "must be at least 1".into()));
    }
    if file.openings.is_some() && !file.kind.plays_games() {
        return Err(err(
            "openings",
            "[openings] goes with kind = \"match\" or \"tournament\"".into(),
        ));
    }
    if file.game == GameName::Tsumego || matches!(file.kind, JobKind::Solve | JobKind::TsumegoGa) {
        return tsumego_config(exp, &file, &err);
    }
    if let Some(key) = [
        ("library", file.library.is_some()),
        ("solve", file.solve.is_some()),
        ("tsumego_ga", file.tsumego_ga.is_some()),
    ]
    .iter()
    .find(|(_, on)| *on)
    .map(|(k, _)| *k)
    {
        return Err(err(key, format!("[{key}] goes with game = \"tsumego\"")));
    }
    let stage = match (file.game, &file.stage, &file.openspiel) {
        (GameName::Openspiel, None, Some(spec)) => Stage::OpenSpiel(
            openspiel_start(spec)
                .map_err(|e| err(openspiel_key(&e), e))?
                .0,
        ),
        (GameName::Openspiel, None, None) => {
            return Err(err(
                "openspiel",
                "game = \"openspiel\" needs an `openspiel` table: openspiel = { name = \"connect_four\" }".into(),
            ));
        }
        (GameName::Openspiel, Some(_), _) => {
            return Err(err(
                "stage",
                "an OpenSpiel game is named by the `openspiel` table; leave `stage` out".into(),
            ));
        }
        (_, _, Some(_)) => {
            return Err(err(
                "openspiel",
                "the `openspiel` table goes with game = \"openspiel\"".into(),
            ));
        }
        (game, Some(stage), None) => Stage::resolve(game, stage).map_err(|e| err("stage", e))?,
        (_, None, None) => {
            return Err(err(
                "stage",
                "missing: the stage the games are played on".into(),
            ));
        }
    };
    // A start position to build agents on (Colosseum: a setup of the smallest size).
    enum Start {
        Othello(Othello),
        Colosseum(Colosseum),
        Freckers(Freckers),
        OpenSpiel(OpenSpiel),
    }
    let start = match &stage {
        Stage::Othello(def) => Start::Othello(Othello::new(def).map_err(|e| err("stage", e))?),
        Stage::Colosseum(c) => Start::Colosseum(c.setup(0).map_err(|e| err("stage", e))?),
        Stage::Freckers(f) => Start::Freckers(Freckers::new(f.strict)),
        Stage::OpenSpiel(_) => {
            let spec = file
                .openspiel
                .as_ref()
                .expect("an OpenSpiel stage has its table");
            Start::OpenSpiel(openspiel_start(spec).map_err(|e| err("openspiel", e))?.1)
        }
        Stage::Tsumego(_) => unreachable!("life-and-death configs are built by tsumego_config"),
    };
    let build = |spec: &crate::agent::AgentSpec| -> Result<(), String> {
        match &start {
            Start::Othello(g) => Othello::build_agent(spec, g).map(|_| ()),
            Start::Colosseum(g) => Colosseum::build_agent(spec, g).map(|_| ()),
            Start::OpenSpiel(g) => OpenSpiel::build_agent(spec, g).map(|_| ()),
            Start::Freckers(g) => Freckers::build_agent(spec, g).map(|_| ()),
        }
    };
    let sections = [
        file.match_.is_some(),
        file.tournament.is_some(),
        file.ga.is_some(),
        file.tune.is_some(),
    ]
    .iter()
    .filter(|x| **x)
    .count();
    let labels: Vec<String> = match (file.kind, &file.match_, &file.tournament) {
        (JobKind::Tune, None, None) if sections == 1 && file.tune.is_some() => {
            let t = file.tune.as_ref().expect("checked above");
            t.check().map_err(|e| err("tune", e))?;
            if t.games as u64 > MAX_GAMES_PER_JOB {
                return Err(err(
                    "tune.games",
                    format!("{} games: at most {MAX_GAMES_PER_JOB} per job", t.games),
                ));
            }
            if !file.agents.contains_key(&t.agent) {
                return Err(err(
                    "tune.agent",
                    format!("no agent labelled '{}'", t.agent),
                ));
            }
            // Its starting weights are the tune kind's to check (`tune_job::Tune::check`).
            vec![t.agent.clone(), t.opponent.clone()]
        }
        (JobKind::Tune, _, _) => {
            return Err(err(
                "tune",
                "kind = \"tune\" needs a [tune] table and no [match], [tournament] or [ga]".into(),
            ));
        }
        _ if file.tune.is_some() => {
            return Err(err(
                "tune",
                format!(
                    "a [tune] table goes with kind = \"tune\", not {:?}",
                    file.kind
                )
                .to_lowercase(),
            ));
        }
        (JobKind::Ga, None, None) if sections == 1 => {
            if file.game != GameName::Othello {
                return Err(err(
                    "game",
                    "GA jobs evolve Othello weight tables; use game = \"othello\"".into(),
                ));
            }
            let ga = file.ga.as_ref().expect("counted above");
            ga.check().map_err(|e| err("ga", e))?;
            if let Some(arena) = &file.arena {
                if arena.rollouts == 0 || arena.rounds == 0 {
                    return Err(err(
                        "arena",
                        "rollouts and rounds must be at least 1".into(),
                    ));
                }
                for (label, spec) in &arena.agents {
                    let key = format!("arena.agents.{label}");
                    let mut spec = spec.clone();
                    spec.resolve_tables(&exp.base_dir())
                        .map_err(|e| err(&key, e))?;
                    spec.check_numbers().map_err(|e| err(&key, e))?;
                    spec.budget().map_err(|e| err(&key, e))?;
                    build(&spec).map_err(|e| err(&key, e))?;
                }
            }
            Vec::new()
        }
        (JobKind::Ga, _, _) => {
            return Err(err(
                "ga",
                "kind = \"ga\" needs a [ga] table and no [match] or [tournament]".into(),
            ));
        }
        _ if file.arena.is_some() => {
            return Err(err("arena", "an [arena] goes with kind = \"ga\"".into()));
        }
        _ if file.ga.is_some() => {
            return Err(err(
                "ga",
                format!("a [ga] table goes with kind = \"ga\", not {:?}", file.kind).to_lowercase(),
            ));
        }
        (JobKind::Match, Some(m), None) => {
            if m.players.len() != 2 {
                return Err(err(
                    "match.players",
                    format!("a match needs exactly 2 players, got {}", m.players.len()),
                ));
            }
            if m.players[0] == m.players[1] {
                return Err(err("match.players", "the two players must be different agents (copy the agent under a second label for self-play)".into()));
            }
            if m.games == 0 || m.games as u64 > MAX_GAMES_PER_JOB {
                return Err(err(
                    "match.games",
                    format!(
                        "{} games: give 1 to {MAX_GAMES_PER_JOB} per job (more games are more `repeats`)",
                        m.games
                    ),
                ));
            }
            if let Some(t) = &m.sprt {
                let ok = |x: f64| x > 0.0 && x < 0.5;
                if !(ok(t.alpha)
                    && ok(t.beta)
                    && t.elo0 < t.elo1
                    && t.elo0.is_finite()
                    && t.elo1.is_finite())
                {
                    return Err(err(
                        "match.sprt",
                        format!("expected elo0 < elo1 and alpha, beta in (0, 0.5), got {t:?}"),
                    ));
                }
            }
            m.players.clone()
        }
        (JobKind::Tournament, None, Some(t)) => {
            if t.rounds == 0 {
                return Err(err("tournament.rounds", "must be at least 1".into()));
            }
            let p = t
                .participants
                .clone()
                .unwrap_or_else(|| file.agents.keys().cloned().collect());
            if p.len() < 2 {
                return Err(err(
                    "tournament.participants",
                    format!(
                        "a tournament needs at least 2 participants, got {}",
                        p.len()
                    ),
                ));
            }
            let mut seen = std::collections::BTreeSet::new();
            for l in &p {
                if !seen.insert(l) {
                    return Err(err(
                        "tournament.participants",
                        format!("'{l}' is listed twice"),
                    ));
                }
            }
            let games = t.rounds as u64 * (p.len() * (p.len() - 1)) as u64;
            if games > MAX_GAMES_PER_JOB {
                return Err(err(
                    "tournament.rounds",
                    format!(
                        "{} rounds x {} ordered pairs = {games} games: at most {MAX_GAMES_PER_JOB} per job (more games are more `repeats`)",
                        t.rounds,
                        p.len() * (p.len() - 1)
                    ),
                ));
            }
            p
        }
        (JobKind::Match, _, _) => {
            return Err(err(
                "match",
                "kind = \"match\" needs a [match] table (players, games) and no [tournament]"
                    .into(),
            ));
        }
        (JobKind::Tournament, _, _) => {
            return Err(err(
                "tournament",
                "kind = \"tournament\" needs a [tournament] table and no [match]".into(),
            ));
        }
        (JobKind::Solve | JobKind::TsumegoGa, _, _) => {
            unreachable!("life-and-death configs are built by tsumego_config")
        }
    };
    let mut agents = BTreeMap::new();
    for label in &labels {
        let key = format!("agents.{label}");
        let mut spec = file.agents.get(label).cloned().ok_or_else(|| {
            let known: Vec<&str> = file.agents.keys().map(String::as_str).collect();
            let where_ = match file.kind {
                JobKind::Match => "match.players",
                JobKind::Tune if *label == file.tune.as_ref().map_or("", |t| t.agent.as_str()) => {
                    "tune.agent"
                }
                JobKind::Tune => "tune.opponent",
                _ => "tournament.participants",
            };
            err(
                where_,
                format!("no agent labelled '{label}' (agents: {})", known.join(", ")),
            )
        })?;
        spec.resolve_tables(&exp.base_dir())
            .map_err(|e| err(&key, e))?;
        spec.check_numbers().map_err(|e| err(&key, e))?;
        spec.budget().map_err(|e| err(&key, e))?;
        spec.first_move_budget().map_err(|e| err(&key, e))?;
        build(&spec).map_err(|e| err(&key, e))?;
        // OpenSpiel's othello cannot be set up where an opening ends.
        if file.openings.is_some()
            && matches!(start, Start::Othello(_))
            && spec.kind_name().starts_with("openspiel_")
        {
            return Err(err(
                "openings",
                format!(
                    "agent '{label}' (`{}`) plays Othello from the standard 8x8 start only: OpenSpiel's othello cannot be set up where an opening ends; leave out [openings]",
                    spec.kind_name()
                ),
            ));
        }
        agents.insert(label.clone(), spec);
    }
    let openings = match &file.openings {
        None => None,
        Some(spec) => {
            let o = spec.resolve(&exp.base_dir()).map_err(|e| match e {
                SpecError::Key(key, m) => err(&key, m),
                SpecError::File(path, line, message) => InputError {
                    file: Some(path),
                    line_col: line.map(|l| (l, 1)),
                    key: None,
                    message,
                },
            })?;
            // A fixed start: every line is played once here (Colosseum's random setups are
            // checked per pair by `games_job::check_openings` once the jobs have seeds).
            let checked = match &start {
                Start::Othello(g) => o.check_suite(g),
                Start::Freckers(g) => o.check_suite(g),
                Start::OpenSpiel(g) => o.check_suite(g),
                Start::Colosseum(_) => Ok(()),
            };
            checked.map_err(|e| opening_error(exp, &o, e, None))?;
            Some(o)
        }
    };
    Ok(JobConfig {
        agents,
        openings,
        match_: file.match_.clone(),
        tournament: file.tournament.as_ref().map(|t| TournamentSpec {
            rounds: t.rounds,
            participants: Some(labels.clone()),
        }),
        ga: file.ga.clone(),
        tune: file.tune.clone(),
        ..JobConfig::bare(exp, &file, stage)
    })
}

/// An opening that cannot be played, as an input error: at the suite's line, or at
/// `openings.random_plies`; `slot` names the pair and job when the error depends on them.
pub fn opening_error(
    exp: &Experiment,
    o: &Openings,
    e: OpeningError,
    slot: Option<(u64, &str)>,
) -> InputError {
    let of_pair = slot
        .map(|(s, job)| format!(" on the board of pair {s} of job {job} (a random setup)"))
        .unwrap_or_default();
    let at_line = |line: usize, message: String| match o.line_number(line) {
        Some((path, number)) => InputError {
            file: Some(path.to_path_buf()),
            line_col: Some((number, 1)),
            key: None,
            message,
        },
        None => exp.error("openings.file", message),
    };
    match e {
        OpeningError::Illegal { line, error } => at_line(
            line,
            format!("opening '{}'{of_pair}: {error}", o.lines[line]),
        ),
        OpeningError::GameOver {
            line: Some(line),
            plies,
        } => at_line(
            line,
            format!(
                "opening '{}'{of_pair} ends the game (after {plies} plies); an opening must leave the game on",
                o.lines[line]
            ),
        ),
        OpeningError::GameOver { line: None, plies } => {
            let n = o.random_plies.unwrap_or(0);
            let where_ = slot
                .map(|(s, job)| format!(" in pair {s} of job {job}"))
                .unwrap_or_default();
            exp.error("openings.random_plies", format!("random_plies = {n} ends the game{where_} (over after {plies} plies); an opening must leave the game on: use fewer plies"))
        }
    }
}

/// The config of a life-and-death grid point: the library as the stage, one of `[solve]` or
/// `[tsumego_ga]`, weight vectors resolved.
fn tsumego_config(
    exp: &Experiment,
    file: &ExperimentFile,
    err: &dyn Fn(&str, String) -> InputError,
) -> Result<JobConfig, InputError> {
    if file.game != GameName::Tsumego {
        return Err(err(
            "game",
            format!(
                "kind = \"{}\" solves life-and-death problems: use game = \"tsumego\"",
                if file.kind == JobKind::Solve {
                    "solve"
                } else {
                    "tsumego_ga"
                }
            ),
        ));
    }
    let no_stage = crate::game::othello::StageRef::Id(String::new());
    let mut stage = Stage::tsumego(
        file.stage.as_ref().unwrap_or(&no_stage),
        file.library.as_ref(),
    )
    .map_err(|e| {
        err(
            if file.library.is_none() {
                "stage"
            } else {
                "library"
            },
            e,
        )
    })?;
    let Stage::Tsumego(t) = &mut stage else {
        unreachable!()
    };
    t.library
        .locate(&exp.base_dir())
        .map_err(|(k, m)| err(k, m))?;
    let t = &*t;
    for (key, present) in [
        ("match", file.match_.is_some()),
        ("tournament", file.tournament.is_some()),
        ("ga", file.ga.is_some()),
        ("tune", file.tune.is_some()),
        ("arena", file.arena.is_some()),
    ] {
        if present {
            return Err(err(
                key,
                format!(
                    "[{key}] does not go with game = \"tsumego\" (use [solve] or [tsumego_ga])"
                ),
            ));
        }
    }
    if !file.agents.is_empty() {
        return Err(err(
            "agents",
            "life-and-death experiments name weight vectors, not agents".into(),
        ));
    }
    let base = exp.base_dir();
    let resolve =
        |key: String, w: &super::spec::WeightsRef| w.resolve(&base).map_err(|e| err(&key, e));
    let (solve, tsumego_ga) = match (file.kind, &file.solve, &file.tsumego_ga) {
        (JobKind::Solve, Some(s), None) => {
            s.check(&t.library).map_err(|(k, m)| err(k, m))?;
            let mut s = s.clone();
            for (label, w) in s.weights.iter_mut() {
                *w = resolve(format!("solve.weights.{label}"), w)?;
            }
            (Some(s), None)
        }
        (JobKind::TsumegoGa, None, Some(g)) => {
            g.check(&t.library).map_err(|(k, m)| err(k, m))?;
            let mut g = g.clone();
            g.base = resolve("tsumego_ga.base".into(), &g.base)?;
            for (label, w) in g.compare.iter_mut() {
                *w = resolve(format!("tsumego_ga.compare.{label}"), w)?;
            }
            (None, Some(g))
        }
        (JobKind::Solve, _, _) => {
            return Err(err(
                "solve",
                "kind = \"solve\" needs a [solve] section and no [tsumego_ga]".into(),
            ));
        }
        (JobKind::TsumegoGa, _, _) => {
            return Err(err(
                "tsumego_ga",
                "kind = \"tsumego_ga\" needs a [tsumego_ga] section and no [solve]".into(),
            ));
        }
        _ => {
            return Err(err(
                "kind",
                "game = \"tsumego\" goes with kind = \"solve\" or \"tsumego_ga\"".into(),
            ));
        }
    };
    Ok(JobConfig {
        solve,
        tsumego_ga,
        ..JobConfig::bare(exp, file, stage)
    })
}

/// An OpenSpiel game loaded in the bridge, and its start, once per game string in a process:
/// every grid point of an OpenSpiel sweep checks its agents on the same game, and two bridge
/// requests a point made a dry run of 3,000 points take 51 s.
fn openspiel_start(
    spec: &crate::game::openspiel::OpenSpielSpec,
) -> Result<(OpenSpielStage, OpenSpiel), String> {
    type Loaded = Result<(OpenSpielStage, OpenSpiel), String>;
    static LOADED: std::sync::LazyLock<std::sync::Mutex<HashMap<String, Loaded>>> =
        std::sync::LazyLock::new(Default::default);
    let game = spec.game_string()?;
    if let Some(known) = LOADED.lock().unwrap().get(&game) {
        return known.clone();
    }
    let loaded = OpenSpielStage::load(spec).and_then(|stage| {
        let start = stage.start(0)?;
        Ok((stage, start))
    });
    LOADED.lock().unwrap().insert(game, loaded.clone());
    loaded
}

/// The key an OpenSpiel load error belongs to: the parameters, the name, or the game itself
/// (Python or the package missing).
fn openspiel_key(message: &str) -> &'static str {
    if message.contains("arameter") || message.starts_with("params.") {
        "openspiel.params"
    } else if message.contains("Python")
        || message.contains("OpenSpiel") && message.contains("import")
    {
        "game"
    } else {
        "openspiel.name"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const MATCH: &str = r#"
kind = "match"
game = "othello"
stage = "small6"
seed = 3
repeats = 2
[match]
players = ["m", "g"]
games = 5
[agents.m]
kind = "uct"
iterations = 50
[agents.g]
kind = "greedy"
[grid]
"agents.m.c" = [0.5, 1]
stage = ["small6", "partial-c8"]
"#;

    /// A match whose UCT agent sweeps `iterations` over `values` in `section` (grid or zip).
    fn long_axis(section: &str, values: impl Iterator<Item = String>) -> String {
        let list: Vec<String> = values.collect();
        format!(
            "kind = \"match\"\ngame = \"othello\"\nstage = \"small6\"\nseed = 3\n[match]\nplayers = [\"m\", \"g\"]\ngames = 2\n[agents.m]\nkind = \"uct\"\niterations = 50\n[agents.g]\nkind = \"greedy\"\n[{section}]\n\"agents.m.iterations\" = [{}]\n",
            list.join(", ")
        )
    }

    /// The most jobs a file may have, on one axis: every value its own job, in order (the
    /// expansion used to copy the whole axis into each point, quadratic in its length); a
    /// value repeated at the far end is found and both places named.
    #[test]
    fn an_axis_of_the_most_jobs_expands_and_its_repeats_are_found() {
        let all = jobs(&long_axis("grid", (1..=MAX_JOBS).map(|i| i.to_string())));
        assert_eq!(all.len(), MAX_JOBS);
        let config = serde_json::to_string(&all[MAX_JOBS - 1].config).unwrap();
        assert!(config.contains("\"iterations\":100000"), "{config}");
        let last = &all[MAX_JOBS - 1].swept;
        assert_eq!(last[0].1, toml::Value::Integer(MAX_JOBS as i64));
        let hashes: std::collections::HashSet<&str> = all.iter().map(|j| j.hash.as_str()).collect();
        assert_eq!(hashes.len(), MAX_JOBS);
        for (section, key, says) in [
            (
                "grid",
                "grid.agents.m.iterations",
                "the value 7 is listed twice (at positions 7 and 100000)",
            ),
            (
                "zip",
                "zip",
                "rows 7 and 100000 of the zipped lists are the same",
            ),
        ] {
            let text = long_axis(
                section,
                (1..MAX_JOBS)
                    .map(|i| i.to_string())
                    .chain(["7".to_string()]),
            );
            let err = crate::experiment::expand(
                &Experiment::from_text(Path::new("t.toml"), text).unwrap(),
            )
            .unwrap_err()
            .to_string();
            assert!(
                err.contains(&format!("key `{key}`")) && err.contains(says),
                "{err}"
            );
        }
    }

    fn jobs(text: &str) -> Vec<Job> {
        crate::experiment::expand(
            &Experiment::from_text(Path::new("t.toml"), text.to_string()).unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn the_grid_is_the_product_of_its_axes_times_repeats() {
        let j = jobs(MATCH);
        assert_eq!(j.len(), 2 * 2 * 2);
        let hashes: std::collections::BTreeSet<&str> = j.iter().map(|j| j.hash.as_str()).collect();
        assert_eq!(hashes.len(), 8, "every job has its own hash");
        let seeds: std::collections::BTreeSet<u64> = j.iter().map(|j| j.seed).collect();
        assert_eq!(seeds.len(), 8, "and its own seed");
        let c8 = j
            .iter()
            .find(|j| {
                j.swept
                    .iter()
                    .any(|(k, v)| k == "stage" && v.as_str() == Some("partial-c8"))
            })
            .unwrap();
        assert_eq!(
            c8.config.stage.othello().unwrap().blocked.len(),
            4,
            "the stage is resolved in the config"
        );
    }

    #[test]
    fn hashes_depend_on_the_job_only() {
        let base = jobs(MATCH);
        // The report section and the description do not change what a job plays.
        let with_report = jobs(&format!(
            "description = \"x\"\n{MATCH}\n[report]\nlevel = 0.9\n"
        ));
        assert_eq!(base, with_report);
        // The seed does.
        let reseeded = jobs(&MATCH.replace("seed = 3", "seed = 4"));
        assert!(
            base.iter()
                .zip(&reseeded)
                .all(|(a, b)| a.hash != b.hash && a.seed != b.seed)
        );
        // A grid value written out in the file gives the same job as the grid point.
        let fixed = jobs(
            &MATCH
                .replace("[grid]\n\"agents.m.c\" = [0.5, 1]\n", "[grid]\n")
                .replace("iterations = 50", "iterations = 50\nc = 0.5"),
        );
        let from_grid: Vec<&Job> = base
            .iter()
            .filter(|j| j.swept[0].1.as_float() == Some(0.5))
            .collect();
        for (a, b) in fixed.iter().zip(from_grid) {
            assert_eq!(a.config, b.config);
            assert_eq!(a.hash, b.hash);
        }
    }

    #[test]
    fn zipped_keys_advance_together() {
        let text = MATCH.replace(
            "[grid]\n\"agents.m.c\" = [0.5, 1]\nstage = [\"small6\", \"partial-c8\"]\n",
            "[zip]\n\"agents.m.c\" = [0.5, 1, 2]\n\"match.games\" = [2, 4, 6]\n",
        );
        let j = jobs(&text);
        assert_eq!(j.len(), 3 * 2);
        let points: Vec<(f64, u32)> = j
            .iter()
            .filter(|j| j.config.repeat == 0)
            .map(|j| {
                let Some(crate::agent::AgentSpec::Uct { c, .. }) = j.config.agents.get("m") else {
                    panic!()
                };
                (*c, j.config.match_.as_ref().unwrap().games)
            })
            .collect();
        assert_eq!(points, [(0.5, 2), (1.0, 4), (2.0, 6)]);
        assert_eq!(
            j[0].swept
                .iter()
                .map(|(k, _)| k.as_str())
                .collect::<Vec<_>>(),
            ["agents.m.c", "match.games"]
        );
    }

    #[test]
    fn games_computed_one_at_a_time_are_the_list() {
        let tournament = |rounds: u32, extra: usize| {
            let mut text = MATCH
                .replace("kind = \"match\"", "kind = \"tournament\"")
                .replace(
                    "[match]\nplayers = [\"m\", \"g\"]\ngames = 5",
                    &format!("[tournament]\nrounds = {rounds}\n[agents.r]\nkind = \"random\""),
                );
            for k in 0..extra {
                text += &format!("[agents.x{k}]\nkind = \"random\"\n");
            }
            jobs(&text)
        };
        let mut cases = jobs(MATCH);
        cases.extend(jobs(&MATCH.replace("games = 5", "games = 8")));
        cases.extend(jobs(&MATCH.replace("games = 5", "games = 1")));
        cases.extend(tournament(3, 0));
        cases.extend(tournament(2, 3));
        cases.extend(tournament(1, 5));
        for j in &cases {
            let list = j.pairings();
            assert_eq!(j.game_count(), list.len());
            let slots = super::super::openings::slots(&list);
            for (i, p) in list.iter().enumerate() {
                assert_eq!(&j.pairing(i), p, "game {i}");
                assert_eq!(j.opening_slot(i), slots[i], "slot of game {i}");
            }
        }
    }

    #[test]
    fn match_colours_alternate_and_tournaments_pair_every_ordered_pair() {
        let j = &jobs(MATCH)[0];
        let p = j.pairings();
        assert_eq!(p.len(), 5);
        let fs = |i: usize| (p[i].first.as_str(), p[i].second.as_str(), p[i].pair);
        assert_eq!(fs(0), ("m", "g", Some(0)));
        assert_eq!(fs(1), ("g", "m", Some(0)));
        assert_eq!(fs(3), ("g", "m", Some(1)));
        assert_eq!(fs(4), ("m", "g", Some(2)));
        let t = &jobs(
            &MATCH
                .replace("kind = \"match\"", "kind = \"tournament\"")
                .replace(
                    "[match]\nplayers = [\"m\", \"g\"]\ngames = 5",
                    "[tournament]\nrounds = 3\n[agents.r]\nkind = \"random\"",
                ),
        )[0];
        let p = t.pairings();
        assert_eq!(p.len(), 3 * 3 * 2);
        assert!(p.iter().all(|g| g.first != g.second));
        assert_eq!(
            p.iter()
                .filter(|g| g.first == "g" && g.second == "r")
                .count(),
            3
        );
        // Every pair id holds exactly two games, the same two agents with colours swapped.
        let mut pairs: std::collections::BTreeMap<u32, Vec<&Pairing>> = Default::default();
        for g in &p {
            pairs.entry(g.pair.unwrap()).or_default().push(g);
        }
        assert_eq!(pairs.len(), 9);
        assert!(
            pairs
                .values()
                .all(|v| v.len() == 2 && v[0].first == v[1].second && v[0].second == v[1].first)
        );
    }
}
