//! Distance queries: GJK between any two shapes (segment–segment closest points live in
//! [`crate::segment`] and are re-exported here).
//!
//! GJK works on a [`ShapeProxy`] (up to 8 points plus a radius), runs in shape A's local frame
//! and uses tolerances relative to the proxies' size, so its accuracy depends neither on where
//! the pair sits in the world nor on the shapes' scale (cute_c2's absolute epsilons break at
//! sizes of 100–1000; these do not).

use crate::geometry::{GeometryError, Shape, MAX_POLYGON_VERTICES};
use crate::math::{Transform, Vec2};
pub use crate::segment::{segment_distance, SegmentDistance};
use bytemuck::{Pod, Zeroable};

/// A convex shape for GJK: the convex hull of up to 8 points, grown by `radius`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct ShapeProxy {
    /// The points (local space); only the first `count` are used.
    pub points: [Vec2; MAX_POLYGON_VERTICES],
    /// Number of points, 1..=8.
    pub count: u32,
    /// Radius added around the hull.
    pub radius: f32,
}

impl ShapeProxy {
    /// A proxy from 1 to 8 points and a radius.
    pub fn new(points: &[Vec2], radius: f32) -> Result<ShapeProxy, GeometryError> {
        if points.is_empty() {
            return Err(GeometryError::TooFewPoints);
        }
        if points.len() > MAX_POLYGON_VERTICES {
            return Err(GeometryError::TooManyPoints);
        }
        if !radius.is_finite() || points.iter().any(|p| !p.is_finite()) {
            return Err(GeometryError::NonFinite);
        }
        if radius < 0.0 {
            return Err(GeometryError::NegativeRadius);
        }
        let mut p = ShapeProxy {
            points: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            count: points.len() as u32,
            radius,
        };
        p.points[..points.len()].copy_from_slice(points);
        Ok(p)
    }

    /// The proxy of a shape (circle: its centre; capsule: its two centres; polygon: its
    /// vertices; chain segment: its two points, two-sided), in the shape's local space. A polygon with an invalid count gives an empty
    /// proxy, which every query treats as invalid input.
    #[must_use]
    pub fn from_shape(s: &Shape) -> ShapeProxy {
        let mut p = ShapeProxy {
            points: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            count: 0,
            radius: 0.0,
        };
        match s {
            Shape::Circle(c) => {
                p.points[0] = c.center;
                p.count = 1;
                p.radius = c.radius;
            }
            Shape::Capsule(c) => {
                p.points[0] = c.center1;
                p.points[1] = c.center2;
                p.count = 2;
                p.radius = c.radius;
            }
            Shape::ChainSegment(c) => {
                p.points[0] = c.point1;
                p.points[1] = c.point2;
                p.count = 2;
            }
            Shape::Polygon(poly) => {
                let n = poly.count as usize;
                if (3..=MAX_POLYGON_VERTICES).contains(&n) {
                    // All eight slots, the unused ones zero: a fixed-size copy (a slice copy
                    // of variable length is a call to `memcpy`, 10 ns of an 8-gon distance).
                    for (i, (q, v)) in p.points.iter_mut().zip(&poly.vertices).enumerate() {
                        *q = if i < n { *v } else { Vec2::ZERO };
                    }
                    p.count = n as u32;
                }
                p.radius = poly.radius;
            }
        }
        p
    }

    /// The points in use.
    #[inline]
    #[must_use]
    pub fn points(&self) -> &[Vec2] {
        &self.points[..(self.count as usize).min(MAX_POLYGON_VERTICES)]
    }

    /// The proxy transformed by `xf` and its extent (see [`ShapeProxy::extent`]); `None`
    /// when empty, non-finite or with a bad radius.
    #[inline]
    pub(crate) fn transformed(&self, xf: Transform) -> Option<(ShapeProxy, f32)> {
        let mut p = ShapeProxy {
            points: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            count: self.count,
            radius: self.radius,
        };
        let n = self.points().len();
        if n == 0 || !(self.radius >= 0.0) {
            return None;
        }
        // As `check`, fused with the transform.
        let mut sum = self.radius;
        let mut extent = self.radius;
        for (q, s) in p.points[..n].iter_mut().zip(&self.points[..n]) {
            *q = xf.apply(*s);
            sum += q.x + q.y;
            let e = if q.x.abs() > q.y.abs() {
                q.x.abs()
            } else {
                q.y.abs()
            };
            extent = if e > extent { e } else { extent };
        }
        if crate::fmath::nan_if_not_finite(sum) != 0.0 {
            return None;
        }
        Some((p, extent))
    }

