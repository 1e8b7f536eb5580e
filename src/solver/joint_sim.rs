//! Joints as the World's step solves them: prepared once per step (frames turned to the
//! world, effective masses, softness) and solved, scalar, in each sub-step phase.

use super::joints::{
    DistanceJoint, JointImpulses, JointKind, MotorJoint, PrismaticJoint, RevoluteJoint, WeldJoint, WheelJoint,
};
use super::layout::BodyState;
use super::passes::{softness, Softness};
use crate::math::{Transform, Vec2};

/// One side of a joint as the step sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointBody {
    /// Index in the solver's body states (0: a static body, never moved).
    pub index: u32,
    pub transform: Transform,
    pub local_center: Vec2,
    pub inv_mass: f32,
    pub inv_inertia: f32,
}

/// A joint prepared for one step: its bodies' solver indices and masses, its frames turned
/// to the world and taken relative to the centres of mass, its softness and effective
/// masses, its settings and its impulses (copied back after the step).
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointSim {
    pub index_a: u32,
    pub index_b: u32,
    ma: f32,
    mb: f32,
    ia: f32,
    ib: f32,
    frame_a: Transform,
    frame_b: Transform,
    delta_center: Vec2,
    soft: Softness,
    spring: Softness,
    spring2: Softness,
    axial_mass: f32,
    perp_mass: f32,
    motor_mass: f32,
    /// The motor joint's inverse linear mass matrix, columns `(a, b)` and `(c, d)`.
    linear_mass: [f32; 4],
    pub kind: JointKind,
    pub impulses: JointImpulses,
}

/// A revolute joint with no spring, motor or limit (and no impulse of theirs carried): only
/// the point constraint, in a record of 72 bytes that the passes stream instead of a
/// [`JointSim`]'s 232 (Box2D's joint grid is 19 800 of them, each read 12 times a step).
/// Solved with [`JointSim`]'s arithmetic for such a joint: the same values (a zero's sign
/// aside, where the full joint adds its unused angular impulses of 0).
#[derive(Clone, Copy, Debug)]
pub(crate) struct HingeSim {
    pub index_a: u32,
    pub index_b: u32,
    ma: f32,
    mb: f32,
    ia: f32,
    ib: f32,
    /// The frames' origins relative to the centres of mass, turned to the world at the
    /// start of the step.
    ra: Vec2,
    rb: Vec2,
    delta_center: Vec2,
    soft: Softness,
    /// The point constraint's accumulated impulse.
    pub linear: Vec2,
}

impl HingeSim {
    /// Whether a joint of `kind` carrying `impulses` is such a plain revolute joint.
    pub(crate) fn applies(kind: &JointKind, j: &JointImpulses) -> bool {
        let JointKind::Revolute(r) = kind else {
            return false;
        };
        let plain = !r.enable_spring && !r.enable_motor && !r.enable_limit;
        let carried = j.spring != 0.0 || j.motor != 0.0 || j.lower != 0.0 || j.upper != 0.0;
        plain && !carried
    }

    /// Prepares a plain hinge (see [`HingeSim::applies`]) as [`JointSim::prepare`] would,
    /// straight into its compact form.
    pub(crate) fn prepare(
        linear: Vec2,
        frames: (Transform, Transform),
        bodies: (&JointBody, &JointBody),
        softness: (f32, f32),
        h: f32,
    ) -> HingeSim {
        let (a, b) = bodies;
        let (frame_a, frame_b, delta_center, soft) = placed(frames, bodies, softness, h);
        HingeSim {
            index_a: a.index,
            index_b: b.index,
            ma: a.inv_mass,
            mb: b.inv_mass,
            ia: a.inv_inertia,
            ib: b.inv_inertia,
            ra: frame_a.p,
            rb: frame_b.p,
            delta_center,
            soft,
            linear,
        }
    }

    /// The compact form of `sim`, when it is such a plain revolute joint.
    #[cfg(test)]
    pub(crate) fn from_sim(sim: &JointSim) -> Option<HingeSim> {
        let j = &sim.impulses;
        HingeSim::applies(&sim.kind, j).then_some(HingeSim {
            index_a: sim.index_a,
            index_b: sim.index_b,
            ma: sim.ma,
            mb: sim.mb,
            ia: sim.ia,
            ib: sim.ib,
            ra: sim.frame_a.p,
            rb: sim.frame_b.p,
            delta_center: sim.delta_center,
            soft: sim.soft,
            linear: j.linear,
        })
    }

    /// Applies `impulse` at the anchors (as [`JointSim`]'s `push`), reading and writing the
    /// two bodies' velocities in `states`.
    #[inline(always)]
    fn apply(&self, states: &mut [BodyState], impulse: Vec2, ra: Vec2, rb: Vec2) {
        let a = &mut states[self.index_a as usize];
        a.v -= impulse * self.ma;
        a.w -= self.ia * ra.cross(impulse);
        let b = &mut states[self.index_b as usize];
        b.v += impulse * self.mb;
        b.w += self.ib * rb.cross(impulse);
    }

    /// Applies last step's impulse (warm starting).
    #[inline]
    pub(crate) fn warm_start(&self, states: &mut [BodyState]) {
        let (qa, qb) = (states[self.index_a as usize].dq, states[self.index_b as usize].dq);
        self.apply(states, self.linear, qa.rotate(self.ra), qb.rotate(self.rb));
    }

