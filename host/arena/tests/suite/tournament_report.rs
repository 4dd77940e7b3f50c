//! The report's figures against a small tournament worked out by hand.
//!
//! Bots A, B and C play four three-seat games:
//!
//! | game | seat 0 | seat 1 | seat 2 | result                          |
//! | ---- | ------ | ------ | ------ | ------------------------------- |
//! | 0    | A      | B      | C      | A wins (5 turns)                |
//! | 1    | B      | C      | A      | C wins; A out on `timeout`      |
//! | 2    | C      | A      | B      | A wins (7 turns)                |
//! | 3    | A      | C      | B      | draw; B out on `invalid-response` |

use clue_arena::report::{self, Format};
use clue_arena::stats::{self, wilson};
use clue_arena::store::{GameRow, SeatRow};

fn seat(seat: u8, bot: &str, rank: u8, outcome: &str, dq: Option<&str>, turns: u32) -> SeatRow {
    SeatRow {
        seat,
        bot: Some(bot.into()),
        outcome: outcome.into(),
        dq_reason: dq.map(Into::into),
        detail: dq.map(|d| format!("{d} detail")),
        rank,
        turns,
        // A: 10 calls and 1 ms a game; B and C: 20 calls and 2 ms.
        calls: if bot == "A" { 10 } else { 20 },
        wall_ns: if bot == "A" { 1_000_000 } else { 2_000_000 },
        max_call_ns: 200_000,
        fuel: (bot == "C").then_some(1000),
        max_call_fuel: (bot == "C").then_some(400),
    }
}

fn games() -> Vec<GameRow> {
    let game = |index: u64, winner: Option<u8>, seats: Vec<SeatRow>| GameRow {
        index,
        setting: 0,
        seed: index,
        variant: "csci306".into(),
        winner,
        rounds: 9,
        seats,
    };
    let mut g = vec![
        game(
            0,
            Some(0),
            vec![
                seat(0, "A", 1, "won", None, 5),
                seat(1, "B", 2, "lost", None, 4),
                seat(2, "C", 2, "lost", None, 4),
            ],
        ),
        game(
            1,
            Some(1),
            vec![
                seat(0, "B", 2, "lost", None, 3),
                seat(1, "C", 1, "won", None, 3),
                seat(2, "A", 2, "disqualified", Some("timeout"), 1),
            ],
        ),
        game(
            2,
            Some(1),
            vec![
                seat(0, "C", 2, "lost", None, 7),
                seat(1, "A", 1, "won", None, 7),
                seat(2, "B", 2, "lost", None, 6),
            ],
        ),
        game(
            3,
            None,
            vec![
                seat(0, "A", 1, "lost", None, 200),
                seat(1, "C", 1, "lost", None, 200),
                seat(2, "B", 1, "disqualified", Some("invalid-response"), 2),
            ],
        ),
    ];
    g[2].seats[1].max_call_ns = 300_000;
    g[3].seats[1].fuel = Some(2000);
    g
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-3
}

#[test]
fn standings_seats_disqualifications_and_head_to_head_match_the_hand_count() {
    let bots = ["A", "B", "C"].map(String::from).to_vec();
    let report = stats::compute(&bots, &["default".into()], &games());
    let t = &report.total;
    assert_eq!((t.games, t.draws), (4, 1));
    assert_eq!(report.settings[0].standings, report.total.standings);

    let a = t.standings.iter().find(|s| s.bot == "A").unwrap();
    let b = t.standings.iter().find(|s| s.bot == "B").unwrap();
    let c = t.standings.iter().find(|s| s.bot == "C").unwrap();
    // Order: win rate first.
    assert_eq!(
        t.standings
            .iter()
            .map(|s| s.bot.as_str())
            .collect::<Vec<_>>(),
        ["A", "C", "B"]
    );
    assert_eq!((a.games, a.wins, a.disqualified), (4, 2, 1));
    assert_eq!((b.games, b.wins, b.disqualified), (4, 0, 1));
    assert_eq!((c.games, c.wins, c.disqualified), (4, 1, 0));
    assert!(close(a.win_rate, 0.5) && close(c.win_rate, 0.25) && close(b.win_rate, 0.0));
    // Wilson 95%, worked out by hand: p = 2/4 -> 15.0%..85.0%; 1/4 -> 4.6%..69.9%; 0/4 -> 0..49.0%.
    assert!(close(a.wilson_low, 0.1500) && close(a.wilson_high, 0.8500));
    assert!(close(c.wilson_low, 0.0456) && close(c.wilson_high, 0.6994));
    assert!(close(b.wilson_low, 0.0) && close(b.wilson_high, 0.4899));
    assert_eq!(wilson(0, 0), (0.0, 1.0));
    // Turns to win: A won in 5 and 7 turns; C in 3.
    assert_eq!(a.mean_turns_to_win, Some(6.0));
    assert_eq!(c.mean_turns_to_win, Some(3.0));
    assert_eq!(b.mean_turns_to_win, None);
    // Time: A made 40 calls in 4 ms: 100 us each; its slowest call 300 us.
    assert_eq!(a.calls, 40);
    assert!(close(a.mean_call_us.unwrap(), 100.0));
    assert!(close(a.max_call_us.unwrap(), 300.0));
    // Fuel: C used 1000 + 1000 + 1000 + 2000 in 80 calls; A and B report none.
    assert!(close(c.mean_fuel_per_call.unwrap(), 62.5));
    assert_eq!(c.max_fuel_per_game, Some(2000));
    assert_eq!(
        c.max_fuel_per_call,
        Some(400),
        "the most fuel one call used"
    );
    assert_eq!(a.max_fuel_per_call, None);
    assert_eq!(a.mean_fuel_per_call, None);
    // The rating: the best record rates highest, and uncertainty shrinks from 25/3.
    assert!(a.rating > c.rating && c.rating > b.rating);
    assert!(a.uncertainty < 25.0 / 3.0);

    // Seats: seat 0 won game 0; seat 1 games 1 and 2; seat 2 never.
    let seats: Vec<(u8, u32, u32)> = t.seats.iter().map(|s| (s.seat, s.games, s.wins)).collect();
    assert_eq!(seats, [(0, 4, 1), (1, 4, 2), (2, 4, 0)]);

    let dq: Vec<(&str, &str, u32)> = t
        .disqualifications
        .iter()
        .map(|d| (d.bot.as_str(), d.reason.as_str(), d.count))
        .collect();
    assert_eq!(dq, [("A", "timeout", 1), ("B", "invalid-response", 1)]);

    // Head to head, rows ahead of columns: A beat B in games 0 and 2 and C in
    // games 0 and 2; C beat A and B in game 1; the draw puts nobody ahead.
    let h = &t.head_to_head;
    assert_eq!(h.ahead, vec![vec![0, 2, 2], vec![0, 0, 0], vec![1, 1, 0]]);
    assert_eq!(h.shared, vec![vec![0, 4, 4], vec![4, 0, 4], vec![4, 4, 0]]);
}

