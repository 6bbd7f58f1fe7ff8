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

mod contain;
pub mod engine;
mod process;
pub mod sandbox;
mod spec;

use contain::*;
pub use contain::{contain, end_contained, stop_contained};
pub use engine::{Dialect, EnginePosition};
use process::*;
pub use sandbox::{KernelLimits, SandboxKind, SandboxSpec};
use sandbox::{Limits, Slot, available, command, unavailable_advice};
pub use spec::*;

/// The protocol version gamelab speaks; an agent must answer the handshake with it.
pub const PROTOCOL_VERSION: u32 = 1;

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
    /// A GTP engine's `resign`.
    Resign,
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
            Termination::Resign => "resign",
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

/// Starts the program once and shakes hands, so a command that does not exist, a handshake
/// that never comes or a wrong protocol version is an error before anything runs. Returns the
/// agent's name. The process is then told to quit (the run's processes write to the job's log).
pub fn probe(spec: &ExternalSpec, dialect: Dialect, game: &str) -> Result<String, String> {
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
    // Its standard error into a log of its own (not onto gamelab's), so that what it said
    // comes back in the one error line ("its log ends: ...").
    static PROBES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let log = std::env::temp_dir().join(format!(
        "gamelab-probe-{}-{}.log",
        std::process::id(),
        PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let mut logged = spec.clone();
    if logged.log.is_none() {
        logged.log = Some(log.clone());
    }
    let started = Process::start(&logged, dialect, &spec.clock(game)).map_err(|f| f.detail);
    let p = match started {
        Ok(p) => p,
        Err(e) => {
            std::fs::remove_file(&log).ok();
            return Err(e);
        }
    };
    let name = p.name.clone();
    p.finish();
    std::fs::remove_file(&log).ok();
    PROBED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(spec.key(), name.clone());
    Ok(name)
}

/// One conversation with a GTP program outside a game (a life-and-death question, say): the
/// program starts as every external agent does (its sandbox, keeper and handshake), answers
/// each of `commands` in turn (each within `limit`), and is told to quit. The answers are the
/// text after `=`; a refusal (`? ...`), a line that is not GTP, a crash or a time-out is the
/// error, naming the command.
pub fn gtp_session(
    spec: &ExternalSpec,
    commands: &[String],
    limit: Duration,
) -> Result<Vec<String>, String> {
    let spec = spec.for_game("tsumego");
    let mut p =
        Process::start(&spec, Dialect::Gtp, &spec.clock("tsumego")).map_err(|f| f.detail)?;
    let mut answers = Vec::with_capacity(commands.len());
    for c in commands {
        match p.gtp_command(c, Instant::now() + limit) {
            Ok(a) => answers.push(a),
            Err(f) => {
                p.kill();
                return Err(f.detail);
            }
        }
    }
    p.finish();
    Ok(answers)
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
    /// The position as an engine speaking `dialect` is told it (`engine`), reached from the
    /// game's `start` by `history` (every move played since, passes included): the games that
    /// other people's engines play (OpenSpiel's chess and go, Othello over GTP) say; the others
    /// have none.
    fn engine_position(
        &self,
        dialect: Dialect,
        _start: &Self,
        _history: &[Self::Move],
    ) -> Result<EnginePosition, String> {
        Err(format!(
            "{} has no {} engines",
            Self::NAME,
            dialect.kind_name().to_uppercase()
        ))
    }
}

/// An external program playing one seat of one game.
pub struct ExternalAgent<G: Protocol> {
    spec: ExternalSpec,
    /// The protocol the program speaks.
    dialect: Dialect,
    /// GTP: whether this game's board is set up in the engine, and how many of the game's
    /// moves it has been told (it plays its own `genmove` answers on its board).
    board_set: bool,
    told: usize,
    clock: ExternalClock,
    process: Option<Process>,
    fault: Option<Fault>,
    seat: Option<Player>,
    /// The game as the agent was told it, to name the moves it observes.
    state: G,
    /// The game's start and every move played since (engines are told the game as moves).
    start: G,
    history: Vec<G::Move>,
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
}

impl<G: Protocol> ExternalAgent<G> {
    /// A program speaking gamelab's protocol.
    pub fn new(spec: &ExternalSpec, start: &G) -> ExternalAgent<G> {
        ExternalAgent::speaking(spec, Dialect::Gamelab, start)
    }

    /// A program speaking `dialect`.
    pub fn speaking(spec: &ExternalSpec, dialect: Dialect, start: &G) -> ExternalAgent<G> {
        let clock = spec.clock(G::NAME);
        ExternalAgent {
            spec: spec.for_game(G::NAME),
            dialect,
            board_set: false,
            told: 0,
            clock_used: Duration::ZERO,
            replaced: Vec::new(),
            seed: 0,
            cpu_at_begin: None,
            clock,
            process: None,
            fault: None,
            seat: None,
            state: start.clone(),
            start: start.clone(),
            history: Vec::new(),
            clock_left: clock.game,
            moves: 0,
        }
    }

    /// Sends lines, turning an error into the agent's fault.
    fn send(&mut self, lines: &[String]) {
        if self.fault.is_some() {
            return;
        }
        let Some(p) = self.process.as_mut() else {
            return;
        };
        if let Err(f) = lines.iter().try_for_each(|line| p.send(line)) {
            self.fail(f);
        }
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
        let limit = self.move_time();
        let (names, lines) = match self.dialect {
            Dialect::Gamelab => {
                let names: Vec<String> = legal.iter().map(|&m| game.move_name(m)).collect();
                let mut lines = Self::position_lines(game);
                // One move a line: some notations have spaces (Freckers: `MOVE (0, 1) [DOWN]`).
                lines.push(format!("legal {}", names.len()));
                lines.extend(names.iter().cloned());
                lines.push(format!("go {}", limit.as_millis()));
                (names, lines)
            }
            Dialect::Uci | Dialect::Gtp => self.engine_request(game, legal, limit)?,
        };
        self.send(&lines);
        if let Some(f) = self.fault.take() {
            return Err(f);
        }
        let (kind, grace) = (self.clock.kind, self.spec.grace());
        let (mut answer, used) = self.await_move(limit);
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
                    if f.kind == Termination::Timeout
                        && let Some(why) = p.limit_hit(None, Duration::ZERO)
                    {
                        f.detail = capped_detail(format!("{}: {why}", f.detail));
                    }
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
        let name = match self.dialect {
            Dialect::Gamelab => {
                if let Some(why) = line.strip_prefix("error ") {
                    return Err(fault(Termination::Crash, format!("{RAISED}{}", why.trim())));
                }
                line.strip_prefix("move ")
                    .map(|m| m.trim().to_string())
                    .ok_or_else(|| {
                        fault(
                            Termination::ProtocolError,
                            format!("expected `move M`, got: {line}"),
                        )
                    })
            }
            Dialect::Uci => engine::uci_bestmove(&line),
            Dialect::Gtp => {
                let asked = lines.last().map_or("genmove", String::as_str);
                engine::gtp_genmove(asked, &line)
            }
        };
        let name = match name {
            Ok(name) => name,
            Err(f) => {
                if f.kind == Termination::ProtocolError
                    && let Some(mut p) = self.process.take()
                {
                    p.kill();
                }
                return Err(f);
            }
        };
        match names.iter().position(|n| *n == name) {
            Some(i) => {
                if self.dialect == Dialect::Gtp {
                    // The engine played its move on its own board.
                    self.told += 1;
                }
                Ok(legal[i])
            }
            None => Err(fault(Termination::IllegalMove, line.clone())),
        }
    }

    /// An engine's move request (`engine`): the lines to send and the legal moves in its
    /// notation. GTP's board is brought up to the game first (set up once a game, then each
    /// move it was not told), with `init_timeout_ms` for those answers, before the move's clock.
    fn engine_request(
        &mut self,
        game: &G,
        legal: &[G::Move],
        limit: Duration,
    ) -> Result<(Vec<String>, Vec<String>), Fault> {
        let pos = game
            .engine_position(self.dialect, &self.start, &self.history)
            .unwrap_or_else(|e| panic!("the game could not be told to the engine: {e}"));
        assert_eq!(
            pos.legal.len(),
            legal.len(),
            "the engine's legal moves are the game's"
        );
        let lines = match self.dialect {
            Dialect::Uci => vec![
                engine::uci_position(&pos),
                engine::uci_go(&self.spec, &self.clock, limit),
            ],
            _ => {
                let deadline = Instant::now() + self.spec.init_timeout();
                let mut commands = Vec::new();
                if !self.board_set {
                    commands.push(format!("boardsize {}", pos.board_size));
                    commands.push(format!("komi {}", pos.komi));
                    commands.push("clear_board".to_string());
                    // Unless `tell_time = false`: an engine told its time plays by the clock
                    // (GNU Go lowers its level), and its moves then depend on the machine.
                    if self.spec.tell_time != Some(false) {
                        commands.push(engine::gtp_time_settings(&self.clock));
                    }
                    self.told = 0;
                }
                commands.extend(pos.line.iter().skip(self.told).map(|m| format!("play {m}")));
                if let Some(f) = self.fault.take() {
                    return Err(f);
                }
                let p = self.process.as_mut().expect("a live process");
                for c in &commands {
                    if let Err(f) = p.gtp_command(c, deadline) {
                        if let Some(mut p) = self.process.take() {
                            p.kill();
                        }
                        return Err(f);
                    }
                }
                self.board_set = true;
                self.told = pos.line.len();
                vec![format!("genmove {}", pos.to_move)]
            }
        };
        Ok((pos.legal, lines))
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
        self.process = Some(Process::start(&self.spec, self.dialect, &self.clock)?);
        if self.dialect != Dialect::Gamelab {
            // An engine is told the whole game at its next move.
            self.board_set = false;
            return Ok(());
        }
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
                    _ => p.cpu(),
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
        self.board_set = false;
        self.history.clear();
        match Process::start(&self.spec, self.dialect, &self.clock) {
            Ok(p) => self.process = Some(p),
            Err(f) => {
                self.fault = Some(f);
                return;
            }
        }
        if self.dialect != Dialect::Gamelab {
            if self.clock.kind == ClockKind::Cpu {
                self.cpu_at_begin = self.process.as_mut().map(Process::cpu);
            }
            if self.dialect == Dialect::Uci {
                self.send(&["ucinewgame".to_string()]);
                let deadline = Instant::now() + self.spec.init_timeout();
                if let Some(p) = self.process.as_mut()
                    && let Err(f) = p.uci_ready(deadline, &self.spec)
                {
                    self.fail(f);
                }
            }
            return;
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
            self.cpu_at_begin = self.process.as_mut().map(Process::cpu);
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
        self.history.push(mv);
        let name = self.state.move_name(mv);
        let by = self.state.to_move();
        self.state.play(mv);
        // Engines are told the game's moves with their next request.
        if self.dialect == Dialect::Gamelab && self.seat.is_some_and(|s| s != by) {
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
        if self.dialect == Dialect::Gamelab {
            self.send(&[format!("gameover {word}")]);
        }
        // Each game its own process (and sandbox): nothing of one game reaches the next.
        if let Some(p) = self.process.take() {
            p.finish();
        }
    }

    fn fault(&mut self) -> Option<Fault> {
        self.fault.clone()
    }

    fn replaced_faults(&self) -> Option<Vec<String>> {
        (self.spec.faults == Some(FaultRule::RandomMove)).then(|| self.replaced.clone())
    }

    fn budget_text(&self) -> Option<String> {
        let search = [
            self.spec.nodes.map(|n| format!("{n} nodes")),
            self.spec.depth.map(|d| format!("depth {d}")),
        ];
        let search: Vec<String> = search.into_iter().flatten().collect();
        Some(if search.is_empty() {
            self.clock.describe()
        } else {
            search.join(", ")
        })
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
    /// A game that ended without `end` (an error elsewhere): its process is killed.
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
