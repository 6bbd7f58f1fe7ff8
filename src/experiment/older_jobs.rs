//! Keeps an experiment's rows folders (`games/`, `solves/`, ...) holding the current jobs'
//! parts only, so that an outside tool reading `results/<name>/games/*.parquet` (DuckDB,
//! polars, pandas: docs/rows.md) reads exactly the rows of the file as it was last run.
//!
//! Editing an experiment file (an agent's setting, a grid value) makes new jobs; the old jobs'
//! files are not deleted (a file edited back finds its rows again), but `tidy` moves them,
//! at the start of every `gamelab run`, into `older-jobs/` under the same folder names:
//! `older-jobs/games/part-<job>.parquet`, `older-jobs/jobs/<job>.json`, its checked stamps,
//! GA tables and weights, checkpoints and agent logs. A job that is current again is moved
//! back before the runner looks for done jobs, so its rows are reused as before.
//!
//! Only finished jobs move (those with a sealed part): a job's batches in `partial/` stay
//! where they are, and a job of an older version of the file that is still running elsewhere
//! is never touched. The moves are renames in one file system; a part is moved aside before
//! its record and back after it, so a part is in a rows folder only while its record is in
//! `jobs/`, and a run killed between two renames is completed by the next run. Shards of one
//! file run `tidy` side by side: a file another shard moved first is skipped.

use anyhow::{Context, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The folder of an experiment's results folder that holds the files of jobs its file no
/// longer has.
pub const OLDER_JOBS: &str = "older-jobs";

/// Folders of a results folder that hold no job's files by its name (or whose files are not
/// moved: a running job's batches, the report, shared solves).
const NOT_MOVED: [&str; 4] = [OLDER_JOBS, "partial", "report", "shared-solves"];

/// What `tidy` moved: jobs set aside into `older-jobs/` and jobs brought back from it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Tidied {
    pub set_aside: usize,
    pub brought_back: usize,
}

/// The job a file of a results folder belongs to, from its name: `part-<job>.ext`,
/// `<job>.json`, `<job>.txt`, `<job>.weights`, `<job>.<folder>.json`, `<job>-<agent>.log`
/// (a job's hash is 16 hex digits).
fn job_of(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("part-").unwrap_or(name);
    let hash = rest.get(..16)?;
    let next = rest[16..].chars().next()?;
    (hash.bytes().all(|b| b.is_ascii_hexdigit()) && (next == '.' || next == '-')).then_some(hash)
}

/// A job's files in one results folder (the experiment's, or its `older-jobs/`), by the
/// folder each is in (`jobs`, `games`, ...) and whether it is a part.
#[derive(Default)]
struct JobFilesFound {
    /// (folder name, file name, is a part).
    files: Vec<(String, String, bool)>,
}

impl JobFilesFound {
    fn has_part(&self) -> bool {
        self.files.iter().any(|(_, _, part)| *part)
    }
}

/// The job files under `root` (an experiment's results folder or its `older-jobs/`), by job:
/// regular files in its direct subfolders, links and deeper folders left alone.
fn job_files(root: &Path) -> Result<BTreeMap<String, JobFilesFound>> {
    let mut found: BTreeMap<String, JobFilesFound> = BTreeMap::new();
    let entries = match std::fs::read_dir(root) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(e).with_context(|| format!("reading {}", root.display())),
    };
    for entry in entries {
        let entry = entry.with_context(|| format!("reading {}", root.display()))?;
        let folder = entry.file_name().to_string_lossy().into_owned();
        if NOT_MOVED.contains(&folder.as_str()) || !entry.file_type()?.is_dir() {
            continue;
        }
        let dir = entry.path();
        for file in std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
            let file = file.with_context(|| format!("reading {}", dir.display()))?;
            let name = file.file_name().to_string_lossy().into_owned();
            if !file.file_type()?.is_file() || name.starts_with('.') {
                continue;
            }
            if let Some(job) = job_of(&name) {
                let part = name.starts_with("part-");
                found
                    .entry(job.to_string())
                    .or_default()
                    .files
                    .push((folder.clone(), name, part));
            }
        }
    }
    Ok(found)
}

