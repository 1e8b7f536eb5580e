//! World queries from C: rays, boxes, shape overlaps and casts with query filters, and the
//! character mover over a world (`c2d_world_move_and_slide`, `c2d_world_move_and_push`).

use super::status::{read, read_shape, write, Status};
use super::world_id::{world_mut, world_ref, Locked, WorldId};
use crate::geometry::Shape;
use crate::math::{Aabb, Transform, Vec2};
use crate::tree::Visit;
use crate::world::{BodyId, QueryFilter, WorldCastHit, WorldRayHit};
use core::ffi::c_void;

/// Callback for `c2d_world_query_aabb`: return false to stop.
pub type WorldQueryCallback = Option<unsafe extern "C" fn(body: BodyId, context: *mut c_void) -> bool>;

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
/// A mover transform `*xf` that is not finite, or whose rotation is not unit length, is
/// `C2D_STATUS_NON_FINITE` (nothing is written).
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
/// A mover transform `*xf` that is not finite, or whose rotation is not unit length, is
/// `C2D_STATUS_NON_FINITE` (nothing is written).
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
