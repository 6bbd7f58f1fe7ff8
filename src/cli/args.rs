//! The command line's words: every subcommand and its options (clap), and the top-level help
//! that lists them by group.

use crate::*;

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
    Run {
        /// The experiment file (TOML).
        file: PathBuf,
        /// Root folder for outputs: rows go to OUT/results/<experiment>/.
        #[arg(long, default_value = ".")]
        out: PathBuf,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Run only shard I of N (1-based), chosen by job hash, e.g. --shard 2/4.
        #[arg(long, value_name = "I/N")]
        shard: Option<Shard>,
        /// Row format.
        #[arg(long, value_enum, default_value_t = Format::Parquet)]
        format: Format,
        /// Validate the file and print the job grid without running anything.
        #[arg(long)]
        dry_run: bool,
        /// Distribute the work over MPI ranks: run as `mpirun -n N gamelab run FILE --mpi`;
        /// rank 0 runs the experiment and writes everything, ranks 1..N-1 compute units of work
        /// (needs a build with the `mpi` feature: `make mpi`).
        #[arg(long)]
        mpi: bool,
    },
    /// Evolve a weight table with a GA experiment (kind = "ga"), draw it, and check it in an
    /// arena tournament against SimpleMCTS with uniform rollouts and the built-ins.
    Tune {
        /// A GA experiment file (kind = "ga").
        file: PathBuf,
        /// Root folder for the run's results and figures (OUT/results/<experiment>/).
        #[arg(long, default_value = ".")]
        out: PathBuf,
        /// Worker threads (default: one a core).
        #[arg(long)]
        threads: Option<usize>,
        /// SimpleMCTS rollouts per move in the check tournament.
        #[arg(long, default_value_t = 200)]
        rollouts: u64,
        /// Games per ordered pair in the check tournament.
        #[arg(long, default_value_t = 10)]
        rounds: u32,
    },
    /// Compute the statistics and figures of an experiment from its rows.
    Report {
        /// The experiment file (TOML) whose rows to report on (run it first with `gamelab run`).
        file: PathBuf,
        /// Root folder the run wrote to: reads OUT/results/<experiment>/, writes the report
        /// there and figures to OUT/figures/<experiment>/.
        #[arg(long, default_value = ".")]
        out: PathBuf,
        /// Tables as Markdown in report.md only (md), or also one CSV file each (csv).
        #[arg(long, value_enum, default_value_t = TableFormat::Csv)]
        format: TableFormat,
        /// Also keep the report's tables (report.md, the CSV files, jobs.json) and the
        /// experiment file in DIR/<experiment>/, replacing what was there: a reference
        /// artefact small enough for git (`make reproduce-*` keep theirs in docs/reports/).
        #[arg(long, value_name = "DIR")]
        keep: Option<PathBuf>,
    },
    /// Write Slurm batch scripts for an experiment: a job array over shards (--shards N) or one
    /// MPI job (--mpi-ranks R), and a report job that waits for it; prints how to submit them.
    Slurm {
        /// The experiment file (TOML).
        file: PathBuf,
        /// Root folder for outputs, as for `run`; the scripts go to OUT/slurm/<experiment>/.
        #[arg(long, default_value = ".")]
        out: PathBuf,
        /// A job array of N tasks, task I running `gamelab run FILE --shard I/N`.
        #[arg(long, value_name = "N")]
        shards: Option<u64>,
        /// Instead: one job of R MPI ranks, `mpirun -n R gamelab run FILE --mpi` (an MPI build).
        #[arg(long, value_name = "R")]
        mpi_ranks: Option<u64>,
        /// Time limit of each task, in Slurm's format (minutes, HH:MM:SS, D-HH:MM).
        #[arg(long, default_value = "1:00:00")]
        time: String,
        /// The partition (queue) to submit to (default: the cluster's default).
        #[arg(long)]
        partition: Option<String>,
        /// CPUs per task (the threads of each shard or rank).
        #[arg(long, default_value_t = 2)]
        cpus_per_task: u64,
        /// Row format of the run.
        #[arg(long, value_enum, default_value_t = Format::Parquet)]
        format: Format,
    },
    /// Check an MPI setup: under `mpirun -n N gamelab mpi-check`, rank 0 sends small units to
    /// the N-1 workers, checks every answer, and prints the time per unit (a build with the
    /// `mpi` feature).
    MpiCheck {
        /// Units to send.
        #[arg(long, default_value_t = 20000)]
        units: usize,
        /// Bytes per unit (and per answer).
        #[arg(long, default_value_t = 64)]
        bytes: usize,
    },
    /// Print the row schemas of every job kind (docs/rows.md) as the row writers build them.
    Schema,
    /// Print the course adapters' absolute paths, with an agent section for each, to paste into
    /// an experiment file kept in a student's own folder (its `cwd`).
    Adapters,
    /// Count the leaves of the game tree from a stage's start, for each depth 1..=D (othello,
    /// freckers).
    Perft {
        /// The game: othello or freckers.
        #[arg(long, default_value = "othello")]
        game: String,
        /// A built-in stage id, an inline stage table `{ id = "x", size = 6, ... }` (with the rule
        /// flags ignore_occlusion, fewer_pieces_continue), or a TOML file of one.
        #[arg(long, default_value = "standard8")]
        stage: String,
        /// Plies to count leaf positions to.
        #[arg(long)]
        depth: u32,
        /// Othello: a pass uses no ply (default: a pass counts as a ply).
        #[arg(long)]
        pass_no_ply: bool,
        /// Freckers: every landing of a multi-jump must be a pad (default: the referee's rule).
        #[arg(long)]
        strict: bool,
    },
    /// List the legal moves of a position (othello, colosseum, freckers), one per line: a
    /// position file, or a start (Othello: any stage) with the moves of a transcript played.
    Moves {
        /// The game: othello, colosseum or freckers.
        #[arg(long, default_value = "colosseum")]
        game: String,
        /// A position in the game's text format (see `gamelab show`).
        #[arg(long, conflicts_with = "stage")]
        position: Option<PathBuf>,
        /// Othello: the stage whose start to begin from (a built-in id, an inline table or a
        /// file, as for `gamelab perft`; default standard8).
        #[arg(long)]
        stage: Option<String>,
        /// Moves to play first, as a transcript ("f5d6c3"; passes may be left out).
        #[arg(long)]
        moves: Option<String>,
    },
    /// Draw a position: a position file (othello, colosseum, freckers, tsumego), or a start:
    /// Colosseum's random setup of a size and seed, Freckers' and Othello's (standard8) start.
    Show {
        /// The game: othello, colosseum, freckers or tsumego (a problem: --position).
        #[arg(long, default_value = "colosseum")]
        game: String,
        /// A position in the game's text format to show (instead of a start).
        #[arg(long, conflicts_with_all = ["size", "seed", "stage"])]
        position: Option<PathBuf>,
        /// Othello: the stage whose start to show (a built-in id, an inline table or a file, as
        /// for `gamelab perft`; default standard8).
        #[arg(long)]
        stage: Option<String>,
        /// Moves to play first, as a transcript ("f5d6c3" for Othello, passes may be left out;
        /// rows' `transcript` column as it is): shows the position after them.
        #[arg(long)]
        moves: Option<String>,
        /// Board size of a random setup.
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// Seed of a random setup.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Solve life-and-death problems (the problem text format, SGF, or GoTools' own files): the
    /// status (l, d, lNd, dNl), the winning first moves of the side to move, and the search
    /// counters. A GoTools file (lvA.B) or a folder of them: each question (a side to move)
    /// with GoTools' answer beside ours: agree, differ or unknown.
    Solve {
        /// A problem file (one or more problems), an .sgf file, a GoTools file or a folder of
        /// GoTools files.
        file: PathBuf,
        /// Heuristic weights: reference, zero, or a file of `feature value` lines (features not
        /// listed keep their reference value; names in src/game/tsumego/heuristic.rs).
        #[arg(long, default_value = "reference")]
        weights: String,
        /// Node budget per problem (past it the status is '?').
        #[arg(long, default_value_t = 2_000_000)]
        node_budget: u64,
        /// Only this problem of the file (by name).
        #[arg(long)]
        problem: Option<String>,
        /// Skip the search for all winning first moves (status and counters only).
        #[arg(long)]
        status_only: bool,
        /// The search: dfpn (proof-number search) or alphabeta (plain depth-first).
        #[arg(long, value_enum, default_value = "dfpn")]
        search: gamelab::game::tsumego::solver::Search,
    },
    /// Our solver against GoTools' own answers: a seeded sample of questions per level from a
    /// folder of GoTools' files (lvA.B), solved within a time limit each; prints a table per
    /// level (questions, solved, plain and ko status agreement, first-move agreement, median
    /// nodes, nodes/s). `make check-gotools PROBLEMS=DIR`.
    CheckGotools {
        /// The folder of GoTools' files (default: $GOTOOLS_PROBLEMS).
        dir: Option<PathBuf>,
        /// Questions sampled per level (all volumes of a level together).
        #[arg(long, default_value_t = 100)]
        per_level: usize,
        /// Seed of the sample of questions (the same seed, the same questions).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Wall-clock seconds per question; past it the question is unsolved.
        #[arg(long, default_value_t = 10.0)]
        time_limit: f64,
        /// Node budget per question.
        #[arg(long, default_value_t = 100_000_000)]
        node_budget: u64,
        /// Heuristic weights: reference, zero, or a file of `feature value` lines.
        #[arg(long, default_value = "reference")]
        weights: String,
        /// Only these levels, as FIRST-LAST or one level.
        #[arg(long, default_value = "1-14")]
        levels: String,
        /// Worker threads (default: one a core); each holds one solver, whose tables take
        /// up to 740 MB (2^23 slots, `solver::DEEP_TABLE_BITS`; 1.2 GB for two threads on level 14).
        #[arg(long)]
        threads: Option<usize>,
        /// Also write one CSV row per question here.
        #[arg(long)]
        csv: Option<PathBuf>,
        /// The search: dfpn (proof-number search) or alphabeta (plain depth-first).
        #[arg(long, value_enum, default_value = "dfpn")]
        search: gamelab::game::tsumego::solver::Search,
    },
    /// Generate life-and-death problem files lv<set>-<level> (reproducible from the seed), and
    /// print the calibration: leaves per level with the reference weights.
    GenProblems {
        /// Problem sets to draw (files lv<set>.<level>, as GoTools' volumes).
        #[arg(long, default_value_t = 6)]
        sets: u8,
        /// Levels, as FIRST-LAST (1-14) or one level.
        #[arg(long, default_value = "1-14")]
        levels: String,
        /// Problems per set and level.
        #[arg(long, default_value_t = 280)]
        per_level: usize,
        /// Seed of the draw (the same seed, the same problems).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output folder (created).
        #[arg(long)]
        out: PathBuf,
        /// Node budget per problem: positions the reference weights cannot solve within it are
        /// not kept.
        #[arg(long, default_value_t = 2_000_000)]
        node_budget: u64,
        /// Worker threads (default: one a core).
        #[arg(long)]
        threads: Option<usize>,
        /// Also write the draws the reference weights could not solve within the node budget,
        /// as OUT/unsolved/lv<set>-<level> (for calibrating levels and the solver).
        #[arg(long)]
        keep_unsolved: bool,
    },
    /// Write an Othello opening suite: one line per distinct position PLIES moves from a
    /// stage's start, up to the board's rotations and reflections (how the suites in
    /// openings/ were made).
    Openings {
        /// The game (othello: the only one with opening suites today).
        #[arg(long, default_value = "othello")]
        game: String,
        /// A built-in stage id, an inline stage table or a TOML file of one.
        #[arg(long, default_value = "standard8")]
        stage: String,
        /// Moves from the start to each position of the suite (at least 1).
        #[arg(long, default_value_t = 4)]
        plies: u32,
        /// Write the suite to this file (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Print one game of an experiment's rows move by move, each position in the game's text
    /// format, and check that it replays to the recorded scores.
    Replay {
        /// The experiment file whose rows hold the game.
        file: PathBuf,
        /// The job's hash (the `job` column; a unique prefix is enough).
        #[arg(long)]
        job: String,
        /// The game's index in the job (the `game` column).
        #[arg(long)]
        game: u32,
        /// Root folder the run wrote to (reads OUT/results/<experiment>/).
        #[arg(long, default_value = ".")]
        out: PathBuf,
    },
    /// Write the games of an experiment as game records, one file per job: PGN for chess, SGF
    /// for go and life-and-death solves, Othello transcripts (`f5d6c3`), Colosseum and Freckers
    /// move lists with their start positions, each game with a header (players, result, stage,
    /// opening).
    Games {
        /// The experiment file whose rows to export.
        file: PathBuf,
        /// Root folder the run wrote to (reads OUT/results/<experiment>/), as in run and report.
        #[arg(long, default_value = ".")]
        out: PathBuf,
        /// Folder to write the records to (created) [default: OUT/results/<experiment>/records].
        #[arg(long)]
        to: Option<PathBuf>,
    },
    /// One page of every published value the experiments' reports compared (paper value and
    /// n, ours and n, difference, p, verdict): OUT/results/summary.md and summary.csv.
    Summary {
        /// Experiment files (those without published values are skipped; report the others
        /// first).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Root folder the runs wrote to.
        #[arg(long, default_value = ".")]
        out: PathBuf,
        /// Also write the page here (`make reproduction`: docs/reproduction.md).
        #[arg(long)]
        page: Option<PathBuf>,
        /// Read each experiment's report from DIR/<experiment>/ (reports kept with `gamelab
        /// report --keep DIR`) instead of OUT's results: `make reproduction` builds
        /// docs/reproduction.md from docs/reports/ alone, without a run.
        #[arg(long, value_name = "DIR")]
        reports: Option<PathBuf>,
    },
    /// List games, stages, agent kinds and experiment files.
    List {
        /// Folder of experiment files.
        #[arg(long, default_value = "experiments")]
        experiments: PathBuf,
    },
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
