//! The world's door: the ranges every value entering a [`World`](super::World) is checked
//! against, the same rule for the Rust API and the C ABI. A value outside its range is a named
//! error ([`SolverError::InvalidShape`], [`SolverError::OutOfRange`],
//! [`SolverError::InvalidInput`] for non-finite numbers, [`SolverError::InvalidStep`]); it is
//! never accepted and never clamped silently, and the world is left unchanged.
//!
//! The bounds keep one step's arithmetic finite, so that no body can become non-finite from
//! legal input:
//! - lengths (positions, shape coordinates and radii) up to [`MAX_COORDINATE`] = 1e6 m, so a
//!   body's points lie within 2e6 m of the origin and any product of two lengths stays below
//!   1e13;
//! - speeds up to [`MAX_LINEAR_SPEED`] and [`MAX_ANGULAR_SPEED`] (1e4 m/s, 1e4 rad/s): a
//!   point's speed `|v| + |ω|·r` stays below 3e10 m/s;
//! - gravity up to [`MAX_GRAVITY`] and gravity scale up to [`MAX_GRAVITY_SCALE`] (1e4 each),
//!   forces and torques up to an acceleration of [`MAX_ACCELERATION`] (1e8 m/s², rad/s²),
//!   all over a time step of at most [`MAX_TIME_STEP`] (1 s): a step adds at most 1e8 m/s
//!   before the speed limit applies;
//! - densities up to [`MAX_DENSITY`] (1e9 kg/m²): a mass below 4e21 kg and a rotational inertia
//!   below 2e34 kg·m², so impulses (mass × speed) stay below 1.2e32 N·s and their moments
//!   (impulse × lever arm of at most 1.5e6 m) below 1.8e38, within `f32`;
//! - restitution up to [`MAX_RESTITUTION`] (1): a bounce is no faster than the approach, so
//!   the restitution pass keeps the same bound (with restitution 10, bodies of 1e6 m spinning
//!   at the speed limit overflowed it); friction up to [`MAX_FRICTION`] (1e3), whose impulses
//!   are clamped by the normal ones and bounded by the tangential speed as the normal ones
//!   are.
//!
//! One case is known to break these bounds: a body of about 1e6 m spinning at the angular
//! speed limit (a rim moving at 1e10 m/s) while wedged between static and kinematic bodies,
//! where the solver's passes feed each other's impulses past `f32`; about one world in 3 000
//! of `tests/door.rs`'s property at the edges of every range has one. Containment stops such
//! a body and reports it ([`World::fault_events`](super::World::fault_events)).
//!
//! Far from the origin `f32` resolves less: at 1e6 m its spacing is 0.06 m, coarser than the
//! contact slop, so a scene that must stack or rest should stay within about 1e4 m (spacing
//! 0.001 m). The bounds are about finiteness, not about precision.

use super::{BodyDef, BodyKind, Material};
use crate::geometry::Shape;
use crate::math::{Transform, Vec2};
use crate::solver::{non_negative, positive, SolverError, SolverSettings, MAX_SUBSTEPS};

/// Largest magnitude (m) of each coordinate of a body's position, and of each coordinate and
/// radius of a shape in its body's frame, that a world accepts; also the longest translation
/// a mover takes ([`crate::mover::MAX_MOVE_TRANSLATION`]).
pub const MAX_COORDINATE: f32 = 1.0e6;
const _: () = assert!(MAX_COORDINATE == crate::mover::MAX_MOVE_TRANSLATION);

/// Largest `max_linear_speed` setting (m/s). A body's speed given through a definition,
/// [`World::set_velocity`](super::World::set_velocity) or an impulse must not exceed the
/// world's `max_linear_speed` setting (default 400 m/s).
pub const MAX_LINEAR_SPEED: f32 = 1.0e4;

/// Largest angular speed (rad/s) a body may be given or reach through an impulse; the
/// solver's integration keeps bodies within it too.
pub const MAX_ANGULAR_SPEED: f32 = crate::solver::MAX_ANGULAR_SPEED;

/// Largest magnitude of the world's gravity (m/s²).
pub const MAX_GRAVITY: f32 = 1.0e4;

/// Largest magnitude of a body's gravity scale.
pub const MAX_GRAVITY_SCALE: f32 = 1.0e4;

/// Largest acceleration (m/s², and rad/s² for torques) the forces and torques applied to a
/// body before a step may add up to: `|ΣF| / m` and `|Στ| / I`.
pub const MAX_ACCELERATION: f32 = 1.0e8;

