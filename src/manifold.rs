//! Contact manifolds for every pair of shape kinds.
//!
//! Conventions (shared with the C header):
//! - `normal` is a world-space unit vector pointing from shape A to shape B.
//! - each point's `point` is in world space, midway between the two surfaces;
//! - `depth > 0` means penetration along `normal`; `depth < 0` only appears for speculative
//!   points within the requested margin (`collide_with_margin`);
//! - `id` identifies the pair of features in contact: the high byte is shape A's feature,
//!   the low byte shape B's (`0..8` = vertex index, `0x80 | i` = edge `i`, 0 for a circle).
//!   Swapping A and B swaps the two bytes.
//! - `count == 0` exactly when the shapes do not touch (touching counts as contact), so
//!   `overlaps(a, b) == (collide(a, b).count > 0)`.
//!
//! Every query runs in shape A's local frame (shifted to a point of A) and converts only the
//! result to world space, so its precision does not depend on where the pair sits in the world.
//! Non-finite input, negative radii and polygons with a `count` outside 3..=8 give an empty
//! manifold.
//!
//! The typed per-pair functions (`collide_circles` … `collide_polygons`) are `#[inline]`, so a
//! Rust narrow-phase loop that calls one of them for a batch of pairs gets it inlined, as
//! parry's generic per-pair functions are. [`collide`] dispatches on the shape kinds and is not.

use crate::distance::{gjk, ShapeProxy, SimplexCache};
use crate::fmath;
use crate::geometry::{Capsule, Circle, Polygon, Shape, MAX_POLYGON_VERTICES};
use crate::math::{Rot, Transform, Vec2};
use bytemuck::{Pod, Zeroable};

/// Feature code for edge `i` in a manifold point id.
pub const FEATURE_EDGE: u8 = 0x80;

/// Relative tolerance used to decide that a capsule pair is in face contact (two points): the
/// nearer clipped point must be within `distance + CAPSULE_FACE_TOLERANCE × longer segment
/// length`. This bounds the depth error of a two-point capsule manifold to 0.1 % of the longer
/// segment (Box2D allows an absolute 0.005).
pub const CAPSULE_FACE_TOLERANCE: f32 = 0.001;

/// One contact point.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct ManifoldPoint {
    /// World-space point midway between the two surfaces.
    pub point: Vec2,
    /// Penetration depth along the manifold normal: positive when penetrating, negative only
    /// for speculative points within the margin.
    pub depth: f32,
    /// Feature key (high byte: feature of A, low byte: feature of B), stable while the same
    /// features touch; use it to match points between frames for warm starting.
    pub id: u32,
}

/// A contact manifold: up to two points sharing one normal.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Manifold {
    /// World-space unit normal from shape A to shape B. Zero when `count == 0`.
    pub normal: Vec2,
    /// The contact points; only the first `count` are meaningful.
    pub points: [ManifoldPoint; 2],
    /// Number of points, 0, 1 or 2.
    pub count: u32,
}

impl Manifold {
    /// The points in use.
    #[inline]
    #[must_use]
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points[..(self.count as usize).min(2)]
    }

    /// Largest depth among the points, or `f32::NEG_INFINITY` when empty.
    #[must_use]
    pub fn max_depth(&self) -> f32 {
        self.points()
            .iter()
            .fold(f32::NEG_INFINITY, |m, p| m.max(p.depth))
    }

    /// The same contact seen from B: normal negated, feature bytes swapped, points unchanged.
    #[must_use]
    pub fn flipped(&self) -> Manifold {
        let mut m = *self;
        m.normal = -m.normal;
        for p in &mut m.points[..(self.count as usize).min(2)] {
            p.id = swap_id(p.id);
        }
        m
    }
}

#[inline]
pub(crate) fn make_id(a: u8, b: u8) -> u32 {
    (u32::from(a) << 8) | u32::from(b)
}

#[inline]
fn swap_id(id: u32) -> u32 {
    ((id & 0xFF) << 8) | ((id >> 8) & 0xFF)
}

/// A manifold being built in A's shifted local frame.
#[derive(Clone, Copy, Default)]
pub(crate) struct LocalManifold {
    pub normal: Vec2,
    pub points: [(Vec2, f32, u32); 2],
    pub count: usize,
}

impl LocalManifold {
    #[inline]
    fn push(&mut self, point: Vec2, depth: f32, id: u32) {
        if self.count < 2 {
            self.points[self.count] = (point, depth, id);
            self.count += 1;
        }
    }

    /// Converts to world space: `origin` is the shift applied inside A's frame.
    #[inline]
    fn to_world(self, xfa: Transform, origin: Vec2) -> Manifold {
        let mut m = Manifold::default();
        if self.count == 0 {
            return m;
        }
        m.normal = xfa.q.rotate(self.normal);
        let mut finite = fmath::nan_if_not_finite(m.normal.x) + fmath::nan_if_not_finite(m.normal.y);
        for i in 0..self.count {
            let (p, d, id) = self.points[i];
            let w = xfa.apply(p + origin);
            finite +=
                fmath::nan_if_not_finite(w.x) + fmath::nan_if_not_finite(w.y) + fmath::nan_if_not_finite(d);
            m.points[i] = ManifoldPoint {
                point: w,
                depth: d,
                id,
            };
        }
        m.count = self.count as u32;
        if finite != 0.0 {
            return Manifold::default();
        }
        m
    }
}

/// Point `p` of B's frame in A's frame (the origins are subtracted first, as in
/// [`pair_frame`]), or `None` when either rotation is not unit length: the cheaper entry check
/// of the circle pairs, which need no relative rotation. Only the rotations are tested: a
/// non-finite position (or rotation) makes the point non-finite, and both callers' decisions
/// (`capsule_circle_decide`'s squared distance, `polygon_circle_decide`'s check sum) reject a
/// non-finite point as "no contact", as the full transform test would.
#[inline(always)]
pub(crate) fn point_in_frame(xfa: Transform, xfb: Transform, p: Vec2) -> Option<Vec2> {
    (xfa.q.is_unit() && xfb.q.is_unit()).then(|| xfa.q.inv_rotate((xfb.p - xfa.p) + xfb.q.rotate(p)))
}

/// B's transform in A's frame, or `None` when either transform is invalid (non-finite, or a
/// rotation that is not unit length): the one entry check shared by every overlap test and
/// manifold, so both give "no contact" for the same inputs.
#[inline]
pub(crate) fn pair_frame(xfa: Transform, xfb: Transform) -> Option<Transform> {
    (xfa.is_valid() && xfb.is_valid()).then(|| xfa.inv_mul(xfb))
}

#[inline]
fn sanitize_margin(margin: f32) -> f32 {
    // NaN.max(0) is 0 (`clamp` would keep the NaN); infinite margins are clamped to keep
    // arithmetic finite.
    #[allow(clippy::manual_clamp)]
    let m = margin.max(0.0).min(f32::MAX);
    m
}

#[inline]
fn radii_ok(ra: f32, rb: f32) -> bool {
    // Both finite and >= 0 (false for NaN): each is >= 0 and the sum is below infinity.
    // Plain compares (a range's `contains` compiles to float classification here).
    ra >= 0.0 && rb >= 0.0 && ra + rb < f32::INFINITY
}

/// Midpoint between the surface of A (`ca + n·ra`) and of B (`cb - n·rb`).
#[inline]
fn surface_midpoint(ca: Vec2, cb: Vec2, n: Vec2, ra: f32, rb: f32) -> Vec2 {
    (ca.mul_add(ra, n) + cb.mul_add(-rb, n)) * 0.5
}

// ---------------------------------------------------------------------------------------------
// Circle and capsule pairs

