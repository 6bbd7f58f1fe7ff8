//! `gamelab tune`: evolve a weight table with a GA experiment (kind = "ga"), draw it, and check it
//! in an arena tournament against SimpleMCTS with uniform rollouts and the built-ins.

use super::*;

#[derive(clap::Args)]
pub(crate) struct TuneArgs {
    /// A GA experiment file (kind = "ga").
    pub(crate) file: PathBuf,
    /// Root folder for the run's results and figures (OUT/results/<experiment>/).
    #[arg(long, default_value = ".")]
    pub(crate) out: PathBuf,
    /// Worker threads (default: one a core).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// SimpleMCTS rollouts per move in the check tournament.
    #[arg(long, default_value_t = 200)]
    pub(crate) rollouts: u64,
    /// Games per ordered pair in the check tournament.
    #[arg(long, default_value_t = 10)]
    pub(crate) rounds: u32,
}

pub(crate) fn execute(args: TuneArgs) -> Result<()> {
    let TuneArgs {
        file,
        out,
        threads,
        rollouts,
        rounds,
    } = args;
    check_threads(threads)?;
    if rollouts == 0 || rounds == 0 {
        return Err(InputError::plain("--rollouts and --rounds must be at least 1").into());
    }
    let (exp, _) = load(&file)?;
    check_out(&out)?;
    let opts = RunOptions {
        out,
        threads,
        shard: None,
        format: Format::Parquet,
        progress: true,
    };
    let (summary, ga_report, tuned) = gamelab::workflow::tune(
        &exp,
        &opts,
        gamelab::workflow::CheckSettings { rollouts, rounds },
    )?;
    println!(
        "{}: GA ran {} ({} rows) in {:.1} s; report: {}",
        exp.name,
        gamelab::words::count(summary.jobs_run, "job", "jobs"),
        summary.rows,
        summary.seconds,
        ga_report.report.display()
    );
    for t in &tuned {
        println!("job {} {}", t.job, t.swept);
        println!(
            "  table: {}  (name it in an agent: table = \"{}\")",
            t.table.display(),
            t.table.display()
        );
        println!("  heatmap: {}", t.heatmap[0].display());
        println!("  check tournament: {}", t.check.report.display());
    }
    Ok(())
}
