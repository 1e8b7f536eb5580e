//! Circle and capsule pairs (a capsule of radius 0 is a segment): for each, the decision shared
//! by the overlap test and the manifold, then the manifold, then the overlap test.

use super::{
    b_first, make_id, pair_frame, point_in_frame, radii_ok, sanitize_margin, segment_feature,
    surface_midpoint, within, LocalManifold, Manifold, ManifoldPoint, FEATURE_EDGE,
};
use crate::fmath;
use crate::geometry::{Capsule, Circle, DEGENERATE_SEGMENT};
use crate::math::{Transform, Vec2};
use crate::segment::segment_closest;

/// Relative tolerance used to decide that a capsule pair is in face contact (two points): the
/// nearer clipped point must be within `distance + CAPSULE_FACE_TOLERANCE × longer segment
/// length`. This bounds the depth error of a two-point capsule manifold to 0.1 % of the longer
/// segment (Box2D allows an absolute 0.005).
pub const CAPSULE_FACE_TOLERANCE: f32 = 0.001;

// ---------------------------------------------------------------------------------------------
// Circle and capsule pairs

/// The circle pair's shared decision (used by [`collide_circles`] and `overlaps_circles`, so the
/// two agree bit for bit): the centres' offsets from their origins (`ca`, `cb`, world axes), B's
/// centre relative to A's (`d = (pb − pa) + (cb − ca)`, from the origins' difference first, so
/// it is as accurate at 1e4 as at 0) and its squared length, when the transforms and radii are
/// valid and the centres are within `max_gap` of touching. Every step is antisymmetric in A and
/// B (`d` of the swapped pair is exactly `−d`), so both orders decide alike bit for bit.
#[inline(always)]
pub(crate) fn circle_pair(
    a: &Circle,
    xfa: Transform,
    b: &Circle,
    xfb: Transform,
    max_gap: f32,
) -> Option<CirclePair> {
    // The rotations must be unit length (as `Transform::is_valid`) and the radii valid.
    // Non-finite positions or rotations need no test of their own: they make `d` non-finite,
    // so the squared distance fails the comparison below (NaN or infinite, never `<=` a
    // finite bound), which is the same "no contact" the test would give.
    if !(xfa.q.is_unit() && xfb.q.is_unit() && radii_ok(a.radius, b.radius)) {
        return None;
    }
    let ca = xfa.q.rotate(a.center);
    let cb = xfb.q.rotate(b.center);
    let d = (xfb.p - xfa.p) + (cb - ca);
    let dist_sq = d.length_squared();
    let max_d = a.radius + b.radius + max_gap;
    within(dist_sq, max_d).then_some(CirclePair { ca, cb, d, dist_sq })
}

/// What [`circle_pair`] found.
#[derive(Clone, Copy)]
pub(crate) struct CirclePair {
    /// A's centre minus A's origin, world axes.
    ca: Vec2,
    /// B's centre minus B's origin, world axes.
    cb: Vec2,
    /// B's centre minus A's centre.
    d: Vec2,
    /// `|d|²`.
    dist_sq: f32,
}

/// Contact manifold between two circles.
#[inline]
#[must_use]
pub fn collide_circles(a: &Circle, xfa: Transform, b: &Circle, xfb: Transform, margin: f32) -> Manifold {
    let Some(CirclePair { ca, cb, d, dist_sq }) = circle_pair(a, xfa, b, xfb, sanitize_margin(margin)) else {
        return Manifold::default();
    };
    let dist = fmath::sqrt(dist_sq);
    // Coincident centres (or closer than ~1e-19, where the squared distance leaves f32's
    // normal range and the direction is noise): A's +x axis, a documented arbitrary but fixed
    // choice (the one case where swapping A and B is not symmetric).
    let n = if dist_sq >= f32::MIN_POSITIVE {
        d * (1.0 / dist)
    } else {
        xfa.q.x_axis()
    };
    // Midway between the surfaces: the centres' midpoint moved by half the radii's difference,
    // written so that the swapped pair computes the same bits (sums commute, the negations are
    // exact).
    let point = ((xfa.p + ca) + (xfb.p + cb)) * 0.5 + n * (0.5 * (a.radius - b.radius));
    if !point.is_finite() {
        return Manifold::default();
    }
    let mut m = Manifold {
        normal: n,
        ..Manifold::default()
    };
    m.points[0] = ManifoldPoint {
        point,
        depth: a.radius + b.radius - dist,
        id: 0,
    };
    m.count = 1;
    m
}

