//! Openings of matches and tournaments (`[openings]`): each colour-swapped pair of games starts
//! from an opening, a line of moves from the stage's start, so that deterministic agents do not
//! replay one game again and again (cutechess-cli's and fastchess's opening suites).
//!
//! ```toml
//! [openings]
//! file = "../openings/othello-standard8.txt"   # one opening a line, in the game's notation
//! order = "sequential"                         # or "random"
//! # or: random_plies = 4                       # each pair starts after 4 uniformly random moves
//! ```
//!
//! A suite file has one opening per line, in the notation of the rows' `transcript` (Othello
//! `f5d6c3`, Colosseum `(2,3,u)(0,1,l)`, Freckers `MOVE (0, 1) [Down] GROW`); whitespace
//! between moves is allowed, `#` starts a comment, blank lines are skipped. Passes may be
//! left out. Openings are given to *slots*: a colour-swapped pair of games (both of its games
//! start from the same opening) or a game without a partner. `sequential` gives slot k the
//! opening k mod n; `random` draws one uniformly, seeded by the start seed (experiment seed and repeat: the same for every grid point) and slot; `random_plies = N`
//! plays N uniformly random legal moves (forced passes count), seeded by start seed and slot. Rows
//! record the opening in `opening`, and their `transcript` starts with it; `plies` counts its
//! moves too.
//!
//! Everything is checked before a run starts: every line of a suite is played on the stage (on
//! each pair's board for Colosseum's random setups), and a `random_plies` walk that ends the game
//! is an error.

use crate::game::{Game, LineError, Played, play_line};
use crate::rng::{below, derive_seed, rng_from_seed};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// How suite openings are given to slots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningOrder {
    /// Slot k plays opening k mod n (the suite's order).
    #[default]
    Sequential,
    /// Each slot draws an opening uniformly at random (seeded by start seed and slot).
    Random,
}

/// The `[openings]` section as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningsSpec {
    /// A suite: one opening a line (relative paths from the experiment file's folder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// Or: each slot starts after this many uniformly random legal moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random_plies: Option<u32>,
    #[serde(default)]
    pub order: OpeningOrder,
}

/// A job's openings, resolved: the suite's lines themselves (so the job hash changes when the
/// suite does, not when it moves), or the number of random plies.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Openings {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random_plies: Option<u32>,
    pub order: OpeningOrder,
    /// The suite file and each line's line number there, for error messages (not part of the job).
    #[serde(skip)]
    pub source: Option<(PathBuf, Vec<usize>)>,
}

impl PartialEq for Openings {
    fn eq(&self, other: &Self) -> bool {
        (&self.lines, self.random_plies, self.order)
            == (&other.lines, other.random_plies, other.order)
    }
}

/// Why a slot's opening cannot be played.
#[derive(Clone, Debug, PartialEq)]
pub enum OpeningError {
    /// Line `line` (0-based index into the suite) has a move that is not legal.
    Illegal { line: usize, error: LineError },
    /// The game is over after `plies` moves of the opening (line `line` of the suite, or the
    /// random walk when None).
    GameOver { line: Option<usize>, plies: u32 },
}

/// Keeps opening seeds apart from game and setup seeds.
const OPENING: u64 = 0x0be7;

impl OpeningsSpec {
    /// Resolves the section: reads the suite (relative to `base`). Errors are (key or file, line,
    /// message) for the caller to place.
    pub fn resolve(&self, base: &Path) -> Result<Openings, SpecError> {
        let key = |m: String| SpecError::Key("openings".into(), m);
        match (&self.file, self.random_plies) {
            (Some(_), Some(_)) => Err(key("give either file or random_plies, not both".into())),
            (None, None) => Err(key(
                "give file = \"SUITE\" (one opening a line) or random_plies = N".into(),
            )),
            (None, Some(0)) => Err(SpecError::Key(
                "openings.random_plies".into(),
                "must be at least 1".into(),
            )),
            (None, Some(n)) => Ok(Openings {
                lines: Vec::new(),
                random_plies: Some(n),
                order: self.order,
                source: None,
            }),
            (Some(file), None) => {
                let path = if file.is_absolute() {
                    file.clone()
                } else {
                    base.join(file)
                };
                let text = crate::durable::read_input(&path)
                    .map_err(|e| SpecError::Key("openings.file".into(), e))?;
                let ext = path
                    .extension()
                    .map(|e| e.to_string_lossy().to_ascii_lowercase());
                let (mut lines, mut numbers) = (Vec::new(), Vec::new());
                match ext.as_deref() {
                    // A PGN file: each game's moves are one opening.
                    Some("pgn") => {
                        for (line, number) in pgn_games(&text) {
                            lines.push(line);
                            numbers.push(number);
                        }
                    }
                    Some("epd") => {
                        return Err(SpecError::File(path, None, EPD_REFUSED.into()));
                    }
                    _ => {
                        for (i, line) in text.lines().enumerate() {
                            let line = line.split('#').next().unwrap_or("").trim();
                            if line.is_empty() {
                                continue;
                            }
                            if looks_like_fen(line) {
                                return Err(SpecError::File(path, Some(i + 1), EPD_REFUSED.into()));
                            }
                            lines.push(line.to_string());
                            numbers.push(i + 1);
                        }
                    }
                }
                if lines.is_empty() {
                    return Err(SpecError::File(
                        path,
                        None,
                        "the suite has no openings (one opening a line; '#' starts a comment)"
                            .into(),
                    ));
                }
                Ok(Openings {
                    lines,
                    random_plies: None,
                    order: self.order,
                    source: Some((path, numbers)),
                })
            }
        }
    }
}

