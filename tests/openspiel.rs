//! OpenSpiel beside gamelab (issue "Any game, any bot"): games of our Othello engine replayed in
//! OpenSpiel's `othello` must agree move for move (the legal moves at every ply, passes
//! included) and in the final discs and winner.
//!
//! Needs Python with OpenSpiel (`pyspiel`): `make openspiel` installs it into `.venv/`, or
//! `GAMELAB_PYTHON` names an interpreter that has it. Without it the test says SKIPPED (and
//! fails with `REQUIRE_OPENSPIEL` set, as CI sets it).
//! `OPENSPIEL_OTHELLO_GAMES` sets the number of games (default 1,000).

use gamelab::game::Game;
use gamelab::game::othello::{Othello, builtin_stage};
use gamelab::rng::{below, rng_from_seed};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A Python interpreter that imports pyspiel: `GAMELAB_PYTHON`, else the repository's `.venv`.
fn python_with_openspiel() -> Result<PathBuf, String> {
    let python = std::env::var_os("GAMELAB_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python"));
    let ok = Command::new(&python)
        .args(["-c", "import pyspiel"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        Ok(python)
    } else {
        Err(format!(
            "{} cannot import pyspiel (make openspiel installs it, or set GAMELAB_PYTHON)",
            python.display()
        ))
    }
}

/// One random game of standard8 Othello as a JSON line: each ply's legal moves and the move
/// played (`pass` included), the final discs and the winner.
fn random_game(seed: u64) -> String {
    let mut g = Othello::new(&builtin_stage("standard8").unwrap()).unwrap();
    let mut rng = rng_from_seed(seed);
    let (mut plies, mut moves) = (Vec::new(), Vec::new());
    while g.outcome().is_none() {
        moves.clear();
        g.legal_moves(&mut moves);
        let mv = moves[below(&mut rng, moves.len())];
        let legal: Vec<String> = moves.iter().map(|&m| g.move_name(m)).collect();
        plies.push(serde_json::json!({ "legal": legal, "move": g.move_name(mv) }));
        g.play(mv);
    }
    let winner = match g.outcome().unwrap() {
        gamelab::game::Outcome::Win(gamelab::game::Player::First) => "first",
        gamelab::game::Outcome::Win(gamelab::game::Player::Second) => "second",
        gamelab::game::Outcome::Draw => "draw",
    };
    serde_json::json!({ "plies": plies, "scores": g.scores(), "winner": winner }).to_string()
}

#[test]
fn othello_games_agree_with_openspiel_move_for_move() {
    let python = match python_with_openspiel() {
        Ok(p) => p,
        Err(why) if std::env::var_os("REQUIRE_OPENSPIEL").is_none() => {
            eprintln!("SKIPPED: {why}");
            return;
        }
        Err(why) => panic!("REQUIRE_OPENSPIEL is set: {why}"),
    };
    let games: u64 = std::env::var("OPENSPIEL_OTHELLO_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.jsonl");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
    let mut passes = 0;
    for seed in 0..games {
        let line = random_game(seed);
        passes += line.matches("\"move\":\"pass\"").count();
        writeln!(out, "{line}").unwrap();
    }
    out.flush().unwrap();
    drop(out);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("bridges/openspiel/othello_check.py");
    let run = Command::new(&python)
        .arg(&script)
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    eprintln!("{text}(games with passes: {passes} passes in all)");
    assert!(
        run.status.success(),
        "OpenSpiel disagrees:\n{text}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        text.starts_with(&format!("games {games} ")),
        "not every game was checked: {text}"
    );
    // The games must reach the rule where the engines could differ: a side without a move.
    assert!(passes > 0, "no game of the sample had a pass");
}
