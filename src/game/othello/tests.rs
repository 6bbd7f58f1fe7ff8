//! Othello facts: perft counts, hand-checked positions, the rule flags, notation.

use super::*;
use crate::game::{Game, Outcome, Player};

const PERFT_PASS_PLY: [u64; 11] = [
    4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800,
];

#[test]
fn perft_standard8_to_depth_9_pass_counts_as_ply() {
    let start = Othello::from_stage_id("standard8");
    for d in 1..=9 {
        assert_eq!(
            perft(&start, d as u32, true),
            PERFT_PASS_PLY[d - 1],
            "depth {d}"
        );
    }
}

#[test]
fn perft_standard8_depth_9_pass_uses_no_ply() {
    let start = Othello::from_stage_id("standard8");
    // Depths 1-8 have no pass within reach, so both conventions agree there.
    for d in 1..=8 {
        assert_eq!(
            perft(&start, d as u32, false),
            PERFT_PASS_PLY[d - 1],
            "depth {d}"
        );
    }
    assert_eq!(perft(&start, 9, false), 3005320);
}

#[test]
#[ignore = "slow: depths 10 and 11 (run with --ignored)"]
fn perft_standard8_depths_10_and_11() {
    let start = Othello::from_stage_id("standard8");
    assert_eq!(perft(&start, 10, true), 24571284);
    assert_eq!(perft(&start, 10, false), 24571420);
    assert_eq!(perft(&start, 11, true), 212258800);
}

#[test]
fn start_positions_and_first_moves() {
    let s8 = Othello::from_stage_id("standard8");
    assert_eq!(s8.to_move(), Player::First);
    let mut moves = Vec::new();
    s8.legal_moves(&mut moves);
    let names: Vec<String> = moves.iter().map(|&m| s8.move_name(m)).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    let s6 = Othello::from_stage_id("small6");
    assert_eq!(
        s6.board_text(),
        "......\n......\n..OX..\n..XO..\n......\n......\n"
    );
    assert_eq!(s6.counts(), (2, 2));
}

#[test]
fn a_move_flips_the_bracketed_disc() {
    let mut g = Othello::from_stage_id("standard8");
    g.play_transcript("f5").unwrap();
    assert_eq!(g.counts(), (4, 1));
    assert_eq!(g.to_move(), Player::Second);
    // Rows 4 and 5 (r = 3, 4): f5 brackets e5 between f5 and d5.
    assert_eq!(&g.board_text()[27..44], "...OX...\n...XXX..");
}

#[test]
fn partial_c8_blocked_cells_stop_rays_and_cannot_be_played() {
    let g = Othello::from_stage_id("partial-c8");
    let blocked = g.rules().blocked;
    assert_eq!(blocked.count_ones(), 4);
    assert_eq!(g.move_mask() & blocked, 0);
    // A white disc at b1 can be captured from a1 only through... nothing: b1 (0,1) is blocked,
    // so a ray from a1 going east stops at once.
    let stage = StageDef {
        id: "t".into(),
        name: String::new(),
        size: 4,
        blocked: vec![[0, 2]],
        black: vec![[0, 3]],
        white: vec![[0, 1], [1, 1]],
        ignore_occlusion: false,
        fewer_pieces_continue: false,
    };
    let g = Othello::new(&stage).unwrap();
    // Row 0: . O # X ; black cannot capture b1 through the blocked c1.
    assert_eq!(g.move_mask() & stage::bit(0, 0), 0);
    let mut occl = stage.clone();
    occl.ignore_occlusion = true;
    let g2 = Othello::new(&occl).unwrap();
    // With ignore_occlusion the ray a1 -> b1 (white) -> c1 (blocked, skipped) -> d1 (black) captures b1.
    assert_ne!(g2.move_mask() & stage::bit(0, 0), 0);
    assert_eq!(g2.flips(0), stage::bit(0, 1));
}

#[test]
fn fewer_pieces_continue_gives_the_move_to_the_side_behind() {
    let mut def = builtin_stage("standard8").unwrap();
    def.fewer_pieces_continue = true;
    let mut g = Othello::new(&def).unwrap();
    g.play_transcript("f5").unwrap(); // black 4, white 1: white (fewer) moves
    assert_eq!(g.to_move(), Player::Second);
    g.play_transcript("f6").unwrap(); // white takes e5: black 3, white 3: equal -> alternate to black
    assert_eq!(g.counts(), (3, 3));
    assert_eq!(g.to_move(), Player::First);
}

