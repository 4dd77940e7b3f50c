//! Asks the host to look up a host name of 1 MiB, a million times, at its
//! first suggestion (the lookup is refused, but only once the host has
//! copied and checked the name): host work per byte handed over that a flat
//! fee per call does not see.
wasm_guests::hostile!(|| {
    let network = wasi::sockets::instance_network::instance_network();
    let name = "a".repeat(1 << 20);
    for _ in 0..1_000_000 {
        let _ = std::hint::black_box(wasi::sockets::ip_name_lookup::resolve_addresses(
            &network, &name,
        ));
    }
});
