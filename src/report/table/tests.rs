//! Tables from a small fixed set of rows, checked cell by cell.

use super::*;
use crate::experiment::rows::{GameRow, JobColumns, SweptKind, games_frame};
use crate::report::compare::{Verdict, compare, markdown};
use crate::report::spec::MeanInterval;
use crate::report::spec::ReferenceSpec;
use polars::prelude::IntoLazy;

fn row(game: u32, first: &str, second: &str, winner: &'static str, pair: Option<u32>) -> GameRow {
    GameRow {
        game,
        pair,
        stage: "small6".into(),
        first_agent: first.into(),
        second_agent: second.into(),
        winner,
        first_score: if winner == "first" { 20 } else { 16 },
        second_score: if winner == "first" { 16 } else { 20 },
        plies: 30 + game,
        wall_ms: 1.0,
        first_moves: 15,
        second_moves: 15,
        first_budget: "-".into(),
        second_budget: "-".into(),
        termination: "normal",
        ..GameRow::default()
    }
}

/// Two jobs (budget 10 and 20) of a match a vs b, four games each, colours swapped in pairs.
fn records() -> Records {
    records_of([
        // budget 10: a wins 2, draws 1, loses 1
        vec![
            row(0, "a", "b", "first", Some(0)),
            row(1, "b", "a", "draw", Some(0)),
            row(2, "a", "b", "second", Some(1)),
            row(3, "b", "a", "second", Some(1)),
        ],
        // budget 20: a wins all 4
        vec![
            row(0, "a", "b", "first", Some(0)),
            row(1, "b", "a", "second", Some(0)),
            row(2, "a", "b", "first", Some(1)),
            row(3, "b", "a", "second", Some(1)),
        ],
    ])
}

/// The records of two jobs (budget 10 and 20), one part each, with these games.
fn records_of(games: [Vec<GameRow>; 2]) -> Records {
    let mut parts = Vec::new();
    let budgets = [toml::Value::Integer(10), toml::Value::Integer(20)];
    for (j, rows) in games.iter().enumerate() {
        let hash = format!("job{j}");
        let id = JobColumns {
            experiment: "t",
            job: &hash,
            repeat: 0,
            swept: vec![("budget", SweptKind::Int, &budgets[j])],
        };
        parts.push((
            std::path::PathBuf::from(format!("part-{hash}")),
            games_frame(&id, rows).unwrap().lazy(),
        ));
    }
    Records::games(parts, &["budget".to_string()]).unwrap()
}

fn params<'a>(group_by: &'a [String], statistic: Statistic) -> TableParams<'a> {
    TableParams {
        name: "t",
        title: "T",
        group_by,
        filter: &[],
        statistic,
        metric: None,
        unit: None,
        weighted_by: None,
        method: MeanInterval::T,
        baseline: None,
        paired: false,
        elo: false,
        level: 0.95,
        interval: Interval::Wilson,
        bootstrap: 200,
        seed: 1,
    }
}

fn cells(md: &str, line: usize) -> Vec<String> {
    md.lines()
        .nth(line)
        .unwrap()
        .split('|')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect()
}

#[test]
fn score_table_cell_by_cell() {
    let r = records();
    assert_eq!(r.count().unwrap(), 16);
    let keys = vec!["budget".to_string(), "agent".to_string()];
    let t = compute(&r, &params(&keys, Statistic::Score)).unwrap();
    let md = t.markdown();
    assert_eq!(
        cells(&md, 0),
        [
            "budget",
            "agent",
            "games",
            "W",
            "D",
            "L",
            "score %",
            "95% CI (Wilson)"
        ]
    );
    // Budget 10: a 2W 1D 1L = 62.5%;
    // statsmodels proportion_confint(2.5, 4, method="wilson") = (0.21942652006536284, 0.9081007708209878)
    assert_eq!(cells(&md, 2)[..7], ["10", "a", "4", "2", "1", "1", "62.5"]);
    assert_eq!(cells(&md, 2)[7], "21.9 to 90.8");
    assert_eq!(cells(&md, 3)[..7], ["10", "b", "4", "1", "1", "2", "37.5"]);
    assert_eq!(cells(&md, 4)[..7], ["20", "a", "4", "4", "0", "0", "100.0"]);
    assert_eq!(cells(&md, 5)[..7], ["20", "b", "4", "0", "0", "4", "0.0"]);
    assert_eq!(md.lines().count(), 6);
    let csv = t.csv();
    assert_eq!(
        csv.lines().next().unwrap(),
        "budget,agent,games,wins,draws,losses,score,score_lo,score_hi"
    );
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("10,a,4,2,1,1,62.5,21.94"),
        "{csv}"
    );
}

