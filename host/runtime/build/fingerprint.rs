//! The fingerprint of a bundled player crate's code, for `build.rs`
//! (included there and by this crate's unit tests): a SHA-256 of the
//! sources of the crate and of every crate of this workspace it uses, and
//! of the exact version and checksum of every other crate it uses, through
//! its normal dependencies (any target's, not its dev-dependencies), as
//! `Cargo.lock` pins them.
//!
//! The manifests and the lock file are read with the `toml` crate, which
//! parses every way TOML can write a dependency.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

#[derive(Deserialize)]
struct Lock {
    package: Vec<Locked>,
}

/// One `[[package]]` of `Cargo.lock`.
#[derive(Deserialize)]
struct Locked {
    name: String,
    version: String,
    source: Option<String>,
    checksum: Option<String>,
    /// `name`, `name version` or `name version (source)`.
    #[serde(default)]
    dependencies: Vec<String>,
}

#[derive(Deserialize)]
struct Manifest {
    package: Option<Package>,
    workspace: Option<Workspace>,
    #[serde(default)]
    dependencies: BTreeMap<String, toml::Value>,
    #[serde(default)]
    target: BTreeMap<String, Target>,
}

#[derive(Deserialize)]
struct Package {
    name: String,
}

#[derive(Deserialize)]
struct Workspace {
    #[serde(default)]
    members: Vec<String>,
    #[serde(default)]
    dependencies: BTreeMap<String, toml::Value>,
}

#[derive(Deserialize)]
struct Target {
    #[serde(default)]
    dependencies: BTreeMap<String, toml::Value>,
}

/// What the fingerprints are computed from: a workspace and its lock file.
pub struct Sources {
    root: PathBuf,
    lock: Vec<Locked>,
    /// The workspace's `[workspace.dependencies]`.
    inherited: BTreeMap<String, toml::Value>,
    /// Each workspace member's package name and folder.
    members: BTreeMap<String, PathBuf>,
}

/// The fingerprint of one crate's code.
pub struct Code {
    /// SHA-256, in hex.
    pub sha256: String,
    /// The folders of the workspace's crates it covers, whose files it hashed.
    pub members: Vec<PathBuf>,
}

impl Sources {
    /// The workspace whose root folder (with `Cargo.toml` and `Cargo.lock`)
    /// is `root`.
    pub fn read(root: &Path) -> Result<Sources, String> {
        let lock_file = root.join("Cargo.lock");
        let text = std::fs::read_to_string(&lock_file)
            .map_err(|e| format!("{}: {e}", lock_file.display()))?;
        let lock: Lock =
            toml::from_str(&text).map_err(|e| format!("{}: {e}", lock_file.display()))?;
        let workspace = read_manifest(root)?
            .workspace
            .ok_or_else(|| format!("{}/Cargo.toml is not a workspace", root.display()))?;
        let mut members = BTreeMap::new();
        for member in &workspace.members {
            let dir = root.join(member);
            if let Some(package) = read_manifest(&dir)?.package {
                members.insert(package.name, dir);
            }
        }
        Ok(Sources {
            root: root.to_path_buf(),
            lock: lock.package,
            inherited: workspace.dependencies,
            members,
        })
    }

    /// The fingerprint of the crate in `dir` and everything it uses.
    pub fn fingerprint(&self, dir: &Path) -> Result<Code, String> {
        let name = read_manifest(dir)?
            .package
            .ok_or_else(|| format!("{}/Cargo.toml names no package", dir.display()))?
            .name;
        let start = self
            .find(&name, None)
            .ok_or_else(|| format!("Cargo.lock does not list {name}"))?;
        let mut used = BTreeSet::new();
        self.walk(start, &mut used)?;
        let mut hasher = Sha256::new();
        let mut members = Vec::new();
        for &index in &used {
            let locked = &self.lock[index];
            match self.member(locked) {
                Some(dir) => {
                    for file in member_files(dir) {
                        let named = file.strip_prefix(&self.root).unwrap_or(&file);
                        let bytes =
                            std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
                        hasher.update(named.to_string_lossy().as_bytes());
                        hasher.update([0]);
                        hasher.update(meaning(&file, bytes));
                        hasher.update([0]);
                    }
                    members.push(dir.clone());
                }
                None => {
                    let pinned = format!(
                        "{} {} {} {}",
                        locked.name,
                        locked.version,
                        locked.source.as_deref().unwrap_or("-"),
                        locked.checksum.as_deref().unwrap_or("-")
                    );
                    hasher.update(pinned.as_bytes());
                    hasher.update([0]);
                }
            }
        }
        let sha256 = hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        Ok(Code { sha256, members })
    }

