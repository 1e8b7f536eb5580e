//! The narrow phase: boolean overlap tests and contact manifolds for every pair of shape kinds.
//!
//! Files, by pair family (each holds a pair's decision, its manifold and its overlap test side
//! by side, so the two share one decision):
//! - `round.rs` — circle–circle, capsule–circle, capsule–capsule (segments included);
//! - `polygon.rs` — polygon–circle, polygon–capsule, polygon–polygon (SAT, clipping, exact
//!   closest cores);
//! - `polygon_circle.rs` — polygon–circle;
//! - `box_pair.rs` — the shortcut for two axis-aligned boxes in A's frame;
//! - `aabb.rs` — a world-space [`Aabb`](crate::math::Aabb) against every kind (a chain segment
//!   as its two-sided segment: a region query);
//! - `chain.rs` — a one-sided [`ChainSegment`](crate::geometry::ChainSegment) against circle,
//!   capsule and polygon. The segment's Gauss map decides which contact normals it owns: its
//!   face normal; at a convex vertex (the chain turns away from the front by more than 0.01
//!   rad) the fan between the neighbour's normal and its own, shared with the neighbour; at a
//!   flat or concave vertex only the face normal (a normal there snaps to it). A shape whose
//!   core centroid is behind the segment and behind both convex neighbours gets no contact.
//!   Polygons and capsules: exact closest features of the cores decide while they are apart
//!   (a vertex pair gives one point along the closest direction if the segment owns it; a face
//!   gives that face as reference unless a neighbour is the incident feature), SAT over the
//!   owned normals once they touch. This is Box2D v3's `b2CollideChainSegmentAnd*` rule,
//!   differential-tested against it, with relative tolerances and exact closest features
//!   instead of GJK; two-point results keep only points within the margin, and a point of a
//!   shape reaching round the segment's end is given its true distance, not its depth along
//!   the face normal.
//!
//! This file holds the manifold types, the frame and validity helpers every pair shares, and
//! the [`collide`] / [`overlaps`] dispatch.
//!
//! Conventions (shared with the C header):
//! - `normal` is a world-space unit vector pointing from shape A to shape B.
//! - each point's `point` is in world space, midway between the two surfaces;
//! - `depth > 0` means penetration along `normal`; `depth < 0` only appears for speculative
//!   points within the requested margin (`collide_with_margin`);
//! - `id` identifies the pair of features in contact: the high byte is shape A's feature,
//!   the low byte shape B's (`0..8` = vertex index, `0x80 | i` = edge `i`, 0 for a circle).
//!   Swapping A and B swaps the two bytes.
//! - `count == 0` exactly when the shapes do not touch (touching counts as contact), so
//!   `overlaps(a, b) == (collide(a, b).count > 0)`.
//!
//! Every query runs in shape A's local frame (shifted to a point of A) and converts only the
//! result to world space, so its precision does not depend on where the pair sits in the world.
//! Non-finite input, negative radii and polygons with a `count` outside 3..=8 give an empty
//! manifold.
//!
//! The typed per-pair functions (`collide_circles` … `collide_polygons`) are `#[inline]`, so a
//! Rust narrow-phase loop that calls one of them for a batch of pairs gets it inlined, as
//! parry's generic per-pair functions are. [`collide`] dispatches on the shape kinds and is not.

mod aabb;
mod box_pair;
mod chain;
mod polygon;
mod polygon_circle;
mod round;

pub use aabb::{
    overlaps_aabb_capsule, overlaps_aabb_circle, overlaps_aabb_polygon, overlaps_aabb_shape, overlaps_aabbs,
};
pub(crate) use chain::{classify_normal, NormalType};
pub use chain::{
    collide_chain_segment_capsule, collide_chain_segment_circle, collide_chain_segment_polygon,
    overlaps_chain_segment_capsule, overlaps_chain_segment_circle, overlaps_chain_segment_polygon,
};
pub use polygon::{collide_polygon_capsule, collide_polygons, overlaps_polygon_capsule, overlaps_polygons};
pub use polygon_circle::{collide_polygon_circle, overlaps_polygon_circle};
pub use round::{
    collide_capsule_circle, collide_capsules, collide_circles, overlaps_capsule_circle, overlaps_capsules,
    overlaps_circles, CAPSULE_FACE_TOLERANCE,
};

