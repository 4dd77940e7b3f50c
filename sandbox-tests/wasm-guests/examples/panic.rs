//! Panics at its first suggestion: crash, with the message on stderr.
wasm_guests::hostile!(|| panic!("the butler did it"));
