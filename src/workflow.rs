//! Commands made of several steps of the pipeline. `tune` is the Othello report's "intelligent
//! system": evolve a weight table for a stage (a GA experiment), draw it, and check it in the
//! arena: a tournament of SimpleMCTS with the evolved table for its rollouts against
//! SimpleMCTS with uniform rollouts and the arena's four built-ins.
//!
//! The check tournament is written as an ordinary experiment file beside the GA's results
//! (`results/<name>/check-<job>.toml`), so it can be read, rerun and reported on its own.

use crate::agent::AgentSpec;
use crate::arena::TablesTournament;
use crate::experiment::layout::results_dir;
use crate::experiment::rows::swept_text;
use crate::experiment::run;
use crate::experiment::runner::{RunOptions, RunSummary};
use crate::experiment::spec::JobKind;
use crate::experiment::{Experiment, InputError, expand};
use crate::report::draw::evolved_heatmap;
use crate::report::{ReportOutput, report};
use anyhow::{Context, Result};
use std::path::PathBuf;

/// The report section of a check tournament: scores with Elo, their bars, the matrix.
const CHECK_REPORT: &str = r#"
tables = [{ name = "scores", title = "Scores in the arena", group_by = ["agent"], elo = true }]
figures = [{ name = "scores", kind = "bars", table = "scores" }, { name = "matrix", kind = "matrix" }]
"#;

/// Settings of the check tournament.
#[derive(Clone, Copy, Debug)]
pub struct CheckSettings {
    /// SimpleMCTS rollouts per move for both SimpleMCTS participants.
    pub rollouts: u64,
    /// Games per ordered pair.
    pub rounds: u32,
}

/// What `tune` produced for one GA job.
pub struct Tuned {
    pub job: String,
    pub swept: String,
    pub table: PathBuf,
    pub heatmap: Vec<PathBuf>,
    pub check: ReportOutput,
}

/// Runs the GA experiment `exp`, then for each of its jobs of repeat 0 draws the best table
/// and runs and reports its check tournament.
pub fn tune(
    exp: &Experiment,
    opts: &RunOptions,
    check: CheckSettings,
) -> Result<(RunSummary, ReportOutput, Vec<Tuned>)> {
    if exp.file.kind != JobKind::Ga {
        return Err(InputError::at_key(
            &exp.path,
            &exp.text,
            "kind",
            "`gamelab tune` takes a GA experiment (kind = \"ga\")",
        )
        .into());
    }
    let jobs = expand(exp)?;
    let summary = run(exp, &jobs, opts)?;
    let ga_report = report(exp, &jobs, &opts.out, true)?;
    let dir = results_dir(&opts.out, &exp.name);
    let mut tuned = Vec::new();
    for job in jobs.iter().filter(|j| j.config.repeat == 0) {
        let table = dir.join("tables").join(format!("{}.txt", job.hash));
        if !table.exists() {
            continue; // another shard's job
        }
        let stage = job
            .config
            .stage
            .othello()
            .context("tune evolves Othello tables")?;
        let short = &job.hash[..8];
        let swept = job
            .swept
            .iter()
            .map(|(k, v)| format!("{k} = {}", swept_text(v)))
            .collect::<Vec<_>>()
            .join(", ");
        let heatmap = evolved_heatmap(
            job,
            &dir,
            &opts
                .out
                .join("figures")
                .join(crate::durable::safe_component(&exp.name)),
            &format!("best-{short}"),
            None,
            false,
        )?
        .files;
        // The check tournament, as an experiment file of its own.
        let mut check_section: toml::Table =
            toml::from_str(CHECK_REPORT).expect("a valid report section");
        check_section.insert(
            "title".into(),
            format!("Evolved table on {} in the arena", stage.id).into(),
        );
        let builtins = [
            ("random", AgentSpec::Random {}),
            ("greedy", AgentSpec::Greedy {}),
            ("corners", AgentSpec::Corners {}),
            ("positional", AgentSpec::Positional {}),
        ];
        let mut extra: std::collections::BTreeMap<String, AgentSpec> = builtins
            .into_iter()
            .map(|(l, a)| (l.to_string(), a))
            .collect();
        extra.insert(
            "uniform".into(),
            AgentSpec::SimpleMcts {
                rollouts: Some(check.rollouts),
                time_ms: None,
                table: None,
            },
        );
        let check_exp = TablesTournament {
            path: dir.join(format!("check-{short}.toml")),
            name: format!("{}-check-{short}", exp.name),
            comment: format!(
                "Check of the table evolved by job {} of {}{}.",
                job.hash,
                exp.path.display(),
                if swept.is_empty() {
                    String::new()
                } else {
                    format!(" ({swept})")
                }
            ),
            seed: job.seed,
            stage,
            rollouts: check.rollouts,
            rounds: check.rounds,
            evolved: vec![("evolved".into(), format!("tables/{}.txt", job.hash))],
            extra,
            report: Some(check_section),
        }
        .write()?;
        let check_jobs = expand(&check_exp)?;
        run(
            &check_exp,
            &check_jobs,
            &RunOptions {
                shard: None,
                ..opts.clone()
            },
        )?;
        let check_report = report(&check_exp, &check_jobs, &opts.out, true)?;
        tuned.push(Tuned {
            job: job.hash.clone(),
            swept,
            table,
            heatmap,
            check: check_report,
        });
    }
    Ok((summary, ga_report, tuned))
}

