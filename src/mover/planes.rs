//! The plane solver: Box2D v3's `b2SolvePlanes` and `b2ClipVector`, same semantics and
//! arithmetic, so code written against Box2D's mover ports directly.

use crate::math::Vec2;
use bytemuck::{Pod, Zeroable};

/// Box2D's linear slop (0.005 length units): the plane solver lets the mover end this far past
/// each plane it pushes against (into the obstacle, so the contact persists from frame to
/// frame without jitter) and stops when the total push of an iteration falls below it.
pub const PLANE_SLOP: f32 = 0.005;

/// Iteration cap of [`solve_planes`] (Box2D's 20).
pub const PLANE_SOLVER_MAX_ITERATIONS: u32 = 20;

/// A line `normal · x = offset` (world frame): points with `normal · x > offset` are on the
/// positive (allowed) side. `normal` is unit length.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Plane {
    /// Unit normal of the allowed side.
    pub normal: Vec2,
    /// Signed distance of the line from the origin along `normal`.
    pub offset: f32,
}

impl Plane {
    /// Signed distance of `point` from the plane (positive on the allowed side).
    #[inline]
    #[must_use]
    pub fn separation(&self, point: Vec2) -> f32 {
        self.normal.dot(point) - self.offset
    }
}

/// A collision plane for [`solve_planes`] (Box2D's `b2CollisionPlane`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct CollisionPlane {
    /// The plane, in the frame of the translation being solved: the mover's translation must
    /// end on its positive side.
    pub plane: Plane,
    /// Largest total push this plane may apply (length units): `f32::MAX` for a rigid plane,
    /// less for a soft one.
    pub push_limit: f32,
    /// Output of [`solve_planes`]: the total push this plane applied (length units, `>= 0`).
    pub push: f32,
    /// Whether [`clip_vector`] clips against this plane (1) or not (0; false for soft
    /// collision). A `u32` so the struct is plain data for C.
    pub clip_velocity: u32,
}

/// Result of [`solve_planes`] (Box2D's `b2PlaneSolverResult`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct PlaneSolverResult {
    /// The translation that satisfies the planes (same frame as the target).
    pub translation: Vec2,
    /// Iterations used (for diagnostics; [`PLANE_SOLVER_MAX_ITERATIONS`] when not settled).
    pub iteration_count: u32,
}

/// Solves for the translation nearest `target` that satisfies every plane (see the
/// [module docs](crate::mover)), with [`PLANE_SLOP`]; writes each plane's `push`. Box2D's
/// `b2SolvePlanes`, operation for operation.
pub fn solve_planes(target: Vec2, planes: &mut [CollisionPlane]) -> PlaneSolverResult {
    solve_planes_with_slop(target, planes, PLANE_SLOP)
}

/// [`solve_planes`] with a chosen slop (for scenes not in metres: Box2D scales its slop with
/// its length units per metre). A negative or NaN slop is taken as 0.
pub fn solve_planes_with_slop(target: Vec2, planes: &mut [CollisionPlane], slop: f32) -> PlaneSolverResult {
    let slop = if slop > 0.0 { slop } else { 0.0 };
    for p in planes.iter_mut() {
        p.push = 0.0;
    }
    let mut delta = target;
    let mut iteration = 0;
    while iteration < PLANE_SOLVER_MAX_ITERATIONS {
        let mut total = 0.0f32;
        for p in planes.iter_mut() {
            // The slop leaves the mover a hair into the plane (the contact persists: no jitter).
            let separation = p.plane.separation(delta) + slop;
            let push = -separation;
            let accumulated = p.push;
            // Box2D's `b2ClampFloat(a, 0, limit)`, compare for compare.
            let a = accumulated + push;
            p.push = if a < 0.0 {
                0.0
            } else if a > p.push_limit {
                p.push_limit
            } else {
                a
            };
            let push = p.push - accumulated;
            delta = delta.mul_add(push, p.plane.normal);
            total += push.abs();
        }
        if total < slop {
            break;
        }
        iteration += 1;
    }
    PlaneSolverResult {
        translation: delta,
        iteration_count: iteration,
    }
}

/// Removes from `v` its component into every plane that pushed (`push != 0`) and asks for it
/// (`clip_velocity != 0`), in order (Box2D's `b2ClipVector`).
#[must_use]
pub fn clip_vector(v: Vec2, planes: &[CollisionPlane]) -> Vec2 {
    let mut v = v;
    for p in planes {
        if p.push == 0.0 || p.clip_velocity == 0 {
            continue;
        }
        let into = v.dot(p.plane.normal);
        let into = if 0.0 < into { 0.0 } else { into };
        v = Vec2::new(v.x - into * p.plane.normal.x, v.y - into * p.plane.normal.y);
    }
    v
}
