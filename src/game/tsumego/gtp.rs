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

/// The GTP commands that set up `p`, then the questions that ask its status: one per target
/// chain, on its first stone (the defender lives when a chain through one of the targets
/// lives); how many is the second value (the last commands).
pub fn commands(p: &Problem) -> Result<(Vec<String>, usize), String> {
    let r = &p.region;
    if p.targets == 0 {
        return Err(format!("problem {}: no target stone to ask about", p.name));
    }
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
    // A stone of each target chain (the chains of the defender's stones through the targets).
    let defender = p.start.of(Side::Defender);
    let targets: Vec<usize> = r
        .parts(defender)
        .filter(|(chain, _)| chain & p.targets != 0)
        .map(|(chain, _)| chain.trailing_zeros() as usize)
        .collect();
    for &t in &targets {
        c.push(format!("{verb} {}", r.point_name(t)));
    }
    Ok((c, targets.len()))
}

/// The status the answers to the questions on every target give: the defender lives when one
/// target's group lives (an attack on it fails, or a defence of it succeeds), dies when every
/// target's group dies, and otherwise the status turns on a ko.
pub fn read_answers(
    p: &Problem,
    asked: &[String],
    answers: &[String],
) -> Result<EngineStatus, String> {
    let each: Vec<EngineStatus> = asked
        .iter()
        .zip(answers)
        .map(|(q, a)| read_answer(p, q, a))
        .collect::<Result<_, _>>()?;
    let lives = each.iter().find(|e| e.status == Some(Status::Alive));
    let all_die = each.iter().all(|e| e.status == Some(Status::Dead));
    let (status, by) = match (lives, all_die) {
        (Some(e), _) => (Some(Status::Alive), e.by.clone()),
        (None, true) => (Some(Status::Dead), each.first().and_then(|e| e.by.clone())),
        _ => (None, each.iter().find_map(|e| e.by.clone())),
    };
    Ok(EngineStatus {
        status,
        by,
        answer: answers.join(", "),
        asked: asked.join(", "),
    })
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
        let (c, n) = commands(p).unwrap();
        assert_eq!(n, 1, "one chain of the defender's stones");
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
        // One target's group that cannot be killed is a living defender; all killed, dead.
        let qs = vec![asked.clone(), asked.replace("B19", "D19")];
        let answers = |a: &str, b: &str| {
            read_answers(p, &qs, &[a.to_string(), b.to_string()])
                .unwrap()
                .status
        };
        assert_eq!(answers("1 A19", "0"), Some(Status::Alive));
        assert_eq!(answers("1 A19", "1 A19"), Some(Status::Dead));
        assert_eq!(answers("1 A19", "2 A19"), None);
    }
}
