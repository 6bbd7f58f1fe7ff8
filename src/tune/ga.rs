//! A genetic algorithm over bounded parameter vectors, as the Othello report describes it:
//! evaluate the population, keep the elite (the best 30%), refill with children of two parents
//! each chosen by a tournament of 5 drawn from the elite, uniform crossover gene by gene, and
//! mutation that redraws each gene with a small probability.
//!
//! A second scheme, `PlusConfig`, is the GoTools report's GA: each generation breeds a number of
//! children (not necessarily the population size) from parents chosen in proportion to their
//! fitness shifted and scaled to [0, 1]; crossover is applied to a child with one probability
//! and mutation with another (rates per chromosome, not per gene); the population and children
//! are then pooled and the fittest `population` survive (the report's "select parents to be
//! replaced by the new generation").
//!
//! The GA knows nothing of games: fitness comes from a callback over the whole population (so
//! the caller can play individuals against each other). Every random draw comes from the
//! caller's generator, so a run is reproducible from its seed and can be checkpointed as
//! (population, generator state).

use crate::rng::{GameRng, below, unit_f64};
use serde::{Deserialize, Serialize};

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

/// The checks both GA schemes share: population size, probabilities, gene bounds.
/// The largest population (and number of children) a GA may have: each individual is a vector
/// in memory and plays or solves every generation, so a larger one is a typo, not a run.
pub const MAX_POPULATION: usize = 100_000;

fn check_population(population: usize) -> Result<(), String> {
    if population < 2 {
        return Err(format!("population must be at least 2, got {population}"));
    }
    if population > MAX_POPULATION {
        return Err(format!(
            "population = {population} is past the largest, {MAX_POPULATION}"
        ));
    }
    Ok(())
}

fn check_probability(name: &str, p: f64) -> Result<(), String> {
    if !(0.0..=1.0).contains(&p) {
        return Err(format!("{name} must be a probability, got {p}"));
    }
    Ok(())
}

fn check_bounds(bounds: (f64, f64)) -> Result<(), String> {
    if !(bounds.0 < bounds.1) || !bounds.0.is_finite() || !bounds.1.is_finite() {
        return Err(format!(
            "bounds must be (lo, hi) with lo < hi, got {bounds:?}"
        ));
    }
    Ok(())
}

