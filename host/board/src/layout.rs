//! Reading the layout CSV against the legend of the setup file.
//!
//! A cell is an initial from the legend, optionally followed by one marker:
//! `^ v < >` (a doorway, on the walkway, into the room on that side), `#` (a
//! room's label), `*` (a room's centre), or another room's initial (a secret
//! passage, on a room cell). Blank lines are skipped. When every row ends in
//! the same number of empty fields (a trailing comma on every row) they are
//! dropped; otherwise every row must have as many cells as the first.

use crate::error::{BoardError, Problem};
use crate::model::{Cell, CellKind, step};
use crate::setup::{MARKERS, Setup};
use crate::text::{Field, Line, Source, end_column, fields, lines};
use clue_plugin_api::Direction;

/// The grid, decoded and checked.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub rows: u16,
    pub cols: u16,
    pub cells: Vec<Cell>,
    /// Index in `setup.spaces` of the walkway.
    pub walkway: usize,
    pub centres: Vec<(u16, u16)>,
    pub labels: Vec<(u16, u16)>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Base {
    Room(usize),
    Space(usize),
}

/// One token as written, with its place in the file.
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    text: &'a str,
    line: usize,
    column: usize,
    base: Base,
    marker: Option<char>,
}

fn door_direction(marker: char) -> Option<Direction> {
    match marker {
        '^' => Some(Direction::Up),
        'v' => Some(Direction::Down),
        '<' => Some(Direction::Left),
        '>' => Some(Direction::Right),
        _ => None,
    }
}

fn lookup(setup: &Setup, initial: char) -> Option<Base> {
    if let Some(i) = setup.rooms.iter().position(|r| r.initial == initial) {
        return Some(Base::Room(i));
    }
    setup
        .spaces
        .iter()
        .position(|s| s.initial == initial)
        .map(Base::Space)
}

/// Splits the rows into fields, dropping trailing empty fields shared by
/// every row, and checks every row against the first.
fn grid<'a>(text: &'a str, src: Source) -> Result<Vec<(Line<'a>, Vec<Field<'a>>)>, BoardError> {
    let mut rows: Vec<(Line, Vec<Field>)> = lines(text)
        .filter(|l| !l.text.trim().is_empty())
        .map(|l| (l, fields(l.text)))
        .collect();
    let trailing = |fs: &[Field]| fs.iter().rev().take_while(|f| f.text.is_empty()).count();
    let shared = rows.iter().map(|(_, fs)| trailing(fs)).min().unwrap_or(0);
    if shared > 0 && rows.iter().all(|(_, fs)| fs.len() > shared) {
        for (_, fs) in &mut rows {
            fs.truncate(fs.len() - shared);
        }
    }
    let Some((_, first)) = rows.first() else {
        return Err(src.err(1, 1, Problem::EmptyLayout));
    };
    let expected = first.len();
    if rows.len() > usize::from(u16::MAX) || expected > usize::from(u16::MAX) {
        return Err(src.err(1, 1, Problem::TooLarge));
    }
    for (line, fs) in &rows {
        let found = fs.len() - trailing(fs);
        let problem = Problem::ColumnCount { found, expected };
        if fs.len() > expected && found > expected {
            return Err(src.err(line.number, fs[expected].column, problem));
        }
        if found < expected {
            let column = fs.get(found).map_or(end_column(line.text), |f| f.column);
            return Err(src.err(line.number, column, problem));
        }
        if let Some(f) = fs.iter().find(|f| f.text.is_empty()) {
            return Err(src.err(line.number, f.column, Problem::EmptyCell));
        }
    }
    Ok(rows)
}

/// The walkway: the Space named `Walkway`, else the one Space whose cells
/// carry door markers.
fn walkway(
    tokens: &[Token],
    setup: &Setup,
    src: Source,
    setup_src: Source,
) -> Result<usize, BoardError> {
    let named: Vec<usize> = (0..setup.spaces.len())
        .filter(|&i| setup.spaces[i].name.trim().eq_ignore_ascii_case("walkway"))
        .collect();
    if let [only] = named[..] {
        return Ok(only);
    }
    let mut found: Option<usize> = None;
    for t in tokens {
        let (Base::Space(s), Some(m)) = (t.base, t.marker) else {
            continue;
        };
        if door_direction(m).is_none() {
            continue;
        }
        match found {
            None => found = Some(s),
            Some(first) if first != s => {
                return Err(src.err(
                    t.line,
                    t.column,
                    Problem::AmbiguousWalkway(setup.spaces[first].initial, setup.spaces[s].initial),
                ));
            }
            Some(_) => {}
        }
    }
    found.ok_or_else(|| {
        let (line, column) = setup
            .spaces
            .first()
            .map_or((setup.end_line.max(1), 1), |s| (s.line, s.column));
        setup_src.err(line, column, Problem::NoWalkway)
    })
}

