//! A stand-in for the 2014 Speed Clue contest's server
//! (`sadakatsu/SpeedClueContest`, `core/code/com/sadakatsu/clue/contestserver/`:
//! `ContestServer.java`, `Player.java`, `Match.java`, and
//! `util/EntryScript.java`) drives `clue speedclue client --bot
//! builtin:sleuth` through a whole series of games over one connection,
//! the way that code does: launched once from its launch-file line, `ID
//! alive` read once, a `reset` per game, every message sent bare in one
//! write, every answer taken from one read and checked as `Player.java`
//! checks it, `done` once at the end. The games themselves are dealt and
//! played by our engine, the stand-in's seat turning each request and
//! event into the message `Player.java` would send.

use crate::contest_support;

use std::io::Write;

use clue_engine::{GameConfig, Outcome, SeatController, play};
use clue_plugin_api::Variant;
use clue_runtime::bots::builtin;

/// The contest server's connection to one entrant, kept for the whole
/// series as `ContestServer` keeps it: `EntryScript.process` accepts it
/// once and reads `ID alive`; every `Match` then talks over it; `done` is
/// sent once, when the contest is over (`ContestServer.cleanUp`).
struct ContestConnection {
    stream: std::net::TcpStream,
    /// Every message sent and answer read, for failure messages.
    transcript: Vec<String>,
}

impl ContestConnection {
    /// `Player.sendMessage` (`out.format(message)`: one write, no
    /// terminator) then `Player.getResponse` (one read, NULs stripped).
    fn exchange(&mut self, message: &str) -> Result<String, clue_engine::Fault> {
        use clue_plugin_api::DqReason;
        self.stream
            .write_all(message.as_bytes())
            .map_err(|e| clue_engine::Fault::new(DqReason::Crash, e.to_string()))?;
        let answer = contest_support::contest_read(&mut self.stream)
            .map_err(|e| clue_engine::Fault::new(DqReason::Timeout, e.to_string()))?;
        self.transcript.push(format!("> {message}"));
        self.transcript.push(format!("< {answer}"));
        Ok(answer)
    }
}

/// The contest's `contestserver/Player.java` as a seat of our engine: the
/// engine plays the game (deal, turns, who disproves), and each request and
/// event this seat sees becomes the message that `Player.java` sends, its
/// answer checked the way `Player.java` checks it. Anything it would throw
/// `ProtocolViolation` for is a `protocol-error` fault here.
struct ContestPlayer<'a> {
    connection: &'a mut ContestConnection,
    last: Option<(clue_plugin_api::Seat, Vec<clue_plugin_api::Card>)>,
}

fn violation(message: &str, answer: &str) -> clue_engine::Fault {
    clue_engine::Fault::new(
        clue_plugin_api::DqReason::ProtocolError,
        format!("ProtocolViolation: `{answer}` to `{message}`"),
    )
}

fn contest_codes(cards: &[clue_plugin_api::Card]) -> String {
    cards
        .iter()
        .map(|&c| clue_runtime::process::speedclue::code(c))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `new Suggestion(text)`: three card codes in any case.
fn contest_triple(text: &str) -> Option<Vec<clue_plugin_api::Card>> {
    let cards: Vec<clue_plugin_api::Card> = text
        .split(' ')
        .map(clue_runtime::process::speedclue::card)
        .collect::<Option<_>>()?;
    (cards.len() == 3).then_some(cards)
}

impl SeatController for ContestPlayer<'_> {
    fn call(
        &mut self,
        request: &clue_plugin_api::Request,
    ) -> Result<clue_plugin_api::Reply, clue_engine::Fault> {
        use clue_plugin_api::{Accusation, AccusePoint, Event, Reply, Request, Suggestion};
        let ok = |connection: &mut ContestConnection, message: &str| {
            let answer = connection.exchange(message)?;
            // `response.equalsIgnoreCase("ok")`
            if answer.eq_ignore_ascii_case("ok") {
                Ok(Reply::Ok)
            } else {
                Err(violation(message, &answer))
            }
        };
        match request {
            Request::BeginGame { setup } => {
                let message = format!(
                    "reset {} {} {}",
                    setup.players,
                    setup.seat.0,
                    contest_codes(&setup.hand)
                );
                ok(&mut *self.connection, &message)
            }
            Request::Suggest(_) => {
                let answer = self.connection.exchange("suggest")?;
                // `response.length() != 16 || !substring(0, 8).equalsIgnoreCase("suggest ")`
                if answer.len() != 16 || !answer[..8].eq_ignore_ascii_case("suggest ") {
                    return Err(violation("suggest", &answer));
                }
                let cards =
                    contest_triple(&answer[8..]).ok_or_else(|| violation("suggest", &answer))?;
                Ok(Reply::Suggest {
                    suggestion: Some(Suggestion {
                        cards,
                        target: None,
                    }),
                })
            }
            // With one card to show, `Player.disprove` shows it without asking.
            Request::Respond(r) if r.matching.len() == 1 => Ok(Reply::Respond {
                card: r.matching.first().copied(),
            }),
            Request::Respond(r) => {
                let message = format!(
                    "disprove {} {}",
                    r.suggester.0,
                    contest_codes(&r.suggestion.cards)
                );
                let answer = self.connection.exchange(&message)?;
                if answer.len() != 7 || !answer[..5].eq_ignore_ascii_case("show ") {
                    return Err(violation(&message, &answer));
                }
                let card = clue_runtime::process::speedclue::card(&answer[5..])
                    .ok_or_else(|| violation(&message, &answer))?;
                Ok(Reply::Respond { card: Some(card) })
            }
            // `Match.handleAccusation` asks only after the suggestion.
            Request::Accuse(r) if r.point == AccusePoint::StartOfTurn => {
                Ok(Reply::Accuse { accusation: None })
            }
            Request::Accuse(_) => {
                let answer = self.connection.exchange("accuse")?;
                // `!response.equals("-")`, then 15 characters starting `accuse `.
                if answer == "-" {
                    return Ok(Reply::Accuse { accusation: None });
                }
                if answer.len() != 15 || !answer[..7].eq_ignore_ascii_case("accuse ") {
                    return Err(violation("accuse", &answer));
                }
                let cards =
                    contest_triple(&answer[7..]).ok_or_else(|| violation("accuse", &answer))?;
                Ok(Reply::Accuse {
                    accusation: Some(Accusation { cards }),
                })
            }
            Request::Move(r) => Ok(Reply::Move { to: r.targets[0] }),
            Request::Watch { event } => match event {
                Event::Suggested { seat, suggestion } => {
                    self.last = Some((*seat, suggestion.cards.clone()));
                    Ok(Reply::Ok)
                }
                // `Player.suggestion`: the card only to the suggester and the shower.
                Event::Answered {
                    suggester,
                    shown_by,
                    card,
                    ..
                } => {
                    let Some((_, cards)) = self.last.take() else {
                        return Ok(Reply::Ok);
                    };
                    let mut message =
                        format!("suggestion {} {} ", suggester.0, contest_codes(&cards));
                    match (shown_by, card) {
                        (Some(by), Some(card)) => message.push_str(&format!(
                            "{} {}",
                            by.0,
                            clue_runtime::process::speedclue::code(*card)
                        )),
                        (Some(by), None) => message.push_str(&by.0.to_string()),
                        (None, _) => message.push('-'),
                    }
                    ok(&mut *self.connection, &message)
                }
                Event::Accused {
                    seat,
                    accusation: Some(accusation),
                    correct: Some(correct),
                } => {
                    let message = format!(
                        "accusation {} {} {}",
                        seat.0,
                        contest_codes(&accusation.cards),
                        if *correct { '+' } else { '-' }
                    );
                    ok(&mut *self.connection, &message)
                }
                // `Match.releasePlayers` says nothing: the next `reset`
                // follows, and `done` only once the contest is over.
                _ => Ok(Reply::Ok),
            },
        }
    }
}

