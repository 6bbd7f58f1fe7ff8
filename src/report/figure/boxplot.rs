//! Box plots by group: median, quartiles and whiskers at 1.5 IQR (Tukey); groups of up to 60
//! values also show every value as a point, so small samples stay visible.

use super::{Figure, no_data, padded, plot_err, series_colour};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

pub struct BoxPlot {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// (group label, values); a group may be empty.
    pub groups: Vec<(String, Vec<f64>)>,
}

impl Figure for BoxPlot {
    fn size(&self) -> (u32, u32) {
        let w = (140 + 100 * self.groups.len() as u32).clamp(420, 1100);
        (w, 320 + super::title_height(&self.title, w))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let all: Vec<f64> = self
            .groups
            .iter()
            .flat_map(|g| g.1.iter().copied())
            .filter(|v| v.is_finite())
            .collect();
        if self.groups.is_empty() || all.is_empty() {
            return no_data(root, &self.title);
        }
        let (y0, y1) = padded(
            all.iter().copied().fold(f64::INFINITY, f64::min),
            all.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        );
        let n = self.groups.len();
        let labels: Vec<String> = self
            .groups
            .iter()
            .map(|g| format!("{} (n={})", g.0, g.1.len()))
            .collect();
        let area = super::titled(root, &self.title)?;
        let mut c = ChartBuilder::on(&area)
            .margin(10)
            .x_label_area_size(46)
            .y_label_area_size(super::value_axis_width(y0, y1))
            .build_cartesian_2d(0f64..n as f64, y0..y1)
            .map_err(plot_err)?;
        super::house_mesh!(c.configure_mesh())
            .disable_x_mesh()
            .y_label_formatter(&|v| super::tick(*v))
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .x_labels(2 * n + 1)
            .x_label_formatter(&|x| {
                let i = x.floor() as usize;
                if (x - i as f64 - 0.5).abs() < 1e-6 {
                    labels.get(i).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(plot_err)?;
        let colour = series_colour(0);
        let line = |pts: Vec<(f64, f64)>| PathElement::new(pts, colour.stroke_width(2));
        for (i, (_, values)) in self.groups.iter().enumerate() {
            let mut v: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
            if v.is_empty() {
                continue;
            }
            v.sort_by(f64::total_cmp);
            let f = five_numbers(&v);
            let (x, half, cap) = (i as f64 + 0.5, 0.2, 0.1);
            c.draw_series([Rectangle::new(
                [(x - half, f.q1), (x + half, f.q3)],
                colour.stroke_width(2),
            )])
            .map_err(plot_err)?;
            c.draw_series([
                line(vec![(x - half, f.median), (x + half, f.median)]),
                line(vec![(x, f.q3), (x, f.high)]),
                line(vec![(x, f.q1), (x, f.low)]),
                line(vec![(x - cap, f.high), (x + cap, f.high)]),
                line(vec![(x - cap, f.low), (x + cap, f.low)]),
            ])
            .map_err(plot_err)?;
            if v.len() <= 60 {
                c.draw_series(
                    v.iter()
                        .map(|&y| Circle::new((x + 0.28, y), 3, BLACK.mix(0.6).filled())),
                )
                .map_err(plot_err)?;
            }
        }
        Ok(())
    }
}

/// Median, quartiles (linear interpolation, as numpy's default) and Tukey whiskers: the most
/// extreme values within 1.5 IQR of the box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FiveNumbers {
    pub low: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub high: f64,
}

/// The five numbers of sorted, non-empty `v`.
pub fn five_numbers(v: &[f64]) -> FiveNumbers {
    let q = |p: f64| {
        let h = p * (v.len() - 1) as f64;
        let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
        v[lo] + (h - lo as f64) * (v[hi] - v[lo])
    };
    let (q1, median, q3) = (q(0.25), q(0.5), q(0.75));
    let iqr = q3 - q1;
    let low = v
        .iter()
        .copied()
        .find(|&x| x >= q1 - 1.5 * iqr)
        .unwrap_or(v[0]);
    let high = v
        .iter()
        .rev()
        .copied()
        .find(|&x| x <= q3 + 1.5 * iqr)
        .unwrap_or(v[v.len() - 1]);
    FiveNumbers {
        low,
        q1,
        median,
        q3,
        high,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_numbers_match_numpy_and_tukey() {
        // numpy.percentile([1, 2, 3, 4, 5, 6, 7, 100], [25, 50, 75]) = [2.75, 4.5, 6.25];
        // IQR 3.5, upper fence 11.5: the whisker stops at 7, 100 is an outlier.
        let f = five_numbers(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 100.0]);
        assert_eq!((f.q1, f.median, f.q3), (2.75, 4.5, 6.25));
        assert_eq!((f.low, f.high), (1.0, 7.0));
        let one = five_numbers(&[3.0]);
        assert_eq!(
            (one.low, one.q1, one.median, one.q3, one.high),
            (3.0, 3.0, 3.0, 3.0, 3.0)
        );
    }
}
