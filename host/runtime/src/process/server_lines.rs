//! A client's side of a line protocol with a contest server (the UniClue
//! judge, a Speed Clue server): every line heard is counted, so an error can
//! name the server's line by its number and quote it.

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
}

impl<R: BufRead, W: Write> ServerLines<R, W> {
    pub fn new(input: R, output: W) -> Self {
        ServerLines {
            input,
            output,
            heard: 0,
        }
    }

    /// Sends one line, flushed.
    pub fn say(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.output, "{line}")?;
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
