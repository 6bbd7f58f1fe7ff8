//! Hand-made problems with answers known from Go, the rules inside a region, Benson's algorithm
//! on textbook positions; the solver's determinism, weights, generated problems, fitness and the
//! status sweep in `search.rs`.

mod search;

use super::board::{Move, Side, bit};
use super::life::{benson_alive, cannot_make_two_eyes, decided};
use super::*;

/// One problem in the text format, with the side to move and the map.
fn problem(to_move: &str, map: &str) -> Problem {
    let text = format!("problem t\nto-move {to_move}\nmap\n{map}\nend\n");
    parse_problems(&text)
        .unwrap_or_else(|e| panic!("line {}: {}", e.line, e.message))
        .remove(0)
}

fn solve(p: &Problem) -> Solution {
    Solver::new(16).solve(p, &Weights::reference(), Limits::default(), true)
}

fn names(p: &Problem, moves: &[Move]) -> Vec<String> {
    moves.iter().map(|&m| p.move_name(m)).collect()
}

/// Whether two solves of one problem both finished; if so, they must give the same status and
/// winning moves (`what` names the case in the failure).
fn same_answer(a: &Solution, b: &Solution, what: impl FnOnce() -> String) -> bool {
    if a.status == Status::Unknown || b.status == Status::Unknown {
        return false;
    }
    assert_eq!(
        (a.status, &a.winning_moves),
        (b.status, &b.winning_moves),
        "{}",
        what()
    );
    true
}

fn point(p: &Problem, name: &str) -> usize {
    let c = board::parse_coord(p.region.size, name).unwrap();
    p.region.index_of(c).unwrap()
}

// Straight three on the edge: whoever plays the middle point B19 decides.
const STRAIGHT_THREE: &str = "...O#\nOOOO#\n#####";

#[test]
fn straight_three_lives_or_dies_by_the_vital_point() {
    let d = problem("defender", STRAIGHT_THREE);
    let s = solve(&d);
    assert_eq!(s.status, Status::Alive);
    assert_eq!(names(&d, &s.winning_moves), ["B19"]);
    let a = problem("attacker", STRAIGHT_THREE);
    let s = solve(&a);
    assert_eq!(s.status, Status::Dead);
    assert_eq!(names(&a, &s.winning_moves), ["B19"]);
}

// Bent four in the corner: eye space A19 B19 C19 A18, the defender without outside liberties.
const BENT_FOUR: &str = "...O#\n.OOO#\nOO###\n##";

#[test]
fn bent_four_in_the_corner_is_a_ko_for_the_attacker_to_start() {
    // The defender to move makes two eyes at either A19 or B19.
    let d = problem("defender", BENT_FOUR);
    let s = solve(&d);
    assert_eq!(s.status, Status::Alive);
    assert_eq!(names(&d, &s.winning_moves), ["A19", "B19"]);
    // The attacker to move plays B19; the defender's A19 is captured at A18 and the defender
    // needs one ko threat to retake: dead unless the defender has a threat.
    let a = problem("attacker", BENT_FOUR);
    let s = solve(&a);
    assert_eq!(s.status, Status::DeadUnlessKo(1));
    assert!(names(&a, &s.winning_moves).contains(&"B19".to_string()));
}

#[test]
fn a_ko_for_life_needs_threats_to_kill() {
    // After the attacker took the ko at A18 the defender is in atari; retaking at A19 lives
    // unless the attacker has a threat to take it back.
    let p = problem("defender", ".X.O#\nXOOO#\nOO###\n##");
    let s = solve(&p);
    assert_eq!(s.status, Status::AliveUnlessKo(1));
    assert_eq!(names(&p, &s.winning_moves), ["A19"]);
    // The same position with the attacker to move: C19 captures everything.
    let a = problem("attacker", ".X.O#\nXOOO#\nOO###\n##");
    let s = solve(&a);
    assert_eq!(s.status, Status::Dead);
    // C19 captures everything; A19 (self-atari of three) leaves a bent three in the corner
    // after the defender's capture, killed at its vital point.
    assert_eq!(names(&a, &s.winning_moves), ["A19", "C19"]);
}

// Seki: the inner attacker chain C19-E19 and the defender share B19 and F19; whoever plays
// there is captured (a defender capture of four leaves straight four, alive).
const SEKI: &str = "O.XXX.O#\nOOOOOOO#\n########";

