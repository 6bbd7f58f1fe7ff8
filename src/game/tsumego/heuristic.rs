//! The weighted move-ordering heuristic the genetic algorithm tunes.
//!
//! score(move) = sum of static weights x static features + `DYNAMIC_UNIT` x sum of dynamic
//! weights x dynamic features. Features are from the mover's side: a penalty (self-atari,
//! filling an own eye) is a feature of -1, so every weight is non-negative (the report's ranges:
//! [0, 1000] static, [0, 10000] dynamic). Moves are tried in descending score, ties by point
//! index, pass last.
//!
//! Units: both kinds of features are flags or fractions in [-1, 1], so with the report's ranges
//! taken literally any dynamic weight would outweigh the whole static knowledge. We read the
//! report's ten-times-larger dynamic range as a ten-times-finer unit: a dynamic weight counts a
//! tenth of a static one (`DYNAMIC_UNIT`). Measured before this choice, on 160 problems of
//! levels 5, 8, 11 and 14 (40 each, status only): the reference weights with dynamic weights at
//! full scale spent 1,490,207 leaves, with dynamic weights zero 615,167, with the dynamic
//! weights counted at a tenth 554,081 (at a quarter: 689,256; at a thirtieth: 557,201).
//!
//! Static features read the position and the move (`STATIC_FEATURES`, 30, cheap on bitsets);
//! dynamic features read what the search has learned so far in this problem (`DYNAMIC_FEATURES`,
//! 10: history, killers, counter-move, hash move, the opponent's favourite...). Each is a named
//! entry of the weight vector; `Weights::reference()` is our hand-set "original heuristic" and
//! `Weights::zero()` the baseline.

use serde::{Deserialize, Serialize};

/// Static features, in weight-vector order. Values are 0/1 flags unless the doc says otherwise.
pub const STATIC_FEATURES: [&str; 30] = [
    "capture_stones",     // opponent stones captured (count)
    "capture_targets",    // target stones captured (count)
    "atari",              // opponent chains left with one liberty (count)
    "self_atari",         // -1: the mover's chain is left with one liberty (not uncapturable)
    "liberties",          // liberties of the mover's chain after the move, min(n, 4) / 4
    "pressure",           // 1 / fewest liberties of an adjacent opponent chain after the move
    "rescue",             // own chains in atari before the move, out of atari after (count)
    "connect",            // own chains joined by the move, minus one
    "cut",                // opponent chains next to the move, minus one
    "empty_neighbours",   // empty neighbours / 4
    "empty_diagonals",    // empty diagonal points / 4
    "first_line",         // on the board's edge
    "second_line",        // one line in from the edge
    "corner",             // a board corner
    "touches_wall",       // next to the wall
    "fill_own_eye",       // -1: an own eye point (all neighbours own stones)
    "opponent_eye_point", // an opponent eye point (inside their eye: captures or nothing)
    "split_eye_space",    // divides an enclosed region in two ("distance 2 to the edge of the eye")
    "complete_eye",       // neighbouring empty points that become own eye points (count)
    "falsify_eye",        // opponent eye points diagonal to the move (count)
    "throw_in",           // a lone stone in atari among opponent stones
    "ko_start",           // captures one stone into a ko shape
    "ko_retake",          // retakes a ko with an external threat
    "nakade_vital",       // the vital point of an enclosed region of 3-6 points
    "one_two_point",      // the "1-2 point" next to a board corner
    "wins_now",           // the position after the move is won for the mover (Benson life, death)
    "adjacent_own",       // own stones next to the move / 4
    "adjacent_opponent",  // opponent stones next to the move / 4
    "target_contact",     // next to a target stone
    "pass",               // the pass (the only feature a pass has)
];

/// Dynamic features, in weight-vector order.
pub const DYNAMIC_FEATURES: [&str; 10] = [
    "history",            // how often the point was a winning move for the mover / (max + 1)
    "opponent_history",   // the same for the opponent (the other side's vital point)
    "killer_1",           // the last winning move found at this ply
    "killer_2",           // the one before it
    "counter_move",       // the move that last refuted the opponent's last move
    "hash_move",          // the winning move found for these stones (any threat budgets)
    "opponent_favourite", // the opponent's best-ranked move in the previous position
    "answer_last",        // next to the opponent's last move
    "follow_up",          // next to the mover's previous move
    "forbidden_for_opponent", // -1: the point is suicide for the opponent (useless to take)
];

pub const N_STATIC: usize = STATIC_FEATURES.len();

/// Indices of the static features the solver reads by name: `wins_now` (computed only when
/// its weight is not zero) and `pass` (the pass's only feature).
pub const WINS_NOW: usize = 25;
pub const PASS_FEATURE: usize = 29;
const _: () = assert!(
    matches!(STATIC_FEATURES[WINS_NOW].as_bytes(), b"wins_now")
        && matches!(STATIC_FEATURES[PASS_FEATURE].as_bytes(), b"pass")
);
pub const N_DYNAMIC: usize = DYNAMIC_FEATURES.len();

/// What a unit of dynamic weight counts in the score, in units of static weight (see the module
/// docs).
pub const DYNAMIC_UNIT: f64 = 0.1;

/// Which subset of the weight vector a chromosome holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeightSet {
    Static,
    Dynamic,
}

