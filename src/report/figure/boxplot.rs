//! Box plots by group: median, quartiles and whiskers at 1.5 IQR (Tukey); groups of up to 60
//! values also show every value as a point, so small samples stay visible.

use super::{Figure, fit_title, no_data, padded, plot_err, series_colour};
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
        (fit_title((220 + 110 * self.groups.len() as u32).clamp(560, 1600), &self.title), 560)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let all: Vec<f64> = self.groups.iter().flat_map(|g| g.1.iter().copied()).filter(|v| v.is_finite()).collect();
        if self.groups.is_empty() || all.is_empty() {
            return no_data(root, &self.title);
        }
        let (y0, y1) = padded(all.iter().copied().fold(f64::INFINITY, f64::min), all.iter().copied().fold(f64::NEG_INFINITY, f64::max));
        let labels: Vec<String> = self.groups.iter().map(|g| format!("{} (n={})", g.0, g.1.len())).collect();
        let mut c = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 22))
            .margin(14)
            .x_label_area_size(56)
            .y_label_area_size(64)
            .build_cartesian_2d(labels[..].into_segmented(), y0 as f32..y1 as f32)
            .map_err(plot_err)?;
        c.configure_mesh()
            .disable_x_mesh()
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(l) => l.to_string(),
                _ => String::new(),
            })
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 16))
            .draw()
            .map_err(plot_err)?;
        let colour = series_colour(0);
        for (i, (_, values)) in self.groups.iter().enumerate() {
            let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
            if finite.is_empty() {
                continue;
            }
            let q = Quartiles::new(&finite);
            c.draw_series(std::iter::once(Boxplot::new_vertical(SegmentValue::CenterOf(&labels[i]), &q).width(40).whisker_width(0.6).style(colour.stroke_width(2))))
                .map_err(plot_err)?;
            if finite.len() <= 60 {
                c.draw_series(finite.iter().map(|&v| Circle::new((SegmentValue::CenterOf(&labels[i]), v as f32), 3, BLACK.mix(0.6).filled())))
                    .map_err(plot_err)?;
            }
        }
        Ok(())
    }
}
