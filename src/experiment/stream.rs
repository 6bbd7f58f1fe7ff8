//! A job's rows on disk: streamed in batches while the job runs, sealed when it ends, checked
//! whenever they are read.
//!
//! **Done means sealed.** A job is done when its part file (`<rows>/part-<hash>.<ext>`) exists
//! *and* matches the seal its job record (`jobs/<hash>.json`, key `parts`) keeps for it: the
//! file's size, its xxh3 checksum and its row count. A Parquet part also carries its identity in
//! its own footer (experiment, job and row-format version in its key-value metadata, its rows
//! in its row count; parts written before 2026-12 also say `gamelab.rows`), so a part copied
//! under another job's name, cut short, emptied or overwritten fails the check: `run` runs that
//! job again (and says so), `report` refuses it naming the file. The seal is written before the
//! part is renamed into place, so a kill between the two leaves a job that is simply not done.
//!
//! **Batches.** While a job runs, its rows are flushed every `FLUSH_ROWS` rows or
//! `FLUSH_SECONDS` seconds to `partial/<hash>/batch-<k>.<ext>` (each written atomically), and
//! `partial/<hash>/progress.json` lists the sealed batches with the units (games, solves)
//! they cover and the state a job carries from batch to batch (an SPRT's pair counts). A killed
//! job resumes after its last listed batch; a batch file the list does not name, or one that
//! fails its seal, is dropped and played again. Units are seeded by their index, so the rows of a
//! resumed job are identical to an uninterrupted run's. A Parquet part is written while the
//! job runs (`JobStream::write_through`, on the job's writer thread): each batch, once saved,
//! goes into the part's temporary file a row group at a time (`ROW_GROUP_ROWS` rows, a few
//! batches joined: memory is one row group, and the writer's metadata of all groups, which it
//! keeps until the file is done, stays small); a resumed job reads its saved batches back into
//! it first. After the last rows the part is sealed, renamed into place, and `partial/<hash>`
//! is removed. Batch files, which live only until then, are compressed with LZ4, the part with
//! zstd. A CSV part is joined from its batch files at the end.
//!
//! Jobs whose rows are per generation (GA, `tsumego_ga`) or per tuning game (`tune`) keep
//! their own checkpoints and write the part once, through the same seal.

use super::rows::{Format, read_part};
use crate::durable::{write_atomic, write_atomic_then};
use anyhow::{Context, Result};
use polars::io::parquet::write::KeyValueMetadata;
use polars::prelude::{CsvWriter, DataFrame, ParquetReader, ParquetWriter, SerReader, SerWriter};
use serde::{Deserialize, Serialize};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The row format's version, in every Parquet part's metadata; parts of another version are
/// written again by `run`.
pub const ROWS_VERSION: &str = "2";
/// A batch is flushed after this many rows (the environment variable `GAMELAB_BATCH_ROWS`
/// may set another number: fewer rows lose less to a kill, more make fewer files)...
pub const FLUSH_ROWS: usize = 4096;
/// ...or after this many seconds, whichever comes first.
pub const FLUSH_SECONDS: f64 = 5.0;

/// What a sealed file is: size, checksum, rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seal {
    pub rows: usize,
    pub bytes: u64,
    pub xxh3: String,
}

/// Who a part belongs to.
#[derive(Clone, Copy, Debug)]
pub struct PartId<'a> {
    pub experiment: &'a str,
    pub job: &'a str,
}

/// xxh3 of a file's bytes, read from the start.
fn checksum(f: &mut std::fs::File) -> Result<(u64, String)> {
    f.rewind()?;
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut bytes = 0u64;
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        bytes += n as u64;
    }
    Ok((bytes, format!("{:016x}", hasher.digest())))
}

fn metadata(id: PartId) -> KeyValueMetadata {
    KeyValueMetadata::from_static(vec![
        ("gamelab.rows_version".into(), ROWS_VERSION.into()),
        ("gamelab.experiment".into(), id.experiment.into()),
        ("gamelab.job".into(), id.job.into()),
        (
            "gamelab.version".into(),
            crate::provenance::current().version.into(),
        ),
        (
            "gamelab.commit".into(),
            crate::provenance::current().commit.clone(),
        ),
        (
            "gamelab.command".into(),
            crate::provenance::current().command.clone(),
        ),
        (
            "gamelab.host".into(),
            crate::provenance::current().host.clone(),
        ),
        (
            "gamelab.date".into(),
            crate::provenance::current().date.clone(),
        ),
    ])
}

