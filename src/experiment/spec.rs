//! The experiment file: its TOML schema, parsing and validation.
//!
//! Every table denies unknown keys. Parsing happens in two steps so that every error can name
//! its place: the file as written is parsed into `ExperimentFile` (toml gives line and column),
//! and then each grid point, the file with the grid's values substituted, is parsed again and
//! checked (`grid.rs`); errors found there name the grid key. Nothing here runs or writes.

pub mod race;

use super::error::InputError;
use crate::agent::AgentSpec;
pub use crate::experiment::tsumego_spec::{SolveSpec, TsumegoGaSpec, WeightsRef};
use crate::game::colosseum::ColosseumStage;
use crate::game::freckers::FreckersStage;
use crate::game::othello::{StageDef, StageRef};
use crate::game::tsumego::library::LibrarySpec;
use crate::report::spec::ReportSpec;
use crate::stats::elo::Sprt;
use crate::tune::fitness::{DrawRule, Evaluation, FitnessMeasure, Strategy, Subset};
use crate::tune::ga::GaConfig;
use crate::tune::symmetry::Symmetry;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a job does: one of gamelab's kinds, or a kind registered from outside
/// (`kind::registry::register`), written by name (`kind = "match"`) and serialised as it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JobKind {
    /// Two agents play `games` games, colours alternating.
    Match,
    /// Every ordered pair of participants plays `rounds` games (the Othello arena's tournament).
    Tournament,
    /// A genetic algorithm evolves a weight table for the stage (`[ga]`).
    Ga,
    /// A tuner (hill-climber, GA, or none) changes an agent's weight vector by playing an
    /// opponent, then the final weights play it again (`[tune]`).
    Tune,
    /// Life-and-death: solve a problem set with each of several weight vectors (`[solve]`), one
    /// row per weight vector and problem.
    Solve,
    /// Life-and-death: the GoTools report's GA over the heuristic's static or dynamic weights
    /// (`[tsumego_ga]`), one row per individual per generation, then the test set solved with the
    /// best weights and the baselines.
    TsumegoGa,
    /// Any other name: a kind registered from outside gamelab (its settings in `[settings]`),
    /// or a mistake, which `experiment::expand` reports at the `kind` key.
    Other(&'static str),
}

/// gamelab's own job kinds, in the order the docs list them.
pub const BUILT_IN_KINDS: [JobKind; 6] = [
    JobKind::Match,
    JobKind::Tournament,
    JobKind::Ga,
    JobKind::Tune,
    JobKind::Solve,
    JobKind::TsumegoGa,
];

/// Names of other kinds, kept for the life of the process (so that `JobKind` stays `Copy`;
/// a file names a few).
static OTHER_KIND_NAMES: std::sync::Mutex<std::collections::BTreeSet<&'static str>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

impl JobKind {
    /// Its name in a file (`kind = "tsumego_ga"`) and in a job's config.
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Match => "match",
            JobKind::Tournament => "tournament",
            JobKind::Ga => "ga",
            JobKind::Tune => "tune",
            JobKind::Solve => "solve",
            JobKind::TsumegoGa => "tsumego_ga",
            JobKind::Other(name) => name,
        }
    }

    /// Whether its rows are games (matches and tournaments).
    pub fn plays_games(self) -> bool {
        matches!(self, JobKind::Match | JobKind::Tournament)
    }

    /// The kind a file's `kind = NAME` names: a built-in one, or `Other(NAME)`.
    pub fn named(name: &str) -> JobKind {
        if let Some(k) = BUILT_IN_KINDS.iter().find(|k| k.name() == name) {
            return *k;
        }
        let mut names = OTHER_KIND_NAMES.lock().expect("the kind names");
        match names.get(name) {
            Some(n) => JobKind::Other(n),
            None => {
                let n: &'static str = Box::leak(name.to_string().into_boxed_str());
                names.insert(n);
                JobKind::Other(n)
            }
        }
    }
}

impl Serialize for JobKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for JobKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<JobKind, D::Error> {
        let name = String::deserialize(d)?;
        Ok(JobKind::named(&name))
    }
}

