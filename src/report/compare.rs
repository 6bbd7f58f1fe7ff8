//! Published numbers beside measured ones: for each row of a `[[report.reference]]`, the
//! matching table row, the two-sample test of our sample against the paper's, and a verdict
//! (`stats::two_sample`: Fisher's exact test for scores, Welch's t for means with a spread,
//! Holm's adjustment over the table's rows, directions checked on their own).
//!
//! Where the paper gives no n (or no spread), no two-sample test is possible: the paper's value
//! is then taken as a fixed number (`two_sample::one_sample`: the exact binomial test for scores,
//! a one-sample t for means, changes and ratings), and the verdict is labelled one-sample. The
//! plain question whether the paper's value lies inside our interval stays a column for the
//! reader.

use super::spec::{ReferenceSpec, Statistic};
use super::table::{Table, counted, p_text};
use crate::stats::Estimate;
use crate::stats::two_sample::{
    Ours, Sample, holm, is_one_sample, one_sample, sign_differs, test, verdict,
};

pub use crate::stats::two_sample::Verdict;

#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub keys: Vec<String>,
    pub published: String,
    /// The paper's n for this row, if stated or assumed.
    pub paper_n: Option<u64>,
    /// Ours: value, interval, n.
    pub measured: Option<(f64, f64, f64, u64)>,
    /// Ours minus the paper's, with its interval, when a two-sample test applies.
    pub difference: Option<Estimate>,
    /// The test's name, raw p and Holm-adjusted p.
    pub test: Option<(&'static str, f64, f64)>,
    /// Whether the paper's value lies inside our interval (for the reader; not the verdict).
    pub inside: Option<bool>,
    pub verdict: Verdict,
}

impl Comparison {
    /// Whether the verdict came from a one-sample test (the paper's value taken as fixed).
    pub fn one_sample(&self) -> bool {
        self.test.is_some_and(|(name, _, _)| is_one_sample(name))
    }

    /// The verdict as shown, `(one-sample)` after a one-sample one.
    pub fn verdict_text(&self) -> String {
        if self.one_sample() && !matches!(self.verdict, Verdict::NotComparable(_)) {
            format!("{} (one-sample)", self.verdict.text())
        } else {
            self.verdict.text()
        }
    }
}

fn text_of(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Float(f) => super::records::key_text(*f),
        other => other.to_string(),
    }
}

fn number(v: Option<&toml::Value>) -> Option<f64> {
    v.and_then(|v| v.as_float().or(v.as_integer().map(|i| i as f64)))
}

/// The test of a direction claim (`"> 50"`, `"< 0"`): our interval against the line alone.
pub const DIRECTION_TEST: &str = "direction, our interval";

/// A published value that claims a direction, `"> X"` or `"< X"` (a report's "significantly
/// stronger", "routinely losing", with no number): whether it claims above, and X. Judged by our
/// interval alone: "sign differs" where it lies wholly on the other side of X, else consistent
/// (the claim is not contradicted).
pub fn direction_claim(text: &str) -> Option<(bool, f64)> {
    let t = text.trim();
    let (above, rest) = match t.chars().next()? {
        '>' => (true, &t[1..]),
        '<' => (false, &t[1..]),
        _ => return None,
    };
    rest.trim().parse().ok().map(|x| (above, x))
}

/// The start of the reason a row whose source gives no number is not comparable.
pub const NUMBERLESS: &str = "the source gives no number";

/// The confidence level's complement the verdict tests at.
const ALPHA: f64 = 0.05;

