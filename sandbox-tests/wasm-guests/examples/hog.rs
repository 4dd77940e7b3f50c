//! Allocates 100 MiB at its first suggestion: out-of-memory.
wasm_guests::hostile!(|| {
    let v = vec![1u8; 100 << 20];
    std::hint::black_box(&v);
});
