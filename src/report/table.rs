//! Computed tables: records grouped by keys, one statistic per group, and their Markdown and
//! CSV forms. A table row always has a main value with an interval (what figures draw and
//! references are compared with) plus the columns its statistic adds.

use super::records::Records;
use super::spec::{MeanInterval, Statistic};
use super::stats::elo::{Pentanomial, Wdl, elo_pentanomial, elo_trinomial, los};
use super::stats::means::{bootstrap, mean, mean_interval, paired, variance, welch};
use super::stats::rating::{Game, bradley_terry_bootstrap};
use super::stats::{Estimate, Interval};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, PartialEq)]
pub struct TableRow {
    pub keys: Vec<String>,
    /// How many independent units the value comes from (games, values, games rated).
    pub n: u64,
    pub value: Estimate,
    /// Cells shown before the value (W, D, L...).
    pub before: Vec<String>,
    /// Cells shown after the interval (Elo, LOS...).
    pub after: Vec<String>,
    /// Mean tables with a baseline: the difference from it in % of the baseline's mean, with
    /// the difference's interval over the same mean.
    pub change: Option<Estimate>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub name: String,
    pub title: String,
    pub key_names: Vec<String>,
    pub n_name: String,
    pub before_names: Vec<String>,
    pub value_name: String,
    pub interval_name: String,
    pub after_names: Vec<String>,
    /// Decimals the value and its interval are shown with.
    pub decimals: usize,
    pub rows: Vec<TableRow>,
    /// Score tables of games: the groups whose games are not all distinct (deterministic agents
    /// from one start replay one game), as (group keys, games, distinct games).
    pub repeated: Vec<(Vec<String>, u64, u64)>,
}

/// Words that name steps of one scale, in order: two cells of the same scale compare by step.
const SCALES: &[&[&str]] = &[&["easy", "medium", "hard"]];

/// Compares two cell texts as numbers when both are numbers, as steps when both are words of
/// one scale (`SCALES`: "easy" before "medium" before "hard"), else as text whose runs of
/// digits compare as numbers ("size-6" before "size-10").
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let step = |scale: &[&str], w: &str| scale.iter().position(|s| *s == w);
    if let Some((x, y)) = SCALES.iter().find_map(|scale| step(scale, a).zip(step(scale, b))) {
        return x.cmp(&y);
    }
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        _ => chunks(a).cmp(chunks(b)),
    }
}

/// A text as runs of digits (by value) and of other characters.
fn chunks(s: &str) -> impl Iterator<Item = (String, u128)> + '_ {
    let mut rest = s;
    std::iter::from_fn(move || {
        let first = rest.chars().next()?;
        let digit = first.is_ascii_digit();
        let end = rest.find(|c: char| c.is_ascii_digit() != digit).unwrap_or(rest.len());
        let (run, tail) = rest.split_at(end);
        rest = tail;
        // Digit runs compare by value first (an empty text sorts before any word).
        Some(if digit { (String::new(), run.parse().unwrap_or(u128::MAX)) } else { (run.to_string(), 0) })
    })
}

fn keys_cmp(a: &[String], b: &[String]) -> Ordering {
    a.iter().zip(b).map(|(x, y)| natural_cmp(x, y)).find(|o| *o != Ordering::Equal).unwrap_or(Ordering::Equal)
}

/// Sorts rows by their keys other than `rank_key`, then (when ranking) by value, best first.
fn sort_rows(rows: &mut [TableRow], rank_key: Option<usize>) {
    let context = |r: &TableRow| -> Vec<String> { r.keys.iter().enumerate().filter(|(i, _)| Some(*i) != rank_key).map(|(_, k)| k.clone()).collect() };
    rows.sort_by(|a, b| {
        keys_cmp(&context(a), &context(b)).then_with(|| match rank_key {
            Some(_) => b.value.value.partial_cmp(&a.value.value).unwrap_or(Ordering::Equal).then_with(|| keys_cmp(&a.keys, &b.keys)),
            None => keys_cmp(&a.keys, &b.keys),
        })
    });
}

