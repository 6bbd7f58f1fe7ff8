//! `gamelab slurm`: batch scripts that run an experiment on a Slurm cluster with the tools it
//! already has, and a report job that waits for them.
//!
//! Two shapes, both plain sbatch scripts a user can read and edit before submitting:
//! - a job array over shards (`--shards N`): task I runs `gamelab run FILE --shard I/N` with the
//!   task's CPUs as threads; the shards write into one results folder (shards of one file run
//!   side by side, each locking only its own shard);
//! - one MPI job (`--mpi-ranks R`): `mpirun -n R gamelab run FILE --mpi` inside the allocation
//!   (Open MPI takes the nodes and tasks from Slurm), for a build with the `mpi` feature.
//!
//! Then `report.sbatch`, submitted with `--dependency=afterok:<run job>`, writes the report
//! once every task has succeeded; `submit.sh` submits both. Paths in the scripts are absolute
//! (the binary, the experiment file, the output folder), so the cluster's nodes must see them
//! on a shared file system, as they see home directories on most clusters. Nothing is
//! submitted here: the scripts are written, and the command to submit them is printed.

pub mod queue;

use crate::experiment::InputError;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// How to run an experiment on Slurm.
#[derive(Clone, Debug)]
pub struct SlurmOptions {
    /// A job array of this many shards...
    pub shards: Option<u64>,
    /// ...or one MPI job of this many ranks.
    pub mpi_ranks: Option<u64>,
    /// `--time` of each task (Slurm's formats: minutes, MM:SS, HH:MM:SS, D-HH[:MM[:SS]]).
    pub time: String,
    pub partition: Option<String>,
    pub cpus_per_task: u64,
    /// Row format, passed on to `gamelab run`.
    pub format: crate::experiment::rows::Format,
}

/// What `write` wrote.
pub struct SlurmScripts {
    pub dir: PathBuf,
    pub run: PathBuf,
    pub report: PathBuf,
    pub submit: PathBuf,
}

/// Checks a Slurm time limit: digits with `:` and at most one `-` (days), as sbatch takes them.
fn check_time(t: &str) -> Result<(), InputError> {
    let (days, rest) = t.split_once('-').map_or((None, t), |(d, r)| (Some(d), r));
    let fields: Vec<&str> = rest.split(':').collect();
    let digits = |s: &str| !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit());
    if days.is_some_and(|d| !digits(d)) || fields.len() > 3 || !fields.iter().all(|f| digits(f)) {
        return Err(InputError::plain(format!(
            "--time '{t}': expected a Slurm time limit such as 30, 2:00:00 or 1-12:00"
        )));
    }
    Ok(())
}

/// Shell-quotes `s` (single quotes).
fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@%".contains(&b))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn absolute(p: &Path) -> Result<PathBuf> {
    let p = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()?.join(p)
    };
    // Normalise `./` and `a/../` away where the folder exists, keep the rest as given.
    Ok(p.canonicalize().unwrap_or(p))
}

/// The `#SBATCH` lines common to both scripts.
fn header(name: &str, what: &str, opts: &SlurmOptions, logs: &Path) -> String {
    let mut s = format!(
        "#!/bin/bash\n#SBATCH --job-name={}\n",
        quote(&format!("gamelab-{what}-{name}"))
    );
    s += &format!("#SBATCH --time={}\n", opts.time);
    if let Some(p) = &opts.partition {
        s += &format!("#SBATCH --partition={}\n", quote(p));
    }
    s += &format!(
        "#SBATCH --output={}\n",
        quote(
            &logs
                .join(if what == "run" && opts.shards.is_some() {
                    "run-%A_%a.out".to_string()
                } else {
                    format!("{what}-%j.out")
                })
                .to_string_lossy()
        )
    );
    s
}

