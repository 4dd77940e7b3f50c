//! `clue doctor`: what this machine offers the host, layer by layer: today
//! the process sandbox (`clue_runtime::sandbox::layers`). Exit status 1 when
//! a layer that sandboxed bots cannot start without is missing.

use std::process::ExitCode;

use clue_runtime::sandbox;

pub fn run() -> anyhow::Result<ExitCode> {
    println!(
        "process sandbox (process bots and isolated native workers; docs/process-sandbox.md):"
    );
    let layers = sandbox::layers();
    for layer in &layers {
        let state = match (layer.available, layer.required) {
            (true, _) => "available",
            (false, true) => "MISSING",
            (false, false) => "missing (fallback)",
        };
        println!("  {:<20} {}: {}", state, layer.name, layer.detail);
    }
    let missing: Vec<&str> = layers
        .iter()
        .filter(|l| l.required && !l.available)
        .map(|l| l.name)
        .collect();
    if missing.is_empty() {
        println!("sandboxed bots can start here");
        Ok(ExitCode::SUCCESS)
    } else {
        println!(
            "sandboxed bots cannot start here (missing: {}); run trusted bots with \
             `--no-sandbox` or `sandbox: off` in the tournament file",
            missing.join(", ")
        );
        Ok(ExitCode::from(1))
    }
}
