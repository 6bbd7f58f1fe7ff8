//! Mean tables: a numeric column's mean per group with its interval, and against a baseline
//! the difference by Welch's t or paired over the shared units.

use super::*;

/// The mean of a numeric column per group, with its Student t interval and the SD; with a
/// baseline, each group's difference from it (also in % of the baseline's mean) with Welch's
/// interval and p-value, or, `paired`, the paired t interval and p-value over the units both
/// groups have (every row of a comparison over the units all its groups have). Without a unit
/// and with the t interval, only each group's moments are computed (in polars); with a unit,
/// each unit's mean; a bootstrap over records collects the values.
pub(super) fn mean_table(records: &Records, p: &TableParams) -> Result<Table> {
    let metric = p.metric.expect("checked: mean tables name a metric");
    // A game-level metric of game records counts once per game in each group, whatever the
    // grouping (two seat records of one game would count it twice where they share a group).
    // Where the keys tell which records of a game share a group (`GameCount`), a filter on the
    // seat does it; otherwise the records are deduplicated by group and game (slower).
    let deduplicated;
    let (records, filter) = if records.has("game_id") && GAME_LEVEL.contains(&metric) {
        let first = || col("seat").eq(lit("first"));
        match GameCount::of(p, records) {
            GameCount::OnePerGame => (records, p.filter),
            GameCount::TwicePerGame => {
                deduplicated = records.filtered(first())?;
                (&deduplicated, p.filter)
            }
            GameCount::SelfPlayTwice => {
                deduplicated = records.filtered(first().or(col("agent").neq(col("opponent"))))?;
                (&deduplicated, p.filter)
            }
            GameCount::Distinct => {
                deduplicated = records.one_per_game(p.filter, p.group_by)?;
                (&deduplicated, &[][..])
            }
        }
    } else {
        (records, p.filter)
    };
    // The baseline's column (its place among the group keys) and value.
    let baseline_at = p.baseline.as_ref().map(|(column, value)| {
        let c = p
            .group_by
            .iter()
            .position(|k| k == column)
            .expect("checked: the baseline column is a group key");
        (c, value.as_str())
    });
    let method = match p.method {
        MeanInterval::T => "t",
        MeanInterval::Bootstrap => "bootstrap",
    };
    let n_name = p.unit.map_or("n".to_string(), |u| format!("n ({u})"));
    let mut t = base(
        p,
        &n_name,
        format!("mean {metric}"),
        format!("{} CI ({method})", level_text(p.level)),
    );
    t.after_names = vec!["SD".into()];
    let value = || col(metric).cast(DataType::Float64);
    let finite = || value().filter(value().is_finite());
    // Each group's sample: its moments, or its values (the unit means, in unit order).
    let mut moments: BTreeMap<Vec<String>, Moments> = BTreeMap::new();
    let mut values: BTreeMap<Vec<String>, Vec<f64>> = BTreeMap::new();
    // The unit means of each group by unit, for paired comparisons.
    let mut by_unit: BTreeMap<Vec<String>, BTreeMap<String, f64>> = BTreeMap::new();
    match (p.unit, p.method) {
        (None, MeanInterval::T) => {
            // Each part's moments, merged in part order (Chan et al.'s pairwise update).
            let aggs = vec![
                finite().count().cast(DataType::Float64).alias("n"),
                finite().mean().alias("mean"),
                finite().var(1).alias("var"),
            ];
            let queries = per_part(records, filter)
                .into_iter()
                .map(|part| {
                    part.group_by(group_keys(
                        p.group_by.iter().map(|k| records.key(k)).collect(),
                    ))
                    .agg(aggs.clone())
                })
                .collect();
            for df in collect_parts(queries)? {
                let (n, mean, var) = (
                    numbers(&df, "n")?,
                    numbers(&df, "mean")?,
                    numbers(&df, "var")?,
                );
                for (i, keys) in row_keys(&df, p.group_by)?
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| n[*i] > 0.0)
                {
                    let part = Moments {
                        n: n[i] as u64,
                        mean: settled(mean[i]),
                        variance: if n[i] > 1.0 { settled(var[i]) } else { 0.0 },
                    };
                    let merged = moments.get(&keys).map_or(part, |m| merge_moments(*m, part));
                    moments.insert(keys, merged);
                }
            }
            for m in moments.values_mut().filter(|m| m.n < 2) {
                m.variance = f64::NAN;
            }
        }
        (None, MeanInterval::Bootstrap) => {
            values = values_by_group(records, p.group_by, filter, value())?;
        }
        (Some(unit), _) => {
            // The mean of each unit first (its sum and count, added over parts); pairs and games
            // are numbered within their job.
            let within_job = unit == "pair" || unit == "game";
            let mut unit_keys: Vec<String> = p.group_by.to_vec();
            unit_keys.extend(["__unit_job".to_string(), "__unit".to_string()]);
            let units = records.with_columns(&[
                records.key(unit).alias("__unit"),
                if within_job {
                    records.key("job")
                } else {
                    lit("")
                }
                .alias("__unit_job"),
            ])?;
            // Each unit's mean: its sum over its count, or, weighted, the sum of value x weight
            // over the sum of the weights.
            let aggs = match p.weighted_by {
                None => vec![
                    finite().sum().alias("sum"),
                    finite().count().cast(DataType::Float64).alias("count"),
                ],
                Some(w) => {
                    let weight = || col(w).cast(DataType::Float64);
                    let both = || value().is_finite().and(weight().is_finite());
                    vec![
                        (value() * weight()).filter(both()).sum().alias("sum"),
                        weight().filter(both()).sum().alias("count"),
                    ]
                }
            };
            let (names, sums) = summed(&units, &unit_keys, filter, aggs)?;
            let g = p.group_by.len();
            for (k, v) in sums {
                let (sum, count) = (
                    self::value(&names, &v, "sum"),
                    self::value(&names, &v, "count"),
                );
                if count == 0.0 {
                    continue;
                }
                let unit_id = if within_job {
                    format!("{}/{}", k[g], k[g + 1])
                } else {
                    k[g + 1].clone()
                };
                by_unit
                    .entry(k[..g].to_vec())
                    .or_default()
                    .insert(unit_id, settled(sum / count));
            }
            if let (true, Some((c, base_value))) = (p.paired, baseline_at) {
                keep_shared_units(&mut by_unit, c, base_value);
            }
            for (keys, means) in &by_unit {
                values.insert(keys.clone(), means.values().copied().collect());
            }
        }
    }
    for (keys, xs) in &values {
        moments.insert(keys.clone(), Moments::of(xs));
    }
    for (keys, m) in &moments {
        let interval = match (values.get(keys), p.method) {
            (_, MeanInterval::T) => mean_interval_of(*m, p.level),
            (Some(xs), MeanInterval::Bootstrap) if xs.len() > 1 => {
                bootstrap(xs, mean, p.bootstrap, p.level, p.seed)
            }
            _ => None,
        };
        let value = interval.unwrap_or(Estimate {
            value: m.mean,
            lo: f64::NAN,
            hi: f64::NAN,
        });
        t.rows.push(TableRow {
            keys: keys.clone(),
            n: m.n,
            value,
            before: vec![],
            after: vec![fixed(m.variance.sqrt(), 2)],
            change: None,
            sd: Some(m.variance.sqrt()).filter(|s| s.is_finite()),
        });
    }
    if let (Some((column, _)), Some((c, base_value))) = (&p.baseline, baseline_at) {
        let test = if p.paired { "paired t" } else { "Welch" };
        t.after_names.extend([
            format!("Δ vs {column} = {base_value}"),
            "Δ %".into(),
            format!("{test} {} CI", level_text(p.level)),
            format!("p ({test})"),
        ]);
        for r in &mut t.rows {
            let mut base_keys = r.keys.clone();
            base_keys[c] = base_value.to_string();
            let comparison = if base_keys == r.keys {
                None
            } else if p.paired {
                // Over the units both groups have, in unit order.
                by_unit
                    .get(&r.keys)
                    .zip(by_unit.get(&base_keys))
                    .and_then(|(a, b)| {
                        let (xs, ys): (Vec<f64>, Vec<f64>) = a
                            .iter()
                            .filter_map(|(u, x)| b.get(u).map(|y| (*x, *y)))
                            .unzip();
                        paired(&xs, &ys, p.level).map(|test| (test, mean(&ys)))
                    })
            } else {
                moments.get(&base_keys).and_then(|b| {
                    welch_of(moments[&r.keys], *b, p.level).map(|test| (test, b.mean))
                })
            };
            match comparison {
                Some((w, base_mean)) => {
                    let percent = |x: f64| 100.0 * x / base_mean;
                    r.change = Some(Estimate {
                        value: percent(w.difference.value),
                        lo: percent(w.difference.lo),
                        hi: percent(w.difference.hi),
                    });
                    r.after.extend([
                        fixed(w.difference.value, 2),
                        fixed(percent(w.difference.value), 1),
                        format!(
                            "{} to {}",
                            fixed(w.difference.lo, 2),
                            fixed(w.difference.hi, 2)
                        ),
                        p_text(w.p),
                    ]);
                }
                None => r
                    .after
                    .extend(["–".into(), "–".into(), "–".into(), "–".into()]),
            }
        }
    }
    sort_rows(&mut t.rows, None);
    Ok(t)
}

