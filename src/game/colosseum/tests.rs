//! Rules facts of Colosseum Survival on hand-made positions, the setup's symmetry, the text
//! format's round trip, and random games checked against a cell-by-cell reading of the rules.

use super::agents::{CourseRandom, HeuristicAgent};
use super::reference::{PlainBoard, playout_reference};
use super::text::{parse, to_text};
use super::*;
use crate::agent::{Agent, AgentSpec, Arena};
use crate::rng::rng_from_seed;
use proptest::prelude::*;

fn pos(text: &str) -> Colosseum {
    parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn mv(g: &Colosseum, s: &str) -> Move {
    g.parse_move(s).unwrap_or_else(|| panic!("bad move {s}"))
}

/// 5x5, A at (2,3), B at (2,1), a few walls that do not split the board.
const OPEN5: &str = "size 5
+---+---+---+---+---+
| .   .   . | .   . |
+   +---+   +   +   +
| .   .   .   .   . |
+   +   +   +---+   +
| .   B | .   A   . |
+   +   +   +   +   +
| .   .   .   . | . |
+   +---+   +   +   +
| .   .   .   .   . |
+---+---+---+---+---+
";

/// 5x5 with rows 0-2 (15 cells) walled off from rows 3-4 (10 cells) but for the gap under
/// (2, 4); A at (2, 3), B at (4, 0).
const GAP5: &str = "size 5
+---+---+---+---+---+
| .   .   .   .   . |
+   +   +   +   +   +
| .   .   .   .   . |
+   +   +   +   +   +
| .   .   .   A   . |
+---+---+---+---+   +
| .   .   .   .   . |
+   +   +   +   +   +
| B   .   .   .   . |
+---+---+---+---+---+
";

#[test]
fn an_open_position_is_not_over_and_both_score_the_whole_board() {
    let g = pos(OPEN5);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.scores(), [25, 25]);
    assert_eq!(g.max_step(), 3);
    assert_eq!(g.position_of(Player::First), (2, 3));
}

#[test]
fn closing_the_gap_ends_the_game_15_to_10() {
    let mut g = pos(GAP5);
    assert_eq!(g.outcome(), None);
    g.play(mv(&g, "(2,4,d)"));
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(g.scores(), [15, 10]);
    // The same wall put up from below: A walks through the gap to (3, 4) and closes it above
    // itself, so both players are in the bottom 10 cells and the game goes on.
    let mut g = pos(GAP5);
    g.play(mv(&g, "(3,4,u)"));
    assert_eq!(g.outcome(), None);
    assert_eq!(g.scores(), [10, 10]);
}

#[test]
fn legal_and_illegal_moves() {
    let g = pos(OPEN5);
    let legal = |s: &str| g.is_legal(mv(&g, s));
    // Staying put, one step, and K = 3 steps round the wall right of (3, 3).
    assert!(legal("(2,3,l)"));
    assert!(legal("(2,2,u)"));
    assert!(legal("(4,4,l)"));
    // Onto the opponent.
    assert!(!legal("(2,1,u)"));
    // Beyond K: (0,0) is 5 steps away, (4,0) 4 steps.
    assert!(!legal("(0,0,d)"));
    assert!(!legal("(4,0,u)"));
    // A wall on an already walled side (the wall between (1,3) and (2,3), from both sides),
    // and on the border.
    assert!(!legal("(2,3,u)"));
    assert!(!legal("(1,3,d)"));
    assert!(!legal("(2,4,r)"));
    // Not through walls: (1,3) is one step up but walled off, so it takes 3 steps round;
    // (0,3) would take 4 (via (1,3), or via (0,2) whose right side is walled).
    assert!(legal("(1,2,l)"));
    assert!(legal("(0,4,l)"));
    assert!(legal("(1,3,u)"));
    assert!(!legal("(0,3,l)"));
}

/// Legal destinations by a plain breadth-first search over cells, as the rules say.
fn reference_reach(g: &Colosseum) -> Vec<(usize, usize)> {
    PlainBoard::new(g).reach()
}

/// Region sizes by a plain flood fill (A's, B's), and whether they are joined.
fn reference_regions(g: &Colosseum) -> (usize, usize, bool) {
    PlainBoard::new(g).regions()
}

#[test]
fn the_reach_example_matches_the_reference() {
    let g = pos(OPEN5);
    let mut reach: Vec<(usize, usize)> = g.reachable(Player::First).iter().map(rc).collect();
    reach.sort();
    assert_eq!(reach, reference_reach(&g));
    assert!(reach.contains(&(4, 4)) && !reach.contains(&(2, 1)) && !reach.contains(&(0, 0)));
}

