//! The `loop-begin-game` bot as a native plugin or a wasm component.
zoo::export!(zoo::Behaviour::LoopBeginGame);
