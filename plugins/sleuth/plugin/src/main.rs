//! `sleuth` as a process bot: the JSON-lines protocol of `docs/protocol.md`
//! on stdin/stdout (`jsonl:target/release/sleuth`).

fn main() {
    if let Err(e) = clue_plugin_api::stdio::serve_stdio(player::Sleuth::default()) {
        eprintln!("sleuth: {e}");
        std::process::exit(1);
    }
}
