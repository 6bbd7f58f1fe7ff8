//! `gamelab report`: compute the statistics and figures of an experiment from its rows.

use super::*;

#[derive(clap::Args)]
pub(crate) struct ReportArgs {
    /// The experiment file (TOML) whose rows to report on (run it first with `gamelab run`).
    pub(crate) file: PathBuf,
    /// Root folder the run wrote to: reads OUT/results/<experiment>/, writes the report
    /// there and figures to OUT/figures/<experiment>/.
    #[arg(long, default_value = ".")]
    pub(crate) out: PathBuf,
    /// Tables as Markdown in report.md only (md: no CSV files, no report.html), or also one
    /// CSV file each and report.html, the page with the game viewer (csv).
    #[arg(long, value_enum, default_value_t = TableFormat::Csv)]
    pub(crate) format: TableFormat,
    /// Also keep the report's tables (report.md, the CSV files, jobs.json) and the
    /// experiment file in DIR/<experiment>/, replacing what was there: a reference
    /// artefact small enough for git (`make reproduce-*` keep theirs in docs/reports/).
    #[arg(long, value_name = "DIR")]
    pub(crate) keep: Option<PathBuf>,
}

pub(crate) fn execute(args: ReportArgs) -> Result<()> {
    let ReportArgs {
        file,
        out,
        format,
        keep,
    } = args;
    let (exp, jobs) = load(&file)?;
    check_out(&out)?;
    if keep.is_some() && format != TableFormat::Csv {
        return Err(anyhow::anyhow!(
            "--keep needs the tables as CSV files (--format csv): the reproduction page reads comparisons.csv"
        )
        .into());
    }
    let r = gamelab::report::report(&exp, &jobs, &out, format == TableFormat::Csv)?;
    println!(
        "{}: report from {} rows ({} of {} jobs)",
        exp.name, r.rows, r.jobs_with_rows, r.jobs_total
    );
    println!("report: {}", r.report.display());
    if format == TableFormat::Csv {
        println!(
            "report: {} (open it in a browser: tables, figures, the games)",
            r.report.with_extension("html").display()
        );
    }
    for t in &r.tables {
        println!("table: {}", t.display());
    }
    for f in &r.figures {
        println!("figure: {}", f.display());
    }
    if let Some(dir) = keep {
        let report_dir = r.report.parent().unwrap_or(std::path::Path::new("."));
        let kept = gamelab::report::kept::keep(&exp, report_dir, &dir)?;
        println!("kept: {}", kept.display());
    }
    Ok(())
}
