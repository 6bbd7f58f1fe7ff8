//! Game records: an experiment's game rows read back as games, replayed move by move
//! (`gamelab replay`), and written out in each game's record format (`gamelab games`).
//!
//! A game row holds everything its game needs to be replayed: the stage (the job's config gives
//! its start), the random setup for games that have one (`start_position`), and the moves
//! (`transcript`, which begins with the `opening` when the job has openings). Replaying checks
//! the row: every move must be legal, and the game must end with the recorded scores (unless an
//! external agent's fault ended it early).
//!
//! Life-and-death `solve` jobs are written as SGF collections (`<job hash>.sgf`): one game tree
//! per row, the problem with the solver's main line (see `export_solves`).
//!
//! Records in each game's own standard where it has one: OpenSpiel's chess as PGN (`<job
//! hash>.pgn`, `pgn_text`), which chess programs and python-chess read; OpenSpiel's go as SGF
//! (`<job hash>.sgf`, `sgf_game_text`). The record files `gamelab games` writes for the other
//! games, one per job (`<job hash>.txt`), hold one block per game: PGN-style header lines
//! (`[Key "value"]`: game, job, stage, players, result, scores, plies, termination, opening),
//! the start position in the game's text format between `{` and `}` for games with a random
//! setup, then the moves (Othello as Othello programs read a game, run together: `f5d6c3`,
//! passes left out; the others by name, separated by spaces), then a blank line. `gamelab show
//! --moves` and an opening suite read those move lines as they are.

use crate::experiment::grid::Job;
use crate::experiment::kind::rows_folder;
use crate::experiment::layout::{results_dir, sound_part};
use crate::experiment::spec::{Experiment, Stage};
use crate::game::colosseum::Colosseum;
use crate::game::freckers::Freckers;
use crate::game::openspiel::OpenSpiel;
use crate::game::othello::Othello;
use crate::game::{Game, play_line};
use anyhow::{Context, Result, bail};
use polars::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod viewer;
pub use viewer::{VIEWER_PROBLEMS, ViewerGame, text_changes, viewer_games, viewer_solves};

/// One game as its row records it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub game: u32,
    pub stage: String,
    pub first: String,
    pub second: String,
    /// "first", "second" or "draw".
    pub winner: String,
    pub scores: [i64; 2],
    pub plies: u32,
    pub transcript: String,
    pub termination: String,
    pub start_position: Option<String>,
    pub opening: Option<String>,
    /// The seats' budgets as the rows give them (`1000 nodes`, `200 sims`, `60 s per game`);
    /// None in rows without them.
    pub budgets: [Option<String>; 2],
}

/// The columns a record is read from; `start_position` and `opening` are missing in rows of
/// older versions (None then).
const COLUMNS: [&str; 11] = [
    "game",
    "stage",
    "first_agent",
    "second_agent",
    "winner",
    "first_score",
    "second_score",
    "plies",
    "transcript",
    "termination",
    "start_position",
];

/// Which games of a job `read_games` reads.
#[derive(Clone, Copy, Debug)]
pub enum Which {
    All,
    /// The game of that number.
    One(u32),
    /// The first N games by number (a top-N over the part: memory follows N, not the job).
    First(usize),
}

/// The part file of a job's rows.
fn job_part(exp: &Experiment, job: &Job, out: &Path) -> Result<PathBuf> {
    if !job.config.kind.plays_games() {
        bail!(
            "{}: job {} is a {:?} job; its rows are not games",
            exp.name,
            job.hash,
            job.config.kind
        );
    }
    let results = results_dir(out, &exp.name);
    let rows_dir = results.join(rows_folder(exp.file.kind));
    let part = match sound_part(&results, &rows_dir, &exp.name, &job.hash) {
        Ok(Some((part, _))) => part,
        Ok(None) => bail!(
            "{}: job {} has no rows yet in {} (run `gamelab run {}`)",
            exp.name,
            job.hash,
            rows_dir.display(),
            exp.path.display()
        ),
        Err((part, why)) => bail!("{}: {why}", part.display()),
    };
    Ok(part)
}

/// How many games a job's rows hold (read from the part's row count, not its rows).
pub fn count_games(exp: &Experiment, job: &Job, out: &Path) -> Result<usize> {
    count_rows(&job_part(exp, job, out)?)
}

