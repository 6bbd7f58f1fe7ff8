//! The sandbox every external program runs in (agents, the course adapters, the OpenSpiel
//! bridge): bubblewrap (`bwrap`, what Flatpak uses) gives it its own pid, network, ipc, uts and
//! mount namespaces, so it sees its own processes only, has no network (unless the section says
//! `network = true`), and sees of the host's files only:
//!
//! - the system, read-only: /usr, /bin, /sbin, /lib*, /etc, /opt;
//! - its own files, read-only: its `cwd` (or, with `scratch = true`, a writable copy of it in
//!   memory, dropped with the sandbox), the files and folders its `command` names (a file of
//!   gamelab's own `adapters/` brings that folder, which the adapters import from; a Python
//!   package, the project folder it lives in, whose other packages it imports), the installation its
//!   program comes from (a virtual environment, a pyenv version: found on gamelab's PATH, shims
//!   followed) and the paths the section names in `read`;
//! - a private /tmp and /dev/shm in memory (`limits.tmp_mb`), HOME and TMPDIR there.
//!
//! Not results/, not the experiment file, not the other agents' folders, not $HOME, not
//! gamelab's environment: the environment is PATH, HOME, TMPDIR, LANG and the section's `env`.
//! The root of the sandbox and its /dev are read-only. When gamelab runs as root the program
//! runs as a user of its own (uid `SANDBOX_UID_BASE` + a slot: no capabilities, no new
//! privileges, and a process count of its own, which an unprivileged user's bwrap gets from
//! the user namespace it makes); the pid namespace ends with the sandbox (bwrap's
//! `--die-with-parent` under the keeper, `contain`), so no process of the program outlives its
//! game, the run, or a kill -9 of gamelab.
//!
//! Kernel limits (set at bwrap's exec, the process count inside the sandbox's user namespace
//! when gamelab is not root): processes, CPU time, file size, open files and address space (`KernelLimits`, each settable in the
//! agent's `[agents.NAME.limits]`). One run checks once that a sandbox can be made
//! (`available`), and stops before any game when it cannot, naming what to install, unless the
//! section says `sandbox = "none"` (the program then runs with gamelab's rights, under the keeper
//! only, and the report says so).

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

/// Whether an external program runs in the sandbox.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SandboxKind {
    /// bubblewrap: namespaces, the read-only system, kernel limits (the default).
    #[default]
    Bwrap,
    /// No sandbox: the program runs with gamelab's own rights, under its keeper only.
    None,
}

/// The kernel limits of a sandboxed program (`[agents.NAME.limits]`); unset, the defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KernelLimits {
    /// Processes and threads (RLIMIT_NPROC, counted in the sandbox's own user or uid).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processes: Option<u64>,
    /// CPU seconds of each process (RLIMIT_CPU; default: the game's clock plus a margin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_s: Option<u64>,
    /// The largest file a process may write, in MB (RLIMIT_FSIZE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_mb: Option<u64>,
    /// Open files of each process (RLIMIT_NOFILE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_files: Option<u64>,
    /// Virtual memory of each process, in MB (RLIMIT_AS). The courses' rule on the memory of
    /// all the program's processes is `memory_mb`, watched by gamelab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address_space_mb: Option<u64>,
    /// The size of the private /tmp (and of the copy `scratch = true` makes), in MB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tmp_mb: Option<u64>,
}

