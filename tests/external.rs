//! External agents over the line protocol: a random Python agent plays every game and scores
//! as the built-in random does; agents that misbehave lose their games with the right
//! `termination` and never stop or hang the run; bad commands are errors before anything runs.

use crate::common::*;
use gamelab::experiment::rows::read_part;
use polars::prelude::DataFrame;
use std::path::Path;

/// A match of external agent `mine` (running `command`) against the built-in random.
fn match_file(game: &str, stage: &str, games: u32, command: &str, extra: &str) -> String {
    format!(
        "name = \"ext\"\nkind = \"match\"\ngame = \"{game}\"\nstage = \"{stage}\"\nseed = 11\n[match]\nplayers = [\"mine\", \"random\"]\ngames = {games}\n[agents.mine]\nkind = \"external\"\ncommand = {command}\n{extra}\n[agents.random]\nkind = \"random\"\n"
    )
}

fn rows_of(out: &Path) -> DataFrame {
    let dir = out.join("results/ext/games");
    let part = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("part-")
        })
        .unwrap();
    read_part(&part).unwrap()
}

fn text(df: &DataFrame, column: &str) -> Vec<String> {
    df.column(column)
        .unwrap()
        .str()
        .unwrap()
        .iter()
        .map(|v| v.unwrap_or("").to_string())
        .collect()
}

