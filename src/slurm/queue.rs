//! What Slurm's queue says of a job, for a process that waits on another one. A `--shard` part
//! of a race waits for its partner shards' rows before each round (`experiment::race`); on a
//! cluster a partner may be queued for hours, running on another node, or gone (finished,
//! failed, cancelled, cut off at its time limit), and only the queue can tell those apart.
//! Asked with `squeue`, at most once per `GAMELAB_QUEUE_POLL_MS` (10 s) a job, so that many
//! waiting tasks do not load the controller; where there is no Slurm, or its controller does not
//! answer, nothing is known and the caller goes on waiting.

use std::collections::HashMap;
use std::process::Command;
use std::time::{Duration, Instant};

/// The states of a job that has left the queue for good (squeue's long names). Every other
/// state (pending, running, completing, configuring, suspended, requeued, ...) is a job that may
/// still write.
const ENDED: [&str; 10] = [
    "BOOT_FAIL",
    "CANCELLED",
    "COMPLETED",
    "DEADLINE",
    "FAILED",
    "NODE_FAIL",
    "OUT_OF_MEMORY",
    "PREEMPTED",
    "REVOKED",
    "TIMEOUT",
];

/// Whether the Slurm job `id` (a job id, or ARRAY_TASK for a task of a job array) has ended:
/// Some(false) while the queue holds it (pending, running, completing, ...), Some(true) once it
/// ended in any way or the controller no longer knows it, None when the queue cannot be asked
/// (no squeue, or no answer from the controller).
pub fn job_ended(id: &str) -> Option<bool> {
    let out = Command::new("squeue")
        .args([
            "--noheader",
            "--states=all",
            &format!("--jobs={id}"),
            "--format=%T",
        ])
        .output()
        .ok()?;
    if !out.status.success() {
        // A job purged from the controller's memory (MinJobAge after it ended) is "invalid".
        let said = String::from_utf8_lossy(&out.stderr);
        return said.contains("Invalid job id").then_some(true);
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let states: Vec<String> = text.split_whitespace().map(str::to_uppercase).collect();
    Some(states.iter().all(|s| ENDED.contains(&s.as_str())))
}

/// The Slurm job running shard `index` of `count` when this process is shard `me` in the job
/// array `gamelab slurm --shards count` writes (`run.sbatch`: task I runs shard I of N), as
/// ARRAY_TASK; None outside such an array (a task submitted alone, a local run).
pub fn array_task_of_shard(me: u64, index: u64, count: u64) -> Option<String> {
    let var = |k: &str| std::env::var(k).ok().map(|v| v.trim().to_string());
    let array = var("SLURM_ARRAY_JOB_ID").filter(|a| !a.is_empty())?;
    let task: u64 = var("SLURM_ARRAY_TASK_ID")?.parse().ok()?;
    let tasks: u64 = var("SLURM_ARRAY_TASK_COUNT")?.parse().ok()?;
    (task == me && tasks == count).then(|| format!("{array}_{index}"))
}

/// `job_ended`, asked again for a job only once its last answer is `GAMELAB_QUEUE_POLL_MS` old.
#[derive(Debug)]
pub struct QueuePoller {
    every: Duration,
    answers: HashMap<String, (Instant, Option<bool>)>,
}

impl Default for QueuePoller {
    fn default() -> QueuePoller {
        let ms = std::env::var("GAMELAB_QUEUE_POLL_MS")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(10_000);
        QueuePoller {
            every: Duration::from_millis(ms),
            answers: HashMap::new(),
        }
    }
}

impl QueuePoller {
    /// `job_ended(id)`, or its last answer while that is recent.
    pub fn job_ended(&mut self, id: &str) -> Option<bool> {
        if let Some((at, answer)) = self.answers.get(id)
            && at.elapsed() < self.every
        {
            return *answer;
        }
        let answer = job_ended(id);
        self.answers
            .insert(id.to_string(), (Instant::now(), answer));
        answer
    }
}
