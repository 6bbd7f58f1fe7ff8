//! Game-generic agents and the agent spec that experiment files use to name them.
//!
//! An agent chooses a move for the side to move. Agents are built from an `AgentSpec` (the
//! `kind` and its parameters in an experiment file); adding a kind means one enum arm here and
//! one module. Agents that only make sense for one game (the Othello arena's greedy, corners and
//! positional players) live in that game's folder and are built by its `Arena` impl.
//!
//! Budgets follow DESIGN.md: `choose` takes the `Budget` for this move; the match runner holds
//! each player's budget, taken from its spec. Iteration budgets are reproducible; time budgets
//! exist because the reports used them and rows record which kind was used.

pub mod alphabeta;
pub mod external;
pub mod flat_mc;
pub mod hybrid;
pub mod move_cache;
pub mod random;
pub mod rollout;
pub mod table;
pub mod uct;

use crate::game::{CellGame, Game};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use std::time::Duration;
pub use table::{TableRef, WeightTable};

/// How much an agent may search for one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Rollouts (flat Monte Carlo) or iterations (UCT) per move.
    Iterations(u64),
    /// Wall time per move.
    Time(Duration),
    /// The agent does not search.
    None,
}

impl Budget {
    /// A short text for rows: "200 it", "50 ms" or "-".
    pub fn describe(&self) -> String {
        match self {
            Budget::Iterations(n) => format!("{n} it"),
            Budget::Time(d) => format!("{} ms", d.as_millis()),
            Budget::None => "-".into(),
        }
    }
}

/// The search effort an agent has spent since it was built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// Rollouts played to the end of the game.
    pub simulations: u64,
    /// Tree nodes created (0 for agents without a tree).
    pub nodes: u64,
    /// The largest search tree held at the end of a move, in bytes (nodes x node size plus
    /// their move lists; 0 for agents without a tree).
    pub peak_tree_bytes: u64,
    /// The search tree held at the end of the last move, in bytes.
    pub last_tree_bytes: u64,
    /// Depth-limited searches: the sum of the depths completed, over `searches` moves searched.
    pub depth_sum: u64,
    pub searches: u64,
    /// Move lists answered by the move cache, of those asked for (0 without a cache).
    pub cache_hits: u64,
    pub cache_lookups: u64,
    /// External agents: the clock their time runs on (`cpu` or `wall`, `external::ClockKind`)
    /// and the time their moves took on it, in microseconds. None for built-in agents.
    pub clock: Option<&'static str>,
    pub clock_used_us: u64,
}

/// A player of `G`.
pub trait Agent<G: Game>: Send {
    /// The move to play in `game` (which is not over).
    fn choose(&mut self, game: &G, rng: &mut GameRng, budget: Budget) -> G::Move;
    /// Told every move played in the game (its own and the opponent's), for agents that keep
    /// state across moves.
    fn observe(&mut self, _mv: G::Move) {}
    fn effort(&self) -> Effort {
        Effort::default()
    }
    /// Told its seat and the game's agent seed before the game's first move (external agents
    /// start their game here and pass the seed on). `seed` comes from the game's own seed and
    /// the seat (`play::agent_seed`), so it does not depend on threads or resumption.
    fn begin(&mut self, _seat: crate::game::Player, _seed: u64) {}
    /// Told its result (1, 0.5 or 0) when the game is over.
    fn end(&mut self, _result: f64) {}
    /// A fault that ends the game as a loss for this agent (external agents: an illegal move,
    /// a protocol error, a timeout, a crash); asked after every `choose`.
    fn fault(&mut self) -> Option<external::Fault> {
        None
    }

    /// External agents under the random-move fault rule (`external::FaultRule`): the faults
    /// that cost a move rather than the game, each with the move played for it, for the rows.
    /// None for agents without that rule.
    fn replaced_faults(&self) -> Option<Vec<String>> {
        None
    }
    /// How the rows describe the agent's budget, when the spec's budget does not say it.
    fn budget_text(&self) -> Option<String> {
        None
    }
}

/// The largest game clock (`game_time_s`): a year, far past any game, and far inside what a
/// `Duration` holds (a larger value panicked when the clock was split into move times).
pub const MAX_GAME_TIME_S: f64 = 365.0 * 24.0 * 3600.0;
/// The longest time a move may be given, in ms (a year, as the game clock).
pub const MAX_MOVE_MS: u64 = 365 * 24 * 3600 * 1000;

/// The largest move cache (`move_cache`, positions): its table is allocated when the agent is
/// built, so a larger value asked the system for more memory than any machine has (4e9 asked for
/// 146 GB and aborted; 2^63 overflowed the table's capacity and panicked). Ten million positions
/// is a few GB; the reports use 100,000.
pub const MAX_MOVE_CACHE: usize = 10_000_000;

fn check_move_cache(n: usize) -> Result<(), String> {
    if n > MAX_MOVE_CACHE {
        return Err(format!(
            "move_cache = {n} is past the largest move cache, {MAX_MOVE_CACHE} positions"
        ));
    }
    Ok(())
}

/// An agent's budgets for a whole game: the per-move budget, the first move's when it differs,
/// or a game clock spread geometrically (seconds, decay).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BudgetPlan {
    usual: Budget,
    first: Option<Budget>,
    clock: Option<(f64, f64)>,
}

