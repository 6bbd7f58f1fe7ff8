//! Where units of work run: on this process's thread pool, or on the workers of an MPI run.
//!
//! Job kinds cut their work into *units* that can be computed from a description alone: games
//! i..j of a job, evaluation games i..j of a GA generation, problems i..j of a solve job, a few
//! chromosomes of a life-and-death GA. Without a farm (every run but `gamelab run --mpi`), a
//! kind computes its units here, on rayon, as it always did. Under `--mpi` (cargo feature
//! `mpi`), rank 0 installs a `Farm` before it runs the jobs: a kind then hands its units to
//! `Farm::map`, the ranks 1..N-1 take them one at a time as they become free (dynamic load
//! balancing: a worker asks for the next unit by returning the last), and the results come
//! back in submission order. A unit is computed from its description and the seed it carries,
//! never from where or when it ran, so the rows are those of a one-process run.
//!
//! A unit belongs to a *context*, the part of its description that many units share (the job,
//! a GA generation's population), encoded once: a worker receives a context with the first
//! unit of it that it gets, and keeps it for the next ones.
//!
//! This module moves bytes and knows no job kinds; `experiment::remote` says what the units
//! are and computes them on a worker; `farm::mpi` (feature `mpi`) is the transport.

#[cfg(feature = "mpi")]
pub mod mpi;

use anyhow::Result;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, OnceLock};

/// What many units share, encoded once (`key` names it: no two different contexts of one run
/// share a key).
#[derive(Debug)]
pub struct Context {
    pub key: String,
    pub bytes: Vec<u8>,
}

/// One unit of work: its kind (which `experiment::remote` function computes it), its context
/// and its own description.
pub struct Unit {
    pub kind: &'static str,
    pub context: Arc<Context>,
    pub payload: Vec<u8>,
}

/// A worker's answer: the encoded result, or why the unit failed.
pub type Reply = Result<Vec<u8>, String>;

/// A unit waiting for a worker, with where its answer goes.
pub struct Queued {
    pub unit: Unit,
    pub reply: Sender<Reply>,
    cancelled: Arc<AtomicBool>,
}

/// The queue of units of a distributed run (rank 0). The transport takes units from it
/// (`next`) and sends each answer down its unit's `reply`.
pub struct Farm {
    queue: Mutex<VecDeque<Queued>>,
    workers: usize,
}

static FARM: OnceLock<Farm> = OnceLock::new();

/// The farm of this process, when it is rank 0 of a distributed run.
pub fn farm() -> Option<&'static Farm> {
    FARM.get()
}

/// Installs the farm of a distributed run with `workers` workers (once per process).
pub fn install(workers: usize) -> &'static Farm {
    FARM.get_or_init(|| Farm {
        queue: Mutex::new(VecDeque::new()),
        workers,
    })
}

impl Farm {
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Queues `units` and returns their answers in the same order, each as soon as it and
    /// every one before it are back. Dropping the iterator early cancels the units not yet
    /// sent (an SPRT that decided); units already sent finish and their answers are dropped.
    pub fn map(&self, units: Vec<Unit>) -> Ordered {
        let cancelled = Arc::new(AtomicBool::new(false));
        let mut replies = VecDeque::with_capacity(units.len());
        let mut queue = self.queue.lock().expect("the farm's queue");
        for unit in units {
            let (tx, rx) = channel();
            queue.push_back(Queued {
                unit,
                reply: tx,
                cancelled: cancelled.clone(),
            });
            replies.push_back(rx);
        }
        Ordered { replies, cancelled }
    }

    /// The next unit to send, skipping cancelled ones.
    pub fn next(&self) -> Option<Queued> {
        let mut queue = self.queue.lock().expect("the farm's queue");
        while let Some(q) = queue.pop_front() {
            if !q.cancelled.load(Ordering::Relaxed) {
                return Some(q);
            }
        }
        None
    }
}

/// The answers of a `Farm::map`, in submission order.
pub struct Ordered {
    replies: VecDeque<Receiver<Reply>>,
    cancelled: Arc<AtomicBool>,
}

impl Iterator for Ordered {
    type Item = Result<Vec<u8>>;
    fn next(&mut self) -> Option<Result<Vec<u8>>> {
        let rx = self.replies.pop_front()?;
        Some(match rx.recv() {
            Ok(Ok(bytes)) => Ok(bytes),
            Ok(Err(why)) => Err(anyhow::anyhow!("{why}")),
            Err(_) => Err(anyhow::anyhow!(
                "the distributed run stopped before this unit was computed"
            )),
        })
    }
}

impl Drop for Ordered {
    fn drop(&mut self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }
}

/// Splits `span` into ranges of about `span.len() / (workers x per_worker)` items (at least
/// `min`, a multiple of `align`), so that each worker gets several units and a slow one does not
/// hold up the rest.
pub fn ranges(
    span: std::ops::Range<usize>,
    workers: usize,
    per_worker: usize,
    min: usize,
    align: usize,
) -> Vec<std::ops::Range<usize>> {
    let size = span
        .len()
        .div_ceil((workers * per_worker).max(1))
        .max(min)
        .max(1)
        .next_multiple_of(align.max(1));
    span.clone()
        .step_by(size)
        .map(|s| s..(s + size).min(span.end))
        .collect()
}

