//! The optional impulse solver (feature `solver`): immediate mode, no allocation.
//!
//! Bodies ([`Body`]) and contact constraints ([`ContactConstraint`]) live in caller-owned
//! slices. One frame is:
//!
//! 1. for every touching pair, [`prepare_contact`] turns a [`Manifold`] (computed with a
//!    speculative margin, see [`collide_with_margin`](crate::collide_with_margin)) into a
//!    constraint, copying last frame's accumulated impulses for points with the same feature
//!    id (warm starting);
//! 2. [`step`] advances bodies and constraints by `dt` in `settings.substeps` sub-steps.
//!
//! # Method: soft step (sub-stepped sequential impulses with soft contacts)
//!
//! This follows Box2D v3's "soft step" solver. Each sub-step of length `h = dt / substeps`:
//! integrate velocities (gravity, damping) → warm start → solve contacts with a soft
//! position bias → integrate positions → *relax* (solve again with no bias, and friction).
//! After the last sub-step, restitution is applied once. Friction is solved only in the
//! relax pass, as in Box2D v3.1: the biased pass adds push-out velocity that relax removes,
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
use crate::narrowphase::Manifold;

mod block;
mod lanes;
#[cfg(feature = "alloc")]
pub(crate) use block::BodyState;
pub use block::ContactBlock;
use block::Pass;

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
}

impl core::error::Error for SolverError {}

impl core::fmt::Display for SolverError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            SolverError::InvalidStep => "time step must be finite and positive, sub-steps 1..=64",
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
    /// World force (N) applied at the centre of mass in every sub-step; the
    /// [`World`](crate::World) clears it after each step, immediate-mode callers keep or
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
    /// Sub-steps per step, 1..=64, default 4.
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

/// The inputs of [`prepare_contact_pair`]: one contact between two bodies, each part named.
#[derive(Clone, Copy, Debug)]
pub struct ContactPair<'a> {
    /// Index of body A in the body slice.
    pub a: u32,
    /// Index of body B.
    pub b: u32,
    /// The manifold of A's shape against B's (normal from A to B, world space).
    pub manifold: &'a Manifold,
    /// Coulomb friction coefficient (≥ 0), usually the mixed friction of the two materials.
    pub friction: f32,
    /// Restitution (≥ 0).
    pub restitution: f32,
    /// This pair's constraint from the last step, for warm starting (`None` the first time).
    pub previous: Option<&'a ContactConstraint>,
}

/// [`prepare_contact`] with its inputs named.
///
/// # Errors
/// As [`prepare_contact`].
pub fn prepare_contact_pair(
    bodies: &[Body],
    pair: &ContactPair<'_>,
) -> Result<ContactConstraint, SolverError> {
    prepare_contact(
        bodies,
        pair.a,
        pair.b,
        pair.manifold,
        pair.friction,
        pair.restitution,
        pair.previous,
    )
}

/// Builds the constraint for `manifold` (computed for the shapes of bodies `a` and `b` at
/// their current transforms, A first). When `previous` is this pair's constraint from the
/// last step, points whose feature ids match — or, failing that, that lie within
/// [`WARM_START_DISTANCE`] of an old point — start from its accumulated impulses.
///
/// Errors: [`SolverError::InvalidBody`] for indices out of range or `a == b`;
/// [`SolverError::InvalidInput`] for an invalid body, a non-finite manifold, or negative or
/// non-finite friction/restitution. A manifold with `count == 0` gives an empty constraint.
pub fn prepare_contact(
    bodies: &[Body],
    a: u32,
    b: u32,
    manifold: &Manifold,
    friction: f32,
    restitution: f32,
    previous: Option<&ContactConstraint>,
) -> Result<ContactConstraint, SolverError> {
    let (Some(ba), Some(bb)) = (bodies.get(a as usize), bodies.get(b as usize)) else {
        return Err(SolverError::InvalidBody);
    };
    if a == b {
        return Err(SolverError::InvalidBody);
    }
    if !(ba.is_valid() && bb.is_valid() && non_negative(friction) && non_negative(restitution)) {
        return Err(SolverError::InvalidInput);
    }
    let mut c = ContactConstraint::default();
    let carried = previous.map(Carried::new);
    build_constraint(
        &mut c,
        (a, ba),
        (b, bb),
        manifold,
        friction,
        restitution,
        carried.as_ref(),
    )?;
    Ok(c)
}

