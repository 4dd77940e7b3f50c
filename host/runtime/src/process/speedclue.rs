//! The 2014 Speed Clue contest protocol (`docs/speedclue.md`): the host
//! listens on a loopback port, starts the bot from its launch line, waits for
//! `ID alive` on the connection, then speaks one message each way:
//! `reset`/`ok`, `suggest`/`suggest S W R`, `disprove`/`show X`,
//! `suggestion`/`ok`, `accuse`/`-` or `accuse S W R`, `accusation`/`ok`,
//! `done`/`dead`.
//!
//! Framing is the contest's (its `Player.java` and `SpeedClueAI.java`): a
//! message is what one read delivers, NULs stripped, no line terminator. A
//! bot that ends its `ID alive` with a newline is spoken to in lines (the
//! Python port's line messager); one that does not gets bare messages. An
//! answer ends at a newline, or once it is as long as a whole answer to
//! what was asked (the lengths the contest's server checks), so an answer
//! split across reads is put together again (see `Framer`).

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use clue_engine::Fault;
use clue_plugin_api::{
    Accusation, AccusePoint, Card, DqReason, Event, Reply, Request, Seat, Suggestion,
};

use super::output::{self, Output};
use super::{
    BotProcess, ProcessLimits, SpawnError, StderrTap, Waiter, Waiting, clip, split_command,
};
use crate::sticky::{Exchange, Sticky};

/// The 2014 card codes, in the classic deck's id order (ids are alphabetical).
pub const CODES: [&str; 21] = [
    "Gr", "Mu", "Pe", "Pl", "Sc", "Wh", // suspects
    "Ca", "Kn", "Pi", "Re", "Ro", "Wr", // weapons
    "Ba", "Bi", "Co", "Di", "Ha", "Ki", "Li", "Lo", "St", // rooms
];

pub fn code(card: Card) -> &'static str {
    CODES.get(card.index()).copied().unwrap_or("??")
}

pub fn card(code: &str) -> Option<Card> {
    CODES
        .iter()
        .position(|c| c.eq_ignore_ascii_case(code))
        .map(|i| Card(i as u16))
}

/// The launch line with `{ID}` and `%%` filled in, as the contest's servers
/// (`EntryScript.java`, `TestServer.java`) fill in a launch file's line: the
/// first `{ID}` (`\{([^}]+)\}`: something, and no `}`, between braces) gives
/// the identifier, and every such group is replaced by it; `%%` is the port.
/// A line with neither gets `ID PORT` appended (the servers refuse a line
/// with no identifier); one with braces but no `%%` gets the port; one with
/// `%%` and no identifier is refused ([`launch_refused`]). Returns the
/// words and the identifier.
pub fn launch_words(
    line: &str,
    default_id: &str,
    port: u16,
) -> Result<(Vec<String>, String), SpawnError> {
    if let Some(message) = launch_refused(line) {
        return Err(SpawnError::Split {
            line: line.to_string(),
            message,
        });
    }
    let words = split_command(line)?;
    let mut id: Option<String> = None;
    let mut has_port = false;
    let mut out = Vec::with_capacity(words.len() + 2);
    for word in words {
        let mut filled = String::with_capacity(word.len());
        let mut rest = word.as_str();
        while let Some((start, end)) = braced(rest) {
            let id = id.get_or_insert_with(|| rest[start + 1..end - 1].to_string());
            filled.push_str(&rest[..start]);
            filled.push_str(id);
            rest = &rest[end..];
        }
        filled.push_str(rest);
        if filled.contains("%%") {
            has_port = true;
            filled = filled.replace("%%", &port.to_string());
        }
        out.push(filled);
    }
    let id = match id {
        Some(id) => id,
        None => {
            out.push(default_id.to_string());
            default_id.to_string()
        }
    };
    if !has_port {
        out.push(port.to_string());
    }
    Ok((out, id))
}