use crate::fmath;
use crate::geometry::{Polygon, Shape};
use crate::math::{Transform, Vec2};
use bytemuck::{Pod, Zeroable};

/// Feature code for edge `i` in a manifold point id.
pub const FEATURE_EDGE: u8 = 0x80;

/// One contact point.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ManifoldPoint {
    /// World-space point midway between the two surfaces.
    pub point: Vec2,
    /// Penetration depth along the manifold normal: positive when penetrating, negative only
    /// for speculative points within the margin.
    pub depth: f32,
    /// Feature key (high byte: feature of A, low byte: feature of B), stable while the same
    /// features touch; use it to match points between frames for warm starting.
    pub id: u32,
}

/// A contact manifold: up to two points sharing one normal.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Manifold {
    /// World-space unit normal from shape A to shape B. Zero when `count == 0`.
    pub normal: Vec2,
    /// The contact points; only the first `count` are meaningful.
    pub points: [ManifoldPoint; 2],
    /// Number of points, 0, 1 or 2.
    pub count: u32,
}

impl Manifold {
    /// The points in use.
    #[inline]
    #[must_use]
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points[..(self.count as usize).min(2)]
    }

    /// The largest depth among the points (positive when penetrating), or `None` without
    /// contact (`count == 0`).
    #[must_use]
    pub fn max_depth(&self) -> Option<f32> {
        self.points().iter().map(|p| p.depth).reduce(f32::max)
    }

    /// The same contact seen from B: normal negated, feature bytes swapped, points unchanged.
    #[must_use]
    pub fn flipped(&self) -> Manifold {
        let mut m = *self;
        m.normal = -m.normal;
        for p in &mut m.points[..(self.count as usize).min(2)] {
            p.id = swap_id(p.id);
        }
        m
    }
}

impl Manifold {
    /// [`Manifold::flipped`] when `flip`, else unchanged, without a branch on `flip` (the
    /// canonical order of a same-kind pair is as good as random per pair).
    #[inline(always)]
    pub(crate) fn flipped_if(mut self, flip: bool) -> Manifold {
        let sign = if flip { -1.0 } else { 1.0 };
        self.normal *= sign;
        for p in &mut self.points {
            let swapped = swap_id(p.id);
            p.id = if flip { swapped } else { p.id };
        }
        self
    }
}

/// Whether a pair of shapes of the same kind is computed with B as the first shape: a strict
/// order on the pair's bit patterns (A's transform against B's, word by word, then the shapes),
/// so exactly one of the two orders of a pair is canonical unless both are bit-identical. Same-
/// kind pairs are computed in the canonical order and flipped back when it is B first, so
/// swapping A and B gives bit-identical decisions, depths and points (mixed-kind pairs already
/// have a canonical order: the more complex kind first). The first word (the positions' `x`)
/// almost always decides.
#[inline(always)]
pub(crate) fn b_first<T: Pod>(a: &T, xfa: &Transform, b: &T, xfb: &Transform) -> bool {
    let (ka, kb) = (xfa.p.x.to_bits(), xfb.p.x.to_bits());
    if ka != kb {
        return ka > kb;
    }
    b_first_slow(bytemuck::bytes_of(a), xfa, bytemuck::bytes_of(b), xfb)
}

/// [`b_first`] past the first word.
#[inline(never)]
fn b_first_slow(a: &[u8], xfa: &Transform, b: &[u8], xfb: &Transform) -> bool {
    let (ta, tb) = (bytemuck::bytes_of(xfa), bytemuck::bytes_of(xfb));
    match ta.cmp(tb) {
        core::cmp::Ordering::Equal => a > b,
        o => o == core::cmp::Ordering::Greater,
    }
}

#[inline]
pub(crate) fn make_id(a: u8, b: u8) -> u32 {
    (u32::from(a) << 8) | u32::from(b)
}

#[inline]
fn swap_id(id: u32) -> u32 {
    ((id & 0xFF) << 8) | ((id >> 8) & 0xFF)
}

/// A manifold being built in A's shifted local frame.
#[derive(Clone, Copy, Default)]
pub(crate) struct LocalManifold {
    pub normal: Vec2,
    pub points: [(Vec2, f32, u32); 2],
    pub count: usize,
}

impl LocalManifold {
    #[inline]
    fn push(&mut self, point: Vec2, depth: f32, id: u32) {
        if self.count < 2 {
            self.points[self.count] = (point, depth, id);
            self.count += 1;
        }
    }

