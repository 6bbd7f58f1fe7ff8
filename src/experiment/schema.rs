//! The row schemas of every job kind, as documentation that cannot drift: `gamelab schema`
//! prints `docs/rows.md` from the frames the writers build (`rows`) and the meaning of each
//! column written here, and a test fails when the file differs from what the code writes, or
//! when a column has no meaning here (added, renamed, retyped or removed without its line).

use super::kind::ga::{GenerationRow, generations_frame};
use super::kind::solve::{GaRow, SolveRow, solves_frame, tsumego_generations_frame};
use super::kind::tune::{TuneRow, tuning_frame};
use super::rows::{GameRow, JobColumns, games_frame};
use anyhow::Result;
use polars::prelude::{DataFrame, DataType};

/// The columns every row starts with.
const ID: &[(&str, &str)] = &[
    ("experiment", "the experiment's `name`"),
    (
        "job",
        "the job's hash (16 hex digits): the hash of its fully resolved config",
    ),
    ("repeat", "the repetition of the grid point, 0-based"),
];

const GAMES: &[(&str, &str)] = &[
    (
        "game",
        "the game's index in the job, 0-based; its seed is derived from (job seed, game)",
    ),
    (
        "pair",
        "the colour-swapped pair the game belongs to (games 2k and 2k+1); null for a game without a partner",
    ),
    (
        "stage",
        "the stage id (Othello, Freckers) or the board played (`size-M` for Colosseum's random setups)",
    ),
    (
        "first_agent",
        "the label of the agent that moved first (black in Othello, A in Colosseum; in an OpenSpiel game the player who moves first, whatever OpenSpiel numbers it: White in chess, OpenSpiel's player 1)",
    ),
    ("second_agent", "the label of the agent that moved second"),
    ("winner", "`first`, `second` or `draw`"),
    (
        "first_score",
        "the first agent's final score (discs, cells of its region, or the game's own measure)",
    ),
    ("second_score", "the second agent's final score"),
    ("plies", "moves played, the opening's and passes included"),
    ("wall_ms", "the game's wall time in milliseconds"),
    (
        "first_simulations",
        "playouts (or iterations) the first agent ran in the game; 0 for agents that do not simulate",
    ),
    ("second_simulations", "the same for the second agent"),
    (
        "first_nodes",
        "search nodes the first agent expanded in the game",
    ),
    ("second_nodes", "the same for the second agent"),
    (
        "first_max_move_ms",
        "the longest the first agent thought about one move, in ms",
    ),
    ("second_max_move_ms", "the same for the second agent"),
    (
        "first_peak_tree_bytes",
        "the largest search tree the first agent held after a move, in bytes (counted: nodes x node size plus move lists); null for an agent without a tree",
    ),
    ("second_peak_tree_bytes", "the same for the second agent"),
    ("first_moves", "moves the first agent chose"),
    ("second_moves", "moves the second agent chose"),
    (
        "first_depth",
        "the mean depth the first agent's depth-limited search completed per move; null for agents without one",
    ),
    ("second_depth", "the same for the second agent"),
    (
        "first_cache_hit_rate",
        "the share of move-list lookups the first agent's move cache answered; null without a cache",
    ),
    ("second_cache_hit_rate", "the same for the second agent"),
    (
        "first_clock",
        "external agents: the clock the first agent's time ran on, `cpu` (CPU time of its processes, COMP30024's referee) or `wall` (COMP 424's); null for built-in agents",
    ),
    ("second_clock", "the same for the second agent"),
    (
        "first_clock_ms",
        "external agents: the time the first agent's moves took on its clock over the game, in ms; null for built-in agents",
    ),
    ("second_clock_ms", "the same for the second agent"),
    (
        "first_random_moves",
        "external agents under the random-move fault rule (`faults`, Colosseum's course): the first agent's faults that cost a move, not the game (a random legal move played for it; each in `fault_detail`); null for other agents",
    ),
    ("second_random_moves", "the same for the second agent"),
    (
        "first_think_ms",
        "the first agent's think time per move, in ms to a tenth, in order (a list; in CSV numbers separated by spaces)",
    ),
    ("second_think_ms", "the same for the second agent"),
    (
        "first_tree_kb",
        "the first agent's tree size after each move, in kB to a tenth (a list; null for an agent without a tree)",
    ),
    ("second_tree_kb", "the same for the second agent"),
    (
        "first_budget",
        "the first agent's budget as it was applied (iterations, or time for time budgets)",
    ),
    ("second_budget", "the same for the second agent"),
    (
        "transcript",
        "the moves in the game's notation, concatenated (Othello: `f5d6c3...`, passes left out; OpenSpiel: `NAME@ACTION;` each), the opening's first",
    ),
    (
        "termination",
        "`normal`, or the fault of the agent that lost by it: `illegal_move`, `timeout`, `crash`, `protocol_error`, `memory`, `resign` (external agents; `memory`: over its `memory_mb`; `resign`: a GTP engine resigned)",
    ),
    (
        "fault_detail",
        "the fault's evidence: the offending line, or what happened (at most its first 300 characters); in a normal game, the faults the random-move rule turned into random moves (seat, move number, fault, the move played), else empty",
    ),
    (
        "start_position",
        "games with a random setup (Colosseum): the start position in the text format of `gamelab show`; null for a fixed start",
    ),
    (
        "opening",
        "the opening the game started from (the first moves of `transcript`); null without `[openings]`",
    ),
    (
        "game_key",
        "a 52-bit hash of the start and the moves: equal keys are the same game (the report's repeated-game count)",
    ),
];

