//! Freckers (COMP30024, Melbourne, 2025): bitboards, move generation with the referee's
//! lenient multi-jumps (or the strict rule), GROW, the 150-action limit, notation and perft.
//!
//! Rules as `shared/rules/freckers.md` states them from the rules text and the referee. Three
//! u64 bitboards, cell (r, c) = bit r * 8 + c: unoccupied lily pads, red frogs, blue frogs; water
//! is everything else. A move is a distinct (from, to) pair or GROW: steps go one cell in an
//! allowed direction onto a free pad; jumps go over an adjacent frog (either colour) to a
//! frog-free cell beyond, chained by breadth-first search over landings. The moving frog stays
//! on its cell while the chain is generated (the referee's view: its start counts as occupied,
//! so no chain lands back on it). Lenient (default): intermediate landings may be water, only the
//! final cell must be a pad. Strict: every landing must be a pad. Jump landings are at even
//! offsets from the start, so a jump never reaches a step's destination and (from, to) pairs
//! are distinct by construction once landings are deduplicated.

pub mod agents;
#[cfg(test)]
mod tests;
pub mod text;

use super::{Game, Outcome, Player};
use crate::rng::{GameRng, below};

/// An action: GROW, or a move from one cell to another (`from << 6 | to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action(pub u16);

pub const GROW: Action = Action(u16::MAX);

impl Action {
    pub fn mv(from: u8, to: u8) -> Action {
        Action((from as u16) << 6 | to as u16)
    }
    /// (from, to) of a move; None for GROW.
    pub fn cells(self) -> Option<(u8, u8)> {
        (self != GROW).then_some(((self.0 >> 6) as u8, (self.0 & 63) as u8))
    }
}

/// Actions in a game before it ends, both players counted.
pub const MAX_ACTIONS: u16 = 150;

/// (dr, dc) and name of the eight directions; each side may use five of them.
pub const DIRECTIONS: [(i8, i8, &str); 8] = [
    (-1, 0, "UP"),
    (-1, 1, "UP-RIGHT"),
    (0, 1, "RIGHT"),
    (1, 1, "DOWN-RIGHT"),
    (1, 0, "DOWN"),
    (1, -1, "DOWN-LEFT"),
    (0, -1, "LEFT"),
    (-1, -1, "UP-LEFT"),
];

/// Indices into DIRECTIONS a side may use: Red moves down, Blue up, both sideways.
pub fn allowed(p: Player) -> [usize; 5] {
    match p {
        Player::First => RED_DIRS,
        Player::Second => BLUE_DIRS,
    }
}

const RED_DIRS: [usize; 5] = [3, 4, 5, 2, 6];
const BLUE_DIRS: [usize; 5] = [0, 1, 7, 2, 6];

#[inline]
fn step(cell: u8, d: usize) -> Option<u8> {
    let (r, c) = ((cell / 8) as i8, (cell % 8) as i8);
    let (dr, dc, _) = DIRECTIONS[d];
    let (nr, nc) = (r + dr, c + dc);
    ((0..8).contains(&nr) && (0..8).contains(&nc)).then(|| (nr * 8 + nc) as u8)
}

const ROW0: u64 = 0xff;
const ROW7: u64 = 0xff << 56;

/// Cells whose neighbour in direction `d` is on the board, per direction.
const HAS_NEIGHBOUR: [u64; 8] = cells_with_a_cell_at(1);

/// Every cell of `bb` moved one step in direction `d` (cells that would leave the board drop):
/// mask them off, then rotate (nothing wraps round, since those bits are gone). Branch-free, so
/// as cheap for a direction known only at run time as for a constant one.
#[inline(always)]
fn shift(bb: u64, d: usize) -> u64 {
    let by = DIRECTIONS[d].0 as i32 * 8 + DIRECTIONS[d].1 as i32;
    (bb & HAS_NEIGHBOUR[d]).rotate_left(by.rem_euclid(64) as u32)
}

/// Cells whose cell two steps away in direction `d` is on the board, per direction.
const HAS_TWO: [u64; 8] = cells_with_a_cell_at(2);

