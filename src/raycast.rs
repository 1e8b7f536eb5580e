//! Ray casts against every shape kind and against world-space AABBs.
//!
//! A ray is `origin + t * translation` for `t` in `[0, max_fraction]`. A hit reports the
//! smallest such `t` (`fraction`), the world point and the world unit surface normal there.
//!
//! Rules, the same for every shape:
//! - A ray whose origin lies inside a shape **or on its boundary** reports no hit (as Box2D).
//! - A zero-length translation reports no hit.
//! - Grazing counts: a ray that touches a shape tangentially hits it at the touching point.
//! - Non-finite input, a negative or NaN `max_fraction` report no hit.
//! - Segments (capsules of radius 0) have no inside, so the rule above does not apply to them:
//!   a ray crossing one hits it, with the normal of the side facing the ray; a ray starting on
//!   one hits it at fraction `+0.0` (as Box2D's `b2RayCastSegment`); a ray running exactly
//!   along a segment's line hits the end it reaches first (or at `+0.0` when it starts on the
//!   segment), with the normal opposing the ray (Box2D reports no hit for such a ray).

use crate::fmath;
use crate::geometry::{capsule_as_circle, Capsule, ChainSegment, Circle, Polygon, Shape};
pub use crate::math::Ray;
use crate::math::{Aabb, Transform, Vec2};
use bytemuck::{Pod, Zeroable};

/// Where a ray hits a shape.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayHit {
    /// World hit point `origin + fraction * translation`.
    pub point: Vec2,
    /// World unit surface normal at the hit point, pointing out of the shape (against the ray).
    pub normal: Vec2,
    /// Fraction of the translation, in `[0, max_fraction]`.
    pub fraction: f32,
}

/// The ray in a shape's local frame, validated.
#[derive(Clone, Copy)]
struct LocalRay {
    o: Vec2,
    d: Vec2,
    max: f32,
}

#[inline]
fn local_ray(xf: Transform, ray: &Ray) -> Option<LocalRay> {
    // Rejects NaN and negative fractions (an infinite one fails the finiteness test below).
    if !(ray.max_fraction >= 0.0 && xf.is_valid()) {
        return None;
    }
    let o = xf.inv_apply(ray.origin);
    let d = xf.q.inv_rotate(ray.translation);
    // `v * 0` is 0 for finite v and NaN otherwise: one test for the four coordinates and the
    // fraction (a range compare on the fraction compiles to float classification).
    let finite = o.x * 0.0 + o.y * 0.0 + d.x * 0.0 + d.y * 0.0 + ray.max_fraction * 0.0 == 0.0;
    if !finite || !(d.length_squared() > 0.0) {
        return None;
    }
    Some(LocalRay {
        o,
        d,
        max: ray.max_fraction,
    })
}

fn to_world(xf: Transform, ray: &Ray, t: f32, n: Vec2) -> RayHit {
    RayHit {
        point: ray.origin.mul_add(t, ray.translation),
        normal: xf.q.rotate(n),
        fraction: t,
    }
}

/// Local-space hit of a circle (centre `c`, radius `r`) by a ray starting outside it:
/// returns (t, normal). Uses the closest-approach form, accurate for long rays.
#[inline]
fn circle_hit(c: Vec2, r: f32, ray: &LocalRay) -> Option<(f32, Vec2)> {
    let (u, len) = ray.d.normalize_and_length();
    circle_hit_unit(c, r, ray, u, len)
}

