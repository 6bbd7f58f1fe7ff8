//! Row types and their writers: one row per game, written as a Parquet (default) or CSV part
//! file per job.
//!
//! Every row carries the experiment name, the job hash, the repeat and the job's swept values
//! (one column per grid key, named by the key), so a report can group without a join. How parts
//! reach the disk (batches, seals, checks) is `stream`'s business. Reading a part back: a lazy
//! scan (`scan_part`) run in polars' streaming engine (`collect`), for the report and the game
//! records alike.

pub use crate::play::GameRow;
use anyhow::{Context, Result};
use polars::prelude::{
    Column, CsvReadOptions, DataFrame, DataType, Engine, Float64Type, IntoColumn, IntoSeries,
    LazyCsvReader, LazyFileListReader, LazyFrame, ListBuilderTrait, ListPrimitiveChunkedBuilder,
    ParquetReader, PlRefPath, PlSmallStr, PolarsResult, ScanArgsParquet, SerReader,
};
use std::path::{Path, PathBuf};

/// Output format of rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum Format {
    #[default]
    Parquet,
    Csv,
}

impl Format {
    pub fn ext(self) -> &'static str {
        match self {
            Format::Parquet => "parquet",
            Format::Csv => "csv",
        }
    }
}

/// A swept value as a typed cell; an axis's values share one type (see `SweptKind::of`).
#[derive(Clone, Debug, PartialEq)]
pub enum SweptKind {
    Int,
    Float,
    Bool,
    Text,
}

impl SweptKind {
    /// The column type of a grid axis: integers, numbers (integers and floats mixed), booleans,
    /// or text for anything else (strings as written, other values as TOML).
    pub fn of(values: &[toml::Value]) -> SweptKind {
        use toml::Value::*;
        if values.iter().all(|v| matches!(v, Integer(_))) {
            SweptKind::Int
        } else if values.iter().all(|v| matches!(v, Integer(_) | Float(_))) {
            SweptKind::Float
        } else if values.iter().all(|v| matches!(v, Boolean(_))) {
            SweptKind::Bool
        } else {
            SweptKind::Text
        }
    }
}

/// A swept value as text (strings without quotes).
pub fn swept_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn swept_column(name: &str, kind: &SweptKind, value: &toml::Value, n: usize) -> Column {
    let name: PlSmallStr = name.into();
    match kind {
        SweptKind::Int => Column::new(name, vec![value.as_integer().unwrap_or_default(); n]),
        SweptKind::Float => Column::new(
            name,
            vec![
                value
                    .as_float()
                    .or(value.as_integer().map(|i| i as f64))
                    .unwrap_or_default();
                n
            ],
        ),
        SweptKind::Bool => Column::new(name, vec![value.as_bool().unwrap_or_default(); n]),
        SweptKind::Text => Column::new(name, vec![swept_text(value).as_str(); n]),
    }
}

/// What identifies a job's rows.
pub struct JobColumns<'a> {
    pub experiment: &'a str,
    pub job: &'a str,
    pub repeat: u32,
    /// (grid key, axis kind, this job's value)
    pub swept: Vec<(&'a str, SweptKind, &'a toml::Value)>,
}

/// The columns every row of a job starts with: experiment, job, repeat, swept values.
/// Game-row columns a grid may also sweep: the row's own column carries the swept value (for
/// Colosseum, the board actually played), so no second column of that name is written, and the
/// report reads it once.
pub const SWEPT_AS_ROW_COLUMN: [&str; 1] = ["stage"];

/// The id and swept columns; a swept key named like one of `row_columns` is left out (the row's
/// own column carries it: sweeping `stage` gives game rows whose `stage` is the board played).
pub fn id_columns(id: &JobColumns, n: usize, row_columns: &[&str]) -> Vec<Column> {
    let mut cols = vec![
        Column::new("experiment".into(), vec![id.experiment; n]),
        Column::new("job".into(), vec![id.job; n]),
        Column::new("repeat".into(), vec![id.repeat as i64; n]),
    ];
    for (name, kind, value) in id
        .swept
        .iter()
        .filter(|(name, _, _)| !row_columns.contains(name))
    {
        cols.push(swept_column(name, kind, value, n));
    }
    cols
}

