//! The client side of the 2006 UniClue problem (`seeds/001`, `docs/uniclue.md`):
//! any bot, seated as player 1, plays against the judges' server (their
//! `test4`, or `clue uniclue serve`) over a pair of line streams. The client
//! says `C`, reads the configuration, then for each room the server names
//! asks the bot whether to accuse (`Aswr`) or what to query (`Qswr`), and
//! tells it the answers as the engine would: the same requests and events a
//! bot gets when it is seated in a `uniclue` game on the host.
//!
//! [`play`] is the mirror of [`super::uniclue::serve`]: one game, then the
//! verdict.

use std::io::{BufRead, Write};

use clue_engine::{Fault, GameConfig, SeatController, deal::hand_size, decks};
use clue_plugin_api::{
    Accusation, AccusePoint, AccuseRequest, Card, Category, Deck, Event, Reply, Request, Seat,
    Setup, SuggestRequest, Suggestion, Turn, Variant,
};

use super::server_lines::{BadLine, ServerLines};
use super::uniclue::{number, parse_code};

/// What the client knows before the game.
#[derive(Clone, Debug, Default)]
pub struct ClientOptions {
    /// The seed the bot is given for its own random choices.
    pub seed: u64,
}

/// How a game ended for the client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The server said `Victory`.
    Victory,
    /// The server said `Disqualified` (a wrong accusation, a query outside the
    /// room, or a query over the limit).
    Disqualified,
}

/// The end of a game: the verdict and the queries made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientOutcome {
    pub verdict: Verdict,
    pub queries: u32,
}