/// Renames `from` to `to` (making `to`'s folder); a `from` that is gone (moved by another
/// shard's `tidy`) is no error.
fn move_file(from: &Path, to: &Path) -> Result<()> {
    if let Some(dir) = to.parent() {
        crate::durable::create_dir_all_shared(dir)
            .with_context(|| format!("making {}", dir.display()))?;
    }
    match std::fs::rename(from, to) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        r => r.with_context(|| format!("moving {} to {}", from.display(), to.display())),
    }
}

/// Moves a job's files from `from` to `to` (results folders of the same layout): the parts
/// first when `parts_first`, else last.
fn move_job(found: &JobFilesFound, from: &Path, to: &Path, parts_first: bool) -> Result<()> {
    let mut files: Vec<&(String, String, bool)> = found.files.iter().collect();
    files.sort_by_key(|(_, _, part)| *part != parts_first);
    for (folder, name, _) in files {
        move_file(&from.join(folder).join(name), &to.join(folder).join(name))?;
    }
    Ok(())
}

/// Moves the finished jobs of `results` (an experiment's results folder) that are not in
/// `current` into `older-jobs/`, and the current jobs found there back (see the module docs).
/// A current job that finished again since it was set aside keeps its new files; the older
/// copy is removed.
pub fn tidy(results: &Path, current: &BTreeSet<&str>) -> Result<Tidied> {
    let older = older_jobs_dir(results);
    let mut tidied = Tidied::default();
    let here = job_files(results)?;
    let aside = job_files(&older)?;
    for (job, found) in &aside {
        if !current.contains(job.as_str()) {
            continue;
        }
        if here.get(job).is_some_and(JobFilesFound::has_part) {
            for (folder, name, _) in &found.files {
                let path = older.join(folder).join(name);
                match std::fs::remove_file(&path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        return Err(e).with_context(|| format!("removing {}", path.display()));
                    }
                    _ => {}
                }
            }
            continue;
        }
        move_job(found, &older, results, false)?;
        tidied.brought_back += 1;
    }
    for (job, found) in &here {
        if current.contains(job.as_str()) {
            continue;
        }
        let half_moved = aside.get(job).is_some_and(JobFilesFound::has_part);
        if found.has_part() {
            move_job(found, results, &older, true)?;
            tidied.set_aside += 1;
        } else if half_moved {
            move_job(found, results, &older, true)?;
        }
    }
    Ok(tidied)
}

