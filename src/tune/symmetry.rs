//! Parameter vectors for square board tables: all cells free, or one value per orbit of the
//! 90-degree rotation group (the Othello report's "optimise one quadrant and rotate it": a
//! rotation, not a mirror, because partial-c8's blocked cells are only rotation-symmetric).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Symmetry {
    /// One parameter per cell.
    None,
    /// One parameter per orbit of the rotations by 0, 90, 180 and 270 degrees.
    #[default]
    Rotation,
}

/// The cell (row-major index) that a 90-degree clockwise rotation takes (r, c) to.
fn rotate(n: usize, r: usize, c: usize) -> (usize, usize) {
    (c, n - 1 - r)
}

/// Maps parameter vectors to full tables of a square board of side `n`.
#[derive(Clone, Debug, PartialEq)]
pub struct TableLayout {
    pub size: usize,
    /// For each cell (row-major), the parameter it takes its value from.
    pub cell_param: Vec<usize>,
    pub params: usize,
}

impl TableLayout {
    pub fn new(size: usize, symmetry: Symmetry) -> TableLayout {
        let cells = size * size;
        match symmetry {
            Symmetry::None => TableLayout {
                size,
                cell_param: (0..cells).collect(),
                params: cells,
            },
            Symmetry::Rotation => {
                let mut cell_param = vec![usize::MAX; cells];
                let mut params = 0;
                for r in 0..size {
                    for c in 0..size {
                        if cell_param[r * size + c] != usize::MAX {
                            continue;
                        }
                        let (mut y, mut x) = (r, c);
                        for _ in 0..4 {
                            cell_param[y * size + x] = params;
                            (y, x) = rotate(size, y, x);
                        }
                        params += 1;
                    }
                }
                TableLayout {
                    size,
                    cell_param,
                    params,
                }
            }
        }
    }

    /// The full table (row-major) of a parameter vector.
    pub fn table(&self, params: &[f64]) -> Vec<f64> {
        self.cell_param.iter().map(|&p| params[p]).collect()
    }

    /// The table as rows, as experiment files and table files write it.
    pub fn rows(&self, params: &[f64]) -> Vec<Vec<f64>> {
        self.table(params)
            .chunks(self.size)
            .map(<[f64]>::to_vec)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_quadrant_per_even_board_and_the_centre_alone_on_odd_ones() {
        assert_eq!(TableLayout::new(8, Symmetry::Rotation).params, 16);
        assert_eq!(TableLayout::new(6, Symmetry::Rotation).params, 9);
        // 5x5: 24 cells in orbits of 4, plus the centre.
        assert_eq!(TableLayout::new(5, Symmetry::Rotation).params, 7);
        assert_eq!(TableLayout::new(8, Symmetry::None).params, 64);
    }

    proptest! {
        #[test]
        fn rotated_tables_are_rotation_invariant(size in 3usize..=8, seed in any::<u64>()) {
            let layout = TableLayout::new(size, Symmetry::Rotation);
            let params: Vec<f64> = (0..layout.params).map(|i| ((seed >> (i % 60)) % 97) as f64 + i as f64 / 100.0).collect();
            let t = layout.table(&params);
            for r in 0..size {
                for c in 0..size {
                    let (y, x) = rotate(size, r, c);
                    prop_assert_eq!(t[r * size + c], t[y * size + x]);
                }
            }
            // Distinct parameters stay distinct: the layout does not merge orbits.
            let distinct: std::collections::BTreeSet<u64> = t.iter().map(|v| v.to_bits()).collect();
            prop_assert_eq!(distinct.len(), layout.params);
        }
    }

    #[test]
    fn rotation_keeps_the_partial_c8_blocked_cells_in_one_orbit() {
        // partial-c8 blocks (0,1) (1,7) (7,6) (6,0): one orbit, so a rotated table treats the
        // four blocked cells alike, as the stage does.
        let layout = TableLayout::new(8, Symmetry::Rotation);
        let p = |r: usize, c: usize| layout.cell_param[r * 8 + c];
        assert!(p(0, 1) == p(1, 7) && p(1, 7) == p(7, 6) && p(7, 6) == p(6, 0));
        // A mirror would pair (0,1) with (0,6), which is not blocked: rotation does not.
        assert_ne!(p(0, 1), p(0, 6));
    }
}
