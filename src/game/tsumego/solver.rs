//! The life-and-death solver: proof-number search (df-pn, the default) or depth-first AND/OR
//! search over win/loss, each with a transposition table and ordered by the weighted heuristic,
//! and the status sweep over ko threats.
//!
//! A node is a position with the side to move. Terminal tests (`life::decided`) end the search;
//! a position they decide is a leaf, counted the first time the problem's search meets it
//! (`count_leaf`). Otherwise every legal move is scored by the heuristic.
//! - df-pn (`Search::DfPn`, Nagai's depth-first proof-number search, with Pawlewicz and Lew's
//!   1+epsilon thresholds): a node's children are expanded with their terminal tests;
//!   unsearched children start with numbers from the defender's eye space, the one the parent
//!   minimises growing with their place in the heuristic's order (`initial_numbers`); the
//!   child with the smallest disproof number (the first of equals in that order) is searched
//!   next. So the weights still decide the order and the cost (the GA's genes), never the
//!   answer; a leaf is "a terminal position reached", once per problem (GoTools' terminal
//!   leaf), however often the search meets it. Forced moves (Tsumego Explorer's): an
//!   unsearched child where the opponent still wins at once by a point where it won before
//!   the move (`threats_now`, `wins_at_once`) is lost without being expanded.
//! - The plain search (`Search::AlphaBeta`): best first; the first winning child returns.
//!
//! Legal: empty points that are not suicide and do not repeat a position of the current line
//! (positional superko within the line), and the pass. The rules of the model, chosen to count
//! as GoTools counts (checked on GoTools' own problems with `gamelab check-gotools`):
//! - **Ko threats.** A side with external ko threats left may repeat a position anyway,
//!   spending a threat: a retake after a threat elsewhere. The retake starts a new line from
//!   its parent (`Candidate::new_line`): after a threat and its answer the whole board has
//!   changed, so only the opponent's immediate retake (the simple ko) is still a repetition,
//!   while an older position of the line may be played again. So a double ko gives life (the
//!   defender always has the other ko to take), as in GoTools, where superko over the whole line
//!   made it a ko the attacker won with one threat.
//! - **Passes.** Both sides may pass (wait). The second pass in a row starts the *judging
//!   phase* (`after_pass`): the same stones, the other side to move, a new line, the defender's
//!   external threats gone (the attacker removes them before it starts a fight; its own are
//!   kept). In the judging phase the attacker may not pass (the defender would pass back and
//!   live) and two passes in a row are the defender's life. So a defender that can only wait
//!   while the attacker may start a ko at leisure (bent four in the corner) is dead, and a seki
//!   (where whoever plays first loses) is alive. Before this model the attacker never passed
//!   and two passes were life: ko statuses differed from GoTools' on 18% of the questions
//!   solved, nearly always ours closer to a ko.
//!
//! Why the bans are not lifted by a pass: with the bans lifted, lines like "the defender
//! passes, the attacker throws in, the defender captures, the defender passes..." never repeat
//! within a sequence, and the search ran into its depth cap on level-3 problems. A new line
//! starts only where the model says the whole board changed (a threat, the judging phase), a
//! bounded number of times, so the search has no cycles.
//!
//! Results are stored in the table under (stones, side to move, passes, threat budgets, judging phase, ko
//! point); a node or depth cap gives "unknown", which is never stored, and a solve whose
//! winning first moves cannot all be decided within the budget is `unknown` too (never a status
//! with a cut list of moves). The search's result never depends on the weights, only its cost
//! does (a property test over generated problems and random weights checks the status and the
//! winning moves). Graph-history interaction: a result that rests on a repetition ban of a
//! position above its node (the line that reached it) is not stored, since another line to the
//! same position may not have that position to repeat; each node tracks the earliest place on
//! the line its subtree's bans referred to (`ban_floor`), the cheap form of the fix the df-pn
//! literature describes (Kishimoto and Müller store such results with their conditions).
//!
//! Across the status sweep's solves: more threats only add moves, so a proof that a side wins
//! with `t` threats against `u` holds with more than `t` against fewer than `u`. df-pn records
//! every proof it stores in a table keyed without the budgets (`proofs`), and every solve reads
//! the proofs there that hold for its budgets, the earlier solves' and its own under other
//! budgets (a test checks the statuses and moves against the plain search, which does not share
//! them). And the terminal test of a position is memoised for the problem (`DecidedMemo`): df-pn
//! tests each child again at every re-expansion; the memo saves the work and marks the positions
//! already counted as leaves.
//!
//! The transposition table is the "hash database" of the report, always on; the rules page's
//! "TT move first" shows through the `hash_move` dynamic feature, since a table hit with a
//! result returns at once. The dynamic tables (history, killers, counter-moves, hash moves)
//! live for one problem: they carry over between the solves of its status sweep and are reset
//! for the next problem, so a problem's counts do not depend on the problems solved before it
//! (or on the thread that solved it).

use super::board::{Bits, Move, Position, Region, Side, bit};
use super::heuristic::{DYNAMIC_UNIT, N_DYNAMIC, N_STATIC, PASS_FEATURE, WINS_NOW, Weights};
use super::life::{decided, enclosed_regions, eye_space};
use super::problem::Problem;
// A problem's answer and the threat budgets it counts are the problem's (`problem`); the
// solver finds them.
pub use super::problem::{MAX_THREATS, Status};
use std::time::Instant;

const PASS: u8 = 64;
const NONE: u8 = 255;

/// Search effort of one solve (or of a whole problem's sweep).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counters {
    pub nodes: u64,
    /// Terminal positions reached (the report's "terminal leaves").
    pub leaves: u64,
    pub tt_hits: u64,
    /// Children found proven by a proof made under other threat budgets (`Solver::proofs`).
    pub proofs_shared: u64,
    pub max_depth: u32,
    pub time_s: f64,
}

/// Limits of a problem's search.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// Nodes per problem (the whole status sweep); past it the status is unknown.
    pub node_budget: u64,
    /// Plies from the problem's position; deeper lines are unknown.
    pub max_depth: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            node_budget: 2_000_000,
            max_depth: 80,
        }
    }
}

