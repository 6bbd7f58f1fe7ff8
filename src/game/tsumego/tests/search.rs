//! The solver's determinism, what weights change and what they never change, generated
//! libraries, the fitness functions, passes, seki and the status sweep.

use super::*;

#[test]
fn solves_are_identical_when_repeated_and_across_threads() {
    let problems = [
        problem("attacker", BENT_FOUR),
        problem("defender", SEKI),
        problem("attacker", STRAIGHT_THREE),
        problem("defender", ".X.O#\nXOOO#\nOO###\n##"),
    ];
    let mut solver = Solver::new(16);
    let first: Vec<(Status, u64, u64)> = problems
        .iter()
        .map(|p| {
            let s = solver.solve(p, &Weights::reference(), Limits::default(), true);
            (s.status, s.counters.leaves, s.counters.nodes)
        })
        .collect();
    // The same solver again, in reverse order: nothing carries over between problems.
    let again: Vec<(Status, u64, u64)> = problems
        .iter()
        .rev()
        .map(|p| {
            let s = solver.solve(p, &Weights::reference(), Limits::default(), true);
            (s.status, s.counters.leaves, s.counters.nodes)
        })
        .collect();
    assert_eq!(first, again.into_iter().rev().collect::<Vec<_>>());
    // Fresh solvers on two threads.
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let parallel: Vec<(Status, u64, u64)> = pool.install(|| {
        problems
            .par_iter()
            .map_init(
                || Solver::new(16),
                |s, p| {
                    let r = s.solve(p, &Weights::reference(), Limits::default(), true);
                    (r.status, r.counters.leaves, r.counters.nodes)
                },
            )
            .collect()
    });
    assert_eq!(first, parallel);
}

#[test]
fn the_weights_change_the_cost_not_the_answer() {
    let problems = [
        problem("attacker", BENT_FOUR),
        problem("defender", SEKI),
        problem("attacker", STRAIGHT_THREE),
    ];
    let mut solver = Solver::new(16);
    for p in &problems {
        let r = solver.solve(p, &Weights::reference(), Limits::default(), true);
        let z = solver.solve(p, &Weights::zero(), Limits::default(), true);
        assert_eq!(
            (r.status, &r.winning_moves),
            (z.status, &z.winning_moves),
            "{}",
            p.to_text()
        );
    }
}

#[test]
fn a_node_budget_gives_unknown() {
    let p = problem("attacker", BENT_FOUR);
    let s = Solver::new(16).solve(&p, &Weights::zero(), Limits::with_budget(5), true);
    assert_eq!(s.status, Status::Unknown);
    assert!(s.winning_moves.is_empty());
}

#[test]
fn weights_files_name_their_features() {
    let w = heuristic::parse_weights("nakade_vital 900\nhistory 10 # dynamic\n").unwrap();
    assert_eq!(
        w.statics[heuristic::STATIC_FEATURES
            .iter()
            .position(|&n| n == "nakade_vital")
            .unwrap()],
        900.0
    );
    assert_eq!(w.dynamics[0], 10.0);
    assert_eq!(
        heuristic::parse_weights(&heuristic::weights_text(&Weights::zero())).unwrap(),
        Weights::zero()
    );
    assert!(
        heuristic::parse_weights("vital 3")
            .unwrap_err()
            .contains("unknown feature 'vital'")
    );
    assert!(heuristic::parse_weights("pass -1").is_err());
}

#[test]
fn the_reference_heuristic_ranks_the_vital_point_first() {
    // Straight three: B19 is the vital point (nakade_vital, split_eye_space) for both sides;
    // the zero weights rank by point index (A19 first), pass last.
    for side in ["defender", "attacker"] {
        let p = problem(side, STRAIGHT_THREE);
        let ranked = Solver::new(12).rank_first_moves(&p, &Weights::reference());
        assert_eq!(p.move_name(ranked[0]), "B19", "{side}");
        let zero = Solver::new(12).rank_first_moves(&p, &Weights::zero());
        assert_eq!(
            names(&p, &zero),
            ["A19", "B19", "C19", "pass"],
            "{side}: both sides may pass"
        );
    }
}

