//! Chain segment (A) against circle, capsule and polygon (B): one-sided manifolds that never
//! report a normal belonging to a neighbouring segment (no ghost collisions).
//!
//! The segment's **Gauss map** decides which normals it owns: its face normal `n1`; at a convex
//! vertex (the chain turns away from the front side by more than 0.01 rad) the fan between the
//! neighbour's normal and `n1`, shared half and half with the neighbour; at a flat or concave
//! vertex nothing but `n1` (a normal there is snapped to the face). This is Box2D v3's rule
//! (`b2CollideChainSegmentAndPolygon`, <https://box2d.org/posts/2020/06/ghost-collisions/>).
//!
//! Polygon (and capsule, as a 2-gon with its radius):
//! 1. B's centroid behind the segment and behind both convex neighbours: no contact (one-sided).
//! 2. Exact closest features of the cores (segment against each of B's edges, and containment),
//!    no GJK. Beyond `B's radius + margin`: no contact.
//! 3. Apart (and B in front): the closest features decide. Vertex–vertex gives one point along
//!    the closest direction if the segment owns that direction; a B edge gives that face as
//!    reference (unless the Gauss map or the neighbour owns it); a segment point on the face
//!    gives the segment as reference.
//! 4. Touching or overlapping: SAT over the face normal, the convex neighbours' normals (a
//!    neighbour's separating axis means the neighbour handles the contact) and B's owned
//!    normals; then clipping as in the polygon pairs.
//!
//! Circle: the closest point of the segment, unless the centre is behind the face or in a
//! neighbour's Voronoi region (Box2D's `b2CollideChainSegmentAndCircle`).
//!
//! Two-point results keep only points within the margin (the polygon pairs' rule, where Box2D
//! keeps both clipped points), so `overlaps_* == (collide(.., 0).count > 0)` holds here too.
//! Tolerances are relative to B's size (Box2D's absolute 0.1 × linear slop becomes 2.5e-4 × B's
//! extent), so the result does not depend on the scale. Feature ids: the segment's vertices are
//! 0 and 1 and its face is `FEATURE_EDGE`.

use super::polygon::{closest_cores, coord_scale, find_max_separation, LocalPoly};
use super::{
    make_id, pair_frame, point_in_frame, radii_ok, sanitize_margin, surface_midpoint, LocalManifold,
    Manifold, FEATURE_EDGE,
};
use crate::fmath;
use crate::geometry::{capsule_as_circle, Capsule, ChainSegment, Circle, Polygon};
use crate::math::{Transform, Vec2};

/// A normal below this sine of the angle between two segments is a flat vertex.
const CONVEX_TOLERANCE: f32 = 0.01;
/// A normal within this sine of a convex neighbour's normal still belongs to the segment.
const SIN_TOLERANCE: f32 = 0.01;
/// Cores closer than this fraction of B's extent are handled as touching (SAT).
const TOUCHING_RELATIVE: f32 = 2.5e-4;

/// What the segment does with a contact normal (segment → B).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum NormalType {
    /// The normal belongs to a convex neighbour: no contact from this segment.
    Skip,
    /// The segment owns the normal.
    Admit,
    /// A normal at a flat or concave vertex: use the face normal instead.
    Snap,
}

/// Whether `v`'s squared length is in f32's normal range, so that it normalises to a unit
/// vector (the rule of [`Vec2::try_normalize`], without the square root).
#[inline]
fn has_direction(v: Vec2) -> bool {
    let l = v.dot(v);
    (f32::MIN_POSITIVE..f32::INFINITY).contains(&l)
}

/// The segment in its shifted frame (`point1` at the origin) with its neighbours' directions,
/// not normalised: all the circle needs (signs of dot products), no square root.
#[derive(Clone, Copy)]
struct Thin {
    p2: Vec2,
    /// `point1 - ghost1`, or for a square end the inward normal (a 90° convex corner).
    edge0: Vec2,
    /// `ghost2 - point2`, or for a square end the inward normal.
    edge2: Vec2,
}