/// Why the client stopped before a verdict.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("cannot talk to the server: {0}")]
    Io(#[from] std::io::Error),
    #[error("the server closed the connection while the client waited for {0}")]
    Closed(&'static str),
    #[error(transparent)]
    BadLine(#[from] BadLine),
    #[error("the bot failed ({}): {}", .0.reason, .0.detail)]
    Bot(Fault),
    #[error("the bot {}", clue_engine::validate::wrong_kind(request, reply))]
    WrongReply {
        request: &'static str,
        reply: &'static str,
    },
    #[error("the bot declined to query, which the protocol cannot say")]
    Declined,
    #[error("the bot named {0}, which is not one suspect, one weapon and one room")]
    NotATriple(String),
}

/// `[S, W, R]` to the digits of `Qswr`/`Aswr`.
fn digits(deck: &Deck, cards: &[Card]) -> Result<String, ClientError> {
    let names = || {
        let names: Vec<&str> = cards.iter().map(|&c| deck.name(c)).collect();
        format!("[{}]", names.join(", "))
    };
    let order = [Category::Person, Category::Weapon, Category::Room];
    if cards.len() != 3 {
        return Err(ClientError::NotATriple(names()));
    }
    let mut text = String::new();
    for (&card, category) in cards.iter().zip(order) {
        match number(deck, card) {
            Some(n) if deck.category(card) == Some(category) => text.push_str(&n.to_string()),
            _ => return Err(ClientError::NotATriple(names())),
        }
    }
    Ok(text)
}

fn ask(bot: &mut dyn SeatController, request: &Request) -> Result<Reply, ClientError> {
    bot.call(request).map_err(ClientError::Bot)
}

fn tell(bot: &mut dyn SeatController, event: Event) -> Result<(), ClientError> {
    ask(bot, &Request::Watch { event }).map(|_| ())
}

fn wrong(request: &Request, reply: &Reply) -> ClientError {
    ClientError::WrongReply {
        request: request.kind(),
        reply: reply.kind(),
    }
}

/// Plays one game as player 1: commands to `output`, the server's lines from
/// `input`. Returns the server's verdict, or why the game could not go on.
pub fn play<R: BufRead, W: Write>(
    bot: &mut dyn SeatController,
    input: R,
    output: W,
    options: &ClientOptions,
) -> Result<ClientOutcome, ClientError> {
    let deck = decks::classic();
    let mut server = ServerLines::new(input, output);
    server.say("C")?;
    let line = hear(&mut server, "the number of players")?;
    let players: u8 = line
        .trim()
        .parse()
        .ok()
        .filter(|p| (3..=6).contains(p))
        .ok_or_else(|| server.bad(&line, "the number of players (3 to 6)"))?;
    let line = hear(&mut server, "the client's hand")?;
    let hand: Vec<Card> = line
        .split_whitespace()
        .map(|code| parse_code(&deck, code))
        .collect::<Option<_>>()
        .filter(|hand: &Vec<Card>| {
            let mut sorted = hand.clone();
            sorted.sort();
            sorted.dedup();
            !hand.is_empty() && sorted.len() == hand.len() && hand.len() <= 18
        })
        .ok_or_else(|| server.bad(&line, "the client's hand (distinct cards like S1 W2 R3)"))?;
    // The server deals one card at a time from player 1: the other hands
    // share the rest the same way.
    let players_n = usize::from(players);
    let dealt = deck.len() - 3;
    let mut hand_sizes = vec![hand.len() as u8];
    hand_sizes
        .extend((0..players_n - 1).map(|i| hand_size(dealt - hand.len(), players_n - 1, i) as u8));
    let mut room = read_room(&mut server, &deck)?;

    let setup = Setup {
        variant: Variant::Uniclue,
        // The judges' game: the engine's UniClue rules, the query limit 42.
        rules: GameConfig::new(Variant::Uniclue, players).rules(&deck),
        players,
        seat: Seat(0),
        deck: deck.clone(),
        hand,
        hand_sizes,
        board: None,
        starts: Vec::new(),
        seed: options.seed,
    };
    let begin = Request::BeginGame {
        setup: Box::new(setup),
    };
    match ask(bot, &begin)? {
        Reply::Ok => {}
        other => return Err(wrong(&begin, &other)),
    }

    let mut queries = 0;
    let mut round = 0;
    loop {
        round += 1;
        let turn = Turn {
            seat: Seat(0),
            round,
            roll: None,
            position: None,
            room: Some(room),
        };
        tell(
            bot,
            Event::TurnBegan {
                seat: Seat(0),
                round,
                roll: None,
                room: Some(room),
            },
        )?;
        let request = Request::Accuse(AccuseRequest {
            turn: turn.clone(),
            point: AccusePoint::StartOfTurn,
        });
        match ask(bot, &request)? {
            Reply::Accuse {
                accusation: Some(accusation),
            } => {
                let verdict = accuse(bot, &mut server, &deck, accusation)?;
                return Ok(ClientOutcome { verdict, queries });
            }
            Reply::Accuse { accusation: None } => {}
            other => return Err(wrong(&request, &other)),
        }
        let request = Request::Suggest(SuggestRequest {
            turn,
            optional: false,
            opponents: Vec::new(),
        });
        let suggestion = match ask(bot, &request)? {
            Reply::Suggest {
                suggestion: Some(suggestion),
            } => suggestion,
            Reply::Suggest { suggestion: None } => return Err(ClientError::Declined),
            other => return Err(wrong(&request, &other)),
        };
        server.say(&format!("Q{}", digits(&deck, &suggestion.cards)?))?;
        queries += 1;
        let Some(answered) = answers(&mut server, &deck, &suggestion, players)? else {
            finish(bot, None, Vec::new())?;
            return Ok(ClientOutcome {
                verdict: Verdict::Disqualified,
                queries,
            });
        };
        tell(
            bot,
            Event::Suggested {
                seat: Seat(0),
                suggestion,
            },
        )?;
        tell(bot, answered)?;
        room = read_room(&mut server, &deck)?;
    }
}

/// Reads the answers to a query: `p--` for each player without an alibi, up
/// to the first `pXn`. `None` when the server said `Disqualified` instead.
fn answers<R: BufRead, W: Write>(
    server: &mut ServerLines<R, W>,
    deck: &Deck,
    suggestion: &Suggestion,
    players: u8,
) -> Result<Option<Event>, ClientError> {
    let mut passed = Vec::new();
    for p in 2..=players {
        let line = hear(server, "an answer to the query")?;
        if p == 2 && line.trim() == "Disqualified" {
            return Ok(None);
        }
        let expected = || format!("player {p}'s answer (`{p}--` or `{p}` and a queried card)");
        let Some(rest) = line.trim().strip_prefix(&p.to_string()) else {
            return Err(server.bad(&line, expected()).into());
        };
        if rest == "--" {
            passed.push(Seat(p - 1));
            continue;
        }
        let card = parse_code(deck, rest)
            .filter(|c| suggestion.cards.contains(c))
            .ok_or_else(|| server.bad(&line, expected()))?;
        return Ok(Some(Event::Answered {
            suggester: Seat(0),
            passed,
            shown_by: Some(Seat(p - 1)),
            card: Some(card),
        }));
    }
    Ok(Some(Event::Answered {
        suggester: Seat(0),
        passed,
        shown_by: None,
        card: None,
    }))
}

/// Sends `Aswr` and reads the verdict.
fn accuse<R: BufRead, W: Write>(
    bot: &mut dyn SeatController,
    server: &mut ServerLines<R, W>,
    deck: &Deck,
    accusation: Accusation,
) -> Result<Verdict, ClientError> {
    server.say(&format!("A{}", digits(deck, &accusation.cards)?))?;
    let line = hear(server, "the verdict")?;
    let verdict = match line.trim() {
        "Victory" => Verdict::Victory,
        "Disqualified" => Verdict::Disqualified,
        _ => return Err(server.bad(&line, "`Victory` or `Disqualified`").into()),
    };
    let correct = verdict == Verdict::Victory;
    let envelope = if correct {
        accusation.cards.clone()
    } else {
        Vec::new()
    };
    tell(
        bot,
        Event::Accused {
            seat: Seat(0),
            accusation: Some(accusation),
            correct: Some(correct),
        },
    )?;
    finish(bot, correct.then_some(Seat(0)), envelope)?;
    Ok(verdict)
}

/// Tells the bot the game is over (the envelope only when the client found it).
fn finish(
    bot: &mut dyn SeatController,
    winner: Option<Seat>,
    envelope: Vec<Card>,
) -> Result<(), ClientError> {
    tell(
        bot,
        Event::GameOver {
            winner,
            ranking: winner.into_iter().collect(),
            envelope,
        },
    )
}

/// The next server line; the server closing while the client is
/// `waiting_for` something is an error.
fn hear<R: BufRead, W: Write>(
    server: &mut ServerLines<R, W>,
    waiting_for: &'static str,
) -> Result<String, ClientError> {
    server.hear()?.ok_or(ClientError::Closed(waiting_for))
}

/// A room number line (1 to 9).
fn read_room<R: BufRead, W: Write>(
    server: &mut ServerLines<R, W>,
    deck: &Deck,
) -> Result<Card, ClientError> {
    let line = hear(server, "a room number")?;
    line.trim()
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| deck.of(Category::Room).get(i).copied())
        .ok_or_else(|| server.bad(&line, "a room number (1 to 9)").into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_digits_follow_the_classic_deck() {
        let deck = decks::classic();
        assert_eq!(parse_code(&deck, "S1"), Some(Card(0)));
        assert_eq!(parse_code(&deck, "W6"), Some(Card(11)));
        assert_eq!(parse_code(&deck, "R9"), Some(Card(20)));
        for bad in ["S0", "S7", "R10", "X1", "", "S", "s1"] {
            assert_eq!(parse_code(&deck, bad), None, "{bad}");
        }
        let triple = [Card(1), Card(10), Card(14)];
        assert_eq!(digits(&deck, &triple).ok(), Some("253".to_string()));
        assert!(digits(&deck, &[Card(1), Card(2), Card(14)]).is_err());
        assert!(digits(&deck, &[Card(1)]).is_err());
    }
}
