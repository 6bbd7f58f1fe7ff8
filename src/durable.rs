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

const SEAL_PREFIX: &str = "# seal xxh3 ";

/// `text` followed by its seal line (`# seal xxh3 <hex>`, over `text` exactly).
pub fn sealed(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    out.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        out.push('\n');
    }
    let body_len = out.len();
    let h = xxhash_rust::xxh3::xxh3_64(out[..body_len].as_bytes());
    out.push_str(&format!("{SEAL_PREFIX}{h:016x}\n"));
    out
}

/// What a file's seal says: `Some((body, true))` for a sealed, unchanged file (`body` without
/// the seal line), `Some((body, false))` for one changed since it was sealed, `None` for a file
/// without a seal (not written by gamelab, or written before seals).
pub fn check_seal(text: &str) -> Option<(&str, bool)> {
    let trimmed = text.strip_suffix('\n').unwrap_or(text);
    let at = trimmed.rfind('\n').map_or(0, |i| i + 1);
    let hex = trimmed[at..].strip_prefix(SEAL_PREFIX)?;
    let body = &text[..at];
    let ok = u64::from_str_radix(hex.trim(), 16)
        .is_ok_and(|h| h == xxhash_rust::xxh3::xxh3_64(body.as_bytes()));
    Some((body, ok))
}

/// The body of a sealed text (the whole text for one without a seal, as an older gamelab or a
/// user wrote it), or the message for one changed since it was sealed.
pub fn unsealed<'a>(
    path: &Path,
    text: &'a str,
    what: &str,
) -> std::result::Result<&'a str, String> {
    match check_seal(text) {
        Some((body, true)) => Ok(body),
        Some((_, false)) => Err(changed_message(path, what)),
        None => Ok(text),
    }
}

/// Reads back a file gamelab sealed (`read_input`, then `unsealed`): its body, or an error
/// naming the file (an `InputError`: exit 2).
pub fn read_sealed(path: &Path, what: &str) -> Result<String> {
    let input_error = |message: String| -> anyhow::Error {
        crate::experiment::InputError {
            file: Some(path.to_path_buf()),
            line_col: None,
            key: None,
            message,
        }
        .into()
    };
    let text = read_input(path).map_err(input_error)?;
    unsealed(path, &text, what)
        .map(str::to_string)
        .map_err(input_error)
}

fn changed_message(path: &Path, what: &str) -> String {
    format!(
        "{what} ({}) was changed after gamelab wrote it (its seal does not match): run its job again (remove the file and its job's rows) rather than edit it",
        path.display()
    )
}

/// The error for a sealed file changed since gamelab wrote it.
pub fn changed_error(path: &Path, what: &str) -> anyhow::Error {
    crate::experiment::InputError {
        file: Some(path.to_path_buf()),
        line_col: None,
        key: None,
        message: changed_message(path, what),
    }
    .into()
}

