//! `clue serve` is safe to leave running: requests from other sites are
//! refused, the page seats only the bots the server allows, every option
//! and body is bounded, and every refusal is JSON.

use crate::web_support;

use std::time::Duration;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use web_support::{Server, http_with};

/// Sends `body` to `path` with the given header lines besides `Host`.
fn post_with(server: &Server, path: &str, headers: &[&str], body: &str) -> (u16, Value) {
    let host = format!("Host: {}", server.addr);
    let mut all = vec![host.as_str()];
    all.extend_from_slice(headers);
    let (status, text) = http_with(&server.addr, "POST", path, &all, body);
    (status, json_of(&text))
}

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| panic!("a refusal that is not JSON: {text:?}"))
}

/// The server still answers.
fn alive(server: &Server) {
    let (status, body) = server.get("/api/options");
    assert_eq!(status, 200, "the server stopped answering: {body}");
}

fn error_of(body: &Value) -> &str {
    body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {body}"))
}

#[test]
fn requests_from_other_sites_are_refused_with_json() {
    let server = Server::start(None);
    let own = format!("Origin: http://{}", server.addr);
    let game = r#"{"seed": 1}"#;
    // A cross-site "simple" request: text/plain, no preflight.
    let (status, body) = post_with(
        &server,
        "/api/games",
        &["Origin: http://evil.example", "Content-Type: text/plain"],
        game,
    );
    assert_eq!(status, 403, "{body}");
    assert!(error_of(&body).contains("other sites"), "{body}");
    // Another site that asks with the right content type is refused too.
    let (status, body) = post_with(
        &server,
        "/api/games",
        &[
            "Origin: http://evil.example",
            "Content-Type: application/json",
        ],
        game,
    );
    assert_eq!(status, 403, "{body}");
    // No origin (curl, a test) but not JSON.
    let (status, body) = post_with(&server, "/api/games", &["Content-Type: text/plain"], game);
    assert_eq!(status, 415, "{body}");
    assert!(error_of(&body).contains("application/json"), "{body}");
    // DNS rebinding: another name that resolves here.
    let (status, text) = http_with(
        &server.addr,
        "GET",
        "/api/options",
        &["Host: rebind.example:80"],
        "",
    );
    assert_eq!(status, 403, "{text}");
    assert!(
        error_of(&json_of(&text)).contains("rebind.example"),
        "{text}"
    );
    // The page's own requests pass; localhost names the same server.
    let (status, body) = post_with(
        &server,
        "/api/games",
        &[&own, "Content-Type: application/json; charset=utf-8"],
        game,
    );
    assert_eq!(status, 200, "{body}");
    let id = body["id"].as_u64().expect("an id");
    let port = server.addr.rsplit(':').next().expect("a port");
    let (status, text) = http_with(
        &server.addr,
        "GET",
        &format!("/api/games/{id}"),
        &[&format!("Host: localhost:{port}")],
        "",
    );
    assert_eq!(status, 200, "{text}");
    // Another site cannot act in the game either.
    let state = server.wait_pending(id);
    let answer = json!({"request": state["pending"]["id"], "accusation": null}).to_string();
    let (status, body) = post_with(
        &server,
        &format!("/api/games/{id}/accuse"),
        &[
            "Origin: http://evil.example",
            "Content-Type: application/json",
        ],
        &answer,
    );
    assert_eq!(status, 403, "{body}");
    let (status, body) = post_with(
        &server,
        &format!("/api/games/{id}/leave"),
        &["Origin: null", "Content-Type: text/plain"],
        "",
    );
    assert_eq!(status, 403, "{body}");
    let after = server.wait_pending(id);
    assert_eq!(after["pending"]["id"], state["pending"]["id"], "{after}");
}