/// Games an experiment can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameName {
    Othello,
    Colosseum,
    Freckers,
    Tsumego,
    /// A game of OpenSpiel, named by the file's `openspiel` table (`game::openspiel`).
    Openspiel,
}

pub const GAMES: [&str; 5] = ["othello", "colosseum", "freckers", "tsumego", "openspiel"];

/// A job's resolved stage: an Othello stage written out, or the boards of a Colosseum job.
/// Untagged, so an Othello stage serialises (and hashes) as its definition alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Stage {
    Othello(StageDef),
    Colosseum(ColosseumStage),
    Freckers(FreckersStage),
    Tsumego(TsumegoStage),
    OpenSpiel(crate::game::openspiel::OpenSpielStage),
}

/// A life-and-death job's stage: the problem library it reads (named by the file's `stage`,
/// generated from its `[library]` section).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TsumegoStage {
    pub id: String,
    pub library: LibrarySpec,
}

impl Stage {
    /// Resolves the file's `stage` for `game`.
    pub fn resolve(game: GameName, stage: &StageRef) -> Result<Stage, String> {
        match (game, stage) {
            (GameName::Othello, s) => Ok(Stage::Othello(s.resolve()?)),
            (GameName::Colosseum, StageRef::Id(id)) => Ok(Stage::Colosseum(ColosseumStage::parse(id)?)),
            (GameName::Colosseum, StageRef::Inline(_)) => Err("a Colosseum stage is a name: size-M or sizes-A-B".into()),
            (GameName::Freckers, StageRef::Id(id)) => Ok(Stage::Freckers(FreckersStage::parse(id)?)),
            (GameName::Freckers, StageRef::Inline(_)) => Err("a Freckers stage is a name: standard or strict".into()),
            (GameName::Tsumego, _) => Err("a life-and-death stage is the library's name with a [library] section (see Stage::tsumego)".into()),
            (GameName::Openspiel, _) => Err("an OpenSpiel game is named by the `openspiel` table, not by `stage`".into()),
        }
    }

