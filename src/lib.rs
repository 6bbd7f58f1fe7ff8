//! gamelab: reproducible game-AI experiments.
//!
//! Data flows one way (DESIGN.md): an experiment file is parsed and validated (`experiment::spec`),
//! expanded into jobs (`experiment::grid`), played in parallel (`experiment::runner`) into rows
//! (`experiment::rows`), and the rows are turned into tables and figures (`report`). Games
//! (`game`) and agents (`agent`) know nothing of experiments; the report reads only rows.

pub mod agent;
pub mod arena;
pub mod cpu;
pub mod durable;
pub mod experiment;
pub mod farm;
pub mod game;
pub mod game_records;
pub mod input_error;
pub mod play;
pub mod pool;
pub mod provenance;
pub mod report;
pub mod rng;
pub mod slurm;
pub mod stats;
pub mod tune;
pub mod words;
pub mod workflow;
