//! Thread pools: `with_threads` runs work on a pool of a chosen size, or on rayon's global pool.
//! Shared by the runner and the engines' batch jobs (problem generation); knows neither.

use anyhow::{Context, Result};

/// Runs `work` on a pool of `threads` worker threads, or on rayon's global pool (one per core).
pub fn with_threads<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> Result<T> + Send,
) -> Result<T> {
    match threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .context("starting the thread pool")?
            .install(work),
        None => work(),
    }
}
