//! Thread pools: `with_threads` runs work on a pool of a chosen size, or on rayon's global pool;
//! `outside_workers` runs a step off the pool's worker threads (the writers of rows).
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

/// Runs `f` and returns its result; called on a worker thread of a rayon pool, on a thread of
/// its own that the worker waits for. Polars reads and writes on a pool of its own, and a rayon
/// worker that waits for another pool runs queued tasks of its own pool meanwhile (rayon's
/// cross-pool wait): a job writing its finished part could run the next job nested inside that
/// write, and the part reached the disk only when the nested job ended (measured: with
/// `--threads 1`, three GoTools GA jobs that ended 2 minutes apart wrote their parts in the same
/// second, after the last, and a kill before that lost all three). A plain thread's wait runs
/// nothing else.
pub fn outside_workers<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    if rayon::current_thread_index().is_none() {
        return f();
    }
    std::thread::scope(|scope| {
        scope
            .spawn(f)
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Test harness: on a pool of one worker, runs two tasks, `first` and a second one that only
/// notes that it started; returns whether the second had started when `first` returned (a
/// wait inside `first` that ran the other task).
#[cfg(test)]
pub(crate) fn second_task_ran_inside(first: impl Fn() + Sync) -> bool {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    let second_started = AtomicBool::new(false);
    with_threads(Some(1), || {
        Ok((0..2)
            .into_par_iter()
            .map(|task| {
                if task == 1 {
                    second_started.store(true, Ordering::SeqCst);
                    return false;
                }
                first();
                second_started.load(Ordering::SeqCst)
            })
            .collect::<Vec<bool>>()[0])
    })
    .expect("a pool of one thread")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A task that waits for another pool (as polars' readers and writers do) inside
    /// `outside_workers` runs no other task of its own pool meanwhile; without it, it does.
    #[test]
    fn a_wait_for_another_pool_inside_outside_workers_runs_no_other_task() {
        let other = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        assert!(!second_task_ran_inside(|| outside_workers(
            || other.install(|| ())
        )));
        assert!(second_task_ran_inside(|| other.install(|| ())));
    }
}
