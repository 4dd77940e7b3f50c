//! Native plugins: any [`Player`] as a Rust `cdylib` that the host loads
//! through a stable ABI (`abi_stable`). Enabled by the `native` feature.
//!
//! A bot crate builds as a `cdylib` and exports its player with one line:
//!
//! ```
//! // Cargo.toml: [lib] crate-type = ["cdylib"]
//! //             clue-plugin-api = { version = "0.1", features = ["native"] }
//! use clue_plugin_api::*;
//!
//! #[derive(Default)]
//! struct MyBot;
//!
//! impl Player for MyBot {
//!     fn begin_game(&mut self, _: &Setup) {}
//!     fn accuse(&mut self, _: &AccuseRequest) -> Option<Accusation> { None }
//!     fn move_to(&mut self, request: &MoveRequest) -> Position { request.targets[0] }
//!     fn suggest(&mut self, _: &SuggestRequest) -> Option<Suggestion> { None }
//!     fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
//!         request.matching.first().copied()
//!     }
//! }
//!
//! clue_plugin_api::export_native_player!(MyBot);
//! ```
//!
//! # The FFI surface, and why it is narrow
//!
//! The library exports one root module, [`PluginModule`]: `api_version()` (the
//! plugin-api version the bot was built against) and `new_player()`, a factory
//! of FFI-safe trait objects ([`PlayerBox`]). A player has two methods: `name()`
//! and `call(request) -> reply`, where request and reply are the JSON [`wire`]
//! form, the same documents the process and wasm bridges carry, and the call
//! goes through [`dispatch`] on the plugin side. So the ABI is a handful of
//! `RString`s, the game vocabulary is versioned once (the wire form) rather
//! than twice (wire form and `#[repr(C)]` mirrors of every type), and a change
//! to `Setup` or `Event` never changes the binary layout. The price is one JSON
//! encode and decode per call, measured by `host/cli/benches/native.rs`.
//!
//! Every call into the plugin runs under `catch_unwind`: a panic in the bot
//! becomes [`CallError::Panicked`] carrying the panic message and where it
//! happened, and nothing unwinds across the boundary. A plugin is a `cdylib`
//! with its own copy of `std`, so its panics run its own panic hook: the
//! export installs one that, during a call, only notes the location. The
//! default hook would print the message and, with `RUST_BACKTRACE` set,
//! symbolise a backtrace of the whole process (the host's debug info
//! included), which takes seconds; the host learns everything it reports from
//! the error value.
//!
//! # Versions
//!
//! Two checks run when a host loads a plugin. `abi_stable` compares
//! [`NATIVE_ABI_VERSION`] (the layout generation of [`PluginModule`], bumped only
//! when that layout changes) and checks the layout of every type reachable from
//! the root module. The host then compares `api_version()` with its own
//! plugin-api version under cargo's rules (`0.y` must match `0.y`, `x.*` must
//! match `x.*`), so a bot built against an incompatible plugin-api is refused
//! with an error that names both versions.
//!
//! [`wire`]: crate::wire
//! [`dispatch`]: crate::dispatch

// `#[sabi_trait]` expands to impls inside a function body.
#![allow(non_local_definitions)]

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, PanicHookInfo, catch_unwind};
use std::sync::Once;

pub use abi_stable;
use abi_stable::library::RootModule;
use abi_stable::prefix_type::PrefixTypeTrait;
use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::sabi_types::VersionStrings;
use abi_stable::std_types::{RBox, RResult, RStr, RString};
use abi_stable::{StableAbi, sabi_trait};

use crate::player::{Player, dispatch};
use crate::wire;

/// The layout generation of [`PluginModule`], checked by `abi_stable` when a
/// library is loaded. Bump the minor part (while `0.x`) when the root module or
/// [`FfiPlayer`] changes in a way old hosts cannot read.
pub const NATIVE_ABI_VERSION: &str = "0.1.0";

/// Why a call into a plugin produced no reply.
#[repr(C, u8)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// The bot panicked; the panic message.
    Panicked(RString),
    /// The request could not be decoded (host and plugin disagree on the wire form).
    BadRequest(RString),
}

/// A player inside a plugin, seen through the FFI. Requests and replies are the
/// JSON wire form ([`crate::wire`]).
#[sabi_trait]
pub trait FfiPlayer: Send {
    /// The bot's display name ([`Player::name`]), or the panic message.
    fn name(&self) -> RResult<RString, CallError>;

