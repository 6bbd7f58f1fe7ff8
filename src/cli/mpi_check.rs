//! `gamelab mpi-check`: check an MPI setup: under `mpirun -n N gamelab mpi-check`, rank 0 sends
//! small units to the N-1 workers, checks every answer, and prints the time per unit (a build with
//! the `mpi` feature).

use super::*;

#[derive(clap::Args)]
pub(crate) struct MpiCheckArgs {
    /// Units to send.
    #[arg(long, default_value_t = 20000)]
    pub(crate) units: usize,
    /// Bytes per unit (and per answer).
    #[arg(long, default_value_t = 64)]
    pub(crate) bytes: usize,
}

pub(crate) fn execute(args: MpiCheckArgs) -> Result<()> {
    let MpiCheckArgs { units, bytes } = args;
    run_mpi(Some(1), move || {
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
    })
}
