//! Other people's engines over their own protocols: `kind = "uci"` (chess engines: Stockfish
//! and the others cutechess-cli plays) and `kind = "gtp"` (Go programs: GNU Go, KataGo, as
//! gogui-twogtp plays them), beside gamelab's own line protocol (`kind = "external"`).
//!
//! An engine runs as every external agent does (`ExternalAgent`: its sandbox and keeper, its
//! clock and grace, its faults, its log); what differs is the conversation, which is here:
//! - the handshake: UCI `uci` ... `uciok` (the engine's `id name`, its declared options), then
//!   the section's `options` as `setoption` and `isready` ... `readyok`; GTP
//!   `protocol_version` (2), `name` and `version`;
//! - a move: UCI `position startpos moves e2e4 ...` (or `position fen FEN moves ...`) and `go`
//!   with the section's `nodes` / `depth`, else the move's time (`movetime`) or the game clock
//!   (`wtime` / `btime`), answered by `bestmove M`; GTP: the board set up once a game
//!   (`boardsize`, `komi`, `clear_board`, `time_settings`), the moves it has not yet been told
//!   as `play`, then `genmove b|w`, answered by `= VERTEX`, `= pass` or `= resign`;
//! - a new game: UCI `ucinewgame` and `isready`; GTP a cleared board at the next move.
//!
//! The game says how its positions and moves are written in the engine's notation
//! (`Protocol::engine_position`): OpenSpiel's chess and go, through the bridge. An engine's
//! move outside the legal list is an `illegal_move`, an answer that is not the protocol's a
//! `protocol_error`, GTP's `resign` a lost game by `resign`.

use super::*;

/// The protocol an external program speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// gamelab's own line protocol (docs/protocol.md).
    #[default]
    Gamelab,
    /// The Universal Chess Interface.
    Uci,
    /// The Go Text Protocol, version 2.
    Gtp,
}

impl Dialect {
    /// The agent kind of the experiment file that speaks it.
    pub fn kind_name(self) -> &'static str {
        match self {
            Dialect::Gamelab => "external",
            Dialect::Uci => "uci",
            Dialect::Gtp => "gtp",
        }
    }

    /// The name the bridge's `engine` request takes.
    fn wire(self) -> &'static str {
        match self {
            Dialect::Gamelab => "gamelab",
            Dialect::Uci => "uci",
            Dialect::Gtp => "gtp",
        }
    }
}

/// A position as an engine is told it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EnginePosition {
    /// UCI: `startpos` or `fen FEN`.
    pub start: String,
    /// GTP: the board's size and komi.
    pub board_size: u32,
    pub komi: f64,
    /// The moves from the start in the engine's notation (GTP: `B d4`, `W PASS`).
    pub line: Vec<String>,
    /// The legal moves in the engine's notation, in the order of the game's legal moves
    /// (GTP: lower-case vertices and `pass`).
    pub legal: Vec<String>,
    /// GTP: the colour to move, `b` or `w`.
    pub to_move: String,
}

impl EnginePosition {
    /// The bridge's answer to an `engine` request (bridges/openspiel/bridge.py).
    pub fn from_bridge(answer: &serde_json::Value) -> EnginePosition {
        let texts = |key: &str| -> Vec<String> {
            answer[key]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        EnginePosition {
            start: answer["start"].as_str().unwrap_or_default().to_string(),
            board_size: answer["board_size"].as_u64().unwrap_or(0) as u32,
            komi: answer["komi"].as_f64().unwrap_or(0.0),
            line: texts("line"),
            legal: texts("legal"),
            to_move: answer["to_move"].as_str().unwrap_or_default().to_string(),
        }
    }

    /// The request to the OpenSpiel bridge for the position after `history` in `game`.
    pub fn request(game: &str, history: &[u32], dialect: Dialect) -> serde_json::Value {
        serde_json::json!({"op": "engine", "game": game, "history": history,
            "dialect": dialect.wire()})
    }
}

/// An option value as `setoption ... value V` writes it.
fn option_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The name a UCI `option name NAME type ...` line declares.
fn declared_option(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("option name ")?;
    Some(
        rest.split_once(" type ")
            .map_or(rest, |(name, _)| name)
            .trim(),
    )
}

/// The fault of a handshake's answer that did not come in time.
pub(super) fn handshake_late(spec: &ExternalSpec, f: Fault, what: &str) -> Fault {
    match f.kind {
        Termination::Timeout => fault(
            Termination::Timeout,
            format!(
                "no {what} within {} ms (init_timeout_ms)",
                spec.init_timeout().as_millis()
            ),
        ),
        _ => f,
    }
}

impl Process {
    /// UCI's handshake: `uci`, the engine's `id` and `option` lines up to `uciok`, the
    /// section's options (each one the engine declared), then `isready` ... `readyok`.
    pub(super) fn uci_handshake(&mut self, spec: &ExternalSpec) -> Result<(), Fault> {
        let deadline = Instant::now() + spec.init_timeout();
        self.send("uci")?;
        let mut declared = Vec::new();
        loop {
            let line = self
                .recv(deadline)
                .map_err(|f| handshake_late(spec, f, "`uciok` in answer to `uci`"))?;
            if let Some(name) = line.strip_prefix("id name ") {
                self.name = name.trim().to_string();
            } else if let Some(name) = declared_option(&line) {
                declared.push(name.to_string());
            } else if line.trim() == "uciok" {
                break;
            }
        }
        for (name, value) in &spec.options {
            if !declared.iter().any(|d| d.eq_ignore_ascii_case(name)) {
                return Err(fault(
                    Termination::ProtocolError,
                    format!(
                        "options.{name}: the engine declares no such option (it has: {})",
                        declared.join(", ")
                    ),
                ));
            }
            self.send(&format!(
                "setoption name {name} value {}",
                option_text(value)
            ))?;
        }
        self.uci_ready(deadline, spec)
    }