/// What warm starting takes from last step's constraint of a pair: per old point its feature
/// id, anchor on A and accumulated impulses. Small, so a constraint can be rebuilt in place.
#[derive(Clone, Copy)]
pub(crate) struct Carried {
    count: u32,
    points: [(u32, Vec2, f32, f32); 2],
}

impl Carried {
    pub(crate) fn new(prev: &ContactConstraint) -> Carried {
        let p = |cp: &ConstraintPoint| (cp.id, cp.anchor_a, cp.normal_impulse, cp.tangent_impulse);
        Carried {
            count: prev.count.min(2),
            points: [p(&prev.points[0]), p(&prev.points[1])],
        }
    }
}

/// Writes into `out` the constraint [`prepare_contact`] builds, for bodies, friction and
/// restitution already known to be valid (the world's): only the manifold is checked. On
/// error `out` is an empty constraint.
pub(crate) fn build_constraint(
    out: &mut ContactConstraint,
    (a, ba): (u32, &Body),
    (b, bb): (u32, &Body),
    manifold: &Manifold,
    friction: f32,
    restitution: f32,
    previous: Option<&Carried>,
) -> Result<(), SolverError> {
    *out = ContactConstraint {
        body_a: a,
        body_b: b,
        normal: manifold.normal,
        friction,
        restitution,
        ..ContactConstraint::default()
    };
    let pts = manifold.points();
    if pts.is_empty() {
        return Ok(());
    }
    if !usable(manifold) {
        *out = ContactConstraint::default();
        return Err(SolverError::InvalidInput);
    }
    let (ca, cb) = (ba.center(), bb.center());
    for (cp, mp) in out.points.iter_mut().zip(pts) {
        *cp = constraint_point(mp, manifold.normal, (ca, ba), (cb, bb));
    }
    out.count = pts.len() as u32;
    if let Some(prev) = previous {
        warm_start_from(out, prev);
    }
    Ok(())
}

/// Whether a manifold with points can be built into a constraint: finite, unit normal.
#[inline(always)]
pub(crate) fn usable(manifold: &Manifold) -> bool {
    let n = manifold.normal;
    let finite = n.is_finite()
        && manifold
            .points()
            .iter()
            .all(|mp| mp.point.is_finite() && mp.depth.is_finite());
    finite && (n.length_squared() - 1.0).abs() <= 1e-3
}

/// The constraint point of manifold point `mp` (normal `n`) between bodies `ba`, `bb` with
/// centres of mass `ca`, `cb`, impulses zero.
#[inline(always)]
pub(crate) fn constraint_point(
    mp: &crate::narrowphase::ManifoldPoint,
    n: Vec2,
    (ca, ba): (Vec2, &Body),
    (cb, bb): (Vec2, &Body),
) -> ConstraintPoint {
    let ra = mp.point - ca;
    let rb = mp.point - cb;
    constraint_at((ra, rb), -mp.depth - (rb - ra).dot(n), n, (ba, bb), mp.id)
}

