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

use crate::geometry::chain::try_vec;
use crate::geometry::{Chain, GeometryError, Polygon, MAX_POLYGON_VERTICES};
use crate::math::Vec2;
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

/// Ear clipping of a counter-clockwise simple polygon of at least 3 vertices: its `n - 2`
/// triangles as index triples.
fn triangulate(v: &[P]) -> Result<Vec<[usize; 3]>, GeometryError> {
    let n = v.len();
    let mut prev: Vec<usize> = try_vec(n)?;
    prev.extend((0..n).map(|i| (i + n - 1) % n));
    let mut next: Vec<usize> = try_vec(n)?;
    next.extend((0..n).map(|i| (i + 1) % n));
    let mut alive = n;
    // One triangle per clipped vertex down to the last 3, and those: `n - 2` in all.
    let mut tris = try_vec(n.saturating_sub(2))?;
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
    Ok(tris)
}

/// A convex piece: indices into the loop, counter-clockwise, at most
/// [`MAX_POLYGON_VERTICES`] of them.
#[derive(Clone, Copy)]
struct Piece {
    index: [usize; MAX_POLYGON_VERTICES],
    len: usize,
}

impl Piece {
    fn indices(&self) -> &[usize] {
        &self.index[..self.len]
    }
}

/// No piece: an edge removed with its diagonal.
const NO_PIECE: usize = usize::MAX;

/// The piece holding each directed edge, sorted by edge. A merge only removes edges (the
/// diagonal, both ways) and hands the others to the merged piece, so the table is built once
/// and never grows.
struct EdgeTable(Vec<((usize, usize), usize)>);

impl EdgeTable {
    /// The edges of the triangles; an edge listed twice belongs to the later triangle.
    fn new(tris: &[[usize; 3]]) -> Result<EdgeTable, GeometryError> {
        let mut e: Vec<((usize, usize), usize)> = try_vec(tris.len().saturating_mul(3))?;
        for (t, tri) in tris.iter().enumerate() {
            e.extend((0..3).map(|k| ((tri[k], tri[(k + 1) % 3]), t)));
        }
        // By edge, then by triangle: the last of a run of one edge is its latest triangle.
        e.sort_unstable();
        let mut kept = 0;
        for k in 0..e.len() {
            if kept > 0 && e[kept - 1].0 == e[k].0 {
                e[kept - 1] = e[k];
            } else {
                e[kept] = e[k];
                kept += 1;
            }
        }
        e.truncate(kept);
        Ok(EdgeTable(e))
    }

    fn get(&self, edge: (usize, usize)) -> Option<usize> {
        let k = self.0.binary_search_by_key(&edge, |x| x.0).ok()?;
        Some(self.0[k].1).filter(|&p| p != NO_PIECE)
    }

    /// Gives `edge` to `piece` (`NO_PIECE`: removes it). Every edge set is one of the table's.
    fn set(&mut self, edge: (usize, usize), piece: usize) {
        if let Ok(k) = self.0.binary_search_by_key(&edge, |x| x.0) {
            self.0[k].1 = piece;
        }
    }

    /// The diagonals `(a, b)`, `a < b`: the edges held both ways, in edge order.
    fn diagonals(&self) -> Result<Vec<(usize, usize)>, GeometryError> {
        let both = |&&((a, b), _): &&((usize, usize), usize)| a < b && self.get((b, a)).is_some();
        let mut d = try_vec(self.0.iter().filter(both).count())?;
        d.extend(self.0.iter().filter(both).map(|x| x.0));
        Ok(d)
    }
}

