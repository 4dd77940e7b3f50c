//! The UniClue engine, fed the client queries of the `seeds/001` sample, gives
//! exactly the sample's answers and rooms.

use crate::common;

use clue_engine::{GameConfig, Outcome, play};
use clue_plugin_api::{Accusation, Card, Event, Reply, Request, Seat, Suggestion, Variant};
use common::Scripted;

/// `S3` -> person 3, `W5` -> weapon 5, `R9` -> room 9, as card ids.
fn card(code: &str) -> Card {
    let n: u16 = code[1..].parse().unwrap();
    match &code[..1] {
        "S" => Card(n - 1),
        "W" => Card(6 + n - 1),
        _ => Card(12 + n - 1),
    }
}

fn code(c: Card) -> String {
    match c.0 {
        0..=5 => format!("S{}", c.0 + 1),
        6..=11 => format!("W{}", c.0 - 5),
        _ => format!("R{}", c.0 - 11),
    }
}

/// `Q264` -> suspect 2, weapon 6, room 4.
fn triple(q: &str) -> Vec<Card> {
    let d: Vec<u16> = q[1..]
        .chars()
        .map(|c| c.to_digit(10).unwrap() as u16)
        .collect();
    vec![Card(d[0] - 1), Card(6 + d[1] - 1), Card(12 + d[2] - 1)]
}

const SAMPLE: &str = "\
Q333 2W3 5
Q555 2-- 3S5 3
Q353 2S3 4
Q264 2R4 7
Q667 2-- 3S6 2
Q242 2W4 8
Q268 2-- 3-- 4R8 6
Q166 2-- 3R6 4
Q464 2R4 9
Q259 2-- 3-- 4R9 3
Q263 2-- 3-- 4W6 1
Q411 2S4 5
Q115 2-- 3R5 7
Q127 2-- 3-- 4R7 2";

#[test]
fn the_sample_transcript_is_reproduced() {
    let hands = [
        "R2 S1 R1 W2 W1",
        "W4 W3 S3 R4 S4",
        "R6 S5 S6 R5",
        "R8 W6 R7 R9",
    ];
    let mut config = GameConfig::new(Variant::Uniclue, 4);
    config.deal = Some(
        hands
            .iter()
            .map(|h| h.split(' ').map(card).collect())
            .collect(),
    );
    config.uniclue.rooms = vec![3, 5, 3, 4, 7, 2, 8, 6, 4, 9, 3, 1, 5, 7, 2];
    let queries: Vec<&str> = SAMPLE.lines().map(|l| &l[..4]).collect();
    let mut next = 0;
    let mut rooms_told = Vec::new();
    let client = Scripted::new(move |_, request: &Request| match request {
        Request::Accuse(a) => {
            rooms_told.push(a.turn.room.map(code));
            let accusation = (next == queries.len()).then(|| Accusation {
                cards: triple("A253"),
            });
            Some(Ok(Reply::Accuse { accusation }))
        }
        Request::Suggest(_) => {
            let cards = triple(queries[next]);
            next += 1;
            Some(Ok(Reply::Suggest {
                suggestion: Some(Suggestion {
                    cards,
                    target: None,
                }),
            }))
        }
        _ => None,
    });
    let mut bots: Vec<Box<dyn clue_engine::SeatController>> = vec![Box::new(client)];
    let record = play(&config, 0, &mut bots).expect("valid");

    // Rebuild the server's side of the transcript from the log.
    let mut transcript = Vec::new();
    let mut line = String::new();
    for entry in &record.log {
        match &entry.event {
            Event::TurnBegan {
                room: Some(room), ..
            } if !line.is_empty() => {
                line.push_str(&format!(" {}", &code(*room)[1..]));
                transcript.push(std::mem::take(&mut line));
            }
            Event::Suggested { suggestion, .. } => {
                let digits: String = suggestion
                    .cards
                    .iter()
                    .map(|&c| code(c)[1..].to_string())
                    .collect();
                line = format!("Q{digits}");
            }
            Event::Answered {
                passed,
                shown_by,
                card,
                ..
            } => {
                for p in passed {
                    line.push_str(&format!(" {}--", p.0 + 1));
                }
                if let (Some(s), Some(c)) = (shown_by, card) {
                    line.push_str(&format!(" {}{}", s.0 + 1, code(*c)));
                }
            }
            _ => {}
        }
    }
    assert_eq!(transcript.join("\n"), SAMPLE);
    assert_eq!(record.winner, Some(Seat(0)), "A253 is Victory");
    assert_eq!(record.seats[0].outcome, Outcome::Won);
    assert_eq!(record.envelope, triple("A253"));
}

#[test]
fn rooms_repeat_one_to_nine_after_the_sequence() {
    let mut config = GameConfig::new(Variant::Uniclue, 3);
    config.uniclue.rooms = vec![7];
    let mut told = Vec::new();
    {
        let client = Scripted::new(|_, request: &Request| match request {
            Request::Accuse(a) => {
                told.push(a.turn.room.unwrap().0 - 11);
                Some(Ok(Reply::Accuse { accusation: None }))
            }
            Request::Suggest(s) => Some(Ok(Reply::Suggest {
                suggestion: Some(Suggestion {
                    cards: vec![Card(0), Card(6), s.turn.room.unwrap()],
                    target: None,
                }),
            })),
            _ => None,
        });
        let mut bots: Vec<Box<dyn clue_engine::SeatController + '_>> = vec![Box::new(client)];
        play(&config, 0, &mut bots).expect("valid");
    }
    assert_eq!(&told[..12], &[7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2]);
}