/// The circle pair's shared decision (used by [`collide_circles`] and
/// `overlaps_circles`, so the two agree bit for bit): A's centre relative to A's origin
/// (`ca`, world axes), B's centre relative to A's centre (`d`, world axes, computed from the
/// origins' difference first, so it is as accurate at 1e4 as at 0) and its squared length,
/// when the transforms and radii are valid and the centres are within `max_gap` of touching.
#[inline(always)]
pub(crate) fn circle_pair(
    a: &Circle,
    xfa: Transform,
    b: &Circle,
    xfb: Transform,
    max_gap: f32,
) -> Option<(Vec2, Vec2, f32)> {
    // The rotations must be unit length (as `Transform::is_valid`) and the radii valid.
    // Non-finite positions or rotations need no test of their own: they make `d` non-finite,
    // so the squared distance fails the comparison below (NaN or infinite, never `<=` a
    // finite bound), which is the same "no contact" the test would give.
    if !(xfa.q.is_unit() && xfb.q.is_unit() && radii_ok(a.radius, b.radius)) {
        return None;
    }
    let ca = xfa.q.rotate(a.center);
    let d = (xfb.p - xfa.p) + xfb.q.rotate(b.center) - ca;
    let dist_sq = d.length_squared();
    let max_d = a.radius + b.radius + max_gap;
    (dist_sq <= max_d * max_d).then_some((ca, d, dist_sq))
}

/// Contact manifold between two circles.
#[inline]
#[must_use]
pub fn collide_circles(a: &Circle, xfa: Transform, b: &Circle, xfb: Transform, margin: f32) -> Manifold {
    let Some((ca, d, dist_sq)) = circle_pair(a, xfa, b, xfb, sanitize_margin(margin)) else {
        return Manifold::default();
    };
    let dist = fmath::sqrt(dist_sq);
    // Coincident centres (or a gap below f32's normal range): A's +x axis, a documented
    // arbitrary but fixed choice.
    let n = if dist > f32::MIN_POSITIVE {
        d * (1.0 / dist)
    } else {
        xfa.q.x_axis()
    };
    let rel = surface_midpoint(ca, ca + d, n, a.radius, b.radius);
    let point = xfa.p + rel;
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

/// Result of the closest-point search between two segments `p1 + f1·d1` and `p2 + f2·d2`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SegmentClosest {
    pub f1: f32,
    pub f2: f32,
    pub c1: Vec2,
    pub c2: Vec2,
    pub dist_sq: f32,
}

/// Closest points between segments `p1`–`q1` and `p2`–`q2`; handles zero-length segments.
#[inline]
pub(crate) fn segment_closest(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> SegmentClosest {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let dd1 = d1.dot(d1);
    let dd2 = d2.dot(d2);
    let rd1 = r.dot(d1);
    let rd2 = r.dot(d2);
    // `num / den` clamped to [0, 1] (den > 0), deciding the clamped cases on the numerator
    // so the division is only waited for when its value is used (the same fraction).
    #[inline(always)]
    fn fraction(num: f32, den: f32) -> f32 {
        if num <= 0.0 {
            0.0
        } else if num >= den {
            1.0
        } else {
            num / den
        }
    }
    let (f1, f2);
    if dd1 <= 0.0 && dd2 <= 0.0 {
        f1 = 0.0;
        f2 = 0.0;
    } else if dd1 <= 0.0 {
        f1 = 0.0;
        f2 = fraction(rd2, dd2);
    } else if dd2 <= 0.0 {
        f2 = 0.0;
        f1 = fraction(-rd1, dd1);
    } else {
        let d12 = d1.dot(d2);
        let denom = dd1 * dd2 - d12 * d12;
        let t1 = if denom > 0.0 {
            fraction(d12 * rd2 - rd1 * dd2, denom)
        } else {
            0.0
        };
        // B's fraction for A's point, clamped; where it clamps, A's is redone for B's end.
        let n2 = d12 * t1 + rd2;
        if n2 < 0.0 {
            f2 = 0.0;
            f1 = fraction(-rd1, dd1);
        } else if n2 > dd2 {
            f2 = 1.0;
            f1 = fraction(d12 - rd1, dd1);
        } else {
            f2 = n2 / dd2;
            f1 = t1;
        }
    }
    let c1 = p1.mul_add(f1, d1);
    let c2 = p2.mul_add(f2, d2);
    SegmentClosest {
        f1,
        f2,
        c1,
        c2,
        dist_sq: c1.distance_squared(c2),
    }
}

#[inline]
fn segment_feature(f: f32) -> u8 {
    if f <= 0.0 {
        0
    } else if f >= 1.0 {
        1
    } else {
        FEATURE_EDGE
    }
}

/// A segment is treated as a point when shorter than this fraction of the pair's scale.
const DEGENERATE_SEGMENT: f32 = 1.0e-6;

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
    (dist_sq <= max_d * max_d).then_some((c, c1, t, dist_sq))
}

