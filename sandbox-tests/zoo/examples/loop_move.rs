//! The `loop-move` bot as a native plugin or a wasm component.
zoo::export!(zoo::Behaviour::LoopMove);
