//! Concave and large polygons: decomposition of a simple or weakly simple polygon into convex
//! pieces of at most [`MAX_POLYGON_VERTICES`](crate::geometry::MAX_POLYGON_VERTICES) vertices,
//! in O(n log n) time and O(n) memory.
//!
//! 1. Clean-up, which never moves the boundary: consecutive duplicate points are dropped, then
//!    every point lying exactly on the segment between its neighbours (by the exact
//!    orientation) unless the loop passes through that point more than once. No distance
//!    tolerance is involved, so a polygon keeps its shape at any distance from the origin
//!    (tile outlines at 1e7 included). Clockwise input is walked backwards.
//! 2. Validation: the loop must be weakly simple as [`decompose`] defines it, else
//!    [`GeometryError::SelfIntersecting`]. The passes through each point visited more than once
//!    are paired so that their wedges do not overlap (which may split the loop into loops),
//!    then a sweep line over the edges (Shamos–Hoey) finds any forbidden meeting of two edges.
//! 3. Triangulation by a second sweep line, which keeps a chain of reflex vertices per
//!    interval of the interior and cuts ears from it (Hertel and Mehlhorn's sweep); points
//!    visited twice are separated by an infinitesimal perturbation into their own wedges.
//! 4. Merging: an exact dynamic programme over the triangulation's dual tree picks the fewest
//!    convex pieces of at most 6 triangles (8 vertices) each; then pieces are merged greedily
//!    while the union is a valid piece. A corner exactly straight is left out of a piece (its
//!    vertex stays on the piece's edge), which joins fans over collinear vertices.
//!
//! Every decision is an exact predicate on the `f32` input (sums of products of `f32`
//! coordinates, each exact in `f64`, summed exactly where the rounded value is not conclusive),
//! so slivers never flip and far-apart magnitudes never mislead the sweeps. A piece is made
//! only when [`Polygon::is_valid`] accepts exactly its vertices, so the pieces tile the input
//! polygon: their areas sum to its area (to `f64` rounding of the sums) and they do not overlap.

mod exact;
mod merge;
mod sweep;
mod treap;
mod validate;

use crate::geometry::chain::{room_for_one, try_vec};
use crate::geometry::hull::finite_extent;
use crate::geometry::{GeometryError, Polygon};
use crate::math::Vec2;
use alloc::vec::Vec;
use exact::P;
use sweep::{Dir, Geometry};
use treap::NIL;

/// Appends `x` after making room fallibly.
fn push<T>(v: &mut Vec<T>, x: T) -> Result<(), GeometryError> {
    room_for_one(v)?;
    v.push(x);
    Ok(())
}

fn to64(v: Vec2) -> P {
    (f64::from(v.x), f64::from(v.y))
}