    /// `isready`, then the lines up to `readyok` by `deadline`.
    pub(super) fn uci_ready(
        &mut self,
        deadline: Instant,
        spec: &ExternalSpec,
    ) -> Result<(), Fault> {
        self.send("isready")?;
        loop {
            let line = self
                .recv(deadline)
                .map_err(|f| handshake_late(spec, f, "`readyok` in answer to `isready`"))?;
            if line.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// GTP's handshake: `protocol_version` (it must be 2), `name` and `version`.
    pub(super) fn gtp_handshake(&mut self, spec: &ExternalSpec) -> Result<(), Fault> {
        let deadline = Instant::now() + spec.init_timeout();
        let late = |f| handshake_late(spec, f, "answer to the GTP handshake");
        let version = self
            .gtp_command("protocol_version", deadline)
            .map_err(late)?;
        if version.trim() != "2" {
            return Err(fault(
                Termination::ProtocolError,
                format!("the engine speaks GTP version {version}; gamelab speaks 2"),
            ));
        }
        let name = self.gtp_command("name", deadline).map_err(late)?;
        let version = self.gtp_command("version", deadline).unwrap_or_default();
        self.name = format!("{name} {version}").trim().to_string();
        Ok(())
    }

    /// A GTP command and its answer by `deadline`: the text after `=`; an answer `? MESSAGE`
    /// is a `crash` naming the command (the engine cannot do it), any other line a
    /// `protocol_error`. (A GTP process reads past blank lines: each answer ends with one.)
    pub(super) fn gtp_command(
        &mut self,
        command: &str,
        deadline: Instant,
    ) -> Result<String, Fault> {
        self.send(command)?;
        let line = self.recv(deadline)?;
        gtp_answer(command, &line)
    }
}

/// A GTP answer line read: the text after `=`, or the fault.
pub(super) fn gtp_answer(command: &str, line: &str) -> Result<String, Fault> {
    if let Some(rest) = line.strip_prefix('=') {
        Ok(rest.trim().to_string())
    } else if let Some(why) = line.strip_prefix('?') {
        Err(fault(
            Termination::Crash,
            format!("the engine refused `{command}`: {}", why.trim()),
        ))
    } else {
        Err(fault(
            Termination::ProtocolError,
            format!("expected a GTP answer (`= ...` or `? ...`) to `{command}`, got: {line}"),
        ))
    }
}

/// The `go` line of a UCI move: the section's nodes and depth, else the move's time (or the
/// game clock, left for both sides).
pub(super) fn uci_go(spec: &ExternalSpec, clock: &ExternalClock, limit: Duration) -> String {
    let mut go = String::from("go");
    if let Some(n) = spec.nodes {
        go += &format!(" nodes {n}");
    }
    if let Some(d) = spec.depth {
        go += &format!(" depth {d}");
    }
    if spec.nodes.is_none() && spec.depth.is_none() && spec.tell_time != Some(false) {
        let ms = limit.as_millis();
        if clock.game.is_some() {
            go += &format!(" wtime {ms} btime {ms}");
        } else {
            go += &format!(" movetime {ms}");
        }
    }
    go
}

/// The `position` line of a UCI move.
pub(super) fn uci_position(pos: &EnginePosition) -> String {
    if pos.line.is_empty() {
        format!("position {}", pos.start)
    } else {
        format!("position {} moves {}", pos.start, pos.line.join(" "))
    }
}

/// GTP's `time_settings` for the clock: main time and byo-yomi, in seconds (a time per move is
/// a byo-yomi period of one stone; a game clock is main time without byo-yomi).
pub(super) fn gtp_time_settings(clock: &ExternalClock) -> String {
    match clock.game {
        Some(g) => format!("time_settings {} 0 0", g.as_secs().max(1)),
        None => format!("time_settings 0 {} 1", clock.per_move.as_secs().max(1)),
    }
}

/// The move a UCI engine's answer names: `bestmove M [ponder P]`.
pub(super) fn uci_bestmove(line: &str) -> Result<String, Fault> {
    let mut words = line.split_whitespace();
    match (words.next(), words.next()) {
        (Some("bestmove"), Some(m)) if m != "(none)" && m != "0000" => Ok(m.to_string()),
        (Some("bestmove"), _) => Err(fault(
            Termination::IllegalMove,
            format!("{line} (no move, though the position has legal moves)"),
        )),
        _ => Err(fault(
            Termination::ProtocolError,
            format!("expected `bestmove M`, got: {line}"),
        )),
    }
}

/// The move a GTP engine's answer to `genmove` names (a vertex in lower case, or `pass`), or
/// the fault: `resign`, an error answer, a line that is not GTP.
pub(super) fn gtp_genmove(command: &str, line: &str) -> Result<String, Fault> {
    let answer = gtp_answer(command, line)?.to_ascii_lowercase();
    if answer == "resign" {
        return Err(fault(Termination::Resign, "resigned"));
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uci_answer_names_its_move_or_is_a_fault() {
        assert_eq!(uci_bestmove("bestmove e2e4 ponder e7e5").unwrap(), "e2e4");
        assert_eq!(uci_bestmove("bestmove e7e8q").unwrap(), "e7e8q");
        assert_eq!(
            uci_bestmove("bestmove (none)").unwrap_err().kind,
            Termination::IllegalMove
        );
        assert_eq!(
            uci_bestmove("move e2e4").unwrap_err().kind,
            Termination::ProtocolError
        );
    }

    #[test]
    fn a_gtp_answer_is_its_text_a_refusal_or_a_resignation() {
        assert_eq!(gtp_genmove("genmove b", "= D4").unwrap(), "d4");
        assert_eq!(gtp_genmove("genmove w", "= PASS").unwrap(), "pass");
        assert_eq!(
            gtp_genmove("genmove w", "= resign").unwrap_err().kind,
            Termination::Resign
        );
        let refused = gtp_answer("boardsize 25", "? unacceptable size").unwrap_err();
        assert_eq!(refused.kind, Termination::Crash);
        assert!(
            refused.detail.contains("`boardsize 25`"),
            "{}",
            refused.detail
        );
        assert_eq!(
            gtp_answer("name", "GNU Go").unwrap_err().kind,
            Termination::ProtocolError
        );
    }

    #[test]
    fn uci_options_are_read_from_their_declarations() {
        assert_eq!(
            declared_option("option name Skill Level type spin default 20 min 0 max 20"),
            Some("Skill Level")
        );
        assert_eq!(
            declared_option("option name Clear Hash type button"),
            Some("Clear Hash")
        );
        assert_eq!(declared_option("id name Stockfish"), None);
    }

    #[test]
    fn the_go_line_takes_the_budget_else_the_clock() {
        let mut spec: ExternalSpec = toml::from_str("command = [\"sf\"]").unwrap();
        let per_move = ExternalClock::default_for("openspiel");
        assert_eq!(
            uci_go(&spec, &per_move, Duration::from_millis(1000)),
            "go movetime 1000"
        );
        spec.nodes = Some(5000);
        assert_eq!(
            uci_go(&spec, &per_move, Duration::from_millis(1000)),
            "go nodes 5000"
        );
        spec.nodes = None;
        spec.depth = Some(8);
        assert_eq!(
            uci_go(&spec, &per_move, Duration::from_millis(1000)),
            "go depth 8"
        );
        let game = ExternalClock {
            game: Some(Duration::from_secs(60)),
            ..per_move
        };
        spec.depth = None;
        assert_eq!(
            uci_go(&spec, &game, Duration::from_millis(42_000)),
            "go wtime 42000 btime 42000"
        );
        assert_eq!(gtp_time_settings(&game), "time_settings 60 0 0");
        assert_eq!(gtp_time_settings(&per_move), "time_settings 0 1 1");
    }

    #[test]
    fn a_uci_position_is_its_start_and_moves() {
        let mut pos = EnginePosition {
            start: "startpos".into(),
            ..EnginePosition::default()
        };
        assert_eq!(uci_position(&pos), "position startpos");
        pos.line = vec!["e2e4".into(), "e7e5".into()];
        assert_eq!(uci_position(&pos), "position startpos moves e2e4 e7e5");
    }
}
