//! How games, seats and parts are counted, whatever the grouping.

use super::*;

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
