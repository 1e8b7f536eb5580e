//! Level geometry: one-sided chain segments (makers, manifolds, overlaps, ray casts) and chain
//! welding.

use super::status::{read, write, Checked, Status};
use crate::geometry::{Capsule, ChainSegment, Circle, Polygon, Shape};
use crate::math::{Ray, Transform, Vec2};
use crate::narrowphase as np;
use crate::raycast::RayHit;

/// Makes a one-sided chain segment shape `point1 → point2` (front side on the right) with its
/// neighbouring vertices; a ghost equal to its point means a square end. Writes `*out`.
///
/// # Safety
/// `out` must be NULL or point to a writable `c2d_Shape`.
#[no_mangle]
pub unsafe extern "C" fn c2d_make_chain_segment(
    ghost1: Vec2,
    point1: Vec2,
    point2: Vec2,
    ghost2: Vec2,
    out: *mut Shape,
) -> Status {
    if out.is_null() {
        return Status::NullPointer;
    }
    match ChainSegment::new(ghost1, point1, point2, ghost2) {
        // SAFETY: `out` checked non-null; writability is the caller's contract.
        Ok(c) => unsafe { write(out, Shape::ChainSegment(c)) },
        Err(e) => e.into(),
    }
}

/// Segment `index` of the polyline `points[0..count]` (`closed`: the last point connects back
/// to the first) with its ghosts, without welding or allocation (Rust:
/// `ChainSegment::from_polyline`). Writes `*out`; `C2D_STATUS_TOO_FEW_POINTS` when `index` is
/// out of range or the segment's points are equal.
///
/// # Safety
/// `points` must be NULL or point to `count` readable `c2d_Vec2`; `out` must be NULL or point
/// to a writable `c2d_ChainSegment`.
#[no_mangle]
pub unsafe extern "C" fn c2d_chain_segment_from_polyline(
    points: *const Vec2,
    count: u32,
    closed: bool,
    index: u32,
    out: *mut ChainSegment,
) -> Status {
    if points.is_null() || out.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: non-null, and the caller guarantees `count` readable points.
    let pts = unsafe { core::slice::from_raw_parts(points, count as usize) };
    if pts.iter().any(|p| !p.is_finite()) {
        return Status::NonFinite;
    }
    match ChainSegment::from_polyline(pts, closed, index as usize) {
        // SAFETY: `out` checked non-null.
        Some(c) => unsafe { write(out, c) },
        None => Status::TooFewPoints,
    }
}

/// Welds a polyline as `Chain::open` / `Chain::closed` do into `out` (room for `count`
/// points): a point is dropped only when it lies within `C2D_CHAIN_WELD_RELATIVE` × the
/// coordinates' magnitude or `C2D_CHAIN_COLLINEAR_RELATIVE` × the segment's length of the kept
/// segment replacing it. Writes the welded count to `*out_count`. `out` may alias `points`.
/// `C2D_STATUS_OUT_OF_MEMORY` (nothing written) when the allocator cannot provide room for a
/// copy of the points.
///
/// # Safety
/// `points` must be NULL or point to `count` readable `c2d_Vec2`; `out` NULL or `count`
/// writable ones; `out_count` NULL or writable.
#[cfg(feature = "alloc")]
#[no_mangle]
pub unsafe extern "C" fn c2d_chain_weld(
    points: *const Vec2,
    count: u32,
    closed: bool,
    out: *mut Vec2,
    out_count: *mut u32,
) -> Status {
    if points.is_null() || out.is_null() || out_count.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: non-null; `count` readable points by the caller's contract. The welded chain
    // is a copy, made before any write, so `out` may alias `points`.
    let pts = unsafe { core::slice::from_raw_parts(points, count as usize) };
    let chain = if closed {
        crate::geometry::Chain::closed(pts)
    } else {
        crate::geometry::Chain::open(pts)
    };
    match chain {
        Ok(c) => {
            for (i, p) in c.points().iter().enumerate() {
                // SAFETY: the welded count never exceeds `count`, the room of `out`.
                unsafe { out.add(i).write_unaligned(*p) };
            }
            // SAFETY: `out_count` checked non-null.
            unsafe { write(out_count, c.points().len() as u32) }
        }
        Err(e) => e.into(),
    }
}

