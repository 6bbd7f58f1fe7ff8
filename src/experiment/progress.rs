//! What a run says while it runs, for a reader who is not watching a terminal (nohup, Slurm,
//! CI logs) as much as for one who is: a line when each job finishes (its swept values, its
//! units, its time, the agents' scores in a game job, what stopped it early), and off a
//! terminal, where the progress bar is not drawn, a progress line at least every 30 s
//! (`GAMELAB_PROGRESS_MS`): units done of all, jobs done, the ETA, the running score of each
//! job being played.
//!
//! Kinds feed it through their `JobContext::tally`: game jobs count each game's points by agent
//! (`JobTally::games`) and say why a match stopped early (`JobTally::note`: an SPRT's decision);
//! other kinds need not say anything. The runner owns the lines (`Progress`).

use crate::play::GameRow;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What a running job has said of itself: the points of each agent over the games this run
/// played, and notes for its finished line.
#[derive(Default)]
pub struct JobTally {
    /// Points (a win 1, a draw 1/2) and games, by agent label.
    scores: Mutex<BTreeMap<String, (f64, u64)>>,
    notes: Mutex<Vec<String>>,
}

impl JobTally {
    /// Counts finished games: each one's points to its two agents (once per chunk of games the
    /// job hands its stream, so the lock is taken once per chunk and a label is copied only the
    /// first time it is seen).
    pub fn games(&self, rows: &[GameRow]) {
        let mut scores = self.scores.lock().expect("the job's scores");
        for r in rows {
            for (label, first) in [(&r.first_agent, true), (&r.second_agent, false)] {
                let points = crate::play::seat_result(r.winner, first);
                match scores.get_mut(label.as_str()) {
                    Some(s) => *s = (s.0 + points, s.1 + 1),
                    None => {
                        scores.insert(label.clone(), (points, 1));
                    }
                }
            }
        }
    }

    /// Adds a sentence to the job's finished line (why it stopped, what it decided).
    pub fn note(&self, text: impl Into<String>) {
        self.notes
            .lock()
            .expect("the job's notes")
            .push(text.into());
    }

    /// The notes said so far.
    pub fn notes(&self) -> Vec<String> {
        self.notes.lock().expect("the job's notes").clone()
    }

    /// "mcts 61.5/100, greedy 38.5/100": each agent's points of its games, best first; None
    /// before the first game.
    pub fn score(&self) -> Option<String> {
        let scores = self.scores.lock().expect("the job's scores");
        if scores.is_empty() {
            return None;
        }
        let mut by: Vec<(&String, &(f64, u64))> = scores.iter().collect();
        by.sort_by(|a, b| {
            let share = |s: &(f64, u64)| s.0 / s.1.max(1) as f64;
            share(b.1).total_cmp(&share(a.1)).then(a.0.cmp(b.0))
        });
        Some(
            by.iter()
                .map(|(label, (points, games))| format!("{label} {points}/{games}"))
                .collect::<Vec<_>>()
                .join(", "),
        )
    }
}

