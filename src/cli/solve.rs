//! `gamelab solve`: solve life-and-death problems (the problem text format, SGF, or GoTools' own
//! files): the status (l, d, lNd, dNl), the winning first moves of the side to move, and the search
//! counters.

use super::*;

#[derive(clap::Args)]
pub(crate) struct SolveArgs {
    /// A problem file (one or more problems), an .sgf file, a GoTools file or a folder of
    /// GoTools files.
    pub(crate) file: PathBuf,
    /// Heuristic weights: reference, zero, or a file of `feature value` lines (features not
    /// listed keep their reference value; names in src/game/tsumego/heuristic.rs).
    #[arg(long, default_value = "reference")]
    pub(crate) weights: String,
    /// Node budget per problem (past it the status is '?').
    #[arg(long, default_value_t = 2_000_000)]
    pub(crate) node_budget: u64,
    /// Only this problem of the file (by name).
    #[arg(long)]
    pub(crate) problem: Option<String>,
    /// Skip the search for all winning first moves (status and counters only).
    #[arg(long)]
    pub(crate) status_only: bool,
    /// The search: dfpn (proof-number search) or alphabeta (plain depth-first).
    #[arg(long, value_enum, default_value = "dfpn")]
    pub(crate) search: gamelab::game::tsumego::solver::Search,
}

pub(crate) fn execute(args: SolveArgs) -> Result<()> {
    let SolveArgs {
        file,
        weights,
        node_budget,
        problem,
        status_only,
        search,
    } = args;
    if node_budget == 0 {
        return Err(InputError::plain("--node-budget must be at least 1").into());
    }
    let w = gamelab::game::tsumego::heuristic::load_weights(&weights)
        .map_err(|e| InputError::plain(format!("--weights: {e}")))?;
    if is_gotools_path(&file) {
        return solve_gotools(
            &file,
            &w,
            node_budget,
            problem.as_deref(),
            search,
            status_only,
        );
    }
    let problems = read_problems(&file)?;
    let chosen: Vec<&gamelab::game::tsumego::Problem> = problems
        .iter()
        .filter(|p| problem.as_ref().is_none_or(|n| &p.name == n))
        .collect();
    if chosen.is_empty() {
        return Err(InputError {
            file: Some(file.clone()),
            line_col: None,
            key: None,
            message: format!("no problem named '{}'", problem.unwrap_or_default()),
        }
        .into());
    }
    let mut solver =
        gamelab::game::tsumego::Solver::new(gamelab::game::tsumego::solver::DEEP_TABLE_BITS);
    let limits = gamelab::game::tsumego::Limits::with_budget(node_budget).searching(search);
    for p in chosen {
        let s = solver.solve(p, &w, limits, !status_only);
        let moves: Vec<String> = s.winning_moves.iter().map(|&m| p.move_name(m)).collect();
        let c = s.counters;
        // Seki counts as alive; say so (a second search, not in the counters).
        let seki = match s.status {
            gamelab::game::tsumego::Status::Alive
            | gamelab::game::tsumego::Status::AliveUnlessKo(_) => {
                match solver.lives_in_seki(p, &w, limits) {
                    Some(true) => " (seki)",
                    Some(false) => "",
                    None => " (seki undecided within the node budget)",
                }
            }
            _ => "",
        };
        println!(
            "{}: {}{seki} ({} to move){}; nodes {}, leaves {}, tt hits {}, depth {}, {:.3} s{}",
            p.name,
            s.status,
            p.start.to_move.name(),
            if moves.is_empty() {
                String::new()
            } else {
                format!("; winning moves {}", moves.join(" "))
            },
            c.nodes,
            c.leaves,
            c.tt_hits,
            c.max_depth,
            c.time_s,
            match p.status {
                Some(r) if r != s.status => format!("; recorded status {r} differs"),
                _ => String::new(),
            }
        );
    }
    Ok(())
}