/// The constraint point with anchors `ra`, `rb` (from each body's centre of mass, world
/// frame), base separation `base_separation` (see [`ConstraintPoint::base_separation`]) and
/// feature id `id` along normal `n` between bodies `ba`, `bb`: the effective masses and the
/// approach speed worked out from the bodies' masses and velocities, impulses zero.
#[inline(always)]
pub(crate) fn constraint_at(
    (ra, rb): (Vec2, Vec2),
    base_separation: f32,
    n: Vec2,
    (ba, bb): (&Body, &Body),
    id: u32,
) -> ConstraintPoint {
    let t = n.right_perp();
    let (ma, ia, mb, ib) = (ba.inv_mass, ba.inv_inertia, bb.inv_mass, bb.inv_inertia);
    let rna = ra.cross(n);
    let rnb = rb.cross(n);
    let kn = ma + mb + ia * rna * rna + ib * rnb * rnb;
    let rta = ra.cross(t);
    let rtb = rb.cross(t);
    let kt = ma + mb + ia * rta * rta + ib * rtb * rtb;
    let dv = bb.linear_velocity + cross_sv(bb.angular_velocity, rb)
        - ba.linear_velocity
        - cross_sv(ba.angular_velocity, ra);
    ConstraintPoint {
        anchor_a: ra,
        anchor_b: rb,
        base_separation,
        normal_impulse: 0.0,
        tangent_impulse: 0.0,
        max_normal_impulse: 0.0,
        normal_mass: if kn > 0.0 { 1.0 / kn } else { 0.0 },
        tangent_mass: if kt > 0.0 { 1.0 / kt } else { 0.0 },
        relative_velocity: dv.dot(n),
        id,
    }
}

/// Copies accumulated impulses from `prev` into `c`: first points with equal feature ids,
/// then each remaining point from the nearest unused old point within
/// [`WARM_START_DISTANCE`] (compared by anchor on body A; the first on a tie). The second
/// rule matters for stacks: with two equally deep faces (equal boxes stacked), the
/// manifold's reference face can switch between A and B from one frame to the next — the
/// manifold is swap-symmetric, so it has no preference — which renames the feature ids of
/// the same two corners.
fn warm_start_from(c: &mut ContactConstraint, prev: &Carried) {
    let count = (c.count as usize).min(2);
    warm_start_points(&mut c.points[..count], prev);
}

/// [`warm_start_from`] on the constraint's first points.
#[inline(always)]
pub(crate) fn warm_start_points(points: &mut [ConstraintPoint], prev: &Carried) {
    let old = &prev.points[..prev.count as usize];
    let count = points.len().min(2);
    // The common case, the same features in the same order: what the matching below gives
    // (each point takes the first unused old point of its id, which is its own).
    if old.len() == count && points.iter().zip(old).all(|(cp, o)| cp.id == o.0) {
        for (cp, &(_, _, normal, tangent)) in points.iter_mut().zip(old) {
            if normal.is_finite() && tangent.is_finite() {
                cp.normal_impulse = normal.max(0.0);
                cp.tangent_impulse = tangent;
            }
        }
        return;
    }
    match_points(points, prev);
}

/// [`warm_start_points`] without its shortcut: each point takes the first unused old point of
/// its feature id, then a point still without one takes the nearest unused old point within
/// [`WARM_START_DISTANCE`] of its anchor on A; a matched point takes that point's impulses
/// when they are finite (the normal one clamped at 0).
#[inline(always)]
fn match_points(points: &mut [ConstraintPoint], prev: &Carried) {
    const NONE: usize = usize::MAX;
    let old = &prev.points[..prev.count as usize];
    let count = points.len().min(2);
    let mut used = [false; 2];
    let mut source = [NONE; 2];
    for (k, cp) in points[..count].iter().enumerate() {
        for (j, o) in old.iter().enumerate() {
            if !used[j] && o.0 == cp.id {
                used[j] = true;
                source[k] = j;
                break;
            }
        }
    }
    for (k, cp) in points[..count].iter().enumerate() {
        if source[k] != NONE {
            continue;
        }
        let mut best = (NONE, WARM_START_DISTANCE * WARM_START_DISTANCE);
        for (j, o) in old.iter().enumerate() {
            let d2 = o.1.distance_squared(cp.anchor_a);
            if !used[j] && d2 <= best.1 && (best.0 == NONE || d2 < best.1) {
                best = (j, d2);
            }
        }
        if best.0 != NONE {
            used[best.0] = true;
            source[k] = best.0;
        }
    }
    for (cp, j) in points[..count].iter_mut().zip(source) {
        if let Some(&(_, _, normal, tangent)) = old.get(j) {
            if normal.is_finite() && tangent.is_finite() {
                cp.normal_impulse = normal.max(0.0);
                cp.tangent_impulse = tangent;
            }
        }
    }
}

