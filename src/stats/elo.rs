//! Elo differences from game results, with intervals; likelihood of superiority; the SPRT.
//!
//! The score s (points per game, draw = 1/2) maps to an Elo difference by
//! Elo = -400 log10(1/s - 1). Its interval comes from a normal interval on s with the sample
//! variance of the independent unit: a game (trinomial W/D/L) or, when the same pairing was
//! played with colours swapped, a game pair (pentanomial: pair scores 0, 1/4, 1/2, 3/4, 1),
//! which removes the colour advantage from the variance. The SPRT is the generalised SPRT of
//! fishtest and fastchess: LLR = N (s1 - s0)(2 s - s0 - s1) / (2 var), with s0 and s1 the
//! scores of the two Elo hypotheses.

use super::{Estimate, z_for};
use statrs::distribution::{ContinuousCDF, Normal};

/// Elo difference of a score in (0, 1) (infinite at 0 and 1).
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// Counts of colour-swapped game pairs by pair score 0, 1/4, 1/2, 3/4, 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Wdl {
    fn units(&self) -> Vec<(f64, u64)> {
        vec![(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)]
    }
}

impl Pentanomial {
    /// Adds a pair from its two game results (1, 0.5 or 0 each).
    pub fn add_pair(&mut self, a: f64, b: f64) {
        self.0[((a + b) * 2.0).round() as usize] += 1;
    }
    fn units(&self) -> Vec<(f64, u64)> {
        self.0
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as f64 / 4.0, c))
            .collect()
    }
}

/// Mean and per-unit variance of weighted unit scores.
fn moments(units: &[(f64, u64)]) -> Option<(f64, f64, f64)> {
    let n: u64 = units.iter().map(|u| u.1).sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let s = units.iter().map(|&(x, c)| x * c as f64).sum::<f64>() / n;
    let var = units
        .iter()
        .map(|&(x, c)| c as f64 * (x - s).powi(2))
        .sum::<f64>()
        / n;
    Some((n, s, var))
}

/// An Elo difference with its interval, and the score it comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub score: Estimate,
    pub elo: Estimate,
}

fn elo_estimate(units: &[(f64, u64)], level: f64) -> Option<EloEstimate> {
    let (n, s, var) = moments(units)?;
    let half = z_for(level) * (var / n).sqrt();
    let score = Estimate {
        value: s,
        lo: (s - half).max(0.0),
        hi: (s + half).min(1.0),
    };
    let elo = Estimate {
        value: elo_from_score(s),
        lo: elo_from_score(score.lo),
        hi: elo_from_score(score.hi),
    };
    Some(EloEstimate { score, elo })
}

/// Elo difference from W/D/L, the game as the unit.
pub fn elo_trinomial(r: Wdl, level: f64) -> Option<EloEstimate> {
    elo_estimate(&r.units(), level)
}

/// Elo difference from colour-swapped pairs, the pair as the unit.
pub fn elo_pentanomial(p: Pentanomial, level: f64) -> Option<EloEstimate> {
    elo_estimate(&p.units(), level)
}

/// Likelihood of superiority: the probability that the side is the stronger, from wins and
/// losses (draws carry no information), Phi((W - L) / sqrt(W + L)).
pub fn los(r: Wdl) -> f64 {
    if r.wins + r.losses == 0 {
        return 0.5;
    }
    Normal::standard().cdf((r.wins as f64 - r.losses as f64) / ((r.wins + r.losses) as f64).sqrt())
}

/// Sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    AcceptH0,
    AcceptH1,
    Continue,
}

impl Sprt {
    /// (lower, upper) LLR bounds: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    fn llr(&self, units: &[(f64, u64)]) -> f64 {
        let Some((n, s, var)) = moments(units) else {
            return 0.0;
        };
        if var == 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    pub fn llr_trinomial(&self, r: Wdl) -> f64 {
        self.llr(&r.units())
    }

