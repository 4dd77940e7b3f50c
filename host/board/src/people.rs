//! Reading one player line in any of the formats student teams invented.
//!
//! The instructor's setup file has no player lines, so every team made up its
//! own (see `boards/community/SOURCES.md`). Instead of one grammar per team,
//! the fields after the keyword are classified by what they look like:
//!
//! - a kind word: `Human`, `Computer`, `PC`, `NPC`, `CPU`, `AI`, `true`
//!   (human), `false` (computer); the single letters `H` and `C` count as a
//!   kind only after a colour (`<name>, <Color>, <H|C>`);
//! - integers: 2 in a row are the start row and column, 3 in a row an RGB
//!   colour, 5 in a row an RGB colour then row and column;
//! - `<row>-<col>` or `<row> <col>` in one field is the start, `R G B` in one
//!   field a colour;
//! - text: the first is the name (unless it is a colour word and the next is
//!   not: `<color>, <name>`), a 1-2 character field right after the name is a
//!   code or initial, the next text is the colour, and one more text may name
//!   the start room (`Person, <name>, <Color>, Computer, <RoomName>`).
//!
//! Anything else is an error at that field.

use crate::error::{BoardError, Problem};
use crate::model::PlayerKind;
use crate::text::{Field, Source, without_trailing_empty};

/// Where a player line says the person starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum StartSpec {
    None,
    /// (row, col) and the column of the row field.
    Cell(u16, u16, usize),
    /// A room name and its column.
    Room(String, usize),
}

/// One player line, read but not yet checked against the board.
#[derive(Clone, Debug)]
pub(crate) struct PlayerLine {
    pub line: usize,
    pub name: String,
    pub name_column: usize,
    pub color: Option<String>,
    pub kind: Option<PlayerKind>,
    pub start: StartSpec,
    pub code: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Class {
    Kind(PlayerKind),
    Int(u32),
    Pair(u32, u32),
    Triple(u32, u32, u32),
    Text,
}

fn kind_word(text: &str) -> Option<PlayerKind> {
    const HUMAN: [&str; 3] = ["human", "pc", "true"];
    const COMPUTER: [&str; 5] = ["computer", "npc", "cpu", "ai", "false"];
    let lower = text.to_ascii_lowercase();
    if HUMAN.contains(&lower.as_str()) {
        Some(PlayerKind::Human)
    } else if COMPUTER.contains(&lower.as_str()) {
        Some(PlayerKind::Computer)
    } else {
        None
    }
}

fn number(text: &str) -> Option<u32> {
    if !text.is_empty() && text.len() <= 9 && text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse().ok()
    } else {
        None
    }
}