/// Hertel–Mehlhorn with the polygon vertex cap: merges pieces across diagonals, longest first.
fn merge(v: &[P], tris: &[[usize; 3]]) -> Result<Vec<Piece>, GeometryError> {
    let cap = MAX_POLYGON_VERTICES;
    let mut pieces: Vec<Piece> = try_vec(tris.len())?;
    pieces.extend(tris.iter().map(|t| {
        let mut index = [0; MAX_POLYGON_VERTICES];
        index[..3].copy_from_slice(t);
        Piece { index, len: 3 }
    }));
    let mut live: Vec<bool> = try_vec(pieces.len())?;
    live.resize(pieces.len(), true);
    // The piece holding each directed edge; a diagonal is an edge held in both directions.
    let mut piece_of = EdgeTable::new(tris)?;
    let mut diagonals = piece_of.diagonals()?;
    let len2 = |d: &(usize, usize)| {
        let (a, b) = (v[d.0], v[d.1]);
        (a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)
    };
    // Longest first; equal lengths in edge order (an unstable sort needs no scratch memory).
    diagonals.sort_unstable_by(|x, y| len2(y).total_cmp(&len2(x)).then(x.cmp(y)));
    for (a, b) in diagonals {
        let (Some(p), Some(q)) = (piece_of.get((a, b)), piece_of.get((b, a))) else {
            continue;
        };
        if p == q || !live[p] || !live[q] {
            continue;
        }
        let (pp, qq) = (pieces[p].indices(), pieces[q].indices());
        if pp.len() + qq.len() - 2 > cap {
            continue;
        }
        // Merged loop: p from b round to a, then q from a round to b (ends not repeated).
        let (Some(ip), Some(iq)) = (pp.iter().position(|&x| x == b), qq.iter().position(|&x| x == a)) else {
            continue;
        };
        let mut merged = Piece {
            index: [0; MAX_POLYGON_VERTICES],
            len: 0,
        };
        for k in (0..pp.len() - 1).map(|k| pp[(ip + k) % pp.len()]) {
            merged.index[merged.len] = k;
            merged.len += 1;
        }
        for k in (0..qq.len() - 1).map(|k| qq[(iq + k) % qq.len()]) {
            merged.index[merged.len] = k;
            merged.len += 1;
        }
        let merged_at = merged.indices();
        let m = merged_at.len();
        // Strictly convex at both ends of the removed diagonal (the other corners were already):
        // a vertex within the hull's collinearity tolerance would be welded away by
        // `Polygon::new`, opening a gap between pieces.
        let corner = |k: usize| {
            let (p0, p1, p2) = (
                v[merged_at[(k + m - 1) % m]],
                v[merged_at[k]],
                v[merged_at[(k + 1) % m]],
            );
            let (e1, e2) = ((p1.0 - p0.0, p1.1 - p0.1), (p2.0 - p1.0, p2.1 - p1.1));
            let ll = (e1.0 * e1.0 + e1.1 * e1.1) * (e2.0 * e2.0 + e2.1 * e2.1);
            let c = cross(p0, p1, p2);
            c > 0.0 && c * c > MERGE_SIN_TOLERANCE * MERGE_SIN_TOLERANCE * ll
        };
        let convex = (0..m).all(|k| merged_at[k] != a && merged_at[k] != b || corner(k));
        if !convex {
            continue;
        }
        // Every edge of the merged loop was one of p's or q's: it changes hands, none is new.
        piece_of.set((a, b), NO_PIECE);
        piece_of.set((b, a), NO_PIECE);
        for k in 0..m {
            piece_of.set((merged_at[k], merged_at[(k + 1) % m]), p);
        }
        pieces[p] = merged;
        live[q] = false;
    }
    let mut kept = 0;
    for k in 0..pieces.len() {
        if live[k] {
            pieces[kept] = pieces[k];
            kept += 1;
        }
    }
    pieces.truncate(kept);
    Ok(pieces)
}

/// Decomposes a simple polygon (either winding, any vertex count ≥ 3) into convex polygons of at
/// most 8 vertices (see the [module docs](self)). Errors: [`GeometryError::NonFinite`],
/// [`GeometryError::OutOfRange`], [`GeometryError::TooFewPoints`] (fewer than 3 points after
/// welding), [`GeometryError::SelfIntersecting`], and [`GeometryError::OutOfMemory`] when the
/// allocator cannot provide the working memory (O(n) for n points; all of it freed again).
pub fn decompose(points: &[Vec2]) -> Result<Vec<Polygon>, GeometryError> {
    let chain = Chain::closed(points)?;
    let clockwise = chain.signed_area() < 0.0;
    // The welded counter-clockwise loop.
    let mut loop_pts = chain.into_points();
    if clockwise {
        loop_pts.reverse();
    }
    let mut v: Vec<P> = try_vec(loop_pts.len())?;
    v.extend(loop_pts.iter().map(|p| to64(*p)));
    if self_intersects(&v) {
        return Err(GeometryError::SelfIntersecting);
    }
    let total: f64 = (1..v.len() - 1).map(|i| cross(v[0], v[i], v[i + 1])).sum::<f64>() * 0.5;
    let tris = triangulate(&v)?;
    let pieces = merge(&v, &tris)?;
    let mut out = try_vec(pieces.len())?;
    for piece in &pieces {
        let n = piece.len;
        let mut pts = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        let mut pv = [(0.0, 0.0); MAX_POLYGON_VERTICES];
        for (k, &i) in piece.indices().iter().enumerate() {
            pts[k] = loop_pts[i];
            pv[k] = to64(loop_pts[i]);
        }
        let (pts, pv) = (&pts[..n], &pv[..n]);
        let area: f64 = (1..pv.len() - 1)
            .map(|i| cross(pv[0], pv[i], pv[i + 1]))
            .sum::<f64>()
            * 0.5;
        // The exact vertices when they make a valid polygon (the hull would weld a nearly flat
        // corner away and open a gap between pieces), else the hull.
        if let Some(p) = Polygon::from_convex_loop(pts) {
            out.push(p);
            continue;
        }
        match Polygon::new(pts) {
            Ok(p) => out.push(p),
            // A sliver that round-off left unmerged: dropped.
            Err(_) if area <= 1e-6 * total => {}
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}