impl Limits {
    /// The default limits with another node budget.
    pub fn with_budget(node_budget: u64) -> Limits {
        Limits {
            node_budget,
            ..Limits::default()
        }
    }
}

/// The result of solving a problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub status: Status,
    /// Winning first moves of the side to move without ko threats (empty when it loses or
    /// when not asked for).
    pub winning_moves: Vec<Move>,
    pub counters: Counters,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Val {
    Win,
    Loss,
    Unknown,
}

impl std::ops::Neg for Val {
    type Output = Val;
    fn neg(self) -> Val {
        match self {
            Val::Win => Val::Loss,
            Val::Loss => Val::Win,
            Val::Unknown => Val::Unknown,
        }
    }
}

#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    generation: u32,
    win: bool,
}

/// A candidate move of a node, with its child position and heuristic score.
#[derive(Clone, Copy)]
struct Candidate {
    mv: u8,
    score: f64,
    child: Position,
    /// The child's terminal test, when the heuristic already ran it.
    decided: Option<Option<Side>>,
    /// The move captured stones.
    captures: bool,
    /// The move starts a new line for the repetition bans, which then look only at positions
    /// from this child (`Some(0)`: the second pass in a row, which starts the judging phase)
    /// or from its parent (`Some(1)`: a retake after an external ko threat, where the whole
    /// board has changed, but the opponent's immediate retake is still the simple ko).
    new_line: Option<usize>,
}

/// The search learning of one problem (the dynamic features' sources).
struct Learning {
    history: [[u32; 65]; 2],
    history_max: [u32; 2],
    killers: Vec<[u8; 2]>,
    counter: [[u8; 65]; 2],
    hash_moves: Vec<(u64, u8)>,
}

const HASH_MOVE_BITS: u32 = 14;

impl Learning {
    fn new() -> Learning {
        Learning {
            history: [[0; 65]; 2],
            history_max: [0; 2],
            killers: Vec::new(),
            counter: [[NONE; 65]; 2],
            hash_moves: vec![(0, NONE); 1 << HASH_MOVE_BITS],
        }
    }
    fn reset(&mut self) {
        self.history = [[0; 65]; 2];
        self.history_max = [0; 2];
        self.killers.iter_mut().for_each(|k| *k = [NONE; 2]);
        self.counter = [[NONE; 65]; 2];
        self.hash_moves.iter_mut().for_each(|e| *e = (0, NONE));
    }
    /// Starts loading the slot `hash_move(hash)` reads.
    fn prefetch(&self, hash: u64) {
        prefetch(&self.hash_moves, slot_of(hash, HASH_MOVE_BITS));
    }

    fn hash_move(&self, hash: u64) -> u8 {
        let e = self.hash_moves[slot_of(hash, HASH_MOVE_BITS)];
        if e.0 == hash { e.1 } else { NONE }
    }
}

/// Facts about a node's position that every candidate's features read.
struct NodeFacts {
    me: Side,
    own: u64,
    opp: u64,
    empty: u64,
    /// Chain masks and liberty masks, own and opponent, with a point -> chain map.
    chain_of: [u8; 64],
    chains: Vec<(u64, u64, bool)>,
    own_eyes: u64,
    opp_eyes: u64,
    /// Points of the defender's enclosed regions (not touching the wall).
    enclosed: u64,
    vital: u64,
}

/// A solver with its table and learning; reuse one per thread.
pub struct Solver {
    tt: Vec<TtEntry>,
    tt_bits: u32,
    generation: u32,
    learning: Learning,
    buffers: Vec<Vec<Candidate>>,
    /// Hashes of the positions from the root (the repetition ban reads them), and how many
    /// of the moves on that line captured.
    path: Vec<u64>,
    /// Where the current line starts in `path`: 0, or the judging phase's first position.
    line_start: usize,
    captures_on_line: u32,
    /// The node facts' chain buffer, reused from node to node.
    chains: Vec<(u64, u64, bool)>,
    counters: Counters,
    limits: Limits,
    out_of_budget: bool,
    // The problem being solved.
    region: Region,
    targets: u64,
    weights: Weights,
    use_static: bool,
    use_dynamic: bool,
    /// A retake was banned somewhere in the search (so ko threats may matter).
    ban_seen: bool,
    /// A move of the side to move was banned (or needed a threat) at the node `candidates`
    /// last listed.
    node_ban: bool,
    /// The earliest place on the line (an index into `path`) that a repetition ban met in the
    /// current subtree refers to: a subtree whose bans all refer to its own line has a result
    /// of its position alone; one that refers higher has a result of the line that reached it.
    ban_floor: usize,
    /// The seki test's search (`lives_in_seki`): the attacker may pass, and two passes in a
    /// row count as the defender's death, so the defender lives only by unconditional life.
    two_eyes_only: bool,
    /// A wall-clock limit per solve (`set_time_limit`): past it the search is out of budget.
    /// Not part of `Limits`, which experiments record: a time limit makes results depend on
    /// the machine, so only the GoTools check (`workflow::compare_gotools`) sets it.
    time_limit: Option<std::time::Duration>,
    deadline: Option<Instant>,
    /// The search: depth-first proof-number search (`Search::DfPn`, the default) or the plain
    /// depth-first AND/OR search (`Search::AlphaBeta`).
    search: Search,
    /// df-pn's table of proof and disproof numbers (its own, beside `tt`).
    pn_tt: Vec<PnEntry>,
    /// Proofs across threat budgets: more threats only add moves (retakes), so a side proven to
    /// win with `t` threats against `u` wins with more than `t` against fewer than `u`. The
    /// status sweep's solves differ in their budgets, so they miss each other's proofs in
    /// `pn_tt` (whose key holds the budgets); this table, keyed without them, lets a solve read
    /// every proof that holds for it: an earlier solve's, and its own under other budgets (a
    /// retake spends a threat, so one solve meets a position with several budgets left; reading
    /// them in the sweep's first solve too took lv4.6's status solves from 17.1M nodes to 16.0M).
    proofs: Vec<ProofEntry>,
    /// The terminal tests of this problem so far.
    decided_memo: DecidedMemo,
    /// Per ply: the children's (proof, disproof) numbers of the node being searched there.
    pn_kids: Vec<Vec<(u32, u32)>>,
    /// Per ply, the ko threats each proven child's winner needs (`threats_needed`; NEEDS_LOOKUP
    /// where the proof table is to be asked).
    pn_needs: Vec<Vec<u8>>,
    /// `candidates`' moves between its two passes (point, child, what the move did, retake).
    played: Vec<(usize, Position, super::board::PlayInfo, bool)>,
    /// A line reached the depth cap in this solve: a df-pn result is then unknown.
    depth_cut: bool,
    /// The terminal positions this problem's searches met (memo keys), and how many times.
    #[cfg(test)]
    leaves_met: (std::collections::HashSet<u64>, u64),
}

