//! Which tournament a store holds: [`Store::bind`] records the tournament
//! file's text and fingerprint in a new store and refuses another file on an
//! existing one, at its first line that differs. Another file is one whose
//! settings differ ([`settings_of`]: comments, layout, `concurrency` and
//! `store` aside) or whose board files have changed.

use super::{STORE_FORMAT, Store, StoreError};
use crate::config::{Tournament, settings_of};

impl Store {
    /// Binds the store to `t`: records it in a new store, or checks that an
    /// existing store holds the same tournament (the stored text is kept).
    pub fn bind(&mut self, t: &Tournament) -> Result<(), StoreError> {
        let given = t.fingerprint();
        if let Some(meta) = self.meta()? {
            if is_older_fingerprint(&meta.hash) {
                return Err(StoreError::OlderFingerprint {
                    path: self.db.name().to_string(),
                    stored: meta.hash,
                });
            }
            let same_settings = settings_of(&meta.source) == settings_of(&t.source);
            if !same_settings || meta.hash != t.fingerprint_of(&meta.source) {
                return Err(StoreError::Different {
                    path: self.db.name().to_string(),
                    what: if same_settings {
                        "the file's settings are the same, a board file it names is not".into()
                    } else {
                        first_different_line(&meta.source, &t.source)
                    },
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
/// here, `seed: 1` there`. Lines with only a comment, blank ones and the
/// top-level `concurrency:` and `store:` are passed over, and a comment at a
/// line's end does not count; the line number is `here`'s.
fn first_different_line(there: &str, here: &str) -> String {
    // (line number, the line, the line without a comment at its end). A
    // `#` after a space starts a comment in YAML outside quotes; one inside
    // a quoted value is cut too, in both texts alike, which can only make
    // two lines look the same (the message below then says so).
    let counted = |text: &str| -> Vec<(usize, String, String)> {
        text.lines()
            .enumerate()
            .filter(|(_, line)| {
                let settings = !["concurrency:", "store:"]
                    .iter()
                    .any(|k| line.starts_with(k));
                let line = line.trim();
                settings && !line.is_empty() && !line.starts_with('#')
            })
            .map(|(i, line)| {
                let bare = line.find(" #").map_or(line, |at| &line[..at]);
                (
                    i + 1,
                    line.trim_end().to_string(),
                    bare.trim_end().to_string(),
                )
            })
            .collect()
    };
    let (a, b) = (counted(there), counted(here));
    let shown = |line: Option<&(usize, String, String)>| match line {
        Some((_, line, _)) => format!("`{}`", clue_runtime::process::clip(line)),
        None => "past the end".to_string(),
    };
    for i in 0.. {
        let (x, y) = (a.get(i), b.get(i));
        match (x, y) {
            (None, None) => break,
            (Some((_, _, x)), Some((_, _, y))) if x == y => {}
            _ => {
                let number = match y {
                    Some((number, _, _)) => *number,
                    None => here.lines().count() + 1,
                };
                return format!("line {number} is {} here, {} there", shown(y), shown(x));
            }
        }
    }
    // The same lines, read otherwise: a comment at a line's end, quoting.
    "its settings differ from the stored file's, though no line does but for its comments".into()
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
        // A changed setting is found past comments and blank lines, and a
        // comment at its line's end.
        store
            .bind(&parse(&text.replace(
                "seed: 1\n",
                "# the seed\n\nseed: 1  # one\nconcurrency: 3\n",
            )))
            .expect("a comment or `concurrency` is no other tournament");
        let error = store
            .bind(&parse(&text.replace(
                "seed: 1\n",
                "# the seed\n\nseed: 1  # one\nconcurrency: 3\nsandbox: off\n",
            )))
            .unwrap_err();
        assert!(
            error.to_string().contains(
                "line 7 is `sandbox: off` here, `schedule: {kind: random, games: 1}` there"
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

    /// A file edited only in what does not decide its games (comments,
    /// blank lines, layout, the order of its fields, `concurrency`,
    /// `store`) binds to the store it started; the store keeps the text it
    /// was started with.
    #[test]
    fn a_file_edited_only_in_comments_or_concurrency_is_the_same_tournament() {
        let dir = tempfile::tempdir().unwrap();
        let parse = |text: &str| crate::config::parse(text, "t.yaml", dir.path()).unwrap();
        let mut store = Store::open(&dir.path().join("t.sqlite")).unwrap();
        store.bind(&parse(TWO_BOTS)).unwrap();
        let edited = format!(
            "# two bots, one game\nconcurrency: 7\nstore: elsewhere.sqlite\n\n{}",
            TWO_BOTS
                .replace("seed: 1\n", "seed: 1   # the seed of everything\n")
                .replace("players: 2\n", "")
                .replace(
                    "variant: generalized\n",
                    "variant: \"generalized\"\nplayers: 2\n"
                )
                .replace("{kind: random, games: 1}", "\n  kind: random\n  games: 1")
        );
        let t = parse(&edited);
        assert_eq!(t.concurrency, 7, "the edited file is read as edited");
        store
            .bind(&t)
            .expect("the same tournament, edited only in form");
        assert_eq!(store.require_meta().unwrap().source, TWO_BOTS);
        // Its settings changed in anything else, it is another tournament.
        for (from, to) in [
            ("seed: 1", "seed: 2"),
            ("games: 1", "games: 2"),
            ("path: clueless", "path: sleuth"),
            ("name: b", "name: c"),
        ] {
            let changed = edited.replace(from, to);
            assert_ne!(changed, edited, "{from}");
            let error = store.bind(&parse(&changed)).unwrap_err();
            assert!(
                matches!(error, StoreError::Different { .. }),
                "{from} -> {to}: {error:?}"
            );
        }
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
