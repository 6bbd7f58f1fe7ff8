//! Errors in what a user gave us (experiment files, command-line values), with the place.
//! Below every room (it imports nothing of ours), so that any room may name a file's error
//! (durable's writes and seals do); what reads the experiment file's own words
//! (`experiment::error`: an agent kind's list cut to the file's game) sits above it.
//!
//! Such an error is printed as one line, `FILE:LINE:COL: KEY: what was expected`, and the
//! command exits with code 2 before anything is written. Errors of the machine (I/O) are not
//! `InputError`s and exit with code 1.

use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq)]
pub struct InputError {
    pub file: Option<PathBuf>,
    pub line_col: Option<(usize, usize)>,
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}", file.display())?;
            if let Some((l, c)) = self.line_col {
                write!(f, ":{l}:{c}")?;
            }
            write!(f, ": ")?;
        }
        if let Some(key) = &self.key {
            write!(f, "key `{key}`: ")?;
        }
        // One line: fold any newline a library put in its message.
        let line = self
            .message
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        write!(f, "{}", plain_types(&line))
    }
}

/// serde's Rust type names in "expected u32" (and "a sequence", "a map") said in the file's
/// words: "expected a whole number from 0 to 4294967295", "a list", "a table".
pub fn plain_types(message: &str) -> String {
    const WORDS: [(&str, &str); 13] = [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u64", "a whole number of 0 or more"),
        ("usize", "a whole number of 0 or more"),
        ("i8", "a whole number from -128 to 127"),
        ("i16", "a whole number from -32768 to 32767"),
        ("i32", "a whole number from -2147483648 to 2147483647"),
        ("i64", "a whole number"),
        ("f32", "a number"),
        ("f64", "a number"),
        ("a sequence", "a list"),
        ("a map", "a table"),
    ];
    const EXPECTED: &str = "expected ";
    let (mut out, mut rest) = (String::new(), message);
    while let Some(at) = rest.find(EXPECTED) {
        let after = &rest[at + EXPECTED.len()..];
        out += &rest[..at + EXPECTED.len()];
        let word_ends =
            |n: usize| !after[n..].starts_with(|c: char| c.is_alphanumeric() || c == '_');
        match WORDS
            .iter()
            .find(|(rust, _)| after.starts_with(rust) && word_ends(rust.len()))
        {
            Some((rust, words)) => {
                out += words;
                rest = &after[rust.len()..];
            }
            None => rest = after,
        }
    }
    out + rest
}

impl std::error::Error for InputError {}

impl InputError {
    pub fn plain(message: impl Into<String>) -> InputError {
        InputError {
            file: None,
            line_col: None,
            key: None,
            message: message.into(),
        }
    }

    /// An error about `key` in `file`, located in `text` when the key can be found there.
    pub fn at_key(file: &Path, text: &str, key: &str, message: impl Into<String>) -> InputError {
        InputError {
            file: Some(file.to_path_buf()),
            line_col: locate_key(text, key),
            key: Some(key.to_string()),
            message: message.into(),
        }
    }

    /// Converts a TOML parse or type error, locating it and naming the key it sits on, with a
    /// near name suggested for an unknown one.
    pub fn from_toml(file: &Path, text: &str, err: &toml::de::Error) -> InputError {
        InputError::from_toml_saying(file, text, err, with_suggestion(err.message()))
    }

