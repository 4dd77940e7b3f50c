//! `builtin:human`: a person at the terminal, in every variant, as the
//! CyberClue ConsolePlayer and the framework's Human.jar offered. It prints
//! what the seat sees and the legal choices, and reads the choice as a
//! number (or a list of numbers) from standard input. On a board with
//! rooms and doors (`csci306`, `classic`) each move is drawn first: the
//! board, every seat's token by its number, and the squares and rooms it
//! may move to marked `[]`, as `clue board show` draws a board. Before each
//! chance to accuse it prints the person's notes: who holds each card, as
//! far as the person has seen (their hand, the cards shown to them, hands
//! revealed to all).

use std::io::{BufRead, Write};

use clue_engine::{Fault, SeatController};
use clue_plugin_api::{
    Accusation, AccusePoint, Card, Category, DqReason, Event, Position, Reply, Request, Seat,
    Setup, SuggestRequest, Suggestion,
};

use clue_arena::narrate::describe;
use clue_board::{Node, RoomBoard};
use clue_runtime::bots::{self, BotKind, BotSpec};
use clue_web::api::Seen;

/// Whether `spec` is a person's seat (`builtin:human`).
pub fn is_person(spec: &BotSpec) -> bool {
    spec.kind == BotKind::Builtin && spec.target == bots::HUMAN
}

/// Seats a bot for `clue play` and `clue framework`: `builtin:human` is the
/// person at this terminal, every other spec goes to [`bots::connect`].
pub fn seat(spec: &BotSpec) -> Result<Box<dyn SeatController>, bots::SpecError> {
    if is_person(spec) {
        Ok(Box::new(ConsoleHuman::stdin()))
    } else {
        bots::connect(spec)
    }
}

/// A person playing one seat through a reader and a writer (the terminal).
pub struct ConsoleHuman<R, W> {
    input: R,
    output: W,
    setup: Option<Setup>,
    /// The board to draw at each move (a board with rooms and doors), and
    /// where each seat's token stands on it.
    board: Option<Drawn>,
    /// Whether the drawing is coloured (the output is a terminal).
    color: bool,
    /// `seen[card]`: the seat the person has seen hold the card.
    seen: Vec<Option<Seat>>,
    /// The person's suggestions and the cards shown to them: what the rules
    /// hold against their next answer (Speed Clue's contest rules).
    record: Seen,
}

/// A board with rooms and doors as the person sees it.
struct Drawn {
    board: RoomBoard,
    /// The room cards, in the board's room order.
    rooms: Vec<Card>,
    /// `at[seat]`: where that seat's token stands.
    at: Vec<Option<Position>>,
}

impl Drawn {
    /// The board of `setup`, if it is one with rooms and doors.
    fn of(setup: &Setup) -> Option<Drawn> {
        let board = RoomBoard::from_view(setup.board.as_ref()?, &setup.deck)?;
        let mut at = vec![None; usize::from(setup.players)];
        for (seat, &start) in at.iter_mut().zip(&setup.starts) {
            *seat = Some(start);
        }
        Some(Drawn {
            board,
            rooms: setup.deck.of(Category::Room),
            at,
        })
    }

    fn node(&self, p: Position) -> Option<Node> {
        self.board.node_of(p, &self.rooms)
    }

    fn moved(&mut self, seat: Seat, to: Position) {
        if let Some(at) = self.at.get_mut(seat.index()) {
            *at = Some(to);
        }
    }

    /// The board with every token (its seat's number) and `targets` marked.
    fn draw(&self, color: bool, targets: &[Position]) -> String {
        let highlight: Vec<Node> = targets.iter().filter_map(|&p| self.node(p)).collect();
        let tokens: Vec<(Node, char)> = self
            .at
            .iter()
            .enumerate()
            .filter_map(|(seat, at)| {
                let letter = char::from_digit(seat as u32, 36)?;
                Some((self.node((*at)?)?, letter))
            })
            .collect();
        self.board.render(color, &highlight, &tokens)
    }
}

/// The terminal closed or could not be written to: the seat cannot answer.
fn gone() -> Fault {
    Fault::new(DqReason::Crash, "the terminal closed")
}

