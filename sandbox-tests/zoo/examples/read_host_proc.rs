//! The `read-host-proc` bot as a native plugin or a wasm component.
zoo::export!(zoo::Behaviour::ReadHostProc);