    /// One iteration of the point constraint, softly pushing out its position error with
    /// `use_bias` (as [`JointSim::solve`] does for such a joint).
    #[inline]
    pub(crate) fn solve(&mut self, states: &mut [BodyState], use_bias: bool) {
        let (ia, ib) = (self.index_a as usize, self.index_b as usize);
        // Both indices in range once (the World prepares them so), not at every access.
        if ia >= states.len() || ib >= states.len() {
            return;
        }
        let (a, b) = (states[ia], states[ib]);
        let ra = a.dq.rotate(self.ra);
        let rb = b.dq.rotate(self.rb);
        let cdot = b.v + cross_sv(b.w, rb) - a.v - cross_sv(a.w, ra);
        let (bias, ms, is) = if use_bias {
            let separation = b.dp - a.dp + rb - ra + self.delta_center;
            (
                separation * self.soft.bias_rate(),
                self.soft.mass_scale(),
                self.soft.impulse_scale(),
            )
        } else {
            (Vec2::ZERO, 1.0, 0.0)
        };
        let (k11, k12, k22) = point_mass(self.ma, self.mb, self.ia, self.ib, ra, rb);
        let x = solve22(k11, k12, k22, cdot + bias);
        let impulse = x * -ms - self.linear * is;
        self.linear += impulse;
        self.apply(states, impulse, ra, rb);
    }

    /// The constraint force (N) over a sub-step with inverse `inv_h`, and torque 0.
    pub(crate) fn reaction(&self, inv_h: f32) -> (Vec2, f32) {
        (self.linear * inv_h, 0.0)
    }
}

/// `s × v` for a scalar angular velocity `s`.
#[inline]
fn cross_sv(s: f32, v: Vec2) -> Vec2 {
    Vec2::new(-s * v.y, s * v.x)
}

/// Solves `[[k11, k12], [k12, k22]] x = b` (zero when singular).
#[inline]
fn solve22(k11: f32, k12: f32, k22: f32, b: Vec2) -> Vec2 {
    let det = k11 * k22 - k12 * k12;
    let det = if det != 0.0 { 1.0 / det } else { 0.0 };
    Vec2::new(det * (k22 * b.x - k12 * b.y), det * (k11 * b.y - k12 * b.x))
}

/// The point constraint's `K` for anchors `ra`, `rb` (the upper triangle).
#[inline]
fn point_mass(ma: f32, mb: f32, ia: f32, ib: f32, ra: Vec2, rb: Vec2) -> (f32, f32, f32) {
    (
        ma + mb + ra.y * ra.y * ia + rb.y * rb.y * ib,
        -ra.y * ra.x * ia - rb.y * rb.x * ib,
        ma + mb + ra.x * ra.x * ia + rb.x * rb.x * ib,
    )
}

/// `1 / k`, or 0 when `k` is not positive.
#[inline]
fn inverse(k: f32) -> f32 {
    if k > 0.0 {
        1.0 / k
    } else {
        0.0
    }
}

/// What every joint prepares alike: its frames turned to the world and taken relative to the
/// centres of mass, the centres' offset (B's minus A's) and the constraint's softness
/// (`hertz` capped at a quarter of the sub-step rate).
#[inline]
fn placed(
    frames: (Transform, Transform),
    (a, b): (&JointBody, &JointBody),
    (hertz, damping_ratio): (f32, f32),
    h: f32,
) -> (Transform, Transform, Vec2, Softness) {
    let world_frame = |body: &JointBody, local: Transform| Transform {
        p: body.transform.q.rotate(local.p - body.local_center),
        q: body.transform.q * local.q,
    };
    let frame_a = world_frame(a, frames.0);
    let frame_b = world_frame(b, frames.1);
    let center = |body: &JointBody| body.transform.p + body.transform.q.rotate(body.local_center);
    let delta_center = center(b) - center(a);
    let soft = softness(hertz.min(0.25 / h), damping_ratio, h);
    (frame_a, frame_b, delta_center, soft)
}

/// The velocities of a joint's two bodies, read from the states and written back.
struct Pair {
    va: Vec2,
    wa: f32,
    vb: Vec2,
    wb: f32,
}

