//! Prints a megabyte to stdout at each suggestion, then plays on: the host
//! keeps only the capped start of it and the game is unaffected.
wasm_guests::hostile!(|| {
    let line = "x".repeat(1023);
    for _ in 0..1024 {
        println!("{line}");
    }
});
