//! Colosseum Survival (McGill COMP 424, 2022), the game of both COMP 424 reports: the board,
//! moves, the course's random setup, the end check and the move notation.
//!
//! Rules as `shared/rules/colosseum.md` states them from the course's code: an M x M board
//! (2 <= M <= 16 here) with walls on cell sides; a move walks at most K = (M + 1) / 2 steps
//! (never through a wall or the opponent, staying put allowed) and then puts a wall on one free
//! side of the cell where it stands. After every move, if the players are in different regions
//! the game ends and each scores its region's size.
//!
//! Representation: four 256-bit sets of "this side is open" (`cells.rs`), so reachability and
//! region fills move whole sets a step at a time. The end check is incremental: a new wall
//! between cells u and v can only split the players' region if it disconnects u from v, which
//! a fill from u usually disproves in two or three steps; only then is the region measured.
//! Region sizes are computed when the game ends (or when `scores` is asked mid-game).

pub mod agents;
pub mod cells;
pub mod reference;
#[cfg(test)]
mod tests;
pub mod text;

use super::{Game, Outcome, Player};
use crate::rng::{GameRng, below};
pub use cells::{Cells, cell, rc};

/// Sides of a cell, in the course's order.
pub const UP: u8 = 0;
pub const RIGHT: u8 = 1;
pub const DOWN: u8 = 2;
pub const LEFT: u8 = 3;
pub const SIDE_NAMES: [char; 4] = ['u', 'r', 'd', 'l'];

/// A move: the destination cell (index `r * 16 + c`) and the side the wall goes on, packed as
/// `cell << 2 | side`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub u16);

impl Move {
    pub fn new(cell: u8, side: u8) -> Move {
        Move((cell as u16) << 2 | side as u16)
    }
    pub fn cell(self) -> u8 {
        (self.0 >> 2) as u8
    }
    pub fn side(self) -> u8 {
        (self.0 & 3) as u8
    }
}

pub const MAX_SIZE: usize = 16;

/// The boards a Colosseum experiment plays on: `size-M` (every game on M x M) or `sizes-A-B`
/// (each colour-swapped pair of games on a size drawn uniformly from A..=B). Each pair's walls
/// and start cells come from the course's random setup, seeded by the job and the pair.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColosseumStage {
    pub id: String,
    pub sizes: [u8; 2],
}

impl ColosseumStage {
    pub fn parse(id: &str) -> Result<ColosseumStage, String> {
        let bad = || {
            format!(
                "unknown Colosseum stage '{id}' (expected size-M, e.g. size-8, or sizes-A-B, e.g. sizes-6-12, with 3 <= M <= {MAX_SIZE})"
            )
        };
        let num = |t: &str| {
            t.parse::<u8>()
                .ok()
                .filter(|m| (3..=MAX_SIZE as u8).contains(m))
        };
        let sizes = if let Some(m) = id.strip_prefix("size-") {
            let m = num(m).ok_or_else(bad)?;
            [m, m]
        } else if let Some(range) = id.strip_prefix("sizes-") {
            let (a, b) = range.split_once('-').ok_or_else(bad)?;
            let (a, b) = (num(a).ok_or_else(bad)?, num(b).ok_or_else(bad)?);
            if a > b {
                return Err(format!("stage '{id}': the smaller size comes first"));
            }
            [a, b]
        } else {
            return Err(bad());
        };
        Ok(ColosseumStage {
            id: id.to_string(),
            sizes,
        })
    }