/// Decomposes a polygon (either winding, any vertex count ≥ 3) into convex polygons of at most
/// 8 vertices (see the [module docs](self)).
///
/// The points are first cleaned up without moving the boundary: consecutive duplicates are
/// dropped, then every point lying exactly (by an exact orientation test) inside the segment
/// between its neighbours, unless the loop passes through that point more than once. No
/// distance tolerance is used: nearby points are kept however close, at any distance from the
/// origin. The cleaned loop must be **weakly simple**, which here means:
/// - two edges meet only at a shared endpoint, or run along each other only as the same edge
///   traversed both ways (a zero-width bridge, as in a keyhole);
/// - at a point the boundary passes through more than once (two tiles meeting at a corner, a
///   hole touching its outline, a bridge's ends), the edges there, ordered by angle, alternate
///   between leaving and arriving, so the passes touch without crossing; each pass keeps the
///   wedge from its leaving edge counter-clockwise to the next arriving edge, whichever way
///   the input pairs them (two squares drawn as one loop through their common corner);
/// - no edge doubles back along the one before at a point the boundary visits only once (a
///   spike of zero width; where the point is visited again, the doubled edge is a bridge).
///
/// Anything else, a proper crossing, a vertex inside another edge, edges overlapping otherwise
/// or passes crossing at a shared point, is [`GeometryError::SelfIntersecting`]. A point
/// visited twice must be a vertex of each pass (a pass may run straight through it: such a
/// vertex is kept); a corner of one pass lying inside an edge of another is refused. No piece
/// reaches across a bridge or from one pass's wedge into another's.
///
/// Every piece passes [`Polygon::is_valid`] with vertices taken from the input points, and
/// the pieces tile the polygon: no overlap, and areas summing to its area (in `f64`, to
/// rounding: a relative 1e-9 covers it in the tests, at origins up to 1e7). A piece's edge may
/// pass through a vertex where its neighbours meet (a corner exactly straight in the piece is
/// left out of it). The one exception is a sliver too thin for [`Polygon::is_valid`] in `f32`
/// (a corner turning by less than about 1e-7 rad) that no valid piece can take in: it becomes
/// its hull ([`Polygon::new`], which may drop such a corner), or is left out when its area is
/// below 1e-6 of the polygon's.
///
/// The count is the fewest convex pieces of at most 6 triangles the triangulation allows,
/// then reduced by merging pieces greedily, so at most `n − 2` for n cleaned points (one per
/// triangle); a strictly convex polygon of n vertices gives `ceil((n − 2) / 6)` pieces, the
/// fewest possible.
///
/// Time O(n log n) and working memory O(n) for n points. Errors:
/// [`GeometryError::NonFinite`], [`GeometryError::OutOfRange`],
/// [`GeometryError::TooFewPoints`] (fewer than 3 points after the clean-up, or two
/// consecutive points too close for a direction, about 1e-19 apart, as in a chain),
/// [`GeometryError::SelfIntersecting`], and [`GeometryError::OutOfMemory`] when the allocator
/// cannot provide the working memory (all of it freed again).
pub fn decompose(points: &[Vec2]) -> Result<Vec<Polygon>, GeometryError> {
    if points.iter().any(|p| !p.is_finite()) {
        return Err(GeometryError::NonFinite);
    }
    if points.len() < 3 {
        return Err(GeometryError::TooFewPoints);
    }
    finite_extent(points)?;
    let loop_pts = clean_loop(points)?;
    let n = loop_pts.len();
    // Every edge must have a direction, as a chain's segments must.
    let edges = (0..n).map(|i| loop_pts[(i + 1) % n] - loop_pts[i]);
    if n < 3 || edges.into_iter().any(|e| e.try_normalize().is_none()) {
        return Err(GeometryError::TooFewPoints);
    }
    let area_sign: f64 = (1..n - 1)
        .map(|i| orient_area(to64(loop_pts[0]), to64(loop_pts[i]), to64(loop_pts[i + 1])))
        .sum();
    // Indices are `u32` (and an edge's triangle slot takes 2 more bits).
    if n >= (u32::MAX >> 3) as usize {
        return Err(GeometryError::OutOfMemory);
    }
    let mut v: Vec<P> = try_vec(n)?;
    v.extend(loop_pts.iter().map(|p| to64(*p)));
    let mut next: Vec<u32> = try_vec(n)?;
    next.extend((1..n as u32).chain([0]));
    let mut prev: Vec<u32> = try_vec(n)?;
    prev.extend([n as u32 - 1].into_iter().chain(0..n as u32 - 1));
    let mut order: Vec<u32> = try_vec(n)?;
    order.extend(0..n as u32);
    order.sort_unstable_by(|&a, &b| validate::sweep_cmp(v[a as usize], v[b as usize]).then(a.cmp(&b)));
    // Clockwise input is walked backwards.
    if !validate::counter_clockwise(&v, &next, &prev, &order).unwrap_or(area_sign >= 0.0) {
        core::mem::swap(&mut next, &mut prev);
    }
    validate::check(
        &mut validate::Loops {
            v: &v,
            next: &mut next,
            prev: &mut prev,
        },
        &order,
    )?;
    // Points visited more than once: perturbed into their wedges, then in perturbed order.
    let mut pert: Vec<u32> = try_vec(n)?;
    pert.resize(n, NIL);
    let mut shared = 0;
    let mut g = 0;
    while let Some((a, b)) = next_run(&v, &order, g) {
        shared += b - a;
        g = b;
    }
    let mut dirs: Vec<Dir> = try_vec(shared)?;
    let mut g = 0;
    while let Some((a, b)) = next_run(&v, &order, g) {
        for &w in &order[a..b] {
            let w = w as usize;
            pert[w] = dirs.len() as u32;
            dirs.push(Dir::into_wedge(v[prev[w] as usize], v[w], v[next[w] as usize]));
        }
        g = b;
    }
    let geometry = Geometry {
        v: &v,
        next: &next,
        prev: &prev,
        pert: &pert,
        dirs: &dirs,
    };
    let mut g = 0;
    while let Some((a, b)) = next_run(&v, &order, g) {
        order[a..b].sort_unstable_by(|&x, &y| geometry.sweep_cmp(x, y));
        g = b;
    }
    let tris = sweep::triangulate(&geometry, &order)?;
    let pieces = merge::merge(&v, &loop_pts, &tris)?;
    let total: f64 = ((1..n - 1).map(|i| orient_area(v[0], v[i], v[i + 1])).sum::<f64>() * 0.5).abs();
    let mut out = try_vec(pieces.len())?;
    for piece in &pieces {
        let k = piece.indices().len();
        let mut pts = [Vec2::ZERO; crate::geometry::MAX_POLYGON_VERTICES];
        for (j, &i) in piece.indices().iter().enumerate() {
            pts[j] = loop_pts[i as usize];
        }
        let pts = &pts[..k];
        if let Some(p) = Polygon::from_convex_loop(pts) {
            out.push(p);
            continue;
        }
        // Triangles no valid piece covers (a sliver too thin for `Polygon::is_valid` in `f32`):
        // their hull, or nothing when their area is negligible.
        let area: f64 = (1..k - 1)
            .map(|i| orient_area(to64(pts[0]), to64(pts[i]), to64(pts[i + 1])))
            .sum::<f64>()
            * 0.5;
        match Polygon::new(pts) {
            Ok(p) => out.push(p),
            Err(_) if area <= 1e-6 * total => {}
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// The first run `a..b` of `order` (indices sorted by point) from `g` on, of two or more
/// visits of one point.
fn next_run(v: &[P], order: &[u32], mut g: usize) -> Option<(usize, usize)> {
    let n = order.len();
    while g < n {
        let start = g;
        g += 1;
        while g < n && v[order[g] as usize] == v[order[start] as usize] {
            g += 1;
        }
        if g - start > 1 {
            return Some((start, g));
        }
    }
    None
}

/// Drops from a polyline (a loop when `closed`), in place and without allocating, every point
/// equal to the one before it and every point lying exactly on the segment between its
/// neighbours (by the exact orientation) for which `pinned` is false, repeatedly, so that no
/// such point is left (for a loop, across its seam too). The boundary is unchanged point for
/// point: the kept points are input points in input order, and every dropped point lies on a
/// kept segment. A point where the polyline doubles back (a spike) is kept. O(n) calls of
/// `pinned`.
pub(in crate::level) fn drop_straight(pts: &mut Vec<Vec2>, closed: bool, pinned: impl Fn(Vec2) -> bool) {
    if pts.is_empty() {
        return;
    }
    // `c` strictly inside the segment `p`–`q`: collinear, with `p` and `q` on either side of
    // it in the (total) sweep order.
    let inside = |p: Vec2, c: Vec2, q: Vec2| {
        let (p, c, q) = (to64(p), to64(c), to64(q));
        exact::orient(p, c, q) == 0 && exact::above(p, c) != exact::above(q, c)
    };
    let mut kept = 0;
    for i in 0..pts.len() {
        let c = pts[i];
        if kept > 0 && pts[kept - 1] == c {
            continue;
        }
        while kept >= 2 && inside(pts[kept - 2], pts[kept - 1], c) && !pinned(pts[kept - 1]) {
            kept -= 1;
        }
        pts[kept] = c;
        kept += 1;
    }
    pts.truncate(kept);
    if !closed {
        return;
    }
    // The seam: the last point against the first, and the first against its neighbours.
    let mut head = 0;
    loop {
        let last = pts.len() - 1;
        let n = pts.len() - head;
        let duplicate = n >= 2 && pts[last] == pts[head];
        if duplicate || (n >= 3 && inside(pts[last - 1], pts[last], pts[head]) && !pinned(pts[last])) {
            pts.pop();
        } else if n >= 3 && inside(pts[last], pts[head], pts[head + 1]) && !pinned(pts[head]) {
            head += 1;
        } else {
            break;
        }
    }
    pts.drain(..head);
}

/// The order of points used to find repeated ones: by `x`, then `y` (finite values; `-0.0`
/// and `0.0` are one point, as `==` has it).
fn point_cmp(a: &Vec2, b: &Vec2) -> core::cmp::Ordering {
    let key = |f: f32| if f == 0.0 { 0.0 } else { f };
    key(a.x).total_cmp(&key(b.x)).then(key(a.y).total_cmp(&key(b.y)))
}

/// The loop `points` cleaned for [`decompose`]: consecutive duplicates dropped, then every
/// point exactly inside the segment between its neighbours, unless the loop visits that point
/// more than once (each pass through a shared point keeps its vertex there).
fn clean_loop(points: &[Vec2]) -> Result<Vec<Vec2>, GeometryError> {
    let mut pts: Vec<Vec2> = try_vec(points.len())?;
    pts.extend_from_slice(points);
    drop_straight(&mut pts, true, |_| true);
    // The points visited more than once, sorted (each listed once).
    let mut repeated: Vec<Vec2> = try_vec(pts.len())?;
    repeated.extend_from_slice(&pts);
    repeated.sort_unstable_by(point_cmp);
    let mut k = 0;
    let mut i = 0;
    while i < repeated.len() {
        let mut j = i + 1;
        while j < repeated.len() && repeated[j] == repeated[i] {
            j += 1;
        }
        if j - i > 1 {
            repeated[k] = repeated[i];
            k += 1;
        }
        i = j;
    }
    repeated.truncate(k);
    drop_straight(&mut pts, true, |c| {
        repeated.binary_search_by(|r| point_cmp(r, &c)).is_ok()
    });
    Ok(pts)
}

/// Twice the signed area of triangle `a`, `b`, `c` (rounded).
fn orient_area(a: P, b: P, c: P) -> f64 {
    (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
}