    /// Answers one encoded [`crate::Request`] with one encoded [`crate::Reply`].
    #[sabi(last_prefix_field)]
    fn call(&mut self, request: RStr<'_>) -> RResult<RString, CallError>;
}

/// An owned player from a plugin.
pub type PlayerBox = FfiPlayer_TO<'static, RBox<()>>;

/// The root module every native plugin exports.
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = PluginModuleRef)))]
#[sabi(missing_field(panic))]
pub struct PluginModule {
    /// The plugin-api version the bot was built against (`crate::wire::API_VERSION`).
    pub api_version: extern "C" fn() -> RString,
    /// A fresh player, one per seat; `Err` if constructing it panicked.
    #[sabi(last_prefix_field)]
    pub new_player: extern "C" fn() -> RResult<PlayerBox, CallError>,
}

impl RootModule for PluginModuleRef {
    abi_stable::declare_root_module_statics! {PluginModuleRef}
    const BASE_NAME: &'static str = "clue_native_player";
    const NAME: &'static str = "clue arena native player";
    const VERSION_STRINGS: VersionStrings = VersionStrings::new(NATIVE_ABI_VERSION);
}

/// Adapts a [`Player`] to [`FfiPlayer`]: decode, [`dispatch`], encode, all
/// under `catch_unwind`.
struct Adapter<P>(P);

impl<P: Player + Send> FfiPlayer for Adapter<P> {
    fn name(&self) -> RResult<RString, CallError> {
        guarded(|| Ok(RString::from(self.0.name())))
    }

    fn call(&mut self, request: RStr<'_>) -> RResult<RString, CallError> {
        guarded(|| {
            let request = wire::decode_request(request.as_str())
                .map_err(|e| CallError::BadRequest(RString::from(e.to_string())))?;
            let reply = dispatch(&mut self.0, &request);
            Ok(RString::from(wire::encode_reply(&reply)))
        })
    }
}