/// How many rows a part file holds (a Parquet file's from its metadata).
fn count_rows(part: &Path) -> Result<usize> {
    let df = crate::experiment::rows::collect(
        crate::experiment::rows::scan_part(part)?.select([len().alias("n")]),
    )
    .with_context(|| format!("reading {}", part.display()))?;
    Ok(df.column("n")?.u32()?.get(0).unwrap_or(0) as usize)
}

/// The game records of one job's rows (`which`: all, one game, or the first N), in game order.
pub fn read_games(
    exp: &Experiment,
    job: &Job,
    out: &Path,
    which: Which,
) -> Result<Vec<GameRecord>> {
    let part = job_part(exp, job, out)?;
    let mut frame = crate::experiment::rows::scan_part(&part)?;
    let schema = frame.collect_schema()?;
    if let Which::One(g) = which {
        frame = frame.filter(col("game").eq(lit(g as i64)));
    }
    let mut wanted: Vec<Expr> = COLUMNS
        .iter()
        .filter(|c| schema.contains(c))
        .map(|c| col(*c).cast(DataType::String))
        .collect();
    for extra in ["opening", "first_budget", "second_budget"] {
        if schema.contains(extra) {
            wanted.push(col(extra).cast(DataType::String));
        }
    }
    // Sorted by the game number before the columns become text ("10" sorts before "9").
    let read = |frame: LazyFrame| {
        crate::experiment::rows::collect(
            frame
                .sort(["game"], SortMultipleOptions::default())
                .select(wanted.clone()),
        )
        .with_context(|| format!("reading {}", part.display()))
    };
    let df = match which {
        // A job's games are numbered from 0, so its first N are those numbered below N: a filter
        // the scan applies as it reads (row groups past them are skipped by their statistics),
        // where a top-N would read every row's transcript. A part with gaps in its numbers
        // (none is written so) takes the top-N.
        Which::First(n) => {
            let below = read(frame.clone().filter(col("game").lt(lit(n as i64))))?;
            if below.height() >= n || below.height() == count_rows(&part)? {
                below
            } else {
                read(
                    frame
                        .sort(["game"], SortMultipleOptions::default())
                        .limit(n as IdxSize),
                )?
            }
        }
        _ => read(frame)?,
    };
    let text = |name: &str| -> Result<Vec<Option<String>>> {
        Ok(match df.column(name) {
            Ok(c) => c.str()?.iter().map(|v| v.map(str::to_string)).collect(),
            Err(_) => vec![None; df.height()],
        })
    };
    let [
        games,
        stages,
        firsts,
        seconds,
        winners,
        s1,
        s2,
        plies,
        transcripts,
        terminations,
        starts,
    ] = COLUMNS.map(text);
    let openings = text("opening")?;
    let (budget1, budget2) = (text("first_budget")?, text("second_budget")?);
    let number = |v: &Option<String>, what: &str| -> Result<i64> {
        v.as_deref()
            .and_then(|s| s.parse().ok())
            .with_context(|| format!("{}: a row without a {what}", part.display()))
    };
    let (games, stages, firsts, seconds, winners, s1, s2, plies, transcripts, terminations, starts) = (
        games?,
        stages?,
        firsts?,
        seconds?,
        winners?,
        s1?,
        s2?,
        plies?,
        transcripts?,
        terminations?,
        starts?,
    );
    let mut out = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        out.push(GameRecord {
            game: number(&games[i], "game")? as u32,
            stage: stages[i].clone().unwrap_or_default(),
            first: firsts[i].clone().unwrap_or_default(),
            second: seconds[i].clone().unwrap_or_default(),
            winner: winners[i].clone().unwrap_or_default(),
            scores: [
                number(&s1[i], "first_score")?,
                number(&s2[i], "second_score")?,
            ],
            plies: number(&plies[i], "plies")? as u32,
            transcript: transcripts[i].clone().unwrap_or_default(),
            termination: terminations[i].clone().unwrap_or_else(|| "normal".into()),
            start_position: starts[i].clone().filter(|s| !s.is_empty()),
            opening: openings[i].clone().filter(|s| !s.is_empty()),
            budgets: [budget1[i].clone(), budget2[i].clone()],
        });
    }
    Ok(out)
}

