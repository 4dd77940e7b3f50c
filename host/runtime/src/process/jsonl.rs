//! The JSON-lines protocol (`docs/protocol.md`): the host sends its
//! [`Hello`], the bot answers with its own, then each request line gets
//! exactly one reply line.

use clue_engine::Fault;
use clue_plugin_api::{DqReason, Reply, Request, wire};
use wire::Hello;

use super::{BotProcess, ProcessLimits, SpawnError, StderrTap, clip, split_command};
use crate::sticky::{Exchange, Sticky};

/// A process bot speaking the JSON-lines protocol.
pub struct JsonlBot {
    process: BotProcess,
    limits: ProcessLimits,
    /// The name the bot gave in its hello, once it has.
    name: Option<String>,
    /// The names of the game's cards, by number, from its `begin-game`: for
    /// a reply that names a card where the protocol numbers it.
    cards: Vec<String>,
}

impl JsonlBot {
    /// Starts the command line `command` (split like a shell would). The
    /// hello is exchanged on the first request, under `limits.startup`.
    pub fn spawn(command: &str, limits: &ProcessLimits) -> Result<Sticky<JsonlBot>, SpawnError> {
        let argv = split_command(command)?;
        Ok(Sticky::new(JsonlBot {
            process: BotProcess::spawn(&argv, limits)?,
            limits: limits.clone(),
            name: None,
            cards: Vec::new(),
        }))
    }

    /// The name the bot gave in its hello (`None` before the first request).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The bot's stderr, kept up to `limits.max_stderr`.
    pub fn stderr(&self) -> StderrTap {
        self.process.stderr()
    }

    /// `fault`, and when it is a timeout and the bot's stderr ends in the
    /// line the host waits for (JSON with the key `key`, `hello` or
    /// `reply`), that the bot wrote it there.
    fn on_stderr(&self, mut fault: Fault, key: &str) -> Fault {
        if fault.reason == DqReason::Timeout
            && let Some(line) = last_line_with(&self.process.stderr().text(), key)
        {
            fault.detail.push_str(&format!(
                "; the last line of its stderr is `{}`, which belongs on stdout: the host reads \
                 the protocol's lines there alone (`console.error`, `print(..., \
                 file=sys.stderr)`, `System.err` and `eprintln!` write to stderr)",
                clip(line)
            ));
        }
        fault
    }

    fn hello(&mut self) -> Result<(), Fault> {
        let ours = serde_json::to_string(&Hello::new("")).unwrap_or_default();
        self.process.send(&ours)?;
        let line = self
            .process
            .recv(self.limits.startup, "hello")
            .map_err(|fault| self.on_stderr(fault, "hello"))?;
        let line = without_bom(&line);
        let theirs: Hello = serde_json::from_str(line).map_err(|e| {
            Fault::new(
                DqReason::ProtocolError,
                format!(
                    "sent `{}` instead of a hello ({e}){}",
                    clip(line),
                    not_json(line)
                ),
            )
        })?;
        theirs
            .check()
            .map_err(|e| Fault::new(DqReason::ProtocolError, e.to_string()))?;
        self.name = Some(theirs.name);
        Ok(())
    }

    fn exchange(&mut self, request: &Request) -> Result<Reply, Fault> {
        if self.name.is_none() {
            self.hello()?;
        }
        if let Some(stray) = self.process.stray_line() {
            let line = stray?;
            return Err(Fault::new(
                DqReason::ProtocolError,
                format!("sent `{}` unasked{}", clip(&line), not_json(&line)),
            ));
        }
        if let Request::BeginGame { setup } = request {
            self.cards = setup.deck.cards.iter().map(|c| c.name.clone()).collect();
        }
        self.process.send(&wire::encode_request(request))?;
        let what = format!("reply to `{}`", request.kind());
        let line = self
            .process
            .recv(self.limits.message, &what)
            .map_err(|fault| self.on_stderr(fault, "reply"))?;
        let line = without_bom(&line);
        wire::decode_reply(line).map_err(|e| {
            let error = e.to_string();
            Fault::new(
                DqReason::ProtocolError,
                format!(
                    "sent `{}` in answer to `{}` ({error}){}{}",
                    clip(line),
                    request.kind(),
                    not_json(line),
                    card_by_name(&error, request.kind(), &self.cards)
                        .or_else(|| reply_shape(line, request))
                        .unwrap_or_default()
                ),
            )
        })
    }
}

