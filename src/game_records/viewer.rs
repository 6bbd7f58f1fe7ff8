//! The games and solves the HTML report's viewer shows: each move's text changes from the
//! position before, so the page holds a game as its start and small edits.

use super::*;

/// A game as the HTML report's viewer steps through it: the start position in the game's text
/// format, then each move (its name, the side that played it) with the position after it as
/// the changes to the previous position's text.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ViewerGame {
    pub job: String,
    pub game: u32,
    /// `othello`, `colosseum`, `freckers` or `tsumego`: how the viewer draws the text.
    pub kind: &'static str,
    pub title: String,
    pub result: String,
    pub start: String,
    /// (move, side, changes): each change is (char offset, the text that replaces as many
    /// chars there), or the whole position as (-1, text) when its length changed.
    pub moves: Vec<(String, String, Vec<(i64, String)>)>,
}

/// The changes that turn `a` into `b`: runs of differing chars, or the whole of `b` when the
/// lengths differ.
pub fn text_changes(a: &str, b: &str) -> Vec<(i64, String)> {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len() != b.len() {
        return vec![(-1, b.iter().collect())];
    }
    let mut runs: Vec<(i64, String)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if a[i] == b[i] {
            i += 1;
            continue;
        }
        let start = i;
        // A run goes on while a difference lies within the next 4 chars: runs apart by up to 3
        // equal chars are joined (fewer, cheaper entries).
        while i < b.len() && a[i..(i + 4).min(b.len())] != b[i..(i + 4).min(b.len())] {
            i += 1;
        }
        runs.push((start as i64, b[start..i].iter().collect()));
    }
    runs
}

/// The games of `jobs` for the viewer, taken in turn from each job (game 0 of every job, then
/// game 1, ...) until their encoded size passes `budget` bytes; returns them with the number
/// of games the rows hold.
pub fn viewer_games(
    exp: &Experiment,
    jobs: &[Job],
    out: &Path,
    budget: usize,
) -> Result<(Vec<ViewerGame>, usize)> {
    use rayon::prelude::*;
    let jobs: Vec<&Job> = jobs_with_rows(exp, jobs, out)
        .into_iter()
        .filter(|job| !matches!(job.config.stage, Stage::Tsumego(_)))
        .collect();
    let mut total = 0;
    let mut sizes = Vec::with_capacity(jobs.len());
    for job in &jobs {
        let n = count_games(exp, job, out)?;
        total += n;
        sizes.push(n);
    }
    // The first games of every job, in turn, until the page's budget: only the first `first`
    // games of each job are read (a top-N over its part), and `first` grows only while the
    // budget is not reached, so the memory follows the budget, not the rows. Rounds before
    // `from` were replayed with the smaller `first` and are not replayed again.
    let (mut chosen, mut size) = (Vec::new(), 0);
    let (mut from, mut first) = (0, 64);
    loop {
        let mut per_job: Vec<(&Job, Vec<GameRecord>)> = Vec::with_capacity(jobs.len());
        for job in &jobs {
            per_job.push((job, read_games(exp, job, out, Which::First(first))?));
        }
        let longest = per_job.iter().map(|(_, g)| g.len()).max().unwrap_or(0);
        let order: Vec<(&Job, &GameRecord)> = (from..longest)
            .flat_map(|i| {
                per_job
                    .iter()
                    .filter_map(move |(j, g)| g.get(i).map(|r| (*j, r)))
            })
            .collect();
        // In chunks, in parallel: replaying is the cost.
        for chunk in order.chunks(256) {
            let games: Vec<ViewerGame> = chunk
                .par_iter()
                .map(|(job, r)| viewer_game(job, r))
                .collect::<Result<_>>()?;
            for g in games {
                size += g.start.len()
                    + g.moves
                        .iter()
                        .map(|m| m.0.len() + 8 + m.2.iter().map(|c| c.1.len() + 6).sum::<usize>())
                        .sum::<usize>()
                    + 120;
                if size > budget && !chosen.is_empty() {
                    return Ok((chosen, total));
                }
                chosen.push(g);
            }
        }
        if sizes.iter().all(|&n| n <= first) {
            return Ok((chosen, total));
        }
        (from, first) = (first, first * 4);
    }
}

