//! The C world calls over [`crate::world::World`] (feature `alloc`), each naming its world by
//! a [`WorldId`] (see `world_id.rs`).

use super::status::{check_shape, read, read_shape, slice_mut, status, write, Status};
use super::world_id::{world_mut, world_ref, WorldId};
use crate::geometry::Shape;
use crate::math::{Transform, Vec2};
use crate::solver::Body;
use crate::world::{BodyDef, BodyId, ContactEvent, SensorEvent};

/// Reads a body definition from C, validating the kind and shape tags as integers first.
///
/// # Safety
/// `p` must be NULL or point to a readable `c2d_BodyDef`.
unsafe fn read_body_def(p: *const BodyDef) -> Result<BodyDef, Status> {
    if p.is_null() {
        return Err(Status::NullPointer);
    }
    let base = p as *const u8;
    // SAFETY: both offsets lie inside the readable BodyDef; each names a u32 tag.
    let (kind, tag) = unsafe {
        (
            core::ptr::read_unaligned(base.add(core::mem::offset_of!(BodyDef, kind)) as *const u32),
            core::ptr::read_unaligned(base.add(core::mem::offset_of!(BodyDef, shape)) as *const u32),
        )
    };
    if kind > 2 {
        return Err(Status::InvalidBodyKind);
    }
    if tag > 3 {
        return Err(Status::InvalidShapeTag);
    }
    for offset in [
        core::mem::offset_of!(BodyDef, enable_sleep),
        core::mem::offset_of!(BodyDef, awake),
        core::mem::offset_of!(BodyDef, bullet),
        core::mem::offset_of!(BodyDef, fixed_rotation),
        core::mem::offset_of!(BodyDef, sensor),
    ] {
        // SAFETY: the offset lies inside the readable BodyDef and names a one-byte bool.
        if unsafe { core::ptr::read(base.add(offset)) } > 1 {
            return Err(Status::InvalidInput);
        }
    }
    // SAFETY: both enum tags and the bools are valid, and every other field is plain
    // f32/u32/u64 data.
    let def: BodyDef = unsafe { core::ptr::read_unaligned(p) };
    check_shape(def.shape)?;
    Ok(def)
}

/// Adds a body; writes its id to `*out_id`. Every value of the definition is checked as
/// `World::add_body` checks it: `C2D_STATUS_INVALID_SHAPE` (or the shape maker's status) for a
/// shape its constructors would not make, `C2D_STATUS_INVALID_INPUT` for non-finite numbers,
/// `C2D_STATUS_OUT_OF_RANGE` for a position or shape beyond `C2D_MAX_COORDINATE`, a speed
/// above the world's `max_linear_speed` or `C2D_MAX_ANGULAR_SPEED`, a density, friction,
/// restitution or gravity scale beyond `C2D_MAX_DENSITY`, `C2D_MAX_FRICTION`, `C2D_MAX_RESTITUTION` or
/// `C2D_MAX_GRAVITY_SCALE`; `C2D_STATUS_UNSUPPORTED` for a chain segment on a dynamic body or
/// a sensor without area. `C2D_STATUS_OUT_OF_MEMORY` when the allocator cannot provide the
/// room for the body: the world is unchanged and `*out_id` not written.
///
/// # Safety
/// other pointers NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_add_body(
    world: WorldId,
    def: *const BodyDef,
    out_id: *mut BodyId,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, d) = match unsafe { (world_mut(world), read_body_def(def)) } {
        (Ok(w), Ok(d)) => (w, d),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    if out_id.is_null() {
        return Status::NullPointer;
    }
    match w.add_body(&d) {
        // SAFETY: `out_id` checked non-null; writable by the caller's contract.
        Ok(id) => unsafe { write(out_id, id) },
        Err(e) => e.into(),
    }
}

/// Removes a body. Its touching contacts and sensor overlaps end: the next
/// `c2d_world_step` reports them first in its end events (`c2d_world_end_events`,
/// `c2d_world_sensor_end_events`), with the body's id as it was (stale by then: read its
/// user data before removing it). Allocates nothing. Stale ids: `C2D_STATUS_INVALID_BODY`;
/// `C2D_STATUS_OUT_OF_MEMORY` only after a step that itself ran out of memory (the world is
/// then unchanged).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_remove_body(world: WorldId, id: BodyId) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.remove_body(id)),
        Err(e) => e,
    }
}

