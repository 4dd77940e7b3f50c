//! Reading the setup file: the legend (Room and Space lines), the player
//! lines and the weapon lines.
//!
//! Accepted lines (keywords ignore ASCII case; fields are trimmed; blank lines
//! and `//` comments are skipped):
//!
//! - `Room, <name>, <initial>` and `Space, <name>, <initial>`, optionally
//!   followed by empty or numeric fields (a trailing comma, or
//!   `Room, Kitchen Arena, K, 5`);
//! - `Weapon, <name>[, <code>]`;
//! - `Card, <Weapon|W>, <name>[, <code>]`, `Card, <Player|Person|P>, <name>[,
//!   <code>]`, `Card, <Room|R>, <name>[, <initial>]`. Card lines for persons
//!   and weapons are used only when the file has no player (weapon) lines;
//!   otherwise each must name one of them. Room card lines must name a room;
//! - player lines, keyword `Player`, `Person`, `Suspect`, `Human`,
//!   `HumanPlayer`, `Computer`, `ComputerPlayer` or `NPC`, fields as in
//!   [`crate::people`]. When some player line's keyword says "computer"
//!   (`Computer`, `ComputerPlayer`, `NPC`), `Player` lines that give no kind
//!   are the human(s);
//! - a section header alone on a line (`PEOPLE`, `PLAYERS`, `PERSONS`,
//!   `SUSPECTS`, `WEAPONS`, optionally with a colon) makes the following lines
//!   without a keyword player lines or weapon names.

use crate::error::{BoardError, Problem};
use crate::model::{Person, PlayerKind, Weapon};
use crate::people::{PlayerLine, StartSpec, read_player};
use crate::text::{Field, Source, end_column, fields, lines, without_trailing_empty};

/// A Room or Space line: name, initial and where the initial was written.
#[derive(Clone, Debug)]
pub(crate) struct LegendLine {
    pub name: String,
    pub initial: char,
    pub line: usize,
    /// The column of the initial.
    pub column: usize,
    pub name_column: usize,
}

/// A weapon or card line: the name, an optional code, and where the name was.
#[derive(Clone, Debug)]
pub(crate) struct NameLine {
    pub name: String,
    pub code: Option<String>,
    pub line: usize,
    pub column: usize,
}

/// The setup file, read line by line but not yet checked against the layout.
#[derive(Clone, Debug, Default)]
pub(crate) struct Setup {
    pub rooms: Vec<LegendLine>,
    pub spaces: Vec<LegendLine>,
    pub players: Vec<PlayerLine>,
    pub weapons: Vec<NameLine>,
    pub card_persons: Vec<NameLine>,
    pub card_weapons: Vec<NameLine>,
    pub card_rooms: Vec<NameLine>,
    /// The line after the last one, for errors about something missing.
    pub end_line: usize,
}

/// Cell markers an initial may not be, or `Wv` would be ambiguous.
pub(crate) const MARKERS: [char; 6] = ['^', 'v', '<', '>', '#', '*'];

#[derive(Clone, Copy, PartialEq)]
enum Section {
    None,
    People,
    Weapons,
}

fn keyword_kind(keyword: &str) -> Option<Option<PlayerKind>> {
    match keyword.to_ascii_lowercase().as_str() {
        "player" | "person" | "suspect" => Some(None),
        "human" | "humanplayer" => Some(Some(PlayerKind::Human)),
        "computer" | "computerplayer" | "npc" => Some(Some(PlayerKind::Computer)),
        _ => None,
    }
}

fn section_header(text: &str) -> Option<Section> {
    let word = text.trim_end_matches(':').trim().to_ascii_lowercase();
    match word.as_str() {
        "people" | "players" | "persons" | "suspects" => Some(Section::People),
        "weapons" => Some(Section::Weapons),
        _ => None,
    }
}