    /// The stage of a life-and-death experiment: the library `stage` names, as `[library]`
    /// generates it.
    pub fn tsumego(stage: &StageRef, library: Option<&LibrarySpec>) -> Result<Stage, String> {
        let StageRef::Id(id) = stage else {
            return Err(
                "a life-and-death stage is a library name (letters, digits, '-', '_')".into(),
            );
        };
        if id.is_empty()
            || !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c))
        {
            return Err(format!(
                "library name '{id}' must be letters, digits, '-' or '_' (it names a folder)"
            ));
        }
        let library = library.ok_or(
            "game = \"tsumego\" needs a [library] section (sets, levels, per_level, seed)",
        )?;
        library.check()?;
        Ok(Stage::Tsumego(TsumegoStage {
            id: id.clone(),
            library: library.clone(),
        }))
    }

    pub fn id(&self) -> &str {
        match self {
            Stage::Othello(s) => &s.id,
            Stage::Colosseum(s) => &s.id,
            Stage::Freckers(s) => &s.id,
            Stage::Tsumego(s) => &s.id,
            Stage::OpenSpiel(s) => &s.id,
        }
    }

    /// About how many points a board of this stage has (a Colosseum stage of several sizes:
    /// the mean size's), for estimates of what a game costs; 64 where it is not known.
    pub fn cells(&self) -> u64 {
        match self {
            Stage::Othello(s) => u64::from(s.size) * u64::from(s.size),
            Stage::Colosseum(s) => {
                let mean = (u64::from(s.sizes[0]) + u64::from(s.sizes[1])) / 2;
                mean * mean
            }
            Stage::Freckers(_) | Stage::Tsumego(_) | Stage::OpenSpiel(_) => 64,
        }
    }

    /// The Othello stage (the GA and weight tables work on Othello only).
    pub fn othello(&self) -> Option<&StageDef> {
        match self {
            Stage::Othello(s) => Some(s),
            Stage::Colosseum(_) | Stage::Freckers(_) | Stage::Tsumego(_) | Stage::OpenSpiel(_) => {
                None
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchSpec {
    /// The two agent labels; game i has `players[i % 2]` moving first.
    pub players: Vec<String>,
    /// The number of games, or the cap when an SPRT may stop the match earlier.
    pub games: u32,
    /// Stop as soon as this sequential test (on the Elo of players[0] over players[1], from
    /// colour-swapped pairs) accepts H0 or H1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<Sprt>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentSpec {
    /// Games each ordered pair plays (so each unordered pair plays 2 x rounds, colours swapped).
    #[serde(default = "one")]
    pub rounds: u32,
    /// Agent labels taking part; all agents when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub participants: Option<Vec<String>>,
}

fn one() -> u32 {
    1
}

/// The `[ga]` section: a genetic algorithm over the stage's weight table (the Othello report).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GaSpec {
    pub population: usize,
    /// Stop after this many generations...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generations: Option<u32>,
    /// ...or after this much wall time (seconds; the run is then not reproducible).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_s: Option<f64>,
    /// Fraction kept as the elite.
    #[serde(default = "ga_elite")]
    pub elite: f64,
    /// Candidates per parent tournament.
    #[serde(default = "ga_tournament")]
    pub tournament: usize,
    /// Probability that a gene of a child is redrawn.
    #[serde(default = "ga_mutation")]
    pub mutation: f64,
    /// Genes are drawn uniformly from [lo, hi].
    #[serde(default = "ga_bounds")]
    pub bounds: [f64; 2],
    /// Opponents per individual: a fraction of the population, or "full".
    pub subset: Subset,
    /// How evaluation games are played: det, rnd, mix or mcts (with `mcts_rollouts`).
    pub strategy: StrategyName,
    #[serde(default = "ga_mcts_rollouts")]
    pub mcts_rollouts: u64,
    #[serde(default)]
    pub symmetry: Symmetry,
    #[serde(default)]
    pub draw: DrawRule,
    #[serde(default)]
    pub fitness: FitnessMeasure,
    /// Seconds between checkpoints of a running GA.
    #[serde(default = "ga_checkpoint")]
    pub checkpoint_s: f64,
}

fn ga_elite() -> f64 {
    0.3
}
fn ga_tournament() -> usize {
    5
}
fn ga_mutation() -> f64 {
    0.01
}
fn ga_bounds() -> [f64; 2] {
    [5.0, 100.0]
}
fn ga_mcts_rollouts() -> u64 {
    2
}
fn ga_checkpoint() -> f64 {
    10.0
}

/// Tuners of the `tune` job kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TunerName {
    /// The Freckers report's hill-climber with the advantage vector.
    Hillclimb,
    /// The genetic algorithm of `tune::ga` on the same vector.
    Ga,
    /// No tuning: the starting weights are evaluated (the baseline).
    None,
}

/// The `[tune]` section: tune the weight vector of agent `agent` by games against `opponent`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneSpec {
    pub tuner: TunerName,
    /// The agent whose weights are tuned (its spec gives the starting weights).
    pub agent: String,
    pub opponent: String,
    /// Tuning games, the same budget for every tuner (colours alternate).
    pub games: u32,
    /// Games of the final weights against the opponent.
    pub eval_games: u32,
    /// Every weight stays in [lo, hi].
    #[serde(default = "tune_bounds")]
    pub bounds: [f64; 2],
    /// Hill-climber: the step of a won or lost game (times the game's advantage share).
    #[serde(default = "tune_step")]
    pub step: f64,
    /// GA: individuals per generation (the first of generation 0 is the starting weights).
    #[serde(default = "tune_population")]
    pub population: usize,
    /// GA: games per individual; generations = games / (population x games_per_individual).
    #[serde(default = "tune_games_per_individual")]
    pub games_per_individual: u32,
    #[serde(default = "ga_elite")]
    pub elite: f64,
    #[serde(default = "tune_tournament")]
    pub tournament: usize,
    /// GA: probability that a child's weight is redrawn.
    #[serde(default = "tune_mutation")]
    pub mutation: f64,
    /// Hill-climber: how a game's advantage vector is read (`tune::hillclimb`).
    #[serde(default, skip_serializing_if = "Advantage::is_variance")]
    pub advantage: Advantage,
}

