//! One wasmtime [`Engine`] per host, its epoch watchdog, the WASI linker, and
//! compiled components cached on disk keyed by the module's SHA-256 and the
//! engine's compatibility hash (which covers the wasmtime version and every
//! setting that shapes compiled code), kept to a size by dropping the least
//! recently used. The one `unsafe` of the runtime lives here.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};
use wasmtime::component::{Component, Linker, Resource};
use wasmtime::{Config, Engine};
use wasmtime_wasi::p2::DynPollable;

use super::sandbox::HostState;

/// How often the watchdog advances the engine's epoch: the resolution of the
/// wall-clock backstop.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

struct Shared {
    engine: Engine,
    linker: Linker<HostState>,
}

static SHARED: OnceLock<Result<Shared, String>> = OnceLock::new();

fn shared() -> Result<&'static Shared, String> {
    SHARED
        .get_or_init(|| {
            let mut config = Config::new();
            config.consume_fuel(true);
            config.epoch_interruption(true);
            let engine = Engine::new(&config).map_err(|e| format!("{e:#}"))?;
            let mut linker = Linker::new(&engine);
            wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(|e| format!("{e:#}"))?;
            no_sleeping(&mut linker).map_err(|e| format!("{e:#}"))?;
            charged_poll(&mut linker).map_err(|e| format!("{e:#}"))?;
            let ticker = engine.clone();
            std::thread::Builder::new()
                .name("clue-wasm-epoch".into())
                .spawn(move || {
                    loop {
                        std::thread::sleep(EPOCH_TICK);
                        ticker.increment_epoch();
                    }
                })
                .map_err(|e| format!("cannot start the wasm watchdog: {e}"))?;
            Ok(Shared { engine, linker })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Replaces WASI's timers (`subscribe-duration`, `subscribe-instant`) with
/// pollables that are ready at once. WASI would sleep on the host's clock,
/// where the epoch cannot interrupt it; here a bot's sleep returns at once,
/// like its clock, which only counts (see `sandbox`).
fn no_sleeping(linker: &mut Linker<HostState>) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    let mut clock = linker.instance("wasi:clocks/monotonic-clock@0.2.12")?;
    clock.func_wrap("subscribe-duration", |mut store, (_,): (u64,)| {
        Ok((store.data_mut().ready_pollable()?,))
    })?;
    clock.func_wrap("subscribe-instant", |mut store, (_,): (u64,)| {
        Ok((store.data_mut().ready_pollable()?,))
    })?;
    linker.allow_shadowing(false);
    Ok(())
}

/// Replaces WASI's `poll`, which does host work per entry of its list, with
/// one charged by that length (`sandbox::POLL_ENTRY_FUEL`).
fn charged_poll(linker: &mut Linker<HostState>) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    let mut poll = linker.instance("wasi:io/poll@0.2.12")?;
    poll.func_wrap(
        "poll",
        |mut store, (pollables,): (Vec<Resource<DynPollable>>,)| {
            Ok((store.data_mut().poll(pollables)?,))
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

/// The host's one engine (fuel and epoch interruption on).
pub fn engine() -> Result<&'static Engine, String> {
    shared().map(|s| &s.engine)
}

/// WASI p2 for [`HostState`], shared by every bot.
pub fn linker() -> Result<&'static Linker<HostState>, String> {
    shared().map(|s| &s.linker)
}

/// Where compiled components are kept: `$CLUE_WASM_CACHE`, else
/// `$XDG_CACHE_HOME/clue-arena/wasm`, else `~/.cache/clue-arena/wasm`, else
/// `clue-arena-UID/wasm` in the temporary directory (a folder per user: one
/// that another user made first is not [`trusted`], and would only cost
/// this user its cache).
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CLUE_WASM_CACHE") {
        return PathBuf::from(dir);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")));
    match base {
        Some(base) => base.join("clue-arena").join("wasm"),
        None => std::env::temp_dir()
            .join(format!("clue-arena-{}", crate::sandbox::host_uid()))
            .join("wasm"),
    }
}

/// Whether a file of the cache can only have been written by this user or
/// by root, so that loading it runs no one else's code (a compiled
/// component is mapped executable as it is read). The file must be this
/// user's and writable by no one else; every folder above it (links
/// resolved) this user's or root's, and writable by no one else unless it
/// is sticky, as `/tmp` is, where others cannot rename or replace what is
/// ours. A cache folder that fails this is neither read nor written: every
/// load compiles, which costs time, not safety.
pub fn trusted(path: &Path) -> bool {
    trusted_by(path, crate::sandbox::host_uid())
}

