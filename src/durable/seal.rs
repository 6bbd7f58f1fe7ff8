//! Seals: a file gamelab reads back ends with `# seal xxh3 <hash>` over everything before it
//! (`sealed`); `check_seal` tells an intact file from one changed since.

use super::*;

const SEAL_PREFIX: &str = "# seal xxh3 ";

/// `text` followed by its seal line (`# seal xxh3 <hex>`, over `text` exactly).
pub fn sealed(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    out.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        out.push('\n');
    }
    let body_len = out.len();
    let h = xxhash_rust::xxh3::xxh3_64(out[..body_len].as_bytes());
    out.push_str(&format!("{SEAL_PREFIX}{h:016x}\n"));
    out
}

/// What a file's seal says: `Some((body, true))` for a sealed, unchanged file (`body` without
/// the seal line), `Some((body, false))` for one changed since it was sealed, `None` for a file
/// without a seal (not written by gamelab, or written before seals).
pub fn check_seal(text: &str) -> Option<(&str, bool)> {
    let trimmed = text.strip_suffix('\n').unwrap_or(text);
    let at = trimmed.rfind('\n').map_or(0, |i| i + 1);
    let hex = trimmed[at..].strip_prefix(SEAL_PREFIX)?;
    let body = &text[..at];
    let ok = u64::from_str_radix(hex.trim(), 16)
        .is_ok_and(|h| h == xxhash_rust::xxh3::xxh3_64(body.as_bytes()));
    Some((body, ok))
}

/// The body of a sealed text (the whole text for one without a seal, as an older gamelab or a
/// user wrote it), or the message for one changed since it was sealed.
pub fn unsealed<'a>(
    path: &Path,
    text: &'a str,
    what: &str,
) -> std::result::Result<&'a str, String> {
    match check_seal(text) {
        Some((body, true)) => Ok(body),
        Some((_, false)) => Err(changed_message(path, what)),
        None => Ok(text),
    }
}

/// Reads back a file gamelab sealed (`read_input`, then `unsealed`): its body, or an error
/// naming the file (an `InputError`: exit 2).
pub fn read_sealed(path: &Path, what: &str) -> Result<String> {
    let input_error = |message: String| -> anyhow::Error {
        crate::input_error::InputError {
            file: Some(path.to_path_buf()),
            line_col: None,
            key: None,
            message,
        }
        .into()
    };
    let text = read_input(path).map_err(input_error)?;
    unsealed(path, &text, what)
        .map(str::to_string)
        .map_err(input_error)
}

fn changed_message(path: &Path, what: &str) -> String {
    format!(
        "{what} ({}) was changed after gamelab wrote it (its seal does not match): run its job again (remove the file and its job's rows) rather than edit it",
        path.display()
    )
}

/// The error for a sealed file changed since gamelab wrote it.
pub fn changed_error(path: &Path, what: &str) -> anyhow::Error {
    crate::input_error::InputError {
        file: Some(path.to_path_buf()),
        line_col: None,
        key: None,
        message: changed_message(path, what),
    }
    .into()
}