impl GaConfig {
    /// What is wrong with the configuration, if anything.
    pub fn check(&self) -> Result<(), String> {
        check_population(self.population)?;
        if !(self.elite > 0.0 && self.elite <= 1.0) {
            return Err(format!(
                "elite must be a fraction in (0, 1], got {}",
                self.elite
            ));
        }
        // Drawn with replacement, so it may pass the population (the Othello report's table 2
        // has 5 of 4); each draw is a step of every selection, so not without end.
        if self.tournament == 0 || self.tournament > MAX_POPULATION {
            return Err(format!(
                "tournament = {} must be from 1 to {MAX_POPULATION}",
                self.tournament
            ));
        }
        check_probability("mutation", self.mutation)?;
        check_bounds(self.bounds)
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
pub fn random_population(
    size: usize,
    len: usize,
    bounds: (f64, f64),
    rng: &mut GameRng,
) -> Vec<Vec<f64>> {
    (0..size)
        .map(|_| (0..len).map(|_| random_gene(bounds, rng)).collect())
        .collect()
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
    a.iter()
        .zip(b)
        .map(|(&x, &y)| if rng_bit(rng) { x } else { y })
        .collect()
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
pub fn next_generation(
    population: &[Vec<f64>],
    fitness: &[f64],
    cfg: &GaConfig,
    rng: &mut GameRng,
) -> Vec<Vec<f64>> {
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

/// The GoTools report's GA: `children` per generation, crossover and mutation applied per
/// chromosome with the given probabilities (the report: 6.5% and 50%), fitness shifted and
/// scaled to [0, 1] for selection, the fittest of parents and children survive.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlusConfig {
    pub population: usize,
    pub children: usize,
    /// Probability that a child is the uniform crossover of two parents (else a copy of one).
    pub crossover: f64,
    /// Probability that a child is mutated: one gene, chosen uniformly, is redrawn.
    pub mutation: f64,
    pub bounds: (f64, f64),
    /// Genes are whole numbers (GoTools' weights are integers).
    pub integer: bool,
}

impl PlusConfig {
    /// What is wrong with the configuration, if anything.
    pub fn check(&self) -> Result<(), String> {
        check_population(self.population)?;
        if self.children == 0 || self.children > MAX_POPULATION {
            return Err(format!(
                "children = {} must be from 1 to {MAX_POPULATION}",
                self.children
            ));
        }
        check_probability("crossover", self.crossover)?;
        check_probability("mutation", self.mutation)?;
        check_bounds(self.bounds)
    }

    /// A gene drawn from the bounds (rounded when genes are integers).
    pub fn gene(&self, rng: &mut GameRng) -> f64 {
        let g = random_gene(self.bounds, rng);
        if self.integer {
            g.round().clamp(self.bounds.0.ceil(), self.bounds.1.floor())
        } else {
            g
        }
    }

    /// A random population of vectors of `len` genes.
    pub fn random_population(&self, len: usize, rng: &mut GameRng) -> Vec<Vec<f64>> {
        (0..self.population)
            .map(|_| (0..len).map(|_| self.gene(rng)).collect())
            .collect()
    }
}

/// Raw fitness shifted and linearly scaled to [0, 1]: the worst becomes 0 and the best 1. When
/// all are equal, all become 1 (selection is then uniform).
pub fn scale_fitness(raw: &[f64]) -> Vec<f64> {
    let lo = raw.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = raw.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(hi > lo) {
        return vec![1.0; raw.len()];
    }
    raw.iter().map(|&f| (f - lo) / (hi - lo)).collect()
}

/// Roulette-wheel selection over scaled (non-negative) fitness: index i with probability
/// scaled[i] / sum; uniform when the sum is zero.
pub fn roulette(scaled: &[f64], rng: &mut GameRng) -> usize {
    let total: f64 = scaled.iter().sum();
    if !(total > 0.0) {
        return below(rng, scaled.len());
    }
    let mut x = unit_f64(rng) * total;
    for (i, &f) in scaled.iter().enumerate() {
        if x < f {
            return i;
        }
        x -= f;
    }
    // Rounding left x at the very end: the last individual with positive fitness.
    scaled.iter().rposition(|&f| f > 0.0).expect("total > 0")
}

/// One generation's children: parents by roulette over the scaled fitness; with probability
/// `crossover` a child is the uniform crossover of two parents, else a copy of the first; with
/// probability `mutation` one of its genes is redrawn.
pub fn breed(
    population: &[Vec<f64>],
    raw_fitness: &[f64],
    cfg: &PlusConfig,
    rng: &mut GameRng,
) -> Vec<Vec<f64>> {
    let scaled = scale_fitness(raw_fitness);
    (0..cfg.children)
        .map(|_| {
            let a = roulette(&scaled, rng);
            let mut child = if unit_f64(rng) < cfg.crossover {
                let b = roulette(&scaled, rng);
                crossover(&population[a], &population[b], rng)
            } else {
                population[a].clone()
            };
            if unit_f64(rng) < cfg.mutation && !child.is_empty() {
                let k = below(rng, child.len());
                child[k] = cfg.gene(rng);
            }
            child
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from_seed;

    fn cfg(population: usize) -> GaConfig {
        GaConfig {
            population,
            elite: 0.3,
            tournament: 5,
            mutation: 0.01,
            bounds: (5.0, 100.0),
        }
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
        let winners: std::collections::BTreeSet<usize> = (0..200)
            .map(|_| tournament(&pool, &fitness, 1, &mut rng))
            .collect();
        assert_eq!(winners.len(), 4);
        // The winner is never worse than any candidate it was drawn with: replay the draws.
        for seed in 0..200 {
            let mut a = rng_from_seed(seed);
            let mut b = rng_from_seed(seed);
            let w = tournament(&pool, &fitness, 5, &mut a);
            let drawn: Vec<usize> = (0..5).map(|_| pool[below(&mut b, pool.len())]).collect();
            let best = drawn
                .iter()
                .map(|&i| fitness[i])
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(drawn.contains(&w) && fitness[w] == best);
        }
    }

    #[test]
    fn crossover_takes_each_gene_from_one_parent() {
        let a: Vec<f64> = (0..64).map(|i| i as f64).collect();
        let b: Vec<f64> = (0..64).map(|i| 100.0 + i as f64).collect();
        let mut rng = rng_from_seed(3);
        let child = crossover(&a, &b, &mut rng);
        assert!(
            child
                .iter()
                .enumerate()
                .all(|(i, &g)| g == a[i] || g == b[i])
        );
        let from_a = child
            .iter()
            .enumerate()
            .filter(|(i, g)| **g == a[*i])
            .count();
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
        assert!(
            GaConfig {
                population: 1,
                ..cfg(10)
            }
            .check()
            .is_err()
        );
        assert!(
            GaConfig {
                elite: 0.0,
                ..cfg(10)
            }
            .check()
            .is_err()
        );
        assert!(
            GaConfig {
                bounds: (5.0, 5.0),
                ..cfg(10)
            }
            .check()
            .is_err()
        );
    }

    fn plus() -> PlusConfig {
        PlusConfig {
            population: 6,
            children: 4,
            crossover: 0.065,
            mutation: 0.5,
            bounds: (0.0, 1000.0),
            integer: true,
        }
    }

    #[test]
    fn fitness_is_shifted_and_scaled_to_the_unit_interval() {
        assert_eq!(
            scale_fitness(&[-300.0, -100.0, -200.0]),
            vec![0.0, 1.0, 0.5]
        );
        assert_eq!(scale_fitness(&[7.0, 7.0]), vec![1.0, 1.0]);
    }

    #[test]
    fn roulette_follows_the_scaled_fitness() {
        let mut rng = rng_from_seed(5);
        let scaled = [0.0, 1.0, 3.0];
        let mut counts = [0usize; 3];
        for _ in 0..40_000 {
            counts[roulette(&scaled, &mut rng)] += 1;
        }
        assert_eq!(counts[0], 0, "the worst (scaled 0) is never chosen");
        // Binomial(40000, 1/4): mean 10000, sd 86.6; +- 5 sd.
        assert!((9567..=10433).contains(&counts[1]), "{counts:?}");
        assert_eq!(roulette(&[0.0, 0.0], &mut rng) < 2, true);
    }

    #[test]
    fn operator_rates_apply_per_chromosome() {
        let cfg = PlusConfig {
            children: 20_000,
            ..plus()
        };
        let mut rng = rng_from_seed(8);
        let a = vec![1.0; 10];
        let b = vec![2.0; 10];
        let pop = vec![a.clone(), b.clone()];
        let kids = breed(&pop, &[1.0, 1.0], &cfg, &mut rng);
        assert_eq!(kids.len(), 20_000);
        // A child that is neither all-a nor all-b (ignoring one mutated gene) came from crossover.
        let mixed = kids
            .iter()
            .filter(|k| {
                k.iter().any(|&g| g == 1.0)
                    && k.iter().any(|&g| g == 2.0)
                    && k.iter().filter(|&&g| g == 1.0 || g == 2.0).count() >= 9
            })
            .count();
        // A crossover child is mixed when its two parents differ (roulette over two equally fit
        // parents: 1/2) and not all 10 genes come from one (1 - 2/1024): p = 0.065 x 0.5 x
        // 0.998 = 0.0324, mean 649 of 20000, sd 25; +- 5 sd.
        assert!((524..=774).contains(&mixed), "{mixed}");
        let mutated = kids
            .iter()
            .filter(|k| k.iter().any(|&g| g != 1.0 && g != 2.0))
            .count();
        // Half are mutated; a redrawn integer gene equals 1 or 2 with probability 2/1001.
        assert!((9600..=10400).contains(&mutated), "{mutated}");
        assert!(
            kids.iter()
                .flatten()
                .all(|g| g.fract() == 0.0 && (0.0..=1000.0).contains(g))
        );
        assert!(
            kids.iter()
                .all(|k| k.iter().filter(|&&g| g != 1.0 && g != 2.0).count() <= 1),
            "mutation redraws one gene"
        );
    }

    #[test]
    fn survivors_are_the_fittest_of_parents_and_children() {
        assert_eq!(elite(&[1.0, 5.0, 3.0, 5.0, 9.0], 3), vec![4, 1, 3]);
        assert!(plus().check().is_ok());
        assert!(
            PlusConfig {
                children: 0,
                ..plus()
            }
            .check()
            .is_err()
        );
        assert!(
            PlusConfig {
                crossover: 1.5,
                ..plus()
            }
            .check()
            .is_err()
        );
    }
}
