//! The Othello arena's built-in strategies (greedy, corners, positional) and the `Arena` impl
//! that builds every agent kind Othello supports.

use super::{Move, Othello};
use crate::agent::random::best_by;
use crate::agent::table::{CLASSIC_HALF, TableRef, WeightTable};
use crate::agent::{Agent, AgentSpec, Arena, Budget, build_generic};
use crate::game::{CellGame, Game};
use crate::rng::{GameRng, below};

/// Most discs flipped now; ties to the first move in row-major order.
pub struct Greedy;

fn greedy_move(game: &Othello) -> Move {
    best_by(game, |m| game.flips(m).count_ones() as f64)
}

impl Agent<Othello> for Greedy {
    fn choose(&mut self, game: &Othello, _: &mut GameRng, _: Budget) -> Move {
        greedy_move(game)
    }
}

/// The first legal corner (row-major); else a uniformly random legal edge move; else greedy.
pub struct Corners;

impl Agent<Othello> for Corners {
    fn choose(&mut self, game: &Othello, rng: &mut GameRng, _: Budget) -> Move {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let last = game.board_size() - 1;
        let cells: Vec<(Move, (usize, usize))> = moves.iter().filter_map(|&m| game.move_cell(m).map(|rc| (m, rc))).collect();
        let is_corner = |(r, c): (usize, usize)| (r == 0 || r == last) && (c == 0 || c == last);
        let is_edge = |(r, c): (usize, usize)| r == 0 || r == last || c == 0 || c == last;
        if let Some(&(m, _)) = cells.iter().filter(|(_, rc)| is_corner(*rc)).min_by_key(|(_, rc)| *rc) {
            return m;
        }
        let edges: Vec<Move> = cells.iter().filter(|(_, rc)| is_edge(*rc)).map(|&(m, _)| m).collect();
        if !edges.is_empty() {
            return edges[below(rng, edges.len())];
        }
        greedy_move(game)
    }
}

/// Best move by the classic 8x8 table, ties row-major; greedy on boards other than 8x8.
pub struct Positional {
    table: WeightTable,
}

impl Positional {
    pub fn new() -> Positional {
        let mut rows: Vec<Vec<f64>> = CLASSIC_HALF.iter().map(|r| r.to_vec()).collect();
        rows.extend(CLASSIC_HALF.iter().rev().map(|r| r.to_vec()));
        Positional { table: TableRef::Rows(rows).table_for(8).expect("the classic table is 8x8") }
    }
}

impl Default for Positional {
    fn default() -> Self {
        Positional::new()
    }
}

impl Agent<Othello> for Positional {
    fn choose(&mut self, game: &Othello, _: &mut GameRng, _: Budget) -> Move {
        if game.board_size() != 8 {
            return greedy_move(game);
        }
        best_by(game, |m| game.move_cell(m).map_or(0.0, |(r, c)| self.table.get(r, c)))
    }
}

impl Arena for Othello {
    fn build_agent(spec: &AgentSpec, start: &Othello) -> Result<Box<dyn Agent<Othello>>, String> {
        if let Some(agent) = build_generic(spec, start)? {
            return Ok(agent);
        }
        Ok(match spec {
            AgentSpec::Greedy => Box::new(Greedy),
            AgentSpec::Corners => Box::new(Corners),
            AgentSpec::Positional => Box::new(Positional::new()),
            other => return Err(format!("agent kind '{}' is not available for Othello", other.kind_name())),
        })
    }
}