impl Thin {
    /// `None` for a degenerate or non-finite segment: one whose points, or a ghost and its
    /// point (unless equal: a square end), are too close or too far apart to have a direction
    /// (squared distance outside f32's normal range; see [`ChainSegment::new`]).
    #[inline]
    fn new(s: &ChainSegment) -> Option<Thin> {
        let sum = s.ghost1.x
            + s.ghost1.y
            + s.point1.x
            + s.point1.y
            + s.point2.x
            + s.point2.y
            + s.ghost2.x
            + s.ghost2.y;
        let p2 = s.point2 - s.point1;
        if sum * 0.0 != 0.0 || !has_direction(p2) {
            return None;
        }
        let inward = p2.right_perp();
        let edge0 = if s.ghost1 == s.point1 {
            inward
        } else {
            s.point1 - s.ghost1
        };
        let edge2 = if s.ghost2 == s.point2 {
            -inward
        } else {
            s.ghost2 - s.point2
        };
        if !(has_direction(edge0) && has_direction(edge2)) {
            return None;
        }
        Some(Thin { p2, edge0, edge2 })
    }
}

/// The segment in its shifted frame (`point1` at the origin) with its neighbours' normals.
#[derive(Clone, Copy)]
struct Smooth {
    thin: Thin,
    p2: Vec2,
    e1: Vec2,
    n1: Vec2,
    n0: Vec2,
    n2: Vec2,
    convex1: bool,
    convex2: bool,
}

impl Smooth {
    /// `None` for a degenerate or non-finite segment.
    #[inline(always)]
    fn new(s: &ChainSegment) -> Option<Smooth> {
        let thin = Thin::new(s)?;
        let p2 = thin.p2;
        let e1 = p2.try_normalize()?;
        let edge0 = s.edge0(e1);
        let edge2 = s.edge2(e1);
        let ok = (edge0.x + edge0.y + edge2.x + edge2.y) * 0.0 == 0.0;
        ok.then(|| Smooth {
            thin,
            p2,
            e1,
            n1: e1.right_perp(),
            n0: edge0.right_perp(),
            n2: edge2.right_perp(),
            convex1: edge0.cross(e1) >= CONVEX_TOLERANCE,
            convex2: e1.cross(edge2) >= CONVEX_TOLERANCE,
        })
    }

    /// Classifies a unit normal pointing from the segment to B.
    fn classify(&self, n: Vec2) -> NormalType {
        if n.dot(self.e1) <= 0.0 {
            if !self.convex1 {
                NormalType::Snap
            } else if n.cross(self.n0) > SIN_TOLERANCE {
                NormalType::Skip
            } else {
                NormalType::Admit
            }
        } else if !self.convex2 {
            NormalType::Snap
        } else if self.n2.cross(n) > SIN_TOLERANCE {
            NormalType::Skip
        } else {
            NormalType::Admit
        }
    }

    /// The neighbours' normals, with concave ones replaced by the face normal.
    fn side_normals(&self) -> (Vec2, Vec2) {
        (
            if self.convex1 { self.n0 } else { self.n1 },
            if self.convex2 { self.n2 } else { self.n1 },
        )
    }
}

/// Both frames for a chain-segment pair: the segment's vertex `point1` as origin, B in it.
#[inline(always)]
fn frames(a: &ChainSegment, xfa: Transform, xfb: Transform) -> Option<(Vec2, Smooth, Transform)> {
    let (origin, _, sb) = thin_frames(a, xfa, xfb)?;
    Some((origin, Smooth::new(a)?, sb))
}

/// [`frames`] with the segment's unnormalised form (the circle's).
#[inline]
fn thin_frames(a: &ChainSegment, xfa: Transform, xfb: Transform) -> Option<(Vec2, Thin, Transform)> {
    let rel = pair_frame(xfa, xfb)?;
    let smooth = Thin::new(a)?;
    let origin = a.point1;
    Some((
        origin,
        smooth,
        Transform {
            p: rel.p - origin,
            q: rel.q,
        },
    ))
}

/// How chain segment `s` treats a unit normal `n` pointing from it to another shape (segment's
/// local frame); `None` for a degenerate or non-finite segment. For the casts, which must
/// not stop on a normal the segment does not own either.
pub(crate) fn classify_normal(s: &ChainSegment, n: Vec2) -> Option<NormalType> {
    Smooth::new(s).map(|sm| sm.classify(n))
}

// ---------------------------------------------------------------------------------------------
// Circle

