//! The contact passes (warm start, solve, relax, restitution) on lanes of constraints, and
//! the two ways constraints reach them: gathered from the caller's [`ContactConstraint`]s on
//! each pass, or packed once per step into [`ContactBlock`]s.
//!
//! Constraints are always processed in slice order (Gauss–Seidel). A run of [`BLOCK`]
//! consecutive constraints that share no moving body is processed in one go, one constraint
//! per lane; they cannot affect each other, and every lane does exactly the scalar arithmetic,
//! so the result is bit-for-bit that of processing them one after another.

use super::lanes::{max, min, Lane, Wide, V2};
#[cfg(feature = "alloc")]
use super::Carried;
use super::{pair_indices, Body, ConstraintPoint, ContactConstraint, Softness};
use crate::math::Vec2;

/// Constraints processed together in SIMD lanes.
pub(crate) const BLOCK: usize = 4;

/// What one pass does to each constraint.
#[derive(Clone, Copy)]
pub(crate) enum Pass {
    /// Apply the accumulated impulses.
    WarmStart,
    /// Normal impulses with a soft position bias (`use_bias`, friction skipped) or without
    /// (the relax pass, with friction).
    Solve {
        soft_dynamic: Softness,
        soft_static: Softness,
        inv_h: f32,
        push_max: f32,
        use_bias: bool,
    },
    /// Restitution for points that approached faster than `threshold` and pushed.
    Restitution { threshold: f32 },
}

/// A body with zero inverse mass and inertia: contacts never change its velocity, so it is
/// never written and may be shared by constraints processed together.
#[inline(always)]
pub(crate) fn is_fixed(b: &Body) -> bool {
    b.inv_mass == 0.0 && b.inv_inertia == 0.0
}

/// The body pairs of [`BLOCK`] constraints when all are valid and no moving body appears
/// twice.
fn independent(bodies: &[Body], run: &[ContactConstraint; BLOCK]) -> Option<[(usize, usize); BLOCK]> {
    let mut pairs = [(0, 0); BLOCK];
    // Fixed bodies get a distinct sentinel per slot so they never count as shared.
    let mut ids = [0usize; 2 * BLOCK];
    for (l, c) in run.iter().enumerate() {
        let (a, b) = pair_indices(bodies.len(), c)?;
        pairs[l] = (a, b);
        ids[2 * l] = if is_fixed(&bodies[a]) {
            usize::MAX - 2 * l
        } else {
            a
        };
        ids[2 * l + 1] = if is_fixed(&bodies[b]) {
            usize::MAX - 2 * l - 1
        } else {
            b
        };
    }
    for i in 2..2 * BLOCK {
        // Slots of the same constraint differ already (`pair_indices` refuses a == b).
        if ids[..i & !1].contains(&ids[i]) {
            return None;
        }
    }
    Some(pairs)
}

/// What the contact passes read and write of a body: its velocity and its motion since the
/// step began. [`Body`] has them among its other fields (84 bytes, so the four often straddle
/// two cache lines); the World's solver keeps them apart in [`BodyState`]s, 32 bytes each,
/// and its passes gather from those.
pub(crate) trait Motion {
    fn velocity(&self) -> (Vec2, f32);
    fn delta(&self) -> (Vec2, crate::math::Rot);
    fn set_velocity(&mut self, v: Vec2, w: f32);
}

impl Motion for Body {
    #[inline(always)]
    fn velocity(&self) -> (Vec2, f32) {
        (self.linear_velocity, self.angular_velocity)
    }
    #[inline(always)]
    fn delta(&self) -> (Vec2, crate::math::Rot) {
        (self.delta_position, self.delta_rotation)
    }
    #[inline(always)]
    fn set_velocity(&mut self, v: Vec2, w: f32) {
        self.linear_velocity = v;
        self.angular_velocity = w;
    }
}

/// A body's velocity and motion since the step began, as the World's solver passes use them:
/// 32 bytes, aligned so one never straddles a cache line.
#[cfg(feature = "alloc")]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(32))]
pub(crate) struct BodyState {
    pub(crate) v: Vec2,
    pub(crate) w: f32,
    pub(crate) dp: Vec2,
    pub(crate) dq: crate::math::Rot,
}

#[cfg(feature = "alloc")]
impl Motion for BodyState {
    #[inline(always)]
    fn velocity(&self) -> (Vec2, f32) {
        (self.v, self.w)
    }
    #[inline(always)]
    fn delta(&self) -> (Vec2, crate::math::Rot) {
        (self.dp, self.dq)
    }
    #[inline(always)]
    fn set_velocity(&mut self, v: Vec2, w: f32) {
        self.v = v;
        self.w = w;
    }
}

/// The inverse masses and inverse inertias of the bodies at `index`, as lanes.
#[inline(always)]
fn masses<const N: usize>(bodies: &[Body], index: [usize; N]) -> (Wide<N>, Wide<N>) {
    (
        Wide::from_fn(|l| bodies[index[l]].inv_mass),
        Wide::from_fn(|l| bodies[index[l]].inv_inertia),
    )
}

/// A body's velocity and its motion since the step began, as lanes.
#[derive(Clone, Copy)]
struct BodyLanes<const N: usize> {
    v: V2<Wide<N>>,
    w: Wide<N>,
    inv_mass: Wide<N>,
    inv_inertia: Wide<N>,
    dp: V2<Wide<N>>,
    dq: V2<Wide<N>>,
}

impl<const N: usize> BodyLanes<N> {
    #[inline(always)]
    fn load(bodies: &[Body], index: [usize; N]) -> BodyLanes<N> {
        let (inv_mass, inv_inertia) = masses(bodies, index);
        BodyLanes::load_with(bodies, index, inv_mass, inv_inertia)
    }

    /// As [`BodyLanes::load`], with the masses given (a block packs them once per step: they
    /// do not change during a step), so each pass loads only what the passes change.
    #[inline(always)]
    fn load_with<B: Motion>(
        bodies: &[B],
        index: [usize; N],
        inv_mass: Wide<N>,
        inv_inertia: Wide<N>,
    ) -> BodyLanes<N> {
        let b: [&B; N] = index.map(|i| &bodies[i]);
        let vel = b.map(Motion::velocity);
        let delta = b.map(Motion::delta);
        BodyLanes {
            v: V2 {
                x: Wide::from_fn(|l| vel[l].0.x),
                y: Wide::from_fn(|l| vel[l].0.y),
            },
            w: Wide::from_fn(|l| vel[l].1),
            inv_mass,
            inv_inertia,
            dp: V2 {
                x: Wide::from_fn(|l| delta[l].0.x),
                y: Wide::from_fn(|l| delta[l].0.y),
            },
            dq: V2 {
                x: Wide::from_fn(|l| delta[l].1.c),
                y: Wide::from_fn(|l| delta[l].1.s),
            },
        }
    }

    /// Writes the velocities back, except to fixed bodies.
    #[inline(always)]
    fn store<B: Motion>(&self, bodies: &mut [B], index: [usize; N]) {
        for (l, i) in index.into_iter().enumerate() {
            // `is_fixed` from the loaded lanes (the same values the body holds).
            if !(self.inv_mass.0[l] == 0.0 && self.inv_inertia.0[l] == 0.0) {
                bodies[i].set_velocity(Vec2::new(self.v.x.0[l], self.v.y.0[l]), self.w.0[l]);
            }
        }
    }

    /// Velocity after the impulse `p` at anchor `r`, added (`sign_b`, body B) or subtracted.
    #[inline(always)]
    fn push(&self, r: V2<Wide<N>>, p: V2<Wide<N>>, sign_b: bool) -> (V2<Wide<N>>, Wide<N>) {
        let dv = p.scale(self.inv_mass);
        let dw = self.inv_inertia * r.cross(p);
        if sign_b {
            (self.v.add(dv), self.w + dw)
        } else {
            (self.v.sub(dv), self.w - dw)
        }
    }
}

/// The effective mass matrix `K` of the normal rows of two contact points with anchors
/// `(rA, rB)` (from each body's centre of mass) along normal `n`, between bodies with inverse
/// masses and inertias `(m, i)`: `[K₁₁, K₂₂, K₁₂]`, `Kⱼₖ = mA + mB + iA (rAⱼ × n)(rAₖ × n) +
/// iB (rBⱼ × n)(rBₖ × n)`. `Kⱼⱼ` is the inverse of the point's normal mass, in the same
/// operations as [`constraint_at`](super::constraint_at). Generic so that a lane of a block
/// and a single constraint get it from the same operations, bit for bit.
#[inline(always)]
#[allow(clippy::type_complexity)]
fn coupling<T>(n: (T, T), points: [((T, T), (T, T)); 2], [(ma, ia), (mb, ib)]: [(T, T); 2]) -> [T; 3]
where
    T: Copy + core::ops::Add<Output = T> + core::ops::Sub<Output = T> + core::ops::Mul<Output = T>,
{
    let cross = |r: (T, T)| r.0 * n.1 - r.1 * n.0;
    let [(ra0, rb0), (ra1, rb1)] = points.map(|(ra, rb)| (cross(ra), cross(rb)));
    let m = ma + mb;
    [
        m + ia * ra0 * ra0 + ib * rb0 * rb0,
        m + ia * ra1 * ra1 + ib * rb1 * rb1,
        m + ia * ra0 * ra1 + ib * rb0 * rb1,
    ]
}

