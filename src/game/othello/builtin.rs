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
        let cells: Vec<(Move, (usize, usize))> = moves
            .iter()
            .filter_map(|&m| game.move_cell(m).map(|rc| (m, rc)))
            .collect();
        let is_corner = |(r, c): (usize, usize)| (r == 0 || r == last) && (c == 0 || c == last);
        let is_edge = |(r, c): (usize, usize)| r == 0 || r == last || c == 0 || c == last;
        if let Some(&(m, _)) = cells
            .iter()
            .filter(|(_, rc)| is_corner(*rc))
            .min_by_key(|(_, rc)| *rc)
        {
            return m;
        }
        let edges: Vec<Move> = cells
            .iter()
            .filter(|(_, rc)| is_edge(*rc))
            .map(|&(m, _)| m)
            .collect();
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
        Positional {
            table: TableRef::Rows(rows)
                .table_for(8)
                .expect("the classic table is 8x8"),
        }
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
        best_by(game, |m| {
            game.move_cell(m).map_or(0.0, |(r, c)| self.table.get(r, c))
        })
    }
}

impl crate::agent::external::Protocol for Othello {
    const NAME: &'static str = "othello";
    fn position_text(&self) -> String {
        super::text::to_text(self)
    }
    /// GTP engines (Edax's `-gtp`): the standard board, told as the moves from its start
    /// (`othello::gtp`).
    fn engine_position(
        &self,
        dialect: crate::agent::external::Dialect,
        start: &Othello,
        history: &[Move],
    ) -> Result<crate::agent::external::EnginePosition, String> {
        match dialect {
            crate::agent::external::Dialect::Gtp => super::gtp::gtp_position(self, start, history),
            other => Err(format!(
                "Othello engines speak GTP here (kind = \"gtp\", as Edax's -gtp mode), not {}",
                other.kind_name()
            )),
        }
    }
}

