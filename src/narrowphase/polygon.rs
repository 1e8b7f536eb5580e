//! Polygon pairs: polygon–polygon and polygon–capsule (the capsule as a rounded 2-gon;
//! polygon–circle is in `polygon_circle.rs`).
//!
//! The algorithm, as Box2D v3's `b2CollidePolygons`:
//! 1. Both polygons go into A's frame shifted to A's vertex 0 ([`LocalPoly`]), so round-off does
//!    not depend on where the pair sits in the world.
//! 2. SAT: the face of each polygon with the largest separation of the other's vertices
//!    ([`find_max_separation`]); two canonical axis-aligned boxes take a shortcut with
//!    bit-identical results (`box_pair.rs`).
//! 3. The verdict ([`polygon_verdict`]), shared by `overlaps` and `collide`: apart beyond the
//!    radii plus margin, or in contact. When the cores are apart (rounded polygons, margins) the
//!    exact closest core points decide: a certified reference/incident edge pair, else GJK, else
//!    all edge pairs.
//! 4. The manifold: clip the incident edge against the reference face's side planes (two
//!    points), unless the cores are apart at a vertex, where the exact closest points give one.

use super::box_pair::{box_pair_decide, is_canonical_box, BoxPair};
use super::polygon_circle::{polygon_circle_decide, polygon_circle_local};
use super::{
    b_first, make_id, pair_frame, polygon_pair_frames, sanitize_margin, segment_feature, surface_midpoint,
    within, LocalManifold, Manifold, FEATURE_EDGE,
};
use crate::distance::{gjk, ShapeProxy, SimplexCache};
use crate::fmath;
use crate::geometry::{capsule_as_circle, Capsule, Polygon, MAX_POLYGON_VERTICES};
use crate::math::{Rot, Transform, Vec2};
use crate::segment::segment_closest;

// ---------------------------------------------------------------------------------------------
// Polygon pairs

/// A polygon (or a capsule as a 2-gon) in a query's local frame.
#[derive(Clone, Copy)]
pub(crate) struct LocalPoly {
    pub v: [Vec2; MAX_POLYGON_VERTICES],
    pub n: [Vec2; MAX_POLYGON_VERTICES],
    /// The vertex count, 2..=8 ([`LocalPoly::count`]). A `u32`, written and read with one
    /// 4-byte access: as a `usize` it was stored as two 4-byte halves and read back whole,
    /// which defeats store forwarding (a stall on every polygon pair).
    len: u32,
    pub radius: f32,
    /// An axis-aligned rectangle in this frame with the canonical box layout (see
    /// [`LocalPoly::is_aligned_box`]): SAT against it needs no dot products per vertex.
    pub aligned: bool,
}

impl LocalPoly {
    /// The number of vertices.
    #[inline(always)]
    pub(crate) fn count(&self) -> usize {
        self.len as usize
    }

    /// Whether this is an axis-aligned box in this frame, laid out canonically
    /// ([`is_canonical_box`]), so the SAT shortcuts in [`find_max_separation`] give bit-for-bit
    /// the values of the full loops.
    #[inline(always)]
    fn is_aligned_box(&self) -> bool {
        is_canonical_box(self.len, &self.v, &self.n)
    }

    /// The polygon transformed by `xf`; `None` for invalid count, radius or non-finite data.
    #[inline(always)]
    pub(crate) fn from_polygon(p: &Polygon, xf: Transform) -> Option<LocalPoly> {
        let count = p.count as usize;
        if !(3..=MAX_POLYGON_VERTICES).contains(&count) || !(p.radius >= 0.0) {
            return None;
        }
        let mut lp = LocalPoly {
            v: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            n: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            len: count as u32,
            radius: p.radius,
            aligned: false,
        };
        // One finiteness test over the sum of everything (a non-finite term, or an overflow
        // of coordinates beyond f32 range, makes the sum non-finite).
        let mut sum = p.radius;
        if xf.q == Rot::IDENTITY {
            // A's frame only shifts it: no rotation work.
            for (i, (v, n)) in p.vertices[..count].iter().zip(&p.normals[..count]).enumerate() {
                let v = *v + xf.p;
                sum += v.x + v.y + n.x + n.y;
                lp.v[i] = v;
                lp.n[i] = *n;
            }
        } else {
            for (i, (v, n)) in p.vertices[..count].iter().zip(&p.normals[..count]).enumerate() {
                let v = xf.apply(*v);
                let n = xf.q.rotate(*n);
                sum += v.x + v.y + n.x + n.y;
                lp.v[i] = v;
                lp.n[i] = n;
            }
        }
        if fmath::nan_if_not_finite(sum) != 0.0 {
            return None;
        }
        lp.aligned = lp.is_aligned_box();
        Some(lp)
    }