/// Sets the contact recycling distance in metres (default `C2D_CONTACT_RECYCLE_DISTANCE`;
/// 0 recomputes every manifold every step). A recycled contact keeps its normal and
/// feature ids and carries its points along with the two bodies. Negative or non-finite:
/// `C2D_STATUS_INVALID_INPUT`.
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_recycle_distance(world: WorldId, distance: f32) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_recycle_distance(distance)),
        Err(e) => e,
    }
}

/// Copies a body's solver state (transform, velocities, inverse mass...) to `*out`.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_get_body(world: WorldId, id: BodyId, out: *mut Body) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_ref(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    match w.body(id) {
        // SAFETY: checked by the helper; writability is the caller's contract.
        Ok(b) => unsafe { write(out, *b) },
        Err(e) => e.into(),
    }
}

/// Writes a body's user data (given at creation) to `*out`.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_user_data(world: WorldId, id: BodyId, out: *mut u64) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_ref(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    match w.user_data(id) {
        // SAFETY: checked by the helper; writability is the caller's contract.
        Ok(u) => unsafe { write(out, u) },
        Err(e) => e.into(),
    }
}

/// Sets a body's velocities (ignored for static bodies): non-finite is
/// `C2D_STATUS_INVALID_INPUT`; a speed above the world's `max_linear_speed` or
/// `C2D_MAX_ANGULAR_SPEED` is `C2D_STATUS_OUT_OF_RANGE` (never clamped).
///
/// # Safety
/// `linear` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_velocity(
    world: WorldId,
    id: BodyId,
    linear: *const Vec2,
    angular: f32,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { (world_mut(world), read(linear)) } {
        (Ok(w), Ok(v)) => status(w.set_velocity(id, v, angular)),
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// Teleports a body to `*xf`: a position beyond `C2D_MAX_COORDINATE` is
/// `C2D_STATUS_OUT_OF_RANGE`.
///
/// # Safety
/// `xf` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_transform(world: WorldId, id: BodyId, xf: *const Transform) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { (world_mut(world), read(xf)) } {
        (Ok(w), Ok(x)) => status(w.set_transform(id, x)),
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// Checks the world's invariants (Rust: `World::check_invariants`): every body finite and
/// in its place in the broad phase, contacts listed on both bodies, islands, events and the
/// solver's bookkeeping consistent. `C2D_STATUS_OK`, or `C2D_STATUS_WORLD_CORRUPT` (a defect
/// of the library). Linear in bodies and contacts: for tests and fuzzing, not every frame.
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_validate(world: WorldId) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        Ok(w) => match w.check_invariants(false) {
            Ok(()) => Status::Ok,
            Err(_) => Status::WorldCorrupt,
        },
        Err(e) => e,
    }
}

/// Makes room ahead of time for `moving` more dynamic or kinematic shapes, `fixed` more
/// static or kinematic shapes (a kinematic shape counts in both; a chain's segments are
/// shapes) and `contacts` more contacts, so that adding them grows no per-shape array (each
/// array otherwise doubles when it fills: a level of a million chain segments would double
/// them all when the first crate arrives). Capacity hints only: nothing is added.
/// `C2D_STATUS_OUT_OF_MEMORY` when the allocator cannot provide the room (the world is
/// unchanged).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_reserve(
    world: WorldId,
    moving: usize,
    fixed: usize,
    contacts: usize,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => match w.reserve(moving, fixed, contacts) {
            Ok(()) => Status::Ok,
            Err(e) => e.into(),
        },
        Err(e) => e,
    }
}

/// Writes the number of live bodies and of touching contacts (either pointer may be NULL).
///
/// # Safety
/// the outputs NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_counts(
    world: WorldId,
    out_bodies: *mut u32,
    out_contacts: *mut u32,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_ref(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    // SAFETY: each output is written only when non-null; writable by contract.
    unsafe {
        if !out_bodies.is_null() {
            write(out_bodies, u32::try_from(w.body_count()).unwrap_or(u32::MAX));
        }
        if !out_contacts.is_null() {
            write(out_contacts, u32::try_from(w.contact_count()).unwrap_or(u32::MAX));
        }
    }
    Status::Ok
}