/// Record indices (those passing `filter`: column, value) by group keys.
fn groups(records: &Records, keys: &[String], filter: &[(String, String)]) -> BTreeMap<Vec<String>, Vec<usize>> {
    let mut g: BTreeMap<Vec<String>, Vec<usize>> = BTreeMap::new();
    for i in 0..records.len {
        if !filter.iter().all(|(c, v)| records.key(c, i).as_deref() == Some(v.as_str())) {
            continue;
        }
        let k: Vec<String> = keys.iter().map(|c| records.key(c, i).unwrap_or_default()).collect();
        g.entry(k).or_default().push(i);
    }
    g
}

fn num(x: f64) -> String {
    if x.is_nan() {
        "–".into()
    } else if x == f64::INFINITY {
        "+∞".into()
    } else if x == f64::NEG_INFINITY {
        "-∞".into()
    } else if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}").trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A number with `decimals` decimals; infinities and NaN as symbols.
fn fixed(x: f64, decimals: usize) -> String {
    if x.is_finite() { format!("{x:.decimals$}") } else { num(x) }
}

/// A p-value: three decimals, or scientific notation below 0.001.
fn p_text(p: f64) -> String {
    if p >= 0.001 { format!("{p:.3}") } else { format!("{p:.1e}") }
}

/// An Elo value to one decimal.
fn elo_text(x: f64) -> String {
    fixed(x, 1)
}

fn level_text(level: f64) -> String {
    format!("{}%", (level * 1000.0).round() / 10.0)
}

/// What a table needs besides the records.
pub struct TableParams<'a> {
    pub name: &'a str,
    pub title: &'a str,
    pub group_by: &'a [String],
    /// Keep only records whose column has the value (as a group key text).
    pub filter: &'a [(String, String)],
    pub statistic: Statistic,
    pub metric: Option<&'a str>,
    /// Mean tables: the column whose values are the independent units (None: each record).
    pub unit: Option<&'a str>,
    pub method: MeanInterval,
    /// Mean tables: (group column, value) of the group every other is compared with.
    pub baseline: Option<(String, String)>,
    /// Compare with the baseline unit by unit (paired t-test) instead of Welch's test.
    pub paired: bool,
    pub elo: bool,
    pub level: f64,
    pub interval: Interval,
    pub bootstrap: usize,
    pub seed: u64,
}

pub fn compute(records: &Records, p: &TableParams) -> Table {
    match p.statistic {
        Statistic::Score => score_table(records, p),
        Statistic::Mean => mean_table(records, p),
        Statistic::Rating => rating_table(records, p),
    }
}

fn base(p: &TableParams, n_name: &str, value_name: String, interval_name: String) -> Table {
    Table {
        name: p.name.to_string(),
        title: p.title.to_string(),
        key_names: p.group_by.to_vec(),
        n_name: n_name.to_string(),
        before_names: vec![],
        value_name,
        interval_name,
        after_names: vec![],
        decimals: 2,
        rows: vec![],
        repeated: vec![],
    }
}

