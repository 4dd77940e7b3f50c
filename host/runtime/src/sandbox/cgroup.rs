//! The bot's cgroups, chosen at run time (`clue doctor` prints which):
//!
//! - **cgroup v1** where its controllers are writable (root here): one
//!   cgroup per bot in each of `pids`, `memory` and `cpuacct` under
//!   `/sys/fs/cgroup/<controller>/clue-arena/`;
//! - else **cgroup v2** where the host may make cgroups (a subtree systemd
//!   delegated to it, `Delegate=yes`, or the root of the hierarchy as root):
//!   one cgroup per bot under `clue-arena/` of the host's own cgroup, with
//!   `memory.max` (and `memory.swap.max` 0), `pids.max` where those
//!   controllers are delegated, `cpu.stat` (always there) for the CPU time
//!   and `cgroup.kill` for the end. v2 forbids processes in a cgroup whose
//!   children have controllers, so the host first moves itself into a
//!   `clue-host/` leaf beside `clue-arena/`, as systemd asks of delegated
//!   programs;
//! - else none: the fallbacks of [`super::layers`] (`RLIMIT_*`).

use std::collections::BTreeSet;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::sys;

/// Where v1 controllers are mounted.
pub const V1_ROOT: &str = "/sys/fs/cgroup";

/// The v1 controllers the sandbox uses, each with what it is for.
const V1_CONTROLLERS: [&str; 3] = ["pids", "memory", "cpuacct"];

/// The cgroup hierarchy bots are placed in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hierarchy {
    /// v1 controllers: those of `V1_CONTROLLERS` that are writable.
    V1 { controllers: Vec<&'static str> },
    /// A v2 folder bots' cgroups are made in, and the controllers enabled
    /// for them (of `memory` and `pids`).
    V2 {
        base: PathBuf,
        controllers: Vec<String>,
    },
    /// No writable cgroup: why.
    None { why: String },
}

impl Hierarchy {
    /// What `clue doctor` prints.
    pub fn describe(&self) -> String {
        match self {
            Hierarchy::V1 { controllers } => format!(
                "cgroup v1, controllers {} under {V1_ROOT}/<controller>/clue-arena",
                controllers.join(", ")
            ),
            Hierarchy::V2 { base, controllers } => format!(
                "cgroup v2 under {} (controllers: {}; cpu.stat and cgroup.kill always)",
                base.display(),
                if controllers.is_empty() {
                    "none delegated".to_string()
                } else {
                    controllers.join(", ")
                }
            ),
            Hierarchy::None { why } => format!("no writable cgroup ({why})"),
        }
    }

    fn has(&self, controller: &str) -> bool {
        match self {
            Hierarchy::V1 { controllers } => controllers.contains(&controller),
            Hierarchy::V2 { controllers, .. } => controllers.iter().any(|c| c == controller),
            Hierarchy::None { .. } => false,
        }
    }

    /// Whether bots get a memory cap, a process cap, a CPU count.
    pub fn caps_memory(&self) -> bool {
        self.has("memory")
    }
    pub fn caps_processes(&self) -> bool {
        self.has("pids")
    }
    pub fn counts_cpu(&self) -> bool {
        match self {
            Hierarchy::V1 { .. } => self.has("cpuacct"),
            Hierarchy::V2 { .. } => true,
            Hierarchy::None { .. } => false,
        }
    }
}

/// The hierarchy of this machine, probed once: v1 where writable, else v2.
pub fn hierarchy() -> &'static Hierarchy {
    static HIERARCHY: OnceLock<Hierarchy> = OnceLock::new();
    HIERARCHY.get_or_init(|| {
        let v1: Vec<&'static str> = V1_CONTROLLERS
            .into_iter()
            .filter(|c| writable(&Path::new(V1_ROOT).join(c).join("clue-arena")))
            .collect();
        if !v1.is_empty() {
            for controller in &v1 {
                sweep_stale(&Path::new(V1_ROOT).join(controller).join("clue-arena"));
            }
            return Hierarchy::V1 { controllers: v1 };
        }
        match own_v2_cgroup() {
            Some(own) => {
                let hierarchy = v2_delegated(&own);
                if let Hierarchy::V2 { base, .. } = &hierarchy {
                    sweep_stale(base);
                }
                hierarchy
            }
            None => Hierarchy::None {
                why: format!(
                    "no writable v1 controller under {V1_ROOT} and no cgroup2 mount for this process"
                ),
            },
        }
    })
}

