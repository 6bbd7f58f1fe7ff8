//! External agents: a player that is another program, speaking gamelab's line protocol over its
//! standard input and output (docs/protocol.md). Any language can play; the courses' Python
//! agents play through the adapters in `adapters/`.
//!
//! One process per seat and game at a time, taken from a pool kept for the whole run (so a
//! process plays game after game of a job) and started when the pool has none; several games in
//! parallel (`--threads`) use several processes. A fault of the program (an illegal move, a line
//! that is not the protocol, a move past its time, a crash or an exit) ends that game as a loss
//! for it, with the fault in the rows (`termination`); the process is killed and the next game
//! starts a new one. Nothing an external program does stops or hangs a run: every read has a
//! deadline (the move's time plus `grace_ms`), after which the process is killed.
//!
//! Its standard error goes to a log file per job and agent (`results/<experiment>/logs/`),
//! set by the runner, at most `MAX_LOG_BYTES` a file (then a line says how much was dropped);
//! without one (tests, `gamelab play`), to gamelab's own standard error.
//!
//! Bounds: a protocol line is at most `MAX_LINE_BYTES` (a longer one is a `protocol_error`,
//! read past without being kept), a row's `fault_detail` at most `MAX_FAULT_DETAIL` characters.
//! Each program runs under a keeper (`contain`), a child subreaper forked from gamelab: a kill
//! (a fault, the end of the run) ends the program and every process it started, even one that
//! left its process group and session with `setsid()`, and so does the program's own exit and
//! gamelab's death, even by kill -9. No pipe gamelab reads stays open once the program is gone.

use super::{Agent, Effort};
use crate::game::{Game, Player};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

/// The protocol version gamelab speaks; an agent must answer the handshake with it.
pub const PROTOCOL_VERSION: u32 = 1;

/// `kind = "external"`: the program to run and its time rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExternalSpec {
    /// The program and its arguments, e.g. `["python3", "my_agent.py"]`; relative paths are
    /// taken from `cwd`.
    pub command: Vec<String>,
    /// The folder the program runs in (default: the folder gamelab runs in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Environment variables set for the program (on top of gamelab's own).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// How long the program may take to start and answer the handshake (default 10000 ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init_timeout_ms: Option<u64>,
    /// Time per move (default: the game's course rule, see `ExternalClock::default_for`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// A different time for the agent's first move (the Colosseum course gave 30 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_move_ms: Option<u64>,
    /// A clock for the whole game instead of a time per move (the Freckers course: 180 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_time_s: Option<f64>,
    /// How far past its time a move may come before the program is killed (default 500 ms):
    /// the pipe and the program's start-up are not the agent's thinking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace_ms: Option<u64>,
    /// Most memory the program may take, in MB (10^6 bytes): the peak virtual memory of the
    /// program and the processes it started, as the courses' referees measure it
    /// (COMP30024: 250, COMP 424: 500). Past it the game is lost by `memory`. None: no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_mb: Option<u64>,
    /// What `memory_mb` holds (default: the game's course, `MemoryMeasure::default_for`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_measure: Option<MemoryMeasure>,
    /// The clock the agent's time runs on (default: the game's course, `ClockKind::default_for`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockKind>,
    /// What a fault does to the agent's game (default: the game's course, `FaultRule::default_for`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faults: Option<FaultRule>,
    /// A digest of the files the command names (set by gamelab, not the file: whatever a file
    /// says is replaced): an edited agent makes new jobs instead of reusing the old agent's
    /// rows. Read back from a job's JSON (a distributed run's workers).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub fingerprint: String,
    /// Where the program's standard error goes (set by the runner per job; not in the hash).
    #[serde(skip)]
    pub log: Option<PathBuf>,
}

/// The clock an external agent's time runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockKind {
    /// CPU time of the agent's processes (user and system, of every process below its keeper
    /// and the children they waited for): what COMP30024's referee counts (`time.process_time`
    /// around each action), so a loaded machine does not cost the agent its time. A wall-clock
    /// backstop (`cpu_backstop`) still ends a move that sleeps or waits.
    Cpu,
    /// Wall-clock time from `go` to the answer: COMP 424's simulator (2 s a move).
    Wall,
}

impl ClockKind {
    /// The course's clock: CPU time for Freckers (COMP30024), wall time for the others.
    pub fn default_for(game: &str) -> ClockKind {
        if game == "freckers" {
            ClockKind::Cpu
        } else {
            ClockKind::Wall
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ClockKind::Cpu => "cpu",
            ClockKind::Wall => "wall",
        }
    }
}

/// What a fault of an external agent does to its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultRule {
    /// The game is lost by the fault (COMP30024's referee; the strict rule).
    Loss,
    /// A legal move drawn at random is played for the agent and the game goes on (COMP 424's
    /// simulator plays a random walk when `step` raises or returns an invalid move). The
    /// faults are noted in the rows (`first_random_moves`, `fault_detail`); a process that died
    /// or was killed (a crash, a timeout) is started again for the next move.
    RandomMove,
}

impl FaultRule {
    /// The course's rule: a random move for Colosseum (COMP 424), a loss for the others.
    pub fn default_for(game: &str) -> FaultRule {
        if game == "colosseum" {
            FaultRule::RandomMove
        } else {
            FaultRule::Loss
        }
    }
}

/// The start of a fault's detail when the agent answered `error ...` instead of a move.
const RAISED: &str = "the agent raised: ";

/// What an external agent's `memory_mb` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryMeasure {
    /// The peak virtual memory of its processes less their line: where the program says the
    /// course draws it (`info memory-line BYTES` before `ready`), else what they held at the
    /// handshake. COMP30024's referee holds the agent to VmPeak less `set_space_line`'s VmSize,
    /// taken after the interpreter, the referee and numpy, before the agent's module; the
    /// Freckers adapter says that line.
    AboveStart,
    /// The whole peak virtual memory of its processes.
    Peak,
}

impl MemoryMeasure {
    /// The course's measure: above the start for Freckers (COMP30024), the whole peak for the
    /// others.
    pub fn default_for(game: &str) -> MemoryMeasure {
        if game == "freckers" {
            MemoryMeasure::AboveStart
        } else {
            MemoryMeasure::Peak
        }
    }
}

/// The time rules of a game's external agents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExternalClock {
    pub per_move: Duration,
    pub first_move: Option<Duration>,
    pub game: Option<Duration>,
    pub kind: ClockKind,
}