/// Why `line` cannot launch a bot: `%%` places the port with nothing in
/// braces on the line to name the bot, which the contest's servers refused
/// (an appended identifier would come after the port, where no contest bot
/// reads it). `None` for a line that does not split; [`split_command`]
/// says why.
pub fn launch_refused(line: &str) -> Option<String> {
    let words = split_command(line).ok()?;
    let named = words.iter().any(|word| braced(word).is_some());
    let port = words.iter().any(|word| word.contains("%%"));
    (port && !named).then(|| {
        "`%%` places the port, but nothing in braces names the bot: put its identifier \
         in braces where it goes, as the contest's launch files did (`{Name} %%`), or leave \
         out both and the host appends `ID PORT`"
            .to_string()
    })
}

/// Where the first match of the servers' `\{([^}]+)\}` is in `text`: from
/// its `{` to past its `}`. Written out, as this one pattern is all the
/// crate would need of a regular-expression library.
fn braced(text: &str) -> Option<(usize, usize)> {
    let mut from = 0;
    while let Some(open) = text[from..].find('{').map(|i| from + i) {
        let close = open + 1 + text[open + 1..].find('}')?;
        if close > open + 1 {
            return Some((open, close + 1));
        }
        from = open + 1;
    }
    None
}

static NEXT_ID: AtomicUsize = AtomicUsize::new(1);

/// A 2014 Speed Clue bot.
pub struct SpeedclueBot {
    process: BotProcess,
    listener: TcpListener,
    limits: ProcessLimits,
    id: String,
    connection: Option<(TcpStream, Receiver<Output>)>,
    /// What the bot sent and is not yet a whole message.
    framer: Framer,
    /// Whether the bot ended `ID alive` with a newline, and so is sent
    /// lines too; `None` until it has said `ID alive`.
    lines: Option<bool>,
    /// The last suggestion made, for the `suggestion` line that reports its answer.
    last: Option<(Seat, Suggestion)>,
}

impl SpeedclueBot {
    /// Listens on a loopback port and starts the bot from its launch line.
    /// A sandboxed bot's listener is made at the same port in its own
    /// network namespace, where it is all the bot can reach
    /// (docs/process-sandbox.md); the host's, which chose the port, serves
    /// an unsandboxed bot.
    pub fn spawn(launch: &str, limits: &ProcessLimits) -> Result<Sticky<SpeedclueBot>, SpawnError> {
        let host = TcpListener::bind("127.0.0.1:0").map_err(SpawnError::Listen)?;
        let port = host.local_addr().map_err(SpawnError::Listen)?.port();
        let default_id = format!("bot{}", NEXT_ID.fetch_add(1, Ordering::Relaxed));
        let (argv, id) = launch_words(launch, &default_id, port)?;
        let mut sandboxed = limits.clone();
        sandboxed.sandbox.tcp_port = Some(port);
        let mut process = BotProcess::spawn(&argv, &sandboxed)?;
        let listener = match process.tcp_listener(limits.startup) {
            Some(own) => own.map_err(SpawnError::Listen)?,
            None => host,
        };
        listener.set_nonblocking(true).map_err(SpawnError::Listen)?;
        Ok(Sticky::new(SpeedclueBot {
            process,
            listener,
            limits: limits.clone(),
            id,
            connection: None,
            framer: Framer::default(),
            lines: None,
            last: None,
        }))
    }

    /// The identifier the bot was given.
    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn stderr(&self) -> StderrTap {
        self.process.stderr()
    }

