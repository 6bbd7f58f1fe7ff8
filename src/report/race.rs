//! The report's "Race" section of a file with a `[race]` (`experiment::race`): the race
//! recomputed from the rows, a table of its points and a figure of their scores round by round.

use crate::experiment::Job;
use crate::experiment::race;
use crate::experiment::spec::Experiment;
use crate::stats::means::{mean, mean_interval};
use anyhow::Result;
use std::path::Path;

/// The report's race section: a table of the points (blocks played, score with its interval
/// over blocks, the round it was dropped in and its adjusted p), and a figure of each point's
/// score with its interval round by round. Markdown text; the figure is written to `figures`.
pub fn report_section(
    exp: &Experiment,
    jobs: &[Job],
    out: &Path,
    figures: &Path,
    level: f64,
) -> Result<(String, Vec<std::path::PathBuf>)> {
    let spec = race::spec_of(exp)?;
    let Some(first) = jobs.first() else {
        return Ok((String::new(), vec![]));
    };
    let (race, scores) = race::race_of(exp, jobs, out)?;
    let per = race::games_per_block(first);
    let full: usize = jobs.iter().map(Job::game_count).sum();
    let keys: Vec<&str> = first.swept.iter().map(|(k, _)| k.as_str()).collect();
    let played: usize = (0..jobs.len())
        .map(|p| race.blocks[p].min(scores[p].len()) * per)
        .sum();
    let mut md = format!(
        "## Race\n\nRaced: `{}`'s score (%) per grid point, in rounds of {} block(s) ({} games a block); from round {} on, a paired one-sided t-test on the blocks against the best point, Holm-adjusted across the points, drops a point at adjusted p < {}. {}. Games played: {} of the full sweep's {} ({:.0}%).\n\n| {} | blocks | score % | {:.0}% interval | dropped in round | adjusted p |\n|{}---:|---:|---|---:|---:|\n",
        race::raced_agent(spec, first),
        spec.blocks_per_round,
        per,
        spec.min_rounds,
        spec.level,
        match race.ended {
            Some(e) => format!("Ended: {}", race::ended_text(e, jobs, &race)),
            None => "Not ended: run the file again to go on".to_string(),
        },
        played,
        full,
        100.0 * played as f64 / full.max(1) as f64,
        keys.join(" | "),
        level * 100.0,
        "---|".repeat(keys.len()),
    );
    for (p, job) in jobs.iter().enumerate() {
        let have = &scores[p][..race.blocks[p].min(scores[p].len())];
        let interval = mean_interval(have, level);
        let (score, lo_hi) = match interval {
            // A score cannot leave 0..100: the t interval is shown clipped to it.
            Some(e) => (
                format!("{:.1}", 100.0 * e.value),
                format!(
                    "{:.1} .. {:.1}",
                    100.0 * e.lo.max(0.0),
                    100.0 * e.hi.min(1.0)
                ),
            ),
            None if !have.is_empty() => (format!("{:.1}", 100.0 * mean(have)), String::new()),
            None => (String::new(), String::new()),
        };
        let (round, q) = match race.dropped[p] {
            Some((r, q)) => (r.to_string(), format!("{q:.4}")),
            None => ("(in)".into(), String::new()),
        };
        md += &format!(
            "| {} | {} | {score} | {lo_hi} | {round} | {q} |\n",
            race::point_values(job).join(" | "),
            have.len()
        );
    }
    // Each point's score and interval over the blocks it had at each round it played.
    let series: Vec<(String, Vec<super::figure::curve::Point>)> = jobs
        .iter()
        .enumerate()
        .map(|(p, job)| {
            let points = race
                .rounds
                .iter()
                .filter(|r| r.racing.contains(&p))
                .filter_map(|r| {
                    let e = mean_interval(&scores[p][..r.blocks], level)?;
                    Some((
                        r.round as f64,
                        100.0 * e.value,
                        100.0 * e.lo.max(0.0),
                        100.0 * e.hi.min(1.0),
                    ))
                })
                .collect();
            (race::point_values(job).join(", "), points)
        })
        .collect();
    let mut fig = super::figure::curve::Curves::new(
        String::new(),
        "round".into(),
        format!("score of {} (%)", race::raced_agent(spec, first)),
        series,
        keys.iter()
            .map(|k| super::draw::readable(k))
            .collect::<Vec<_>>()
            .join(", "),
    );
    fig.hlines = vec![50.0];
    fig.y_range = Some((0.0, 100.0));
    let caption = format!(
        "The race: each point's score with its {:.0}% interval over the blocks played, round by round, until it was dropped",
        level * 100.0
    );
    let files = super::figure::write_figure(figures, "race", &fig)?;
    let drawn = super::draw::write_caption(figures, "race", &caption, files)?;
    md += &format!("\n![{caption}](figures/race.png)\n\n");
    Ok((md, drawn.files))
}