/// Copies up to `capacity` events into `buffer` (NULL only with capacity 0) and writes the
/// total number available to `*out_count`.
///
/// # Safety
/// `buffer` must have room for `capacity` events; `out_count` NULL or writable.
pub(super) unsafe fn copy_events<T: Copy>(
    events: &[T],
    buffer: *mut T,
    capacity: usize,
    out_count: *mut usize,
) -> Status {
    if out_count.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: `buffer` has room for `capacity` events by the caller's contract.
    let dst = match unsafe { slice_mut(buffer, capacity) } {
        Ok(d) => d,
        Err(e) => return e,
    };
    let n = events.len().min(dst.len());
    dst[..n].copy_from_slice(&events[..n]);
    // SAFETY: `out_count` checked non-null; writable by contract.
    unsafe { write(out_count, events.len()) }
}

/// The last step's begin-touch events (with their first manifold); see `copy` rules:
/// up to `capacity` are copied into `buffer`, the total is written to `*out_count`.
///
/// # Safety
/// `buffer` room for `capacity` events (NULL with 0).
#[no_mangle]
pub unsafe extern "C" fn c2d_world_begin_events(
    world: WorldId,
    buffer: *mut ContactEvent,
    capacity: usize,
    out_count: *mut usize,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        Ok(w) => unsafe { copy_events(w.begin_events(), buffer, capacity, out_count) },
        Err(e) => e,
    }
}

/// The last step's end-touch events, copied as in `c2d_world_begin_events`: first the
/// contacts ended between that step and the one before it (bodies removed, filters changed),
/// in the order they were ended, then those that stopped touching during the step. Every
/// begin is matched by exactly one end; an end caused between steps is reported by the next
/// step, not before. Removed bodies' ids are stale when read. Read a step's end events before
/// its begin events (a refiltered pair can end and begin again in one step).
///
/// # Safety
/// As `c2d_world_begin_events`.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_end_events(
    world: WorldId,
    buffer: *mut ContactEvent,
    capacity: usize,
    out_count: *mut usize,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        Ok(w) => unsafe { copy_events(w.end_events(), buffer, capacity, out_count) },
        Err(e) => e,
    }
}

/// The bodies the last step stopped because its arithmetic would have left them non-finite
/// (Rust: `World::fault_events`), copied as in `c2d_world_begin_events`: each keeps its pose
/// from before the step with zero velocity. Input the world accepted never causes this.
///
/// # Safety
/// `buffer` room for `capacity` ids (NULL with 0); `out_count` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_fault_events(
    world: WorldId,
    buffer: *mut BodyId,
    capacity: usize,
    out_count: *mut usize,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        Ok(w) => unsafe { copy_events(w.fault_events(), buffer, capacity, out_count) },
        Err(e) => e,
    }
}

/// Makes a body definition with zero velocity, the default material (density 1,
/// friction 0.6, restitution 0) and no user data.
///
/// # Safety
/// `shape` and `xf` NULL or readable; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_body_def(
    kind: u32,
    xf: *const Transform,
    shape: *const Shape,
    out: *mut BodyDef,
) -> Status {
    use crate::world::BodyKind;
    let kind = match kind {
        0 => BodyKind::Static,
        1 => BodyKind::Kinematic,
        2 => BodyKind::Dynamic,
        _ => return Status::InvalidBodyKind,
    };
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (xf, s) = match unsafe { (read(xf), read_shape(shape)) } {
        (Ok(x), Ok(s)) => (x, s),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    // SAFETY: checked by the helper; writability is the caller's contract.
    unsafe { write(out, BodyDef::new(kind, xf, s)) }
}

/// The last step's sensor-overlap begin events, copied as in `c2d_world_begin_events`.
///
/// # Safety
/// As `c2d_world_begin_events`.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_sensor_begin_events(
    world: WorldId,
    buffer: *mut SensorEvent,
    capacity: usize,
    out_count: *mut usize,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        Ok(w) => unsafe { copy_events(w.sensor_begin_events(), buffer, capacity, out_count) },
        Err(e) => e,
    }
}

/// The last step's sensor-overlap end events, copied as in `c2d_world_begin_events`: first
/// those ended between that step and the one before it (the sensor or the visitor removed,
/// a filter changed), then those that ended during the step.
///
/// # Safety
/// As `c2d_world_begin_events`.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_sensor_end_events(
    world: WorldId,
    buffer: *mut SensorEvent,
    capacity: usize,
    out_count: *mut usize,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        Ok(w) => unsafe { copy_events(w.sensor_end_events(), buffer, capacity, out_count) },
        Err(e) => e,
    }
}