/// How the hill-climber reads a game's advantage vector (`[tune]`'s `advantage`): the tuner's
/// own type (`tune::hillclimb::Reading`), so that the tuner needs nothing of the file format.
pub use crate::tune::hillclimb::Reading as Advantage;

fn tune_bounds() -> [f64; 2] {
    [0.0, 1.0]
}
fn tune_step() -> f64 {
    0.1
}
fn tune_population() -> usize {
    10
}
fn tune_games_per_individual() -> u32 {
    4
}
fn tune_tournament() -> usize {
    3
}
fn tune_mutation() -> f64 {
    0.2
}

impl TuneSpec {
    /// The GA settings of a `ga` tuner.
    pub fn ga_config(&self) -> GaConfig {
        GaConfig {
            population: self.population,
            elite: self.elite,
            tournament: self.tournament,
            mutation: self.mutation,
            bounds: (self.bounds[0], self.bounds[1]),
        }
    }

    /// GA generations the game budget buys.
    pub fn generations(&self) -> u32 {
        let per_generation = self.population as u64 * self.games_per_individual as u64;
        (self.games as u64 / per_generation.max(1)) as u32
    }

    /// What is wrong with the section, if anything (agents are checked by the grid).
    pub fn check(&self) -> Result<(), String> {
        if self.games == 0 && self.tuner != TunerName::None {
            return Err("games must be at least 1".into());
        }
        if self.eval_games == 0 {
            return Err("eval_games must be at least 1".into());
        }
        if !(self.bounds[0] < self.bounds[1]) || !self.bounds.iter().all(|b| b.is_finite()) {
            return Err(format!(
                "bounds must be [lo, hi] with lo < hi, got [{}, {}]",
                self.bounds[0], self.bounds[1]
            ));
        }
        if !(self.step > 0.0 && self.step.is_finite()) {
            return Err(format!("step must be positive, got {}", self.step));
        }
        if self.agent == self.opponent {
            return Err(
                "agent and opponent must be different labels (copy the agent for self-play)".into(),
            );
        }
        if self.tuner == TunerName::Ga {
            self.ga_config().check()?;
            if self.games_per_individual == 0 {
                return Err("games_per_individual must be at least 1".into());
            }
            if self.generations() == 0 {
                return Err(format!(
                    "games = {} buys no generation of {} individuals x {} games",
                    self.games, self.population, self.games_per_individual
                ));
            }
        }
        Ok(())
    }
}

/// The `[arena]` section of a GA experiment: every evolved table (one per GA job) plays as
/// SimpleMCTS with the table for its rollouts, against each other and the `agents` listed here,
/// in an arena tournament (every ordered pair `rounds` times).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArenaSpec {
    /// SimpleMCTS rollouts per move of the evolved agents.
    pub rollouts: u64,
    #[serde(default = "one")]
    pub rounds: u32,
    /// Further participants (baselines, built-ins), by label.
    #[serde(default)]
    pub agents: BTreeMap<String, AgentSpec>,
    #[serde(default)]
    pub stage: Option<StageRef>,
}

/// Evaluation strategies by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StrategyName {
    Det,
    Rnd,
    Mix,
    Mcts,
}

impl GaSpec {
    pub fn config(&self) -> GaConfig {
        GaConfig {
            population: self.population,
            elite: self.elite,
            tournament: self.tournament,
            mutation: self.mutation,
            bounds: (self.bounds[0], self.bounds[1]),
        }
    }

    pub fn evaluation(&self) -> Evaluation {
        let strategy = match self.strategy {
            StrategyName::Det => Strategy::Det,
            StrategyName::Rnd => Strategy::Rnd,
            StrategyName::Mix => Strategy::Mix,
            StrategyName::Mcts => Strategy::Mcts {
                rollouts: self.mcts_rollouts,
            },
        };
        Evaluation {
            strategy,
            subset: self.subset,
            draw: self.draw,
            measure: self.fitness,
        }
    }

