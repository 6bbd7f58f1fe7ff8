//! What the heuristic scores a move by: the static features of a candidate move and the
//! dynamic ones (history, killers, counter-moves, hash moves), and the node's facts they read.

use super::*;

#[inline]
pub(super) fn dot(w: &[f64], f: &[f64]) -> f64 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

/// Empty points all of whose neighbours are stones of `side` (the wall counts for the
/// attacker; a defender eye cannot touch the wall).
pub(super) fn eye_points(region: &Region, pos: &Position, side: Side) -> u64 {
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
pub(super) fn node_facts(
    region: &Region,
    pos: &Position,
    mut chains: Vec<(u64, u64, bool)>,
) -> NodeFacts {
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
pub(super) fn static_features(
    region: &Region,
    targets: u64,
    f: &NodeFacts,
    p: usize,
    child: &Position,
    info: &crate::game::tsumego::board::PlayInfo,
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
pub(super) fn dynamic_features(
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
