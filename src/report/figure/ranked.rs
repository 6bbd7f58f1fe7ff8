//! Horizontal bars in a given order (a ranking), each with an interval whisker.

use super::{Figure, house_mesh, no_data, plot_err, text, title_height, titled};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One bar: a label, a value and its interval, all in the axis unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Bars top-down in the order given.
pub struct RankedBars {
    pub title: String,
    pub value_axis: String,
    pub bars: Vec<Bar>,
    /// The axis range (e.g. 0..100 for a score in percent).
    pub range: (f64, f64),
    /// Dashed reference lines across the bars (50 for a score in %).
    pub lines: Vec<f64>,
    /// What the labels are, beside them (empty for none: agents' names say what they are;
    /// "50" and "200" need "max simulations").
    pub key_axis: String,
}

impl RankedBars {
    /// The width of the label column, from the longest label.
    fn label_width(&self) -> u32 {
        let longest = self
            .bars
            .iter()
            .map(|b| b.label.chars().count())
            .max()
            .unwrap_or(4);
        let key = if self.key_axis.is_empty() {
            0.0
        } else {
            text::AXIS * 1.6 + 10.0
        };
        (longest as f64 * text::TICK * 0.6 + 16.0).clamp(40.0, 320.0) as u32 + key as u32
    }
}

impl Figure for RankedBars {
    fn size(&self) -> (u32, u32) {
        let w = 500 + self.label_width();
        // Tall enough for the key's name, written upwards beside the labels.
        let key = (self.key_axis.chars().count() as f64 * text::AXIS * 0.6) as u32 + 60;
        let bars = (70 + 24 * self.bars.len().max(1) as u32).max(key);
        (w, bars + title_height(&self.title, w))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        if self.bars.is_empty() {
            return no_data(root, &self.title);
        }
        // The slice coordinate grows upwards, so reverse the bars to draw the first on top.
        let bars: Vec<&Bar> = self.bars.iter().rev().collect();
        let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
        let area = titled(root, &self.title)?;
        let mut c = ChartBuilder::on(&area)
            .margin(10)
            .margin_right(24)
            .x_label_area_size(46)
            .y_label_area_size(self.label_width())
            .build_cartesian_2d(self.range.0..self.range.1, labels[..].into_segmented())
            .map_err(plot_err)?;
        let mut mesh = c.configure_mesh();
        if !self.key_axis.is_empty() {
            mesh.y_desc(self.key_axis.as_str());
        }
        house_mesh!(mesh)
            .disable_y_mesh()
            .x_desc(self.value_axis.as_str())
            // At most 6 values along the axis: ten of 5 digits ran together (0 to 90000).
            .x_labels(6)
            .x_label_formatter(&|v| super::axis_tick(*v, self.range.0, self.range.1))
            .y_labels(labels.len())
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(l) => l.to_string(),
                _ => String::new(),
            })
            .draw()
            .map_err(plot_err)?;
        let colour = super::series_colour(0);
        let segment_end = |i: usize| {
            if i + 1 < labels.len() {
                SegmentValue::Exact(&labels[i + 1])
            } else {
                SegmentValue::Last
            }
        };
        c.draw_series(bars.iter().enumerate().map(|(i, b)| {
            // Bars grow from 0 (or from the axis edge when 0 is outside the range).
            let base = 0f64.clamp(self.range.0, self.range.1);
            let mut r = Rectangle::new(
                [
                    (base, SegmentValue::Exact(&labels[i])),
                    (b.value, segment_end(i)),
                ],
                colour.mix(0.7).filled(),
            );
            r.set_margin(5, 5, 0, 0);
            r
        }))
        .map_err(plot_err)?;
        c.draw_series(bars.iter().enumerate().map(|(i, b)| {
            ErrorBar::new_horizontal(
                SegmentValue::CenterOf(&labels[i]),
                b.lo,
                b.value,
                b.hi,
                BLACK.stroke_width(1),
                6,
            )
        }))
        .map_err(plot_err)?;
        for x in self
            .lines
            .iter()
            .filter(|x| **x >= self.range.0 && **x <= self.range.1)
        {
            let top = SegmentValue::Last;
            c.draw_series(DashedLineSeries::new(
                [(*x, SegmentValue::Exact(&labels[0])), (*x, top)],
                6,
                4,
                super::REFERENCE.stroke_width(1),
            ))
            .map_err(plot_err)?;
        }
        Ok(())
    }
}
