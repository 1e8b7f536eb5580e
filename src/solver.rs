//! The optional impulse solver (feature `solver`): immediate mode, no allocation.
//!
//! Bodies ([`Body`]) and contact constraints ([`ContactConstraint`]) live in caller-owned
//! slices. One frame is:
//!
//! 1. for every touching pair, [`prepare_contact`] turns a [`Manifold`](crate::Manifold)
//!    (computed with a speculative margin, see
//!    [`collide_with_margin`](crate::collide_with_margin)) into a constraint, copying last
//!    frame's accumulated impulses for points with the same feature id (warm starting);
//! 2. [`step`] advances bodies and constraints by `dt` in `settings.substeps` sub-steps.
//!
//! # Method: soft step (sub-stepped sequential impulses with soft contacts)
//!
//! This follows Box2D v3's "soft step" solver. Each sub-step of length `h = dt / substeps`:
//! integrate velocities (gravity, damping) → warm start → solve contacts with a soft
//! position bias → integrate positions → *relax* (solve again with no bias, and friction).
//! After the last sub-step, restitution is applied once. Friction is solved only in the
//! relax pass, as in Box2D v3: the biased pass adds push-out velocity that relax removes,
//! and friction solved against it would resist a motion about to disappear. Constraints are prepared once per step; the
//! current separation of each point is tracked in every sub-step from the bodies' motion
//! since the step began (`delta_position`, `delta_rotation`), so no collision detection runs
//! inside the sub-steps.
//!
//! Position error is corrected with **soft contacts**, not Baumgarte with slop. Why: a soft
//! contact is a damped spring (stiffness in hertz, damping ratio) whose impulse formula is
//! derived from the implicit integrator, so its behaviour does not depend on mass ratios, the
//! number of sub-steps or the time step; Baumgarte's factor has to be retuned for each of
//! those and feeds energy into stacks. The relax pass removes the velocity the bias added,
//! so pushing out never makes bodies jump, and the push-out speed is capped
//! ([`SolverSettings::contact_push_max_velocity`]). Points with positive separation
//! (speculative points) only stop the approach: they allow the bodies to close the gap in
//! exactly one sub-step and no further, which prevents tunnelling at moderate speeds.
//!
//! Constraints are processed in slice order (Gauss–Seidel). Runs of four consecutive
//! constraints that share no moving body are processed together in SIMD lanes — bit-for-bit
//! the result of processing them one by one, on every target, so this is purely a speed-up
//! for callers that order constraints well (the [`World`](crate::World) colours its contact
//! graph). [`step_with_scratch`] also packs such runs once per step ([`ContactBlock`])
//! instead of gathering them on every pass.
//!
//! Each point is solved with accumulated-impulse clamping (the total normal impulse stays
//! ≥ 0; the total friction impulse stays within ±μ·normal impulse, Coulomb's cone).
//! Restitution uses the fastest approach speed seen during the step (Box2D uses the speed at
//! preparation, which misses what gravity adds before impact: 5% of the bounce height for a
//! box dropped 2 m at 60 Hz), and only
//! where the approach was faster than [`SolverSettings::restitution_threshold`] and the point
//! actually pushed.
//!
//! Bad input never panics: constraints naming bodies out of range (or the same body twice)
//! are skipped; [`step`] rejects non-finite or non-positive `dt` and zero sub-steps with an
//! error before touching anything. There is no sleeping; bodies are integrated every step.

use bytemuck::{Pod, Zeroable};

use crate::fmath;
use crate::geometry::MassData;
use crate::math::{Rot, Transform, Vec2};

// This file holds the public types and the material mixing rules; the rest is in:
// building constraints from manifolds and warm starting them,
mod prepare;
// integration, the passes as public functions, and the steps,
mod stepping;
// the contact passes on lanes of constraints,
mod passes;
// the lanes the passes work on (bodies and constraints, one per lane),
mod layout;
// a pass over the caller's constraints, gathering runs of them into lanes,
mod gather;
// runs of constraints packed into lanes once per step (`ContactBlock`),
mod block;
// the lane arithmetic,
mod lanes;
// joints (their settings) and how a World's step solves them, before the contacts in each phase,
#[cfg(feature = "alloc")]
mod joint_sim;
mod joints;
// and the solver's values in a world snapshot.
#[cfg(feature = "alloc")]
mod snapshot;