#[test]
fn generated_problems_are_reproducible_and_solved() {
    let limits = Limits::default();
    let a = generate::generate_level(2, 1, 3, 42, limits, &|| {});
    let b = generate::generate_level(2, 1, 3, 42, limits, &|| {});
    assert_eq!(generate::level_text(&a, 42), generate::level_text(&b, 42));
    assert_eq!(a.problems.len(), 3);
    for p in &a.problems {
        assert!(p.name.starts_with("lv2-1-"));
        // The file reads back, and its recorded status is the solver's.
        let back = parse_problems(&p.to_text()).unwrap().remove(0);
        let s = solve(&back);
        assert_eq!(Some(s.status), p.status);
        assert_eq!(
            s.status.mover_wins(p.start.to_move),
            Some(true),
            "the side to move wins"
        );
        assert_eq!(s.winning_moves, p.winning);
        let (empty, region) = generate::level_shape(1);
        assert_eq!(
            (
                p.start.empty(&p.region).count_ones() as usize,
                p.region.len()
            ),
            (empty, region)
        );
    }
}

#[test]
fn mirror_images_share_a_symmetry_key() {
    // The same corner shape, transposed (rows for columns), and one with a stone moved.
    let a = problem("attacker", "...O#\n.OOO#\nOO###\n##");
    let b = problem("attacker", "..O#\n.OO#\n.O#\nOO#\n###");
    let c = problem("attacker", "..O.#\n.OOO#\nOO###\n##");
    assert_eq!(generate::symmetry_key(&a), generate::symmetry_key(&b));
    assert_ne!(generate::symmetry_key(&a), generate::symmetry_key(&c));
    let d = problem("defender", "...O#\n.OOO#\nOO###\n##");
    assert_ne!(
        generate::symmetry_key(&a),
        generate::symmetry_key(&d),
        "the side to move counts"
    );
}

#[test]
fn the_static_fitness_scores_the_place_of_the_winning_move() {
    use super::fitness::{REPORT_BONUS, static_fitness, winning_place};
    // Hand-checked rankings of straight three (winning move B19 for either side): the reference
    // weights put B19 first (bonus 20); the zero weights rank by point index, A19 then B19
    // (place 2: bonus 13).
    let d = problem("defender", STRAIGHT_THREE);
    let a = problem("attacker", STRAIGHT_THREE);
    let mut solver = Solver::new(12);
    let mut both = Vec::new();
    for mut p in [d, a] {
        p.winning = vec![Move::Play(point(&p, "B19") as u8)];
        both.push(p);
    }
    assert_eq!(
        static_fitness(&mut solver, &both, &Weights::reference(), &REPORT_BONUS),
        40.0
    );
    assert_eq!(
        static_fitness(&mut solver, &both, &Weights::zero(), &REPORT_BONUS),
        26.0
    );
    // A bonus list shorter than the winning move's place gives nothing.
    assert_eq!(
        static_fitness(&mut solver, &both, &Weights::zero(), &[20.0]),
        0.0
    );
    // Several winning moves: the best-placed one counts; none: no place.
    let m = |i| Move::Play(i);
    assert_eq!(winning_place(&[m(4), m(2), m(7)], &[m(7), m(2)]), Some(1));
    assert_eq!(winning_place(&[m(4), m(2)], &[m(9)]), None);
}

#[test]
fn the_four_dynamic_fitness_formulas() {
    use super::fitness::Formula;
    let old = [100, 40];
    let new = [50, 80];
    assert_eq!(
        Formula::OldSquaredOverNew.raw(&old, &new),
        100.0 * 100.0 / 50.0 + 40.0 * 40.0 / 80.0
    );
    assert_eq!(Formula::OldOverNew.raw(&old, &new), 2.0 + 0.5);
    assert_eq!(Formula::MinusNew.raw(&old, &new), -130.0);
    assert_eq!(Formula::OneOverNew.raw(&old, &new), 1.0 / 50.0 + 1.0 / 80.0);
    // A problem decided at the root (0 leaves) counts as one leaf.
    assert_eq!(Formula::OneOverNew.raw(&[], &[0]), 1.0);
    assert_eq!(Formula::try_from(3u8), Ok(Formula::MinusNew));
    assert!(Formula::try_from(5u8).is_err());
}