impl JointSim {
    /// Prepares a joint for a step of sub-step `h`: frames in the world relative to the
    /// centres of mass, softness, effective masses. `hertz` and `damping_ratio` are the
    /// joint's constraint softness (capped at a quarter of the sub-step rate).
    pub(crate) fn prepare(
        kind: JointKind,
        impulses: JointImpulses,
        frames: (Transform, Transform),
        bodies: (&JointBody, &JointBody),
        (hertz, damping_ratio): (f32, f32),
        h: f32,
    ) -> JointSim {
        let (a, b) = bodies;
        let (ma, mb, ia, ib) = (a.inv_mass, b.inv_mass, a.inv_inertia, b.inv_inertia);
        let (frame_a, frame_b, delta_center, soft) = placed(frames, bodies, (hertz, damping_ratio), h);
        let mut sim = JointSim {
            index_a: a.index,
            index_b: b.index,
            ma,
            mb,
            ia,
            ib,
            frame_a,
            frame_b,
            delta_center,
            soft,
            spring: Softness::rigid(),
            spring2: Softness::rigid(),
            axial_mass: 0.0,
            perp_mass: 0.0,
            motor_mass: 0.0,
            linear_mass: [0.0; 4],
            kind,
            impulses,
        };
        let (ra, rb) = (frame_a.p, frame_b.p);
        match kind {
            JointKind::Distance(j) => {
                let axis = (rb - ra + delta_center).normalize_or_zero();
                let (cra, crb) = (ra.cross(axis), rb.cross(axis));
                sim.axial_mass = inverse(ma + mb + ia * cra * cra + ib * crb * crb);
                sim.spring = softness(j.hertz, j.damping_ratio, h);
            }
            JointKind::Revolute(j) => {
                sim.axial_mass = inverse(ia + ib);
                sim.spring = softness(j.hertz, j.damping_ratio, h);
            }
            JointKind::Prismatic(j) => {
                sim.spring = softness(j.hertz, j.damping_ratio, h);
            }
            JointKind::Weld(j) => {
                sim.axial_mass = inverse(ia + ib);
                sim.spring = if j.linear_hertz == 0.0 {
                    soft
                } else {
                    softness(j.linear_hertz, j.linear_damping_ratio, h)
                };
                sim.spring2 = if j.angular_hertz == 0.0 {
                    soft
                } else {
                    softness(j.angular_hertz, j.angular_damping_ratio, h)
                };
            }
            JointKind::Wheel(j) => {
                let d = delta_center + rb - ra;
                let axis = frame_a.q.x_axis();
                let perp = axis.left_perp();
                let (s1, s2) = ((d + ra).cross(perp), rb.cross(perp));
                sim.perp_mass = inverse(ma + mb + ia * s1 * s1 + ib * s2 * s2);
                let (a1, a2) = ((d + ra).cross(axis), rb.cross(axis));
                sim.axial_mass = inverse(ma + mb + ia * a1 * a1 + ib * a2 * a2);
                sim.spring = softness(j.hertz, j.damping_ratio, h);
                sim.motor_mass = inverse(ia + ib);
            }
            JointKind::Motor(j) => {
                sim.spring = softness(j.linear_hertz, j.linear_damping_ratio, h);
                sim.spring2 = softness(j.angular_hertz, j.angular_damping_ratio, h);
                sim.linear_mass = inverse22(point_mass(ma, mb, ia, ib, ra, rb));
                sim.axial_mass = inverse(ia + ib);
            }
            JointKind::Filter => {}
        }
        sim
    }

    fn read(&self, states: &[BodyState]) -> (Pair, BodyState, BodyState) {
        let (a, b) = (states[self.index_a as usize], states[self.index_b as usize]);
        (
            Pair {
                va: a.v,
                wa: a.w,
                vb: b.v,
                wb: b.w,
            },
            a,
            b,
        )
    }

    fn write(&self, states: &mut [BodyState], p: &Pair) {
        // A static body (index 0) and a kinematic one have zero inverse mass and inertia:
        // their velocities come back unchanged, bit for bit.
        let a = &mut states[self.index_a as usize];
        (a.v, a.w) = (p.va, p.wa);
        let b = &mut states[self.index_b as usize];
        (b.v, b.w) = (p.vb, p.wb);
    }

    /// Applies `impulse` at the anchors: `−` to A at `ra`, `+` to B at `rb`.
    #[inline]
    fn push(&self, p: &mut Pair, impulse: Vec2, ra: Vec2, rb: Vec2) {
        p.va -= impulse * self.ma;
        p.wa -= self.ia * ra.cross(impulse);
        p.vb += impulse * self.mb;
        p.wb += self.ib * rb.cross(impulse);
    }

    /// Applies the impulse `lambda` along `axis` with angular parts `la` (A) and `lb` (B).
    #[inline]
    fn push_axis(&self, p: &mut Pair, lambda: f32, axis: Vec2, la: f32, lb: f32) {
        p.va -= axis * (self.ma * lambda);
        p.wa -= self.ia * la;
        p.vb += axis * (self.mb * lambda);
        p.wb += self.ib * lb;
    }

    /// Relative angle of frame B to frame A at the current sub-step.
    #[inline]
    fn angle(&self, a: &BodyState, b: &BodyState) -> f32 {
        (a.dq * self.frame_a.q).inv_mul(b.dq * self.frame_b.q).angle()
    }

