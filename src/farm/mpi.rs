//! The MPI transport of the farm (cargo feature `mpi`; Open MPI through rsmpi).
//!
//! `gamelab run FILE --mpi` under `mpirun -n N`: rank 0 calls `root`, which installs the farm,
//! runs the whole run (spec, jobs, rows, checkpoints: everything a one-process run does) on a
//! second thread, and on its own thread (the one that initialized MPI, so MPI is only ever
//! called from it) hands queued units to workers and answers back to the units' callers.
//! Ranks 1..N-1 call `worker`: take a unit, compute it, send the answer, which is also the
//! request for another unit, until rank 0 says stop.
//!
//! Each worker holds two units at a time (the one it computes and the next), so it never waits
//! for a round trip through rank 0; answers come back in the order the units were sent. Both
//! sides wait by polling, spinning a little and then sleeping longer and longer (20 us to 1 ms),
//! rather than in a blocking receive: Open MPI's blocking calls spin without end, and a spinning
//! rank 0 or idle worker would take a core from the workers that compute.
//!
//! A worker that dies (killed, out of memory) takes the run down with it: Open MPI's default
//! error handling aborts every rank, so rank 0 stops where it is; what it had saved (sealed
//! batches of games and solves, GA checkpoints) stays, and running the same command again
//! resumes from there with the rows an uninterrupted run writes (tests/mpi.rs kills a worker
//! with SIGKILL to check this). A unit that fails (an error, not a death) is reported by its
//! worker and fails the run with that error, as it would in one process.

use super::{Farm, Reply, decode_frame, encode_frame, install};
use anyhow::{Context as _, Result};
use mpi::Rank;
use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use std::collections::{HashMap, HashSet, VecDeque};
use std::time::Duration;

const TAG_WORK: i32 = 1;
const TAG_STOP: i32 = 2;
const TAG_DONE: i32 = 3;
const TAG_FAILED: i32 = 4;

/// The shortest and longest sleep between two polls, after `SPINS` polls without sleeping.
const MIN_PAUSE: Duration = Duration::from_micros(20);
const MAX_PAUSE: Duration = Duration::from_millis(1);
const SPINS: u32 = 2000;
/// Units a worker holds at once: the one it computes and the next.
const IN_FLIGHT: usize = 2;

/// This process's place in an MPI run.
pub enum Role {
    Root,
    Worker,
}

/// Initializes MPI (once per process); the universe must live until the process is done with
/// MPI (MPI_Finalize runs when it is dropped).
pub fn init() -> Result<(mpi::environment::Universe, Role)> {
    let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled)
        .context("MPI was initialized twice")?;
    let role = if universe.world().rank() == 0 {
        Role::Root
    } else {
        Role::Worker
    };
    Ok((universe, role))
}

/// Rank 0: installs the farm, runs `run` on a second thread and serves the workers until it
/// returns and every unit sent is back; then tells the workers to stop.
pub fn root<T: Send>(
    world: &SimpleCommunicator,
    run: impl FnOnce() -> Result<T> + Send,
) -> Result<T> {
    let workers = world.size() as usize - 1;
    if workers == 0 {
        anyhow::bail!(
            "--mpi needs at least 2 ranks: rank 0 runs the experiment and the others compute (mpirun -n 3 gamelab run FILE --mpi)"
        );
    }
    let farm = install(workers);
    std::thread::scope(|s| {
        let runner = s.spawn(run);
        serve(world, farm, &|| runner.is_finished());
        for r in 1..=workers {
            world
                .process_at_rank(r as Rank)
                .send_with_tag(&[0u8; 0][..], TAG_STOP);
        }
        runner
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("the run panicked")))
    })
}

