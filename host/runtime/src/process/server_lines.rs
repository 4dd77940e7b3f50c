//! A client's side of a line protocol with a contest server (the UniClue
//! judge, a Speed Clue server): every line heard is counted, so an error can
//! name the server's line by its number and quote it.
//!
//! `ServerLines::contest` speaks the 2014 Speed Clue server's framing
//! instead: a message is what one read delivers (NULs stripped, a trailing
//! newline tolerated), and messages go out with no line terminator.

use std::io::{BufRead, Write};

use super::clip;

/// A server line the client could not take.
#[derive(Debug, thiserror::Error)]
#[error("server line {number} `{line}`: expected {expected}")]
pub struct BadLine {
    /// 1-based count of the lines the server sent.
    pub number: usize,
    /// The line, clipped.
    pub line: String,
    pub expected: String,
}

/// The conversation with the server.
pub(crate) struct ServerLines<R, W> {
    input: R,
    output: W,
    heard: usize,
    /// The contest's framing (no line terminators) rather than lines.
    contest: bool,
    /// Read and not yet a whole message (contest framing).
    pending: String,
}

/// How much of what has arrived is the next message (contest framing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Frame {
    /// The first `n` bytes are a whole message (or cannot grow into one,
    /// and are taken to be refused).
    Whole(usize),
    /// Not whole yet: read on.
    Partial,
    /// The first `n` bytes are whole unless more arrives at once (`suggest`,
    /// which may be the start of `suggestion`).
    Unless(usize),
}

/// Longest message kept waiting for its end (contest framing).
const MAX_MESSAGE: usize = 64 * 1024;

impl<R: BufRead, W: Write> ServerLines<R, W> {
    pub fn new(input: R, output: W) -> Self {
        ServerLines {
            input,
            output,
            heard: 0,
            contest: false,
            pending: String::new(),
        }
    }

    /// The 2014 Speed Clue server's framing (its `Player.java`): messages
    /// out with no terminator, messages in as [`ServerLines::hear_message`]
    /// frames them.
    pub fn contest(input: R, output: W) -> Self {
        ServerLines {
            contest: true,
            ..ServerLines::new(input, output)
        }
    }

    /// The next message (contest framing): up to a newline if one comes,
    /// else as much of what has arrived as `frame` says is the next message;
    /// a message split across reads is read on until it is whole, and what
    /// follows a whole message stays for the next one. A read that times out
    /// (the caller's socket read timeout) takes a [`Frame::Unless`] message
    /// as it is.
    pub fn hear_message(
        &mut self,
        frame: impl Fn(&str) -> Frame,
    ) -> std::io::Result<Option<String>> {
        loop {
            if let Some(end) = self.pending.find('\n') {
                let line = self.pending[..end].trim_end_matches('\r').to_string();
                self.pending.drain(..=end);
                self.heard += 1;
                return Ok(Some(line));
            }
            if !self.pending.is_empty() {
                let take = match frame(&self.pending) {
                    Frame::Whole(n) => Some(n),
                    _ if self.pending.len() > MAX_MESSAGE => Some(self.pending.len()),
                    _ => None,
                };
                if let Some(n) = take {
                    return Ok(Some(self.take(n)));
                }
            }
            let buffer = match self.input.fill_buf() {
                Ok(buffer) => buffer,
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    // Nothing more came: a message that is whole unless
                    // more follows at once is whole.
                    if let Frame::Unless(n) = frame(&self.pending) {
                        return Ok(Some(self.take(n)));
                    }
                    continue;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buffer.is_empty() {
                if self.pending.is_empty() {
                    return Ok(None);
                }
                let n = self.pending.len();
                return Ok(Some(self.take(n)));
            }
            let n = buffer.len();
            let chunk = String::from_utf8_lossy(buffer);
            self.pending.extend(chunk.chars().filter(|&c| c != '\0'));
            self.input.consume(n);
        }
    }

    /// The first `n` bytes of what is pending, as the next message heard.
    fn take(&mut self, n: usize) -> String {
        let n = (0..=n.min(self.pending.len()))
            .rev()
            .find(|&i| self.pending.is_char_boundary(i))
            .unwrap_or(0);
        self.heard += 1;
        self.pending.drain(..n).collect()
    }

    /// Sends one line, flushed.
    pub fn say(&mut self, line: &str) -> std::io::Result<()> {
        if self.contest {
            write!(self.output, "{line}")?;
        } else {
            writeln!(self.output, "{line}")?;
        }
        self.output.flush()
    }

    /// The next line without its end of line; `None` when the server closed.
    pub fn hear(&mut self) -> std::io::Result<Option<String>> {
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        self.heard += 1;
        Ok(Some(line.trim_end_matches(['\n', '\r']).to_string()))
    }

    /// `line`, the last one heard, is not what was `expected`.
    pub fn bad(&self, line: &str, expected: impl Into<String>) -> BadLine {
        BadLine {
            number: self.heard,
            line: clip(line),
            expected: expected.into(),
        }
    }
}
