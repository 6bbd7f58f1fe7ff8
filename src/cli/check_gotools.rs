//! `gamelab check-gotools`: our solver against GoTools' own answers: a seeded sample of questions
//! per level from a folder of GoTools' files (lvA.B), solved within a time limit each; prints a
//! table per level (questions, solved, plain and ko status agreement, first-move agreement, median
//! nodes, nodes/s).

use super::*;

#[derive(clap::Args)]
pub(crate) struct CheckGotoolsArgs {
    /// The folder of GoTools' files (default: $GOTOOLS_PROBLEMS).
    pub(crate) dir: Option<PathBuf>,
    /// Questions sampled per level (all volumes of a level together).
    #[arg(long, default_value_t = 100)]
    pub(crate) per_level: usize,
    /// Seed of the sample of questions (the same seed, the same questions).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Wall-clock seconds per question; past it the question is unsolved.
    #[arg(long, default_value_t = 10.0)]
    pub(crate) time_limit: f64,
    /// Node budget per question.
    #[arg(long, default_value_t = 100_000_000)]
    pub(crate) node_budget: u64,
    /// Heuristic weights: reference, zero, or a file of `feature value` lines.
    #[arg(long, default_value = "reference")]
    pub(crate) weights: String,
    /// Only these levels, as FIRST-LAST or one level.
    #[arg(long, default_value = "1-14")]
    pub(crate) levels: String,
    /// Worker threads (default: one a core); each holds one solver, whose tables take
    /// up to 740 MB (2^23 slots, `solver::DEEP_TABLE_BITS`; 1.2 GB for two threads on level 14).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Also write one CSV row per question here.
    #[arg(long)]
    pub(crate) csv: Option<PathBuf>,
    /// The search: dfpn (proof-number search) or alphabeta (plain depth-first).
    #[arg(long, value_enum, default_value = "dfpn")]
    pub(crate) search: gamelab::game::tsumego::solver::Search,
}

pub(crate) fn execute(args: CheckGotoolsArgs) -> Result<()> {
    let CheckGotoolsArgs {
        dir,
        per_level,
        seed,
        time_limit,
        node_budget,
        weights,
        levels,
        threads,
        csv,
        search,
    } = args;
    check_threads(threads)?;
    let dir = match dir.or_else(|| {
        std::env::var_os("GOTOOLS_PROBLEMS")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    }) {
        Some(d) => d,
        None => return Err(InputError::plain(GOTOOLS_HOWTO).into()),
    };
    if !dir.is_dir() {
        return Err(InputError {
            file: Some(dir),
            line_col: None,
            key: None,
            message: format!("not a folder. {GOTOOLS_HOWTO}"),
        }
        .into());
    }
    if per_level == 0 || node_budget == 0 || !(time_limit > 0.0 && time_limit.is_finite()) {
        return Err(InputError::plain(
            "--per-level, --node-budget and --time-limit must be above 0",
        )
        .into());
    }
    let (lo, hi) = parse_levels(&levels)?;
    let w = gamelab::game::tsumego::heuristic::load_weights(&weights)
        .map_err(|e| InputError::plain(format!("--weights: {e}")))?;
    let all = gamelab::workflow::read_gotools(&dir)?;
    let total = all.len();
    let chosen = gamelab::workflow::sample_per_level(
        all.into_iter()
            .filter(|q| (lo..=hi).contains(&q.level))
            .collect(),
        per_level,
        seed,
    );
    eprintln!(
        "{} of {total} GoTools questions ({per_level} a level, seed {seed}), {time_limit} s and {node_budget} nodes each, weights {weights}",
        chosen.len()
    );
    let t0 = std::time::Instant::now();
    let limits = gamelab::game::tsumego::Limits::with_budget(node_budget).searching(search);
    let rows = gamelab::workflow::compare_gotools(
        &chosen,
        &w,
        limits,
        Some(std::time::Duration::from_secs_f64(time_limit)),
        threads,
        true,
    )?;
    if let Some(path) = &csv {
        write_check_csv(path, &chosen, &rows)?;
    }
    println!("{}", gamelab::game::tsumego::check::level_table(&rows));
    let differ: Vec<String> = rows
        .iter()
        .zip(&chosen)
        .filter(|(r, _)| r.plain() == gamelab::game::tsumego::check::Verdict::Differ)
        .map(|(r, q)| {
            format!(
                "{}:{} {} (GoTools {}, ours {})",
                q.file.display(),
                q.question.line,
                r.name,
                r.gotools,
                r.ours
            )
        })
        .collect();
    if !differ.is_empty() {
        println!(
            "plain status differs on {} questions:\n  {}",
            differ.len(),
            differ.join("\n  ")
        );
    }
    println!(
        "{} questions in {:.1} s",
        rows.len(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}
