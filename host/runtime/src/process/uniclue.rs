//! The judges' side of the 2006 UniClue problem (`seeds/001`, `docs/uniclue.md`):
//! a client program says `C`, `Qswr` and `Aswr`; the host answers as the
//! judges' server did. [`UniclueClient`] seats such a client in a `uniclue`
//! game; [`serve`] is the `test4` drop-in behind `clue uniclue serve`.

use std::io::{BufRead, Write};
use std::time::Duration;

use clue_engine::{Fault, GameConfig, GameRecord, Outcome, SeatController};
use clue_plugin_api::{
    Accusation, Card, Category, Deck, DqReason, Event, Reply, Request, Setup, Suggestion,
};

use super::{BotProcess, OWN_PRINT, ProcessLimits, SpawnError, clip, split_command};
use crate::sticky::{Exchange, Sticky};

pub use super::uniclue_config::{ConfigFileError, parse_config};

/// The line channel to a UniClue client.
pub trait ClientLink {
    /// Sends one server line.
    fn send(&mut self, line: &str) -> Result<(), Fault>;
    /// The client's next line, within `timeout` where the link can time out.
    fn recv(&mut self, timeout: Duration, waiting_for: &str) -> Result<String, Fault>;
    /// What the client wrote to stderr, for the game record (`abandoned`:
    /// it was given up on a fault, so its last words may still be coming);
    /// `None` where the link has no such channel.
    fn stderr(&self, _abandoned: bool) -> Option<String> {
        None
    }
    /// The client failed (a timeout, a protocol error): stop it.
    fn abandon(&mut self) {}
}

impl ClientLink for BotProcess {
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        BotProcess::send(self, line)
    }

    fn recv(&mut self, timeout: Duration, waiting_for: &str) -> Result<String, Fault> {
        BotProcess::recv(self, timeout, waiting_for)
    }

    fn stderr(&self, abandoned: bool) -> Option<String> {
        Some(self.stderr_text(abandoned))
    }

    fn abandon(&mut self) {
        self.kill();
    }
}

/// A person at a terminal: commands from `input`, answers to `output`, no deadline.
pub struct Typed<R, W> {
    pub input: R,
    pub output: W,
}

impl<R: BufRead, W: Write> ClientLink for Typed<R, W> {
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.output, "{line}")
            .and_then(|()| self.output.flush())
            .map_err(|e| Fault::new(DqReason::Crash, format!("cannot write: {e}")))
    }

    fn recv(&mut self, _: Duration, waiting_for: &str) -> Result<String, Fault> {
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) => Err(Fault::new(
                DqReason::Crash,
                format!("end of input while waiting for the client's {waiting_for}"),
            )),
            Ok(_) => Ok(line.trim_end_matches(['\n', '\r']).to_string()),
            Err(e) => Err(Fault::new(DqReason::Crash, format!("cannot read: {e}"))),
        }
    }
}

/// Whether a line the server refuses was still meant as a command: its
/// first word is `C`, or `Q` or `A` with digits or nothing after
/// (`Q3a3`, `q 3 3`), not a client's own print (`Querying 3 3 3`).
fn looks_like_a_command(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    let mut letters = first.chars();
    match letters.next().map(|c| c.to_ascii_uppercase()) {
        Some('C') => letters.as_str().is_empty(),
        Some('Q' | 'A') => letters.next().is_none_or(|c| c.is_ascii_digit()),
        _ => false,
    }
}

/// A client command, parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Command {
    Configuration,
    Query([u8; 3]),
    Accuse([u8; 3]),
}

fn parse_command(line: &str) -> Option<Command> {
    let text: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    let digits: Vec<u8> = chars
        .map(|c| c.to_digit(10).map(|d| d as u8))
        .collect::<Option<_>>()?;
    match (letter, digits.as_slice()) {
        ('C', []) => Some(Command::Configuration),
        ('Q' | 'A', &[s, w, r])
            if (1..=6).contains(&s) && (1..=6).contains(&w) && (1..=9).contains(&r) =>
        {
            Some(if letter == 'Q' {
                Command::Query([s, w, r])
            } else {
                Command::Accuse([s, w, r])
            })
        }
        _ => None,
    }
}

/// `S3`, `W5`, `R9`: a card's UniClue code in `deck`.
pub fn code(deck: &Deck, card: Card) -> String {
    let letter = match deck.category(card) {
        Some(Category::Person) => 'S',
        Some(Category::Weapon) => 'W',
        Some(Category::Room) => 'R',
        _ => '?',
    };
    format!("{letter}{}", number(deck, card).unwrap_or(0))
}

/// The card of a UniClue code (`S3`, `W5`, `R9`) in `deck`, in the upper
/// case the judges' server writes; a configuration file's lower case is the
/// caller's to allow.
pub fn parse_code(deck: &Deck, code: &str) -> Option<Card> {
    let (letter, digits) = code.split_at_checked(1)?;
    let category = match letter {
        "S" => Category::Person,
        "W" => Category::Weapon,
        "R" => Category::Room,
        _ => return None,
    };
    let n: usize = digits.parse().ok()?;
    n.checked_sub(1)
        .and_then(|i| deck.of(category).get(i).copied())
}