    /// The capsule as a two-sided 2-gon transformed by `xf` (core segment must be non-degenerate).
    #[inline]
    pub(crate) fn from_capsule(c: &Capsule, xf: Transform) -> Option<LocalPoly> {
        let a = xf.apply(c.center1);
        let b = xf.apply(c.center2);
        let n = (b - a).try_normalize()?.right_perp();
        let mut lp = LocalPoly {
            v: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            n: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            len: 2,
            radius: c.radius,
            aligned: false,
        };
        lp.v[0] = a;
        lp.v[1] = b;
        lp.n[0] = n;
        lp.n[1] = -n;
        Some(lp)
    }

    /// The incident edge against a reference face of normal `n1`: the edge whose normal is
    /// the most anti-parallel to it (the first of equals).
    #[inline]
    fn incident_edge(&self, n1: Vec2) -> usize {
        let mut e = 0;
        let mut min_dot = f32::INFINITY;
        for (i, n) in self.n[..self.count()].iter().enumerate() {
            let d = n1.dot(*n);
            if d < min_dot {
                min_dot = d;
                e = i;
            }
        }
        e
    }

    #[inline]
    fn next(&self, i: usize) -> usize {
        if i + 1 < self.count() {
            i + 1
        } else {
            0
        }
    }
}

/// Max over `p1`'s edges of the min separation of `p2`'s vertices: (separation, edge).
/// Ties go to the lowest edge index. An axis-aligned box on either side takes a shortcut with
/// bit-identical results (see [`LocalPoly::is_aligned_box`]).
#[inline]
pub(super) fn find_max_separation(p1: &LocalPoly, p2: &LocalPoly) -> (f32, usize) {
    // Inputs are validated finite, so plain comparisons replace the NaN-aware `f32::min`, and
    // slices let the bounds checks go.
    let verts2 = &p2.v[..p2.count()];
    let mut best = f32::NEG_INFINITY;
    let mut best_i = 0;
    if p1.aligned {
        // The four minima of n · w are the extremes of p2's coordinates.
        let (mut lo_x, mut hi_x, mut lo_y, mut hi_y) = (verts2[0].x, verts2[0].x, verts2[0].y, verts2[0].y);
        for w in &verts2[1..] {
            lo_x = if w.x < lo_x { w.x } else { lo_x };
            hi_x = if w.x > hi_x { w.x } else { hi_x };
            lo_y = if w.y < lo_y { w.y } else { lo_y };
            hi_y = if w.y > hi_y { w.y } else { hi_y };
        }
        let mins = [-hi_y, lo_x, lo_y, -hi_x];
        for (i, (n, v)) in p1.n[..4].iter().zip(&p1.v[..4]).enumerate() {
            let si = mins[i] - n.dot(*v);
            if si > best {
                best = si;
                best_i = i;
            }
        }
        return (best, best_i);
    }
    // p2's vertices as coordinate lanes (the slots past its count repeat vertex 0, which
    // changes no minimum), for the general case's 4-lane minimum.
    let m = p2.count();
    let mut xs = [0.0f32; MAX_POLYGON_VERTICES];
    let mut ys = [0.0f32; MAX_POLYGON_VERTICES];
    for i in 0..MAX_POLYGON_VERTICES {
        let w = p2.v[if i < m { i } else { 0 }];
        xs[i] = w.x;
        ys[i] = w.y;
    }
    let wide = m > 4;
    for (i, (n, v)) in p1.n[..p1.count()].iter().zip(&p1.v[..p1.count()]).enumerate() {
        // min over p2 of n · (w − v) = min(n · w) − n · v
        let si = if p2.aligned {
            // The minimising corner of an axis-aligned box, by the signs of n: (+,+) → 0,
            // (−,+) → 1, (−,−) → 2, (+,−) → 3. Looked up rather than branched on (the signs
            // are random per pair, so branches mispredict).
            const CORNER: [usize; 4] = [0, 1, 3, 2];
            let k = CORNER[usize::from(!(n.x >= 0.0)) | usize::from(!(n.y >= 0.0)) << 1];
            n.dot(verts2[k])
        } else {
            // The same products as `n.dot(w)`, so the same minimum bit for bit.
            let mut lo = [f32::INFINITY; 4];
            for k in 0..4 {
                let d = n.x * xs[k] + n.y * ys[k];
                lo[k] = if d < lo[k] { d } else { lo[k] };
            }
            if wide {
                for k in 0..4 {
                    let d = n.x * xs[4 + k] + n.y * ys[4 + k];
                    lo[k] = if d < lo[k] { d } else { lo[k] };
                }
            }
            let a = if lo[1] < lo[0] { lo[1] } else { lo[0] };
            let b = if lo[3] < lo[2] { lo[3] } else { lo[2] };
            if b < a {
                b
            } else {
                a
            }
        };
        let si = si - n.dot(*v);
        if si > best {
            best = si;
            best_i = i;
        }
    }
    (best, best_i)
}