/// Why a position (EPD, FEN) is not an opening here.
const EPD_REFUSED: &str = "an opening here is a line of moves from the game's start (SAN or UCI moves between spaces, `1. e4 e5 2. Nf3`, or a PGN file of games, `file = \"openings.pgn\"`); positions (EPD or FEN lines) are not openings gamelab plays: OpenSpiel's games start from their initial state";

/// Whether a suite line is a FEN or EPD position (eight ranks between slashes).
fn looks_like_fen(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|board| board.split('/').count() == 8)
}

/// The games of a PGN file as opening lines, with the line number each game's moves start on:
/// its movetext (tag pairs, `{comments}`, `;` comments to the line's end, `(variations)`, NAGs
/// `$1` and `%` escape lines left out), moves between spaces with numbers and result as written
/// (the game's `split_moves` drops them).
pub fn pgn_games(text: &str) -> Vec<(String, usize)> {
    let mut games = Vec::new();
    let (mut current, mut start) = (String::new(), None);
    let (mut braces, mut parens) = (0usize, 0usize);
    let mut finish = |current: &mut String, start: &mut Option<usize>| {
        let line = current.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some(n) = start.take()
            && line
                .split_whitespace()
                .any(|t| !["1-0", "0-1", "1/2-1/2", "*"].contains(&t))
        {
            games.push((line, n));
        }
        current.clear();
    };
    for (i, raw) in text.lines().enumerate() {
        if braces == 0 && parens == 0 {
            let t = raw.trim_start();
            if t.starts_with('%') {
                continue;
            }
            if t.starts_with('[') {
                // A tag pair: the game before it (if any) has ended.
                if !current.trim().is_empty() {
                    finish(&mut current, &mut start);
                }
                continue;
            }
        }
        let mut out = String::new();
        let mut chars = raw.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' => braces += 1,
                '}' if braces > 0 => braces -= 1,
                _ if braces > 0 => {}
                ';' => break,
                '(' => parens += 1,
                ')' if parens > 0 => parens -= 1,
                _ if parens > 0 => {}
                '$' => {
                    while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                        chars.next();
                    }
                }
                _ => out.push(c),
            }
        }
        if !out.trim().is_empty() && start.is_none() {
            start = Some(i + 1);
        }
        current.push(' ');
        current.push_str(&out);
        // A result ends the game's movetext.
        if out
            .split_whitespace()
            .last()
            .is_some_and(|t| ["1-0", "0-1", "1/2-1/2", "*"].contains(&t))
        {
            finish(&mut current, &mut start);
        }
    }
    finish(&mut current, &mut start);
    games
}

/// The suite gamelab ships for a game's built-in stage, if there is one:
/// `openings/<game>-<stage>.txt` in the repository gamelab was built from (`gamelab openings`
/// made each; the header says which stage).
pub fn shipped_suite(game: &str, stage: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("openings")
        .join(format!("{game}-{stage}.txt"));
    path.is_file().then_some(path)
}

/// The stage a suite's header says it was made for (`# Othello openings for stage small6: ...`,
/// as `gamelab openings` writes it), if it says.
pub fn suite_stage(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let first = text.lines().next()?;
    let rest = first.strip_prefix('#')?.split(" for stage ").nth(1)?;
    let stage: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    (!stage.is_empty()).then_some(stage)
}

/// `path` as a file in folder `dir` would name it: relative to `dir` when both are on the same
/// root (`../openings/othello-small6.txt` from `experiments/`), else absolute.
pub fn relative_to(path: &Path, dir: &Path) -> PathBuf {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let (Ok(path), Ok(dir)) = (path.canonicalize(), dir.canonicalize()) else {
        return path.to_path_buf();
    };
    let (p, d): (Vec<_>, Vec<_>) = (path.components().collect(), dir.components().collect());
    let common = p.iter().zip(&d).take_while(|(a, b)| a == b).count();
    if common <= 1 {
        return path;
    }
    let mut out = PathBuf::new();
    for _ in common..d.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    out
}

