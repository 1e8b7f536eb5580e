//! Character movement for any convex mover shape, as pure functions over a level of the
//! caller's (a slice, a callback, a dynamic tree, or a `World`).
//!
//! - [`move_and_slide`] — one call per frame: moves the mover by a desired translation,
//!   sliding along what it touches, and reports its position, clipped velocity, ground and
//!   contacts ([`MoveOptions`]: skin, iterations, walkable slope, ground snap, sliding on steep
//!   slopes, moving platforms).
//! - [`collide_mover`] / [`cast_mover`] — the two queries it is built from, for a mover loop
//!   of one's own: the planes of what the mover touches, and how far it can translate.
//! - [`solve_planes`] / [`clip_vector`] — Box2D v3.1's plane solver.
//!
//! A level is anything implementing [`MoverLevel`]: `[Obstacle]`, [`TreeLevel`], [`FnLevel`]
//! (from [`level_fn`]) or `World::mover_level`.
//!
//! ## Planes
//! A kinematic mover collects the planes of what it touches (a plane's normal points from the
//! obstacle toward the mover, its offset places it at the mover's allowed position), then asks
//! [`solve_planes`] how far it may go toward a desired translation: every plane pushes the
//! translation back out of it, with an accumulated push clamped to `[0, push_limit]` (a soft
//! plane has a finite limit), iterated until the pushes settle. [`clip_vector`] then removes
//! the velocity component into every plane that pushed.

mod planes;
mod query;
mod slide;

pub use planes::{
    clip_vector, solve_planes, solve_planes_with_slop, CollisionPlane, Plane, PlaneSolverResult, PLANE_SLOP,
    PLANE_SOLVER_MAX_ITERATIONS,
};
pub use query::{
    cast_mover, collide_mover, level_fn, FnLevel, MoverHit, MoverLevel, MoverPlane, Obstacle, TreeLevel,
};
pub use slide::{move_and_slide, MoveOptions, MoveResult, MAX_MOVER_CONTACTS};