#[test]
fn a_side_without_moves_passes_and_a_full_stop_ends_the_game() {
    // White to move cannot capture anything; black can (c1): white's only move is the pass.
    let pos = Othello::from_text("XO..\n....\n....\n....", Player::Second).unwrap();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves, vec![PASS]);
    assert_eq!(pos.outcome(), None);
    let mut after = pos;
    after.play(PASS);
    assert_eq!(after.to_move(), Player::First);
    assert_eq!(
        after.move_name(after.move_mask().trailing_zeros() as Move),
        "c1"
    );
    after.play(2);
    // Black took the last white disc: nobody can move, black wins 3-0.
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(after.scores(), [3, 0]);
    moves.clear();
    after.legal_moves(&mut moves);
    assert!(moves.is_empty());
    // Equal discs and no moves: a draw.
    let drawn = Othello::from_text("X..\n...\n..O", Player::First).unwrap();
    assert_eq!(drawn.outcome(), Some(Outcome::Draw));
    // A transcript may leave passes out: they are played automatically.
    let mut t = Othello::from_text("XO..\n....\n....\n....", Player::Second).unwrap();
    t.play_transcript("c1").unwrap();
    assert!(t.is_over());
}

#[test]
fn notation_round_trips_and_rejects_illegal_moves() {
    let g = Othello::from_stage_id("standard8");
    assert_eq!(g.parse_move("d3").unwrap(), 2 * 8 + 3);
    assert_eq!(g.move_name(2 * 8 + 3), "d3");
    let e = g.parse_move("a1").unwrap_err();
    assert!(e.contains("not legal"), "{e}");
    assert!(g.parse_move("z9").unwrap_err().contains("not a move"));
    let mut g2 = g;
    let e = g2.play_transcript("f5f5").unwrap_err();
    assert!(e.starts_with("move 2:"), "{e}");
}

#[test]
fn a_full_game_transcript_ends_with_the_right_count() {
    // Random playouts always end, with the disc count of a full or stuck board.
    let mut rng = crate::rng::rng_from_seed(5);
    let mut buf = Vec::new();
    for _ in 0..50 {
        let mut g = Othello::from_stage_id("small6");
        while let Some(m) = g.random_move(&mut rng, &mut buf) {
            g.play(m);
        }
        let (b, w) = g.counts();
        assert!(b + w <= 36);
        assert!(g.outcome().is_some());
    }
}

#[test]
fn portable_perft_agrees_with_the_dispatched_one() {
    let start = Othello::from_stage_id("standard8");
    assert_eq!(perft_portable(&start, 7, true), 55092);
    let c8 = Othello::from_stage_id("partial-c8");
    assert_eq!(perft_portable(&c8, 6, true), perft(&c8, 6, true));
}

mod against_a_reference {
    //! The bitboard move generator and flips against a cell-by-cell reading of the rules page.
    use super::super::*;
    use crate::game::Player;
    use proptest::prelude::*;

    const DIRS: [(i32, i32); 8] = [
        (0, 1),
        (0, -1),
        (1, 0),
        (-1, 0),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];

    /// 0 empty, 1 own, 2 opponent, 3 blocked.
    fn reference_flips(cells: &[u8], n: i32, r: i32, c: i32, transparent: bool) -> Vec<(i32, i32)> {
        let mut flips = Vec::new();
        if cells[(r * n + c) as usize] != 0 {
            return flips;
        }
        for (dr, dc) in DIRS {
            let mut run = Vec::new();
            let (mut y, mut x) = (r + dr, c + dc);
            loop {
                if y < 0 || x < 0 || y >= n || x >= n {
                    break;
                }
                match cells[(y * n + x) as usize] {
                    2 => run.push((y, x)),
                    3 if transparent => {}
                    1 => {
                        flips.extend(run.iter().copied());
                        break;
                    }
                    _ => break,
                }
                y += dr;
                x += dc;
            }
        }
        flips
    }

    fn position() -> impl Strategy<Value = (u8, Vec<u8>, bool, bool)> {
        (4u8..=8).prop_flat_map(|n| {
            let cells = proptest::collection::vec(
                prop_oneof![4 => Just(0u8), 3 => Just(1u8), 3 => Just(2u8), 1 => Just(3u8)],
                (n * n) as usize,
            );
            (Just(n), cells, any::<bool>(), any::<bool>())
        })
    }