    /// Accepts the bot's connection and reads `ID alive`.
    fn connect(&mut self) -> Result<(), Fault> {
        let deadline = Instant::now() + self.limits.startup;
        let stream = loop {
            match self.listener.accept() {
                Ok((stream, _)) => break stream,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(Fault::new(DqReason::Crash, format!("accept failed: {e}"))),
            }
            if let Some(fault) = self.process.exit_fault() {
                return Err(fault);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Fault::new(
                    DqReason::Timeout,
                    format!(
                        "did not connect within {} ms",
                        self.limits.startup.as_millis()
                    ),
                ));
            }
            // Until it connects, exits, or the time is up.
            self.process
                .wait_readable(std::os::fd::AsFd::as_fd(&self.listener), left);
        };
        let io_fault = |e: std::io::Error| Fault::new(DqReason::Crash, format!("connection: {e}"));
        stream.set_nonblocking(false).map_err(io_fault)?;
        stream
            .set_write_timeout(Some(self.limits.message))
            .map_err(io_fault)?;
        let reader = stream.try_clone().map_err(io_fault)?;
        let chunks = output::read_chunks(reader, self.limits.max_output);
        self.connection = Some((stream, chunks));
        let expected = format!("{} alive", self.id);
        let alive = self.recv(self.limits.startup, "`ID alive`", &[expected.len()])?;
        self.lines = Some(alive.ended_by_newline);
        let alive = alive.text;
        // The contest's server compares case-insensitively (`equalsIgnoreCase`).
        if !alive.trim().eq_ignore_ascii_case(&expected) {
            return Err(Fault::new(
                DqReason::ProtocolError,
                format!("sent `{}` instead of `{expected}`", clip(&alive)),
            ));
        }
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let Some((stream, _)) = self.connection.as_mut() else {
            return Err(Fault::new(DqReason::Crash, "not connected"));
        };
        stream
            .write_all(
                if self.lines == Some(true) {
                    format!("{line}\n")
                } else {
                    line.to_string()
                }
                .as_bytes(),
            )
            .and_then(|()| stream.flush())
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut
                {
                    Fault::new(DqReason::Timeout, "stopped reading its connection")
                } else {
                    Fault::new(DqReason::Crash, format!("connection lost: {e}"))
                }
            })
    }

    /// The bot's next message; `lengths` are the lengths a whole answer to
    /// what was asked can have (see [`Framer::take`]).
    fn recv(
        &mut self,
        timeout: Duration,
        waiting_for: &str,
        lengths: &[usize],
    ) -> Result<Message, Fault> {
        let Some((_, lines)) = self.connection.as_ref() else {
            return Err(Fault::new(DqReason::Crash, "not connected"));
        };
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(message) = self.framer.take(lengths) {
                return Ok(message);
            }
            if self.framer.pending.len() > self.limits.max_line {
                return Err(Fault::new(
                    DqReason::ProtocolError,
                    format!(
                        "sent a message longer than the cap, starting `{}`",
                        clip(&self.framer.pending)
                    ),
                ));
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Fault::new(
                    DqReason::Timeout,
                    format!(
                        "no {waiting_for} within {} ms{}",
                        timeout.as_millis(),
                        self.deadlock_hint()
                    ),
                ));
            }
            match lines.recv_timeout((deadline - now).min(Duration::from_millis(20))) {
                Ok(Output::Line(chunk)) => self.framer.push(&chunk),
                Ok(Output::TooLong { start }) => {
                    return Err(Fault::new(
                        DqReason::ProtocolError,
                        format!(
                            "sent a line longer than the cap, starting `{}`",
                            clip(&start)
                        ),
                    ));
                }
                Ok(Output::TooMuch { bytes }) => {
                    return Err(Fault::new(
                        DqReason::ProtocolError,
                        format!("flooded its connection ({bytes} bytes, over the cap)"),
                    ));
                }
                Ok(Output::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    // A last message the bot did not finish is still quoted.
                    if let Some(message) = self.framer.take_rest() {
                        return Ok(message);
                    }
                    let status = self
                        .process
                        .exit_fault()
                        .map(|f| format!(" ({})", f.detail));
                    return Err(Fault::new(
                        DqReason::Crash,
                        format!("closed the connection{}", status.unwrap_or_default()),
                    ));
                }
                Ok(Output::Failed(e)) => {
                    return Err(Fault::new(DqReason::Crash, format!("connection: {e}")));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Some(fault) = self.process.exit_fault() {
                return Err(fault);
            }
        }
    }

    /// Why a bot that timed out may have done so, when one of its processes
    /// is blocked reading its end of the connection: it waits for the host
    /// as the host waits for it. That is what an answer written but never
    /// flushed looks like from outside, or a bot reading whole lines that is
    /// sent bare messages, or, before `ID alive`, a bot waiting to be spoken
    /// to first; in an event loop too, where an answer never written is
    /// likelier (and for Node, which writes at once, the only reason).
    /// Nothing when it computes or sleeps, waits in `poll` or `select`, or
    /// cannot be read.
    fn deadlock_hint(&self) -> String {
        let Some((stream, _)) = &self.connection else {
            return String::new();
        };
        let Some(Waiter { how, program }) = self
            .process
            .socket_end(stream)
            .and_then(|end| self.process.blocked_reading(&end))
        else {
            return String::new();
        };
        let waiting = match how {
            Waiting::Read => "waiting to read its connection",
            Waiting::EventLoop => "waiting in its event loop for its connection",
        };
        const JAVA: &str = "Java's `out.flush()` or a `new PrintWriter(socket.getOutputStream(), \
             true)` written with `println` or `format`";
        const PYTHON: &str = "Python's `flush()` on a `makefile` writer, or `sendall`";
        let flush = if program == "java" {
            JAVA.to_string()
        } else if program.starts_with("python") || program.starts_with("pypy") {
            PYTHON.to_string()
        } else {
            format!("{JAVA}, {PYTHON}, C's `fflush`")
        };
        let flush = format!("flush after each message, such as {flush}");
        // Node writes a socket at once: nothing it wrote is in a buffer.
        let node = program == "node";
        let Some(lines) = self.lines else {
            let unflushed = if node {
                String::new()
            } else {
                format!(
                    ", or it wrote that and did not flush it, and it stays in its buffer ({flush})"
                )
            };
            return format!(
                "; it was {waiting}, where the host has sent nothing yet: the bot speaks \
                 first (`{} alive`, as soon as it connects){unflushed}",
                self.id
            );
        };
        let bare = if lines {
            ""
        } else {
            "; or it reads whole lines: its `ID alive` had no newline, so it is sent messages \
             without one, as the contest's server sends them (end `ID alive` with a newline \
             to be sent lines)"
        };
        const UNWRITTEN: &str = "it wrote no answer (a message its code passes over, or an \
             error caught and passed over)";
        match (how, node) {
            (_, true) => format!(
                "; it was {waiting}, with no timer pending, as if it had answered: \
                 {UNWRITTEN}{bare}"
            ),
            (Waiting::EventLoop, false) => format!(
                "; it was {waiting}, with no timer pending, as if it had answered: \
                 {UNWRITTEN}, or one it wrote but did not flush stays in its buffer \
                 ({flush}){bare}"
            ),
            (Waiting::Read, false) => format!(
                "; it was {waiting}, as if it had answered: a message it wrote but did not \
                 flush stays in its buffer ({flush}){bare}"
            ),
        }
    }

    /// Sends `line` and returns the bot's answer.
    fn ask(&mut self, line: &str, lengths: &[usize]) -> Result<String, Fault> {
        self.send(line)?;
        let what = format!("answer to `{line}`");
        Ok(self.recv(self.limits.message, &what, lengths)?.text)
    }

    /// Sends `line` and expects `expected` back (in any case, as the
    /// contest's server accepts it).
    fn tell(&mut self, line: &str, expected: &str) -> Result<(), Fault> {
        let answer = self.ask(line, &[expected.len()])?;
        if answer.trim().eq_ignore_ascii_case(expected) {
            Ok(())
        } else {
            Err(wrong(&answer, line, expected))
        }
    }

    fn exchange(&mut self, request: &Request) -> Result<Reply, Fault> {
        match request {
            Request::BeginGame { setup } => {
                if setup.deck.len() != CODES.len() {
                    return Err(Fault::new(
                        DqReason::ProtocolError,
                        format!(
                            "a Speed Clue bot plays the classic deck, not {}",
                            setup.variant
                        ),
                    ));
                }
                if self.connection.is_none() {
                    self.connect()?;
                }
                let hand: Vec<&str> = setup.hand.iter().map(|&c| code(c)).collect();
                let line = format!(
                    "reset {} {} {}",
                    setup.players,
                    setup.seat.0,
                    hand.join(" ")
                );
                self.tell(line.trim_end(), "ok")?;
                Ok(Reply::Ok)
            }
            Request::Suggest(_) => {
                let answer = self.ask("suggest", &[SUGGEST_LEN])?;
                let cards = parse_triple(&answer, "suggest")
                    .ok_or_else(|| wrong(&answer, "suggest", "suggest S W R"))?;
                Ok(Reply::Suggest {
                    suggestion: Some(Suggestion {
                        cards,
                        target: None,
                    }),
                })
            }
            Request::Respond(r) => {
                if let [only] = r.matching.as_slice() {
                    return Ok(Reply::Respond { card: Some(*only) });
                }
                let line = format!("disprove {} {}", r.suggester.0, codes(&r.suggestion.cards));
                let answer = self.ask(&line, &[SHOW_LEN])?;
                let answer = answer.trim();
                let shown = answer
                    .get(..5)
                    .filter(|show| show.eq_ignore_ascii_case("show "))
                    .and_then(|_| card(answer[5..].trim()))
                    .ok_or_else(|| wrong(answer, &line, "show X"))?;
                Ok(Reply::Respond { card: Some(shown) })
            }
            Request::Accuse(r) => {
                if r.point == AccusePoint::StartOfTurn {
                    return Ok(Reply::Accuse { accusation: None });
                }
                let answer = self.ask("accuse", &[1, ACCUSE_LEN])?;
                if answer.trim() == "-" {
                    return Ok(Reply::Accuse { accusation: None });
                }
                let cards = parse_triple(&answer, "accuse")
                    .ok_or_else(|| wrong(&answer, "accuse", "`-` or `accuse S W R`"))?;
                Ok(Reply::Accuse {
                    accusation: Some(Accusation { cards }),
                })
            }
            Request::Move(r) => Ok(Reply::Move { to: r.targets[0] }),
            Request::Watch { event } => {
                self.watch(event)?;
                Ok(Reply::Ok)
            }
        }
    }

    fn watch(&mut self, event: &Event) -> Result<(), Fault> {
        match event {
            Event::Suggested { seat, suggestion } => {
                self.last = Some((*seat, suggestion.clone()));
            }
            Event::Answered {
                suggester,
                shown_by,
                card,
                ..
            } => {
                let Some((_, suggestion)) = self.last.take() else {
                    return Ok(());
                };
                let mut line = format!(
                    "suggestion {} {} {}",
                    suggester.0,
                    codes(&suggestion.cards),
                    shown_by.map_or("-".to_string(), |s| s.0.to_string())
                );
                if let Some(card) = card {
                    line.push(' ');
                    line.push_str(code(*card));
                }
                self.tell(&line, "ok")?;
            }
            Event::Accused {
                seat,
                accusation: Some(accusation),
                correct: Some(correct),
            } => {
                let line = format!(
                    "accusation {} {} {}",
                    seat.0,
                    codes(&accusation.cards),
                    if *correct { '+' } else { '-' }
                );
                self.tell(&line, "ok")?;
            }
            // The bot may exit at once instead of saying `dead`: both end its game.
            Event::GameOver { .. } if self.send("done").is_ok() => {
                let _ = self.recv(self.limits.message, "`dead`", &[4]);
            }
            _ => {}
        }
        Ok(())
    }
}

