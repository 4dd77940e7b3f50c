//! Sleeps an hour at each suggestion: the host's timers are ready at once,
//! so the game does not wait (and the bot plays on).
wasm_guests::hostile!(|| std::thread::sleep(std::time::Duration::from_secs(3600)));
