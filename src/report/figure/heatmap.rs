//! A weight table on its board: one square per cell coloured by value, the value written in it,
//! blocked cells grey and crossed; columns a.. and rows 1.. as in Othello notation.

use super::{Figure, grid_cell, plot_err, sequential};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

pub struct Heatmap {
    pub title: String,
    pub size: usize,
    /// Row-major values; None marks a blocked cell.
    pub values: Vec<Option<f64>>,
    /// What the values are (the colour bar's caption), e.g. "weight".
    pub unit: String,
}

impl Figure for Heatmap {
    fn size(&self) -> (u32, u32) {
        (560, 470 + super::title_height(&self.title, 560))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let n = self.size.max(1);
        let finite: Vec<f64> = self
            .values
            .iter()
            .flatten()
            .copied()
            .filter(|v| v.is_finite())
            .collect();
        let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let scale = |v: f64| if hi > lo { (v - lo) / (hi - lo) } else { 0.5 };
        let area = super::titled(root, &self.title)?;
        let (w, _) = area.dim_in_pixel();
        let (board, bar) = area.split_horizontally(w.saturating_sub(100));
        let mut c = ChartBuilder::on(&board)
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(30)
            .build_cartesian_2d(0f64..n as f64, 0f64..n as f64)
            .map_err(plot_err)?;
        c.configure_mesh()
            .disable_mesh()
            .x_labels(2 * n + 1)
            .y_labels(2 * n + 1)
            .x_label_formatter(&|x| cell_label(*x, n, |i| ((b'a' + i as u8) as char).to_string()))
            .y_label_formatter(&|y| cell_label(*y, n, |i| (n - i).to_string()))
            .label_style(super::font(super::text::TICK))
            // Board coordinates at the cells' centres, no axis lines or tick marks (plotters
            // would put ticks at the cells' edges too).
            .axis_style(TRANSPARENT)
            .draw()
            .map_err(plot_err)?;
        for r in 0..n {
            for col in 0..n {
                match self.values.get(r * n + col).copied().flatten() {
                    Some(v) => {
                        let text = if v.fract() == 0.0 && v.abs() < 1e6 {
                            format!("{v:.0}")
                        } else {
                            format!("{v:.2}")
                        };
                        grid_cell(
                            &mut c,
                            n,
                            r,
                            col,
                            sequential(scale(v)),
                            Some(text),
                            (super::text::SMALL * 1.24) as u32,
                        )?;
                    }
                    None => {
                        // A blocked cell: grey and crossed.
                        grid_cell(&mut c, n, r, col, RGBColor(150, 150, 150), None, 16)?;
                        let (x, y) = (col as f64, (n - 1 - r) as f64);
                        c.draw_series([
                            PathElement::new(
                                vec![(x + 0.2, y + 0.2), (x + 0.8, y + 0.8)],
                                BLACK.stroke_width(2),
                            ),
                            PathElement::new(
                                vec![(x + 0.2, y + 0.8), (x + 0.8, y + 0.2)],
                                BLACK.stroke_width(2),
                            ),
                        ])
                        .map_err(plot_err)?;
                    }
                }
            }
        }
        // Colour bar, captioned with what the colours measure.
        if !finite.is_empty() {
            super::colour_bar(&bar, &self.unit, lo, hi)?;
        }
        Ok(())
    }
}

/// The label of the cell whose centre is at `v` (labels sit at half-integers).
fn cell_label(v: f64, n: usize, name: impl Fn(usize) -> String) -> String {
    let i = v.floor() as usize;
    if (v - i as f64 - 0.5).abs() < 1e-6 && i < n {
        name(i)
    } else {
        String::new()
    }
}