    /// Adds the package at `index` and everything it uses to `used`: for a
    /// member of this workspace its normal dependencies (its lock entry
    /// also lists its dev-dependencies, which do not make its play), for
    /// any other package every dependency its lock entry lists.
    fn walk(&self, index: usize, used: &mut BTreeSet<usize>) -> Result<(), String> {
        if !used.insert(index) {
            return Ok(());
        }
        let locked = &self.lock[index];
        let normal = match self.member(locked) {
            Some(dir) => Some(self.normal_dependencies(dir)?),
            None => None,
        };
        for dependency in &locked.dependencies {
            let mut words = dependency.split(' ');
            let name = words.next().unwrap_or_default();
            let version = words.next();
            if normal.as_ref().is_some_and(|names| !names.contains(name)) {
                continue;
            }
            let found = self.find(name, version).ok_or_else(|| {
                format!(
                    "Cargo.lock lists {dependency} as a dependency of {}, and not as a package",
                    locked.name
                )
            })?;
            self.walk(found, used)?;
        }
        Ok(())
    }

    /// The lock entry of `name` (at `version`, when the entry that names it
    /// gives one because several are locked).
    fn find(&self, name: &str, version: Option<&str>) -> Option<usize> {
        self.lock
            .iter()
            .position(|p| p.name == name && version.is_none_or(|v| p.version == v))
    }

    /// The folder of a workspace member (a package with no source).
    fn member(&self, locked: &Locked) -> Option<&PathBuf> {
        match locked.source {
            None => self.members.get(&locked.name),
            Some(_) => None,
        }
    }

    /// The package names of the normal dependencies of the member in `dir`,
    /// on any target.
    fn normal_dependencies(&self, dir: &Path) -> Result<BTreeSet<String>, String> {
        let manifest = read_manifest(dir)?;
        Ok(manifest
            .dependencies
            .iter()
            .chain(manifest.target.values().flat_map(|t| t.dependencies.iter()))
            .map(|(key, value)| self.package_name(key, value))
            .collect())
    }

    /// The package a dependency entry names: the workspace's `package` key
    /// for one it inherits, else its own `package` key, else its key.
    fn package_name(&self, key: &str, value: &toml::Value) -> String {
        let renamed = |value: &toml::Value| {
            value
                .get("package")
                .and_then(toml::Value::as_str)
                .map(str::to_string)
        };
        let inherits = value
            .get("workspace")
            .and_then(toml::Value::as_bool)
            .unwrap_or(false);
        let from_workspace = inherits
            .then(|| self.inherited.get(key).and_then(renamed))
            .flatten();
        from_workspace
            .or_else(|| renamed(value))
            .unwrap_or_else(|| key.to_string())
    }
}

/// The `Cargo.toml` in `dir`.
fn read_manifest(dir: &Path) -> Result<Manifest, String> {
    let path = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A member's `Cargo.toml` and every file under its `src/`, sorted.
fn member_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = vec![dir.join("Cargo.toml")];
    sources(&dir.join("src"), &mut files);
    files.sort();
    files
}

