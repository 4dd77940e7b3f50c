//! The fingerprint of each built-in bot's code (`bots::builtin_code`): a
//! SHA-256 of the sources of the bundled player crate it is and of the
//! bundled crates it uses, found through their `[dependencies]`. A store
//! keeps it with the files a tournament plays with, so that a resume or a
//! worker whose `clue` plays a built-in bot differently is refused, as one
//! whose bot files changed is (docs/tournament.md).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The built-in bots and the folders of their player crates under
/// `plugins/` (the names `clue_runtime::bots::BUILTINS` gives them).
const BUILTINS: [&str; 4] = ["clueless", "notebook", "sleuth", "rival"];

/// The bundled crates a player crate may use, by folder (and dependency)
/// name.
const BUNDLED: [&str; 5] = ["clueless", "notebook", "sleuth", "sleuth-infer", "rival"];

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let plugins = Path::new(&manifest).join("../../plugins");
    let mut table = String::from("/// Each built-in bot and the SHA-256 of its code.\n");
    table.push_str("const BUILTIN_CODE: [(&str, &str); 4] = [\n");
    for bot in BUILTINS {
        let mut crates = BTreeSet::new();
        used(&plugins, bot, &mut crates);
        let mut hasher = Sha256::new();
        for name in &crates {
            let dir = plugins.join(name);
            println!(
                "cargo:rerun-if-changed={}",
                dir.join("Cargo.toml").display()
            );
            println!("cargo:rerun-if-changed={}", dir.join("src").display());
            let mut files = vec![dir.join("Cargo.toml")];
            sources(&dir.join("src"), &mut files);
            files.sort();
            for file in files {
                let named = file.strip_prefix(&plugins).unwrap_or(&file);
                hasher.update(named.to_string_lossy().as_bytes());
                hasher.update([0]);
                hasher.update(std::fs::read(&file).expect("a source file reads"));
                hasher.update([0]);
            }
        }
        let hex: String = hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        table.push_str(&format!("    (\"{bot}\", \"{hex}\"),\n"));
    }
    table.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("builtin_code.rs"), table).expect("the table is written");
}

/// Adds `name` and every bundled crate it uses, through the dependency
/// lines of its `Cargo.toml`, to `crates`.
fn used(plugins: &Path, name: &str, crates: &mut BTreeSet<String>) {
    if !crates.insert(name.to_string()) {
        return;
    }
    let manifest = std::fs::read_to_string(plugins.join(name).join("Cargo.toml"))
        .expect("a bundled player's Cargo.toml reads");
    let mut in_dependencies = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
            // A dependency written as a table of its own.
            if let Some(name) = line
                .strip_prefix("[dependencies.")
                .and_then(|rest| rest.strip_suffix(']'))
                .filter(|name| BUNDLED.contains(name))
            {
                used(plugins, name, crates);
            }
            continue;
        }
        let key = line.split(['.', '=', ' ']).next().unwrap_or_default();
        if in_dependencies && BUNDLED.contains(&key) {
            used(plugins, key, crates);
        }
    }
}

/// Every file under `dir`, recursively.
fn sources(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, files);
        } else {
            files.push(path);
        }
    }
}
