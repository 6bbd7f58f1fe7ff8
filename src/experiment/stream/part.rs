//! Writing a part whole: a frame's row groups into a sealed Parquet or CSV part (`write_part`),
//! and the batch files of `partial/` (`is_batch_file`, `remove_batches`).

use super::*;

/// The batches of a part joined into row groups of at least `ROW_GROUP_ROWS` rows.
pub(super) struct RowGroups<I> {
    pub(super) frames: I,
    pub(super) held: Option<DataFrame>,
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
pub(super) fn statistics() -> polars::prelude::StatisticsOptions {
    polars::prelude::StatisticsOptions {
        binary_statistics_truncate_length: Some(64),
        ..Default::default()
    }
}

/// The frame as one chunk, so the writer makes one row group of it.
pub(super) fn one_chunk(mut df: DataFrame) -> DataFrame {
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

pub(super) fn write_part_here(
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
pub(super) fn add_seal(
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