/// GA generation rows (`ga`): between the shared columns and `best`.
const GA_MEASURES: &[(&str, &str)] = &[
    (
        "points",
        "the individual's points in the generation's evaluation games (a win 1, a draw by the job's draw rule)",
    ),
    ("games", "evaluation games the individual played"),
];

const TSUMEGO_GA_MEASURES: &[(&str, &str)] = &[
    (
        "scaled_fitness",
        "the fitness shifted and scaled to [0, 1] within its generation",
    ),
    (
        "train_leaves",
        "dynamic fitness: leaves over the training set; null for the static fitness, which solves nothing to its end",
    ),
];

const GENERATION_HEAD: &[(&str, &str)] = &[
    ("generation", "the generation, 0-based"),
    (
        "individual",
        "the individual's index in its generation (after selection)",
    ),
    (
        "fitness",
        "the fitness selected on (per game by default, or the job's measure; for `tsumego_ga` the raw fitness: rank bonus or the formula's value)",
    ),
];

const GENERATION_TAIL: &[(&str, &str)] = &[
    (
        "best",
        "1 for the fittest individual of its generation (the first of equals), else 0",
    ),
    ("final", "1 in the job's last generation, else 0"),
];

const TABLE: &[(&str, &str)] = &[(
    "table",
    "the individual's full weight table, row-major, values separated by spaces",
)];
const GENES: &[(&str, &str)] = &[("genes", "the chromosome, genes separated by spaces")];

const SOLVES: &[(&str, &str)] = &[
    (
        "weights",
        "the label of the weight vector that solved the problem",
    ),
    (
        "problem",
        "the problem's name in the library (`lv<set>-<level>-NNN`; for GoTools' files, GoTools' name and the side to move, `P1028211/defender`)",
    ),
    (
        "set",
        "the library set the problem was read from (for GoTools' files, the volume)",
    ),
    ("level", "the problem's level (difficulty)"),
    ("band", "the level's band: `easy`, `medium` or `hard`"),
    (
        "status",
        "the status the solver found (`unknown` past the node budget or depth)",
    ),
    ("expected", "the status the library recorded"),
    ("correct", "1 when `status` is `expected`, else 0"),
    (
        "leaves",
        "terminal leaves: distinct positions the terminal test decided in this solve, each counted once however often the search met it (docs/rules/tsumego.md; before generator version 9, every meeting counted)",
    ),
    ("nodes", "nodes the search visited"),
    ("tt_hits", "transposition-table hits"),
    ("max_depth", "the deepest ply the search reached"),
    (
        "time_s",
        "the solve's time in seconds (a GA's test row reusing a solve made earlier in the run: that solve's time)",
    ),
    ("us_per_leaf", "`time_s` per leaf, in microseconds"),
    ("budget_hit", "1 when the node budget ran out, else 0"),
];

const TUNING: &[(&str, &str)] = &[
    ("tuner", "`hillclimb`, `ga` or `none`"),
    (
        "phase",
        "`tune` (the tuning games) or `eval` (the games of the final weights against the opponent)",
    ),
    ("game", "the game's index in its phase"),
    (
        "generation",
        "the GA generation (the game index for the hill-climber; 0 in `eval`)",
    ),
    ("individual", "the individual (0 for the hill-climber)"),
    ("tuned_first", "true when the tuned agent moved first"),
    (
        "result",
        "the tuned agent's result: 1 win, 0.5 draw, 0 loss",
    ),
    ("plies", "moves played"),
];