    /// The extent (largest absolute coordinate, or the radius if larger) when the proxy is
    /// valid: non-empty, finite, non-negative radius.
    #[inline]
    pub(crate) fn check(&self) -> Option<f32> {
        let n = self.points().len();
        if n == 0 || !(self.radius >= 0.0) {
            return None;
        }
        // NaN or infinity anywhere makes the sum non-finite (one branch-free test at the end).
        let mut sum = self.radius;
        let mut extent = self.radius;
        for q in &self.points[..n] {
            sum += q.x + q.y;
            // Plain compares: a NaN here is caught by the sum.
            let e = if q.x.abs() > q.y.abs() {
                q.x.abs()
            } else {
                q.y.abs()
            };
            extent = if e > extent { e } else { extent };
        }
        if crate::fmath::nan_if_not_finite(sum) != 0.0 {
            return None;
        }
        Some(extent)
    }

    /// The index of the point furthest along `d` (the first of equals).
    #[inline]
    pub(crate) fn support(&self, d: Vec2) -> usize {
        let pts = self.points();
        let mut best = 0;
        let mut best_v = pts[0].dot(d);
        for (i, p) in pts.iter().enumerate().skip(1) {
            let v = p.dot(d);
            if v > best_v {
                best_v = v;
                best = i;
            }
        }
        best
    }

    /// The largest absolute coordinate of the points, or the radius if larger: the scale of
    /// the proxy's round-off in its own frame.
    pub(crate) fn extent(&self) -> f32 {
        // Points are validated finite before this is called: plain compares, not NaN-aware max.
        let mut m = self.radius;
        for p in self.points() {
            let e = if p.x.abs() > p.y.abs() {
                p.x.abs()
            } else {
                p.y.abs()
            };
            if e > m {
                m = e;
            }
        }
        m
    }
}

/// Relative tolerance of the casts built on GJK ([`crate::cast::shape_cast`] and
/// [`crate::toi::time_of_impact`]): a hit stops within this fraction of the shapes' size of the
/// target distance.
pub const CAST_RELATIVE_TOLERANCE: f32 = 1.0e-5;

/// GJK warm-start cache: the support indices of the last simplex. Zero-initialise it before the
/// first query (`SimplexCache::default()` or zeroed memory in C) and keep it per pair. A cache
/// is validated before use (indices in range, no duplicates, non-degenerate simplex) and
/// ignored when it fails, so a stale or garbage cache only costs speed.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SimplexCache {
    /// Number of cached vertices, 0..=3.
    pub count: u16,
    /// Support point indices on shape A.
    pub index_a: [u8; 3],
    /// Support point indices on shape B.
    pub index_b: [u8; 3],
}

/// Outcome of a distance query.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DistanceStatus {
    /// The shapes are apart; `distance > 0`, the points and normal are valid.
    Separated = 0,
    /// The shapes overlap or touch; `distance == 0`.
    Overlapping = 1,
    /// GJK hit its iteration cap; the output is the best estimate, not a proof of separation.
    NotConverged = 2,
    /// Non-finite transform, empty proxy or negative radius.
    InvalidInput = 3,
}

/// Result of [`shape_distance`].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DistanceOutput {
    /// Closest point on shape A's surface, world space. When overlapping: a point of the
    /// overlap (midway between the cores' witness points).
    pub point_a: Vec2,
    /// Closest point on shape B's surface, world space (equals `point_a` when overlapping).
    pub point_b: Vec2,
    /// World unit normal from A to B; zero when the cores overlap (no direction is defined).
    pub normal: Vec2,
    /// Distance between the surfaces, `>= 0`; exactly 0 when overlapping.
    pub distance: f32,
    /// GJK iterations used.
    pub iterations: u32,
    /// What the numbers mean; see [`DistanceStatus`].
    pub status: DistanceStatus,
}

/// GJK iteration cap; reaching it reports [`DistanceStatus::NotConverged`].
pub const GJK_MAX_ITERATIONS: u32 = 30;

#[derive(Clone, Copy, Default)]
struct SimplexVertex {
    wa: Vec2,
    wb: Vec2,
    w: Vec2,
    a: f32,
    /// The support indices, `ia | ib << 8`: one 4-byte field, stored and loaded whole (two
    /// byte fields were stored as 2 bytes and loaded with their padding as 4, which stalled
    /// store forwarding in every iteration's duplicate test).
    key: u32,
}

impl SimplexVertex {
    #[inline]
    fn ia(&self) -> u8 {
        self.key as u8
    }

    #[inline]
    fn ib(&self) -> u8 {
        (self.key >> 8) as u8
    }
}

