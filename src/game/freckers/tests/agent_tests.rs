//! The Freckers agents: greedy and random-greedy choices, the agents built from their specs.

use super::*;
use crate::agent::AgentSpec;
use crate::agent::rollout::RolloutPolicy;
use crate::game::freckers::agents::{RandomGreedy, greedy_pick, vertical_gain};
use crate::play::play_game;
use statrs::distribution::{ChiSquared, ContinuousCDF};

#[test]
fn greedy_takes_a_move_of_the_greatest_gain() {
    let g = pos(WATER_LANDING);
    let mut rng = rng_from_seed(1);
    for _ in 0..20 {
        let a = greedy_pick(&g, &mut rng, &mut Vec::new()).unwrap();
        assert_eq!(
            g.move_name(a),
            "MOVE (2, 2) [DOWN-RIGHT, DOWN-RIGHT]",
            "the 4-row chain"
        );
        assert_eq!(vertical_gain(a, Player::First), 4);
    }
}

#[test]
fn random_greedy_draws_in_proportion_to_gain() {
    // Chi-square goodness of fit of 40,000 draws against weights = vertical gain.
    for text in [WATER_LANDING.to_string(), to_text(&Freckers::new(false))] {
        let g = pos(&text);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let weights: Vec<f64> = moves
            .iter()
            .map(|&a| vertical_gain(a, Player::First).max(0) as f64)
            .collect();
        let total: f64 = weights.iter().sum();
        let mut counts = vec![0u32; moves.len()];
        let mut rng = rng_from_seed(11);
        let n = 40_000;
        for _ in 0..n {
            let a = RandomGreedy.pick(&g, &mut rng, &mut Vec::new()).unwrap();
            counts[moves.iter().position(|&m| m == a).unwrap()] += 1;
        }
        let mut chi2 = 0.0;
        let mut cells = 0;
        for (c, w) in counts.iter().zip(&weights) {
            if *w == 0.0 {
                assert_eq!(*c, 0, "an action without gain is never drawn");
                continue;
            }
            let expected = n as f64 * w / total;
            chi2 += (*c as f64 - expected).powi(2) / expected;
            cells += 1;
        }
        let critical = ChiSquared::new((cells - 1) as f64)
            .unwrap()
            .inverse_cdf(0.999);
        assert!(
            chi2 < critical,
            "chi2 {chi2:.1} >= {critical:.1} with {cells} cells"
        );
    }
}

#[test]
fn random_greedy_and_mcts_beat_random() {
    let start = Freckers::new(false);
    let spec = |t: &str| -> AgentSpec { toml::from_str(t).unwrap() };
    let random = spec("kind = \"random\"");
    for (label, agent, games, must_win) in [
        (
            "random_greedy",
            spec("kind = \"random_greedy\""),
            10u32,
            9usize,
        ),
        (
            "freckers_mcts",
            spec("kind = \"freckers_mcts\"\niterations = 100"),
            2,
            2,
        ),
    ] {
        let wins = (0..games)
            .filter(|&i| {
                let (first, second) = if i % 2 == 0 {
                    ((label, &agent), ("random", &random))
                } else {
                    (("random", &random), (label, &agent))
                };
                let row = play_game(&start, first, second, 100 + i as u64, i, "standard").unwrap();
                (row.winner == "first") == (i % 2 == 0) && row.winner != "draw"
            })
            .count();
        assert!(
            wins >= must_win,
            "{label} won {wins} of {games} against random"
        );
    }
}
