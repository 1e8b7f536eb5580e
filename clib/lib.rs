//! `libcollide2d`: collide2d's C ABI (`c2d_*`, declared in `include/collide2d.h`) as a
//! `no_std` static library. Link line: `cc my.c libcollide2d.a -lm` (or use
//! `scripts/build_clib.sh`, which also renames the Rust runtime's symbols and makes the
//! shared library).
//!
//! This crate only supplies the runtime pieces std would: a panic handler that calls the assert
//! hook (`c2d_set_assert_fcn`) and aborts (the library does not panic on any input; should a
//! bug make it, it stops rather than unwind into C) and, with feature `alloc`, a global
//! allocator that goes through the hook set with `c2d_set_allocator` or else the C runtime
//! (`malloc`/`free`; `posix_memalign` for large alignments, `_aligned_malloc` on Windows),
//! counts the bytes it holds (`c2d_get_byte_count`) and logs a failure (`c2d_set_log_fcn`).
#![no_std]

// Link every `c2d_*` symbol of the Rust crate into this archive.
pub use collide2d::capi::*;

use core::fmt::Write;

#[cfg(not(target_os = "none"))]
extern "C" {
    fn abort() -> !;
}

/// A NUL-terminated message built in a fixed buffer (no allocation; long text is cut).
struct Message {
    buf: [u8; 200],
    len: usize,
}

impl Message {
    fn new() -> Message {
        Message {
            buf: [0; 200],
            len: 0,
        }
    }

    fn as_c_str(&mut self) -> &core::ffi::CStr {
        let end = self.len.min(self.buf.len() - 1);
        self.buf[end] = 0;
        // The text never holds a NUL before `end` (interior NULs are dropped on write).
        core::ffi::CStr::from_bytes_until_nul(&self.buf[..=end]).unwrap_or(c"collide2d")
    }
}

impl Write for Message {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for &b in s.as_bytes() {
            if self.len + 1 < self.buf.len() && b != 0 {
                self.buf[self.len] = b;
                self.len += 1;
            }
        }
        Ok(())
    }
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    let mut file = Message::new();
    let mut line = 0;
    if let Some(loc) = info.location() {
        let _ = file.write_str(loc.file());
        line = i32::try_from(loc.line()).unwrap_or(i32::MAX);
    }
    let mut message = Message::new();
    let _ = write!(message, "collide2d internal error: {}", info.message());
    collide2d::capi::hooks::assert_failed(message.as_c_str(), file.as_c_str(), line);
    #[cfg(not(target_os = "none"))]
    // SAFETY: abort takes no arguments and never returns; it is in every C runtime.
    unsafe {
        abort()
    }
    #[cfg(target_os = "none")]
    loop {
        core::hint::spin_loop();
    }
}

/// The precompiled `alloc` crate's unwind tables name Rust's personality routine, which std
/// would provide. Nothing unwinds here (panics abort, and C frames never throw into us), so
/// the routine is never called; this definition only satisfies the linker.
#[cfg(not(target_os = "none"))]
#[no_mangle]
pub extern "C" fn rust_eh_personality() {}

/// The hash of collide2d's cross-platform determinism scene (`collide2d::world::determinism`)
/// after `steps` steps, or 0 if the scene failed. Feature `determinism` only, and not in the
/// header: `scripts/determinism.sh` calls it from `c_examples/embedded/determinism.c` to
/// compare a Cortex-M4F's hash with the other platforms'.
#[cfg(feature = "determinism")]
#[no_mangle]
pub extern "C" fn collide2d_determinism_hash(steps: u32) -> u64 {
    collide2d::world::determinism::scene_hash(steps).unwrap_or(0)
}

#[cfg(feature = "alloc")]
mod heap {
    use super::{Message, Write};
    use collide2d::capi::hooks;
    use core::alloc::{GlobalAlloc, Layout};
    use core::ffi::c_void;

    extern "C" {
        fn malloc(size: usize) -> *mut c_void;
        fn free(p: *mut c_void);
    }
    #[cfg(not(windows))]
    extern "C" {
        fn posix_memalign(out: *mut *mut c_void, align: usize, size: usize) -> i32;
    }
    #[cfg(windows)]
    extern "C" {
        fn _aligned_malloc(size: usize, align: usize) -> *mut c_void;
        fn _aligned_free(p: *mut c_void);
    }

    /// Alignment every `malloc` result has on the platforms we support (C's `max_align_t` is
    /// at least 8 everywhere we build).
    const MALLOC_ALIGN: usize = 8;

    /// The C runtime's allocation for `layout`.
    ///
    /// # Safety
    /// `layout` has a non-zero size.
    unsafe fn c_alloc(layout: Layout) -> *mut c_void {
        if layout.align() <= MALLOC_ALIGN {
            // SAFETY: plain malloc; NULL on failure is what GlobalAlloc expects.
            return unsafe { malloc(layout.size()) };
        }
        #[cfg(not(windows))]
        {
            let mut p = core::ptr::null_mut();
            let align = layout.align().max(core::mem::size_of::<usize>());
            // SAFETY: `align` is a power of two and a multiple of sizeof(void*).
            if unsafe { posix_memalign(&mut p, align, layout.size()) } == 0 {
                p
            } else {
                core::ptr::null_mut()
            }
        }
        #[cfg(windows)]
        // SAFETY: `align` is a power of two; freed with _aligned_free in `c_free`.
        unsafe {
            _aligned_malloc(layout.size(), layout.align())
        }
    }

    /// Frees what [`c_alloc`] gave for `layout`.
    ///
    /// # Safety
    /// `p` came from `c_alloc(layout)`.
    unsafe fn c_free(p: *mut c_void, layout: Layout) {
        #[cfg(windows)]
        if layout.align() > MALLOC_ALIGN {
            // SAFETY: large alignments came from _aligned_malloc.
            unsafe { _aligned_free(p) };
            return;
        }
        let _ = layout;
        // SAFETY: from malloc or posix_memalign, both freed by free.
        unsafe { free(p) }
    }

    /// The global allocator: the hook set with `c2d_set_allocator`, or the C runtime's heap.
    pub struct Heap;

    // SAFETY: every block comes from one allocator (the hook cannot change while bytes are
    // held, see c2d_set_allocator) and is freed by the same one with the same layout; sizes
    // and alignments are passed through unchanged.
    unsafe impl GlobalAlloc for Heap {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let p = match hooks::allocator() {
                // SAFETY: the hook's contract: size and a power-of-two alignment, NULL on failure.
                Some((alloc, _, context)) => unsafe { alloc(layout.size(), layout.align(), context) },
                // SAFETY: GlobalAlloc never asks for a zero size.
                None => unsafe { c_alloc(layout) },
            };
            if p.is_null() {
                let mut m = Message::new();
                let _ = write!(m, "collide2d: out of memory ({} bytes)", layout.size());
                hooks::log(m.as_c_str());
            } else {
                hooks::add_bytes(layout.size());
            }
            p as *mut u8
        }

        unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
            hooks::sub_bytes(layout.size());
            match hooks::allocator() {
                // SAFETY: `p` came from this hook's allocation with this layout.
                Some((_, free, context)) => unsafe {
                    free(p as *mut c_void, layout.size(), layout.align(), context)
                },
                // SAFETY: `p` came from `c_alloc(layout)`.
                None => unsafe { c_free(p as *mut c_void, layout) },
            }
        }
    }

    #[global_allocator]
    static GLOBAL: Heap = Heap;
}
