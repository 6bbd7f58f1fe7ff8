//! Per-cell weight tables: the positional heuristics and rollout weights of the Othello report.
//!
//! An experiment file names a table as a built-in name, inline rows, or a path to a text file of
//! rows (numbers separated by spaces or commas, `#` starts a comment). Resolution replaces the
//! reference by its rows, so a resolved job config carries the numbers themselves.

use serde::{Deserialize, Serialize};
use std::path::Path;

/// The Othello arena's classic positional table (rows 4-7 mirror rows 3-0).
pub const CLASSIC_HALF: [[f64; 8]; 4] = [
    [120., -20., 20., 5., 5., 20., -20., 120.],
    [-20., -40., -5., -5., -5., -5., -40., -20.],
    [20., -5., 15., 3., 3., 15., -5., 20.],
    [5., -5., 3., 3., 3., 3., -5., 5.],
];

/// The Othello report's hand-crafted table from its first project (rows 4-7 mirror rows 3-0).
/// The report's conversion prints the end of row 0 as "1007"; the table is symmetric and the
/// other three corners are 100, so we read it as 100.
pub const HANDCRAFTED_HALF: [[f64; 8]; 4] = [
    [100., 10., 80., 40., 40., 80., 10., 100.],
    [10., 8., 20., 20., 20., 20., 8., 10.],
    [80., 20., 40., 40., 40., 40., 20., 80.],
    [40., 20., 40., 40., 40., 40., 20., 40.],
];

pub const BUILTIN_TABLES: [&str; 2] = ["classic", "handcrafted"];

fn mirrored(half: &[[f64; 8]; 4]) -> Vec<Vec<f64>> {
    let mut rows: Vec<Vec<f64>> = half.iter().map(|r| r.to_vec()).collect();
    for r in (0..4).rev() {
        rows.push(half[r].to_vec());
    }
    rows
}

/// A square table of values, one per cell, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightTable {
    pub size: usize,
    pub values: Vec<f64>,
}

impl WeightTable {
    #[inline]
    pub fn get(&self, r: usize, c: usize) -> f64 {
        self.values[r * self.size + c]
    }
}

/// A table as written in an experiment file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TableRef {
    Rows(Vec<Vec<f64>>),
    /// A built-in name (`classic`, `handcrafted`) or a path to a table file.
    Name(String),
}

/// Parses a table file's text: one row per line.
pub fn parse_table_text(text: &str) -> Result<Vec<Vec<f64>>, String> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let row = line
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<f64>()
                    .map_err(|_| format!("line {}: '{t}' is not a number", i + 1))
            })
            .collect::<Result<Vec<_>, _>>()?;
        rows.push(row);
    }
    Ok(rows)
}

impl TableRef {
    /// Replaces a name or path by the rows it stands for.
    pub fn resolve(&mut self, base_dir: &Path) -> Result<(), String> {
        if let TableRef::Name(name) = self {
            let rows = match name.as_str() {
                "classic" => mirrored(&CLASSIC_HALF),
                "handcrafted" => mirrored(&HANDCRAFTED_HALF),
                path => {
                    let full = base_dir.join(path);
                    let text = crate::durable::read_input(&full).map_err(|e| format!("table '{path}' is neither a built-in table ({}) nor a readable file: {e}", BUILTIN_TABLES.join(", ")))?;
                    // A table gamelab wrote (a GA's best) carries a seal: an edited one is
                    // refused, so it never plays under the evolved table's name. A table of the
                    // user's own has none; its values are in the job either way.
                    let body = crate::durable::unsealed(&full, &text, "table file")?;
                    parse_table_text(body)
                        .map_err(|e| format!("table file {}: {e}", full.display()))?
                }
            };
            *self = TableRef::Rows(rows);
        }
        Ok(())
    }

    /// The table for a board of side `size`, checking its shape. The reference must be resolved.
    pub fn table_for(&self, size: usize) -> Result<WeightTable, String> {
        let mut me = self.clone();
        me.resolve(Path::new("."))?;
        let TableRef::Rows(rows) = me else {
            unreachable!("resolved above")
        };
        if rows.len() != size || rows.iter().any(|r| r.len() != size) {
            let shape = format!(
                "{} rows of lengths {:?}",
                rows.len(),
                rows.iter().map(|r| r.len()).collect::<Vec<_>>()
            );
            return Err(format!(
                "the table has {shape}, but the board is {size}x{size}"
            ));
        }
        if rows.iter().flatten().any(|v| !v.is_finite()) {
            return Err("the table holds a value that is not a finite number".into());
        }
        Ok(WeightTable {
            size,
            values: rows.concat(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_tables_are_symmetric_8x8() {
        for name in BUILTIN_TABLES {
            let t = TableRef::Name(name.into()).table_for(8).unwrap();
            for r in 0..8 {
                for c in 0..8 {
                    assert_eq!(t.get(r, c), t.get(7 - r, c), "{name} ({r},{c})");
                    assert_eq!(t.get(r, c), t.get(r, 7 - c), "{name} ({r},{c})");
                }
            }
        }
        let classic = TableRef::Name("classic".into()).table_for(8).unwrap();
        assert_eq!(classic.get(0, 0), 120.0);
        assert_eq!(classic.get(1, 1), -40.0);
        assert_eq!(classic.get(4, 3), 3.0);
    }

    #[test]
    fn wrong_shape_is_refused() {
        let e = TableRef::Name("classic".into()).table_for(6).unwrap_err();
        assert!(e.contains("6x6"), "{e}");
    }

    #[test]
    fn table_text_parses_rows_and_reports_bad_numbers() {
        assert_eq!(
            parse_table_text("1 2\n# c\n3,4\n").unwrap(),
            vec![vec![1., 2.], vec![3., 4.]]
        );
        assert!(parse_table_text("1 x").unwrap_err().contains("line 1"));
    }
}
