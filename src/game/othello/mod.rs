//! Othello on the arena's stages: bitboards, passes and game end as the arena plays them,
//! transcript notation and perft.
//!
//! A side with no legal move has exactly one: `PASS` (the arena passes automatically; making
//! the pass a move keeps `Game` simple and lets perft count it as a ply or not). The game ends
//! when neither side can move; more discs wins. The legal-move mask of the side to move is
//! computed once, when the position is reached, and cached.

mod bits;
pub mod builtin;
pub mod gtp;
pub mod openings;
pub mod stage;
pub mod text;

use super::{CellGame, Game, Outcome, Player};
use crate::rng::{GameRng, below};
pub use stage::{BUILTIN_STAGES, Rules, StageDef, StageRef, builtin_stage};

/// A move: a cell index `r * 8 + c`, or `PASS`.
pub type Move = u8;
pub const PASS: Move = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Othello {
    /// Discs by player index (0 = black, who moves first).
    discs: [u64; 2],
    side: Player,
    /// Legal moves of `side`; 0 means pass (or game over when `over`).
    moves: u64,
    over: bool,
    rules: Rules,
}

impl Othello {
    /// The start position of a stage.
    pub fn new(stage: &StageDef) -> Result<Othello, String> {
        Othello::position(stage, Player::First)
    }

    /// The position of a stage's discs with `to_move` to play (it may have to pass, or the
    /// game may be over).
    pub fn position(stage: &StageDef, to_move: Player) -> Result<Othello, String> {
        let (rules, black, white) = stage.compile()?;
        let mut pos = Othello {
            discs: [black, white],
            side: to_move,
            moves: 0,
            over: false,
            rules,
        };
        pos.enter(to_move);
        Ok(pos)
    }

    /// The start position of a built-in stage; panics on an unknown id (for tests and benches).
    pub fn from_stage_id(id: &str) -> Othello {
        Othello::new(&builtin_stage(id).unwrap_or_else(|| panic!("no stage {id}")))
            .expect("built-in stages are valid")
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn discs(&self, p: Player) -> u64 {
        self.discs[p.index()]
    }

    /// The legal move mask of the side to move (0 when it must pass or the game is over).
    pub fn move_mask(&self) -> u64 {
        self.moves
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    #[inline]
    fn mask_for(&self, p: Player) -> u64 {
        let own = self.discs[p.index()];
        let opp = self.discs[p.other().index()];
        let empty = self.rules.playable & !(own | opp);
        if self.rules.ignore_occlusion {
            bits::moves_transparent(own, opp, empty, self.rules.blocked)
        } else {
            bits::moves(own, opp, empty)
        }
    }

    /// Makes `p` the side to move; if it cannot move the game is over when the other side
    /// cannot move either, and otherwise `p` must pass.
    #[inline]
    fn enter(&mut self, p: Player) {
        self.side = p;
        self.moves = self.mask_for(p);
        if self.moves == 0 && self.mask_for(p.other()) == 0 {
            self.over = true;
        }
    }

    /// The discs a move would flip (0 for a pass).
    #[inline]
    pub fn flips(&self, mv: Move) -> u64 {
        if mv == PASS {
            return 0;
        }
        let (own, opp) = (
            self.discs[self.side.index()],
            self.discs[self.side.other().index()],
        );
        if self.rules.ignore_occlusion {
            bits::flips_transparent(1u64 << mv, own, opp, self.rules.blocked)
        } else {
            bits::flips(1u64 << mv, own, opp)
        }
    }

    /// Plays `mv`, which must be legal.
    #[inline]
    pub fn play_move(&mut self, mv: Move) {
        debug_assert!(!self.over, "move after game end");
        let me = self.side;
        if mv == PASS {
            debug_assert!(self.moves == 0, "pass with legal moves");
            self.enter(me.other());
            return;
        }
        debug_assert!(self.moves & (1u64 << mv) != 0, "illegal move {mv}");
        let f = self.flips(mv);
        self.discs[me.index()] |= f | (1u64 << mv);
        self.discs[me.other().index()] &= !f;
        let next = if self.rules.fewer_pieces_continue {
            let mine = self.discs[me.index()].count_ones();
            let theirs = self.discs[me.other().index()].count_ones();
            if mine < theirs { me } else { me.other() }
        } else {
            me.other()
        };
        self.enter(next);
    }

    /// Disc counts (black, white).
    pub fn counts(&self) -> (u32, u32) {
        (self.discs[0].count_ones(), self.discs[1].count_ones())
    }

    /// Parses a move in the usual notation ("d3", "pass") and checks that it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        let t = text.trim().to_ascii_lowercase();
        let mv = if t == "pass" || t == "--" {
            PASS
        } else {
            let b = t.as_bytes();
            if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
                return Err(format!(
                    "'{text}' is not a move (expected a column a-h and a row 1-8, e.g. d3, or 'pass')"
                ));
            }
            (b[1] - b'1') * 8 + (b[0] - b'a')
        };
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if legal.contains(&mv) {
            Ok(mv)
        } else {
            Err(format!(
                "'{text}' is not legal here (legal: {})",
                self.moves_text(&legal)
            ))
        }
    }