/// [`circle_hit`] with the ray direction already split into unit `u` and length `len`.
#[inline]
fn circle_hit_unit(c: Vec2, r: f32, ray: &LocalRay, u: Vec2, len: f32) -> Option<(f32, Vec2)> {
    if u == Vec2::ZERO {
        return None;
    }
    let s = ray.o - c;
    // Distance along the ray to the closest approach, and the squared miss distance there.
    let along = -s.dot(u);
    let perp = s.mul_add(along, u);
    let h2 = r * r - perp.length_squared();
    if h2 < 0.0 {
        return None;
    }
    let h = fmath::sqrt(h2);
    let t = (along - h) / len;
    if !(t >= 0.0 && t <= ray.max) {
        return None;
    }
    // The hit point relative to the centre is perp − h·u, of length r: the unit normal
    // without another square root.
    // (For a radius below ~1e-19, r² leaves f32's normal range and the division with it: such a
    // cap is a point, whose normal opposes the ray.)
    let n = if r * r >= f32::MIN_POSITIVE {
        let w = perp - u * h;
        let n = w * (1.0 / r);
        // An origin far from a small circle (5e5 away from a radius of 0.2) leaves `w` only a
        // few ulps of the origin accurate, so its length can be off by percents: renormalise
        // then (rarely; the test is one dot product).
        if (n.dot(n) - 1.0).abs() <= 1.0e-4 {
            n
        } else {
            w.try_normalize().unwrap_or(-u)
        }
    } else {
        -u
    };
    Some((t, n))
}

/// Hit of the front side (normal `n`, facing against the ray) of segment `p`–`q`.
fn side_hit(p: Vec2, q: Vec2, n: Vec2, ray: &LocalRay) -> Option<f32> {
    let den = n.dot(ray.d);
    if !(den < 0.0) {
        return None;
    }
    let t = n.dot(p - ray.o) / den;
    if !(t >= 0.0 && t <= ray.max) {
        return None;
    }
    let hit = ray.o.mul_add(t, ray.d);
    let e = q - p;
    let s = (hit - p).dot(e);
    if s < 0.0 || s > e.dot(e) {
        return None;
    }
    Some(t)
}

fn best(a: Option<(f32, Vec2)>, b: Option<(f32, Vec2)>) -> Option<(f32, Vec2)> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Ray cast against a circle placed at `xf`.
#[must_use]
pub fn ray_cast_circle(c: &Circle, xf: Transform, ray: &Ray) -> Option<RayHit> {
    let lr = local_ray(xf, ray)?;
    if !(c.radius >= 0.0) || lr.o.distance_squared(c.center) <= c.radius * c.radius {
        return None;
    }
    circle_hit(c.center, c.radius, &lr).map(|(t, n)| to_world(xf, ray, t, n))
}

/// Ray cast against a capsule (or segment) placed at `xf`.
///
/// Worked in the segment's own frame, scaled by its length (no normalisation until a hit):
/// the capsule is the slab of half-width `r` about the segment's line, cut off by the end
/// disks. From outside, the ray enters a convex shape once. If it starts above the flat side
/// facing it, it crosses that side's line first: it hits the side there, or else only the
/// end cap beyond which it crossed can be hit. If it starts within the slab, only the cap
/// of the end it lies beyond can be hit. So at most one side and one cap are tested.
#[must_use]
// Plain compares (a range's `contains` compiles to float classification).
#[allow(clippy::manual_range_contains)]
pub fn ray_cast_capsule(c: &Capsule, xf: Transform, ray: &Ray) -> Option<RayHit> {
    if let Some(circle) = capsule_as_circle(c) {
        return ray_cast_circle(&circle, xf, ray);
    }
    let lr = local_ray(xf, ray)?;
    let r = c.radius;
    if !(r >= 0.0) {
        return None;
    }
    let (p, q) = (c.center1, c.center2);
    let e = q - p;
    let l2 = e.dot(e);
    let len = fmath::sqrt(l2);
    // (A squared length below f32's normal range cannot give a unit side normal.)
    if !(l2 >= f32::MIN_POSITIVE && l2 < f32::INFINITY) {
        return None;
    }
    // Along the segment and across it, both times `len`.
    let w = e.right_perp();
    let rel = lr.o - p;
    let along = rel.dot(e);
    let cross_d = lr.d.dot(w);
    // The side whose outward normal faces the ray, the origin's height above its centre
    // line and the ray's rate towards it (negative when approaching).
    let (side, height, rate) = if cross_d < 0.0 {
        (w, rel.dot(w), cross_d)
    } else {
        (-w, -rel.dot(w), -cross_d)
    };
    let rl = r * len;
    if r == 0.0 && rate == 0.0 && height == 0.0 {
        return collinear_segment_hit(xf, ray, &lr, along, l2, e, len);
    }
    // A segment has no inside: an origin on it still hits the facing side at t = +0.
    let above = if r > 0.0 { height > rl } else { height >= 0.0 };
    let cap = if rate < 0.0 && above {
        // `+ 0.0` turns the -0.0 of an origin on a segment (height -0.0) into +0.0.
        let t = (height - rl) / -rate + 0.0;
        if !(t <= lr.max) {
            return None;
        }
        let s = along + t * lr.d.dot(e);
        if s >= 0.0 && s <= l2 {
            return Some(to_world(xf, ray, t, side * (1.0 / len)));
        }
        if !(r > 0.0) {
            return None;
        }
        if s < 0.0 {
            p
        } else {
            q
        }
    } else {
        // Not approaching the facing side from above it: only an origin within the slab
        // can enter, through the cap of the end it lies beyond (between the ends it is
        // inside).
        if !(r > 0.0) || !(height.abs() <= rl) {
            return None;
        }
        let cap = if along < 0.0 {
            p
        } else if along > l2 {
            q
        } else {
            return None;
        };
        if lr.o.distance_squared(cap) <= r * r {
            return None;
        }
        cap
    };
    circle_hit(cap, r, &lr).map(|(t, n)| to_world(xf, ray, t, n))
}

