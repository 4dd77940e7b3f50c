//! The bots' builds before the first game: each `build:` command once,
//! sandboxed in its entrant's folder or run as the host's user ([`build`]),
//! and none on a resume while the bots' files are those the stored games
//! were played with ([`build_for`]).

use std::time::Duration;

use clue_runtime::process::build::{BuildError, BuildLimits, LeftInHome};
use clue_runtime::process::proxy::Allowed;

use super::{RunError, Unwatched, Watch};
use crate::config::{Tournament, check_files};
use crate::store::{Store, Unlike};

/// Runs every `build:` command once, takes the paths the builds made beside
/// the file ([`Tournament::take_built_paths`]), then checks the bots' files
/// exist. The
/// one-line form runs in the tournament file's folder as the host's user;
/// the map form runs in its `dir`, in the sandbox (the only folder it may
/// write; `clue_runtime::process::build`) unless `sandbox: off` or
/// `--no-sandbox` says otherwise.
pub fn build(t: &mut Tournament) -> Result<(), RunError> {
    build_watched(t, &Unwatched)
}

/// [`build`], telling `watch` of each build as it begins and when they are
/// over.
pub fn build_watched(t: &mut Tournament, watch: &dyn Watch) -> Result<(), RunError> {
    struct Built<'a>(&'a dyn Watch);
    impl Drop for Built<'_> {
        fn drop(&mut self) {
            self.0.built();
        }
    }
    let _built = Built(watch);
    for bot in &t.bots {
        let Some(build) = &bot.build else { continue };
        let dir = build.dir.as_deref().unwrap_or(&t.base_dir);
        let sandboxed = build.runs_sandboxed();
        let how = if sandboxed {
            "sandboxed in"
        } else {
            "as you in"
        };
        watch.building(&bot.name, &format!("{how} {}", dir.display()));
        tracing::info!(bot = %bot.name, command = %build.command, dir = %dir.display(), sandboxed, "building");
        let failed = if sandboxed {
            let limits = BuildLimits {
                time: Duration::from_secs(build.time_limit_s),
                memory: build.memory_mb << 20,
                disk: build.disk_mb << 20,
                scratch_bytes: build.scratch_mb << 20,
                // Checked when the file was read.
                network: build
                    .network
                    .iter()
                    .filter_map(|entry| Allowed::parse(entry).ok())
                    .collect(),
                ..BuildLimits::default()
            };
            match clue_runtime::process::build::run_sandboxed(&build.command, dir, &limits) {
                Ok(built) => {
                    tracing::debug!(bot = %bot.name, output = %built.output, "built");
                    if let Some(warning) = left_in_home(&bot.name, &built.left_in_home) {
                        tracing::warn!("{warning}");
                    }
                    None
                }
                Err(e) => Some(format!(
                    "the sandboxed build `{}` {e}{}{}",
                    build.command,
                    out_of_space(&e, build.scratch_mb, build.disk_mb),
                    toolchain_missing(&e)
                )),
            }
        } else {
            let status = std::process::Command::new("sh")
                .arg("-c")
                .arg(&build.command)
                .current_dir(dir)
                .status();
            match status {
                Ok(s) if s.success() => None,
                Ok(s) => Some(format!("`{}` exited with {s}", build.command)),
                Err(e) => Some(format!("`{}` could not start: {e}", build.command)),
            }
        };
        if let Some(message) = failed {
            return Err(RunError::Build {
                file: t.file.clone(),
                line: bot.build_pos.line,
                column: bot.build_pos.column,
                bot: bot.name.clone(),
                message,
            });
        }
    }
    t.take_built_paths();
    check_files(t)?;
    Ok(())
}

