//! The hostile bots' base without a misbehaviour, exported as
//! `clue:player@0.2.0`: the twin of `legacy.rs` (0.1.0) for the benchmark's
//! per-call comparison of the two versions.
wasm_guests::hostile!(|| {});