/// The buffer between the row writers and a batch or part file (1 MiB).
const WRITE_BUFFER: usize = 1 << 20;

/// How a Parquet file is compressed: a batch, which lives until its job is sealed and is read
/// back only by a resumed run, with LZ4 (cheaper to write than zstd); a part with zstd,
/// polars' default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kept {
    Batch,
    Part,
}

/// Writes `frames` (all of one schema) as one file at `path`, atomically, and returns its seal
/// (its rows counted as they are written); `before_rename` sees the seal before the file is
/// renamed into place.
fn write_sealed(
    path: &Path,
    frames: &mut dyn Iterator<Item = Result<DataFrame>>,
    format: Format,
    kept: Kept,
    id: PartId,
    before_rename: impl FnOnce(&Seal) -> Result<()>,
) -> Result<Seal> {
    let compression = match kept {
        Kept::Batch => polars::prelude::ParquetCompression::Lz4Raw,
        Kept::Part => polars::prelude::ParquetCompression::default(),
    };
    let rows = std::cell::Cell::new(0);
    let mut seal = None;
    write_atomic_then(
        path,
        |f| {
            // Through a buffer: Parquet's writer puts its metadata down a few bytes at a time
            // (a write() each, straight to the file, was nearly every system call of a run).
            let mut buffered = std::io::BufWriter::with_capacity(WRITE_BUFFER, &mut *f);
            let f = &mut buffered;
            match format {
                Format::Parquet => {
                    let mut writer: Option<
                        polars::io::parquet::write::BatchedWriter<
                            &mut std::io::BufWriter<&mut std::fs::File>,
                        >,
                    > = None;
                    let mut empty: Option<DataFrame> = None;
                    let mut file = Some(&mut *f);
                    for df in &mut *frames {
                        let df = df?;
                        rows.set(rows.get() + df.height());
                        if df.height() == 0 {
                            empty.get_or_insert(df);
                            continue;
                        }
                        if writer.is_none() {
                            let w = ParquetWriter::new(file.take().expect("one writer"))
                                .with_compression(compression)
                                .with_statistics(statistics())
                                .with_key_value_metadata(Some(metadata(id)));
                            writer = Some(w.batched(df.schema())?);
                        }
                        writer.as_mut().expect("made above").write_batch(&df)?;
                    }
                    match writer {
                        Some(w) => {
                            w.finish()?;
                        }
                        None => {
                            // No rows at all: a file with the schema (or none) and the metadata.
                            let mut df = empty.unwrap_or_default();
                            ParquetWriter::new(file.take().expect("unused"))
                                .with_compression(compression)
                                .with_statistics(statistics())
                                .with_key_value_metadata(Some(metadata(id)))
                                .finish(&mut df)?;
                        }
                    }
                }
                Format::Csv => {
                    let mut header = true;
                    for df in &mut *frames {
                        let df = df?;
                        rows.set(rows.get() + df.height());
                        let mut df = super::rows::csv_ready(&df)?;
                        CsvWriter::new(&mut *f)
                            .include_header(header)
                            .finish(&mut df)?;
                        header = false;
                    }
                }
            }
            f.flush()?;
            Ok(())
        },
        |f| {
            let (bytes, xxh3) = checksum(f)?;
            let s = Seal {
                rows: rows.get(),
                bytes,
                xxh3,
            };
            before_rename(&s)?;
            seal = Some(s);
            Ok(())
        },
    )?;
    Ok(seal.expect("sealed before the rename"))
}