/// Shortest time step (s) [`World::step`](super::World::step) accepts: a microsecond. The
/// solver and the joints' reactions divide by the sub-step (`dt / substeps`, at most 64
/// sub-steps), and its inverse squared enters the soft constraints: from this step on both
/// stay finite (`1 / h` at most 6.4e7; a denormal `dt` would make it infinite and a joint's
/// reaction NaN). A shorter step is refused and changes nothing; a game whose frame time can
/// be tiny skips or accumulates it.
pub const MIN_TIME_STEP: f32 = 1.0e-6;

/// Longest time step (s) [`World::step`](super::World::step) accepts.
pub const MAX_TIME_STEP: f32 = 1.0;

/// Largest density (kg/m²) of a material; friction may be up to [`MAX_FRICTION`] and
/// restitution up to [`MAX_RESTITUTION`].
pub const MAX_DENSITY: f32 = 1.0e9;

/// Largest friction coefficient of a material.
pub const MAX_FRICTION: f32 = 1.0e3;

/// Largest restitution of a material: 1, a bounce as fast as the approach. A restitution
/// above 1 would add energy at every bounce and scale the restitution pass's impulses past
/// the bound the others keep (a bumper that kicks harder sets the velocity from a contact
/// event or the pre-solve hook instead).
pub const MAX_RESTITUTION: f32 = 1.0;

/// `|x| <= bound`, false for NaN.
#[inline]
fn within(x: f32, bound: f32) -> bool {
    x.abs() <= bound
}

/// Non-finite numbers are [`SolverError::InvalidInput`]; finite ones beyond their bound are
/// [`SolverError::OutOfRange`].
#[inline]
fn range(values: &[f32], ok: bool) -> Result<(), SolverError> {
    if !values.iter().all(|v| v.is_finite()) {
        Err(SolverError::InvalidInput)
    } else if ok {
        Ok(())
    } else {
        Err(SolverError::OutOfRange)
    }
}

/// A shape a world accepts: valid ([`Shape::validate`]: [`SolverError::InvalidShape`]
/// otherwise) and within [`MAX_COORDINATE`] ([`SolverError::OutOfRange`]).
pub(crate) fn check_shape(shape: &Shape) -> Result<(), SolverError> {
    shape.validate().map_err(|_| SolverError::InvalidShape)?;
    let point = |p: Vec2| within(p.x, MAX_COORDINATE) && within(p.y, MAX_COORDINATE);
    let ok = match shape {
        Shape::Circle(c) => point(c.center) && c.radius <= MAX_COORDINATE,
        Shape::Capsule(c) => point(c.center1) && point(c.center2) && c.radius <= MAX_COORDINATE,
        Shape::Polygon(p) => p.vertices[..p.len()].iter().all(|&v| point(v)) && p.radius <= MAX_COORDINATE,
        Shape::ChainSegment(c) => [c.ghost1, c.point1, c.point2, c.ghost2].into_iter().all(point),
    };
    if ok {
        Ok(())
    } else {
        Err(SolverError::OutOfRange)
    }
}

/// A transform a world accepts: valid (unit rotation, finite) and its position within
/// [`MAX_COORDINATE`].
pub(crate) fn check_transform(xf: Transform) -> Result<(), SolverError> {
    if !xf.is_valid() {
        return Err(SolverError::InvalidInput);
    }
    range(
        &[],
        within(xf.p.x, MAX_COORDINATE) && within(xf.p.y, MAX_COORDINATE),
    )
}

/// A velocity a world accepts: linear speed at most `max_speed` (the world's setting; a
/// velocity scaled to exactly the limit may round above it, so the bound allows a relative
/// 1e-5), angular speed at most [`MAX_ANGULAR_SPEED`].
pub(crate) fn check_velocity(v: Vec2, w: f32, max_speed: f32) -> Result<(), SolverError> {
    range(
        &[v.x, v.y, w],
        v.length() <= max_speed * (1.0 + 1.0e-5) && within(w, MAX_ANGULAR_SPEED),
    )
}

/// A material a world accepts: density, friction and restitution finite, `>= 0` and within
/// [`MAX_DENSITY`], [`MAX_FRICTION`] and [`MAX_RESTITUTION`].
pub(crate) fn check_material(m: &Material) -> Result<(), SolverError> {
    let values = [m.density, m.friction, m.restitution];
    if !values.iter().all(|&x| x >= 0.0 || x.is_nan()) {
        return Err(SolverError::InvalidInput);
    }
    range(
        &values,
        m.density <= MAX_DENSITY && m.friction <= MAX_FRICTION && m.restitution <= MAX_RESTITUTION,
    )
}

/// A gravity scale a world accepts: finite, `|scale| <= MAX_GRAVITY_SCALE`.
pub(crate) fn check_gravity_scale(scale: f32) -> Result<(), SolverError> {
    range(&[scale], within(scale, MAX_GRAVITY_SCALE))
}

