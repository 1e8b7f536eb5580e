//! The contact passes on lanes of constraints, one constraint per lane ([`run_lanes`]): warm
//! start, solve (soft position bias, friction skipped), relax (no bias, with friction) and
//! restitution, as [`Pass`] says, with the soft contact's coefficients in [`Softness`]. Every
//! lane does exactly the scalar arithmetic, so a constraint processed in a lane gets bit for
//! bit the result it gets alone.

use super::lanes::{max, min, Lane, Wide, V2};
use super::layout::{BodyLanes, ContactLanes, PointLanes};

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

/// Soft-constraint coefficients (Box2D v3's `b2Softness`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Softness {
    bias_rate: f32,
    mass_scale: f32,
    /// `1 / mass_scale`, for the two-point block solve.
    inv_mass_scale: f32,
    impulse_scale: f32,
}

#[cfg(feature = "alloc")]
impl Softness {
    /// No softness: a rigid row (bias 0, full mass, no impulse relaxation).
    pub(super) fn rigid() -> Softness {
        Softness {
            bias_rate: 0.0,
            mass_scale: 1.0,
            inv_mass_scale: 1.0,
            impulse_scale: 0.0,
        }
    }

    pub(super) fn bias_rate(&self) -> f32 {
        self.bias_rate
    }

    pub(super) fn mass_scale(&self) -> f32 {
        self.mass_scale
    }

    pub(super) fn impulse_scale(&self) -> f32 {
        self.impulse_scale
    }
}

pub(super) fn softness(hertz: f32, zeta: f32, h: f32) -> Softness {
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
pub(super) fn run_lanes<const N: usize, const FULL: bool, const ONE: bool>(
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
            // Friction only in the relax pass, as Box2D v3 does: the biased pass adds
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
