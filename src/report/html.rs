//! `report.html`: the report as one self-contained page (nothing fetched at view time): the
//! same sections as report.md (settings, every table, the published-and-measured verdicts, the
//! figures), with sortable tables, the figures inlined as SVG, and a game viewer that steps
//! through any game the page holds on a drawn board (Othello, Colosseum, Freckers), or a
//! life-and-death problem along the solver's main line.
//!
//! The page is made from report.md itself, by a converter for the Markdown the report writes
//! (headings, paragraphs, lists, pipe tables, images, inline code and bold), so the two never
//! say different things. The viewer's games are replayed here by the engines (the positions
//! come from `game_records`, as `gamelab replay` prints them) and travel as position texts and
//! their changes; the page's script only applies changes and draws.

use crate::game_records::ViewerGame;
use anyhow::Result;
use std::fmt::Write as _;
use std::path::Path;

/// How many bytes of games the viewer embeds at most (about 5 MB of page).
pub const VIEWER_BUDGET: usize = 4_000_000;

/// Escapes text for HTML.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Inline Markdown: `code`, **bold**, escaped text.
fn inline(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in s.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", escape(part));
        } else {
            for (j, b) in escape(part).split("**").enumerate() {
                if j % 2 == 1 {
                    let _ = write!(out, "<strong>{b}</strong>");
                } else {
                    out += b;
                }
            }
        }
    }
    out
}

/// The cells of a pipe-table line.
fn cells(line: &str) -> Vec<String> {
    let t = line.trim().trim_start_matches('|').trim_end_matches('|');
    t.split('|').map(|c| c.trim().to_string()).collect()
}

/// An image line `![alt](figures/NAME.png)`: the figure's SVG from `figures`, inlined (its XML
/// prolog dropped), or an `<img>` of the PNG when the SVG is not there.
fn figure(alt: &str, target: &str, report_dir: &Path) -> String {
    let svg_path = report_dir.join(target).with_extension("svg");
    match std::fs::read_to_string(&svg_path) {
        Ok(svg) => {
            let body = svg.find("<svg").map_or(svg.as_str(), |i| &svg[i..]);
            format!(
                "<figure class=\"figure\" data-name=\"{}\">{body}<figcaption>{}</figcaption></figure>\n",
                escape(alt),
                escape(alt)
            )
        }
        Err(_) => format!(
            "<figure class=\"figure\"><img alt=\"{0}\" src=\"{1}\"><figcaption>{0}</figcaption></figure>\n",
            escape(alt),
            escape(target)
        ),
    }
}

/// The HTML of report.md's Markdown.
pub fn markdown_to_html(md: &str, report_dir: &Path) -> String {
    let mut html = String::new();
    let lines: Vec<&str> = md.lines().collect();
    let mut i = 0;
    let mut paragraph: Vec<&str> = Vec::new();
    let flush = |paragraph: &mut Vec<&str>, html: &mut String| {
        if !paragraph.is_empty() {
            let _ = writeln!(html, "<p>{}</p>", inline(&paragraph.join(" ")));
            paragraph.clear();
        }
    };
    while i < lines.len() {
        let line = lines[i];
        let t = line.trim();
        if t.is_empty() {
            flush(&mut paragraph, &mut html);
            i += 1;
        } else if let Some(level) = (1..=4).find(|n| t.starts_with(&format!("{} ", "#".repeat(*n))))
        {
            flush(&mut paragraph, &mut html);
            let text = &t[level + 1..];
            let id: String = text
                .to_lowercase()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect();
            let _ = writeln!(
                html,
                "<h{level} id=\"{}\">{}</h{level}>",
                id.trim_matches('-'),
                inline(text)
            );
            i += 1;
        } else if t.starts_with("```") {
            flush(&mut paragraph, &mut html);
            let mut j = i + 1;
            let mut code = String::new();
            while j < lines.len() && !lines[j].trim().starts_with("```") {
                code += lines[j];
                code.push('\n');
                j += 1;
            }
            let _ = writeln!(html, "<pre>{}</pre>", escape(&code));
            i = j + 1;
        } else if t.starts_with('|')
            && lines.get(i + 1).is_some_and(|n| {
                n.trim().starts_with("|---")
                    || n.trim().starts_with("|:--")
                    || n.trim().starts_with("| ---")
            })
        {
            flush(&mut paragraph, &mut html);
            let header = cells(t);
            let aligns: Vec<bool> = cells(lines[i + 1])
                .iter()
                .map(|c| c.ends_with(':'))
                .collect();
            html += "<div class=\"table\"><table class=\"sortable\">\n<thead><tr>";
            for (k, h) in header.iter().enumerate() {
                let class = if aligns.get(k).copied().unwrap_or(false) {
                    " class=\"num\""
                } else {
                    ""
                };
                let _ = write!(html, "<th{class} title=\"sort\">{}</th>", inline(h));
            }
            html += "</tr></thead>\n<tbody>\n";
            let mut j = i + 2;
            while j < lines.len() && lines[j].trim().starts_with('|') {
                html += "<tr>";
                for (k, c) in cells(lines[j]).iter().enumerate() {
                    let class = if aligns.get(k).copied().unwrap_or(false) {
                        " class=\"num\""
                    } else {
                        ""
                    };
                    let _ = write!(html, "<td{class}>{}</td>", inline(c));
                }
                html += "</tr>\n";
                j += 1;
            }
            html += "</tbody></table></div>\n";
            i = j;
        } else if t.starts_with("- ") {
            flush(&mut paragraph, &mut html);
            html += "<ul>\n";
            let mut j = i;
            while j < lines.len() && lines[j].trim().starts_with("- ") {
                let _ = writeln!(html, "<li>{}</li>", inline(&lines[j].trim()[2..]));
                j += 1;
            }
            html += "</ul>\n";
            i = j;
        } else if let Some(rest) = t.strip_prefix("![") {
            flush(&mut paragraph, &mut html);
            if let Some((alt, target)) = rest.split_once("](") {
                html += &figure(alt, target.trim_end_matches(')'), report_dir);
            }
            i += 1;
        } else {
            paragraph.push(t);
            i += 1;
        }
    }
    flush(&mut paragraph, &mut html);
    html
}