/// What a part file looked like when its every byte last matched its seal (`verify_part`):
/// kept in `checked/<hash>.<folder>.json`, so a later check that finds the file as it was
/// (same file, size, modification and status-change times) reads only its Parquet footer, not
/// its bytes. Any write to a file, a rename onto it or a change of its times through the file
/// system moves its status-change time (ctime), which no program can set back; a copied or
/// restored folder (a new file) is read in full once more. docs/rows.md says what this keeps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Checked {
    dev: u64,
    ino: u64,
    bytes: u64,
    mtime_ns: i128,
    ctime_ns: i128,
    /// The seal it matched.
    xxh3: String,
}

impl Checked {
    /// The file at `path` as it is now, with the seal it is to match.
    fn of(path: &Path, seal: &Seal) -> Option<Checked> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path).ok()?;
        Some(Checked {
            dev: m.dev(),
            ino: m.ino(),
            bytes: m.size(),
            mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
            ctime_ns: i128::from(m.ctime()) * 1_000_000_000 + i128::from(m.ctime_nsec()),
            xxh3: seal.xxh3.clone(),
        })
    }

    /// How long before now a file's status must have last changed for its stamp to be kept.
    const SETTLED: std::time::Duration = std::time::Duration::from_secs(2);

    /// Whether the file's status changed at least `SETTLED` ago: any later write then moves its
    /// ctime past the stamp's, whatever the clock's tick.
    fn settled(&self) -> bool {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as i128);
        now - self.ctime_ns >= Self::SETTLED.as_nanos() as i128
    }

    fn read(path: &Path) -> Option<Checked> {
        serde_json::from_slice(&std::fs::read(path).ok()?).ok()
    }
}

/// Where the `Checked` stamp of `part` (sealed in job record `jobs/<job>.json`) is kept:
/// `checked/<job>.<folder>.json` beside `jobs/`, whose every file is a job record to its readers.
fn stamp_path(record: &Path, part: &Path) -> Option<PathBuf> {
    let stem = record.file_stem()?.to_string_lossy();
    let folder = part.parent()?.file_name()?.to_string_lossy();
    let results = record.parent()?.parent()?;
    Some(
        results
            .join("checked")
            .join(format!("{stem}.{folder}.json")),
    )
}

/// Checks `path` against `seal` (its size and every byte's checksum) and, for Parquet, against
/// its own metadata. The error says what is wrong.
pub fn check_sealed(path: &Path, seal: &Seal, id: PartId) -> Result<(), String> {
    let mut f = std::fs::File::open(path).map_err(|e| format!("cannot open it: {e}"))?;
    let (bytes, xxh3) = checksum(&mut f).map_err(|e| format!("cannot read it: {e}"))?;
    if bytes != seal.bytes {
        return Err(format!(
            "it has {bytes} bytes where its seal says {}",
            seal.bytes
        ));
    }
    if xxh3 != seal.xxh3 {
        return Err("its checksum differs from its seal (the file was changed)".into());
    }
    check_metadata(path, seal, id)
}

/// Checks a Parquet part's own metadata (its footer: row format, experiment, job, rows) against
/// `seal` and `id`; a CSV part has none.
fn check_metadata(path: &Path, seal: &Seal, id: PartId) -> Result<(), String> {
    if path.extension().is_some_and(|e| e == "parquet") {
        let f = std::fs::File::open(path).map_err(|e| format!("cannot open it: {e}"))?;
        let mut reader = ParquetReader::new(f);
        let meta = reader
            .get_metadata()
            .map_err(|e| format!("not a readable Parquet file: {e}"))?;
        let kv: std::collections::BTreeMap<String, String> = meta
            .key_value_metadata
            .iter()
            .flatten()
            .filter_map(|kv| kv.value.clone().map(|v| (kv.key.clone(), v)))
            .collect();
        let get = |k: &str| kv.get(k).map(String::as_str).unwrap_or("");
        if get("gamelab.rows_version") != ROWS_VERSION {
            return Err(format!(
                "row format version '{}', expected {ROWS_VERSION}",
                get("gamelab.rows_version")
            ));
        }
        if get("gamelab.experiment") != id.experiment || get("gamelab.job") != id.job {
            return Err(format!(
                "it holds the rows of experiment '{}' job {}",
                get("gamelab.experiment"),
                get("gamelab.job")
            ));
        }
        // Parts written before the rows were counted in the footer alone also say them in
        // `gamelab.rows`.
        let said = kv.get("gamelab.rows");
        if meta.num_rows != seal.rows || said.is_some_and(|r| *r != seal.rows.to_string()) {
            return Err(format!(
                "it has {} rows where its seal says {}",
                meta.num_rows, seal.rows
            ));
        }
    }
    Ok(())
}