/// `gamelab gen-problems`: writes the files and prints the calibration table (also written to
/// OUT/calibration.md); with `keep_unsolved`, the draws left unsolved within the node budget
/// as OUT/unsolved/lv<set>-<level>.
#[allow(clippy::too_many_arguments)]
pub fn gen_problems(
    sets: u8,
    levels: std::ops::RangeInclusive<u8>,
    per_level: usize,
    seed: u64,
    out: &std::path::Path,
    node_budget: u64,
    threads: Option<usize>,
    keep_unsolved: bool,
) -> Result<()> {
    use crate::game::tsumego::generate::{calibration_table, generate_library};
    let t0 = std::time::Instant::now();
    let limits = crate::game::tsumego::Limits::with_budget(node_budget);
    let files = generate_library(sets, levels, per_level, seed, out, limits, threads)?;
    let table = calibration_table(&files);
    if keep_unsolved {
        let dir = out.join("unsolved");
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        for f in files.iter().filter(|f| !f.unsolved.is_empty()) {
            crate::experiment::rows::write_atomic(
                &dir.join(format!("lv{}-{}", f.set, f.level)),
                |w| {
                    use std::io::Write;
                    w.write_all(
                        crate::game::tsumego::generate::unsolved_text(f, seed, node_budget)
                            .as_bytes(),
                    )?;
                    Ok(())
                },
            )?;
        }
    }
    let short: Vec<String> = files
        .iter()
        .filter(|f| f.problems.len() < per_level)
        .map(|f| format!("lv{}-{} ({})", f.set, f.level, f.problems.len()))
        .collect();
    crate::experiment::rows::write_atomic(&out.join("calibration.md"), |w| {
        use std::io::Write;
        writeln!(
            w,
            "# Calibration: seed {seed}, node budget {node_budget}\n\n{table}"
        )?;
        Ok(())
    })?;
    println!("{table}");
    if !short.is_empty() {
        println!(
            "files with fewer problems than asked (too many draws rejected): {}",
            short.join(", ")
        );
    }
    println!(
        "{} files in {} ({:.1} s)",
        files.len(),
        out.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

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

/// Solves each question (in parallel, one solver per thread) and sets our answer beside
/// GoTools'; `time_limit` bounds each question's solve on the wall clock.
#[allow(clippy::too_many_arguments)]
pub fn compare_gotools(
    questions: &[GoToolsQuestion],
    weights: &crate::game::tsumego::Weights,
    limits: crate::game::tsumego::Limits,
    time_limit: Option<std::time::Duration>,
    search: crate::game::tsumego::solver::Search,
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
                    solver.set_search(search);
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