#[test]
fn pairs_of_two_jobs_with_the_same_index_stay_apart_and_a_lone_game_breaks_its_group() {
    // By agent only, both jobs' pairs 0 and 1 fall in one group: four pairs, not two
    // groups of four games.
    let r = records();
    let keys = vec!["agent".to_string()];
    let elo = |r: &Records| {
        compute(
            r,
            &TableParams {
                elo: true,
                ..params(&keys, Statistic::Score)
            },
        )
        .unwrap()
    };
    let t = elo(&r);
    let a = t.rows.iter().find(|row| row.keys == ["a"]).unwrap();
    // a's pairs: 3/4 and 1/2 (budget 10), 1 and 1 (budget 20).
    assert_eq!(
        (a.after[3].as_str(), a.after[4].as_str()),
        ("pairs", "0/0/1/1/2")
    );
    // A fifth game without a partner in job 1: its group's Elo falls back to games.
    let pair = || {
        vec![
            row(0, "a", "b", "first", Some(0)),
            row(1, "b", "a", "draw", Some(0)),
        ]
    };
    let mut lone = pair();
    lone.push(row(2, "a", "b", "first", None));
    let r = records_of([pair(), lone]);
    let t = elo(&r);
    assert!(
        t.rows.iter().all(|row| row.after[3] == "games"),
        "{:?}",
        t.rows
    );
}

#[test]
fn elo_uses_pairs_when_every_game_has_its_partner() {
    let r = records();
    let keys = vec!["budget".to_string(), "agent".to_string()];
    let t = compute(
        &r,
        &TableParams {
            elo: true,
            ..params(&keys, Statistic::Score)
        },
    )
    .unwrap();
    assert_eq!(
        t.after_names,
        ["Elo", "Elo 95% CI", "LOS", "Elo unit", "pairs 0/¼/½/¾/1"]
    );
    // Budget 10, agent a: pairs (1 + 0.5)/2 = 0.75 and (0 + 1)/2 = 0.5; mean score 0.625:
    // Elo = -400 log10(1/0.625 - 1) = 88.7
    let a10 = &t.rows[0];
    assert_eq!(a10.after[0], "88.7");
    assert_eq!(a10.after[3], "pairs");
    // One pair scored 3/4 (win and draw), one 1/2 (a loss and a win).
    assert_eq!(a10.after[4], "0/0/1/1/0");
    // The CSV: one value a cell, plain names, the interval and the pair counts split.
    let csv = t.csv();
    assert_eq!(
        csv.lines().next().unwrap(),
        "budget,agent,games,wins,draws,losses,score,score_lo,score_hi,elo,elo_lo,elo_hi,los,elo_unit,pairs_0,pairs_1_4,pairs_1_2,pairs_3_4,pairs_1"
    );
    let first: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(first.len(), 19, "{csv}");
    let (lo, hi) = a10.after[1].split_once(" to ").unwrap();
    assert_eq!(
        first[9..],
        [
            "88.7",
            lo,
            hi,
            a10.after[2].as_str(),
            "pairs",
            "0",
            "0",
            "1",
            "1",
            "0"
        ]
    );
    // Grouping by seat breaks pairs: the unit falls back to games.
    let keys = vec!["agent".to_string(), "seat".to_string()];
    let t = compute(
        &r,
        &TableParams {
            elo: true,
            ..params(&keys, Statistic::Score)
        },
    )
    .unwrap();
    assert!(t.rows.iter().all(|r| r.after[3] == "games"));
}

