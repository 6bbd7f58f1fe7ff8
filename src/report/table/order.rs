//! The order of a table's rows: cells compared as numbers, as steps of a named scale, or as
//! text whose digit runs compare as numbers; rows ranked by a key.

use super::*;

/// Words that name steps of one scale, in order: two cells of the same scale compare by step.
pub(super) const SCALES: &[&[&str]] = &[&["easy", "medium", "hard"]];

/// Compares two cell texts as numbers when both are numbers, as steps when both are words of
/// one scale (`SCALES`: "easy" before "medium" before "hard"), else as text whose runs of
/// digits compare as numbers ("size-6" before "size-10").
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let step = |scale: &[&str], w: &str| scale.iter().position(|s| *s == w);
    if let Some((x, y)) = SCALES
        .iter()
        .find_map(|scale| step(scale, a).zip(step(scale, b)))
    {
        return x.cmp(&y);
    }
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        _ => chunks(a).cmp(chunks(b)),
    }
}

/// A text as runs of digits (by value) and of other characters.
pub(super) fn chunks(s: &str) -> impl Iterator<Item = (String, u128)> + '_ {
    let mut rest = s;
    std::iter::from_fn(move || {
        let first = rest.chars().next()?;
        let digit = first.is_ascii_digit();
        let end = rest
            .find(|c: char| c.is_ascii_digit() != digit)
            .unwrap_or(rest.len());
        let (run, tail) = rest.split_at(end);
        rest = tail;
        // Digit runs compare by value first (an empty text sorts before any word).
        Some(if digit {
            (String::new(), run.parse().unwrap_or(u128::MAX))
        } else {
            (run.to_string(), 0)
        })
    })
}

pub(super) fn keys_cmp(a: &[String], b: &[String]) -> Ordering {
    a.iter()
        .zip(b)
        .map(|(x, y)| natural_cmp(x, y))
        .find(|o| *o != Ordering::Equal)
        .unwrap_or(Ordering::Equal)
}

/// Sorts rows by their keys other than `rank_key`, then (when ranking) by value, best first.
pub(super) fn sort_rows(rows: &mut [TableRow], rank_key: Option<usize>) {
    let context = |r: &TableRow| -> Vec<String> {
        r.keys
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != rank_key)
            .map(|(_, k)| k.clone())
            .collect()
    };
    rows.sort_by(|a, b| {
        keys_cmp(&context(a), &context(b)).then_with(|| match rank_key {
            Some(_) => b
                .value
                .value
                .partial_cmp(&a.value.value)
                .unwrap_or(Ordering::Equal)
                .then_with(|| keys_cmp(&a.keys, &b.keys)),
            None => keys_cmp(&a.keys, &b.keys),
        })
    });
}
