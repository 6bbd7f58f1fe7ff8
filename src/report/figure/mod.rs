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

use anyhow::{Context, Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Once;

static FONT: Once = Once::new();

/// Registers the bundled font as "sans-serif" (once per process).
pub fn register_fonts() {
    FONT.call_once(|| {
        plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            include_bytes!("../../../assets/fonts/DejaVuSans.ttf"),
        )
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

/// The PNG's resolution, for print. The SVG's user units are CSS pixels (96 to the inch), so a
/// figure of 480 x 320 units is 5 x 3.3 inches, and its PNG is 1500 x 1000 pixels.
pub const PNG_DPI: f64 = 300.0;

/// Writes `fig` as `<stem>.png` (300 dpi), `<stem>.svg` and `<stem>.pdf` in `dir`, at its own
/// size or at `size` (SVG units); returns the three paths. The figure is drawn once, as SVG; the
/// PNG and the PDF are made from that SVG, so the three are the same picture.
pub fn write_figure(dir: &Path, stem: &str, fig: &impl Figure) -> Result<Vec<PathBuf>> {
    write_figure_sized(dir, stem, fig, None)
}

/// `write_figure` at a given size (the file's `width` and `height`).
pub fn write_figure_sized(
    dir: &Path,
    stem: &str,
    fig: &impl Figure,
    size: Option<(u32, u32)>,
) -> Result<Vec<PathBuf>> {
    register_fonts();
    std::fs::create_dir_all(dir)?;
    let size = size.unwrap_or_else(|| fig.size());
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        fig.draw(&root)?;
        root.present().map_err(plot_err)?;
    }
    let paths = ["png", "svg", "pdf"]
        .map(|ext| dir.join(crate::durable::safe_component(&format!("{stem}.{ext}"))));
    let tree = svg_tree(&svg)?;
    std::fs::write(&paths[0], png_of(&tree, PNG_DPI)?)?;
    std::fs::write(&paths[1], &svg)?;
    let pdf = svg2pdf::to_pdf(
        &tree,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions::default(),
    )
    .map_err(|e| anyhow!("writing the PDF of {stem}: {e}"))?;
    std::fs::write(&paths[2], pdf)?;
    Ok(paths.to_vec())
}

/// Parses an SVG as plotters writes it, its "sans-serif" text set in the bundled DejaVu Sans.
fn svg_tree(svg: &str) -> Result<resvg::usvg::Tree> {
    use resvg::usvg;
    static FONTS: std::sync::OnceLock<std::sync::Arc<usvg::fontdb::Database>> =
        std::sync::OnceLock::new();
    let fonts = FONTS.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(include_bytes!("../../../assets/fonts/DejaVuSans.ttf").to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        std::sync::Arc::new(db)
    });
    let options = usvg::Options {
        fontdb: fonts.clone(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).map_err(|e| anyhow!("the figure's SVG does not parse: {e}"))
}

/// The picture as a PNG at `dpi` (its pHYs chunk says so, for page layout programs).
fn png_of(tree: &resvg::usvg::Tree, dpi: f64) -> Result<Vec<u8>> {
    use resvg::tiny_skia;
    let scale = (dpi / 96.0) as f32;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .context("figure too large")?;
    let mut pixmap =
        tiny_skia::Pixmap::new(size.width(), size.height()).context("figure too large")?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, size.width(), size.height());
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let per_metre = (dpi / 0.0254).round() as u32;
        encoder.set_pixel_dims(Some(png::PixelDimensions {
            xppu: per_metre,
            yppu: per_metre,
            unit: png::Unit::Meter,
        }));
        let mut writer = encoder.write_header()?;
        // Opaque (white background), so the premultiplied pixels are the plain ones.
        writer.write_image_data(pixmap.data())?;
    }
    Ok(out)
}

/// Text sizes in SVG units (CSS pixels): at 5 inches wide, a figure shrunk to a 3.3-inch
/// column keeps tick labels near 7 pt and axis labels near 7.5 pt.
pub mod text {
    pub const TITLE: f64 = 16.0;
    pub const AXIS: f64 = 15.0;
    pub const TICK: f64 = 14.0;
    pub const SMALL: f64 = 12.0;
}

