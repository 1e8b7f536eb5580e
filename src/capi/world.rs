//! The C `c2d_World`: an opaque heap handle over [`crate::world::World`] (feature `alloc`).

use super::status::{check_shape, read, read_shape, slice_mut, status, write, Status};
use crate::geometry::Shape;
use crate::math::{Aabb, Transform, Vec2};
use crate::solver::{Body, SolverSettings};
use crate::world::{BodyDef, BodyId, ContactEvent, World, WorldRayHit};
use alloc::boxed::Box;
use core::ffi::c_void;

/// Callback for `c2d_world_query_aabb`: return false to stop.
pub type WorldQueryCallback = Option<unsafe extern "C" fn(body: BodyId, context: *mut c_void) -> bool>;

/// # Safety
/// `w` must be NULL or a live handle from `c2d_world_create`.
unsafe fn world_ref<'a>(w: *const World) -> Result<&'a World, Status> {
    // SAFETY: non-null handles are live worlds by the caller's contract.
    unsafe { w.as_ref() }.ok_or(Status::NullPointer)
}

/// # Safety
/// As [`world_ref`], with no other reference live.
unsafe fn world_mut<'a>(w: *mut World) -> Result<&'a mut World, Status> {
    // SAFETY: non-null handles are live, exclusively borrowed worlds by contract.
    unsafe { w.as_mut() }.ok_or(Status::NullPointer)
}

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
    if tag > 2 {
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

/// Creates an empty world with `*settings` (NULL: the defaults); writes the handle to
/// `*out`. Free it with `c2d_world_free`.
///
/// # Safety
/// `settings` NULL or readable; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_create(settings: *const SolverSettings, out: *mut *mut World) -> Status {
    if out.is_null() {
        return Status::NullPointer;
    }
    let s = if settings.is_null() {
        SolverSettings::default()
    } else {
        // SAFETY: non-null and readable by the caller's contract.
        unsafe { core::ptr::read_unaligned(settings) }
    };
    let w = Box::into_raw(Box::new(World::new(s)));
    // SAFETY: `out` checked non-null; writable by the caller's contract.
    unsafe { out.write_unaligned(w) };
    Status::Ok
}

/// Frees a world (NULL is ignored).
///
/// # Safety
/// `world` must be NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_free(world: *mut World) {
    if !world.is_null() {
        // SAFETY: handles come from Box::into_raw in c2d_world_create, freed once.
        drop(unsafe { Box::from_raw(world) });
    }
}

/// Adds a body; writes its id to `*out_id`.
///
/// # Safety
/// `world` NULL or live; other pointers NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_add_body(
    world: *mut World,
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

/// Removes a body (touching contacts produce end events). Stale ids:
/// `C2D_STATUS_INVALID_BODY`.
///
/// # Safety
/// `world` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_remove_body(world: *mut World, id: BodyId) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.remove_body(id)),
        Err(e) => e,
    }
}

/// Advances the world by `dt` seconds in `substeps` sub-steps (1..=64).
///
/// # Safety
/// `world` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_step(world: *mut World, dt: f32, substeps: u32) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.step(dt, substeps)),
        Err(e) => e,
    }
}

/// Sets the contact recycling distance in metres (default `c2d_CONTACT_RECYCLE_DISTANCE`;
/// 0 recomputes every manifold every step). Negative or non-finite:
/// `C2D_STATUS_INVALID_INPUT`.
///
/// # Safety
/// `world` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_recycle_distance(world: *mut World, distance: f32) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_recycle_distance(distance)),
        Err(e) => e,
    }
}

/// Copies a body's solver state (transform, velocities, inverse mass...) to `*out`.
///
/// # Safety
/// `world` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_get_body(world: *const World, id: BodyId, out: *mut Body) -> Status {
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
/// `world` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_user_data(world: *const World, id: BodyId, out: *mut u64) -> Status {
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

/// Sets a body's velocities (ignored for static bodies).
///
/// # Safety
/// `world` NULL or live; `linear` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_velocity(
    world: *mut World,
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

/// Teleports a body to `*xf`.
///
/// # Safety
/// `world` NULL or live; `xf` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_transform(
    world: *mut World,
    id: BodyId,
    xf: *const Transform,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { (world_mut(world), read(xf)) } {
        (Ok(w), Ok(x)) => status(w.set_transform(id, x)),
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// Writes the number of live bodies and of touching contacts (either pointer may be NULL).
///
/// # Safety
/// `world` NULL or live; the outputs NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_counts(
    world: *const World,
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
unsafe fn copy_events(
    events: &[ContactEvent],
    buffer: *mut ContactEvent,
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
/// `world` NULL or live; `buffer` room for `capacity` events (NULL with 0).
#[no_mangle]
pub unsafe extern "C" fn c2d_world_begin_events(
    world: *const World,
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

/// The last step's end-touch events (and those of bodies removed since), copied as in
/// `c2d_world_begin_events`.
///
/// # Safety
/// As `c2d_world_begin_events`.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_end_events(
    world: *const World,
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

/// Closest body hit by the ray from `*origin` along `*translation`. Writes whether there
/// was a hit to `*out_hit`, and the hit to `*out` only when there was.
///
/// # Safety
/// `world` NULL or live; other pointers NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_ray_cast(
    world: *const World,
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
/// # Safety
/// `world` NULL or live; `aabb` NULL or readable; `callback` safe to call with `context`.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_query_aabb(
    world: *const World,
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
