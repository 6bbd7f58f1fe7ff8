//! Game jobs (`match`, `tournament`): the games of a job played in parallel, in chunks streamed
//! to disk (see `stream`), resumable after the last saved batch.

use super::contract::{DefaultTable, JobContext, KindRunner, RowColumns, Sink, streamed};
use crate::agent::{AgentSpec, Arena, external};
use crate::experiment::error::InputError;
use crate::experiment::grid::{Job, MAX_GAMES_PER_JOB, PointAgents, opening_error};
use crate::experiment::openings::{OpeningError, Openings};
use crate::experiment::remote::{self, Held, UnitKind};
use crate::experiment::rows::games_frame;
use crate::experiment::spec::Stage;
use crate::experiment::spec::{Experiment, ExperimentFile, JobKind};
use crate::game::colosseum::Colosseum;
use crate::game::freckers::Freckers;
use crate::game::othello::Othello;
use crate::play::{GameRow, play_game, seat_result};
use crate::report::spec::{FigureKind, FigureSpec, TableSpec};
use crate::rng::derive_seed;
use crate::stats::elo::{Pentanomial, Sprt, SprtDecision};
use anyhow::Result;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

/// The agents of a job by label.
pub type Agents = std::collections::BTreeMap<String, AgentSpec>;

/// The job kinds `match` and `tournament`.
pub struct Games;

/// Group keys every game record has besides the grid keys.
pub const GAME_KEYS: [&str; 5] = ["agent", "opponent", "seat", "stage", "repeat"];

/// Numeric columns every game record has.
pub const GAME_MEASURES: [&str; 15] = [
    "result",
    "score",
    "opponent_score",
    "plies",
    "wall_ms",
    "simulations",
    "nodes",
    "max_move_ms",
    "peak_tree_mb",
    "repeat",
    "moves",
    "simulations_per_move",
    "nodes_per_move",
    "depth",
    "cache_hit_rate",
];

