//! The entrant side of the 2014 Speed Clue contest protocol
//! (`docs/speedclue.md`): any bot connects to a contest server's port, says
//! `ID alive`, and answers the server's lines. The bot gets the requests and
//! events it would get seated in a `speedclue` game on the host: each
//! `reset` begins a game (with a freshly seated bot), `suggest` asks for its
//! suggestion, `disprove` for the card to show, `accuse` whether to accuse,
//! and the `suggestion` and `accusation` lines become the events it watches.
//!
//! [`play`] is the mirror of [`super::speedclue::SpeedclueBot`].

use std::io::{BufRead, Write};

use clue_engine::{Fault, GameConfig, SeatController, deal::hand_size, decks};
use clue_plugin_api::{
    Accusation, AccusePoint, AccuseRequest, Card, Event, Reply, Request, RespondRequest, Seat,
    Setup, SuggestRequest, Suggestion, Turn, Variant,
};

use super::server_lines::{BadLine, ServerLines};
use super::speedclue::{card, code};
pub use super::speedclue_frame::SUGGEST_GRACE;
use super::speedclue_frame::frame;

/// What the entrant is told on its command line, and what it assumes.
#[derive(Clone, Debug)]
pub struct EntrantOptions {
    /// The identifier the server launched the entrant with (`ID alive`).
    pub id: String,
    /// The seed the bot is given for its own random choices.
    pub seed: u64,
    /// Whether the server plays the contest rules (the 2014 contest did).
    pub contest_rules: bool,
}

/// How a connection ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EntrantSummary {
    /// Games begun (`reset`).
    pub games: u32,
    /// Games this entrant won by a correct accusation.
    pub won: u32,
}

/// Why the entrant stopped before the server closed the connection.
#[derive(Debug, thiserror::Error)]
pub enum EntrantError {
    #[error("cannot talk to the server: {0}")]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    BadLine(#[from] BadLine),
    #[error("cannot seat the bot: {0}")]
    Seat(String),
    #[error("the bot failed ({}): {}", .0.reason, .0.detail)]
    Bot(Fault),
    #[error("the bot {}", clue_engine::validate::wrong_kind(request, reply))]
    WrongReply {
        request: &'static str,
        reply: &'static str,
    },
    #[error("the bot declined to suggest, which the protocol cannot say")]
    Declined,
    #[error("the bot showed {0}, which is not a card it holds from the suggestion")]
    BadShow(String),
}

/// One game in progress.
struct Game {
    bot: Box<dyn SeatController>,
    me: Seat,
    players: u8,
    hand: Vec<Card>,
    round: u32,
    /// The seat whose turn it was last, to count rounds.
    last_turn: Option<Seat>,
    /// The suggestion the bot has been told about and not yet the answer to.
    open: Option<(Seat, Vec<Card>)>,
    /// This bot's last suggestion: its cards and whether someone disproved it.
    mine: Option<(Vec<Card>, bool)>,
    /// Players out after a wrong accusation.
    out: Vec<bool>,
    /// The server's next message may be `suggest` (see [`frame`]).
    my_turn: bool,
}

impl Game {
    /// Whether this player is the next to move after `seat`'s turn: the
    /// first player after `seat` still in the game.
    fn next_is_me(&self, seat: Seat) -> bool {
        let players = usize::from(self.players);
        (1..=players)
            .map(|i| (seat.index() + i) % players)
            .find(|&s| !self.out.get(s).copied().unwrap_or(false))
            .is_some_and(|s| s == self.me.index())
    }

    fn ask(&mut self, request: &Request) -> Result<Reply, EntrantError> {
        self.bot.call(request).map_err(EntrantError::Bot)
    }

    fn tell(&mut self, event: Event) -> Result<(), EntrantError> {
        self.ask(&Request::Watch { event }).map(|_| ())
    }

    fn turn(&self, seat: Seat) -> Turn {
        Turn {
            seat,
            round: self.round,
            roll: None,
            position: None,
            room: None,
        }
    }

    /// A turn begins: count the round and tell the bot.
    fn begin_turn(&mut self, seat: Seat) -> Result<(), EntrantError> {
        if self.last_turn.is_some_and(|last| seat <= last) {
            self.round += 1;
        }
        self.last_turn = Some(seat);
        let round = self.round;
        self.tell(Event::TurnBegan {
            seat,
            round,
            roll: None,
            room: None,
        })
    }

