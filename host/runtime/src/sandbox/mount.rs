//! The bot's root folder, planned in the host: what is bound, masked and
//! mounted where ([`fs_plan`]); the child carries the plan out between
//! `fork` and `exec` ([`sys::FsPlan`]).

use std::path::{Path, PathBuf};

use super::{
    BOT_HOSTNAME, BOT_MACHINE_ID, BOT_USER, DEVICES, SCRATCH, SHARED_MEMORY, SandboxError, c_path,
    c_string, sys,
};

/// What is mounted where in the bot's root.
enum Entry {
    Bind {
        src: PathBuf,
        file: bool,
        device: bool,
        writable: bool,
    },
    Symlink(PathBuf),
    /// A file of the host's bound `/etc` replaced, for the bot, by a file of
    /// these bytes.
    File(Vec<u8>),
    Tmpfs(String),
    /// A `tmpfs` over what a bind brought here, which is detached first.
    Mask(String),
    Proc,
    /// A `sysfs` of the bot's own (see [`sys::Step::Sysfs`]) where the
    /// host's `/sys` would be bound.
    Sysfs,
    /// A build's throwaway copy of a bound folder of the host's: an
    /// `overlay` of it whose writes go to a `tmpfs` of the build's
    /// ([`sys::Step::Overlay`]).
    Throwaway,
}

/// The size of the `tmpfs` that takes what a build writes in one of its
/// throwaway folders (a version manager's shims: a few hundred small
/// scripts), charged to its memory cgroup like its scratch folder.
const THROWAWAY_OPTIONS: &str = "size=64m,nr_inodes=65536,mode=0755";

/// Where `sysfs` is mounted. A bind of the host's would show the bot the
/// host's network devices (`/sys/class/net`: every interface, its address
/// and its traffic counters), where a `sysfs` mounted in the bot's network
/// namespace shows its own loopback, as a container runtime's does.
const SYSFS: &str = "/sys";

/// Where the host's cgroup file systems are mounted, masked in the bot's
/// root (see [`fs_plan`]).
const CGROUP_MOUNTS: &str = "/sys/fs/cgroup";

/// Who the bot runs as, for the files of its root: its uid and gid, and
/// whether they are the host's own (a host that is not root runs its bots
/// as itself, in a user namespace; a root host runs each as an id of its
/// own, and a build as its folder's owner).
#[derive(Clone, Copy, Debug)]
pub(super) struct RunsAs {
    pub uid: u32,
    pub gid: u32,
    pub hosts_own: bool,
}

/// What a sandboxed build may write: its folder, bound read-write, and a
/// throwaway copy of each of `throwaway` ([`Entry::Throwaway`]).
pub(super) struct Writes<'a> {
    pub folder: &'a Path,
    pub throwaway: &'a [PathBuf],
}

