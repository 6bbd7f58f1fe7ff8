//! A grid point's job config: the file's settings with the point's swept values written in,
//! validated with errors that name the key, and what only a point can check (openings that
//! cannot be played, OpenSpiel starts). A game-playing kind's own sections are its own to check
//! (`KindRunner::point_agents` and `library_point`, handed in as `KindChecks`): this file knows
//! which section is whose, not what is in them.

use super::*;

/// The validated config of one grid point (repeat 0).
pub(super) fn point_config(
    exp: &Experiment,
    base: &toml::Table,
    swept: &[(String, toml::Value)],
    checks: &KindChecks,
) -> Result<JobConfig, InputError> {
    let file: ExperimentFile = if swept.is_empty() {
        exp.file.clone()
    } else {
        let mut raw = base.clone();
        for (key, value) in swept {
            let parts: Vec<&str> = key.split('.').collect();
            let mut table = &mut raw;
            for part in &parts[..parts.len() - 1] {
                table = table
                    .get_mut(*part)
                    .and_then(toml::Value::as_table_mut)
                    .expect("grid paths were checked");
            }
            table.insert(parts[parts.len() - 1].to_string(), value.clone());
        }
        toml::Value::Table(raw)
            .try_into()
            .map_err(|e: toml::de::Error| {
                let key = if swept.len() == 1 && exp.file.zip.is_empty() {
                    format!("grid.{}", swept[0].0)
                } else if exp.file.grid.is_empty() {
                    "zip".to_string()
                } else {
                    "grid".to_string()
                };
                exp.error(
                    &key,
                    format!("with {}: {}", describe_point(swept), e.message()),
                )
            })?
    };
    // Errors of a grid point name the key it sits on; with a grid, they also say the point.
    // An error of a swept setting (`iterations = 0` of `agents.m` on the axis
    // `agents.m.iterations`) points at that axis's line in [grid] or [zip].
    let err = |key: &str, msg: String| {
        if swept.is_empty() {
            return exp.error(key, msg);
        }
        let setting =
            crate::experiment::spec::leading_setting(&msg).map(|name| format!("{key}.{name}"));
        let axis = swept
            .iter()
            .map(|(k, _)| k.as_str())
            .find(|k| Some(*k) == setting.as_deref() || *k == key);
        let msg = format!("with {}: {msg}", describe_point(swept));
        match axis {
            Some(k) => {
                let section = if exp.file.zip.contains_key(k) {
                    "zip"
                } else {
                    "grid"
                };
                let e = InputError::at_key(
                    &exp.path,
                    &exp.text,
                    &format!("{section}.{k}"),
                    msg.clone(),
                );
                if e.line_col.is_some() {
                    e
                } else {
                    exp.error(key, msg)
                }
            }
            None => exp.error(key, msg),
        }
    };
    if file.repeats == 0 {
        return Err(err("repeats", "must be at least 1".into()));
    }
    if file.openings.is_some() && !file.kind.plays_games() {
        return Err(err(
            "openings",
            "[openings] goes with kind = \"match\" or \"tournament\"".into(),
        ));
    }
    // A kind from outside gamelab reads `[settings]`; gamelab's own kinds have their sections.
    match (file.kind, &file.settings) {
        (JobKind::Other(name), _) => {
            if let Some((key, _)) = [
                ("match", file.match_.is_some()),
                ("tournament", file.tournament.is_some()),
                ("openings", file.openings.is_some()),
                ("ga", file.ga.is_some()),
                ("arena", file.arena.is_some()),
                ("tune", file.tune.is_some()),
                ("library", file.library.is_some()),
                ("solve", file.solve.is_some()),
                ("tsumego_ga", file.tsumego_ga.is_some()),
            ]
            .iter()
            .find(|(_, on)| *on)
            {
                return Err(err(
                    key,
                    format!(
                        "[{key}] goes with gamelab's own kinds, not kind = \"{name}\" (its settings go in [settings])"
                    ),
                ));
            }
        }
        (kind, Some(_)) => {
            return Err(err(
                "settings",
                format!(
                    "[settings] holds the settings of a job kind registered from outside gamelab; kind = \"{}\" has its own sections",
                    kind.name()
                ),
            ));
        }
        _ => {}
    }
    if file.game == GameName::Tsumego || matches!(file.kind, JobKind::Solve | JobKind::TsumegoGa) {
        return tsumego_config(exp, &file, &err, checks);
    }
    if let Some(key) = [
        ("library", file.library.is_some()),
        ("solve", file.solve.is_some()),
        ("tsumego_ga", file.tsumego_ga.is_some()),
    ]
    .iter()
    .find(|(_, on)| *on)
    .map(|(k, _)| *k)
    {
        return Err(err(key, format!("[{key}] goes with game = \"tsumego\"")));
    }
    let stage = match (file.game, &file.stage, &file.openspiel) {
        (GameName::Openspiel, None, Some(spec)) => Stage::OpenSpiel(
            openspiel_start(spec)
                .map_err(|e| err(openspiel_key(&e), e))?
                .0,
        ),
        (GameName::Openspiel, None, None) => {
            return Err(err(
                "openspiel",
                "game = \"openspiel\" needs an `openspiel` table: openspiel = { name = \"connect_four\" }".into(),
            ));
        }
        (GameName::Openspiel, Some(_), _) => {
            return Err(err(
                "stage",
                "an OpenSpiel game is named by the `openspiel` table; leave `stage` out".into(),
            ));
        }
        (_, _, Some(_)) => {
            return Err(err(
                "openspiel",
                "the `openspiel` table goes with game = \"openspiel\"".into(),
            ));
        }
        (game, Some(stage), None) => Stage::resolve(game, stage).map_err(|e| err("stage", e))?,
        (_, None, None) => {
            return Err(err(
                "stage",
                "missing: the stage the games are played on".into(),
            ));
        }
    };
    // A start position to build agents on (Colosseum: a setup of the smallest size).
    enum Start {
        Othello(Othello),
        Colosseum(Colosseum),
        Freckers(Freckers),
        OpenSpiel(OpenSpiel),
    }
    let start = match &stage {
        Stage::Othello(def) => Start::Othello(Othello::new(def).map_err(|e| err("stage", e))?),
        Stage::Colosseum(c) => Start::Colosseum(c.setup(0).map_err(|e| err("stage", e))?),
        Stage::Freckers(f) => Start::Freckers(Freckers::new(f.strict)),
        Stage::OpenSpiel(_) => {
            let spec = file
                .openspiel
                .as_ref()
                .expect("an OpenSpiel stage has its table");
            Start::OpenSpiel(openspiel_start(spec).map_err(|e| err("openspiel", e))?.1)
        }
        Stage::Tsumego(_) => unreachable!("life-and-death configs are built by tsumego_config"),
    };
    let build = |spec: &crate::agent::AgentSpec| -> Result<(), String> {
        match &start {
            Start::Othello(g) => Othello::build_agent(spec, g).map(|_| ()),
            Start::Colosseum(g) => Colosseum::build_agent(spec, g).map(|_| ()),
            Start::OpenSpiel(g) => OpenSpiel::build_agent(spec, g).map(|_| ()),
            Start::Freckers(g) => Freckers::build_agent(spec, g).map(|_| ()),
        }
    };
    // A section of another of gamelab's kinds; then the kind checks its own sections and says
    // which agents the point plays (`KindRunner::point_agents`).
    for (key, present, owner) in [
        ("tune", file.tune.is_some(), JobKind::Tune),
        ("arena", file.arena.is_some(), JobKind::Ga),
        ("ga", file.ga.is_some(), JobKind::Ga),
    ] {
        if present && file.kind != owner {
            return Err(err(
                key,
                if key == "arena" {
                    "an [arena] goes with kind = \"ga\"".into()
                } else {
                    format!(
                        "a [{key}] table goes with kind = \"{}\", not \"{}\"",
                        owner.name(),
                        file.kind.name()
                    )
                },
            ));
        }
    }
    // An agent at `key` with its tables resolved, its numbers and its budget checked.
    let checked = |key: &str, spec: &crate::agent::AgentSpec| {
        let mut spec = spec.clone();
        spec.resolve_tables(&exp.base_dir())
            .map_err(|e| err(key, e))?;
        spec.check_numbers().map_err(|e| err(key, e))?;
        spec.budget().map_err(|e| err(key, e))?;
        Ok::<_, InputError>(spec)
    };
    let plays = (checks.point_agents)(&file).map_err(|(key, m)| err(&key, m))?;
    for (key, spec) in &plays.checked {
        build(&checked(key, spec)?).map_err(|e| err(key, e))?;
    }
    let labels: Vec<String> = plays.labels.iter().map(|(l, _)| l.clone()).collect();
    let mut agents = BTreeMap::new();
    for (label, where_) in &plays.labels {
        let key = format!("agents.{label}");
        let spec = file.agents.get(label).ok_or_else(|| {
            let known: Vec<&str> = file.agents.keys().map(String::as_str).collect();
            err(
                where_,
                format!("no agent labelled '{label}' (agents: {})", known.join(", ")),
            )
        })?;
        let spec = checked(&key, spec)?;
        spec.first_move_budget().map_err(|e| err(&key, e))?;
        build(&spec).map_err(|e| err(&key, e))?;
        // OpenSpiel's othello cannot be set up where an opening ends.
        if file.openings.is_some()
            && matches!(start, Start::Othello(_))
            && spec.kind_name().starts_with("openspiel_")
        {
            return Err(err(
                "openings",
                format!(
                    "agent '{label}' (`{}`) plays Othello from the standard 8x8 start only: OpenSpiel's othello cannot be set up where an opening ends; leave out [openings]",
                    spec.kind_name()
                ),
            ));
        }
        agents.insert(label.clone(), spec);
    }
    let openings = match &file.openings {
        None => None,
        Some(spec) => {
            let o = spec.resolve(&exp.base_dir()).map_err(|e| match e {
                SpecError::Key(key, m) => err(&key, m),
                SpecError::File(path, line, message) => InputError {
                    file: Some(path),
                    line_col: line.map(|l| (l, 1)),
                    key: None,
                    message,
                },
            })?;
            // A fixed start: every line is played once here (Colosseum's random setups are
            // checked per pair by `kind::games::check_openings` once the jobs have seeds).
            let checked = match &start {
                Start::Othello(g) => o.check_suite(g),
                Start::Freckers(g) => o.check_suite(g),
                Start::OpenSpiel(g) => o.check_suite(g),
                Start::Colosseum(_) => Ok(()),
            };
            checked.map_err(|e| opening_error(exp, &o, e, None))?;
            Some(o)
        }
    };
    Ok(JobConfig {
        agents,
        openings,
        match_: file.match_.clone(),
        tournament: file.tournament.as_ref().map(|t| TournamentSpec {
            rounds: t.rounds,
            participants: Some(labels.clone()),
        }),
        ga: file.ga.clone(),
        tune: file.tune.clone(),
        settings: file.settings.clone(),
        ..JobConfig::bare(&file, stage)
    })
}