/// W/D/L, score % with a proportion interval; optionally Elo (from colour-swapped pairs when
/// every game of the group has its partner in the group, else from games) and LOS.
fn score_table(records: &Records, p: &TableParams) -> Table {
    let mut t = base(p, "games", "score %".into(), format!("{} CI ({})", level_text(p.level), p.interval.name()));
    t.decimals = 1;
    t.before_names = vec!["W".into(), "D".into(), "L".into()];
    if p.elo {
        t.after_names = vec!["Elo".into(), format!("Elo {} CI", level_text(p.level)), "LOS".into(), "Elo unit".into(), "pairs 0/¼/½/¾/1".into()];
    }
    let results = &records.num["result"];
    for (keys, idx) in groups(records, p.group_by, p.filter) {
        let mut wdl = Wdl::default();
        for &i in &idx {
            match results[i] {
                r if r >= 1.0 => wdl.wins += 1,
                r if r > 0.0 => wdl.draws += 1,
                _ => wdl.losses += 1,
            }
        }
        let n = wdl.wins + wdl.draws + wdl.losses;
        let points = wdl.wins as f64 + 0.5 * wdl.draws as f64;
        // Distinct games (by start and moves) among the group's games (by job and index).
        if let (Some(key), Some(game), Some(job)) = (records.num.get("game_key"), records.num.get("game"), records.text.get("job")) {
            let games: BTreeSet<(&str, u64)> = idx.iter().map(|&i| (&job[i], game[i] as u64)).collect();
            let distinct: BTreeSet<u64> = idx.iter().map(|&i| key[i] as u64).collect();
            if distinct.len() < games.len() {
                t.repeated.push((keys.clone(), games.len() as u64, distinct.len() as u64));
            }
        }
        let (lo, hi) = p.interval.bounds(points, n as f64, p.level);
        let mut after = vec![];
        if p.elo {
            // Pair the group's games by (job, pair): a complete pair has both colours.
            let mut pairs: BTreeMap<(String, i64), Vec<f64>> = BTreeMap::new();
            let mut all_paired = true;
            for &i in &idx {
                let pair = records.num["pair"][i];
                if pair.is_nan() {
                    all_paired = false;
                    break;
                }
                pairs.entry((records.text["job"][i].to_string(), pair as i64)).or_default().push(results[i]);
            }
            let complete = all_paired && pairs.values().all(|v| v.len() == 2);
            let (estimate, unit, counts) = if complete {
                let mut penta = Pentanomial::default();
                for v in pairs.values() {
                    penta.add_pair(v[0], v[1]);
                }
                let counts = penta.0.iter().map(u64::to_string).collect::<Vec<_>>().join("/");
                (elo_pentanomial(penta, p.level), "pairs", counts)
            } else {
                (elo_trinomial(wdl, p.level), "games", "–".to_string())
            };
            match estimate {
                Some(e) => after.extend([elo_text(e.elo.value), format!("{} to {}", elo_text(e.elo.lo), elo_text(e.elo.hi)), format!("{:.3}", los(wdl)), unit.to_string(), counts]),
                None => after.extend(["–".into(), "–".into(), "–".into(), unit.to_string(), counts]),
            }
        }
        t.rows.push(TableRow {
            keys,
            n,
            value: Estimate { value: 100.0 * points / n as f64, lo: 100.0 * lo, hi: 100.0 * hi },
            before: vec![wdl.wins.to_string(), wdl.draws.to_string(), wdl.losses.to_string()],
            after,
            change: None,
        });
    }
    let rank = p.group_by.iter().position(|k| k == "agent");
    sort_rows(&mut t.rows, rank);
    t
}