impl ExternalClock {
    /// The courses' rules: Colosseum (COMP 424) 30 s for the first move and 2 s after, wall
    /// time; Freckers (COMP30024) 180 s of CPU time per game; Othello (the arena has none) 1 s
    /// per move, wall time.
    pub fn default_for(game: &str) -> ExternalClock {
        match game {
            "colosseum" => ExternalClock {
                per_move: Duration::from_secs(2),
                first_move: Some(Duration::from_secs(30)),
                game: None,
                kind: ClockKind::default_for(game),
            },
            "freckers" => ExternalClock {
                per_move: Duration::from_secs(180),
                first_move: None,
                game: Some(Duration::from_secs(180)),
                kind: ClockKind::default_for(game),
            },
            _ => ExternalClock {
                per_move: Duration::from_secs(1),
                first_move: None,
                game: None,
                kind: ClockKind::default_for(game),
            },
        }
    }

    /// The `time` line of a new game: `time move MS [first MS]` or `time game MS`.
    pub fn protocol_line(&self) -> String {
        match (self.game, self.first_move) {
            (Some(g), _) => format!("time game {}", g.as_millis()),
            (None, Some(f)) => format!(
                "time move {} first {}",
                self.per_move.as_millis(),
                f.as_millis()
            ),
            (None, None) => format!("time move {}", self.per_move.as_millis()),
        }
    }

    pub fn describe(&self) -> String {
        let rule = match (self.game, self.first_move) {
            (Some(g), _) => format!("{} s per game", g.as_secs_f64()),
            (None, Some(f)) => format!(
                "{} ms (first {} ms)",
                self.per_move.as_millis(),
                f.as_millis()
            ),
            (None, None) => format!("{} ms", self.per_move.as_millis()),
        };
        match self.kind {
            ClockKind::Cpu => format!("{rule} of CPU time"),
            ClockKind::Wall => rule,
        }
    }

    /// How long a move on the CPU clock may take in wall-clock time before it is ended anyway
    /// (an agent that sleeps or waits uses no CPU): three times its time plus the grace, at
    /// least 10 s. A single-threaded agent sharing a core three ways still gets its time.
    pub fn cpu_backstop(limit: Duration, grace: Duration) -> Duration {
        (limit * 3 + grace).max(Duration::from_secs(10))
    }
}

/// The largest `memory_mb` (16 TB): past it the limit in bytes would not fit the counters.
pub const MAX_MEMORY_MB: u64 = 1 << 24;

impl ExternalSpec {
    /// Checks what can be checked without running the program.
    pub fn check(&self) -> Result<(), String> {
        if self.command.is_empty() || self.command[0].trim().is_empty() {
            return Err(
                "command must name a program, e.g. command = [\"python3\", \"my_agent.py\"]".into(),
            );
        }
        for (name, v) in [
            ("time_ms", self.time_ms),
            ("first_move_ms", self.first_move_ms),
            ("init_timeout_ms", self.init_timeout_ms),
            ("memory_mb", self.memory_mb),
        ] {
            if v == Some(0) {
                return Err(format!("{name} must be positive"));
            }
        }
        for (name, v, max, what) in [
            ("time_ms", self.time_ms, super::MAX_MOVE_MS, "ms (a year)"),
            (
                "first_move_ms",
                self.first_move_ms,
                super::MAX_MOVE_MS,
                "ms (a year)",
            ),
            (
                "init_timeout_ms",
                self.init_timeout_ms,
                super::MAX_MOVE_MS,
                "ms (a year)",
            ),
            ("grace_ms", self.grace_ms, super::MAX_MOVE_MS, "ms (a year)"),
            ("memory_mb", self.memory_mb, MAX_MEMORY_MB, "MB"),
        ] {
            if let Some(v) = v.filter(|v| *v > max) {
                return Err(format!("{name} = {v} is past the largest, {max} {what}"));
            }
        }
        if let Some(t) = self.game_time_s.filter(|t| *t > super::MAX_GAME_TIME_S) {
            return Err(format!(
                "game_time_s = {t:e} is past the largest game clock, {} s",
                super::MAX_GAME_TIME_S
            ));
        }
        if let Some(t) = self.game_time_s {
            if !(t.is_finite() && t > 0.0) {
                return Err(format!("game_time_s = {t} must be a positive number"));
            }
            if self.time_ms.is_some() || self.first_move_ms.is_some() {
                return Err("give game_time_s or time_ms (with first_move_ms), not both".into());
            }
        }
        Ok(())
    }

    /// The time rules for `game`: the spec's own, or the game's defaults.
    pub fn clock(&self, game: &str) -> ExternalClock {
        let default = ExternalClock::default_for(game);
        let kind = self.clock.unwrap_or(default.kind);
        let ms = Duration::from_millis;
        match (self.game_time_s, self.time_ms) {
            (Some(t), _) => ExternalClock {
                per_move: Duration::from_secs_f64(t),
                first_move: None,
                game: Some(Duration::from_secs_f64(t)),
                kind,
            },
            (None, Some(t)) => ExternalClock {
                per_move: ms(t),
                first_move: self.first_move_ms.map(ms),
                game: None,
                kind,
            },
            (None, None) => ExternalClock {
                first_move: self.first_move_ms.map(ms).or(default.first_move),
                kind,
                ..default
            },
        }
    }

    fn grace(&self) -> Duration {
        Duration::from_millis(self.grace_ms.unwrap_or(500))
    }

    fn init_timeout(&self) -> Duration {
        Duration::from_millis(self.init_timeout_ms.unwrap_or(10_000))
    }