    proptest! {
        #[test]
        fn moves_and_flips_match_the_rules((n, cells, white_to_move, transparent) in position()) {
            let mut def = StageDef { id: "p".into(), name: String::new(), size: n, blocked: vec![], black: vec![], white: vec![], ignore_occlusion: transparent, fewer_pieces_continue: false };
            for r in 0..n {
                for c in 0..n {
                    match cells[(r * n + c) as usize] {
                        1 => def.black.push([r, c]),
                        2 => def.white.push([r, c]),
                        3 => def.blocked.push([r, c]),
                        _ => {}
                    }
                }
            }
            let side = if white_to_move { Player::Second } else { Player::First };
            let pos = Othello::position(&def, side).unwrap();
            // Cells from the mover's point of view: 1 own, 2 opponent.
            let view: Vec<u8> = cells.iter().map(|&v| match (v, white_to_move) { (1, true) => 2, (2, true) => 1, (x, _) => x }).collect();
            let mut expected_moves = 0u64;
            for r in 0..n as i32 {
                for c in 0..n as i32 {
                    let f = reference_flips(&view, n as i32, r, c, transparent);
                    if !f.is_empty() {
                        expected_moves |= 1u64 << (r * 8 + c);
                        let expected_flips = f.iter().fold(0u64, |m, &(y, x)| m | 1u64 << (y * 8 + x));
                        prop_assert_eq!(pos.flips((r * 8 + c) as Move), expected_flips);
                    }
                }
            }
            if pos.is_over() {
                prop_assert_eq!(expected_moves, 0);
            } else {
                prop_assert_eq!(pos.move_mask(), expected_moves);
            }
        }
    }
}

/// The four-lane move generator and flips agree with the plain one-direction-at-a-time ones on
/// random positions: full boards, sparse and dense, with cells off the board (a 6x6 board in the
/// corner, blocked cells) that are neither empty nor hold a disc.
#[test]
fn fast_moves_and_flips_agree_with_the_reference_on_random_positions() {
    use super::bits::{flips, flips_reference, moves, moves_reference};
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let six: u64 = (0..6).map(|r| 0x3fu64 << (8 * r)).fold(0, |a, b| a | b);
    for case in 0..200_000 {
        let board = match case % 3 {
            0 => !0u64,
            1 => six,
            _ => !0u64 & !(next() & next() & next()), // some cells blocked
        };
        let (a, b) = (next(), next());
        let own = a & !b & board & if case % 5 == 0 { next() } else { !0 };
        let opp = b & !a & board;
        let empty = board & !own & !opp;
        let m = moves(own, opp, empty);
        assert_eq!(
            m,
            moves_reference(own, opp, empty),
            "case {case}: own {own:#x} opp {opp:#x} empty {empty:#x}"
        );
        let mut rest = m;
        while rest != 0 {
            let mv = rest & rest.wrapping_neg();
            rest &= rest - 1;
            assert_eq!(
                flips(mv, own, opp),
                flips_reference(mv, own, opp),
                "case {case}: move {mv:#x} own {own:#x} opp {opp:#x}"
            );
        }
    }
}

/// The portable build of the bare-bitboard perft (what runs without AVX2) counts as the
/// dispatched one does, and so does the plain reference.
#[test]
fn portable_and_reference_perft_count_the_same_leaves() {
    let start = Othello::from_stage_id("standard8");
    let (own, opp) = (start.discs(Player::First), start.discs(Player::Second));
    for d in 1..=8u32 {
        assert_eq!(
            perft_plain_portable(own, opp, start.rules().playable, d, true),
            PERFT_PASS_PLY[d as usize - 1],
            "depth {d}"
        );
        assert_eq!(
            perft_reference(&start, d, true),
            PERFT_PASS_PLY[d as usize - 1],
            "depth {d}"
        );
    }
}

/// The engine's uniform playouts and the plain reference play the same games from the same
/// seeds, on 8x8 and on 6x6: the same final discs, and the generators end in the same state;
/// the playout loop's baseline copy plays them too.
#[test]
fn uniform_playouts_replay_the_plain_reference() {
    use crate::agent::rollout::{Uniform, playout, playout_portable};
    for stage in ["standard8", "small6"] {
        let start = Othello::from_stage_id(stage);
        for seed in 0..300 {
            let (mut fast_rng, mut plain_rng) = (
                crate::rng::rng_from_seed(seed),
                crate::rng::rng_from_seed(seed),
            );
            let mut game = start;
            playout(&mut game, &Uniform, &mut fast_rng, &mut Vec::new());
            let discs = playout_reference(&start, &mut plain_rng);
            assert_eq!(
                [game.discs(Player::First), game.discs(Player::Second)],
                discs,
                "{stage} seed {seed}"
            );
            assert_eq!(fast_rng, plain_rng, "{stage} seed {seed}: the same draws");
            let (mut baseline, mut rng) = (start, crate::rng::rng_from_seed(seed));
            playout_portable(&mut baseline, &Uniform, &mut rng, &mut Vec::new());
            assert_eq!(
                baseline, game,
                "{stage} seed {seed}: the baseline copy of the loop"
            );
        }
    }
}