impl BudgetPlan {
    /// The budget of the agent's `k`-th move (0-based, its own moves only).
    pub fn for_move(&self, k: u32) -> Budget {
        match (self.clock, k, self.first) {
            (Some((t, decay)), _, _) => Budget::Time(Duration::from_secs_f64(
                t * (1.0 - decay) * decay.powi(k as i32),
            )),
            (None, 0, Some(first)) => first,
            _ => self.usual,
        }
    }

    /// The budget as the rows' budget column writes it.
    pub fn describe(&self) -> String {
        match (self.clock, self.first) {
            (Some((t, decay)), _) => format!("{t} s per game, x {decay} per move"),
            (None, Some(f)) => format!("{} (first {})", self.usual.describe(), f.describe()),
            (None, None) => self.usual.describe(),
        }
    }
}

/// The final-move rule of UCT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FinalMove {
    /// Most visits (the robust child).
    #[default]
    MostVisits,
    /// Best mean value.
    BestMean,
}

fn default_c() -> f64 {
    std::f64::consts::SQRT_2
}
fn one() -> u32 {
    1
}
fn two() -> f64 {
    2.0
}
fn thousand() -> u32 {
    1000
}
fn three() -> u32 {
    3
}
fn yes() -> bool {
    true
}
fn is_default<T: Default + PartialEq>(x: &T) -> bool {
    *x == T::default()
}

/// How Freckers rollouts draw their random actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Generator {
    /// Exactly uniform over the legal actions.
    #[default]
    Exact,
    /// The report's lazy generator (cheaper, biased).
    Lazy,
}

fn one_f() -> f64 {
    1.0
}
fn half() -> f64 {
    0.5
}
fn quarter() -> f64 {
    0.25
}
fn center_fade() -> u32 {
    20
}
fn c_max() -> f64 {
    1.5
}
fn moves_at_max() -> f64 {
    200.0
}
fn final_k() -> f64 {
    5.0
}
fn epsilon() -> f64 {
    0.2
}
fn ab_depth() -> u32 {
    8
}
fn decay() -> f64 {
    0.96
}

/// How UCT's exploration constant is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ExplorationName {
    #[default]
    Constant,
    Annealed,
}

/// Rollout policies by name (a weight table is given with `table` instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RolloutName {
    /// Uniform over legal moves.
    Uniform,
    /// Colosseum: the course's random agent's move.
    CourseRandom,
}