/// [`SimplexVertex::key`] of a support index pair.
#[inline]
fn key(ia: usize, ib: usize) -> u32 {
    ia as u32 | (ib as u32) << 8
}

#[derive(Clone, Copy, Default)]
struct Simplex {
    v: [SimplexVertex; 3],
    count: usize,
}

impl Simplex {
    fn vertex(pa: &ShapeProxy, pb: &ShapeProxy, ia: usize, ib: usize) -> SimplexVertex {
        let wa = pa.points[ia];
        let wb = pb.points[ib];
        SimplexVertex {
            wa,
            wb,
            w: wb - wa,
            a: 1.0,
            key: key(ia, ib),
        }
    }

    fn from_cache(cache: &SimplexCache, pa: &ShapeProxy, pb: &ShapeProxy, tol_sq: f32) -> Option<Simplex> {
        let n = cache.count as usize;
        if !(1..=3).contains(&n) {
            return None;
        }
        let mut s = Simplex::default();
        for i in 0..n {
            let (ia, ib) = (cache.index_a[i] as usize, cache.index_b[i] as usize);
            if ia >= pa.points().len() || ib >= pb.points().len() {
                return None;
            }
            if s.v[..i].iter().any(|v| v.key == key(ia, ib)) {
                return None;
            }
            s.v[i] = Simplex::vertex(pa, pb, ia, ib);
        }
        s.count = n;
        let degenerate = match n {
            2 => s.v[0].w.distance_squared(s.v[1].w) <= tol_sq,
            3 => (s.v[1].w - s.v[0].w).cross(s.v[2].w - s.v[0].w).abs() <= tol_sq,
            _ => false,
        };
        if degenerate {
            None
        } else {
            Some(s)
        }
    }

    /// Reduces the simplex to the sub-simplex closest to the origin and sets barycentric
    /// weights. Returns false when the origin is inside the triangle.
    #[inline(always)]
    fn solve(&mut self) -> bool {
        match self.count {
            1 => {
                self.v[0].a = 1.0;
                true
            }
            2 => {
                self.solve2();
                true
            }
            _ => self.solve3(),
        }
    }

    #[inline(always)]
    fn solve2(&mut self) {
        let (w1, w2) = (self.v[0].w, self.v[1].w);
        let e12 = w2 - w1;
        let d12_2 = -w1.dot(e12);
        if d12_2 <= 0.0 {
            self.v[0].a = 1.0;
            self.count = 1;
            return;
        }
        let d12_1 = w2.dot(e12);
        if d12_1 <= 0.0 {
            self.v[1].a = 1.0;
            self.v[0] = self.v[1];
            self.count = 1;
            return;
        }
        let inv = 1.0 / (d12_1 + d12_2);
        self.v[0].a = d12_1 * inv;
        self.v[1].a = d12_2 * inv;
        self.count = 2;
    }

    #[inline(always)]
    fn solve3(&mut self) -> bool {
        let (w1, w2, w3) = (self.v[0].w, self.v[1].w, self.v[2].w);
        let e12 = w2 - w1;
        let d12_1 = w2.dot(e12);
        let d12_2 = -w1.dot(e12);
        let e13 = w3 - w1;
        let d13_1 = w3.dot(e13);
        let d13_2 = -w1.dot(e13);
        let e23 = w3 - w2;
        let d23_1 = w3.dot(e23);
        let d23_2 = -w2.dot(e23);
        let n123 = e12.cross(e13);
        let d123_1 = n123 * w2.cross(w3);
        let d123_2 = n123 * w3.cross(w1);
        let d123_3 = n123 * w1.cross(w2);

        if d12_2 <= 0.0 && d13_2 <= 0.0 {
            self.v[0].a = 1.0;
            self.count = 1;
            return true;
        }
        if d12_1 > 0.0 && d12_2 > 0.0 && d123_3 <= 0.0 {
            let inv = 1.0 / (d12_1 + d12_2);
            self.v[0].a = d12_1 * inv;
            self.v[1].a = d12_2 * inv;
            self.count = 2;
            return true;
        }
        if d13_1 > 0.0 && d13_2 > 0.0 && d123_2 <= 0.0 {
            let inv = 1.0 / (d13_1 + d13_2);
            self.v[0].a = d13_1 * inv;
            self.v[2].a = d13_2 * inv;
            self.v[1] = self.v[2];
            self.count = 2;
            return true;
        }
        if d12_1 <= 0.0 && d23_2 <= 0.0 {
            self.v[1].a = 1.0;
            self.v[0] = self.v[1];
            self.count = 1;
            return true;
        }
        if d13_1 <= 0.0 && d23_1 <= 0.0 {
            self.v[2].a = 1.0;
            self.v[0] = self.v[2];
            self.count = 1;
            return true;
        }
        if d23_1 > 0.0 && d23_2 > 0.0 && d123_1 <= 0.0 {
            let inv = 1.0 / (d23_1 + d23_2);
            self.v[2].a = d23_2 * inv;
            self.v[1].a = d23_1 * inv;
            self.v[0] = self.v[2];
            self.count = 2;
            return true;
        }
        let inv = 1.0 / (d123_1 + d123_2 + d123_3);
        self.v[0].a = d123_1 * inv;
        self.v[1].a = d123_2 * inv;
        self.v[2].a = d123_3 * inv;
        self.count = 3;
        false
    }