/// One constraint point per lane.
#[derive(Clone, Copy)]
#[repr(C)]
struct PointLanes<const N: usize> {
    ra: V2<Wide<N>>,
    rb: V2<Wide<N>>,
    base_separation: Wide<N>,
    normal_impulse: Wide<N>,
    tangent_impulse: Wide<N>,
    max_normal_impulse: Wide<N>,
    normal_mass: Wide<N>,
    tangent_mass: Wide<N>,
    relative_velocity: Wide<N>,
    /// The lanes whose constraint has this point.
    active: [u32; N],
}

/// One constraint per lane.
#[derive(Clone, Copy)]
#[repr(C)]
struct ContactLanes<const N: usize> {
    n: V2<Wide<N>>,
    friction: Wide<N>,
    restitution: Wide<N>,
    points: [PointLanes<N>; 2],
    /// The normal rows' effective mass matrix `K` of the two points, `[K₁₁, K₂₂, K₁₂]`
    /// (see [`coupling`]), set by [`ContactLanes::couple`]; unused in lanes with one point.
    k: [Wide<N>; 3],
    /// The lanes whose two points are solved together: two points, and `K` well conditioned
    /// (its condition estimate `Kᵢᵢ² / det K` below [`MAX_CONDITION`]); set with `k`.
    paired: [u32; N],
}

impl<const N: usize> ContactLanes<N> {
    #[inline(always)]
    fn gather(run: &[ContactConstraint; N]) -> ContactLanes<N> {
        let c = |f: fn(&ContactConstraint) -> f32| Wide::from_fn(|l| f(&run[l]));
        let point = |j: usize| {
            let p = |f: fn(&ConstraintPoint) -> f32| Wide::from_fn(|l| f(&run[l].points[j]));
            PointLanes {
                ra: V2 {
                    x: p(|p| p.anchor_a.x),
                    y: p(|p| p.anchor_a.y),
                },
                rb: V2 {
                    x: p(|p| p.anchor_b.x),
                    y: p(|p| p.anchor_b.y),
                },
                base_separation: p(|p| p.base_separation),
                normal_impulse: p(|p| p.normal_impulse),
                tangent_impulse: p(|p| p.tangent_impulse),
                max_normal_impulse: p(|p| p.max_normal_impulse),
                normal_mass: p(|p| p.normal_mass),
                tangent_mass: p(|p| p.tangent_mass),
                relative_velocity: p(|p| p.relative_velocity),
                active: Wide::mask_from_fn(|l| run[l].count as usize > j),
            }
        };
        ContactLanes {
            n: V2 {
                x: c(|c| c.normal.x),
                y: c(|c| c.normal.y),
            },
            friction: c(|c| c.friction),
            restitution: c(|c| c.restitution),
            points: [point(0), point(1)],
            k: [Wide::splat(0.0); 3],
            paired: [0; N],
        }
    }

    /// Works out [`ContactLanes::k`] for bodies with inverse masses and inertias `a`, `b`.
    #[inline(always)]
    fn couple(&mut self, a: (Wide<N>, Wide<N>), b: (Wide<N>, Wide<N>)) {
        let [p0, p1] = &self.points;
        let v = |v: V2<Wide<N>>| (v.x, v.y);
        self.k = coupling(v(self.n), [(v(p0.ra), v(p0.rb)), (v(p1.ra), v(p1.rb))], [a, b]);
        let [_, k22, k12] = self.k;
        // K scaled by 1/K₁₁ (the first point's normal mass), so that its numbers stay near 1
        // whatever the bodies' masses: `K₁₁² < c · det K` is `1 < c · det`, `K₂₂² < c · det K`
        // is `b₂₂² < c · det`, with `det = b₂₂ − b₁₂²` (false for NaN; true makes det > 0).
        let (b12, b22) = (k12 * p0.normal_mass, k22 * p0.normal_mass);
        let bound = Wide::splat(MAX_CONDITION) * (b22 - b12 * b12);
        let well = Wide::and(bound.gt(Wide::splat(1.0)), bound.gt(b22 * b22));
        self.paired = Wide::and(p1.active, well);
    }

    /// Whether some point would bounce in a restitution pass with `threshold` (the same
    /// mask the pass computes; it cannot change during the restitution passes, which only
    /// touch points inside it).
    #[inline(always)]
    fn bounces(&self, threshold: f32) -> bool {
        let zero = Wide::splat(0.0);
        let bouncy = self.restitution.gt(zero);
        self.points.iter().any(|cp| {
            let fast = (-cp.relative_velocity).gt(Wide::splat(threshold));
            let pushed = cp.max_normal_impulse.gt(zero);
            Wide::any(Wide::and(Wide::and(cp.active, bouncy), Wide::and(fast, pushed)))
        })
    }

    /// Puts `c` into lane `l` (the other lanes are untouched).
    #[cfg(all(test, feature = "alloc"))]
    #[inline(always)]
    fn set(&mut self, l: usize, c: &ContactConstraint) {
        self.set_parts(l, c.normal, c.friction, c.restitution, &c.points, c.count);
    }

    /// Puts the constraint made of these parts into lane `l` (as [`ContactLanes::set`]).
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn set_parts(
        &mut self,
        l: usize,
        normal: Vec2,
        friction: f32,
        restitution: f32,
        points: &[ConstraintPoint; 2],
        count: u32,
    ) {
        self.n.x.0[l] = normal.x;
        self.n.y.0[l] = normal.y;
        self.friction.0[l] = friction;
        self.restitution.0[l] = restitution;
        for (j, (p, cp)) in self.points.iter_mut().zip(points).enumerate() {
            p.ra.x.0[l] = cp.anchor_a.x;
            p.ra.y.0[l] = cp.anchor_a.y;
            p.rb.x.0[l] = cp.anchor_b.x;
            p.rb.y.0[l] = cp.anchor_b.y;
            p.base_separation.0[l] = cp.base_separation;
            p.normal_impulse.0[l] = cp.normal_impulse;
            p.tangent_impulse.0[l] = cp.tangent_impulse;
            p.max_normal_impulse.0[l] = cp.max_normal_impulse;
            p.normal_mass.0[l] = cp.normal_mass;
            p.tangent_mass.0[l] = cp.tangent_mass;
            p.relative_velocity.0[l] = cp.relative_velocity;
            p.active[l] = 0u32.wrapping_sub((count as usize > j) as u32);
        }
    }

    /// Lane `l` as a constraint, with the bodies `a`, `b` and the points' feature ids `ids`
    /// (which the lanes do not hold).
    #[cfg(feature = "alloc")]
    fn get(&self, l: usize, (a, b): (u32, u32), ids: [u32; 2]) -> ContactConstraint {
        let mut c = ContactConstraint {
            body_a: a,
            body_b: b,
            normal: Vec2::new(self.n.x.0[l], self.n.y.0[l]),
            friction: self.friction.0[l],
            restitution: self.restitution.0[l],
            ..ContactConstraint::default()
        };
        for (p, (cp, id)) in self.points.iter().zip(c.points.iter_mut().zip(ids)) {
            if p.active[l] == 0 {
                break;
            }
            *cp = ConstraintPoint {
                anchor_a: Vec2::new(p.ra.x.0[l], p.ra.y.0[l]),
                anchor_b: Vec2::new(p.rb.x.0[l], p.rb.y.0[l]),
                base_separation: p.base_separation.0[l],
                normal_impulse: p.normal_impulse.0[l],
                tangent_impulse: p.tangent_impulse.0[l],
                max_normal_impulse: p.max_normal_impulse.0[l],
                normal_mass: p.normal_mass.0[l],
                tangent_mass: p.tangent_mass.0[l],
                relative_velocity: p.relative_velocity.0[l],
                id,
            };
            c.count += 1;
        }
        c
    }