#[test]
fn a_filter_keeps_the_matching_records() {
    let r = records();
    let keys = vec!["budget".to_string()];
    let filter = vec![("agent".to_string(), "a".to_string())];
    let t = compute(
        &r,
        &TableParams {
            filter: &filter,
            ..params(&keys, Statistic::Score)
        },
    )
    .unwrap();
    assert_eq!(
        t.rows
            .iter()
            .map(|r| (r.keys[0].as_str(), r.n, r.before[0].as_str()))
            .collect::<Vec<_>>(),
        [("10", 4, "2"), ("20", 4, "4")]
    );
    // Two values of one column: either (a cumulative test set, say); of two columns: both.
    let either = vec![
        ("budget".to_string(), "10".to_string()),
        ("budget".to_string(), "20".to_string()),
    ];
    let t = compute(
        &r,
        &TableParams {
            filter: &either,
            ..params(&[], Statistic::Score)
        },
    )
    .unwrap();
    assert_eq!(t.rows.iter().map(|r| r.n).sum::<u64>(), 16);
    let both = vec![
        ("budget".to_string(), "10".to_string()),
        ("agent".to_string(), "a".to_string()),
    ];
    let t = compute(
        &r,
        &TableParams {
            filter: &both,
            ..params(&[], Statistic::Score)
        },
    )
    .unwrap();
    assert_eq!(t.rows.iter().map(|r| r.n).sum::<u64>(), 4);
}

#[test]
fn a_game_level_metric_counts_each_game_once_whatever_the_grouping_and_a_seat_metric_per_seat() {
    let r = records();
    let mean = |keys: &[&str],
                filter: &[(String, String)],
                metric: &str|
     -> Vec<(Vec<String>, u64, f64)> {
        let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        let t = compute(
            &r,
            &TableParams {
                metric: Some(metric),
                filter,
                ..params(&keys, Statistic::Mean)
            },
        )
        .unwrap();
        t.rows
            .iter()
            .map(|row| (row.keys.clone(), row.n, row.value.value))
            .collect()
    };
    let k = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // 8 games, plies 30..33 twice.
    let all = mean(&[], &[], "plies");
    assert_eq!((all.len(), all[0].1, all[0].2), (1, 8, 31.5));
    assert_eq!(
        mean(&["budget"], &[], "plies"),
        vec![(k(&["10"]), 4, 31.5), (k(&["20"]), 4, 31.5)]
    );
    // Each agent played every game: each game once per agent.
    assert_eq!(
        mean(&["agent"], &[], "plies"),
        vec![(k(&["a"]), 8, 31.5), (k(&["b"]), 8, 31.5)]
    );
    assert_eq!(
        mean(&["seat"], &[], "plies"),
        vec![(k(&["first"]), 8, 31.5), (k(&["second"]), 8, 31.5)]
    );
    // A filter on a seat-level column keeps that seat's record of each game.
    assert_eq!(
        mean(&["budget"], &[("agent".into(), "a".into())], "plies"),
        vec![(k(&["10"]), 4, 31.5), (k(&["20"]), 4, 31.5)]
    );
    // Keys that are the seat's but name no agent (the seat's result): deduplicated by game. The
    // draw's two records share the group 0.5; every decided game has one record in 0 and 1.
    let by_result: Vec<(Vec<String>, u64)> = mean(&["result"], &[], "plies")
        .into_iter()
        .map(|(k, n, _)| (k, n))
        .collect();
    assert_eq!(
        by_result,
        vec![(k(&["0"]), 7), (k(&["0.5"]), 1), (k(&["1"]), 7)]
    );
    // A seat's own score stays per seat: two records a game.
    let scores = mean(&["budget"], &[], "score");
    assert_eq!((scores[0].1, scores[0].2), (8, 18.0));
}

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

