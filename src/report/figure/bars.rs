//! Grouped vertical bars with interval whiskers: categories along x, one bar per series in each
//! category (grid cells), and a legend when there is more than one series.

use super::{
    Figure, house_mesh, legend_width, no_data, padded, plot_err, series_colour, title_height,
    titled, with_legend,
};
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
    /// Dashed horizontal reference lines (50 for a score in %).
    pub hlines: Vec<f64>,
}

impl Figure for GroupedBars {
    fn size(&self) -> (u32, u32) {
        let bars = self.categories.len().max(1) * self.series.len().max(1);
        let legend = if self.series.len() > 1 {
            legend_width(&self.series_label, &self.series)
        } else {
            0
        };
        let w = (120 + 26 * bars as u32).clamp(420, 1000) + legend;
        let items = if self.series.len() > 1 {
            self.series.len()
        } else {
            0
        };
        (w, super::chart_height(items) + title_height(&self.title, w))
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
        let titled = titled(root, &self.title)?;
        let area = if n_ser > 1 {
            let items: Vec<(String, super::Swatch)> = self
                .series
                .iter()
                .enumerate()
                .map(|(i, s)| (s.clone(), super::Swatch::Box(series_colour(i))))
                .collect();
            with_legend(&titled, &self.series_label, &items)?
        } else {
            titled
        };
        let mut c = ChartBuilder::on(&area)
            .margin(10)
            .x_label_area_size(46)
            .y_label_area_size(super::value_axis_width(y0, y1))
            .build_cartesian_2d(0f64..n_cat as f64, y0..y1)
            .map_err(plot_err)?;
        let cats = self.categories.clone();
        house_mesh!(c.configure_mesh())
            .disable_x_mesh()
            .y_label_formatter(&|v| super::axis_tick(*v, y0, y1))
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .x_labels(n_cat * 2 + 1)
            .x_label_formatter(&|x| {
                let i = x.floor() as usize;
                if (x - i as f64 - 0.5).abs() < 1e-6 {
                    cats.get(i).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(plot_err)?;
        for h in self.hlines.iter().filter(|h| **h >= y0 && **h <= y1) {
            c.draw_series(DashedLineSeries::new(
                [(0.0, *h), (n_cat as f64, *h)],
                6,
                4,
                super::REFERENCE.stroke_width(1),
            ))
            .map_err(plot_err)?;
        }
        let width = 0.8 / n_ser as f64;
        for s in 0..n_ser {
            let colour = series_colour(s);
            let x_of = |ci: usize| ci as f64 + 0.1 + width * s as f64;
            let present: Vec<(usize, (f64, f64, f64))> = self.values[s]
                .iter()
                .enumerate()
                .filter_map(|(ci, v)| v.map(|v| (ci, v)))
                .collect();
            let base = y0.max(0.0).min(y1);
            c.draw_series(present.iter().map(|&(ci, (v, _, _))| {
                Rectangle::new(
                    [(x_of(ci), base), (x_of(ci) + width * 0.92, v)],
                    colour.mix(0.8).filled(),
                )
            }))
            .map_err(plot_err)?;
            c.draw_series(present.iter().map(|&(ci, (v, lo, hi))| {
                ErrorBar::new_vertical(x_of(ci) + width * 0.46, lo, v, hi, BLACK.stroke_width(1), 6)
            }))
            .map_err(plot_err)?;
        }
        Ok(())
    }
}
