//! Which tournament a store holds: [`Store::bind`] records the tournament
//! file's text and fingerprint in a new store and refuses another file on an
//! existing one, at its first line that differs.

use super::{STORE_FORMAT, Store, StoreError};
use crate::config::Tournament;

impl Store {
    /// Binds the store to `t`: records it in a new store, or checks that an
    /// existing store holds the same file.
    pub fn bind(&mut self, t: &Tournament) -> Result<(), StoreError> {
        let given = t.fingerprint();
        if let Some(meta) = self.meta()? {
            if is_older_fingerprint(&meta.hash) {
                return Err(StoreError::OlderFingerprint {
                    path: self.db.name().to_string(),
                    stored: meta.hash,
                });
            }
            if meta.hash != given || meta.source != t.source {
                return Err(StoreError::Different {
                    path: self.db.name().to_string(),
                    what: first_different_line(&meta.source, &t.source).unwrap_or_else(|| {
                        "the file's text is the same, a board file it names is not".into()
                    }),
                    stored: meta.hash,
                    given,
                });
            }
            return Ok(());
        }
        let bots: Vec<&str> = t.bots.iter().map(|b| b.name.as_str()).collect();
        let settings: Vec<&str> = t.settings.iter().map(|s| s.label.as_str()).collect();
        let rows = [
            ("format", STORE_FORMAT.to_string()),
            ("file", t.source.clone()),
            ("path", t.file.clone()),
            ("hash", given),
            ("base_dir", t.base_dir.display().to_string()),
            ("bots", serde_json::to_string(&bots).unwrap_or_default()),
            (
                "settings",
                serde_json::to_string(&settings).unwrap_or_default(),
            ),
        ];
        self.db.put_meta(&rows)
    }
}

/// Where a tournament file's text `here` first differs from the text a
/// store was started with, said for the organizer: `line 3 is `seed: 5`
/// here, `seed: 1` there`.
fn first_different_line(there: &str, here: &str) -> Option<String> {
    let (mut a, mut b) = (there.lines(), here.lines());
    for number in 1.. {
        match (a.next(), b.next()) {
            (None, None) => return None,
            (Some(x), Some(y)) if x == y => {}
            (x, y) => {
                let shown = |line: Option<&str>| match line {
                    Some(line) => format!("`{}`", clue_runtime::process::clip(line)),
                    None => "past the end".to_string(),
                };
                // The one field a resume is often edited for, though the
                // results do not depend on it: its flag changes it instead.
                let concurrency = |line: Option<&str>| {
                    line.is_some_and(|l| l.trim_start().starts_with("concurrency:"))
                };
                let hint = if concurrency(x) || concurrency(y) {
                    " (the games played at once: keep the file as it was and give \
                     `--concurrency N` to `run` or `resume`)"
                } else {
                    ""
                };
                return Some(format!(
                    "line {number} is {} here, {} there{hint}",
                    shown(y),
                    shown(x)
                ));
            }
        }
    }
    None
}

/// Whether a stored fingerprint is of the form clue made before it used
/// SHA-256 (sixteen hex digits of FNV-1a): such a store's board files cannot
/// be checked.
fn is_older_fingerprint(stored: &str) -> bool {
    stored.len() == 16 && stored.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small tournament file: one game of `generalized` between two bots.
    const TWO_BOTS: &str = "variant: generalized\nplayers: 2\nseed: 1\n\
                            schedule: {kind: random, games: 1}\nbots:\n\
                            \x20 - {name: a, kind: builtin, path: notebook}\n\
                            \x20 - {name: b, kind: builtin, path: clueless}\n";

    /// Another tournament file on a store is refused at its first line that
    /// differs, both versions shown.
    #[test]
    fn another_file_is_refused_at_its_first_different_line() {
        let dir = tempfile::tempdir().unwrap();
        let text = TWO_BOTS;
        let parse = |text: &str| crate::config::parse(text, "t.yaml", dir.path()).unwrap();
        let mut store = Store::open(&dir.path().join("t.sqlite")).unwrap();
        store.bind(&parse(text)).unwrap();
        let error = store
            .bind(&parse(&text.replace("seed: 1", "seed: 5")))
            .unwrap_err();
        assert!(matches!(error, StoreError::Different { .. }), "{error:?}");
        assert!(
            error
                .to_string()
                .contains("line 3 is `seed: 5` here, `seed: 1` there"),
            "{error}"
        );
        // An edited `concurrency:` is named with the flag that sets it.
        let error = store
            .bind(&parse(
                &text.replace("seed: 1\n", "seed: 1\nconcurrency: 3\n"),
            ))
            .unwrap_err();
        assert!(
            error.to_string().contains(
                "line 4 is `concurrency: 3` here, `schedule: {kind: random, games: 1}` there \
                 (the games played at once: keep the file as it was and give `--concurrency N` \
                 to `run` or `resume`)"
            ),
            "{error}"
        );
        let longer = format!("{text}  - {{name: c, kind: builtin, path: sleuth}}\n");
        let error = store.bind(&parse(&longer)).unwrap_err();
        assert!(
            error.to_string().contains(
                "line 8 is `  - {name: c, kind: builtin, path: sleuth}` here, past the end there"
            ),
            "{error}"
        );
    }

    #[test]
    fn a_store_started_by_an_older_clue_is_named_as_such() {
        let dir = tempfile::tempdir().unwrap();
        let text = TWO_BOTS;
        let t = crate::config::parse(text, "t.yaml", dir.path()).unwrap();
        let mut store = Store::open(&dir.path().join("t.sqlite")).unwrap();
        store.bind(&t).unwrap();
        let stored = store.require_meta().unwrap().hash;
        assert_eq!(stored, t.fingerprint());
        assert_eq!(stored.len(), 64, "a SHA-256 in hex: {stored}");
        store.bind(&t).expect("the same file binds again");
        // What an older clue wrote: sixteen hex digits of FNV-1a.
        store
            .db
            .put_meta(&[("hash", "84a5bd1fc2a4e7c0".into())])
            .unwrap();
        let error = store.bind(&t).unwrap_err();
        assert!(
            matches!(error, StoreError::OlderFingerprint { .. }),
            "{error:?}"
        );
        assert!(
            error.to_string().contains("started by an older clue")
                && error.to_string().contains("84a5bd1fc2a4e7c0"),
            "{error}"
        );
    }
}