/// Damping rates a world accepts: finite and `>= 0` (any finite rate only shrinks velocity).
pub(crate) fn check_damping(linear: f32, angular: f32) -> Result<(), SolverError> {
    if non_negative(linear) && non_negative(angular) {
        Ok(())
    } else {
        Err(SolverError::InvalidInput)
    }
}

/// Solver settings a world accepts: finite gravity within [`MAX_GRAVITY`], sub-steps in
/// 1..=[`MAX_SUBSTEPS`], contact hertz finite and positive, damping ratio, push-out speed and
/// restitution threshold finite and `>= 0`, `max_linear_speed` in (0, [`MAX_LINEAR_SPEED`]].
pub(crate) fn check_settings(s: &SolverSettings) -> Result<(), SolverError> {
    let finite = [
        s.gravity.x,
        s.gravity.y,
        s.contact_hertz,
        s.contact_damping_ratio,
        s.contact_push_max_velocity,
        s.restitution_threshold,
        s.max_linear_speed,
    ];
    if !finite.iter().all(|v| v.is_finite()) {
        return Err(SolverError::InvalidInput);
    }
    let ok = s.gravity.length() <= MAX_GRAVITY
        && (1..=MAX_SUBSTEPS).contains(&s.substeps)
        && positive(s.contact_hertz)
        && non_negative(s.contact_damping_ratio)
        && non_negative(s.contact_push_max_velocity)
        && non_negative(s.restitution_threshold)
        && positive(s.max_linear_speed)
        && s.max_linear_speed <= MAX_LINEAR_SPEED;
    range(&[], ok)
}

/// `s` as a world keeps it: checked as [`check_settings`] checks it, except `substeps`, which a
/// world takes from each step (an invalid one reads as the default, 4, until the first step).
pub(crate) fn world_settings(s: SolverSettings) -> Result<SolverSettings, SolverError> {
    let substeps = if (1..=MAX_SUBSTEPS).contains(&s.substeps) {
        s.substeps
    } else {
        SolverSettings::default().substeps
    };
    let s = SolverSettings { substeps, ..s };
    check_settings(&s)?;
    Ok(s)
}

/// A time step a world accepts: `MIN_TIME_STEP <= dt <= MAX_TIME_STEP`, sub-steps in 1..=64
/// ([`SolverError::InvalidStep`] otherwise).
pub(crate) fn check_step(dt: f32, substeps: u32) -> Result<(), SolverError> {
    if (MIN_TIME_STEP..=MAX_TIME_STEP).contains(&dt) && (1..=MAX_SUBSTEPS).contains(&substeps) {
        Ok(())
    } else {
        Err(SolverError::InvalidStep)
    }
}

/// A body definition a world accepts under `settings`: its shape, transform, material,
/// velocities, damping and gravity scale in range, a chain segment only on a static or
/// kinematic body and a sensor only with an area ([`SolverError::Unsupported`]).
pub(crate) fn check_body_def(def: &BodyDef, settings: &SolverSettings) -> Result<(), SolverError> {
    check_shape(&def.shape)?;
    check_transform(def.transform)?;
    check_material(&def.material)?;
    check_velocity(
        def.linear_velocity,
        def.angular_velocity,
        settings.max_linear_speed,
    )?;
    check_damping(def.linear_damping, def.angular_damping)?;
    check_gravity_scale(def.gravity_scale)?;
    let chain = matches!(def.shape, Shape::ChainSegment(_));
    // A sensor needs an area to be inside of (a segment or chain segment has none).
    let no_area = !positive(def.shape.mass(1.0).mass);
    if (chain && def.kind == BodyKind::Dynamic) || (def.sensor && no_area) {
        return Err(SolverError::Unsupported);
    }
    Ok(())
}

/// Largest spring stiffness (Hz) and damping ratio a joint takes: far stiffer than any
/// sub-step can follow (the step caps the constraint stiffness at a quarter of the sub-step
/// rate), and small enough that the softness arithmetic stays finite.
pub const MAX_JOINT_HERTZ: f32 = 1.0e6;

/// Largest joint length or translation (m): twice the widest span of two bodies' points.
pub const MAX_JOINT_LENGTH: f32 = 4.0 * MAX_COORDINATE;

