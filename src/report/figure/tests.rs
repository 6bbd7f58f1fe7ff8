//! Every figure kind renders to a non-empty SVG of its size, a 300 dpi PNG of the same picture
//! and a PDF, with data, with a single group and with no data at all; the house style's helpers.

use super::bars::GroupedBars;
use super::boxplot::BoxPlot;
use super::curve::Curves;
use super::heatmap::Heatmap;
use super::matrix::Matrix;
use super::profile::Profile;
use super::ranked::{Bar, RankedBars};
use super::{Figure, axis_tick, tick, wrap, write_figure};

/// Renders `fig`; set GAMELAB_KEEP_FIGURES=DIR to keep the files for a look.
fn check(fig: &impl Figure, stem: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = std::env::var_os("GAMELAB_KEEP_FIGURES")
        .map_or(tmp.path().to_path_buf(), std::path::PathBuf::from);
    let paths = write_figure(&dir, stem, fig).unwrap();
    let (w, h) = fig.size();
    let png = std::fs::read(&paths[0]).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    // IHDR: width and height, big-endian, at bytes 16..24: the SVG's size at 300 / 96.
    let dims = (
        u32::from_be_bytes(png[16..20].try_into().unwrap()),
        u32::from_be_bytes(png[20..24].try_into().unwrap()),
    );
    let at_300 = |x: u32| (x as f64 * 300.0 / 96.0) as u32;
    assert!(
        dims.0.abs_diff(at_300(w)) <= 1 && dims.1.abs_diff(at_300(h)) <= 1,
        "{stem}: {dims:?} for {w}x{h}"
    );
    // pHYs: 300 dpi is 11811 pixels a metre, both ways, unit 1 (metre).
    let phys = png
        .windows(4)
        .position(|c| c == b"pHYs")
        .expect("a pHYs chunk");
    assert_eq!(
        &png[phys + 4..phys + 13],
        &[0, 0, 0x2e, 0x23, 0, 0, 0x2e, 0x23, 1],
        "{stem}"
    );
    let svg = std::fs::read_to_string(&paths[1]).unwrap();
    assert!(
        svg.contains(&format!("width=\"{w}\"")) && svg.contains(&format!("height=\"{h}\"")),
        "{stem}"
    );
    assert!(svg.contains("<text"), "{stem}: the SVG has its text");
    assert!(png.len() > 1000, "{stem}: the PNG has content");
    let pdf = std::fs::read(&paths[2]).unwrap();
    assert!(
        pdf.starts_with(b"%PDF-") && pdf.len() > 500,
        "{stem}: a PDF"
    );
}

#[test]
fn ticks_are_plain_numbers() {
    assert_eq!(tick(1.0), "1");
    assert_eq!(tick(-20.0), "-20");
    assert_eq!(tick(0.30000000000000004), "0.3");
    assert_eq!(tick(2.5), "2.5");
    assert_eq!(tick(0.125), "0.125");
    assert_eq!(tick(1e6), "1000000");
    // On an axis, large ticks share one unit: thousands from 100,000, millions from 1,000,000.
    assert_eq!(axis_tick(8000.0, -10000.0, -3000.0), "8000");
    assert_eq!(axis_tick(-10000.0, -10000.0, -3000.0), "-10000");
    assert_eq!(axis_tick(50000.0, 0.0, 150000.0), "50k");
    assert_eq!(axis_tick(0.0, 0.0, 150000.0), "0");
    assert_eq!(axis_tick(250000.0, 0.0, 1e6), "0.25M");
    assert_eq!(axis_tick(-1.5e6, -2e6, 0.0), "-1.5M");
}

#[test]
fn titles_wrap_at_spaces() {
    assert_eq!(
        wrap("Quickstart: arena tournament on small6: score %", 20),
        vec!["Quickstart: arena", "tournament on", "small6: score %"]
    );
    assert_eq!(wrap("short", 20), vec!["short"]);
    assert!(wrap("", 20).is_empty());
}

