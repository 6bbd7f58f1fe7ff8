//! `gamelab games`: write the games of an experiment as game records, one file per job: PGN for
//! chess, SGF for go and life-and-death solves, Othello transcripts (`f5d6c3`), Colosseum and
//! Freckers move lists with their start positions, each game with a header (players, result, stage,
//! opening).

use super::*;

#[derive(clap::Args)]
pub(crate) struct GamesArgs {
    /// The experiment file whose rows to export.
    pub(crate) file: PathBuf,
    /// Root folder the run wrote to (reads OUT/results/<experiment>/), as in run and report.
    #[arg(long, default_value = ".")]
    pub(crate) out: PathBuf,
    /// Folder to write the records to (created) [default: OUT/results/<experiment>/records].
    #[arg(long)]
    pub(crate) to: Option<PathBuf>,
}

pub(crate) fn execute(args: GamesArgs) -> Result<()> {
    let GamesArgs { file, out, to } = args;
    let (exp, jobs) = load(&file)?;
    let to = to.unwrap_or_else(|| {
        gamelab::experiment::layout::results_dir(&out, &exp.name).join("records")
    });
    let written = gamelab::game_records::export(&exp, &jobs, &out, &to)?;
    for (path, games) in &written {
        // An SGF file of several games is a collection: say so, since readers that take one
        // game (sgfmill's Sgf_game.from_bytes) read only its first.
        let collection = if path.extension().is_some_and(|e| e == "sgf") && *games > 1 {
            " (an SGF collection: one game tree per game; a reader of one game reads the first)"
        } else {
            ""
        };
        println!(
            "{}: {}{collection}",
            path.display(),
            gamelab::words::count(*games, "game", "games")
        );
    }
    if written.is_empty() {
        eprintln!(
            "{}: no rows yet (run `gamelab run {}` first)",
            exp.name,
            file.display()
        );
    }
    Ok(())
}
