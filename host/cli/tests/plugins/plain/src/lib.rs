//! A shared library that is not a plugin: it exports no root module.

#[unsafe(no_mangle)]
pub extern "C" fn plain_answer() -> u32 {
    42
}
