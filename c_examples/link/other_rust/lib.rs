//! A small std Rust static library: allocates, formats, and catches a panic, so it needs its
//! own allocator, panic runtime and unwinder at link time.
use std::panic;

/// Sums 0..n through a heap vector; returns -1 if the closure panicked (n > 1000).
#[no_mangle]
pub extern "C" fn other_rust_sum(n: u32) -> i64 {
    let r = panic::catch_unwind(|| {
        assert!(n <= 1000, "too many: {n}");
        let v: Vec<i64> = (0..i64::from(n)).collect();
        v.iter().sum::<i64>()
    });
    r.unwrap_or(-1)
}
