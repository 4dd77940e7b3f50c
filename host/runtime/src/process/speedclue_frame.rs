//! The entrant's framing of a 2014 Speed Clue server's bare messages
//! (`docs/speedclue.md`, "Framing"): how much of what has arrived is the
//! next message, from its keyword and fields, and the one ambiguous cut,
//! `suggest` | `ion ...`.

use clue_engine::deal::hand_size;

use super::server_lines::Frame;

/// How long a bare `suggest` that is not this player's turn waits for more
/// (it may be the start of `suggestion`, cut by TCP) before it is taken as
/// `suggest`. The entrant's socket read timeout.
pub const SUGGEST_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

/// One field of a bare server message after its keyword, each after one space.
#[derive(Clone, Copy)]
enum Field {
    /// A player number: one digit.
    Digit,
    /// A card code: two characters.
    Card,
    /// A disprover: one digit, or `-`.
    DigitOrDash,
    /// `+` or `-`.
    Sign,
}

/// How much of `pending` is the server's next message, for a server that
/// sends messages with no terminator (the 2014 server, `Player.java`: each
/// message one `out.format`, single spaces, one-digit player numbers,
/// two-letter card codes). Every message's length follows from its keyword
/// and fields: `reset N I` and the hand size of the contest's deal for
/// player I of N, `disprove P S W R`, `suggestion P S W R D` and the card
/// shown when this player (`me`) is P or D, `accusation P S W R +`, and the
/// bare `suggest`, `accuse`, `done`. A bare `suggest` is whole at once when
/// it is this player's turn (`my_turn`), else only if nothing follows soon
/// (it may be `suggestion` cut in two). What cannot grow into a message is
/// taken whole, to be refused as it is.
pub(crate) fn frame(pending: &str, me: Option<u8>, my_turn: bool) -> Frame {
    use Field::{Card as C, Digit as D, DigitOrDash, Sign};
    const KEYWORDS: [&str; 7] = [
        "reset",
        "suggestion",
        "suggest",
        "disprove",
        "accusation",
        "accuse",
        "done",
    ];
    let refuse = Frame::Whole(pending.len());
    let Some(keyword) = KEYWORDS.iter().find(|k| pending.starts_with(**k)) else {
        let cut_short = KEYWORDS.iter().any(|k| k.starts_with(pending));
        return if cut_short { Frame::Partial } else { refuse };
    };
    let b = pending.as_bytes();
    let mut at = keyword.len();
    // Reads one field; `None`: not arrived yet; `Some(Err)`: wrong.
    let mut field = |kind: Field| -> Option<Result<u8, ()>> {
        let width = if matches!(kind, C) { 2 } else { 1 };
        if b.len() < at + 1 + width {
            // What has arrived so far must still fit.
            let so_far = &b[at..];
            return match so_far.first() {
                Some(b' ') | None => None,
                Some(_) => Some(Err(())),
            };
        }
        if b[at] != b' ' {
            return Some(Err(()));
        }
        let token = &b[at + 1..at + 1 + width];
        at += 1 + width;
        Some(match (kind, token) {
            (D | DigitOrDash, [d]) if d.is_ascii_digit() => Ok(d - b'0'),
            (DigitOrDash | Sign, [b'-']) => Ok(b'-'),
            (Sign, [b'+']) => Ok(b'+'),
            (C, [x, y]) if x.is_ascii_alphabetic() && y.is_ascii_alphabetic() => Ok(0),
            _ => Err(()),
        })
    };
    macro_rules! read {
        ($kind:expr) => {
            match field($kind) {
                None => return Frame::Partial,
                Some(Err(())) => return refuse,
                Some(Ok(v)) => v,
            }
        };
    }
    match *keyword {
        "suggest" => {
            return match pending.len() {
                7 if !my_turn => Frame::Unless(7),
                // `suggesti...`: the start of `suggestion` (matched above
                // when whole), so read on.
                n if n > 7 && "suggestion".starts_with(pending) => Frame::Partial,
                _ => Frame::Whole(7),
            };
        }
        "accuse" | "done" => {}
        "disprove" => {
            read!(D);
            for _ in 0..3 {
                read!(C);
            }
        }
        "accusation" => {
            read!(D);
            for _ in 0..3 {
                read!(C);
            }
            read!(Sign);
        }
        "suggestion" => {
            let suggester = read!(D);
            for _ in 0..3 {
                read!(C);
            }
            let shower = read!(DigitOrDash);
            if shower != b'-' && me.is_some_and(|me| me == suggester || me == shower) {
                read!(C);
            }
        }
        _ => {
            // reset N I and the hand.
            let players = read!(D);
            let seat = read!(D);
            if !(3..=6).contains(&players) || seat >= players {
                return refuse;
            }
            for _ in 0..hand_size(18, usize::from(players), usize::from(seat)) {
                read!(C);
            }
        }
    }
    Frame::Whole(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(pending: &str, me: Option<u8>, my_turn: bool, expected: Frame) {
        assert_eq!(
            frame(pending, me, my_turn),
            expected,
            "`{pending}` me {me:?} my turn {my_turn}"
        );
    }

    #[test]
    fn a_bare_message_is_as_long_as_its_keyword_and_fields_say() {
        use Frame::{Partial, Whole};
        let reset = "reset 4 3 Pl Ro Ki Wh";
        check(reset, Some(0), false, Whole(reset.len()));
        check("reset 4 3 Pl Ro Ki", Some(0), false, Partial);
        check("reset 4 1 Pl Ro Ki Wh", Some(0), false, Partial);
        check("res", None, false, Partial);
        check("disprove 1 Gr Kn D", Some(0), false, Partial);
        check("disprove 1 Gr Kn Di", Some(0), false, Whole(19));
        check("accusation 2 Mu Pi St -", Some(0), false, Whole(23));
        // The card shown is sent only to the suggester and the shower.
        check("suggestion 0 Gr Kn Di 1", Some(2), false, Whole(23));
        check("suggestion 0 Gr Kn Di 1", Some(1), false, Partial);
        check("suggestion 0 Gr Kn Di 1 Kn", Some(0), false, Whole(26));
        check("suggestion 0 Gr Kn Di -", Some(0), false, Whole(23));
        check("accuse", Some(0), false, Whole(6));
        check("accus", Some(0), false, Partial);
        check("done", Some(0), false, Whole(4));
        // What cannot grow into a message is taken whole, to be refused.
        check("hello", None, false, Whole(5));
        check("reset 9 0 Pl", None, false, Whole(12));
        check("disprove 1 Gr  Kn Di", Some(0), false, Whole(20));
    }

    #[test]
    fn a_message_cut_right_after_the_word_suggest_waits_off_turn() {
        use Frame::{Partial, Unless, Whole};
        // This player's turn: `suggest` is whole at once.
        check("suggest", Some(1), true, Whole(7));
        // Not its turn: `suggestion` cut in two, unless nothing follows.
        check("suggest", Some(1), false, Unless(7));
        check("suggesti", Some(1), false, Partial);
        check("suggestion 0 Gr", Some(1), false, Partial);
    }

    #[test]
    fn two_messages_in_one_read_are_taken_one_at_a_time() {
        use Frame::Whole;
        check("accusation 1 Gr Kn Di -suggest", Some(2), true, Whole(23));
        check("suggestion 0 Gr Kn Di -accuse", Some(0), false, Whole(23));
        check(
            "reset 3 0 Pl Ro Ki Wh Ca Basuggest",
            Some(0),
            false,
            Whole(27),
        );
        check("suggestdone", Some(0), true, Whole(7));
    }
}
