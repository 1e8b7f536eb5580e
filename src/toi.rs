//! Time of impact with rotation (Box2D's `b2TimeOfImpact`): both shapes move along a
//! [`Sweep`] (linear motion of the centre of mass plus rotation), and [`time_of_impact`] finds
//! the first fraction at which they come within the target distance, by conservative
//! advancement over separating axes proven with a speed bound.

use crate::distance::{gjk_scaled, ShapeProxy, SimplexCache, CAST_RELATIVE_TOLERANCE};
use crate::fmath;
use crate::geometry::{Shape, MAX_POLYGON_VERTICES};
use crate::math::{Rot, Transform, Vec2};

/// The motion of a body over a step, for [`time_of_impact`]: its centre of mass moves linearly
/// from `c1` to `c2` while its rotation goes from `q1` to `q2` (normalised linear interpolation
/// of the rotations, as Box2D). `local_center` is the centre of mass in shape space.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sweep {
    /// Centre of mass in the shape's local space.
    pub local_center: Vec2,
    /// World centre of mass at fraction 0.
    pub c1: Vec2,
    /// World centre of mass at fraction 1.
    pub c2: Vec2,
    /// Rotation at fraction 0.
    pub q1: Rot,
    /// Rotation at fraction 1.
    pub q2: Rot,
}

impl Sweep {
    /// A sweep between two transforms of a shape whose centre of mass is `local_center`.
    #[must_use]
    pub fn from_transforms(local_center: Vec2, xf1: Transform, xf2: Transform) -> Sweep {
        Sweep {
            local_center,
            c1: xf1.apply(local_center),
            c2: xf2.apply(local_center),
            q1: xf1.q,
            q2: xf2.q,
        }
    }

    /// The transform at `beta` in `[0, 1]`.
    #[must_use]
    pub fn transform_at(&self, beta: f32) -> Transform {
        let c = self.c1.lerp(self.c2, beta);
        let q = Rot {
            c: (1.0 - beta) * self.q1.c + beta * self.q2.c,
            s: (1.0 - beta) * self.q1.s + beta * self.q2.s,
        }
        .normalized();
        Transform {
            p: c - q.rotate(self.local_center),
            q,
        }
    }

    fn is_finite(&self) -> bool {
        self.local_center.is_finite()
            && self.c1.is_finite()
            && self.c2.is_finite()
            && self.q1.is_finite()
            && self.q2.is_finite()
    }

    /// Rotation angle of the sweep, in `[0, π]`.
    fn angle(&self) -> f32 {
        fmath::atan2(
            self.q1.c * self.q2.s - self.q1.s * self.q2.c,
            self.q1.c * self.q2.c + self.q1.s * self.q2.s,
        )
        .abs()
    }

    fn shifted(&self, origin: Vec2) -> Sweep {
        Sweep {
            c1: self.c1 - origin,
            c2: self.c2 - origin,
            ..*self
        }
    }
}

/// How a time-of-impact query ended.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ToiState {
    /// The root finder or the outer loop hit its iteration cap; `fraction` is a safe lower
    /// bound of the impact time.
    Failed = 0,
    /// Already overlapping at fraction 0.
    Overlapped = 1,
    /// The shapes come within the target distance at `fraction`.
    Hit = 2,
    /// No impact up to `max_fraction`.
    Separated = 3,
    /// Non-finite sweeps, a bad `max_fraction` or an invalid shape.
    InvalidInput = 4,
}

/// Result of [`time_of_impact`].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToiOutput {
    /// What happened.
    pub state: ToiState,
    /// Sweep fraction of the impact ([`ToiState::Hit`]), `max_fraction`
    /// ([`ToiState::Separated`]), 0 ([`ToiState::Overlapped`]), or the last safe fraction
    /// ([`ToiState::Failed`]).
    pub fraction: f32,
    /// Outer iterations used.
    pub iterations: u32,
}

/// Outer iteration cap of [`time_of_impact`].
pub const TOI_MAX_ITERATIONS: u32 = 40;

/// Largest rotation a sweep may have (radians). The normalised lerp between rotations π apart
/// is undefined, so sweeps rotating by more than this are invalid input.
pub const MAX_SWEEP_ROTATION: f32 = 3.0;

/// Largest rotation (radians) of either body over one advance along a separating axis.
const MAX_AXIS_STEP_ROTATION: f32 = 0.25;
const TOI_MAX_ROOT_ITERATIONS: u32 = 50;

#[derive(Clone, Copy, PartialEq)]
enum SepKind {
    Points,
    FaceA,
    FaceB,
}

struct SeparationFn<'a> {
    pa: &'a ShapeProxy,
    pb: &'a ShapeProxy,
    sa: Sweep,
    sb: Sweep,
    kind: SepKind,
    local_point: Vec2,
    axis: Vec2,
}

