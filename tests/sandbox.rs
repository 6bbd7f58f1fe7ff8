//! The sandbox external agents run in (src/agent/external/sandbox.rs), attacked by a hostile
//! agent (tests/agents/hostile.py): it tries to forge results, read its opponent's files, file
//! descriptors and gamelab's environment, reach the network and $HOME, signal every process it
//! sees, leave a process behind, and exhaust processes, memory and disk. Each is contained, the
//! run finishes, and the honest agents' rows are those of a run where the same agent does not
//! attack. A limit it hits is its own fault, named in `fault_detail`.

use crate::common::*;
use gamelab::experiment::rows::read_part;
use polars::prelude::DataFrame;
use std::path::{Path, PathBuf};

/// Whether a sandbox can be made on this machine (bubblewrap installed, namespaces allowed):
/// `make test` installs bubblewrap; with REQUIRE_SANDBOX set (CI) it is a failure when none can.
fn sandbox_or_skip() -> bool {
    match gamelab::agent::external::sandbox::available() {
        Ok(()) => true,
        Err(why) if std::env::var_os("REQUIRE_SANDBOX").is_some() => {
            panic!("REQUIRE_SANDBOX is set and no sandbox can be made: {why}")
        }
        Err(why) => {
            eprintln!("SKIPPED: no sandbox here: {why}");
            false
        }
    }
}

/// A tournament of the hostile agent (its attacks read from `attacks`), an honest external
/// agent (examples/agents/random_agent.py) and the built-in greedy, on Othello 6x6.
fn tournament(attacks: &Path, rounds: u32) -> String {
    format!(
        r#"name = "hostile"
kind = "tournament"
game = "othello"
stage = "small6"
seed = 5
[tournament]
participants = ["hostile", "honest", "greedy"]
rounds = {rounds}
[agents.hostile]
kind = "external"
command = ["python3", "tests/agents/hostile.py"]
env = {{ HOSTILE_ATTACKS = "{attacks}" }}
read = ["{attacks}"]
[agents.hostile.limits]
processes = 64
[agents.honest]
kind = "external"
command = ["python3", "examples/agents/random_agent.py", "7"]
[agents.greedy]
kind = "greedy"
"#,
        attacks = attacks.display()
    )
}

/// `gamelab run` of `file` into `out`, from the repository (the commands name its files), with
/// the extra environment `envs`.
fn run_in_repo(file: &Path, out: &Path, envs: &[(&str, &str)]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--threads",
            "2",
        ])
        .envs(envs.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

/// Every row of the experiment's parts under `out`.
fn all_rows(out: &Path, name: &str) -> DataFrame {
    let dir = out.join("results").join(name).join("games");
    let mut frames: Vec<DataFrame> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("part-")
        })
        .map(|p| read_part(&p).unwrap())
        .collect();
    let mut df = frames.remove(0);
    for f in frames {
        df.vstack_mut(&f).unwrap();
    }
    df
}

/// The honest games (neither side the hostile agent): each as its agents, result and moves,
/// sorted.
fn honest_games(df: &DataFrame) -> Vec<String> {
    let first = texts(df, "first_agent");
    let second = texts(df, "second_agent");
    let result = texts(df, "winner");
    let moves = texts(df, "transcript");
    let mut games: Vec<String> = (0..df.height())
        .filter(|&i| first[i] != "hostile" && second[i] != "hostile")
        .map(|i| format!("{} {} {} {}", first[i], second[i], result[i], moves[i]))
        .collect();
    games.sort();
    games
}

