//! Grouped win/draw/loss tables: aggregation of per-agent game results by group keys, ranking,
//! and their Markdown and CSV forms. Knows nothing of files or plots.

use super::stats::wilson;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// One group's results from its agents' point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupRow {
    pub keys: Vec<String>,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// (W + D / 2) / G, in [0, 1].
    pub score: f64,
    /// Interval of the score at the table's level.
    pub lo: f64,
    pub hi: f64,
}

/// Compares two cell texts as numbers when both are numbers, else as text.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        _ => a.cmp(b),
    }
}

/// Aggregates (group keys, result) pairs, where a result is 1 (win), 0.5 (draw) or 0 (loss).
/// Rows are ranked within each set of equal non-`rank_key` keys by score, then wins; `rank_key`
/// is the index of the key that names the ranked thing (the agent), if any.
pub fn aggregate(results: impl IntoIterator<Item = (Vec<String>, f64)>, level: f64, rank_key: Option<usize>) -> Vec<GroupRow> {
    let mut groups: BTreeMap<Vec<String>, [u64; 3]> = BTreeMap::new();
    for (keys, r) in results {
        let c = groups.entry(keys).or_default();
        if r >= 1.0 {
            c[0] += 1;
        } else if r > 0.0 {
            c[1] += 1;
        } else {
            c[2] += 1;
        }
    }
    let mut rows: Vec<GroupRow> = groups
        .into_iter()
        .map(|(keys, [w, d, l])| {
            let g = w + d + l;
            let points = w as f64 + 0.5 * d as f64;
            let (lo, hi) = wilson(points, g as f64, level);
            GroupRow { keys, games: g, wins: w, draws: d, losses: l, score: points / g as f64, lo, hi }
        })
        .collect();
    let context = |r: &GroupRow| -> Vec<String> {
        r.keys.iter().enumerate().filter(|(i, _)| Some(*i) != rank_key).map(|(_, k)| k.clone()).collect()
    };
    rows.sort_by(|a, b| {
        let (ca, cb) = (context(a), context(b));
        for (x, y) in ca.iter().zip(&cb) {
            let o = natural_cmp(x, y);
            if o != Ordering::Equal {
                return o;
            }
        }
        if rank_key.is_some() {
            b.score.partial_cmp(&a.score).unwrap_or(Ordering::Equal).then(b.wins.cmp(&a.wins)).then_with(|| a.keys.cmp(&b.keys))
        } else {
            Ordering::Equal
        }
    });
    rows
}

fn pct(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// The table as Markdown with one column per key, then G, W, D, L, score % and its interval.
pub fn markdown(key_names: &[String], rows: &[GroupRow], level: f64) -> String {
    let mut s = String::new();
    let level_pct = format!("{}", (level * 1000.0).round() / 10.0);
    let mut header: Vec<String> = key_names.to_vec();
    header.extend(["games", "W", "D", "L", "score %", &format!("{level_pct}% CI (Wilson)")].map(String::from));
    s += &format!("| {} |\n", header.join(" | "));
    s += &format!("|{}\n", header.iter().enumerate().map(|(i, _)| if i < key_names.len() { "---|" } else { "---:|" }).collect::<String>());
    for r in rows {
        let mut cells = r.keys.clone();
        cells.extend([r.games.to_string(), r.wins.to_string(), r.draws.to_string(), r.losses.to_string(), pct(r.score), format!("{}–{}", pct(r.lo), pct(r.hi))]);
        s += &format!("| {} |\n", cells.join(" | "));
    }
    s
}

/// The table as CSV (scores and bounds in percent).
pub fn csv(key_names: &[String], rows: &[GroupRow]) -> String {
    let quote = |x: &str| if x.contains([',', '"', '\n']) { format!("\"{}\"", x.replace('"', "\"\"")) } else { x.to_string() };
    let mut s = key_names.iter().map(|k| quote(k)).collect::<Vec<_>>().join(",");
    s += ",games,wins,draws,losses,score_pct,ci_low_pct,ci_high_pct\n";
    for r in rows {
        let keys: Vec<String> = r.keys.iter().map(|k| quote(k)).collect();
        s += &format!("{},{},{},{},{},{:.4},{:.4},{:.4}\n", keys.join(","), r.games, r.wins, r.draws, r.losses, 100.0 * r.score, 100.0 * r.lo, 100.0 * r.hi);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(a: &str) -> Vec<String> {
        vec![a.to_string()]
    }

    #[test]
    fn counts_scores_and_ranks() {
        let results = vec![(k("a"), 1.0), (k("a"), 0.5), (k("a"), 0.0), (k("b"), 1.0), (k("b"), 1.0), (k("b"), 0.0)];
        let rows = aggregate(results, 0.95, Some(0));
        assert_eq!(rows[0].keys, k("b"));
        assert_eq!((rows[0].games, rows[0].wins, rows[0].draws, rows[0].losses), (3, 2, 0, 1));
        assert_eq!((rows[1].wins, rows[1].draws, rows[1].losses), (1, 1, 1));
        assert!((rows[1].score - 0.5).abs() < 1e-12);
        let md = markdown(&["agent".to_string()], &rows, 0.95);
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| agent | games | W | D | L | score % | 95% CI (Wilson) |");
        assert!(lines[2].starts_with("| b | 3 | 2 | 0 | 1 | 66.7 | "), "{}", lines[2]);
        assert!(lines[3].starts_with("| a | 3 | 1 | 1 | 1 | 50.0 | "), "{}", lines[3]);
    }

    #[test]
    fn numeric_keys_sort_as_numbers() {
        assert_eq!(natural_cmp("100", "50"), Ordering::Greater);
        assert_eq!(natural_cmp("b", "a"), Ordering::Greater);
    }
}
