//! Any [`Player`] as a process bot: the JSON-lines protocol of
//! `docs/protocol.md` over standard input and output.
//!
//! ```no_run
//! # use clue_plugin_api::*;
//! # #[derive(Default)] struct MyBot;
//! # impl Player for MyBot {
//! #     fn begin_game(&mut self, _: &Setup) {}
//! #     fn accuse(&mut self, _: &AccuseRequest) -> Option<Accusation> { None }
//! #     fn move_to(&mut self, r: &MoveRequest) -> Position { r.targets[0] }
//! #     fn suggest(&mut self, _: &SuggestRequest) -> Option<Suggestion> { None }
//! #     fn respond(&mut self, r: &RespondRequest) -> Option<Card> { r.matching.first().copied() }
//! # }
//! fn main() -> std::io::Result<()> {
//!     clue_plugin_api::stdio::serve_stdio(MyBot::default())
//! }
//! ```
//!
//! The host speaks first with a [`Hello`]; the bot answers with its own
//! (carrying [`Player::name`]); both check the major protocol version. Then
//! every line the host sends is one [`crate::Request`] and the bot answers it
//! with exactly one [`crate::Reply`] line. End of input is the end of the game.

use std::io::{self, BufRead, Write};

use crate::player::{Player, dispatch};
use crate::wire::{self, Hello};

/// Plays `player` over this process's standard input and output.
pub fn serve_stdio<P: Player>(player: P) -> io::Result<()> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    serve(player, stdin.lock(), stdout.lock())
}

/// Plays `player` over any line reader and writer (the host's side of the
/// conversation comes in on `reader`). Returns when `reader` ends.
///
/// Errors: a hello that is not valid JSON or speaks another major version
/// ([`io::ErrorKind::InvalidData`], naming both versions), a request line
/// that does not decode (the same kind, quoting the line), and I/O errors.
pub fn serve<P: Player, R: BufRead, W: Write>(
    mut player: P,
    mut reader: R,
    mut writer: W,
) -> io::Result<()> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(());
    }
    let theirs: Hello = serde_json::from_str(line.trim_end()).map_err(|e| {
        invalid(format!(
            "the host's hello `{}` is not a clue-arena hello: {e}",
            clip(line.trim_end())
        ))
    })?;
    // Answer first, so the host can name the mismatch too.
    let ours = serde_json::to_string(&Hello::new(player.name())).map_err(io::Error::other)?;
    writeln!(writer, "{ours}")?;
    writer.flush()?;
    theirs.check().map_err(|e| invalid(e.to_string()))?;
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let text = line.trim_end();
        if text.is_empty() {
            continue;
        }
        let request = wire::decode_request(text).map_err(|e| {
            invalid(format!(
                "the host sent `{}`, which is not a request: {e}",
                clip(text)
            ))
        })?;
        let reply = dispatch(&mut player, &request);
        writeln!(writer, "{}", wire::encode_reply(&reply))?;
        writer.flush()?;
    }
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

fn clip(text: &str) -> &str {
    match text.char_indices().nth(200) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::*;

    struct Echo;

    impl Player for Echo {
        fn name(&self) -> String {
            "echo".into()
        }
        fn begin_game(&mut self, _: &Setup) {}
        fn accuse(&mut self, _: &AccuseRequest) -> Option<Accusation> {
            None
        }
        fn move_to(&mut self, request: &MoveRequest) -> Position {
            request.targets[0]
        }
        fn suggest(&mut self, _: &SuggestRequest) -> Option<Suggestion> {
            None
        }
        fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
            request.matching.first().copied()
        }
    }

    fn run(input: &str) -> (io::Result<()>, String) {
        let mut out = Vec::new();
        let result = serve(Echo, input.as_bytes(), &mut out);
        (result, String::from_utf8(out).unwrap())
    }

    #[test]
    fn answers_hello_then_each_request_with_one_reply() {
        let respond = Request::Respond(RespondRequest {
            suggester: Seat(1),
            suggestion: Suggestion {
                cards: vec![Card(0), Card(6), Card(12)],
                target: None,
            },
            matching: vec![Card(6)],
        });
        let input = format!(
            "{}\n{}\n",
            serde_json::to_string(&wire::Hello::new("")).unwrap(),
            wire::encode_request(&respond)
        );
        let (result, out) = run(&input);
        assert!(result.is_ok());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        let hello: Hello = serde_json::from_str(lines[0]).unwrap();
        assert_eq!(hello.name, "echo");
        assert_eq!(
            wire::decode_reply(lines[1]).unwrap(),
            Reply::Respond {
                card: Some(Card(6))
            }
        );
    }

    #[test]
    fn another_major_version_is_a_named_error() {
        let (result, out) = run("{\"hello\":\"clue-arena\",\"protocol\":\"9.0\"}\n");
        let error = result.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert!(error.to_string().contains("9.0"), "{error}");
        assert_eq!(out.lines().count(), 1, "the bot still says who it is");
    }

    #[test]
    fn end_of_input_ends_the_game_cleanly() {
        assert!(run("").0.is_ok());
        let hello = serde_json::to_string(&wire::Hello::new("")).unwrap();
        assert!(run(&format!("{hello}\n")).0.is_ok());
    }

    #[test]
    fn a_garbage_request_quotes_the_line() {
        let hello = serde_json::to_string(&wire::Hello::new("")).unwrap();
        let error = run(&format!("{hello}\nnonsense\n")).0.unwrap_err();
        assert!(error.to_string().contains("`nonsense`"), "{error}");
    }
}
