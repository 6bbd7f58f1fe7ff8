//! OpenSpiel's games and bots, played through a bridge process (`bridges/openspiel/bridge.py`).
//!
//! `game = "openspiel"` with `openspiel = { name = "connect_four", params = { ... } }` plays any
//! two-player zero-sum sequential perfect-information game of OpenSpiel (chance nodes
//! included). OpenSpiel holds the state: gamelab referees through the bridge (legal moves,
//! apply, terminal, returns) and records rows as for its own games: moves by OpenSpiel's action
//! strings, scores from the returns. OpenSpiel's bots are agent kinds (`openspiel_mcts`,
//! `openspiel_random`, `openspiel_alphabeta`); they also play gamelab's own Othello on the
//! standard board (the line so far is passed as move names).
//!
//! The bridge is a Python process (the interpreter `GAMELAB_PYTHON` names, else the repository's
//! `.venv`, which `make openspiel` creates, else `python3`), one per worker thread, started on
//! first use and ended with gamelab (its standard input closes; its keeper, `external::contain`,
//! also kills it and what it started when gamelab dies, even by kill -9). The script is built
//! into the binary and run with `-c`. Every request carries the game and the whole history
//! (the bridge caches states, so a game played move by move costs one `apply_action` a move),
//! so an answer never depends on which thread's bridge gave it.
//!
//! Where this departs from the built-in games (docs/design.md): a position is its history, and
//! every `play` is a round trip to Python, so OpenSpiel games are for sweeps of OpenSpiel's bots
//! and external agents; gamelab's own tree searches play them too, at the bridge's speed. A
//! bridge that fails mid-game (it crashed, Python broke) stops the run with the bridge's message;
//! what can be checked before a run (Python, the package, the game's name and parameters) is
//! checked when the experiment file is read.

use crate::agent::{Agent, AgentSpec, Arena, Budget, Effort};
use crate::game::{Game, Outcome, Player};
use crate::rng::{GameRng, derive_seed};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;

/// The bridge script, run with `python -c`.
const BRIDGE: &str = include_str!("../../bridges/openspiel/bridge.py");

/// The file's `openspiel` table: a game by OpenSpiel's name and its parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenSpielSpec {
    /// OpenSpiel's short name (`python -c "import pyspiel; print(pyspiel.registered_names())"`).
    pub name: String,
    /// The game's parameters (`pyspiel.load_game(name).get_parameters()` shows them).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, toml::Value>,
}

impl OpenSpielSpec {
    /// OpenSpiel's game string: `name` or `name(key=value,...)`.
    pub fn game_string(&self) -> Result<String, String> {
        if self.name.is_empty()
            || !self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(format!(
                "'{}' is not an OpenSpiel game name (letters, digits and '_')",
                self.name
            ));
        }
        let mut params = Vec::new();
        for (k, v) in &self.params {
            let text = match v {
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Float(f) => format!("{f:?}"),
                toml::Value::Boolean(b) => b.to_string(),
                toml::Value::String(s) if !s.contains([',', '(', ')', '=']) => s.clone(),
                other => {
                    return Err(format!(
                        "params.{k}: {other} is not an integer, a float, a boolean or a plain string"
                    ));
                }
            };
            params.push(format!("{k}={text}"));
        }
        Ok(if params.is_empty() {
            self.name.clone()
        } else {
            format!("{}({})", self.name, params.join(","))
        })
    }
}

/// A job's OpenSpiel stage: the game string (also the rows' `stage`) and whether the game has
/// chance nodes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenSpielStage {
    pub id: String,
    pub openspiel: String,
    pub chance: bool,
}

impl OpenSpielStage {
    /// OpenSpiel's short name of the game (`go` of `go(board_size=7)`).
    pub fn game_name(&self) -> &str {
        self.openspiel.split('(').next().unwrap_or_default()
    }