/// Whether cgroups can be made in `dir` (made if missing) and joined.
fn writable(dir: &Path) -> bool {
    std::fs::create_dir_all(dir).is_ok()
        && std::fs::OpenOptions::new()
            .write(true)
            .open(dir.join("cgroup.procs"))
            .is_ok()
}

/// This process's cgroup in the v2 hierarchy: the `cgroup2` mount of
/// `/proc/self/mountinfo` joined with the `0::` line of `/proc/self/cgroup`.
fn own_v2_cgroup() -> Option<PathBuf> {
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let cgroup = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let (mount, path) = parse_v2_location(&mountinfo, &cgroup)?;
    Some(mount.join(path.trim_start_matches('/')))
}

/// The mount point of the `cgroup2` file system in `mountinfo` and this
/// process's path in it from `cgroup` (`/proc/self/...` texts).
pub fn parse_v2_location(mountinfo: &str, cgroup: &str) -> Option<(PathBuf, String)> {
    let mount = cgroup2_mounts(mountinfo).into_iter().next()?;
    let path = cgroup
        .lines()
        .find_map(|l| l.strip_prefix("0::"))?
        .to_string();
    Some((mount, path))
}

/// The mount points of every `cgroup2` file system in `mountinfo` (the text
/// of `/proc/self/mountinfo`).
pub fn cgroup2_mounts(mountinfo: &str) -> Vec<PathBuf> {
    mountinfo
        .lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            (right.split_whitespace().next()? == "cgroup2")
                .then(|| left.split_whitespace().nth(4).map(PathBuf::from))?
        })
        .collect()
}

/// Prepares the v2 folder `own` (this process's cgroup) for bots: makes
/// `own/clue-arena`, and where `memory` or `pids` are delegated to `own`,
/// moves this process into `own/clue-host` (unless `own` is the root of the
/// hierarchy, where processes and controlled children may coexist) and
/// enables them for `clue-arena`'s children. Public for the tests, which
/// try it on a v2 hierarchy of their choosing.
pub fn v2_delegated(own: &Path) -> Hierarchy {
    let base = own.join("clue-arena");
    if !writable(&base) {
        return Hierarchy::None {
            why: format!(
                "{} cannot be made or joined: no v1 controller and no delegated v2 subtree",
                base.display()
            ),
        };
    }
    let offered: BTreeSet<String> = read(own, "cgroup.controllers")
        .split_whitespace()
        .map(String::from)
        .collect();
    let wanted: Vec<&str> = ["memory", "pids"]
        .into_iter()
        .filter(|c| offered.contains(*c))
        .collect();
    if !wanted.is_empty() {
        let is_root = !own.join("cgroup.type").exists();
        if !is_root {
            let host = own.join("clue-host");
            let _ = std::fs::create_dir_all(&host);
            let _ = std::fs::write(host.join("cgroup.procs"), std::process::id().to_string());
        }
        let enable: String = wanted.iter().map(|c| format!("+{c} ")).collect();
        let _ = std::fs::write(own.join("cgroup.subtree_control"), enable.trim());
        let _ = std::fs::write(base.join("cgroup.subtree_control"), enable.trim());
    }
    let enabled = read(&base, "cgroup.subtree_control");
    Hierarchy::V2 {
        controllers: enabled.split_whitespace().map(String::from).collect(),
        base,
    }
}

/// Removes the bots' cgroups in `dir` left by hosts that are no longer
/// running (`bot-<host pid>-<n>`: a host killed, or one that exited with
/// bots still seated, never dropped them). Only empty cgroups can be
/// removed, so one still holding a process stays; a host whose pid was
/// reused keeps its folders until that process ends too.
pub fn sweep_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("bot-"))
            .and_then(|n| n.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new("/proc").join(pid.to_string()).exists() {
            let _ = std::fs::remove_dir(entry.path());
        }
    }
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_default()
}