/// The feature of edge `v0`→`v1` at fraction `f` along it: vertex `v0`, vertex `v1` or the
/// edge (named by its first vertex).
#[inline]
fn edge_feature(f: f32, v0: usize, v1: usize) -> u8 {
    match segment_feature(f) {
        0 => v0 as u8,
        1 => v1 as u8,
        _ => FEATURE_EDGE | v0 as u8,
    }
}

/// Closest points of two cores with their features (vertex `i` or `FEATURE_EDGE | i`).
#[derive(Clone, Copy, Debug)]
pub(super) struct CorePoints {
    /// The point on A's core (the query's local frame).
    pub(super) pa: Vec2,
    /// The point on B's core.
    pub(super) pb: Vec2,
    /// Squared distance between them.
    pub(super) dist_sq: f32,
    /// A's feature.
    pub(super) fa: u8,
    /// B's feature.
    pub(super) fb: u8,
}

/// Closest points between two separated convex cores by checking every edge pair: the exact
/// fallback of [`closest_cores`].
fn brute_force_closest(pa: &LocalPoly, pb: &LocalPoly) -> CorePoints {
    let mut best = CorePoints {
        pa: Vec2::ZERO,
        pb: Vec2::ZERO,
        dist_sq: f32::INFINITY,
        fa: 0,
        fb: 0,
    };
    for i in 0..pa.count() {
        let (a0, a1) = (pa.v[i], pa.v[pa.next(i)]);
        for j in 0..pb.count() {
            let (b0, b1) = (pb.v[j], pb.v[pb.next(j)]);
            let sc = segment_closest(a0, a1, b0, b1);
            if sc.dist_sq < best.dist_sq {
                let fa = edge_feature(sc.f1, i, pa.next(i));
                let fb = edge_feature(sc.f2, j, pb.next(j));
                best = CorePoints {
                    pa: sc.c1,
                    pb: sc.c2,
                    dist_sq: sc.dist_sq,
                    fa,
                    fb,
                };
            }
        }
    }
    best
}

/// Closest points between two separated convex cores, exact up to round-off.
///
/// First the closest points of the SAT reference edge and the other core's incident edge
/// (Box2D's choice of features), kept only when certified: the plane through each point,
/// normal to the line joining them, has its whole core on one side (within round-off), which
/// makes them the closest points of the two convex cores. Otherwise GJK, whose final simplex
/// names the features, and should that not converge the all-pairs search.
pub(super) fn closest_cores(
    pa: &LocalPoly,
    pb: &LocalPoly,
    sep_a: (f32, usize),
    sep_b: (f32, usize),
    scale: f32,
) -> CorePoints {
    certified_edge_pair(pa, pb, sep_a, sep_b, scale).unwrap_or_else(|| closest_cores_gjk(pa, pb))
}

