//! df-pn: one node's expansion and search (`mid`), the numbers of a node from its children's
//! (`node_numbers`), and the numbers an unsearched child starts with (`initial_numbers`).

use super::*;

impl Solver {
    /// The value of `pos` by df-pn: its terminal test, else a proof-number search from it with
    /// infinite thresholds (until it is proven, disproven, or out of budget or time).
    pub(super) fn dfpn_value(
        &mut self,
        pos: &Position,
        ply: u32,
        last: u8,
        prev: u8,
        favourite: u8,
        known: Option<Option<Side>>,
    ) -> Val {
        self.count_node(ply);
        if let Some(v) = self.terminal_value(pos, known) {
            return v;
        }
        // Proven by an earlier solve of the problem under budgets that dominate these.
        if let Some(wins) = self.proven_elsewhere(pos) {
            self.counters.proofs_shared += 1;
            return if wins { Val::Win } else { Val::Loss };
        }
        let (phi, delta, ..) = self.mid(pos, ply, INF, INF, last, prev, favourite);
        if self.out_of_budget || self.depth_cut {
            Val::Unknown
        } else if phi == 0 {
            Val::Win
        } else if delta == 0 {
            Val::Loss
        } else {
            Val::Unknown
        }
    }

    /// Starts loading the table slots `mid` reads for `child` (its numbers, and its proof)
    /// while the other children are generated: the tables are far larger than the caches, and
    /// without this a node waited on each child's slot in turn.
    pub(super) fn prefetch_numbers(&self, child: &Position) {
        prefetch(&self.pn_tt, self.tt_index(Solver::tt_key(child)));
        prefetch(&self.proofs, self.tt_index(Solver::proof_key(child)));
    }

    /// The stored (proof, disproof) numbers of a position's side to move, or (1, 1).
    pub(super) fn pn_lookup(&self, key: u64) -> (u32, u32) {
        let e = self.pn_tt[self.tt_index(key)];
        if e.generation == self.generation && e.key == key {
            (e.phi, e.delta)
        } else {
            (1, 1)
        }
    }

