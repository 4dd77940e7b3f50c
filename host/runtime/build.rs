//! The fingerprint of each built-in bot's code (`bots::builtin_code`) and
//! of the game engine's (`engine_code`), computed by
//! `build/fingerprint.rs` from the sources of the workspace's crates each
//! uses and the versions `Cargo.lock` pins for the others. A store keeps
//! them with the files a tournament plays with, so that a resume or a
//! worker whose `clue` plays a built-in bot, or the game, differently is
//! refused, as one whose bot files changed is (docs/tournament.md).

use std::path::{Path, PathBuf};

#[path = "build/fingerprint.rs"]
mod fingerprint;

/// The built-in bots, each the player crate in `plugins/NAME` (the names
/// `clue_runtime::bots::BUILTINS` gives them).
const BUILTINS: [&str; 4] = ["clueless", "notebook", "sleuth", "rival"];

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("../..");
    let sources = fingerprint::Sources::read(&root).unwrap_or_else(|e| panic!("{e}"));
    for file in ["Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", root.join(file).display());
    }
    let mut table = String::from("/// Each built-in bot and the SHA-256 of its code.\n");
    table.push_str(&format!(
        "const BUILTIN_CODE: [(&str, &str); {}] = [\n",
        BUILTINS.len()
    ));
    for bot in BUILTINS {
        let code = fingerprint(&sources, &root.join("plugins").join(bot));
        table.push_str(&format!("    (\"{bot}\", \"{code}\"),\n"));
    }
    table.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("builtin_code.rs"), table).expect("the table is written");
    let engine = fingerprint(&sources, &root.join("host/engine"));
    std::fs::write(
        out.join("engine_code.rs"),
        format!(
            "/// The SHA-256 of the game engine's code.\nconst ENGINE_CODE: &str = \"{engine}\";\n"
        ),
    )
    .expect("the engine's fingerprint is written");
}

/// The fingerprint of the crate in `dir`, cargo told to build again when
/// one of the workspace's crates it uses changes.
fn fingerprint(sources: &fingerprint::Sources, dir: &Path) -> String {
    let code = sources.fingerprint(dir).unwrap_or_else(|e| panic!("{e}"));
    for dir in &code.members {
        println!(
            "cargo:rerun-if-changed={}",
            dir.join("Cargo.toml").display()
        );
        println!("cargo:rerun-if-changed={}", dir.join("src").display());
    }
    code.sha256
}
