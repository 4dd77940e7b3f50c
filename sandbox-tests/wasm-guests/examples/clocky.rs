//! Reads the monotonic clock 100,000 times at each suggestion, and plays
//! on: host work the fuel must pay for.
wasm_guests::hostile!(|| {
    for _ in 0..100_000 {
        std::hint::black_box(std::time::Instant::now());
    }
});
