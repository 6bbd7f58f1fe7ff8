//! The one random number generator of gamelab and the few draws the hot paths need.
//!
//! Every random choice in a job (agents, rollouts, tuners) comes from a `GameRng` seeded from the
//! job's seed, so the same experiment file and seed give the same rows on any machine and thread
//! count. Xoshiro256++ is fixed here on purpose: its stream is defined by the algorithm, not by a
//! crate's choice of default generator. The bounded draw uses Lemire's multiply-high reduction,
//! which is fast and whose output is fixed by this file, not by a library version.

pub use rand::Rng;
use rand::SeedableRng;
use xxhash_rust::xxh3::xxh3_64_with_seed;

/// The generator every job, game and agent draws from.
pub type GameRng = rand_xoshiro::Xoshiro256PlusPlus;

/// A generator seeded from a 64-bit seed.
pub fn rng_from_seed(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// A seed derived from a parent seed and a list of labels (job hash, repeat, game index...).
/// Stable across platforms and versions: it is a hash of the little-endian bytes.
pub fn derive_seed(parent: u64, parts: &[u64]) -> u64 {
    let mut bytes = Vec::with_capacity(8 * parts.len());
    for p in parts {
        bytes.extend_from_slice(&p.to_le_bytes());
    }
    xxh3_64_with_seed(&bytes, parent)
}

/// A uniform integer in `0..n` (n > 0), by multiply-high reduction (bias below 2^-40 for any n
/// a game produces).
#[inline]
pub fn below(rng: &mut GameRng, n: usize) -> usize {
    debug_assert!(n > 0);
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

/// A uniform float in [0, 1) with 53 random bits.
#[inline]
pub fn unit_f64(rng: &mut GameRng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = rng_from_seed(7);
        let mut seen = [0usize; 5];
        for _ in 0..10_000 {
            seen[below(&mut rng, 5)] += 1;
        }
        // Each of the 5 values is expected 2000 times; 1700..2300 is over 7 standard deviations.
        assert!(seen.iter().all(|&c| (1700..2300).contains(&c)), "{seen:?}");
    }

    #[test]
    fn derived_seeds_differ_by_part_and_order() {
        assert_ne!(derive_seed(1, &[2, 3]), derive_seed(1, &[3, 2]));
        assert_ne!(derive_seed(1, &[2]), derive_seed(2, &[2]));
        assert_eq!(derive_seed(9, &[4, 5]), derive_seed(9, &[4, 5]));
    }

    #[test]
    fn unit_is_in_half_open_interval() {
        let mut rng = rng_from_seed(3);
        for _ in 0..1000 {
            let u = unit_f64(&mut rng);
            assert!((0.0..1.0).contains(&u));
        }
    }
}
