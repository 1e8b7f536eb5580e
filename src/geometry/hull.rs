//! The convex hull of up to 8 points (Box2D's `hull.c` job): welding, collinear points,
//! counter-clockwise order, and the one range rule of every shape maker.

use super::{GeometryError, HULL_RELATIVE_TOLERANCE, MAX_POLYGON_VERTICES};
use crate::math::Vec2;

/// The diagonal of the bounding box of `points` (finite, checked by the caller), or
/// [`GeometryError::OutOfRange`] when it overflows `f32`: the one range rule of every shape
/// maker.
pub(crate) fn finite_extent(points: &[Vec2]) -> Result<f32, GeometryError> {
    let (mut lo, mut hi) = (points[0], points[0]);
    for &p in points {
        lo = lo.min(p);
        hi = hi.max(p);
    }
    let extent = (hi - lo).length();
    if extent.is_finite() {
        Ok(extent)
    } else {
        Err(GeometryError::OutOfRange)
    }
}

/// Builds the convex hull of up to 8 points: welds points closer than
/// [`HULL_RELATIVE_TOLERANCE`] × extent, drops collinear points, orders CCW.
/// Returns the hull vertices and their count.
pub fn compute_hull(points: &[Vec2]) -> Result<([Vec2; MAX_POLYGON_VERTICES], usize), GeometryError> {
    if points.len() > MAX_POLYGON_VERTICES {
        return Err(GeometryError::TooManyPoints);
    }
    if points.iter().any(|p| !p.is_finite()) {
        return Err(GeometryError::NonFinite);
    }
    if points.len() < 3 {
        return Err(GeometryError::TooFewPoints);
    }
    finite_extent(points)?;
    // The points scaled by a power of two so that their extent's largest component is near 1
    // (exact): the tolerances and turn tests below then work alike at every scale (unscaled,
    // squared distances underflow below about 1e-19). The hull's vertices are scaled back.
    let (mut lo, mut hi) = (points[0], points[0]);
    for &p in points {
        lo = lo.min(p);
        hi = hi.max(p);
    }
    let m = (hi - lo).max_abs();
    if m == 0.0 {
        return Err(GeometryError::TooFewPoints);
    }
    let s = crate::math::unit_scale(m);
    let extent = ((hi - lo) * s).length();
    let tol = HULL_RELATIVE_TOLERANCE * extent;
    let tol_sq = tol * tol;

    // Weld near-duplicates.
    let mut pts = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    let mut n = 0;
    for p in points.iter().map(|&p| p * s) {
        if pts[..n].iter().all(|q| q.distance_squared(p) > tol_sq) {
            pts[n] = p;
            n += 1;
        }
    }
    if n < 3 {
        return Err(GeometryError::TooFewPoints);
    }

    // Sort lexicographically (insertion sort, n <= 8), then Andrew's monotone chain.
    for i in 1..n {
        let mut j = i;
        while j > 0 && (pts[j].x < pts[j - 1].x || (pts[j].x == pts[j - 1].x && pts[j].y < pts[j - 1].y)) {
            pts.swap(j, j - 1);
            j -= 1;
        }
    }
    let mut hull = [Vec2::ZERO; 2 * MAX_POLYGON_VERTICES];
    let mut k = 0;
    for &p in &pts[..n] {
        while k >= 2 && (hull[k - 1] - hull[k - 2]).cross(p - hull[k - 2]) <= 0.0 {
            k -= 1;
        }
        hull[k] = p;
        k += 1;
    }
    let lower = k + 1;
    for &p in pts[..n - 1].iter().rev() {
        while k >= lower && (hull[k - 1] - hull[k - 2]).cross(p - hull[k - 2]) <= 0.0 {
            k -= 1;
        }
        hull[k] = p;
        k += 1;
    }
    let mut m = k - 1; // last point repeats the first

    // Remove nearly collinear vertices, one at a time, until none is left.
    while m >= 3 {
        let collinear = (0..m).find(|&i| {
            let prev = hull[(i + m - 1) % m];
            let e = hull[(i + 1) % m] - prev;
            let len = e.length();
            // Outward distance of vertex i from the chord prev -> next (positive for a CCW hull).
            let dist = if len > 0.0 {
                (hull[i] - prev).cross(e) / len
            } else {
                0.0
            };
            dist <= tol
        });
        match collinear {
            Some(i) => {
                hull.copy_within(i + 1..m, i);
                m -= 1;
            }
            None => break,
        }
    }
    if m < 3 {
        return Err(GeometryError::Collinear);
    }
    let mut out = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for (o, &h) in out.iter_mut().zip(&hull[..m]) {
        *o = h * (1.0 / s);
    }
    Ok((out, m))
}
