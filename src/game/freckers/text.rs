//! Freckers positions as text: the rules page's board print (`R`, `B` frogs, `*` pad, `.` water,
//! row 0 on top, cells separated by spaces) after optional header lines.
//!
//! ```text
//! # comments start with '#'
//! turn red        (red or blue; default red)
//! actions 0       (actions already played, 0..=150; default 0)
//! rule lenient    (lenient or strict multi-jumps; default lenient)
//! * R R R R R R *
//! . * * * * * * .
//! . . . . . . . .
//! . . . . . . . .
//! . . . . . . . .
//! . . . . . . . .
//! . * * * * * * .
//! * B B B B B B *
//! ```
//! `to_text` writes this format and `parse` reads it back exactly.

use super::Freckers;
use crate::game::Player;
use crate::game::colosseum::text::TextError;

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, TextError> {
    Err(TextError {
        line,
        message: message.into(),
    })
}

/// The board alone: eight rows of eight symbols.
pub fn board(g: &Freckers) -> String {
    let mut s = String::new();
    for r in 0..8 {
        let row: Vec<&str> = (0..8)
            .map(|c| {
                let bit = 1u64 << (r * 8 + c);
                if g.frogs(Player::First) & bit != 0 {
                    "R"
                } else if g.frogs(Player::Second) & bit != 0 {
                    "B"
                } else if g.pads() & bit != 0 {
                    "*"
                } else {
                    "."
                }
            })
            .collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s
}

pub fn to_text(g: &Freckers) -> String {
    use crate::game::Game;
    format!(
        "turn {}\nactions {}\nrule {}\n{}",
        if g.to_move() == Player::First {
            "red"
        } else {
            "blue"
        },
        g.actions_played(),
        if g.strict() { "strict" } else { "lenient" },
        board(g)
    )
}

pub fn parse(text: &str) -> Result<Freckers, TextError> {
    let (mut turn, mut actions, mut strict) = (Player::First, 0u16, false);
    let (mut pads, mut red, mut blue) = (0u64, 0u64, 0u64);
    let mut rows = 0usize;
    let mut last = 0;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        last = n;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["turn", v] if rows == 0 => {
                turn = match *v {
                    "red" => Player::First,
                    "blue" => Player::Second,
                    _ => return err(n, "`turn` is red or blue"),
                }
            }
            ["actions", v] if rows == 0 => {
                actions = v
                    .parse()
                    .map_or_else(|_| err(n, "`actions` needs a whole number"), Ok)?
            }
            ["rule", v] if rows == 0 => {
                strict = match *v {
                    "strict" => true,
                    "lenient" => false,
                    _ => return err(n, "`rule` is lenient or strict"),
                }
            }
            _ => {
                let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
                if rows == 8 {
                    return err(n, "a board has 8 rows; this is a ninth");
                }
                if cells.len() != 8 {
                    return err(
                        n,
                        format!("a row has 8 cells, this one has {}", cells.len()),
                    );
                }
                for (c, ch) in cells.iter().enumerate() {
                    let bit = 1u64 << (rows * 8 + c);
                    match ch {
                        'R' => red |= bit,
                        'B' => blue |= bit,
                        '*' => pads |= bit,
                        '.' => {}
                        x => {
                            return err(
                                n,
                                format!(
                                    "unknown symbol '{x}' in column {c} (expected R, B, * or .)"
                                ),
                            );
                        }
                    }
                }
                rows += 1;
            }
        }
    }
    if rows != 8 {
        return err(last.max(1), format!("a board has 8 rows, found {rows}"));
    }
    Freckers::from_parts(pads, red, blue, turn, actions, strict).map_err(|e| TextError {
        line: last,
        message: e,
    })
}
