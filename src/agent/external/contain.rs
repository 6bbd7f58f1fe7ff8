//! Containment: the keeper every agent program runs under (it and everything it starts end
//! together, even after `setsid()` or gamelab's own death), and what the program's processes
//! use (memory, CPU time) read from /proc below the keeper.

use super::*;

/// Every process below process `pid`, the keeper of an agent (`contain`), whose own memory
/// and time are gamelab's and are not counted (at most 4096), less the first `skip` levels
/// below it: the sandbox's own two processes (bwrap and its init in the pid namespace, which
/// the program cannot take the place of: an orphan goes to that init, below them).
fn below_keeper(pid: u32, skip: usize) -> Vec<u32> {
    let mut found = Vec::new();
    let mut todo = vec![(pid, 0usize)];
    let mut seen = 0usize;
    while let Some((p, depth)) = todo.pop() {
        if seen >= 4096 {
            break;
        }
        seen += 1;
        if depth > skip {
            found.push(p);
        }
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) {
            for t in tasks.flatten() {
                if let Ok(children) = std::fs::read_to_string(t.path().join("children")) {
                    todo.extend(
                        children
                            .split_whitespace()
                            .filter_map(|c| c.parse::<u32>().ok())
                            .map(|c| (c, depth + 1)),
                    );
                }
            }
        }
    }
    found
}

