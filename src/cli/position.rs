//! Positions given on the command line (`show`, `moves`): read from a file or a stage, moves
//! played on them, and errors that name the line.

use super::*;

pub(crate) fn colosseum_only(game: &str) -> Result<()> {
    if game != "colosseum" {
        return Err(InputError::plain(format!(
            "--game '{game}': positions are available for othello, colosseum, freckers and tsumego"
        ))
        .into());
    }
    Ok(())
}

pub(crate) fn side_name(g: &gamelab::game::colosseum::Colosseum) -> &'static str {
    if g.to_move() == gamelab::game::Player::First {
        "A"
    } else {
        "B"
    }
}

/// An Othello position for `show` and `moves`: a position file, or a stage's start (default
/// standard8), with `moves` played.
pub(crate) fn othello_position(
    position: Option<&PathBuf>,
    stage: Option<&str>,
    moves: Option<&str>,
) -> Result<gamelab::game::othello::Othello> {
    let g = match position {
        Some(p) => gamelab::game::othello::text::parse(&read_position(p)?)
            .map_err(|e| position_error(p, e))?,
        None => gamelab::game::othello::Othello::new(&othello_stage(stage.unwrap_or("standard8"))?)
            .map_err(InputError::plain)?,
    };
    after_moves(g, moves)
}

pub(crate) fn freckers_position(
    position: Option<&PathBuf>,
    moves: Option<&str>,
) -> Result<gamelab::game::freckers::Freckers> {
    let g = match position {
        Some(p) => gamelab::game::freckers::text::parse(&read_position(p)?)
            .map_err(|e| position_error(p, e))?,
        None => gamelab::game::freckers::Freckers::new(false),
    };
    after_moves(g, moves)
}

/// `g` after the moves of `--moves` (a transcript), or as it is.
pub(crate) fn after_moves<G: Game>(g: G, moves: Option<&str>) -> Result<G> {
    let Some(line) = moves else { return Ok(g) };
    Ok(gamelab::game::play_line(&g, &G::split_moves(line))
        .map_err(|e| InputError::plain(format!("--moves: {e}")))?
        .position)
}

pub(crate) fn legal_names<G: Game>(g: &G) -> Vec<String> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves.iter().map(|&m| g.move_name(m)).collect()
}

pub(crate) fn read_position(path: &PathBuf) -> Result<String> {
    gamelab::durable::read_input(path).map_err(|e| {
        InputError {
            file: Some(path.clone()),
            line_col: None,
            key: None,
            message: format!("cannot read the position: {e}"),
        }
        .into()
    })
}

/// A bad position file: an input error naming the file and line.
pub(crate) fn position_error(
    path: &PathBuf,
    e: gamelab::game::colosseum::text::TextError,
) -> anyhow::Error {
    InputError {
        file: Some(path.clone()),
        line_col: Some((e.line, 1)),
        key: None,
        message: e.message,
    }
    .into()
}

/// `--stage` of `gamelab perft`: a built-in stage id, an inline stage table
/// (`{ id = "x", size = 6, black = [[2, 3], [3, 2]], white = [[2, 2], [3, 3]], ignore_occlusion = true }`),
/// or a TOML file holding such a table at its top level or under `stage`.
pub(crate) fn othello_stage(stage: &str) -> Result<gamelab::game::othello::StageDef> {
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
                .map_err(|e| gamelab::experiment::error::from_toml(&path, &text, &e))?,
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
