//! Makes 20,000 clock pollables at its first suggestion and keeps them,
//! then plays on: host memory (wasmtime's handle tables and WASI's resource
//! table) that the guest's memory limit does not count.
wasm_guests::hostile!(|| {
    static DONE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !DONE.swap(true, std::sync::atomic::Ordering::Relaxed) {
        for _ in 0..20_000 {
            std::mem::forget(wasi::clocks::monotonic_clock::subscribe_duration(
                1_000_000_000,
            ));
        }
    }
});