    /// What is wrong with the section, if anything.
    pub fn check(&self) -> Result<(), String> {
        self.config().check()?;
        match (self.generations, self.time_s) {
            (Some(g), None) if g > 0 => {}
            (None, Some(t)) if t > 0.0 => {}
            (Some(_), Some(_)) => return Err("give either generations or time_s, not both".into()),
            (None, None) => return Err("a budget is needed: generations = N or time_s = T".into()),
            _ => return Err("the budget must be positive".into()),
        }
        if let Subset::Fraction(f) = self.subset
            && !(f > 0.0 && f <= 1.0)
        {
            return Err(format!(
                "subset must be a fraction in (0, 1] or \"full\", got {f}"
            ));
        }
        if self.strategy == StrategyName::Mcts && self.mcts_rollouts == 0 {
            return Err("mcts_rollouts must be at least 1".into());
        }
        if !(self.checkpoint_s > 0.0) {
            return Err("checkpoint_s must be positive".into());
        }
        Ok(())
    }
}

/// An experiment file as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentFile {
    /// Defaults to the file's stem.
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    pub kind: JobKind,
    pub game: GameName,
    /// The stage (every game but OpenSpiel's, which `openspiel` names).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<StageRef>,
    /// `game = "openspiel"`: the game, by OpenSpiel's name, and its parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openspiel: Option<crate::game::openspiel::OpenSpielSpec>,
    #[serde(default)]
    pub seed: u64,
    #[serde(default = "one")]
    pub repeats: u32,
    #[serde(default)]
    pub agents: BTreeMap<String, AgentSpec>,
    #[serde(default, rename = "match", skip_serializing_if = "Option::is_none")]
    pub match_: Option<MatchSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentSpec>,
    /// Matches and tournaments: the opening each colour-swapped pair starts from (see
    /// `experiment::openings`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<super::openings::OpeningsSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ga: Option<GaSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tune: Option<TuneSpec>,
    /// Life-and-death: how the problem library is generated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library: Option<LibrarySpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solve: Option<SolveSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tsumego_ga: Option<TsumegoGaSpec>,
    /// Dotted key -> values to sweep. Jobs = product of the axes x repeats.
    #[serde(default)]
    pub grid: BTreeMap<String, Vec<toml::Value>>,
    /// Dotted key -> values, all lists of one length, swept together as one more axis (the
    /// i-th job of the axis takes the i-th value of every key), e.g. a setting per table row.
    #[serde(default)]
    pub zip: BTreeMap<String, Vec<toml::Value>>,
    /// GA experiments: after the GA, a tournament of the evolved tables (the Othello report's
    /// evaluation of its GA settings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arena: Option<ArenaSpec>,
    /// Matches and tournaments: race the grid points (`experiment::race`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race: Option<race::RaceSpec>,
    /// The settings of a job kind registered from outside gamelab (`kind::registry::register`):
    /// a table the kind reads itself (gamelab's own kinds have their own sections).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<toml::Table>,
    #[serde(default)]
    pub report: ReportSpec,
}

/// Longest experiment name or agent label: both become parts of file names.
pub const MAX_NAME_LEN: usize = 64;

