//! Where in a YAML file a value stood, for errors that name
//! `FILE:LINE:COLUMN`: the tournament file, whose parts (`config`,
//! `board_files`) share it without importing each other, and the binary's
//! variant files ([`yaml_error`]).

use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

/// A line and column in the tournament file (1-based; 0 when unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pos {
    pub line: u64,
    pub column: u64,
}

impl<T> From<&Spanned<T>> for Pos {
    fn from(s: &Spanned<T>) -> Pos {
        Pos {
            line: s.referenced.line(),
            column: s.referenced.column(),
        }
    }
}

/// A YAML parse error in `text` as where it is and its first line, without
/// the parser's rendered source snippet or its repeat of the place: for
/// `FILE:LINE:COLUMN: message`, as every file a user writes is reported. A
/// number out of its type's range (the parser's `invalid u8`) is told as
/// the range and the value found there.
pub fn yaml_error(error: &serde_saphyr::Error, text: &str) -> (Pos, String) {
    let pos = error
        .location()
        .map(|l| Pos {
            line: l.line(),
            column: l.column(),
        })
        .unwrap_or_default();
    // The parser's wording for users: its default one advises the programmer
    // (`set DuplicateKeyPolicy in Options`).
    let message = first_line(&error.render_with_formatter(&serde_saphyr::UserMessageFormatter));
    let message = match (whole_number_range(&message), value_at(text, pos)) {
        (Some((min, max)), Some(found)) => {
            format!("expected a whole number from {min} to {max}, found `{found}`")
        }
        _ => {
            let hint = clue_runtime::suggest::serde_hint(&message);
            message + &hint
        }
    };
    (pos, message)
}

/// The range of the integer type a parser message names (`invalid u8`).
fn whole_number_range(message: &str) -> Option<(i128, i128)> {
    Some(match message.strip_prefix("invalid ")? {
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" => (0, u64::MAX.into()),
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "i64" => (i64::MIN.into(), i64::MAX.into()),
        _ => return None,
    })
}

/// The plain scalar of `text` that starts at `pos` (1-based line and
/// column, in characters), up to a space, a comma, a closing bracket or a
/// comment.
fn value_at(text: &str, pos: Pos) -> Option<String> {
    let line = text
        .lines()
        .nth(usize::try_from(pos.line).ok()?.checked_sub(1)?)?;
    let from = usize::try_from(pos.column).ok()?.checked_sub(1)?;
    let value: String = line
        .chars()
        .skip(from)
        .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | ']' | '}' | '#'))
        .collect();
    (!value.is_empty()).then_some(value)
}

/// The first line of a parser message, without its rendered source snippet.
fn first_line(message: &str) -> String {
    let line = message.lines().next().unwrap_or(message).trim();
    let line = line.strip_prefix("error: ").unwrap_or(line);
    // The parser may repeat the place ("line 3 column 1: ..."); ours leads the message.
    match line.split_once(": ") {
        Some((place, rest)) if place.starts_with("line ") && place.contains(" column ") => {
            rest.to_string()
        }
        _ => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `yaml_error` makes of `text` read as a `{count: u8}` map.
    fn check(text: &str, expected: &str) {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Counts {
            count: u8,
            total: Option<i32>,
        }
        let error = serde_saphyr::from_str::<Counts>(text).expect_err("invalid");
        let (pos, message) = yaml_error(&error, text);
        assert_eq!(format!("{}:{}: {message}", pos.line, pos.column), expected);
    }

    #[test]
    fn a_number_out_of_range_is_told_as_the_range_and_the_value() {
        check(
            "count: -3\n",
            "1:8: expected a whole number from 0 to 255, found `-3`",
        );
        check(
            "count: 1\ntotal: 99999999999 # big\n",
            "2:8: expected a whole number from -2147483648 to 2147483647, found `99999999999`",
        );
        check(
            "{count: four, total: 1}\n",
            "1:9: expected a whole number from 0 to 255, found `four`",
        );
    }

    #[test]
    fn other_errors_keep_the_parsers_first_line_without_the_place() {
        check(
            "limit: 1\n",
            "1:1: unknown field `limit`, expected one of count, total",
        );
    }

    #[test]
    fn an_unknown_field_that_is_a_slip_gets_its_name() {
        check(
            "count: 1\ntotl: 2\n",
            "2:1: unknown field `totl`, expected one of count, total: did you mean `total`?",
        );
        check(
            "Count: 1\n",
            "1:1: unknown field `Count`, expected one of count, total: did you mean `count`?",
        );
    }
}
