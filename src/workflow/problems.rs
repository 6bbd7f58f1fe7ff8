//! `gamelab gen-problems`: a generated life-and-death problem library, written with its
//! calibration table (how many draws each level kept, at what node cost).

use anyhow::{Context, Result};

/// `gamelab gen-problems`: writes the files and prints the calibration table (also written to
/// OUT/calibration.md); with `keep_unsolved`, the draws left unsolved within the node budget
/// as OUT/unsolved/lv<set>-<level>.
#[allow(clippy::too_many_arguments)]
pub fn gen_problems(
    sets: u8,
    levels: std::ops::RangeInclusive<u8>,
    per_level: usize,
    seed: u64,
    out: &std::path::Path,
    node_budget: u64,
    threads: Option<usize>,
    keep_unsolved: bool,
) -> Result<()> {
    use crate::game::tsumego::generate::{calibration_table, generate_library};
    let t0 = std::time::Instant::now();
    let limits = crate::game::tsumego::Limits::with_budget(node_budget);
    let files = generate_library(sets, levels, per_level, seed, out, limits, threads)?;
    let table = calibration_table(&files);
    if keep_unsolved {
        let dir = out.join("unsolved");
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        for f in files.iter().filter(|f| !f.unsolved.is_empty()) {
            crate::experiment::rows::write_atomic(
                &dir.join(format!("lv{}-{}", f.set, f.level)),
                |w| {
                    use std::io::Write;
                    w.write_all(
                        crate::game::tsumego::generate::unsolved_text(f, seed, node_budget)
                            .as_bytes(),
                    )?;
                    Ok(())
                },
            )?;
        }
    }
    let short: Vec<String> = files
        .iter()
        .filter(|f| f.problems.len() < per_level)
        .map(|f| format!("lv{}-{} ({})", f.set, f.level, f.problems.len()))
        .collect();
    crate::experiment::rows::write_atomic(&out.join("calibration.md"), |w| {
        use std::io::Write;
        writeln!(
            w,
            "# Calibration: seed {seed}, node budget {node_budget}\n\n{table}"
        )?;
        Ok(())
    })?;
    println!("{table}");
    if !short.is_empty() {
        println!(
            "files with fewer problems than asked (too many draws rejected): {}",
            short.join(", ")
        );
    }
    println!(
        "{} files in {} ({:.1} s)",
        files.len(),
        out.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}