/// The cgroups of one bot; every process left in them is killed and they
/// are removed when dropped.
pub struct BotCgroups {
    /// v1: one folder per controller; v2: one folder.
    dirs: Vec<PathBuf>,
    v2: bool,
    memory_capped: bool,
    processes_capped: bool,
}

impl BotCgroups {
    /// Makes the cgroups named `name` in `hierarchy` with the caps `memory`
    /// (bytes, swap included) and `processes`. Controllers that cannot be
    /// written are skipped (the fallbacks apply).
    pub fn make(
        hierarchy: &Hierarchy,
        name: &str,
        memory: Option<u64>,
        processes: Option<u64>,
    ) -> BotCgroups {
        let mut out = BotCgroups {
            dirs: Vec::new(),
            v2: false,
            memory_capped: false,
            processes_capped: false,
        };
        let set = |dir: &Path, file: &str, value: Option<u64>| {
            value.is_some_and(|v| std::fs::write(dir.join(file), v.to_string()).is_ok())
        };
        match hierarchy {
            Hierarchy::V1 { controllers } => {
                for &controller in controllers {
                    let dir = Path::new(V1_ROOT)
                        .join(controller)
                        .join("clue-arena")
                        .join(name);
                    if std::fs::create_dir_all(&dir).is_err() {
                        continue;
                    }
                    match controller {
                        "pids" => {
                            out.processes_capped = set(&dir, "pids.max", processes);
                        }
                        "memory" => {
                            out.memory_capped = set(&dir, "memory.limit_in_bytes", memory);
                            set(&dir, "memory.memsw.limit_in_bytes", memory);
                        }
                        _ => {}
                    }
                    out.dirs.push(dir);
                }
            }
            Hierarchy::V2 { base, .. } => {
                let dir = base.join(name);
                if std::fs::create_dir_all(&dir).is_ok() {
                    out.v2 = true;
                    out.memory_capped = set(&dir, "memory.max", memory);
                    set(&dir, "memory.swap.max", memory.map(|_| 0));
                    out.processes_capped = set(&dir, "pids.max", processes);
                    out.dirs.push(dir);
                }
            }
            Hierarchy::None { .. } => {}
        }
        out
    }

    /// `cgroup.procs` of each, open for the child to join them.
    pub fn join_files(&self) -> Vec<OwnedFd> {
        self.dirs
            .iter()
            .filter_map(|c| sys::open_procs(c).ok())
            .collect()
    }

    /// Whether the bot's memory is capped by a cgroup.
    pub fn memory_capped(&self) -> bool {
        self.memory_capped
    }

    /// Whether the bot's processes are capped by a cgroup (`pids.max`).
    pub fn processes_capped(&self) -> bool {
        self.processes_capped
    }