    pub fn llr_pentanomial(&self, p: Pentanomial) -> f64 {
        self.llr(&p.units())
    }

    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// What the test decided at `llr`, in words: "H1 accepted: Elo 5 rather than 0 (hypotheses,
    /// not an estimate)" (the hypotheses' Elo said as such, not read as an estimate), or "no
    /// decision: game cap reached".
    pub fn decision_text(&self, llr: f64) -> String {
        match self.decide(llr) {
            SprtDecision::AcceptH0 => format!(
                "H0 accepted: Elo {} rather than {} (hypotheses, not an estimate)",
                self.elo0, self.elo1
            ),
            SprtDecision::AcceptH1 => format!(
                "H1 accepted: Elo {} rather than {} (hypotheses, not an estimate)",
                self.elo1, self.elo0
            ),
            SprtDecision::Continue => "no decision: game cap reached".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    // Reference values computed in Python with scipy.stats.norm (ppf, cdf) and math.log10,
    // from the formulas in this module's docs, written out independently.

    #[test]
    fn elo_and_score_are_inverse() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        // 400 * log10(3) = 190.84850188786498: a 75% score.
        assert!(close(elo_from_score(0.75), 190.84850188786498, 1e-9));
        assert!(close(score_from_elo(190.84850188786498), 0.75, 1e-12));
    }

    #[test]
    fn trinomial_elo_interval_and_los() {
        // W 60, D 20, L 20: s = 0.7, Elo 147.19071411783776, 95% (86.22501520030423, 218.2517776410748);
        // LOS = norm.cdf(40 / sqrt(80)) = 0.9999961278917845
        let r = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let e = elo_trinomial(r, 0.95).unwrap();
        assert!(close(e.elo.value, 147.19071411783776, 1e-9), "{e:?}");
        assert!(
            close(e.elo.lo, 86.22501520030423, 1e-7) && close(e.elo.hi, 218.2517776410748, 1e-7),
            "{e:?}"
        );
        assert!(close(los(r), 0.9999961278917845, 1e-12));
        assert_eq!(
            los(Wdl {
                wins: 0,
                draws: 5,
                losses: 0
            }),
            0.5
        );
        assert!(elo_trinomial(Wdl::default(), 0.95).is_none());
    }

    #[test]
    fn pentanomial_elo_interval() {
        // Pairs [5, 10, 30, 35, 20]: Elo 98.06887127959205, 95% (59.651311967015985, 138.98564716239602)
        let e = elo_pentanomial(Pentanomial([5, 10, 30, 35, 20]), 0.95).unwrap();
        assert!(close(e.elo.value, 98.06887127959205, 1e-9), "{e:?}");
        assert!(
            close(e.elo.lo, 59.651311967015985, 1e-7) && close(e.elo.hi, 138.98564716239602, 1e-7),
            "{e:?}"
        );
        let mut p = Pentanomial::default();
        p.add_pair(1.0, 0.5);
        p.add_pair(0.0, 0.0);
        p.add_pair(0.5, 0.5);
        assert_eq!(p.0, [1, 0, 1, 1, 0]);
    }

    #[test]
    fn sprt_llr_and_bounds() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = t.bounds();
        // ln(0.05 / 0.95) = -2.9444389791664403
        assert!(close(lo, -2.9444389791664403, 1e-12) && close(hi, 2.9444389791664403, 1e-12));
        // W 1200 D 1500 L 1100: LLR 2.1574066529175613; pairs [100, 500, 900, 560, 120]: 2.416016709843856
        let llr = t.llr_trinomial(Wdl {
            wins: 1200,
            draws: 1500,
            losses: 1100,
        });
        assert!(close(llr, 2.1574066529175613, 1e-9), "{llr}");
        assert!(close(
            t.llr_pentanomial(Pentanomial([100, 500, 900, 560, 120])),
            2.416016709843856,
            1e-9
        ));
        assert_eq!(t.decide(llr), SprtDecision::Continue);
        assert_eq!(t.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(t.decide(-3.0), SprtDecision::AcceptH0);
    }
}
