//! The typed per-pair functions (canonical order, no dispatch on a tag), shape proxies,
//! proxy distance and sweep interpolation, for C callers who know their shape kinds.

use super::{read, write, Status};
use crate::cast::Sweep;
use crate::distance::{proxy_distance, DistanceOutput, ShapeProxy, SimplexCache};
use crate::geometry::{Capsule, Circle, Polygon, Shape};
use crate::manifold::{self, Manifold};
use crate::math::{Aabb, Transform};
use crate::overlap;

/// Reads a typed pair and writes `f`'s result: the shared body of the typed functions.
///
/// # Safety
/// Each pointer must be NULL or valid for its type.
unsafe fn pair<A: Copy, B: Copy, R>(
    a: *const A,
    xa: *const Transform,
    b: *const B,
    xb: *const Transform,
    out: *mut R,
    f: impl FnOnce(&A, Transform, &B, Transform) -> R,
) -> Status {
    // SAFETY: every read checks for NULL; readability is the caller's contract.
    let (a, xa, b, xb) = match unsafe { (read(a), read(xa), read(b), read(xb)) } {
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
            manifold::collide_circles(a, xa, b, xb, margin)
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
            manifold::collide_capsule_circle(a, xa, b, xb, margin)
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
            manifold::collide_capsules(a, xa, b, xb, margin)
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
            manifold::collide_polygon_circle(a, xa, b, xb, margin)
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
            manifold::collide_polygon_capsule(a, xa, b, xb, margin)
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
            manifold::collide_polygons(a, xa, b, xb, margin)
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
    unsafe { pair(a, xa, b, xb, out, overlap::overlaps_circles) }
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
    unsafe { pair(a, xa, b, xb, out, overlap::overlaps_capsule_circle) }
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
    unsafe { pair(a, xa, b, xb, out, overlap::overlaps_capsules) }
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
    unsafe { pair(a, xa, b, xb, out, overlap::overlaps_polygon_circle) }
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
    unsafe { pair(a, xa, b, xb, out, overlap::overlaps_polygon_capsule) }
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
    unsafe { pair(a, xa, b, xb, out, overlap::overlaps_polygons) }
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
        (Ok(a), Ok(b)) => unsafe { write(out, overlap::overlaps_aabbs(a, b)) },
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
    match unsafe { super::read_shape(shape) } {
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
