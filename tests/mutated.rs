//! Every shipped experiment file, mutated one value at a time: each leaf of the file (a number,
//! a string, a boolean, an array, a table) replaced by values of other types and by numbers at
//! and past the edges of what the code can hold (0, -1, 2^63-1, 1e308, NaN, infinities, tiny
//! numbers), strings that are paths with traversal, devices, a FIFO, very long or empty names,
//! deep nesting; keys removed or unknown ones added; agent and job kinds that do not exist.
//! Each mutant goes through what `gamelab run --dry-run` does before its listing (load from
//! text, expand the grid, plan the report) in this process, so that ten thousand files cost
//! seconds, not process starts. It must be accepted or refused with an input error that names
//! the file and a key, never panic, abort or hang (a watchdog names a mutant still running after
//! 10 s and aborts: hang detection, not a speed target; the slowest takes well under a second). External agents are not started here (their
//! start is `probe_external`, tested with hostile agents in tests/external.rs).
//!
//! All the mutants number over 130,000 (about 3 minutes); `make test` takes `DEFAULT_MUTANTS`
//! of them spread evenly over the files and paths, `MUTATED_FILES=N` another number and
//! `MUTATED_FILES=all` (`make fuzz-experiments`) every one.

use gamelab::experiment::{Experiment, expand};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Mutants checked by default: at least 10,000 a CI run (about 20 s).
const DEFAULT_MUTANTS: usize = 12_000;

