//! Rules facts of the rules page, perft, strict against lenient jumps, notation and the text
//! format.

use super::text::{parse, to_text};
use super::*;
use crate::rng::{below, rng_from_seed};
use proptest::prelude::*;

fn pos(text: &str) -> Freckers {
    parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn names(g: &Freckers) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    v.iter().map(|&a| g.move_name(a)).collect()
}

#[test]
fn the_start_has_21_actions_and_perft_2_is_441() {
    let g = Freckers::new(false);
    let n = names(&g);
    assert_eq!(n.len(), 21);
    assert!(n.contains(&"GROW".to_string()));
    assert!(
        n.contains(&"MOVE (0, 2) [LEFT]".to_string()),
        "the jump over (0,1) to (0,0): {n:?}"
    );
    assert!(n.contains(&"MOVE (0, 5) [RIGHT]".to_string()));
    assert_eq!(perft(&g, 1), 21);
    assert_eq!(perft(&g, 2), 441);
    assert_eq!(perft(&Freckers::new(true), 2), 441);
}

#[test]
fn grow_from_the_start_adds_two_pads() {
    let mut g = Freckers::new(false);
    let before = g.pads();
    g.play(GROW);
    assert_eq!(g.pads() & !before, 1 << 8 | 1 << 15, "only (1,0) and (1,7)");
}

#[test]
fn a_move_leaves_water_behind() {
    let mut g = Freckers::new(false);
    let a = g.parse_action("MOVE (0, 3) [DOWN]").unwrap();
    g.play(a);
    assert_eq!(g.frogs(Player::First) >> 11 & 1, 1);
    assert_eq!(g.pads() >> 3 & 1, 0, "(0,3) is water now");
    assert_eq!(g.pads() >> 11 & 1, 0, "the pad under the frog is not free");
    assert_eq!(g.to_move(), Player::Second);
}

/// Red at (2,2) can jump down-right over Blue's (3,3) to (4,4), which is water, and on over its
/// own (5,5) to the pad at (6,6).
const WATER_LANDING: &str = "turn red
. . . . . . . B
. . . . . . . .
. . R . . . . .
. . . B . . . .
. . . . . . . .
. . . . . R . .
. . . . . . * .
R R R R B B B B
";

#[test]
fn lenient_and_strict_jumps_differ_on_a_water_landing() {
    let lenient = names(&pos(WATER_LANDING));
    let strict = names(&pos(&format!("rule strict\n{WATER_LANDING}")));
    let chain = "MOVE (2, 2) [DOWN-RIGHT, DOWN-RIGHT]".to_string();
    assert!(lenient.contains(&chain), "{lenient:?}");
    assert!(!strict.contains(&chain), "{strict:?}");
    assert!(strict.iter().all(|m| lenient.contains(m)));
    assert_eq!(lenient.len(), strict.len() + 1);
    // (4,4) itself is water: never a destination.
    assert!(!lenient.contains(&"MOVE (2, 2) [DOWN-RIGHT]".to_string()));
}

#[test]
fn jumps_over_own_frogs_and_sideways_moves_in_the_goal_row() {
    let text = "turn red
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
R . . . . . . .
B B B B B B . .
. R R R R R * *
";
    let n = names(&pos(text));
    assert!(
        n.contains(&"MOVE (7, 5) [RIGHT]".to_string()),
        "a sideways step in the goal row: {n:?}"
    );
    assert!(
        n.contains(&"MOVE (7, 4) [RIGHT]".to_string()),
        "a jump over its own frog to (7,6): {n:?}"
    );
    // (5,0) can only jump over (6,0) or (6,1) onto water or frogs: nothing.
    assert!(!n.iter().any(|m| m.starts_with("MOVE (5, 0)")), "{n:?}");
    // Steps: (7,5)->(7,6); jumps: (7,4)->(7,6); and GROW.
    assert_eq!(n.len(), 3, "{n:?}");
}

#[test]
fn the_game_ends_at_150_actions_and_scores_goal_rows() {
    let text = "turn red
actions 149
. . . . . . . .
. . . . . . . .
. . . . . . . .
B B . . . . . .
R R . . . . * .
. . . . . . . .
. . . . . . . .
R R R R B B B B
";
    let mut g = pos(text);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.scores(), [4, 0]);
    g.play(GROW);
    assert_eq!(g.actions_played(), 150);
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::First)));
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(moves.is_empty());
    // Equal goal rows at the end: a draw.
    let drawn = "turn red