/// What of a file the fingerprint hashes: of a Rust source, its tokens
/// without its comments and doc comments; of a TOML manifest, its values
/// without its comments and layout; of any other file (or one that does
/// not read as its kind), every byte. So a comment, a doc comment or a
/// reformatting, which change no play, do not refuse a resume.
fn meaning(file: &Path, bytes: Vec<u8>) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return bytes;
    };
    let read = match file.extension().and_then(|e| e.to_str()) {
        Some("rs") => text
            .parse::<proc_macro2::TokenStream>()
            .ok()
            .map(|tokens| without_docs(tokens).to_string()),
        Some("toml") => toml::from_str::<toml::Value>(text)
            .ok()
            .and_then(|value| toml::to_string(&value).ok()),
        _ => None,
    };
    read.map_or(bytes, String::into_bytes)
}

/// `tokens` without their doc attributes (`#[doc = ...]`, `#![doc = ...]`:
/// the tokenizer's form of doc comments), at every depth.
fn without_docs(tokens: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    use proc_macro2::{Group, TokenTree};
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if let Some(length) = doc_attribute(&tokens[i..]) {
            i += length;
            continue;
        }
        out.push(match &tokens[i] {
            TokenTree::Group(group) => {
                let mut inner = Group::new(group.delimiter(), without_docs(group.stream()));
                inner.set_span(group.span());
                TokenTree::Group(inner)
            }
            token => token.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

/// The number of tokens of the doc attribute `tokens` begin with, if they
/// begin with one.
fn doc_attribute(tokens: &[proc_macro2::TokenTree]) -> Option<usize> {
    use proc_macro2::{Delimiter, TokenTree};
    let TokenTree::Punct(hash) = tokens.first()? else {
        return None;
    };
    if hash.as_char() != '#' {
        return None;
    }
    let (inner, group) = match tokens.get(1)? {
        TokenTree::Punct(bang) if bang.as_char() == '!' => (1, tokens.get(2)?),
        group => (0, group),
    };
    let TokenTree::Group(group) = group else {
        return None;
    };
    let named_doc = matches!(
        group.stream().into_iter().next(),
        Some(TokenTree::Ident(name)) if name == "doc"
    );
    (group.delimiter() == Delimiter::Bracket && named_doc).then_some(2 + inner)
}

/// Every file under `dir`, recursively.
fn sources(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, files);
        } else {
            files.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = r#"version = 4

[[package]]
name = "bot-player"
version = "0.1.0"
dependencies = ["helper-lib", "proptest", "rand 0.8.5", "unix-only"]

[[package]]
name = "helper-lib"
version = "0.1.0"

[[package]]
name = "proptest"
version = "1.0.0"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "aaaa"

[[package]]
name = "rand"
version = "0.8.5"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "bbbb"
dependencies = ["rand_core"]

[[package]]
name = "rand"
version = "0.9.0"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "dddd"

[[package]]
name = "rand_core"
version = "0.6.0"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "cccc"

[[package]]
name = "unix-only"
version = "0.1.0"

[[package]]
name = "unrelated"
version = "0.1.0"
"#;

    /// A workspace like ours: a player crate using a member through the
    /// workspace's table under another package name, a member only on
    /// some targets, a registry crate with one of its own, and a
    /// dev-dependency; and a member it does not use.
    fn workspace() -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| {
            let path = root.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(
            "Cargo.toml",
            "[workspace]\nmembers = [\"bot\", \"helper\", \"unix-only\", \"unrelated\"]\n\n\
             [workspace.dependencies]\nhelper = { package = \"helper-lib\", path = \"helper\" }\n",
        );
        write(
            "bot/Cargo.toml",
            "[package]\nname = \"bot-player\"\n\n[dependencies]\nhelper.workspace = true\n\
             rand = \"0.8\"\n\n[target.'cfg(unix)'.dependencies]\n\
             unix-only = { path = \"../unix-only\" }\n\n[dev-dependencies]\nproptest = \"1\"\n",
        );
        write("bot/src/lib.rs", "pub fn play() {}\n");
        write("helper/Cargo.toml", "[package]\nname = \"helper-lib\"\n");
        write("helper/src/lib.rs", "pub fn help() {}\n");
        write("unix-only/Cargo.toml", "[package]\nname = \"unix-only\"\n");
        write("unix-only/src/lib.rs", "pub fn unix() {}\n");
        write("unrelated/Cargo.toml", "[package]\nname = \"unrelated\"\n");
        write("unrelated/src/lib.rs", "pub fn other() {}\n");
        write("Cargo.lock", LOCK);
        root
    }

    fn code(root: &Path) -> Result<Code, String> {
        Sources::read(root)?.fingerprint(&root.join("bot"))
    }

    /// The fingerprint follows the crate's normal dependencies into the
    /// workspace's members, whatever their package's name or target, and
    /// into the registry's crates as locked; a dev-dependency, another
    /// version of a crate it uses and a member it does not use leave it
    /// as it was.
    #[test]
    fn a_bots_code_is_what_it_is_built_from() {
        let root = workspace();
        let path = root.path();
        let first = code(path).unwrap();
        let mut covered: Vec<_> = first
            .members
            .iter()
            .map(|dir| dir.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        covered.sort();
        assert_eq!(covered, ["bot", "helper", "unix-only"]);
        assert_eq!(code(path).unwrap().sha256, first.sha256, "it is stable");

        let changed = |file: &str, from: &str, to: &str| {
            let file = path.join(file);
            let text = std::fs::read_to_string(&file).unwrap();
            assert!(text.contains(from), "{from}");
            std::fs::write(&file, text.replacen(from, to, 1)).unwrap();
            let now = code(path).unwrap().sha256;
            std::fs::write(&file, text).unwrap();
            now != first.sha256
        };
        assert!(changed("bot/src/lib.rs", "play", "move"));
        assert!(changed(
            "bot/Cargo.toml",
            "rand = \"0.8\"",
            "rand = \"0.8.5\""
        ));
        assert!(changed("helper/src/lib.rs", "help", "aid"));
        assert!(changed("unix-only/src/lib.rs", "unix", "posix"));
        assert!(changed(
            "Cargo.lock",
            "checksum = \"bbbb\"",
            "checksum = \"bbbe\""
        ));
        assert!(changed(
            "Cargo.lock",
            "checksum = \"cccc\"",
            "checksum = \"ccce\""
        ));
        assert!(!changed(
            "Cargo.lock",
            "checksum = \"aaaa\"",
            "checksum = \"aaae\""
        ));
        assert!(!changed(
            "Cargo.lock",
            "checksum = \"dddd\"",
            "checksum = \"ddde\""
        ));
        assert!(!changed("unrelated/src/lib.rs", "other", "else"));

        // What changes no play leaves it as it was: comments, doc comments
        // (outer and inner) and layout, in the sources and the manifests.
        assert!(!changed(
            "bot/src/lib.rs",
            "pub fn play() {}",
            "//! The bot.\n\n/// Plays.\npub fn play( ) {\n    // nothing yet\n    /* really */\n}"
        ));
        assert!(!changed(
            "bot/Cargo.toml",
            "rand = \"0.8\"",
            "# randomness\nrand   =   \"0.8\""
        ));
        // But a string that looks like a comment is code.
        assert!(changed("bot/src/lib.rs", "{}", "{ let _ = \"// x\"; }"));
        assert!(changed(
            "bot/src/lib.rs",
            "pub fn play() {}",
            "#[inline]\npub fn play() {}"
        ));
    }

    /// A lock file that does not list a dependency, or does not read, is
    /// named.
    #[test]
    fn a_lock_file_that_does_not_hold_a_dependency_is_named() {
        let root = workspace();
        let lock = root.path().join("Cargo.lock");
        std::fs::write(
            &lock,
            LOCK.replace("name = \"rand_core\"", "name = \"rand-core\""),
        )
        .unwrap();
        let error = code(root.path()).err().unwrap();
        assert!(
            error.contains("rand_core as a dependency of rand"),
            "{error}"
        );
        std::fs::write(&lock, "[[package]\n").unwrap();
        let error = code(root.path()).err().unwrap();
        assert!(error.contains("Cargo.lock"), "{error}");
    }
}