/// Hands units to workers and answers to their callers until `finished()` and no unit is out.
/// Each worker has up to `IN_FLIGHT` units: the one it computes and the next, already in its
/// queue when it finishes, so a worker never waits for a round trip through rank 0; it is sent
/// another unit as each answer comes back.
fn serve(world: &SimpleCommunicator, farm: &Farm, finished: &dyn Fn() -> bool) {
    let workers = farm.workers() as Rank;
    // Where each worker's answers go, in the order it was sent the units (it computes in order).
    let mut out: HashMap<Rank, VecDeque<std::sync::mpsc::Sender<Reply>>> =
        (1..=workers).map(|r| (r, VecDeque::new())).collect();
    // The contexts each worker holds.
    let mut holds: HashMap<Rank, HashSet<String>> = HashMap::new();
    let mut pause = MIN_PAUSE;
    let mut quiet = 0u32;
    loop {
        let mut busy = false;
        while let Some(probed) = world.any_process().immediate_matched_probe() {
            let (bytes, status) = probed.matched_receive_vec::<u8>();
            let rank = status.source_rank();
            let answer = match status.tag() {
                TAG_DONE => Ok(bytes),
                TAG_FAILED => Err(format!(
                    "MPI rank {rank}: {}",
                    String::from_utf8_lossy(&bytes)
                )),
                tag => Err(format!(
                    "MPI rank {rank} sent an unexpected message (tag {tag})"
                )),
            };
            if let Some(reply) = out.get_mut(&rank).and_then(VecDeque::pop_front) {
                // The caller may have stopped listening (a decided SPRT): nothing to do then.
                let _ = reply.send(answer);
            }
            busy = true;
        }
        // Fill every worker up to IN_FLIGHT, the least loaded first.
        for depth in 0..IN_FLIGHT {
            for rank in 1..=workers {
                let queue = out.get_mut(&rank).expect("every worker");
                if queue.len() > depth {
                    continue;
                }
                let Some(q) = farm.next() else { break };
                let send_context = holds
                    .entry(rank)
                    .or_default()
                    .insert(q.unit.context.key.clone());
                world
                    .process_at_rank(rank)
                    .send_with_tag(&encode_frame(&q.unit, send_context)[..], TAG_WORK);
                queue.push_back(q.reply);
                busy = true;
            }
        }
        if out.values().all(VecDeque::is_empty) && finished() {
            return;
        }
        if busy {
            pause = MIN_PAUSE;
            quiet = 0;
        } else {
            idle(&mut quiet, &mut pause);
        }
    }
}

/// Waits between two polls that found nothing: spins a while (an answer is often a few
/// microseconds away), then sleeps, longer each time, up to `MAX_PAUSE`.
fn idle(quiet: &mut u32, pause: &mut Duration) {
    *quiet += 1;
    if *quiet < SPINS {
        std::hint::spin_loop();
        return;
    }
    std::thread::sleep(*pause);
    *pause = (*pause * 2).min(MAX_PAUSE);
}

/// A worker rank: computes the units rank 0 sends with `compute(kind, key, context, payload)`
/// (the context is `Some` when this is the first unit of it that this worker gets) until told
/// to stop.
pub fn worker(
    world: &SimpleCommunicator,
    compute: &dyn Fn(&str, &str, Option<&[u8]>, &[u8]) -> Result<Vec<u8>>,
) -> Result<()> {
    let root = world.process_at_rank(0);
    let (mut pause, mut quiet) = (MIN_PAUSE, 0u32);
    loop {
        let Some(probed) = root.immediate_matched_probe() else {
            idle(&mut quiet, &mut pause);
            continue;
        };
        (pause, quiet) = (MIN_PAUSE, 0);
        let (bytes, status) = probed.matched_receive_vec::<u8>();
        match status.tag() {
            TAG_STOP => return Ok(()),
            TAG_WORK => {
                let answer =
                    decode_frame(&bytes).and_then(|f| compute(f.kind, f.key, f.context, f.payload));
                match answer {
                    Ok(result) => root.send_with_tag(&result[..], TAG_DONE),
                    Err(e) => root.send_with_tag(format!("{e:#}").as_bytes(), TAG_FAILED),
                }
            }
            tag => anyhow::bail!("rank 0 sent an unexpected message (tag {tag})"),
        }
    }
}
