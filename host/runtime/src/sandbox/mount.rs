//! The bot's root folder, planned in the host: what is bound, masked and
//! mounted where ([`fs_plan`]); the child carries the plan out between
//! `fork` and `exec` ([`sys::FsPlan`]).

use std::path::{Path, PathBuf};

use super::{DEVICES, SCRATCH, SHARED_MEMORY, SandboxError, c_path, c_string, sys};

/// What is mounted where in the bot's root.
enum Entry {
    Bind {
        src: PathBuf,
        file: bool,
        device: bool,
        writable: bool,
    },
    Symlink(PathBuf),
    Tmpfs(String),
    /// A `tmpfs` over what a bind brought here, which is detached first.
    Mask(String),
    Proc,
}

/// Where the host's cgroup file systems are mounted, masked in the bot's
/// root (see [`fs_plan`]).
const CGROUP_MOUNTS: &str = "/sys/fs/cgroup";

/// Plans the bot's root: the read paths bound read-only (the top-level
/// symbolic links of a merged `/usr` kept as links), `/proc`, the devices
/// and `/dev`'s links to the standard streams, the scratch `tmpfs` at `/tmp`
/// and another like it at `/dev/shm`; parents before children.
///
/// `/sys` brings the host's whole cgroup tree, where a bot could read the
/// memory and CPU time of every other bot (a side channel, and a covert
/// channel between two colluding entrants). So `/sys/fs/cgroup` is an
/// empty `tmpfs` in the bot's root, holding only the bot's own cgroups
/// (`cgroups`: where the bot sees each, and the host's folder), bound
/// read-only where their hierarchies are mounted on the host.
pub(super) fn fs_plan(
    root: &Path,
    read: &[PathBuf],
    write: Option<&Path>,
    workdir: &Path,
    scratch_options: &str,
    cgroups: &[(PathBuf, PathBuf)],
) -> Result<sys::FsPlan, SandboxError> {
    let hidden = |p: &Path| {
        p == Path::new("/")
            || p == Path::new(SCRATCH)
            || p.starts_with("/proc")
            || p.starts_with("/dev")
            || p.starts_with(root)
    };
    let mut entries: Vec<(PathBuf, Entry)> = Vec::new();
    let mut binds: Vec<(PathBuf, bool)> = Vec::new();
    for path in read {
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            continue;
        };
        if meta.file_type().is_symlink()
            && path.parent() == Some(Path::new("/"))
            && !hidden(path)
            && let Ok(target) = std::fs::read_link(path)
        {
            entries.push((path.clone(), Entry::Symlink(target)));
        }
        let Ok(real) = std::fs::canonicalize(path) else {
            continue;
        };
        // The writable folder's own bind brings everything below it.
        if hidden(&real) || write.is_some_and(|w| real.starts_with(w)) {
            continue;
        }
        let file = !real.is_dir();
        binds.push((real, file));
    }
    binds.sort();
    binds.dedup();
    let mut kept: Vec<(PathBuf, bool)> = Vec::new();
    for (path, file) in binds {
        // A folder already bound brings everything below it.
        if kept.iter().any(|(k, f)| !f && path.starts_with(k)) {
            continue;
        }
        kept.push((path, file));
    }
    let masked = Path::new(CGROUP_MOUNTS);
    let cgroup_mounts_bound =
        masked.is_dir() && kept.iter().any(|(k, f)| !f && masked.starts_with(k));
    // A link whose own path is bound as a folder is superseded by the bind.
    entries.retain(|(at, _)| !kept.iter().any(|(k, _)| k == at));
    for (path, file) in kept {
        entries.push((
            path.clone(),
            Entry::Bind {
                src: path,
                file,
                device: false,
                writable: false,
            },
        ));
    }
    if let Some(folder) = write {
        entries.push((
            folder.to_path_buf(),
            Entry::Bind {
                src: folder.to_path_buf(),
                file: false,
                device: false,
                writable: true,
            },
        ));
    }
    for device in DEVICES {
        if Path::new(device).exists() {
            entries.push((
                PathBuf::from(device),
                Entry::Bind {
                    src: PathBuf::from(device),
                    file: true,
                    device: true,
                    writable: false,
                },
            ));
        }
    }
    if cgroup_mounts_bound {
        if !cgroups.iter().any(|(at, _)| at == masked) {
            entries.push((
                masked.to_path_buf(),
                Entry::Mask("size=16k,nr_inodes=64,mode=0755".into()),
            ));
        }
        for (at, dir) in cgroups {
            if at.starts_with(masked) {
                entries.push((
                    at.clone(),
                    Entry::Bind {
                        src: dir.clone(),
                        file: false,
                        device: false,
                        writable: false,
                    },
                ));
            }
        }
    }
    // The standard links of `/dev` that the OCI runtime spec requires of
    // a container (and bubblewrap's `--dev` makes): a script's
    // `echo ... > /dev/stderr`, a program's `open("/dev/stdin")`.
    for (link, target) in [
        ("/dev/fd", "/proc/self/fd"),
        ("/dev/stdin", "/proc/self/fd/0"),
        ("/dev/stdout", "/proc/self/fd/1"),
        ("/dev/stderr", "/proc/self/fd/2"),
    ] {
        entries.push((PathBuf::from(link), Entry::Symlink(PathBuf::from(target))));
    }
    entries.push((PathBuf::from("/proc"), Entry::Proc));
    for tmpfs in [SCRATCH, SHARED_MEMORY] {
        entries.push((
            PathBuf::from(tmpfs),
            Entry::Tmpfs(scratch_options.to_string()),
        ));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries.dedup_by(|a, b| a.0 == b.0);
    let inside = |p: &Path| root.join(p.strip_prefix("/").unwrap_or(p));
    let mut made: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
    let mut steps = Vec::new();
    for (at, entry) in entries {
        let mut ancestors: Vec<&Path> = at.ancestors().skip(1).collect();
        ancestors.reverse();
        for dir in ancestors {
            if dir != Path::new("/") && made.insert(dir.to_path_buf()) {
                steps.push(sys::Step::Mkdir(c_path(&inside(dir))?));
            }
        }
        let dst = c_path(&inside(&at))?;
        let masking = matches!(entry, Entry::Mask(_));
        match entry {
            Entry::Symlink(target) => steps.push(sys::Step::Symlink {
                target: c_path(&target)?,
                at: dst,
            }),
            Entry::Bind {
                src,
                file,
                device,
                writable,
            } => {
                steps.push(if file {
                    sys::Step::Touch(dst.clone())
                } else {
                    sys::Step::Mkdir(dst.clone())
                });
                made.insert(at.clone());
                steps.push(sys::Step::Bind {
                    src: c_path(&src)?,
                    dst,
                    device,
                    writable,
                });
            }
            Entry::Tmpfs(options) | Entry::Mask(options) => {
                made.insert(at.clone());
                steps.push(if masking {
                    // Detached rather than only covered: a JVM reads its
                    // cgroup from `/proc/self/mountinfo`, and HotSpot takes
                    // the first of two mounts of a controller, which would
                    // be the host's.
                    sys::Step::Detach(dst.clone())
                } else {
                    sys::Step::Mkdir(dst.clone())
                });
                steps.push(sys::Step::Tmpfs {
                    dst,
                    options: c_string(options.as_bytes())?,
                });
            }
            Entry::Proc => {
                made.insert(at.clone());
                steps.push(sys::Step::Mkdir(dst.clone()));
                steps.push(sys::Step::Proc(dst));
            }
        }
    }
    Ok(sys::FsPlan {
        root: c_path(root)?,
        steps,
        workdir: c_path(workdir)?,
        scratch: c_path(Path::new(SCRATCH))?,
        shared_memory: c_path(Path::new(SHARED_MEMORY))?,
        writable: write.map(c_path).transpose()?,
    })
}