/// Per direction, the cells whose cell `steps` steps away in that direction is on the board.
const fn cells_with_a_cell_at(steps: i8) -> [u64; 8] {
    let mut m = [0u64; 8];
    let mut d = 0;
    while d < 8 {
        let mut cell = 0;
        while cell < 64 {
            let (r, c) = (
                (cell / 8) as i8 + steps * DIRECTIONS[d].0,
                (cell % 8) as i8 + steps * DIRECTIONS[d].1,
            );
            if r >= 0 && r < 8 && c >= 0 && c < 8 {
                m[d] |= 1u64 << cell;
            }
            cell += 1;
        }
        d += 1;
    }
    m
}

/// Every cell of `bb` moved two steps in direction `d` (cells that would leave the board drop).
#[inline(always)]
fn shift2(bb: u64, d: usize) -> u64 {
    let by = 2 * (DIRECTIONS[d].0 as i32 * 8 + DIRECTIONS[d].1 as i32);
    (bb & HAS_TWO[d]).rotate_left(by.rem_euclid(64) as u32)
}

/// The 120 orders of five things, for drawing a random order of a side's directions in one draw.
const ORDERS_OF_FIVE: [[u8; 5]; 120] = {
    let mut out = [[0u8; 5]; 120];
    let mut k = 0;
    let mut code = 0;
    while code < 3125 {
        let digits = [
            (code / 625 % 5) as u8,
            (code / 125 % 5) as u8,
            (code / 25 % 5) as u8,
            (code / 5 % 5) as u8,
            (code % 5) as u8,
        ];
        let mut seen = 0u8;
        let mut i = 0;
        while i < 5 {
            seen |= 1 << digits[i];
            i += 1;
        }
        if seen == 0b11111 {
            out[k] = digits;
            k += 1;
        }
        code += 1;
    }
    out
};

