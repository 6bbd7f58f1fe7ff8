//! Othello for engines that speak GTP (Edax's `-gtp` mode, GoGui's Othello engines): a
//! position as such an engine is told it (`Protocol::engine_position`). The engine knows only
//! the standard 8x8 game from its start (`boardsize 8`, `clear_board`), so the game is told as
//! the moves from there: a start after an opening is reached by the shortest line of moves
//! from the standard start (found once per start, at most `MAX_LINE` plies), then the moves the
//! game has seen, each `play b d3` / `play w pass` with the colour that made it. Other stages
//! (6x6, blocked cells, other rules) have no GTP engine: an error naming the stage.

use super::{Move, Othello, PASS};
use crate::agent::external::EnginePosition;
use crate::game::{Game, Player};
use std::collections::HashMap;

/// The longest opening told to a GTP engine as moves from the standard start.
const MAX_LINE: usize = 16;

/// GTP's colour of a side: Black moves first.
fn colour(p: Player) -> &'static str {
    if p == Player::First { "b" } else { "w" }
}

/// A position's key for the search: discs and whether Black is to move.
type Key = ([u64; 2], bool);

fn key(g: &Othello) -> Key {
    (g.discs, g.side == Player::First)
}

/// The shortest line of moves from `from` to `to` (passes included), if one of at most
/// `MAX_LINE` plies reaches it: a search by layers, each position once.
fn line_between(from: &Othello, to: &Othello) -> Option<Vec<Move>> {
    if from == to {
        return Some(Vec::new());
    }
    let target = key(to);
    // Each position seen, with the position before it and the move between.
    let mut came_from: HashMap<Key, (Key, Move)> = HashMap::new();
    let mut layer = vec![*from];
    let mut moves = Vec::new();
    for _ in 0..MAX_LINE {
        let mut next = Vec::new();
        for g in &layer {
            moves.clear();
            g.legal_moves(&mut moves);
            for &m in &moves {
                let mut child = *g;
                child.play(m);
                let k = key(&child);
                if k == key(from) || came_from.contains_key(&k) {
                    continue;
                }
                came_from.insert(k, (key(g), m));
                if k == target && child == *to {
                    let mut line = vec![m];
                    let mut at = key(g);
                    while at != key(from) {
                        let (before, m) = came_from[&at];
                        line.push(m);
                        at = before;
                    }
                    line.reverse();
                    return Some(line);
                }
                next.push(child);
            }
        }
        if next.is_empty() {
            break;
        }
        layer = next;
    }
    None
}

thread_local! {
    /// The last start told to an engine and its line from the standard start (a game's every
    /// move is told from the same start).
    static LINE_OF_START: std::cell::RefCell<Option<(Othello, Vec<Move>)>> =
        const { std::cell::RefCell::new(None) };
}

/// The standard 8x8 start.
fn standard() -> Othello {
    Othello::new(&super::stage::builtin_stage("standard8").expect("standard8 is built in"))
        .expect("standard8 is a stage")
}

/// The position `now`, reached from `start` by `history`, as a GTP engine is told it.
pub fn gtp_position(
    now: &Othello,
    start: &Othello,
    history: &[Move],
) -> Result<EnginePosition, String> {
    let standard = standard();
    if start.rules != standard.rules {
        return Err(
            "a GTP Othello engine plays the standard 8x8 board (stage = \"standard8\")".into(),
        );
    }
    let prefix = LINE_OF_START.with(|cached| {
        let mut cached = cached.borrow_mut();
        if let Some((s, line)) = cached.as_ref()
            && s == start
        {
            return Ok(line.clone());
        }
        let line = line_between(&standard, start).ok_or_else(|| {
            format!("the game's start is not within {MAX_LINE} moves of the standard start, so a GTP engine cannot be told it")
        })?;
        *cached = Some((*start, line.clone()));
        Ok::<_, String>(line)
    })?;
    let mut g = standard;
    let mut line = Vec::with_capacity(prefix.len() + history.len());
    for &m in prefix.iter().chain(history) {
        line.push(format!("{} {}", colour(g.to_move()), g.move_name(m)));
        g.play(m);
    }
    if g != *now {
        return Err("the moves the engine was told do not reach the game's position".into());
    }
    let mut legal = Vec::new();
    now.legal_moves(&mut legal);
    Ok(EnginePosition {
        board_size: 8,
        komi: 0.0,
        line,
        legal: legal
            .iter()
            .map(|&m| {
                if m == PASS {
                    "pass".to_string()
                } else {
                    now.move_name(m)
                }
            })
            .collect(),
        to_move: colour(now.to_move()).to_string(),
        ..EnginePosition::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::play_line;

    fn after(line: &[&str]) -> Othello {
        let names: Vec<String> = line.iter().map(|s| s.to_string()).collect();
        play_line(&standard(), &names).unwrap().position
    }

    #[test]
    fn a_game_is_told_as_its_moves_from_the_standard_start_with_their_colours() {
        let start = standard();
        let mut now = start;
        let mut history = Vec::new();
        for name in ["f5", "d6", "c3"] {
            let mut legal = Vec::new();
            now.legal_moves(&mut legal);
            let m = *legal.iter().find(|&&m| now.move_name(m) == name).unwrap();
            history.push(m);
            now.play(m);
        }
        let pos = gtp_position(&now, &start, &history).unwrap();
        assert_eq!(pos.line, ["b f5", "w d6", "b c3"]);
        assert_eq!(pos.to_move, "w");
        assert_eq!(pos.board_size, 8);
        let mut legal = Vec::new();
        now.legal_moves(&mut legal);
        assert_eq!(pos.legal.len(), legal.len());
    }

    #[test]
    fn a_start_after_an_opening_is_reached_by_a_line_from_the_standard_start() {
        let start = after(&["f5", "f6", "e6", "f4"]);
        let pos = gtp_position(&start, &start, &[]).unwrap();
        assert_eq!(pos.line.len(), 4);
        // The line found plays to the same position (it may be another order of moves).
        let names: Vec<String> = pos.line.iter().map(|l| l[2..].to_string()).collect();
        assert_eq!(play_line(&standard(), &names).unwrap().position, start);
        assert_eq!(pos.line[0].split(' ').next(), Some("b"));
    }

    #[test]
    fn other_stages_have_no_gtp_engine() {
        let small = Othello::new(&super::super::stage::builtin_stage("small6").unwrap()).unwrap();
        assert!(
            gtp_position(&small, &small, &[])
                .unwrap_err()
                .contains("standard8")
        );
    }
}
