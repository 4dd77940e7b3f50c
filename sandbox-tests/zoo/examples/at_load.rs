//! The `at-load` bot as a native plugin (or a wasm component, where it has
//! nothing to do): its misdeeds are in an ELF constructor, run when the
//! library is loaded, before the host calls it at all.
zoo::export!(zoo::Behaviour::AtLoad);

#[cfg(not(target_arch = "wasm32"))]
#[used]
#[unsafe(link_section = ".init_array")]
static AT_LOAD: extern "C" fn() = zoo::at_load;
