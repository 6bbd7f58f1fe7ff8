//! Profile plots as in the GoTools report: over problems, a normalised histogram of the ratio
//! new / baseline in percent, with a second panel zoomed on the central 90% of the ratios and
//! a line at 100% (no change). A panel whose ratios span a factor of 10 or more has a log axis
//! with bins equally wide on it (the report's panels are linear; ours over GoTools' files ran
//! from 21% to 8,986%, two thirds of them in one bar on a linear axis).

use super::{Figure, no_data, plot_err, series_colour};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::prelude::*;

pub struct Profile {
    pub title: String,
    pub x_label: String,
    /// Ratios new / baseline, in percent, one per problem.
    pub ratios: Vec<f64>,
    pub bins: usize,
}

fn quantile(sorted: &[f64], p: f64) -> f64 {
    sorted[((p * (sorted.len() - 1) as f64).round() as usize).min(sorted.len() - 1)]
}

/// Whether a panel from `lo` to `hi` takes a log axis: ratios spanning a factor of 10 or more
/// (one problem at 8,000% beside most near 100% leaves a linear axis one crowded bar).
pub(super) fn log_panel(lo: f64, hi: f64) -> bool {
    lo > 0.0 && hi / lo >= 10.0
}

/// The histogram of the ratios from `lo` to `hi` in `bins` bins, equally wide on the panel's
/// axis (in ratio on a log axis): the bins' edges (`bins + 1`) and the count in each.
pub(super) fn histogram(
    ratios: &[f64],
    lo: f64,
    hi: f64,
    bins: usize,
    log: bool,
) -> (Vec<f64>, Vec<usize>) {
    let at = |v: f64| if log { v.ln() } else { v };
    let back = |u: f64| if log { u.exp() } else { u };
    let (a, b) = (at(lo), at(hi));
    let width = (b - a) / bins as f64;
    // The ends exactly `lo` and `hi` (not through ln and exp), which say the panel's axis.
    let edges = (0..=bins)
        .map(|i| match i {
            0 => lo,
            i if i == bins => hi,
            i => back(a + width * i as f64),
        })
        .collect();
    let mut counts = vec![0usize; bins];
    for r in ratios.iter().filter(|r| **r >= lo && **r <= hi) {
        counts[(((at(*r) - a) / width) as usize).min(bins - 1)] += 1;
    }
    (edges, counts)
}

fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    x_label: &str,
    ratios: &[f64],
    lo: f64,
    hi: f64,
    bins: usize,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let (lo, hi) = if hi - lo < 1e-9 {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo, hi)
    };
    let log = log_panel(lo, hi);
    let (edges, counts) = histogram(ratios, lo, hi, bins, log);
    let total = ratios.len() as f64;
    if log {
        draw_bars(
            area,
            (lo..hi).log_scale(),
            &edges,
            &counts,
            total,
            title,
            x_label,
        )
    } else {
        draw_bars(area, lo..hi, &edges, &counts, total, title, x_label)
    }
}

/// Draws the bins (`edges`, `counts` of `total` ratios) on the x axis `xr`, linear or log.
fn draw_bars<DB, X>(
    area: &DrawingArea<DB, Shift>,
    xr: X,
    edges: &[f64],
    counts: &[usize],
    total: f64,
    title: &str,
    x_label: &str,
) -> Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let top = counts.iter().map(|&c| c as f64 / total).fold(0.0, f64::max) * 1.1 + 1e-9;
    let (lo, hi) = (edges[0], edges[edges.len() - 1]);
    let log = log_panel(lo, hi);
    let mut c = ChartBuilder::on(area)
        .caption(title, super::font(super::text::AXIS))
        .margin(10)
        .x_label_area_size(48)
        .y_label_area_size(70)
        .build_cartesian_2d(xr, 0f64..top)
        .map_err(plot_err)?;
    // A log axis labels 1, 2 and 5 times a power of ten, or only the powers of ten over more
    // than two decades (1000 and 2000 ran into each other over 10% to 8,986%).
    let decades = (hi / lo).log10();
    let power_of_ten = |v: f64| (v.log10() - v.log10().round()).abs() < 1e-9;
    let x_ticks = |v: &f64| {
        if log && (!super::on_log_tick(*v) || (decades > 2.0 && !power_of_ten(*v))) {
            String::new()
        } else {
            super::tick(*v)
        }
    };
    super::house_mesh!(c.configure_mesh())
        .x_desc(x_label)
        .y_desc("fraction of problems")
        .x_labels(if log { 20 } else { 6 })
        .x_label_formatter(&x_ticks)
        .y_label_formatter(&|v| super::tick(*v))
        .draw()
        .map_err(plot_err)?;
    let colour = series_colour(0);
    c.draw_series(
        counts
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, &n)| {
                Rectangle::new(
                    [(edges[i], 0.0), (edges[i + 1], n as f64 / total)],
                    colour.mix(0.75).filled(),
                )
            }),
    )
    .map_err(plot_err)?;
    if (lo..=hi).contains(&100.0) {
        c.draw_series(std::iter::once(PathElement::new(
            vec![(100.0, 0.0), (100.0, top)],
            super::REFERENCE.stroke_width(2),
        )))
        .map_err(plot_err)?;
    }
    Ok(())
}

impl Figure for Profile {
    fn size(&self) -> (u32, u32) {
        (900, 360 + super::title_height(&self.title, 900))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let mut r: Vec<f64> = self
            .ratios
            .iter()
            .copied()
            .filter(|x| x.is_finite())
            .collect();
        if r.is_empty() {
            return no_data(root, &self.title);
        }
        r.sort_by(f64::total_cmp);
        let titled = super::titled(root, &self.title)?;
        let (w, _) = titled.dim_in_pixel();
        let (left, right) = titled.split_horizontally(w / 2);
        let bins = self.bins.max(1);
        let (mut min, max) = (r[0].min(100.0), r[r.len() - 1].max(100.0));
        // A log axis is labelled from the first power of ten in it: the whole panel starts at the
        // power of ten below when that is near (14% starts at 10%, so 20% and 50% are labelled).
        let decade = 10f64.powf(min.log10().floor());
        if log_panel(min, max) && min / decade < 3.2 {
            min = decade;
        }
        panel(
            &left,
            &format!("all {} problems", r.len()),
            &self.x_label,
            &r,
            min,
            max,
            bins,
        )?;
        let (q05, q95) = (quantile(&r, 0.05), quantile(&r, 0.95));
        panel(
            &right,
            "zoom: central 90% of the ratios",
            &self.x_label,
            &r,
            q05,
            q95,
            bins,
        )?;
        Ok(())
    }
}