    /// Another seat's suggestion, told once (before the disprove it may need).
    fn suggested(&mut self, seat: Seat, cards: &[Card]) -> Result<(), EntrantError> {
        if self.open.is_some() {
            return Ok(());
        }
        if seat != self.me {
            self.begin_turn(seat)?;
        }
        self.open = Some((seat, cards.to_vec()));
        self.tell(Event::Suggested {
            seat,
            suggestion: Suggestion {
                cards: cards.to_vec(),
                target: None,
            },
        })
    }
}

fn wrong(request: &Request, reply: &Reply) -> EntrantError {
    EntrantError::WrongReply {
        request: request.kind(),
        reply: reply.kind(),
    }
}

fn codes(cards: &[Card]) -> String {
    cards.iter().map(|&c| code(c)).collect::<Vec<_>>().join(" ")
}

/// A parsed server line.
enum Message {
    Reset {
        players: u8,
        seat: Seat,
        hand: Vec<Card>,
    },
    Suggest,
    Disprove {
        seat: Seat,
        cards: Vec<Card>,
    },
    Suggestion {
        seat: Seat,
        cards: Vec<Card>,
        shown_by: Option<Seat>,
        card: Option<Card>,
    },
    Accuse,
    Accusation {
        seat: Seat,
        cards: Vec<Card>,
        correct: bool,
    },
    Done,
}

const EXPECTED: &str =
    "`reset`, `suggest`, `disprove`, `suggestion`, `accuse`, `accusation` or `done`";

fn parse(line: &str) -> Option<Message> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let seat = |w: &str| w.parse::<u8>().ok().filter(|&s| s < 6).map(Seat);
    let triple = |ws: &[&str]| -> Option<Vec<Card>> {
        let cards: Vec<Card> = ws.iter().map(|w| card(w)).collect::<Option<_>>()?;
        (cards.len() == 3).then_some(cards)
    };
    Some(match words.as_slice() {
        ["reset", players, me, hand @ ..] => {
            let players: u8 = players.parse().ok().filter(|p| (3..=6).contains(p))?;
            let seat = seat(me).filter(|s| s.0 < players)?;
            let hand: Vec<Card> = hand.iter().map(|w| card(w)).collect::<Option<_>>()?;
            Message::Reset {
                players,
                seat,
                hand,
            }
        }
        ["suggest"] => Message::Suggest,
        ["disprove", p, s, w, r] => Message::Disprove {
            seat: seat(p)?,
            cards: triple(&[s, w, r])?,
        },
        ["suggestion", p, s, w, r, d, rest @ ..] if rest.len() <= 1 => Message::Suggestion {
            seat: seat(p)?,
            cards: triple(&[s, w, r])?,
            shown_by: if *d == "-" { None } else { Some(seat(d)?) },
            card: match rest {
                [x] => Some(card(x).filter(|_| *d != "-")?),
                _ => None,
            },
        },
        ["accuse"] => Message::Accuse,
        ["accusation", p, s, w, r, verdict] => Message::Accusation {
            seat: seat(p)?,
            cards: triple(&[s, w, r])?,
            correct: match *verdict {
                "+" => true,
                "-" => false,
                _ => return None,
            },
        },
        ["done"] => Message::Done,
        _ => return None,
    })
}