/// How often the progress line is printed off a terminal.
fn interval() -> Duration {
    Duration::from_millis(
        std::env::var("GAMELAB_PROGRESS_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(30_000),
    )
}

/// "4 min 10 s", "35 s", "2.5 s", "2 h 05 min".
pub fn duration_text(seconds: f64) -> String {
    if seconds < 9.95 {
        return format!("{:.1} s", seconds.max(0.0));
    }
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}

/// The run's progress as the runner counts it: steps done and their weight (the ETA's measure,
/// `KindRunner::step_weight`), jobs done, the jobs being played with their tallies.
pub struct Progress {
    started: Instant,
    unit: &'static str,
    total_steps: usize,
    total_weight: u64,
    jobs: usize,
    pub steps_done: AtomicU64,
    weight_done: AtomicU64,
    jobs_done: AtomicU64,
    /// Running jobs: (hash, tally).
    running: Mutex<Vec<(String, std::sync::Arc<JobTally>)>>,
}

impl Progress {
    pub fn new(unit: &'static str, total_steps: usize, total_weight: u64, jobs: usize) -> Progress {
        Progress {
            started: Instant::now(),
            unit,
            total_steps,
            total_weight,
            jobs,
            steps_done: AtomicU64::new(0),
            weight_done: AtomicU64::new(0),
            jobs_done: AtomicU64::new(0),
            running: Mutex::new(Vec::new()),
        }
    }

    /// `n` steps of weight `weight` each are done.
    pub fn advance(&self, n: u64, weight: u64) {
        self.steps_done.fetch_add(n, Ordering::Relaxed);
        self.weight_done
            .fetch_add(n.saturating_mul(weight), Ordering::Relaxed);
    }

    /// A job starts: its tally, to be shown while it runs.
    pub fn start(&self, hash: &str) -> std::sync::Arc<JobTally> {
        let tally = std::sync::Arc::new(JobTally::default());
        self.running
            .lock()
            .expect("the running jobs")
            .push((hash.to_string(), tally.clone()));
        tally
    }

    /// A job ended (done or failed); returns how many jobs are done when it finished.
    pub fn end(&self, hash: &str, finished: bool) -> u64 {
        self.running
            .lock()
            .expect("the running jobs")
            .retain(|(h, _)| h != hash);
        if finished {
            self.jobs_done.fetch_add(1, Ordering::Relaxed) + 1
        } else {
            self.jobs_done.load(Ordering::Relaxed)
        }
    }

    /// The jobs the run plays.
    pub fn jobs(&self) -> usize {
        self.jobs
    }

    /// What its steps are (`games`, `generations`).
    pub fn unit(&self) -> &'static str {
        self.unit
    }

    /// The progress line: "progress 3 min 05 s: 1450/4000 games (36%), 3/8 jobs done, ETA 4 min
    /// 10 s; job 1a2b..: mcts 61.5/100, greedy 38.5/100".
    pub fn line(&self) -> String {
        let elapsed = self.started.elapsed().as_secs_f64();
        let steps = self.steps_done.load(Ordering::Relaxed);
        let weight = self.weight_done.load(Ordering::Relaxed);
        let share = if self.total_weight > 0 {
            weight as f64 / self.total_weight as f64
        } else {
            1.0
        };
        let eta = if weight > 0 {
            format!(
                "ETA {}",
                duration_text(
                    elapsed * (self.total_weight.saturating_sub(weight)) as f64 / weight as f64
                )
            )
        } else {
            "ETA not known yet".to_string()
        };
        let mut line = format!(
            "progress {}: {steps}/{} {} ({:.0}%), {}/{} done, {eta}",
            duration_text(elapsed),
            self.total_steps,
            self.unit,
            100.0 * share,
            self.jobs_done.load(Ordering::Relaxed),
            crate::words::count(self.jobs, "job", "jobs"),
        );
        let running = self.running.lock().expect("the running jobs");
        let scores: Vec<String> = running
            .iter()
            .filter_map(|(hash, tally)| Some(format!("job {hash}: {}", tally.score()?)))
            .collect();
        const SHOWN: usize = 4;
        if !scores.is_empty() {
            line += "; ";
            line += &scores[..scores.len().min(SHOWN)].join("; ");
            if scores.len() > SHOWN {
                line += &format!("; {} more running", scores.len() - SHOWN);
            }
        }
        line
    }

    /// Prints `line` every `interval` until `stop` says so (a thread of the runner, off a
    /// terminal).
    pub fn tick_until(&self, stop: std::sync::mpsc::Receiver<()>, say: &(dyn Fn(&str) + Sync)) {
        let every = interval();
        loop {
            match stop.recv_timeout(every) {
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => say(&self.line()),
                _ => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(first: &str, second: &str, winner: &'static str) -> GameRow {
        GameRow {
            first_agent: first.into(),
            second_agent: second.into(),
            winner,
            ..GameRow::default()
        }
    }

    #[test]
    fn a_tally_counts_wins_and_half_draws_by_agent_best_first() {
        let t = JobTally::default();
        assert_eq!(t.score(), None);
        t.games(&[
            game("a", "b", "first"),
            game("b", "a", "first"),
            game("a", "b", "draw"),
            game("b", "a", "second"),
        ]);
        assert_eq!(t.score().unwrap(), "a 2.5/4, b 1.5/4");
    }

    #[test]
    fn the_line_counts_steps_jobs_and_the_eta_from_the_weights() {
        let p = Progress::new("games", 100, 1000, 2);
        assert!(
            p.line()
                .contains("0/100 games (0%), 0/2 jobs done, ETA not known yet"),
            "{}",
            p.line()
        );
        p.advance(25, 10);
        let t = p.start("00000000000000aa");
        t.games(&[game("x", "y", "second")]);
        let line = p.line();
        assert!(
            line.contains("25/100 games (25%), 0/2 jobs done, ETA "),
            "{line}"
        );
        assert!(
            line.ends_with("job 00000000000000aa: y 1/1, x 0/1"),
            "{line}"
        );
        assert_eq!(p.end("00000000000000aa", true), 1);
        assert!(p.line().contains("1/2 jobs done"));
        assert!(!p.line().contains("job 00000000000000aa"));
    }

    #[test]
    fn durations_read_as_a_person_says_them() {
        assert_eq!(duration_text(35.2), "35 s");
        assert_eq!(duration_text(2.46), "2.5 s");
        assert_eq!(duration_text(250.0), "4 min 10 s");
        assert_eq!(duration_text(7500.0), "2 h 05 min");
    }
}
