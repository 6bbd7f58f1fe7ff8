//! Grouped vertical bars with interval whiskers: categories along x, one bar per series in each
//! category (grid cells), and a legend when there is more than one series.

use super::{Figure, LEGEND_WIDTH, fit_title, no_data, padded, plot_err, series_colour, with_legend};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// A value with its interval.
pub type Cell = Option<(f64, f64, f64)>;

pub struct GroupedBars {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub series: Vec<String>,
    /// `values[s][c]`: series s in category c (value, lo, hi), or None when missing.
    pub values: Vec<Vec<Cell>>,
    /// Fixed y range, or None to fit the data (including 0).
    pub y_range: Option<(f64, f64)>,
    /// The legend's heading (the key that names the series).
    pub series_label: String,
}

impl Figure for GroupedBars {
    fn size(&self) -> (u32, u32) {
        let bars = self.categories.len().max(1) * self.series.len().max(1);
        let legend = if self.series.len() > 1 { LEGEND_WIDTH } else { 0 };
        (fit_title((200 + 36 * bars as u32).clamp(640, 1600) + legend, &self.title), 560)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let cells: Vec<(f64, f64, f64)> = self.values.iter().flatten().flatten().copied().collect();
        if self.categories.is_empty() || self.series.is_empty() || cells.is_empty() {
            return no_data(root, &self.title);
        }
        let (y0, y1) = self.y_range.unwrap_or_else(|| {
            let lo = cells.iter().map(|c| c.1.min(c.0)).fold(0.0, f64::min);
            let hi = cells.iter().map(|c| c.2.max(c.0)).fold(0.0, f64::max);
            padded(lo, hi)
        });
        let n_cat = self.categories.len();
        let n_ser = self.series.len();
        let titled = root.titled(&self.title, ("sans-serif", 22)).map_err(plot_err)?;
        let area = if n_ser > 1 {
            let items: Vec<(String, RGBColor)> = self.series.iter().enumerate().map(|(i, s)| (s.clone(), series_colour(i))).collect();
            with_legend(&titled, &self.series_label, &items)?
        } else {
            titled
        };
        let mut c = ChartBuilder::on(&area)
            .margin(14)
            .x_label_area_size(56)
            .y_label_area_size(64)
            .build_cartesian_2d(0f64..n_cat as f64, y0..y1)
            .map_err(plot_err)?;
        let cats = self.categories.clone();
        c.configure_mesh()
            .disable_x_mesh()
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .x_labels(n_cat * 2 + 1)
            .x_label_formatter(&|x| {
                let i = x.floor() as usize;
                if (x - i as f64 - 0.5).abs() < 1e-6 { cats.get(i).cloned().unwrap_or_default() } else { String::new() }
            })
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 16))
            .draw()
            .map_err(plot_err)?;
        let width = 0.8 / n_ser as f64;
        for s in 0..n_ser {
            let colour = series_colour(s);
            let x_of = |ci: usize| ci as f64 + 0.1 + width * s as f64;
            let present: Vec<(usize, (f64, f64, f64))> = self.values[s].iter().enumerate().filter_map(|(ci, v)| v.map(|v| (ci, v))).collect();
            let base = y0.max(0.0).min(y1);
            c.draw_series(present.iter().map(|&(ci, (v, _, _))| Rectangle::new([(x_of(ci), base), (x_of(ci) + width * 0.92, v)], colour.mix(0.8).filled())))
                .map_err(plot_err)?;
            c.draw_series(present.iter().map(|&(ci, (v, lo, hi))| ErrorBar::new_vertical(x_of(ci) + width * 0.46, lo, v, hi, BLACK.stroke_width(2), 8)))
                .map_err(plot_err)?;
        }
        Ok(())
    }
}