/// Plays as an entrant until the server closes the connection: `ID alive`
/// first, then one answer per server line. `seat` seats a fresh bot for
/// each game.
pub fn play<R, W, F>(
    mut seat: F,
    input: R,
    output: W,
    options: &EntrantOptions,
) -> Result<EntrantSummary, EntrantError>
where
    R: BufRead,
    W: Write,
    F: FnMut() -> Result<Box<dyn SeatController>, String>,
{
    let deck = decks::classic();
    let mut server = ServerLines::contest(input, output);
    server.say(&format!("{} alive", options.id))?;
    let mut summary = EntrantSummary::default();
    let mut game: Option<Game> = None;
    loop {
        let me = game.as_ref().map(|g| g.me.0);
        let my_turn = game.as_ref().is_some_and(|g| g.my_turn);
        let Some(line) = server.hear_message(|m| frame(m, me, my_turn))? else {
            break;
        };
        let message = parse(&line).ok_or_else(|| server.bad(&line, EXPECTED))?;
        if let Message::Reset {
            players,
            seat: me,
            hand,
        } = message
        {
            let dealt = deck.len() - 3;
            let players_n = usize::from(players);
            let hand_sizes: Vec<u8> = (0..players_n)
                .map(|s| hand_size(dealt, players_n, s) as u8)
                .collect();
            if hand.len() != usize::from(hand_sizes[me.index()]) {
                let expected = format!(
                    "a hand of {} cards for player {} of {players}",
                    hand_sizes[me.index()],
                    me.0
                );
                return Err(server.bad(&line, expected).into());
            }
            let setup = Setup {
                variant: Variant::Speedclue,
                rules: {
                    let mut config = GameConfig::new(Variant::Speedclue, players);
                    config.speedclue.contest_rules = options.contest_rules;
                    config.rules(&deck)
                },
                players,
                seat: me,
                deck: deck.clone(),
                hand: hand.clone(),
                hand_sizes,
                board: None,
                starts: Vec::new(),
                seed: options.seed.wrapping_add(u64::from(summary.games)),
            };
            // The last game's bot goes before the next one is seated.
            drop(game.take());
            let mut fresh = Game {
                bot: seat().map_err(EntrantError::Seat)?,
                me,
                players,
                hand,
                round: 1,
                last_turn: None,
                open: None,
                mine: None,
                out: vec![false; players_n],
                my_turn: me.0 == 0,
            };
            let begin = Request::BeginGame {
                setup: Box::new(setup),
            };
            match fresh.ask(&begin)? {
                Reply::Ok => {}
                other => return Err(wrong(&begin, &other)),
            }
            game = Some(fresh);
            summary.games += 1;
            server.say("ok")?;
            continue;
        }
        let Some(g) = game.as_mut() else {
            return Err(server.bad(&line, "`reset` (no game has begun)").into());
        };
        let players = g.players;
        let in_game = |s: Seat| s.0 < players;
        // Whose turn may come next is known again below where it can change.
        g.my_turn = false;
        let answer = match message {
            Message::Reset { .. } => unreachable!("handled above"),
            Message::Suggest => {
                let me = g.me;
                g.begin_turn(me)?;
                let request = Request::Suggest(SuggestRequest {
                    turn: g.turn(me),
                    optional: false,
                    opponents: Vec::new(),
                });
                match g.ask(&request)? {
                    Reply::Suggest {
                        suggestion: Some(s),
                    } => format!("suggest {}", codes(&s.cards)),
                    Reply::Suggest { suggestion: None } => return Err(EntrantError::Declined),
                    other => return Err(wrong(&request, &other)),
                }
            }
            Message::Disprove { seat, cards } => {
                if !in_game(seat) || seat == g.me {
                    return Err(server.bad(&line, "another player's number").into());
                }
                g.suggested(seat, &cards)?;
                let matching: Vec<Card> = g
                    .hand
                    .iter()
                    .copied()
                    .filter(|c| cards.contains(c))
                    .collect();
                if matching.is_empty() {
                    return Err(server
                        .bad(&line, "a suggestion naming a card this player holds")
                        .into());
                }
                let request = Request::Respond(RespondRequest {
                    suggester: seat,
                    suggestion: Suggestion {
                        cards,
                        target: None,
                    },
                    matching: matching.clone(),
                });
                match g.ask(&request)? {
                    Reply::Respond { card: Some(c) } if matching.contains(&c) => {
                        format!("show {}", code(c))
                    }
                    Reply::Respond { card } => {
                        let shown = card.map_or("nothing".to_string(), |c| code(c).to_string());
                        return Err(EntrantError::BadShow(shown));
                    }
                    other => return Err(wrong(&request, &other)),
                }
            }
            Message::Suggestion {
                seat,
                cards,
                shown_by,
                card,
            } => {
                if !in_game(seat) || shown_by.is_some_and(|s| !in_game(s) || s == seat) {
                    return Err(server.bad(&line, "players of this game").into());
                }
                g.suggested(seat, &cards)?;
                let passed: Vec<Seat> = (1..g.players)
                    .map(|i| Seat((seat.0 + i) % g.players))
                    .take_while(|&s| Some(s) != shown_by)
                    .collect();
                g.open = None;
                if seat == g.me {
                    g.mine = Some((cards, shown_by.is_some()));
                }
                g.my_turn = g.next_is_me(seat);
                g.tell(Event::Answered {
                    suggester: seat,
                    passed,
                    shown_by,
                    card,
                })?;
                "ok".to_string()
            }
            Message::Accuse => {
                let me = g.me;
                let forced = options.contest_rules
                    && g.mine.as_ref().is_some_and(|(cards, disproved)| {
                        !disproved && !cards.iter().any(|c| g.hand.contains(c))
                    });
                let request = Request::Accuse(AccuseRequest {
                    turn: g.turn(me),
                    point: if forced {
                        AccusePoint::Forced
                    } else {
                        AccusePoint::AfterSuggestion
                    },
                });
                match g.ask(&request)? {
                    Reply::Accuse { accusation: None } => "-".to_string(),
                    Reply::Accuse {
                        accusation: Some(Accusation { cards }),
                    } => format!("accuse {}", codes(&cards)),
                    other => return Err(wrong(&request, &other)),
                }
            }
            Message::Accusation {
                seat,
                cards,
                correct,
            } => {
                if !in_game(seat) {
                    return Err(server.bad(&line, "a player of this game").into());
                }
                if correct && seat == g.me {
                    summary.won += 1;
                }
                if !correct {
                    g.out[seat.index()] = true;
                    g.my_turn = !g.out[g.me.index()] && g.next_is_me(seat);
                }
                g.tell(Event::Accused {
                    seat,
                    accusation: Some(Accusation { cards }),
                    correct: Some(correct),
                })?;
                "ok".to_string()
            }
            Message::Done => {
                g.tell(Event::GameOver {
                    winner: None,
                    ranking: Vec::new(),
                    envelope: Vec::new(),
                })?;
                game = None;
                "dead".to_string()
            }
        };
        server.say(&answer)?;
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_lines_parse() {
        assert!(matches!(
            parse("reset 3 0 Pl Ro Ki Wh Ca Ba"),
            Some(Message::Reset { players: 3, seat: Seat(0), ref hand }) if hand.len() == 6
        ));
        assert!(matches!(
            parse("suggestion 0 Gr Kn Di 1 Kn"),
            Some(Message::Suggestion {
                shown_by: Some(Seat(1)),
                card: Some(Card(7)),
                ..
            })
        ));
        assert!(matches!(
            parse("suggestion 2 Gr Kn Di -"),
            Some(Message::Suggestion {
                shown_by: None,
                card: None,
                ..
            })
        ));
        assert!(matches!(
            parse("accusation 2 Mu Pi St -"),
            Some(Message::Accusation { correct: false, .. })
        ));
        for bad in [
            "",
            "reset 9 0",
            "reset 3 4 Pl",
            "suggest Gr",
            "suggestion 0 Gr Kn 1",
            "suggestion 0 Gr Kn Di - Kn",
            "accusation 1 Gr Kn Di ?",
            "hello",
        ] {
            assert!(parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn the_turn_after_a_suggestion_is_known() {
        let game = |me: u8, out: Vec<bool>| Game {
            bot: crate::bots::builtin("notebook").expect("a built-in bot"),
            me: Seat(me),
            players: 4,
            hand: Vec::new(),
            round: 1,
            last_turn: None,
            open: None,
            mine: None,
            out,
            my_turn: false,
        };
        assert!(game(1, vec![false; 4]).next_is_me(Seat(0)));
        assert!(!game(2, vec![false; 4]).next_is_me(Seat(0)));
        // Player 1 is out: player 2 moves after player 0.
        assert!(game(2, vec![false, true, false, false]).next_is_me(Seat(0)));
        assert!(game(0, vec![false; 4]).next_is_me(Seat(3)));
    }

    /// A server's reads: one chunk per `read`.
    struct Chunks(std::collections::VecDeque<Vec<u8>>);

    impl std::io::Read for Chunks {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some(chunk) = self.0.pop_front() else {
                return Ok(0);
            };
            let n = chunk.len().min(buf.len());
            buf[..n].copy_from_slice(&chunk[..n]);
            if n < chunk.len() {
                self.0.push_front(chunk[n..].to_vec());
            }
            Ok(n)
        }
    }

    fn said_to_reads(reads: &[&str]) -> String {
        let mut said = Vec::new();
        let options = EntrantOptions {
            id: "Sleuth".to_string(),
            seed: 0,
            contest_rules: true,
        };
        let seat = || crate::bots::builtin("notebook").ok_or_else(|| "no bot".to_string());
        let input = std::io::BufReader::new(Chunks(
            reads.iter().map(|r| r.as_bytes().to_vec()).collect(),
        ));
        let result = play(seat, input, &mut said, &options);
        let said = String::from_utf8_lossy(&said).into_owned();
        assert!(result.is_ok(), "{result:?}; said {said}");
        said
    }

    #[test]
    fn cut_and_joined_server_messages_are_answered() {
        let said = said_to_reads(&["reset 3 1 Pl Ro Ki Wh Ca Ba", "suggest", "ion 0 Gr Kn Di 2"]);
        assert_eq!(said, "Sleuth aliveokok");
        let said = said_to_reads(&["reset 3 1 Pl Ro Ki Wh Ca Badisprove 0 Pl Ro Ha"]);
        assert!(
            said == "Sleuth aliveokshow Pl" || said == "Sleuth aliveokshow Ro",
            "{said}"
        );
    }
}