/// An agent as an experiment file names it: `kind` plus that kind's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AgentSpec {
    /// Uniform over legal moves.
    Random {},
    /// Othello arena: most discs flipped now; ties to the first move in row-major order.
    /// Freckers: the most rows gained; ties at random.
    Greedy {},
    /// Freckers: a random action weighted by its vertical gain (the report's random greedy).
    RandomGreedy {},
    /// Othello arena: first legal corner, else a random edge move, else greedy.
    Corners {},
    /// Othello arena: best by the classic 8x8 table; greedy on other sizes.
    Positional {},
    /// Random, each move weighted by its cell's value in `table`.
    WeightedRandom { table: TableRef },
    /// Deterministic: the move whose cell has the highest value in `table`; ties row-major.
    TablePlayer { table: TableRef },
    /// The Othello report's SimpleMCTS (Algorithm 1): the move's budget split evenly over the
    /// legal moves, rollouts after each, best win rate. Rollouts are uniform, or weighted by
    /// `table` when given.
    SimpleMcts {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rollouts: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_ms: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table: Option<TableRef>,
    },
    /// Upper Confidence bounds applied to Trees (see `uct.rs` for every option).
    Uct {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        iterations: Option<u64>,
        /// Budget in simulations instead of iterations.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        simulations: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_ms: Option<u64>,
        /// A different time for the first move (the Colosseum course gave 30 s).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_move_ms: Option<u64>,
        /// Exploration constant C in mean + C sqrt(ln N / n).
        #[serde(default = "default_c")]
        c: f64,
        /// `constant` (C as given) or `annealed` (C = e^(1/depth) - 1).
        #[serde(default)]
        exploration: ExplorationName,
        #[serde(default)]
        expansion: uct::Expansion,
        /// Rollouts played from each new leaf.
        #[serde(default = "one")]
        rollouts_per_leaf: u32,
        #[serde(default)]
        final_move: FinalMove,
        /// Play an immediately winning move at once; leave immediately losing moves out.
        #[serde(default)]
        root_checks: bool,
        /// Keep the tree between moves, re-rooted on the moves played.
        #[serde(default)]
        reuse_tree: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rollout: Option<RolloutName>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table: Option<TableRef>,
    },
    /// Seed 004's agent: UCT with C = e^(1/depth) - 1, full expansion with `sims_per_child`
    /// simulations per new child, tree reuse, final move = best win rate. The budget counts
    /// simulations (or time), so settings of `sims_per_child` compare at equal work.
    AnnealedUct {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        simulations: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_ms: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_move_ms: Option<u64>,
        #[serde(default = "three")]
        sims_per_child: u32,
        #[serde(default = "yes")]
        reuse_tree: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rollout: Option<RolloutName>,
    },
    /// Freckers: the report's MCTS: UCT with progressive widening, epsilon-greedy rollouts and
    /// the prior bias h / ln(1 + n), h a weighted mean of vertical gain, cohesion and mobility
    /// growth.
    FreckersMcts {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        iterations: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_ms: Option<u64>,
        /// A clock for the whole game spread geometrically: move k (of this agent) gets
        /// game_time_s x (1 - decay) x decay^k seconds (the report's early-heavy budgeting).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game_time_s: Option<f64>,
        #[serde(default = "decay")]
        decay: f64,
        #[serde(default = "default_c")]
        c: f64,
        /// Progressive widening: at most ceil(widening_k N^widening_alpha) children.
        #[serde(default = "one_f")]
        widening_k: f64,
        #[serde(default = "half")]
        widening_alpha: f64,
        /// Share of greedy moves in rollouts.
        #[serde(default = "epsilon")]
        epsilon: f64,
        /// Weight of the prior bias in selection.
        #[serde(default = "one_f")]
        prior: f64,
        #[serde(default = "one_f")]
        gain: f64,
        #[serde(default = "half")]
        cohesion: f64,
        #[serde(default = "half")]
        mobility: f64,
        /// The random part of rollouts: exactly uniform, or the report's lazy generator.
        #[serde(default, skip_serializing_if = "is_default")]
        generator: Generator,
        /// Positions whose move lists an LRU cache keeps (0: no cache).
        #[serde(default, skip_serializing_if = "is_default")]
        move_cache: usize,
    },
    /// Alpha-beta minimax with iterative deepening to `depth`, under a node or time budget (or
    /// none: every depth in full); moves shuffled at every node when `shuffle`. Freckers
    /// evaluation: a weighted sum of the features of `freckers::agents::EVAL_FEATURES`
    /// (distance alone by default, the report's final choice).
    Alphabeta {
        #[serde(default = "ab_depth")]
        depth: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nodes: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_ms: Option<u64>,
        /// A game clock spread geometrically, as for freckers_mcts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game_time_s: Option<f64>,
        #[serde(default = "decay")]
        decay: f64,
        #[serde(default = "yes")]
        shuffle: bool,
        /// The Freckers evaluation's weights (`WeightedEval`, the vector a tuner changes).
        #[serde(default = "one_f")]
        distance: f64,
        #[serde(default)]
        mobility: f64,
        #[serde(default, skip_serializing_if = "is_default")]
        home: f64,
        #[serde(default, skip_serializing_if = "is_default")]
        jumps: f64,
        #[serde(default, skip_serializing_if = "is_default")]
        cohesion: f64,
        /// Positions whose move lists an LRU cache keeps (0: no cache).
        #[serde(default, skip_serializing_if = "is_default")]
        move_cache: usize,
    },
    /// The Freckers report's hybrid: `early` for the game's first `switch_ply` plies, then
    /// `late`, each with its own budget.
    Hybrid {
        switch_ply: u32,
        early: Box<AgentSpec>,
        late: Box<AgentSpec>,
    },
    /// Colosseum: the course's random agent (a random walk of 0..K steps, then a random free
    /// wall side), the reports' "random_agent".
    CourseRandom {},
    /// Colosseum: seed 003's heuristic agent (section 2.1).
    Heuristic {
        /// Weight of the adversary's number of moves after ours (minimised).
        #[serde(default = "one_f")]
        adv_moves: f64,
        /// Weight of the distance to the adversary (minimised).
        #[serde(default = "half")]
        adv_distance: f64,
        /// Weight of the distance to the centre (minimised), at the first move...
        #[serde(default = "half")]
        center: f64,
        /// ...fading linearly to 0 over this many plies of the game.
        #[serde(default = "center_fade")]
        center_fade: u32,
    },
    /// Another program, speaking gamelab's line protocol (docs/protocol.md).
    External(external::ExternalSpec),
    /// OpenSpiel's `MCTSBot` (random-rollout evaluator), through the OpenSpiel bridge
    /// (`game::openspiel`): OpenSpiel games and gamelab's Othello on the standard board.
    OpenspielMcts {
        /// UCT's exploration constant.
        #[serde(default = "two")]
        uct_c: f64,
        /// Simulations per move.
        #[serde(default = "thousand")]
        max_simulations: u32,
        /// Random rollouts per leaf.
        #[serde(default = "one")]
        rollouts: u32,
        /// Whether proven wins and losses are backed up exactly (MCTS-Solver).
        #[serde(default = "yes")]
        solve: bool,
    },
    /// OpenSpiel's uniform random bot (through the bridge; gamelab's `random` is the same
    /// policy without it).
    OpenspielRandom {},
    /// OpenSpiel's exact alpha-beta search to the end of the game (small games only:
    /// tic_tac_toe; OpenSpiel's games have no evaluation function for a depth limit).
    OpenspielAlphabeta {},
    /// Colosseum: seed 003's popcoin, UCT with heuristic-biased selection and final move,
    /// C by the number of moves, root checks and tree reuse.
    Popcoin {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        iterations: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_ms: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_move_ms: Option<u64>,
        /// Weight of the win rate in selection.
        #[serde(default = "one_f")]
        win: f64,
        /// Weight of 1 - adversary moves / their maximum, in selection.
        #[serde(default = "quarter")]
        adv_moves: f64,
        /// Weight of 1 - distance to the adversary / its maximum, in selection.
        #[serde(default = "quarter")]
        adv_distance: f64,
        #[serde(default = "half")]
        c_min: f64,
        #[serde(default = "c_max")]
        c_max: f64,
        #[serde(default = "moves_at_max")]
        moves_at_max: f64,
        /// Final move: alpha = avg visits / (avg visits + final_k) weighs the win rate.
        #[serde(default = "final_k")]
        final_k: f64,
    },
}

