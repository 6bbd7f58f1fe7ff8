//! The closed region R of a life-and-death problem and positions inside it, on u64 bitsets.
//!
//! R is at most 64 points of a Go board; point i of R is bit i. Everything outside R is either
//! the attacker's wall (stones that can never be captured: they touch the outside) or off the
//! board. So an attacker chain inside R that touches the wall is part of the wall: it is never
//! captured and never suicidal. Per point the region keeps its neighbour and diagonal masks
//! within R, whether it touches the wall, and its place on the board (edge distance, corner,
//! the "1-2 point"), which the heuristic reads.
//!
//! A `Position` is the stones of both sides, the side to move, the passes in a row and each
//! side's budget of external ko threats; its Zobrist hash covers stones and side to move (the
//! solver adds budgets and passes to its table key).

use crate::rng::{Rng, rng_from_seed};

/// The two roles of a life-and-death problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)] // Attacker is 0: the solver's zeroed tables hold Option<Side> (`solver::ZeroValid`).
pub enum Side {
    /// Wants to capture the target stones (owns the wall).
    Attacker,
    /// Wants the target stones to live.
    Defender,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Attacker => Side::Defender,
            Side::Defender => Side::Attacker,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::Attacker => "attacker",
            Side::Defender => "defender",
        }
    }
}

/// The points of a bitset, lowest first.
#[derive(Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

#[inline]
pub fn bit(i: usize) -> u64 {
    1u64 << i
}

/// A board point: row from the top, column from the left, both 0-based.
pub type Coord = (u8, u8);

/// The region R of a problem: geometry only, no stones.
#[derive(Clone, Debug)]
pub struct Region {
    /// Board size (the board is size x size).
    pub size: u8,
    /// Board coordinates of R's points, in index order (row-major).
    pub coords: Vec<Coord>,
    /// All points of R.
    pub all: u64,
    /// Neighbours within R, per point.
    pub nbr: Vec<u64>,
    /// Diagonal neighbours within R, per point.
    pub diag: Vec<u64>,
    /// Points of R next to a wall stone.
    pub wall_adj: u64,
    /// Wall stones next to each point (0..=4), for the eye tests.
    pub wall_count: Vec<u8>,
    /// Neighbours off the board, per point (0 inside, 1 on the edge, 2 in the corner).
    pub off_board: Vec<u8>,
    /// Distance of each point to the nearest board edge (0 = first line).
    pub edge_distance: Vec<u8>,
    /// Board corner points of R.
    pub corners: u64,
    /// The "1-2 points" of R: first line, next to a board corner.
    pub one_two: u64,
    /// The wall stones (board coordinates), for drawing and export.
    pub wall: Vec<Coord>,
    zobrist: Vec<[u64; 2]>,
}

