//! Tile maps to chains: the outline of every solid region of a grid as closed loops.
//!
//! Cell `(x, y)` covers `origin + [x, x + 1] × [y, y + 1] · cell_size` (x to the right, y up).
//! Every boundary between a solid and an empty cell (and the grid's border next to a solid cell)
//! becomes part of exactly one loop; runs of collinear edges are merged, so a 1000 × 1000 map
//! whose solid cells form a few regions gives a few chains.
//!
//! Winding, as Box2D's chains: the solid lies on the left of every edge, so an island of solid
//! cells is outlined **counter-clockwise** (its chain's front faces point out, into the empty
//! cells) and a hole inside a region **clockwise** (its front faces point into the hole). A
//! body in the empty space collides with the front faces only: it cannot catch on the seams
//! between tiles, and it cannot stick inside a wall it was teleported into (from behind, a
//! chain lets it out).
//!
//! Two solid cells that touch only at a corner are separate regions: where two loops (or two
//! passes of one loop) meet at such a vertex, each turns so as to keep its own cell (the
//! "turn left" rule of a walk with the solid on the left). The loops then share that vertex but
//! never cross.
//!
//! One-way platforms: a platform you can jump through from below is an open chain (or a
//! [`ChainSegment`](crate::geometry::ChainSegment)) listed right to left, front side up: bodies
//! coming from below pass its back side, bodies landing on it from above collide. Build those
//! separately; the outline of a tile map is closed.
//!
//! Coordinates: the outline is exact by construction. The walk keeps only the grid vertices
//! where the boundary turns (runs and duplicates are merged by cell index, never by float
//! distance), and the corner on grid lines `(i, j)` is `origin + (i, j) · cell_size` computed
//! in `f32` per axis (`origin.x + (i as f32) * cell_size`), so every corner on a grid line
//! shares its coordinate and the loops are not welded afterwards. Corners are exact whenever
//! `origin` and `cell_size` are multiples of a power of two `u` and the coordinates and the
//! grid's extent stay below 2^24 `u` (cell size 1: up to about 1.6e7 from zero); otherwise each
//! is within about one float spacing of its exact place and the loops keep the grid's shape
//! (rounding never reorders grid lines). When two neighbouring grid lines would round to the same `f32` (the float
//! spacing at the grid's coordinates exceeds the cell size) or lie too close for a segment
//! direction (about 1e-19 apart), the outline cannot be represented:
//! [`GeometryError::OutOfRange`].
//!
//! Cost: one pass over the cells (each `solid(x, y)` called once), a byte per grid vertex and
//! time proportional to the boundary length. Every allocation is fallible: out of memory is
//! [`GeometryError::OutOfMemory`], never an abort.

use crate::geometry::chain::{room_for_one, try_vec};
use crate::geometry::{Chain, GeometryError};
use crate::math::Vec2;
use alloc::vec::Vec;

const EAST: u8 = 1;
const NORTH: u8 = 2;
const WEST: u8 = 4;
const SOUTH: u8 = 8;

#[inline]
fn left_of(d: u8) -> u8 {
    if d == SOUTH {
        EAST
    } else {
        d << 1
    }
}

#[inline]
fn right_of(d: u8) -> u8 {
    if d == EAST {
        SOUTH
    } else {
        d >> 1
    }
}