    fn moves_text(&self, moves: &[Move]) -> String {
        moves
            .iter()
            .map(|&m| self.move_name(m))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Plays a transcript of concatenated moves ("f5d6c3"); passes may be written as "pass" or
    /// left out (a side that must pass passes automatically, as in the arena).
    pub fn play_transcript(&mut self, transcript: &str) -> Result<(), String> {
        let played = crate::game::play_line(self, &Othello::split_moves(transcript))
            .map_err(|e| format!("move {}: {}", e.index, e.what()))?;
        *self = played.position;
        Ok(())
    }

    /// A position from its board text (as `board_text` writes it: `X` black, `O` white, `#`
    /// blocked, `.` empty; one row per line, as many rows as columns) with `to_move` to play.
    /// If that side cannot move it must pass; the position may also be over.
    pub fn from_text(board: &str, to_move: Player) -> Result<Othello, String> {
        let turn = if to_move == Player::First {
            "black"
        } else {
            "white"
        };
        text::parse(&format!("turn {turn}\n{board}")).map_err(|e| e.message)
    }

    /// The board as text, row 0 on top: `X` black, `O` white, `#` blocked, `.` empty.
    pub fn board_text(&self) -> String {
        let n = self.rules.size;
        let mut s = String::new();
        for r in 0..n {
            for c in 0..n {
                let b = stage::bit(r, c);
                s.push(if self.discs[0] & b != 0 {
                    'X'
                } else if self.discs[1] & b != 0 {
                    'O'
                } else if self.rules.blocked & b != 0 {
                    '#'
                } else {
                    '.'
                });
            }
            s.push('\n');
        }
        s
    }
}

impl Game for Othello {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.side
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.over {
            return;
        }
        if self.moves == 0 {
            out.push(PASS);
            return;
        }
        let mut m = self.moves;
        while m != 0 {
            out.push(m.trailing_zeros() as Move);
            m &= m - 1;
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.play_move(mv)
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let (b, w) = self.counts();
        Some(match b.cmp(&w) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::First),
            std::cmp::Ordering::Less => Outcome::Win(Player::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn scores(&self) -> [i32; 2] {
        let (b, w) = self.counts();
        [b as i32, w as i32]
    }

    #[inline]
    fn random_move(&self, rng: &mut GameRng, _buf: &mut Vec<Move>) -> Option<Move> {
        if self.over {
            None
        } else if self.moves == 0 {
            Some(PASS)
        } else {
            let k = below(rng, self.moves.count_ones() as usize) as u32;
            Some(bits::nth_set_bit(self.moves, k) as Move)
        }
    }

    /// Two characters a move ("f5d6"), or `pass`; whitespace ignored.
    fn split_moves(line: &str) -> Vec<String> {
        let t: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < t.len() {
            let take = if t[i..]
                .iter()
                .take(4)
                .collect::<String>()
                .eq_ignore_ascii_case("pass")
            {
                4
            } else {
                2.min(t.len() - i)
            };
            out.push(t[i..i + take].iter().collect());
            i += take;
        }
        out
    }

    fn move_name(&self, mv: Move) -> String {
        if mv == PASS {
            "pass".into()
        } else {
            format!("{}{}", (b'a' + mv % 8) as char, mv / 8 + 1)
        }
    }
}

impl CellGame for Othello {
    fn board_size(&self) -> usize {
        self.rules.size as usize
    }
    #[inline]
    fn move_cell(&self, mv: Move) -> Option<(usize, usize)> {
        if mv == PASS {
            None
        } else {
            Some(((mv / 8) as usize, (mv % 8) as usize))
        }
    }
}

/// Counts the leaves of the game tree to `depth` plies. A finished game is one leaf. With
/// `pass_is_ply` a pass uses a ply; otherwise a pass is played without using one. The last ply
/// is counted in bulk from the move mask. On x86-64 machines with AVX2 the same code is
/// compiled a second time for those instructions and chosen at run time.
pub fn perft(pos: &Othello, depth: u32, pass_is_ply: bool) -> u64 {
    // Ordinary rules (blocked cells allowed): the bare two-bitboard recursion.
    if !pos.rules.ignore_occlusion && !pos.rules.fewer_pieces_continue {
        if pos.over {
            return 1;
        }
        let own = pos.discs[pos.side.index()];
        let opp = pos.discs[pos.side.other().index()];
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::x86_v3() {
            // SAFETY: the features perft_plain_avx2 is compiled for were detected just above.
            return unsafe { perft_plain_avx2(own, opp, pos.rules.playable, depth, pass_is_ply) };
        }
        return perft_plain_portable(own, opp, pos.rules.playable, depth, pass_is_ply);
    }
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::x86_v3() {
        // SAFETY: the features perft_avx2 is compiled for were detected just above.
        return unsafe { perft_avx2(pos, depth, pass_is_ply) };
    }
    perft_portable(pos, depth, pass_is_ply)
}

/// Perft on ordinary rules with the plain one-direction-at-a-time move generator and flips, no
/// bulk tricks beyond the last-ply count: the reference the engine bench compares `perft` with
/// (`cargo bench --bench engine` prints the ratio). Panics on the rule flags.
pub fn perft_reference(pos: &Othello, depth: u32, pass_is_ply: bool) -> u64 {
    assert!(
        !pos.rules.ignore_occlusion && !pos.rules.fewer_pieces_continue,
        "the reference counts ordinary rules"
    );
    fn go(own: u64, opp: u64, playable: u64, depth: u32, ply: bool) -> u64 {
        perft_plain(own, opp, playable, depth, ply, PLAIN_GENERATOR, go)
    }
    if pos.over {
        return 1;
    }
    go(
        pos.discs[pos.side.index()],
        pos.discs[pos.side.other().index()],
        pos.rules.playable,
        depth,
        pass_is_ply,
    )
}

/// A uniformly random playout on ordinary rules with the plain one-direction-at-a-time
/// generators (`moves_reference`, `flips_reference`) on bare bitboards: the reference the
/// engine bench times `playout` against, and the tests compare it with (the same draws, so the
/// same game: a side that cannot move passes without a draw; the k-th set bit of the move mask
/// is played for k uniform below the move count). Returns the final (black, white) discs.
/// Panics on the rule flags.
pub fn playout_reference(pos: &Othello, rng: &mut GameRng) -> [u64; 2] {
    assert!(
        !pos.rules.ignore_occlusion && !pos.rules.fewer_pieces_continue,
        "the reference plays ordinary rules"
    );
    let mut discs = pos.discs;
    let mut side = pos.side.index();
    loop {
        let (own, opp) = (discs[side], discs[1 - side]);
        let empty = pos.rules.playable & !(own | opp);
        let moves = bits::moves_reference(own, opp, empty);
        if moves == 0 {
            if bits::moves_reference(opp, own, empty) == 0 {
                return discs;
            }
            side = 1 - side;
            continue;
        }
        let mv = 1u64 << bits::nth_set_bit(moves, below(rng, moves.count_ones() as usize) as u32);
        let f = bits::flips_reference(mv, own, opp);
        discs[side] |= f | mv;
        discs[1 - side] &= !f;
        side = 1 - side;
    }
}

/// A move generator and its flips: (own, opp, empty) -> moves, (move bit, own, opp) -> flips.
type Generator = (fn(u64, u64, u64) -> u64, fn(u64, u64, u64) -> u64);
const FAST_GENERATOR: Generator = (bits::moves, bits::flips);
const PLAIN_GENERATOR: Generator = (bits::moves_reference, bits::flips_reference);

fn perft_plain_portable(own: u64, opp: u64, playable: u64, depth: u32, pass_is_ply: bool) -> u64 {
    perft_plain(
        own,
        opp,
        playable,
        depth,
        pass_is_ply,
        FAST_GENERATOR,
        perft_plain_portable,
    )
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
fn perft_plain_avx2(own: u64, opp: u64, playable: u64, depth: u32, pass_is_ply: bool) -> u64 {
    // The closure inherits the target features, so the recursive call is safe.
    perft_plain(
        own,
        opp,
        playable,
        depth,
        pass_is_ply,
        FAST_GENERATOR,
        |a, b, c, d, e| perft_plain_avx2(a, b, c, d, e),
    )
}

/// `perft_node` for ordinary rules on bare bitboards (`own` to move, `playable` the board's
/// unblocked cells): the same counts, without the position struct, its side and its flags. A
/// node whose side cannot move passes, or ends the game (one leaf) when neither side can.
#[inline(always)]
fn perft_plain(
    own: u64,
    opp: u64,
    playable: u64,
    depth: u32,
    pass_is_ply: bool,
    (moves_of, flips_of): Generator,
    recurse: impl Fn(u64, u64, u64, u32, bool) -> u64,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let empty = playable & !(own | opp);
    let moves = moves_of(own, opp, empty);
    if moves == 0 {
        if moves_of(opp, own, empty) == 0 {
            return 1;
        }
        return recurse(
            opp,
            own,
            playable,
            if pass_is_ply { depth - 1 } else { depth },
            pass_is_ply,
        );
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut total = 0;
    let mut m = moves;
    while m != 0 {
        let mv = m & m.wrapping_neg();
        m &= m - 1;
        let f = flips_of(mv, own, opp);
        total += recurse(opp & !f, own | f | mv, playable, depth - 1, pass_is_ply);
    }
    total
}

fn perft_portable(pos: &Othello, depth: u32, pass_is_ply: bool) -> u64 {
    perft_node(pos, depth, pass_is_ply, perft_portable)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
fn perft_avx2(pos: &Othello, depth: u32, pass_is_ply: bool) -> u64 {
    // The closure inherits perft_avx2's target features, so the recursive call is safe.
    perft_node(pos, depth, pass_is_ply, |p, d, x| perft_avx2(p, d, x))
}

#[inline(always)]
fn perft_node(
    pos: &Othello,
    depth: u32,
    pass_is_ply: bool,
    recurse: impl Fn(&Othello, u32, bool) -> u64,
) -> u64 {
    if depth == 0 || pos.over {
        return 1;
    }
    if pos.moves == 0 {
        let mut next = *pos;
        next.play_move(PASS);
        return if pass_is_ply {
            recurse(&next, depth - 1, true)
        } else {
            recurse(&next, depth, false)
        };
    }
    if depth == 1 {
        return pos.moves.count_ones() as u64;
    }
    let mut total = 0;
    let mut m = pos.moves;
    while m != 0 {
        let mv = m.trailing_zeros() as Move;
        m &= m - 1;
        let mut next = *pos;
        next.play_move(mv);
        total += recurse(&next, depth - 1, pass_is_ply);
    }
    total
}

#[cfg(test)]
mod tests;