#[test]
fn a_proof_holds_for_every_budget_of_the_winner_from_the_threats_it_spent() {
    // The attacker kills with five threats by spending one (the retake at A18 after the
    // defender's A19), so the proof also says the defender dies against one threat; against
    // none the defender lives, and the table must not claim either there.
    let p = problem("defender", ".X.O#\nXOOO#\nOO###\n##");
    let mut solver = Solver::new(16);
    assert_eq!(solver.proven_after(&p, &[(5, 0)], (1, 0)), Some(false));
    assert_eq!(solver.proven_after(&p, &[(5, 0)], (0, 0)), None);
    // The defender's life with five threats of its own spends none (it moves first and retakes
    // nothing): it lives with none.
    assert_eq!(solver.proven_after(&p, &[(0, 5)], (0, 0)), Some(true));
}

#[test]
fn seki_counts_as_alive() {
    let d = problem("defender", SEKI);
    let s = solve(&d);
    assert_eq!(s.status, Status::Alive);
    assert_eq!(names(&d, &s.winning_moves), ["pass"]);
    let p = problem("attacker", SEKI);
    assert_eq!(
        benson_alive(&p.region, &p.start),
        0,
        "seki is not unconditional life"
    );
    assert_eq!(solve(&p).status, Status::Alive);
    let seki =
        |p: &Problem| Solver::new(16).lives_in_seki(p, &Weights::reference(), Limits::default());
    assert_eq!(
        (seki(&d), seki(&p)),
        (Some(true), Some(true)),
        "flagged whoever moves"
    );
    // Not seki: two eyes made at the vital point, two eyes already, death.
    assert_eq!(seki(&problem("defender", STRAIGHT_THREE)), Some(false));
    assert_eq!(
        seki(&problem("defender", ".O.O#\nOOOO#\n####")),
        Some(false)
    );
    assert_eq!(seki(&problem("attacker", STRAIGHT_THREE)), Some(false));
    assert_eq!(seki(&problem("defender", "..O#\nOOO#\n####")), Some(false));
}

#[test]
fn straight_two_is_dead_whoever_moves() {
    for side in ["defender", "attacker"] {
        let p = problem(side, "..O#\nOOO#\n####");
        assert_eq!(
            decided(&p.region, &p.start, p.targets),
            Some(Side::Attacker),
            "{side}"
        );
        assert_eq!(solve(&p).status, Status::Dead);
    }
}

#[test]
fn two_real_eyes_live_whoever_moves() {
    for side in ["defender", "attacker"] {
        let p = problem(side, ".O.O#\nOOOO#\n####");
        assert_eq!(
            decided(&p.region, &p.start, p.targets),
            Some(Side::Defender)
        );
        let s = Solver::new(16).solve(&p, &Weights::reference(), Limits::default(), false);
        assert_eq!(s.status, Status::Alive);
        assert_eq!(
            (s.counters.nodes, s.counters.leaves),
            (1, 1),
            "the root is a leaf"
        );
    }
}

#[test]
fn a_snapback_recaptures_on_the_point_of_the_captured_stone() {
    // The defender chain B19 B18 C18 D18 E18 E19 has liberties C19 and D19.
    let p = problem("attacker", "#O..O#\n#OOOO#\n######");
    let (c19, d19) = (point(&p, "C19"), point(&p, "D19"));
    // The throw-in at C19 is self-atari, and legal.
    let (after_throw_in, info) = p
        .start
        .play(&p.region, c19)
        .expect("a throw-in with a liberty is legal");
    assert_eq!(info.liberties, bit(d19));
    // The defender captures it at D19 and is left with the single liberty C19.
    let (after_capture, info) = after_throw_in
        .play(&p.region, d19)
        .expect("capturing is legal");
    assert_eq!(info.captured, bit(c19));
    assert_eq!(info.liberties, bit(c19));
    assert_eq!(
        after_capture.ko,
        board::NO_KO,
        "a capture by a chain of six is no ko"
    );
    // The attacker plays C19 again and captures all seven defender stones.
    let (snap, info) = after_capture
        .play(&p.region, c19)
        .expect("the snapback is legal");
    assert_eq!(info.captured.count_ones(), 7);
    assert_eq!(snap.of(Side::Defender), 0);
}

#[test]
fn captures_and_suicide() {
    let q = problem("attacker", ".O.O#\nOOOO#\n####");
    // The attacker inside a real eye is suicide.
    assert!(q.start.play(&q.region, point(&q, "A19")).is_none());
    assert!(q.start.play(&q.region, point(&q, "C19")).is_none());
    // Filling its own eye is legal for the defender (one liberty left).
    let d = problem("defender", ".O.O#\nOOOO#\n####");
    let (_, info) = d.start.play(&d.region, point(&d, "A19")).unwrap();
    assert_eq!(info.liberties.count_ones(), 1);
    // Filling the second eye then captures nothing and is suicide.
    let (after, _) = d.start.play(&d.region, point(&d, "A19")).unwrap();
    let after = after.pass();
    assert!(after.play(&d.region, point(&d, "C19")).is_none());
}