/// The last line of `text` (a bot's stderr) that is not blank, when it is
/// a JSON object with the key `key`.
fn last_line_with<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let line = text.lines().rev().find(|l| !l.trim().is_empty())?.trim();
    let value: serde_json::Value = serde_json::from_str(without_bom(line)).ok()?;
    value.get(key).is_some().then_some(line)
}

/// `line` without the byte-order mark it may begin with (.NET's
/// `Encoding.UTF8` writes one before a program's first output): RFC 8259
/// lets a JSON parser ignore it, and on a terminal the line looks the same
/// with it or without, so a reply refused for it would be a riddle.
fn without_bom(line: &str) -> &str {
    line.strip_prefix('\u{feff}').unwrap_or(line)
}

/// What to do about a reply that gave a card by its name (or as the deck's
/// object) where the protocol gives its number: which number it is, when
/// the name is one of the game's cards.
fn card_by_name(error: &str, kind: &str, cards: &[String]) -> Option<String> {
    let named = error
        .split_once("invalid type: string \"")
        .and_then(|(_, rest)| rest.split_once("\", expected u16"))
        .map(|(name, _)| name);
    if let Some((number, name)) =
        named.and_then(|name| Some((cards.iter().position(|c| c == name)?, name)))
    {
        return Some(format!(
            "; a card is a number, its index into the `setup.deck.cards` of `begin-game`: \
             `{name}` is {number}"
        ));
    }
    (matches!(kind, "suggest" | "accuse" | "respond") && error.contains("expected u16")).then(
        || "; a card is a number, its index into the `setup.deck.cards` of `begin-game`".into(),
    )
}

/// What a reply to `request` looks like, for a bot whose reply was JSON
/// but not a reply of the protocol (a suggestion's cards not in their
/// `cards` list, a misspelt field): `None` for a line that is not JSON,
/// which [`not_json`] speaks of.
fn reply_shape(line: &str, request: &Request) -> Option<String> {
    serde_json::from_str::<serde::de::IgnoredAny>(line).ok()?;
    let cards = r#"{"cards":[PERSON,WEAPON,ROOM]}"#;
    let shape = match request {
        Request::BeginGame { .. } | Request::Watch { .. } => r#"`{"reply":"ok"}`"#.to_string(),
        Request::Accuse(_) => format!(
            r#"`{{"reply":"accuse","accusation":null}}` or `{{"reply":"accuse","accusation":{cards}}}`"#
        ),
        Request::Move(_) => {
            r#"`{"reply":"move","to":TARGET}`, TARGET one of the request's `targets`"#.to_string()
        }
        Request::Suggest(_) => format!(
            r#"`{{"reply":"suggest","suggestion":{cards}}}` (generalized adds `"target":SEAT` beside `"cards"`; `"suggestion":null` where the request is `optional`)"#
        ),
        Request::Respond(_) => {
            r#"`{"reply":"respond","card":CARD}`, CARD one of the request's `matching`"#.to_string()
        }
    };
    Some(format!(
        "; a reply to `{}` is {shape}, cards by their numbers",
        request.kind()
    ))
}

/// What to do about a line that is not JSON at all: most often a bot's own
/// debugging `print`, which belongs on stderr (kept for the game record);
/// but JSON after characters a terminal does not show (a second
/// byte-order mark, a zero-width space, a control character), which the
/// quote shows escaped, is the bot's line spoilt.
fn not_json(line: &str) -> &'static str {
    let parses = |text: &str| serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
    let unseen = |c: char| c.is_control() || matches!(c, '\u{feff}' | '\u{200b}');
    if parses(line) {
        ""
    } else if parses(line.trim_start_matches(unseen)) {
        "; before its JSON come characters a terminal does not show (escaped in the quote; \
         the host skips one byte-order mark and no more): write the JSON alone"
    } else {
        super::OWN_PRINT
    }
}

impl Exchange for JsonlBot {
    fn exchange(&mut self, request: &Request) -> Result<Reply, Fault> {
        JsonlBot::exchange(self, request)
    }

