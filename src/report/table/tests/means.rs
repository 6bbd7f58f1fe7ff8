//! Mean and rating tables, and reference rows beside a table.

use super::*;

#[test]
fn mean_table_and_rating_table() {
    let r = records();
    let keys = vec!["budget".to_string()];
    let t = compute(
        &r,
        &TableParams {
            metric: Some("plies"),
            ..params(&keys, Statistic::Mean)
        },
    )
    .unwrap();
    // Plies 30..33 in each job, a game-level metric: mean 31.5 over its 4 games.
    assert_eq!(t.rows.len(), 2);
    assert_eq!((t.rows[0].n, t.rows[0].value.value), (4, 31.5));
    // Units: the mean of each job first (one job per budget here: one unit, no interval).
    let t = compute(
        &r,
        &TableParams {
            metric: Some("plies"),
            unit: Some("job"),
            ..params(&keys, Statistic::Mean)
        },
    )
    .unwrap();
    assert_eq!((t.rows[0].n, t.rows[0].value.value), (1, 31.5));
    assert!(t.rows[0].value.lo.is_nan());
    assert_eq!(t.n_name, "n (job)");
    // Pairs are numbered within their job: budget 10 has pairs 0 and 1 of job0 only.
    let t = compute(
        &r,
        &TableParams {
            metric: Some("plies"),
            unit: Some("pair"),
            ..params(&keys, Statistic::Mean)
        },
    )
    .unwrap();
    assert_eq!((t.rows[0].n, t.rows[0].value.value), (2, 31.5));
    // A bootstrap interval over records brackets the mean.
    let t = compute(
        &r,
        &TableParams {
            metric: Some("plies"),
            method: MeanInterval::Bootstrap,
            ..params(&keys, Statistic::Mean)
        },
    )
    .unwrap();
    assert!(
        t.rows[0].value.lo < 31.5 && 31.5 < t.rows[0].value.hi,
        "{:?}",
        t.rows[0]
    );
    assert_eq!(t.interval_name, "95% CI (bootstrap)");
    // Against budget 10, budget 20's games have the same plies: a difference of 0.
    let t = compute(
        &r,
        &TableParams {
            metric: Some("plies"),
            baseline: Some(("budget".into(), "10".into())),
            ..params(&keys, Statistic::Mean)
        },
    )
    .unwrap();
    assert_eq!(t.after_names[1], "Δ vs budget = 10");
    assert_eq!(t.rows[0].after[1..], ["–", "–", "–", "–"]);
    assert_eq!(t.rows[1].after[1..3], ["0.00", "0.0"]);
    let keys = vec!["budget".to_string(), "agent".to_string()];
    let t = compute(&r, &params(&keys, Statistic::Rating)).unwrap();
    // Budget 10: a scores 2.5 of 4 against b: p_a / p_b = 2.5 / 1.5, a difference of
    // 400 log10(5/3) = 88.74 Elo split around 0. Budget 20: a won every game: +inf.
    let a10 = t.rows.iter().find(|r| r.keys == ["10", "a"]).unwrap();
    assert!(
        (a10.value.value - 400.0 * (5f64 / 3.0).log10() / 2.0).abs() < 1e-6,
        "{a10:?}"
    );
    let a20 = t.rows.iter().find(|r| r.keys == ["20", "a"]).unwrap();
    assert_eq!(a20.value.value, f64::INFINITY);
    assert_eq!(a20.n, 4);
    assert_eq!(t.value_name, "rating (Elo, mean 0)");
    // Anchored on b: a is the whole difference above b at budget 10, b is 0 to 0, and the
    // CSV names the anchor. At budget 20, b lost every game: no finite rating to anchor on.
    let t = compute(
        &r,
        &TableParams {
            baseline: Some(("agent".into(), "b".into())),
            ..params(&keys, Statistic::Rating)
        },
    )
    .unwrap();
    assert_eq!(t.value_name, "rating (Elo, b = 0)");
    let a10 = t.rows.iter().find(|r| r.keys == ["10", "a"]).unwrap();
    assert!(
        (a10.value.value - 400.0 * (5f64 / 3.0).log10()).abs() < 1e-6,
        "{a10:?}"
    );
    assert!(a10.value.lo <= a10.value.value && a10.value.value <= a10.value.hi);
    let b10 = t.rows.iter().find(|r| r.keys == ["10", "b"]).unwrap();
    assert_eq!(
        (b10.value.value, b10.value.lo, b10.value.hi),
        (0.0, 0.0, 0.0)
    );
    let csv = t.csv();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .contains(",rating_elo,rating_elo_lo,rating_elo_hi,anchor"),
        "{csv}"
    );
    assert!(csv.lines().nth(1).unwrap().ends_with(",b"), "{csv}");
    // An anchor that did not play is named.
    let e = compute(
        &r,
        &TableParams {
            baseline: Some(("agent".into(), "zz".into())),
            ..params(&keys, Statistic::Rating)
        },
    )
    .unwrap_err();
    assert!(
        format!("{e:#}").contains("the baseline agent 'zz' has no games at 10 (agents: a, b)"),
        "{e:#}"
    );
}

