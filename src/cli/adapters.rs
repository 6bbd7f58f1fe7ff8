//! `gamelab adapters`: print the course adapters' absolute paths, with an agent section for each,
//! to paste into an experiment file kept in a student's own folder (its `cwd`).

use super::*;

pub(crate) fn execute() -> Result<()> {
    print!(
        "{}",
        gamelab::agent::external::adapters_text().map_err(anyhow::Error::msg)?
    );
    Ok(())
}