fn trusted_by(path: &Path, me: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(real) = path.canonicalize() else {
        return false;
    };
    real.ancestors().enumerate().all(|(depth, at)| {
        let Ok(meta) = std::fs::metadata(at) else {
            return false;
        };
        let others_write = meta.mode() & 0o022 != 0;
        let sticky = meta.mode() & 0o1000 != 0;
        if depth == 0 {
            meta.uid() == me && !others_write
        } else {
            (meta.uid() == me || meta.uid() == 0) && (!others_write || sticky)
        }
    })
}

/// How a component was obtained, for tests and the benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Compiled now (and written to the cache).
    Compiled,
    /// Read back from the disk cache.
    Disk,
}

/// What the disk cache holds at most by default, in bytes. A compiled
/// interpreter (a Python or JavaScript bot) takes 10 to 30 MB, and those
/// builds are not reproducible: every rebuild is a new file. Without a cap,
/// a machine that rebuilt such bots often kept gigabytes (5.4 GB in 413
/// files here, after a day of tests).
pub const DEFAULT_CACHE_BYTES: u64 = 2 << 30;

static CACHE_BYTES: AtomicU64 = AtomicU64::new(DEFAULT_CACHE_BYTES);

/// Sets what the disk cache holds at most (`clue` reads it from
/// `CLUE_WASM_CACHE_MIB`).
pub fn set_cache_bytes(bytes: u64) {
    CACHE_BYTES.store(bytes, Ordering::Relaxed);
}

/// The compiled component for `bytes`: from the disk cache when there (and
/// [`trusted`]), else compiled and stored. A cache file that does not load
/// (another wasmtime, a torn write) is recompiled and replaced. A file read
/// is marked used (its modification time), and after a store the least
/// recently used files go until the cache is within its size
/// ([`set_cache_bytes`]).
pub fn component(bytes: &[u8]) -> Result<(Component, Source), String> {
    component_in(&cache_dir(), bytes)
}

/// [`component`] with the cache in `dir`.
pub fn component_in(dir: &Path, bytes: &[u8]) -> Result<(Component, Source), String> {
    component_within(dir, bytes, CACHE_BYTES.load(Ordering::Relaxed))
}

/// [`component_in`] with a cache of at most `limit` bytes.
fn component_within(dir: &Path, bytes: &[u8], limit: u64) -> Result<(Component, Source), String> {
    let engine = engine()?;
    let path = cache_path_in(dir, engine, bytes);
    let exists = path.exists();
    let usable = exists && trusted(&path);
    if exists && !usable {
        tracing::warn!(
            path = %path.display(),
            "a compiled component in the wasm cache could have been written by another user: \
             not loaded (the cache folder and the folders above it must be this user's or \
             root's and writable by no one else); compiling instead"
        );
    }
    if usable && let Ok(cached) = std::fs::read(&path) {
        // SAFETY: `Component::deserialize` trusts its input to be a component
        // this wasmtime compiled: the bytes are mapped executable. The file
        // was written by `store` below from `Component::serialize` into a
        // directory of this host's cache, under a name that includes the
        // SHA-256 of the module and the engine's compatibility hash; wasmtime
        // itself also checks the version and settings in the header and
        // returns an error (we then recompile) on any mismatch. `trusted`
        // has checked that no one but this user (or root) can have written
        // the file or replaced it or a folder above it.
        if let Ok(component) = unsafe { Component::deserialize(engine, &cached) } {
            mark_used(&path);
            return Ok((component, Source::Disk));
        }
    }
    let Some((program, limits)) = super::compile::worker() else {
        let component = Component::new(engine, bytes)
            .map_err(|e| super::compile::one_line(&format!("{e:#}")))?;
        if let Ok(serialized) = component.serialize() {
            store(&path, &serialized, limit);
        }
        return Ok((component, Source::Compiled));
    };
    let compiled = super::compile::in_worker(program, limits, bytes)?;
    // SAFETY: as above, `Component::deserialize` maps these bytes executable.
    // They are what `Engine::precompile_component` of this same binary, with
    // this engine's settings, made in the compile worker; wasmtime checks
    // the header's version and settings. A worker subverted as it compiled
    // (a compiler bug its input exploits) could hand back code of its own,
    // but compiling in the host would have handed such a bug the host
    // itself: this trusts the compiler no more than that did, and keeps its
    // time and memory out of the host.
    let component = unsafe { Component::deserialize(engine, &compiled) }
        .map_err(|e| format!("its compile worker's output does not load: {e:#}"))?;
    store(&path, &compiled, limit);
    Ok((component, Source::Compiled))
}

/// Marks a cache file as just used: its modification time is now (what
/// [`evict`] orders by; access times are often not kept).
fn mark_used(path: &Path) {
    let _ = set_modified(path, SystemTime::now());
}

