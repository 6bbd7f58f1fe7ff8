//! The life-and-death GA's run (`tsumego_ga`): generations of weight vectors bred and
//! evaluated by the fitness the file names (in parallel, a child that copies a parent taking
//! its fitness), checkpointed, then the test set solved with the best weights and the
//! baselines; its generation rows' frame and its weights file.

use super::*;

/// One individual of one generation of a `tsumego_ga` job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaRow {
    pub generation: u32,
    pub individual: u32,
    /// The raw fitness (rank bonus, or the formula's value).
    pub fitness: f64,
    /// Shifted and scaled to [0, 1] within its generation.
    pub scaled_fitness: f64,
    /// Dynamic fitness: leaves over the training set (none for the static fitness, which
    /// solves nothing to its end: a null in the rows).
    pub train_leaves: Option<f64>,
    pub best: bool,
    /// The chromosome, genes separated by spaces.
    pub genes: String,
}

/// A `tsumego_ga` job's checkpoint: where its GA stood, and its test solves so far.
#[derive(Serialize, Deserialize)]
pub(super) struct Checkpoint {
    pub(super) job: String,
    pub(super) generation: u32,
    population: Vec<Vec<f64>>,
    fitness: Vec<f64>,
    leaves: Vec<Option<f64>>,
    old_leaves: Vec<u64>,
    rng: GameRng,
    rows: Vec<GaRow>,
    /// The test solves done so far, in unit order, once every generation is: a run killed in the
    /// test phase (on GoTools' files the longer part of a static-fitness job) resumes after them.
    #[serde(default)]
    test: Vec<SolveRow>,
}

/// What a finished `tsumego_ga` job produced.
pub struct TsumegoGaOutcome {
    pub rows: Vec<GaRow>,
    pub best: Weights,
    pub test: Vec<SolveRow>,
    /// Rows of `rows` and `test` an earlier run had checkpointed (0 for a fresh job).
    pub resumed_rows: usize,
}

/// Evaluates chromosomes: (raw fitness, training leaves of the dynamic fitness), in parallel.
/// Evaluates chromosomes `genes` of a `tsumego_ga` job (its base weights `base`, training set
/// `train`, the base's leaves `old`): what a worker of a distributed run computes for a unit.
pub fn evaluate_here(
    job: &Job,
    base: &Weights,
    train: &[Problem],
    old: &[u64],
    genes: &[Vec<f64>],
) -> Result<Vec<(f64, Option<f64>)>> {
    let spec = job
        .config
        .tsumego_ga
        .as_ref()
        .context("a tsumego_ga job has a [tsumego_ga] section")?;
    Ok(evaluate(spec, spec.limits(), base, train, old, genes))
}

/// `evaluate`, on the workers of a distributed run when there is one (a few chromosomes a
/// unit), here otherwise.
pub(super) fn evaluate_anywhere(
    job: &Job,
    library: &Path,
    base: &Weights,
    train: &[Problem],
    old: &[u64],
    genes: &[Vec<f64>],
) -> Result<Vec<(f64, Option<f64>)>> {
    let Some(farm) = crate::farm::farm() else {
        return evaluate_here(job, base, train, old, genes);
    };
    let context = tsumego_ga_context(job, library, base, old)?;
    let units = crate::farm::ranges(0..genes.len(), farm.workers(), 2, 1, 1);
    remote::gather(
        farm,
        TSUMEGO_GA,
        &context,
        units.into_iter().map(|r| genes[r].to_vec()),
    )
}

/// The fitness of a generation's children. A child whose genes are a parent's or an earlier
/// child's (bit for bit) takes that fitness: evaluation is deterministic (module docs), and with
/// the report's rates (crossover 6.5%, mutation 50%) about 47% of children are unchanged copies
/// of a parent. Only the other children are handed to `eval`, each once, in order; so a GA
/// makes the same rows as one that evaluated every child, at about half the solves.
pub(super) fn fitness_of_children(
    parents: &[Vec<f64>],
    fitness: &[f64],
    leaves: &[Option<f64>],
    children: &[Vec<f64>],
    eval: impl FnOnce(&[Vec<f64>]) -> Result<Vec<(f64, Option<f64>)>>,
) -> Result<Vec<(f64, Option<f64>)>> {
    fn bits(g: &[f64]) -> Vec<u64> {
        g.iter().map(|v| v.to_bits()).collect()
    }
    let mut known: HashMap<Vec<u64>, (f64, Option<f64>)> = parents
        .iter()
        .zip(fitness.iter().copied().zip(leaves.iter().copied()))
        .map(|(g, f)| (bits(g), f))
        .collect();
    let mut new: Vec<Vec<f64>> = Vec::new();
    let mut queued = HashSet::new();
    for c in children {
        let key = bits(c);
        if !known.contains_key(&key) && queued.insert(key) {
            new.push(c.clone());
        }
    }
    if !new.is_empty() {
        let evaluated = eval(&new)?;
        anyhow::ensure!(
            evaluated.len() == new.len(),
            "{} chromosomes evaluated, {} asked",
            evaluated.len(),
            new.len()
        );
        for (g, f) in new.iter().zip(evaluated) {
            known.insert(bits(g), f);
        }
    }
    Ok(children.iter().map(|c| known[&bits(c)]).collect())
}

