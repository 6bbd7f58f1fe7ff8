//! The queries behind tables: records grouped by keys, part by part (each part's query is
//! collected on its own and the groups added up), and the values of each group.

use super::*;

/// Group columns, or one constant column when there are none (every record in one group; a
/// plain select of aggregates trips polars 0.55's streaming engine over a union of scans).
pub fn group_keys(keys: Vec<Expr>) -> Vec<Expr> {
    if keys.is_empty() {
        vec![lit(0).alias("__all")]
    } else {
        keys
    }
}

/// The records of each part (job) passing `filter`, in part order: queries run part by part.
/// Pairs, games and their seats never span two parts, and a union of many scans at once holds
/// several times the memory of one scan after another (polars 0.55 reads them concurrently).
pub fn per_part(records: &Records, filter: &[(String, String)]) -> Vec<LazyFrame> {
    let parts = if records.parts.is_empty() {
        std::slice::from_ref(&records.frame)
    } else {
        &records.parts[..]
    };
    parts
        .iter()
        .map(|part| part.clone().filter(records.matches(filter)))
        .collect()
}

/// Runs one query per part, one after the other (two at once double the memory and gain
/// little: each query already runs on every core), and returns their frames in part order, so
/// what is merged from them is merged in one order.
pub fn collect_parts(queries: Vec<LazyFrame>) -> Result<Vec<DataFrame>> {
    queries.into_iter().map(collect).collect()
}

/// Each group's key texts and its values.
pub type Groups = BTreeMap<Vec<String>, Vec<f64>>;

/// Each row's group: the texts of its `keys` columns.
pub(super) fn row_keys(df: &DataFrame, keys: &[String]) -> Result<Vec<Vec<String>>> {
    let columns: Vec<Vec<String>> = keys
        .iter()
        .map(|k| key_texts(df, k))
        .collect::<Result<_>>()?;
    Ok((0..df.height())
        .map(|i| columns.iter().map(|c| c[i].clone()).collect())
        .collect())
}

/// The groups (by `keys`) of the records passing `filter`, each with its aggregates, one query
/// per part and groups merged by adding: every aggregate must be a count or a sum, or a count
/// of things no two parts share. Returns the aggregates' names and each group's values.
pub fn summed(
    records: &Records,
    keys: &[String],
    filter: &[(String, String)],
    aggs: Vec<Expr>,
) -> Result<(Vec<String>, Groups)> {
    let queries = per_part(records, filter)
        .into_iter()
        .map(|part| {
            part.group_by(group_keys(keys.iter().map(|k| records.key(k)).collect()))
                .agg(aggs.clone())
        })
        .collect();
    added_up(queries, keys)
}

/// Runs one query per part (each grouped by `keys`, then its aggregates) and adds up each
/// group's aggregates over the parts. Returns the aggregates' names and each group's values.
pub(super) fn added_up(queries: Vec<LazyFrame>, keys: &[String]) -> Result<(Vec<String>, Groups)> {
    let mut names = Vec::new();
    let mut groups: Groups = BTreeMap::new();
    for df in collect_parts(queries)? {
        let values;
        (names, values) = aggregates(&df, keys.len().max(1))?;
        for (i, group) in row_keys(&df, keys)?.into_iter().enumerate() {
            let sums = groups
                .entry(group)
                .or_insert_with(|| vec![0.0; names.len()]);
            sums.iter_mut()
                .zip(&values)
                .for_each(|(sum, v)| *sum += v[i]);
        }
    }
    Ok((names, groups))
}

/// The names and values of a grouped frame's aggregates: its columns after the first `keys`
/// (the group columns).
pub(super) fn aggregates(df: &DataFrame, keys: usize) -> Result<(Vec<String>, Vec<Vec<f64>>)> {
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .skip(keys)
        .map(|n| n.to_string())
        .collect();
    let values = names
        .iter()
        .map(|n| numbers(df, n))
        .collect::<Result<_>>()?;
    Ok((names, values))
}

/// The value named `name` of a group's sums.
pub(super) fn value(names: &[String], values: &[f64], name: &str) -> f64 {
    names
        .iter()
        .position(|n| n == name)
        .map_or(f64::NAN, |i| values[i])
}

/// Each group's values of `value` (finite, sorted), one query per part.
pub fn values_by_group(
    records: &Records,
    keys: &[String],
    filter: &[(String, String)],
    value: Expr,
) -> Result<BTreeMap<Vec<String>, Vec<f64>>> {
    let mut groups: BTreeMap<Vec<String>, Vec<f64>> = BTreeMap::new();
    let queries = per_part(records, filter)
        .into_iter()
        .map(|part| {
            part.group_by(group_keys(keys.iter().map(|k| records.key(k)).collect()))
                .agg([value
                    .clone()
                    .filter(value.clone().is_finite())
                    .alias("__values")])
        })
        .collect();
    for df in collect_parts(queries)? {
        let lists = df.column("__values")?.list()?.clone();
        for (i, group) in row_keys(&df, keys)?.into_iter().enumerate() {
            let xs = lists
                .get_as_series(i)
                .map(|s| {
                    s.f64()
                        .map(|c| c.into_no_null_iter().collect::<Vec<f64>>())
                        .unwrap_or_default()
                })
                .unwrap_or_default();
            groups.entry(group).or_default().extend(xs);
        }
    }
    // Sorted, so nothing depends on the order the scan met the records.
    groups
        .values_mut()
        .for_each(|xs| xs.sort_by(f64::total_cmp));
    groups.retain(|_, xs| !xs.is_empty());
    Ok(groups)
}
