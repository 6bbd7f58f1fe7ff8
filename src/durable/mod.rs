//! Durable files: what a kill -9, a full disk or a second process at the same time may not
//! break. Shared by the engines' file writers (problem libraries), the runner and the report;
//! it knows nothing of either.
//!
//! - `write_atomic`: a file is written to a temporary name in its folder, synced, and renamed,
//!   so a reader sees the old file or the new one, never half of one. A write that fails with
//!   less than 4 MB left on the device says the disk is full, naming the folder.
//!   `write_bytes_unsynced` is the same without the sync, for a small file rewritten every
//!   second (a run's clock).
//! - `replace_folder`: a folder of outputs (a report with its tables and figures) is built
//!   beside the old one and swapped in by one rename of a symbolic link, so a reader sees the
//!   old set or the new set, never a mix.
//! - Removal only of what gamelab made: `replace_folder` deletes only its own stamped sibling
//!   builds, and `remove_own_folder` only a folder of plain files whose names the caller owns.
//!   A link, folder or file in gamelab's place that is not its own is refused (an `InputError`,
//!   exit 2, naming it) and never followed. No other code calls `remove_dir_all` on a path
//!   that input or the file system could point elsewhere.
//! - Seals: a file gamelab reads back (a GA's best table, trained weights, a checkpoint, a
//!   generated problem-library file) ends
//!   with `# seal xxh3 <hash>` over everything before it (`sealed`); `check_seal` tells an
//!   intact file from one changed since (exit 2 naming it where it is read).
//! - `FolderLock`: an advisory lock (flock) on a file in a folder, released by the kernel when
//!   its holder dies, naming the holder's pid in its message; one marked
//!   `remove_when_released` takes its file with it (also on Ctrl-C: `remove_lock_files_now`).
//!
//! The concepts each have a file: the writes here (`write_atomic`, bounded input reads, safe
//! names), `seal.rs`, `folder.rs` (replacing and removing gamelab's own folders) and `lock.rs`
//! (`FolderLock` and the holder of a lock); their items are re-exported here.

mod folder;
mod lock;
mod seal;
#[cfg(test)]
mod tests;

pub use folder::*;
pub use lock::*;
pub use seal::*;

use anyhow::{Context, Result};
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Free space under which a failed write is reported as a full disk.
const DISK_FULL_BELOW: u64 = 4 << 20;

/// The bytes free for an unprivileged writer on the file system of `dir`, if it can be asked.
fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is a NUL-terminated path and `st` a valid statvfs to fill.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    Some(st.f_bavail as u64 * st.f_frsize as u64)
}

/// The temporary name `write_atomic` uses for `path` in this process.
fn temp_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// Writes `path` through a temporary file in the same folder and a rename. On an error (a full
/// disk, say) the temporary file is removed and `path` is left as it was.
pub fn write_atomic(path: &Path, write: impl FnOnce(&mut File) -> Result<()>) -> Result<()> {
    write_atomic_then(path, write, |_| Ok(()))
}

/// `write_atomic`, with `before_rename` called on the written (and synced) temporary file just
/// before it is renamed into place; an error there leaves `path` as it was.
pub fn write_atomic_then(
    path: &Path,
    write: impl FnOnce(&mut File) -> Result<()>,
    before_rename: impl FnOnce(&mut File) -> Result<()>,
) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    create_dir_all_shared(dir).with_context(|| format!("creating {}", dir.display()))?;
    let tmp = temp_name(path);
    let result = (|| -> Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)
            .with_context(|| format!("creating {}", tmp.display()))?;
        write(&mut f).with_context(|| format!("writing {}", path.display()))?;
        f.flush()?;
        f.sync_all()
            .with_context(|| format!("writing {}", path.display()))?;
        before_rename(&mut f)
    })();
    if let Err(e) = result {
        // A writer that fails on a full disk does not always say so (polars' Parquet writer
        // reports "Invalid thrift: transport error"): name the cause where the disk is full.
        std::fs::remove_file(&tmp).ok();
        let full = free_bytes(dir).is_some_and(|free| free < DISK_FULL_BELOW);
        return Err(if full { name_full_disk(e, dir) } else { e });
    }
    std::fs::rename(&tmp, path)
        .with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))
}