/// The key of a part's seal in its job record: its folder and file name (`games/part-<hash>.parquet`;
/// a life-and-death GA has parts of one name in `generations/` and `solves/`).
fn seal_key(part: &Path) -> Option<String> {
    let folder = part.parent()?.file_name()?.to_string_lossy();
    Some(format!("{folder}/{}", part.file_name()?.to_string_lossy()))
}

/// The seal a job record keeps for `part`, if any.
fn recorded_seal(record: &Path, part: &Path) -> Option<Seal> {
    let text = std::fs::read_to_string(record).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    serde_json::from_value(value.get("parts")?.get(seal_key(part)?)?.clone()).ok()
}

/// Whether a job's part at `part` is there and sound: Ok(Some(rows)) when it is, Ok(None) when
/// there is none, Err(reason) when a file is there but fails its check.
pub fn verify_part(part: &Path, record: &Path, id: PartId) -> Result<Option<usize>, String> {
    if !part.exists() {
        return Ok(None);
    }
    let seal = recorded_seal(record, part).ok_or_else(|| format!("its job record {} keeps no seal for it (written by an older gamelab, or the record was changed)", record.display()))?;
    let stamp = stamp_path(record, part);
    let unchanged = stamp
        .as_deref()
        .and_then(Checked::read)
        .is_some_and(|checked| Checked::of(part, &seal).as_ref() == Some(&checked));
    if unchanged {
        check_metadata(part, &seal, id)?;
    } else {
        check_sealed(part, &seal, id)?;
        // A folder one may not write into (someone else's results) is checked in full each time.
        // A file whose status changed a moment ago is not stamped: the kernel's file times move
        // in clock ticks, so a write within the same tick would leave them as they are.
        if let (Some(stamp), Some(checked)) = (stamp, Checked::of(part, &seal))
            && checked.settled()
            && let Ok(text) = serde_json::to_vec(&checked)
        {
            if let Some(folder) = stamp.parent() {
                std::fs::create_dir_all(folder).ok();
            }
            write_atomic(&stamp, |f| Ok(f.write_all(&text)?)).ok();
        }
    }
    Ok(Some(seal.rows))
}

/// One batch of a running job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Batch {
    file: String,
    seal: Seal,
    /// Units (games, solves) done after this batch.
    units_done: usize,
    /// The job's carried state after this batch.
    #[serde(default)]
    carry: serde_json::Value,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Progress {
    job: String,
    batches: Vec<Batch>,
}

/// The rows of one running job: batches on disk, sealed into the part at the end.
pub struct JobStream<'a> {
    id: PartId<'a>,
    format: Format,
    part: PathBuf,
    record: PathBuf,
    partial: PathBuf,
    progress: Progress,
    flush_rows: usize,
}