/// Whether `name` may be an experiment name or an agent label: 1 to 64 letters, digits, '-',
/// '_' or '.', not starting with '.'; such a name is one safe component of a path.
pub fn check_file_name(name: &str) -> Result<(), String> {
    let shown: String = name
        .chars()
        .take(40)
        .collect::<String>()
        .escape_debug()
        .to_string();
    let shown = if name.chars().count() > 40 {
        format!("{shown}...")
    } else {
        shown
    };
    if name.is_empty() {
        return Err("'' is empty: use 1 to 64 letters, digits, '-', '_' or '.'".into());
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        || name.starts_with('.')
    {
        return Err(format!(
            "'{shown}' must be letters, digits, '-', '_' or '.' (not first)"
        ));
    }
    if name.len() > MAX_NAME_LEN {
        return Err(format!(
            "'{shown}' has {} characters; at most {MAX_NAME_LEN}",
            name.len()
        ));
    }
    Ok(())
}

/// A parsed experiment file with its source, ready to expand.
#[derive(Clone, Debug)]
pub struct Experiment {
    pub path: PathBuf,
    pub text: String,
    pub file: ExperimentFile,
    /// The file as a TOML table (grid points are substituted into a copy of this).
    pub raw: toml::Table,
    pub name: String,
}

/// The setting a message starts with (`rollouts` of "rollouts = 0: the budget must be
/// positive"), if it starts with one.
pub fn leading_setting(message: &str) -> Option<&str> {
    message
        .split_once(" = ")
        .map(|(name, _)| name)
        .filter(|name| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

impl Experiment {
    /// Reads and parses an experiment file (the grid is checked by `experiment::expand`).
    pub fn load(path: &Path) -> Result<Experiment, InputError> {
        let text = crate::durable::read_input(path).map_err(|e| InputError {
            file: Some(path.to_path_buf()),
            line_col: None,
            key: None,
            message: format!("cannot read the experiment file: {e}"),
        })?;
        Experiment::from_text(path, text)
    }

    pub fn from_text(path: &Path, text: String) -> Result<Experiment, InputError> {
        let file: ExperimentFile = toml::from_str(&text)
            .map_err(|e| crate::experiment::error::from_toml(path, &text, &e))?;
        let raw: toml::Table = toml::from_str(&text)
            .map_err(|e| crate::experiment::error::from_toml(path, &text, &e))?;
        let name = match &file.name {
            Some(n) => n.clone(),
            None => path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "experiment".into()),
        };
        if let Err(e) = check_file_name(&name) {
            return Err(InputError::at_key(
                path,
                &text,
                "name",
                format!("{e} (it names a folder)"),
            ));
        }
        let arena_agents = file
            .arena
            .iter()
            .flat_map(|a| a.agents.keys().map(|l| ("arena.agents", l)));
        for (table, label) in file
            .agents
            .keys()
            .map(|l| ("agents", l))
            .chain(arena_agents)
        {
            if let Err(e) = check_file_name(label) {
                // The key as the file spells it; a line break in it is shown escaped (one line).
                return Err(InputError::at_key(
                    path,
                    &text,
                    &format!("{table}.{}", label.escape_debug()),
                    format!("agent label {e} (it names log files and table columns)"),
                ));
            }
        }
        let exp = Experiment {
            path: path.to_path_buf(),
            text,
            file,
            raw,
            name,
        };
        if let Some(race) = &exp.file.race {
            race.check(&exp)?;
        }
        Ok(exp)
    }

    /// Every swept key with its values, in the order of a job's swept values and row columns:
    /// the grid keys, then the zipped keys.
    pub fn swept_axes(&self) -> Vec<(&String, &Vec<toml::Value>)> {
        self.file.grid.iter().chain(self.file.zip.iter()).collect()
    }

    /// An error at `key`; a message that starts with one of the key's own settings
    /// (`rollouts = 0: ...`) points at that setting's line when the file has it there.
    pub fn error(&self, key: &str, message: impl Into<String>) -> InputError {
        let message = message.into();
        if let Some(name) = leading_setting(&message) {
            let full = format!("{key}.{name}");
            let e = InputError::at_key(&self.path, &self.text, &full, message.clone());
            if e.line_col.is_some() {
                return e;
            }
        }
        InputError::at_key(&self.path, &self.text, key, message)
    }

    /// The file's stage when it names a built-in one (`stage = "small6"`); None for an inline
    /// stage or none.
    pub fn stage_id(&self) -> Option<&str> {
        match &self.file.stage {
            Some(StageRef::Id(id)) => Some(id),
            _ => None,
        }
    }

    /// What to write in `[openings]` for this file's game and stage (`openings::suite_advice`).
    pub fn suite_advice(&self) -> String {
        super::openings::suite_advice(
            GAMES[self.file.game as usize],
            self.stage_id(),
            &self.base_dir(),
        )
    }

    /// The folder relative paths (table files) are taken from.
    pub fn base_dir(&self) -> PathBuf {
        self.path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    }
}