    /// `from_toml` with the message as the caller words it (`experiment::error::from_toml`:
    /// an agent kind's list cut to the file's game).
    pub fn from_toml_saying(
        file: &Path,
        text: &str,
        err: &toml::de::Error,
        message: String,
    ) -> InputError {
        let (line_col, key) = match err.span() {
            Some(span) => {
                let lc = line_col(text, span.start);
                (Some(lc), key_at(text, lc.0))
            }
            None => (None, None),
        };
        // serde reports a missing field at the table that lacks it (the whole file, for a
        // top-level key): name the missing key, and its table's header line, not the key that
        // happens to start the table.
        if let Some(field) = message
            .strip_prefix("missing field `")
            .and_then(|m| m.split('`').next())
        {
            let header = line_col
                .and_then(|(l, _)| text.lines().nth(l - 1))
                .and_then(header_of);
            let (key, at) = match header {
                Some(h) => (format!("{h}.{field}"), line_col),
                None => (field.to_string(), None),
            };
            return InputError {
                file: Some(file.to_path_buf()),
                line_col: at,
                key: Some(key),
                message,
            };
        }
        // serde reports an unknown field at its table; point at the field itself when we can.
        if let (Some(table), Some(field)) = (
            &key,
            message
                .strip_prefix("unknown field `")
                .and_then(|m| m.split('`').next()),
        ) {
            let full = format!("{table}.{field}");
            if let Some(lc) = locate_key(text, &full) {
                return InputError {
                    file: Some(file.to_path_buf()),
                    line_col: Some(lc),
                    key: Some(full),
                    message,
                };
            }
        }
        // A value refused inside a table serde read whole (an agent: its `kind` picks the
        // fields) is reported at the table's header: point at the one key of that table whose
        // value is the refused one, when there is exactly one.
        if let (Some(table), Some((line, _)), Some(value)) =
            (&key, line_col, refused_value(&message))
            && let Some((at, field)) = key_with_value(text, line, value)
        {
            return InputError {
                file: Some(file.to_path_buf()),
                line_col: Some(at),
                key: Some(format!("{table}.{field}")),
                message,
            };
        }
        InputError {
            file: Some(file.to_path_buf()),
            line_col,
            key,
            message,
        }
    }
}

/// The value in serde's "invalid value: integer `-5`, expected u64" (or "invalid type: ...").
fn refused_value(message: &str) -> Option<&str> {
    if !message.starts_with("invalid value: ") && !message.starts_with("invalid type: ") {
        return None;
    }
    message.split('`').nth(1).filter(|v| !v.is_empty())
}

/// The one `key = value` line of the table whose header is on line `header` (1-based) with this
/// value, as its place and key; None when the header line is not a table header or when no key
/// or several have it.
fn key_with_value(text: &str, header: usize, value: &str) -> Option<((usize, usize), String)> {
    let lines: Vec<&str> = text.lines().collect();
    header_of(lines.get(header.checked_sub(1)?)?)?;
    let mut found = None;
    for (i, line) in lines.iter().enumerate().skip(header) {
        let code = code_of(line).trim();
        if code.starts_with('[') {
            break;
        }
        let Some((k, v)) = code.split_once('=') else {
            continue;
        };
        let v = v.trim();
        if v == value || v.trim_matches('"') == value {
            if found.is_some() {
                return None;
            }
            let col = line.len() - line.trim_start().len() + 1;
            found = Some(((i + 1, col), k.trim().trim_matches('"').to_string()));
        }
    }
    found
}

/// serde's "unknown variant `x`, expected one of `a`, `b`" (or "unknown field"), with the
/// listed name nearest to `x` suggested when one is near (a typo: at most a third of its letters
/// differ), first: "unknown variant `greddy` (did you mean `greedy`?), expected one of ...".
pub fn with_suggestion(message: &str) -> String {
    let Some((head, rest)) = message.split_once(", expected one of ") else {
        return message.to_string();
    };
    let Some(given) = head
        .strip_prefix("unknown variant `")
        .or_else(|| head.strip_prefix("unknown field `"))
        .and_then(|g| g.strip_suffix('`'))
    else {
        return message.to_string();
    };
    let nearest = rest
        .split(", ")
        .filter_map(|c| c.trim().strip_prefix('`')?.strip_suffix('`'))
        .map(|c| (edit_distance(&given.to_lowercase(), &c.to_lowercase()), c))
        .min_by_key(|&(d, _)| d);
    match nearest {
        Some((d, c)) if d > 0 && d <= (given.chars().count() / 3).max(1) => {
            format!("{head} (did you mean `{c}`?), expected one of {rest}")
        }
        _ => message.to_string(),
    }
}

/// Levenshtein distance (insertions, deletions, substitutions), by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rfind('\n')
        .map_or(before.len(), |i| before.len() - i - 1)
        + 1;
    (line, col)
}

/// The line without a trailing comment (keys and headers hold no `#`).
fn code_of(line: &str) -> &str {
    line.split('#').next().unwrap_or("")
}

fn header_of(line: &str) -> Option<String> {
    let t = code_of(line).trim();
    let inner = t
        .strip_prefix("[[")
        .and_then(|s| s.strip_suffix("]]"))
        .or_else(|| t.strip_prefix('[').and_then(|s| s.strip_suffix(']')))?;
    Some(inner.trim().replace([' ', '"'], ""))
}

