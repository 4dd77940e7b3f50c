//! Asks the host for 4 MiB of random bytes 8 times at each suggestion, and
//! plays on: host work the fuel must pay for, by the byte.
wasm_guests::hostile!(|| {
    for _ in 0..8 {
        std::hint::black_box(wasi::random::random::get_random_bytes(4 << 20));
    }
});
