//! Curves with an interval band: a mean (or any estimate) against a numeric x, one line per
//! series, the band between the interval bounds (learning curves, score against budget, a
//! numeric sweep). Either axis may be logarithmic; reference lines (50%) are dashed.

use super::{
    Figure, house_mesh, legend_width, no_data, padded, plot_err, series_style, tick, title_height,
    titled, with_legend,
};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
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
    pub log_x: bool,
    pub log_y: bool,
    /// Dashed horizontal reference lines (50 for a score in %).
    pub hlines: Vec<f64>,
}

impl Curves {
    /// A plain curve figure: linear axes, no reference line.
    pub fn new(
        title: String,
        x_label: String,
        y_label: String,
        series: Vec<(String, Vec<Point>)>,
        series_label: String,
    ) -> Curves {
        Curves {
            title,
            x_label,
            y_label,
            series,
            y_range: None,
            series_label,
            log_x: false,
            log_y: false,
            hlines: vec![],
        }
    }

    /// A point the axes can show: finite, and positive on a log axis.
    fn drawable(&self, p: &Point) -> bool {
        p.0.is_finite()
            && p.1.is_finite()
            && (!self.log_x || p.0 > 0.0)
            && (!self.log_y || p.1 > 0.0)
    }

    /// A legend for two series or more; one series is named by the value axis and the title.
    fn has_legend(&self) -> bool {
        self.series.len() > 1
    }

    fn legend(&self) -> u32 {
        if self.has_legend() {
            legend_width(
                &self.series_label,
                &self.series.iter().map(|s| s.0.clone()).collect::<Vec<_>>(),
            )
        } else {
            0
        }
    }
}

impl Figure for Curves {
    fn size(&self) -> (u32, u32) {
        let w = 500 + self.legend();
        let items = if self.has_legend() {
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
        let pts: Vec<Point> = self
            .series
            .iter()
            .flat_map(|s| s.1.iter().copied())
            .filter(|p| self.drawable(p))
            .collect();
        if pts.is_empty() {
            return no_data(root, &self.title);
        }
        let xs = (
            pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min),
            pts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max),
        );
        let (y0, y1) = self.y_range.unwrap_or_else(|| {
            let lo = pts
                .iter()
                .map(|p| {
                    if p.2.is_finite() && (!self.log_y || p.2 > 0.0) {
                        p.2
                    } else {
                        p.1
                    }
                })
                .fold(f64::INFINITY, f64::min);
            let hi = pts
                .iter()
                .map(|p| if p.3.is_finite() { p.3 } else { p.1 })
                .fold(f64::NEG_INFINITY, f64::max);
            // Reference lines near the data are part of the picture.
            let (lo, hi) = self
                .hlines
                .iter()
                .filter(|h| **h >= lo - (hi - lo) * 0.5 && **h <= hi + (hi - lo) * 0.5)
                .fold((lo, hi), |(a, b), h| (a.min(*h), b.max(*h)));
            if self.log_y {
                (lo / 1.15, hi * 1.15)
            } else {
                padded(lo, hi)
            }
        });
        let (x0, x1) = if self.log_x {
            (xs.0 / 1.15, xs.1 * 1.15)
        } else {
            padded(xs.0, xs.1)
        };
        let whole_x = pts.iter().all(|p| (p.0 - p.0.round()).abs() < 1e-9);
        let titled = titled(root, &self.title)?;
        let area = if self.has_legend() {
            let items: Vec<(String, super::Swatch)> = self
                .series
                .iter()
                .enumerate()
                .map(|(i, s)| (s.0.clone(), super::Swatch::Line(series_style(i))))
                .collect();
            with_legend(&titled, &self.series_label, &items)?
        } else {
            titled
        };
        // A log x axis over a sweep of a few values is labelled at those values (25, 50, 100...),
        // not at the decades plotters would pick.
        let mut xs_seen: Vec<f64> = pts.iter().map(|p| p.0).collect();
        xs_seen.sort_by(f64::total_cmp);
        xs_seen.dedup();
        let at = (self.log_x && xs_seen.len() <= 12).then_some(xs_seen);
        match (self.log_x, self.log_y) {
            (false, false) => self.plot(&area, x0..x1, y0..y1, whole_x, (y0, y1), at),
            (true, false) => self.plot(&area, (x0..x1).log_scale(), y0..y1, whole_x, (y0, y1), at),
            (false, true) => self.plot(&area, x0..x1, (y0..y1).log_scale(), whole_x, (y0, y1), at),
            (true, true) => self.plot(
                &area,
                (x0..x1).log_scale(),
                (y0..y1).log_scale(),
                whole_x,
                (y0, y1),
                at,
            ),
        }
    }
}