/// Which search the solver runs (the same answers, other costs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Search {
    /// Depth-first proof-number search (df-pn), children in the heuristic's order.
    #[default]
    #[value(name = "dfpn")]
    DfPn,
    /// Depth-first AND/OR search, first winning child returns, children in the heuristic's order.
    #[value(name = "alphabeta")]
    AlphaBeta,
}

/// A df-pn table entry: proof and disproof numbers for the side to move of position `key`.
#[derive(Clone, Copy, Default)]
struct PnEntry {
    key: u64,
    generation: u32,
    phi: u32,
    delta: u32,
}

/// A proof-table entry (`Solver::proofs`): what is proven about one position (stones, side to
/// move, passes, judging phase, ko point) under the threat budgets met so far, whatever the
/// budgets. `defender[d]`: the most attacker threats against which the defender is proven to
/// live with `d` threats of its own (-1: none); `attacker[a]`: the most defender threats
/// against which the attacker is proven to kill with `a` of its own.
#[derive(Clone, Copy, Default)]
struct ProofEntry {
    key: u64,
    generation: u32,
    defender: [i8; MAX_THREATS as usize + 1],
    attacker: [i8; MAX_THREATS as usize + 1],
    /// A proof that holds under every budget (`Solver::clean`): the side it proves to win, or
    /// None.
    every_budget: Option<Side>,
}

/// A memo of the terminal test (`life::decided`) for one problem: df-pn expands a node again
/// each time it comes back to it, and every expansion tests each child, so most tests repeat.
/// It also marks the positions already counted as leaves, so a leaf counts once per problem
/// (a position whose slot another took meanwhile counts again: rare, with 2^20 slots).
struct DecidedMemo {
    /// (key, generation, result: 0 undecided, 1 attacker, 2 defender, plus `LEAF_COUNTED` once
    /// the position was counted as a leaf; eye space: `life::eye_space` as (space, eyes), or
    /// `NO_SPACE` before it is asked for).
    entries: Vec<(u64, u32, u8, (u8, u8))>,
    generation: u32,
    /// log2 of the number of entries.
    bits: u32,
}

const NO_SPACE: (u8, u8) = (u8::MAX, u8::MAX);
/// The memo's flag for a terminal position already counted as a leaf (`DecidedMemo::first_leaf`).
const LEAF_COUNTED: u8 = 4;

impl DecidedMemo {
    /// A memo of 2^`bits` entries (16 bytes each).
    fn new(bits: u32) -> DecidedMemo {
        DecidedMemo {
            bits,
            entries: huge_table(1 << bits),
            generation: 0,
        }
    }

