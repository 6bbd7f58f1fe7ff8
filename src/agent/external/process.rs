//! A running agent program: starting it (in its sandbox) and its handshake, the protocol's
//! lines read with a deadline and a length bound, its standard error copied to a capped log,
//! and its end. Each game starts its programs afresh and ends them (`Process::finish`).

use super::*;

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
/// together, also when gamelab dies first, even by kill -9), in its sandbox unless the section
/// says `sandbox = "none"`. `child` is the keeper.
pub(super) struct Process {
    pub(super) child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    pub(super) name: String,
    /// The thread copying standard error into the log: waited for (at most `KILL_GRACE`) when
    /// the process is killed, so the log is whole (with its line on what was dropped).
    log_copy: Option<(std::thread::JoinHandle<()>, Receiver<()>)>,
    /// What the watch of its processes saw (`watch_memory`).
    watched: std::sync::Arc<Watched>,
    memory_limit: Option<u64>,
    /// The memory watch's line (bytes; `UNSET` until the handshake under `AboveStart`).
    memory_line: std::sync::Arc<std::sync::atomic::AtomicU64>,
    memory_measure: MemoryMeasure,
    /// The line the program said its memory starts from (`info memory-line BYTES` before
    /// `ready`: the Freckers adapter says where the course's referee draws it).
    memory_line_said: Option<u64>,
    /// The sandbox's limits (None without a sandbox).
    limits: Option<Limits>,
    /// The levels below the keeper that are the sandbox's own processes (`below_keeper`).
    skip: usize,
    /// The sandbox's uid, held while it lives.
    _slot: Slot,
    /// The CPU time of its processes at the last look (`cpu`), kept once they are gone.
    last_cpu: Duration,
    /// Its standard error's log file, if it has one.
    log: Option<PathBuf>,
    /// Whether blank lines are read past (GTP ends each answer with one).
    skip_blank: bool,
}

/// The last line of a log file that says something (read from its last 4 kB).
fn last_words(path: &Path) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    f.seek(SeekFrom::Start(len.saturating_sub(4096))).ok()?;
    let mut tail = Vec::new();
    f.read_to_end(&mut tail).ok()?;
    String::from_utf8_lossy(&tail)
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("[gamelab:"))
        .map(str::to_string)
}