/// The closed chains outlining the solid cells of a `width` × `height` grid (see the
/// [module docs](self)); `solid(x, y)` is called once per cell, row by row from `y = 0`.
///
/// Errors with [`GeometryError::InvalidGrid`] when `cell_size` is not finite and positive,
/// `origin` is not finite, or the grid's vertex count overflows `usize`; with
/// [`GeometryError::OutOfRange`] when the grid's far corner or extent overflows `f32`, or when
/// two neighbouring grid lines round to the same `f32` or lie closer than about 1e-19 (see
/// the [module docs](self)), checked in O(width + height) before any cell is read; with
/// [`GeometryError::OutOfMemory`] when the allocator cannot provide the working memory or the
/// chains (everything taken is freed; `solid` may have been called for some cells).
pub fn tile_outlines(
    width: usize,
    height: usize,
    cell_size: f32,
    origin: Vec2,
    mut solid: impl FnMut(usize, usize) -> bool,
) -> Result<Vec<Chain>, GeometryError> {
    if !(cell_size > 0.0 && cell_size.is_finite() && origin.is_finite()) {
        return Err(GeometryError::InvalidGrid);
    }
    let (Some(vw), Some(vh)) = (width.checked_add(1), height.checked_add(1)) else {
        return Err(GeometryError::InvalidGrid);
    };
    let Some(vertices) = vw.checked_mul(vh) else {
        return Err(GeometryError::InvalidGrid);
    };
    let far = origin + Vec2::new(width as f32, height as f32) * cell_size;
    if !far.is_finite() || !(far - origin).length().is_finite() {
        return Err(GeometryError::OutOfRange);
    }
    if !(lines_apart(origin.x, width, cell_size) && lines_apart(origin.y, height, cell_size)) {
        return Err(GeometryError::OutOfRange);
    }
    if width == 0 || height == 0 {
        return Ok(Vec::new());
    }
    // Outgoing boundary edges per grid vertex (bit per direction), solid on the left.
    let mut out: Vec<u8> = try_vec(vertices)?;
    out.resize(vertices, 0);
    let at = |x: usize, y: usize| y * vw + x;
    let mut below: Vec<bool> = try_vec(width)?;
    below.resize(width, false);
    let mut row: Vec<bool> = try_vec(width)?;
    row.resize(width, false);
    for y in 0..=height {
        if y < height {
            for (x, c) in row.iter_mut().enumerate() {
                *c = solid(x, y);
            }
        } else {
            row.fill(false);
        }
        for x in 0..width {
            // Horizontal edge at height y, between (x, y - 1) below and (x, y) above.
            match (below[x], row[x]) {
                (false, true) => out[at(x, y)] |= EAST,
                (true, false) => out[at(x + 1, y)] |= WEST,
                _ => {}
            }
        }
        if y < height {
            // Vertical edges at x between (x - 1, y) and (x, y).
            let mut left = false;
            for x in 0..=width {
                let right = x < width && row[x];
                match (left, right) {
                    (true, false) => out[at(x, y)] |= NORTH,
                    (false, true) => out[at(x, y + 1)] |= SOUTH,
                    _ => {}
                }
                left = right;
            }
        }
        core::mem::swap(&mut below, &mut row);
    }

    let point = |v: usize| {
        Vec2::new(
            line(origin.x, v % vw, cell_size),
            line(origin.y, v / vw, cell_size),
        )
    };
    let step = |v: usize, d: u8| match d {
        EAST => v + 1,
        WEST => v - 1,
        NORTH => v + vw,
        _ => v - vw,
    };
    let mut chains = Vec::new();
    let mut pts = Vec::new();
    for v0 in 0..vertices {
        while out[v0] != 0 {
            let d0 = out[v0] & out[v0].wrapping_neg(); // lowest set bit
            out[v0] &= !d0;
            pts.clear();
            let (mut v, mut d) = (step(v0, d0), d0);
            let closing_dir = loop {
                // At `v`, arrived travelling `d`: turn left if possible, else straight, else right
                // (the start edge, already taken, still closes the loop).
                let avail = out[v] | if v == v0 { d0 } else { 0 };
                let next = [left_of(d), d, right_of(d)]
                    .into_iter()
                    .find(|&c| avail & c != 0)
                    .unwrap_or(0);
                if v == v0 && next == d0 {
                    break d;
                }
                if next == 0 {
                    // Unreachable for a consistent edge set (every vertex has as many edges in as
                    // out); stop rather than loop.
                    break d0;
                }
                if next != d {
                    room_for_one(&mut pts)?;
                    pts.push(point(v));
                }
                out[v] &= !next;
                v = step(v, next);
                d = next;
            };
            if closing_dir != d0 {
                room_for_one(&mut pts)?;
                pts.push(point(v0));
            }
            // At least 4 corners, consecutive ones on different grid lines: clean as they are.
            let mut exact = try_vec(pts.len())?;
            exact.extend_from_slice(&pts);
            let chain = Chain::from_clean(exact, true);
            room_for_one(&mut chains)?;
            chains.push(chain);
        }
    }
    Ok(chains)
}

/// Grid line `k` of an axis starting at `o`: the one rounding every corner on it shares.
#[inline]
pub(super) fn line(o: f32, k: usize, cell_size: f32) -> f32 {
    o + k as f32 * cell_size
}

/// Whether grid lines `0..=n` of an axis are strictly increasing and each apart from the next by
/// a distance with a direction (its square in `f32`'s normal range), so every outline segment
/// and its ghosts have one.
pub(super) fn lines_apart(o: f32, n: usize, cell_size: f32) -> bool {
    let mut prev = o;
    (1..=n).all(|k| {
        let x = line(o, k, cell_size);
        let apart = x > prev && Vec2::new(x - prev, 0.0).try_normalize().is_some();
        prev = x;
        apart
    })
}

/// [`tile_outlines`] over row-major cells (`cells[y * width + x]`, `y = 0` the bottom row).
/// Errors with [`GeometryError::InvalidGrid`] when `cells.len() != width * height`.
pub fn tile_outlines_from_cells(
    width: usize,
    height: usize,
    cells: &[bool],
    cell_size: f32,
    origin: Vec2,
) -> Result<Vec<Chain>, GeometryError> {
    if width.checked_mul(height) != Some(cells.len()) {
        return Err(GeometryError::InvalidGrid);
    }
    tile_outlines(width, height, cell_size, origin, |x, y| cells[y * width + x])
}
