//! What a wasm bot's store holds: a capability-less WASI context (no files,
//! network, environment or arguments), seeded randomness, clocks that only
//! count, captured and capped stdout/stderr, and the resource limits.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use wasmtime::component::Resource;
use wasmtime::{CallHook, ResourceLimiter, StoreContextMut, StoreLimits, StoreLimitsBuilder, Trap};
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;
use wasmtime_wasi::p2::{
    DynPollable, OutputStream, Pollable, StreamError, StreamResult, subscribe,
};
use wasmtime_wasi::{
    HostMonotonicClock, HostWallClock, ResourceTable, WasiCtx, WasiCtxBuilder, WasiCtxView,
    WasiView,
};

use super::WasmLimits;

/// Fuel a call from the guest into the host costs (a WASI function, or one
/// of wasmtime's own helpers such as a `memory.copy` of a length known only
/// at run time), on top of the operators that make it. Host work burns no
/// fuel by itself: without a charge, a bot looping over clock reads burned
/// its 5e9 fuel in 5.9 s of wall time where a compute loop takes 0.2 s,
/// so a slower or busier machine would stop it by the wall clock instead
/// (`timeout`, not `out-of-fuel`), and a bot doing a bounded number of such
/// calls could finish on one machine and time out on another. A host call
/// costs some 0.1 to 0.3 microseconds here; 1,000 fuel is a microsecond at
/// [`super::FUEL_PER_SECOND`], so fuel runs out before the time limit for
/// such a loop too. A bot making ordinary use of WASI makes a few calls a
/// move.
pub const HOST_CALL_FUEL: u64 = 1_000;

/// Fuel per byte of host work whose size the guest sets and no cap bounds
/// per call: random bytes (`get-random-bytes` of up to the memory limit
/// each call). Output is capped per call ([`WasmLimits::output_per_call`]).
pub const HOST_BYTE_FUEL: u64 = 1;

/// Fuel per pollable a guest lists in one `wasi:io/poll.poll`: the host
/// looks up and polls each entry, so a guest naming one pollable 90,000
/// times in a loop of such calls held a call for the whole wall-clock
/// backstop (16 s) on 1,000 fuel a call. Measured here: about 0.1
/// microseconds an entry; this charges ten times that, as the flat fee
/// does for a call. A bot waits on one or two pollables at a time.
pub const POLL_ENTRY_FUEL: u64 = 1_000;

/// Bytes a guest may hand the host in one call (wasmtime's "hostcall
/// fuel": lifted strings and lists), over the 4 KiB a write takes
/// ([`Captured`] permits 4 KiB a write, as WASI's `blocking-write-and-flush`
/// does). Lifting is host work the flat fee covers only when the bytes are
/// few: wasmtime's default of 128 MiB let a guest have the host copy and
/// check its whole 16 MiB memory as a host name, a few milliseconds, for
/// 1,000 fuel a call. A call that hands over more traps.
pub const HOSTCALL_BYTES: usize = 8 << 10;

/// Handles (resources and borrows) a guest may hold at once in its store.
/// Each holds some host memory that the memory limit does not count;
/// wasmtime's default of 100,000 let a guest that kept pollables hold
/// about 28 MB of the host's memory. A bot holds a few.
pub const MAX_HANDLES: usize = 10_000;

/// The data of one bot's store.
pub struct HostState {
    wasi: WasiCtx,
    table: ResourceTable,
    pub limits: Limits,
    pub stdout: Captured,
    pub stderr: Captured,
    /// Fuel owed for metered host work (random bytes, `poll`'s list) done
    /// since the last host call returned; paid as the call returns.
    owed: Arc<AtomicU64>,
}

impl WasiView for HostState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl HostState {
    /// A fresh sandbox; `seed` (the bot's seed for this game) seeds every
    /// random source the guest can read.
    pub fn new(limits: &WasmLimits, seed: u64) -> HostState {
        let stdout = Captured::new(limits.output_bytes, limits.output_per_call);
        let stderr = Captured::new(limits.output_bytes, limits.output_per_call);
        let owed = Arc::new(AtomicU64::new(0));
        let metered = |rng| Metered {
            rng,
            owed: owed.clone(),
        };
        let wasi = WasiCtxBuilder::new()
            .stdout(stdout.clone())
            .stderr(stderr.clone())
            .secure_random(metered(ChaCha8Rng::seed_from_u64(seed)))
            .insecure_random(metered(ChaCha8Rng::seed_from_u64(
                seed ^ 0x9e37_79b9_7f4a_7c15,
            )))
            .insecure_random_seed(u128::from(seed))
            // More random bytes than the bot's memory can hold could not be
            // handed to it anyway; WASI's own cap (64 MiB) would have the host
            // make them first, at each call.
            .max_random_size(u64::try_from(limits.memory_bytes).unwrap_or(u64::MAX))
            .wall_clock(FrozenWallClock)
            .monotonic_clock(CountingClock::default())
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false)
            .build();
        HostState {
            wasi,
            table: ResourceTable::new(),
            limits: Limits::new(limits),
            stdout,
            stderr,
            owed,
        }
    }
}