/// Reads the layout. `src` names the layout file, `setup_src` the setup file
/// (for errors about a room line, such as a room without a centre).
pub(crate) fn read(
    text: &str,
    src: Source,
    setup: &Setup,
    setup_src: Source,
) -> Result<Layout, BoardError> {
    let rows = grid(text, src)?;
    let mut tokens = Vec::new();
    for (line, fs) in &rows {
        for f in fs {
            let mut chars = f.text.chars();
            let initial = chars.next().unwrap_or(' ');
            let base = lookup(setup, initial)
                .ok_or_else(|| src.err(line.number, f.column, Problem::UnknownInitial(initial)))?;
            let marker = chars.next();
            if let Some(m) = marker.filter(|&m| !MARKERS.contains(&m) && lookup(setup, m).is_none())
            {
                return Err(src.err(
                    line.number,
                    f.column,
                    Problem::UnknownMarker(f.text.to_string(), m),
                ));
            }
            if chars.next().is_some() {
                return Err(src.err(
                    line.number,
                    f.column,
                    Problem::TooManyMarkers(f.text.to_string()),
                ));
            }
            tokens.push(Token {
                text: f.text,
                line: line.number,
                column: f.column,
                base,
                marker,
            });
        }
    }
    let walkway = walkway(&tokens, setup, src, setup_src)?;
    let n_rooms = setup.rooms.len();
    // Per room, the index in `tokens` of its centre and of its label.
    let mut centres: Vec<Option<usize>> = vec![None; n_rooms];
    let mut labels: Vec<Option<usize>> = vec![None; n_rooms];
    let mut cells = Vec::with_capacity(tokens.len());
    for i in 0..tokens.len() {
        cells.push(cell(
            &tokens,
            i,
            setup,
            walkway,
            src,
            &mut centres,
            &mut labels,
        )?);
    }

    let rows_n = rows.len() as u16;
    let cols_n = rows.first().map_or(0, |(_, fs)| fs.len()) as u16;
    // Every door must lead into a room.
    for (i, t) in tokens.iter().enumerate() {
        let Some(direction) = cells[i].door else {
            continue;
        };
        let (r, c) = (
            (i / usize::from(cols_n)) as u16,
            (i % usize::from(cols_n)) as u16,
        );
        let target = step(r, c, direction).filter(|&(r, c)| r < rows_n && c < cols_n);
        let Some((tr, tc)) = target else {
            return Err(src.err(t.line, t.column, Problem::DoorOffBoard(t.text.to_string())));
        };
        let j = usize::from(tr) * usize::from(cols_n) + usize::from(tc);
        if !matches!(cells[j].kind, CellKind::Room(_)) {
            return Err(src.err(
                t.line,
                t.column,
                Problem::DoorIntoNothing(t.text.to_string(), tokens[j].text.to_string()),
            ));
        }
    }

    let place = |i: usize| {
        (
            (i / usize::from(cols_n)) as u16,
            (i % usize::from(cols_n)) as u16,
        )
    };
    let mut centre_cells = Vec::with_capacity(n_rooms);
    let mut label_cells = Vec::with_capacity(n_rooms);
    for (i, room) in setup.rooms.iter().enumerate() {
        for (found, what, out) in [
            (centres[i], "centre (`*`)", &mut centre_cells),
            (labels[i], "label (`#`)", &mut label_cells),
        ] {
            let Some(t) = found else {
                return Err(setup_src.err(
                    room.line,
                    room.column,
                    Problem::MissingMarker(room.name.clone(), what, src.name.to_string()),
                ));
            };
            out.push(place(t));
        }
    }
    Ok(Layout {
        rows: rows_n,
        cols: cols_n,
        cells,
        walkway,
        centres: centre_cells,
        labels: label_cells,
    })
}

/// Decodes one token into a cell, recording room centres and labels.
fn cell(
    tokens: &[Token],
    index: usize,
    setup: &Setup,
    walkway: usize,
    src: Source,
    centres: &mut [Option<usize>],
    labels: &mut [Option<usize>],
) -> Result<Cell, BoardError> {
    let t = &tokens[index];
    let err = |problem| src.err(t.line, t.column, problem);
    let text = || t.text.to_string();
    let kind = match t.base {
        Base::Room(i) => CellKind::Room(i),
        Base::Space(s) if s == walkway => CellKind::Walkway,
        Base::Space(s) => CellKind::Blocked(s),
    };
    let mut cell = Cell {
        kind,
        door: None,
        passage: None,
        centre: false,
        label: false,
    };
    let Some(m) = t.marker else {
        return Ok(cell);
    };
    match (kind, m) {
        (CellKind::Walkway, _) if door_direction(m).is_some() => cell.door = door_direction(m),
        (_, '^' | 'v' | '<' | '>') => return Err(err(Problem::DoorOffWalkway(text()))),
        (CellKind::Room(i), '#' | '*') => {
            let (slot, what, flag) = if m == '#' {
                (&mut labels[i], "label (`#`)", &mut cell.label)
            } else {
                (&mut centres[i], "centre (`*`)", &mut cell.centre)
            };
            if let Some(first) = *slot {
                return Err(err(Problem::DuplicateMarker(
                    setup.rooms[i].name.clone(),
                    what,
                    tokens[first].line,
                    tokens[first].column,
                )));
            }
            *slot = Some(index);
            *flag = true;
        }
        (_, '#' | '*') => return Err(err(Problem::MarkerOffRoom(text()))),
        (kind, _) => match (kind, lookup(setup, m)) {
            (_, None) => return Err(err(Problem::UnknownMarker(text(), m))),
            (CellKind::Room(i), Some(Base::Room(j))) if i == j => {
                return Err(err(Problem::PassageToSelf(text())));
            }
            (CellKind::Room(_), Some(Base::Room(j))) => cell.passage = Some(j),
            (CellKind::Room(_), Some(Base::Space(_))) => {
                return Err(err(Problem::PassageToSpace(text(), m)));
            }
            (_, Some(_)) => return Err(err(Problem::PassageOffRoom(text()))),
        },
    }
    Ok(cell)
}
