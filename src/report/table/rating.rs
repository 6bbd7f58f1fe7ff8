//! Rating tables: Elo ratings with intervals from the games of a tournament (`elo = true`).

use super::*;

/// Bradley-Terry ratings of the agents, fitted separately for each combination of the other
/// group keys; each game counted once (from its first seat), bootstrap over games (counted per
/// agent, opponent and result, so ten million games cost what a thousand do). With a
/// `baseline` (`agent` = a label) the ratings are differences from that agent, intervals
/// included; without one they average 0.
pub(super) fn rating_table(records: &Records, p: &TableParams) -> Result<Table> {
    let anchor = match &p.baseline {
        Some((k, v)) if k == "agent" => Some(v.clone()),
        Some((k, _)) => {
            bail!("a rating table's `baseline` names an agent ({{ agent = \"...\" }}), not '{k}'")
        }
        None => None,
    };
    let value_name = match &anchor {
        Some(a) => format!("rating (Elo, {a} = 0)"),
        None => "rating (Elo, mean 0)".into(),
    };
    let mut t = base(
        p,
        "games",
        value_name,
        format!("{} CI (bootstrap)", level_text(p.level)),
    );
    t.decimals = 0;
    let agent_key = p
        .group_by
        .iter()
        .position(|k| k == "agent")
        .expect("checked: rating tables group by agent");
    let others: Vec<String> = p
        .group_by
        .iter()
        .filter(|k| *k != "agent")
        .cloned()
        .collect();
    let mut cell_keys = others.clone();
    cell_keys.extend([
        "agent".to_string(),
        "opponent".to_string(),
        "result".to_string(),
    ]);
    let mut filter = p.filter.to_vec();
    filter.push(("seat".into(), "first".into()));
    let (_, counts) = summed(
        records,
        &cell_keys,
        &filter,
        vec![len().cast(DataType::Float64).alias("n")],
    )?;
    // Per context: (agent, opponent, result, games).
    type Cells = Vec<(String, String, f64, u64)>;
    let mut contexts: BTreeMap<Vec<String>, Cells> = BTreeMap::new();
    let o = others.len();
    for (k, n) in counts {
        contexts.entry(k[..o].to_vec()).or_default().push((
            k[o].clone(),
            k[o + 1].clone(),
            k[o + 2].parse().unwrap_or(f64::NAN),
            n[0] as u64,
        ));
    }
    for (context, mut cells) in contexts {
        // In one order whatever order the query returned them in: the bootstrap draws by cell.
        cells.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)).then(a.2.total_cmp(&b.2)));
        let mut names: Vec<String> = cells
            .iter()
            .flat_map(|c| [c.0.clone(), c.1.clone()])
            .collect();
        names.sort();
        names.dedup();
        let index = |s: &str| {
            names
                .binary_search_by(|n| n.as_str().cmp(s))
                .expect("named above")
        };
        let games: Vec<(Game, u64)> = cells
            .iter()
            .map(|(a, b, r, k)| {
                (
                    Game {
                        a: index(a),
                        b: index(b),
                        result: *r,
                    },
                    *k,
                )
            })
            .collect();
        let seed = crate::rng::derive_seed(
            p.seed,
            &[
                context.len() as u64,
                xxhash_rust::xxh3::xxh3_64(context.join("\u{1f}").as_bytes()),
            ],
        );
        let anchor_index = match &anchor {
            Some(a) => Some(names.binary_search(a).map_err(|_| {
                anyhow::anyhow!(
                    "the baseline agent '{a}' has no games{} (agents: {})",
                    if context.is_empty() {
                        String::new()
                    } else {
                        format!(" at {}", context.join(", "))
                    },
                    names.join(", ")
                )
            })?),
            None => None,
        };
        let ratings = bradley_terry_anchored(
            names.len(),
            &games,
            anchor_index,
            p.bootstrap,
            p.level,
            seed,
        );
        for (a, name) in names.iter().enumerate() {
            let played: u64 = games
                .iter()
                .filter(|(g, _)| g.a == a || g.b == a)
                .map(|(_, k)| k)
                .sum();
            let mut keys = context.clone();
            keys.insert(agent_key, name.clone());
            t.rows.push(TableRow {
                keys,
                n: played,
                value: ratings[a],
                before: vec![],
                after: vec![],
                change: None,
                sd: None,
            });
        }
    }
    sort_rows(&mut t.rows, Some(agent_key));
    Ok(t)
}