/// A ray running exactly along a segment's line (`along` is the origin's position on it times
/// the length, `l2` the squared length, `e` the segment's direction): an origin on the segment
/// hits at `+0.0`; an origin before one end, moving towards it, hits that end; the normal
/// opposes the ray (it points out of the end the ray meets).
fn collinear_segment_hit(
    xf: Transform,
    ray: &Ray,
    lr: &LocalRay,
    along: f32,
    l2: f32,
    e: Vec2,
    len: f32,
) -> Option<RayHit> {
    let speed = lr.d.dot(e);
    let n = (if speed > 0.0 { -e } else { e }) * (1.0 / len);
    let t = if (0.0..=l2).contains(&along) {
        0.0
    } else if along < 0.0 && speed > 0.0 {
        -along / speed
    } else if along > l2 && speed < 0.0 {
        (l2 - along) / speed
    } else {
        return None;
    };
    (t <= lr.max).then(|| to_world(xf, ray, t, n))
}

/// Ray cast against a polygon (sharp or rounded) placed at `xf`.
#[must_use]
pub fn ray_cast_polygon(poly: &Polygon, xf: Transform, ray: &Ray) -> Option<RayHit> {
    let count = poly.count as usize;
    if !(3..=crate::MAX_POLYGON_VERTICES).contains(&count) || !(poly.radius >= 0.0) {
        return None;
    }
    let lr = local_ray(xf, ray)?;
    let v = &poly.vertices[..count];
    let nrm = &poly.normals[..count];
    if poly.radius > 0.0 {
        // Rounded: the exact boundary is the edges pushed out by the radius plus a circle at
        // every vertex.
        let r = poly.radius;
        if poly.contains_point(Transform::IDENTITY, lr.o) {
            return None;
        }
        let mut hit = None;
        for i in 0..count {
            let j = if i + 1 < count { i + 1 } else { 0 };
            let off = nrm[i] * r;
            hit = best(
                hit,
                side_hit(v[i] + off, v[j] + off, nrm[i], &lr).map(|t| (t, nrm[i])),
            );
            hit = best(hit, circle_hit(v[i], r, &lr));
        }
        return hit.map(|(t, n)| to_world(xf, ray, t, n));
    }
    // Sharp: clip the ray against every edge's half plane (Cyrus–Beck). The bounds are kept
    // as fractions `lower = ln / ld` (ld < 0, entering edges) and `upper = un / ud` (ud > 0,
    // leaving edges) and compared by cross-multiplying, so the loop has no division; the one
    // division is the hit fraction at the end.
    let (mut ln, mut ld) = (0.0f32, -1.0f32);
    let (mut un, mut ud) = (lr.max, 1.0f32);
    let mut index = usize::MAX;
    for i in 0..count {
        let num = nrm[i].dot(v[i] - lr.o);
        let den = nrm[i].dot(lr.d);
        // The interval can only empty when a bound moves; upper >= lower ⇔ un·ld <= ln·ud
        // (ud > 0 > ld).
        if den < 0.0 {
            // Entering: num/den > ln/ld.
            if num * ld > ln * den {
                (ln, ld, index) = (num, den, i);
                if !(un * ld <= ln * ud) {
                    return None;
                }
            }
        } else if den > 0.0 {
            // Leaving: num/den < un/ud.
            if num * ud < un * den {
                (un, ud) = (num, den);
                if !(un * ld <= ln * ud) {
                    return None;
                }
            }
        } else if !(num >= 0.0) {
            return None; // parallel and outside this edge (or NaN)
        }
    }
    // No entering edge: the origin is inside or on the boundary.
    if index == usize::MAX {
        return None;
    }
    Some(to_world(xf, ray, ln / ld, nrm[index]))
}