#[test]
fn the_setup_is_point_symmetric_and_never_starts_separated() {
    assert!(Colosseum::random_setup(2, &mut rng_from_seed(0)).is_err());
    for size in [3, 4, 5, 6, 7, 12, 16] {
        for seed in 0..200 {
            let g = Colosseum::random_setup(size, &mut rng_from_seed(seed)).unwrap();
            let m = size;
            for r in 0..m {
                for c in 0..m {
                    for s in 0..4u8 {
                        assert_eq!(
                            g.has_wall(r, c, s),
                            g.has_wall(m - 1 - r, m - 1 - c, (s + 2) % 4),
                            "size {m} seed {seed}"
                        );
                    }
                }
            }
            let (a, b) = (g.position_of(Player::First), g.position_of(Player::Second));
            assert_eq!(b, (m - 1 - a.0, m - 1 - a.1));
            assert_ne!(a, b);
            assert_eq!(g.to_move(), Player::First);
            assert!(
                g.outcome().is_none() && reference_regions(&g).2,
                "players start joined"
            );
            // K walls and their twins: at most 2K interior walls beyond the border.
            let interior: usize = (0..m)
                .flat_map(|r| (0..m).map(move |c| (r, c)))
                .map(|(r, c)| {
                    usize::from(r + 1 < m && g.has_wall(r, c, DOWN))
                        + usize::from(c + 1 < m && g.has_wall(r, c, RIGHT))
                })
                .sum();
            assert!(
                interior <= 2 * g.max_step() && interior >= 1,
                "size {m}: {interior} walls"
            );
        }
    }
}

#[test]
fn text_round_trips() {
    for seed in 0..50 {
        let mut g =
            Colosseum::random_setup(3 + (seed as usize % 14), &mut rng_from_seed(seed)).unwrap();
        let mut rng = rng_from_seed(seed + 1000);
        for _ in 0..(seed % 7) {
            if g.outcome().is_some() {
                break;
            }
            g.play(CourseRandom::pick_move(&g, &mut rng));
        }
        if g.outcome().is_some() {
            continue;
        }
        let text = to_text(&g);
        assert_eq!(parse(&text).unwrap(), g, "{text}");
    }
    let mut g = pos(OPEN5);
    g.set_max_step(2);
    g.set_to_move(Player::Second);
    assert_eq!(parse(&to_text(&g)).unwrap(), g);
}

#[test]
fn bad_positions_name_their_line() {
    let bad = |text: &str, line: usize, needle: &str| {
        let e = parse(text).unwrap_err();
        assert_eq!(e.line, line, "{e}");
        assert!(e.message.contains(needle), "{e}");
    };
    // A gap in the border is a one-sided wall.
    bad(
        &OPEN5.replacen(
            "| .   .   .   .   . |\n+   +   +   +---+",
            "  .   .   .   .   . |\n+   +   +   +---+",
            1,
        ),
        5,
        "one-sided",
    );
    bad(
        &OPEN5.replace(
            "+---+---+---+---+---+\n| .   .   . |",
            "+---+---+   +---+---+\n| .   .   . |",
        ),
        2,
        "one-sided",
    );
    // Both players on one cell cannot be drawn, but two A's can.
    bad(&OPEN5.replace("| .   B |", "| .   A |"), 7, "twice");
    bad(&OPEN5.replace("size 5", "size 6"), 12, "size mismatch");
    bad(
        &OPEN5.replace(
            "| .   .   .   .   . |\n+---",
            "| .   .   .   .   .   . |\n+---",
        ),
        11,
        "size mismatch",
    );
    bad(&OPEN5.replace(". | . |", "x | . |"), 9, "unknown symbol");
    bad("size 5\nturn C\n", 2, "A or B");
    // A player on a cell walled on all four sides is a legal layout (the game is over).
    let boxed = "size 3\n+---+---+---+\n| A | .   . |\n+---+   +   +\n| .   .   . |\n+   +   +   +\n| .   .   B |\n+---+---+---+\n";
    let g = pos(boxed);
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(g.scores(), [1, 8]);
}

#[test]
fn immediate_wins_are_taken_by_heuristic_uct_and_popcoin() {
    let g = pos(GAP5);
    let win = mv(&g, "(2,4,d)");
    let mut h = HeuristicAgent::new(1.0, 0.5, 0.5, 20);
    assert_eq!(
        h.choose(&g, &mut rng_from_seed(1), crate::agent::Budget::None),
        win
    );
    let specs = [
        "kind = \"uct\"\niterations = 50\nroot_checks = true",
        "kind = \"popcoin\"\niterations = 50",
    ];
    for text in specs {
        let spec: AgentSpec = toml::from_str(text).unwrap();
        for seed in 0..5 {
            let mut a = Colosseum::build_agent(&spec, &g).unwrap();
            assert_eq!(
                a.choose(&g, &mut rng_from_seed(seed), spec.budget().unwrap()),
                win,
                "{text}"
            );
        }
    }
}