    /// Applies last step's impulses (warm starting).
    pub(crate) fn warm_start(&self, states: &mut [BodyState]) {
        let (mut p, a, b) = self.read(states);
        let ra = a.dq.rotate(self.frame_a.p);
        let rb = b.dq.rotate(self.frame_b.p);
        let j = &self.impulses;
        match self.kind {
            JointKind::Distance(_) => {
                let axis = (self.delta_center + b.dp - a.dp + rb - ra).normalize_or_zero();
                let lambda = j.axial + j.lower - j.upper + j.motor;
                self.push(&mut p, axis * lambda, ra, rb);
            }
            JointKind::Revolute(_) => {
                let axial = j.spring + j.motor + j.lower - j.upper;
                self.push(&mut p, j.linear, ra, rb);
                p.wa -= self.ia * axial;
                p.wb += self.ib * axial;
            }
            JointKind::Prismatic(_) | JointKind::Wheel(_) => {
                let d = b.dp - a.dp + self.delta_center + rb - ra;
                let axis = a.dq.rotate(self.frame_a.q.x_axis());
                let perp = axis.left_perp();
                let (a1, a2) = ((ra + d).cross(axis), rb.cross(axis));
                let (s1, s2) = ((ra + d).cross(perp), rb.cross(perp));
                let (axial, perp_impulse, angular) = if let JointKind::Wheel(_) = self.kind {
                    (j.spring + j.lower - j.upper, j.axial, j.motor)
                } else {
                    (j.spring + j.motor + j.lower - j.upper, j.linear.x, j.linear.y)
                };
                let impulse = axis * axial + perp * perp_impulse;
                let la = axial * a1 + perp_impulse * s1 + angular;
                let lb = axial * a2 + perp_impulse * s2 + angular;
                p.va -= impulse * self.ma;
                p.wa -= self.ia * la;
                p.vb += impulse * self.mb;
                p.wb += self.ib * lb;
            }
            JointKind::Weld(_) => {
                self.push(&mut p, j.linear, ra, rb);
                p.wa -= self.ia * j.axial;
                p.wb += self.ib * j.axial;
            }
            JointKind::Motor(_) => {
                let linear = j.linear + j.linear_spring;
                let angular = j.axial + j.spring;
                self.push(&mut p, linear, ra, rb);
                p.wa -= self.ia * angular;
                p.wb += self.ib * angular;
            }
            JointKind::Filter => return,
        }
        self.write(states, &p);
    }

    /// One solver iteration: with `use_bias` (the solve phase) the rigid parts push out
    /// their position error softly; without (the relax phase) they only remove velocity
    /// error. `h` is the sub-step.
    pub(crate) fn solve(&mut self, states: &mut [BodyState], use_bias: bool, h: f32) {
        let (mut p, a, b) = self.read(states);
        match self.kind {
            JointKind::Distance(d) => self.solve_distance(&mut p, &a, &b, &d, use_bias, h),
            JointKind::Revolute(r) => self.solve_revolute(&mut p, &a, &b, &r, use_bias, h),
            JointKind::Prismatic(r) => self.solve_prismatic(&mut p, &a, &b, &r, use_bias, h),
            JointKind::Weld(w) => self.solve_weld(&mut p, &a, &b, &w, use_bias),
            JointKind::Wheel(w) => self.solve_wheel(&mut p, &a, &b, &w, use_bias, h),
            JointKind::Motor(m) => self.solve_motor(&mut p, &a, &b, &m, h),
            JointKind::Filter => return,
        }
        self.write(states, &p);
    }

    /// Soft coefficients `(bias, mass scale, impulse scale)` of a rigid row with position
    /// error `c`: with bias the joint's softness, without none.
    #[inline]
    fn rigid(&self, c: f32, use_bias: bool) -> (f32, f32, f32) {
        if use_bias {
            (
                self.soft.bias_rate() * c,
                self.soft.mass_scale(),
                self.soft.impulse_scale(),
            )
        } else {
            (0.0, 1.0, 0.0)
        }
    }

    /// A limit row with separation `c` (`> 0`: not reached, speculative).
    #[inline]
    fn limit(&self, c: f32, use_bias: bool, h: f32) -> (f32, f32, f32) {
        if c > 0.0 {
            (c / h, 1.0, 0.0)
        } else {
            self.rigid(c, use_bias)
        }
    }

    fn solve_distance(
        &mut self,
        p: &mut Pair,
        a: &BodyState,
        b: &BodyState,
        d: &DistanceJoint,
        use_bias: bool,
        h: f32,
    ) {
        let ra = a.dq.rotate(self.frame_a.p);
        let rb = b.dq.rotate(self.frame_b.p);
        let separation = self.delta_center + b.dp - a.dp + rb - ra;
        let length = separation.length();
        let axis = separation.normalize_or_zero();
        let rate = |p: &Pair| axis.dot(p.vb + cross_sv(p.wb, rb) - p.va - cross_sv(p.wa, ra));
        let mut impulses = self.impulses;
        let j = &mut impulses;
        let (ma, mb, ia, ib) = (self.ma, self.mb, self.ia, self.ib);
        let push = |p: &mut Pair, lambda: f32| {
            let impulse = axis * lambda;
            p.va -= impulse * ma;
            p.wa -= ia * ra.cross(impulse);
            p.vb += impulse * mb;
            p.wb += ib * rb.cross(impulse);
        };
        if d.enable_spring && (d.min_length < d.max_length || !d.enable_limit) {
            if d.hertz > 0.0 {
                let c = length - d.length;
                let bias = self.spring.bias_rate() * c;
                let m = self.spring.mass_scale() * self.axial_mass;
                let old = j.axial;
                let impulse = -m * (rate(p) + bias) - self.spring.impulse_scale() * old;
                j.axial = (old + impulse).clamp(d.lower_spring_force * h, d.upper_spring_force * h);
                push(p, j.axial - old);
            }
            if d.enable_motor {
                let impulse = self.axial_mass * (d.motor_speed - rate(p));
                let old = j.motor;
                let max = h * d.max_motor_force;
                j.motor = (old + impulse).clamp(-max, max);
                push(p, j.motor - old);
            }
            if d.enable_limit {
                let (bias, ms, is) = self.limit(length - d.min_length, use_bias, h);
                let old = j.lower;
                let impulse = -ms * self.axial_mass * (rate(p) + bias) - is * old;
                j.lower = (old + impulse).max(0.0);
                push(p, j.lower - old);
                let (bias, ms, is) = self.limit(d.max_length - length, use_bias, h);
                let old = j.upper;
                let impulse = -ms * self.axial_mass * (-rate(p) + bias) - is * old;
                j.upper = (old + impulse).max(0.0);
                push(p, -(j.upper - old));
            }
        } else {
            let (bias, ms, is) = self.rigid(length - d.length, use_bias);
            let old = j.axial;
            let impulse = -ms * self.axial_mass * (rate(p) + bias) - is * old;
            j.axial = old + impulse;
            push(p, impulse);
        }
        self.impulses = impulses;
    }