/// The `older-jobs/` folder of an experiment's results folder.
pub fn older_jobs_dir(results: &Path) -> PathBuf {
    results.join(OLDER_JOBS)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "00000000000000aa";
    const NEW: &str = "00000000000000bb";
    const RUNNING: &str = "00000000000000cc";

    fn write(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, path.to_string_lossy().as_bytes()).unwrap();
    }

    fn finished(results: &Path, job: &str) {
        write(&results.join("games").join(format!("part-{job}.parquet")));
        write(&results.join("jobs").join(format!("{job}.json")));
        write(&results.join("checked").join(format!("{job}.games.json")));
        write(&results.join("logs").join(format!("{job}-mine.log")));
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .map(|d| {
                d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    }

    #[test]
    fn job_files_are_told_by_their_names() {
        assert_eq!(
            job_of("part-0123456789abcdef.parquet"),
            Some("0123456789abcdef")
        );
        assert_eq!(
            job_of("0123456789abcdef.games.json"),
            Some("0123456789abcdef")
        );
        assert_eq!(
            job_of("0123456789abcdef-stockfish.log"),
            Some("0123456789abcdef")
        );
        assert_eq!(job_of("0123456789abcdef0123.json"), None);
        assert_eq!(job_of("0123456789abcdeg.json"), None);
        assert_eq!(job_of("run.lock"), None);
    }

    #[test]
    fn older_jobs_go_aside_and_come_back_when_current_again() {
        let tmp = tempfile::tempdir().unwrap();
        let r = tmp.path();
        finished(r, OLD);
        finished(r, NEW);
        // A job of another version still running: its record and batches, no part.
        write(&r.join("jobs").join(format!("{RUNNING}.json")));
        write(&r.join("partial").join(RUNNING).join("batch-0.parquet"));
        write(&r.join("run.lock"));

        let t = tidy(r, &BTreeSet::from([NEW])).unwrap();
        assert_eq!(
            t,
            Tidied {
                set_aside: 1,
                brought_back: 0
            }
        );
        assert_eq!(names(&r.join("games")), vec![format!("part-{NEW}.parquet")]);
        assert_eq!(
            names(&r.join("jobs")),
            vec![format!("{NEW}.json"), format!("{RUNNING}.json")]
        );
        assert!(
            r.join("partial")
                .join(RUNNING)
                .join("batch-0.parquet")
                .exists()
        );
        let older = older_jobs_dir(r);
        assert_eq!(
            names(&older.join("games")),
            vec![format!("part-{OLD}.parquet")]
        );
        assert_eq!(names(&older.join("jobs")), vec![format!("{OLD}.json")]);
        assert_eq!(names(&older.join("logs")), vec![format!("{OLD}-mine.log")]);
        // The bytes moved, not copied.
        let part = older.join("games").join(format!("part-{OLD}.parquet"));
        assert!(
            std::fs::read_to_string(&part)
                .unwrap()
                .ends_with(&format!("games/part-{OLD}.parquet"))
        );

        // Tidy again: nothing to do.
        assert_eq!(tidy(r, &BTreeSet::from([NEW])).unwrap(), Tidied::default());

        // The file edited back: OLD is current again, NEW goes aside.
        let t = tidy(r, &BTreeSet::from([OLD])).unwrap();
        assert_eq!(
            t,
            Tidied {
                set_aside: 1,
                brought_back: 1
            }
        );
        assert_eq!(names(&r.join("games")), vec![format!("part-{OLD}.parquet")]);
        assert_eq!(names(&r.join("checked")), vec![format!("{OLD}.games.json")]);
        assert_eq!(
            names(&older.join("games")),
            vec![format!("part-{NEW}.parquet")]
        );
        assert!(names(&older.join("jobs")).contains(&format!("{NEW}.json")));
        assert!(!names(&older.join("jobs")).contains(&format!("{OLD}.json")));
    }

    #[test]
    fn a_move_killed_part_way_is_completed() {
        let tmp = tempfile::tempdir().unwrap();
        let r = tmp.path();
        let older = older_jobs_dir(r);
        // Set aside killed after the part moved: its record is still in jobs/.
        write(&older.join("games").join(format!("part-{OLD}.parquet")));
        write(&r.join("jobs").join(format!("{OLD}.json")));
        tidy(r, &BTreeSet::new()).unwrap();
        assert!(names(&r.join("jobs")).is_empty());
        assert_eq!(names(&older.join("jobs")), vec![format!("{OLD}.json")]);

        // Brought back killed after the record moved: the part follows.
        std::fs::rename(
            older.join("jobs").join(format!("{OLD}.json")),
            r.join("jobs").join(format!("{OLD}.json")),
        )
        .unwrap();
        let t = tidy(r, &BTreeSet::from([OLD])).unwrap();
        assert_eq!(t.brought_back, 1);
        assert_eq!(names(&r.join("games")), vec![format!("part-{OLD}.parquet")]);
        assert!(names(&older.join("games")).is_empty());
    }

    #[test]
    fn a_job_finished_again_keeps_its_new_files() {
        let tmp = tempfile::tempdir().unwrap();
        let r = tmp.path();
        let older = older_jobs_dir(r);
        finished(&older, OLD);
        std::fs::write(
            older.join("games").join(format!("part-{OLD}.parquet")),
            "old",
        )
        .unwrap();
        finished(r, OLD);
        tidy(r, &BTreeSet::from([OLD])).unwrap();
        let part = r.join("games").join(format!("part-{OLD}.parquet"));
        assert_ne!(std::fs::read_to_string(part).unwrap(), "old");
        assert!(names(&older.join("games")).is_empty());
    }
}