/// The store's call hook: charges [`HOST_CALL_FUEL`] as the guest calls into
/// the host, and the fuel its metered work owes as the call returns. A charge the fuel left cannot pay is `out-of-fuel`, as running
/// out between operators is.
pub fn charge_host_calls(
    mut store: StoreContextMut<'_, HostState>,
    hook: CallHook,
) -> wasmtime::Result<()> {
    let cost = match hook {
        CallHook::CallingHost => HOST_CALL_FUEL,
        CallHook::ReturningFromHost => store.data().owed.swap(0, Ordering::Relaxed),
        CallHook::CallingWasm | CallHook::ReturningFromWasm => return Ok(()),
    };
    let left = store.get_fuel()?;
    if left < cost {
        store.set_fuel(0)?;
        return Err(Trap::OutOfFuel.into());
    }
    store.set_fuel(left - cost)
}

/// A random source that charges [`HOST_BYTE_FUEL`] per byte it makes, for
/// [`charge_host_calls`].
struct Metered<R> {
    rng: R,
    owed: Arc<AtomicU64>,
}

impl<R> Metered<R> {
    fn count(&self, bytes: usize) {
        let fuel = (bytes as u64).saturating_mul(HOST_BYTE_FUEL);
        self.owed.fetch_add(fuel, Ordering::Relaxed);
    }
}

impl<R: rand::Rng> rand::TryRng for Metered<R> {
    type Error = std::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        self.count(4);
        Ok(self.rng.next_u32())
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.count(8);
        Ok(self.rng.next_u64())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.count(dst.len());
        self.rng.fill_bytes(dst);
        Ok(())
    }
}

impl HostState {
    /// `wasi:io/poll.poll`, charged [`POLL_ENTRY_FUEL`] per entry.
    pub fn poll(&mut self, pollables: Vec<Resource<DynPollable>>) -> wasmtime::Result<Vec<u32>> {
        let entries = u64::try_from(pollables.len()).unwrap_or(u64::MAX);
        self.owed
            .fetch_add(entries.saturating_mul(POLL_ENTRY_FUEL), Ordering::Relaxed);
        wasmtime_wasi::p2::bindings::sync::io::poll::Host::poll(&mut self.table, pollables)
    }

    /// A pollable that is ready at once, for the clock's timers.
    pub fn ready_pollable(&mut self) -> wasmtime::Result<Resource<DynPollable>> {
        let ready = self.table.push(Ready)?;
        subscribe(&mut self.table, ready)
    }
}

/// Always ready.
struct Ready;

#[wasmtime_wasi::async_trait]
impl Pollable for Ready {
    async fn ready(&mut self) {}
}

/// The store's resource limits: [`StoreLimits`] for the counts, and one
/// budget of linear memory over all the store's memories and one of table
/// elements over all its tables, which `StoreLimits` cannot give (its
/// `memory_size` and `table_elements` cap each memory or table alone, so a
/// component of 32 core modules, or one module with 32 memories, could hold
/// 32 times the limit). It also remembers whether it
/// refused a growth, so that the trap which usually follows (Rust aborts on a
/// failed allocation) is labelled `out-of-memory` rather than `crash`.
pub struct Limits {
    inner: StoreLimits,
    /// The bytes of linear memory the store may hold, over all its memories.
    memory_bytes: usize,
    /// The bytes of linear memory granted so far, over all its memories
    /// (memories only grow, and live as long as the store). A growth granted
    /// that then fails (the system refused the memory) stays counted:
    /// wasmtime's `memory_grow_failed` does not say which growth failed, and
    /// it also reports growths that were never granted, so giving one back
    /// would let a guest that alternates a granted growth and an impossible
    /// one grow without limit.
    memory_held: usize,
    /// The elements the store's tables may hold, over all its tables.
    table_elements: usize,
    /// The elements granted so far, over all its tables (counted as memory is).
    table_held: usize,
    /// The size last refused, in bytes (memory) or elements (table), over all
    /// the store's memories or tables.
    pub refused: Option<(&'static str, usize)>,
}

impl Limits {
    fn new(limits: &WasmLimits) -> Limits {
        Limits {
            inner: StoreLimitsBuilder::new()
                .instances(limits.instances)
                .tables(limits.instances)
                .memories(limits.instances)
                .build(),
            memory_bytes: limits.memory_bytes,
            memory_held: 0,
            table_elements: limits.table_elements,
            table_held: 0,
            refused: None,
        }
    }
}

impl ResourceLimiter for Limits {
    /// Called for each memory as it is made (`current` 0, `desired` its
    /// minimum) and for each growth.
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        // Without a `memory_size`, `inner` checks only the memory's own
        // declared maximum.
        if !self.inner.memory_growing(current, desired, maximum)? {
            return Ok(false);
        }
        let growth = desired.saturating_sub(current);
        let held = self.memory_held.saturating_add(growth);
        if held > self.memory_bytes {
            // Reported as the whole store's size, the figure the limit is of.
            self.refused = Some(("memory", held));
            return Ok(false);
        }
        self.memory_held = held;
        Ok(true)
    }