/// The capsule–circle decision shared by the manifold and the overlap test (so they agree
/// bit for bit). In A's frame shifted to `center1`: the circle centre `c`, the closest core
/// point `c1` at fraction `t`, and the squared distance, when within `margin` of touching.
#[inline(always)]
pub(crate) fn capsule_circle_decide(
    a: &Capsule,
    b: &Circle,
    cb: Vec2,
    margin: f32,
) -> Option<(Vec2, Vec2, f32, f32)> {
    if !radii_ok(a.radius, b.radius) {
        return None;
    }
    let q1 = a.center2 - a.center1;
    let c = cb - a.center1;
    // Closest point of the core segment to the centre (a point core projects to its start).
    let dd = q1.length_squared();
    let t = if dd > 0.0 { c.dot(q1) / dd } else { 0.0 };
    let t = if t > 0.0 { t.min(1.0) } else { 0.0 }; // NaN -> 0
    let c1 = q1 * t;
    let dist_sq = (c - c1).length_squared();
    let max_d = a.radius + b.radius + margin;
    within(dist_sq, max_d).then_some((c, c1, t, dist_sq))
}

#[inline]
pub(crate) fn capsule_circle_local(a: &Capsule, b: &Circle, cb: Vec2, margin: f32) -> (LocalManifold, Vec2) {
    let mut m = LocalManifold::default();
    let origin = a.center1;
    let Some((c, c1, t, dist_sq)) = capsule_circle_decide(a, b, cb, margin) else {
        return (m, origin);
    };
    let dist = fmath::sqrt(dist_sq);
    // (A squared distance below f32's normal range gives a direction of noise.)
    let n = if dist_sq >= f32::MIN_POSITIVE {
        (c - c1) * (1.0 / dist)
    } else {
        // Circle centre on the core segment: the segment's left normal (or +x for a point).
        (a.center2 - a.center1)
            .try_normalize()
            .map_or(Vec2::X, Vec2::left_perp)
    };
    m.normal = n;
    m.push(
        surface_midpoint(c1, c, n, a.radius, b.radius),
        a.radius + b.radius - dist,
        make_id(segment_feature(t), 0),
    );
    (m, origin)
}

/// Contact manifold between a capsule (A) and a circle (B).
#[inline]
#[must_use]
pub fn collide_capsule_circle(
    a: &Capsule,
    xfa: Transform,
    b: &Circle,
    xfb: Transform,
    margin: f32,
) -> Manifold {
    let Some(cb) = point_in_frame(xfa, xfb, b.center) else {
        return Manifold::default();
    };
    let (m, o) = capsule_circle_local(a, b, cb, sanitize_margin(margin));
    m.to_world(xfa, o)
}

