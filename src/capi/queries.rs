//! Queries between shapes: overlap, manifolds, ray casts, distance, shape casts and time of
//! impact, both through `c2d_Shape` (dispatch on the tag) and as typed per-pair functions in
//! canonical order (no dispatch, for C callers who know their shape kinds), plus shape
//! proxies, proxy distance and sweep interpolation.

use super::status::{read, read_pair, read_shape, write, Checked, Status};
use crate::cast::shape_cast;
use crate::cast::CastOutput;
use crate::distance::{proxy_distance, shape_distance, DistanceOutput, ShapeProxy, SimplexCache};
use crate::geometry::{Capsule, Circle, Polygon, Shape};
use crate::math::{Aabb, Ray, Transform, Vec2};
use crate::narrowphase::{self as np, collide_with_margin, overlaps, Manifold};
use crate::point::{closest_point, PointProjection};
use crate::raycast::{ray_cast, RayHit};
use crate::toi::{time_of_impact, Sweep, ToiOutput};

/// Overlap test between two shapes; writes `*out_overlaps`.
///
/// # Safety
/// Every pointer must be NULL or point to a readable (inputs) / writable (output) value of its
/// type.
#[no_mangle]
pub unsafe extern "C" fn c2d_overlaps(
    a: *const Shape,
    xa: *const Transform,
    b: *const Shape,
    xb: *const Transform,
    out_overlaps: *mut bool,
) -> Status {
    // SAFETY: each pointer is checked by `read_pair`; readability is the caller's contract.
    let (a, xa, b, xb) = match unsafe { read_pair(a, xa, b, xb) } {
        Ok(v) => v,
        Err(e) => return e,
    };
    // SAFETY: `out_overlaps` is checked by `write`; writability is the caller's contract.
    unsafe { write(out_overlaps, overlaps(&a, xa, &b, xb)) }
}

/// Contact manifold between two shapes with a speculative `margin` (0 for plain contact);
/// writes `*out`. See the header's conventions for frames, directions and signs.
///
/// # Safety
/// Every pointer must be NULL or point to a readable (inputs) / writable (output) value of its
/// type.
#[no_mangle]
pub unsafe extern "C" fn c2d_collide(
    a: *const Shape,
    xa: *const Transform,
    b: *const Shape,
    xb: *const Transform,
    margin: f32,
    out: *mut Manifold,
) -> Status {
    // SAFETY: each pointer is checked by `read_pair`; readability is the caller's contract.
    let (a, xa, b, xb) = match unsafe { read_pair(a, xa, b, xb) } {
        Ok(v) => v,
        Err(e) => return e,
    };
    // SAFETY: `out` is checked by `write`; writability is the caller's contract.
    unsafe { write(out, collide_with_margin(&a, xa, &b, xb, margin)) }
}

