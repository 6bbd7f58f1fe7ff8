//! Game rows seen from each agent: every game becomes two records, one per seat, with the
//! columns tables group by (agent, opponent, seat, stage, grid keys) and the numbers they
//! measure (result, own and opponent score, plies, time, search effort).

use anyhow::{Context, Result};
use polars::prelude::{DataFrame, DataType};
use std::collections::BTreeMap;
use crate::experiment::record::SWEPT_AS_ROW_COLUMN;
use crate::play::seat_result;

/// Columns of the records, by name: text columns group, numeric columns are measured (and can
/// group too, shown as numbers).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Records {
    pub len: usize,
    pub text: BTreeMap<String, TextColumn>,
    pub num: BTreeMap<String, Vec<f64>>,
}

/// A text column stored once per distinct value: each record holds the index of its value
/// (agents, seats, stages and jobs repeat over millions of records).
#[derive(Clone, Debug, Default)]
pub struct TextColumn {
    codes: Vec<u32>,
    values: Vec<String>,
    index: std::collections::HashMap<String, u32>,
}

impl PartialEq for TextColumn {
    fn eq(&self, other: &TextColumn) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl TextColumn {
    pub fn push(&mut self, value: &str) {
        let code = match self.index.get(value) {
            Some(&c) => c,
            None => {
                let c = self.values.len() as u32;
                self.values.push(value.to_string());
                self.index.insert(value.to_string(), c);
                c
            }
        };
        self.codes.push(code);
    }

    pub fn len(&self) -> usize {
        self.codes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.codes.iter().map(|&c| self.values[c as usize].as_str())
    }

    /// Replaces every value `from` by `to`.
    pub fn replace(&mut self, from: &str, to: &str) {
        let Some(&old) = self.index.get(from) else { return };
        let new = match self.index.get(to) {
            Some(&c) => c,
            None => {
                self.values[old as usize] = to.to_string();
                self.index.remove(from);
                self.index.insert(to.to_string(), old);
                return;
            }
        };
        self.codes.iter_mut().filter(|c| **c == old).for_each(|c| *c = new);
    }
}

impl<'a> FromIterator<&'a str> for TextColumn {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> TextColumn {
        let mut c = TextColumn::default();
        for v in iter {
            c.push(v);
        }
        c
    }
}

impl std::ops::Index<usize> for TextColumn {
    type Output = str;
    fn index(&self, i: usize) -> &str {
        &self.values[self.codes[i] as usize]
    }
}

/// Numeric columns every game record has.
pub const MEASURES: [&str; 15] = [
    "result",
    "score",
    "opponent_score",
    "plies",
    "wall_ms",
    "simulations",
    "nodes",
    "max_move_ms",
    "peak_tree_mb",
    "repeat",
    "moves",
    "simulations_per_move",
    "nodes_per_move",
    "depth",
    "cache_hit_rate",
];

/// Group keys of GA generation rows besides the grid keys.
pub const GA_KEYS: [&str; 5] = ["generation", "individual", "repeat", "best", "final"];

/// Numeric columns of GA generation rows.
pub const GA_MEASURES: [&str; 4] = ["fitness", "points", "games", "generation"];

/// Group keys of solve rows (life-and-death) besides the grid keys.
pub const SOLVE_KEYS: [&str; 9] = ["weights", "problem", "set", "level", "band", "status", "expected", "repeat", "job"];

/// Numeric columns of solve rows.
pub const SOLVE_MEASURES: [&str; 9] = ["leaves", "nodes", "tt_hits", "max_depth", "time_s", "us_per_leaf", "correct", "budget_hit", "level"];

/// Group keys of `tsumego_ga` generation rows besides the grid keys.
pub const TSUMEGO_GA_KEYS: [&str; 5] = ["generation", "individual", "repeat", "best", "final"];

/// Numeric columns of `tsumego_ga` generation rows.
pub const TSUMEGO_GA_MEASURES: [&str; 4] = ["fitness", "scaled_fitness", "train_leaves", "generation"];

/// Group keys of tune-job rows besides the grid keys (`weight` exists in the long form a
/// pattern metric such as `w_*` makes).
pub const TUNE_KEYS: [&str; 8] = ["tuner", "phase", "game", "generation", "individual", "repeat", "tuned_first", "weight"];

/// Numeric columns of tune-job rows; `w_*` (the weights) and `a_*` (the advantage shares) are
/// patterns: a mean table of one is computed over one record per row and weight, with the
/// weight's name in the key column `weight`.
pub const TUNE_MEASURES: [&str; 6] = ["result", "plies", "game", "generation", "w_*", "a_*"];

/// A number as a group key: integers without a decimal point.
pub fn key_text(x: f64) -> String {
    if x.is_nan() {
        "".into()
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

impl Records {
    /// The value of `column` in record `i` as a group key.
    pub fn key(&self, column: &str, i: usize) -> Option<String> {
        if let Some(t) = self.text.get(column) {
            Some(t[i].to_string())
        } else {
            self.num.get(column).map(|v| key_text(v[i]))
        }
    }

    fn push_text(&mut self, column: &str, value: &str) {
        match self.text.get_mut(column) {
            Some(c) => c.push(value),
            None => self.text.entry(column.to_string()).or_default().push(value),
        }
    }

    fn push_num(&mut self, column: &str, value: f64) {
        match self.num.get_mut(column) {
            Some(c) => c.push(value),
            None => self.num.entry(column.to_string()).or_default().push(value),
        }
    }

    /// Adds a text column per key of `meta` (agent label -> key -> value) giving each record's
    /// agent's value, "-" for agents without one.
    pub fn add_agent_columns(&mut self, meta: &BTreeMap<String, BTreeMap<String, String>>, keys: &[String]) {
        for key in keys {
            let column: TextColumn = self.text["agent"].iter().map(|a| meta.get(a).and_then(|m| m.get(key)).map_or("-", String::as_str)).collect();
            self.text.insert(key.clone(), column);
        }
    }

    /// Appends one record per row of `df` (a GA job's generation rows, a tune job's rows),
    /// every column as it is: numeric and boolean columns as numbers, the others as text.
    pub fn add_rows(&mut self, df: &DataFrame) -> Result<()> {
        for col in df.columns() {
            let name = col.name().to_string();
            if col.dtype().is_primitive_numeric() || col.dtype() == &DataType::Boolean {
                let c = col.cast(&DataType::Float64)?;
                self.num.entry(name).or_default().extend(c.f64()?.iter().map(|v| v.unwrap_or(f64::NAN)));
            } else {
                let c = col.cast(&DataType::String)?;
                let column = self.text.entry(name).or_default();
                for v in c.str()?.iter() {
                    column.push(v.unwrap_or(""));
                }
            }
        }
        self.len += df.height();
        Ok(())
    }

    /// The long form of the numeric columns whose names start with `pattern` less its final
    /// `*`: one record per record and matching column, with every other column copied, the
    /// column's name less the prefix in text column `weight`, and its value in column `pattern`.
    pub fn melt(&self, pattern: &str) -> Records {
        let prefix = pattern.trim_end_matches('*');
        let mut out = Records::default();
        let columns: Vec<(&String, &Vec<f64>)> = self.num.iter().filter(|(k, _)| k.starts_with(prefix)).collect();
        for (name, values) in columns {
            for i in 0..self.len {
                for (k, v) in &self.text {
                    out.push_text(k, &v[i]);
                }
                for (k, v) in &self.num {
                    out.push_num(k, v[i]);
                }
                out.push_text("weight", &name[prefix.len()..]);
                out.push_num(pattern, values[i]);
                out.len += 1;
            }
        }
        out
    }

    /// Appends the two records of every game row in `df`; `swept` names the grid columns.
    pub fn add_games(&mut self, df: &DataFrame, swept: &[String]) -> Result<()> {
        let text = |name: &str| -> Result<Vec<String>> {
            let c = df.column(name).with_context(|| format!("the rows have no column '{name}'"))?.cast(&DataType::String)?;
            Ok(c.str()?.iter().map(|v| v.unwrap_or("").to_string()).collect())
        };
        let num = |name: &str| -> Result<Vec<f64>> {
            let c = df.column(name).with_context(|| format!("the rows have no column '{name}'"))?.cast(&DataType::Float64)?;
            Ok(c.f64()?.iter().map(|v| v.unwrap_or(f64::NAN)).collect())
        };
        let (first, second, winner, stage, job) = (text("first_agent")?, text("second_agent")?, text("winner")?, text("stage")?, text("job")?);
        // A game's identity for repeated-game counts: its start (the random setup when the row
        // has one, else the stage) and its moves, hashed to 52 bits (exact as f64).
        let start = if df.column("start_position").is_ok() { text("start_position")? } else { vec![String::new(); df.height()] };
        let transcript = text("transcript")?;
        let game_key: Vec<f64> = (0..df.height())
            .map(|i| {
                let s = if start[i].is_empty() { &stage[i] } else { &start[i] };
                let mut h = xxhash_rust::xxh3::Xxh3::new();
                h.update(s.as_bytes());
                h.update(&[0x1f]);
                h.update(transcript[i].as_bytes());
                (h.digest() >> 12) as f64
            })
            .collect();
        // Rows written before external agents ended every game normally.
        let termination = if df.column("termination").is_ok() { text("termination")? } else { vec!["normal".to_string(); df.height()] };
        let nums: BTreeMap<&str, Vec<f64>> = ["first_score", "second_score", "plies", "wall_ms", "first_simulations", "second_simulations", "first_nodes", "second_nodes", "first_max_move_ms", "second_max_move_ms", "first_peak_tree_bytes", "second_peak_tree_bytes", "repeat", "game", "pair"]
            .into_iter()
            .map(|c| num(c).map(|v| (c, v)))
            .collect::<Result<_>>()?;
        // Columns added later than the others: rows written before them read as NaN.
        let optional = |name: &str| if df.column(name).is_ok() { num(name) } else { Ok(vec![f64::NAN; df.height()]) };
        let later: BTreeMap<&str, Vec<f64>> = ["first_moves", "second_moves", "first_depth", "second_depth", "first_cache_hit_rate", "second_cache_hit_rate"]
            .into_iter()
            .map(|c| optional(c).map(|v| (c, v)))
            .collect::<Result<_>>()?;
        let mut grid: Vec<(String, bool, Vec<String>, Vec<f64>)> = Vec::new();
        // A swept `stage` is the rows' own stage column (see record.rs), pushed once below.
        for key in swept.iter().filter(|k| !SWEPT_AS_ROW_COLUMN.contains(&k.as_str())) {
            let col = df.column(key).with_context(|| format!("the rows have no column for grid key '{key}'"))?;
            if col.dtype().is_primitive_numeric() {
                grid.push((key.clone(), true, Vec::new(), num(key)?));
            } else {
                grid.push((key.clone(), false, text(key)?, Vec::new()));
            }
        }
        for i in 0..df.height() {
            for seat in ["first", "second"] {
                let me_first = seat == "first";
                let (me, them) = if me_first { (&first[i], &second[i]) } else { (&second[i], &first[i]) };
                let own = |a: &str, b: &str| nums[if me_first { a } else { b }][i];
                let result = seat_result(&winner[i], me_first);
                self.push_text("agent", me);
                self.push_text("opponent", them);
                self.push_text("seat", seat);
                self.push_text("stage", &stage[i]);
                self.push_text("job", &job[i]);
                self.push_text("termination", &termination[i]);
                // The seat at fault lost the game by it.
                let at_fault = termination[i] != "normal" && result == 0.0;
                self.push_text("fault", if at_fault { &termination[i] } else { "-" });
                self.push_num("result", result);
                self.push_num("score", own("first_score", "second_score"));
                self.push_num("opponent_score", own("second_score", "first_score"));
                self.push_num("plies", nums["plies"][i]);
                self.push_num("wall_ms", nums["wall_ms"][i]);
                self.push_num("simulations", own("first_simulations", "second_simulations"));
                self.push_num("nodes", own("first_nodes", "second_nodes"));
                self.push_num("max_move_ms", own("first_max_move_ms", "second_max_move_ms"));
                self.push_num("peak_tree_mb", own("first_peak_tree_bytes", "second_peak_tree_bytes") / 1e6);
                let later_own = |a: &str, b: &str| later[if me_first { a } else { b }][i];
                let moves = later_own("first_moves", "second_moves");
                self.push_num("moves", moves);
                self.push_num("simulations_per_move", own("first_simulations", "second_simulations") / moves);
                self.push_num("nodes_per_move", own("first_nodes", "second_nodes") / moves);
                self.push_num("depth", later_own("first_depth", "second_depth"));
                self.push_num("cache_hit_rate", later_own("first_cache_hit_rate", "second_cache_hit_rate"));
                self.push_num("repeat", nums["repeat"][i]);
                self.push_num("game", nums["game"][i]);
                self.push_num("game_key", game_key[i]);
                self.push_num("pair", nums["pair"][i]);
                for (key, numeric, t, n) in &grid {
                    if *numeric {
                        self.push_num(key, n[i]);
                    } else {
                        self.push_text(key, &t[i]);
                    }
                }
                self.len += 1;
            }
        }
        Ok(())
    }
}