/// Plans the bot's root: the read paths bound read-only (the top-level
/// symbolic links of a merged `/usr` kept as links), `/proc`, the devices
/// and `/dev`'s links to the standard streams, the scratch `tmpfs` at `/tmp`
/// and another like it at `/dev/shm`; `/etc/passwd` and `/etc/group`
/// with an entry for the bot's uid and gid (`ids`, when the host's files
/// do not name them), or with the home of the host's entry made `/tmp`
/// (see [`identity_files`]);
/// `/etc/hostname`, `/etc/hosts` and `/etc/machine-id` of its own
/// ([`host_name_files`]); for a build, its folder read-write and its
/// throwaway folders ([`Writes`]);
/// parents before children.
///
/// `/sys` is a `sysfs` of the bot's own ([`SYSFS`]), or where the kernel
/// refuses one the host's bound, which brings the host's whole cgroup tree,
/// where a bot could read the memory and CPU time of every other bot (a
/// side channel, and a covert channel between two colluding entrants). So
/// `/sys/fs/cgroup` is an empty `tmpfs` in the bot's root (in a fresh
/// `sysfs`, where no folder can be made, it holds the mount points), with
/// only the bot's own cgroups
/// (`cgroups`: where the bot sees each, and the host's folder), bound
/// read-only where their hierarchies are mounted on the host.
pub(super) fn fs_plan(
    root: &Path,
    read: &[PathBuf],
    write: Option<Writes<'_>>,
    workdir: &Path,
    scratch_options: &str,
    cgroups: &[(PathBuf, PathBuf)],
    ids: RunsAs,
) -> Result<sys::FsPlan, SandboxError> {
    let throwaway = write.as_ref().map_or(&[][..], |w| w.throwaway);
    let write = write.map(|w| w.folder);
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
        if !file && path == Path::new(SYSFS) {
            entries.push((path, Entry::Sysfs));
            continue;
        }
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
    let etc_bound = entries
        .iter()
        .any(|(at, e)| at == Path::new("/etc") && matches!(e, Entry::Bind { file: false, .. }));
    if etc_bound {
        for (at, contents) in identity_files(ids.uid, ids.gid) {
            entries.push((PathBuf::from(at), Entry::File(contents.into_bytes())));
        }
    }
    if etc_bound {
        for (at, contents) in host_name_files() {
            // Bound over the host's file, so only where there is one.
            let is_file = std::fs::symlink_metadata(at).is_ok_and(|m| m.file_type().is_file());
            if !is_file {
                continue;
            }
            entries.push((PathBuf::from(at), Entry::File(contents.into_bytes())));
        }
    }
    // Only within a folder bound read-only (the toolchain it belongs to),
    // whose bind makes the mount point, and named without the separators
    // of the overlay's options.
    for folder in throwaway {
        let within_bound = entries.iter().any(|(at, e)| {
            folder != at
                && folder.starts_with(at)
                && matches!(
                    e,
                    Entry::Bind {
                        file: false,
                        writable: false,
                        ..
                    }
                )
        });
        let plain = folder
            .to_str()
            .is_some_and(|f| !f.contains([',', ':', '\\']));
        if within_bound && plain && folder.is_dir() && !hidden(folder) {
            entries.push((folder.clone(), Entry::Throwaway));
        }
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
    // Where the files of `Entry::File` are written before they are bound,
    // a `tmpfs` of its own removed once they are: the bot sees only the
    // binds, and `/proc/self/mountinfo` names each as the `tmpfs`'s file.
    let staging = c_path(&root.join(".clue-files"))?;
    let mut staged = false;
    let mut throwaways = Vec::new();
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
            Entry::File(contents) => {
                if !staged {
                    staged = true;
                    steps.push(sys::Step::Mkdir(staging.clone()));
                    steps.push(sys::Step::Tmpfs {
                        dst: staging.clone(),
                        options: c_string(
                            format!("size={},mode=0755", 4 * IDENTITY_FILE_MAX).as_bytes(),
                        )?,
                    });
                }
                let name = at.file_name().unwrap_or(at.as_os_str());
                let src = c_path(&root.join(".clue-files").join(name))?;
                steps.push(sys::Step::Write {
                    at: src.clone(),
                    contents,
                });
                steps.push(sys::Step::Bind {
                    src,
                    dst,
                    device: false,
                    writable: false,
                });
            }
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
            Entry::Sysfs => {
                made.insert(at.clone());
                steps.push(sys::Step::Mkdir(dst.clone()));
                steps.push(sys::Step::Sysfs {
                    dst,
                    host: c_path(&at)?,
                });
            }
            Entry::Throwaway => {
                // Its mount point is the host's folder, brought by the
                // toolchain's bind; the upper and work folders are on a
                // `tmpfs` detached once the overlay holds them.
                let layers = root.join(format!(".clue-overlay-{}", throwaways.len()));
                let (upper, work) = (layers.join("upper"), layers.join("work"));
                let layers_c = c_path(&layers)?;
                steps.push(sys::Step::Mkdir(layers_c.clone()));
                steps.push(sys::Step::Tmpfs {
                    dst: layers_c.clone(),
                    options: c_string(THROWAWAY_OPTIONS.as_bytes())?,
                });
                steps.push(sys::Step::Mkdir(c_path(&upper)?));
                steps.push(sys::Step::Mkdir(c_path(&work)?));
                if !ids.hosts_own {
                    steps.push(sys::Step::Chown {
                        at: c_path(&upper)?,
                        uid: ids.uid,
                        gid: ids.gid,
                    });
                }
                // A user namespace's overlay keeps its own attributes in
                // `user.` extended attributes (`trusted.` ones are root's).
                let userxattr = if ids.hosts_own { ",userxattr" } else { "" };
                let options = format!(
                    "lowerdir={},upperdir={},workdir={}{userxattr}",
                    at.display(),
                    upper.display(),
                    work.display()
                );
                steps.push(sys::Step::Overlay {
                    dst: dst.clone(),
                    options: c_string(options.as_bytes())?,
                });
                steps.push(sys::Step::Detach(layers_c.clone()));
                steps.push(sys::Step::Rmdir(layers_c));
                throwaways.push(c_path(&at)?);
            }
        }
    }
    if staged {
        steps.push(sys::Step::Detach(staging.clone()));
        steps.push(sys::Step::Rmdir(staging));
    }
    Ok(sys::FsPlan {
        root: c_path(root)?,
        steps,
        workdir: c_path(workdir)?,
        scratch: c_path(Path::new(SCRATCH))?,
        shared_memory: c_path(Path::new(SHARED_MEMORY))?,
        writable: write.map(c_path).transpose()?,
        throwaway: throwaways,
    })
}