impl<'a> JobStream<'a> {
    /// Opens the stream of a job: `part` its part file, `record` its job record (which must
    /// exist: the seal is added to it), `partial` its folder of batches. Batches a killed run
    /// left are checked: the sound ones from the start are kept, the rest removed.
    pub fn open(
        id: PartId<'a>,
        format: Format,
        part: PathBuf,
        record: PathBuf,
        partial: PathBuf,
    ) -> Result<JobStream<'a>> {
        let progress_file = partial.join("progress.json");
        let read = std::fs::read(&progress_file).ok().map(|b| {
            serde_json::from_slice::<Progress>(&b)
                .map_err(|e| e.to_string())
                .and_then(|p| {
                    if p.job == id.job {
                        Ok(p)
                    } else {
                        Err(format!("it is job {}'s", p.job))
                    }
                })
        });
        let mut progress = match read {
            Some(Ok(p)) => p,
            Some(Err(why)) => {
                // Not silently: the batches it listed are dropped, and said so.
                let batches = std::fs::read_dir(&partial)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .filter(|e| e.file_name().to_string_lossy().starts_with("batch-"))
                    .count();
                eprintln!(
                    "job {}: its {} cannot be read ({why}); its {batches} saved batch file(s) are dropped and their games played again",
                    id.job,
                    progress_file.display()
                );
                Progress::default()
            }
            None => Progress::default(),
        };
        progress.job = id.job.to_string();
        let ext = format.ext();
        let sound = progress
            .batches
            .iter()
            .take_while(|b| {
                b.file.ends_with(ext) && check_sealed(&partial.join(&b.file), &b.seal, id).is_ok()
            })
            .count();
        if sound < progress.batches.len() {
            eprintln!(
                "job {}: {} of its {} saved batches fail their check; playing them again",
                id.job,
                progress.batches.len() - sound,
                progress.batches.len()
            );
        }
        progress.batches.truncate(sound);
        // Files of this folder that the progress list does not name (a batch written just before
        // a kill, temporaries) are removed.
        if let Ok(entries) = std::fs::read_dir(&partial) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name != "progress.json" && !progress.batches.iter().any(|b| b.file == name) {
                    std::fs::remove_file(e.path()).ok();
                }
            }
        }
        let flush_rows = std::env::var("GAMELAB_BATCH_ROWS")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|&n: &usize| n > 0)
            .unwrap_or(FLUSH_ROWS);
        Ok(JobStream {
            id,
            format,
            part,
            record,
            partial,
            progress,
            flush_rows,
        })
    }

    /// Units done by earlier runs of this job (0 for a fresh job).
    pub fn units_done(&self) -> usize {
        self.progress.batches.last().map_or(0, |b| b.units_done)
    }

    /// Rows in the batches earlier runs of this job saved and this run keeps (0 for a fresh job).
    pub fn rows_saved(&self) -> usize {
        self.progress.batches.iter().map(|b| b.seal.rows).sum()
    }

    /// The state carried after the last saved batch (null for a fresh job).
    pub fn carry(&self) -> serde_json::Value {
        self.progress
            .batches
            .last()
            .map_or(serde_json::Value::Null, |b| b.carry.clone())
    }

    /// Rows held in memory that are due to be flushed, at most (`FLUSH_ROWS`, or
    /// `GAMELAB_BATCH_ROWS`); rows are flushed every `FLUSH_SECONDS` too.
    pub fn flush_rows(&self) -> usize {
        self.flush_rows
    }

    /// Saves a batch: `df` its rows, `units_done` the units done with it, `carry` the state after it.
    pub fn save_batch(
        &mut self,
        df: DataFrame,
        units_done: usize,
        carry: serde_json::Value,
    ) -> Result<()> {
        crate::pool::outside_workers(|| self.save_batch_here(df, units_done, carry))
    }

    fn save_batch_here(
        &mut self,
        df: DataFrame,
        units_done: usize,
        carry: serde_json::Value,
    ) -> Result<()> {
        let file = format!(
            "batch-{:06}.{}",
            self.progress.batches.len(),
            self.format.ext()
        );
        let seal = write_sealed(
            &self.partial.join(&file),
            &mut std::iter::once(Ok(df)),
            self.format,
            Kept::Batch,
            self.id,
            |_| Ok(()),
        )?;
        self.progress.batches.push(Batch {
            file,
            seal,
            units_done,
            carry,
        });
        let progress = &self.progress;
        write_atomic(&self.partial.join("progress.json"), |f| {
            Ok(std::io::Write::write_all(
                f,
                &serde_json::to_vec(progress)?,
            )?)
        })?;
        Ok(())
    }

    /// Seals the job: the saved batches and then `last` become the part; the seal goes into the
    /// job record before the part is renamed into place. Returns the rows of the part.
    pub fn finish(self, last: DataFrame) -> Result<usize> {
        crate::pool::outside_workers(move || {
            self.write_through(&mut std::iter::once(Ok(Handed::Last(last, None))))
        })
    }

    /// Seals a CSV job: its batch files and then `last` joined into the part, the seal (with
    /// `end`, see `Handed::Last`) in the job record before the part is renamed into place.
    fn finish_csv(self, last: DataFrame, end: Option<(usize, serde_json::Value)>) -> Result<usize> {
        let rows = self
            .progress
            .batches
            .iter()
            .map(|b| b.seal.rows)
            .sum::<usize>()
            + last.height();
        let partial = self.partial.clone();
        let record = self.record.clone();
        let key = seal_key(&self.part).context("a part has a folder and a name")?;
        let seal = |seal: &Seal| add_seal(&record, &key, seal, end.as_ref());
        // CSV batches are copied as they are (each without its header line but the first), so
        // the part is byte for byte the one a run without batches writes.
        let files: Vec<PathBuf> = self
            .progress
            .batches
            .iter()
            .map(|b| partial.join(&b.file))
            .collect();
        write_atomic_then(
            &self.part,
            |f| {
                let mut buffered = std::io::BufWriter::with_capacity(WRITE_BUFFER, &mut *f);
                let f = &mut buffered;
                for (k, file) in files.iter().enumerate() {
                    let text = std::fs::read(file)
                        .with_context(|| format!("reading {}", file.display()))?;
                    let body = if k == 0 {
                        &text[..]
                    } else {
                        text.iter()
                            .position(|&b| b == b'\n')
                            .map_or(&text[..0], |i| &text[i + 1..])
                    };
                    f.write_all(body)?;
                }
                let mut last = super::rows::csv_ready(&last)?;
                if files.is_empty() || last.height() > 0 {
                    CsvWriter::new(&mut *f)
                        .include_header(files.is_empty())
                        .finish(&mut last)?;
                }
                f.flush()?;
                Ok(())
            },
            |f| {
                let (bytes, xxh3) = checksum(f)?;
                seal(&Seal { rows, bytes, xxh3 })
            },
        )?;
        remove_batches(&partial)?;
        Ok(rows)
    }
}