#[inline]
pub(crate) fn capsule_circle_local(a: &Capsule, b: &Circle, cb: Vec2, margin: f32) -> (LocalManifold, Vec2) {
    let mut m = LocalManifold::default();
    let origin = a.center1;
    let Some((c, c1, t, dist_sq)) = capsule_circle_decide(a, b, cb, margin) else {
        return (m, origin);
    };
    let dist = fmath::sqrt(dist_sq);
    let n = if dist > f32::MIN_POSITIVE {
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
    if !(sc.dist_sq <= max_d * max_d) && !crossing {
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
            None => d * (1.0 / dist),
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
    let Some(xf) = pair_frame(xfa, xfb) else {
        return Manifold::default();
    };
    let (m, o) = capsules_local(a, b, xf, sanitize_margin(margin));
    m.to_world(xfa, o)
}

// ---------------------------------------------------------------------------------------------
// Polygon pairs

/// A polygon (or a capsule as a 2-gon) in a query's local frame.
#[derive(Clone, Copy)]
pub(crate) struct LocalPoly {
    pub v: [Vec2; MAX_POLYGON_VERTICES],
    pub n: [Vec2; MAX_POLYGON_VERTICES],
    /// The vertex count, 2..=8 ([`LocalPoly::count`]). A `u32`, written and read with one
    /// 4-byte access: as a `usize` it was stored as two 4-byte halves and read back whole,
    /// which defeats store forwarding (a stall on every polygon pair).
    len: u32,
    pub radius: f32,
    /// An axis-aligned rectangle in this frame with the canonical box layout (see
    /// [`LocalPoly::is_aligned_box`]): SAT against it needs no dot products per vertex.
    pub aligned: bool,
}

impl LocalPoly {
    /// The number of vertices.
    #[inline(always)]
    pub(crate) fn count(&self) -> usize {
        self.len as usize
    }

    /// Whether this is an axis-aligned box laid out as `Polygon::make_box` lays it out:
    /// four vertices from the lower-left corner counter-clockwise, normals exactly
    /// `(0,-1), (1,0), (0,1), (-1,0)`. Then `n · w` for each normal is exactly `-w.y`, `w.x`,
    /// `w.y`, `-w.x`, and the corner minimising `n · w` is picked by the signs of `n` (rounding
    /// is monotone), so the SAT shortcuts in [`find_max_separation`] give bit-for-bit the
    /// values of the full loops.
    #[inline(always)]
    fn is_aligned_box(&self) -> bool {
        let (v, n) = (&self.v, &self.n);
        self.count() == 4
            && n[0] == Vec2::new(0.0, -1.0)
            && n[1] == Vec2::X
            && n[2] == Vec2::Y
            && n[3] == Vec2::new(-1.0, 0.0)
            && v[1].y == v[0].y
            && v[2].x == v[1].x
            && v[3].y == v[2].y
            && v[3].x == v[0].x
            && v[1].x >= v[0].x
            && v[2].y >= v[1].y
    }

    /// The polygon transformed by `xf`; `None` for invalid count, radius or non-finite data.
    #[inline(always)]
    pub(crate) fn from_polygon(p: &Polygon, xf: Transform) -> Option<LocalPoly> {
        let count = p.count as usize;
        if !(3..=MAX_POLYGON_VERTICES).contains(&count) || !(p.radius >= 0.0) {
            return None;
        }
        let mut lp = LocalPoly {
            v: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            n: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            len: count as u32,
            radius: p.radius,
            aligned: false,
        };
        // One finiteness test over the sum of everything (a non-finite term, or an overflow
        // of coordinates beyond f32 range, makes the sum non-finite).
        let mut sum = p.radius;
        if xf.q == Rot::IDENTITY {
            // A's frame only shifts it: no rotation work.
            for (i, (v, n)) in p.vertices[..count].iter().zip(&p.normals[..count]).enumerate() {
                let v = *v + xf.p;
                sum += v.x + v.y + n.x + n.y;
                lp.v[i] = v;
                lp.n[i] = *n;
            }
        } else {
            for (i, (v, n)) in p.vertices[..count].iter().zip(&p.normals[..count]).enumerate() {
                let v = xf.apply(*v);
                let n = xf.q.rotate(*n);
                sum += v.x + v.y + n.x + n.y;
                lp.v[i] = v;
                lp.n[i] = n;
            }
        }
        if fmath::nan_if_not_finite(sum) != 0.0 {
            return None;
        }
        lp.aligned = lp.is_aligned_box();
        Some(lp)
    }

    /// The capsule as a two-sided 2-gon transformed by `xf` (core segment must be non-degenerate).
    #[inline]
    pub(crate) fn from_capsule(c: &Capsule, xf: Transform) -> Option<LocalPoly> {
        let a = xf.apply(c.center1);
        let b = xf.apply(c.center2);
        let n = (b - a).try_normalize()?.right_perp();
        let mut lp = LocalPoly {
            v: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            n: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            len: 2,
            radius: c.radius,
            aligned: false,
        };
        lp.v[0] = a;
        lp.v[1] = b;
        lp.n[0] = n;
        lp.n[1] = -n;
        Some(lp)
    }

    /// The incident edge against a reference face of normal `n1`: the edge whose normal is
    /// the most anti-parallel to it (the first of equals).
    #[inline]
    fn incident_edge(&self, n1: Vec2) -> usize {
        let mut e = 0;
        let mut min_dot = f32::INFINITY;
        for (i, n) in self.n[..self.count()].iter().enumerate() {
            let d = n1.dot(*n);
            if d < min_dot {
                min_dot = d;
                e = i;
            }
        }
        e
    }

    #[inline]
    fn next(&self, i: usize) -> usize {
        if i + 1 < self.count() {
            i + 1
        } else {
            0
        }
    }
}

/// Max over `p1`'s edges of the min separation of `p2`'s vertices: (separation, edge).
/// Ties go to the lowest edge index. An axis-aligned box on either side takes a shortcut with
/// bit-identical results (see [`LocalPoly::is_aligned_box`]).
#[inline]
fn find_max_separation(p1: &LocalPoly, p2: &LocalPoly) -> (f32, usize) {
    // Inputs are validated finite, so plain comparisons replace the NaN-aware `f32::min`, and
    // slices let the bounds checks go.
    let verts2 = &p2.v[..p2.count()];
    let mut best = f32::NEG_INFINITY;
    let mut best_i = 0;
    if p1.aligned {
        // The four minima of n · w are the extremes of p2's coordinates.
        let (mut lo_x, mut hi_x, mut lo_y, mut hi_y) = (verts2[0].x, verts2[0].x, verts2[0].y, verts2[0].y);
        for w in &verts2[1..] {
            lo_x = if w.x < lo_x { w.x } else { lo_x };
            hi_x = if w.x > hi_x { w.x } else { hi_x };
            lo_y = if w.y < lo_y { w.y } else { lo_y };
            hi_y = if w.y > hi_y { w.y } else { hi_y };
        }
        let mins = [-hi_y, lo_x, lo_y, -hi_x];
        for (i, (n, v)) in p1.n[..4].iter().zip(&p1.v[..4]).enumerate() {
            let si = mins[i] - n.dot(*v);
            if si > best {
                best = si;
                best_i = i;
            }
        }
        return (best, best_i);
    }
    // p2's vertices as coordinate lanes (the slots past its count repeat vertex 0, which
    // changes no minimum), for the general case's 4-lane minimum.
    let m = p2.count();
    let mut xs = [0.0f32; MAX_POLYGON_VERTICES];
    let mut ys = [0.0f32; MAX_POLYGON_VERTICES];
    for i in 0..MAX_POLYGON_VERTICES {
        let w = p2.v[if i < m { i } else { 0 }];
        xs[i] = w.x;
        ys[i] = w.y;
    }
    let wide = m > 4;
    for (i, (n, v)) in p1.n[..p1.count()].iter().zip(&p1.v[..p1.count()]).enumerate() {
        // min over p2 of n · (w − v) = min(n · w) − n · v
        let si = if p2.aligned {
            // The minimising corner of an axis-aligned box, by the signs of n: (+,+) → 0,
            // (−,+) → 1, (−,−) → 2, (+,−) → 3. Looked up rather than branched on (the signs
            // are random per pair, so branches mispredict).
            const CORNER: [usize; 4] = [0, 1, 3, 2];
            let k = CORNER[usize::from(!(n.x >= 0.0)) | usize::from(!(n.y >= 0.0)) << 1];
            n.dot(verts2[k])
        } else {
            // The same products as `n.dot(w)`, so the same minimum bit for bit.
            let mut lo = [f32::INFINITY; 4];
            for k in 0..4 {
                let d = n.x * xs[k] + n.y * ys[k];
                lo[k] = if d < lo[k] { d } else { lo[k] };
            }
            if wide {
                for k in 0..4 {
                    let d = n.x * xs[4 + k] + n.y * ys[4 + k];
                    lo[k] = if d < lo[k] { d } else { lo[k] };
                }
            }
            let a = if lo[1] < lo[0] { lo[1] } else { lo[0] };
            let b = if lo[3] < lo[2] { lo[3] } else { lo[2] };
            if b < a {
                b
            } else {
                a
            }
        };
        let si = si - n.dot(*v);
        if si > best {
            best = si;
            best_i = i;
        }
    }
    (best, best_i)
}

/// The feature of edge `v0`→`v1` at fraction `f` along it: vertex `v0`, vertex `v1` or the
/// edge (named by its first vertex).
#[inline]
fn edge_feature(f: f32, v0: usize, v1: usize) -> u8 {
    match segment_feature(f) {
        0 => v0 as u8,
        1 => v1 as u8,
        _ => FEATURE_EDGE | v0 as u8,
    }
}

/// Closest points between two separated convex cores by checking every edge pair: the exact
/// fallback of [`closest_cores`].
/// Returns (point on A, point on B, squared distance, feature of A, feature of B).
fn brute_force_closest(pa: &LocalPoly, pb: &LocalPoly) -> (Vec2, Vec2, f32, u8, u8) {
    let mut best = (Vec2::ZERO, Vec2::ZERO, f32::INFINITY, 0u8, 0u8);
    for i in 0..pa.count() {
        let (a0, a1) = (pa.v[i], pa.v[pa.next(i)]);
        for j in 0..pb.count() {
            let (b0, b1) = (pb.v[j], pb.v[pb.next(j)]);
            let sc = segment_closest(a0, a1, b0, b1);
            if sc.dist_sq < best.2 {
                let fa = edge_feature(sc.f1, i, pa.next(i));
                let fb = edge_feature(sc.f2, j, pb.next(j));
                best = (sc.c1, sc.c2, sc.dist_sq, fa, fb);
            }
        }
    }
    best
}

/// Closest points between two separated convex cores, exact up to round-off. Returns (point
/// on A, point on B, squared distance, feature of A, feature of B).
///
/// First the closest points of the SAT reference edge and the other core's incident edge
/// (Box2D's choice of features), kept only when certified: the plane through each point,
/// normal to the line joining them, has its whole core on one side (within round-off), which
/// makes them the closest points of the two convex cores. Otherwise GJK, whose final simplex
/// names the features, and should that not converge the all-pairs search.
fn closest_cores(
    pa: &LocalPoly,
    pb: &LocalPoly,
    sep_a: (f32, usize),
    sep_b: (f32, usize),
    scale: f32,
) -> (Vec2, Vec2, f32, u8, u8) {
    certified_edge_pair(pa, pb, sep_a, sep_b, scale).unwrap_or_else(|| closest_cores_gjk(pa, pb))
}

/// The largest absolute coordinate of the two cores: the scale of their round-off.
/// Both cores are validated finite, so plain compares replace the NaN-aware `f32::max` (a
/// blend per step, 7 % of a capsule–polygon pair in a profile); the two loops run
/// independently.
fn coord_scale(a: &LocalPoly, b: &LocalPoly) -> f32 {
    #[inline(always)]
    fn extent(p: &LocalPoly) -> f32 {
        let mut s = 0.0f32;
        for v in &p.v[..p.count()] {
            let e = if v.x.abs() > v.y.abs() {
                v.x.abs()
            } else {
                v.y.abs()
            };
            s = if e > s { e } else { s };
        }
        s
    }
    let (sa, sb) = (extent(a), extent(b));
    if sa > sb {
        sa
    } else {
        sb
    }
}

/// The first way of [`closest_cores`]: `None` when the edge pair is not certified.
fn certified_edge_pair(
    pa: &LocalPoly,
    pb: &LocalPoly,
    sep_a: (f32, usize),
    sep_b: (f32, usize),
    scale: f32,
) -> Option<(Vec2, Vec2, f32, u8, u8)> {
    let (r, i, e1, flip) = if sep_a.0 >= sep_b.0 {
        (pa, pb, sep_a.1, false)
    } else {
        (pb, pa, sep_b.1, true)
    };
    let e2 = i.incident_edge(r.n[e1]);
    let (r1, i1) = (r.next(e1), i.next(e2));
    let sc = segment_closest(r.v[e1], r.v[r1], i.v[e2], i.v[i1]);
    let d = sc.c2 - sc.c1;
    // Round-off of `(w − c) · d` is about ε·scale·|d|; allow 16 of them (squared, to keep the
    // square root off this path).
    let tol = 16.0 * f32::EPSILON * scale;
    let tol_sq = tol * tol * sc.dist_sq;
    let beyond = |x: f32| x > 0.0 && x * x > tol_sq;
    let certified = sc.dist_sq > 0.0
        && !r.v[..r.count()].iter().any(|w| beyond((*w - sc.c1).dot(d)))
        && !i.v[..i.count()].iter().any(|w| beyond(-(*w - sc.c2).dot(d)));
    if certified {
        let (fr, fi) = (edge_feature(sc.f1, e1, r1), edge_feature(sc.f2, e2, i1));
        return Some(if flip {
            (sc.c2, sc.c1, sc.dist_sq, fi, fr)
        } else {
            (sc.c1, sc.c2, sc.dist_sq, fr, fi)
        });
    }
    None
}

/// [`closest_cores`] by GJK.
fn closest_cores_gjk(pa: &LocalPoly, pb: &LocalPoly) -> (Vec2, Vec2, f32, u8, u8) {
    let proxy = |p: &LocalPoly| ShapeProxy {
        points: p.v,
        count: p.count() as u32,
        radius: 0.0,
    };
    let mut cache = SimplexCache::default();
    let g = gjk(&proxy(pa), &proxy(pb), &mut cache);
    if !g.converged || g.overlap || !(1..=2).contains(&cache.count) {
        return brute_force_closest(pa, pb);
    }
    // A simplex pair of two distinct adjacent indices is that edge; one index is a vertex.
    let feature = |p: &LocalPoly, i0: u8, i1: u8| -> u8 {
        if i0 == i1 {
            i0
        } else if p.next(i0 as usize) == i1 as usize {
            FEATURE_EDGE | i0
        } else if p.next(i1 as usize) == i0 as usize {
            FEATURE_EDGE | i1
        } else {
            i0
        }
    };
    let last = cache.count as usize - 1;
    let fa = feature(pa, cache.index_a[0], cache.index_a[last]);
    let fb = feature(pb, cache.index_b[0], cache.index_b[last]);
    (g.pa, g.pb, g.pa.distance_squared(g.pb), fa, fb)
}

/// The shared contact decision of every polygon pair, used by both `overlaps` and `collide`
/// so the two can never disagree.
pub(crate) enum PolyVerdict {
    /// Separated by more than the margin.
    Apart,
    /// In contact. `closest` holds the exact closest core points when the cores are apart
    /// (rounded polygons or a speculative margin), `None` when they overlap.
    Contact {
        sep_a: f32,
        edge_a: usize,
        sep_b: f32,
        edge_b: usize,
        closest: Option<Closest>,
    },
}

/// Exact closest points between two separated cores, with their features.
pub(crate) struct Closest {
    /// [`coord_scale`] of the pair.
    scale: f32,
    pa: Vec2,
    pb: Vec2,
    dist: f32,
    fa: u8,
    fb: u8,
}

#[inline]
pub(crate) fn polygon_verdict(a: &LocalPoly, b: &LocalPoly, margin: f32) -> PolyVerdict {
    let (sep_a, edge_a) = find_max_separation(a, b);
    let (sep_b, edge_b) = find_max_separation(b, a);
    let radius = a.radius + b.radius;
    let sep = sep_a.max(sep_b);
    if !(sep <= radius + margin) {
        return PolyVerdict::Apart;
    }
    let closest = if sep <= 0.0 {
        None
    } else {
        // Cores are apart: the SAT separation is only a lower bound on their distance.
        let scale = coord_scale(a, b);
        let (pa, pb, dist_sq, fa, fb) = closest_cores(a, b, (sep_a, edge_a), (sep_b, edge_b), scale);
        let max_d = radius + margin;
        if !(dist_sq <= max_d * max_d) {
            return PolyVerdict::Apart;
        }
        Some(Closest {
            scale,
            pa,
            pb,
            dist: fmath::sqrt(dist_sq),
            fa,
            fb,
        })
    };
    PolyVerdict::Contact {
        sep_a,
        edge_a,
        sep_b,
        edge_b,
        closest,
    }
}

/// Relative tolerance for accepting a clipped face manifold between cores that are apart: a
/// clipped point must be as close as the exact closest points.
const FACE_CONTACT_TOLERANCE: f32 = 1.0e-5;

/// Tolerance for comparing the exact closest distance of separated cores with a face
/// separation: relative to the gap plus radius, and never below the f32 round-off of the
/// coordinates (a sharp pair 1e-4 apart at coordinates of 5 cannot be judged finer than that).
fn face_tol(scale: f32, gap_plus_radius: f32) -> f32 {
    FACE_CONTACT_TOLERANCE * gap_plus_radius + 64.0 * f32::EPSILON * scale
}

/// Clips the incident edge of `p2` against the reference edge `e1` of `p1` and pushes the points
/// within the margin. `n1` points from `p1` to `p2`. Ids are (reference, incident) features.
#[inline]
fn clip_polygons(p1: &LocalPoly, p2: &LocalPoly, e1: usize, margin: f32, m: &mut LocalManifold) -> [u8; 2] {
    let n1 = p1.n[e1];
    let e2 = p2.incident_edge(n1);
    let i21 = e2;
    let i22 = p2.next(e2);
    let v11 = p1.v[e1];
    let v12 = p1.v[p1.next(e1)];
    let v21 = p2.v[i21];
    let v22 = p2.v[i22];
    let t = n1.left_perp();
    let upper1 = (v12 - v11).dot(t);
    let upper2 = (v21 - v11).dot(t);
    let lower2 = (v22 - v11).dot(t);
    let span = upper2 - lower2;
    let v_lower = if lower2 < 0.0 && span > 0.0 {
        v22.lerp(v21, (0.0 - lower2) / span)
    } else {
        v22
    };
    let v_upper = if upper2 > upper1 && span > 0.0 {
        v22.lerp(v21, (upper1 - lower2) / span)
    } else {
        v21
    };
    let radius = p1.radius + p2.radius;
    let mut ids = [0u8; 2];
    for (v, inc) in [(v_lower, i22), (v_upper, i21)] {
        let s = (v - v11).dot(n1);
        if s - radius <= margin {
            ids[m.count] = inc as u8;
            m.push(v.mul_add(0.5 * (p1.radius - p2.radius - s), n1), radius - s, 0);
        }
    }
    if m.count == 0 {
        // The clipped edge lost the deepest vertex: fall back to p2's support point along -n1,
        // whose separation is exactly the SAT separation of this face.
        let mut w = 0;
        let mut best = f32::INFINITY;
        for j in 0..p2.count() {
            let s = (p2.v[j] - v11).dot(n1);
            if s < best {
                best = s;
                w = j;
            }
        }
        if best - radius <= margin {
            ids[0] = w as u8;
            m.push(
                p2.v[w].mul_add(0.5 * (p1.radius - p2.radius - best), n1),
                radius - best,
                0,
            );
        }
    }
    ids
}

#[inline]
pub(crate) fn polygons_local(a: &LocalPoly, b: &LocalPoly, margin: f32) -> LocalManifold {
    polygons_finish(a, b, margin, polygon_verdict(a, b, margin))
}

/// The manifold of a polygon pair from its verdict (reference face, clipping, exact point).
#[inline]
fn polygons_finish(a: &LocalPoly, b: &LocalPoly, margin: f32, verdict: PolyVerdict) -> LocalManifold {
    let mut m = LocalManifold::default();
    let PolyVerdict::Contact {
        sep_a,
        edge_a,
        sep_b,
        edge_b,
        closest,
    } = verdict
    else {
        return m;
    };
    let sep = sep_a.max(sep_b);
    let radius = a.radius + b.radius;
    // Cores apart at a vertex (closest distance beyond the face separation): one exact point.
    if let Some(c) = &closest {
        if c.dist > sep + face_tol(c.scale, c.dist + radius) {
            push_vertex_contact(&mut m, a, b, c);
            return m;
        }
    }
    if sep_a >= sep_b {
        let ids = clip_polygons(a, b, edge_a, margin, &mut m);
        m.normal = a.n[edge_a];
        for (pt, &inc) in m.points[..m.count].iter_mut().zip(&ids) {
            pt.2 = make_id(FEATURE_EDGE | edge_a as u8, inc);
        }
    } else {
        let ids = clip_polygons(b, a, edge_b, margin, &mut m);
        m.normal = -b.n[edge_b];
        for (pt, &inc) in m.points[..m.count].iter_mut().zip(&ids) {
            pt.2 = make_id(inc, FEATURE_EDGE | edge_b as u8);
        }
    }
    if let Some(c) = &closest {
        // Face contact between separated cores is only kept when the deepest clipped point is
        // exactly as close as the exact closest points. Otherwise clipping either cut the
        // closest feature away or kept a point outside the reference face's slab, and the exact
        // single point is the right contact.
        let deepest = m.points[..m.count]
            .iter()
            .fold(f32::NEG_INFINITY, |d, p| d.max(p.1));
        if m.count == 0 || ((radius - deepest) - c.dist).abs() > face_tol(c.scale, c.dist + radius) {
            push_vertex_contact(&mut m, a, b, c);
        }
    }
    m
}

/// Replaces the manifold with the single exact contact between separated cores.
fn push_vertex_contact(m: &mut LocalManifold, a: &LocalPoly, b: &LocalPoly, c: &Closest) {
    // dist > 0 because the cores are apart, so the direction is well defined.
    let n = (c.pb - c.pa).try_normalize().unwrap_or(Vec2::X);
    m.normal = n;
    m.count = 0;
    m.push(
        surface_midpoint(c.pa, c.pb, n, a.radius, b.radius),
        a.radius + b.radius - c.dist,
        make_id(c.fa, c.fb),
    );
}

/// A's polygon shifted so its vertex 0 is the origin, and B placed in that frame.
#[inline]
pub(crate) fn polygon_pair_frames(a: &Polygon, xf: Transform) -> (Vec2, Transform, Transform) {
    let origin = a.vertices[0];
    let sa = Transform::from_translation(-origin);
    let sb = Transform {
        p: xf.p - origin,
        q: xf.q,
    };
    (origin, sa, sb)
}

/// What the box-pair shortcut decided (see [`box_pair_decide`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum BoxPair {
    /// Not two canonical boxes, or a case only the full path decides.
    Unknown,
    /// Separated by more than the margin (or invalid input): no contact.
    Apart,
    /// Valid input whose cores overlap or touch: in contact, with the full path's SAT result.
    Touching(BoxSat),
}

/// The SAT of two canonical boxes in A's shifted frame: what [`polygon_verdict`] would find, and
/// the corners `from_polygon` would compute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BoxSat {
    sep_a: f32,
    edge_a: usize,
    sep_b: f32,
    edge_b: usize,
    /// A's corners.
    ca: [Vec2; 4],
    /// B's corners.
    w: [Vec2; 4],
}