/// Builds a new version of the folder `link` names and swaps it in.
///
/// `link` is a symbolic link to a hidden sibling folder `.<name>.<pid>-<nanos>`; `build` fills a
/// fresh such folder, and a new link is renamed over `link` (one atomic rename). The old folder
/// is removed afterwards; folders a killed build left behind are removed on the next call.
///
/// Only what this function made is ever removed: sibling folders named `.<name>.<pid>-<nanos>`
/// (real folders, not links), and the link's old target only when it is such a sibling. A
/// `link` that is anything else (a real folder, a file, a link to another place: the user's
/// own) is refused with an `InputError` naming it, before anything is written or removed.
pub fn replace_folder<T>(link: &Path, build: impl FnOnce(&Path) -> Result<T>) -> Result<T> {
    let parent = link
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = link
        .file_name()
        .context("a folder to replace has a name")?
        .to_string_lossy()
        .into_owned();
    let current = own_link_target(link, &name)?;
    std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    // Folders of earlier builds that no link names any more (a killed report left them), and
    // links a killed swap left.
    if let Ok(entries) = std::fs::read_dir(parent) {
        for e in entries.flatten() {
            let file = e.file_name().to_string_lossy().into_owned();
            let Ok(meta) = std::fs::symlink_metadata(e.path()) else {
                continue;
            };
            let named = current.as_deref() == Some(file.as_str());
            if is_own_build(&file, &name) && meta.is_dir() && !named {
                std::fs::remove_dir_all(e.path()).ok();
            }
            if is_own_swap_link(&file, &name) && meta.file_type().is_symlink() {
                std::fs::remove_file(e.path()).ok();
            }
        }
    }
    let stamp = format!(
        "{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    );
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
    std::os::unix::fs::symlink(&fresh_name, &new_link)
        .with_context(|| format!("creating {}", new_link.display()))?;
    std::fs::rename(&new_link, link)
        .with_context(|| format!("renaming {} to {}", new_link.display(), link.display()))?;
    if let Some(old) = current {
        let old = parent.join(old);
        if std::fs::symlink_metadata(&old).is_ok_and(|m| m.is_dir()) {
            std::fs::remove_dir_all(old).ok();
        }
    }
    Ok(built)
}

/// Whether `file` is a folder name `replace_folder` gives a build of `name`: `.<name>.<pid>-<nanos>`.
fn is_own_build(file: &str, name: &str) -> bool {
    is_stamped(file, name, ".")
}

/// Whether `file` is the name of a link `replace_folder` makes before its swap: `.<name>.link-<stamp>`.
fn is_own_swap_link(file: &str, name: &str) -> bool {
    is_stamped(file, name, ".link-")
}

/// Whether `file` is `.<name><infix><pid>-<nanos>`.
fn is_stamped(file: &str, name: &str, infix: &str) -> bool {
    file.strip_prefix('.')
        .and_then(|f| f.strip_prefix(name))
        .and_then(|f| f.strip_prefix(infix))
        .and_then(|stamp| stamp.split_once('-'))
        .is_some_and(|(pid, nanos)| is_digits(pid) && is_digits(nanos))
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// The folder name `link` points to when it is a link `replace_folder` made (to a sibling build
/// of its own); `None` when nothing is there. Anything else there is the user's: an error.
fn own_link_target(link: &Path, name: &str) -> Result<Option<String>> {
    let meta = match std::fs::symlink_metadata(link) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", link.display())),
        Ok(m) => m,
    };
    let refuse = |what: String| -> anyhow::Error {
        crate::experiment::InputError { file: Some(link.to_path_buf()), line_col: None, key: None, message: format!("{what}; gamelab writes this as a link to a folder of its own and removes only what it made: move it away and run again") }.into()
    };
    if !meta.file_type().is_symlink() {
        return Err(refuse(if meta.is_dir() {
            "is a folder gamelab did not make (an older gamelab's, or yours)".into()
        } else {
            "is a file gamelab did not make".into()
        }));
    }
    let target = std::fs::read_link(link).with_context(|| format!("reading {}", link.display()))?;
    match target.to_str() {
        Some(t) if is_own_build(t, name) => Ok(Some(t.to_string())),
        _ => Err(refuse(format!(
            "is a link to {}, not to a folder gamelab made",
            target.display()
        ))),
    }
}

/// Removes the folder `dir` that gamelab made and filled with files of its own (a job's
/// batches, say), file by file: every entry must be a plain file whose name `owns` accepts, else
/// nothing is removed and the error names the entry. A missing folder is no error; a link or a
/// file where the folder should be is refused (it is not gamelab's).
pub fn remove_own_folder(dir: &Path, owns: impl Fn(&str) -> bool) -> Result<()> {
    let refuse = |path: &Path, what: &str| -> anyhow::Error {
        crate::experiment::InputError {
            file: Some(path.to_path_buf()),
            line_col: None,
            key: None,
            message: format!(
                "{what}; gamelab removes only what it made: move it away and run again"
            ),
        }
        .into()
    };
    let meta = match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", dir.display())),
        Ok(m) => m,
    };
    if !meta.is_dir() {
        return Err(refuse(
            dir,
            if meta.file_type().is_symlink() {
                "is a link gamelab did not make"
            } else {
                "is a file where gamelab keeps a folder of its own"
            },
        ));
    }
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let e = e.with_context(|| format!("reading {}", dir.display()))?;
        let file = e.file_name().to_string_lossy().into_owned();
        let plain = std::fs::symlink_metadata(e.path()).is_ok_and(|m| m.is_file());
        if !plain || !owns(&file) {
            return Err(refuse(&e.path(), "is not a file gamelab made here"));
        }
        files.push(e.path());
    }
    for f in files {
        match std::fs::remove_file(&f) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("removing {}", f.display()));
            }
            _ => {}
        }
    }
    match std::fs::remove_dir(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("removing {}", dir.display()))
        }
        _ => Ok(()),
    }
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
    /// The file is removed when the lock is released (`remove_when_released`).
    remove: bool,
}

