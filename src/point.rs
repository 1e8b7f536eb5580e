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

use crate::geometry::{capsule_as_circle, Shape, MAX_POLYGON_VERTICES};
use crate::math::{Transform, Vec2};
use crate::segment::closest_point_on_segment;
use bytemuck::{Pod, Zeroable};

/// The closest surface point of a shape to a query point (see the [module docs](self)).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
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

/// Around a core point `q` with radius `r`: the projection of local point `p` (`fallback`
/// normal when `p` is on `q`).
fn round(q: Vec2, r: f32, p: Vec2, fallback: Vec2) -> (Vec2, Vec2, f32) {
    let d = p - q;
    let len = d.length();
    let n = if len > 0.0 && (d * (1.0 / len)).is_finite() {
        d * (1.0 / len)
    } else {
        fallback
    };
    (q.mul_add(r, n), n, len - r)
}

/// The closest point of `shape` (placed at `xf`) to the world point `p`, with the signed
/// distance and the outward normal there; `None` for invalid input (see the [module
/// docs](self)).
#[must_use]
pub fn closest_point(shape: &Shape, xf: Transform, p: Vec2) -> Option<PointProjection> {
    if !xf.is_valid() || !p.is_finite() {
        return None;
    }
    let lp = xf.inv_apply(p);
    let (point, normal, distance) = match shape {
        Shape::Circle(c) => {
            if !(c.radius >= 0.0) || !c.center.is_finite() {
                return None;
            }
            round(c.center, c.radius, lp, Vec2::X)
        }
        Shape::Capsule(c) => {
            if !(c.radius >= 0.0) || !c.center1.is_finite() || !c.center2.is_finite() {
                return None;
            }
            if let Some(circle) = capsule_as_circle(c) {
                round(circle.center, circle.radius, lp, Vec2::X)
            } else {
                let q = closest_point_on_segment(c.center1, c.center2, lp);
                let left = (c.center2 - c.center1).left_perp().normalize_or_zero();
                round(q, c.radius, lp, left)
            }
        }
        Shape::ChainSegment(c) => {
            if !(c.point1.is_finite() && c.point2.is_finite()) || c.point1 == c.point2 {
                return None;
            }
            let q = closest_point_on_segment(c.point1, c.point2, lp);
            round(q, 0.0, lp, c.normal())
        }
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
                round(best.1, poly.radius, lp, nrm[face])
            }
        }
    };
    let world_point = xf.apply(point);
    let world_normal = xf.q.rotate(normal);
    let out = PointProjection {
        point: world_point,
        normal: world_normal,
        distance,
        inside: u32::from(distance <= 0.0),
    };
    (out.point.is_finite() && out.normal.is_finite() && out.distance.is_finite()).then_some(out)
}