/// The job whose hash starts with `prefix`: an error listing the candidates when none or
/// several match.
pub fn find_job<'a>(exp: &Experiment, jobs: &'a [Job], prefix: &str) -> Result<&'a Job> {
    let found: Vec<&Job> = jobs.iter().filter(|j| j.hash.starts_with(prefix)).collect();
    match found.as_slice() {
        [one] => Ok(one),
        [] => Err(crate::experiment::InputError::plain(format!(
            "--job {prefix}: no job of {} has that hash (jobs: {})",
            exp.name,
            jobs.iter()
                .map(|j| j.hash.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .into()),
        many => Err(crate::experiment::InputError::plain(format!(
            "--job {prefix}: {} jobs start with it; give more of the hash",
            many.len()
        ))
        .into()),
    }
}

/// A replayed game: the text `gamelab replay` prints, and whether the game ended as recorded.
pub struct Replayed {
    pub text: String,
    pub agrees: bool,
}

/// A game's moves replayed from its start: the positions after each move, the final scores.
struct Walk {
    start: String,
    moves: Vec<(String, String, String)>,
    scores: [i64; 2],
    over: bool,
}

/// Replays `moves` from `start`: (move name, the side that played it, the position after it as
/// `text` writes it), forced passes included.
fn walk<G: Game>(
    start: G,
    transcript: &str,
    text: fn(&G) -> String,
    side: fn(&G) -> &'static str,
) -> Result<Walk> {
    let mut game = start.clone();
    let mut moves = Vec::new();
    for (i, entry) in G::split_moves(transcript).into_iter().enumerate() {
        // One move at a time, so forced passes show as moves of their own.
        let before = game.clone();
        let played = play_line(&game, std::slice::from_ref(&entry))
            .map_err(|e| anyhow::anyhow!("move {} of the transcript {}", i + 1, e.what()))?;
        let name = played.names.last().cloned().unwrap_or(entry);
        if played.plies == 2 {
            let mut passed = before.clone();
            let mut legal = Vec::new();
            passed.legal_moves(&mut legal);
            passed.play(legal[0]);
            moves.push(("pass".into(), side(&before).to_string(), text(&passed)));
            moves.push((name, side(&passed).to_string(), text(&played.position)));
        } else {
            moves.push((name, side(&before).to_string(), text(&played.position)));
        }
        game = played.position;
    }
    let s = game.scores();
    Ok(Walk {
        start: text(&start),
        moves,
        scores: [s[0] as i64, s[1] as i64],
        over: game.outcome().is_some(),
    })
}

/// Replays one record of `job` (see the module doc for what is checked).
fn walk_record(job: &Job, r: &GameRecord) -> Result<Walk> {
    let from_text = |what: &str| {
        r.start_position.clone().with_context(|| format!("game {}: the row has no start_position ({what} games start from a random setup; rows from before it was recorded cannot be replayed)", r.game))
    };
    match &job.config.stage {
        Stage::Othello(def) => walk(
            Othello::new(def).map_err(|e| anyhow::anyhow!(e))?,
            &r.transcript,
            crate::game::othello::text::to_text,
            |g| ["black", "white"][g.to_move().index()],
        ),
        Stage::Freckers(f) => walk(
            Freckers::new(f.strict),
            &r.transcript,
            crate::game::freckers::text::to_text,
            |g| ["red", "blue"][g.to_move().index()],
        ),
        Stage::Colosseum(_) => {
            let start =
                crate::game::colosseum::text::parse(&from_text("Colosseum")?).map_err(|e| {
                    anyhow::anyhow!(
                        "game {}: start_position line {}: {}",
                        r.game,
                        e.line,
                        e.message
                    )
                })?;
            walk::<Colosseum>(
                start,
                &r.transcript,
                crate::game::colosseum::text::to_text,
                |g| ["A", "B"][g.to_move().index()],
            )
        }
        Stage::OpenSpiel(stage) => {
            // The chance outcomes come from the job's start seed and the game's pair, as in the run.
            let seed = crate::experiment::kind::games::chance_seed(
                job.start_seed(),
                r.game as usize,
                job.pairing(r.game as usize).pair,
            );
            walk(
                stage
                    .start(seed)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", stage.id))?,
                &r.transcript,
                OpenSpiel::text,
                |g| ["first", "second"][g.to_move().index()],
            )
        }
        Stage::Tsumego(_) => bail!("life-and-death jobs have no games"),
    }
}

/// `gamelab replay`: game `game` of the job whose hash starts with `job_prefix`.
pub fn replay(
    exp: &Experiment,
    jobs: &[Job],
    out: &Path,
    job_prefix: &str,
    game: u32,
) -> Result<Replayed> {
    let job = find_job(exp, jobs, job_prefix)?;
    let records = read_games(exp, job, out, Which::One(game))?;
    let Some(r) = records.first() else {
        bail!("job {} has no game {game} in its rows", job.hash)
    };
    let w = walk_record(job, r)
        .with_context(|| format!("replaying game {} of job {}", r.game, job.hash))?;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# {} job {} game {}: {} (first) vs {} (second), stage {}",
        exp.name, job.hash, r.game, r.first, r.second, r.stage
    );
    if let Some(o) = &r.opening {
        let _ = writeln!(text, "# opening: {o}");
    }
    let _ = writeln!(text, "# start\n{}", w.start.trim_end());
    for (i, (name, side, pos)) in w.moves.iter().enumerate() {
        let _ = writeln!(text, "\n# {}. {side} {name}\n{}", i + 1, pos.trim_end());
    }
    let (agrees, verdict) = verdict(r, &w);
    let result = match r.winner.as_str() {
        "draw" => "a draw".to_string(),
        w => format!("{w} wins"),
    };
    let _ = writeln!(
        text,
        "\n# result: {result}, scores {} : {} ({verdict})",
        w.scores[0], w.scores[1]
    );
    Ok(Replayed { text, agrees })
}

/// Whether a replay ends as the row says, and the words for it.
fn verdict(r: &GameRecord, w: &Walk) -> (bool, String) {
    if r.termination != "normal" {
        return (
            true,
            format!(
                "ended early by {}: the scores are the position's, not a finished game's",
                r.termination
            ),
        );
    }
    if !w.over {
        return (
            false,
            "the replayed game is not over, yet the row records a finished game".into(),
        );
    }
    if w.scores == r.scores {
        (true, "as recorded".into())
    } else {
        (
            false,
            format!("the row records {} : {}", r.scores[0], r.scores[1]),
        )
    }
}

/// `gamelab games`: writes every job's games with rows to `dest/<job hash>.txt` (one file per
/// job, written whole or not at all); returns the files with their game counts. Each game is
/// replayed first, so a file never holds a game that does not replay as recorded.
pub fn export(
    exp: &Experiment,
    jobs: &[Job],
    out: &Path,
    dest: &Path,
) -> Result<Vec<(PathBuf, usize)>> {
    if exp.file.kind == crate::experiment::spec::JobKind::Solve {
        return export_solves(exp, jobs, out, dest);
    }
    if !exp.file.kind.plays_games() {
        bail!(
            "{}: {} jobs have no games to export (game records are written for match, tournament and solve jobs)",
            exp.name,
            exp.file.kind.name()
        );
    }
    let mut written = Vec::new();
    for job in jobs_with_rows(exp, jobs, out) {
        let records = read_games(exp, job, out, Which::All)?;
        let format = RecordFormat::of(job);
        // PGN's Date: the day the job's games were sealed (rows hold no date of their own).
        let date = std::fs::metadata(job_part(exp, job, out)?)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or("????.??.??".to_string(), |d| {
                crate::provenance::utc(d.as_secs())[..10].replace('-', ".")
            });
        let mut text = match format {
            RecordFormat::Text => format!(
                "# {}: games of job {}{}\n\n",
                exp.name,
                job.hash,
                swept_text(job)
            ),
            // PGN and SGF files hold games only.
            _ => String::new(),
        };
        for r in &records {
            let w = walk_record(job, r)
                .with_context(|| format!("replaying game {} of job {}", r.game, job.hash))?;
            let (agrees, why) = verdict(r, &w);
            anyhow::ensure!(
                agrees,
                "game {} of job {} does not replay as recorded: {why}",
                r.game,
                job.hash
            );
            text += &match format {
                RecordFormat::Pgn => pgn_text(&exp.name, job, r, &w, &date),
                RecordFormat::Sgf { size, komi } => sgf_game_text(&exp.name, job, r, size, komi)?,
                RecordFormat::Text => record_text(job, r, &w),
            };
        }
        written.push((
            write_record_file(dest, &format!("{}.{}", job.hash, format.ext()), &text)?,
            records.len(),
        ));
    }
    Ok(written)
}

/// Moves at most in a solve row's main line.
const MAIN_LINE_CAP: usize = 80;

/// `export` for `solve` jobs: `dest/<job hash>.sgf` per job with rows, an SGF collection with one
/// game tree per (weights, problem) unit in row order: the problem (stones, side to move, region,
/// targets), a comment with the weights, the status found and the library's, and the solver's
/// main line with those weights (`tsumego::line`, each step within the job's node budget).
fn export_solves(
    exp: &Experiment,
    jobs: &[Job],
    out: &Path,
    dest: &Path,
) -> Result<Vec<(PathBuf, usize)>> {
    use rayon::prelude::*;
    let mut written = Vec::new();
    for job in jobs_with_rows(exp, jobs, out) {
        let Stage::Tsumego(stage) = &job.config.stage else {
            bail!("a solve job reads a problem library")
        };
        let library = stage.library.dir(out, &stage.id);
        anyhow::ensure!(
            library.join("library.json").exists(),
            "{}: the problem library of job {} is missing (run `gamelab run {}` again to make it)",
            library.display(),
            job.hash,
            exp.path.display()
        );
        let work = crate::experiment::kind::solve::SolveWork::load(job, &library, out)?;
        let n = work.problems.len();
        let trees: Vec<String> = (0..work.units())
            .into_par_iter()
            .map(|u| {
                let ((label, w), p) = (&work.weights[u / n], &work.problems[u % n]);
                let line = crate::game::tsumego::line::main_line(&mut crate::game::tsumego::Solver::new(20), p, w, work.limits, MAIN_LINE_CAP);
                let library_status = p.status.map_or("none".to_string(), |s| s.to_string());
                let comment = format!(
                    "{} job {}: weights {label}; status {} (library: {library_status}); main line {}",
                    exp.name,
                    job.hash,
                    line.status,
                    if line.complete { "to a decided position" } else { "cut (out of budget or past its cap)" }
                );
                p.to_sgf_with_line(&comment, &line.moves).replace("GN[", &format!("GN[{label} "))
            })
            .collect();
        written.push((
            write_record_file(dest, &format!("{}.sgf", job.hash), &trees.concat())?,
            trees.len(),
        ));
    }
    Ok(written)
}

/// The jobs of `jobs` whose rows are there and sound.
fn jobs_with_rows<'a>(exp: &Experiment, jobs: &'a [Job], out: &Path) -> Vec<&'a Job> {
    let results = results_dir(out, &exp.name);
    let rows_dir = results.join(rows_folder(exp.file.kind));
    jobs.iter()
        .filter(|job| {
            matches!(
                sound_part(&results, &rows_dir, &exp.name, &job.hash),
                Ok(Some(_))
            )
        })
        .collect()
}

