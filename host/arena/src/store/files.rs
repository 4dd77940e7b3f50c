//! The files a tournament plays with, kept in the store beside its
//! schedule: each bot's files and board files by SHA-256, and the code of
//! this `clue`'s built-in bots and engine by fingerprint. A worker proves
//! it plays the same tournament ([`Store::check_worker`]), and a resume
//! keeps the bots the stored games were played with
//! ([`Store::played_with_other_files`]).

use std::path::{Path, PathBuf};

use clue_runtime::bots::BotKind;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{Store, StoreError};
use crate::config::Tournament;

/// The hash of one file a tournament plays with, as written at `run`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileHash {
    /// `bot NAME` or `board`.
    pub what: String,
    /// As the tournament file names it (relative to its folder when inside it).
    pub path: String,
    /// SHA-256 in hex; empty when the file could not be read.
    pub sha256: String,
}

/// Read a piece at a time: a built entrant's file is its author's, of any
/// size up to its build's disk cap.
fn sha256(path: &Path) -> String {
    use std::io::Read;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    let Ok(mut file) = std::fs::File::open(path) else {
        return String::new();
    };
    loop {
        match file.read(&mut buffer) {
            Ok(0) => return crate::config::hex(&hasher.finalize()),
            Ok(n) => hasher.update(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return String::new(),
        }
    }
}

/// How a built-in bot's code is named among the files
/// (`builtin:sleuth`).
const BUILTIN: &str = "builtin:";

/// How the game engine's code is named among the files.
const ENGINE: &str = "engine:clue-engine";

/// What the engine's entry is.
const ENGINE_WHAT: &str = "the game engine";

/// The files a tournament plays with: each native or wasm bot's file, each
/// file a process bot's command names (the program or a script it runs),
/// and each board file; and for each built-in bot, the fingerprint of its
/// code in this `clue` (`clue_runtime::bots::builtin_code`), named
/// `builtin:NAME`; and the fingerprint of the game engine's code
/// (`clue_runtime::engine_code`), named `ENGINE`.
pub fn file_hashes(t: &Tournament) -> Vec<FileHash> {
    // Named as the file names them: beside it, else from where `clue` runs
    // (the bots' paths are absolute once read), so that a worker on another
    // machine, its checkout elsewhere, names the same files alike.
    let here = std::env::current_dir().ok();
    let shown = |path: &Path| -> String {
        path.strip_prefix(&t.base_dir)
            .ok()
            .or_else(|| here.as_ref().and_then(|here| path.strip_prefix(here).ok()))
            .unwrap_or(path)
            .display()
            .to_string()
    };
    let mut out = Vec::new();
    for bot in &t.bots {
        let what = format!("bot `{}`", bot.name);
        let paths: Vec<PathBuf> = match bot.spec.kind {
            BotKind::Builtin => {
                // Its code, in place of a file: a `clue` whose built-in bot
                // plays otherwise is told apart.
                if let Some(code) = clue_runtime::bots::builtin_code(&bot.spec.target) {
                    out.push(FileHash {
                        what: what.clone(),
                        path: format!("{BUILTIN}{}", bot.spec.target),
                        sha256: code.to_string(),
                    });
                }
                Vec::new()
            }
            kind if kind.is_file() => vec![PathBuf::from(&bot.spec.target)],
            // The words as the process runtime splits them: a quoted path
            // with a space is one word.
            _ => shell_words::split(&bot.spec.target)
                .unwrap_or_default()
                .into_iter()
                .filter(|word| !word.starts_with('-'))
                .map(|word| t.base_dir.join(word))
                .filter(|path| path.is_file())
                .collect(),
        };
        for path in paths {
            out.push(FileHash {
                what: what.clone(),
                path: shown(&path),
                sha256: sha256(&path),
            });
        }
    }
    for (name, text) in &t.inputs {
        out.push(FileHash {
            what: "board".into(),
            path: name.clone(),
            sha256: crate::config::hash(text),
        });
    }
    // The rules the games are played by: a `clue` whose engine deals,
    // answers or asks otherwise would play the rest of the schedule as
    // another tournament.
    out.push(FileHash {
        what: ENGINE_WHAT.into(),
        path: ENGINE.into(),
        sha256: clue_runtime::engine_code().to_string(),
    });
    out
}

/// Why a store's games were not played with what is here
/// ([`Store::played_with_other_files`]), said whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unlike {
    /// A bot or board file: a build may make it as it was again.
    Files(String),
    /// This `clue`'s built-in bot or engine: no build can.
    Clue(String),
}

