//! Character movement: the plane solver.

use super::status::{write, Status};
use crate::math::Vec2;
use crate::mover::{clip_vector, solve_planes, CollisionPlane, PlaneSolverResult};

/// Solves for the translation nearest `target` that satisfies the `count` collision planes
/// (Box2D v3.1's `b2SolvePlanes`: iterative push-out with accumulated, clamped pushes; the
/// mover may end `c2d_PLANE_SLOP` past a plane). Writes each plane's `push` and `*out`.
///
/// # Safety
/// `planes` NULL (only with `count` 0) or `count` writable `c2d_CollisionPlane`; `out` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_solve_planes(
    target: Vec2,
    planes: *mut CollisionPlane,
    count: u32,
    out: *mut PlaneSolverResult,
) -> Status {
    if out.is_null() || (planes.is_null() && count > 0) {
        return Status::NullPointer;
    }
    if !target.is_finite() {
        return Status::NonFinite;
    }
    let slice: &mut [CollisionPlane] = if count == 0 {
        &mut []
    } else {
        // SAFETY: non-null with `count` writable planes by the caller's contract.
        unsafe { core::slice::from_raw_parts_mut(planes, count as usize) }
    };
    let r = solve_planes(target, slice);
    // SAFETY: `out` checked non-null.
    unsafe { write(out, r) }
}

/// Removes from `v` its component into every plane with a non-zero push and `clip_velocity`
/// set (Box2D's `b2ClipVector`). Writes `*out`.
///
/// # Safety
/// `planes` NULL (only with `count` 0) or `count` readable `c2d_CollisionPlane`; `out` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_clip_vector(
    v: Vec2,
    planes: *const CollisionPlane,
    count: u32,
    out: *mut Vec2,
) -> Status {
    if out.is_null() || (planes.is_null() && count > 0) {
        return Status::NullPointer;
    }
    let slice: &[CollisionPlane] = if count == 0 {
        &[]
    } else {
        // SAFETY: non-null with `count` readable planes by the caller's contract.
        unsafe { core::slice::from_raw_parts(planes, count as usize) }
    };
    // SAFETY: `out` checked non-null.
    unsafe { write(out, clip_vector(v, slice)) }
}
