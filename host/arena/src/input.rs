//! Reading a text file a user names: a tournament file, a board's layout or
//! setup, a variant file, a UniClue configuration.

use std::io::{self, Read};
use std::path::Path;

/// The largest text file read as input: far above any real one (the
/// largest board files are a few KiB), so that a mistaken path (`/dev/zero`,
/// a database, a video) ends at once with an error instead of filling the
/// memory. A pipe (`/dev/stdin`) is read like a file, up to the same size.
pub const MAX_TEXT: u64 = 16 << 20;

/// The text of `path`, refused past [`MAX_TEXT`] bytes or when it is not
/// UTF-8 (the error says which).
pub fn read_text(path: &Path) -> io::Result<String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_TEXT + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_TEXT {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "larger than {} MiB, so not a text file for clue",
                MAX_TEXT >> 20
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_file_is_read_and_an_endless_or_binary_one_refused() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("t.yaml");
        std::fs::write(&good, "variant: classic\n").unwrap();
        assert_eq!(read_text(&good).unwrap(), "variant: classic\n");
        let endless = read_text(Path::new("/dev/zero")).unwrap_err();
        assert!(
            endless.to_string().contains("larger than 16 MiB"),
            "{endless}"
        );
        let binary = dir.path().join("b.bin");
        std::fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
        let binary = read_text(&binary).unwrap_err();
        assert!(binary.to_string().contains("valid UTF-8"), "{binary}");
        assert!(read_text(dir.path()).is_err(), "a folder");
        assert!(
            read_text(&dir.path().join("none")).is_err(),
            "nothing there"
        );
    }
}
