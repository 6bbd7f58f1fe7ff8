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
    /// Also ask a Go program over GTP (its command, words split at spaces: "/usr/games/gnugo
    /// --mode gtp"), each problem set up by `play`, for its status by its owl module
    /// (`owl_attack` / `owl_defend`), printed beside ours; run in the sandbox of every outside
    /// program, at most 60 s a problem.
    #[arg(long, value_name = "COMMAND")]
    pub(crate) gtp: Option<String>,
}

/// `--gtp`: a Go program asked each problem's status (`tsumego::gtp`), and the tally of its
/// threat-free answers against ours.
pub(crate) struct GtpAsker {
    spec: gamelab::agent::external::ExternalSpec,
    command: String,
    /// Agree, differ, a ko answer, ours not threat-free (not compared).
    counts: [usize; 4],
}

/// How long a GTP program may think about one problem.
const GTP_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

impl GtpAsker {
    pub(crate) fn new(command: &str) -> Result<GtpAsker> {
        let words: Vec<&str> = command.split_whitespace().collect();
        if words.is_empty() {
            return Err(InputError::plain("--gtp: give the program's command").into());
        }
        let command = words.iter().map(|w| toml::Value::from(*w)).collect();
        let spec: gamelab::agent::external::ExternalSpec =
            toml::Table::from_iter([("command".to_string(), toml::Value::Array(command))])
                .try_into()
                .map_err(|e| InputError::plain(format!("--gtp: {e}")))?;
        // Started once (the handshake alone) before anything is solved or printed.
        gamelab::agent::external::gtp_session(&spec, &[], GTP_LIMIT)
            .map_err(|e| InputError::plain(format!("--gtp {}: {e}", words[0])))?;
        Ok(GtpAsker {
            spec,
            command: words[0].to_string(),
            counts: [0; 4],
        })
    }

    /// The line said under a problem's own: the program's status, its move, and whether the
    /// threat-free answers agree.
    pub(crate) fn ask(
        &mut self,
        p: &gamelab::game::tsumego::Problem,
        ours: gamelab::game::tsumego::Status,
    ) -> Result<String> {
        use gamelab::game::tsumego::Status;
        let failed = |e: String| {
            InputError::plain(format!("--gtp {}: problem {}: {e}", self.command, p.name))
        };
        let (commands, questions) =
            gamelab::game::tsumego::gtp::commands(p).map_err(InputError::plain)?;
        let answers = gamelab::agent::external::gtp_session(&self.spec, &commands, GTP_LIMIT)
            .map_err(failed)?;
        let from = commands.len() - questions;
        let said =
            gamelab::game::tsumego::gtp::read_answers(p, &commands[from..], &answers[from..])
                .map_err(failed)?;
        let plain = matches!(ours, Status::Alive | Status::Dead);
        let (k, verdict) = match said.status {
            None => (2, "a ko answer, not compared".to_string()),
            Some(_) if !plain => (3, format!("ours is {ours}, not threat-free: not compared")),
            Some(s) if s == ours => (0, "agrees".to_string()),
            Some(_) => (1, "differs".to_string()),
        };
        self.counts[k] += 1;
        Ok(format!(
            "  {}: {}{} ({}: {}): {verdict}",
            self.command,
            said.status.map_or("ko".to_string(), |s| s.to_string()),
            said.by.map(|m| format!(" by {m}")).unwrap_or_default(),
            said.asked,
            said.answer
        ))
    }

    pub(crate) fn summary(&self) -> String {
        let [agree, differ, ko, not_plain] = self.counts;
        format!(
            "{}: {agree} agree, {differ} differ on the threat-free status; {ko} ko answers; {not_plain} ours with ko (not compared)",
            self.command
        )
    }
}

pub(crate) fn execute(args: SolveArgs) -> Result<()> {
    let SolveArgs {
        file,
        weights,
        node_budget,
        problem,
        status_only,
        search,
        gtp,
    } = args;
    let mut gtp = gtp.as_deref().map(GtpAsker::new).transpose()?;
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
            gtp.as_mut(),
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
        if let Some(g) = gtp.as_mut() {
            println!("{}", g.ask(p, s.status)?);
        }
    }
    if let Some(g) = &gtp {
        println!("{}", g.summary());
    }
    Ok(())
}
