//! The text format of Othello positions: a few header lines and the board, one row per line.
//!
//! ```text
//! # comments start with '# '; blank lines are ignored
//! turn black                  (black or white: the side to move; default black)
//! ignore_occlusion no         (optional, yes or no: the stage's rule flags)
//! fewer_pieces_continue no    (optional, yes or no)
//! ......
//! ......
//! ..OX..
//! ..XO..
//! ......
//! ......
//! ```
//!
//! Cells: `X` black (moves first), `O` white, `#` blocked, `.` empty; row 0 on top, as many rows
//! as columns (3 to 8). Moves are named `a1` (column letter, row number from the top) or `pass`.
//! `to_text` writes this format and `parse` reads it back exactly.

use super::{Othello, StageDef};
use crate::game::colosseum::text::TextError;
use crate::game::{Game, Player};

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, TextError> {
    Err(TextError {
        line,
        message: message.into(),
    })
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// The position as text (see the module docs).
pub fn to_text(g: &Othello) -> String {
    let rules = g.rules();
    format!(
        "turn {}\nignore_occlusion {}\nfewer_pieces_continue {}\n{}",
        if g.to_move() == Player::First {
            "black"
        } else {
            "white"
        },
        yes_no(rules.ignore_occlusion),
        yes_no(rules.fewer_pieces_continue),
        g.board_text()
    )
}

/// Reads a position; errors name the 1-based line.
pub fn parse(text: &str) -> Result<Othello, TextError> {
    let mut turn = Player::First;
    let mut def = StageDef {
        id: "position".into(),
        name: String::new(),
        size: 0,
        blocked: vec![],
        black: vec![],
        white: vec![],
        ignore_occlusion: false,
        fewer_pieces_continue: false,
    };
    let mut rows: Vec<(usize, &str)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        // A blocked cell is '#', so a comment is a line that starts with "# " (board rows have
        // no spaces).
        let line = raw.trim();
        if line.is_empty() || line == "#" || line.starts_with("# ") {
            continue;
        }
        let n = i + 1;
        let flag = |v: &str| match v {
            "yes" => Ok(true),
            "no" => Ok(false),
            other => err(n, format!("expected yes or no, got '{other}'")),
        };
        match line
            .split_once(char::is_whitespace)
            .map(|(k, v)| (k, v.trim()))
        {
            Some(("turn", v)) if rows.is_empty() => {
                turn = match v {
                    "black" => Player::First,
                    "white" => Player::Second,
                    other => return err(n, format!("turn must be black or white, got '{other}'")),
                }
            }
            Some(("ignore_occlusion", v)) if rows.is_empty() => def.ignore_occlusion = flag(v)?,
            Some(("fewer_pieces_continue", v)) if rows.is_empty() => {
                def.fewer_pieces_continue = flag(v)?
            }
            Some((key, _)) => {
                return err(
                    n,
                    format!(
                        "unknown line '{key} ...' (expected turn, ignore_occlusion, fewer_pieces_continue, then the board)"
                    ),
                );
            }
            None => rows.push((n, line)),
        }
    }
    let size = rows.len();
    if !(3..=8).contains(&size) {
        return err(
            rows.first().map_or(1, |r| r.0),
            format!("the board has {size} rows; expected 3 to 8"),
        );
    }
    def.size = size as u8;
    for (r, (n, row)) in rows.iter().enumerate() {
        if row.chars().count() != size {
            return err(
                *n,
                format!(
                    "the row has {} cells; expected {size} (as many as rows)",
                    row.chars().count()
                ),
            );
        }
        for (c, ch) in row.chars().enumerate() {
            let cell = [r as u8, c as u8];
            match ch {
                'X' | 'x' => def.black.push(cell),
                'O' | 'o' => def.white.push(cell),
                '#' => def.blocked.push(cell),
                '.' => {}
                other => return err(*n, format!("'{other}' is not one of X O # .")),
            }
        }
    }
    Othello::position(&def, turn).or_else(|e| err(rows[0].0, e))
}

/// The move of `g` named `name` (`f5`, `pass`), if it is legal there.
pub fn parse_move(g: &Othello, name: &str) -> Option<<Othello as Game>::Move> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves.into_iter().find(|&m| g.move_name(m) == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_read_back_what_they_write() {
        for id in super::super::BUILTIN_STAGES {
            let mut g = Othello::from_stage_id(id);
            let mut moves = Vec::new();
            for _ in 0..6 {
                let text = to_text(&g);
                let back = parse(&text).unwrap_or_else(|e| panic!("{id}: {e}\n{text}"));
                assert_eq!(back, g, "{id}:\n{text}");
                moves.clear();
                g.legal_moves(&mut moves);
                if g.outcome().is_some() {
                    break;
                }
                g.play(moves[moves.len() / 2]);
            }
        }
    }

    #[test]
    fn bad_positions_name_their_line() {
        assert_eq!(parse("turn red\n...\n.XO\n...\n").unwrap_err().line, 1);
        assert_eq!(
            parse("turn black\n....\n.XO.\n.OX\n....\n")
                .unwrap_err()
                .line,
            4
        );
        assert_eq!(parse("...\n.XQ\n...\n").unwrap_err().line, 2);
        assert!(parse("..\n..\n").unwrap_err().message.contains("3 to 8"));
        assert_eq!(
            parse("# a comment\n\nturn white\n...\n.XO\n...\n")
                .unwrap()
                .to_move(),
            Player::Second
        );
    }
}
