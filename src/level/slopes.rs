//! Tile maps with slopes, and heightfields, to chains.
//!
//! [`slope_outlines`] outlines a grid whose cells are [`Tile`]s: full or empty as in
//! [`tile_outlines`](super::tile_outlines), or one of the slope and part tiles platformers are
//! drawn with: 45° triangles in four orientations, half-height blocks (bottom and top), and
//! 2:1 ramps in two pieces (a low and a high cell) rising either way. Cells may be rectangles
//! (`cell.x` wide, `cell.y` tall). The result is the same kind of outline: closed chains,
//! counter-clockwise around solid regions and clockwise around holes (solid on the left of
//! every edge), collinear runs merged (a slope across ten cells is one segment), no seams
//! between tiles, and two regions that touch at a single corner kept apart by the "turn left"
//! rule. Where a loop passes through a lattice point more than once (the tip of a slope
//! touching a flat edge of its own region), each pass keeps a corner there, even one running
//! straight through: no corner of a loop lies inside one of its edges, so every loop is a
//! weakly simple polygon [`decompose`](super::decompose) takes as it is.
//!
//! Every tile's corners lie on the half-cell lattice: corner `(i, j)` in half cells is
//! `origin + (i · cell.x / 2, j · cell.y / 2)`, each axis computed in `f32` as
//! `origin.x + (i as f32) · (cell.x / 2)`, so every corner on a lattice line shares its
//! coordinate and the corners of full cells are exactly those of [`tile_outlines`] with the
//! same cell size. The outline is exact by construction (no welding), under the same range
//! rule ([`GeometryError::OutOfRange`] when neighbouring half-cell lines round to the same
//! `f32` or lie closer than about 1e-19).
//!
//! How: each solid tile's boundary is split into lattice steps (axis steps of half a cell,
//! 45° steps of half a cell diagonal, and whole 2:1 edges); a step whose reverse another tile
//! already added cancels it (the two tiles share that edge), and the steps left are walked
//! into loops, turning as far left as possible at each lattice point. Cost: one call of
//! `tile(x, y)` per cell, two bytes per half-cell lattice point (`(2w + 1)(2h + 1)`), time
//! proportional to the cells plus the boundary.
//!
//! [`heightfield`] makes the surface of a terrain given as heights: samples joined by
//! straight segments, or flat columns with vertical steps between them, as an open chain
//! (front side up) or a closed loop down to a bottom height.

use super::partition::drop_straight;
use super::tilemap::{line, lines_apart};
use crate::geometry::chain::{room_for_one, try_vec};
use crate::geometry::hull::finite_extent;
use crate::geometry::{Chain, GeometryError};
use crate::math::Vec2;
use alloc::vec::Vec;

/// What fills one cell of a [`slope_outlines`] map. Cell coordinates run from the bottom-left
/// corner `(0, 0)` to the top-right `(1, 1)`; triangles are named by the corner of their right
/// angle, ramps by the way they rise (left to right) and which of their two cells they are.
#[repr(u8)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tile {
    /// Nothing.
    #[default]
    Empty = 0,
    /// The whole cell.
    Full = 1,
    /// 45° floor rising to the right: the triangle `(0, 0), (1, 0), (1, 1)`.
    SlopeUp = 2,
    /// 45° floor falling to the right: the triangle `(0, 0), (1, 0), (0, 1)`.
    SlopeDown = 3,
    /// 45° ceiling over the top-right: the triangle `(1, 0), (1, 1), (0, 1)`.
    CeilingUp = 4,
    /// 45° ceiling over the top-left: the triangle `(0, 0), (1, 1), (0, 1)`.
    CeilingDown = 5,
    /// The bottom half: `(0, 0)` to `(1, 1/2)`.
    HalfBottom = 6,
    /// The top half: `(0, 1/2)` to `(1, 1)`.
    HalfTop = 7,
    /// The low cell of a 2:1 ramp rising to the right: the triangle `(0, 0), (1, 0), (1, 1/2)`.
    RampUpLow = 8,
    /// The high cell of a 2:1 ramp rising to the right: `(0, 0), (1, 0), (1, 1), (0, 1/2)`.
    RampUpHigh = 9,
    /// The high cell of a 2:1 ramp falling to the right: `(0, 0), (1, 0), (1, 1/2), (0, 1)`.
    RampDownHigh = 10,
    /// The low cell of a 2:1 ramp falling to the right: the triangle `(0, 0), (1, 0), (0, 1/2)`.
    RampDownLow = 11,
}