/// Every game of the fixture has the same start and moves (no transcript): each group's games
/// are counted by how its records split the seats, and all of them are one distinct game.
#[test]
fn repeated_games_are_counted_per_game_whatever_the_grouping() {
    let r = records();
    let repeated = |keys: &[&str], filter: &[(&str, &str)]| {
        let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        let filter: Vec<(String, String)> = filter
            .iter()
            .map(|(c, v)| (c.to_string(), v.to_string()))
            .collect();
        compute(
            &r,
            &TableParams {
                filter: &filter,
                ..params(&keys, Statistic::Score)
            },
        )
        .unwrap()
        .repeated
    };
    let one = |keys: &[&str], games: u64| {
        (
            keys.iter().map(|k| k.to_string()).collect::<Vec<_>>(),
            games,
            1,
        )
    };
    // By agent: each agent played the 4 games of each budget.
    assert_eq!(
        repeated(&["budget", "agent"], &[]),
        [
            one(&["10", "a"], 4),
            one(&["10", "b"], 4),
            one(&["20", "a"], 4),
            one(&["20", "b"], 4)
        ]
    );
    // By budget: both records of a game in one group, 4 games (not 8 records).
    assert_eq!(
        repeated(&["budget"], &[]),
        [one(&["10"], 4), one(&["20"], 4)]
    );
    assert_eq!(repeated(&[], &[]), [one(&[], 8)]);
    // By seat: one record per game; a filter on the agent keeps one seat of each game.
    assert_eq!(
        repeated(&["seat"], &[]),
        [one(&["first"], 8), one(&["second"], 8)]
    );
    assert_eq!(
        repeated(&["budget"], &[("agent", "a")]),
        [one(&["10"], 4), one(&["20"], 4)]
    );
    // An agent-dependent column other than agent (an arena's origin): game ids counted.
    let meta = [
        (
            "a".to_string(),
            [("origin".to_string(), "evolved".to_string())].into(),
        ),
        (
            "b".to_string(),
            [("origin".to_string(), "evolved".to_string())].into(),
        ),
    ]
    .into();
    let arena = r
        .clone()
        .with_agent_columns(&meta, &["origin".to_string()], &[])
        .unwrap();
    let keys = vec!["origin".to_string()];
    assert_eq!(
        compute(&arena, &params(&keys, Statistic::Score))
            .unwrap()
            .repeated,
        [one(&["evolved"], 8)]
    );
}

/// Self-play (an agent against itself): both records of a game share agent and opponent.
#[test]
fn self_play_games_are_counted_once() {
    let id = JobColumns {
        experiment: "t",
        job: "job0",
        repeat: 0,
        swept: vec![],
    };
    let rows = vec![
        row(0, "a", "a", "first", Some(0)),
        row(1, "a", "a", "second", Some(0)),
        row(2, "a", "b", "draw", Some(1)),
        row(3, "b", "a", "draw", Some(1)),
    ];
    let r = Records::games(
        vec![("part-job0".into(), games_frame(&id, &rows).unwrap().lazy())],
        &[],
    )
    .unwrap();
    let keys = vec!["agent".to_string()];
    let t = compute(&r, &params(&keys, Statistic::Score)).unwrap();
    // a: 2 self-play games (4 records) and 2 against b: 4 games, 6 records.
    assert_eq!(t.rows[0].n, 6);
    assert_eq!(
        t.repeated,
        [(vec!["a".to_string()], 4, 1), (vec!["b".to_string()], 2, 1)]
    );
}