fn set_modified(path: &Path, time: SystemTime) -> std::io::Result<()> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)?
        .set_modified(time)
}

/// Removes the least recently used compiled components of the cache folder
/// `dir` (by modification time) until the rest hold at most `limit` bytes,
/// never `keep` (the file just written), and a write some host left behind
/// (`*.tmpPID`) once it is an hour old. Another host may remove a file this
/// one is about to read: that read fails and the component is compiled
/// again, which costs time only.
fn evict(dir: &Path, limit: u64, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    let mut files = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        // Not through links: only the cache's own files.
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_file() {
            continue;
        }
        let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if extension.starts_with("tmp") {
            let age = now.duration_since(modified).unwrap_or_default();
            if age > Duration::from_secs(3600) {
                let _ = std::fs::remove_file(&path);
            }
            continue;
        }
        if extension == "cwasm" {
            files.push((modified, meta.len(), path));
        }
    }
    let mut total: u64 = files.iter().map(|(_, len, _)| len).sum();
    files.sort();
    for (_, len, path) in files {
        if total <= limit {
            break;
        }
        if path != keep && std::fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
}

/// Writes a cache file atomically (a new file of this user's only, then a
/// rename), and only into a [`trusted`] folder, made this user's only if it
/// is new; a cache that cannot be written only costs a recompile next time.
/// Then keeps the folder within `limit` bytes ([`evict`]).
fn store(path: &Path, bytes: &[u8], limit: u64) {
    use std::io::Write;
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    let Some(dir) = path.parent() else { return };
    if std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .is_err()
        || !trusted(dir)
    {
        return;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    // `create_new`: never through a link or into a file someone left there.
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .and_then(|mut file| file.write_all(bytes));
    if written.is_err() || std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
        return;
    }
    evict(dir, limit, path);
}

/// `<cache>/<sha256 of the module>-<engine compatibility hash>.cwasm`.
pub fn cache_path(engine: &Engine, bytes: &[u8]) -> PathBuf {
    cache_path_in(&cache_dir(), engine, bytes)
}

/// [`cache_path`] in the cache folder `dir`.
pub fn cache_path_in(dir: &Path, engine: &Engine, bytes: &[u8]) -> PathBuf {
    let mut compat = DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut compat);
    // The compatibility hash covers wasmtime's own version (its
    // `module_version`), the target and every compilation setting.
    dir.join(format!("{}-{:016x}.cwasm", digest(bytes), compat.finish()))
}

/// The module's SHA-256, hex.
pub fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Per-process memo of prepared bots by module digest, so a tournament loads
/// each file's component once, not once per game.
pub struct Memo<T> {
    map: Mutex<BTreeMap<String, Arc<T>>>,
}

impl<T> Default for Memo<T> {
    fn default() -> Memo<T> {
        Memo::new()
    }
}

impl<T> Memo<T> {
    pub const fn new() -> Memo<T> {
        Memo {
            map: Mutex::new(BTreeMap::new()),
        }
    }

    pub fn get(&self, key: &str) -> Option<Arc<T>> {
        self.map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .cloned()
    }