pub const DEFAULT_PROCESSES: u64 = 256;
pub const DEFAULT_FILE_MB: u64 = 64;
pub const DEFAULT_OPEN_FILES: u64 = 1024;
pub const DEFAULT_ADDRESS_SPACE_MB: u64 = 4096;
pub const DEFAULT_TMP_MB: u64 = 256;
/// The margin of the default CPU limit over the game's clock.
pub const CPU_MARGIN_S: u64 = 30;
/// A per-move clock's default CPU limit counts this many moves.
pub const CPU_MOVES: u64 = 300;
/// A CPU limit past any run (the OpenSpiel bridge serves a whole run).
pub const NO_CPU_LIMIT_S: u64 = 1 << 40;
/// The first uid of the programs a root gamelab starts (one per sandbox at a time).
pub const SANDBOX_UID_BASE: u32 = 2_000_000_000;
/// The system folders the sandbox sees read-only (a symbolic link stays a link).
const SYSTEM: [&str; 9] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
];
/// Where a `scratch` sandbox sees its folder's original, to copy it.
const OWN: &str = "/.gamelab/own";

/// The limits in force: the section's, else the defaults (CPU from the game's `clock_budget`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub processes: u64,
    pub cpu_s: u64,
    pub file_mb: u64,
    pub open_files: u64,
    pub address_space_mb: u64,
    pub tmp_mb: u64,
}

impl KernelLimits {
    /// The limits in force for a game whose clock gives an agent at most `clock_budget`.
    pub fn resolve(&self, clock_budget: Duration) -> Limits {
        Limits {
            processes: self.processes.unwrap_or(DEFAULT_PROCESSES),
            cpu_s: self
                .cpu_s
                .unwrap_or_else(|| clock_budget.as_secs().saturating_add(CPU_MARGIN_S)),
            file_mb: self.file_mb.unwrap_or(DEFAULT_FILE_MB),
            open_files: self.open_files.unwrap_or(DEFAULT_OPEN_FILES),
            address_space_mb: self.address_space_mb.unwrap_or(DEFAULT_ADDRESS_SPACE_MB),
            tmp_mb: self.tmp_mb.unwrap_or(DEFAULT_TMP_MB),
        }
    }