/// Ray cast against a shape placed at `xf`. Writes `*out_hit` (true on a hit) and, on a hit,
/// `*out`.
///
/// # Safety
/// Every pointer must be NULL or point to a readable (inputs) / writable (outputs) value of
/// its type.
#[no_mangle]
pub unsafe extern "C" fn c2d_ray_cast(
    shape: *const Shape,
    xf: *const Transform,
    ray: *const Ray,
    out_hit: *mut bool,
    out: *mut RayHit,
) -> Status {
    if out_hit.is_null() || out.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: each pointer is checked by the helpers; readability is the caller's contract.
    let (s, xf, ray) = match unsafe { (read_shape(shape), read(xf), read(ray)) } {
        (Ok(s), Ok(xf), Ok(r)) => (s, xf, r),
        (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => return e,
    };
    let hit = ray_cast(&s, xf, &ray);
    if let Some(h) = hit {
        // SAFETY: `out` checked non-null above; writability is the caller's contract.
        unsafe { write(out, h) };
    }
    // SAFETY: `out_hit` checked non-null above; writability is the caller's contract.
    unsafe { write(out_hit, hit.is_some()) }
}

/// The closest point of a shape's surface (placed at `xf`) to world point `p`, with the signed
/// distance (`< 0` inside) and the outward unit normal there (Rust: `closest_point`). Writes
/// `*out`; `C2D_STATUS_NON_FINITE` for a non-finite point or transform (or a shape that gives
/// no answer).
///
/// # Safety
/// Every pointer must be NULL or point to a readable (inputs) / writable (output) value.
#[no_mangle]
pub unsafe extern "C" fn c2d_closest_point(
    shape: *const Shape,
    xf: *const Transform,
    p: Vec2,
    out: *mut PointProjection,
) -> Status {
    if out.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: each pointer is checked by the helpers; readability is the caller's contract.
    let (s, xf) = match unsafe { (read_shape(shape), read(xf)) } {
        (Ok(s), Ok(xf)) => (s, xf),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    match closest_point(&s, xf, p) {
        // SAFETY: `out` checked non-null; writability is the caller's contract.
        Some(proj) => unsafe { write(out, proj) },
        None => Status::NonFinite,
    }
}

/// GJK distance between two shapes. `cache` may be NULL (cold start) or point to a
/// zero-initialised `c2d_SimplexCache` kept per pair. Writes `*out`.
///
/// # Safety
/// Every pointer must be NULL (where allowed) or point to a valid value of its type.
#[no_mangle]
pub unsafe extern "C" fn c2d_shape_distance(
    a: *const Shape,
    xa: *const Transform,
    b: *const Shape,
    xb: *const Transform,
    cache: *mut SimplexCache,
    out: *mut DistanceOutput,
) -> Status {
    // SAFETY: each pointer is checked by `read_pair`; readability is the caller's contract.
    let (a, xa, b, xb) = match unsafe { read_pair(a, xa, b, xb) } {
        Ok(v) => v,
        Err(e) => return e,
    };
    if out.is_null() {
        return Status::NullPointer;
    }
    let mut local = SimplexCache::default();
    // SAFETY: a non-null cache is readable and writable by the caller's contract; any bit
    // pattern is a valid SimplexCache (it is validated before use).
    let c = if cache.is_null() {
        &mut local
    } else {
        unsafe { &mut *cache }
    };
    // SAFETY: `out` checked non-null; writability is the caller's contract.
    unsafe { write(out, shape_distance(&a, xa, &b, xb, c)) }
}

/// Linear shape cast of A (moving by `translation_a`) against B (moving by `translation_b`),
/// stopping `target_distance` short of contact. Writes `*out`.
///
/// # Safety
/// Every pointer must be NULL or point to a valid value of its type.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn c2d_shape_cast(
    a: *const Shape,
    xa: *const Transform,
    translation_a: Vec2,
    b: *const Shape,
    xb: *const Transform,
    translation_b: Vec2,
    target_distance: f32,
    out: *mut CastOutput,
) -> Status {
    // SAFETY: each pointer is checked by `read_pair`; readability is the caller's contract.
    let (a, xa, b, xb) = match unsafe { read_pair(a, xa, b, xb) } {
        Ok(v) => v,
        Err(e) => return e,
    };
    let r = shape_cast(&a, xa, translation_a, &b, xb, translation_b, target_distance);
    // SAFETY: `out` is checked by `write`; writability is the caller's contract.
    unsafe { write(out, r) }
}

/// Time of impact of two shapes moving along sweeps with rotation. Writes `*out`.
///
/// # Safety
/// Every pointer must be NULL or point to a valid value of its type.
#[no_mangle]
pub unsafe extern "C" fn c2d_time_of_impact(
    a: *const Shape,
    sweep_a: *const Sweep,
    b: *const Shape,
    sweep_b: *const Sweep,
    max_fraction: f32,
    out: *mut ToiOutput,
) -> Status {
    // SAFETY: each pointer is checked by `read_pair`; readability is the caller's contract.
    let (a, sa, b, sb) = match unsafe { read_pair(a, sweep_a, b, sweep_b) } {
        Ok(v) => v,
        Err(e) => return e,
    };
    // SAFETY: `out` is checked by `write`; writability is the caller's contract.
    unsafe { write(out, time_of_impact(&a, &sa, &b, &sb, max_fraction)) }
}

/// Whether the world-space `*aabb` and the shape placed at `*xf` overlap or touch.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_overlaps_aabb_shape(
    aabb: *const Aabb,
    shape: *const Shape,
    xf: *const Transform,
    out_overlaps: *mut bool,
) -> Status {
    // SAFETY: checked by the helpers; readability is the caller's contract.
    match unsafe { (read(aabb), read_shape(shape), read(xf)) } {
        // SAFETY: `out_overlaps` is checked by `write`; writability is the caller's contract.
        (Ok(b), Ok(s), Ok(x)) => unsafe {
            write(out_overlaps, crate::overlap::overlaps_aabb_shape(b, &s, x))
        },
        (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => e,
    }
}

/// Ray cast against a world-space AABB. Writes `*out_hit` and, on a hit, `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_ray_cast_aabb(
    aabb: *const Aabb,
    ray: *const Ray,
    out_hit: *mut bool,
    out: *mut RayHit,
) -> Status {
    if out_hit.is_null() || out.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: checked by the helpers; readability is the caller's contract.
    let (b, r) = match unsafe { (read(aabb), read(ray)) } {
        (Ok(b), Ok(r)) => (b, r),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let hit = crate::raycast::ray_cast_aabb(b, &r);
    if let Some(h) = hit {
        // SAFETY: `out` checked non-null; writability is the caller's contract.
        unsafe { write(out, h) };
    }
    // SAFETY: `out_hit` checked non-null; writability is the caller's contract.
    unsafe { write(out_hit, hit.is_some()) }
}

/// Closest points between segments `p1`–`q1` and `p2`–`q2`.
///
/// # Safety
/// `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_segment_distance(
    p1: Vec2,
    q1: Vec2,
    p2: Vec2,
    q2: Vec2,
    out: *mut crate::distance::SegmentDistance,
) -> Status {
    // SAFETY: `out` is checked by `write`; writability is the caller's contract.
    unsafe { write(out, crate::distance::segment_distance(p1, q1, p2, q2)) }
}