    /// One df-pn node (negamax form: `phi` proves a win for the side to move, `delta` disproves
    /// it): expands `pos` (each child's terminal test counts one leaf, as in the plain search,
    /// so the leaves stay the report's "terminal leaves"), then searches the child with the
    /// smallest disproof number (the first of equals in the heuristic's order, so the weights
    /// shape the search) until the node's numbers reach the thresholds. Returns its numbers,
    /// the earliest place on the line that a repetition ban in its subtree referred to, and
    /// when proven the ko threats its winner needs (`threats_needed`). A proof
    /// or disproof is stored only when it rests on no ban above the node (graph-history
    /// interaction, as in the plain search); numbers short of a proof are only estimates and
    /// are always stored. The node's children keep their own numbers while it is searched, so a
    /// proof that could not be stored is not searched again within the node.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn mid(
        &mut self,
        pos: &Position,
        ply: u32,
        th_phi: u32,
        th_delta: u32,
        last: u8,
        prev: u8,
        favourite: u8,
    ) -> (u32, u32, usize, u8) {
        if ply >= self.limits.max_depth {
            self.depth_cut = true;
            return (INF, 0, usize::MAX, NEEDS_LOOKUP);
        }
        let key = Solver::tt_key(pos);
        // The node's own slot, written when it returns.
        prefetch(&self.pn_tt, self.tt_index(key));
        let outer_floor = std::mem::replace(&mut self.ban_floor, usize::MAX);
        let cands = self.candidates(pos, ply, last, prev, favourite);
        let banned_here = self.node_ban;
        let mut floor = self.ban_floor;
        while self.pn_kids.len() <= ply as usize {
            self.pn_kids.push(Vec::with_capacity(32));
            self.pn_needs.push(Vec::with_capacity(32));
        }
        let mut kids = std::mem::take(&mut self.pn_kids[ply as usize]);
        kids.clear();
        let mut needs = std::mem::take(&mut self.pn_needs[ply as usize]);
        needs.clear();
        let mut threats: Option<u64> = None;
        for c in &cands {
            let terminal = self.terminal(&c.child, c.decided);
            needs.push(if terminal.is_some() { 0 } else { NEEDS_LOOKUP });
            let numbers = match terminal {
                Some(winner) => {
                    self.count_leaf(&c.child);
                    if winner == c.child.to_move {
                        (0, INF)
                    } else {
                        (INF, 0)
                    }
                }
                None => {
                    let (mut p, mut d) = self.pn_lookup(Solver::tt_key(&c.child));
                    if p != 0
                        && d != 0
                        && let Some(wins) = self.proven_elsewhere(&c.child)
                    {
                        self.counters.proofs_shared += 1;
                        (p, d) = if wins { (0, INF) } else { (INF, 0) };
                    }
                    // An unsearched child: numbers from its eye space and its place in the
                    // heuristic's order (`initial_numbers`).
                    if (p, d) == (1, 1) {
                        let threats = *threats.get_or_insert_with(|| self.threats_now(pos));
                        if threats != 0 && self.wins_at_once(c, threats) {
                            // The immediate reply never retakes.
                            *needs.last_mut().expect("pushed above") = 0;
                            (0, INF)
                        } else {
                            let space = self.decided_memo.eye_space(&self.region, &c.child);
                            initial_numbers(space, &c.child, kids.len() as u32)
                        }
                    } else {
                        (p, d)
                    }
                }
            };
            kids.push(numbers);
        }
        let top = cands.first().map_or(NONE, |c| c.mv);
        let (mut phi, mut delta);
        loop {
            let best;
            let second;
            (phi, delta, best, second) = node_numbers(&kids);
            if phi >= th_phi || delta >= th_delta || self.out_of_budget || best == usize::MAX {
                break;
            }
            let (cphi, _) = kids[best];
            let child_th_phi = if th_delta >= INF {
                INF
            } else {
                th_delta - delta + cphi
            };
            // The 1+epsilon trick (Pawlewicz and Lew): stay in the child until its disproof
            // number passes the second best by a quarter, not by one, so fewer re-expansions.
            let child_th_delta = th_phi.min(second.saturating_add(second / 4 + 1)).min(INF);
            self.count_node(ply + 1);
            if self.budget_spent() {
                break;
            }
            let c = cands[best];
            let (p, d, f, n) = self.on_line(&c, |me| {
                me.mid(
                    &c.child,
                    ply + 1,
                    child_th_phi,
                    child_th_delta,
                    c.mv,
                    last,
                    top,
                )
            });
            kids[best] = (p, d);
            needs[best] = n;
            floor = floor.min(f);
        }
        if phi == 0
            && let Some(i) = kids.iter().position(|k| k.1 == 0)
        {
            self.learn(pos, ply, cands[i].mv, last);
        }
        let proven = phi == 0 || delta == 0;
        let needed = if proven {
            self.threats_needed(pos, &cands, &kids, &needs, phi == 0)
        } else {
            NEEDS_LOOKUP
        };
        if proven && floor >= ply as usize && !self.out_of_budget && !self.depth_cut {
            let clean = self.clean(pos, &cands, &kids, phi == 0, banned_here);
            self.record_proof(pos, phi == 0, clean, needed);
        }
        if !proven || floor >= ply as usize {
            let slot = self.tt_index(key);
            self.pn_tt[slot] = PnEntry {
                key,
                generation: self.generation,
                phi,
                delta,
            };
        }
        self.pn_kids[ply as usize] = kids;
        self.pn_needs[ply as usize] = needs;
        self.recycle(ply, cands);
        self.ban_floor = outer_floor.min(floor);
        (phi, delta, floor, needed)
    }
}

