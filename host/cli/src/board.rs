//! `clue board show|targets|adjacency`: a CSCI306-format board in the terminal.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use clue_board::{Node, RoomBoard};

#[derive(Subcommand)]
pub enum BoardCommand {
    /// Draw the board: rooms, doors, passages, labels (colour on a terminal)
    Show {
        #[command(flatten)]
        files: BoardFiles,
        /// Never colour the drawing
        #[arg(long)]
        no_color: bool,
    },
    /// Print the targets of a roll, one `R,C` per line, sorted (a room as its centre)
    Targets {
        #[command(flatten)]
        files: BoardFiles,
        /// The start cell, zero-based `ROW,COL` (any cell of a room means that room)
        #[arg(long, value_name = "R,C", value_parser = parse_cell)]
        from: (u16, u16),
        /// The die roll
        #[arg(long)]
        roll: u8,
        /// A cell another token stands on (repeatable)
        #[arg(long, value_name = "R,C", value_parser = parse_cell)]
        occupied: Vec<(u16, u16)>,
        /// Draw the board with the targets highlighted as well
        #[arg(long)]
        show: bool,
    },
    /// Print the cells one step away, one `R,C` per line, sorted (a room as its centre)
    Adjacency {
        #[command(flatten)]
        files: BoardFiles,
        /// The cell, zero-based `ROW,COL`
        #[arg(long, value_name = "R,C", value_parser = parse_cell)]
        from: (u16, u16),
    },
}

#[derive(Args)]
pub struct BoardFiles {
    /// The layout CSV
    #[arg(long, value_name = "FILE")]
    layout: PathBuf,
    /// The setup TXT
    #[arg(long, value_name = "FILE")]
    setup: PathBuf,
}

fn parse_cell(text: &str) -> Result<(u16, u16), String> {
    let (r, c) = text
        .split_once(',')
        .ok_or_else(|| format!("`{text}` is not ROW,COL"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<u16>()
            .map_err(|_| format!("`{text}` is not ROW,COL with zero-based numbers"))
    };
    Ok((number(r)?, number(c)?))
}

fn load(files: &BoardFiles) -> anyhow::Result<RoomBoard> {
    let read = |p: &Path| {
        clue_arena::input::read_text(p).with_context(|| format!("reading {}", p.display()))
    };
    let layout = read(&files.layout)?;
    let setup = read(&files.setup)?;
    Ok(clue_board::parse(
        &layout,
        &files.layout.display().to_string(),
        &setup,
        &files.setup.display().to_string(),
    )?)
}

fn node(board: &RoomBoard, (row, col): (u16, u16)) -> anyhow::Result<Node> {
    match board.node_at(row, col) {
        Some(node) => Ok(node),
        None if row >= board.rows() || col >= board.cols() => bail!(
            "{row},{col} is off the board ({} rows, {} columns)",
            board.rows(),
            board.cols()
        ),
        None => bail!("{row},{col} is not a walkway or room cell"),
    }
}

/// The cells of nodes, sorted, as `R,C` lines.
fn cells(board: &RoomBoard, nodes: &[Node]) -> String {
    let mut cells: Vec<(u16, u16)> = nodes.iter().filter_map(|&n| board.cell_of(n)).collect();
    cells.sort();
    cells.dedup();
    cells.iter().map(|(r, c)| format!("{r},{c}\n")).collect()
}

pub fn run(command: BoardCommand) -> anyhow::Result<ExitCode> {
    let color = std::io::stdout().is_terminal();
    match command {
        BoardCommand::Show { files, no_color } => {
            let board = load(&files)?;
            print!("{}", board.render(color && !no_color, &[], &[]));
        }
        BoardCommand::Targets {
            files,
            from,
            roll,
            occupied,
            show,
        } => {
            let board = load(&files)?;
            let start = node(&board, from)?;
            let occupied = occupied
                .into_iter()
                .map(|cell| node(&board, cell))
                .collect::<anyhow::Result<Vec<Node>>>()?;
            let targets = board.targets(start, roll, &occupied);
            print!("{}", cells(&board, &targets));
            if show {
                eprint!("{}", board.render(color, &targets, &[(start, '@')]));
            }
        }
        BoardCommand::Adjacency { files, from } => {
            let board = load(&files)?;
            let start = node(&board, from)?;
            print!("{}", cells(&board, &board.adjacency(start)));
        }
    }
    Ok(ExitCode::SUCCESS)
}
