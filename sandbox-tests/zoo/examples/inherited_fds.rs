//! The `inherited-fds` bot as a native plugin or a wasm component.
zoo::export!(zoo::Behaviour::InheritedFds);