/// Reads every line of the setup file.
pub(crate) fn read(text: &str, src: Source) -> Result<Setup, BoardError> {
    let mut setup = Setup::default();
    let mut section = Section::None;
    let mut computer_keyword = false;
    let mut plain_players = Vec::new();
    for line in lines(text) {
        setup.end_line = line.number + 1;
        let trimmed = line.text.trim();
        if trimmed.is_empty() || trimmed.starts_with("//") {
            continue;
        }
        let fields = fields(line.text);
        let end = end_column(line.text);
        let n = line.number;
        let keyword = fields[0].text;
        if let Some(kind) = keyword_kind(keyword) {
            if kind == Some(PlayerKind::Computer) {
                computer_keyword = true;
            }
            let player = read_player(src, n, &fields[1..], kind, end)?;
            if kind.is_none() && player.kind.is_none() {
                plain_players.push(setup.players.len());
            }
            setup.players.push(player);
            continue;
        }
        match keyword.to_ascii_lowercase().as_str() {
            "room" => setup.rooms.push(legend_line(src, n, &fields, "Room", end)?),
            "space" => setup
                .spaces
                .push(legend_line(src, n, &fields, "Space", end)?),
            "weapon" => setup
                .weapons
                .push(name_line(src, n, &fields[1..], "Weapon", end)?),
            "card" => card_line(src, n, &fields, end, &mut setup)?,
            _ if fields.len() == 1 && section_header(keyword).is_some() => {
                section = section_header(keyword).unwrap_or(Section::None);
            }
            _ if section == Section::People => {
                let player = read_player(src, n, &fields, None, end)?;
                setup.players.push(player);
            }
            _ if section == Section::Weapons => {
                setup
                    .weapons
                    .push(name_line(src, n, &fields, "Weapon", end)?);
            }
            _ => {
                return Err(src.err(
                    n,
                    fields[0].column,
                    Problem::UnknownLineKind(keyword.to_string()),
                ));
            }
        }
    }
    if computer_keyword {
        for i in plain_players {
            setup.players[i].kind = Some(PlayerKind::Human);
        }
    }
    check_legend(src, &setup)?;
    Ok(setup)
}

fn legend_line(
    src: Source,
    line: usize,
    fields: &[Field],
    what: &'static str,
    end: usize,
) -> Result<LegendLine, BoardError> {
    let [_, name, initial, extra @ ..] = fields else {
        return Err(src.err(line, end, Problem::TooFewFields(what, 3, fields.len())));
    };
    if name.text.is_empty() {
        return Err(src.err(line, name.column, Problem::EmptyField));
    }
    let mut chars = initial.text.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        let problem = if initial.text.is_empty() {
            Problem::EmptyField
        } else {
            Problem::BadInitial(initial.text.to_string())
        };
        return Err(src.err(line, initial.column, problem));
    };
    if MARKERS.contains(&c) {
        return Err(src.err(line, initial.column, Problem::MarkerInitial(c)));
    }
    if let Some(f) = extra
        .iter()
        .find(|f| !f.text.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(src.err(line, f.column, Problem::UnexpectedField(f.text.to_string())));
    }
    Ok(LegendLine {
        name: name.text.to_string(),
        initial: c,
        line,
        column: initial.column,
        name_column: name.column,
    })
}

/// `<name>[, <code>]` (the fields after the keyword).
fn name_line(
    src: Source,
    line: usize,
    fields: &[Field],
    what: &'static str,
    end: usize,
) -> Result<NameLine, BoardError> {
    let fields = without_trailing_empty(fields);
    let [name, rest @ ..] = fields else {
        return Err(src.err(line, end, Problem::TooFewFields(what, 2, 1)));
    };
    if name.text.is_empty() {
        return Err(src.err(line, name.column, Problem::EmptyField));
    }
    let code = match rest {
        [] => None,
        [code] => Some(code.text.to_string()),
        [_, f, ..] => {
            return Err(src.err(line, f.column, Problem::UnexpectedField(f.text.to_string())));
        }
    };
    Ok(NameLine {
        name: name.text.to_string(),
        code,
        line,
        column: name.column,
    })
}

fn card_line(
    src: Source,
    line: usize,
    fields: &[Field],
    end: usize,
    setup: &mut Setup,
) -> Result<(), BoardError> {
    let Some(category) = fields.get(1) else {
        return Err(src.err(line, end, Problem::TooFewFields("Card", 3, 1)));
    };
    let list = match category.text.to_ascii_lowercase().as_str() {
        "weapon" | "w" => &mut setup.card_weapons,
        "player" | "person" | "suspect" | "p" => &mut setup.card_persons,
        "room" | "r" => &mut setup.card_rooms,
        _ => {
            return Err(src.err(
                line,
                category.column,
                Problem::UnknownCardCategory(category.text.to_string()),
            ));
        }
    };
    list.push(name_line(src, line, &fields[2..], "Card", end)?);
    Ok(())
}