fn classify(text: &str) -> Class {
    if let Some(kind) = kind_word(text) {
        return Class::Kind(kind);
    }
    if let Some(n) = number(text) {
        return Class::Int(n);
    }
    let parts: Vec<&str> = text
        .split(|c: char| c == '-' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    let nums: Option<Vec<u32>> = parts.iter().map(|p| number(p)).collect();
    match nums.as_deref() {
        Some(&[r, c]) => Class::Pair(r, c),
        Some(&[r, g, b]) if !text.contains('-') => Class::Triple(r, g, b),
        _ => Class::Text,
    }
}

/// Common colour names, for telling `<color>, <name>` from `<name>, <color>`.
fn is_colour_word(text: &str) -> bool {
    const COLOURS: [&str; 30] = [
        "red",
        "green",
        "blue",
        "yellow",
        "white",
        "black",
        "purple",
        "orange",
        "pink",
        "magenta",
        "cyan",
        "gray",
        "grey",
        "lightgray",
        "lightgrey",
        "darkgray",
        "darkgrey",
        "gold",
        "teal",
        "brown",
        "violet",
        "indigo",
        "lime",
        "navy",
        "maroon",
        "olive",
        "silver",
        "crimson",
        "turquoise",
        "lavender",
    ];
    let key: String = text
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    COLOURS.contains(&key.as_str())
}

fn coordinate(src: Source, line: usize, field: &Field, n: u32) -> Result<u16, BoardError> {
    u16::try_from(n).map_err(|_| {
        src.err(
            line,
            field.column,
            Problem::BadCoordinate(field.text.to_string()),
        )
    })
}

fn rgb(src: Source, line: usize, field: &Field, parts: [u32; 3]) -> Result<String, BoardError> {
    let mut out = String::from("#");
    for p in parts {
        let byte = u8::try_from(p).map_err(|_| {
            src.err(
                line,
                field.column,
                Problem::BadColourComponent(p.to_string()),
            )
        })?;
        out.push_str(&format!("{byte:02X}"));
    }
    Ok(out)
}

/// Reads the fields of a player line after its keyword. `keyword_kind` is the
/// kind the keyword itself says (`Human`, `Computer`, `NPC`...), if any; a
/// kind field on the line overrides it. `end_column` locates a missing name.
pub(crate) fn read_player(
    src: Source,
    line: usize,
    fields: &[Field],
    keyword_kind: Option<PlayerKind>,
    end_column: usize,
) -> Result<PlayerLine, BoardError> {
    // Trailing empty fields (a trailing comma) say nothing; inner ones are errors.
    let fields = without_trailing_empty(fields);
    if let Some(f) = fields.iter().find(|f| f.text.is_empty()) {
        return Err(src.err(line, f.column, Problem::EmptyField));
    }
    let classes: Vec<Class> = fields.iter().map(|f| classify(f.text)).collect();

    let mut kind = None;
    let mut color = None;
    let mut start = StartSpec::None;
    let mut texts = Vec::new();
    let mut ints: Vec<usize> = Vec::new();
    for (i, (field, class)) in fields.iter().zip(&classes).enumerate() {
        match *class {
            Class::Kind(k) if kind.is_none() => kind = Some(k),
            Class::Kind(_) => {
                return Err(src.err(
                    line,
                    field.column,
                    Problem::UnexpectedField(field.text.to_string()),
                ));
            }
            Class::Int(_) => ints.push(i),
            Class::Pair(r, c) if start == StartSpec::None => {
                start = StartSpec::Cell(
                    coordinate(src, line, field, r)?,
                    coordinate(src, line, field, c)?,
                    field.column,
                );
            }
            Class::Triple(r, g, b) if color.is_none() => {
                color = Some(rgb(src, line, field, [r, g, b])?);
            }
            Class::Pair(..) | Class::Triple(..) => {
                return Err(src.err(
                    line,
                    field.column,
                    Problem::UnexpectedField(field.text.to_string()),
                ));
            }
            Class::Text => texts.push(i),
        }
    }

    // Integers: runs of 2 (position), 3 (RGB) or 5 (RGB then position).
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for &i in &ints {
        match runs.last_mut() {
            Some(run) if run.last().map(|&l| l + 1) == Some(i) => run.push(i),
            _ => runs.push(vec![i]),
        }
    }
    let value = |i: usize| match classes[i] {
        Class::Int(n) => n,
        _ => 0,
    };
    let bad_numbers = |at: usize| {
        src.err(
            line,
            fields[at].column,
            Problem::BadPlayerNumbers(ints.len()),
        )
    };
    for run in &runs {
        let (rgb_part, pos_part): (&[usize], &[usize]) = match run.len() {
            2 => (&[], run),
            3 => (run, &[]),
            5 => (&run[..3], &run[3..]),
            _ => return Err(bad_numbers(run[0])),
        };
        if !rgb_part.is_empty() {
            if color.is_some() {
                return Err(bad_numbers(rgb_part[0]));
            }
            let parts = [value(rgb_part[0]), value(rgb_part[1]), value(rgb_part[2])];
            color = Some(rgb(src, line, &fields[rgb_part[0]], parts)?);
        }
        if let [r, c] = *pos_part {
            if start != StartSpec::None {
                return Err(bad_numbers(r));
            }
            start = StartSpec::Cell(
                coordinate(src, line, &fields[r], value(r))?,
                coordinate(src, line, &fields[c], value(c))?,
                fields[r].column,
            );
        }
    }

    // Text: name (or colour then name), code, colour, kind letter, start room.
    let mut rest = texts.as_slice();
    let name_at = match rest {
        [] => return Err(src.err(line, end_column, Problem::MissingName)),
        [first, second, ..]
            if color.is_none()
                && is_colour_word(fields[*first].text)
                && !is_colour_word(fields[*second].text) =>
        {
            color = Some(fields[*first].text.to_string());
            rest = &rest[2..];
            *second
        }
        [first, ..] => {
            rest = &rest[1..];
            *first
        }
    };
    let mut code = None;
    for &i in rest {
        let field = &fields[i];
        let text = field.text;
        let short = text.chars().count() <= 2 && text.chars().all(char::is_alphanumeric);
        if short && i == name_at + 1 && code.is_none() {
            code = Some(text.to_string());
        } else if kind.is_none() && color.is_some() && (text == "H" || text == "C") {
            kind = Some(if text == "H" {
                PlayerKind::Human
            } else {
                PlayerKind::Computer
            });
        } else if color.is_none() {
            color = Some(text.to_string());
        } else if start == StartSpec::None {
            start = StartSpec::Room(text.to_string(), field.column);
        } else {
            return Err(src.err(
                line,
                field.column,
                Problem::UnexpectedField(text.to_string()),
            ));
        }
    }

    Ok(PlayerLine {
        line,
        name: fields[name_at].text.to_string(),
        name_column: fields[name_at].column,
        color,
        kind: kind.or(keyword_kind),
        start,
        code,
    })
}