fn key_of(line: &str) -> Option<String> {
    let t = code_of(line).trim();
    if t.starts_with('[') {
        return None;
    }
    let k = t.split('=').next()?.trim();
    if t.contains('=') && !k.is_empty() {
        Some(k.trim_matches('"').to_string())
    } else {
        None
    }
}

/// The dotted key written on 1-based `line` (with the table header above it), if any.
fn key_at(text: &str, line: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let this = lines.get(line.checked_sub(1)?)?;
    if let Some(h) = header_of(this) {
        return Some(h);
    }
    let key = key_of(this);
    let header = lines[..line - 1].iter().rev().find_map(|l| header_of(l));
    match (header, key) {
        (Some(h), Some(k)) => Some(format!("{h}.{k}")),
        (None, Some(k)) => Some(k),
        (Some(h), None) => Some(h),
        (None, None) => None,
    }
}

/// Where a dotted key (`agents.mcts.rollouts`, `stage`) is written, if it is.
pub fn locate_key(text: &str, key: &str) -> Option<(usize, usize)> {
    let mut header = String::new();
    let mut header_line = None;
    for (i, line) in text.lines().enumerate() {
        if let Some(h) = header_of(line) {
            header = h;
            if header == key {
                header_line = Some((i + 1, 1));
            }
            continue;
        }
        if let Some(k) = key_of(line) {
            let full = if header.is_empty() {
                k.clone()
            } else {
                format!("{header}.{k}")
            };
            if full == key {
                let col = line.len() - line.trim_start().len() + 1;
                return Some((i + 1, col));
            }
        }
    }
    header_line
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "name = \"x\"\n\n[agents.a]   # comment\nkind = \"random\"\n  rollouts = 3 # more\n# c = 1\n[grid]\n\"agents.a.rollouts\" = [1]\n";

    #[test]
    fn keys_are_located_under_their_headers() {
        assert_eq!(locate_key(TEXT, "name"), Some((1, 1)));
        assert_eq!(locate_key(TEXT, "agents.a.rollouts"), Some((5, 3)));
        assert_eq!(locate_key(TEXT, "agents.a"), Some((3, 1)));
        assert_eq!(locate_key(TEXT, "grid.agents.a.rollouts"), Some((8, 1)));
        assert_eq!(locate_key(TEXT, "agents.a.c"), None);
        assert_eq!(locate_key(TEXT, "nothing"), None);
        assert_eq!(key_at(TEXT, 5).as_deref(), Some("agents.a.rollouts"));
    }

    #[test]
    fn line_and_column_are_one_based() {
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
    }
}

#[cfg(test)]
mod suggestion_tests {
    use super::{edit_distance, plain_types, with_suggestion};

    #[test]
    fn a_near_name_is_suggested_and_a_far_one_is_not() {
        assert_eq!(edit_distance("greddy", "greedy"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        let m =
            with_suggestion("unknown variant `greddy`, expected one of `random`, `greedy`, `uct`");
        assert_eq!(
            m,
            "unknown variant `greddy` (did you mean `greedy`?), expected one of `random`, `greedy`, `uct`"
        );
        let m = with_suggestion(
            "unknown field `rolouts`, expected one of `iterations`, `rollouts_per_leaf`, `rollout`",
        );
        assert!(m.contains("(did you mean `rollout`?)"), "{m}");
        // Nothing near: the message as serde wrote it.
        let far = "unknown variant `chess`, expected one of `random`, `greedy`";
        assert_eq!(
            plain_types("invalid value: integer `-5`, expected u32"),
            "invalid value: integer `-5`, expected a whole number from 0 to 4294967295"
        );
        assert_eq!(
            plain_types("invalid type: string \"x\", expected f64, or a table"),
            "invalid type: string \"x\", expected a number, or a table"
        );
        assert_eq!(
            plain_types("invalid type: integer `3`, expected a sequence"),
            "invalid type: integer `3`, expected a list"
        );
        assert_eq!(plain_types("expected u32s"), "expected u32s");
        assert_eq!(with_suggestion(far), far);
        assert_eq!(
            with_suggestion("invalid type: string, expected u64"),
            "invalid type: string, expected u64"
        );
    }
}
