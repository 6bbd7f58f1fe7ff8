//! `gamelab list`: list games, stages, agent kinds and experiment files.

use super::*;

#[derive(clap::Args)]
pub(crate) struct ListArgs {
    /// Folder of experiment files.
    #[arg(long, default_value = "experiments")]
    pub(crate) experiments: PathBuf,
}

pub(crate) fn execute(args: ListArgs) -> Result<()> {
    let ListArgs { experiments } = args;
    println!(
        "games:\n  othello\n  colosseum\n  freckers\n  tsumego (Go life-and-death: gamelab solve, gamelab gen-problems)\n  openspiel (a game of OpenSpiel: openspiel = {{ name = \"connect_four\", params = {{ ... }} }}; docs/openspiel.md)"
    );
    println!("stages (freckers): standard (the referee's lenient multi-jumps), strict");
    println!(
        "stages (colosseum): size-M (3 <= M <= 16), sizes-A-B (a size drawn per pair of games)"
    );
    println!("stages (othello):");
    for id in gamelab::game::othello::BUILTIN_STAGES {
        let s = gamelab::game::othello::builtin_stage(id).expect("listed stages exist");
        println!("  {id:<18} {}", s.name);
    }
    println!("agent kinds:");
    for (kind, params) in gamelab::agent::AGENT_KINDS {
        println!("  {kind:<16} {params}");
    }
    println!(
        "tables: {}",
        gamelab::agent::table::BUILTIN_TABLES.join(", ")
    );
    println!("experiment files ({}):", experiments.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&experiments)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    for f in files {
        let summary = match Experiment::load(&f) {
            Ok(e) => e
                .file
                .description
                .as_deref()
                .unwrap_or("")
                .lines()
                .next()
                .unwrap_or("")
                .to_string(),
            Err(e) => format!("(invalid: {e})"),
        };
        println!("  {:<40} {summary}", f.display());
    }
    Ok(())
}