/// The largest absolute coordinate of the two cores: the scale of their round-off.
/// Both cores are validated finite, so plain compares replace the NaN-aware `f32::max` (a
/// blend per step, 7 % of a capsule–polygon pair in a profile); the two loops run
/// independently.
pub(super) fn coord_scale(a: &LocalPoly, b: &LocalPoly) -> f32 {
    #[inline(always)]
    fn extent(p: &LocalPoly) -> f32 {
        let mut s = 0.0f32;
        for v in &p.v[..p.count()] {
            let e = if v.x.abs() > v.y.abs() {
                v.x.abs()
            } else {
                v.y.abs()
            };
            s = if e > s { e } else { s };
        }
        s
    }
    let (sa, sb) = (extent(a), extent(b));
    if sa > sb {
        sa
    } else {
        sb
    }
}

/// The first way of [`closest_cores`]: `None` when the edge pair is not certified.
fn certified_edge_pair(
    pa: &LocalPoly,
    pb: &LocalPoly,
    sep_a: (f32, usize),
    sep_b: (f32, usize),
    scale: f32,
) -> Option<CorePoints> {
    let (r, i, e1, flip) = if sep_a.0 >= sep_b.0 {
        (pa, pb, sep_a.1, false)
    } else {
        (pb, pa, sep_b.1, true)
    };
    let e2 = i.incident_edge(r.n[e1]);
    let (r1, i1) = (r.next(e1), i.next(e2));
    let sc = segment_closest(r.v[e1], r.v[r1], i.v[e2], i.v[i1]);
    let d = sc.c2 - sc.c1;
    // Round-off of `(w − c) · d` is about ε·scale·|d|; allow 16 of them (squared, to keep the
    // square root off this path).
    let tol = 16.0 * f32::EPSILON * scale;
    let tol_sq = tol * tol * sc.dist_sq;
    let beyond = |x: f32| x > 0.0 && x * x > tol_sq;
    let certified = sc.dist_sq > 0.0
        && !r.v[..r.count()].iter().any(|w| beyond((*w - sc.c1).dot(d)))
        && !i.v[..i.count()].iter().any(|w| beyond(-(*w - sc.c2).dot(d)));
    if certified {
        let (fr, fi) = (edge_feature(sc.f1, e1, r1), edge_feature(sc.f2, e2, i1));
        return Some(if flip {
            CorePoints {
                pa: sc.c2,
                pb: sc.c1,
                dist_sq: sc.dist_sq,
                fa: fi,
                fb: fr,
            }
        } else {
            CorePoints {
                pa: sc.c1,
                pb: sc.c2,
                dist_sq: sc.dist_sq,
                fa: fr,
                fb: fi,
            }
        });
    }
    None
}

/// [`closest_cores`] by GJK.
fn closest_cores_gjk(pa: &LocalPoly, pb: &LocalPoly) -> CorePoints {
    let proxy = |p: &LocalPoly| ShapeProxy {
        points: p.v,
        count: p.count() as u32,
        radius: 0.0,
    };
    let mut cache = SimplexCache::default();
    let g = gjk(&proxy(pa), &proxy(pb), &mut cache);
    if !g.converged || g.overlap || !(1..=2).contains(&cache.count) {
        return brute_force_closest(pa, pb);
    }
    // A simplex pair of two distinct adjacent indices is that edge; one index is a vertex.
    let feature = |p: &LocalPoly, i0: u8, i1: u8| -> u8 {
        if i0 == i1 {
            i0
        } else if p.next(i0 as usize) == i1 as usize {
            FEATURE_EDGE | i0
        } else if p.next(i1 as usize) == i0 as usize {
            FEATURE_EDGE | i1
        } else {
            i0
        }
    };
    let last = cache.count as usize - 1;
    let fa = feature(pa, cache.index_a[0], cache.index_a[last]);
    let fb = feature(pb, cache.index_b[0], cache.index_b[last]);
    CorePoints {
        pa: g.pa,
        pb: g.pb,
        dist_sq: g.pa.distance_squared(g.pb),
        fa,
        fb,
    }
}

