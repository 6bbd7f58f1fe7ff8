use super::*;
use std::path::Path;

const MATCH: &str = r#"
kind = "match"
game = "othello"
stage = "small6"
seed = 3
repeats = 2
[match]
players = ["m", "g"]
games = 5
[agents.m]
kind = "uct"
iterations = 50
[agents.g]
kind = "greedy"
[grid]
"agents.m.c" = [0.5, 1]
stage = ["small6", "partial-c8"]
"#;

/// A match whose UCT agent sweeps `iterations` over `values` in `section` (grid or zip).
fn long_axis(section: &str, values: impl Iterator<Item = String>) -> String {
    let list: Vec<String> = values.collect();
    format!(
        "kind = \"match\"\ngame = \"othello\"\nstage = \"small6\"\nseed = 3\n[match]\nplayers = [\"m\", \"g\"]\ngames = 2\n[agents.m]\nkind = \"uct\"\niterations = 50\n[agents.g]\nkind = \"greedy\"\n[{section}]\n\"agents.m.iterations\" = [{}]\n",
        list.join(", ")
    )
}

/// The most jobs a file may have, on one axis: every value its own job, in order (the
/// expansion used to copy the whole axis into each point, quadratic in its length); a
/// value repeated at the far end is found and both places named.
#[test]
fn an_axis_of_the_most_jobs_expands_and_its_repeats_are_found() {
    let all = jobs(&long_axis("grid", (1..=MAX_JOBS).map(|i| i.to_string())));
    assert_eq!(all.len(), MAX_JOBS);
    let config = serde_json::to_string(&all[MAX_JOBS - 1].config).unwrap();
    assert!(config.contains("\"iterations\":100000"), "{config}");
    let last = &all[MAX_JOBS - 1].swept;
    assert_eq!(last[0].1, toml::Value::Integer(MAX_JOBS as i64));
    let hashes: std::collections::HashSet<&str> = all.iter().map(|j| j.hash.as_str()).collect();
    assert_eq!(hashes.len(), MAX_JOBS);
    for (section, key, says) in [
        (
            "grid",
            "grid.agents.m.iterations",
            "the value 7 is listed twice (at positions 7 and 100000)",
        ),
        (
            "zip",
            "zip",
            "rows 7 and 100000 of the zipped lists are the same",
        ),
    ] {
        let text = long_axis(
            section,
            (1..MAX_JOBS)
                .map(|i| i.to_string())
                .chain(["7".to_string()]),
        );
        let err =
            crate::experiment::expand(&Experiment::from_text(Path::new("t.toml"), text).unwrap())
                .unwrap_err()
                .to_string();
        assert!(
            err.contains(&format!("key `{key}`")) && err.contains(says),
            "{err}"
        );
    }
}

fn jobs(text: &str) -> Vec<Job> {
    crate::experiment::expand(
        &Experiment::from_text(Path::new("t.toml"), text.to_string()).unwrap(),
    )
    .unwrap()
}

#[test]
fn the_grid_is_the_product_of_its_axes_times_repeats() {
    let j = jobs(MATCH);
    assert_eq!(j.len(), 2 * 2 * 2);
    let hashes: std::collections::BTreeSet<&str> = j.iter().map(|j| j.hash.as_str()).collect();
    assert_eq!(hashes.len(), 8, "every job has its own hash");
    let seeds: std::collections::BTreeSet<u64> = j.iter().map(|j| j.seed).collect();
    assert_eq!(seeds.len(), 8, "and its own seed");
    let c8 = j
        .iter()
        .find(|j| {
            j.swept
                .iter()
                .any(|(k, v)| k == "stage" && v.as_str() == Some("partial-c8"))
        })
        .unwrap();
    assert_eq!(
        c8.config.stage.othello().unwrap().blocked.len(),
        4,
        "the stage is resolved in the config"
    );
}

#[test]
fn hashes_depend_on_the_job_only() {
    let base = jobs(MATCH);
    // The report section and the description do not change what a job plays.
    let with_report = jobs(&format!(
        "description = \"x\"\n{MATCH}\n[report]\nlevel = 0.9\n"
    ));
    assert_eq!(base, with_report);
    // The seed does.
    let reseeded = jobs(&MATCH.replace("seed = 3", "seed = 4"));
    assert!(
        base.iter()
            .zip(&reseeded)
            .all(|(a, b)| a.hash != b.hash && a.seed != b.seed)
    );
    // A grid value written out in the file gives the same job as the grid point.
    let fixed = jobs(
        &MATCH
            .replace("[grid]\n\"agents.m.c\" = [0.5, 1]\n", "[grid]\n")
            .replace("iterations = 50", "iterations = 50\nc = 0.5"),
    );
    let from_grid: Vec<&Job> = base
        .iter()
        .filter(|j| j.swept[0].1.as_float() == Some(0.5))
        .collect();
    for (a, b) in fixed.iter().zip(from_grid) {
        assert_eq!(a.config, b.config);
        assert_eq!(a.hash, b.hash);
    }
}

