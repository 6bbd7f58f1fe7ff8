//! `gamelab schema`: print the row schemas of every job kind (docs/rows.md) as the row writers
//! build them.

use super::*;

pub(crate) fn execute() -> Result<()> {
    print!("{}", gamelab::experiment::schema::markdown()?);
    Ok(())
}