/// The shared contact decision of every polygon pair, used by both `overlaps` and `collide`
/// so the two can never disagree.
pub(crate) enum PolyVerdict {
    /// Separated by more than the margin.
    Apart,
    /// In contact. `closest` holds the exact closest core points when the cores are apart
    /// (rounded polygons or a speculative margin), `None` when they overlap.
    Contact {
        sep_a: f32,
        edge_a: usize,
        sep_b: f32,
        edge_b: usize,
        closest: Option<Closest>,
    },
}

/// Exact closest points between two separated cores, with their features.
pub(crate) struct Closest {
    /// [`coord_scale`] of the pair.
    scale: f32,
    pa: Vec2,
    pb: Vec2,
    dist: f32,
    fa: u8,
    fb: u8,
}

#[inline]
pub(crate) fn polygon_verdict(a: &LocalPoly, b: &LocalPoly, margin: f32) -> PolyVerdict {
    let (sep_a, edge_a) = find_max_separation(a, b);
    let (sep_b, edge_b) = find_max_separation(b, a);
    let radius = a.radius + b.radius;
    let sep = sep_a.max(sep_b);
    if !(sep <= radius + margin) {
        return PolyVerdict::Apart;
    }
    let closest = if sep <= 0.0 {
        None
    } else {
        // Cores are apart: the SAT separation is only a lower bound on their distance.
        let scale = coord_scale(a, b);
        let CorePoints {
            pa,
            pb,
            dist_sq,
            fa,
            fb,
        } = closest_cores(a, b, (sep_a, edge_a), (sep_b, edge_b), scale);
        let max_d = radius + margin;
        if !within(dist_sq, max_d) {
            return PolyVerdict::Apart;
        }
        Some(Closest {
            scale,
            pa,
            pb,
            dist: fmath::sqrt(dist_sq),
            fa,
            fb,
        })
    };
    PolyVerdict::Contact {
        sep_a,
        edge_a,
        sep_b,
        edge_b,
        closest,
    }
}

/// Relative tolerance for accepting a clipped face manifold between cores that are apart: a
/// clipped point must be as close as the exact closest points.
const FACE_CONTACT_TOLERANCE: f32 = 1.0e-5;

/// Tolerance for comparing the exact closest distance of separated cores with a face
/// separation: relative to the gap plus radius, and never below the f32 round-off of the
/// coordinates (a sharp pair 1e-4 apart at coordinates of 5 cannot be judged finer than that).
fn face_tol(scale: f32, gap_plus_radius: f32) -> f32 {
    FACE_CONTACT_TOLERANCE * gap_plus_radius + 64.0 * f32::EPSILON * scale
}

/// Clips the incident edge of `p2` against the reference edge `e1` of `p1` and pushes the points
/// within the margin. `n1` points from `p1` to `p2`. Ids are (reference, incident) features.
#[inline]
fn clip_polygons(p1: &LocalPoly, p2: &LocalPoly, e1: usize, margin: f32, m: &mut LocalManifold) -> [u8; 2] {
    let n1 = p1.n[e1];
    let e2 = p2.incident_edge(n1);
    let i21 = e2;
    let i22 = p2.next(e2);
    let v11 = p1.v[e1];
    let v12 = p1.v[p1.next(e1)];
    let v21 = p2.v[i21];
    let v22 = p2.v[i22];
    let t = n1.left_perp();
    let upper1 = (v12 - v11).dot(t);
    let upper2 = (v21 - v11).dot(t);
    let lower2 = (v22 - v11).dot(t);
    let span = upper2 - lower2;
    let v_lower = if lower2 < 0.0 && span > 0.0 {
        v22.lerp(v21, (0.0 - lower2) / span)
    } else {
        v22
    };
    let v_upper = if upper2 > upper1 && span > 0.0 {
        v22.lerp(v21, (upper1 - lower2) / span)
    } else {
        v21
    };
    let radius = p1.radius + p2.radius;
    let mut ids = [0u8; 2];
    for (v, inc) in [(v_lower, i22), (v_upper, i21)] {
        let s = (v - v11).dot(n1);
        if s - radius <= margin {
            ids[m.count] = inc as u8;
            m.push(v.mul_add(0.5 * (p1.radius - p2.radius - s), n1), radius - s, 0);
        }
    }
    if m.count == 0 {
        // The clipped edge lost the deepest vertex: fall back to p2's support point along -n1,
        // whose separation is exactly the SAT separation of this face.
        let mut w = 0;
        let mut best = f32::INFINITY;
        for j in 0..p2.count() {
            let s = (p2.v[j] - v11).dot(n1);
            if s < best {
                best = s;
                w = j;
            }
        }
        // The verdict already decided contact (its SAT separation is within the margin); this
        // separation, computed as `(w − v) · n` rather than `n · w − n · v`, can round a hair
        // beyond it. The point is kept, its depth clamped to the margin, so `collide` never
        // reports fewer contacts than `overlaps` decided.
        ids[0] = w as u8;
        m.push(
            p2.v[w].mul_add(0.5 * (p1.radius - p2.radius - best), n1),
            (radius - best).max(-margin),
            0,
        );
    }
    ids
}

