//! The threads that read a bot's stdout (one line at a time, with a cap on
//! the line length and on the total volume) and its stderr (kept up to a cap).

use std::io::Read;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;

/// What the stdout reader reports.
#[derive(Debug)]
pub enum Output {
    /// One line, without its line ending (invalid UTF-8 replaced).
    Line(String),
    /// A line grew past the cap; `start` is its beginning.
    TooLong { start: String },
    /// The bot wrote more than the total volume cap.
    TooMuch { bytes: u64 },
    /// End of output (the bot closed stdout or exited).
    Closed,
    /// Reading failed.
    Failed(String),
}

/// What a bot has written since its last line end, as the stdout reader
/// last saw it (its first 256 bytes): a reply written
/// whole but with no newline after it, which the host waits on for ever.
#[derive(Clone, Debug, Default)]
pub struct Unfinished(Arc<Mutex<Vec<u8>>>);

impl Unfinished {
    /// How much of the unfinished line is kept, enough to recognise it.
    const KEPT: usize = 256;

    /// The unfinished line's start, or `None` when the bot's last byte
    /// ended a line.
    pub fn text(&self) -> Option<String> {
        let kept = self.0.lock().unwrap_or_else(|p| p.into_inner());
        (!kept.is_empty()).then(|| text(&kept))
    }

    fn set(&self, line: &[u8]) {
        let mut kept = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if !(kept.is_empty() && line.is_empty()) {
            kept.clear();
            kept.extend_from_slice(&line[..line.len().min(Self::KEPT)]);
        }
    }
}

/// Starts the stdout reader. It stops at the first report other than
/// `Line`; `unfinished` follows what the bot wrote after its last newline.
pub fn read_lines(
    mut stdout: impl Read + Send + 'static,
    max_line: usize,
    max_total: u64,
    unfinished: Unfinished,
) -> Receiver<Output> {
    let (tx, rx) = mpsc::channel();
    let spawned = thread::Builder::new()
        .name("bot-stdout".into())
        .spawn(move || pump(&mut stdout, &tx, max_line, max_total, &unfinished));
    if let Err(e) = spawned {
        // The receiver sees the failure as the bot's first output.
        let (tx, rx) = mpsc::channel();
        let _ = tx.send(Output::Failed(format!("cannot start the reader: {e}")));
        return rx;
    }
    rx
}

/// What one counted read of a bot's output gave.
enum Got {
    /// This many bytes, within the total cap.
    Data(usize),
    /// The end of the stream.
    End,
    /// A failure or too much output, already reported on the channel.
    Reported,
}

/// Reads once into `buffer`, counting into `total`: a read error or output
/// past `max_total` is reported on `tx` (interrupted reads are retried).
fn counted_read(
    stream: &mut impl Read,
    buffer: &mut [u8],
    total: &mut u64,
    max_total: u64,
    tx: &Sender<Output>,
) -> Got {
    loop {
        match stream.read(buffer) {
            Ok(0) => return Got::End,
            Ok(n) => {
                *total += n as u64;
                if *total > max_total {
                    let _ = tx.send(Output::TooMuch { bytes: *total });
                    return Got::Reported;
                }
                return Got::Data(n);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.send(Output::Failed(e.to_string()));
                return Got::Reported;
            }
        }
    }
}

fn pump(
    stdout: &mut impl Read,
    tx: &Sender<Output>,
    max_line: usize,
    max_total: u64,
    unfinished: &Unfinished,
) {
    let mut buffer = [0u8; 8192];
    let mut line: Vec<u8> = Vec::new();
    let mut total: u64 = 0;
    loop {
        let n = match counted_read(stdout, &mut buffer, &mut total, max_total, tx) {
            Got::Data(n) => n,
            Got::End => {
                if !line.is_empty() {
                    let _ = tx.send(Output::Line(text(&line)));
                }
                let _ = tx.send(Output::Closed);
                return;
            }
            Got::Reported => return,
        };
        for &byte in &buffer[..n] {
            if byte == b'\n' {
                if tx.send(Output::Line(text(&line))).is_err() {
                    return;
                }
                line.clear();
            } else {
                line.push(byte);
                if line.len() > max_line {
                    let _ = tx.send(Output::TooLong {
                        start: text(&line[..line.len().min(80)]),
                    });
                    return;
                }
            }
        }
        unfinished.set(&line);
    }
}

