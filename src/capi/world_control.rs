//! The C world's per-body controls: sleep, bullets, forces and impulses, damping,
//! gravity scale, fixed rotation and collision filters.

use super::status::{read, status, write, write_listed, Status};
use super::world_id::{world_mut, world_ref, WorldId};
use crate::math::Vec2;
use crate::tree::Filter;
use crate::world::{BodyId, StepProfile};

/// Writes whether the body is awake (static bodies never are).
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_is_awake(world: WorldId, id: BodyId, out: *mut bool) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_ref(world) }.map(|w| w.is_awake(id)) {
        // SAFETY: checked by the helper; writability is the caller's contract.
        Ok(Ok(a)) => unsafe { write(out, a) },
        Ok(Err(e)) => e.into(),
        Err(e) => e,
    }
}

/// Wakes the body's island (`awake`), or puts the body and everything touching it to sleep.
/// Stale ids: `C2D_STATUS_INVALID_BODY`. Putting to sleep allocates: `C2D_STATUS_OUT_OF_MEMORY`
/// when the memory is not there (the bodies then stay awake as they were); waking allocates
/// nothing.
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_awake(world: WorldId, id: BodyId, awake: bool) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_awake(id, awake)),
        Err(e) => e,
    }
}

/// Allows or forbids sleeping for the whole world (forbidding wakes everything).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_sleep_enabled(world: WorldId, enabled: bool) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => {
            w.set_sleep_enabled(enabled);
            Status::Ok
        }
        Err(e) => e,
    }
}

/// Allows or forbids sleeping for one body.
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_body_sleep_enabled(
    world: WorldId,
    id: BodyId,
    enabled: bool,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_body_sleep_enabled(id, enabled)),
        Err(e) => e,
    }
}

/// Turns the continuous phase on or off (default on).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_continuous_enabled(world: WorldId, enabled: bool) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => {
            w.set_continuous_enabled(enabled);
            Status::Ok
        }
        Err(e) => e,
    }
}

/// Turns internal-edge removal on (the default) or off (Rust: `World::set_internal_edge_removal`):
/// contacts of moving shapes with static polygons whose normal comes from an edge another
/// static polygon covers (the seam between two tiles), or a corner next to one, are taken with
/// the exposed edge as a one-sided chain segment, so a floor of separate boxes slides and
/// lands as smoothly as a chain.
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_internal_edge_removal(world: WorldId, enabled: bool) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => {
            w.set_internal_edge_removal(enabled);
            Status::Ok
        }
        Err(e) => e,
    }
}

/// Marks a dynamic body as a bullet (swept against dynamic bodies too).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_bullet(world: WorldId, id: BodyId, bullet: bool) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_bullet(id, bullet)),
        Err(e) => e,
    }
}

/// Writes the number of bodies (a compound or chain body counts once).
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_body_count(world: WorldId, out: *mut u32) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        Ok(w) => unsafe { write(out, u32::try_from(w.body_count()).unwrap_or(u32::MAX)) },
        Err(e) => e,
    }
}

/// Writes the number of awake (kinematic and dynamic) bodies.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_awake_body_count(world: WorldId, out: *mut u32) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        Ok(w) => unsafe { write(out, u32::try_from(w.awake_body_count()).unwrap_or(u32::MAX)) },
        Err(e) => e,
    }
}

/// Applies a world force (N) at world point `*point` for the next step (dynamic bodies;
/// wakes the body). `point` NULL: at the centre of mass. Forces and torques adding up to an
/// acceleration above `C2D_MAX_ACCELERATION` are `C2D_STATUS_OUT_OF_RANGE` (nothing added).
///
/// # Safety
/// `force` NULL or readable; `point` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_apply_force(
    world: WorldId,
    id: BodyId,
    force: *const Vec2,
    point: *const Vec2,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, f) = match unsafe { (world_mut(world), read(force)) } {
        (Ok(w), Ok(f)) => (w, f),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    if point.is_null() {
        return status(w.apply_force_to_center(id, f));
    }
    // SAFETY: non-null, readable by contract.
    match unsafe { read(point) } {
        Ok(p) => status(w.apply_force(id, f, p)),
        Err(e) => e,
    }
}

/// Applies a torque (N·m, counter-clockwise positive) for the next step (checked as
/// `c2d_world_apply_force`).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_apply_torque(world: WorldId, id: BodyId, torque: f32) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.apply_torque(id, torque)),
        Err(e) => e,
    }
}

/// Applies a linear impulse (N·s) at world point `*point` now (`point` NULL: at the centre).
/// An impulse that would leave the body faster than the world's `max_linear_speed` or
/// `C2D_MAX_ANGULAR_SPEED` is `C2D_STATUS_OUT_OF_RANGE` (nothing changes).
///
/// # Safety
/// `impulse` NULL or readable; `point` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_apply_linear_impulse(
    world: WorldId,
    id: BodyId,
    impulse: *const Vec2,
    point: *const Vec2,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, j) = match unsafe { (world_mut(world), read(impulse)) } {
        (Ok(w), Ok(j)) => (w, j),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    if point.is_null() {
        return status(w.apply_linear_impulse_to_center(id, j));
    }
    // SAFETY: non-null, readable by contract.
    match unsafe { read(point) } {
        Ok(p) => status(w.apply_linear_impulse(id, j, p)),
        Err(e) => e,
    }
}