fn check_legend(src: Source, setup: &Setup) -> Result<(), BoardError> {
    if setup.rooms.is_empty() {
        return Err(src.err(setup.end_line.max(1), 1, Problem::NoRooms));
    }
    let mut legend = setup.rooms.iter().chain(&setup.spaces).collect::<Vec<_>>();
    legend.sort_by_key(|l| l.line);
    for (i, entry) in legend.iter().enumerate() {
        if let Some(first) = legend[..i].iter().find(|l| l.initial == entry.initial) {
            return Err(src.err(
                entry.line,
                entry.column,
                Problem::DuplicateInitial(entry.initial, first.name.clone()),
            ));
        }
    }
    for (i, room) in setup.rooms.iter().enumerate() {
        if setup.rooms[..i]
            .iter()
            .any(|r| r.name.eq_ignore_ascii_case(&room.name))
        {
            return Err(src.err(
                room.line,
                room.name_column,
                Problem::DuplicateName("room", room.name.clone()),
            ));
        }
    }
    Ok(())
}

/// The persons and weapons, with start cells resolved against the board
/// (`rows` x `cols`, room names to centre cells).
pub(crate) fn people(
    src: Source,
    setup: &Setup,
    rows: u16,
    cols: u16,
    room_centres: &[(String, (u16, u16))],
) -> Result<(Vec<Person>, Vec<Weapon>), BoardError> {
    let mut persons: Vec<Person> = Vec::new();
    for p in &setup.players {
        if persons.iter().any(|q| q.name.eq_ignore_ascii_case(&p.name)) {
            return Err(src.err(
                p.line,
                p.name_column,
                Problem::DuplicateName("person", p.name.clone()),
            ));
        }
        let start = match &p.start {
            StartSpec::None => None,
            &StartSpec::Cell(r, c, column) => {
                if r >= rows || c >= cols {
                    return Err(src.err(p.line, column, Problem::StartOutside(r, c, rows, cols)));
                }
                Some((r, c))
            }
            StartSpec::Room(name, column) => {
                let centre = room_centres
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name))
                    .map(|&(_, at)| at);
                match centre {
                    Some(at) => Some(at),
                    None => {
                        return Err(src.err(
                            p.line,
                            *column,
                            Problem::UnexpectedField(name.clone()),
                        ));
                    }
                }
            }
        };
        persons.push(Person {
            name: p.name.clone(),
            color: p.color.clone(),
            kind: p.kind,
            start,
            code: p.code.clone(),
        });
    }
    let person_names: Vec<String> = persons.iter().map(|p| p.name.clone()).collect();
    let card_persons = cards(src, &setup.card_persons, &person_names, "person")?;
    if persons.is_empty() {
        persons = card_persons
            .into_iter()
            .map(|c| Person {
                name: c.name,
                color: None,
                kind: None,
                start: None,
                code: c.code,
            })
            .collect();
    }

    let mut weapons: Vec<Weapon> = Vec::new();
    for w in &setup.weapons {
        if weapons.iter().any(|v| v.name.eq_ignore_ascii_case(&w.name)) {
            return Err(src.err(
                w.line,
                w.column,
                Problem::DuplicateName("weapon", w.name.clone()),
            ));
        }
        weapons.push(Weapon {
            name: w.name.clone(),
            code: w.code.clone(),
        });
    }
    let weapon_names: Vec<String> = weapons.iter().map(|w| w.name.clone()).collect();
    let card_weapons = cards(src, &setup.card_weapons, &weapon_names, "weapon")?;
    if weapons.is_empty() {
        weapons = card_weapons
            .into_iter()
            .map(|c| Weapon {
                name: c.name,
                code: c.code,
            })
            .collect();
    }

    let room_names: Vec<String> = setup.rooms.iter().map(|r| r.name.clone()).collect();
    cards(src, &setup.card_rooms, &room_names, "room")?;
    Ok((persons, weapons))
}

/// Checks card lines: no duplicates, and when `known` is not empty, every
/// card names one of `known`.
fn cards(
    src: Source,
    lines: &[NameLine],
    known: &[String],
    what: &'static str,
) -> Result<Vec<NameLine>, BoardError> {
    for (i, card) in lines.iter().enumerate() {
        if lines[..i]
            .iter()
            .any(|c| c.name.eq_ignore_ascii_case(&card.name))
        {
            return Err(src.err(
                card.line,
                card.column,
                Problem::DuplicateName(what, card.name.clone()),
            ));
        }
        if !known.is_empty() && !known.iter().any(|k| k.eq_ignore_ascii_case(&card.name)) {
            return Err(src.err(
                card.line,
                card.column,
                Problem::UnknownCardName(card.name.clone(), what),
            ));
        }
    }
    Ok(lines.to_vec())
}