/// Reads a typed pair and writes `f`'s result: the shared body of the typed functions.
///
/// # Safety
/// Each pointer must be NULL or valid for its type.
unsafe fn pair<A: Checked, B: Checked, R>(
    a: *const A,
    xa: *const Transform,
    b: *const B,
    xb: *const Transform,
    out: *mut R,
    f: impl FnOnce(&A, Transform, &B, Transform) -> R,
) -> Status {
    // SAFETY: every read checks for NULL; readability is the caller's contract.
    let (a, b) = (
        unsafe { read(a) }.and_then(A::checked),
        unsafe { read(b) }.and_then(B::checked),
    );
    let (a, xa, b, xb) = match (a, unsafe { read(xa) }, b, unsafe { read(xb) }) {
        (Ok(a), Ok(xa), Ok(b), Ok(xb)) => (a, xa, b, xb),
        (Err(e), ..) | (_, Err(e), ..) | (_, _, Err(e), _) | (.., Err(e)) => return e,
    };
    if out.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: `out` checked non-null; writability is the caller's contract.
    unsafe { write(out, f(&a, xa, &b, xb)) }
}

/// Manifold between two circles (see `c2d_collide`).
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_collide_circles(
    a: *const Circle,
    xa: *const Transform,
    b: *const Circle,
    xb: *const Transform,
    margin: f32,
    out: *mut Manifold,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        pair(a, xa, b, xb, out, |a, xa, b, xb| {
            np::collide_circles(a, xa, b, xb, margin)
        })
    }
}

/// Manifold between a capsule (A) and a circle (B).
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_collide_capsule_circle(
    a: *const Capsule,
    xa: *const Transform,
    b: *const Circle,
    xb: *const Transform,
    margin: f32,
    out: *mut Manifold,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        pair(a, xa, b, xb, out, |a, xa, b, xb| {
            np::collide_capsule_circle(a, xa, b, xb, margin)
        })
    }
}

/// Manifold between two capsules.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_collide_capsules(
    a: *const Capsule,
    xa: *const Transform,
    b: *const Capsule,
    xb: *const Transform,
    margin: f32,
    out: *mut Manifold,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        pair(a, xa, b, xb, out, |a, xa, b, xb| {
            np::collide_capsules(a, xa, b, xb, margin)
        })
    }
}

/// Manifold between a polygon (A) and a circle (B).
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_collide_polygon_circle(
    a: *const Polygon,
    xa: *const Transform,
    b: *const Circle,
    xb: *const Transform,
    margin: f32,
    out: *mut Manifold,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        pair(a, xa, b, xb, out, |a, xa, b, xb| {
            np::collide_polygon_circle(a, xa, b, xb, margin)
        })
    }
}

/// Manifold between a polygon (A) and a capsule (B).
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_collide_polygon_capsule(
    a: *const Polygon,
    xa: *const Transform,
    b: *const Capsule,
    xb: *const Transform,
    margin: f32,
    out: *mut Manifold,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        pair(a, xa, b, xb, out, |a, xa, b, xb| {
            np::collide_polygon_capsule(a, xa, b, xb, margin)
        })
    }
}

