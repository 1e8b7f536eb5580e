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
//! Welding: `Chain::open` and `Chain::closed` drop a point only when it lies within the
//! **weld tolerance** of the kept segment that replaces it, measured for every dropped point
//! (not only against its neighbours, so a curve turning slowly keeps its shape):
//!
//! `max(CHAIN_WELD_RELATIVE × m, CHAIN_COLLINEAR_RELATIVE × ℓ)`
//!
//! where `m` is the largest coordinate magnitude (`|x|` or `|y|`) of the dropped point and the
//! segment's start, and `ℓ` is the segment's length. The first, absolute term
//! ([`CHAIN_WELD_RELATIVE`], about 8 ulps of the coordinates) welds near-duplicate points and
//! round-off along straight runs: it is 1e-6 units at coordinates of 1, 0.001 at 1000 and 10
//! units at 1e7, so far from the origin features smaller than that are merged. The second,
//! relative term ([`CHAIN_COLLINEAR_RELATIVE`]) lets a segment cut a corner by 1e-5 of its
//! length. Hence the Hausdorff distance between the input and the welded polyline is at most
//! the tolerance at the chain's largest coordinate and longest welded segment, and a loop's
//! area changes by at most that distance times its perimeter. The test is conservative: it may
//! keep a point the tolerance would allow dropping. The welded points are input points in input
//! order; a loop starts at its leftmost point (the lowest of those, a corner of its hull), or
//! the point after it when that one is dropped. Welding a welded chain again may drop more
//! points (each weld stays within the tolerance of its own input); deserializing (feature
//! `serde`) takes clean points as they are, so a round trip is exact. Welding takes O(n) time (a long straight run is scanned once) and one
//! allocation of n points. Chain segments have no area: no mass, nothing inside.

use super::GeometryError;
use crate::math::{Aabb, Transform, Vec2};
use bytemuck::{Pod, Zeroable};

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// The absolute term of the chain weld tolerance: welding drops a point only within
/// `max(CHAIN_WELD_RELATIVE × m, CHAIN_COLLINEAR_RELATIVE × ℓ)` of the kept segment replacing
/// it, `m` the largest coordinate magnitude of the point and the segment's start, `ℓ` the
/// segment's length. About 8 ulps: a point this close to a kept point is a near-duplicate,
/// welded into it (1e-6 units at coordinates of 1, 10 units at 1e7).
pub const CHAIN_WELD_RELATIVE: f32 = 1.0e-6;

