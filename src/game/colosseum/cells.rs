//! A set of cells of a board of side at most 16: 256 bits, 16 per row, four rows per word.
//!
//! Cell (r, c) is bit `r * 16 + c`. Moving a whole set one step in a direction is a shift: by
//! 16 bits for up and down (across words), by one bit for left and right (inside a word: the
//! callers mask with "this side is open" first, and the border is always walled, so a bit never
//! leaves its row).

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cells(pub [u64; 4]);

/// The cell index of (r, c).
#[inline]
pub fn cell(r: usize, c: usize) -> u8 {
    (r * 16 + c) as u8
}

/// (r, c) of a cell index.
#[inline]
pub fn rc(i: u8) -> (usize, usize) {
    ((i / 16) as usize, (i % 16) as usize)
}

impl Cells {
    pub const EMPTY: Cells = Cells([0; 4]);

    #[inline]
    pub fn single(i: u8) -> Cells {
        let mut s = Cells::EMPTY;
        s.insert(i);
        s
    }

    /// Every cell of an `m` x `m` board.
    pub fn board(m: usize) -> Cells {
        let mut s = Cells::EMPTY;
        for r in 0..m {
            for c in 0..m {
                s.insert(cell(r, c));
            }
        }
        s
    }

    #[inline]
    pub fn insert(&mut self, i: u8) {
        self.0[(i / 64) as usize] |= 1 << (i % 64);
    }

    #[inline]
    pub fn remove(&mut self, i: u8) {
        self.0[(i / 64) as usize] &= !(1 << (i % 64));
    }

    #[inline]
    pub fn contains(&self, i: u8) -> bool {
        self.0[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    #[inline]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    pub fn and(self, o: Cells) -> Cells {
        Cells([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }

    #[inline]
    pub fn or(self, o: Cells) -> Cells {
        Cells([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }

    #[inline]
    pub fn minus(self, o: Cells) -> Cells {
        Cells([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
            self.0[3] & !o.0[3],
        ])
    }

    /// Each cell moved one row up (r - 1).
    #[inline]
    pub fn up(self) -> Cells {
        let w = self.0;
        Cells([
            w[0] >> 16 | w[1] << 48,
            w[1] >> 16 | w[2] << 48,
            w[2] >> 16 | w[3] << 48,
            w[3] >> 16,
        ])
    }

    /// Each cell moved one row down (r + 1).
    #[inline]
    pub fn down(self) -> Cells {
        let w = self.0;
        Cells([
            w[0] << 16,
            w[1] << 16 | w[0] >> 48,
            w[2] << 16 | w[1] >> 48,
            w[3] << 16 | w[2] >> 48,
        ])
    }

    /// Each cell moved one column left (c - 1); cells in column 0 must not be in the set.
    #[inline]
    pub fn left(self) -> Cells {
        Cells(self.0.map(|w| w >> 1))
    }

    /// Each cell moved one column right (c + 1); cells in column 15 must not be in the set.
    #[inline]
    pub fn right(self) -> Cells {
        Cells(self.0.map(|w| w << 1))
    }

    /// The cells in increasing index order (row-major).
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..4).flat_map(move |k| {
            let mut w = self.0[k];
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    (k as u32 * 64 + b) as u8
                })
            })
        })
    }

    /// The `n`-th cell in index order (`n < len()`).
    #[inline]
    pub fn nth(self, mut n: u32) -> u8 {
        for (k, &w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            if n < c {
                let mut w = w;
                for _ in 0..n {
                    w &= w - 1;
                }
                return (k as u32 * 64 + w.trailing_zeros()) as u8;
            }
            n -= c;
        }
        panic!("nth({n}) beyond the set")
    }
}

/// A breadth-first fill through open sides: from `start`, one step at a time to the cells next
/// to the frontier through a side open in `open` (`open[side]`: cells whose `side` has no wall),
/// never into `blocked`, for at most `limit` steps; it stops early when nothing new is reached or
/// when a reached cell is in `target`. Returns every cell reached, `start` included.
///
/// This is the whole of Colosseum's move generation and end check (reachable cells: K steps,
/// the opponent blocked; regions: no limit; "still connected": a one-cell target). On x86-64-v3
/// CPUs the board is one 256-bit AVX2 register (row r = 16-bit lane r) and a step is a dozen
/// vector instructions; elsewhere, four 64-bit words (`fill_portable`, also the reference the
/// tests compare the vector copy with).
#[inline]
pub fn fill(open: &[Cells; 4], start: Cells, blocked: Cells, limit: u32, target: Cells) -> Cells {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::x86_v3() {
        // SAFETY: the features fill_avx2 is compiled for were detected just above.
        return unsafe { fill_avx2(open, start, blocked, limit, target) };
    }
    fill_portable(open, start, blocked, limit, target)
}

/// `fill` on four 64-bit words (any CPU).
#[inline]
pub fn fill_portable(
    open: &[Cells; 4],
    start: Cells,
    blocked: Cells,
    limit: u32,
    target: Cells,
) -> Cells {
    let [up, right, down, left] = *open;
    let mut seen = start;
    let mut frontier = start;
    for _ in 0..limit {
        if !seen.and(target).is_empty() {
            break;
        }
        let next = frontier
            .and(up)
            .up()
            .or(frontier.and(right).right())
            .or(frontier.and(down).down())
            .or(frontier.and(left).left());
        frontier = next.minus(seen).minus(blocked);
        if frontier.is_empty() {
            break;
        }
        seen = seen.or(frontier);
    }
    seen
}

