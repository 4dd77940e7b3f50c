//! A bot author's own crate, outside this repository, made exactly as
//! docs/native.md's "Writing one" says: its `Cargo.toml` and its Rust,
//! taken from the page (only the path to `plugin-api` and the player's body
//! filled in), built in the page's three forms and played in one game
//! together (Speed Clue without the contest rules: the plain player repeats
//! its one suggestion). The page's example is what authors copy; this keeps it
//! true.
//!
//! The crate is written in the system's temporary folder (a crate inside
//! this workspace's folder would be taken for one of its members), with the
//! workspace's `Cargo.lock`, so that it builds with the versions the
//! workspace pins, into the target dirs the other native and wasm tests
//! use, reusing what they compiled.

use crate::forms_support::{cargo_build_in, target_dir, workspace};

use std::process::Command;

/// The first block of `lang` after `heading` in `page`.
fn block<'a>(page: &'a str, heading: &str, lang: &str) -> &'a str {
    let section = &page[page.find(heading).expect("the heading")..];
    let fence = format!("```{lang}\n");
    let start = section.find(&fence).expect("the block") + fence.len();
    let len = section[start..].find("```").expect("the block's end");
    &section[start..start + len]
}

/// The player's body, for the page's `/* ... */`: a legal, plain player
/// (the first target, the first person and weapon in the room it must name
/// or else the first room, the first card it can show, never an
/// accusation).
const FIELDS: &str = "deck: Option<clue_plugin_api::Deck>";
const METHODS: &str = r#"
    fn begin_game(&mut self, setup: &clue_plugin_api::Setup) {
        self.deck = Some(setup.deck.clone());
    }
    fn accuse(&mut self, _: &clue_plugin_api::AccuseRequest) -> Option<clue_plugin_api::Accusation> {
        None
    }
    fn move_to(&mut self, request: &clue_plugin_api::MoveRequest) -> clue_plugin_api::Position {
        request.targets[0]
    }
    fn suggest(&mut self, request: &clue_plugin_api::SuggestRequest) -> Option<clue_plugin_api::Suggestion> {
        use clue_plugin_api::Category;
        let deck = self.deck.as_ref()?;
        Some(clue_plugin_api::Suggestion {
            cards: vec![
                deck.of(Category::Person)[0],
                deck.of(Category::Weapon)[0],
                request.turn.room.unwrap_or(deck.of(Category::Room)[0]),
            ],
            target: None,
        })
    }
    fn respond(&mut self, request: &clue_plugin_api::RespondRequest) -> Option<clue_plugin_api::Card> {
        request.matching.first().copied()
    }
"#;

#[test]
fn the_native_pages_bot_crate_builds_in_three_forms_that_play_together() {
    let page = std::fs::read_to_string(workspace().join("docs/native.md")).expect("docs/native.md");
    let manifest = block(&page, "## Writing one", "toml");
    let rust = block(&page, "## Writing one", "rust");
    let api = std::fs::canonicalize(workspace().join("plugin-api")).expect("plugin-api");
    assert!(
        manifest.contains("path = \"../clue-arena/plugin-api\""),
        "the page names plugin-api by path: {manifest}"
    );
    let manifest = manifest.replace("../clue-arena/plugin-api", &api.display().to_string());
    let (lib, bin) = rust
        .split_once("// src/bin/my-bot.rs\n")
        .expect("the page's lib.rs, then its src/bin/my-bot.rs");
    let lib = lib
        .replacen("/* ... */", FIELDS, 1)
        .replacen("/* ... */", METHODS, 1);
    assert!(!lib.contains("/* ... */"), "{lib}");

    let home = tempfile::tempdir().expect("a folder outside the workspace");
    let dir = home.path().join("my-bot");
    std::fs::create_dir_all(dir.join("src/bin")).expect("the crate's folders");
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("Cargo.toml");
    std::fs::write(dir.join("src/lib.rs"), lib).expect("src/lib.rs");
    std::fs::write(dir.join("src/bin/my-bot.rs"), bin).expect("src/bin/my-bot.rs");
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).expect("Cargo.lock");

    let native = target_dir("native-tests");
    let wasm = target_dir("wasm-tests");
    cargo_build_in(&dir, &native, &["--quiet"]);
    cargo_build_in(
        &dir,
        &native,
        &["--quiet", "--features", "stdio", "--bin", "my-bot"],
    );
    let wasm_build = ["--quiet", "--release", "--target", "wasm32-wasip2"];
    cargo_build_in(&dir, &wasm, &wasm_build);
    let library = native.join(format!(
        "debug/{}my_bot{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    let component = wasm.join("wasm32-wasip2/release/my_bot.wasm");
    let process = native.join("debug/my-bot");

    let out = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["play", "--variant", "speedclue", "--no-contest-rules"])
        .args(["--players", "3", "--seed", "5", "--max-rounds", "10"])
        .arg("--bot")
        .arg(format!("native:{}", library.display()))
        .arg("--bot")
        .arg(format!("wasm:{}", component.display()))
        .arg("--bot")
        .arg(format!("jsonl:{}", process.display()))
        .output()
        .expect("clue runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stdout.contains("disqualified"), "{stdout}");
    // Each form played its turns.
    for spec in ["native:", "wasm:", "jsonl:"] {
        assert!(
            stdout
                .lines()
                .any(|l| l.contains(spec) && l.contains(") suggests ")),
            "{spec} never suggested: {stdout}"
        );
    }
    assert!(stdout.contains("game over"), "{stdout}");
}