#[test]
fn process_bots_from_a_request_are_seated_only_with_allow_bots() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pwned = dir.path().join("pwned");
    let bot = format!("jsonl:touch {}", pwned.display());
    let server = Server::start(None);
    for spec in [
        bot.as_str(),
        "native:/tmp/libevil.so",
        "wasm:/tmp/evil.wasm",
        "uniclue:sh -c true",
    ] {
        let (status, body) = server.post("/api/games", &json!({"bots": [spec]}));
        assert_eq!(status, 403, "{spec}: {body}");
        assert!(error_of(&body).contains("--allow-bots"), "{body}");
    }
    assert!(!pwned.exists(), "a refused bot ran");
    // Built-in bots are always seated.
    server.start_game(&json!({"bots": ["builtin:clueless"], "seed": 2}));
    // With the opt-in, the request's process bot runs, in the sandbox: it
    // starts (and ends, `touch` being no bot), but cannot write outside its
    // scratch folder.
    let open = Server::start_with(None, &["--allow-bots"]);
    let (status, body) = open.post("/api/games", &json!({"bots": [bot]}));
    assert_eq!(status, 200, "--allow-bots did not seat the bot: {body}");
    let id = body["id"].as_u64().expect("a game id");
    let state = open.wait_pending(id).to_string();
    assert!(
        state.contains("(jsonl:touch") && state.contains("is disqualified (crash)"),
        "the bot did not run: {state}"
    );
    assert!(
        !pwned.exists(),
        "the sandboxed bot wrote outside its folder"
    );
}

#[test]
fn the_bots_of_the_servers_tournament_file_are_seated() {
    let dir = tempfile::tempdir().expect("temp dir");
    let python = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../plugins/python-example/bot.py")
        .canonicalize()
        .expect("plugins/python-example/bot.py");
    let file = dir.path().join("t.yaml");
    std::fs::write(
        &file,
        format!(
            "variant: csci306\nplayers: 3\nseed: 1\nschedule: {{kind: random, games: 1}}\nbots:\n  - {{name: py, kind: jsonl, command: \"python3 {}\"}}\n  - {{name: notebook, kind: builtin, path: notebook}}\n  - {{name: clueless, kind: builtin, path: clueless}}\n",
            python.display()
        ),
    )
    .expect("write the tournament file");
    let tournament = file.to_str().expect("utf-8 path");
    let server = Server::start_with(None, &["--tournament", tournament]);
    let (status, options) = server.get("/api/options");
    assert_eq!(status, 200);
    let allowed = options["bots"][0].as_str().expect("the tournament's bot");
    assert!(allowed.starts_with("jsonl:python3"), "{options}");
    let id = server.start_game(&json!({"bots": [allowed], "seed": 4}));
    let state = server.wait_pending(id);
    assert!(state["error"].is_null(), "{state}");
    // Any other process bot is still refused.
    let (status, body) = server.post("/api/games", &json!({"bots": ["jsonl:python3 -c 0"]}));
    assert_eq!(status, 403, "{body}");
}

#[test]
fn a_tournament_bot_whose_build_has_not_run_is_left_out_with_why() {
    // `clue serve --tournament tournament.yaml` before any `tournament run`:
    // the bundled plugins are not built yet. The page is offered only the
    // bots that can play, each spec once, and stderr says why one is not.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("t.yaml");
    std::fs::write(
        &file,
        "variant: speedclue\nbots:\n  - {name: a, kind: builtin, path: notebook}\n  - {name: b, kind: builtin, path: notebook}\n  - {name: c, kind: builtin, path: clueless}\n  - name: w\n    kind: wasm\n    path: missing/w.wasm\n    build: \"true\"\n",
    )
    .expect("write the tournament file");
    let tournament = file.to_str().expect("utf-8 path");
    let (server, mut stderr) = Server::start_with_stderr(&["--tournament", tournament]);
    let (status, options) = server.get("/api/options");
    assert_eq!(status, 200);
    assert_eq!(
        options["bots"],
        json!(["builtin:notebook", "builtin:clueless"]),
        "{options}"
    );
    drop(server);
    let mut said = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut said).expect("read stderr");
    let expected = format!(
        "warning: {tournament}:8:11: bot `w`: file not found: {}; left out of the page's bots (its `build:` has not run? `clue tournament check --build {tournament}` runs the builds)",
        dir.path().join("missing/w.wasm").display()
    );
    assert!(said.contains(&expected), "{said}");
}