#[test]
fn the_heuristic_agent_never_walks_into_an_immediate_loss() {
    // A in a 2-cell pocket at the top left, whose opening it can close on itself (a loss).
    let text = "size 4
+---+---+---+---+
| A   . | .   . |
+---+   +   +   +
| .   .   .   . |
+   +   +   +   +
| .   .   .   . |
+   +   +   +   +
| .   .   .   B |
+---+---+---+---+
";
    let g = pos(text);
    let mut h = HeuristicAgent::new(1.0, 0.5, 0.5, 20);
    let chosen = h.choose(&g, &mut rng_from_seed(3), crate::agent::Budget::None);
    let mut after = g.clone();
    after.play(chosen);
    assert_ne!(
        after.outcome(),
        Some(Outcome::Win(Player::Second)),
        "chose {}",
        g.move_name(chosen)
    );
}

fn random_game(size: usize, seed: u64) -> Vec<Colosseum> {
    let mut rng = rng_from_seed(seed);
    let mut g = Colosseum::random_setup(size, &mut rng).unwrap();
    let mut seen = vec![g.clone()];
    while g.outcome().is_none() {
        let m = if seed % 2 == 0 {
            CourseRandom::pick_move(&g, &mut rng)
        } else {
            g.random_move(&mut rng, &mut Vec::new()).unwrap()
        };
        assert!(g.is_legal(m), "illegal {m:?}");
        g.play(m);
        seen.push(g.clone());
        assert!(
            seen.len() < 4 * size * size,
            "a game places a wall every move, so it ends"
        );
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_games_agree_with_the_reference(size in 3usize..=16, seed in any::<u64>()) {
        for g in random_game(size, seed) {
            let (a, b, joined) = reference_regions(&g);
            prop_assert_eq!(g.outcome().is_none(), joined);
            if !joined {
                prop_assert_eq!(g.scores(), [a as i32, b as i32]);
                continue;
            }
            prop_assert_eq!(g.scores(), [a as i32, a as i32]);
            let mut reach: Vec<(usize, usize)> = g.reachable(g.to_move()).iter().map(rc).collect();
            reach.sort();
            prop_assert_eq!(&reach, &reference_reach(&g));
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            let expected: usize = reach.iter().map(|&(r, c)| (0..4u8).filter(|&s| !g.has_wall(r, c, s)).count()).sum();
            prop_assert_eq!(moves.len(), expected);
            prop_assert_eq!(g.move_count(g.to_move()) as usize, expected);
            prop_assert!(moves.iter().all(|&m| g.is_legal(m)));
        }
    }
}

#[test]
fn heuristic_features_on_a_hand_made_position() {
    use super::agents::{PopcoinHeuristic, features, max_moves};
    use crate::agent::uct::NodeHeuristic;
    let g = pos(OPEN5);
    // Seen from B (as if B had just moved): A at (2,3) is 2 steps away, B is 1 from the centre,
    // and A's moves are the free sides of the cells it reaches.
    let a_moves: usize = reference_reach(&g)
        .iter()
        .map(|&(r, c)| (0..4u8).filter(|&s| !g.has_wall(r, c, s)).count())
        .sum();
    assert_eq!(features(&g, Player::Second), (a_moves as f64, 2.0, 1.0));
    assert_eq!(max_moves(3), 4.0 * 25.0);
    let h = PopcoinHeuristic {
        adv_moves: 1.0,
        adv_distance: 1.0,
    };
    let expected = ((1.0 - a_moves as f64 / 100.0) + (1.0 - 2.0 / 8.0)) / 2.0;
    assert!((h.value(&g, Move::new(0, 0), &g, Player::Second) - expected).abs() < 1e-12);
}

/// The engine's uniform playouts and the plain reference play the same games from the same
/// seeds on every board size: the same region sizes, and the generators end in the same state;
/// the playout loop's baseline copy plays them too.
#[test]
fn uniform_playouts_replay_the_plain_reference() {
    use crate::agent::rollout::{Uniform, playout, playout_portable};
    for size in 3..=16 {
        for seed in 0..40 {
            let start = Colosseum::random_setup(size, &mut rng_from_seed(seed)).unwrap();
            let (mut fast_rng, mut plain_rng) =
                (rng_from_seed(seed + 1000), rng_from_seed(seed + 1000));
            let mut game = start.clone();
            playout(&mut game, &Uniform, &mut fast_rng, &mut Vec::new());
            let plain = playout_reference(&start, &mut plain_rng);
            assert_eq!(
                game.scores(),
                plain.map(|n| n as i32),
                "size {size} seed {seed}"
            );
            assert_eq!(
                fast_rng, plain_rng,
                "size {size} seed {seed}: the same draws"
            );
            let (mut baseline, mut rng) = (start.clone(), rng_from_seed(seed + 1000));
            playout_portable(&mut baseline, &Uniform, &mut rng, &mut Vec::new());
            assert_eq!(
                baseline, game,
                "size {size} seed {seed}: the baseline copy of the loop"
            );
        }
    }
}
