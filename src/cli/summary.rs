//! `gamelab summary`: one page of every published value the experiments' reports compared (paper
//! value and n, ours and n, difference, p, verdict): OUT/results/summary.md and summary.csv.

use super::*;

#[derive(clap::Args)]
pub(crate) struct SummaryArgs {
    /// Experiment files (those without published values are skipped; report the others
    /// first).
    #[arg(required = true)]
    pub(crate) files: Vec<PathBuf>,
    /// Root folder the runs wrote to.
    #[arg(long, default_value = ".")]
    pub(crate) out: PathBuf,
    /// Also write the page here (`make reproduction`: docs/reproduction.md).
    #[arg(long)]
    pub(crate) page: Option<PathBuf>,
    /// Read each experiment's report from DIR/<experiment>/ (reports kept with `gamelab
    /// report --keep DIR`) instead of OUT's results: `make reproduction` builds
    /// docs/reproduction.md from docs/reports/ alone, without a run.
    #[arg(long, value_name = "DIR")]
    pub(crate) reports: Option<PathBuf>,
}

pub(crate) fn execute(args: SummaryArgs) -> Result<()> {
    let SummaryArgs {
        files,
        out,
        page,
        reports,
    } = args;
    let experiments = files
        .iter()
        .map(|f| Experiment::load(f))
        .collect::<Result<Vec<_>, InputError>>()?;
    let s =
        gamelab::report::summary::summary(&experiments, &out, page.as_deref(), reports.as_deref())?;
    let counts = if s.counts.is_empty() {
        "no published values yet".to_string()
    } else {
        s.counts
            .iter()
            .map(|(w, n)| format!("{n} {w}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "summary: {} ({} experiments reported{}; {counts})",
        s.markdown.display(),
        s.reported.len(),
        if s.stale.is_empty() {
            String::new()
        } else {
            format!(", {} stale", s.stale.len())
        }
    );
    if !s.stale.is_empty() {
        eprintln!(
            "reported from an earlier version of their experiment file, named stale on the page: {} (run and report them again, then summarise again)",
            s.stale.join(", ")
        );
    }
    if !s.unfinished.is_empty() {
        eprintln!(
            "reported before their runs ended: {} (run them again, report, then summarise again)",
            s.unfinished.join(", ")
        );
    }
    if !s.not_kept.is_empty() {
        eprintln!(
            "not kept, as their files say (not_kept): {}",
            s.not_kept.join(", ")
        );
    }
    if !s.missing.is_empty() {
        eprintln!(
            "not reported yet: {} (run and report them, then summarise again)",
            s.missing.join(", ")
        );
    }
    Ok(())
}
