//! `builtin:human` at the terminal: `clue play` with the person's answers
//! piped into standard input, answered prompt by prompt as a person would,
//! to the end of a game in several variants; garbage answers make the
//! prompt repeat with a message, and a closed terminal costs only the seat.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// `clue play` with a person in seat 0, its output read as it comes.
struct Game {
    child: Child,
    stdin: Option<ChildStdin>,
    output: Receiver<Vec<u8>>,
    /// Everything printed so far.
    text: String,
    /// How much of `text` has been answered.
    answered: usize,
}

impl Game {
    fn start(args: &[&str]) -> Game {
        let mut child = Command::new(env!("CARGO_BIN_EXE_clue"))
            .arg("play")
            .args(args)
            .args(["--bot", "builtin:human"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("clue play starts");
        let mut stdout = child.stdout.take().expect("piped stdout");
        let (tx, output) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Game {
            child,
            stdin,
            output,
            text: String::new(),
            answered: 0,
        }
    }

    /// The next prompt (the unanswered text up to it), or `None` once the
    /// program has closed its output.
    fn prompt(&mut self) -> Option<String> {
        loop {
            let pending = &self.text[self.answered..];
            if is_prompt(pending) {
                return Some(pending.to_string());
            }
            match self.output.recv_timeout(Duration::from_secs(60)) {
                Ok(chunk) => self.text.push_str(&String::from_utf8_lossy(&chunk)),
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    panic!("no prompt in 60 s; the output so far:\n{}", self.text)
                }
            }
        }
    }

    fn answer(&mut self, line: &str) {
        self.answered = self.text.len();
        let stdin = self.stdin.as_mut().expect("stdin still open");
        writeln!(stdin, "{line}").expect("the game reads its input");
    }

    /// Closes the terminal, waits for the end, and returns the whole
    /// output, the errors, and whether it exited successfully.
    fn finish(mut self) -> (String, String, bool) {
        drop(self.stdin.take());
        while let Ok(chunk) = self.output.recv_timeout(Duration::from_secs(60)) {
            self.text.push_str(&String::from_utf8_lossy(&chunk));
        }
        let mut errors = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            let _ = stderr.read_to_string(&mut errors);
        }
        let status = self.child.wait().expect("clue play ends");
        (self.text, errors, status.success())
    }
}

/// Whether the program is waiting for an answer: its output ends with one
/// of the console human's prompts.
fn is_prompt(text: &str) -> bool {
    let last = text.rsplit('\n').next().unwrap_or("");
    last.ends_with("[y/N] ")
        || last.ends_with("[Y/n] ")
        || last.ends_with("(numbers separated by spaces): ")
        || (last.ends_with("]: ") && last.contains("[1-"))
}