impl KindRunner for Games {
    fn rows_folder(&self) -> &'static str {
        "games"
    }
    /// A match's two players and its games (and SPRT bounds), or a tournament's rounds and
    /// participants (every agent of the file by default), each listed once.
    fn point_agents(&self, file: &ExperimentFile) -> Result<PointAgents, (String, String)> {
        let err = |key: &str, m: String| Err((key.to_string(), m));
        match (file.kind, &file.match_, &file.tournament) {
            (JobKind::Match, Some(m), None) => {
                if m.players.len() != 2 {
                    return err(
                        "match.players",
                        format!("a match needs exactly 2 players, got {}", m.players.len()),
                    );
                }
                if m.players[0] == m.players[1] {
                    return err("match.players", "the two players must be different agents (copy the agent under a second label for self-play)".into());
                }
                if m.games == 0 || m.games as u64 > MAX_GAMES_PER_JOB {
                    return err(
                        "match.games",
                        format!(
                            "{} games: give 1 to {MAX_GAMES_PER_JOB} per job (more games are more `repeats`)",
                            m.games
                        ),
                    );
                }
                if let Some(t) = &m.sprt {
                    let ok = |x: f64| x > 0.0 && x < 0.5;
                    if !(ok(t.alpha)
                        && ok(t.beta)
                        && t.elo0 < t.elo1
                        && t.elo0.is_finite()
                        && t.elo1.is_finite())
                    {
                        return err(
                            "match.sprt",
                            format!(
                                "expected elo0 < elo1 and alpha, beta in (0, 0.5), got elo0 = {}, elo1 = {}, alpha = {}, beta = {}",
                                t.elo0, t.elo1, t.alpha, t.beta
                            ),
                        );
                    }
                }
                Ok(PointAgents::named(&m.players, "match.players"))
            }
            (JobKind::Tournament, None, Some(t)) => {
                if t.rounds == 0 {
                    return err("tournament.rounds", "must be at least 1".into());
                }
                let p = t
                    .participants
                    .clone()
                    .unwrap_or_else(|| file.agents.keys().cloned().collect());
                if p.len() < 2 {
                    return err(
                        "tournament.participants",
                        format!(
                            "a tournament needs at least 2 participants, got {}",
                            p.len()
                        ),
                    );
                }
                let mut seen = std::collections::BTreeSet::new();
                for l in &p {
                    if !seen.insert(l) {
                        return err("tournament.participants", format!("'{l}' is listed twice"));
                    }
                }
                let games = t.rounds as u64 * (p.len() * (p.len() - 1)) as u64;
                if games > MAX_GAMES_PER_JOB {
                    return err(
                        "tournament.rounds",
                        format!(
                            "{} rounds x {} ordered pairs = {games} games: at most {MAX_GAMES_PER_JOB} per job (more games are more `repeats`)",
                            t.rounds,
                            p.len() * (p.len() - 1)
                        ),
                    );
                }
                Ok(PointAgents::named(&p, "tournament.participants"))
            }
            (JobKind::Match, _, _) => err(
                "match",
                "kind = \"match\" needs a [match] table (players, games) and no [tournament]"
                    .into(),
            ),
            _ => err(
                "tournament",
                "kind = \"tournament\" needs a [tournament] table and no [match]".into(),
            ),
        }
    }
    fn report_columns(&self) -> RowColumns {
        RowColumns::with_units(
            &GAME_KEYS,
            &GAME_MEASURES,
            &["repeat", "job", "pair", "game", "stage"],
        )
    }
    fn scores_games(&self) -> Result<(), &'static str> {
        Ok(())
    }
    fn default_group(&self) -> &'static [&'static str] {
        &["agent"]
    }
    /// The scores by agent and grid keys (or by `[report] group_by`).
    fn default_tables(
        &self,
        exp: &Experiment,
        _group: &[String],
    ) -> Result<Vec<DefaultTable>, InputError> {
        Ok(vec![DefaultTable::usual(TableSpec::new(
            "scores",
            "Scores",
            exp.file.report.group_by.clone(),
        ))])
    }
    /// A tournament's win-rate matrix.
    fn extra_figures(&self, exp: &Experiment) -> Vec<FigureSpec> {
        match exp.file.kind {
            JobKind::Tournament => vec![FigureSpec {
                name: "matrix".into(),
                kind: FigureKind::Matrix,
                ..FigureSpec::default()
            }],
            _ => Vec::new(),
        }
    }
    fn check(&self, exp: &Experiment, job: &Job) -> Result<(), InputError> {
        check_openings(exp, job)
    }
    fn unit(&self) -> &'static str {
        "games"
    }
    fn steps(&self, job: &Job) -> usize {
        job.game_count()
    }
    /// A game's cost is about that of its agents' searches: one unit a move for an agent that
    /// does not search, its iterations or rollouts a move for one that does, and for a clock
    /// (a time a move or a game) its time at 100 iterations a millisecond; times the board's
    /// points to the power 1.5 (longer games of longer rollouts: measured on
    /// colosseum-popcoin-budget, a game at 1,000 iterations costs 10 times as much on 12x12 as
    /// on 6x6, where this says 8). Only the ratios between the jobs of one file matter.
    fn step_weight(&self, job: &Job) -> u64 {
        let playing: Vec<&String> = match (&job.config.match_, &job.config.tournament) {
            (Some(m), _) => m.players.iter().collect(),
            (None, Some(t)) => t.participants.iter().flatten().collect(),
            (None, None) => job.config.agents.keys().collect(),
        };
        let per_agent = |label: &String| -> u64 {
            match job.config.agents.get(label).map(AgentSpec::budget) {
                Some(Ok(crate::agent::Budget::Iterations(n))) => n,
                Some(Ok(crate::agent::Budget::Time(d))) => (d.as_secs_f64() * 1e5) as u64,
                _ => 1,
            }
        };
        let total: u64 = playing
            .iter()
            .map(|l| per_agent(l).max(1))
            .fold(0, u64::saturating_add);
        // A tournament's games are spread over its pairs: the mean agent plays each.
        let n = playing.len().max(1) as u64;
        let board = (job.config.stage.cells() as f64).powf(1.5);
        ((total.saturating_mul(2) / n) as f64 * board).clamp(1.0, 1e15) as u64
    }
    /// A match or tournament grown to more games plays the new ones, unless its SPRT already
    /// decided (the pair counts it carried say so).
    fn grows(&self, job: &Job, units: usize, carry: &serde_json::Value) -> Option<usize> {
        if units >= job.game_count() {
            return None;
        }
        if let Some(sprt) = job.config.match_.as_ref().and_then(|m| m.sprt) {
            let penta = Pentanomial(serde_json::from_value(carry.clone()).unwrap_or_default());
            if sprt.decide(sprt.llr_pentanomial(penta)) != SprtDecision::Continue {
                return None;
            }
        }
        Some(units)
    }
    fn run(&self, cx: &JobContext) -> Result<usize> {
        // External agents write their standard error to a log per job and agent.
        let mut agents = cx.job.config.agents.clone();
        for (label, spec) in agents.iter_mut() {
            if let Some(e) = spec.external_mut() {
                e.log = Some(external::log_path(&cx.files.results, &cx.job.hash, label));
            }
        }
        let rows = streamed(
            cx.stream()?,
            &|rows| games_frame(&cx.id, rows),
            |from, carry, sink| {
                (cx.progress)(from as u64);
                let mut scored = |rows: Vec<GameRow>, done: usize, carry: &serde_json::Value| {
                    cx.tally.games(&rows);
                    sink(rows, done, carry)
                };
                play_job_from(
                    cx.job,
                    &agents,
                    from,
                    carry,
                    &|| (cx.progress)(1),
                    &mut scored,
                )
            },
        )?;
        if let Some(note) = sprt_note(cx.job, rows, &cx.files.record) {
            cx.tally.note(note);
        }
        Ok(rows)
    }
}