/// Lock files to remove when their holder ends, also when it ends on Ctrl-C
/// (`remove_lock_files_now`).
static REMOVED_AT_EXIT: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

impl FolderLock {
    /// The lock file goes when the lock is released (dropped, or the process interrupted:
    /// `remove_lock_files_now`), so that no lock file of a finished holder is left to be read as
    /// a running one. Only for an exclusive lock whose folder is also locked
    /// (`try_lock_folder`): a second process that opened the old file before it went takes a
    /// lock on a removed file, and the folder's lock still keeps it out.
    pub fn remove_when_released(&mut self) {
        self.remove = true;
        REMOVED_AT_EXIT
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(self.path.clone());
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        if self.remove {
            // Removed while still held, then released as the file closes.
            std::fs::remove_file(&self.path).ok();
            REMOVED_AT_EXIT
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .retain(|p| p != &self.path);
        }
    }
}

/// Removes the lock files of locks this process holds that go when released: for a Ctrl-C
/// handler about to exit (the exit releases the locks, but runs no destructor).
pub fn remove_lock_files_now() {
    for path in REMOVED_AT_EXIT
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .drain(..)
    {
        std::fs::remove_file(path).ok();
    }
}

/// This machine's name (as lock files name their holder's machine).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

/// The fields of `/proc/PID/stat` after the command's name (in parentheses, and it may hold
/// anything, spaces and parentheses too): `[0]` is the state (field 3 of proc(5)), `[11]` the
/// user time (field 14). None when no such process is here.
pub fn proc_stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    Some(rest.split_whitespace().map(str::to_string).collect())
}

/// Who last took a lock file exclusively, as its first line says: "pid 123 (gamelab run x.toml)
/// on host", followed by " in Slurm job 4567" when the holder ran inside a Slurm job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    pub pid: u32,
    /// The machine the holder ran on.
    pub host: String,
    /// Its Slurm job (`SLURM_JOB_ID`), which a process on another node can ask the queue about.
    pub slurm_job: Option<String>,
}

impl Holder {
    /// The line a holder writes into the lock file it took (and a run into its clock file).
    pub fn line(who: &str) -> String {
        let slurm = std::env::var("SLURM_JOB_ID")
            .ok()
            .filter(|j| !j.trim().is_empty())
            .map(|j| format!(" in Slurm job {}", j.trim()))
            .unwrap_or_default();
        format!(
            "pid {} ({who}) on {}{slurm}",
            std::process::id(),
            host_name()
        )
    }

    /// Whether this holder's process is gone, when it ran on this machine (None elsewhere: its
    /// pid means nothing here). A zombie (killed, not yet reaped by its parent) has ended.
    pub fn ended_here(&self) -> Option<bool> {
        (self.host == host_name()).then(|| {
            proc_stat_fields(self.pid).is_none_or(|fields| {
                fields
                    .first()
                    .is_some_and(|state| state == "Z" || state == "X")
            })
        })
    }

    /// Reads a holder's line back (None for an empty file or a line of another shape).
    pub fn parse(line: &str) -> Option<Holder> {
        let line = line.trim();
        let pid = line.strip_prefix("pid ")?.split(' ').next()?.parse().ok()?;
        let place = line.rsplit_once(") on ")?.1;
        let (host, slurm_job) = match place.split_once(" in Slurm job ") {
            Some((host, job)) => (host, Some(job.trim().to_string())),
            None => (place, None),
        };
        Some(Holder {
            pid,
            host: host.trim().to_string(),
            slurm_job,
        })
    }
}

/// The last exclusive holder of the lock file `path` (None: no file yet, or nothing readable in
/// it).
pub fn lock_holder(path: &Path) -> Option<Holder> {
    let text = std::fs::read_to_string(path).ok()?;
    Holder::parse(text.lines().next()?)
}

/// Whether the last exclusive holder of the lock file `path` is known to have ended: it wrote
/// this machine's name and its process is gone. None when that cannot be known here: no file
/// (nobody took the lock yet), or a holder on another machine (a shared file system; its Slurm
/// job, if it names one, is for `slurm::queue` to ask about).
pub fn holder_ended(path: &Path) -> Option<bool> {
    lock_holder(path)?.ended_here()
}

