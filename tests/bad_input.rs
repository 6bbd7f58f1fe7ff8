//! Bad input: one clear line naming the file and the key, exit code 2, nothing written.

use crate::common::*;
use std::process::Command;

/// Runs `gamelab run` on `text` (or with `extra` arguments) and checks the error contract.
fn rejected(text: &str, extra: &[&str], expected: &[&str]) {
    rejected_with_files(&[], text, extra, expected);
}

/// `rejected`, with more files (name, text) beside the experiment file.
fn rejected_with_files(files: &[(&str, &str)], text: &str, extra: &[&str], expected: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in files {
        write(dir.path(), name, body);
    }
    let file = write(dir.path(), "exp.toml", text);
    let out = dir.path().join("out");
    let mut args = vec![
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    let o = gamelab(&args);
    let err = stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(2),
        "exit code for {expected:?}; stderr: {err}"
    );
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line expected, got: {err}"
    );
    for e in expected {
        assert!(err.contains(e), "expected {e:?} in: {err}");
    }
    assert!(
        !out.exists(),
        "nothing may be written, but {} exists",
        out.display()
    );
}

fn with(replace: &str, by: &str) -> String {
    assert!(
        SMALL.contains(replace),
        "test setup: {replace:?} not in SMALL"
    );
    SMALL.replacen(replace, by, 1)
}

/// An agent's `command` is taken from the folder gamelab runs in (as a shell takes it), while
/// `[openings]` files are taken from the experiment file's folder: a script that sits beside the
/// file but not in the run's folder is named in the one error line, with the path to write.
#[test]
fn a_command_path_beside_the_file_but_not_here_says_which_path_to_write() {
    let agent = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agents/random_agent.py"),
    )
    .unwrap();
    rejected_with_files(
        &[("beside_the_file_agent.py", &agent)],
        "name = \"rel\"\nkind = \"match\"\ngame = \"othello\"\nstage = \"small6\"\n[match]\nplayers = [\"mine\", \"random\"]\ngames = 2\n[agents.mine]\nkind = \"external\"\ncommand = [\"python3\", \"beside_the_file_agent.py\"]\n[agents.random]\nkind = \"random\"\n",
        &[],
        &[
            "exp.toml:8:1: key `agents.mine`: the external agent could not start",
            "its log ends: ",
            "not from the experiment file's folder: 'beside_the_file_agent.py' is not there, but ",
            "beside_the_file_agent.py\" (or set cwd)",
        ],
    );
}