    /// The value of parameter `key` in the game string, as written there; None when the
    /// game's default holds.
    pub fn param(&self, key: &str) -> Option<&str> {
        let (_, params) = self.openspiel.split_once('(')?;
        params
            .trim_end_matches(')')
            .split(',')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| k.trim() == key)
            .map(|(_, v)| v.trim())
    }

    /// Loads the game in the bridge: an error when Python, OpenSpiel or the game is missing, or
    /// the game is not one gamelab can play.
    pub fn load(spec: &OpenSpielSpec) -> Result<OpenSpielStage, String> {
        let game = spec.game_string()?;
        let answer = request(&json!({"op": "load", "game": game}))?;
        Ok(OpenSpielStage {
            id: game.clone(),
            openspiel: game,
            chance: answer["chance"].as_bool().unwrap_or(false),
        })
    }

    /// The start of a game: chance outcomes along it are drawn with `chance_seed` (a game
    /// without chance takes 0: its states do not depend on it, and so they repeat across games
    /// and are found in `OpenSpiel::at`'s memo).
    pub fn start(&self, chance_seed: u64) -> Result<OpenSpiel, String> {
        let seed = if self.chance { chance_seed } else { 0 };
        let mut start = OpenSpiel::at(Arc::from(self.openspiel.as_str()), seed, Vec::new())?;
        start.first = start.player;
        Ok(start)
    }
}

/// A running bridge process.
struct Bridge {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// The sandbox's uid, held while the bridge lives.
    _slot: crate::agent::external::sandbox::Slot,
}

impl Drop for Bridge {
    /// Kills the bridge and whatever it started (its keeper, `external::contain`, does).
    fn drop(&mut self) {
        crate::agent::external::end_contained(&mut self.child);
    }
}

thread_local! {
    /// This thread's bridge, started on first use.
    static BRIDGE_PROCESS: RefCell<Option<Bridge>> = const { RefCell::new(None) };
}

/// Whether `python` imports OpenSpiel (`pyspiel`).
pub fn imports_pyspiel(python: &std::path::Path) -> bool {
    Command::new(python)
        .args(["-c", "import pyspiel"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The Python interpreter the bridge runs in: `GAMELAB_PYTHON`, else `.venv/bin/python` in the
/// current folder or beside the binary's repository (`target/<profile>/gamelab`), else `python3`.
pub fn python() -> std::path::PathBuf {
    if let Some(p) = std::env::var_os("GAMELAB_PYTHON") {
        return p.into();
    }
    let mut candidates = vec![std::path::PathBuf::from(".venv/bin/python")];
    if let Ok(exe) = std::env::current_exe()
        && let Some(repo) = exe.ancestors().nth(3)
    {
        candidates.push(repo.join(".venv/bin/python"));
    }
    candidates
        .into_iter()
        .find(|p| p.exists())
        .unwrap_or_else(|| "python3".into())
}

/// Whether the bridge runs outside the sandbox: `GAMELAB_BRIDGE_SANDBOX=none` (where no
/// sandbox can be made; gamelab's own code, but it runs OpenSpiel's).
fn bridge_unsandboxed() -> bool {
    std::env::var("GAMELAB_BRIDGE_SANDBOX").is_ok_and(|v| v == "none")
}

/// Starts the bridge: Python with the bridge's code, in a sandbox (`external::sandbox`, the
/// defaults but no CPU limit: it serves the whole run) unless `GAMELAB_BRIDGE_SANDBOX=none`.
fn start_bridge() -> Result<Bridge, String> {
    use crate::agent::external::sandbox;
    let python = python();
    let code = vec![python.display().to_string(), "-c".into(), BRIDGE.into()];
    let (mut cmd, _slot) = if bridge_unsandboxed() {
        let mut cmd = Command::new(&python);
        cmd.arg("-c").arg(BRIDGE);
        crate::agent::external::contain(&mut cmd);
        (cmd, sandbox::Slot::none())
    } else {
        sandbox::available().map_err(|why| {
            format!(
                "the OpenSpiel bridge runs in a sandbox: {why}; or set GAMELAB_BRIDGE_SANDBOX=none to run it with gamelab's rights"
            )
        })?;
        let mut spec = sandbox::SandboxSpec::default();
        spec.limits.cpu_s = sandbox::NO_CPU_LIMIT_S;
        sandbox::command(&spec, &code, None)?
    };
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = cmd.spawn().map_err(|e| {
        format!(
            "cannot start Python ({}): {e}; `make openspiel` installs OpenSpiel into .venv/, or set GAMELAB_PYTHON",
            python.display()
        )
    })?;
    let stdin = child.stdin.take().expect("piped");
    let stdout = BufReader::new(child.stdout.take().expect("piped"));
    Ok(Bridge {
        child,
        stdin,
        stdout,
        _slot,
    })
}

/// One request to this thread's bridge, and its answer; an `error` answer is an `Err`.
pub fn request(req: &Value) -> Result<Value, String> {
    BRIDGE_PROCESS.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(start_bridge()?);
        }
        let bridge = slot.as_mut().expect("started");
        let mut line = String::new();
        let sent = writeln!(bridge.stdin, "{req}").and_then(|_| bridge.stdin.flush());
        let read = sent.and_then(|_| bridge.stdout.read_line(&mut line));
        let answer: Option<Value> = match read {
            Ok(n) if n > 0 => serde_json::from_str(&line).ok(),
            _ => None,
        };
        match answer {
            Some(v) => match v.get("error").and_then(Value::as_str) {
                Some(e) => Err(e.to_string()),
                None => Ok(v),
            },
            None => {
                // A bridge that died is started again on the next request.
                *slot = None;
                Err(format!(
                    "the OpenSpiel bridge ({}) stopped answering{}",
                    python().display(),
                    if line.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", line.trim())
                    }
                ))
            }
        }
    })
}

