//! The board files a tournament setting names (`layout` + `setup` for the
//! board variants, `table` for `framework`), read relative to the tournament
//! file and checked when the file is loaded, so a broken board stops the
//! tournament before its first game, with the board file's line and column.

use std::path::Path;

use clue_engine::config::BoardText;
use clue_plugin_api::Variant;
use serde_saphyr::Spanned;

use crate::span::Pos;

/// The board of one setting, as read from disk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingBoards {
    pub board: Option<BoardText>,
    pub table: Option<String>,
    /// Every file read, by the name the tournament file gives it, with its
    /// text: part of the tournament's fingerprint, so a resume notices an
    /// edited board.
    pub inputs: Vec<(String, String)>,
}

/// A board key of a tournament setting: where it is written, and the path.
pub type BoardKey<'a> = Option<&'a Spanned<String>>;

/// Reads the board files of one setting. Errors are `(where in the
/// tournament file, message)`.
pub fn read(
    variant: Variant,
    layout: BoardKey,
    setup: BoardKey,
    table: BoardKey,
    base_dir: &Path,
) -> Result<SettingBoards, (Pos, String)> {
    let mut boards = SettingBoards::default();
    let mut read_file =
        |key: &Spanned<String>, what: &str| -> Result<(String, String), (Pos, String)> {
            let path = base_dir.join(&key.value);
            let text = crate::input::read_text(&path).map_err(|e| {
                (
                    Pos::from(key),
                    format!("cannot read the board {what} `{}`: {e}", path.display()),
                )
            })?;
            boards.inputs.push((key.value.clone(), text.clone()));
            Ok((path.display().to_string(), text))
        };
    let has_rooms = matches!(variant, Variant::Classic | Variant::Csci306);
    match (layout, setup) {
        (None, None) => {}
        (Some(key), None) | (None, Some(key)) if !has_rooms => {
            return Err((
                Pos::from(key),
                format!(
                    "{variant} has no board with rooms and doors: `layout`/`setup` apply to classic and csci306"
                ),
            ));
        }
        (Some(key), None) => {
            return Err((Pos::from(key), "`layout` needs `setup` beside it".into()));
        }
        (None, Some(key)) => {
            return Err((Pos::from(key), "`setup` needs `layout` beside it".into()));
        }
        (Some(layout), Some(setup)) => {
            if !has_rooms {
                return Err((
                    Pos::from(layout),
                    format!(
                        "{variant} has no board with rooms and doors: `layout`/`setup` apply to classic and csci306"
                    ),
                ));
            }
            let (layout_name, layout) = read_file(layout, "layout")?;
            let (setup_name, setup) = read_file(setup, "setup")?;
            boards.board = Some(BoardText {
                layout_name,
                layout,
                setup_name,
                setup,
            });
        }
    }
    if let Some(key) = table {
        if variant != Variant::Framework {
            return Err((
                Pos::from(key),
                format!("`table` is a framework board; {variant} does not take one"),
            ));
        }
        let (name, text) = read_file(key, "table")?;
        clue_engine::config::check_table(&name, &text)
            .map_err(|e| (Pos::from(key), e.to_string()))?;
        boards.table = Some(text);
    }
    Ok(boards)
}