/// The largest host `/etc/passwd` or `/etc/group` copied for a bot (the
/// staging `tmpfs` holds four times this): a site with a directory service
/// may list many thousands of users, and its bots keep the host's file.
const IDENTITY_FILE_MAX: u64 = 256 * 1024;

/// The bot's `/etc/passwd` and `/etc/group` when it runs as `uid` and `gid`:
/// the host's lines, plus user and group [`BOT_USER`] with those ids and
/// home `/tmp` (a host line of that name is left out), for each file whose
/// host copy is a plain file that does not name the id already. Without an
/// entry `whoami` and `id -un` fail ("cannot find name for user ID"),
/// Python's `pwd.getpwuid(os.getuid())` raises, a JVM's `user.name` and
/// `user.home` are both `?` and Node's `os.userInfo()` throws, where under
/// a contest's own server the bot is a user of the machine.
///
/// Where the host's file names the uid already (a build runs as its
/// folder's owner, such as `nobody`; a host that is not root runs its bots
/// as itself), that line's home is made `/tmp`, the `HOME` it is given: a
/// JVM takes `user.home` from this file, not from `HOME`, and Maven's
/// `~/.m2`, Gradle's `~/.gradle` and the like were in `/nonexistent` (or in
/// a home the sandbox does not show), where nothing can be written.
fn identity_files(uid: u32, gid: u32) -> Vec<(&'static str, String)> {
    let mut files = Vec::new();
    let host = |path: &str| {
        let meta = std::fs::symlink_metadata(path).ok()?;
        if !meta.file_type().is_file() || meta.len() > IDENTITY_FILE_MAX {
            return None;
        }
        std::fs::read_to_string(path).ok()
    };
    if let Some(text) = host("/etc/passwd")
        && let Some(text) = with_entry(
            &text,
            uid,
            &format!("{BOT_USER}:x:{uid}:{gid}:Clue Arena bot:{SCRATCH}:/bin/sh"),
        )
        .or_else(|| with_scratch_home(&text, uid))
    {
        files.push(("/etc/passwd", text));
    }
    if let Some(text) = host("/etc/group")
        && let Some(text) = with_entry(&text, gid, &format!("{BOT_USER}:x:{gid}:"))
    {
        files.push(("/etc/group", text));
    }
    files
}

