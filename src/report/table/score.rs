//! Score tables: points and score per group with their interval, Elo (from W/D/L or from
//! colour-swapped pairs, pentanomial) and the likelihood of superiority; how games are counted
//! once whatever the grouping.

use super::*;

/// W/D/L, score % with a proportion interval; optionally Elo (from colour-swapped pairs when
/// every game of the group has its partner in the group, else from games) and LOS.
pub(super) fn score_table(records: &Records, p: &TableParams) -> Result<Table> {
    let mut t = base(
        p,
        "games",
        "score %".into(),
        format!("{} CI ({})", level_text(p.level), p.interval.name()),
    );
    t.decimals = 1;
    t.before_names = vec!["W".into(), "D".into(), "L".into()];
    if p.elo {
        t.after_names = vec![
            "Elo".into(),
            format!("Elo {} CI", level_text(p.level)),
            "LOS".into(),
            "Elo unit".into(),
            "pairs 0/¼/½/¾/1".into(),
        ];
    }
    // Repeated games: only the games whose start and moves occur more than once among all the
    // games can repeat within a group, so each group counts its games (without a set of them,
    // `GameCount`), and a second query over those few games alone (picked by their keys)
    // counts them again and finds their distinct keys.
    let repeats = repeated_keys(records)?;
    let count = GameCount::of(p, records);
    let repeated = repeats.as_ref().filter(|r| !r.is_empty());
    // Keys and filter on a game's seats and game-level columns only: counted from the games
    // themselves (`Records::counted_seats`: a group-by over the games, then a few rows);
    // otherwise from the records, two per game.
    let game_columns: Option<Vec<String>> = {
        let mut columns: Vec<String> = p
            .group_by
            .iter()
            .chain(p.filter.iter().map(|(c, _)| c))
            .filter(|c| !Records::COUNTED_SEAT_COLUMNS.contains(&c.as_str()))
            .cloned()
            .collect();
        columns.sort();
        columns.dedup();
        let game_level = |c: &String| GAME_LEVEL.contains(&c.as_str()) || records.grid.contains(c);
        (!matches!(count, GameCount::Distinct) && columns.iter().all(game_level)).then_some(columns)
    };
    let counted = |only: Option<&DataFrame>, extra: &[&str]| {
        game_columns.as_ref().and_then(|columns| {
            let mut keep = columns.clone();
            keep.extend(extra.iter().map(|e| e.to_string()));
            records.counted_seats(&keep, only)
        })
    };
    let (names, groups) = match counted(None, &[]) {
        Some(parts) => {
            let queries = parts
                .into_iter()
                .map(|part| {
                    part.filter(records.matches(p.filter))
                        .group_by(group_keys(
                            p.group_by.iter().map(|k| records.key(k)).collect(),
                        ))
                        .agg(score_counts(&count, "", true))
                })
                .collect();
            added_up(queries, p.group_by)?
        }
        None => summed(
            records,
            p.group_by,
            p.filter,
            score_counts(&count, "", false),
        )?,
    };
    // Each group's records of repeated games (`GameCount` aggregates) and their distinct keys.
    let mut repeated_counts: BTreeMap<Vec<String>, (Vec<f64>, std::collections::HashSet<u64>)> =
        BTreeMap::new();
    let mut repeated_names = Vec::new();
    if let Some(repeated) = repeated {
        let mut keys: Vec<Expr> = p.group_by.iter().map(|k| records.key(k)).collect();
        keys.push(col("game_key"));
        let mut listed: Vec<u64> = repeated.iter().copied().collect();
        listed.sort_unstable();
        let only = DataFrame::new_infer_height(vec![Column::new("game_key".into(), listed)])?;
        let queries: Vec<LazyFrame> = match counted(Some(&only), &["game_key"]) {
            Some(parts) => parts
                .into_iter()
                .map(|part| {
                    part.filter(records.matches(p.filter))
                        .group_by(keys.clone())
                        .agg(count.aggs("_repeated", true))
                })
                .collect(),
            None => {
                let only = records.filtered(is_repeated(repeated.clone()))?;
                per_part(&only, p.filter)
                    .into_iter()
                    .map(|part| {
                        part.group_by(keys.clone())
                            .agg(count.aggs("_repeated", false))
                    })
                    .collect()
            }
        };
        for df in collect_parts(queries)? {
            let values;
            (repeated_names, values) = aggregates(&df, keys.len())?;
            let game_keys = df.column("game_key")?.u64()?.into_no_null_iter();
            for (i, (group, key)) in row_keys(&df, p.group_by)?
                .into_iter()
                .zip(game_keys)
                .enumerate()
            {
                let (sums, distinct) = repeated_counts
                    .entry(group)
                    .or_insert_with(|| (vec![0.0; values.len()], Default::default()));
                sums.iter_mut().zip(&values).for_each(|(s, v)| *s += v[i]);
                distinct.insert(key);
            }
        }
    }
    let pentanomials = if p.elo {
        pentanomials(records, p)?
    } else {
        BTreeMap::new()
    };
    for (keys, values) in groups {
        let get = |name: &str| value(&names, &values, name);
        if get("n") == 0.0 {
            continue;
        }
        let wdl = Wdl {
            wins: get("wins") as u64,
            draws: get("draws") as u64,
            losses: (get("n") - get("wins") - get("draws")) as u64,
        };
        let n = get("n") as u64;
        let points = wdl.wins as f64 + 0.5 * wdl.draws as f64;
        if let Some((sums, distinct)) = repeated_counts.get(&keys) {
            let games = count.games(&get, "");
            let repeated = count.games(&|name| value(&repeated_names, sums, name), "_repeated");
            let unique = games - repeated + distinct.len() as u64;
            if unique < games {
                t.repeated.push((keys.clone(), games, unique));
            }
        }
        let (lo, hi) = p.interval.bounds(points, n as f64, p.level);
        let mut after = vec![];
        if p.elo {
            let (estimate, unit, counts) = match pentanomials.get(&keys) {
                Some(penta) => {
                    let counts = penta
                        .0
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join("/");
                    (elo_pentanomial(*penta, p.level), "pairs", counts)
                }
                None => (elo_trinomial(wdl, p.level), "games", "–".to_string()),
            };
            match estimate {
                Some(e) => after.extend([
                    elo_text(e.elo.value),
                    format!("{} to {}", elo_text(e.elo.lo), elo_text(e.elo.hi)),
                    format!("{:.3}", los(wdl)),
                    unit.to_string(),
                    counts,
                ]),
                None => {
                    after.extend(["–".into(), "–".into(), "–".into(), unit.to_string(), counts])
                }
            }
        }
        t.rows.push(TableRow {
            keys,
            n,
            value: Estimate {
                value: 100.0 * points / n as f64,
                lo: 100.0 * lo,
                hi: 100.0 * hi,
            },
            before: vec![
                wdl.wins.to_string(),
                wdl.draws.to_string(),
                wdl.losses.to_string(),
            ],
            after,
            change: None,
            sd: None,
        });
    }
    let rank = p.group_by.iter().position(|k| k == "agent");
    sort_rows(&mut t.rows, rank);
    // Groups come from the query in no particular order.
    t.repeated.sort_by(|a, b| keys_cmp(&a.0, &b.0));
    Ok(t)
}