    /// Forgets every entry (a new problem: another region and other targets).
    fn reset(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.clear();
            self.generation = 1;
        }
    }

    /// Empties every slot (writing each one).
    fn clear(&mut self) {
        self.entries.fill((0, 0, 0, NO_SPACE));
    }

    /// `decided(region, pos, targets)`, from the memo when this problem tested the same stones.
    fn decided(&mut self, region: &Region, pos: &Position, targets: u64) -> Option<Side> {
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
    fn first_leaf(&mut self, pos: &Position) -> bool {
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
    fn eye_space(&mut self, region: &Region, pos: &Position) -> (u32, u32) {
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
    fn prefetch(&self, pos: &Position) {
        prefetch(&self.entries, self.slot(pos).1);
    }

    /// The position's key in the memo (two passes are a different terminal test) and its slot.
    fn slot(&self, pos: &Position) -> (u64, usize) {
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
fn slot_of(key: u64, bits: u32) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
}

/// A table entry whose all-zero bytes are a valid value (integers, bools, and an
/// `Option<Side>`, whose zero is `Some(Attacker)`). A zeroed slot is never read as an entry:
/// its generation is 0, and the solver's and the memo's generations start at 1 (`start`,
/// `DecidedMemo::reset`) before any lookup.
///
/// # Safety
/// Only for types whose every field accepts the all-zero bit pattern.
unsafe trait ZeroValid: Copy {}

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
fn huge_table<T: ZeroValid>(len: usize) -> Vec<T> {
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
fn prefetch<T>(table: &[T], slot: usize) {
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

/// The table size (`Solver::new`) for one deep question at a time: `gamelab solve` and
/// `check-gotools` (one solver a thread), 2^23 slots, up to 740 MB a solver (taken as the
/// search writes: `huge_table`). A 10-second level-14 search reaches about 7M nodes; with 2^20
/// slots (the experiments' size, which many short solves fill only in part) its numbers were
/// overwritten many times over. Measured on 100 level-14 questions at 6M nodes a question
/// (seed 2, with `node_numbers`' cap): solved 88 with 2^20, 91 with 2^22, 2^23 or 2^24; nodes
/// on the 88 all solved 102.6M, 94.2M, 91.7M, 90.1M.
pub const DEEP_TABLE_BITS: u32 = 23;

/// df-pn's infinity (a proof or disproof number that can never be reached).
const INF: u32 = 1 << 30;

impl Solver {
    /// A solver whose tables have 2^`tt_bits` entries each (88 bytes a slot over the four: the
    /// plain search's, df-pn's numbers, the proofs and the terminal-test memo).
    pub fn new(tt_bits: u32) -> Solver {
        Solver {
            tt: huge_table(1 << tt_bits),
            tt_bits,
            generation: 0,
            learning: Learning::new(),
            buffers: Vec::new(),
            path: Vec::new(),
            line_start: 0,
            captures_on_line: 0,
            chains: Vec::with_capacity(64),
            counters: Counters::default(),
            limits: Limits::default(),
            out_of_budget: false,
            region: Region::new(1, vec![], vec![]),
            targets: 0,
            weights: Weights::zero(),
            use_static: false,
            use_dynamic: false,
            ban_seen: false,
            node_ban: false,
            ban_floor: usize::MAX,
            two_eyes_only: false,
            time_limit: None,
            deadline: None,
            search: Search::default(),
            pn_tt: huge_table(1 << tt_bits),
            proofs: huge_table(1 << tt_bits),
            decided_memo: DecidedMemo::new(tt_bits),
            pn_kids: Vec::new(),
            pn_needs: Vec::new(),
            played: Vec::with_capacity(64),
            depth_cut: false,
            #[cfg(test)]
            leaves_met: Default::default(),
        }
    }

    /// Empties every slot of the tables, writing each one: when the generation counter wraps
    /// (`start`), and so that a timed search does not pay the system's first touch of their
    /// pages (`huge_table` takes them lazily): `check-gotools` calls it when it makes a
    /// thread's solver, and its first questions' nodes/s read as the others'.
    pub fn clear_tables(&mut self) {
        self.tt.fill(TtEntry::default());
        self.pn_tt.fill(PnEntry::default());
        self.proofs.fill(ProofEntry::default());
        self.decided_memo.clear();
    }

    /// A wall-clock limit for each later search (a solve: the whole status sweep and its moves); past it
    /// the status is unknown, as past the node budget. None: no time limit.
    pub fn set_time_limit(&mut self, limit: Option<std::time::Duration>) {
        self.time_limit = limit;
    }

    /// Solves a problem: its status (the sweep over ko threats) and, if asked, every winning
    /// first move of the side to move.
    pub fn solve(
        &mut self,
        problem: &Problem,
        weights: &Weights,
        limits: Limits,
        with_moves: bool,
    ) -> Solution {
        let t0 = Instant::now();
        self.start(problem, weights, limits);
        let root = problem.start;
        let status = self.status(&root);
        let mut winning_moves = Vec::new();
        let mut status = status;
        if with_moves && status.mover_wins(root.to_move) == Some(true) {
            // Out of budget (or depth) before every first move is decided: the list would be
            // cut, so the answer is unknown rather than a status without its moves.
            match self.winning_moves(&root) {
                Some(moves) if !moves.is_empty() => winning_moves = moves,
                _ => status = Status::Unknown,
            }
        }
        self.counters.time_s = t0.elapsed().as_secs_f64();
        Solution {
            status,
            winning_moves,
            counters: self.counters,
        }
    }

    /// Whether the defender's life is seki: it lives without ko threats, but cannot reach
    /// unconditional life (Benson) against best play, so both sides end up passing with its
    /// stones on the board and without two eyes. `Some(false)` when it dies or makes two eyes;
    /// None when a search runs out of its node budget (each of the two searches has `limits`).
    /// A separate search from `solve`: its counters are not the problem's.
    pub fn lives_in_seki(
        &mut self,
        problem: &Problem,
        weights: &Weights,
        limits: Limits,
    ) -> Option<bool> {
        self.start(problem, weights, limits);
        let root = problem.start;
        if decided(&self.region, &root, self.targets).is_some() {
            return Some(false);
        }
        if !self.defender_lives(&root, 0, 0)? {
            return Some(false);
        }
        self.start(problem, weights, limits);
        self.two_eyes_only = true;
        let unconditional = self.defender_lives(&root, 0, 0);
        self.two_eyes_only = false;
        Some(!unconditional?)
    }

    /// The heuristic's ranking of the legal first moves of a problem (best first), without
    /// search: what the static fitness reads.
    pub fn rank_first_moves(&mut self, problem: &Problem, weights: &Weights) -> Vec<Move> {
        self.start(problem, weights, Limits::default());
        self.root_path(&problem.start);
        let cands = self.candidates(&problem.start, 0, NONE, NONE, NONE);
        cands.iter().map(|c| to_move(c.mv)).collect()
    }

    fn start(&mut self, problem: &Problem, weights: &Weights, limits: Limits) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.clear_tables();
            self.generation = 1;
        }
        self.learning.reset();
        self.decided_memo.reset();
        #[cfg(test)]
        {
            self.leaves_met = Default::default();
        }
        self.counters = Counters::default();
        self.limits = limits;
        self.out_of_budget = false;
        self.deadline = self.time_limit.map(|l| Instant::now() + l);
        self.depth_cut = false;
        self.region = problem.region.clone();
        self.targets = problem.targets;
        self.weights = weights.clone();
        self.use_static = weights.statics.iter().any(|&w| w != 0.0);
        self.use_dynamic = weights.uses_dynamic();
        self.path.clear();
        self.two_eyes_only = false;
    }

    fn root_path(&mut self, root: &Position) {
        self.path.clear();
        self.path.push(root.hash);
        self.line_start = 0;
        self.captures_on_line = 0;
    }

    /// Whether the defender of `problem` lives with these threat budgets, solved alone (a fresh
    /// solve that reads no proof of other budgets): what the status sweep's answer is checked
    /// against.
    #[cfg(test)]
    pub(super) fn defender_lives_alone(
        &mut self,
        problem: &Problem,
        weights: &Weights,
        limits: Limits,
        attacker_threats: u8,
        defender_threats: u8,
    ) -> Option<bool> {
        self.start(problem, weights, limits);
        if let Some(winner) = decided(&self.region, &problem.start, self.targets) {
            return Some(winner == Side::Defender);
        }
        self.defender_lives(&problem.start, attacker_threats, defender_threats)
    }

    /// After solves of `problem` under each of `budgets` (attacker's, defender's threats) in
    /// turn, whether the proof table alone says the defender lives (Some(true)) or dies at the
    /// start under budgets `query`.
    #[cfg(test)]
    pub(super) fn proven_after(
        &mut self,
        problem: &Problem,
        budgets: &[(u8, u8)],
        query: (u8, u8),
    ) -> Option<bool> {
        self.start(problem, &Weights::reference(), Limits::default());
        for &(a, d) in budgets {
            self.defender_lives(&problem.start, a, d)?;
        }
        let mut p = problem.start;
        p.threats = [query.0, query.1];
        let mover_wins = self.proven_elsewhere(&p)?;
        Some(mover_wins == (p.to_move == Side::Defender))
    }

    /// Whether the defender lives from `pos` with the given threat budgets (None: unknown).
    fn defender_lives(
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
    fn status(&mut self, root: &Position) -> Status {
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

    /// Chooses the search for later solves (df-pn by default).
    pub fn set_search(&mut self, search: Search) {
        self.search = search;
    }

    /// The counters of the last search (`solve`, `first_move_wins`, ...).
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// Whether first move `mv` wins for the side to move of `problem` without ko threats (None:
    /// out of budget or time, or not a legal move). One search of that move alone, within
    /// `limits`: what a check of a recorded winning move needs, without deciding every move.
    pub fn first_move_wins(
        &mut self,
        problem: &Problem,
        weights: &Weights,
        limits: Limits,
        mv: Move,
    ) -> Option<bool> {
        self.start(problem, weights, limits);
        let mut p = problem.start;
        p.threats = [0, 0];
        self.root_path(&p);
        let want = match mv {
            Move::Play(i) => i,
            Move::Pass => PASS,
        };
        let cands = self.candidates(&p, 0, NONE, NONE, NONE);
        let top = cands.first().map_or(NONE, |c| c.mv);
        let c = *cands.iter().find(|c| c.mv == want)?;
        let v = self.descend(&c, 0, NONE, top);
        self.recycle(0, cands);
        match v {
            Val::Win => Some(true),
            Val::Loss => Some(false),
            Val::Unknown => None,
        }
    }

    /// Every first move that wins for the side to move without ko threats; None when a move's
    /// search ran out of its budget or depth (the list would be incomplete).
    fn winning_moves(&mut self, root: &Position) -> Option<Vec<Move>> {
        let mut p = *root;
        p.threats = [0, 0];
        self.root_path(&p);
        let cands = self.candidates(&p, 0, NONE, NONE, NONE);
        let top = cands.first().map_or(NONE, |c| c.mv);
        let mut wins = Vec::new();
        for c in &cands {
            match self.descend(c, 0, NONE, top) {
                Val::Win => wins.push(to_move(c.mv)),
                Val::Unknown => return None,
                Val::Loss => {}
            }
        }
        wins.sort_by_key(|m| match m {
            Move::Play(i) => *i as u16,
            Move::Pass => 64,
        });
        Some(wins)
    }

    fn tt_index(&self, key: u64) -> usize {
        slot_of(key, self.tt_bits)
    }

    /// The proof table's key: `tt_key` without the threat budgets.
    fn proof_key(pos: &Position) -> u64 {
        let mut p = *pos;
        p.threats = [0, 0];
        Solver::tt_key(&p)
    }

    /// Whether the side to move of `pos` is proven to win (Some(true)) or to lose (Some(false))
    /// under its threat budgets by a proof made under other budgets that dominate them.
    fn proven_elsewhere(&self, pos: &Position) -> Option<bool> {
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
    fn clean(
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
    fn threats_needed(
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
    fn record_proof(&mut self, pos: &Position, mover_wins: bool, clean: bool, needed: u8) {
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

    fn tt_key(pos: &Position) -> u64 {
        const PASS_KEY: u64 = 0x5851_f42d_4c95_7f2d;
        const KO_KEY: u64 = 0x2545_f491_4f6c_dd1d;
        const THREAT_KEYS: [u64; 2] = [0x1405_7b7e_f767_814f, 0xd1b5_4a32_d192_ed03];
        const JUDGING_KEY: u64 = 0x94d0_49bb_1331_11eb;
        let mut k = pos.hash;
        if pos.passes > 0 {
            k ^= PASS_KEY;
        }
        if pos.judging {
            k ^= JUDGING_KEY;
        }
        k ^= THREAT_KEYS[0].wrapping_mul(pos.threats[0] as u64)
            ^ THREAT_KEYS[1].wrapping_mul(pos.threats[1] as u64);
        k ^= KO_KEY.wrapping_mul(pos.ko as u64 + 1).rotate_left(17);
        k
    }

    /// Negamax over win/loss/unknown for the side to move. `last` is the opponent's last move,
    /// `prev` the mover's own previous move, `favourite` the opponent's best-ranked move at the
    /// parent.
    fn search(&mut self, pos: &Position, ply: u32, last: u8, prev: u8, favourite: u8) -> Val {
        self.search_with(pos, ply, last, prev, favourite, None)
    }

    fn search_with(
        &mut self,
        pos: &Position,
        ply: u32,
        last: u8,
        prev: u8,
        favourite: u8,
        known: Option<Option<Side>>,
    ) -> Val {
        if self.search == Search::DfPn {
            return self.dfpn_value(pos, ply, last, prev, favourite, known);
        }
        self.count_node(ply);
        if self.budget_spent() {
            return Val::Unknown;
        }
        if let Some(v) = self.terminal_value(pos, known) {
            return v;
        }
        if ply >= self.limits.max_depth {
            return Val::Unknown;
        }
        let key = Solver::tt_key(pos);
        let slot = self.tt_index(key);
        let e = self.tt[slot];
        if e.generation == self.generation && e.key == key {
            self.counters.tt_hits += 1;
            return if e.win { Val::Win } else { Val::Loss };
        }
        // Graph-history interaction: the bans met below are this node's business only if they
        // refer to its own line (path index `ply` and below it).
        let outer_floor = std::mem::replace(&mut self.ban_floor, usize::MAX);
        let cands = self.candidates(pos, ply, last, prev, favourite);
        let top = cands.first().map_or(NONE, |c| c.mv);
        let mut any_unknown = false;
        let mut result = Val::Loss;
        for c in &cands {
            let v = self.descend(c, ply, last, top);
            match v {
                Val::Win => {
                    self.learn(pos, ply, c.mv, last);
                    result = Val::Win;
                    break;
                }
                Val::Unknown => {
                    any_unknown = true;
                    if self.out_of_budget {
                        break;
                    }
                }
                Val::Loss => {}
            }
        }
        self.recycle(ply, cands);
        let floor = self.ban_floor;
        self.ban_floor = outer_floor.min(floor);
        if result != Val::Win && any_unknown {
            return Val::Unknown;
        }
        // A result that rests on a ban of a position above this node holds for this line only:
        // another line to the same position may not have that position to repeat.
        if floor >= ply as usize {
            self.tt[slot] = TtEntry {
                key,
                generation: self.generation,
                win: result == Val::Win,
            };
        }
        result
    }

    /// Who has won at `pos` if the search may stop there (`known`: the heuristic already ran
    /// the test): `life::decided`, and in the seki test two passes kill.
    fn terminal(&mut self, pos: &Position, known: Option<Option<Side>>) -> Option<Side> {
        match known {
            Some(d) => d,
            None if self.two_eyes_only && pos.passes >= 2 => Some(Side::Attacker),
            None => self.decided_memo.decided(&self.region, pos, self.targets),
        }
    }

    /// `terminal` as the mover's value, counting the leaf.
    fn terminal_value(&mut self, pos: &Position, known: Option<Option<Side>>) -> Option<Val> {
        let winner = self.terminal(pos, known)?;
        self.count_leaf(pos);
        Some(if winner == pos.to_move {
            Val::Win
        } else {
            Val::Loss
        })
    }

    /// The value of `pos` by df-pn: its terminal test, else a proof-number search from it with
    /// infinite thresholds (until it is proven, disproven, or out of budget or time).
    fn dfpn_value(
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
    fn prefetch_numbers(&self, child: &Position) {
        prefetch(&self.pn_tt, self.tt_index(Solver::tt_key(child)));
        prefetch(&self.proofs, self.tt_index(Solver::proof_key(child)));
    }

    /// The stored (proof, disproof) numbers of a position's side to move, or (1, 1).
    fn pn_lookup(&self, key: u64) -> (u32, u32) {
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
    fn mid(
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

    /// The points where the opponent of the mover of `pos` would win at once (the terminal
    /// test) if it were its move: what a move of the mover must stop (`wins_at_once`).
    fn threats_now(&mut self, pos: &Position) -> u64 {
        if self.two_eyes_only {
            return 0;
        }
        let passed = pos.pass();
        let mut threats = 0;
        for p in Bits(pos.empty(&self.region)) {
            if let Some((g, _)) = passed.play(&self.region, p)
                && self.decided_memo.decided(&self.region, &g, self.targets) == Some(passed.to_move)
            {
                threats |= bit(p);
            }
        }
        threats
    }

    /// Whether the side to move of candidate `c`'s child wins at once by one of the `threats`
    /// (points where it won before the candidate's move): a move that does not stop the
    /// opponent's immediate win is lost without expanding its child (Tsumego Explorer's forced
    /// moves). The winning reply counts as a leaf; a reply that repeats a position of the line
    /// is not taken.
    fn wins_at_once(&mut self, c: &Candidate, threats: u64) -> bool {
        if c.new_line.is_some() {
            return false;
        }
        let child = c.child;
        for p in Bits(threats & child.empty(&self.region)) {
            let Some((g, info)) = child.play(&self.region, p) else {
                continue;
            };
            if self
                .repeated_at(g.hash, c.captures || info.captured != 0)
                .is_some()
            {
                continue;
            }
            if self.decided_memo.decided(&self.region, &g, self.targets) == Some(child.to_move) {
                self.count_leaf(&g);
                return true;
            }
        }
        false
    }

    /// Where on the current line (its place on the path) the position `hash` stood before, if
    /// it repeats one; `captured`: the moves since the path's end captured stones. Without a
    /// capture on the line a move adds a stone to every earlier position's count, so only then
    /// can it repeat one.
    #[inline]
    fn repeated_at(&self, hash: u64, captured: bool) -> Option<usize> {
        if self.captures_on_line == 0 && !captured {
            return None;
        }
        let start = self.line_start;
        self.path[start..]
            .iter()
            .position(|h| *h == hash)
            .map(|i| i + start)
    }

    /// Plays a candidate on the path and searches it; the value is the mover's.
    fn descend(&mut self, c: &Candidate, ply: u32, last: u8, top: u8) -> Val {
        -self.on_line(c, |me| {
            me.search_with(&c.child, ply + 1, c.mv, last, top, c.decided)
        })
    }

    /// Runs `f` with candidate `c` played on the line (its position on the path, its captures
    /// counted), and takes it back after.
    fn on_line<R>(&mut self, c: &Candidate, f: impl FnOnce(&mut Solver) -> R) -> R {
        self.path.push(c.child.hash);
        let line_start = self.line_start;
        if let Some(back) = c.new_line {
            self.line_start = self.path.len() - 1 - back;
        }
        self.captures_on_line += c.captures as u32;
        let r = f(self);
        self.captures_on_line -= c.captures as u32;
        self.line_start = line_start;
        self.path.pop();
        r
    }

    /// Counts terminal position `pos` as a leaf, once per problem: a leaf is a position the
    /// terminal test decides (GoTools' "terminal leaf"), not each time a search reaches it
    /// again (df-pn re-expands nodes as its thresholds grow; the plain search meets positions
    /// again by transposition).
    fn count_leaf(&mut self, pos: &Position) {
        #[cfg(test)]
        {
            let (key, _) = self.decided_memo.slot(pos);
            self.leaves_met
                .0
                .insert(key ^ (self.two_eyes_only && pos.passes >= 2) as u64);
            self.leaves_met.1 += 1;
        }
        if self.two_eyes_only && pos.passes >= 2 || self.decided_memo.first_leaf(pos) {
            self.counters.leaves += 1;
        }
    }

    /// The distinct terminal positions the last problem's searches met, and how many times
    /// they met one.
    #[cfg(test)]
    pub(super) fn leaf_positions_met(&self) -> (u64, u64) {
        (self.leaves_met.0.len() as u64, self.leaves_met.1)
    }

    /// Counts a node searched at `ply`.
    fn count_node(&mut self, ply: u32) {
        self.counters.nodes += 1;
        self.counters.max_depth = self.counters.max_depth.max(ply);
    }

    /// Whether the node budget or the time limit (looked at every 1024 nodes) is spent; sets
    /// `out_of_budget` when it is.
    fn budget_spent(&mut self) -> bool {
        if self.counters.nodes > self.limits.node_budget
            || (self.counters.nodes & 1023 == 0
                && self.deadline.is_some_and(|d| Instant::now() > d))
        {
            self.out_of_budget = true;
        }
        self.out_of_budget
    }

    fn recycle(&mut self, ply: u32, mut cands: Vec<Candidate>) {
        cands.clear();
        self.buffers[ply as usize] = cands;
    }

    /// Records a winning move for the dynamic features.
    fn learn(&mut self, pos: &Position, ply: u32, mv: u8, last: u8) {
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
    fn candidates(
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

fn to_move(mv: u8) -> Move {
    if mv == PASS {
        Move::Pass
    } else {
        Move::Play(mv)
    }
}

#[inline]
fn dot(w: &[f64], f: &[f64]) -> f64 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

/// Empty points all of whose neighbours are stones of `side` (the wall counts for the
/// attacker; a defender eye cannot touch the wall).
fn eye_points(region: &Region, pos: &Position, side: Side) -> u64 {
    let own = pos.of(side);
    let mut eyes = 0u64;
    for p in Bits(pos.empty(region)) {
        if region.nbr[p] & !own == 0 && (side == Side::Attacker || region.wall_count[p] == 0) {
            eyes |= bit(p);
        }
    }
    eyes
}

/// The facts of a node; `chains` is a reused buffer (the node's chains go into it).
fn node_facts(region: &Region, pos: &Position, mut chains: Vec<(u64, u64, bool)>) -> NodeFacts {
    let me = pos.to_move;
    let (own, opp) = (pos.of(me), pos.of(me.other()));
    let empty = pos.empty(region);
    let mut chain_of = [NONE; 64];
    chains.clear();
    for side in [me, me.other()] {
        for (chain, libs) in pos.chains(region, side) {
            for q in Bits(chain) {
                chain_of[q] = chains.len() as u8;
            }
            chains.push((chain, libs, Position::is_safe(region, side, chain)));
        }
    }
    let (mut enclosed, mut vital) = (0u64, 0u64);
    for (q, _) in enclosed_regions(region, pos) {
        enclosed |= q;
        if (3..=6).contains(&q.count_ones()) {
            // The vital point: the one point with the most neighbours inside the region.
            let (mut best, mut at_best, mut point) = (0, 0, 0);
            for p in Bits(q) {
                let degree = (region.nbr[p] & q).count_ones();
                if degree > best {
                    (best, at_best, point) = (degree, 1, p);
                } else if degree == best {
                    at_best += 1;
                }
            }
            if at_best == 1 {
                vital |= bit(point);
            }
        }
    }
    NodeFacts {
        me,
        own,
        opp,
        empty,
        chain_of,
        chains,
        own_eyes: eye_points(region, pos, me),
        opp_eyes: eye_points(region, pos, me.other()),
        enclosed,
        vital,
    }
}

/// The static features of playing point `p` (see `STATIC_FEATURES` for the order).
#[allow(clippy::too_many_arguments)]
fn static_features(
    region: &Region,
    targets: u64,
    f: &NodeFacts,
    p: usize,
    child: &Position,
    info: &super::board::PlayInfo,
    retake: bool,
    wins_now: bool,
) -> [f64; N_STATIC] {
    let mut x = [0.0; N_STATIC];
    let nbr = region.nbr[p];
    let libs_after = info.liberties.count_ones();
    // Adjacent chains, each once.
    let (mut own_adj, mut opp_adj) = (0u64, 0u64);
    let (mut n_own, mut n_opp, mut ataris, mut rescued) = (0u32, 0u32, 0u32, 0u32);
    let mut min_opp_libs = u32::MAX;
    for q in Bits(nbr & (f.own | f.opp)) {
        let c = f.chain_of[q] as usize;
        let (chain, libs, safe) = f.chains[c];
        if f.own & bit(q) != 0 {
            if own_adj & chain == 0 {
                own_adj |= chain;
                n_own += 1;
                if libs.count_ones() == 1 && !safe && (libs_after >= 2 || info.safe) {
                    rescued += 1;
                }
            }
        } else if opp_adj & chain == 0 {
            opp_adj |= chain;
            n_opp += 1;
            if chain & info.captured == 0 && !safe {
                let l = (libs & !bit(p)).count_ones();
                if l == 1 {
                    ataris += 1;
                }
                min_opp_libs = min_opp_libs.min(l.max(1));
            }
        }
    }
    x[0] = info.captured.count_ones() as f64;
    x[1] = (info.captured & targets).count_ones() as f64;
    x[2] = ataris as f64;
    x[3] = if libs_after == 1 && !info.safe {
        -1.0
    } else {
        0.0
    };
    x[4] = if info.safe {
        1.0
    } else {
        libs_after.min(4) as f64 / 4.0
    };
    x[5] = if min_opp_libs == u32::MAX {
        0.0
    } else {
        1.0 / min_opp_libs as f64
    };
    x[6] = rescued as f64;
    x[7] = n_own.saturating_sub(1) as f64;
    x[8] = n_opp.saturating_sub(1) as f64;
    x[9] = (nbr & f.empty).count_ones() as f64 / 4.0;
    x[10] = (region.diag[p] & f.empty).count_ones() as f64 / 4.0;
    let d = region.edge_distance[p];
    x[11] = (d == 0) as u8 as f64;
    x[12] = (d == 1) as u8 as f64;
    x[13] = (region.corners & bit(p) != 0) as u8 as f64;
    x[14] = (region.wall_adj & bit(p) != 0) as u8 as f64;
    x[15] = if f.own_eyes & bit(p) != 0 { -1.0 } else { 0.0 };
    x[16] = (f.opp_eyes & bit(p) != 0) as u8 as f64;
    if f.enclosed & bit(p) != 0 {
        let q = region.component(p, f.enclosed) & !bit(p);
        x[17] = (region.parts(q).nth(1).is_some()) as u8 as f64;
    }
    let own_after = child.of(f.me);
    let mut completed = 0;
    for q in Bits(nbr & f.empty & !f.own_eyes) {
        if region.nbr[q] & !own_after == 0 && (f.me == Side::Attacker || region.wall_count[q] == 0)
        {
            completed += 1;
        }
    }
    x[18] = completed as f64;
    x[19] = (region.diag[p] & f.opp_eyes).count_ones() as f64;
    let lone = info.chain == bit(p);
    x[20] = (lone && libs_after == 1 && !info.safe && nbr & f.own == 0) as u8 as f64;
    x[21] = (lone && libs_after == 1 && info.captured.count_ones() == 1) as u8 as f64;
    x[22] = retake as u8 as f64;
    x[23] = (f.vital & bit(p) != 0) as u8 as f64;
    x[24] = (region.one_two & bit(p) != 0) as u8 as f64;
    x[WINS_NOW] = wins_now as u8 as f64;
    x[26] = (nbr & f.own).count_ones() as f64 / 4.0;
    x[27] = (nbr & f.opp).count_ones() as f64 / 4.0;
    let defender = if f.me == Side::Defender { f.own } else { f.opp };
    x[28] = (nbr & defender & targets != 0) as u8 as f64;
    x
}

/// The dynamic features of move `mv` (a point or PASS).
#[allow(clippy::too_many_arguments)]
fn dynamic_features(
    region: &Region,
    l: &Learning,
    pos: &Position,
    ply: u32,
    mv: u8,
    last: u8,
    prev: u8,
    favourite: u8,
    hash_move: u8,
) -> [f64; N_DYNAMIC] {
    let mut x = [0.0; N_DYNAMIC];
    let s = pos.to_move.index();
    let o = 1 - s;
    let m = mv as usize;
    x[0] = l.history[s][m] as f64 / (l.history_max[s] + 1) as f64;
    x[1] = l.history[o][m] as f64 / (l.history_max[o] + 1) as f64;
    let k = l.killers[ply as usize];
    x[2] = (k[0] == mv) as u8 as f64;
    x[3] = (k[1] == mv) as u8 as f64;
    x[4] = (last != NONE && l.counter[s][last as usize] == mv) as u8 as f64;
    x[5] = (hash_move == mv) as u8 as f64;
    x[6] = (favourite == mv) as u8 as f64;
    if mv != PASS {
        let nbr = region.nbr[m];
        x[7] = (last != NONE && last != PASS && nbr & bit(last as usize) != 0) as u8 as f64;
        x[8] = (prev != NONE && prev != PASS && nbr & bit(prev as usize) != 0) as u8 as f64;
        // Suicide for the opponent: surrounded by the mover's stones (and, for the attacker,
        // the wall), none of whose chains it would take the last liberty of.
        let me = pos.to_move;
        let own = pos.of(me);
        let empty = pos.empty(region);
        if nbr & !own == 0 && (me == Side::Attacker || region.wall_count[m] == 0) {
            let mut captures = false;
            for q in Bits(nbr) {
                let (chain, adj) = region.chain(q, own);
                if !Position::is_safe(region, me, chain) && (adj & empty).count_ones() == 1 {
                    captures = true;
                    break;
                }
            }
            if !captures {
                x[9] = -1.0;
            }
        }
    }
    x
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
fn node_numbers(kids: &[(u32, u32)]) -> (u32, u32, usize, u32) {
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
fn initial_numbers((space, eyes): (u32, u32), child: &Position, rank: u32) -> (u32, u32) {
    let attacker = 1 + EYE_SPACE_WEIGHT * space;
    let defender = 1 + 2u32.saturating_sub(eyes);
    let order = RANK_WEIGHT * rank;
    if child.to_move == Side::Attacker {
        (attacker, defender + order)
    } else {
        (defender, attacker + order)
    }
}

/// The side that wins at `pos`: its mover when `mover_wins`, else the other.
fn winner_of(pos: &Position, mover_wins: bool) -> Side {
    if mover_wins {
        pos.to_move
    } else {
        pos.to_move.other()
    }
}

/// `Solver::pn_needs` for a child whose threats needed are to be read from the proof table.
const NEEDS_LOOKUP: u8 = u8::MAX;

/// The attacker's initial proof number per point of the defender's eye space.
const EYE_SPACE_WEIGHT: u32 = 16;
/// The initial number added per place in the heuristic's order.
const RANK_WEIGHT: u32 = 64;

#[cfg(test)]
mod node_numbers_tests {
    use super::{INF, node_numbers};

    #[test]
    fn a_sum_of_finite_proof_numbers_never_reads_as_a_disproof() {
        let half = INF / 2;
        // Three unproven children whose proof numbers sum past INF.
        let (phi, delta, best, second) = node_numbers(&[(half, 9), (half, 5), (half, 7)]);
        assert_eq!((phi, delta, best, second), (5, INF - 1, 1, 7));
    }

    #[test]
    fn proven_and_disproven_nodes_keep_infinity() {
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