/// Whether `p` is laid out as [`Polygon::make_box`], [`Polygon::from_aabb`] and unrotated
/// [`Polygon::make_offset_box`] lay boxes out (the source-side test of
/// [`LocalPoly::is_aligned_box`]).
#[inline(always)]
fn is_canonical_box(p: &Polygon) -> bool {
    let (v, n) = (&p.vertices, &p.normals);
    p.count == 4
        && n[0] == Vec2::new(0.0, -1.0)
        && n[1] == Vec2::X
        && n[2] == Vec2::Y
        && n[3] == Vec2::new(-1.0, 0.0)
        && v[1].y == v[0].y
        && v[2].x == v[1].x
        && v[3].y == v[2].y
        && v[3].x == v[0].x
        && v[1].x >= v[0].x
        && v[2].y >= v[1].y
}

/// The polygon-pair decision for two canonical boxes without building [`LocalPoly`]s: B's
/// corners and normals are computed in A's shifted frame with exactly the arithmetic of
/// [`LocalPoly::from_polygon`], and the SAT uses the shortcuts of [`find_max_separation`], so the
/// separation is the full path's bit for bit. `Apart` is then exactly the full verdict's
/// `Apart` (for invalid input the full path reports no contact too); `Touching` is returned only
/// for input `from_polygon` accepts (same finiteness sums) whose cores overlap, where the full
/// verdict is `Contact` with no closest-point search. Everything else is `Unknown`.
#[inline(always)]
pub(crate) fn box_pair_decide(a: &Polygon, b: &Polygon, xf: Transform, margin: f32) -> BoxPair {
    if !(is_canonical_box(a) && is_canonical_box(b)) {
        return BoxPair::Unknown;
    }
    let (_, sa, sb) = polygon_pair_frames(a, xf);
    // A's corners in its shifted frame (the identity-rotation path of `from_polygon`): the
    // rectangle [x0, x1] × [y0, y1].
    let (x0, x1) = (a.vertices[0].x + sa.p.x, a.vertices[1].x + sa.p.x);
    let (y0, y1) = (a.vertices[0].y + sa.p.y, a.vertices[2].y + sa.p.y);
    let ca = [
        Vec2::new(x0, y0),
        Vec2::new(x1, y0),
        Vec2::new(x1, y1),
        Vec2::new(x0, y1),
    ];
    // B's corners `sb.apply(v)`: a box shares its eight products among its four corners.
    let (c, s, t) = (sb.q.c, sb.q.s, sb.p);
    let (bx0, bx1, by0, by1) = (b.vertices[0].x, b.vertices[1].x, b.vertices[0].y, b.vertices[2].y);
    let (cx0, cx1, sx0, sx1) = (c * bx0, c * bx1, s * bx0, s * bx1);
    let (cy0, cy1, sy0, sy1) = (c * by0, c * by1, s * by0, s * by1);
    let w = [
        Vec2::new((cx0 - sy0) + t.x, (sx0 + cy0) + t.y),
        Vec2::new((cx1 - sy0) + t.x, (sx1 + cy0) + t.y),
        Vec2::new((cx1 - sy1) + t.x, (sx1 + cy1) + t.y),
        Vec2::new((cx0 - sy1) + t.x, (sx0 + cy1) + t.y),
    ];
    // B's normals `sb.q.rotate(n)` for the canonical normals (equal up to the sign of zero).
    let m = [
        Vec2::new(s, -c),
        Vec2::new(c, s),
        Vec2::new(-s, c),
        Vec2::new(-c, -s),
    ];
    // A's faces against B's corners: the extremes of B's coordinates.
    let (mut lo_x, mut hi_x, mut lo_y, mut hi_y) = (w[0].x, w[0].x, w[0].y, w[0].y);
    for v in &w[1..] {
        lo_x = if v.x < lo_x { v.x } else { lo_x };
        hi_x = if v.x > hi_x { v.x } else { hi_x };
        lo_y = if v.y < lo_y { v.y } else { lo_y };
        hi_y = if v.y > hi_y { v.y } else { hi_y };
    }
    let mins = [-hi_y, lo_x, lo_y, -hi_x];
    let (mut sep_a, mut edge_a) = (f32::NEG_INFINITY, 0);
    for i in 0..4 {
        let si = mins[i] - a.normals[i].dot(ca[i]);
        if si > sep_a {
            sep_a = si;
            edge_a = i;
        }
    }
    // B's faces against A's minimising corner, picked by the signs of the normal.
    let (mut sep_b, mut edge_b) = (f32::NEG_INFINITY, 0);
    for j in 0..4 {
        let n = m[j];
        let corner = Vec2::new(if n.x >= 0.0 { x0 } else { x1 }, if n.y >= 0.0 { y0 } else { y1 });
        let sj = n.dot(corner) - n.dot(w[j]);
        if sj > sep_b {
            sep_b = sj;
            edge_b = j;
        }
    }
    let sep = sep_a.max(sep_b);
    if !(sep <= a.radius + b.radius + margin) {
        return BoxPair::Apart;
    }
    if sep > 0.0 {
        return BoxPair::Unknown;
    }
    // `from_polygon`'s acceptance test, term for term.
    let mut sum_a = a.radius;
    let mut sum_b = b.radius;
    for i in 0..4 {
        sum_a += ca[i].x + ca[i].y + a.normals[i].x + a.normals[i].y;
        sum_b += w[i].x + w[i].y + m[i].x + m[i].y;
    }
    if a.radius >= 0.0
        && b.radius >= 0.0
        && fmath::nan_if_not_finite(sum_a) == 0.0
        && fmath::nan_if_not_finite(sum_b) == 0.0
    {
        BoxPair::Touching(BoxSat {
            sep_a,
            edge_a,
            sep_b,
            edge_b,
            ca,
            w,
        })
    } else {
        BoxPair::Unknown
    }
}