    fn workdir(&self) -> PathBuf {
        self.cwd
            .as_deref()
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("."))
    }

    /// Sets `fingerprint` from the bytes of every command argument that names a regular file,
    /// streamed in pieces of a MiB (one MiB of memory whatever the file). Errors: a file that
    /// cannot be read, and a file past the input cap (`durable::MAX_INPUT_BYTES`, 64 MiB, the
    /// cap on every file gamelab reads), named with its size and the cap before any read: a
    /// 2 GB file once took 2 GB and 11 s of a dry run. An interpreter named by its name
    /// (`node`) is found on PATH and not read; by a path (`/usr/bin/node`) it is an argument
    /// like any other.
    pub fn resolve_files(&mut self) -> Result<(), String> {
        let dir = self.workdir();
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        let mut any = false;
        for arg in &self.command {
            let p = dir.join(arg);
            if p.is_file() {
                h.update(arg.as_bytes());
                digest_file(&p, &mut h).map_err(|e| match e {
                    Digest::PastCap(len) => format!(
                        "{} (named in `command`) is {:.1} MiB, past the {} MiB cap on input \
                         files (gamelab reads each file the command names to tell an edited \
                         agent from the old one); name an interpreter by its name on PATH \
                         (`node`, not `/usr/bin/node`)",
                        p.display(),
                        len as f64 / (1u64 << 20) as f64,
                        crate::durable::MAX_INPUT_BYTES >> 20
                    ),
                    Digest::Io(e) => {
                        format!("cannot read {} (named in `command`): {e}", p.display())
                    }
                })?;
                any = true;
            }
        }
        self.fingerprint = if any {
            format!("{:016x}", h.digest())
        } else {
            String::new()
        };
        Ok(())
    }

    /// The pool key: processes of one spec (and log, and memory rule: the watch is the
    /// process's) are interchangeable.
    fn key(&self) -> String {
        format!(
            "{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
            self.command, self.cwd, self.env, self.log, self.memory_mb, self.memory_measure
        )
    }

    /// The spec with the game's course defaults filled in where it leaves them open (the
    /// memory measure and the clock): what the processes of `game` run under. Not what the job
    /// records (its hash is the file's).
    pub fn for_game(&self, game: &str) -> ExternalSpec {
        let mut spec = self.clone();
        spec.memory_measure = Some(
            self.memory_measure
                .unwrap_or_else(|| MemoryMeasure::default_for(game)),
        );
        spec.clock = Some(self.clock.unwrap_or_else(|| ClockKind::default_for(game)));
        spec.faults = Some(self.faults.unwrap_or_else(|| FaultRule::default_for(game)));
        spec
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    Normal,
    IllegalMove,
    Timeout,
    Crash,
    ProtocolError,
    Memory,
}

impl Termination {
    pub fn name(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::IllegalMove => "illegal_move",
            Termination::Timeout => "timeout",
            Termination::Crash => "crash",
            Termination::ProtocolError => "protocol_error",
            Termination::Memory => "memory",
        }
    }
}

/// A fault of an agent: what it was, and the line or message that shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: Termination,
    pub detail: String,
}

/// Longest `fault_detail` kept (a line an agent sent may be long): its first characters.
pub const MAX_FAULT_DETAIL: usize = 300;

fn fault(kind: Termination, detail: impl Into<String>) -> Fault {
    Fault {
        kind,
        detail: capped_detail(detail.into()),
    }
}

/// A `fault_detail` cut to its first `MAX_FAULT_DETAIL` characters, saying how long it was.
pub fn capped_detail(detail: String) -> String {
    if detail.len() > MAX_FAULT_DETAIL {
        let cut: String = detail.chars().take(MAX_FAULT_DETAIL).collect();
        format!("{cut}... ({} bytes in all)", detail.len())
    } else {
        detail
    }
}

/// Longest protocol line read from an agent (1 MiB): a longer one is a protocol error, read
/// past without being kept, so an agent cannot fill gamelab's memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Most of an agent's standard error kept in its log file (10 MB a file, the file of a job
/// and agent); past it the rest is counted and one line says how much was dropped.
pub const MAX_LOG_BYTES: u64 = 10_000_000;

/// A line from an agent, or the start of one that was too long.
enum Line {
    Text(String),
    TooLong { start: String, bytes: usize },
}

/// Reads lines of at most `MAX_LINE_BYTES` from `r` into `tx` until end of input or error.
fn read_bounded_lines(mut r: impl BufRead, tx: std::sync::mpsc::Sender<Line>) {
    let mut line: Vec<u8> = Vec::new();
    let mut dropped = 0usize;
    loop {
        let buf = match r.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(b) => b,
        };
        let (chunk, ends) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if dropped == 0 && line.len() + chunk.len() <= MAX_LINE_BYTES {
            line.extend_from_slice(chunk);
        } else {
            if dropped == 0 {
                dropped = line.len();
                line.truncate(80);
            }
            dropped += chunk.len();
        }
        let used = ends.unwrap_or(buf.len());
        r.consume(used);
        if ends.is_some() {
            let text = String::from_utf8_lossy(&line).into_owned();
            let msg = if dropped > 0 {
                Line::TooLong {
                    start: text,
                    bytes: dropped,
                }
            } else {
                Line::Text(text)
            };
            if tx.send(msg).is_err() {
                return;
            }
            line.clear();
            dropped = 0;
        }
    }
}

/// Copies an agent's standard error into its log file, up to `MAX_LOG_BYTES` in the file (the
/// file's length is read before each write, so the processes of one job share the cap); then
/// counts what it drops and, at the end, says how much in one line.
fn copy_capped_log(mut from: impl std::io::Read, path: PathBuf) {
    let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
    else {
        return;
    };
    let mut buf = vec![0u8; 64 * 1024];
    let mut dropped = 0u64;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        let room = MAX_LOG_BYTES.saturating_sub(len).min(n as u64) as usize;
        if room > 0 && file.write_all(&buf[..room]).is_err() {
            return;
        }
        dropped += (n - room) as u64;
    }
    if dropped > 0 {
        writeln!(file, "\n[gamelab: {dropped} more bytes of this agent's standard error dropped: the log keeps at most {MAX_LOG_BYTES} bytes]").ok();
    }
}

/// A running agent program under its keeper (`contain`: it and whatever it starts are killed
/// together, also when gamelab dies first, even by kill -9). `child` is the keeper.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    name: String,
    /// The thread copying standard error into the log: joined when the process is killed, so
    /// the log is whole (with its line on what was dropped) before gamelab exits.
    log_copy: Option<std::thread::JoinHandle<()>>,
    /// With `memory_mb`: set by the memory watch (to the peak it saw, in bytes) when it killed
    /// the program for going over.
    over_memory: std::sync::Arc<std::sync::atomic::AtomicU64>,
    memory_limit: Option<u64>,
    /// The memory watch's line (bytes; `UNSET` until the handshake under `AboveStart`).
    memory_line: std::sync::Arc<std::sync::atomic::AtomicU64>,
    memory_measure: MemoryMeasure,
    /// The line the program said its memory starts from (`info memory-line BYTES` before
    /// `ready`: the Freckers adapter says where the course's referee draws it).
    memory_line_said: Option<u64>,
}