/// A card's number within its category, from 1.
pub fn number(deck: &Deck, card: Card) -> Option<usize> {
    let category = deck.category(card)?;
    deck.of(category)
        .iter()
        .position(|&c| c == card)
        .map(|i| i + 1)
}

fn cards(deck: &Deck, digits: [u8; 3]) -> Vec<Card> {
    [Category::Person, Category::Weapon, Category::Room]
        .iter()
        .zip(digits)
        .filter_map(|(&category, n)| deck.of(category).get(usize::from(n) - 1).copied())
        .collect()
}

/// A UniClue client seated as seat 0 of a `uniclue` game.
pub struct UniclueClient<L> {
    link: L,
    limits: ProcessLimits,
    /// Where the conversation is written in the judges' transcript format.
    transcript: Option<Box<dyn Write>>,
    setup: Option<Setup>,
    configured: bool,
    /// A query read at the turn's start, waiting for the engine's `suggest`.
    query: Option<Vec<Card>>,
    /// `Victory` or `Disqualified` has been said.
    finished: bool,
}

impl UniclueClient<BotProcess> {
    /// Starts a client program from a command line, seated as every
    /// runtime's bot is: its first fault sticks and stops it.
    pub fn spawn(
        command: &str,
        limits: &ProcessLimits,
    ) -> Result<Sticky<UniclueClient<BotProcess>>, SpawnError> {
        let argv = split_command(command)?;
        Ok(Sticky::new(UniclueClient::new(
            BotProcess::spawn(&argv, limits)?,
            limits,
        )))
    }
}

impl<L: ClientLink> UniclueClient<L> {
    pub fn new(link: L, limits: &ProcessLimits) -> Self {
        UniclueClient {
            link,
            limits: limits.clone(),
            transcript: None,
            setup: None,
            configured: false,
            query: None,
            finished: false,
        }
    }

    /// Also writes the conversation to `transcript`: server lines as sent,
    /// client lines after two tabs.
    pub fn with_transcript(mut self, transcript: Box<dyn Write>) -> Self {
        self.transcript = Some(transcript);
        self
    }

    fn note(&mut self, line: &str) {
        if let Some(t) = self.transcript.as_mut() {
            let _ = writeln!(t, "{line}").and_then(|()| t.flush());
        }
    }

    fn say(&mut self, line: &str) -> Result<(), Fault> {
        self.note(line);
        self.link.send(line)
    }

    fn hear(&mut self) -> Result<Command, Fault> {
        let (timeout, what) = if self.configured {
            (self.limits.message, "command")
        } else {
            (self.limits.startup, "`C` command")
        };
        let line = self.link.recv(timeout, what)?;
        self.note(&format!("\t\t{line}"));
        parse_command(&line).ok_or_else(|| {
            Fault::new(
                DqReason::ProtocolError,
                format!(
                    "sent `{}`, which is not `C`, `Qswr` or `Aswr`{}",
                    clip(&line),
                    if looks_like_a_command(&line) {
                        ""
                    } else {
                        OWN_PRINT
                    }
                ),
            )
        })
    }

    fn deck(&self) -> Deck {
        self.setup
            .as_ref()
            .map(|s| s.deck.clone())
            .unwrap_or_default()
    }

    /// The start of a turn: tell the room, read the client's command.
    fn turn(&mut self, room: Option<Card>) -> Result<Reply, Fault> {
        let deck = self.deck();
        let room_line = room.map_or(String::from("0"), |r| {
            number(&deck, r).unwrap_or(0).to_string()
        });
        if self.configured {
            self.say(&room_line)?;
        }
        loop {
            match self.hear()? {
                Command::Configuration => {
                    let Some(setup) = self.setup.clone() else {
                        return Err(Fault::new(DqReason::ProtocolError, "no game to configure"));
                    };
                    let hand: Vec<String> = setup.hand.iter().map(|&c| code(&deck, c)).collect();
                    self.say(&setup.players.to_string())?;
                    self.say(&hand.join(" "))?;
                    self.say(&room_line)?;
                    self.configured = true;
                }
                _ if !self.configured => {
                    return Err(Fault::new(
                        DqReason::ProtocolError,
                        "did not start with the `C` command",
                    ));
                }
                Command::Query(digits) => {
                    self.query = Some(cards(&deck, digits));
                    return Ok(Reply::Accuse { accusation: None });
                }
                Command::Accuse(digits) => {
                    return Ok(Reply::Accuse {
                        accusation: Some(Accusation {
                            cards: cards(&deck, digits),
                        }),
                    });
                }
            }
        }
    }

