//! The agent file format: `AgentSpec`, the `kind` and parameters an experiment file's
//! `[agents.NAME]` section names, with its serde defaults and checks, and the names of the
//! choices some kinds take (final move, exploration, rollout, generator). The Agent contract and
//! the building of agents from a spec are in `agent` (mod.rs).

use super::*;

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
    /// A chess engine speaking UCI (Stockfish), on OpenSpiel's chess (docs/protocol.md,
    /// "Other people's engines"; `external::engine`).
    Uci(external::ExternalSpec),
    /// A Go program speaking GTP (GNU Go), on OpenSpiel's go.
    Gtp(external::ExternalSpec),
    /// OpenSpiel's C++ `MCTSBot` (`pyspiel.MCTSBot`, C++ random-rollout evaluator), through the OpenSpiel bridge
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
pub const AGENT_KINDS: [(&str, &str); 22] = [
    ("random", "uniform over legal moves"),
    (
        "external",
        "your own program over gamelab's line protocol (docs/protocol.md): command = [\"python3\", \"my_agent.py\"]; cwd, env, init_timeout_ms = 10000; time_ms [first_move_ms] | game_time_s (default: the course's rule); grace_ms = 500",
    ),
    (
        "uci",
        "a chess engine over UCI (Stockfish) on OpenSpiel's chess: command; nodes | depth | time_ms; options = { Threads = 1, Hash = 16 }; tell_time = true (docs/protocol.md)",
    ),
    (
        "gtp",
        "a program over GTP: Go (GNU Go) on OpenSpiel's go, Othello (Edax -gtp) on standard8: command; time_ms; tell_time = true (docs/protocol.md)",
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
        "OpenSpiel's C++ MCTSBot in the OpenSpiel bridge (game = \"openspiel\", and Othello standard8): uct_c = 2, max_simulations = 1000, rollouts = 1, solve = true",
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

    /// Another program's section and the protocol it speaks: `external`, `uci` and `gtp`.
    pub fn external(&self) -> Option<(&external::ExternalSpec, external::Dialect)> {
        use external::Dialect;
        match self {
            AgentSpec::External(e) => Some((e, Dialect::Gamelab)),
            AgentSpec::Uci(e) => Some((e, Dialect::Uci)),
            AgentSpec::Gtp(e) => Some((e, Dialect::Gtp)),
            _ => None,
        }
    }

    /// `external`'s section, to set what the runner sets (its log file).
    pub fn external_mut(&mut self) -> Option<&mut external::ExternalSpec> {
        match self {
            AgentSpec::External(e) | AgentSpec::Uci(e) | AgentSpec::Gtp(e) => Some(e),
            _ => None,
        }
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
            AgentSpec::Uci(_) => "uci",
            AgentSpec::Gtp(_) => "gtp",
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
            AgentSpec::External(e) | AgentSpec::Uci(e) | AgentSpec::Gtp(e) => {
                e.check(self.external().expect("external").1)?
            }
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
            AgentSpec::External(e) | AgentSpec::Uci(e) | AgentSpec::Gtp(e) => e.resolve_files(),
            AgentSpec::WeightedRandom { table } | AgentSpec::TablePlayer { table } => {
                table.resolve(base_dir)
            }
            AgentSpec::SimpleMcts { table: Some(t), .. }
            | AgentSpec::Uct { table: Some(t), .. } => t.resolve(base_dir),
            _ => Ok(()),
        }
    }
}