/// What an SPRT match's test decided when it ended with `rows` games (its pair counts are
/// carried in its record): "SPRT of mcts stopped after 64 of 1000 games: H1 accepted: Elo 5
/// rather than 0 (hypotheses, not an estimate); LLR 2.98, bounds -2.94 to 2.94".
fn sprt_note(job: &Job, rows: usize, record: &std::path::Path) -> Option<String> {
    let m = job.config.match_.as_ref()?;
    let sprt = m.sprt?;
    let (_, carry) = crate::experiment::stream::ended(record)?;
    let penta = Pentanomial(serde_json::from_value(carry).ok()?);
    let llr = sprt.llr_pentanomial(penta);
    let (lo, hi) = sprt.bounds();
    let stopped = if sprt.decide(llr) == SprtDecision::Continue {
        format!("played all {rows} games")
    } else {
        format!("stopped after {rows} of {} games", m.games)
    };
    Some(format!(
        "SPRT of {} {stopped}: {}; LLR {llr:.2}, bounds {lo:.2} to {hi:.2}",
        m.players[0],
        sprt.decision_text(llr)
    ))
}

/// Games played in parallel between two looks at the flush timer (rows never depend on it):
/// at most this many. A job starts with one game a thread and doubles its chunk while a chunk
/// takes less than half the flush interval (`adapt_chunk`), so fast built-in games reach this
/// size at once, while slow games (external agents: minutes each) hand every round of games
/// to the stream, which writes them within `stream::FLUSH_SECONDS`: a kill keeps them.
const GAME_CHUNK: usize = 64;

/// The next chunk of games after one of `chunk` games that took `took`: doubled (up to
/// `GAME_CHUNK`) while chunks take less than half the flush interval.
fn adapt_chunk(chunk: usize, took: std::time::Duration) -> usize {
    if took.as_secs_f64() < crate::experiment::stream::FLUSH_SECONDS / 2.0 {
        (chunk * 2).min(GAME_CHUNK)
    } else {
        chunk
    }
}
/// An SPRT match looks at its test after every this many games (an even number: whole pairs).
/// The games a match plays past its decision depend on it, its rows never do.
const SPRT_CHUNK: usize = 32;

