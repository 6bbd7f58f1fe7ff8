//! Rows seen as records, as lazy polars plans over the sealed parts: a game row is two records
//! (one per seat) with the columns tables group by (agent, opponent, seat, stage, job, grid
//! keys) and the numbers they measure (result, own and opponent score, plies, time, search
//! effort); a GA generation, tune or solve row is one record as it is.
//!
//! A score table over a game's seats and game-level columns counts the games instead
//! (`Records::counted_seats`): one group-by over the games, then a few seat rows.
//!
//! Nothing is read when records are made. Each table runs its own queries (`table.rs`), one per
//! part (`parts`: a job's records; `games`: a job's games, one row each): the scan reads only the
//! columns a query names, filters, groups and aggregates in polars' streaming engine, and hands
//! back one row per group (or per unit), merged over the parts in part order. The report's
//! memory follows the number of groups and the size of one job, not the number of rows (issue
//! 19: 10,000,000 game rows in 6 s and 350 MB with Elo from pairs, 2 s and 190 MB for a score
//! table; `cargo bench --bench report`).

use crate::experiment::rows::SWEPT_AS_ROW_COLUMN;
use crate::experiment::rows::in_context;
/// A part's scan and a query's run: the rows' own (`experiment::rows`), read here and by the
/// game records.
pub use crate::experiment::rows::{collect, scan_part};
use anyhow::{Context as _, Result};
use polars::prelude::*;
use std::collections::BTreeMap;
use std::hash::BuildHasherDefault;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// A part file and its lazy scan.
pub type Scan = (PathBuf, LazyFrame);

/// Records: a lazy frame and its columns.
#[derive(Clone)]
pub struct Records {
    pub frame: LazyFrame,
    pub schema: SchemaRef,
    /// Game records: the games themselves, one row each (with `game_key`, the hash of start and
    /// moves), for what is counted per game rather than per seat; one frame per part.
    pub games: Vec<LazyFrame>,
    /// Game records: the grid columns (the same for both seats of a game).
    pub grid: Vec<String>,
    /// Game records: the records of each part (job), whose union `frame` is.
    pub parts: Vec<LazyFrame>,
    /// Game records: the game keys more than one of `games` has, found once (by the first
    /// table that asks) for every table of the report.
    pub repeated: Arc<OnceLock<Option<Arc<RepeatedKeys>>>>,
    /// Game records as `games` made them (no column added, no filter, no join since): what
    /// `counted_seats` needs to count them from the games alone.
    pub plain_games: bool,
}

/// A set of game keys (`rows::game_key`), hashed by `KeyHasher`.
pub type RepeatedKeys = std::collections::HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// The hasher of `RepeatedKeys`: a game key is already a hash (52 bits of xxh3,
/// `rows::game_key`), so one multiplication spreads it over the 64 bits a hash table reads
/// (its top bits as well: the key's are zero).
#[derive(Default)]
pub struct KeyHasher(u64);

impl KeyHasher {
    /// A key's bits spread over all 64 (Fibonacci hashing).
    fn mix(key: u64) -> u64 {
        key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = Self::mix(self.0 ^ u64::from(*b));
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = Self::mix(key);
    }
}

impl std::fmt::Debug for Records {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Records({:?})",
            self.schema.iter_names().collect::<Vec<_>>()
        )
    }
}

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

/// The values of a collected column as group-key texts: numbers by `key_text`, booleans as 1
/// and 0, text as it is, missing values as "".
pub fn key_texts(df: &DataFrame, name: &str) -> Result<Vec<String>> {
    let c = df.column(name)?;
    if c.dtype().is_primitive_numeric() || c.dtype() == &DataType::Boolean {
        Ok(c.cast(&DataType::Float64)?
            .f64()?
            .iter()
            .map(|v| key_text(v.unwrap_or(f64::NAN)))
            .collect())
    } else {
        Ok(c.cast(&DataType::String)?
            .str()?
            .iter()
            .map(|v| v.unwrap_or("").to_string())
            .collect())
    }
}

/// The values of a collected numeric column (missing values as NaN).
pub fn numbers(df: &DataFrame, name: &str) -> Result<Vec<f64>> {
    Ok(df
        .column(name)?
        .cast(&DataType::Float64)?
        .f64()?
        .iter()
        .map(|v| v.unwrap_or(f64::NAN))
        .collect())
}

/// The numeric columns of game rows every part has, as Float64.
const GAME_NUMBERS: [&str; 15] = [
    "first_score",
    "second_score",
    "plies",
    "wall_ms",
    "first_simulations",
    "second_simulations",
    "first_nodes",
    "second_nodes",
    "first_max_move_ms",
    "second_max_move_ms",
    "first_peak_tree_bytes",
    "second_peak_tree_bytes",
    "repeat",
    "game",
    "pair",
];

