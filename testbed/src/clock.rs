//! The clock the World scenes profile their steps with ([`collide2d::World::set_profile_clock`]):
//! microseconds. In the browser it is the page's `performance.now()`, imported as
//! `env.tb_now_us` (the module's only import); natively, time since the first call.

/// Clock ticks per millisecond.
pub const TICKS_PER_MS: f32 = 1000.0;

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "env")]
extern "C" {
    /// The page's `performance.now()` in microseconds.
    fn tb_now_us() -> f64;
}

/// Microseconds on the page's clock (0 if it reports nothing usable).
#[cfg(target_arch = "wasm32")]
pub extern "C" fn now() -> u64 {
    // SAFETY: the page instantiates the module with `env.tb_now_us`, a function of no
    // arguments returning a number (testbed.js); nothing is shared with it.
    let us = unsafe { tb_now_us() };
    if us.is_finite() && us > 0.0 {
        us as u64
    } else {
        0
    }
}

/// Microseconds since the first call.
#[cfg(not(target_arch = "wasm32"))]
pub extern "C" fn now() -> u64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_micros() as u64
}
