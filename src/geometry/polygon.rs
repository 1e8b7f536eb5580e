//! Polygons: the makers (hull of points, boxes, a box from an AABB), the validity check
//! every polygon from outside must pass, and the single-polygon queries (bounding box, point
//! containment, inflation and deflation). Mass properties are in `mass.rs`.

use super::hull::{compute_hull, finite_extent};
use super::mass::polygon_centroid;
use super::{
    check_radius, round_extent, GeometryError, Polygon, HULL_RELATIVE_TOLERANCE, MAX_POLYGON_VERTICES,
};
use crate::math::{Aabb, Rot, Transform, Vec2};
use crate::segment::closest_point_on_segment;

impl Polygon {
    /// Convex polygon (hull) of up to 8 points, sharp corners.
    pub fn new(points: &[Vec2]) -> Result<Polygon, GeometryError> {
        Polygon::new_rounded(points, 0.0)
    }

    /// Convex polygon (hull) of up to 8 points with rounding `radius`.
    pub fn new_rounded(points: &[Vec2], radius: f32) -> Result<Polygon, GeometryError> {
        check_radius(radius)?;
        let (v, n) = compute_hull(points)?;
        let p = Polygon::from_hull_vertices(&v[..n], radius);
        p.round_extent()?;
        // The hull is strictly convex with edges well above rounding, so this holds; checked
        // so that no input can make an `Ok` polygon that is not valid.
        if !p.is_valid() {
            return Err(GeometryError::Collinear);
        }
        Ok(p)
    }

    /// The range rule of every shape maker: the box of the vertices grown by the radius has a
    /// diagonal within `f32` ([`GeometryError::OutOfRange`] otherwise).
    fn round_extent(&self) -> Result<(), GeometryError> {
        round_extent(self.vertices(), self.radius)
    }

    /// A polygon with exactly these vertices (3..=8, counter-clockwise, strictly convex), no hull
    /// and no welding: `None` unless the result passes [`Polygon::is_valid`]. For pieces whose
    /// area must stay exact (decomposition), where the hull's welding could drop a nearly
    /// flat corner.
    #[cfg(feature = "alloc")]
    pub(crate) fn from_convex_loop(v: &[Vec2]) -> Option<Polygon> {
        if !(3..=MAX_POLYGON_VERTICES).contains(&v.len()) {
            return None;
        }
        let p = Polygon::from_hull_vertices(v, 0.0);
        p.is_valid().then_some(p)
    }

    /// Builds a polygon from vertices that already form a strictly convex CCW loop.
    fn from_hull_vertices(v: &[Vec2], radius: f32) -> Polygon {
        let n = v.len();
        let mut p = Polygon {
            vertices: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            normals: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            centroid: Vec2::ZERO,
            radius,
            count: n as u32,
        };
        p.vertices[..n].copy_from_slice(v);
        for i in 0..n {
            let e = v[(i + 1) % n] - v[i];
            p.normals[i] = e.right_perp().direction().unwrap_or(Vec2::X);
        }
        p.centroid = polygon_centroid(v);
        p
    }

    /// Axis-aligned box centred on the local origin with half extents `hx`, `hy`.
    /// Vertices start at `(-hx, -hy)` and go CCW; normals are `-y, +x, +y, -x`.
    pub fn make_box(hx: f32, hy: f32) -> Result<Polygon, GeometryError> {
        Polygon::make_offset_box(hx, hy, Vec2::ZERO, Rot::IDENTITY)
    }

    /// Box with half extents `hx`, `hy`, rotated by `rot` and centred at `center` (local space).
    pub fn make_offset_box(hx: f32, hy: f32, center: Vec2, rot: Rot) -> Result<Polygon, GeometryError> {
        Polygon::make_offset_rounded_box(hx, hy, center, rot, 0.0)
    }

    /// Box with half extents `hx`, `hy` and corner rounding `radius`, centred on the origin.
    /// The total extent is `hx + radius` by `hy + radius`.
    pub fn make_rounded_box(hx: f32, hy: f32, radius: f32) -> Result<Polygon, GeometryError> {
        Polygon::make_offset_rounded_box(hx, hy, Vec2::ZERO, Rot::IDENTITY, radius)
    }