#[test]
fn selections_take_problems_round_robin_over_their_files() {
    use super::library::{LibrarySpec, Selection, parse_levels};
    let dir = tempfile::tempdir().unwrap();
    let spec = LibrarySpec::generated(2, "1-2", 3, 5);
    let lib = spec.ensure(dir.path(), "t", Some(1)).unwrap();
    assert!(lib.join("library.json").exists() && lib.join("lv2-2").exists());
    // Generated once: a second call finds it complete.
    assert_eq!(spec.ensure(dir.path(), "t", Some(1)).unwrap(), lib);
    let sel = |sets: Vec<u8>, levels: &str, count: Option<usize>| Selection {
        sets,
        levels: levels.into(),
        count,
        unique: false,
    };
    let all: Vec<String> = sel(vec![1, 2], "1-2", None)
        .load(&lib)
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(all.len(), 12);
    assert_eq!(
        &all[..4],
        ["lv1-1-001", "lv1-2-001", "lv2-1-001", "lv2-2-001"]
    );
    let five: Vec<String> = sel(vec![1, 2], "1-2", Some(5))
        .load(&lib)
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(five, all[..5], "a smaller count is a prefix");
    assert!(
        sel(vec![1], "1-2", Some(7)).load(&lib).is_err(),
        "more than the library holds"
    );
    assert!(sel(vec![3], "1-2", None).check(&spec).is_err());
    assert!(sel(vec![1], "1-3", None).check(&spec).is_err());
    assert_eq!(parse_levels("3-6"), Ok(3..=6));
    assert!(
        parse_levels("6-3").is_err() && parse_levels("0-2").is_err() && parse_levels("x").is_err()
    );
    // A library file edited after generation (a problem's side to move changed, say) is
    // refused by name, not solved as if it were the library's.
    let file = lib.join("lv1-2");
    let text = std::fs::read_to_string(&file).unwrap();
    let swapped = if text.contains("to-move attacker") {
        text.replacen("to-move attacker", "to-move defender", 1)
    } else {
        text.replacen("to-move defender", "to-move attacker", 1)
    };
    std::fs::write(&file, swapped).unwrap();
    let edited = std::fs::read_to_string(&file).unwrap() != text;
    assert!(edited, "the test edits the file");
    let err = sel(vec![1], "1-2", None).load(&lib).unwrap_err();
    assert!(
        err.to_string().contains("lv1-2")
            && err.to_string().contains("changed after gamelab wrote it"),
        "{err}"
    );
}

#[test]
fn level_scale_grows_and_libraries_carry_the_generator_version() {
    use super::library::LibrarySpec;
    assert_eq!(generate::level_shape(1), (6, 14));
    assert_eq!(generate::level_shape(14), (11, 16));
    for l in 1..14 {
        let (a, b) = (generate::level_shape(l), generate::level_shape(l + 1));
        assert!(
            b.0 >= a.0,
            "empty points never shrink from level {l} to {}",
            l + 1
        );
        assert!(
            b.1 >= a.1,
            "the region never shrinks from level {l} to {}",
            l + 1
        );
        assert!(
            b.1 - b.0 <= a.1 - a.0,
            "the shell never thickens from level {l} to {}",
            l + 1
        );
    }
    let spec: LibrarySpec =
        toml::from_str("sets = 1\nlevels = \"1-2\"\nper_level = 1\nseed = 1").unwrap();
    assert_eq!(spec.generator, generate::GENERATOR_VERSION);
    let mut older = spec.clone();
    older.generator -= 1;
    assert_ne!(
        spec.dir(std::path::Path::new("o"), "x"),
        older.dir(std::path::Path::new("o"), "x"),
        "another generator, another folder"
    );
    assert!(
        toml::from_str::<LibrarySpec>(
            "sets = 1\nlevels = \"1-2\"\nper_level = 1\nseed = 1\ngenerator = 1"
        )
        .is_err(),
        "the version is not set in a file"
    );
}