/// What to do about a failed build whose output says it ran out of space
/// (`ENOSPC`, "No space left on device", as every C library words it):
/// after its output, where the eye ends. Most often its scratch folder,
/// which is also its `HOME` and `TMPDIR`, where pip and npm keep their
/// caches and unpack what they install; else the disk under its folder.
/// A file past `disk_mb` is another error ("File too large").
fn out_of_space(e: &BuildError, scratch_mb: u64, disk_mb: u64) -> String {
    let BuildError::Failed { output, .. } = e else {
        return String::new();
    };
    if !output.contains("No space left on device") {
        return String::new();
    }
    format!(
        "\nit ran out of space: its scratch folder, which is its HOME and TMPDIR (caches, \
         downloads being unpacked), holds {scratch_mb} MiB: raise the build's `scratch_mb`, \
         or keep caches out of it (pip: `--no-cache-dir`); its own folder may take {disk_mb} \
         MiB more (`disk_mb`) but no more than the disk under it has free"
    )
}

/// What to do about a failed build whose rustup found no toolchain it was
/// asked for (an entrant's `rust-toolchain.toml`, a `cargo +1.80.0`): a
/// build sees the host's rustup read-only and cannot install one, so the
/// organizer must, on the host.
fn toolchain_missing(e: &BuildError) -> String {
    let BuildError::Failed { output, .. } = e else {
        return String::new();
    };
    let Some(toolchain) = output.lines().find_map(|line| {
        line.strip_prefix("error: toolchain '")?
            .strip_suffix("' is not installed")
    }) else {
        return String::new();
    };
    format!(
        "\nthe entrant's build asks for the Rust toolchain {toolchain}, which the host has not \
         installed, and a build cannot install one (it sees the host's rustup read-only): \
         install it on the host (`rustup toolchain install {toolchain}`), or have the entrant \
         build with a toolchain the host has (`rustup toolchain list`)"
    )
}

/// The warning for a build that left what its bot needs in its `HOME`
/// (`clue_runtime::process::build::HOME_INSTALLS`), which vanished with
/// the build: the build succeeded, and the bot would fail its first game
/// (an `ImportError`, a program not found) with nothing pointing here.
/// Only a warning: a tool a build needs only while it runs (`pip install
/// --user cython` before compiling) is rightly gone.
fn left_in_home(bot: &str, left: &[LeftInHome]) -> Option<String> {
    if left.is_empty() {
        return None;
    }
    let folders: Vec<String> = left
        .iter()
        .map(|l| format!("~/{} is {}", l.folder, l.hint))
        .collect();
    Some(format!(
        "bot `{bot}`: its build left files in its HOME, the build's scratch folder, which is gone now that the build is over, so the bot will not find them when it plays: {}",
        folders.join("; ")
    ))
}

/// The builds for a coordinator (`run` or `resume`) on `store`. A store
/// that holds games of this tournament keeps the bots they were played
/// with. When every bot and board file is still as it was, nothing is built:
/// a build need not give the same bytes twice (a `.jar` keeps its time).
/// When one is not, the builds run, and a file still not as it was is
/// refused: the standings would mix two versions of a bot.
pub fn build_for(t: &mut Tournament, store: &Store) -> Result<(), RunError> {
    build_for_watched(t, store, &Unwatched)
}

/// [`build_for`], telling `watch` of each build ([`build_watched`]).
pub fn build_for_watched(
    t: &mut Tournament,
    store: &Store,
    watch: &dyn Watch,
) -> Result<(), RunError> {
    let resumed = store.meta()?.is_some_and(|meta| {
        crate::config::settings_of(&meta.source) == crate::config::settings_of(&t.source)
    }) && !store.done()?.is_empty();
    if !resumed {
        return build_watched(t, watch);
    }
    t.take_built_paths();
    let unlike = |why: Unlike| match why {
        Unlike::Files(why) => RunError::Changed {
            store: store.name().to_string(),
            why,
        },
        Unlike::Clue(why) => RunError::OtherClue {
            store: store.name().to_string(),
            why,
        },
    };
    match store.played_with_other_files(t)? {
        None => {
            tracing::info!("every bot file is as the stored games were played with: nothing built");
            check_files(t)?;
            return Ok(());
        }
        // No build makes this clue the other one: refused before any build.
        Some(why @ Unlike::Clue(_)) => return Err(unlike(why)),
        Some(Unlike::Files(_)) => {}
    }
    build_watched(t, watch)?;
    match store.played_with_other_files(t)? {
        None => Ok(()),
        Some(why) => Err(unlike(why)),
    }
}
