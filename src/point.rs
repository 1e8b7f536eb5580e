//! Point queries: the closest point of a shape's surface to a point, with the signed distance
//! and the surface normal there (Box2D's `b2Shape_GetClosestPoint`, parry's point projection
//! with `solid = false`).
//!
//! Rules, the same for every kind:
//! - `point` is the world point of the shape's **surface** (not its inside) nearest to `p`;
//! - `distance` is signed: `> 0` outside, `< 0` inside, `0` on the surface;
//! - `normal` is the world unit outward normal of the surface at `point` (for a point outside,
//!   the direction from `point` to `p`); for a point inside, the normal of the face (or round
//!   part) it is closest to;
//! - a point exactly at a circle's centre (or on a capsule's or rounded polygon's core, where
//!   every direction is as close) takes the shape's local +x axis for a circle, the core
//!   segment's left normal for a capsule, the face of least penetration for a polygon;
//! - a chain segment has no inside: its distance is the geometric (two-sided) distance to
//!   the segment, `>= 0`, with the normal pointing from the segment to `p` (the front normal
//!   when `p` lies on it);
//! - non-finite input, a negative radius or a polygon whose `count` is outside 3..=8 gives
//!   `None`.

use crate::geometry::{Shape, MAX_POLYGON_VERTICES};
use crate::math::{Transform, Vec2};
use crate::segment::closest_point_on_segment;
use bytemuck::{Pod, Zeroable};

/// The closest surface point of a shape to a query point (see the [module docs](self)).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PointProjection {
    /// World point on the shape's surface nearest to the query point.
    pub point: Vec2,
    /// World unit outward normal of the surface at `point`.
    pub normal: Vec2,
    /// Signed distance from the surface to the query point: `> 0` outside, `< 0` inside.
    pub distance: f32,
    /// 1 when the query point is inside the shape or on its surface (`distance <= 0`), else 0
    /// (a `u32` so the struct is plain data for C).
    pub inside: u32,
}

/// Around a core point `q` with radius `r`: the projection of point `p` (all in one frame),
/// `fallback()` the normal when `p` is on `q` (called only then).
#[inline]
fn round(q: Vec2, r: f32, p: Vec2, fallback: impl FnOnce() -> Vec2) -> (Vec2, Vec2, f32) {
    let d = p - q;
    let len = d.length();
    let inv = 1.0 / len;
    let n = if len > 0.0 && inv.is_finite() {
        d * inv
    } else {
        fallback()
    };
    (q.mul_add(r, n), n, len - r)
}

/// The point of segment `a`–`b` nearest to `p` (`a` for a degenerate segment: `t` is NaN,
/// and the clamps' compares send it to 0).
#[inline]
fn on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    let d = b - a;
    let along = (p - a).dot(d);
    let dd = d.dot(d);
    // Beyond either end no division is needed (and NaN, from a non-finite input, lands on
    // `a` through the last branch's clamps).
    if along <= 0.0 {
        return a;
    }
    if along >= dd {
        return b;
    }
    let t = along / dd;
    let t = if t > 0.0 { t } else { 0.0 };
    let t = if t < 1.0 { t } else { 1.0 };
    a.mul_add(t, d)
}

/// The projection from the round kinds' world-space parts.
#[inline]
fn finish(point: Vec2, normal: Vec2, distance: f32) -> Option<PointProjection> {
    let out = PointProjection {
        point,
        normal,
        distance,
        inside: u32::from(distance <= 0.0),
    };
    // One compare for all five: `x * 0` is 0 for finite x and NaN otherwise.
    let finite = (point.x + point.y + normal.x + normal.y + distance) * 0.0 == 0.0;
    finite.then_some(out)
}

/// The closest point of `shape` (placed at `xf`) to the world point `p`, with the signed
/// distance and the outward normal there; `None` for invalid input (see the [module
/// docs](self)).
#[must_use]
pub fn closest_point(shape: &Shape, xf: Transform, p: Vec2) -> Option<PointProjection> {
    if !xf.is_valid() || !p.is_finite() {
        return None;
    }
    // The round kinds work in world space (their parts moved there: fewer rotations than
    // moving the point in and the answer out); polygons in local space.
    match shape {
        Shape::Circle(c) => {
            if !(c.radius >= 0.0) || !c.center.is_finite() {
                return None;
            }
            let (point, normal, distance) = round(xf.apply(c.center), c.radius, p, || xf.q.rotate(Vec2::X));
            return finish(point, normal, distance);
        }
        Shape::Capsule(c) => {
            // Non-finite centres or query point come out as a non-finite answer, which
            // `finish` rejects; a degenerate capsule projects onto its first centre (`t` is
            // NaN, clamped to 0), a circle.
            if !(c.radius >= 0.0) {
                return None;
            }
            let (a, b) = (xf.apply(c.center1), xf.apply(c.center2));
            let q = on_segment(a, b, p);
            let (point, normal, distance) = round(q, c.radius, p, || {
                (b - a)
                    .left_perp()
                    .try_normalize()
                    .unwrap_or(xf.q.rotate(Vec2::X))
            });
            return finish(point, normal, distance);
        }
        Shape::ChainSegment(c) => {
            if !(c.point1.is_finite() && c.point2.is_finite()) || c.normal() == Vec2::ZERO {
                return None;
            }
            let (a, b) = (xf.apply(c.point1), xf.apply(c.point2));
            let q = closest_point_on_segment(a, b, p);
            let (point, normal, distance) = round(q, 0.0, p, || xf.q.rotate(c.normal()));
            return finish(point, normal, distance);
        }
        Shape::Polygon(_) => {}
    }
    let lp = xf.inv_apply(p);
    let (point, normal, distance) = match shape {
        Shape::Polygon(poly) => {
            let n = poly.count as usize;
            if !(3..=MAX_POLYGON_VERTICES).contains(&n) || !(poly.radius >= 0.0) {
                return None;
            }
            let (v, nrm) = (&poly.vertices[..n], &poly.normals[..n]);
            // The face of largest separation: if `lp` is inside the core, the face of least
            // penetration.
            let mut sep = f32::NEG_INFINITY;
            let mut face = 0;
            for i in 0..n {
                let s = nrm[i].dot(lp - v[i]);
                if s > sep {
                    sep = s;
                    face = i;
                }
            }
            if !sep.is_finite() {
                return None;
            }
            if sep <= 0.0 {
                // Inside the core: out through the nearest face.
                let nf = nrm[face];
                let q = lp.mul_add(-sep, nf);
                (q.mul_add(poly.radius, nf), nf, sep - poly.radius)
            } else {
                // Outside the core: the nearest point of its boundary.
                let mut best = (f32::INFINITY, Vec2::ZERO);
                for i in 0..n {
                    let q = closest_point_on_segment(v[i], v[(i + 1) % n], lp);
                    let d = q.distance_squared(lp);
                    if d < best.0 {
                        best = (d, q);
                    }
                }
                round(best.1, poly.radius, lp, || nrm[face])
            }
        }
        _ => return None,
    };
    finish(xf.apply(point), xf.q.rotate(normal), distance)
}
