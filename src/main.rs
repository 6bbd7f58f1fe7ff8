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
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(141);
    }
    eprintln!("error: writing to standard output: {e}");
    std::process::exit(1);
}
use gamelab::experiment::InputError;
use std::process::ExitCode;

mod cli;
use cli::args::{Cli, cli_command};

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
    let result = cli::dispatch(cli.command);
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