/// How many options the last `[1-N]:` prompt offers.
fn options(prompt: &str) -> usize {
    prompt
        .rsplit("[1-")
        .next()
        .and_then(|rest| rest.split(']').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
}

/// What happened while playing, beyond the output.
#[derive(Default)]
struct Played {
    prompts: usize,
    accused: bool,
    garbage: bool,
    /// Suggestions the rules refused, each chosen again.
    refused: usize,
}

/// Starts a game with `args` (the flags, split at spaces), plays it through
/// as [`play_through`] does and checks that it ended well: what was played,
/// stdout and stderr.
fn play_whole(args: &str, accuse_once: bool, hidden: usize) -> (Played, String, String) {
    let args: Vec<&str> = args.split_whitespace().collect();
    let mut game = Game::start(&args);
    let played = play_through(&mut game, accuse_once, hidden);
    let (out, errors, ok) = game.finish();
    assert!(ok, "{out}\n{errors}");
    (played, out, errors)
}

/// Answers every prompt until the game ends: no accusation but one guess
/// after the first turn (`accuse_once`), the first option of each choice, the right number of
/// items. The first choice is answered with garbage first. A suggestion the
/// rules refuse (Speed Clue's contest rules: a repeat) is chosen again one
/// option further on.
fn play_through(game: &mut Game, accuse_once: bool, hidden: usize) -> Played {
    let mut played = Played::default();
    let mut further = 0;
    while let Some(prompt) = game.prompt() {
        if prompt.contains("you made that suggestion before; the contest rules forbid repeating it")
        {
            played.refused += 1;
            further += 1;
        }
        played.prompts += 1;
        assert!(played.prompts < 5000, "the game does not end");
        let last = prompt.rsplit('\n').next().unwrap_or("").to_string();
        if last.ends_with("[y/N] ") {
            let yes = accuse_once && !played.accused && played.prompts > 4;
            played.accused |= yes;
            game.answer(if yes { "y" } else { "n" });
        } else if last.ends_with("[Y/n] ") {
            game.answer("");
        } else if last.contains("[1-") {
            if !played.garbage {
                played.garbage = true;
                let n = options(&last);
                game.answer("banana");
                let again = game.prompt().expect("the prompt comes back");
                assert!(
                    again.contains(&format!("type a number from 1 to {n}")),
                    "{again:?}"
                );
                assert!(again.ends_with(&last), "{again:?} does not repeat {last:?}");
                game.answer(&format!("{}", n + 1));
                let again = game.prompt().expect("the prompt comes back");
                assert!(again.ends_with(&last), "{again:?}");
            }
            game.answer(&(1 + further % options(&last)).to_string());
        } else if last.contains("hidden items") {
            // "the K hidden items (numbers separated by spaces): "
            let k: usize = last
                .split_whitespace()
                .nth(1)
                .and_then(|k| k.parse().ok())
                .unwrap_or(0);
            assert_eq!(k, hidden, "{last:?}");
            let picks: Vec<String> = (1..=hidden).map(|i| i.to_string()).collect();
            game.answer("0 0");
            let again = game.prompt().expect("the prompt comes back");
            assert!(again.contains("type numbers from 1 to"), "{again:?}");
            game.answer(&picks.join(" "));
        } else {
            game.answer("1");
        }
    }
    played
}

#[test]
fn a_person_at_the_terminal_plays_classic_to_the_end() {
    let (played, out, errors) = play_whole(
        "--variant classic --players 3 --seed 4 --max-rounds 12",
        false,
        0,
    );
    assert!(played.garbage, "{out}");
    assert!(
        out.contains("classic game, 3 players; you are seat 0"),
        "{out}"
    );
    assert!(out.contains("move to [1-"), "{out}");
    assert!(out.contains("* round 1: seat 0 (you) rolls"), "{out}");
    assert!(out.contains("game over"), "{out}");
    assert!(!out.contains("the terminal closed"), "{out}");
    assert!(!errors.contains("panicked"), "{errors}");
}

#[test]
fn a_person_at_the_terminal_plays_csci306_and_accuses() {
    let (played, out, errors) = play_whole("--variant csci306 --seed 7 --max-rounds 10", true, 0);
    assert!(played.accused, "{out}");
    // A guess of the first person, weapon and room; csci306 goes on after a wrong one.
    assert!(
        out.contains("* seat 0 (you) accuses")
            && (out.contains(": wrong") || out.contains(": correct!")),
        "{out}"
    );
    assert!(out.contains("game over"), "{out}");
    assert!(!out.contains("the terminal closed"), "{out}");
    assert!(!errors.contains("panicked"), "{errors}");
}

#[test]
fn a_person_at_the_terminal_plays_generalized_with_several_items() {
    // A wrong accusation ends a generalized seat's game; the bots play on.
    let (played, out, errors) = play_whole(
        "--variant generalized --players 3 --seed 2 --max-rounds 6",
        true,
        2,
    );
    assert!(played.accused, "{out}");
    assert!(out.contains("interrogate [1-2]"), "{out}");
    assert!(out.contains("seat 0 (builtin:human) accuses 1, 2"), "{out}");
    assert!(out.contains("game over"), "{out}");
    assert!(!errors.contains("panicked"), "{errors}");
}

#[test]
fn a_closed_terminal_costs_only_the_persons_seat() {
    let mut game = Game::start(&[
        "--variant",
        "speedclue",
        "--players",
        "3",
        "--seed",
        "1",
        "--max-rounds",
        "8",
    ]);
    let first = game.prompt().expect("a first prompt");
    assert!(first.contains("speedclue game, 3 players"), "{first}");
    let (out, errors, ok) = game.finish();
    assert!(ok, "{out}\n{errors}");
    assert!(
        out.contains("seat 0 (builtin:human) is disqualified (crash): the terminal closed"),
        "{out}"
    );
    assert!(out.contains("game over"), "{out}");
    assert!(!errors.contains("panicked"), "{errors}");
}

/// The two characters drawn for cell (row, col) in the last board drawing
/// of `text` (`clue board show`'s plain drawing: column numbers, then one
/// line a row, two characters a cell after the row number).
fn glyph(text: &str, row: usize, col: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let header = lines
        .iter()
        .rposition(|l| l.starts_with("    0 1 2 3"))
        .unwrap_or_else(|| panic!("no board drawn in:\n{text}"));
    let line = lines.get(header + 1 + row).copied().unwrap_or("");
    line.chars().skip(4 + 2 * col).take(2).collect()
}

/// The (row, col) of every `row R, column C` in `text`.
fn cells_named(text: &str) -> Vec<(usize, usize)> {
    text.split("row ")
        .skip(1)
        .filter_map(|rest| {
            let (row, rest) = rest.split_once(", column ")?;
            let col: String = rest.chars().take_while(char::is_ascii_digit).collect();
            Some((row.parse().ok()?, col.parse().ok()?))
        })
        .collect()
}

/// On a board with rooms and doors each move is drawn first: the board, the
/// person's token (its seat number) where the game says it stands, and
/// every square offered marked `[]`; after the move the token stands where
/// the person chose. Without a terminal the drawing has no colour escapes.
#[test]
fn a_person_at_the_terminal_sees_the_board_at_each_move() {
    let mut game = Game::start(&[
        "--variant",
        "csci306",
        "--players",
        "3",
        "--seed",
        "4",
        "--max-rounds",
        "3",
    ]);
    let mut moves = 0;
    let mut chose: Option<(usize, usize)> = None;
    while let Some(prompt) = game.prompt() {
        let last = prompt.rsplit('\n').next().unwrap_or("").to_string();
        if !last.starts_with("move to [1-") {
            game.answer(if last.ends_with("[y/N] ") { "n" } else { "1" });
            continue;
        }
        moves += 1;
        assert!(
            prompt.contains("tokens are seats by number (you are 0); [] marks where you may move"),
            "{prompt}"
        );
        assert!(
            !prompt.contains('\x1b'),
            "colour without a terminal: {prompt:?}"
        );
        let here = prompt
            .split("you are at ")
            .nth(1)
            .map(cells_named_one)
            .expect("where the person stands");
        if let (Some(chosen), Some(here)) = (chose, here) {
            assert_eq!(here, chosen, "the token is not where the person moved it");
        }
        if let Some((row, col)) = here {
            assert_eq!(
                glyph(&prompt, row, col).trim(),
                "0",
                "the token at ({row}, {col})\n{prompt}"
            );
        }
        let options = prompt.split("you are at ").nth(1).unwrap_or("");
        let targets = cells_named(options.split_once('\n').map_or("", |(_, list)| list));
        assert!(!targets.is_empty() || options.contains(") "), "{prompt}");
        for &(row, col) in &targets {
            assert_eq!(
                glyph(&prompt, row, col),
                "[]",
                "target ({row}, {col})\n{prompt}"
            );
        }
        chose = targets.first().copied();
        game.answer("1");
    }
    let (out, errors, ok) = game.finish();
    assert!(ok, "{out}\n{errors}");
    assert!(moves >= 2, "{moves} moves drawn:\n{out}");
    assert!(!errors.contains("panicked"), "{errors}");
}

/// The square in `line`'s first `row R, column C`, if it names a square
/// (`None` for a room).
fn cells_named_one(line: &str) -> Option<(usize, usize)> {
    let first = line.lines().next().unwrap_or("");
    cells_named(first).first().copied()
}

/// Before each chance to accuse, the person's notes say who holds each card
/// as far as the person has seen: the cards of their hand as theirs, and
/// every card shown to them by the seat that showed it, from then on.
#[test]
fn a_person_at_the_terminal_keeps_notes_of_what_was_shown() {
    let (played, out, _) = play_whole(
        "--variant speedclue --players 3 --seed 9 --max-rounds 6",
        false,
        0,
    );
    // Its second turn's first choices repeat its first suggestion: refused
    // before the engine sees it, and chosen again, so the seat plays on.
    assert!(played.refused > 0, "{out}");
    assert!(!out.contains("is disqualified"), "{out}");
    let hand: Vec<String> = out
        .lines()
        .find_map(|l| l.split_once("Your hand: "))
        .map(|(_, cards)| cards.split(", ").map(str::to_string).collect())
        .expect("the hand is told");
    let mut shown: Vec<(String, String)> = Vec::new();
    let (mut notes, mut after_mine) = (0, false);
    let lines: Vec<&str> = out.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if after_mine {
            after_mine = false;
            if let Some((_, answer)) = line.rsplit_once("seat ")
                && let Some((seat, card)) = answer.split_once(" shows ")
                && card != "a card"
            {
                shown.push((card.to_string(), format!("seat {seat}")));
            }
        }
        // A prompt's answer is not echoed: the next output follows it on
        // its line.
        after_mine |= line.contains("* seat 0 (you) suggests");
        if line.contains("what you have seen (who holds each card; ? not seen):") {
            notes += 1;
            let block = lines[i + 1..i + 4].join("\n");
            for card in &hand {
                assert!(block.contains(&format!("{card} (you)")), "{card}:\n{block}");
            }
            for (card, seat) in &shown {
                assert!(
                    block.contains(&format!("{card} ({seat})")),
                    "{card}:\n{block}"
                );
            }
        }
    }
    assert!(notes >= 2, "{notes} notes:\n{out}");
    assert!(!shown.is_empty(), "nothing was shown to the person:\n{out}");
}
