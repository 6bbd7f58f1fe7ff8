//! Commands made of several steps of the pipeline, one file each: `tune` (the Othello report's
//! evolve-draw-check loop), `problems` (`gamelab gen-problems`), `gotools` (GoTools' own files
//! read and compared, `gamelab check-gotools`).

pub mod gotools;
pub mod problems;
pub mod tune;

pub use gotools::{GoToolsQuestion, compare_gotools, read_gotools, sample_per_level};
pub use problems::gen_problems;
pub use tune::{CheckSettings, Tuned, tune};
