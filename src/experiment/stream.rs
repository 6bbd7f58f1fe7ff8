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

mod part;
mod seal;
pub use part::*;
pub use seal::*;

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

#[cfg(test)]
mod tests;
