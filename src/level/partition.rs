//! Concave and large polygons: decomposition of a simple polygon into convex pieces of at most
//! [`MAX_POLYGON_VERTICES`] vertices.
//!
//! 1. Clean-up: consecutive duplicate points and collinear in-between points are welded as a
//!    chain loop welds them ([`Chain::closed`](crate::geometry::Chain::closed)); clockwise input
//!    is reversed.
//! 2. Validation: a polygon whose edges cross or touch anywhere but at shared neighbours is
//!    rejected with [`GeometryError::SelfIntersecting`] (O(n²) edge pairs).
//! 3. Ear clipping (O(n²)): every orientation test in `f64`, exact for `f32` input up to the
//!    last rounding of one subtraction, so slivers never flip.
//! 4. Hertel–Mehlhorn: diagonals are removed, longest first, whenever the two pieces they
//!    separate merge into a convex piece of at most 8 vertices. Without the 8-vertex cap this is
//!    within 4 × the optimal piece count; with it, each merge stops where a `Polygon` would
//!    overflow (the count is reported against parry2d's `hertel_mehlhorn` in the tests).
//!
//! Each piece keeps its exact vertices when they pass [`Polygon::is_valid`] (so the pieces tile
//! the polygon without gaps), and otherwise goes through [`Polygon::new`]'s hull; a piece whose
//! area is below 1e-6 of the whole (a sliver that round-off left unmerged) is dropped rather
//! than reported as an error.

use crate::geometry::{Chain, GeometryError, Polygon, MAX_POLYGON_VERTICES};
use crate::math::Vec2;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

type P = (f64, f64);

/// A merge must leave the corners at the removed diagonal turning by more than this sine, so
/// no piece gets a vertex the hull would weld away.
const MERGE_SIN_TOLERANCE: f64 = 1.0e-3;

#[inline]
fn cross(o: P, a: P, b: P) -> f64 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

fn to64(v: Vec2) -> P {
    (f64::from(v.x), f64::from(v.y))
}

/// Whether segments `a1`–`a2` and `b1`–`b2` share any point (touching counts).
fn segments_meet(a1: P, a2: P, b1: P, b2: P) -> bool {
    let d1 = cross(b1, b2, a1);
    let d2 = cross(b1, b2, a2);
    let d3 = cross(a1, a2, b1);
    let d4 = cross(a1, a2, b2);
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    let on = |p: P, q: P, r: P| {
        // r on segment p–q, given collinear.
        r.0 >= p.0.min(q.0) && r.0 <= p.0.max(q.0) && r.1 >= p.1.min(q.1) && r.1 <= p.1.max(q.1)
    };
    (d1 == 0.0 && on(b1, b2, a1))
        || (d2 == 0.0 && on(b1, b2, a2))
        || (d3 == 0.0 && on(a1, a2, b1))
        || (d4 == 0.0 && on(a1, a2, b2))
}

/// True when the loop's edges meet anywhere but at the shared vertex of neighbours.
fn self_intersects(v: &[P]) -> bool {
    let n = v.len();
    for i in 0..n {
        let (a1, a2) = (v[i], v[(i + 1) % n]);
        for j in i + 1..n {
            let adjacent = j == i + 1 || (i == 0 && j == n - 1);
            let (b1, b2) = (v[j], v[(j + 1) % n]);
            if adjacent {
                // Neighbours share one vertex; they must not fold back onto each other.
                let (shared, other_a, other_b) = if j == i + 1 { (a2, a1, b2) } else { (a1, a2, b1) };
                if cross(shared, other_a, other_b) == 0.0 {
                    let da = (other_a.0 - shared.0, other_a.1 - shared.1);
                    let db = (other_b.0 - shared.0, other_b.1 - shared.1);
                    if da.0 * db.0 + da.1 * db.1 > 0.0 {
                        return true;
                    }
                }
                continue;
            }
            if segments_meet(a1, a2, b1, b2) {
                return true;
            }
        }
    }
    false
}