/// Numeric columns added later than the others: rows written before them read as missing.
const LATER_NUMBERS: [&str; 6] = [
    "first_moves",
    "second_moves",
    "first_depth",
    "second_depth",
    "first_cache_hit_rate",
    "second_cache_hit_rate",
];

/// `rows::game_key` of every row of a part written before rows carried it.
fn game_keys(columns: &mut [Column]) -> PolarsResult<Column> {
    let (start, stage, transcript) = (columns[0].str()?, columns[1].str()?, columns[2].str()?);
    let keys: UInt64Chunked = start
        .iter()
        .zip(stage.iter())
        .zip(transcript.iter())
        .map(|((start, stage), moves)| {
            Some(
                crate::experiment::rows::game_key(start, stage.unwrap_or(""), moves.unwrap_or(""))
                    as u64,
            )
        })
        .collect();
    Ok(keys.with_name("game_key".into()).into_column())
}

/// The result of seat `me` ("first" or "second") from the game's `winner`: 1, 0.5 or 0.
fn seat_result(me: &str) -> Expr {
    when(col("winner").eq(lit("draw")))
        .then(lit(0.5))
        .when(col("winner").eq(lit(me)))
        .then(lit(1.0))
        .otherwise(lit(0.0))
}

/// A seat's `fault`: the game's termination where the seat lost the game by it (the seat at
/// fault), else "-".
fn seat_fault(result: &Expr) -> Expr {
    when(
        col("termination")
            .neq(lit("normal"))
            .and(result.clone().eq(lit(0.0))),
    )
    .then(col("termination"))
    .otherwise(lit("-"))
    .alias("fault")
}

impl Records {
    pub fn new(mut frame: LazyFrame) -> Result<Records> {
        let schema = frame.collect_schema()?;
        Ok(Records {
            frame,
            schema,
            games: Vec::new(),
            grid: Vec::new(),
            parts: Vec::new(),
            repeated: Arc::default(),
            plain_games: false,
        })
    }

    /// No records at all.
    pub fn empty() -> Records {
        Records::new(DataFrame::empty().lazy()).expect("an empty frame has a schema")
    }

    pub fn has(&self, column: &str) -> bool {
        self.schema.contains(column)
    }

    /// Numeric columns (booleans count as numbers, 1 and 0).
    pub fn is_numeric(&self, column: &str) -> bool {
        self.schema
            .get(column)
            .is_some_and(|t| t.is_primitive_numeric() || t == &DataType::Boolean)
    }

    /// The rows of GA, tune and solve jobs, one record each: numeric and boolean columns as
    /// Float64, the others as text.
    pub fn rows(parts: Vec<Scan>) -> Result<Records> {
        let mut frames = Vec::new();
        for (path, mut part) in parts {
            let schema = in_context(part.collect_schema(), || {
                format!("reading {}", path.display())
            })?;
            let exprs: Vec<Expr> = schema
                .iter()
                .map(|(name, dtype)| {
                    let to = if dtype.is_primitive_numeric() || dtype == &DataType::Boolean {
                        DataType::Float64
                    } else {
                        DataType::String
                    };
                    col(name.clone()).cast(to)
                })
                .collect();
            frames.push(part.select(exprs));
        }
        Records::concat(frames)
    }

    fn concat(frames: Vec<LazyFrame>) -> Result<Records> {
        match frames.len() {
            0 => Ok(Records::empty()),
            _ => Records::new(concat(
                frames,
                UnionArgs {
                    to_supertypes: true,
                    ..Default::default()
                },
            )?),
        }
    }

