//! One game between two agents, from their specs to its record: the game loop every job kind
//! shares (matches, tournaments, the GA's evaluation games). Knows games and agents, not
//! experiments or files.

use crate::agent::{Agent, AgentSpec, Arena};
use crate::game::{Outcome, Player};
use crate::rng::rng_from_seed;
use anyhow::Result;
use std::time::Instant;

/// One game, from the point of view of the seat that moved first. (`Default` is for building
/// rows in tests and benches; serde is for the units of a distributed run, `experiment::remote`.)
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameRow {
    pub game: u32,
    /// The colour-swapped pair of games this one belongs to (None when it has no partner).
    pub pair: Option<u32>,
    pub stage: String,
    pub first_agent: String,
    pub second_agent: String,
    /// "first", "second" or "draw".
    #[serde(deserialize_with = "one_of_the_names")]
    pub winner: Name,
    pub first_score: i32,
    pub second_score: i32,
    /// Moves played, passes included.
    pub plies: u32,
    pub wall_ms: f64,
    pub first_simulations: u64,
    pub second_simulations: u64,
    pub first_nodes: u64,
    pub second_nodes: u64,
    /// The longest time either agent thought about one move, in ms.
    pub first_max_move_ms: f64,
    pub second_max_move_ms: f64,
    /// The largest search tree either agent held after a move, in bytes (None without a tree).
    pub first_peak_tree_bytes: Option<u64>,
    pub second_peak_tree_bytes: Option<u64>,
    /// Moves each agent chose.
    pub first_moves: u32,
    pub second_moves: u32,
    /// The mean depth each depth-limited search completed per move (None for other agents).
    pub first_depth: Option<f64>,
    pub second_depth: Option<f64>,
    /// The share of move-list lookups the agent's move cache answered (None without a cache).
    pub first_cache_hit_rate: Option<f64>,
    pub second_cache_hit_rate: Option<f64>,
    /// External agents: the clock their time ran on (`cpu`, `wall`) and the time their moves
    /// took on it over the game, in ms (None for built-in agents).
    #[serde(default)]
    pub first_clock: Option<String>,
    #[serde(default)]
    pub second_clock: Option<String>,
    #[serde(default)]
    pub first_clock_ms: Option<f64>,
    #[serde(default)]
    pub second_clock_ms: Option<f64>,
    /// External agents under the random-move fault rule (Colosseum's course): moves played at
    /// random for their faults (None for other agents).
    #[serde(default)]
    pub first_random_moves: Option<u32>,
    #[serde(default)]
    pub second_random_moves: Option<u32>,
    /// Per move of each side, in order: think time in ms (to 0.1 ms), and tree size in kB
    /// after the move (to 0.1 kB; None for an agent without a tree).
    pub first_think_ms: Vec<f64>,
    pub second_think_ms: Vec<f64>,
    pub first_tree_kb: Option<Vec<f64>>,
    pub second_tree_kb: Option<Vec<f64>>,
    pub first_budget: String,
    pub second_budget: String,
    /// The moves in the game's notation, concatenated (passes left out, as in Othello
    /// transcripts).
    pub transcript: String,
    /// How the game ended: `normal`, or the fault of the agent that lost by it
    /// (`illegal_move`, `timeout`, `crash`, `protocol_error`, `memory`, `resign`; external
    /// agents only).
    #[serde(deserialize_with = "one_of_the_names")]
    pub termination: Name,
    /// The fault's evidence: the offending line, or what happened (empty when normal).
    pub fault_detail: String,
    /// Games with a random setup (Colosseum): the start position in the game's text format, so
    /// the row replays from `start_position` and `transcript` alone (None for fixed starts).
    pub start_position: Option<String>,
    /// The opening the game started with (its moves begin `transcript`), when the job has
    /// `[openings]`.
    pub opening: Option<String>,
}

/// A row's `winner` or `termination`: one of `NAMES`. (An alias, so that serde's derive, which
/// borrows every field spelled `&str` from its input, reads it through `one_of_the_names`.)
pub type Name = &'static str;

/// The words a row's `winner` and `termination` take.
const NAMES: [&str; 10] = [
    "first",
    "second",
    "draw",
    "normal",
    "illegal_move",
    "timeout",
    "crash",
    "protocol_error",
    "memory",
    "resign",
];

