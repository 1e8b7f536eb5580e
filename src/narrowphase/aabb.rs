//! A world-space AABB against every kind: the box becomes a polygon (or, flat, a segment; a
//! point, a circle of radius 0) at the identity transform and goes through the pair tests.

use super::{overlaps, radii_ok};
use crate::geometry::{Capsule, Circle, Polygon, Shape};
use crate::math::{Aabb, Transform};

/// True when two world-space AABBs overlap or touch.
#[inline]
#[must_use]
pub fn overlaps_aabbs(a: Aabb, b: Aabb) -> bool {
    a.overlaps(b)
}

/// True when a world-space AABB and a circle placed at `xf` overlap or touch. Validated as the
/// pair queries are: an invalid box, transform (see [`Transform::is_valid`]), centre or radius
/// gives `false`.
#[must_use]
pub fn overlaps_aabb_circle(a: Aabb, b: &Circle, xf: Transform) -> bool {
    if !(a.is_valid() && xf.is_valid() && radii_ok(b.radius, 0.0)) {
        return false;
    }
    let c = xf.apply(b.center);
    // A non-finite centre makes the squared distance NaN or infinite: false.
    a.closest_point(c).distance_squared(c) <= b.radius * b.radius
}

/// True when a world-space AABB and a capsule placed at `xf` overlap or touch.
#[must_use]
pub fn overlaps_aabb_capsule(a: Aabb, b: &Capsule, xf: Transform) -> bool {
    overlaps_aabb_shape(a, &Shape::Capsule(*b), xf)
}

/// True when a world-space AABB and a polygon placed at `xf` overlap or touch.
#[must_use]
pub fn overlaps_aabb_polygon(a: Aabb, b: &Polygon, xf: Transform) -> bool {
    overlaps_aabb_shape(a, &Shape::Polygon(*b), xf)
}

/// True when a world-space AABB and any shape placed at `xf` overlap or touch.
///
/// A box with area is treated as a polygon at the identity transform; a flat box (zero width
/// or height) as a segment, and a point box as a zero-radius circle, so the test stays exact.
#[must_use]
pub fn overlaps_aabb_shape(a: Aabb, b: &Shape, xf: Transform) -> bool {
    if let Shape::Circle(c) = b {
        return overlaps_aabb_circle(a, c, xf);
    }
    if let Shape::ChainSegment(c) = b {
        // A region query: the box against the two-sided segment.
        return overlaps_aabb_capsule(a, &c.segment(), xf);
    }
    if !a.is_valid() {
        return false;
    }
    let id = Transform::IDENTITY;
    let box_shape = if a.min.x < a.max.x && a.min.y < a.max.y {
        match Polygon::from_aabb(a) {
            Ok(p) => Shape::Polygon(p),
            Err(_) => return false,
        }
    } else if a.min == a.max {
        Shape::Circle(Circle {
            center: a.min,
            radius: 0.0,
        })
    } else {
        Shape::Capsule(Capsule {
            center1: a.min,
            center2: a.max,
            radius: 0.0,
        })
    };
    overlaps(&box_shape, id, b, xf)
}
