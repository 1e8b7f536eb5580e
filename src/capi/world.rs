//! The C world calls over [`crate::world::World`] (feature `alloc`), each naming its world by
//! a [`WorldId`] (see `world_id.rs`).

use super::status::{check_shape, read, read_shape, slice_mut, status, write, write_listed, Status};
use super::world_id::{world_mut, world_ref, Locked, WorldId};
use crate::geometry::Shape;
use crate::math::{Aabb, Transform, Vec2};
use crate::solver::{Body, SolverError};
use crate::tree::{Filter, Visit};
use crate::world::{
    BodyDef, BodyId, ContactEvent, Material, QueryFilter, SensorEvent, ShapeDef, ShapeId, WorldCastHit,
    WorldRayHit,
};
use core::ffi::c_void;

/// Callback for `c2d_world_query_aabb`: return false to stop.
pub type WorldQueryCallback = Option<unsafe extern "C" fn(body: BodyId, context: *mut c_void) -> bool>;

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
/// restitution or gravity scale beyond `C2D_MAX_DENSITY`, `C2D_MAX_MATERIAL_COEFFICIENT` or
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

/// Adds another shape (body space) to a body: a compound body, each shape with its own proxy
/// and the body's material, filter, sensor flag and user data; a dynamic body's mass
/// properties become those of all its shapes (Rust: `World::add_shape`). The shape is checked
/// as `c2d_world_add_body` checks one. Writes the new shape's id to `*out_shape` unless it is
/// NULL. `C2D_STATUS_OUT_OF_MEMORY` when the allocator cannot provide the room for the shape:
/// the world is unchanged.
///
/// # Safety
/// `shape` NULL or a readable `c2d_Shape`; `out_shape` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_add_shape(
    world: WorldId,
    id: BodyId,
    shape: *const Shape,
    out_shape: *mut ShapeId,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, sh) = match unsafe { (world_mut(world), read_shape(shape)) } {
        (Ok(w), Ok(s)) => (w, s),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    // SAFETY: `out_shape` NULL or writable by contract.
    unsafe { write_shape_id(w.add_shape(id, &sh), out_shape) }
}

/// Writes the id of a shape just added to `*out` unless `out` is NULL.
///
/// # Safety
/// `out` NULL or writable.
unsafe fn write_shape_id(r: Result<ShapeId, SolverError>, out: *mut ShapeId) -> Status {
    match r {
        Ok(s) if !out.is_null() => {
            // SAFETY: non-null and writable by the caller's contract.
            unsafe { core::ptr::write_unaligned(out, s) };
            Status::Ok
        }
        Ok(_) => Status::Ok,
        Err(e) => e.into(),
    }
}

/// A shape definition with the defaults for `*shape`: density 1, friction 0.6, restitution
/// 0, the default filter, not a sensor, user data 0 (Rust: `ShapeDef::new`). The shape is
/// checked as `c2d_world_add_body` checks one.
///
/// # Safety
/// `shape` NULL or a readable `c2d_Shape`; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_shape_def(shape: *const Shape, out: *mut ShapeDef) -> Status {
    // SAFETY: checked by the helper; readable by contract.
    let sh = match unsafe { read_shape(shape) } {
        Ok(s) => s,
        Err(e) => return e,
    };
    // SAFETY: `out` NULL or writable by contract.
    unsafe { write(out, ShapeDef::new(sh)) }
}

