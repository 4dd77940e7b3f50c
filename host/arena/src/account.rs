//! A readable account of a finished game, for people.
//!
//! What a bot wrote (its stderr, the line that got it disqualified) goes
//! to the organiser's terminal through [`printable`]: a hostile bot's
//! escape sequences could otherwise clear or rewrite the lines above (a
//! forged result), set the terminal's clipboard or title, or hide text.

use std::borrow::Cow;
use std::fmt::Write;

use clue_engine::{GameRecord, Outcome};
use clue_plugin_api::{Card, Deck, Event, Seat};

use crate::narrate::describe;

/// A seat as the account names it: `seat 2 (builtin:notebook)`, or
/// `seat 2 (server)` for a seat no bot plays (`uniclue`'s).
fn seat_name(seat: Seat, names: &[String]) -> String {
    match names.get(seat.index()) {
        Some(name) => format!("seat {} ({})", seat.0, printable(name)),
        None => format!("seat {} (server)", seat.0),
    }
}

/// Every seat of the game by [`seat_name`], in seat order, the server's too.
fn seat_names(record: &GameRecord, names: &[String]) -> Vec<String> {
    (0..record.seats.len())
        .map(|s| seat_name(Seat(s as u8), names))
        .collect()
}

/// A disqualification as the account writes it, with the seat's detail
/// (`seat 0 (NAME) is disqualified (crash): exited with status 3`).
fn disqualification(record: &GameRecord, event: &Event, deck: &Deck, named: &[String]) -> String {
    let detail = match event {
        Event::Disqualified { seat, .. } => record
            .seats
            .get(seat.index())
            .and_then(|s| s.detail.clone())
            .unwrap_or_default(),
        _ => String::new(),
    };
    format!("{}: {}", describe(event, deck, named), printable(&detail))
}

/// The game's disqualifications, one line each as [`account`] writes them,
/// and the last line the seat wrote to its stderr, if any (the account
/// shows its last lines below the standings; a one-line report has room
/// for the line that most often says why, such as Python's
/// `ModuleNotFoundError: ...`): what `clue play --quiet` adds, on stderr,
/// to its result line.
pub fn disqualifications(record: &GameRecord, deck: &Deck, names: &[String]) -> Vec<String> {
    let named = seat_names(record, names);
    record
        .log
        .iter()
        .filter_map(|entry| match entry.event {
            Event::Disqualified { seat, .. } => Some((seat, &entry.event)),
            _ => None,
        })
        .map(|(seat, event)| {
            let line = disqualification(record, event, deck, &named);
            let last = record
                .seats
                .get(seat.index())
                .and_then(|s| s.stderr.as_deref())
                .and_then(|stderr| stderr.lines().rev().find(|l| !l.trim().is_empty()));
            match last {
                Some(last) => format!("{line}; its stderr ends `{}`", printable(last.trim_end())),
                None => line,
            }
        })
        .collect()
}