impl Arena for Othello {
    fn build_agent(spec: &AgentSpec, start: &Othello) -> Result<Box<dyn Agent<Othello>>, String> {
        crate::agent::refuse_other_kinds("othello", spec)?;
        if let Some(agent) = build_generic(spec, start)? {
            return Ok(agent);
        }
        Ok(match spec {
            AgentSpec::Greedy {} => Box::new(Greedy),
            AgentSpec::Corners {} => Box::new(Corners),
            AgentSpec::Positional {} => Box::new(Positional::new()),
            AgentSpec::External(e) => {
                Box::new(crate::agent::external::ExternalAgent::new(e, start))
            }
            // An Othello engine over GTP, on the standard board (`othello::gtp`).
            AgentSpec::Gtp(e) => {
                use crate::agent::external::Protocol;
                start.engine_position(crate::agent::external::Dialect::Gtp, start, &[])?;
                Box::new(crate::agent::external::ExternalAgent::speaking(
                    e,
                    crate::agent::external::Dialect::Gtp,
                    start,
                ))
            }
            AgentSpec::OpenspielMcts { .. }
            | AgentSpec::OpenspielRandom {}
            | AgentSpec::OpenspielAlphabeta {} => {
                // OpenSpiel's othello starts from the standard 8x8 position only, and the bot
                // is given the line from there.
                if *start != Othello::from_stage_id("standard8") {
                    return Err(format!(
                        "`{}` plays Othello from the standard 8x8 start only (stage standard8, no [openings]): OpenSpiel's othello cannot be set up at another position",
                        spec.kind_name()
                    ));
                }
                crate::game::openspiel::OpenSpielStage::load(
                    &crate::game::openspiel::OpenSpielSpec {
                        name: "othello".into(),
                        params: Default::default(),
                    },
                )?;
                Box::new(crate::game::openspiel::OpenSpielBot::new(
                    spec,
                    "othello".into(),
                    start,
                ))
            }
            other => {
                return Err(format!(
                    "agent kind '{}' is not available for Othello",
                    other.kind_name()
                ));
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::AgentSpec;
    use crate::game::Player;
    use crate::rng::rng_from_seed;

    fn choose(spec: &AgentSpec, pos: &Othello, seed: u64) -> String {
        let mut agent = Othello::build_agent(spec, pos).unwrap();
        let budget = spec.budget().unwrap();
        pos.move_name(agent.choose(pos, &mut rng_from_seed(seed), budget))
    }

    const START8: &str =
        "........\n........\n........\n...OX...\n...XO...\n........\n........\n........";

    #[test]
    fn ties_go_to_the_first_move_in_row_major_order() {
        let start = Othello::from_text(START8, Player::First).unwrap();
        // All four openings flip one disc and weigh 3 in the classic table.
        assert_eq!(choose(&AgentSpec::Greedy {}, &start, 1), "d3");
        assert_eq!(choose(&AgentSpec::Positional {}, &start, 1), "d3");
    }

    #[test]
    fn greedy_takes_the_most_discs_and_positional_the_best_cell() {
        // Black X to move. a1 flips b2 only (1 disc, a corner: 120); h8 is not legal;
        // d8 flips d7 d6 d5 (3 discs, weight 5).
        let pos = Othello::from_text(
            "........\n.O......\n..X.....\n...X....\n...O....\n...O....\n...O....\n........",
            Player::First,
        )
        .unwrap();
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let names: Vec<String> = legal.iter().map(|&m| pos.move_name(m)).collect();
        assert!(
            names.contains(&"a1".to_string()) && names.contains(&"d8".to_string()),
            "{names:?}"
        );
        assert_eq!(choose(&AgentSpec::Greedy {}, &pos, 1), "d8");
        assert_eq!(choose(&AgentSpec::Positional {}, &pos, 1), "a1");
        // Corners takes the corner too.
        assert_eq!(choose(&AgentSpec::Corners {}, &pos, 1), "a1");
    }

    #[test]
    fn corners_prefers_the_first_corner_then_random_edges_then_greedy() {
        // Both a1 and h1 are legal corners for black: a1 comes first in row-major order.
        let two_corners = Othello::from_text(
            "........\n.O....O.\n..X..X..\n........\n........\n........\n........\n........",
            Player::First,
        )
        .unwrap();
        assert_eq!(choose(&AgentSpec::Corners {}, &two_corners, 3), "a1");
        // No corner; edge moves a4 and h4, interior moves d4 and e6: only edges are chosen, and
        // both of them over a few seeds. Greedy (all flip one disc) takes a4, the first.
        let edges = Othello::from_text(
            "........\n........\n........\n.OX..XO.\n...O....\n...X....\n........\n........",
            Player::First,
        )
        .unwrap();
        let mut legal = Vec::new();
        edges.legal_moves(&mut legal);
        let names: Vec<String> = legal.iter().map(|&m| edges.move_name(m)).collect();
        assert_eq!(names, ["a4", "d4", "h4", "e6"]);
        let seen: std::collections::BTreeSet<String> = (0..40)
            .map(|seed| choose(&AgentSpec::Corners {}, &edges, seed))
            .collect();
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), ["a4", "h4"]);
        // Neither corner nor edge: greedy's choice.
        let start = Othello::from_text(START8, Player::First).unwrap();
        assert_eq!(choose(&AgentSpec::Corners {}, &start, 5), "d3");
    }

    #[test]
    fn positional_is_greedy_on_boards_other_than_8x8() {
        let mut rng = rng_from_seed(11);
        let mut buf = Vec::new();
        for _ in 0..30 {
            let mut pos = Othello::from_stage_id("small6");
            for _ in 0..(crate::rng::below(&mut rng, 20)) {
                if let Some(m) = pos.random_move(&mut rng, &mut buf) {
                    pos.play(m);
                }
            }
            if pos.is_over() {
                continue;
            }
            assert_eq!(
                choose(&AgentSpec::Positional {}, &pos, 0),
                choose(&AgentSpec::Greedy {}, &pos, 0)
            );
        }
    }

    #[test]
    fn table_player_follows_its_table() {
        let start = Othello::from_text(START8, Player::First).unwrap();
        // A table that prefers the lower-right: f5 (4,5) weighs most among the openings.
        let rows: Vec<Vec<f64>> = (0..8)
            .map(|r| (0..8).map(|c| (r * 8 + c) as f64).collect())
            .collect();
        let spec = AgentSpec::TablePlayer {
            table: crate::agent::TableRef::Rows(rows),
        };
        // e6 is (5,4) = 44, f5 is (4,5) = 37: e6 wins.
        assert_eq!(choose(&spec, &start, 0), "e6");
    }

    #[test]
    fn a_single_legal_move_or_pass_is_played_without_search() {
        // White to move has no legal move but black has: white must pass.
        let pos = Othello::from_text(
            "X O . .\n. . . .\n. . . .\n. . . ."
                .replace(' ', "")
                .as_str(),
            Player::Second,
        )
        .unwrap();
        assert_eq!(pos.move_mask(), 0);
        assert!(!pos.is_over());
        let spec = AgentSpec::SimpleMcts {
            rollouts: Some(100),
            time_ms: None,
            table: None,
        };
        let mut agent = Othello::build_agent(&spec, &pos).unwrap();
        assert_eq!(
            agent.choose(&pos, &mut rng_from_seed(1), spec.budget().unwrap()),
            super::super::PASS
        );
        assert_eq!(agent.effort().simulations, 0);
    }

    #[test]
    fn simple_mcts_splits_its_budget_evenly_over_the_moves() {
        let start = Othello::from_stage_id("standard8");
        let spec = AgentSpec::SimpleMcts {
            rollouts: Some(103),
            time_ms: None,
            table: None,
        };
        let mut agent = Othello::build_agent(&spec, &start).unwrap();
        agent.choose(&start, &mut rng_from_seed(1), spec.budget().unwrap());
        // 4 legal moves x floor(103 / 4) = 100 rollouts.
        assert_eq!(agent.effort().simulations, 100);
    }

    /// Every continuation of `pos` ends in a win for `p` (true) or in no win for `p` (false);
    /// None when both happen.
    fn every_line(pos: &Othello, p: Player) -> Option<bool> {
        if let Some(o) = pos.outcome() {
            return Some(o == crate::game::Outcome::Win(p));
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut all = None;
        for m in moves {
            let mut next = *pos;
            next.play(m);
            let r = every_line(&next, p)?;
            if all.is_some_and(|a| a != r) {
                return None;
            }
            all = Some(r);
        }
        all
    }

    /// The game-theoretic value for the side to move: 1 win, 0 draw, -1 loss.
    fn negamax(pos: &Othello) -> i32 {
        if let Some(o) = pos.outcome() {
            return (2.0 * o.value_for(pos.to_move()) - 1.0) as i32;
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|m| {
                let mut next = *pos;
                next.play(m);
                if next.to_move() == pos.to_move() {
                    negamax(&next)
                } else {
                    -negamax(&next)
                }
            })
            .max()
            .expect("unfinished games have moves")
    }

    /// Endgame positions of small6 (at most `empties` empty cells) reached by random play.
    fn endgames(seed: u64, count: usize, empties: u32) -> Vec<Othello> {
        let mut rng = rng_from_seed(seed);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = Othello::from_stage_id("small6");
            while !pos.is_over() {
                let (b, w) = pos.counts();
                if 36 - b - w <= empties {
                    out.push(pos);
                    break;
                }
                let m = pos.random_move(&mut rng, &mut buf).unwrap();
                pos.play(m);
            }
        }
        out
    }

    #[test]
    fn simple_mcts_takes_the_move_whose_every_line_wins() {
        // Positions where exactly one move wins in every continuation and every other move wins
        // in none: flat Monte Carlo must find the win, whatever its rollouts draw.
        let spec = AgentSpec::SimpleMcts {
            rollouts: Some(200),
            time_ms: None,
            table: None,
        };
        let mut found = 0;
        for pos in endgames(21, 30000, 5) {
            let me = pos.to_move();
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let lines: Vec<Option<bool>> = moves
                .iter()
                .map(|&m| {
                    let mut next = pos;
                    next.play(m);
                    every_line(&next, me)
                })
                .collect();
            let winners: Vec<usize> = (0..moves.len())
                .filter(|&i| lines[i] == Some(true))
                .collect();
            if winners.len() == 1
                && lines.iter().filter(|l| **l == Some(false)).count() == moves.len() - 1
                && moves.len() > 1
            {
                found += 1;
                assert_eq!(
                    choose(&spec, &pos, found as u64),
                    pos.move_name(moves[winners[0]]),
                    "\n{}",
                    pos.board_text()
                );
            }
        }
        assert!(found >= 10, "only {found} test positions found");
    }

    #[test]
    fn uct_finds_the_only_winning_move_in_small_endgames() {
        let spec: AgentSpec = toml::from_str("kind = \"uct\"\niterations = 3000\nc = 1.0").unwrap();
        let mut found = 0;
        for pos in endgames(5, 400, 5) {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let values: Vec<i32> = moves
                .iter()
                .map(|&m| {
                    let mut next = pos;
                    next.play(m);
                    if next.to_move() == pos.to_move() {
                        negamax(&next)
                    } else {
                        -negamax(&next)
                    }
                })
                .collect();
            let wins: Vec<usize> = (0..moves.len()).filter(|&i| values[i] == 1).collect();
            if wins.len() == 1
                && values.iter().filter(|&&v| v == -1).count() == moves.len() - 1
                && moves.len() > 1
            {
                found += 1;
                assert_eq!(
                    choose(&spec, &pos, found as u64),
                    pos.move_name(moves[wins[0]]),
                    "\n{}",
                    pos.board_text()
                );
            }
        }
        assert!(found >= 10, "only {found} test positions found");
    }
}