/// Writes `text` as `dest/name` (whole or not at all) and returns its path.
fn write_record_file(dest: &Path, name: &str, text: &str) -> Result<PathBuf> {
    std::fs::create_dir_all(dest).with_context(|| format!("creating {}", dest.display()))?;
    let path = dest.join(name);
    crate::experiment::rows::write_atomic(&path, |f| {
        Ok(std::io::Write::write_all(f, text.as_bytes())?)
    })?;
    Ok(path)
}

fn swept_text(job: &Job) -> String {
    if job.swept.is_empty() {
        return String::new();
    }
    format!(
        " ({})",
        job.swept
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The standard a job's games are written in.
#[derive(Clone, Copy)]
enum RecordFormat {
    /// OpenSpiel's chess from the standard start (no parameters).
    Pgn,
    /// OpenSpiel's go, with its board size and komi.
    Sgf { size: usize, komi: f64 },
    /// gamelab's own blocks (see the module doc).
    Text,
}

impl RecordFormat {
    fn of(job: &Job) -> RecordFormat {
        let Stage::OpenSpiel(s) = &job.config.stage else {
            return RecordFormat::Text;
        };
        let number = |key: &str, default| s.param(key).map_or(Some(default), |v| v.parse().ok());
        match s.game_name() {
            "chess" if !s.openspiel.contains('=') => RecordFormat::Pgn,
            "go" => match (number("board_size", 19.0), number("komi", 7.5)) {
                (Some(size), Some(komi)) => RecordFormat::Sgf {
                    size: size as usize,
                    komi,
                },
                _ => RecordFormat::Text,
            },
            _ => RecordFormat::Text,
        }
    }

    fn ext(self) -> &'static str {
        match self {
            RecordFormat::Pgn => "pgn",
            RecordFormat::Sgf { .. } => "sgf",
            RecordFormat::Text => "txt",
        }
    }
}

/// One game of OpenSpiel's go as an SGF game tree (FF[4], GM[1]): the board size, komi,
/// players (Black is OpenSpiel's player 0, the row's `first` seat), the result by the
/// returns (`B+`, `W+` or `0`: the returns give the winner, not the margin), gamelab's fields
/// in the game comment, then the moves from the transcript's actions (`row * size + column`
/// from the lower left, as OpenSpiel numbers them; `size * size` passes, `B[]`/`W[]`).
fn sgf_game_text(
    experiment: &str,
    job: &Job,
    r: &GameRecord,
    size: usize,
    komi: f64,
) -> Result<String> {
    let esc = |v: &str| v.replace('\\', "\\\\").replace(']', "\\]");
    let result = match r.winner.as_str() {
        "draw" => "0",
        "first" => "B+",
        _ => "W+",
    };
    let mut t = format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[gamelab]SZ[{size}]KM[{komi}]PB[{}]PW[{}]RE[{result}]EV[{}]RO[{}]\nGC[job {} game {} stage {} plies {} termination {}]\n",
        esc(&r.first),
        esc(&r.second),
        esc(experiment),
        r.game + 1,
        job.hash,
        r.game,
        esc(&r.stage),
        r.plies,
        esc(&r.termination)
    );
    let coord = |i: usize| (b'a' + i as u8) as char;
    for (i, entry) in OpenSpiel::split_moves(&r.transcript).iter().enumerate() {
        let action = crate::game::openspiel::recorded_action(entry)
            .map(|(_, a)| a as usize)
            .with_context(|| format!("game {}: move {} '{entry}' has no action (rows of an older gamelab): write it with a newer run", r.game, i + 1))?;
        let colour = match entry.chars().next() {
            Some(c @ ('B' | 'W')) => c,
            _ if i % 2 == 0 => 'B',
            _ => 'W',
        };
        let point = if action >= size * size {
            String::new()
        } else {
            let (row, col) = (action / size, action % size);
            format!("{}{}", coord(col), coord(size - 1 - row))
        };
        let _ = write!(t, ";{colour}[{point}]");
        if i % 12 == 11 {
            t.push('\n');
        }
    }
    t += ")\n";
    Ok(t)
}