pub use block::ContactBlock;
#[cfg(feature = "alloc")]
pub(crate) use joint_sim::{reaction, HingeSim, JointBody, JointSim};
pub use joints::{
    DistanceJoint, JointImpulses, JointKind, MotorJoint, PrismaticJoint, RevoluteJoint, WeldJoint, WheelJoint,
};
#[cfg(feature = "alloc")]
pub(crate) use layout::BodyState;
#[cfg(feature = "alloc")]
pub(crate) use prepare::{constraint_at, constraint_point, usable, Carried};
pub use prepare::{prepare_contact, prepare_contact_pair, ContactPair, WARM_START_DISTANCE};
pub use stepping::{
    apply_restitution, integrate_positions, integrate_velocities, solve_contacts, step, step_with_scratch,
    warm_start, RESTITUTION_PASSES,
};
#[cfg(feature = "alloc")]
pub(crate) use stepping::{step_blocks, VelocityKick};

/// Errors from the solver and the world.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverError {
    /// `dt` not finite or not positive, or sub-step count zero or above [`MAX_SUBSTEPS`].
    InvalidStep = 1,
    /// A body index out of range, or both bodies of a pair the same.
    InvalidBody = 2,
    /// Non-finite or out-of-range numbers (transform, velocity, mass, material).
    InvalidInput = 3,
    /// The allocator could not provide the memory for a new body, shape or chain; the world
    /// is unchanged.
    OutOfMemory = 4,
    /// A shape its constructors would not make ([`Shape::validate`](crate::Shape::validate)):
    /// non-finite data, a negative radius, a hand-filled polygon that fails
    /// [`Polygon::is_valid`](crate::Polygon::is_valid).
    InvalidShape = 5,
    /// A finite value outside its documented range (see [`crate::world::limits`]): a position
    /// or shape beyond the world's extent, a speed above the speed limit, a gravity scale,
    /// force or setting beyond its bound. Nothing is changed; nothing is ever clamped silently.
    OutOfRange = 6,
    /// A valid shape the world cannot give this body: a chain segment (no area, no mass) on a
    /// dynamic body, a segment as a sensor.
    Unsupported = 7,
    /// A shape id that names no live shape of this world (stale: the shape or its body was
    /// removed).
    InvalidShapeId = 8,
    /// A chain id that names no live chain of this world (stale: the chain or its body was
    /// removed).
    InvalidChainId = 9,
    /// A joint id that names no live joint of this world (stale: the joint or one of its
    /// bodies was removed).
    InvalidJoint = 10,
}

impl core::error::Error for SolverError {}

impl core::fmt::Display for SolverError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            SolverError::InvalidStep => {
                "time step must be finite and positive (a World: 1e-6 to 1 s), sub-steps 1..=64"
            }
            SolverError::InvalidBody => "body index out of range, stale, or the same body twice",
            SolverError::InvalidInput => "non-finite or out-of-range input",
            SolverError::OutOfMemory => "out of memory",
            SolverError::InvalidShape => {
                "shape not valid (non-finite, negative radius, or a polygon failing is_valid)"
            }
            SolverError::OutOfRange => "value outside its documented range",
            SolverError::Unsupported => {
                "shape not supported for this body (chain segment on a dynamic body, segment as a sensor)"
            }
            SolverError::InvalidShapeId => "shape id stale or of no shape",
            SolverError::InvalidChainId => "chain id stale or of no chain",
            SolverError::InvalidJoint => "joint id stale or of no joint",
        })
    }
}

/// Fastest angular speed (rad/s) a body keeps through a sub-step's integration (with the
/// rotation per sub-step limited to π/4): with the linear speed limit, it bounds every
/// point's speed, and so every impulse, between sub-steps.
pub const MAX_ANGULAR_SPEED: f32 = 1.0e4;

/// Most sub-steps [`step`] accepts.
pub const MAX_SUBSTEPS: u32 = 64;