impl Region {
    /// A region from its points (any order; stored row-major) and its wall stones. The caller
    /// checks closure (every neighbour of R on the board is in R or the wall).
    pub fn new(size: u8, mut points: Vec<Coord>, mut wall: Vec<Coord>) -> Region {
        points.sort();
        points.dedup();
        wall.sort();
        wall.dedup();
        assert!(points.len() <= 64, "a region has at most 64 points");
        let n = points.len();
        let index = |c: (i32, i32)| -> Option<usize> {
            if c.0 < 0 || c.1 < 0 {
                return None;
            }
            points.binary_search(&(c.0 as u8, c.1 as u8)).ok()
        };
        let on_board =
            |c: (i32, i32)| c.0 >= 0 && c.1 >= 0 && c.0 < size as i32 && c.1 < size as i32;
        let is_wall =
            |c: (i32, i32)| on_board(c) && wall.binary_search(&(c.0 as u8, c.1 as u8)).is_ok();
        let (mut nbr, mut diag) = (vec![0u64; n], vec![0u64; n]);
        let (mut wall_count, mut off_board, mut edge_distance) =
            (vec![0u8; n], vec![0u8; n], vec![0u8; n]);
        let (mut wall_adj, mut corners, mut one_two) = (0u64, 0u64, 0u64);
        let last = size as i32 - 1;
        for (i, &(r, c)) in points.iter().enumerate() {
            let (r, c) = (r as i32, c as i32);
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let q = (r + dr, c + dc);
                if let Some(j) = index(q) {
                    nbr[i] |= bit(j);
                } else if is_wall(q) {
                    wall_count[i] += 1;
                    wall_adj |= bit(i);
                } else if !on_board(q) {
                    off_board[i] += 1;
                }
            }
            for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                if let Some(j) = index((r + dr, c + dc)) {
                    diag[i] |= bit(j);
                }
            }
            edge_distance[i] = r.min(c).min(last - r).min(last - c) as u8;
            let (er, ec) = (r.min(last - r), c.min(last - c));
            if er == 0 && ec == 0 {
                corners |= bit(i);
            }
            if (er, ec) == (0, 1) || (er, ec) == (1, 0) {
                one_two |= bit(i);
            }
        }
        // Fixed keys: the same region gives the same hashes on every machine.
        let mut rng = rng_from_seed(0x7u64 << 56 | n as u64);
        let zobrist = (0..n).map(|_| [rng.next_u64(), rng.next_u64()]).collect();
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        Region {
            size,
            coords: points,
            all,
            nbr,
            diag,
            wall_adj,
            wall_count,
            off_board,
            edge_distance,
            corners,
            one_two,
            wall,
            zobrist,
        }
    }

    pub fn len(&self) -> usize {
        self.coords.len()
    }

    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// The index of a board point in R.
    pub fn index_of(&self, c: Coord) -> Option<usize> {
        self.coords.binary_search(&c).ok()
    }

    /// The neighbours within R of a set of points.
    #[inline]
    pub fn dilate(&self, set: u64) -> u64 {
        let mut out = 0;
        for i in Bits(set) {
            out |= self.nbr[i];
        }
        out
    }

    /// The chain of `stones` through point `i`, and every point of R next to it.
    #[inline]
    pub fn chain(&self, i: usize, stones: u64) -> (u64, u64) {
        let mut chain = bit(i);
        let mut frontier = chain;
        let mut adj = 0u64;
        while frontier != 0 {
            let mut next = 0u64;
            for b in Bits(frontier) {
                next |= self.nbr[b];
            }
            adj |= next;
            next &= stones & !chain;
            chain |= next;
            frontier = next;
        }
        (chain, adj & !chain)
    }

    /// The connected component of `set` through point `i`.
    #[inline]
    pub fn component(&self, i: usize, set: u64) -> u64 {
        self.chain(i, set).0
    }

    /// The connected parts of `set`, lowest point first: each part and the points next to it
    /// (chains of stones, the regions Benson reads...).
    #[inline]
    pub fn parts(&self, set: u64) -> Parts<'_> {
        Parts {
            region: self,
            set,
            rest: set,
        }
    }

    /// The Zobrist key of a stone of `side` on point `i`.
    #[inline]
    pub fn key(&self, i: usize, side: Side) -> u64 {
        self.zobrist[i][side.index()]
    }

    /// Go notation of a point: column letter (A-T without I), row number from the bottom.
    pub fn point_name(&self, i: usize) -> String {
        coord_name(self.size, self.coords[i])
    }
}

/// The iterator of `Region::parts`.
pub struct Parts<'a> {
    region: &'a Region,
    set: u64,
    rest: u64,
}

impl Iterator for Parts<'_> {
    /// (the part, the points of R next to it)
    type Item = (u64, u64);
    #[inline]
    fn next(&mut self) -> Option<(u64, u64)> {
        if self.rest == 0 {
            return None;
        }
        let (part, adj) = self
            .region
            .chain(self.rest.trailing_zeros() as usize, self.set);
        self.rest &= !part;
        Some((part, adj))
    }
}

/// Go notation of a board point: column letter (A-T without I), row number from the bottom.
pub fn coord_name(size: u8, (r, c): Coord) -> String {
    let letters = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    format!("{}{}", letters[c as usize] as char, size - r)
}

/// Parses Go notation (`C17`) on a board of `size`.
pub fn parse_coord(size: u8, s: &str) -> Option<Coord> {
    let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let mut chars = s.chars();
    let col = letters.find(chars.next()?.to_ascii_uppercase())? as u8;
    let row: u8 = chars.as_str().parse().ok()?;
    if col >= size || row == 0 || row > size {
        return None;
    }
    Some((size - row, col))
}

/// A move inside the region: a point index, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(u8),
    Pass,
}

/// Stones, side to move, passes in a row, and each side's external ko threats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub stones: [u64; 2],
    pub to_move: Side,
    pub passes: u8,
    /// External ko threats left, per side (attacker, defender).
    pub threats: [u8; 2],
    /// The simple ko point (the stone just captured, if the capture can be retaken at once),
    /// or `NO_KO`. The solver's table key includes it, so a position where the retake is
    /// banned is not confused with the same stones without the ban.
    pub ko: u8,
    /// The judging phase: both sides passed in a row, and the solver now plays on to judge the
    /// position (see the solver's module docs). Part of the solver's table key, not of `hash`.
    pub judging: bool,
    /// Zobrist hash of stones and side to move.
    pub hash: u64,
}

