//! Other people's engines over their own protocols (`kind = "uci"`, `kind = "gtp"`;
//! `agent::external::engine`): Debian's Stockfish on OpenSpiel's chess and GNU Go on its go
//! play matches whose rows are the same on a rerun and on another thread count, and whose
//! records python-chess and sgfmill read; an engine that misbehaves loses by its fault, and a
//! section that cannot work is refused naming its key, with nothing written.
//!
//! Needs OpenSpiel (`make openspiel`) and, for the real engines, /usr/games/stockfish and
//! /usr/games/gnugo (`make engines`). Without them a test says SKIPPED; with `REQUIRE_ENGINES`
//! set (CI sets it) a missing engine fails it.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;
use crate::openspiel::{gamelab_with, openspiel_or_skip, rows_after_run, run_into};

const STOCKFISH: &str = "/usr/games/stockfish";
const GNUGO: &str = "/usr/games/gnugo";

/// Whether `engine` is there, else SKIPPED (a failure under `REQUIRE_ENGINES`).
fn engine_or_skip(engine: &str) -> bool {
    if Path::new(engine).is_file() {
        return true;
    }
    assert!(
        std::env::var_os("REQUIRE_ENGINES").is_none(),
        "REQUIRE_ENGINES is set: {engine} is missing (make engines installs it)"
    );
    eprintln!("SKIPPED: {engine} is missing (make engines installs it)");
    false
}

/// Each game's (game, transcript, winner, termination) of a job's rows, in game order.
fn games_of(rows: &std::collections::BTreeMap<String, polars::prelude::DataFrame>) -> Vec<String> {
    let mut games = Vec::new();
    for df in rows.values() {
        let (t, w, e) = (
            texts(df, "transcript"),
            texts(df, "winner"),
            texts(df, "termination"),
        );
        let g = df
            .column("game")
            .unwrap()
            .cast(&polars::prelude::DataType::Int64)
            .unwrap();
        for (i, game) in g.i64().unwrap().iter().enumerate() {
            games.push(format!("{} {} {} {}", game.unwrap(), w[i], e[i], t[i]));
        }
    }
    games.sort();
    games
}

/// Runs `text` (experiment `name`) on 1 thread and again, into a new folder, on 2; both runs'
/// games must be the same. Returns the file, the first run's folder and its games.
fn run_twice(python: &Path, dir: &Path, name: &str, text: &str) -> (PathBuf, PathBuf, Vec<String>) {
    let file = write(dir, &format!("{name}.toml"), text);
    let (one, two) = (dir.join("one"), dir.join("two"));
    let first = games_of(&rows_after_run(python, &file, &one, Some("1"), name));
    let second = games_of(&rows_after_run(python, &file, &two, Some("2"), name));
    assert_eq!(
        first, second,
        "{name}: the same games on a rerun on 2 threads"
    );
    (file, one, first)
}