/// A path of keys and indices to a value of a TOML document.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// Every value's path in `v` (tables and arrays included, the root excluded).
fn paths(v: &toml::Value, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match v {
        toml::Value::Table(t) => {
            for (k, x) in t {
                here.push(Step::Key(k.clone()));
                out.push(here.clone());
                paths(x, here, out);
                here.pop();
            }
        }
        toml::Value::Array(a) => {
            for (i, x) in a.iter().enumerate().take(3) {
                here.push(Step::Index(i));
                out.push(here.clone());
                paths(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn at_mut<'a>(v: &'a mut toml::Value, path: &[Step]) -> &'a mut toml::Value {
    path.iter().fold(v, |v, s| match s {
        Step::Key(k) => v.get_mut(k.as_str()).expect("a path of the document"),
        Step::Index(i) => v.get_mut(*i).expect("a path of the document"),
    })
}

/// Values to put in place of a leaf: other types, edges of numbers, hostile strings.
fn replacements(fifo: &Path) -> Vec<toml::Value> {
    use toml::Value::*;
    let mut deep = Integer(1);
    for _ in 0..40 {
        deep = Array(vec![deep]);
    }
    let mut nested = toml::Table::new();
    nested.insert("x".into(), Integer(1));
    for _ in 0..40 {
        let mut t = toml::Table::new();
        t.insert("x".into(), Table(nested));
        nested = t;
    }
    vec![
        Integer(0),
        Integer(-1),
        Integer(1),
        Integer(i64::MAX),
        Integer(i64::MIN),
        Integer(1 << 53),
        Integer(u32::MAX as i64 + 1),
        Float(1e308),
        Float(-1e308),
        Float(1e-308),
        Float(f64::NAN),
        Float(f64::INFINITY),
        Float(f64::NEG_INFINITY),
        Float(0.5),
        Float(-0.0),
        Boolean(true),
        String(std::string::String::new()),
        String("no-such-kind".into()),
        String("../../../etc/passwd".into()),
        String("a/b\\c:d*e?f".into()),
        String("/dev/zero".into()),
        String("/dev/stdin".into()),
        String(fifo.display().to_string()),
        String("x".repeat(10_000)),
        String("ñ 🙂 \u{202e}".into()),
        Array(vec![]),
        Array((0..1000).map(Integer).collect()),
        Array(vec![Integer(1), String("two".into())]),
        deep,
        Table(toml::Table::new()),
        Table(nested),
    ]
}

/// The mutants of one file's document: each path replaced by each replacement, each key
/// removed, an unknown key added to each table.
fn mutants(doc: &toml::Value, fifo: &Path) -> Vec<(String, toml::Value)> {
    let mut all = Vec::new();
    let mut ps = Vec::new();
    paths(doc, &mut Vec::new(), &mut ps);
    let values = replacements(fifo);
    let name = |p: &[Step]| {
        p.iter()
            .map(|s| match s {
                Step::Key(k) => k.clone(),
                Step::Index(i) => format!("[{i}]"),
            })
            .collect::<Vec<_>>()
            .join(".")
    };
    for p in &ps {
        for v in &values {
            let mut d = doc.clone();
            *at_mut(&mut d, p) = v.clone();
            all.push((format!("{} = {}", name(p), short(v)), d));
        }
        if let Some((Step::Key(k), parent)) = p.split_last() {
            let mut d = doc.clone();
            if let Some(t) = at_mut(&mut d, parent).as_table_mut() {
                t.remove(k);
                all.push((format!("{} removed", name(p)), d));
            }
        }
        if at_mut(&mut doc.clone(), p).is_table() {
            let mut d = doc.clone();
            let t = at_mut(&mut d, p).as_table_mut().expect("a table");
            t.insert("bogus_key".into(), toml::Value::Integer(1));
            all.push((format!("{}.bogus_key added", name(p)), d));
        }
    }
    all
}

fn short(v: &toml::Value) -> String {
    let s = v.to_string();
    if s.len() > 60 {
        format!("{}...", &s[..s.floor_char_boundary(60)])
    } else {
        s
    }
}

#[test]
fn every_shipped_file_mutated_is_accepted_or_refused_naming_the_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir("experiments")
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let doc: toml::Value = toml::from_str(&text).unwrap();
        for (what, d) in mutants(&doc, &fifo) {
            cases.push((f.clone(), what, toml::to_string(&d).unwrap()));
        }
    }
    let limit: usize = match std::env::var("MUTATED_FILES").as_deref() {
        Ok("all") => usize::MAX,
        Ok(n) => n.parse().expect("MUTATED_FILES is a number or all"),
        Err(_) => DEFAULT_MUTANTS,
    };
    if cases.len() > limit {
        // An even spread over the files and paths.
        let step = cases.len() as f64 / limit as f64;
        cases = (0..limit)
            .map(|i| cases[(i as f64 * step) as usize].clone())
            .collect();
    }
    let current: Arc<Mutex<(String, Instant)>> =
        Arc::new(Mutex::new((String::new(), Instant::now())));
    let done = Arc::new(AtomicUsize::new(0));
    {
        let (current, done, total) = (current.clone(), done.clone(), cases.len());
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_secs(5));
                if done.load(Ordering::Relaxed) == total {
                    return;
                }
                let (what, since) = current.lock().unwrap().clone();
                if since.elapsed() > Duration::from_secs(10) {
                    eprintln!("mutant still running after 10 s: {what}");
                    std::process::abort();
                }
            }
        });
    }
    let (mut accepted, mut refused) = (0, 0);
    let mut slowest = (Duration::ZERO, String::new());
    let mut bad: Vec<String> = Vec::new();
    for (file, what, text) in &cases {
        *current.lock().unwrap() = (format!("{}: {what}", file.display()), Instant::now());
        let outcome = std::panic::catch_unwind(|| -> Result<(), String> {
            let exp = Experiment::from_text(file, text.clone()).map_err(|e| e.to_string())?;
            expand(&exp).map_err(|e| e.to_string())?;
            gamelab::report::plan(&exp).map_err(|e| e.to_string())?;
            Ok(())
        });
        match outcome {
            Ok(Ok(())) => accepted += 1,
            Ok(Err(message)) => {
                refused += 1;
                // The file and key, or another input file the experiment names (an openings
                // file, a table) with the line in it.
                let names_key =
                    message.starts_with(&file.display().to_string()) && message.contains("key `");
                let names_line = message.split(": ").next().is_some_and(|at| {
                    at.split(':')
                        .nth(1)
                        .is_some_and(|l| l.parse::<usize>().is_ok())
                });
                if !(names_key || names_line) || message.lines().count() != 1 {
                    bad.push(format!("{}: {what}: {message}", file.display()));
                }
            }
            Err(_) => bad.push(format!("{}: {what}: PANICKED", file.display())),
        }
        let took = current.lock().unwrap().1.elapsed();
        if took > slowest.0 {
            slowest = (took, format!("{}: {what}", file.display()));
        }
        done.fetch_add(1, Ordering::Relaxed);
    }
    eprintln!(
        "mutated experiment files: {} mutants of {} files, {accepted} accepted, {refused} refused, {} not as they should be; slowest {:.2} s ({})",
        cases.len(),
        files.len(),
        bad.len(),
        slowest.0.as_secs_f64(),
        slowest.1
    );
    assert!(
        bad.is_empty(),
        "{} mutants not accepted nor refused naming the file and a key on one line; the first ones:\n{}",
        bad.len(),
        bad.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(
        limit < 10_000 || cases.len() >= 10_000,
        "{} mutants: fewer than 10,000",
        cases.len()
    );
}