/// Reads a `winner` or `termination` back (a distributed run's rows come from its workers).
fn one_of_the_names<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let s = <String as serde::Deserialize>::deserialize(d)?;
    NAMES
        .iter()
        .find(|n| **n == s)
        .copied()
        .ok_or_else(|| serde::de::Error::custom(format!("'{s}' is not a winner or a termination")))
}

/// The seed an agent is given for a game (external agents receive it in `newgame` and the
/// adapters seed Python's `random` and numpy's global generator with it): from the game's seed
/// and the seat only, so the same game gets the same seed on any thread count and after a
/// resume. Below 2^32, so that every generator takes it as it is.
pub fn agent_seed(game_seed: u64, seat: Player) -> u64 {
    crate::rng::derive_seed(game_seed, &[0x5eed_a9e7, seat as u64]) & 0xffff_ffff
}

/// The result of a game for one seat, from the row's `winner` ("first", "second" or "draw"):
/// 1 for a win, 0.5 for a draw, 0 for a loss.
pub fn seat_result(winner: &str, first: bool) -> f64 {
    match (winner, first) {
        ("draw", _) => 0.5,
        ("first", true) | ("second", false) => 1.0,
        _ => 0.0,
    }
}

/// Plays one game between two agent specs from `start`; `seed` fixes every random choice.
pub fn play_game<G: Arena>(
    start: &G,
    first: (&str, &AgentSpec),
    second: (&str, &AgentSpec),
    seed: u64,
    index: u32,
    stage: &str,
) -> Result<GameRow> {
    play_game_observed(start, first, second, seed, index, stage, None)
}

