//! A GA experiment's arena: the tournament of its evolved tables against reference agents,
//! written once every GA job has its table as `results/<name>/arena.toml` (an ordinary
//! experiment file, `<name>-arena`, that can be read, rerun and reported on its own), and read
//! back by the report. `TablesTournament` writes such a file; `gamelab tune`'s check tournament
//! is one too.

use crate::experiment::grid::Job;
use crate::experiment::layout::results_dir;
use crate::experiment::{Experiment, InputError};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// A tournament of evolved tables, written as an experiment file at `path` and loaded: each
/// `evolved` (label, table file relative to `path`'s folder) plays as SimpleMCTS with `rollouts`
/// per move and the table for its rollouts, against the `extra` agents, every ordered pair
/// `rounds` times on `stage`. `report` is the file's `[report]` section, if any.
pub struct TablesTournament<'a> {
    pub path: PathBuf,
    pub name: String,
    pub comment: String,
    pub seed: u64,
    pub stage: &'a crate::game::othello::StageDef,
    pub rollouts: u64,
    pub rounds: u32,
    pub evolved: Vec<(String, String)>,
    pub extra: std::collections::BTreeMap<String, crate::agent::AgentSpec>,
    pub report: Option<toml::Table>,
}

impl TablesTournament<'_> {
    pub fn write(&self) -> Result<Experiment> {
        let mut agents = toml::Table::new();
        for (label, table) in &self.evolved {
            let spec = crate::agent::AgentSpec::SimpleMcts {
                rollouts: Some(self.rollouts),
                time_ms: None,
                table: Some(crate::agent::TableRef::Name(table.clone())),
            };
            agents.insert(label.clone(), toml::Value::try_from(&spec)?);
        }
        for (label, spec) in &self.extra {
            agents.insert(label.clone(), toml::Value::try_from(spec)?);
        }
        let mut file = toml::Table::new();
        file.insert("name".into(), self.name.clone().into());
        file.insert("kind".into(), "tournament".into());
        file.insert("game".into(), "othello".into());
        file.insert("seed".into(), toml::Value::Integer((self.seed >> 2) as i64)); // TOML integers are signed
        file.insert("stage".into(), toml::Value::try_from(self.stage)?);
        let mut tournament = toml::Table::new();
        tournament.insert("rounds".into(), toml::Value::Integer(self.rounds as i64));
        file.insert("tournament".into(), tournament.into());
        file.insert("agents".into(), agents.into());
        if let Some(report) = &self.report {
            file.insert("report".into(), report.clone().into());
        }
        let text = format!("# {}\n{}", self.comment, toml::to_string(&file)?);
        std::fs::write(&self.path, &text)
            .with_context(|| format!("writing {}", self.path.display()))?;
        Ok(Experiment::from_text(&self.path, text)?)
    }
}

/// The label of the evolved agent of a GA job in its arena.
pub fn evolved_label(job: &Job) -> String {
    format!("ga-{}", &job.hash[..8])
}

/// The arena tournament of a GA experiment with an `[arena]` section, once every GA job has its
/// table: written as `results/<name>/arena.toml` (experiment `<name>-arena`) and returned.
/// `None` when the file has no arena or some GA job has not finished (another shard's, say).
pub fn write_arena(
    exp: &Experiment,
    jobs: &[Job],
    out: &std::path::Path,
) -> Result<Option<Experiment>> {
    let Some(arena) = &exp.file.arena else {
        return Ok(None);
    };
    let dir = results_dir(out, &exp.name);
    if jobs
        .iter()
        .any(|j| !dir.join("tables").join(format!("{}.txt", j.hash)).exists())
    {
        return Ok(None);
    }
    let stages: std::collections::BTreeSet<String> = jobs
        .iter()
        .map(|j| j.config.stage.id().to_string())
        .collect();
    if stages.len() > 1 {
        return Err(InputError::at_key(
            &exp.path,
            &exp.text,
            "arena",
            "an [arena] needs every GA job on one stage (the grid sweeps the stage)",
        )
        .into());
    }
    let stage = match &arena.stage {
        Some(s) => s
            .resolve()
            .map_err(|e| InputError::at_key(&exp.path, &exp.text, "arena.stage", e))?,
        None => jobs[0]
            .config
            .stage
            .othello()
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("an [arena] plays Othello stages"))?,
    };
    let mut extra = std::collections::BTreeMap::new();
    for (label, spec) in &arena.agents {
        let mut spec = spec.clone();
        spec.resolve_tables(&exp.base_dir())
            .map_err(|e| anyhow::anyhow!("arena.agents.{label}: {e}"))?;
        extra.insert(label.clone(), spec);
    }
    let tournament = TablesTournament {
        path: dir.join("arena.toml"),
        name: format!("{}-arena", exp.name),
        comment: format!(
            "Written by gamelab from {}: the arena of its evolved tables.",
            exp.path.display()
        ),
        seed: exp.file.seed,
        stage: &stage,
        rollouts: arena.rollouts,
        rounds: arena.rounds,
        evolved: jobs
            .iter()
            .map(|j| (evolved_label(j), format!("tables/{}.txt", j.hash)))
            .collect(),
        extra,
        report: None,
    };
    Ok(Some(tournament.write()?))
}

/// A GA experiment's arena (the experiment file its run wrote, `arena.toml`) and its jobs.
pub fn read_arena(exp: &Experiment, out: &Path) -> Result<(Experiment, Vec<Job>)> {
    let path = results_dir(out, &exp.name).join("arena.toml");
    let arena = Experiment::load(&path).map_err(|e| {
        anyhow::anyhow!("{e} (run the experiment to the end: its arena follows the GA)")
    })?;
    let jobs = crate::experiment::expand(&arena)?;
    Ok((arena, jobs))
}
