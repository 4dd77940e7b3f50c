//! The parser never panics: the reference board and a community board with
//! player lines, mutated at random (characters replaced, inserted and
//! deleted, lines dropped and duplicated, fields swapped), give `Ok` or `Err`,
//! and whatever loads is consistent.

use crate::common;

use clue_board::{CellKind, Node, parse};
use common::shared;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, char),
    Insert(usize, char),
    Delete(usize),
    DropLine(usize),
    DuplicateLine(usize),
    SwapFields(usize, usize, usize),
}

fn interesting_char() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::sample::select(vec![
            ',', '\n', '\r', ' ', '^', 'v', '<', '>', '#', '*', '%', '-', '/', 'W', 'X', 'K', 'S',
            'Y', 'x', '0', '9', '\u{a0}', '\u{feff}', 'é', '\t',
        ]),
        any::<char>(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), interesting_char()).prop_map(|(i, c)| Edit::Replace(i, c)),
        (any::<usize>(), interesting_char()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::DropLine),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), any::<usize>(), any::<usize>())
            .prop_map(|(l, a, b)| Edit::SwapFields(l, a, b)),
    ]
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let pick = |i: usize, n: usize| if n == 0 { 0 } else { i % n };
    match *edit {
        Edit::Replace(i, c) if !chars.is_empty() => {
            let i = pick(i, chars.len());
            chars[i] = c;
        }
        Edit::Insert(i, c) => {
            let i = pick(i, chars.len() + 1);
            chars.insert(i, c);
        }
        Edit::Delete(i) if !chars.is_empty() => {
            chars.remove(pick(i, chars.len()));
        }
        Edit::DropLine(l) => {
            lines.remove(pick(l, lines.len()));
            return lines.join("\n");
        }
        Edit::DuplicateLine(l) => {
            let l = pick(l, lines.len());
            lines.insert(l, lines[l].clone());
            return lines.join("\n");
        }
        Edit::SwapFields(l, a, b) => {
            let l = pick(l, lines.len());
            let mut fields: Vec<&str> = lines[l].split(',').collect();
            let (a, b) = (pick(a, fields.len()), pick(b, fields.len()));
            fields.swap(a, b);
            lines[l] = fields.join(",");
            return lines.join("\n");
        }
        _ => {}
    }
    chars.into_iter().collect()
}

fn files() -> [(String, String); 2] {
    let read = |dir: &str, layout: &str, setup: &str| {
        let dir = shared().join(dir);
        (
            common::read(&dir.join(layout)),
            common::read(&dir.join(setup)),
        )
    };
    [
        read("csci306", "ClueLayout306.csv", "ClueSetup306.txt"),
        read(
            "community/keenanschott-Clue",
            "ClueLayout.csv",
            "ClueSetup.txt",
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn mutated_files_never_panic(
        which in 0usize..2,
        layout_edits in proptest::collection::vec(edit(), 0..4),
        setup_edits in proptest::collection::vec(edit(), 0..4),
    ) {
        let [a, b] = files();
        let (layout, setup) = if which == 0 { a } else { b };
        let layout = layout_edits.iter().fold(layout, |t, e| apply(&t, e));
        let setup = setup_edits.iter().fold(setup, |t, e| apply(&t, e));
        match parse(&layout, "L.csv", &setup, "S.txt") {
            Err(e) => {
                prop_assert!(e.file == "L.csv" || e.file == "S.txt");
                prop_assert!(e.line >= 1 && e.column >= 1);
                let message = e.to_string();
                prop_assert!(!message.ends_with('.'));
            }
            Ok(board) => {
                let cells = usize::from(board.rows()) * usize::from(board.cols());
                prop_assert_eq!(board.cells().len(), cells);
                for (i, room) in board.rooms().iter().enumerate() {
                    let centre = board.cell(room.centre.0, room.centre.1).map(|c| c.kind);
                    prop_assert_eq!(centre, Some(CellKind::Room(i)));
                    let _ = board.targets(Node::Room(i), 3, &[]);
                }
                for (r, c) in board.persons().iter().filter_map(|p| p.start) {
                    prop_assert!(r < board.rows() && c < board.cols());
                }
                prop_assert_eq!(board.start_nodes().len(), board.persons().len());
                let _ = board.render(true, &[Node::Room(0)], &[(Node::Room(0), 'A')]);
            }
        }
    }
}
