//! Durable files: what a kill -9, a full disk or a second process at the same time may not
//! break. Shared by the engines' file writers (problem libraries), the runner and the report;
//! it knows nothing of either.
//!
//! - `write_atomic`: a file is written to a temporary name in its folder, synced, and renamed,
//!   so a reader sees the old file or the new one, never half of one.
//! - `replace_folder`: a folder of outputs (a report with its tables and figures) is built
//!   beside the old one and swapped in by one rename of a symbolic link, so a reader sees the
//!   old set or the new set, never a mix.
//! - `FolderLock`: an advisory lock (flock) on a file in a folder, released by the kernel when
//!   its holder dies, naming the holder's pid in its message.

use anyhow::{Context, Result};
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The temporary name `write_atomic` uses for `path` in this process.
fn temp_name(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// Writes `path` through a temporary file in the same folder and a rename. On an error (a full
/// disk, say) the temporary file is removed and `path` is left as it was.
pub fn write_atomic(path: &Path, write: impl FnOnce(&mut File) -> Result<()>) -> Result<()> {
    write_atomic_then(path, write, |_| Ok(()))
}

/// `write_atomic`, with `before_rename` called on the written (and synced) temporary file just
/// before it is renamed into place; an error there leaves `path` as it was.
pub fn write_atomic_then(path: &Path, write: impl FnOnce(&mut File) -> Result<()>, before_rename: impl FnOnce(&mut File) -> Result<()>) -> Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let tmp = temp_name(path);
    let result = (|| -> Result<()> {
        let mut f = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(true).open(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        write(&mut f).with_context(|| format!("writing {}", path.display()))?;
        f.flush()?;
        f.sync_all().with_context(|| format!("writing {}", path.display()))?;
        before_rename(&mut f)
    })();
    if let Err(e) = result {
        std::fs::remove_file(&tmp).ok();
        return Err(e);
    }
    std::fs::rename(&tmp, path).with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))
}

/// `write_atomic` for bytes already in memory.
pub fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic(path, |f| Ok(f.write_all(bytes)?))
}

/// Removes the temporary files a killed writer of `path` left behind. Call it only for a file
/// no other live process is writing (the runner holds the lock of the job's folder).
pub fn remove_stale_temps(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return };
    let prefix = format!(".{}.tmp-", name.to_string_lossy());
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with(&prefix) {
                std::fs::remove_file(e.path()).ok();
            }
        }
    }
}

/// Builds a new version of the folder `link` names and swaps it in.
///
/// `link` is a symbolic link to a hidden sibling folder `.<name>.<stamp>`; `build` fills a fresh
/// such folder, and a new link is renamed over `link` (one atomic rename). The old folder is
/// removed afterwards; folders a killed build left behind are removed on the next call. If
/// `link` exists as a real folder (written by an older version), it is replaced the same way
/// after the new folder is complete.
pub fn replace_folder<T>(link: &Path, build: impl FnOnce(&Path) -> Result<T>) -> Result<T> {
    let parent = link.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = link.file_name().context("a folder to replace has a name")?.to_string_lossy().into_owned();
    std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    let current = std::fs::read_link(link).ok();
    // Folders of earlier builds that no link names any more (a killed report left them).
    let prefix = format!(".{name}.");
    if let Ok(entries) = std::fs::read_dir(parent) {
        for e in entries.flatten() {
            let file = e.file_name().to_string_lossy().into_owned();
            let named = current.as_ref().is_some_and(|c| c.as_os_str() == e.file_name());
            if file.starts_with(&prefix) && !named && !file.contains(".link-") {
                std::fs::remove_dir_all(e.path()).ok();
            }
            if file.starts_with(&prefix) && file.contains(".link-") {
                std::fs::remove_file(e.path()).ok();
            }
        }
    }
    let stamp = format!("{}-{}", std::process::id(), std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0));
    let fresh_name = format!(".{name}.{stamp}");
    let fresh = parent.join(&fresh_name);
    std::fs::create_dir_all(&fresh).with_context(|| format!("creating {}", fresh.display()))?;
    let built = match build(&fresh) {
        Ok(t) => t,
        Err(e) => {
            std::fs::remove_dir_all(&fresh).ok();
            return Err(e);
        }
    };
    sync_tree(&fresh);
    let new_link = parent.join(format!(".{name}.link-{stamp}"));
    std::os::unix::fs::symlink(&fresh_name, &new_link).with_context(|| format!("creating {}", new_link.display()))?;
    // A real folder of an older layout cannot be replaced by a rename of a link: move it aside first.
    let old_real = link.is_dir() && current.is_none();
    if old_real {
        let aside = parent.join(format!(".{name}.old-{stamp}"));
        std::fs::rename(link, &aside).with_context(|| format!("moving {} aside", link.display()))?;
    }
    std::fs::rename(&new_link, link).with_context(|| format!("renaming {} to {}", new_link.display(), link.display()))?;
    if let Some(old) = current {
        std::fs::remove_dir_all(parent.join(old)).ok();
    }
    if old_real {
        std::fs::remove_dir_all(parent.join(format!(".{name}.old-{stamp}"))).ok();
    }
    Ok(built)
}