/// Contact manifold between two convex polygons (SAT + reference-face clipping, exact closest
/// points for rounded polygons whose cores are apart).
#[inline]
#[must_use]
pub fn collide_polygons(a: &Polygon, xfa: Transform, b: &Polygon, xfb: Transform, margin: f32) -> Manifold {
    let Some(xf) = pair_frame(xfa, xfb) else {
        return Manifold::default();
    };
    let margin = sanitize_margin(margin);
    let (origin, sa, sb) = polygon_pair_frames(a, xf);
    match box_pair_decide(a, b, xf, margin) {
        BoxPair::Apart => return Manifold::default(),
        BoxPair::Touching(sat) => {
            // The LocalPolys `from_polygon` would build, from the corners already computed.
            let mut la = LocalPoly {
                v: [Vec2::ZERO; MAX_POLYGON_VERTICES],
                n: [Vec2::ZERO; MAX_POLYGON_VERTICES],
                len: 4,
                radius: a.radius,
                aligned: true,
            };
            let mut lb = LocalPoly {
                radius: b.radius,
                ..la
            };
            la.v[..4].copy_from_slice(&sat.ca);
            la.n[..4].copy_from_slice(&a.normals[..4]);
            lb.v[..4].copy_from_slice(&sat.w);
            for (n, bn) in lb.n[..4].iter_mut().zip(&b.normals[..4]) {
                *n = sb.q.rotate(*bn);
            }
            lb.aligned = lb.is_aligned_box();
            let verdict = PolyVerdict::Contact {
                sep_a: sat.sep_a,
                edge_a: sat.edge_a,
                sep_b: sat.sep_b,
                edge_b: sat.edge_b,
                closest: None,
            };
            return polygons_finish(&la, &lb, margin, verdict).to_world(xfa, origin);
        }
        BoxPair::Unknown => {}
    }
    let (Some(la), Some(lb)) = (LocalPoly::from_polygon(a, sa), LocalPoly::from_polygon(b, sb)) else {
        return Manifold::default();
    };
    polygons_local(&la, &lb, margin).to_world(xfa, origin)
}