/// What to write in `[openings]` for a game and stage, for a message: the shipped suite's
/// `file = "..."` relative to the experiment file's folder `dir`, else `random_plies = N`.
pub fn suite_advice(game: &str, stage: Option<&str>, dir: &Path) -> String {
    match stage.and_then(|s| Some((s, shipped_suite(game, s)?))) {
        Some((stage, suite)) => format!(
            "file = \"{}\" (the suite shipped for stage {stage}) or random_plies = N",
            relative_to(&suite, dir).display()
        ),
        None => "random_plies = N, or file = \"SUITE\" (one opening a line)".to_string(),
    }
}

/// An error of the `[openings]` section: at a key of the experiment file, or in the suite file
/// (at a line when known).
#[derive(Clone, Debug, PartialEq)]
pub enum SpecError {
    Key(String, String),
    File(PathBuf, Option<usize>, String),
}

impl Openings {
    /// The suite line's number in its file (1-based), when the suite came from a file.
    pub fn line_number(&self, line: usize) -> Option<(&Path, usize)> {
        self.source
            .as_ref()
            .and_then(|(p, n)| n.get(line).map(|&l| (p.as_path(), l)))
    }

    /// The suite line slot `slot` plays, for a job whose start seed is `seed` (None with random plies).
    pub fn line_of(&self, seed: u64, slot: u64) -> Option<usize> {
        if self.lines.is_empty() {
            return None;
        }
        Some(match self.order {
            OpeningOrder::Sequential => (slot % self.lines.len() as u64) as usize,
            OpeningOrder::Random => below(
                &mut rng_from_seed(derive_seed(seed, &[OPENING, slot])),
                self.lines.len(),
            ),
        })
    }

    /// Plays every line of the suite from `start` (a fixed start); the first that cannot be
    /// played is the error.
    pub fn check_suite<G: Game>(&self, start: &G) -> Result<(), OpeningError> {
        for line in 0..self.lines.len() {
            self.play_line_at(start, line)?;
        }
        Ok(())
    }

    fn play_line_at<G: Game>(&self, start: &G, line: usize) -> Result<Played<G>, OpeningError> {
        let played = play_line(start, &G::split_moves(&self.lines[line]))
            .map_err(|error| OpeningError::Illegal { line, error })?;
        if played.position.outcome().is_some() {
            return Err(OpeningError::GameOver {
                line: Some(line),
                plies: played.plies,
            });
        }
        Ok(played)
    }

    /// Plays slot `slot`'s opening from `start` (`seed` the job's start seed); the game must still be on
    /// after it.
    pub fn play<G: Game>(
        &self,
        start: &G,
        seed: u64,
        slot: u64,
    ) -> Result<Played<G>, OpeningError> {
        if let Some(line) = self.line_of(seed, slot) {
            return self.play_line_at(start, line);
        }
        let played = random_plies(
            start,
            self.random_plies.unwrap_or(0),
            derive_seed(seed, &[OPENING, slot]),
        )
        .map_err(|plies| OpeningError::GameOver { line: None, plies })?;
        if played.position.outcome().is_some() {
            return Err(OpeningError::GameOver {
                line: None,
                plies: played.plies,
            });
        }
        Ok(played)
    }
}

