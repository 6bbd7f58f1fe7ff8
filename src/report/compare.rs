//! Published numbers beside measured ones: for each row of a `[[report.reference]]`, the
//! measured value and interval of the matching table row, and a verdict.

use super::spec::ReferenceSpec;
use super::table::Table;

#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The published value lies inside the measured interval.
    Inside,
    Outside,
    /// Why the row cannot be compared.
    NotComparable(String),
}

impl Verdict {
    pub fn text(&self) -> String {
        match self {
            Verdict::Inside => "inside".into(),
            Verdict::Outside => "**outside**".into(),
            Verdict::NotComparable(why) => format!("not comparable: {why}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub keys: Vec<String>,
    pub published: String,
    pub measured: Option<(f64, f64, f64, u64)>,
    pub verdict: Verdict,
}

fn text_of(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Float(f) => super::records::key_text(*f),
        other => other.to_string(),
    }
}

/// Compares each reference row with the table row whose keys (those the reference names)
/// match; when several table rows match, their values are not pooled: the row is not
/// comparable until the reference names enough keys to pick one.
pub fn compare(reference: &ReferenceSpec, table: &Table) -> Vec<Comparison> {
    let positions: Vec<Option<usize>> = reference.keys.iter().map(|k| table.key_names.iter().position(|t| t == k)).collect();
    reference
        .rows
        .iter()
        .map(|row| {
            let keys: Vec<String> = row[..reference.keys.len().min(row.len())].iter().map(text_of).collect();
            let published = row.get(reference.keys.len());
            let published_text = published.map(text_of).unwrap_or_default();
            let matches: Vec<_> = table
                .rows
                .iter()
                .filter(|r| positions.iter().zip(&keys).all(|(p, k)| p.is_some_and(|p| r.keys[p] == *k)))
                .collect();
            let measured = match matches.as_slice() {
                [m] if reference.relative => m.change.map(|c| (c.value, c.lo, c.hi, m.n)),
                [m] => Some((m.value.value, m.value.lo, m.value.hi, m.n)),
                _ => None,
            };
            let number = published.and_then(|v| v.as_float().or(v.as_integer().map(|i| i as f64)));
            let verdict = match (number, matches.len(), measured) {
                (None, _, _) => Verdict::NotComparable(format!("the source gives no number ('{published_text}')")),
                (_, 0, _) => Verdict::NotComparable("no measured row has these keys".into()),
                (_, m, _) if m > 1 => Verdict::NotComparable(format!("{m} measured rows have these keys; name more keys")),
                (Some(_), _, Some((_, lo, _, _))) if lo.is_nan() => Verdict::NotComparable("the measured value has no interval".into()),
                (Some(x), _, Some((_, lo, hi, _))) => {
                    if x >= lo && x <= hi {
                        Verdict::Inside
                    } else {
                        Verdict::Outside
                    }
                }
                _ if reference.relative => Verdict::NotComparable("the row is the baseline, or has no interval against it".into()),
                _ => Verdict::NotComparable("no measured value".into()),
            };
            Comparison { keys, published: published_text, measured, verdict }
        })
        .collect()
}

/// The comparison as Markdown.
pub fn markdown(reference: &ReferenceSpec, table: &Table, rows: &[Comparison]) -> String {
    let mut s = String::new();
    let mut header = reference.keys.clone();
    let (value_name, interval_name) = if reference.relative {
        (format!("measured change of {} in % of the baseline's", table.value_name), "its interval".to_string())
    } else {
        (format!("measured {}", table.value_name), table.interval_name.clone())
    };
    header.extend(["published".to_string(), value_name, interval_name, table.n_name.clone(), "verdict".into()]);
    s += &format!("| {} |\n|{}\n", header.join(" | "), header.iter().enumerate().map(|(i, _)| if i < reference.keys.len() { "---|" } else { "---:|" }).collect::<String>());
    for c in rows {
        let mut cells = c.keys.clone();
        cells.push(c.published.clone());
        match c.measured {
            Some((v, lo, hi, n)) => cells.extend([format!("{v:.1}"), if lo.is_nan() { "–".into() } else { format!("{lo:.1} to {hi:.1}") }, n.to_string()]),
            None => cells.extend(["–".into(), "–".into(), "–".into()]),
        }
        cells.push(c.verdict.text());
        s += &format!("| {} |\n", cells.join(" | "));
    }
    let inside = rows.iter().filter(|c| c.verdict == Verdict::Inside).count();
    let outside = rows.iter().filter(|c| c.verdict == Verdict::Outside).count();
    s += &format!("\n{inside} of {} published values lie inside the measured interval, {outside} outside, {} not comparable.\n", rows.len(), rows.len() - inside - outside);
    s
}