fn segment_circle_local(s: &Thin, c: Vec2, r: f32, margin: f32) -> LocalManifold {
    let mut m = LocalManifold::default();
    if !radii_ok(0.0, r) || !c.is_finite() {
        return m;
    }
    let p2 = s.p2;
    if p2.right_perp().dot(c) < 0.0 {
        return m; // behind: one-sided
    }
    let u = p2.dot(p2 - c);
    let v = p2.dot(c);
    let (pa, feature) = if v <= 0.0 {
        // Beyond point1: the previous segment's region when ahead of its end.
        if s.edge0.dot(c) <= 0.0 {
            return m;
        }
        (Vec2::ZERO, 0)
    } else if u <= 0.0 {
        if s.edge2.dot(c - p2) > 0.0 {
            return m;
        }
        (p2, 1)
    } else {
        (p2 * (v / p2.dot(p2)), FEATURE_EDGE)
    };
    let d = c - pa;
    let dist_sq = d.dot(d);
    let max_d = r + margin;
    if !(dist_sq <= max_d * max_d) {
        return m;
    }
    let dist = fmath::sqrt(dist_sq);
    let n = d
        .direction()
        .unwrap_or_else(|| p2.right_perp().normalize_or_zero());
    m.normal = n;
    m.push(surface_midpoint(pa, c, n, 0.0, r), r - dist, make_id(feature, 0));
    m
}

/// Contact manifold between a chain segment (A) and a circle (B): one-sided, ghost-free (see
/// the chain rules in [`narrowphase`](crate::narrowphase)). Normal from the segment to the
/// circle.
#[must_use]
pub fn collide_chain_segment_circle(
    a: &ChainSegment,
    xfa: Transform,
    b: &Circle,
    xfb: Transform,
    margin: f32,
) -> Manifold {
    let (Some(c), Some(s)) = (point_in_frame(xfa, xfb, b.center), Thin::new(a)) else {
        return Manifold::default();
    };
    segment_circle_local(&s, c - a.point1, b.radius, sanitize_margin(margin)).to_world(xfa, a.point1)
}

/// True when [`collide_chain_segment_circle`] reports contact at margin 0.
#[must_use]
pub fn overlaps_chain_segment_circle(a: &ChainSegment, xfa: Transform, b: &Circle, xfb: Transform) -> bool {
    let (Some(c), Some(s)) = (point_in_frame(xfa, xfb, b.center), Thin::new(a)) else {
        return false;
    };
    segment_circle_local(&s, c - a.point1, b.radius, 0.0).count > 0
}

// ---------------------------------------------------------------------------------------------
// Polygon and capsule

/// Clips incident edge `b1`–`b2` against reference edge `a1`–`a2` (normal `n` out of the
/// reference side); keeps points within `margin`. `ids` are (lower, upper): the points coming
/// from `b2` and `b1`.
///
/// A point's core separation is raised to at least `min_sep`: the cores' distance when they are
/// known to be apart, where every incident point in front of the face is at least that far; a
/// point found behind the face then belongs to a shape reaching round the face's end, whose
/// depth along the face normal is not its distance. `-inf` when the cores touch.
#[allow(clippy::too_many_arguments)]
fn clip(
    a1: Vec2,
    a2: Vec2,
    b1: Vec2,
    b2: Vec2,
    n: Vec2,
    ra: f32,
    rb: f32,
    ids: (u32, u32),
    margin: f32,
    min_sep: f32,
) -> LocalManifold {
    let mut m = LocalManifold::default();
    let t = n.left_perp();
    let (lower1, upper1) = (0.0, (a2 - a1).dot(t));
    let upper2 = (b1 - a1).dot(t);
    let lower2 = (b2 - a1).dot(t);
    if upper2 < lower1 || upper1 < lower2 {
        return m;
    }
    let span = upper2 - lower2;
    let v_lower = if lower2 < lower1 && span > 0.0 {
        b2.lerp(b1, (lower1 - lower2) / span)
    } else {
        b2
    };
    let v_upper = if upper2 > upper1 && span > 0.0 {
        b2.lerp(b1, (upper1 - lower2) / span)
    } else {
        b1
    };
    m.normal = n;
    for (v, id) in [(v_lower, ids.0), (v_upper, ids.1)] {
        let sep = (v - a1).dot(n);
        let sep = if sep < min_sep { min_sep } else { sep };
        let depth = ra + rb - sep;
        if -depth <= margin {
            m.push(v.mul_add(0.5 * (ra - rb - sep), n), depth, id);
        }
    }
    m
}