/// Writes the whole game: the deal, every turn, who showed what (each
/// event in the words the page and the terminal player use,
/// [`crate::narrate`], and a disqualification with its detail), the end.
pub fn account(record: &GameRecord, deck: &Deck, names: &[String]) -> String {
    let mut out = String::new();
    let who = |s: Seat| seat_name(s, names);
    let cards = |cs: &[Card]| -> String {
        cs.iter()
            .map(|&c| deck.name(c).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let config = &record.config;
    let _ = writeln!(
        out,
        "{} game, {} players, seed {}",
        config.variant, config.players, record.seed
    );
    let _ = writeln!(out, "envelope: {}", cards(&record.envelope));
    for (s, hand) in record.hands.iter().enumerate() {
        let _ = writeln!(out, "  {} holds {}", who(Seat(s as u8)), cards(hand));
    }
    // Every seat by number and name, the server's seats too, as the
    // narration names them.
    let named = seat_names(record, names);
    for entry in &record.log {
        let event = &entry.event;
        let line = match event {
            Event::Disqualified { .. } => {
                format!("  {}", disqualification(record, event, deck, &named))
            }
            Event::GameOver { winner, .. } => match winner {
                Some(w) => format!("game over after {} rounds: {} wins", record.rounds, who(*w)),
                None => format!("game over after {} rounds: no winner", record.rounds),
            },
            Event::TurnBegan { .. } => describe(event, deck, &named),
            Event::Answered { .. } => format!("    {}", describe(event, deck, &named)),
            _ => format!("  {}", describe(event, deck, &named)),
        };
        let _ = writeln!(out, "{line}");
    }
    // `uniclue`'s other seats are the server's, not players: they are
    // named once rather than ranked as players that lost.
    let server: Vec<String> = record
        .seats
        .iter()
        .filter(|seat| names.get(seat.seat.index()).is_none())
        .map(|seat| seat.seat.0.to_string())
        .collect();
    for seat in record
        .seats
        .iter()
        .filter(|seat| names.get(seat.seat.index()).is_some())
    {
        let outcome = match seat.outcome {
            Outcome::Won => "won".to_string(),
            Outcome::Lost => "lost".to_string(),
            Outcome::WrongAccusation => "accused wrongly".to_string(),
            Outcome::GuessedRight => "guessed right, not first".to_string(),
            Outcome::Disqualified(reason) => format!("disqualified: {reason}"),
        };
        let _ = writeln!(
            out,
            "  {}: rank {}, {outcome}, {}, {}",
            who(seat.seat),
            seat.rank,
            counted(seat.turns, "turn"),
            counted(seat.suggestions, "suggestion")
        );
        // A disqualified bot's own words are often the quickest way to why.
        if let (Outcome::Disqualified(_), Some(stderr)) = (&seat.outcome, &seat.stderr) {
            let lines: Vec<&str> = stderr.lines().collect();
            let shown = &lines[lines.len().saturating_sub(STDERR_LINES)..];
            let _ = writeln!(out, "    its stderr (last {} lines):", shown.len());
            for line in shown {
                let _ = writeln!(out, "    | {}", printable(line));
            }
        }
    }
    match server.as_slice() {
        [] => {}
        [one] => {
            let _ = writeln!(out, "  seat {one} answers for the server");
        }
        [many @ .., last] => {
            let _ = writeln!(
                out,
                "  seats {} and {last} answer for the server",
                many.join(", ")
            );
        }
    }
    out
}

/// A character that must not reach a terminal as it is: a control
/// character other than a tab (escapes, carriage returns, line breaks), a
/// direction override or isolate, which reorders what follows it on screen,
/// or an invisible one that makes two different lines look alike (the
/// byte-order mark .NET writes first, a zero-width space).
pub fn unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(
            c,
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}' | '\u{200b}'
        )
}

/// `text` with every control character but the tab, and the characters
/// that reorder text on screen (bidirectional overrides and isolates),
/// written as `\u{1b}`: safe to print to a terminal, and still exactly
/// what was sent, read with Rust's escapes.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// How much of a disqualified bot's stderr the account shows (the game log
/// keeps all the runtime kept).
const STDERR_LINES: usize = 10;

