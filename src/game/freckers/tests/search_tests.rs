//! The Freckers searches: alpha-beta, MCTS and the hybrid on known positions.

use super::*;
use crate::agent::alphabeta::{AlphaBeta, Evaluator, terminal_value};
use crate::agent::hybrid::Hybrid;
use crate::agent::{Agent, Budget};
use crate::agent::{AgentSpec, Arena};
use crate::game::freckers::agents::{WeightedEval, eval_features};

const FIVE_HOME: &str = "turn red
. . . . . . . .
. . . . . . . .
. . . . . . . .
B B B B B B . .
. . . . . . . .
. . . . . . . .
* * . . . . R .
R R R R R . * .
";

#[test]
fn alphabeta_takes_the_winning_move() {
    let g = pos(FIVE_HOME);
    let mut ab = AlphaBeta::new(WeightedEval::distance(1.0, 0.0), 3, true);
    let a = ab.choose(&g, &mut rng_from_seed(2), Budget::None);
    assert_eq!(g.move_name(a), "MOVE (6, 6) [DOWN]");
}

/// Plain minimax without pruning, for comparison.
fn minimax(g: &Freckers, depth: u32, ply: u32, eval: &WeightedEval) -> f64 {
    if let Some(o) = g.outcome() {
        return terminal_value(o, g.to_move(), ply);
    }
    if depth == 0 {
        return eval.evaluate(g, g.to_move());
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut n = *g;
            n.play(m);
            -minimax(&n, depth - 1, ply + 1, eval)
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn alphabeta_chooses_a_move_of_the_minimax_value() {
    let eval = WeightedEval::distance(1.0, 0.0);
    let mut rng = rng_from_seed(8);
    let mut g = Freckers::new(false);
    for step in 0..24 {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        if step % 4 == 0 {
            let best = minimax(&g, 3, 0, &eval);
            let mut ab = AlphaBeta::new(eval, 3, true);
            let a = ab.choose(&g, &mut rng_from_seed(step), Budget::None);
            assert_eq!(ab.last_depth, 3);
            let mut after = g;
            after.play(a);
            assert_eq!(
                -minimax(&after, 2, 1, &eval),
                best,
                "move {} at step {step}",
                g.move_name(a)
            );
        }
        g.play(moves[below(&mut rng, moves.len())]);
    }
}

#[test]
fn a_node_budget_stops_the_deepening_at_a_complete_depth() {
    let g = Freckers::new(false);
    let mut ab = AlphaBeta::new(WeightedEval::distance(1.0, 0.0), 8, true);
    ab.choose(&g, &mut rng_from_seed(1), Budget::Iterations(3000));
    assert!(
        ab.last_depth >= 2 && ab.last_depth < 8,
        "depth {}",
        ab.last_depth
    );
    let mut tiny = AlphaBeta::new(WeightedEval::distance(1.0, 0.0), 8, true);
    tiny.choose(&g, &mut rng_from_seed(1), Budget::Iterations(1));
    assert_eq!(tiny.last_depth, 1, "depth 1 always completes");
}

#[test]
fn the_move_cache_changes_no_choice_and_is_hit_by_the_deepening() {
    use crate::agent::move_cache::MoveSource;
    let mut g = Freckers::new(false);
    let mut rng = rng_from_seed(12);
    for step in 0..12u64 {
        let mut plain = AlphaBeta::new(WeightedEval::distance(1.0, 0.0), 3, true);
        let mut cached = AlphaBeta::new(WeightedEval::distance(1.0, 0.0), 3, true)
            .with_moves(MoveSource::lru(10_000));
        let a = plain.choose(&g, &mut rng_from_seed(step), Budget::None);
        let b = cached.choose(&g, &mut rng_from_seed(step), Budget::None);
        assert_eq!(a, b, "step {step}");
        let e = Agent::<Freckers>::effort(&cached);
        // Depth 3 after depths 1 and 2: at least the root's children come back.
        assert!(e.cache_hits > 0 && e.cache_hits < e.cache_lookups, "{e:?}");
        assert_eq!(Agent::<Freckers>::effort(&plain).cache_lookups, 0);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        g.play(moves[below(&mut rng, moves.len())]);
    }
    let spec = |cache: usize| -> AgentSpec {
        toml::from_str(&format!(
            "kind = \"freckers_mcts\"\niterations = 300\nmove_cache = {cache}"
        ))
        .unwrap()
    };
    let (mut plain, mut cached) = (
        Freckers::build_agent(&spec(0), &g).unwrap(),
        Freckers::build_agent(&spec(5000), &g).unwrap(),
    );
    for seed in 0..3 {
        assert_eq!(
            plain.choose(&g, &mut rng_from_seed(seed), Budget::Iterations(300)),
            cached.choose(&g, &mut rng_from_seed(seed), Budget::Iterations(300))
        );
    }
    assert!(cached.effort().cache_hits > 0);
}

#[test]
fn evaluation_features_are_zero_at_the_symmetric_start_and_follow_a_move() {
    let start = Freckers::new(false);
    assert_eq!(eval_features(&start, Player::First, [true; 5]), [0.0; 5]);
    let mut g = start;
    g.play(g.parse_action("MOVE (0, 1) [DOWN]").unwrap());
    let f = eval_features(&g, Player::First, [true; 5]);
    assert_eq!(f[0], 1.0, "one row gained");
    assert_eq!(f[1], 0.0);
    assert_eq!(eval_features(&g, Player::Second, [true; 5])[0], -1.0);
    assert_eq!(
        eval_features(&g, Player::First, [true, false, false, false, false])[2..],
        [0.0; 3]
    );
    let w = WeightedEval {
        weights: [2.0, 0.0, 0.0, 0.0, 0.0],
    };
    assert_eq!(w.evaluate(&g, Player::First), 2.0);
}

/// Always plays GROW.
struct Grower;
impl Agent<Freckers> for Grower {
    fn choose(&mut self, _: &Freckers, _: &mut crate::rng::GameRng, _: Budget) -> Action {
        GROW
    }
}

#[test]
fn the_hybrid_hands_over_at_its_ply() {
    let mut g = Freckers::new(false);
    let late = AlphaBeta::new(WeightedEval::distance(1.0, 0.0), 2, false);
    let mut h = Hybrid::new(
        (Box::new(Grower), Budget::None.into()),
        (Box::new(late), Budget::None.into()),
        4,
    );
    let mut rng = rng_from_seed(4);
    let mut chosen = Vec::new();
    for _ in 0..6 {
        let a = h.choose(&g, &mut rng, Budget::None);
        chosen.push(a == GROW);
        g.play(a);
        h.observe(a);
    }
    // Plies 0-3 by the early agent (GROW), from ply 4 the late one advances a frog.
    assert_eq!(chosen, [true, true, true, true, false, false]);
}

/// Grows, keeping each budget it is given.
#[derive(Default)]
struct BudgetKeeper(std::sync::Arc<std::sync::Mutex<Vec<Budget>>>);
impl Agent<Freckers> for BudgetKeeper {
    fn choose(&mut self, _: &Freckers, _: &mut crate::rng::GameRng, b: Budget) -> Action {
        self.0.lock().unwrap().push(b);
        GROW
    }
}

/// A hybrid whose parts have game clocks (`game_time_s`) gives each move that move's share of
/// the one clock, counted in the hybrid's own moves from the game's start, across the switch:
/// not the first move's share every move.
#[test]
fn a_hybrid_spreads_its_parts_game_clocks_over_its_own_moves() {
    let clock: crate::agent::AgentSpec =
        toml::from_str("kind = \"alphabeta\"\ngame_time_s = 100\ndecay = 0.5").unwrap();
    let plan = clock.budget_plan().unwrap();
    let (early, late) = (BudgetKeeper::default(), BudgetKeeper::default());
    let (seen_early, seen_late) = (early.0.clone(), late.0.clone());
    let mut h = Hybrid::new((Box::new(early), plan), (Box::new(late), plan), 4);
    let mut g = Freckers::new(false);
    let mut rng = rng_from_seed(4);
    // The hybrid plays both sides here: its moves 0-7 are plies 0-7.
    for _ in 0..8 {
        let a = h.choose(&g, &mut rng, Budget::None);
        g.play(a);
        h.observe(a);
    }
    let secs = |v: &Vec<Budget>| -> Vec<f64> {
        v.iter()
            .map(|b| match b {
                Budget::Time(d) => d.as_secs_f64(),
                other => panic!("{other:?}"),
            })
            .collect()
    };
    // Moves 0-3 early, then late, each its share of the one clock: 50, 25, 12.5, ...
    assert_eq!(secs(&seen_early.lock().unwrap()), [50.0, 25.0, 12.5, 6.25]);
    assert_eq!(
        secs(&seen_late.lock().unwrap()),
        [3.125, 1.5625, 0.78125, 0.390625]
    );
}

#[test]
fn a_game_clock_is_spread_geometrically_over_the_moves() {
    let spec: crate::agent::AgentSpec =
        toml::from_str("kind = \"alphabeta\"\ngame_time_s = 180\ndecay = 0.9").unwrap();
    let plan = spec.budget_plan().unwrap();
    let secs = |k: u32| match plan.for_move(k) {
        Budget::Time(d) => d.as_secs_f64(),
        other => panic!("{other:?}"),
    };
    assert!((secs(0) - 18.0).abs() < 1e-9, "180 x (1 - 0.9)");
    assert!((secs(1) - 16.2).abs() < 1e-9);
    assert!(
        (0..75).all(|k| secs(k + 1) < secs(k)),
        "early moves get more"
    );
    let total: f64 = (0..150).map(secs).sum();
    assert!(total < 180.0, "the shares never exceed the clock: {total}");
    let both: crate::agent::AgentSpec =
        toml::from_str("kind = \"alphabeta\"\ngame_time_s = 180\nnodes = 5").unwrap();
    assert!(both.budget().unwrap_err().contains("not both"));
    let bad: crate::agent::AgentSpec =
        toml::from_str("kind = \"freckers_mcts\"\ngame_time_s = 180\ndecay = 1.0").unwrap();
    assert!(bad.budget().unwrap_err().contains("decay in (0, 1)"));
}
