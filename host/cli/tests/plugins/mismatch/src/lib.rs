//! A plugin that says it was built against plugin-api 0.0.9: its root module
//! is assembled by hand instead of by `export_native_player!`.

use abi_stable::export_root_module;
use abi_stable::prefix_type::PrefixTypeTrait;
use abi_stable::std_types::{RResult, RString};
use clue_plugin_api::native::{CallError, PlayerBox, PluginModule, PluginModuleRef};

extern "C" fn api_version() -> RString {
    RString::from("0.0.9")
}

extern "C" fn new_player() -> RResult<PlayerBox, CallError> {
    RResult::RErr(CallError::Panicked("never asked".into()))
}

#[export_root_module]
pub fn root() -> PluginModuleRef {
    PluginModule {
        api_version,
        new_player,
    }
    .leak_into_prefix()
}
