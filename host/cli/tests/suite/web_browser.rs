//! End to end in headless Chromium: a person plays a whole `csci306` game
//! against five bots by clicking the highlighted targets and the dialogs,
//! and watches a stored tournament game step by step. Screenshots go to
//! `target/screenshots/`. Needs Debian's `chromium` and `chromium-driver`
//! (`.ci/run` installs them); driven over the WebDriver protocol.

use crate::web_support;

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use web_support::{Server, http};

/// chromedriver on a free port, with one headless Chromium session.
struct Browser {
    driver: Child,
    addr: String,
    session: String,
    _profile: TempDir,
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Browser {
    fn start() -> Browser {
        // A port free when looked at may be taken before chromedriver binds
        // it ("IPv4 port not available. Exiting..."): then another is tried.
        let mut tries = 0;
        let (port, driver, profile, profile_guard) = loop {
            let port = free_port();
            let profile =
                std::env::temp_dir().join(format!("clue-web-test-{}-{port}", std::process::id()));
            // Chromium makes its `scoped_dir`s in TMPDIR and leaves them when
            // chromedriver is killed: keep them in the profile folder, which
            // is removed with the browser.
            let scratch = profile.join("tmp");
            std::fs::create_dir_all(&scratch).expect("the browser's scratch folder is made");
            let profile_guard = TempDir(profile.clone());
            let mut driver = Command::new("chromedriver")
                .arg(format!("--port={port}"))
                .env("TMPDIR", &scratch)
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver runs (apt-get install chromium chromium-driver)");
            let stdout = driver.stdout.take().expect("piped");
            let mut reader = BufReader::new(stdout);
            let mut line = String::new();
            let mut said = String::new();
            let deadline = Instant::now() + Duration::from_secs(30);
            while !line.contains("started successfully") {
                line.clear();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || Instant::now() > deadline {
                    break;
                }
                said.push_str(&line);
            }
            if line.contains("started successfully") {
                std::thread::spawn(move || {
                    let mut sink = String::new();
                    while reader.read_line(&mut sink).unwrap_or(0) > 0 {
                        sink.clear();
                    }
                });
                break (port, driver, profile, profile_guard);
            }
            let _ = driver.kill();
            let _ = driver.wait();
            tries += 1;
            assert!(
                tries < 5 && said.contains("port not available"),
                "chromedriver did not start on port {port}:\n{said}"
            );
        };
        let addr = format!("127.0.0.1:{port}");
        let binary = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .unwrap_or("/usr/bin/chromium");
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": binary,
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync",
                         "--disable-dev-shm-usage", "--window-size=1500,1050",
                         format!("--user-data-dir={}", profile.display())]
            }
        }}});
        let (status, body) = http(&addr, "POST", "/session", Some(&caps.to_string()));
        assert_eq!(status, 200, "new session: {body}");
        let session = body["value"]["sessionId"]
            .as_str()
            .expect("session id")
            .to_string();
        Browser {
            driver,
            addr,
            session,
            _profile: profile_guard,
        }
    }

    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("/session/{}{path}", self.session);
        let text = body.map(|b| b.to_string());
        let (status, reply) = http(
            &self.addr,
            method,
            &url,
            text.as_deref().or(Some("{}")).filter(|_| method == "POST"),
        );
        assert_eq!(status, 200, "{method} {path}: {reply}");
        reply["value"].clone()
    }

    fn try_cmd(&self, method: &str, path: &str, body: Value) -> (u16, Value) {
        let url = format!("/session/{}{path}", self.session);
        http(&self.addr, method, &url, Some(&body.to_string()))
    }

    fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    fn script(&self, code: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({ "script": code, "args": [] })),
        )
    }

    fn find(&self, css: &str) -> Option<String> {
        let (status, reply) = self.try_cmd(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        if status != 200 {
            return None;
        }
        reply["value"]
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .map(String::from)
    }

    /// Clicks the element like a person (WebDriver element click). `false`
    /// when it is not there or something covers it.
    fn click(&self, css: &str) -> bool {
        match self.find(css) {
            Some(id) => {
                self.try_cmd("POST", &format!("/element/{id}/click"), json!({}))
                    .0
                    == 200
            }
            None => false,
        }
    }

    fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css).unwrap_or_else(|| panic!("no {css}"));
        self.cmd("POST", &format!("/element/{id}/clear"), Some(json!({})));
        self.cmd(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    fn screenshot(&self, name: &str) -> PathBuf {
        let data = self.cmd("GET", "/screenshot", None);
        let png = base64_decode(data.as_str().expect("base64 png"));
        assert!(png.starts_with(b"\x89PNG"), "a png");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
        std::fs::create_dir_all(&dir).expect("screenshot dir");
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).expect("write screenshot");
        path
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http(
            &self.addr,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// What the page shows: the prompt's kind and request, whether a dialog is
/// open, whether the notebook has solved the case.
fn page_state(browser: &Browser) -> Value {
    browser.script(
        "const p = document.getElementById('prompt');
         return { kind: p.dataset.kind || '', request: p.dataset.request || '',
                  modal: !document.getElementById('modal').classList.contains('hidden'),
                  modalTitle: document.getElementById('modal-title').textContent,
                  solved: p.dataset.solved === 'true',
                  targets: document.querySelectorAll('.target').length,
                  text: document.getElementById('prompt-text').textContent };",
    )
}

/// The texts of the page's list `css` (events, ...).
fn texts(browser: &Browser, css: &str) -> Vec<String> {
    let code = format!("return [...document.querySelectorAll('{css}')].map((e) => e.textContent);");
    browser
        .script(&code)
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(String::from))
        .collect()
}

/// Waits until `probe` holds, at most `secs` seconds: a guard against a
/// hang, not a timing check, so generous enough for ten Chromiums at once
/// on two loaded cores (30 s was not, once).
fn wait_for(secs: u64, what: &str, mut probe: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !probe() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_broken_uploaded_board_is_refused_on_the_page() {
    let dir = std::env::temp_dir().join(format!("clue-web-upload-{}", std::process::id()));
    let _cleanup = TempDir(dir.clone());
    std::fs::create_dir_all(&dir).expect("dir");
    let setup = "Room, Kitchen, K\nRoom, Hall, H\nSpace, Walkway, W\nPlayer, Miss Scarlet, red, Human, 2, 1\nPlayer, Mr Green, green, Computer, 2, 2\nWeapon, Rope\n";
    std::fs::write(dir.join("MySetup.txt"), setup).expect("setup");
    std::fs::write(
        dir.join("MyLayout.csv"),
        "K,K*,K#,W,Wv,W\nW,W^,Q,W,H,H\nW,W,W,W,H*,H#\n",
    )
    .expect("layout");
    std::fs::write(
        dir.join("Fixed.csv"),
        "K,K*,K#,W,Wv,W\nW,W^,W,W,H,H\nW,W,W,W,H*,H#\n",
    )
    .expect("layout");
    let server = Server::start(None);
    let browser = Browser::start();
    browser.goto(&server.url("/"));
    browser.type_into("#players", "2");
    browser.type_into("#delay", "0");
    let upload = |css: &str, file: &str| {
        let id = browser.find(css).unwrap_or_else(|| panic!("no {css}"));
        let path = dir.join(file).display().to_string();
        browser.cmd(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": path })),
        );
    };
    upload("#layout-file", "MyLayout.csv");
    upload("#setup-file", "MySetup.txt");
    assert!(browser.click("#start"));
    let error = || {
        browser
            .script("return document.getElementById('start-error').textContent;")
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    wait_for(120, "the refusal", || !error().is_empty());
    assert!(
        error().contains("MyLayout.csv:2:6: unknown room initial `Q`"),
        "{}",
        error()
    );
    let game_hidden =
        browser.script("return document.getElementById('game').classList.contains('hidden');");
    assert_eq!(game_hidden, true, "a refused board started a game");
    browser.screenshot("00-broken-board");
    // The same board without the stray cell is played on.
    browser.goto(&server.url("/"));
    browser.type_into("#players", "2");
    upload("#layout-file", "Fixed.csv");
    upload("#setup-file", "MySetup.txt");
    assert!(browser.click("#start"));
    wait_for(120, "the uploaded board", || {
        browser
            .script("return document.querySelectorAll('#board-view svg.rooms rect.cell').length;")
            .as_u64()
            == Some(18)
    });
    assert!(error().is_empty(), "{}", error());
}

#[test]
fn a_person_plays_a_whole_csci306_game_in_chromium() {
    let server = Server::start(None);
    let browser = Browser::start();
    browser.goto(&server.url("/"));
    browser.type_into("#delay", "0");
    browser.type_into("#seed", "12");
    let shot = browser.screenshot("01-new-game");
    assert!(shot.exists());
    assert!(browser.click("#start"));

    let deadline = Instant::now() + Duration::from_secs(300);
    let (mut moves, mut suggestions, mut responses, mut accusations) = (0, 0, 0, 0);
    let mut guessed = false;
    let mut last_dialog = String::new();
    let mut shots = std::collections::BTreeSet::new();
    let mut last_request = String::new();
    let over = loop {
        let state = page_state(&browser);
        if Instant::now() > deadline {
            let events = texts(&browser, "#events li");
            let notes = texts(&browser, "#modal-error, #toast");
            browser.screenshot("99-timed-out");
            panic!(
                "the game did not end in time: {state}; {notes:?}; last events {:#?}",
                &events[events.len().saturating_sub(8)..]
            );
        }
        let kind = state["kind"].as_str().unwrap_or("").to_string();
        let request = state["request"].as_str().unwrap_or("").to_string();
        if kind == "over" {
            break state;
        }
        if kind == "error" {
            panic!("the game stopped: {state}");
        }
        let fresh = request != last_request;
        if state["modal"] == true {
            let title = state["modalTitle"].as_str().unwrap_or("").to_string();
            if shots.insert(title.clone()) {
                browser.screenshot(&format!(
                    "03-dialog-{}",
                    title.to_lowercase().replace(' ', "-")
                ));
            }
            // One click per dialog: the answer takes a moment to close it.
            let dialog = format!("{title}/{request}");
            if dialog != last_dialog && browser.click("#modal-ok") {
                last_dialog = dialog;
                match title.as_str() {
                    "Suggest" => suggestions += 1,
                    "Show a card" => responses += 1,
                    "Accuse" => accusations += 1,
                    _ => {}
                }
                last_request = request;
            }
        } else if !fresh {
            // Already answered; wait for the game to move on.
        } else if kind == "move" {
            assert!(
                state["targets"].as_u64().unwrap_or(0) > 0,
                "a move with no highlighted target: {state}"
            );
            if shots.insert("move".to_string()) {
                browser.screenshot("02-targets");
            }
            if moves == 6 && shots.insert("mid-game".to_string()) {
                browser.screenshot("02-board-mid-game");
            }
            // Prefer entering a room (its centre marker), else any highlighted square.
            if browser.click("circle.target") || browser.click("rect.target") {
                moves += 1;
                last_request = request;
            }
        } else if kind == "accuse" {
            // Accuse once the notebook has solved the case; before that, once,
            // a guess (in csci306 a wrong accusation only tells you so).
            let accuse = state["solved"] == true || (!guessed && moves >= 2);
            let clicked = if accuse {
                guessed = true;
                browser.click("#accuse-yes")
            } else {
                browser.click("#accuse-no")
            };
            if clicked && !accuse {
                last_request = request;
            }
        }
        std::thread::sleep(Duration::from_millis(60));
    };
    let end = browser.screenshot("04-game-over");
    assert!(end.exists());
    let text = over["text"].as_str().unwrap_or("").to_string();
    assert!(text.contains("The envelope held"), "{over}");
    assert!(moves >= 3, "only {moves} moves were clicked");
    assert!(
        suggestions >= 1,
        "no suggestion was made through the dialog"
    );
    assert!(
        accusations >= 1,
        "no accusation was made through the dialog"
    );
    // What the page shows agrees with what was clicked.
    let events = texts(&browser, "#events li");
    let mine = |what: &str| events.iter().filter(|e| e.contains(what)).count();
    assert!(mine("(you) moves to") >= moves, "{events:#?}");
    assert!(mine("(you) suggests") >= suggestions, "{events:#?}");
    assert_eq!(mine("(you) accuses"), accusations, "{events:#?}");
    // Each accusation's outcome is shown.
    assert!(
        events
            .iter()
            .filter(|e| e.contains("(you) accuses"))
            .all(|e| e.ends_with(": wrong") || e.ends_with(": correct!")),
        "{events:#?}"
    );
    assert!(
        events.last().is_some_and(|e| e.starts_with("game over")),
        "{events:#?}"
    );
    let hand = texts(&browser, "#hand .chip");
    assert!(hand.len() >= 3, "{hand:?}");
    let envelope = text
        .split("The envelope held ")
        .nth(1)
        .unwrap_or("")
        .trim_end_matches('.')
        .to_string();
    // A correct accusation names the envelope and wins.
    if let Some(won) = events
        .iter()
        .find(|e| e.contains("(you) accuses") && e.ends_with("correct!"))
    {
        assert!(won.contains(&envelope), "{won} / {envelope}");
        assert!(text.starts_with("You win!"), "{text}");
    }
    // The notebook has every card and, at the end, the envelope's three rows.
    let envelope_rows = texts(&browser, "#notebook tr.envelope td.name");
    assert_eq!(envelope_rows.len(), 3, "{envelope_rows:?}");
    for card in &envelope_rows {
        assert!(envelope.contains(card.as_str()), "{card} / {envelope}");
    }
    eprintln!(
        "played: {moves} moves, {suggestions} suggestions, {responses} cards shown, {accusations} accusations; {text}"
    );
}

#[test]
fn a_stored_tournament_game_is_replayed_forwards_and_back_in_chromium() {
    let dir = std::env::temp_dir().join(format!("clue-web-replay-{}", std::process::id()));
    let _cleanup = TempDir(dir.clone());
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("t.yaml");
    std::fs::write(
        &file,
        "variant: classic\nplayers: 3\nseed: 5\nstore: results.sqlite\nschedule:\n  kind: random\n  games: 2\nbots:\n  - name: notebook\n    kind: builtin\n    path: notebook\n  - name: clueless\n    kind: builtin\n    path: clueless\n  - name: notebook-2\n    kind: builtin\n    path: notebook\n",
    )
    .expect("tournament file");
    let db = dir.join("results.sqlite");
    let status = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["tournament", "run", "--quiet"])
        .arg(&file)
        .arg("--db")
        .arg(&db)
        .stdout(Stdio::null())
        .status()
        .expect("clue tournament run");
    assert!(status.success());
    let server = Server::start(Some(&db));
    let (code, list) = server.get("/api/replays");
    assert_eq!(code, 200, "{list}");
    assert_eq!(list["games"].as_array().map(Vec::len), Some(2));

    let browser = Browser::start();
    // A short window: the viewer opens below the list, out of sight unless
    // the page scrolls to it.
    browser.cmd(
        "POST",
        "/window/rect",
        Some(json!({"width": 900, "height": 260})),
    );
    browser.goto(&server.url("/#replays"));
    let deadline = Instant::now() + Duration::from_secs(30);
    while !browser.click("button.watch") {
        assert!(Instant::now() < deadline, "no stored game listed");
        std::thread::sleep(Duration::from_millis(200));
    }
    // Each row names its winner by the bot's name in the file and its seat.
    let winners = browser.script(
        "return [...document.querySelectorAll('#replay-list tbody td.winner')].map((td) => td.textContent);",
    );
    let expected: Vec<String> = list["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| match g["winner"].as_u64() {
            Some(seat) => format!(
                "{} (seat {seat})",
                g["seats"][seat as usize]["bot"]
                    .as_str()
                    .expect("the winner's bot")
            ),
            None => "draw".to_string(),
        })
        .collect();
    assert_eq!(winners, json!(expected), "the list's winners");
    let step = || browser.script("return document.getElementById('rw-step').textContent;");
    let deadline = Instant::now() + Duration::from_secs(30);
    while step().as_str().unwrap_or("").is_empty() {
        assert!(Instant::now() < deadline, "the replay did not open");
        std::thread::sleep(Duration::from_millis(100));
    }
    let in_view = browser.script(
        "const r = document.getElementById('viewer').getBoundingClientRect();
         return r.top >= -1 && r.top < window.innerHeight;",
    );
    assert_eq!(in_view, true, "the replay viewer opened out of sight");
    assert!(step().as_str().unwrap_or("").starts_with("event 0 of"));
    for _ in 0..12 {
        assert!(browser.click("#rw-fwd"));
    }
    assert!(
        step().as_str().unwrap_or("").starts_with("event 12 of"),
        "{}",
        step()
    );
    browser.screenshot("05-replay");
    assert!(browser.click("#rw-back"));
    assert!(
        step().as_str().unwrap_or("").starts_with("event 11 of"),
        "{}",
        step()
    );
    assert!(browser.click("#rw-last"));
    let last = step();
    let text = last.as_str().unwrap_or("");
    let total = text.rsplit(' ').next().unwrap_or("");
    assert_eq!(text, format!("event {total} of {total}"));
    let current = browser.script(
        "const c = document.querySelector('#rw-events li.current'); return c ? c.textContent : '';",
    );
    assert!(
        current.as_str().unwrap_or("").starts_with("game over"),
        "{current}"
    );
    browser.screenshot("06-replay-end");
}

#[test]
fn a_running_tournament_game_is_followed_live_in_chromium() {
    let dir = std::env::temp_dir().join(format!("clue-web-live-page-{}", std::process::id()));
    let _cleanup = TempDir(dir.clone());
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("live.sqlite");
    // The game is held in play at fixed points until this test lets it go
    // on: it is listed in play, and then grows, however slow the machine.
    let gate = web_support::Hold(web_support::Gate::default());
    let tournament = web_support::slow_tournament(
        &dir,
        &db,
        1,
        Duration::from_millis(15),
        Some(gate.0.clone()),
    );
    let server = Server::start(Some(&db));
    let browser = Browser::start();
    browser.goto(&server.url("/#replays"));
    // The list refreshes every three seconds.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !browser.click("button.watch-live") {
        assert!(
            Instant::now() < deadline,
            "hang guard: no game was listed as in play"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let step = || {
        browser
            .script("return document.getElementById('rw-step').textContent;")
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    let live = || {
        browser.script("return !document.getElementById('rw-live').classList.contains('hidden');")
            == true
    };
    wait_for(120, "the live viewer", || !step().is_empty());
    assert!(live(), "the viewer does not say the game is live");
    browser.screenshot("07-live");
    // "watch live" starts at the newest event and follows it (it used to
    // start at event 0).
    let total = |text: &str| -> u64 {
        text.rsplit(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    wait_for(120, "the first events of the game in play", || {
        total(&step()) > 0
    });
    let opened = step();
    assert_eq!(
        opened,
        format!("event {0} of {0}", total(&opened)),
        "watch live did not start at the newest event"
    );
    let first = total(&step());
    // On to the game's next hold: the viewer follows its new events.
    gate.0.step();
    wait_for(120, "new events of the game in play", || {
        total(&step()) > first
    });
    let later = step();
    assert!(live(), "the held game is no longer in play: {later}");
    // Still at the newest event: the viewer follows.
    assert_eq!(later, format!("event {0} of {0}", total(&later)));
    gate.0.release();
    // Once the game is stored, the viewer shows it whole.
    wait_for(180, "the game to be stored", || !live());
    let end = step();
    let current = browser.script(
        "const c = document.querySelector('#rw-events li.current'); return c ? c.textContent : '';",
    );
    assert!(
        current.as_str().unwrap_or("").starts_with("game over"),
        "{end}: {current}"
    );
    let envelope = texts(&browser, "#rw-hands .envelope .chip");
    assert_eq!(envelope.len(), 3, "{envelope:?}");
    browser.screenshot("08-live-stored");
    let played = tournament
        .join()
        .expect("the tournament thread")
        .expect("the tournament ran");
    assert_eq!(played, 1);
}

#[test]
fn every_variant_is_drawn_on_the_page() {
    let server = Server::start(None);
    let browser = Browser::start();
    for (variant, drawn) in [
        ("classic", "#board-view svg.rooms"),
        ("framework", "#board-view svg.grid"),
        ("cyberclue", "#board-view svg.ring"),
        ("speedclue", "#board-view .table-view table"),
        ("generalized", "#board-view .table-view table"),
        ("uniclue", "#board-view .table-view table"),
    ] {
        browser.goto(&server.url("/"));
        wait_for(120, "the variants", || {
            browser
                .script("return document.querySelectorAll('#variant option').length;")
                .as_u64()
                .unwrap_or(0)
                >= 7
        });
        browser.script(&format!(
            "const v = document.getElementById('variant'); v.value = '{variant}';
             v.dispatchEvent(new Event('change'));"
        ));
        browser.type_into("#delay", "0");
        browser.type_into("#seed", "3");
        assert!(browser.click("#start"), "{variant}");
        wait_for(120, "the game to be drawn", || {
            browser.find(drawn).is_some()
        });
        wait_for(120, "the first question", || {
            let kind = page_state(&browser)["kind"]
                .as_str()
                .unwrap_or("")
                .to_string();
            assert_ne!(kind, "error", "{variant}");
            !kind.is_empty() && kind != "none" && kind != "wait"
        });
        let state = page_state(&browser);
        if state["kind"] == "move" {
            assert!(
                state["targets"].as_u64().unwrap_or(0) > 0,
                "{variant}: a move with nothing highlighted"
            );
        }
        let hand = texts(&browser, "#hand .chip");
        assert!(!hand.is_empty(), "{variant}: no hand shown");
        browser.screenshot(&format!("09-{variant}"));
    }
}

/// A page of another site: one HTML page on a port of its own.
fn other_site() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port for the other site");
    let addr = listener.local_addr().expect("its address").to_string();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut buf = [0u8; 4096];
            let _ = std::io::Read::read(&mut stream, &mut buf);
            let page = "<!doctype html><title>other site</title><p>nothing to see</p>";
            let reply = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
            let _ = std::io::Write::write_all(&mut stream, reply.as_bytes());
        }
    });
    format!("http://{addr}/")
}

#[test]
fn a_page_of_another_site_cannot_start_or_play_a_game() {
    let dir = std::env::temp_dir().join(format!("clue-web-xsite-{}", std::process::id()));
    let _cleanup = TempDir(dir.clone());
    std::fs::create_dir_all(&dir).expect("dir");
    let pwned = dir.join("pwned");
    // Even a server that seats any bot refuses the other site.
    let server = Server::start_with(None, &["--allow-bots"]);
    let id = server.start_game(&json!({"seed": 8}));
    let before = server.wait_pending(id);
    let browser = Browser::start();
    browser.goto(&other_site());
    let attack = format!(
        "const api = 'http://{addr}';
         const simple = (path, body) => fetch(api + path, {{ method: 'POST', mode: 'no-cors',
           headers: {{ 'content-type': 'text/plain' }}, body }}).catch(() => null);
         window.__sent = 0;
         Promise.all([
           simple('/api/games', JSON.stringify({{ bots: ['jsonl:touch {pwned}'] }})),
           simple('/api/games/{id}/leave', '{{}}'),
           simple('/api/games/{id}/accuse', JSON.stringify({{ request: {request}, accusation: null }})),
           fetch(api + '/api/games', {{ method: 'POST', headers: {{ 'content-type': 'application/json' }},
             body: JSON.stringify({{ bots: ['jsonl:touch {pwned}'] }}) }}).catch(() => null),
         ]).then(() => {{ window.__sent = 1; }});
         return true;",
        addr = server.addr,
        pwned = pwned.display(),
        request = before["pending"]["id"],
    );
    browser.script(&attack);
    wait_for(120, "the other site's requests to be sent", || {
        browser.script("return window.__sent === 1;") == true
    });
    assert!(!pwned.exists(), "the other site ran a command");
    let (status, body) = server.get(&format!("/api/games/{}", id + 1));
    assert_eq!(status, 404, "the other site started a game: {body}");
    let after = server.wait_pending(id);
    assert_eq!(after["pending"]["id"], before["pending"]["id"], "{after}");
    assert!(
        after["finished"].is_null(),
        "the other site ended the game: {after}"
    );
}

#[test]
fn a_reload_rejoins_the_game_with_its_seed_shown() {
    let server = Server::start(None);
    let browser = Browser::start();
    browser.goto(&server.url("/"));
    wait_for(120, "the start form", || browser.find("#seed").is_some());
    // Past 2^53, where a JavaScript number would round it to another seed.
    browser.type_into("#seed", "12345678901234567891");
    assert!(browser.click("#new-game button[type=submit]"));
    wait_for(120, "the first request", || {
        page_state(&browser)["kind"] == "accuse"
    });
    let url = browser.script("return location.href;");
    let url = url.as_str().expect("the page's address").to_string();
    assert!(url.contains("#game/"), "the game has no address: {url}");
    let request = page_state(&browser)["request"].clone();
    browser.cmd("POST", "/refresh", None);
    wait_for(120, "the rejoined game", || {
        page_state(&browser)["kind"] == "accuse"
    });
    assert_eq!(page_state(&browser)["request"], request);
    let seed = browser.script("return document.getElementById('game-seed').textContent;");
    assert!(
        seed.as_str()
            .unwrap_or("")
            .ends_with("seed 12345678901234567891"),
        "{seed}"
    );
}

#[test]
fn a_late_reply_to_the_move_does_not_close_the_suggest_dialog() {
    let server = Server::start(None);
    let id = server.start_game(&json!({"seed": 5}));
    // Play through the API until the seat may move into a room.
    let mut count = 0;
    let (request, room) = loop {
        let state = server.wait_pending(id);
        assert!(state["finished"].is_null(), "the game ended first");
        let r = &state["pending"]["request"];
        if r["request"] == "move"
            && let Some(room) = r["targets"]
                .as_array()
                .and_then(|t| t.iter().find(|t| t.get("room").is_some()))
        {
            break (state["pending"]["id"].clone(), room.clone());
        }
        let (action, body) = web_support::simple_answer(&state, count);
        count += 1;
        let (status, reply) = server.post(&format!("/api/games/{id}/{action}"), &body);
        assert_eq!(status, 200, "{reply}");
    };
    let browser = Browser::start();
    browser.goto(&server.url(&format!("/#game/{id}")));
    wait_for(120, "the page to show the move", || {
        page_state(&browser)["request"] == request.to_string().as_str()
    });
    // The reply to the move arrives late: after the next poll has opened
    // the suggest dialog.
    let code = format!(
        "const f = window.fetch;
         window.fetch = async (u, i) => {{
           const r = await f(u, i);
           if (i && i.method === 'POST') await new Promise((ok) => setTimeout(ok, 1500));
           return r;
         }};
         window.__answered = false;
         answer('move', {{ to: {room} }}).then(() => {{ window.__answered = true; }});
         return true;"
    );
    browser.script(&code);
    wait_for(120, "the suggest dialog", || {
        let p = page_state(&browser);
        p["kind"] == "suggest" && p["modal"] == true
    });
    wait_for(120, "the late reply to the move", || {
        browser.script("return window.__answered;") == true
    });
    let p = page_state(&browser);
    assert_eq!(
        p["modal"], true,
        "the late reply closed the suggest dialog: {p}"
    );
    assert_eq!(p["modalTitle"], "Suggest", "{p}");
}

/// What the board marks: the seat whose turn it is (`.turn-ring`) and the
/// last move (`.last-move`), as `[turn, mover]`.
fn board_marks(browser: &Browser) -> Value {
    browser.script(
        "const t = document.querySelector('#board-view .turn-ring');
         const m = document.querySelector('#board-view .last-move');
         return [t ? Number(t.dataset.turn) : null, m ? Number(m.dataset.seat) : null];",
    )
}

#[test]
fn the_board_marks_whose_turn_it_is_and_the_last_move() {
    let server = Server::start(None);
    let id = server.start_game(&json!({"seed": 12}));
    let browser = Browser::start();
    browser.goto(&server.url(&format!("/#game/{id}")));
    // The person's first request: their turn is marked, nobody has moved.
    wait_for(120, "the first request", || {
        page_state(&browser)["kind"] == "accuse"
    });
    assert_eq!(board_marks(&browser), json!([0, null]));
    // Then, at each of the person's requests, the board marks what the
    // server says: whose turn, and who moved last (with an arrow from where
    // the token stood when it came from elsewhere).
    let mut checked = 0;
    let mut arrows = 0;
    let mut last = String::new();
    while checked < 12 {
        wait_for(180, "the person's next request", || {
            let p = page_state(&browser);
            p["request"] != last.as_str() && p["kind"] != "wait" && !p["request"].is_null()
        });
        let state = server.wait_pending(id);
        if !state["finished"].is_null() {
            break;
        }
        let p = page_state(&browser);
        if p["request"] != state["pending"]["id"].to_string().as_str() {
            continue;
        }
        last = p["request"].as_str().unwrap_or("").to_string();
        let moved = &state["last_move"];
        assert_eq!(
            board_marks(&browser),
            json!([state["turn"], moved["seat"]]),
            "{state}"
        );
        let arrow = browser.find("#board-view .last-move line").is_some();
        assert_eq!(
            arrow,
            !moved["from"].is_null() && moved["from"] != moved["to"],
            "{moved}"
        );
        arrows += usize::from(arrow);
        checked += 1;
        let (action, body) = web_support::simple_answer(&state, checked);
        let (status, reply) = server.post(&format!("/api/games/{id}/{action}"), &body);
        assert_eq!(status, 200, "{reply}");
    }
    assert!(checked >= 6, "the game ended before the marks were seen");
    assert!(arrows > 0, "no move was drawn as an arrow");
    browser.screenshot("10-turn-and-last-move");
}

#[test]
fn the_framework_grid_names_every_room_once_on_top_and_tells_tokens_apart() {
    let server = Server::start(None);
    let id = server.start_game(&json!({"variant": "framework", "players": 6, "seed": 3}));
    let state = server.wait_pending(id);
    let width = state["board"]["grid"]["width"].as_u64().expect("a grid");
    let rooms: Vec<String> = state["board"]["grid"]["rooms"]
        .as_array()
        .expect("rooms")
        .iter()
        .map(|c| {
            state["deck"][c.as_u64().expect("a card") as usize]["name"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    let browser = Browser::start();
    browser.goto(&server.url(&format!("/#game/{id}")));
    wait_for(120, "the grid", || {
        browser.find("#board-view svg.grid").is_some()
    });
    // Each room named once, the name inside its own room and drawn after
    // (so on top of) every cell.
    let labels = browser.script(
        "const svg = document.querySelector('#board-view svg.grid');
         const w = Number(svg.viewBox.baseVal.width) / 40;
         const cells = [...svg.querySelectorAll('rect.cell')];
         const last = cells[cells.length - 1];
         return [...svg.querySelectorAll('.grid-label')].map((t) => {
           const x = Number(t.getAttribute('x')), y = Number(t.getAttribute('y'));
           const cell = cells[Math.floor(y / 40) * w + Math.floor(x / 40)];
           const above = last.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING;
           return { name: t.textContent, room: Number(t.dataset.room),
                    inside: cell.getAttribute('fill') !== null, above: above !== 0,
                    px: t.getBoundingClientRect().height };
         });",
    );
    let labels = labels.as_array().expect("labels");
    assert_eq!(labels.len() as u64, width, "{labels:?}");
    let mut named: Vec<String> = labels
        .iter()
        .map(|l| l["name"].as_str().unwrap_or("").to_string())
        .collect();
    named.sort();
    let mut expected = rooms.clone();
    expected.sort();
    assert_eq!(named, expected);
    for label in labels {
        assert_eq!(label["inside"], true, "{label}");
        assert_eq!(label["above"], true, "{label}");
        assert!(
            label["px"].as_f64().unwrap_or(0.0) >= 10.0,
            "too small: {label}"
        );
    }
    // Six tokens share the start square: six distinct labels, none tiny.
    let tokens = browser.script(
        "return [...document.querySelectorAll('#board-view circle.token')].map((c) =>
           ({ label: c.nextSibling.textContent, px: c.getBoundingClientRect().width }));",
    );
    let tokens = tokens.as_array().expect("tokens");
    assert_eq!(tokens.len(), 6, "{tokens:?}");
    let distinct: std::collections::BTreeSet<&str> =
        tokens.iter().filter_map(|t| t["label"].as_str()).collect();
    assert_eq!(distinct.len(), 6, "{tokens:?}");
    for t in tokens {
        assert!(t["px"].as_f64().unwrap_or(0.0) >= 12.0, "too small: {t}");
    }
    browser.screenshot("11-framework-grid");
}

#[test]
fn the_page_offers_the_bots_the_server_seats_and_seats_the_one_clicked() {
    // `clue serve --tournament FILE`: the page offers each bot it may seat
    // as a button (a tournament bot's spec is long, and typing it wrong is
    // a refused game), and a click adds it as the next seat's line.
    let dir = tempfile::tempdir().expect("temp dir");
    let python = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../plugins/python-example/bot.py")
        .canonicalize()
        .expect("plugins/python-example/bot.py");
    let spec = format!("jsonl:python3 {}", python.display());
    let file = dir.path().join("t.yaml");
    std::fs::write(
        &file,
        format!(
            "variant: csci306\nplayers: 3\nbots:\n  - {{name: py, kind: jsonl, command: \"python3 {}\"}}\n  - {{name: notebook, kind: builtin, path: notebook}}\n  - {{name: clueless, kind: builtin, path: clueless}}\n",
            python.display()
        ),
    )
    .expect("write the tournament file");
    let server = Server::start_with(None, &["--tournament", file.to_str().expect("utf-8")]);
    let browser = Browser::start();
    browser.goto(&server.url("/"));
    wait_for(120, "the bots offered", || {
        !texts(&browser, "#bot-picks button").is_empty()
    });
    let offered = texts(&browser, "#bot-picks button");
    assert_eq!(
        offered,
        [
            "builtin:clueless",
            "builtin:notebook",
            "builtin:sleuth",
            "builtin:rival",
            spec.as_str()
        ],
        "each seatable bot once"
    );
    assert!(browser.click("#bot-picks button:nth-of-type(5)"));
    assert!(browser.click("#bot-picks button:nth-of-type(3)"));
    let lines = browser.script("return document.getElementById('bots').value;");
    assert_eq!(lines, json!(format!("{spec}\nbuiltin:sleuth")));
    browser.type_into("#players", "3");
    browser.type_into("#delay", "0");
    assert!(browser.click("#start"));
    wait_for(120, "the game with the bots clicked", || {
        let seats = texts(&browser, ".legend-item");
        seats.len() == 3
            && seats[1].contains("jsonl:python3")
            && seats[2].contains("builtin:sleuth")
    });
    let error = browser.script("return document.getElementById('start-error').textContent;");
    assert_eq!(error, json!(""), "the game was refused");
    browser.screenshot("13-bots-offered");
}
