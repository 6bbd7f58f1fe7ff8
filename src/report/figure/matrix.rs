//! A tournament's win-rate matrix: row agent's score (%) against column agent, coloured, with
//! the number of games behind each cell available to the caller's table.

use super::{
    Figure, font, grid_cell, house_mesh, no_data, plot_err, sequential, text, title_height, titled,
};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The width of the colour bar beside the matrix.
const COLOUR_BAR: u32 = 100;

pub struct Matrix {
    pub title: String,
    pub labels: Vec<String>,
    /// `values[row][col]`: the row agent's score in % against the column agent.
    pub values: Vec<Vec<Option<f64>>>,
}

impl Matrix {
    fn longest(&self) -> u32 {
        self.labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(4) as u32
    }

    /// Column names are written across when they fit a cell, else upwards.
    fn upright(&self) -> bool {
        self.longest() as f64 * text::SMALL * 0.6 > self.cell() as f64 - 4.0
    }

    fn cell(&self) -> u32 {
        (520 / self.labels.len().max(1) as u32).clamp(28, 64)
    }

    fn label_width(&self) -> u32 {
        (self.longest() as f64 * text::TICK * 0.6 + 14.0) as u32
    }

    fn x_label_height(&self) -> u32 {
        if self.upright() {
            (self.longest() as f64 * text::SMALL * 0.6) as u32 + 34
        } else {
            44
        }
    }
}

impl Figure for Matrix {
    fn size(&self) -> (u32, u32) {
        let n = self.labels.len().max(1) as u32;
        let w = (self.label_width() + 40 + self.cell() * n + 20).max(360) + COLOUR_BAR;
        (
            w,
            self.cell() * n + self.x_label_height() + 20 + title_height(&self.title, w),
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let n = self.labels.len();
        if n == 0 {
            return no_data(root, &self.title);
        }
        let titled = titled(root, &self.title)?;
        let (w, _) = titled.dim_in_pixel();
        let (area, bar) = titled.split_horizontally(w.saturating_sub(COLOUR_BAR));
        // The colours' key: score 0 to 100, as the cells are coloured.
        super::colour_bar(&bar, "score %", 0.0, 100.0)?;
        let mut c = ChartBuilder::on(&area)
            .margin(10)
            .x_label_area_size(self.x_label_height())
            .y_label_area_size(self.label_width() + 26)
            .build_cartesian_2d(0f64..n as f64, 0f64..n as f64)
            .map_err(plot_err)?;
        let labels = self.labels.clone();
        let at = move |v: f64| {
            let i = v.floor() as usize;
            ((v - i as f64 - 0.5).abs() < 1e-6 && i < n).then_some(i)
        };
        // Column names: across when they fit a cell, else upwards, drawn by hand below each
        // column (plotters' rotated tick labels are clipped).
        house_mesh!(c.configure_mesh())
            .disable_mesh()
            // Labels at the cells' centres and no axis lines or tick marks (plotters would put
            // ticks at the cells' edges too): the cells' own borders show where each one is.
            .axis_style(TRANSPARENT)
            .x_labels(2 * n + 1)
            .y_labels(2 * n + 1)
            .x_label_formatter(&|_| String::new())
            .y_label_formatter(&|y| at(*y).map_or(String::new(), |i| labels[n - 1 - i].clone()))
            .x_desc("opponent")
            .y_desc("agent")
            .draw()
            .map_err(plot_err)?;
        {
            use plotters::style::text_anchor::{HPos, Pos, VPos};
            let upright = self.upright();
            for (i, label) in self.labels.iter().enumerate() {
                let (px, py) = c.backend_coord(&(i as f64 + 0.5, 0.0));
                let style = if upright {
                    font(text::SMALL)
                        .transform(FontTransform::Rotate270)
                        .into_text_style(root)
                        .pos(Pos::new(HPos::Right, VPos::Center))
                } else {
                    font(text::SMALL)
                        .into_text_style(root)
                        .pos(Pos::new(HPos::Center, VPos::Top))
                };
                root.draw(&Text::new(label.clone(), (px, py + 8), style))
                    .map_err(plot_err)?;
            }
        }
        for r in 0..n {
            for col in 0..n {
                let v = self
                    .values
                    .get(r)
                    .and_then(|row| row.get(col))
                    .copied()
                    .flatten();
                let fill = v.map_or(RGBColor(225, 225, 225), |v| sequential(v / 100.0));
                grid_cell(
                    &mut c,
                    n,
                    r,
                    col,
                    fill,
                    v.map(|v| format!("{v:.0}")),
                    (text::SMALL * 1.24) as u32,
                )?;
            }
        }
        Ok(())
    }
}
