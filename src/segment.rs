//! Closest points on segments: point–segment and segment–segment, the one home of this
//! arithmetic (used by the shapes' point tests, GJK's callers, the narrow phase and the casts).
//!
//! A segment is `p + f (q - p)` for `f` in `[0, 1]`; zero-length segments are points.

use crate::math::Vec2;
use bytemuck::{Pod, Zeroable};

/// Closest point to `p` on the segment `a`–`b` (handles `a == b`).
#[inline]
#[must_use]
pub fn closest_point_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    segment_closest(a, b, p, p).c1
}

/// Result of the closest-point search between two segments `p1 + f1·d1` and `p2 + f2·d2`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SegmentClosest {
    pub f1: f32,
    pub f2: f32,
    pub c1: Vec2,
    pub c2: Vec2,
    pub dist_sq: f32,
}

/// Closest points between segments `p1`–`q1` and `p2`–`q2`; handles zero-length segments.
#[inline]
pub(crate) fn segment_closest(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> SegmentClosest {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let dd1 = d1.dot(d1);
    let dd2 = d2.dot(d2);
    let rd1 = r.dot(d1);
    let rd2 = r.dot(d2);
    // `num / den` clamped to [0, 1] (den > 0), deciding the clamped cases on the numerator
    // so the division is only waited for when its value is used (the same fraction).
    #[inline(always)]
    fn fraction(num: f32, den: f32) -> f32 {
        if num <= 0.0 {
            0.0
        } else if num >= den {
            1.0
        } else {
            num / den
        }
    }
    let (f1, f2);
    if dd1 <= 0.0 && dd2 <= 0.0 {
        f1 = 0.0;
        f2 = 0.0;
    } else if dd1 <= 0.0 {
        f1 = 0.0;
        f2 = fraction(rd2, dd2);
    } else if dd2 <= 0.0 {
        f2 = 0.0;
        f1 = fraction(-rd1, dd1);
    } else {
        let d12 = d1.dot(d2);
        let denom = dd1 * dd2 - d12 * d12;
        let t1 = if denom > 0.0 {
            fraction(d12 * rd2 - rd1 * dd2, denom)
        } else {
            0.0
        };
        // B's fraction for A's point, clamped; where it clamps, A's is redone for B's end.
        let n2 = d12 * t1 + rd2;
        if n2 < 0.0 {
            f2 = 0.0;
            f1 = fraction(-rd1, dd1);
        } else if n2 > dd2 {
            f2 = 1.0;
            f1 = fraction(d12 - rd1, dd1);
        } else {
            f2 = n2 / dd2;
            f1 = t1;
        }
    }
    let c1 = p1.mul_add(f1, d1);
    let c2 = p2.mul_add(f2, d2);
    SegmentClosest {
        f1,
        f2,
        c1,
        c2,
        dist_sq: c1.distance_squared(c2),
    }
}

/// Closest points between two segments.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SegmentDistance {
    /// Closest point on the first segment.
    pub closest1: Vec2,
    /// Closest point on the second segment.
    pub closest2: Vec2,
    /// Fraction along the first segment (`p1 + fraction1 (q1 - p1)`), in `[0, 1]`.
    pub fraction1: f32,
    /// Fraction along the second segment, in `[0, 1]`.
    pub fraction2: f32,
    /// Squared distance between the closest points.
    pub distance_squared: f32,
}

/// Closest points between segments `p1`–`q1` and `p2`–`q2` (zero-length segments allowed).
#[must_use]
pub fn segment_distance(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> SegmentDistance {
    let s = segment_closest(p1, q1, p2, q2);
    SegmentDistance {
        closest1: s.c1,
        closest2: s.c2,
        fraction1: s.f1,
        fraction2: s.f2,
        distance_squared: s.dist_sq,
    }
}