pub(super) fn evaluate(
    spec: &TsumegoGaSpec,
    limits: Limits,
    base: &Weights,
    train: &[Problem],
    old: &[u64],
    genes: &[Vec<f64>],
) -> Vec<(f64, Option<f64>)> {
    genes
        .par_iter()
        .map(|g| {
            let w = base.with_part(spec.part, g);
            with_solver(|solver| match spec.fitness {
                FitnessKind::Static => (static_fitness(solver, train, &w, &spec.bonus), None),
                FitnessKind::Dynamic => {
                    let leaves: Vec<u64> = solve_all(solver, train, &w, limits)
                        .iter()
                        .map(|s| s.counters.leaves)
                        .collect();
                    (
                        spec.formula.raw(old, &leaves),
                        Some(leaves.iter().sum::<u64>() as f64),
                    )
                }
            })
        })
        .collect()
}

pub(super) fn genes_text(g: &[f64]) -> String {
    g.iter()
        .map(|v| format!("{v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

pub(super) fn push_rows(
    rows: &mut Vec<GaRow>,
    generation: u32,
    population: &[Vec<f64>],
    fitness: &[f64],
    leaves: &[Option<f64>],
) {
    let scaled = scale_fitness(fitness);
    let top = elite(fitness, 1)[0];
    for (i, g) in population.iter().enumerate() {
        rows.push(GaRow {
            generation,
            individual: i as u32,
            fitness: fitness[i],
            scaled_fitness: scaled[i],
            train_leaves: leaves[i],
            best: i == top,
            genes: genes_text(g),
        });
    }
}

/// Writes `state` to `checkpoint` when `every_s` seconds have passed since `last` (then resets it).
pub(super) fn checkpoint_when_due(
    checkpoint: &Path,
    state: &Checkpoint,
    last: &mut Instant,
    every_s: f64,
) -> Result<()> {
    if last.elapsed().as_secs_f64() >= every_s {
        write_checkpoint(checkpoint, state)?;
        *last = Instant::now();
    }
    Ok(())
}

/// Runs (or resumes) a `tsumego_ga` job. Progress: `on_generation` after each generation.
/// `shared_solves`: the experiment's folder of test solves shared between processes.
pub fn run_tsumego_ga(
    job: &Job,
    library: &Path,
    out: &Path,
    checkpoint: &Path,
    shared_solves: Option<&Path>,
    on_generation: &(dyn Fn() + Sync),
) -> Result<TsumegoGaOutcome> {
    let spec = job
        .config
        .tsumego_ga
        .as_ref()
        .context("a tsumego_ga job has a [tsumego_ga] section")?;
    let cfg = spec.config();
    let Stage::Tsumego(stage) = &job.config.stage else {
        anyhow::bail!("a tsumego_ga job reads a problem library")
    };
    let base = spec
        .base
        .load(out, &stage.library)
        .context("tsumego_ga.base")?;
    let train = spec.train.load(library)?;
    let limits = spec.limits();
    // From the job's start: generation 0 (the base weights' solves and a whole population's) is
    // the longest step of a dynamic-fitness GA (on GoTools' lv3.14 over half an hour on 2 cores),
    // so it is checkpointed like the generations after it, not only once generation 1 is done.
    let mut last_checkpoint = Instant::now();
    let saved = read_checkpoint(checkpoint, &job.hash, |c: &Checkpoint| &c.job)?;
    let resumed_rows = saved.as_ref().map_or(0, |ck| ck.rows.len() + ck.test.len());
    let mut state = match saved {
        Some(ck) => ck,
        None => {
            let mut rng = rng_from_seed(job.seed);
            // Generation 0: random chromosomes, and the base weights' leaves ("old").
            let population = cfg.random_population(spec.part.names().len(), &mut rng);
            let old_leaves = if spec.fitness == FitnessKind::Dynamic && spec.formula.needs_old() {
                with_solver(|solver| solve_all(solver, &train, &base, limits))
                    .iter()
                    .map(|s| s.counters.leaves)
                    .collect()
            } else {
                Vec::new()
            };
            let (fitness, leaves): (Vec<f64>, Vec<Option<f64>>) =
                evaluate_anywhere(job, library, &base, &train, &old_leaves, &population)?
                    .into_iter()
                    .unzip();
            let mut rows = Vec::new();
            push_rows(&mut rows, 0, &population, &fitness, &leaves);
            on_generation();
            let state = Checkpoint {
                job: job.hash.clone(),
                generation: 0,
                population,
                fitness,
                leaves,
                old_leaves,
                rng,
                rows,
                test: Vec::new(),
            };
            checkpoint_when_due(checkpoint, &state, &mut last_checkpoint, spec.checkpoint_s)?;
            state
        }
    };
    while state.generation < spec.generations {
        let children = breed(&state.population, &state.fitness, &cfg, &mut state.rng);
        let (cf, cl): (Vec<f64>, Vec<Option<f64>>) = fitness_of_children(
            &state.population,
            &state.fitness,
            &state.leaves,
            &children,
            |new| evaluate_anywhere(job, library, &base, &train, &state.old_leaves, new),
        )?
        .into_iter()
        .unzip();
        let pooled: Vec<Vec<f64>> = state.population.iter().cloned().chain(children).collect();
        let pooled_fitness: Vec<f64> = state.fitness.iter().copied().chain(cf).collect();
        let pooled_leaves: Vec<Option<f64>> = state.leaves.iter().copied().chain(cl).collect();
        // The fittest of parents and children survive (ties to parents: the earlier index).
        let keep = elite(&pooled_fitness, cfg.population);
        state.population = keep.iter().map(|&i| pooled[i].clone()).collect();
        state.fitness = keep.iter().map(|&i| pooled_fitness[i]).collect();
        state.leaves = keep.iter().map(|&i| pooled_leaves[i]).collect();
        state.generation += 1;
        push_rows(
            &mut state.rows,
            state.generation,
            &state.population,
            &state.fitness,
            &state.leaves,
        );
        on_generation();
        checkpoint_when_due(checkpoint, &state, &mut last_checkpoint, spec.checkpoint_s)?;
    }
    let top = elite(&state.fitness, 1)[0];
    let best = base.with_part(spec.part, &state.population[top]);
    if let Some(sel) = &spec.test {
        let problems = sel.load(library)?;
        let mut labelled = vec![("trained".to_string(), best.clone())];
        labelled.extend(load_labelled(&spec.compare, out, &stage.library)?);
        let work = SolveWork {
            problems,
            weights: labelled,
            limits,
            reuse: true,
            store: shared_solves.map(Path::to_path_buf),
        };
        // In chunks, the rows so far in the checkpoint every `checkpoint_s` seconds.
        let mut save = |state: &mut Checkpoint, rows: Vec<SolveRow>| -> Result<()> {
            state.test.extend(rows);
            checkpoint_when_due(checkpoint, state, &mut last_checkpoint, spec.checkpoint_s)
        };
        match crate::farm::farm() {
            None => {
                while state.test.len() < work.units() {
                    let from = state.test.len();
                    let rows = work.solve(from..(from + SOLVE_CHUNK).min(work.units()), &|| {});
                    save(&mut state, rows)?;
                }
            }
            Some(farm) => {
                let context = solves_context(format!("{}/test", job.hash), library, sel, &work)?;
                let from = state.test.len();
                solve_on_farm(farm, &context, &work, from, &mut |rows, _| {
                    save(&mut state, rows)
                })?;
            }
        }
    }
    Ok(TsumegoGaOutcome {
        rows: state.rows,
        best,
        test: state.test,
        resumed_rows,
    })
}

/// Writes a GA job's best weights as a weights file (`gamelab solve --weights FILE` reads it).
pub fn write_weights_file(path: &Path, job: &Job, best: &Weights) -> Result<()> {
    let of = if job.config.experiment.is_empty() {
        String::new()
    } else {
        format!(" ({})", job.config.experiment)
    };
    let text = format!(
        "# best weights of tsumego_ga job {}{of}, last generation\n{}",
        job.hash,
        weights_text(best)
    );
    write_atomic(path, |f| {
        use std::io::Write;
        f.write_all(crate::durable::sealed(&text).as_bytes())?;
        Ok(())
    })
}

/// Generations a `tsumego_ga` job runs, counting generation 0 (its progress total).
pub fn generations_of(job: &Job) -> usize {
    job.config
        .tsumego_ga
        .as_ref()
        .map_or(0, |g| g.generations as usize + 1)
}

/// A `tsumego_ga` job's generation rows; `final` marks the last generation.
pub fn tsumego_generations_frame(id: &JobColumns, rows: &[GaRow]) -> Result<DataFrame> {
    let cols = generation_columns(
        id,
        rows.iter().map(|r| r.generation as i64).collect(),
        rows.iter().map(|r| r.individual as i64).collect(),
        rows.iter().map(|r| r.fitness).collect(),
        vec![
            Column::new(
                "scaled_fitness".into(),
                rows.iter().map(|r| r.scaled_fitness).collect::<Vec<f64>>(),
            ),
            Column::new(
                "train_leaves".into(),
                rows.iter()
                    .map(|r| r.train_leaves)
                    .collect::<Vec<Option<f64>>>(),
            ),
        ],
        rows.iter().map(|r| r.best as i64).collect(),
        vec![Column::new(
            "genes".into(),
            rows.iter()
                .map(|r| r.genes.clone())
                .collect::<Vec<String>>(),
        )],
    );
    Ok(DataFrame::new(rows.len(), cols)?)
}
