//! Move generation: the legal moves of a position scored by the heuristic's static and dynamic
//! features and sorted best first; what the search learns for ordering (killers, history, hash
//! moves); the pass in the solver's model.

use super::*;

impl Solver {
    /// Records a winning move for the dynamic features.
    pub(super) fn learn(&mut self, pos: &Position, ply: u32, mv: u8, last: u8) {
        if !self.use_dynamic {
            return;
        }
        let s = pos.to_move.index();
        let l = &mut self.learning;
        l.history[s][mv as usize] += 1;
        l.history_max[s] = l.history_max[s].max(l.history[s][mv as usize]);
        let k = &mut l.killers[ply as usize];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
        if last != NONE {
            l.counter[s][last as usize] = mv;
        }
        l.hash_moves[slot_of(pos.hash, HASH_MOVE_BITS)] = (pos.hash, mv);
    }

    /// The legal moves of `pos`, scored and sorted best first (ties by point, pass after
    /// points of equal score).
    pub(super) fn candidates(
        &mut self,
        pos: &Position,
        ply: u32,
        last: u8,
        prev: u8,
        favourite: u8,
    ) -> Vec<Candidate> {
        self.node_ban = false;
        while self.buffers.len() <= ply as usize {
            self.buffers.push(Vec::with_capacity(32));
        }
        while self.learning.killers.len() <= ply as usize {
            self.learning.killers.push([NONE; 2]);
        }
        let mut out = std::mem::take(&mut self.buffers[ply as usize]);
        out.clear();
        if self.use_dynamic {
            self.learning.prefetch(pos.hash);
        }
        let region = &self.region;
        let me = pos.to_move;
        let facts = if self.use_static {
            Some(node_facts(region, pos, std::mem::take(&mut self.chains)))
        } else {
            None
        };
        let empty = pos.empty(region);
        let hash_move = if self.use_dynamic {
            self.learning.hash_move(pos.hash)
        } else {
            NONE
        };
        let wins_now_weight = self.weights.statics[WINS_NOW];
        // The dynamic part of a move's score (points and the pass alike).
        let (dynamics, learning) = (&self.weights.dynamics, &self.learning);
        let dynamic_score = |mv: u8| {
            DYNAMIC_UNIT
                * dot(
                    dynamics,
                    &dynamic_features(
                        region, learning, pos, ply, mv, last, prev, favourite, hash_move,
                    ),
                )
        };
        // Two passes over the moves: the first plays them and starts loading the table slots
        // their children will be looked up in (the terminal-test memo here, the numbers in
        // `mid`), the second scores them once those loads have had time to arrive.
        let mut played = std::mem::take(&mut self.played);
        played.clear();
        for p in Bits(empty) {
            let Some((mut child, info)) = pos.play(region, p) else {
                continue;
            };
            let mut retake = false;
            if let Some(at) = self.repeated_at(child.hash, info.captured != 0) {
                self.ban_seen = true;
                self.node_ban = true;
                self.ban_floor = self.ban_floor.min(at);
                if pos.threats[me.index()] == 0 {
                    continue;
                }
                child.threats[me.index()] -= 1;
                retake = true;
            }
            if facts.is_some() && wins_now_weight != 0.0 {
                self.decided_memo.prefetch(&child);
            }
            self.prefetch_numbers(&child);
            played.push((p, child, info, retake));
        }
        for &(p, child, ref info, retake) in &played {
            let mut score = 0.0;
            let mut known = None;
            if let Some(f) = &facts {
                if wins_now_weight != 0.0 {
                    known = Some(self.decided_memo.decided(region, &child, self.targets));
                }
                let feats = static_features(
                    region,
                    self.targets,
                    f,
                    p,
                    &child,
                    info,
                    retake,
                    known.flatten() == Some(me),
                );
                score += dot(&self.weights.statics, &feats);
            }
            if self.use_dynamic {
                score += dynamic_score(p as u8);
            }
            out.push(Candidate {
                mv: p as u8,
                score,
                child,
                decided: known,
                captures: info.captured != 0,
                new_line: retake.then_some(1),
            });
        }
        self.played = played;
        // The pass (`may_pass`, `after_pass`): the second in a row starts the judging phase; in
        // the seki test both sides pass and two passes kill.
        if may_pass(pos) || self.two_eyes_only {
            let mut score = self.weights.statics[PASS_FEATURE];
            if self.use_dynamic {
                score += dynamic_score(PASS);
            }
            let child = if self.two_eyes_only {
                pos.pass()
            } else {
                after_pass(pos)
            };
            let new_line = (child.judging && !pos.judging).then_some(0);
            out.push(Candidate {
                mv: PASS,
                score,
                child,
                decided: None,
                captures: false,
                new_line,
            });
        }
        out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.mv.cmp(&b.mv)));
        if let Some(f) = facts {
            self.chains = f.chains;
        }
        out
    }
}

/// The position after the mover of `pos` passes, in the solver's model: the second pass in a
/// row before the judging phase starts it (the same stones, the other side to move, no
/// passes, the defender's external ko threats gone, since the attacker removes them before it
/// starts a fight; the attacker's kept). The judging phase is a new line: its repetition bans
/// do not look at the positions before it.
pub fn after_pass(pos: &Position) -> Position {
    let mut child = pos.pass();
    if !pos.judging && pos.passes >= 1 {
        child.passes = 0;
        child.judging = true;
        child.threats = [pos.threats[0], 0];
    }
    child
}

/// Whether the mover of `pos` may pass in the solver's model: the defender always; the attacker
/// before the judging phase (in it, the defender would pass back and live).
pub fn may_pass(pos: &Position) -> bool {
    pos.to_move == Side::Defender || !pos.judging
}
