//! gamelab's integration tests, one binary with a module per capability (as ripgrep's
//! tests/tests.rs): one link of the library instead of one per file. Each module runs the
//! `gamelab` binary or the library the way a user does; `common` holds what several share.
//! `cargo test --release --test tests MODULE::` runs one module (`make check-openspiel-othello`,
//! `make test-mpi` and `make fuzz-experiments` do); the `mpi` module is built with
//! `--features mpi` only.

mod common;

/// Malformed experiment files, unknown agents, illegal moves: one clear error, nothing written.
mod bad_input;
/// Other people's engines over UCI and GTP: Stockfish and GNU Go, and engines that misbehave.
mod engines;
/// Outside programs as agents: the protocol, the courses' adapters, their faults and limits.
mod external;
/// Kills, full disks, interrupted runs: resuming loses and duplicates nothing.
mod faults;
/// Generated experiment files in many thousands (`GENERATED_CASES`).
mod generated;
/// A job kind from outside gamelab: one file and one registration.
mod kinds;
/// Distributed runs over MPI: the rows of one process, a worker killed mid-run.
mod mpi;
/// Every shipped experiment file mutated: accepted, or refused naming the key.
mod mutated;
/// OpenSpiel's games and bots through the bridge.
mod openspiel;
/// The rows read by DuckDB, polars and pandas as docs/rows.md says: the current jobs' only.
mod outside_tools;
/// Runs end to end: determinism, reports, summaries, HTML, replays, records.
mod runs;
/// The sandbox of external agents, attacked by a hostile agent.
mod sandbox;