#[test]
fn the_small_experiment_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "exp.toml", SMALL);
    let o = gamelab(&["run", file.to_str().unwrap(), "--dry-run"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    // 2 grid values x 2 repeats = 4 jobs; 3 participants x 2 ordered = 6 pairs x 2 rounds = 12 games each.
    assert!(text.starts_with("small: 4 jobs, 48 games"), "{text}");
}

#[test]
fn malformed_toml() {
    rejected(
        &with("seed = 7", "seed = "),
        &[],
        &["exp.toml:6:", "key `seed`"],
    );
}

/// A missing argument is named in the one line (clap puts its name on a second line, which
/// the one-line error used to drop: "required arguments were not provided: (see …)").
#[test]
fn a_missing_argument_is_named() {
    for (args, name) in [(vec!["run"], "<FILE>")] {
        let o = gamelab(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains(&format!("not provided: {name} (see gamelab --help)")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.toml");
    let out = dir.path().join("out");
    let o = gamelab(&[
        "run",
        missing.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("nope.toml: cannot read the experiment file"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}

#[test]
fn unknown_top_level_key() {
    rejected(
        &with("seed = 7", "seed = 7\ncolour = \"black\""),
        &[],
        &["exp.toml:7:1", "key `colour`", "unknown field `colour`"],
    );
}

#[test]
fn unknown_agent_parameter() {
    rejected(
        &with("rollouts = 20", "rollouts = 20\nbudget = 3"),
        &[],
        &["exp.toml:", "agents.mcts", "unknown field `budget`"],
    );
}

#[test]
fn wrong_type() {
    rejected(
        &with("seed = 7", "seed = \"seven\""),
        &[],
        &["exp.toml:6:8", "key `seed`", "invalid type: string"],
    );
}

#[test]
fn empty_grid_axis() {
    rejected(
        &with("[10, 40]", "[]"),
        &[],
        &["exp.toml:", "grid.agents.mcts.rollouts", "empty"],
    );
}

#[test]
fn grid_path_naming_nothing() {
    rejected(
        &with("\"agents.mcts.rollouts\"", "\"agents.mtcs.rollouts\""),
        &[],
        &["grid.agents.mtcs.rollouts", "names nothing", "agents.mtcs"],
    );
}

#[test]
fn grid_value_of_the_wrong_type() {
    rejected(
        &with("[10, 40]", "[10, \"many\"]"),
        &[],
        &[
            "grid.agents.mcts.rollouts",
            "agents.mcts.rollouts = \"many\"",
        ],
    );
}

#[test]
fn grid_value_out_of_range() {
    rejected(
        &with("[10, 40]", "[10, 0]"),
        &[],
        &["agents.mcts", "budget must be positive"],
    );
}

#[test]
fn unknown_agent_kind() {
    rejected(
        &with("kind = \"greedy\"", "kind = \"alphazero\""),
        &[],
        &["exp.toml:", "unknown variant `alphazero`", "simple_mcts"],
    );
}

/// A typo of a kind: the suggestion and the list are the game's own (Othello here: no
/// Colosseum or Freckers kinds); a kind of another game names the kinds this game plays.
#[test]
fn unknown_agent_kind_lists_only_the_games_own_kinds() {
    let typo = with("kind = \"greedy\"", "kind = \"simple_mct\"");
    rejected(
        &typo,
        &[],
        &[
            "(did you mean `simple_mcts`?)",
            "the agent kinds of othello",
        ],
    );
    let o = {
        let dir = tempfile::tempdir().unwrap();
        let file = write(dir.path(), "exp.toml", &typo);
        gamelab(&["run", file.to_str().unwrap(), "--dry-run"])
    };
    let err = stderr(&o);
    for other in ["popcoin", "freckers_mcts", "course_random", "hybrid"] {
        assert!(
            !err.contains(&format!("`{other}`")),
            "{other} listed: {err}"
        );
    }
    rejected(
        &with("kind = \"greedy\"", "kind = \"popcoin\"\niterations = 5"),
        &[],
        &[
            "agent kind `popcoin` does not play Othello (it plays Colosseum; Othello's kinds: random, greedy",
        ],
    );
}

/// A setting's bad value points at the setting's own line, not its section's.
#[test]
fn a_zero_budget_points_at_its_key() {
    rejected(
        &with(
            "rollouts = 20\n\n[grid]\n\"agents.mcts.rollouts\" = [10, 40]",
            "rollouts = 0",
        ),
        &[],
        &[
            "exp.toml:20:1",
            "key `agents.mcts.rollouts`",
            "rollouts = 0: the budget must be positive",
        ],
    );
}

#[test]
fn a_zero_budget_on_the_grid_points_at_its_axis() {
    let text = with(
        "rollouts = 20\n\n[grid]\n\"agents.mcts.rollouts\" = [10, 40]",
        "rollouts = 20\n\n[grid]\n\"agents.mcts.rollouts\" = [10, 0]",
    );
    let line = text
        .lines()
        .position(|l| l.starts_with("\"agents.mcts.rollouts\""))
        .unwrap()
        + 1;
    rejected(
        &text,
        &[],
        &[
            &format!("exp.toml:{line}:1"),
            "key `grid.agents.mcts.rollouts`",
            "with agents.mcts.rollouts = 0: rollouts = 0: the budget must be positive",
        ],
    );
}

#[test]
fn unknown_stage() {
    rejected(
        &with("stage = \"small6\"", "stage = \"huge9\""),
        &[],
        &[
            "exp.toml:5:1",
            "key `stage`",
            "unknown stage 'huge9'",
            "standard8",
        ],
    );
}

#[test]
fn inline_stage_with_a_cell_off_the_board() {
    let text = with(
        "stage = \"small6\"",
        "stage = { id = \"mine\", size = 4, black = [[1, 2], [2, 1]], white = [[1, 1], [4, 4]] }",
    );
    rejected(&text, &[], &["key `stage`", "[4, 4] is off the 4x4 board"]);
}

#[test]
fn unknown_participant() {
    rejected(
        &with(
            "rounds = 2",
            "rounds = 2\nparticipants = [\"random\", \"ghost\"]",
        ),
        &[],
        &["tournament.participants", "no agent labelled 'ghost'"],
    );
}

#[test]
fn unknown_report_column() {
    rejected(
        &format!("{SMALL}\n[report]\ngroup_by = [\"colour\"]\n"),
        &[],
        &["report.group_by", "unknown column 'colour'"],
    );
}

#[test]
fn bad_shard_specs() {
    for shard in ["3/2", "0/2", "1", "a/b", "1/0"] {
        rejected(SMALL, &["--shard", shard], &["--shard"]);
    }
}

#[test]
fn report_figure_naming_an_unknown_table() {
    let text =
        format!("{SMALL}\n[[report.figures]]\nname = \"f\"\nkind = \"bars\"\ntable = \"nope\"\n");
    rejected(
        &text,
        &[],
        &["report.figures", "figure 'f'", "no table 'nope'"],
    );
}

#[test]
fn report_mean_without_a_metric() {
    let text = format!("{SMALL}\n[[report.tables]]\nname = \"m\"\nstatistic = \"mean\"\n");
    rejected(
        &text,
        &[],
        &["report.tables", "table 'm'", "needs `metric`"],
    );
}

#[test]
fn report_paired_without_a_unit() {
    let text = format!(
        "{SMALL}\n[[report.tables]]\nname = \"m\"\nstatistic = \"mean\"\nmetric = \"plies\"\ngroup_by = [\"agent\"]\nbaseline = {{ agent = \"random\" }}\npaired = true\n"
    );
    rejected(
        &text,
        &[],
        &[
            "report.tables",
            "table 'm'",
            "`paired`",
            "needs both `baseline` and `unit`",
        ],
    );
}

#[test]
fn report_relative_reference_without_a_baseline() {
    let text = format!(
        "{SMALL}\n[[report.tables]]\nname = \"m\"\nstatistic = \"mean\"\nmetric = \"plies\"\ngroup_by = [\"agent\"]\n[[report.reference]]\ntable = \"m\"\nkeys = [\"agent\"]\nrelative = true\nrows = [[\"random\", -10.0]]\n"
    );
    rejected(
        &text,
        &[],
        &[
            "report.reference",
            "table 'm'",
            "`relative`",
            "needs `baseline`",
        ],
    );
}

#[test]
fn report_rating_by_opponent() {
    let text = format!(
        "{SMALL}\n[[report.tables]]\nname = \"r\"\nstatistic = \"rating\"\ngroup_by = [\"agent\", \"opponent\"]\n"
    );
    rejected(&text, &[], &["table 'r'", "ratings group by `agent`"]);
}

#[test]
fn report_reference_row_of_the_wrong_length() {
    let with_rows = |rows: &str| {
        format!(
            "{SMALL}\n[[report.tables]]\nname = \"s\"\ngroup_by = [\"agent\"]\n[[report.reference]]\ntable = \"s\"\nkeys = [\"agent\"]\nrows = {rows}\n"
        )
    };
    rejected(
        &with_rows("[[\"random\", 20.0, 3, 1.5, 7]]"),
        &[],
        &[
            "report.reference",
            "row 1 has 5 values",
            "optionally the paper's n and SD",
        ],
    );
    rejected(
        &with_rows("[[\"random\"]]"),
        &[],
        &["report.reference", "row 1 has 1 values"],
    );
    // The paper's n after the value: a positive whole number.
    rejected(
        &with_rows("[[\"random\", 20.0, 2.5]]"),
        &[],
        &[
            "report.reference",
            "row 1: the paper's n",
            "positive whole number",
        ],
    );
    rejected(
        &with_rows("[[\"random\", 20.0, 40, -1.0]]"),
        &[],
        &["report.reference", "the paper's SD"],
    );
}

#[test]
fn report_curve_over_a_text_key() {
    let text = format!(
        "{SMALL}\n[[report.tables]]\nname = \"s\"\ngroup_by = [\"agent\", \"stage\"]\n[[report.figures]]\nname = \"c\"\nkind = \"curve\"\ntable = \"s\"\nx = \"stage\"\n"
    );
    rejected(&text, &[], &["figure 'c'", "numeric grid key"]);
}

#[test]
fn ga_with_two_budgets() {
    let text = "kind = \"ga\"\ngame = \"othello\"\nstage = \"small6\"\n[ga]\npopulation = 10\ngenerations = 5\ntime_s = 3.0\nsubset = \"full\"\nstrategy = \"det\"\n";
    rejected(
        text,
        &[],
        &["exp.toml:4:1", "key `ga`", "either generations or time_s"],
    );
}

#[test]
fn ga_with_an_unknown_strategy() {
    let text = "kind = \"ga\"\ngame = \"othello\"\nstage = \"small6\"\n[ga]\npopulation = 10\ngenerations = 5\nsubset = \"full\"\nstrategy = \"alphazero\"\n";
    rejected(
        text,
        &[],
        &["exp.toml:8:", "ga.strategy", "unknown variant `alphazero`"],
    );
}

#[test]
fn zipped_lists_of_different_lengths() {
    rejected(
        &format!(
            "{SMALL}\n[zip]\n\"tournament.rounds\" = [1, 2]\n\"agents.random.kind\" = [\"random\"]\n"
        ),
        &[],
        &[
            "zip.tournament.rounds",
            "has 2 values, but the zipped lists must all have 1",
        ],
    );
}

fn colosseum_with(replace: &str, by: &str) -> String {
    assert!(
        COLOSSEUM.contains(replace),
        "test setup: {replace:?} not in COLOSSEUM"
    );
    COLOSSEUM.replacen(replace, by, 1)
}

#[test]
fn unknown_colosseum_stage() {
    rejected(
        &colosseum_with("sizes-5-9", "size-20"),
        &[],
        &[
            "exp.toml:5:",
            "key `stage`",
            "unknown Colosseum stage 'size-20'",
        ],
    );
}

#[test]
fn an_othello_agent_in_a_colosseum_match() {
    rejected(
        &colosseum_with("kind = \"popcoin\"\niterations = 300", "kind = \"greedy\""),
        &[],
        &[
            "key `agents.popcoin`",
            "agent kind `greedy` does not play Colosseum (it plays Othello, Freckers;",
        ],
    );
}

#[test]
fn a_first_move_time_without_a_time_budget() {
    rejected(
        &colosseum_with(
            "simulations = 300",
            "simulations = 300\nfirst_move_ms = 30000",
        ),
        &[],
        &[
            "key `agents.annealed`",
            "first_move_ms goes with a time budget",
        ],
    );
}

#[test]
fn a_bad_position_file_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    // Row 1's left border is open: a one-sided wall.
    let text = "size 3\n+---+---+---+\n| A   .   . |\n+   +   +   +\n  .   .   . |\n+   +   +   +\n| .   .   B |\n+---+---+---+\n";
    let file = write(dir.path(), "pos.txt", text);
    for command in ["moves", "show"] {
        let o = gamelab(&[
            command,
            "--game",
            "colosseum",
            "--position",
            file.to_str().unwrap(),
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains("pos.txt:5:1:") && err.contains("one-sided wall"),
            "{err}"
        );
        assert!(o.stdout.is_empty());
    }
    let good = write(
        dir.path(),
        "good.txt",
        &text.replace("\n  .   .   . |", "\n| .   .   . |"),
    );
    let o = gamelab(&["moves", "--position", good.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A at (0,0) on an open 3x3 (K = 2) reaches 6 cells; their free sides: (0,0) 2, (0,1) 3,
    // (0,2) 2, (1,0) 3, (1,1) 4, (2,0) 2.
    let lines = String::from_utf8_lossy(&o.stdout).lines().count();
    assert_eq!(lines, 2 + 3 + 2 + 3 + 4 + 2);
}

#[test]
fn a_bad_freckers_position_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let start = gamelab(&["show", "--game", "freckers"]);
    assert!(start.status.success());
    let text = String::from_utf8_lossy(&start.stdout).into_owned();
    let good = write(dir.path(), "start.txt", &text);
    let o = gamelab(&[
        "moves",
        "--game",
        "freckers",
        "--position",
        good.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).lines().count(),
        21,
        "the start's 21 actions"
    );
    let bad = write(
        dir.path(),
        "bad.txt",
        &text.replace("* B B B B B B *", "* B B Q B B B *"),
    );
    let o = gamelab(&[
        "moves",
        "--game",
        "freckers",
        "--position",
        bad.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bad.txt:11:1:") && err.contains("unknown symbol 'Q'"),
        "{err}"
    );
    assert!(o.stdout.is_empty());
}

fn tune_with(replace: &str, by: &str) -> String {
    assert!(
        TUNE.contains(replace),
        "test setup: {replace:?} not in TUNE"
    );
    TUNE.replacen(replace, by, 1)
}

#[test]
fn tune_errors_name_their_key() {
    rejected(
        &tune_with("tuner = \"hillclimb\"", "tuner = \"anneal\""),
        &[],
        &["exp.toml", "tune.tuner", "anneal"],
    );
    rejected(
        &tune_with("agent = \"tuned\"", "agent = \"plain2\""),
        &[],
        &["exp.toml", "tune.agent", "plain2"],
    );
    rejected(
        &tune_with(
            "[agents.tuned]\nkind = \"alphabeta\"",
            "[agents.tuned]\nkind = \"random_greedy\"\n[agents.unused]\nkind = \"alphabeta\"",
        ),
        &[],
        &["exp.toml", "tune.agent", "no weight vector"],
    );
    rejected(
        &tune_with("home = 0.5", "home = 1.5"),
        &[],
        &["exp.toml", "tune.agent", "home = 1.5", "outside bounds"],
    );
    rejected(
        &tune_with("games = 8", "games = 3"),
        &[],
        &["exp.toml", "tune", "buys no generation"],
    );
    rejected(
        &tune_with(
            "game = \"freckers\"\nstage = \"standard\"",
            "game = \"othello\"\nstage = \"small6\"",
        ),
        &[],
        // The tuned agent is checked for its game before the tune kind checks its weights.
        &["exp.toml", "agents.tuned", "Freckers"],
    );
    rejected(
        &tune_with(
            "[tune]",
            "[match]\nplayers = [\"tuned\", \"plain\"]\ngames = 2\n[tune]",
        ),
        &[],
        &["exp.toml", "tune"],
    );
}

#[test]
fn a_parameter_given_to_an_agent_kind_without_parameters() {
    rejected(
        &with(
            "[agents.random]\nkind = \"random\"",
            "[agents.random]\nkind = \"random\"\nrollouts = 5",
        ),
        &[],
        &["exp.toml", "rollouts"],
    );
}

/// A life-and-death problem file with `map` as the second problem's map.
fn problems_with(map: &str) -> String {
    format!(
        "problem good\nto-move defender\nmap\n...O#\nOOOO#\n#####\nend\n\nproblem bad-one\nsize 19\nto-move attacker\nmap\n{map}\nend\n"
    )
}

#[test]
fn bad_problem_files_name_the_problem_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, &str); 5] = [
        // An open region: B17 is neither region nor wall (the map's third row is short).
        (
            "...O#\nOOOO#\n#",
            "bad.txt:14:1:",
            "open region: B18 has the neighbour B17",
        ),
        // A defender chain without liberties.
        (
            "XOX#\nXXX#\n####",
            "bad.txt:13:1:",
            "defender chain at B19 has no liberties",
        ),
        // The map runs off a 19x19 board.
        (
            "....................#",
            "bad.txt:13:1:",
            "does not fit the board",
        ),
        (
            "..Q.O#\nOOOOO#\n######",
            "bad.txt:13:1:",
            "unknown symbol 'Q'",
        ),
        ("", "bad.txt:9:1:", "the map has no region points"),
    ];
    for (map, place, message) in cases {
        let file = write(dir.path(), "bad.txt", &problems_with(map));
        for args in [
            vec!["solve", file.to_str().unwrap()],
            vec![
                "show",
                "--game",
                "tsumego",
                "--position",
                file.to_str().unwrap(),
            ],
        ] {
            let o = gamelab(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{map}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(
                err.contains(place) && err.contains("problem bad-one") && err.contains(message),
                "{map}: {err}"
            );
            assert!(
                o.stdout.is_empty(),
                "nothing solved or drawn from a bad file"
            );
        }
    }
    let good = write(dir.path(), "good.txt", &problems_with("..O#\nOOO#\n####"));
    let o = gamelab(&["solve", good.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("good: l (defender to move); winning moves B19"),
        "{out}"
    );
    assert!(
        out.contains("bad-one: d (attacker to move)"),
        "straight two is dead: {out}"
    );
}

#[test]
fn gen_problems_rejects_bad_levels() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lib");
    for levels in ["0-3", "3-15", "6-3", "x"] {
        let o = gamelab(&[
            "gen-problems",
            "--levels",
            levels,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{levels}");
        assert!(stderr(&o).contains("--levels"), "{}", stderr(&o));
    }
    assert!(!out.exists(), "nothing written");
}

/// A valid small life-and-death experiment.
const SOLVE: &str = r#"kind = "solve"
game = "tsumego"
stage = "lib"
[library]
sets = 1
levels = "1-3"
per_level = 2
seed = 1
[solve]
problems = { sets = [1], levels = "1-3" }
weights = { reference = "reference" }
"#;

fn solve_with(replace: &str, by: &str) -> String {
    assert!(
        SOLVE.contains(replace),
        "test setup: {replace:?} not in SOLVE"
    );
    SOLVE.replacen(replace, by, 1)
}

#[test]
fn the_small_solve_experiment_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "exp.toml", SOLVE);
    let o = gamelab(&["run", file.to_str().unwrap(), "--dry-run"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("exp: 1 job\n"));
}

#[test]
fn life_and_death_experiments_with_bad_settings() {
    rejected(
        &solve_with(
            "[library]\nsets = 1\nlevels = \"1-3\"\nper_level = 2\nseed = 1\n",
            "",
        ),
        &[],
        &["exp.toml", "needs a [library] section"],
    );
    rejected(
        &solve_with("levels = \"1-3\"\nper_level", "levels = \"3-1\"\nper_level"),
        &[],
        &["exp.toml:4:1", "key `library`", "levels '3-1'"],
    );
    rejected(
        &solve_with(
            "{ sets = [1], levels = \"1-3\" }",
            "{ sets = [2], levels = \"1-3\" }",
        ),
        &[],
        &["key `solve.problems`", "sets [2]"],
    );
    rejected(
        &solve_with(
            "{ sets = [1], levels = \"1-3\" }",
            "{ sets = [1], levels = \"1-5\" }",
        ),
        &[],
        &["key `solve.problems`", "outside the library's levels 1-3"],
    );
    rejected(
        &solve_with("reference = \"reference\"", "mine = \"no-such.weights\""),
        &[],
        &["key `solve.weights.mine`", "no-such.weights"],
    );
    rejected(
        &solve_with("reference = \"reference\"", "mine = \"trained:\""),
        &[],
        &["key `solve.weights.mine`", "names no experiment"],
    );
    rejected(
        &solve_with("kind = \"solve\"", "kind = \"tsumego_ga\""),
        &[],
        &["key `tsumego_ga`", "needs a [tsumego_ga] section"],
    );
    rejected(
        &solve_with("game = \"tsumego\"", "game = \"othello\""),
        &[],
        &["key `game`", "use game = \"tsumego\""],
    );
}

// Issue 19's catalogue: each case below was accepted, crashed or was misreported before.

#[test]
fn a_value_listed_twice_on_an_axis() {
    rejected(
        &with("[10, 40]", "[10, 10]"),
        &[],
        &[
            "exp.toml:",
            "key `grid.agents.mcts.rollouts`",
            "listed twice",
        ],
    );
    // Also with --dry-run: nothing is expanded.
    rejected(
        &with("[10, 40]", "[10, 10]"),
        &["--dry-run"],
        &["listed twice"],
    );
}

#[test]
fn two_grid_points_that_make_the_same_job() {
    // 10 and 10.0 are different TOML values but the same rollouts budget... if the file accepts
    // the float at all; either way it is one clear error, never two jobs with one hash.
    rejected(
        &with("[10, 40]", "[10, 10.0]"),
        &[],
        &["exp.toml:", "key `grid"],
    );
}

#[test]
fn games_past_the_limit_of_a_job() {
    let text = COLOSSEUM.replacen("games = 12", "games = 4294967295", 1);
    rejected(
        &text,
        &["--dry-run"],
        &[
            "exp.toml:",
            "key `match.games`",
            "4294967295 games",
            "repeats",
        ],
    );
    rejected(
        &with("rounds = 2", "rounds = 100000000"),
        &["--dry-run"],
        &["key `tournament.rounds`", "at most"],
    );
}

#[test]
fn repeats_past_the_limit_of_jobs() {
    rejected(
        &with("repeats = 2", "repeats = 1000000000"),
        &["--dry-run"],
        &["exp.toml:", "key `repeats`", "more than 100000 jobs"],
    );
}

#[test]
fn more_threads_than_any_machine() {
    rejected(
        SMALL,
        &["--threads", "100000"],
        &["--threads 100000", "at most 1024"],
    );
    rejected(
        SMALL,
        &["--threads", "0"],
        &["--threads must be at least 1"],
    );
}

#[test]
fn an_exploration_constant_that_is_not_a_number_or_negative() {
    let uct = |c: &str| {
        with(
            "kind = \"simple_mcts\"\nrollouts = 20",
            &format!("kind = \"uct\"\niterations = 20\nc = {c}"),
        )
        .replace("agents.mcts.rollouts", "agents.mcts.iterations")
    };
    rejected(
        &uct("nan"),
        &[],
        &["key `agents.mcts`", "c = NaN must be a finite number"],
    );
    rejected(
        &uct("-1.0"),
        &[],
        &["key `agents.mcts`", "c = -1 must be at least 0"],
    );
    rejected(&uct("inf"), &[], &["key `agents.mcts`", "finite"]);
}

#[test]
fn a_weighted_table_of_zeros() {
    let zeros =
        "[[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0]]";
    rejected(
        &with(
            "kind = \"random\"",
            &format!("kind = \"weighted_random\"\ntable = {zeros}"),
        ),
        &[],
        &["key `agents.random`", "every weight of the table is 0"],
    );
}

#[test]
fn an_inline_stage_without_discs() {
    let stage = "stage = { id = \"empty\", size = 6, black = [], white = [] }";
    rejected(
        &with("stage = \"small6\"", stage),
        &[],
        &[
            "exp.toml:5:",
            "key `stage`",
            "at least one black and one white disc",
        ],
    );
}

#[test]
fn an_unknown_key_in_an_inline_stage_is_named() {
    let stage = "stage = { id = \"s\", size = 6, black = [[2, 3], [3, 2]], white = [[2, 2], [3, 3]], colour = 1 }";
    rejected(
        &with("stage = \"small6\"", stage),
        &[],
        &["exp.toml:5:", "stage", "unknown field `colour`"],
    );
}

#[test]
fn a_missing_kind_is_named_not_the_name() {
    rejected(
        &with("kind = \"tournament\"\n", ""),
        &[],
        &["exp.toml", "key `kind`", "missing field `kind`"],
    );
    // A missing key of a table names the table's line.
    rejected(
        &with(
            "[agents.random]\nkind = \"random\"",
            "[agents.random]\nrollouts = 3",
        ),
        &[],
        &["exp.toml:", "agents"],
    );
}

#[test]
fn zero_bootstrap_resamples() {
    rejected(
        &format!("{SMALL}\n[report]\nbootstrap = 0\n"),
        &[],
        &["exp.toml:", "key `report.bootstrap`", "100 to 1000000"],
    );
}

#[test]
fn a_solve_with_no_node_budget() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "p.txt", &problems_with("..O#\nOOO#\n####"));
    let o = gamelab(&["solve", file.to_str().unwrap(), "--node-budget", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--node-budget must be at least 1"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn garbage_sgf_is_called_garbage() {
    let dir = tempfile::tempdir().unwrap();
    for (text, says) in [
        ("hello world\n", "not an SGF file"),
        ("(;GM[1]SZ[19])", "no setup stones"),
    ] {
        let file = write(dir.path(), "g.sgf", text);
        let o = gamelab(&["solve", file.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("g.sgf:1:1:") && err.contains(says), "{err}");
        assert!(!err.contains("mark the region"), "{err}");
    }
}

#[test]
fn trained_weights_of_an_experiment_never_run_fail_before_anything_is_written() {
    rejected(
        &solve_with("reference = \"reference\"", "mine = \"trained:ghost\""),
        &[],
        &["exp.toml:", "key `solve.weights.mine`", "trained:ghost"],
    );
}

#[test]
fn a_closed_pipe_ends_the_listing_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    for args in [
        vec!["list"],
        vec!["run", "experiments/quickstart.toml", "--dry-run"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamelab"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read one byte, then close the pipe, as `| head -c 1` does.
        let mut out = child.stdout.take().unwrap();
        let mut byte = [0u8; 1];
        out.read_exact(&mut byte).unwrap();
        drop(out);
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_ne!(o.status.code(), Some(101), "{args:?} panicked: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_zipped_row_listed_twice() {
    // A value may repeat within one zipped list; a whole row may not.
    let ok = format!(
        "{SMALL}\n[zip]\n\"tournament.rounds\" = [1, 2, 1]\n\"agents.greedy.kind\" = [\"greedy\", \"greedy\", \"corners\"]\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "exp.toml", &ok);
    assert!(
        gamelab(&["run", file.to_str().unwrap(), "--dry-run"])
            .status
            .success()
    );
    let twice = format!(
        "{SMALL}\n[zip]\n\"tournament.rounds\" = [1, 2, 1]\n\"agents.greedy.kind\" = [\"greedy\", \"corners\", \"greedy\"]\n"
    );
    rejected(&twice, &[], &["exp.toml:", "key `zip`", "rows 1 and 3"]);
}

#[test]
fn othello_positions_are_drawn_read_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    // The start as `show` draws it is a position file `moves` reads.
    let o = gamelab(&["show", "--game", "othello"]);
    assert!(o.status.success());
    let file = write(dir.path(), "start.txt", &String::from_utf8_lossy(&o.stdout));
    let m = gamelab(&[
        "moves",
        "--game",
        "othello",
        "--position",
        file.to_str().unwrap(),
    ]);
    assert!(m.status.success(), "{}", stderr(&m));
    assert_eq!(
        String::from_utf8_lossy(&m.stdout)
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["d3", "c4", "f5", "e6"]
    );
    for (text, place, says) in [
        (
            "turn red\n...\n.XO\n...\n",
            "bad.txt:1:1:",
            "black or white",
        ),
        (
            "turn white\n...\n.XQ\n...\n",
            "bad.txt:3:1:",
            "'Q' is not one of",
        ),
        ("....\n.XO.\n.OX\n....\n", "bad.txt:3:1:", "expected 4"),
    ] {
        let bad = write(dir.path(), "bad.txt", text);
        for cmd in ["show", "moves"] {
            let o = gamelab(&[
                cmd,
                "--game",
                "othello",
                "--position",
                bad.to_str().unwrap(),
            ]);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{cmd} {text:?}: {err}");
            assert!(
                err.contains(place) && err.contains(says),
                "{cmd} {text:?}: {err}"
            );
            assert!(o.stdout.is_empty());
        }
    }
}

#[test]
fn perft_of_an_inline_stage_with_each_rule_flag_matches_the_library() {
    use gamelab::game::othello::{Othello, StageDef, perft};
    let dir = tempfile::tempdir().unwrap();
    for (ignore_occlusion, fewer_pieces_continue) in
        [(false, false), (true, false), (false, true), (true, true)]
    {
        let def = StageDef {
            id: "flags".into(),
            name: String::new(),
            size: 6,
            blocked: vec![[1, 1], [4, 3]],
            black: vec![[2, 3], [3, 2]],
            white: vec![[2, 2], [3, 3]],
            ignore_occlusion,
            fewer_pieces_continue,
        };
        let inline = format!(
            "{{ id = \"flags\", size = 6, blocked = [[1, 1], [4, 3]], black = [[2, 3], [3, 2]], white = [[2, 2], [3, 3]], ignore_occlusion = {ignore_occlusion}, fewer_pieces_continue = {fewer_pieces_continue} }}"
        );
        let file = write(dir.path(), "stage.toml", &format!("stage = {inline}\n"));
        let start = Othello::new(&def).unwrap();
        let expected: String = (1..=6)
            .map(|d| format!("{d} {}\n", perft(&start, d, true)))
            .collect();
        for stage in [inline.as_str(), file.to_str().unwrap()] {
            let o = gamelab(&[
                "perft", "--game", "othello", "--stage", stage, "--depth", "6",
            ]);
            assert!(o.status.success(), "{}", stderr(&o));
            assert_eq!(
                String::from_utf8_lossy(&o.stdout),
                expected,
                "flags {ignore_occlusion} {fewer_pieces_continue}"
            );
        }
    }
    // A bad inline stage names what is wrong.
    let o = gamelab(&[
        "perft",
        "--stage",
        "{ id = \"t\", size = 6, black = [[9, 9]], white = [[2, 2]] }",
        "--depth",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("off the 6x6 board"), "{}", stderr(&o));
}

/// A match of SMALL's agents with an `[openings]` section.
fn with_openings(section: &str) -> String {
    with(
        "[tournament]\nrounds = 2",
        &format!("[tournament]\nrounds = 2\n\n[openings]\n{section}"),
    )
}

#[test]
fn an_opening_that_is_illegal_on_the_stage_names_the_suite_line() {
    // The third opening plays c2 twice (suite line 4, after the comment).
    let suite = "# two good lines, then one illegal on small6\nc2\nb3 b2\nc2 c2\n";
    rejected_with_files(
        &[("suite.txt", suite)],
        &with_openings("file = \"suite.txt\""),
        &[],
        &[
            "suite.txt:4:1",
            "opening 'c2 c2'",
            "move 2 'c2' is not legal",
        ],
    );
}

#[test]
fn an_empty_opening_suite() {
    rejected_with_files(
        &[("suite.txt", "# nothing but comments\n\n")],
        &with_openings("file = \"suite.txt\""),
        &[],
        &["suite.txt", "the suite has no openings"],
    );
}

#[test]
fn a_missing_opening_suite() {
    rejected(
        &with_openings("file = \"nope.txt\""),
        &[],
        &["exp.toml:", "key `openings.file`", "cannot read"],
    );
}

#[test]
fn random_plies_that_end_the_game() {
    // A 6x6 game is over after at most 32 moves.
    rejected(
        &with_openings("random_plies = 40"),
        &[],
        &[
            "exp.toml:",
            "key `openings.random_plies`",
            "random_plies = 40 ends the game",
        ],
    );
}

#[test]
fn an_openings_section_with_both_sources_or_a_bad_value() {
    rejected(
        &with_openings("random_plies = 2\nfile = \"x.txt\""),
        &[],
        &["key `openings`", "either file or random_plies"],
    );
    rejected(
        &with_openings("random_plies = 0"),
        &[],
        &["key `openings.random_plies`", "at least 1"],
    );
    rejected(
        &with_openings("random_plies = 2\norder = \"shuffled\""),
        &[],
        &["key `openings.order`", "unknown variant"],
    );
}

#[test]
fn an_opening_that_ends_the_game() {
    // A 4x4 stage where black's only move, c1, takes white's last disc.
    let text = "name = \"tiny\"\nkind = \"match\"\ngame = \"othello\"\nstage = { id = \"t\", size = 4, black = [[0, 0]], white = [[0, 1]] }\n[match]\nplayers = [\"a\", \"b\"]\ngames = 2\n[openings]\nfile = \"suite.txt\"\n[agents.a]\nkind = \"random\"\n[agents.b]\nkind = \"random\"\n";
    rejected_with_files(
        &[("suite.txt", "c1\n")],
        text,
        &[],
        &["suite.txt:1:1", "opening 'c1' ends the game"],
    );
}

#[test]
fn a_colosseum_opening_that_is_illegal_on_a_pairs_random_board() {
    let text = COLOSSEUM.replacen(
        "games = 12",
        "games = 4\n[openings]\nfile = \"suite.txt\"",
        1,
    );
    rejected_with_files(
        &[("suite.txt", "# a corner move no setup allows\n(0,0,u)\n")],
        &text,
        &[],
        &[
            "suite.txt:2:1",
            "on the board of pair 0 of job",
            "(a random setup)",
            "is not legal there",
        ],
    );
}

/// `--mpi` on a build without the `mpi` feature says how to get one.
#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_without_the_mpi_feature() {
    rejected(
        SMALL,
        &["--mpi"],
        &[
            "--mpi: this gamelab was built without MPI",
            "make mpi",
            "mpirun -n 3",
        ],
    );
}

/// Two problems in GoTools' file layout, written for these tests (not from GoTools' files): a
/// `?` chain over the empty edge points AA BA CA of a corner, walled by `A` stones.
const GOTOOLS_LAYOUT: &str = "            (test file in GoTools' layout)\r\n1 problem\r\n\r\n$ T1\r\n?DA?AB?BB?CB?DBAEA\\\r\nAEBAACABCACCADCAEC[AB]\r\n?+l#3 3 1 0.00 2 ?? 0 255 :BA:\r\n?-d#1 3 1 0.00 2 ?? 0 255 :@@BA:\r\nA+d#2 3 1 0.00 2 ?? 0 255 :BAAA:\r\n\r\n";

#[test]
fn gotools_files_are_solved_beside_their_answers_and_bad_ones_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("gotools");
    std::fs::create_dir_all(&lib).unwrap();
    let file = write(&lib, "lv1.1", GOTOOLS_LAYOUT);
    let o = gamelab(&["solve", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(
            "lv1.1:4 T1/defender: GoTools l (first moves B19), ours l (first moves B19): agree"
        ),
        "{out}"
    );
    assert!(
        out.contains("T1/attacker: GoTools d (first moves B19), ours d"),
        "{out}"
    );
    assert!(out.contains("2 agree, 0 differ, 0 unknown"), "{out}");
    // A folder of such files, through the check.
    let o = gamelab(&[
        "check-gotools",
        lib.to_str().unwrap(),
        "--per-level",
        "5",
        "--time-limit",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("| 1 | 2 | 2/2 (100.0%) | 2/2 (100.0%) | 2/2 (100.0%) | 2/2 (100.0%) |"),
        "{out}"
    );
    // Without a folder: exit 2, saying where the files are.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(["check-gotools"])
        .env_remove("GOTOOLS_PROBLEMS")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cameron-martin/tsumego-solver"),
        "{}",
        stderr(&o)
    );
    // A malformed answer line: exit 2 naming the file and the line, nothing printed.
    let bad = write(&lib, "lv1.2", &GOTOOLS_LAYOUT.replace("?-d#1", "?-q#1"));
    for args in [
        vec!["solve", bad.to_str().unwrap()],
        vec!["check-gotools", lib.to_str().unwrap()],
    ] {
        let o = gamelab(&args);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("lv1.2:8:1:") && stderr(&o).contains("status 'q'"),
            "{}",
            stderr(&o)
        );
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn agent_labels_and_names_that_are_not_one_safe_file_name() {
    // A label that climbs out of --out, an empty one, one with a line break, a leading dot,
    // an over-long one: exit 2 naming the key, nothing written (inside --out or above it).
    for (label, shown) in [
        (
            "\"../../../../../../PWNED\"",
            "agents.../../../../../../PWNED",
        ),
        ("\"\"", "key `agents.`"),
        ("\"two\\nlines\"", "two\\nlines"),
        ("\".hidden\"", ".hidden"),
    ] {
        rejected(
            &with("[agents.greedy]", &format!("[agents.{label}]")),
            &[],
            &[shown, "agent label"],
        );
    }
    let long = "a".repeat(65);
    rejected(
        &with("[agents.greedy]", &format!("[agents.{long}]")),
        &[],
        &["has 65 characters; at most 64"],
    );
    let dir = tempfile::tempdir().unwrap();
    let ok = write(
        dir.path(),
        "ok.toml",
        &with("[agents.greedy]", &format!("[agents.{}]", "b".repeat(64))),
    );
    let o = gamelab(&["run", ok.to_str().unwrap(), "--dry-run"]);
    assert!(
        o.status.success(),
        "64 characters are a label: {}",
        stderr(&o)
    );
    // The experiment's name, 300 characters: exit 2 naming the key (was exit 1, file name too long).
    rejected(
        &with(
            "name = \"small\"",
            &format!("name = \"{}\"", "n".repeat(300)),
        ),
        &[],
        &["key `name`", "has 300 characters; at most 64"],
    );
}

#[test]
fn an_out_that_is_a_file_or_cannot_be_made_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "exp.toml", SMALL);
    let a_file = write(dir.path(), "notes.txt", "mine");
    for (out, what) in [
        (a_file.to_str().unwrap().to_string(), "is a file"),
        (
            format!("{}/below", a_file.display()),
            "cannot make the folder",
        ),
    ] {
        for cmd in ["run", "report"] {
            let o = gamelab(&[cmd, file.to_str().unwrap(), "--out", &out]);
            assert_eq!(o.status.code(), Some(2), "{cmd} {out}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("--out") && stderr(&o).contains(what),
                "{}",
                stderr(&o)
            );
        }
    }
    assert_eq!(std::fs::read(&a_file).unwrap(), b"mine");
}

#[test]
fn input_files_that_are_not_regular_files_are_refused_at_once() {
    // Were: `table = "/dev/zero"` never returned, `[openings] file = "/dev/zero"` was killed
    // for memory. Now exit 2 naming the key, nothing written.
    rejected(
        &with(
            "[agents.greedy]\nkind = \"greedy\"",
            "[agents.greedy]\nkind = \"weighted_random\"\ntable = \"/dev/zero\"",
        ),
        &[],
        &["key `agents.greedy`", "/dev/zero is not a regular file"],
    );
    rejected(
        &format!("{SMALL}\n[openings]\nfile = \"/dev/zero\"\n"),
        &[],
        &["key `openings.file`", "/dev/zero is not a regular file"],
    );
    let o = gamelab(&["run", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
}

/// A life-and-death experiment on GoTools' files: `[library] source = "gotools"`.
fn gotools_experiment(folder: Option<&str>) -> String {
    format!(
        "description = \"GoTools' files\"\nkind = \"solve\"\ngame = \"tsumego\"\nstage = \"gt\"\nseed = 1\n\n[library]\nsource = \"gotools\"\n{}sets = 2\nlevels = \"1\"\nper_level = 5\nseed = 1\n\n[solve]\nproblems = {{ sets = [2], levels = \"1\" }}\n\n[solve.weights]\nreference = \"reference\"\n",
        folder.map_or(String::new(), |f| format!("folder = \"{f}\"\n"))
    )
}

fn run_without_gotools_env(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(args)
        .env_remove("GOTOOLS_PROBLEMS")
        .output()
        .unwrap()
}

#[test]
fn a_library_of_gotools_files_reads_them_and_without_them_fails_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("gt-files");
    std::fs::create_dir_all(&files).unwrap();
    write(&files, "lv1.1", GOTOOLS_LAYOUT);
    write(&files, "lv2.1", GOTOOLS_LAYOUT);
    let out = dir.path().join("out");
    let run = |exp: &std::path::Path, out: &std::path::Path| {
        run_without_gotools_env(&["run", exp.to_str().unwrap(), "--out", out.to_str().unwrap()])
    };
    let exp = write(dir.path(), "gt.toml", &gotools_experiment(Some("gt-files")));
    let o =
        run_without_gotools_env(&["run", exp.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The library holds GoTools' questions with GoTools' answers: T1 with the defender to move
    // first (GoTools: l, first move BA) and with the attacker to move first (d).
    let libs: Vec<_> = std::fs::read_dir(out.join("results/libraries"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(libs.len(), 1, "{libs:?}");
    let lv2 = std::fs::read_to_string(libs[0].join("lv2-1")).unwrap();
    for line in [
        "problem T1/defender",
        "status l\n",
        "winning B19",
        "problem T1/attacker",
        "status d\n",
        "level 1",
    ] {
        assert!(lv2.contains(line), "{line:?} in {lv2}");
    }
    let json = std::fs::read_to_string(libs[0].join("library.json")).unwrap();
    assert!(
        json.contains("\"source\": \"gotools\"") && json.contains("\"files\""),
        "{json}"
    );
    assert!(
        !json.contains("gt-files"),
        "the folder is not a setting: {json}"
    );
    // Each row names the volume its question came from (GoTools' problem names do not carry it).
    let solves = parts(&out, "gt", "solves");
    assert_eq!(solves.len(), 1, "{:?}", solves.keys());
    for df in solves.values() {
        let sets: Vec<Option<i64>> = df.column("set").unwrap().i64().unwrap().iter().collect();
        assert_eq!(sets, vec![Some(2); 2], "{df}");
    }
    // The solve job solved both questions.
    let o = run_without_gotools_env(&[
        "report",
        exp.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    // The same experiment with the files changed: another library (the digest of the files).
    write(&files, "lv2.1", &GOTOOLS_LAYOUT.replace("$ T1", "$ T9"));
    let o =
        run_without_gotools_env(&["run", exp.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_dir(out.join("results/libraries"))
            .unwrap()
            .count(),
        2
    );

    // Without a folder (no key, no $GOTOOLS_PROBLEMS): exit 2 at once naming the key and where
    // to get the files, nothing written.
    let fresh = dir.path().join("fresh");
    // Exit 2 with both texts in the message, and nothing written.
    let refused = |exp: &std::path::Path, key: &str, also: &str| {
        let o = run(exp, &fresh);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(key) && err.contains(also), "{err}");
        assert!(!fresh.exists());
    };
    let exp = write(dir.path(), "nofolder.toml", &gotools_experiment(None));
    refused(
        &exp,
        "key `library.source`",
        "cameron-martin/tsumego-solver",
    );
    // A folder without a file the library reads: exit 2 naming the key and the file.
    std::fs::remove_file(files.join("lv1.1")).unwrap();
    let exp = write(dir.path(), "gt.toml", &gotools_experiment(Some("gt-files")));
    refused(&exp, "key `library.folder`", "lv1.1");
}

#[test]
fn numbers_past_what_the_agent_can_hold_are_named_before_any_job() {
    // A game clock past what a Duration holds panicked (exit 101), even with --dry-run; a move
    // cache past what a machine can allocate panicked (2^63) or aborted (4e9: 146 GB).
    let freckers = |agent: &str| {
        format!(
            "kind = \"match\"\ngame = \"freckers\"\nstage = \"standard\"\nseed = 1\n[match]\nplayers = [\"a\", \"b\"]\ngames = 2\n[agents.a]\n{agent}\n[agents.b]\nkind = \"random\"\n"
        )
    };
    for (agent, key) in [
        (
            "kind = \"alphabeta\"\ndepth = 2\ngame_time_s = 1e308",
            "game_time_s",
        ),
        (
            "kind = \"freckers_mcts\"\ngame_time_s = 1e12",
            "game_time_s",
        ),
        (
            "kind = \"alphabeta\"\ndepth = 2\nmove_cache = 9223372036854775807",
            "move_cache",
        ),
        (
            "kind = \"freckers_mcts\"\niterations = 10\nmove_cache = 4000000000",
            "move_cache",
        ),
    ] {
        for extra in [&["--dry-run"][..], &[][..]] {
            rejected(&freckers(agent), extra, &["exp.toml", key]);
        }
    }
}

/// Sizes that a run allocates or loops over, past any real run: exit 2 naming the key, before
/// any job (they were accepted, and a run would abort on the allocation or never end).
#[test]
fn sizes_past_what_a_run_can_allocate_are_named_before_any_job() {
    let ga = |extra: &str| {
        let text = "kind = \"ga\"\ngame = \"othello\"\nstage = \"small6\"\n[ga]\npopulation = 10\ngenerations = 5\nsubset = \"full\"\nstrategy = \"det\"\n";
        let key = extra.split(" =").next().unwrap();
        let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with(key)).collect();
        format!("{}\n{extra}\n", kept.join("\n"))
    };
    let uct = |extra: &str| {
        COLOSSEUM.replacen(
            "kind = \"annealed_uct\"\nsimulations = 300",
            &format!("kind = \"uct\"\n{extra}"),
            1,
        )
    };
    let external = |extra: &str| {
        format!(
            "kind = \"match\"\ngame = \"othello\"\nstage = \"small6\"\n[match]\nplayers = [\"a\", \"b\"]\ngames = 2\n[agents.a]\nkind = \"external\"\ncommand = [\"python3\", \"examples/agents/random_agent.py\"]\n{extra}\n[agents.b]\nkind = \"random\"\n"
        )
    };
    let cases = [
        (
            ga("population = 9223372036854775807"),
            "population = 9223372036854775807 is past the largest",
        ),
        (
            ga("tournament = 9223372036854775807"),
            "tournament = 9223372036854775807 must be from 1 to 100000",
        ),
        (
            solve_with("per_level = 2", "per_level = 4294967296"),
            "per_level = 4294967296 is past the largest",
        ),
        (
            uct("time_ms = 9223372036854775807"),
            "time_ms = 9223372036854775807 is past the longest move time",
        ),
        (
            uct("time_ms = 10\nfirst_move_ms = 9223372036854775807"),
            "first_move_ms = 9223372036854775807 is past the longest",
        ),
        (
            external("memory_mb = 9223372036854775807"),
            "memory_mb = 9223372036854775807 is past the largest",
        ),
        (
            external("grace_ms = 9223372036854775807"),
            "grace_ms = 9223372036854775807 is past the largest",
        ),
        (
            external("game_time_s = 1e308"),
            "game_time_s = 1e308 is past the largest game clock",
        ),
    ];
    for (text, says) in &cases {
        for extra in [&["--dry-run"][..], &[][..]] {
            rejected(text, extra, &["exp.toml", "key `", says]);
        }
    }
}

/// What only the report used to reject (exit 1 after a run that `run` and `--dry-run` had
/// accepted) stops `run` and `--dry-run` before anything is written: a heatmap of a device, a
/// FIFO, a binary or missing file, a table of the wrong shape, a heatmap on a game without
/// Othello boards. A table file is found from the experiment file's folder, as agents' are.
#[test]
fn a_heatmap_the_report_could_not_draw_stops_the_run() {
    let heatmap = |weights: &str, extra: &str| {
        format!(
            "{SMALL}\n[[report.figures]]\nname = \"h\"\nkind = \"heatmap\"\nweights = \"{weights}\"\n{extra}"
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let binary = write(dir.path(), "binary.dat", "");
    std::fs::write(&binary, [0xffu8, 0xfe, 0x00, 0x80, 0x81]).unwrap();
    for (weights, says) in [
        ("/dev/zero".to_string(), "is not a regular file"),
        (fifo.display().to_string(), "is not a regular file"),
        (binary.display().to_string(), "valid UTF-8"),
        ("no-such-table.txt".to_string(), "No such file"),
        ("six.txt".to_string(), "the board is 6x6"),
    ] {
        for extra in [&[][..], &["--dry-run"][..]] {
            rejected_with_files(
                &[("six.txt", "1 2 3\n4 5 6\n")],
                &heatmap(&weights, ""),
                extra,
                &["exp.toml:", "key `report.figures`", "figure 'h'", says],
            );
        }
    }
    // The same table file, right for the board and beside the experiment file: accepted.
    let six = "1 2 3 3 2 1\n".repeat(6);
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "six.txt", &six);
    let file = write(dir.path(), "exp.toml", &heatmap("six.txt", ""));
    let out = dir.path().join("out");
    let dry = |file: &std::path::Path| {
        gamelab(&[
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--dry-run",
        ])
    };
    let o = dry(&file);
    assert!(o.status.success(), "{}", stderr(&o));
    // On Freckers, only with an Othello stage to draw on.
    let freckers = TUNE.to_string()
        + "\n[[report.figures]]\nname = \"h\"\nkind = \"heatmap\"\nweights = \"classic\"\n";
    rejected(
        &freckers,
        &["--dry-run"],
        &[
            "key `report.figures`",
            "heatmaps draw Othello weight tables",
        ],
    );
    let file = write(
        dir.path(),
        "tune.toml",
        &(freckers + "stage = \"standard8\"\n"),
    );
    let o = dry(&file);
    assert!(o.status.success(), "{}", stderr(&o));
}