#[test]
fn a_chain_without_liberties_is_a_bad_problem() {
    let e = parse_problems(
        "problem dead-on-arrival\nto-move defender\nmap\nXO.O#\nOOOO#\n#####\nend\n",
    )
    .unwrap_err();
    assert!(
        e.message.contains("attacker chain at A19 has no liberties"),
        "{}",
        e.message
    );
    assert_eq!(e.line, 4);
}

#[test]
fn attacker_stones_touching_the_wall_are_never_captured() {
    // X at D19 has no liberty inside the region but touches the wall E19: a legal problem, and
    // the defender filling B19 (its last liberty) captures nothing, so it is suicide.
    let p = problem("defender", "O.OX#\nOOOO#\n#####");
    assert!(p.start.play(&p.region, point(&p, "B19")).is_none());
    // The same shape one point in from the wall: X at C19 is captured.
    let p = problem("defender", "O.X.O#\nOOOOO#\n######");
    let (after, info) = p.start.play(&p.region, point(&p, "D19")).unwrap();
    assert_eq!(info.captured, 0, "C19 still has B19");
    let (_, info) = after.pass().play(&p.region, point(&p, "B19")).unwrap();
    assert_eq!(info.captured, bit(point(&p, "C19")));
}

#[test]
fn a_ko_retake_is_banned_without_a_threat() {
    // The defender captures the ko at A19; the attacker's immediate retake at A18 repeats the
    // position, so without threats the attacker loses (the solver says l1d, not l or d).
    let p = problem("defender", ".X.O#\nXOOO#\nOO###\n##");
    let (after, info) = p.start.play(&p.region, point(&p, "A19")).unwrap();
    assert_eq!(info.captured, bit(point(&p, "A18")));
    assert_eq!(after.ko, point(&p, "A18") as u8);
    // The retake is a legal Go move (it captures A19): the ban is the repetition rule.
    let (back, _) = after.play(&p.region, point(&p, "A18")).unwrap();
    assert_eq!(
        back.stones, p.start.stones,
        "the retake recreates the problem's position"
    );
}

#[test]
fn benson_on_textbook_positions() {
    // Two separate eyes: alive.
    let p = problem("attacker", ".O.O#\nOOOO#\n####");
    assert_eq!(
        benson_alive(&p.region, &p.start),
        p.start.of(Side::Defender)
    );
    // One two-point eye: not unconditionally alive.
    let p = problem("attacker", "..O#\nOOO#\n####");
    assert_eq!(benson_alive(&p.region, &p.start), 0);
    // Two chains sharing their eyes: the lone B19 and the rest, with the one-point eyes A19,
    // C19 and B18 each all liberties of both chains: both alive.
    let p = problem("attacker", ".O.O#\nO.OO#\nOOOO#\n#####");
    let alive = benson_alive(&p.region, &p.start);
    assert_eq!(alive, p.start.of(Side::Defender));
    // An eye whose empty point is not a liberty of the chain (a big eye with an attacker stone
    // inside) is not vital: straight three with an attacker stone in the middle.
    let p = problem("defender", ".X.O#\nOOOO#\n#####");
    assert_eq!(benson_alive(&p.region, &p.start), 0);
    // An eye next to the wall is never vital.
    let p = problem("attacker", "O.O#\nOOO#\n.O##\n##");
    assert_eq!(benson_alive(&p.region, &p.start), 0);
}

#[test]
fn no_room_for_two_eyes_is_death() {
    // Every point of this strip touches the wall except the two adjacent points B19 C19.
    let p = problem("defender", "#..#\n#OO#\n####");
    assert!(cannot_make_two_eyes(&p.region, &p.start, p.targets));
    let p = problem("defender", STRAIGHT_THREE);
    assert!(!cannot_make_two_eyes(&p.region, &p.start, p.targets));
}

#[test]
fn an_attacker_stone_with_two_liberties_beside_safe_stones_leaves_no_eye_next_to_it() {
    // B19 is not joined to the wall, but its liberties A19 (next to the safe A18) and B18 (next
    // to the wall) are miai: the defender fills one, the attacker joins at the other. So C19 can
    // never be an eye, and D19 alone is one eye at most. Counted as capturable, B19 had left
    // room for two eyes (B19 and D19).
    let p = problem("defender", ".X..O#\nX.OOO#\n######");
    assert!(cannot_make_two_eyes(&p.region, &p.start, p.targets));
    super::life::BASIC_DEATH_TEST.with(|b| b.set(true));
    let basic = cannot_make_two_eyes(&p.region, &p.start, p.targets);
    super::life::BASIC_DEATH_TEST.with(|b| b.set(false));
    assert!(!basic);
    assert_eq!(solve(&p).status, Status::Dead);
}