impl<'a> SeparationFn<'a> {
    fn new(
        cache: &SimplexCache,
        pa: &'a ShapeProxy,
        pb: &'a ShapeProxy,
        sa: Sweep,
        sb: Sweep,
        t: f32,
    ) -> Option<Self> {
        let xa = sa.transform_at(t);
        let xb = sb.transform_at(t);
        let ia0 = cache.index_a[0] as usize;
        let ib0 = cache.index_b[0] as usize;
        let mut f = SeparationFn {
            pa,
            pb,
            sa,
            sb,
            kind: SepKind::Points,
            local_point: Vec2::ZERO,
            axis: Vec2::ZERO,
        };
        if cache.count == 1 {
            let a = xa.apply(pa.points[ia0]);
            let b = xb.apply(pb.points[ib0]);
            f.axis = (b - a).try_normalize()?;
        } else if cache.index_a[0] == cache.index_a[1] {
            // Two points on B: B's face.
            f.kind = SepKind::FaceB;
            let (b1, b2) = (pb.points[ib0], pb.points[cache.index_b[1] as usize]);
            f.axis = (b2 - b1).try_normalize()?.right_perp();
            f.local_point = (b1 + b2) * 0.5;
            let n = xb.q.rotate(f.axis);
            let pb_w = xb.apply(f.local_point);
            let pa_w = xa.apply(pa.points[ia0]);
            if (pa_w - pb_w).dot(n) < 0.0 {
                f.axis = -f.axis;
            }
        } else {
            // Two points on A: A's face.
            f.kind = SepKind::FaceA;
            let (a1, a2) = (pa.points[ia0], pa.points[cache.index_a[1] as usize]);
            f.axis = (a2 - a1).try_normalize()?.right_perp();
            f.local_point = (a1 + a2) * 0.5;
            let n = xa.q.rotate(f.axis);
            let pa_w = xa.apply(f.local_point);
            let pb_w = xb.apply(pb.points[ib0]);
            if (pb_w - pa_w).dot(n) < 0.0 {
                f.axis = -f.axis;
            }
        }
        Some(f)
    }

    /// Deepest points along the axis at `t`: (separation, index on A, index on B).
    fn find_min(&self, t: f32) -> (f32, usize, usize) {
        let xa = self.sa.transform_at(t);
        let xb = self.sb.transform_at(t);
        match self.kind {
            SepKind::Points => {
                let ia = self.pa.support(xa.q.inv_rotate(self.axis));
                let ib = self.pb.support(xb.q.inv_rotate(-self.axis));
                (self.eval(ia, ib, t), ia, ib)
            }
            SepKind::FaceA => {
                let n = xa.q.rotate(self.axis);
                let ib = self.pb.support(xb.q.inv_rotate(-n));
                (self.eval(0, ib, t), 0, ib)
            }
            SepKind::FaceB => {
                let n = xb.q.rotate(self.axis);
                let ia = self.pa.support(xa.q.inv_rotate(-n));
                (self.eval(ia, 0, t), ia, 0)
            }
        }
    }

    fn eval(&self, ia: usize, ib: usize, t: f32) -> f32 {
        let xa = self.sa.transform_at(t);
        let xb = self.sb.transform_at(t);
        match self.kind {
            SepKind::Points => (xb.apply(self.pb.points[ib]) - xa.apply(self.pa.points[ia])).dot(self.axis),
            SepKind::FaceA => {
                let n = xa.q.rotate(self.axis);
                (xb.apply(self.pb.points[ib]) - xa.apply(self.local_point)).dot(n)
            }
            SepKind::FaceB => {
                let n = xb.q.rotate(self.axis);
                (xa.apply(self.pa.points[ia]) - xb.apply(self.local_point)).dot(n)
            }
        }
    }
}

/// Steps of a fixed angle along a normalised lerp between two rotations `phi` apart
/// (`0 <= phi <= MAX_SWEEP_ROTATION`). The lerp's direction at fraction `t` is
/// `(1 − t + t cos φ, t sin φ)`; turning it by the step and solving for the fraction gives the
/// next one, with no transcendental function per step.
struct NlerpStep {
    /// `(cos φ, sin φ)`: the lerp's end direction.
    end: Rot,
    /// The step's rotation.
    step: Rot,
}

impl NlerpStep {
    fn new(phi: f32, step: f32) -> NlerpStep {
        NlerpStep {
            end: Rot::from_angle(phi),
            step: Rot::from_angle(step),
        }
    }