    /// Each limit given must be positive and below a bound that fits the kernel's counters.
    pub fn check(&self) -> Result<(), String> {
        for (name, v, max) in [
            ("processes", self.processes, 1u64 << 22),
            ("cpu_s", self.cpu_s, 1u64 << 40),
            ("file_mb", self.file_mb, 1u64 << 24),
            ("open_files", self.open_files, 1u64 << 20),
            ("address_space_mb", self.address_space_mb, 1u64 << 24),
            ("tmp_mb", self.tmp_mb, 1u64 << 24),
        ] {
            match v {
                Some(0) => return Err(format!("limits.{name} must be positive")),
                Some(v) if v > max => {
                    return Err(format!("limits.{name} = {v} is past the largest, {max}"));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// What a sandbox is made of, from an agent's section (or the bridge's defaults).
#[derive(Clone, Debug, Default)]
pub struct SandboxSpec {
    pub network: bool,
    pub scratch: bool,
    /// Host paths the program may read besides its own.
    pub read: Vec<PathBuf>,
    pub env: Vec<(String, String)>,
    pub limits: Limits,
}

impl Default for Limits {
    fn default() -> Limits {
        KernelLimits::default().resolve(Duration::from_secs(600))
    }
}

/// Whether a sandbox can be made here: checked once per process by making one (`true` in a
/// sandbox), with the reason and what to do when it cannot.
pub fn available() -> Result<(), String> {
    static CHECKED: LazyLock<Result<(), String>> = LazyLock::new(|| {
        let cwd = std::env::temp_dir();
        let (mut cmd, _slot) = command(
            &SandboxSpec::default(),
            &["/usr/bin/true".into()],
            Some(&cwd),
        )
        .map_err(|e| {
            if e == NOT_INSTALLED {
                e
            } else {
                format!("cannot make a sandbox: {e}")
            }
        })?;
        let out = cmd
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("cannot start bwrap: {e}"))?;
        if out.status.success() {
            return Ok(());
        }
        let why = String::from_utf8_lossy(&out.stderr);
        Err(format!(
            "bwrap cannot make the sandbox's namespaces here ({}): unprivileged user namespaces may be off (sysctl kernel.unprivileged_userns_clone=1, or AppArmor's kernel.apparmor_restrict_unprivileged_userns=0)",
            why.lines().next().unwrap_or("no message").trim()
        ))
    });
    CHECKED.clone()
}

/// The sentence a run stops with when an agent needs a sandbox that cannot be made.
pub fn unavailable_advice(why: &str) -> String {
    format!(
        "{why}; or set sandbox = \"none\" in the agent's section to run it with gamelab's own rights (no isolation: the report says so)"
    )
}

/// A uid of the sandbox uids (`SANDBOX_UID_BASE`), held while its sandbox lives.
pub struct Slot(Option<(usize, &'static Slots)>);

/// Sandboxes alive at once in one gamelab, at most (two a game: 512 games at once). The uids
/// of gamelab `pid` are `SANDBOX_UID_BASE + (pid mod 100000) * SLOTS_PER_RUN + slot`, all
/// below 2,102,400,000 (2^31 is 2,147,483,648).
pub const SLOTS_PER_RUN: usize = 1024;

/// How long a sandbox waits for a slot when all are taken before its start fails.
const SLOT_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

/// A table of slots: which are taken, and the wait for one to free.
struct Slots {
    used: Mutex<Vec<bool>>,
    freed: std::sync::Condvar,
}

impl Slots {
    fn new(n: usize) -> Slots {
        Slots {
            used: Mutex::new(vec![false; n]),
            freed: std::sync::Condvar::new(),
        }
    }

    /// A free slot; with every slot taken, waits for one, `wait` at most.
    fn take(&'static self, wait: std::time::Duration) -> Result<Slot, String> {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        let deadline = std::time::Instant::now() + wait;
        let i = loop {
            if let Some(i) = used.iter().position(|u| !u) {
                break i;
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Err(format!(
                    "{} sandboxes are alive in this gamelab and none ended within {} s: run with fewer threads (--threads)",
                    used.len(),
                    wait.as_secs()
                ));
            }
            used = self
                .freed
                .wait_timeout(used, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        };
        used[i] = true;
        Ok(Slot(Some((i, self))))
    }
}

/// The slots of this gamelab's sandboxes.
static SLOTS: LazyLock<Slots> = LazyLock::new(|| Slots::new(SLOTS_PER_RUN));

impl Slot {
    /// No uid held (no sandbox, or gamelab not root).
    pub fn none() -> Slot {
        Slot(None)
    }

    /// The slot's number, if it holds one.
    fn index(&self) -> Option<usize> {
        self.0.map(|(i, _)| i)
    }

    /// A free slot of this gamelab's and its uid (each sandbox's uid is its own, so its
    /// process count is its own); with every slot taken, waits for one (`SLOT_WAIT` at most).
    fn take() -> Result<(Slot, u32), String> {
        let slot = SLOTS.take(SLOT_WAIT)?;
        let i = slot.index().expect("taken");
        let base = SANDBOX_UID_BASE + (std::process::id() % 100_000) * SLOTS_PER_RUN as u32;
        Ok((slot, base + i as u32))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some((i, slots)) = self.0.take() {
            slots.used.lock().unwrap_or_else(|e| e.into_inner())[i] = false;
            slots.freed.notify_one();
        }
    }
}

/// Whether gamelab runs as root (then each sandbox runs as a uid of its own).
fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Whether `p` lies in one of the system folders the sandbox sees anyway.
fn in_system(p: &Path) -> bool {
    SYSTEM.iter().any(|s| p.starts_with(s))
}

/// The program a command's first word names, as gamelab would run it: a path (taken from the
/// program's folder `dir`), else the first executable of that name on gamelab's PATH, with a
/// pyenv / rbenv / nodenv shim followed to the program it runs (`pyenv which NAME`).
pub fn resolve_program(name: &str, dir: &Path) -> PathBuf {
    if name.contains('/') {
        return absolute(&dir.join(name));
    }
    let Some(found) = on_path(name) else {
        return PathBuf::from(name);
    };
    shim_target(&found, name, dir).unwrap_or(found)
}

/// What a run says when bwrap is not on PATH.
const NOT_INSTALLED: &str = "bubblewrap (bwrap) is not installed: install it (`apt-get install bubblewrap`, or `make deps`)";

/// The first executable file `name` on gamelab's PATH.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The program a version manager's shim (`ROOT/shims/NAME`, `ROOT/bin/TOOL`, ROOT = `.pyenv`,
/// `.rbenv`, `.nodenv`) runs: `TOOL which NAME` in the program's folder.
fn shim_target(shim: &Path, name: &str, dir: &Path) -> Option<PathBuf> {
    let shims = shim.parent()?;
    if shims.file_name()? != "shims" {
        return None;
    }
    let root = shims.parent()?;
    let tool = root
        .file_name()?
        .to_str()?
        .trim_start_matches('.')
        .to_string();
    let out = Command::new(root.join("bin").join(&tool))
        .args(["which", name])
        .current_dir(dir)
        .env(format!("{}_ROOT", tool.to_uppercase()), root)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let line = String::from_utf8(out.stdout).ok()?;
    let p = PathBuf::from(line.trim());
    (out.status.success() && is_executable(&p)).then_some(p)
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The folders a program needs beside itself: for each step of its symbolic links, its
/// installation (the folder above `bin/` when that holds `lib/` or `pyvenv.cfg`: a virtual
/// environment, a pyenv version), else the program file alone.
fn installation(program: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut p = program.to_path_buf();
    for _ in 0..16 {
        let prefix = p
            .parent()
            .filter(|b| b.file_name().is_some_and(|n| n == "bin"))
            .and_then(Path::parent)
            .filter(|pre| pre.join("lib").is_dir() || pre.join("pyvenv.cfg").is_file());
        out.push(prefix.map_or_else(|| p.clone(), Path::to_path_buf));
        match std::fs::read_link(&p) {
            Ok(next) => {
                p = p
                    .parent()
                    .map_or(next.clone(), |d| absolute(&d.join(&next)))
            }
            Err(_) => break,
        }
    }
    out
}

/// The project folder of a Python package `p` (a folder with `__init__.py`) or of a file in one:
/// the folder the package sits in.
fn python_project(p: &Path) -> Option<PathBuf> {
    let package = if p.is_dir() { p } else { p.parent()? };
    package
        .join("__init__.py")
        .is_file()
        .then(|| package.parent().map(Path::to_path_buf))
        .flatten()
}

/// gamelab's own adapters folder in this clone (a file in it brings the whole folder).
fn adapters_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters")
}

/// The bwrap command, under its keeper (`contain`), that runs `program` (its first word
/// resolved as `resolve_program` does; relative arguments taken from `cwd`) in a sandbox made
/// as `spec` says, with the slot its uid
/// holds (release it when the sandbox is gone). `cwd` None: the program runs in gamelab's folder,
/// which the sandbox shows empty but for the files the command names.
pub fn command(
    spec: &SandboxSpec,
    program: &[String],
    cwd: Option<&Path>,
) -> Result<(Command, Slot), String> {
    let here = absolute(Path::new("."));
    let dir = cwd.map_or_else(|| here.clone(), absolute);
    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
    let exe = resolve_program(&program[0], &dir);
    if !is_executable(&exe) {
        return Err(format!(
            "cannot start {:?}: {}",
            program.join(" "),
            if exe.is_absolute() {
                format!("{} is not an executable file", exe.display())
            } else {
                format!("no program {:?} on PATH", program[0])
            }
        ));
    }
    let mut reads: Vec<PathBuf> = Vec::new();
    if exe.is_absolute() {
        reads.extend(installation(&exe));
    }
    let adapters = adapters_dir();
    for arg in &program[1..] {
        let p = absolute(&dir.join(arg));
        if arg.is_empty() || !p.exists() {
            continue;
        }
        if p.starts_with(&adapters) {
            reads.push(adapters.clone());
        } else if let Some(project) = python_project(&p) {
            // A Python package (the Freckers course's `agent/`) or a file in one (Colosseum's
            // `agents/student_agent.py`): the project it lives in, whose other packages and
            // modules (the course's `referee/`, `store.py`) it imports.
            reads.push(project);
        } else {
            reads.push(p);
        }
    }
    reads.extend(spec.read.iter().map(|p| absolute(p)));
    // Only what is outside the system and the program's own folder needs a bind of its own;
    // a path inside another bound path is seen through it.
    let own = cwd.is_some();
    let mut binds: Vec<PathBuf> = reads
        .into_iter()
        .filter(|p| !in_system(p) && !(own && p.starts_with(&dir)) && p.exists())
        .collect();
    binds.sort();
    binds.dedup();
    let binds: Vec<PathBuf> = binds
        .iter()
        .filter(|p| !binds.iter().any(|q| q != *p && p.starts_with(q)))
        .cloned()
        .collect();

    let root = is_root();
    let mut a: Vec<String> = Vec::new();
    let flags: &[&str] = match (root, spec.network) {
        // bwrap as root makes the namespaces itself; the program then runs as a uid of its own.
        (true, false) => &[
            "--unshare-pid",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--unshare-net",
        ],
        (true, true) => &[
            "--unshare-pid",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup-try",
        ],
        (false, false) => &["--unshare-all"],
        (false, true) => &["--unshare-all", "--share-net"],
    };
    a.extend(flags.iter().map(|f| f.to_string()));
    a.extend(
        [
            "--die-with-parent",
            "--new-session",
            "--hostname",
            "gamelab-sandbox",
        ]
        .map(String::from),
    );
    let path_text = |p: &Path| p.to_string_lossy().into_owned();
    for s in SYSTEM {
        let p = Path::new(s);
        match std::fs::symlink_metadata(p) {
            Ok(m) if m.file_type().is_symlink() => {
                if let Ok(target) = std::fs::read_link(p) {
                    a.extend(["--symlink".into(), path_text(&target), s.into()]);
                }
            }
            Ok(m) if m.is_dir() => a.extend(["--ro-bind".into(), s.into(), s.into()]),
            _ => {}
        }
    }
    a.extend(["--proc", "/proc", "--dev", "/dev"].map(String::from));
    let tmp_bytes = (spec.limits.tmp_mb.saturating_mul(1_000_000)).to_string();
    for t in ["/tmp", "/dev/shm"] {
        a.extend(["--perms", "1777", "--size", &tmp_bytes, "--tmpfs", t].map(String::from));
    }
    // Every folder on the way to a bound path is made readable (bwrap would copy no modes).
    let mut made: Vec<PathBuf> = Vec::new();
    let mut mkdirs = |a: &mut Vec<String>, p: &Path| {
        let mut ancestors: Vec<&Path> = p.ancestors().skip(1).collect();
        ancestors.reverse();
        for d in ancestors {
            if d == Path::new("/") || in_system(d) || made.iter().any(|m| m == d) {
                continue;
            }
            made.push(d.to_path_buf());
            a.extend([
                "--perms".into(),
                "0755".into(),
                "--dir".into(),
                path_text(d),
            ]);
        }
    };
    for b in &binds {
        mkdirs(&mut a, b);
        a.extend(["--ro-bind".into(), path_text(b), path_text(b)]);
    }
    mkdirs(&mut a, &dir);
    match (own, spec.scratch) {
        (true, true) => {
            mkdirs(&mut a, Path::new(OWN));
            a.extend(["--ro-bind".into(), path_text(&dir), OWN.into()]);
            a.extend(["--perms", "1777", "--size", &tmp_bytes, "--tmpfs"].map(String::from));
            a.push(path_text(&dir));
        }
        (true, false) => a.extend(["--ro-bind".into(), path_text(&dir), path_text(&dir)]),
        (false, _) => {
            // An empty folder for the program's own, unless a bound path shows it.
            if !made.contains(&dir) && !binds.iter().any(|b| dir.starts_with(b)) {
                a.extend(["--perms", "0755", "--dir"].map(String::from));
                a.push(path_text(&dir));
            }
        }
    }
    a.extend(["--remount-ro", "/", "--remount-ro", "/dev"].map(String::from));
    a.extend(["--chdir".into(), path_text(&dir), "--clearenv".into()]);
    let mut path = String::new();
    if let Some(d) = exe.parent().filter(|d| exe.is_absolute() && !in_system(d)) {
        path.push_str(&path_text(d));
        path.push(':');
    }
    path.push_str("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    let lang = std::env::var("LANG").unwrap_or_else(|_| "C.UTF-8".into());
    let mut env = vec![
        ("PATH".to_string(), path),
        ("HOME".into(), "/tmp".into()),
        ("TMPDIR".into(), "/tmp".into()),
        ("LANG".into(), lang),
    ];
    env.extend(spec.env.iter().cloned());
    for (k, v) in env {
        a.extend(["--setenv".into(), k, v]);
    }
    a.push("--".into());
    let slot = if root {
        let (slot, uid) = Slot::take()?;
        a.extend([
            "setpriv".to_string(),
            format!("--reuid={uid}"),
            format!("--regid={uid}"),
            "--clear-groups".into(),
            "--inh-caps=-all".into(),
            "--bounding-set=-all".into(),
            "--no-new-privs".into(),
        ]);
        slot
    } else {
        Slot::none()
    };
    let l = spec.limits;
    if !root {
        // The process count is set inside the user namespace bwrap makes (set before it, it
        // would count every process of the user); the other limits are set at bwrap's exec
        // (`limits_at_exec`), and a root gamelab's whole set there (root is not counted, the
        // sandbox's uid after setpriv is).
        a.extend([
            "prlimit".to_string(),
            format!("--nproc={}", l.processes),
            "--".into(),
        ]);
    }
    if own && spec.scratch {
        a.extend(
            [
                "sh",
                "-c",
                &format!("cp -a {OWN}/. . && exec \"$@\""),
                "gamelab-scratch",
            ]
            .map(String::from),
        );
    }
    a.push(path_text(&exe));
    a.extend(program[1..].iter().cloned());
    let bwrap = on_path("bwrap").ok_or_else(|| NOT_INSTALLED.to_string())?;
    let mut cmd = Command::new(bwrap);
    // bwrap itself gets no environment either: its init is the sandbox's pid 1, whose
    // /proc/1/environ the program can read when both run as the same user (not root).
    cmd.args(&a).env_clear();
    super::contain(&mut cmd);
    limits_at_exec(&mut cmd, l, root);
    Ok((cmd, slot))
}

/// Sets the kernel limits `l` in the child between fork and exec (after any earlier `pre_exec`:
/// `contain`'s keeper forks first, and this runs in the program's branch only), the process
/// count only when `with_processes` (see `command`). Saves an exec of `prlimit` per game.
fn limits_at_exec(cmd: &mut Command, l: Limits, with_processes: bool) {
    use std::os::unix::process::CommandExt;
    let mb = |v: u64| v.saturating_mul(1_000_000);
    let mut set: Vec<(libc::__rlimit_resource_t, u64, u64)> = vec![
        (libc::RLIMIT_NOFILE, l.open_files, l.open_files),
        (libc::RLIMIT_FSIZE, mb(l.file_mb), mb(l.file_mb)),
        (
            libc::RLIMIT_AS,
            mb(l.address_space_mb),
            mb(l.address_space_mb),
        ),
        (libc::RLIMIT_CPU, l.cpu_s, l.cpu_s.saturating_add(2)),
    ];
    if with_processes {
        set.push((libc::RLIMIT_NPROC, l.processes, l.processes));
    }
    // SAFETY: setrlimit is async-signal-safe; the vector is built before the fork.
    unsafe {
        cmd.pre_exec(move || {
            for &(resource, soft, hard) in &set {
                let r = libc::rlimit {
                    rlim_cur: soft as libc::rlim_t,
                    rlim_max: hard as libc::rlim_t,
                };
                if libc::setrlimit(resource, &r) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
}

/// A kernel limit of the sandbox, to name the one a program hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Processes,
    Cpu,
    FileSize,
    OpenFiles,
    AddressSpace,
}

impl Limits {
    /// The words of a fault's detail for a program that hit `limit`.
    pub fn hit(&self, limit: Limit) -> String {
        let (what, value, key) = match limit {
            Limit::Processes => ("process", self.processes.to_string(), "processes"),
            Limit::Cpu => ("CPU time", format!("{} s", self.cpu_s), "cpu_s"),
            Limit::FileSize => ("file size", format!("{} MB", self.file_mb), "file_mb"),
            Limit::OpenFiles => ("open-file", self.open_files.to_string(), "open_files"),
            Limit::AddressSpace => (
                "address-space",
                format!("{} MB", self.address_space_mb),
                "address_space_mb",
            ),
        };
        format!("it hit the {what} limit, {value} (limits.{key})")
    }
}

/// The kernel limit a program's last words name (what a failed call prints: Python's
/// `OSError: [Errno 27] File too large`, C's strerror), if any: an agent that ignores the
/// limit's signal (Python ignores SIGXFSZ) or meets a refused call dies of the error instead.
pub fn limit_named_in(last_words: &str) -> Option<Limit> {
    let w = last_words.to_ascii_lowercase();
    if w.contains("file too large") {
        Some(Limit::FileSize)
    } else if w.contains("memoryerror") || w.contains("cannot allocate memory") {
        Some(Limit::AddressSpace)
    } else if w.contains("resource temporarily unavailable") || w.contains("cannot fork") {
        Some(Limit::Processes)
    } else if w.contains("too many open files") {
        Some(Limit::OpenFiles)
    } else {
        None
    }
}

/// What a sandboxed program's exit status says about a kernel limit it hit, if any: bwrap
/// exits with 128 + the signal that ended the program (SIGKILL at the CPU limit's hard end).
pub fn limit_hit(code: Option<i32>, limits: &Limits, cpu_used: Duration) -> Option<Limit> {
    match code? - 128 {
        s if s == libc::SIGXCPU => Some(Limit::Cpu),
        s if s == libc::SIGKILL && cpu_used.as_secs() >= limits.cpu_s => Some(Limit::Cpu),
        s if s == libc::SIGXFSZ => Some(Limit::FileSize),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// With every slot taken a new sandbox waits for one to end and then has that one (it
    /// never shares a living sandbox's uid, whose process count it would share), and its start
    /// fails with a sentence once its wait is over.
    #[test]
    fn a_sandbox_waits_for_a_free_slot_and_never_shares_a_taken_one() {
        let slots: &'static Slots = Box::leak(Box::new(Slots::new(2)));
        let a = slots.take(Duration::ZERO).unwrap();
        let b = slots.take(Duration::ZERO).unwrap();
        assert_ne!(a.index(), b.index());
        let why = slots.take(Duration::from_millis(50)).err().unwrap();
        assert!(why.contains("2 sandboxes are alive"), "{why}");
        let freed = b.index();
        let ender = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            drop(b);
        });
        let c = slots.take(Duration::from_secs(10)).unwrap();
        assert_eq!(c.index(), freed);
        ender.join().unwrap();
        drop(a);
        assert!(slots.take(Duration::ZERO).is_ok());
    }
}
