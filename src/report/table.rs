//! Computed tables: records grouped by keys, one statistic per group, and their Markdown and
//! CSV forms. A table row always has a main value with an interval (what figures draw and
//! references are compared with) plus the columns its statistic adds.

use super::records::{Records, RepeatedKeys, collect, key_texts, numbers};
use super::spec::{MeanInterval, Statistic};
use super::stats::elo::{Pentanomial, Wdl, elo_pentanomial, elo_trinomial, los};
use super::stats::means::{Moments, bootstrap, mean, mean_interval_of, paired, welch_of};
use super::stats::rating::{Game, bradley_terry_anchored};
use super::stats::{Estimate, Interval};
use anyhow::{Result, bail};
use polars::prelude::*;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Arc;

mod order;
mod query;
mod rating;
use rating::rating_table;
mod text;
pub use order::natural_cmp;
use order::*;
use query::*;
pub use query::{collect_parts, group_keys, per_part, summed, values_by_group};
pub use text::csv_line;
use text::*;
pub(super) use text::{counted, p_text};

#[derive(Clone, Debug, PartialEq)]
pub struct TableRow {
    pub keys: Vec<String>,
    /// How many independent units the value comes from (games, values, games rated).
    pub n: u64,
    pub value: Estimate,
    /// Cells shown before the value (W, D, L...).
    pub before: Vec<String>,
    /// Cells shown after the interval (Elo, LOS...).
    pub after: Vec<String>,
    /// Mean tables with a baseline: the difference from it in % of the baseline's mean, with
    /// the difference's interval over the same mean.
    pub change: Option<Estimate>,
    /// Mean tables: the sample's standard deviation (for two-sample comparisons).
    pub sd: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub name: String,
    pub title: String,
    pub key_names: Vec<String>,
    pub n_name: String,
    pub before_names: Vec<String>,
    pub value_name: String,
    pub interval_name: String,
    pub after_names: Vec<String>,
    /// Decimals the value and its interval are shown with.
    pub decimals: usize,
    pub rows: Vec<TableRow>,
    /// What each row's value is (how a published value is compared with it).
    pub statistic: Statistic,
    /// Score tables of games: the groups whose games are not all distinct (deterministic agents
    /// from one start replay one game), as (group keys, games, distinct games).
    pub repeated: Vec<(Vec<String>, u64, u64)>,
}

impl Table {
    /// The table's totals (`TableSpec::total`): each row's mean, interval and SD times its n,
    /// so a total over n units is compared as the mean is (a one-sample t of the total against a
    /// published total is that of the mean against the total / n).
    pub fn totals(mut self) -> Table {
        for r in &mut self.rows {
            let n = r.n as f64;
            r.value = Estimate {
                value: r.value.value * n,
                lo: r.value.lo * n,
                hi: r.value.hi * n,
            };
            r.sd = r.sd.map(|sd| sd * n);
        }
        self.value_name = format!("total {} (n x mean)", self.value_name);
        self.decimals = 0;
        self
    }
}

/// What a table needs besides the records.
pub struct TableParams<'a> {
    pub name: &'a str,
    pub title: &'a str,
    pub group_by: &'a [String],
    /// Keep only records whose column has the value (as a group key text).
    pub filter: &'a [(String, String)],
    pub statistic: Statistic,
    pub metric: Option<&'a str>,
    /// Mean tables: the column whose values are the independent units (None: each record).
    pub unit: Option<&'a str>,
    /// Mean tables with a unit: weight each unit's mean by this column.
    pub weighted_by: Option<&'a str>,
    pub method: MeanInterval,
    /// Mean tables: (group column, value) of the group every other is compared with.
    pub baseline: Option<(String, String)>,
    /// Compare with the baseline unit by unit (paired t-test) instead of Welch's test, each
    /// comparison's rows over the units all its groups have (`keep_shared_units`).
    pub paired: bool,
    pub elo: bool,
    pub level: f64,
    pub interval: Interval,
    pub bootstrap: usize,
    pub seed: u64,
}

/// Computes a table from records: polars queries that group and aggregate, then the
/// statistic of each group from its aggregates.
pub fn compute(records: &Records, p: &TableParams) -> Result<Table> {
    match p.statistic {
        Statistic::Score => score_table(records, p),
        Statistic::Mean => mean_table(records, p),
        Statistic::Rating => rating_table(records, p),
    }
}

fn base(p: &TableParams, n_name: &str, value_name: String, interval_name: String) -> Table {
    Table {
        name: p.name.to_string(),
        title: p.title.to_string(),
        key_names: p.group_by.to_vec(),
        n_name: n_name.to_string(),
        before_names: vec![],
        value_name,
        interval_name,
        after_names: vec![],
        decimals: 2,
        rows: vec![],
        statistic: p.statistic,
        repeated: vec![],
    }
}

