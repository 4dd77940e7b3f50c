//! The bounds of everything a request may ask for, checked before anything
//! is allocated for it (docs/web.md lists them). A request past one is
//! refused with 422 and a message naming the limit.

use super::ApiError;
use super::api::StartRequest;

/// The largest request body, in bytes (an uploaded board's two files fit).
pub const MAX_BODY: usize = 256 * 1024;
/// The largest uploaded layout or setup file, in bytes.
pub const MAX_UPLOAD: usize = 64 * 1024;
/// The widest `framework` board (`width` x `width` cells, `width` rooms).
pub const MAX_WIDTH: u16 = 40;
/// The most `generalized` items.
pub const MAX_ITEMS: u16 = 128;
/// The most rounds a game may be set to last.
pub const MAX_ROUNDS: u32 = 1000;
/// The longest bot spec.
pub const MAX_SPEC: usize = 1024;
/// The most games in play at once; one more is refused (429) until one ends.
pub const MAX_GAMES: usize = 16;

/// Refuses a start request past any of the limits, naming it.
pub fn check(request: &StartRequest) -> Result<(), ApiError> {
    let over = |what: &str, value: u64, max: u64| {
        Err(ApiError::bad(format!(
            "{what} {value} is over the limit of {max}"
        )))
    };
    if let Some(width) = request.width
        && width > MAX_WIDTH
    {
        return over("width", width.into(), MAX_WIDTH.into());
    }
    if let Some(items) = request.items
        && items > MAX_ITEMS
    {
        return over("items", items.into(), MAX_ITEMS.into());
    }
    if let Some(hidden) = request.hidden
        && hidden > MAX_ITEMS
    {
        return over("hidden", hidden.into(), MAX_ITEMS.into());
    }
    if let Some(rounds) = request.max_rounds
        && rounds > MAX_ROUNDS
    {
        return over("max_rounds", rounds.into(), MAX_ROUNDS.into());
    }
    for upload in [&request.layout, &request.setup].into_iter().flatten() {
        let size = upload.text.len() + upload.name.len();
        if size > MAX_UPLOAD {
            return Err(ApiError::bad(format!(
                "uploaded file `{}` is {size} bytes, over the limit of {MAX_UPLOAD}",
                short(&upload.name)
            )));
        }
    }
    for (i, spec) in request.bots.iter().enumerate() {
        if spec.len() > MAX_SPEC {
            return Err(ApiError::bad(format!(
                "bot {}: its spec is {} bytes, over the limit of {MAX_SPEC}",
                i + 1,
                spec.len()
            )));
        }
    }
    Ok(())
}

/// A name cut short enough to quote in a message.
fn short(name: &str) -> String {
    name.chars().take(80).collect()
}

/// The places for games in play: a [`Slot`] is taken when a game starts and
/// given back when its thread ends.
#[derive(Debug, Default)]
pub struct Slots(std::sync::Arc<std::sync::atomic::AtomicUsize>);

/// One game's place; given back on drop.
#[derive(Debug)]
pub struct Slot(std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl Slots {
    /// A place, unless [`MAX_GAMES`] are taken.
    pub fn take(&self) -> Option<Slot> {
        use std::sync::atomic::Ordering;
        self.0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < MAX_GAMES).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(self.0.clone()))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}
