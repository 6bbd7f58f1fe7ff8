//! The terminal tests of the search: Benson's unconditional life for the defender, and the
//! cheap proofs of death (targets captured; no room for two eyes beside stones the defender can
//! never capture, the attacker's safe stones: joined to the wall, or joined to safe stones by
//! two liberties, Müller's connections to safe stones as Kishimoto and Müller's Tsumego
//! Explorer uses them).
//!
//! Benson's algorithm, inside R: the defender's chains and the regions of R left by them
//! (connected sets of empty points and attacker stones). A region that touches the wall is
//! never vital (the attacker's living stones are outside it). A region is vital to a chain when
//! all its empty points are liberties of that chain. Repeatedly drop chains with fewer than two
//! vital regions, and regions next to a dropped chain; the chains left are alive whatever the
//! attacker plays, even if the defender always passes.

use super::board::{Bits, Position, Region, Side, bit};

/// The defender's stones in unconditionally alive chains (Benson).
pub fn benson_alive(region: &Region, pos: &Position) -> u64 {
    let def = pos.of(Side::Defender);
    if def == 0 {
        return 0;
    }
    let empty = pos.empty(region);
    // Chains with their liberties.
    let mut chains: [(u64, u64); 64] = [(0, 0); 64];
    let mut nc = 0;
    for c in pos.chains(region, Side::Defender) {
        chains[nc] = c;
        nc += 1;
    }
    // Regions not touching the wall, with their neighbouring defender stones.
    let mut regions: [(u64, u64); 64] = [(0, 0); 64];
    let mut nr = 0;
    for r in enclosed_regions(region, pos) {
        regions[nr] = r;
        nr += 1;
    }
    let mut alive_chains: u64 = if nc == 64 { u64::MAX } else { (1u64 << nc) - 1 };
    let mut live_regions: u64 = if nr == 64 { u64::MAX } else { (1u64 << nr) - 1 };
    loop {
        let mut dropped = 0u64;
        for c in Bits(alive_chains) {
            let (_, libs) = chains[c];
            let vital = Bits(live_regions)
                .filter(|&r| regions[r].0 & empty & !libs == 0 && regions[r].1 & chains[c].0 != 0)
                .count();
            if vital < 2 {
                alive_chains &= !bit(c);
                dropped |= chains[c].0;
            }
        }
        if dropped == 0 {
            break;
        }
        for r in Bits(live_regions) {
            if regions[r].1 & dropped != 0 {
                live_regions &= !bit(r);
            }
        }
        if alive_chains == 0 {
            break;
        }
    }
    Bits(alive_chains).fold(0, |acc, c| acc | chains[c].0)
}

/// The regions of R left by the defender's stones (connected sets of empty points and attacker
/// stones) that do not touch the wall, each with the defender stones next to it: the
/// defender's possible eye spaces.
#[inline]
pub fn enclosed_regions<'a>(
    region: &'a Region,
    pos: &Position,
) -> impl Iterator<Item = (u64, u64)> + 'a {
    let def = pos.of(Side::Defender);
    region
        .parts(region.all & !def)
        .filter(|(reg, _)| reg & region.wall_adj == 0)
        .map(move |(reg, adj)| (reg, adj & def))
}

/// Whether the defender provably cannot make two eyes: an eye point can be neither next to the
/// wall nor next to a safe attacker stone (`safe_attacker`), nor be one; two eyes need two such
/// points that are not neighbours, in the same part of the region as a target stone (the
/// region split by the safe attacker stones: a target's group never leaves its part). A cheap
/// necessary condition, so "cannot" is a proof; it also rules out seki, since every shared
/// liberty of a target group and safe stones can be filled by the attacker without risk.
pub fn cannot_make_two_eyes(region: &Region, pos: &Position, targets: u64) -> bool {
    let safe = safe_attacker(region, pos);
    let candidates = region.all & !safe & !region.wall_adj & !region.dilate(safe);
    #[cfg(test)]
    let safe = if BASIC_DEATH_TEST.with(|b| b.get()) {
        0
    } else {
        safe
    };
    for (part, _) in region.parts(region.all & !safe) {
        if part & targets & pos.of(Side::Defender) == 0 {
            continue;
        }
        let candidates = candidates & part;
        for p in Bits(candidates) {
            if candidates & !(region.nbr[p] | bit(p)) != 0 {
                return false;
            }
        }
    }
    true
}

/// Who has won in this position, if the search may stop here: the defender when a target chain
/// is alive by Benson or after two passes; the attacker when no target stone is left or the
/// defender cannot make two eyes.
pub fn decided(region: &Region, pos: &Position, targets: u64) -> Option<Side> {
    let def = pos.of(Side::Defender);
    if def & targets == 0 {
        return Some(Side::Attacker);
    }
    if pos.passes >= 2 {
        return Some(Side::Defender);
    }
    if benson_alive(region, pos) & targets != 0 {
        return Some(Side::Defender);
    }
    if cannot_make_two_eyes(region, pos, targets) {
        return Some(Side::Attacker);
    }
    None
}

/// The defender's eye space, roughly: the points that could still be part of an eye (as in
/// `cannot_make_two_eyes`: not next to the wall, not an uncapturable attacker stone nor next
/// to one), and the defender's eye points now (empty, every neighbour a defender stone).
pub fn eye_space(region: &Region, pos: &Position) -> (u32, u32) {
    let def = pos.of(Side::Defender);
    let safe = safe_attacker(region, pos);
    let candidates = region.all & !safe & !region.wall_adj & !region.dilate(safe) & !def;
    let mut eyes = 0;
    for p in Bits(pos.empty(region) & !region.wall_adj) {
        if region.nbr[p] & !def == 0 {
            eyes += 1;
        }
    }
    (candidates.count_ones(), eyes)
}

/// The attacker's stones that the defender can never capture nor make an eye next to: the
/// chains joined to the wall, and (Müller's "connections to safe stones", as Tsumego Explorer
/// uses them) the chains with two liberties that are also liberties of safe stones or of the
/// wall, two points no other such chain uses: when the defender fills one, the attacker joins
/// at the other, so they end up joined to the wall. Added until none is left to add.
fn safe_attacker(region: &Region, pos: &Position) -> u64 {
    let mut safe = 0u64;
    let mut unsafe_chains: [(u64, u64); 32] = [(0, 0); 32];
    let mut n = 0;
    let empty = pos.empty(region);
    for (chain, adj) in region.parts(pos.of(Side::Attacker)) {
        if chain & region.wall_adj != 0 {
            safe |= chain;
        } else if n < unsafe_chains.len() {
            unsafe_chains[n] = (chain, adj & empty);
            n += 1;
        }
    }
    #[cfg(test)]
    if BASIC_DEATH_TEST.with(|b| b.get()) {
        return safe;
    }
    let mut used = 0u64;
    loop {
        let joins = region.wall_adj | region.dilate(safe);
        let mut added = false;
        for (chain, libs) in unsafe_chains[..n].iter_mut() {
            if *chain == 0 {
                continue;
            }
            let shared = *libs & joins & !used;
            if shared.count_ones() >= 2 {
                let first = shared & shared.wrapping_neg();
                let rest = shared & !first;
                used |= first | (rest & rest.wrapping_neg());
                safe |= *chain;
                *chain = 0;
                added = true;
            }
        }
        if !added {
            return safe;
        }
    }
}

#[cfg(test)]
thread_local! {
    /// The death test as it was before Müller's connections and the targets' part of the region
    /// (the attacker's safe stones are those joined to the wall; every part of the region
    /// counts): what the tests compare the search's answers against.
    pub(super) static BASIC_DEATH_TEST: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}