/// An opening that cannot be played, as an input error: at the suite's line, or at
/// `openings.random_plies`; `slot` names the pair and job when the error depends on them.
pub fn opening_error(
    exp: &Experiment,
    o: &Openings,
    e: OpeningError,
    slot: Option<(u64, &str)>,
) -> InputError {
    let of_pair = slot
        .map(|(s, job)| format!(" on the board of pair {s} of job {job} (a random setup)"))
        .unwrap_or_default();
    let at_line = |line: usize, message: String| match o.line_number(line) {
        Some((path, number)) => InputError {
            file: Some(path.to_path_buf()),
            line_col: Some((number, 1)),
            key: None,
            message,
        },
        None => exp.error("openings.file", message),
    };
    match e {
        OpeningError::Illegal { line, error } => {
            // A suite made for another stage: say so, and name the stage's own.
            let other_stage = o
                .source
                .as_ref()
                .and_then(|(path, _)| crate::experiment::openings::suite_stage(path))
                .zip(exp.stage_id())
                .filter(|(made_for, stage)| made_for != stage)
                .map(|(made_for, stage)| {
                    format!(
                        "; the suite is for stage {made_for}, this file plays {stage}: in [openings] give {}",
                        exp.suite_advice()
                    )
                })
                .unwrap_or_default();
            at_line(
                line,
                format!("opening '{}'{of_pair}: {error}{other_stage}", o.lines[line]),
            )
        }
        OpeningError::GameOver {
            line: Some(line),
            plies,
        } => at_line(
            line,
            format!(
                "opening '{}'{of_pair} ends the game (after {plies} plies); an opening must leave the game on",
                o.lines[line]
            ),
        ),
        OpeningError::GameOver { line: None, plies } => {
            let n = o.random_plies.unwrap_or(0);
            let where_ = slot
                .map(|(s, job)| format!(" in pair {s} of job {job}"))
                .unwrap_or_default();
            exp.error("openings.random_plies", format!("random_plies = {n} ends the game{where_} (over after {plies} plies); an opening must leave the game on: use fewer plies"))
        }
    }
}

