//! What the tournament-file tests share: the check of a refused file.

use std::path::Path;

use clue_arena::config::{self, Pos};

/// Parses `text` and expects exactly this error at this line and column.
pub fn check(text: &str, line: u64, column: u64, message: &str) {
    let err = config::parse(text, "t.yaml", Path::new("/nonexistent-dir"))
        .expect_err("the file should be rejected");
    assert_eq!(
        (err.pos, err.message.as_str()),
        (Pos { line, column }, message),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        format!("t.yaml:{line}:{column}: {message}")
    );
}