/// A rigid body as the solver sees it. Static bodies have zero inverse mass, zero inverse
/// inertia and zero velocity; kinematic bodies have zero inverse mass and inertia and move
/// with their velocity; dynamic bodies have positive inverse mass.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Body {
    /// World transform of the body origin (the frame its shape is defined in).
    pub transform: Transform,
    /// Centre of mass in the body frame.
    pub local_center: Vec2,
    /// World velocity of the centre of mass (m/s).
    pub linear_velocity: Vec2,
    /// Angular velocity (rad/s, counter-clockwise positive).
    pub angular_velocity: f32,
    /// 1 / mass, or 0 for static and kinematic bodies.
    pub inv_mass: f32,
    /// 1 / rotational inertia about the centre of mass, or 0 (also for fixed rotation).
    pub inv_inertia: f32,
    /// Multiplies gravity for this body (1 for dynamic bodies, 0 otherwise by default).
    pub gravity_scale: f32,
    /// Linear damping rate (1/s); velocity is scaled by `1 / (1 + h·damping)` per sub-step.
    pub linear_damping: f32,
    /// Angular damping rate (1/s).
    pub angular_damping: f32,
    /// World force (N) applied at the centre of mass in every sub-step; a world clears it
    /// after each step, immediate-mode callers keep or
    /// clear it themselves. Ignored for bodies with zero inverse mass.
    pub force: Vec2,
    /// Torque (N·m, counter-clockwise positive) applied in every sub-step, as `force`.
    pub torque: f32,
    /// Solver scratch: centre-of-mass displacement since the current step began.
    pub delta_position: Vec2,
    /// Solver scratch: rotation since the current step began.
    pub delta_rotation: Rot,
}

impl Body {
    /// A static body at `transform`: never moves, infinite mass.
    #[must_use]
    pub fn new_static(transform: Transform) -> Body {
        Body {
            transform,
            local_center: Vec2::ZERO,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            inv_mass: 0.0,
            inv_inertia: 0.0,
            gravity_scale: 0.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            force: Vec2::ZERO,
            torque: 0.0,
            delta_position: Vec2::ZERO,
            delta_rotation: Rot::IDENTITY,
        }
    }

    /// A kinematic body: infinite mass, moves with the given velocities, ignores gravity.
    #[must_use]
    pub fn new_kinematic(transform: Transform, linear_velocity: Vec2, angular_velocity: f32) -> Body {
        Body {
            linear_velocity,
            angular_velocity,
            ..Body::new_static(transform)
        }
    }

    /// A dynamic body with the given mass properties (from a shape's `mass(density)`).
    /// Errors with [`SolverError::InvalidInput`] unless the transform is valid and the mass
    /// is finite and positive, and unless the inverse mass and inverse inertia are finite
    /// (a mass or inertia below about 3e-39, whose reciprocal overflows `f32`, is refused).
    /// A zero or non-finite inertia gives a body that does not rotate.
    pub fn new_dynamic(transform: Transform, mass: MassData) -> Result<Body, SolverError> {
        if !(transform.is_valid() && positive(mass.mass) && mass.center.is_finite()) {
            return Err(SolverError::InvalidInput);
        }
        let i = mass.rotational_inertia;
        let (inv_mass, inv_inertia) = (1.0 / mass.mass, if positive(i) { 1.0 / i } else { 0.0 });
        if !(inv_mass.is_finite() && inv_inertia.is_finite()) {
            return Err(SolverError::InvalidInput);
        }
        Ok(Body {
            local_center: mass.center,
            inv_mass,
            inv_inertia,
            gravity_scale: 1.0,
            ..Body::new_static(transform)
        })
    }

    /// World position of the centre of mass.
    #[inline]
    #[must_use]
    pub fn center(&self) -> Vec2 {
        self.transform.apply(self.local_center)
    }

    /// World velocity of the material point at world position `p`.
    #[inline]
    #[must_use]
    pub fn velocity_at(&self, p: Vec2) -> Vec2 {
        let r = p - self.center();
        self.linear_velocity + cross_sv(self.angular_velocity, r)
    }

    /// True when every field is finite and the rotation is unit length.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.transform.is_valid()
            && self.local_center.is_finite()
            && self.linear_velocity.is_finite()
            && self.angular_velocity.is_finite()
            && non_negative(self.inv_mass)
            && non_negative(self.inv_inertia)
            && self.gravity_scale.is_finite()
            && non_negative(self.linear_damping)
            && non_negative(self.angular_damping)
            && self.force.is_finite()
            && self.torque.is_finite()
    }
}

