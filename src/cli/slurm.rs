//! `gamelab slurm`: write Slurm batch scripts for an experiment: a job array over shards (--shards
//! N) or one MPI job (--mpi-ranks R), and a report job that waits for it; prints how to submit
//! them.

use super::*;

#[derive(clap::Args)]
pub(crate) struct SlurmArgs {
    /// The experiment file (TOML).
    pub(crate) file: PathBuf,
    /// Root folder for outputs, as for `run`; the scripts go to OUT/slurm/<experiment>/.
    #[arg(long, default_value = ".")]
    pub(crate) out: PathBuf,
    /// A job array of N tasks, task I running `gamelab run FILE --shard I/N`.
    #[arg(long, value_name = "N")]
    pub(crate) shards: Option<u64>,
    /// Instead: one job of R MPI ranks, `mpirun -n R gamelab run FILE --mpi` (an MPI build).
    #[arg(long, value_name = "R")]
    pub(crate) mpi_ranks: Option<u64>,
    /// Time limit of each task, in Slurm's format (minutes, HH:MM:SS, D-HH:MM).
    #[arg(long, default_value = "1:00:00")]
    pub(crate) time: String,
    /// The partition (queue) to submit to (default: the cluster's default).
    #[arg(long)]
    pub(crate) partition: Option<String>,
    /// CPUs per task (the threads of each shard or rank).
    #[arg(long, default_value_t = 2)]
    pub(crate) cpus_per_task: u64,
    /// Row format of the run.
    #[arg(long, value_enum, default_value_t = Format::Parquet)]
    pub(crate) format: Format,
}

pub(crate) fn execute(args: SlurmArgs) -> Result<()> {
    let SlurmArgs {
        file,
        out,
        shards,
        mpi_ranks,
        time,
        partition,
        cpus_per_task,
        format,
    } = args;
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