/// A joint definition a world accepts: frames as body transforms; stiffness and damping
/// finite, `>= 0`, at most [`MAX_JOINT_HERTZ`]; lengths and translations within
/// [`MAX_JOINT_LENGTH`] (a distance joint's length at least [`LINEAR_SLOP`](super::LINEAR_SLOP),
/// Box2D's minimum), angles within `[-π, π]`, every lower limit at most its upper one;
/// motor speeds within [`MAX_LINEAR_SPEED`] and [`MAX_ANGULAR_SPEED`]; forces, torques and
/// thresholds `>= 0` and not NaN (`f32::MAX` is "no bound": a motor's or a spring's impulse
/// is also bounded by the bodies' masses and speeds, so any bound keeps the step finite).
pub(crate) fn check_joint_def(def: &super::JointDef) -> Result<(), SolverError> {
    use crate::solver::JointKind;
    use core::f32::consts::PI;
    check_transform(def.local_frame_a)?;
    check_transform(def.local_frame_b)?;
    let bound = |x: f32| x >= 0.0; // false for NaN; f32::MAX and +inf pass
    let stiff = |hertz: f32, zeta: f32| {
        non_negative(hertz) && non_negative(zeta) && hertz <= MAX_JOINT_HERTZ && zeta <= MAX_JOINT_HERTZ
    };
    let length = |x: f32| within(x, MAX_JOINT_LENGTH);
    let angle = |x: f32| within(x, PI);
    let ok = bound(def.force_threshold)
        && bound(def.torque_threshold)
        && stiff(def.constraint_hertz, def.constraint_damping_ratio);
    let (finite, kind_ok) = match &def.kind {
        JointKind::Distance(d) => (
            pad([
                d.length,
                d.lower_spring_force,
                d.upper_spring_force,
                d.min_length,
                d.max_length,
                d.motor_speed,
            ]),
            d.length >= super::LINEAR_SLOP
                && length(d.length)
                && d.lower_spring_force <= d.upper_spring_force
                && stiff(d.hertz, d.damping_ratio)
                && d.min_length >= 0.0
                && d.min_length <= d.max_length
                && length(d.max_length)
                && bound(d.max_motor_force)
                && within(d.motor_speed, MAX_LINEAR_SPEED),
        ),
        JointKind::Revolute(r) => (
            pad([r.target_angle, r.lower_angle, r.upper_angle, r.motor_speed]),
            angle(r.target_angle)
                && stiff(r.hertz, r.damping_ratio)
                && angle(r.lower_angle)
                && angle(r.upper_angle)
                && r.lower_angle <= r.upper_angle
                && bound(r.max_motor_torque)
                && within(r.motor_speed, MAX_ANGULAR_SPEED),
        ),
        JointKind::Prismatic(p) => (
            pad([
                p.target_translation,
                p.lower_translation,
                p.upper_translation,
                p.motor_speed,
            ]),
            stiff(p.hertz, p.damping_ratio)
                && length(p.target_translation)
                && length(p.lower_translation)
                && length(p.upper_translation)
                && p.lower_translation <= p.upper_translation
                && bound(p.max_motor_force)
                && within(p.motor_speed, MAX_LINEAR_SPEED),
        ),
        JointKind::Weld(w) => (
            [0.0; 6],
            stiff(w.linear_hertz, w.linear_damping_ratio) && stiff(w.angular_hertz, w.angular_damping_ratio),
        ),
        JointKind::Wheel(w) => (
            pad([w.lower_translation, w.upper_translation, w.motor_speed]),
            stiff(w.hertz, w.damping_ratio)
                && length(w.lower_translation)
                && length(w.upper_translation)
                && w.lower_translation <= w.upper_translation
                && bound(w.max_motor_torque)
                && within(w.motor_speed, MAX_ANGULAR_SPEED),
        ),
        JointKind::Motor(m) => (
            pad([m.linear_velocity.x, m.linear_velocity.y, m.angular_velocity]),
            m.linear_velocity.length() <= MAX_LINEAR_SPEED
                && within(m.angular_velocity, MAX_ANGULAR_SPEED)
                && bound(m.max_velocity_force)
                && bound(m.max_velocity_torque)
                && bound(m.max_spring_force)
                && bound(m.max_spring_torque)
                && stiff(m.linear_hertz, m.linear_damping_ratio)
                && stiff(m.angular_hertz, m.angular_damping_ratio),
        ),
        JointKind::Filter => ([0.0; 6], true),
    };
    let nan = [
        def.force_threshold,
        def.torque_threshold,
        def.constraint_hertz,
        def.constraint_damping_ratio,
    ]
    .iter()
    .any(|x| x.is_nan());
    if nan {
        return Err(SolverError::InvalidInput);
    }
    range(&finite, ok && kind_ok)
}

/// Up to six values, padded with zeros.
fn pad<const N: usize>(v: [f32; N]) -> [f32; 6] {
    let mut out = [0.0; 6];
    out[..N].copy_from_slice(&v);
    out
}