/// The sum of `e` over a group's records; `counted`: over `Records::counted_seats` rows, each
/// standing for `__games` records.
pub(super) fn counted_sum(e: Expr, counted: bool) -> Expr {
    let e = e.cast(DataType::Float64);
    if counted { e * col("__games") } else { e }.sum()
}

/// A group's records (as `counted_sum`).
pub(super) fn counted_len(counted: bool) -> Expr {
    if counted {
        col("__games").sum()
    } else {
        len().cast(DataType::Float64)
    }
}

/// A score table's aggregates: records, wins and draws, and what `count` reads (names with
/// `suffix`); `counted`: over `Records::counted_seats` rows, each standing for `__games` records.
pub(super) fn score_counts(count: &GameCount, suffix: &str, counted: bool) -> Vec<Expr> {
    let result = || col("result");
    let sum = |e: Expr| counted_sum(e, counted);
    let n = counted_len(counted);
    let mut aggs = vec![
        n.alias("n"),
        sum(result().gt_eq(lit(1.0))).alias("wins"),
        sum(result().gt(lit(0.0)).and(result().lt(lit(1.0)))).alias("draws"),
    ];
    aggs.extend(count.aggs(suffix, counted));
    aggs
}

/// The keys (start and moves) that more than one game of the records' games (one row per
/// game) has: none when every game is distinct; `None` for rows without game keys. One column
/// of 8 bytes a game, sorted in place; found once for all the report's tables.
pub(super) fn repeated_keys(records: &Records) -> Result<Option<Arc<RepeatedKeys>>> {
    if let Some(found) = records.repeated.get() {
        return Ok(found.clone());
    }
    let found = if records.games.is_empty() {
        None
    } else {
        // Streamed batch by batch into one vector: the column is never held twice.
        let gathered = Arc::new(std::sync::Mutex::new(Vec::<u64>::new()));
        for part in &records.games {
            let into = gathered.clone();
            let sink = part.clone().select([col("game_key")]).sink_batches(
                PlanCallback::new(move |df: DataFrame| {
                    let column = df.column("game_key")?.u64()?.clone();
                    let mut keys = into.lock().expect("not poisoned");
                    keys.extend(column.into_no_null_iter());
                    Ok(false)
                }),
                false,
                None,
            )?;
            collect(sink)?;
        }
        let mut keys = std::mem::take(&mut *gathered.lock().expect("not poisoned"));
        keys.sort_unstable();
        let repeated: RepeatedKeys = keys
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0])
            .collect();
        Some(Arc::new(repeated))
    };
    Ok(records.repeated.get_or_init(|| found).clone())
}