pub const NO_KO: u8 = 255;

const SIDE_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// What playing a point did.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlayInfo {
    /// Opponent stones removed.
    pub captured: u64,
    /// The mover's chain through the new stone, after captures.
    pub chain: u64,
    /// Its liberties.
    pub liberties: u64,
    /// The chain is attacker stones touching the wall (uncapturable).
    pub safe: bool,
}

impl Position {
    pub fn new(region: &Region, attacker: u64, defender: u64, to_move: Side) -> Position {
        let mut hash = if to_move == Side::Defender {
            SIDE_KEY
        } else {
            0
        };
        for i in Bits(attacker) {
            hash ^= region.key(i, Side::Attacker);
        }
        for i in Bits(defender) {
            hash ^= region.key(i, Side::Defender);
        }
        Position {
            stones: [attacker, defender],
            to_move,
            passes: 0,
            threats: [0, 0],
            ko: NO_KO,
            judging: false,
            hash,
        }
    }

    #[inline]
    pub fn of(&self, side: Side) -> u64 {
        self.stones[side.index()]
    }

    #[inline]
    pub fn empty(&self, region: &Region) -> u64 {
        region.all & !(self.stones[0] | self.stones[1])
    }

    /// Whether a chain of `side` is uncapturable (attacker stones joined to the wall).
    #[inline]
    pub fn is_safe(region: &Region, side: Side, chain: u64) -> bool {
        side == Side::Attacker && chain & region.wall_adj != 0
    }

    /// Plays a stone for the side to move on empty point `i`: captures, then the suicide test.
    /// Returns the new position (other side to move, passes reset) and what happened, or `None`
    /// when the move is suicide. Ko bans are the caller's (the solver keeps the path).
    #[inline]
    pub fn play(&self, region: &Region, i: usize) -> Option<(Position, PlayInfo)> {
        debug_assert!(self.empty(region) & bit(i) != 0);
        let me = self.to_move;
        let them = me.other();
        let own = self.of(me) | bit(i);
        let mut opp = self.of(them);
        let mut hash = self.hash ^ region.key(i, me) ^ SIDE_KEY;
        let mut captured = 0u64;
        let mut seen = 0u64;
        for q in Bits(region.nbr[i] & opp) {
            if seen & bit(q) != 0 {
                continue;
            }
            let (chain, adj) = region.chain(q, opp);
            seen |= chain;
            if Position::is_safe(region, them, chain) {
                continue;
            }
            if adj & !(own | opp) & region.all == 0 {
                captured |= chain;
            }
        }
        if captured != 0 {
            opp &= !captured;
            for q in Bits(captured) {
                hash ^= region.key(q, them);
            }
        }
        let (chain, adj) = region.chain(i, own);
        let liberties = adj & region.all & !(own | opp);
        let safe = Position::is_safe(region, me, chain);
        if liberties == 0 && !safe {
            return None;
        }
        let mut stones = [0u64; 2];
        stones[me.index()] = own;
        stones[them.index()] = opp;
        let ko = if captured.count_ones() == 1 && chain == bit(i) && liberties.count_ones() == 1 {
            captured.trailing_zeros() as u8
        } else {
            NO_KO
        };
        Some((
            Position {
                stones,
                to_move: them,
                passes: 0,
                threats: self.threats,
                ko,
                judging: self.judging,
                hash,
            },
            PlayInfo {
                captured,
                chain,
                liberties,
                safe,
            },
        ))
    }

    /// The position after a pass.
    #[inline]
    pub fn pass(&self) -> Position {
        Position {
            to_move: self.to_move.other(),
            passes: self.passes + 1,
            ko: NO_KO,
            hash: self.hash ^ SIDE_KEY,
            ..*self
        }
    }

    /// Every chain of `side`: (stones, liberties).
    #[inline]
    pub fn chains<'a>(
        &self,
        region: &'a Region,
        side: Side,
    ) -> impl Iterator<Item = (u64, u64)> + 'a {
        let empty = self.empty(region);
        region
            .parts(self.of(side))
            .map(move |(chain, adj)| (chain, adj & empty))
    }

    /// A chain with no liberty that could be captured (a position no game reaches), if any:
    /// its side and stones.
    pub fn chain_without_liberty(&self, region: &Region) -> Option<(Side, u64)> {
        [Side::Attacker, Side::Defender]
            .into_iter()
            .find_map(|side| {
                self.chains(region, side)
                    .find(|&(chain, libs)| libs == 0 && !Position::is_safe(region, side, chain))
                    .map(|(chain, _)| (side, chain))
            })
    }
}