/// True when segments `p1`–`q1` and `p2`–`q2` properly cross (each one's ends strictly on both
/// sides of the other's line). NaN gives false.
#[inline]
fn segments_cross(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> bool {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let a1 = d1.cross(p2 - p1);
    let a2 = d1.cross(q2 - p1);
    let b1 = d2.cross(p1 - p2);
    let b2 = d2.cross(q1 - p2);
    ((a1 > 0.0 && a2 < 0.0) || (a1 < 0.0 && a2 > 0.0)) && ((b1 > 0.0 && b2 < 0.0) || (b1 < 0.0 && b2 > 0.0))
}

/// Separation of segment `p`–`q` from the line through the origin with unit normal `n`, taking
/// the better of `n` and `-n`: returns (separation, oriented normal).
#[inline]
fn segment_axis_separation(n: Vec2, p: Vec2, q: Vec2) -> (f32, Vec2) {
    let s1 = n.dot(p);
    let s2 = n.dot(q);
    let pos = s1.min(s2);
    let neg = (-s1).min(-s2);
    if pos >= neg {
        (pos, n)
    } else {
        (neg, -n)
    }
}

#[inline]
pub(crate) fn capsules_local(a: &Capsule, b: &Capsule, xf: Transform, margin: f32) -> (LocalManifold, Vec2) {
    let mut m = LocalManifold::default();
    let origin = a.center1;
    if !radii_ok(a.radius, b.radius) {
        return (m, origin);
    }
    let xfs = Transform {
        p: xf.p - origin,
        q: xf.q,
    };
    let p1 = Vec2::ZERO;
    let q1 = a.center2 - origin;
    let p2 = xfs.apply(b.center1);
    let q2 = xfs.apply(b.center2);
    let sc = segment_closest(p1, q1, p2, q2);
    let (ra, rb) = (a.radius, b.radius);
    let rsum = ra + rb;
    let max_d = rsum + margin;
    // Crossing cores have distance 0, but the closest-point arithmetic returns ~1e-8 of the
    // scale; decide crossing by orientation signs so zero-radius segments that cross always
    // touch.
    let crossing = segments_cross(p1, q1, p2, q2);
    if !within(sc.dist_sq, max_d) && !crossing {
        return (m, origin);
    }
    let dist = if crossing { 0.0 } else { fmath::sqrt(sc.dist_sq) };
    let (u1, len1) = q1.normalize_and_length();
    let (u2, len2) = (q2 - p2).normalize_and_length();
    // Largest absolute coordinate rather than length: no square roots for a tolerance.
    let (ap, aq) = (p2.abs(), q2.abs());
    let scale = len1.max(len2).max(ap.x.max(ap.y)).max(aq.x.max(aq.y)).max(rsum);
    let degenerate = DEGENERATE_SEGMENT * scale;
    let seg_a = len1 > degenerate && u1 != Vec2::ZERO;
    let seg_b = len2 > degenerate && u2 != Vec2::ZERO;
    // Cores touching or crossing: the closest-point direction is noise.
    let cores_touch = dist <= degenerate;

    if seg_a && seg_b {
        // SAT over the two segment normals. For crossing segments it is exact: the cores'
        // Minkowski difference is a parallelogram with edges along the two segments.
        let (sep_a, na) = segment_axis_separation(u1.left_perp(), p2, q2);
        let (sep_b, nb) = segment_axis_separation(u2.left_perp(), p1 - p2, q1 - p2);
        let ref_a = sep_a >= sep_b;
        // (reference base, incident ends, incident projections, reference length, reference
        // normal pointing to the incident segment, radii)
        let fp2 = p2.dot(u1);
        let fq2 = q2.dot(u1);
        let fp1 = (p1 - p2).dot(u2);
        let fq1 = (q1 - p2).dot(u2);
        let (base, inc_p, inc_q, fp, fq, len, n, r_ref, r_inc) = if ref_a {
            (p1, p2, q2, fp2, fq2, len1, na, ra, rb)
        } else {
            (p2, p1, q1, fp1, fq1, len2, nb, rb, ra)
        };
        // The manifold normal points from A to B.
        let normal = if ref_a { na } else { -nb };
        let make_ref_id = |k: u8| {
            if ref_a {
                make_id(FEATURE_EDGE, k)
            } else {
                make_id(k, FEATURE_EDGE)
            }
        };

        let outside_a = (fp2 <= 0.0 && fq2 <= 0.0) || (fp2 >= len1 && fq2 >= len1);
        let outside_b = (fp1 <= 0.0 && fq1 <= 0.0) || (fp1 >= len2 && fq1 >= len2);
        if !outside_a && !outside_b {
            // Clip the incident segment to the reference segment's extent.
            let mut cp = inc_p;
            let mut cq = inc_q;
            if fp < 0.0 && fq > 0.0 {
                cp = inc_p.lerp(inc_q, (0.0 - fp) / (fq - fp));
            } else if fq < 0.0 && fp > 0.0 {
                cq = inc_q.lerp(inc_p, (0.0 - fq) / (fp - fq));
            }
            if fp > len && fq < len {
                cp = inc_p.lerp(inc_q, (fp - len) / (fp - fq));
            } else if fq > len && fp < len {
                cq = inc_q.lerp(inc_p, (fq - len) / (fq - fp));
            }
            let sp = (cp - base).dot(n);
            let sq = (cq - base).dot(n);
            // A genuine face contact: the nearer clipped point is as close as the true closest
            // points and both clipped points are within the margin.
            let tol = dist + CAPSULE_FACE_TOLERANCE * len1.max(len2);
            if sp.min(sq) <= tol && sp.max(sq) - rsum <= margin {
                m.normal = normal;
                for (k, (c, s)) in [(cp, sp), (cq, sq)].into_iter().enumerate() {
                    m.push(
                        c.mul_add(0.5 * (r_ref - r_inc - s), n),
                        rsum - s,
                        make_ref_id(k as u8),
                    );
                }
                return (m, origin);
            }
        }
        if cores_touch {
            // Crossing cores: push out along the SAT axis; the contact sits at the incident
            // end that has to travel that far.
            let (e, k, s) = {
                let s1 = (inc_p - base).dot(n);
                let s2 = (inc_q - base).dot(n);
                if s1 <= s2 {
                    (inc_p, 0u8, s1)
                } else {
                    (inc_q, 1u8, s2)
                }
            };
            m.normal = normal;
            m.push(e.mul_add(0.5 * (r_ref - r_inc - s), n), rsum - s, make_ref_id(k));
            return (m, origin);
        }
    }

    // Single point from the exact closest points.
    let n = if cores_touch {
        if seg_b {
            // A is a point on segment B: B's normal facing A, negated to point A -> B.
            -segment_axis_separation(u2.left_perp(), p1 - p2, p1 - p2).1
        } else if seg_a {
            segment_axis_separation(u1.left_perp(), p2, p2).1
        } else {
            Vec2::X
        }
    } else {
        // An end against the inside of the other segment: that segment's perpendicular, exact
        // however small the gap (the direction between the closest points is only as good as
        // the gap is large against the coordinates' round-off, and would differ between the
        // two orders of the pair). Otherwise the direction between the points.
        let d = sc.c2 - sc.c1;
        let inside = |f: f32| f > 0.0 && f < 1.0;
        let face = if seg_b && inside(sc.f2) && !inside(sc.f1) {
            Some(u2.left_perp())
        } else if seg_a && inside(sc.f1) && !inside(sc.f2) {
            Some(u1.left_perp())
        } else {
            None
        };
        match face {
            Some(f) if f.dot(d) < 0.0 => -f,
            Some(f) => f,
            // (Exact in direction also where the gap's square leaves f32's normal range.)
            None => d.direction().unwrap_or(Vec2::X),
        }
    };
    m.normal = n;
    m.push(
        surface_midpoint(sc.c1, sc.c2, n, ra, rb),
        rsum - dist,
        make_id(segment_feature(sc.f1), segment_feature(sc.f2)),
    );
    (m, origin)
}

/// Contact manifold between two capsules (segments when the radius is 0). Near-parallel
/// overlapping capsules give two points.
#[inline]
#[must_use]
pub fn collide_capsules(a: &Capsule, xfa: Transform, b: &Capsule, xfb: Transform, margin: f32) -> Manifold {
    // Computed in the canonical order of the pair (see `b_first`), so both orders agree bit
    // for bit.
    let flip = b_first(a, &xfa, b, &xfb);
    let (a, xfa, b, xfb) = if flip { (b, xfb, a, xfa) } else { (a, xfa, b, xfb) };
    capsules_ordered(a, xfa, b, xfb, margin).flipped_if(flip)
}

#[inline]
fn capsules_ordered(a: &Capsule, xfa: Transform, b: &Capsule, xfb: Transform, margin: f32) -> Manifold {
    let Some(xf) = pair_frame(xfa, xfb) else {
        return Manifold::default();
    };
    let (m, o) = capsules_local(a, b, xf, sanitize_margin(margin));
    m.to_world(xfa, o)
}

/// True when two circles overlap or touch.
#[must_use]
pub fn overlaps_circles(a: &Circle, xfa: Transform, b: &Circle, xfb: Transform) -> bool {
    circle_pair(a, xfa, b, xfb, 0.0).is_some()
}

/// True when a capsule and a circle overlap or touch.
#[must_use]
pub fn overlaps_capsule_circle(a: &Capsule, xfa: Transform, b: &Circle, xfb: Transform) -> bool {
    point_in_frame(xfa, xfb, b.center).is_some_and(|c| capsule_circle_decide(a, b, c, 0.0).is_some())
}

/// True when two capsules overlap or touch.
#[must_use]
pub fn overlaps_capsules(a: &Capsule, xfa: Transform, b: &Capsule, xfb: Transform) -> bool {
    // The same canonical order as `collide_capsules`, so the two make one decision.
    let (a, xfa, b, xfb) = if b_first(a, &xfa, b, &xfb) {
        (b, xfb, a, xfa)
    } else {
        (a, xfa, b, xfb)
    };
    pair_frame(xfa, xfb).is_some_and(|xf| capsules_local(a, b, xf, 0.0).0.count > 0)
}