    /// Writes back what the passes change (the impulses, the largest normal impulse and the
    /// approach speed) for the points each constraint has.
    #[inline(always)]
    fn scatter(&self, run: &mut [ContactConstraint; N]) {
        for (l, c) in run.iter_mut().enumerate() {
            let count = (c.count as usize).min(2);
            for (p, out) in self.points.iter().zip(&mut c.points[..count]) {
                out.normal_impulse = p.normal_impulse.0[l];
                out.tangent_impulse = p.tangent_impulse.0[l];
                out.max_normal_impulse = p.max_normal_impulse.0[l];
                out.relative_velocity = p.relative_velocity.0[l];
            }
        }
    }
}

/// Applies `impulse` (− to A at `ra`, + to B at `rb`) in the `active` lanes; the others keep
/// their velocities exactly (not even the sign of a zero changes), so a missing point is a
/// no-op.
#[inline(always)]
fn apply<const N: usize, const FULL: bool>(
    a: &mut BodyLanes<N>,
    b: &mut BodyLanes<N>,
    ra: V2<Wide<N>>,
    rb: V2<Wide<N>>,
    impulse: V2<Wide<N>>,
    active: [u32; N],
) {
    let (va, wa) = a.push(ra, impulse, false);
    let (vb, wb) = b.push(rb, impulse, true);
    commit::<N, FULL>(a, b, (va, wa), (vb, wb), active);
}

/// `new` in the `active` lanes and `old` in the others; with `FULL` (every lane active,
/// known to the caller) simply `new`.
#[inline(always)]
fn keep<const N: usize, const FULL: bool>(active: [u32; N], new: Wide<N>, old: Wide<N>) -> Wide<N> {
    if FULL {
        new
    } else {
        Wide::select(active, new, old)
    }
}

/// Takes the new velocities of A and B in the `active` lanes and keeps the old ones in the
/// others, exactly (not even the sign of a zero changes).
#[inline(always)]
fn commit<const N: usize, const FULL: bool>(
    a: &mut BodyLanes<N>,
    b: &mut BodyLanes<N>,
    (va, wa): (V2<Wide<N>>, Wide<N>),
    (vb, wb): (V2<Wide<N>>, Wide<N>),
    active: [u32; N],
) {
    if FULL || Wide::all(active) {
        (a.v, a.w, b.v, b.w) = (va, wa, vb, wb);
    } else {
        a.v = V2::select(active, va, a.v);
        a.w = Wide::select(active, wa, a.w);
        b.v = V2::select(active, vb, b.v);
        b.w = Wide::select(active, wb, b.w);
    }
}

/// Speed along `dir` of B's anchor relative to A's, written so that the velocities enter as
/// late as possible: `(vB·dir + ωB (rB × dir)) − (vA·dir + ωA (rA × dir))`. The cross
/// products depend only on the constraint, so the chain from one impulse to the next is a
/// multiply and three adds long.
#[inline(always)]
fn speed_along<const N: usize>(
    a: &BodyLanes<N>,
    b: &BodyLanes<N>,
    ra: V2<Wide<N>>,
    rb: V2<Wide<N>>,
    dir: V2<Wide<N>>,
) -> Wide<N> {
    let (ka, kb) = (ra.cross(dir), rb.cross(dir));
    (b.v.dot(dir) + b.w * kb) - (a.v.dot(dir) + a.w * ka)
}

/// Applies the impulse `lambda · dir` (− to A at `ra`, + to B at `rb`) in the `active` lanes,
/// with the per-body factors (`dir / m`, `(r × dir) / I`) formed before `lambda` is known, so
/// each velocity is one multiply and one add away from it.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn apply_along<const N: usize, const FULL: bool>(
    a: &mut BodyLanes<N>,
    b: &mut BodyLanes<N>,
    ra: V2<Wide<N>>,
    rb: V2<Wide<N>>,
    dir: V2<Wide<N>>,
    lambda: Wide<N>,
    active: [u32; N],
) {
    let (da, db) = (dir.scale(a.inv_mass), dir.scale(b.inv_mass));
    let (ka, kb) = (a.inv_inertia * ra.cross(dir), b.inv_inertia * rb.cross(dir));
    let va = (a.v.sub(da.scale(lambda)), a.w - ka * lambda);
    let vb = (b.v.add(db.scale(lambda)), b.w + kb * lambda);
    commit::<N, FULL>(a, b, va, vb, active);
}

/// A point's terms in the normal solve: the velocity bias (the speed the point may still
/// approach at, or must separate at, along the normal) and the soft constraint's mass and
/// impulse scales (1 and 0 for a rigid row).
#[derive(Clone, Copy)]
struct Row<const N: usize> {
    bias: Wide<N>,
    mass_scale: Wide<N>,
    /// `1 / mass_scale`.
    inv_mass_scale: Wide<N>,
    impulse_scale: Wide<N>,
}

/// What a pass's rows are made from: `1/h`, the push-out limit (negated) and, in the biased
/// pass, the soft terms of this lane's contact (its `bias` is the soft bias rate).
#[derive(Clone, Copy)]
struct RowTerms<const N: usize> {
    inv_h: Wide<N>,
    push_max: Wide<N>,
    soft: Option<Row<N>>,
}

impl<const N: usize> RowTerms<N> {
    /// The row of point `cp` at its current separation (from the bodies' relative motion
    /// `dp` since preparation; it does not change within a pass).
    #[inline(always)]
    fn row(
        &self,
        a: &BodyLanes<N>,
        b: &BodyLanes<N>,
        dp: V2<Wide<N>>,
        n: V2<Wide<N>>,
        cp: &PointLanes<N>,
    ) -> Row<N> {
        let (zero, one) = (Wide::splat(0.0), Wide::splat(1.0));
        let ds = dp.add(b.dq.rotate(cp.rb).sub(a.dq.rotate(cp.ra)));
        let s = ds.dot(n) + cp.base_separation;
        // Speculative points (s > 0) only stop the approach within the sub-step.
        let speculative = s.gt(zero);
        match self.soft {
            Some(soft) => Row {
                bias: Wide::select(speculative, s * self.inv_h, max(soft.bias * s, self.push_max)),
                mass_scale: Wide::select(speculative, one, soft.mass_scale),
                inv_mass_scale: Wide::select(speculative, one, soft.inv_mass_scale),
                impulse_scale: Wide::select(speculative, zero, soft.impulse_scale),
            },
            None => Row {
                bias: Wide::select(speculative, s * self.inv_h, zero),
                mass_scale: one,
                inv_mass_scale: one,
                impulse_scale: zero,
            },
        }
    }
}

/// The condition number above which the two points of a constraint are solved one after the
/// other instead of together (Box2D v2.4's `k_maxConditionNumber`): two points so close that
/// their rows are nearly parallel give a nearly singular 2 × 2 system.
const MAX_CONDITION: f32 = 1000.0;

/// One point's normal impulse in the `mask` lanes (Gauss–Seidel, with accumulated clamping).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn solve_normal<const N: usize, const FULL: bool>(
    a: &mut BodyLanes<N>,
    b: &mut BodyLanes<N>,
    cp: &mut PointLanes<N>,
    n: V2<Wide<N>>,
    row: &Row<N>,
    mask: [u32; N],
    use_bias: bool,
) {
    if !FULL && !Wide::any(mask) {
        return;
    }
    let vn = speed_along(a, b, cp.ra, cp.rb, n);
    if use_bias {
        // Restitution bounces with the fastest approach seen during the step, which includes
        // the speed gained (under gravity) after preparation.
        cp.relative_velocity = keep::<N, FULL>(mask, min(cp.relative_velocity, vn), cp.relative_velocity);
    }
    let impulse = -cp.normal_mass * row.mass_scale * (vn + row.bias) - row.impulse_scale * cp.normal_impulse;
    // Clamping the accumulated impulse at 0 is clamping this one at −accumulated; written so,
    // the velocity update does not wait for the accumulator. The total is exactly 0 when
    // clamped and never negative (rounding is monotone).
    let applied = max(impulse, -cp.normal_impulse);
    let total = cp.normal_impulse + applied;
    cp.normal_impulse = keep::<N, FULL>(mask, total, cp.normal_impulse);
    cp.max_normal_impulse = keep::<N, FULL>(mask, max(cp.max_normal_impulse, applied), cp.max_normal_impulse);
    apply_along::<N, FULL>(a, b, cp.ra, cp.rb, n, applied, mask);
}