actions 150
B B . . . . . .
. . . . B B B B
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
R R R R . . . .
. . . . . . R R
";
    let drawn = pos(drawn);
    assert_eq!(drawn.scores(), [2, 2]);
    assert_eq!(drawn.outcome(), Some(Outcome::Draw));
}

#[test]
fn six_frogs_home_end_the_game_at_once() {
    let five_home = "turn red
. . . . . . . .
. . . . . . . .
. . . . . . . .
B B B B B B . .
. . . . . . . .
. . . . . . . .
* * . . . . R .
R R R R R . * .
";
    let mut g = pos(five_home);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.scores(), [5, 0]);
    g.play(g.parse_action("MOVE (6, 6) [DOWN]").unwrap());
    assert_eq!(g.scores(), [6, 0]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win(Player::First)),
        "after {} actions",
        g.actions_played()
    );
}

#[test]
fn text_round_trips_and_bad_boards_name_their_line() {
    let mut rng = rng_from_seed(5);
    let mut g = Freckers::new(false);
    for _ in 0..40 {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        g.play(moves[below(&mut rng, moves.len())]);
        assert_eq!(parse(&to_text(&g)).unwrap(), g);
    }
    let start = to_text(&Freckers::new(false));
    let e = parse(&start.replace("* B B B B B B *", "* B B X B B B *")).unwrap_err();
    assert_eq!(e.line, 11);
    assert!(e.message.contains("unknown symbol 'X'"), "{e}");
    let e = parse(&start.replace("* B B B B B B *", "* B B B B B *")).unwrap_err();
    assert!(e.line == 11 && e.message.contains("8 cells"), "{e}");
    let e = parse(&start.replace("turn red", "turn green")).unwrap_err();
    assert_eq!(e.line, 1);
}