/// B's face `ib` as reference against the segment as incident, unless a neighbour is the
/// incident feature. The normal is returned from the segment to B.
fn polygon_face_reference(s: &Smooth, b: &LocalPoly, ib: usize, margin: f32, min_sep: f32) -> LocalManifold {
    let count = b.count();
    let ib2 = if ib + 1 < count { ib + 1 } else { 0 };
    let (a1, a2) = (b.v[ib], b.v[ib2]);
    let n = b.n[ib];
    let (n0, n2) = s.side_normals();
    let d1 = n.dot(-a1);
    let d2 = n.dot(s.p2 - a1);
    let side = if d1 < d2 { n0 } else { n2 };
    if side.dot(n) < s.n1.dot(n) {
        return LocalManifold::default(); // the neighbour is incident
    }
    let fe = FEATURE_EDGE | ib as u8;
    let mut m = clip(
        a1,
        a2,
        Vec2::ZERO,
        s.p2,
        n,
        b.radius,
        0.0,
        (make_id(1, fe), make_id(0, fe)),
        margin,
        min_sep,
    );
    m.normal = -n;
    m
}

/// The segment's face as reference against B's edge at the incident vertex `iv` (the more
/// anti-parallel of its two edges) or B's edge `ie`.
fn segment_face_reference(
    s: &Smooth,
    b: &LocalPoly,
    incident: Incident,
    margin: f32,
    min_sep: f32,
) -> LocalManifold {
    let count = b.count();
    let next = |i: usize| if i + 1 < count { i + 1 } else { 0 };
    let deeper = |i: usize| {
        let j = next(i);
        if s.n1.dot(b.v[i]) <= s.n1.dot(b.v[j]) {
            i
        } else {
            j
        }
    };
    // An edge facing away from the segment's face (a 2-gon's other side, or an edge met at a
    // snapped vertex) is no incident edge: its deeper end decides instead.
    let incident = match incident {
        Incident::Edge(i) if s.n1.dot(b.n[i]) > 0.0 => Incident::Vertex(deeper(i)),
        other => other,
    };
    let ib1 = match incident {
        Incident::Edge(i) => i,
        Incident::Vertex(i2) => {
            let i1 = if i2 > 0 { i2 - 1 } else { count - 1 };
            if s.n1.dot(b.n[i1]) < s.n1.dot(b.n[i2]) {
                i1
            } else {
                i2
            }
        }
    };
    let ib2 = next(ib1);
    clip(
        Vec2::ZERO,
        s.p2,
        b.v[ib1],
        b.v[ib2],
        s.n1,
        0.0,
        b.radius,
        (make_id(FEATURE_EDGE, ib2 as u8), make_id(FEATURE_EDGE, ib1 as u8)),
        margin,
        min_sep,
    )
}

#[derive(Clone, Copy)]
enum Incident {
    Vertex(usize),
    Edge(usize),
}