#[inline]
pub(crate) fn polygons_local(a: &LocalPoly, b: &LocalPoly, margin: f32) -> LocalManifold {
    polygons_finish(a, b, margin, polygon_verdict(a, b, margin))
}

/// The manifold of a polygon pair from its verdict (reference face, clipping, exact point).
#[inline]
fn polygons_finish(a: &LocalPoly, b: &LocalPoly, margin: f32, verdict: PolyVerdict) -> LocalManifold {
    let mut m = LocalManifold::default();
    let PolyVerdict::Contact {
        sep_a,
        edge_a,
        sep_b,
        edge_b,
        closest,
    } = verdict
    else {
        return m;
    };
    let sep = sep_a.max(sep_b);
    let radius = a.radius + b.radius;
    // Cores apart at a vertex (closest distance beyond the face separation): one exact point.
    if let Some(c) = &closest {
        if c.dist > sep + face_tol(c.scale, c.dist + radius) {
            push_vertex_contact(&mut m, a, b, c);
            return m;
        }
    }
    if sep_a >= sep_b {
        let ids = clip_polygons(a, b, edge_a, margin, &mut m);
        m.normal = a.n[edge_a];
        for (pt, &inc) in m.points[..m.count].iter_mut().zip(&ids) {
            pt.2 = make_id(FEATURE_EDGE | edge_a as u8, inc);
        }
    } else {
        let ids = clip_polygons(b, a, edge_b, margin, &mut m);
        m.normal = -b.n[edge_b];
        for (pt, &inc) in m.points[..m.count].iter_mut().zip(&ids) {
            pt.2 = make_id(inc, FEATURE_EDGE | edge_b as u8);
        }
    }
    if let Some(c) = &closest {
        // Face contact between separated cores is only kept when the deepest clipped point is
        // exactly as close as the exact closest points. Otherwise clipping either cut the
        // closest feature away or kept a point outside the reference face's slab, and the exact
        // single point is the right contact.
        let deepest = m.points[..m.count]
            .iter()
            .fold(f32::NEG_INFINITY, |d, p| d.max(p.1));
        if m.count == 0 || ((radius - deepest) - c.dist).abs() > face_tol(c.scale, c.dist + radius) {
            push_vertex_contact(&mut m, a, b, c);
        }
    }
    m
}

/// Replaces the manifold with the single exact contact between separated cores.
fn push_vertex_contact(m: &mut LocalManifold, a: &LocalPoly, b: &LocalPoly, c: &Closest) {
    // dist > 0 because the cores are apart, so the direction is well defined.
    let n = (c.pb - c.pa).try_normalize().unwrap_or(Vec2::X);
    m.normal = n;
    m.count = 0;
    m.push(
        surface_midpoint(c.pa, c.pb, n, a.radius, b.radius),
        a.radius + b.radius - c.dist,
        make_id(c.fa, c.fb),
    );
}

/// Contact manifold between two convex polygons (SAT + reference-face clipping, exact closest
/// points for rounded polygons whose cores are apart).
#[inline]
#[must_use]
pub fn collide_polygons(a: &Polygon, xfa: Transform, b: &Polygon, xfb: Transform, margin: f32) -> Manifold {
    // Computed in the canonical order of the pair (see `b_first`), so both orders agree bit
    // for bit.
    let flip = b_first(a, &xfa, b, &xfb);
    let (a, xfa, b, xfb) = if flip { (b, xfb, a, xfa) } else { (a, xfa, b, xfb) };
    polygons_ordered(a, xfa, b, xfb, margin).flipped_if(flip)
}