/// Where a circle touches a polygon: its closest vertex (index) or the face `edge`.
#[derive(Clone, Copy)]
pub(crate) enum CircleRegion {
    /// Closest to vertex `.0` (position `.1`), squared centre distance `.2`.
    Vertex(usize, Vec2, f32),
    /// Closest to the face of least penetration.
    Face,
}

/// The polygon–circle decision shared by the manifold and the overlap test: the face of
/// largest separation of centre `c` (A's frame), that separation, and the region, when the
/// circle is within `margin` of touching.
#[inline(always)]
pub(crate) fn polygon_circle_decide(
    a: &Polygon,
    b: &Circle,
    c: Vec2,
    margin: f32,
) -> Option<(usize, f32, CircleRegion)> {
    let count = a.count as usize;
    if !(3..=MAX_POLYGON_VERTICES).contains(&count) || !radii_ok(a.radius, b.radius) {
        return None;
    }
    let mut sep = f32::NEG_INFINITY;
    let mut edge = 0;
    // NaN anywhere (centre, transform, vertices, normals) poisons `chk`.
    let mut chk = 0.0;
    for (i, (n, v)) in a.normals[..count].iter().zip(&a.vertices[..count]).enumerate() {
        let s = n.dot(c - *v);
        chk += s;
        if s > sep {
            sep = s;
            edge = i;
        }
    }
    let max_d = a.radius + b.radius + margin;
    if fmath::nan_if_not_finite(chk) != 0.0 || !(sep <= max_d) {
        return None;
    }
    if !(sep > 0.0) {
        return Some((edge, sep, CircleRegion::Face));
    }
    let i2 = if edge + 1 < count { edge + 1 } else { 0 };
    let v1 = a.vertices[edge];
    let v2 = a.vertices[i2];
    let vertex = if (c - v1).dot(v2 - v1) < 0.0 {
        Some((edge, v1))
    } else if (c - v2).dot(v1 - v2) < 0.0 {
        Some((i2, v2))
    } else {
        None
    };
    match vertex {
        Some((vi, v)) => {
            let dist_sq = (c - v).length_squared();
            (dist_sq <= max_d * max_d).then_some((edge, sep, CircleRegion::Vertex(vi, v, dist_sq)))
        }
        None => Some((edge, sep, CircleRegion::Face)),
    }
}

#[inline]
pub(crate) fn polygon_circle_local(a: &Polygon, b: &Circle, c: Vec2, margin: f32) -> LocalManifold {
    let mut m = LocalManifold::default();
    let Some((edge, sep, region)) = polygon_circle_decide(a, b, c, margin) else {
        return m;
    };
    let rsum = a.radius + b.radius;
    match region {
        CircleRegion::Vertex(vi, v, dist_sq) => {
            let dist = fmath::sqrt(dist_sq);
            let n = if dist > f32::MIN_POSITIVE {
                (c - v) * (1.0 / dist)
            } else {
                a.normals[edge]
            };
            m.normal = n;
            m.push(
                surface_midpoint(v, c, n, a.radius, b.radius),
                rsum - dist,
                make_id(vi as u8, 0),
            );
        }
        CircleRegion::Face => {
            let n = a.normals[edge];
            m.normal = n;
            let on_face = c.mul_add(-sep, n);
            m.push(
                surface_midpoint(on_face, c, n, a.radius, b.radius),
                rsum - sep,
                make_id(FEATURE_EDGE | edge as u8, 0),
            );
        }
    }
    m
}

