//! One wasmtime [`Engine`] per host, its epoch watchdog, the WASI linker, and
//! compiled components cached on disk keyed by the module's SHA-256 and the
//! engine's compatibility hash (which covers the wasmtime version and every
//! setting that shapes compiled code). The one `unsafe` of the runtime lives
//! here.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use sha2::{Digest, Sha256};
use wasmtime::component::{Component, Linker};
use wasmtime::{Config, Engine};

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
/// the temporary directory.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CLUE_WASM_CACHE") {
        return PathBuf::from(dir);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("clue-arena").join("wasm")
}

/// How a component was obtained, for tests and the benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Compiled now (and written to the cache).
    Compiled,
    /// Read back from the disk cache.
    Disk,
}

/// The compiled component for `bytes`: from the disk cache when there, else
/// compiled and stored. A cache file that does not load (another wasmtime, a
/// torn write) is recompiled and replaced.
pub fn component(bytes: &[u8]) -> Result<(Component, Source), String> {
    let engine = engine()?;
    let path = cache_path(engine, bytes);
    if let Ok(cached) = std::fs::read(&path) {
        // SAFETY: `Component::deserialize` trusts its input to be a component
        // this wasmtime compiled: the bytes are mapped executable. The file
        // was written by `store` below from `Component::serialize` into a
        // directory of this host's cache, under a name that includes the
        // SHA-256 of the module and the engine's compatibility hash; wasmtime
        // itself also checks the version and settings in the header and
        // returns an error (we then recompile) on any mismatch. Whoever can
        // write the cache directory can already run code as this user.
        if let Ok(component) = unsafe { Component::deserialize(engine, &cached) } {
            return Ok((component, Source::Disk));
        }
    }
    let component = Component::new(engine, bytes).map_err(|e| format!("{e:#}"))?;
    if let Ok(serialized) = component.serialize() {
        store(&path, &serialized);
    }
    Ok((component, Source::Compiled))
}

/// Writes a cache file atomically (a temporary name, then a rename); a cache
/// that cannot be written only costs a recompile next time.
fn store(path: &Path, bytes: &[u8]) {
    let Some(dir) = path.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&tmp, bytes).is_ok() && std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// `<cache>/<sha256 of the module>-<engine compatibility hash>.cwasm`.
pub fn cache_path(engine: &Engine, bytes: &[u8]) -> PathBuf {
    let mut compat = DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut compat);
    // The compatibility hash covers wasmtime's own version (its
    // `module_version`), the target and every compilation setting.
    cache_dir().join(format!("{}-{:016x}.cwasm", digest(bytes), compat.finish()))
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
