//! The standard decks of the variants. Card ids are indices into the deck, and
//! categories come in the order person, weapon, room (or a single `item`).

use clue_plugin_api::{CardInfo, Category, Deck};

/// The classic suspects, weapons and rooms in alphabetical order, so that the
/// 2014 Speed Clue card codes (`Gr Mu Pe Pl Sc Wh`, ...) line up with the ids.
pub const CLASSIC_PERSONS: [&str; 6] = [
    "Mr. Green",
    "Colonel Mustard",
    "Mrs. Peacock",
    "Professor Plum",
    "Miss Scarlet",
    "Mrs. White",
];
pub const CLASSIC_WEAPONS: [&str; 6] = [
    "Candlestick",
    "Knife",
    "Lead Pipe",
    "Revolver",
    "Rope",
    "Wrench",
];
pub const CLASSIC_ROOMS: [&str; 9] = [
    "Ballroom",
    "Billiard Room",
    "Conservatory",
    "Dining Room",
    "Hall",
    "Kitchen",
    "Library",
    "Lounge",
    "Study",
];

/// CyberClue (`seeds/004`): the suspects are the players, in this order.
pub const CYBER_SUSPECTS: [&str; 6] = [
    "Miss Pink",
    "Reverend Orange",
    "Lady Red",
    "Sgt. Brown",
    "Mrs. Violet",
    "Mr. Blue",
];
pub const CYBER_WEAPONS: [&str; 7] = [
    "Virus",
    "Trojan Horse",
    "Worm",
    "Denial of Service Attack",
    "Buffer Overrun",
    "Password Hack",
    "VBS Macro",
];
/// The ten computers in ring order: Lounge is next to both DiningRoom and Veranda.
pub const CYBER_COMPUTERS: [&str; 10] = [
    "Lounge",
    "DiningRoom",
    "Study",
    "Ballroom",
    "Conservatory",
    "stupid spam bots",
    "Library",
    "Hall",
    "BilliardRoom",
    "Veranda",
];

/// Builds a three-category deck from names.
pub fn three_category<P, W, R>(persons: &[P], weapons: &[W], rooms: &[R]) -> Deck
where
    P: AsRef<str>,
    W: AsRef<str>,
    R: AsRef<str>,
{
    let mut cards = Vec::new();
    let mut push = |category, name: &str| {
        cards.push(CardInfo {
            category,
            name: name.to_string(),
        })
    };
    persons
        .iter()
        .for_each(|n| push(Category::Person, n.as_ref()));
    weapons
        .iter()
        .for_each(|n| push(Category::Weapon, n.as_ref()));
    rooms.iter().for_each(|n| push(Category::Room, n.as_ref()));
    Deck { cards }
}

pub fn classic() -> Deck {
    three_category(&CLASSIC_PERSONS, &CLASSIC_WEAPONS, &CLASSIC_ROOMS)
}

pub fn cyberclue() -> Deck {
    three_category(&CYBER_SUSPECTS, &CYBER_WEAPONS, &CYBER_COMPUTERS)
}

/// `generalized`: items named `1..=n`.
pub fn generalized(items: u16) -> Deck {
    Deck {
        cards: (1..=items)
            .map(|i| CardInfo {
                category: Category::Item,
                name: i.to_string(),
            })
            .collect(),
    }
}

/// Name pools for the `framework` variant, whose names are drawn from the seed.
pub const FRAMEWORK_PERSONS: [&str; 12] = [
    "Director Alderdice",
    "Dean Gregory",
    "Kim McKean",
    "Dr. Rhuele",
    "Dr. Kostopulos",
    "Dr. Leigh",
    "Brian Isbell",
    "Dr. Oatsvall",
    "Bryan Adams",
    "Senor Mac",
    "James Katowich",
    "Ada Lovelace",
];
pub const FRAMEWORK_WEAPONS: [&str; 12] = [
    "computer keyboard",
    "paper",
    "laptop",
    "car",
    "fire extinguisher",
    "door knob",
    "stapler",
    "soldering iron",
    "Raspberry Pi",
    "ethernet cable",
    "whiteboard marker",
    "coffee mug",
];
pub const FRAMEWORK_ROOMS: [&str; 16] = [
    "Krakowiak's Lab",
    "3rd Floor Landing",
    "WorldStud Room",
    "Boardroom",
    "Grisham's Room",
    "L Waddell's Room",
    "Comp Lab B",
    "Nikki's Room",
    "Spanish Room",
    "Seward's Lab",
    "Server Closet",
    "Library Annex",
    "Chemistry Lab",
    "Music Room",
    "Gymnasium",
    "Cafeteria",
];
