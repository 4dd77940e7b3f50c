//! The HTTP API of `clue serve`: every action, and every way of getting one
//! wrong (each refused with a 4xx and a message, the game going on).

use crate::web_support;

use serde_json::{Value, json};
use web_support::{Server, simple_answer};

/// Answers with the simple player until `stop` says so or the game ends.
fn drive(server: &Server, id: u64, mut stop: impl FnMut(&Value) -> bool) -> Value {
    for count in 0..5000 {
        let state = server.wait_pending(id);
        if !state["finished"].is_null() || stop(&state) {
            return state;
        }
        // The contest rules refuse a repeated suggestion: vary it and retry.
        let mut tries = 0;
        loop {
            let (action, body) = simple_answer(&state, count * 31 + tries);
            let (status, reply) = server.post(&format!("/api/games/{id}/{action}"), &body);
            if status == 422 && action == "suggest" && tries < 60 {
                tries += 1;
                continue;
            }
            assert_eq!(status, 200, "{action} {body}: {reply}");
            break;
        }
    }
    panic!("the game did not end");
}

/// Checks that the server refused a request with `code` and an error
/// message containing `says`.
fn refused(status: u16, body: &Value, code: u16, says: &str) {
    assert_eq!(status, code, "{body}");
    assert!(
        body["error"].as_str().unwrap_or("").contains(says),
        "{body}"
    );
}

fn kind(state: &Value) -> &str {
    state["pending"]["request"]["request"]
        .as_str()
        .unwrap_or("")
}

#[test]
fn default_game_is_csci306_with_five_bots_and_the_person_first() {
    let server = Server::start(None);
    let id = server.start_game(&json!({"seed": 3}));
    let state = server.wait_pending(id);
    assert_eq!(state["variant"], "csci306");
    assert_eq!(state["players"], 6);
    assert_eq!(state["seat"], 0);
    assert_eq!(state["names"].as_array().map(Vec::len), Some(6));
    assert!(state["names"][0].as_str().unwrap_or("").contains("(you)"));
    assert!(
        state["board"]["rooms"]["cells"]
            .as_array()
            .is_some_and(|c| !c.is_empty())
    );
    assert_eq!(state["positions"].as_array().map(Vec::len), Some(6));
    assert!(!state["hand"].as_array().expect("hand").is_empty());
    // csci306 accusations come at the start of the turn.
    assert_eq!(kind(&state), "accuse");
    assert_eq!(state["pending"]["request"]["point"], "start-of-turn");
}

#[test]
fn a_whole_game_played_through_the_api_ends_with_the_envelope() {
    let server = Server::start(None);
    let id = server.start_game(&json!({"seed": 11, "max_rounds": 40}));
    let end = drive(&server, id, |_| false);
    let finished = &end["finished"];
    assert_eq!(finished["envelope"].as_array().map(Vec::len), Some(3));
    let events = end["events"].as_array().expect("events");
    assert!(
        events
            .last()
            .and_then(Value::as_str)
            .unwrap_or("")
            .starts_with("game over")
    );
    // Nothing more can be done.
    let (status, body) = server.post(
        &format!("/api/games/{id}/accuse"),
        &json!({"request": 1, "accusation": null}),
    );
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"], "the game is over");
}

#[test]
fn moves_outside_the_targets_and_stale_ids_are_refused() {
    let server = Server::start(None);
    let id = server.start_game(&json!({"seed": 5}));
    let state = drive(&server, id, |s| kind(s) == "move");
    let pending = state["pending"]["id"].as_u64().expect("id");
    let targets = state["pending"]["request"]["targets"]
        .as_array()
        .expect("targets")
        .clone();
    // A cell that is not a target (the far corner is never one after a d6 from a start).
    let far = json!({"cell": {"row": 0, "col": 0}});
    assert!(!targets.contains(&far));
    let (status, body) = server.post(
        &format!("/api/games/{id}/move"),
        &json!({"request": pending, "to": far}),
    );
    refused(status, &body, 422, "not one of the");
    // A stale request id.
    let (status, body) = server.post(
        &format!("/api/games/{id}/move"),
        &json!({"request": pending + 7, "to": targets[0]}),
    );
    refused(status, &body, 409, "stale");
    // The wrong action for the request.
    let (status, body) = server.post(
        &format!("/api/games/{id}/respond"),
        &json!({"request": pending, "card": 0}),
    );
    refused(status, &body, 422, "waiting for you to move");
    // A malformed body.
    let (status, body) = server.post(
        &format!("/api/games/{id}/move"),
        &json!({"request": pending, "to": "the moon"}),
    );
    assert_eq!(status, 400, "{body}");
    // The game still waits for the same request, and a legal move is taken.
    let again = server.get(&format!("/api/games/{id}")).1;
    assert_eq!(again["pending"]["id"].as_u64(), Some(pending));
    let (status, body) = server.post(
        &format!("/api/games/{id}/move"),
        &json!({"request": pending, "to": targets[0]}),
    );
    assert_eq!(status, 200, "{body}");
    let after = server.wait_pending(id);
    assert_ne!(after["pending"]["id"].as_u64(), Some(pending));
    assert!(
        after["events"]
            .as_array()
            .expect("events")
            .iter()
            .any(|e| e.as_str().unwrap_or("").contains("(you) moves to"))
    );
}

