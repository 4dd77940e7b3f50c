//! Polls one ready pollable, named 500 times in one list, a million times
//! at its first suggestion: host work per entry that a flat fee per call
//! does not see.
wasm_guests::hostile!(|| {
    let ready = wasi::clocks::monotonic_clock::subscribe_duration(0);
    let list: Vec<&wasi::io::poll::Pollable> = vec![&ready; 500];
    for _ in 0..1_000_000 {
        std::hint::black_box(wasi::io::poll::poll(&list));
    }
});
