//! Keeps `docs/experiments.md`, the reference of every experiment-file key, true to the parser.
//!
//! Each section of that page carries a `<!-- keys: ID -->` marker followed by a table whose
//! first column lists the section's keys. The test asks the parser itself which keys each
//! section accepts (every section denies unknown keys, so parsing a probe key yields serde's
//! "unknown field `…`, expected one of `a`, `b`, …" error, which lists them) and compares: a key
//! the parser accepts without a line on the page, or a line for a key it does not accept, fails.

#[cfg(test)]
mod tests {
    use crate::agent::AgentSpec;
    use crate::agent::external::ExternalSpec;
    use crate::experiment::openings::OpeningsSpec;
    use crate::experiment::spec::{
        ArenaSpec, ExperimentFile, GaSpec, MatchSpec, TournamentSpec, TuneSpec,
    };
    use crate::experiment::tsumego_spec::{SolveSpec, TsumegoGaSpec, WeightParts};
    use crate::game::othello::StageDef;
    use crate::game::tsumego::library::{LibrarySpec, Selection};
    use crate::report::spec::{FigureSpec, ReferenceSpec, ReportSpec, TableSpec};
    use crate::stats::elo::Sprt;
    use serde::de::DeserializeOwned;
    use std::collections::{BTreeMap, BTreeSet};

    const PROBE: &str = "zz_not_a_key";

    /// The keys `T` accepts, read from the error of parsing `prefix` plus an unknown key.
    fn keys_of<T: DeserializeOwned + std::fmt::Debug>(prefix: &str) -> BTreeSet<String> {
        let text = format!("{prefix}\n{PROBE} = 1\n");
        let err = toml::from_str::<T>(&text)
            .expect_err("an unknown key is refused")
            .to_string();
        assert!(
            err.contains(&format!("unknown field `{PROBE}`")),
            "probing {}: {err}",
            std::any::type_name::<T>()
        );
        if err.contains("there are no fields") {
            return BTreeSet::new();
        }
        let listed = err
            .split_once("expected")
            .map(|(_, rest)| rest)
            .unwrap_or_else(|| panic!("no key list in: {err}"));
        listed
            .split('`')
            .skip(1)
            .step_by(2)
            .map(String::from)
            .collect()
    }

    /// Every marked section of the page: id -> the keys its table lists.
    fn documented(page: &str) -> BTreeMap<String, BTreeSet<String>> {
        let mut sections: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut current: Option<String> = None;
        for line in page.lines() {
            if let Some(id) = line
                .trim()
                .strip_prefix("<!-- keys: ")
                .and_then(|r| r.strip_suffix(" -->"))
            {
                assert!(
                    sections.insert(id.to_string(), BTreeSet::new()).is_none(),
                    "section {id} is marked twice"
                );
                current = Some(id.to_string());
            } else if line.starts_with('#') {
                current = None;
            } else if let (Some(id), Some(cell)) = (&current, line.strip_prefix("| `")) {
                let key = cell.split('`').next().expect("a key");
                assert!(
                    sections
                        .get_mut(id)
                        .expect("marked")
                        .insert(key.to_string()),
                    "section {id} lists `{key}` twice"
                );
            }
        }
        sections
    }

    #[test]
    fn the_experiment_file_reference_lists_exactly_the_keys_the_parser_accepts() {
        let page =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/experiments.md"))
                .expect("docs/experiments.md");
        let mut parsed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut add = |id: &str, keys: BTreeSet<String>| {
            parsed.insert(id.to_string(), keys);
        };
        add("top", keys_of::<ExperimentFile>(""));
        add("stage", keys_of::<StageDef>(""));
        add(
            "openspiel",
            keys_of::<crate::game::openspiel::OpenSpielSpec>(""),
        );
        add("match", keys_of::<MatchSpec>(""));
        add("sprt", keys_of::<Sprt>(""));
        add("tournament", keys_of::<TournamentSpec>(""));
        add("openings", keys_of::<OpeningsSpec>(""));
        add("ga", keys_of::<GaSpec>(""));
        add("arena", keys_of::<ArenaSpec>(""));
        add(
            "race",
            keys_of::<crate::experiment::spec::race::RaceSpec>(""),
        );
        add("tune", keys_of::<TuneSpec>(""));
        add("library", keys_of::<LibrarySpec>(""));
        add("selection", keys_of::<Selection>(""));
        add("solve", keys_of::<SolveSpec>(""));
        add("weight_parts", keys_of::<WeightParts>(""));
        add("tsumego_ga", keys_of::<TsumegoGaSpec>(""));
        add("report", keys_of::<ReportSpec>(""));
        add("table", keys_of::<TableSpec>(""));
        add("figure", keys_of::<FigureSpec>(""));
        add("reference", keys_of::<ReferenceSpec>(""));
        // Agents: every kind the parser knows (its list of variants), each with its own keys.
        let err = toml::from_str::<AgentSpec>("kind = \"zz_no_kind\"")
            .expect_err("an unknown kind")
            .to_string();
        let kinds: Vec<String> = err
            .split_once("expected")
            .expect("a list of kinds")
            .1
            .split('`')
            .skip(1)
            .step_by(2)
            .map(String::from)
            .collect();
        assert!(
            kinds.len() >= 15 && kinds.contains(&"uct".to_string()),
            "agent kinds: {kinds:?}"
        );
        for kind in &kinds {
            let keys = if matches!(kind.as_str(), "external" | "uci" | "gtp") {
                keys_of::<ExternalSpec>("")
            } else {
                keys_of::<AgentSpec>(&format!("kind = \"{kind}\""))
            };
            add(&format!("agent.{kind}"), keys);
        }
        let docs = documented(&page);
        for (id, keys) in &parsed {
            let Some(listed) = docs.get(id) else {
                panic!(
                    "docs/experiments.md has no section marked <!-- keys: {id} --> (keys: {keys:?})"
                )
            };
            let missing: Vec<_> = keys.difference(listed).collect();
            let unknown: Vec<_> = listed.difference(keys).collect();
            assert!(
                missing.is_empty() && unknown.is_empty(),
                "docs/experiments.md, section {id}: keys the parser accepts but the page does not list: {missing:?}; keys listed that the parser refuses: {unknown:?}"
            );
        }
        let stale: Vec<_> = docs.keys().filter(|id| !parsed.contains_key(*id)).collect();
        assert!(
            stale.is_empty(),
            "docs/experiments.md marks sections the test does not know: {stale:?}"
        );
    }

    #[test]
    fn probing_finds_keys_and_their_absence() {
        assert_eq!(
            keys_of::<Sprt>(""),
            ["alpha", "beta", "elo0", "elo1"].map(String::from).into()
        );
        assert!(keys_of::<AgentSpec>("kind = \"random\"").is_empty());
        let page = "## a\n<!-- keys: a -->\n\n| key | t |\n|---|---|\n| `x` | int |\n| `y` | int |\n## b\n| `z` | no marker |\n";
        assert_eq!(
            documented(page),
            BTreeMap::from([("a".to_string(), ["x", "y"].map(String::from).into())])
        );
    }
}