/// `n` uniformly random legal moves from `start` (a forced pass is a move); Err(plies played)
/// when the game ends first.
fn random_plies<G: Game>(start: &G, n: u32, seed: u64) -> Result<Played<G>, u32> {
    let mut rng = rng_from_seed(seed);
    let (mut game, mut transcript, mut buf) = (start.clone(), String::new(), Vec::new());
    let mut names = Vec::new();
    for k in 0..n {
        let mv = game.random_move(&mut rng, &mut buf).ok_or(k)?;
        transcript.push_str(&game.transcript_name(mv));
        names.push(game.move_name(mv));
        game.play(mv);
    }
    Ok(Played {
        position: game,
        plies: n,
        transcript,
        names,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_pgn_file_gives_each_game_as_an_opening_without_tags_comments_or_variations() {
        let pgn = "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 {best by test} e5 2. Nf3 (2. f4 exf4) Nc6 $1 *\n\n[Event \"b\"]\n\n1. d4 d5 ; a comment\n2. c4 1/2-1/2\n";
        assert_eq!(
            super::pgn_games(pgn),
            vec![
                ("1. e4 e5 2. Nf3 Nc6 *".to_string(), 4),
                ("1. d4 d5 2. c4 1/2-1/2".to_string(), 8)
            ]
        );
        assert!(super::looks_like_fen(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        ));
        assert!(!super::looks_like_fen("e4 e5"));
    }

    #[test]
    fn the_shipped_suites_are_found_by_stage_and_named_from_the_file() {
        let suite = super::shipped_suite("othello", "small6").expect("openings/othello-small6.txt");
        assert_eq!(super::suite_stage(&suite).as_deref(), Some("small6"));
        assert_eq!(super::shipped_suite("othello", "no-such-stage"), None);
        let experiments = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
        assert_eq!(
            super::relative_to(&suite, &experiments),
            std::path::Path::new("../openings/othello-small6.txt")
        );
        assert!(
            super::suite_advice("othello", Some("small6"), &experiments).starts_with(
                "file = \"../openings/othello-small6.txt\" (the suite shipped for stage small6)"
            )
        );
        assert!(
            super::suite_advice("freckers", Some("standard"), &experiments)
                .starts_with("random_plies = N")
        );
    }

    use super::*;
    use crate::experiment::grid::{Pairing, slots};
    use crate::game::othello::Othello;

    fn suite(lines: &[&str], order: OpeningOrder) -> Openings {
        Openings {
            lines: lines.iter().map(|s| s.to_string()).collect(),
            random_plies: None,
            order,
            source: None,
        }
    }

    #[test]
    fn pairs_share_a_slot_and_unpaired_games_get_their_own() {
        let p = |pair: Option<u32>| Pairing {
            first: "a".into(),
            second: "b".into(),
            pair,
        };
        assert_eq!(
            slots(&[p(Some(0)), p(Some(0)), p(Some(1)), p(Some(1)), p(None)]),
            vec![0, 0, 1, 1, 2]
        );
        // A tournament's pair ids are not consecutive and its pairs' games are not adjacent.
        assert_eq!(
            slots(&[p(Some(7)), p(Some(9)), p(Some(7)), p(Some(9))]),
            vec![0, 1, 0, 1]
        );
    }

    #[test]
    fn a_suite_line_is_played_with_forced_passes_and_recorded_without_them() {
        let start = Othello::from_stage_id("standard8");
        let o = suite(&["f5 d6 c3", "f5d6c3"], OpeningOrder::Sequential);
        let a = o.play(&start, 1, 0).unwrap();
        let b = o.play(&start, 1, 1).unwrap();
        assert_eq!((a.plies, a.transcript.as_str()), (3, "f5d6c3"));
        assert_eq!(a.position, b.position);
        let mut by_hand = start;
        by_hand.play_transcript("f5d6c3").unwrap();
        assert_eq!(a.position, by_hand);
    }

    #[test]
    fn sequential_order_cycles_and_random_order_is_seeded_by_job_and_slot() {
        let o = suite(&["f5", "d6", "c4", "e3"], OpeningOrder::Sequential);
        assert_eq!(
            (0..6).map(|s| o.line_of(9, s).unwrap()).collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 0, 1]
        );
        let r = suite(&["f5", "d6", "c4", "e3"], OpeningOrder::Random);
        let draws: Vec<usize> = (0..400).map(|s| r.line_of(9, s).unwrap()).collect();
        assert_eq!(
            draws,
            (0..400)
                .map(|s| r.line_of(9, s).unwrap())
                .collect::<Vec<_>>()
        );
        assert_ne!(
            draws,
            (0..400)
                .map(|s| r.line_of(10, s).unwrap())
                .collect::<Vec<_>>()
        );
        for k in 0..4 {
            let n = draws.iter().filter(|&&d| d == k).count();
            assert!((60..140).contains(&n), "opening {k} drawn {n} times of 400");
        }
    }

    #[test]
    fn an_illegal_move_and_a_finished_game_are_errors() {
        let start = Othello::from_stage_id("standard8");
        let bad = suite(&["f5", "f5f5"], OpeningOrder::Sequential);
        match bad.play(&start, 0, 1) {
            Err(OpeningError::Illegal { line: 1, error }) => {
                assert_eq!((error.index, error.name.as_str()), (2, "f5"))
            }
            other => panic!("{other:?}"),
        }
        let walk = Openings {
            lines: Vec::new(),
            random_plies: Some(200),
            order: OpeningOrder::Sequential,
            source: None,
        };
        assert!(
            matches!(walk.play(&start, 0, 0), Err(OpeningError::GameOver { line: None, plies }) if plies <= 60)
        );
        let four = Openings {
            random_plies: Some(4),
            ..walk
        };
        let p = four.play(&start, 3, 5).unwrap();
        assert_eq!((p.plies, p.transcript.len()), (4, 8));
        assert_eq!(p.position, four.play(&start, 3, 5).unwrap().position);
    }
}