/// The config of a life-and-death grid point: the library as the stage, one of `[solve]` or
/// `[tsumego_ga]`, weight vectors resolved.
pub(super) fn tsumego_config(
    exp: &Experiment,
    file: &ExperimentFile,
    err: &dyn Fn(&str, String) -> InputError,
    checks: &KindChecks,
) -> Result<JobConfig, InputError> {
    if file.game != GameName::Tsumego {
        return Err(err(
            "game",
            format!(
                "kind = \"{}\" solves life-and-death problems: use game = \"tsumego\"",
                file.kind.name()
            ),
        ));
    }
    let no_stage = crate::game::othello::StageRef::Id(String::new());
    let mut stage = Stage::tsumego(
        file.stage.as_ref().unwrap_or(&no_stage),
        file.library.as_ref(),
    )
    .map_err(|e| {
        err(
            if file.library.is_none() {
                "stage"
            } else {
                "library"
            },
            e,
        )
    })?;
    let Stage::Tsumego(t) = &mut stage else {
        unreachable!()
    };
    t.library
        .locate(&exp.base_dir())
        .map_err(|(k, m)| err(k, m))?;
    let t = &*t;
    for (key, present) in [
        ("match", file.match_.is_some()),
        ("tournament", file.tournament.is_some()),
        ("ga", file.ga.is_some()),
        ("tune", file.tune.is_some()),
        ("arena", file.arena.is_some()),
    ] {
        if present {
            return Err(err(
                key,
                format!(
                    "[{key}] does not go with game = \"tsumego\" (use [solve] or [tsumego_ga])"
                ),
            ));
        }
    }
    if !file.agents.is_empty() {
        return Err(err(
            "agents",
            "life-and-death experiments name weight vectors, not agents".into(),
        ));
    }
    let library = t.library.clone();
    let mut config = JobConfig::bare(file, stage);
    (checks.library_point)(file, &library, &exp.base_dir(), &mut config)
        .map_err(|(key, m)| err(&key, m))?;
    Ok(config)
}