#[test]
fn notation_parses_back_to_the_same_action() {
    let mut rng = rng_from_seed(9);
    let mut g = Freckers::new(false);
    for _ in 0..60 {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        for &m in &moves {
            assert_eq!(
                g.parse_action(&g.move_name(m)),
                Some(m),
                "{}",
                g.move_name(m)
            );
        }
        g.play(moves[below(&mut rng, moves.len())]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_games_keep_the_invariants(seed in any::<u64>(), strict in any::<bool>()) {
        let mut rng = rng_from_seed(seed);
        let mut g = Freckers::new(strict);
        loop {
            prop_assert_eq!(g.frogs(Player::First).count_ones(), 6);
            prop_assert_eq!(g.frogs(Player::Second).count_ones(), 6);
            prop_assert_eq!(g.pads() & (g.frogs(Player::First) | g.frogs(Player::Second)), 0);
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                prop_assert!(g.outcome().is_some());
                break;
            }
            let fast = g.random_move(&mut rng, &mut Vec::new()).unwrap();
            prop_assert!(moves.contains(&fast), "the fast random move is legal");
            let distinct: std::collections::BTreeSet<Action> = moves.iter().copied().collect();
            prop_assert_eq!(distinct.len(), moves.len(), "actions are distinct (from, to) pairs");
            for &m in &moves {
                if let Some((from, to)) = m.cells() {
                    prop_assert!(g.frogs(g.to_move()) >> from & 1 == 1);
                    prop_assert!(g.pads() >> to & 1 == 1);
                    let path = g.path(from, to);
                    prop_assert!(path.is_some());
                    let allowed = allowed(g.to_move());
                    prop_assert!(path.unwrap().iter().all(|d| allowed.contains(d)));
                }
            }
            g.play(moves[below(&mut rng, moves.len())]);
        }
        prop_assert!(g.actions_played() <= MAX_ACTIONS);
    }
}

mod agent_tests;

mod search_tests;

/// Legality of MOVE from -> to read straight from the rules text, on a grid of characters
/// (independent of the bitboard generator): a step in an allowed direction onto a free pad, or a
/// chain of jumps over frogs onto frog-free cells (every landing a pad under the strict rule),
/// the moving frog's own cell counting as occupied throughout, ending on a free pad.
fn legal_by_rules(g: &Freckers, from: (i32, i32), to: (i32, i32)) -> bool {
    let board: Vec<Vec<char>> = super::text::board(g)
        .lines()
        .map(|l| l.split(' ').map(|s| s.chars().next().unwrap()).collect())
        .collect();
    let at = |(r, c): (i32, i32)| -> Option<char> {
        ((0..8).contains(&r) && (0..8).contains(&c)).then(|| board[r as usize][c as usize])
    };
    let me = if g.to_move() == Player::First {
        'R'
    } else {
        'B'
    };
    if at(from) != Some(me) || at(to) != Some('*') {
        return false;
    }
    let dirs: Vec<(i32, i32)> = if me == 'R' {
        vec![(1, 0), (1, -1), (1, 1), (0, -1), (0, 1)]
    } else {
        vec![(-1, 0), (-1, -1), (-1, 1), (0, -1), (0, 1)]
    };
    let frog = |p: (i32, i32)| matches!(at(p), Some('R') | Some('B'));
    if dirs
        .iter()
        .any(|&(dr, dc)| (from.0 + dr, from.1 + dc) == to)
    {
        return true; // `to` is a free pad next to `from` in an allowed direction: a step
    }
    let mut seen = vec![from];
    let mut stack = vec![from];
    while let Some(p) = stack.pop() {
        for &(dr, dc) in &dirs {
            let over = (p.0 + dr, p.1 + dc);
            let land = (p.0 + 2 * dr, p.1 + 2 * dc);
            if !frog(over) || at(land).is_none() || frog(land) || seen.contains(&land) {
                continue;
            }
            if g.strict() && at(land) != Some('*') {
                continue;
            }
            if land == to {
                return true;
            }
            seen.push(land);
            stack.push(land);
        }
    }
    false
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn generated_moves_are_exactly_the_legal_moves_of_the_rules_text(seed in any::<u64>(), strict in any::<bool>()) {
        let mut rng = rng_from_seed(seed);
        let mut g = Freckers::new(strict);
        while g.outcome().is_none() {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            let generated: std::collections::BTreeSet<(u8, u8)> = moves.iter().filter_map(|a| a.cells()).collect();
            let mut expected = std::collections::BTreeSet::new();
            // Every cell may be a source in principle; only the mover's frogs can be, so the
            // sources are read from the board text rather than the bitboards.
            let text = super::text::board(&g);
            let mine = if g.to_move() == Player::First { 'R' } else { 'B' };
            let sources: Vec<u8> = text.chars().filter(|c| !c.is_whitespace()).enumerate().filter(|(_, c)| *c == mine).map(|(i, _)| i as u8).collect();
            for &from in &sources {
                for to in 0..64u8 {
                    if legal_by_rules(&g, ((from / 8) as i32, (from % 8) as i32), ((to / 8) as i32, (to % 8) as i32)) {
                        expected.insert((from, to));
                    }
                }
            }
            prop_assert_eq!(&generated, &expected, "{}", to_text(&g));
            prop_assert!(generated.iter().all(|(f, t)| f != t), "no move returns to its start");
            prop_assert_eq!(moves.last(), Some(&GROW), "GROW is always legal");
            g.play(moves[below(&mut rng, moves.len())]);
        }
    }
}

/// The start, the water-landing position (lenient and strict), and positions of a few random
/// games: the positions random-action tests draw on.
fn sample_positions() -> Vec<Freckers> {
    let mut positions = vec![
        Freckers::new(false),
        pos(WATER_LANDING),
        pos(&format!("rule strict\n{WATER_LANDING}")),
    ];
    let mut rng = rng_from_seed(21);
    for plies in [10, 30, 50] {
        let mut g = Freckers::new(false);
        for _ in 0..plies {
            let mut m = Vec::new();
            g.legal_moves(&mut m);
            if m.is_empty() {
                break;
            }
            g.play(m[below(&mut rng, m.len())]);
        }
        positions.push(g);
    }
    positions
}

/// Draws `per_action` x (number of legal actions) actions from `draw` in `g`; the count of each
/// legal action, in `legal_moves` order (an illegal draw panics).
fn draw_counts(
    g: &Freckers,
    per_action: usize,
    rng: &mut crate::rng::GameRng,
    draw: &mut dyn FnMut(&Freckers, &mut crate::rng::GameRng) -> Action,
) -> Vec<u32> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut counts = vec![0u32; moves.len()];
    for _ in 0..per_action * moves.len() {
        let a = draw(g, rng);
        let i = moves
            .iter()
            .position(|&m| m == a)
            .unwrap_or_else(|| panic!("{a:?} is not legal in\n{}", to_text(g)));
        counts[i] += 1;
    }
    counts
}