/// Starts a reader that reports what each read delivered, as it came (the
/// 2014 Speed Clue framing: a message is one read), as `Output::Line`s that
/// may hold any part of a line, or several. It stops at the first report
/// other than `Line`, and after `max_total` bytes.
pub fn read_chunks(mut stream: impl Read + Send + 'static, max_total: u64) -> Receiver<Output> {
    let (tx, rx) = mpsc::channel();
    let spawned = thread::Builder::new()
        .name("bot-socket".into())
        .spawn(move || {
            let mut buffer = [0u8; 8192];
            let mut total: u64 = 0;
            loop {
                let n = match counted_read(&mut stream, &mut buffer, &mut total, max_total, &tx) {
                    Got::Data(n) => n,
                    Got::End => {
                        let _ = tx.send(Output::Closed);
                        return;
                    }
                    Got::Reported => return,
                };
                let chunk = String::from_utf8_lossy(&buffer[..n]).into_owned();
                if tx.send(Output::Line(chunk)).is_err() {
                    return;
                }
            }
        });
    if let Err(e) = spawned {
        let (tx, rx) = mpsc::channel();
        let _ = tx.send(Output::Failed(format!("cannot start the reader: {e}")));
        return rx;
    }
    rx
}

fn text(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    s.strip_suffix('\r').unwrap_or(&s).to_string()
}

/// The last `lines` non-blank lines of a bot's stderr on one line, joined
/// by ` | `, keeping at most the last `chars` characters (where a runtime
/// puts its verdict): what a message or a stored record says of why it
/// failed.
pub fn last_lines(stderr: &str, lines: usize, chars: usize) -> String {
    let kept: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let tail = kept[kept.len().saturating_sub(lines)..].join(" | ");
    let count = tail.chars().count();
    if count <= chars {
        return tail;
    }
    let end: String = tail.chars().skip(count - chars).collect();
    format!("...{end}")
}

/// A bot's stderr, kept up to a cap. Clone it to keep it after the game.
#[derive(Clone, Debug, Default)]
pub struct StderrTap {
    inner: Arc<Shared>,
}

#[derive(Debug, Default)]
struct Shared {
    kept: Mutex<Kept>,
    /// Told when the pipe reaches its end.
    ended: Condvar,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[derive(Debug, Default)]
struct Kept {
    bytes: Vec<u8>,
    dropped: u64,
    /// The pipe reached its end: every byte the bot wrote is in.
    ended: bool,
}

impl StderrTap {
    /// What the bot wrote to stderr so far (lossy UTF-8), with a note of how
    /// much was dropped past the cap.
    pub fn text(&self) -> String {
        let kept = self.inner.lock();
        let mut text = String::from_utf8_lossy(&kept.bytes).into_owned();
        if kept.dropped > 0 {
            text.push_str(&format!("\n[{} more bytes dropped]\n", kept.dropped));
        }
        text
    }

    /// [`StderrTap::text`], once the pipe has ended or `within` has passed.
    /// For a bot that was just killed: its last words (often why it failed)
    /// may still be in the pipe.
    pub fn text_after_end(&self, within: std::time::Duration) -> String {
        let kept = self.inner.lock();
        drop(
            self.inner
                .ended
                .wait_timeout_while(kept, within, |kept| !kept.ended),
        );
        self.text()
    }

