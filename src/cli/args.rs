//! The command line's words: the subcommands (each variant's options are the `Args` struct of
//! its own file in cli/), and the top-level help that lists them by group.

use super::*;

#[derive(Parser)]
#[command(
    name = "gamelab",
    version,
    about = "Reproducible game-AI experiments: run an experiment file, then report on its rows."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum TableFormat {
    Md,
    Csv,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Expand an experiment file into jobs and play the ones not yet done.
    Run(cli::run::RunArgs),
    /// Evolve a weight table with a GA experiment (kind = "ga"), draw it, and check it in an
    /// arena tournament against SimpleMCTS with uniform rollouts and the built-ins.
    Tune(cli::tune::TuneArgs),
    /// Compute the statistics and figures of an experiment from its rows.
    Report(cli::report::ReportArgs),
    /// Write Slurm batch scripts for an experiment: a job array over shards (--shards N) or one
    /// MPI job (--mpi-ranks R), and a report job that waits for it; prints how to submit them.
    Slurm(cli::slurm::SlurmArgs),
    /// Check an MPI setup: under `mpirun -n N gamelab mpi-check`, rank 0 sends small units to
    /// the N-1 workers, checks every answer, and prints the time per unit (a build with the
    /// `mpi` feature).
    MpiCheck(cli::mpi_check::MpiCheckArgs),
    /// Print the row schemas of every job kind (docs/rows.md) as the row writers build them.
    Schema,
    /// Print the course adapters' absolute paths, with an agent section for each, to paste into
    /// an experiment file kept in a student's own folder (its `cwd`).
    Adapters,
    /// Count the leaves of the game tree from a stage's start, for each depth 1..=D (othello,
    /// freckers).
    Perft(cli::perft::PerftArgs),
    /// List the legal moves of a position (othello, colosseum, freckers), one per line: a
    /// position file, or a start (Othello: any stage) with the moves of a transcript played.
    Moves(cli::moves::MovesArgs),
    /// Draw a position: a position file (othello, colosseum, freckers, tsumego), or a start:
    /// Colosseum's random setup of a size and seed, Freckers' and Othello's (standard8) start.
    Show(cli::show::ShowArgs),
    /// Solve life-and-death problems (the problem text format, SGF, or GoTools' own files): the
    /// status (l, d, lNd, dNl), the winning first moves of the side to move, and the search
    /// counters. A GoTools file (lvA.B) or a folder of them: each question (a side to move)
    /// with GoTools' answer beside ours: agree, differ or unknown.
    Solve(cli::solve::SolveArgs),
    /// Our solver against GoTools' own answers: a seeded sample of questions per level from a
    /// folder of GoTools' files (lvA.B), solved within a time limit each; prints a table per
    /// level (questions, solved, plain and ko status agreement, first-move agreement, median
    /// nodes, nodes/s). `make check-gotools PROBLEMS=DIR`.
    CheckGotools(cli::check_gotools::CheckGotoolsArgs),
    /// Generate life-and-death problem files lv<set>-<level> (reproducible from the seed), and
    /// print the calibration: leaves per level with the reference weights.
    GenProblems(cli::gen_problems::GenProblemsArgs),
    /// Write an Othello opening suite: one line per distinct position PLIES moves from a
    /// stage's start, up to the board's rotations and reflections (how the suites in
    /// openings/ were made).
    Openings(cli::openings::OpeningsArgs),
    /// Print one game of an experiment's rows move by move, each position in the game's text
    /// format, and check that it replays to the recorded scores.
    Replay(cli::replay::ReplayArgs),
    /// Write the games of an experiment as game records, one file per job: PGN for chess, SGF
    /// for go and life-and-death solves, Othello transcripts (`f5d6c3`), Colosseum and Freckers
    /// move lists with their start positions, each game with a header (players, result, stage,
    /// opening).
    Games(cli::games::GamesArgs),
    /// One page of every published value the experiments' reports compared (paper value and
    /// n, ours and n, difference, p, verdict): OUT/results/summary.md and summary.csv.
    Summary(cli::summary::SummaryArgs),
    /// List games, stages, agent kinds and experiment files.
    List(cli::list::ListArgs),
}

/// The top-level help's groups of subcommands, in the order a newcomer needs them (each
/// subcommand in exactly one: a test checks).
pub(crate) const COMMAND_GROUPS: [(&str, &[&str]); 5] = [
    (
        "Experiments",
        &[
            "run", "report", "list", "replay", "games", "summary", "tune",
        ],
    ),
    ("Positions", &["show", "moves", "perft", "openings"]),
    (
        "Go life and death",
        &["solve", "check-gotools", "gen-problems"],
    ),
    (
        "Clusters and course agents",
        &["slurm", "mpi-check", "adapters"],
    ),
    ("Maintenance", &["schema", "help"]),
];

/// The command line, its top-level help listing the subcommands by `COMMAND_GROUPS`, each
/// with the first sentence of its description.
pub(crate) fn cli_command() -> clap::Command {
    use clap::CommandFactory;
    let cmd = Cli::command();
    let about = |name: &str| -> String {
        let text = cmd
            .find_subcommand(name)
            .and_then(|c| c.get_about())
            .map(|a| a.to_string())
            .unwrap_or_else(|| "Print this message or the help of the given subcommand(s)".into());
        let first = text.split(". ").next().unwrap_or(&text);
        let first = first.split(": ").next().unwrap_or(first);
        first.trim_end_matches('.').to_string()
    };
    let mut groups = String::new();
    for (heading, names) in COMMAND_GROUPS {
        groups += &format!("{heading}:\n");
        for name in names {
            groups += &format!("  {name:<14} {}\n", about(name));
        }
        groups.push('\n');
    }
    cmd.help_template(format!(
        "{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{groups}Options:\n{{options}}{{after-help}}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every subcommand and every option says what it is for in `--help`.
    #[test]
    fn every_subcommand_and_option_has_a_help_line() {
        let mut missing = Vec::new();
        let cli = Cli::command();
        for sub in cli.get_subcommands() {
            if sub.get_about().is_none() {
                missing.push(sub.get_name().to_string());
            }
            for arg in sub.get_arguments() {
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{} --{}", sub.get_name(), arg.get_id()));
                }
            }
        }
        assert!(missing.is_empty(), "without a help line: {missing:?}");
    }

    /// The top-level help lists every subcommand once, under its group.
    #[test]
    fn the_top_level_help_lists_every_subcommand_once_by_group() {
        let mut listed: Vec<&str> = COMMAND_GROUPS
            .iter()
            .flat_map(|(_, n)| n.iter().copied())
            .collect();
        listed.sort();
        let mut all: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .chain(["help".to_string()])
            .collect();
        all.sort();
        assert_eq!(listed, all);
        let help = cli_command().render_help().to_string();
        assert!(
            help.find("Experiments:").unwrap() < help.find("Go life and death:").unwrap(),
            "{help}"
        );
        assert!(
            help.contains("  run            Expand an experiment file"),
            "{help}"
        );
    }
}