impl Exchange for SpeedclueBot {
    fn exchange(&mut self, request: &Request) -> Result<Reply, Fault> {
        SpeedclueBot::exchange(self, request)
    }

    fn abandon(&mut self) {
        self.process.kill();
    }

    fn stderr(&self, abandoned: bool) -> Option<String> {
        Some(self.process.stderr_text(abandoned))
    }

    /// The contest's two letters (`Co`).
    fn card_word(&self, card: Card) -> Option<String> {
        CODES.get(card.index()).map(|c| c.to_string())
    }
}

fn codes(cards: &[Card]) -> String {
    cards.iter().map(|&c| code(c)).collect::<Vec<_>>().join(" ")
}

/// `suggest Pl Ro Ki` -> the three cards (categories are checked by the engine).
fn parse_triple(line: &str, keyword: &str) -> Option<Vec<Card>> {
    let mut words = line.split_whitespace();
    if !words.next()?.eq_ignore_ascii_case(keyword) {
        return None;
    }
    let cards: Vec<Card> = words.map(card).collect::<Option<_>>()?;
    (cards.len() == 3).then_some(cards)
}

/// Lengths of whole answers, as the contest's `Player.java` checks them.
const SUGGEST_LEN: usize = "suggest Gr Kn Di".len();
const SHOW_LEN: usize = "show Kn".len();
const ACCUSE_LEN: usize = "accuse Gr Kn Di".len();