/// How the files here differ from those a tournament was started with.
#[derive(Debug)]
enum Difference {
    /// `bot `x`: bot.py`: the file is not here.
    Missing(String),
    /// The file is here but cannot be read.
    Unreadable(String),
    /// `bot `x`: bot.py differs from the file the tournament was started
    /// with (sha256 ... there, ... here)`.
    Changed(String),
    /// A file here that the tournament was not started with, said whole.
    Extra(String),
    /// A built-in bot, or the engine, whose code is not the one the
    /// tournament was started with, said whole.
    Code(String),
}

/// The first stored file that is not here as it was, else the first file
/// here that was not stored; the code of this `clue` (built-in bots, the
/// engine) before any file, since no build can change it. A store written
/// before built-in bots' code, or the engine's, was kept holds none: that
/// code is then not compared.
fn first_difference(stored: &[FileHash], here: &[FileHash]) -> Option<Difference> {
    let builtins_kept = stored.iter().any(|h| h.path.starts_with(BUILTIN));
    let engine_kept = stored.iter().any(|h| h.path == ENGINE);
    let here: Vec<&FileHash> = here
        .iter()
        .filter(|h| builtins_kept || !h.path.starts_with(BUILTIN))
        .filter(|h| engine_kept || h.path != ENGINE)
        .collect();
    let code = |h: &&FileHash| h.path.starts_with(BUILTIN) || h.path == ENGINE;
    let (clue, files): (Vec<&FileHash>, Vec<&FileHash>) = stored.iter().partition(code);
    for want in clue.into_iter().chain(files) {
        let found = here
            .iter()
            .find(|h| h.what == want.what && h.path == want.path);
        let named = format!("{}: {}", want.what, want.path);
        match found {
            None => return Some(Difference::Missing(named)),
            Some(h) if h.sha256.is_empty() => return Some(Difference::Unreadable(named)),
            Some(h) if h.sha256 != want.sha256 && want.path == ENGINE => {
                return Some(Difference::Code(format!(
                    "{}: this clue does not play the game by the code the tournament was \
                     started with (its code's sha256 {} there, {} here)",
                    want.what,
                    short(&want.sha256),
                    short(&h.sha256)
                )));
            }
            Some(h) if h.sha256 != want.sha256 && want.path.starts_with(BUILTIN) => {
                return Some(Difference::Code(format!(
                    "{}: this clue's built-in bot is not the one the tournament was started \
                     with (its code's sha256 {} there, {} here)",
                    want.what,
                    short(&want.sha256),
                    short(&h.sha256)
                )));
            }
            Some(h) if h.sha256 != want.sha256 => {
                return Some(Difference::Changed(format!(
                    "{named} differs from the file the tournament was started with \
                     (sha256 {} there, {} here)",
                    short(&want.sha256),
                    short(&h.sha256)
                )));
            }
            Some(_) => {}
        }
    }
    here.into_iter()
        .find(|h| !stored.contains(*h))
        .map(|extra| {
            Difference::Extra(format!(
                "{}: {} is not among the files the tournament was started with",
                extra.what, extra.path
            ))
        })
}

impl Store {
    /// The hashes of the files the tournament was started with; `None` in
    /// a store of schema version 1, which recorded none.
    fn stored_files(&self) -> Result<Option<Vec<FileHash>>, StoreError> {
        Ok(self
            .db
            .get("files")?
            .map(|f| serde_json::from_str(&f).unwrap_or_default()))
    }

    /// On a store that holds games: why the bot and board files here, or
    /// this `clue`'s built-in bots and engine, are not those the games were
    /// played with (one line), or `None` when they are. A store with no
    /// game stored yet has nothing to keep, and a `resume` or another `run`
    /// may build the bots afresh.
    pub fn played_with_other_files(&self, t: &Tournament) -> Result<Option<Unlike>, StoreError> {
        if self.db.done()?.is_empty() {
            return Ok(None);
        }
        // A store of schema version 1 recorded no files: nothing to compare.
        let Some(stored) = self.stored_files()? else {
            return Ok(None);
        };
        Ok(
            first_difference(&stored, &file_hashes(t)).map(|difference| match difference {
                Difference::Missing(what) => Unlike::Files(format!("{what} is not found")),
                Difference::Unreadable(what) => Unlike::Files(format!("{what} cannot be read")),
                Difference::Changed(what) | Difference::Extra(what) => Unlike::Files(what),
                Difference::Code(what) => Unlike::Clue(what),
            }),
        )
    }