/// A position of an OpenSpiel game: its history (chance outcomes included) and what the bridge
/// said about it.
///
/// Seats: gamelab's `Player::First` is the player who moves first in this game, whatever
/// OpenSpiel numbers it: in chess OpenSpiel's player 0 is Black, so White, its player 1, moving
/// first, is `First` (the rows' `first_agent`, the PGN's White). `first` is OpenSpiel's number of
/// the first mover, read from the start (after any chance outcomes there) and carried along the
/// game; `to_move`, `outcome` and `scores` answer in gamelab's seats.
#[derive(Clone, Debug)]
pub struct OpenSpiel {
    game: Arc<str>,
    chance_seed: u64,
    history: Vec<u32>,
    /// OpenSpiel's player to move (0 or 1; either at the end).
    player: u8,
    /// OpenSpiel's number of the player who moved first.
    first: u8,
    legal: Arc<Vec<u32>>,
    names: Arc<Vec<String>>,
    /// The returns by OpenSpiel's players.
    returns: Option<[f64; 2]>,
}

impl PartialEq for OpenSpiel {
    fn eq(&self, other: &OpenSpiel) -> bool {
        self.game == other.game && self.history == other.history
    }
}

impl OpenSpiel {
    /// The position after `history`, its chance outcomes drawn with `chance_seed`.
    /// The state after `history` from the start of `game` (with chance drawn from
    /// `chance_seed`): a request to the bridge, or the memo of states already asked for in this
    /// process (a state is a function of the three; checking a sweep's random openings asked
    /// for the same few states once per pair of every job, 17 ms a job on Connect Four).
    fn at(game: Arc<str>, chance_seed: u64, history: Vec<u32>) -> Result<OpenSpiel, String> {
        type Key = (Arc<str>, u64, Vec<u32>);
        /// Past this many states the memo starts again (about 100 MB at most).
        const MEMO_STATES: usize = 100_000;
        static MEMO: std::sync::LazyLock<std::sync::Mutex<HashMap<Key, OpenSpiel>>> =
            std::sync::LazyLock::new(Default::default);
        let key = (game, chance_seed, history);
        if let Some(s) = MEMO.lock().unwrap().get(&key) {
            return Ok(s.clone());
        }
        let state = OpenSpiel::ask(key.0.clone(), key.1, key.2.clone())?;
        let mut memo = MEMO.lock().unwrap();
        if memo.len() >= MEMO_STATES {
            memo.clear();
        }
        memo.insert(key, state.clone());
        Ok(state)
    }

