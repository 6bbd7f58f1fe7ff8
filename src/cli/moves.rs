//! `gamelab moves`: list the legal moves of a position (othello, colosseum, freckers), one per
//! line: a position file, or a start (Othello: any stage) with the moves of a transcript played.

use super::*;

#[derive(clap::Args)]
pub(crate) struct MovesArgs {
    /// The game: othello, colosseum or freckers.
    #[arg(long, default_value = "colosseum")]
    pub(crate) game: String,
    /// A position in the game's text format (see `gamelab show`).
    #[arg(long, conflicts_with = "stage")]
    pub(crate) position: Option<PathBuf>,
    /// Othello: the stage whose start to begin from (a built-in id, an inline table or a
    /// file, as for `gamelab perft`; default standard8).
    #[arg(long)]
    pub(crate) stage: Option<String>,
    /// Moves to play first, as a transcript ("f5d6c3"; passes may be left out).
    #[arg(long)]
    pub(crate) moves: Option<String>,
}

pub(crate) fn execute(args: MovesArgs) -> Result<()> {
    let MovesArgs {
        game,
        position,
        stage,
        moves,
    } = args;
    let names: Vec<String> = match game.as_str() {
        "othello" => legal_names(&othello_position(
            position.as_ref(),
            stage.as_deref(),
            moves.as_deref(),
        )?),
        "freckers" => legal_names(&freckers_position(position.as_ref(), moves.as_deref())?),
        _ => {
            colosseum_only(&game)?;
            let Some(p) = &position else {
                return Err(InputError::plain(
                    "--game colosseum needs --position FILE (boards are random setups)",
                )
                .into());
            };
            let g = gamelab::game::colosseum::text::parse(&read_position(p)?)
                .map_err(|e| position_error(p, e))?;
            legal_names(&after_moves(g, moves.as_deref())?)
        }
    };
    for n in &names {
        println!("{n}");
    }
    eprintln!("{} legal moves", names.len());
    Ok(())
}
