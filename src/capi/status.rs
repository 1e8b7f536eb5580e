//! Status codes and the pointer plumbing every C entry point shares: NULL checks, unaligned
//! reads of plain values, a shape's tag validated before the shape is read as a Rust enum, and
//! out-parameters written only on success.

use crate::distance::ShapeProxy;
use crate::geometry::{Capsule, ChainSegment, Circle, GeometryError, Polygon, Shape};
use crate::solver::SolverError;

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
    /// A finite value outside its documented range: shape points whose extent overflows
    /// float (coordinates beyond about ±1.3e19), or a value entering a world beyond the
    /// world's bounds (`C2D_MAX_COORDINATE`, `C2D_MAX_LINEAR_SPEED`, `C2D_MAX_GRAVITY` and the
    /// other `C2D_MAX_*` world bounds: positions, shapes, speeds, gravity, gravity scale,
    /// forces, time step, settings).
    OutOfRange = 20,
    /// A shape does not hold what the constructors guarantee (a polygon with a count outside
    /// 3..=8, non-finite data, not convex and counter-clockwise, or normals that are not the
    /// unit outward normals of its edges; in a world, any shape kind with non-finite data or
    /// a negative radius): see `c2d_shape_validate`.
    InvalidShape = 21,
    /// The operation does not apply to this shape kind (a chain segment cannot be inflated,
    /// nor be the shape of a dynamic body or a sensor).
    Unsupported = 22,
    /// A tile grid's dimensions do not match its cell count, or its cell size or origin is not
    /// finite (and positive).
    InvalidGrid = 23,
    /// A polygon to decompose is not weakly simple: two of its edges cross, a vertex lies
    /// inside another edge, edges overlap other than as one edge traversed both ways, the
    /// passes through a point it visits twice cross there, or an edge doubles back on the one
    /// before at a point visited once (see `c2d_decompose`).
    SelfIntersecting = 24,
    /// An allocation failed (the allocator, or the one set with `c2d_set_allocator`, returned
    /// NULL). The object the call was made on is unchanged and still valid.
    OutOfMemory = 25,
    /// `c2d_set_allocator` while memory from the current allocator is still in use (a tree
    /// or world is alive): free everything first.
    InUse = 26,
    /// `c2d_world_validate` found a world whose invariants do not hold (a defect of the
    /// library: please report it).
    WorldCorrupt = 27,
    /// A shape id that names no live shape of the world (the shape or its body was removed).
    InvalidShapeId = 28,
    /// A function that changes a world was called from inside a callback of a call on that
    /// world (a query, `c2d_world_draw`, or a step's pre-solve or custom filter hook): nothing
    /// was changed. Read the world there; change it after the call returns. Also a read of a
    /// stepping world from outside its hooks (the profile clock).
    Locked = 29,
    /// A world id that names no live world: the zero id, or a destroyed world's (destroying
    /// a world twice gives this).
    InvalidWorld = 30,
    /// `c2d_world_create` while `C2D_MAX_WORLDS` worlds exist.
    TooManyWorlds = 31,
    /// A chain id that names no live chain of the world (the chain or its body was removed).
    InvalidChainId = 32,
    /// Bytes given as a snapshot do not start with a snapshot's magic.
    NotASnapshot = 33,
    /// A snapshot of another format or another release of the library.
    SnapshotVersion = 34,
    /// A snapshot shorter than the length its header gives.
    SnapshotTruncated = 35,
    /// A snapshot whose bytes do not match its checksum (corrupted), or longer than its
    /// header says.
    SnapshotChecksum = 36,
    /// A snapshot that matches its checksum but does not describe a valid world (hand-made
    /// or hostile bytes).
    SnapshotCorrupt = 37,
    /// A joint id that names no live joint of the world (the joint or one of its bodies was
    /// removed).
    InvalidJoint = 38,
}