#[test]
fn ranked_bars() {
    let bar = |l: &str, v| Bar {
        label: l.into(),
        value: v,
        lo: v - 5.0,
        hi: v + 5.0,
    };
    check(
        &RankedBars {
            title: "t".into(),
            value_axis: "score %".into(),
            bars: vec![bar("a", 60.0), bar("b", 40.0)],
            range: (0.0, 100.0),
            lines: vec![50.0],
            key_axis: String::new(),
        },
        "ranked",
    );
    check(
        &RankedBars {
            title: "one".into(),
            value_axis: "x".into(),
            bars: vec![bar("50", 60.0), bar("200", 40.0)],
            range: (0.0, 100.0),
            lines: vec![],
            key_axis: "max simulations".into(),
        },
        "ranked1",
    );
    check(
        &RankedBars {
            title: "none".into(),
            value_axis: "x".into(),
            bars: vec![],
            range: (0.0, 100.0),
            lines: vec![],
            key_axis: String::new(),
        },
        "ranked0",
    );
}

#[test]
fn grouped_bars() {
    let g = |cats: usize, sers: usize| GroupedBars {
        title: "grouped".into(),
        x_label: "rollouts".into(),
        y_label: "score %".into(),
        categories: (0..cats).map(|i| format!("c{i}")).collect(),
        series: (0..sers).map(|i| format!("s{i}")).collect(),
        values: (0..sers)
            .map(|s| {
                (0..cats)
                    .map(|c| {
                        if (s + c) % 3 == 2 {
                            None
                        } else {
                            Some((50.0 + c as f64, 45.0, 55.0 + c as f64))
                        }
                    })
                    .collect()
            })
            .collect(),
        y_range: None,
        series_label: "series".into(),
        hlines: vec![50.0],
    };
    check(&g(3, 2), "bars");
    check(&g(1, 1), "bars1");
    check(&g(0, 0), "bars0");
}

#[test]
fn box_plots() {
    let b = |groups: Vec<(String, Vec<f64>)>| BoxPlot {
        title: "box".into(),
        x_label: "subset".into(),
        y_label: "score %".into(),
        groups,
    };
    check(
        &b(vec![
            ("0.1".into(), vec![50.0, 43.5, 76.1, 60.9]),
            ("full".into(), vec![56.5, 51.1]),
            ("empty".into(), vec![]),
        ]),
        "box",
    );
    check(&b(vec![("only".into(), vec![1.0])]), "box1");
    check(&b(vec![]), "box0");
}

#[test]
fn learning_curves() {
    let pts: Vec<(f64, f64, f64, f64)> = (0..10)
        .map(|g| {
            (
                g as f64,
                g as f64 * 2.0,
                g as f64 * 2.0 - 1.0,
                g as f64 * 2.0 + 1.0,
            )
        })
        .collect();
    let curves = |title: &str, series: Vec<(String, Vec<(f64, f64, f64, f64)>)>| {
        Curves::new(
            title.into(),
            "generation".into(),
            "fitness".into(),
            series,
            "s".into(),
        )
    };
    check(
        &curves(
            "curve",
            vec![("a".into(), pts.clone()), ("b".into(), pts[..3].to_vec())],
        ),
        "curve",
    );
    check(
        &curves(
            "one",
            vec![("".into(), vec![(1.0, 2.0, f64::NAN, f64::NAN)])],
        ),
        "curve1",
    );
    check(&curves("none", vec![]), "curve0");
    // Log axes (the point at x = 0 cannot be drawn on one and is left out) and a reference line.
    let mut log = curves(
        "log",
        vec![(
            "a".into(),
            pts.iter()
                .map(|p| (10f64.powf(p.0 / 3.0), p.1 + 1.0, p.2 + 1.0, p.3 + 1.0))
                .collect(),
        )],
    );
    (log.log_x, log.log_y, log.hlines) = (true, true, vec![5.0]);
    check(&log, "curve_log");
    // More series than colours: every marker and line style drawn, in the legend too.
    let many = (0..20)
        .map(|i| {
            let up = i as f64;
            let shifted = pts
                .iter()
                .map(|p| (p.0, p.1 + up, p.2 + up, p.3 + up))
                .collect();
            (format!("s{i}"), shifted)
        })
        .collect();
    check(&curves("many", many), "curve_many");
}

