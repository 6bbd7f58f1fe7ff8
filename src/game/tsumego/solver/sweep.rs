//! The status sweep: a problem's status (l, d, lNd, dNl) found with few costly solves, each a
//! search under the two sides' ko-threat budgets.

use super::*;

impl Solver {
    /// Whether the defender lives from `pos` with the given threat budgets (None: unknown).
    pub(super) fn defender_lives(
        &mut self,
        pos: &Position,
        attacker_threats: u8,
        defender_threats: u8,
    ) -> Option<bool> {
        let mut p = *pos;
        p.threats = [attacker_threats, defender_threats];
        self.root_path(&p);
        let v = self.search(&p, 0, NONE, NONE, NONE);
        match v {
            Val::Unknown => None,
            v => Some((v == Val::Win) == (p.to_move == Side::Defender)),
        }
    }

    /// The status sweep: the status's definition (the threat-free result, then the smallest
    /// budget of the side losing it that flips it) found with few costly solves. A decided
    /// root needs no search; and when the first solve met no banned retake anywhere, its proof
    /// holds whatever the threats (a budget only adds moves where a retake is banned), so the
    /// status is `l` or `d` at once.
    pub(super) fn status(&mut self, root: &Position) -> Status {
        if let Some(winner) = decided(&self.region, root, self.targets) {
            self.counters.nodes += 1;
            self.counters.leaves += 1;
            return if winner == Side::Defender {
                Status::Alive
            } else {
                Status::Dead
            };
        }
        // Threats only add moves (retakes) for their side, so each result is monotone in the
        // budgets. First the solve least favourable to the side to move: none of its own
        // threats against all of the opponent's. The mover winning there wins at every budget
        // (one solve for the commonest answers: `d` when the attacker moves, `l` when the
        // defender does); so does a result met without a repetition ban. Else the solve most
        // favourable to the mover: losing there, it loses at every budget. Else the result
        // turns on a ko (below).
        let mover_defends = root.to_move == Side::Defender;
        let (least, most) = if mover_defends {
            ((MAX_THREATS, 0), (0, MAX_THREATS))
        } else {
            ((0, MAX_THREATS), (MAX_THREATS, 0))
        };
        self.ban_seen = false;
        let Some(lives) = self.defender_lives(root, least.0, least.1) else {
            return Status::Unknown;
        };
        let plain = if lives { Status::Alive } else { Status::Dead };
        if lives == mover_defends || !self.ban_seen {
            return plain;
        }
        match self.defender_lives(root, most.0, most.1) {
            None => return Status::Unknown,
            Some(l) if l != mover_defends => return plain,
            Some(_) => {}
        }
        // The result turns on a ko. Who wins it without threats, and the smallest budget of
        // the side losing that which flips it (the status's definition), found so that the
        // mover's costly answer, a loss (every move refuted), is searched once where it can
        // be: first the mover's own budget downward from MAX_THREATS - 1 (it wins with
        // MAX_THREATS); a loss there at k holds at every smaller budget, so it loses without
        // threats and k + 1 flips it. Wins on the way are mostly read from the table (a proof
        // holds from the threats its winner spent up). If it wins down to none of its own,
        // the opponent's budget upward from 1 until the mover loses (it does at MAX_THREATS).
        let mine = |k: u8| if mover_defends { (0, k) } else { (k, 0) };
        let theirs = |k: u8| if mover_defends { (k, 0) } else { (0, k) };
        match self.first_mover_loss(root, (0..MAX_THREATS).rev(), mine) {
            None => return Status::Unknown,
            Some(Some(k)) if mover_defends => return Status::DeadUnlessKo(k + 1),
            Some(Some(k)) => return Status::AliveUnlessKo(k + 1),
            Some(None) => {}
        }
        match self.first_mover_loss(root, 1..=MAX_THREATS, theirs) {
            None => Status::Unknown,
            Some(Some(k)) if mover_defends => Status::AliveUnlessKo(k),
            Some(Some(k)) => Status::DeadUnlessKo(k),
            // The least favourable solve above: the mover loses at MAX_THREATS of the
            // opponent's.
            Some(None) => unreachable!("the status sweep's budgets are monotone"),
        }
    }

    /// The first budget `k` of `ks` at which the mover of `root` loses, solved under the
    /// threats `budgets(k)` (attacker's, defender's): Some(None) when it wins at all of them,
    /// None when a solve is unknown.
    fn first_mover_loss(
        &mut self,
        root: &Position,
        ks: impl Iterator<Item = u8>,
        budgets: impl Fn(u8) -> (u8, u8),
    ) -> Option<Option<u8>> {
        let mover_defends = root.to_move == Side::Defender;
        for k in ks {
            let (a, d) = budgets(k);
            if self.defender_lives(root, a, d)? != mover_defends {
                return Some(Some(k));
            }
        }
        Some(None)
    }
}
