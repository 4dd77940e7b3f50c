//! Executes `unreachable` at its first suggestion: crash.
wasm_guests::hostile!(|| {
    #[cfg(target_arch = "wasm32")]
    core::arch::wasm32::unreachable();
});
