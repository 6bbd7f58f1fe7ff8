//! The solver's tables: df-pn's numbers (`PnEntry`), the proofs shared across the status
//! sweep's budgets (`ProofEntry`), the terminal-test memo (`DecidedMemo`), and how their slots
//! are found, allocated and prefetched.

use super::*;

/// A df-pn table entry: proof and disproof numbers for the side to move of position `key`.
#[derive(Clone, Copy, Default)]
pub(super) struct PnEntry {
    pub(super) key: u64,
    pub(super) generation: u32,
    pub(super) phi: u32,
    pub(super) delta: u32,
}

/// A proof-table entry (`Solver::proofs`): what is proven about one position (stones, side to
/// move, passes, judging phase, ko point) under the threat budgets met so far, whatever the
/// budgets. `defender[d]`: the most attacker threats against which the defender is proven to
/// live with `d` threats of its own (-1: none); `attacker[a]`: the most defender threats
/// against which the attacker is proven to kill with `a` of its own.
#[derive(Clone, Copy, Default)]
pub(super) struct ProofEntry {
    pub(super) key: u64,
    pub(super) generation: u32,
    pub(super) defender: [i8; MAX_THREATS as usize + 1],
    pub(super) attacker: [i8; MAX_THREATS as usize + 1],
    /// A proof that holds under every budget (`Solver::clean`): the side it proves to win, or
    /// None.
    pub(super) every_budget: Option<Side>,
}

/// A memo of the terminal test (`life::decided`) for one problem: df-pn expands a node again
/// each time it comes back to it, and every expansion tests each child, so most tests repeat.
/// It also marks the positions already counted as leaves, so a leaf counts once per problem
/// (a position whose slot another took meanwhile counts again: rare, with 2^20 slots).
pub(super) struct DecidedMemo {
    /// (key, generation, result: 0 undecided, 1 attacker, 2 defender, plus `LEAF_COUNTED` once
    /// the position was counted as a leaf; eye space: `life::eye_space` as (space, eyes), or
    /// `NO_SPACE` before it is asked for).
    pub(super) entries: Vec<(u64, u32, u8, (u8, u8))>,
    pub(super) generation: u32,
    /// log2 of the number of entries.
    pub(super) bits: u32,
}

pub(super) const NO_SPACE: (u8, u8) = (u8::MAX, u8::MAX);
/// The memo's flag for a terminal position already counted as a leaf (`DecidedMemo::first_leaf`).
pub(super) const LEAF_COUNTED: u8 = 4;

impl DecidedMemo {
    /// A memo of 2^`bits` entries (16 bytes each).
    pub(super) fn new(bits: u32) -> DecidedMemo {
        DecidedMemo {
            bits,
            entries: huge_table(1 << bits),
            generation: 0,
        }
    }

    /// Forgets every entry (a new problem: another region and other targets).
    pub(super) fn reset(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.clear();
            self.generation = 1;
        }
    }

    /// Empties every slot (writing each one).
    pub(super) fn clear(&mut self) {
        self.entries.fill((0, 0, 0, NO_SPACE));
    }

    /// `decided(region, pos, targets)`, from the memo when this problem tested the same stones.
    pub(super) fn decided(
        &mut self,
        region: &Region,
        pos: &Position,
        targets: u64,
    ) -> Option<Side> {
        let (key, slot) = self.slot(pos);
        let e = self.entries[slot];
        if e.0 == key && e.1 == self.generation {
            return [None, Some(Side::Attacker), Some(Side::Defender)]
                [(e.2 & !LEAF_COUNTED) as usize];
        }
        let d = decided(region, pos, targets);
        let code = match d {
            None => 0,
            Some(Side::Attacker) => 1,
            Some(Side::Defender) => 2,
        };
        self.entries[slot] = (key, self.generation, code, NO_SPACE);
        d
    }

    /// Whether terminal position `pos` is a new leaf of this problem: true the first time it is
    /// asked (and then marked), false after. A position the memo no longer holds (its slot
    /// taken by another) counts again, as a terminal test computed again.
    pub(super) fn first_leaf(&mut self, pos: &Position) -> bool {
        let (key, slot) = self.slot(pos);
        let e = &mut self.entries[slot];
        if e.0 != key || e.1 != self.generation {
            return true;
        }
        let first = e.2 & LEAF_COUNTED == 0;
        e.2 |= LEAF_COUNTED;
        first
    }

    /// `life::eye_space(region, pos)`, kept beside the position's terminal test when it is in
    /// the memo (df-pn asks for it at each expansion that finds the child unsearched).
    pub(super) fn eye_space(&mut self, region: &Region, pos: &Position) -> (u32, u32) {
        let (key, slot) = self.slot(pos);
        let e = &mut self.entries[slot];
        let held = e.0 == key && e.1 == self.generation;
        if held && e.3 != NO_SPACE {
            return (e.3.0 as u32, e.3.1 as u32);
        }
        let (space, eyes) = eye_space(region, pos);
        if held {
            e.3 = (space as u8, eyes as u8);
        }
        (space, eyes)
    }

    /// Starts loading the slot `decided` and `eye_space` will read for `pos`.
    pub(super) fn prefetch(&self, pos: &Position) {
        prefetch(&self.entries, self.slot(pos).1);
    }

    /// The position's key in the memo (two passes are a different terminal test) and its slot.
    pub(super) fn slot(&self, pos: &Position) -> (u64, usize) {
        const TWO_PASSES_KEY: u64 = 0x2d35_8dcc_aa6c_78a5;
        let key = pos.hash ^ if pos.passes >= 2 { TWO_PASSES_KEY } else { 0 };
        (key, slot_of(key, self.bits))
    }
}