/// The relative term of the chain weld tolerance (see [`CHAIN_WELD_RELATIVE`]): a dropped
/// point lies within this fraction of the length of the kept segment replacing it, or within
/// the absolute term.
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
    /// An open chain through `points` (at least 2 distinct points after welding, each segment
    /// long enough to have a direction: points about 1e-19 apart or more). Errors:
    /// [`GeometryError::NonFinite`], [`GeometryError::OutOfRange`],
    /// [`GeometryError::TooFewPoints`], and [`GeometryError::OutOfMemory`] when the allocator
    /// cannot provide room for the points (nothing is made).
    pub fn open(points: &[Vec2]) -> Result<Chain, GeometryError> {
        Chain::build(points, false)
    }

    /// A closed loop through `points` (at least 3 points after welding; the last point
    /// connects back to the first, do not repeat it). Counter-clockwise encloses a solid (its
    /// fronts face out); clockwise encloses open space, so a room that bodies and movers stay
    /// inside is a clockwise loop (negative [`Chain::signed_area`]). Errors as [`Chain::open`].
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
        // Every segment must be one `ChainSegment::new` makes: consecutive points with a
        // direction between them (welding keeps points closer than its tolerance, which for a
        // whole chain below about 1e-13 across is itself below f32's normal squared range).
        let wrap = closed.then(|| (welded[welded.len() - 1], welded[0]));
        let pairs = welded.windows(2).map(|w| (w[0], w[1])).chain(wrap);
        if pairs.into_iter().any(|(a, b)| (b - a).try_normalize().is_none()) {
            return Err(GeometryError::TooFewPoints);
        }
        Ok(Chain {
            points: welded,
            closed,
        })
    }

    /// A chain through points that are clean by construction, without welding: consecutive
    /// points (and a loop's last and first) distinct with a direction between them, at least 2
    /// points (3 for a loop), a finite extent. For builders whose points are exact (tile
    /// outlines merge their runs by cell index), so welding by distance could only move them.
    pub(crate) fn from_clean(points: Vec<Vec2>, closed: bool) -> Chain {
        debug_assert!(points.len() >= if closed { 3 } else { 2 });
        Chain { points, closed }
    }

    /// The welded points.
    #[must_use]
    pub fn points(&self) -> &[Vec2] {
        &self.points
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

/// Welds a polyline (see the module docs): every point it drops lies within the weld tolerance
/// of the kept segment replacing it. One allocation of `points.len()` points:
/// [`GeometryError::OutOfMemory`] when the allocator cannot provide it.
///
/// One pass, O(n): from each kept point (the anchor) the run of dropped points grows while the
/// next point can still end the segment replacing them. Each dropped point `p` at distance `r`
/// from the anchor allows segment directions within `asin(tol / r)` of its own (a wedge, kept
/// as an interval of angles from the run's first constraining point), and the segment must
/// reach at least as far as `r`, so `p` projects inside it; a point within the absolute term
/// of the anchor constrains nothing. The test is conservative (it uses `r` for the segment
/// length in the relative term): it may keep a point the tolerance would allow dropping, never
/// the reverse. A loop starts at its leftmost (then lowest) point, a corner of its hull, and
/// the seam is checked against the input once at the end.
#[cfg(feature = "alloc")]
fn weld(points: &[Vec2], closed: bool) -> Result<Vec<Vec2>, GeometryError> {
    let n = points.len();
    let mut out: Vec<Vec2> = try_vec(n)?;
    if n == 0 {
        return Ok(out);
    }
    let start = if closed {
        (1..n).fold(0, |best, i| {
            let (p, b) = (points[i], points[best]);
            if p.x < b.x || (p.x == b.x && p.y < b.y) {
                i
            } else {
                best
            }
        })
    } else {
        0
    };
    // Point `k` of the walk: a loop visits its start again as point `n`.
    let at = |k: usize| points[(start + k) % n];
    let end = if closed { n } else { n - 1 };
    out.push(at(0));
    // Walk indices of the last two kept points and of the second kept point.
    let (mut before_last, mut last, mut second) = (0, 0, None);
    let mut run = Run::new(at(0));
    for k in 1..=end {
        let c = at(k);
        if !run.extend(c) {
            // `k - 1` was accepted and `k` is not: keep `k - 1` and start a run there (its
            // next point is always accepted).
            out.push(at(k - 1));
            before_last = last;
            last = k - 1;
            second.get_or_insert(k - 1);
            run = Run::new(at(k - 1));
            run.extend(c);
        }
    }
    let first = at(0);
    let z = at(end);
    if !closed {
        // The end point, unless it is a near-duplicate of the last kept point (then the whole
        // last run lies within the absolute term of that point).
        if !near(out[out.len() - 1], z) {
            out.push(z);
        }
        return Ok(out);
    }
    // Loop: the walk ended on its start. A last kept point next to the start is dropped when
    // the points from the one before it to the start lie within the tolerance of that segment.
    if out.len() >= 3
        && near(out[out.len() - 1], first)
        && within(&at, before_last, end, out[out.len() - 2], first)
    {
        out.pop();
        last = before_last;
    }
    // The start itself, when its neighbours' segment replaces it within the tolerance.
    if let Some(second) = second {
        if out.len() > 3 && within(&at, last, end + second, out[out.len() - 1], out[1]) {
            out.remove(0);
        }
    }
    Ok(out)
}

/// The absolute term of the tolerance between two points: [`CHAIN_WELD_RELATIVE`] times the
/// largest magnitude of their coordinates.
#[cfg(feature = "alloc")]
fn absolute_tolerance(a: Vec2, b: Vec2) -> f64 {
    let m = a.abs().max(b.abs());
    f64::from(CHAIN_WELD_RELATIVE) * f64::from(m.x.max(m.y))
}

#[cfg(feature = "alloc")]
fn to64(v: Vec2) -> (f64, f64) {
    (f64::from(v.x), f64::from(v.y))
}

/// Whether `b` is a near-duplicate of `a` (within the absolute term).
#[cfg(feature = "alloc")]
fn near(a: Vec2, b: Vec2) -> bool {
    let (d, e) = (to64(b), to64(a));
    let (dx, dy) = (d.0 - e.0, d.1 - e.1);
    crate::fmath::sqrt64(dx * dx + dy * dy) <= absolute_tolerance(a, b)
}

/// Whether walk points `from + 1 .. to` (`at` wraps) all lie within the tolerance of segment
/// `a`–`b`, measured exactly.
#[cfg(feature = "alloc")]
fn within(at: &impl Fn(usize) -> Vec2, from: usize, to: usize, a: Vec2, b: Vec2) -> bool {
    let (a64, b64) = (to64(a), to64(b));
    let (dx, dy) = (b64.0 - a64.0, b64.1 - a64.1);
    let ll = dx * dx + dy * dy;
    let relative = f64::from(CHAIN_COLLINEAR_RELATIVE) * crate::fmath::sqrt64(ll);
    (from + 1..to).all(|k| {
        let p = at(k);
        let q = to64(p);
        let (px, py) = (q.0 - a64.0, q.1 - a64.1);
        let t = if ll > 0.0 {
            ((px * dx + py * dy) / ll).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let (ex, ey) = (px - t * dx, py - t * dy);
        let tol = absolute_tolerance(a, p).max(relative);
        ex * ex + ey * ey <= tol * tol
    })
}

/// The points dropped since an anchor, as constraints on the segment that will replace them
/// (see [`weld`]).
#[cfg(feature = "alloc")]
struct Run {
    anchor: Vec2,
    /// Direction of the first constraining point; angles are measured from it.
    reference: Option<(f64, f64)>,
    /// Allowed segment directions, as angles from `reference` (empty when `lo > hi`).
    lo: f64,
    hi: f64,
    /// The farthest constraining point's distance: the segment must reach it.
    reach: f64,
}

#[cfg(feature = "alloc")]
impl Run {
    fn new(anchor: Vec2) -> Run {
        Run {
            anchor,
            reference: None,
            lo: 0.0,
            hi: 0.0,
            reach: 0.0,
        }
    }

    /// Whether `c` can end the segment from the anchor replacing the run; if so, `c` joins the
    /// run (as a point the segment must pass within the tolerance of).
    fn extend(&mut self, c: Vec2) -> bool {
        let (a, q) = (to64(self.anchor), to64(c));
        let d = (q.0 - a.0, q.1 - a.1);
        let r = crate::fmath::sqrt64(d.0 * d.0 + d.1 * d.1);
        if r < self.reach {
            return false;
        }
        let absolute = absolute_tolerance(self.anchor, c);
        // A wedge of half-angle below 90°: every angle in it is within (-90°, 90°) of the
        // reference, so the intervals never wrap.
        let half = || crate::fmath::asin64((absolute / r).max(f64::from(CHAIN_COLLINEAR_RELATIVE)));
        match self.reference {
            Some(u) => {
                let phi = crate::fmath::atan2_64(u.0 * d.1 - u.1 * d.0, u.0 * d.0 + u.1 * d.1);
                if !(self.lo <= phi && phi <= self.hi) {
                    return false;
                }
                if r > absolute {
                    let h = half();
                    self.lo = self.lo.max(phi - h);
                    self.hi = self.hi.min(phi + h);
                    self.reach = r;
                }
            }
            None => {
                if r > absolute {
                    let h = half();
                    self.reference = Some(d);
                    self.lo = -h;
                    self.hi = h;
                    self.reach = r;
                }
            }
        }
        true
    }
}

/// Deserialization forms (feature `serde`): a chain segment through [`ChainSegment::new`]; a
/// chain whose points are already clean (every segment valid, as [`Chain::segment`] requires,
/// with a finite extent) is taken as it is, so a serialized chain comes back bit for bit, and
/// any other list of points is welded through [`Chain::open`] / [`Chain::closed`].
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
            let needed = if c.closed { 3 } else { 2 };
            let segments = if c.closed {
                c.points.len()
            } else {
                c.points.len().saturating_sub(1)
            };
            let clean = c.points.len() >= needed
                && crate::geometry::hull::finite_extent(&c.points).is_ok()
                && (0..segments)
                    .all(|i| super::ChainSegment::from_polyline(&c.points, c.closed, i).is_some());
            if clean {
                Ok(super::Chain::from_clean(c.points, c.closed))
            } else if c.closed {
                super::Chain::closed(&c.points)
            } else {
                super::Chain::open(&c.points)
            }
        }
    }
}
