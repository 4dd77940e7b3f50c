//! Loading a plugin library and making players from it.
//!
//! This is the only place the host opens a native library. It goes through
//! `abi_stable`'s library-header path (`lib_header_from_path` then
//! `LibHeader::init_root_module`) rather than `RootModule::load_from_file`,
//! because the latter keeps one module per root-module type per process: with
//! it, the second plugin loaded would silently be the first one again. Each
//! library has its own header and so its own root module, and any number of
//! libraries load side by side.
//!
//! No `unsafe` is needed here: `abi_stable` checks the version and the layout
//! of every type reachable from the root module before handing it out. What no
//! check can make safe is the plugin's own code, which runs in this process from
//! the moment the library is opened (its initialisers) — which is why native
//! bots run in a worker process unless marked trusted. A library, once loaded,
//! stays loaded until the process ends (`abi_stable` does not unload).

use std::path::{Path, PathBuf};

use abi_stable::library::{LibraryError, lib_header_from_path};
use abi_stable::std_types::RResult;
use clue_plugin_api::native::{CallError, PlayerBox, PluginModuleRef};
use clue_plugin_api::version;
use clue_plugin_api::wire::API_VERSION;

/// A native plugin that could not be loaded. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("native bot `{}`: no such file", path.display())]
    Missing { path: PathBuf },
    #[error("native bot `{}` is not a loadable library: {detail}", path.display())]
    NotALibrary { path: PathBuf, detail: String },
    #[error(
        "native bot `{}` is a library but not a Clue Arena plugin: it exports no plugin root \
         module (build it with `clue_plugin_api::export_native_player!`, docs/native.md; a \
         bundled bot's plugin is `cargo build --release -p NAME`)", path.display()
    )]
    NotAPlugin { path: PathBuf },
    #[error("bot `{}` was built against plugin-api {theirs}; this host speaks {ours}", path.display())]
    Version {
        path: PathBuf,
        theirs: String,
        ours: String,
    },
    #[error(
        "native bot `{}` was built with an abi_stable this host cannot read: {detail}",
        path.display()
    )]
    AbiStable { path: PathBuf, detail: String },
    #[error(
        "native bot `{}`: its plugin interface does not match this host's (layout check): {detail}",
        path.display()
    )]
    Layout { path: PathBuf, detail: String },
    #[error("native bot `{}`: its root module failed to initialise: {detail}", path.display())]
    Init { path: PathBuf, detail: String },
    #[error("native bot `{}`: creating a player panicked: {message}", path.display())]
    NewPlayer { path: PathBuf, message: String },
}

/// A loaded plugin: a factory of players.
#[derive(Clone, Copy)]
pub struct NativePlugin {
    module: PluginModuleRef,
}

impl std::fmt::Debug for NativePlugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativePlugin").finish_non_exhaustive()
    }
}

impl NativePlugin {
    /// Opens the library at `path`, checks its versions and layout, and
    /// initialises its root module. Loading the same file again is cheap and
    /// gives the same module.
    pub fn load(path: &Path) -> Result<NativePlugin, LoadError> {
        if !path.is_file() {
            return Err(LoadError::Missing {
                path: path.to_path_buf(),
            });
        }
        if is_wasm(path) {
            return Err(LoadError::NotALibrary {
                path: path.to_path_buf(),
                detail: format!(
                    "it is a WebAssembly file: seat it as `wasm:{}`",
                    path.display()
                ),
            });
        }
        // The loader searches the system's library folders for a name
        // without a `/` (`libbot.so`), which would load another library or
        // none: the file named is the one in the working folder.
        let file = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let header = lib_header_from_path(&file).map_err(|e| classify(path, e))?;
        let module = header
            .init_root_module::<PluginModuleRef>()
            .map_err(|e| classify(path, e))?;
        let theirs = (module.api_version())().to_string();
        if !version::compatible(&theirs, API_VERSION) {
            return Err(LoadError::Version {
                path: path.to_path_buf(),
                theirs,
                ours: API_VERSION.to_string(),
            });
        }
        Ok(NativePlugin { module })
    }

    /// A fresh player (one per seat).
    pub fn new_player(&self, path: &Path) -> Result<PlayerBox, LoadError> {
        match (self.module.new_player())() {
            RResult::ROk(player) => Ok(player),
            RResult::RErr(CallError::Panicked(message) | CallError::BadRequest(message)) => {
                Err(LoadError::NewPlayer {
                    path: path.to_path_buf(),
                    message: message.into_string(),
                })
            }
        }
    }
}

/// Whether the file at `path` begins as WebAssembly does (`\0asm`): a
/// component named as a native bot, which the loader would call an
/// invalid ELF header.
fn is_wasm(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    std::fs::File::open(path).is_ok_and(|mut file| file.read_exact(&mut magic).is_ok())
        && magic == *b"\0asm"
}

/// Turns `abi_stable`'s error into the named error a user reads.
fn classify(path: &Path, error: LibraryError) -> LoadError {
    let path = path.to_path_buf();
    match error {
        LibraryError::OpenError { err, .. } => LoadError::NotALibrary {
            path,
            detail: err.to_string(),
        },
        LibraryError::GetSymbolError { .. } => LoadError::NotAPlugin { path },
        LibraryError::IncompatibleVersionNumber {
            expected_version,
            actual_version,
            ..
        } => LoadError::Version {
            path,
            theirs: version::class(&actual_version.to_string()),
            ours: version::class(&expected_version.to_string()),
        },
        LibraryError::ParseVersionError(e) => LoadError::AbiStable {
            path,
            detail: e.to_string(),
        },
        e @ (LibraryError::InvalidAbiHeader(_) | LibraryError::InvalidCAbi { .. }) => {
            LoadError::AbiStable {
                path,
                detail: squeeze(&e.to_string()),
            }
        }
        LibraryError::AbiInstability(e) => LoadError::Layout {
            path,
            detail: squeeze(&e.to_string()),
        },
        e @ (LibraryError::RootModule { .. } | LibraryError::Many(_)) => LoadError::Init {
            path,
            detail: squeeze(&e.to_string()),
        },
    }
}

/// `abi_stable`'s reports run to many lines: keep the first few, on one line.
fn squeeze(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut out = lines
        .iter()
        .take(8)
        .copied()
        .collect::<Vec<_>>()
        .join(" | ");
    if lines.len() > 8 {
        out.push_str(" | ...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_named() {
        let error = NativePlugin::load(Path::new("no/such/libbot.so")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "native bot `no/such/libbot.so`: no such file"
        );
    }

    #[test]
    fn a_file_that_is_not_a_library_is_named() {
        let error = NativePlugin::load(Path::new("Cargo.toml")).unwrap_err();
        assert!(matches!(error, LoadError::NotALibrary { .. }), "{error}");
        assert!(
            error
                .to_string()
                .starts_with("native bot `Cargo.toml` is not a loadable library"),
            "{error}"
        );
    }

    /// A component named as a native bot is named for what it is, with the
    /// kind that seats it.
    #[test]
    fn a_webassembly_file_is_named_with_the_kind_that_seats_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot.wasm");
        std::fs::write(&path, b"\0asm\x0d\0\x01\0").unwrap();
        let error = NativePlugin::load(&path).unwrap_err();
        assert!(matches!(error, LoadError::NotALibrary { .. }), "{error}");
        let shown = path.display();
        assert_eq!(
            error.to_string(),
            format!(
                "native bot `{shown}` is not a loadable library: it is a WebAssembly file: \
                 seat it as `wasm:{shown}`"
            )
        );
    }
}