#[test]
fn the_fast_random_move_is_uniform_over_the_legal_actions() {
    use statrs::distribution::{ChiSquared, ContinuousCDF};
    let mut rng = rng_from_seed(22);
    let mut buf = Vec::new();
    for g in sample_positions() {
        let counts = draw_counts(&g, 2_000, &mut rng, &mut |g, rng| {
            g.random_move(rng, &mut buf).unwrap()
        });
        let expected = 2_000.0;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        let critical = ChiSquared::new((counts.len() - 1) as f64)
            .unwrap()
            .inverse_cdf(0.999);
        assert!(
            chi2 < critical,
            "chi2 {chi2:.1} >= {critical:.1} over {} actions in\n{}",
            counts.len(),
            to_text(&g)
        );
    }
}

/// The lazy generator only ever draws legal actions, draws every legal action, and is measurably
/// biased: its total variation distance from uniform is printed (`cargo test -- --nocapture`)
/// and is well above what sampling noise gives the exact sampler on the same draws.
#[test]
fn the_lazy_random_move_is_legal_covers_every_action_and_is_biased() {
    let mut rng = rng_from_seed(23);
    let mut buf = Vec::new();
    let tv = |counts: &[u32]| {
        let n: u32 = counts.iter().sum();
        counts
            .iter()
            .map(|&c| (c as f64 / n as f64 - 1.0 / counts.len() as f64).abs())
            .sum::<f64>()
            / 2.0
    };
    let mut lazy_tv = Vec::new();
    for g in sample_positions() {
        let lazy = draw_counts(&g, 2_000, &mut rng, &mut |g, rng| {
            g.lazy_random_move(rng).unwrap()
        });
        assert!(
            lazy.iter().all(|&c| c > 0),
            "the lazy generator missed an action in\n{}",
            to_text(&g)
        );
        let exact = draw_counts(&g, 2_000, &mut rng, &mut |g, rng| {
            g.random_move(rng, &mut buf).unwrap()
        });
        println!(
            "{} actions: total variation from uniform, lazy {:.3}, exact {:.3}",
            lazy.len(),
            tv(&lazy),
            tv(&exact)
        );
        // With 2,000 draws per action the exact sampler's distance is noise, about 0.01.
        assert!(tv(&exact) < 0.03);
        lazy_tv.push(tv(&lazy));
    }
    assert!(lazy_tv.iter().any(|&d| d > 0.1), "{lazy_tv:?}");
}

#[test]
fn the_board_shift_moves_every_cell_one_step_and_the_orders_are_all_distinct() {
    let mut rng = rng_from_seed(5);
    for _ in 0..1000 {
        let bb = crate::rng::Rng::next_u64(&mut rng);
        for d in 0..8 {
            // Cell by cell: each set cell's neighbour in direction d, if it is on the board.
            let expected = (0..64u8)
                .filter(|&c| bb >> c & 1 == 1)
                .filter_map(|c| super::step(c, d))
                .fold(0u64, |acc, c| acc | 1u64 << c);
            assert_eq!(super::shift(bb, d), expected, "direction {d}");
        }
    }
    let orders: std::collections::BTreeSet<[u8; 5]> = super::ORDERS_OF_FIVE.into_iter().collect();
    assert_eq!(orders.len(), 120);
}

/// The engine's uniform playouts and the cell-by-cell reference play the same games from the
/// same seeds, lenient and strict: the same final position, and the generators end in the same
/// state; the playout loop's baseline copy plays them too.
#[test]
fn uniform_playouts_replay_the_plain_reference() {
    use crate::agent::rollout::{Uniform, playout, playout_portable};
    for strict in [false, true] {
        let start = Freckers::new(strict);
        for seed in 0..300 {
            let (mut fast_rng, mut plain_rng) = (
                crate::rng::rng_from_seed(seed),
                crate::rng::rng_from_seed(seed),
            );
            let mut game = start;
            playout(&mut game, &Uniform, &mut fast_rng, &mut Vec::new());
            assert_eq!(
                game,
                playout_reference(&start, &mut plain_rng),
                "strict {strict} seed {seed}"
            );
            assert_eq!(
                fast_rng, plain_rng,
                "strict {strict} seed {seed}: the same draws"
            );
            let (mut baseline, mut rng) = (start, crate::rng::rng_from_seed(seed));
            playout_portable(&mut baseline, &Uniform, &mut rng, &mut Vec::new());
            assert_eq!(
                baseline, game,
                "strict {strict} seed {seed}: the baseline copy of the loop"
            );
        }
    }
}