/// `gamelab games FILE --out OUT --to RECORDS`: the one record file of the one job.
fn record_of(python: &Path, file: &Path, out: &Path, records: &Path) -> PathBuf {
    let o = gamelab_with(
        python,
        &[
            "games",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--to",
            records.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::read_dir(records)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}

/// Runs a Python check on a record file; its standard output.
fn python_check(python: &Path, code: &str, file: &Path) -> String {
    let o = Command::new(python)
        .args(["-c", code])
        .arg(file)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Chess openings as people write them (SAN with move numbers, UCI, a PGN file of games) play
/// from their moves, and the PGN export says the opening in numbered SAN, the day, the budgets
/// and no clock, as python-chess reads them; a position (EPD) is refused with that said.
#[test]
fn chess_openings_in_san_uci_and_pgn_play_and_the_pgn_names_them_its_day_and_budgets() {
    let Some(python) = openspiel_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "lines.txt",
        "# SAN with numbers, UCI, a check without its mark\n1. e4 e5 2. Nf3 Nc6\ne2e4 c7c5 g1f3\n1. e4 f5 2. Qh5 g6 *\n",
    );
    write(
        dir.path(),
        "games.pgn",
        "[Event \"a\"]\n\n1. d4 {closed} d5 2. c4 (2. Nf3) e6 $1 *\n\n[Event \"b\"]\n\n1. c4 e5 1/2-1/2\n",
    );
    let text = |name: &str, suite: &str| {
        format!(
            "name = \"{name}\"\nkind = \"match\"\ngame = \"openspiel\"\nopenspiel = {{ name = \"chess\" }}\n\
             seed = 2\n\n[match]\nplayers = [\"a\", \"b\"]\ngames = 6\n\n[openings]\nfile = \"{suite}\"\n\n\
             [agents.a]\nkind = \"openspiel_random\"\n\n[agents.b]\nkind = \"openspiel_mcts\"\nmax_simulations = 5\n"
        )
    };
    let check = r#"
import chess.pgn, sys, re, datetime
f = open(sys.argv[1]); out = []
while (g := chess.pgn.read_game(f)) is not None:
    h = g.headers
    assert not g.errors, g.errors
    assert re.fullmatch(r"\d{4}\.\d{2}\.\d{2}", h["Date"]), h["Date"]
    assert h["TimeControl"] == "-" and h["BlackBudget"] in ("5 sims", "-") and h["WhiteBudget"] in ("5 sims", "-"), dict(h)
    opening = chess.pgn.read_game(__import__("io").StringIO(h["Opening"] + " *"))
    moves = [m.uci() for m in opening.mainline_moves()]
    assert moves == [m.uci() for m in g.mainline_moves()][:len(moves)], (h["Opening"], moves)
    out.append(" ".join(moves))
print("|".join(out))
"#;
    let out = dir.path().join("out");
    let lines = write(dir.path(), "lines.toml", &text("lines", "lines.txt"));
    let o = run_into(&python, &lines, &out, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let pgn = record_of(&python, &lines, &out, &dir.path().join("lines-records"));
    assert_eq!(
        python_check(&python, check, &pgn),
        [
            "e2e4 e7e5 g1f3 b8c6",
            "e2e4 c7c5 g1f3",
            "e2e4 f7f5 d1h5 g7g6"
        ]
        .map(|o| format!("{o}|{o}"))
        .join("|")
    );
    // The viewer names chess's sides by colour, White moving first.
    let o = gamelab_with(
        &python,
        &[
            "report",
            lines.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let html = std::fs::read_to_string(out.join("results/lines/report/report.html")).unwrap();
    assert!(
        html.contains("[\"e4\",\"White\",") && html.contains("[\"e5\",\"Black\","),
        "the viewer's sides"
    );
    let games = write(dir.path(), "games.toml", &text("games", "games.pgn"));
    let o = run_into(&python, &games, &out, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let pgn = record_of(&python, &games, &out, &dir.path().join("games-records"));
    assert_eq!(
        python_check(&python, check, &pgn),
        "d2d4 d7d5 c2c4 e7e6|d2d4 d7d5 c2c4 e7e6|c2c4 e7e5|c2c4 e7e5|d2d4 d7d5 c2c4 e7e6|d2d4 d7d5 c2c4 e7e6"
    );
    // A position is no opening: refused, saying what an opening is here.
    write(
        dir.path(),
        "positions.epd",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;\n",
    );
    let epd = write(dir.path(), "epd.toml", &text("epd", "positions.epd"));
    let o = gamelab_with(
        &python,
        &["run", epd.to_str().unwrap(), "--out", out.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("positions.epd: an opening here is a line of moves"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn stockfish_plays_chess_over_uci_the_same_games_on_a_rerun_and_a_pgn_python_chess_reads() {
    let Some(python) = openspiel_or_skip() else {
        return;
    };
    if !engine_or_skip(STOCKFISH) {
        return;
    }
    let text = format!(
        "name = \"sf\"\nkind = \"match\"\ngame = \"openspiel\"\nopenspiel = {{ name = \"chess\" }}\n\
         seed = 2\n\n[match]\nplayers = [\"stockfish\", \"rnd\"]\ngames = 4\n\n\
         [agents.stockfish]\nkind = \"uci\"\ncommand = [\"{STOCKFISH}\"]\nnodes = 50\n\
         options = {{ Threads = 1, Hash = 16 }}\n\n[agents.rnd]\nkind = \"openspiel_random\"\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let (file, out, games) = run_twice(&python, dir.path(), "sf", &text);
    assert_eq!(games.len(), 4);
    // Stockfish mates a random mover: every game won by it, normally, from either seat.
    let rows = parts(&out, "sf", "games");
    let df = rows.values().next().unwrap();
    let firsts = texts(df, "first_agent");
    for (i, w) in texts(df, "winner").iter().enumerate() {
        let winner_is_first = w == "first";
        assert_eq!(
            winner_is_first,
            firsts[i] == "stockfish",
            "game {i}: {games:?}"
        );
    }
    assert!(texts(df, "termination").iter().all(|t| t == "normal"));
    let budget = texts(df, "first_budget");
    assert!(budget.iter().any(|b| b == "50 nodes"), "{budget:?}");
    let pgn = record_of(&python, &file, &out, &dir.path().join("records"));
    let check = r#"
import chess, chess.pgn, sys
f = open(sys.argv[1]); n = 0
while (g := chess.pgn.read_game(f)) is not None:
    n += 1
    assert not g.errors, (n, g.errors)
    assert len(list(g.mainline_moves())) == int(g.headers["PlyCount"]), n
    b = g.end().board(); res = g.headers["Result"]
    winner = g.headers["White"] if res == "1-0" else g.headers["Black"]
    assert b.is_checkmate() and winner == "stockfish", (n, res, b.fen())
print(n)
"#;
    assert_eq!(python_check(&python, check, &pgn), "4");
}

#[test]
fn gnu_go_plays_go_over_gtp_the_same_games_on_a_rerun_and_an_sgf_sgfmill_reads() {
    let Some(python) = openspiel_or_skip() else {
        return;
    };
    if !engine_or_skip(GNUGO) {
        return;
    }
    let text = format!(
        "name = \"gg\"\nkind = \"match\"\ngame = \"openspiel\"\n\
         openspiel = {{ name = \"go\", params = {{ board_size = 7 }} }}\nseed = 2\n\n\
         [match]\nplayers = [\"gnugo\", \"rnd\"]\ngames = 4\n\n\
         [agents.gnugo]\nkind = \"gtp\"\n\
         command = [\"{GNUGO}\", \"--mode\", \"gtp\", \"--level\", \"1\", \"--seed\", \"1\", \"--chinese-rules\", \"--capture-all-dead\"]\n\
         time_ms = 20000\ntell_time = false\n\n[agents.rnd]\nkind = \"openspiel_random\"\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let (file, out, games) = run_twice(&python, dir.path(), "gg", &text);
    assert_eq!(games.len(), 4);
    let rows = parts(&out, "gg", "games");
    let df = rows.values().next().unwrap();
    assert!(
        texts(df, "termination").iter().all(|t| t == "normal"),
        "{games:?}"
    );
    let sgf = record_of(&python, &file, &out, &dir.path().join("records"));
    assert_eq!(sgf.extension().unwrap(), "sgf");
    // sgfmill reads each game: the board's size, and a move per ply of its row.
    let check = r#"
import sys, re
from sgfmill import sgf
text = open(sys.argv[1], "rb").read()
games = [b"(;" + t for t in text.split(b"(;")[1:]]
out = []
for g in games:
    game = sgf.Sgf_game.from_bytes(g.strip())
    assert game.get_size() == 7
    moves = [n.get_move() for n in game.get_main_sequence()[1:]]
    assert all(colour in ("b", "w") for colour, _ in moves), moves
    out.append(str(len(moves)))
print(" ".join(out))
"#;
    let said = python_check(&python, check, &sgf);
    let plies: Vec<String> = df
        .column("plies")
        .unwrap()
        .cast(&polars::prelude::DataType::Int64)
        .unwrap()
        .i64()
        .unwrap()
        .iter()
        .map(|p| p.unwrap().to_string())
        .collect();
    assert_eq!(said, plies.join(" "), "a move per ply in every game's SGF");
}

/// A UCI engine in Python that plays the first move it is not told is illegal: `bestmove`
/// of `MOVE` (from the environment), after a handshake declaring one option.
const FAKE_UCI: &str = r#"
import os, sys
move = os.environ.get("MOVE", "e2e4")
for line in sys.stdin:
    w = line.split()
    if not w: continue
    if w[0] == "uci":
        print("id name fake"); print("option name Hash type spin default 1 min 1 max 64")
        if os.environ.get("NO_UCIOK") is None: print("uciok")
    elif w[0] == "isready": print("readyok")
    elif w[0] == "go": print("info depth 1"); print(f"bestmove {move}")
    elif w[0] == "quit": break
    sys.stdout.flush()
"#;

fn fake_uci_match(dir: &Path, extra: &str) -> PathBuf {
    let agent = write(dir, "fake_uci.py", FAKE_UCI);
    let text = format!(
        "name = \"fake\"\nkind = \"match\"\ngame = \"openspiel\"\nopenspiel = {{ name = \"chess\" }}\n\
         seed = 2\n\n[match]\nplayers = [\"fake\", \"rnd\"]\ngames = 2\n\n\
         [agents.fake]\nkind = \"uci\"\ncommand = [\"python3\", {:?}]\ninit_timeout_ms = 3000\n{extra}\n\
         [agents.rnd]\nkind = \"openspiel_random\"\n",
        agent.to_str().unwrap()
    );
    write(dir, "fake.toml", &text)
}

#[test]
fn a_uci_engine_that_plays_an_illegal_move_loses_by_it_with_its_line_in_the_rows() {
    let Some(python) = openspiel_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // e2e4 is legal at White's first move, not at Black's: the engine moving second loses at
    // once, the engine moving first at its second move (e2e4 again: its pawn has left e2).
    let file = fake_uci_match(dir.path(), "env = { MOVE = \"e2e4\" }\n");
    let rows = rows_after_run(&python, &file, &dir.path().join("out"), None, "fake");
    let df = rows.values().next().unwrap();
    let (first, winner, term, detail) = (
        texts(df, "first_agent"),
        texts(df, "winner"),
        texts(df, "termination"),
        texts(df, "fault_detail"),
    );
    for i in 0..2 {
        assert_eq!(term[i], "illegal_move", "game {i}");
        assert_eq!(detail[i], "bestmove e2e4", "game {i}");
        let fake_won = (winner[i] == "first") == (first[i] == "fake");
        assert!(!fake_won, "game {i}: the fault is the fake engine's loss");
    }
}

#[test]
fn an_engine_section_that_cannot_work_is_refused_naming_its_key_with_nothing_written() {
    let Some(python) = openspiel_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (extra, game, key, says) in [
        // No `uciok`: the handshake's time runs out before anything runs.
        ("env = { NO_UCIOK = \"1\" }\n", None, "agents.fake", "uciok"),
        // An option the engine does not declare.
        (
            "options = { Hsh = 16 }\n",
            None,
            "agents.fake",
            "options.Hsh",
        ),
        // A key of UCI on another kind, and a search without any limit.
        ("tell_time = false\n", None, "agents.fake", "nodes or depth"),
        // UCI on a game that is not chess.
        (
            "",
            Some("openspiel = { name = \"connect_four\" }"),
            "agents.fake",
            "chess",
        ),
    ] {
        let file = fake_uci_match(dir.path(), extra);
        if let Some(game) = game {
            let text = std::fs::read_to_string(&file)
                .unwrap()
                .replace("openspiel = { name = \"chess\" }", game);
            std::fs::write(&file, text).unwrap();
        }
        let out = dir.path().join("out");
        let o = run_into(&python, &file, &out, None);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{extra}: {err}");
        assert!(
            err.contains(key) && err.contains(says),
            "{extra}: names {key} and {says}: {err}"
        );
        assert!(!out.join("results").exists(), "{extra}: nothing written");
    }
    // `nodes` on gamelab's own protocol is refused too.
    let text = std::fs::read_to_string(fake_uci_match(dir.path(), "nodes = 5\n"))
        .unwrap()
        .replace("kind = \"uci\"", "kind = \"external\"");
    let file = write(dir.path(), "fake.toml", &text);
    let o = run_into(&python, &file, &dir.path().join("out"), None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("nodes is a key of kind = \"uci\""),
        "{}",
        stderr(&o)
    );
}

/// An Othello match of a GTP engine (`kind = "gtp"`) against greedy on the standard board from
/// the shipped suite's openings, `extra` added to the engine's section.
fn othello_gtp_match(dir: &Path, command: &str, stage: &str, extra: &str) -> PathBuf {
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("openings/othello-{stage}.txt"));
    let text = format!(
        "name = \"ogtp\"\nkind = \"match\"\ngame = \"othello\"\nstage = \"{stage}\"\nseed = 4\n\n\
         [match]\nplayers = [\"engine\", \"greedy\"]\ngames = 8\n\n\
         [openings]\nfile = {:?}\norder = \"random\"\n\n\
         [agents.engine]\nkind = \"gtp\"\ncommand = {command}\n{extra}\n\
         [agents.greedy]\nkind = \"greedy\"\n",
        suite.to_str().unwrap()
    );
    write(dir, "ogtp.toml", &text)
}

/// `gamelab run FILE --out OUT [--threads T]` of an Othello GTP match, which must succeed: the
/// rows of its one job.
fn othello_rows(file: &Path, out: &Path, threads: Option<&str>) -> polars::prelude::DataFrame {
    let mut args = vec![
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    if let Some(t) = threads {
        args.extend(["--threads", t]);
    }
    let o = gamelab(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    parts(out, "ogtp", "games").into_values().next().unwrap()
}

/// The small GTP Othello engine of tests/agents (Edax's `-gtp` dialect), as a `command`.
fn fake_gtp_othello(args: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agents/gtp_othello.py");
    format!("[\"python3\", {:?}{args}]", script.to_str().unwrap())
}

/// Othello over GTP: the engine is told each game as moves from the standard start (an
/// opening's start reached by a line of moves, passes as `play w pass`), its moves are legal
/// (none of its games ends by a fault), the rows are the same on 1 and 2 threads and replay; a
/// GTP engine on a stage other than the standard board is refused naming the agent, and an
/// engine's illegal answer loses by `illegal_move`.
#[test]
fn an_othello_engine_plays_over_gtp_from_the_openings_the_same_games_on_a_rerun() {
    let dir = tempfile::tempdir().unwrap();
    let file = othello_gtp_match(dir.path(), &fake_gtp_othello(""), "standard8", "");
    let f = file.to_str().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    let df = othello_rows(&file, &one, Some("1"));
    othello_rows(&file, &two, Some("2"));
    let games = |out: &Path| games_of(&parts(out, "ogtp", "games"));
    let first = games(&one);
    assert_eq!(first, games(&two), "the same games on 2 threads");
    assert_eq!(first.len(), 8);
    assert!(
        texts(&df, "termination").iter().all(|t| t == "normal"),
        "{first:?}"
    );
    // Every game is played to its end, passes told as moves where there are any.
    let plies = df.column("plies").unwrap().i64().unwrap().clone();
    assert!(plies.iter().flatten().all(|p| p >= 60), "{plies:?}");
    let job = texts(&df, "job").swap_remove(0);
    let o = gamelab(&[
        "replay",
        f,
        "--out",
        one.to_str().unwrap(),
        "--job",
        &job,
        "--game",
        "0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    // The illegal answer (a taken square) loses the game by it, with its line.
    let file = othello_gtp_match(
        dir.path(),
        &fake_gtp_othello(", \"--illegal\""),
        "standard8",
        "",
    );
    let df = othello_rows(&file, &dir.path().join("illegal"), None);
    assert!(
        texts(&df, "termination")
            .iter()
            .all(|t| t == "illegal_move")
    );
    assert!(
        texts(&df, "fault_detail").iter().all(|t| t == "= d4"),
        "{:?}",
        texts(&df, "fault_detail")
    );

    // Another stage has no GTP engine: refused before anything runs.
    let file = othello_gtp_match(dir.path(), &fake_gtp_othello(""), "small6", "");
    let out = dir.path().join("small");
    let o = gamelab(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("agents.engine") && stderr(&o).contains("standard8"),
        "{}",
        stderr(&o)
    );
    assert!(!out.join("results").exists());
}

/// Edax itself over GTP (`edax -gtp`), where one is built: EDAX names its binary and
/// EDAX_EVAL its evaluation file (Edax's releases ship data/eval.dat; a file of the right size
/// whose weights are all zero also runs it). Fetched and built outside the repository, never
/// in CI: SKIPPED without EDAX.
#[test]
fn edax_plays_othello_over_gtp_where_one_is_built() {
    let (Some(edax), Some(eval)) = (std::env::var_os("EDAX"), std::env::var_os("EDAX_EVAL")) else {
        eprintln!(
            "SKIPPED: set EDAX (an Edax binary) and EDAX_EVAL (its eval.dat) to play Edax over GTP"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let command = format!(
        "[{:?}, \"-gtp\", \"-l\", \"4\", \"-n\", \"1\", \"-book-usage\", \"off\", \"-eval-file\", {:?}]",
        edax.to_str().unwrap(),
        eval.to_str().unwrap()
    );
    let file = othello_gtp_match(
        dir.path(),
        &command,
        "standard8",
        "tell_time = false\ntime_ms = 5000\n",
    );
    let df = othello_rows(&file, &dir.path().join("out"), None);
    assert_eq!(df.height(), 8);
    assert!(
        texts(&df, "termination").iter().all(|t| t == "normal"),
        "{:?}",
        texts(&df, "fault_detail")
    );
}

/// Two life-and-death problems (two eyes in the corner; a two-point eye space) set up on GNU
/// Go's board by `play` and asked by its owl module over GTP (`gamelab solve --gtp`): its
/// threat-free answers agree with our solver's, each line says so, and a command that cannot
/// start is one error naming `--gtp`.
#[test]
fn gnu_go_answers_life_and_death_problems_over_gtp_beside_our_solver() {
    if !engine_or_skip(GNUGO) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let problems = write(
        dir.path(),
        "two.txt",
        "problem alive\nsize 19\nto-move attacker\nattacker black\nmap\n.O.O#\nOOOO#\n#####\nend\n\n\
         problem dead\nsize 19\nto-move defender\nattacker black\nmap\n..O#\nOOO#\n####\nend\n",
    );
    let f = problems.to_str().unwrap();
    let o = gamelab(&["solve", f, "--gtp", &format!("{GNUGO} --mode gtp")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("gnugo: l (owl_attack B19: 0): agrees"),
        "{said}"
    );
    assert!(
        said.contains("gnugo: d (owl_defend C19: 0): agrees"),
        "{said}"
    );
    assert!(
        said.contains("gnugo: 2 agree, 0 differ on the threat-free status; 0 ko answers"),
        "{said}"
    );
    let o = gamelab(&["solve", f, "--gtp", "/no/such/engine"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--gtp /no/such/engine: "),
        "{}",
        stderr(&o)
    );
    assert!(
        o.stdout.is_empty(),
        "nothing solved or printed before the engine starts"
    );
    assert_eq!(stderr(&o).trim_end().lines().count(), 1, "{}", stderr(&o));
}
