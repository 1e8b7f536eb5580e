//! The C ABI (feature `capi`): `c2d_*` functions over the same `#[repr(C)]` value types the
//! Rust API uses. The header `include/collide2d.h` is generated from this module by cbindgen.
//!
//! Rules: every pointer is checked for NULL; out-parameters are written only on success; a
//! `c2d_Shape` coming from C has its tag validated as an integer before it is read as a Rust
//! enum; nothing unwinds across the boundary (the core does not panic, and Rust aborts rather
//! than unwind out of an `extern "C"` function).

mod solver;
mod tree;
mod typed;
pub use solver::*;
pub use tree::*;
pub use typed::*;

use crate::geometry::{Capsule, Circle, GeometryError, Polygon, Shape, MAX_POLYGON_VERTICES};
use crate::manifold::{collide_with_margin, Manifold};
use crate::math::{Transform, Vec2};
use crate::overlap::overlaps;
use crate::raycast::{ray_cast, Ray, RayHit};

/// Result of every C ABI call. Values are stable and never reused.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Success; out-parameters were written.
    Ok = 0,
    /// A required pointer was NULL.
    NullPointer = 1,
    /// A `c2d_Shape` tag is not one of the defined kinds.
    InvalidShapeTag = 2,
    /// A coordinate, extent or radius is NaN or infinite.
    NonFinite = 3,
    /// A radius is negative.
    NegativeRadius = 4,
    /// Fewer than 3 distinct points.
    TooFewPoints = 5,
    /// More than 8 points.
    TooManyPoints = 6,
    /// The points are collinear.
    Collinear = 7,
    /// A box half extent is not positive.
    InvalidExtent = 8,
    /// Deflation removed the whole shape.
    Collapsed = 9,
    /// A tree AABB is not finite or has min > max.
    InvalidAabb = 10,
    /// The tree's caller-provided memory has no room for another proxy.
    TreeFull = 11,
    /// A proxy id is stale, out of range or names an internal node.
    InvalidProxy = 12,
    /// `c2d_tree_validate` found a broken invariant.
    TreeCorrupt = 13,
    /// Caller memory for `c2d_tree_init` is not 8-byte aligned.
    Misaligned = 14,
    /// Caller memory for `c2d_tree_init` is smaller than one node plus the header.
    BufferTooSmall = 15,
    /// Solver/world step: `dt` not finite and positive, or sub-steps outside 1..=64.
    InvalidStep = 16,
    /// A body index out of range, a stale body id, or a pair naming one body twice.
    InvalidBody = 17,
    /// Solver/world input not finite or out of range (transform, velocity, mass, material,
    /// settings).
    InvalidInput = 18,
    /// A `c2d_BodyDef` kind is not static (0), kinematic (1) or dynamic (2).
    InvalidBodyKind = 19,
}

impl From<GeometryError> for Status {
    fn from(e: GeometryError) -> Status {
        match e {
            GeometryError::NonFinite => Status::NonFinite,
            GeometryError::NegativeRadius => Status::NegativeRadius,
            GeometryError::TooFewPoints => Status::TooFewPoints,
            GeometryError::TooManyPoints => Status::TooManyPoints,
            GeometryError::Collinear => Status::Collinear,
            GeometryError::InvalidExtent => Status::InvalidExtent,
            GeometryError::Collapsed => Status::Collapsed,
        }
    }
}

/// Reads a shape from C, validating the tag first (an invalid enum discriminant must never be
/// read as a Rust enum).
///
/// # Safety
/// `p` must be NULL or point to readable memory of `size_of::<Shape>()` bytes.
pub(crate) unsafe fn read_shape(p: *const Shape) -> Result<Shape, Status> {
    if p.is_null() {
        return Err(Status::NullPointer);
    }
    // SAFETY: `p` is non-null and, by the caller's contract, points to a readable c2d_Shape
    // whose first 4 bytes are the u32 tag (repr(C, u32) layout).
    let tag = unsafe { core::ptr::read_unaligned(p as *const u32) };
    if tag > 2 {
        return Err(Status::InvalidShapeTag);
    }
    // SAFETY: the tag names a valid variant and every bit pattern of the variant's payload
    // (plain f32/u32 fields) is a valid value, so reading the whole enum is sound.
    Ok(unsafe { core::ptr::read_unaligned(p) })
}

