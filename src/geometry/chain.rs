//! One-sided chain segments and chains: level geometry without ghost collisions.
//!
//! A [`ChainSegment`] is the segment `point1`–`point2` plus the two neighbouring vertices of
//! its chain (`ghost1` before `point1`, `ghost2` after `point2`). It is **one-sided**: it
//! collides only with shapes on its front side, the right of `point1 → point2` (the side its
//! [`ChainSegment::normal`] points to, Box2D's convention). The ghost vertices tell each query
//! which contact normals belong to the segment and which to its neighbours, so a shape sliding
//! across the vertex between two segments of a flat floor never catches on it.
//!
//! A [`Chain`] (feature `alloc`) is a polyline welded into segments:
//! - a **loop** (`Chain::closed`) of at least 3 points: counter-clockwise encloses a solid
//!   region (its front faces point out, as a CCW polygon's normals do); clockwise makes the
//!   inside the open space (a container);
//! - an **open** chain (`Chain::open`) of at least 2 points: every point is a real vertex (not
//!   Box2D's "first and last points are ghosts" rule). Its two free ends are **square**: the
//!   ghost beyond an end lies straight behind the segment, so the end acts as a 90° convex
//!   corner (normals from the face normal round to the segment's direction are the end's).
//!   For Box2D's behaviour, build the end segments with [`ChainSegment::new`] and your own
//!   ghosts.
//!
//! Welding: consecutive points closer than a few ulps of their coordinates
//! ([`CHAIN_WELD_RELATIVE`] × their magnitude) are merged, and a point lying between its
//! neighbours within [`CHAIN_COLLINEAR_RELATIVE`] × the span is removed. Chain segments have
//! no area: no mass, nothing inside.

use super::GeometryError;
use crate::math::{Aabb, Transform, Vec2};
use bytemuck::{Pod, Zeroable};

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// Points of a chain closer than this fraction of their coordinates' magnitude (about 8 ulps)
/// are welded into one.
pub const CHAIN_WELD_RELATIVE: f32 = 1.0e-6;

/// A chain point whose distance to the line through its neighbours is below this fraction of
/// the neighbours' distance, and which lies between them, is removed (the two segments become
/// one).
pub const CHAIN_COLLINEAR_RELATIVE: f32 = 1.0e-5;

/// A one-sided segment with ghost vertices (see the [module docs](self)). Local space; the
/// front side is the right of `point1 → point2`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "serde_data::ChainSegment")
)]
pub struct ChainSegment {
    /// The chain's vertex before `point1` (the previous segment's start).
    pub ghost1: Vec2,
    /// Start of the segment.
    pub point1: Vec2,
    /// End of the segment.
    pub point2: Vec2,
    /// The chain's vertex after `point2` (the next segment's end).
    pub ghost2: Vec2,
}

impl ChainSegment {
    /// A chain segment from its four points; errors on a non-finite point
    /// ([`GeometryError::NonFinite`]), on `point1 == point2` or two points too close to have a
    /// direction (a segment, or a ghost and its point that are not equal, whose squared
    /// distance is below f32's normal range, about 1e-19 apart: [`GeometryError::TooFewPoints`])
    /// and on points whose extent overflows `f32` ([`GeometryError::OutOfRange`]). A ghost
    /// equal to its segment point is allowed and means "no neighbour": the end is square.
    pub fn new(
        ghost1: Vec2,
        point1: Vec2,
        point2: Vec2,
        ghost2: Vec2,
    ) -> Result<ChainSegment, GeometryError> {
        if !(ghost1.is_finite() && point1.is_finite() && point2.is_finite() && ghost2.is_finite()) {
            return Err(GeometryError::NonFinite);
        }
        let lo = ghost1.min(point1).min(point2.min(ghost2));
        let hi = ghost1.max(point1).max(point2.max(ghost2));
        if !(hi - lo).length().is_finite() {
            return Err(GeometryError::OutOfRange);
        }
        // The segment, and each ghost that is not its point, must have a direction: a squared
        // length in f32's normal range (denormal distances have no unit normal).
        let direction = |v: Vec2| v.try_normalize().is_some();
        if !direction(point2 - point1)
            || (ghost1 != point1 && !direction(point1 - ghost1))
            || (ghost2 != point2 && !direction(ghost2 - point2))
        {
            return Err(GeometryError::TooFewPoints);
        }
        Ok(ChainSegment {
            ghost1,
            point1,
            point2,
            ghost2,
        })
    }

    /// A segment with square ends on both sides (no neighbours): one-sided, and a shape on the
    /// front side meets its ends as 90° convex corners.
    pub fn lone(point1: Vec2, point2: Vec2) -> Result<ChainSegment, GeometryError> {
        ChainSegment::new(point1, point1, point2, point2)
    }