impl WeightSet {
    pub fn names(self) -> &'static [&'static str] {
        match self {
            WeightSet::Static => &STATIC_FEATURES,
            WeightSet::Dynamic => &DYNAMIC_FEATURES,
        }
    }
    /// The report's gene range: [0, 1000] static, [0, 10000] dynamic.
    pub fn bounds(self) -> (f64, f64) {
        match self {
            WeightSet::Static => (0.0, 1000.0),
            WeightSet::Dynamic => (0.0, 10000.0),
        }
    }
}

/// A full weight vector: static and dynamic parts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    pub statics: [f64; N_STATIC],
    pub dynamics: [f64; N_DYNAMIC],
}

impl Weights {
    /// All weights zero: the baseline (moves in point order, pass last).
    pub fn zero() -> Weights {
        Weights {
            statics: [0.0; N_STATIC],
            dynamics: [0.0; N_DYNAMIC],
        }
    }

    /// Our "original heuristic", set by hand from Go knowledge before any tuning: captures,
    /// vital points and eye shape first, self-atari and filling own eyes last; a win on the
    /// board dominates; among the dynamic weights the hash move and killers lead.
    pub fn reference() -> Weights {
        let statics = [
            150.0,  // capture_stones
            300.0,  // capture_targets
            120.0,  // atari
            300.0,  // self_atari
            80.0,   // liberties
            60.0,   // pressure
            250.0,  // rescue
            60.0,   // connect
            60.0,   // cut
            80.0,   // empty_neighbours
            20.0,   // empty_diagonals
            0.0,    // first_line
            20.0,   // second_line
            0.0,    // corner
            0.0,    // touches_wall
            400.0,  // fill_own_eye
            100.0,  // opponent_eye_point
            400.0,  // split_eye_space
            200.0,  // complete_eye
            150.0,  // falsify_eye
            100.0,  // throw_in
            50.0,   // ko_start
            50.0,   // ko_retake
            500.0,  // nakade_vital
            80.0,   // one_two_point
            1000.0, // wins_now
            30.0,   // adjacent_own
            40.0,   // adjacent_opponent
            60.0,   // target_contact
            0.0,    // pass
        ];
        let dynamics = [
            2000.0, 1000.0, 1500.0, 800.0, 1000.0, 5000.0, 600.0, 500.0, 200.0, 1000.0,
        ];
        Weights { statics, dynamics }
    }

    /// The named built-in vectors: `reference`, `zero`.
    pub fn builtin(name: &str) -> Option<Weights> {
        match name {
            "reference" => Some(Weights::reference()),
            "zero" => Some(Weights::zero()),
            _ => None,
        }
    }

    pub fn part(&self, set: WeightSet) -> &[f64] {
        match set {
            WeightSet::Static => &self.statics,
            WeightSet::Dynamic => &self.dynamics,
        }
    }

    /// These weights with one subset replaced (a chromosome of the GA).
    pub fn with_part(&self, set: WeightSet, genes: &[f64]) -> Weights {
        let mut w = self.clone();
        match set {
            WeightSet::Static => w.statics.copy_from_slice(genes),
            WeightSet::Dynamic => w.dynamics.copy_from_slice(genes),
        }
        w
    }

    /// Whether any dynamic weight is non-zero (if none, the search keeps no learning tables).
    pub fn uses_dynamic(&self) -> bool {
        self.dynamics.iter().any(|&w| w != 0.0)
    }
}

/// Weights by name (`reference`, `zero`) or from a file of `name value` lines (comments after
/// '#'; features not listed keep the reference value, so a file can hold one subset).
pub fn load_weights(spec: &str) -> Result<Weights, String> {
    if let Some(w) = Weights::builtin(spec) {
        return Ok(w);
    }
    let text = crate::durable::read_input(std::path::Path::new(spec)).map_err(|e| {
        format!("'{spec}' is neither reference, zero nor a readable weights file ({e})")
    })?;
    parse_weights(&text).map_err(|e| format!("{spec}: {e}"))
}

/// Parses `name value` lines over the reference weights.
pub fn parse_weights(text: &str) -> Result<Weights, String> {
    let mut w = Weights::reference();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [name, value] = words.as_slice() else {
            return Err(format!("line {}: expected 'feature value'", i + 1));
        };
        let v: f64 = value
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| {
                format!(
                    "line {}: weight '{value}' is not a non-negative number",
                    i + 1
                )
            })?;
        if let Some(k) = STATIC_FEATURES.iter().position(|n| n == name) {
            w.statics[k] = v;
        } else if let Some(k) = DYNAMIC_FEATURES.iter().position(|n| n == name) {
            w.dynamics[k] = v;
        } else {
            return Err(format!("line {}: unknown feature '{name}'", i + 1));
        }
    }
    Ok(w)
}

/// The weights as `name value` lines (what `parse_weights` reads).
pub fn weights_text(w: &Weights) -> String {
    let mut s = String::from("# static weights\n");
    for (n, v) in STATIC_FEATURES.iter().zip(&w.statics) {
        s += &format!("{n} {v}\n");
    }
    s += "# dynamic weights\n";
    for (n, v) in DYNAMIC_FEATURES.iter().zip(&w.dynamics) {
        s += &format!("{n} {v}\n");
    }
    s
}