    /// Starts the thread that drains `stderr` into this tap, keeping `cap` bytes.
    pub(crate) fn drain(&self, mut stderr: impl Read + Send + 'static, cap: usize) {
        let inner = Arc::clone(&self.inner);
        let _ = thread::Builder::new()
            .name("bot-stderr".into())
            .spawn(move || {
                let mut buffer = [0u8; 4096];
                let end = |inner: &Shared| {
                    inner.lock().ended = true;
                    inner.ended.notify_all();
                };
                loop {
                    let n = match stderr.read(&mut buffer) {
                        Ok(0) => return end(&inner),
                        Ok(n) => n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(_) => return end(&inner),
                    };
                    let mut kept = inner.lock();
                    let room = cap.saturating_sub(kept.bytes.len()).min(n);
                    kept.bytes.extend_from_slice(&buffer[..room]);
                    kept.dropped += (n - room) as u64;
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::{StderrTap, last_lines};

    /// A pipe whose writer is the test: each message is one read's bytes,
    /// and the pipe ends when the sender is dropped.
    struct Pipe(mpsc::Receiver<Vec<u8>>);

    impl std::io::Read for Pipe {
        fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
            let Ok(chunk) = self.0.recv() else {
                return Ok(0);
            };
            buffer[..chunk.len()].copy_from_slice(&chunk);
            Ok(chunk.len())
        }
    }

    /// A tap draining a [`Pipe`] once `first` is in it, and the pipe's
    /// writer.
    fn tap_after(first: &[u8]) -> (StderrTap, mpsc::Sender<Vec<u8>>) {
        let tap = StderrTap::default();
        let (send, receive) = mpsc::channel();
        tap.drain(Pipe(receive), 1 << 10);
        send.send(first.to_vec()).unwrap();
        while tap.text().is_empty() {
            std::thread::yield_now();
        }
        (tap, send)
    }

    /// A crash report that reaches the pipe in two writes is read whole:
    /// the reader waits for the pipe's end, not for its first bytes (under
    /// load an isolated worker's report was once cut after `clue worker: `).
    #[test]
    fn the_last_words_are_read_once_the_pipe_ends() {
        // The first write is in, as a reader that stopped at the first
        // bytes would have seen it.
        let (tap, send) = tap_after(b"clue worker: ");
        // The rest comes later (when it comes does not decide the result; the
        // pause only lets a reader that stopped at the first bytes be caught).
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            send.send(b"the bot panicked at src/lib.rs:7\n".to_vec())
                .unwrap();
        });
        assert_eq!(
            tap.text_after_end(Duration::from_secs(600)),
            "clue worker: the bot panicked at src/lib.rs:7\n"
        );
        writer.join().unwrap();
    }

    /// A pipe that does not end (a grandchild holds it open) gives what it
    /// holds once the wait is over.
    #[test]
    fn a_pipe_that_does_not_end_gives_what_it_holds_after_the_wait() {
        let (tap, send) = tap_after(b"half a report");
        assert_eq!(
            tap.text_after_end(Duration::from_millis(50)),
            "half a report"
        );
        drop(send);
    }

    /// A reply written with no newline after it is not a line, but the
    /// reader shows it as the unfinished line until the line ends.
    #[test]
    fn a_line_with_no_end_yet_is_the_unfinished_line() {
        let unfinished = super::Unfinished::default();
        let (send, receive) = mpsc::channel();
        let lines = super::read_lines(Pipe(receive), 1 << 10, 1 << 20, unfinished.clone());
        send.send(b"{\"reply\":\"ok\"}\n{\"reply\":".to_vec())
            .unwrap();
        match lines.recv().unwrap() {
            super::Output::Line(line) => assert_eq!(line, r#"{"reply":"ok"}"#),
            other => panic!("{other:?}"),
        }
        while unfinished.text().is_none() {
            std::thread::yield_now();
        }
        assert_eq!(unfinished.text().as_deref(), Some(r#"{"reply":"#));
        send.send(b"\"ok\"}\r\n".to_vec()).unwrap();
        match lines.recv().unwrap() {
            super::Output::Line(line) => assert_eq!(line, r#"{"reply":"ok"}"#),
            other => panic!("{other:?}"),
        }
        while unfinished.text().is_some() {
            std::thread::yield_now();
        }
        // A long one keeps its start.
        send.send(vec![b'x'; 500]).unwrap();
        while unfinished.text().is_none() {
            std::thread::yield_now();
        }
        assert_eq!(unfinished.text().unwrap().len(), 256);
    }

    #[test]
    fn the_last_lines_of_stderr_keep_their_end() {
        assert_eq!(last_lines("", 3, 10), "");
        assert_eq!(last_lines("a\n\n  b \nc\nd\n", 3, 100), "b | c | d");
        assert_eq!(last_lines("one\ntwo", 5, 100), "one | two");
        // Clipped from the front, where the verdict is not.
        assert_eq!(last_lines("xxxxxxxxxEND", 1, 5), "...xxEND");
    }
}