/// Every process below process `pid`, the keeper of an agent (`contain`), whose own memory
/// and time are gamelab's and are not counted (at most 4096).
fn below_keeper(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    let mut todo = vec![pid];
    while let Some(p) = todo.pop() {
        if found.len() >= 4096 {
            break;
        }
        if p != pid {
            found.push(p);
        }
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) {
            for t in tasks.flatten() {
                if let Ok(children) = std::fs::read_to_string(t.path().join("children")) {
                    todo.extend(
                        children
                            .split_whitespace()
                            .filter_map(|c| c.parse::<u32>().ok()),
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

/// The sum of a status field (`status_bytes`) over the processes below keeper `pid`.
fn tree_bytes(pid: u32, field: &str) -> u64 {
    below_keeper(pid)
        .into_iter()
        .map(|p| status_bytes(p, field))
        .sum()
}

/// The CPU time of the processes below keeper `pid`: user and system time of each, with the
/// children each has waited for (`/proc/PID/stat` fields 14-17, in clock ticks).
fn tree_cpu(pid: u32) -> Duration {
    static TICK: LazyLock<u64> = LazyLock::new(|| {
        // SAFETY: sysconf has no preconditions.
        let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        if t > 0 { t as u64 } else { 100 }
    });
    let ticks: u64 = below_keeper(pid)
        .into_iter()
        .filter_map(|p| {
            let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).ok()?;
            // After the command name, which is in parentheses and may hold anything.
            let rest = &stat[stat.rfind(')')? + 1..];
            let fields: Vec<&str> = rest.split_whitespace().collect();
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
const UNSET: u64 = u64::MAX;

/// Watches the memory of the processes below keeper `pid` every 20 ms while they live: once
/// `line` is set (0 for the whole peak; what they held at the handshake for `AboveStart`), past
/// `limit` bytes above it, it records the amount in `over` and has the keeper kill them.
fn watch_memory(
    pid: u32,
    limit: u64,
    line: std::sync::Arc<std::sync::atomic::AtomicU64>,
    over: std::sync::Arc<std::sync::atomic::AtomicU64>,
) {
    use std::sync::atomic::Ordering::SeqCst;
    loop {
        if std::fs::metadata(format!("/proc/{pid}")).is_err() {
            return;
        }
        let peak = tree_bytes(pid, "VmPeak");
        let base = line.load(SeqCst);
        if base != UNSET && peak.saturating_sub(base) > limit {
            over.store(peak.saturating_sub(base).max(1), SeqCst);
            stop_contained(pid);
            return;
        }
        // No process below the keeper with a VmPeak (a zombie has none): the program is done.
        if peak == 0 {
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
                // The program: dies with its keeper, with the signal mask it would have had.
                libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
                libc::sigprocmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
                return Ok(());
            }
            close_every_descriptor();
            let status = watch(program, gamelab, &waited);
            kill_everything_below(program, status)
        }
    }

    /// Waits until the program exits (its wait status) or gamelab asks for the end or is gone
    /// (None).
    unsafe fn watch(
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

impl Process {
    /// Starts the program and shakes hands: gamelab sends `gamelab 1`, the program answers
    /// `ready 1 NAME` within `init_timeout_ms`.
    fn start(spec: &ExternalSpec) -> Result<Process, Fault> {
        let log = spec.log.clone().filter(|path| {
            path.parent()
                .is_none_or(|dir| std::fs::create_dir_all(dir).is_ok())
                && std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .is_ok()
        });
        let mut cmd = Command::new(&spec.command[0]);
        cmd.args(&spec.command[1..])
            .envs(&spec.env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.is_some() {
                Stdio::piped()
            } else {
                Stdio::inherit()
            });
        if let Some(dir) = &spec.cwd {
            cmd.current_dir(dir);
        }
        contain(&mut cmd);
        let mut child = cmd.spawn().map_err(|e| {
            fault(
                Termination::Crash,
                format!("cannot start {:?}: {e}", spec.command.join(" ")),
            )
        })?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let log_copy = match (log, child.stderr.take()) {
            (Some(path), Some(err)) => Some(std::thread::spawn(move || copy_capped_log(err, path))),
            _ => None,
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || read_bounded_lines(std::io::BufReader::new(stdout), tx));
        let over_memory = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let memory_limit = spec.memory_mb.map(|mb| mb * 1_000_000);
        let memory_measure = spec.memory_measure.unwrap_or(MemoryMeasure::Peak);
        let memory_line =
            std::sync::Arc::new(std::sync::atomic::AtomicU64::new(match memory_measure {
                MemoryMeasure::Peak => 0,
                MemoryMeasure::AboveStart => UNSET,
            }));
        if let Some(limit) = memory_limit {
            let (pid, line, over) = (child.id(), memory_line.clone(), over_memory.clone());
            std::thread::spawn(move || watch_memory(pid, limit, line, over));
        }
        let mut p = Process {
            child,
            stdin,
            lines: rx,
            name: String::new(),
            log_copy,
            over_memory,
            memory_limit,
            memory_line,
            memory_measure,
            memory_line_said: None,
        };
        p.send(&format!("gamelab {PROTOCOL_VERSION}"))?;
        let line = p
            .recv(Instant::now() + spec.init_timeout())
            .map_err(|f| match f.kind {
                Termination::Timeout => fault(
                    Termination::Timeout,
                    format!(
                        "no answer to the handshake within {} ms",
                        spec.init_timeout().as_millis()
                    ),
                ),
                _ => f,
            })?;
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("ready"), Some(v)) if v == PROTOCOL_VERSION.to_string() => {
                p.name = words.collect::<Vec<_>>().join(" ");
                if p.memory_measure == MemoryMeasure::AboveStart {
                    // Where the program says the course draws the line (its own process;
                    // never above what it holds now), else what it holds at the handshake.
                    let now = tree_bytes(p.child.id(), "VmSize");
                    let held = p.memory_line_said.map_or(now, |said| said.min(now));
                    p.memory_line
                        .store(held, std::sync::atomic::Ordering::SeqCst);
                }
                Ok(p)
            }
            (Some("error"), _) => {
                p.kill();
                let why = line["error".len()..].trim();
                Err(fault(
                    Termination::Crash,
                    format!("the agent cannot play as set up: {why}"),
                ))
            }
            (Some("ready"), Some(v)) => {
                p.kill();
                Err(fault(
                    Termination::ProtocolError,
                    format!(
                        "the agent speaks protocol version {v}; gamelab speaks {PROTOCOL_VERSION}"
                    ),
                ))
            }
            _ => {
                p.kill();
                Err(fault(
                    Termination::ProtocolError,
                    format!("expected `ready {PROTOCOL_VERSION} NAME`, got: {line}"),
                ))
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| self.crashed())
    }

    /// The next line that is not `info ...` (agents may say what they think), by `deadline`.
    fn recv(&mut self, deadline: Instant) -> Result<String, Fault> {
        match self.recv_until(deadline)? {
            Some(line) => Ok(line),
            None => {
                self.kill();
                Err(fault(Termination::Timeout, "no answer in time"))
            }
        }
    }

    /// The next line on the CPU clock: by the time `limit` of CPU used by the program's
    /// processes since `cpu_start`, looked at every 20 ms, and the wall-clock `backstop`.
    /// Returns the line (or the fault) and the CPU time used until then.
    fn recv_cpu(
        &mut self,
        cpu_start: Duration,
        limit: Duration,
        backstop: Instant,
    ) -> (Result<String, Fault>, Duration) {
        let pid = self.child.id();
        let mut used = Duration::ZERO;
        loop {
            let step = (Instant::now() + Duration::from_millis(20)).min(backstop);
            let line = self.recv_until(step);
            // A process that is gone reads as none: keep the last look.
            used = used.max(tree_cpu(pid).saturating_sub(cpu_start));
            match line {
                Ok(Some(line)) => return (Ok(line), used),
                Err(f) => return (Err(f), used),
                Ok(None) => {}
            }
            if used > limit {
                self.kill();
                return (Err(fault(Termination::Timeout, "no answer in time")), used);
            }
            if Instant::now() >= backstop {
                self.kill();
                return (
                    Err(fault(
                        Termination::Timeout,
                        format!(
                            "no answer within the CPU clock's wall-clock backstop ({:.1} s of CPU time used)",
                            used.as_secs_f64()
                        ),
                    )),
                    used,
                );
            }
        }
    }

    /// The next line that is not `info ...` by `deadline`, or None when none came by then
    /// (the program is left running).
    fn recv_until(&mut self, deadline: Instant) -> Result<Option<String>, Fault> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Line::Text(line))
                    if line.starts_with("info")
                        && (line.len() == 4 || line.as_bytes()[4] == b' ') =>
                {
                    if let Some(bytes) = line
                        .strip_prefix("info memory-line ")
                        .and_then(|b| b.trim().parse::<u64>().ok())
                    {
                        self.memory_line_said = Some(bytes);
                    }
                    continue;
                }
                Ok(Line::Text(line)) => return Ok(Some(line.trim_end().to_string())),
                Ok(Line::TooLong { start, bytes }) => {
                    self.kill();
                    return Err(fault(
                        Termination::ProtocolError,
                        format!(
                            "a line of {bytes} bytes, over the protocol's {MAX_LINE_BYTES}: {start}..."
                        ),
                    ));
                }
                Err(RecvTimeoutError::Timeout) => return Ok(None),
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            }
        }
    }

    /// The fault of a program whose output closed: its exit status, once it has one.
    fn crashed(&mut self) -> Fault {
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => break None,
            }
        };
        self.kill();
        if let Some(f) = self.memory_fault() {
            return f;
        }
        fault(
            Termination::Crash,
            match status {
                Some(s) => format!("the agent exited ({s})"),
                None => "the agent closed its output".to_string(),
            },
        )
    }

    /// The `memory` fault, when the watch found the program over its limit.
    fn memory_fault(&self) -> Option<Fault> {
        let used = self.over_memory.load(std::sync::atomic::Ordering::SeqCst);
        let limit = self.memory_limit.filter(|_| used > 0)?;
        let line = self.memory_line.load(std::sync::atomic::Ordering::SeqCst);
        Some(fault(
            Termination::Memory,
            match self.memory_measure {
                MemoryMeasure::Peak => format!(
                    "peak virtual memory {} MB (of every process of the agent), over memory_mb = {}",
                    used / 1_000_000,
                    limit / 1_000_000
                ),
                MemoryMeasure::AboveStart => format!(
                    "peak virtual memory {} MB above its start ({} MB at its line, as COMP30024's referee measures), over memory_mb = {}",
                    used / 1_000_000,
                    line / 1_000_000,
                    limit / 1_000_000
                ),
            },
        ))
    }

    /// The memory rule checked at a move's answer, as the course's referee checks it after
    /// each action (the watch looks every 20 ms, and a short burst between two looks would
    /// pass): over the limit, the program is killed and the fault returned.
    fn check_memory(&mut self) -> Result<(), Fault> {
        let Some(limit) = self.memory_limit else {
            return Ok(());
        };
        let line = self.memory_line.load(std::sync::atomic::Ordering::SeqCst);
        if line == UNSET {
            return Ok(());
        }
        let used = tree_bytes(self.child.id(), "VmPeak").saturating_sub(line);
        if used > limit {
            self.over_memory
                .store(used, std::sync::atomic::Ordering::SeqCst);
            self.kill();
            return Err(self.memory_fault().expect("over the limit"));
        }
        Ok(())
    }

    /// Kills the program and everything it started (its keeper does), and reaps the keeper.
    fn kill(&mut self) {
        stop_contained(self.child.id());
        self.child.wait().ok();
        if let Some(t) = self.log_copy.take() {
            t.join().ok();
        }
    }
}

/// Processes waiting for their next game, by spec.
static POOL: LazyLock<Mutex<HashMap<String, Vec<Process>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// A process for a new game: one from the pool that is still running (one that exited after
/// its last game is not this game's fault), or a new one.
fn checkout(spec: &ExternalSpec) -> Result<(Process, bool), Fault> {
    loop {
        let pooled = POOL
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(&spec.key())
            .and_then(Vec::pop);
        let Some(mut p) = pooled else {
            return Process::start(spec).map(|p| (p, false));
        };
        if matches!(p.child.try_wait(), Ok(None)) {
            return Ok((p, true));
        }
        p.kill();
    }
}

fn give_back(spec: &ExternalSpec, p: Process) {
    POOL.lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(spec.key())
        .or_default()
        .push(p);
}

/// Ends every pooled process: `quit`, then a kill for those that do not exit within a second.
pub fn shutdown() {
    let all: Vec<Process> = POOL
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .drain()
        .flat_map(|(_, v)| v)
        .collect();
    let deadline = Instant::now() + Duration::from_secs(1);
    let mut all: Vec<Process> = all
        .into_iter()
        .map(|mut p| {
            p.send("quit").ok();
            p
        })
        .collect();
    for p in &mut all {
        while Instant::now() < deadline && matches!(p.child.try_wait(), Ok(None)) {
            std::thread::sleep(Duration::from_millis(5));
        }
        p.kill();
    }
}

/// Starts the program once and shakes hands, so a command that does not exist, a handshake
/// that never comes or a wrong protocol version is an error before anything runs. Returns the
/// agent's name. The process is then told to quit (the run's processes write to the job's log).
pub fn probe(spec: &ExternalSpec, game: &str) -> Result<String, String> {
    let spec = &spec.for_game(game);
    static PROBED: LazyLock<Mutex<HashMap<String, String>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    if let Some(name) = PROBED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&spec.key())
    {
        return Ok(name.clone());
    }
    let mut p = Process::start(spec).map_err(|f| f.detail)?;
    let name = p.name.clone();
    p.send("quit").ok();
    let deadline = Instant::now() + Duration::from_millis(200);
    while Instant::now() < deadline && matches!(p.child.try_wait(), Ok(None)) {
        std::thread::sleep(Duration::from_millis(2));
    }
    p.kill();
    PROBED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(spec.key(), name.clone());
    Ok(name)
}

