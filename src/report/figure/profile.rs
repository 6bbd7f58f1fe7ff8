//! Profile plots as in the GoTools report: over problems, a normalised histogram of the ratio
//! new / baseline in percent, with a second panel zoomed on the central 90% of the ratios and
//! a line at 100% (no change).

use super::{Figure, no_data, plot_err, series_colour};
use anyhow::Result;
use plotters::coord::Shift;
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
    let width = (hi - lo) / bins as f64;
    let mut counts = vec![0usize; bins];
    let inside: Vec<f64> = ratios
        .iter()
        .copied()
        .filter(|r| *r >= lo && *r <= hi)
        .collect();
    for r in &inside {
        counts[(((r - lo) / width) as usize).min(bins - 1)] += 1;
    }
    let total = ratios.len() as f64;
    let top = counts.iter().map(|&c| c as f64 / total).fold(0.0, f64::max) * 1.1 + 1e-9;
    let mut c = ChartBuilder::on(area)
        .caption(title, super::font(super::text::AXIS))
        .margin(10)
        .x_label_area_size(48)
        .y_label_area_size(70)
        .build_cartesian_2d(lo..hi, 0f64..top)
        .map_err(plot_err)?;
    super::house_mesh!(c.configure_mesh())
        .x_desc(x_label)
        .y_desc("fraction of problems")
        .x_labels(6)
        .x_label_formatter(&|v| super::tick(*v))
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
                let x = lo + width * i as f64;
                Rectangle::new(
                    [(x, 0.0), (x + width, n as f64 / total)],
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
        let (min, max) = (r[0].min(100.0), r[r.len() - 1].max(100.0));
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