    /// Refuses a worker whose tournament is not the one in the store: the
    /// file's settings (`config::settings_of`: a copy with other comments
    /// or another `concurrency` is the same tournament), then each bot file
    /// and board file by its hash. The message names the first file that
    /// differs.
    pub fn check_worker(&self, t: &Tournament) -> Result<(), StoreError> {
        let meta = self.require_meta()?;
        let refuse = |message: String| StoreError::Worker {
            path: self.name().to_string(),
            message,
        };
        if self.db.get("scheduled")?.is_none() {
            return Err(refuse(
                "the schedule is not written yet: start `clue tournament run FILE --db ...` \
                 first, then the workers"
                    .into(),
            ));
        }
        if crate::config::settings_of(&meta.source) != crate::config::settings_of(&t.source) {
            return Err(refuse(format!(
                "{} is not the tournament file this store was started with ({}, hash {}; here {}): \
                 its settings differ",
                t.file,
                meta.file,
                meta.hash,
                crate::config::hash(&t.source)
            )));
        }
        if let Some(difference) =
            first_difference(&self.stored_files()?.unwrap_or_default(), &file_hashes(t))
        {
            return Err(refuse(match difference {
                Difference::Missing(what) => {
                    format!("{what} is not found here (it was at {})", meta.file)
                }
                Difference::Unreadable(what) => format!("{what} cannot be read here"),
                Difference::Changed(what) => format!("{what}: copy the coordinator's file"),
                Difference::Extra(what) => what,
                Difference::Code(what) => {
                    format!("{what}: build clue from the coordinator's sources")
                }
            }));
        }
        if meta.hash != t.fingerprint_of(&meta.source) {
            return Err(refuse(format!(
                "the tournament's fingerprint differs (stored {}, here {})",
                meta.hash,
                t.fingerprint_of(&meta.source)
            )));
        }
        Ok(())
    }
}

