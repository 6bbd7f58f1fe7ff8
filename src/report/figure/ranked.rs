//! Horizontal bars in a given order (a ranking), each with an interval whisker.

use super::{Figure, fit_title, no_data, plot_err};
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
}

impl Figure for RankedBars {
    fn size(&self) -> (u32, u32) {
        (fit_title(960, &self.title), 110 + 34 * self.bars.len().max(1) as u32)
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
        let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(4);
        let mut c = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 22))
            .margin(14)
            .margin_right(36)
            .x_label_area_size(48)
            .y_label_area_size((longest as u32 * 9 + 16).clamp(60, 420))
            .build_cartesian_2d(self.range.0..self.range.1, labels[..].into_segmented())
            .map_err(plot_err)?;
        c.configure_mesh()
            .disable_y_mesh()
            .x_desc(self.value_axis.as_str())
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_labels(labels.len())
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(l) => l.to_string(),
                _ => String::new(),
            })
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 16))
            .draw()
            .map_err(plot_err)?;
        let colour = super::series_colour(0);
        let segment_end = |i: usize| if i + 1 < labels.len() { SegmentValue::Exact(&labels[i + 1]) } else { SegmentValue::Last };
        c.draw_series(bars.iter().enumerate().map(|(i, b)| {
            // Bars grow from 0 (or from the axis edge when 0 is outside the range).
            let base = 0f64.clamp(self.range.0, self.range.1);
            let mut r = Rectangle::new([(base, SegmentValue::Exact(&labels[i])), (b.value, segment_end(i))], colour.mix(0.7).filled());
            r.set_margin(5, 5, 0, 0);
            r
        }))
        .map_err(plot_err)?;
        c.draw_series(bars.iter().enumerate().map(|(i, b)| ErrorBar::new_horizontal(SegmentValue::CenterOf(&labels[i]), b.lo, b.value, b.hi, BLACK.stroke_width(2), 10)))
            .map_err(plot_err)?;
        Ok(())
    }
}