    /// Segment `i` of the polyline `points` (closed: `points[last] → points[0]` is segment
    /// `len - 1`), with its ghosts, without welding or allocation; `None` when `i` is out of
    /// range or the segment is invalid (see [`ChainSegment::new`]). Open ends get square ghosts.
    /// [`Chain`] welds the points first; use this directly on points you know are clean.
    #[must_use]
    pub fn from_polyline(points: &[Vec2], closed: bool, i: usize) -> Option<ChainSegment> {
        let n = points.len();
        let segments = if closed { n } else { n.saturating_sub(1) };
        if i >= segments || n < 2 {
            return None;
        }
        let at = |k: usize| points[k % n];
        let p1 = at(i);
        let p2 = at(i + 1);
        let g1 = if closed || i > 0 { at(i + n - 1) } else { p1 };
        let g2 = if closed || i + 2 < n { at(i + 2) } else { p2 };
        ChainSegment::new(g1, p1, p2, g2).ok()
    }

    /// The unit normal of the front side in local space: the right of `point1 → point2`. Zero
    /// for a degenerate segment.
    #[must_use]
    pub fn normal(&self) -> Vec2 {
        (self.point2 - self.point1).right_perp().normalize_or_zero()
    }

    /// The two-sided segment (a capsule of radius 0) under this one-sided one.
    #[must_use]
    pub fn segment(&self) -> super::Capsule {
        super::Capsule {
            center1: self.point1,
            center2: self.point2,
            radius: 0.0,
        }
    }

    /// World bounding box of the segment (not its ghosts) under `xf`.
    #[must_use]
    pub fn aabb(&self, xf: Transform) -> Aabb {
        let a = xf.apply(self.point1);
        let b = xf.apply(self.point2);
        Aabb::new(a.min(b), a.max(b))
    }

    /// The unit direction of the previous segment (`ghost1 → point1`), or, for a square end
    /// (`ghost1 == point1`), the inward normal: the end is a 90° convex corner.
    #[inline]
    pub(crate) fn edge0(&self, e1: Vec2) -> Vec2 {
        (self.point1 - self.ghost1)
            .try_normalize()
            .unwrap_or(e1.right_perp())
    }

    /// The unit direction of the next segment (`point2 → ghost2`), or, for a square end
    /// (`ghost2 == point2`), straight into the back side: a 90° convex corner.
    #[inline]
    pub(crate) fn edge2(&self, e1: Vec2) -> Vec2 {
        (self.ghost2 - self.point2)
            .try_normalize()
            .unwrap_or(-e1.right_perp())
    }
}

/// A welded polyline of one-sided segments, open or closed (see the [module docs](self)).
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "serde_data::Chain")
)]
pub struct Chain {
    points: Vec<Vec2>,
    closed: bool,
}

#[cfg(feature = "alloc")]
impl Chain {
    /// An open chain through `points` (at least 2 distinct points after welding). Errors:
    /// [`GeometryError::NonFinite`], [`GeometryError::OutOfRange`],
    /// [`GeometryError::TooFewPoints`], and [`GeometryError::OutOfMemory`] when the allocator
    /// cannot provide room for the points (nothing is made).
    pub fn open(points: &[Vec2]) -> Result<Chain, GeometryError> {
        Chain::build(points, false)
    }

    /// A closed loop through `points` (at least 3 points after welding; the last point
    /// connects back to the first, do not repeat it). Counter-clockwise encloses a solid.
    /// Errors as [`Chain::open`].
    pub fn closed(points: &[Vec2]) -> Result<Chain, GeometryError> {
        Chain::build(points, true)
    }

    fn build(points: &[Vec2], closed: bool) -> Result<Chain, GeometryError> {
        if points.iter().any(|p| !p.is_finite()) {
            return Err(GeometryError::NonFinite);
        }
        if points.is_empty() {
            return Err(GeometryError::TooFewPoints);
        }
        super::hull::finite_extent(points)?;
        let welded = weld(points, closed)?;
        let needed = if closed { 3 } else { 2 };
        if welded.len() < needed {
            return Err(GeometryError::TooFewPoints);
        }
        Ok(Chain {
            points: welded,
            closed,
        })
    }

    /// The welded points.
    #[must_use]
    pub fn points(&self) -> &[Vec2] {
        &self.points
    }

    /// The welded points, taken out of the chain.
    pub(crate) fn into_points(self) -> Vec<Vec2> {
        self.points
    }

    /// True for a loop.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Number of segments: the point count for a loop, one less for an open chain.
    #[must_use]
    pub fn segment_count(&self) -> usize {
        if self.closed {
            self.points.len()
        } else {
            self.points.len() - 1
        }
    }

    /// Segment `i` with its ghosts, or `None` when out of range.
    #[must_use]
    pub fn segment(&self, i: usize) -> Option<ChainSegment> {
        ChainSegment::from_polyline(&self.points, self.closed, i)
    }