/// The lines `REACHED ...` the hostile agent wrote into its logs under `out`.
fn reached(out: &Path, name: &str) -> Vec<String> {
    let logs = out.join("results").join(name).join("logs");
    std::fs::read_dir(&logs)
        .map(|d| {
            d.flatten()
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .flat_map(|t| {
                    t.lines()
                        .filter(|l| l.starts_with("REACHED"))
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The logs of the experiment's agents under `out`, one text.
fn logs_text(out: &Path, name: &str) -> String {
    let logs = out.join("results").join(name).join("logs");
    std::fs::read_dir(&logs)
        .map(|d| {
            d.flatten()
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if let Ok(b) = std::fs::read(&p) {
                out.push((p, b));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_hostile_agent_reaches_nothing_outside_its_sandbox_and_the_honest_rows_stand() {
    if !sandbox_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let attacks = dir.path().join("attacks.json");
    let file = write(dir.path(), "hostile.toml", &tournament(&attacks, 2));
    let marker = format!("gamelab-hostile-setsid-{}", std::process::id());
    // The honest run: the hostile agent only plays.
    std::fs::write(&attacks, "{}").unwrap();
    let calm = dir.path().join("calm");
    let o = run_in_repo(&file, &calm, &[]);
    assert!(o.status.success(), "{}", stderr(&o));

    // The attacking run: listeners on the loopback, a secret in gamelab's environment, a file
    // in $HOME's place, and the paths of everything it must not touch.
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    tcp.set_nonblocking(true).unwrap();
    let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    udp.set_nonblocking(true).unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("secret.txt"), "the user's own file").unwrap();
    let attacked = dir.path().join("attacked");
    let results = attacked.join("results");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = serde_json::json!({
        "attacks": ["write", "read", "procfds", "env", "net", "kill", "setsid", "forkbomb"],
        "paths_to_write": [results, attacked, home, repo.join("examples/agents"), dir.path()],
        "paths_to_read": [
            repo.join("examples/agents/random_agent.py"),
            file,
            results.join("hostile/logs"),
            home.join("secret.txt"),
            repo.join("Cargo.toml"),
        ],
        "tcp_port": tcp.local_addr().unwrap().port(),
        "udp_port": udp.local_addr().unwrap().port(),
        "secret": "GAMELAB_TEST_SECRET",
        "marker": marker,
    });
    std::fs::write(&attacks, config.to_string()).unwrap();
    let before_home = snapshot(&home);
    let before_repo = snapshot(&repo.join("examples/agents"));
    let o = run_in_repo(
        &file,
        &attacked,
        &[
            ("GAMELAB_TEST_SECRET", "hunter2"),
            ("HOME", home.to_str().unwrap()),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(reached(&attacked, "hostile"), Vec::<String>::new());
    // It did attack (its last attack, the fork bomb, says how far it got: to its limit of 64).
    let said = logs_text(&attacked, "hostile");
    assert!(said.contains("forked "), "the attacks did not run: {said}");
    assert!(!said.contains("forked 0\n"), "{said}");
    assert!(tcp.accept().is_err(), "a TCP connection arrived");
    let mut buf = [0u8; 64];
    assert!(udp.recv_from(&mut buf).is_err(), "a UDP datagram arrived");
    assert_eq!(snapshot(&home), before_home, "$HOME changed");
    assert_eq!(
        snapshot(&repo.join("examples/agents")),
        before_repo,
        "the opponent's folder changed"
    );
    assert!(
        snapshot(&attacked)
            .iter()
            .all(|(p, b)| !p.ends_with("FORGED-by-hostile") && !b.ends_with(b"forged\n")),
        "a results file was written by the agent"
    );
    // Nothing it started is left, and the honest games are the calm run's, every one.
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(processes_left(&marker), Vec::<String>::new());
    let (calm_rows, attacked_rows) = (all_rows(&calm, "hostile"), all_rows(&attacked, "hostile"));
    assert_eq!(calm_rows.height(), attacked_rows.height());
    let honest = honest_games(&attacked_rows);
    assert!(!honest.is_empty());
    assert_eq!(honest, honest_games(&calm_rows));
    // No game is laid at the honest agents' door.
    let term = texts(&attacked_rows, "termination");
    let winner = texts(&attacked_rows, "winner");
    let (first, second) = (
        texts(&attacked_rows, "first_agent"),
        texts(&attacked_rows, "second_agent"),
    );
    for i in 0..attacked_rows.height() {
        let loser = if winner[i] == "first" {
            &second[i]
        } else {
            &first[i]
        };
        assert!(
            term[i] == "normal" || loser == "hostile",
            "game {i}: {} lost by {loser}",
            term[i],
        );
    }
    // The report reads the rows as sealed.
    let r = gamelab(&[
        "report",
        file.to_str().unwrap(),
        "--out",
        attacked.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
}

/// Processes whose command line holds `marker`.
fn processes_left(marker: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(marker))
        .collect()
}

/// A match of the hostile agent with `attacks` and `limits` against random: its rows' faults.
fn limited_match(attacks: &[&str], limits: &str, games: u32) -> (Vec<String>, Vec<String>) {
    hostile_match(
        attacks,
        &format!("[agents.hostile.limits]\n{limits}"),
        games,
    )
}

/// A match of the hostile agent with `attacks` (and `section`'s lines after its own) against
/// random: its rows' terminations and fault details.
fn hostile_match(attacks: &[&str], section: &str, games: u32) -> (Vec<String>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let attack_file = dir.path().join("attacks.json");
    std::fs::write(
        &attack_file,
        serde_json::json!({ "attacks": attacks }).to_string(),
    )
    .unwrap();
    let text = format!(
        r#"name = "limited"
kind = "match"
game = "othello"
stage = "small6"
seed = 3
[match]
players = ["hostile", "random"]
games = {games}
[agents.hostile]
kind = "external"
command = ["python3", "tests/agents/hostile.py"]
env = {{ HOSTILE_ATTACKS = "{a}" }}
{read}time_ms = 20000
{section}
[agents.random]
kind = "random"
"#,
        a = attack_file.display(),
        // Outside a sandbox everything is readable (and `read` is the sandbox's key).
        read = if section.contains("sandbox = \"none\"") {
            String::new()
        } else {
            format!("read = [\"{}\"]\n", attack_file.display())
        }
    );
    let file = write(dir.path(), "limited.toml", &text);
    let out = dir.path().join("out");
    let o = run_in_repo(&file, &out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = all_rows(&out, "limited");
    let mut detail = texts(&rows, "fault_detail");
    // The agent's own words (its log) after the details: what it got done.
    detail.push(logs_text(&out, "limited"));
    (texts(&rows, "termination"), detail)
}

#[test]
fn a_keeper_stopped_by_its_unsandboxed_agent_is_killed_after_its_grace_and_the_run_ends() {
    // Outside a sandbox an agent can stop its own keeper (SIGSTOP): gamelab, ending the game,
    // asks the keeper, waits its grace (2 s), then kills it; the program dies with it.
    let t0 = std::time::Instant::now();
    let (term, detail) = hostile_match(&["stopkeeper"], "sandbox = \"none\"", 2);
    assert_eq!(term, vec!["normal", "normal"], "{detail:?}");
    assert!(
        t0.elapsed().as_secs() < 60,
        "the run waited on a stopped keeper"
    );
}

#[test]
fn a_memory_bomb_is_stopped_by_the_address_space_limit_and_named() {
    if !sandbox_or_skip() {
        return;
    }
    let (term, detail) = limited_match(&["memory"], "address_space_mb = 400", 2);
    for (t, d) in term.iter().zip(&detail) {
        assert_eq!(t, "crash", "{d}");
        assert!(d.contains("address-space limit, 400 MB"), "{d}");
    }
}

#[test]
fn a_disk_filler_fills_only_its_own_tmp_and_stops_at_the_file_size_limit() {
    if !sandbox_or_skip() {
        return;
    }
    let (term, detail) = limited_match(&["disk"], "tmp_mb = 8\nfile_mb = 4", 2);
    for (t, d) in term.iter().zip(&detail) {
        assert_eq!(t, "crash", "{d}");
        assert!(d.contains("file size limit, 4 MB"), "{d}");
    }
}

#[test]
fn a_fork_bomb_meets_the_process_limit_and_the_game_goes_on() {
    if !sandbox_or_skip() {
        return;
    }
    let (term, detail) = limited_match(&["forkbomb"], "processes = 32", 2);
    // The bomb's forks fail at the limit; the agent then plays on: its games end normally.
    assert_eq!(term, vec!["normal", "normal"], "{detail:?}");
    let log = detail.last().unwrap();
    let forked: Vec<u64> = log
        .lines()
        .filter_map(|l| l.strip_prefix("forked ")?.trim().parse().ok())
        .collect();
    assert_eq!(forked.len(), 2, "{log}");
    assert!(forked.iter().all(|&n| n > 0 && n < 32), "{forked:?}");
}

#[test]
fn without_a_sandbox_the_run_stops_before_any_game_unless_the_section_says_none() {
    // A PATH without bwrap: the run stops with one line naming what to install.
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    // Python itself, not a version manager's shim (which would need more of PATH).
    let python = gamelab::agent::external::sandbox::resolve_program("python3", dir.path());
    std::os::unix::fs::symlink(python, bin.join("python3")).unwrap();
    let text = "name = \"nobwrap\"\nkind = \"match\"\ngame = \"othello\"\nstage = \"small6\"\n[match]\nplayers = [\"mine\", \"random\"]\ngames = 2\n[agents.mine]\nkind = \"external\"\ncommand = [\"python3\", \"examples/agents/random_agent.py\"]\n[agents.random]\nkind = \"random\"\n";
    let file = write(dir.path(), "nobwrap.toml", text);
    let out = dir.path().join("out");
    let o = run_in_repo(&file, &out, &[("PATH", bin.to_str().unwrap())]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("agents.mine")
            && err.contains("bubblewrap")
            && err.contains("sandbox = \"none\""),
        "{err}"
    );
    assert!(!out.join("results/nobwrap/games").exists());
    // With sandbox = "none" it plays, and the report says the agent ran unsandboxed.
    let text = text.replace("[agents.random]", "sandbox = \"none\"\n[agents.random]");
    let file = write(dir.path(), "nobwrap.toml", &text);
    let o = run_in_repo(&file, &out, &[("PATH", bin.to_str().unwrap())]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = gamelab(&[
        "report",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "md",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let md = std::fs::read_to_string(out.join("results/nobwrap/report/report.md")).unwrap();
    assert!(md.contains("without a sandbox"), "{md}");
}