/// Warm starting falls back to matching points by position within this distance (m) when
/// their feature ids differ (see [`prepare_contact`]).
pub const WARM_START_DISTANCE: f32 = 0.05;

/// Soft-constraint coefficients (Box2D v3's `b2Softness`).
#[derive(Clone, Copy)]
pub(crate) struct Softness {
    bias_rate: f32,
    mass_scale: f32,
    /// `1 / mass_scale`, for the two-point block solve.
    inv_mass_scale: f32,
    impulse_scale: f32,
}

fn softness(hertz: f32, zeta: f32, h: f32) -> Softness {
    let omega = 2.0 * core::f32::consts::PI * hertz;
    let a1 = 2.0 * zeta + h * omega;
    let a2 = h * omega * a1;
    let a3 = 1.0 / (1.0 + a2);
    Softness {
        bias_rate: omega / a1,
        mass_scale: a2 * a3,
        inv_mass_scale: 1.0 / (a2 * a3),
        impulse_scale: a3,
    }
}

/// The two bodies of a constraint, or `None` when the indices are out of range or equal.
pub(crate) fn pair_indices(n: usize, c: &ContactConstraint) -> Option<(usize, usize)> {
    let (a, b) = (c.body_a as usize, c.body_b as usize);
    (a < n && b < n && a != b).then_some((a, b))
}

/// Applies gravity, each body's force and torque, and damping to every body with positive
/// inverse mass or inertia, for a sub-step `h` (Box2D v3's order: accelerate, then damp:
/// `v ← (v + h·(g·gravity_scale + F/m)) / (1 + h·linear_damping)`, likewise for `ω` with the
/// torque and the angular damping).
pub fn integrate_velocities(bodies: &mut [Body], gravity: Vec2, h: f32) {
    for b in bodies.iter_mut() {
        if let Some((v, w)) = integrated_velocity(b, b.linear_velocity, b.angular_velocity, gravity, h) {
            b.linear_velocity = v;
            b.angular_velocity = w;
        }
    }
}

/// One body's velocity change per sub-step (gravity, force, torque, damping):
/// `v' = (v + dv) · linear_damping`, `w' = (w + dw) · angular_damping` when `moves`. The
/// World's step works it out once per step; [`integrate_velocities`] once per sub-step.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct VelocityKick {
    dv: Vec2,
    dw: f32,
    linear_damping: f32,
    angular_damping: f32,
    moves: bool,
}

impl VelocityKick {
    /// The velocity `(v, w)` after the sub-step, or `None` for a fixed body (no change).
    #[inline(always)]
    fn apply(&self, v: Vec2, w: f32) -> Option<(Vec2, f32)> {
        self.moves.then(|| {
            (
                (v + self.dv) * self.linear_damping,
                (w + self.dw) * self.angular_damping,
            )
        })
    }
}

/// [`VelocityKick`] of body `b` for a sub-step `h`; fixed bodies get none.
#[inline(always)]
fn velocity_kick(b: &Body, gravity: Vec2, h: f32) -> VelocityKick {
    if b.inv_mass == 0.0 && b.inv_inertia == 0.0 {
        return VelocityKick::default();
    }
    let a = if b.inv_mass > 0.0 {
        gravity * b.gravity_scale + b.force * b.inv_mass
    } else {
        Vec2::ZERO
    };
    VelocityKick {
        dv: a * h,
        dw: h * b.inv_inertia * b.torque,
        linear_damping: 1.0 / (1.0 + h * b.linear_damping),
        angular_damping: 1.0 / (1.0 + h * b.angular_damping),
        moves: true,
    }
}