/// A paired table's samples cut to the units every group of a comparison has: the baseline's
/// group and the groups compared with it (those that differ from it in the baseline column
/// only). A filter can drop a unit from one group and not another (`budget_hit = 0`: the
/// questions each weight vector solved), and the paired test reads only the units both have;
/// cut alike, each row's n and mean are over the same units as its difference, so the columns
/// agree (the difference of two rows' means is their Δ) and the table reads as "the questions
/// all of them solve". A comparison whose groups share no unit is left as it is (its rows get
/// no Δ).
pub(super) fn keep_shared_units(
    by_unit: &mut BTreeMap<Vec<String>, BTreeMap<String, f64>>,
    c: usize,
    base_value: &str,
) {
    let mut comparisons: BTreeMap<Vec<String>, Vec<Vec<String>>> = BTreeMap::new();
    for keys in by_unit.keys() {
        let mut base_keys = keys.clone();
        base_keys[c] = base_value.to_string();
        comparisons.entry(base_keys).or_default().push(keys.clone());
    }
    for (base_keys, groups) in comparisons {
        if groups.len() < 2 || !by_unit.contains_key(&base_keys) {
            continue;
        }
        let shared: Vec<String> = by_unit[&base_keys]
            .keys()
            .filter(|u| groups.iter().all(|g| by_unit[g].contains_key(*u)))
            .cloned()
            .collect();
        if shared.is_empty() {
            continue;
        }
        for g in &groups {
            by_unit
                .get_mut(g)
                .expect("a group of by_unit")
                .retain(|u, _| shared.binary_search(u).is_ok());
        }
    }
}