pub(super) fn viewer_game(job: &Job, r: &GameRecord) -> Result<ViewerGame> {
    let w = walk_record(job, r)
        .with_context(|| format!("replaying game {} of job {}", r.game, job.hash))?;
    let kind = match job.config.stage {
        Stage::Othello(_) => "othello",
        Stage::Colosseum(_) => "colosseum",
        Stage::Freckers(_) => "freckers",
        Stage::OpenSpiel(_) => "openspiel",
        Stage::Tsumego(_) => unreachable!("no games"),
    };
    // OpenSpiel's chess and go name their sides by colour: the side that moves first is White
    // in chess, Black in go (the seat that moved first, whatever the rows' version numbered it).
    let colours = match &job.config.stage {
        Stage::OpenSpiel(s) if s.game_name() == "chess" => Some(["White", "Black"]),
        Stage::OpenSpiel(s) if s.game_name() == "go" => Some(["Black", "White"]),
        _ => None,
    };
    let first_mover = w.moves.first().map(|(_, side, _)| side.clone());
    let mut previous = w.start.clone();
    let mut moves = Vec::with_capacity(w.moves.len());
    for (name, side, pos) in &w.moves {
        let side = match colours {
            Some(c) if first_mover.as_ref() == Some(side) => c[0].to_string(),
            Some(c) => c[1].to_string(),
            None => side.clone(),
        };
        moves.push((name.clone(), side, text_changes(&previous, pos)));
        previous = pos.clone();
    }
    let swept = swept_text(job);
    let winner = match r.winner.as_str() {
        "first" => format!("{} wins", r.first),
        "second" => format!("{} wins", r.second),
        _ => "draw".to_string(),
    };
    let ended = if r.termination == "normal" {
        String::new()
    } else {
        format!(", ended by {}", r.termination)
    };
    Ok(ViewerGame {
        job: job.hash[..8].to_string(),
        game: r.game,
        kind,
        title: format!(
            "job {}{swept} game {}: {} vs {}",
            &job.hash[..8],
            r.game,
            r.first,
            r.second
        ),
        result: format!("{winner}, {} : {}{ended}", r.scores[0], r.scores[1]),
        start: w.start,
        moves,
    })
}

/// Problems of a `solve` experiment the viewer shows at most: each needs the solver's main line
/// (a search per move), so the page holds a sample, the first problems of each weight vector.
pub const VIEWER_PROBLEMS: usize = 24;

/// The life-and-death problems of a `solve` experiment's first job for the viewer: each (weights,
/// problem) unit with the solver's main line with those weights (as `gamelab games` writes it in
/// SGF), its positions as the problem's map (`X` attacker, `O` defender, `.` empty, `#` wall)
/// under a line naming the attacker's colour. Up to `VIEWER_PROBLEMS` units, spread over the
/// weight vectors; returns them with the number of units the rows hold.
pub fn viewer_solves(
    exp: &Experiment,
    jobs: &[Job],
    out: &Path,
) -> Result<(Vec<ViewerGame>, usize)> {
    use crate::game::tsumego::board::Move;
    use crate::game::tsumego::problem::Problem;
    use rayon::prelude::*;
    let Some(job) = jobs_with_rows(exp, jobs, out).into_iter().next() else {
        return Ok((Vec::new(), 0));
    };
    let Stage::Tsumego(stage) = &job.config.stage else {
        return Ok((Vec::new(), 0));
    };
    let library = stage.library.dir(out, &stage.id);
    let work = crate::experiment::kind::solve::SolveWork::load(job, &library, out)?;
    let (n, w) = (work.problems.len(), work.weights.len().max(1));
    let per_weights = VIEWER_PROBLEMS.div_ceil(w).min(n);
    let units: Vec<usize> = (0..work.weights.len())
        .flat_map(|k| (0..per_weights).map(move |p| k * n + p))
        .collect();
    let text_of = |p: &Problem, pos: &crate::game::tsumego::Position| {
        let here = Problem {
            start: *pos,
            ..p.clone()
        };
        format!(
            "attacker {}\n{} to move\n{}\n",
            if p.attacker_black { "black" } else { "white" },
            pos.to_move.name(),
            here.map().join("\n")
        )
    };
    let games = units
        .par_iter()
        .map(|&u| {
            let ((label, weights), p) = (&work.weights[u / n], &work.problems[u % n]);
            let line = crate::game::tsumego::line::main_line(
                &mut crate::game::tsumego::Solver::new(20),
                p,
                weights,
                work.limits,
                MAIN_LINE_CAP,
            );
            let start = text_of(p, &p.start);
            let (mut pos, mut previous, mut moves) = (p.start, start.clone(), Vec::new());
            for &m in &line.moves {
                let side = pos.to_move.name().to_string();
                pos = match m {
                    Move::Play(i) => pos
                        .play(&p.region, i as usize)
                        .map(|(next, _)| next)
                        .with_context(|| {
                            format!(
                                "problem {}: the main line's {} is not legal",
                                p.name,
                                p.move_name(m)
                            )
                        })?,
                    Move::Pass => pos.pass(),
                };
                let text = text_of(p, &pos);
                moves.push((p.move_name(m), side, text_changes(&previous, &text)));
                previous = text;
            }
            let library_status = p.status.map_or("none".to_string(), |s| s.to_string());
            Ok(ViewerGame {
                job: job.hash[..8].to_string(),
                game: (u % n) as u32,
                kind: "tsumego",
                title: format!("job {} weights {label}: problem {}", &job.hash[..8], p.name),
                result: format!(
                    "status {} (library: {library_status}), main line {}",
                    line.status,
                    if line.complete {
                        "to a decided position"
                    } else {
                        "cut (out of budget or past its cap)"
                    }
                ),
                start,
                moves,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((games, work.units()))
}