#[test]
fn zipped_keys_advance_together() {
    let text = MATCH.replace(
        "[grid]\n\"agents.m.c\" = [0.5, 1]\nstage = [\"small6\", \"partial-c8\"]\n",
        "[zip]\n\"agents.m.c\" = [0.5, 1, 2]\n\"match.games\" = [2, 4, 6]\n",
    );
    let j = jobs(&text);
    assert_eq!(j.len(), 3 * 2);
    let points: Vec<(f64, u32)> = j
        .iter()
        .filter(|j| j.config.repeat == 0)
        .map(|j| {
            let Some(crate::agent::AgentSpec::Uct { c, .. }) = j.config.agents.get("m") else {
                panic!()
            };
            (*c, j.config.match_.as_ref().unwrap().games)
        })
        .collect();
    assert_eq!(points, [(0.5, 2), (1.0, 4), (2.0, 6)]);
    assert_eq!(
        j[0].swept
            .iter()
            .map(|(k, _)| k.as_str())
            .collect::<Vec<_>>(),
        ["agents.m.c", "match.games"]
    );
}

#[test]
fn games_computed_one_at_a_time_are_the_list() {
    let tournament = |rounds: u32, extra: usize| {
        let mut text = MATCH
            .replace("kind = \"match\"", "kind = \"tournament\"")
            .replace(
                "[match]\nplayers = [\"m\", \"g\"]\ngames = 5",
                &format!("[tournament]\nrounds = {rounds}\n[agents.r]\nkind = \"random\""),
            );
        for k in 0..extra {
            text += &format!("[agents.x{k}]\nkind = \"random\"\n");
        }
        jobs(&text)
    };
    let mut cases = jobs(MATCH);
    cases.extend(jobs(&MATCH.replace("games = 5", "games = 8")));
    cases.extend(jobs(&MATCH.replace("games = 5", "games = 1")));
    cases.extend(tournament(3, 0));
    cases.extend(tournament(2, 3));
    cases.extend(tournament(1, 5));
    for j in &cases {
        let list = j.pairings();
        assert_eq!(j.game_count(), list.len());
        let slots = super::slots(&list);
        for (i, p) in list.iter().enumerate() {
            assert_eq!(&j.pairing(i), p, "game {i}");
            assert_eq!(j.opening_slot(i), slots[i], "slot of game {i}");
        }
    }
}

#[test]
fn match_colours_alternate_and_tournaments_pair_every_ordered_pair() {
    let j = &jobs(MATCH)[0];
    let p = j.pairings();
    assert_eq!(p.len(), 5);
    let fs = |i: usize| (p[i].first.as_str(), p[i].second.as_str(), p[i].pair);
    assert_eq!(fs(0), ("m", "g", Some(0)));
    assert_eq!(fs(1), ("g", "m", Some(0)));
    assert_eq!(fs(3), ("g", "m", Some(1)));
    assert_eq!(fs(4), ("m", "g", Some(2)));
    let t = &jobs(
        &MATCH
            .replace("kind = \"match\"", "kind = \"tournament\"")
            .replace(
                "[match]\nplayers = [\"m\", \"g\"]\ngames = 5",
                "[tournament]\nrounds = 3\n[agents.r]\nkind = \"random\"",
            ),
    )[0];
    let p = t.pairings();
    assert_eq!(p.len(), 3 * 3 * 2);
    assert!(p.iter().all(|g| g.first != g.second));
    assert_eq!(
        p.iter()
            .filter(|g| g.first == "g" && g.second == "r")
            .count(),
        3
    );
    // Every pair id holds exactly two games, the same two agents with colours swapped.
    let mut pairs: std::collections::BTreeMap<u32, Vec<&Pairing>> = Default::default();
    for g in &p {
        pairs.entry(g.pair.unwrap()).or_default().push(g);
    }
    assert_eq!(pairs.len(), 9);
    assert!(
        pairs
            .values()
            .all(|v| v.len() == 2 && v[0].first == v[1].second && v[0].second == v[1].first)
    );
}
