//! The `[race]` section of an experiment file: how a sweep is raced (`experiment::race` runs
//! it) and what a file's race may not be.

use super::{Experiment, JobKind};
use crate::experiment::InputError;
use serde::{Deserialize, Serialize};

/// The `[race]` section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceSpec {
    /// Whose results are raced: by default the match's first player; a tournament names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// Blocks (colour-swapped pairs, or tournament rounds) each point plays a round.
    #[serde(default = "default_blocks")]
    pub blocks_per_round: u32,
    /// The test's level: a point is dropped when its Holm-adjusted p is below it.
    #[serde(default = "default_level")]
    pub level: f64,
    /// Rounds played before the first test.
    #[serde(default = "default_min_rounds")]
    pub min_rounds: u32,
    /// All points' games together after which the race stops (default: no bound but the
    /// file's games for each point).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_games: Option<u64>,
}

fn default_blocks() -> u32 {
    5
}
fn default_level() -> f64 {
    0.05
}
fn default_min_rounds() -> u32 {
    2
}

impl RaceSpec {
    /// What a file's `[race]` may not be; the message names the key.
    pub fn check(&self, exp: &Experiment) -> Result<(), InputError> {
        let file = &exp.file;
        let err = |key: &str, m: String| {
            let at = if key.is_empty() {
                "race".to_string()
            } else {
                format!("race.{key}")
            };
            Err(exp.error(&at, m))
        };
        if !matches!(file.kind, JobKind::Match | JobKind::Tournament) {
            return err(
                "",
                format!(
                    "races grid points of matches and tournaments, not of {} jobs",
                    file.kind.name()
                ),
            );
        }
        if file.repeats != 1 {
            return err("", "a race compares grid points block by block: use one repeat (more blocks per round play more games)".into());
        }
        if file.match_.as_ref().is_some_and(|m| m.sprt.is_some()) {
            return err(
                "",
                "a race and an SPRT both stop games early: keep one".into(),
            );
        }
        if file.match_.as_ref().is_some_and(|m| m.games % 2 == 1) {
            return Err(exp.error(
                "match.games",
                "a race plays whole colour-swapped pairs: give an even number of games",
            ));
        }
        if exp.swept_axes().iter().all(|(_, v)| v.len() < 2) {
            return err(
                "",
                "a race needs two grid points at least: add a [grid] axis".into(),
            );
        }
        if self.blocks_per_round == 0 {
            return err("blocks_per_round", "must be at least 1".into());
        }
        if self.min_rounds == 0 {
            return err("min_rounds", "must be at least 1".into());
        }
        if !(self.level > 0.0 && self.level < 1.0) {
            return err(
                "level",
                format!("must be between 0 and 1, not {}", self.level),
            );
        }
        match (&self.agent, file.kind) {
            (None, JobKind::Tournament) => {
                return err(
                    "agent",
                    "a tournament's race names the agent whose results it races".into(),
                );
            }
            (Some(a), _) if !file.agents.contains_key(a) => {
                return err("agent", format!("names no agent of the file: `{a}`"));
            }
            _ => {}
        }
        if let (Some(a), Some(m)) = (&self.agent, &file.match_)
            && !m.players.contains(a)
        {
            return err("agent", format!("`{a}` does not play in the match"));
        }
        Ok(())
    }
}