    /// Search direction towards the origin from the solved simplex (count 1 or 2): the
    /// negated point, or the perpendicular of the segment on the origin's side.
    #[inline]
    fn search_direction(&self) -> Vec2 {
        match self.count {
            1 => -self.v[0].w,
            _ => {
                let e12 = self.v[1].w - self.v[0].w;
                if e12.cross(-self.v[0].w) > 0.0 {
                    e12.left_perp()
                } else {
                    e12.right_perp()
                }
            }
        }
    }

    fn witness(&self) -> (Vec2, Vec2) {
        let mut a = Vec2::ZERO;
        let mut b = Vec2::ZERO;
        for v in &self.v[..self.count] {
            a += v.wa * v.a;
            b += v.wb * v.a;
        }
        (a, b)
    }
}

/// The result of raw GJK between two proxies given in the same frame, ignoring radii.
pub(crate) struct GjkResult {
    /// Witness point on A's core (the proxies' frame).
    pub pa: Vec2,
    /// Witness point on B's core.
    pub pb: Vec2,
    /// Unit normal from A to B taken from the final simplex: the perpendicular of a simplex
    /// segment (exact for a vertex against an edge, however small the gap) or the direction to
    /// a single simplex point. `None` when undefined (overlap, degenerate simplex).
    pub normal: Option<Vec2>,
    /// Distance between the cores along `normal` (0 when they overlap).
    pub distance: f32,
    /// GJK iterations taken.
    pub iterations: u32,
    /// False when the iteration cap or a stall ended the search before the distance settled.
    pub converged: bool,
    /// The cores overlap (or touch within round-off).
    pub overlap: bool,
}

pub(crate) fn gjk(pa: &ShapeProxy, pb: &ShapeProxy, cache: &mut SimplexCache) -> GjkResult {
    gjk_scaled(pa, pb, cache, pa.extent().max(pb.extent()))
}

/// [`gjk`] with the proxies' extent (largest absolute coordinate or radius) already known.
pub(crate) fn gjk_scaled(
    pa: &ShapeProxy,
    pb: &ShapeProxy,
    cache: &mut SimplexCache,
    extent: f32,
) -> GjkResult {
    let scale = extent.max(f32::MIN_POSITIVE);
    let tol = 8.0 * f32::EPSILON * scale;
    let tol_sq = tol * tol;
    let mut s = Simplex::from_cache(cache, pa, pb, tol_sq).unwrap_or_else(|| {
        let mut s = Simplex::default();
        s.v[0] = Simplex::vertex(pa, pb, 0, 0);
        s.count = 1;
        s
    });
    let mut iterations = 0;
    let mut converged = false;
    let mut overlap = false;
    while iterations < GJK_MAX_ITERATIONS {
        let saved = [s.v[0].key, s.v[1].key, s.v[2].key];
        let saved_count = s.count;
        if !s.solve() {
            overlap = true;
            converged = true;
            break;
        }
        let w0 = s.v[0].w;
        let d = s.search_direction();
        let dd = d.length_squared();
        // Squared distance of the simplex from the origin, times |d|²: for a point |w0|²·|d|²
        // (d = −w0), for a segment (w0 × e)² (d ⟂ e, |d| = |e|).
        let dist_dd = if s.count == 1 {
            dd * dd
        } else {
            let c = w0.cross(s.v[1].w - w0);
            c * c
        };
        if dd <= tol_sq * f32::EPSILON || dist_dd <= tol_sq * dd {
            // The origin lies on the simplex: touching cores.
            overlap = true;
            converged = true;
            break;
        }
        let ia = pa.support(-d);
        let ib = pb.support(d);
        iterations += 1;
        if saved[..saved_count].contains(&key(ia, ib)) {
            converged = true;
            break;
        }
        let v = Simplex::vertex(pa, pb, ia, ib);
        // No progress towards the origin along d (less than `tol` along the unit direction):
        // the current simplex is the answer. The simplex's closest point differs from w0 by
        // a multiple of the segment, which is ⟂ d. Compared squared to avoid a square root.
        let progress = (v.w - w0).dot(d);
        if progress <= 0.0 || progress * progress <= tol_sq * dd {
            converged = true;
            break;
        }
        s.v[s.count] = v;
        s.count += 1;
    }
    if !converged && iterations >= GJK_MAX_ITERATIONS {
        // Keep the best simplex solved for the witness points.
        if !s.solve() {
            overlap = true;
        }
    }
    let (wa, wb) = s.witness();
    // The normal from the final simplex (exact for a vertex against an edge, however small
    // the gap), and the core distance with it: one square root.
    let (normal, distance) = match s.count {
        1 => {
            let w = s.v[0].w;
            let len = w.length();
            (if len > 0.0 { Some(w * (1.0 / len)) } else { None }, len)
        }
        2 => {
            let e = s.v[1].w - s.v[0].w;
            let len = e.length();
            if len > 0.0 {
                let n = e.left_perp() * (1.0 / len);
                let along = n.dot(s.v[0].w);
                if along < 0.0 {
                    (Some(-n), -along)
                } else {
                    (Some(n), along)
                }
            } else {
                (None, (wb - wa).length())
            }
        }
        _ => (None, 0.0),
    };
    cache.count = s.count as u16;
    for i in 0..3 {
        cache.index_a[i] = if i < s.count { s.v[i].ia() } else { 0 };
        cache.index_b[i] = if i < s.count { s.v[i].ib() } else { 0 };
    }
    GjkResult {
        pa: wa,
        pb: wb,
        normal: if overlap { None } else { normal },
        distance: if overlap { 0.0 } else { distance },
        iterations,
        converged,
        overlap,
    }
}

