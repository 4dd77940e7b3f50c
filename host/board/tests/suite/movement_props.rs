//! Movement invariants on every board that loads: targets match an
//! independent search over the public adjacency, each with a witness path
//! that obeys the rules; adjacency is symmetric.

use crate::common;

use clue_board::{Node, RoomBoard};
use common::{board, project, shared};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

/// A board with its adjacency, asked once per node through the public API.
struct Case {
    board: RoomBoard,
    adj: HashMap<Node, Vec<Node>>,
}

/// Every board that loads: the reference, the community boards, amfunk and
/// the project's own.
fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        boards()
            .into_iter()
            .map(|board| {
                let adj = nodes(&board)
                    .into_iter()
                    .map(|n| (n, board.adjacency(n)))
                    .collect();
                Case { board, adj }
            })
            .collect()
    })
}

fn boards() -> Vec<RoomBoard> {
    let mut out = vec![common::reference()];
    let community = shared().join("community");
    let mut dirs: Vec<_> = std::fs::read_dir(&community)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.push(shared().join("nonconforming/amfunk-ClueGame"));
    dirs.push(project().join("classic"));
    dirs.push(project().join("csci306"));
    for dir in dirs {
        out.push(board(&dir, "ClueLayout.csv", "ClueSetup.txt"));
    }
    out
}

/// Every node of a board: walkway cells, then rooms.
fn nodes(board: &RoomBoard) -> Vec<Node> {
    let mut out: Vec<Node> = (0..board.rows())
        .flat_map(|r| (0..board.cols()).map(move |c| (r, c)))
        .filter_map(|(r, c)| board.node_at(r, c))
        .filter(|n| matches!(n, Node::Cell { .. }))
        .collect();
    out.extend((0..board.rooms().len()).map(Node::Room));
    out
}

/// Targets found by walking `adjacency` by the rules, each with a path.
fn witnesses(case: &Case, from: Node, roll: u8, occupied: &[Node]) -> BTreeMap<Node, Vec<Node>> {
    fn walk(
        case: &Case,
        path: &mut Vec<Node>,
        left: u8,
        occupied: &[Node],
        out: &mut BTreeMap<Node, Vec<Node>>,
    ) {
        let at = *path.last().unwrap();
        for &next in &case.adj[&at] {
            let blocked = matches!(next, Node::Cell { .. }) && occupied.contains(&next);
            if path.contains(&next) || blocked {
                continue;
            }
            path.push(next);
            if matches!(next, Node::Room(_)) || left == 1 {
                out.entry(next).or_insert_with(|| path.clone());
            } else {
                walk(case, path, left - 1, occupied, out);
            }
            path.pop();
        }
    }
    let mut out = BTreeMap::new();
    if roll > 0 {
        walk(case, &mut vec![from], roll, occupied, &mut out);
    }
    out
}

fn check_path(case: &Case, path: &[Node], roll: u8, occupied: &[Node]) {
    let steps = path.len() - 1;
    let end = *path.last().unwrap();
    match end {
        Node::Room(_) => assert!(steps <= usize::from(roll), "{path:?}"),
        Node::Cell { .. } => assert_eq!(steps, usize::from(roll), "{path:?}"),
    }
    for (i, n) in path.iter().enumerate() {
        assert!(!path[..i].contains(n), "revisits {n:?}: {path:?}");
        if i > 0 {
            assert!(case.adj[&path[i - 1]].contains(n), "not a step: {path:?}");
            assert!(
                !occupied.contains(n) || matches!(n, Node::Room(_)),
                "{path:?}"
            );
        }
        if i > 0 && i < steps {
            assert!(matches!(n, Node::Cell { .. }), "crosses a room: {path:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn targets_follow_the_rules(
        which in 0usize..64,
        start in 0usize..4096,
        roll in 1u8..=6,
        blockers in proptest::collection::vec(0usize..4096, 0..6),
    ) {
        let all = cases();
        let case = &all[which % all.len()];
        let board = &case.board;
        let nodes = nodes(board);
        let from = nodes[start % nodes.len()];
        let occupied: Vec<Node> = blockers.iter().map(|&i| nodes[i % nodes.len()]).collect();

        let targets = board.targets(from, roll, &occupied);
        let found = witnesses(case, from, roll, &occupied);
        let expected: Vec<Node> = found.keys().copied().collect();
        prop_assert_eq!(&targets, &expected);
        let mut sorted = targets.clone();
        sorted.sort();
        sorted.dedup();
        prop_assert_eq!(&sorted, &targets);

        for (target, path) in &found {
            check_path(case, path, roll, &occupied);
            prop_assert_ne!(*target, from);
            if matches!(target, Node::Cell { .. }) {
                prop_assert!(!occupied.contains(target));
            }
        }
    }
}

#[test]
fn adjacency_is_symmetric() {
    for Case { board, adj } in cases() {
        for n in nodes(board) {
            let mut sorted = adj[&n].clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(adj[&n], sorted, "{n:?}");
            for m in &adj[&n] {
                assert!(adj[m].contains(&n), "{n:?} -> {m:?} one-way");
                assert_ne!(*m, n);
            }
        }
    }
}

#[test]
fn doors_and_passages_are_links() {
    for Case { board, .. } in cases() {
        for (i, _) in board.rooms().iter().enumerate() {
            let adj = board.adjacency(Node::Room(i));
            for (row, col) in board.doors_of(i) {
                assert!(adj.contains(&Node::Cell { row, col }));
            }
        }
        for (_, _, from, to) in board.passages() {
            assert!(board.adjacency(Node::Room(from)).contains(&Node::Room(to)));
            assert!(board.adjacency(Node::Room(to)).contains(&Node::Room(from)));
            // A passage is one step, whatever the roll.
            for roll in 1..=6 {
                assert!(
                    board
                        .targets(Node::Room(from), roll, &[])
                        .contains(&Node::Room(to))
                );
            }
        }
    }
}

#[test]
fn the_start_room_is_never_a_target() {
    for Case { board, .. } in cases() {
        for i in 0..board.rooms().len() {
            for roll in 1..=6 {
                assert!(
                    !board
                        .targets(Node::Room(i), roll, &[])
                        .contains(&Node::Room(i))
                );
            }
        }
    }
}