#[test]
fn suggestions_must_name_the_room_and_one_card_of_each_category() {
    let server = Server::start(None);
    let id = server.start_game(&json!({"seed": 9}));
    let state = drive(&server, id, |s| kind(s) == "suggest");
    let pending = state["pending"]["id"].as_u64().expect("id");
    let room = state["pending"]["request"]["turn"]["room"]
        .as_u64()
        .expect("in a room");
    assert_eq!(state["pending"]["request"]["optional"], true);
    let person = cards_of(&state, "person")[0];
    let weapon = cards_of(&state, "weapon")[0];
    let other_room = cards_of(&state, "room")
        .into_iter()
        .find(|&r| r != room)
        .expect("another room");
    let post = |suggestion: Value| {
        server.post(
            &format!("/api/games/{id}/suggest"),
            &json!({"request": pending, "suggestion": suggestion}),
        )
    };
    let (status, body) = post(json!({"cards": [person, weapon, other_room]}));
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap_or("")
            .starts_with("that suggestion"),
        "{body}"
    );
    let (status, body) = post(json!({"cards": [person, weapon]}));
    assert_eq!(status, 422, "{body}");
    let (status, body) = post(json!({"cards": [person, weapon, 999]}));
    refused(status, &body, 422, "not in the deck");
    let (status, body) = post(json!({"cards": [person, weapon, room]}));
    assert_eq!(status, 200, "{body}");
    let after = server.wait_pending(id);
    let events = event_texts(&after);
    assert!(
        events.iter().any(|e| e.contains("(you) suggests")),
        "{events:?}"
    );
}

#[test]
fn showing_a_card_not_in_the_suggestion_is_refused() {
    let server = Server::start(None);
    let id = server.start_game(&json!({"seed": 21}));
    let state = drive(&server, id, |s| kind(s) == "respond");
    assert!(
        state["finished"].is_null(),
        "no bot ever asked the person to disprove"
    );
    let pending = state["pending"]["id"].as_u64().expect("id");
    let matching: Vec<u64> = state["pending"]["request"]["matching"]
        .as_array()
        .expect("matching")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    let hand = hand_of(&state);
    let held_not_asked = hand.iter().find(|c| !matching.contains(c));
    if let Some(card) = held_not_asked {
        let (status, body) = server.post(
            &format!("/api/games/{id}/respond"),
            &json!({"request": pending, "card": card}),
        );
        refused(status, &body, 422, "you cannot show");
    }
    let not_held = (0..21u64)
        .find(|c| !hand.contains(c))
        .expect("a card not held");
    let (status, body) = server.post(
        &format!("/api/games/{id}/respond"),
        &json!({"request": pending, "card": not_held}),
    );
    assert_eq!(status, 422, "{body}");
    let (status, body) = server.post(
        &format!("/api/games/{id}/respond"),
        &json!({"request": pending, "card": 4000}),
    );
    refused(status, &body, 422, "no card");
    let (status, body) = server.post(
        &format!("/api/games/{id}/respond"),
        &json!({"request": pending, "card": matching[0]}),
    );
    assert_eq!(status, 200, "{body}");
    // csci306 shows the card to everyone, so the person's notebook marks it as theirs.
    let after = server.wait_pending(id);
    let row = after["notebook"]
        .as_array()
        .expect("notebook")
        .iter()
        .find(|r| r["card"].as_u64() == Some(matching[0]))
        .cloned()
        .expect("row");
    assert_eq!(row["marks"][0], "holds");
}

#[test]
fn accusations_are_checked_and_a_wrong_one_only_informs_in_csci306() {
    let server = Server::start(None);
    let id = server.start_game(&json!({"seed": 4}));
    let state = server.wait_pending(id);
    assert_eq!(kind(&state), "accuse");
    let pending = state["pending"]["id"].as_u64().expect("id");
    let post = |accusation: Value| {
        server.post(
            &format!("/api/games/{id}/accuse"),
            &json!({"request": pending, "accusation": accusation}),
        )
    };
    let (status, body) = post(json!({"cards": [0, 1]}));
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap_or("")
            .starts_with("that accusation"),
        "{body}"
    );
    let (status, body) = post(json!({"cards": [0, 0, 0]}));
    assert_eq!(status, 422, "{body}");
    // A well-formed accusation of a card the person holds: certainly wrong.
    let hand = hand_of(&state);
    let mut cards = Vec::new();
    for cat in ["person", "weapon", "room"] {
        let ids = cards_of(&state, cat);
        cards.push(*ids.iter().find(|c| hand.contains(c)).unwrap_or(&ids[0]));
    }
    let (status, body) = post(json!({"cards": cards}));
    assert_eq!(status, 200, "{body}");
    let after = server.wait_pending(id);
    let events = event_texts(&after);
    assert!(
        events
            .iter()
            .any(|e| e.contains("(you) accuses") && e.ends_with("wrong")),
        "{events:?}"
    );
    assert!(after["finished"].is_null());
}