#[inline]
pub(super) fn polygons_ordered(
    a: &Polygon,
    xfa: Transform,
    b: &Polygon,
    xfb: Transform,
    margin: f32,
) -> Manifold {
    let Some(xf) = pair_frame(xfa, xfb) else {
        return Manifold::default();
    };
    let margin = sanitize_margin(margin);
    let (origin, sa, sb) = polygon_pair_frames(a, xf);
    match box_pair_decide(a, b, xf, margin) {
        BoxPair::Apart => return Manifold::default(),
        BoxPair::Touching(sat) => {
            // The LocalPolys `from_polygon` would build, from the corners already computed.
            let mut la = LocalPoly {
                v: [Vec2::ZERO; MAX_POLYGON_VERTICES],
                n: [Vec2::ZERO; MAX_POLYGON_VERTICES],
                len: 4,
                radius: a.radius,
                aligned: true,
            };
            let mut lb = LocalPoly {
                radius: b.radius,
                ..la
            };
            la.v[..4].copy_from_slice(&sat.ca);
            la.n[..4].copy_from_slice(&a.normals[..4]);
            lb.v[..4].copy_from_slice(&sat.w);
            for (n, bn) in lb.n[..4].iter_mut().zip(&b.normals[..4]) {
                *n = sb.q.rotate(*bn);
            }
            lb.aligned = lb.is_aligned_box();
            let verdict = PolyVerdict::Contact {
                sep_a: sat.sep_a,
                edge_a: sat.edge_a,
                sep_b: sat.sep_b,
                edge_b: sat.edge_b,
                closest: None,
            };
            return polygons_finish(&la, &lb, margin, verdict).to_world(xfa, origin);
        }
        BoxPair::Unknown => {}
    }
    let (Some(la), Some(lb)) = (LocalPoly::from_polygon(a, sa), LocalPoly::from_polygon(b, sb)) else {
        return Manifold::default();
    };
    polygons_local(&la, &lb, margin).to_world(xfa, origin)
}

/// Contact manifold between a polygon (A) and a capsule (B): the capsule is a rounded 2-gon and
/// goes through the polygon–polygon path, so a lying capsule gives two points.
#[inline]
#[must_use]
pub fn collide_polygon_capsule(
    a: &Polygon,
    xfa: Transform,
    b: &Capsule,
    xfb: Transform,
    margin: f32,
) -> Manifold {
    let margin = sanitize_margin(margin);
    let Some(xf) = pair_frame(xfa, xfb) else {
        return Manifold::default();
    };
    if let Some(circle) = capsule_as_circle(b) {
        return polygon_circle_local(a, &circle, xf.apply(circle.center), margin).to_world(xfa, Vec2::ZERO);
    }
    if !(b.radius >= 0.0) {
        return Manifold::default();
    }
    let (origin, sa, sb) = polygon_pair_frames(a, xf);
    let (Some(la), Some(lb)) = (LocalPoly::from_polygon(a, sa), LocalPoly::from_capsule(b, sb)) else {
        return Manifold::default();
    };
    polygons_local(&la, &lb, margin).to_world(xfa, origin)
}

/// True when a polygon and a capsule overlap or touch.
#[must_use]
pub fn overlaps_polygon_capsule(a: &Polygon, xfa: Transform, b: &Capsule, xfb: Transform) -> bool {
    let Some(xf) = pair_frame(xfa, xfb) else {
        return false;
    };
    if let Some(circle) = capsule_as_circle(b) {
        return polygon_circle_decide(a, &circle, xf.apply(circle.center), 0.0).is_some();
    }
    if !(b.radius >= 0.0) {
        return false;
    }
    let (_, sa, sb) = polygon_pair_frames(a, xf);
    match (LocalPoly::from_polygon(a, sa), LocalPoly::from_capsule(b, sb)) {
        (Some(la), Some(lb)) => !matches!(polygon_verdict(&la, &lb, 0.0), PolyVerdict::Apart),
        _ => false,
    }
}

