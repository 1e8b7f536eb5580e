//! `libcollide2d.a`: collide2d's C ABI (`c2d_*`, declared in `include/collide2d.h`) as a
//! `no_std` static library. Link line: `cc my.c libcollide2d.a -lm`.
//!
//! This crate only supplies the runtime pieces std would: a panic handler that aborts (the
//! library does not panic on any input; should a bug make it, it stops rather than unwind into
//! C) and, with feature `alloc`, a global allocator over `malloc` / `posix_memalign` / `free`.
#![no_std]

// Link every `c2d_*` symbol of the Rust crate into this archive.
pub use collide2d::capi::*;

#[cfg(not(target_os = "none"))]
extern "C" {
    fn abort() -> !;
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
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

#[cfg(feature = "alloc")]
mod malloc {
    use core::alloc::{GlobalAlloc, Layout};
    use core::ffi::c_void;

    extern "C" {
        fn malloc(size: usize) -> *mut c_void;
        fn realloc(p: *mut c_void, size: usize) -> *mut c_void;
        fn free(p: *mut c_void);
        fn posix_memalign(out: *mut *mut c_void, align: usize, size: usize) -> i32;
    }

    /// Alignment every `malloc` result has on the platforms we support (C's `max_align_t` is
    /// at least 8 everywhere we build).
    const MALLOC_ALIGN: usize = 8;

    /// The global allocator: the C library's heap.
    pub struct Malloc;

    // SAFETY: each method forwards to the C allocator with the size and an alignment it
    // honours: malloc/realloc for alignments up to MALLOC_ALIGN, posix_memalign beyond.
    unsafe impl GlobalAlloc for Malloc {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            if layout.align() <= MALLOC_ALIGN {
                // SAFETY: plain malloc; NULL on failure is what GlobalAlloc expects.
                unsafe { malloc(layout.size()) as *mut u8 }
            } else {
                let mut p = core::ptr::null_mut();
                let align = layout.align().max(core::mem::size_of::<usize>());
                // SAFETY: `align` is a power of two and a multiple of sizeof(void*).
                if unsafe { posix_memalign(&mut p, align, layout.size()) } == 0 {
                    p as *mut u8
                } else {
                    core::ptr::null_mut()
                }
            }
        }

        unsafe fn dealloc(&self, p: *mut u8, _: Layout) {
            // SAFETY: `p` came from malloc or posix_memalign above; both are freed by free.
            unsafe { free(p as *mut c_void) }
        }

        unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            if layout.align() <= MALLOC_ALIGN {
                // SAFETY: `p` came from malloc (alignment <= MALLOC_ALIGN path).
                unsafe { realloc(p as *mut c_void, new_size) as *mut u8 }
            } else {
                // SAFETY: the default path: allocate, copy, free, with our own alloc/dealloc.
                unsafe {
                    let new = self.alloc(Layout::from_size_align_unchecked(new_size, layout.align()));
                    if !new.is_null() {
                        core::ptr::copy_nonoverlapping(p, new, layout.size().min(new_size));
                        self.dealloc(p, layout);
                    }
                    new
                }
            }
        }
    }

    #[global_allocator]
    static GLOBAL: Malloc = Malloc;
}
