//! Example bots in other languages, compiled once and kept between test runs
//! in cargo's scratch directory for integration tests, keyed by the source's
//! content, so a test run leaves nothing in `/tmp` and an edited source is
//! rebuilt.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// The directory holding `source` built by `build(source, into)`, building
/// it first if this content has not been built yet. Concurrent test
/// processes may race to build; the first to finish wins, the others'
/// copies are dropped.
pub fn cached(source: &Path, build: impl FnOnce(&Path, &Path)) -> PathBuf {
    let text = std::fs::read(source).expect("the example's source is readable");
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    let stem = source
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("example");
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let done = root.join(format!("{stem}-{:016x}", hasher.finish()));
    if done.is_dir() {
        return done;
    }
    let fresh = tempfile::Builder::new()
        .prefix(&format!("{stem}-building-"))
        .tempdir_in(root)
        .expect("a scratch directory under CARGO_TARGET_TMPDIR");
    build(source, fresh.path());
    // A failed rename means another process finished first: use its copy.
    let _ = std::fs::rename(fresh.path(), &done);
    done
}