#[test]
fn a_non_loopback_address_needs_allow_remote() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["serve", "--host", "0.0.0.0", "--port", "0"])
        .output()
        .expect("clue runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--host 0.0.0.0 is not a loopback address") && err.contains("--allow-remote"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "it listened anyway");
    // With the opt-in it listens, and warns.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_clue"))
        .args([
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
            "--allow-remote",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("clue runs");
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().expect("stdout")),
        &mut line,
    )
    .expect("its address");
    let _ = child.kill();
    let out = child.wait_with_output().expect("clue stops");
    assert!(line.starts_with("listening on http://0.0.0.0:"), "{line}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: listening on 0.0.0.0, reachable from the network"),
        "{err}"
    );
}

/// One oversized request: refused with `status`, a JSON message naming
/// `limit`, and the server still answers.
fn check_refused(server: &Server, body: &Value, status: u16, limit: &str) {
    let (got, reply) = server.post("/api/games", body);
    assert_eq!(got, status, "{reply}");
    let message = error_of(&reply);
    assert!(message.contains(limit), "{message} does not name {limit}");
    alive(server);
}

#[test]
fn every_oversized_option_and_body_is_refused_with_json() {
    let server = Server::start(None);
    let big = "x".repeat(70 * 1024);
    let cases = [
        (json!({"variant": "framework", "width": 65535}), "40"),
        (json!({"variant": "framework", "width": 41}), "40"),
        (json!({"variant": "generalized", "items": 65534}), "128"),
        (
            json!({"variant": "generalized", "items": 129, "hidden": 1}),
            "128",
        ),
        (json!({"variant": "generalized", "hidden": 60000}), "128"),
        (json!({"max_rounds": 4_000_000_000u32}), "1000"),
        (
            json!({"layout": {"name": "l.csv", "text": big}, "setup": {"name": "s.txt", "text": ""}}),
            "65536",
        ),
        (
            json!({"bots": ["builtin:".to_string() + &"n".repeat(2000)]}),
            "1024",
        ),
        // Each option within its limit, but together a game too big.
        (
            json!({"variant": "generalized", "players": 32, "items": 128, "hidden": 32, "max_rounds": 1000}),
            "16384 KiB a game: set max_rounds to",
        ),
    ];
    for (body, limit) in &cases {
        check_refused(&server, body, 422, limit);
    }
    // A body past the limit, and a malformed one.
    let huge = json!({"bots": ["x".repeat(300 * 1024)]});
    let (status, reply) = server.post("/api/games", &huge);
    assert_eq!(status, 413, "{reply}");
    error_of(&reply);
    alive(&server);
    let (status, reply) = post_with(
        &server,
        "/api/games",
        &["Content-Type: application/json"],
        "{\"seed\": ",
    );
    assert_eq!(status, 400, "{reply}");
    // The limits themselves are accepted.
    server.start_game(&json!({"variant": "framework", "width": 40, "seed": 1}));
    server.start_game(
        &json!({"variant": "generalized", "items": 128, "hidden": 2, "players": 2, "seed": 1}),
    );
}

#[test]
fn refusals_of_the_framework_are_json_too() {
    let server = Server::start(None);
    for (method, path) in [
        ("DELETE", "/api/games"),
        ("PUT", "/api/options"),
        ("GET", "/nowhere"),
    ] {
        let host = format!("Host: {}", server.addr);
        let (status, text) = http_with(
            &server.addr,
            method,
            path,
            &[&host, "Content-Type: application/json"],
            "",
        );
        assert!((400..500).contains(&status), "{method} {path}: {status}");
        error_of(&json_of(&text));
    }
}

#[test]
fn at_most_sixteen_games_are_in_play_at_once() {
    let server = Server::start(None);
    for seed in 0..16 {
        server.start_game(&json!({"seed": seed}));
    }
    let (status, body) = server.post("/api/games", &json!({"seed": 99}));
    assert_eq!(status, 429, "{body}");
    assert!(error_of(&body).contains("16 games"), "{body}");
    // A game that ends frees its place.
    let (status, body) = server.post("/api/games/1/leave", &json!({}));
    assert_eq!(status, 200, "{body}");
    let mut started = false;
    for _ in 0..600 {
        let (status, _) = server.post("/api/games", &json!({"seed": 100}));
        if status == 200 {
            started = true;
            break;
        }
        // Hang guard only: the bots finish the abandoned game in well under a minute.
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        started,
        "no place freed within a minute of a game ending (hang guard)"
    );
}