/// The mean of a numeric column per group, with its Student t interval and the SD; with a
/// baseline, each group's difference from it (also in % of the baseline's mean) with Welch's
/// interval and p-value, or, `paired`, the paired t interval and p-value over the units both
/// groups have.
fn mean_table(records: &Records, p: &TableParams) -> Table {
    let metric = p.metric.expect("checked: mean tables name a metric");
    let method = match p.method {
        MeanInterval::T => "t",
        MeanInterval::Bootstrap => "bootstrap",
    };
    let n_name = p.unit.map_or("n".to_string(), |u| format!("n ({u})"));
    let mut t = base(p, &n_name, format!("mean {metric}"), format!("{} CI ({method})", level_text(p.level)));
    t.after_names = vec!["SD".into()];
    let values = &records.num[metric];
    let mut samples: BTreeMap<Vec<String>, Vec<f64>> = BTreeMap::new();
    // The unit means of each group by unit, for paired comparisons.
    let mut by_unit: BTreeMap<Vec<String>, BTreeMap<String, f64>> = BTreeMap::new();
    for (keys, idx) in groups(records, p.group_by, p.filter) {
        let xs: Vec<f64> = match p.unit {
            None => idx.iter().map(|&i| values[i]).filter(|x| x.is_finite()).collect(),
            Some(unit) => {
                // The mean of each unit first.
                let mut units: BTreeMap<String, (f64, f64)> = BTreeMap::new();
                for &i in idx.iter().filter(|&&i| values[i].is_finite()) {
                    // Pairs and games are numbered within their job.
                    let mut id = records.key(unit, i).unwrap_or_default();
                    if unit == "pair" || unit == "game" {
                        id = format!("{}/{id}", &records.text["job"][i]);
                    }
                    let u = units.entry(id).or_default();
                    u.0 += values[i];
                    u.1 += 1.0;
                }
                let means: BTreeMap<String, f64> = units.into_iter().map(|(id, (sum, n))| (id, sum / n)).collect();
                let xs = means.values().copied().collect();
                by_unit.insert(keys.clone(), means);
                xs
            }
        };
        if xs.is_empty() {
            continue;
        }
        let interval = match p.method {
            MeanInterval::T => mean_interval(&xs, p.level),
            MeanInterval::Bootstrap if xs.len() > 1 => bootstrap(&xs, mean, p.bootstrap, p.level, p.seed),
            MeanInterval::Bootstrap => None,
        };
        let value = interval.unwrap_or(Estimate { value: mean(&xs), lo: f64::NAN, hi: f64::NAN });
        let sd = if xs.len() > 1 { variance(&xs).sqrt() } else { f64::NAN };
        t.rows.push(TableRow { keys: keys.clone(), n: xs.len() as u64, value, before: vec![], after: vec![fixed(sd, 2)], change: None });
        samples.insert(keys, xs);
    }
    if let Some((column, base_value)) = &p.baseline {
        let c = p.group_by.iter().position(|k| k == column).expect("checked: the baseline column is a group key");
        let test = if p.paired { "paired t" } else { "Welch" };
        t.after_names.extend([format!("Δ vs {column} = {base_value}"), "Δ %".into(), format!("{test} {} CI", level_text(p.level)), format!("p ({test})")]);
        for r in &mut t.rows {
            let mut base_keys = r.keys.clone();
            base_keys[c] = base_value.clone();
            let comparison = if base_keys == r.keys {
                None
            } else if p.paired {
                // Over the units both groups have, in unit order.
                by_unit.get(&r.keys).zip(by_unit.get(&base_keys)).and_then(|(a, b)| {
                    let (xs, ys): (Vec<f64>, Vec<f64>) = a.iter().filter_map(|(u, x)| b.get(u).map(|y| (*x, *y))).unzip();
                    paired(&xs, &ys, p.level).map(|test| (test, mean(&ys)))
                })
            } else {
                samples.get(&base_keys).and_then(|b| welch(&samples[&r.keys], b, p.level).map(|test| (test, mean(b))))
            };
            match comparison {
                Some((w, base_mean)) => {
                    let percent = |x: f64| 100.0 * x / base_mean;
                    r.change = Some(Estimate { value: percent(w.difference.value), lo: percent(w.difference.lo), hi: percent(w.difference.hi) });
                    r.after.extend([fixed(w.difference.value, 2), fixed(percent(w.difference.value), 1), format!("{} to {}", fixed(w.difference.lo, 2), fixed(w.difference.hi, 2)), p_text(w.p)]);
                }
                None => r.after.extend(["–".into(), "–".into(), "–".into(), "–".into()]),
            }
        }
    }
    sort_rows(&mut t.rows, None);
    t
}