    /// The general box maker: half extents, centre, rotation and rounding radius. Errors:
    /// [`GeometryError::NonFinite`], [`GeometryError::NegativeRadius`],
    /// [`GeometryError::InvalidExtent`] (a half extent not positive),
    /// [`GeometryError::OutOfRange`] (the corners' extent overflows `f32`), and
    /// [`GeometryError::Collinear`] when the box is so small next to its centre's distance from
    /// the origin that its corners round onto one line, or its sides are below about 1e-38.
    pub fn make_offset_rounded_box(
        hx: f32,
        hy: f32,
        center: Vec2,
        rot: Rot,
        radius: f32,
    ) -> Result<Polygon, GeometryError> {
        if !(hx.is_finite() && hy.is_finite() && center.is_finite() && rot.is_finite()) {
            return Err(GeometryError::NonFinite);
        }
        check_radius(radius)?;
        if hx <= 0.0 || hy <= 0.0 {
            return Err(GeometryError::InvalidExtent);
        }
        let rot = rot.normalized();
        let xf = Transform { p: center, q: rot };
        let local = [
            Vec2::new(-hx, -hy),
            Vec2::new(hx, -hy),
            Vec2::new(hx, hy),
            Vec2::new(-hx, hy),
        ];
        let normals = [Vec2::new(0.0, -1.0), Vec2::X, Vec2::Y, Vec2::new(-1.0, 0.0)];
        let mut p = Polygon {
            vertices: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            normals: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            centroid: center,
            radius,
            count: 4,
        };
        for i in 0..4 {
            p.vertices[i] = xf.apply(local[i]);
            p.normals[i] = rot.rotate(normals[i]);
        }
        if !p.vertices[..4].iter().all(|v| v.is_finite()) {
            return Err(GeometryError::OutOfRange);
        }
        finite_extent(&p.vertices[..4])?;
        // Far from its centre's origin a box much smaller than the spacing of f32 there
        // rounds to corners on one line (or one point); sides below about 1e-38 (subnormal)
        // have no usable edges.
        if !p.is_valid() {
            return Err(GeometryError::Collinear);
        }
        Ok(p)
    }

    /// The box covering `aabb` (in the polygon's local space). The vertices are exactly the
    /// box corners, starting at `min` and going CCW. Errors as
    /// [`Polygon::make_offset_rounded_box`].
    pub fn from_aabb(aabb: Aabb) -> Result<Polygon, GeometryError> {
        if !(aabb.min.is_finite() && aabb.max.is_finite()) {
            return Err(GeometryError::NonFinite);
        }
        if !(aabb.min.x < aabb.max.x && aabb.min.y < aabb.max.y) {
            return Err(GeometryError::InvalidExtent);
        }
        let (lo, hi) = (aabb.min, aabb.max);
        finite_extent(&[lo, hi])?;
        let mut p = Polygon::make_box(1.0, 1.0)?;
        p.vertices[0] = lo;
        p.vertices[1] = Vec2::new(hi.x, lo.y);
        p.vertices[2] = hi;
        p.vertices[3] = Vec2::new(lo.x, hi.y);
        p.centroid = aabb.center();
        // Sides below about 1e-38 (subnormal) have no usable edges.
        if !p.is_valid() {
            return Err(GeometryError::Collinear);
        }
        Ok(p)
    }

