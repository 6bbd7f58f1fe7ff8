//! gamelab's own folders: a folder of outputs built beside the old one and swapped in by one
//! rename of a symbolic link (`replace_folder`), and removal only of folders gamelab made
//! (`remove_own_folder`).

use super::*;

/// Builds a new version of the folder `link` names and swaps it in.
///
/// `link` is a symbolic link to a hidden sibling folder `.<name>.<pid>-<nanos>`; `build` fills a
/// fresh such folder, and a new link is renamed over `link` (one atomic rename). The old folder
/// is removed afterwards; folders a killed build left behind are removed on the next call.
///
/// Only what this function made is ever removed: sibling folders named `.<name>.<pid>-<nanos>`
/// (real folders, not links), and the link's old target only when it is such a sibling. A
/// `link` that is anything else (a real folder, a file, a link to another place: the user's
/// own) is refused with an `InputError` naming it, before anything is written or removed.
pub fn replace_folder<T>(link: &Path, build: impl FnOnce(&Path) -> Result<T>) -> Result<T> {
    let parent = link
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = link
        .file_name()
        .context("a folder to replace has a name")?
        .to_string_lossy()
        .into_owned();
    let current = own_link_target(link, &name)?;
    std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    // Folders of earlier builds that no link names any more (a killed report left them), and
    // links a killed swap left.
    if let Ok(entries) = std::fs::read_dir(parent) {
        for e in entries.flatten() {
            let file = e.file_name().to_string_lossy().into_owned();
            let Ok(meta) = std::fs::symlink_metadata(e.path()) else {
                continue;
            };
            let named = current.as_deref() == Some(file.as_str());
            if is_own_build(&file, &name) && meta.is_dir() && !named {
                std::fs::remove_dir_all(e.path()).ok();
            }
            if is_own_swap_link(&file, &name) && meta.file_type().is_symlink() {
                std::fs::remove_file(e.path()).ok();
            }
        }
    }
    let stamp = format!(
        "{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    );
    let fresh_name = format!(".{name}.{stamp}");
    let fresh = parent.join(&fresh_name);
    std::fs::create_dir_all(&fresh).with_context(|| format!("creating {}", fresh.display()))?;
    let built = match build(&fresh) {
        Ok(t) => t,
        Err(e) => {
            std::fs::remove_dir_all(&fresh).ok();
            return Err(e);
        }
    };
    sync_tree(&fresh);
    let new_link = parent.join(format!(".{name}.link-{stamp}"));
    std::os::unix::fs::symlink(&fresh_name, &new_link)
        .with_context(|| format!("creating {}", new_link.display()))?;
    std::fs::rename(&new_link, link)
        .with_context(|| format!("renaming {} to {}", new_link.display(), link.display()))?;
    if let Some(old) = current {
        let old = parent.join(old);
        if std::fs::symlink_metadata(&old).is_ok_and(|m| m.is_dir()) {
            std::fs::remove_dir_all(old).ok();
        }
    }
    Ok(built)
}

/// Whether `file` is a folder name `replace_folder` gives a build of `name`: `.<name>.<pid>-<nanos>`.
fn is_own_build(file: &str, name: &str) -> bool {
    is_stamped(file, name, ".")
}

/// Whether `file` is the name of a link `replace_folder` makes before its swap: `.<name>.link-<stamp>`.
fn is_own_swap_link(file: &str, name: &str) -> bool {
    is_stamped(file, name, ".link-")
}

/// Whether `file` is `.<name><infix><pid>-<nanos>`.
fn is_stamped(file: &str, name: &str, infix: &str) -> bool {
    file.strip_prefix('.')
        .and_then(|f| f.strip_prefix(name))
        .and_then(|f| f.strip_prefix(infix))
        .and_then(|stamp| stamp.split_once('-'))
        .is_some_and(|(pid, nanos)| is_digits(pid) && is_digits(nanos))
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// The folder name `link` points to when it is a link `replace_folder` made (to a sibling build
/// of its own); `None` when nothing is there. Anything else there is the user's: an error.
fn own_link_target(link: &Path, name: &str) -> Result<Option<String>> {
    let meta = match std::fs::symlink_metadata(link) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", link.display())),
        Ok(m) => m,
    };
    let refuse = |what: String| -> anyhow::Error {
        crate::input_error::InputError { file: Some(link.to_path_buf()), line_col: None, key: None, message: format!("{what}; gamelab writes this as a link to a folder of its own and removes only what it made: move it away and run again") }.into()
    };
    if !meta.file_type().is_symlink() {
        return Err(refuse(if meta.is_dir() {
            "is a folder gamelab did not make (an older gamelab's, or yours)".into()
        } else {
            "is a file gamelab did not make".into()
        }));
    }
    let target = std::fs::read_link(link).with_context(|| format!("reading {}", link.display()))?;
    match target.to_str() {
        Some(t) if is_own_build(t, name) => Ok(Some(t.to_string())),
        _ => Err(refuse(format!(
            "is a link to {}, not to a folder gamelab made",
            target.display()
        ))),
    }
}

/// Removes the folder `dir` that gamelab made and filled with files of its own (a job's
/// batches, say), file by file: every entry must be a plain file whose name `owns` accepts, else
/// nothing is removed and the error names the entry. A missing folder is no error; a link or a
/// file where the folder should be is refused (it is not gamelab's).
pub fn remove_own_folder(dir: &Path, owns: impl Fn(&str) -> bool) -> Result<()> {
    let refuse = |path: &Path, what: &str| -> anyhow::Error {
        crate::input_error::InputError {
            file: Some(path.to_path_buf()),
            line_col: None,
            key: None,
            message: format!(
                "{what}; gamelab removes only what it made: move it away and run again"
            ),
        }
        .into()
    };
    let meta = match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", dir.display())),
        Ok(m) => m,
    };
    if !meta.is_dir() {
        return Err(refuse(
            dir,
            if meta.file_type().is_symlink() {
                "is a link gamelab did not make"
            } else {
                "is a file where gamelab keeps a folder of its own"
            },
        ));
    }
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let e = e.with_context(|| format!("reading {}", dir.display()))?;
        let file = e.file_name().to_string_lossy().into_owned();
        let plain = std::fs::symlink_metadata(e.path()).is_ok_and(|m| m.is_file());
        if !plain || !owns(&file) {
            return Err(refuse(&e.path(), "is not a file gamelab made here"));
        }
        files.push(e.path());
    }
    for f in files {
        match std::fs::remove_file(&f) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("removing {}", f.display()));
            }
            _ => {}
        }
    }
    match std::fs::remove_dir(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("removing {}", dir.display()))
        }
        _ => Ok(()),
    }
}

/// Flushes every file under `dir` to disk (best effort), so a crash after the swap does not
/// leave empty files behind the new link.
fn sync_tree(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                sync_tree(&p);
            } else if let Ok(f) = File::open(&p) {
                f.sync_all().ok();
            }
        }
    }
}
