//! A client's side of a line protocol with a contest server (the UniClue
//! judge, a Speed Clue server): every line heard is counted, so an error can
//! name the server's line by its number and quote it.
//!
//! [`ServerLines::contest`] speaks the 2014 Speed Clue server's framing
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
    /// else what has arrived once `whole` says it is a whole message; a
    /// message split across reads is read on until it is. Two messages in
    /// one read cannot come from a lock-step server, and are not split.
    pub fn hear_message(
        &mut self,
        whole: impl Fn(&str) -> bool,
    ) -> std::io::Result<Option<String>> {
        loop {
            if let Some(end) = self.pending.find('\n') {
                let line = self.pending[..end].trim_end_matches('\r').to_string();
                self.pending.drain(..=end);
                self.heard += 1;
                return Ok(Some(line));
            }
            if !self.pending.is_empty()
                && (whole(&self.pending) || self.pending.len() > MAX_MESSAGE)
            {
                self.heard += 1;
                return Ok(Some(std::mem::take(&mut self.pending)));
            }
            let buffer = self.input.fill_buf()?;
            if buffer.is_empty() {
                if self.pending.is_empty() {
                    return Ok(None);
                }
                self.heard += 1;
                return Ok(Some(std::mem::take(&mut self.pending)));
            }
            let n = buffer.len();
            let chunk = String::from_utf8_lossy(buffer);
            self.pending.extend(chunk.chars().filter(|&c| c != '\0'));
            self.input.consume(n);
        }
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
