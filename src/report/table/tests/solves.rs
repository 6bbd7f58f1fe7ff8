//! Solve tables: budget filters and paired baselines.

use super::*;

/// Solve rows: weights `new` and `old` on problems p0..p4 (leaves given), `new` on one more
/// problem that `old` lacks.
fn solve_records() -> Records {
    solve_records_cut(&[])
}

/// `solve_records`, with `old`'s searches of the problems `cut` stopped at the node budget.
fn solve_records_cut(cut: &[usize]) -> Records {
    let old = [100.0, 200.0, 400.0, 800.0, 1600.0];
    let new = [90.0, 170.0, 380.0, 700.0, 1500.0, 5.0];
    let row = |weights: &str, i: usize, leaves: f64| crate::experiment::kind::solve::SolveRow {
        weights: weights.into(),
        problem: format!("p{i}"),
        set: 1,
        level: 1,
        status: "l".into(),
        expected: "l".into(),
        leaves: leaves as u64,
        nodes: leaves as u64,
        tt_hits: 0,
        max_depth: 1,
        time_s: 0.0,
        budget_hit: weights == "old" && cut.contains(&i),
    };
    let rows: Vec<_> = old
        .iter()
        .enumerate()
        .map(|(i, &x)| row("old", i, x))
        .chain(new.iter().enumerate().map(|(i, &x)| row("new", i, x)))
        .collect();
    let id = JobColumns {
        experiment: "t",
        job: "job0",
        repeat: 0,
        swept: vec![],
    };
    Records::rows(vec![(
        "part-job0".into(),
        crate::experiment::kind::solve::solves_frame(&id, &rows)
            .unwrap()
            .lazy(),
    )])
    .unwrap()
}

/// `filter = { budget_hit = 0 }` drops the cut-off searches, so a paired table compares the
/// problems both weight vectors solved within the budget.
#[test]
fn a_budget_hit_filter_leaves_the_problems_both_weights_solved() {
    let r = solve_records_cut(&[4]);
    let keys = vec!["weights".to_string()];
    let with = |filter: &[(String, String)]| {
        let t = compute(
            &r,
            &TableParams {
                metric: Some("leaves"),
                unit: Some("problem"),
                baseline: Some(("weights".into(), "old".into())),
                paired: true,
                filter,
                ..params(&keys, Statistic::Mean)
            },
        )
        .unwrap();
        let row = |w: &str| {
            let r = t.rows.iter().find(|row| row.keys == [w]).unwrap();
            (r.n, r.value.value)
        };
        let new = t.rows.iter().find(|row| row.keys == ["new"]).unwrap();
        (new.after[1..3].to_vec(), row("new"), row("old"))
    };
    // Every problem: differences -10 -30 -20 -100 -100 (mean -52, of the partners' 620); both
    // rows over p0..p4 (new's p5 has no partner), so the means differ by the Δ.
    assert_eq!(
        with(&[]),
        (vec!["-52.00".into(), "-8.4".into()], (5, 568.0), (5, 620.0))
    );
    // Solved by both: p0..p3, differences -10 -30 -20 -100 (mean -40, of 375: -10.7%); new's
    // row has dropped p4, which it solved and old did not.
    assert_eq!(
        with(&[("budget_hit".into(), "0".into())]),
        (
            vec!["-40.00".into(), "-10.7".into()],
            (4, 335.0),
            (4, 375.0)
        )
    );
}

#[test]
fn a_paired_baseline_compares_the_units_both_groups_have() {
    let r = solve_records();
    let keys = vec!["weights".to_string()];
    let with = |paired: bool| {
        compute(
            &r,
            &TableParams {
                metric: Some("leaves"),
                unit: Some("problem"),
                baseline: Some(("weights".into(), "old".into())),
                paired,
                ..params(&keys, Statistic::Mean)
            },
        )
        .unwrap()
    };
    let t = with(true);
    assert_eq!(
        t.after_names[1..],
        [
            "Δ vs weights = old",
            "Δ %",
            "paired t 95% CI",
            "p (paired t)"
        ]
    );
    let new = t.rows.iter().find(|row| row.keys == ["new"]).unwrap();
    // Differences on p0..p4 (p5 has no partner): -10 -30 -20 -100 -100, mean -52, SD 43.82,
    // t = -52 / (43.818 / sqrt 5) = -2.6536 on 4 df; -52 of the partners' mean 620 is -8.4%.
    let d = [-10.0, -30.0, -20.0, -100.0, -100.0];
    let expected = crate::stats::means::mean_interval(&d, 0.95).unwrap();
    assert_eq!(new.after[1..3], ["-52.00", "-8.4"]);
    assert_eq!(
        new.after[3],
        format!("{} to {}", fixed(expected.lo, 2), fixed(expected.hi, 2))
    );
    // Unpaired, every problem of each group counts (p5 included) and the spread between
    // problems hides the effect.
    let w = with(false);
    let new_w = w.rows.iter().find(|row| row.keys == ["new"]).unwrap();
    assert_eq!((new.n, new_w.n), (5, 6));
    assert_eq!(w.after_names[3], "Welch 95% CI");
    let p_of = |row: &TableRow| row.after[4].parse::<f64>().unwrap_or(0.0);
    assert!(
        p_of(new) < 0.06 && p_of(new_w) > 0.5,
        "{:?} {:?}",
        new.after,
        new_w.after
    );
    // A published change in % is compared with the measured change: -8.4% with the paired
    // interval over 620.
    let change = new.change.unwrap();
    assert!(
        (change.lo - 100.0 * expected.lo / 620.0).abs() < 1e-9
            && (change.hi - 100.0 * expected.hi / 620.0).abs() < 1e-9
    );
    let reference = ReferenceSpec {
        table: "t".into(),
        source: None,
        keys: vec!["weights".into()],
        rows: vec![
            vec!["new".into(), toml::Value::Float(-10.0)],
            vec!["new".into(), toml::Value::Float(-30.0)],
            vec!["old".into(), toml::Value::Float(-10.0)],
        ],
        relative: true,
        note: None,
        reversal: None,
        n: None,
        n_assumed: false,
        not_comparable: None,
        derived: false,
    };
    let c = compare(&reference, &t);
    // Changes come without their spread: the paper's change is taken as fixed against ours, a
    // one-sample t from our paired interval (-10 inside it: consistent; -30 outside: different).
    assert!(
        c[0].verdict == Verdict::Consistent
            && c[1].verdict == Verdict::Different
            && c[0].one_sample()
            && c[0].verdict_text() == "consistent (one-sample)",
        "{c:?}"
    );
    assert_eq!(
        (c[0].inside, c[1].inside),
        (Some(true), Some(false)),
        "{c:?}"
    );
    assert!(
        matches!(&c[2].verdict, Verdict::NotComparable(w) if w.contains("baseline")),
        "{c:?}"
    );
    assert!(
        markdown(&reference, &t, &c)
            .contains("measured change of mean leaves in % of the baseline's")
    );
}
