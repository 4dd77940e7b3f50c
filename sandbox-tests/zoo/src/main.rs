//! Every hostile behaviour as a JSON-lines process bot: `zoo-process NAME`.

fn main() {
    let name = std::env::args().nth(1).unwrap_or_default();
    let Some(behaviour) = zoo::Behaviour::parse(&name) else {
        eprintln!("zoo-process: unknown behaviour `{name}`");
        std::process::exit(2);
    };
    if behaviour == zoo::Behaviour::ForkBomb && std::env::args().nth(2).is_some() {
        zoo::fork_bomb_child();
        return;
    }
    if let Err(e) = clue_plugin_api::stdio::serve_stdio(zoo::Hostile::new(behaviour)) {
        eprintln!("zoo-process: {e}");
        std::process::exit(1);
    }
}