/// Reads a `c2d_ShapeDef`: its shape through `read_shape`, its sensor flag a valid bool.
///
/// # Safety
/// `p` NULL or a readable `c2d_ShapeDef`.
unsafe fn read_shape_def(p: *const ShapeDef) -> Result<ShapeDef, Status> {
    if p.is_null() {
        return Err(Status::NullPointer);
    }
    let base = p as *const u8;
    // SAFETY: the shape lies at its offset inside the readable definition.
    let shape = unsafe { read_shape(base.add(core::mem::offset_of!(ShapeDef, shape)) as *const Shape)? };
    // SAFETY: the offset lies inside the readable definition and names a one-byte bool.
    let sensor = unsafe { core::ptr::read(base.add(core::mem::offset_of!(ShapeDef, sensor))) };
    if sensor > 1 {
        return Err(Status::InvalidInput);
    }
    // SAFETY: each field is plain data at its offset inside the readable definition.
    unsafe {
        Ok(ShapeDef {
            shape,
            material: core::ptr::read_unaligned(
                base.add(core::mem::offset_of!(ShapeDef, material)) as *const Material
            ),
            filter: core::ptr::read_unaligned(
                base.add(core::mem::offset_of!(ShapeDef, filter)) as *const Filter
            ),
            sensor: sensor == 1,
            user_data: core::ptr::read_unaligned(
                base.add(core::mem::offset_of!(ShapeDef, user_data)) as *const u64
            ),
        })
    }
}

/// Adds a shape with its own material, filter, sensor flag and user data to a body (a foot
/// sensor on a player, per-shape friction); the shape and material are checked as at body
/// creation, and a dynamic body's mass comes from every shape's own density (Rust:
/// `World::add_shape_def`). Writes the new shape's id to `*out_shape` unless it is NULL.
/// `C2D_STATUS_UNSUPPORTED` for a shape without area on a dynamic body or as a sensor;
/// `C2D_STATUS_OUT_OF_MEMORY` when the allocator cannot provide the room for the shape: the
/// world is unchanged.
///
/// # Safety
/// `def` NULL or a readable `c2d_ShapeDef`; `out_shape` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_add_shape_def(
    world: WorldId,
    id: BodyId,
    def: *const ShapeDef,
    out_shape: *mut ShapeId,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, d) = match unsafe { (world_mut(world), read_shape_def(def)) } {
        (Ok(w), Ok(d)) => (w, d),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    // SAFETY: `out_shape` NULL or writable by contract.
    unsafe { write_shape_id(w.add_shape_def(id, &d), out_shape) }
}

/// The ids of a body's shapes (its first shape, then the added ones, most recent first)
/// into `out` (room for `capacity`), their count to `*out_count` (always;
/// `C2D_STATUS_BUFFER_TOO_SMALL` when they do not fit; `out` may be NULL with capacity 0 to
/// ask for the count).
///
/// # Safety
/// `out` NULL or `capacity` writable `c2d_ShapeId`; `out_count` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_body_shapes(
    world: WorldId,
    id: BodyId,
    out: *mut ShapeId,
    capacity: u32,
    out_count: *mut u32,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_ref(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    if out_count.is_null() {
        return Status::NullPointer;
    }
    match w.shape_ids(id) {
        // SAFETY: the outputs as this function's contract states.
        Ok(ids) => unsafe { write_listed(ids, out, capacity, out_count) },
        Err(e) => e.into(),
    }
}

/// The body a shape belongs to. `C2D_STATUS_INVALID_SHAPE_ID` for a stale shape id.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_shape_body(world: WorldId, shape: ShapeId, out: *mut BodyId) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        // SAFETY: `out` NULL or writable by contract.
        Ok(w) => match w.shape_body(shape) {
            Ok(b) => unsafe { write(out, b) },
            Err(e) => e.into(),
        },
        Err(e) => e,
    }
}

/// Everything about a shape (its geometry in body space, material, filter, sensor flag and
/// user data) as a `c2d_ShapeDef`. `C2D_STATUS_INVALID_SHAPE_ID` for a stale shape id.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_get_shape_def(
    world: WorldId,
    shape: ShapeId,
    out: *mut ShapeDef,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        // SAFETY: `out` NULL or writable by contract.
        Ok(w) => match w.shape_def(shape) {
            Ok(d) => unsafe { write(out, d) },
            Err(e) => e.into(),
        },
        Err(e) => e,
    }
}

