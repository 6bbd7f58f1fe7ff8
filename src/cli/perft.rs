//! `gamelab perft`: count the leaves of the game tree from a stage's start, for each depth 1..=D
//! (othello, freckers).

use super::*;

#[derive(clap::Args)]
pub(crate) struct PerftArgs {
    /// The game: othello or freckers.
    #[arg(long, default_value = "othello")]
    pub(crate) game: String,
    /// A built-in stage id, an inline stage table `{ id = "x", size = 6, ... }` (with the rule
    /// flags ignore_occlusion, fewer_pieces_continue), or a TOML file of one.
    #[arg(long, default_value = "standard8")]
    pub(crate) stage: String,
    /// Plies to count leaf positions to.
    #[arg(long)]
    pub(crate) depth: u32,
    /// Othello: a pass uses no ply (default: a pass counts as a ply).
    #[arg(long)]
    pub(crate) pass_no_ply: bool,
    /// Freckers: every landing of a multi-jump must be a pad (default: the referee's rule).
    #[arg(long)]
    pub(crate) strict: bool,
}

pub(crate) fn execute(args: PerftArgs) -> Result<()> {
    let PerftArgs {
        game,
        stage,
        depth,
        pass_no_ply,
        strict,
    } = args;
    match game.as_str() {
        "othello" => {
            let def = othello_stage(&stage)?;
            let start = gamelab::game::othello::Othello::new(&def).map_err(InputError::plain)?;
            let (t, mut leaves) = (std::time::Instant::now(), 0u64);
            for d in 1..=depth {
                let n = gamelab::game::othello::perft(&start, d, !pass_no_ply);
                leaves += n;
                println!("{d} {n}");
            }
            // The speed on stderr, so stdout stays the counts.
            let s = t.elapsed().as_secs_f64();
            eprintln!(
                "perft 1-{depth}: {leaves} leaves in {s:.3} s, {:.1} M leaves/s (one thread)",
                leaves as f64 / s.max(1e-9) / 1e6
            );
        }
        "freckers" => {
            let start = gamelab::game::freckers::Freckers::new(strict);
            for d in 1..=depth {
                println!("{d} {}", gamelab::game::freckers::perft(&start, d));
            }
        }
        _ => {
            return Err(InputError::plain(format!(
                "--game '{game}': perft is available for othello and freckers"
            ))
            .into());
        }
    }
    Ok(())
}
