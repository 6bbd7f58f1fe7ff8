//! `gamelab tune`, the Othello report's "intelligent system": evolve a weight table for a stage
//! (a GA experiment), draw it, and check it in the arena: a tournament of SimpleMCTS with the
//! evolved table for its rollouts against SimpleMCTS with uniform rollouts and the arena's four
//! built-ins.
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
