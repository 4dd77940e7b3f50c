//! Rendering a [`Report`] as a text table, Markdown, JSON or CSV.

use std::fmt::Write;

use comfy_table::presets::{ASCII_MARKDOWN, NOTHING};
use comfy_table::{CellAlignment, ContentArrangement, Table};

use crate::stats::{ContestOutcome, Report, SettingReport};

/// The output formats of `clue tournament report`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Table,
    Markdown,
    Json,
    Csv,
}

pub fn render(report: &Report, format: Format) -> String {
    match format {
        Format::Json => serde_json::to_string_pretty(report).unwrap_or_default() + "\n",
        Format::Csv => csv(report),
        Format::Table | Format::Markdown => {
            let md = format == Format::Markdown;
            let mut out = String::new();
            // One setting: its section is the total; a sweep: each, then the total.
            let sections: Vec<&SettingReport> = if report.settings.len() > 1 {
                report.settings.iter().chain([&report.total]).collect()
            } else {
                vec![&report.total]
            };
            for s in sections {
                section(&mut out, s, md);
            }
            contest_section(&mut out, report, md);
            out
        }
    }
}

/// The standings alone, as printed while a tournament runs.
pub fn standings_table(s: &SettingReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "standings after {} games:", s.games);
    out.push_str(&grid(&standings_rows(s), false));
    if !s.disqualifications.is_empty() {
        let _ = writeln!(out, "disqualifications:");
        out.push_str(&disqualifications_table(&s.disqualifications, false));
    }
    out
}

/// How much of the first disqualification's detail a table shows (the
/// store keeps it whole).
const DETAIL_CHARS: usize = 240;

/// Each bot's disqualifications by reason, with the first game where it
/// happened and what happened there (the line it sent, how it ended, the
/// end of its stderr), so that an entrant that loses every game is seen
/// with why.
fn disqualifications_table(dq: &[crate::stats::DqCount], md: bool) -> String {
    let mut rows = vec![vec![
        "bot".into(),
        "reason".into(),
        "count".into(),
        "first".into(),
    ]];
    for d in dq {
        // A bot's own words (the line it sent, its stderr): no terminal
        // escapes or direction overrides reach the reader's screen.
        let said = crate::account::printable(&d.first_detail);
        let mut detail: String = said.chars().take(DETAIL_CHARS).collect();
        if said.chars().count() > DETAIL_CHARS {
            detail.push_str("...");
        }
        let first = if detail.is_empty() {
            format!("game {}", d.first_game)
        } else {
            format!("game {}: {detail}", d.first_game)
        };
        rows.push(vec![
            d.bot.clone(),
            d.reason.clone(),
            d.count.to_string(),
            first,
        ]);
    }
    if md {
        return grid(&rows, md);
    }
    // The last column, long and ragged, is written after the aligned ones.
    let firsts: Vec<String> = rows.iter_mut().filter_map(Vec::pop).collect();
    grid(&rows, md)
        .lines()
        .zip(firsts)
        .map(|(line, first)| format!("{line}  {first}\n"))
        .collect()
}

fn section(out: &mut String, s: &SettingReport, md: bool) {
    let title = |out: &mut String, t: &str| {
        if md {
            let _ = writeln!(out, "\n### {t}\n");
        } else {
            let _ = writeln!(out, "\n{t}");
        }
    };
    if md {
        let _ = writeln!(out, "## {}: {} games, {} draws", s.label, s.games, s.draws);
    } else {
        let _ = writeln!(out, "== {}: {} games, {} draws", s.label, s.games, s.draws);
    }
    title(out, "standings");
    out.push_str(&grid(&standings_rows(s), md));

    title(out, "win rate by seat");
    let mut rows = vec![vec![
        "seat".into(),
        "games".into(),
        "wins".into(),
        "win rate".into(),
    ]];
    for seat in &s.seats {
        rows.push(vec![
            seat.seat.to_string(),
            seat.games.to_string(),
            seat.wins.to_string(),
            pct(seat.win_rate),
        ]);
    }
    out.push_str(&grid(&rows, md));

    title(out, "disqualifications");
    if s.disqualifications.is_empty() {
        let _ = writeln!(out, "none");
    } else {
        out.push_str(&disqualifications_table(&s.disqualifications, md));
    }

    title(
        out,
        "head to head (row ranked above column / games together)",
    );
    let h = &s.head_to_head;
    let mut rows = vec![
        std::iter::once(String::new())
            .chain(h.bots.iter().cloned())
            .collect(),
    ];
    for (a, name) in h.bots.iter().enumerate() {
        let mut row = vec![name.clone()];
        for b in 0..h.bots.len() {
            row.push(if a == b {
                "-".into()
            } else {
                format!("{}/{}", h.ahead[a][b], h.shared[a][b])
            });
        }
        rows.push(row);
    }
    out.push_str(&grid(&rows, md));
    if md {
        out.push('\n');
    }
    out.push_str(
        "a game's winner ranks above the other seats, which share the last rank\n\
         (generalized: right guesses in their order, then wrong ones; a draw: none above)\n\n",
    );
}