/// A unit's frame on the wire: kind, context key, the context's bytes when the worker does not
/// have it yet, and the payload. Lengths are little-endian; the transport adds nothing else.
pub fn encode_frame(unit: &Unit, with_context: bool) -> Vec<u8> {
    let ctx: &[u8] = if with_context {
        &unit.context.bytes
    } else {
        &[]
    };
    let mut out = Vec::with_capacity(
        16 + unit.kind.len() + unit.context.key.len() + ctx.len() + unit.payload.len(),
    );
    for part in [unit.kind.as_bytes(), unit.context.key.as_bytes(), ctx] {
        out.extend_from_slice(&(part.len() as u64).to_le_bytes());
        out.extend_from_slice(part);
    }
    out.push(with_context as u8);
    out.extend_from_slice(&unit.payload);
    out
}

/// A frame read back: (kind, context key, context bytes if sent, payload).
pub struct Frame<'a> {
    pub kind: &'a str,
    pub key: &'a str,
    pub context: Option<&'a [u8]>,
    pub payload: &'a [u8],
}

pub fn decode_frame(bytes: &[u8]) -> Result<Frame<'_>> {
    let mut at = 0usize;
    let mut part = || -> Result<&[u8]> {
        let len = bytes
            .get(at..at + 8)
            .ok_or_else(|| anyhow::anyhow!("a unit's frame is cut short"))?;
        let len = u64::from_le_bytes(len.try_into().expect("8 bytes")) as usize;
        let body = bytes
            .get(at + 8..at + 8 + len)
            .ok_or_else(|| anyhow::anyhow!("a unit's frame is cut short"))?;
        at += 8 + len;
        Ok(body)
    };
    let kind = std::str::from_utf8(part()?)?;
    let key = std::str::from_utf8(part()?)?;
    let ctx = part()?;
    let with = *bytes
        .get(at)
        .ok_or_else(|| anyhow::anyhow!("a unit's frame is cut short"))?
        == 1;
    Ok(Frame {
        kind,
        key,
        context: with.then_some(ctx),
        payload: &bytes[at + 1..],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(key: &str, payload: &[u8]) -> Unit {
        Unit {
            kind: "games",
            context: Arc::new(Context {
                key: key.into(),
                bytes: b"{\"job\":1}".to_vec(),
            }),
            payload: payload.to_vec(),
        }
    }

    #[test]
    fn frames_round_trip_with_and_without_their_context() {
        let u = unit("abc/0", b"[0,8]");
        let with = encode_frame(&u, true);
        let f = decode_frame(&with).unwrap();
        assert_eq!(
            (f.kind, f.key, f.context, f.payload),
            ("games", "abc/0", Some(&b"{\"job\":1}"[..]), &b"[0,8]"[..])
        );
        let without = encode_frame(&u, false);
        let f = decode_frame(&without).unwrap();
        assert_eq!((f.context, f.payload), (None, &b"[0,8]"[..]));
        assert!(decode_frame(&with[..5]).is_err());
    }

    #[test]
    fn ranges_cover_every_item_once_in_order() {
        for (n, w) in [(0, 2), (1, 2), (10, 2), (1000, 2), (7, 5), (64, 1)] {
            let r = ranges(0..n, w, 4, 2, 1);
            let flat: Vec<usize> = r.iter().flat_map(|r| r.clone()).collect();
            assert_eq!(flat, (0..n).collect::<Vec<_>>());
            if n >= 16 * w {
                assert!(
                    r.len() >= w * 4 - 1,
                    "{n} items over {w} workers: {} units",
                    r.len()
                );
            }
        }
        // From a resumed point, in whole pairs: every unit starts at an even game.
        let r = ranges(6..101, 2, 8, 2, 2);
        assert_eq!(r.first().unwrap().start, 6);
        assert_eq!(r.last().unwrap().end, 101);
        assert!(r.iter().all(|u| u.start % 2 == 0));
    }

    #[test]
    fn answers_come_back_in_submission_order_and_dropping_cancels_the_rest() {
        let farm = Farm {
            queue: Mutex::new(VecDeque::new()),
            workers: 2,
        };
        let mut answers = farm.map((0..4u8).map(|i| unit("k", &[i])).collect());
        // A "worker" answers the units out of order.
        let mut taken: Vec<Queued> = (0..3).map(|_| farm.next().unwrap()).collect();
        taken.reverse();
        for q in &taken {
            q.reply.send(Ok(q.unit.payload.clone())).unwrap();
        }
        assert_eq!(answers.next().unwrap().unwrap(), vec![0]);
        assert_eq!(answers.next().unwrap().unwrap(), vec![1]);
        assert_eq!(answers.next().unwrap().unwrap(), vec![2]);
        drop(answers);
        assert!(farm.next().is_none(), "the unit not yet sent is cancelled");
        // A failed unit's reason reaches the caller.
        let mut answers = farm.map(vec![unit("k", &[9])]);
        farm.next()
            .unwrap()
            .reply
            .send(Err("worker 2: game 9: boom".into()))
            .unwrap();
        assert_eq!(
            answers.next().unwrap().unwrap_err().to_string(),
            "worker 2: game 9: boom"
        );
    }
}