/// Writes the scripts for `file` (experiment `name`) into `<out>/slurm/<name>/`.
pub fn write(
    file: &Path,
    name: &str,
    jobs: usize,
    out: &Path,
    opts: &SlurmOptions,
) -> Result<SlurmScripts> {
    match (opts.shards, opts.mpi_ranks) {
        (Some(_), Some(_)) => {
            return Err(InputError::plain(
                "--shards and --mpi-ranks: choose one (a job array of shards, or one MPI job)",
            )
            .into());
        }
        (None, None) => {
            return Err(InputError::plain(
                "give --shards N (a job array) or --mpi-ranks R (one MPI job)",
            )
            .into());
        }
        (Some(0), _) => return Err(InputError::plain("--shards must be at least 1").into()),
        (_, Some(r)) if r < 2 => {
            return Err(InputError::plain(
                "--mpi-ranks must be at least 2 (rank 0 runs the experiment, the others compute)",
            )
            .into());
        }
        _ => {}
    }
    if opts.mpi_ranks.is_some() && !cfg!(feature = "mpi") {
        return Err(InputError::plain("--mpi-ranks: this gamelab was built without MPI, and the script runs this binary; build one with `make mpi` and run `target/release/gamelab slurm ...` with it").into());
    }
    if opts.cpus_per_task == 0 {
        return Err(InputError::plain("--cpus-per-task must be at least 1").into());
    }
    check_time(&opts.time)?;
    if let Some(p) = &opts.partition
        && (p.is_empty() || p.contains(char::is_whitespace))
    {
        return Err(InputError::plain(format!(
            "--partition '{p}': a partition name has no spaces"
        ))
        .into());
    }
    let binary = std::env::current_exe().context("finding the gamelab binary")?;
    let (file, out) = (absolute(file)?, absolute(out)?);
    let dir = out.join("slurm").join(name);
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).with_context(|| format!("creating {}", logs.display()))?;
    let (gamelab, file_q, out_q) = (
        quote(&binary.to_string_lossy()),
        quote(&file.to_string_lossy()),
        quote(&out.to_string_lossy()),
    );
    let format = match opts.format {
        crate::experiment::rows::Format::Parquet => "",
        crate::experiment::rows::Format::Csv => " --format csv",
    };
    let mut run = header(name, "run", opts, &logs);
    match (opts.shards, opts.mpi_ranks) {
        (Some(n), _) => {
            run += &format!(
                "#SBATCH --array=1-{n}\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task={}\n",
                opts.cpus_per_task
            );
            run += &format!(
                "# {name}: {jobs} job(s) in {n} shards: task I runs shard I (jobs ranked by hash, dealt round-robin). A task that\n\
                 # fails or is cut off can be resubmitted alone (sbatch --array=I ...): it resumes where it stopped.\n\
                 set -euo pipefail\n\
                 exec {gamelab} run {file_q} --out {out_q} --shard \"$SLURM_ARRAY_TASK_ID/{n}\" --threads \"$SLURM_CPUS_PER_TASK\"{format}\n"
            );
        }
        (_, Some(r)) => {
            run += &format!(
                "#SBATCH --ntasks={r}\n#SBATCH --cpus-per-task={}\n",
                opts.cpus_per_task
            );
            run += &format!(
                "# {name}: {jobs} job(s) on {r} MPI ranks: rank 0 runs the experiment and writes the rows, ranks 1..{} compute.\n\
                 # Needs a gamelab built with the mpi feature (make mpi). Resubmitted after a failure, it resumes.\n\
                 set -euo pipefail\n\
                 exec mpirun -n {r} {gamelab} run {file_q} --out {out_q} --mpi --threads \"$SLURM_CPUS_PER_TASK\"{format}\n",
                r - 1
            );
        }
        _ => unreachable!("checked above"),
    }
    let mut report = header(name, "report", opts, &logs);
    report += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
    report += &format!(
        "# Submitted with --dependency=afterok on the run job: runs once every task has succeeded.\nset -euo pipefail\nexec {gamelab} report {file_q} --out {out_q}\n"
    );
    let (run_path, report_path, submit_path) = (
        dir.join("run.sbatch"),
        dir.join("report.sbatch"),
        dir.join("submit.sh"),
    );
    let submit = format!(
        "#!/bin/bash\n\
         # Submits the run of {name} and its report, which waits for the run to succeed.\n\
         set -euo pipefail\n\
         cd {}\n\
         run=$(sbatch --parsable run.sbatch)\n\
         run=${{run%%;*}}\n\
         report=$(sbatch --parsable --dependency=afterok:\"$run\" report.sbatch)\n\
         report=${{report%%;*}}\n\
         echo \"submitted: run job $run, report job $report (after the run succeeds)\"\n\
         echo \"watch: squeue -j $run,$report    logs: {}\"\n",
        quote(&dir.to_string_lossy()),
        logs.display()
    );
    for (path, text) in [
        (&run_path, &run),
        (&report_path, &report),
        (&submit_path, &submit),
    ] {
        crate::durable::write_atomic(path, |f| {
            use std::io::Write;
            f.write_all(text.as_bytes())?;
            Ok(())
        })?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
        }
    }
    Ok(SlurmScripts {
        dir,
        run: run_path,
        report: report_path,
        submit: submit_path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limits_take_slurms_formats() {
        for t in ["30", "30:00", "2:00:00", "1-12", "1-12:00", "2-00:00:00"] {
            assert!(check_time(t).is_ok(), "{t}");
        }
        for t in ["", "1h", "1:2:3:4", "-1", "1--2", "12:xx"] {
            assert!(check_time(t).is_err(), "{t}");
        }
    }

    #[test]
    fn quoting_keeps_plain_paths_and_quotes_the_rest() {
        assert_eq!(quote("/home/a/x.toml"), "/home/a/x.toml");
        assert_eq!(quote("/home/a b/x.toml"), "'/home/a b/x.toml'");
        assert_eq!(quote("it's"), r"'it'\''s'");
    }

    fn opts(shards: Option<u64>, ranks: Option<u64>) -> SlurmOptions {
        SlurmOptions {
            shards,
            mpi_ranks: ranks,
            time: "1:00:00".into(),
            partition: Some("short".into()),
            cpus_per_task: 4,
            format: crate::experiment::rows::Format::Parquet,
        }
    }

    #[test]
    fn an_array_script_runs_one_shard_a_task_and_the_report_waits_for_all() {
        let dir = tempfile::tempdir().unwrap();
        let s = write(
            Path::new("experiments/quickstart.toml"),
            "quickstart",
            1,
            dir.path(),
            &opts(Some(8), None),
        )
        .unwrap();
        let run = std::fs::read_to_string(&s.run).unwrap();
        for line in [
            "#SBATCH --array=1-8",
            "#SBATCH --cpus-per-task=4",
            "#SBATCH --time=1:00:00",
            "#SBATCH --partition=short",
            "--shard \"$SLURM_ARRAY_TASK_ID/8\" --threads \"$SLURM_CPUS_PER_TASK\"",
            "run-%A_%a.out",
        ] {
            assert!(run.contains(line), "{line} in:\n{run}");
        }
        assert!(
            run.contains(
                &std::fs::canonicalize("experiments/quickstart.toml")
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            ),
            "absolute paths"
        );
        let submit = std::fs::read_to_string(&s.submit).unwrap();
        assert!(
            submit.contains("--dependency=afterok:\"$run\" report.sbatch"),
            "{submit}"
        );
        assert!(
            std::fs::read_to_string(&s.report)
                .unwrap()
                .contains(" report ")
        );
    }

    #[test]
    #[cfg(feature = "mpi")]
    fn an_mpi_script_runs_mpirun_over_the_allocation() {
        let dir = tempfile::tempdir().unwrap();
        let s = write(
            Path::new("experiments/quickstart.toml"),
            "quickstart",
            1,
            dir.path(),
            &opts(None, Some(6)),
        )
        .unwrap();
        let run = std::fs::read_to_string(&s.run).unwrap();
        assert!(
            run.contains("#SBATCH --ntasks=6")
                && run.contains("exec mpirun -n 6 ")
                && run.contains(" --mpi --threads"),
            "{run}"
        );
        assert!(!run.contains("--array"));
    }

    #[test]
    fn bad_options_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let f = Path::new("experiments/quickstart.toml");
        for (o, why) in [
            (opts(Some(2), Some(3)), "choose one"),
            (opts(None, None), "give --shards"),
            (opts(Some(0), None), "at least 1"),
            (opts(None, Some(1)), "at least 2"),
            (
                SlurmOptions {
                    time: "1h".into(),
                    ..opts(Some(2), None)
                },
                "--time '1h'",
            ),
            (
                SlurmOptions {
                    cpus_per_task: 0,
                    ..opts(Some(2), None)
                },
                "--cpus-per-task",
            ),
        ] {
            let e = write(f, "q", 1, dir.path(), &o).err().unwrap().to_string();
            assert!(e.contains(why), "{why}: {e}");
        }
        if !cfg!(feature = "mpi") {
            let e = write(f, "q", 1, dir.path(), &opts(None, Some(3)))
                .err()
                .unwrap()
                .to_string();
            assert!(
                e.contains("built without MPI") && e.contains("make mpi"),
                "{e}"
            );
        }
        assert!(
            !dir.path().join("slurm").exists(),
            "nothing written for bad options"
        );
    }
}
