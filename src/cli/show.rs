//! `gamelab show`: draw a position: a position file (othello, colosseum, freckers, tsumego), or a
//! start: Colosseum's random setup of a size and seed, Freckers' and Othello's (standard8) start.

use super::*;

#[derive(clap::Args)]
pub(crate) struct ShowArgs {
    /// The game: othello, colosseum, freckers or tsumego (a problem: --position).
    #[arg(long, default_value = "colosseum")]
    pub(crate) game: String,
    /// A position in the game's text format to show (instead of a start).
    #[arg(long, conflicts_with_all = ["size", "seed", "stage"])]
    pub(crate) position: Option<PathBuf>,
    /// Othello: the stage whose start to show (a built-in id, an inline table or a file, as
    /// for `gamelab perft`; default standard8).
    #[arg(long)]
    pub(crate) stage: Option<String>,
    /// Moves to play first, as a transcript ("f5d6c3" for Othello, passes may be left out;
    /// rows' `transcript` column as it is): shows the position after them.
    #[arg(long)]
    pub(crate) moves: Option<String>,
    /// Board size of a random setup.
    #[arg(long, default_value_t = 8)]
    pub(crate) size: usize,
    /// Seed of a random setup.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
}

pub(crate) fn execute(args: ShowArgs) -> Result<()> {
    let ShowArgs {
        game,
        position,
        stage,
        moves,
        size,
        seed,
    } = args;
    if game == "tsumego" {
        let Some(path) = &position else {
            return Err(InputError::plain(
                "--game tsumego needs --position FILE (a problem file or .sgf)",
            )
            .into());
        };
        for p in read_problems(path)? {
            println!("problem {}", p.name);
            print!("{}", p.draw());
            if let Some(st) = p.status {
                println!("recorded status: {st}");
            }
            if !p.winning.is_empty() {
                println!(
                    "recorded winning moves: {}",
                    p.winning
                        .iter()
                        .map(|&m| p.move_name(m))
                        .collect::<Vec<_>>()
                        .join(" ")
                );
            }
        }
        return Ok(());
    }
    if game == "othello" {
        let g = othello_position(position.as_ref(), stage.as_deref(), moves.as_deref())?;
        print!("{}", gamelab::game::othello::text::to_text(&g));
        let (black, white) = (
            g.discs(gamelab::game::Player::First).count_ones(),
            g.discs(gamelab::game::Player::Second).count_ones(),
        );
        match g.outcome() {
            None => println!("# game on; discs: black {black}, white {white}"),
            Some(o) => println!(
                "# game over: {}; discs: black {black}, white {white}",
                outcome_words(o, ["black", "white"])
            ),
        }
        return Ok(());
    }
    if game == "freckers" {
        let g = freckers_position(position.as_ref(), moves.as_deref())?;
        print!("{}", gamelab::game::freckers::text::to_text(&g));
        let s = g.scores();
        match g.outcome() {
            None => println!(
                "# game on after {} actions; frogs home: red {}, blue {}",
                g.actions_played(),
                s[0],
                s[1]
            ),
            Some(o) => println!(
                "# game over: {}, frogs home: red {}, blue {}",
                outcome_words(o, ["red", "blue"]),
                s[0],
                s[1]
            ),
        }
        return Ok(());
    }
    let g = match &position {
        Some(p) => {
            colosseum_only(&game)?;
            gamelab::game::colosseum::text::parse(&read_position(p)?)
                .map_err(|e| position_error(p, e))?
        }
        None => {
            colosseum_only(&game)?;
            let stage = gamelab::game::colosseum::ColosseumStage::parse(&format!("size-{size}"))
                .map_err(|e| InputError::plain(format!("--size: {e}")))?;
            stage.setup(seed).map_err(InputError::plain)?
        }
    };
    let g = after_moves(g, moves.as_deref())?;
    print!("{}", gamelab::game::colosseum::text::to_text(&g));
    let s = g.scores();
    match g.outcome() {
        None => println!(
            "# {} to move, max_step {}; game on, shared region of {} cells",
            side_name(&g),
            g.max_step(),
            s[0]
        ),
        Some(o) => println!(
            "# game over: {}, regions A {} : B {}",
            outcome_words(o, ["A", "B"]),
            s[0],
            s[1]
        ),
    }
    Ok(())
}

/// "black wins", "draw": a game's end in the names of its sides.
fn outcome_words(o: gamelab::game::Outcome, sides: [&str; 2]) -> String {
    match o {
        gamelab::game::Outcome::Win(gamelab::game::Player::First) => format!("{} wins", sides[0]),
        gamelab::game::Outcome::Win(gamelab::game::Player::Second) => format!("{} wins", sides[1]),
        gamelab::game::Outcome::Draw => "draw".to_string(),
    }
}
