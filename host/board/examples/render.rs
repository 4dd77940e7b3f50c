//! Draws a board in the terminal, with its persons (1, 2, ...) on their
//! start cells.
//!
//! ```text
//! cargo run -p clue-board --example render -- boards/classic [--color]
//! cargo run -p clue-board --example render -- Layout.csv Setup.txt [--color]
//! ```

use clue_board::{Node, parse};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let color = args.iter().any(|a| a == "--color");
    let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let (layout, setup): (PathBuf, PathBuf) = match paths[..] {
        [dir] => (
            Path::new(dir).join("ClueLayout.csv"),
            Path::new(dir).join("ClueSetup.txt"),
        ),
        [layout, setup] => (layout.into(), setup.into()),
        _ => {
            eprintln!("usage: render <dir> | <layout.csv> <setup.txt> [--color]");
            return ExitCode::FAILURE;
        }
    };
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let name = |p: &Path| {
        p.file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned())
    };
    let board = read(&layout).and_then(|l| {
        let s = read(&setup)?;
        parse(&l, &name(&layout), &s, &name(&setup)).map_err(|e| e.to_string())
    });
    match board {
        Ok(board) => {
            let tokens: Vec<(Node, char)> = board
                .start_nodes()
                .into_iter()
                .enumerate()
                .map(|(seat, node)| (node, char::from_digit(seat as u32 + 1, 36).unwrap_or('?')))
                .collect();
            print!("{}", board.render(color, &[], &tokens));
            for (p, (node, letter)) in board.persons().iter().zip(&tokens) {
                let at = board.cell_of(*node).unwrap_or_default();
                println!("    {letter} {} at {at:?}", p.name);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