/// Every tile, in the order of their numbers.
const ALL_TILES: [Tile; 12] = [
    Tile::Empty,
    Tile::Full,
    Tile::SlopeUp,
    Tile::SlopeDown,
    Tile::CeilingUp,
    Tile::CeilingDown,
    Tile::HalfBottom,
    Tile::HalfTop,
    Tile::RampUpLow,
    Tile::RampUpHigh,
    Tile::RampDownHigh,
    Tile::RampDownLow,
];

impl Tile {
    /// Every tile, in the order of their numbers (`Tile::all()[n]` is tile `n`).
    #[must_use]
    pub const fn all() -> [Tile; 12] {
        ALL_TILES
    }

    /// The tile numbered `n` (its `repr(u8)` value), or `None` above 11.
    #[must_use]
    pub fn from_u8(n: u8) -> Option<Tile> {
        ALL_TILES.get(usize::from(n)).copied()
    }

    /// The tile's corners counter-clockwise, in half cells from the cell's bottom-left
    /// corner (`(2, 2)` is the top-right corner); empty for [`Tile::Empty`].
    #[must_use]
    pub fn corners(self) -> &'static [(u8, u8)] {
        match self {
            Tile::Empty => &[],
            Tile::Full => &[(0, 0), (2, 0), (2, 2), (0, 2)],
            Tile::SlopeUp => &[(0, 0), (2, 0), (2, 2)],
            Tile::SlopeDown => &[(0, 0), (2, 0), (0, 2)],
            Tile::CeilingUp => &[(2, 0), (2, 2), (0, 2)],
            Tile::CeilingDown => &[(0, 0), (2, 2), (0, 2)],
            Tile::HalfBottom => &[(0, 0), (2, 0), (2, 1), (0, 1)],
            Tile::HalfTop => &[(0, 1), (2, 1), (2, 2), (0, 2)],
            Tile::RampUpLow => &[(0, 0), (2, 0), (2, 1)],
            Tile::RampUpHigh => &[(0, 0), (2, 0), (2, 2), (0, 1)],
            Tile::RampDownHigh => &[(0, 0), (2, 0), (2, 1), (0, 2)],
            Tile::RampDownLow => &[(0, 0), (2, 0), (0, 1)],
        }
    }
}

/// The lattice steps a boundary is made of, counter-clockwise from +x: half-cell axis steps,
/// half-cell 45° steps and whole 2:1 edges (two half cells across, one up or down).
const STEPS: [(i8, i8); 12] = [
    (1, 0),
    (2, 1),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-2, 1),
    (-1, 0),
    (-2, -1),
    (-1, -1),
    (0, -1),
    (1, -1),
    (2, -1),
];

/// Each step's direction angle in hundredths of a degree, for choosing turns (only their order
/// matters: a 2:1 edge lies between the axis and the diagonal).
const ANGLE: [i32; 12] = [
    0, 2657, 4500, 9000, 13500, 15343, 18000, 20657, 22500, 27000, 31500, 33343,
];

/// The bits of a lattice point's outgoing steps (one per step of [`STEPS`]).
const STEP_BITS: u16 = (1 << 12) - 1;

/// One visit of a lattice point by the loop being walked, counted above the step bits.
const VISIT: u16 = 1 << 12;

/// The bits counting visits (up to 2: once or more than once).
const VISITS: u16 = 3 << 12;

/// Counts a visit of a lattice point (saturating at 2).
#[inline]
fn visit(o: &mut u16) {
    if *o & VISITS < 2 * VISIT {
        *o += VISIT;
    }
}