/// Contact manifold between a polygon (A) and a circle (B). A circle centre inside the polygon
/// is pushed out through the face of least penetration.
#[inline]
#[must_use]
pub fn collide_polygon_circle(
    a: &Polygon,
    xfa: Transform,
    b: &Circle,
    xfb: Transform,
    margin: f32,
) -> Manifold {
    let Some(c) = point_in_frame(xfa, xfb, b.center) else {
        return Manifold::default();
    };
    let m = polygon_circle_local(a, b, c, sanitize_margin(margin));
    m.to_world(xfa, Vec2::ZERO)
}

/// Capsule degenerate to a point (both centres closer than the tolerance): treat as a circle.
#[inline]
pub(crate) fn capsule_as_circle(c: &Capsule) -> Option<Circle> {
    // Squared lengths (no square root on this path, which every capsule query takes); plain
    // compares, where a NaN anywhere makes the test false and the capsule path rejects it.
    let d = c.center2 - c.center1;
    let len_sq = d.dot(d);
    let (a1, a2) = (c.center1.abs(), c.center2.abs());
    let larger = |x: f32, y: f32| if x > y { x } else { y };
    let scale = larger(larger(larger(a1.x, a1.y), larger(a2.x, a2.y)), c.radius);
    let tol = DEGENERATE_SEGMENT * scale;
    let tol_sq = tol * tol;
    // `tol_sq` overflows only for coordinates beyond 1e25; such a capsule stays a capsule.
    if (len_sq <= tol_sq && tol_sq < f32::INFINITY) || len_sq == 0.0 {
        Some(Circle {
            center: (c.center1 + c.center2) * 0.5,
            radius: c.radius,
        })
    } else {
        None
    }
}

/// Contact manifold between a polygon (A) and a capsule (B): the capsule is a rounded 2-gon and
/// goes through the polygon–polygon path, so a lying capsule gives two points.
#[inline]
#[must_use]
pub fn collide_polygon_capsule(
    a: &Polygon,
    xfa: Transform,
    b: &Capsule,
    xfb: Transform,
    margin: f32,
) -> Manifold {
    let margin = sanitize_margin(margin);
    let Some(xf) = pair_frame(xfa, xfb) else {
        return Manifold::default();
    };
    if let Some(circle) = capsule_as_circle(b) {
        return polygon_circle_local(a, &circle, xf.apply(circle.center), margin).to_world(xfa, Vec2::ZERO);
    }
    if !(b.radius >= 0.0) {
        return Manifold::default();
    }
    let (origin, sa, sb) = polygon_pair_frames(a, xf);
    let (Some(la), Some(lb)) = (LocalPoly::from_polygon(a, sa), LocalPoly::from_capsule(b, sb)) else {
        return Manifold::default();
    };
    polygons_local(&la, &lb, margin).to_world(xfa, origin)
}

/// Contact manifold between any two shapes, touching counts as contact (margin 0).
#[must_use]
pub fn collide(a: &Shape, xfa: Transform, b: &Shape, xfb: Transform) -> Manifold {
    collide_with_margin(a, xfa, b, xfb, 0.0)
}