/// Ray cast against any shape placed at `xf`.
#[must_use]
pub fn ray_cast(s: &Shape, xf: Transform, ray: &Ray) -> Option<RayHit> {
    match s {
        Shape::Circle(c) => ray_cast_circle(c, xf, ray),
        Shape::Capsule(c) => ray_cast_capsule(c, xf, ray),
        Shape::Polygon(p) => ray_cast_polygon(p, xf, ray),
        Shape::ChainSegment(c) => ray_cast_chain_segment(c, xf, ray),
    }
}

/// Ray cast against a one-sided chain segment placed at `xf`: only a ray coming from the front
/// side (the side of [`ChainSegment::normal`]) and moving against the normal hits, with that
/// normal; a ray from behind, or running along the segment's line, passes (Box2D's
/// `b2RayCastSegment` with `oneSided`, except that Box2D also lets a ray that starts in front
/// and moves away report nothing, which is the same here). An origin exactly on the segment
/// moving into the back side hits at fraction 0.
#[must_use]
pub fn ray_cast_chain_segment(c: &ChainSegment, xf: Transform, ray: &Ray) -> Option<RayHit> {
    let lr = local_ray(xf, ray)?;
    let n = c.normal();
    if n == Vec2::ZERO {
        return None; // too short to have a direction (see ChainSegment::new)
    }
    let t = side_hit(c.point1, c.point2, n, &lr)?;
    Some(to_world(xf, ray, t, n))
}

/// Ray cast against a world-space AABB (slab method). Same rules as the shapes.
#[must_use]
pub fn ray_cast_aabb(b: Aabb, ray: &Ray) -> Option<RayHit> {
    if !b.is_valid() {
        return None;
    }
    let lr = local_ray(Transform::IDENTITY, ray)?;
    let mut lower = 0.0f32;
    let mut upper = lr.max;
    let mut normal = None;
    for axis in 0..2 {
        let (o, d, lo, hi) = if axis == 0 {
            (lr.o.x, lr.d.x, b.min.x, b.max.x)
        } else {
            (lr.o.y, lr.d.y, b.min.y, b.max.y)
        };
        let (n_lo, n_hi) = if axis == 0 {
            (Vec2::new(-1.0, 0.0), Vec2::X)
        } else {
            (Vec2::new(0.0, -1.0), Vec2::Y)
        };
        if d == 0.0 {
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let (t_enter, t_exit, n) = if d > 0.0 {
            ((lo - o) / d, (hi - o) / d, n_lo)
        } else {
            ((hi - o) / d, (lo - o) / d, n_hi)
        };
        if t_enter > lower {
            lower = t_enter;
            normal = Some(n);
        }
        upper = upper.min(t_exit);
        if !(upper >= lower) {
            return None;
        }
    }
    // Entering at t = 0 means the origin was on the boundary: no hit, as for every shape.
    let n = normal?;
    if lower <= 0.0 {
        return None;
    }
    Some(to_world(Transform::IDENTITY, ray, lower, n))
}