/// The first 12 hex digits of a hash, enough to tell two apart in a message.
fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bot's files are named beside the tournament file when they are
    /// there, else from where `clue` runs (the crate's folder, for tests),
    /// not by the absolute paths the file's bots are given when read: a
    /// worker whose checkout is elsewhere names them alike.
    #[test]
    fn files_are_named_from_the_files_folder_or_where_clue_runs() {
        let dir = tempfile::tempdir().expect("a folder");
        std::fs::write(dir.path().join("bot.py"), "print()").expect("a script");
        std::fs::write(dir.path().join("a bot.py"), "print()").expect("a script");
        std::fs::write(
            dir.path().join("t.yaml"),
            "variant: speedclue\nplayers: 3\nbots:\n\
             \x20 - {name: beside, kind: jsonl, command: python3 bot.py}\n\
             \x20 - {name: here, kind: jsonl, command: python3 Cargo.toml}\n\
             \x20 - {name: spaced, kind: jsonl, command: \"python3 'a bot.py'\"}\n\
             \x20 - {name: n, kind: builtin, path: notebook}\n",
        )
        .expect("the file");
        let t = crate::config::load(&dir.path().join("t.yaml")).expect("a tournament");
        assert!(
            t.bots[..3].iter().all(|b| {
                shell_words::split(&b.spec.target)
                    .is_ok_and(|words| words.get(1).is_some_and(|w| w.starts_with('/')))
            }),
            "paths made absolute: {:?}",
            t.bots
        );
        let named: Vec<(String, String)> = file_hashes(&t)
            .into_iter()
            .map(|h| (h.what, h.path))
            .collect();
        assert_eq!(
            named,
            [
                ("bot `beside`".to_string(), "bot.py".to_string()),
                ("bot `here`".to_string(), "Cargo.toml".to_string()),
                ("bot `spaced`".to_string(), "a bot.py".to_string()),
                ("bot `n`".to_string(), "builtin:notebook".to_string()),
                (
                    "the game engine".to_string(),
                    "engine:clue-engine".to_string()
                ),
            ]
        );
    }

    /// A built-in bot's code is kept among the files, and a `clue` whose
    /// built-in bot is another is told apart; a store that kept no
    /// built-in's code (an earlier `clue`) compares only files.
    #[test]
    fn a_built_in_bots_code_is_compared_when_the_store_kept_it() {
        let dir = tempfile::tempdir().expect("a folder");
        let text = "variant: speedclue\nplayers: 3\nbots:\n\
                    \x20 - {name: s, kind: builtin, path: sleuth}\n\
                    \x20 - {name: n, kind: builtin, path: notebook}\n\
                    \x20 - {name: c, kind: builtin, path: clueless}\n";
        let t = crate::config::parse(text, "t.yaml", dir.path()).expect("a tournament");
        let here = file_hashes(&t);
        let sleuth = clue_runtime::bots::builtin_code("sleuth").expect("sleuth is built in");
        assert_eq!(sleuth.len(), 64, "a SHA-256 in hex: {sleuth}");
        assert_eq!(
            here[0],
            FileHash {
                what: "bot `s`".into(),
                path: "builtin:sleuth".into(),
                sha256: sleuth.into(),
            }
        );
        assert_eq!(here.len(), 4, "{here:?}");
        assert!(first_difference(&here, &here).is_none());
        // Another sleuth where the tournament was started.
        let mut stored = here.clone();
        stored[0].sha256 = "ab".repeat(32);
        match first_difference(&stored, &here) {
            Some(Difference::Code(why)) => assert!(
                why.starts_with("bot `s`: this clue's built-in bot is not the one"),
                "{why}"
            ),
            other => panic!("{other:?}"),
        }
        // A store of an earlier clue kept no built-in's code.
        assert!(first_difference(&[], &here).is_none());
    }

    /// The engine's code is kept among the files of every tournament, and
    /// a `clue` whose engine is another is told apart; a store that kept
    /// none (an earlier `clue`) compares the rest.
    #[test]
    fn the_engines_code_is_compared_when_the_store_kept_it() {
        let dir = tempfile::tempdir().expect("a folder");
        std::fs::write(dir.path().join("bot.py"), "print()\n").expect("the file");
        let text = "variant: classic\nplayers: 3\nbots:\n\
                    \x20 - {name: p, kind: jsonl, command: python3 bot.py}\n\
                    \x20 - {name: c, kind: builtin, path: clueless}\n\
                    \x20 - {name: n, kind: builtin, path: notebook}\n";
        let t = crate::config::parse(text, "t.yaml", dir.path()).expect("a tournament");
        let here = file_hashes(&t);
        let engine = here.last().expect("the engine's entry");
        assert_eq!(
            (
                engine.what.as_str(),
                engine.path.as_str(),
                engine.sha256.as_str()
            ),
            (
                "the game engine",
                "engine:clue-engine",
                clue_runtime::engine_code()
            )
        );
        // Another engine where the tournament was started.
        let mut stored = here.clone();
        stored.last_mut().expect("the engine's entry").sha256 = "cd".repeat(32);
        match first_difference(&stored, &here) {
            Some(Difference::Code(why)) => assert_eq!(
                why,
                format!(
                    "the game engine: this clue does not play the game by the code the \
                     tournament was started with (its code's sha256 cdcdcdcdcdcd there, {} \
                     here)",
                    short(clue_runtime::engine_code())
                )
            ),
            other => panic!("{other:?}"),
        }
        // With a bot file changed too, the engine is named first: no build
        // can make it as it was.
        stored[0].sha256 = "ef".repeat(32);
        assert!(
            matches!(first_difference(&stored, &here), Some(Difference::Code(_))),
            "{stored:?}"
        );
        // A store of an earlier clue kept no engine's code: the rest is
        // still compared.
        let earlier = &here[..here.len() - 1];
        assert!(first_difference(earlier, &here).is_none());
        let mut changed = earlier.to_vec();
        changed[0].sha256 = "ef".repeat(32);
        assert!(
            matches!(
                first_difference(&changed, &here),
                Some(Difference::Changed(_))
            ),
            "{changed:?}"
        );
    }

    #[test]
    fn a_file_is_hashed_a_piece_at_a_time_as_whole() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("bot");
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &bytes).expect("the file");
        assert_eq!(sha256(&path), crate::config::hex(&Sha256::digest(&bytes)));
        std::fs::write(&path, "abc").expect("the file");
        assert_eq!(
            sha256(&path),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(sha256(&dir.path().join("missing")), "");
    }
}