/// The font of `px` SVG units (plotters writes a font's size divided by 1.24 into the SVG).
pub fn font(px: f64) -> FontDesc<'static> {
    ("sans-serif", px * 1.24).into_font()
}

/// Grid lines: major lines light grey, no minor lines.
pub const GRID: RGBColor = RGBColor(228, 228, 228);
/// Axis lines and ticks.
pub const AXIS_COLOUR: RGBColor = RGBColor(80, 80, 80);
/// Reference lines (50%, a baseline): dashed, mid grey.
pub const REFERENCE: RGBColor = RGBColor(120, 120, 120);

/// Applies the house style to a mesh (`configure_mesh()`): light major grid, no minor grid,
/// grey axes, readable tick and axis-label fonts.
#[macro_export]
macro_rules! house_mesh {
    ($mesh:expr) => {
        $mesh
            .bold_line_style($crate::report::figure::GRID.stroke_width(1))
            .light_line_style(plotters::style::colors::TRANSPARENT)
            .axis_style($crate::report::figure::AXIS_COLOUR.stroke_width(1))
            .label_style($crate::report::figure::font(
                $crate::report::figure::text::TICK,
            ))
            .axis_desc_style($crate::report::figure::font(
                $crate::report::figure::text::AXIS,
            ))
    };
}
pub use house_mesh;

/// A tick of an axis running from `lo` to `hi`: `tick`, in thousands ("250k") on an axis
/// reaching 100,000 and in millions ("1.5M") on one reaching 1,000,000, the same unit for every
/// tick of the axis, so that a row of large numbers does not run together.
pub fn axis_tick(v: f64, lo: f64, hi: f64) -> String {
    let reach = lo.abs().max(hi.abs());
    let (unit, suffix) = if reach >= 1e6 {
        (1e6, "M")
    } else if reach >= 1e5 {
        (1e3, "k")
    } else {
        return tick(v);
    };
    match tick(v / unit) {
        t if t.is_empty() || t == "0" => t,
        t => format!("{t}{suffix}"),
    }
}