/// The server's resident memory in KiB, from /proc.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

/// A random JSON value of the create-game body's shape: known keys with
/// values of any type and size, and now and then unknown ones.
fn random_body(rng: &mut ChaCha8Rng) -> Value {
    const KEYS: [&str; 14] = [
        "variant",
        "players",
        "seat",
        "seed",
        "bots",
        "board",
        "layout",
        "setup",
        "max_rounds",
        "items",
        "hidden",
        "width",
        "delay_ms",
        "extra",
    ];
    const VARIANTS: [&str; 8] = [
        "classic",
        "csci306",
        "framework",
        "generalized",
        "speedclue",
        "uniclue",
        "cyberclue",
        "nope",
    ];
    let mut body = serde_json::Map::new();
    for key in KEYS {
        if !rng.random_bool(if key == "extra" { 0.05 } else { 0.3 }) {
            continue;
        }
        // Mostly the right type, of any size; now and then anything.
        let junk = rng.random_bool(0.1);
        let value = match key {
            _ if junk => match rng.random_range(0..3) {
                0 => json!(rng.random::<u64>()),
                1 => json!("x".repeat(rng.random_range(0..100))),
                _ => json!([rng.random::<bool>(), null, {"a": 1}]),
            },
            "variant" => json!(VARIANTS[rng.random_range(0..VARIANTS.len())]),
            "players" | "seat" => json!(rng.random_range(0..=40u8)),
            "seed" => json!(rng.random::<u64>()),
            "bots" => {
                let n = rng.random_range(0..8);
                json!(
                    (0..n)
                        .map(|_| [
                            "builtin:notebook",
                            "builtin:clueless",
                            "builtin:human",
                            "jsonl:true"
                        ][rng.random_range(0..4)])
                        .collect::<Vec<_>>()
                )
            }
            "board" => json!(["csci306", "classic", "nope"][rng.random_range(0..3)]),
            "layout" | "setup" => {
                let len = rng.random_range(0..60_000);
                json!({"name": "f", "text": ",".repeat(len)})
            }
            "max_rounds" => json!(rng.random_range(0..2_000u32)),
            "items" | "hidden" | "width" => {
                let small = rng.random_bool(0.7);
                json!(if small {
                    rng.random_range(0..64u16)
                } else {
                    rng.random::<u16>()
                })
            }
            "delay_ms" => json!(rng.random_range(0..100u64)),
            _ => json!(1),
        };
        body.insert(key.to_string(), value);
    }
    Value::Object(body)
}

/// The bound the fuzz test holds the server to: 256 MiB resident.
const RSS_BOUND_KIB: u64 = 256 * 1024;

#[test]
fn random_create_game_bodies_keep_the_server_under_its_memory_bound() {
    let server = Server::start_with(None, &["--idle-seconds", "1"]);
    let pid = server.pid();
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let mut peak = rss_kib(pid);
    let mut statuses = std::collections::BTreeMap::new();
    for _ in 0..300 {
        let body = random_body(&mut rng);
        let (status, reply) = server.post("/api/games", &body);
        assert!(
            [200, 400, 403, 413, 422, 429].contains(&status),
            "{status} for {body}: {reply}"
        );
        assert!(reply.is_object(), "{body}: {reply}");
        if status != 200 {
            error_of(&reply);
        }
        if let Some(id) = reply["id"].as_u64() {
            server.post(&format!("/api/games/{id}/leave"), &json!({}));
        }
        *statuses.entry(status).or_insert(0) += 1;
        peak = peak.max(rss_kib(pid));
        assert!(
            peak < RSS_BOUND_KIB,
            "the server grew to {peak} KiB after {body}"
        );
    }
    alive(&server);
    println!("statuses: {statuses:?}; peak resident memory {peak} KiB (bound {RSS_BOUND_KIB} KiB)");
    assert!(
        statuses.contains_key(&200),
        "no random body started a game: {statuses:?}"
    );
    assert!(
        statuses.contains_key(&422),
        "no random body was refused: {statuses:?}"
    );
}