/// A game's identity for repeated-game counts: its start (the random setup when it has one,
/// else the stage) and its moves, hashed (xxh3, its 52 high bits: a non-negative integer that
/// every CSV reader and every float holds exactly). Written in every game row (`game_key`), so
/// a report counts distinct games without reading the transcripts.
pub fn game_key(start_position: Option<&str>, stage: &str, transcript: &str) -> i64 {
    let start = start_position.filter(|s| !s.is_empty()).unwrap_or(stage);
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(start.as_bytes());
    h.update(&[0x1f]);
    h.update(transcript.as_bytes());
    (h.digest() >> 12) as i64
}

/// A list column of per-move values (a null list where the value does not apply).
fn per_move<'a>(name: &str, values: impl Iterator<Item = Option<&'a [f64]>>) -> Column {
    // One builder for the whole column (a Series a row was most of a cheap match's frame).
    let values: Vec<Option<&[f64]>> = values.collect();
    let total = values.iter().flatten().map(|v| v.len()).sum();
    let mut list = ListPrimitiveChunkedBuilder::<Float64Type>::new(
        name.into(),
        values.len(),
        total,
        DataType::Float64,
    );
    for v in values {
        match v {
            Some(v) => list.append_slice(v),
            None => list.append_null(),
        }
    }
    list.finish().into_series().into_column()
}