/// One message from a bot.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Message {
    /// The message, NULs and any line ending stripped.
    pub text: String,
    /// It ended with a newline (a line-based bot).
    pub ended_by_newline: bool,
}

/// Puts a bot's reads back into messages. The protocol is lock-step (the bot
/// speaks only to answer), so whatever arrives after a question belongs to
/// its answer: a message ends at a newline (a line-based bot), or, without
/// one, once it is as long as a whole answer can be (`lengths`, given per
/// question) or longer. A shorter message that is not a whole answer waits
/// for the rest, up to the message limit; a read that brings a whole answer
/// and more leaves the rest for the next question (where it is the wrong
/// answer). NULs are dropped wherever they are (the contest's readers strip
/// trailing NULs).
#[derive(Debug, Default)]
pub(crate) struct Framer {
    pending: String,
}

impl Framer {
    pub fn push(&mut self, chunk: &str) {
        self.pending.extend(chunk.chars().filter(|&c| c != '\0'));
    }

    /// The next whole message, if one has arrived.
    pub fn take(&mut self, lengths: &[usize]) -> Option<Message> {
        if let Some(end) = self.pending.find('\n') {
            let text = self.pending[..end].trim_end_matches('\r').to_string();
            self.pending.drain(..=end);
            return Some(Message {
                text,
                ended_by_newline: true,
            });
        }
        let len = self.pending.len();
        let longest = lengths.iter().copied().max().unwrap_or(0);
        if len == 0 || !(lengths.contains(&len) || len > longest) {
            return None;
        }
        Some(Message {
            text: std::mem::take(&mut self.pending),
            ended_by_newline: false,
        })
    }