    fn watch(&mut self, event: &Event) -> Result<(), Fault> {
        match event {
            Event::Answered {
                passed,
                shown_by,
                card,
                ..
            } => {
                let deck = self.deck();
                for seat in passed {
                    self.say(&format!("{}--", seat.0 + 1))?;
                }
                if let (Some(seat), Some(card)) = (shown_by, card) {
                    self.say(&format!("{}{}", seat.0 + 1, code(&deck, *card)))?;
                }
            }
            Event::Accused {
                seat,
                correct: Some(correct),
                ..
            } if seat.0 == 0 => {
                self.finished = true;
                self.say(if *correct { "Victory" } else { "Disqualified" })?;
            }
            _ => {}
        }
        Ok(())
    }

    fn exchange(&mut self, request: &Request) -> Result<Reply, Fault> {
        match request {
            Request::BeginGame { setup } => {
                self.setup = Some((**setup).clone());
                Ok(Reply::Ok)
            }
            Request::Accuse(r) => match r.point {
                clue_plugin_api::AccusePoint::StartOfTurn => self.turn(r.turn.room),
                _ => Ok(Reply::Accuse { accusation: None }),
            },
            Request::Suggest(_) => Ok(Reply::Suggest {
                suggestion: self.query.take().map(|cards| Suggestion {
                    cards,
                    target: None,
                }),
            }),
            Request::Respond(r) => Ok(Reply::Respond {
                card: r.matching.first().copied(),
            }),
            Request::Move(r) => Ok(Reply::Move { to: r.targets[0] }),
            Request::Watch { event } => self.watch(event).map(|()| Reply::Ok),
        }
    }

    /// After the game: a client disqualified by the engine (query limit, a
    /// query outside its room) is told `Disqualified`, as the judges' server
    /// ends such a game. Not called for a client that failed itself.
    fn finish(&mut self, record: &GameRecord) {
        if self.finished {
            return;
        }
        if let Some(Outcome::Disqualified(_)) = record.seats.first().map(|s| s.outcome) {
            self.finished = true;
            let _ = self.say("Disqualified");
        }
    }

    /// The link, e.g. to end the client process.
    pub fn link_mut(&mut self) -> &mut L {
        &mut self.link
    }
}

impl<L: ClientLink> Exchange for UniclueClient<L> {
    fn exchange(&mut self, request: &Request) -> Result<Reply, Fault> {
        UniclueClient::exchange(self, request)
    }

    fn abandon(&mut self) {
        self.link.abandon();
    }

    fn stderr(&self, abandoned: bool) -> Option<String> {
        self.link.stderr(abandoned)
    }

    /// The judges' code (`R4`).
    fn card_word(&self, card: Card) -> Option<String> {
        let deck = self.setup.as_ref().map(|s| &s.deck)?;
        number(deck, card).map(|_| code(deck, card))
    }
}

/// Borrows a controller for one game, so the caller keeps it afterwards.
struct Borrowed<'a, C>(&'a mut C);

impl<C: SeatController> SeatController for Borrowed<'_, C> {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        self.0.call(request)
    }

    fn stderr(&self) -> Option<String> {
        self.0.stderr()
    }

    fn card_word(&self, card: Card) -> Option<String> {
        self.0.card_word(card)
    }
}

/// Plays one judged game against `client` and returns its record. The
/// transcript (if the client was given one) is complete when this returns.
pub fn serve<L: ClientLink>(
    config: &GameConfig,
    client: UniclueClient<L>,
) -> Result<GameRecord, clue_engine::StartError> {
    let mut client = Sticky::new(client);
    let record = {
        let mut seats: Vec<Box<dyn SeatController + '_>> = vec![Box::new(Borrowed(&mut client))];
        clue_engine::play(config, 0, &mut seats)?
    };
    if client.fault().is_none() {
        client.finish(&record);
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_line_that_was_no_command_is_told_to_go_to_stderr() {
        for meant in ["C", "c", "Q3a3", "Q", "q 3 3", "A2539", "a 2 5"] {
            assert!(looks_like_a_command(meant), "{meant}");
        }
        for print in [
            "Querying 3 3 3",
            "Cards: R2 S1",
            "accusing",
            "",
            "hand R2 S1",
            "4",
        ] {
            assert!(!looks_like_a_command(print), "{print}");
        }
    }

    #[test]
    fn commands_parse_with_or_without_spaces() {
        assert_eq!(parse_command("C"), Some(Command::Configuration));
        assert_eq!(parse_command("Q333"), Some(Command::Query([3, 3, 3])));
        assert_eq!(parse_command(" q 2 6 4 "), Some(Command::Query([2, 6, 4])));
        assert_eq!(parse_command("A253"), Some(Command::Accuse([2, 5, 3])));
        for bad in ["", "Q33", "Q3333", "Q733", "Q370", "X123", "C1"] {
            assert_eq!(parse_command(bad), None, "{bad}");
        }
    }
}
