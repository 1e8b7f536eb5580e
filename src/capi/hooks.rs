//! Process-wide hooks of the C library: the allocator every heap object goes through
//! (`c2d_set_allocator`), the byte count (`c2d_get_byte_count`), and the assert and log hooks
//! (`c2d_set_assert_fcn`, `c2d_set_log_fcn`).
//!
//! The C library (`libcollide2d` from the `clib/` crate) routes its global allocator through
//! [`allocator`] and counts with [`add_bytes`] / [`sub_bytes`], calls [`log`] when an
//! allocation fails, and [`assert_failed`] before it aborts on an internal error (a panic,
//! which no input should cause). A Rust program that calls the C ABI in-process keeps Rust's
//! own global allocator: there the hooks are stored but not consulted and the count stays 0.
//!
//! Set the hooks once, from one thread, before creating any tree or world (Box2D's rule for
//! `b2SetAllocator`); `c2d_set_allocator` refuses with `C2D_STATUS_IN_USE` while memory from the
//! current allocator is still held.

use super::status::Status;
use core::ffi::{c_char, c_void, CStr};
use core::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// Allocates `size` bytes aligned to `align` (a power of two, at most 4096) for the library;
/// returns NULL on failure (the call that needed the memory then returns
/// `C2D_STATUS_OUT_OF_MEMORY`). `context` is the pointer given to `c2d_set_allocator`.
pub type AllocFcn =
    Option<unsafe extern "C" fn(size: usize, align: usize, context: *mut c_void) -> *mut c_void>;

/// Frees memory from the matching [`AllocFcn`], with the size and alignment it was asked for.
pub type FreeFcn =
    Option<unsafe extern "C" fn(memory: *mut c_void, size: usize, align: usize, context: *mut c_void)>;

/// Called with a description, the source file and line before the library aborts on an
/// internal error (a bug: no input is meant to reach one). The strings are NUL-terminated and
/// valid only during the call.
pub type AssertFcn = Option<
    unsafe extern "C" fn(message: *const c_char, file: *const c_char, line: i32, context: *mut c_void),
>;

/// Called with a NUL-terminated message (e.g. an allocation failure), valid during the call.
pub type LogFcn = Option<unsafe extern "C" fn(message: *const c_char, context: *mut c_void)>;

/// The function types inside the hooks' `Option`s.
type AllocInner = unsafe extern "C" fn(usize, usize, *mut c_void) -> *mut c_void;
type FreeInner = unsafe extern "C" fn(*mut c_void, usize, usize, *mut c_void);
type AssertInner = unsafe extern "C" fn(*const c_char, *const c_char, i32, *mut c_void);
type LogInner = unsafe extern "C" fn(*const c_char, *mut c_void);

static ALLOC: AtomicPtr<()> = AtomicPtr::new(core::ptr::null_mut());
static FREE: AtomicPtr<()> = AtomicPtr::new(core::ptr::null_mut());
static ALLOC_CONTEXT: AtomicPtr<c_void> = AtomicPtr::new(core::ptr::null_mut());
static ASSERT: AtomicPtr<()> = AtomicPtr::new(core::ptr::null_mut());
static ASSERT_CONTEXT: AtomicPtr<c_void> = AtomicPtr::new(core::ptr::null_mut());
static LOG: AtomicPtr<()> = AtomicPtr::new(core::ptr::null_mut());
static LOG_CONTEXT: AtomicPtr<c_void> = AtomicPtr::new(core::ptr::null_mut());
static BYTES: AtomicUsize = AtomicUsize::new(0);

/// Sets the allocator every heap allocation of the C library goes through (trees, worlds and
/// their growth), with a `context` passed back to both functions; NULL for both restores the
/// C runtime's `malloc`/`free`. One of the two NULL is `C2D_STATUS_NULL_POINTER`;
/// `C2D_STATUS_IN_USE` while memory from the current allocator is still held (see
/// `c2d_get_byte_count`): set it before creating anything, or after freeing everything.
#[no_mangle]
pub extern "C" fn c2d_set_allocator(alloc: AllocFcn, free: FreeFcn, context: *mut c_void) -> Status {
    if alloc.is_some() != free.is_some() {
        return Status::NullPointer;
    }
    if BYTES.load(Ordering::Acquire) != 0 {
        return Status::InUse;
    }
    ALLOC_CONTEXT.store(context, Ordering::Release);
    FREE.store(
        free.map_or(core::ptr::null_mut(), |f| f as *mut ()),
        Ordering::Release,
    );
    ALLOC.store(
        alloc.map_or(core::ptr::null_mut(), |f| f as *mut ()),
        Ordering::Release,
    );
    Status::Ok
}