    /// Whatever is left, as a message (the connection closed).
    pub fn take_rest(&mut self) -> Option<Message> {
        (!self.pending.is_empty()).then(|| Message {
            text: std::mem::take(&mut self.pending),
            ended_by_newline: false,
        })
    }
}

fn wrong(answer: &str, asked: &str, expected: &str) -> Fault {
    Fault::new(
        DqReason::ProtocolError,
        format!(
            "sent `{}` in answer to `{asked}` (expected {expected})",
            clip(answer)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(line: &str, expected: &[&str], id: &str) {
        let (words, got) = launch_words(line, "bot7", 4321).expect("splits");
        assert_eq!(words, expected);
        assert_eq!(got, id);
    }

    #[test]
    fn launch_lines_fill_in_the_identifier_and_port() {
        check(
            "java -jar x.jar {Sherlock} %%",
            &["java", "-jar", "x.jar", "Sherlock", "4321"],
            "Sherlock",
        );
        check(
            "python bot.py",
            &["python", "bot.py", "bot7", "4321"],
            "bot7",
        );
        check(
            "./bot --port=%% --name={Ada}",
            &["./bot", "--port=4321", "--name=Ada"],
            "Ada",
        );
    }

    /// The servers' pattern `\{([^}]+)\}`: empty braces are no identifier,
    /// the first group is, and every group is replaced by it.
    #[test]
    fn braces_are_read_as_the_contests_servers_read_them() {
        check(
            "node -e 'f({})' {Quiet} %%",
            &["node", "-e", "f({})", "Quiet", "4321"],
            "Quiet",
        );
        check(
            "./bot {Ada} --log={x}.txt",
            &["./bot", "Ada", "--log=Ada.txt", "4321"],
            "Ada",
        );
        check("./bot {{a}b}", &["./bot", "{ab}", "4321"], "{a");
        check("./bot {a}{b}", &["./bot", "aa", "4321"], "a");
        check("./bot {}", &["./bot", "{}", "bot7", "4321"], "bot7");
    }

    #[test]
    fn a_port_with_no_identifier_is_refused() {
        for line in ["python3 bot.py %%", "./bot --port=%% {}"] {
            let refused = launch_refused(line).expect("refused");
            assert!(
                refused.contains("nothing in braces names the bot"),
                "{refused}"
            );
            let err = launch_words(line, "bot7", 4321).expect_err("refused");
            assert!(
                err.to_string()
                    .starts_with(&format!("command line `{line}`: `%%` places the port")),
                "{err}"
            );
        }
        for line in ["python3 bot.py", "bot {A} %%", "bot {A}", "'unclosed"] {
            assert_eq!(launch_refused(line), None, "{line}");
        }
    }

    fn framed(chunks: &[&str], lengths: &[usize]) -> Vec<Message> {
        let mut framer = Framer::default();
        let mut out = Vec::new();
        for chunk in chunks {
            framer.push(chunk);
            while let Some(m) = framer.take(lengths) {
                out.push(m);
            }
        }
        out
    }

    fn msg(text: &str, ended_by_newline: bool) -> Message {
        Message {
            text: text.to_string(),
            ended_by_newline,
        }
    }

    #[test]
    fn a_message_is_one_read_with_nuls_stripped() {
        assert_eq!(framed(&["ok\0\0\0"], &[2]), [msg("ok", false)]);
        assert_eq!(
            framed(&["suggest Gr Kn Di"], &[SUGGEST_LEN]),
            [msg("suggest Gr Kn Di", false)]
        );
        assert_eq!(framed(&["-"], &[1, ACCUSE_LEN]), [msg("-", false)]);
    }

    #[test]
    fn a_trailing_newline_is_tolerated_and_marks_a_line_bot() {
        assert_eq!(framed(&["ok\r\n"], &[2]), [msg("ok", true)]);
        assert_eq!(
            framed(&["ok\nok\n"], &[2]),
            [msg("ok", true), msg("ok", true)]
        );
    }

    #[test]
    fn an_answer_split_across_reads_is_put_together() {
        assert_eq!(
            framed(&["sugg", "est Gr K", "n Di"], &[SUGGEST_LEN]),
            [msg("suggest Gr Kn Di", false)]
        );
        assert_eq!(
            framed(&["acc", "use Pl Ro Ki"], &[1, ACCUSE_LEN]),
            [msg("accuse Pl Ro Ki", false)]
        );
    }

    #[test]
    fn a_wrong_answer_is_not_waited_on() {
        // Longer than any whole answer: taken at once, to be refused.
        assert_eq!(framed(&["okay"], &[2]), [msg("okay", false)]);
        // As long as one: taken, and the caller refuses `no`.
        assert_eq!(framed(&["no"], &[2]), [msg("no", false)]);
        // Shorter, no newline: waits for the rest (the message limit ends it).
        assert_eq!(framed(&["o"], &[2]), []);
    }

    #[test]
    fn card_codes_follow_the_deck_ids() {
        assert_eq!(card("Gr"), Some(Card(0)));
        assert_eq!(card("Wr"), Some(Card(11)));
        assert_eq!(card("St"), Some(Card(20)));
        assert_eq!(card("Xx"), None);
        assert_eq!(code(Card(12)), "Ba");
    }
}
