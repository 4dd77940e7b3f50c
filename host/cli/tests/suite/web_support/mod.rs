//! Shared by the `web_*` tests: `clue serve` on a free port, a tiny HTTP
//! client (no extra dependencies), and helpers that answer the seat's requests.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// `clue serve --port 0` for one test; killed when dropped.
pub struct Server {
    child: Child,
    pub addr: String,
}

impl Server {
    pub fn start(db: Option<&Path>) -> Server {
        Server::start_with(db, &[])
    }

    /// `clue serve --port 0` with more flags.
    pub fn start_with(db: Option<&Path>, flags: &[&str]) -> Server {
        Server::spawn(db, flags, Stdio::inherit())
    }

    /// `clue serve --port 0` with more flags, and what it writes to stderr
    /// (read it whole once the server is dropped).
    pub fn start_with_stderr(flags: &[&str]) -> (Server, std::process::ChildStderr) {
        let mut server = Server::spawn(None, flags, Stdio::piped());
        let stderr = server.child.stderr.take().expect("piped stderr");
        (server, stderr)
    }

    fn spawn(db: Option<&Path>, flags: &[&str], stderr: Stdio) -> Server {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_clue"));
        cmd.args(["serve", "--port", "0"]).args(flags);
        if let Some(db) = db {
            cmd.arg("--db").arg(db);
        }
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("clue serve starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("clue serve prints its address");
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line from clue serve: {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// The server's process id (its memory is read from /proc).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        http(&self.addr, "GET", path, None)
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        http(&self.addr, "POST", path, Some(&body.to_string()))
    }

    /// Starts a game and returns its id, panicking with the server's message.
    pub fn start_game(&self, request: &Value) -> u64 {
        let (status, body) = self.post("/api/games", request);
        assert_eq!(status, 200, "start {request}: {body}");
        body["id"].as_u64().expect("an id")
    }

    /// The seat's view once it has a pending request or the game is over.
    pub fn wait_pending(&self, id: u64) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut version = 0;
        loop {
            let (status, state) = self.get(&format!("/api/games/{id}?since={version}"));
            assert_eq!(status, 200, "{state}");
            if !state["pending"].is_null()
                || !state["finished"].is_null()
                || !state["error"].is_null()
            {
                return state;
            }
            version = state["version"].as_u64().unwrap_or(0);
            assert!(
                Instant::now() < deadline,
                "the game never asked the seat anything"
            );
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request; returns the status and the JSON body (or the body
/// as a JSON string when it is not JSON).
pub fn http(addr: &str, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
    let (status, text) = http_text(addr, method, path, body);
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

pub fn http_text(addr: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let host = format!("Host: {addr}");
    let headers = [host.as_str(), "Content-Type: application/json"];
    http_with(addr, method, path, &headers, body.unwrap_or(""))
}

/// One HTTP/1.1 request with exactly the given header lines (besides
/// `Connection` and `Content-Length`); returns the status and the body.
pub fn http_with(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &str,
) -> (u16, String) {
    let (status, _, body) = http_full(addr, method, path, headers, body);
    (status, body)
}

/// [`http_with`], with the response's head too (lowercase).
pub fn http_full(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &str,
) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("timeout");
    let mut request = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    for h in headers {
        request.push_str(h);
        request.push_str("\r\n");
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    // A server may answer (and close) before reading a body it refuses.
    let _ = stream.write_all(request.as_bytes());
    let _ = stream.write_all(body.as_bytes());
    // Read the head, then exactly the body: some servers (chromedriver) keep
    // the connection open whatever the request says.
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    let head_end = loop {
        if let Some(i) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = stream.read(&mut buf).expect("read");
        assert!(n > 0, "the connection closed before the response head");
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..head_end]).to_ascii_lowercase();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status code");
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    let chunked = head.contains("transfer-encoding: chunked");
    loop {
        let have = raw.len() - head_end;
        let done = match length {
            Some(n) => have >= n,
            None if chunked => raw.ends_with(b"0\r\n\r\n"),
            None => false,
        };
        if done {
            break;
        }
        let n = stream.read(&mut buf).expect("read");
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
    }
    let rest = String::from_utf8_lossy(&raw[head_end..]).to_string();
    let body = if chunked { unchunk(&rest) } else { rest };
    (status, head, body)
}

/// The value of header `name` (lowercase) in a response head from [`http_full`].
pub fn header_of(head: &str, name: &str) -> Option<String> {
    head.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}:")))
        .map(|v| v.trim().to_string())
}

fn unchunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    out
}

/// A legal answer to the pending request, as a simple player would give it:
/// never accuse unless forced, move to the first target, suggest the cards
/// it does not hold, show the first matching card.
pub fn simple_answer(state: &Value, count: usize) -> (String, Value) {
    let pending = &state["pending"];
    let id = pending["id"].clone();
    let r = &pending["request"];
    let hand: Vec<u64> = state["hand"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .collect();
    let deck = state["deck"].as_array().cloned().unwrap_or_default();
    let not_held = |cat: &str, skip: usize| -> Vec<u64> {
        let cards: Vec<u64> = deck
            .iter()
            .filter(|c| c["category"] == cat)
            .filter_map(|c| c["id"].as_u64())
            .filter(|c| !hand.contains(c))
            .collect();
        let n = cards.len().max(1);
        cards
            .iter()
            .cycle()
            .skip(skip % n)
            .take(1)
            .copied()
            .collect()
    };
    match r["request"].as_str().unwrap_or("") {
        "accuse" if r["point"] == "forced" => {
            let cats: Vec<String> = categories(state);
            let mut cards = Vec::new();
            for cat in &cats {
                let k = if cat == "item" {
                    state["rules"]["hidden"][0].as_u64().unwrap_or(1)
                } else {
                    1
                };
                let pool: Vec<u64> = deck
                    .iter()
                    .filter(|c| c["category"] == cat.as_str())
                    .filter_map(|c| c["id"].as_u64())
                    .filter(|c| !hand.contains(c))
                    .collect();
                cards.extend(pool.into_iter().take(k as usize));
            }
            (
                "accuse".into(),
                json!({"request": id, "accusation": {"cards": cards}}),
            )
        }
        "accuse" => ("accuse".into(), json!({"request": id, "accusation": null})),
        "move" => {
            // Into a room when one is in reach, so the seat gets to suggest.
            let targets = r["targets"].as_array().cloned().unwrap_or_default();
            let to = targets
                .iter()
                .find(|t| t.get("room").is_some())
                .unwrap_or(&r["targets"][0]);
            ("move".into(), json!({"request": id, "to": to}))
        }
        "suggest" => {
            if let Some(opp) = r["opponents"].as_array().and_then(|o| o.first()) {
                let cards = not_held("item", count);
                return (
                    "suggest".into(),
                    json!({"request": id, "suggestion": {"cards": cards, "target": opp}}),
                );
            }
            let mut cards = Vec::new();
            for cat in categories(state) {
                if cat == "room" && !r["turn"]["room"].is_null() {
                    cards.push(r["turn"]["room"].as_u64().unwrap_or(0));
                } else {
                    cards.extend(not_held(&cat, count + cards.len() * 7));
                }
            }
            (
                "suggest".into(),
                json!({"request": id, "suggestion": {"cards": cards}}),
            )
        }
        "respond" => (
            "respond".into(),
            json!({"request": id, "card": r["matching"][0]}),
        ),
        other => panic!("unexpected request kind {other:?} in {state}"),
    }
}

/// The categories of the deck, in deck order.
pub fn categories(state: &Value) -> Vec<String> {
    let mut cats: Vec<String> = Vec::new();
    for c in state["deck"].as_array().into_iter().flatten() {
        let cat = c["category"].as_str().unwrap_or("").to_string();
        if !cats.contains(&cat) {
            cats.push(cat);
        }
    }
    cats
}

/// Holds the game of a [`slow_tournament`] in play at fixed points until the
/// test lets it go on: each seat waits before its decision number
/// `HOLD_EVERY * k + 1` until the gate has been opened `k` times. So a test
/// sees the game in play, and then new events of it, however slow the
/// machine, and never a game that ended before the test looked.
#[derive(Clone, Default)]
pub struct Gate(std::sync::Arc<(std::sync::Mutex<usize>, std::sync::Condvar)>);

/// The decisions a seat makes between two holds. The game of
/// [`slow_tournament`] gives each seat more than 70, so it holds at least
/// three times.
pub const HOLD_EVERY: usize = 20;

impl Gate {
    /// Lets the game go on to its next hold.
    pub fn step(&self) {
        self.set(|opened| opened.saturating_add(1));
    }

    /// Lets the game, and every later one, play to its end.
    pub fn release(&self) {
        self.set(|_| usize::MAX);
    }

    fn set(&self, f: impl FnOnce(usize) -> usize) {
        let (opened, changed) = &*self.0;
        let mut opened = opened.lock().expect("the gate");
        *opened = f(*opened);
        changed.notify_all();
    }

    fn wait(&self, decision: usize) {
        let (opened, changed) = &*self.0;
        let mut opened = opened.lock().expect("the gate");
        while decision > HOLD_EVERY.saturating_mul(opened.saturating_add(1)) {
            opened = changed.wait(opened).expect("the gate");
        }
    }
}

/// A gate released when dropped, so a failing test does not leave its
/// tournament's thread waiting.
pub struct Hold(pub Gate);

impl Drop for Hold {
    fn drop(&mut self) {
        self.0.release();
    }
}

/// A built-in bot that thinks a little before each decision, so a game of a
/// tournament lasts long enough to be watched while it runs, and that waits
/// at the gate's holds when given one.
pub struct Slow {
    inner: Box<dyn clue_engine::SeatController>,
    think: Duration,
    gate: Option<Gate>,
    decisions: usize,
}

impl clue_engine::SeatController for Slow {
    fn call(
        &mut self,
        request: &clue_plugin_api::Request,
    ) -> Result<clue_plugin_api::Reply, clue_engine::Fault> {
        if !matches!(
            request,
            clue_plugin_api::Request::Watch { .. } | clue_plugin_api::Request::BeginGame { .. }
        ) {
            self.decisions += 1;
            if let Some(gate) = &self.gate {
                gate.wait(self.decisions);
            }
            std::thread::sleep(self.think);
        }
        self.inner.call(request)
    }
}

/// Seats every bot of a tournament as a [`Slow`] one.
pub struct SlowBots(pub Duration, pub Option<Gate>);

impl clue_arena::runner::Connector for SlowBots {
    fn connect(
        &self,
        bot: &clue_arena::config::BotEntry,
    ) -> Result<Box<dyn clue_engine::SeatController>, clue_engine::Fault> {
        clue_runtime::bots::connect(&bot.spec)
            .map(|inner| {
                Box::new(Slow {
                    inner,
                    think: self.0,
                    gate: self.1.clone(),
                    decisions: 0,
                }) as Box<dyn clue_engine::SeatController>
            })
            .map_err(|e| clue_engine::Fault::new(clue_plugin_api::DqReason::Crash, e.to_string()))
    }
}

/// Runs a small `classic` tournament of built-in bots that think `think`
/// per decision into `db` on a thread of its own, holding at `gate`'s holds
/// when given one; the thread returns how many games it played. With a
/// gate, a seat must think more than the runner's `LIVE_EVERY` (250 ms)
/// before the first hold: a game is written as in play only once it has
/// lasted that long.
pub fn slow_tournament(
    dir: &Path,
    db: &Path,
    games: u32,
    think: Duration,
    gate: Option<Gate>,
) -> std::thread::JoinHandle<Result<usize, String>> {
    use clue_arena::{config, runner, store::Store};
    assert!(
        gate.is_none() || think * HOLD_EVERY as u32 > Duration::from_millis(250),
        "a held game would never be written as in play"
    );
    let file = format!(
        "variant: classic\nplayers: 3\nseed: 9\nconcurrency: 1\nschedule: {{kind: random, games: {games}}}\nbots:\n  - {{name: notebook, kind: builtin, path: notebook}}\n  - {{name: clueless, kind: builtin, path: clueless}}\n  - {{name: notebook-2, kind: builtin, path: notebook}}\n"
    );
    let t = config::parse(&file, "live.yaml", dir).expect("tournament");
    let mut store = Store::open(db).expect("store");
    std::thread::spawn(move || {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let options = runner::RunOptions {
            stop: &stop,
            watch: &runner::Unwatched,
            standings_every: None,
        };
        runner::run(&t, &mut store, &SlowBots(think, gate), &options)
            .map(|s| s.played)
            .map_err(|e| e.to_string())
    })
}
