//! A readable account of a finished game, for people.

use std::fmt::Write;

use clue_engine::{GameRecord, Outcome};
use clue_plugin_api::{Card, Deck, Event, Position, Seat};

/// Writes the whole game: the deal, every turn, who showed what, the end.
pub fn account(record: &GameRecord, deck: &Deck, names: &[String]) -> String {
    let mut out = String::new();
    let who = |s: Seat| -> String {
        match names.get(s.index()) {
            Some(name) => format!("seat {} ({name})", s.0),
            None => format!("seat {} (server)", s.0),
        }
    };
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
    let mut suggestion: Vec<Card> = Vec::new();
    for entry in &record.log {
        let line = match &entry.event {
            Event::TurnBegan {
                seat,
                round,
                roll,
                room,
            } => match (roll, room) {
                (Some(r), _) => format!("round {round}: {} rolls {r}", who(*seat)),
                (None, Some(room)) => {
                    format!(
                        "round {round}: {} is in the {}",
                        who(*seat),
                        deck.name(*room)
                    )
                }
                (None, None) => format!("round {round}: {}", who(*seat)),
            },
            Event::Moved { seat, to } => {
                format!("  {} moves to {}", who(*seat), position(deck, *to))
            }
            Event::TokenMoved { person, to, .. } => format!(
                "  {}'s token is moved to {}",
                deck.name(*person),
                position(deck, *to)
            ),
            Event::Suggested {
                seat,
                suggestion: s,
            } => {
                suggestion = s.cards.clone();
                match s.target {
                    Some(t) => {
                        format!("  {} asks {} about {}", who(*seat), who(t), cards(&s.cards))
                    }
                    None => format!("  {} suggests {}", who(*seat), cards(&s.cards)),
                }
            }
            Event::Answered {
                passed,
                shown_by,
                card,
                ..
            } => {
                let mut parts: Vec<String> = passed
                    .iter()
                    .map(|&s| format!("{} cannot disprove", who(s)))
                    .collect();
                match (shown_by, card) {
                    (Some(s), Some(c)) => {
                        parts.push(format!("{} shows {}", who(*s), deck.name(*c)))
                    }
                    (Some(s), None) => parts.push(format!("{} shows a card", who(*s))),
                    (None, _) => parts.push(format!("nobody can disprove {}", cards(&suggestion))),
                }
                format!("    {}", parts.join("; "))
            }
            Event::Accused {
                seat,
                accusation,
                correct,
            } => {
                let what = accusation
                    .as_ref()
                    .map_or_else(|| "?".to_string(), |a| cards(&a.cards));
                let verdict = match correct {
                    Some(true) => "correct",
                    Some(false) => "wrong",
                    None => "unknown",
                };
                format!("  {} accuses {what}: {verdict}", who(*seat))
            }
            Event::HandRevealed { seat, hand } => {
                format!("  {} leaves and reveals {}", who(*seat), cards(hand))
            }
            Event::Disqualified { seat, reason } => {
                let detail = record.seats[seat.index()]
                    .detail
                    .clone()
                    .unwrap_or_default();
                format!("  {} is disqualified: {reason} ({detail})", who(*seat))
            }
            Event::GameOver { winner, .. } => match winner {
                Some(w) => format!("game over after {} rounds: {} wins", record.rounds, who(*w)),
                None => format!("game over after {} rounds: no winner", record.rounds),
            },
        };
        let _ = writeln!(out, "{line}");
    }
    for seat in &record.seats {
        let outcome = match seat.outcome {
            Outcome::Won => "won".to_string(),
            Outcome::Lost => "lost".to_string(),
            Outcome::WrongAccusation => "accused wrongly".to_string(),
            Outcome::GuessedRight => "guessed right, not first".to_string(),
            Outcome::Disqualified(reason) => format!("disqualified: {reason}"),
        };
        let _ = writeln!(
            out,
            "  {}: rank {}, {outcome}, {} turns, {} suggestions",
            who(seat.seat),
            seat.rank,
            seat.turns,
            seat.suggestions
        );
        // A disqualified bot's own words are often the quickest way to why.
        if let (Outcome::Disqualified(_), Some(stderr)) = (&seat.outcome, &seat.stderr) {
            let lines: Vec<&str> = stderr.lines().collect();
            let shown = &lines[lines.len().saturating_sub(STDERR_LINES)..];
            let _ = writeln!(out, "    its stderr (last {} lines):", shown.len());
            for line in shown {
                let _ = writeln!(out, "    | {line}");
            }
        }
    }
    out
}

/// How much of a disqualified bot's stderr the account shows (the game log
/// keeps all the runtime kept).
const STDERR_LINES: usize = 10;

fn position(deck: &Deck, p: Position) -> String {
    match p {
        Position::Cell { row, col } => format!("({row}, {col})"),
        Position::Room(card) => deck.name(card).to_string(),
    }
}