/// A frame as CSV can hold it: each list column becomes text, its numbers separated by spaces
/// (a null list an empty field), as docs/rows.md says.
pub fn csv_ready(df: &DataFrame) -> Result<DataFrame> {
    let mut df = df.clone();
    let lists: Vec<String> = df
        .columns()
        .iter()
        .filter(|c| matches!(c.dtype(), DataType::List(_)))
        .map(|c| c.name().to_string())
        .collect();
    for name in lists {
        let column = df.column(&name)?.clone();
        let text: Vec<Option<String>> = column
            .list()?
            .amortized_iter()
            .map(|v| {
                v.map(|s| {
                    s.as_ref().cast(&DataType::Float64).map(|s| {
                        s.f64()
                            .expect("cast")
                            .iter()
                            .map(|x| x.map_or(String::new(), |x| x.to_string()))
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                })
                .transpose()
            })
            .collect::<PolarsResult<_>>()?;
        df.with_column(Column::new(name.as_str().into(), text))?;
    }
    Ok(df)
}

/// The rows of one job as a DataFrame.
pub fn games_frame(id: &JobColumns, rows: &[GameRow]) -> Result<DataFrame> {
    let n = rows.len();
    // Text columns are read from the rows in place (a copy of each text per row was a third
    // of a cheap match's frame).
    let s = |f: &dyn Fn(&GameRow) -> &str| rows.iter().map(f).collect::<Vec<&str>>();
    let i = |f: &dyn Fn(&GameRow) -> i64| rows.iter().map(f).collect::<Vec<i64>>();
    let mut cols = id_columns(id, n, &SWEPT_AS_ROW_COLUMN);
    cols.extend([
        Column::new("game".into(), i(&|r| r.game as i64)),
        Column::new(
            "pair".into(),
            rows.iter()
                .map(|r| r.pair.map(i64::from))
                .collect::<Vec<Option<i64>>>(),
        ),
        Column::new("stage".into(), s(&|r| &r.stage)),
        Column::new("first_agent".into(), s(&|r| &r.first_agent)),
        Column::new("second_agent".into(), s(&|r| &r.second_agent)),
        Column::new("winner".into(), s(&|r| r.winner)),
        Column::new("first_score".into(), i(&|r| r.first_score as i64)),
        Column::new("second_score".into(), i(&|r| r.second_score as i64)),
        Column::new("plies".into(), i(&|r| r.plies as i64)),
        Column::new(
            "wall_ms".into(),
            rows.iter().map(|r| r.wall_ms).collect::<Vec<f64>>(),
        ),
        Column::new(
            "first_simulations".into(),
            i(&|r| r.first_simulations as i64),
        ),
        Column::new(
            "second_simulations".into(),
            i(&|r| r.second_simulations as i64),
        ),
        Column::new("first_nodes".into(), i(&|r| r.first_nodes as i64)),
        Column::new("second_nodes".into(), i(&|r| r.second_nodes as i64)),
        Column::new(
            "first_max_move_ms".into(),
            rows.iter()
                .map(|r| r.first_max_move_ms)
                .collect::<Vec<f64>>(),
        ),
        Column::new(
            "second_max_move_ms".into(),
            rows.iter()
                .map(|r| r.second_max_move_ms)
                .collect::<Vec<f64>>(),
        ),
        Column::new(
            "first_peak_tree_bytes".into(),
            rows.iter()
                .map(|r| r.first_peak_tree_bytes.map(|b| b as i64))
                .collect::<Vec<Option<i64>>>(),
        ),
        Column::new(
            "second_peak_tree_bytes".into(),
            rows.iter()
                .map(|r| r.second_peak_tree_bytes.map(|b| b as i64))
                .collect::<Vec<Option<i64>>>(),
        ),
        Column::new("first_moves".into(), i(&|r| r.first_moves as i64)),
        Column::new("second_moves".into(), i(&|r| r.second_moves as i64)),
        Column::new(
            "first_depth".into(),
            rows.iter()
                .map(|r| r.first_depth)
                .collect::<Vec<Option<f64>>>(),
        ),
        Column::new(
            "second_depth".into(),
            rows.iter()
                .map(|r| r.second_depth)
                .collect::<Vec<Option<f64>>>(),
        ),
        Column::new(
            "first_cache_hit_rate".into(),
            rows.iter()
                .map(|r| r.first_cache_hit_rate)
                .collect::<Vec<Option<f64>>>(),
        ),
        Column::new(
            "second_cache_hit_rate".into(),
            rows.iter()
                .map(|r| r.second_cache_hit_rate)
                .collect::<Vec<Option<f64>>>(),
        ),
        Column::new(
            "first_clock".into(),
            rows.iter()
                .map(|r| r.first_clock.as_deref())
                .collect::<Vec<Option<&str>>>(),
        ),
        Column::new(
            "second_clock".into(),
            rows.iter()
                .map(|r| r.second_clock.as_deref())
                .collect::<Vec<Option<&str>>>(),
        ),
        Column::new(
            "first_clock_ms".into(),
            rows.iter()
                .map(|r| r.first_clock_ms)
                .collect::<Vec<Option<f64>>>(),
        ),
        Column::new(
            "second_clock_ms".into(),
            rows.iter()
                .map(|r| r.second_clock_ms)
                .collect::<Vec<Option<f64>>>(),
        ),
        Column::new(
            "first_random_moves".into(),
            rows.iter()
                .map(|r| r.first_random_moves.map(i64::from))
                .collect::<Vec<Option<i64>>>(),
        ),
        Column::new(
            "second_random_moves".into(),
            rows.iter()
                .map(|r| r.second_random_moves.map(i64::from))
                .collect::<Vec<Option<i64>>>(),
        ),
        per_move(
            "first_think_ms",
            rows.iter().map(|r| Some(&r.first_think_ms[..])),
        ),
        per_move(
            "second_think_ms",
            rows.iter().map(|r| Some(&r.second_think_ms[..])),
        ),
        per_move(
            "first_tree_kb",
            rows.iter().map(|r| r.first_tree_kb.as_deref()),
        ),
        per_move(
            "second_tree_kb",
            rows.iter().map(|r| r.second_tree_kb.as_deref()),
        ),
        Column::new("first_budget".into(), s(&|r| &r.first_budget)),
        Column::new("second_budget".into(), s(&|r| &r.second_budget)),
        Column::new("transcript".into(), s(&|r| &r.transcript)),
        Column::new(
            "termination".into(),
            rows.iter().map(|r| r.termination).collect::<Vec<&str>>(),
        ),
        Column::new("fault_detail".into(), s(&|r| &r.fault_detail)),
        Column::new(
            "start_position".into(),
            rows.iter()
                .map(|r| r.start_position.as_deref())
                .collect::<Vec<Option<&str>>>(),
        ),
        Column::new(
            "opening".into(),
            rows.iter()
                .map(|r| r.opening.as_deref())
                .collect::<Vec<Option<&str>>>(),
        ),
        Column::new(
            "game_key".into(),
            rows.iter()
                .map(|r| game_key(r.start_position.as_deref(), &r.stage, &r.transcript))
                .collect::<Vec<i64>>(),
        ),
    ]);
    Ok(DataFrame::new(n, cols)?)
}

/// The columns of GA generation rows, in order: the id columns, generation, individual,
/// fitness, the kind's `measures`, best, final (the job's last generation), then `trailing`.
pub fn generation_columns(
    id: &JobColumns,
    generation: Vec<i64>,
    individual: Vec<i64>,
    fitness: Vec<f64>,
    measures: Vec<Column>,
    best: Vec<i64>,
    trailing: Vec<Column>,
) -> Vec<Column> {
    let n = generation.len();
    let last = generation.iter().copied().max().unwrap_or(0);
    let last_column: Vec<i64> = generation.iter().map(|&g| (g == last) as i64).collect();
    let mut cols = id_columns(id, n, &[]);
    cols.push(Column::new("generation".into(), generation));
    cols.push(Column::new("individual".into(), individual));
    cols.push(Column::new("fitness".into(), fitness));
    cols.extend(measures);
    cols.push(Column::new("best".into(), best));
    cols.push(Column::new("final".into(), last_column));
    cols.extend(trailing);
    cols
}

pub use crate::durable::{remove_stale_temps, write_atomic};

/// A job's checkpoint, if `path` holds one: parsed, and checked to belong to job `hash`
/// (`job_of` names the job a checkpoint records).
/// A checkpoint that cannot be read (cut, changed, written by another version) or that belongs
/// to another job is removed, with a message, and the job starts over: a checkpoint only saves
/// time, the rows never depend on it.
pub fn read_checkpoint<T: serde::de::DeserializeOwned>(
    path: &Path,
    hash: &str,
    job_of: impl Fn(&T) -> &str,
) -> Result<Option<T>> {
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(None);
    };
    // A sealed checkpoint: one changed since it was written but still readable was edited
    // (exit 2, naming it); one that no longer reads was cut or corrupted (started over below).
    let text = String::from_utf8_lossy(&bytes);
    let bytes: Vec<u8> = match crate::durable::check_seal(&text) {
        Some((body, true)) => body.as_bytes().to_vec(),
        Some((body, false)) if serde_json::from_str::<T>(body).is_ok() => {
            return Err(crate::durable::changed_error(path, "the checkpoint"));
        }
        Some((body, false)) => body.as_bytes().to_vec(),
        None => bytes,
    };
    let why = match serde_json::from_slice::<T>(&bytes) {
        Ok(ck) if job_of(&ck) == hash => return Ok(Some(ck)),
        Ok(ck) => format!("it belongs to job {}", job_of(&ck)),
        Err(e) => format!("it cannot be read: {e}"),
    };
    eprintln!(
        "job {hash}: checkpoint {} is unusable ({why}); starting the job over",
        path.display()
    );
    std::fs::remove_file(path).with_context(|| format!("removing {}", path.display()))?;
    Ok(None)
}

/// Writes a checkpoint atomically (JSON, then its seal line).
pub fn write_checkpoint<T: serde::Serialize>(path: &Path, state: &T) -> Result<()> {
    let json = serde_json::to_string(state)?;
    write_atomic(path, |f| {
        use std::io::Write;
        f.write_all(crate::durable::sealed(&json).as_bytes())?;
        Ok(())
    })
}

/// The part file of a job in `dir`, if one exists in either format.
pub fn existing_part(dir: &Path, hash: &str) -> Option<PathBuf> {
    [Format::Parquet, Format::Csv]
        .iter()
        .map(|f| dir.join(format!("part-{hash}.{}", f.ext())))
        .find(|p| p.exists())
}

/// Reads a part file (Parquet or CSV, by extension).
pub fn read_part(path: &Path) -> Result<DataFrame> {
    let ctx = || format!("reading {}", path.display());
    if path.extension().is_some_and(|e| e == "csv") {
        let df = CsvReadOptions::default()
            .with_has_header(true)
            .with_infer_schema_length(None)
            .try_into_reader_with_file_path(Some(path.to_path_buf()))
            .with_context(ctx)?
            .finish()
            .with_context(ctx)?;
        Ok(df)
    } else {
        let f = std::fs::File::open(path).with_context(ctx)?;
        Ok(ParquetReader::new(f).finish().with_context(ctx)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Ck {
        job: String,
        generation: u32,
    }

    #[test]
    fn an_edited_checkpoint_is_refused_and_a_cut_one_started_over() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ck.json");
        write_checkpoint(
            &p,
            &Ck {
                job: "h".into(),
                generation: 7,
            },
        )
        .unwrap();
        assert_eq!(
            read_checkpoint::<Ck>(&p, "h", |c| &c.job).unwrap(),
            Some(Ck {
                job: "h".into(),
                generation: 7
            })
        );
        let text = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, text.replace("\"generation\":7", "\"generation\":9")).unwrap();
        let err = read_checkpoint::<Ck>(&p, "h", |c| &c.job).unwrap_err();
        assert!(
            err.downcast_ref::<crate::experiment::InputError>()
                .is_some()
                && err.to_string().contains("ck.json"),
            "{err}"
        );
        std::fs::write(&p, &text[..10]).unwrap();
        assert_eq!(
            read_checkpoint::<Ck>(&p, "h", |c| &c.job).unwrap(),
            None,
            "a cut checkpoint starts the job over"
        );
    }
}

/// Runs a query in polars' streaming engine (bounded memory) and returns its frame.
pub fn collect(frame: LazyFrame) -> Result<DataFrame> {
    let df = frame
        .collect_with_engine(Engine::Streaming)?
        .unwrap_single();
    release_freed_memory();
    Ok(df)
}

/// Gives the memory a finished query freed back to the system. glibc keeps freed blocks in its
/// per-thread arenas, so without this the report's resident size grows query after query to
/// the sum of their peaks rather than the largest one.
fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory of the allocator's heaps to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// A polars result with what was being done when it failed.
pub fn in_context<T>(r: PolarsResult<T>, what: impl FnOnce() -> String) -> Result<T> {
    r.map_err(|e| anyhow::Error::from(e).context(what()))
}

/// A lazy scan of one part file (Parquet or CSV, by extension).
pub fn scan_part(path: &Path) -> Result<LazyFrame> {
    let ctx = || format!("reading {}", path.display());
    let name = path
        .to_str()
        .with_context(|| format!("{}: the path is not UTF-8", path.display()))?;
    let frame = if path.extension().is_some_and(|e| e == "csv") {
        in_context(
            LazyCsvReader::new(PlRefPath::new(name))
                .with_has_header(true)
                .with_infer_schema_length(None)
                .finish(),
            ctx,
        )?
    } else {
        in_context(
            LazyFrame::scan_parquet(PlRefPath::new(name), ScanArgsParquet::default()),
            ctx,
        )?
    };
    Ok(frame)
}