/// The course adapters (`adapters/`), each with the argument it takes and a `cwd` to run in.
const ADAPTERS: [(&str, &str, &str, &str); 3] = [
    (
        "COMP 424 Colosseum Survival",
        "colosseum/gamelab_colosseum.py",
        "agents/student_agent.py",
        "/path/to/your/colosseum-project",
    ),
    (
        "COMP30024 Freckers",
        "freckers/gamelab_freckers.py",
        "agent",
        "/path/to/your/part-b",
    ),
    (
        "Othello (gamelab's interface)",
        "othello/gamelab_othello.py",
        "my_othello.py",
        "/path/to/your/folder",
    ),
];

/// `gamelab adapters`: each course adapter's absolute path in this clone, as an agent section
/// to paste into an experiment file kept beside a student's agent: the adapter by its
/// absolute path, the agent's files relative to `cwd`. An error when the clone's `adapters/`
/// folder is gone (a binary moved away from its source).
pub fn adapters_text() -> Result<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters");
    let mut out = String::new();
    for (course, file, arg, cwd) in ADAPTERS {
        let path = root.join(file);
        if !path.is_file() {
            return Err(format!(
                "{} is not there: gamelab was built from {} and that clone has moved or lost its adapters/ folder",
                path.display(),
                env!("CARGO_MANIFEST_DIR")
            ));
        }
        let quoted = toml::Value::String(path.display().to_string());
        out.push_str(&format!(
            "# {course}\n[agents.mine]\nkind = \"external\"\ncommand = [\"python3\", {quoted}, \"{arg}\"]\ncwd = \"{cwd}\"\n\n"
        ));
    }
    Ok(out)
}