/// The segment against B (a polygon or 2-gon in the segment's shifted frame) with B's
/// centroid `cb`.
fn segment_polygon_local(s: &Smooth, b: &LocalPoly, cb: Vec2, margin: f32) -> LocalManifold {
    let none = LocalManifold::default();
    let count = b.count();
    let vs = &b.v[..count];
    let rb = b.radius;

    // 1. One-sided: behind the face and behind both convex neighbours.
    let behind1 = s.n1.dot(cb) < 0.0;
    let behind0 = !s.convex1 || s.n0.dot(cb) < 0.0;
    let behind2 = !s.convex2 || s.n2.dot(cb - s.p2) < 0.0;
    if behind1 && behind0 && behind2 {
        return none;
    }

    // B's bounding circle about its centroid: beyond reach of the segment, no contact (most
    // pairs of a broad phase end here, before the exact features).
    let mut extent_sq = 0.0f32;
    for v in vs {
        let d = *v - cb;
        extent_sq = extent_sq.max(d.dot(d));
    }
    let extent = fmath::sqrt(extent_sq);
    let reach = extent + rb + margin;
    let t = (cb.dot(s.p2) / s.p2.dot(s.p2)).clamp(0.0, 1.0);
    let off = cb - s.p2 * t;
    if !(off.dot(off) <= reach * reach) {
        return none;
    }

    // 2. Exact closest features of the cores: SAT first (a cheap reject), then the closest
    // points of the polygon pairs (certified edge pair, GJK, all pairs) when the cores are
    // apart.
    let touching = TOUCHING_RELATIVE * (extent + rb);
    let seg = Capsule {
        center1: Vec2::ZERO,
        center2: s.p2,
        radius: 0.0,
    };
    let Some(sp) = LocalPoly::from_capsule(&seg, Transform::IDENTITY) else {
        return none;
    };
    let (sep_a, edge_a) = find_max_separation(&sp, b);
    let (sep_b, edge_b) = find_max_separation(b, &sp);
    let sep = sep_a.max(sep_b);
    // Cores within round-off of touching (crossing segments rarely meet at exactly 0) go on:
    // the points' own depths decide against the margin below.
    if !(sep <= rb + margin + touching) {
        return none;
    }
    // (distance, segment vertex, B's vertex, B's edge, closest points)
    let (distance, va, vb, ei, pa, pb) = if sep <= 0.0 {
        (0.0, None, None, 0, Vec2::ZERO, Vec2::ZERO)
    } else {
        let c = closest_cores(&sp, b, (sep_a, edge_a), (sep_b, edge_b), coord_scale(&sp, b));
        let distance = fmath::sqrt(c.dist_sq);
        if !(distance <= rb + margin + touching) {
            return none;
        }
        let va = (c.fa & FEATURE_EDGE == 0).then_some(c.fa);
        let vb = (c.fb & FEATURE_EDGE == 0).then_some(c.fb as usize);
        let mut ei = (c.fb & !FEATURE_EDGE) as usize;
        if count == 2 && vb.is_none() && b.n[ei].dot(c.pa - c.pb) < 0.0 {
            // A 2-gon's two edges are one segment: the side facing the chain segment.
            ei = 1 - ei;
        }
        (distance, va, vb, ei, c.pa, c.pb)
    };

    let incident;
    let apart = !behind1 && distance > touching;
    if apart {
        // 3. Apart: the closest features decide.
        match (va, vb) {
            (Some(ia), Some(ib)) => {
                let n = (pb - pa) * (1.0 / distance);
                match s.classify(n) {
                    NormalType::Skip => return none,
                    NormalType::Admit => {
                        let mut m = LocalManifold {
                            normal: n,
                            ..LocalManifold::default()
                        };
                        m.push(
                            surface_midpoint(pa, pb, n, 0.0, rb),
                            rb - distance,
                            make_id(ia, ib as u8),
                        );
                        return m;
                    }
                    NormalType::Snap => incident = Incident::Vertex(ib),
                }
            }
            (Some(_), None) => {
                // B's edge `ei` faces a segment vertex.
                match s.classify(-b.n[ei]) {
                    NormalType::Skip => return none,
                    NormalType::Admit => return polygon_face_reference(s, b, ei, margin, distance),
                    NormalType::Snap => incident = Incident::Edge(ei),
                }
            }
            (None, Some(ib)) => incident = Incident::Vertex(ib),
            (None, None) => {
                // Parallel edges: the deeper of B's edge's ends.
                let ej = if ei + 1 < count { ei + 1 } else { 0 };
                incident = Incident::Vertex(if s.n1.dot(vs[ei]) < s.n1.dot(vs[ej] - s.p2) {
                    ei
                } else {
                    ej
                });
            }
        }
    } else {
        // 4. Touching or overlapping: SAT.
        let min_along = |n: Vec2, p: Vec2| vs.iter().map(|v| n.dot(*v - p)).fold(f32::INFINITY, f32::min);
        let mut edge_sep = f32::INFINITY;
        let mut deepest = 0;
        for (i, v) in vs.iter().enumerate() {
            let d = s.n1.dot(*v);
            if d < edge_sep {
                edge_sep = d;
                deepest = i;
            }
        }
        let mut neighbour_owns = false;
        if s.convex1 {
            let s0 = min_along(s.n0, Vec2::ZERO);
            if s0 > edge_sep {
                edge_sep = s0;
                neighbour_owns = true;
            }
        }
        if s.convex2 {
            let s2 = min_along(s.n2, s.p2);
            if s2 > edge_sep {
                edge_sep = s2;
                neighbour_owns = true;
            }
        }
        let mut poly_sep = f32::NEG_INFINITY;
        let mut reference = None;
        for (i, (n, v)) in b.n[..count].iter().zip(vs).enumerate() {
            let n = *n;
            if s.classify(-n) != NormalType::Admit {
                continue;
            }
            let sep = n.dot(-*v).min(n.dot(s.p2 - *v));
            if sep > poly_sep {
                poly_sep = sep;
                reference = Some(i);
            }
        }
        if let Some(r) = reference {
            if poly_sep > edge_sep {
                return polygon_face_reference(s, b, r, margin, f32::NEG_INFINITY);
            }
        }
        if neighbour_owns {
            return none; // the neighbour's normal separates best: its contact
        }
        incident = Incident::Vertex(deepest);
    }
    let min_sep = if apart { distance } else { f32::NEG_INFINITY };
    segment_face_reference(s, b, incident, margin, min_sep)
}

