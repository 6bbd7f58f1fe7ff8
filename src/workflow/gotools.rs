//! GoTools' own problem files: read (`read_gotools`), sampled per level, and solved beside
//! GoTools' recorded answers (`compare_gotools`, `gamelab check-gotools`).

use crate::experiment::InputError;
use anyhow::Result;
use std::path::PathBuf;

/// A GoTools question with the volume and level of its file.
pub struct GoToolsQuestion {
    pub file: PathBuf,
    pub volume: u8,
    pub level: u8,
    pub question: crate::game::tsumego::gotools::Question,
}

/// GoTools' problem files at `path`: one file, or a folder of `lvA.B` files (read in volume,
/// level order; other files in the folder are left alone). A file that cannot be read or
/// parsed is an input error naming it and the line.
pub fn read_gotools(path: &std::path::Path) -> Result<Vec<GoToolsQuestion>> {
    use crate::game::tsumego::gotools::{parse_gotools, volume_level};
    let bad = |file: &std::path::Path, line: Option<usize>, message: String| -> anyhow::Error {
        InputError {
            file: Some(file.to_path_buf()),
            line_col: line.map(|l| (l, 1)),
            key: None,
            message,
        }
        .into()
    };
    let files: Vec<(PathBuf, u8, u8)> = if path.is_dir() {
        let mut v: Vec<(PathBuf, u8, u8)> = std::fs::read_dir(path)
            .map_err(|e| bad(path, None, format!("cannot read the folder: {e}")))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter_map(|p| {
                let (a, b) = volume_level(&p.file_name()?.to_string_lossy())?;
                Some((p, a, b))
            })
            .collect();
        v.sort_by_key(|f| (f.1, f.2));
        if v.is_empty() {
            return Err(bad(
                path,
                None,
                "no GoTools problem files (named lvA.B) in this folder".into(),
            ));
        }
        v
    } else {
        let (a, b) = path
            .file_name()
            .and_then(|n| volume_level(&n.to_string_lossy()))
            .unwrap_or((0, 0));
        vec![(path.to_path_buf(), a, b)]
    };
    let mut out = Vec::new();
    for (file, volume, level) in files {
        let text = crate::durable::read_input(&file).map_err(|e| bad(&file, None, e))?;
        let questions = parse_gotools(&text).map_err(|e| bad(&file, Some(e.line), e.message))?;
        out.extend(questions.into_iter().map(|question| GoToolsQuestion {
            file: file.clone(),
            volume,
            level,
            question,
        }));
    }
    Ok(out)
}

/// A seeded sample of `per_level` questions of each level (all volumes of the level together),
/// in (level, volume, file order) order; all questions when a level has fewer.
pub fn sample_per_level(
    questions: Vec<GoToolsQuestion>,
    per_level: usize,
    seed: u64,
) -> Vec<GoToolsQuestion> {
    let mut by_level: std::collections::BTreeMap<u8, Vec<(usize, GoToolsQuestion)>> =
        std::collections::BTreeMap::new();
    for (i, q) in questions.into_iter().enumerate() {
        by_level.entry(q.level).or_default().push((i, q));
    }
    let mut out = Vec::new();
    for (level, mut qs) in by_level {
        let mut rng = crate::rng::rng_from_seed(crate::rng::derive_seed(seed, &[level as u64]));
        // A partial Fisher-Yates shuffle: the first `per_level` places are the sample.
        let k = per_level.min(qs.len());
        for i in 0..k {
            let j = i + crate::rng::below(&mut rng, qs.len() - i);
            qs.swap(i, j);
        }
        let mut chosen: Vec<(usize, GoToolsQuestion)> = qs.into_iter().take(k).collect();
        chosen.sort_by_key(|(i, _)| *i);
        out.extend(chosen.into_iter().map(|(_, q)| q));
    }
    out
}

thread_local! {
    /// The solver of one worker thread of `compare_gotools`, made on first use: its tables
    /// (`DEEP_TABLE_BITS`) are hundreds of megabytes, so one a thread, never one per rayon
    /// split as `map_init` would make.
    static DEEP_SOLVER: std::cell::RefCell<Option<crate::game::tsumego::Solver>> =
        const { std::cell::RefCell::new(None) };
}

fn with_deep_solver<T>(f: impl FnOnce(&mut crate::game::tsumego::Solver) -> T) -> T {
    use crate::game::tsumego::{Solver, solver::DEEP_TABLE_BITS};
    DEEP_SOLVER.with(|cell| {
        let mut cell = cell.borrow_mut();
        f(cell.get_or_insert_with(|| {
            let mut solver = Solver::new(DEEP_TABLE_BITS);
            solver.clear_tables();
            solver
        }))
    })
}

/// Solves each question (in parallel, one solver per thread, with `limits`' search) and sets
/// our answer beside GoTools'; `time_limit` bounds each question's solve on the wall clock.
#[allow(clippy::too_many_arguments)]
pub fn compare_gotools(
    questions: &[GoToolsQuestion],
    weights: &crate::game::tsumego::Weights,
    limits: crate::game::tsumego::Limits,
    time_limit: Option<std::time::Duration>,
    threads: Option<usize>,
    progress: bool,
) -> Result<Vec<crate::game::tsumego::check::Compared>> {
    use crate::game::tsumego::check::compare;
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use rayon::prelude::*;
    let bar = ProgressBar::with_draw_target(
        Some(questions.len() as u64),
        if progress {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} questions, ETA {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let work = || -> Result<Vec<crate::game::tsumego::check::Compared>> {
        Ok(questions
            .par_iter()
            .map(|q| {
                let c = with_deep_solver(|solver| {
                    solver.set_time_limit(time_limit);
                    compare(
                        solver,
                        &q.question,
                        q.volume,
                        q.level,
                        weights,
                        limits,
                        crate::game::tsumego::check::FirstMoves::GoToolsBest,
                    )
                });
                bar.inc(1);
                c
            })
            .collect())
    };
    let rows = crate::pool::with_threads(threads, work)?;
    bar.finish_and_clear();
    Ok(rows)
}