    fn solve_revolute(
        &mut self,
        p: &mut Pair,
        a: &BodyState,
        b: &BodyState,
        r: &RevoluteJoint,
        use_bias: bool,
        h: f32,
    ) {
        let fixed_rotation = self.ia + self.ib == 0.0;
        if r.enable_spring && !fixed_rotation {
            let c = unwind(self.angle(a, b) - r.target_angle);
            let bias = self.spring.bias_rate() * c;
            let impulse = -self.spring.mass_scale() * self.axial_mass * (p.wb - p.wa + bias)
                - self.spring.impulse_scale() * self.impulses.spring;
            self.impulses.spring += impulse;
            p.wa -= self.ia * impulse;
            p.wb += self.ib * impulse;
        }
        if r.enable_motor && !fixed_rotation {
            let impulse = -self.axial_mass * (p.wb - p.wa - r.motor_speed);
            let old = self.impulses.motor;
            let max = h * r.max_motor_torque;
            self.impulses.motor = (old + impulse).clamp(-max, max);
            let impulse = self.impulses.motor - old;
            p.wa -= self.ia * impulse;
            p.wb += self.ib * impulse;
        }
        if r.enable_limit && !fixed_rotation {
            let angle = self.angle(a, b);
            let (bias, ms, is) = self.limit(angle - r.lower_angle, use_bias, h);
            let old = self.impulses.lower;
            let impulse = -ms * self.axial_mass * (p.wb - p.wa + bias) - is * old;
            self.impulses.lower = (old + impulse).max(0.0);
            let impulse = self.impulses.lower - old;
            p.wa -= self.ia * impulse;
            p.wb += self.ib * impulse;
            let (bias, ms, is) = self.limit(r.upper_angle - angle, use_bias, h);
            let old = self.impulses.upper;
            let impulse = -ms * self.axial_mass * (p.wa - p.wb + bias) - is * old;
            self.impulses.upper = (old + impulse).max(0.0);
            let impulse = self.impulses.upper - old;
            p.wa += self.ia * impulse;
            p.wb -= self.ib * impulse;
        }
        self.solve_point(p, a, b, use_bias, self.soft);
    }

    /// The point constraint of revolute and weld joints: the frames' origins together, with
    /// softness `soft` when `use_bias`.
    fn solve_point(&mut self, p: &mut Pair, a: &BodyState, b: &BodyState, use_bias: bool, soft: Softness) {
        let ra = a.dq.rotate(self.frame_a.p);
        let rb = b.dq.rotate(self.frame_b.p);
        let cdot = p.vb + cross_sv(p.wb, rb) - p.va - cross_sv(p.wa, ra);
        let (bias, ms, is) = if use_bias {
            let separation = b.dp - a.dp + rb - ra + self.delta_center;
            (
                separation * soft.bias_rate(),
                soft.mass_scale(),
                soft.impulse_scale(),
            )
        } else {
            (Vec2::ZERO, 1.0, 0.0)
        };
        let (k11, k12, k22) = point_mass(self.ma, self.mb, self.ia, self.ib, ra, rb);
        let x = solve22(k11, k12, k22, cdot + bias);
        let impulse = x * -ms - self.impulses.linear * is;
        self.impulses.linear += impulse;
        self.push(p, impulse, ra, rb);
    }