/// The expression: is the record's game key one of `repeated`.
pub(super) fn is_repeated(repeated: Arc<RepeatedKeys>) -> Expr {
    col("game_key").map(
        move |c| {
            let keys = c.u64()?;
            let marks: BooleanChunked = if keys.null_count() == 0 {
                BooleanChunked::from_iter_values(
                    "repeated".into(),
                    keys.into_no_null_iter().map(|k| repeated.contains(&k)),
                )
            } else {
                keys.iter()
                    .map(|k| Some(k.is_some_and(|k| repeated.contains(&k))))
                    .collect::<BooleanChunked>()
                    .with_name("repeated".into())
            };
            Ok(marks.into_column())
        },
        |_, f| Ok(Field::new(f.name().clone(), DataType::Boolean)),
    )
}

/// Columns of a game record that are the game's, not a seat's: both seat records of a game
/// carry the same value.
pub(super) const GAME_LEVEL: [&str; 8] = [
    "stage",
    "repeat",
    "job",
    "game",
    "pair",
    "termination",
    "plies",
    "wall_ms",
];

/// How a group's games are counted from its records (two per game, one per seat) without
/// holding a set of game ids: a game has both its records in a group unless the group keys or
/// the filter tell its seats apart.
pub(super) enum GameCount {
    /// Keys or filter name the seat: one record per game.
    OnePerGame,
    /// Keys or filter name the agent or its opponent: both records only in self-play.
    SelfPlayTwice,
    /// Only game-level keys: both records of every game.
    TwicePerGame,
    /// Other agent-dependent columns (an arena's evolved settings): count the game ids.
    Distinct,
}

impl GameCount {
    pub(super) fn of(p: &TableParams, records: &Records) -> GameCount {
        let columns: Vec<&str> = p
            .group_by
            .iter()
            .map(String::as_str)
            .chain(p.filter.iter().map(|(c, _)| c.as_str()))
            .collect();
        let game_level = |c: &str| GAME_LEVEL.contains(&c) || records.grid.iter().any(|g| g == c);
        if columns.contains(&"seat") {
            GameCount::OnePerGame
        } else if columns.iter().all(|c| game_level(c)) {
            GameCount::TwicePerGame
        } else if columns
            .iter()
            .all(|c| game_level(c) || *c == "agent" || *c == "opponent")
        {
            GameCount::SelfPlayTwice
        } else {
            GameCount::Distinct
        }
    }

    /// The aggregates `games` reads, named with `suffix`; `counted`: over
    /// `Records::counted_seats` rows, each standing for `__games` records (never for
    /// `Distinct`, which needs each game's id).
    pub(super) fn aggs(&self, suffix: &str, counted: bool) -> Vec<Expr> {
        let sum = |e: Expr| counted_sum(e, counted);
        let records = counted_len(counted);
        let mut aggs = vec![records.alias(format!("records{suffix}"))];
        match self {
            GameCount::SelfPlayTwice => {
                aggs.push(sum(col("agent").eq(col("opponent"))).alias(format!("self_play{suffix}")))
            }
            GameCount::Distinct => aggs.push(
                col("game_id")
                    .n_unique()
                    .cast(DataType::Float64)
                    .alias(format!("game_ids{suffix}")),
            ),
            _ => {}
        }
        aggs
    }

    /// A group's games, from its aggregates (by name).
    pub(super) fn games(&self, get: &dyn Fn(&str) -> f64, suffix: &str) -> u64 {
        let records = get(&format!("records{suffix}")) as u64;
        match self {
            GameCount::OnePerGame => records,
            GameCount::TwicePerGame => records / 2,
            GameCount::SelfPlayTwice => records - get(&format!("self_play{suffix}")) as u64 / 2,
            GameCount::Distinct => get(&format!("game_ids{suffix}")) as u64,
        }
    }
}

