//! `gamelab solve` and `check-gotools` on GoTools' own files: reading them, solving each
//! question beside GoTools' answer, and the check's CSV.

use super::*;

/// How to get GoTools' problem files (they are copyrighted and never ship with gamelab).
pub(crate) const GOTOOLS_HOWTO: &str = "GoTools' problem files are not part of gamelab (they are copyrighted): get them from the public repository cameron-martin/tsumego-solver (folder benches/gotools/puzzles, files lvA.B), keep them outside the repository, and give the folder as an argument or as GOTOOLS_PROBLEMS=DIR";

/// Whether a `solve` path is GoTools' (a folder, or a file in GoTools' layout).
pub(crate) fn is_gotools_path(path: &PathBuf) -> bool {
    use std::io::Read;
    if path.is_dir() {
        return true;
    }
    // The first 4 KiB of a regular file only (a device or pipe is read, and refused, later).
    let mut head = Vec::new();
    path.is_file()
        && std::fs::File::open(path)
            .and_then(|f| f.take(4096).read_to_end(&mut head))
            .is_ok()
        && gamelab::game::tsumego::gotools::is_gotools(&String::from_utf8_lossy(&head))
}

/// `gamelab solve` on GoTools' files: each question with GoTools' answer beside ours.
pub(crate) fn solve_gotools(
    path: &PathBuf,
    w: &gamelab::game::tsumego::Weights,
    node_budget: u64,
    only: Option<&str>,
    search: gamelab::game::tsumego::solver::Search,
    status_only: bool,
    mut gtp: Option<&mut super::solve::GtpAsker>,
) -> Result<()> {
    use gamelab::game::tsumego::check::{FirstMoves, compare};
    let questions = gamelab::workflow::read_gotools(path)?;
    let chosen: Vec<&gamelab::workflow::GoToolsQuestion> = questions
        .iter()
        .filter(|q| {
            only.is_none_or(|n| {
                q.question.problem.name == n || q.question.problem.name.split('/').next() == Some(n)
            })
        })
        .collect();
    if chosen.is_empty() {
        return Err(InputError {
            file: Some(path.clone()),
            line_col: None,
            key: None,
            message: format!("no problem named '{}'", only.unwrap_or_default()),
        }
        .into());
    }
    let mut solver =
        gamelab::game::tsumego::Solver::new(gamelab::game::tsumego::solver::DEEP_TABLE_BITS);
    let limits = gamelab::game::tsumego::Limits::with_budget(node_budget).searching(search);
    let mut counts = [0usize; 3];
    for q in chosen {
        // --status-only: the status sweep alone (before, GoTools' files ignored the flag and
        // searched every winning first move too: on lv4.6 half of the nodes).
        let moves = if status_only {
            FirstMoves::None
        } else {
            FirstMoves::All
        };
        let c = compare(
            &mut solver,
            &q.question,
            q.volume,
            q.level,
            w,
            limits,
            moves,
        );
        let p = &q.question.problem;
        let names = |ms: &[gamelab::game::tsumego::Move]| {
            ms.iter()
                .map(|&m| p.move_name(m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let verdict = c.verdict();
        counts[verdict as usize] += 1;
        println!(
            "{}:{} {}: GoTools {} (first moves {}), ours {} (first moves {}): {}; nodes {}, leaves {}, {:.3} s",
            q.file.display(),
            q.question.line,
            p.name,
            c.gotools,
            if p.winning.is_empty() {
                "-".to_string()
            } else {
                names(&p.winning)
            },
            c.ours,
            if c.ours_moves.is_empty() {
                "-".to_string()
            } else {
                names(&c.ours_moves)
            },
            verdict.word(),
            c.nodes,
            c.leaves,
            c.time_s
        );
        if let Some(g) = gtp.as_deref_mut() {
            println!("{}", g.ask(p, c.ours)?);
        }
    }
    println!(
        "{} agree, {} differ, {} unknown",
        counts[0], counts[1], counts[2]
    );
    if let Some(g) = &gtp {
        println!("{}", g.summary());
    }
    Ok(())
}

/// One CSV row per question of `check-gotools`.
pub(crate) fn write_check_csv(
    path: &PathBuf,
    qs: &[gamelab::workflow::GoToolsQuestion],
    rows: &[gamelab::game::tsumego::check::Compared],
) -> Result<()> {
    use gamelab::report::table::csv_line;
    use std::io::Write;
    gamelab::durable::write_atomic(path, |f| {
        let mut w = std::io::BufWriter::new(f);
        w.write_all(
            csv_line(&[
                "file",
                "line",
                "question",
                "volume",
                "level",
                "gotools",
                "ours",
                "plain",
                "exact",
                "first_move",
                "nodes",
                "leaves",
                "time_s",
            ])
            .as_bytes(),
        )?;
        for (q, r) in qs.iter().zip(rows) {
            let cells = [
                q.file.display().to_string(),
                q.question.line.to_string(),
                r.name.clone(),
                r.volume.to_string(),
                r.level.to_string(),
                r.gotools.to_string(),
                r.ours.to_string(),
                r.plain().word().to_string(),
                r.exact().word().to_string(),
                r.first_move().map_or("", |v| v.word()).to_string(),
                r.nodes.to_string(),
                r.leaves.to_string(),
                format!("{:.4}", r.time_s),
            ];
            w.write_all(csv_line(&cells).as_bytes())?;
        }
        w.flush()?;
        Ok(())
    })
}

pub(crate) fn read_problems(path: &PathBuf) -> Result<Vec<gamelab::game::tsumego::Problem>> {
    let text = read_position(path)?;
    let parsed = if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
    {
        gamelab::game::tsumego::parse_sgf(&text).map(|p| vec![p])
    } else {
        gamelab::game::tsumego::parse_problems(&text)
    };
    parsed.map_err(|e| position_error(path, e))
}

/// `--levels 1-14` or `--levels 7`, within 1..=14.
pub(crate) fn parse_levels(s: &str) -> Result<(u8, u8)> {
    let bad = || {
        InputError::plain(format!(
            "--levels '{s}': expected FIRST-LAST within 1-14, such as 1-14 or 3-6"
        ))
    };
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (
            a.trim().parse::<u8>().map_err(|_| bad())?,
            b.trim().parse::<u8>().map_err(|_| bad())?,
        ),
        None => {
            let v = s.trim().parse::<u8>().map_err(|_| bad())?;
            (v, v)
        }
    };
    if a == 0 || b > 14 || a > b {
        return Err(bad().into());
    }
    Ok((a, b))
}