/// Plays every game of a job in memory, returning rows in game order (benchmarks, tests).
pub fn play_job(job: &Job, on_game: &(dyn Fn() + Sync)) -> Result<Vec<GameRow>> {
    let mut rows = Vec::new();
    play_job_from(
        job,
        &job.config.agents,
        0,
        &serde_json::Value::Null,
        on_game,
        &mut |chunk, _, _| {
            rows.extend(chunk);
            Ok(())
        },
    )?;
    Ok(rows)
}

/// Plays the games of a job from game `from` on (the games before it done, `carry` the state
/// after them), in chunks handed to `sink`. A match with an SPRT stops after the first
/// colour-swapped pair at which the test decides (see `sprt_feed`).
fn play_job_from(
    job: &Job,
    agents: &Agents,
    from: usize,
    carry: &serde_json::Value,
    on_game: &(dyn Fn() + Sync),
    sink: &mut Sink<GameRow>,
) -> Result<()> {
    struct Play<'a> {
        job: &'a Job,
        agents: &'a Agents,
        from: usize,
        carry: &'a serde_json::Value,
        on_game: &'a (dyn Fn() + Sync),
        sink: &'a mut Sink<'a, GameRow>,
    }
    impl WithStarts for Play<'_> {
        type Out = ();
        fn with<G: Arena>(self, start: &StartOf<G>) -> Result<()> {
            play_games(
                self.job,
                self.agents,
                start,
                self.from,
                self.carry,
                self.on_game,
                self.sink,
            )
        }
    }
    with_starts(
        job,
        Play {
            job,
            agents,
            from,
            carry,
            on_game,
            sink,
        },
    )
}

/// The start of game `i` (in pair `pair`) of a job, before its opening: the position, the stage
/// id its row records and, for a random setup, the position as text for the row.
type StartOf<'a, G> = dyn Fn(usize, Option<u32>) -> Result<(G, String, Option<String>)> + Sync + 'a;

/// Work that needs the games' starts, whatever the game (`with_starts` picks the type).
trait WithStarts {
    type Out;
    fn with<G: Arena>(self, start: &StartOf<G>) -> Result<Self::Out>;
}

/// Calls `w` with the starts of `job`'s games. Othello games start from the stage's position.
/// Colosseum games start from the course's random setup, seeded by (start seed, pair): both games
/// of a colour-swapped pair are played on the same board, the same for every grid point, each agent moving first once; a row's
/// `stage` is the board it was played on.
fn with_starts<W: WithStarts>(job: &Job, w: W) -> Result<W::Out> {
    match &job.config.stage {
        Stage::Othello(def) => {
            let start = Othello::new(def).map_err(|e| anyhow::anyhow!(e))?;
            w.with(&|_, _| Ok((start, def.id.clone(), None)))
        }
        Stage::Colosseum(stage) => {
            /// Keeps setup seeds apart from game seeds.
            const SETUP: u64 = 0x5e7u64;
            w.with(&|game: usize,
                     pair: Option<u32>|
             -> Result<(Colosseum, String, Option<String>)> {
                let key = pair_key(game, pair);
                let start = stage
                    .setup(derive_seed(job.start_seed(), &[SETUP, key]))
                    .map_err(|e| anyhow::anyhow!(e))?;
                let (id, text) = (
                    format!("size-{}", start.size()),
                    crate::game::colosseum::text::to_text(&start),
                );
                Ok((start, id, Some(text)))
            })
        }
        Stage::Freckers(stage) => {
            let start = Freckers::new(stage.strict);
            w.with(&|_, _| Ok((start, stage.id.clone(), None)))
        }
        Stage::OpenSpiel(stage) => w.with(&|game: usize, pair: Option<u32>| {
            let seed = chance_seed(job.start_seed(), game, pair);
            let start = stage
                .start(seed)
                .map_err(|e| anyhow::anyhow!("{}: {e}", stage.id))?;
            Ok((start, stage.id.clone(), None))
        }),
        Stage::Tsumego(_) => {
            anyhow::bail!("life-and-death jobs solve problems; they play no games")
        }
    }
}