/// Reads two shapes and their placements (transforms or sweeps) from C, failing with the first
/// problem found, in argument order.
///
/// # Safety
/// Each pointer must be NULL or point to a readable value of its type.
unsafe fn read_pair<T: Copy>(
    a: *const Shape,
    xa: *const T,
    b: *const Shape,
    xb: *const T,
) -> Result<(Shape, T, Shape, T), Status> {
    // SAFETY: each helper checks its pointer; readability is the caller's contract.
    unsafe { Ok((read_shape(a)?, read(xa)?, read_shape(b)?, read(xb)?)) }
}

/// # Safety
/// `p` must be NULL or point to a readable value of type `T`.
pub(crate) unsafe fn read<T: Copy>(p: *const T) -> Result<T, Status> {
    if p.is_null() {
        Err(Status::NullPointer)
    } else {
        // SAFETY: non-null and readable by the caller's contract; T is a plain-old-data type.
        Ok(unsafe { core::ptr::read_unaligned(p) })
    }
}

/// # Safety
/// `out` must be NULL or point to writable memory for a `T`.
pub(crate) unsafe fn write<T>(out: *mut T, value: T) -> Status {
    if out.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: non-null and writable by the caller's contract.
    unsafe { core::ptr::write_unaligned(out, value) };
    Status::Ok
}

/// Writes a freshly made shape to `out`, or maps the constructor's error (`out` untouched).
///
/// # Safety
/// `out` must be NULL or point to a writable `c2d_Shape`.
unsafe fn write_made(out: *mut Shape, made: Result<Shape, GeometryError>) -> Status {
    if out.is_null() {
        return Status::NullPointer;
    }
    match made {
        // SAFETY: `out` checked non-null; the caller guarantees it is writable.
        Ok(shape) => unsafe { write(out, shape) },
        Err(e) => e.into(),
    }
}

/// Makes a circle shape. Writes `*out` on success.
///
/// # Safety
/// `out` must be NULL or point to a writable `c2d_Shape`.
#[no_mangle]
pub unsafe extern "C" fn c2d_make_circle(center: Vec2, radius: f32, out: *mut Shape) -> Status {
    // SAFETY: `out` validity is the caller's contract, checked for NULL by `write_made`.
    unsafe { write_made(out, Circle::new(center, radius).map(Shape::Circle)) }
}

/// Makes a capsule shape (radius 0: a segment). Writes `*out` on success.
///
/// # Safety
/// `out` must be NULL or point to a writable `c2d_Shape`.
#[no_mangle]
pub unsafe extern "C" fn c2d_make_capsule(
    center1: Vec2,
    center2: Vec2,
    radius: f32,
    out: *mut Shape,
) -> Status {
    // SAFETY: `out` validity is the caller's contract, checked for NULL by `write_made`.
    unsafe { write_made(out, Capsule::new(center1, center2, radius).map(Shape::Capsule)) }
}

/// Makes a box polygon shape with half extents `hx`, `hy` centred on the local origin.
///
/// # Safety
/// `out` must be NULL or point to a writable `c2d_Shape`.
#[no_mangle]
pub unsafe extern "C" fn c2d_make_box(hx: f32, hy: f32, out: *mut Shape) -> Status {
    // SAFETY: `out` validity is the caller's contract, checked for NULL by `write_made`.
    unsafe { write_made(out, Polygon::make_box(hx, hy).map(Shape::Polygon)) }
}

/// Makes a convex polygon shape from the hull of `count` (3..=8) points with rounding
/// `radius`.
///
/// # Safety
/// `points` must be NULL or point to `count` readable `c2d_Vec2`; `out` must be NULL or point
/// to a writable `c2d_Shape`.
#[no_mangle]
pub unsafe extern "C" fn c2d_make_polygon(
    points: *const Vec2,
    count: u32,
    radius: f32,
    out: *mut Shape,
) -> Status {
    if points.is_null() || out.is_null() {
        return Status::NullPointer;
    }
    let Ok(n) = usize::try_from(count) else {
        return Status::TooManyPoints;
    };
    if n > MAX_POLYGON_VERTICES {
        return Status::TooManyPoints;
    }
    let mut buf = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for (i, slot) in buf.iter_mut().enumerate().take(n) {
        // SAFETY: `points` is non-null and the caller guarantees `count` readable elements;
        // i < count.
        *slot = unsafe { core::ptr::read_unaligned(points.add(i)) };
    }
    match Polygon::new_rounded(&buf[..n], radius) {
        // SAFETY: `out` checked non-null; caller guarantees it is writable.
        Ok(p) => unsafe { write(out, Shape::Polygon(p)) },
        Err(e) => e.into(),
    }
}

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

