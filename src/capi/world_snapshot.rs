//! World snapshots from C (`World::snapshot`, `World::restore`): the whole state of a world
//! as bytes and back, for rollback, save games and replays, and a world's copy.

use super::status::{slice_mut, write, Status};
use super::world_id::{register, world_mut, world_ref, WorldId};
use crate::world::World;

/// Reads `len` bytes at `bytes` (NULL only with `len == 0`).
///
/// # Safety
/// `bytes` NULL or readable for `len` bytes.
unsafe fn bytes_in<'a>(bytes: *const u8, len: usize) -> Result<&'a [u8], Status> {
    if len == 0 {
        return Ok(&[]);
    }
    if bytes.is_null() {
        return Err(Status::NullPointer);
    }
    // SAFETY: non-null and readable for `len` bytes by the caller's contract.
    Ok(unsafe { core::slice::from_raw_parts(bytes, len) })
}

/// Writes the size in bytes of `c2d_world_snapshot`'s bytes for the world as it is now.
///
/// # Safety
/// `out_size` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_snapshot_size(world: WorldId, out_size: *mut usize) -> Status {
    if out_size.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        // SAFETY: checked non-null; writable by the caller's contract.
        Ok(w) => unsafe { write(out_size, w.snapshot_size()) },
        Err(e) => e,
    }
}

/// Writes the world's whole state into `buffer` (`capacity` bytes) and the number of bytes
/// written to `*out_written`: a little-endian format, the same on every platform, that
/// `c2d_world_restore` reads back into a world that then continues bit for bit as this one
/// (the ids of this world name the same bodies, shapes and chains there). Allocates
/// nothing. A buffer shorter than `c2d_world_snapshot_size` gives `C2D_STATUS_BUFFER_TOO_SMALL`
/// (nothing written past `capacity`, `*out_written` not written).
///
/// # Safety
/// `buffer` NULL (only with `capacity == 0`) or writable for `capacity` bytes; `out_written`
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_snapshot(
    world: WorldId,
    buffer: *mut u8,
    capacity: usize,
    out_written: *mut usize,
) -> Status {
    if out_written.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_ref(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    // SAFETY: `buffer` writable for `capacity` bytes by the caller's contract.
    let out = match unsafe { slice_mut(buffer, capacity) } {
        Ok(out) => out,
        Err(e) => return e,
    };
    match w.snapshot(out) {
        // SAFETY: checked non-null; writable by the caller's contract.
        Ok(n) => unsafe { write(out_written, n) },
        Err(e) => e.into(),
    }
}

/// Replaces the world's state with the snapshot in `bytes` (`len` bytes, written by
/// `c2d_world_snapshot` of this or any world). The world keeps its id and its hooks; the
/// ids of the world that wrote the snapshot are valid in it. On any error the world is
/// unchanged: `C2D_STATUS_NOT_A_SNAPSHOT`, `C2D_STATUS_SNAPSHOT_VERSION` (another format or
/// library release), `C2D_STATUS_SNAPSHOT_TRUNCATED`, `C2D_STATUS_SNAPSHOT_CHECKSUM`
/// (corrupted), `C2D_STATUS_SNAPSHOT_CORRUPT` (bytes that match their checksum but do not
/// describe a valid world), `C2D_STATUS_OUT_OF_MEMORY`. The restored state is built beside
/// the old one, which is freed after: memory peaks at both.
///
/// # Safety
/// `bytes` NULL (only with `len == 0`) or readable for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_restore(world: WorldId, bytes: *const u8, len: usize) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_mut(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    // SAFETY: readable for `len` bytes by the caller's contract.
    let bytes = match unsafe { bytes_in(bytes, len) } {
        Ok(b) => b,
        Err(e) => return e,
    };
    match World::restore(bytes) {
        Ok(restored) => {
            let clock = w.profile_clock();
            *w = restored;
            w.set_profile_clock(clock);
            Status::Ok
        }
        Err(e) => e.into(),
    }
}

/// Creates a world from the snapshot in `bytes` (as `c2d_world_restore`) and writes its id
/// to `*out`; destroy it with `c2d_world_destroy`. Errors as `c2d_world_restore`
/// (`C2D_STATUS_OUT_OF_MEMORY` included: nothing is created) and `C2D_STATUS_TOO_MANY_WORLDS`.
///
/// # Safety
/// `bytes` NULL (only with `len == 0`) or readable for `len` bytes; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_create_from_snapshot(
    bytes: *const u8,
    len: usize,
    out: *mut WorldId,
) -> Status {
    if out.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: readable for `len` bytes by the caller's contract.
    let bytes = match unsafe { bytes_in(bytes, len) } {
        Ok(b) => b,
        Err(e) => return e,
    };
    match World::restore(bytes) {
        // SAFETY: checked non-null; writable by the caller's contract.
        Ok(w) => unsafe { register(w, out) },
        Err(e) => e.into(),
    }
}

/// Creates a copy of the world (every body, contact, cache and sleep timer: stepped the same
/// way, the copy stays bit-identical to the original) and writes its id to `*out`. The
/// copy's hooks are unset. `C2D_STATUS_OUT_OF_MEMORY` or `C2D_STATUS_TOO_MANY_WORLDS`
/// otherwise (nothing created).
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_clone(world: WorldId, out: *mut WorldId) -> Status {
    if out.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_ref(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    match w.try_clone() {
        // SAFETY: checked non-null; writable by the caller's contract.
        Ok(copy) => unsafe { register(copy, out) },
        Err(e) => e.into(),
    }
}