/// `play_game`, calling `observe(before, after)` after every move (a tuner's view of the game).
pub fn play_game_observed<G: Arena>(
    start: &G,
    first: (&str, &AgentSpec),
    second: (&str, &AgentSpec),
    seed: u64,
    index: u32,
    stage: &str,
    mut observe: Option<&mut dyn FnMut(&G, &G)>,
) -> Result<GameRow> {
    let mut agents: [Box<dyn Agent<G>>; 2] = [
        G::build_agent(first.1, start).map_err(|e| anyhow::anyhow!(e))?,
        G::build_agent(second.1, start).map_err(|e| anyhow::anyhow!(e))?,
    ];
    let plans = [
        first.1.budget_plan().map_err(|e| anyhow::anyhow!(e))?,
        second.1.budget_plan().map_err(|e| anyhow::anyhow!(e))?,
    ];
    let mut moved = [0u32; 2];
    let mut max_move_ms = [0.0f64; 2];
    let mut move_ms: [Vec<f64>; 2] = Default::default();
    let mut move_tree_kb: [Vec<f64>; 2] = Default::default();
    let mut rng = rng_from_seed(seed);
    let mut game = start.clone();
    let mut transcript = String::new();
    let mut plies = 0u32;
    let t0 = Instant::now();
    let mut legal = Vec::new();
    for (a, seat) in agents.iter_mut().zip([Player::First, Player::Second]) {
        a.begin(seat, agent_seed(seed, seat));
    }
    let mut fault = None;
    let outcome = loop {
        if let Some(o) = game.outcome() {
            break o;
        }
        let side = game.to_move().index();
        let budget = plans[side].for_move(moved[side]);
        let think = Instant::now();
        let mv = agents[side].choose(&game, &mut rng, budget);
        let ms = think.elapsed().as_secs_f64() * 1e3;
        max_move_ms[side] = max_move_ms[side].max(ms);
        move_ms[side].push(tenth(ms));
        move_tree_kb[side].push(tenth(agents[side].effort().last_tree_bytes as f64 / 1e3));
        moved[side] += 1;
        // A fault (external agents) ends the game as a loss for the agent at fault.
        if let Some(f) = agents[side].fault() {
            fault = Some(f);
            break Outcome::Win(if side == 0 {
                Player::Second
            } else {
                Player::First
            });
        }
        legal.clear();
        game.legal_moves(&mut legal);
        anyhow::ensure!(
            legal.contains(&mv),
            "agent '{}' chose an illegal move {mv:?}",
            [first.0, second.0][side]
        );
        transcript.push_str(&game.transcript_name(mv));
        match observe.as_mut() {
            Some(f) => {
                let before = game.clone();
                game.play(mv);
                f(&before, &game);
            }
            None => game.play(mv),
        }
        for a in agents.iter_mut() {
            a.observe(mv);
        }
        plies += 1;
    };
    // Faults that cost a move, not the game (the random-move rule), in the detail of a game
    // that ended normally: which seat, which move, the fault, the move played for it.
    let replaced = [agents[0].replaced_faults(), agents[1].replaced_faults()];
    let replaced_detail = {
        let mut notes = Vec::new();
        for (seat, faults) in ["first", "second"].iter().zip(&replaced) {
            for note in faults.iter().flatten() {
                notes.push(format!("{seat}: {note}"));
            }
        }
        crate::agent::external::capped_detail(notes.join("; "))
    };
    let winner = match outcome {
        Outcome::Win(Player::First) => "first",
        Outcome::Win(Player::Second) => "second",
        Outcome::Draw => "draw",
    };
    agents[0].end(seat_result(winner, true));
    agents[1].end(seat_result(winner, false));
    let scores = game.scores();
    let effort = [agents[0].effort(), agents[1].effort()];
    let budgets = [
        agents[0]
            .budget_text()
            .unwrap_or_else(|| plans[0].describe()),
        agents[1]
            .budget_text()
            .unwrap_or_else(|| plans[1].describe()),
    ];
    Ok(GameRow {
        game: index,
        pair: None,
        stage: stage.to_string(),
        first_agent: first.0.to_string(),
        second_agent: second.0.to_string(),
        winner,
        first_score: scores[0],
        second_score: scores[1],
        plies,
        wall_ms: t0.elapsed().as_secs_f64() * 1e3,
        first_simulations: effort[0].simulations,
        second_simulations: effort[1].simulations,
        first_nodes: effort[0].nodes,
        second_nodes: effort[1].nodes,
        first_max_move_ms: max_move_ms[0],
        second_max_move_ms: max_move_ms[1],
        first_peak_tree_bytes: (effort[0].peak_tree_bytes > 0).then_some(effort[0].peak_tree_bytes),
        second_peak_tree_bytes: (effort[1].peak_tree_bytes > 0)
            .then_some(effort[1].peak_tree_bytes),
        first_moves: moved[0],
        second_moves: moved[1],
        first_depth: mean_depth(&effort[0]),
        second_depth: mean_depth(&effort[1]),
        first_cache_hit_rate: hit_rate(&effort[0]),
        second_cache_hit_rate: hit_rate(&effort[1]),
        first_clock: effort[0].clock.map(str::to_string),
        second_clock: effort[1].clock.map(str::to_string),
        first_clock_ms: clock_ms(&effort[0]),
        second_clock_ms: clock_ms(&effort[1]),
        first_random_moves: replaced[0].as_ref().map(|f| f.len() as u32),
        second_random_moves: replaced[1].as_ref().map(|f| f.len() as u32),
        first_tree_kb: (effort[0].peak_tree_bytes > 0).then(|| move_tree_kb[0].clone()),
        second_tree_kb: (effort[1].peak_tree_bytes > 0).then(|| move_tree_kb[1].clone()),
        first_think_ms: std::mem::take(&mut move_ms[0]),
        second_think_ms: std::mem::take(&mut move_ms[1]),
        first_budget: budgets[0].clone(),
        second_budget: budgets[1].clone(),
        transcript,
        termination: fault.as_ref().map_or("normal", |f| f.kind.name()),
        fault_detail: fault.map(|f| f.detail).unwrap_or(replaced_detail),
        start_position: None,
        opening: None,
    })
}

/// The time an external agent's moves took on its clock, in ms to a microsecond.
fn clock_ms(e: &crate::agent::Effort) -> Option<f64> {
    e.clock.map(|_| e.clock_used_us as f64 / 1e3)
}

fn mean_depth(e: &crate::agent::Effort) -> Option<f64> {
    (e.searches > 0).then(|| e.depth_sum as f64 / e.searches as f64)
}

fn hit_rate(e: &crate::agent::Effort) -> Option<f64> {
    (e.cache_lookups > 0).then(|| e.cache_hits as f64 / e.cache_lookups as f64)
}

/// A value rounded to a tenth (think times and tree sizes: finer is noise).
fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