/// Distance between two shapes placed at `xfa` and `xfb`, with a warm-start cache.
///
/// Runs in A's frame; outputs are world space. See [`DistanceOutput`] for what each field
/// means in each [`DistanceStatus`].
#[must_use]
pub fn shape_distance(
    a: &Shape,
    xfa: Transform,
    b: &Shape,
    xfb: Transform,
    cache: &mut SimplexCache,
) -> DistanceOutput {
    proxy_distance(
        &ShapeProxy::from_shape(a),
        xfa,
        &ShapeProxy::from_shape(b),
        xfb,
        cache,
    )
}

/// Distance between two shape proxies placed at `xfa` and `xfb`, with a warm-start cache.
#[must_use]
pub fn proxy_distance(
    a: &ShapeProxy,
    xfa: Transform,
    b: &ShapeProxy,
    xfb: Transform,
    cache: &mut SimplexCache,
) -> DistanceOutput {
    let invalid = DistanceOutput {
        point_a: Vec2::ZERO,
        point_b: Vec2::ZERO,
        normal: Vec2::ZERO,
        distance: 0.0,
        iterations: 0,
        status: DistanceStatus::InvalidInput,
    };
    if !xfa.is_valid() || !xfb.is_valid() {
        return invalid;
    }
    let rel = xfa.inv_mul(xfb);
    let (Some(ea), Some((pb, eb))) = (a.check(), b.transformed(rel)) else {
        return invalid;
    };
    let r = gjk_scaled(a, &pb, cache, ea.max(eb));
    let (ra, rb) = (a.radius, pb.radius);
    let core = r.pb - r.pa;
    let core_dist = r.distance;
    let mut out = DistanceOutput {
        point_a: Vec2::ZERO,
        point_b: Vec2::ZERO,
        normal: Vec2::ZERO,
        distance: 0.0,
        iterations: r.iterations,
        status: DistanceStatus::Overlapping,
    };
    let n = if r.overlap {
        None
    } else {
        r.normal.or_else(|| core.try_normalize())
    };
    match n {
        Some(n) if core_dist > ra + rb => {
            out.normal = xfa.q.rotate(n);
            out.point_a = xfa.apply(r.pa + n * ra);
            out.point_b = xfa.apply(r.pb - n * rb);
            out.distance = core_dist - ra - rb;
            out.status = if r.converged {
                DistanceStatus::Separated
            } else {
                DistanceStatus::NotConverged
            };
        }
        _ => {
            // Overlapping (cores overlap, or the radii bridge the gap).
            if let Some(n) = n {
                out.normal = xfa.q.rotate(n);
            }
            let mid = xfa.apply((r.pa + r.pb) * 0.5);
            out.point_a = mid;
            out.point_b = mid;
            if !r.converged {
                out.status = DistanceStatus::NotConverged;
            }
        }
    }
    out
}
