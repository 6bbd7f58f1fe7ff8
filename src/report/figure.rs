//! Figures, drawn with plotters to PNG and SVG. Each figure kind is one function over any
//! plotters backend; text uses the bundled DejaVu Sans, so rendering needs no system font.

use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Once;

static FONT: Once = Once::new();

/// Registers the bundled font as "sans-serif" (once per process).
pub fn register_fonts() {
    FONT.call_once(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, include_bytes!("../../assets/fonts/DejaVuSans.ttf"))
            .unwrap_or_else(|_| panic!("the bundled font is valid"));
    });
}

/// One bar: a label, a value and its interval, all in the axis unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Labels of a horizontal bar chart.
pub struct BarChart<'a> {
    pub title: &'a str,
    pub value_axis: &'a str,
    pub bars: &'a [Bar],
    /// The axis range (e.g. 0..100 for a score in percent).
    pub range: (f64, f64),
}

fn draw_bars<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, chart: &BarChart) -> Result<()>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(|e| anyhow!("{e:?}"))?;
    // Bars top-down in the order given: the slice coordinate grows upwards, so reverse it.
    let bars: Vec<&Bar> = chart.bars.iter().rev().collect();
    let labels: Vec<String> = if bars.is_empty() { vec!["(no data)".to_string()] } else { bars.iter().map(|b| b.label.clone()).collect() };
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(4);
    let mut c = ChartBuilder::on(&root)
        .caption(chart.title, ("sans-serif", 22))
        .margin(14)
        .margin_right(36)
        .x_label_area_size(48)
        .y_label_area_size((longest as u32 * 9 + 16).clamp(60, 420))
        .build_cartesian_2d(chart.range.0..chart.range.1, labels[..].into_segmented())
        .map_err(|e| anyhow!("{e:?}"))?;
    c.configure_mesh()
        .disable_y_mesh()
        .x_desc(chart.value_axis)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_labels(labels.len())
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(l) => l.to_string(),
            _ => String::new(),
        })
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(|e| anyhow!("{e:?}"))?;
    let colour = RGBColor(70, 120, 180);
    let segment_end = |i: usize| if i + 1 < labels.len() { SegmentValue::Exact(&labels[i + 1]) } else { SegmentValue::Last };
    c.draw_series(bars.iter().enumerate().map(|(i, b)| {
        let mut r = Rectangle::new([(chart.range.0, SegmentValue::Exact(&labels[i])), (b.value, segment_end(i))], colour.mix(0.75).filled());
        r.set_margin(5, 5, 0, 0);
        r
    }))
    .map_err(|e| anyhow!("{e:?}"))?;
    c.draw_series(bars.iter().enumerate().map(|(i, b)| {
        ErrorBar::new_horizontal(SegmentValue::CenterOf(&labels[i]), b.lo, b.value, b.hi, BLACK.stroke_width(2), 10)
    }))
    .map_err(|e| anyhow!("{e:?}"))?;
    root.present().map_err(|e| anyhow!("{e:?}"))?;
    Ok(())
}

/// Writes the chart as `<stem>.png` and `<stem>.svg` in `dir`; returns both paths.
pub fn bar_chart(dir: &Path, stem: &str, chart: &BarChart) -> Result<Vec<PathBuf>> {
    register_fonts();
    std::fs::create_dir_all(dir)?;
    let size = (960u32, 110 + 34 * chart.bars.len().max(1) as u32);
    let png = dir.join(format!("{stem}.png"));
    let svg = dir.join(format!("{stem}.svg"));
    draw_bars(BitMapBackend::new(&png, size).into_drawing_area(), chart)?;
    draw_bars(SVGBackend::new(&svg, size).into_drawing_area(), chart)?;
    Ok(vec![png, svg])
}
