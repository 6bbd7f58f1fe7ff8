//! `gamelab replay`: print one game of an experiment's rows move by move, each position in the
//! game's text format, and check that it replays to the recorded scores.

use super::*;

#[derive(clap::Args)]
pub(crate) struct ReplayArgs {
    /// The experiment file whose rows hold the game.
    pub(crate) file: PathBuf,
    /// The job's hash (the `job` column; a unique prefix is enough).
    #[arg(long)]
    pub(crate) job: String,
    /// The game's index in the job (the `game` column).
    #[arg(long)]
    pub(crate) game: u32,
    /// Root folder the run wrote to (reads OUT/results/<experiment>/).
    #[arg(long, default_value = ".")]
    pub(crate) out: PathBuf,
}

pub(crate) fn execute(args: ReplayArgs) -> Result<()> {
    let ReplayArgs {
        file,
        job,
        game,
        out,
    } = args;
    let (exp, jobs) = load(&file)?;
    let replayed = gamelab::game_records::replay(&exp, &jobs, &out, &job, game)?;
    print!("{}", replayed.text);
    if !replayed.agrees {
        return Err(anyhow::anyhow!(
            "the replayed game does not end with the recorded scores"
        ));
    }
    Ok(())
}