/// The normal impulses of the lanes not in `together`, one point after the other.
#[inline(always)]
fn solve_normal_apart<const N: usize>(
    a: &mut BodyLanes<N>,
    b: &mut BodyLanes<N>,
    c: &mut ContactLanes<N>,
    [r0, r1]: [&Row<N>; 2],
    together: [u32; N],
    use_bias: bool,
) {
    let n = c.n;
    let [p0, p1] = &mut c.points;
    let (m0, m1) = (
        Wide::and_not(p0.active, together),
        Wide::and_not(p1.active, together),
    );
    solve_normal::<N, false>(a, b, p0, n, r0, m0, use_bias);
    solve_normal::<N, false>(a, b, p1, n, r1, m1, use_bias);
}

/// Both points' normal impulses solved together, in the lanes whose constraint has two
/// points that are not nearly coincident: the 2 × 2 linear complementarity problem of the
/// two soft rows (Box2D v2.4's block solver, with soft rows), solved exactly by trying its
/// four cases (both push; only the first; only the second; neither). Returns the lanes it
/// solved; the others are left exactly as they were.
///
/// Solved one after the other, each point's impulse turns the body and disturbs the other
/// point, and a sub-step's single pass leaves most of that disturbance in the velocities: a
/// box landing flat on two points gets a spin and a hop from it. Solved together, equal
/// points get equal impulses.
///
/// The soft row of point `i` (Box2D v3's soft step) takes the impulse
/// `Δλᵢ = −mᵢ sᵢ (vᵢ + bᵢ) − tᵢ λᵢ` with `mᵢ = 1/Kᵢᵢ`, mass scale `sᵢ`, impulse scale
/// `tᵢ = 1 − sᵢ` and bias `bᵢ`. That is the solution of `vᵢ' + bᵢ + γᵢ λᵢ' = 0` with
/// `γᵢ = Kᵢᵢ tᵢ / sᵢ`, where `vᵢ'` is the speed after the impulse. With both rows:
/// `(K + Γ) λ' = K λ − v − b`, so the new totals `λ' ≥ 0` solve the complementarity problem
/// with matrix `A = K + Γ` (`Aᵢᵢ = Kᵢᵢ / sᵢ`) and vector `q = v + b − K λ`.
#[inline(always)]
fn solve_normal_pair<const N: usize>(
    a: &mut BodyLanes<N>,
    b: &mut BodyLanes<N>,
    c: &mut ContactLanes<N>,
    [r0, r1]: [&Row<N>; 2],
    use_bias: bool,
) -> [u32; N] {
    let zero = Wide::splat(0.0);
    let n = c.n;
    let [k11, k22, k12] = c.k;
    let [p0, p1] = &mut c.points;
    let mask = c.paired;
    if !Wide::any(mask) {
        return mask;
    }
    let vn0 = speed_along(a, b, p0.ra, p0.rb, n);
    let vn1 = speed_along(a, b, p1.ra, p1.rb, n);
    if use_bias {
        // As in `solve_normal`: the fastest approach seen during the step, for restitution.
        p0.relative_velocity = Wide::select(mask, min(p0.relative_velocity, vn0), p0.relative_velocity);
        p1.relative_velocity = Wide::select(mask, min(p1.relative_velocity, vn1), p1.relative_velocity);
    }
    let (l0, l1) = (p0.normal_impulse, p1.normal_impulse);
    let q0 = vn0 + r0.bias - (k11 * l0 + k12 * l1);
    let q1 = vn1 + r1.bias - (k12 * l0 + k22 * l1);
    // The system divided by A₁₁ (1/A₁₁ = s₁ m₁): `[[1, b₁₂], [b₁₂, b₂₂]] x = −q'` with numbers
    // near 1 whatever the masses (for a 1e20 kg body K is about 1e-21 and det A would
    // underflow).
    let scale = r0.mass_scale * p0.normal_mass;
    let (b12, b22) = (k12 * scale, k22 * r1.inv_mass_scale * scale);
    let (q0, q1) = (q0 * scale, q1 * scale);
    // Both push.
    let det = b22 - b12 * b12;
    let x0 = (b12 * q1 - b22 * q0) / det;
    let x1 = (b12 * q0 - q1) / det;
    let both = Wide::and(x0.ge(zero), x1.ge(zero));
    // Neither pushes (a speculative contact still apart, or one pulling apart).
    let neither = Wide::and(q0.ge(zero), q1.ge(zero));
    // The other two cases only where some lane needs them: a resting face pushes on both
    // points, a contact beside a body in a stack on neither.
    let (t0, t1, solved) = if Wide::all(Wide::or(
        Wide::or(both, neither),
        Wide::and_not([u32::MAX; N], mask),
    )) {
        (Wide::select(both, x0, zero), Wide::select(both, x1, zero), mask)
    } else {
        // Only the first pushes; the second's row then holds on its own.
        let y0 = -q0;
        let only_first = Wide::and(y0.ge(zero), (b12 * y0 + q1).ge(zero));
        // Only the second pushes.
        let z1 = -q1 / b22;
        let only_second = Wide::and(z1.ge(zero), (b12 * z1 + q0).ge(zero));
        let t0 = Wide::select(both, x0, Wide::select(only_first, y0, zero));
        let t1 = Wide::select(
            both,
            x1,
            Wide::select(only_first, zero, Wide::select(only_second, z1, zero)),
        );
        let found = Wide::or(Wide::or(both, only_first), Wide::or(only_second, neither));
        (t0, t1, Wide::and(mask, found))
    };
    let (d0, d1) = (t0 - l0, t1 - l1);
    if Wide::all(solved) {
        store_pair::<N, true>(a, b, [p0, p1], n, [t0, t1], [d0, d1], solved);
    } else {
        store_pair::<N, false>(a, b, [p0, p1], n, [t0, t1], [d0, d1], solved);
    }
    solved
}

/// Stores the totals `t` of both points and applies their increments `d` in the `solved`
/// lanes (every lane with `FULL`).
#[inline(always)]
fn store_pair<const N: usize, const FULL: bool>(
    a: &mut BodyLanes<N>,
    b: &mut BodyLanes<N>,
    points: [&mut PointLanes<N>; 2],
    n: V2<Wide<N>>,
    t: [Wide<N>; 2],
    d: [Wide<N>; 2],
    solved: [u32; N],
) {
    for ((cp, t), d) in points.into_iter().zip(t).zip(d) {
        cp.normal_impulse = keep::<N, FULL>(solved, t, cp.normal_impulse);
        cp.max_normal_impulse = keep::<N, FULL>(solved, max(cp.max_normal_impulse, d), cp.max_normal_impulse);
        apply_along::<N, FULL>(a, b, cp.ra, cp.rb, n, d, solved);
    }
}