/// Sets a shape's material: friction and restitution apply from the next step; on a dynamic
/// body a new density changes its mass as `c2d_world_add_shape_def` does (Rust:
/// `World::set_shape_material`). The material is checked as at creation.
///
/// # Safety
/// `material` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_shape_material(
    world: WorldId,
    shape: ShapeId,
    material: *const Material,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_mut(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    if material.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: non-null and readable by contract; plain data.
    let m = unsafe { core::ptr::read_unaligned(material) };
    status(w.set_shape_material(shape, m))
}

/// Sets a shape's collision filter; its contacts end (their end events come with the next
/// step's) and are found again under the new filter (Rust: `World::set_shape_filter`).
/// `C2D_STATUS_OUT_OF_MEMORY` only after a step that itself ran out of memory (nothing
/// changes).
///
/// # Safety
/// `filter` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_shape_filter(
    world: WorldId,
    shape: ShapeId,
    filter: *const Filter,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_mut(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    if filter.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: non-null and readable by contract; plain data.
    let f = unsafe { core::ptr::read_unaligned(filter) };
    status(w.set_shape_filter(shape, f))
}

/// Makes a shape a sensor (overlap events only) or a solid shape; its contacts end and are
/// found again (Rust: `World::set_shape_sensor`). `C2D_STATUS_UNSUPPORTED` for a sensor
/// without area; `C2D_STATUS_OUT_OF_MEMORY` only after a step that itself ran out of memory.
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_shape_sensor(world: WorldId, shape: ShapeId, sensor: bool) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_shape_sensor(shape, sensor)),
        Err(e) => e,
    }
}

/// Sets a shape's user data (a body's user data is its first shape's).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_shape_user_data(world: WorldId, shape: ShapeId, data: u64) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_shape_user_data(shape, data)),
        Err(e) => e,
    }
}

/// Removes a shape added to a body (its contacts end as with `c2d_world_remove_body`; a
/// dynamic body's mass becomes that of its other shapes). `C2D_STATUS_UNSUPPORTED` for a
/// body's first shape (remove the body); `C2D_STATUS_OUT_OF_MEMORY` only after a step that
/// itself ran out of memory (nothing changes).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_remove_shape(world: WorldId, shape: ShapeId) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.remove_shape(shape)),
        Err(e) => e,
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
unsafe fn copy_events<T: Copy>(
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

/// Closest body hit by the ray from `*origin` along `*translation`. Writes whether there
/// was a hit to `*out_hit`, and the hit to `*out` only when there was.
///
/// # Safety
/// other pointers NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_ray_cast(
    world: WorldId,
    origin: *const Vec2,
    translation: *const Vec2,
    out_hit: *mut bool,
    out: *mut WorldRayHit,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, o, t) = match unsafe { (world_ref(world), read(origin), read(translation)) } {
        (Ok(w), Ok(o), Ok(t)) => (w, o, t),
        (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => return e,
    };
    if out_hit.is_null() || out.is_null() {
        return Status::NullPointer;
    }
    let hit = w.ray_cast(o, t);
    if let Some(h) = hit {
        // SAFETY: `out` checked non-null; writable by contract.
        unsafe { write(out, h) };
    }
    // SAFETY: `out_hit` checked non-null; writable by contract.
    unsafe { write(out_hit, hit.is_some()) }
}

