//! A component that claims `clue:player/player@0.2.0` but exports another
//! shape (`name` returns a number, the rest is missing): refused at load,
//! both versions named.

wit_bindgen::generate!({
    inline: r#"
        package clue:player@0.2.0;
        interface player {
            name: func() -> u32;
        }
        world bot {
            export player;
        }
    "#,
    world: "bot",
});

struct Misshapen;

impl exports::clue::player::player::Guest for Misshapen {
    fn name() -> u32 {
        7
    }
}

export!(Misshapen);