/// Our wins beside the 2014 Speed Clue contest's count of the same games;
/// nothing without a `speedclue` game.
fn contest_section(out: &mut String, report: &Report, md: bool) {
    if report.contest.is_empty() {
        return;
    }
    let title = "the 2014 Speed Clue contest's count (a bot disqualified once is out, \
                 and no game it sat in counts)";
    if md {
        let _ = writeln!(out, "### {title}\n");
    } else {
        let _ = writeln!(out, "{title}");
    }
    let mut rows = vec![
        [
            "bot",
            "games",
            "wins",
            "win rate",
            "contest games",
            "contest wins",
            "contest win rate",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for c in &report.contest {
        let mut row = vec![
            c.bot.clone(),
            c.games.to_string(),
            c.wins.to_string(),
            pct(rate(c.wins, c.games)),
        ];
        match &c.contest {
            ContestOutcome::Counted { games, wins } => row.extend([
                games.to_string(),
                wins.to_string(),
                pct(rate(*wins, *games)),
            ]),
            ContestOutcome::Disqualified { reason, game } => row.extend([
                "-".into(),
                "-".into(),
                format!("disqualified - {reason} (game {game})"),
            ]),
        }
        rows.push(row);
    }
    out.push_str(&grid(&rows, md));
    out.push('\n');
}

fn rate(wins: u32, games: u32) -> f64 {
    if games == 0 {
        0.0
    } else {
        f64::from(wins) / f64::from(games)
    }
}

fn standings_rows(s: &SettingReport) -> Vec<Vec<String>> {
    let mut rows = vec![
        [
            "bot",
            "games",
            "wins",
            "win rate",
            "95% CI",
            "rating",
            "DQ",
            "turns/win",
            "ms/call",
            "max ms",
            "fuel/call",
            "max fuel",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for st in &s.standings {
        rows.push(vec![
            st.bot.clone(),
            st.games.to_string(),
            st.wins.to_string(),
            pct(st.win_rate),
            format!("{}-{}", pct(st.wilson_low), pct(st.wilson_high)),
            format!("{:.1} ± {:.1}", st.rating, st.uncertainty),
            st.disqualified.to_string(),
            opt(st.mean_turns_to_win, 1),
            opt(st.mean_call_us.map(|u| u / 1000.0), 3),
            opt(st.max_call_us.map(|u| u / 1000.0), 3),
            opt(st.mean_fuel_per_call, 0),
            st.max_fuel_per_call
                .map_or("-".to_string(), |f| f.to_string()),
        ]);
    }
    rows
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "-".into(), |x| format!("{x:.digits$}"))
}

/// Aligned columns (first column left, the rest right, two spaces between),
/// or a Markdown table. The first row is the header.
fn grid(rows: &[Vec<String>], md: bool) -> String {
    let Some((header, body)) = rows.split_first() else {
        return String::new();
    };
    // In Markdown a `|` in a cell (a bot's name, the line it sent) would
    // end the cell: it is escaped.
    let cell = |text: &String| {
        if md {
            text.replace('|', "\\|")
        } else {
            text.clone()
        }
    };
    let mut table = Table::new();
    table
        .load_preset(if md { ASCII_MARKDOWN } else { NOTHING })
        .set_content_arrangement(ContentArrangement::Disabled)
        .set_header(header.iter().map(cell))
        .add_rows(body.iter().map(|row| row.iter().map(cell)));
    let last = table.column_count().saturating_sub(1);
    for (c, column) in table.column_iter_mut().enumerate() {
        if c > 0 {
            column.set_cell_alignment(CellAlignment::Right);
        }
        if !md {
            column.set_padding((0, if c == last { 0 } else { 2 }));
        }
    }
    let mut out = table.trim_fmt();
    out.push('\n');
    out
}

fn csv(report: &Report) -> String {
    let mut out = csv::Writer::from_writer(Vec::new());
    let header = [
        "setting",
        "bot",
        "games",
        "wins",
        "win_rate",
        "wilson_low",
        "wilson_high",
        "rating",
        "uncertainty",
        "disqualified",
        "mean_turns_to_win",
        "calls",
        "mean_call_us",
        "max_call_us",
        "mean_fuel_per_call",
        "max_fuel_per_game",
        "max_fuel_per_call",
    ];
    let f = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:.6}"));
    let n = |x: Option<u64>| x.map_or(String::new(), |x| x.to_string());
    // Writing to a `Vec` cannot fail.
    let _ = out.write_record(header);
    for s in report.settings.iter().chain([&report.total]) {
        for st in &s.standings {
            let _ = out.write_record([
                s.label.clone(),
                st.bot.clone(),
                st.games.to_string(),
                st.wins.to_string(),
                format!("{:.6}", st.win_rate),
                format!("{:.6}", st.wilson_low),
                format!("{:.6}", st.wilson_high),
                format!("{:.6}", st.rating),
                format!("{:.6}", st.uncertainty),
                st.disqualified.to_string(),
                f(st.mean_turns_to_win),
                st.calls.to_string(),
                f(st.mean_call_us),
                f(st.max_call_us),
                f(st.mean_fuel_per_call),
                n(st.max_fuel_per_game),
                n(st.max_fuel_per_call),
            ]);
        }
    }
    String::from_utf8(out.into_inner().unwrap_or_default()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::DqCount;

    fn dq(bot: &str, detail: &str) -> DqCount {
        DqCount {
            bot: bot.into(),
            reason: "protocol-error".into(),
            count: 3,
            first_game: 7,
            first_detail: detail.into(),
        }
    }

    #[test]
    fn a_disqualification_shows_its_first_game_and_a_safe_clipped_detail() {
        let text = disqualifications_table(
            &[
                dq("evil", "sent `\u{1b}[2J|x`"),
                dq("long", &"y".repeat(500)),
            ],
            false,
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "bot           reason  count  first");
        assert_eq!(
            lines[1], "evil  protocol-error      3  game 7: sent `\\u{1b}[2J|x`",
            "the escape is shown, not sent to the terminal"
        );
        assert!(lines[2].ends_with(&format!("game 7: {}...", "y".repeat(240))));
        let md = disqualifications_table(&[dq("evil", "a|b")], true);
        assert!(md.contains("game 7: a\\|b"), "{md}");
    }
}