/// The games as the viewer's script reads them (JSON in a script element; `</` escaped).
fn games_json(games: &[ViewerGame]) -> Result<String> {
    Ok(serde_json::to_string(games)?.replace("</", "<\\/"))
}

/// The whole page: `title`, report.md's content, and the viewer over `games` (of `total` games
/// in the rows) when there are any.
pub fn page(
    title: &str,
    md: &str,
    report_dir: &Path,
    games: &[ViewerGame],
    total: usize,
) -> Result<String> {
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n<main>\n",
        escape(title),
        STYLE
    );
    html += &markdown_to_html(md, report_dir);
    if !games.is_empty() {
        let problems = games[0].kind == "tsumego";
        let held = match (problems, games.len() == total) {
            (false, true) => format!("All {total} games of the rows are here."),
            (false, false) => format!(
                "{} of the {total} games are here (the first games of every job, in turn); `gamelab replay FILE --job JOB --game N` prints any game.",
                games.len()
            ),
            (true, _) => format!(
                "{} of the {total} solved problems of the first job are here, each with the solver's main line with its weights (the first problems of each weight vector); `gamelab games FILE` writes every main line as SGF.",
                games.len()
            ),
        };
        let _ = write!(
            html,
            "<h2 id=\"games\">{}</h2>\n<p>{}</p>\n<div id=\"viewer\">\n<div class=\"controls\"><select id=\"game\"></select>\n<button id=\"first\" title=\"start (Home)\">|&#x25C0;</button><button id=\"prev\" title=\"back (&larr;)\">&#x25C0;</button><button id=\"next\" title=\"forward (&rarr;)\">&#x25B6;</button><button id=\"last\" title=\"end (End)\">&#x25B6;|</button>\n<input id=\"ply\" type=\"range\" min=\"0\" max=\"0\" value=\"0\"> <span id=\"status\"></span></div>\n<div class=\"stage\"><div id=\"board\"></div><ol id=\"moves\"></ol></div>\n<p id=\"result\"></p>\n<details><summary>position as text</summary><pre id=\"position\"></pre></details>\n</div>\n<script type=\"application/json\" id=\"games-data\">{}</script>\n",
            if problems { "Problems" } else { "Games" },
            inline(&held),
            games_json(games)?
        );
    }
    let _ = write!(
        html,
        "</main>\n<script>{}</script>\n</body>\n</html>\n",
        SCRIPT
    );
    Ok(html)
}

const STYLE: &str = r#"
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; margin: 0; color: #222; background: #fff; }
main { max-width: 1100px; margin: 0 auto; padding: 1em 2em 4em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; margin-top: 2em; border-bottom: 1px solid #ddd; } h3 { font-size: 1.1em; }
code { background: #f4f4f4; padding: 0 .2em; font-size: .92em; }
.table { overflow-x: auto; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: .9em; }
th, td { border-bottom: 1px solid #e4e4e4; padding: .25em .6em; text-align: left; white-space: nowrap; }
th { cursor: pointer; background: #f7f7f7; user-select: none; }
th.sorted-asc::after { content: " \25B2"; } th.sorted-desc::after { content: " \25BC"; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; } figcaption { color: #666; font-size: .85em; }
#viewer .controls { display: flex; gap: .4em; align-items: center; flex-wrap: wrap; }
#viewer select { max-width: 100%; }
#viewer .stage { display: flex; gap: 1.5em; align-items: flex-start; margin-top: .8em; }
#board svg { width: 420px; height: 420px; }
#moves { max-height: 420px; overflow-y: auto; margin: 0; padding-left: 3em; font-size: .9em; min-width: 14em; }
#moves li.current { background: #ffe9a8; }
#moves li { cursor: pointer; }
pre { background: #f7f7f7; padding: .6em; overflow-x: auto; }
"#;

const SCRIPT: &str = include_str!("../../assets/report/viewer.js");