#[test]
fn moments_of_two_parts_merge_into_the_moments_of_the_whole() {
    let (a, b) = ([3.1, 2.9, 3.4, 3.6], [2.5, 1.7, 3.9, 2.4, 1.6, 3.5, 2.2]);
    let whole: Vec<f64> = a.iter().chain(&b).copied().collect();
    let (merged, expected) = (
        merge_moments(Moments::of(&a), Moments::of(&b)),
        Moments::of(&whole),
    );
    assert_eq!(merged.n, expected.n);
    assert!(
        (merged.mean - expected.mean).abs() < 1e-12
            && (merged.variance - expected.variance).abs() < 1e-12,
        "{merged:?} {expected:?}"
    );
    // A part of one value has no variance of its own (0 for the merge).
    let one = Moments {
        n: 1,
        mean: 5.0,
        variance: 0.0,
    };
    let m = merge_moments(Moments::of(&a), one);
    let with_five: Vec<f64> = a.iter().copied().chain([5.0]).collect();
    assert!((m.variance - Moments::of(&with_five).variance).abs() < 1e-12);
}

/// Records of several parts: the per-part queries add up to the same table as one part.
#[test]
fn tables_over_many_parts_equal_tables_over_one() {
    let r = records();
    let id = JobColumns {
        experiment: "t",
        job: "all",
        repeat: 0,
        swept: vec![("budget", SweptKind::Int, &toml::Value::Integer(10))],
    };
    let rows: Vec<GameRow> = (0..8)
        .map(|g| {
            row(
                g,
                if g % 2 == 0 { "a" } else { "b" },
                if g % 2 == 0 { "b" } else { "a" },
                ["first", "second", "draw"][g as usize % 3],
                Some(g / 2),
            )
        })
        .collect();
    let one = Records::games(
        vec![("one".into(), games_frame(&id, &rows).unwrap().lazy())],
        &["budget".to_string()],
    )
    .unwrap();
    let halves = Records::games(
        vec![
            ("h0".into(), games_frame(&id, &rows[..4]).unwrap().lazy()),
            (
                "h1".into(),
                games_frame(
                    &JobColumns {
                        experiment: "t",
                        job: "all2",
                        repeat: 0,
                        swept: vec![("budget", SweptKind::Int, &toml::Value::Integer(10))],
                    },
                    &rows[4..],
                )
                .unwrap()
                .lazy(),
            ),
        ],
        &["budget".to_string()],
    )
    .unwrap();
    let keys = vec!["agent".to_string()];
    for params in [
        TableParams {
            elo: true,
            ..params(&keys, Statistic::Score)
        },
        TableParams {
            metric: Some("plies"),
            ..params(&keys, Statistic::Mean)
        },
        TableParams {
            metric: Some("plies"),
            unit: Some("repeat"),
            ..params(&keys, Statistic::Mean)
        },
    ] {
        let (a, b) = (
            compute(&one, &params).unwrap(),
            compute(&halves, &params).unwrap(),
        );
        assert_eq!(a.markdown(), b.markdown());
    }
    assert_eq!(r.count().unwrap(), 16);
}

/// Rows written before rows carried `game_key`: the report computes it from start and moves.
#[test]
fn rows_without_game_keys_count_repeated_games_the_same() {
    let id = JobColumns {
        experiment: "t",
        job: "job0",
        repeat: 0,
        swept: vec![],
    };
    let rows: Vec<GameRow> = (0..4)
        .map(|g| GameRow {
            transcript: if g < 3 { "f5d6".into() } else { "f5f6".into() },
            ..row(g, "a", "b", "first", None)
        })
        .collect();
    let with = games_frame(&id, &rows).unwrap();
    let without = with.drop("game_key").unwrap();
    let keys = vec!["agent".to_string()];
    let repeated = |df: DataFrame| {
        compute(
            &Records::games(vec![("p".into(), df.lazy())], &[]).unwrap(),
            &params(&keys, Statistic::Score),
        )
        .unwrap()
        .repeated
    };
    // Both agents played the same 4 games, 2 of them distinct.
    let expected = [(vec!["a".to_string()], 4, 2), (vec!["b".to_string()], 4, 2)];
    assert_eq!(repeated(with), expected);
    assert_eq!(repeated(without), expected);
}