/// The contest server stand-in drives a whole series over one connection,
/// as `ContestServer` does: `clue speedclue client --bot builtin:sleuth`
/// is launched once with the contest's launch-file line, says `ID alive`
/// (compared with `equalsIgnoreCase`), then plays game after game dealt by
/// our engine (3 to 6 players, the entrant in every seat position, built-in
/// bots in the others), each message sent bare and each answer taken from
/// one read; `done` comes once at the end and is answered `dead`. Not one
/// protocol violation, and the entrant counts the games it was dealt.
#[test]
fn sleuth_plays_a_whole_series_under_the_contest_server_stand_in() {
    // `EntryScript.process`: `{Sleuth}` is the identifier, `%%` the port,
    // the line split on spaces; its `ID alive` read as `Player` reads.
    let (child, mut stream) = contest_support::connect(|port| {
        format!(
            "{} speedclue client --bot builtin:sleuth {{Sleuth}} %%",
            env!("CARGO_BIN_EXE_clue")
        )
        .replace("{Sleuth}", "Sleuth")
        .replace("%%", &port.to_string())
        .split(' ')
        .map(str::to_string)
        .collect()
    });
    let alive = contest_support::contest_read(&mut stream).expect("reads `ID alive`");
    let mut connection = ContestConnection {
        stream,
        transcript: Vec::new(),
    };
    assert!(alive.eq_ignore_ascii_case("Sleuth alive"), "`{alive}`");

    let mut games = 0;
    let mut won = 0;
    for (players, seat, seed) in [
        (3u8, 0usize, 1u64),
        (3, 2, 2),
        (4, 1, 3),
        (4, 3, 4),
        (5, 2, 5),
        (5, 4, 6),
        (6, 0, 7),
        (6, 5, 8),
    ] {
        let config = GameConfig::new(Variant::Speedclue, players);
        let record = {
            let mut seats: Vec<Box<dyn SeatController + '_>> = Vec::new();
            let mut entrant = Some(ContestPlayer {
                connection: &mut connection,
                last: None,
            });
            for s in 0..usize::from(players) {
                if s == seat {
                    let Some(entrant) = entrant.take() else {
                        unreachable!("one entrant seat")
                    };
                    seats.push(Box::new(entrant));
                } else {
                    seats.push(
                        builtin(if s % 2 == 0 { "notebook" } else { "sleuth" }).expect("built in"),
                    );
                }
            }
            play(&config, seed, &mut seats).expect("valid game")
        };
        games += 1;
        let entrant = &record.seats[seat];
        assert!(
            !matches!(entrant.outcome, Outcome::Disqualified(_)),
            "game {games} ({players} players, seat {seat}): {:?} {:?}\n{}",
            entrant.outcome,
            entrant.detail,
            connection.transcript.join("\n")
        );
        assert!(record.winner.is_some(), "game {games}: no winner");
        won += usize::from(record.winner.is_some_and(|w| w.index() == seat));
    }
    eprintln!("the entrant won {won} of {games} games");
    // `ContestServer.cleanUp`: `done`, answered `dead` (`equalsIgnoreCase`).
    let dead = connection.exchange("done").expect("answers `done`");
    assert!(dead.eq_ignore_ascii_case("dead"), "`{dead}`");
    drop(connection);
    let output = child.wait_with_output().expect("ends");
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("{games} games, ")), "{stderr}");
}
