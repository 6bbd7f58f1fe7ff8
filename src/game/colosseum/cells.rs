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
        Cells([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2], self.0[3] & o.0[3]])
    }

    #[inline]
    pub fn or(self, o: Cells) -> Cells {
        Cells([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2], self.0[3] | o.0[3]])
    }

    #[inline]
    pub fn minus(self, o: Cells) -> Cells {
        Cells([self.0[0] & !o.0[0], self.0[1] & !o.0[1], self.0[2] & !o.0[2], self.0[3] & !o.0[3]])
    }

    /// Each cell moved one row up (r - 1).
    #[inline]
    pub fn up(self) -> Cells {
        let w = self.0;
        Cells([w[0] >> 16 | w[1] << 48, w[1] >> 16 | w[2] << 48, w[2] >> 16 | w[3] << 48, w[3] >> 16])
    }

    /// Each cell moved one row down (r + 1).
    #[inline]
    pub fn down(self) -> Cells {
        let w = self.0;
        Cells([w[0] << 16, w[1] << 16 | w[0] >> 48, w[2] << 16 | w[1] >> 48, w[3] << 16 | w[2] >> 48])
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

    #[test]
    fn iteration_and_nth_agree_in_row_major_order() {
        let mut s = Cells::EMPTY;
        for &(r, c) in &[(0, 0), (3, 15), (4, 0), (9, 9), (15, 15)] {
            s.insert(cell(r, c));
        }
        let v: Vec<u8> = s.iter().collect();
        assert_eq!(v, [cell(0, 0), cell(3, 15), cell(4, 0), cell(9, 9), cell(15, 15)]);
        assert_eq!(s.len(), 5);
        for (i, &x) in v.iter().enumerate() {
            assert_eq!(s.nth(i as u32), x);
        }
        assert_eq!(Cells::board(16).len(), 256);
        assert_eq!(Cells::board(6).len(), 36);
    }
}