/// The seed of an OpenSpiel game's chance outcomes: per colour-swapped pair, so both games of
/// a pair meet the same chance (a game without a partner has its own).
pub fn chance_seed(start_seed: u64, game: usize, pair: Option<u32>) -> u64 {
    /// Keeps chance seeds apart from game and setup seeds.
    const CHANCE: u64 = 0xc4a2;
    derive_seed(start_seed, &[CHANCE, pair_key(game, pair)])
}

/// What a game's setup and chance seeds derive from: its colour-swapped pair, so both games of
/// a pair share them; a game without a partner gets its own.
fn pair_key(game: usize, pair: Option<u32>) -> u64 {
    pair.map_or(u64::MAX - game as u64, u64::from)
}

/// Checks that every game of `job` can play its opening: per pair for random setups and random
/// plies (a fixed start's suite lines are checked once, by the grid).
pub fn check_openings(exp: &Experiment, job: &Job) -> Result<(), InputError> {
    let Some(openings) = &job.config.openings else {
        return Ok(());
    };
    struct Check<'a>(&'a Job, &'a Openings);
    impl WithStarts for Check<'_> {
        type Out = Option<(u64, OpeningError)>;
        fn with<G: Arena>(self, start: &StartOf<G>) -> Result<Self::Out> {
            let (job, openings) = (self.0, self.1);
            let mut checked = std::collections::HashSet::new();
            for i in 0..job.game_count() {
                let slot = job.opening_slot(i);
                if !checked.insert(slot) {
                    continue;
                }
                let (pos, _, setup) = start(i, job.pairing(i).pair)?;
                if setup.is_none() && openings.random_plies.is_none() {
                    return Ok(None);
                }
                if let Err(e) = openings.play(&pos, job.start_seed(), slot) {
                    return Ok(Some((slot, e)));
                }
            }
            Ok(None)
        }
    }
    match with_starts(job, Check(job, openings)) {
        Ok(None) => Ok(()),
        Ok(Some((slot, e))) => Err(opening_error(exp, openings, e, Some((slot, &job.hash)))),
        Err(e) => Err(exp.error("stage", e.to_string())),
    }
}

/// The game loop of `play_job_from` for one game type; `start(game index, pair)` gives each
/// game's start (see `StartOf`), from which the game plays its opening, if the job has
/// openings. Each game is seeded by its index, so the rows do not depend on where a run was
/// resumed or how the games were chunked.
fn play_games<G: Arena>(
    job: &Job,
    agents: &Agents,
    start: &StartOf<G>,
    from: usize,
    carry: &serde_json::Value,
    on_game: &(dyn Fn() + Sync),
    sink: &mut Sink<GameRow>,
) -> Result<()> {
    let cfg = &job.config;
    let total = job.game_count();
    let play = |range: std::ops::Range<usize>| play_some(job, agents, start, range, on_game);
    let sprt = cfg
        .match_
        .as_ref()
        .and_then(|m| m.sprt.map(|s| (s, m.players[0].clone())));
    // An SPRT's pentanomial counts over the pairs played so far.
    let mut penta = Pentanomial(serde_json::from_value(carry.clone()).unwrap_or_default());
    // An SPRT looks at its test every SPRT_CHUNK games; a farm's units stay whole chunks.
    let fixed = if sprt.is_some() {
        SPRT_CHUNK
    } else {
        GAME_CHUNK
    };
    if let Some(farm) = crate::farm::farm() {
        return play_on_farm(
            farm,
            job,
            agents,
            from,
            fixed,
            sprt.as_ref(),
            penta,
            on_game,
            sink,
        );
    }
    let mut chunk = if sprt.is_some() {
        fixed
    } else {
        rayon::current_num_threads().clamp(1, GAME_CHUNK)
    };
    let mut next = from;
    while next < total {
        let end = (next + chunk).min(total);
        let t0 = std::time::Instant::now();
        let mut rows = play(next..end)?;
        if sprt.is_none() {
            chunk = adapt_chunk(chunk, t0.elapsed());
        }
        next = end;
        if let Some((sprt, me)) = &sprt
            && let Some(keep) = sprt_feed(sprt, me, &mut penta, &rows)
        {
            rows.truncate(keep);
            return sink(rows, total, &serde_json::json!(penta.0));
        }
        sink(rows, next, &serde_json::json!(penta.0))?;
    }
    Ok(())
}