/// Calls `callback(body, context)` for every body whose shape overlaps `*aabb`.
///
/// While the callbacks run the world is locked: functions that change it return
/// `C2D_STATUS_LOCKED` (read it there, change it after the call returns).
///
/// # Safety
/// `aabb` NULL or readable; `callback` safe to call with `context`.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_query_aabb(
    world: WorldId,
    aabb: *const Aabb,
    callback: WorldQueryCallback,
    context: *mut c_void,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, b) = match unsafe { (world_ref(world), read(aabb)) } {
        (Ok(w), Ok(b)) => (w, b),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let Some(cb) = callback else {
        return Status::NullPointer;
    };
    let _lock = match Locked::new(world, w) {
        Ok(l) => l,
        Err(e) => return e,
    };
    // SAFETY: the callback and its context are the caller's, valid by contract.
    w.query_aabb(b, |id| unsafe { cb(id, context) });
    Status::Ok
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

/// Which bodies a filtered world query considers (Rust: [`QueryFilter`]): those whose
/// filter category is in `mask`, except the `ignore_count` bodies at `ignore` (NULL with
/// 0); sensor bodies only when `sensors` is non-zero.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct WorldQueryFilter {
    /// Category mask.
    pub mask: u64,
    /// Bodies never reported; NULL when `ignore_count` is 0.
    pub ignore: *const BodyId,
    /// Number of bodies at `ignore`.
    pub ignore_count: usize,
    /// Non-zero: sensor bodies are reported too.
    pub sensors: u32,
}

/// Reads a query filter; NULL means every non-sensor body.
///
/// # Safety
/// `p` NULL or readable; its `ignore` NULL or `ignore_count` readable ids.
unsafe fn read_query_filter<'a>(p: *const WorldQueryFilter) -> Result<QueryFilter<'a>, Status> {
    if p.is_null() {
        return Ok(QueryFilter::ALL);
    }
    // SAFETY: non-null and readable by the caller's contract; plain data.
    let f = unsafe { core::ptr::read_unaligned(p) };
    let ignore: &[BodyId] = if f.ignore_count == 0 {
        &[]
    } else if f.ignore.is_null() {
        return Err(Status::NullPointer);
    } else if !f.ignore.is_aligned() {
        return Err(Status::Misaligned);
    } else {
        // SAFETY: non-null, aligned, `ignore_count` readable ids by the caller's contract.
        unsafe { core::slice::from_raw_parts(f.ignore, f.ignore_count) }
    };
    Ok(QueryFilter {
        mask: f.mask,
        ignore,
        sensors: f.sensors != 0,
    })
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

/// `c2d_world_ray_cast` for the bodies passing `*filter` (NULL: every non-sensor body).
///
/// # Safety
/// other pointers NULL or valid (see `c2d_WorldQueryFilter`).
#[no_mangle]
pub unsafe extern "C" fn c2d_world_ray_cast_filtered(
    world: WorldId,
    origin: *const Vec2,
    translation: *const Vec2,
    filter: *const WorldQueryFilter,
    out_hit: *mut bool,
    out: *mut WorldRayHit,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, o, t, f) = match unsafe {
        (
            world_ref(world),
            read(origin),
            read(translation),
            read_query_filter(filter),
        )
    } {
        (Ok(w), Ok(o), Ok(t), Ok(f)) => (w, o, t, f),
        (Err(e), ..) | (_, Err(e), ..) | (_, _, Err(e), _) | (.., Err(e)) => return e,
    };
    if out_hit.is_null() || out.is_null() {
        return Status::NullPointer;
    }
    let hit = w.ray_cast_filtered(o, t, &f);
    if let Some(h) = hit {
        // SAFETY: `out` checked non-null; writable by contract.
        unsafe { write(out, h) };
    }
    // SAFETY: `out_hit` checked non-null; writable by contract.
    unsafe { write(out_hit, hit.is_some()) }
}

/// Callback for `c2d_world_ray_cast_all`: return 0 to stop, the hit's fraction to keep
/// only nearer hits from then on, or 1 (or any value outside (0, 1)) to go on.
pub type WorldRayCallback =
    Option<unsafe extern "C" fn(hit: *const WorldRayHit, context: *mut c_void) -> f32>;