#[cfg(feature = "alloc")]
impl From<crate::world::SnapshotError> for Status {
    fn from(e: crate::world::SnapshotError) -> Status {
        use crate::world::SnapshotError as E;
        match e {
            E::BufferTooSmall { .. } => Status::BufferTooSmall,
            E::NotASnapshot => Status::NotASnapshot,
            E::UnsupportedVersion => Status::SnapshotVersion,
            E::Truncated => Status::SnapshotTruncated,
            E::ChecksumMismatch => Status::SnapshotChecksum,
            E::Corrupt => Status::SnapshotCorrupt,
            E::OutOfMemory => Status::OutOfMemory,
        }
    }
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
            GeometryError::OutOfRange => Status::OutOfRange,
            GeometryError::Unsupported => Status::Unsupported,
            GeometryError::InvalidGrid => Status::InvalidGrid,
            GeometryError::SelfIntersecting => Status::SelfIntersecting,
            GeometryError::InvalidPolygon => Status::InvalidShape,
            GeometryError::OutOfMemory => Status::OutOfMemory,
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
    if tag > 3 {
        return Err(Status::InvalidShapeTag);
    }
    // SAFETY: the tag names a valid variant and every bit pattern of the variant's payload
    // (plain f32/u32 fields) is a valid value, so reading the whole enum is sound.
    check_shape(unsafe { core::ptr::read_unaligned(p) })
}

/// A shape from C as the queries may take it: one its constructors would make
/// ([`Shape::validate`]: finite data, radius `>= 0`, an extent within `f32`, a polygon that
/// passes [`Polygon::is_valid`], a chain segment [`ChainSegment::new`] accepts). A hand-filled
/// shape that is not is refused with the constructor's status for it
/// (`C2D_STATUS_INVALID_SHAPE` for a polygon), so no query reports garbage for it.
pub(crate) fn check_shape(s: Shape) -> Result<Shape, Status> {
    s.validate().map(|_| s).map_err(Status::from)
}

/// A shape type the typed C functions read: checked as [`check_shape`] checks its kind.
pub(crate) trait Checked: Copy {
    /// `Ok(self)` when the queries may take it.
    fn checked(self) -> Result<Self, Status>;
}
impl Checked for Circle {
    fn checked(self) -> Result<Self, Status> {
        self.validate().map(|_| self).map_err(Status::from)
    }
}
impl Checked for Capsule {
    fn checked(self) -> Result<Self, Status> {
        self.validate().map(|_| self).map_err(Status::from)
    }
}
// GJK validates a proxy itself (count, finiteness) and any point cloud is a convex hull.
impl Checked for ShapeProxy {
    fn checked(self) -> Result<Self, Status> {
        Ok(self)
    }
}
impl Checked for ChainSegment {
    fn checked(self) -> Result<Self, Status> {
        ChainSegment::new(self.ghost1, self.point1, self.point2, self.ghost2).map_err(Status::from)
    }
}
impl Checked for Polygon {
    fn checked(self) -> Result<Self, Status> {
        if self.is_valid() {
            Ok(self)
        } else {
            Err(Status::InvalidShape)
        }
    }
}

