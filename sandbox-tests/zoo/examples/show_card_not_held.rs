//! The `show-card-not-held` bot as a native plugin or a wasm component.
zoo::export!(zoo::Behaviour::ShowCardNotHeld);