/// A df-pn node's numbers from its children's (negamax: `phi` = the smallest disproof number of
/// a child, `delta` = the sum of their proof numbers), with the child to search next (the
/// smallest disproof number, the first of equals; `usize::MAX` without children) and the second
/// smallest disproof number (for the 1+epsilon threshold).
///
/// The sum is capped below `INF` unless the node is proven: `delta == INF` means "disproven
/// for the opponent", and a sum of finite numbers must never reach it. On long level-14 searches
/// the proof numbers of a DAG, counted once per path, did reach 2^30: the root then stopped
/// with neither number 0 and the question was unknown well within its node budget (P1059006
/// of lv6.14 at 0.8M of 6M nodes, with a 2^22-entry table). Weak proof numbers (Ueda et al.:
/// the largest child's number plus one, or 16, per other child, against the DAG's overcounting)
/// were measured worse: 100 level-14 questions (seed 2) at 6M nodes, 50 and 69 solved against
/// the sum's 91.
#[inline]
pub(super) fn node_numbers(kids: &[(u32, u32)]) -> (u32, u32, usize, u32) {
    let (mut phi, mut delta) = (INF, 0u32);
    let (mut best, mut best_delta, mut second) = (usize::MAX, INF + 1, INF);
    for (i, &(cphi, cdelta)) in kids.iter().enumerate() {
        phi = phi.min(cdelta);
        delta = delta.saturating_add(cphi).min(INF);
        if cdelta < best_delta {
            second = best_delta.min(INF);
            best_delta = cdelta;
            best = i;
        } else if cdelta < second {
            second = cdelta;
        }
    }
    if phi != 0 && delta >= INF {
        delta = INF - 1;
    }
    (phi, delta, best, second)
}

/// What an unsearched child's proof and disproof numbers start at (from its mover's side):
/// df-pn's (1, 1) made informed, as Kishimoto and Müller's tsumego solver does with its
/// "distance to two eyes". The attacker's proof number grows with the defender's eye space
/// (`space` and `eyes` from `life::eye_space`: the points that could still be part of an eye,
/// and the eye points now), `EYE_SPACE_WEIGHT` a point; the defender's with the eyes it still
/// lacks (two, less its eye points now). The
/// heuristic's order adds `RANK_WEIGHT` a place to the parent's number (the child's disproof
/// number), so the weights still order the search and decide its cost, never the answer.
/// Measured on 30 GoTools level-14 questions at 5M nodes (seed 1): (1, 1 + rank) solved 21,
/// this 25; on the 21 both solved, 43.0M nodes -> 17.2M (docs/rules/tsumego.md).
pub(super) fn initial_numbers(
    (space, eyes): (u32, u32),
    child: &Position,
    rank: u32,
) -> (u32, u32) {
    let attacker = 1 + EYE_SPACE_WEIGHT * space;
    let defender = 1 + 2u32.saturating_sub(eyes);
    let order = RANK_WEIGHT * rank;
    if child.to_move == Side::Attacker {
        (attacker, defender + order)
    } else {
        (defender, attacker + order)
    }
}

/// `Solver::pn_needs` for a child whose threats needed are to be read from the proof table.
pub(super) const NEEDS_LOOKUP: u8 = u8::MAX;

/// The attacker's initial proof number per point of the defender's eye space.
pub(super) const EYE_SPACE_WEIGHT: u32 = 16;
/// The initial number added per place in the heuristic's order.
pub(super) const RANK_WEIGHT: u32 = 64;

#[cfg(test)]
mod node_numbers_tests {
    use super::{INF, node_numbers};

    #[test]
    pub(super) fn a_sum_of_finite_proof_numbers_never_reads_as_a_disproof() {
        let half = INF / 2;
        // Three unproven children whose proof numbers sum past INF.
        let (phi, delta, best, second) = node_numbers(&[(half, 9), (half, 5), (half, 7)]);
        assert_eq!((phi, delta, best, second), (5, INF - 1, 1, 7));
    }

    #[test]
    pub(super) fn proven_and_disproven_nodes_keep_infinity() {
        // A child lost for its mover: the node is proven, (0, INF).
        let (phi, delta, best, _) = node_numbers(&[(40, 3), (INF, 0), (INF / 2, 8)]);
        assert_eq!((phi, delta, best), (0, INF, 1));
        // Every child won for its mover: the node is disproven, (INF, 0).
        let (phi, delta, _, _) = node_numbers(&[(0, INF), (0, INF)]);
        assert_eq!((phi, delta), (INF, 0));
        // No move at all is a loss.
        let (phi, delta, best, _) = node_numbers(&[]);
        assert_eq!((phi, delta, best), (INF, 0, usize::MAX));
    }
}