/// Time per leaf as the GoTools report defines it, a run's total time over its total leaves: a
/// 1-leaf problem with 2 ms of timer jitter weighs as one leaf, not as half the runs' problems.
#[test]
fn a_weighted_unit_mean_is_total_over_total() {
    let row = |problem: &str, leaves: u64, time_s: f64| crate::experiment::kind::solve::SolveRow {
        weights: "w".into(),
        problem: problem.into(),
        set: 1,
        level: 1,
        status: "l".into(),
        expected: "l".into(),
        leaves,
        nodes: leaves,
        tt_hits: 0,
        max_depth: 1,
        time_s,
        budget_hit: false,
    };
    let rows = vec![row("tiny", 1, 0.002), row("big", 1000, 0.010)];
    let id = JobColumns {
        experiment: "t",
        job: "job0",
        repeat: 0,
        swept: vec![],
    };
    let r = Records::rows(vec![(
        "part-job0".into(),
        crate::experiment::kind::solve::solves_frame(&id, &rows)
            .unwrap()
            .lazy(),
    )])
    .unwrap();
    let keys = vec!["weights".to_string()];
    let per_problem = compute(
        &r,
        &TableParams {
            metric: Some("us_per_leaf"),
            unit: Some("job"),
            ..params(&keys, Statistic::Mean)
        },
    )
    .unwrap();
    assert!(
        (per_problem.rows[0].value.value - 1005.0).abs() < 1e-6,
        "{:?}",
        per_problem.rows[0]
    );
    let total = compute(
        &r,
        &TableParams {
            metric: Some("us_per_leaf"),
            unit: Some("job"),
            weighted_by: Some("leaves"),
            ..params(&keys, Statistic::Mean)
        },
    )
    .unwrap();
    assert!(
        (total.rows[0].value.value - 1e6 * 0.012 / 1001.0).abs() < 1e-6,
        "{:?}",
        total.rows[0]
    );
}

/// A score table counted from the games (`Records::counted_seats`: plain game records, keys on
/// seats and game-level columns) equals the same table counted from the records, two per game
/// (the same records with a column added, which takes the record path), for every grouping
/// and filter, repeated games and self-play included.
#[test]
fn score_tables_counted_from_games_equal_those_counted_from_records() {
    let self_play = Records::games(
        vec![(
            "part-job0".into(),
            games_frame(
                &JobColumns {
                    experiment: "t",
                    job: "job0",
                    repeat: 0,
                    swept: vec![],
                },
                &[
                    row(0, "a", "a", "first", Some(0)),
                    row(1, "a", "a", "second", Some(0)),
                    row(2, "a", "b", "draw", Some(1)),
                    row(3, "b", "a", "draw", Some(1)),
                ],
            )
            .unwrap()
            .lazy(),
        )],
        &[],
    )
    .unwrap();
    for plain in [records(), self_play] {
        assert!(plain.plain_games);
        let listed = plain.with_columns(&[lit(1).alias("__unused")]).unwrap();
        assert!(!listed.plain_games);
        let groupings: [&[&str]; 6] = [
            &[],
            &["agent"],
            &["agent", "opponent"],
            &["seat"],
            &["agent", "seat", "stage"],
            &["result"],
        ];
        let filters: [&[(&str, &str)]; 3] = [&[], &[("agent", "a")], &[("seat", "first")]];
        for keys in groupings {
            for filter in filters {
                let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
                let filter: Vec<(String, String)> = filter
                    .iter()
                    .map(|(c, v)| (c.to_string(), v.to_string()))
                    .collect();
                let p = TableParams {
                    filter: &filter,
                    ..params(&keys, Statistic::Score)
                };
                let (counted, by_record) =
                    (compute(&plain, &p).unwrap(), compute(&listed, &p).unwrap());
                assert_eq!(counted, by_record, "keys {keys:?}, filter {filter:?}");
                assert!(!counted.rows.is_empty(), "keys {keys:?}, filter {filter:?}");
            }
        }
    }
}