    fn table_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        // Without a `table_elements`, `inner` checks only the table's own
        // declared maximum.
        if !self.inner.table_growing(current, desired, maximum)? {
            return Ok(false);
        }
        let held = self
            .table_held
            .saturating_add(desired.saturating_sub(current));
        if held > self.table_elements {
            self.refused = Some(("table", held));
            return Ok(false);
        }
        self.table_held = held;
        Ok(true)
    }

    fn instances(&self) -> usize {
        self.inner.instances()
    }

    fn tables(&self) -> usize {
        self.inner.tables()
    }

    fn memories(&self) -> usize {
        self.inner.memories()
    }
}

/// stdout or stderr of a guest: the first `cap` bytes are kept, the rest is
/// counted and dropped. Writes do not fail, so a chatty bot is not punished
/// for it (Rust's `println!` panics when a write fails), up to `per_call`
/// bytes in one call: past that the write traps, and the seat is faulted at
/// once rather than when the flood has worn out the wall clock (each write is
/// host work that burns no fuel).
#[derive(Clone)]
pub struct Captured {
    inner: Arc<Mutex<CapturedInner>>,
    cap: usize,
    per_call: u64,
}

#[derive(Default)]
struct CapturedInner {
    kept: Vec<u8>,
    dropped: u64,
    /// Bytes written since the last [`Captured::new_call`].
    this_call: u64,
    /// Whether this call went over `per_call`.
    flooded: bool,
}

impl Captured {
    fn new(cap: usize, per_call: u64) -> Captured {
        Captured {
            inner: Arc::default(),
            cap,
            per_call,
        }
    }

    /// Starts counting a new call's output.
    pub fn new_call(&self) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.this_call = 0;
        inner.flooded = false;
    }

    /// The bytes written in this call, if they went over the per-call cap.
    pub fn flooded(&self) -> Option<u64> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.flooded.then_some(inner.this_call)
    }

    /// What was kept, lossily as text, with a note of what was dropped.
    pub fn text(&self) -> String {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let mut text = String::from_utf8_lossy(&inner.kept).into_owned();
        if inner.dropped > 0 {
            text.push_str(&format!("\n[{} more bytes dropped]", inner.dropped));
        }
        text
    }

    /// The last `n` characters of [`Captured::text`].
    pub fn tail(&self, n: usize) -> String {
        let text = self.text();
        let count = text.chars().count();
        if count <= n {
            return text;
        }
        let tail: String = text.chars().skip(count - n).collect();
        format!("...{tail}")
    }
}

impl IsTerminal for Captured {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for Captured {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        // Only the WASIp3 (async) interfaces use this stream, and this host
        // links WASIp2 only; give them a pipe that holds as little.
        Box::new(MemoryOutputPipe::new(self.cap))
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for Captured {
    async fn ready(&mut self) {}
}

impl OutputStream for Captured {
    fn write(&mut self, bytes: bytes::Bytes) -> StreamResult<()> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.this_call = inner.this_call.saturating_add(bytes.len() as u64);
        if inner.this_call > self.per_call {
            inner.flooded = true;
            return Err(StreamError::trap("output over the per-call cap"));
        }
        let room = self.cap.saturating_sub(inner.kept.len());
        let keep = bytes.len().min(room);
        inner.kept.extend_from_slice(&bytes[..keep]);
        inner.dropped += (bytes.len() - keep) as u64;
        Ok(())
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        // What `blocking-write-and-flush` takes; within [`HOSTCALL_BYTES`].
        Ok(4096)
    }
}

/// A wall clock stopped at the Unix epoch: a bot cannot read the time of day,
/// so it cannot behave differently from one run to the next.
struct FrozenWallClock;

impl HostWallClock for FrozenWallClock {
    fn resolution(&self) -> Duration {
        Duration::from_secs(1)
    }

    fn now(&self) -> Duration {
        Duration::ZERO
    }
}

/// A monotonic clock that advances one microsecond each time it is read:
/// deterministic, and a loop waiting for it still ends.
#[derive(Default)]
struct CountingClock(AtomicU64);

impl HostMonotonicClock for CountingClock {
    fn resolution(&self) -> u64 {
        1_000
    }

    fn now(&self) -> u64 {
        self.0.fetch_add(1_000, Ordering::Relaxed)
    }
}