/// Games `range` of a job, played in parallel from their starts (and openings), in game order.
fn play_some<G: Arena>(
    job: &Job,
    agents: &Agents,
    start: &StartOf<G>,
    range: std::ops::Range<usize>,
    on_game: &(dyn Fn() + Sync),
) -> Result<Vec<GameRow>> {
    let cfg = &job.config;
    range
        .into_par_iter()
        .map(|i| {
            let g = job.pairing(i);
            let seed = derive_seed(job.seed, &[i as u64]);
            let (mut pos, stage, start_position) = start(i, g.pair)?;
            let mut opening = None;
            if let Some(o) = &cfg.openings {
                let played = o.play(&pos, job.start_seed(), job.opening_slot(i)).map_err(|e| anyhow::anyhow!("game {i}: its opening cannot be played ({e:?}); the file was checked before the run"))?;
                pos = played.position;
                opening = Some((played.transcript, played.plies));
            }
            let row = play_game(&pos, (&g.first, &agents[&g.first]), (&g.second, &agents[&g.second]), seed, i as u32, &stage).map(|row| match opening {
                Some((line, plies)) => GameRow { pair: g.pair, start_position, transcript: format!("{line}{}", row.transcript), plies: row.plies + plies, opening: Some(line), ..row },
                None => GameRow { pair: g.pair, start_position, ..row },
            });
            on_game();
            row
        })
        .collect()
}

/// Games `range` of a job with the agents `agents`, whatever its game: what a worker of a
/// distributed run computes for one unit (`experiment::remote`).
pub fn play_range(
    job: &Job,
    agents: &Agents,
    range: std::ops::Range<usize>,
) -> Result<Vec<GameRow>> {
    struct PlayRange<'a>(&'a Job, &'a Agents, std::ops::Range<usize>);
    impl WithStarts for PlayRange<'_> {
        type Out = Vec<GameRow>;
        fn with<G: Arena>(self, start: &StartOf<G>) -> Result<Vec<GameRow>> {
            play_some(self.0, self.1, start, self.2, &|| {})
        }
    }
    with_starts(job, PlayRange(job, agents, range))
}

/// `play_games` on the workers of a distributed run: the games from `from` on go out as units
/// of a few games (whole colour-swapped pairs when an SPRT watches them); their rows come back
/// in game order and are handed to `sink` every `chunk` games, as in one process, so batches,
/// resumption and the SPRT's decision are the same.
#[allow(clippy::too_many_arguments)]
fn play_on_farm(
    farm: &crate::farm::Farm,
    job: &Job,
    agents: &Agents,
    from: usize,
    chunk: usize,
    sprt: Option<&(Sprt, String)>,
    mut penta: Pentanomial,
    on_game: &(dyn Fn() + Sync),
    sink: &mut Sink<GameRow>,
) -> Result<()> {
    let total = job.game_count();
    // With an SPRT, units of whole pairs (`from` is a pair boundary): every unit starts at an even game.
    let units = crate::farm::ranges(
        from..total,
        farm.workers(),
        8,
        2,
        if sprt.is_some() { 2 } else { 1 },
    );
    let context = games_context(job, agents)?;
    let answers = remote::map::<_, Vec<GameRow>>(farm, GAMES, &context, units.iter().cloned())?;
    let mut held: Vec<GameRow> = Vec::new();
    for (range, rows) in units.iter().zip(answers) {
        let mut rows = rows?;
        rows.iter().for_each(|_| on_game());
        if let Some((sprt, me)) = sprt
            && let Some(keep) = sprt_feed(sprt, me, &mut penta, &rows)
        {
            rows.truncate(keep);
            held.extend(rows);
            return sink(held, total, &serde_json::json!(penta.0));
        }
        held.extend(rows);
        if held.len() >= chunk || range.end == total {
            sink(
                std::mem::take(&mut held),
                range.end,
                &serde_json::json!(penta.0),
            )?;
        }
    }
    Ok(())
}