/// True when two polygons overlap or touch (SAT; exact distance for rounded polygons).
#[must_use]
pub fn overlaps_polygons(a: &Polygon, xfa: Transform, b: &Polygon, xfb: Transform) -> bool {
    // The same canonical order as `collide_polygons`, so the two make one decision.
    let (a, xfa, b, xfb) = if b_first(a, &xfa, b, &xfb) {
        (b, xfb, a, xfa)
    } else {
        (a, xfa, b, xfb)
    };
    let Some(xf) = pair_frame(xfa, xfb) else {
        return false;
    };
    match box_pair_decide(a, b, xf, 0.0) {
        BoxPair::Apart => return false,
        BoxPair::Touching(_) => return true,
        BoxPair::Unknown => {}
    }
    let (_, sa, sb) = polygon_pair_frames(a, xf);
    match (LocalPoly::from_polygon(a, sa), LocalPoly::from_polygon(b, sb)) {
        (Some(la), Some(lb)) => !matches!(polygon_verdict(&la, &lb, 0.0), PolyVerdict::Apart),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    use crate::test_rng::Rng;

    /// The certified edge-pair shortcut of `closest_cores` against the all-pairs search, on
    /// separated cores (random polygons and capsules, at four scales, rotated and shifted far
    /// from the origin): the same distance within round-off, points on the cores that far
    /// apart, and both the shortcut and the GJK fallback taken.
    #[test]
    fn certified_closest_cores_match_brute_force() {
        let mut rng = Rng(11);
        let (mut certified, mut total) = (0, 0);
        for case in 0..20_000 {
            let s = [0.01f32, 1.0, 100.0, 1.0e4][case % 4];
            let poly = |rng: &mut Rng, capsule: bool| -> LocalPoly {
                let c = Vec2::new(rng.f(-3.0, 3.0), rng.f(-3.0, 3.0)) * s;
                let xf = Transform::new(c + Vec2::new(1000.0, -500.0) * s, rng.f(-3.2, 3.2));
                if capsule {
                    let h = rng.f(0.1, 1.0) * s;
                    let cap = Capsule::new(Vec2::new(-h, 0.0), Vec2::new(h, 0.0), 0.1 * s).unwrap();
                    LocalPoly::from_capsule(&cap, xf).unwrap()
                } else {
                    let n = 3 + (rng.f(0.0, 6.0) as usize).min(5);
                    let mut pts = [Vec2::ZERO; 8];
                    for (k, p) in pts.iter_mut().enumerate().take(n) {
                        let a = (k as f32 + rng.f(-0.3, 0.3)) * core::f32::consts::TAU / n as f32;
                        *p = Rot::from_angle(a).x_axis() * (rng.f(0.5, 1.0) * s);
                    }
                    let p = Polygon::new(&pts[..n]).unwrap();
                    LocalPoly::from_polygon(&p, xf).unwrap()
                }
            };
            let a = poly(&mut rng, case % 3 == 0);
            let b = poly(&mut rng, case % 5 == 0);
            let (sa, sb) = (find_max_separation(&a, &b), find_max_separation(&b, &a));
            if sa.0.max(sb.0) <= 0.0 {
                continue;
            }
            total += 1;
            let brute = brute_force_closest(&a, &b).dist_sq;
            let brute = brute.sqrt();
            // Round-off of coordinates about 1000·s from the origin.
            let tol = 1e-5 * brute + 64.0 * f32::EPSILON * 1500.0 * s;
            let scale = coord_scale(&a, &b);
            if let Some(CorePoints {
                pa, pb, dist_sq: d2, ..
            }) = certified_edge_pair(&a, &b, sa, sb, scale)
            {
                certified += 1;
                let d = d2.sqrt();
                assert!((d - brute).abs() <= tol, "case {case}: {d} vs {brute}");
                assert!((pa.distance(pb) - d).abs() <= tol);
            }
            let d2 = closest_cores(&a, &b, sa, sb, scale).dist_sq;
            assert!(
                (d2.sqrt() - brute).abs() <= tol,
                "case {case}: {} vs {brute}",
                d2.sqrt()
            );
        }
        assert!(total > 10_000, "{total}");
        assert!(
            certified > total / 2 && certified < total,
            "shortcut taken {certified} of {total}"
        );
        std::eprintln!("certified edge pair: {certified} of {total} separated pairs (the rest via GJK)");
    }
}