    fn abandon(&mut self) {
        self.process.kill();
    }

    fn stderr(&self, abandoned: bool) -> Option<String> {
        Some(self.process.stderr_text(abandoned))
    }
}

#[cfg(test)]
mod tests {
    use super::{card_by_name, last_line_with, not_json, reply_shape};
    use clue_plugin_api::{AccuseRequest, Request};

    #[test]
    fn a_card_given_by_name_is_numbered() {
        let cards = ["Miss Scarlet".to_string(), "Mr. Green".to_string()];
        let said = card_by_name(
            r#"invalid type: string "Mr. Green", expected u16 at line 1 column 47"#,
            "suggest",
            &cards,
        );
        assert_eq!(
            said.as_deref(),
            Some(
                "; a card is a number, its index into the `setup.deck.cards` of `begin-game`: \
                 `Mr. Green` is 1"
            )
        );
        // Not a card of this game, or the deck's object: the rule alone.
        for error in [
            r#"invalid type: string "Green", expected u16 at line 1 column 40"#,
            "invalid type: map, expected u16 at line 1 column 40",
        ] {
            assert_eq!(
                card_by_name(error, "respond", &cards).as_deref(),
                Some("; a card is a number, its index into the `setup.deck.cards` of `begin-game`")
            );
        }
        // A cell's row is a number too, but not a card.
        assert_eq!(
            card_by_name(r#"invalid type: string "3", expected u16"#, "move", &cards),
            None
        );
        assert_eq!(
            card_by_name("missing field `reply`", "suggest", &cards),
            None
        );
    }

    #[test]
    fn a_json_reply_of_the_wrong_shape_is_shown_the_right_one() {
        let accuse = Request::Accuse(AccuseRequest {
            turn: serde_json::from_str(
                r#"{"seat":0,"round":1,"roll":null,"position":null,"room":null}"#,
            )
            .expect("a turn"),
            point: serde_json::from_str(r#""start-of-turn""#).expect("a point"),
        });
        assert_eq!(
            reply_shape(r#"{"reply":"accuse","accusation":[1,7,14]}"#, &accuse).as_deref(),
            Some(
                r#"; a reply to `accuse` is `{"reply":"accuse","accusation":null}` or `{"reply":"accuse","accusation":{"cards":[PERSON,WEAPON,ROOM]}}`, cards by their numbers"#
            )
        );
        // A line that is not JSON is told of stderr instead.
        assert_eq!(reply_shape("accusing 1 7 14", &accuse), None);
    }

    #[test]
    fn a_reply_on_stderr_is_found_on_its_last_line() {
        let hello = r#"{"hello":"clue-arena","protocol":"1.0","name":"x"}"#;
        let text = format!("starting\n{hello}\n\n");
        assert_eq!(last_line_with(&text, "hello"), Some(hello));
        assert_eq!(last_line_with(&text, "reply"), None);
        assert_eq!(
            last_line_with("  {\"reply\":\"ok\"}  ", "reply"),
            Some("{\"reply\":\"ok\"}")
        );
        // Only the last line: an old reply above a debug line is not it.
        assert_eq!(last_line_with("{\"reply\":\"ok\"}\ndebug", "reply"), None);
        assert_eq!(last_line_with("[\"reply\"]", "reply"), None);
        assert_eq!(last_line_with("", "reply"), None);
    }

    #[test]
    fn only_a_line_that_is_not_json_is_told_of_stderr() {
        assert_eq!(not_json(r#"{"reply":"pass"}"#), "");
        assert_eq!(not_json("[1, 2]"), "");
        assert!(not_json("debug: got None").contains("write the bot's own messages to stderr"));
        assert!(not_json("{\"cut\":").contains("stderr"));
        // JSON behind characters a terminal does not show is not a print.
        for spoilt in [
            "\u{feff}{\"reply\":\"ok\"}",
            "\u{200b}\u{feff}[1]",
            "\u{0}{}",
        ] {
            let said = not_json(spoilt);
            assert!(
                said.contains("characters a terminal does not show") && !said.contains("stderr"),
                "{spoilt:?}: {said}"
            );
        }
        assert!(not_json("\u{feff}debug").contains("stderr"));
    }
}