/// Speed Clue's contest rules, as the 2014 judge keeps them: a card shown
/// to the person may not be accused, any more than a card of the hand; the
/// page is told which card and who showed it, and the game waits.
#[test]
fn accusing_a_card_shown_to_the_person_is_refused_under_the_contest_rules() {
    let server = Server::start(None);
    for seed in 1..30 {
        let id = server.start_game(&json!({"variant": "speedclue", "players": 3, "seed": seed}));
        let state = server.wait_pending(id);
        assert_eq!(kind(&state), "suggest");
        let hand = hand_of(&state);
        let unheld = |category: &str, not: Option<u64>| {
            cards_of(&state, category)
                .into_iter()
                .find(|c| !hand.contains(c) && Some(*c) != not)
                .expect("a card not held")
        };
        let categories = ["person", "weapon", "room"];
        let asked: Vec<u64> = categories.iter().map(|c| unheld(c, None)).collect();
        let (status, body) = server.post(
            &format!("/api/games/{id}/suggest"),
            &json!({"request": state["pending"]["id"], "suggestion": {"cards": asked}}),
        );
        assert_eq!(status, 200, "{body}");
        let state = server.wait_pending(id);
        // The card shown, found by its name in the events.
        let deck = state["deck"].as_array().expect("deck");
        let texts = event_texts(&state);
        let Some(shown) = deck.iter().find(|c| {
            let name = c["name"].as_str().unwrap_or("");
            texts.iter().any(|t| t.ends_with(&format!("shows {name}")))
        }) else {
            continue; // nobody could disprove: try another deal
        };
        assert_eq!(kind(&state), "accuse");
        let card = shown["id"].as_u64().expect("id");
        let category = shown["category"].as_str().expect("category");
        let cards: Vec<u64> = categories
            .iter()
            .map(|c| {
                if *c == category {
                    card
                } else {
                    unheld(c, Some(card))
                }
            })
            .collect();
        let (status, body) = server.post(
            &format!("/api/games/{id}/accuse"),
            &json!({"request": state["pending"]["id"], "accusation": {"cards": cards}}),
        );
        let name = shown["name"].as_str().unwrap_or("");
        refused(status, &body, 422, &format!("showed you {name}"));
        refused(status, &body, 422, "forbid accusing a card you have seen");
        let after = server.wait_pending(id);
        assert_eq!(kind(&after), "accuse", "the game waits for a legal answer");
        return;
    }
    panic!("in no deal was the person shown a card");
}

#[test]
fn unknown_games_actions_and_pages_are_404() {
    let server = Server::start(None);
    for path in ["/api/games/99", "/api/games/nope", "/nothing-here"] {
        let (status, body) = server.get(path);
        assert_eq!(status, 404, "{path}: {body}");
        assert!(body["error"].is_string(), "{path}: {body}");
    }
    let (status, body) = server.post(
        "/api/games/99/move",
        &json!({"request": 1, "to": {"room": 1}}),
    );
    assert_eq!(status, 404, "{body}");
    let id = server.start_game(&json!({"seed": 1}));
    let (status, body) = server.post(&format!("/api/games/{id}/dance"), &json!({}));
    refused(status, &body, 404, "unknown action");
}

/// A seed past 2^53 comes back as the same seed: as a string (what the
/// page sends, a JavaScript number keeping only 53 bits) and as a number.
#[test]
fn a_seed_of_64_bits_is_taken_as_a_string_or_a_number() {
    let server = Server::start(None);
    let seed = "12345678901234567891";
    let by_text = server.start_game(&json!({ "seed": format!(" {seed} ") }));
    let by_number = server.start_game(&json!({ "seed": seed.parse::<u64>().unwrap() }));
    let (text, number) = (server.wait_pending(by_text), server.wait_pending(by_number));
    assert_eq!(text["seed"], seed);
    assert_eq!(number["seed"], seed);
    assert_eq!(text["hand"], number["hand"], "one seed, one deal");
}

#[test]
fn bad_start_requests_say_what_is_wrong() {
    let server = Server::start(None);
    let cases = [
        (json!({"variant": "chess"}), "unknown variant"),
        (
            json!({"variant": "speedcleu"}),
            "`speedclue` at line 1 column 22: did you mean `speedclue`?",
        ),
        (
            json!({"bots": ["builtin:Sleuth"]}),
            "rival): did you mean `sleuth`?",
        ),
        (
            json!({"players": 9}),
            "csci306 is played by 2 to 6 players, not 9",
        ),
        (
            json!({"bots": ["builtin:deep-blue"]}),
            "unknown built-in bot `deep-blue`",
        ),
        (json!({"bots": ["notebook"]}), "has no kind"),
        (json!({"bots": ["builtin:human"]}), "plays in a terminal"),
        (json!({"seat": 6}), "not a seat you can play"),
        (json!({"board": "atlantis"}), "unknown board `atlantis`"),
        (
            json!({"layout": {"name": "L.csv", "text": "W"}}),
            "needs both files",
        ),
        (
            json!({"variant": "uniclue", "seat": 1}),
            "not a seat you can play",
        ),
        // An option of another variant would be ignored.
        (
            json!({"variant": "speedclue", "board": "classic"}),
            "`board` applies to classic and csci306, not speedclue",
        ),
        (
            json!({"variant": "classic", "items": 20}),
            "`items` applies to generalized, not classic",
        ),
        (
            json!({"variant": "generalized", "width": 9}),
            "`width` applies to framework, not generalized",
        ),
        (
            json!({"bots": ["builtin:notebook", "builtin:notebook", "builtin:notebook", "builtin:notebook", "builtin:notebook", "builtin:notebook"]}),
            "6 bots given",
        ),
        (
            json!({"seed": -1}),
            "expected a seed: a whole number from 0",
        ),
        (
            json!({"seed": 1.5}),
            "expected a seed: a whole number from 0",
        ),
        (json!({"seed": "seven"}), "invalid value: string \"seven\""),
        (json!({"seed": "18446744073709551616"}), "expected a seed"),
        (json!({"seed": ""}), "expected a seed"),
        (json!({"seed": "+5"}), "expected a seed"),
    ];
    for (request, expected) in cases {
        let (status, body) = server.post("/api/games", &request);
        assert!(status == 400 || status == 422, "{request}: {status} {body}");
        let message = body["error"].as_str().unwrap_or("");
        assert!(
            message.contains(expected),
            "{request}: {message:?} lacks {expected:?}"
        );
    }
}