impl ConsoleHuman<std::io::StdinLock<'static>, std::io::Stdout> {
    /// A person at this process's terminal (the board drawn in colour when
    /// standard output is one).
    pub fn stdin() -> Self {
        use std::io::IsTerminal;
        let mut human = ConsoleHuman::new(std::io::stdin().lock(), std::io::stdout());
        human.color = std::io::stdout().is_terminal();
        human
    }
}

impl<R: BufRead, W: Write> ConsoleHuman<R, W> {
    pub fn new(input: R, output: W) -> Self {
        ConsoleHuman {
            input,
            output,
            setup: None,
            board: None,
            color: false,
            seen: Vec::new(),
            record: Seen {
                suggestions: Vec::new(),
                shown: Vec::new(),
            },
        }
    }

    fn say(&mut self, text: &str) -> Result<(), Fault> {
        writeln!(self.output, "{text}")
            .and_then(|_| self.output.flush())
            .map_err(|_| gone())
    }

    fn line(&mut self, prompt: &str) -> Result<String, Fault> {
        write!(self.output, "{prompt} ")
            .and_then(|_| self.output.flush())
            .map_err(|_| gone())?;
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) | Err(_) => Err(gone()),
            Ok(_) => Ok(line.trim().to_string()),
        }
    }

    fn yes(&mut self, prompt: &str, default: bool) -> Result<bool, Fault> {
        loop {
            let answer = self.line(prompt)?.to_ascii_lowercase();
            match answer.as_str() {
                "" => return Ok(default),
                "y" | "yes" => return Ok(true),
                "n" | "no" => return Ok(false),
                _ => self.say("answer y or n")?,
            }
        }
    }

    /// Lists `options` numbered from 1 and reads one choice.
    fn choose(&mut self, what: &str, options: &[String]) -> Result<usize, Fault> {
        for (i, o) in options.iter().enumerate() {
            self.say(&format!("  {:>2}) {o}", i + 1))?;
        }
        loop {
            let answer = self.line(&format!("{what} [1-{}]:", options.len()))?;
            match answer.parse::<usize>() {
                Ok(n) if (1..=options.len()).contains(&n) => return Ok(n - 1),
                _ => self.say(&format!("type a number from 1 to {}", options.len()))?,
            }
        }
    }

    /// Reads a list of distinct numbers from 1 to `len`, `count` of them if given.
    fn choose_many(
        &mut self,
        what: &str,
        len: usize,
        count: Option<usize>,
    ) -> Result<Vec<usize>, Fault> {
        loop {
            let answer = self.line(&format!("{what} (numbers separated by spaces):"))?;
            let picked: Option<Vec<usize>> = answer
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .map(|s| {
                    s.parse::<usize>()
                        .ok()
                        .filter(|n| (1..=len).contains(n))
                        .map(|n| n - 1)
                })
                .collect();
            match picked {
                Some(mut p) if !p.is_empty() => {
                    let n = p.len();
                    p.sort_unstable();
                    p.dedup();
                    if p.len() != n {
                        self.say("name each one once")?;
                    } else if count.is_some_and(|c| c != n) {
                        self.say(&format!("name exactly {}", count.unwrap_or(n)))?;
                    } else {
                        return Ok(p);
                    }
                }
                _ => self.say(&format!("type numbers from 1 to {len}"))?,
            }
        }
    }

    fn setup(&self) -> Result<&Setup, Fault> {
        self.setup.as_ref().ok_or_else(|| {
            Fault::new(
                DqReason::ProtocolError,
                "asked to play before the game began",
            )
        })
    }

    fn names(&self) -> Vec<String> {
        let players = self.setup.as_ref().map_or(0, |s| s.players);
        let me = self.setup.as_ref().map(|s| s.seat);
        (0..players)
            .map(|s| {
                if Some(Seat(s)) == me {
                    // The events' verbs are in the third person ("rolls",
                    // "accuses"): a name, not "you", reads right with them.
                    format!("seat {s} (you)")
                } else {
                    format!("seat {s}")
                }
            })
            .collect()
    }

    fn card_names(&self, cards: &[Card]) -> Result<Vec<String>, Fault> {
        let deck = &self.setup()?.deck;
        Ok(cards.iter().map(|&c| deck.name(c).to_string()).collect())
    }

    fn place(&self, p: Position) -> String {
        match (p, &self.setup) {
            (Position::Room(card), Some(s)) => s.deck.name(card).to_string(),
            (Position::Room(card), None) => card.to_string(),
            (Position::Cell { row, col }, _) => format!("row {row}, column {col}"),
        }
    }

    /// One card of each category; `fixed` is the room the turn names.
    fn pick_cards(&mut self, fixed: Option<Card>) -> Result<Vec<Card>, Fault> {
        let deck = self.setup()?.deck.clone();
        let mut cards = Vec::new();
        for category in deck.categories() {
            if let (Category::Room, Some(room)) = (category, fixed) {
                self.say(&format!("room: {}", deck.name(room)))?;
                cards.push(room);
                continue;
            }
            let options = deck.of(category);
            let names = self.card_names(&options)?;
            let i = self.choose(category.name(), &names)?;
            cards.push(options[i]);
        }
        Ok(cards)
    }

    /// Who holds each card as far as the person has seen, a line a category
    /// (a long one, `generalized`'s items, lists only the cards not seen).
    fn notes(&self) -> Result<String, Fault> {
        let setup = self.setup()?;
        let seen_by = |card: Card| self.seen.get(card.index()).copied().flatten();
        let holder = |card: Card| match seen_by(card) {
            Some(seat) if seat == setup.seat => "you".to_string(),
            Some(seat) => format!("seat {}", seat.0),
            None => "?".to_string(),
        };
        let mut out = String::from("what you have seen (who holds each card; ? not seen):");
        for category in setup.deck.categories() {
            let cards = setup.deck.of(category);
            let line = if cards.len() > 30 {
                let unseen: Vec<&str> = cards
                    .iter()
                    .filter(|&&c| seen_by(c).is_none())
                    .map(|&c| setup.deck.name(c))
                    .collect();
                format!(
                    "{} of {} not seen: {}",
                    unseen.len(),
                    cards.len(),
                    unseen.join(", ")
                )
            } else {
                let named: Vec<String> = cards
                    .iter()
                    .map(|&c| format!("{} ({})", setup.deck.name(c), holder(c)))
                    .collect();
                named.join(", ")
            };
            out.push_str(&format!("\n  {}: {line}", category.name()));
        }
        Ok(out)
    }

    /// Notes what `event` shows the person of who holds which card.
    fn note(&mut self, event: &Event) {
        let me = self.setup.as_ref().map(|s| s.seat);
        let mut saw = |card: Card, seat: Seat| {
            if let Some(slot) = self.seen.get_mut(card.index()) {
                *slot = Some(seat);
            }
        };
        match event {
            Event::Answered {
                suggester,
                shown_by: Some(seat),
                card: Some(card),
                ..
            } if Some(*suggester) == me => {
                saw(*card, *seat);
                self.record.shown.push((*card, *seat));
            }
            Event::HandRevealed { seat, hand } => {
                for &card in hand {
                    saw(card, *seat);
                }
            }
            _ => {}
        }
    }

    /// The person's suggestion (or interrogation) for `r`, or none where
    /// the turn lets them decline.
    fn suggest(&mut self, r: &SuggestRequest) -> Result<Reply, Fault> {
        if r.optional && !self.yes("suggest? [Y/n]", true)? {
            return Ok(Reply::Suggest { suggestion: None });
        }
        if !r.opponents.is_empty() {
            let names = self.names();
            let options: Vec<String> = r
                .opponents
                .iter()
                .map(|s| names.get(s.index()).cloned().unwrap_or_default())
                .collect();
            let target = r.opponents[self.choose("interrogate", &options)?];
            let deck = self.setup()?.deck.clone();
            let all: Vec<Card> = deck.all().collect();
            let names = self.card_names(&all)?;
            for (i, n) in names.iter().enumerate() {
                self.say(&format!("  {:>2}) {n}", i + 1))?;
            }
            let picked = self.choose_many("items to ask about", all.len(), None)?;
            return Ok(Reply::Suggest {
                suggestion: Some(Suggestion {
                    cards: picked.into_iter().map(|i| all[i]).collect(),
                    target: Some(target),
                }),
            });
        }
        let cards = self.pick_cards(r.turn.room)?;
        Ok(Reply::Suggest {
            suggestion: Some(Suggestion {
                cards,
                target: None,
            }),
        })
    }

    /// Whether `reply` to `request` keeps the rules; if not, the person is
    /// told why in their words, as the web page tells them, and asked again
    /// (the engine would disqualify the seat for it).
    fn lawful(&mut self, request: &Request, reply: &Reply) -> Result<bool, Fault> {
        match clue_web::api::check(self.setup()?, &self.record, request, reply) {
            Ok(()) => Ok(true),
            Err(why) => {
                self.say(&why)?;
                Ok(false)
            }
        }
    }

    fn accuse(&mut self, point: AccusePoint) -> Result<Option<Accusation>, Fault> {
        let notes = self.notes()?;
        self.say(&notes)?;
        let forced = point == AccusePoint::Forced;
        if forced {
            self.say("you must accuse now")?;
        } else if !self.yes("accuse now? [y/N]", false)? {
            return Ok(None);
        }
        let setup = self.setup()?.clone();
        if setup.deck.categories() == [Category::Item] {
            let k = usize::from(setup.rules.hidden.first().copied().unwrap_or(1));
            let names = self.card_names(&setup.deck.all().collect::<Vec<_>>())?;
            for (i, n) in names.iter().enumerate() {
                self.say(&format!("  {:>2}) {n}", i + 1))?;
            }
            let picked =
                self.choose_many(&format!("the {k} hidden items"), names.len(), Some(k))?;
            return Ok(Some(Accusation {
                cards: picked.into_iter().map(|i| Card(i as u16)).collect(),
            }));
        }
        Ok(Some(Accusation {
            cards: self.pick_cards(None)?,
        }))
    }
}

