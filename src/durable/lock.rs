//! `FolderLock`: an advisory lock (flock) on a file in a folder, released by the kernel when its
//! holder dies, and the holder of a lock (pid, host, start) named in its messages.

use super::*;

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