/// The heuristic orders the search; it must never change what the search finds. On generated
/// problems (the side to move may win or lose) and random weight vectors, the status and the
/// set of winning first moves are those of the zero weights whenever both searches finish.
#[test]
fn the_weights_never_change_the_status_or_the_winning_moves() {
    use crate::rng::unit_f64;
    let limits = Limits::with_budget(200_000);
    let mut solver = Solver::new(18);
    let (mut compared, mut checked) = (0, 0);
    for (case, p, mut rng) in open_problems(7, 1, 400) {
        let mut random = Weights::zero();
        random
            .statics
            .iter_mut()
            .for_each(|w| *w = (unit_f64(&mut rng) * 1000.0).round());
        random
            .dynamics
            .iter_mut()
            .for_each(|w| *w = (unit_f64(&mut rng) * 10000.0).round());
        let zero = solver.solve(&p, &Weights::zero(), limits, true);
        checked += 1;
        for w in [Weights::reference(), random] {
            let s = solver.solve(&p, &w, limits, true);
            if same_answer(&zero, &s, || {
                format!("case {case}, weights {w:?}:\n{}", p.to_text())
            }) {
                compared += 1;
            }
        }
    }
    assert!(
        checked > 200 && compared > 300,
        "{checked} problems, {compared} comparisons"
    );
}

#[test]
fn two_passes_start_the_judging_phase_where_the_attacker_must_play() {
    use super::solver::{after_pass, may_pass};
    let p = problem("attacker", STRAIGHT_THREE);
    let mut pos = p.start;
    pos.threats = [2, 3];
    assert!(
        may_pass(&pos),
        "the attacker may wait before the judging phase"
    );
    let one = after_pass(&pos);
    assert_eq!(
        (one.to_move, one.passes, one.judging, one.threats),
        (Side::Defender, 1, false, [2, 3])
    );
    assert!(may_pass(&one));
    // The second pass in a row: the same stones, the attacker to move, no passes, the
    // defender's external threats removed, the attacker's kept.
    let judged = after_pass(&one);
    assert_eq!(judged.stones, pos.stones);
    assert_eq!(
        (
            judged.to_move,
            judged.passes,
            judged.judging,
            judged.threats
        ),
        (Side::Attacker, 0, true, [2, 0])
    );
    assert!(
        !may_pass(&judged),
        "in the judging phase the attacker may not pass"
    );
    // The defender may; a pass back in the judging phase is its life (two passes there).
    let (after, _) = judged.play(&p.region, point(&p, "B19")).unwrap();
    assert!(after.judging && may_pass(&after));
    let waits = after_pass(&after_pass(&after));
    assert!(waits.judging && waits.passes == 2);
    assert_eq!(decided(&p.region, &waits, p.targets), Some(Side::Defender));
}

#[test]
fn seki_lives_though_the_attacker_may_wait() {
    // The attacker may pass now; after the defender's pass back the judging phase starts with
    // the attacker to move, and whoever plays inside first loses: alive, whoever moves first.
    for side in ["attacker", "defender"] {
        let p = problem(side, SEKI);
        assert_eq!(solve(&p).status, Status::Alive, "{side}");
        let judged = super::solver::after_pass(&super::solver::after_pass(&p.start));
        assert!(judged.judging && judged.stones == p.start.stones);
    }
}

#[test]
fn the_status_sweep_gives_the_status_its_definition_gives() {
    // The sweep (`Solver::status`) orders its solves to save work and reads proofs across
    // budgets. Its status must be the definition's: the threat-free result, then the smallest
    // budget (1..5) of the side losing it that flips it (none: plain), each budget solved alone.
    use super::solver::MAX_THREATS;
    use crate::rng::{below, derive_seed, rng_from_seed, unit_f64};
    let limits = Limits::with_budget(300_000);
    let w = Weights::reference();
    let (mut sweep, mut alone) = (Solver::new(18), Solver::new(18));
    let (mut compared, mut kos, mut past_one) = (0, 0, 0);
    // Generated problems seldom turn on a ko; random stones in a small corner region (the
    // shape of the bent four above) often do.
    'problems: for case in 0..4500u64 {
        let mut rng = rng_from_seed(derive_seed(12, &[case]));
        let mut map = String::new();
        for row in 0..3 {
            for _ in 0..5 {
                let u = unit_f64(&mut rng);
                map.push(if u < 0.4 {
                    'O'
                } else if u < 0.6 {
                    'X'
                } else {
                    '.'
                });
            }
            map.push_str(if row < 2 { "#\n" } else { "#\n######" });
        }
        let to_move = if below(&mut rng, 2) == 0 {
            "defender"
        } else {
            "attacker"
        };
        let text = format!("problem t\nto-move {to_move}\nmap\n{map}\nend\n");
        let Ok(mut ps) = parse_problems(&text) else {
            continue;
        };
        let p = ps.remove(0);
        if p.start.chain_without_liberty(&p.region).is_some()
            || decided(&p.region, &p.start, p.targets).is_some()
        {
            continue;
        }
        let status = sweep.solve(&p, &w, limits, false).status;
        if status == Status::Unknown {
            continue;
        }
        let Some(free) = alone.defender_lives_alone(&p, &w, limits, 0, 0) else {
            continue;
        };
        let mut flip = None;
        for n in 1..=MAX_THREATS {
            let (a, d) = if free { (n, 0) } else { (0, n) };
            match alone.defender_lives_alone(&p, &w, limits, a, d) {
                None => continue 'problems,
                Some(l) if l != free => {
                    flip = Some(n);
                    break;
                }
                Some(_) => {}
            }
        }
        let definition = match (free, flip) {
            (true, None) => Status::Alive,
            (false, None) => Status::Dead,
            (true, Some(n)) => Status::AliveUnlessKo(n),
            (false, Some(n)) => Status::DeadUnlessKo(n),
        };
        assert_eq!(status, definition, "case {case}:\n{}", p.to_text());
        compared += 1;
        kos += flip.is_some() as u32;
        past_one += flip.is_some_and(|n| n > 1) as u32;
    }
    assert!(
        compared > 3000 && kos > 30 && past_one > 2,
        "{compared} compared, {kos} ko statuses, {past_one} needing more than one threat"
    );
}