/// Compares each reference row with the table row whose keys (those the reference names)
/// match; when several table rows match, their values are not pooled: the row is not
/// comparable until the reference names enough keys to pick one.
pub fn compare(reference: &ReferenceSpec, table: &Table) -> Vec<Comparison> {
    let positions: Vec<Option<usize>> = reference
        .keys
        .iter()
        .map(|k| table.key_names.iter().position(|t| t == k))
        .collect();
    let nk = reference.keys.len();
    // Rows first without their verdicts: the p-values are adjusted together.
    let mut rows: Vec<(
        Comparison,
        Result<(Estimate, f64, &'static str), String>,
        bool,
    )> = reference
        .rows
        .iter()
        .map(|row| {
            let keys: Vec<String> = row[..nk.min(row.len())].iter().map(text_of).collect();
            let published = row.get(nk);
            let published_text = published.map(text_of).unwrap_or_default();
            let paper_n = number(row.get(nk + 1)).map(|n| n as u64).or(reference.n);
            let paper_sd = number(row.get(nk + 2));
            let matches: Vec<_> = table
                .rows
                .iter()
                .filter(|r| {
                    positions
                        .iter()
                        .zip(&keys)
                        .all(|(p, k)| p.is_some_and(|p| r.keys[p] == *k))
                })
                .collect();
            let measured_row = match matches.as_slice() {
                [m] => Some(*m),
                _ => None,
            };
            let measured = measured_row.and_then(|m| {
                if reference.relative {
                    m.change.map(|c| (c.value, c.lo, c.hi, m.n))
                } else {
                    Some((m.value.value, m.value.lo, m.value.hi, m.n))
                }
            });
            let value = number(published);
            let mut comparison = Comparison {
                keys,
                published: published_text.clone(),
                paper_n,
                measured,
                difference: None,
                test: None,
                inside: None,
                verdict: Verdict::Consistent,
            };
            let not = |why: String| (Err(why), false);
            let direction = direction_claim(&published_text);
            let (tested, sign) = match (value, matches.len(), measured_row, measured) {
                // The file says the two measure different things: shown with ours, never judged.
                _ if reference.not_comparable.is_some() => {
                    not(reference.not_comparable.clone().unwrap_or_default())
                }
                // A claim of a direction ("> 50": more than half), judged by our interval alone.
                (None, 1, _, Some((v, lo, hi, _))) if direction.is_some() => {
                    let (above, x) = direction.expect("checked");
                    comparison.inside =
                        (!lo.is_nan()).then_some(if above { hi > x } else { lo < x });
                    let wrong_side = if above { hi < x } else { lo > x };
                    let d = Estimate {
                        value: v - x,
                        lo: lo - x,
                        hi: hi - x,
                    };
                    (Ok((d, f64::NAN, DIRECTION_TEST)), wrong_side)
                }
                (None, _, _, _) => not(format!("{NUMBERLESS} ('{published_text}')")),
                (_, 0, _, _) => not("no measured row has these keys".into()),
                (_, m, _, _) if m > 1 => {
                    not(format!("{m} measured rows have these keys; name more keys"))
                }
                (Some(_), _, _, None) if reference.relative => {
                    not("the row is the baseline, or has no interval against it".into())
                }
                (Some(x), _, Some(row), Some((v, lo, hi, n))) => {
                    comparison.inside = (!lo.is_nan()).then_some(x >= lo && x <= hi);
                    let (ours, paper, point) = match (table.statistic, reference.relative) {
                        (Statistic::Score, _) => (
                            Sample::Percent {
                                value: v,
                                n: Some(n),
                            },
                            Sample::Percent {
                                value: x,
                                n: paper_n,
                            },
                            50.0,
                        ),
                        (_, true) => (
                            Sample::Mean {
                                value: v,
                                sd: None,
                                n: Some(n),
                            },
                            Sample::Mean {
                                value: x,
                                sd: paper_sd,
                                n: paper_n,
                            },
                            0.0,
                        ),
                        _ => (
                            Sample::Mean {
                                value: v,
                                sd: row.sd,
                                n: Some(n),
                            },
                            Sample::Mean {
                                value: x,
                                sd: paper_sd,
                                n: paper_n,
                            },
                            f64::NAN,
                        ),
                    };
                    // Two samples where the paper gives its n (and spread, for means); else
                    // the paper's value as a fixed number (`one_sample`, labelled so).
                    let level = 1.0 - ALPHA;
                    let by_interval = Ours::Interval {
                        value: v,
                        lo,
                        hi,
                        n,
                    };
                    let tested = match (table.statistic, reference.relative) {
                        (Statistic::Score, _) if paper_n.is_none() => {
                            one_sample(Ours::Percent { value: v, n }, x, level)
                        }
                        (Statistic::Score, _) => test(ours, paper, level),
                        (Statistic::Rating, _) | (_, true) => one_sample(by_interval, x, level),
                        (Statistic::Mean, false) if paper_sd.is_none() || paper_n.is_none() => {
                            match row.sd {
                                Some(sd) => one_sample(Ours::Mean { value: v, sd, n }, x, level),
                                None => one_sample(by_interval, x, level),
                            }
                        }
                        _ => test(ours, paper, level),
                    };
                    (tested, sign_differs((lo, hi), paper, point, 1.0 - ALPHA))
                }
                _ => not("no measured value".into()),
            };
            (comparison, tested, sign)
        })
        .collect();
    let raw: Vec<f64> = rows
        .iter()
        .map(|(_, t, _)| t.as_ref().map_or(f64::NAN, |t| t.1))
        .collect();
    let adjusted = holm(&raw);
    for (i, (c, tested, sign)) in rows.iter_mut().enumerate() {
        if let Ok((d, p, name)) = tested {
            c.difference = Some(*d);
            c.test = Some((name, *p, adjusted[i]));
        }
        c.verdict = verdict(tested, adjusted[i], *sign, ALPHA);
    }
    rows.into_iter().map(|(c, _, _)| c).collect()
}

/// The comparison as Markdown, with a line saying how the verdict was reached.
pub fn markdown(reference: &ReferenceSpec, table: &Table, rows: &[Comparison]) -> String {
    let mut s = String::new();
    if let Some(why) = &reference.not_comparable {
        s += &format!(
            "Not comparable, as the experiment file says: {why}. Our values are shown beside the paper's, not judged.\n\n"
        );
    }
    if reference.derived {
        s += "Derived values: the \"published\" column is ours, computed from the paper's numbers (the note says how), not printed in the paper; the reproduction page shows them apart and does not count them as published values.\n\n";
    }
    let mut header = reference.keys.clone();
    let (value_name, interval_name) = if reference.relative {
        (
            format!(
                "measured change of {} in % of the baseline's",
                table.value_name
            ),
            "its interval".to_string(),
        )
    } else {
        (
            format!("measured {}", table.value_name),
            table.interval_name.clone(),
        )
    };
    let paper_n = if reference.n_assumed {
        "paper n (assumed)"
    } else {
        "paper n"
    };
    header.extend([
        "published".to_string(),
        paper_n.into(),
        value_name,
        interval_name,
        table.n_name.clone(),
        "ours − paper (95% CI)".into(),
        "p (Holm)".into(),
        "verdict".into(),
        "paper in our CI".into(),
    ]);
    s += &format!(
        "| {} |\n|{}\n",
        header.join(" | "),
        header
            .iter()
            .enumerate()
            .map(|(i, _)| if i < reference.keys.len() {
                "---|"
            } else {
                "---:|"
            })
            .collect::<String>()
    );
    for c in rows {
        let mut cells = c.keys.clone();
        cells.push(c.published.clone());
        cells.push(c.paper_n.map_or("–".into(), |n| n.to_string()));
        match c.measured {
            Some((v, lo, hi, n)) => cells.extend([
                format!("{v:.1}"),
                if lo.is_nan() {
                    "–".into()
                } else {
                    format!("{lo:.1} to {hi:.1}")
                },
                n.to_string(),
            ]),
            None => cells.extend(["–".into(), "–".into(), "–".into()]),
        }
        cells.push(c.difference.map_or("–".into(), |d| {
            format!("{:+.1} ({:+.1} to {:+.1})", d.value, d.lo, d.hi)
        }));
        cells.push(match c.test {
            Some((_, p, adj)) if !p.is_nan() => format!("{} ({})", p_text(adj), p_text(p)),
            _ => "–".into(),
        });
        cells.push(c.verdict_text());
        cells.push(
            c.inside
                .map_or("–".into(), |i| if i { "yes".into() } else { "no".into() }),
        );
        s += &format!("| {} |\n", cells.join(" | "));
    }
    let count = |w: &str| rows.iter().filter(|c| c.verdict.word() == w).count();
    let one = rows
        .iter()
        .filter(|c| c.one_sample() && !matches!(c.verdict, Verdict::NotComparable(_)))
        .count();
    s += &format!(
        "\n{}: {} consistent, {} different, {} with the sign reversed, {} not comparable ({one} of the verdicts one-sample).\n",
        counted(rows.len(), "published value"),
        count("consistent"),
        count("different"),
        count("sign differs"),
        count("not comparable")
    );
    let one_sample_text = "where the paper gives no n, a one-sample test takes its value as a fixed number (labelled one-sample; it ignores the paper's own sampling error, so it finds differences more readily)";
    let test = match (table.statistic, reference.relative) {
        (Statistic::Score, _) => format!(
            "Fisher's exact test on score points (W + D/2 of n games, rounded to whole points for the exact test; ours against the paper's), with Newcombe's interval for the difference in percentage points; {one_sample_text}: the exact binomial test of our points, with our Wilson interval less the paper's value"
        ),
        (_, true) => "the paper's change as a fixed number against ours: a one-sample t test with the standard error read from our interval (one-sample)".to_string(),
        (Statistic::Mean, false) => format!(
            "Welch's t test where the paper gives its n and SD; {one_sample_text}: the one-sample t test from our SD"
        ),
        (Statistic::Rating, false) => "the paper's rating as a fixed number against ours: a one-sample t test with the standard error read from our interval (one-sample)".to_string(),
    };
    s += &format!(
        "Verdict: {test}; p-values Holm-adjusted over this table's rows (first number; raw in brackets), \"different\" below {ALPHA}. \"Sign differs\": the paper's value is clearly on its side of {} (its own interval excludes the line, or it gives no n) and our whole interval on the other. Both samples count, so the verdict does not ask whether the paper's value lies inside our interval (last column, for the reader).\n",
        if table.statistic == Statistic::Score {
            "50%"
        } else {
            "0"
        }
    );
    s
}

/// A reference row's keys as `csv_rows` writes them (`k=v; ...`) and its published value's
/// text: what a kept comparison row is matched with.
pub fn row_identity(reference: &ReferenceSpec, row: &[toml::Value]) -> (String, String) {
    let nk = reference.keys.len();
    let values: Vec<String> = row.iter().take(nk).map(text_of).collect();
    (
        keys_text(&reference.keys, &values),
        row.get(nk).map(text_of).unwrap_or_default(),
    )
}

/// A row's keys as `k=v; ...`, the form `csv_rows` writes and the page shows.
fn keys_text(names: &[String], values: &[String]) -> String {
    names
        .iter()
        .zip(values)
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The verdict word of a kept comparison row judged again by today's rule from its own
/// numbers (a kept report holds the verdict of the day it was made): "sign differs" only while
/// our interval lies wholly across the line (`two_sample::wholly_across`), else the ordinary
/// verdict from its Holm-adjusted p; "not comparable" wherever the experiment file says so.
pub fn rejudged(
    reference: &ReferenceSpec,
    word: &str,
    test: &str,
    published: Option<f64>,
    ours: (Option<f64>, Option<f64>),
    p_holm: Option<f64>,
) -> &'static str {
    use crate::stats::two_sample::{direction_point, wholly_across};
    if reference.not_comparable.is_some() {
        return Verdict::NotComparable(String::new()).word();
    }
    if test == DIRECTION_TEST {
        // Judged by its interval alone when it was made; the rule has not changed.
        return match word {
            "sign differs" => Verdict::SignDiffers.word(),
            _ => Verdict::Consistent.word(),
        };
    }
    let ordinary = |p: Option<f64>| match p {
        Some(p) if p < ALPHA => Verdict::Different.word(),
        _ => Verdict::Consistent.word(),
    };
    match (word, published, ours) {
        ("sign differs", Some(x), (Some(lo), Some(hi)))
            if wholly_across((lo, hi), x, direction_point(test)) =>
        {
            Verdict::SignDiffers.word()
        }
        ("sign differs", _, _) => ordinary(p_holm),
        ("consistent", ..) => Verdict::Consistent.word(),
        ("different", ..) => Verdict::Different.word(),
        _ => Verdict::NotComparable(String::new()).word(),
    }
}

/// The comparison as CSV rows (no header), for the summary page: table, source, keys (as
/// `k=v; ...`), published, paper n, n assumed, measured, lo, hi, n, difference, its interval,
/// test, p, p (Holm), verdict, why not comparable, derived (the values are ours, from the
/// paper's numbers).
pub fn csv_rows(reference: &ReferenceSpec, rows: &[Comparison]) -> Vec<Vec<String>> {
    let f = |x: f64| {
        if x.is_nan() {
            String::new()
        } else {
            format!("{x}")
        }
    };
    rows.iter()
        .map(|c| {
            let keys = keys_text(&reference.keys, &c.keys);
            let (v, lo, hi, n) = c.measured.map_or(
                (f64::NAN, f64::NAN, f64::NAN, String::new()),
                |(v, lo, hi, n)| (v, lo, hi, n.to_string()),
            );
            let d = c.difference.unwrap_or(Estimate {
                value: f64::NAN,
                lo: f64::NAN,
                hi: f64::NAN,
            });
            let (name, p, adj) = c.test.map_or(("", f64::NAN, f64::NAN), |t| t);
            let why = match &c.verdict {
                Verdict::NotComparable(w) => w.clone(),
                _ => String::new(),
            };
            vec![
                reference.table.clone(),
                reference.source.clone().unwrap_or_default(),
                keys,
                c.published.clone(),
                c.paper_n.map_or(String::new(), |n| n.to_string()),
                (reference.n_assumed && c.paper_n.is_some()).to_string(),
                f(v),
                f(lo),
                f(hi),
                n,
                f(d.value),
                f(d.lo),
                f(d.hi),
                name.to_string(),
                f(p),
                f(adj),
                c.verdict.word().to_string(),
                why,
                reference.derived.to_string(),
            ]
        })
        .collect()
}

/// The file in a report's folder that holds every published value of the report with its
/// verdict (`csv_rows`), whatever `--format` says: the summary page reads it.
pub const CSV_FILE: &str = "comparisons.csv";

/// The header of `csv_rows`.
pub const CSV_HEADER: [&str; 19] = [
    "table",
    "source",
    "keys",
    "published",
    "paper_n",
    "paper_n_assumed",
    "measured",
    "measured_lo",
    "measured_hi",
    "n",
    "difference",
    "difference_lo",
    "difference_hi",
    "test",
    "p",
    "p_holm",
    "verdict",
    "why",
    "derived",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(not_comparable: Option<&str>) -> ReferenceSpec {
        ReferenceSpec {
            table: "t".into(),
            source: None,
            keys: vec!["agent".into()],
            rows: vec![vec!["a".into(), toml::Value::Float(32.5)]],
            n: Some(40),
            n_assumed: false,
            relative: false,
            note: None,
            reversal: None,
            not_comparable: not_comparable.map(str::to_string),
            derived: false,
        }
    }

    #[test]
    fn kept_rows_are_judged_again_by_todays_rule() {
        let r = reference(None);
        // othello-ga-table2 seed 15 as kept: "sign differs", the paper's 32.5 against our 52.5
        // (41.7 to 63.1): our interval crosses 50%, so the ordinary verdict from p (Holm) 0.3.
        let kept = |word, lo, hi, p| {
            rejudged(
                &r,
                word,
                "Fisher exact",
                Some(32.5),
                (Some(lo), Some(hi)),
                Some(p),
            )
        };
        assert_eq!(kept("sign differs", 41.7, 63.1, 0.3), "consistent");
        assert_eq!(kept("sign differs", 41.7, 63.1, 0.01), "different");
        // Wholly above 50%: still reversed.
        assert_eq!(kept("sign differs", 52.9, 59.6, 1e-5), "sign differs");
        assert_eq!(kept("consistent", 41.7, 63.1, 0.3), "consistent");
        // A change against 0 (a t test): -8.26 against +0.5 (-3.6 to +3.9), and (+0.2 to +3.9).
        let change = |lo, hi| {
            rejudged(
                &r,
                "sign differs",
                "t from our interval, one-sample",
                Some(-8.26),
                (Some(lo), Some(hi)),
                Some(1e-6),
            )
        };
        assert_eq!(change(-3.6, 3.9), "different");
        assert_eq!(change(0.2, 3.9), "sign differs");
        // The file's word outranks the kept verdict.
        let apart = reference(Some("another engine"));
        assert_eq!(
            rejudged(
                &apart,
                "different",
                "t, one-sample",
                Some(1200.0),
                (Some(15_000.0), Some(16_000.0)),
                Some(1e-9)
            ),
            "not comparable"
        );
        // A direction claim keeps the verdict its interval gave.
        assert_eq!(
            rejudged(
                &r,
                "sign differs",
                DIRECTION_TEST,
                None,
                (Some(20.0), Some(45.0)),
                None
            ),
            "sign differs"
        );
        assert_eq!(direction_claim("> 50"), Some((true, 50.0)));
        assert_eq!(direction_claim("<0"), Some((false, 0.0)));
        assert_eq!(direction_claim("more than half"), None);
        // A row identifies itself as csv_rows writes it.
        assert_eq!(
            row_identity(&r, &r.rows[0]),
            ("agent=a".to_string(), "32.5".to_string())
        );
    }
}