/// A `/proc/PID/status` field in bytes (`VmPeak`, `VmSize`: given in kB); 0 when gone.
fn status_bytes(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// The sum of a status field (`status_bytes`) over the processes below keeper `pid` (less
/// `skip` levels, `below_keeper`).
pub(super) fn tree_bytes(pid: u32, skip: usize, field: &str) -> u64 {
    below_keeper(pid, skip)
        .into_iter()
        .map(|p| status_bytes(p, field))
        .sum()
}

/// The threads of the processes below keeper `pid` (less `skip` levels): what RLIMIT_NPROC
/// counts.
pub(super) fn tree_threads(pid: u32, skip: usize) -> u64 {
    below_keeper(pid, skip)
        .into_iter()
        .filter_map(|p| {
            let status = std::fs::read_to_string(format!("/proc/{p}/status")).ok()?;
            status
                .lines()
                .find_map(|l| l.strip_prefix("Threads:"))
                .and_then(|v| v.trim().parse::<u64>().ok())
        })
        .sum()
}

/// The CPU time of the processes below keeper `pid`: user and system time of each, with the
/// children each has waited for (`/proc/PID/stat` fields 14-17, in clock ticks), less `skip`
/// levels (`below_keeper`).
pub(super) fn tree_cpu(pid: u32, skip: usize) -> Duration {
    static TICK: LazyLock<u64> = LazyLock::new(|| {
        // SAFETY: sysconf has no preconditions.
        let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        if t > 0 { t as u64 } else { 100 }
    });
    let ticks: u64 = below_keeper(pid, skip)
        .into_iter()
        .filter_map(|p| {
            let fields = crate::durable::proc_stat_fields(p)?;
            // fields[0] is the state (field 3): utime is field 14, so fields[11].
            Some(
                fields
                    .get(11..15)?
                    .iter()
                    .filter_map(|f| f.parse::<u64>().ok())
                    .sum::<u64>(),
            )
        })
        .sum();
    Duration::from_nanos(ticks.saturating_mul(1_000_000_000 / *TICK))
}

/// Where the memory watch draws its line: `UNSET` until the handshake under `AboveStart`.
pub(super) const UNSET: u64 = u64::MAX;

/// What the watch of a program's processes (`watch_memory`) saw.
#[derive(Default)]
pub(super) struct Watched {
    /// Set to the peak it saw (bytes) when it killed the program for going over `memory_mb`.
    pub over: std::sync::atomic::AtomicU64,
    /// The most threads the program's processes had at one look (`tree_threads`).
    pub threads: std::sync::atomic::AtomicU64,
    /// The largest virtual memory peak of one of its processes (bytes).
    pub process_peak: std::sync::atomic::AtomicU64,
}

/// Watches the processes below keeper `pid` (less `skip` levels) every 20 ms while they live,
/// noting in `seen` their most threads and the largest peak of one process; with a `limit`,
/// once `line` is set (0 for the whole peak; what they held at the handshake for `AboveStart`),
/// past `limit` bytes above it, it records the amount in `seen.over` and has the keeper kill
/// them.
pub(super) fn watch_memory(
    pid: u32,
    skip: usize,
    limit: Option<u64>,
    line: std::sync::Arc<std::sync::atomic::AtomicU64>,
    seen: std::sync::Arc<Watched>,
) {
    use std::sync::atomic::Ordering::SeqCst;
    loop {
        if std::fs::metadata(format!("/proc/{pid}")).is_err() {
            return;
        }
        let procs = below_keeper(pid, skip);
        let peaks: Vec<u64> = procs.iter().map(|&p| status_bytes(p, "VmPeak")).collect();
        let peak: u64 = peaks.iter().sum();
        seen.process_peak
            .fetch_max(peaks.iter().copied().max().unwrap_or(0), SeqCst);
        seen.threads.fetch_max(tree_threads(pid, skip), SeqCst);
        let base = line.load(SeqCst);
        if let Some(limit) = limit
            && base != UNSET
            && peak.saturating_sub(base) > limit
        {
            let over = &seen.over;
            over.store(peak.saturating_sub(base).max(1), SeqCst);
            stop_contained(pid);
            return;
        }
        // No process below the keeper with a VmPeak (a zombie has none): the program is done.
        if peak == 0 && !procs.is_empty() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Makes the program `cmd` starts a unit that nothing it does can leave: between gamelab and the
/// program stands a *keeper*, a process forked from gamelab before the program is executed (no
/// other binary), which is a child subreaper (Linux's PR_SET_CHILD_SUBREAPER) and leads the
/// program's process group. Whatever the program starts stays below the keeper, even a child
/// that calls `setsid()` to leave the group and session: when its parent dies it is handed to
/// the keeper, not to init. When the program exits, or gamelab asks (`stop_contained`: SIGTERM),
/// or gamelab dies (even by kill -9: PR_SET_PDEATHSIG sends the keeper SIGTERM, and the keeper
/// also notices its parent change), the keeper kills every process below it, reaps them, and
/// exits with the program's own status. So no pipe gamelab reads is held open by a descendant
/// once the program is gone, and no process of the program outlives its run.
///
/// The keeper holds no file of gamelab's open (it closes every descriptor, so the pipes close
/// when the program's processes are gone) and runs only async-signal-safe calls (raw `libc`,
/// no allocation): it is a fork of a threaded program that never executes anything.
/// `child.id()` of the spawned command is the keeper's pid; `below_keeper` lists the
/// processes below it, not the keeper (whose memory is gamelab's, shared copy-on-write).
pub fn contain(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    // SAFETY: `keep` runs between fork and exec and uses only async-signal-safe calls.
    unsafe {
        cmd.pre_exec(|| {
            #[cfg(target_os = "linux")]
            keeper::keep()?;
            Ok(())
        });
    }
}

/// Ends a contained program and reaps its keeper without waiting on it for ever: asks the
/// keeper (`stop_contained`), and after `KILL_GRACE` kills it outright (a keeper that was
/// stopped or is held up); the program and everything it started then die with it (a
/// sandbox's pid namespace ends with bwrap's parent; outside a sandbox the program's own
/// parent-death signal, which its descendants do not all have).
pub fn end_contained(child: &mut std::process::Child) {
    stop_contained(child.id());
    let deadline = std::time::Instant::now() + KILL_GRACE;
    while std::time::Instant::now() < deadline {
        if !matches!(child.try_wait(), Ok(None)) {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().ok();
    child.wait().ok();
}

/// How long a keeper has to end its program before it is killed (`end_contained`).
pub const KILL_GRACE: Duration = Duration::from_secs(2);

/// Asks the keeper of a contained program (`contain`; `pid` is the spawned command's id) to end
/// it and everything it started; the caller then reaps the keeper (`Child::wait`), which exits
/// once every process below it is gone.
pub fn stop_contained(pid: u32) {
    if let Ok(p) = i32::try_from(pid) {
        // SAFETY: a signal to gamelab's own child, the keeper.
        unsafe {
            libc::kill(p, libc::SIGTERM);
        }
    }
}

#[cfg(target_os = "linux")]
mod keeper {
    //! The keeper of `contain`: code that runs in a forked child of a threaded program, so only
    //! async-signal-safe calls, no allocation, no locks.

    use std::io;
    use std::mem::MaybeUninit;

    /// Called in the forked child before exec. Forks once more: the grandchild returns (and
    /// goes on to exec the program); this child becomes the keeper and never returns.
    pub(super) fn keep() -> io::Result<()> {
        // SAFETY: raw system calls on this process's own state, between fork and exec.
        unsafe {
            let gamelab = libc::getppid();
            if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0
                || libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM, 0, 0, 0) != 0
            {
                return Err(io::Error::last_os_error());
            }
            // The signals the keeper waits for, blocked before the fork so none is lost.
            let mut waited = MaybeUninit::<libc::sigset_t>::uninit();
            libc::sigemptyset(waited.as_mut_ptr());
            let mut waited = waited.assume_init();
            for s in [libc::SIGCHLD, libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
                libc::sigaddset(&mut waited, s);
            }
            let mut before = MaybeUninit::<libc::sigset_t>::uninit();
            libc::sigprocmask(libc::SIG_BLOCK, &waited, before.as_mut_ptr());
            let before = before.assume_init();
            let program = libc::fork();
            if program < 0 {
                return Err(io::Error::last_os_error());
            }
            if program == 0 {
                // The program: dies with its keeper, with the signal mask it would have had,
                // and holds none of gamelab's descriptors but its standard input, output and
                // error (each other one is closed at the exec, like those gamelab opened itself:
                // one gamelab inherited would otherwise reach the program).
                libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
                libc::sigprocmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
                const CLOSE_RANGE_CLOEXEC: u32 = 1 << 2;
                libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, CLOSE_RANGE_CLOEXEC);
                return Ok(());
            }
            close_every_descriptor();
            let status = watch(program, gamelab, &waited);
            kill_everything_below(program, status)
        }
    }

    /// Waits until the program exits (its wait status) or gamelab asks for the end or is gone
    /// (None).
    pub(super) unsafe fn watch(
        program: libc::pid_t,
        gamelab: libc::pid_t,
        waited: &libc::sigset_t,
    ) -> Option<i32> {
        let tick = libc::timespec {
            tv_sec: 0,
            tv_nsec: 200_000_000,
        };
        loop {
            // SAFETY: valid pointers to this frame's values.
            let signal = unsafe { libc::sigtimedwait(waited, std::ptr::null_mut(), &tick) };
            if let Some(status) = unsafe { reap(program) } {
                return Some(status);
            }
            if matches!(signal, libc::SIGTERM | libc::SIGINT | libc::SIGHUP)
                || unsafe { libc::getppid() } != gamelab
            {
                return None;
            }
        }
    }

    /// Reaps every child that has exited; the program's wait status if it was among them.
    unsafe fn reap(program: libc::pid_t) -> Option<i32> {
        let mut found = None;
        loop {
            let mut status = 0;
            // SAFETY: a valid pointer.
            let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
            if pid <= 0 {
                return found;
            }
            if pid == program {
                found = Some(status);
            }
        }
    }

    /// Kills every process below the keeper until none is left (a process whose parent dies
    /// is handed to the keeper, so each round reaches one level deeper), then exits as the
    /// program did (or as killed, when gamelab asked).
    unsafe fn kill_everything_below(program: libc::pid_t, mut status: Option<i32>) -> ! {
        let nap = libc::timespec {
            tv_sec: 0,
            tv_nsec: 1_000_000,
        };
        loop {
            unsafe {
                for_each_child(|pid| {
                    libc::kill(pid, libc::SIGKILL);
                })
            };
            let mut any = false;
            loop {
                let mut s = 0;
                // SAFETY: a valid pointer.
                let pid = unsafe { libc::waitpid(-1, &mut s, libc::WNOHANG) };
                if pid == program && status.is_none() {
                    status = Some(s);
                }
                if pid > 0 {
                    any = true;
                    continue;
                }
                if pid < 0 {
                    // No child left at all (ECHILD).
                    unsafe { exit_as(status) }
                }
                break;
            }
            if !any {
                // SAFETY: a valid pointer.
                unsafe { libc::nanosleep(&nap, std::ptr::null_mut()) };
            }
        }
    }

    /// Exits with the program's wait status: its exit code, or the signal that ended it
    /// (raised on the keeper, without a core file); killed (SIGKILL) when it has none.
    unsafe fn exit_as(status: Option<i32>) -> ! {
        // SAFETY: raw calls on this process's own state.
        unsafe {
            let status = status.unwrap_or(libc::SIGKILL);
            if libc::WIFEXITED(status) {
                libc::_exit(libc::WEXITSTATUS(status));
            }
            let signal = if libc::WIFSIGNALED(status) {
                libc::WTERMSIG(status)
            } else {
                libc::SIGKILL
            };
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            libc::signal(signal, libc::SIG_DFL);
            let mut all = MaybeUninit::<libc::sigset_t>::uninit();
            libc::sigemptyset(all.as_mut_ptr());
            libc::sigprocmask(libc::SIG_SETMASK, all.as_ptr(), std::ptr::null_mut());
            libc::kill(libc::getpid(), signal);
            libc::_exit(128 + signal);
        }
    }

    /// Closes every file descriptor of the keeper: it needs none, and it must not hold open the
    /// pipes gamelab reads (nor the one through which the spawn learns of the exec).
    unsafe fn close_every_descriptor() {
        // SAFETY: closing this process's own descriptors.
        unsafe {
            if libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32) == 0 {
                return;
            }
            let mut limit = MaybeUninit::<libc::rlimit>::uninit();
            let top = if libc::getrlimit(libc::RLIMIT_NOFILE, limit.as_mut_ptr()) == 0 {
                limit.assume_init().rlim_cur.min(1 << 20) as i32
            } else {
                1 << 16
            };
            for fd in 0..top {
                libc::close(fd);
            }
        }
    }

    /// Calls `f` with the pid of each child of the keeper (`/proc/thread-self/children`; the
    /// keeper has one thread), read and parsed without allocating.
    unsafe fn for_each_child(mut f: impl FnMut(libc::pid_t)) {
        // SAFETY: a NUL-terminated path, a stack buffer and its length.
        unsafe {
            let fd = libc::open(
                c"/proc/thread-self/children".as_ptr(),
                libc::O_RDONLY | libc::O_CLOEXEC,
            );
            if fd < 0 {
                return;
            }
            let mut buf = [0u8; 1024];
            let mut pid: libc::pid_t = 0;
            let mut digits = false;
            loop {
                let n = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
                if n <= 0 {
                    break;
                }
                for &b in &buf[..n as usize] {
                    if b.is_ascii_digit() {
                        pid = pid
                            .saturating_mul(10)
                            .saturating_add((b - b'0') as libc::pid_t);
                        digits = true;
                    } else if digits {
                        f(pid);
                        (pid, digits) = (0, false);
                    }
                }
            }
            if digits {
                f(pid);
            }
            libc::close(fd);
        }
    }
}
