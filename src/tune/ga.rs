//! A genetic algorithm over bounded parameter vectors, as the Othello report describes it:
//! evaluate the population, keep the elite (the best 30%), refill with children of two parents
//! each chosen by a tournament of 5 drawn from the elite, uniform crossover gene by gene, and
//! mutation that redraws each gene with a small probability.
//!
//! The GA knows nothing of games: fitness comes from a callback over the whole population (so
//! the caller can play individuals against each other). Every random draw comes from the
//! caller's generator, so a run is reproducible from its seed and can be checkpointed as
//! (population, generator state).

use crate::rng::{GameRng, below, unit_f64};

/// The GA's settings (the experiment file's `[ga]` section builds them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GaConfig {
    pub population: usize,
    /// Fraction of the population kept as the elite (the report: 0.3).
    pub elite: f64,
    /// Candidates drawn from the elite per parent (the report: 5).
    pub tournament: usize,
    /// Probability that a child's gene is redrawn (the report: 0.01).
    pub mutation: f64,
    /// Genes are drawn uniformly from (lo, hi) (the report: 5 to 100).
    pub bounds: (f64, f64),
}

impl GaConfig {
    /// What is wrong with the configuration, if anything.
    pub fn check(&self) -> Result<(), String> {
        if self.population < 2 {
            return Err(format!("population must be at least 2, got {}", self.population));
        }
        if !(self.elite > 0.0 && self.elite <= 1.0) {
            return Err(format!("elite must be a fraction in (0, 1], got {}", self.elite));
        }
        if self.tournament == 0 {
            return Err("tournament must be at least 1".into());
        }
        if !(0.0..=1.0).contains(&self.mutation) {
            return Err(format!("mutation must be a probability, got {}", self.mutation));
        }
        if !(self.bounds.0 < self.bounds.1) || !self.bounds.0.is_finite() || !self.bounds.1.is_finite() {
            return Err(format!("bounds must be (lo, hi) with lo < hi, got {:?}", self.bounds));
        }
        Ok(())
    }

    /// The number of individuals kept as the elite: round(elite x population), at least 1.
    pub fn elite_size(&self) -> usize {
        ((self.elite * self.population as f64).round() as usize).clamp(1, self.population)
    }
}

/// A gene drawn uniformly from the bounds.
pub fn random_gene(bounds: (f64, f64), rng: &mut GameRng) -> f64 {
    bounds.0 + unit_f64(rng) * (bounds.1 - bounds.0)
}

/// A population of `size` random vectors of `len` genes.
pub fn random_population(size: usize, len: usize, bounds: (f64, f64), rng: &mut GameRng) -> Vec<Vec<f64>> {
    (0..size).map(|_| (0..len).map(|_| random_gene(bounds, rng)).collect()).collect()
}

/// Indices of the elite: the `k` fittest, best first (ties keep the earlier index).
pub fn elite(fitness: &[f64], k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fitness.len()).collect();
    order.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]).then(a.cmp(&b)));
    order.truncate(k);
    order
}

/// Tournament selection: `k` candidates drawn (with replacement) from `pool`; the fittest wins,
/// ties to the first drawn. Returns an index into the population.
pub fn tournament(pool: &[usize], fitness: &[f64], k: usize, rng: &mut GameRng) -> usize {
    let mut best = pool[below(rng, pool.len())];
    for _ in 1..k {
        let c = pool[below(rng, pool.len())];
        if fitness[c] > fitness[best] {
            best = c;
        }
    }
    best
}

/// Uniform crossover: each gene from one parent or the other with probability 1/2.
pub fn crossover(a: &[f64], b: &[f64], rng: &mut GameRng) -> Vec<f64> {
    a.iter().zip(b).map(|(&x, &y)| if rng_bit(rng) { x } else { y }).collect()
}

fn rng_bit(rng: &mut GameRng) -> bool {
    use rand::Rng;
    rng.next_u64() >> 63 == 1
}

/// Redraws each gene with probability `rate`; returns how many were redrawn.
pub fn mutate(genes: &mut [f64], rate: f64, bounds: (f64, f64), rng: &mut GameRng) -> usize {
    let mut n = 0;
    for g in genes.iter_mut() {
        if unit_f64(rng) < rate {
            *g = random_gene(bounds, rng);
            n += 1;
        }
    }
    n
}