#[test]
fn only_the_part_of_the_region_that_holds_a_target_can_give_it_eyes() {
    // The safe attacker stones E19 E18 cut the region in two: the targets F18 G18 G19 (one
    // liberty, F19) have no eye space on their side, whatever room the stones on the other side
    // have.
    let map = "...OX.O#\nOOOOXOO#\n########";
    let text = format!("problem t\nto-move defender\ntargets F18 G18 G19\nmap\n{map}\nend\n");
    let cut_off = parse_problems(&text).unwrap().remove(0);
    assert!(cannot_make_two_eyes(
        &cut_off.region,
        &cut_off.start,
        cut_off.targets
    ));
    assert_eq!(solve(&cut_off).status, Status::Dead);
    let every_stone = problem("defender", map);
    assert!(!cannot_make_two_eyes(
        &every_stone.region,
        &every_stone.start,
        every_stone.targets
    ));
}

/// The stronger death test (connections to safe stones, the targets' part of the region) only
/// saves search: on generated problems every status and winning move is the one the basic
/// death test gives, and the searches are smaller. (The forced moves of df-pn are checked by
/// the plain search's answers, which do not use them: `proofs_shared_...` above.)
#[test]
fn the_stronger_death_test_changes_no_answer() {
    let limits = Limits::with_budget(300_000);
    let mut solver = Solver::new(18);
    let (mut compared, mut nodes, mut basic_nodes) = (0, 0, 0);
    for (case, p, _) in open_problems(23, 3, 400) {
        let a = solver.solve(&p, &Weights::reference(), limits, true);
        super::life::BASIC_DEATH_TEST.with(|b| b.set(true));
        let b = solver.solve(&p, &Weights::reference(), limits, true);
        super::life::BASIC_DEATH_TEST.with(|b| b.set(false));
        if !same_answer(&a, &b, || format!("case {case}:\n{}", p.to_text())) {
            continue;
        }
        compared += 1;
        nodes += a.counters.nodes;
        basic_nodes += b.counters.nodes;
    }
    assert!(
        compared > 200 && nodes < basic_nodes,
        "{compared} compared, {nodes} nodes against {basic_nodes}"
    );
}

#[test]
fn status_strings_read_back() {
    for s in ["l", "d", "l1d", "d3l", "l5d"] {
        let st: Status = s.parse().unwrap();
        assert_eq!(st.to_string(), s);
    }
    for bad in ["x", "l0d", "l6d", "ldd", "d1d"] {
        assert!(bad.parse::<Status>().is_err(), "{bad}");
    }
}

#[test]
fn the_text_format_and_sgf_round_trip() {
    let text = "problem corner\nsize 9\nto-move attacker\nattacker white\ntargets D9\nstatus d1l\nmap\n...O#\n.OOO#\nOO###\n##\nend\n";
    let p = parse_problems(text).unwrap().remove(0);
    let again = parse_problems(&p.to_text()).unwrap().remove(0);
    assert_eq!(again.to_text(), p.to_text());
    assert_eq!(again.status, Some(Status::DeadUnlessKo(1)));
    let sgf = p.to_sgf();
    assert!(
        sgf.contains("SZ[9]") && sgf.contains("PL[W]") && sgf.contains("MA[da]"),
        "{sgf}"
    );
    let back = parse_sgf(&sgf).unwrap();
    assert_eq!(back.start.stones, p.start.stones);
    assert_eq!(back.start.to_move, Side::Attacker);
    assert_eq!(back.targets, p.targets);
    assert_eq!(back.region.coords, p.region.coords);
    assert!(!back.attacker_black);
}

/// Generated problems still open at the start (no chain without liberties, no terminal test
/// deciding them) for `cases` draws seeded from `seed`, levels `first_level` to
/// `first_level + 5` in turn: (case, problem, the case's random stream after the draw).
fn open_problems(
    seed: u64,
    first_level: u8,
    cases: u64,
) -> impl Iterator<Item = (u64, Problem, crate::rng::GameRng)> {
    use crate::rng::{derive_seed, rng_from_seed};
    (0..cases).filter_map(move |case| {
        let mut rng = rng_from_seed(derive_seed(seed, &[case]));
        let p = generate::draw(first_level + (case % 6) as u8, &mut rng)?;
        let open = p.start.chain_without_liberty(&p.region).is_none()
            && decided(&p.region, &p.start, p.targets).is_none();
        open.then_some((case, p, rng))
    })
}