/// An OpenSpiel game loaded in the bridge, and its start, once per game string in a process:
/// every grid point of an OpenSpiel sweep checks its agents on the same game, and two bridge
/// requests a point made a dry run of 3,000 points take 51 s.
pub(super) fn openspiel_start(
    spec: &crate::game::openspiel::OpenSpielSpec,
) -> Result<(OpenSpielStage, OpenSpiel), String> {
    type Loaded = Result<(OpenSpielStage, OpenSpiel), String>;
    static LOADED: std::sync::LazyLock<std::sync::Mutex<HashMap<String, Loaded>>> =
        std::sync::LazyLock::new(Default::default);
    let game = spec.game_string()?;
    if let Some(known) = LOADED.lock().unwrap().get(&game) {
        return known.clone();
    }
    let loaded = OpenSpielStage::load(spec).and_then(|stage| {
        let start = stage.start(0)?;
        Ok((stage, start))
    });
    LOADED.lock().unwrap().insert(game, loaded.clone());
    loaded
}

/// The key an OpenSpiel load error belongs to: the parameters, the name, or the game itself
/// (Python or the package missing).
pub(super) fn openspiel_key(message: &str) -> &'static str {
    if message.contains("arameter") || message.starts_with("params.") {
        "openspiel.params"
    } else if message.contains("Python")
        || message.contains("OpenSpiel") && message.contains("import")
    {
        "game"
    } else {
        "openspiel.name"
    }
}
