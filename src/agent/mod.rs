//! Game-generic agents and the agent spec that experiment files use to name them.
//!
//! An agent chooses a move for the side to move. Agents are built from an `AgentSpec` (the
//! `kind` and its parameters in an experiment file, `spec.rs`); adding a kind means one enum
//! arm in `spec.rs`, one in `build_generic` here, and one module. Agents that only make sense for one game (the Othello arena's greedy, corners and
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

mod spec;
pub use spec::*;

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

/// One budget for every move: no first-move allowance, no game clock.
impl From<Budget> for BudgetPlan {
    fn from(usual: Budget) -> BudgetPlan {
        BudgetPlan {
            usual,
            first: None,
            clock: None,
        }
    }
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
        | AgentSpec::Uci(_)
        | AgentSpec::Gtp(_)
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
            "gtp",
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
            "uci",
            "gtp",
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
            "external" | "gtp" | "uci" => "command = [\"python3\", \"x.py\"]\ntime_ms = 300",
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