/// The pentanomial of each group whose games all come in complete colour-swapped pairs (both
/// games of every pair, by job and pair index, in the group).
///
/// Memory: a polars group-by over (group, pair) holds millions of row-encoded groups for a job
/// of millions of games (480 MB at 2.5M games). So each part's records become one 64-bit number
/// each (`PairRecord`: the group's index among the part's few groups, the pair, the result in
/// quarters), collected as one column, sorted and summed pair by pair in Rust: 8 bytes a record.
pub(super) fn pentanomials(
    records: &Records,
    p: &TableParams,
) -> Result<BTreeMap<Vec<String>, Pentanomial>> {
    let mut keys: Vec<Expr> = group_keys(p.group_by.iter().map(|k| records.key(k)).collect());
    let mut names: Vec<String> = if p.group_by.is_empty() {
        vec!["__all".into()]
    } else {
        p.group_by.to_vec()
    };
    // Pairs never span two jobs: one part per job, or the job among the keys of one frame.
    let parts = if records.parts.is_empty() {
        keys.push(records.key("job").alias("__job"));
        names.push("__job".into());
        vec![records.frame.clone()]
    } else {
        records.parts.clone()
    };
    let on: Vec<Expr> = names.iter().map(|n| col(n.as_str())).collect();
    let mut join = JoinArgs::new(JoinType::Inner);
    join.nulls_equal = true;
    // group -> (pentanomial counts, incomplete)
    let mut totals: BTreeMap<Vec<String>, ([u64; 5], bool)> = BTreeMap::new();
    for part in parts {
        let part = part
            .filter(records.matches(p.filter))
            .with_columns(keys.clone());
        // The part's groups (a handful), numbered.
        let groups = collect(
            part.clone()
                .group_by(on.clone())
                .agg([len().alias("__records")])
                .select(on.clone())
                .with_row_index("__group", None),
        )?;
        let group_names = row_keys(&groups, p.group_by)?;
        let packed = collect(
            part.join(groups.lazy(), on.clone(), on.clone(), join.clone())
                .select([PairRecord::expr().alias("__packed")]),
        )?;
        let mut packed: Vec<u64> = packed
            .column("__packed")?
            .u64()?
            .into_no_null_iter()
            .collect();
        packed.sort_unstable();
        let mut counts = vec![([0u64; 5], false); group_names.len()];
        for run in packed.chunk_by(|a, b| PairRecord::pair_of(*a) == PairRecord::pair_of(*b)) {
            let group = &mut counts[PairRecord::group_of(run[0]) as usize];
            let (a, b) = match run {
                [a, b] => (PairRecord::quarters_of(*a), PairRecord::quarters_of(*b)),
                _ => (PairRecord::NO_PAIR, PairRecord::NO_PAIR),
            };
            if a == PairRecord::NO_PAIR || b == PairRecord::NO_PAIR {
                // Not two records, or a game without a partner: the group has no whole pairs.
                group.1 = true;
            } else if a <= 4 && b <= 4 && (a + b) % 2 == 0 {
                // Both results in halves: the pair's sum is (a + b) / 4, its class 2 * sum.
                group.0[((a + b) / 2) as usize] += 1;
            }
        }
        for (name, (penta, incomplete)) in group_names.into_iter().zip(counts) {
            let total = totals.entry(name).or_insert(([0; 5], false));
            total.0.iter_mut().zip(penta).for_each(|(t, c)| *t += c);
            total.1 |= incomplete;
        }
    }
    Ok(totals
        .into_iter()
        .filter(|(_, (_, incomplete))| !incomplete)
        .map(|(keys, (counts, _))| (keys, Pentanomial(counts)))
        .collect())
}

/// One seat record of a game as a 64-bit number, for summing colour-swapped pairs by sorting:
/// the group's index (bits 36..), the pair (bits 4..36) and the result in quarters of a point
/// (bits 0..4: 0 to 4, `OTHER` for a result that is not, `NO_PAIR` for a game without a pair).
pub(super) struct PairRecord;

impl PairRecord {
    const OTHER: u64 = 15;
    const NO_PAIR: u64 = 14;

    /// The number, from the columns `__group`, `pair` and `result`.
    fn expr() -> Expr {
        let quarters = col("result") * lit(4.0);
        let code = when(col("pair").is_null())
            .then(lit(Self::NO_PAIR))
            .when(
                quarters
                    .clone()
                    .cast(DataType::Int64)
                    .cast(DataType::Float64)
                    .eq(quarters.clone())
                    .and(quarters.clone().gt_eq(lit(0.0)))
                    .and(quarters.clone().lt_eq(lit(4.0))),
            )
            .then(quarters.cast(DataType::UInt64))
            .otherwise(lit(Self::OTHER));
        col("__group").cast(DataType::UInt64) * lit(1u64 << 36)
            + col("pair").cast(DataType::UInt64).fill_null(lit(0u64)) * lit(16u64)
            + code.cast(DataType::UInt64)
    }

    fn group_of(r: u64) -> u64 {
        r >> 36
    }

    /// The group and pair together (the key records of one pair share).
    fn pair_of(r: u64) -> u64 {
        r >> 4
    }

    fn quarters_of(r: u64) -> u64 {
        r & 15
    }
}
