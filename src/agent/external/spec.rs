//! The agent file's `kind = "external"` section: the program and where it runs, its clock,
//! memory measure and fault rule with the courses' defaults, and the fingerprint that puts the
//! program's files into the job's hash.

use super::*;

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
    /// Environment variables set for the program: in the sandbox, on top of its clean
    /// environment (PATH, HOME, TMPDIR, LANG); with `sandbox = "none"`, on top of gamelab's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// `"bwrap"` (the default: the sandbox, `sandbox.rs`) or `"none"`: the program runs with
    /// gamelab's own rights (the report says so beside its rows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<SandboxKind>,
    /// Whether the sandbox has the network (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<bool>,
    /// Whether the program gets a writable copy of its `cwd` (in memory, dropped with its
    /// sandbox) instead of the folder read-only (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scratch: Option<bool>,
    /// Host paths the program may read besides its own folder and the system (relative ones
    /// from the folder gamelab runs in).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read: Vec<String>,
    /// The sandbox's kernel limits (`[agents.NAME.limits]`); unset ones take the defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<KernelLimits>,
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
    /// `kind = "uci"`: the nodes of each search (`go nodes N`), for rows that reproduce.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// `kind = "uci"`: the depth of each search (`go depth D`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// `kind = "uci"` and `"gtp"`: whether the engine is told its time (UCI `go movetime` /
    /// `wtime`, GTP `time_settings`; default true). With false the time rule is gamelab's
    /// deadline alone and the engine plays as it is set (its level, its nodes): an engine that
    /// plays by its clock makes moves that depend on the machine's speed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tell_time: Option<bool>,
    /// `kind = "uci"`: engine options, each sent as `setoption name NAME value V` after the
    /// handshake (`Threads = 1`, `Hash = 16`, `"Skill Level" = 5`); each must be one the
    /// engine declares.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, toml::Value>,
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
pub(super) const RAISED: &str = "the agent raised: ";

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
    /// Checks the section of an agent speaking `dialect` (its kind).
    pub fn check(&self, dialect: Dialect) -> Result<(), String> {
        if dialect == Dialect::Gamelab && self.tell_time.is_some() {
            return Err(
                "tell_time is a key of kind = \"uci\" and \"gtp\" (what an engine is told of its clock)".into(),
            );
        }
        if dialect == Dialect::Uci
            && self.tell_time == Some(false)
            && self.nodes.is_none()
            && self.depth.is_none()
        {
            return Err(
                "tell_time = false leaves a UCI search without a limit: give nodes or depth".into(),
            );
        }
        if dialect != Dialect::Uci {
            for (key, set) in [
                ("nodes", self.nodes.is_some()),
                ("depth", self.depth.is_some()),
                ("options", !self.options.is_empty()),
            ] {
                if set {
                    return Err(format!(
                        "{key} is a key of kind = \"uci\" (a chess engine's search), not of kind = \"{}\"",
                        dialect.kind_name()
                    ));
                }
            }
        }
        if self.nodes == Some(0) || self.depth == Some(0) {
            return Err("nodes and depth must be positive".into());
        }
        for (name, v) in &self.options {
            if matches!(
                v,
                toml::Value::Array(_) | toml::Value::Table(_) | toml::Value::Datetime(_)
            ) {
                return Err(format!(
                    "options.{name}: an engine option's value is a number, a string or a boolean"
                ));
            }
        }
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
            (
                "time_ms",
                self.time_ms,
                crate::agent::MAX_MOVE_MS,
                "ms (a year)",
            ),
            (
                "first_move_ms",
                self.first_move_ms,
                crate::agent::MAX_MOVE_MS,
                "ms (a year)",
            ),
            (
                "init_timeout_ms",
                self.init_timeout_ms,
                crate::agent::MAX_MOVE_MS,
                "ms (a year)",
            ),
            (
                "grace_ms",
                self.grace_ms,
                crate::agent::MAX_MOVE_MS,
                "ms (a year)",
            ),
            ("memory_mb", self.memory_mb, MAX_MEMORY_MB, "MB"),
        ] {
            if let Some(v) = v.filter(|v| *v > max) {
                return Err(format!("{name} = {v} is past the largest, {max} {what}"));
            }
        }
        if let Some(t) = self
            .game_time_s
            .filter(|t| *t > crate::agent::MAX_GAME_TIME_S)
        {
            return Err(format!(
                "game_time_s = {t:e} is past the largest game clock, {} s",
                crate::agent::MAX_GAME_TIME_S
            ));
        }
        if let Some(l) = &self.limits {
            l.check()?;
        }
        if self.sandbox == Some(SandboxKind::None)
            && (self.network.is_some()
                || self.scratch.is_some()
                || !self.read.is_empty()
                || self.limits.is_some())
        {
            return Err("network, scratch, read and limits are the sandbox's: with sandbox = \"none\" there is none".into());
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

    pub(super) fn grace(&self) -> Duration {
        Duration::from_millis(self.grace_ms.unwrap_or(500))
    }

    pub(super) fn init_timeout(&self) -> Duration {
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

    /// The key of the programs a run starts once to check them (`probe`).
    pub(super) fn key(&self) -> String {
        format!(
            "{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
            self.command,
            self.cwd,
            self.env,
            self.log,
            self.memory_mb,
            self.memory_measure,
            self.sandbox,
            self.network,
            self.scratch,
            self.read,
            self.limits
        )
    }

    /// Whether the program runs in the sandbox (`sandbox` unset or `"bwrap"`).
    pub fn sandboxed(&self) -> bool {
        self.sandbox.unwrap_or_default() == SandboxKind::Bwrap
    }

    /// The sandbox its processes run in under `clock`: None with `sandbox = "none"`. The CPU
    /// limit's default is the clock's budget for a game (a game clock, else the first move and
    /// `CPU_MOVES` moves) plus `CPU_MARGIN_S`.
    pub(super) fn sandbox_spec(&self, clock: &ExternalClock) -> Option<SandboxSpec> {
        if !self.sandboxed() {
            return None;
        }
        let budget = clock.game.unwrap_or_else(|| {
            clock.first_move.unwrap_or(clock.per_move)
                + clock.per_move.saturating_mul(sandbox::CPU_MOVES as u32)
        });
        Some(SandboxSpec {
            network: self.network.unwrap_or(false),
            scratch: self.scratch.unwrap_or(false),
            read: self.read.iter().map(PathBuf::from).collect(),
            env: self
                .env
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            limits: self.limits.clone().unwrap_or_default().resolve(budget),
        })
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

    pub(super) fn spec(dir: &std::path::Path, args: &[&str]) -> ExternalSpec {
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