#[test]
fn a_broken_uploaded_board_is_refused_with_file_line_and_column() {
    let server = Server::start(None);
    let setup = "Room, Kitchen, K\nRoom, Hall, H\nSpace, Walkway, W\nPlayer, Miss Scarlet, red, Human, 2, 1\nPlayer, Mr Green, green, Computer, 2, 2\nWeapon, Rope\n";
    let layout = "K,K*,K#,W,Wv,W\nW,W^,Q,W,H,H\nW,W,W,W,H*,H#\n";
    let request = json!({
        "players": 2,
        "layout": {"name": "MyLayout.csv", "text": layout},
        "setup": {"name": "MySetup.txt", "text": setup},
    });
    let (status, body) = server.post("/api/games", &request);
    assert_eq!(status, 422, "{body}");
    let message = body["error"].as_str().unwrap_or("");
    assert!(
        message.contains("MyLayout.csv:2:6: unknown room initial `Q`"),
        "{message}"
    );
    // The same board without the stray cell is played.
    let fixed = layout.replace('Q', "W");
    let request = json!({
        "players": 2,
        "layout": {"name": "MyLayout.csv", "text": fixed},
        "setup": {"name": "MySetup.txt", "text": setup},
        "seed": 2,
    });
    let id = server.start_game(&request);
    let state = server.wait_pending(id);
    assert_eq!(state["board"]["rooms"]["rows"], 3);
    assert_eq!(state["board"]["rooms"]["cols"], 6);
}

#[test]
fn the_person_can_play_every_variant() {
    let server = Server::start(None);
    for (variant, board_kind) in [
        ("classic", Some("rooms")),
        ("framework", Some("grid")),
        ("cyberclue", Some("ring")),
        ("speedclue", None),
        ("generalized", None),
        ("uniclue", None),
    ] {
        let id = server.start_game(&json!({"variant": variant, "seed": 8, "max_rounds": 12}));
        let first = server.wait_pending(id);
        match board_kind {
            Some(kind) => assert!(
                first["board"][kind].is_object(),
                "{variant}: {}",
                first["board"]
            ),
            None => assert!(first["board"].is_null(), "{variant}"),
        }
        let end = drive(&server, id, |_| false);
        assert!(!end["finished"].is_null(), "{variant}");
        assert!(end["error"].is_null(), "{variant}: {}", end["error"]);
    }
}

#[test]
fn the_page_and_its_assets_are_served() {
    let server = Server::start(None);
    let (status, html) = web_support::http_text(&server.addr, "GET", "/", None);
    assert_eq!(status, 200);
    assert!(html.contains("<title>Clue Arena</title>"));
    for path in ["/app.js", "/app.css"] {
        let (status, text) = web_support::http_text(&server.addr, "GET", path, None);
        assert_eq!(status, 200, "{path}");
        assert!(text.len() > 1000, "{path}");
    }
    let (status, options) = server.get("/api/options");
    assert_eq!(status, 200);
    assert_eq!(options["default"]["variant"], "csci306");
    assert!(
        options["builtins"]
            .as_array()
            .expect("builtins")
            .contains(&json!("builtin:notebook"))
    );
    assert!(
        !options["builtins"]
            .as_array()
            .expect("builtins")
            .contains(&json!("builtin:human"))
    );
}

