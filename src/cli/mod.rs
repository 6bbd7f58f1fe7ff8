//! The binary's own parts: the command line (`args`) and the commands' helpers that are not
//! library logic. `main.rs` parses, dispatches and maps errors to exit codes.

pub(crate) mod args;
pub(crate) mod gotools;
pub(crate) mod position;