    /// The start of the game with setup seed `seed`, and its size.
    pub fn setup(&self, seed: u64) -> Result<Colosseum, String> {
        let mut rng = crate::rng::rng_from_seed(seed);
        let [a, b] = self.sizes;
        let m = a as usize + below(&mut rng, (b - a) as usize + 1);
        Colosseum::random_setup(m, &mut rng)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Colosseum {
    size: u8,
    max_step: u8,
    /// `open[side]` holds the cells whose `side` has no wall.
    open: [Cells; 4],
    /// Cells of the first (A) and second (B) player.
    pos: [u8; 2],
    to_move: Player,
    /// Set when the game has ended: the outcome and both region sizes.
    result: Option<(Outcome, [i32; 2])>,
}

/// The neighbour of `cell` across `side` (the caller knows it is on the board).
#[inline]
fn neighbour(cell: u8, side: u8) -> u8 {
    match side {
        UP => cell - 16,
        RIGHT => cell + 1,
        DOWN => cell + 16,
        _ => cell - 1,
    }
}

/// The cell across `side` of (r, c) (the caller knows it is on the board).
pub fn across((r, c): (usize, usize), side: u8) -> (usize, usize) {
    match side {
        UP => (r - 1, c),
        RIGHT => (r, c + 1),
        DOWN => (r + 1, c),
        _ => (r, c - 1),
    }
}

impl Colosseum {
    /// An open board (border walls only) with the players on `a` and `b`, A to move.
    pub fn empty(size: usize, a: (usize, usize), b: (usize, usize)) -> Result<Colosseum, String> {
        if !(2..=MAX_SIZE).contains(&size) {
            return Err(format!("board size must be 2..={MAX_SIZE}, got {size}"));
        }
        let all = Cells::board(size);
        let mut open = [all; 4];
        for i in 0..size {
            open[UP as usize].remove(cell(0, i));
            open[DOWN as usize].remove(cell(size - 1, i));
            open[LEFT as usize].remove(cell(i, 0));
            open[RIGHT as usize].remove(cell(i, size - 1));
        }
        let mut g = Colosseum {
            size: size as u8,
            max_step: size.div_ceil(2) as u8,
            open,
            pos: [0, 0],
            to_move: Player::First,
            result: None,
        };
        g.place_players(a, b)?;
        Ok(g)
    }

    /// Moves the players (for building positions); the end is checked again.
    pub fn place_players(&mut self, a: (usize, usize), b: (usize, usize)) -> Result<(), String> {
        let m = self.size as usize;
        for (name, (r, c)) in [("A", a), ("B", b)] {
            if r >= m || c >= m {
                return Err(format!(
                    "player {name} at ({r}, {c}) is off the {m}x{m} board"
                ));
            }
        }
        if a == b {
            return Err(format!("both players are on ({}, {})", a.0, a.1));
        }
        self.pos = [cell(a.0, a.1), cell(b.0, b.1)];
        self.result = None;
        self.check_end_full();
        Ok(())
    }

    /// The course's random setup: border walls; K times a random free side and its
    /// point-reflected twin; A uniform and B point-reflected (redrawn if equal); A moves first;
    /// all again if the players start in separate regions.
    ///
    /// On a 2x2 board the single wall and its twin always cut the board in two halves, one
    /// player in each, so the course's setup never ends there: size 2 is an error (positions of
    /// that size can still be built by hand). Larger boards restart rarely.
    pub fn random_setup(size: usize, rng: &mut GameRng) -> Result<Colosseum, String> {
        let m = size;
        if m == 2 {
            return Err("the course's random setup cannot start a 2x2 game (its wall and the twin always separate the players); use size 3 or more".into());
        }
        loop {
            let mut g = Colosseum::empty(m, (0, 0), (m - 1, m - 1))?;
            for _ in 0..g.max_step {
                let (r, c, side) = loop {
                    let (r, c, side) = (below(rng, m), below(rng, m), below(rng, 4) as u8);
                    if !g.has_wall(r, c, side) {
                        break (r, c, side);
                    }
                };
                g.set_wall(r, c, side);
                g.set_wall(m - 1 - r, m - 1 - c, (side + 2) % 4);
            }
            let (a, b) = loop {
                let a = (below(rng, m), below(rng, m));
                let b = (m - 1 - a.0, m - 1 - a.1);
                if a != b {
                    break (a, b);
                }
            };
            g.place_players(a, b)?;
            if g.result.is_none() {
                return Ok(g);
            }
        }
    }

    pub fn size(&self) -> usize {
        self.size as usize
    }

    pub fn max_step(&self) -> usize {
        self.max_step as usize
    }

    /// Changes K (positions from files may give their own).
    pub fn set_max_step(&mut self, k: usize) {
        self.max_step = k as u8;
    }

    pub fn set_to_move(&mut self, p: Player) {
        self.to_move = p;
    }

    /// The (r, c) of a player.
    pub fn position_of(&self, p: Player) -> (usize, usize) {
        rc(self.pos[p.index()])
    }

    pub fn has_wall(&self, r: usize, c: usize, side: u8) -> bool {
        !self.open[side as usize].contains(cell(r, c))
    }

    /// Puts a wall on a side of (r, c) and on the matching side of its neighbour.
    #[inline]
    pub fn set_wall(&mut self, r: usize, c: usize, side: u8) {
        let i = cell(r, c);
        self.open[side as usize].remove(i);
        let m = self.size as usize;
        let inside = match side {
            UP => r > 0,
            RIGHT => c + 1 < m,
            DOWN => r + 1 < m,
            _ => c > 0,
        };
        if inside {
            self.open[((side + 2) % 4) as usize].remove(neighbour(i, side));
        }
    }

    /// The cells `p` can walk to this turn: within K steps of its cell (its own included),
    /// never through a wall or the opponent.
    #[inline]
    pub fn reachable(&self, p: Player) -> Cells {
        let blocked = Cells::single(self.pos[p.other().index()]);
        cells::fill(
            &self.open,
            Cells::single(self.pos[p.index()]),
            blocked,
            self.max_step as u32,
            Cells::EMPTY,
        )
    }

    /// Number of legal moves of `p` (free sides of its reachable cells).
    pub fn move_count(&self, p: Player) -> u32 {
        let r = self.reachable(p);
        self.open.iter().map(|o| r.and(*o).len()).sum()
    }

    /// The region (cells joined through open sides) containing `from`.
    #[inline]
    pub fn region(&self, from: u8) -> Cells {
        cells::fill(
            &self.open,
            Cells::single(from),
            Cells::EMPTY,
            u32::MAX,
            Cells::EMPTY,
        )
    }

    /// Whether the cells on both sides of the wall on `side` of `u` are joined by a path of three
    /// steps round one end of it: sideways from u, across, and back to the other cell.
    #[inline]
    fn detour(&self, u: u8, side: u8) -> bool {
        let o = &self.open;
        [(side + 1) % 4, (side + 3) % 4].into_iter().any(|p| {
            o[p as usize].contains(u) && {
                let u2 = neighbour(u, p);
                o[side as usize].contains(u2)
                    && o[((p + 2) % 4) as usize].contains(neighbour(u2, side))
            }
        })
    }

    /// Sets `result` if the players are in different regions (a full fill).
    fn check_end_full(&mut self) {
        let region_a = self.region(self.pos[0]);
        if !region_a.contains(self.pos[1]) {
            self.finish(region_a);
        }
    }

    fn finish(&mut self, region_a: Cells) {
        let a = region_a.len() as i32;
        let b = self.region(self.pos[1]).len() as i32;
        let outcome = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::First),
            std::cmp::Ordering::Less => Outcome::Win(Player::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        };
        self.result = Some((outcome, [a, b]));
    }

    /// Whether `mv` is legal for the side to move (for checking input).
    pub fn is_legal(&self, mv: Move) -> bool {
        self.result.is_none()
            && (mv.cell() as usize % 16) < self.size as usize
            && self.reachable(self.to_move).contains(mv.cell())
            && self.open[mv.side() as usize].contains(mv.cell())
    }

    /// The move "(r,c,side)" of the notation, or None.
    pub fn parse_move(&self, text: &str) -> Option<Move> {
        let t = text.trim().strip_prefix('(')?.strip_suffix(')')?;
        let parts: Vec<&str> = t.split(',').map(str::trim).collect();
        if parts.len() != 3 {
            return None;
        }
        let (r, c) = (
            parts[0].parse::<usize>().ok()?,
            parts[1].parse::<usize>().ok()?,
        );
        let side = match parts[2] {
            "u" | "up" | "0" => UP,
            "r" | "right" | "1" => RIGHT,
            "d" | "down" | "2" => DOWN,
            "l" | "left" | "3" => LEFT,
            _ => return None,
        };
        (r < self.size() && c < self.size()).then(|| Move::new(cell(r, c), side))
    }
}

impl Game for Colosseum {
    type Move = Move;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.result.is_some() {
            return;
        }
        let reach = self.reachable(self.to_move);
        for i in reach.iter() {
            for side in 0..4u8 {
                if self.open[side as usize].contains(i) {
                    out.push(Move::new(i, side));
                }
            }
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?}");
        let me = self.to_move.index();
        let (u, side) = (mv.cell(), mv.side());
        self.pos[me] = u;
        let (r, c) = rc(u);
        self.set_wall(r, c, side);
        self.to_move = self.to_move.other();
        // The players shared a region before this wall; it can only split them if it
        // disconnects its two cells (a border side has no second cell and cannot be chosen).
        // Most walls leave a three-step detour round one of their ends; only without one does a
        // fill from u look for v, and when it fails it has measured u's whole region.
        if self.detour(u, side) {
            return;
        }
        let v = neighbour(u, side);
        let region_u = cells::fill(
            &self.open,
            Cells::single(u),
            Cells::EMPTY,
            u32::MAX,
            Cells::single(v),
        );
        if !region_u.contains(v) {
            let in_u = [
                region_u.contains(self.pos[0]),
                region_u.contains(self.pos[1]),
            ];
            if in_u[0] != in_u[1] {
                let region_a = if in_u[0] {
                    region_u
                } else {
                    self.region(self.pos[0])
                };
                self.finish(region_a);
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result.map(|(o, _)| o)
    }

    /// Region sizes: at the end each player's own; before it, both the shared region's size.
    fn scores(&self) -> [i32; 2] {
        match self.result {
            Some((_, s)) => s,
            None => {
                let n = self.region(self.pos[0]).len() as i32;
                [n, n]
            }
        }
    }

    #[inline]
    fn random_move(&self, rng: &mut GameRng, _: &mut Vec<Move>) -> Option<Move> {
        if self.result.is_some() {
            return None;
        }
        // Uniform over (cell, free side) pairs without building the list.
        let reach = self.reachable(self.to_move);
        let counts = self.open.map(|o| reach.and(o).len());
        let total: u32 = counts.iter().sum();
        let mut k = below(rng, total as usize) as u32;
        for side in 0..4 {
            if k < counts[side] {
                return Some(Move::new(reach.and(self.open[side]).nth(k), side as u8));
            }
            k -= counts[side];
        }
        unreachable!("k < total")
    }

    /// Each move ends with `)`: "(2,3,u)(0,1,l)"; whitespace ignored.
    fn split_moves(line: &str) -> Vec<String> {
        let t: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        t.split_inclusive(')').map(str::to_string).collect()
    }

    fn move_name(&self, mv: Move) -> String {
        let (r, c) = rc(mv.cell());
        format!("({r},{c},{})", SIDE_NAMES[mv.side() as usize])
    }
}
