//! The judges' configuration file of the UniClue problem (`sample4.in`):
//! `P`, then `P` hands of card codes, then room numbers, one per line.

use clue_engine::GameConfig;
use clue_plugin_api::{Card, Variant};

/// A configuration file the server cannot play, with the file, line and
/// (when one word is at fault) column: `FILE:LINE:COLUMN: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}{}: {message}", column.map(|c| format!(":{c}")).unwrap_or_default())]
pub struct ConfigFileError {
    pub file: String,
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters; `None` when the fault is the line's absence
    /// or the hands as a whole.
    pub column: Option<usize>,
    pub message: String,
}

/// The 1-based column, in characters, of `word`, a slice of `line`.
fn column_of(line: &str, word: &str) -> usize {
    let offset = word.as_ptr() as usize - line.as_ptr() as usize;
    line[..offset].chars().count() + 1
}

/// `S1`..`S6`, `W1`..`W6`, `R1`..`R9` (or in lower case, as a person may
/// type them) to the classic deck's card.
fn card(code: &str) -> Option<Card> {
    super::uniclue::parse_code(&clue_engine::decks::classic(), &code.to_ascii_uppercase())
}

/// Parses a configuration file's text; `file` names it in errors.
pub fn parse_config(file: &str, text: &str) -> Result<GameConfig, ConfigFileError> {
    let error = |line: usize, message: String| ConfigFileError {
        file: file.to_string(),
        line,
        column: None,
        message,
    };
    // A word of a line at fault: its column too.
    let at = |line: usize, whole: &str, word: &str, message: String| ConfigFileError {
        column: Some(column_of(whole, word)),
        ..error(line, message)
    };
    // A byte order mark (an editor's on Windows) is not part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l, l.trim()));
    let (first, whole, players) = match lines.next() {
        Some((n, whole, l)) => (n, whole, l),
        None => {
            return Err(error(
                1,
                "empty file: expected the number of players".into(),
            ));
        }
    };
    let players: u8 = players
        .parse()
        .ok()
        .filter(|p| (3..=6).contains(p))
        .ok_or_else(|| {
            at(
                first,
                whole,
                players,
                format!("expected the number of players (3 to 6), found `{players}`"),
            )
        })?;
    let mut hands: Vec<Vec<Card>> = Vec::new();
    let mut dealt = [false; 21];
    let mut last = first;
    for p in 1..=players {
        let (n, whole, line) = lines
            .next()
            .ok_or_else(|| error(last + 1, format!("end of file: expected player {p}'s hand")))?;
        last = n;
        if line.is_empty() {
            return Err(error(
                n,
                format!("expected player {p}'s hand, found an empty line"),
            ));
        }
        let mut hand = Vec::new();
        for word in line.split_whitespace() {
            let c = card(word).ok_or_else(|| {
                at(
                    n,
                    whole,
                    word,
                    format!("`{word}` is not a card (S1-S6, W1-W6 or R1-R9)"),
                )
            })?;
            if std::mem::replace(&mut dealt[c.index()], true) {
                return Err(at(n, whole, word, format!("`{word}` is dealt twice")));
            }
            hand.push(c);
        }
        hands.push(hand);
    }
    for (name, range) in [("suspect", 0..6), ("weapon", 6..12), ("room", 12..21)] {
        let left = dealt[range].iter().filter(|d| !**d).count();
        if left != 1 {
            return Err(error(
                last,
                format!(
                    "the hands leave {left} {name} cards undealt; the envelope takes exactly one"
                ),
            ));
        }
    }
    let mut rooms = Vec::new();
    for (n, whole, line) in lines {
        if line.is_empty() {
            continue;
        }
        let room: u8 = line
            .parse()
            .ok()
            .filter(|r| (1..=9).contains(r))
            .ok_or_else(|| {
                at(
                    n,
                    whole,
                    line,
                    format!("expected a room number (1 to 9), found `{line}`"),
                )
            })?;
        rooms.push(room);
    }
    let mut config = GameConfig::new(Variant::Uniclue, players);
    config.deal = Some(hands);
    config.uniclue.rooms = rooms;
    config.validate().map_err(|e| error(first, e.to_string()))?;
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "4\nR2 S1 R1 W2 W1\nW4 W3 S3 R4 S4\nR6 S5 S6 R5\nR8 W6 R7 R9\n3\n5\n3\n4\n7\n2\n8\n6\n4\n9\n3\n1\n5\n7\n2\n";

    #[test]
    fn the_sample_configuration_parses() {
        let config = parse_config("sample4.in", SAMPLE).expect("valid");
        assert_eq!(config.players, 4);
        assert_eq!(
            config.uniclue.rooms,
            [3, 5, 3, 4, 7, 2, 8, 6, 4, 9, 3, 1, 5, 7, 2]
        );
        let deal = config.deal.expect("fixed deal");
        assert_eq!(deal[0], [Card(13), Card(0), Card(12), Card(7), Card(6)]);
    }

    fn check(text: &str, expected: &str) {
        let error = parse_config("f.in", text).expect_err("invalid");
        assert_eq!(error.to_string(), expected);
    }

    #[test]
    fn broken_files_name_the_line() {
        check("", "f.in:1: empty file: expected the number of players");
        check(
            "seven\n",
            "f.in:1:1: expected the number of players (3 to 6), found `seven`",
        );
        check("3\nS1\n", "f.in:3: end of file: expected player 2's hand");
        check(
            "3\nS1 X9\n",
            "f.in:2:4: `X9` is not a card (S1-S6, W1-W6 or R1-R9)",
        );
        check("3\nS1 S1\n", "f.in:2:4: `S1` is dealt twice");
        // Columns count characters of the line as written, spaces included.
        check(
            "3\n\tS1  é2\n",
            "f.in:2:6: `é2` is not a card (S1-S6, W1-W6 or R1-R9)",
        );
        check(
            "  9\n",
            "f.in:1:3: expected the number of players (3 to 6), found `9`",
        );
        check(
            "3\nS1\nS2\nS3\n",
            "f.in:4: the hands leave 3 suspect cards undealt; the envelope takes exactly one",
        );
        let hands = "3\nS1 S2 S3 S4 S5 W1\nW2 W3 W4 W5 R1 R2\nR3 R4 R5 R6 R7 R8\n";
        check(
            &format!("{hands}4\n\n10\n"),
            "f.in:7:1: expected a room number (1 to 9), found `10`",
        );
        assert!(parse_config("f.in", hands).is_ok());
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_line() {
        let hands = "3\r\nS1 S2 S3 S4 S5 W1\r\nW2 W3 W4 W5 R1 R2\r\nR3 R4 R5 R6 R7 R8\r\n";
        let marked = parse_config("f.in", &format!("\u{feff}{hands}")).expect("a good file");
        assert_eq!(marked, parse_config("f.in", hands).expect("a good file"));
        // Columns are the editor's, which does not show the mark.
        check(
            "\u{feff}seven\n",
            "f.in:1:1: expected the number of players (3 to 6), found `seven`",
        );
    }
}