impl Curves {
    fn plot<DB, X, Y>(
        &self,
        area: &DrawingArea<DB, Shift>,
        xr: X,
        yr: Y,
        whole_x: bool,
        (y0, y1): (f64, f64),
        x_ticks_at: Option<Vec<f64>>,
    ) -> Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static,
        X: AsRangedCoord<Value = f64>,
        Y: AsRangedCoord<Value = f64>,
        X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
        Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let mut c = ChartBuilder::on(area)
            .margin(10)
            .margin_right(20)
            .x_label_area_size(46)
            .y_label_area_size(super::value_axis_width(y0, y1))
            .build_cartesian_2d(xr, yr)
            .map_err(plot_err)?;
        // A log axis labels 1, 2 and 5 times a power of ten only (its other ticks stay unlabelled).
        let on_log = super::on_log_tick;
        let x_ticks = |v: &f64| {
            if (whole_x && (v - v.round()).abs() > 1e-9) || (self.log_x && !on_log(*v)) {
                String::new()
            } else {
                tick(*v)
            }
        };
        let y_ticks = |v: &f64| {
            if self.log_y && !on_log(*v) {
                String::new()
            } else {
                super::axis_tick(*v, y0, y1)
            }
        };
        let none = |_: &f64| String::new();
        let mut mesh = c.configure_mesh();
        house_mesh!(mesh)
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .y_label_formatter(&y_ticks);
        if x_ticks_at.is_some() {
            mesh.disable_x_mesh().x_label_formatter(&none);
        } else {
            mesh.x_label_formatter(&x_ticks);
        }
        mesh.draw().map_err(plot_err)?;
        if let Some(ticks) = &x_ticks_at {
            use plotters::style::text_anchor::{HPos, Pos, VPos};
            let base = area.get_base_pixel();
            let style = super::font(super::text::TICK)
                .into_text_style(area)
                .pos(Pos::new(HPos::Center, VPos::Top));
            for &x in ticks {
                c.draw_series(LineSeries::new(
                    [(x, y0), (x, y1)],
                    super::GRID.stroke_width(1),
                ))
                .map_err(plot_err)?;
                let (px, py) = c.backend_coord(&(x, y0));
                area.draw(&PathElement::new(
                    vec![(px - base.0, py - base.1), (px - base.0, py - base.1 + 5)],
                    super::AXIS_COLOUR.stroke_width(1),
                ))
                .map_err(plot_err)?;
                area.draw(&Text::new(
                    tick(x),
                    (px - base.0, py - base.1 + 8),
                    style.clone(),
                ))
                .map_err(plot_err)?;
            }
        }
        let (xa, xb) = {
            let r = c.x_range();
            (r.start, r.end)
        };
        for h in self.hlines.iter().filter(|h| **h >= y0 && **h <= y1) {
            c.draw_series(DashedLineSeries::new(
                [(xa, *h), (xb, *h)],
                6,
                4,
                super::REFERENCE.stroke_width(1),
            ))
            .map_err(plot_err)?;
        }
        // Several series: no translucent bands (where curves overlap they blend into one
        // colour); each point's interval is a whisker, the series nudged apart along x (a step
        // of 1.2% of the axis, in its own scale) so that whiskers at one x stand side by side.
        // A long series (a learning curve) draws its interval's edges as thin lines instead.
        let several = self.series.len() > 1;
        let nudge = |x: f64, s: usize| {
            if !several {
                return x;
            }
            let step = (s as f64 - (self.series.len() - 1) as f64 / 2.0) * 0.012;
            if self.log_x {
                x * (xb / xa).powf(step)
            } else {
                x + (xb - xa) * step
            }
        };
        for (s, (_, points)) in self.series.iter().enumerate() {
            let style = series_style(s);
            let colour = style.colour;
            let points: Vec<Point> = points
                .iter()
                .copied()
                .filter(|p| self.drawable(p))
                .map(|p| (nudge(p.0, s), p.1, p.2, p.3))
                .collect();
            let clamp = |v: f64| v.clamp(y0, y1);
            let whisker = |p: &Point, width: u32, cap: u32| {
                ErrorBar::new_vertical(
                    p.0,
                    clamp(p.2),
                    p.1,
                    clamp(p.3),
                    colour.stroke_width(width),
                    cap,
                )
            };
            let with_interval: Vec<&Point> = points
                .iter()
                .filter(|p| p.2.is_finite() && p.3.is_finite())
                .collect();
            if several && points.len() <= 40 {
                c.draw_series(with_interval.iter().map(|p| whisker(p, 1, 6)))
                    .map_err(plot_err)?;
            } else if several {
                let edges: [fn(&Point) -> f64; 2] = [|p| p.2, |p| p.3];
                for edge in edges {
                    let line = with_interval.iter().map(|p| (p.0, clamp(edge(p))));
                    c.draw_series(LineSeries::new(line, colour.mix(0.5).stroke_width(1)))
                        .map_err(plot_err)?;
                }
            } else {
                let band: Vec<(f64, f64)> = points
                    .iter()
                    .filter(|p| p.2.is_finite())
                    .map(|p| (p.0, clamp(p.2)))
                    .chain(
                        points
                            .iter()
                            .rev()
                            .filter(|p| p.3.is_finite())
                            .map(|p| (p.0, clamp(p.3))),
                    )
                    .collect();
                if band.len() >= 3 {
                    c.draw_series(std::iter::once(Polygon::new(
                        band,
                        colour.mix(0.18).filled(),
                    )))
                    .map_err(plot_err)?;
                } else if let [p] = with_interval[..]
                    && points.len() == 1
                {
                    c.draw_series(std::iter::once(whisker(p, 2, 8)))
                        .map_err(plot_err)?;
                }
            }
            let line = points.iter().map(|p| (p.0, p.1));
            if style.dashed {
                c.draw_series(DashedLineSeries::new(line, 8, 5, colour.stroke_width(2)))
                    .map_err(plot_err)?;
            } else {
                c.draw_series(LineSeries::new(line, colour.stroke_width(2)))
                    .map_err(plot_err)?;
            }
            // Markers where there are few points; a long series (a learning curve) is its line.
            if points.len() <= 40 {
                for p in &points {
                    super::draw_marker(c.plotting_area(), (p.0, p.1), style, 3)?;
                }
            }
        }
        Ok(())
    }
}