/// Whether a log axis labels this tick: 1, 2 and 5 times a power of ten (plotters places ticks
/// between them too, which stay unlabelled).
pub fn on_log_tick(v: f64) -> bool {
    let m = v / 10f64.powf(v.abs().log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().any(|k| (m - k).abs() < 1e-6)
}

/// A number for a tick: whole numbers without decimals, others with at most three significant
/// decimals (no "1.0", no "0.30000000000000004").
pub fn tick(v: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    if (v - v.round()).abs() < 1e-9 * v.abs().max(1.0) {
        return format!("{}", v.round() as i64);
    }
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The width of a value axis's label area: room for its longest tick label and the axis title.
pub fn value_axis_width(lo: f64, hi: f64) -> u32 {
    let chars = [lo, hi, (lo + hi) / 2.0]
        .iter()
        .map(|v| tick((v * 100.0).round() / 100.0).chars().count())
        .max()
        .unwrap_or(3)
        .max(2);
    (chars as f64 * text::TICK * 0.62 + text::AXIS * 1.6 + 10.0) as u32
}

/// Splits a title into lines of at most `chars` characters at spaces.
pub fn wrap(title: &str, chars: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in title.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= chars => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Draws `title` centred at the top, wrapped to the area's width, and returns the area below.
pub fn titled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
) -> Result<DrawingArea<DB, Shift>>
where
    DB::ErrorType: 'static,
{
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    if title.is_empty() {
        return Ok(root.clone());
    }
    let (w, _) = root.dim_in_pixel();
    // DejaVu Sans averages about 0.55 em a character.
    let lines = wrap(
        title,
        ((w as f64 - 24.0) / (text::TITLE * 0.55)).max(10.0) as usize,
    );
    let line_height = (text::TITLE * 1.3).round() as u32;
    let (top, rest) = root.split_vertically(8 + line_height * lines.len() as u32 + 4);
    let style = font(text::TITLE)
        .into_text_style(&top)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (i, line) in lines.iter().enumerate() {
        top.draw(&Text::new(
            line.clone(),
            (w as i32 / 2, 8 + (line_height * i as u32) as i32),
            style.clone(),
        ))
        .map_err(plot_err)?;
    }
    Ok(rest)
}

/// The height a title takes, in SVG units, at width `w` (for figures that size themselves).
pub fn title_height(title: &str, w: u32) -> u32 {
    let lines = wrap(
        title,
        ((w as f64 - 24.0) / (text::TITLE * 0.55)).max(10.0) as usize,
    )
    .len() as u32;
    12 + (text::TITLE * 1.3).round() as u32 * lines
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

/// How series `i` is drawn in a line figure: the palette's colour, and past its eight colours
/// another marker and line (dashed every other cycle), so that a ninth series is not drawn as the
/// first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeriesStyle {
    pub colour: RGBColor,
    /// 0 circle, 1 triangle, 2 square, 3 cross.
    pub marker: usize,
    pub dashed: bool,
}

pub fn series_style(i: usize) -> SeriesStyle {
    let cycle = i / PALETTE.len();
    SeriesStyle {
        colour: series_colour(i),
        marker: cycle % 4,
        dashed: cycle % 2 == 1,
    }
}

/// A sequential colour scale (light yellow to dark blue) for t in [0, 1].
/// The key of a figure coloured by `sequential`: a vertical bar from `lo` (bottom) to `hi`
/// with its ticks, captioned `unit` above it, filling `bar` (a strip about 100 px wide beside
/// the figure).
pub fn colour_bar<DB: DrawingBackend>(
    bar: &DrawingArea<DB, Shift>,
    unit: &str,
    lo: f64,
    hi: f64,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    bar.draw(&Text::new(unit.to_string(), (8, 16), font(text::SMALL)))
        .map_err(plot_err)?;
    let mut cb = ChartBuilder::on(bar)
        .margin_top(40)
        .margin_bottom(44)
        .margin_right(10)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..1.0, lo..hi.max(lo + 1e-9))
        .map_err(plot_err)?;
    cb.configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .y_labels(6)
        .label_style(font(text::SMALL))
        .y_label_formatter(&|v| tick(*v))
        .draw()
        .map_err(plot_err)?;
    let steps = 50;
    let span = (hi - lo).max(1e-9);
    // Each step overlaps the next by half a step (drawn from the bottom up), so no seam of
    // the background shows between them.
    cb.draw_series((0..steps).map(|i| {
        let a = lo + span * i as f64 / steps as f64;
        let b = (lo + span * (i as f64 + 1.5) / steps as f64).min(hi.max(lo + 1e-9));
        Rectangle::new(
            [(0.0, a), (1.0, b)],
            sequential(i as f64 / (steps - 1) as f64).filled(),
        )
    }))
    .map_err(plot_err)?;
    Ok(())
}

pub fn sequential(t: f64) -> RGBColor {
    let stops = [
        (255.0, 255.0, 204.0),
        (161.0, 218.0, 180.0),
        (65.0, 182.0, 196.0),
        (44.0, 127.0, 184.0),
        (37.0, 52.0, 148.0),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
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
        let pad = if lo.abs() > 1e-12 {
            lo.abs() * 0.1
        } else {
            1.0
        };
        return (lo - pad, hi + pad);
    }
    let pad = (hi - lo) * 0.05;
    (lo - pad, hi + pad)
}

/// The width of a legend column for these series names and heading.
pub fn legend_width(heading: &str, items: &[String]) -> u32 {
    let longest = items
        .iter()
        .map(|s| s.chars().count())
        .chain(std::iter::once(heading.chars().count()))
        .max()
        .unwrap_or(4)
        .min(28);
    (longest as f64 * text::TICK * 0.6 + 40.0).clamp(80.0, 260.0) as u32
}

/// The height a chart needs below its title: the house's 320, or more for a legend of `items`
/// entries (`with_legend` draws them 22 units apart from 64 down), so none is cut off.
pub fn chart_height(items: usize) -> u32 {
    320.max(64 + 22 * items as u32 + 12)
}

/// Splits off a legend column on the right and draws the legend there: a heading and one
/// swatch per series. Returns the area left for the chart.
pub fn with_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    heading: &str,
    items: &[(String, Swatch)],
) -> Result<DrawingArea<DB, Shift>>
where
    DB::ErrorType: 'static,
{
    let (w, _) = root.dim_in_pixel();
    let names: Vec<String> = items.iter().map(|i| i.0.clone()).collect();
    let (chart, legend) = root.split_horizontally(w.saturating_sub(legend_width(heading, &names)));
    legend
        .draw(&Text::new(heading.to_string(), (4, 40), font(text::TICK)))
        .map_err(plot_err)?;
    for (i, (name, swatch)) in items.iter().enumerate() {
        let y = 64 + 22 * i as i32;
        match *swatch {
            Swatch::Box(colour) => legend
                .draw(&Rectangle::new([(6, y), (20, y + 14)], colour.filled()))
                .map_err(plot_err)?,
            Swatch::Line(style) => {
                let line = [(2, y + 7), (24, y + 7)];
                let stroke = style.colour.stroke_width(2);
                if style.dashed {
                    legend
                        .draw(&plotters::element::DashedPathElement::new(
                            line, 4, 3, stroke,
                        ))
                        .map_err(plot_err)?;
                } else {
                    legend
                        .draw(&PathElement::new(line, stroke))
                        .map_err(plot_err)?;
                }
                draw_marker(&legend, (13, y + 7), style, 4)?;
            }
        }
        let label: String = name.chars().take(28).collect();
        legend
            .draw(&Text::new(label, (28, y), font(text::TICK)))
            .map_err(plot_err)?;
    }
    Ok(chart)
}