/// A column's type as the doc names it.
fn type_name(t: &DataType) -> String {
    match t {
        DataType::Int64 => "integer".into(),
        DataType::Float64 => "float".into(),
        DataType::String => "text".into(),
        DataType::Boolean => "boolean".into(),
        DataType::List(inner) => format!("list of {}", type_name(inner)),
        other => format!("{other}"),
    }
}

/// The table of `df`'s columns with their meanings; an error names a column without one, or a
/// meaning without a column.
fn table(kind: &str, df: &DataFrame, meanings: &[&[(&str, &str)]]) -> Result<String> {
    let meanings: Vec<(&str, &str)> = meanings.iter().flat_map(|m| m.iter().copied()).collect();
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|n| n.to_string())
        .collect();
    let described: Vec<&str> = meanings.iter().map(|(n, _)| *n).collect();
    if names != described {
        anyhow::bail!(
            "{kind} rows: the writer's columns are {names:?}, the schema describes {described:?}: describe each column in src/experiment/schema.rs"
        );
    }
    let mut s = String::from("| column | type | meaning |\n|---|---|---|\n");
    for ((name, meaning), col) in meanings.iter().zip(df.columns()) {
        s += &format!("| `{name}` | {} | {meaning} |\n", type_name(col.dtype()));
    }
    Ok(s)
}

/// `docs/rows.md`: every job kind's columns, types and meanings, from the writers themselves.
/// The section of docs/rows.md on reading the rows in pandas, polars and DuckDB. The tests run
/// its `python` blocks' lines as they are (tests/outside_tools.rs), with NAME an experiment's
/// name, in the folder that holds `results/`.
pub const OUTSIDE_TOOLS: &str = "## Reading the rows in other tools\n\n\
     An experiment's rows folder (`results/<name>/games/`, or `generations/`, `solves/`,\n\
     `tuning/`) holds the parts of the file's current jobs only: each `gamelab run` first moves the\n\
     parts of jobs the file no longer has (an agent's setting edited, a grid value taken out), with\n\
     their job records, to `results/<name>/older-jobs/` (the same folder names below it), and\n\
     moves them back when the file has those jobs again, so that their rows are reused. A glob over\n\
     the rows folder reads exactly the rows of the file as it was last run (a `**` glob over the\n\
     whole results folder would read `older-jobs/` too). `current-jobs.json` lists those jobs.\n\n\
     One line each, from the folder that holds `results/`, for an experiment named `NAME`\n\
     (its `name`, as in the rows' `experiment` column); for other kinds put their folder for `games`:\n\n\
     ```python\n\
     import duckdb; games = duckdb.sql(\"SELECT * FROM 'results/NAME/games/*.parquet'\")\n\
     import polars as pl; games = pl.read_parquet(\"results/NAME/games/*.parquet\")\n\
     import pandas as pd; games = pd.read_parquet(\"results/NAME/games/\")\n\
     ```\n\n\
     (`len(games)` is the number of rows in each; DuckDB counts them with\n\
     `SELECT count(*) FROM 'results/NAME/games/*.parquet'`; pandas needs pyarrow.) Rows written\n\
     with `--format csv`:\n\n\
     ```python\n\
     import duckdb; games = duckdb.sql(\"SELECT * FROM read_csv('results/NAME/games/*.csv', union_by_name = true)\")\n\
     import polars as pl; games = pl.read_csv(\"results/NAME/games/*.csv\", infer_schema_length=None)\n\
     import pandas as pd, glob; games = pd.concat(map(pd.read_csv, sorted(glob.glob(\"results/NAME/games/*.csv\"))))\n\
     ```\n\n";