/// The index of the step `(dx, dy)` (one of [`STEPS`]).
fn step_index(dx: i32, dy: i32) -> usize {
    STEPS
        .iter()
        .position(|&(x, y)| i32::from(x) == dx && i32::from(y) == dy)
        .unwrap_or(0)
}

/// The step opposite step `d`.
#[inline]
fn reverse(d: usize) -> usize {
    (d + 6) % 12
}

/// How far left step `to` turns from step `from`, in hundredths of a degree, in (−180°, 180°].
#[inline]
fn left_turn(from: usize, to: usize) -> i32 {
    (ANGLE[to] - ANGLE[from] + 54_000) % 36_000 - 18_000
}

/// The closed chains outlining the solid parts of a `width` × `height` grid of [`Tile`]s (see
/// the [module docs](self)); `tile(x, y)` is called once per cell, row by row from `y = 0`.
/// Cell `(x, y)` covers `origin + [x, x + 1] × [y, y + 1] · cell` (per axis).
///
/// Errors with [`GeometryError::InvalidGrid`] when a cell size is not finite and positive,
/// `origin` is not finite, or the lattice's point count overflows `usize`; with
/// [`GeometryError::OutOfRange`] when the grid's far corner or extent overflows `f32`, or when
/// two neighbouring half-cell lines round to the same `f32` or lie closer than about 1e-19,
/// checked before any cell is read; with [`GeometryError::OutOfMemory`] when the allocator
/// cannot provide the working memory or the chains (everything taken is freed).
pub fn slope_outlines(
    width: usize,
    height: usize,
    cell: Vec2,
    origin: Vec2,
    mut tile: impl FnMut(usize, usize) -> Tile,
) -> Result<Vec<Chain>, GeometryError> {
    let positive = |s: f32| s > 0.0 && s.is_finite();
    if !(positive(cell.x) && positive(cell.y) && origin.is_finite()) {
        return Err(GeometryError::InvalidGrid);
    }
    let lattice = |n: usize| n.checked_mul(2).and_then(|m| m.checked_add(1));
    let (Some(lw), Some(lh)) = (lattice(width), lattice(height)) else {
        return Err(GeometryError::InvalidGrid);
    };
    let Some(points) = lw.checked_mul(lh) else {
        return Err(GeometryError::InvalidGrid);
    };
    let far = origin + Vec2::new(width as f32 * cell.x, height as f32 * cell.y);
    if !far.is_finite() || !(far - origin).length().is_finite() {
        return Err(GeometryError::OutOfRange);
    }
    let half = cell * 0.5;
    if !(lines_apart(origin.x, lw - 1, half.x) && lines_apart(origin.y, lh - 1, half.y)) {
        return Err(GeometryError::OutOfRange);
    }
    if width == 0 || height == 0 {
        return Ok(Vec::new());
    }
    // Outgoing boundary steps per lattice point (a bit per step direction), solid on the left.
    let mut out: Vec<u16> = try_vec(points)?;
    out.resize(points, 0);
    let at = |i: i32, j: i32| j as usize * lw + i as usize;
    for y in 0..height {
        for x in 0..width {
            let corners = tile(x, y).corners();
            let (bx, by) = (2 * x as i32, 2 * y as i32);
            for (k, &(ax, ay)) in corners.iter().enumerate() {
                let (cx, cy) = corners[(k + 1) % corners.len()];
                let (mut i, mut j) = (bx + i32::from(ax), by + i32::from(ay));
                let (ex, ey) = (bx + i32::from(cx), by + i32::from(cy));
                // Axis and 45° edges in half-cell steps, 2:1 edges whole.
                let (dx, dy) = (ex - i, ey - j);
                let n = if dx.abs() == 2 * dy.abs() && dy != 0 {
                    1
                } else {
                    dx.abs().max(dy.abs())
                };
                let d = step_index(dx / n, dy / n);
                for _ in 0..n {
                    let (ni, nj) = (i + dx / n, j + dy / n);
                    let back = 1u16 << reverse(d);
                    if out[at(ni, nj)] & back != 0 {
                        out[at(ni, nj)] &= !back;
                    } else {
                        out[at(i, j)] |= 1 << d;
                    }
                    (i, j) = (ni, nj);
                }
            }
        }
    }

    let point = |v: usize| Vec2::new(line(origin.x, v % lw, half.x), line(origin.y, v / lw, half.y));
    let step = |v: usize, d: usize| {
        let (dx, dy) = STEPS[d];
        let i = (v % lw) as isize + isize::from(dx);
        let j = (v / lw) as isize + isize::from(dy);
        j as usize * lw + i as usize
    };
    let mut chains = Vec::new();
    // The current loop's lattice points, each with whether the boundary turns there.
    let mut walk: Vec<(usize, bool)> = Vec::new();
    for v0 in 0..points {
        while out[v0] & STEP_BITS != 0 {
            let d0 = out[v0].trailing_zeros() as usize;
            out[v0] &= !(1 << d0);
            walk.clear();
            let (mut v, mut d) = (step(v0, d0), d0);
            let closing = loop {
                // At `v`, arrived along step `d`: take the available step turning farthest
                // left (the start step, already taken, still closes the loop).
                let avail = (out[v] & STEP_BITS) | if v == v0 { 1 << d0 } else { 0 };
                let next = (0..12)
                    .filter(|&c| avail & (1 << c) != 0)
                    .max_by_key(|&c| left_turn(d, c));
                let Some(next) = next else {
                    // Unreachable for a consistent step set (as many steps leave every point as
                    // arrive); stop rather than loop.
                    break d0;
                };
                if v == v0 && next == d0 {
                    break d;
                }
                room_for_one(&mut walk)?;
                walk.push((v, next != d));
                visit(&mut out[v]);
                out[v] &= !(1 << next);
                v = step(v, next);
                d = next;
            };
            room_for_one(&mut walk)?;
            walk.push((v0, closing != d0));
            visit(&mut out[v0]);
            // The corners: where the boundary turns, and where this loop passes again (even
            // running straight there), so that every pass through a point the loop shares with
            // itself has a corner there, as `decompose` requires. At least 3, consecutive ones
            // distinct: clean as they are.
            let corners = walk
                .iter()
                .filter(|&&(v, turn)| turn || out[v] & VISITS >= 2 * VISIT);
            let mut exact = try_vec(corners.clone().count())?;
            exact.extend(corners.map(|&(v, _)| point(v)));
            for &(v, _) in &walk {
                out[v] &= !VISITS;
            }
            room_for_one(&mut chains)?;
            chains.push(Chain::from_clean(exact, true));
        }
    }
    Ok(chains)
}

