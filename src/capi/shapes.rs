//! Shape makers and single-shape utilities: mass, bounds, point test, inflation.

use super::status::{read, read_shape, write, Status};
use crate::geometry::{Capsule, Circle, GeometryError, MassData, Polygon, Shape, MAX_POLYGON_VERTICES};
use crate::math::{Aabb, Rot, Transform, Vec2};

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

/// Checks a shape as every C entry point checks the shapes it is given: `C2D_STATUS_OK`, or why
/// it is refused (`C2D_STATUS_NULL_POINTER`, `C2D_STATUS_INVALID_SHAPE_TAG`, or
/// `C2D_STATUS_INVALID_SHAPE` for a polygon whose count is outside 3..=8, whose data is not
/// finite, which is not convex and counter-clockwise, or whose normals are not the unit outward
/// normals of its edges; `C2D_STATUS_NON_FINITE`, `C2D_STATUS_NEGATIVE_RADIUS` or
/// `C2D_STATUS_OUT_OF_RANGE` for a circle or capsule with non-finite data, a negative radius or
/// an extent beyond `float`). Shapes from the `c2d_make_*` functions always pass.
///
/// # Safety
/// `shape` must be NULL or point to a readable `c2d_Shape`.
#[no_mangle]
pub unsafe extern "C" fn c2d_shape_validate(shape: *const Shape) -> Status {
    // SAFETY: NULL is checked; readability is the caller's contract.
    match unsafe { read_shape(shape) } {
        Ok(_) => Status::Ok,
        Err(e) => e,
    }
}