/// W/D/L, score % with a proportion interval; optionally Elo (from colour-swapped pairs when
/// every game of the group has its partner in the group, else from games) and LOS.
fn score_table(records: &Records, p: &TableParams) -> Result<Table> {
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
fn counted_sum(e: Expr, counted: bool) -> Expr {
    let e = e.cast(DataType::Float64);
    if counted { e * col("__games") } else { e }.sum()
}

/// A group's records (as `counted_sum`).
fn counted_len(counted: bool) -> Expr {
    if counted {
        col("__games").sum()
    } else {
        len().cast(DataType::Float64)
    }
}

/// A score table's aggregates: records, wins and draws, and what `count` reads (names with
/// `suffix`); `counted`: over `Records::counted_seats` rows, each standing for `__games` records.
fn score_counts(count: &GameCount, suffix: &str, counted: bool) -> Vec<Expr> {
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
fn repeated_keys(records: &Records) -> Result<Option<Arc<RepeatedKeys>>> {
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
fn is_repeated(repeated: Arc<RepeatedKeys>) -> Expr {
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
const GAME_LEVEL: [&str; 8] = [
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
enum GameCount {
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
    fn of(p: &TableParams, records: &Records) -> GameCount {
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
    fn aggs(&self, suffix: &str, counted: bool) -> Vec<Expr> {
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
    fn games(&self, get: &dyn Fn(&str) -> f64, suffix: &str) -> u64 {
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
fn pentanomials(records: &Records, p: &TableParams) -> Result<BTreeMap<Vec<String>, Pentanomial>> {
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
struct PairRecord;

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

/// The mean of a numeric column per group, with its Student t interval and the SD; with a
/// baseline, each group's difference from it (also in % of the baseline's mean) with Welch's
/// interval and p-value, or, `paired`, the paired t interval and p-value over the units both
/// groups have (every row of a comparison over the units all its groups have). Without a unit
/// and with the t interval, only each group's moments are computed (in polars); with a unit,
/// each unit's mean; a bootstrap over records collects the values.
fn mean_table(records: &Records, p: &TableParams) -> Result<Table> {
    let metric = p.metric.expect("checked: mean tables name a metric");
    // A game-level metric of game records counts once per game in each group, whatever the
    // grouping (two seat records of one game would count it twice where they share a group).
    // Where the keys tell which records of a game share a group (`GameCount`), a filter on the
    // seat does it; otherwise the records are deduplicated by group and game (slower).
    let deduplicated;
    let (records, filter) = if records.has("game_id") && GAME_LEVEL.contains(&metric) {
        let first = || col("seat").eq(lit("first"));
        match GameCount::of(p, records) {
            GameCount::OnePerGame => (records, p.filter),
            GameCount::TwicePerGame => {
                deduplicated = records.filtered(first())?;
                (&deduplicated, p.filter)
            }
            GameCount::SelfPlayTwice => {
                deduplicated = records.filtered(first().or(col("agent").neq(col("opponent"))))?;
                (&deduplicated, p.filter)
            }
            GameCount::Distinct => {
                deduplicated = records.one_per_game(p.filter, p.group_by)?;
                (&deduplicated, &[][..])
            }
        }
    } else {
        (records, p.filter)
    };
    // The baseline's column (its place among the group keys) and value.
    let baseline_at = p.baseline.as_ref().map(|(column, value)| {
        let c = p
            .group_by
            .iter()
            .position(|k| k == column)
            .expect("checked: the baseline column is a group key");
        (c, value.as_str())
    });
    let method = match p.method {
        MeanInterval::T => "t",
        MeanInterval::Bootstrap => "bootstrap",
    };
    let n_name = p.unit.map_or("n".to_string(), |u| format!("n ({u})"));
    let mut t = base(
        p,
        &n_name,
        format!("mean {metric}"),
        format!("{} CI ({method})", level_text(p.level)),
    );
    t.after_names = vec!["SD".into()];
    let value = || col(metric).cast(DataType::Float64);
    let finite = || value().filter(value().is_finite());
    // Each group's sample: its moments, or its values (the unit means, in unit order).
    let mut moments: BTreeMap<Vec<String>, Moments> = BTreeMap::new();
    let mut values: BTreeMap<Vec<String>, Vec<f64>> = BTreeMap::new();
    // The unit means of each group by unit, for paired comparisons.
    let mut by_unit: BTreeMap<Vec<String>, BTreeMap<String, f64>> = BTreeMap::new();
    match (p.unit, p.method) {
        (None, MeanInterval::T) => {
            // Each part's moments, merged in part order (Chan et al.'s pairwise update).
            let aggs = vec![
                finite().count().cast(DataType::Float64).alias("n"),
                finite().mean().alias("mean"),
                finite().var(1).alias("var"),
            ];
            let queries = per_part(records, filter)
                .into_iter()
                .map(|part| {
                    part.group_by(group_keys(
                        p.group_by.iter().map(|k| records.key(k)).collect(),
                    ))
                    .agg(aggs.clone())
                })
                .collect();
            for df in collect_parts(queries)? {
                let (n, mean, var) = (
                    numbers(&df, "n")?,
                    numbers(&df, "mean")?,
                    numbers(&df, "var")?,
                );
                for (i, keys) in row_keys(&df, p.group_by)?
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| n[*i] > 0.0)
                {
                    let part = Moments {
                        n: n[i] as u64,
                        mean: settled(mean[i]),
                        variance: if n[i] > 1.0 { settled(var[i]) } else { 0.0 },
                    };
                    let merged = moments.get(&keys).map_or(part, |m| merge_moments(*m, part));
                    moments.insert(keys, merged);
                }
            }
            for m in moments.values_mut().filter(|m| m.n < 2) {
                m.variance = f64::NAN;
            }
        }
        (None, MeanInterval::Bootstrap) => {
            values = values_by_group(records, p.group_by, filter, value())?;
        }
        (Some(unit), _) => {
            // The mean of each unit first (its sum and count, added over parts); pairs and games
            // are numbered within their job.
            let within_job = unit == "pair" || unit == "game";
            let mut unit_keys: Vec<String> = p.group_by.to_vec();
            unit_keys.extend(["__unit_job".to_string(), "__unit".to_string()]);
            let units = records.with_columns(&[
                records.key(unit).alias("__unit"),
                if within_job {
                    records.key("job")
                } else {
                    lit("")
                }
                .alias("__unit_job"),
            ])?;
            // Each unit's mean: its sum over its count, or, weighted, the sum of value x weight
            // over the sum of the weights.
            let aggs = match p.weighted_by {
                None => vec![
                    finite().sum().alias("sum"),
                    finite().count().cast(DataType::Float64).alias("count"),
                ],
                Some(w) => {
                    let weight = || col(w).cast(DataType::Float64);
                    let both = || value().is_finite().and(weight().is_finite());
                    vec![
                        (value() * weight()).filter(both()).sum().alias("sum"),
                        weight().filter(both()).sum().alias("count"),
                    ]
                }
            };
            let (names, sums) = summed(&units, &unit_keys, filter, aggs)?;
            let g = p.group_by.len();
            for (k, v) in sums {
                let (sum, count) = (
                    self::value(&names, &v, "sum"),
                    self::value(&names, &v, "count"),
                );
                if count == 0.0 {
                    continue;
                }
                let unit_id = if within_job {
                    format!("{}/{}", k[g], k[g + 1])
                } else {
                    k[g + 1].clone()
                };
                by_unit
                    .entry(k[..g].to_vec())
                    .or_default()
                    .insert(unit_id, settled(sum / count));
            }
            if let (true, Some((c, base_value))) = (p.paired, baseline_at) {
                keep_shared_units(&mut by_unit, c, base_value);
            }
            for (keys, means) in &by_unit {
                values.insert(keys.clone(), means.values().copied().collect());
            }
        }
    }
    for (keys, xs) in &values {
        moments.insert(keys.clone(), Moments::of(xs));
    }
    for (keys, m) in &moments {
        let interval = match (values.get(keys), p.method) {
            (_, MeanInterval::T) => mean_interval_of(*m, p.level),
            (Some(xs), MeanInterval::Bootstrap) if xs.len() > 1 => {
                bootstrap(xs, mean, p.bootstrap, p.level, p.seed)
            }
            _ => None,
        };
        let value = interval.unwrap_or(Estimate {
            value: m.mean,
            lo: f64::NAN,
            hi: f64::NAN,
        });
        t.rows.push(TableRow {
            keys: keys.clone(),
            n: m.n,
            value,
            before: vec![],
            after: vec![fixed(m.variance.sqrt(), 2)],
            change: None,
            sd: Some(m.variance.sqrt()).filter(|s| s.is_finite()),
        });
    }
    if let (Some((column, _)), Some((c, base_value))) = (&p.baseline, baseline_at) {
        let test = if p.paired { "paired t" } else { "Welch" };
        t.after_names.extend([
            format!("Δ vs {column} = {base_value}"),
            "Δ %".into(),
            format!("{test} {} CI", level_text(p.level)),
            format!("p ({test})"),
        ]);
        for r in &mut t.rows {
            let mut base_keys = r.keys.clone();
            base_keys[c] = base_value.to_string();
            let comparison = if base_keys == r.keys {
                None
            } else if p.paired {
                // Over the units both groups have, in unit order.
                by_unit
                    .get(&r.keys)
                    .zip(by_unit.get(&base_keys))
                    .and_then(|(a, b)| {
                        let (xs, ys): (Vec<f64>, Vec<f64>) = a
                            .iter()
                            .filter_map(|(u, x)| b.get(u).map(|y| (*x, *y)))
                            .unzip();
                        paired(&xs, &ys, p.level).map(|test| (test, mean(&ys)))
                    })
            } else {
                moments.get(&base_keys).and_then(|b| {
                    welch_of(moments[&r.keys], *b, p.level).map(|test| (test, b.mean))
                })
            };
            match comparison {
                Some((w, base_mean)) => {
                    let percent = |x: f64| 100.0 * x / base_mean;
                    r.change = Some(Estimate {
                        value: percent(w.difference.value),
                        lo: percent(w.difference.lo),
                        hi: percent(w.difference.hi),
                    });
                    r.after.extend([
                        fixed(w.difference.value, 2),
                        fixed(percent(w.difference.value), 1),
                        format!(
                            "{} to {}",
                            fixed(w.difference.lo, 2),
                            fixed(w.difference.hi, 2)
                        ),
                        p_text(w.p),
                    ]);
                }
                None => r
                    .after
                    .extend(["–".into(), "–".into(), "–".into(), "–".into()]),
            }
        }
    }
    sort_rows(&mut t.rows, None);
    Ok(t)
}

/// A paired table's samples cut to the units every group of a comparison has: the baseline's
/// group and the groups compared with it (those that differ from it in the baseline column
/// only). A filter can drop a unit from one group and not another (`budget_hit = 0`: the
/// questions each weight vector solved), and the paired test reads only the units both have;
/// cut alike, each row's n and mean are over the same units as its difference, so the columns
/// agree (the difference of two rows' means is their Δ) and the table reads as "the questions
/// all of them solve". A comparison whose groups share no unit is left as it is (its rows get
/// no Δ).
fn keep_shared_units(
    by_unit: &mut BTreeMap<Vec<String>, BTreeMap<String, f64>>,
    c: usize,
    base_value: &str,
) {
    let mut comparisons: BTreeMap<Vec<String>, Vec<Vec<String>>> = BTreeMap::new();
    for keys in by_unit.keys() {
        let mut base_keys = keys.clone();
        base_keys[c] = base_value.to_string();
        comparisons.entry(base_keys).or_default().push(keys.clone());
    }
    for (base_keys, groups) in comparisons {
        if groups.len() < 2 || !by_unit.contains_key(&base_keys) {
            continue;
        }
        let shared: Vec<String> = by_unit[&base_keys]
            .keys()
            .filter(|u| groups.iter().all(|g| by_unit[g].contains_key(*u)))
            .cloned()
            .collect();
        if shared.is_empty() {
            continue;
        }
        for g in &groups {
            by_unit
                .get_mut(g)
                .expect("a group of by_unit")
                .retain(|u, _| shared.binary_search(u).is_ok());
        }
    }
}

/// Two samples' moments as one (Chan, Golub and LeVeque's pairwise update of the mean and the
/// sum of squared deviations).
fn merge_moments(a: Moments, b: Moments) -> Moments {
    let n = a.n + b.n;
    let delta = b.mean - a.mean;
    let mean = a.mean + delta * b.n as f64 / n as f64;
    let m2 = a.variance * (a.n as f64 - 1.0).max(0.0)
        + b.variance * (b.n as f64 - 1.0).max(0.0)
        + delta * delta * a.n as f64 * b.n as f64 / n as f64;
    Moments {
        n,
        mean,
        variance: if n > 1 { m2 / (n as f64 - 1.0) } else { 0.0 },
    }
}

/// A sum polars computed over many records, to 12 significant digits. Its threads add the
/// records in whatever order they meet them, so the last bits of a float sum differ between
/// runs on the same rows; rounded, a rerun prints the same numbers (a rounding boundary between
/// two runs' sums is possible, about once in 10^4 values, and moves the 12th digit only).
/// Counts and sums of results (multiples of one half) are exact and need no rounding.
fn settled(x: f64) -> f64 {
    if x.is_finite() && x != 0.0 {
        format!("{x:.11e}").parse().unwrap_or(x)
    } else {
        x
    }
}

#[cfg(test)]
mod tests;