/// Agent kinds with the parameters each takes, for `gamelab list`.
pub const AGENT_KINDS: [(&str, &str); 20] = [
    ("random", "uniform over legal moves"),
    (
        "external",
        "your own program over gamelab's line protocol (docs/protocol.md): command = [\"python3\", \"my_agent.py\"]; cwd, env, init_timeout_ms = 10000; time_ms [first_move_ms] | game_time_s (default: the course's rule); grace_ms = 500",
    ),
    (
        "greedy",
        "Othello arena: most discs flipped, ties row-major; Freckers: most rows gained, ties at random",
    ),
    ("random_greedy", "Freckers: random, weighted by rows gained"),
    (
        "freckers_mcts",
        "Freckers: iterations | time_ms | game_time_s (+ decay = 0.96); c = 1.414, widening_k = 1, widening_alpha = 0.5, epsilon = 0.2, prior = 1, gain = 1, cohesion = 0.5, mobility = 0.5; generator = exact|lazy; move_cache = 0 (LRU positions)",
    ),
    (
        "corners",
        "Othello arena: corner, else random edge, else greedy",
    ),
    (
        "positional",
        "Othello arena: classic 8x8 table (greedy on other sizes)",
    ),
    (
        "weighted_random",
        "table = NAME | [[rows]] | \"path\": random weighted by cell value",
    ),
    (
        "table_player",
        "table = ...: best cell value, ties row-major",
    ),
    (
        "simple_mcts",
        "rollouts = N | time_ms = T per move; table = ... for weighted rollouts",
    ),
    (
        "uct",
        "iterations = N | simulations = N | time_ms = T [first_move_ms = T]; c = 1.414; exploration = constant|annealed; expansion = one|all; rollouts_per_leaf = 1; final_move = most_visits|best_mean; root_checks; reuse_tree; rollout = uniform|course_random | table = ...",
    ),
    (
        "annealed_uct",
        "simulations = N | time_ms = T [first_move_ms]; sims_per_child = 3; reuse_tree = true (seed 004)",
    ),
    (
        "alphabeta",
        "Freckers: depth = 8; nodes = N | time_ms = T | game_time_s (+ decay) (or none); shuffle = true; weights distance = 1, home = 0, mobility = 0, jumps = 0, cohesion = 0; move_cache = 0 (LRU positions)",
    ),
    (
        "hybrid",
        "switch_ply = P; early = { kind = ... }; late = { kind = ... } (each with its own budget)",
    ),
    ("course_random", "Colosseum: the course's random agent"),
    (
        "heuristic",
        "Colosseum: adv_moves = 1, adv_distance = 0.5, center = 0.5, center_fade = 20 (seed 003, 2.1)",
    ),
    (
        "popcoin",
        "Colosseum: iterations | time_ms [first_move_ms]; win = 1, adv_moves = 0.25, adv_distance = 0.25, c_min = 0.5, c_max = 1.5, moves_at_max = 200, final_k = 5",
    ),
    (
        "openspiel_mcts",
        "OpenSpiel's MCTSBot in the OpenSpiel bridge (game = \"openspiel\", and Othello standard8): uct_c = 2, max_simulations = 1000, rollouts = 1, solve = true",
    ),
    (
        "openspiel_random",
        "OpenSpiel's uniform random bot, in the bridge",
    ),
    (
        "openspiel_alphabeta",
        "OpenSpiel's exact alpha-beta to the end of the game (small games: tic_tac_toe)",
    ),
];

impl AgentSpec {
    /// The weight vector a tuner may change; None for kinds without one. Alpha-beta: its
    /// Freckers evaluation weights, in `freckers::agents::EVAL_FEATURES` order.
    pub fn weights(&self) -> Option<[f64; 5]> {
        match self {
            AgentSpec::Alphabeta {
                distance,
                home,
                mobility,
                jumps,
                cohesion,
                ..
            } => Some([*distance, *home, *mobility, *jumps, *cohesion]),
            _ => None,
        }
    }

    /// The spec with its weight vector replaced by `w` (in `weights` order); unchanged for kinds
    /// without one.
    pub fn with_weights(&self, w: &[f64]) -> AgentSpec {
        let mut spec = self.clone();
        if let AgentSpec::Alphabeta {
            distance,
            home,
            mobility,
            jumps,
            cohesion,
            ..
        } = &mut spec
        {
            [*distance, *home, *mobility, *jumps, *cohesion] = [w[0], w[1], w[2], w[3], w[4]];
        }
        spec
    }

