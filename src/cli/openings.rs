//! `gamelab openings`: write an Othello opening suite: one line per distinct position PLIES moves
//! from a stage's start, up to the board's rotations and reflections (how the suites in openings/
//! were made).

use super::*;

#[derive(clap::Args)]
pub(crate) struct OpeningsArgs {
    /// The game (othello: the only one with opening suites today).
    #[arg(long, default_value = "othello")]
    pub(crate) game: String,
    /// A built-in stage id, an inline stage table or a TOML file of one.
    #[arg(long, default_value = "standard8")]
    pub(crate) stage: String,
    /// Moves from the start to each position of the suite (at least 1).
    #[arg(long, default_value_t = 4)]
    pub(crate) plies: u32,
    /// Write the suite to this file (default: standard output).
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
}

pub(crate) fn execute(args: OpeningsArgs) -> Result<()> {
    let OpeningsArgs {
        game,
        stage,
        plies,
        out,
    } = args;
    if game != "othello" {
        return Err(InputError::plain(format!("--game '{game}': opening suites are generated for othello (Freckers starts from one position: write its suite by hand, or use random_plies)")).into());
    }
    if plies == 0 {
        return Err(InputError::plain("--plies must be at least 1").into());
    }
    let def = othello_stage(&stage)?;
    let start = gamelab::game::othello::Othello::new(&def).map_err(InputError::plain)?;
    let text = gamelab::game::othello::openings::suite_file(&def.id, &start, plies);
    match out {
        Some(path) => {
            gamelab::experiment::rows::write_atomic(&path, |f| {
                Ok(std::io::Write::write_all(f, text.as_bytes())?)
            })?;
            eprintln!(
                "{}: {} openings",
                path.display(),
                text.lines().filter(|l| !l.starts_with('#')).count()
            );
        }
        None => print!("{text}"),
    }
    Ok(())
}
