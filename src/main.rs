//! The gamelab command line: parses arguments, calls the library, maps errors to exit codes
//! (2 for bad input such as a malformed experiment file, 1 for anything else).

use anyhow::Result;

// Printing to a closed pipe (`gamelab list | head -1`) ends the program quietly, as `ls | head`
// does, instead of panicking. SIGPIPE itself stays ignored (Rust's default): a write to an
// external agent that has exited must be an error gamelab handles, not the end of the run.
macro_rules! println {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            quiet_exit(e);
        }
    }};
}

macro_rules! print {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout(), $($arg)*) {
            quiet_exit(e);
        }
    }};
}

/// Ends the program after a failed print: quietly with status 141 (a shell's SIGPIPE) when the
/// reader has gone, with the error otherwise.
fn quiet_exit(e: std::io::Error) -> ! {
    gamelab::agent::external::shutdown();
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(141);
    }
    eprintln!("error: writing to standard output: {e}");
    std::process::exit(1);
}
use clap::{Parser, Subcommand};
use gamelab::experiment::record::Format;
use gamelab::experiment::runner::{RunOptions, Shard};
use gamelab::experiment::{Experiment, InputError, expand};
use gamelab::game::Game;
use std::path::PathBuf;
use std::process::ExitCode;

mod cli;
use cli::args::*;
use cli::gotools::*;
use cli::position::*;

fn main() -> ExitCode {
    use clap::FromArgMatches;
    let cli = match cli_command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind::*;
            if matches!(
                e.kind(),
                DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                e.exit();
            }
            // Bad arguments: one line, exit code 2. clap's first paragraph, joined: a missing
            // argument's name is on the line after "required arguments were not provided:".
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.is_empty())
                .collect();
            let line = if first.is_empty() {
                "error: bad arguments".to_string()
            } else {
                first.join(" ")
            };
            eprintln!("{line} (see gamelab --help)");
            return ExitCode::from(2);
        }
    };
    let result = dispatch(cli.command);
    // External agents still waiting in the pool are told to quit.
    gamelab::agent::external::shutdown();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if let Some(input) = e.downcast_ref::<InputError>() {
                eprintln!("error: {input}");
                ExitCode::from(2)
            } else {
                eprintln!("error: {e:#}");
                ExitCode::from(1)
            }
        }
    }
}

fn load(file: &PathBuf) -> Result<(Experiment, Vec<gamelab::experiment::Job>)> {
    let exp = Experiment::load(file)?;
    let jobs = expand(&exp)?;
    gamelab::report::plan(&exp)?;
    Ok((exp, jobs))
}