/// Ear clipping of a counter-clockwise simple polygon: triangles as index triples.
fn triangulate(v: &[P]) -> Vec<[usize; 3]> {
    let n = v.len();
    let mut prev: Vec<usize> = (0..n).map(|i| (i + n - 1) % n).collect();
    let mut next: Vec<usize> = (0..n).map(|i| (i + 1) % n).collect();
    let mut alive = n;
    let mut tris = Vec::with_capacity(n.saturating_sub(2));
    let convex = |p: usize, i: usize, q: usize| cross(v[p], v[i], v[q]) > 0.0;
    let is_ear = |prev: &[usize], next: &[usize], i: usize, start: usize| -> bool {
        let (p, q) = (prev[i], next[i]);
        if !convex(p, i, q) {
            return false;
        }
        // No other remaining vertex inside or on the triangle (only reflex ones can be).
        let mut k = next[q];
        while k != p {
            let r = v[k];
            let same = |a: P| a == r;
            if !(same(v[p]) || same(v[i]) || same(v[q]))
                && cross(v[p], v[i], r) >= 0.0
                && cross(v[i], v[q], r) >= 0.0
                && cross(v[q], v[p], r) >= 0.0
            {
                return false;
            }
            k = next[k];
            if k == start {
                break;
            }
        }
        true
    };
    let mut i = 0;
    let mut misses = 0;
    while alive > 3 {
        if is_ear(&prev, &next, i, i) {
            let (p, q) = (prev[i], next[i]);
            tris.push([p, i, q]);
            next[p] = q;
            prev[q] = p;
            alive -= 1;
            misses = 0;
            i = p;
        } else {
            misses += 1;
            if misses > alive {
                // Round-off left no strict ear (only possible with near-degenerate input):
                // clip the most convex vertex rather than fail.
                let mut best = i;
                let mut best_c = f64::NEG_INFINITY;
                let mut k = i;
                for _ in 0..alive {
                    let c = cross(v[prev[k]], v[k], v[next[k]]);
                    if c > best_c {
                        best_c = c;
                        best = k;
                    }
                    k = next[k];
                }
                let (p, q) = (prev[best], next[best]);
                tris.push([p, best, q]);
                next[p] = q;
                prev[q] = p;
                alive -= 1;
                misses = 0;
                i = p;
                continue;
            }
            i = next[i];
        }
    }
    tris.push([prev[i], i, next[i]]);
    tris
}

/// Hertel–Mehlhorn with a vertex cap: merges pieces across diagonals, longest first.
fn merge(v: &[P], tris: &[[usize; 3]], cap: usize) -> Vec<Vec<usize>> {
    let mut pieces: Vec<Vec<usize>> = tris.iter().map(|t| t.to_vec()).collect();
    let mut live: Vec<bool> = alloc::vec![true; pieces.len()];
    // The piece holding each directed edge; a diagonal is an edge held in both directions.
    let mut piece_of: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for (t, tri) in tris.iter().enumerate() {
        for e in 0..3 {
            piece_of.insert((tri[e], tri[(e + 1) % 3]), t);
        }
    }
    let mut diagonals: Vec<(usize, usize)> = piece_of
        .keys()
        .filter(|&&(a, b)| a < b && piece_of.contains_key(&(b, a)))
        .copied()
        .collect();
    let len2 = |d: &(usize, usize)| {
        let (a, b) = (v[d.0], v[d.1]);
        (a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)
    };
    diagonals.sort_by(|x, y| len2(y).total_cmp(&len2(x)));
    for (a, b) in diagonals {
        let (Some(&p), Some(&q)) = (piece_of.get(&(a, b)), piece_of.get(&(b, a))) else {
            continue;
        };
        if p == q || !live[p] || !live[q] {
            continue;
        }
        let (pp, qq) = (&pieces[p], &pieces[q]);
        if pp.len() + qq.len() - 2 > cap {
            continue;
        }
        // Merged loop: p from b round to a, then q from a round to b (ends not repeated).
        let (Some(ip), Some(iq)) = (pp.iter().position(|&x| x == b), qq.iter().position(|&x| x == a)) else {
            continue;
        };
        let mut merged = Vec::with_capacity(pp.len() + qq.len() - 2);
        merged.extend((0..pp.len() - 1).map(|k| pp[(ip + k) % pp.len()]));
        merged.extend((0..qq.len() - 1).map(|k| qq[(iq + k) % qq.len()]));
        let m = merged.len();
        // Strictly convex at both ends of the removed diagonal (the other corners were already):
        // a vertex within the hull's collinearity tolerance would be welded away by
        // `Polygon::new`, opening a gap between pieces.
        let corner = |k: usize| {
            let (p0, p1, p2) = (v[merged[(k + m - 1) % m]], v[merged[k]], v[merged[(k + 1) % m]]);
            let (e1, e2) = ((p1.0 - p0.0, p1.1 - p0.1), (p2.0 - p1.0, p2.1 - p1.1));
            let ll = (e1.0 * e1.0 + e1.1 * e1.1) * (e2.0 * e2.0 + e2.1 * e2.1);
            let c = cross(p0, p1, p2);
            c > 0.0 && c * c > MERGE_SIN_TOLERANCE * MERGE_SIN_TOLERANCE * ll
        };
        let convex = (0..m).all(|k| merged[k] != a && merged[k] != b || corner(k));
        if !convex {
            continue;
        }
        piece_of.remove(&(a, b));
        piece_of.remove(&(b, a));
        for k in 0..m {
            piece_of.insert((merged[k], merged[(k + 1) % m]), p);
        }
        pieces[p] = merged;
        live[q] = false;
    }
    pieces
        .into_iter()
        .zip(live)
        .filter(|(_, l)| *l)
        .map(|(p, _)| p)
        .collect()
}