    /// The two records of every game row of `parts` (one lazy frame per job's part, in job
    /// order); `swept` names the grid columns.
    pub fn games(parts: Vec<Scan>, swept: &[String]) -> Result<Records> {
        let grid: Vec<&String> = swept
            .iter()
            .filter(|k| !SWEPT_AS_ROW_COLUMN.contains(&k.as_str()))
            .collect();
        let mut frames = Vec::new();
        for (index, (path, mut part)) in parts.into_iter().enumerate() {
            let schema = in_context(part.collect_schema(), || {
                format!("reading {}", path.display())
            })?;
            let need = |name: &str| -> Result<()> {
                if schema.contains(name) {
                    Ok(())
                } else {
                    anyhow::bail!(
                        "reading {}: the rows have no column '{name}'",
                        path.display()
                    )
                }
            };
            let text = |name: &str| col(name).cast(DataType::String);
            let mut exprs = Vec::new();
            for name in [
                "job",
                "stage",
                "first_agent",
                "second_agent",
                "winner",
                "transcript",
            ] {
                need(name)?;
                exprs.push(text(name));
            }
            // Rows written before external agents ended every game normally, and before
            // Colosseum rows kept their random start.
            exprs.push(if schema.contains("termination") {
                text("termination")
            } else {
                lit("normal").alias("termination")
            });
            exprs.push(if schema.contains("start_position") {
                text("start_position")
            } else {
                lit(NULL).cast(DataType::String).alias("start_position")
            });
            for name in GAME_NUMBERS {
                need(name)?;
                exprs.push(col(name).cast(DataType::Float64));
            }
            for name in LATER_NUMBERS {
                exprs.push(if schema.contains(name) {
                    col(name).cast(DataType::Float64)
                } else {
                    lit(NULL).cast(DataType::Float64).alias(name)
                });
            }
            for key in &grid {
                let dtype = schema.get(key.as_str()).with_context(|| {
                    format!(
                        "reading {}: the rows have no column for grid key '{key}'",
                        path.display()
                    )
                })?;
                exprs.push(col(key.as_str()).cast(if dtype.is_primitive_numeric() {
                    DataType::Float64
                } else {
                    DataType::String
                }));
            }
            // Rows carry their game's key since it was added; older rows have it computed.
            exprs.push(if schema.contains("game_key") {
                col("game_key").cast(DataType::UInt64)
            } else {
                let start = if schema.contains("start_position") {
                    col("start_position").cast(DataType::String)
                } else {
                    lit(NULL).cast(DataType::String)
                };
                start
                    .map_many(
                        game_keys,
                        &[
                            col("stage").cast(DataType::String),
                            col("transcript").cast(DataType::String),
                        ],
                        |_, _| Ok(Field::new("game_key".into(), DataType::UInt64)),
                    )
                    .alias("game_key")
            });
            // A game is counted once per group by its (part, index).
            exprs.push(
                (lit(index as u64) * lit(1u64 << 32) + col("game").cast(DataType::UInt64))
                    .alias("game_id"),
            );
            frames.push(part.select(exprs));
        }
        if frames.is_empty() {
            return Ok(Records::empty());
        }
        let seat = |me: &str, them: &str| -> Vec<Expr> {
            let own = |name: &str| col(format!("{me}_{name}"));
            let result = seat_result(me);
            let mut exprs = vec![
                own("agent").alias("agent"),
                col(format!("{them}_agent")).alias("opponent"),
                lit(me).alias("seat"),
                col("stage"),
                col("job"),
                col("termination"),
                seat_fault(&result),
                result.alias("result"),
                own("score").alias("score"),
                col(format!("{them}_score")).alias("opponent_score"),
                col("plies"),
                col("wall_ms"),
                own("simulations").alias("simulations"),
                own("nodes").alias("nodes"),
                own("max_move_ms").alias("max_move_ms"),
                (own("peak_tree_bytes") / lit(1e6)).alias("peak_tree_mb"),
                own("moves").alias("moves"),
                (own("simulations") / own("moves")).alias("simulations_per_move"),
                (own("nodes") / own("moves")).alias("nodes_per_move"),
                own("depth").alias("depth"),
                own("cache_hit_rate").alias("cache_hit_rate"),
                col("repeat"),
                col("game"),
                col("game_key"),
                col("game_id"),
                col("pair"),
            ];
            exprs.extend(grid.iter().map(|k| col(k.as_str())));
            exprs
        };
        let (mut games, mut parts) = (Vec::new(), Vec::new());
        for frame in frames {
            let game = frame;
            parts.push(concat(
                [
                    game.clone().select(seat("first", "second")),
                    game.clone().select(seat("second", "first")),
                ],
                UnionArgs::default(),
            )?);
            games.push(game);
        }
        let union = |frames: Vec<LazyFrame>| {
            concat(
                frames,
                UnionArgs {
                    to_supertypes: true,
                    ..Default::default()
                },
            )
        };
        let grid = grid.iter().map(|k| k.to_string()).collect();
        Ok(Records {
            games,
            grid,
            plain_games: true,
            ..Records::new(union(parts.clone())?)?.with_parts(parts)
        })
    }