#[test]
fn proofs_shared_across_threat_budgets_give_the_status_of_each_budget_alone() {
    // df-pn's later solves of the status sweep read the proofs of earlier ones made under other
    // threat budgets (`Solver::proofs`); the plain search reads only its own budget's table.
    // Both must give every status alike, ko statuses above all.
    use super::solver::Search;
    let limits = Limits::with_budget(300_000);
    let (mut dfpn, mut plain) = (Solver::new(18), Solver::new(18));
    let (mut compared, mut kos, mut shared) = (0, 0, 0);
    for (case, p, _) in open_problems(11, 2, 600) {
        let a = dfpn.solve(&p, &Weights::reference(), limits, true);
        let b = plain.solve(
            &p,
            &Weights::reference(),
            limits.searching(Search::AlphaBeta),
            true,
        );
        if !same_answer(&a, &b, || format!("case {case}:\n{}", p.to_text())) {
            continue;
        }
        compared += 1;
        kos += !matches!(a.status, Status::Alive | Status::Dead) as u32;
        shared += (a.counters.proofs_shared > 0) as u32;
    }
    assert!(
        compared > 300 && shared > 50,
        "{compared} compared, {shared} read a proof of another budget, {kos} ko statuses"
    );
}

#[test]
fn a_terminal_position_counts_as_one_leaf_however_often_the_search_meets_it() {
    // A leaf is a position the terminal test decides, counted once per problem: df-pn meets the
    // same terminal children again at each re-expansion (and the plain search by transposition),
    // and counted them again each time (3-6 times the distinct positions on these problems).
    let mut problems: Vec<Problem> =
        vec![problem("attacker", BENT_FOUR), problem("defender", SEKI)];
    for level in [6, 10] {
        problems
            .extend(generate::generate_level(1, level, 3, 5, Limits::default(), &|| {}).problems);
    }
    let mut reexpanded = 0;
    for p in &problems {
        for search in [solver::Search::DfPn, solver::Search::AlphaBeta] {
            let mut s = Solver::new(20);
            let r = s.solve(
                p,
                &Weights::reference(),
                Limits::default().searching(search),
                true,
            );
            assert_ne!(r.status, Status::Unknown);
            let (distinct, met) = s.leaf_positions_met();
            // Each distinct position once; again only where the memo's slot was taken by
            // another position meanwhile (a collision in its 2^20 slots: rare).
            let leaves = r.counters.leaves;
            assert!(
                leaves >= distinct && leaves <= distinct + distinct / 100,
                "{}: {search:?} counted {leaves} leaves for {distinct} distinct terminal positions, met {met} times",
                p.name
            );
            reexpanded += (met > distinct + distinct / 10) as u32;
        }
    }
    // The problems do make the searches meet terminal positions again, far more often than
    // once each (so the test fails when each meeting counts).
    assert!(reexpanded >= 4, "{reexpanded}");
}
