//! The `fork-bomb-unbounded` bot as a native plugin or a wasm component.
zoo::export!(zoo::Behaviour::ForkBombUnbounded);
