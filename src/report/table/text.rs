//! A table as text: numbers, p-values and levels formatted for cells, the Markdown table and
//! its CSV form (tidy column names, quoted cells).

use super::*;

pub(super) fn num(x: f64) -> String {
    if x.is_nan() {
        "–".into()
    } else if x == f64::INFINITY {
        "+∞".into()
    } else if x == f64::NEG_INFINITY {
        "-∞".into()
    } else if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

/// A number with `decimals` decimals; infinities and NaN as symbols.
pub(super) fn fixed(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        num(x)
    }
}

/// A p-value: three decimals, or scientific notation below 0.001.
pub(in crate::report) fn p_text(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.3}")
    } else {
        format!("{p:.1e}")
    }
}

/// A count with its noun, plural unless one: "1 experiment", "3 experiments".
pub(in crate::report) fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// An Elo value to one decimal.
pub(super) fn elo_text(x: f64) -> String {
    fixed(x, 1)
}

pub(super) fn level_text(level: f64) -> String {
    format!("{}%", (level * 1000.0).round() / 10.0)
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
            s += if i < self.key_names.len() {
                "---|"
            } else {
                "---:|"
            };
        }
        s += "\n";
        let value = |x: f64| fixed(x, self.decimals);
        for r in &self.rows {
            let mut cells = r.keys.clone();
            cells.push(r.n.to_string());
            cells.extend(r.before.iter().cloned());
            cells.push(value(r.value.value));
            cells.push(if r.value.lo.is_nan() {
                "–".into()
            } else {
                format!("{} to {}", value(r.value.lo), value(r.value.hi))
            });
            cells.extend(r.after.iter().cloned());
            s += &format!("| {} |\n", cells.join(" | "));
        }
        s
    }

    /// The table as CSV: the Markdown columns, with the interval as two columns.
    /// The table as tidy CSV: one value a cell, plain column names (`score`, `score_lo`,
    /// `score_hi`, `wins`, `elo`, `elo_lo`, `elo_hi`, `pairs_0` ... `pairs_1`, `delta`,
    /// `delta_pct`, `delta_lo`, `delta_hi`, `p`, `n`, `n_unit`...), intervals split in two, and
    /// empty cells where a value does not apply, so that pandas and polars load it as it is.
    pub fn csv(&self) -> String {
        let column =
            |i: usize| -> Vec<String> { self.rows.iter().map(|r| r.keys[i].clone()).collect() };
        let mut cols: Vec<(String, Vec<String>)> = (0..self.key_names.len())
            .map(|i| (self.key_names[i].clone(), column(i)))
            .collect();
        let (n_name, n_unit) = match self
            .n_name
            .strip_prefix("n (")
            .and_then(|u| u.strip_suffix(')'))
        {
            Some(unit) => ("n".to_string(), Some(unit.to_string())),
            None => (tidy_name(&self.n_name), None),
        };
        cols.push((n_name, self.rows.iter().map(|r| r.n.to_string()).collect()));
        if let Some(unit) = n_unit {
            cols.push(("n_unit".into(), vec![unit; self.rows.len()]));
        }
        for (i, name) in self.before_names.iter().enumerate() {
            cols.extend(tidy_columns(
                name,
                self.rows.iter().map(|r| r.before[i].clone()).collect(),
            ));
        }
        let value = tidy_name(&self.value_name);
        let number = |x: f64| {
            if x.is_finite() {
                format!("{x}")
            } else {
                String::new()
            }
        };
        cols.push((
            value.clone(),
            self.rows.iter().map(|r| number(r.value.value)).collect(),
        ));
        cols.push((
            format!("{value}_lo"),
            self.rows.iter().map(|r| number(r.value.lo)).collect(),
        ));
        cols.push((
            format!("{value}_hi"),
            self.rows.iter().map(|r| number(r.value.hi)).collect(),
        ));
        // A rating's anchor ("rating (Elo, random = 0)"): the agent at 0, or "mean 0".
        if let Some(anchor) = self
            .value_name
            .strip_prefix("rating (Elo, ")
            .and_then(|a| a.strip_suffix(')'))
        {
            let anchor = anchor.strip_suffix(" = 0").unwrap_or(anchor);
            cols.push(("anchor".into(), vec![anchor.to_string(); self.rows.len()]));
        }
        for (i, name) in self.after_names.iter().enumerate() {
            cols.extend(tidy_columns(
                name,
                self.rows.iter().map(|r| r.after[i].clone()).collect(),
            ));
        }
        let mut s = csv_line(&cols.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>());
        for r in 0..self.rows.len() {
            s += &csv_line(&cols.iter().map(|(_, c)| c[r].as_str()).collect::<Vec<_>>());
        }
        s
    }
}

/// A column name of the Markdown table as a plain CSV name: lower case, words joined by `_`.
pub(super) fn tidy_name(name: &str) -> String {
    match name {
        "score %" => return "score".into(),
        "W" => return "wins".into(),
        "D" => return "draws".into(),
        "L" => return "losses".into(),
        "Δ %" => return "delta_pct".into(),
        _ => {}
    }
    if name.starts_with("p (") {
        return "p".into();
    }
    if name.starts_with("rating (Elo") {
        return "rating_elo".into();
    }
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

/// A column of the Markdown table as one or more tidy CSV columns: intervals (`a to b`) in two,
/// pentanomial counts (`a/b/c/d/e`) in five, a comparison's baseline in its own column; a dash
/// (no value) as an empty cell.
pub(super) fn tidy_columns(name: &str, cells: Vec<String>) -> Vec<(String, Vec<String>)> {
    let cells: Vec<String> = cells
        .into_iter()
        .map(|c| if c == "–" { String::new() } else { c })
        .collect();
    if let Some(baseline) = name.strip_prefix("Δ vs ") {
        return vec![
            ("delta".into(), cells.clone()),
            ("baseline".into(), vec![baseline.to_string(); cells.len()]),
        ];
    }
    if name.starts_with("pairs ") {
        let parts: Vec<Vec<String>> = cells
            .iter()
            .map(|c| {
                if c.is_empty() {
                    vec![String::new(); 5]
                } else {
                    c.split('/').map(str::to_string).collect()
                }
            })
            .collect();
        return ["pairs_0", "pairs_1_4", "pairs_1_2", "pairs_3_4", "pairs_1"]
            .iter()
            .enumerate()
            .map(|(k, n)| {
                (
                    n.to_string(),
                    parts
                        .iter()
                        .map(|p| p.get(k).cloned().unwrap_or_default())
                        .collect(),
                )
            })
            .collect();
    }
    if name.ends_with(" CI") {
        let base = if name.starts_with("Elo") {
            "elo"
        } else {
            "delta"
        };
        let (lo, hi): (Vec<String>, Vec<String>) = cells
            .iter()
            .map(|c| {
                c.split_once(" to ")
                    .map_or((String::new(), String::new()), |(a, b)| {
                        (a.to_string(), b.to_string())
                    })
            })
            .unzip();
        return vec![(format!("{base}_lo"), lo), (format!("{base}_hi"), hi)];
    }
    vec![(tidy_name(name), cells)]
}

/// One CSV line (with its newline): cells with a comma, quote or newline quoted.
pub fn csv_line<S: AsRef<str>>(cells: &[S]) -> String {
    let quote = |x: &str| {
        if x.contains([',', '"', '\n']) {
            format!("\"{}\"", x.replace('"', "\"\""))
        } else {
            x.to_string()
        }
    };
    cells
        .iter()
        .map(|c| quote(c.as_ref()))
        .collect::<Vec<_>>()
        .join(",")
        + "\n"
}
