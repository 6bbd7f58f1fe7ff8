//! The `Game` trait every game implements, and the small types around it.
//!
//! A game value is a position together with the side to move. Agents, the match runner and the
//! tuners are written once against this trait; a game folder holds only its rules, notation and
//! its own heuristics. Hot paths (move generation, playouts) are monomorphised: agents are
//! generic over `G: Game`, and nothing here allocates per move when the caller reuses buffers.
//!
//! A side that cannot move but whose game is not over has exactly one legal move, the game's
//! pass move; so `legal_moves` is empty exactly when `outcome` is `Some`.

pub mod colosseum;
pub mod freckers;
pub mod openspiel;
pub mod othello;
pub mod tsumego;

use crate::rng::{GameRng, below};
use std::fmt::Debug;

/// The two sides. `First` moves first (Black in Othello).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Player {
    First,
    Second,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// The game's value for `p`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn value_for(self, p: Player) -> f64 {
        match self {
            Outcome::Win(w) if w == p => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// A two-player, perfect-information, turn-based game position.
pub trait Game: Clone + PartialEq + Send + Sync + 'static {
    type Move: Copy + Eq + Debug + Send + Sync + 'static;

    /// The side to move.
    fn to_move(&self) -> Player;
    /// Appends the legal moves to `out` (which the caller clears). Empty iff the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// Plays a legal move. Playing an illegal move is a logic error (debug builds check it).
    fn play(&mut self, mv: Self::Move);
    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The final (or current) score of each side, in the game's own unit (discs in Othello).
    fn scores(&self) -> [i32; 2];
    /// A uniformly random legal move, or `None` when the game is over. Games may override this
    /// with something faster than generating the whole list.
    fn random_move(&self, rng: &mut GameRng, buf: &mut Vec<Self::Move>) -> Option<Self::Move> {
        buf.clear();
        self.legal_moves(buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[below(rng, buf.len())])
        }
    }
    /// The move in the game's usual notation.
    fn move_name(&self, mv: Self::Move) -> String;
    /// The move as transcripts record it (the name; "" for a pass). Games whose names do not
    /// split apart when concatenated end each with a separator that `split_moves` cuts at.
    fn transcript_name(&self, mv: Self::Move) -> String {
        let name = self.move_name(mv);
        if name == "pass" { String::new() } else { name }
    }
    /// The move names of a line as rows record it (`transcript`, `opening`: the names
    /// concatenated, passes left out) or as a user writes it (whitespace between moves allowed).
    /// Games whose names are not space-free words override this.
    fn split_moves(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }
    /// The legal move a transcript's entry names exactly, for games whose transcripts record
    /// more than the name (OpenSpiel: the action beside it); None to match it by name.
    fn move_from_record(&self, _entry: &str, _legal: &[Self::Move]) -> Option<Self::Move> {
        None
    }
}

/// A move of a line that is not legal where it is played.
#[derive(Clone, Debug, PartialEq)]
pub struct LineError {
    /// 1-based position of the move in the line.
    pub index: usize,
    pub name: String,
    /// The legal moves there, in the game's notation.
    pub legal: Vec<String>,
}

impl LineError {
    /// What is wrong with the move, without its place in the line.
    pub fn what(&self) -> String {
        if self.legal.is_empty() {
            format!("'{}': the game is already over", self.name)
        } else {
            format!(
                "'{}' is not legal there (legal: {})",
                self.name,
                self.legal.join(" ")
            )
        }
    }
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "move {} {}", self.index, self.what())
    }
}

/// A position reached by a line, with what it took.
#[derive(Clone, Debug)]
pub struct Played<G> {
    pub position: G,
    /// Moves played, forced passes included.
    pub plies: u32,
    /// The line as rows record it: the move names concatenated, passes left out.
    pub transcript: String,
    /// The moves' names in the game's notation, forced passes included ("pass").
    pub names: Vec<String>,
}