    pub fn insert(&self, key: String, value: Arc<T>) {
        self.map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::Permissions;
    use std::os::unix::fs::PermissionsExt;

    /// A component with nothing in it but a custom section named `tag`: two
    /// tags are two components, with two digests.
    fn component_bytes(tag: &str) -> Vec<u8> {
        let mut bytes = b"\0asm\x0d\x00\x01\x00".to_vec();
        bytes.push(0);
        bytes.push(u8::try_from(tag.len() + 1).expect("a short tag"));
        bytes.push(u8::try_from(tag.len()).expect("a short tag"));
        bytes.extend_from_slice(tag.as_bytes());
        bytes
    }

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, Permissions::from_mode(mode)).expect("chmod");
    }

    /// Another user who can write the cache folder plants a compiled
    /// component of their own under the name of one we load: the host would
    /// map their machine code executable and run it.
    #[test]
    fn a_compiled_component_someone_else_could_have_written_is_not_loaded() {
        let root = tempfile::tempdir().expect("a temporary folder");
        let dir = root.path().join("wasm");
        let engine = engine().expect("the engine starts");
        let (ours, theirs) = (component_bytes("ours"), component_bytes("theirs"));
        let (planted, source) = component_in(&dir, &theirs).expect("compiles");
        assert_eq!(source, Source::Compiled);
        let path = cache_path_in(&dir, engine, &ours);
        std::fs::write(&path, planted.serialize().expect("serializes")).expect("plants");
        chmod(&path, 0o600);
        let planted = std::fs::read(&path).expect("reads");

        // In a folder only this user can write, the cache is believed: the
        // file there is loaded, whatever it holds.
        assert_eq!(component_in(&dir, &ours).expect("loads").1, Source::Disk);

        // Writable by others: compiled instead, and the folder is not written.
        chmod(&dir, 0o777);
        assert_eq!(
            component_in(&dir, &ours).expect("compiles").1,
            Source::Compiled
        );
        assert_eq!(std::fs::read(&path).expect("reads"), planted);
        // The same through a link to it from a folder of our own.
        let link = root.path().join("link");
        std::os::unix::fs::symlink(&dir, &link).expect("links");
        assert!(!trusted(&link.join(path.file_name().expect("a name"))));

        // Sticky, as /tmp is: others cannot replace what is ours in it.
        chmod(&dir, 0o1777);
        assert_eq!(component_in(&dir, &ours).expect("loads").1, Source::Disk);

        // The file itself writable by others, or a folder above the cache.
        chmod(&dir, 0o700);
        chmod(&path, 0o666);
        assert!(!trusted(&path));
        chmod(&path, 0o600);
        chmod(root.path(), 0o777);
        assert!(!trusted(&path));
        chmod(root.path(), 0o700);
        assert!(trusted(&path));

        // Someone else's file, in folders that are ours.
        let me = crate::sandbox::host_uid();
        assert!(trusted_by(&path, me));
        assert!(!trusted_by(&path, me.wrapping_add(1)));
        assert!(!trusted(&root.path().join("no-such-file")));
    }

    /// The cache keeps to its size: the least recently used files go first
    /// (a file read counts as used), never the one just written; writes
    /// left behind go once they are an hour old.
    #[test]
    fn the_cache_keeps_to_its_size_by_dropping_the_least_recently_used() {
        let root = tempfile::tempdir().expect("a temporary folder");
        let dir = root.path().join("wasm");
        let engine = engine().expect("the engine starts");
        let unlimited = u64::MAX;
        let [a, b, c] = ["a", "b", "c"].map(component_bytes);
        let path = |bytes: &[u8]| cache_path_in(&dir, engine, bytes);
        let age = |path: &Path, seconds: u64| {
            set_modified(path, SystemTime::now() - Duration::from_secs(seconds))
                .expect("sets the time");
        };
        for bytes in [&a, &b] {
            let source = component_within(&dir, bytes, unlimited).expect("compiles");
            assert_eq!(source.1, Source::Compiled);
        }
        age(&path(&a), 200);
        age(&path(&b), 100);
        // Reading `a` makes it the most recently used.
        let read = component_within(&dir, &a, unlimited).expect("loads");
        assert_eq!(read.1, Source::Disk);
        let leftover = dir.join("x.cwasm.tmp4242");
        let recent = dir.join("y.cwasm.tmp4243");
        std::fs::write(&leftover, b"torn").expect("writes");
        std::fs::write(&recent, b"being written").expect("writes");
        age(&leftover, 7200);
        let size = |bytes: &[u8]| std::fs::metadata(path(bytes)).expect("there").len();
        // Room for two of the three: `b`, the least recently used, goes.
        let limit = size(&a) + size(&b) + 1;
        let stored = component_within(&dir, &c, limit).expect("compiles");
        assert_eq!(stored.1, Source::Compiled);
        assert!(path(&a).exists() && path(&c).exists());
        assert!(!path(&b).exists(), "the least recently used file stays");
        assert!(!leftover.exists() && recent.exists());
        // A limit below the one file just written keeps that file.
        let again = component_within(&dir, &b, 1).expect("compiles");
        assert_eq!(again.1, Source::Compiled);
        assert!(path(&b).exists());
        assert!(!path(&a).exists() && !path(&c).exists());
    }

    /// A new cache folder is this user's alone, and so are its files.
    #[test]
    fn the_cache_folder_and_files_it_makes_are_this_users_only() {
        use std::os::unix::fs::MetadataExt;
        let root = tempfile::tempdir().expect("a temporary folder");
        let dir = root.path().join("a").join("wasm");
        let bytes = component_bytes("made");
        assert_eq!(
            component_in(&dir, &bytes).expect("compiles").1,
            Source::Compiled
        );
        let path = cache_path_in(&dir, engine().expect("engine"), &bytes);
        assert_eq!(std::fs::metadata(&dir).expect("made").mode() & 0o777, 0o700);
        assert_eq!(
            std::fs::metadata(&path).expect("written").mode() & 0o777,
            0o600
        );
        assert_eq!(component_in(&dir, &bytes).expect("loads").1, Source::Disk);
    }
}