thread_local! {
    /// Whether this thread is inside [`guarded`] (calls may nest: `name` is
    /// asked from within nothing else, but a bot may call itself).
    static IN_CALL: Cell<u32> = const { Cell::new(0) };
    /// Where the last panic inside a call happened, set by the quiet hook.
    static PANIC_AT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs, once per copy of `std`, a panic hook that is silent inside
/// [`guarded`] (it notes the location for the error value) and hands every
/// other panic to the hook that was there before.
fn install_quiet_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info: &PanicHookInfo<'_>| {
            if IN_CALL.with(Cell::get) > 0 {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                PANIC_AT.with(|slot| *slot.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `f`, turning a panic into [`CallError::Panicked`] with its message
/// and location, without printing or symbolising a backtrace.
fn guarded<T>(f: impl FnOnce() -> Result<T, CallError>) -> RResult<T, CallError> {
    install_quiet_hook();
    IN_CALL.with(|depth| depth.set(depth.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(f));
    IN_CALL.with(|depth| depth.set(depth.get() - 1));
    match result {
        Ok(result) => result.into(),
        Err(payload) => {
            let message = panic_message(payload.as_ref());
            let message = match PANIC_AT.with(|slot| slot.borrow_mut().take()) {
                Some(at) => format!("{message} (at {at})"),
                None => message,
            };
            RResult::RErr(CallError::Panicked(RString::from(message)))
        }
    }
}

/// The text of a panic payload (`panic!("...")` carries a `&str` or a `String`).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}

extern "C" fn api_version() -> RString {
    RString::from(wire::API_VERSION)
}

extern "C" fn new_player<P: Player + Default + Send + 'static>() -> RResult<PlayerBox, CallError> {
    guarded(|| Ok(FfiPlayer_TO::from_value(Adapter(P::default()), TD_Opaque)))
}

/// The root module of a plugin whose players are `P::default()`. Used by
/// [`export_native_player!`](crate::export_native_player); leaks one small
/// module per library, once.
pub fn module_for<P: Player + Default + Send + 'static>() -> PluginModuleRef {
    PluginModule {
        api_version,
        new_player: new_player::<P>,
    }
    .leak_into_prefix()
}

/// Exports `$player` (a type implementing [`Player`] + [`Default`] + [`Send`])
/// as this `cdylib`'s native plugin. Use it once per library, in a crate built
/// with `crate-type = ["cdylib"]` (or `["rlib", "cdylib"]`).
///
/// It does what `#[abi_stable::export_root_module]` does, spelled out so that
/// the bot crate needs no direct `abi_stable` dependency.
#[macro_export]
macro_rules! export_native_player {
    ($player:ty) => {
        const _: () = {
            fn __clue_native_root_module() -> $crate::native::PluginModuleRef {
                $crate::native::module_for::<$player>()
            }

            extern "C" fn __clue_native_erased_module()
            -> $crate::native::abi_stable::library::RootModuleResult {
                $crate::native::abi_stable::library::__call_root_module_loader(
                    __clue_native_root_module,
                )
            }

            /// The library header `abi_stable` looks up: the same static
            /// `#[export_root_module]` emits (its name is
            /// `abi_stable::library::ROOT_MODULE_LOADER_NAME`).
            #[unsafe(export_name = "_1as_0lib_1header_0root_bmodule_bloader")]
            static __CLUE_NATIVE_LIB_HEADER: $crate::native::abi_stable::library::LibHeader =
                // SAFETY: `__call_root_module_loader` erases the
                // `PluginModuleRef` that `__clue_native_root_module` returns,
                // which is exactly what `from_constructor::<PluginModuleRef>`
                // requires (this is the expansion of `#[export_root_module]`).
                unsafe {
                    $crate::native::abi_stable::library::LibHeader::from_constructor::<
                        $crate::native::PluginModuleRef,
                    >(
                        __clue_native_erased_module,
                        $crate::native::abi_stable::library::CheckTypeLayout::Yes,
                    )
                };
        };
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::{Reply, Request, RespondRequest, Suggestion};
    use crate::{Card, Seat};

    #[derive(Default)]
    struct Shows;

    impl Player for Shows {
        fn begin_game(&mut self, _: &crate::Setup) {}
        fn accuse(&mut self, _: &crate::AccuseRequest) -> Option<crate::Accusation> {
            None
        }
        fn move_to(&mut self, request: &crate::MoveRequest) -> crate::Position {
            request.targets[0]
        }
        fn suggest(&mut self, _: &crate::SuggestRequest) -> Option<Suggestion> {
            panic!("no suggestions today")
        }
        fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
            request.matching.first().copied()
        }
    }

    fn respond() -> Request {
        Request::Respond(RespondRequest {
            suggester: Seat(1),
            suggestion: Suggestion {
                cards: vec![Card(0), Card(6), Card(12)],
                target: None,
            },
            matching: vec![Card(6)],
        })
    }

    #[test]
    fn a_call_goes_through_the_wire_form() {
        let module = module_for::<Shows>();
        assert_eq!(module.api_version()().as_str(), wire::API_VERSION);
        let mut player = module.new_player()().unwrap();
        assert_eq!(player.name().unwrap().as_str(), "Shows");
        let reply = player
            .call(RStr::from(wire::encode_request(&respond()).as_str()))
            .unwrap();
        assert_eq!(
            wire::decode_reply(&reply).unwrap(),
            Reply::Respond {
                card: Some(Card(6))
            }
        );
    }

    #[test]
    fn a_panic_becomes_an_error_with_its_message() {
        let mut player = module_for::<Shows>().new_player()().unwrap();
        let request = Request::Suggest(crate::SuggestRequest {
            turn: crate::Turn {
                seat: Seat(0),
                round: 1,
                roll: None,
                position: None,
                room: None,
            },
            optional: false,
            opponents: vec![],
        });
        let result = player.call(RStr::from(wire::encode_request(&request).as_str()));
        let Err(CallError::Panicked(message)) = result.into_result() else {
            panic!("a panicking call must come back as CallError::Panicked");
        };
        // The message, then where the bot panicked (this file).
        assert!(
            message.starts_with("no suggestions today (at ")
                && message.contains("native.rs:")
                && message.ends_with(')'),
            "{message}"
        );
    }

    #[test]
    fn an_undecodable_request_is_a_bad_request() {
        let mut player = module_for::<Shows>().new_player()().unwrap();
        let result = player.call(RStr::from("{\"request\":\"dance\"}"));
        assert!(matches!(
            result.into_result(),
            Err(CallError::BadRequest(_))
        ));
    }

    #[test]
    fn the_abi_version_has_the_api_major_part() {
        let major = |v: &str| -> String {
            let mut parts = v.split('.');
            let first = parts.next().unwrap_or_default().to_string();
            if first == "0" {
                format!("0.{}", parts.next().unwrap_or_default())
            } else {
                first
            }
        };
        assert_eq!(major(NATIVE_ABI_VERSION), major(wire::API_VERSION));
    }

    #[test]
    fn the_exported_symbol_is_the_one_abi_stable_looks_up() {
        // The literal in `export_native_player!` must follow abi_stable's name.
        let source = include_str!("native.rs");
        let literal = format!(
            "export_name = \"{}\"",
            abi_stable::library::ROOT_MODULE_LOADER_NAME
        );
        assert!(source.contains(&literal));
    }
}
