//! Othello stages: board size, blocked cells, initial discs and the two rule flags of the arena.
//!
//! The three public arena stages (`standard8`, `small6`, `partial-c8`) are as in
//! `shared/rules/othello.md`; the stages marked "ours" are generalisation tests of our own. An
//! experiment file may also define a stage inline with the same fields.

use serde::{Deserialize, Serialize};

/// A stage as written in an experiment file or built in. Cells are `[row, column]`, row 0 on top.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageDef {
    pub id: String,
    #[serde(default)]
    pub name: String,
    pub size: u8,
    #[serde(default)]
    pub blocked: Vec<[u8; 2]>,
    pub black: Vec<[u8; 2]>,
    pub white: Vec<[u8; 2]>,
    /// Blocked cells are transparent to capture rays (skipped, never flipped).
    #[serde(default)]
    pub ignore_occlusion: bool,
    /// After each move the side with fewer discs moves next (alternating on equal counts).
    #[serde(default)]
    pub fewer_pieces_continue: bool,
}

fn centre(size: u8, blocked: Vec<[u8; 2]>, id: &str, name: &str) -> StageDef {
    let h = size / 2;
    StageDef {
        id: id.into(),
        name: name.into(),
        size,
        blocked,
        black: vec![[h - 1, h], [h, h - 1]],
        white: vec![[h - 1, h - 1], [h, h]],
        ignore_occlusion: false,
        fewer_pieces_continue: false,
    }
}

/// Ids of the built-in stages, arena stages first.
pub const BUILTIN_STAGES: [&str; 5] = [
    "standard8",
    "small6",
    "partial-c8",
    "corners-blocked8",
    "x-squares8",
];

/// A built-in stage by id.
pub fn builtin_stage(id: &str) -> Option<StageDef> {
    Some(match id {
        "standard8" => centre(8, vec![], id, "Standard 8x8"),
        "small6" => centre(6, vec![], id, "Small Board 6x6"),
        "partial-c8" => centre(
            8,
            vec![[0, 1], [1, 7], [7, 6], [6, 0]],
            id,
            "8x8 Partial C-Squares (clockwise)",
        ),
        "corners-blocked8" => centre(
            8,
            vec![[0, 0], [0, 7], [7, 0], [7, 7]],
            id,
            "8x8 corners blocked (ours)",
        ),
        "x-squares8" => centre(
            8,
            vec![[1, 1], [1, 6], [6, 1], [6, 6]],
            id,
            "8x8 X-squares blocked (ours)",
        ),
        _ => return None,
    })
}

/// The bit masks a position needs: which cells exist and which of them are blocked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub size: u8,
    /// Cells on the board that are not blocked.
    pub playable: u64,
    pub blocked: u64,
    pub ignore_occlusion: bool,
    pub fewer_pieces_continue: bool,
}

pub fn bit(r: u8, c: u8) -> u64 {
    1u64 << (r as u32 * 8 + c as u32)
}

impl StageDef {
    /// Checks the stage and returns its masks and initial discs, or what is wrong with it.
    pub fn compile(&self) -> Result<(Rules, u64, u64), String> {
        if !(3..=8).contains(&self.size) {
            return Err(format!(
                "stage '{}': size {} is outside 3..=8 (boards up to 8x8 are supported)",
                self.id, self.size
            ));
        }
        let mut board = 0u64;
        for r in 0..self.size {
            for c in 0..self.size {
                board |= bit(r, c);
            }
        }
        let mut seen = 0u64;
        let mut collect = |cells: &[[u8; 2]], what: &str| -> Result<u64, String> {
            let mut m = 0;
            for &[r, c] in cells {
                if r >= self.size || c >= self.size {
                    return Err(format!(
                        "stage '{}': {what} cell [{r}, {c}] is off the {}x{} board",
                        self.id, self.size, self.size
                    ));
                }
                if seen & bit(r, c) != 0 {
                    return Err(format!(
                        "stage '{}': cell [{r}, {c}] is listed twice",
                        self.id
                    ));
                }
                seen |= bit(r, c);
                m |= bit(r, c);
            }
            Ok(m)
        };
        let blocked = collect(&self.blocked, "blocked")?;
        let black = collect(&self.black, "black")?;
        let white = collect(&self.white, "white")?;
        let rules = Rules {
            size: self.size,
            playable: board & !blocked,
            blocked,
            ignore_occlusion: self.ignore_occlusion,
            fewer_pieces_continue: self.fewer_pieces_continue,
        };
        Ok((rules, black, white))
    }
}

/// A stage named by id or written out in full, as experiment files allow.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum StageRef {
    Id(String),
    Inline(StageDef),
}

/// A string is a stage's id; a table is an inline stage, read with `StageDef`'s own messages
/// (an unknown or missing key is named, where an untagged enum would only say that nothing
/// matched).
impl<'de> Deserialize<'de> for StageRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<StageRef, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = StageRef;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a stage id (a string) or an inline stage table")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<StageRef, E> {
                Ok(StageRef::Id(v.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<StageRef, A::Error> {
                StageDef::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(StageRef::Inline)
            }
        }
        d.deserialize_any(Visitor)
    }
}

impl StageRef {
    pub fn resolve(&self) -> Result<StageDef, String> {
        match self {
            StageRef::Id(id) => builtin_stage(id).ok_or_else(|| {
                format!(
                    "unknown stage '{id}' (expected one of {} or an inline stage table)",
                    BUILTIN_STAGES.join(", ")
                )
            }),
            StageRef::Inline(def) => {
                def.compile()?;
                // A position may have lost a colour; a stage, where games start, may not.
                if def.black.is_empty() || def.white.is_empty() {
                    return Err(format!(
                        "stage '{}': a stage starts with at least one black and one white disc",
                        def.id
                    ));
                }
                Ok(def.clone())
            }
        }
    }
}