/// Reads two shapes and their placements (transforms or sweeps) from C, failing with the first
/// problem found, in argument order.
///
/// # Safety
/// Each pointer must be NULL or point to a readable value of its type.
pub(crate) unsafe fn read_pair<T: Copy>(
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

impl From<SolverError> for Status {
    fn from(e: SolverError) -> Status {
        match e {
            SolverError::InvalidStep => Status::InvalidStep,
            SolverError::InvalidBody => Status::InvalidBody,
            SolverError::InvalidInput => Status::InvalidInput,
            SolverError::OutOfMemory => Status::OutOfMemory,
            SolverError::InvalidShape => Status::InvalidShape,
            SolverError::OutOfRange => Status::OutOfRange,
            SolverError::Unsupported => Status::Unsupported,
            SolverError::InvalidShapeId => Status::InvalidShapeId,
            SolverError::InvalidChainId => Status::InvalidChainId,
            SolverError::InvalidJoint => Status::InvalidJoint,
        }
    }
}

/// `Ok` or the solver error's status.
pub(crate) fn status(r: Result<(), SolverError>) -> Status {
    r.map_or_else(Status::from, |()| Status::Ok)
}

/// Writes `items` to `out` (room for `capacity`) and their count to `*out_count` (always):
/// `BufferTooSmall` when they do not fit (`out` may be NULL with capacity 0 to ask for the
/// count), `NullPointer` for a NULL `out_count`.
///
/// # Safety
/// `out` NULL or `capacity` writable values; `out_count` NULL or writable.
#[cfg(feature = "alloc")]
pub(crate) unsafe fn write_listed<T>(
    items: impl Iterator<Item = T>,
    out: *mut T,
    capacity: u32,
    out_count: *mut u32,
) -> Status {
    if out_count.is_null() {
        return Status::NullPointer;
    }
    let mut n = 0u32;
    for item in items {
        if n < capacity && !out.is_null() {
            // SAFETY: `n < capacity`, the room of `out`.
            unsafe { out.add(n as usize).write_unaligned(item) };
        }
        n = n.saturating_add(1);
    }
    // SAFETY: `out_count` checked non-null; writable by contract.
    unsafe { core::ptr::write_unaligned(out_count, n) };
    if n > capacity || (n > 0 && out.is_null()) {
        Status::BufferTooSmall
    } else {
        Status::Ok
    }
}

/// A slice from a C array; NULL is allowed only with `count == 0`.
///
/// # Safety
/// `p` must be NULL or point to `count` readable and writable values, not aliased elsewhere.
pub(crate) unsafe fn slice_mut<'a, T>(p: *mut T, count: usize) -> Result<&'a mut [T], Status> {
    if count == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(Status::NullPointer);
    }
    // SAFETY: non-null, `count` valid elements, exclusively ours for the call (caller's contract).
    Ok(unsafe { core::slice::from_raw_parts_mut(p, count) })
}

/// A version number: the crate's, which the header's `C2D_VERSION_MAJOR`, `_MINOR` and
/// `_PATCH` macros also give (a program can compare the two to catch a header and library
/// from different releases).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Version {
    /// Incompatible API changes.
    pub major: u32,
    /// Added functionality.
    pub minor: u32,
    /// Fixes.
    pub patch: u32,
}

/// A decimal version component from Cargo's environment, at compile time.
const fn parse_component(s: &str) -> u32 {
    let b = s.as_bytes();
    let mut i = 0;
    let mut v = 0u32;
    while i < b.len() {
        v = v * 10 + (b[i] - b'0') as u32;
        i += 1;
    }
    v
}

/// The library's version (the crate version is the single source of it).
#[no_mangle]
pub extern "C" fn c2d_get_version() -> Version {
    Version {
        major: parse_component(env!("CARGO_PKG_VERSION_MAJOR")),
        minor: parse_component(env!("CARGO_PKG_VERSION_MINOR")),
        patch: parse_component(env!("CARGO_PKG_VERSION_PATCH")),
    }
}

/// `Box::new(value)` that reports an allocation failure (`None`) instead of aborting.
#[cfg(feature = "alloc")]
pub(crate) fn try_box<T>(value: T) -> Option<alloc::boxed::Box<T>> {
    let layout = core::alloc::Layout::new::<T>();
    if layout.size() == 0 {
        return Some(alloc::boxed::Box::new(value));
    }
    // SAFETY: the layout has a non-zero size.
    let p = unsafe { alloc::alloc::alloc(layout) } as *mut T;
    if p.is_null() {
        return None;
    }
    // SAFETY: `p` is a fresh, properly aligned allocation of `T`'s layout from the global
    // allocator, which is what `Box` owns and frees; writing initialises it.
    unsafe {
        p.write(value);
        Some(alloc::boxed::Box::from_raw(p))
    }
}