/// The games external agents can play: their name in the protocol, their positions as text and
/// the notation of their moves.
pub trait Protocol: Game {
    /// `othello`, `colosseum` or `freckers`.
    const NAME: &'static str;
    /// The position in the game's text format (the one `gamelab show` prints).
    fn position_text(&self) -> String;
}

/// An external program playing one seat of one game.
pub struct ExternalAgent<G: Protocol> {
    spec: ExternalSpec,
    clock: ExternalClock,
    process: Option<Process>,
    fault: Option<Fault>,
    seat: Option<Player>,
    /// The game as the agent was told it, to name the moves it observes.
    state: G,
    clock_left: Option<Duration>,
    /// The time its moves took on its clock this game (`clock.kind`).
    clock_used: Duration,
    /// Under `FaultRule::RandomMove`: the faults this game that cost a move, each with the move
    /// played at random for it.
    replaced: Vec<String>,
    /// The agent's seed for this game (`begin`), told again to a restarted process.
    seed: u64,
    /// On the CPU clock: the CPU time of the process when the game began (`begin`), so the
    /// first move's time includes the agent's construction, as in COMP30024's referee.
    cpu_at_begin: Option<Duration>,
    moves: u32,
    /// Whether the process came from the pool (it played an earlier game).
    reused: bool,
    /// Every line sent in this game, to replay to a fresh process (see `choose`).
    sent: Vec<String>,
}

impl<G: Protocol> ExternalAgent<G> {
    pub fn new(spec: &ExternalSpec, start: &G) -> ExternalAgent<G> {
        let clock = spec.clock(G::NAME);
        ExternalAgent {
            spec: spec.for_game(G::NAME),
            clock_used: Duration::ZERO,
            replaced: Vec::new(),
            seed: 0,
            cpu_at_begin: None,
            clock,
            process: None,
            fault: None,
            seat: None,
            state: start.clone(),
            clock_left: clock.game,
            moves: 0,
            reused: false,
            sent: Vec::new(),
        }
    }

    /// Sends lines, turning an error into the agent's fault.
    fn send(&mut self, lines: &[String]) {
        if self.fault.is_some() {
            return;
        }
        // Only what comes before the first move may have to be told to a fresh process again.
        if self.reused && self.moves == 0 {
            self.sent.extend(lines.iter().cloned());
        }
        let Some(p) = self.process.as_mut() else {
            return;
        };
        if let Err(f) = lines.iter().try_for_each(|line| p.send(line)) {
            if let Err(f) = self.replace_exited(f) {
                self.fail(f);
            }
        }
    }

    /// A process from the pool that turns out to have exited before this game's first move (it
    /// ended after its last game) is not at fault: a fresh one is started and told the game so
    /// far. Any other fault stands.
    fn replace_exited(&mut self, f: Fault) -> Result<(), Fault> {
        if !(self.reused && self.moves == 0 && f.kind == Termination::Crash) {
            return Err(f);
        }
        self.reused = false;
        if let Some(mut exited) = self.process.take() {
            exited.kill();
        }
        let mut p = Process::start(&self.spec)?;
        self.sent.iter().try_for_each(|line| p.send(line))?;
        self.process = Some(p);
        Ok(())
    }