/// Adds the complete colour-swapped pairs of `rows` (in game order) to `penta`, `me`'s pair
/// results, and returns the number of games of `rows` up to the first pair at which the SPRT
/// accepts a hypothesis, if one does.
pub fn sprt_feed(
    sprt: &Sprt,
    me: &str,
    penta: &mut Pentanomial,
    rows: &[GameRow],
) -> Option<usize> {
    let result = |r: &GameRow| seat_result(r.winner, r.first_agent == me);
    for (i, pair) in rows.chunks(2).enumerate() {
        if pair.len() < 2 || pair[0].pair.is_none() {
            break;
        }
        penta.add_pair(result(&pair[0]), result(&pair[1]));
        if sprt.decide(sprt.llr_pentanomial(*penta)) != SprtDecision::Continue {
            return Some(2 * (i + 1));
        }
    }
    None
}

#[derive(Serialize, Deserialize)]
struct GamesContext {
    job: Job,
    agents: Agents,
    /// External agents' log files, by label (not part of an agent's JSON).
    logs: std::collections::BTreeMap<String, PathBuf>,
}

/// The context of a games job's units: the job and its agents (with their log files).
fn games_context(job: &Job, agents: &Agents) -> Result<Arc<crate::farm::Context>> {
    let logs = agents
        .iter()
        .filter_map(|(label, spec)| {
            let (e, _) = spec.external()?;
            e.log.clone().map(|log| (label.clone(), log))
        })
        .collect();
    remote::context(
        format!("{GAMES}/{}", job.hash),
        &GamesContext {
            job: job.clone(),
            agents: agents.clone(),
            logs,
        },
    )
}

/// The name of a games job's units on the wire.
const GAMES: &str = "games";

/// A games job's units: games i..j of the job, played by a worker (`play_range`).
pub struct GamesUnit;

impl UnitKind for GamesUnit {
    fn name(&self) -> &'static str {
        GAMES
    }
    fn hold(&self, bytes: &[u8]) -> Result<Held> {
        let mut c: GamesContext = serde_json::from_slice(bytes)?;
        for (label, spec) in c.agents.iter_mut() {
            if let Some(e) = spec.external_mut() {
                e.log = c.logs.get(label).cloned();
            }
        }
        Ok(Box::new(c))
    }
    fn compute(&self, held: &Held, payload: &[u8]) -> Result<Vec<u8>> {
        let c: &GamesContext = remote::held(held)?;
        Ok(serde_json::to_vec(&play_range(
            &c.job,
            &c.agents,
            serde_json::from_slice(payload)?,
        )?)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::spec::Experiment;
    use std::path::Path;

    #[test]
    fn a_game_weighs_its_agents_search_and_its_board() {
        let jobs = crate::experiment::expand(
            &Experiment::from_text(
                Path::new("t.toml"),
                r#"
kind = "match"
game = "colosseum"
stage = "size-6"
seed = 1
[match]
players = ["m", "h"]
games = 2
[agents.m]
kind = "uct"
iterations = 25
[agents.h]
kind = "heuristic"
[grid]
"agents.m.iterations" = [25, 1000]
stage = ["size-6", "size-12"]
"#
                .to_string(),
            )
            .unwrap(),
        )
        .unwrap();
        let weight = |it: i64, stage: &str| {
            let job = jobs
                .iter()
                .find(|j| {
                    j.config.stage.id() == stage
                        && j.swept
                            .iter()
                            .any(|(k, v)| k == "agents.m.iterations" && v.as_integer() == Some(it))
                })
                .unwrap();
            Games.step_weight(job) as f64
        };
        // 1,000 iterations and a move of the heuristic against 25 and one: 1001 / 26.
        assert!((weight(1000, "size-6") / weight(25, "size-6") - 1001.0 / 26.0).abs() < 1e-6);
        // Four times the points, eight times the cost.
        assert!((weight(1000, "size-12") / weight(1000, "size-6") - 8.0).abs() < 1e-6);
    }
}