fn run(dir: &Path, text: &str, extra: &[&str]) -> (std::process::Output, std::path::PathBuf) {
    let file = write(dir, "ext.toml", text);
    let out = dir.join("out");
    let mut args = vec![
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    // Commands name files relative to the repository, where gamelab runs.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (o, out)
}

const RANDOM: &str = "[\"python3\", \"examples/agents/random_agent.py\", \"5\"]";

#[test]
fn a_random_python_agent_plays_every_game_and_scores_as_random_does() {
    for (game, stage) in [
        ("othello", "small6"),
        ("colosseum", "sizes-5-8"),
        ("freckers", "standard"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (o, out) = run(dir.path(), &match_file(game, stage, 12, RANDOM, ""), &[]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        let rows = rows_of(&out);
        assert_eq!(rows.height(), 12, "{game}");
        assert!(
            text(&rows, "termination").iter().all(|t| t == "normal"),
            "{game}: {:?}",
            text(&rows, "fault_detail")
        );
    }
    // Several hundred games on one thread (one process, games in order: the same games on every
    // run): the external random agent's score is inside a 95% interval around 50%.
    let dir = tempfile::tempdir().unwrap();
    let (o, out) = run(
        dir.path(),
        &match_file("othello", "small6", 400, RANDOM, ""),
        &["--threads", "1"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = rows_of(&out);
    let (first, winner) = (text(&rows, "first_agent"), text(&rows, "winner"));
    let points: f64 = first
        .iter()
        .zip(&winner)
        .map(|(f, w)| gamelab::play::seat_result(w, f == "mine"))
        .sum();
    let score = points / 400.0;
    let half_width = 1.96 * (0.25f64 / 400.0).sqrt();
    assert!(
        (score - 0.5).abs() <= half_width,
        "score {score} outside 50% +- {half_width}"
    );
}

#[test]
fn faults_end_the_game_as_a_loss_and_never_stop_the_run() {
    let cases = [
        ("illegal", "illegal_move", "move zz99"),
        ("garbage", "protocol_error", "hello there"),
        ("crash", "crash", "exited"),
        ("sleep", "timeout", "no move within 300 ms"),
        // 200 MB of a line without its end, the pipe left open: out of time, not held.
        ("nonewline", "timeout", "no move within 300 ms"),
        // Standard output closed by a process that stays alive: outside a sandbox gamelab sees
        // the pipe close (a crash); in one, bubblewrap's own processes hold it open, so the
        // silent process is out of time at its deadline.
        ("closedout", "timeout", "no move within 300 ms"),
        ("closedout-unsandboxed", "crash", "closed"),
    ];
    for (mode, termination, detail) in cases {
        let dir = tempfile::tempdir().unwrap();
        let (mode, extra) = match mode.strip_suffix("-unsandboxed") {
            Some(m) => (m, "\nsandbox = \"none\""),
            None => (mode, ""),
        };
        let command = format!("[\"python3\", \"tests/agents/misbehaving.py\", \"{mode}\", \"3\"]");
        let t0 = std::time::Instant::now();
        let (o, out) = run(
            dir.path(),
            &match_file(
                "othello",
                "small6",
                6,
                &command,
                &format!("time_ms = 300\ngrace_ms = 200{extra}"),
            ),
            &["--threads", "2"],
        );
        assert!(
            o.status.success(),
            "{mode}: the run finishes: {}",
            stderr(&o)
        );
        assert!(
            t0.elapsed().as_secs() < 25,
            "{mode}: a sleeping agent is killed at its deadline"
        );
        let rows = rows_of(&out);
        assert_eq!(rows.height(), 6, "{mode}");
        let (first, winner) = (text(&rows, "first_agent"), text(&rows, "winner"));
        for (i, t) in text(&rows, "termination").iter().enumerate() {
            assert_eq!(t, termination, "{mode}: game {i}");
            // The offender lost.
            assert_eq!(
                gamelab::play::seat_result(&winner[i], first[i] == "mine"),
                0.0,
                "{mode}: game {i}"
            );
        }
        assert!(
            text(&rows, "fault_detail")
                .iter()
                .all(|d| d.contains(detail)),
            "{mode}: {:?}",
            text(&rows, "fault_detail")
        );
        // The program's standard error is kept per job.
        let logs: Vec<_> = std::fs::read_dir(out.join("results/ext/logs"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(logs.len(), 1);
        let log = std::fs::read_to_string(&logs[0]).unwrap();
        // Every faulty game killed its process: each game started a new one.
        assert_eq!(log.matches("started").count(), 6, "{mode}: {log}");
        if mode == "crash" {
            assert!(log.contains("about to crash"));
        }
    }
}

#[test]
fn each_game_starts_its_own_process_and_the_report_counts_terminations() {
    let dir = tempfile::tempdir().unwrap();
    let command = "[\"python3\", \"tests/agents/misbehaving.py\", \"ok\"]";
    let (o, out) = run(
        dir.path(),
        &match_file("othello", "small6", 10, command, ""),
        &["--threads", "1"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let logs: Vec<_> = std::fs::read_dir(out.join("results/ext/logs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        std::fs::read_to_string(&logs[0])
            .unwrap()
            .matches("started")
            .count(),
        10,
        "a process for each of the ten games (nothing of one game reaches the next)"
    );

    // A process that exits after its game loses nothing: the next game has its own.
    let dir = tempfile::tempdir().unwrap();
    let command = "[\"python3\", \"tests/agents/misbehaving.py\", \"onegame\"]";
    let (o, out) = run(
        dir.path(),
        &match_file("othello", "small6", 8, command, ""),
        &["--threads", "1"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        text(&rows_of(&out), "termination")
            .iter()
            .all(|t| t == "normal"),
        "{:?}",
        text(&rows_of(&out), "fault_detail")
    );

    let dir = tempfile::tempdir().unwrap();
    let command = "[\"python3\", \"tests/agents/misbehaving.py\", \"illegal\", \"2\"]";
    let text_ = match_file("othello", "small6", 4, command, "");
    let (o, out) = run(dir.path(), &text_, &[]);
    assert!(o.status.success());
    let file = dir.path().join("ext.toml");
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args([
            "report",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", stderr(&r));
    let md = std::fs::read_to_string(out.join("results/ext/report/report.md")).unwrap();
    assert!(md.contains("## Terminations"), "{md}");
    assert!(md.contains("| mine | 4 | 0 | 4 | 0 | 0 | 0 | 0 |"), "{md}");
}

#[test]
fn bad_commands_are_errors_before_anything_is_written() {
    let cases = [
        ("[\"no-such-program-here\"]", "", "cannot start"),
        (
            "[\"python3\", \"-c\", \"import time; time.sleep(30)\"]",
            "init_timeout_ms = 300",
            "no answer to the handshake within 300 ms",
        ),
        (
            "[\"python3\", \"-c\", \"print('ready 2 old', flush=True); input()\"]",
            "",
            "protocol version 2",
        ),
        (
            "[\"python3\", \"-c\", \"print('hello', flush=True); input()\"]",
            "",
            "expected `ready 1 NAME`",
        ),
        ("[]", "", "command must name a program"),
    ];
    for (command, extra, says) in cases {
        let dir = tempfile::tempdir().unwrap();
        let (o, out) = run(
            dir.path(),
            &match_file("othello", "small6", 4, command, extra),
            &[],
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{command}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains("ext.toml") && err.contains("agents.mine") && err.contains(says),
            "{command}: {err}"
        );
        assert!(!out.exists(), "nothing written");
    }
}

#[test]
fn course_agents_play_unmodified_through_the_adapters() {
    // Colosseum: a student_agent.py with the course's imports (agents.agent, store, numpy) and
    // prints to standard output; Freckers: an agent package with program.py importing
    // referee.game and a sibling module; Othello: gamelab's small Python interface.
    let cases = [
        (
            "colosseum",
            "sizes-5-8",
            "[\"python3\", \"adapters/colosseum/gamelab_colosseum.py\", \"tests/agents/colosseum_course/agents/student_agent.py\"]",
            "turn 1 at",
        ),
        // The same agent inside a course project of its own (store, constants, utils, agents/).
        (
            "colosseum",
            "sizes-5-8",
            "[\"python3\", \"adapters/colosseum/gamelab_colosseum.py\", \"tests/agents/colosseum_project/agents/student_agent.py\"]",
            "turn 1 at",
        ),
        (
            "freckers",
            "standard",
            "[\"python3\", \"adapters/freckers/gamelab_freckers.py\", \"tests/agents/freckers_course/agent\"]",
            "Testing: I am playing as",
        ),
        // An agent without a referee of its own that keeps the game on the stand-in's Board.
        (
            "freckers",
            "standard",
            "[\"python3\", \"adapters/freckers/gamelab_freckers.py\", \"tests/agents/freckers_board_agent/agent\"]",
            "",
        ),
        // An agent folder that ships its own `referee` package (imports the stand-in lacks).
        (
            "freckers",
            "standard",
            "[\"python3\", \"adapters/freckers/gamelab_freckers.py\", \"tests/agents/freckers_own_referee/agent\"]",
            "Testing: I am playing as",
        ),
        (
            "othello",
            "small6",
            "[\"python3\", \"adapters/othello/gamelab_othello.py\", \"examples/agents/othello_corners.py\"]",
            "",
        ),
    ];
    for (game, stage, command, printed) in cases {
        let dir = tempfile::tempdir().unwrap();
        let (o, out) = run(dir.path(), &match_file(game, stage, 10, command, ""), &[]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        let rows = rows_of(&out);
        assert_eq!(rows.height(), 10, "{game}");
        let details = text(&rows, "fault_detail");
        assert!(
            text(&rows, "termination").iter().all(|t| t == "normal"),
            "{game}: {details:?}"
        );
        // Both seats: the adapter tells the course agent which colour it plays.
        let first = text(&rows, "first_agent");
        assert_eq!(first.iter().filter(|f| *f == "mine").count(), 5, "{game}");
        let logs: Vec<_> = std::fs::read_dir(out.join("results/ext/logs"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        let log = std::fs::read_to_string(&logs[0]).unwrap();
        assert!(
            log.contains(printed),
            "{game}: what the agent printed is in the log, not the protocol: {log}"
        );
    }
}

#[test]
fn an_external_agent_plays_as_either_half_of_a_hybrid() {
    // Was a panic (exit 101, "a live process"): the hybrid did not pass the game's start on.
    for (early, late) in [
        (
            format!("{{ kind = \"external\", command = {RANDOM} }}"),
            "{ kind = \"random\" }".to_string(),
        ),
        (
            "{ kind = \"random\" }".to_string(),
            format!("{{ kind = \"external\", command = {RANDOM} }}"),
        ),
    ] {
        let file = format!(
            "name = \"ext\"\nkind = \"match\"\ngame = \"freckers\"\nstage = \"standard\"\nseed = 5\n[match]\nplayers = [\"mine\", \"random\"]\ngames = 4\n[agents.mine]\nkind = \"hybrid\"\nswitch_ply = 6\nearly = {early}\nlate = {late}\n[agents.random]\nkind = \"random\"\n"
        );
        let dir = tempfile::tempdir().unwrap();
        let (o, out) = run(dir.path(), &file, &[]);
        assert!(o.status.success(), "{}", stderr(&o));
        let rows = rows_of(&out);
        assert_eq!(rows.height(), 4);
        assert!(
            text(&rows, "termination").iter().all(|t| t == "normal"),
            "{:?}",
            text(&rows, "fault_detail")
        );
    }
}

/// The largest resident set (VmHWM, kB) of process `pid` seen while it runs, and its output.
fn peak_rss_kb(child: std::process::Child) -> (u64, std::process::Output) {
    let pid = child.id();
    let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (p, d) = (peak.clone(), done.clone());
    let watcher = std::thread::spawn(move || {
        while !d.load(std::sync::atomic::Ordering::Relaxed) {
            if let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
                if let Some(kb) = status
                    .lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                {
                    p.fetch_max(kb, std::sync::atomic::Ordering::Relaxed);
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    });
    let out = child.wait_with_output().unwrap();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    watcher.join().unwrap();
    (peak.load(std::sync::atomic::Ordering::Relaxed), out)
}

/// Processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            std::fs::read(e.path().join("cmdline"))
                .ok()
                .map(|c| (e.file_name(), c))
        })
        .filter(|(_, c)| String::from_utf8_lossy(c).contains(marker))
        .map(|(pid, c)| {
            format!(
                "{} {}",
                pid.to_string_lossy(),
                String::from_utf8_lossy(&c).replace('\0', " ")
            )
        })
        .collect()
}

#[test]
fn a_huge_line_is_a_protocol_error_that_gamelab_does_not_hold() {
    let dir = tempfile::tempdir().unwrap();
    let command = "[\"python3\", \"tests/agents/misbehaving.py\", \"longline\", \"2\"]";
    let file = write(
        dir.path(),
        "ext.toml",
        &match_file("othello", "small6", 2, command, ""),
    );
    let out = dir.path().join("out");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--threads",
            "1",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (peak_kb, o) = peak_rss_kb(child);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = rows_of(&out);
    assert!(
        text(&rows, "termination")
            .iter()
            .all(|t| t == "protocol_error"),
        "{:?}",
        text(&rows, "termination")
    );
    for d in text(&rows, "fault_detail") {
        assert!(
            d.contains("a line of 100000005 bytes") && d.len() < 500,
            "{d}"
        );
    }
    assert!(
        peak_kb > 0 && peak_kb < 100 * 1024,
        "gamelab's peak resident memory {peak_kb} kB, past 100 MB"
    );
}

#[test]
fn an_agents_log_is_capped() {
    let dir = tempfile::tempdir().unwrap();
    let command = "[\"python3\", \"tests/agents/misbehaving.py\", \"spam\"]";
    let (o, out) = run(
        dir.path(),
        &match_file("othello", "small6", 2, command, "time_ms = 5000"),
        &["--threads", "1"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        text(&rows_of(&out), "termination")
            .iter()
            .all(|t| t == "normal")
    );
    let logs: Vec<_> = std::fs::read_dir(out.join("results/ext/logs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let len = std::fs::metadata(&logs[0]).unwrap().len();
    assert!(len <= 10_001_000, "the log holds {len} bytes");
    let tail = std::fs::read(&logs[0]).unwrap();
    let tail = String::from_utf8_lossy(&tail[tail.len() - 200..]);
    assert!(
        tail.contains("more bytes of this agent's standard error dropped"),
        "{tail}"
    );
}

#[test]
fn no_agent_process_outlives_its_run_not_even_a_child_it_forked_or_gamelab_killed() {
    // A forking agent: after the run, neither it nor its child is left.
    let marker = format!("gamelab-fork-test-{}", std::process::id());
    let dir = tempfile::tempdir().unwrap();
    let command =
        format!("[\"python3\", \"tests/agents/misbehaving.py\", \"fork\", \"1\", \"{marker}\"]");
    let (o, _) = run(
        dir.path(),
        &match_file("othello", "small6", 6, &command, ""),
        &["--threads", "2"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        processes_with(&marker),
        Vec::<String>::new(),
        "processes left after the run"
    );
    // kill -9 of gamelab: an agent that ignores SIGTERM and the end of its input dies with it.
    let marker = format!("gamelab-stubborn-test-{}", std::process::id());
    let command = format!(
        "[\"python3\", \"tests/agents/misbehaving.py\", \"stubborn\", \"1\", \"{marker}\"]"
    );
    let file = write(
        dir.path(),
        "slow.toml",
        &match_file("othello", "small6", 2000, &command, ""),
    );
    let out = dir.path().join("killed");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--threads",
            "1",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while processes_with(&marker)
        .iter()
        .all(|p| !p.contains("misbehaving.py"))
    {
        assert!(t0.elapsed().as_secs() < 20, "the agent never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let t0 = std::time::Instant::now();
    while !processes_with(&marker).is_empty() && t0.elapsed().as_secs() < 5 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(
        processes_with(&marker),
        Vec::<String>::new(),
        "agents left after gamelab was killed"
    );
}

/// Waits up to `secs` seconds for no process with `marker` on its command line to be left.
fn none_left_within(marker: &str, secs: u64) -> Vec<String> {
    let t0 = std::time::Instant::now();
    while !processes_with(marker).is_empty() && t0.elapsed().as_secs() < secs {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    processes_with(marker)
}

/// Starts `gamelab run` on a match of the escaping agent (`misbehaving.py escape`, its children
/// marked with `marker`) against random: `games` games on `threads` threads, rows under `out`.
fn run_escaping_agent(
    dir: &Path,
    marker: &str,
    games: u32,
    threads: &str,
) -> (std::process::Child, std::path::PathBuf) {
    let command =
        format!("[\"python3\", \"tests/agents/misbehaving.py\", \"escape\", \"1\", \"{marker}\"]");
    let file = write(
        dir,
        &format!("{marker}.toml"),
        &match_file("othello", "small6", games, &command, ""),
    );
    let out = dir.join(marker);
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--threads",
            threads,
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    (child, out)
}

#[test]
fn an_agent_whose_children_escape_with_setsid_neither_hangs_the_run_nor_outlives_it() {
    // 20 children per agent process leave its process group and session, ignore SIGTERM and
    // hold its standard output and error open: the run still ends, and none of them is left.
    let dir = tempfile::tempdir().unwrap();
    let marker = format!("gamelab-escape-test-{}", std::process::id());
    let (mut child, out) = run_escaping_agent(dir.path(), &marker, 4, "2");
    let t0 = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed().as_secs() > 60 {
            child.kill().ok();
            child.wait().ok();
            let left = processes_with(&marker);
            for p in &left {
                let pid: i32 = p.split(' ').next().unwrap().parse().unwrap();
                // SAFETY: cleaning up this test's own escaped processes.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            panic!(
                "the run did not end within 60 s; {} escaped processes",
                left.len()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success());
    assert_eq!(text(&rows_of(&out), "termination").len(), 4);
    assert_eq!(
        none_left_within(&marker, 2),
        Vec::<String>::new(),
        "processes left after the run"
    );

    // kill -9 of gamelab while the escaped children live: none of them is left either.
    let marker = format!("gamelab-escape-kill-test-{}", std::process::id());
    let (mut child, _) = run_escaping_agent(dir.path(), &marker, 2000, "1");
    let t0 = std::time::Instant::now();
    while processes_with(&marker).len() < 20 {
        assert!(
            t0.elapsed().as_secs() < 20,
            "the agent's children never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_eq!(
        none_left_within(&marker, 5),
        Vec::<String>::new(),
        "processes left after gamelab was killed"
    );
}

#[test]
fn an_agent_over_its_memory_loses_by_memory_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let command = "[\"python3\", \"tests/agents/misbehaving.py\", \"hog\", \"2\"]";
    let (o, out) = run(
        dir.path(),
        &match_file(
            "othello",
            "small6",
            4,
            command,
            "memory_mb = 200\ntime_ms = 3000",
        ),
        &["--threads", "2"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = rows_of(&out);
    assert_eq!(rows.height(), 4);
    let (first, winner) = (text(&rows, "first_agent"), text(&rows, "winner"));
    for (i, t) in text(&rows, "termination").iter().enumerate() {
        assert_eq!(t, "memory", "game {i}: {:?}", text(&rows, "fault_detail"));
        assert_eq!(
            gamelab::play::seat_result(&winner[i], first[i] == "mine"),
            0.0
        );
    }
    assert!(
        text(&rows, "fault_detail")
            .iter()
            .all(|d| d.contains("over memory_mb = 200")),
        "{:?}",
        text(&rows, "fault_detail")
    );
    // Under a limit it keeps, the same agent plays normal games.
    let dir = tempfile::tempdir().unwrap();
    let (o, out) = run(
        dir.path(),
        &match_file(
            "othello",
            "small6",
            2,
            command,
            "memory_mb = 2000\ntime_ms = 3000",
        ),
        &["--threads", "1"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        text(&rows_of(&out), "termination")
            .iter()
            .all(|t| t == "normal")
    );
}

#[test]
fn a_course_agent_drawing_from_unseeded_generators_gives_the_same_rows_on_any_threads_and_after_a_kill()
 {
    // The agent seeds nothing itself; the adapter seeds Python's random and numpy's global
    // generator with the game's seed from `newgame`. Games are compared column by column
    // (timing columns aside), so every move of every game is the same.
    let command = "[\"python3\", \"adapters/othello/gamelab_othello.py\", \"tests/agents/othello_unseeded.py\"]";
    // A generous clock: the rows are compared, and on a loaded machine (CI runs tests side by
    // side, each game starting its interpreter afresh) a move past Othello's 1 s would differ.
    let text = match_file("othello", "small6", 40, command, "time_ms = 30000")
        .replace("[match]", "repeats = 2\n[match]");
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "ext.toml", &text);
    let f = file.to_str().unwrap();
    let runs: Vec<_> = [("one", "1"), ("two", "2")]
        .iter()
        .map(|(name, threads)| {
            let out = dir.path().join(name);
            let o = gamelab(&[
                "run",
                f,
                "--out",
                out.to_str().unwrap(),
                "--threads",
                threads,
            ]);
            assert!(o.status.success(), "{}", stderr(&o));
            parts(&out, "ext", "games")
        })
        .collect();
    assert_same(&runs[0], &runs[1], "1 and 2 threads");
    // Killed (SIGKILL) part way, then resumed.
    let out = dir.path().join("killed");
    let args = ["run", f, "--out", out.to_str().unwrap(), "--threads", "2"];
    let landed = kill_part_way(&args, &[], &[400, 900, 1500]);
    let o = gamelab(&["run", f, "--out", out.to_str().unwrap(), "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_same(
        &runs[0],
        &parts(&out, "ext", "games"),
        &format!("after {landed} kills and a resume"),
    );
}

#[test]
fn a_course_referee_that_does_not_import_stops_the_run_unless_the_stand_in_is_asked_for() {
    // A student's folder as the course template lays it out: `agent/` beside the course's own
    // `referee/`, whose import needs a module this Python lacks (as the real one needs
    // websockets). Was: gamelab's stand-in played silently, and agents written against the
    // course's Board crashed every game.
    let dir = tempfile::tempdir().unwrap();
    let student = dir.path().join("student");
    let agent = student.join("agent");
    std::fs::create_dir_all(&agent).unwrap();
    let course = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agents/freckers_course/agent");
    for f in std::fs::read_dir(&course).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, agent.join(f.file_name().unwrap())).unwrap();
    }
    std::fs::create_dir_all(student.join("referee/game")).unwrap();
    write(
        &student.join("referee"),
        "__init__.py",
        "import gamelab_test_missing_module  # what the course's requirements would install\n",
    );
    write(&student.join("referee/game"), "__init__.py", "");
    let command = |extra: &str| {
        format!(
            "[\"python3\", \"adapters/freckers/gamelab_freckers.py\", \"{}\"{extra}]",
            agent.display()
        )
    };
    let (o, out) = run(
        dir.path(),
        &match_file("freckers", "standard", 4, &command(""), ""),
        &[],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    for says in [
        "ext.toml",
        "agents.mine",
        "gamelab_test_missing_module",
        "pip install gamelab_test_missing_module",
        "--stand-in",
    ] {
        assert!(err.contains(says), "{says}: {err}");
    }
    assert!(!out.exists(), "nothing written");
    // Asked for, the stand-in plays.
    let (o, out) = run(
        dir.path(),
        &match_file("freckers", "standard", 4, &command(", \"--stand-in\""), ""),
        &[],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = rows_of(&out);
    assert_eq!(rows.height(), 4);
    assert!(
        text(&rows, "termination").iter().all(|t| t == "normal"),
        "{:?}",
        text(&rows, "fault_detail")
    );
}

#[test]
fn a_course_agent_plays_from_the_students_own_folder_with_the_printed_adapter_section() {
    // `gamelab adapters` prints each adapter's section with its absolute path; pasted into an
    // experiment file in the student's folder, with `cwd` set to it, the agent plays from there
    // (gamelab started in that folder, not in the clone).
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .arg("adapters")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let printed = String::from_utf8(o.stdout).unwrap();
    let sections: Vec<&str> = printed
        .split("\n\n")
        .filter(|s| !s.trim().is_empty())
        .collect();
    assert_eq!(sections.len(), 3, "{printed}");
    let freckers = sections
        .iter()
        .find(|s| s.contains("gamelab_freckers.py"))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let student = dir.path().join("part-b");
    std::fs::create_dir_all(student.join("agent")).unwrap();
    let course = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agents/freckers_course/agent");
    for f in std::fs::read_dir(&course).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, student.join("agent").join(f.file_name().unwrap())).unwrap();
    }
    let section = freckers.replace("/path/to/your/part-b", &student.display().to_string());
    let file = format!(
        "name = \"ext\"\nkind = \"match\"\ngame = \"freckers\"\nstage = \"standard\"\nseed = 3\n[match]\nplayers = [\"mine\", \"random\"]\ngames = 2\n{section}\n[agents.random]\nkind = \"random\"\n"
    );
    write(&student, "mine.toml", &file);
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(["run", "mine.toml"])
        .current_dir(&student)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}\n{file}", stderr(&o));
    let rows = rows_of(&student);
    assert_eq!(rows.height(), 2);
    assert!(
        text(&rows, "termination").iter().all(|t| t == "normal"),
        "{:?}",
        text(&rows, "fault_detail")
    );
}

#[test]
fn the_cpu_clock_counts_what_the_agent_computes_and_the_wall_clock_what_it_waits() {
    // A move that waits 1.5 s without computing (as on a loaded machine, where the agent is not
    // scheduled) keeps a 600 ms time on the CPU clock (COMP30024's) and loses it on the wall
    // clock (COMP 424's); a move that computes 1.5 s loses it on the CPU clock.
    let cases = [
        ("nap", "cpu", "normal", ""),
        ("nap", "wall", "timeout", "of wall-clock time"),
        ("burn", "cpu", "timeout", "of CPU time"),
    ];
    for (mode, clock, termination, says) in cases {
        let dir = tempfile::tempdir().unwrap();
        let command =
            format!("[\"python3\", \"tests/agents/misbehaving.py\", \"{mode}\", \"1\", \"1.5\"]");
        let (o, out) = run(
            dir.path(),
            &match_file(
                "othello",
                "small6",
                2,
                &command,
                &format!("time_ms = 600\nclock = \"{clock}\""),
            ),
            &["--threads", "1"],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let rows = rows_of(&out);
        let details = text(&rows, "fault_detail");
        for (i, t) in text(&rows, "termination").iter().enumerate() {
            assert_eq!(t, termination, "{mode} on {clock}: {details:?}");
            assert!(details[i].contains(says), "{mode} on {clock}: {details:?}");
        }
        // The rows say which clock each seat's agent ran on, and what it used of it: the
        // external agent's seat, not the built-in's.
        let (first, mine_first) = (text(&rows, "first_agent"), text(&rows, "first_clock"));
        let used = rows
            .column("first_clock_ms")
            .unwrap()
            .f64()
            .unwrap()
            .clone();
        let used_second = rows
            .column("second_clock_ms")
            .unwrap()
            .f64()
            .unwrap()
            .clone();
        for i in 0..rows.height() {
            let (clock_col, used_ms) = if first[i] == "mine" {
                (mine_first[i].clone(), used.get(i))
            } else {
                (text(&rows, "second_clock")[i].clone(), used_second.get(i))
            };
            assert_eq!(clock_col, clock, "game {i}");
            let used_ms = used_ms.expect("the external seat's clock time");
            if (mode, clock) == ("nap", "wall") {
                assert!(used_ms >= 1000.0, "waited on the wall clock: {used_ms}");
            }
            if (mode, clock) == ("nap", "cpu") {
                assert!(used_ms < 1000.0, "a nap costs no CPU: {used_ms}");
            }
        }
    }
}

#[test]
fn memory_above_the_start_leaves_out_what_the_agent_held_at_its_handshake() {
    // 300 MB taken before the handshake (an agent importing numpy and a table), then 300 MB
    // more at its second move. Measured above its start (COMP30024's referee), memory_mb = 200
    // allows the first and not the second; measured whole, the start alone is over it, so the
    // agent cannot even start.
    let command = "[\"python3\", \"tests/agents/misbehaving.py\", \"heavyhog\", \"2\"]";
    let dir = tempfile::tempdir().unwrap();
    let (o, out) = run(
        dir.path(),
        &match_file(
            "othello",
            "small6",
            2,
            command,
            "memory_mb = 200\nmemory_measure = \"above_start\"\ntime_ms = 3000",
        ),
        &["--threads", "1"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = rows_of(&out);
    let details = text(&rows, "fault_detail");
    for (i, t) in text(&rows, "termination").iter().enumerate() {
        assert_eq!(t, "memory", "{details:?}");
        assert!(
            details[i].contains("above its start") && details[i].contains("over memory_mb = 200"),
            "{details:?}"
        );
    }
    let heavy = "[\"python3\", \"tests/agents/misbehaving.py\", \"heavy\", \"2\"]";
    let dir = tempfile::tempdir().unwrap();
    let (o, out) = run(
        dir.path(),
        &match_file(
            "othello",
            "small6",
            2,
            heavy,
            "memory_mb = 200\nmemory_measure = \"above_start\"\ntime_ms = 3000",
        ),
        &["--threads", "1"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        text(&rows_of(&out), "termination")
            .iter()
            .all(|t| t == "normal")
    );
    let dir = tempfile::tempdir().unwrap();
    let (o, out) = run(
        dir.path(),
        &match_file(
            "othello",
            "small6",
            2,
            heavy,
            "memory_mb = 200\nmemory_measure = \"peak\"\ntime_ms = 3000",
        ),
        &["--threads", "1"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!out.exists());
    // A program that says where its line is (`info memory-line`, as the Freckers adapter says
    // where COMP30024's referee draws it, before the agent's imports) is measured from there.
    let dir = tempfile::tempdir().unwrap();
    let (o, out) = run(
        dir.path(),
        &match_file(
            "othello",
            "small6",
            2,
            "[\"python3\", \"tests/agents/misbehaving.py\", \"heavyline\", \"2\"]",
            "memory_mb = 200\nmemory_measure = \"above_start\"\ntime_ms = 3000",
        ),
        &["--threads", "1"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = rows_of(&out);
    assert!(
        text(&rows, "termination").iter().all(|t| t == "memory"),
        "{:?}",
        text(&rows, "fault_detail")
    );
}

#[test]
fn colosseums_course_rule_plays_a_random_move_for_a_fault_and_the_strict_rule_loses_the_game() {
    // COMP 424's simulator plays a random walk when `step` raises or returns an invalid move:
    // by default a Colosseum agent's fault costs the move, the game goes on (a process that
    // died or was killed starts again), the rows count and list each. `faults = "loss"` is the
    // strict rule.
    let dir = tempfile::tempdir().unwrap();
    let agents = dir.path().join("agents");
    std::fs::create_dir_all(&agents).unwrap();
    // A course agent that raises at its second step (as one that finds no child scoring above
    // 0), and otherwise stays put behind a free wall side; it counts its steps across the game.
    write(
        &agents,
        "student_agent.py",
        "from agents.agent import Agent\nfrom store import register_agent\n\n\
         @register_agent(\"student_agent\")\nclass StudentAgent(Agent):\n    \
         def __init__(self):\n        super().__init__()\n        self.steps = 0\n\n    \
         def step(self, chess_board, my_pos, adv_pos, max_step):\n        \
         self.steps += 1\n        \
         if self.steps == 2:\n            raise ValueError(\"no child scores above 0\")\n        \
         r, c = my_pos\n        \
         return my_pos, next(d for d in range(4) if not chess_board[r, c, d])\n",
    );
    let raiser = format!(
        "[\"python3\", \"adapters/colosseum/gamelab_colosseum.py\", \"{}\"]",
        agents.join("student_agent.py").display()
    );
    let misbehaving =
        |mode: &str| format!("[\"python3\", \"tests/agents/misbehaving.py\", \"{mode}\", \"2\"]");
    let cases = [
        (
            raiser.clone(),
            "crash",
            "the agent raised: ValueError: no child scores above 0",
        ),
        (misbehaving("illegal"), "illegal_move", "zz99"),
        (misbehaving("crash"), "crash", "exited"),
        (misbehaving("sleep"), "timeout", "no move within 300 ms"),
    ];
    for (command, kind, says) in &cases {
        let dir = tempfile::tempdir().unwrap();
        let (o, out) = run(
            dir.path(),
            &match_file("colosseum", "sizes-5-8", 4, command, "time_ms = 300"),
            &["--threads", "2"],
        );
        assert!(o.status.success(), "{kind}: {}", stderr(&o));
        let rows = rows_of(&out);
        let (first, details) = (text(&rows, "first_agent"), text(&rows, "fault_detail"));
        assert!(
            text(&rows, "termination").iter().all(|t| t == "normal"),
            "{kind}: {details:?}"
        );
        let firsts = rows
            .column("first_random_moves")
            .unwrap()
            .i64()
            .unwrap()
            .clone();
        let seconds = rows
            .column("second_random_moves")
            .unwrap()
            .i64()
            .unwrap()
            .clone();
        let mut games_with_one = 0;
        for i in 0..rows.height() {
            let (mine, theirs) = if first[i] == "mine" {
                (firsts.get(i), seconds.get(i))
            } else {
                (seconds.get(i), firsts.get(i))
            };
            assert_eq!(theirs, None, "the built-in agent has no fault rule");
            let mine = mine.expect("the external agent's count");
            if mine > 0 {
                games_with_one += 1;
                assert!(
                    details[i].contains(&format!("move 2: {kind} ("))
                        && details[i].contains(says)
                        && details[i].contains("played at random: ("),
                    "{kind}: {}",
                    details[i]
                );
            }
        }
        // A game may end before the agent's second move; most do not.
        assert!(games_with_one >= 2, "{kind}: {details:?}");
    }
    // The strict rule: the fault loses the game.
    let dir = tempfile::tempdir().unwrap();
    let (o, out) = run(
        dir.path(),
        &match_file("colosseum", "sizes-5-8", 4, &raiser, "faults = \"loss\""),
        &["--threads", "2"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = rows_of(&out);
    let terminations = text(&rows, "termination");
    assert!(
        terminations.iter().filter(|t| *t == "crash").count() >= 2,
        "{terminations:?} {:?}",
        text(&rows, "fault_detail")
    );
    assert!(
        rows.column("first_random_moves").unwrap().null_count() == rows.height(),
        "no random moves under the strict rule"
    );
}

#[test]
fn a_long_external_job_writes_its_rows_as_it_goes_and_a_kill_keeps_them() {
    // Games of about a second each (the agent thinks 0.8 s at its first move): a job's rows
    // reach its batches game by game, not at the job's end (they once came in chunks of 64
    // games, so a 9-minute job showed nothing and a kill kept nothing), and the resumed run's
    // rows are the uninterrupted run's.
    let file = match_file(
        "othello",
        "small6",
        6,
        "[\"python3\", \"tests/agents/misbehaving.py\", \"nap\", \"1\", \"0.8\"]",
        "time_ms = 3000",
    );
    let dir = tempfile::tempdir().unwrap();
    let exp = write(dir.path(), "ext.toml", &file);
    let (whole, killed) = (dir.path().join("whole"), dir.path().join("killed"));
    let run_into = |out: &Path| {
        vec![
            "run".to_string(),
            exp.display().to_string(),
            "--out".to_string(),
            out.display().to_string(),
            "--threads".to_string(),
            "1".to_string(),
        ]
    };
    let args = run_into(&killed);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // Killed (SIGKILL) once two batches are on disk, whatever the machine's load: the job is
    // still running then (its games would otherwise reach the disk only at its end).
    let partial = killed.join("results/ext/partial");
    let batches = || -> Vec<String> {
        std::fs::read_dir(&partial)
            .into_iter()
            .flatten()
            .flat_map(|job| std::fs::read_dir(job.unwrap().path()).into_iter().flatten())
            .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|f| f.starts_with("batch-"))
            .collect()
    };
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(&args)
        .env("GAMELAB_BATCH_ROWS", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while batches().len() < 2 && child.try_wait().unwrap().is_none() {
        assert!(t0.elapsed().as_secs() < 120, "no two batches within 120 s");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let running = child.try_wait().unwrap().is_none();
    child.kill().ok();
    child.wait().unwrap();
    let on_disk = batches();
    assert!(
        running,
        "the job ended before two of its games reached the disk: {on_disk:?}"
    );
    // Game by game (one row a batch here), not the job's 6 rows at once at its end.
    assert!(
        on_disk.len() >= 2 && on_disk.len() < 6,
        "games played before the kill are on disk one by one: {on_disk:?}"
    );
    let o = gamelab(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let args = run_into(&whole);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = gamelab(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_same(
        &parts(&whole, "ext", "games"),
        &parts(&killed, "ext", "games"),
        "killed and resumed",
    );
}
