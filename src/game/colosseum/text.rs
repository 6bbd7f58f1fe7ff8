//! The text format of Colosseum positions: a few header lines and the board drawn in ASCII.
//!
//! ```text
//! # comments start with '#'; blank lines are ignored
//! size 3
//! max_step 2     (optional; default (size + 1) / 2)
//! turn A         (optional; A or B, default A)
//! +---+---+---+
//! | A   . | . |
//! +   +---+   +
//! | .   .   . |
//! +   +   +   +
//! | .   .   B |
//! +---+---+---+
//! ```
//!
//! The drawing has 2 x size + 1 lines. Even lines are wall rows: '+' at every corner and, over
//! each cell, "---" for a wall or three spaces for none. Odd lines are cell rows: '|' or ' '
//! between cells (and at both ends), and in each cell '.', 'A' or 'B'. Trailing spaces may be
//! left out. A wall between two cells is drawn once, so it is always two-sided; the border
//! must be walled all round (a gap in it would be a one-sided wall, which the game never has).
//! A player may stand on a cell walled on all four sides. `to_text` writes this format and
//! `parse` reads it back exactly.

use super::{Colosseum, DOWN, LEFT, RIGHT, UP};
use crate::game::{Game, Player};

/// An error in a position text: the 1-based line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, TextError> {
    Err(TextError {
        line,
        message: message.into(),
    })
}

/// Draws a position in the text format.
pub fn to_text(g: &Colosseum) -> String {
    let m = g.size();
    let mut s = format!("size {m}\n");
    if g.max_step() != m.div_ceil(2) {
        s.push_str(&format!("max_step {}\n", g.max_step()));
    }
    s.push_str(&format!(
        "turn {}\n",
        if g.to_move() == Player::First {
            'A'
        } else {
            'B'
        }
    ));
    s.push_str(&drawing(g));
    s
}

/// The board alone, as drawn in the text format (also what `gamelab show` prints).
pub fn drawing(g: &Colosseum) -> String {
    let m = g.size();
    let (a, b) = (g.position_of(Player::First), g.position_of(Player::Second));
    let mut s = String::new();
    let wall_row = |s: &mut String, r: usize, side: u8| {
        for c in 0..m {
            s.push('+');
            s.push_str(if g.has_wall(r, c, side) { "---" } else { "   " });
        }
        s.push_str("+\n");
    };
    for r in 0..m {
        wall_row(&mut s, r, UP);
        for c in 0..m {
            s.push(if g.has_wall(r, c, LEFT) { '|' } else { ' ' });
            let who = if (r, c) == a {
                'A'
            } else if (r, c) == b {
                'B'
            } else {
                '.'
            };
            s.push(' ');
            s.push(who);
            s.push(' ');
        }
        s.push_str(if g.has_wall(r, m - 1, RIGHT) {
            "|\n"
        } else {
            " \n"
        });
    }
    wall_row(&mut s, m - 1, DOWN);
    s
}