/// Body `b`'s velocity `(v, w)` after a sub-step `h` of gravity, forces and damping (the
/// arithmetic of [`integrate_velocities`]), or `None` for a fixed body.
#[inline(always)]
fn integrated_velocity(b: &Body, v: Vec2, w: f32, gravity: Vec2, h: f32) -> Option<(Vec2, f32)> {
    velocity_kick(b, gravity, h).apply(v, w)
}

/// Rotation `q` advanced by the small angle `da` (first order, renormalised).
fn integrate_rotation(q: Rot, da: f32) -> Rot {
    let c = q.c - da * q.s;
    let s = q.s + da * q.c;
    let mag = fmath::sqrt(c * c + s * s);
    let inv = if mag > 0.0 { 1.0 / mag } else { 0.0 };
    Rot {
        c: c * inv,
        s: s * inv,
    }
}

/// Moves every body by its velocity for a sub-step `h` (speed limited to `max_speed`, rotation
/// limited to π/4 per sub-step and to [`MAX_ANGULAR_SPEED`]) and accumulates `delta_position` / `delta_rotation`.
pub fn integrate_positions(bodies: &mut [Body], h: f32, max_speed: f32) {
    for b in bodies.iter_mut() {
        let mut m = (
            b.linear_velocity,
            b.angular_velocity,
            b.delta_position,
            b.delta_rotation,
        );
        if integrate_position(&mut b.transform, b.local_center, &mut m, h, max_speed) {
            (
                b.linear_velocity,
                b.angular_velocity,
                b.delta_position,
                b.delta_rotation,
            ) = m;
        }
    }
}

/// One body's part of [`integrate_positions`]: moves `transform` (centre of mass at
/// `local_center`) by the velocity in `motion` (`v`, `w`, `dp`, `dq`), limiting the speed
/// there, and accumulates the motion. Returns whether the body moved (`motion` unchanged
/// otherwise).
#[inline(always)]
fn integrate_position(
    transform: &mut Transform,
    local_center: Vec2,
    (v, w, dp, dq): &mut (Vec2, f32, Vec2, Rot),
    h: f32,
    max_speed: f32,
) -> bool {
    const MAX_ROTATION: f32 = 0.25 * core::f32::consts::PI;
    if *v == Vec2::ZERO && *w == 0.0 {
        return false;
    }
    let speed2 = v.length_squared();
    if speed2 > max_speed * max_speed {
        *v *= max_speed / fmath::sqrt(speed2);
    }
    if (*w * h).abs() > MAX_ROTATION {
        *w = w.signum() * MAX_ROTATION / h;
    }
    *w = w.clamp(-MAX_ANGULAR_SPEED, MAX_ANGULAR_SPEED);
    let c = transform.apply(local_center) + *v * h;
    let q = integrate_rotation(transform.q, h * *w);
    *transform = Transform {
        p: c - q.rotate(local_center),
        q,
    };
    *dp += *v * h;
    *dq = integrate_rotation(*dq, h * *w);
    true
}

/// Applies each constraint's accumulated impulses (from the previous step, or previous
/// sub-step) to its bodies. Processes runs of independent constraints together, as
/// [`solve_contacts`] does.
pub fn warm_start(bodies: &mut [Body], contacts: &mut [ContactConstraint]) {
    block::run_pass(bodies, contacts, &mut [], &Pass::WarmStart);
}

/// One sequential-impulse pass over all constraints for a sub-step `h`: normal impulses
/// (soft position bias when `use_bias`; speculative points always limit the approach), with
/// Coulomb friction in the pass without bias (the relax pass, as Box2D v3.1), all with
/// accumulated clamping.
///
/// Constraints are solved in slice order (Gauss–Seidel). The two normal impulses of a
/// two-point constraint are solved together, exactly (the 2 × 2 complementarity problem of
/// their soft rows, Box2D v2.4's block solver): one after the other, each point's impulse
/// turns the body and disturbs the other, and a box landing flat would come out of its first
/// contact spinning and hopping. Points too close together for a well-conditioned 2 × 2
/// system are solved one after the other. Four consecutive constraints that
/// share no moving body (bodies with zero inverse mass and inertia may be shared; contacts
/// never change their velocity) are solved together in SIMD lanes; since they cannot affect
/// each other, the result is bit-for-bit the same as solving them one after another. Callers
/// that order their constraints so that such runs are common get the speed-up: the
/// [`World`](crate::World) colours its contact graph for this.
pub fn solve_contacts(
    bodies: &mut [Body],
    contacts: &mut [ContactConstraint],
    settings: &SolverSettings,
    h: f32,
    use_bias: bool,
) {
    block::run_pass(bodies, contacts, &mut [], &solve_pass(settings, h, use_bias));
}

