//! `rival` as a loadable bot, from the one source in `rival-player`: a
//! native plugin (docs/native.md) on the host's target, a `clue:player`
//! component (docs/wasm.md) on `wasm32-wasip2`.

#[cfg(not(target_arch = "wasm32"))]
clue_plugin_api::export_native_player!(player::Rival);

#[cfg(target_arch = "wasm32")]
clue_plugin_api::export_wasm_player!(player::Rival);