pub fn markdown() -> Result<String> {
    let id = JobColumns {
        experiment: "x",
        job: "0000000000000000",
        repeat: 0,
        swept: Vec::new(),
    };
    let game = GameRow {
        winner: "draw",
        termination: "normal",
        pair: Some(0),
        ..GameRow::default()
    };
    let games = games_frame(&id, &[game])?;
    let generations = generations_frame(
        &id,
        &[GenerationRow {
            generation: 0,
            individual: 0,
            fitness: 0.0,
            points: 0.0,
            games: 0,
            best: true,
            table: String::new(),
        }],
    )?;
    let tsumego = tsumego_generations_frame(
        &id,
        &[GaRow {
            generation: 0,
            individual: 0,
            fitness: 0.0,
            scaled_fitness: 0.0,
            train_leaves: None,
            best: true,
            genes: String::new(),
        }],
    )?;
    let solves = solves_frame(
        &id,
        &[SolveRow {
            weights: String::new(),
            problem: String::new(),
            set: 1,
            level: 1,
            status: String::new(),
            expected: String::new(),
            leaves: 0,
            nodes: 0,
            tt_hits: 0,
            max_depth: 0,
            time_s: 0.0,
            budget_hit: false,
        }],
    )?;
    let tuning = tuning_frame(
        &id,
        &[],
        &[TuneRow {
            tuner: "none",
            phase: "tune",
            game: 0,
            generation: 0,
            individual: 0,
            tuned_first: true,
            result: 0.0,
            plies: 0,
            weights: Vec::new(),
            advantage: Vec::new(),
        }],
    )?;
    let mut s = String::from(
        "# Row schemas\n\n\
         Generated from the code by `gamelab schema` (a test fails when this file and the row writers\n\
         disagree; after changing a writer, describe the column in `src/experiment/schema.rs` and run\n\
         `cargo run --release -- schema > docs/rows.md`).\n\n\
         Rows are written one part file per job, `results/<experiment>/<folder>/part-<job>.parquet` (or\n\
         `.csv` with `--format csv`). Every row starts with the job's identity, then one column per\n\
         `[grid]` key, named by the key (`agents.mcts.rollouts`), typed as the axis's values (integer,\n\
         float when integers and floats mix, boolean, else text); a swept `stage` is the game rows' own\n\
         `stage` column instead. Then the kind's own columns.\n\n\
         Nulls stand where a value does not apply (the search depth of an agent without a depth-limited\n\
         search, the tree of an agent without one). Per-move values (`*_think_ms`, `*_tree_kb`) are\n\
         list columns in Parquet; in CSV, nulls are empty fields and a list is one field of numbers\n\
         separated by spaces.\n\n\
         A part is sealed in its job record (`jobs/<job>.json`: its size, xxh3 checksum and rows), and\n\
         checked whenever it is read. The first check reads every byte; a part found sound is then\n\
         stamped (`checked/<job>.<folder>.json`: its device, inode, size, modification and\n\
         status-change times), and while the file is as the stamp says, later checks read only its\n\
         Parquet footer (experiment, job, rows). What that keeps: any change made through the file\n\
         system since the check (a write, a truncation, a file renamed or copied over it) moves the\n\
         file's status-change time, which no program can set back, and brings the full check again;\n\
         a copied or restored results folder is read in full once. A file is stamped only two seconds\n\
         after its last change (file times move in clock ticks). What it does not keep: a change\n\
         below the file system (a disk that returns other bytes, a raw write to the device) after the\n\
         stamp; delete the `checked/` folder for a full check.\n\n",
    );
    s += OUTSIDE_TOOLS;
    s += "\n## Games (`match`, `tournament`): `games/`, one row per game\n\n";
    s += &table("game", &games, &[ID, GAMES])?;
    s += "\n## Othello GA (`ga`): `generations/`, one row per individual per generation\n\n";
    s += &table(
        "ga",
        &generations,
        &[ID, GENERATION_HEAD, GA_MEASURES, GENERATION_TAIL, TABLE],
    )?;
    s += "\nThe best table of the last generation is also written as `tables/<job>.txt`, ending in a seal line (`# seal xxh3 ...`): a table changed after gamelab wrote it is refused (exit 2) where it is read back.\n";
    s += "\n## Life-and-death GA (`tsumego_ga`): `generations/`, one row per individual per generation\n\n";
    s += &table(
        "tsumego_ga",
        &tsumego,
        &[
            ID,
            GENERATION_HEAD,
            TSUMEGO_GA_MEASURES,
            GENERATION_TAIL,
            GENES,
        ],
    )?;
    s += "\nIts test solves are `solves/` rows (below); its best weights `tables/<job>.weights` (sealed like a GA's table).\n";
    s += "\n## Solves (`solve`, and a `tsumego_ga`'s test set): `solves/`, one row per weight vector and problem\n\n";
    s += &table("solve", &solves, &[ID, SOLVES])?;
    s += "\n## Tuning (`tune`): `tuning/`, one row per game\n\n";
    s += &table("tune", &tuning, &[ID, TUNING])?;
    s += "\nthen `w_<name>` (float) for each tuned weight, the weights the game was played with, and\n`a_<name>` (float) for each weight's share of the advantage the tuned agent gained over the game\n(the hill-climber's step; 0 for the GA).\n";
    Ok(s)
}

#[cfg(test)]
mod tests {
    #[test]
    fn docs_rows_md_is_what_the_writers_write() {
        let now = super::markdown().unwrap();
        let doc = std::fs::read_to_string("docs/rows.md").unwrap_or_default();
        assert!(
            doc == now,
            "docs/rows.md differs from the row writers: run `cargo run --release -- schema > docs/rows.md` and check the diff"
        );
    }
}