/// Flushes every file under `dir` to disk (best effort), so a crash after the swap does not
/// leave empty files behind the new link.
fn sync_tree(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                sync_tree(&p);
            } else if let Ok(f) = File::open(&p) {
                f.sync_all().ok();
            }
        }
    }
}

/// A lock held on a file; released when dropped or when the process dies.
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
    pub path: PathBuf,
}

/// Who holds a lock, as its holder wrote it in the lock file ("pid 123 (gamelab run x.toml)").
fn holder(path: &Path) -> String {
    let mut text = String::new();
    if let Ok(mut f) = File::open(path) {
        f.read_to_string(&mut text).ok();
    }
    let text = text.trim();
    if text.is_empty() { "another process".into() } else { text.to_string() }
}

/// How a lock is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockMode {
    /// One holder at a time.
    Exclusive,
    /// Any number of shared holders, never beside an exclusive one.
    Shared,
}

/// A lock could not be taken: someone else holds it.
#[derive(Debug, thiserror::Error)]
#[error("{path} is locked by {holder}")]
pub struct Locked {
    pub path: PathBuf,
    pub holder: String,
}

impl FolderLock {
    /// Takes the lock on `path` (created if missing) without waiting; `who` is written into the
    /// file by an exclusive holder so that the next one can name it.
    pub fn try_lock(path: &Path, mode: LockMode, who: &str) -> Result<FolderLock> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let mut file = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path).with_context(|| format!("opening {}", path.display()))?;
        let taken = match mode {
            LockMode::Exclusive => file.try_lock(),
            LockMode::Shared => file.try_lock_shared(),
        };
        match taken {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Err(Locked { path: path.to_path_buf(), holder: holder(path) }.into()),
            Err(std::fs::TryLockError::Error(e)) => return Err(e).with_context(|| format!("locking {}", path.display())),
        }
        if mode == LockMode::Exclusive {
            file.set_len(0)?;
            file.rewind()?;
            writeln!(file, "pid {} ({who})", std::process::id())?;
            file.flush()?;
        }
        Ok(FolderLock { _file: file, path: path.to_path_buf() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_atomic_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        write_bytes_atomic(&p, b"old").unwrap();
        let err = write_atomic(&p, |f| {
            f.write_all(b"half")?;
            anyhow::bail!("disk full")
        });
        assert!(err.is_err());
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary left");
    }

    #[test]
    fn a_replaced_folder_is_the_old_or_the_new_one() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("report");
        replace_folder(&link, |d| write_bytes_atomic(&d.join("a"), b"1")).unwrap();
        assert_eq!(std::fs::read(link.join("a")).unwrap(), b"1");
        // A build that fails leaves the old folder in place and nothing beside it.
        let err: Result<()> = replace_folder(&link, |d| {
            write_bytes_atomic(&d.join("a"), b"2")?;
            anyhow::bail!("no space left")
        });
        assert!(err.is_err());
        assert_eq!(std::fs::read(link.join("a")).unwrap(), b"1");
        replace_folder(&link, |d| write_bytes_atomic(&d.join("b"), b"3")).unwrap();
        assert!(!link.join("a").exists(), "the new set only");
        assert_eq!(std::fs::read(link.join("b")).unwrap(), b"3");
        let names: Vec<String> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names.len(), 2, "the link and one folder: {names:?}");
    }

    #[test]
    fn a_real_folder_of_the_old_layout_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("figs");
        std::fs::create_dir_all(&link).unwrap();
        std::fs::write(link.join("old.png"), b"x").unwrap();
        replace_folder(&link, |d| write_bytes_atomic(&d.join("new.png"), b"y")).unwrap();
        assert!(!link.join("old.png").exists());
        assert!(link.join("new.png").exists());
    }

    #[test]
    fn an_exclusive_lock_names_its_holder_and_excludes_shared_ones() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("run.lock");
        let held = FolderLock::try_lock(&p, LockMode::Exclusive, "gamelab run x.toml").unwrap();
        let err = FolderLock::try_lock(&p, LockMode::Shared, "other").unwrap_err().to_string();
        assert!(err.contains(&format!("pid {} (gamelab run x.toml)", std::process::id())), "{err}");
        drop(held);
        let a = FolderLock::try_lock(&p, LockMode::Shared, "a").unwrap();
        let _b = FolderLock::try_lock(&p, LockMode::Shared, "b").unwrap();
        assert!(FolderLock::try_lock(&p, LockMode::Exclusive, "c").is_err());
        drop(a);
    }
}
