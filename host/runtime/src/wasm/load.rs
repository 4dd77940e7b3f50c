//! Loading a component file: read whole (a regular file, within a size),
//! told apart from a core module or a program, compiled or taken from the
//! caches, checked to be a `clue:player` bot of a version this host seats,
//! and asked its name once ([`prepare`]).

use std::path::Path;
use std::sync::Arc;

use clue_plugin_api::wire::Hello;
use wasmtime::component::{Component, types::ComponentItem};

use super::sandbox::HostState;
use super::{
    Instance, Live, WIT_VERSION, WIT_VERSIONS, WIT_VERSIONS_SHOWN, WasmError, WasmLimits, bindings,
    bindings_0_1, cache,
};

/// A checked component of one of the versions, ready to instantiate.
#[derive(Clone)]
pub(super) enum Pre {
    V0_1(bindings_0_1::BotPre<HostState>),
    V0_2(bindings::BotPre<HostState>),
}

/// A loaded, checked component, ready to instantiate.
pub struct Prepared {
    pub(super) pre: Pre,
    /// The `clue:player` version it was built against.
    pub wit_version: &'static str,
    /// The name the bot reports.
    pub name: String,
    /// SHA-256 of the component file, hex.
    pub digest: String,
    /// Whether this load compiled the component or read it from the disk cache
    /// (`None`: it was already loaded in this process).
    pub source: Option<cache::Source>,
}

static MEMO: cache::Memo<Prepared> = cache::Memo::new();

/// The bytes of the component at `path`: a regular file (a FIFO would make
/// the read wait for ever, a device never end) of at most
/// [`MAX_COMPONENT_BYTES`] (else its size, as `Err(Err(bytes))`).
fn read_component(path: &Path) -> Result<Vec<u8>, Result<std::io::Error, u64>> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(Ok)?;
    if !meta.is_file() {
        return Err(Ok(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        )));
    }
    if meta.len() > MAX_COMPONENT_BYTES {
        return Err(Err(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .map_err(Ok)?
        .take(MAX_COMPONENT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(Ok)?;
    if bytes.len() as u64 > MAX_COMPONENT_BYTES {
        return Err(Err(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The preamble of a core WebAssembly module: the magic number, then
/// version 1 (a component's preamble gives version 13, layer 1).
const CORE_MODULE: &[u8] = b"\0asm\x01\0\0\0";

/// The largest component file the host reads, whole, into its memory (the
/// Python example, an interpreter with its standard library, is 18 MiB): a
/// built entrant's file is its author's, and might be any size.
pub const MAX_COMPONENT_BYTES: u64 = 256 << 20;

/// Loads a component file: from this process's memo, the disk cache, or by
/// compiling it. Checks it is a `clue:player` bot of this host's version.
pub fn prepare(path: &Path) -> Result<Arc<Prepared>, WasmError> {
    let shown = path.display().to_string();
    let bytes = read_component(path).map_err(|error| match error {
        Err(bytes) => WasmError::TooLarge {
            path: shown.clone(),
            bytes,
        },
        Ok(error) => WasmError::Read {
            path: shown.clone(),
            error,
        },
    })?;
    let digest = cache::digest(&bytes);
    if let Some(prepared) = MEMO.get(&digest) {
        return Ok(prepared);
    }
    if bytes.starts_with(CORE_MODULE) {
        return Err(WasmError::CoreModule { path: shown });
    }
    if bytes.starts_with(b"\x7fELF") {
        return Err(WasmError::Elf { path: shown });
    }
    let engine = cache::engine().map_err(WasmError::Runtime)?;
    let (component, source) = cache::component(&bytes).map_err(|detail| WasmError::Compile {
        path: shown.clone(),
        detail,
    })?;
    let wit_version = check_version(engine, &component, &shown)?;
    let linker = cache::linker().map_err(WasmError::Runtime)?;
    let instance_pre = linker
        .instantiate_pre(&component)
        .map_err(|e| WasmError::Link {
            path: shown.clone(),
            detail: format!("{e:#}"),
        })?;
    let interface = |e: wasmtime::Error| WasmError::Interface {
        path: shown.clone(),
        theirs: wit_version.to_string(),
        ours: WIT_VERSIONS_SHOWN,
        detail: format!("{e:#}"),
    };
    let pre = if wit_version == WIT_VERSION {
        Pre::V0_2(bindings::BotPre::new(instance_pre).map_err(interface)?)
    } else {
        Pre::V0_1(bindings_0_1::BotPre::new(instance_pre).map_err(interface)?)
    };
    // Instantiate once to ask its name (and, for 0.1, its protocol version).
    let limits = WasmLimits::default();
    let mut live = Live::start(&pre, &limits, 0).map_err(|fault| WasmError::Start {
        path: shown.clone(),
        fault,
    })?;
    let start = |fault| WasmError::Start {
        path: shown.clone(),
        fault,
    };
    let name = live
        .run(&limits, |bot, store| match bot {
            Instance::V0_1(bot) => bot.clue_player_player().call_name(store),
            Instance::V0_2(bot) => bot.clue_player_player().call_name(store),
        })
        .map_err(start)?;
    let protocol = live
        .run(&limits, |bot, store| match bot {
            Instance::V0_1(bot) => bot.clue_player_player().call_protocol(store).map(Some),
            // 0.2 passes nothing as JSON: the WIT version is the whole contract.
            Instance::V0_2(_) => Ok(None),
        })
        .map_err(start)?;
    if let Some(protocol) = protocol {
        let hello = Hello {
            protocol,
            ..Hello::new(name.clone())
        };
        hello.check().map_err(|mismatch| WasmError::Protocol {
            path: shown.clone(),
            mismatch,
        })?;
    }
    let prepared = Arc::new(Prepared {
        pre,
        wit_version,
        name,
        digest: digest.clone(),
        source: Some(source),
    });
    MEMO.insert(
        digest,
        Arc::new(Prepared {
            pre: prepared.pre.clone(),
            wit_version,
            name: prepared.name.clone(),
            digest: prepared.digest.clone(),
            source: None,
        }),
    );
    Ok(prepared)
}

/// Finds the `clue:player/player@VERSION` export and returns which of
/// [`WIT_VERSIONS`] it is compatible with, or refuses it by name.
fn check_version(
    engine: &wasmtime::Engine,
    component: &Component,
    path: &str,
) -> Result<&'static str, WasmError> {
    let ty = component.component_type();
    let found = ty.exports(engine).find_map(|(name, item)| {
        let version = name.strip_prefix("clue:player/player")?;
        matches!(item.ty, ComponentItem::ComponentInstance(_)).then(|| version.to_string())
    });
    let Some(version) = found else {
        return Err(WasmError::NotABot { path: path.into() });
    };
    let theirs = version.strip_prefix('@').unwrap_or("(unversioned)");
    WIT_VERSIONS
        .into_iter()
        .find(|ours| clue_plugin_api::version::compatible(theirs, ours))
        .ok_or_else(|| WasmError::WitVersion {
            path: path.into(),
            theirs: theirs.into(),
            ours: WIT_VERSIONS_SHOWN,
        })
}