#[test]
fn reference_rows_inside_outside_and_not_comparable() {
    let r = records();
    let keys = vec!["budget".to_string(), "agent".to_string()];
    let t = compute(&r, &params(&keys, Statistic::Score)).unwrap();
    let reference = ReferenceSpec {
        table: "t".into(),
        source: None,
        keys: vec!["budget".into(), "agent".into()],
        rows: vec![
            vec![
                toml::Value::Integer(10),
                "a".into(),
                toml::Value::Float(50.0),
            ],
            vec![
                toml::Value::Integer(10),
                "b".into(),
                toml::Value::Float(95.0),
            ],
            vec![
                toml::Value::Integer(30),
                "a".into(),
                toml::Value::Float(50.0),
            ],
            vec![toml::Value::Integer(20), "a".into(), "unreadable".into()],
        ],
        relative: false,
        note: None,
        reversal: None,
        n: Some(40),
        n_assumed: false,
        not_comparable: None,
        derived: false,
    };
    let c = compare(&reference, &t);
    // a: 2.5 of 4 (62.5%) against 50% of 40: consistent, and 50 lies inside our interval.
    assert_eq!(
        (&c[0].verdict, c[0].inside, c[0].paper_n),
        (&Verdict::Consistent, Some(true), Some(40))
    );
    let (name, p, holm) = c[0].test.unwrap();
    assert_eq!(name, "Fisher exact");
    // Two rows are tested: Holm never lowers a p-value.
    assert!(holm >= p, "{:?}", c[0].test);
    assert!(
        (c[0].difference.unwrap().value - 12.5).abs() < 1e-9,
        "ours - paper = 62.5 - 50"
    );
    // b: 1.5 of 4 against 95% of 40: 95% lies outside our interval; 37.5% is below 50% but our
    // interval (of 4 games, 9.2 to 78.1) reaches above it: no reversal, the ordinary verdict,
    // and at 4 games Fisher's p 0.036 is 0.071 after Holm over the two rows: consistent.
    assert_eq!(
        (&c[1].verdict, c[1].inside),
        (&Verdict::Consistent, Some(false)),
        "37.5% of 4 against 95% of 40: {:?}",
        c[1]
    );
    assert!(matches!(&c[2].verdict, Verdict::NotComparable(w) if w.contains("no measured row")));
    assert!(matches!(&c[3].verdict, Verdict::NotComparable(w) if w.contains("gives no number")));
    // A row's own n (after the value) overrides the reference's.
    let own = ReferenceSpec {
        rows: vec![vec![
            toml::Value::Integer(10),
            "a".into(),
            toml::Value::Float(50.0),
            toml::Value::Integer(400),
        ]],
        ..reference.clone()
    };
    assert_eq!(compare(&own, &t)[0].paper_n, Some(400));
    // A reference its file calls not comparable: every row shown with ours and the file's
    // reason, never tested.
    let apart = compare(
        &ReferenceSpec {
            not_comparable: Some("another engine's counts".into()),
            ..reference.clone()
        },
        &t,
    );
    assert!(
        apart.iter().all(|c| c.test.is_none()
            && c.verdict == Verdict::NotComparable("another engine's counts".into())),
        "{apart:?}"
    );
    assert_eq!(apart[0].measured.map(|m| m.0), Some(62.5));
    // Direction claims: b's 37.5% of 4 (9.2 to 78.1) lies wholly below 95, so "> 95" is
    // reversed and "< 95" holds; no p-value.
    let directions = compare(
        &ReferenceSpec {
            rows: vec![
                vec![toml::Value::Integer(10), "b".into(), "> 95".into()],
                vec![toml::Value::Integer(10), "b".into(), "< 95".into()],
            ],
            ..reference.clone()
        },
        &t,
    );
    assert_eq!(
        (&directions[0].verdict, &directions[1].verdict),
        (&Verdict::SignDiffers, &Verdict::Consistent),
        "{directions:?}"
    );
    assert!(
        directions[0].test.is_some_and(|(name, p, _)| name
            == crate::report::compare::DIRECTION_TEST
            && p.is_nan())
    );
    // Without the paper's n: a one-sample verdict, labelled so. 2.5 of 4 points, 3 whole,
    // against a fixed 50%: the exact binomial p is 10/16 (R: binom.test(3, 4)).
    let c = compare(
        &ReferenceSpec {
            n: None,
            ..reference.clone()
        },
        &t,
    );
    let (name, p, _) = c[0].test.unwrap();
    assert!(
        c[0].verdict == Verdict::Consistent
            && name == "exact binomial, one-sample"
            && (p - 0.625).abs() < 1e-12
            && c[0].verdict_text() == "consistent (one-sample)",
        "{:?}",
        c[0]
    );
    assert_eq!(c[0].inside, Some(true));
    assert!(markdown(&reference, &t, &c).contains("(2 of the verdicts one-sample)"));
    let md = markdown(&reference, &t, &c);
    assert!(
        md.contains("Fisher's exact test") && md.contains("Holm"),
        "{md}"
    );
}

#[test]
fn natural_order_compares_digit_runs_by_value_and_bands_by_difficulty() {
    use std::cmp::Ordering::*;
    assert_eq!(natural_cmp("size-6", "size-10"), Less);
    assert_eq!(natural_cmp("size-12", "size-9"), Greater);
    assert_eq!(natural_cmp("2.5", "10"), Less);
    assert_eq!(natural_cmp("a", "b"), Less);
    assert_eq!(natural_cmp("lv3-14", "lv3-4"), Greater);
    assert_eq!(natural_cmp("x", "x"), Equal);
    // Difficulty bands by difficulty; other words as text.
    assert_eq!(natural_cmp("medium", "hard"), Less);
    assert_eq!(natural_cmp("easy", "medium"), Less);
    assert_eq!(natural_cmp("hard", "harder"), Less);
}