/// [`slope_outlines`] over row-major tiles (`tiles[y * width + x]`, `y = 0` the bottom row).
/// Errors with [`GeometryError::InvalidGrid`] when `tiles.len() != width * height`.
pub fn slope_outlines_from_tiles(
    width: usize,
    height: usize,
    tiles: &[Tile],
    cell: Vec2,
    origin: Vec2,
) -> Result<Vec<Chain>, GeometryError> {
    if width.checked_mul(height) != Some(tiles.len()) {
        return Err(GeometryError::InvalidGrid);
    }
    slope_outlines(width, height, cell, origin, |x, y| tiles[y * width + x])
}

/// How the heights of a [`heightfield`] make its surface.
#[repr(u8)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HeightfieldKind {
    /// Height `k` is the surface at `x = origin.x + k · spacing`; neighbouring samples are
    /// joined by straight segments (a terrain): `n` heights span `n − 1` spacings.
    #[default]
    Samples = 0,
    /// Height `k` is a flat column from `origin.x + k · spacing` to the next multiple, with a
    /// vertical step to the next column (a skyline): `n` heights span `n` spacings.
    Columns = 1,
}

/// The surface of a terrain given as heights above `origin.y` (see [`HeightfieldKind`]), as an
/// open chain with its front side up (listed right to left, so that bodies above collide and
/// bodies below pass), or, with `bottom`, as a closed counter-clockwise loop enclosing the
/// ground from the surface down to the height `origin.y + bottom`.
///
/// Sample `k` lies at `x = origin.x + (k as f32) · spacing` and `y = origin.y + height`, each
/// computed in `f32` once. The chain passes through every one of these points: only a point
/// equal to the one before it or lying exactly on the segment between its neighbours (an
/// exact orientation test, no distance tolerance) is merged, so the surface keeps its shape at
/// any distance from the origin (a bump of one unit at 1e7 stays).
///
/// Errors: [`GeometryError::NonFinite`] for a non-finite height, origin or bottom;
/// [`GeometryError::InvalidGrid`] when `spacing` is not finite and positive, or `bottom` is
/// not below every height; [`GeometryError::TooFewPoints`] for fewer than 2 samples (1
/// column), or two consecutive points too close for a segment direction (a step below about
/// 1e-19); [`GeometryError::OutOfRange`] when two neighbouring sample lines round to the same
/// `f32` or lie closer than about 1e-19 (as a tile map's grid lines), when a point or the
/// extent overflows `f32`, or when the bottom rounds onto the surface;
/// [`GeometryError::OutOfMemory`] when the allocator cannot provide room for the points.
pub fn heightfield(
    origin: Vec2,
    spacing: f32,
    heights: &[f32],
    kind: HeightfieldKind,
    bottom: Option<f32>,
) -> Result<Chain, GeometryError> {
    if !origin.is_finite() || heights.iter().any(|h| !h.is_finite()) || bottom.is_some_and(|b| !b.is_finite())
    {
        return Err(GeometryError::NonFinite);
    }
    if !(spacing > 0.0 && spacing.is_finite()) {
        return Err(GeometryError::InvalidGrid);
    }
    let least = match kind {
        HeightfieldKind::Samples => 2,
        HeightfieldKind::Columns => 1,
    };
    if heights.len() < least {
        return Err(GeometryError::TooFewPoints);
    }
    if let Some(b) = bottom {
        if heights.iter().any(|&h| h <= b) {
            return Err(GeometryError::InvalidGrid);
        }
    }
    let columns = kind == HeightfieldKind::Columns;
    // The sample (or column edge) lines, as a tile map's grid lines: strictly increasing and
    // apart by a distance with a direction.
    let spans = if columns { heights.len() } else { heights.len() - 1 };
    let x = |k: usize| line(origin.x, k, spacing);
    let y = |h: f32| origin.y + h;
    if !x(spans).is_finite() || !lines_apart(origin.x, spans, spacing) {
        return Err(GeometryError::OutOfRange);
    }
    if heights.iter().any(|&h| !y(h).is_finite()) {
        return Err(GeometryError::OutOfRange);
    }
    if let Some(b) = bottom {
        // The bottom must stay below the surface once both are rounded to `f32`.
        if !y(b).is_finite() || heights.iter().any(|&h| y(h) <= y(b)) {
            return Err(GeometryError::OutOfRange);
        }
    }
    let count = if columns { 2 * heights.len() } else { heights.len() } + 2 * usize::from(bottom.is_some());
    let mut pts: Vec<Vec2> = try_vec(count)?;
    // The surface from right to left: the solid below is then on the left of every edge.
    for (k, &h) in heights.iter().enumerate().rev() {
        if columns {
            pts.push(Vec2::new(x(k + 1), y(h)));
        }
        pts.push(Vec2::new(x(k), y(h)));
    }
    if let Some(b) = bottom {
        // Down the left side, along the bottom, up the right side (back to the start).
        pts.push(Vec2::new(x(0), y(b)));
        pts.push(Vec2::new(x(spans), y(b)));
    }
    let closed = bottom.is_some();
    finite_extent(&pts)?;
    drop_straight(&mut pts, closed, |_| false);
    // Consecutive points are distinct now (the surface's `x` only decreases, the bottom lies
    // below it); each segment must also have a direction.
    let n = pts.len();
    let segments = if closed { n } else { n - 1 };
    if (0..segments).any(|i| (pts[(i + 1) % n] - pts[i]).try_normalize().is_none()) {
        return Err(GeometryError::TooFewPoints);
    }
    Ok(Chain::from_clean(pts, closed))
}