    fn fail(&mut self, f: Fault) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        self.fault.get_or_insert(f);
    }

    fn position_lines(g: &G) -> Vec<String> {
        let text = g.position_text();
        let lines: Vec<&str> = text.lines().collect();
        std::iter::once(format!("position {}", lines.len()))
            .chain(lines.into_iter().map(str::to_string))
            .collect()
    }

    /// Asks the process for its move in `game` (whose legal moves are `legal`): the move, or
    /// the fault (the process is then killed, unless the fault leaves it in step with the game:
    /// an illegal move, or an `error` it answered instead of a move).
    fn ask(&mut self, game: &G, legal: &[G::Move]) -> Result<G::Move, Fault> {
        let names: Vec<String> = legal.iter().map(|&m| game.move_name(m)).collect();
        let limit = self.move_time();
        let mut lines = Self::position_lines(game);
        // One move a line: some notations have spaces (Freckers: `MOVE (0, 1) [DOWN]`).
        lines.push(format!("legal {}", names.len()));
        lines.extend(names.iter().cloned());
        lines.push(format!("go {}", limit.as_millis()));
        self.send(&lines);
        if let Some(f) = self.fault.take() {
            return Err(f);
        }
        let (kind, grace) = (self.clock.kind, self.spec.grace());
        let (mut answer, mut used) = self.await_move(limit);
        if let Err(f) = answer {
            (answer, used) = match self.replace_exited(f) {
                Ok(()) => self.await_move(limit),
                Err(f) => (Err(f), used),
            };
        }
        self.moves += 1;
        self.clock_used += used;
        if let Some(left) = self.clock_left.as_mut() {
            *left = left.saturating_sub(used);
        }
        // On the CPU clock the answer may come between two looks at the clock: past the time
        // and grace it is late all the same (the course's referee checks after the action).
        if answer.is_ok() && kind == ClockKind::Cpu && used > limit + grace {
            answer = Err(fault(Termination::Timeout, "late"));
        }
        let line = match answer {
            Ok(line) => line,
            Err(mut f) => {
                if f.kind == Termination::Timeout && !f.detail.contains("backstop") {
                    f.detail = format!(
                        "no move within {} ms (+{} ms grace) of {} time",
                        limit.as_millis(),
                        grace.as_millis(),
                        match kind {
                            ClockKind::Cpu => "CPU",
                            ClockKind::Wall => "wall-clock",
                        }
                    );
                }
                if let Some(mut p) = self.process.take() {
                    p.kill();
                }
                return Err(f);
            }
        };
        if let Some(p) = self.process.as_mut()
            && let Err(f) = p.check_memory()
        {
            self.process = None;
            return Err(f);
        }
        if let Some(why) = line.strip_prefix("error ") {
            return Err(fault(Termination::Crash, format!("{RAISED}{}", why.trim())));
        }
        let Some(name) = line.strip_prefix("move ").map(str::trim) else {
            if let Some(mut p) = self.process.take() {
                p.kill();
            }
            return Err(fault(
                Termination::ProtocolError,
                format!("expected `move M`, got: {line}"),
            ));
        };
        match names.iter().position(|n| n == name) {
            Some(i) => Ok(legal[i]),
            None => Err(fault(Termination::IllegalMove, line.clone())),
        }
    }

    /// Under `FaultRule::RandomMove`: a legal move drawn at random for the agent after fault
    /// `f`, noted for the rows (`Agent::replaced_faults`). The process is kept when the fault
    /// left it in step with the game (an illegal move, an error it answered), else it is gone
    /// and a new one is started for the next move (`restart`).
    fn random_move(
        &mut self,
        f: Fault,
        game: &G,
        legal: &[G::Move],
        rng: &mut GameRng,
        moves_before: u32,
    ) -> G::Move {
        let in_step = f.kind == Termination::IllegalMove || f.detail.starts_with(RAISED);
        if !in_step && let Some(mut p) = self.process.take() {
            p.kill();
        }
        let mv = legal[crate::rng::below(rng, legal.len())];
        self.moves = moves_before + 1;
        self.replaced.push(format!(
            "move {}: {} ({}), played at random: {}",
            self.moves,
            f.kind.name(),
            f.detail,
            game.move_name(mv)
        ));
        mv
    }

    /// A new process for a game under way (the last one died or was killed): told the game,
    /// its seat and clock, and the position now as its start.
    fn restart(&mut self, game: &G) -> Result<(), Fault> {
        let (p, _) = checkout(&self.spec)?;
        self.process = Some(p);
        self.reused = false;
        let side = if self.seat == Some(Player::First) {
            "first"
        } else {
            "second"
        };
        let mut lines = vec![
            format!("newgame {} {side} {}", G::NAME, self.seed),
            self.clock.protocol_line(),
        ];
        lines.extend(Self::position_lines(game));
        self.send(&lines);
        self.fault.take().map_or(Ok(()), Err)
    }

    /// The agent's answer to `go`, within `limit` (and the grace) on its clock, with the time
    /// it took on that clock (until the answer, or until the fault).
    fn await_move(&mut self, limit: Duration) -> (Result<String, Fault>, Duration) {
        let grace = self.spec.grace();
        let kind = self.clock.kind;
        let p = self.process.as_mut().expect("a live process");
        let t0 = Instant::now();
        match kind {
            ClockKind::Wall => {
                let r = p.recv(t0 + limit + grace);
                (r, t0.elapsed())
            }
            ClockKind::Cpu => {
                // The first move's time starts at the game's start: the agent's construction
                // counts, as in COMP30024's referee (unless a new process had to be started).
                let cpu0 = match (self.moves, self.cpu_at_begin.take()) {
                    (0, Some(at_begin)) => at_begin,
                    _ => tree_cpu(p.child.id()),
                };
                let backstop = t0 + ExternalClock::cpu_backstop(limit, grace);
                p.recv_cpu(cpu0, limit + grace, backstop)
            }
        }
    }

    /// The time of the next move.
    fn move_time(&self) -> Duration {
        match (self.clock_left, self.clock.first_move) {
            (Some(left), _) => left,
            (None, Some(first)) if self.moves == 0 => first,
            _ => self.clock.per_move,
        }
    }
}

impl<G: Protocol> Agent<G> for ExternalAgent<G> {
    fn begin(&mut self, seat: Player, seed: u64) {
        self.seat = Some(seat);
        self.seed = seed;
        match checkout(&self.spec) {
            Ok((p, reused)) => {
                self.process = Some(p);
                self.reused = reused;
            }
            Err(f) => {
                self.fault = Some(f);
                return;
            }
        }
        let side = if seat == Player::First {
            "first"
        } else {
            "second"
        };
        let mut lines = vec![
            format!("newgame {} {side} {seed}", G::NAME),
            self.clock.protocol_line(),
        ];
        lines.extend(Self::position_lines(&self.state));
        if self.clock.kind == ClockKind::Cpu {
            self.cpu_at_begin = self.process.as_ref().map(|p| tree_cpu(p.child.id()));
        }
        self.send(&lines);
    }

    fn choose(&mut self, game: &G, rng: &mut GameRng, _budget: Budget) -> G::Move {
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        let moves_before = self.moves;
        if self.spec.faults == Some(FaultRule::RandomMove) {
            // The course's rule: a fault costs the move, not the game.
            let asked = match self.fault.take() {
                Some(f) => Err(f),
                None if self.process.is_none() => {
                    self.restart(game).and_then(|()| self.ask(game, &legal))
                }
                None => self.ask(game, &legal),
            };
            return match asked {
                Ok(mv) => mv,
                Err(f) => self.random_move(f, game, &legal, rng, moves_before),
            };
        }
        if self.fault.is_some() {
            return legal[0];
        }
        match self.ask(game, &legal) {
            Ok(mv) => mv,
            Err(f) => {
                self.fail(f);
                legal[0]
            }
        }
    }

