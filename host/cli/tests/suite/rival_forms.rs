//! `rival` from one source in its three forms, like the other bundled bots:
//! built in, a native plugin (isolated in a worker, `librival.so`) and a
//! wasm component (`rival.wasm`, under 16 MiB as a file, playing under a
//! 16 MiB memory cap). In every variant each form plays the same game from
//! the same seed against `notebook`, with no seat disqualified.

use crate::forms_support;
use crate::game_checks;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use clue_engine::GameConfig;
use clue_runtime::bots::BotLimits;
use forms_support::*;
use game_checks::EVERY_VARIANT;

fn library_file() -> &'static Path {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| library(&build_native("rival", &[]), "rival"))
}

fn wasm_file() -> &'static Path {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| build_wasm("rival"))
}

#[test]
fn every_form_plays_the_same_game_in_every_variant() {
    let native = format!("native:{}", library_file().display());
    let wasm = format!("wasm:{}", wasm_file().display());
    for (variant, players) in EVERY_VARIANT {
        let config = GameConfig::new(variant, players);
        let seed = 20 + u64::from(players);
        let builtin = game("builtin:rival", &BotLimits::default(), &config, seed);
        let native = game(&native, &BotLimits::default(), &config, seed);
        let wasm = game(&wasm, &capped(), &config, seed);
        // One source: the same decisions in every form.
        assert_eq!(
            builtin.log, native.log,
            "{variant}: native differs from built in"
        );
        assert_eq!(
            builtin.log, wasm.log,
            "{variant}: wasm differs from built in"
        );
    }
}

#[test]
fn the_wasm_component_fits_in_16_mib() {
    let size = std::fs::metadata(wasm_file()).expect("built").len();
    eprintln!("rival.wasm: {size} bytes");
    assert!(size < SIXTEEN_MIB, "rival.wasm is {size} bytes");
}
