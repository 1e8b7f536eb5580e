//! The lanes the contact passes work on: which constraints may share them ([`independent`]:
//! no moving body twice), a body's velocity, motion and masses per lane ([`BodyLanes`], loaded
//! from [`Body`]s or, through [`Motion`], from the World's compact body states) and one
//! constraint per lane ([`ContactLanes`], two [`PointLanes`]), with the moves between lanes
//! and [`ContactConstraint`]s (gather, fill or read one lane, scatter) and the two-point
//! coupling worked out before a step's passes.

use super::lanes::{Lane, Wide, V2};
use super::{Body, ConstraintPoint, ContactConstraint};
use crate::math::Vec2;

/// Constraints processed together in SIMD lanes.
pub(crate) const BLOCK: usize = 4;

/// The two bodies of a constraint, or `None` when the indices are out of range or equal.
pub(crate) fn pair_indices(n: usize, c: &ContactConstraint) -> Option<(usize, usize)> {
    let (a, b) = (c.body_a as usize, c.body_b as usize);
    (a < n && b < n && a != b).then_some((a, b))
}

/// A body with zero inverse mass and inertia: contacts never change its velocity, so it is
/// never written and may be shared by constraints processed together.
#[inline(always)]
pub(crate) fn is_fixed(b: &Body) -> bool {
    b.inv_mass == 0.0 && b.inv_inertia == 0.0
}

/// The body pairs of [`BLOCK`] constraints when all are valid and no moving body appears
/// twice.
pub(super) fn independent(
    bodies: &[Body],
    run: &[ContactConstraint; BLOCK],
) -> Option<[(usize, usize); BLOCK]> {
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
pub(super) fn masses<const N: usize>(bodies: &[Body], index: [usize; N]) -> (Wide<N>, Wide<N>) {
    (
        Wide::from_fn(|l| bodies[index[l]].inv_mass),
        Wide::from_fn(|l| bodies[index[l]].inv_inertia),
    )
}

/// A body's velocity and its motion since the step began, as lanes.
#[derive(Clone, Copy)]
pub(super) struct BodyLanes<const N: usize> {
    pub(super) v: V2<Wide<N>>,
    pub(super) w: Wide<N>,
    pub(super) inv_mass: Wide<N>,
    pub(super) inv_inertia: Wide<N>,
    pub(super) dp: V2<Wide<N>>,
    pub(super) dq: V2<Wide<N>>,
}

impl<const N: usize> BodyLanes<N> {
    #[inline(always)]
    pub(super) fn load(bodies: &[Body], index: [usize; N]) -> BodyLanes<N> {
        let (inv_mass, inv_inertia) = masses(bodies, index);
        BodyLanes::load_with(bodies, index, inv_mass, inv_inertia)
    }

    /// As [`BodyLanes::load`], with the masses given (a block packs them once per step: they
    /// do not change during a step), so each pass loads only what the passes change.
    #[inline(always)]
    pub(super) fn load_with<B: Motion>(
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
    pub(super) fn store<B: Motion>(&self, bodies: &mut [B], index: [usize; N]) {
        for (l, i) in index.into_iter().enumerate() {
            // `is_fixed` from the loaded lanes (the same values the body holds).
            if !(self.inv_mass.0[l] == 0.0 && self.inv_inertia.0[l] == 0.0) {
                bodies[i].set_velocity(Vec2::new(self.v.x.0[l], self.v.y.0[l]), self.w.0[l]);
            }
        }
    }

    /// Velocity after the impulse `p` at anchor `r`, added (`sign_b`, body B) or subtracted.
    #[inline(always)]
    pub(super) fn push(&self, r: V2<Wide<N>>, p: V2<Wide<N>>, sign_b: bool) -> (V2<Wide<N>>, Wide<N>) {
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
/// operations as [`constraint_at`](super::prepare::constraint_at). Generic so that a lane of a
/// block and a single constraint get it from the same operations, bit for bit.
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
pub(super) struct PointLanes<const N: usize> {
    pub(super) ra: V2<Wide<N>>,
    pub(super) rb: V2<Wide<N>>,
    pub(super) base_separation: Wide<N>,
    pub(super) normal_impulse: Wide<N>,
    pub(super) tangent_impulse: Wide<N>,
    pub(super) max_normal_impulse: Wide<N>,
    pub(super) normal_mass: Wide<N>,
    pub(super) tangent_mass: Wide<N>,
    pub(super) relative_velocity: Wide<N>,
    /// The lanes whose constraint has this point.
    pub(super) active: [u32; N],
}

/// One constraint per lane.
#[derive(Clone, Copy)]
#[repr(C)]
pub(super) struct ContactLanes<const N: usize> {
    pub(super) n: V2<Wide<N>>,
    pub(super) friction: Wide<N>,
    pub(super) restitution: Wide<N>,
    pub(super) points: [PointLanes<N>; 2],
    /// The normal rows' effective mass matrix `K` of the two points, `[K₁₁, K₂₂, K₁₂]`
    /// (see [`coupling`]), set by [`ContactLanes::couple`]; unused in lanes with one point.
    pub(super) k: [Wide<N>; 3],
    /// The lanes whose two points are solved together: two points, and `K` well conditioned
    /// (its condition estimate `Kᵢᵢ² / det K` below [`MAX_CONDITION`]); set with `k`.
    pub(super) paired: [u32; N],
}

impl<const N: usize> ContactLanes<N> {
    #[inline(always)]
    pub(super) fn gather(run: &[ContactConstraint; N]) -> ContactLanes<N> {
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
    pub(super) fn couple(&mut self, a: (Wide<N>, Wide<N>), b: (Wide<N>, Wide<N>)) {
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
    pub(super) fn bounces(&self, threshold: f32) -> bool {
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
    pub(super) fn set(&mut self, l: usize, c: &ContactConstraint) {
        self.set_parts(l, c.normal, c.friction, c.restitution, &c.points, c.count);
    }

    /// Puts the constraint made of these parts into lane `l` (as [`ContactLanes::set`]).
    #[cfg(feature = "alloc")]
    #[inline(always)]
    pub(super) fn set_parts(
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
    pub(super) fn get(&self, l: usize, (a, b): (u32, u32), ids: [u32; 2]) -> ContactConstraint {
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
    pub(super) fn scatter(&self, run: &mut [ContactConstraint; N]) {
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

/// The condition number above which the two points of a constraint are solved one after the
/// other instead of together (Box2D v2.4's `k_maxConditionNumber`): two points so close that
/// their rows are nearly parallel give a nearly singular 2 × 2 system.
const MAX_CONDITION: f32 = 1000.0;
