//! The step: velocity and position integration, the passes as public functions
//! ([`warm_start`], [`solve_contacts`], [`apply_restitution`]), [`step`] and
//! [`step_with_scratch`] over the caller's constraints, and the World's step over constraints
//! packed into blocks (`step_blocks`, on compact body states).

#[cfg(feature = "alloc")]
use super::layout::BodyState;
use super::passes::{softness, Pass};
use super::{block, gather};
use super::{
    positive, Body, ContactBlock, ContactConstraint, SolverError, SolverSettings, MAX_ANGULAR_SPEED,
};
use crate::fmath;
use crate::math::{Rot, Transform, Vec2};

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
    gather::run_pass(bodies, contacts, &mut [], &Pass::WarmStart);
}

/// One sequential-impulse pass over all constraints for a sub-step `h`: normal impulses
/// (soft position bias when `use_bias`; speculative points always limit the approach), with
/// Coulomb friction in the pass without bias (the relax pass, as Box2D v3), all with
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
    gather::run_pass(bodies, contacts, &mut [], &solve_pass(settings, h, use_bias));
}

pub(super) fn solve_pass(settings: &SolverSettings, h: f32, use_bias: bool) -> Pass {
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
        gather::run_pass(bodies, contacts, &mut [], &Pass::Restitution { threshold });
    }
}

/// Whether some constraint has restitution: otherwise the restitution passes change nothing
/// (every point's update is masked off) and are skipped.
fn any_bouncy(contacts: &[ContactConstraint]) -> bool {
    contacts.iter().any(|c| c.restitution > 0.0)
}

/// Advances `bodies` by `dt` under `contacts` (prepared this step by
/// [`prepare_contact`](super::prepare_contact)): `settings.substeps` sub-steps of integrate
/// velocities → warm start → solve → integrate positions → relax, then restitution.
/// Accumulated impulses are left in `contacts` for warm starting the next step.
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
        gather::run_pass(bodies, contacts, blocks, pass)
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
    (joints, hinges): (&mut [super::JointSim], &mut [super::HingeSim]),
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
        // Joints before contacts in every phase, as Box2D solves them; plain hinges first.
        for j in hinges.iter() {
            j.warm_start(states);
        }
        for j in joints.iter() {
            j.warm_start(states);
        }
        block::run_blocks(states, blocks, &Pass::WarmStart);
        for j in hinges.iter_mut() {
            j.solve(states, true);
        }
        for j in joints.iter_mut() {
            j.solve(states, true, h);
        }
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
        for j in hinges.iter_mut() {
            j.solve(states, false);
        }
        for j in joints.iter_mut() {
            j.solve(states, false, h);
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