    /// Converts to world space: `origin` is the shift applied inside A's frame.
    #[inline]
    fn to_world(self, xfa: Transform, origin: Vec2) -> Manifold {
        let mut m = Manifold::default();
        if self.count == 0 {
            return m;
        }
        m.normal = xfa.q.rotate(self.normal);
        let mut finite = fmath::nan_if_not_finite(m.normal.x) + fmath::nan_if_not_finite(m.normal.y);
        for i in 0..self.count {
            let (p, d, id) = self.points[i];
            let w = xfa.apply(p + origin);
            finite +=
                fmath::nan_if_not_finite(w.x) + fmath::nan_if_not_finite(w.y) + fmath::nan_if_not_finite(d);
            m.points[i] = ManifoldPoint {
                point: w,
                depth: d,
                id,
            };
        }
        m.count = self.count as u32;
        if finite != 0.0 {
            return Manifold::default();
        }
        m
    }
}

/// Point `p` of B's frame in A's frame (the origins are subtracted first, as in
/// [`pair_frame`]), or `None` when either rotation is not unit length: the cheaper entry check
/// of the circle pairs, which need no relative rotation. Only the rotations are tested: a
/// non-finite position (or rotation) makes the point non-finite, and both callers' decisions
/// (`capsule_circle_decide`'s squared distance, `polygon_circle_decide`'s check sum) reject a
/// non-finite point as "no contact", as the full transform test would.
#[inline(always)]
pub(crate) fn point_in_frame(xfa: Transform, xfb: Transform, p: Vec2) -> Option<Vec2> {
    (xfa.q.is_unit() && xfb.q.is_unit()).then(|| xfa.q.inv_rotate((xfb.p - xfa.p) + xfb.q.rotate(p)))
}

/// B's transform in A's frame, or `None` when either transform is invalid (non-finite, or a
/// rotation that is not unit length): the one entry check shared by every overlap test and
/// manifold, so both give "no contact" for the same inputs.
#[inline]
pub(crate) fn pair_frame(xfa: Transform, xfb: Transform) -> Option<Transform> {
    (xfa.is_valid() && xfb.is_valid()).then(|| xfa.inv_mul(xfb))
}

#[inline]
fn sanitize_margin(margin: f32) -> f32 {
    // NaN.max(0) is 0 (`clamp` would keep the NaN); infinite margins are clamped to keep
    // arithmetic finite.
    #[allow(clippy::manual_clamp)]
    let m = margin.max(0.0).min(f32::MAX);
    m
}

#[inline]
fn radii_ok(ra: f32, rb: f32) -> bool {
    // Both finite and >= 0 (false for NaN): each is >= 0 and the sum is below infinity.
    // Plain compares (a range's `contains` compiles to float classification here).
    ra >= 0.0 && rb >= 0.0 && ra + rb < f32::INFINITY
}

/// The touching test of every pair that compares a squared distance: within `max_d` (the radii
/// plus the margin) and finite. Coordinates beyond about 1e19 overflow the squared distance; that
/// is "no contact", never a contact of infinite depth and zero normal.
#[inline(always)]
fn within(dist_sq: f32, max_d: f32) -> bool {
    dist_sq <= max_d * max_d && dist_sq < f32::INFINITY
}

/// Midpoint between the surface of A (`ca + n·ra`) and of B (`cb - n·rb`).
#[inline]
fn surface_midpoint(ca: Vec2, cb: Vec2, n: Vec2, ra: f32, rb: f32) -> Vec2 {
    (ca.mul_add(ra, n) + cb.mul_add(-rb, n)) * 0.5
}

/// A's polygon shifted so its vertex 0 is the origin, and B placed in that frame.
#[inline]
pub(crate) fn polygon_pair_frames(a: &Polygon, xf: Transform) -> (Vec2, Transform, Transform) {
    let origin = a.vertices[0];
    let sa = Transform::from_translation(-origin);
    let sb = Transform {
        p: xf.p - origin,
        q: xf.q,
    };
    (origin, sa, sb)
}

#[inline]
fn segment_feature(f: f32) -> u8 {
    if f <= 0.0 {
        0
    } else if f >= 1.0 {
        1
    } else {
        FEATURE_EDGE
    }
}

