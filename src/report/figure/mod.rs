//! Figures, drawn with plotters to PNG and SVG. Each figure kind is its own small file with a
//! plain data struct and a `draw` over any plotters backend; none of them computes statistics
//! (they get values and intervals ready-made). Text uses the bundled DejaVu Sans, so rendering
//! needs no system font.

pub mod bars;
pub mod boxplot;
pub mod curve;
pub mod heatmap;
pub mod matrix;
pub mod profile;
pub mod ranked;

use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Once;

static FONT: Once = Once::new();

/// Registers the bundled font as "sans-serif" (once per process).
pub fn register_fonts() {
    FONT.call_once(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, include_bytes!("../../../assets/fonts/DejaVuSans.ttf"))
            .unwrap_or_else(|_| panic!("the bundled font is valid"));
    });
}

/// A figure that can draw itself on any backend.
pub trait Figure {
    /// Pixel size (PNG) and user units (SVG).
    fn size(&self) -> (u32, u32);
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static;
}

/// Maps a plotters error into anyhow.
pub fn plot_err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("drawing failed: {e:?}")
}

/// Writes `fig` as `<stem>.png` and `<stem>.svg` in `dir`; returns both paths.
pub fn write_figure(dir: &Path, stem: &str, fig: &impl Figure) -> Result<Vec<PathBuf>> {
    register_fonts();
    std::fs::create_dir_all(dir)?;
    let png = dir.join(format!("{stem}.png"));
    let svg = dir.join(format!("{stem}.svg"));
    {
        let root = BitMapBackend::new(&png, fig.size()).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        fig.draw(&root)?;
        root.present().map_err(plot_err)?;
    }
    {
        let root = SVGBackend::new(&svg, fig.size()).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        fig.draw(&root)?;
        root.present().map_err(plot_err)?;
    }
    Ok(vec![png, svg])
}

/// A colour-blind-safe palette (Okabe-Ito) for series.
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
    RGBColor(0, 0, 0),
];

pub fn series_colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// A sequential colour scale (light yellow to dark blue) for t in [0, 1].
pub fn sequential(t: f64) -> RGBColor {
    let stops = [(255.0, 255.0, 204.0), (161.0, 218.0, 180.0), (65.0, 182.0, 196.0), (44.0, 127.0, 184.0), (37.0, 52.0, 148.0)];
    let t = if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.0 };
    let x = t * (stops.len() - 1) as f64;
    let i = (x.floor() as usize).min(stops.len() - 2);
    let f = x - i as f64;
    let (a, b) = (stops[i], stops[i + 1]);
    let mix = |p: f64, q: f64| (p + (q - p) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// A text colour readable on `background`.
pub fn text_on(background: RGBColor) -> RGBColor {
    let l = 0.299 * background.0 as f64 + 0.587 * background.1 as f64 + 0.114 * background.2 as f64;
    if l > 140.0 { BLACK } else { WHITE }
}

/// A range padded by 5% on each side (or around the value when it is a single point).
pub fn padded(lo: f64, hi: f64) -> (f64, f64) {
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-12 {
        let pad = if lo.abs() > 1e-12 { lo.abs() * 0.1 } else { 1.0 };
        return (lo - pad, hi + pad);
    }
    let pad = (hi - lo) * 0.05;
    (lo - pad, hi + pad)
}

/// A width that fits a title of this many characters at the caption size (at least `min`).
pub fn fit_title(min: u32, title: &str) -> u32 {
    min.max(title.chars().count() as u32 * 12 + 60)
}

/// The width kept at the right of a chart for its legend.
pub const LEGEND_WIDTH: u32 = 170;

/// Splits off a legend column on the right and draws the legend there: a heading and one
/// swatch per series. Returns the area left for the chart.
pub fn with_legend<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, heading: &str, items: &[(String, RGBColor)]) -> Result<DrawingArea<DB, Shift>>
where
    DB::ErrorType: 'static,
{
    let (w, _) = root.dim_in_pixel();
    let (chart, legend) = root.split_horizontally(w - LEGEND_WIDTH);
    legend.draw(&Text::new(heading.to_string(), (8, 60), ("sans-serif", 15).into_font())).map_err(plot_err)?;
    for (i, (name, colour)) in items.iter().enumerate() {
        let y = 86 + 24 * i as i32;
        legend.draw(&Rectangle::new([(8, y), (26, y + 14)], colour.filled())).map_err(plot_err)?;
        let label: String = name.chars().take(18).collect();
        legend.draw(&Text::new(label, (34, y), ("sans-serif", 14).into_font())).map_err(plot_err)?;
    }
    Ok(chart)
}

/// A square grid chart (heatmaps, matrices): unit cells, cell (row r, column c) at
/// x = c, y = n - 1 - r so row 0 is on top.
pub type GridChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>>;

/// Fills grid cell (r, c) of an n x n grid with `fill`, outlines it in white, and writes
/// `text` centred in a readable colour.
pub fn grid_cell<DB: DrawingBackend>(chart: &mut GridChart<'_, DB>, n: usize, r: usize, c: usize, fill: RGBColor, text: Option<String>, font_size: u32) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let (x, y) = (c as f64, (n - 1 - r) as f64);
    chart.draw_series(std::iter::once(Rectangle::new([(x, y), (x + 1.0, y + 1.0)], fill.filled()))).map_err(plot_err)?;
    chart.draw_series(std::iter::once(Rectangle::new([(x, y), (x + 1.0, y + 1.0)], WHITE.stroke_width(1)))).map_err(plot_err)?;
    if let Some(text) = text {
        use plotters::style::text_anchor::{HPos, Pos, VPos};
        let style = ("sans-serif", font_size).into_font().color(&text_on(fill)).pos(Pos::new(HPos::Center, VPos::Center));
        chart.draw_series(std::iter::once(Text::new(text, (x + 0.5, y + 0.5), style))).map_err(plot_err)?;
    }
    Ok(())
}

/// Draws a centred "no data" note, for figures whose data is empty.
pub fn no_data<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, title: &str) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let (w, h) = root.dim_in_pixel();
    root.draw(&Text::new(title.to_string(), (20, 20), ("sans-serif", 22).into_font())).map_err(plot_err)?;
    root.draw(&Text::new("(no data)", (w as i32 / 2 - 40, h as i32 / 2), ("sans-serif", 18).into_font().color(&RGBColor(120, 120, 120))))
        .map_err(plot_err)?;
    Ok(())
}

#[cfg(test)]
mod tests;
