//! Polygon–circle: the face of largest separation of the circle's centre, then the closest
//! vertex or the face itself; a centre inside the polygon is pushed out through the face of
//! least penetration. The decision is shared by the manifold and the overlap test.

use super::{
    make_id, point_in_frame, radii_ok, sanitize_margin, surface_midpoint, within, LocalManifold, Manifold,
    FEATURE_EDGE,
};
use crate::fmath;
use crate::geometry::{Circle, Polygon, MAX_POLYGON_VERTICES};
use crate::math::{Transform, Vec2};

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
            within(dist_sq, max_d).then_some((edge, sep, CircleRegion::Vertex(vi, v, dist_sq)))
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
            // (A squared distance below f32's normal range gives a direction of noise.)
            let n = if dist_sq >= f32::MIN_POSITIVE {
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

/// True when a polygon and a circle overlap or touch.
#[must_use]
pub fn overlaps_polygon_circle(a: &Polygon, xfa: Transform, b: &Circle, xfb: Transform) -> bool {
    point_in_frame(xfa, xfb, b.center).is_some_and(|c| polygon_circle_decide(a, b, c, 0.0).is_some())
}