/// Plays the move names `names` from `start`. A side whose only legal move is the pass passes
/// without a name, as transcripts leave passes out. An entry names a move exactly where the game
/// records more than the name (`Game::move_from_record`); else it matches a legal move's name
/// up to whitespace, then, when no name matches so, up to case as well, if only one does (chess
/// has both `bxc5` and `Bxc5`).
pub fn play_line<G: Game>(start: &G, names: &[String]) -> Result<Played<G>, LineError> {
    let squash = |s: &str| -> String { s.chars().filter(|c| !c.is_whitespace()).collect() };
    let mut game = start.clone();
    let (mut plies, mut transcript, mut legal) = (0u32, String::new(), Vec::new());
    let mut played_names = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let wanted = squash(name);
        loop {
            legal.clear();
            game.legal_moves(&mut legal);
            let names: Vec<String> = legal.iter().map(|&m| game.move_name(m)).collect();
            let k = game
                .move_from_record(name, &legal)
                .and_then(|mv| legal.iter().position(|&m| m == mv))
                .or_else(|| names.iter().position(|n| squash(n) == wanted))
                .or_else(|| {
                    let mut like = names
                        .iter()
                        .enumerate()
                        .filter(|(_, n)| squash(n).eq_ignore_ascii_case(&wanted));
                    match (like.next(), like.next()) {
                        (Some((k, _)), None) => Some(k),
                        _ => None,
                    }
                });
            if let Some(k) = k {
                transcript.push_str(&game.transcript_name(legal[k]));
                played_names.push(names[k].clone());
                game.play(legal[k]);
                plies += 1;
                break;
            }
            if names.len() == 1 && names[0] == "pass" {
                game.play(legal[0]);
                played_names.push(names[0].clone());
                plies += 1;
                continue;
            }
            return Err(LineError {
                index: i + 1,
                name: name.clone(),
                legal: names,
            });
        }
    }
    Ok(Played {
        position: game,
        plies,
        transcript,
        names: played_names,
    })
}

/// Games whose moves occupy a board cell, so that a per-cell weight table can rate them
/// (the Othello report's weighted-random rollouts and positional players).
pub trait CellGame: Game {
    /// Board side length (cells are `r * size + c` in the table's own indexing).
    fn board_size(&self) -> usize;
    /// The (row, column) a move is played on, or `None` for a pass.
    fn move_cell(&self, mv: Self::Move) -> Option<(usize, usize)>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from_seed;

    /// A game of one move whose two legal moves are named alike up to case, as chess's pawn
    /// capture `bxc5` and bishop capture `Bxc5`.
    #[derive(Clone, Debug, PartialEq)]
    struct TwoNames(Option<u8>);

    impl Game for TwoNames {
        type Move = u8;
        fn to_move(&self) -> Player {
            Player::First
        }
        fn legal_moves(&self, out: &mut Vec<u8>) {
            if self.0.is_none() {
                out.extend([0, 1]);
            }
        }
        fn play(&mut self, mv: u8) {
            self.0 = Some(mv);
        }
        fn outcome(&self) -> Option<Outcome> {
            self.0.map(|_| Outcome::Draw)
        }
        fn scores(&self) -> [i32; 2] {
            [0, 0]
        }
        fn move_name(&self, mv: u8) -> String {
            ["bxc5", "Bxc5"][mv as usize].into()
        }
    }

    #[test]
    fn a_name_matches_exactly_before_it_matches_up_to_case() {
        let line = |name: &str| play_line(&TwoNames(None), &[name.to_string()]);
        assert_eq!(line("Bxc5").unwrap().position, TwoNames(Some(1)));
        assert_eq!(line("bxc5").unwrap().position, TwoNames(Some(0)));
        // Up to case, two moves match: not one of them picked at random.
        let e = line("BXC5").unwrap_err();
        assert_eq!(e.index, 1);
        assert_eq!(e.legal, vec!["bxc5", "Bxc5"]);
    }

    /// Random games replayed from the transcripts their moves write: the same plies, the same
    /// final position, the same scores.
    fn random_games_replay<G: Game>(start: impl Fn(u64) -> G, games: u64) {
        let mut buf = Vec::new();
        for seed in 0..games {
            let first = start(seed);
            let (mut g, mut transcript, mut plies) = (first.clone(), String::new(), 0u32);
            let mut rng = rng_from_seed(seed);
            while let Some(mv) = g.random_move(&mut rng, &mut buf) {
                transcript.push_str(&g.transcript_name(mv));
                g.play(mv);
                plies += 1;
            }
            let played = play_line(&first, &G::split_moves(&transcript))
                .unwrap_or_else(|e| panic!("game {seed}: {e}"));
            assert!(played.position == g, "game {seed}: another position");
            assert_eq!(played.plies, plies, "game {seed}");
            assert_eq!(played.names.len(), plies as usize, "game {seed}");
            assert_eq!(played.transcript, transcript, "game {seed}");
            assert_eq!(played.position.scores(), g.scores(), "game {seed}");
        }
    }

    #[test]
    fn a_thousand_random_games_of_each_builtin_game_replay_from_their_transcripts() {
        let othello = othello::builtin_stage("standard8").unwrap();
        random_games_replay(|_| othello::Othello::new(&othello).unwrap(), 1000);
        random_games_replay(|_| freckers::Freckers::new(true), 1000);
        random_games_replay(
            |seed| {
                colosseum::Colosseum::random_setup(6, &mut rng_from_seed(seed ^ 0x5eed)).unwrap()
            },
            1000,
        );
    }
}