// ---------------------------------------------------------------------------------------------
// Distance, casts and time of impact

use crate::cast::{shape_cast, time_of_impact, CastOutput, Sweep, ToiOutput};
use crate::distance::{shape_distance, DistanceOutput, SimplexCache};

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

// ---------------------------------------------------------------------------------------------
// Shape utilities: more makers, mass, bounds, point test, inflation, AABB queries

use crate::geometry::MassData;
use crate::math::{Aabb, Rot};

/// Makes a box with half extents `hx`, `hy`, rounding `radius`, centred at `center` and
/// rotated by `rot` (local space).
///
/// # Safety
/// `out` must be NULL or point to a writable `c2d_Shape`.
#[no_mangle]
pub unsafe extern "C" fn c2d_make_offset_rounded_box(
    hx: f32,
    hy: f32,
    center: Vec2,
    rot: Rot,
    radius: f32,
    out: *mut Shape,
) -> Status {
    // SAFETY: `out` validity is the caller's contract, checked for NULL by `write_made`.
    unsafe {
        write_made(
            out,
            Polygon::make_offset_rounded_box(hx, hy, center, rot, radius).map(Shape::Polygon),
        )
    }
}

/// Makes the box polygon covering `*aabb` (exact corners).
///
/// # Safety
/// `aabb` must be NULL or readable; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_make_box_from_aabb(aabb: *const Aabb, out: *mut Shape) -> Status {
    // SAFETY: checked by the helper; readability is the caller's contract.
    let b = match unsafe { read(aabb) } {
        Ok(b) => b,
        Err(e) => return e,
    };
    // SAFETY: `out` validity is the caller's contract, checked for NULL by `write_made`.
    unsafe { write_made(out, Polygon::from_aabb(b).map(Shape::Polygon)) }
}

/// Mass properties of a shape for `density`: mass, centre of mass (local) and rotational
/// inertia about it.
///
/// # Safety
/// `shape` must be NULL or readable; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_shape_mass(shape: *const Shape, density: f32, out: *mut MassData) -> Status {
    // SAFETY: checked by the helper; readability is the caller's contract.
    match unsafe { read_shape(shape) } {
        // SAFETY: `out` is checked by `write`; writability is the caller's contract.
        Ok(s) => unsafe { write(out, s.mass(density)) },
        Err(e) => e,
    }
}

/// World AABB of a shape placed at `*xf`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_shape_aabb(shape: *const Shape, xf: *const Transform, out: *mut Aabb) -> Status {
    // SAFETY: checked by the helpers; readability is the caller's contract.
    match unsafe { (read_shape(shape), read(xf)) } {
        // SAFETY: `out` is checked by `write`; writability is the caller's contract.
        (Ok(s), Ok(x)) => unsafe { write(out, s.aabb(x)) },
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// Whether the world point `point` lies inside or on the shape placed at `*xf`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_shape_contains_point(
    shape: *const Shape,
    xf: *const Transform,
    point: Vec2,
    out_inside: *mut bool,
) -> Status {
    // SAFETY: checked by the helpers; readability is the caller's contract.
    match unsafe { (read_shape(shape), read(xf)) } {
        // SAFETY: `out_inside` is checked by `write`; writability is the caller's contract.
        (Ok(s), Ok(x)) => unsafe { write(out_inside, s.contains_point(x, point)) },
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// The shape grown (negative `amount`: shrunk) on every side; writes `*out`.
///
/// # Safety
/// Pointers must be NULL or valid (`out` may alias `shape`).
#[no_mangle]
pub unsafe extern "C" fn c2d_shape_inflate(shape: *const Shape, amount: f32, out: *mut Shape) -> Status {
    // SAFETY: checked by the helper; readability is the caller's contract.
    let s = match unsafe { read_shape(shape) } {
        Ok(s) => s,
        Err(e) => return e,
    };
    if out.is_null() {
        return Status::NullPointer;
    }
    match s.inflated(amount) {
        // SAFETY: `out` checked non-null; writability is the caller's contract.
        Ok(g) => unsafe { write(out, g) },
        Err(e) => e.into(),
    }
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