/// The slot of `key` in a table of 2^`bits` slots: the top bits of the key times an odd
/// constant (Fibonacci hashing). The top bits of the Zobrist key alone collided by structure:
/// positions a few stones apart differ by the XOR of a few fixed point keys, and where that XOR
/// has zero top bits (among the thousands of such combinations of a region's keys, some do),
/// every such pair of positions shared a slot and evicted each other in every search.
#[inline]
pub(super) fn slot_of(key: u64, bits: u32) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
}

/// A table entry whose all-zero bytes are a valid value (integers, bools, and an
/// `Option<Side>`, whose zero is `Some(Attacker)`). A zeroed slot is never read as an entry:
/// its generation is 0, and the solver's and the memo's generations start at 1 (`start`,
/// `DecidedMemo::reset`) before any lookup.
///
/// # Safety
/// Only for types whose every field accepts the all-zero bit pattern.
pub(super) unsafe trait ZeroValid: Copy {}

// SAFETY: u64, u32 and bool fields.
unsafe impl ZeroValid for TtEntry {}
// SAFETY: u64 and u32 fields.
unsafe impl ZeroValid for PnEntry {}
// SAFETY: u64, u32, i8 arrays, and Option<Side>: Side is repr(u8) with Attacker = 0.
unsafe impl ZeroValid for ProofEntry {}
// SAFETY: integers.
unsafe impl ZeroValid for (u64, u32, u8, (u8, u8)) {}

/// A table of `len` zeroed slots, asked of Linux in 2 MB pages where it can give them (the
/// tables are tens or hundreds of MB read at random: with 4 KB pages nearly every lookup also
/// missed the address cache). Zeroed memory comes from the system untouched (calloc maps fresh
/// pages), so a table costs memory only where a search writes: `gamelab solve` on a small
/// problem no longer fills 740 MB first (`DEEP_TABLE_BITS`).
pub(super) fn huge_table<T: ZeroValid>(len: usize) -> Vec<T> {
    assert!(len > 0, "a table has slots");
    let layout = std::alloc::Layout::array::<T>(len).expect("a table that fits in memory");
    // SAFETY: the layout has a non-zero size (len > 0 and every entry type has fields).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if ptr.is_null() {
        std::alloc::handle_alloc_error(layout);
    }
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = ptr as usize;
        let (from, to) = (
            start.next_multiple_of(HUGE),
            (start + len * std::mem::size_of::<T>()) / HUGE * HUGE,
        );
        if to > from {
            // SAFETY: advice on whole pages inside the table's own allocation; a refusal only
            // leaves the usual pages.
            unsafe { libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE) };
        }
    }
    // SAFETY: allocated by the global allocator with `Layout::array::<T>(len)`, which is the
    // layout a Vec of capacity `len` uses; every slot is a valid T (`ZeroValid`).
    unsafe { Vec::from_raw_parts(ptr, len, len) }
}