/// Bradley-Terry ratings of the agents, fitted separately for each combination of the other
/// group keys; each game counted once (from its first seat), bootstrap over games.
fn rating_table(records: &Records, p: &TableParams) -> Table {
    let mut t = base(p, "games", "rating (Elo)".into(), format!("{} CI (bootstrap)", level_text(p.level)));
    t.decimals = 0;
    let agent_key = p.group_by.iter().position(|k| k == "agent").expect("checked: rating tables group by agent");
    let others: Vec<String> = p.group_by.iter().filter(|k| *k != "agent").cloned().collect();
    for (context, idx) in groups(records, &others, p.filter) {
        let firsts: Vec<usize> = idx.into_iter().filter(|&i| &records.text["seat"][i] == "first").collect();
        let mut names: Vec<String> = firsts.iter().flat_map(|&i| [records.text["agent"][i].to_string(), records.text["opponent"][i].to_string()]).collect();
        names.sort();
        names.dedup();
        let index = |s: &str| names.binary_search_by(|n| n.as_str().cmp(s)).expect("named above");
        let games: Vec<Game> = firsts.iter().map(|&i| Game { a: index(&records.text["agent"][i]), b: index(&records.text["opponent"][i]), result: records.num["result"][i] }).collect();
        let seed = crate::rng::derive_seed(p.seed, &[context.len() as u64, xxhash_rust::xxh3::xxh3_64(context.join("\u{1f}").as_bytes())]);
        let ratings = bradley_terry_bootstrap(names.len(), &games, p.bootstrap, p.level, seed);
        for (a, name) in names.iter().enumerate() {
            let played = games.iter().filter(|g| g.a == a || g.b == a).count() as u64;
            let mut keys = context.clone();
            keys.insert(agent_key, name.clone());
            t.rows.push(TableRow { keys, n: played, value: ratings[a], before: vec![], after: vec![], change: None });
        }
    }
    sort_rows(&mut t.rows, Some(agent_key));
    t
}

impl Table {
    fn header(&self) -> Vec<String> {
        let mut h = self.key_names.clone();
        h.push(self.n_name.clone());
        h.extend(self.before_names.iter().cloned());
        h.push(self.value_name.clone());
        h.push(self.interval_name.clone());
        h.extend(self.after_names.iter().cloned());
        h
    }

    /// The table as Markdown: keys, n, the statistic's own columns, value, interval.
    pub fn markdown(&self) -> String {
        let header = self.header();
        let mut s = format!("| {} |\n|", header.join(" | "));
        for i in 0..header.len() {
            s += if i < self.key_names.len() { "---|" } else { "---:|" };
        }
        s += "\n";
        let value = |x: f64| fixed(x, self.decimals);
        for r in &self.rows {
            let mut cells = r.keys.clone();
            cells.push(r.n.to_string());
            cells.extend(r.before.iter().cloned());
            cells.push(value(r.value.value));
            cells.push(if r.value.lo.is_nan() { "–".into() } else { format!("{} to {}", value(r.value.lo), value(r.value.hi)) });
            cells.extend(r.after.iter().cloned());
            s += &format!("| {} |\n", cells.join(" | "));
        }
        s
    }

    /// The table as CSV: the Markdown columns, with the interval as two columns.
    pub fn csv(&self) -> String {
        let quote = |x: &str| if x.contains([',', '"', '\n']) { format!("\"{}\"", x.replace('"', "\"\"")) } else { x.to_string() };
        let mut header: Vec<String> = self.key_names.clone();
        header.push(self.n_name.clone());
        header.extend(self.before_names.iter().cloned());
        header.extend([self.value_name.clone(), "ci_low".into(), "ci_high".into()]);
        header.extend(self.after_names.iter().cloned());
        let mut s = header.iter().map(|h| quote(h)).collect::<Vec<_>>().join(",") + "\n";
        for r in &self.rows {
            let mut cells = r.keys.clone();
            cells.push(r.n.to_string());
            cells.extend(r.before.iter().cloned());
            cells.extend([r.value.value, r.value.lo, r.value.hi].map(|x| format!("{x}")));
            cells.extend(r.after.iter().cloned());
            s += &(cells.iter().map(|c| quote(c)).collect::<Vec<_>>().join(",") + "\n");
        }
        s
    }
}

#[cfg(test)]
mod tests;