/// `1 turn`, `2 turns`.
fn counted(count: impl Into<u64>, thing: &str) -> String {
    let count = count.into();
    match count {
        1 => format!("1 {thing}"),
        _ => format!("{count} {thing}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::{account, counted, describe, printable};
    use clue_engine::{GameConfig, GameRecord, SeatController, acting_seats, play};
    use clue_plugin_api::{Event, Variant};

    /// One game of `notebook` in every seat that plays, and its account.
    fn game(variant: Variant, players: u8, seed: u64) -> (GameRecord, String) {
        let config = GameConfig::new(variant, players);
        let seats = acting_seats(&config);
        let mut controllers: Vec<Box<dyn SeatController>> = (0..seats)
            .map(|_| clue_runtime::bots::builtin("notebook").expect("notebook is built in"))
            .collect();
        let record = play(&config, seed, &mut controllers).expect("the game plays");
        let names = vec!["builtin:notebook".to_string(); seats];
        let text = account(&record, &record.deck, &names);
        (record, text)
    }

    fn played(variant: Variant, players: u8) -> String {
        game(variant, players, 7).1
    }

    /// The seats as the account names them.
    fn named(record: &GameRecord) -> Vec<String> {
        (0..record.seats.len())
            .map(|s| match s < acting_seats(&record.config) {
                true => format!("seat {s} (builtin:notebook)"),
                false => format!("seat {s} (server)"),
            })
            .collect()
    }

    /// The account tells each event in the words of the page and the
    /// terminal (`narrate`), on a line of its own.
    #[test]
    fn each_event_is_told_in_the_narrations_words() {
        for (variant, players) in [
            (Variant::Classic, 3),
            (Variant::Uniclue, 5),
            (Variant::Speedclue, 4),
            (Variant::Generalized, 3),
        ] {
            let (record, text) = game(variant, players, 11);
            let names = named(&record);
            let lines: Vec<&str> = text.lines().map(str::trim_start).collect();
            let mut told = 0;
            for entry in &record.log {
                match &entry.event {
                    Event::GameOver { .. } | Event::Disqualified { .. } => {}
                    event => {
                        let words = describe(event, &record.deck, &names);
                        assert!(lines.contains(&words.as_str()), "{words:?} in\n{text}");
                        told += 1;
                    }
                }
            }
            assert!(told > 5, "{variant}: {told} events");
        }
    }

    #[test]
    fn uniclues_server_seats_are_named_once_and_not_ranked() {
        let text = played(Variant::Uniclue, 4);
        assert!(
            text.contains("  seat 0 (builtin:notebook): rank 1, won,"),
            "{text}"
        );
        assert!(
            text.ends_with("  seats 1, 2 and 3 answer for the server\n"),
            "{text}"
        );
        assert!(!text.contains("(server): rank"), "{text}");
        // Their hands and answers are still in the account.
        assert!(text.contains("  seat 3 (server) holds "), "{text}");

        let text = played(Variant::Uniclue, 3);
        assert!(
            text.ends_with("  seats 1 and 2 answer for the server\n"),
            "{text}"
        );
    }

    #[test]
    fn every_seat_of_a_game_of_players_is_ranked() {
        let text = played(Variant::Classic, 3);
        for seat in 0..3 {
            assert!(
                text.contains(&format!("  seat {seat} (builtin:notebook): rank ")),
                "{text}"
            );
        }
        assert!(!text.contains("answer"), "{text}");
    }

    #[test]
    fn one_thing_is_counted_in_the_singular() {
        assert_eq!(counted(1u32, "turn"), "1 turn");
        assert_eq!(counted(0u32, "suggestion"), "0 suggestions");
        assert_eq!(counted(14u32, "turn"), "14 turns");
    }

    #[test]
    fn what_a_bot_wrote_is_printed_with_its_control_characters_escaped() {
        // Clear the screen, move up a line and erase it, set the clipboard
        // (OSC 52), ring the bell, reverse the text that follows.
        let hostile = "\u{1b}[2J\u{1b}[1A\u{1b}[2K\u{1b}]52;c;aGk=\u{7}ok\u{202e}txt\r";
        let shown = printable(hostile);
        assert_eq!(
            shown,
            "\\u{1b}[2J\\u{1b}[1A\\u{1b}[2K\\u{1b}]52;c;aGk=\\u{7}ok\\u{202e}txt\\u{d}"
        );
        assert!(!shown.chars().any(|c| c.is_control()));
        // A line that looks like another on screen is told apart.
        assert_eq!(
            printable("\u{feff}C 1 R3\u{200b}"),
            "\\u{feff}C 1 R3\\u{200b}"
        );
        // Plain text, tabs and non-ASCII letters are left as they are.
        assert!(matches!(
            printable("Mrs. Péacock\tshows"),
            std::borrow::Cow::Borrowed("Mrs. Péacock\tshows")
        ));
    }
}