/// The next generation: the elite (best first) and then children until the population is full.
pub fn next_generation(population: &[Vec<f64>], fitness: &[f64], cfg: &GaConfig, rng: &mut GameRng) -> Vec<Vec<f64>> {
    let keep = elite(fitness, cfg.elite_size());
    let mut next: Vec<Vec<f64>> = keep.iter().map(|&i| population[i].clone()).collect();
    while next.len() < cfg.population {
        let a = tournament(&keep, fitness, cfg.tournament, rng);
        let b = tournament(&keep, fitness, cfg.tournament, rng);
        let mut child = crossover(&population[a], &population[b], rng);
        mutate(&mut child, cfg.mutation, cfg.bounds, rng);
        next.push(child);
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from_seed;

    fn cfg(population: usize) -> GaConfig {
        GaConfig { population, elite: 0.3, tournament: 5, mutation: 0.01, bounds: (5.0, 100.0) }
    }

    #[test]
    fn the_elite_is_the_best_30_percent() {
        assert_eq!(cfg(10).elite_size(), 3);
        assert_eq!(cfg(60).elite_size(), 18);
        assert_eq!(cfg(4).elite_size(), 1);
        let fitness = [3.0, 9.0, 1.0, 9.0, 5.0, 0.0, 2.0, 7.0, 4.0, 6.0];
        assert_eq!(elite(&fitness, 3), vec![1, 3, 7]);
    }

    #[test]
    fn a_tournament_picks_the_best_of_its_draw() {
        let fitness = [1.0, 5.0, 3.0, 4.0];
        let pool = [0, 1, 2, 3];
        // With one candidate per tournament every member wins sometimes.
        let mut rng = rng_from_seed(1);
        let winners: std::collections::BTreeSet<usize> = (0..200).map(|_| tournament(&pool, &fitness, 1, &mut rng)).collect();
        assert_eq!(winners.len(), 4);
        // The winner is never worse than any candidate it was drawn with: replay the draws.
        for seed in 0..200 {
            let mut a = rng_from_seed(seed);
            let mut b = rng_from_seed(seed);
            let w = tournament(&pool, &fitness, 5, &mut a);
            let drawn: Vec<usize> = (0..5).map(|_| pool[below(&mut b, pool.len())]).collect();
            let best = drawn.iter().map(|&i| fitness[i]).fold(f64::NEG_INFINITY, f64::max);
            assert!(drawn.contains(&w) && fitness[w] == best);
        }
    }

    #[test]
    fn crossover_takes_each_gene_from_one_parent() {
        let a: Vec<f64> = (0..64).map(|i| i as f64).collect();
        let b: Vec<f64> = (0..64).map(|i| 100.0 + i as f64).collect();
        let mut rng = rng_from_seed(3);
        let child = crossover(&a, &b, &mut rng);
        assert!(child.iter().enumerate().all(|(i, &g)| g == a[i] || g == b[i]));
        let from_a = child.iter().enumerate().filter(|(i, g)| **g == a[*i]).count();
        // Binomial(64, 1/2): mean 32, sd 4; 12..=52 is 5 standard deviations each side.
        assert!((12..=52).contains(&from_a), "{from_a}");
    }

    #[test]
    fn mutation_rate_is_within_binomial_bounds() {
        let mut rng = rng_from_seed(9);
        let mut genes = vec![50.0; 100_000];
        let n = mutate(&mut genes, 0.01, (5.0, 100.0), &mut rng);
        // Binomial(100000, 0.01): mean 1000, sd 31.5; 1000 +- 5 sd.
        assert!((842..=1158).contains(&n), "{n}");
        assert!(genes.iter().all(|g| (5.0..100.0).contains(g)));
        assert_eq!(genes.iter().filter(|&&g| g != 50.0).count(), n);
    }

    #[test]
    fn the_next_generation_keeps_the_elite_first_and_fills_the_population() {
        let mut rng = rng_from_seed(4);
        let pop = random_population(10, 16, (5.0, 100.0), &mut rng);
        let fitness: Vec<f64> = (0..10).map(|i| (i * 7 % 10) as f64).collect();
        let next = next_generation(&pop, &fitness, &cfg(10), &mut rng);
        assert_eq!(next.len(), 10);
        let best = elite(&fitness, 3);
        for (k, &i) in best.iter().enumerate() {
            assert_eq!(next[k], pop[i]);
        }
        assert!(next.iter().flatten().all(|g| (5.0..100.0).contains(g)));
    }

    #[test]
    fn configurations_are_checked() {
        assert!(cfg(10).check().is_ok());
        assert!(GaConfig { population: 1, ..cfg(10) }.check().is_err());
        assert!(GaConfig { elite: 0.0, ..cfg(10) }.check().is_err());
        assert!(GaConfig { bounds: (5.0, 5.0), ..cfg(10) }.check().is_err());
    }
}