    fn solve_prismatic(
        &mut self,
        p: &mut Pair,
        a: &BodyState,
        b: &BodyState,
        r: &PrismaticJoint,
        use_bias: bool,
        h: f32,
    ) {
        let ra = a.dq.rotate(self.frame_a.p);
        let rb = b.dq.rotate(self.frame_b.p);
        let d = b.dp - a.dp + self.delta_center + rb - ra;
        let axis = a.dq.rotate(self.frame_a.q.x_axis());
        let translation = axis.dot(d);
        let (a1, a2) = ((ra + d).cross(axis), rb.cross(axis));
        let axial_mass = inverse(self.ma + self.mb + self.ia * a1 * a1 + self.ib * a2 * a2);
        let rate = |p: &Pair| axis.dot(p.vb - p.va) + a2 * p.wb - a1 * p.wa;
        if r.enable_spring {
            let c = translation - r.target_translation;
            let bias = self.spring.bias_rate() * c;
            let impulse = -self.spring.mass_scale() * axial_mass * (rate(p) + bias)
                - self.spring.impulse_scale() * self.impulses.spring;
            self.impulses.spring += impulse;
            self.push_axis(p, impulse, axis, impulse * a1, impulse * a2);
        }
        if r.enable_motor {
            let impulse = axial_mass * (r.motor_speed - rate(p));
            let old = self.impulses.motor;
            let max = h * r.max_motor_force;
            self.impulses.motor = (old + impulse).clamp(-max, max);
            let impulse = self.impulses.motor - old;
            self.push_axis(p, impulse, axis, impulse * a1, impulse * a2);
        }
        if r.enable_limit {
            let speculative = 0.25 * (r.upper_translation - r.lower_translation);
            let c = translation - r.lower_translation;
            if c < speculative {
                let (bias, ms, is) = if c > 0.0 {
                    (c.min(1.0) / h, 1.0, 0.0)
                } else {
                    self.rigid(c, use_bias)
                };
                let old = self.impulses.lower;
                let impulse = -axial_mass * ms * (rate(p) + bias) - is * old;
                self.impulses.lower = (old + impulse).max(0.0);
                let impulse = self.impulses.lower - old;
                self.push_axis(p, impulse, axis, impulse * a1, impulse * a2);
            } else {
                self.impulses.lower = 0.0;
            }
            let c = r.upper_translation - translation;
            if c < speculative {
                let (bias, ms, is) = if c > 0.0 {
                    (c.min(1.0) / h, 1.0, 0.0)
                } else {
                    self.rigid(c, use_bias)
                };
                let old = self.impulses.upper;
                let impulse = -axial_mass * ms * (-rate(p) + bias) - is * old;
                self.impulses.upper = (old + impulse).max(0.0);
                let impulse = self.impulses.upper - old;
                self.push_axis(p, -impulse, axis, -impulse * a1, -impulse * a2);
            } else {
                self.impulses.upper = 0.0;
            }
        }
        // The perpendicular and angular rows, solved together.
        let perp = axis.left_perp();
        let (s1, s2) = ((d + ra).cross(perp), rb.cross(perp));
        let cdot = Vec2::new(perp.dot(p.vb - p.va) + s2 * p.wb - s1 * p.wa, p.wb - p.wa);
        let (bias, ms, is) = if use_bias {
            let c = Vec2::new(perp.dot(d), self.angle(a, b));
            (
                c * self.soft.bias_rate(),
                self.soft.mass_scale(),
                self.soft.impulse_scale(),
            )
        } else {
            (Vec2::ZERO, 1.0, 0.0)
        };
        let k11 = self.ma + self.mb + self.ia * s1 * s1 + self.ib * s2 * s2;
        let k12 = self.ia * s1 + self.ib * s2;
        let k22 = self.ia + self.ib;
        let k22 = if k22 == 0.0 { 1.0 } else { k22 };
        let x = solve22(k11, k12, k22, cdot + bias);
        let impulse = x * -ms - self.impulses.linear * is;
        self.impulses.linear += impulse;
        let la = impulse.x * s1 + impulse.y;
        let lb = impulse.x * s2 + impulse.y;
        self.push_axis(p, impulse.x, perp, la, lb);
    }

    fn solve_weld(&mut self, p: &mut Pair, a: &BodyState, b: &BodyState, w: &WeldJoint, use_bias: bool) {
        // Angular row, then the point (Box2D solves them apart: a block solve does not take
        // mixed stiffness).
        let (bias, ms, is) = if use_bias || w.angular_hertz > 0.0 {
            let c = self.angle(a, b);
            (
                self.spring2.bias_rate() * c,
                self.spring2.mass_scale(),
                self.spring2.impulse_scale(),
            )
        } else {
            (0.0, 1.0, 0.0)
        };
        let impulse = -ms * self.axial_mass * (p.wb - p.wa + bias) - is * self.impulses.axial;
        self.impulses.axial += impulse;
        p.wa -= self.ia * impulse;
        p.wb += self.ib * impulse;
        self.solve_point(p, a, b, use_bias || w.linear_hertz > 0.0, self.spring);
    }

