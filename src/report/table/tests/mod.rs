//! Tables from a small fixed set of rows, checked cell by cell: score and Elo tables here, mean
//! and rating tables and references in `means.rs`, solve tables in `solves.rs`, how games and
//! parts are counted in `counting.rs`.

mod counting;
mod means;
mod solves;

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