/// `e`, said to come from a full disk where it does (an error of "no space left" in its chain,
/// or `dir`'s device nearly full), naming the folder and its free space; an error that already
/// says so is left as it is (one writer inside another names it once).
pub fn name_full_disk(e: anyhow::Error, dir: &Path) -> anyhow::Error {
    const NAMED: &str = "no space left on the device of";
    if e.chain().any(|c| c.to_string().starts_with(NAMED)) {
        return e;
    }
    let enospc = e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.raw_os_error() == Some(28))
            || c.to_string().contains("No space left on device")
    });
    match free_bytes(dir) {
        Some(free) if enospc || free < DISK_FULL_BELOW => e.context(format!(
            "{NAMED} {}: {} KB free",
            dir.display(),
            free / 1024
        )),
        _ => e,
    }
}

/// `write_bytes_atomic` without the sync: for a small file rewritten often (a run's clock, each
/// second), where a reader must see one whole version and a killed process loses nothing, but a
/// machine that crashes may set the file back to an earlier version. Its temporary name is
/// `write_atomic`'s (`remove_stale_temps` finds one left by a kill).
pub fn write_bytes_unsynced(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = temp_name(path);
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| {
            std::fs::remove_file(&tmp).ok();
            name_full_disk(e.into(), path.parent().unwrap_or(Path::new(".")))
        })
        .with_context(|| format!("writing {}", path.display()))
}

/// `write_atomic` for bytes already in memory.
pub fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic(path, |f| Ok(f.write_all(bytes)?))
}

/// Removes the temporary files a killed writer of `path` left behind. Call it only for a file
/// no other live process is writing (the runner holds the lock of the job's folder).
pub fn remove_stale_temps(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let prefix = format!(".{}.tmp-", name.to_string_lossy());
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with(&prefix) {
                std::fs::remove_file(e.path()).ok();
            }
        }
    }
}

/// `name` as one path component that stays where it is joined: letters, digits, `-`, `_` and
/// `.` kept, anything else (a slash, a line break) as `_`, no leading `.` (so never `..`),
/// never empty. Every path gamelab builds from input joins its parts through this, a second
/// fence behind the checks at load (experiment names, agent labels, table and figure names:
/// exit 2 there), so no input can place a file outside `--out`.
pub fn safe_component(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    while s.starts_with('.') {
        s.replace_range(..1, "_");
    }
    if s.is_empty() { "_".into() } else { s }
}

/// Largest input file gamelab reads (experiment files, tables, stages, openings, problem
/// files, weights): 64 MiB. Past it, or for anything that is not a regular file (a device
/// such as /dev/zero, a pipe, a folder), the read is refused without reading it.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Reads an input file the user named: a regular file of at most `MAX_INPUT_BYTES`, else an
/// error saying which (for the caller to name the key or option).
pub fn read_input(path: &Path) -> std::result::Result<String, String> {
    let meta =
        std::fs::metadata(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    if meta.len() > MAX_INPUT_BYTES {
        return Err(format!(
            "{} has {} bytes; input files are at most {} MiB",
            path.display(),
            meta.len(),
            MAX_INPUT_BYTES >> 20
        ));
    }
    let mut text = String::new();
    File::open(path)
        .and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_string(&mut text))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if text.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!(
            "{} grew past {} MiB while being read",
            path.display(),
            MAX_INPUT_BYTES >> 20
        ));
    }
    Ok(text)
}

/// `create_dir_all`, made again when another process removed a parent meanwhile: shards of one
/// run share `partial/`, and the one whose job ends last removes it once it is empty
/// (`stream::remove_batches`), possibly between this process making `partial/` and its job's
/// folder inside. Once the job's folder exists, `partial/` is not empty and stays.
pub fn create_dir_all_shared(dir: &Path) -> std::io::Result<()> {
    let mut tries = 0;
    loop {
        match std::fs::create_dir_all(dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && tries < 100 => tries += 1,
            done => return done,
        }
    }
}
