//! What a bot's command line names: its own folders, bound read-only in its
//! root ([`own_folders`]), the program it runs ([`program_file`]) and the
//! files it may not be given (linked out of its folder, or built for another
//! architecture).

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::SYSTEM_READ;

/// `folder` and where it really is, when a symbolic link on its way leads
/// out of the system folders every bot sees anyway. The bind follows the
/// link, and an entrant's folder is the entrant author's: a link there named
/// on the command line (`bot.py data/model`, `data` a link to `/home`) would
/// show the bot whatever it points at ([`seen_by_every_bot`]).
pub(super) fn linked_elsewhere(folder: &Path) -> Option<(PathBuf, PathBuf)> {
    let real = std::fs::canonicalize(folder).ok()?;
    if real == lexically_normal(folder) {
        return None;
    }
    (!seen_by_every_bot(&real)).then(|| (folder.to_path_buf(), real))
}

/// The roots of the version managers whose `shims` folder is on the host's
/// `PATH` (pyenv, rbenv, asdf, nodenv), where they really are: the host's
/// own toolchains, bound whole in every bot's root (so that a bot's `PATH`
/// finds there what the host's does), and which no entrant can name, the
/// host's `PATH` being the operator's.
pub(super) fn toolchain_roots() -> Vec<PathBuf> {
    toolchain_shims()
        .into_iter()
        .filter_map(|shims| {
            let root = shims.parent()?.to_path_buf();
            (root != Path::new("/")).then_some(root)
        })
        .collect()
}

/// The `shims` folders of [`toolchain_roots`], where they really are: the
/// little scripts through which a version manager runs the version chosen.
/// Its hooks write there after an install (pyenv's `pip install` runs
/// `pyenv rehash`, rbenv's `gem install` too) and fail the command when
/// they cannot, so a sandboxed build gets a throwaway copy of each that it
/// may write (`sys::Step::Overlay`).
pub(super) fn toolchain_shims() -> Vec<PathBuf> {
    let Some(path) = std::env::var_os("PATH") else {
        return Vec::new();
    };
    std::env::split_paths(&path)
        .filter(|entry| entry.is_absolute() && entry.file_name() == Some(OsStr::new("shims")))
        .filter_map(|entry| std::fs::canonicalize(entry).ok())
        .filter(|shims| shims.parent().is_some_and(|root| root != Path::new("/")))
        .collect()
}

/// The virtual environment a program `<venv>/bin/<name>` runs in: `<venv>`,
/// when `<venv>/pyvenv.cfg` is there (Python reads it beside its program's
/// folder, and without it runs with none of the environment's packages).
fn virtual_environment(program: &Path) -> Option<PathBuf> {
    let bin = program.parent()?;
    if bin.file_name() != Some(OsStr::new("bin")) {
        return None;
    }
    let venv = bin.parent()?;
    venv.join("pyvenv.cfg")
        .is_file()
        .then(|| venv.to_path_buf())
}

/// Whether `real` lies in the system folders every bot sees anyway, or in
/// the host's toolchains (the roots of the version managers whose `shims`
/// are on the host's `PATH`). `/sys` does not count: a bot
/// sees only its own cgroups there. So a link an entrant ships into one is
/// no way to another entrant's files: a virtual environment made with
/// pyenv's Python (`.venv/bin/python` -> `~/.pyenv/versions/3.11.7/bin/python3`,
/// as a sandboxed `build:` running `python3 -m venv .venv` makes one).
pub fn seen_by_every_bot(real: &Path) -> bool {
    SYSTEM_READ
        .iter()
        .filter(|f| **f != "/sys")
        .any(|f| real.starts_with(f))
        || toolchain_roots().iter().any(|root| real.starts_with(root))
}

