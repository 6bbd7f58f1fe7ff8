//! Curves with an interval band: a mean (or any estimate) against a numeric x, one line per
//! series, the band between the interval bounds (learning curves, score against budget).

use super::{Figure, LEGEND_WIDTH, fit_title, no_data, padded, plot_err, series_colour, with_legend};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One point: x, value, interval.
pub type Point = (f64, f64, f64, f64);

pub struct Curves {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// (series name, points sorted by x).
    pub series: Vec<(String, Vec<Point>)>,
    pub y_range: Option<(f64, f64)>,
    /// The legend's heading (the key that names the series).
    pub series_label: String,
}

impl Curves {
    fn has_legend(&self) -> bool {
        self.series.len() > 1 || self.series.first().is_some_and(|s| !s.0.is_empty())
    }
}

impl Figure for Curves {
    fn size(&self) -> (u32, u32) {
        (fit_title(960 + if self.has_legend() { LEGEND_WIDTH } else { 0 }, &self.title), 600)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let pts: Vec<Point> = self.series.iter().flat_map(|s| s.1.iter().copied()).filter(|p| p.0.is_finite() && p.1.is_finite()).collect();
        if pts.is_empty() {
            return no_data(root, &self.title);
        }
        let (x0, x1) = padded(pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min), pts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max));
        let (y0, y1) = self.y_range.unwrap_or_else(|| {
            let lo = pts.iter().map(|p| if p.2.is_finite() { p.2 } else { p.1 }).fold(f64::INFINITY, f64::min);
            let hi = pts.iter().map(|p| if p.3.is_finite() { p.3 } else { p.1 }).fold(f64::NEG_INFINITY, f64::max);
            padded(lo, hi)
        });
        let titled = root.titled(&self.title, ("sans-serif", 22)).map_err(plot_err)?;
        let area = if self.has_legend() {
            let items: Vec<(String, RGBColor)> = self.series.iter().enumerate().map(|(i, s)| (s.0.clone(), series_colour(i))).collect();
            with_legend(&titled, &self.series_label, &items)?
        } else {
            titled
        };
        let mut c = ChartBuilder::on(&area)
            .margin(14)
            .margin_right(30)
            .x_label_area_size(52)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(plot_err)?;
        c.configure_mesh()
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 16))
            .draw()
            .map_err(plot_err)?;
        for (s, (_, points)) in self.series.iter().enumerate() {
            let colour = series_colour(s);
            let band: Vec<(f64, f64)> = points
                .iter()
                .filter(|p| p.2.is_finite())
                .map(|p| (p.0, p.2.clamp(y0, y1)))
                .chain(points.iter().rev().filter(|p| p.3.is_finite()).map(|p| (p.0, p.3.clamp(y0, y1))))
                .collect();
            if band.len() >= 3 {
                c.draw_series(std::iter::once(Polygon::new(band, colour.mix(0.2).filled()))).map_err(plot_err)?;
            }
            c.draw_series(LineSeries::new(points.iter().map(|p| (p.0, p.1)), colour.stroke_width(2))).map_err(plot_err)?;
            c.draw_series(points.iter().map(|p| Circle::new((p.0, p.1), 4, colour.filled()))).map_err(plot_err)?;
        }
        Ok(())
    }
}
