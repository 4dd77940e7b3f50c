//! A component built against a `clue:player` version this host does not
//! know (0.9.0): refused at load, both versions named.

wit_bindgen::generate!({
    inline: r#"
        package clue:player@0.9.0;
        interface player {
            name: func() -> string;
        }
        world bot {
            export player;
        }
    "#,
    world: "bot",
});

struct Future;

impl exports::clue::player::player::Guest for Future {
    fn name() -> String {
        "from the future".into()
    }
}

export!(Future);
