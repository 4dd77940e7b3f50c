//! The `cpu-burners` bot as a native plugin or a wasm component.
zoo::export!(zoo::Behaviour::CpuBurners);
