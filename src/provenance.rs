//! Where a result came from: gamelab's version, the commit of the checkout it was built in (or
//! "not a git checkout"), the command line, the host and the time (UTC). Written in every
//! report.md and in every Parquet part's metadata (`gamelab.version`, `gamelab.commit`,
//! `gamelab.command`, `gamelab.host`, `gamelab.date`).

use std::sync::OnceLock;

pub struct Provenance {
    pub version: &'static str,
    /// The short commit of the source checkout the binary was built in, as that checkout stands
    /// when the binary runs (a binary built before a `git pull` reports the pulled commit: rebuild
    /// after pulling, as `make` does), with `-dirty` when it has uncommitted changes (outside the
    /// kept reports, docs/reports/, and the page built from them), or "not a
    /// git checkout".
    pub commit: String,
    pub command: String,
    pub host: String,
    /// When this process started, `YYYY-MM-DD HH:MM:SS UTC`.
    pub date: String,
}

/// This process's provenance (computed once).
pub fn current() -> &'static Provenance {
    static P: OnceLock<Provenance> = OnceLock::new();
    P.get_or_init(|| Provenance {
        version: env!("CARGO_PKG_VERSION"),
        commit: commit(),
        command: std::env::args()
            .map(|a| {
                if a.contains(char::is_whitespace) {
                    format!("'{a}'")
                } else {
                    a
                }
            })
            .collect::<Vec<_>>()
            .join(" "),
        host: host(),
        date: utc(std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())),
    })
}

fn git(args: &[&str]) -> Option<String> {
    let o = std::process::Command::new("git")
        .arg("-C")
        .arg(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn commit() -> String {
    match git(&["rev-parse", "--short", "HEAD"]) {
        Some(c) if !c.is_empty() => {
            // The kept reports and the page built from them are outputs the reproduce targets
            // write into the checkout: they do not make the code dirty.
            let dirty = git(&[
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                ".",
                ":(top,exclude)docs/reports",
                ":(top,exclude)docs/reproduction.md",
            ])
            .is_some_and(|s| !s.is_empty());
            if dirty { format!("{c}-dirty") } else { c }
        }
        _ => "not a git checkout".into(),
    }
}

fn host() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most buf.len() bytes into buf.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr() as *mut libc::c_char, buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    if ok {
        String::from_utf8_lossy(&buf[..end]).into_owned()
    } else {
        "unknown host".into()
    }
}

/// Seconds since 1970 as a UTC date and time (the civil-from-days algorithm).
pub fn utc(secs: u64) -> String {
    let (days, rem) = ((secs / 86400) as i64, secs % 86400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + (month <= 2) as i64;
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_dates_are_right_across_leap_years() {
        assert_eq!(super::utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(super::utc(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(super::utc(1_795_391_999), "2026-11-22 23:59:59 UTC");
        assert_eq!(super::utc(4_107_542_400), "2100-03-01 00:00:00 UTC");
    }
}