/// The direction opposite `d`.
#[inline]
fn opposite(d: usize) -> usize {
    (d + 4) % 8
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Freckers {
    /// Unoccupied lily pads.
    pads: u64,
    /// Frogs by player (Red = First, Blue = Second).
    frogs: [u64; 2],
    to_move: Player,
    actions: u16,
    strict: bool,
}

impl Freckers {
    /// The start position; `strict` makes every landing of a multi-jump need a pad.
    pub fn new(strict: bool) -> Freckers {
        let red = 0b0111_1110u64;
        let blue = red << 56;
        let pads =
            (1u64 | 1 << 7 | 1 << 56 | 1 << 63) | (0b0111_1110u64 << 8) | (0b0111_1110u64 << 48);
        Freckers {
            pads,
            frogs: [red, blue],
            to_move: Player::First,
            actions: 0,
            strict,
        }
    }

    /// A position from its parts (for the text format); checks only that the sets are disjoint.
    pub fn from_parts(
        pads: u64,
        red: u64,
        blue: u64,
        to_move: Player,
        actions: u16,
        strict: bool,
    ) -> Result<Freckers, String> {
        if pads & (red | blue) != 0 || red & blue != 0 {
            return Err("a cell holds two things".into());
        }
        if red.count_ones() != 6 || blue.count_ones() != 6 {
            return Err(format!(
                "each side has 6 frogs (red {}, blue {})",
                red.count_ones(),
                blue.count_ones()
            ));
        }
        if actions > MAX_ACTIONS {
            return Err(format!(
                "at most {MAX_ACTIONS} actions are played, got {actions}"
            ));
        }
        Ok(Freckers {
            pads,
            frogs: [red, blue],
            to_move,
            actions,
            strict,
        })
    }

    pub fn pads(&self) -> u64 {
        self.pads
    }
    pub fn frogs(&self, p: Player) -> u64 {
        self.frogs[p.index()]
    }
    pub fn actions_played(&self) -> u16 {
        self.actions
    }
    pub fn strict(&self) -> bool {
        self.strict
    }

    fn occupied(&self) -> u64 {
        self.frogs[0] | self.frogs[1]
    }

    /// Per allowed direction (in `dirs` order), the cells with a frog just before them: where a
    /// jump in that direction lands, from two cells back. One set per position, shared by every
    /// frog's chains.
    #[inline(always)]
    fn jump_over(&self, dirs: &[usize; 5]) -> [u64; 5] {
        let occ = self.occupied();
        let mut over = [0u64; 5];
        for (o, &d) in over.iter_mut().zip(dirs) {
            *o = shift(occ, d);
        }
        over
    }

    /// The frogs of `frogs` that can start a jump chain: a frog next to them in an allowed
    /// direction and a frog-free cell beyond (`over` from `jump_over`).
    #[inline(always)]
    fn jumpers(&self, frogs: u64, dirs: &[usize; 5], over: &[u64; 5]) -> u64 {
        let free = !self.occupied();
        let mut from = 0u64;
        for (i, &d) in dirs.iter().enumerate() {
            from |= shift2(over[i] & free, opposite(d));
        }
        from & frogs
    }

    /// The jump landings of a frog on `from`, breadth first over whole sets of landings: each
    /// round jumps every frontier cell in every allowed direction at once (two steps on, where
    /// `over` says a frog is jumped). The same set as `jump_parents`, which also keeps parents.
    #[inline(always)]
    fn jump_set(&self, from: u8, dirs: &[usize; 5], over: &[u64; 5]) -> u64 {
        let mut allowed = !self.occupied();
        if self.strict {
            allowed &= self.pads;
        }
        let mut seen = 1u64 << from;
        let mut frontier = seen;
        loop {
            let mut next = 0u64;
            for (i, &d) in dirs.iter().enumerate() {
                next |= shift2(frontier, d) & over[i];
            }
            next &= allowed & !seen;
            if next == 0 {
                return seen & !(1u64 << from);
            }
            seen |= next;
            frontier = next;
        }
    }

    /// The jump landings of a frog on `from` (bitboard), by a cell-by-cell breadth-first search
    /// that records, for each landing, the cell it was reached from and the direction (for the
    /// notation; move generation uses the set-wise `jump_set`).
    fn jump_parents(&self, from: u8, dirs: &[usize; 5], parent: &mut [(u8, u8); 64]) -> u64 {
        let occ = self.occupied();
        let mut seen = 1u64 << from;
        let mut queue = [0u8; 64];
        let (mut head, mut tail) = (0, 1);
        queue[0] = from;
        let mut landings = 0u64;
        while head < tail {
            let x = queue[head];
            head += 1;
            for &d in dirs {
                let Some(over) = step(x, d) else { continue };
                if occ >> over & 1 == 0 {
                    continue;
                }
                let Some(to) = step(over, d) else { continue };
                let bit = 1u64 << to;
                if occ & bit != 0 || seen & bit != 0 {
                    continue;
                }
                if self.strict && self.pads & bit == 0 {
                    continue;
                }
                seen |= bit;
                landings |= bit;
                parent[to as usize] = (x, d as u8);
                queue[tail] = to;
                tail += 1;
            }
        }
        landings
    }

    /// The directions of the move `from -> to` as the notation lists them (the shortest chain).
    pub fn path(&self, from: u8, to: u8) -> Option<Vec<usize>> {
        let dirs = allowed(self.to_move);
        for &d in &dirs {
            if step(from, d) == Some(to) && self.occupied() >> to & 1 == 0 {
                return Some(vec![d]);
            }
        }
        let mut parent = [(0u8, 0u8); 64];
        let landings = self.jump_parents(from, &dirs, &mut parent);
        if landings >> to & 1 == 0 {
            return None;
        }
        let mut path = Vec::new();
        let mut at = to;
        while at != from {
            let (prev, d) = parent[at as usize];
            path.push(d as usize);
            at = prev;
        }
        path.reverse();
        Some(path)
    }

    /// The actions `p` would have here if it were to move (GROW included), game end ignored.
    pub fn actions_of(&self, me: Player, out: &mut Vec<Action>) {
        let dirs = allowed(me);
        let over = self.jump_over(&dirs);
        let mut frogs = self.frogs[me.index()];
        let jumpers = self.jumpers(frogs, &dirs, &over);
        while frogs != 0 {
            let from = frogs.trailing_zeros() as u8;
            frogs &= frogs - 1;
            for &d in &dirs {
                if let Some(to) = step(from, d)
                    && self.pads >> to & 1 == 1
                {
                    out.push(Action::mv(from, to));
                }
            }
            let mut jumps = if jumpers >> from & 1 == 1 {
                self.jump_set(from, &dirs, &over) & self.pads
            } else {
                0
            };
            while jumps != 0 {
                let to = jumps.trailing_zeros() as u8;
                jumps &= jumps - 1;
                out.push(Action::mv(from, to));
            }
        }
        out.push(GROW);
    }

    /// A uniformly random action of the side to move (the game is not over), `dirs` being its
    /// directions; see `random_move`.
    #[inline(always)]
    fn random_action(&self, dirs: &[usize; 5], rng: &mut GameRng) -> Action {
        let frogs = self.frogs[self.to_move.index()];
        let mut steps = [0u64; 5];
        let mut total = 1u32; // GROW
        for (i, &d) in dirs.iter().enumerate() {
            steps[i] = shift(frogs, d) & self.pads;
            total += steps[i].count_ones();
        }
        let n_steps = total - 1;
        let over = self.jump_over(dirs);
        let mut jumpers = self.jumpers(frogs, dirs, &over);
        let mut jumps = [(0u8, 0u64); 6];
        let mut n_jumpers = 0;
        while jumpers != 0 {
            let from = jumpers.trailing_zeros() as u8;
            jumpers &= jumpers - 1;
            let landings = self.jump_set(from, dirs, &over) & self.pads;
            if landings != 0 {
                jumps[n_jumpers] = (from, landings);
                n_jumpers += 1;
                total += landings.count_ones();
            }
        }
        let mut k = below(rng, total as usize) as u32;
        if k < n_steps {
            for (i, &d) in dirs.iter().enumerate() {
                let c = steps[i].count_ones();
                if k < c {
                    let to = nth_bit(steps[i], k);
                    let from = shift(1u64 << to, opposite(d)).trailing_zeros() as u8;
                    return Action::mv(from, to);
                }
                k -= c;
            }
        }
        k -= n_steps;
        for &(from, landings) in &jumps[..n_jumpers] {
            let c = landings.count_ones();
            if k < c {
                return Action::mv(from, nth_bit(landings, k));
            }
            k -= c;
        }
        GROW
    }

    /// The report's lazy random action (its section 4.1.2), as we read it: GROW with the
    /// probability 1 / (1 + the number of step actions) (a cheap stand-in for GROW's share of
    /// the legal actions; jumps are not counted); otherwise the directions are tried in a random
    /// order and the first that gives some frog a move is used: a random such frog, which steps
    /// if it can and otherwise takes a uniformly random landing of its jump chains. Only the
    /// jumping frog's chains are searched. Every legal action has a positive probability, but
    /// the distribution is not uniform: frogs and directions with few actions are favoured,
    /// long jump chains disfavoured (the bias is measured in the tests and in `LazyRandom`'s docs).
    #[inline(always)]
    fn lazy_action(&self, dirs: &[usize; 5], rng: &mut GameRng) -> Action {
        let frogs = self.frogs[self.to_move.index()];
        let occ = self.occupied();
        let mut n_steps = 0;
        let mut targets = [0u64; 5];
        for (i, &d) in dirs.iter().enumerate() {
            targets[i] = shift(frogs, d) & self.pads;
            n_steps += targets[i].count_ones();
        }
        if below(rng, n_steps as usize + 1) == 0 {
            return GROW;
        }
        let over = self.jump_over(dirs);
        // A random order of the five directions.
        let order = ORDERS_OF_FIVE[below(rng, 120)];
        for i in order {
            let d = dirs[i as usize];
            let back = opposite(d);
            let steppers = shift(targets[i as usize], back);
            // Frogs with a frog next to them in direction d and a frog-free cell beyond.
            let jumpers = frogs & shift2(over[i as usize] & !occ, back) & !steppers;
            let movers = steppers | jumpers;
            if movers == 0 {
                continue;
            }
            let from = nth_bit(movers, below(rng, movers.count_ones() as usize) as u32);
            if steppers >> from & 1 == 1 {
                return Action::mv(from, shift(1u64 << from, d).trailing_zeros() as u8);
            }
            let landings = self.jump_set(from, dirs, &over) & self.pads;
            if landings != 0 {
                return Action::mv(
                    from,
                    nth_bit(landings, below(rng, landings.count_ones() as usize) as u32),
                );
            }
        }
        GROW
    }

    /// A random legal action by the report's lazy generator (see `lazy_action`; not uniform),
    /// or None when the game is over.
    #[inline]
    pub fn lazy_random_move(&self, rng: &mut GameRng) -> Option<Action> {
        if self.outcome().is_some() {
            return None;
        }
        Some(match self.to_move {
            Player::First => self.lazy_action(&RED_DIRS, rng),
            Player::Second => self.lazy_action(&BLUE_DIRS, rng),
        })
    }

    /// Parses "GROW" or "MOVE (r, c) [DIR, ...]" for the side to move.
    pub fn parse_action(&self, text: &str) -> Option<Action> {
        let t = text.trim();
        if t == "GROW" {
            return Some(GROW);
        }
        let rest = t.strip_prefix("MOVE")?.trim();
        let (cell, dirs) = rest.split_once('[')?;
        let cell = cell.trim().strip_prefix('(')?.strip_suffix(')')?;
        let (r, c) = cell.split_once(',')?;
        let (r, c) = (r.trim().parse::<u8>().ok()?, c.trim().parse::<u8>().ok()?);
        if r > 7 || c > 7 {
            return None;
        }
        let from = r * 8 + c;
        let mut at = from;
        let occ = self.occupied();
        let names: Vec<&str> = dirs.strip_suffix(']')?.split(',').map(str::trim).collect();
        let single_step = names.len() == 1;
        for name in names {
            let d = DIRECTIONS.iter().position(|x| x.2 == name)?;
            let next = step(at, d)?;
            at = if single_step && occ >> next & 1 == 0 {
                next
            } else {
                step(next, d)?
            };
        }
        let a = Action::mv(from, at);
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        legal.contains(&a).then_some(a)
    }
}

impl Game for Freckers {
    type Move = Action;

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Action>) {
        if self.outcome().is_some() {
            return;
        }
        self.actions_of(self.to_move, out);
    }

    #[inline]
    fn play(&mut self, a: Action) {
        let me = self.to_move.index();
        match a.cells() {
            None => {
                let f = self.frogs[me];
                // The 8 neighbours of every frog, without wrapping round the board's sides.
                const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
                const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
                let horiz = f | (f << 1 & NOT_A) | (f >> 1 & NOT_H);
                let around = horiz | horiz << 8 | horiz >> 8;
                self.pads |= around & !self.occupied();
            }
            Some((from, to)) => {
                debug_assert!(self.pads >> to & 1 == 1, "the destination is a free pad");
                self.frogs[me] = self.frogs[me] & !(1u64 << from) | 1u64 << to;
                self.pads &= !(1u64 << to);
            }
        }
        self.actions += 1;
        self.to_move = self.to_move.other();
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        // Six frogs home = no frog outside the goal row (no popcount on the hot path).
        if self.actions < MAX_ACTIONS && self.frogs[0] & !ROW7 != 0 && self.frogs[1] & !ROW0 != 0 {
            return None;
        }
        let [red, blue] = self.scores();
        Some(match red.cmp(&blue) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::First),
            std::cmp::Ordering::Less => Outcome::Win(Player::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    /// Frogs in the goal row: Red's in row 7, Blue's in row 0.
    #[inline]
    fn scores(&self) -> [i32; 2] {
        [
            (self.frogs[0] & ROW7).count_ones() as i32,
            (self.frogs[1] & ROW0).count_ones() as i32,
        ]
    }

    /// Uniform over the legal actions without building their list: steps are counted per
    /// direction with whole-board shifts, jump chains are searched only for frogs next to a frog
    /// in an allowed direction, and the k-th action is read off those sets. Exactly the
    /// distribution of drawing from `legal_moves` (tested by chi-square).
    #[inline]
    fn random_move(&self, rng: &mut GameRng, _: &mut Vec<Action>) -> Option<Action> {
        if self.outcome().is_some() {
            return None;
        }
        // One copy per side, so the directions are constants in each.
        Some(match self.to_move {
            Player::First => self.random_action(&RED_DIRS, rng),
            Player::Second => self.random_action(&BLUE_DIRS, rng),
        })
    }

    /// Each move starts with `MOVE` or `GROW`: "MOVE (0, 1) [Down]GROW".
    fn split_moves(line: &str) -> Vec<String> {
        let starts: Vec<usize> = line
            .match_indices("MOVE")
            .chain(line.match_indices("GROW"))
            .map(|(i, _)| i)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut out: Vec<String> = Vec::new();
        if let Some(&first) = starts.first()
            && !line[..first].trim().is_empty()
        {
            out.push(line[..first].trim().to_string());
        }
        for (k, &s) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(line.len());
            out.push(line[s..end].trim().to_string());
        }
        if starts.is_empty() && !line.trim().is_empty() {
            out.push(line.trim().to_string());
        }
        out
    }

    fn move_name(&self, a: Action) -> String {
        match a.cells() {
            None => "GROW".into(),
            Some((from, to)) => {
                let names: Vec<&str> = self
                    .path(from, to)
                    .unwrap_or_default()
                    .iter()
                    .map(|&d| DIRECTIONS[d].2)
                    .collect();
                format!("MOVE ({}, {}) [{}]", from / 8, from % 8, names.join(", "))
            }
        }
    }
}

/// The index of the `k`-th set bit of `bb` (k < popcount).
#[inline]
fn nth_bit(mut bb: u64, k: u32) -> u8 {
    for _ in 0..k {
        bb &= bb - 1;
    }
    bb.trailing_zeros() as u8
}

/// Leaves of the game tree to depth `depth` (an action = a distinct (from, to) pair or GROW).
pub fn perft(pos: &Freckers, depth: u32) -> u64 {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if depth <= 1 || moves.is_empty() {
        return if depth == 0 || moves.is_empty() {
            1
        } else {
            moves.len() as u64
        };
    }
    moves
        .iter()
        .map(|&m| {
            let mut next = *pos;
            next.play(m);
            perft(&next, depth - 1)
        })
        .sum()
}

/// A playout of uniformly random actions with the actions listed cell by cell (steps by
/// direction, then by destination; jump chains by the cell-by-cell search of the notation,
/// frog by frog; GROW last: the order `random_move` reads its k-th action in), drawn with the
/// same one number below their count. The reference the tests compare the set-wise engine's
/// playouts with, and the plain engine the Freckers bench times them against. Returns the final
/// position.
pub fn playout_reference(start: &Freckers, rng: &mut GameRng) -> Freckers {
    let mut g = *start;
    let mut actions = Vec::new();
    while g.outcome().is_none() {
        let dirs = allowed(g.to_move);
        let frogs = g.frogs[g.to_move.index()];
        actions.clear();
        for &d in &dirs {
            for to in 0..64u8 {
                if g.pads >> to & 1 == 1
                    && let Some(from) = step(to, opposite(d))
                    && frogs >> from & 1 == 1
                {
                    actions.push(Action::mv(from, to));
                }
            }
        }
        for from in (0..64u8).filter(|&c| frogs >> c & 1 == 1) {
            let landings = g.jump_parents(from, &dirs, &mut [(0, 0); 64]) & g.pads;
            actions.extend(
                (0..64u8)
                    .filter(|&to| landings >> to & 1 == 1)
                    .map(|to| Action::mv(from, to)),
            );
        }
        actions.push(GROW);
        g.play(actions[below(rng, actions.len())]);
    }
    g
}

/// The variants a Freckers experiment can name: `standard` (the referee's lenient multi-jumps)
/// or `strict` (every landing a pad).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FreckersStage {
    pub id: String,
    pub strict: bool,
}

impl FreckersStage {
    pub fn parse(id: &str) -> Result<FreckersStage, String> {
        match id {
            "standard" => Ok(FreckersStage {
                id: id.into(),
                strict: false,
            }),
            "strict" => Ok(FreckersStage {
                id: id.into(),
                strict: true,
            }),
            _ => Err(format!(
                "unknown Freckers stage '{id}' (expected standard or strict)"
            )),
        }
    }
}