#[test]
fn series_past_the_palette_differ_in_marker_or_line() {
    let styles: Vec<_> = (0..32).map(super::series_style).collect();
    for (i, a) in styles.iter().enumerate() {
        for b in &styles[i + 1..] {
            assert_ne!(a, b, "series {i} drawn like a later one");
        }
    }
    assert_eq!(styles[8].colour, styles[0].colour);
    assert!(!styles[0].dashed && styles[8].dashed && styles[8].marker == 1);
}

#[test]
fn profiles() {
    let ratios: Vec<f64> = (0..200).map(|i| 60.0 + (i as f64 * 7.3) % 90.0).collect();
    check(
        &Profile {
            title: "profile".into(),
            x_label: "leaves new / baseline (%)".into(),
            ratios,
            bins: 30,
        },
        "profile",
    );
    check(
        &Profile {
            title: "one".into(),
            x_label: "x".into(),
            ratios: vec![100.0],
            bins: 30,
        },
        "profile1",
    );
    check(
        &Profile {
            title: "none".into(),
            x_label: "x".into(),
            ratios: vec![],
            bins: 30,
        },
        "profile0",
    );
}

#[test]
fn a_profile_panel_spanning_ten_times_has_log_bins() {
    use super::profile::{histogram, log_panel};
    assert!(log_panel(30.0, 8700.0) && log_panel(10.0, 100.0));
    assert!(!log_panel(60.0, 150.0) && !log_panel(0.0, 500.0));
    // 10% to 1000% in 4 bins on a log axis: edges at 10, 31.6, 100, 316, 1000.
    let ratios = [10.0, 20.0, 90.0, 100.0, 110.0, 999.0, 1000.0, 5000.0];
    let (edges, counts) = histogram(&ratios, 10.0, 1000.0, 4, true);
    let want = [10.0, 31.623, 100.0, 316.23, 1000.0];
    for (e, w) in edges.iter().zip(want) {
        assert!((e - w).abs() < 0.01 * w, "{edges:?}");
    }
    assert_eq!(counts, vec![2, 1, 2, 2], "5000 is outside the panel");
    // Linear: equal widths in ratio.
    let (edges, counts) = histogram(&ratios, 0.0, 1000.0, 4, false);
    assert_eq!(edges, vec![0.0, 250.0, 500.0, 750.0, 1000.0]);
    assert_eq!(counts, vec![5, 0, 0, 2]);
    check(
        &Profile {
            title: "wide".into(),
            x_label: "x".into(),
            ratios: ratios.to_vec(),
            bins: 30,
        },
        "profile_log",
    );
}

#[test]
fn heatmaps() {
    let mut values: Vec<Option<f64>> = (0..64).map(|i| Some(5.0 + i as f64)).collect();
    for b in [1, 15, 62, 48] {
        values[b] = None;
    }
    check(
        &Heatmap {
            title: "weights".into(),
            size: 8,
            values,
            unit: "weight".into(),
        },
        "heat",
    );
    check(
        &Heatmap {
            title: "flat".into(),
            size: 3,
            values: vec![Some(1.0); 9],
            unit: "weight".into(),
        },
        "heat1",
    );
    check(
        &Heatmap {
            title: "blocked".into(),
            size: 3,
            values: vec![None; 9],
            unit: "weight".into(),
        },
        "heat0",
    );
}

#[test]
fn win_rate_matrices() {
    let labels: Vec<String> = ["random", "greedy", "mcts"].map(String::from).to_vec();
    let values = vec![
        vec![None, Some(40.0), Some(5.0)],
        vec![Some(60.0), None, Some(10.0)],
        vec![Some(95.0), Some(90.0), None],
    ];
    check(
        &Matrix {
            title: "matrix".into(),
            labels,
            values,
        },
        "matrix",
    );
    check(
        &Matrix {
            title: "one".into(),
            labels: vec!["a".into()],
            values: vec![vec![None]],
        },
        "matrix1",
    );
    check(
        &Matrix {
            title: "none".into(),
            labels: vec![],
            values: vec![],
        },
        "matrix0",
    );
}