/// Starts loading `table[slot]` into the cache (a hint: nothing is read, and a slot past the end
/// is never asked for).
#[inline(always)]
pub(super) fn prefetch<T>(table: &[T], slot: usize) {
    debug_assert!(slot < table.len());
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `slot` is inside the table (debug-asserted; every caller takes it from the
    // table's own index function), and a prefetch reads nothing.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch(table.as_ptr().add(slot).cast::<i8>(), _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (table, slot);
}

/// The proofs shared across the status sweep's budgets (`ProofEntry`): their keys, what they
/// prove for a position under the budgets asked, and how many threats a proof needed.
impl Solver {
    /// The proof table's key: `tt_key` without the threat budgets.
    pub(super) fn proof_key(pos: &Position) -> u64 {
        let mut p = *pos;
        p.threats = [0, 0];
        Solver::tt_key(&p)
    }

    /// Whether the side to move of `pos` is proven to win (Some(true)) or to lose (Some(false))
    /// under its threat budgets by a proof made under other budgets that dominate them.
    pub(super) fn proven_elsewhere(&self, pos: &Position) -> Option<bool> {
        let e = self.proof_entry(pos)?;
        if let Some(winner) = e.every_budget {
            return Some(winner == pos.to_move);
        }
        let [a, d] = pos.threats.map(|t| t.min(MAX_THREATS) as usize);
        let defender_lives = e.defender[..=d].iter().any(|&m| m >= a as i8);
        let attacker_kills = e.attacker[..=a].iter().any(|&m| m >= d as i8);
        match (defender_lives, attacker_kills) {
            (true, _) => Some(pos.to_move == Side::Defender),
            (_, true) => Some(pos.to_move == Side::Attacker),
            _ => None,
        }
    }

    /// This problem's proof-table entry for `pos`, if the table holds one.
    fn proof_entry(&self, pos: &Position) -> Option<&ProofEntry> {
        let key = Solver::proof_key(pos);
        let e = &self.proofs[self.tt_index(key)];
        (e.generation == self.generation && e.key == key).then_some(e)
    }

    /// Whether the proof just found at `pos` holds under every threat budget: no repetition
    /// ban touched it. Where the mover wins: its winning child is proven for every budget and
    /// is not a retake (no threat spent). Where it loses: none of its moves was banned here
    /// (with threats it could have retaken) and every child is proven for every budget.
    /// Terminal children hold for every budget.
    pub(super) fn clean(
        &mut self,
        pos: &Position,
        cands: &[Candidate],
        kids: &[(u32, u32)],
        mover_wins: bool,
        banned_here: bool,
    ) -> bool {
        let winner = winner_of(pos, mover_wins);
        let child_clean = |me: &mut Self, c: &Candidate| -> bool {
            me.terminal(&c.child, c.decided).is_some()
                || me
                    .proof_entry(&c.child)
                    .is_some_and(|e| e.every_budget == Some(winner))
        };
        if mover_wins {
            cands
                .iter()
                .zip(kids)
                .find(|(_, k)| k.1 == 0)
                .is_some_and(|(c, _)| c.new_line != Some(1) && child_clean(self, c))
        } else {
            !banned_here && cands.iter().all(|c| child_clean(self, c))
        }
    }

    /// How many ko threats of its own the winner of a node just proven needs: its proof holds
    /// for every budget of the winner from that number up (and every budget of the loser up to
    /// the node's). Where the mover wins: the fewest a winning child needs, plus one when that
    /// move is a retake (it spends a threat). Where it loses: the most any child needs (the
    /// loser's own retakes spend the loser's threats). `needs`: what the children searched here
    /// returned (their proofs may rest on a ban of this node's position, so the table may not
    /// hold them); children decided by the terminal test or by an immediate winning reply
    /// (`wins_at_once`, which never retakes) need none; the others are read from the proof
    /// table, and one the table no longer holds counts as needing its whole budget. The status
    /// sweep's later solves then find many answers in the table: a kill proven against five
    /// threats that spent one also holds against one.
    pub(super) fn threats_needed(
        &mut self,
        pos: &Position,
        cands: &[Candidate],
        kids: &[(u32, u32)],
        needs: &[u8],
        mover_wins: bool,
    ) -> u8 {
        let winner = winner_of(pos, mover_wins);
        let needed_at = |me: &mut Self, i: usize| -> u8 {
            if needs[i] != NEEDS_LOOKUP {
                return needs[i];
            }
            let c = &cands[i];
            let own = c.child.threats[winner.index()].min(MAX_THREATS);
            let Some(e) = me.proof_entry(&c.child) else {
                return own;
            };
            if e.every_budget == Some(winner) {
                return 0;
            }
            let opp = c.child.threats[winner.other().index()].min(MAX_THREATS) as i8;
            let proven = if winner == Side::Defender {
                &e.defender
            } else {
                &e.attacker
            };
            (0..=own)
                .find(|&i| proven[i as usize] >= opp)
                .unwrap_or(own)
        };
        if mover_wins {
            // The winning child that needs the fewest.
            (0..cands.len())
                .filter(|&i| kids[i].1 == 0)
                .map(|i| needed_at(self, i) + (cands[i].new_line == Some(1)) as u8)
                .min()
                .unwrap_or(pos.threats[winner.index()].min(MAX_THREATS))
        } else {
            (0..cands.len())
                .map(|i| needed_at(self, i))
                .max()
                .unwrap_or(0)
        }
    }

    /// Records that the side to move of `pos` wins (`mover_wins`) or loses under its budgets
    /// (for every budget of the winner from `needed` up, `threats_needed`), or under every
    /// budget when the proof is `clean`.
    pub(super) fn record_proof(
        &mut self,
        pos: &Position,
        mover_wins: bool,
        clean: bool,
        needed: u8,
    ) {
        let key = Solver::proof_key(pos);
        let slot = self.tt_index(key);
        let e = &mut self.proofs[slot];
        if e.generation != self.generation || e.key != key {
            *e = ProofEntry {
                key,
                generation: self.generation,
                defender: [-1; MAX_THREATS as usize + 1],
                attacker: [-1; MAX_THREATS as usize + 1],
                every_budget: None,
            };
        }
        if clean {
            e.every_budget = Some(winner_of(pos, mover_wins));
        }
        let [a, d] = pos.threats.map(|t| t.min(MAX_THREATS) as usize);
        let needed = needed as usize;
        if mover_wins == (pos.to_move == Side::Defender) {
            let d = needed.min(d);
            e.defender[d] = e.defender[d].max(a as i8);
        } else {
            let a = needed.min(a);
            e.attacker[a] = e.attacker[a].max(d as i8);
        }
    }
}