    /// The folders made (v1: one per controller; v2: one).
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Where the bot sees each of its cgroups: `(the mount point of its
    /// hierarchy, the bot's folder in it)`. The bot's root shows its own
    /// folder there and nothing else of the hierarchy (Docker's layout), so
    /// that it cannot read the memory or CPU time of the other bots, nor
    /// signal through them; a JVM still finds its limits as it does in a
    /// container. v1: `/sys/fs/cgroup/<controller>`; v2: the `cgroup2`
    /// mount holding the folder, from `/proc/self/mountinfo`.
    pub fn views(&self) -> Vec<(PathBuf, PathBuf)> {
        let v2_mounts = if self.v2 {
            std::fs::read_to_string("/proc/self/mountinfo")
                .map(|text| cgroup2_mounts(&text))
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        self.dirs
            .iter()
            .filter_map(|dir| {
                let mount = if self.v2 {
                    v2_mounts
                        .iter()
                        .filter(|m| dir.starts_with(m))
                        .max_by_key(|m| m.as_os_str().len())?
                        .clone()
                } else {
                    let controller = dir.strip_prefix(V1_ROOT).ok()?.components().next()?;
                    Path::new(V1_ROOT).join(controller)
                };
                Some((mount, dir.clone()))
            })
            .collect()
    }

    /// CPU seconds of every process of the bot: v1 `cpuacct.usage`, v2
    /// `cpu.stat`'s `usage_usec`.
    pub fn cpu_seconds(&self) -> Option<f64> {
        if self.v2 {
            let text = read(self.dirs.first()?, "cpu.stat");
            return Some(keyed(&text, "usage_usec")? as f64 / 1e6);
        }
        let dir = self
            .dirs
            .iter()
            .find(|d| d.starts_with(Path::new(V1_ROOT).join("cpuacct")))?;
        let nanos: u64 = read(dir, "cpuacct.usage").trim().parse().ok()?;
        Some(nanos as f64 / 1e9)
    }

    /// Whether the memory cgroup reached its cap or the kernel's OOM killer
    /// struck in it: v1 `memory.failcnt` and `memory.oom_control`'s
    /// `oom_kill`, v2 `memory.events`' `max` and `oom_kill`.
    pub fn out_of_memory(&self) -> bool {
        if self.v2 {
            let Some(dir) = self.dirs.first() else {
                return false;
            };
            let events = read(dir, "memory.events");
            return keyed(&events, "max").unwrap_or(0) > 0
                || keyed(&events, "oom_kill").unwrap_or(0) > 0;
        }
        self.dirs
            .iter()
            .filter(|d| d.starts_with(Path::new(V1_ROOT).join("memory")))
            .any(|d| {
                read(d, "memory.failcnt").trim().parse::<u64>().unwrap_or(0) > 0
                    || keyed(&read(d, "memory.oom_control"), "oom_kill").unwrap_or(0) > 0
            })
    }

    /// Kills every process left in the bot's cgroups (v2: `cgroup.kill`
    /// first, Linux 5.14 and later).
    pub fn kill_all(&self) {
        for dir in &self.dirs {
            if self.v2 {
                let _ = std::fs::write(dir.join("cgroup.kill"), "1");
            }
            sys::kill_cgroup(dir);
        }
    }
}

impl Drop for BotCgroups {
    fn drop(&mut self) {
        self.kill_all();
        for dir in &self.dirs {
            // Empty now (or the removal fails and the empty cgroup stays).
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// The number after `key ` on a line of a flat-keyed cgroup file
/// (`cpu.stat`, `memory.events`, `memory.oom_control`).
pub fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_keyed_files_are_read_by_key() {
        let stat = "usage_usec 1500000\nuser_usec 1000000\nsystem_usec 500000\n";
        assert_eq!(keyed(stat, "usage_usec"), Some(1_500_000));
        assert_eq!(keyed(stat, "usage"), None);
        let events = "low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\noom_group_kill 0\n";
        assert_eq!(keyed(events, "max"), Some(12));
        assert_eq!(keyed(events, "oom_kill"), Some(1));
        assert_eq!(keyed("oom_kill_disable 0\nunder_oom 0\n", "oom_kill"), None);
        assert_eq!(keyed("max garbage\n", "max"), None);
        assert_eq!(keyed("", "max"), None);
    }

    #[test]
    fn the_v2_mount_and_the_process_path_are_found() {
        let mountinfo = "\
24 30 0:22 / /sys type sysfs rw shared:7 - sysfs sysfs rw
35 24 0:30 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw,nsdelegate
";
        let cgroup = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/clue.scope\n";
        assert_eq!(
            parse_v2_location(mountinfo, cgroup),
            Some((
                PathBuf::from("/sys/fs/cgroup"),
                "/user.slice/user-1000.slice/user@1000.service/app.slice/clue.scope".into()
            ))
        );
        // A v1-only machine: no cgroup2 mount, or no `0::` line.
        let v1 = "33 24 0:28 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
        assert_eq!(parse_v2_location(v1, cgroup), None);
        assert_eq!(parse_v2_location(mountinfo, "4:memory:/x\n"), None);
    }
}