fn solve_pass(settings: &SolverSettings, h: f32, use_bias: bool) -> Pass {
    let hertz = settings.contact_hertz.min(0.25 / h);
    Pass::Solve {
        soft_dynamic: softness(hertz, settings.contact_damping_ratio, h),
        soft_static: softness(2.0 * hertz, settings.contact_damping_ratio, h),
        inv_h: 1.0 / h,
        push_max: settings.contact_push_max_velocity,
        use_bias,
    }
}

/// Gauss–Seidel passes of [`apply_restitution`]. One pass (Box2D's choice) leaves a box
/// landing flat on two points with about 70% of its bounce, because each point's impulse
/// disturbs the other; four passes bring it within 1%.
pub const RESTITUTION_PASSES: usize = 4;

/// Restitution: for points that approached faster than `threshold` and pushed during the
/// step, drives the normal velocity to `−restitution × approach speed`
/// ([`RESTITUTION_PASSES`] passes).
pub fn apply_restitution(bodies: &mut [Body], contacts: &mut [ContactConstraint], threshold: f32) {
    if !any_bouncy(contacts) {
        return;
    }
    for _ in 0..RESTITUTION_PASSES {
        block::run_pass(bodies, contacts, &mut [], &Pass::Restitution { threshold });
    }
}

/// Whether some constraint has restitution: otherwise the restitution passes change nothing
/// (every point's update is masked off) and are skipped.
fn any_bouncy(contacts: &[ContactConstraint]) -> bool {
    contacts.iter().any(|c| c.restitution > 0.0)
}

/// Advances `bodies` by `dt` under `contacts` (prepared this step by [`prepare_contact`]):
/// `settings.substeps` sub-steps of integrate velocities → warm start → solve → integrate
/// positions → relax, then restitution. Accumulated impulses are left in `contacts` for
/// warm starting the next step.
///
/// Errors (nothing is changed): [`SolverError::InvalidStep`] for a non-finite or
/// non-positive `dt`; [`SolverError::InvalidInput`] for invalid settings or an invalid body
/// (see [`Body::is_valid`]). Constraints with out-of-range body indices are skipped.
///
/// See [`step_with_scratch`] for the same step, faster, with scratch memory.
pub fn step(
    bodies: &mut [Body],
    contacts: &mut [ContactConstraint],
    settings: &SolverSettings,
    dt: f32,
) -> Result<(), SolverError> {
    step_with_scratch(bodies, contacts, &mut [], settings, dt)
}

/// [`step`], with `scratch` to pack runs of independent constraints into once per step
/// instead of gathering them on every pass: bit-for-bit the same result, less work per pass.
/// `contacts.len() / 4` blocks are always enough; with fewer, the runs that do not fit are
/// gathered as in [`step`]. The World keeps one such buffer; from C it is
/// `c2d_solver_step_with_scratch` (with `c2d_solver_scratch_bytes`).
pub fn step_with_scratch(
    bodies: &mut [Body],
    contacts: &mut [ContactConstraint],
    scratch: &mut [ContactBlock],
    settings: &SolverSettings,
    dt: f32,
) -> Result<(), SolverError> {
    if !positive(dt) {
        return Err(SolverError::InvalidStep);
    }
    if !settings.is_valid() || !bodies.iter().all(Body::is_valid) {
        return Err(SolverError::InvalidInput);
    }
    let h = dt / settings.substeps as f32;
    for b in bodies.iter_mut() {
        b.delta_position = Vec2::ZERO;
        b.delta_rotation = Rot::IDENTITY;
    }
    for c in contacts.iter_mut() {
        for cp in &mut c.points {
            cp.max_normal_impulse = 0.0;
        }
    }
    let packed = block::pack(bodies, contacts, scratch);
    let blocks = &mut scratch[..packed];
    let bouncy = any_bouncy(contacts);
    substeps(bodies, settings, h, bouncy, |bodies, pass| {
        block::run_pass(bodies, contacts, blocks, pass)
    });
    block::unpack(blocks, contacts);
    Ok(())
}