/// One point of a [`ContactConstraint`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct ConstraintPoint {
    /// Contact point relative to body A's centre of mass, world frame, at preparation.
    pub anchor_a: Vec2,
    /// Contact point relative to body B's centre of mass, world frame, at preparation.
    pub anchor_b: Vec2,
    /// Separation at preparation (−depth) minus `dot(anchor_b − anchor_a, normal)`; the
    /// solver adds the bodies' motion to get the current separation.
    pub base_separation: f32,
    /// Accumulated normal impulse (N·s, ≥ 0). Carried to the next step by feature id.
    pub normal_impulse: f32,
    /// Accumulated friction impulse along `right_perp(normal)`. Carried by feature id.
    pub tangent_impulse: f32,
    /// Largest normal impulse applied in one iteration of the last step (0: never pushed).
    pub max_normal_impulse: f32,
    /// Effective mass along the normal.
    pub normal_mass: f32,
    /// Effective mass along the tangent.
    pub tangent_mass: f32,
    /// Normal relative velocity (negative when approaching): at preparation, then the fastest
    /// approach seen before the solve of each sub-step. Restitution bounces with it.
    pub relative_velocity: f32,
    /// The manifold point's feature id.
    pub id: u32,
}

/// A contact between two bodies, prepared from a manifold by [`prepare_contact`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct ContactConstraint {
    /// Index of body A in the bodies slice.
    pub body_a: u32,
    /// Index of body B in the bodies slice.
    pub body_b: u32,
    /// World unit normal from A to B (the manifold's).
    pub normal: Vec2,
    /// Coulomb friction coefficient (already combined).
    pub friction: f32,
    /// Restitution (already combined).
    pub restitution: f32,
    /// The points; the first `count` are used.
    pub points: [ConstraintPoint; 2],
    /// Number of points, 0 to 2.
    pub count: u32,
}

/// Solver tuning. [`SolverSettings::default`] gives Box2D v3's values.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SolverSettings {
    /// Gravity acceleration (m/s²), default (0, −10).
    pub gravity: Vec2,
    /// Sub-steps per step, 1..=64, default 4: the immediate-mode solver's count ([`step`]).
    /// A world takes its count from each `World::step` call instead (and reports the last one here).
    pub substeps: u32,
    /// Contact stiffness in hertz, default 30 (capped at a quarter of the sub-step rate).
    pub contact_hertz: f32,
    /// Contact damping ratio, default 10 (strongly over-damped: no bounce from push-out).
    pub contact_damping_ratio: f32,
    /// Fastest speed at which overlap is pushed apart (m/s), default 3.
    pub contact_push_max_velocity: f32,
    /// Approach speed below which restitution is ignored (m/s), default 1.
    pub restitution_threshold: f32,
    /// Speed limit for bodies (m/s), default 400.
    pub max_linear_speed: f32,
}

impl Default for SolverSettings {
    fn default() -> Self {
        SolverSettings {
            gravity: Vec2::new(0.0, -10.0),
            substeps: 4,
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            contact_push_max_velocity: 3.0,
            restitution_threshold: 1.0,
            max_linear_speed: 400.0,
        }
    }
}

impl SolverSettings {
    pub(crate) fn is_valid(&self) -> bool {
        self.gravity.is_finite()
            && (1..=MAX_SUBSTEPS).contains(&self.substeps)
            && positive(self.contact_hertz)
            && non_negative(self.contact_damping_ratio)
            && non_negative(self.contact_push_max_velocity)
            && non_negative(self.restitution_threshold)
            && positive(self.max_linear_speed)
    }
}

/// Combines two friction coefficients: `sqrt(a·b)` (Box2D's rule: either surface being
/// frictionless makes the pair frictionless).
#[inline]
#[must_use]
pub fn mix_friction(a: f32, b: f32) -> f32 {
    fmath::sqrt(a * b)
}

/// Combines two restitutions: the larger (Box2D's rule: a bouncy ball bounces on anything).
#[inline]
#[must_use]
pub fn mix_restitution(a: f32, b: f32) -> f32 {
    a.max(b)
}

/// Finite and ≥ 0 (false for NaN). Plain compares: `Range::contains` on floats compiles to
/// a classification of the bit pattern here.
#[inline]
#[allow(clippy::manual_range_contains)]
pub(crate) fn non_negative(x: f32) -> bool {
    x >= 0.0 && x < f32::INFINITY
}

/// Finite and > 0 (false for NaN).
#[inline]
pub(crate) fn positive(x: f32) -> bool {
    x > 0.0 && x < f32::INFINITY
}

#[inline]
fn cross_sv(s: f32, v: Vec2) -> Vec2 {
    Vec2::new(-s * v.y, s * v.x)
}