/// One chess game in PGN (the export format of the PGN standard, 1994): the seven tags, then
/// gamelab's (`GamelabJob`, `GamelabGame`, `GamelabStage`, `PlyCount`, `Termination` with the
/// row's word), then the moves in SAN as OpenSpiel names them, numbered, lines under 80
/// characters, ending with the result. White is the side that moves first: the row's `first`
/// seat (`OpenSpiel` seats the first mover first; records of older versions, whose `first` seat
/// was OpenSpiel's player 0, Black, are read by the side that moved first).
fn pgn_text(experiment: &str, job: &Job, r: &GameRecord, w: &Walk, date: &str) -> String {
    let white_seat = w
        .moves
        .first()
        .map_or("first", |(_, side, _)| side.as_str());
    let (white, black, budgets) = if white_seat == "first" {
        (&r.first, &r.second, [&r.budgets[0], &r.budgets[1]])
    } else {
        (&r.second, &r.first, [&r.budgets[1], &r.budgets[0]])
    };
    let budget = |b: &Option<String>| b.clone().unwrap_or_else(|| "?".into());
    let result = match r.winner.as_str() {
        "draw" => "1/2-1/2",
        seat if seat == white_seat => "1-0",
        _ => "0-1",
    };
    let quote = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    let mut t = String::new();
    for (k, v) in [
        ("Event", experiment.to_string()),
        ("Site", "gamelab".into()),
        ("Date", date.to_string()),
        ("Round", (r.game + 1).to_string()),
        ("White", white.clone()),
        ("Black", black.clone()),
        ("Result", result.into()),
        ("TimeControl", time_control(&r.budgets)),
        ("WhiteBudget", budget(budgets[0])),
        ("BlackBudget", budget(budgets[1])),
        ("GamelabJob", job.hash.clone()),
        ("GamelabGame", r.game.to_string()),
        ("GamelabStage", r.stage.clone()),
        ("PlyCount", r.plies.to_string()),
        ("Termination", r.termination.clone()),
    ] {
        let _ = writeln!(t, "[{k} \"{}\"]", quote(&v));
    }
    // The opening as its moves in SAN, numbered (the rows' `NAME@ACTION;` form replayed).
    if let Some(o) = &r.opening {
        let plies = OpenSpiel::split_moves(o).len();
        let _ = writeln!(
            t,
            "[Opening \"{}\"]",
            quote(&numbered_moves(w.moves.iter().take(plies).map(|(n, ..)| n.as_str())).join(" "))
        );
    }
    t.push('\n');
    let mut line = String::new();
    let mut tokens = numbered_moves(w.moves.iter().map(|(n, ..)| n.as_str()));
    tokens.push(result.to_string());
    for tok in tokens {
        if !line.is_empty() && line.len() + 1 + tok.len() >= 80 {
            t += &line;
            t.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &tok;
    }
    t += &line;
    t += "\n\n";
    t
}

/// A game's final scores in its own form: discs, regions or frogs home as `[Score "40-24"]`;
/// an OpenSpiel game's returns (which may be negative) as `[Returns "1, -1"]`.
fn score_tag(job: &Job, r: &GameRecord) -> (&'static str, String) {
    match job.config.stage {
        Stage::OpenSpiel(_) => ("Returns", format!("{}, {}", r.scores[0], r.scores[1])),
        _ => ("Score", format!("{}-{}", r.scores[0], r.scores[1])),
    }
}

/// `1.`, `e4`, `e5`, `2.`, `Nf3`: moves in SAN with their move numbers, White first, as the
/// tokens of PGN movetext.
fn numbered_moves<'a>(moves: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, name) in moves.enumerate() {
        if i % 2 == 0 {
            out.push(format!("{}.", i / 2 + 1));
        }
        out.push(name.to_string());
    }
    out
}

