//! Boolean overlap tests for every pair of kinds, AABB included.
//!
//! Touching counts as overlapping. Each test makes the same decision, with the same arithmetic
//! in the same frame, as the matching manifold function, so
//! `overlaps(a, xa, b, xb) == (collide(a, xa, b, xb).count > 0)` holds bit for bit.
//! Non-finite input gives `false`.

use crate::geometry::{Capsule, Circle, Polygon, Shape};
use crate::manifold::{
    box_pair_decide, capsule_as_circle, capsule_circle_decide, capsules_local, pair_frame, point_in_frame,
    polygon_circle_decide, polygon_pair_frames, polygon_verdict, BoxPair, LocalPoly, PolyVerdict,
};
use crate::math::{Aabb, Transform};

/// True when two circles overlap or touch.
#[must_use]
pub fn overlaps_circles(a: &Circle, xfa: Transform, b: &Circle, xfb: Transform) -> bool {
    crate::manifold::circle_pair(a, xfa, b, xfb, 0.0).is_some()
}

/// True when a capsule and a circle overlap or touch.
#[must_use]
pub fn overlaps_capsule_circle(a: &Capsule, xfa: Transform, b: &Circle, xfb: Transform) -> bool {
    point_in_frame(xfa, xfb, b.center).is_some_and(|c| capsule_circle_decide(a, b, c, 0.0).is_some())
}

/// True when two capsules overlap or touch.
#[must_use]
pub fn overlaps_capsules(a: &Capsule, xfa: Transform, b: &Capsule, xfb: Transform) -> bool {
    pair_frame(xfa, xfb).is_some_and(|xf| capsules_local(a, b, xf, 0.0).0.count > 0)
}

/// True when a polygon and a circle overlap or touch.
#[must_use]
pub fn overlaps_polygon_circle(a: &Polygon, xfa: Transform, b: &Circle, xfb: Transform) -> bool {
    point_in_frame(xfa, xfb, b.center).is_some_and(|c| polygon_circle_decide(a, b, c, 0.0).is_some())
}

/// True when a polygon and a capsule overlap or touch.
#[must_use]
pub fn overlaps_polygon_capsule(a: &Polygon, xfa: Transform, b: &Capsule, xfb: Transform) -> bool {
    let Some(xf) = pair_frame(xfa, xfb) else {
        return false;
    };
    if let Some(circle) = capsule_as_circle(b) {
        return polygon_circle_decide(a, &circle, xf.apply(circle.center), 0.0).is_some();
    }
    if !(b.radius >= 0.0) {
        return false;
    }
    let (_, sa, sb) = polygon_pair_frames(a, xf);
    match (LocalPoly::from_polygon(a, sa), LocalPoly::from_capsule(b, sb)) {
        (Some(la), Some(lb)) => !matches!(polygon_verdict(&la, &lb, 0.0), PolyVerdict::Apart),
        _ => false,
    }
}

/// True when two polygons overlap or touch (SAT; exact distance for rounded polygons).
#[must_use]
pub fn overlaps_polygons(a: &Polygon, xfa: Transform, b: &Polygon, xfb: Transform) -> bool {
    let Some(xf) = pair_frame(xfa, xfb) else {
        return false;
    };
    match box_pair_decide(a, b, xf, 0.0) {
        BoxPair::Apart => return false,
        BoxPair::Touching(_) => return true,
        BoxPair::Unknown => {}
    }
    let (_, sa, sb) = polygon_pair_frames(a, xf);
    match (LocalPoly::from_polygon(a, sa), LocalPoly::from_polygon(b, sb)) {
        (Some(la), Some(lb)) => !matches!(polygon_verdict(&la, &lb, 0.0), PolyVerdict::Apart),
        _ => false,
    }
}

/// True when two shapes overlap or touch.
#[must_use]
pub fn overlaps(a: &Shape, xfa: Transform, b: &Shape, xfb: Transform) -> bool {
    use Shape::*;
    match (a, b) {
        (Circle(a), Circle(b)) => overlaps_circles(a, xfa, b, xfb),
        (Capsule(a), Circle(b)) => overlaps_capsule_circle(a, xfa, b, xfb),
        (Circle(a), Capsule(b)) => overlaps_capsule_circle(b, xfb, a, xfa),
        (Capsule(a), Capsule(b)) => overlaps_capsules(a, xfa, b, xfb),
        (Polygon(a), Circle(b)) => overlaps_polygon_circle(a, xfa, b, xfb),
        (Circle(a), Polygon(b)) => overlaps_polygon_circle(b, xfb, a, xfa),
        (Polygon(a), Capsule(b)) => overlaps_polygon_capsule(a, xfa, b, xfb),
        (Capsule(a), Polygon(b)) => overlaps_polygon_capsule(b, xfb, a, xfa),
        (Polygon(a), Polygon(b)) => overlaps_polygons(a, xfa, b, xfb),
    }
}

/// True when two world-space AABBs overlap or touch.
#[inline]
#[must_use]
pub fn overlaps_aabbs(a: Aabb, b: Aabb) -> bool {
    a.overlaps(b)
}

/// True when a world-space AABB and a circle placed at `xf` overlap or touch.
#[must_use]
pub fn overlaps_aabb_circle(a: Aabb, b: &Circle, xf: Transform) -> bool {
    if !a.is_valid() || !(b.radius >= 0.0) {
        return false;
    }
    let c = xf.apply(b.center);
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
