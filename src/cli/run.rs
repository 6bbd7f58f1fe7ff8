//! `gamelab run`: expand an experiment file into jobs and play the ones not yet done.

use super::*;
use gamelab::words::count;

#[derive(clap::Args)]
pub(crate) struct RunArgs {
    /// The experiment file (TOML).
    pub(crate) file: PathBuf,
    /// Root folder for outputs: rows go to OUT/results/<experiment>/.
    #[arg(long, default_value = ".")]
    pub(crate) out: PathBuf,
    /// Worker threads that play (default: one per core); each running job writes its rows on
    /// one thread more.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Run only shard I of N (1-based), chosen by job hash, e.g. --shard 2/4.
    #[arg(long, value_name = "I/N")]
    pub(crate) shard: Option<Shard>,
    /// Row format.
    #[arg(long, value_enum, default_value_t = Format::Parquet)]
    pub(crate) format: Format,
    /// Validate the file and print the job grid without running anything.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Distribute the work over MPI ranks: run as `mpirun -n N gamelab run FILE --mpi`;
    /// rank 0 runs the experiment and writes everything, ranks 1..N-1 compute units of work
    /// (needs a build with the `mpi` feature: `make mpi`).
    #[arg(long)]
    pub(crate) mpi: bool,
}

pub(crate) fn execute(args: RunArgs) -> Result<()> {
    let RunArgs {
        file,
        out,
        threads,
        shard,
        format,
        dry_run,
        mpi,
    } = args;
    check_threads(threads)?;
    if mpi && !dry_run {
        return run_mpi(threads, move || {
            run_command(file, out, threads, shard, format, false)
        });
    }
    run_command(file, out, threads, shard, format, dry_run)
}

/// On Ctrl-C (SIGINT), says what is kept and how to go on before exiting 130 as the signal
/// would: finished jobs and the saved batches and checkpoints of running ones stay, and the
/// same command resumes. The run's time so far is added to the folder's run-times.csv (an
/// "interrupted" line) and its clock file removed, and a whole run's run.lock goes (a shard's
/// stays: the shards beside it share it). What the exit leaves running is stopped as after a
/// kill (external agents are contained; their keeper ends them).
pub(crate) fn say_on_interrupt(file: &std::path::Path, out: &std::path::Path) {
    let again = format!("gamelab run {} --out {}", file.display(), out.display());
    // Set once per process; a second handler (an arena run after its GA) is refused, and the
    // first one says the same.
    let _ = ctrlc::set_handler(move || {
        eprintln!(
            "\ninterrupted: finished jobs and the saved batches and checkpoints of running ones are kept; `{again}` resumes without losing or repeating a row"
        );
        gamelab::experiment::layout::record_interrupted_runs();
        gamelab::durable::remove_lock_files_now();
        std::process::exit(130);
    });
}

/// `gamelab run` (in one process, or as rank 0 of an MPI run).
pub(crate) fn run_command(
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
            println!("{}: {}", exp.name, count(jobs.len(), "job", "jobs"));
        } else {
            println!(
                "{}: {}, {}",
                exp.name,
                count(jobs.len(), "job", "jobs"),
                count(games, "game", "games")
            );
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
    // The run's wall clock in its results folder: what it cost even if it is killed.
    let clock = gamelab::experiment::layout::RunClock::start(
        &gamelab::experiment::layout::results_dir(&opts.out, &exp.name),
        threads,
    )?;
    let s = gamelab::experiment::run(&exp, &jobs, &opts)?;
    let in_shard = match shard {
        Some(_) => format!(
            "; {} of {} in this shard",
            s.jobs_in_shard,
            count(s.jobs_total, "job", "jobs")
        ),
        None => String::new(),
    };
    println!(
        "{}: ran {} ({} rows) in {:.1} s; {} already done ({} rows kept from earlier runs){in_shard}",
        exp.name,
        count(s.jobs_run, "job", "jobs"),
        s.rows,
        s.seconds,
        s.jobs_skipped,
        s.rows_kept,
    );
    for line in &s.stopped {
        println!("{line}");
    }
    println!(
        "rows: {}",
        s.results_dir
            .join(gamelab::experiment::kind::rows_folder(exp.file.kind))
            .display()
    );
    let (mut seconds, mut jobs_run) = (s.seconds, s.jobs_run);
    if let Some(arena) = gamelab::arena::write_arena(&exp, &jobs, &opts.out)? {
        let arena_jobs = expand(&arena)?;
        let a = gamelab::experiment::run(
            &arena,
            &arena_jobs,
            &RunOptions {
                shard: None,
                ..opts.clone()
            },
        )?;
        println!(
            "{}: ran {} ({} rows) in {:.1} s; experiment file {}",
            arena.name,
            count(a.jobs_run, "job", "jobs"),
            a.rows,
            a.seconds,
            arena.path.display()
        );
        seconds += a.seconds;
        jobs_run += a.jobs_run;
    }
    // What this file cost (its arena's games included): the page's table of costs.
    clock.finish(seconds, jobs_run)
}

/// `gamelab run --mpi`: rank 0 runs the experiment (`run`), the other ranks compute its units.
#[cfg(feature = "mpi")]
pub(crate) fn run_mpi(
    threads: Option<usize>,
    run: impl FnOnce() -> Result<()> + Send,
) -> Result<()> {
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
                pool.install(|| {
                    let kinds = gamelab::experiment::kind::unit_kinds();
                    gamelab::experiment::remote::compute(&kinds, kind, key, context, payload)
                })
            })
        }
    }
}

#[cfg(not(feature = "mpi"))]
pub(crate) fn run_mpi(
    _threads: Option<usize>,
    _run: impl FnOnce() -> Result<()> + Send,
) -> Result<()> {
    Err(InputError::plain("--mpi: this gamelab was built without MPI; build it with `make mpi` (cargo build --release --features mpi, with Open MPI installed), then run `mpirun -n 3 target/release/gamelab run FILE --mpi`").into())
}