/// PGN's TimeControl from the seats' budgets: `-` (no clock) when neither budget is a time
/// (nodes, simulations, depth: the budget tags say which), `N` (seconds for the game, sudden
/// death) when both are the same game clock, `?` for other timed budgets (a time per move has no
/// PGN form; WhiteBudget and BlackBudget give it).
fn time_control(budgets: &[Option<String>; 2]) -> String {
    let timed = |b: &Option<String>| {
        b.as_deref()
            .is_some_and(|b| b.contains(" ms") || b.contains(" s per game") || b.contains("time"))
    };
    let game_clock = |b: &Option<String>| {
        b.as_deref()
            .and_then(|b| b.split_once(" s per game"))
            .map(|(s, _)| s.trim().to_string())
    };
    match (game_clock(&budgets[0]), game_clock(&budgets[1])) {
        (Some(a), Some(b)) if a == b => a,
        _ if !timed(&budgets[0]) && !timed(&budgets[1]) => "-".into(),
        _ => "?".into(),
    }
}

/// One game's block in a record file (see the module doc), its moves by name as the replay
/// `w` named them (forced passes left out, as transcripts leave them).
fn record_text(job: &Job, r: &GameRecord, w: &Walk) -> String {
    let mut t = String::new();
    let tags = [
        ("Game", r.game.to_string()),
        ("Job", job.hash.clone()),
        ("Stage", r.stage.clone()),
        ("First", r.first.clone()),
        ("Second", r.second.clone()),
        ("Result", r.winner.clone()),
        score_tag(job, r),
        ("Plies", r.plies.to_string()),
        ("Termination", r.termination.clone()),
    ];
    for (k, v) in tags {
        let _ = writeln!(t, "[{k} \"{}\"]", v.replace('"', "'"));
    }
    if let Some(o) = &r.opening {
        let _ = writeln!(t, "[Opening \"{o}\"]");
    }
    if let Some(s) = &r.start_position {
        let _ = writeln!(t, "{{\n{}\n}}", s.trim_end());
    }
    let moves: Vec<&str> = w
        .moves
        .iter()
        .map(|(name, ..)| name.as_str())
        .filter(|name| *name != "pass")
        .collect();
    // Othello as the Othello programs take a game (Edax's `play`, WZebra's and the WTHOR
    // tools' transcripts): the moves run together, `f5d6c3`.
    let sep = if matches!(job.config.stage, Stage::Othello(_)) {
        ""
    } else {
        " "
    };
    let _ = writeln!(t, "{}\n", moves.join(sep));
    t
}
