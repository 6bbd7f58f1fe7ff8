//! A tournament's win-rate matrix: row agent's score (%) against column agent, coloured, with
//! the number of games behind each cell available to the caller's table.

use super::{Figure, fit_title, grid_cell, no_data, plot_err, sequential};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

pub struct Matrix {
    pub title: String,
    pub labels: Vec<String>,
    /// `values[row][col]`: the row agent's score in % against the column agent.
    pub values: Vec<Vec<Option<f64>>>,
}

impl Figure for Matrix {
    fn size(&self) -> (u32, u32) {
        let n = self.labels.len() as u32;
        let side = (220 + 70 * n).clamp(480, 1600);
        (fit_title(side + 60, &self.title), side)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let n = self.labels.len();
        if n == 0 {
            return no_data(root, &self.title);
        }
        // Rows are named "k  label"; columns by the number k alone, so long names never collide.
        let longest = self.labels.iter().map(|l| l.chars().count()).max().unwrap_or(4) as u32 + 4;
        let mut c = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 20))
            .margin(14)
            .x_label_area_size(56)
            .y_label_area_size((longest * 9 + 16).clamp(40, 300))
            .build_cartesian_2d(0f64..n as f64, 0f64..n as f64)
            .map_err(plot_err)?;
        let labels = self.labels.clone();
        let at = move |v: f64| {
            let i = v.floor() as usize;
            ((v - i as f64 - 0.5).abs() < 1e-6 && i < n).then_some(i)
        };
        c.configure_mesh()
            .disable_mesh()
            .x_labels(2 * n + 1)
            .y_labels(2 * n + 1)
            .x_label_formatter(&|x| at(*x).map_or(String::new(), |i| (i + 1).to_string()))
            .y_label_formatter(&|y| at(*y).map_or(String::new(), |i| format!("{}  {}", n - i, labels[n - 1 - i])))
            .label_style(("sans-serif", 14))
            .x_desc("opponent (by number)")
            .y_desc("agent: score % against the opponent")
            .axis_desc_style(("sans-serif", 15))
            .draw()
            .map_err(plot_err)?;
        for r in 0..n {
            for col in 0..n {
                let v = self.values.get(r).and_then(|row| row.get(col)).copied().flatten();
                let fill = v.map_or(RGBColor(225, 225, 225), |v| sequential(v / 100.0));
                grid_cell(&mut c, n, r, col, fill, v.map(|v| format!("{v:.0}")), 15)?;
            }
        }
        Ok(())
    }
}