impl<R: BufRead, W: Write> SeatController for ConsoleHuman<R, W> {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        match request {
            Request::BeginGame { setup } => {
                self.setup = Some((**setup).clone());
                self.board = Drawn::of(setup);
                self.seen = vec![None; setup.deck.len()];
                for &card in &setup.hand {
                    if let Some(slot) = self.seen.get_mut(card.index()) {
                        *slot = Some(setup.seat);
                    }
                }
                let hand = self.card_names(&setup.hand)?.join(", ");
                self.say(&format!(
                    "{} game, {} players; you are seat {}. Your hand: {hand}",
                    setup.variant, setup.players, setup.seat.0
                ))?;
                Ok(Reply::Ok)
            }
            Request::Watch { event } => {
                self.note(event);
                if let Some(board) = self.board.as_mut() {
                    match *event {
                        Event::Moved { seat, to } => board.moved(seat, to),
                        Event::TokenMoved {
                            summoned: Some(seat),
                            to,
                            ..
                        } => board.moved(seat, to),
                        _ => {}
                    }
                }
                let names = self.names();
                let text = describe(event, &self.setup()?.deck, &names);
                self.say(&format!("* {text}"))?;
                Ok(Reply::Ok)
            }
            Request::Accuse(r) => loop {
                let reply = Reply::Accuse {
                    accusation: self.accuse(r.point)?,
                };
                if self.lawful(request, &reply)? {
                    return Ok(reply);
                }
            },
            Request::Move(r) => {
                if let Some(roll) = r.turn.roll {
                    self.say(&format!("you rolled {roll}"))?;
                }
                if let Some(board) = &self.board {
                    let drawing = board.draw(self.color, &r.targets);
                    let me = self.setup()?.seat.0;
                    write!(self.output, "{drawing}").map_err(|_| gone())?;
                    self.say(&format!(
                        "tokens are seats by number (you are {me}); [] marks where you may move"
                    ))?;
                }
                if let Some(at) = r.turn.position {
                    let here = self.place(at);
                    self.say(&format!("you are at {here}"))?;
                }
                let options: Vec<String> = r.targets.iter().map(|&p| self.place(p)).collect();
                let i = self.choose("move to", &options)?;
                Ok(Reply::Move { to: r.targets[i] })
            }
            Request::Suggest(r) => loop {
                let reply = self.suggest(r)?;
                if self.lawful(request, &reply)? {
                    if let Reply::Suggest {
                        suggestion: Some(suggestion),
                    } = &reply
                    {
                        self.record.suggestions.push(suggestion.clone());
                    }
                    return Ok(reply);
                }
            },
            Request::Respond(r) => {
                let asked = self.card_names(&r.suggestion.cards)?.join(", ");
                self.say(&format!("seat {} suggests {asked}", r.suggester.0))?;
                let options = self.card_names(&r.matching)?;
                let i = self.choose("show", &options)?;
                Ok(Reply::Respond {
                    card: Some(r.matching[i]),
                })
            }
        }
    }
}