    fn observe(&mut self, mv: G::Move) {
        let name = self.state.move_name(mv);
        let by = self.state.to_move();
        self.state.play(mv);
        if self.seat.is_some_and(|s| s != by) {
            self.send(&[format!("opponent {name}")]);
        }
    }

    fn end(&mut self, result: f64) {
        let word = if result >= 1.0 {
            "win"
        } else if result > 0.0 {
            "draw"
        } else {
            "loss"
        };
        self.send(&[format!("gameover {word}")]);
        if let (None, Some(p)) = (&self.fault, self.process.take()) {
            give_back(&self.spec, p);
        }
        self.sent.clear();
    }

    fn fault(&mut self) -> Option<Fault> {
        self.fault.clone()
    }

    fn replaced_faults(&self) -> Option<Vec<String>> {
        (self.spec.faults == Some(FaultRule::RandomMove)).then(|| self.replaced.clone())
    }

    fn budget_text(&self) -> Option<String> {
        Some(self.clock.describe())
    }

    fn effort(&self) -> Effort {
        Effort {
            clock: Some(self.clock.kind.name()),
            clock_used_us: self.clock_used.as_micros() as u64,
            ..Effort::default()
        }
    }
}

impl<G: Protocol> Drop for ExternalAgent<G> {
    /// A game that ended without `end` (an error elsewhere): its process is in an unknown
    /// state and is not reused.
    fn drop(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
    }
}

use super::Budget;

/// The log file of an external agent of a job.
pub fn log_path(results: &Path, job: &str, label: &str) -> PathBuf {
    results
        .join("logs")
        .join(crate::durable::safe_component(&format!(
            "{job}-{label}.log"
        )))
}

/// Why a file named in an agent's command has no digest.
enum Digest {
    /// Its length, past `durable::MAX_INPUT_BYTES`.
    PastCap(u64),
    Io(std::io::Error),
}

/// Feeds a file's bytes to `h` in pieces of a MiB, or says it is past the input cap (by its
/// length, before reading; a file that grows past the cap while read is caught too).
fn digest_file(path: &Path, h: &mut xxhash_rust::xxh3::Xxh3) -> Result<(), Digest> {
    use std::io::Read;
    const PIECE: usize = 1 << 20;
    let cap = crate::durable::MAX_INPUT_BYTES;
    let mut f = std::fs::File::open(path).map_err(Digest::Io)?;
    let len = f.metadata().map_err(Digest::Io)?.len();
    if len > cap {
        return Err(Digest::PastCap(len));
    }
    let mut buf = vec![0u8; PIECE];
    let mut read = 0u64;
    loop {
        let n = f.read(&mut buf).map_err(Digest::Io)?;
        if n == 0 {
            return Ok(());
        }
        read += n as u64;
        if read > cap {
            return Err(Digest::PastCap(read));
        }
        h.update(&buf[..n]);
    }
}

#[cfg(test)]
mod fingerprint_tests {
    use super::{ClockKind, ExternalSpec, MemoryMeasure};

    #[test]
    fn the_course_defaults_are_the_cpu_clock_and_memory_above_the_start_for_freckers_only() {
        let spec: ExternalSpec = toml::from_str("command = [\"x\"]").unwrap();
        let freckers = spec.for_game("freckers");
        assert_eq!(freckers.clock, Some(ClockKind::Cpu));
        assert_eq!(freckers.memory_measure, Some(MemoryMeasure::AboveStart));
        assert_eq!(spec.clock("freckers").kind, ClockKind::Cpu);
        for game in ["colosseum", "othello", "openspiel"] {
            let s = spec.for_game(game);
            assert_eq!(s.clock, Some(ClockKind::Wall), "{game}");
            assert_eq!(s.memory_measure, Some(MemoryMeasure::Peak), "{game}");
            assert_eq!(spec.clock(game).kind, ClockKind::Wall, "{game}");
        }
        // The file's own choice wins, with any time rule.
        let mine: ExternalSpec = toml::from_str(
            "command = [\"x\"]\nclock = \"wall\"\ngame_time_s = 60.0\nmemory_measure = \"peak\"",
        )
        .unwrap();
        assert_eq!(mine.clock("freckers").kind, ClockKind::Wall);
        assert_eq!(
            mine.for_game("freckers").memory_measure,
            Some(MemoryMeasure::Peak)
        );
        // Unset, neither is written into the job (its hash is the file's).
        assert!(!serde_json::to_string(&spec).unwrap().contains("clock"));
    }

    fn spec(dir: &std::path::Path, args: &[&str]) -> ExternalSpec {
        let mut s: ExternalSpec = serde_json::from_value(serde_json::json!({
            "command": args,
            "cwd": dir.to_str().unwrap(),
        }))
        .unwrap();
        s.resolve_files().unwrap();
        s
    }

    #[test]
    fn a_small_file_counts_whole_and_one_past_the_cap_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("agent.py"), b"print('hi')\n").unwrap();
        // Files under the cap: the argument and every byte, as one digest (the job hashes of
        // earlier runs stay).
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(b"agent.py");
        h.update(b"print('hi')\n");
        let small = spec(dir.path(), &["python3", "agent.py", "--fast"]);
        assert_eq!(small.fingerprint, format!("{:016x}", h.digest()));
        // A file of exactly the cap counts whole: a change in its last byte is a new agent.
        let at_cap = dir.path().join("weights.bin");
        let f = std::fs::File::create(&at_cap).unwrap();
        f.set_len(crate::durable::MAX_INPUT_BYTES).unwrap();
        let a = spec(dir.path(), &["python3", "agent.py", "weights.bin"]).fingerprint;
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(&at_cap)
            .unwrap();
        f.seek(SeekFrom::End(-1)).unwrap();
        f.write_all(b"x").unwrap();
        let b = spec(dir.path(), &["python3", "agent.py", "weights.bin"]).fingerprint;
        assert!(a != b && a != small.fingerprint);
        // One byte past it (a 3 GB sparse file alike): an error naming the file, its size and
        // the cap, before any read.
        f.set_len(crate::durable::MAX_INPUT_BYTES + 1).unwrap();
        let mut s: ExternalSpec = serde_json::from_value(serde_json::json!({
            "command": ["python3", "agent.py", "weights.bin"],
            "cwd": dir.path().to_str().unwrap(),
        }))
        .unwrap();
        let e = s.resolve_files().unwrap_err();
        assert!(
            e.contains("weights.bin") && e.contains("64.0 MiB") && e.contains("64 MiB cap"),
            "{e}"
        );
        f.set_len(3 << 30).unwrap();
        let e = s.resolve_files().unwrap_err();
        assert!(e.contains("3072.0 MiB, past the 64 MiB cap"), "{e}");
    }
}
