//! A life-and-death problem asked of a Go program over GTP (GNU Go's owl module): the problem
//! set up on an empty board with a `play` for each stone (the walls and attacker stones in the
//! attacker's colour, the defender's in the other), then `owl_attack` on a target stone when the
//! attacker moves first, `owl_defend` when the defender does. GNU Go answers `0` (the aim
//! fails), `1 MOVE` (it succeeds, by MOVE), or `2`/`3` (it succeeds by a ko, which the side
//! must win: GNU Go's KO_A / KO_B). So a plain answer is a threat-free status (`l` or `d`)
//! beside gamelab's solver's; a ko answer says only that the status turns on a ko.

use super::board::{Bits, Side, coord_name};
use super::problem::{Problem, Status};

/// What the engine says of a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineStatus {
    /// `l`, `d`, or None for a ko answer.
    pub status: Option<Status>,
    /// The first move of the side to move that reaches its aim (a winning move), if it named one.
    pub by: Option<String>,
    /// The engine's answer as it came.
    pub answer: String,
    /// The question asked (`owl_attack C18`).
    pub asked: String,
}

/// The GTP commands that set up `p` and the question that asks its status (the last command).
pub fn commands(p: &Problem) -> Result<Vec<String>, String> {
    let r = &p.region;
    let target = Bits(p.targets)
        .next()
        .ok_or_else(|| format!("problem {}: no target stone to ask about", p.name))?;
    let (att, def) = if p.attacker_black {
        ("B", "W")
    } else {
        ("W", "B")
    };
    let mut c = vec![format!("boardsize {}", r.size), "clear_board".to_string()];
    for &w in &r.wall {
        c.push(format!("play {att} {}", coord_name(r.size, w)));
    }
    for i in Bits(p.start.of(Side::Attacker)) {
        c.push(format!("play {att} {}", r.point_name(i)));
    }
    for i in Bits(p.start.of(Side::Defender)) {
        c.push(format!("play {def} {}", r.point_name(i)));
    }
    let verb = if p.start.to_move == Side::Attacker {
        "owl_attack"
    } else {
        "owl_defend"
    };
    c.push(format!("{verb} {}", r.point_name(target)));
    Ok(c)
}

/// The status the owl question's `answer` gives, from the defender's point of view.
pub fn read_answer(p: &Problem, asked: &str, answer: &str) -> Result<EngineStatus, String> {
    let mut words = answer.split_whitespace();
    let code = words.next().unwrap_or_default();
    let by = words.next().map(str::to_string);
    let attacker_moves = p.start.to_move == Side::Attacker;
    let status = match code {
        "0" if attacker_moves => Some(Status::Alive),
        "0" => Some(Status::Dead),
        "1" if attacker_moves => Some(Status::Dead),
        "1" => Some(Status::Alive),
        "2" | "3" => None,
        _ => {
            return Err(format!(
                "`{asked}` answered `{answer}`: expected 0, 1, 2 or 3 and a move"
            ));
        }
    };
    Ok(EngineStatus {
        status,
        by: by.filter(|_| code != "0"),
        answer: answer.to_string(),
        asked: asked.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_EYES: &str =
        "problem alive\nsize 19\nto-move attacker\nattacker black\nmap\n.O.O#\nOOOO#\n#####\nend\n";

    #[test]
    fn a_problem_is_set_up_stone_by_stone_and_asked_by_the_side_to_move() {
        let p = &super::super::parse_problems(TWO_EYES).unwrap()[0];
        let c = commands(p).unwrap();
        assert_eq!(c[0], "boardsize 19");
        assert!(c.contains(&"play W B19".to_string()), "{c:?}");
        assert!(c.contains(&"play B E19".to_string()), "{c:?}");
        assert!(c.last().unwrap().starts_with("owl_attack "), "{c:?}");
        let asked = c.last().unwrap();
        assert_eq!(
            read_answer(p, asked, "0").unwrap().status,
            Some(Status::Alive)
        );
        let killed = read_answer(p, asked, "1 A19").unwrap();
        assert_eq!(
            (killed.status, killed.by.as_deref()),
            (Some(Status::Dead), Some("A19"))
        );
        assert_eq!(read_answer(p, asked, "2 A19").unwrap().status, None);
        assert!(read_answer(p, asked, "yes").is_err());
    }
}