/// `fill` with the board in one AVX2 register. Rows are 16-bit lanes and never straddle a 64-bit
/// element, so left and right are 64-bit shifts by one (the border is walled, so no bit crosses
/// a row); up and down move the whole register by one lane, across its two 128-bit halves
/// (a half swap, then a byte alignment).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn fill_avx2(open: &[Cells; 4], start: Cells, blocked: Cells, limit: u32, target: Cells) -> Cells {
    use std::arch::x86_64::*;
    // SAFETY: Cells is four u64 (32 bytes); unaligned loads and stores read and write exactly it.
    let load = |c: &Cells| unsafe { _mm256_loadu_si256(c.0.as_ptr() as *const __m256i) };
    let [up, right, down, left] = [
        load(&open[0]),
        load(&open[1]),
        load(&open[2]),
        load(&open[3]),
    ];
    let (blocked, target) = (load(&blocked), load(&target));
    let mut seen = load(&start);
    let mut frontier = seen;
    for _ in 0..limit {
        if _mm256_testz_si256(seen, target) == 0 {
            break;
        }
        let u = _mm256_and_si256(frontier, up);
        let u = _mm256_alignr_epi8::<2>(_mm256_permute2x128_si256::<0x81>(u, u), u);
        let d = _mm256_and_si256(frontier, down);
        let d = _mm256_alignr_epi8::<14>(d, _mm256_permute2x128_si256::<0x08>(d, d));
        let r = _mm256_slli_epi64::<1>(_mm256_and_si256(frontier, right));
        let l = _mm256_srli_epi64::<1>(_mm256_and_si256(frontier, left));
        let next = _mm256_or_si256(_mm256_or_si256(u, d), _mm256_or_si256(r, l));
        frontier = _mm256_andnot_si256(_mm256_or_si256(seen, blocked), next);
        if _mm256_testz_si256(frontier, frontier) == 1 {
            break;
        }
        seen = _mm256_or_si256(seen, frontier);
    }
    let mut out = Cells::EMPTY;
    // SAFETY: as for the loads.
    unsafe { _mm256_storeu_si256(out.0.as_mut_ptr() as *mut __m256i, seen) };
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_move_cells_by_one_step_across_words() {
        // Row 3 -> row 4 crosses from word 0 to word 1, and back.
        let a = Cells::single(cell(3, 5));
        assert_eq!(a.down(), Cells::single(cell(4, 5)));
        assert_eq!(a.down().up(), a);
        assert_eq!(Cells::single(cell(12, 0)).up(), Cells::single(cell(11, 0)));
        assert_eq!(Cells::single(cell(15, 15)).down(), Cells::EMPTY);
        assert_eq!(Cells::single(cell(0, 7)).up(), Cells::EMPTY);
        assert_eq!(Cells::single(cell(7, 4)).left(), Cells::single(cell(7, 3)));
        assert_eq!(Cells::single(cell(7, 4)).right(), Cells::single(cell(7, 5)));
    }

    /// The dispatched fill (AVX2 on machines that have it) and the portable one reach the same
    /// cells from random sets: any bits at all, sparse and dense, every limit and target kind.
    #[test]
    fn the_vector_fill_agrees_with_the_portable_one() {
        use crate::rng::Rng;
        let mut rng = crate::rng::rng_from_seed(23);
        let mut random = |density: u32| {
            let mut w = [0u64; 4];
            for x in &mut w {
                *x = u64::MAX;
                for _ in 0..density {
                    *x &= rng.next_u64();
                }
            }
            Cells(w)
        };
        for case in 0..50_000u32 {
            let open = [random(1), random(1 + case % 2), random(1), random(case % 3)];
            let start = random(6 + case % 3);
            let blocked = random(3);
            let target = if case % 4 == 0 {
                Cells::EMPTY
            } else {
                random(7)
            };
            let limit = [0, 1, 3, 8, u32::MAX][case as usize % 5];
            assert_eq!(
                fill(&open, start, blocked, limit, target),
                fill_portable(&open, start, blocked, limit, target),
                "case {case}"
            );
        }
    }

    #[test]
    fn iteration_and_nth_agree_in_row_major_order() {
        let mut s = Cells::EMPTY;
        for &(r, c) in &[(0, 0), (3, 15), (4, 0), (9, 9), (15, 15)] {
            s.insert(cell(r, c));
        }
        let v: Vec<u8> = s.iter().collect();
        assert_eq!(
            v,
            [
                cell(0, 0),
                cell(3, 15),
                cell(4, 0),
                cell(9, 9),
                cell(15, 15)
            ]
        );
        assert_eq!(s.len(), 5);
        for (i, &x) in v.iter().enumerate() {
            assert_eq!(s.nth(i as u32), x);
        }
        assert_eq!(Cells::board(16).len(), 256);
        assert_eq!(Cells::board(6).len(), 36);
    }
}
