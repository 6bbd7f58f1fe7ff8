//! `gamelab gen-problems`: generate life-and-death problem files lv<set>-<level> (reproducible from
//! the seed), and print the calibration: leaves per level with the reference weights.

use super::*;

#[derive(clap::Args)]
pub(crate) struct GenProblemsArgs {
    /// Problem sets to draw (files lv<set>.<level>, as GoTools' volumes).
    #[arg(long, default_value_t = 6)]
    pub(crate) sets: u8,
    /// Levels, as FIRST-LAST (1-14) or one level.
    #[arg(long, default_value = "1-14")]
    pub(crate) levels: String,
    /// Problems per set and level.
    #[arg(long, default_value_t = 280)]
    pub(crate) per_level: usize,
    /// Seed of the draw (the same seed, the same problems).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Output folder (created).
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Node budget per problem: positions the reference weights cannot solve within it are
    /// not kept.
    #[arg(long, default_value_t = 2_000_000)]
    pub(crate) node_budget: u64,
    /// Worker threads (default: one a core).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Also write the draws the reference weights could not solve within the node budget,
    /// as OUT/unsolved/lv<set>-<level> (for calibrating levels and the solver).
    #[arg(long)]
    pub(crate) keep_unsolved: bool,
}

pub(crate) fn execute(args: GenProblemsArgs) -> Result<()> {
    let GenProblemsArgs {
        sets,
        levels,
        per_level,
        seed,
        out,
        node_budget,
        threads,
        keep_unsolved,
    } = args;
    let (lo, hi) = parse_levels(&levels)?;
    if sets == 0 || per_level == 0 {
        return Err(InputError::plain("--sets and --per-level must be at least 1").into());
    }
    check_threads(threads)?;
    gamelab::workflow::gen_problems(
        sets,
        lo..=hi,
        per_level,
        seed,
        &out,
        node_budget,
        threads,
        keep_unsolved,
    )
}