/// Reads a position in the text format.
pub fn parse(text: &str) -> Result<Colosseum, TextError> {
    let mut size: Option<(usize, usize)> = None;
    let mut max_step: Option<(usize, usize)> = None;
    let mut turn = Player::First;
    let mut drawing: Vec<(usize, &str)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end();
        let bare = line.trim_start();
        if drawing.is_empty() && (bare.is_empty() || bare.starts_with('#')) {
            continue;
        }
        if !drawing.is_empty() || bare.starts_with('+') {
            if bare.starts_with('#') || bare.is_empty() {
                continue;
            }
            drawing.push((n, line));
            continue;
        }
        let mut words = bare.split_whitespace();
        let (key, value) = (words.next().unwrap_or(""), words.next());
        if words.next().is_some() {
            return err(n, format!("expected `KEY VALUE`, got '{bare}'"));
        }
        let number = |v: Option<&str>| -> Result<usize, TextError> {
            v.and_then(|v| v.parse().ok())
                .map_or_else(|| err(n, format!("`{key}` needs a whole number")), Ok)
        };
        match key {
            "size" => size = Some((number(value)?, n)),
            "max_step" => max_step = Some((number(value)?, n)),
            "turn" => {
                turn = match value {
                    Some("A") => Player::First,
                    Some("B") => Player::Second,
                    _ => return err(n, "`turn` is A or B"),
                }
            }
            _ => {
                return err(
                    n,
                    format!(
                        "unknown line '{bare}' (expected size, max_step, turn, or the board drawing starting with '+')"
                    ),
                );
            }
        }
    }
    let Some((m, size_line)) = size else {
        return err(1, "no `size N` line before the drawing");
    };
    if !(2..=super::MAX_SIZE).contains(&m) {
        return err(
            size_line,
            format!("size must be 2..={}, got {m}", super::MAX_SIZE),
        );
    }
    let last = drawing.last().map_or(size_line, |d| d.0);
    if drawing.len() != 2 * m + 1 {
        return err(
            last,
            format!(
                "size mismatch: size {m} needs {} drawing lines, found {}",
                2 * m + 1,
                drawing.len()
            ),
        );
    }
    let width = 4 * m + 1;
    let mut g = Colosseum::empty(m, (0, 0), (m - 1, m - 1)).map_err(|e| TextError {
        line: size_line,
        message: e,
    })?;
    let mut players: [Option<(usize, usize)>; 2] = [None, None];
    for (k, &(n, line)) in drawing.iter().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        if chars.len() > width {
            return err(
                n,
                format!(
                    "size mismatch: a row of a size-{m} board is {width} characters wide, this one is {}",
                    chars.len()
                ),
            );
        }
        let at = |j: usize| chars.get(j).copied().unwrap_or(' ');
        if k % 2 == 0 {
            // A wall row: the top side of row k/2 (the bottom side of the row above).
            let r = k / 2;
            for c in 0..m {
                if at(4 * c) != '+' {
                    return err(n, format!("expected '+' at column {}", 4 * c + 1));
                }
                let seg: String = (1..4).map(|j| at(4 * c + j)).collect();
                let wall = match seg.as_str() {
                    "---" => true,
                    "   " => false,
                    _ => {
                        return err(
                            n,
                            format!(
                                "expected '---' or three spaces over cell column {c}, got '{seg}'"
                            ),
                        );
                    }
                };
                let border = r == 0 || r == m;
                if border && !wall {
                    return err(
                        n,
                        format!(
                            "the border above/below cell ({}, {c}) is open: a one-sided wall (the border is always walled)",
                            r.min(m - 1)
                        ),
                    );
                }
                if wall && !border {
                    g.set_wall(r, c, UP);
                }
            }
            if at(4 * m) != '+' {
                return err(n, format!("expected '+' at column {}", 4 * m + 1));
            }
        } else {
            let r = k / 2;
            for c in 0..=m {
                let ch = at(4 * c);
                let wall = match ch {
                    '|' => true,
                    ' ' => false,
                    _ => {
                        return err(
                            n,
                            format!("expected '|' or ' ' at column {}, got '{ch}'", 4 * c + 1),
                        );
                    }
                };
                if (c == 0 || c == m) && !wall {
                    return err(
                        n,
                        format!(
                            "the border beside cell ({r}, {}) is open: a one-sided wall (the border is always walled)",
                            c.min(m - 1)
                        ),
                    );
                }
                if wall && c > 0 && c < m {
                    g.set_wall(r, c, LEFT);
                }
                if c == m {
                    break;
                }
                if at(4 * c + 1) != ' ' || at(4 * c + 3) != ' ' {
                    return err(
                        n,
                        format!("cell ({r}, {c}) must be drawn as ' x ' with x one of . A B"),
                    );
                }
                match at(4 * c + 2) {
                    '.' => {}
                    p @ ('A' | 'B') => {
                        let i = usize::from(p == 'B');
                        if players[i].is_some() {
                            return err(n, format!("player {p} appears twice"));
                        }
                        players[i] = Some((r, c));
                    }
                    x => {
                        return err(
                            n,
                            format!("unknown symbol '{x}' in cell ({r}, {c}) (expected . A or B)"),
                        );
                    }
                }
            }
        }
    }
    let (Some(a), Some(b)) = (players[0], players[1]) else {
        return err(last, "the drawing needs one A and one B");
    };
    g.place_players(a, b).map_err(|e| TextError {
        line: last,
        message: e,
    })?;
    if let Some((k, n)) = max_step {
        if k == 0 {
            return err(n, "max_step must be at least 1");
        }
        g.set_max_step(k);
    }
    g.set_to_move(turn);
    Ok(g)
}
