//! Input errors as an experiment file's reader words them. `InputError` itself, its places and
//! its suggestions live in `crate::input_error`, below every room (re-exported here); this adds
//! what needs the agents' kinds: serde's list of every agent kind cut to the file's game.

pub use crate::input_error::*;
use std::path::Path;

/// A TOML parse or type error of a file that names agents (an experiment file, a position
/// file): `InputError::from_toml`, with an unknown agent kind's list cut to the kinds of the
/// file's game.
pub fn from_toml(file: &Path, text: &str, err: &toml::de::Error) -> InputError {
    let message = with_suggestion(&agent_kinds_of_the_game(err.message(), text));
    InputError::from_toml_saying(file, text, err, message)
}

/// serde's "unknown variant `x`, expected one of ..." for an agent's kind lists every kind of
/// every game; this keeps the kinds of the file's `game` (`agent::KINDS_BY_GAME`), so the
/// suggestion and the list are the game's own. Other messages, and files whose game is not
/// read, are left as they are.
fn agent_kinds_of_the_game(message: &str, text: &str) -> String {
    let Some((head, rest)) = message.split_once(", expected one of ") else {
        return message.to_string();
    };
    let listed: Vec<&str> = rest
        .split(", ")
        .filter_map(|c| c.trim().strip_prefix('`')?.strip_suffix('`'))
        .collect();
    let every_kind = crate::agent::AGENT_KINDS
        .iter()
        .all(|(k, _)| listed.contains(k));
    if !head.starts_with("unknown variant") || !every_kind {
        return message.to_string();
    }
    let game = text
        .parse::<toml::Table>()
        .ok()
        .and_then(|t| match t.get("game") {
            Some(toml::Value::String(g)) => Some(g.clone()),
            _ => None,
        });
    let Some((game, kinds)) = game.and_then(|g| Some((g.clone(), crate::agent::kinds_for(&g)?)))
    else {
        return message.to_string();
    };
    let kinds: Vec<String> = kinds.iter().map(|k| format!("`{k}`")).collect();
    format!(
        "{head}, expected one of {} (the agent kinds of {game}; `gamelab list` describes them)",
        kinds.join(", ")
    )
}