/// Reads a typed pair and applies `f`.
///
/// # Safety
/// Pointers must be NULL or valid for their types.
unsafe fn pair<B: Checked, T: Copy>(
    a: *const ChainSegment,
    xa: *const Transform,
    b: *const B,
    xb: *const Transform,
    out: *mut T,
    f: impl FnOnce(&ChainSegment, Transform, &B, Transform) -> T,
) -> Status {
    // SAFETY: forwarded contract.
    let r = unsafe { (read(a), read(xa), read(b), read(xb)) };
    let (a, xa, b, xb) = match r {
        (Ok(a), Ok(xa), Ok(b), Ok(xb)) => match (a.checked(), b.checked()) {
            (Ok(a), Ok(b)) => (a, xa, b, xb),
            (Err(e), _) | (_, Err(e)) => return e,
        },
        (Err(e), ..) | (_, Err(e), ..) | (_, _, Err(e), _) | (.., Err(e)) => return e,
    };
    if out.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: `out` checked non-null; writability is the caller's contract.
    unsafe { write(out, f(&a, xa, &b, xb)) }
}

/// Manifold between a one-sided chain segment (A) and a circle (B): normal from the segment
/// to B; no contact from behind the segment or with a normal in a neighbour's fan.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_collide_chain_segment_circle(
    a: *const ChainSegment,
    xa: *const Transform,
    b: *const Circle,
    xb: *const Transform,
    margin: f32,
    out: *mut np::Manifold,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        pair(a, xa, b, xb, out, |a, xa, b, xb| {
            np::collide_chain_segment_circle(a, xa, b, xb, margin)
        })
    }
}

/// Whether `c2d_collide_chain_segment_circle` with margin 0 reports contact; writes `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_overlaps_chain_segment_circle(
    a: *const ChainSegment,
    xa: *const Transform,
    b: *const Circle,
    xb: *const Transform,
    out: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe { pair(a, xa, b, xb, out, np::overlaps_chain_segment_circle) }
}

/// Manifold between a one-sided chain segment (A) and a capsule (B): normal from the segment
/// to B; no contact from behind the segment or with a normal in a neighbour's fan.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_collide_chain_segment_capsule(
    a: *const ChainSegment,
    xa: *const Transform,
    b: *const Capsule,
    xb: *const Transform,
    margin: f32,
    out: *mut np::Manifold,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        pair(a, xa, b, xb, out, |a, xa, b, xb| {
            np::collide_chain_segment_capsule(a, xa, b, xb, margin)
        })
    }
}

/// Whether `c2d_collide_chain_segment_capsule` with margin 0 reports contact; writes `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_overlaps_chain_segment_capsule(
    a: *const ChainSegment,
    xa: *const Transform,
    b: *const Capsule,
    xb: *const Transform,
    out: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe { pair(a, xa, b, xb, out, np::overlaps_chain_segment_capsule) }
}

/// Manifold between a one-sided chain segment (A) and a polygon (rounded or not) (B): normal from the segment
/// to B; no contact from behind the segment or with a normal in a neighbour's fan.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_collide_chain_segment_polygon(
    a: *const ChainSegment,
    xa: *const Transform,
    b: *const Polygon,
    xb: *const Transform,
    margin: f32,
    out: *mut np::Manifold,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        pair(a, xa, b, xb, out, |a, xa, b, xb| {
            np::collide_chain_segment_polygon(a, xa, b, xb, margin)
        })
    }
}

/// Whether `c2d_collide_chain_segment_polygon` with margin 0 reports contact; writes `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_overlaps_chain_segment_polygon(
    a: *const ChainSegment,
    xa: *const Transform,
    b: *const Polygon,
    xb: *const Transform,
    out: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe { pair(a, xa, b, xb, out, np::overlaps_chain_segment_polygon) }
}