    fn solve_wheel(
        &mut self,
        p: &mut Pair,
        a: &BodyState,
        b: &BodyState,
        w: &WheelJoint,
        use_bias: bool,
        h: f32,
    ) {
        let fixed_rotation = self.ia + self.ib == 0.0;
        let ra = a.dq.rotate(self.frame_a.p);
        let rb = b.dq.rotate(self.frame_b.p);
        let d = b.dp - a.dp + self.delta_center + rb - ra;
        let axis = a.dq.rotate(self.frame_a.q.x_axis());
        let translation = axis.dot(d);
        let (a1, a2) = ((d + ra).cross(axis), rb.cross(axis));
        let rate = |p: &Pair| axis.dot(p.vb - p.va) + a2 * p.wb - a1 * p.wa;
        if w.enable_motor && !fixed_rotation {
            let impulse = -self.motor_mass * (p.wb - p.wa - w.motor_speed);
            let old = self.impulses.motor;
            let max = h * w.max_motor_torque;
            self.impulses.motor = (old + impulse).clamp(-max, max);
            let impulse = self.impulses.motor - old;
            p.wa -= self.ia * impulse;
            p.wb += self.ib * impulse;
        }
        if w.enable_spring {
            let bias = self.spring.bias_rate() * translation;
            let impulse = -self.spring.mass_scale() * self.axial_mass * (rate(p) + bias)
                - self.spring.impulse_scale() * self.impulses.spring;
            self.impulses.spring += impulse;
            self.push_axis(p, impulse, axis, impulse * a1, impulse * a2);
        }
        if w.enable_limit {
            let (bias, ms, is) = self.limit(translation - w.lower_translation, use_bias, h);
            let old = self.impulses.lower;
            let impulse = -ms * self.axial_mass * (rate(p) + bias) - is * old;
            self.impulses.lower = (old + impulse).max(0.0);
            let impulse = self.impulses.lower - old;
            self.push_axis(p, impulse, axis, impulse * a1, impulse * a2);
            let (bias, ms, is) = self.limit(w.upper_translation - translation, use_bias, h);
            let old = self.impulses.upper;
            let impulse = -ms * self.axial_mass * (-rate(p) + bias) - is * old;
            self.impulses.upper = (old + impulse).max(0.0);
            let impulse = self.impulses.upper - old;
            self.push_axis(p, -impulse, axis, -impulse * a1, -impulse * a2);
        }
        let perp = axis.left_perp();
        let (bias, ms, is) = self.rigid(perp.dot(d), use_bias);
        let (s1, s2) = ((d + ra).cross(perp), rb.cross(perp));
        let cdot = perp.dot(p.vb - p.va) + s2 * p.wb - s1 * p.wa;
        let impulse = -ms * self.perp_mass * (cdot + bias) - is * self.impulses.axial;
        self.impulses.axial += impulse;
        self.push_axis(p, impulse, perp, impulse * s1, impulse * s2);
    }

    fn solve_motor(&mut self, p: &mut Pair, a: &BodyState, b: &BodyState, m: &MotorJoint, h: f32) {
        if m.max_spring_torque > 0.0 && m.angular_hertz > 0.0 {
            let c = self.angle(a, b);
            let bias = self.spring2.bias_rate() * c;
            let max = h * m.max_spring_torque;
            let old = self.impulses.spring;
            let impulse = -self.spring2.mass_scale() * self.axial_mass * (p.wb - p.wa + bias)
                - self.spring2.impulse_scale() * old;
            self.impulses.spring = (old + impulse).clamp(-max, max);
            let impulse = self.impulses.spring - old;
            p.wa -= self.ia * impulse;
            p.wb += self.ib * impulse;
        }
        if m.max_velocity_torque > 0.0 {
            let impulse = -self.axial_mass * (p.wb - p.wa - m.angular_velocity);
            let max = h * m.max_velocity_torque;
            let old = self.impulses.axial;
            self.impulses.axial = (old + impulse).clamp(-max, max);
            let impulse = self.impulses.axial - old;
            p.wa -= self.ia * impulse;
            p.wb += self.ib * impulse;
        }
        let ra = a.dq.rotate(self.frame_a.p);
        let rb = b.dq.rotate(self.frame_b.p);
        let clamp = |v: Vec2, max: f32| {
            if v.length_squared() > max * max {
                v.normalize_or_zero() * max
            } else {
                v
            }
        };
        if m.max_spring_force > 0.0 && m.linear_hertz > 0.0 {
            let c = b.dp - a.dp + rb - ra + self.delta_center;
            let cdot = p.vb + cross_sv(p.wb, rb) - p.va - cross_sv(p.wa, ra) + c * self.spring.bias_rate();
            self.linear_mass = inverse22(point_mass(self.ma, self.mb, self.ia, self.ib, ra, rb));
            let x = mul22(self.linear_mass, cdot);
            let old = self.impulses.linear_spring;
            let impulse = x * -self.spring.mass_scale() - old * self.spring.impulse_scale();
            self.impulses.linear_spring = clamp(old + impulse, h * m.max_spring_force);
            let impulse = self.impulses.linear_spring - old;
            self.push(p, impulse, ra, rb);
        }
        if m.max_velocity_force > 0.0 {
            let cdot = p.vb + cross_sv(p.wb, rb) - p.va - cross_sv(p.wa, ra) - m.linear_velocity;
            let impulse = -mul22(self.linear_mass, cdot);
            let old = self.impulses.linear;
            self.impulses.linear = clamp(old + impulse, h * m.max_velocity_force);
            let impulse = self.impulses.linear - old;
            self.push(p, impulse, ra, rb);
        }
    }

    /// The constraint force (N, world, on body B) and torque (N·m) of the last sub-step:
    /// the linear and angular impulses over `h`.
    pub(crate) fn reaction(&self, inv_h: f32) -> (Vec2, f32) {
        let axis = match self.kind {
            JointKind::Distance(_) => {
                (self.delta_center + self.frame_b.p - self.frame_a.p).normalize_or_zero()
            }
            _ => self.frame_a.q.x_axis(),
        };
        reaction(&self.kind, &self.impulses, axis, inv_h)
    }
}