/// Bytes the C library currently holds from its allocator (0 when nothing is alive; always 0
/// when the C ABI is called from a Rust program, which keeps Rust's allocator).
#[no_mangle]
pub extern "C" fn c2d_get_byte_count() -> usize {
    BYTES.load(Ordering::Acquire)
}

/// Sets the function called before the library aborts on an internal error (NULL: none, the
/// default).
#[no_mangle]
pub extern "C" fn c2d_set_assert_fcn(assert_fcn: AssertFcn, context: *mut c_void) {
    ASSERT_CONTEXT.store(context, Ordering::Release);
    ASSERT.store(
        assert_fcn.map_or(core::ptr::null_mut(), |f| f as *mut ()),
        Ordering::Release,
    );
}

/// Sets the function that receives the library's log messages (NULL: none, the default). The
/// library logs only failures: an allocation that could not be satisfied.
#[no_mangle]
pub extern "C" fn c2d_set_log_fcn(log_fcn: LogFcn, context: *mut c_void) {
    LOG_CONTEXT.store(context, Ordering::Release);
    LOG.store(
        log_fcn.map_or(core::ptr::null_mut(), |f| f as *mut ()),
        Ordering::Release,
    );
}

/// The allocator set with `c2d_set_allocator` and its context, if any (for the C library's
/// global allocator).
pub fn allocator() -> Option<(AllocInner, FreeInner, *mut c_void)> {
    let a = ALLOC.load(Ordering::Acquire);
    let f = FREE.load(Ordering::Acquire);
    if a.is_null() || f.is_null() {
        return None;
    }
    // SAFETY: ALLOC and FREE only ever hold null or pointers made from an `AllocFcn` and a
    // `FreeFcn` in `c2d_set_allocator`; function and data pointers have the same size here.
    let (a, f) = unsafe {
        (
            core::mem::transmute::<*mut (), AllocInner>(a),
            core::mem::transmute::<*mut (), FreeInner>(f),
        )
    };
    Some((a, f, ALLOC_CONTEXT.load(Ordering::Acquire)))
}

/// Counts `n` bytes handed out by the C library's allocator.
pub fn add_bytes(n: usize) {
    BYTES.fetch_add(n, Ordering::AcqRel);
}

/// Counts `n` bytes given back.
pub fn sub_bytes(n: usize) {
    BYTES.fetch_sub(n, Ordering::AcqRel);
}

/// Passes `message` to the log hook, if one is set.
pub fn log(message: &CStr) {
    let f = LOG.load(Ordering::Acquire);
    if f.is_null() {
        return;
    }
    // SAFETY: LOG only holds null or a pointer made from a `LogFcn` in `c2d_set_log_fcn`.
    let f = unsafe { core::mem::transmute::<*mut (), LogInner>(f) };
    // SAFETY: the hook's contract: a NUL-terminated message valid for the call, and the
    // context the caller registered.
    unsafe { f(message.as_ptr(), LOG_CONTEXT.load(Ordering::Acquire)) }
}

/// Passes an internal error to the assert hook, if one is set (the caller aborts after).
pub fn assert_failed(message: &CStr, file: &CStr, line: i32) {
    let f = ASSERT.load(Ordering::Acquire);
    if f.is_null() {
        return;
    }
    // SAFETY: ASSERT only holds null or a pointer made from an `AssertFcn`.
    let f = unsafe { core::mem::transmute::<*mut (), AssertInner>(f) };
    // SAFETY: the hook's contract: NUL-terminated strings valid for the call.
    unsafe {
        f(
            message.as_ptr(),
            file.as_ptr(),
            line,
            ASSERT_CONTEXT.load(Ordering::Acquire),
        )
    }
}