/// One-sided ray cast against a chain segment placed at `xf`: only rays from the front side
/// moving against its normal hit. Writes `*hit` and, on a hit, `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_ray_cast_chain_segment(
    segment: *const ChainSegment,
    xf: *const Transform,
    ray: *const Ray,
    hit: *mut bool,
    out: *mut RayHit,
) -> Status {
    // SAFETY: forwarded contract.
    let (s, x, r) = unsafe { (read(segment), read(xf), read(ray)) };
    let (s, x, r) = match (s.and_then(ChainSegment::checked), x, r) {
        (Ok(s), Ok(x), Ok(r)) => (s, x, r),
        (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => return e,
    };
    if hit.is_null() || out.is_null() {
        return Status::NullPointer;
    }
    let h = crate::raycast::ray_cast_chain_segment(&s, x, &r);
    // SAFETY: both checked non-null; writability is the caller's contract.
    unsafe {
        write(hit, h.is_some());
        if let Some(h) = h {
            write(out, h);
        }
    }
    Status::Ok
}

/// The closed chains outlining the solid cells of a `width` × `height` grid
/// (`cells[y * width + x]`, nonzero = solid, `y = 0` the bottom row; cell `(x, y)` covers
/// `origin + [x, x + 1] × [y, y + 1] · cell_size`). Counter-clockwise around solid regions,
/// clockwise around holes, collinear edges merged by cell index and never welded by distance:
/// each corner is `origin + (float)i * cell_size` per axis, computed in float (Rust:
/// `tile_outlines`). `C2D_STATUS_OUT_OF_RANGE` when the far corner overflows or two
/// neighbouring grid lines round to the same float (far from the origin, where the float
/// spacing exceeds the cell size) or lie closer than about 1e-19.
///
/// Output: the loops' points one after another in `points` (room for `point_capacity`), each
/// loop's point count in `loop_counts` (room for `loop_capacity`); the totals go to
/// `*out_point_count` and `*out_loop_count`. When a buffer is too small the totals are still
/// written and the status is `C2D_STATUS_BUFFER_TOO_SMALL` (call again with larger buffers; the
/// buffers may be NULL with capacity 0 to ask for the sizes). `C2D_STATUS_OUT_OF_MEMORY` when
/// the allocator cannot provide the working memory (a byte per grid vertex) or the loops:
/// nothing is written and everything taken is freed.
///
/// # Safety
/// `cells` NULL or `width * height` readable bytes; `points` NULL or `point_capacity` writable
/// `c2d_Vec2`; `loop_counts` NULL or `loop_capacity` writable `uint32_t`; the out counts NULL or
/// writable.
#[cfg(feature = "alloc")]
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn c2d_tile_outlines(
    cells: *const u8,
    width: u32,
    height: u32,
    cell_size: f32,
    origin: Vec2,
    points: *mut Vec2,
    point_capacity: u32,
    loop_counts: *mut u32,
    loop_capacity: u32,
    out_point_count: *mut u32,
    out_loop_count: *mut u32,
) -> Status {
    if cells.is_null() || out_point_count.is_null() || out_loop_count.is_null() {
        return Status::NullPointer;
    }
    let (w, h) = (width as usize, height as usize);
    let Some(n) = w.checked_mul(h) else {
        return Status::InvalidGrid;
    };
    // SAFETY: non-null; `width * height` readable bytes by the caller's contract.
    let grid = unsafe { core::slice::from_raw_parts(cells, n) };
    match crate::level::tile_outlines(w, h, cell_size, origin, |x, y| grid[y * w + x] != 0) {
        // SAFETY: the outputs as this function's contract states.
        Ok(chains) => unsafe {
            write_loops(
                &chains,
                points,
                point_capacity,
                loop_counts,
                loop_capacity,
                out_point_count,
                out_loop_count,
            )
        },
        Err(e) => e.into(),
    }
}

/// Writes `chains` as `c2d_tile_outlines` states: the points one loop after another, each
/// loop's point count, the totals (always), and `BufferTooSmall` when the buffers cannot hold
/// them.
///
/// # Safety
/// `points` NULL or `point_capacity` writable `c2d_Vec2`; `loop_counts` NULL or
/// `loop_capacity` writable `u32`; both out counts non-null and writable.
#[cfg(feature = "alloc")]
unsafe fn write_loops(
    chains: &[crate::geometry::Chain],
    points: *mut Vec2,
    point_capacity: u32,
    loop_counts: *mut u32,
    loop_capacity: u32,
    out_point_count: *mut u32,
    out_loop_count: *mut u32,
) -> Status {
    let total: usize = chains.iter().map(|c| c.points().len()).sum();
    let (Ok(total32), Ok(loops32)) = (u32::try_from(total), u32::try_from(chains.len())) else {
        return Status::BufferTooSmall;
    };
    // SAFETY: both non-null and writable by the caller's contract.
    unsafe {
        write(out_point_count, total32);
        write(out_loop_count, loops32);
    }
    if total32 > point_capacity || loops32 > loop_capacity || points.is_null() || loop_counts.is_null() {
        return if total == 0 {
            Status::Ok
        } else {
            Status::BufferTooSmall
        };
    }
    let mut k = 0;
    for (i, c) in chains.iter().enumerate() {
        // SAFETY: `i < loops32 <= loop_capacity`, `k < total <= point_capacity`: in bounds.
        unsafe { loop_counts.add(i).write_unaligned(c.points().len() as u32) };
        for p in c.points() {
            // SAFETY: as above.
            unsafe { points.add(k).write_unaligned(*p) };
            k += 1;
        }
    }
    Status::Ok
}

/// The closed chains outlining a `width` × `height` map of tiles with slopes
/// (`tiles[y * width + x]`, each a `c2d_Tile` value 0..=11, `y = 0` the bottom row; cell
/// `(x, y)` covers `origin + [x, x + 1] × [y, y + 1]` scaled by `cell` per axis, so cells may
/// be rectangles). Tiles: empty, full, 45° floors (`C2D_TILE_SLOPE_UP` rises to the right,
/// `C2D_TILE_SLOPE_DOWN` falls), 45° ceilings, half-height blocks (bottom, top) and 2:1 ramps
/// in two cells (`C2D_TILE_RAMP_UP_LOW` then `C2D_TILE_RAMP_UP_HIGH` rising to the right;
/// `C2D_TILE_RAMP_DOWN_HIGH` then `C2D_TILE_RAMP_DOWN_LOW` falling). Counter-clockwise around
/// solid regions, clockwise around holes, collinear runs merged (a slope over ten cells is one
/// segment), corners exact on the half-cell lattice: each is
/// `origin + (float)i * (cell / 2)` per axis (Rust: `slope_outlines`).
/// `C2D_STATUS_INVALID_GRID` for a tile value above 11 or a cell size that is not finite and
/// positive; `C2D_STATUS_OUT_OF_RANGE` when neighbouring half-cell lines round to the same
/// float. Output as `c2d_tile_outlines` (ask for the sizes with NULL buffers, then fill);
/// `C2D_STATUS_OUT_OF_MEMORY` when the allocator cannot provide the working memory (two bytes
/// per half-cell lattice point) or the loops: nothing is written and everything taken is freed.
///
/// # Safety
/// `tiles` NULL or `width * height` readable bytes; `points` NULL or `point_capacity` writable
/// `c2d_Vec2`; `loop_counts` NULL or `loop_capacity` writable `uint32_t`; the out counts NULL or
/// writable.
#[cfg(feature = "alloc")]
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn c2d_slope_outlines(
    tiles: *const u8,
    width: u32,
    height: u32,
    cell: Vec2,
    origin: Vec2,
    points: *mut Vec2,
    point_capacity: u32,
    loop_counts: *mut u32,
    loop_capacity: u32,
    out_point_count: *mut u32,
    out_loop_count: *mut u32,
) -> Status {
    if tiles.is_null() || out_point_count.is_null() || out_loop_count.is_null() {
        return Status::NullPointer;
    }
    let (w, h) = (width as usize, height as usize);
    let Some(n) = w.checked_mul(h) else {
        return Status::InvalidGrid;
    };
    // SAFETY: non-null; `width * height` readable bytes by the caller's contract.
    let grid = unsafe { core::slice::from_raw_parts(tiles, n) };
    if grid.iter().any(|&t| crate::level::Tile::from_u8(t).is_none()) {
        return Status::InvalidGrid;
    }
    let tile = |x: usize, y: usize| crate::level::Tile::from_u8(grid[y * w + x]).unwrap_or_default();
    match crate::level::slope_outlines(w, h, cell, origin, tile) {
        // SAFETY: the outputs as this function's contract states.
        Ok(chains) => unsafe {
            write_loops(
                &chains,
                points,
                point_capacity,
                loop_counts,
                loop_capacity,
                out_point_count,
                out_loop_count,
            )
        },
        Err(e) => e.into(),
    }
}

/// The surface of a terrain given as `count` heights above `origin.y`, spaced `spacing` apart
/// from `origin.x` (Rust: `heightfield`): with `kind` `C2D_HEIGHTFIELD_KIND_SAMPLES` the
/// samples joined by straight segments, with `C2D_HEIGHTFIELD_KIND_COLUMNS` flat columns with
/// vertical steps. Without `closed` an open chain with its front side up (listed right to
/// left); with `closed` a counter-clockwise loop enclosing the ground down to
/// `origin.y + bottom`. The chain passes through every sample: only a point equal to the one
/// before it or exactly on the segment between its neighbours is merged (no distance
/// tolerance), so the surface keeps its shape far from the origin. Writes the
/// chain's points to `out` (room for `capacity`) and their count to `*out_count` (always;
/// `C2D_STATUS_BUFFER_TOO_SMALL` when they do not fit: at most `2 * count + 2` are written).
/// Errors: `C2D_STATUS_NON_FINITE`; `C2D_STATUS_INVALID_GRID` for a `spacing` that is not
/// finite and positive, a `bottom` not below every height, or an unknown `kind`;
/// `C2D_STATUS_TOO_FEW_POINTS` for fewer than 2 samples (1 column) or a step too small for a
/// segment direction (below about 1e-19); `C2D_STATUS_OUT_OF_RANGE` when neighbouring sample
/// lines round to the same float (or lie closer than about 1e-19), a point or the extent
/// overflows, or the bottom rounds onto the surface; `C2D_STATUS_OUT_OF_MEMORY` when the
/// allocator cannot provide the working memory (nothing written).
///
/// # Safety
/// `heights` NULL or `count` readable floats; `out` NULL or `capacity` writable `c2d_Vec2`;
/// `out_count` NULL or writable.
#[cfg(feature = "alloc")]
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn c2d_heightfield(
    origin: Vec2,
    spacing: f32,
    heights: *const f32,
    count: u32,
    kind: u32,
    closed: bool,
    bottom: f32,
    out: *mut Vec2,
    capacity: u32,
    out_count: *mut u32,
) -> Status {
    use crate::level::HeightfieldKind;
    if heights.is_null() || out_count.is_null() {
        return Status::NullPointer;
    }
    let kind = match kind {
        0 => HeightfieldKind::Samples,
        1 => HeightfieldKind::Columns,
        _ => return Status::InvalidGrid,
    };
    // SAFETY: non-null; `count` readable floats by the caller's contract.
    let hs = unsafe { core::slice::from_raw_parts(heights, count as usize) };
    let chain = match crate::level::heightfield(origin, spacing, hs, kind, closed.then_some(bottom)) {
        Ok(c) => c,
        Err(e) => return e.into(),
    };
    let pts = chain.points();
    // At most 2 · count + 2 points, which fits in u32 for every count a u32 holds halved; a
    // longer chain is reported as not fitting.
    let Ok(n) = u32::try_from(pts.len()) else {
        return Status::BufferTooSmall;
    };
    // SAFETY: `out_count` checked non-null.
    unsafe { write(out_count, n) };
    if out.is_null() || n > capacity {
        return Status::BufferTooSmall;
    }
    for (i, p) in pts.iter().enumerate() {
        // SAFETY: `i < n <= capacity`, the room of `out`.
        unsafe { out.add(i).write_unaligned(*p) };
    }
    Status::Ok
}

/// Decomposes a simple or weakly simple polygon (either winding, any count ≥ 3) into convex
/// polygons of at most 8 vertices (Rust: `decompose`, which states the rules in full): the
/// boundary may touch itself where it passes through one point more than once without
/// crossing there (tiles meeting at a corner, a hole touching its outline) and along an edge
/// traversed both ways (a keyhole's bridge). Only exact duplicates and points exactly on the
/// segment between their neighbours are dropped first (no distance tolerance), so the pieces
/// tile the input polygon exactly at any distance from the origin, each a valid polygon of its
/// vertices; O(count log count) time. Writes up to `capacity` pieces to
/// `out` and the piece count to `*out_count`; `C2D_STATUS_BUFFER_TOO_SMALL` (with the count
/// written) when they do not fit, `C2D_STATUS_SELF_INTERSECTING` when edges cross, a vertex
/// lies inside another edge, edges overlap otherwise, passes cross at a shared point or an
/// edge doubles back (a spike), `C2D_STATUS_OUT_OF_MEMORY` when the allocator cannot provide
/// the working memory (O(count); nothing is written and everything taken is freed).
///
/// # Safety
/// `points` NULL or `count` readable `c2d_Vec2`; `out` NULL or `capacity` writable
/// `c2d_Polygon`; `out_count` NULL or writable.
#[cfg(feature = "alloc")]
#[no_mangle]
pub unsafe extern "C" fn c2d_decompose(
    points: *const Vec2,
    count: u32,
    out: *mut Polygon,
    capacity: u32,
    out_count: *mut u32,
) -> Status {
    if points.is_null() || out_count.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: non-null; `count` readable points by the caller's contract. `decompose` reads
    // them all before any output is written.
    let pts = unsafe { core::slice::from_raw_parts(points, count as usize) };
    let pieces = match crate::level::decompose(pts) {
        Ok(p) => p,
        Err(e) => return e.into(),
    };
    let n = pieces.len() as u32;
    // SAFETY: checked non-null.
    unsafe { write(out_count, n) };
    if n > capacity || out.is_null() {
        return Status::BufferTooSmall;
    }
    for (i, p) in pieces.into_iter().enumerate() {
        // SAFETY: `i < n <= capacity`.
        unsafe { out.add(i).write_unaligned(p) };
    }
    Status::Ok
}