    /// The fraction after `t` at which the lerp has turned a further step, or 1 when it
    /// reaches its end first.
    fn advance(&self, t: f32) -> f32 {
        let (c, s) = (self.end.c, self.end.s);
        let u = self.step.rotate(Vec2::new((1.0 - t) + t * c, t * s));
        // Past the end direction (the angles involved stay below π apart).
        if !(Vec2::new(c, s).cross(u) < 0.0) {
            return 1.0;
        }
        // (1 − t' + t' cos φ, t' sin φ) ∥ u; the denominator is |u|(sin(φ − θ) + sin θ) > 0.
        (u.y / (s * u.x + (1.0 - c) * u.y)).clamp(t, 1.0)
    }
}

/// Time of impact of two shapes moving along sweeps with rotation (Box2D's
/// `b2TimeOfImpact`): the first fraction in `[0, max_fraction]` at which their surfaces come
/// within a tolerance of touching.
///
/// Box2D's separating-axis advancement, hardened against rotational tunneling:
/// - a `Separated` verdict must be proven by a bound on the relative speed of any two points
///   (relative centre motion plus angular rate × reach);
/// - each advance along a separating axis is limited to 0.25 rad of rotation of either body
///   (measured in the normalised lerp's own angle, which turns fastest mid-sweep), and an
///   advance that lands in contact is bisected back to the crossing instead of failing.
///
/// Known limit, shared with Box2D: a contact that begins and ends within one such 0.25 rad
/// step (a brief graze by a fast-rotating body) can be missed. Sweeps may rotate by at most
/// [`MAX_SWEEP_ROTATION`].
///
/// Both sweeps are shifted to A's starting centre before computing, so the result does not
/// depend on the distance from the world origin; tolerances are relative to the shapes' size.
#[must_use]
pub fn time_of_impact(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    max_fraction: f32,
) -> ToiOutput {
    let invalid = ToiOutput {
        state: ToiState::InvalidInput,
        fraction: 0.0,
        iterations: 0,
    };
    if !((0.0..=1.0).contains(&max_fraction) && sweep_a.is_finite() && sweep_b.is_finite()) {
        return invalid;
    }
    let pa = ShapeProxy::from_shape(a);
    let pb = ShapeProxy::from_shape(b);
    // A's core is the same at every fraction (the distance runs in A's frame at t), so it is
    // validated and measured once.
    let (Some(ea), true) = (pa.check(), pb.check().is_some()) else {
        return invalid;
    };
    let origin = sweep_a.c1;
    let sa = sweep_a.shifted(origin);
    let sb = sweep_b.shifted(origin);
    let size = pa
        .extent()
        .max(pb.extent())
        .max(pa.radius + pb.radius)
        .max(f32::MIN_POSITIVE);
    let tol = CAST_RELATIVE_TOLERANCE * size;
    let target = (pa.radius + pb.radius).max(2.0 * tol);

    // Bound on how fast any point of B can approach any point of A, per unit of fraction:
    // relative centre motion plus, for each body, angular rate × farthest core point. The
    // normalised lerp of a rotation through φ turns at most at 2 tan(φ/2).
    let (phi_a, phi_b) = (sa.angle(), sb.angle());
    if !(phi_a <= MAX_SWEEP_ROTATION && phi_b <= MAX_SWEEP_ROTATION) {
        return invalid;
    }
    let reach = |p: &ShapeProxy, c: Vec2| p.points().iter().fold(0.0f32, |m, q| m.max(q.distance(c)));
    let omega = |phi: f32| 2.0 * fmath::tan(0.5 * phi);
    let speed_bound = ((sb.c2 - sb.c1) - (sa.c2 - sa.c1)).length()
        + omega(phi_a) * reach(&pa, sa.local_center)
        + omega(phi_b) * reach(&pb, sb.local_center);
    // Each advance along a separating axis is limited to MAX_AXIS_STEP_ROTATION of real
    // rotation of either body, so the separation function stays close to concave (exactly
    // concave without rotation) over the step. Measured in the lerp's own angle: it does not
    // turn uniformly (up to 2·tan(φ/2) per unit fraction near the middle, against φ on
    // average), so a step of 0.25/φ in fraction could turn a body by 2 rad at φ = 3.
    // The step is shared between the bodies in proportion to their rotations, so their
    // relative rotation (which turns one body's points in the other's frame) stays within it.
    let share = MAX_AXIS_STEP_ROTATION / (phi_a + phi_b).max(f32::MIN_POSITIVE);
    let (step_a, step_b) = (
        NlerpStep::new(phi_a, share * phi_a),
        NlerpStep::new(phi_b, share * phi_b),
    );
    let step_end = |t: f32| step_a.advance(t).min(step_b.advance(t));

    let mut cache = SimplexCache::default();
    let mut t1 = 0.0f32;
    // Last fraction known to be apart (distance above the target).
    let mut t_safe = 0.0f32;
    let mut iterations = 0;
    loop {
        let core_distance = |t: f32, cache: &mut SimplexCache| -> Option<f32> {
            let xa = sa.transform_at(t);
            let xb = sb.transform_at(t);
            let (core_b, eb) = pb.transformed(xa.inv_mul(xb))?;
            Some(gjk_scaled(&pa, &core_b, cache, ea.max(eb)).distance)
        };
        let Some(dist) = core_distance(t1, &mut cache) else {
            return invalid;
        };
        iterations += 1;
        if dist < target - tol {
            if t1 == 0.0 {
                // Penetrating at the start (for rounded shapes the cores may still be apart).
                return ToiOutput {
                    state: ToiState::Overlapped,
                    fraction: 0.0,
                    iterations,
                };
            }
            // An advance along a rotating axis overshot into contact: bisect back between the
            // last fraction known apart and this one to the crossing.
            let (mut lo, mut hi) = (t_safe, t1);
            for _ in 0..TOI_MAX_ROOT_ITERATIONS {
                let mid = 0.5 * (lo + hi);
                let Some(d) = core_distance(mid, &mut SimplexCache::default()) else {
                    return invalid;
                };
                if d > target + tol {
                    lo = mid;
                } else if d < target - tol {
                    hi = mid;
                } else {
                    lo = mid;
                    break;
                }
            }
            return ToiOutput {
                state: ToiState::Hit,
                fraction: lo,
                iterations,
            };
        }
        if dist < target + tol {
            return ToiOutput {
                state: ToiState::Hit,
                fraction: t1,
                iterations,
            };
        }
        t_safe = t1;
        // Proven separated for the rest of the sweep: the gap cannot close in the time left.
        if dist - target > speed_bound * (max_fraction - t1) {
            return ToiOutput {
                state: ToiState::Separated,
                fraction: max_fraction,
                iterations,
            };
        }
        // The earliest fraction at which contact is possible at all.
        let safe_t = t1 + (dist - target) / speed_bound;
        if iterations >= TOI_MAX_ITERATIONS {
            return ToiOutput {
                state: ToiState::Failed,
                fraction: t1,
                iterations,
            };
        }
        let Some(f) = SeparationFn::new(&cache, &pa, &pb, sa, sb, t1) else {
            return ToiOutput {
                state: ToiState::Failed,
                fraction: t1,
                iterations,
            };
        };
        // Resolve the deepest points along this axis, pushing back the end of the interval.
        let mut t2 = max_fraction.min(step_end(t1).max(safe_t));
        let mut done = None;
        for _ in 0..MAX_POLYGON_VERTICES {
            let (s2, ia, ib) = f.find_min(t2);
            if s2 > target + tol {
                // Separated along this axis at t2. Without rotation that proves separation up
                // to t2 (the separation is concave in t); with rotation the step limit keeps
                // the function nearly concave. Advance at least to the proven-safe fraction.
                t1 = t2.max(safe_t.min(max_fraction));
                break;
            }
            if s2 > target - tol {
                // Close enough at t2: advance the sweep there.
                t1 = t2;
                break;
            }
            let s1 = f.eval(ia, ib, t1);
            if s1 < target - tol {
                // The axis already penetrates at t1: numerical trouble.
                done = Some((ToiState::Failed, t1));
                break;
            }
            if s1 <= target + tol {
                done = Some((ToiState::Hit, t1));
                break;
            }
            // Root of s(t) = target on [t1, t2], alternating secant and bisection.
            let (mut a1, mut a2, mut sa1, mut sa2) = (t1, t2, s1, s2);
            let mut root = t1;
            let mut found = false;
            for k in 0..TOI_MAX_ROOT_ITERATIONS {
                let t = if k & 1 == 1 {
                    a1 + (target - sa1) * (a2 - a1) / (sa2 - sa1)
                } else {
                    0.5 * (a1 + a2)
                };
                let s = f.eval(ia, ib, t);
                if (s - target).abs() < tol {
                    root = t;
                    found = true;
                    break;
                }
                if s > target {
                    a1 = t;
                    sa1 = s;
                } else {
                    a2 = t;
                    sa2 = s;
                }
                root = a1;
            }
            if !found {
                // Keep the safe side of the bracket.
                t2 = root;
                continue;
            }
            t2 = root;
        }
        if let Some((state, fraction)) = done {
            return ToiOutput {
                state,
                fraction,
                iterations,
            };
        }
        if t1 >= max_fraction {
            // Advanced to the end without contact.
            return ToiOutput {
                state: ToiState::Separated,
                fraction: max_fraction,
                iterations,
            };
        }
    }
}