    /// Whether the polygon holds what its constructors guarantee, checked in O(`count`): a
    /// `count` in 3..=8; finite vertices, centroid and radius (radius `>= 0`); edges of non-zero
    /// length turning strictly left at every vertex and winding around exactly once (so the
    /// polygon is convex, counter-clockwise and simple); unit normals (within 1e-4) that
    /// are perpendicular to their edges (within 1e-4 rad) and point outward; and the range
    /// rule of every shape maker (the vertices' box grown by the radius has a diagonal within
    /// `f32`). Every test is made on the edges scaled by a power of two, so it holds alike for
    /// polygons 1e-30 and 1e19 across.
    ///
    /// Polygons made by the constructors always pass. The C ABI checks every polygon it is given
    /// (a hand-filled `c2d_Shape` is refused with `C2D_STATUS_INVALID_SHAPE`); in Rust, queries
    /// on a hand-filled polygon that fails this give memory-safe but unspecified results.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        let n = self.count as usize;
        if !((3..=MAX_POLYGON_VERTICES).contains(&n) && self.radius >= 0.0 && self.radius < f32::INFINITY) {
            return false;
        }
        if !self.centroid.is_finite() {
            return false;
        }
        let (v, normals) = (&self.vertices[..n], &self.normals[..n]);
        // The edges, scaled by a power of two to a largest component near 1 (exact): the
        // squared lengths and turns below are then as meaningful for a polygon 1e-30 across as
        // for one 1e19 across (unscaled they underflow to 0 or overflow).
        let mut edges = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        for i in 0..n {
            edges[i] = v[(i + 1) % n] - v[i];
        }
        // A polygon whose edges are all subnormal (below about 1e-38) has lost its shape to
        // rounding and is not valid.
        let m = edges[..n].iter().fold(0.0f32, |m, e| m.max(e.max_abs()));
        if !(f32::MIN_POSITIVE..f32::INFINITY).contains(&m) {
            return false;
        }
        let s = crate::math::unit_scale(m);
        // How often the edge direction passes the +x direction, turning counter-clockwise:
        // each turn is below π, so a direction going from below the x axis to on or above it
        // has passed angle 0. Strict left turns that pass it exactly once wind once.
        let mut windings = 0;
        for i in 0..n {
            let e = edges[i] * s;
            let f = edges[(i + 1) % n] * s;
            let ee = e.dot(e);
            let nrm = normals[i];
            let along = nrm.dot(e);
            let ok = ee > 0.0
                && ee < f32::INFINITY
                && (nrm.dot(nrm) - 1.0).abs() <= 1.0e-4
                && along * along <= 1.0e-8 * ee
                && nrm.dot(e.right_perp()) > 0.0
                && e.cross(f) > 0.0;
            if !ok {
                return false;
            }
            windings += usize::from(e.y < 0.0 && f.y >= 0.0);
        }
        windings == 1 && self.round_extent().is_ok()
    }

    /// Number of vertices actually usable (the stored `count` clamped to 0..=8).
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        (self.count as usize).min(MAX_POLYGON_VERTICES)
    }

    /// True when the polygon has no usable vertices.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The vertices in use.
    #[inline]
    #[must_use]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices[..self.len()]
    }

    /// The edge normals in use.
    #[inline]
    #[must_use]
    pub fn normals(&self) -> &[Vec2] {
        &self.normals[..self.len()]
    }

    /// World bounding box under `xf`.
    #[must_use]
    pub fn aabb(&self, xf: Transform) -> Aabb {
        let v = self.vertices();
        if v.is_empty() {
            return Aabb::new(xf.p, xf.p);
        }
        let mut lo = xf.apply(v[0]);
        let mut hi = lo;
        for &p in &v[1..] {
            let w = xf.apply(p);
            lo = lo.min(w);
            hi = hi.max(w);
        }
        Aabb::new(lo, hi).inflated(self.radius)
    }

    /// True when the world point `p` lies inside or on the polygon (rounding included) placed at
    /// `xf`.
    #[must_use]
    pub fn contains_point(&self, xf: Transform, p: Vec2) -> bool {
        let lp = xf.inv_apply(p);
        let v = self.vertices();
        if v.len() < 3 {
            return false;
        }
        let mut max_sep = f32::NEG_INFINITY;
        for (vi, ni) in v.iter().zip(self.normals()) {
            max_sep = max_sep.max(ni.dot(lp - *vi));
        }
        if max_sep <= 0.0 {
            return true;
        }
        if max_sep > self.radius {
            return false;
        }
        let rr = self.radius * self.radius;
        let n = v.len();
        (0..n).any(|i| closest_point_on_segment(v[i], v[(i + 1) % n], lp).distance_squared(lp) <= rr)
    }

    /// Polygon grown by `amount` (added to the rounding radius) or, for negative `amount`,
    /// shrunk: first the rounding radius is consumed, then the core's edges move inward
    /// (the corners stay sharp). Errors with [`GeometryError::Collapsed`] when nothing is left.
    pub fn inflated(&self, amount: f32) -> Result<Polygon, GeometryError> {
        if !amount.is_finite() {
            return Err(GeometryError::NonFinite);
        }
        if amount >= 0.0 || self.radius + amount >= 0.0 {
            let mut p = *self;
            p.radius = self.radius + amount;
            check_radius(p.radius)?;
            p.round_extent()?;
            return Ok(p);
        }
        let shrink = -(self.radius + amount);
        let v = self.vertices();
        let n = v.len();
        if n < 3 {
            return Err(GeometryError::Collapsed);
        }
        // Offset every edge plane inward, then intersect adjacent planes; an edge whose two
        // neighbours' intersection lies outside its plane vanishes. Done by clipping a
        // sufficiently large square with each half plane.
        let mut lo = v[0];
        let mut hi = v[0];
        for &p in v {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        let big = (hi - lo).length() + 1.0;
        let c = (lo + hi) * 0.5;
        let mut poly = [Vec2::ZERO; 2 * MAX_POLYGON_VERTICES + 4];
        let mut m = 4;
        poly[0] = c + Vec2::new(-big, -big);
        poly[1] = c + Vec2::new(big, -big);
        poly[2] = c + Vec2::new(big, big);
        poly[3] = c + Vec2::new(-big, big);
        for (&nrm, &vi) in self.normals().iter().zip(v) {
            let off = nrm.dot(vi) - shrink;
            let mut out = [Vec2::ZERO; 2 * MAX_POLYGON_VERTICES + 4];
            let mut k = 0;
            for j in 0..m {
                let a = poly[j];
                let b = poly[(j + 1) % m];
                let da = nrm.dot(a) - off;
                let db = nrm.dot(b) - off;
                if da <= 0.0 {
                    out[k] = a;
                    k += 1;
                }
                if (da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0) {
                    out[k] = a.lerp(b, da / (da - db));
                    k += 1;
                }
            }
            poly = out;
            m = k;
            if m < 3 {
                return Err(GeometryError::Collapsed);
            }
        }
        let mut pts = [Vec2::ZERO; 2 * MAX_POLYGON_VERTICES + 4];
        pts[..m].copy_from_slice(&poly[..m]);
        // The clipped loop has at most n vertices plus welded duplicates.
        let mut uniq = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        let mut u = 0;
        let tol = HULL_RELATIVE_TOLERANCE * (hi - lo).length();
        for &p in &pts[..m] {
            if u < MAX_POLYGON_VERTICES && uniq[..u].iter().all(|q| q.distance(p) > tol) {
                uniq[u] = p;
                u += 1;
            }
        }
        match compute_hull(&uniq[..u]) {
            Ok((hv, hn)) => Ok(Polygon::from_hull_vertices(&hv[..hn], 0.0)),
            Err(_) => Err(GeometryError::Collapsed),
        }
    }
}