/// Contact manifold between any two shapes, also reporting speculative points whose surfaces
/// are apart by at most `margin` (those have `depth >= -margin`). A negative or NaN margin is
/// treated as 0.
#[must_use]
pub fn collide_with_margin(a: &Shape, xfa: Transform, b: &Shape, xfb: Transform, margin: f32) -> Manifold {
    use Shape::*;
    match (a, b) {
        (Circle(a), Circle(b)) => collide_circles(a, xfa, b, xfb, margin),
        (Capsule(a), Circle(b)) => collide_capsule_circle(a, xfa, b, xfb, margin),
        (Circle(a), Capsule(b)) => collide_capsule_circle(b, xfb, a, xfa, margin).flipped(),
        (Capsule(a), Capsule(b)) => collide_capsules(a, xfa, b, xfb, margin),
        (Polygon(a), Circle(b)) => collide_polygon_circle(a, xfa, b, xfb, margin),
        (Circle(a), Polygon(b)) => collide_polygon_circle(b, xfb, a, xfa, margin).flipped(),
        (Polygon(a), Capsule(b)) => collide_polygon_capsule(a, xfa, b, xfb, margin),
        (Capsule(a), Polygon(b)) => collide_polygon_capsule(b, xfb, a, xfa, margin).flipped(),
        (Polygon(a), Polygon(b)) => collide_polygons(a, xfa, b, xfb, margin),
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::math::Aabb;

    /// SplitMix64 for test inputs.
    struct Rng(u64);
    impl Rng {
        fn f(&mut self, lo: f32, hi: f32) -> f32 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            lo + (hi - lo) * ((z >> 40) as f32 / (1u64 << 24) as f32)
        }
    }

    /// The axis-aligned-box shortcuts of `find_max_separation` against the full loops (the same
    /// polygons with the flag cleared): identical separation and edge, on random boxes and
    /// polygons at four scales, with exact identity rotations, exactly touching boxes and
    /// integer coordinates (ties) included.
    #[test]
    fn aligned_box_sat_shortcut_is_bit_identical() {
        let mut rng = Rng(7);
        let mut shortcuts = 0;
        for case in 0..40_000 {
            let s = [0.01f32, 1.0, 100.0, 1.0e4][case % 4];
            let integer = case % 5 == 0;
            let q = |rng: &mut Rng, lo: f32, hi: f32| {
                let v = rng.f(lo, hi) * s;
                if integer {
                    v.round().max(1.0)
                } else {
                    v
                }
            };
            let box_a = Polygon::make_offset_box(
                q(&mut rng, 0.2, 1.0),
                q(&mut rng, 0.2, 1.0),
                Vec2::new(q(&mut rng, -1.0, 1.0), q(&mut rng, -1.0, 1.0)),
                Rot::IDENTITY,
            )
            .unwrap();
            let other = match case % 3 {
                0 => Polygon::make_box(q(&mut rng, 0.2, 1.0), q(&mut rng, 0.2, 1.0)).unwrap(),
                1 => {
                    let n = 3 + (case / 3) % 6;
                    let pts: [Vec2; 8] = core::array::from_fn(|i| {
                        let a = (i as f32 + rng.f(-0.3, 0.3)) * core::f32::consts::TAU / n as f32;
                        Rot::from_angle(a).x_axis() * (rng.f(0.5, 1.0) * s)
                    });
                    match Polygon::new(&pts[..n]) {
                        Ok(p) => p,
                        Err(_) => continue,
                    }
                }
                _ => Polygon::from_aabb(Aabb::new(
                    Vec2::new(-q(&mut rng, 0.2, 1.0), -q(&mut rng, 0.2, 1.0)),
                    Vec2::new(q(&mut rng, 0.2, 1.0), q(&mut rng, 0.2, 1.0)),
                ))
                .unwrap(),
            };
            let angle = if case % 7 < 3 { 0.0 } else { rng.f(-3.2, 3.2) };
            let xf = Transform::new(Vec2::new(q(&mut rng, -2.0, 2.0), q(&mut rng, -2.0, 2.0)), angle);
            let (_, sa, sb) = polygon_pair_frames(&box_a, xf);
            let la = LocalPoly::from_polygon(&box_a, sa).unwrap();
            let lb = LocalPoly::from_polygon(&other, sb).unwrap();
            assert!(la.aligned, "case {case}: A not detected");
            let (mut fa, mut fb) = (la, lb);
            fa.aligned = false;
            fb.aligned = false;
            shortcuts += 1 + usize::from(lb.aligned);
            for (x, y, fx, fy) in [(&la, &lb, &fa, &fb), (&lb, &la, &fb, &fa)] {
                let (s1, e1) = find_max_separation(x, y);
                let (s2, e2) = find_max_separation(fx, fy);
                assert!(s1 == s2 && e1 == e2, "case {case}: ({s1}, {e1}) vs ({s2}, {e2})");
            }
        }
        assert!(shortcuts > 40_000);
    }

    /// The box-pair shortcut against the full verdict on the same input: `Apart` only where the
    /// full path finds no contact (apart, or input it rejects), `Touching` only where it finds
    /// contact without a closest-point search. Rounded boxes, margins, exact touching, huge and
    /// non-finite coordinates, and negative radii included.
    #[test]
    fn box_pair_decision_matches_full_verdict() {
        let mut rng = Rng(11);
        let mut decided = 0;
        for case in 0..60_000 {
            let s = [0.01f32, 1.0, 100.0, 1.0e4][case % 4];
            let integer = case % 5 == 0;
            let q = |rng: &mut Rng, lo: f32, hi: f32| {
                let v = rng.f(lo, hi) * s;
                if integer {
                    v.round().max(1.0)
                } else {
                    v
                }
            };
            let radius = |rng: &mut Rng| if case % 6 == 0 { rng.f(0.0, 0.3) * s } else { 0.0 };
            let mut a = Polygon::make_offset_box(
                q(&mut rng, 0.2, 1.0),
                q(&mut rng, 0.2, 1.0),
                Vec2::new(q(&mut rng, -1.0, 1.0), q(&mut rng, -1.0, 1.0)),
                Rot::IDENTITY,
            )
            .unwrap();
            a.radius = radius(&mut rng);
            let mut b = Polygon::from_aabb(Aabb::new(
                Vec2::new(-q(&mut rng, 0.2, 1.0), -q(&mut rng, 0.2, 1.0)),
                Vec2::new(q(&mut rng, 0.2, 1.0), q(&mut rng, 0.2, 1.0)),
            ))
            .unwrap();
            b.radius = radius(&mut rng);
            // Bad input: non-finite or huge corners (kept in the canonical layout), bad radius.
            match case % 97 {
                1 => {
                    b.vertices[1].x = f32::INFINITY;
                    b.vertices[2].x = f32::INFINITY;
                }
                2 => {
                    a.vertices[2].y = f32::NAN;
                    a.vertices[3].y = f32::NAN;
                }
                3 => b.radius = -1.0,
                4 => {
                    for v in &mut b.vertices[..4] {
                        *v *= 3.0e37;
                    }
                }
                _ => {}
            }
            let angle = if case % 7 < 3 { 0.0 } else { rng.f(-3.2, 3.2) };
            let xf = Transform::new(Vec2::new(q(&mut rng, -2.0, 2.0), q(&mut rng, -2.0, 2.0)), angle);
            let margin = if case % 3 == 0 { 0.05 * s } else { 0.0 };
            let (_, sa, sb) = polygon_pair_frames(&a, xf);
            let full = match (LocalPoly::from_polygon(&a, sa), LocalPoly::from_polygon(&b, sb)) {
                (Some(la), Some(lb)) => Some(polygon_verdict(&la, &lb, margin)),
                _ => None,
            };
            // The whole manifold equals the one built by the full path.
            let xfa = Transform::new(Vec2::new(3.0 * s, -2.0 * s), 0.7);
            let fast = collide_polygons(&a, xfa, &b, xfa * xf, margin);
            let slow = match pair_frame(xfa, xfa * xf) {
                Some(rel) => {
                    let (origin, sa, sb) = polygon_pair_frames(&a, rel);
                    match (LocalPoly::from_polygon(&a, sa), LocalPoly::from_polygon(&b, sb)) {
                        (Some(la), Some(lb)) => polygons_local(&la, &lb, margin).to_world(xfa, origin),
                        _ => Manifold::default(),
                    }
                }
                None => Manifold::default(),
            };
            assert_eq!(fast, slow, "case {case}: manifolds differ");
            match (box_pair_decide(&a, &b, xf, margin), &full) {
                (BoxPair::Apart, None | Some(PolyVerdict::Apart)) => decided += 1,
                (
                    BoxPair::Touching(sat),
                    Some(PolyVerdict::Contact {
                        sep_a,
                        edge_a,
                        sep_b,
                        edge_b,
                        closest: None,
                    }),
                ) => {
                    // The same SAT result as the full path.
                    assert!(
                        sat.sep_a == *sep_a
                            && sat.edge_a == *edge_a
                            && sat.sep_b == *sep_b
                            && sat.edge_b == *edge_b,
                        "case {case}: SAT differs"
                    );
                    decided += 1;
                }
                (BoxPair::Unknown, _) => {}
                (d, _) => panic!("case {case}: shortcut {d:?} disagrees with the full verdict"),
            }
        }
        assert!(decided > 50_000, "decided {decided}");
    }

    /// The certified edge-pair shortcut of `closest_cores` against the all-pairs search, on
    /// separated cores (random polygons and capsules, at four scales, rotated and shifted far
    /// from the origin): the same distance within round-off, points on the cores that far
    /// apart, and both the shortcut and the GJK fallback taken.
    #[test]
    fn certified_closest_cores_match_brute_force() {
        let mut rng = Rng(11);
        let (mut certified, mut total) = (0, 0);
        for case in 0..20_000 {
            let s = [0.01f32, 1.0, 100.0, 1.0e4][case % 4];
            let poly = |rng: &mut Rng, capsule: bool| -> LocalPoly {
                let c = Vec2::new(rng.f(-3.0, 3.0), rng.f(-3.0, 3.0)) * s;
                let xf = Transform::new(c + Vec2::new(1000.0, -500.0) * s, rng.f(-3.2, 3.2));
                if capsule {
                    let h = rng.f(0.1, 1.0) * s;
                    let cap = Capsule::new(Vec2::new(-h, 0.0), Vec2::new(h, 0.0), 0.1 * s).unwrap();
                    LocalPoly::from_capsule(&cap, xf).unwrap()
                } else {
                    let n = 3 + (rng.f(0.0, 6.0) as usize).min(5);
                    let mut pts = [Vec2::ZERO; 8];
                    for (k, p) in pts.iter_mut().enumerate().take(n) {
                        let a = (k as f32 + rng.f(-0.3, 0.3)) * core::f32::consts::TAU / n as f32;
                        *p = Rot::from_angle(a).x_axis() * (rng.f(0.5, 1.0) * s);
                    }
                    let p = Polygon::new(&pts[..n]).unwrap();
                    LocalPoly::from_polygon(&p, xf).unwrap()
                }
            };
            let a = poly(&mut rng, case % 3 == 0);
            let b = poly(&mut rng, case % 5 == 0);
            let (sa, sb) = (find_max_separation(&a, &b), find_max_separation(&b, &a));
            if sa.0.max(sb.0) <= 0.0 {
                continue;
            }
            total += 1;
            let (_, _, brute, _, _) = brute_force_closest(&a, &b);
            let brute = brute.sqrt();
            // Round-off of coordinates about 1000·s from the origin.
            let tol = 1e-5 * brute + 64.0 * f32::EPSILON * 1500.0 * s;
            let scale = coord_scale(&a, &b);
            if let Some((pa, pb, d2, _, _)) = certified_edge_pair(&a, &b, sa, sb, scale) {
                certified += 1;
                let d = d2.sqrt();
                assert!((d - brute).abs() <= tol, "case {case}: {d} vs {brute}");
                assert!((pa.distance(pb) - d).abs() <= tol);
            }
            let (_, _, d2, _, _) = closest_cores(&a, &b, sa, sb, scale);
            assert!(
                (d2.sqrt() - brute).abs() <= tol,
                "case {case}: {} vs {brute}",
                d2.sqrt()
            );
        }
        assert!(total > 10_000, "{total}");
        assert!(
            certified > total / 2 && certified < total,
            "shortcut taken {certified} of {total}"
        );
        std::eprintln!("certified edge pair: {certified} of {total} separated pairs (the rest via GJK)");
    }
}
