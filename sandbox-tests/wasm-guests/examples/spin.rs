//! Loops forever at its first suggestion: out-of-fuel, or timeout with fuel off.
wasm_guests::hostile!(|| {
    let mut x: u64 = 0;
    loop {
        x = std::hint::black_box(x.wrapping_add(1));
    }
});
