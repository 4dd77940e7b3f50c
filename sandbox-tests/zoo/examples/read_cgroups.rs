//! The `read-cgroups` bot as a native plugin or a wasm component.
zoo::export!(zoo::Behaviour::ReadCgroups);