/// Contact manifold between any two shapes, touching counts as contact (margin 0). A chain
/// segment collides one-sidedly with the convex kinds and never with another chain segment.
#[must_use]
pub fn collide(a: &Shape, xfa: Transform, b: &Shape, xfb: Transform) -> Manifold {
    collide_with_margin(a, xfa, b, xfb, 0.0)
}

/// Contact manifold between any two shapes, also reporting speculative points whose surfaces
/// are apart by at most `margin` (those have `depth >= -margin`). A negative or NaN margin is
/// treated as 0.
#[must_use]
pub fn collide_with_margin(a: &Shape, xfa: Transform, b: &Shape, xfb: Transform, margin: f32) -> Manifold {
    use Shape::*;
    match (a, b) {
        (Circle(a), Circle(b)) => collide_circles(a, xfa, b, xfb, margin),
        (Capsule(a), Circle(b)) => collide_capsule_circle(a, xfa, b, xfb, margin),
        (Circle(a), Capsule(b)) => collide_capsule_circle(b, xfb, a, xfa, margin).flipped(),
        (Capsule(a), Capsule(b)) => collide_capsules(a, xfa, b, xfb, margin),
        (Polygon(a), Circle(b)) => collide_polygon_circle(a, xfa, b, xfb, margin),
        (Circle(a), Polygon(b)) => collide_polygon_circle(b, xfb, a, xfa, margin).flipped(),
        (Polygon(a), Capsule(b)) => collide_polygon_capsule(a, xfa, b, xfb, margin),
        (Capsule(a), Polygon(b)) => collide_polygon_capsule(b, xfb, a, xfa, margin).flipped(),
        (Polygon(a), Polygon(b)) => collide_polygons(a, xfa, b, xfb, margin),
        (ChainSegment(a), Circle(b)) => collide_chain_segment_circle(a, xfa, b, xfb, margin),
        (Circle(a), ChainSegment(b)) => collide_chain_segment_circle(b, xfb, a, xfa, margin).flipped(),
        (ChainSegment(a), Capsule(b)) => collide_chain_segment_capsule(a, xfa, b, xfb, margin),
        (Capsule(a), ChainSegment(b)) => collide_chain_segment_capsule(b, xfb, a, xfa, margin).flipped(),
        (ChainSegment(a), Polygon(b)) => collide_chain_segment_polygon(a, xfa, b, xfb, margin),
        (Polygon(a), ChainSegment(b)) => collide_chain_segment_polygon(b, xfb, a, xfa, margin).flipped(),
        (ChainSegment(_), ChainSegment(_)) => Manifold::default(),
    }
}

/// True when two shapes overlap or touch.
#[must_use]
pub fn overlaps(a: &Shape, xfa: Transform, b: &Shape, xfb: Transform) -> bool {
    use Shape::*;
    match (a, b) {
        (Circle(a), Circle(b)) => overlaps_circles(a, xfa, b, xfb),
        (Capsule(a), Circle(b)) => overlaps_capsule_circle(a, xfa, b, xfb),
        (Circle(a), Capsule(b)) => overlaps_capsule_circle(b, xfb, a, xfa),
        (Capsule(a), Capsule(b)) => overlaps_capsules(a, xfa, b, xfb),
        (Polygon(a), Circle(b)) => overlaps_polygon_circle(a, xfa, b, xfb),
        (Circle(a), Polygon(b)) => overlaps_polygon_circle(b, xfb, a, xfa),
        (Polygon(a), Capsule(b)) => overlaps_polygon_capsule(a, xfa, b, xfb),
        (Capsule(a), Polygon(b)) => overlaps_polygon_capsule(b, xfb, a, xfa),
        (Polygon(a), Polygon(b)) => overlaps_polygons(a, xfa, b, xfb),
        (ChainSegment(a), Circle(b)) => overlaps_chain_segment_circle(a, xfa, b, xfb),
        (Circle(a), ChainSegment(b)) => overlaps_chain_segment_circle(b, xfb, a, xfa),
        (ChainSegment(a), Capsule(b)) => overlaps_chain_segment_capsule(a, xfa, b, xfb),
        (Capsule(a), ChainSegment(b)) => overlaps_chain_segment_capsule(b, xfb, a, xfa),
        (ChainSegment(a), Polygon(b)) => overlaps_chain_segment_polygon(a, xfa, b, xfb),
        (Polygon(a), ChainSegment(b)) => overlaps_chain_segment_polygon(b, xfb, a, xfa),
        (ChainSegment(_), ChainSegment(_)) => false,
    }
}