/// One pass over the constraints of `c` (one per lane) and their bodies `a`, `b`.
#[inline(always)]
///
/// `FULL`: the caller knows every lane has every point processed, so no update needs
/// masking (the masks would select every lane: the same result, bit for bit, in fewer
/// instructions). `ONE`: no lane has a second point, so only the first is processed (the
/// second's updates would all be masked off).
fn run_lanes<const N: usize, const FULL: bool, const ONE: bool>(
    a: &mut BodyLanes<N>,
    b: &mut BodyLanes<N>,
    c: &mut ContactLanes<N>,
    pass: &Pass,
) {
    let points = if ONE { 1 } else { 2 };
    let zero = Wide::splat(0.0);
    let n = c.n;
    let t = n.right_perp();
    match *pass {
        Pass::WarmStart => {
            for cp in &c.points[..points] {
                let impulse = n.scale(cp.normal_impulse).add(t.scale(cp.tangent_impulse));
                apply::<N, FULL>(a, b, cp.ra, cp.rb, impulse, cp.active);
            }
        }
        Pass::Solve {
            soft_dynamic,
            soft_static,
            inv_h,
            push_max,
            use_bias,
        } => {
            // Contacts with an infinite-mass body are twice as stiff (Box2D v3): the ground
            // then yields less under a stack, and nothing behind it can be disturbed.
            let both_finite = Wide::and(a.inv_mass.gt(zero), b.inv_mass.gt(zero));
            let pick = |f: fn(&Softness) -> f32| {
                Wide::select(
                    both_finite,
                    Wide::splat(f(&soft_dynamic)),
                    Wide::splat(f(&soft_static)),
                )
            };
            let terms = RowTerms {
                inv_h: Wide::splat(inv_h),
                push_max: Wide::splat(-push_max),
                soft: use_bias.then(|| Row {
                    bias: pick(|s| s.bias_rate),
                    mass_scale: pick(|s| s.mass_scale),
                    inv_mass_scale: pick(|s| s.inv_mass_scale),
                    impulse_scale: pick(|s| s.impulse_scale),
                }),
            };
            // The bodies' relative motion since preparation, once for both points (Box2D's
            // form): the separate motions are then dead, two registers fewer in a kernel
            // bound by register spills.
            let dp = b.dp.sub(a.dp);
            let row = |cp: &PointLanes<N>| terms.row(a, b, dp, n, cp);
            let first = row(&c.points[0]);
            if ONE {
                let p0 = &mut c.points[0];
                let active = p0.active;
                solve_normal::<N, FULL>(a, b, p0, n, &first, active, use_bias);
            } else {
                let second = row(&c.points[1]);
                let together = if Wide::any(c.paired) {
                    solve_normal_pair(a, b, c, [&first, &second], use_bias)
                } else {
                    [0; N]
                };
                if !Wide::all(together) {
                    solve_normal_apart(a, b, c, [&first, &second], together, use_bias);
                }
            }
            // Friction only in the relax pass, as Box2D v3.1 does: the biased pass adds
            // push-out velocity that the relax pass then removes, and friction solved against
            // it would resist a motion that is about to disappear.
            if !use_bias {
                for cp in &mut c.points[..points] {
                    let vt = speed_along(a, b, cp.ra, cp.rb, t);
                    let limit = c.friction * cp.normal_impulse;
                    // As for the normal impulse: the increment clamped to what keeps the total
                    // inside the friction cone, then the total clamped again so that round-off
                    // never lets it leave the cone.
                    let ti = cp.tangent_impulse;
                    let applied = min(max(-cp.tangent_mass * vt, -limit - ti), limit - ti);
                    let total = min(max(ti + applied, -limit), limit);
                    cp.tangent_impulse = keep::<N, FULL>(cp.active, total, cp.tangent_impulse);
                    apply_along::<N, FULL>(a, b, cp.ra, cp.rb, t, applied, cp.active);
                }
            }
        }
        Pass::Restitution { threshold } => {
            let bouncy = c.restitution.gt(zero);
            if !Wide::any(bouncy) {
                return;
            }
            for cp in &mut c.points[..points] {
                // Only points of bouncy contacts that approached fast enough and actually
                // pushed bounce; the others are left exactly as they are.
                let fast = (-cp.relative_velocity).gt(Wide::splat(threshold));
                let pushed = cp.max_normal_impulse.gt(zero);
                let active = Wide::and(Wide::and(cp.active, bouncy), Wide::and(fast, pushed));
                if !Wide::any(active) {
                    continue;
                }
                let vn = speed_along(a, b, cp.ra, cp.rb, n);
                let impulse = -cp.normal_mass * (vn + c.restitution * cp.relative_velocity);
                let applied = max(impulse, -cp.normal_impulse);
                let total = cp.normal_impulse + applied;
                cp.normal_impulse = Wide::select(active, total, cp.normal_impulse);
                cp.max_normal_impulse =
                    Wide::select(active, max(cp.max_normal_impulse, applied), cp.max_normal_impulse);
                apply_along::<N, false>(a, b, cp.ra, cp.rb, n, applied, active);
            }
        }
    }
}

/// Four consecutive constraints that share no moving body, packed once per step into
/// lanes (structure of arrays) by [`step_with_scratch`](super::step_with_scratch), so that
/// the passes read them without gathering. Scratch memory: the contents are meaningless
/// between steps. About 560 bytes (with the four bodies' masses, packed once per step).
#[derive(Clone, Copy)]
#[repr(C)]
pub struct ContactBlock {
    lanes: ContactLanes<BLOCK>,
    body_a: [u32; BLOCK],
    body_b: [u32; BLOCK],
    /// The bodies' inverse masses and inertias, per lane.
    inv_mass_a: Wide<BLOCK>,
    inv_inertia_a: Wide<BLOCK>,
    inv_mass_b: Wide<BLOCK>,
    inv_inertia_b: Wide<BLOCK>,
    /// Index of the first of the constraints in the step's slice.
    start: u32,
}

impl ContactBlock {
    /// Constraints per block.
    pub const LANES: usize = BLOCK;
}

impl Default for ContactBlock {
    fn default() -> Self {
        let run = [ContactConstraint::default(); BLOCK];
        ContactBlock {
            lanes: ContactLanes::gather(&run),
            body_a: [0; BLOCK],
            body_b: [0; BLOCK],
            inv_mass_a: Wide::splat(0.0),
            inv_inertia_a: Wide::splat(0.0),
            inv_mass_b: Wide::splat(0.0),
            inv_inertia_b: Wide::splat(0.0),
            start: u32::MAX,
        }
    }
}

impl ContactBlock {
    /// Works out the lanes' two-point coupling (see [`ContactLanes::couple`]) once all are
    /// filled, before the step's passes.
    #[cfg(feature = "alloc")]
    #[inline(always)]
    pub(crate) fn couple(&mut self) {
        self.lanes.couple(
            (self.inv_mass_a, self.inv_inertia_a),
            (self.inv_mass_b, self.inv_inertia_b),
        );
    }

    /// Puts constraint `c` into lane `l`, with its bodies' inverse masses and inertias
    /// `masses` (A's, then B's). The lanes never filled stay empty: body 0 on both
    /// sides, no points, so every pass leaves them (and body 0, when it is fixed) unchanged.
    /// Blocks filled this way are for [`run_blocks`]: the caller guarantees that no moving
    /// body appears in two lanes of a block.
    #[cfg(all(test, feature = "alloc"))]
    pub(crate) fn set_lane(&mut self, l: usize, c: &ContactConstraint, masses: [(f32, f32); 2]) {
        let [(ma, ia), (mb, ib)] = masses;
        self.lanes.set(l, c);
        self.body_a[l] = c.body_a;
        self.body_b[l] = c.body_b;
        self.inv_mass_a.0[l] = ma;
        self.inv_inertia_a.0[l] = ia;
        self.inv_mass_b.0[l] = mb;
        self.inv_inertia_b.0[l] = ib;
        self.couple();
    }

    /// Builds the constraint of `manifold` (with points, and [`usable`](super::usable)) between
    /// the bodies at solver indices `a` and `b` (with centres of mass `ca` and `cb`, their
    /// [`Body::center`]) straight into lane `l`, warm-started from
    /// `previous`: the lane [`build_constraint`](super::build_constraint) and
    /// [`ContactBlock::set_lane`] give, bit for bit, without the constraint in between.
    /// Returns the points' feature ids (the lanes do not hold them).
    #[cfg(all(test, feature = "alloc"))]
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn build_lane(
        &mut self,
        l: usize,
        (a, ba, ca): (u32, &Body, Vec2),
        (b, bb, cb): (u32, &Body, Vec2),
        manifold: &crate::narrowphase::Manifold,
        friction: f32,
        restitution: f32,
        previous: Option<&Carried>,
    ) -> [u32; 2] {
        let pts = manifold.points();
        let mut points = [ConstraintPoint::default(); 2];
        for (cp, mp) in points.iter_mut().zip(pts) {
            *cp = super::constraint_point(mp, manifold.normal, (ca, ba), (cb, bb));
        }
        self.fill_lane(
            l,
            (a, ba),
            (b, bb),
            (manifold.normal, points, pts.len()),
            (friction, restitution),
            previous,
        )
    }

    /// Puts the constraint with normal `normal` and its first `count` points `points`
    /// (impulses zero; see [`constraint_point`](super::constraint_point)) between the bodies at
    /// solver indices `a` and `b` into lane `l`, warm-started from `previous`: the last part of
    /// [`ContactBlock::build_lane`], for points prepared elsewhere (the World's recycled
    /// contacts). Returns the points' feature ids.
    #[cfg(feature = "alloc")]
    #[inline(always)]
    pub(crate) fn fill_lane(
        &mut self,
        l: usize,
        (a, ba): (u32, &Body),
        (b, bb): (u32, &Body),
        (normal, mut points, count): (Vec2, [ConstraintPoint; 2], usize),
        (friction, restitution): (f32, f32),
        previous: Option<&Carried>,
    ) -> [u32; 2] {
        let count = count.min(2);
        if let Some(prev) = previous {
            super::warm_start_points(&mut points[..count], prev);
        }
        self.lanes
            .set_parts(l, normal, friction, restitution, &points, count as u32);

        self.body_a[l] = a;
        self.body_b[l] = b;
        self.inv_mass_a.0[l] = ba.inv_mass;
        self.inv_inertia_a.0[l] = ba.inv_inertia;
        self.inv_mass_b.0[l] = bb.inv_mass;
        self.inv_inertia_b.0[l] = bb.inv_inertia;
        [points[0].id, points[1].id]
    }

    /// The body indices of lane `l` (`(0, 0)` for an empty lane).
    #[cfg(feature = "alloc")]
    pub(crate) fn lane_bodies(&self, l: usize) -> (u32, u32) {
        (self.body_a[l], self.body_b[l])
    }