    /// Seat columns `counted_seats` derives from a game's agents, winner and termination.
    pub const COUNTED_SEAT_COLUMNS: [&'static str; 5] =
        ["agent", "opponent", "seat", "result", "fault"];

    /// The seat records of each part's games counted, not listed: the games grouped by their
    /// agents, winner, termination and the game-level columns `keep` (each a column of the
    /// games), then each group as two seat records (`agent`, `opponent`, `seat`, `result`,
    /// `fault`, `termination`, `keep`) with `__games`, the games it stands for. A score table
    /// over these groups sums `__games` where the records would be counted: one pass over the
    /// games' few columns, a handful of rows after it, where the records are two per game.
    /// With `only` (a frame of distinct `game_key`s), only the games with those keys.
    /// `None` unless these are plain game records (`plain_games`) or `keep` names a column the
    /// games do not have; `keep` must not hold a seat column.
    pub fn counted_seats(
        &self,
        keep: &[String],
        only: Option<&DataFrame>,
    ) -> Option<Vec<LazyFrame>> {
        if !self.plain_games || self.games.is_empty() {
            return None;
        }
        let mut by: Vec<Expr> = ["first_agent", "second_agent", "winner", "termination"]
            .into_iter()
            .map(col)
            .collect();
        // The game-level columns besides termination (a key of every group).
        let keep: Vec<&String> = keep.iter().filter(|k| *k != "termination").collect();
        for k in &keep {
            if Self::COUNTED_SEAT_COLUMNS.contains(&k.as_str()) || !self.has(k) {
                return None;
            }
            by.push(col(k.as_str()));
        }
        let seat = |me: &str, them: &str| -> Vec<Expr> {
            let result = seat_result(me);
            let mut exprs = vec![
                col(format!("{me}_agent")).alias("agent"),
                col(format!("{them}_agent")).alias("opponent"),
                lit(me).alias("seat"),
                col("termination"),
                seat_fault(&result),
                result.alias("result"),
                col("__games"),
            ];
            exprs.extend(keep.iter().map(|k| col(k.as_str())));
            exprs
        };
        let counted = |games: &LazyFrame| -> Option<LazyFrame> {
            // A join, not a filter: polars 0.55 streams a join with a small frame in bounded
            // memory, where a filter by a Rust closure held about 100 MB more for 4M games.
            let games = match only {
                Some(keys) => games.clone().join(
                    keys.clone().lazy(),
                    [col("game_key")],
                    [col("game_key")],
                    JoinArgs::new(JoinType::Inner),
                ),
                None => games.clone(),
            };
            let groups = games
                .group_by(by.clone())
                .agg([len().cast(DataType::Float64).alias("__games")]);
            concat(
                [
                    groups.clone().select(seat("first", "second")),
                    groups.select(seat("second", "first")),
                ],
                UnionArgs::default(),
            )
            .ok()
        };
        self.games.iter().map(counted).collect()
    }

    /// The same records with columns added (to the whole and to each part).
    pub fn with_columns(&self, exprs: &[Expr]) -> Result<Records> {
        let add = |frame: &LazyFrame| frame.clone().with_columns(exprs);
        Ok(Records {
            games: self.games.clone(),
            grid: self.grid.clone(),
            repeated: self.repeated.clone(),
            ..Records::new(add(&self.frame))?.with_parts(self.parts.iter().map(add).collect())
        })
    }

    /// The same records, with the frames of each part (whose union they are) kept for the
    /// queries that group within a part (colour-swapped pairs never span two jobs).
    fn with_parts(self, parts: Vec<LazyFrame>) -> Records {
        Records { parts, ..self }
    }

    /// Adds a text column per key of `meta` (agent label -> key -> value) giving each record's
    /// agent's value, `missing` for agents without one: a join of the records with the jobs'
    /// settings.
    pub fn with_agent_columns(
        self,
        meta: &BTreeMap<String, BTreeMap<String, String>>,
        keys: &[String],
        missing: &[(&str, &str)],
    ) -> Result<Records> {
        let mut columns = vec![Column::new(
            "agent".into(),
            meta.keys().cloned().collect::<Vec<String>>(),
        )];
        for key in keys {
            columns.push(Column::new(
                key.as_str().into(),
                meta.values()
                    .map(|m| m.get(key).cloned())
                    .collect::<Vec<Option<String>>>(),
            ));
        }
        let settings = DataFrame::new_infer_height(columns)?;
        let filled: Vec<Expr> = keys
            .iter()
            .map(|k| {
                col(k.as_str()).fill_null(lit(missing
                    .iter()
                    .find(|(m, _)| m == k)
                    .map_or("-", |(_, v)| *v)))
            })
            .collect();
        let join = |frame: LazyFrame| {
            frame
                .join(
                    settings.clone().lazy(),
                    [col("agent")],
                    [col("agent")],
                    JoinArgs::new(JoinType::Left),
                )
                .with_columns(filled.clone())
        };
        let parts = self.parts.iter().cloned().map(join).collect();
        Ok(Records {
            games: self.games.clone(),
            grid: self.grid.clone(),
            repeated: self.repeated.clone(),
            ..Records::new(join(self.frame))?.with_parts(parts)
        })
    }

    /// The long form of the numeric columns whose names start with `pattern` less its final
    /// `*`: one record per record and matching column, with every other column kept, the
    /// column's name less the prefix in text column `weight`, and its value in column `pattern`.
    pub fn melt(&self, pattern: &str) -> Result<Records> {
        let prefix = pattern.trim_end_matches('*');
        let frames: Vec<LazyFrame> = self
            .schema
            .iter_names()
            .filter(|name| name.starts_with(prefix) && self.is_numeric(name))
            .map(|name| {
                self.frame.clone().with_columns([
                    lit(&name[prefix.len()..]).alias("weight"),
                    col(name.clone()).cast(DataType::Float64).alias(pattern),
                ])
            })
            .collect();
        Records::concat(frames)
    }

    /// The expression keeping the records whose columns have the given group-key texts; pairs
    /// of one column are alternatives (any of the values), pairs of different columns all hold.
    pub fn matches(&self, filter: &[(String, String)]) -> Expr {
        let mut columns: Vec<&String> = filter.iter().map(|(c, _)| c).collect();
        columns.sort();
        columns.dedup();
        columns.into_iter().fold(lit(true), |all, column| {
            let any = filter
                .iter()
                .filter(|(c, _)| c == column)
                .fold(lit(false), |any, (_, value)| {
                    any.or(self.matches_one(column, value))
                });
            all.and(any)
        })
    }

    /// The expression keeping the records whose `column` has the group-key text `value`.
    fn matches_one(&self, column: &str, value: &str) -> Expr {
        if !self.has(column) {
            lit(value.is_empty())
        } else if self.is_numeric(column) {
            match value.parse::<f64>() {
                Ok(x) => col(column)
                    .cast(DataType::Float64)
                    .eq(lit(x))
                    .fill_null(lit(false)),
                Err(_) if value.is_empty() => col(column).is_null().or(col(column)
                    .cast(DataType::Float64)
                    .is_nan()
                    .fill_null(lit(true))),
                Err(_) => lit(false),
            }
        } else {
            col(column)
                .cast(DataType::String)
                .fill_null(lit(""))
                .eq(lit(value))
        }
    }

    /// The records for which `keep` holds.
    pub fn filtered(&self, keep: Expr) -> Result<Records> {
        let only = |frame: &LazyFrame| frame.clone().filter(keep.clone());
        Ok(Records {
            games: self.games.clone(),
            grid: self.grid.clone(),
            repeated: self.repeated.clone(),
            ..Records::new(only(&self.frame))?.with_parts(self.parts.iter().map(only).collect())
        })
    }

    /// The records `filter` keeps, one per game and group: for a game-level metric (`plies`,
    /// `wall_ms`), whose two seat records carry the same value, so that a game whose seats fall
    /// in one group counts once there (games never span two parts). Filter first: the record a
    /// filter keeps may be either seat's.
    pub fn one_per_game(
        &self,
        filter: &[(String, String)],
        group_by: &[String],
    ) -> Result<Records> {
        let mut subset: Vec<Expr> = group_by.iter().map(|k| self.key(k)).collect();
        subset.push(col("game_id"));
        let dedupe = |part: &LazyFrame| {
            part.clone()
                .filter(self.matches(filter))
                .unique_stable_generic(Some(subset.clone()), UniqueKeepStrategy::First)
        };
        let parts: Vec<LazyFrame> = if self.parts.is_empty() {
            vec![dedupe(&self.frame)]
        } else {
            self.parts.iter().map(dedupe).collect()
        };
        Ok(Records {
            games: self.games.clone(),
            grid: self.grid.clone(),
            repeated: self.repeated.clone(),
            ..Records::concat(parts.clone())?.with_parts(parts)
        })
    }

    /// A group column: the column itself, or "" for a column these records do not have.
    pub fn key(&self, column: &str) -> Expr {
        if self.has(column) {
            col(column)
        } else {
            lit("").alias(column)
        }
    }

    /// How many records (a query).
    pub fn count(&self) -> Result<usize> {
        let df = collect(
            self.frame
                .clone()
                .group_by([lit(0).alias("__all")])
                .agg([len().cast(DataType::Float64).alias("n")]),
        )?;
        Ok(numbers(&df, "n")?.first().copied().unwrap_or(0.0) as usize)
    }
}