/// Calls `callback(hit, context)` for every body passing `*filter` that the ray hits, in
/// no particular order.
///
/// While the callbacks run the world is locked (see `c2d_world_query_aabb`).
///
/// # Safety
/// pointers NULL or valid; `callback` safe to call with `context`.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_ray_cast_all(
    world: WorldId,
    origin: *const Vec2,
    translation: *const Vec2,
    filter: *const WorldQueryFilter,
    callback: WorldRayCallback,
    context: *mut c_void,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, o, t, f) = match unsafe {
        (
            world_ref(world),
            read(origin),
            read(translation),
            read_query_filter(filter),
        )
    } {
        (Ok(w), Ok(o), Ok(t), Ok(f)) => (w, o, t, f),
        (Err(e), ..) | (_, Err(e), ..) | (_, _, Err(e), _) | (.., Err(e)) => return e,
    };
    let Some(cb) = callback else {
        return Status::NullPointer;
    };
    let _lock = match Locked::new(world, w) {
        Ok(l) => l,
        Err(e) => return e,
    };
    w.ray_cast_all(o, t, &f, |hit| {
        // SAFETY: the callback and its context are the caller's, valid by contract; `hit`
        // lives across the call.
        let r = unsafe { cb(&hit, context) };
        #[allow(clippy::manual_range_contains)] // plain compares: NaN goes on
        if r == 0.0 {
            Visit::Stop
        } else if r > 0.0 && r < 1.0 {
            Visit::Clip(r)
        } else {
            Visit::Continue
        }
    });
    Status::Ok
}

/// Calls `callback(body, context)` for every body passing `*filter` whose shape overlaps or
/// touches `*shape` at `*xf`; the callback returns false to stop.
///
/// # Safety
/// pointers NULL or valid; `callback` safe to call with `context`.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_overlap_shape(
    world: WorldId,
    shape: *const Shape,
    xf: *const Transform,
    filter: *const WorldQueryFilter,
    callback: WorldQueryCallback,
    context: *mut c_void,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, s, x, f) = match unsafe {
        (
            world_ref(world),
            read_shape(shape),
            read(xf),
            read_query_filter(filter),
        )
    } {
        (Ok(w), Ok(s), Ok(x), Ok(f)) => (w, s, x, f),
        (Err(e), ..) | (_, Err(e), ..) | (_, _, Err(e), _) | (.., Err(e)) => return e,
    };
    let Some(cb) = callback else {
        return Status::NullPointer;
    };
    // SAFETY: the callback and its context are the caller's, valid by contract.
    w.overlap_shape(&s, x, &f, |id| unsafe { cb(id, context) });
    Status::Ok
}

/// The first body passing `*filter` that `*shape`, starting at `*xf`, touches as it moves by
/// `*translation`. Writes whether there was one to `*out_hit`, and the hit to `*out` when
/// there was.
///
/// # Safety
/// pointers NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_cast_shape(
    world: WorldId,
    shape: *const Shape,
    xf: *const Transform,
    translation: *const Vec2,
    filter: *const WorldQueryFilter,
    out_hit: *mut bool,
    out: *mut WorldCastHit,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, s, x, t) = match unsafe { (world_ref(world), read_shape(shape), read(xf), read(translation)) } {
        (Ok(w), Ok(s), Ok(x), Ok(t)) => (w, s, x, t),
        (Err(e), ..) | (_, Err(e), ..) | (_, _, Err(e), _) | (.., Err(e)) => return e,
    };
    // SAFETY: checked by the helper; validity is the caller's contract.
    let f = match unsafe { read_query_filter(filter) } {
        Ok(f) => f,
        Err(e) => return e,
    };
    if out_hit.is_null() || out.is_null() {
        return Status::NullPointer;
    }
    let hit = w.cast_shape(&s, x, t, &f);
    if let Some(h) = hit {
        // SAFETY: `out` checked non-null; writable by contract.
        unsafe { write(out, h) };
    }
    // SAFETY: `out_hit` checked non-null; writable by contract.
    unsafe { write(out_hit, hit.is_some()) }
}

