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
//! position bias → integrate positions → *relax* (solve again with no bias). After the last
//! sub-step, restitution is applied once. Constraints are prepared once per step; the
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
use crate::manifold::Manifold;
use crate::math::{Rot, Transform, Vec2};

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
}

impl core::fmt::Display for SolverError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            SolverError::InvalidStep => "time step must be finite and positive, sub-steps 1..=64",
            SolverError::InvalidBody => "body index out of range, stale, or the same body twice",
            SolverError::InvalidInput => "non-finite or out-of-range input",
        })
    }
}

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
    /// is finite and positive. A zero or non-finite inertia gives a body that does not rotate.
    pub fn new_dynamic(transform: Transform, mass: MassData) -> Result<Body, SolverError> {
        if !(transform.is_valid() && positive(mass.mass) && mass.center.is_finite()) {
            return Err(SolverError::InvalidInput);
        }
        let i = mass.rotational_inertia;
        Ok(Body {
            local_center: mass.center,
            inv_mass: 1.0 / mass.mass,
            inv_inertia: if positive(i) { 1.0 / i } else { 0.0 },
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
    fn is_valid(&self) -> bool {
        self.gravity.is_finite()
            && (1..=MAX_SUBSTEPS).contains(&self.substeps)
            && positive(self.contact_hertz)
            && non_negative(self.contact_damping_ratio)
            && self.contact_push_max_velocity >= 0.0
            && non_negative(self.restitution_threshold)
            && self.max_linear_speed > 0.0
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

/// Finite and ≥ 0 (false for NaN).
#[inline]
pub(crate) fn non_negative(x: f32) -> bool {
    (0.0..f32::INFINITY).contains(&x)
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
    let mut c = ContactConstraint {
        body_a: a,
        body_b: b,
        normal: manifold.normal,
        friction,
        restitution,
        ..ContactConstraint::default()
    };
    let pts = manifold.points();
    if pts.is_empty() {
        return Ok(c);
    }
    let n = manifold.normal;
    if !n.is_finite() || !((n.length_squared() - 1.0).abs() <= 1e-3) {
        return Err(SolverError::InvalidInput);
    }
    let t = n.right_perp();
    let (ca, cb) = (ba.center(), bb.center());
    let (ma, ia, mb, ib) = (ba.inv_mass, ba.inv_inertia, bb.inv_mass, bb.inv_inertia);
    for (k, mp) in pts.iter().enumerate() {
        if !mp.point.is_finite() || !mp.depth.is_finite() {
            return Err(SolverError::InvalidInput);
        }
        let ra = mp.point - ca;
        let rb = mp.point - cb;
        let rna = ra.cross(n);
        let rnb = rb.cross(n);
        let kn = ma + mb + ia * rna * rna + ib * rnb * rnb;
        let rta = ra.cross(t);
        let rtb = rb.cross(t);
        let kt = ma + mb + ia * rta * rta + ib * rtb * rtb;
        let dv = bb.linear_velocity + cross_sv(bb.angular_velocity, rb)
            - ba.linear_velocity
            - cross_sv(ba.angular_velocity, ra);
        let cp = ConstraintPoint {
            anchor_a: ra,
            anchor_b: rb,
            base_separation: -mp.depth - (rb - ra).dot(n),
            normal_mass: if kn > 0.0 { 1.0 / kn } else { 0.0 },
            tangent_mass: if kt > 0.0 { 1.0 / kt } else { 0.0 },
            relative_velocity: dv.dot(n),
            id: mp.id,
            ..ConstraintPoint::default()
        };
        c.points[k] = cp;
    }
    c.count = pts.len() as u32;
    if let Some(prev) = previous {
        warm_start_from(&mut c, prev);
    }
    Ok(c)
}

/// Copies accumulated impulses from `prev` into `c`: first points with equal feature ids,
/// then each remaining point from the nearest unused old point within
/// [`WARM_START_DISTANCE`] (compared by anchor on body A). The second rule matters for
/// stacks: with two equally deep faces (equal boxes stacked), the manifold's reference face
/// can switch between A and B from one frame to the next — the manifold is swap-symmetric,
/// so it has no preference — which renames the feature ids of the same two corners.
fn warm_start_from(c: &mut ContactConstraint, prev: &ContactConstraint) {
    let old = &prev.points[..(prev.count as usize).min(2)];
    let mut used = [false; 2];
    let mut matched = [None::<usize>; 2];
    let count = (c.count as usize).min(2);
    for (k, cp) in c.points[..count].iter().enumerate() {
        if let Some(j) = (0..old.len()).find(|&j| !used[j] && old[j].id == cp.id) {
            used[j] = true;
            matched[k] = Some(j);
        }
    }
    for (k, cp) in c.points[..count].iter().enumerate() {
        if matched[k].is_some() {
            continue;
        }
        let near = (0..old.len())
            .filter(|&j| !used[j])
            .map(|j| (j, old[j].anchor_a.distance_squared(cp.anchor_a)))
            .filter(|&(_, d2)| d2 <= WARM_START_DISTANCE * WARM_START_DISTANCE)
            .min_by(|x, y| x.1.total_cmp(&y.1));
        if let Some((j, _)) = near {
            used[j] = true;
            matched[k] = Some(j);
        }
    }
    for (cp, m) in c.points[..count].iter_mut().zip(matched) {
        let Some(o) = m.map(|j| &old[j]) else { continue };
        if o.normal_impulse.is_finite() && o.tangent_impulse.is_finite() {
            cp.normal_impulse = o.normal_impulse.max(0.0);
            cp.tangent_impulse = o.tangent_impulse;
        }
    }
}

/// Warm starting falls back to matching points by position within this distance (m) when
/// their feature ids differ (see [`prepare_contact`]).
pub const WARM_START_DISTANCE: f32 = 0.05;

/// Soft-constraint coefficients (Box2D v3's `b2Softness`).
#[derive(Clone, Copy)]
struct Softness {
    bias_rate: f32,
    mass_scale: f32,
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
        impulse_scale: a3,
    }
}

/// The two bodies of a constraint, or `None` when the indices are out of range or equal.
fn pair_indices(n: usize, c: &ContactConstraint) -> Option<(usize, usize)> {
    let (a, b) = (c.body_a as usize, c.body_b as usize);
    (a < n && b < n && a != b).then_some((a, b))
}

/// Applies gravity and damping to every body with positive inverse mass, for a sub-step `h`.
pub fn integrate_velocities(bodies: &mut [Body], gravity: Vec2, h: f32) {
    for b in bodies.iter_mut() {
        if b.inv_mass == 0.0 && b.inv_inertia == 0.0 {
            continue;
        }
        let ld = 1.0 / (1.0 + h * b.linear_damping);
        let ad = 1.0 / (1.0 + h * b.angular_damping);
        let g = if b.inv_mass > 0.0 {
            gravity * (h * b.gravity_scale)
        } else {
            Vec2::ZERO
        };
        b.linear_velocity = b.linear_velocity * ld + g;
        b.angular_velocity *= ad;
    }
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
/// limited to π/4 per sub-step) and accumulates `delta_position` / `delta_rotation`.
pub fn integrate_positions(bodies: &mut [Body], h: f32, max_speed: f32) {
    const MAX_ROTATION: f32 = 0.25 * core::f32::consts::PI;
    for b in bodies.iter_mut() {
        let mut v = b.linear_velocity;
        let mut w = b.angular_velocity;
        if v == Vec2::ZERO && w == 0.0 {
            continue;
        }
        let speed2 = v.length_squared();
        if speed2 > max_speed * max_speed {
            v *= max_speed / fmath::sqrt(speed2);
            b.linear_velocity = v;
        }
        if (w * h).abs() > MAX_ROTATION {
            w = w.signum() * MAX_ROTATION / h;
            b.angular_velocity = w;
        }
        let c = b.center() + v * h;
        let q = integrate_rotation(b.transform.q, h * w);
        b.transform = Transform {
            p: c - q.rotate(b.local_center),
            q,
        };
        b.delta_position += v * h;
        b.delta_rotation = integrate_rotation(b.delta_rotation, h * w);
    }
}

/// Applies each constraint's accumulated impulses (from the previous step, or previous
/// sub-step) to its bodies.
pub fn warm_start(bodies: &mut [Body], contacts: &[ContactConstraint]) {
    let nb = bodies.len();
    for c in contacts {
        let Some((a, b)) = pair_indices(nb, c) else {
            continue;
        };
        let (mut va, mut vb) = (Velocity::load(&bodies[a]), Velocity::load(&bodies[b]));
        let t = c.normal.right_perp();
        for cp in &c.points[..(c.count as usize).min(2)] {
            let p = c.normal * cp.normal_impulse + t * cp.tangent_impulse;
            Velocity::apply(&mut va, &mut vb, cp, p);
        }
        va.store(&mut bodies[a]);
        vb.store(&mut bodies[b]);
    }
}

/// One sequential-impulse pass over all constraints for a sub-step `h`: normal impulses
/// (soft position bias when `use_bias`; speculative points always limit the approach), then
/// Coulomb friction, with accumulated clamping.
pub fn solve_contacts(
    bodies: &mut [Body],
    contacts: &mut [ContactConstraint],
    settings: &SolverSettings,
    h: f32,
    use_bias: bool,
) {
    let nb = bodies.len();
    let hertz = settings.contact_hertz.min(0.25 / h);
    let soft_dynamic = softness(hertz, settings.contact_damping_ratio, h);
    let soft_static = softness(2.0 * hertz, settings.contact_damping_ratio, h);
    let inv_h = 1.0 / h;
    for c in contacts.iter_mut() {
        let Some((a, b)) = pair_indices(nb, c) else {
            continue;
        };
        let (mut va, mut vb) = (Velocity::load(&bodies[a]), Velocity::load(&bodies[b]));
        // Contacts with an infinite-mass body are twice as stiff (Box2D v3): the ground then
        // yields less under a stack, and nothing behind it can be disturbed.
        let soft = if va.inv_mass == 0.0 || vb.inv_mass == 0.0 {
            soft_static
        } else {
            soft_dynamic
        };
        let n = c.normal;
        let count = (c.count as usize).min(2);
        let (dpa, dqa) = (bodies[a].delta_position, bodies[a].delta_rotation);
        let (dpb, dqb) = (bodies[b].delta_position, bodies[b].delta_rotation);
        for cp in &mut c.points[..count] {
            // Current separation from the motion since preparation.
            let pa = dpa + dqa.rotate(cp.anchor_a);
            let pb = dpb + dqb.rotate(cp.anchor_b);
            let s = (pb - pa).dot(n) + cp.base_separation;
            let (mut bias, mut mass_scale, mut impulse_scale) = (0.0, 1.0, 0.0);
            if s > 0.0 {
                bias = s * inv_h;
            } else if use_bias {
                bias = (soft.bias_rate * s).max(-settings.contact_push_max_velocity);
                mass_scale = soft.mass_scale;
                impulse_scale = soft.impulse_scale;
            }
            let vn = Velocity::relative(&va, &vb, cp).dot(n);
            if use_bias {
                // Restitution bounces with the fastest approach seen during the step, which
                // includes the speed gained (under gravity) after preparation.
                cp.relative_velocity = cp.relative_velocity.min(vn);
            }
            let impulse = -cp.normal_mass * mass_scale * (vn + bias) - impulse_scale * cp.normal_impulse;
            let total = (cp.normal_impulse + impulse).max(0.0);
            let applied = total - cp.normal_impulse;
            cp.normal_impulse = total;
            cp.max_normal_impulse = cp.max_normal_impulse.max(applied);
            Velocity::apply(&mut va, &mut vb, cp, n * applied);
        }
        let t = n.right_perp();
        for cp in &mut c.points[..count] {
            let vt = Velocity::relative(&va, &vb, cp).dot(t);
            let limit = c.friction * cp.normal_impulse;
            // min/max, not clamp: no panic for a negative or NaN limit in a hand-built constraint.
            let total = (cp.tangent_impulse - cp.tangent_mass * vt).max(-limit).min(limit);
            let applied = total - cp.tangent_impulse;
            cp.tangent_impulse = total;
            Velocity::apply(&mut va, &mut vb, cp, t * applied);
        }
        va.store(&mut bodies[a]);
        vb.store(&mut bodies[b]);
    }
}

/// A body's velocity state, held in registers while one constraint is solved.
struct Velocity {
    v: Vec2,
    w: f32,
    inv_mass: f32,
    inv_inertia: f32,
}

impl Velocity {
    #[inline(always)]
    fn load(b: &Body) -> Velocity {
        Velocity {
            v: b.linear_velocity,
            w: b.angular_velocity,
            inv_mass: b.inv_mass,
            inv_inertia: b.inv_inertia,
        }
    }
    #[inline(always)]
    fn store(&self, b: &mut Body) {
        b.linear_velocity = self.v;
        b.angular_velocity = self.w;
    }
    #[inline(always)]
    fn relative(a: &Velocity, b: &Velocity, cp: &ConstraintPoint) -> Vec2 {
        b.v + cross_sv(b.w, cp.anchor_b) - a.v - cross_sv(a.w, cp.anchor_a)
    }
    #[inline(always)]
    fn apply(a: &mut Velocity, b: &mut Velocity, cp: &ConstraintPoint, p: Vec2) {
        a.v -= p * a.inv_mass;
        a.w -= a.inv_inertia * cp.anchor_a.cross(p);
        b.v += p * b.inv_mass;
        b.w += b.inv_inertia * cp.anchor_b.cross(p);
    }
}

/// Gauss–Seidel passes of [`apply_restitution`]. One pass (Box2D's choice) leaves a box
/// landing flat on two points with about 70% of its bounce, because each point's impulse
/// disturbs the other; four passes bring it within 1%.
pub const RESTITUTION_PASSES: usize = 4;

/// Restitution: for points that approached faster than `threshold` and pushed during the
/// step, drives the normal velocity to `−restitution × approach speed`.
pub fn apply_restitution(bodies: &mut [Body], contacts: &mut [ContactConstraint], threshold: f32) {
    let nb = bodies.len();
    let len = contacts.len();
    for k in 0..RESTITUTION_PASSES * len {
        let c = &mut contacts[k % len];
        let Some((a, b)) = pair_indices(nb, c) else {
            continue;
        };
        if c.restitution == 0.0 {
            continue;
        }
        let n = c.normal;
        let (mut va, mut vb) = (Velocity::load(&bodies[a]), Velocity::load(&bodies[b]));
        for cp in &mut c.points[..(c.count as usize).min(2)] {
            if cp.relative_velocity > -threshold || cp.max_normal_impulse == 0.0 {
                continue;
            }
            let vn = Velocity::relative(&va, &vb, cp).dot(n);
            let impulse = -cp.normal_mass * (vn + c.restitution * cp.relative_velocity);
            let total = (cp.normal_impulse + impulse).max(0.0);
            let applied = total - cp.normal_impulse;
            cp.normal_impulse = total;
            cp.max_normal_impulse = cp.max_normal_impulse.max(applied);
            Velocity::apply(&mut va, &mut vb, cp, n * applied);
        }
        va.store(&mut bodies[a]);
        vb.store(&mut bodies[b]);
    }
}

/// Advances `bodies` by `dt` under `contacts` (prepared this step by [`prepare_contact`]):
/// `settings.substeps` sub-steps of integrate velocities → warm start → solve → integrate
/// positions → relax, then restitution. Accumulated impulses are left in `contacts` for
/// warm starting the next step.
///
/// Errors (nothing is changed): [`SolverError::InvalidStep`] for a non-finite or
/// non-positive `dt`; [`SolverError::InvalidInput`] for invalid settings or an invalid body
/// (see [`Body::is_valid`]). Constraints with out-of-range body indices are skipped.
pub fn step(
    bodies: &mut [Body],
    contacts: &mut [ContactConstraint],
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
    for _ in 0..settings.substeps {
        integrate_velocities(bodies, settings.gravity, h);
        warm_start(bodies, contacts);
        solve_contacts(bodies, contacts, settings, h, true);
        integrate_positions(bodies, h, settings.max_linear_speed);
        solve_contacts(bodies, contacts, settings, h, false);
    }
    apply_restitution(bodies, contacts, settings.restitution_threshold);
    Ok(())
}
