use super::*;
use crate::game::tsumego::library::Selection;

/// Two generated problems under names of their own (the name is part of a solve's key, so
/// no other test's solves meet these in `SHARED_SOLVES`).
fn two_problems(tag: &str) -> Vec<Problem> {
    let dir = tempfile::tempdir().unwrap();
    let lib = LibrarySpec::generated(1, "1", 2, 7)
        .ensure(dir.path(), "t", Some(1))
        .unwrap();
    let sel = Selection {
        sets: vec![1],
        levels: "1".into(),
        count: None,
        unique: false,
    };
    let mut problems = sel.load(&lib).unwrap();
    for (i, p) in problems.iter_mut().enumerate() {
        p.name = format!("shared-solves-{tag}-{i}");
    }
    problems
}

/// Children that copy a parent or an earlier child take its fitness; the others are
/// evaluated once each, in order, and every child gets its own chromosome's fitness.
#[test]
fn only_chromosomes_not_seen_before_are_evaluated() {
    let (a, b, c, d) = (
        vec![1.0, 2.0],
        vec![3.0, 4.0],
        vec![5.0, 6.0],
        vec![1.0, 7.0],
    );
    let parents = vec![a.clone(), b.clone()];
    let (fitness, leaves) = ([-10.0, -20.0], [Some(10.0), Some(20.0)]);
    let children = vec![
        a.clone(),
        c.clone(),
        c.clone(),
        b.clone(),
        d.clone(),
        a.clone(),
    ];
    let asked = RefCell::new(Vec::new());
    // A stand-in evaluation: fitness minus the sum of the genes, leaves the sum.
    let eval = |genes: &[Vec<f64>]| -> Result<Vec<(f64, Option<f64>)>> {
        asked.borrow_mut().extend(genes.iter().cloned());
        Ok(genes
            .iter()
            .map(|g| (-g.iter().sum::<f64>(), Some(g.iter().sum())))
            .collect())
    };
    let got = fitness_of_children(&parents, &fitness, &leaves, &children, eval).unwrap();
    assert_eq!(*asked.borrow(), vec![c.clone(), d.clone()]);
    assert_eq!(
        got,
        vec![
            (-10.0, Some(10.0)),
            (-11.0, Some(11.0)),
            (-11.0, Some(11.0)),
            (-20.0, Some(20.0)),
            (-8.0, Some(8.0)),
            (-10.0, Some(10.0)),
        ]
    );
    // Nothing new: the evaluation is not called at all.
    let got = fitness_of_children(&parents, &fitness, &leaves, &[b.clone()], |_| {
        panic!("nothing to evaluate")
    })
    .unwrap();
    assert_eq!(got, vec![(-20.0, Some(20.0))]);
    // An evaluation that answers for fewer chromosomes than asked is an error, not a panic.
    assert!(fitness_of_children(&parents, &fitness, &leaves, &[c], |_| Ok(Vec::new())).is_err());
}

/// Generation 0 is checkpointed once it is done (when `checkpoint_s` has passed since the
/// job started), before generation 1 is bred: a kill during generation 1 resumes after
/// generation 0 instead of starting the job over.
#[test]
fn generation_zero_is_checkpointed_before_generation_one_runs() {
    let dir = tempfile::tempdir().unwrap();
    let lib = LibrarySpec::generated(1, "1", 4, 9)
        .ensure(dir.path(), "t", Some(1))
        .unwrap();
    let text = "name = \"ck0\"\nkind = \"tsumego_ga\"\ngame = \"tsumego\"\nstage = \"tiny\"\nseed = 4\n[library]\nsets = 1\nlevels = \"1\"\nper_level = 4\nseed = 9\n[tsumego_ga]\npart = \"static\"\nfitness = \"static\"\npopulation = 4\nchildren = 4\ngenerations = 2\ncheckpoint_s = 1e-9\nnode_budget = 20000\ntrain = { sets = [1], levels = \"1\" }\n";
    let exp =
        crate::experiment::spec::Experiment::from_text(Path::new("ck0.toml"), text.to_string())
            .unwrap();
    let job = crate::experiment::expand(&exp).unwrap().remove(0);
    let checkpoint = dir.path().join("ck0.json");
    // At each generation's end: the generation the checkpoint on disk holds, if any.
    let seen = std::sync::Mutex::new(Vec::new());
    let on_generation = || {
        let held = read_checkpoint(&checkpoint, &job.hash, |c: &Checkpoint| &c.job)
            .unwrap()
            .map(|c| c.generation);
        seen.lock().unwrap().push(held);
    };
    let out = run_tsumego_ga(&job, &lib, dir.path(), &checkpoint, None, &on_generation).unwrap();
    assert_eq!(out.rows.len(), 3 * 4, "generations 0-2, 4 rows each");
    assert_eq!(*seen.lock().unwrap(), vec![None, Some(0), Some(1)]);
}