    /// `at`, asked of the bridge.
    fn ask(game: Arc<str>, chance_seed: u64, history: Vec<u32>) -> Result<OpenSpiel, String> {
        let a = request(&json!({"op": "state", "game": &*game, "history": history,
            "seed": chance_seed & 0x7fff_ffff_ffff_ffff}))?;
        let ints = |v: &Value| -> Vec<u32> {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_u64())
                        .map(|x| x as u32)
                        .collect()
                })
                .unwrap_or_default()
        };
        let returns = a["returns"].as_array().map(|r| {
            [
                r.first().and_then(Value::as_f64).unwrap_or(0.0),
                r.get(1).and_then(Value::as_f64).unwrap_or(0.0),
            ]
        });
        Ok(OpenSpiel {
            game,
            chance_seed,
            history: ints(&a["history"]),
            player: u8::from(a["player"].as_u64() == Some(1)),
            first: 0,
            legal: Arc::new(ints(&a["legal"])),
            names: Arc::new(
                a["names"]
                    .as_array()
                    .map(|n| {
                        n.iter()
                            .filter_map(|x| x.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default(),
            ),
            returns,
        })
    }

    /// gamelab's seat of OpenSpiel's player `p` (`First` for the one who moved first).
    fn seat(&self, p: u8) -> Player {
        if p == self.first {
            Player::First
        } else {
            Player::Second
        }
    }

    /// The returns in gamelab's seats: the first mover's, then the other's.
    fn seat_returns(&self) -> Option<[f64; 2]> {
        let r = self.returns?;
        Some(if self.first == 0 { r } else { [r[1], r[0]] })
    }

    /// The game string.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The actions from the initial state, chance outcomes included.
    pub fn history(&self) -> &[u32] {
        &self.history
    }

    /// The position as OpenSpiel prints it.
    pub fn text(&self) -> String {
        request(&json!({"op": "show", "game": &*self.game, "history": self.history}))
            .map(|a| a["text"].as_str().unwrap_or_default().to_string())
            .unwrap_or_else(|e| panic!("OpenSpiel bridge: {e}"))
    }
}

impl Game for OpenSpiel {
    type Move = u32;

    fn to_move(&self) -> Player {
        self.seat(self.player)
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        if self.returns.is_none() {
            out.extend_from_slice(&self.legal);
        }
    }
    fn play(&mut self, mv: u32) {
        let mut history = std::mem::take(&mut self.history);
        history.push(mv);
        let first = self.first;
        *self = OpenSpiel::at(self.game.clone(), self.chance_seed, history)
            .unwrap_or_else(|e| panic!("OpenSpiel bridge ({}): {e}", self.game));
        self.first = first;
    }
    fn outcome(&self) -> Option<Outcome> {
        let [a, b] = self.seat_returns()?;
        Some(if a > b {
            Outcome::Win(Player::First)
        } else if b > a {
            Outcome::Win(Player::Second)
        } else {
            Outcome::Draw
        })
    }
    /// The returns (OpenSpiel's utilities), rounded to integers; 0 before the end.
    fn scores(&self) -> [i32; 2] {
        self.seat_returns()
            .map_or([0, 0], |r| r.map(|x| x.round() as i32))
    }
    fn move_name(&self, mv: u32) -> String {
        self.legal
            .iter()
            .position(|&a| a == mv)
            .map_or_else(|| format!("#{mv}"), |i| self.names[i].clone())
    }
    /// A transcript records each move as `NAME@ACTION;`: the action string, which a reader
    /// knows, and OpenSpiel's action number, which replays it whatever the names (chess has
    /// both `bxc5` and `Bxc5`, and a game's action strings need not be unique); `;` ends it,
    /// since action strings may hold spaces and dashes. A line a user writes may give the
    /// names alone.
    fn transcript_name(&self, mv: u32) -> String {
        format!("{}@{mv};", self.move_name(mv))
    }
    /// `NAME@ACTION`: the action, if it is legal and its name is NAME (else the entry is
    /// matched by name, and fails).
    /// A line a person wrote gives names alone: the bridge finds the action a name means
    /// (`parse`: the action string without check or annotation marks, `Qh5` for `Qh5+`; in
    /// chess also the UCI form, `e2e4`).
    fn move_from_record(&self, entry: &str, legal: &[u32]) -> Option<u32> {
        let Some((name, mv)) = recorded_action(entry) else {
            let answer = request(&json!({"op": "parse", "game": &*self.game,
                "history": self.history, "move": entry}))
            .ok()?;
            let mv = answer["action"].as_u64()? as u32;
            return legal.contains(&mv).then_some(mv);
        };
        (legal.contains(&mv) && self.move_name(mv) == name).then_some(mv)
    }
    /// Transcripts end each move with `;` (`e4@2426;`). A line without `;` is a move list as
    /// people write one: moves between spaces, with move numbers (`1.`, `1...`, `1.e4`) and a
    /// result (`1-0`, `0-1`, `1/2-1/2`, `*`) left out, as in PGN movetext. (A game whose action
    /// strings hold spaces, go's `B d4`, writes its lines with `;`.)
    fn split_moves(line: &str) -> Vec<String> {
        if line.contains(';') {
            return line
                .split(';')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
        }
        line.split_whitespace()
            .filter(|t| !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
            // A move number: digits, then dots.
            .map(|t| match t.find(|c: char| !c.is_ascii_digit()) {
                Some(i) if i > 0 && t[i..].starts_with('.') => t[i..].trim_start_matches('.'),
                _ => t,
            })
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect()
    }
}

/// A transcript entry's name and action (`NAME@ACTION`, `Game::transcript_name`); None for an
/// entry without an action (a line a user wrote, rows of older versions).
pub fn recorded_action(entry: &str) -> Option<(&str, u32)> {
    let (name, action) = entry.rsplit_once('@')?;
    Some((name.trim(), action.trim().parse().ok()?))
}

impl crate::agent::external::Protocol for OpenSpiel {
    const NAME: &'static str = "openspiel";
    fn position_text(&self) -> String {
        format!("{}\n{}", self.game, self.text().trim_end())
    }
    /// OpenSpiel's chess for UCI engines, its go for GTP engines (the bridge writes the
    /// position in their notation).
    /// The bridge knows the game's history itself (`start` and `history` are not needed).
    fn engine_position(
        &self,
        dialect: crate::agent::external::Dialect,
        _start: &OpenSpiel,
        _history: &[u32],
    ) -> Result<crate::agent::external::EnginePosition, String> {
        use crate::agent::external::EnginePosition;
        request(&EnginePosition::request(&self.game, &self.history, dialect))
            .map(|a| EnginePosition::from_bridge(&a))
    }
}

/// The OpenSpiel game an engine speaking `dialect` plays: chess for UCI, go for GTP.
pub fn engine_game(dialect: crate::agent::external::Dialect) -> Option<&'static str> {
    use crate::agent::external::Dialect;
    match dialect {
        Dialect::Uci => Some("chess"),
        Dialect::Gtp => Some("go"),
        Dialect::Gamelab => None,
    }
}

impl Arena for OpenSpiel {
    fn build_agent(
        spec: &AgentSpec,
        start: &OpenSpiel,
    ) -> Result<Box<dyn Agent<OpenSpiel>>, String> {
        crate::agent::refuse_other_kinds("openspiel", spec)?;
        use crate::agent::{random, rollout::Uniform, uct};
        Ok(match spec {
            AgentSpec::Random {} => Box::new(random::RandomAgent),
            AgentSpec::Uct { table: None, .. }
                if matches!(
                    spec.rollout_name(),
                    None | Some(crate::agent::RolloutName::Uniform)
                ) =>
            {
                Box::new(uct::Uct::new(spec.uct_config().expect("uct"), Uniform))
            }
            AgentSpec::External(e) => {
                Box::new(crate::agent::external::ExternalAgent::new(e, start))
            }
            AgentSpec::Uci(e) | AgentSpec::Gtp(e) => {
                let dialect = spec.external().expect("an engine").1;
                let plays = engine_game(dialect).expect("an engine's game");
                let game = start.game.split('(').next().unwrap_or_default();
                if game != plays {
                    return Err(format!(
                        "kind = \"{}\" plays OpenSpiel's {plays} (openspiel = {{ name = \"{plays}\" }}); this game is {game}",
                        dialect.kind_name()
                    ));
                }
                Box::new(crate::agent::external::ExternalAgent::speaking(
                    e, dialect, start,
                ))
            }
            AgentSpec::OpenspielRandom {}
            | AgentSpec::OpenspielMcts { .. }
            | AgentSpec::OpenspielAlphabeta {} => {
                Box::new(OpenSpielBot::new(spec, start.game.to_string(), start))
            }
            other => {
                return Err(format!(
                    "agent kind '{}' is not available for OpenSpiel games (random, uct, external and the openspiel_* bots are)",
                    other.kind_name()
                ));
            }
        })
    }
}

/// A game an OpenSpiel bot can play: OpenSpiel's own, or one whose moves OpenSpiel's game of
/// the same rules names the same way (gamelab's Othello on the standard board).
pub trait BotGame: Game {
    /// Whether the bot is given the line of moves by name (else the position knows its own
    /// history).
    const BY_LINE: bool;
    /// The position as the bridge's `bot` request takes it: `history` or `names`.
    fn bot_position(&self, line: &[String]) -> (&'static str, Value);
}

impl BotGame for OpenSpiel {
    const BY_LINE: bool = false;
    fn bot_position(&self, _line: &[String]) -> (&'static str, Value) {
        ("history", json!(self.history))
    }
}

impl BotGame for crate::game::othello::Othello {
    const BY_LINE: bool = true;
    fn bot_position(&self, line: &[String]) -> (&'static str, Value) {
        ("names", json!(line))
    }
}

/// The bridge's description of a bot kind.
fn bot_spec(spec: &AgentSpec) -> Value {
    match spec {
        AgentSpec::OpenspielMcts {
            uct_c,
            max_simulations,
            rollouts,
            solve,
        } => json!({"kind": "mcts", "uct_c": uct_c, "max_simulations": max_simulations,
            "rollouts": rollouts, "solve": solve}),
        AgentSpec::OpenspielAlphabeta {} => json!({"kind": "alphabeta"}),
        _ => json!({"kind": "random"}),
    }
}

/// One of OpenSpiel's bots playing a seat. The bot is built afresh for every move in the bridge,
/// seeded by the game's agent seed and the move's number, so its moves depend only on the game
/// (not on threads, bridges or where a run resumed).
pub struct OpenSpielBot<G> {
    bot: Value,
    game: String,
    seed: u64,
    moves: u64,
    /// The game so far, to name the moves observed.
    state: G,
    /// The moves from the start by name (games given to the bridge by their line).
    line: Vec<String>,
}

impl<G: BotGame> OpenSpielBot<G> {
    pub fn new(spec: &AgentSpec, game: String, start: &G) -> OpenSpielBot<G> {
        OpenSpielBot {
            bot: bot_spec(spec),
            game,
            seed: 0,
            moves: 0,
            state: start.clone(),
            line: Vec::new(),
        }
    }
}

impl<G: BotGame> Agent<G> for OpenSpielBot<G> {
    fn begin(&mut self, _seat: Player, seed: u64) {
        self.seed = seed;
    }
    fn choose(&mut self, game: &G, _rng: &mut GameRng, _budget: Budget) -> G::Move {
        let (key, position) = game.bot_position(&self.line);
        let seed = derive_seed(self.seed, &[self.moves]) & 0x7fff_ffff_ffff_ffff;
        self.moves += 1;
        let mut req = json!({"op": "bot", "game": self.game, "bot": self.bot, "seed": seed});
        req[key] = position;
        let answer = request(&req).unwrap_or_else(|e| panic!("OpenSpiel bot ({}): {e}", self.game));
        let name = answer["name"].as_str().unwrap_or_default();
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        *legal
            .iter()
            .find(|&&m| game.move_name(m) == name)
            .unwrap_or_else(|| panic!("OpenSpiel bot ({}) chose '{name}', which gamelab does not find among the legal moves", self.game))
    }
    fn observe(&mut self, mv: G::Move) {
        if G::BY_LINE {
            self.line.push(self.state.move_name(mv));
            self.state.play(mv);
        }
    }
    fn effort(&self) -> Effort {
        Effort::default()
    }
    fn budget_text(&self) -> Option<String> {
        Some(match self.bot["kind"].as_str() {
            Some("mcts") => format!("{} sims", self.bot["max_simulations"]),
            Some("alphabeta") => "to the end".into(),
            _ => "-".into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::OpenSpiel;
    use crate::game::Game;

    #[test]
    fn a_written_line_splits_as_pgn_movetext_and_a_transcript_at_its_semicolons() {
        let moves = |l: &str| OpenSpiel::split_moves(l);
        assert_eq!(moves("e4 e5 Nf3"), ["e4", "e5", "Nf3"]);
        assert_eq!(
            moves("1. e4 e5 2.Nf3 Nc6 3... a6 1-0"),
            ["e4", "e5", "Nf3", "Nc6", "a6"]
        );
        assert_eq!(moves("e2e4 e7e5 *"), ["e2e4", "e7e5"]);
        assert_eq!(moves("e4@2426;e5@2426;"), ["e4@2426", "e5@2426"]);
        assert_eq!(moves("B d4; W e5;"), ["B d4", "W e5"]);
        // Numbers that are moves stay (games whose actions are numbers).
        assert_eq!(moves("3 4 12"), ["3", "4", "12"]);
    }
}
