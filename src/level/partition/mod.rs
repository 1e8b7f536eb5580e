//! Concave and large polygons: decomposition of a simple or weakly simple polygon into convex
//! pieces of at most [`MAX_POLYGON_VERTICES`](crate::geometry::MAX_POLYGON_VERTICES) vertices,
//! in O(n log n) time and O(n) memory.
//!
//! 1. Clean-up: consecutive duplicate points and collinear in-between points are welded as a
//!    chain loop welds them ([`Chain::closed`](crate::geometry::Chain::closed)); clockwise input
//!    is walked backwards.
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
//! only when [`Polygon::is_valid`] accepts exactly its vertices, so the pieces tile the welded
//! polygon: their areas sum to its area (to `f64` rounding of the sums) and they do not overlap.

mod exact;
mod merge;
mod sweep;
mod treap;
mod validate;

use crate::geometry::chain::{room_for_one, try_vec};
use crate::geometry::{Chain, GeometryError, Polygon};
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
/// The polygon, after welding, must be **weakly simple**, which here means:
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
/// visited twice must be a corner of each pass: welding drops a vertex where the boundary runs
/// straight, which leaves the other pass's vertex inside that edge. No piece reaches across a
/// bridge or from one pass's wedge into another's.
///
/// Every piece passes [`Polygon::is_valid`] with vertices taken from the welded polygon, and
/// the pieces tile it: no overlap, and areas summing to its area (in `f64`, to rounding). A
/// piece's edge may pass through a vertex where its neighbours meet (a corner exactly straight
/// in the piece is left out of it). The one exception is a sliver too thin for
/// [`Polygon::is_valid`] in `f32` that no valid piece can take in: it becomes its hull
/// ([`Polygon::new`]), or is left out when its area is below 1e-6 of the polygon's.
///
/// The count is the fewest convex pieces of at most 6 triangles the triangulation allows,
/// then reduced by merging pieces greedily: a convex polygon of n vertices gives
/// `ceil((n − 2) / 6)` pieces.
///
/// Time O(n log n) and working memory O(n) for n points. Errors:
/// [`GeometryError::NonFinite`], [`GeometryError::OutOfRange`],
/// [`GeometryError::TooFewPoints`] (fewer than 3 points after welding),
/// [`GeometryError::SelfIntersecting`], and [`GeometryError::OutOfMemory`] when the allocator
/// cannot provide the working memory (all of it freed again).
pub fn decompose(points: &[Vec2]) -> Result<Vec<Polygon>, GeometryError> {
    let chain = Chain::closed(points)?;
    let area_sign = chain.signed_area();
    let loop_pts = chain.into_points();
    let n = loop_pts.len();
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

/// Twice the signed area of triangle `a`, `b`, `c` (rounded).
fn orient_area(a: P, b: P, c: P) -> f64 {
    (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
}