/// What the producer of a running job's rows hands its stream (`JobStream::write_through`).
pub enum Handed {
    /// Rows to save as a batch, the units done with them and the state carried after them.
    Batch(DataFrame, usize, serde_json::Value),
    /// The last rows, and the units done and the state carried at the end, kept in the job
    /// record beside the seal (`ended`: where the job would go on if it grew, `reopen`).
    Last(DataFrame, Option<(usize, serde_json::Value)>),
}

/// A stream's writer given no last rows: the producer stopped (with an error of its own).
const STOPPED: &str = "the job stopped before its last rows: its part is not sealed";

impl JobStream<'_> {
    /// Saves each batch `handed` gives as it comes, then seals the part after the last rows
    /// (`Handed::Last`). A Parquet part is written as the batches come, a row group at a time
    /// (the batches an earlier run saved first, read back): sealing reads nothing back, and the
    /// writes overlap the job's play where the caller runs this on a thread of its own. A CSV
    /// part is joined from its batch files at the end (`finish_csv`). If `handed` ends before the
    /// last rows, nothing is sealed (an error); the saved batches stay for the next run. Run off
    /// the pool's workers (`pool::outside_workers` says why).
    pub fn write_through(
        mut self,
        handed: &mut dyn Iterator<Item = Result<Handed>>,
    ) -> Result<usize> {
        if self.format == Format::Csv {
            for h in handed {
                match h? {
                    Handed::Batch(df, done, carry) => self.save_batch_here(df, done, carry)?,
                    Handed::Last(df, end) => return self.finish_csv(df, end),
                }
            }
            anyhow::bail!(STOPPED);
        }
        let saved: Vec<PathBuf> = self
            .progress
            .batches
            .iter()
            .map(|b| self.partial.join(&b.file))
            .collect();
        let (part, record, id) = (self.part.clone(), self.record.clone(), self.id);
        let key = seal_key(&part).context("a part has a folder and a name")?;
        let stream = std::cell::RefCell::new(self);
        // The end the last rows carry, once they came.
        let ended: std::cell::RefCell<Option<Option<(usize, serde_json::Value)>>> =
            std::cell::RefCell::new(None);
        let incoming = std::iter::from_fn(|| {
            if ended.borrow().is_some() {
                return None;
            }
            Some(match handed.next() {
                None => Err(anyhow::anyhow!(STOPPED)),
                Some(Err(e)) => Err(e),
                // Saved (the batch file and the progress list) before the part gets it.
                Some(Ok(Handed::Batch(df, done, carry))) => stream
                    .borrow_mut()
                    .save_batch_here(df.clone(), done, carry)
                    .map(|()| df),
                Some(Ok(Handed::Last(df, end))) => {
                    *ended.borrow_mut() = Some(end);
                    Ok(df)
                }
            })
        });
        let frames = saved.iter().map(|file| read_part(file)).chain(incoming);
        let mut groups = RowGroups { frames, held: None };
        let seal = write_sealed(
            &part,
            &mut groups,
            Format::Parquet,
            Kept::Part,
            id,
            |seal| {
                add_seal(
                    &record,
                    &key,
                    seal,
                    ended.borrow().as_ref().and_then(Option::as_ref),
                )
            },
        )?;
        drop(groups);
        remove_batches(&stream.into_inner().partial)?;
        Ok(seal.rows)
    }
}