/// B as a local polygon in the segment's shifted frame, with its centroid.
#[inline(always)]
fn local_polygon(b: &Polygon, sb: Transform) -> Option<(LocalPoly, Vec2)> {
    LocalPoly::from_polygon(b, sb).map(|lp| (lp, sb.apply(b.centroid)))
}

/// B as a local 2-gon (or `Err(circle)` for a degenerate capsule).
fn local_capsule(b: &Capsule, sb: Transform) -> Option<Result<(LocalPoly, Vec2), Circle>> {
    if let Some(c) = capsule_as_circle(b) {
        return Some(Err(c));
    }
    if !radii_ok(0.0, b.radius) {
        return None;
    }
    LocalPoly::from_capsule(b, sb).map(|lp| {
        let cb = (lp.v[0] + lp.v[1]) * 0.5;
        Ok((lp, cb))
    })
}

/// Contact manifold between a chain segment (A) and a polygon (B, rounded or not): one-sided,
/// ghost-free (see the chain rules in [`narrowphase`](crate::narrowphase)). Normal from the
/// segment to the polygon.
#[must_use]
pub fn collide_chain_segment_polygon(
    a: &ChainSegment,
    xfa: Transform,
    b: &Polygon,
    xfb: Transform,
    margin: f32,
) -> Manifold {
    let Some((origin, s, sb)) = frames(a, xfa, xfb) else {
        return Manifold::default();
    };
    let Some((lp, cb)) = local_polygon(b, sb) else {
        return Manifold::default();
    };
    segment_polygon_local(&s, &lp, cb, sanitize_margin(margin)).to_world(xfa, origin)
}

/// True when [`collide_chain_segment_polygon`] reports contact at margin 0.
#[must_use]
pub fn overlaps_chain_segment_polygon(a: &ChainSegment, xfa: Transform, b: &Polygon, xfb: Transform) -> bool {
    frames(a, xfa, xfb).is_some_and(|(_, s, sb)| {
        local_polygon(b, sb).is_some_and(|(lp, cb)| segment_polygon_local(&s, &lp, cb, 0.0).count > 0)
    })
}

fn segment_capsule_local(s: &Smooth, b: &Capsule, sb: Transform, margin: f32) -> LocalManifold {
    match local_capsule(b, sb) {
        Some(Ok((lp, cb))) => segment_polygon_local(s, &lp, cb, margin),
        Some(Err(c)) => segment_circle_local(&s.thin, sb.apply(c.center), c.radius, margin),
        None => LocalManifold::default(),
    }
}

/// Contact manifold between a chain segment (A) and a capsule (B): one-sided, ghost-free (see
/// the chain rules in [`narrowphase`](crate::narrowphase)). Normal from the segment to the
/// capsule. A capsule whose centres coincide is a circle.
#[must_use]
pub fn collide_chain_segment_capsule(
    a: &ChainSegment,
    xfa: Transform,
    b: &Capsule,
    xfb: Transform,
    margin: f32,
) -> Manifold {
    let Some((origin, s, sb)) = frames(a, xfa, xfb) else {
        return Manifold::default();
    };
    segment_capsule_local(&s, b, sb, sanitize_margin(margin)).to_world(xfa, origin)
}

/// True when [`collide_chain_segment_capsule`] reports contact at margin 0.
#[must_use]
pub fn overlaps_chain_segment_capsule(a: &ChainSegment, xfa: Transform, b: &Capsule, xfb: Transform) -> bool {
    frames(a, xfa, xfb).is_some_and(|(_, s, sb)| segment_capsule_local(&s, b, sb, 0.0).count > 0)
}