    /// Every segment in order.
    pub fn segments(&self) -> impl ExactSizeIterator<Item = ChainSegment> + '_ {
        let n = self.segment_count();
        (0..n).map(move |i| {
            // In range, and welded points are distinct: `from_polyline` cannot fail.
            self.segment(i).unwrap_or_default()
        })
    }

    /// World bounding box of all points under `xf`.
    #[must_use]
    pub fn aabb(&self, xf: Transform) -> Aabb {
        let first = xf.apply(self.points[0]);
        self.points[1..].iter().fold(Aabb::new(first, first), |b, p| {
            let w = xf.apply(*p);
            Aabb::new(b.min.min(w), b.max.max(w))
        })
    }

    /// Signed area enclosed by a loop (positive counter-clockwise); 0 for an open chain.
    #[must_use]
    pub fn signed_area(&self) -> f32 {
        if !self.closed {
            return 0.0;
        }
        let o = self.points[0];
        let n = self.points.len();
        let mut twice = 0.0f64;
        for i in 1..n - 1 {
            let a = self.points[i] - o;
            let b = self.points[i + 1] - o;
            twice += f64::from(a.x) * f64::from(b.y) - f64::from(a.y) * f64::from(b.x);
        }
        (0.5 * twice) as f32
    }
}

/// An empty vector with room for exactly `capacity` items, or [`GeometryError::OutOfMemory`]
/// when the allocator cannot provide it: the level builders reserve what they need this way
/// (every push after it stays within the room) rather than abort.
#[cfg(feature = "alloc")]
pub(crate) fn try_vec<T>(capacity: usize) -> Result<Vec<T>, GeometryError> {
    let mut v = Vec::new();
    v.try_reserve_exact(capacity)
        .map_err(|_| GeometryError::OutOfMemory)?;
    Ok(v)
}

/// Room in `v` for one more item (growing it as `push` would), or
/// [`GeometryError::OutOfMemory`].
#[cfg(feature = "alloc")]
pub(crate) fn room_for_one<T>(v: &mut Vec<T>) -> Result<(), GeometryError> {
    v.try_reserve(1).map_err(|_| GeometryError::OutOfMemory)
}

/// Welds near-duplicate points and removes collinear in-between points (see the module docs),
/// in one allocation of `points.len()` points: [`GeometryError::OutOfMemory`] when the
/// allocator cannot provide it.
#[cfg(feature = "alloc")]
fn weld(points: &[Vec2], closed: bool) -> Result<Vec<Vec2>, GeometryError> {
    let same = |a: Vec2, b: Vec2| {
        let m = a.abs().max(b.abs());
        let d = (a - b).abs();
        d.x.max(d.y) <= CHAIN_WELD_RELATIVE * m.x.max(m.y)
    };
    let mut out: Vec<Vec2> = try_vec(points.len())?;
    for &p in points {
        if out.last().is_none_or(|&q| !same(q, p)) {
            out.push(p);
        }
    }
    if closed {
        while out.len() > 1 && same(out[0], out[out.len() - 1]) {
            out.pop();
        }
    }
    // Collinear points, in place: the kept points are a prefix of the distinct ones (`kept`
    // never passes the point being read).
    let mut kept = 0;
    for k in 0..out.len() {
        let p = out[k];
        while kept >= 2 && between(out[kept - 2], out[kept - 1], p) {
            kept -= 1;
        }
        out[kept] = p;
        kept += 1;
    }
    out.truncate(kept);
    if closed {
        // The seam: the last point between its neighbours, or the first.
        loop {
            let n = out.len();
            if n < 3 {
                break;
            }
            if between(out[n - 2], out[n - 1], out[0]) {
                out.pop();
            } else if between(out[n - 1], out[0], out[1]) {
                out.remove(0);
            } else {
                break;
            }
        }
    }
    Ok(out)
}

/// True when `b` lies between `a` and `c` on (nearly) the line through them.
#[cfg(feature = "alloc")]
fn between(a: Vec2, b: Vec2, c: Vec2) -> bool {
    let u = b - a;
    let w = c - b;
    let span = c - a;
    u.dot(w) > 0.0 && u.cross(w).abs() <= CHAIN_COLLINEAR_RELATIVE * span.length_squared()
}

/// Deserialization forms (feature `serde`): a chain segment through [`ChainSegment::new`], a
/// chain through [`Chain::open`] / [`Chain::closed`] (welding an already welded chain changes
/// nothing).
#[cfg(feature = "serde")]
mod serde_data {
    use super::GeometryError;
    use crate::math::Vec2;
    #[cfg(feature = "alloc")]
    use alloc::vec::Vec;

    #[derive(serde::Deserialize)]
    pub(super) struct ChainSegment {
        ghost1: Vec2,
        point1: Vec2,
        point2: Vec2,
        ghost2: Vec2,
    }

    impl TryFrom<ChainSegment> for super::ChainSegment {
        type Error = GeometryError;
        fn try_from(c: ChainSegment) -> Result<Self, GeometryError> {
            super::ChainSegment::new(c.ghost1, c.point1, c.point2, c.ghost2)
        }
    }

    #[cfg(feature = "alloc")]
    #[derive(serde::Deserialize)]
    pub(super) struct Chain {
        points: Vec<Vec2>,
        closed: bool,
    }

    #[cfg(feature = "alloc")]
    impl TryFrom<Chain> for super::Chain {
        type Error = GeometryError;
        fn try_from(c: Chain) -> Result<Self, GeometryError> {
            if c.closed {
                super::Chain::closed(&c.points)
            } else {
                super::Chain::open(&c.points)
            }
        }
    }
}
