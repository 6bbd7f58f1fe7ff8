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
//! Where it lives: this file holds the solver's state, its public calls, the plain search, the
//! terminal tests and repetition; `solver/sweep.rs` the status sweep, `solver/dfpn.rs` the
//! df-pn node and its numbers, `solver/moves.rs` move generation and ordering and the pass,
//! `solver/tables.rs` the tables (numbers, proofs shared across budgets, terminal-test memo) and
//! their slots, `solver/features.rs` the heuristic's features of a move.
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

mod dfpn;
mod features;
mod moves;
mod sweep;
mod tables;
use dfpn::*;
use features::*;
pub use moves::{after_pass, may_pass};
use tables::*;

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

/// Limits of a problem's search, and which search it is.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// Nodes per problem (the whole status sweep); past it the status is unknown.
    pub node_budget: u64,
    /// Plies from the problem's position; deeper lines are unknown.
    pub max_depth: u32,
    /// The search every solve with these limits runs (the same answers, other costs).
    #[serde(default, skip_serializing_if = "Search::is_dfpn")]
    pub search: Search,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            node_budget: 2_000_000,
            max_depth: 80,
            search: Search::DfPn,
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

    /// These limits with `search`.
    pub fn searching(self, search: Search) -> Limits {
        Limits { search, ..self }
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
    /// the machine, so only the GoTools check (`workflow::gotools::compare_gotools`) sets it.
    time_limit: Option<std::time::Duration>,
    deadline: Option<Instant>,
    /// The search of the current solve (`Limits::search`, set by `start`): depth-first
    /// proof-number search (`Search::DfPn`, the default) or the plain depth-first AND/OR search
    /// (`Search::AlphaBeta`).
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

/// Which search the solver runs (the same answers, other costs): `Limits::search`, `--search`
/// on the command line, `search = "..."` in a `[solve]` or `[tsumego_ga]` section.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Default,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
pub enum Search {
    /// Depth-first proof-number search (df-pn), children in the heuristic's order.
    #[default]
    #[value(name = "dfpn")]
    #[serde(rename = "dfpn")]
    DfPn,
    /// Depth-first AND/OR search, first winning child returns, children in the heuristic's order:
    /// the GoTools report's kind of search, where the move order decides the tree's size.
    #[value(name = "alphabeta")]
    #[serde(rename = "alphabeta")]
    AlphaBeta,
}

impl Search {
    /// Whether this is the default search (files leave it out, so their job hashes keep).
    pub fn is_dfpn(&self) -> bool {
        *self == Search::DfPn
    }
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
        self.search = limits.search;
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
}

fn to_move(mv: u8) -> Move {
    if mv == PASS {
        Move::Pass
    } else {
        Move::Play(mv)
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