impl Process {
    /// Starts the program (in its sandbox, `sandbox::command`, unless `sandbox = "none"`) and
    /// shakes hands: gamelab sends `gamelab 1`, the program answers `ready 1 NAME` within
    /// `init_timeout_ms`.
    pub(super) fn start(
        spec: &ExternalSpec,
        dialect: Dialect,
        clock: &ExternalClock,
    ) -> Result<Process, Fault> {
        let log = spec.log.clone().filter(|path| {
            path.parent()
                .is_none_or(|dir| std::fs::create_dir_all(dir).is_ok())
                && std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .is_ok()
        });
        let sandbox = spec.sandbox_spec(clock);
        let (mut cmd, slot) = match &sandbox {
            Some(s) => {
                available().map_err(|why| fault(Termination::Crash, unavailable_advice(&why)))?;
                command(s, &spec.command, spec.cwd.as_deref().map(Path::new))
                    .map_err(|e| fault(Termination::Crash, e))?
            }
            None => {
                let mut cmd = Command::new(&spec.command[0]);
                cmd.args(&spec.command[1..]).envs(&spec.env);
                if let Some(dir) = &spec.cwd {
                    cmd.current_dir(dir);
                }
                contain(&mut cmd);
                (cmd, Slot::none())
            }
        };
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.is_some() {
                Stdio::piped()
            } else {
                Stdio::inherit()
            });
        let mut child = cmd.spawn().map_err(|e| {
            fault(
                Termination::Crash,
                format!("cannot start {:?}: {e}", spec.command.join(" ")),
            )
        })?;
        let skip = if sandbox.is_some() { 2 } else { 0 };
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let log_path = log.clone();
        let log_copy = match (log, child.stderr.take()) {
            (Some(path), Some(err)) => {
                let (done, finished) = channel();
                let copy = std::thread::spawn(move || {
                    copy_capped_log(err, path);
                    done.send(()).ok();
                });
                Some((copy, finished))
            }
            _ => None,
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || read_bounded_lines(std::io::BufReader::new(stdout), tx));
        let watched = std::sync::Arc::new(Watched::default());
        let memory_limit = spec.memory_mb.map(|mb| mb * 1_000_000);
        let memory_measure = spec.memory_measure.unwrap_or(MemoryMeasure::Peak);
        let memory_line =
            std::sync::Arc::new(std::sync::atomic::AtomicU64::new(match memory_measure {
                MemoryMeasure::Peak => 0,
                MemoryMeasure::AboveStart => UNSET,
            }));
        if memory_limit.is_some() || sandbox.is_some() {
            let (pid, line, seen) = (child.id(), memory_line.clone(), watched.clone());
            std::thread::spawn(move || watch_memory(pid, skip, memory_limit, line, seen));
        }
        let mut p = Process {
            child,
            stdin,
            lines: rx,
            name: String::new(),
            log_copy,
            watched,
            memory_limit,
            memory_line,
            memory_measure,
            memory_line_said: None,
            limits: sandbox.map(|s| s.limits),
            skip,
            _slot: slot,
            last_cpu: Duration::ZERO,
            log: log_path,
            skip_blank: dialect == Dialect::Gtp,
        };
        if dialect != Dialect::Gamelab {
            let shaken = match dialect {
                Dialect::Uci => p.uci_handshake(spec),
                _ => p.gtp_handshake(spec),
            };
            if let Err(f) = shaken {
                p.kill();
                return Err(f);
            }
            if p.memory_measure == MemoryMeasure::AboveStart {
                let now = p.bytes("VmSize");
                p.memory_line
                    .store(now, std::sync::atomic::Ordering::SeqCst);
            }
            return Ok(p);
        }
        p.send(&format!("gamelab {PROTOCOL_VERSION}"))?;
        let line = p
            .recv(Instant::now() + spec.init_timeout())
            .map_err(|f| engine::handshake_late(spec, f, "answer to the handshake"))?;
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("ready"), Some(v)) if v == PROTOCOL_VERSION.to_string() => {
                p.name = words.collect::<Vec<_>>().join(" ");
                if p.memory_measure == MemoryMeasure::AboveStart {
                    // Where the program says the course draws the line (its own process;
                    // never above what it holds now), else what it holds at the handshake.
                    let now = p.bytes("VmSize");
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

    /// The CPU time of the program's processes (not the sandbox's own), the last one seen
    /// once they are gone.
    pub(super) fn cpu(&mut self) -> Duration {
        self.last_cpu = self.last_cpu.max(tree_cpu(self.child.id(), self.skip));
        self.last_cpu
    }

    /// A status field summed over the program's processes (`tree_bytes`).
    fn bytes(&self, field: &str) -> u64 {
        tree_bytes(self.child.id(), self.skip, field)
    }

    pub(super) fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| self.crashed())
    }

    /// The next line that is not `info ...` (agents may say what they think), by `deadline`.
    pub(super) fn recv(&mut self, deadline: Instant) -> Result<String, Fault> {
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
    pub(super) fn recv_cpu(
        &mut self,
        cpu_start: Duration,
        limit: Duration,
        backstop: Instant,
    ) -> (Result<String, Fault>, Duration) {
        let mut used = Duration::ZERO;
        loop {
            let step = (Instant::now() + Duration::from_millis(20)).min(backstop);
            let line = self.recv_until(step);
            // A process that is gone reads as none: keep the last look.
            used = used.max(self.cpu().saturating_sub(cpu_start));
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
                Ok(Line::Text(line)) if self.skip_blank && line.trim().is_empty() => continue,
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

    /// The fault of a program whose output closed: its exit status, once it has one, and the
    /// sandbox's limit it hit, if its status or the watch shows one.
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
        let cpu = self.cpu();
        self.kill();
        if let Some(f) = self.memory_fault() {
            return f;
        }
        let mut detail = match status {
            Some(s) => format!("the agent exited ({s})"),
            None => "the agent closed its output".to_string(),
        };
        let said = self.log.as_deref().and_then(last_words);
        if let Some(why) = self
            .limit_hit(status.and_then(|s| s.code()), cpu)
            .or_else(|| Some(self.limits?.hit(sandbox::limit_named_in(said.as_deref()?)?)))
        {
            detail = format!("{detail}: {why}");
        }
        if let Some(said) = said {
            detail = format!("{detail}; its log ends: {said}");
        }
        fault(Termination::Crash, detail)
    }

    /// The sandbox's limit the program hit, by its exit status and what the watch saw.
    pub(super) fn limit_hit(&self, code: Option<i32>, cpu: Duration) -> Option<String> {
        let limits = self.limits.as_ref()?;
        use std::sync::atomic::Ordering::SeqCst;
        let address_space = limits.address_space_mb.saturating_mul(1_000_000);
        let hit = sandbox::limit_hit(code, limits, cpu)
            .or_else(|| {
                (self.watched.process_peak.load(SeqCst) + 50_000_000 >= address_space)
                    .then_some(sandbox::Limit::AddressSpace)
            })
            .or_else(|| {
                (self.watched.threads.load(SeqCst) >= limits.processes)
                    .then_some(sandbox::Limit::Processes)
            })?;
        Some(limits.hit(hit))
    }

    /// The `memory` fault, when the watch found the program over its limit.
    fn memory_fault(&self) -> Option<Fault> {
        let used = self.watched.over.load(std::sync::atomic::Ordering::SeqCst);
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
    pub(super) fn check_memory(&mut self) -> Result<(), Fault> {
        let Some(limit) = self.memory_limit else {
            return Ok(());
        };
        let line = self.memory_line.load(std::sync::atomic::Ordering::SeqCst);
        if line == UNSET {
            return Ok(());
        }
        let used = self.bytes("VmPeak").saturating_sub(line);
        if used > limit {
            self.watched
                .over
                .store(used, std::sync::atomic::Ordering::SeqCst);
            self.kill();
            return Err(self.memory_fault().expect("over the limit"));
        }
        Ok(())
    }

    /// Kills the program and everything it started (its keeper does, or, past `KILL_GRACE`,
    /// the keeper's own death), and reaps the keeper; the log copy is waited for at most
    /// `KILL_GRACE` (a process outside a sandbox may hold its standard error open).
    pub(super) fn kill(&mut self) {
        end_contained(&mut self.child);
        if let Some((copy, finished)) = self.log_copy.take()
            && finished.recv_timeout(KILL_GRACE).is_ok()
        {
            copy.join().ok();
        }
    }

    /// Ends the program after its game: `quit`, a moment to exit, then `kill`.
    pub(super) fn finish(mut self) {
        self.send("quit").ok();
        let deadline = Instant::now() + Duration::from_millis(100);
        while Instant::now() < deadline && matches!(self.child.try_wait(), Ok(None)) {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.kill();
    }
}