/// Decomposes a simple polygon (either winding, any vertex count ≥ 3) into convex polygons of at
/// most 8 vertices (see the [module docs](self)). Errors: [`GeometryError::NonFinite`],
/// [`GeometryError::OutOfRange`], [`GeometryError::TooFewPoints`] (fewer than 3 points after
/// welding), [`GeometryError::SelfIntersecting`].
pub fn decompose(points: &[Vec2]) -> Result<Vec<Polygon>, GeometryError> {
    Ok(decompose_indices(points)?
        .1
        .into_iter()
        .filter_map(|p| p.ok())
        .collect())
}

/// The welded counter-clockwise loop, and each piece as a polygon or `Err` for a dropped sliver.
#[allow(clippy::type_complexity)]
fn decompose_indices(
    points: &[Vec2],
) -> Result<(Vec<Vec2>, Vec<Result<Polygon, GeometryError>>), GeometryError> {
    let chain = Chain::closed(points)?;
    let mut loop_pts = chain.points().to_vec();
    if chain.signed_area() < 0.0 {
        loop_pts.reverse();
    }
    let v: Vec<P> = loop_pts.iter().map(|p| to64(*p)).collect();
    if self_intersects(&v) {
        return Err(GeometryError::SelfIntersecting);
    }
    let total: f64 = (1..v.len() - 1).map(|i| cross(v[0], v[i], v[i + 1])).sum::<f64>() * 0.5;
    let tris = triangulate(&v);
    let pieces = merge(&v, &tris, MAX_POLYGON_VERTICES);
    let mut out = Vec::with_capacity(pieces.len());
    for piece in pieces {
        let pts: Vec<Vec2> = piece.iter().map(|&i| loop_pts[i]).collect();
        let pv: Vec<P> = pts.iter().map(|p| to64(*p)).collect();
        let area: f64 = (1..pv.len() - 1)
            .map(|i| cross(pv[0], pv[i], pv[i + 1]))
            .sum::<f64>()
            * 0.5;
        // The exact vertices when they make a valid polygon (the hull would weld a nearly flat
        // corner away and open a gap between pieces), else the hull.
        if let Some(p) = Polygon::from_convex_loop(&pts) {
            out.push(Ok(p));
            continue;
        }
        match Polygon::new(&pts) {
            Ok(p) => out.push(Ok(p)),
            Err(e) if area <= 1e-6 * total => out.push(Err(e)),
            Err(e) => return Err(e),
        }
    }
    Ok((loop_pts, out))
}