    pub fn kind_name(&self) -> &'static str {
        match self {
            AgentSpec::Random {} => "random",
            AgentSpec::Greedy {} => "greedy",
            AgentSpec::RandomGreedy {} => "random_greedy",
            AgentSpec::Alphabeta { .. } => "alphabeta",
            AgentSpec::Hybrid { .. } => "hybrid",
            AgentSpec::FreckersMcts { .. } => "freckers_mcts",
            AgentSpec::Corners {} => "corners",
            AgentSpec::Positional {} => "positional",
            AgentSpec::WeightedRandom { .. } => "weighted_random",
            AgentSpec::TablePlayer { .. } => "table_player",
            AgentSpec::SimpleMcts { .. } => "simple_mcts",
            AgentSpec::Uct { .. } => "uct",
            AgentSpec::AnnealedUct { .. } => "annealed_uct",
            AgentSpec::CourseRandom {} => "course_random",
            AgentSpec::Heuristic { .. } => "heuristic",
            AgentSpec::Popcoin { .. } => "popcoin",
            AgentSpec::External(_) => "external",
            AgentSpec::OpenspielMcts { .. } => "openspiel_mcts",
            AgentSpec::OpenspielRandom {} => "openspiel_random",
            AgentSpec::OpenspielAlphabeta {} => "openspiel_alphabeta",
        }
    }

    /// The game clock spread geometrically, if the spec has one: (seconds, decay).
    fn game_clock(&self) -> Option<(f64, f64)> {
        match self {
            AgentSpec::FreckersMcts {
                game_time_s: Some(t),
                decay,
                ..
            }
            | AgentSpec::Alphabeta {
                game_time_s: Some(t),
                decay,
                ..
            } => Some((*t, *decay)),
            _ => None,
        }
    }

    /// Checks the numeric parameters that have a meaningful range: exploration constants are
    /// finite and >= 0, probabilities lie in [0, 1], weights are finite, and so on.
    pub fn check_numbers(&self) -> Result<(), String> {
        let finite = |name: &str, x: f64| {
            if x.is_finite() {
                Ok(())
            } else {
                Err(format!("{name} = {x} must be a finite number"))
            }
        };
        let at_least = |name: &str, x: f64, lo: f64| {
            finite(name, x)?;
            if x >= lo {
                Ok(())
            } else {
                Err(format!("{name} = {x} must be at least {lo}"))
            }
        };
        let within = |name: &str, x: f64, lo: f64, hi: f64| {
            finite(name, x)?;
            if (lo..=hi).contains(&x) {
                Ok(())
            } else {
                Err(format!("{name} = {x} must lie in [{lo}, {hi}]"))
            }
        };
        match self {
            AgentSpec::Uct {
                c,
                rollouts_per_leaf,
                ..
            } => {
                at_least("c", *c, 0.0)?;
                if *rollouts_per_leaf == 0 {
                    return Err("rollouts_per_leaf must be at least 1".into());
                }
            }
            AgentSpec::AnnealedUct { sims_per_child, .. } if *sims_per_child == 0 => {
                return Err("sims_per_child must be at least 1".into());
            }
            AgentSpec::FreckersMcts {
                c,
                widening_k,
                widening_alpha,
                epsilon,
                prior,
                gain,
                cohesion,
                mobility,
                move_cache,
                ..
            } => {
                check_move_cache(*move_cache)?;
                at_least("c", *c, 0.0)?;
                if !(widening_k.is_finite() && *widening_k > 0.0) {
                    return Err(format!("widening_k = {widening_k} must be positive"));
                }
                within("widening_alpha", *widening_alpha, 0.0, 1.0)?;
                within("epsilon", *epsilon, 0.0, 1.0)?;
                for (name, x) in [
                    ("prior", prior),
                    ("gain", gain),
                    ("cohesion", cohesion),
                    ("mobility", mobility),
                ] {
                    finite(name, *x)?;
                }
            }
            AgentSpec::Alphabeta {
                distance,
                mobility,
                home,
                jumps,
                cohesion,
                depth,
                move_cache,
                ..
            } => {
                check_move_cache(*move_cache)?;
                if *depth == 0 {
                    return Err("depth must be at least 1".into());
                }
                for (name, x) in [
                    ("distance", distance),
                    ("mobility", mobility),
                    ("home", home),
                    ("jumps", jumps),
                    ("cohesion", cohesion),
                ] {
                    finite(name, *x)?;
                }
            }
            AgentSpec::External(e) => e.check()?,
            AgentSpec::Hybrid { early, late, .. } => {
                early.check_numbers().map_err(|e| format!("early: {e}"))?;
                late.check_numbers().map_err(|e| format!("late: {e}"))?;
            }
            AgentSpec::Heuristic {
                adv_moves,
                adv_distance,
                center,
                ..
            } => {
                for (name, x) in [
                    ("adv_moves", adv_moves),
                    ("adv_distance", adv_distance),
                    ("center", center),
                ] {
                    finite(name, *x)?;
                }
            }
            AgentSpec::Popcoin {
                win,
                adv_moves,
                adv_distance,
                c_min,
                c_max,
                moves_at_max,
                final_k,
                ..
            } => {
                for (name, x) in [
                    ("win", win),
                    ("adv_moves", adv_moves),
                    ("adv_distance", adv_distance),
                ] {
                    finite(name, *x)?;
                }
                at_least("c_min", *c_min, 0.0)?;
                at_least("c_max", *c_max, *c_min)?;
                if !(moves_at_max.is_finite() && *moves_at_max > 0.0) {
                    return Err(format!("moves_at_max = {moves_at_max} must be positive"));
                }
                at_least("final_k", *final_k, 0.0)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Every budget of the agent's game, resolved (and checked) once.
    pub fn budget_plan(&self) -> Result<BudgetPlan, String> {
        Ok(BudgetPlan {
            usual: self.budget()?,
            first: self.first_move_budget()?,
            clock: self.game_clock(),
        })
    }

    /// The per-move budget, checking that a searching agent has exactly one.
    pub fn budget(&self) -> Result<Budget, String> {
        if let Some((t, decay)) = self.game_clock() {
            let others = match self {
                AgentSpec::FreckersMcts {
                    iterations,
                    time_ms,
                    ..
                } => iterations.is_some() || time_ms.is_some(),
                AgentSpec::Alphabeta { nodes, time_ms, .. } => nodes.is_some() || time_ms.is_some(),
                _ => false,
            };
            if others {
                return Err("give one budget: game_time_s or a per-move budget, not both".into());
            }
            if !(t > 0.0 && t.is_finite() && decay > 0.0 && decay < 1.0) {
                return Err(format!(
                    "game_time_s must be positive and decay in (0, 1), got {t} and {decay}"
                ));
            }
            if t > MAX_GAME_TIME_S {
                return Err(format!(
                    "game_time_s = {t:e} is past the largest game clock, {MAX_GAME_TIME_S} s"
                ));
            }
            return Ok(Budget::Time(Duration::from_secs_f64(t * (1.0 - decay))));
        }
        let pick = |options: &[(&str, Option<u64>)]| -> Result<Budget, String> {
            let given: Vec<&(&str, Option<u64>)> =
                options.iter().filter(|(_, v)| v.is_some()).collect();
            let names = options
                .iter()
                .map(|(n, _)| format!("{n} = N"))
                .collect::<Vec<_>>()
                .join(" or ");
            match given.as_slice() {
                [] => Err(format!("a budget is needed: {names}")),
                [(n, Some(0))] => Err(format!("{n} = 0: the budget must be positive")),
                [("time_ms", Some(t))] if *t > MAX_MOVE_MS => Err(format!(
                    "time_ms = {t} is past the longest move time, {MAX_MOVE_MS} ms (a year)"
                )),
                [("time_ms", Some(t))] => Ok(Budget::Time(Duration::from_millis(*t))),
                [(_, Some(n))] => Ok(Budget::Iterations(*n)),
                _ => Err(format!(
                    "give one budget: {names}, not {}",
                    given
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(" and ")
                )),
            }
        };
        match self {
            AgentSpec::SimpleMcts {
                rollouts, time_ms, ..
            } => pick(&[("rollouts", *rollouts), ("time_ms", *time_ms)]),
            AgentSpec::Uct {
                iterations,
                simulations,
                time_ms,
                ..
            } => pick(&[
                ("iterations", *iterations),
                ("simulations", *simulations),
                ("time_ms", *time_ms),
            ]),
            AgentSpec::AnnealedUct {
                simulations,
                time_ms,
                ..
            } => pick(&[("simulations", *simulations), ("time_ms", *time_ms)]),
            AgentSpec::Popcoin {
                iterations,
                time_ms,
                ..
            }
            | AgentSpec::FreckersMcts {
                iterations,
                time_ms,
                ..
            } => pick(&[("iterations", *iterations), ("time_ms", *time_ms)]),
            AgentSpec::Alphabeta {
                nodes: None,
                time_ms: None,
                ..
            } => Ok(Budget::None),
            AgentSpec::Alphabeta { nodes, time_ms, .. } => {
                pick(&[("nodes", *nodes), ("time_ms", *time_ms)])
            }
            AgentSpec::Hybrid { early, late, .. } => {
                early.budget().map_err(|e| format!("early: {e}"))?;
                late.budget().map_err(|e| format!("late: {e}"))?;
                Ok(Budget::None)
            }
            _ => Ok(Budget::None),
        }
    }

    /// The budget of the agent's first move, when it differs (`first_move_ms`, with `time_ms`).
    pub fn first_move_budget(&self) -> Result<Option<Budget>, String> {
        let (first, time) = match self {
            AgentSpec::Uct {
                first_move_ms,
                time_ms,
                ..
            }
            | AgentSpec::AnnealedUct {
                first_move_ms,
                time_ms,
                ..
            }
            | AgentSpec::Popcoin {
                first_move_ms,
                time_ms,
                ..
            } => (*first_move_ms, *time_ms),
            _ => (None, None),
        };
        match (first, time) {
            (None, _) => Ok(None),
            (Some(0), _) => Err("first_move_ms must be positive".into()),
            (Some(f), _) if f > MAX_MOVE_MS => Err(format!(
                "first_move_ms = {f} is past the longest move time, {MAX_MOVE_MS} ms (a year)"
            )),
            (Some(f), Some(_)) => Ok(Some(Budget::Time(Duration::from_millis(f)))),
            (Some(_), None) => Err("first_move_ms goes with a time budget (time_ms)".into()),
        }
    }

    /// The UCT configuration of the tree-search kinds (None for others).
    pub fn uct_config(&self) -> Option<uct::UctConfig> {
        use uct::{Exploration, FinalRule, UctConfig};
        let final_rule = |f: &FinalMove| match f {
            FinalMove::MostVisits => FinalRule::MostVisits,
            FinalMove::BestMean => FinalRule::BestMean,
        };
        Some(match self {
            AgentSpec::Uct {
                simulations,
                c,
                exploration,
                expansion,
                rollouts_per_leaf,
                final_move,
                root_checks,
                reuse_tree,
                ..
            } => UctConfig {
                exploration: match exploration {
                    ExplorationName::Constant => Exploration::Constant(*c),
                    ExplorationName::Annealed => Exploration::Annealed,
                },
                expansion: *expansion,
                rollouts_per_leaf: *rollouts_per_leaf,
                final_move: final_rule(final_move),
                root_checks: *root_checks,
                reuse_tree: *reuse_tree,
                count_simulations: simulations.is_some(),
                ..UctConfig::plain(*c)
            },
            AgentSpec::AnnealedUct {
                sims_per_child,
                reuse_tree,
                ..
            } => UctConfig {
                exploration: Exploration::Annealed,
                expansion: uct::Expansion::All,
                rollouts_per_leaf: *sims_per_child,
                final_move: FinalRule::BestMean,
                reuse_tree: *reuse_tree,
                count_simulations: true,
                ..UctConfig::plain(0.0)
            },
            AgentSpec::Popcoin {
                win,
                adv_moves,
                adv_distance,
                c_min,
                c_max,
                moves_at_max,
                final_k,
                ..
            } => UctConfig {
                exploration: Exploration::ByMoves {
                    c_min: *c_min,
                    c_max: *c_max,
                    moves_at_max: *moves_at_max,
                },
                final_move: FinalRule::HeuristicMix { k: *final_k },
                root_checks: true,
                reuse_tree: true,
                win_weight: *win,
                heuristic_weight: adv_moves + adv_distance,
                ..UctConfig::plain(0.0)
            },
            AgentSpec::FreckersMcts {
                c,
                widening_k,
                widening_alpha,
                prior,
                ..
            } => UctConfig {
                widening: Some((*widening_k, *widening_alpha)),
                prior_weight: *prior,
                ..UctConfig::plain(*c)
            },
            _ => return None,
        })
    }

    /// The rollout policy a tree search asked for by name (None: the game's default).
    pub fn rollout_name(&self) -> Option<RolloutName> {
        match self {
            AgentSpec::Uct { rollout, .. } | AgentSpec::AnnealedUct { rollout, .. } => *rollout,
            _ => None,
        }
    }

    /// Replaces every table reference by its values, so the resolved spec (and the job hash)
    /// carries the table itself. Paths are relative to `base_dir`.
    pub fn resolve_tables(&mut self, base_dir: &std::path::Path) -> Result<(), String> {
        match self {
            AgentSpec::External(e) => e.resolve_files(),
            AgentSpec::WeightedRandom { table } | AgentSpec::TablePlayer { table } => {
                table.resolve(base_dir)
            }
            AgentSpec::SimpleMcts { table: Some(t), .. }
            | AgentSpec::Uct { table: Some(t), .. } => t.resolve(base_dir),
            _ => Ok(()),
        }
    }
}

/// Builds the game-generic agent kinds for games with per-cell weight tables; `Ok(None)` for
/// kinds a game must build itself.
pub fn build_generic<G: CellGame>(
    spec: &AgentSpec,
    start: &G,
) -> Result<Option<Box<dyn Agent<G>>>, String> {
    use rollout::{Uniform, Weighted};
    let table = |t: &TableRef| t.table_for(start.board_size());
    Ok(Some(match spec {
        AgentSpec::Random {} => Box::new(random::RandomAgent),
        AgentSpec::WeightedRandom { table: t } => {
            Box::new(random::PolicyAgent(Weighted::new(table(t)?)?))
        }
        AgentSpec::TablePlayer { table: t } => Box::new(random::TablePlayer::new(table(t)?)),
        AgentSpec::SimpleMcts { table: None, .. } => Box::new(flat_mc::SimpleMcts::new(Uniform)),
        AgentSpec::SimpleMcts { table: Some(t), .. } => {
            Box::new(flat_mc::SimpleMcts::new(Weighted::new(table(t)?)?))
        }
        AgentSpec::Uct { table: Some(t), .. } => {
            if spec.rollout_name().is_some() {
                return Err(
                    "give either `table` (weighted rollouts) or `rollout`, not both".into(),
                );
            }
            Box::new(uct::Uct::new(
                spec.uct_config().expect("uct"),
                Weighted::new(table(t)?)?,
            ))
        }
        AgentSpec::Uct { .. } | AgentSpec::AnnealedUct { .. } => match spec.rollout_name() {
            None | Some(RolloutName::Uniform) => Box::new(uct::Uct::new(
                spec.uct_config().expect("tree search"),
                Uniform,
            )),
            Some(RolloutName::CourseRandom) => {
                return Err("rollout = \"course_random\" is a Colosseum policy".into());
            }
        },
        // Kinds of other games: the game refused them before (`refuse_other_kinds`).
        AgentSpec::CourseRandom {}
        | AgentSpec::Heuristic { .. }
        | AgentSpec::Popcoin { .. }
        | AgentSpec::RandomGreedy {}
        | AgentSpec::FreckersMcts { .. }
        | AgentSpec::Alphabeta { .. }
        | AgentSpec::Hybrid { .. }
        | AgentSpec::Greedy {}
        | AgentSpec::Corners {}
        | AgentSpec::Positional {}
        | AgentSpec::External(_)
        | AgentSpec::OpenspielMcts { .. }
        | AgentSpec::OpenspielRandom {}
        | AgentSpec::OpenspielAlphabeta {} => return Ok(None),
    }))
}

/// The agent kinds each game plays (the `game` key's values; `hybrid` and the table players
/// name the kinds inside them separately). Each game's `build_agent` refuses the others with
/// one message (`refuse_other_kinds`), an unknown kind's error lists only these
/// (`experiment::error`), and a test builds every listed kind for its game.
pub const KINDS_BY_GAME: [(&str, &str, &[&str]); 4] = [
    (
        "othello",
        "Othello",
        &[
            "random",
            "greedy",
            "corners",
            "positional",
            "weighted_random",
            "table_player",
            "simple_mcts",
            "uct",
            "annealed_uct",
            "external",
            "openspiel_mcts",
            "openspiel_random",
            "openspiel_alphabeta",
        ],
    ),
    (
        "freckers",
        "Freckers",
        &[
            "random",
            "greedy",
            "random_greedy",
            "freckers_mcts",
            "alphabeta",
            "hybrid",
            "uct",
            "annealed_uct",
            "external",
        ],
    ),
    (
        "colosseum",
        "Colosseum",
        &[
            "random",
            "course_random",
            "heuristic",
            "popcoin",
            "uct",
            "annealed_uct",
            "external",
        ],
    ),
    (
        "openspiel",
        "OpenSpiel games",
        &[
            "random",
            "uct",
            "external",
            "openspiel_mcts",
            "openspiel_random",
            "openspiel_alphabeta",
        ],
    ),
];

/// The agent kinds `game` plays (None for a game without agents or an unknown name).
pub fn kinds_for(game: &str) -> Option<&'static [&'static str]> {
    KINDS_BY_GAME
        .iter()
        .find(|(g, ..)| *g == game)
        .map(|(.., kinds)| *kinds)
}

/// Err naming the kinds `game` plays when `spec`'s kind is not one of them.
pub fn refuse_other_kinds(game: &str, spec: &AgentSpec) -> Result<(), String> {
    let kind = spec.kind_name();
    let (_, label, kinds) = KINDS_BY_GAME
        .iter()
        .find(|(g, ..)| *g == game)
        .copied()
        .unwrap_or((game, game, &[]));
    if kinds.contains(&kind) {
        return Ok(());
    }
    let elsewhere: Vec<&str> = KINDS_BY_GAME
        .iter()
        .filter(|(.., k)| k.contains(&kind))
        .map(|(_, label, _)| *label)
        .collect();
    Err(format!(
        "agent kind `{kind}` does not play {label} (it plays {}; {label}'s kinds: {})",
        elsewhere.join(", "),
        kinds.join(", ")
    ))
}

/// A game that experiments can play: it knows how to build every agent kind it supports.
pub trait Arena: Game {
    /// Builds the agent `spec` for games starting at `start`.
    fn build_agent(spec: &AgentSpec, start: &Self) -> Result<Box<dyn Agent<Self>>, String>;
}

#[cfg(test)]
mod kinds_by_game_tests {
    use super::*;

    /// The smallest agent section of each kind (a budget where one is needed).
    fn minimal_spec(kind: &str) -> AgentSpec {
        let body = match kind {
            "external" => "command = [\"python3\", \"x.py\"]\ntime_ms = 300",
            "freckers_mcts" | "uct" | "popcoin" => "iterations = 15",
            "weighted_random" | "table_player" => "table = \"classic\"",
            "simple_mcts" => "rollouts = 6",
            "annealed_uct" => "simulations = 8",
            "alphabeta" => "nodes = 40",
            "hybrid" => {
                "switch_ply = 4\nearly = { kind = \"random\" }\nlate = { kind = \"random\" }"
            }
            _ => "",
        };
        toml::from_str(&format!("kind = \"{kind}\"\n{body}"))
            .unwrap_or_else(|e| panic!("{kind}: {e}"))
    }

    /// Every kind a game lists builds for it (or fails for its own reason, not the refusal:
    /// OpenSpiel's bots need Python with pyspiel), and every other kind is refused.
    fn check<G: Arena>(game: &str, start: &G) {
        let listed = kinds_for(game).unwrap();
        for (kind, _) in AGENT_KINDS {
            let built = G::build_agent(&minimal_spec(kind), start);
            let refused = matches!(&built, Err(e) if e.contains("does not play"));
            assert_eq!(
                refused,
                !listed.contains(&kind),
                "{game} {kind}: {:?}",
                built.err()
            );
        }
        for kind in listed {
            assert!(AGENT_KINDS.iter().any(|(k, _)| k == kind), "{game}: {kind}");
        }
    }

    #[test]
    fn each_game_plays_exactly_the_kinds_it_lists() {
        check(
            "othello",
            &crate::game::othello::Othello::from_stage_id("standard8"),
        );
        check("freckers", &crate::game::freckers::Freckers::new(false));
        let mut rng = crate::rng::rng_from_seed(1);
        check(
            "colosseum",
            &crate::game::colosseum::Colosseum::random_setup(8, &mut rng).unwrap(),
        );
    }
}