/// The reaction of a joint from its impulses: `axis` is, in the world, the unit direction
/// from anchor A to anchor B for a distance joint and frame A's x axis for a prismatic or
/// wheel joint (unused by the others).
pub(crate) fn reaction(kind: &JointKind, j: &JointImpulses, axis: Vec2, inv_h: f32) -> (Vec2, f32) {
    match kind {
        JointKind::Distance(_) => (axis * ((j.axial + j.lower - j.upper + j.motor) * inv_h), 0.0),
        JointKind::Revolute(_) => (j.linear * inv_h, (j.motor + j.lower - j.upper) * inv_h),
        JointKind::Prismatic(_) => {
            let perp = axis.left_perp();
            let axial = j.spring + j.motor + j.lower - j.upper;
            ((perp * j.linear.x + axis * axial) * inv_h, j.linear.y * inv_h)
        }
        JointKind::Weld(_) => (j.linear * inv_h, j.axial * inv_h),
        JointKind::Wheel(_) => {
            let perp = axis.left_perp();
            let axial = j.spring + j.lower - j.upper;
            ((perp * j.axial + axis * axial) * inv_h, j.motor * inv_h)
        }
        JointKind::Motor(_) => ((j.linear + j.linear_spring) * inv_h, (j.axial + j.spring) * inv_h),
        JointKind::Filter => (Vec2::ZERO, 0.0),
    }
}

/// The inverse of the symmetric `[[k11, k12], [k12, k22]]` as `[a, b, c, d]` (columns `(a, b)`,
/// `(c, d)`), zero when singular.
fn inverse22((k11, k12, k22): (f32, f32, f32)) -> [f32; 4] {
    let det = k11 * k22 - k12 * k12;
    let det = if det != 0.0 { 1.0 / det } else { 0.0 };
    [det * k22, -det * k12, -det * k12, det * k11]
}

fn mul22(m: [f32; 4], v: Vec2) -> Vec2 {
    Vec2::new(m[0] * v.x + m[2] * v.y, m[1] * v.x + m[3] * v.y)
}

/// `angle` brought into `[-π, π]`.
fn unwind(angle: f32) -> f32 {
    use core::f32::consts::PI;
    if angle < -PI {
        angle + 2.0 * PI
    } else if angle > PI {
        angle - 2.0 * PI
    } else {
        angle
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rot;

    /// A plain hinge in its compact form moves the bodies exactly as the full joint does:
    /// warm start, solve with and without bias, over several sub-steps with turning bodies.
    #[test]
    fn a_compact_hinge_solves_as_the_full_joint() {
        let body = |index, x: f32, angle: f32, inv_mass: f32| JointBody {
            index,
            transform: Transform::new(Vec2::new(x, 0.5 * x), angle),
            local_center: Vec2::new(0.1, -0.05),
            inv_mass,
            inv_inertia: 3.0 * inv_mass,
        };
        let kinds = [
            JointKind::Revolute(RevoluteJoint::default()),
            JointKind::Revolute(RevoluteJoint {
                enable_limit: true,
                ..RevoluteJoint::default()
            }),
        ];
        for (kind, compact) in kinds.into_iter().zip([true, false]) {
            for (a, b) in [
                (body(1, 0.0, 0.3, 1.0), body(2, 1.1, -0.2, 0.5)),
                (body(0, 0.0, 0.0, 0.0), body(1, 0.9, 0.4, 2.0)),
            ] {
                let impulses = JointImpulses {
                    linear: Vec2::new(0.02, -0.3),
                    ..JointImpulses::default()
                };
                let frames = (
                    Transform::new(Vec2::new(0.55, 0.2), 0.1),
                    Transform::new(Vec2::new(-0.5, -0.3), -0.2),
                );
                let h = 1.0 / 240.0;
                let mut full = JointSim::prepare(kind, impulses, frames, (&a, &b), (60.0, 5.0), h);
                let hinge = HingeSim::from_sim(&full);
                assert_eq!(hinge.is_some(), compact, "{kind:?}");
                let Some(mut hinge) = hinge else {
                    continue;
                };
                let direct = HingeSim::prepare(impulses.linear, frames, (&a, &b), (60.0, 5.0), h);
                assert_eq!(alloc::format!("{direct:?}"), alloc::format!("{hinge:?}"));
                let start = |i: u32| BodyState {
                    v: Vec2::new(0.3 * i as f32, -1.0),
                    w: 0.7 - i as f32,
                    dp: Vec2::new(0.01 * i as f32, -0.02),
                    dq: Rot::from_angle(0.05 * i as f32),
                };
                let mut s1 = [start(0), start(1), start(2)];
                s1[0] = BodyState::default();
                let mut s2 = s1;
                for _ in 0..4 {
                    full.warm_start(&mut s1);
                    hinge.warm_start(&mut s2);
                    full.solve(&mut s1, true, h);
                    hinge.solve(&mut s2, true);
                    full.solve(&mut s1, false, h);
                    hinge.solve(&mut s2, false);
                    for (x, y) in s1.iter().zip(&s2) {
                        assert!(x.v == y.v && x.w == y.w, "{x:?} {y:?}");
                    }
                    assert_eq!(full.impulses.linear, hinge.linear);
                }
            }
        }
    }
}