/// Manifold between two polygons.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_collide_polygons(
    a: *const Polygon,
    xa: *const Transform,
    b: *const Polygon,
    xb: *const Transform,
    margin: f32,
    out: *mut Manifold,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        pair(a, xa, b, xb, out, |a, xa, b, xb| {
            np::collide_polygons(a, xa, b, xb, margin)
        })
    }
}

/// Overlap of two circles (touching counts); writes `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_overlaps_circles(
    a: *const Circle,
    xa: *const Transform,
    b: *const Circle,
    xb: *const Transform,
    out: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe { pair(a, xa, b, xb, out, np::overlaps_circles) }
}

/// Overlap of a capsule (A) and a circle (B).
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_overlaps_capsule_circle(
    a: *const Capsule,
    xa: *const Transform,
    b: *const Circle,
    xb: *const Transform,
    out: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe { pair(a, xa, b, xb, out, np::overlaps_capsule_circle) }
}

/// Overlap of two capsules.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_overlaps_capsules(
    a: *const Capsule,
    xa: *const Transform,
    b: *const Capsule,
    xb: *const Transform,
    out: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe { pair(a, xa, b, xb, out, np::overlaps_capsules) }
}

/// Overlap of a polygon (A) and a circle (B).
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_overlaps_polygon_circle(
    a: *const Polygon,
    xa: *const Transform,
    b: *const Circle,
    xb: *const Transform,
    out: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe { pair(a, xa, b, xb, out, np::overlaps_polygon_circle) }
}

/// Overlap of a polygon (A) and a capsule (B).
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_overlaps_polygon_capsule(
    a: *const Polygon,
    xa: *const Transform,
    b: *const Capsule,
    xb: *const Transform,
    out: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe { pair(a, xa, b, xb, out, np::overlaps_polygon_capsule) }
}

/// Overlap of two polygons.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_overlaps_polygons(
    a: *const Polygon,
    xa: *const Transform,
    b: *const Polygon,
    xb: *const Transform,
    out: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe { pair(a, xa, b, xb, out, np::overlaps_polygons) }
}

/// Overlap of two AABBs (touching counts); writes `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_overlaps_aabbs(a: *const Aabb, b: *const Aabb, out: *mut bool) -> Status {
    // SAFETY: every read checks for NULL; readability is the caller's contract.
    match unsafe { (read(a), read(b)) } {
        // SAFETY: `write` checks `out`; writability is the caller's contract.
        (Ok(a), Ok(b)) => unsafe { write(out, np::overlaps_aabbs(a, b)) },
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// Builds the GJK proxy of a shape (its core points and radius); writes `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_make_proxy(shape: *const Shape, out: *mut ShapeProxy) -> Status {
    // SAFETY: the tag is validated before the shape is read; `write` checks `out`.
    match unsafe { read_shape(shape) } {
        Ok(s) => unsafe { write(out, ShapeProxy::from_shape(&s)) },
        Err(e) => e,
    }
}

/// GJK distance between two proxies placed at `*xa` and `*xb`; `cache` (may be NULL) warm
/// starts and is updated. Invalid proxies give `status = C2D_DISTANCE_STATUS_INVALID_INPUT`
/// in `*out`.
///
/// # Safety
/// Pointers must be NULL or valid; `cache`, when not NULL, readable and writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_proxy_distance(
    a: *const ShapeProxy,
    xa: *const Transform,
    b: *const ShapeProxy,
    xb: *const Transform,
    cache: *mut SimplexCache,
    out: *mut DistanceOutput,
) -> Status {
    let mut local = SimplexCache::default();
    // SAFETY: a non-null cache is readable and writable by the caller's contract; any bit
    // pattern is a valid SimplexCache (validated before use).
    let c = if cache.is_null() {
        &mut local
    } else {
        unsafe { &mut *cache }
    };
    // SAFETY: forwarded contract.
    unsafe { pair(a, xa, b, xb, out, |a, xa, b, xb| proxy_distance(a, xa, b, xb, c)) }
}

/// The transform of a sweep at `beta` in [0, 1]; writes `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_sweep_transform_at(
    sweep: *const Sweep,
    beta: f32,
    out: *mut Transform,
) -> Status {
    // SAFETY: `read` checks `sweep`, `write` checks `out`; validity is the caller's contract.
    match unsafe { read(sweep) } {
        Ok(s) => unsafe { write(out, s.transform_at(beta)) },
        Err(e) => e,
    }
}