fn dispatch(command: Command) -> Result<()> {
    match command {
        Command::Run {
            file,
            out,
            threads,
            shard,
            format,
            dry_run,
            mpi,
        } => {
            check_threads(threads)?;
            if mpi && !dry_run {
                return run_mpi(threads, move || {
                    run_command(file, out, threads, shard, format, false)
                });
            }
            run_command(file, out, threads, shard, format, dry_run)
        }
        Command::Tune {
            file,
            out,
            threads,
            rollouts,
            rounds,
        } => {
            check_threads(threads)?;
            if rollouts == 0 || rounds == 0 {
                return Err(InputError::plain("--rollouts and --rounds must be at least 1").into());
            }
            let (exp, _) = load(&file)?;
            check_out(&out)?;
            let opts = RunOptions {
                out,
                threads,
                shard: None,
                format: Format::Parquet,
                progress: true,
            };
            let (summary, ga_report, tuned) = gamelab::workflow::tune(
                &exp,
                &opts,
                gamelab::workflow::CheckSettings { rollouts, rounds },
            )?;
            println!(
                "{}: GA ran {} jobs ({} rows) in {:.1} s; report: {}",
                exp.name,
                summary.jobs_run,
                summary.rows,
                summary.seconds,
                ga_report.report.display()
            );
            for t in &tuned {
                println!("job {} {}", t.job, t.swept);
                println!(
                    "  table: {}  (name it in an agent: table = \"{}\")",
                    t.table.display(),
                    t.table.display()
                );
                println!("  heatmap: {}", t.heatmap[0].display());
                println!("  check tournament: {}", t.check.report.display());
            }
            Ok(())
        }
        Command::Report {
            file,
            out,
            format,
            keep,
        } => {
            let (exp, jobs) = load(&file)?;
            check_out(&out)?;
            if keep.is_some() && format != TableFormat::Csv {
                return Err(anyhow::anyhow!(
                    "--keep needs the tables as CSV files (--format csv): the reproduction page reads comparisons.csv"
                )
                .into());
            }
            let r = gamelab::report::report(&exp, &jobs, &out, format == TableFormat::Csv)?;
            println!(
                "{}: report from {} rows ({} of {} jobs)",
                exp.name, r.rows, r.jobs_with_rows, r.jobs_total
            );
            println!("report: {}", r.report.display());
            println!(
                "report: {} (open it in a browser: tables, figures, the games)",
                r.report.with_extension("html").display()
            );
            for t in &r.tables {
                println!("table: {}", t.display());
            }
            for f in &r.figures {
                println!("figure: {}", f.display());
            }
            if let Some(dir) = keep {
                let report_dir = r.report.parent().unwrap_or(std::path::Path::new("."));
                let kept = gamelab::report::kept::keep(&exp, report_dir, &dir)?;
                println!("kept: {}", kept.display());
            }
            Ok(())
        }
        Command::Slurm {
            file,
            out,
            shards,
            mpi_ranks,
            time,
            partition,
            cpus_per_task,
            format,
        } => {
            let (exp, jobs) = load(&file)?;
            let opts = gamelab::slurm::SlurmOptions {
                shards,
                mpi_ranks,
                time,
                partition,
                cpus_per_task,
                format,
            };
            let s = gamelab::slurm::write(&file, &exp.name, jobs.len(), &out, &opts)?;
            match (shards, mpi_ranks) {
                (Some(n), _) => println!(
                    "{}: {} job(s) in a job array of {n} shards ({} CPUs each, time limit {} a task)",
                    exp.name,
                    jobs.len(),
                    opts.cpus_per_task,
                    opts.time
                ),
                (_, Some(r)) => println!(
                    "{}: {} job(s) in one MPI job of {r} ranks ({} CPUs each, time limit {})",
                    exp.name,
                    jobs.len(),
                    opts.cpus_per_task,
                    opts.time
                ),
                _ => {}
            }
            if shards.is_some_and(|n| n as usize > jobs.len()) {
                println!(
                    "note: more shards than jobs; {} of the tasks will find nothing to do",
                    shards.unwrap_or(0) as usize - jobs.len()
                );
            }
            println!("run:    {}", s.run.display());
            println!(
                "report: {} (waits for the run: --dependency=afterok)",
                s.report.display()
            );
            println!("submit both: bash {}", s.submit.display());
            println!(
                "(or by hand: sbatch {}, then sbatch --dependency=afterok:<its job id> {})",
                s.run.display(),
                s.report.display()
            );
            Ok(())
        }
        Command::MpiCheck { units, bytes } => run_mpi(Some(1), move || {
            let farm = gamelab::farm::farm().expect("rank 0 of an MPI run has a farm");
            let seconds = gamelab::experiment::remote::echo(farm, units, bytes)?;
            let workers = farm.workers();
            println!(
                "MPI: rank 0 and {workers} worker(s) answered {units} units of {bytes} bytes in {seconds:.3} s"
            );
            println!(
                "per unit: {:.1} us (the farm's cost of a unit: framing, sending, answering, decoding; rank 0 keeps two units on each worker)",
                seconds * 1e6 / units as f64
            );
            Ok(())
        }),
        Command::Schema => {
            print!("{}", gamelab::experiment::schema::markdown()?);
            Ok(())
        }
        Command::Adapters => {
            print!(
                "{}",
                gamelab::agent::external::adapters_text().map_err(anyhow::Error::msg)?
            );
            Ok(())
        }
        Command::Perft {
            game,
            stage,
            depth,
            pass_no_ply,
            strict,
        } => {
            match game.as_str() {
                "othello" => {
                    let def = othello_stage(&stage)?;
                    let start =
                        gamelab::game::othello::Othello::new(&def).map_err(InputError::plain)?;
                    let (t, mut leaves) = (std::time::Instant::now(), 0u64);
                    for d in 1..=depth {
                        let n = gamelab::game::othello::perft(&start, d, !pass_no_ply);
                        leaves += n;
                        println!("{d} {n}");
                    }
                    // The speed on stderr, so stdout stays the counts.
                    let s = t.elapsed().as_secs_f64();
                    eprintln!(
                        "perft 1-{depth}: {leaves} leaves in {s:.3} s, {:.1} M leaves/s (one thread)",
                        leaves as f64 / s.max(1e-9) / 1e6
                    );
                }
                "freckers" => {
                    let start = gamelab::game::freckers::Freckers::new(strict);
                    for d in 1..=depth {
                        println!("{d} {}", gamelab::game::freckers::perft(&start, d));
                    }
                }
                _ => {
                    return Err(InputError::plain(format!(
                        "--game '{game}': perft is available for othello and freckers"
                    ))
                    .into());
                }
            }
            Ok(())
        }
        Command::Moves {
            game,
            position,
            stage,
            moves,
        } => {
            let names: Vec<String> = match game.as_str() {
                "othello" => legal_names(&othello_position(
                    position.as_ref(),
                    stage.as_deref(),
                    moves.as_deref(),
                )?),
                "freckers" => legal_names(&freckers_position(position.as_ref(), moves.as_deref())?),
                _ => {
                    colosseum_only(&game)?;
                    let Some(p) = &position else {
                        return Err(InputError::plain(
                            "--game colosseum needs --position FILE (boards are random setups)",
                        )
                        .into());
                    };
                    let g = gamelab::game::colosseum::text::parse(&read_position(p)?)
                        .map_err(|e| position_error(p, e))?;
                    legal_names(&after_moves(g, moves.as_deref())?)
                }
            };
            for n in &names {
                println!("{n}");
            }
            eprintln!("{} legal moves", names.len());
            Ok(())
        }
        Command::Show {
            game,
            position,
            stage,
            moves,
            size,
            seed,
        } => {
            if game == "tsumego" {
                let Some(path) = &position else {
                    return Err(InputError::plain(
                        "--game tsumego needs --position FILE (a problem file or .sgf)",
                    )
                    .into());
                };
                for p in read_problems(path)? {
                    println!("problem {}", p.name);
                    print!("{}", p.draw());
                    if let Some(st) = p.status {
                        println!("recorded status: {st}");
                    }
                    if !p.winning.is_empty() {
                        println!(
                            "recorded winning moves: {}",
                            p.winning
                                .iter()
                                .map(|&m| p.move_name(m))
                                .collect::<Vec<_>>()
                                .join(" ")
                        );
                    }
                }
                return Ok(());
            }
            if game == "othello" {
                let g = othello_position(position.as_ref(), stage.as_deref(), moves.as_deref())?;
                print!("{}", gamelab::game::othello::text::to_text(&g));
                let (black, white) = (
                    g.discs(gamelab::game::Player::First).count_ones(),
                    g.discs(gamelab::game::Player::Second).count_ones(),
                );
                match g.outcome() {
                    None => println!("# game on; discs: black {black}, white {white}"),
                    Some(o) => println!("# game over: {o:?}; discs: black {black}, white {white}"),
                }
                return Ok(());
            }
            if game == "freckers" {
                let g = freckers_position(position.as_ref(), moves.as_deref())?;
                print!("{}", gamelab::game::freckers::text::to_text(&g));
                let s = g.scores();
                match g.outcome() {
                    None => println!(
                        "# game on after {} actions; frogs home: red {}, blue {}",
                        g.actions_played(),
                        s[0],
                        s[1]
                    ),
                    Some(o) => println!(
                        "# game over: {o:?}, frogs home: red {}, blue {}",
                        s[0], s[1]
                    ),
                }
                return Ok(());
            }
            let g = match &position {
                Some(p) => {
                    colosseum_only(&game)?;
                    gamelab::game::colosseum::text::parse(&read_position(p)?)
                        .map_err(|e| position_error(p, e))?
                }
                None => {
                    colosseum_only(&game)?;
                    let stage =
                        gamelab::game::colosseum::ColosseumStage::parse(&format!("size-{size}"))
                            .map_err(|e| InputError::plain(format!("--size: {e}")))?;
                    stage.setup(seed).map_err(InputError::plain)?
                }
            };
            let g = after_moves(g, moves.as_deref())?;
            print!("{}", gamelab::game::colosseum::text::to_text(&g));
            let s = g.scores();
            match g.outcome() {
                None => println!(
                    "# {} to move, max_step {}; game on, shared region of {} cells",
                    side_name(&g),
                    g.max_step(),
                    s[0]
                ),
                Some(o) => println!("# game over: {o:?}, regions A {} : B {}", s[0], s[1]),
            }
            Ok(())
        }
        Command::Openings {
            game,
            stage,
            plies,
            out,
        } => {
            if game != "othello" {
                return Err(InputError::plain(format!("--game '{game}': opening suites are generated for othello (Freckers starts from one position: write its suite by hand, or use random_plies)")).into());
            }
            if plies == 0 {
                return Err(InputError::plain("--plies must be at least 1").into());
            }
            let def = othello_stage(&stage)?;
            let start = gamelab::game::othello::Othello::new(&def).map_err(InputError::plain)?;
            let text = gamelab::game::othello::openings::suite_file(&def.id, &start, plies);
            match out {
                Some(path) => {
                    gamelab::experiment::record::write_atomic(&path, |f| {
                        Ok(std::io::Write::write_all(f, text.as_bytes())?)
                    })?;
                    eprintln!(
                        "{}: {} openings",
                        path.display(),
                        text.lines().filter(|l| !l.starts_with('#')).count()
                    );
                }
                None => print!("{text}"),
            }
            Ok(())
        }
        Command::Replay {
            file,
            job,
            game,
            out,
        } => {
            let (exp, jobs) = load(&file)?;
            let replayed = gamelab::game_records::replay(&exp, &jobs, &out, &job, game)?;
            print!("{}", replayed.text);
            if !replayed.agrees {
                return Err(anyhow::anyhow!(
                    "the replayed game does not end with the recorded scores"
                ));
            }
            Ok(())
        }
        Command::Games { file, out, to } => {
            let (exp, jobs) = load(&file)?;
            let to = to.unwrap_or_else(|| {
                gamelab::experiment::runner::results_dir(&out, &exp.name).join("records")
            });
            let written = gamelab::game_records::export(&exp, &jobs, &out, &to)?;
            for (path, games) in &written {
                println!("{}: {games} games", path.display());
            }
            if written.is_empty() {
                eprintln!(
                    "{}: no rows yet (run `gamelab run {}` first)",
                    exp.name,
                    file.display()
                );
            }
            Ok(())
        }
        Command::Summary {
            files,
            out,
            page,
            reports,
        } => {
            let experiments = files
                .iter()
                .map(|f| Experiment::load(f))
                .collect::<Result<Vec<_>, InputError>>()?;
            let s = gamelab::report::summary::summary(
                &experiments,
                &out,
                page.as_deref(),
                reports.as_deref(),
            )?;
            let counts = if s.counts.is_empty() {
                "no published values yet".to_string()
            } else {
                s.counts
                    .iter()
                    .map(|(w, n)| format!("{n} {w}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            println!(
                "summary: {} ({} experiments reported{}; {counts})",
                s.markdown.display(),
                s.reported.len(),
                if s.stale.is_empty() {
                    String::new()
                } else {
                    format!(", {} stale", s.stale.len())
                }
            );
            if !s.stale.is_empty() {
                eprintln!(
                    "reported from an earlier version of their experiment file, named stale on the page: {} (run and report them again, then summarise again)",
                    s.stale.join(", ")
                );
            }
            if !s.unfinished.is_empty() {
                eprintln!(
                    "reported before their runs ended: {} (run them again, report, then summarise again)",
                    s.unfinished.join(", ")
                );
            }
            if !s.missing.is_empty() {
                eprintln!(
                    "not reported yet: {} (run and report them, then summarise again)",
                    s.missing.join(", ")
                );
            }
            Ok(())
        }
        Command::Solve {
            file,
            weights,
            node_budget,
            problem,
            status_only,
            search,
        } => {
            if node_budget == 0 {
                return Err(InputError::plain("--node-budget must be at least 1").into());
            }
            let w = gamelab::game::tsumego::heuristic::load_weights(&weights)
                .map_err(|e| InputError::plain(format!("--weights: {e}")))?;
            if is_gotools_path(&file) {
                return solve_gotools(
                    &file,
                    &w,
                    node_budget,
                    problem.as_deref(),
                    search,
                    status_only,
                );
            }
            let problems = read_problems(&file)?;
            let chosen: Vec<&gamelab::game::tsumego::Problem> = problems
                .iter()
                .filter(|p| problem.as_ref().is_none_or(|n| &p.name == n))
                .collect();
            if chosen.is_empty() {
                return Err(InputError {
                    file: Some(file.clone()),
                    line_col: None,
                    key: None,
                    message: format!("no problem named '{}'", problem.unwrap_or_default()),
                }
                .into());
            }
            let mut solver = gamelab::game::tsumego::Solver::new(
                gamelab::game::tsumego::solver::DEEP_TABLE_BITS,
            );
            solver.set_search(search);
            let limits = gamelab::game::tsumego::Limits::with_budget(node_budget);
            for p in chosen {
                let s = solver.solve(p, &w, limits, !status_only);
                let moves: Vec<String> = s.winning_moves.iter().map(|&m| p.move_name(m)).collect();
                let c = s.counters;
                // Seki counts as alive; say so (a second search, not in the counters).
                let seki = match s.status {
                    gamelab::game::tsumego::Status::Alive
                    | gamelab::game::tsumego::Status::AliveUnlessKo(_) => {
                        match solver.lives_in_seki(p, &w, limits) {
                            Some(true) => " (seki)",
                            Some(false) => "",
                            None => " (seki undecided within the node budget)",
                        }
                    }
                    _ => "",
                };
                println!(
                    "{}: {}{seki} ({} to move){}; nodes {}, leaves {}, tt hits {}, depth {}, {:.3} s{}",
                    p.name,
                    s.status,
                    p.start.to_move.name(),
                    if moves.is_empty() {
                        String::new()
                    } else {
                        format!("; winning moves {}", moves.join(" "))
                    },
                    c.nodes,
                    c.leaves,
                    c.tt_hits,
                    c.max_depth,
                    c.time_s,
                    match p.status {
                        Some(r) if r != s.status => format!("; recorded status {r} differs"),
                        _ => String::new(),
                    }
                );
            }
            Ok(())
        }
        Command::CheckGotools {
            dir,
            per_level,
            seed,
            time_limit,
            node_budget,
            weights,
            levels,
            threads,
            csv,
            search,
        } => {
            check_threads(threads)?;
            let dir = match dir.or_else(|| {
                std::env::var_os("GOTOOLS_PROBLEMS")
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            }) {
                Some(d) => d,
                None => return Err(InputError::plain(GOTOOLS_HOWTO).into()),
            };
            if !dir.is_dir() {
                return Err(InputError {
                    file: Some(dir),
                    line_col: None,
                    key: None,
                    message: format!("not a folder. {GOTOOLS_HOWTO}"),
                }
                .into());
            }
            if per_level == 0 || node_budget == 0 || !(time_limit > 0.0 && time_limit.is_finite()) {
                return Err(InputError::plain(
                    "--per-level, --node-budget and --time-limit must be above 0",
                )
                .into());
            }
            let (lo, hi) = parse_levels(&levels)?;
            let w = gamelab::game::tsumego::heuristic::load_weights(&weights)
                .map_err(|e| InputError::plain(format!("--weights: {e}")))?;
            let all = gamelab::workflow::read_gotools(&dir)?;
            let total = all.len();
            let chosen = gamelab::workflow::sample_per_level(
                all.into_iter()
                    .filter(|q| (lo..=hi).contains(&q.level))
                    .collect(),
                per_level,
                seed,
            );
            eprintln!(
                "{} of {total} GoTools questions ({per_level} a level, seed {seed}), {time_limit} s and {node_budget} nodes each, weights {weights}",
                chosen.len()
            );
            let t0 = std::time::Instant::now();
            let limits = gamelab::game::tsumego::Limits::with_budget(node_budget);
            let rows = gamelab::workflow::compare_gotools(
                &chosen,
                &w,
                limits,
                Some(std::time::Duration::from_secs_f64(time_limit)),
                search,
                threads,
                true,
            )?;
            if let Some(path) = &csv {
                write_check_csv(path, &chosen, &rows)?;
            }
            println!("{}", gamelab::game::tsumego::check::level_table(&rows));
            let differ: Vec<String> = rows
                .iter()
                .zip(&chosen)
                .filter(|(r, _)| r.plain() == gamelab::game::tsumego::check::Verdict::Differ)
                .map(|(r, q)| {
                    format!(
                        "{}:{} {} (GoTools {}, ours {})",
                        q.file.display(),
                        q.question.line,
                        r.name,
                        r.gotools,
                        r.ours
                    )
                })
                .collect();
            if !differ.is_empty() {
                println!(
                    "plain status differs on {} questions:\n  {}",
                    differ.len(),
                    differ.join("\n  ")
                );
            }
            println!(
                "{} questions in {:.1} s",
                rows.len(),
                t0.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Command::GenProblems {
            sets,
            levels,
            per_level,
            seed,
            out,
            node_budget,
            threads,
            keep_unsolved,
        } => {
            let (lo, hi) = parse_levels(&levels)?;
            if sets == 0 || per_level == 0 {
                return Err(InputError::plain("--sets and --per-level must be at least 1").into());
            }
            check_threads(threads)?;
            gamelab::workflow::gen_problems(
                sets,
                lo..=hi,
                per_level,
                seed,
                &out,
                node_budget,
                threads,
                keep_unsolved,
            )
        }
        Command::List { experiments } => {
            println!(
                "games:\n  othello\n  colosseum\n  freckers\n  tsumego (Go life-and-death: gamelab solve, gamelab gen-problems)\n  openspiel (a game of OpenSpiel: openspiel = {{ name = \"connect_four\", params = {{ ... }} }}; docs/openspiel.md)"
            );
            println!("stages (freckers): standard (the referee's lenient multi-jumps), strict");
            println!(
                "stages (colosseum): size-M (3 <= M <= 16), sizes-A-B (a size drawn per pair of games)"
            );
            println!("stages (othello):");
            for id in gamelab::game::othello::BUILTIN_STAGES {
                let s = gamelab::game::othello::builtin_stage(id).expect("listed stages exist");
                println!("  {id:<18} {}", s.name);
            }
            println!("agent kinds:");
            for (kind, params) in gamelab::agent::AGENT_KINDS {
                println!("  {kind:<16} {params}");
            }
            println!(
                "tables: {}",
                gamelab::agent::table::BUILTIN_TABLES.join(", ")
            );
            println!("experiment files ({}):", experiments.display());
            let mut files: Vec<PathBuf> = std::fs::read_dir(&experiments)
                .map(|rd| {
                    rd.filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                        .collect()
                })
                .unwrap_or_default();
            files.sort();
            for f in files {
                let summary = match Experiment::load(&f) {
                    Ok(e) => e
                        .file
                        .description
                        .as_deref()
                        .unwrap_or("")
                        .lines()
                        .next()
                        .unwrap_or("")
                        .to_string(),
                    Err(e) => format!("(invalid: {e})"),
                };
                println!("  {:<40} {summary}", f.display());
            }
            Ok(())
        }
    }
}

/// The most worker threads a run may ask for: far more than any machine's cores, far fewer
/// than the thousands that would take minutes to start and then fail.
const MAX_THREADS: usize = 1024;

/// On Ctrl-C (SIGINT), says what is kept and how to go on before exiting 130 as the signal
/// would: finished jobs and the saved batches and checkpoints of running ones stay, and the
/// same command resumes. `run.lock` stays too: it is a lock the system releases with its
/// holder, and a shard running beside this run may hold it. What the exit leaves running is
/// stopped as after a kill (external agents are contained; their keeper ends them).
fn say_on_interrupt(file: &std::path::Path, out: &std::path::Path) {
    let again = format!("gamelab run {} --out {}", file.display(), out.display());
    // Set once per process; a second handler (an arena run after its GA) is refused, and the
    // first one says the same.
    let _ = ctrlc::set_handler(move || {
        eprintln!(
            "\ninterrupted: finished jobs and the saved batches and checkpoints of running ones are kept; `{again}` resumes without losing or repeating a row"
        );
        std::process::exit(130);
    });
}

/// `gamelab run` (in one process, or as rank 0 of an MPI run).
fn run_command(
    file: PathBuf,
    out: PathBuf,
    threads: Option<usize>,
    shard: Option<Shard>,
    format: Format,
    dry_run: bool,
) -> Result<()> {
    let (exp, jobs) = load(&file)?;
    gamelab::experiment::grid::probe_external(&exp, &jobs)?;
    if dry_run {
        let games: usize = jobs.iter().map(|j| j.game_count()).sum();
        if exp.file.game == gamelab::experiment::spec::GameName::Tsumego {
            println!("{}: {} jobs", exp.name, jobs.len());
        } else {
            println!("{}: {} jobs, {} games", exp.name, jobs.len(), games);
        }
        let mine: Vec<&str> = shard
            .map(|s| s.select(&jobs).iter().map(|j| j.hash.as_str()).collect())
            .unwrap_or_default();
        for j in &jobs {
            let swept: Vec<String> = j.swept.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let in_shard = shard.is_none() || mine.contains(&j.hash.as_str());
            let work = match (&j.config.tsumego_ga, &j.config.solve) {
                (Some(g), _) => format!("generations={}", g.generations),
                (_, Some(s)) => format!("weights={}", s.weights.len()),
                _ => format!("games={}", j.game_count()),
            };
            println!(
                "{} repeat={} {work} {}{}",
                j.hash,
                j.config.repeat,
                swept.join(" "),
                if in_shard { "" } else { " (other shard)" }
            );
        }
        return Ok(());
    }
    check_out(&out)?;
    say_on_interrupt(&file, &out);
    let opts = RunOptions {
        out,
        threads,
        shard,
        format,
        progress: true,
    };
    let s = gamelab::experiment::runner::run(&exp, &jobs, &opts)?;
    println!(
        "{}: ran {} jobs ({} rows) in {:.1} s; {} already done ({} rows kept from earlier runs); {} of {} jobs in this shard",
        exp.name,
        s.jobs_run,
        s.rows,
        s.seconds,
        s.jobs_skipped,
        s.rows_kept,
        s.jobs_in_shard,
        s.jobs_total
    );
    println!(
        "rows: {}",
        s.results_dir
            .join(gamelab::experiment::record::rows_folder(exp.file.kind))
            .display()
    );
    let (mut seconds, mut jobs_run) = (s.seconds, s.jobs_run);
    if let Some(arena) = gamelab::arena::write_arena(&exp, &jobs, &opts.out)? {
        let arena_jobs = expand(&arena)?;
        let a = gamelab::experiment::runner::run(
            &arena,
            &arena_jobs,
            &RunOptions {
                shard: None,
                ..opts.clone()
            },
        )?;
        println!(
            "{}: ran {} jobs ({} rows) in {:.1} s; experiment file {}",
            arena.name,
            a.jobs_run,
            a.rows,
            a.seconds,
            arena.path.display()
        );
        seconds += a.seconds;
        jobs_run += a.jobs_run;
    }
    // What this file cost (its arena's games included): the page's table of costs.
    if jobs_run > 0 {
        gamelab::experiment::runner::record_run_time(&s.results_dir, seconds, jobs_run, threads)?;
    }
    Ok(())
}

/// `gamelab run --mpi`: rank 0 runs the experiment (`run`), the other ranks compute its units.
#[cfg(feature = "mpi")]
fn run_mpi(threads: Option<usize>, run: impl FnOnce() -> Result<()> + Send) -> Result<()> {
    use gamelab::farm::mpi;
    let (universe, role) = mpi::init()?;
    let world = universe.world();
    match role {
        mpi::Role::Root => mpi::root(&world, run),
        mpi::Role::Worker => {
            // MPI is called from this thread only; the units compute on the pool.
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads.unwrap_or(0))
                .build()?;
            mpi::worker(&world, &|kind, key, context, payload| {
                pool.install(|| gamelab::experiment::remote::compute(kind, key, context, payload))
            })
        }
    }
}

#[cfg(not(feature = "mpi"))]
fn run_mpi(_threads: Option<usize>, _run: impl FnOnce() -> Result<()> + Send) -> Result<()> {
    Err(InputError::plain("--mpi: this gamelab was built without MPI; build it with `make mpi` (cargo build --release --features mpi, with Open MPI installed), then run `mpirun -n 3 target/release/gamelab run FILE --mpi`").into())
}

fn check_threads(threads: Option<usize>) -> Result<()> {
    match threads {
        Some(0) => Err(InputError::plain("--threads must be at least 1").into()),
        Some(n) if n > MAX_THREADS => Err(InputError::plain(format!(
            "--threads {n}: at most {MAX_THREADS} (one per core is the default)"
        ))
        .into()),
        _ => Ok(()),
    }
}

/// `--stage` of `gamelab perft`: a built-in stage id, an inline stage table
/// (`{ id = "x", size = 6, black = [[2, 3], [3, 2]], white = [[2, 2], [3, 3]], ignore_occlusion = true }`),
/// or a TOML file holding such a table at its top level or under `stage`.
fn othello_stage(stage: &str) -> Result<gamelab::game::othello::StageDef> {
    use gamelab::game::othello::{StageDef, StageRef, builtin_stage};
    if builtin_stage(stage).is_some() {
        return StageRef::Id(stage.to_string())
            .resolve()
            .map_err(|e| InputError::plain(format!("--stage: {e}")).into());
    }
    #[derive(serde::Deserialize)]
    struct Wrapped {
        stage: StageDef,
    }
    let path = PathBuf::from(stage);
    let (def, file) = if stage.trim_start().starts_with('{') {
        let text = format!("stage = {stage}");
        let w: Wrapped = toml::from_str(&text)
            .map_err(|e| InputError::plain(format!("--stage: {}", e.message())))?;
        (w.stage, None)
    } else if path.is_file() {
        let text = gamelab::durable::read_input(&path).map_err(|e| InputError {
            file: Some(path.clone()),
            line_col: None,
            key: None,
            message: format!("cannot read the stage: {e}"),
        })?;
        let def = match toml::from_str::<Wrapped>(&text) {
            Ok(w) => w.stage,
            Err(_) => toml::from_str::<StageDef>(&text)
                .map_err(|e| InputError::from_toml(&path, &text, &e))?,
        };
        (def, Some(path))
    } else {
        return Err(InputError::plain(format!(
            "--stage '{stage}': not a built-in stage ({}), an inline table {{ id = ..., size = ..., black = ..., white = ... }}, or a file",
            gamelab::game::othello::BUILTIN_STAGES.join(", ")
        ))
        .into());
    };
    StageRef::Inline(def).resolve().map_err(|e| {
        InputError {
            file,
            line_col: None,
            key: Some("stage".into()),
            message: e,
        }
        .into()
    })
}

/// `--levels 1-14` or `--levels 7`, within 1..=14.
fn parse_levels(s: &str) -> Result<(u8, u8)> {
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

/// Reads a problem file (text format) or an SGF file (by extension); errors name the file and line.
/// `--out`: a folder, or a path where one can be made (its nearest existing ancestor is a
/// folder): else exit 2 naming the option. Nothing is created here.
fn check_out(out: &std::path::Path) -> Result<()> {
    let bad = |what: String| -> anyhow::Error {
        InputError::plain(format!("--out '{}': {what}", out.display())).into()
    };
    match std::fs::metadata(out) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(bad("is a file, not a folder".into())),
        Err(_) => {
            let mut up = out.parent();
            while let Some(p) = up.filter(|p| !p.as_os_str().is_empty()) {
                match std::fs::metadata(p) {
                    Ok(m) if m.is_dir() => return Ok(()),
                    Ok(_) => {
                        return Err(bad(format!(
                            "cannot make the folder: {} is a file",
                            p.display()
                        )));
                    }
                    Err(_) => up = p.parent(),
                }
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every subcommand and every option says what it is for in `--help`.
    #[test]
    fn every_subcommand_and_option_has_a_help_line() {
        let mut missing = Vec::new();
        let cli = Cli::command();
        for sub in cli.get_subcommands() {
            if sub.get_about().is_none() {
                missing.push(sub.get_name().to_string());
            }
            for arg in sub.get_arguments() {
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{} --{}", sub.get_name(), arg.get_id()));
                }
            }
        }
        assert!(missing.is_empty(), "without a help line: {missing:?}");
    }

    /// The top-level help lists every subcommand once, under its group.
    #[test]
    fn the_top_level_help_lists_every_subcommand_once_by_group() {
        let mut listed: Vec<&str> = COMMAND_GROUPS
            .iter()
            .flat_map(|(_, n)| n.iter().copied())
            .collect();
        listed.sort();
        let mut all: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .chain(["help".to_string()])
            .collect();
        all.sort();
        assert_eq!(listed, all);
        let help = cli_command().render_help().to_string();
        assert!(
            help.find("Experiments:").unwrap() < help.find("Go life and death:").unwrap(),
            "{help}"
        );
        assert!(
            help.contains("  run            Expand an experiment file"),
            "{help}"
        );
    }
}