/// Applies an angular impulse (N·m·s) now (checked as `c2d_world_apply_linear_impulse`).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_apply_angular_impulse(world: WorldId, id: BodyId, impulse: f32) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.apply_angular_impulse(id, impulse)),
        Err(e) => e,
    }
}

/// Sets a dynamic body's linear and angular damping rates (1/s, ≥ 0).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_damping(
    world: WorldId,
    id: BodyId,
    linear: f32,
    angular: f32,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_damping(id, linear, angular)),
        Err(e) => e,
    }
}

/// Sets a dynamic body's gravity scale: non-finite is `C2D_STATUS_INVALID_INPUT`, beyond
/// ±`C2D_MAX_GRAVITY_SCALE` `C2D_STATUS_OUT_OF_RANGE`.
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_gravity_scale(world: WorldId, id: BodyId, scale: f32) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_gravity_scale(id, scale)),
        Err(e) => e,
    }
}

/// Fixes (`true`) or frees a dynamic body's rotation. Freeing it is
/// `C2D_STATUS_INVALID_INPUT` (the rotation stays fixed) when the body's inertia is too small
/// for its inverse to be finite.
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_fixed_rotation(world: WorldId, id: BodyId, fixed: bool) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_fixed_rotation(id, fixed)),
        Err(e) => e,
    }
}

/// Replaces a body's collision filter: its contacts end and are found again next step, which
/// reports the ends of the touching ones first in its end events. Allocates nothing, except
/// after a step that itself ran out of memory: then `C2D_STATUS_OUT_OF_MEMORY` when the room
/// for the events still cannot be had (the world is unchanged).
///
/// # Safety
/// `filter` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_filter(world: WorldId, id: BodyId, filter: *const Filter) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { (world_mut(world), read(filter)) } {
        (Ok(w), Ok(f)) => status(w.set_filter(id, f)),
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// Writes whether shapes with filters `*a` and `*b` collide (Box2D's rule; for the tree
/// alone as for the world).
///
/// # Safety
/// `a`, `b` NULL or readable; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_filter_should_collide(
    a: *const Filter,
    b: *const Filter,
    out: *mut bool,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { (read(a), read(b)) } {
        // SAFETY: checked by the helper; writability is the caller's contract.
        (Ok(a), Ok(b)) => unsafe { write(out, a.should_collide(&b)) },
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// Sets the clock `c2d_world_profile` times each step's phases with: any monotonic tick
/// counter (nanoseconds, CPU cycles...); NULL (the default) times nothing.
///
/// # Safety
/// `clock` NULL or a function callable from any thread that steps
/// the world.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_profile_clock(
    world: WorldId,
    clock: Option<extern "C" fn() -> u64>,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => {
            w.set_profile_clock(clock);
            Status::Ok
        }
        Err(e) => e,
    }
}

/// Writes how long each phase of the last step took, in ticks of the profile clock (all
/// zero without one, or after a failed step).
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_profile(world: WorldId, out: *mut StepProfile) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        Ok(w) => unsafe { write(out, w.profile()) },
        Err(e) => e,
    }
}

/// Sets the world's gravity (m/s²; Rust: `World::set_gravity`): non-finite is
/// `C2D_STATUS_INVALID_INPUT`, beyond `C2D_MAX_GRAVITY` `C2D_STATUS_OUT_OF_RANGE`. Sleeping
/// bodies stay asleep until something wakes them.
///
/// # Safety
/// `gravity` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_gravity(world: WorldId, gravity: *const Vec2) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_mut(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    if gravity.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: non-null and readable by contract; plain data.
    status(w.set_gravity(unsafe { core::ptr::read_unaligned(gravity) }))
}

/// Writes the world's gravity (m/s²) to `*out`.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_get_gravity(world: WorldId, out: *mut Vec2) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        // SAFETY: `out` NULL or writable by contract.
        Ok(w) => unsafe { write(out, w.gravity()) },
        Err(e) => e,
    }
}

/// Every live body's id, in slot order, into `out` (room for `capacity`); their count to
/// `*out_count` (always; `C2D_STATUS_BUFFER_TOO_SMALL` when they do not fit: call
/// `c2d_world_body_count` first, or pass NULL with capacity 0 to ask).
///
/// # Safety
/// `out` NULL or `capacity` writable `c2d_BodyId`; `out_count` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_body_ids(
    world: WorldId,
    out: *mut BodyId,
    capacity: u32,
    out_count: *mut u32,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_ref(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    // SAFETY: the outputs as this function's contract states.
    unsafe { write_listed(w.body_ids(), out, capacity, out_count) }
}

/// Every touching contact between two solid shapes (Rust: `World::contacts`), in contact
/// order, into `out` (room for `capacity`): the two shapes, their bodies and the manifold
/// (normal from shape A to shape B; an awake contact's as the last step solved it, a sleeping
/// one's as last computed in full, or computed now when none is kept; one or two points each).
/// Their count to `*out_count` (always; `C2D_STATUS_BUFFER_TOO_SMALL` when they do not fit:
/// pass NULL with capacity 0 to ask).
///
/// # Safety
/// `out` NULL or `capacity` writable `c2d_ContactEvent`; `out_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_contacts(
    world: WorldId,
    out: *mut crate::world::ContactEvent,
    capacity: u32,
    out_count: *mut u32,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_ref(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    // SAFETY: the outputs as this function's contract states.
    unsafe { write_listed(w.contacts(), out, capacity, out_count) }
}
