//! Bitboard primitives for boards of up to 8x8 embedded in a `u64` (bit `r * 8 + c`).
//!
//! A board smaller than 8x8 uses the top-left corner; cells outside it, like blocked cells, are
//! never empty and never hold a disc, so rays stop there exactly as at the edge.

const NOT_FILE_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_FILE_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The 8 directions as (shift amount, mask applied after shifting): positive shifts go left.
pub const DIRS: [(i32, u64); 8] = [
    (1, NOT_FILE_A),  // east  (c + 1)
    (-1, NOT_FILE_H), // west  (c - 1)
    (8, !0),          // south (r + 1)
    (-8, !0),         // north (r - 1)
    (9, NOT_FILE_A),  // south-east
    (7, NOT_FILE_H),  // south-west
    (-7, NOT_FILE_A), // north-east
    (-9, NOT_FILE_H), // north-west
];

#[inline(always)]
pub fn shift(x: u64, dir: (i32, u64)) -> u64 {
    let (s, mask) = dir;
    if s > 0 { (x << s) & mask } else { (x >> (-s)) & mask }
}

/// Legal move mask for `own` against `opp`; `empty` holds the playable empty cells.
#[inline]
pub fn moves(own: u64, opp: u64, empty: u64) -> u64 {
    let mut result = 0;
    for dir in DIRS {
        let mut x = shift(own, dir) & opp;
        x |= shift(x, dir) & opp;
        x |= shift(x, dir) & opp;
        x |= shift(x, dir) & opp;
        x |= shift(x, dir) & opp;
        x |= shift(x, dir) & opp;
        result |= shift(x, dir) & empty;
    }
    result
}

/// Legal moves when `transparent` cells (blocked cells under ignore_occlusion) are skipped by
/// capture rays: a run may mix opponent discs and transparent cells but needs one disc at least.
pub fn moves_transparent(own: u64, opp: u64, empty: u64, transparent: u64) -> u64 {
    let mut result = 0;
    for dir in DIRS {
        // `skip`: reached from an own disc through transparent cells only;
        // `run`: reached through a run holding at least one opponent disc.
        let mut skip = shift(own, dir) & transparent;
        let mut run = shift(own, dir) & opp;
        for _ in 0..7 {
            let next_run = (shift(run, dir) & (opp | transparent)) | (shift(skip, dir) & opp);
            skip = shift(skip, dir) & transparent;
            run |= next_run;
        }
        result |= shift(run, dir) & empty;
    }
    result
}

/// The discs flipped by a move on cell bit `mv` (ordinary rules: runs of opponent discs).
#[inline]
pub fn flips(mv: u64, own: u64, opp: u64) -> u64 {
    let mut result = 0;
    for dir in DIRS {
        let mut x = shift(mv, dir) & opp;
        x |= shift(x, dir) & opp;
        x |= shift(x, dir) & opp;
        x |= shift(x, dir) & opp;
        x |= shift(x, dir) & opp;
        x |= shift(x, dir) & opp;
        // The run is bracketed when the cell after it holds an own disc.
        let bracketed = (shift(x, dir) & own != 0) as u64;
        result |= x & bracketed.wrapping_neg();
    }
    result
}

/// The discs flipped when `transparent` cells are skipped by rays (never flipped).
pub fn flips_transparent(mv: u64, own: u64, opp: u64, transparent: u64) -> u64 {
    let mut result = 0;
    let through = opp | transparent;
    for dir in DIRS {
        let mut run = 0;
        let mut x = shift(mv, dir);
        while x & through != 0 {
            run |= x & opp;
            x = shift(x, dir);
        }
        if x & own != 0 {
            result |= run;
        }
    }
    result
}

/// The index of the k-th set bit of `x` (k counted from 0, lowest first).
#[inline]
pub fn nth_set_bit(mut x: u64, k: u32) -> u32 {
    for _ in 0..k {
        x &= x - 1;
    }
    x.trailing_zeros()
}
