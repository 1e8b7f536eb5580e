//! A global allocator for the fuzz targets that fails on request: [`failing`] runs one call
//! with the allocations from the `budget`-th on returning NULL (as an allocator that has run
//! out does), so the out-of-memory path of every allocating C entry point is fuzzed from the
//! states the other operations reach. Only the wrapped call is ever failed (the targets' own
//! bookkeeping allocates freely). An allocation the library makes without a fallible
//! reservation aborts the process, which libFuzzer reports as a finding; leaks are found by
//! the sanitizer's leak check.
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

struct Failing;

static ARMED: AtomicBool = AtomicBool::new(false);
static LEFT: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator, or returns NULL (a permitted failure).
unsafe impl GlobalAlloc for Failing {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ARMED.load(Ordering::Relaxed) {
            if LEFT.load(Ordering::Relaxed) == 0 {
                return core::ptr::null_mut();
            }
            LEFT.fetch_sub(1, Ordering::Relaxed);
        }
        // SAFETY: the caller's layout, passed through.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: `p` came from System with this layout.
        unsafe { System.dealloc(p, layout) }
    }
}

#[global_allocator]
static GLOBAL: Failing = Failing;

/// Runs `call` with the first `budget` allocations granted and every later one failing.
pub fn failing<T>(budget: u8, call: impl FnOnce() -> T) -> T {
    LEFT.store(usize::from(budget), Ordering::Relaxed);
    ARMED.store(true, Ordering::Relaxed);
    let r = call();
    ARMED.store(false, Ordering::Relaxed);
    r
}