/// Where a sealed job ended, as its job record keeps it: the units done and the state carried
/// (`JobStream::end_at`); None for a record without it.
pub fn ended(record: &Path) -> Option<(usize, serde_json::Value)> {
    let text = std::fs::read_to_string(record).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    let end = value.get("ended")?;
    Some((end.get("units")?.as_u64()? as usize, end["carry"].clone()))
}

/// Turns a sealed part back into the first batch of a running job that has done `units_done`
/// units with `carry` carried: the job is no longer done, and `JobStream::open` resumes it after
/// those units (a sweep grown to more games). The batch list is written before the part moves,
/// so a kill between the two leaves the sealed part, and the next run reopens it again.
pub fn reopen(
    part: &Path,
    record: &Path,
    partial: &Path,
    id: PartId,
    units_done: usize,
    carry: serde_json::Value,
) -> Result<()> {
    let seal = recorded_seal(record, part)
        .with_context(|| format!("{} keeps no seal for {}", record.display(), part.display()))?;
    let ext = part
        .extension()
        .context("a part has an extension")?
        .to_string_lossy();
    let file = format!("batch-{:06}.{ext}", 0);
    crate::durable::create_dir_all_shared(partial)
        .with_context(|| format!("creating {}", partial.display()))?;
    let progress = Progress {
        job: id.job.to_string(),
        batches: vec![Batch {
            file: file.clone(),
            seal,
            units_done,
            carry,
        }],
    };
    write_atomic(&partial.join("progress.json"), |f| {
        Ok(std::io::Write::write_all(
            f,
            &serde_json::to_vec(&progress)?,
        )?)
    })?;
    std::fs::rename(part, partial.join(&file))
        .with_context(|| format!("moving {} into {}", part.display(), partial.display()))
}

/// Rows per row group of a sealed Parquet part, at least (the last group may hold fewer): the
/// batches (`FLUSH_ROWS` rows each) are joined into groups this large, because polars' Parquet
/// writer keeps about 90 KB of page metadata per row group (40 columns) until the file is
/// finished, so a part of 10 million games written a batch a group held 2,400 groups of it.
/// Measured on one job of real Othello rows (peak resident memory of the run): groups of 16,384
/// rows 90 MB at 1M games, 164 MB at 10M (1.8x); groups of 65,536 rows 194 MB at 1M, 201 MB at
/// 10M (1.04x): a larger floor (a group in memory, twice while it is joined), flat in games.
pub const ROW_GROUP_ROWS: usize = 65_536;

/// The batches of a part joined into row groups of at least `ROW_GROUP_ROWS` rows.
struct RowGroups<I> {
    frames: I,
    held: Option<DataFrame>,
}

