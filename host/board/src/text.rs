//! Splitting board files into lines and comma-separated fields, keeping the
//! 1-based line and column of every field for error messages.

use crate::error::{BoardError, Problem};

/// One line of a file: its 1-based number and its text without the line end.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line<'a> {
    pub number: usize,
    pub text: &'a str,
}

/// One comma-separated field: its trimmed text and the 1-based character
/// column of its first non-blank character (or of where it starts, if blank).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field<'a> {
    pub text: &'a str,
    pub column: usize,
}

/// The lines of `text`, accepting LF, CRLF and a mix of both, with or without
/// a final line end. A lone `\r` at the end of a line is dropped.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut parts: Vec<&str> = text.split('\n').collect();
    // "a\n" splits into ["a", ""]: the empty tail is not a line.
    if parts.len() > 1 && parts.last() == Some(&"") {
        parts.pop();
    }
    parts.into_iter().enumerate().map(|(i, t)| Line {
        number: i + 1,
        text: t.strip_suffix('\r').unwrap_or(t),
    })
}

/// The comma-separated fields of a line, trimmed of Unicode white space
/// (which includes the no-break space some files carry after initials).
pub(crate) fn fields(line: &str) -> Vec<Field<'_>> {
    let mut out = Vec::new();
    let mut column = 1;
    for raw in line.split(',') {
        let lead = raw.chars().take_while(|c| c.is_whitespace()).count();
        let text = raw.trim();
        let at = if text.is_empty() {
            column
        } else {
            column + lead
        };
        out.push(Field { text, column: at });
        column += raw.chars().count() + 1;
    }
    out
}

/// `fields` without the empty fields at its end: a trailing comma says
/// nothing (an empty field before another is an error where it matters).
pub(crate) fn without_trailing_empty<'a, 'f>(fields: &'f [Field<'a>]) -> &'f [Field<'a>] {
    let used = fields.len()
        - fields
            .iter()
            .rev()
            .take_while(|f| f.text.is_empty())
            .count();
    &fields[..used]
}

/// The column just past the last character of a line.
pub(crate) fn end_column(line: &str) -> usize {
    line.chars().count() + 1
}

/// Builds errors for one file.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Source<'a> {
    pub name: &'a str,
}

impl Source<'_> {
    pub fn err(&self, line: usize, column: usize, problem: Problem) -> BoardError {
        BoardError {
            file: self.name.to_string(),
            line,
            column,
            problem,
        }
    }
}
