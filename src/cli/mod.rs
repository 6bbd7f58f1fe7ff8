//! The binary's own parts: one file per subcommand with its options (a clap `Args` struct) and
//! its execution (`execute`), the command line that gathers them (`args`), and the helpers
//! several subcommands share: in this file loading an experiment and the --threads and --out
//! checks, in `gotools` GoTools' files, in `position` positions and stages. `main.rs` parses,
//! calls `dispatch` and maps errors to exit codes.

pub(crate) mod adapters;
pub(crate) mod args;
pub(crate) mod check_gotools;
pub(crate) mod games;
pub(crate) mod gen_problems;
pub(crate) mod gotools;
pub(crate) mod list;
pub(crate) mod moves;
pub(crate) mod mpi_check;
pub(crate) mod openings;
pub(crate) mod perft;
pub(crate) mod position;
pub(crate) mod replay;
pub(crate) mod report;
pub(crate) mod run;
pub(crate) mod schema;
pub(crate) mod show;
pub(crate) mod slurm;
pub(crate) mod solve;
pub(crate) mod summary;
pub(crate) mod tune;

use crate::*;
use args::*;
use clap::{Parser, Subcommand};
use gamelab::experiment::rows::Format;
use gamelab::experiment::runner::{RunOptions, Shard};
use gamelab::experiment::{Experiment, InputError, expand};
use gamelab::game::Game;
use gotools::*;
use position::*;
use run::run_mpi;
use std::path::PathBuf;

/// Runs one subcommand: each lives in its own file of cli/ with its options.
pub(crate) fn dispatch(command: Command) -> Result<()> {
    match command {
        Command::Run(args) => run::execute(args),
        Command::Tune(args) => tune::execute(args),
        Command::Report(args) => report::execute(args),
        Command::Slurm(args) => slurm::execute(args),
        Command::MpiCheck(args) => mpi_check::execute(args),
        Command::Schema => schema::execute(),
        Command::Adapters => adapters::execute(),
        Command::Perft(args) => perft::execute(args),
        Command::Moves(args) => moves::execute(args),
        Command::Show(args) => show::execute(args),
        Command::Solve(args) => solve::execute(args),
        Command::CheckGotools(args) => check_gotools::execute(args),
        Command::GenProblems(args) => gen_problems::execute(args),
        Command::Openings(args) => openings::execute(args),
        Command::Replay(args) => replay::execute(args),
        Command::Games(args) => games::execute(args),
        Command::Summary(args) => summary::execute(args),
        Command::List(args) => list::execute(args),
    }
}

pub(crate) fn load(file: &PathBuf) -> Result<(Experiment, Vec<gamelab::experiment::Job>)> {
    let exp = Experiment::load(file)?;
    let jobs = expand(&exp)?;
    gamelab::report::plan(&exp)?;
    Ok((exp, jobs))
}

/// The most worker threads a run may ask for: far more than any machine's cores, far fewer
/// than the thousands that would take minutes to start and then fail.
pub(crate) const MAX_THREADS: usize = 1024;

pub(crate) fn check_threads(threads: Option<usize>) -> Result<()> {
    match threads {
        Some(0) => Err(InputError::plain("--threads must be at least 1").into()),
        Some(n) if n > MAX_THREADS => Err(InputError::plain(format!(
            "--threads {n}: at most {MAX_THREADS} (one per core is the default)"
        ))
        .into()),
        _ => Ok(()),
    }
}

/// Reads a problem file (text format) or an SGF file (by extension); errors name the file and line.
/// `--out`: a folder, or a path where one can be made (its nearest existing ancestor is a
/// folder): else exit 2 naming the option. Nothing is created here.
pub(crate) fn check_out(out: &std::path::Path) -> Result<()> {
    let bad = |what: String| -> anyhow::Error {
        InputError::plain(format!("--out '{}': {what}", out.display())).into()
    };
    match std::fs::metadata(out) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(bad("is a file, not a folder".into())),
        Err(_) => {
            let mut up = out.parent();
            while let Some(p) = up.filter(|p| !p.as_os_str().is_empty()) {
                match std::fs::metadata(p) {
                    Ok(m) if m.is_dir() => return Ok(()),
                    Ok(_) => {
                        return Err(bad(format!(
                            "cannot make the folder: {} is a file",
                            p.display()
                        )));
                    }
                    Err(_) => up = p.parent(),
                }
            }
            Ok(())
        }
    }
}