/// `c2d_move_and_slide` through the world's bodies passing `*filter` (NULL: every non-sensor
/// body; put the character's own body, if it has one, in the filter's ignore list). The
/// ground's and the contacts' `user_data` are body ids packed as `index | generation << 32`
/// (`c2d_body_id_from_bits` unpacks one);
/// a kinematic or dynamic body the mover stands on carries it when `options->time_step` > 0.
///
/// # Safety
/// the other pointers NULL (options, filter) or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_move_and_slide(
    world: WorldId,
    shape: *const Shape,
    xf: *const Transform,
    translation: Vec2,
    velocity: Vec2,
    options: *const crate::mover::MoveOptions,
    filter: *const WorldQueryFilter,
    out: *mut crate::mover::MoveResult,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let args = unsafe {
        mover_args(
            world_ref(world),
            shape,
            xf,
            translation,
            velocity,
            options,
            filter,
            out,
        )
    };
    let (w, s, x, opts, f) = match args {
        Ok(a) => a,
        Err(e) => return e,
    };
    let r = crate::mover::move_and_slide(&w.mover_level(&f), &s, x, translation, velocity, &opts);
    // SAFETY: checked non-null; writable by contract.
    unsafe { write(out, r) }
}

/// The arguments of the world's mover calls, checked in this order: `out` non-null, a finite
/// translation and velocity, the world (looked up by the caller), the mover and its options,
/// the query filter.
///
/// # Safety
/// The pointers as `c2d_world_move_and_slide` states.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
unsafe fn mover_args<'a, W>(
    world: Result<W, Status>,
    shape: *const Shape,
    xf: *const Transform,
    translation: Vec2,
    velocity: Vec2,
    options: *const crate::mover::MoveOptions,
    filter: *const WorldQueryFilter,
    out: *mut crate::mover::MoveResult,
) -> Result<(W, Shape, Transform, crate::mover::MoveOptions, QueryFilter<'a>), Status> {
    if out.is_null() {
        return Err(Status::NullPointer);
    }
    if !translation.is_finite() || !velocity.is_finite() {
        return Err(Status::NonFinite);
    }
    let w = world?;
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (s, x, opts) = unsafe { super::mover::read_mover(shape, xf, options) }?;
    // SAFETY: as above.
    let f = unsafe { read_query_filter(filter) }?;
    Ok((w, s, x, opts, f))
}

/// Writes the default `c2d_MoverPush` (mass 80 kg, no force limit).
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_mover_push_default(out: *mut crate::world::MoverPush) -> Status {
    // SAFETY: checked by the helper; writable by contract.
    unsafe { write(out, crate::world::MoverPush::default()) }
}

/// `c2d_world_move_and_slide`, then the character pushes the dynamic bodies it walked into
/// and presses its weight on a dynamic body it stands on, as `*push` says (NULL: the
/// defaults), when `options->time_step` > 0 (Rust: `World::move_and_push`). The impulses take
/// effect in the next `c2d_world_step`. `C2D_STATUS_INVALID_INPUT` for a negative or NaN mass
/// or maximum force (nothing moved).
///
/// # Safety
/// the other pointers NULL (options, filter, push) or valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn c2d_world_move_and_push(
    world: WorldId,
    shape: *const Shape,
    xf: *const Transform,
    translation: Vec2,
    velocity: Vec2,
    options: *const crate::mover::MoveOptions,
    filter: *const WorldQueryFilter,
    push: *const crate::world::MoverPush,
    out: *mut crate::mover::MoveResult,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let args = unsafe {
        mover_args(
            world_mut(world),
            shape,
            xf,
            translation,
            velocity,
            options,
            filter,
            out,
        )
    };
    let (w, s, x, opts, f) = match args {
        Ok(a) => a,
        Err(e) => return e,
    };
    let p = if push.is_null() {
        crate::world::MoverPush::default()
    } else {
        // SAFETY: checked non-null; readable by contract.
        match unsafe { read(push) } {
            Ok(p) => p,
            Err(e) => return e,
        }
    };
    match w.move_and_push(&s, x, translation, velocity, &opts, &f, &p) {
        // SAFETY: checked non-null; writable by contract.
        Ok(r) => unsafe { write(out, r) },
        Err(e) => e.into(),
    }
}
