//! A plugin whose root module has the right name and version but another
//! layout: `abi_stable`'s layout check must refuse it.

use abi_stable::library::RootModule;
use abi_stable::prefix_type::PrefixTypeTrait;
use abi_stable::sabi_types::VersionStrings;
use abi_stable::std_types::RString;
use abi_stable::{StableAbi, export_root_module};

#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = PluginModuleRef)))]
#[sabi(missing_field(panic))]
pub struct PluginModule {
    pub api_version: extern "C" fn() -> RString,
    #[sabi(last_prefix_field)]
    pub new_player: extern "C" fn() -> u32,
}

impl RootModule for PluginModuleRef {
    abi_stable::declare_root_module_statics! {PluginModuleRef}
    const BASE_NAME: &'static str = "clue_native_player";
    const NAME: &'static str = "clue arena native player";
    const VERSION_STRINGS: VersionStrings =
        VersionStrings::new(clue_plugin_api::native::NATIVE_ABI_VERSION);
}

extern "C" fn api_version() -> RString {
    RString::from(clue_plugin_api::wire::API_VERSION)
}

extern "C" fn new_player() -> u32 {
    7
}

#[export_root_module]
pub fn root() -> PluginModuleRef {
    PluginModule {
        api_version,
        new_player,
    }
    .leak_into_prefix()
}