/// `path` with its `.` and `..` taken away by the words alone, as if no
/// folder on it were a link.
pub fn lexically_normal(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

pub(super) fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The folders of every word of the command line that names a file (its
/// folder) or a folder (itself), looking inside `sh -c` strings too; the
/// program itself found through `PATH`; for a file in a virtual
/// environment's `bin`, the environment.
pub(super) fn own_folders(argv: &[String]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for found in named_paths(argv) {
        out.extend(climbed_through(&found));
        if !found.is_dir() {
            out.extend(virtual_environment(&found));
        }
        let folder = if found.is_dir() {
            Some(found)
        } else {
            found.parent().map(Path::to_path_buf)
        };
        if let Some(folder) = folder
            && folder != Path::new("/")
        {
            // A program found in a version manager's `shims` (pyenv,
            // rbenv, asdf) runs the manager, then the real program,
            // both below the manager's root.
            if folder.file_name() == Some(OsStr::new("shims"))
                && let Some(manager) = folder.parent()
            {
                out.push(manager.to_path_buf());
            }
            out.push(folder);
        }
    }
    out
}

/// The first file the command line names (as [`own_folders`] reads it)
/// that lies directly in the host's `/tmp`: the sandbox gives the bot a
/// scratch `/tmp` of its own, so such a file is not there for it (and
/// binding the host's `/tmp` would show the bot everything in it). A path
/// the host's `/tmp` does not hold is no file of the bot's but one it will
/// make in its scratch folder (`--log /tmp/game.log`, `2>/tmp/err`), and
/// is left alone.
pub(super) fn in_scratch(argv: &[String]) -> Option<PathBuf> {
    named_paths(argv)
        .into_iter()
        .filter(|path| std::fs::metadata(path).is_ok_and(|m| !m.is_dir()))
        .map(|path| lexically_normal(&path))
        .find(|path| path.parent() == Some(Path::new(super::SCRATCH)))
}

/// Every word of the command line that names something, made absolute:
/// `sh -c` strings split like a shell, `--flag=path` and `-cp a:b` pieces,
/// and a lone word that is no path found through `PATH`; not what lies in
/// `/dev` or `/proc`, which the sandbox gives the bot its own of.
fn named_paths(argv: &[String]) -> Vec<PathBuf> {
    let mut words: Vec<String> = Vec::new();
    for word in argv {
        words.push(word.clone());
        if word.contains(' ')
            && let Ok(inner) = shell_words::split(word)
        {
            words.extend(inner);
        }
    }
    let mut out = Vec::new();
    for word in &words {
        // `--flag=path` and `-cp a:b` forms: every piece that names something.
        let pieces = word
            .split_once('=')
            .map_or(word.as_str(), |(_, v)| v)
            .split(':');
        for piece in pieces {
            if piece.is_empty() || piece == "/" {
                continue;
            }
            let path = Path::new(piece);
            let found = if path.components().count() == 1 && !path.exists() {
                which(OsStr::new(piece))
            } else if path.exists() {
                Some(absolute(path))
            } else {
                None
            };
            // The bot's `/dev` and `/proc` are its own (its devices, its
            // streams, its processes), not the host's folders: a word there
            // (`> /dev/stderr`, `ls /dev/fd/`) names nothing to bind, and
            // on the host it would lead to the host's `/proc/PID`.
            out.extend(found.filter(|path| {
                let path = lexically_normal(path);
                !path.starts_with("/dev") && !path.starts_with("/proc")
            }));
        }
    }
    out
}

/// The folders a path that climbs (`host/cli/../../runtime/bot.sh`) passes
/// through just before each run of `..`: inside the bot's root the path
/// resolves only if they are there too (the kernel walks `..` from a folder
/// that must exist), so they are bound with the rest of the command line.
fn climbed_through(path: &Path) -> Vec<PathBuf> {
    use std::path::Component;
    let mut out = Vec::new();
    let mut walked = PathBuf::new();
    let mut previous_was_parent = false;
    for component in path.components() {
        let parent = component == Component::ParentDir;
        if parent && !previous_was_parent && walked.is_dir() {
            out.push(walked.clone());
        }
        walked.push(component);
        previous_was_parent = parent;
    }
    out
}

/// The file a command line's first word runs: the path itself when it has
/// a `/`, else the first match on `PATH` (the host's: a bot's cleared
/// environment keeps it, and the sandbox binds the program's folder).
pub fn program_file(program: &OsStr) -> Option<PathBuf> {
    if program.as_bytes().contains(&b'/') {
        Some(PathBuf::from(program))
    } else {
        which(program)
    }
}

/// What `path` is, in words, when it is an ELF program of an architecture
/// other than the host's (a 32-bit x86 program on x86-64, say); `None` for
/// a native program, a script or a file that cannot be read. The seccomp
/// filters are built for the host's architecture and kill a process at its
/// first call of another (`seccompiler` builds for one architecture), so such
/// a bot is refused before it starts, by name, rather than seen to crash.
pub(super) fn foreign_program(path: &Path) -> Option<String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    // Without blocking: an entrant's "program" may be a FIFO, whose open
    // would wait for a writer for ever.
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut header = [0u8; 20];
    file.read_exact(&mut header).ok()?;
    if header[..4] != *b"\x7fELF" {
        return None;
    }
    let bits = match header[4] {
        1 => 32,
        2 => 64,
        _ => return None,
    };
    let machine = match header[5] {
        2 => u16::from_be_bytes([header[18], header[19]]),
        _ => u16::from_le_bytes([header[18], header[19]]),
    };
    // ELF's `e_machine` numbers (elf.h) and the host's, as Rust names it.
    let (name, native) = match machine {
        3 => ("x86 (i386)", None),
        62 if bits == 32 => ("x32", None),
        62 => ("x86-64", Some("x86_64")),
        40 => ("ARM", None),
        183 => ("AArch64", Some("aarch64")),
        243 => ("RISC-V", Some("riscv64")),
        _ => ("", None),
    };
    if native == Some(std::env::consts::ARCH) && bits == 64 {
        return None;
    }
    Some(if name.is_empty() {
        format!("a {bits}-bit program for ELF machine {machine}")
    } else {
        format!("a {bits}-bit {name} program")
    })
}

fn which(program: &OsStr) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_climbing_path_brings_the_folders_it_climbs_out_of() {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let climbing = here.join("src/sandbox/../../tests/process_bots/misbehave.sh");
        assert_eq!(climbed_through(&climbing), vec![here.join("src/sandbox")]);
        let twice = here.join("src/../tests/../benches");
        assert_eq!(
            climbed_through(&twice),
            vec![here.join("src"), here.join("src/../tests")]
        );
        assert!(climbed_through(&here.join("tests/process_bots")).is_empty());
    }
}
