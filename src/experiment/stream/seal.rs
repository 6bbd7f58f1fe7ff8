//! Seals of parts: the size, checksum and row count a job record keeps for its part, the
//! identity in a Parquet part's footer, writing a part under its seal, and the checks that tell
//! a sound part from one changed since (`check_sealed`, `verify_part`).

use super::*;

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
pub(super) fn checksum(f: &mut std::fs::File) -> Result<(u64, String)> {
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

pub(super) fn metadata(id: PartId) -> KeyValueMetadata {
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
pub(super) const WRITE_BUFFER: usize = 1 << 20;

/// How a Parquet file is compressed: a batch, which lives until its job is sealed and is read
/// back only by a resumed run, with LZ4 (cheaper to write than zstd); a part with zstd,
/// polars' default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kept {
    Batch,
    Part,
}

/// Writes `frames` (all of one schema) as one file at `path`, atomically, and returns its seal
/// (its rows counted as they are written); `before_rename` sees the seal before the file is
/// renamed into place.
pub(super) fn write_sealed(
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
                        let mut df = crate::experiment::rows::csv_ready(&df)?;
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
pub(super) struct Checked {
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
    pub(super) const SETTLED: std::time::Duration = std::time::Duration::from_secs(2);

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
pub(super) fn stamp_path(record: &Path, part: &Path) -> Option<PathBuf> {
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
pub(super) fn check_metadata(path: &Path, seal: &Seal, id: PartId) -> Result<(), String> {
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
pub(super) fn seal_key(part: &Path) -> Option<String> {
    let folder = part.parent()?.file_name()?.to_string_lossy();
    Some(format!("{folder}/{}", part.file_name()?.to_string_lossy()))
}

/// The seal a job record keeps for `part`, if any.
pub(super) fn recorded_seal(record: &Path, part: &Path) -> Option<Seal> {
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