    /// Lane `l` as a constraint (its impulses as the last pass left them), with the points'
    /// feature ids `ids`.
    #[cfg(feature = "alloc")]
    pub(crate) fn lane(&self, l: usize, ids: [u32; 2]) -> ContactConstraint {
        self.lanes.get(l, self.lane_bodies(l), ids)
    }

    /// What warm starting the next step needs from lane `l` (see [`ContactBlock::lane`]).
    #[cfg(feature = "alloc")]
    pub(crate) fn carried(&self, l: usize, ids: [u32; 2]) -> Carried {
        // Only what warm starting reads (the same values `lane` gives): anchors on A,
        // impulses and the count of leading active points.
        let [p0, p1] = &self.lanes.points;
        let point = |p: &PointLanes<BLOCK>, id: u32| {
            (
                id,
                Vec2::new(p.ra.x.0[l], p.ra.y.0[l]),
                p.normal_impulse.0[l],
                p.tangent_impulse.0[l],
            )
        };
        let count = match (p0.active[l] != 0, p1.active[l] != 0) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        };
        Carried {
            count,
            points: [point(p0, ids[0]), point(p1, ids[1])],
        }
    }

    /// Whether some lane has restitution.
    #[cfg(feature = "alloc")]
    fn bouncy(&self) -> bool {
        Wide::any(self.lanes.restitution.gt(Wide::splat(0.0)))
    }
}

/// One pass over `blocks` in order, every block processed whole in lanes: for blocks filled
/// by [`ContactBlock::set_lane`], whose lanes share no moving body.
#[cfg(feature = "alloc")]
pub(crate) fn run_blocks<B: Motion>(bodies: &mut [B], blocks: &mut [ContactBlock], pass: &Pass) {
    // The same dispatch as `run_pass`, written out: passed through a shared helper taking a
    // closure, the kernel was compiled once for a run-time pass (the closure is not inlined
    // at four call sites) and a large pyramid's step got about 20 % slower.
    match *pass {
        Pass::WarmStart => blocks_with(bodies, blocks, &Pass::WarmStart),
        Pass::Solve {
            soft_dynamic,
            soft_static,
            inv_h,
            push_max,
            use_bias,
        } => {
            let pass = |use_bias| Pass::Solve {
                soft_dynamic,
                soft_static,
                inv_h,
                push_max,
                use_bias,
            };
            if use_bias {
                blocks_with(bodies, blocks, &pass(true));
            } else {
                blocks_with(bodies, blocks, &pass(false));
            }
        }
        Pass::Restitution { threshold } => blocks_with(bodies, blocks, &Pass::Restitution { threshold }),
    }
}

/// Whether some block has restitution (otherwise restitution passes change nothing).
#[cfg(feature = "alloc")]
pub(crate) fn any_bouncy_block(blocks: &[ContactBlock]) -> bool {
    blocks.iter().any(ContactBlock::bouncy)
}

#[cfg(feature = "alloc")]
#[inline(always)]
fn blocks_with<B: Motion>(bodies: &mut [B], blocks: &mut [ContactBlock], pass: &Pass) {
    for blk in blocks {
        run_block(bodies, blk, pass);
    }
}

/// One pass over one block's four lanes.
#[inline(always)]
fn run_block<B: Motion>(bodies: &mut [B], blk: &mut ContactBlock, pass: &Pass) {
    // A restitution pass changes nothing in a block without a bouncing point (every lane is
    // masked off), so it skips the body loads and stores as well: the same result, bit for
    // bit, and a settled scene with a little restitution pays almost nothing for its
    // restitution passes.
    if let Pass::Restitution { threshold } = *pass {
        if !blk.lanes.bounces(threshold) {
            return;
        }
    }
    let (ia, ib) = (blk.body_a.map(|i| i as usize), blk.body_b.map(|i| i as usize));
    let mut a = BodyLanes::load_with(bodies, ia, blk.inv_mass_a, blk.inv_inertia_a);
    let mut b = BodyLanes::load_with(bodies, ib, blk.inv_mass_b, blk.inv_inertia_b);
    // Most blocks have two points in every lane (box stacks) or one in every lane (round
    // shapes): their passes skip the masks, and the second point when no lane has one.
    let [p0, p1] = &blk.lanes.points;
    let shape = (Wide::all(p0.active), Wide::any(p1.active), Wide::all(p1.active));
    let lanes = &mut blk.lanes;
    match shape {
        (true, true, true) => run_lanes::<BLOCK, true, false>(&mut a, &mut b, lanes, pass),
        (true, false, _) => run_lanes::<BLOCK, true, true>(&mut a, &mut b, lanes, pass),
        (false, false, _) => run_lanes::<BLOCK, false, true>(&mut a, &mut b, lanes, pass),
        _ => run_lanes::<BLOCK, false, false>(&mut a, &mut b, lanes, pass),
    }
    a.store(bodies, ia);
    b.store(bodies, ib);
}

impl core::fmt::Debug for ContactBlock {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ContactBlock")
            .field("start", &self.start)
            .finish_non_exhaustive()
    }
}

/// Packs as many runs of independent constraints as fit into `blocks` (in slice order, runs
/// not overlapping) and returns how many blocks were filled.
pub(crate) fn pack(bodies: &[Body], contacts: &[ContactConstraint], blocks: &mut [ContactBlock]) -> usize {
    let mut used = 0;
    let mut k = 0;
    while used < blocks.len() {
        let Some(run) = contacts.get(k..k + BLOCK) else {
            break;
        };
        let run: &[ContactConstraint; BLOCK] = run.try_into().expect("BLOCK long");
        match independent(bodies, run) {
            Some(pairs) => {
                let (ia, ib) = (pairs.map(|p| p.0), pairs.map(|p| p.1));
                let ((inv_mass_a, inv_inertia_a), (inv_mass_b, inv_inertia_b)) =
                    (masses(bodies, ia), masses(bodies, ib));
                let mut lanes = ContactLanes::gather(run);
                lanes.couple((inv_mass_a, inv_inertia_a), (inv_mass_b, inv_inertia_b));
                blocks[used] = ContactBlock {
                    lanes,
                    body_a: ia.map(|i| i as u32),
                    body_b: ib.map(|i| i as u32),
                    inv_mass_a,
                    inv_inertia_a,
                    inv_mass_b,
                    inv_inertia_b,
                    start: k as u32,
                };
                used += 1;
                k += BLOCK;
            }
            None => k += 1,
        }
    }
    used
}

/// Writes the blocks' results back into `contacts`.
pub(crate) fn unpack(blocks: &[ContactBlock], contacts: &mut [ContactConstraint]) {
    for blk in blocks {
        let start = blk.start as usize;
        if let Some(run) = contacts.get_mut(start..start + BLOCK) {
            blk.lanes.scatter(run.try_into().expect("BLOCK long"));
        }
    }
}

/// One pass over `contacts` in order, the runs packed in `blocks` (from [`pack`] on the same
/// slice) processed from there and all others gathered on the fly: runs of independent
/// constraints in lanes, the rest one at a time.
pub(crate) fn run_pass(
    bodies: &mut [Body],
    contacts: &mut [ContactConstraint],
    blocks: &mut [ContactBlock],
    pass: &Pass,
) {
    // One copy of the walk per kind of pass, each with its kernel specialised (and loads it
    // does not need, such as the bodies' motion for warm starting, removed).
    match *pass {
        Pass::WarmStart => walk(bodies, contacts, blocks, &Pass::WarmStart),
        Pass::Solve {
            soft_dynamic,
            soft_static,
            inv_h,
            push_max,
            use_bias,
        } => {
            let pass = |use_bias| Pass::Solve {
                soft_dynamic,
                soft_static,
                inv_h,
                push_max,
                use_bias,
            };
            if use_bias {
                walk(bodies, contacts, blocks, &pass(true));
            } else {
                walk(bodies, contacts, blocks, &pass(false));
            }
        }
        Pass::Restitution { threshold } => walk(bodies, contacts, blocks, &Pass::Restitution { threshold }),
    }
}

#[inline(always)]
fn walk(bodies: &mut [Body], contacts: &mut [ContactConstraint], blocks: &mut [ContactBlock], pass: &Pass) {
    let mut blocks = blocks.iter_mut().peekable();
    let mut k = 0;
    while k < contacts.len() {
        if let Some(blk) = blocks.next_if(|b| b.start as usize == k) {
            run_block(bodies, blk, pass);
            k += BLOCK;
            continue;
        }
        if let Some(run) = contacts.get_mut(k..k + BLOCK) {
            let run: &mut [ContactConstraint; BLOCK] = run.try_into().expect("BLOCK long");
            if let Some(pairs) = independent(bodies, run) {
                run_gathered(bodies, run, pairs, pass);
                k += BLOCK;
                continue;
            }
        }
        if let Some(pair) = pair_indices(bodies.len(), &contacts[k]) {
            run_gathered(bodies, core::array::from_mut(&mut contacts[k]), [pair], pass);
        }
        k += 1;
    }
}