/// Two samples' moments as one (Chan, Golub and LeVeque's pairwise update of the mean and the
/// sum of squared deviations).
pub(super) fn merge_moments(a: Moments, b: Moments) -> Moments {
    let n = a.n + b.n;
    let delta = b.mean - a.mean;
    let mean = a.mean + delta * b.n as f64 / n as f64;
    let m2 = a.variance * (a.n as f64 - 1.0).max(0.0)
        + b.variance * (b.n as f64 - 1.0).max(0.0)
        + delta * delta * a.n as f64 * b.n as f64 / n as f64;
    Moments {
        n,
        mean,
        variance: if n > 1 { m2 / (n as f64 - 1.0) } else { 0.0 },
    }
}

/// A sum polars computed over many records, to 12 significant digits. Its threads add the
/// records in whatever order they meet them, so the last bits of a float sum differ between
/// runs on the same rows; rounded, a rerun prints the same numbers (a rounding boundary between
/// two runs' sums is possible, about once in 10^4 values, and moves the 12th digit only).
/// Counts and sums of results (multiples of one half) are exact and need no rounding.
pub(super) fn settled(x: f64) -> f64 {
    if x.is_finite() && x != 0.0 {
        format!("{x:.11e}").parse().unwrap_or(x)
    } else {
        x
    }
}
