//! Colosseum read cell by cell, as the rules page says it: walls as four flags a cell, reach by
//! a breadth-first search of at most K steps that never enters the opponent's cell, regions by a
//! flood fill. The reference the tests compare the set-wise engine with, and the plain engine the
//! Colosseum bench times the engine's playouts against.

use super::{Colosseum, DOWN, LEFT, RIGHT, UP, across};
use crate::game::{Game, Player};
use crate::rng::{GameRng, below};
use std::collections::VecDeque;

/// A Colosseum position in plain arrays.
#[derive(Clone, Debug)]
pub struct PlainBoard {
    size: usize,
    max_step: usize,
    /// `walls[r * size + c][side]`.
    walls: Vec<[bool; 4]>,
    /// Cells of A and B.
    pos: [(usize, usize); 2],
    /// 0 when A moves, 1 when B moves.
    to_move: usize,
}

impl PlainBoard {
    pub fn new(g: &Colosseum) -> PlainBoard {
        let m = g.size();
        let walls = (0..m * m)
            .map(|i| [UP, RIGHT, DOWN, LEFT].map(|side| g.has_wall(i / m, i % m, side)))
            .collect();
        PlainBoard {
            size: m,
            max_step: g.max_step(),
            walls,
            pos: [g.position_of(Player::First), g.position_of(Player::Second)],
            to_move: g.to_move().index(),
        }
    }

    fn wall(&self, (r, c): (usize, usize), side: u8) -> bool {
        self.walls[r * self.size + c][side as usize]
    }

    /// The cells the side to move can walk to, in row-major order.
    pub fn reach(&self) -> Vec<(usize, usize)> {
        let (start, adv) = (self.pos[self.to_move], self.pos[1 - self.to_move]);
        let mut dist = vec![usize::MAX; self.size * self.size];
        dist[start.0 * self.size + start.1] = 0;
        let mut queue = VecDeque::from([start]);
        let mut out = Vec::new();
        while let Some(at) = queue.pop_front() {
            out.push(at);
            let d = dist[at.0 * self.size + at.1];
            if d == self.max_step {
                continue;
            }
            for side in [UP, RIGHT, DOWN, LEFT] {
                if self.wall(at, side) {
                    continue;
                }
                let next = across(at, side);
                if next != adv && dist[next.0 * self.size + next.1] == usize::MAX {
                    dist[next.0 * self.size + next.1] = d + 1;
                    queue.push_back(next);
                }
            }
        }
        out.sort();
        out
    }

    /// The cells joined to `from` through open sides.
    fn region(&self, from: (usize, usize)) -> Vec<bool> {
        let mut seen = vec![false; self.size * self.size];
        seen[from.0 * self.size + from.1] = true;
        let mut stack = vec![from];
        while let Some(at) = stack.pop() {
            for side in [UP, RIGHT, DOWN, LEFT] {
                if !self.wall(at, side) {
                    let n = across(at, side);
                    if !std::mem::replace(&mut seen[n.0 * self.size + n.1], true) {
                        stack.push(n);
                    }
                }
            }
        }
        seen
    }

    /// Region sizes (A's, B's) and whether the players share one.
    pub fn regions(&self) -> (usize, usize, bool) {
        let a = self.region(self.pos[0]);
        let b = self.region(self.pos[1]);
        let count = |s: &[bool]| s.iter().filter(|&&x| x).count();
        (
            count(&a),
            count(&b),
            a[self.pos[1].0 * self.size + self.pos[1].1],
        )
    }

    /// Walks to `to` and puts a wall on its `side` (and on the neighbour's matching side).
    fn play(&mut self, to: (usize, usize), side: u8) {
        self.pos[self.to_move] = to;
        self.walls[to.0 * self.size + to.1][side as usize] = true;
        let n = across(to, side);
        self.walls[n.0 * self.size + n.1][((side + 2) % 4) as usize] = true;
        self.to_move = 1 - self.to_move;
    }
}

/// A playout of uniformly random moves, drawn as the engine's `random_move` draws them (one
/// number below the move count; moves ordered by side, then by cell in row-major order), to
/// the end. Returns the region sizes (A's, B's).
pub fn playout_reference(start: &Colosseum, rng: &mut GameRng) -> [usize; 2] {
    let mut b = PlainBoard::new(start);
    loop {
        let (a_size, b_size, joined) = b.regions();
        if !joined {
            return [a_size, b_size];
        }
        let reach = b.reach();
        let board = &b;
        let moves: Vec<((usize, usize), u8)> = [UP, RIGHT, DOWN, LEFT]
            .into_iter()
            .flat_map(|side| {
                reach
                    .iter()
                    .filter(move |&&at| !board.wall(at, side))
                    .map(move |&at| (at, side))
            })
            .collect();
        let (to, side) = moves[below(rng, moves.len())];
        b.play(to, side);
    }
}