/// Who holds a lock, as its holder wrote it in the lock file ("pid 123 (gamelab run x.toml) on
/// host").
fn holder(path: &Path) -> String {
    let mut text = String::new();
    if let Ok(mut f) = File::open(path) {
        f.read_to_string(&mut text).ok();
    }
    let text = text.trim();
    if text.is_empty() {
        "another process".into()
    } else {
        text.to_string()
    }
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
    /// Takes the lock on folder `dir` itself (its own inode, which removing a file in it cannot
    /// replace: a lock on a file alone is lost to a second process once the file is removed
    /// and made again) without waiting.
    pub fn try_lock_folder(dir: &Path, mode: LockMode) -> Result<FolderLock> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let file = File::open(dir).with_context(|| format!("opening {}", dir.display()))?;
        let taken = match mode {
            LockMode::Exclusive => file.try_lock(),
            LockMode::Shared => file.try_lock_shared(),
        };
        match taken {
            Ok(()) => Ok(FolderLock {
                _file: file,
                path: dir.to_path_buf(),
                remove: false,
            }),
            Err(std::fs::TryLockError::WouldBlock) => {
                anyhow::bail!("{} is locked by another process", dir.display())
            }
            Err(std::fs::TryLockError::Error(e)) => {
                Err(e).with_context(|| format!("locking {}", dir.display()))
            }
        }
    }

    /// Takes the lock on `path` (created if missing) without waiting; `who` is written into the
    /// file by an exclusive holder so that the next one can name it.
    pub fn try_lock(path: &Path, mode: LockMode, who: &str) -> Result<FolderLock> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        let taken = match mode {
            LockMode::Exclusive => file.try_lock(),
            LockMode::Shared => file.try_lock_shared(),
        };
        match taken {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(Locked {
                    path: path.to_path_buf(),
                    holder: holder(path),
                }
                .into());
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("locking {}", path.display()));
            }
        }
        if mode == LockMode::Exclusive {
            file.set_len(0)?;
            file.rewind()?;
            writeln!(file, "{}", Holder::line(who))?;
            file.flush()?;
        }
        Ok(FolderLock {
            _file: file,
            path: path.to_path_buf(),
            remove: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full disk is named once, with the folder, however deep the writer that met it; other
    /// errors pass as they are (where the folder's disk has room).
    #[test]
    fn a_full_disk_is_named_once_with_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let enospc = anyhow::Error::from(std::io::Error::from_raw_os_error(28));
        let named = name_full_disk(enospc.context("writing x"), dir.path());
        let text = format!("{named:#}");
        assert!(
            text.starts_with(&format!(
                "no space left on the device of {}: ",
                dir.path().display()
            )),
            "{text}"
        );
        let outer = name_full_disk(named.context("writing y"), Path::new("/"));
        assert_eq!(
            format!("{outer:#}")
                .matches("no space left on the device of")
                .count(),
            1
        );
        if free_bytes(dir.path()).is_some_and(|f| f >= DISK_FULL_BELOW) {
            let other = name_full_disk(anyhow::anyhow!("permission denied"), dir.path());
            assert_eq!(format!("{other:#}"), "permission denied");
        }
    }

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
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary left"
        );
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
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "the link and one folder: {names:?}");
    }

    #[test]
    fn a_folder_or_link_gamelab_did_not_make_is_refused_and_survives() {
        let dir = tempfile::tempdir().unwrap();
        // A real folder where the link belongs (the user's, or an older layout's).
        let real = dir.path().join("figs");
        std::fs::create_dir_all(&real).unwrap();
        std::fs::write(real.join("mine.png"), b"x").unwrap();
        let err =
            replace_folder(&real, |d| write_bytes_atomic(&d.join("new.png"), b"y")).unwrap_err();
        assert!(
            err.downcast_ref::<crate::experiment::InputError>()
                .is_some(),
            "{err:#}"
        );
        assert!(err.to_string().contains("figs"), "{err}");
        assert_eq!(std::fs::read(real.join("mine.png")).unwrap(), b"x");
        // A link to the user's own folder, outside and beside: never followed for deletion.
        let paper = dir.path().join("paper");
        std::fs::create_dir_all(&paper).unwrap();
        std::fs::write(paper.join("draft.tex"), b"text").unwrap();
        for target in [
            paper.clone(),
            PathBuf::from("paper"),
            PathBuf::from(".report.1-2/../paper"),
        ] {
            let link = dir.path().join("report");
            std::fs::remove_file(&link).ok();
            std::os::unix::fs::symlink(&target, &link).unwrap();
            let err =
                replace_folder(&link, |d| write_bytes_atomic(&d.join("a"), b"1")).unwrap_err();
            assert!(
                err.downcast_ref::<crate::experiment::InputError>()
                    .is_some(),
                "{err:#}"
            );
            assert_eq!(
                std::fs::read(paper.join("draft.tex")).unwrap(),
                b"text",
                "the user's folder survives a link {target:?}"
            );
            assert_eq!(
                std::fs::read_link(&link).unwrap(),
                target,
                "the user's link is left as it was"
            );
        }
        // Siblings that only look like ours (a link, a name without the stamp) are left alone.
        let link = dir.path().join("out");
        std::os::unix::fs::symlink(&paper, dir.path().join(".out.1-2")).unwrap();
        std::fs::create_dir_all(dir.path().join(".out.notes")).unwrap();
        replace_folder(&link, |d| write_bytes_atomic(&d.join("a"), b"1")).unwrap();
        replace_folder(&link, |d| write_bytes_atomic(&d.join("a"), b"2")).unwrap();
        assert_eq!(std::fs::read(link.join("a")).unwrap(), b"2");
        assert!(dir.path().join(".out.notes").is_dir());
        assert_eq!(
            std::fs::read(dir.path().join(".out.1-2").join("draft.tex")).unwrap(),
            b"text"
        );
    }

    #[test]
    fn input_files_are_regular_and_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.toml");
        std::fs::write(&p, "x = 1").unwrap();
        assert_eq!(read_input(&p).unwrap(), "x = 1");
        assert!(
            read_input(Path::new("/dev/zero"))
                .unwrap_err()
                .contains("not a regular file")
        );
        assert!(
            read_input(dir.path())
                .unwrap_err()
                .contains("not a regular file")
        );
        let big = dir.path().join("big");
        let f = File::create(&big).unwrap();
        f.set_len(MAX_INPUT_BYTES + 1).unwrap();
        assert!(read_input(&big).unwrap_err().contains("at most 64 MiB"));
    }

    #[test]
    fn a_safe_component_never_leaves_its_folder() {
        for (name, safe) in [
            ("small", "small"),
            ("a.b-c_d", "a.b-c_d"),
            ("../../x", "_._.._x"),
            ("..", "_."),
            (".hidden", "_hidden"),
            ("", "_"),
            ("two\nlines", "two_lines"),
            ("/etc/passwd", "_etc_passwd"),
        ] {
            assert_eq!(safe_component(name), safe, "{name:?}");
            let joined = Path::new("/out").join(safe_component(name));
            assert_eq!(joined.parent(), Some(Path::new("/out")), "{name:?}");
        }
    }

    #[test]
    fn a_seal_tells_an_intact_file_from_a_changed_one() {
        let text = "# best table\n1 2\n3 4\n";
        let s = sealed(text);
        assert_eq!(check_seal(&s), Some((text, true)));
        assert_eq!(
            check_seal(&s.replace("3 4", "3 5")).map(|c| c.1),
            Some(false)
        );
        let forged = format!("{text}# seal xxh3 0000000000000001\n");
        assert_eq!(check_seal(&forged).map(|c| c.1), Some(false));
        assert_eq!(check_seal(text), None);
        assert_eq!(check_seal(&sealed("no newline")).map(|c| c.1), Some(true));
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.txt");
        std::fs::write(&p, s.replace("1 2", "9 2")).unwrap();
        let err = read_sealed(&p, "the table").unwrap_err();
        assert!(
            err.downcast_ref::<crate::experiment::InputError>()
                .is_some()
                && err.to_string().contains("t.txt"),
            "{err}"
        );
        std::fs::write(&p, &s).unwrap();
        assert_eq!(read_sealed(&p, "the table").unwrap(), text);
    }

    #[test]
    fn only_a_folder_of_own_files_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let owns = |f: &str| f.starts_with("batch-");
        let own = dir.path().join("partial");
        std::fs::create_dir_all(&own).unwrap();
        std::fs::write(own.join("batch-1"), b"1").unwrap();
        remove_own_folder(&own, owns).unwrap();
        assert!(!own.exists());
        remove_own_folder(&own, owns).unwrap();
        // A stranger's file inside: nothing removed, the file named.
        std::fs::create_dir_all(&own).unwrap();
        std::fs::write(own.join("batch-1"), b"1").unwrap();
        std::fs::write(own.join("thesis.pdf"), b"x").unwrap();
        let err = remove_own_folder(&own, owns).unwrap_err();
        assert!(err.to_string().contains("thesis.pdf"), "{err}");
        assert!(own.join("batch-1").exists() && own.join("thesis.pdf").exists());
        // A link where the folder should be: the target survives, the link too.
        let theirs = dir.path().join("theirs");
        std::fs::create_dir_all(&theirs).unwrap();
        std::fs::write(theirs.join("batch-1"), b"1").unwrap();
        let link = dir.path().join("linked");
        std::os::unix::fs::symlink(&theirs, &link).unwrap();
        assert!(remove_own_folder(&link, owns).is_err());
        assert!(theirs.join("batch-1").exists());
        // A folder inside (whose files could be anyone's): refused.
        std::fs::remove_file(own.join("thesis.pdf")).unwrap();
        std::fs::create_dir_all(own.join("batch-2")).unwrap();
        assert!(remove_own_folder(&own, owns).is_err());
        assert!(own.join("batch-2").is_dir());
    }

    #[test]
    fn an_exclusive_lock_names_its_holder_and_excludes_shared_ones() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("run.lock");
        let held = FolderLock::try_lock(&p, LockMode::Exclusive, "gamelab run x.toml").unwrap();
        let err = FolderLock::try_lock(&p, LockMode::Shared, "other")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("pid {} (gamelab run x.toml)", std::process::id())),
            "{err}"
        );
        drop(held);
        let a = FolderLock::try_lock(&p, LockMode::Shared, "a").unwrap();
        let _b = FolderLock::try_lock(&p, LockMode::Shared, "b").unwrap();
        assert!(FolderLock::try_lock(&p, LockMode::Exclusive, "c").is_err());
        drop(a);
    }

    /// A holder's line reads back as it was written, with or without its Slurm job, and a lock
    /// held by this process is not taken for ended.
    #[test]
    fn a_holders_line_reads_back_with_its_machine_and_slurm_job() {
        assert_eq!(
            Holder::parse(
                "pid 12 (gamelab run a (b).toml --shard 2/3) on node7 in Slurm job 4567_2\n"
            ),
            Some(Holder {
                pid: 12,
                host: "node7".into(),
                slurm_job: Some("4567_2".into()),
            })
        );
        assert_eq!(
            Holder::parse("pid 9 (gamelab run x.toml) on vm"),
            Some(Holder {
                pid: 9,
                host: "vm".into(),
                slurm_job: None,
            })
        );
        assert_eq!(Holder::parse(""), None);
        assert_eq!(Holder::parse("pid x (y) on z"), None);
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("run.lock");
        assert_eq!(holder_ended(&p), None);
        let held = FolderLock::try_lock(&p, LockMode::Exclusive, "gamelab run x.toml").unwrap();
        let holder = lock_holder(&p).unwrap();
        assert_eq!(
            (holder.pid, holder.host.as_str()),
            (std::process::id(), host_name().as_str())
        );
        assert_eq!(holder_ended(&p), Some(false));
        drop(held);
        std::fs::write(
            &p,
            "pid 1 (gamelab run x.toml) on another-machine in Slurm job 8\n",
        )
        .unwrap();
        assert_eq!(holder_ended(&p), None);
    }

    /// A holder killed and not yet reaped (a zombie: its /proc entry stays until its parent
    /// waits) has ended; a running one has not.
    #[test]
    fn a_zombie_holder_has_ended() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let here = |pid| Holder {
            pid,
            host: host_name(),
            slurm_job: None,
        };
        assert_eq!(here(child.id()).ended_here(), Some(false));
        unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
        // Not waited for: a zombie once the kill has landed.
        let zombie = || {
            std::fs::read_to_string(format!("/proc/{}/stat", child.id()))
                .is_ok_and(|s| s.contains(") Z "))
        };
        let t0 = std::time::Instant::now();
        while !zombie() && t0.elapsed() < std::time::Duration::from_secs(10) {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(zombie());
        assert_eq!(here(child.id()).ended_here(), Some(true));
        child.wait().unwrap();
        assert_eq!(here(child.id()).ended_here(), Some(true));
    }
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