/// A legend entry's sample: a filled box (bars) or a series' line and marker (curves).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Swatch {
    Box(RGBColor),
    Line(SeriesStyle),
}

/// Draws `style`'s marker centred at `at` of `area` (a legend's pixel or a chart's data point),
/// `r` pixels its radius: the one place a marker's shape is chosen, for charts and legends.
pub fn draw_marker<DB, CT>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    style: SeriesStyle,
    r: i32,
) -> Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
    CT: plotters::coord::CoordTranslate,
    CT::From: Clone + 'static,
{
    let fill = style.colour.filled();
    let at = EmptyElement::at(at);
    let r32 = r as u32;
    match style.marker {
        0 => area.draw(&(at + Circle::new((0, 0), r32, fill))),
        1 => area.draw(&(at + TriangleMarker::new((0, 0), r32 + 1, fill))),
        2 => area.draw(&(at + Rectangle::new([(-r, -r), (r, r)], fill))),
        _ => area.draw(&(at + Cross::new((0, 0), r32 + 1, style.colour.stroke_width(2)))),
    }
    .map_err(plot_err)
}

/// A square grid chart (heatmaps, matrices): unit cells, cell (row r, column c) at
/// x = c, y = n - 1 - r so row 0 is on top.
pub type GridChart<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// Fills grid cell (r, c) of an n x n grid with `fill`, outlines it in white, and writes
/// `text` centred in a readable colour.
pub fn grid_cell<DB: DrawingBackend>(
    chart: &mut GridChart<'_, DB>,
    n: usize,
    r: usize,
    c: usize,
    fill: RGBColor,
    text: Option<String>,
    font_size: u32,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let (x, y) = (c as f64, (n - 1 - r) as f64);
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(x, y), (x + 1.0, y + 1.0)],
            fill.filled(),
        )))
        .map_err(plot_err)?;
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(x, y), (x + 1.0, y + 1.0)],
            WHITE.stroke_width(1),
        )))
        .map_err(plot_err)?;
    if let Some(text) = text {
        use plotters::style::text_anchor::{HPos, Pos, VPos};
        let style = ("sans-serif", font_size)
            .into_font()
            .color(&text_on(fill))
            .pos(Pos::new(HPos::Center, VPos::Center));
        chart
            .draw_series(std::iter::once(Text::new(text, (x + 0.5, y + 0.5), style)))
            .map_err(plot_err)?;
    }
    Ok(())
}

/// Draws a centred "no data" note, for figures whose data is empty.
pub fn no_data<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, title: &str) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let area = titled(root, title)?;
    let (w, h) = area.dim_in_pixel();
    area.draw(&Text::new(
        "(no data)",
        (w as i32 / 2 - 40, h as i32 / 2),
        font(text::AXIS).color(&REFERENCE),
    ))
    .map_err(plot_err)?;
    Ok(())
}

#[cfg(test)]
mod tests;
