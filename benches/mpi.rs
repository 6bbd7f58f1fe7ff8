//! Distributed runs on this machine: the GA fitness evaluation of a small Othello GA (the
//! GoTools report's master/worker shape: a generation's evaluation games go out as units) in
//! one process and on 2 and 3 MPI ranks, and the farm's cost per unit (`gamelab mpi-check`).
//!
//! `cargo bench --features mpi --bench mpi` (or `make bench-mpi`). Whole runs are timed (wall
//! clock, best of 3), not criterion samples: a run is mpirun starting N processes. Rank 0 only
//! hands out units and writes rows, so on a 2-core machine 3 ranks (2 workers) can at best
//! match one process with 2 threads; what this shows is the cost of distributing, not a
//! cluster's speed-up.

use std::process::Command;
use std::time::Instant;

const GA: &str = r#"
name = "bench-ga"
kind = "ga"
game = "othello"
stage = "small6"
seed = 6
[ga]
population = 20
generations = 6
subset = "full"
strategy = "mcts"
mcts_rollouts = 30
symmetry = "rotation"
"#;

/// The best of 3 wall times of the command `make(out)` makes for a fresh output folder.
fn time(what: &str, make: &dyn Fn(&str) -> Command) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let t0 = Instant::now();
        let o = make(dir.path().to_str().unwrap()).output().unwrap();
        assert!(
            o.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        best = best.min(t0.elapsed().as_secs_f64());
    }
    best
}

fn main() {
    let bin = env!("CARGO_BIN_EXE_gamelab");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ga.toml");
    std::fs::write(&file, GA).unwrap();
    let f = file.to_str().unwrap();
    let mpirun = |ranks: &'static str| {
        move |out: &str| {
            let mut c = Command::new("mpirun");
            c.args([
                "--allow-run-as-root",
                "--oversubscribe",
                "-n",
                ranks,
                bin,
                "run",
                f,
                "--mpi",
                "--threads",
                "1",
                "--out",
                out,
            ]);
            c
        }
    };
    let one = |threads: &'static str| {
        move |out: &str| {
            let mut c = Command::new(bin);
            c.args(["run", f, "--threads", threads, "--out", out]);
            c
        }
    };
    println!(
        "GA fitness evaluation: small6, population 20, full round robin, MCTS-30 games, 6 generations (2280 games), best of 3 runs"
    );
    let base = time("1 process, 1 thread", &one("1"));
    println!("  1 process, 1 thread:              {base:6.2} s  (ratio 1.00)");
    let two_threads = time("1 process, 2 threads", &one("2"));
    println!(
        "  1 process, 2 threads:             {two_threads:6.2} s  (ratio {:.2})",
        base / two_threads
    );
    for ranks in ["2", "3"] {
        let t = time(&format!("{ranks} ranks"), &mpirun(ranks));
        println!(
            "  {ranks} MPI ranks ({} worker(s), 1 thread each): {t:6.2} s  (ratio {:.2})",
            ranks.parse::<u32>().unwrap() - 1,
            base / t
        );
    }
    for ranks in ["2", "3"] {
        let o = Command::new("mpirun")
            .args([
                "--allow-run-as-root",
                "--oversubscribe",
                "-n",
                ranks,
                bin,
                "mpi-check",
                "--units",
                "20000",
            ])
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "mpi-check: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        print!(
            "  mpi-check, {ranks} ranks: {}",
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .nth(1)
                .unwrap_or("")
                .to_string()
                + "\n"
        );
    }
}