/// Gathers `run` into lanes, runs the pass and scatters the results back.
#[inline(always)]
fn run_gathered<const N: usize>(
    bodies: &mut [Body],
    run: &mut [ContactConstraint; N],
    pairs: [(usize, usize); N],
    pass: &Pass,
) {
    let (ia, ib) = (pairs.map(|p| p.0), pairs.map(|p| p.1));
    let mut a = BodyLanes::load(bodies, ia);
    let mut b = BodyLanes::load(bodies, ib);
    let mut c = ContactLanes::gather(run);
    if matches!(pass, Pass::Solve { .. }) {
        c.couple((a.inv_mass, a.inv_inertia), (b.inv_mass, b.inv_inertia));
    }
    run_lanes::<N, false, false>(&mut a, &mut b, &mut c, pass);
    a.store(bodies, ia);
    b.store(bodies, ib);
    c.scatter(run);
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::geometry::{Polygon, Shape};
    use crate::math::Transform;
    use crate::narrowphase::collide_with_margin;
    use crate::solver::{
        integrate_positions, integrate_velocities, prepare_contact, solve_pass, SolverSettings,
        RESTITUTION_PASSES,
    };

    use crate::test_rng::Rng;

    /// A jumble of boxes at `scale` (some static, some bouncy, all moving), their contacts in
    /// random order with impulses from a first step.
    fn scene(seed: u64, scale: f32) -> ([Body; 40], [ContactConstraint; 120], usize) {
        let mut rng = Rng(seed);
        let unit = Shape::Polygon(Polygon::make_box(0.5 * scale, 0.5 * scale).unwrap());
        let mut bodies = [Body::new_static(Transform::IDENTITY); 40];
        for (i, b) in bodies.iter_mut().enumerate() {
            let xf = Transform::new(
                crate::math::Vec2::new((i % 8) as f32 * 0.95 * scale, (i / 8) as f32 * 0.95 * scale),
                rng.f(-0.1, 0.1),
            );
            *b = if i % 7 == 0 {
                Body::new_static(xf)
            } else {
                let mut d = Body::new_dynamic(xf, unit.mass(1.0)).unwrap();
                d.linear_velocity = crate::math::Vec2::new(rng.f(-2.0, 2.0), rng.f(-2.0, 2.0)) * scale;
                d.angular_velocity = rng.f(-2.0, 2.0);
                d
            };
        }
        let mut contacts = [ContactConstraint::default(); 120];
        let mut n = 0;
        for i in 0..40 {
            for j in i + 1..40 {
                let (xa, xb) = (bodies[i].transform, bodies[j].transform);
                let m = collide_with_margin(&unit, xa, &unit, xb, 0.05 * scale);
                if m.count > 0 && n < contacts.len() {
                    let e = if (i + j) % 3 == 0 { 0.8 } else { 0.0 };
                    contacts[n] = prepare_contact(&bodies, i as u32, j as u32, &m, 0.6, e, None).unwrap();
                    n += 1;
                }
            }
        }
        for k in (1..n).rev() {
            contacts.swap(k, (rng.next() % (k as u64 + 1)) as usize);
        }
        (bodies, contacts, n)
    }

    /// A two-point constraint solved alone by one relax pass (rigid rows, no bias for
    /// touching points, no friction) ends at the solution of its linear complementarity problem, checked
    /// against the conditions themselves, from velocities measured after the pass: both
    /// totals ≥ 0, both points' approach speeds no faster than their speculative allowance
    /// (`vₙ ≥ −s/h`, 0 when touching), and a point that pushes moves at exactly that speed.
    #[test]
    fn a_pair_of_points_solved_together_meets_the_complementarity_conditions() {
        let (mut pairs, mut pushing_one) = (0, 0);
        for seed in 0..40u64 {
            let scale = [0.01f32, 1.0, 100.0][seed as usize % 3];
            let (bodies, mut contacts, n) = scene(seed, scale);
            let settings = SolverSettings::default();
            let h = (1.0 / 60.0) / settings.substeps as f32;
            let relax = super::super::solve_pass(&settings, h, false);
            for c in contacts[..n].iter_mut().filter(|c| c.count == 2) {
                let mut b = bodies;
                for cp in &mut c.points {
                    cp.normal_impulse = 0.0;
                }
                // Without friction the relax pass ends with the normal solve.
                c.friction = 0.0;
                let pair = pair_indices(b.len(), c).unwrap();
                run_gathered(&mut b, core::array::from_mut(c), [pair], &relax);
                let (ba, bb) = (&b[pair.0], &b[pair.1]);
                let speed = |cp: &ConstraintPoint| {
                    let va = ba.linear_velocity + cp.anchor_a.left_perp() * ba.angular_velocity;
                    let vb = bb.linear_velocity + cp.anchor_b.left_perp() * bb.angular_velocity;
                    (vb - va).dot(c.normal)
                };
                let vmax = (ba.linear_velocity - bb.linear_velocity).length() + scale;
                let mut pushing = 0;
                for cp in &c.points {
                    // Bodies have not moved: the separation is the manifold's (base
                    // separation plus the anchors' offset along the normal).
                    let s = cp.base_separation + (cp.anchor_b - cp.anchor_a).dot(c.normal);
                    let w = speed(cp) + s.max(0.0) / h;
                    let tol = 1e-4 * vmax.max(s.abs() / h);
                    assert!(cp.normal_impulse >= 0.0, "seed {seed}");
                    assert!(
                        w >= -tol,
                        "seed {seed}: point approaches too fast ({w}, tol {tol})"
                    );
                    if cp.normal_impulse > 0.0 {
                        assert!(w.abs() <= tol, "seed {seed}: a pushing point separates ({w})");
                        pushing += 1;
                    }
                }
                pairs += 1;
                pushing_one += usize::from(pushing == 1);
            }
        }
        assert!(
            pairs > 100 && pushing_one > 5,
            "cases: {pairs} pairs, {pushing_one} with one point pushing"
        );
    }

    /// The step of `solver::step`, with each pass done by `pass`.
    fn step_by(
        bodies: &mut [Body],
        contacts: &mut [ContactConstraint],
        mut pass: impl FnMut(&mut [Body], &mut [ContactConstraint], &Pass),
    ) {
        let settings = SolverSettings::default();
        let h = (1.0 / 60.0) / settings.substeps as f32;
        for b in bodies.iter_mut() {
            b.delta_position = crate::math::Vec2::ZERO;
            b.delta_rotation = crate::math::Rot::IDENTITY;
        }
        for c in contacts.iter_mut() {
            for cp in &mut c.points {
                cp.max_normal_impulse = 0.0;
            }
        }
        for _ in 0..settings.substeps {
            integrate_velocities(bodies, settings.gravity, h);
            pass(bodies, contacts, &Pass::WarmStart);
            pass(bodies, contacts, &solve_pass(&settings, h, true));
            integrate_positions(bodies, h, settings.max_linear_speed);
            pass(bodies, contacts, &solve_pass(&settings, h, false));
        }
        for _ in 0..RESTITUTION_PASSES {
            pass(bodies, contacts, &Pass::Restitution { threshold: 0.5 });
        }
    }

    fn bits(bodies: &[Body], contacts: &[ContactConstraint]) -> ([u32; 18], [u32; 30]) {
        let mut h = ([0u32; 18], [0u32; 30]);
        for (i, w) in bytemuck::cast_slice::<Body, u32>(bodies).iter().enumerate() {
            h.0[i % 18] ^= w.rotate_left((i / 18) as u32 % 32);
        }
        for (i, w) in bytemuck::cast_slice::<ContactConstraint, u32>(contacts)
            .iter()
            .enumerate()
        {
            h.1[i % 30] ^= w.rotate_left((i / 30) as u32 % 32);
        }
        h
    }

    /// The World's path: constraints packed once into blocks, some lanes left empty, every
    /// block run whole. Same bits as solving the constraints one at a time in block order.
    /// `build_lane` (the World's way) gives the lane `build_constraint` then `set_lane`
    /// give, bit for bit: from scene manifolds at three scales, warm-started from the
    /// constraint of a shifted pose (ids kept, anchors moved, so both matching rules run)
    /// and cold, into every lane position.
    #[test]
    fn lanes_built_in_place_match_built_constraints_bit_for_bit() {
        let mut warm = 0;
        for seed in 0..30u64 {
            let scale = [0.01f32, 1.0, 100.0][seed as usize % 3];
            let (bodies, _, _) = scene(seed, scale);
            let unit = Shape::Polygon(Polygon::make_box(0.5 * scale, 0.5 * scale).unwrap());
            let mut rng = Rng(seed ^ 0x5eed);
            let mut l = 0;
            for i in 0..40u32 {
                for j in i + 1..40u32 {
                    let (ba, bb) = (&bodies[i as usize], &bodies[j as usize]);
                    let m = collide_with_margin(&unit, ba.transform, &unit, bb.transform, 0.05 * scale);
                    if m.count == 0 {
                        continue;
                    }
                    // Last step's constraint: the pair a little apart, with made-up impulses.
                    let mut shifted = *bb;
                    shifted.transform.p += crate::math::Vec2::new(rng.f(-0.03, 0.03), 0.0) * scale;
                    let m0 = collide_with_margin(&unit, ba.transform, &unit, shifted.transform, 0.05 * scale);
                    let mut old = prepare_contact(&bodies, i, j, &m0, 0.6, 0.2, None).unwrap_or_default();
                    for cp in &mut old.points {
                        cp.normal_impulse = rng.f(0.0, 2.0);
                        cp.tangent_impulse = rng.f(-1.0, 1.0);
                        if rng.next() % 3 == 0 {
                            cp.id ^= 0x0101;
                        }
                    }
                    let carried = (rng.next() % 4 != 0).then(|| Carried::new(&old));
                    warm += usize::from(carried.is_some() && old.count > 0);
                    let mut c = ContactConstraint::default();
                    super::super::build_constraint(&mut c, (i, ba), (j, bb), &m, 0.6, 0.2, carried.as_ref())
                        .unwrap();
                    let (mut one, mut two) = (ContactBlock::default(), ContactBlock::default());
                    one.set_lane(
                        l,
                        &c,
                        [(ba.inv_mass, ba.inv_inertia), (bb.inv_mass, bb.inv_inertia)],
                    );
                    let ids = two.build_lane(
                        l,
                        (i, ba, ba.center()),
                        (j, bb, bb.center()),
                        &m,
                        0.6,
                        0.2,
                        carried.as_ref(),
                    );
                    assert_eq!(ids, [c.points[0].id, c.points[1].id]);
                    assert_eq!(
                        bytemuck::bytes_of(&one.lane(l, ids)),
                        bytemuck::bytes_of(&two.lane(l, ids)),
                        "seed {seed}, pair {i} {j}"
                    );
                    assert_eq!(one.lane_bodies(l), two.lane_bodies(l));
                    for (x, y) in [
                        (one.inv_mass_a, two.inv_mass_a),
                        (one.inv_inertia_a, two.inv_inertia_a),
                        (one.inv_mass_b, two.inv_mass_b),
                        (one.inv_inertia_b, two.inv_inertia_b),
                    ] {
                        assert_eq!(x.0.map(f32::to_bits), y.0.map(f32::to_bits));
                    }
                    l = (l + 1) % BLOCK;
                }
            }
        }
        assert!(warm > 100, "warm starts exercised: {warm}");
    }

    #[test]
    fn padded_blocks_agree_with_one_at_a_time_bit_for_bit() {
        let mut padded = 0;
        for seed in 0..30u64 {
            let scale = [0.01f32, 1.0, 100.0][seed as usize % 3];
            let (bodies, mut contacts, n) = scene(seed, scale);
            for c in &mut contacts[..n] {
                for cp in &mut c.points {
                    cp.max_normal_impulse = 0.0;
                }
            }
            // Blocks in slice order: a block closes when full or when the next constraint
            // shares a moving body with it (so many blocks have empty lanes).
            let mut blocks: std::vec::Vec<ContactBlock> = std::vec::Vec::new();
            let mut place = std::vec::Vec::new();
            let mut lanes = BLOCK;
            let mut moving: std::vec::Vec<u32> = std::vec::Vec::new();
            for c in &contacts[..n] {
                let mine = [c.body_a, c.body_b]
                    .into_iter()
                    .filter(|&i| !is_fixed(&bodies[i as usize]));
                let clash = mine.clone().any(|i| moving.contains(&i));
                if lanes == BLOCK || clash {
                    padded += BLOCK - lanes.min(BLOCK);
                    blocks.push(ContactBlock::default());
                    lanes = 0;
                    moving.clear();
                }
                moving.extend(mine);
                let m = |i: u32| (bodies[i as usize].inv_mass, bodies[i as usize].inv_inertia);
                blocks
                    .last_mut()
                    .unwrap()
                    .set_lane(lanes, c, [m(c.body_a), m(c.body_b)]);
                place.push((blocks.len() - 1, lanes));
                lanes += 1;
            }
            let (mut b1, mut c1) = (bodies, contacts);
            step_by(&mut b1, &mut c1[..n], |b, c, p| {
                for con in c.iter_mut() {
                    if let Some(pair) = pair_indices(b.len(), con) {
                        run_gathered(b, core::array::from_mut(con), [pair], p);
                    }
                }
            });
            // The World's form: `step_blocks`, whose passes run on compact body states.
            let mut b3 = bodies;
            let mut blocks3 = blocks.clone();
            let mut states = [BodyState::default(); 40];
            let mut kicks = [super::super::VelocityKick::default(); 40];
            let settings = SolverSettings {
                restitution_threshold: 0.5,
                ..SolverSettings::default()
            };
            super::super::step_blocks(
                &mut b3,
                &mut states,
                &mut kicks,
                &mut blocks3,
                &settings,
                1.0 / 60.0,
            );
            let mut c3 = contacts;
            for (c, &(k, l)) in c3[..n].iter_mut().zip(&place) {
                *c = blocks3[k].lane(l, [c.points[0].id, c.points[1].id]);
            }
            let (mut b2, mut c2) = (bodies, contacts);
            step_by(&mut b2, &mut c2[..n], |b, _, p| run_blocks(b, &mut blocks, p));
            for (c, &(k, l)) in c2[..n].iter_mut().zip(&place) {
                *c = blocks[k].lane(l, [c.points[0].id, c.points[1].id]);
            }
            assert_eq!(
                bits(&b1, &c1),
                bits(&b2, &c2),
                "seed {seed}: padded blocks differ"
            );
            assert_eq!(
                bits(&b1, &c1),
                bits(&b3, &c3),
                "seed {seed}: step_blocks on body states differs"
            );
        }
        assert!(padded > 30, "empty lanes exercised: {padded}");
    }

    #[test]
    fn lanes_blocks_and_one_at_a_time_agree_bit_for_bit() {
        let mut saw_blocks = 0;
        let mut saw_singles = 0;
        for seed in 0..30u64 {
            let scale = [0.01f32, 1.0, 100.0][seed as usize % 3];
            let (bodies, contacts, n) = scene(seed, scale);
            // One constraint at a time, in order: plain sequential Gauss–Seidel.
            let (mut b1, mut c1) = (bodies, contacts);
            step_by(&mut b1, &mut c1[..n], |b, c, p| {
                for con in c.iter_mut() {
                    if let Some(pair) = pair_indices(b.len(), con) {
                        run_gathered(b, core::array::from_mut(con), [pair], p);
                    }
                }
            });
            // Runs of independent constraints gathered into lanes on every pass.
            let (mut b2, mut c2) = (bodies, contacts);
            step_by(&mut b2, &mut c2[..n], |b, c, p| run_pass(b, c, &mut [], p));
            // Runs packed once into blocks (some of them: the scratch is short).
            let (mut b3, mut c3) = (bodies, contacts);
            let mut scratch = [ContactBlock::default(); 6];
            let packed = pack(&b3, &c3[..n], &mut scratch);
            saw_blocks += packed;
            saw_singles += n - packed * BLOCK;
            step_by(&mut b3, &mut c3[..n], |b, c, p| {
                run_pass(b, c, &mut scratch[..packed], p)
            });
            unpack(&scratch[..packed], &mut c3[..n]);
            assert_eq!(
                bits(&b1, &c1),
                bits(&b2, &c2),
                "seed {seed}: lanes differ from one at a time"
            );
            assert_eq!(
                bits(&b1, &c1),
                bits(&b3, &c3),
                "seed {seed}: blocks differ from one at a time"
            );
            assert!(b1.iter().all(Body::is_valid));
        }
        assert!(
            saw_blocks > 30 && saw_singles > 30,
            "both paths exercised: {saw_blocks} {saw_singles}"
        );
        std::eprintln!(
            "packed blocks {saw_blocks}, constraints left to the gathered paths {saw_singles}: bit-identical"
        );
    }
}