#[test]
fn every_format_carries_the_figures() {
    let bots = ["A", "B", "C"].map(String::from).to_vec();
    let report = stats::compute(&bots, &["default".into()], &games());
    let table = report::render(&report, Format::Table);
    assert!(
        table.contains("50.0%") && table.contains("15.0%-85.0%"),
        "{table}"
    );
    assert!(table.contains("timeout"), "{table}");
    // The head-to-head table says what "above" means: outside
    // `generalized`, a win, since the others share the last rank.
    let said = "head to head (row ranked above column / games together)";
    let note = "a game's winner ranks above the other seats, which share the last rank";
    let after = &table[table.find(said).expect(said)..];
    assert!(after.contains(note), "{table}");
    let md = report::render(&report, Format::Markdown);
    assert!(md.contains("| A ") && md.contains("2/4"), "{md}");
    assert!(md.contains(&format!("|\n\n{note}")), "{md}");
    let json: serde_json::Value =
        serde_json::from_str(&report::render(&report, Format::Json)).unwrap();
    assert_eq!(json["total"]["standings"][0]["wins"], 2);
    let csv = report::render(&report, Format::Csv);
    let line = csv.lines().find(|l| l.starts_with("total,A,")).unwrap();
    assert!(
        line.starts_with("total,A,4,2,0.500000,0.150039,0.849961,"),
        "{line}"
    );
    // A setting's label with a comma and quotes (a sweep's board files) is
    // one quoted field.
    let label = "layout: a,b.csv \"x\"".to_string();
    let report = stats::compute(&bots, &[label], &games());
    let csv = report::render(&report, Format::Csv);
    assert!(
        csv.lines()
            .any(|l| l.starts_with("\"layout: a,b.csv \"\"x\"\"\",A,4,2,")),
        "{csv}"
    );
    assert_eq!(
        csv.lines().map(|l| l.matches(',').count()).min(),
        Some(16),
        "17 fields a line: {csv}"
    );
}

#[test]
fn a_pipe_in_a_bots_name_stays_in_its_markdown_cell() {
    let mut games = games();
    for g in &mut games {
        for s in &mut g.seats {
            if s.bot.as_deref() == Some("A") {
                s.bot = Some("A | B".into());
            }
        }
    }
    let bots = ["A | B", "B", "C"].map(String::from).to_vec();
    let report = stats::compute(&bots, &["default".into()], &games);
    let md = report::render(&report, Format::Markdown);
    assert!(md.contains("| A \\| B "), "{md}");
    // Every row of a table has as many cells as its header: a cell split
    // at the name's `|` would add one.
    let unescaped = |line: &str| line.replace("\\|", "").matches('|').count();
    for table in md.split("\n\n").filter(|t| t.starts_with('|')) {
        let lines: Vec<&str> = table.lines().collect();
        let cells = unescaped(lines[0]);
        for line in &lines {
            assert_eq!(unescaped(line), cells, "{line} in\n{table}");
        }
    }
    assert!(md.matches("A \\| B").count() >= 4, "{md}");
}