impl<I: Iterator<Item = Result<DataFrame>>> Iterator for RowGroups<I> {
    type Item = Result<DataFrame>;
    fn next(&mut self) -> Option<Result<DataFrame>> {
        loop {
            match self.frames.next() {
                Some(Ok(df)) => {
                    let joined = match self.held.take() {
                        None => df,
                        Some(mut held) => match held.vstack_mut(&df) {
                            Ok(_) => held,
                            Err(e) => return Some(Err(e.into())),
                        },
                    };
                    if joined.height() >= ROW_GROUP_ROWS {
                        return Some(Ok(one_chunk(joined)));
                    }
                    self.held = Some(joined);
                }
                Some(Err(e)) => return Some(Err(e)),
                None => return self.held.take().map(|df| Ok(one_chunk(df))),
            }
        }
    }
}

/// Column statistics of a part: polars' defaults, with text values in them cut to 64 bytes
/// (a transcript's min and max were kept whole in every row group's metadata).
fn statistics() -> polars::prelude::StatisticsOptions {
    polars::prelude::StatisticsOptions {
        binary_statistics_truncate_length: Some(64),
        ..Default::default()
    }
}

/// The frame as one chunk, so the writer makes one row group of it.
fn one_chunk(mut df: DataFrame) -> DataFrame {
    df.rechunk_mut();
    df
}

/// Removes a sealed job's folder of batches, and the folder of all jobs' batches when it was the
/// last. A run killed between sealing the part and this leaves the batches behind; the next run
/// finds the part sound and calls this for it.
pub fn remove_batches(partial: &Path) -> Result<()> {
    crate::durable::remove_own_folder(partial, is_batch_file)?;
    if let Some(all) = partial.parent() {
        std::fs::remove_dir(all).ok();
    }
    Ok(())
}

/// Whether `file` is a name the stream writes in a job's folder of batches: `batch-<k>.<ext>`,
/// `progress.json`, or the temporary file of either that a killed write left.
pub fn is_batch_file(file: &str) -> bool {
    let own = |f: &str| {
        f == "progress.json"
            || f.strip_prefix("batch-")
                .and_then(|f| f.split_once('.'))
                .is_some_and(|(k, ext)| {
                    !k.is_empty()
                        && k.bytes().all(|b| b.is_ascii_digit())
                        && (ext == "parquet" || ext == "csv")
                })
    };
    match file.strip_prefix('.').and_then(|f| f.rsplit_once(".tmp-")) {
        Some((f, pid)) => own(f) && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()),
        None => own(file),
    }
}

/// Writes a whole part at once (jobs that keep their own checkpoints), sealed as `finish` does.
pub fn write_part(
    part: &Path,
    record: &Path,
    df: DataFrame,
    format: Format,
    id: PartId,
) -> Result<usize> {
    crate::pool::outside_workers(move || write_part_here(part, record, df, format, id))
}

fn write_part_here(
    part: &Path,
    record: &Path,
    df: DataFrame,
    format: Format,
    id: PartId,
) -> Result<usize> {
    let key = seal_key(part).context("a part has a folder and a name")?;
    let seal = write_sealed(
        part,
        &mut std::iter::once(Ok(df)),
        format,
        Kept::Part,
        id,
        |seal| add_seal(record, &key, seal, None),
    )?;
    Ok(seal.rows)
}

/// Adds `seal` for the part of key `name` (see `seal_key`) to a job record (rewritten atomically).
fn add_seal(
    record: &Path,
    name: &str,
    seal: &Seal,
    end: Option<&(usize, serde_json::Value)>,
) -> Result<()> {
    let text =
        std::fs::read_to_string(record).with_context(|| format!("reading {}", record.display()))?;
    let mut value: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("reading {}", record.display()))?;
    let obj = value
        .as_object_mut()
        .context("a job record is a JSON object")?;
    let parts = obj.entry("parts").or_insert_with(|| serde_json::json!({}));
    parts[name] = serde_json::to_value(seal)?;
    if let Some((units, carry)) = end {
        obj.insert(
            "ended".into(),
            serde_json::json!({ "units": units, "carry": carry }),
        );
    }
    write_atomic(record, |f| {
        Ok(std::io::Write::write_all(
            f,
            &serde_json::to_vec_pretty(&value)?,
        )?)
    })
}

#[cfg(test)]
mod tests;