/// The events of a game's state, in words.
fn event_texts(state: &Value) -> Vec<String> {
    state["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e.as_str().map(String::from))
        .collect()
}

fn frame_texts(game: &Value) -> Vec<String> {
    game["frames"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["text"].as_str().map(String::from))
        .collect()
}

#[test]
fn a_running_tournament_game_is_watched_while_it_is_played() {
    let dir = std::env::temp_dir().join(format!("clue-web-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("live.sqlite");
    let _ = std::fs::remove_file(&db);
    // The first game is held in play at fixed points until this test lets
    // it go on, so it is seen in play, and then growing, on any machine.
    let gate = web_support::Hold(web_support::Gate::default());
    let tournament = web_support::slow_tournament(
        &dir,
        &db,
        2,
        std::time::Duration::from_millis(15),
        Some(gate.0.clone()),
    );
    let server = Server::start(Some(&db));
    let guard = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let live_frames = |i: u64| -> Vec<String> {
        let (status, game) = server.get(&format!("/api/replays/{i}"));
        assert_eq!(status, 200, "{game}");
        assert_eq!(
            game["live"], true,
            "the held game is no longer in play: {game}"
        );
        assert!(game["envelope"].is_null(), "a live game hides its envelope");
        frame_texts(&game)
    };
    // At its first hold: listed as in play, not as stored, with its events.
    let (index, first) = loop {
        let (status, list) = server.get("/api/replays");
        assert_eq!(status, 200, "{list}");
        if let Some(i) = list["live"][0]["index"].as_u64() {
            assert_eq!(list["live"][0]["variant"], "classic", "{list}");
            assert!(
                list["games"]
                    .as_array()
                    .is_some_and(|g| g.iter().all(|g| g["index"].as_u64() != Some(i))),
                "game {i} is listed as stored and in play: {list}"
            );
            let frames = live_frames(i);
            if !frames.is_empty() {
                break (i, frames);
            }
        }
        assert!(
            std::time::Instant::now() < guard,
            "hang guard: no game was listed as in play"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    // On to its second hold: new events arrive while it is in play, after
    // those already seen.
    gate.0.step();
    let later = loop {
        let frames = live_frames(index);
        if frames.len() > first.len() {
            break frames;
        }
        assert!(
            std::time::Instant::now() < guard,
            "hang guard: no new events of the game in play ({} seen)",
            first.len()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert_eq!(later[..first.len()], first[..], "the events seen first");
    gate.0.release();
    let played = tournament
        .join()
        .expect("the tournament thread")
        .expect("the tournament ran");
    assert_eq!(played, 2);
    let last = later.len();
    // Once stored, the game is the same game, whole, with its envelope.
    let (status, stored) = server.get(&format!("/api/replays/{index}"));
    assert_eq!(status, 200, "{stored}");
    assert_eq!(stored["live"], false);
    assert_eq!(stored["envelope"].as_array().map(Vec::len), Some(3));
    let whole = frame_texts(&stored);
    assert!(whole.len() >= last);
    assert_eq!(whole[..last], later[..]);
    assert!(whole.last().is_some_and(|t| t.starts_with("game over")));
    let (_, list) = server.get("/api/replays");
    assert_eq!(list["live"].as_array().map(Vec::len), Some(0), "{list}");
    assert_eq!(list["games"].as_array().map(Vec::len), Some(2), "{list}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `$CARGO_TARGET_DIR` (or the workspace's `target`), where the other tests
/// build the bundled bots as plugins and components too.
fn target_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"))
}

/// Builds `args` with the cargo running the tests into `target/<dir>`,
/// exactly as the native and wasm tests do (so it is built once).
fn build(dir: &str, args: &[&str], keep_rustflags: bool) -> std::path::PathBuf {
    let target = target_dir().join(dir);
    let mut command = std::process::Command::new(env!("CARGO"));
    command
        .current_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .arg("build")
        .args(args)
        .env("CARGO_TARGET_DIR", &target);
    if !keep_rustflags {
        command.env_remove("RUSTFLAGS");
    }
    let output = command.output().expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo build {args:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    target
}

#[test]
fn the_person_plays_against_every_kind_of_bot() {
    let native = build(
        "native-tests",
        &[
            "--quiet",
            "-p",
            "notebook",
            "-p",
            "clueless",
            "--features",
            "native",
        ],
        false,
    )
    .join("debug");
    let wasm = build(
        "wasm-tests",
        &[
            "--quiet",
            "--release",
            "--target",
            "wasm32-wasip2",
            "-p",
            "notebook",
            "-p",
            "clueless",
        ],
        true,
    )
    .join("wasm32-wasip2/release/notebook.wasm");
    let lib = |name: &str| {
        native
            .join(format!(
                "{}{name}{}",
                std::env::consts::DLL_PREFIX,
                std::env::consts::DLL_SUFFIX
            ))
            .display()
            .to_string()
    };
    let python = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../plugins/python-example/bot.py")
        .display()
        .to_string();
    let bots = [
        format!("jsonl:python3 {python}"),
        format!("native:{}", lib("notebook")),
        format!("wasm:{}", wasm.display()),
        format!("native-trusted:{}", lib("clueless")),
        "builtin:clueless".to_string(),
    ];
    let server = Server::start_with(None, &["--allow-bots"]);
    for variant in ["csci306", "speedclue"] {
        let id = server.start_game(
            &json!({"variant": variant, "players": 6, "seed": 6, "max_rounds": 15, "bots": bots}),
        );
        let first = server.wait_pending(id);
        let names: Vec<&str> = first["names"]
            .as_array()
            .expect("names")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        for (seat, spec) in bots.iter().enumerate() {
            assert!(names[seat + 1].contains(spec.as_str()), "{names:?}");
        }
        let end = drive(&server, id, |_| false);
        assert!(end["error"].is_null(), "{variant}: {}", end["error"]);
        let outcomes = &end["finished"]["outcomes"];
        assert!(
            outcomes.as_array().is_some_and(|o| o
                .iter()
                .all(|o| !o.as_str().unwrap_or("").contains("disqualified"))),
            "{variant}: a bot was disqualified: {outcomes}; {:?}",
            end["events"]
        );
    }
    // A bot that cannot be loaded is refused when the game is started.
    let (status, body) = server.post(
        "/api/games",
        &json!({"bots": ["native:/nowhere/libnothing.so"]}),
    );
    refused(status, &body, 422, "/nowhere/libnothing.so");
}

#[test]
fn every_action_with_bad_input_is_refused_and_the_game_waits() {
    let server = Server::start(None);
    // Out of turn: the person sits second and the bots think slowly.
    let id = server.start_game(&json!({"seed": 2, "seat": 1, "delay_ms": 1500}));
    for action in ["move", "suggest", "respond", "accuse"] {
        let (status, body) = server.post(
            &format!("/api/games/{id}/{action}"),
            &json!({"request": 1, "accusation": null}),
        );
        assert!(status == 409 || status == 400, "{action}: {status} {body}");
    }
    let (status, body) = server.post(
        &format!("/api/games/{id}/accuse"),
        &json!({"request": 1, "accusation": null}),
    );
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"], "the game is not waiting for you right now");

    let id = server.start_game(&json!({"seed": 5}));
    let state = drive(&server, id, |s| kind(s) == "move");
    let pending = state["pending"]["id"].as_u64().expect("id");
    let url = |action: &str| format!("/api/games/{id}/{action}");
    // Malformed JSON, missing and unknown fields, wrong types.
    for text in [
        "{nope",
        "",
        "[]",
        "{\"request\": \"one\", \"to\": {\"room\": 1}}",
    ] {
        let (status, body) = web_support::http(&server.addr, "POST", &url("move"), Some(text));
        assert_eq!(status, 400, "{text:?}: {body}");
        assert!(
            body["error"]
                .as_str()
                .is_some_and(|e| e.starts_with("bad request body")),
            "{body}"
        );
    }
    let (status, body) = server.post(&url("move"), &json!({"request": pending}));
    assert_eq!(status, 400, "{body}");
    let (status, body) = server.post(
        &url("move"),
        &json!({"request": pending, "to": {"room": 1}, "seat": 3}),
    );
    assert_eq!(status, 400, "{body}");
    // Accusing, suggesting or showing a card when the game asks for a move.
    let (status, body) = server.post(
        &url("accuse"),
        &json!({"request": pending, "accusation": {"cards": [0, 6, 12]}}),
    );
    refused(status, &body, 422, "waiting for you to move");
    let (status, body) = server.post(
        &url("suggest"),
        &json!({"request": pending, "suggestion": {"cards": [0, 6, 12]}}),
    );
    assert_eq!(status, 422, "{body}");
    // A room that is not a target, an unknown card as a room.
    for to in [
        json!({"room": 9999}),
        json!({"cell": {"row": 999, "col": 999}}),
    ] {
        let (status, body) = server.post(&url("move"), &json!({"request": pending, "to": to}));
        assert_eq!(status, 422, "{to}: {body}");
        assert!(
            body["error"]
                .as_str()
                .is_some_and(|e| e.contains("not one of the")),
            "{body}"
        );
    }
    let again = server.get(&format!("/api/games/{id}")).1;
    assert_eq!(
        again["pending"]["id"].as_u64(),
        Some(pending),
        "the game moved on"
    );
    assert!(again["error"].is_null());

    // Accusations: unknown cards, two of a kind, too few; then a legal pass.
    let id = server.start_game(&json!({"seed": 4}));
    let state = server.wait_pending(id);
    assert_eq!(kind(&state), "accuse");
    let pending = state["pending"]["id"].as_u64().expect("id");
    for cards in [json!([0, 6, 999]), json!([0, 1, 12]), json!([0]), json!([])] {
        let (status, body) = server.post(
            &format!("/api/games/{id}/accuse"),
            &json!({"request": pending, "accusation": {"cards": cards}}),
        );
        assert_eq!(status, 422, "{cards}: {body}");
        assert!(
            body["error"]
                .as_str()
                .is_some_and(|e| e.starts_with("that accusation")),
            "{body}"
        );
    }
    let (status, body) = server.post(
        &format!("/api/games/{id}/accuse"),
        &json!({"request": pending, "accusation": null}),
    );
    assert_eq!(status, 200, "{body}");

    // generalized: interrogating yourself, or nobody.
    let id = server.start_game(&json!({"variant": "generalized", "seed": 3}));
    let state = drive(&server, id, |s| kind(s) == "suggest");
    let pending = state["pending"]["id"].as_u64().expect("id");
    for target in [json!(0), json!(99)] {
        let (status, body) = server.post(
            &format!("/api/games/{id}/suggest"),
            &json!({"request": pending, "suggestion": {"cards": [1], "target": target}}),
        );
        assert_eq!(status, 422, "{target}: {body}");
    }
    let end = drive(&server, id, |_| false);
    assert!(!end["finished"].is_null());
    assert!(end["error"].is_null());
}

#[test]
fn replays_without_a_store_or_of_unknown_games_are_refused() {
    let server = Server::start(None);
    let (status, list) = server.get("/api/replays");
    assert_eq!(status, 200, "{list}");
    assert!(list["db"].is_null());
    let (status, body) = server.get("/api/replays/0");
    refused(status, &body, 404, "--db");
    let missing = std::env::temp_dir().join(format!("clue-web-none-{}.sqlite", std::process::id()));
    let server = Server::start(Some(&missing));
    let (status, list) = server.get("/api/replays");
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["missing"], true);
    for path in ["/api/replays/3", "/api/replays/minus-one"] {
        let (status, body) = server.get(path);
        assert_eq!(status, 404, "{path}: {body}");
    }
    assert!(!missing.exists(), "looking created the store");
}

#[test]
fn each_board_variant_plays_on_each_project_board() {
    let server = Server::start(None);
    let rows = |layout: &str| layout.lines().filter(|l| !l.trim().is_empty()).count();
    let boards = [
        (
            "csci306",
            rows(include_str!("../../../../boards/csci306/ClueLayout.csv")),
        ),
        (
            "classic",
            rows(include_str!("../../../../boards/classic/ClueLayout.csv")),
        ),
    ];
    for variant in ["csci306", "classic"] {
        for (board, expected) in boards {
            let id = server.start_game(
                &json!({"variant": variant, "board": board, "seed": 1, "max_rounds": 3}),
            );
            let state = server.wait_pending(id);
            assert_eq!(state["variant"], variant);
            assert_eq!(
                state["board"]["rooms"]["rows"].as_u64(),
                Some(expected as u64),
                "{variant} on {board}"
            );
            let end = drive(&server, id, |_| false);
            assert!(
                end["error"].is_null(),
                "{variant} on {board}: {}",
                end["error"]
            );
        }
    }
}

#[test]
fn a_stored_game_steps_forwards_and_back_with_the_tokens_in_place() {
    let dir = std::env::temp_dir().join(format!("clue-web-steps-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("steps.sqlite");
    let _ = std::fs::remove_file(&db);
    let played = web_support::slow_tournament(&dir, &db, 1, std::time::Duration::ZERO, None)
        .join()
        .expect("the tournament thread")
        .expect("the tournament ran");
    assert_eq!(played, 1);
    let server = Server::start(Some(&db));
    let (status, list) = server.get("/api/replays");
    assert_eq!(status, 200, "{list}");
    let index = list["games"][0]["index"].as_u64().expect("a stored game");
    assert!(list["games"][0]["seed"].is_string(), "{list}");
    let (status, game) = server.get(&format!("/api/replays/{index}"));
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["live"], false);
    let frames = game["frames"].as_array().expect("frames");
    let starts = &game["starts"];
    assert_eq!(starts.as_array().map(Vec::len), Some(3));
    // Step k shows the tokens after event k; step 0 the starts.
    let at = |k: usize| -> &Value {
        if k == 0 {
            starts
        } else {
            &frames[k - 1]["positions"]
        }
    };
    let mut moves = 0;
    for k in 1..=frames.len() {
        let text = frames[k - 1]["text"].as_str().unwrap_or("");
        let (before, after) = (at(k - 1), at(k));
        if text.contains(" moves to ") {
            let changed: Vec<usize> = (0..3).filter(|&s| before[s] != after[s]).collect();
            assert!(changed.len() <= 1, "step {k} ({text}) moved {changed:?}");
            moves += changed.len();
        } else if !text.contains(" is called to ") {
            // Nothing else moves a token: stepping back over it changes nothing.
            assert_eq!(before, after, "step {k}: {text}");
        }
    }
    assert!(moves > 3, "{moves} moves");
    assert!(
        frames
            .last()
            .and_then(|f| f["text"].as_str())
            .is_some_and(|t| t.starts_with("game over"))
    );
    assert_eq!(game["envelope"].as_array().map(Vec::len), Some(3));
    assert_eq!(game["hands"].as_array().map(Vec::len), Some(3));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_person_who_stops_answering_is_timed_out_and_the_bots_finish_the_game() {
    let server = Server::start_with(None, &["--idle-seconds", "1"]);
    let id = server.start_game(&json!({"variant": "speedclue", "players": 3, "seed": 4}));
    let asked = server.wait_pending(id);
    assert!(!asked["pending"].is_null(), "{asked}");
    // Nobody answers (a closed tab): the seat is disqualified once the idle
    // limit has passed, and the bots play the game to its end.
    let started = std::time::Instant::now();
    let finished = loop {
        let (status, state) = server.get(&format!("/api/games/{id}"));
        assert_eq!(status, 200, "{state}");
        if !state["finished"].is_null() {
            break state;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "the game waited for the person for ever: {state}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let outcome = finished["finished"]["outcomes"][0].as_str().unwrap_or("");
    assert_eq!(outcome, "disqualified(timeout)", "{finished}");
    // Answering now is refused with a message, not a crash.
    let (status, body) = server.post(
        &format!("/api/games/{id}/suggest"),
        &json!({"request": asked["pending"]["id"], "cards": [0, 6, 12]}),
    );
    assert_ne!(status, 200, "{body}");
    assert!(body["error"].is_string(), "{body}");
}

/// The ids of the deck's cards of `category`, in deck order.
/// The ids of the person's cards.
fn hand_of(state: &Value) -> Vec<u64> {
    state["hand"]
        .as_array()
        .expect("hand")
        .iter()
        .filter_map(Value::as_u64)
        .collect()
}

fn cards_of(state: &Value, category: &str) -> Vec<u64> {
    state["deck"]
        .as_array()
        .expect("deck")
        .iter()
        .filter(|c| c["category"] == category)
        .filter_map(|c| c["id"].as_u64())
        .collect()
}

/// Runs a tournament of `games` quick `classic` games into `db`.
fn stored_games(dir: &std::path::Path, db: &std::path::Path, games: usize) {
    let file = dir.join(format!("t{games}.yaml"));
    std::fs::write(
        &file,
        format!(
            "variant: classic\nplayers: 3\nseed: 5\nschedule:\n  kind: random\n  games: {games}\nbots:\n  - {{name: notebook, kind: builtin, path: notebook}}\n  - {{name: clueless, kind: builtin, path: clueless}}\n  - {{name: notebook-2, kind: builtin, path: notebook}}\n"
        ),
    )
    .expect("tournament file");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["tournament", "run", "--quiet"])
        .arg(&file)
        .arg("--db")
        .arg(db)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("clue tournament run");
    assert!(status.success());
}

#[test]
fn the_game_list_is_paged_and_sent_again_only_when_it_changed() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let db = dir.path().join("list.sqlite");
    // A tournament of 56 games with its last one not played yet: the store
    // gains it later the way a running tournament's store does, in place
    // (the server keeps one handle on it). Python's sqlite3 un-stores it.
    stored_games(dir.path(), &db, 56);
    let status = std::process::Command::new("python3")
        .arg("-c")
        .arg(
            "import sqlite3, sys\n\
             c = sqlite3.connect(sys.argv[1])\n\
             c.execute('DELETE FROM seats WHERE game = 55')\n\
             c.execute('DELETE FROM games WHERE idx = 55')\n\
             c.execute('UPDATE schedule SET done = 0, worker = NULL, lease_until = NULL WHERE idx = 55')\n\
             c.commit()",
        )
        .arg(&db)
        .status()
        .expect("python3 runs (install python3)");
    assert!(status.success(), "un-storing the last game");
    let server = Server::start(Some(&db));
    let get = |path: &str, etag: Option<&str>| {
        let host = format!("Host: {}", server.addr);
        let tag = etag.map(|t| format!("If-None-Match: {t}"));
        let mut headers = vec![host.as_str()];
        headers.extend(tag.as_deref());
        let (status, head, body) = web_support::http_full(&server.addr, "GET", path, &headers, "");
        let tag = web_support::header_of(&head, "etag");
        (status, tag, body)
    };
    let json = |body: &str| -> Value { serde_json::from_str(body).expect("a JSON list") };

    let (status, first_tag, body) = get("/api/replays", None);
    assert_eq!(status, 200, "{body}");
    let first = json(&body);
    assert_eq!(first["total"], 55, "{first}");
    assert_eq!(first["pages"], 2);
    assert_eq!(first["page"], 0);
    let indices = |list: &Value| -> Vec<u64> {
        list["games"]
            .as_array()
            .expect("games")
            .iter()
            .map(|g| g["index"].as_u64().expect("an index"))
            .collect()
    };
    assert_eq!(indices(&first), (0..50).collect::<Vec<_>>());
    let first_tag = first_tag.expect("the list has an ETag");

    // The second page: the last five games, with a tag of its own.
    let (status, second_tag, body) = get("/api/replays?page=1", None);
    assert_eq!(status, 200, "{body}");
    let second = json(&body);
    assert_eq!(indices(&second), (50..55).collect::<Vec<_>>());
    let second_tag = second_tag.expect("an ETag");
    assert_ne!(first_tag, second_tag);
    // Past the last page: the last page.
    let (status, _, body) = get("/api/replays?page=7", None);
    assert_eq!(status, 200, "{body}");
    assert_eq!(json(&body)["page"], 1);
    // Not a page number: refused, with JSON.
    let (status, _, body) = get("/api/replays?page=x", None);
    assert_eq!(status, 400, "{body}");
    assert!(json(&body)["error"].is_string(), "{body}");

    // Unchanged: 304 and no body, however often the page asks.
    for _ in 0..3 {
        let (status, tag, body) = get("/api/replays", Some(&first_tag));
        assert_eq!(status, 304, "{body}");
        assert!(body.is_empty(), "{body}");
        assert_eq!(tag.as_deref(), Some(first_tag.as_str()));
    }
    // Another page's tag is not this page's.
    let (status, _, _) = get("/api/replays", Some(&second_tag));
    assert_eq!(status, 200);

    // The store gains a game: the tag changes and the list is sent.
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["tournament", "resume", "--quiet", "--db"])
        .arg(&db)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("clue tournament resume");
    assert!(status.success(), "the last game is played");
    let (status, tag, body) = get("/api/replays?page=1", Some(&second_tag));
    assert_eq!(status, 200, "{body}");
    let changed = json(&body);
    assert_eq!(changed["total"], 56, "{changed}");
    assert_eq!(indices(&changed), (50..56).collect::<Vec<_>>());
    assert_ne!(tag.as_deref(), Some(second_tag.as_str()));
}
