//! Character movement for any convex mover shape, as pure functions over a level of the
//! caller's (a slice, a callback, a dynamic tree, or a `World`).
//!
//! - [`move_and_slide`] — one call per frame: moves the mover by a desired translation,
//!   sliding along what it touches, and reports its position, clipped velocity, ground and
//!   contacts ([`MoveOptions`]: skin, iterations, walkable slope, ground snap, sliding on steep
//!   slopes, moving platforms).
//! - [`collide_mover`] / [`cast_mover`] — the two queries it is built from, for a mover loop
//!   of one's own: the planes of what the mover touches, and how far it can translate.
//! - [`solve_planes`] / [`clip_vector`] — Box2D v3's plane solver.
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
//!
//! ## The algorithm
//! The mover keeps a *skin* of clearance from everything it touches: it rests with its surface
//! `skin` away from the floor and walls (never inside them, unlike Box2D's mover which rests
//! its linear slop inside), and no move brings it closer than a quarter of the skin (the cast
//! stops half a skin short; sliding along a face may close a further quarter; in a gap
//! narrower than two skins it keeps the surfaces apart instead).
//!
//! 1. **Ground and intent.** The planes within the skin band (`2 × skin`) at the start tell
//!    whether the mover stands on walkable ground (normal within `max_slope` of `up`; among
//!    equally close planes the one facing most nearly up). On ground, the lateral part of the
//!    desired translation is turned along the ground (a slope is climbed or descended at the
//!    commanded lateral speed), its downward part is dropped (no creeping down walkable
//!    slopes) and the ground's velocity × `time_step` is added (a moving platform carries the
//!    mover).
//! 2. **Solve.** Every obstacle the mover is inside the skin band of gives a plane "end at
//!    least `skin` away" (one it penetrates pushes it straight out, in one step, without
//!    overshoot). One it rests against, at the skin, is left to step 3. The translation
//!    nearest the target that meets every plane is found exactly (in 2D it is the target, a
//!    projection onto one plane or the corner of two; Box2D's iterative
//!    [`solve_planes_with_slop`] is the fallback beyond 16 planes). A steep surface (not
//!    walkable, facing up) also acts as a vertical wall, so it cannot be climbed.
//! 3. **Verify at the end.** The planes are linear; the shapes are not. The obstacles near the
//!    proposed end position are collided there, and each the mover would really come within
//!    the skin of adds the plane it meets on the way (the feature normal where a cast along the
//!    move first comes within the skin, the move allowed up to there), and the solve repeats.
//!    This makes the mover ghost-free on floors made of separate boxes: the corner of the next
//!    box, flush with the floor, tilts a plane toward the mover but is never closer at the end
//!    than the floor itself, so it never lifts or slows the mover.
//! 4. **Cast.** The mover is cast along the solved translation, stopping half a skin short of
//!    the first obstacle it moves into ([`cast_mover`]): nothing between the start and the end
//!    is passed, at any speed. After a stop the rest of that step is solved again from there
//!    (up to `max_iterations`), so the path is never longer than the first solved step.
//! 5. **Snap and report.** When the mover walked off its ground (down a step or a steeper
//!    part of a slope) and is not moving up, it is cast down by up to `ground_snap` onto
//!    walkable ground. The velocity loses its part into every surface that blocked the move
//!    (walkable ground only its downward part, so walking speed survives slopes; a steep slope
//!    first its lateral part, so it never turns walking speed into climbing speed).

//!
//! ## One-way platforms
//! A chain segment ([`ChainSegment`](crate::geometry::ChainSegment)) is one-sided: its front
//! is the side its normal faces. The mover treats each as a one-way platform, by the mover's
//! position at the start of the move and its motion:
//! - **Passes.** A segment the mover is *behind* at the start of the move — some part of it
//!   lies behind the segment's line (by more than 2.5e-4 of the mover's extent, for round-off)
//!   anywhere between the perpendiculars through the segment's ends — is left out of the whole
//!   move: no plane, no push-out, no ground, no cast hit. A mover jumping up through a
//!   platform moves exactly as commanded and is never on ground while inside it; one whose
//!   jump tops out inside it falls back through.
//! - **Lands.** A mover wholly in front of the segment meets it as any surface, from the
//!   front only: moving away from the face (up, for a platform) it never touches it; coming
//!   down onto the face from above, the cast stops it and it lands (on ground, in the skin
//!   band). The mover never starts a move behind a segment it came down onto, so it stays on.
//! - **Moving platforms.** With a positive [`MoveOptions::time_step`] the segment is judged
//!   where it was at the start of the frame (moved back by its velocity at its midpoint times
//!   the time step), so a platform rising into the mover standing on it carries it; with a
//!   time step of 0, one that rises more than a skin into the mover in a frame is passed.
//!
//! The rule sits in one place, between the level and every query the mover makes (whichever
//! the level: a slice, a [`TreeLevel`], a [`level_fn`] or `World::mover_level`).
//! [`collide_mover`] and [`cast_mover`] apply it with the mover's given transform as the start.

mod options;
mod plane_sets;
mod planes;
mod query;
mod slide;

pub use options::{MoveOptions, MoveResult, MAX_MOVER_CONTACTS, MAX_MOVE_ITERATIONS, MAX_MOVE_TRANSLATION};
pub use planes::{
    clip_vector, solve_planes, solve_planes_with_slop, CollisionPlane, Plane, PlaneSolverResult, PLANE_SLOP,
    PLANE_SOLVER_MAX_ITERATIONS,
};
pub use query::{
    cast_mover, collide_mover, level_fn, FnLevel, MoverHit, MoverLevel, MoverPlane, Obstacle, TreeLevel,
};
pub use slide::move_and_slide;