/// A GA's test phase (`reuse`) takes a solve made earlier in the process instead of solving
/// again, and keeps the ones it makes; a `solve` job's timed runs never do.
#[test]
fn a_test_phase_reuses_solves_made_earlier_and_a_solve_job_does_not() {
    let problems = two_problems("reuse");
    let weights = Weights::reference();
    let limits = Limits::with_budget(100_000);
    let fresh: Vec<Solution> = problems
        .iter()
        .map(|p| Solver::new(20).solve(p, &weights, limits, false))
        .collect();
    // A solution planted for the first problem, unlike any real one.
    let mut planted = fresh[0].clone();
    planted.counters.leaves = 987_654_321;
    SHARED_SOLVES
        .lock()
        .unwrap()
        .insert(solve_key(&problems[0], &weights, limits), planted);
    let work = |reuse| SolveWork {
        problems: problems.clone(),
        weights: vec![("w".to_string(), weights.clone())],
        limits,
        reuse,
        store: None,
    };
    let rows = work(true).solve(0..2, &|| {});
    assert_eq!(rows[0].leaves, 987_654_321, "the planted solve is reused");
    assert_eq!(rows[1].leaves, fresh[1].counters.leaves);
    // The second problem's solve is kept, and it is what a fresh solve finds.
    let kept = SHARED_SOLVES
        .lock()
        .unwrap()
        .get(&solve_key(&problems[1], &weights, limits))
        .cloned()
        .expect("a new solve is kept for reuse");
    assert_eq!(kept.status, fresh[1].status);
    assert_eq!(kept.counters.leaves, fresh[1].counters.leaves);
    assert_eq!(kept.counters.nodes, fresh[1].counters.nodes);
    // Without reuse both problems are solved: the real leaf counts.
    let rows = work(false).solve(0..2, &|| {});
    assert_eq!(rows[0].leaves, fresh[0].counters.leaves);
    assert_ne!(fresh[0].counters.leaves, 987_654_321);
    // Other weights or limits are other solves.
    let other = Limits::with_budget(99_999);
    assert!(
        !SHARED_SOLVES
            .lock()
            .unwrap()
            .contains_key(&solve_key(&problems[0], &weights, other))
    );
}

/// Another process's solves (a resumed run, a shard) are found in the store folder and
/// taken under this job's label; a stored solve whose seal does not hold is solved again.
#[test]
fn a_test_phase_takes_the_solves_another_process_stored() {
    let problems = two_problems("store");
    let weights = Weights::reference();
    let limits = Limits::with_budget(100_000);
    let dir = tempfile::tempdir().unwrap();
    let work = |label: &str| SolveWork {
        problems: problems.clone(),
        weights: vec![(label.to_string(), weights.clone())],
        limits,
        reuse: true,
        store: Some(dir.path().to_path_buf()),
    };
    let first = work("zero").solve(0..2, &|| {});
    let file = |i: usize| {
        dir.path().join(format!(
            "{:032x}.json",
            solve_key(&problems[i], &weights, limits)
        ))
    };
    assert!(file(0).is_file() && file(1).is_file());
    // As another process would see it: not in this process's memory.
    for p in &problems {
        SHARED_SOLVES
            .lock()
            .unwrap()
            .remove(&solve_key(p, &weights, limits));
    }
    // A stored solve (sealed as gamelab writes them) is taken; a broken seal is not.
    let planted = SolveRow {
        weights: String::new(),
        leaves: 987_654_321,
        ..first[0].clone()
    };
    let json = serde_json::to_string(&planted).unwrap();
    std::fs::write(file(0), crate::durable::sealed(&json)).unwrap();
    let broken = std::fs::read_to_string(file(1))
        .unwrap()
        .replacen("\"nodes\":", "\"nodes\":1", 1);
    std::fs::write(file(1), broken).unwrap();
    let again = work("mine").solve(0..2, &|| {});
    assert_eq!(again[0].leaves, 987_654_321, "the stored solve is taken");
    assert_eq!(again[0].weights, "mine");
    assert_eq!(again[1].weights, "mine");
    assert_eq!(
        (&again[1].status, again[1].leaves, again[1].nodes),
        (&first[1].status, first[1].leaves, first[1].nodes),
        "solved again"
    );
}