/// The sub-steps and restitution passes of a step of `h`-long sub-steps (after the bodies'
/// deltas are cleared), each pass over the constraints done by `pass`. Restitution passes
/// run only when some constraint is `bouncy` (otherwise they would change nothing).
#[inline(always)]
fn substeps(
    bodies: &mut [Body],
    settings: &SolverSettings,
    h: f32,
    bouncy: bool,
    mut pass: impl FnMut(&mut [Body], &Pass),
) {
    let (solve, relax) = (solve_pass(settings, h, true), solve_pass(settings, h, false));
    for _ in 0..settings.substeps {
        integrate_velocities(bodies, settings.gravity, h);
        pass(bodies, &Pass::WarmStart);
        pass(bodies, &solve);
        integrate_positions(bodies, h, settings.max_linear_speed);
        pass(bodies, &relax);
    }
    if bouncy {
        let restitution = Pass::Restitution {
            threshold: settings.restitution_threshold,
        };
        for _ in 0..RESTITUTION_PASSES {
            pass(bodies, &restitution);
        }
    }
}

/// The World's step: [`step`] over constraints already packed into `blocks` (by
/// [`ContactBlock::set_lane`], no moving body twice in a block, every lane's largest normal
/// impulse 0), for settings, `dt` and bodies the World has validated. The blocks keep the
/// impulses for warm starting. Solving the constraints one at a time in block order, lane
/// order within a block, gives the same result bit for bit.
///
/// The passes work on `states` (as many as `bodies`, contents ignored): each body's velocity
/// and motion in 32 bytes, so that a block's gathers touch one cache line per body instead of
/// the two an 84-byte [`Body`] often straddles. The integrations read the rest from `bodies`
/// in order, and the results are copied back at the end: the same arithmetic, bit for bit.
#[cfg(feature = "alloc")]
pub(crate) fn step_blocks(
    bodies: &mut [Body],
    states: &mut [BodyState],
    kicks: &mut [VelocityKick],
    blocks: &mut [ContactBlock],
    settings: &SolverSettings,
    dt: f32,
) {
    let h = dt / settings.substeps as f32;
    let states = &mut states[..bodies.len()];
    for (s, b) in states.iter_mut().zip(bodies.iter()) {
        *s = BodyState {
            v: b.linear_velocity,
            w: b.angular_velocity,
            dp: Vec2::ZERO,
            dq: Rot::IDENTITY,
        };
    }
    // What a sub-step adds to each body's velocity and its damping factors, worked out once
    // per step (`integrated_velocity`'s arithmetic, the same values every sub-step); fixed
    // bodies get the identity (no change, as they get none there).
    let kicks = &mut kicks[..bodies.len()];
    for (k, b) in kicks.iter_mut().zip(bodies.iter()) {
        *k = velocity_kick(b, settings.gravity, h);
    }
    for blk in blocks.iter_mut() {
        blk.couple();
    }
    let bouncy = block::any_bouncy_block(blocks);
    let (solve, relax) = (solve_pass(settings, h, true), solve_pass(settings, h, false));
    for _ in 0..settings.substeps {
        for (s, k) in states.iter_mut().zip(kicks.iter()) {
            if let Some((v, w)) = k.apply(s.v, s.w) {
                (s.v, s.w) = (v, w);
            }
        }
        block::run_blocks(states, blocks, &Pass::WarmStart);
        block::run_blocks(states, blocks, &solve);
        for (s, b) in states.iter_mut().zip(bodies.iter_mut()) {
            let mut m = (s.v, s.w, s.dp, s.dq);
            if integrate_position(
                &mut b.transform,
                b.local_center,
                &mut m,
                h,
                settings.max_linear_speed,
            ) {
                (s.v, s.w, s.dp, s.dq) = m;
            }
        }
        block::run_blocks(states, blocks, &relax);
    }
    if bouncy {
        let restitution = Pass::Restitution {
            threshold: settings.restitution_threshold,
        };
        for _ in 0..RESTITUTION_PASSES {
            block::run_blocks(states, blocks, &restitution);
        }
    }
    for (s, b) in states.iter().zip(bodies.iter_mut()) {
        b.linear_velocity = s.v;
        b.angular_velocity = s.w;
        b.delta_position = s.dp;
        b.delta_rotation = s.dq;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(id: u32, anchor: Vec2) -> ConstraintPoint {
        ConstraintPoint {
            id,
            anchor_a: anchor,
            ..ConstraintPoint::default()
        }
    }

    /// The shortcut of `warm_start_points` (same features in the same order) gives what the
    /// general matching gives, over every combination of counts 0–2, ids drawn from three
    /// (duplicates, swaps), anchors near and far, and impulses that are negative or not
    /// finite; and by hand: impulses copied, the normal one clamped at 0, non-finite ones
    /// ignored.
    #[test]
    fn warm_start_shortcut_matches_the_general_rule() {
        let anchors = [Vec2::new(0.0, 0.0), Vec2::new(0.01, 0.0), Vec2::new(1.0, 0.0)];
        let impulses = [
            (1.5f32, -0.25f32),
            (-2.0, 0.5),
            (f32::NAN, 1.0),
            (0.75, f32::INFINITY),
        ];
        let mut checked = 0;
        for old_count in 0..=2u32 {
            for new_count in 0..=2usize {
                for ids in 0..81u32 {
                    let id = |k: u32| 1 + (ids / 3u32.pow(k)) % 3;
                    for variant in 0..4usize {
                        let prev = Carried {
                            count: old_count,
                            points: [
                                (
                                    id(0),
                                    anchors[variant % 3],
                                    impulses[variant].0,
                                    impulses[variant].1,
                                ),
                                (
                                    id(1),
                                    anchors[(variant + 1) % 3],
                                    impulses[3 - variant].0,
                                    impulses[3 - variant].1,
                                ),
                            ],
                        };
                        let fresh = [
                            point(id(2), anchors[(variant + 2) % 3]),
                            point(id(3), anchors[variant % 3]),
                        ];
                        let mut shortcut = fresh;
                        let mut general = fresh;
                        warm_start_points(&mut shortcut[..new_count], &prev);
                        match_points(&mut general[..new_count], &prev);
                        for (x, y) in shortcut.iter().zip(&general) {
                            assert_eq!(x.normal_impulse.to_bits(), y.normal_impulse.to_bits());
                            assert_eq!(x.tangent_impulse.to_bits(), y.tangent_impulse.to_bits());
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 3 * 3 * 81 * 4);
        // By hand: ids 7, 9 in order; a negative normal impulse is clamped, a NaN one ignored.
        let prev = Carried {
            count: 2,
            points: [(7, Vec2::ZERO, -1.0, 0.5), (9, Vec2::ZERO, f32::NAN, 2.0)],
        };
        let mut pts = [point(7, Vec2::new(5.0, 5.0)), point(9, Vec2::new(-5.0, 5.0))];
        warm_start_points(&mut pts, &prev);
        assert_eq!((pts[0].normal_impulse, pts[0].tangent_impulse), (0.0, 0.5));
        assert_eq!((pts[1].normal_impulse, pts[1].tangent_impulse), (0.0, 0.0));
    }
}
