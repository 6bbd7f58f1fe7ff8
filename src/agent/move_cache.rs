//! Where a search gets its legal moves: straight from the game, or through a least-recently-used
//! cache keyed by the position (the Freckers report's move cache, its section 4.1.4: "MCTS often
//! considers the same board state multiple times").
//!
//! Searches hold a `MoveSource` and ask it for the moves of every position they expand. The
//! cache pays when positions come back: alpha-beta's iterative deepening searches the same
//! upper tree once per depth, and a fresh MCTS tree per move re-expands the positions of the
//! previous move's tree. It costs a hash and a copy of the move list per lookup, so whether it
//! helps depends on how cheap the game's move generation is; `experiments/freckers-search-effort.toml`
//! measures it.

use crate::game::Game;
use lru::LruCache;
use std::hash::Hash;
use std::num::NonZeroUsize;

/// Legal moves for a search, with lookup counts.
pub trait MoveLookup<G: Game>: Send {
    /// Appends the legal moves of `g` to `out` (as `Game::legal_moves`).
    fn legal_moves(&mut self, g: &G, out: &mut Vec<G::Move>);
    /// (lookups answered from the cache, lookups).
    fn counts(&self) -> (u64, u64);
}

/// An LRU cache of move lists keyed by position, holding at most `capacity` positions.
pub struct LruMoves<G: Game + Hash + Eq> {
    cache: LruCache<G, Vec<G::Move>>,
    hits: u64,
    lookups: u64,
}

impl<G: Game + Hash + Eq> LruMoves<G> {
    pub fn new(capacity: usize) -> LruMoves<G> {
        LruMoves {
            cache: LruCache::new(NonZeroUsize::new(capacity.max(1)).expect("at least 1")),
            hits: 0,
            lookups: 0,
        }
    }
}

impl<G: Game + Hash + Eq> MoveLookup<G> for LruMoves<G> {
    fn legal_moves(&mut self, g: &G, out: &mut Vec<G::Move>) {
        self.lookups += 1;
        if let Some(moves) = self.cache.get(g) {
            self.hits += 1;
            out.extend_from_slice(moves);
            return;
        }
        let start = out.len();
        g.legal_moves(out);
        self.cache.put(g.clone(), out[start..].to_vec());
    }

    fn counts(&self) -> (u64, u64) {
        (self.hits, self.lookups)
    }
}

/// A search's move source: the game itself, or a cache (boxed, so searches stay generic over
/// games whose positions cannot be hashed).
pub struct MoveSource<G: Game> {
    cache: Option<Box<dyn MoveLookup<G>>>,
}

impl<G: Game> Default for MoveSource<G> {
    fn default() -> MoveSource<G> {
        MoveSource::direct()
    }
}

impl<G: Game> MoveSource<G> {
    /// Moves straight from the game.
    pub fn direct() -> MoveSource<G> {
        MoveSource { cache: None }
    }

    /// Moves through an LRU cache of `capacity` positions; `capacity = 0` means no cache.
    pub fn lru(capacity: usize) -> MoveSource<G>
    where
        G: Hash + Eq,
    {
        MoveSource {
            cache: (capacity > 0)
                .then(|| Box::new(LruMoves::<G>::new(capacity)) as Box<dyn MoveLookup<G>>),
        }
    }

    #[inline]
    pub fn legal_moves(&mut self, g: &G, out: &mut Vec<G::Move>) {
        match &mut self.cache {
            None => g.legal_moves(out),
            Some(c) => c.legal_moves(g, out),
        }
    }

    /// (hits, lookups) of the cache; (0, 0) without one.
    pub fn counts(&self) -> (u64, u64) {
        self.cache.as_ref().map_or((0, 0), |c| c.counts())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::freckers::Freckers;

    #[test]
    fn the_cache_answers_repeated_positions_with_the_same_moves_and_evicts_the_oldest() {
        let start = Freckers::new(false);
        let mut after = start;
        let mut moves = Vec::new();
        start.legal_moves(&mut moves);
        after.play(moves[0]);
        let mut src = MoveSource::lru(1);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        src.legal_moves(&start, &mut a);
        src.legal_moves(&start, &mut b);
        assert_eq!(a, moves);
        assert_eq!(b, moves);
        assert_eq!(src.counts(), (1, 2));
        // Capacity 1: the second position evicts the first.
        src.legal_moves(&after, &mut Vec::new());
        src.legal_moves(&start, &mut Vec::new());
        assert_eq!(src.counts(), (1, 4));
        let mut direct = MoveSource::<Freckers>::lru(0);
        direct.legal_moves(&start, &mut Vec::new());
        assert_eq!(direct.counts(), (0, 0));
    }
}