/// The bot's `/etc/hostname`, `/etc/hosts` and `/etc/machine-id`, in place
/// of the host's (which name the machine, and the host's `/etc/hosts` often
/// its neighbours): [`BOT_HOSTNAME`], loopback under `localhost` and that
/// name, as a container runtime writes them, and [`BOT_MACHINE_ID`].
/// Nothing else is looked up there: a bot has no network, and a build
/// reaches its registries through the host's proxy, which resolves their
/// names on the host.
fn host_name_files() -> [(&'static str, String); 3] {
    [
        ("/etc/hostname", format!("{BOT_HOSTNAME}\n")),
        ("/etc/machine-id", format!("{BOT_MACHINE_ID}\n")),
        (
            "/etc/hosts",
            format!(
                "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\t{BOT_HOSTNAME}\n"
            ),
        ),
    ]
}

/// `text` (lines `name:password:id:...`) with `line` added, and any line
/// named like it left out; `None` when a line already has the `id`.
fn with_entry(text: &str, id: u32, line: &str) -> Option<String> {
    let name = line.split(':').next().unwrap_or_default();
    let mut out = String::with_capacity(text.len() + line.len() + 1);
    for host in text.lines() {
        let mut fields = host.split(':');
        let host_name = fields.next().unwrap_or_default();
        if fields.nth(1).and_then(|f| f.parse::<u32>().ok()) == Some(id) {
            return None;
        }
        if host_name != name {
            out.push_str(host);
            out.push('\n');
        }
    }
    out.push_str(line);
    out.push('\n');
    Some(out)
}

/// `text`, a passwd file, with the home of each line of `uid` made
/// [`SCRATCH`]; `None` when no line needs it.
fn with_scratch_home(text: &str, uid: u32) -> Option<String> {
    let mut changed = false;
    let mut out = String::with_capacity(text.len() + SCRATCH.len());
    for line in text.lines() {
        let mut fields: Vec<&str> = line.split(':').collect();
        if fields.len() == 7 && fields[2].parse::<u32>().ok() == Some(uid) && fields[5] != SCRATCH {
            fields[5] = SCRATCH;
            changed = true;
            out.push_str(&fields.join(":"));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::{with_entry, with_scratch_home};

    const PASSWD: &str = "root:x:0:0:root:/root:/bin/bash\nbot:x:1000:1000::/home/bot:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n";

    #[test]
    fn the_bot_entry_is_added_and_a_host_user_of_its_name_left_out() {
        let text = with_entry(
            PASSWD,
            1_900_000_007,
            "bot:x:1900000007:1900000007::/tmp:/bin/sh",
        )
        .expect("no host line has the id");
        assert_eq!(
            text,
            "root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\nbot:x:1900000007:1900000007::/tmp:/bin/sh\n"
        );
    }

    #[test]
    fn an_id_the_host_names_already_is_left_as_it_is() {
        assert_eq!(
            with_entry(PASSWD, 65534, "bot:x:65534:65534::/tmp:/bin/sh"),
            None
        );
        assert_eq!(with_entry("staff:x:50:\n", 50, "bot:x:50:"), None);
        // A group file's id is its third field too; a malformed line is kept.
        assert_eq!(
            with_entry("staff:x:50:\nbroken\n", 7, "bot:x:7:").as_deref(),
            Some("staff:x:50:\nbroken\nbot:x:7:\n")
        );
    }

    #[test]
    fn the_home_of_a_host_user_the_bot_runs_as_is_its_scratch_folder() {
        assert_eq!(
            with_scratch_home(PASSWD, 65534).as_deref(),
            Some(
                "root:x:0:0:root:/root:/bin/bash\nbot:x:1000:1000::/home/bot:/bin/sh\nnobody:x:65534:65534:nobody:/tmp:/usr/sbin/nologin\n"
            )
        );
        // Named nowhere, or already there: nothing to change.
        assert_eq!(with_scratch_home(PASSWD, 7), None);
        assert_eq!(with_scratch_home("b:x:7:7::/tmp:/bin/sh\n", 7), None);
        // A malformed line is kept as it is.
        assert_eq!(
            with_scratch_home("broken:7\nb:x:7:7::/home/b:/bin/sh\n", 7).as_deref(),
            Some("broken:7\nb:x:7:7::/tmp:/bin/sh\n")
        );
    }
}
