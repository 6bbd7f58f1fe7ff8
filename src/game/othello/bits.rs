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
    if s > 0 {
        (x << s) & mask
    } else {
        (x >> (-s)) & mask
    }
}

/// Opponent discs that can lie inside a run along lanes east-west, north-south and the two
/// diagonals: on a horizontal or diagonal ray a run cannot pass through file a or h (it would
/// need a cell beyond the edge), so those files are left out and the shifts need no masks.
const INNER_FILES: u64 = 0x7e7e_7e7e_7e7e_7e7e;
/// The shift of each lane: east-west 1, north-south 8, the diagonals 7 and 9. Each lane runs
/// both ways (left shifts and right shifts), so four lanes cover the eight directions.
const LANE_SHIFTS: [u32; 4] = [1, 8, 7, 9];

#[inline(always)]
fn lane_masks(opp: u64) -> [u64; 4] {
    let inner = opp & INNER_FILES;
    [inner, opp, inner, inner]
}

/// The runs of `m` (a lane's opponent discs) that start next to `seed` along shift `d`, one way
/// (left shifts) and the other (right shifts): parallel prefix, growing 1, 2, then 4 cells at a
/// time (6 is the longest run on 8x8).
#[inline(always)]
fn runs(seed: u64, m: u64, d: u32) -> (u64, u64) {
    let mut l = m & (seed << d);
    let mut r = m & (seed >> d);
    l |= m & (l << d);
    r |= m & (r >> d);
    let ml = m & (m << d);
    let mr = ml >> d;
    l |= ml & (l << (2 * d));
    r |= mr & (r >> (2 * d));
    l |= ml & (l << (2 * d));
    r |= mr & (r >> (2 * d));
    (l, r)
}

/// Legal move mask for `own` against `opp`; `empty` holds the playable empty cells.
///
/// Parallel prefix (Kogge-Stone) fills in four lanes, one per line direction and both ways along
/// it (`runs`); a move is the cell beyond a run. The four lanes are independent, so the compiler
/// turns them into vector code where the CPU has it (the AVX2 build of perft and playouts).
#[inline(always)]
pub fn moves(own: u64, opp: u64, empty: u64) -> u64 {
    let masks = lane_masks(opp);
    let mut out = [0u64; 4];
    for i in 0..4 {
        let d = LANE_SHIFTS[i];
        let (l, r) = runs(own, masks[i], d);
        out[i] = (l << d) | (r >> d);
    }
    (out[0] | out[1] | out[2] | out[3]) & empty
}

/// The discs flipped by a move on cell bit `mv` (ordinary rules: runs of opponent discs), by the
/// same four-lane fills as `moves`, from the move's cell: a run counts when the cell beyond it
/// holds an own disc.
#[inline(always)]
pub fn flips(mv: u64, own: u64, opp: u64) -> u64 {
    let masks = lane_masks(opp);
    let mut out = [0u64; 4];
    for i in 0..4 {
        let d = LANE_SHIFTS[i];
        let (l, r) = runs(mv, masks[i], d);
        // Branch-free: keep a run when the cell past its end is an own disc.
        let keep_l = (((l << d) & own) != 0) as u64;
        let keep_r = (((r >> d) & own) != 0) as u64;
        out[i] = (l & keep_l.wrapping_neg()) | (r & keep_r.wrapping_neg());
    }
    out[0] | out[1] | out[2] | out[3]
}

/// The plain move generator (one direction at a time, one cell a step): the reference the fast
/// `moves` is tested against.
pub fn moves_reference(own: u64, opp: u64, empty: u64) -> u64 {
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

/// The plain flip computation (one direction at a time): the reference for `flips`.
pub fn flips_reference(mv: u64, own: u64, opp: u64) -> u64 {
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
