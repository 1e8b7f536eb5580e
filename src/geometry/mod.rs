//! Shapes and what can be computed from one shape alone: constructors, mass properties,
//! bounding boxes, point containment and inflation.
//!
//! Shapes live in local space; every function that needs a placement takes a [`Transform`].

use crate::math::{Aabb, Rot, Transform, Vec2};

pub mod chain;
mod hull;
mod mass;

#[cfg(feature = "alloc")]
pub use chain::Chain;
pub use chain::{ChainSegment, CHAIN_COLLINEAR_RELATIVE, CHAIN_WELD_RELATIVE};

pub use crate::segment::closest_point_on_segment;
use bytemuck::{Pod, Zeroable};
use core::fmt;
pub use hull::compute_hull;
use hull::finite_extent;
use mass::polygon_centroid;

/// Maximum number of vertices of a [`Polygon`].
pub const MAX_POLYGON_VERTICES: usize = 8;

/// Relative tolerance (times the point set's extent) below which hull points are welded and
/// vertices are treated as collinear. For a shape of size 1 that is 0.0001 length units.
pub const HULL_RELATIVE_TOLERANCE: f32 = 1.0e-4;

/// Why a shape could not be made. Values are stable and shared with the C ABI.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GeometryError {
    /// An input coordinate, extent or radius is NaN or infinite.
    NonFinite = 1,
    /// A radius is negative.
    NegativeRadius = 2,
    /// Fewer than 3 distinct points after welding near-duplicates (a polygon, a closed chain),
    /// fewer than 2 (an open chain), or a chain segment whose two points (or a ghost and its
    /// point, unless equal) are equal or too close to have a direction.
    TooFewPoints = 3,
    /// More than [`MAX_POLYGON_VERTICES`] input points.
    TooManyPoints = 4,
    /// The points are (nearly) collinear: the hull has no area.
    Collinear = 5,
    /// A box half extent is zero or negative.
    InvalidExtent = 6,
    /// Deflating removed the whole shape (the amount exceeds its inner size).
    Collapsed = 7,
    /// The points are finite but so far apart that their extent (the diagonal of their
    /// bounding box) overflows `f32`: coordinates beyond about ±1.3e19. The hull's tolerances
    /// and every query square lengths, so such a shape cannot be represented.
    OutOfRange = 8,
    /// The operation does not apply to this shape kind (a chain segment has no area: it cannot
    /// be inflated, nor be the shape of a dynamic body).
    Unsupported = 9,
    /// A tile grid's dimensions do not match its cell count, or its cell size or origin is not
    /// finite (and positive).
    InvalidGrid = 10,
    /// A polygon to decompose is not weakly simple: two of its edges cross, a vertex lies
    /// inside another edge, edges overlap other than as one edge traversed both ways, the
    /// passes through a point it visits twice cross there, or an edge doubles back on the one
    /// before at a point visited once (see `decompose`).
    SelfIntersecting = 11,
    /// A polygon's stored data does not hold what the constructors guarantee (deserialized or
    /// filled by hand: see [`Polygon::is_valid`]; also its centroid must lie inside it).
    InvalidPolygon = 12,
    /// The allocator could not provide the memory a builder needs (feature `alloc`: chains,
    /// decomposition, tile outlines); nothing was made and everything the builder had taken
    /// is freed.
    OutOfMemory = 13,
}

impl core::error::Error for GeometryError {}

impl fmt::Display for GeometryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            GeometryError::NonFinite => "non-finite coordinate, extent or radius",
            GeometryError::NegativeRadius => "negative radius",
            GeometryError::TooFewPoints => "too few distinct points",
            GeometryError::TooManyPoints => "more than 8 points",
            GeometryError::Collinear => "points are collinear",
            GeometryError::InvalidExtent => "box half extent must be positive",
            GeometryError::Collapsed => "deflation removed the whole shape",
            GeometryError::OutOfRange => "points too far apart: their extent overflows f32",
            GeometryError::Unsupported => "operation not supported for this shape kind",
            GeometryError::InvalidGrid => "tile grid dimensions, cell size or origin invalid",
            GeometryError::SelfIntersecting => "polygon edges cross, overlap or touch inside an edge",
            GeometryError::InvalidPolygon => "polygon data is not a valid convex counter-clockwise polygon",
            GeometryError::OutOfMemory => "out of memory",
        };
        f.write_str(s)
    }
}

/// A solid circle.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "serde_data::Circle")
)]
pub struct Circle {
    /// Centre in local space.
    pub center: Vec2,
    /// Radius, `>= 0`.
    pub radius: f32,
}

/// A solid capsule: all points within `radius` of the segment `center1`–`center2`.
/// With radius 0 it is a segment; with `center1 == center2` it behaves as a circle.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "serde_data::Capsule")
)]
pub struct Capsule {
    /// First end of the core segment, local space.
    pub center1: Vec2,
    /// Second end of the core segment, local space.
    pub center2: Vec2,
    /// Radius, `>= 0`.
    pub radius: f32,
}

/// A solid convex polygon with 3 to 8 counter-clockwise vertices and an optional rounding
/// radius (all points within `radius` of the core polygon).
///
/// Make one through [`Polygon::new`], [`Polygon::make_box`] and friends: they compute the
/// hull, normals and centroid. Queries treat a polygon whose `count` is outside 3..=8 as empty
/// (no contact) rather than trusting it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "serde_data::Polygon")
)]
pub struct Polygon {
    /// Vertices, counter-clockwise, local space. Only the first `count` are used.
    pub vertices: [Vec2; MAX_POLYGON_VERTICES],
    /// Outward unit normal of edge `i` (from vertex `i` to vertex `i + 1`).
    pub normals: [Vec2; MAX_POLYGON_VERTICES],
    /// Area centroid of the core polygon, local space.
    pub centroid: Vec2,
    /// Rounding radius, `>= 0`.
    pub radius: f32,
    /// Number of vertices, 3..=8.
    pub count: u32,
}

/// A closed set of shape kinds. In C it is a tagged union (`c2d_Shape`).
#[repr(C, u32)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Shape {
    /// A circle.
    Circle(Circle) = 0,
    /// A capsule or segment.
    Capsule(Capsule) = 1,
    /// A convex polygon, possibly rounded.
    Polygon(Polygon) = 2,
    /// A one-sided chain segment (level geometry: no area, no mass). It collides with circles,
    /// capsules and polygons on its front side; two chain segments never collide.
    ChainSegment(ChainSegment) = 3,
}

/// Mass properties of a shape with uniform density.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MassData {
    /// Mass (density × area).
    pub mass: f32,
    /// Centre of mass, local space.
    pub center: Vec2,
    /// Rotational inertia about the centre of mass.
    pub rotational_inertia: f32,
}

#[inline]
fn check_radius(radius: f32) -> Result<(), GeometryError> {
    if !radius.is_finite() {
        Err(GeometryError::NonFinite)
    } else if radius < 0.0 {
        Err(GeometryError::NegativeRadius)
    } else {
        Ok(())
    }
}

impl Circle {
    /// A circle; errors on a negative or non-finite radius or centre, and with
    /// [`GeometryError::OutOfRange`] when its extent overflows `f32` (a radius above about
    /// 6e18: the range rule of every shape maker, see [`Polygon::new`]).
    pub fn new(center: Vec2, radius: f32) -> Result<Circle, GeometryError> {
        let c = Circle { center, radius };
        c.validate()?;
        Ok(c)
    }

    /// Why the circle is not one [`Circle::new`] would make, or `Ok`.
    pub fn validate(&self) -> Result<(), GeometryError> {
        if !self.center.is_finite() {
            return Err(GeometryError::NonFinite);
        }
        check_radius(self.radius)?;
        round_extent(&[self.center], self.radius)
    }

    /// Whether [`Circle::new`] would make this circle: finite centre, radius `>= 0` and an
    /// extent within `f32`.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.validate().is_ok()
    }

    /// Mass properties for `density`.
    #[must_use]
    pub fn mass(&self, density: f32) -> MassData {
        let rr = self.radius * self.radius;
        let mass = density * core::f32::consts::PI * rr;
        MassData {
            mass,
            center: self.center,
            rotational_inertia: 0.5 * mass * rr,
        }
    }

    /// World bounding box under `xf`.
    #[must_use]
    pub fn aabb(&self, xf: Transform) -> Aabb {
        let c = xf.apply(self.center);
        Aabb::from_center_half_extents(c, Vec2::new(self.radius, self.radius))
    }

    /// True when the world point `p` lies inside or on the circle placed at `xf`.
    #[must_use]
    pub fn contains_point(&self, xf: Transform, p: Vec2) -> bool {
        let lp = xf.inv_apply(p);
        lp.distance_squared(self.center) <= self.radius * self.radius
    }

    /// Circle with the radius changed by `amount` (negative deflates).
    pub fn inflated(&self, amount: f32) -> Result<Circle, GeometryError> {
        inflate_radius(self.radius, amount).and_then(|radius| Circle::new(self.center, radius))
    }
}

/// The range rule of every shape maker for a round shape: the box of its centres grown by
/// its radius has a diagonal within `f32` (finite centres and radius checked by the caller).
fn round_extent(centers: &[Vec2], radius: f32) -> Result<(), GeometryError> {
    let r = Vec2::new(radius, radius);
    let lo = centers.iter().fold(centers[0], |m, &c| m.min(c)) - r;
    let hi = centers.iter().fold(centers[0], |m, &c| m.max(c)) + r;
    finite_extent(&[lo, hi]).map(|_| ())
}

fn inflate_radius(radius: f32, amount: f32) -> Result<f32, GeometryError> {
    if !amount.is_finite() {
        return Err(GeometryError::NonFinite);
    }
    let r = radius + amount;
    if r < 0.0 {
        Err(GeometryError::Collapsed)
    } else {
        Ok(r)
    }
}

impl Capsule {
    /// A capsule; errors on a negative or non-finite radius or centre. Equal centres are allowed
    /// (the capsule then behaves as a circle).
    ///
    /// Errors with [`GeometryError::OutOfRange`] when its extent overflows `f32` (as
    /// [`Circle::new`]).
    pub fn new(center1: Vec2, center2: Vec2, radius: f32) -> Result<Capsule, GeometryError> {
        let c = Capsule {
            center1,
            center2,
            radius,
        };
        c.validate()?;
        Ok(c)
    }

    /// Why the capsule is not one [`Capsule::new`] would make, or `Ok`.
    pub fn validate(&self) -> Result<(), GeometryError> {
        if !self.center1.is_finite() || !self.center2.is_finite() {
            return Err(GeometryError::NonFinite);
        }
        check_radius(self.radius)?;
        round_extent(&[self.center1, self.center2], self.radius)
    }

    /// Whether [`Capsule::new`] would make this capsule.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.validate().is_ok()
    }

    /// A segment: a capsule with radius 0.
    pub fn segment(a: Vec2, b: Vec2) -> Result<Capsule, GeometryError> {
        Capsule::new(a, b, 0.0)
    }

    /// Exact mass properties for `density` (rectangle plus two half discs).
    #[must_use]
    pub fn mass(&self, density: f32) -> MassData {
        let r = self.radius;
        let rr = r * r;
        let length = self.center1.distance(self.center2);
        let ll = length * length;
        let circle_mass = density * core::f32::consts::PI * rr;
        let box_mass = density * (2.0 * r * length);
        // Each half disc: centroid 4r/(3π) from its flat side, shifted by the parallel axis
        // theorem to the capsule centre at distance h + lc.
        let lc = 4.0 * r / (3.0 * core::f32::consts::PI);
        let h = 0.5 * length;
        let circle_inertia = circle_mass * (0.5 * rr + h * h + 2.0 * h * lc);
        let box_inertia = box_mass * (4.0 * rr + ll) / 12.0;
        MassData {
            mass: circle_mass + box_mass,
            center: (self.center1 + self.center2) * 0.5,
            rotational_inertia: circle_inertia + box_inertia,
        }
    }

    /// World bounding box under `xf`.
    #[must_use]
    pub fn aabb(&self, xf: Transform) -> Aabb {
        let a = xf.apply(self.center1);
        let b = xf.apply(self.center2);
        Aabb::new(a.min(b), a.max(b)).inflated(self.radius)
    }

    /// True when the world point `p` lies inside or on the capsule placed at `xf`.
    #[must_use]
    pub fn contains_point(&self, xf: Transform, p: Vec2) -> bool {
        let lp = xf.inv_apply(p);
        let c = closest_point_on_segment(self.center1, self.center2, lp);
        lp.distance_squared(c) <= self.radius * self.radius
    }

    /// Capsule with the radius changed by `amount` (negative deflates).
    pub fn inflated(&self, amount: f32) -> Result<Capsule, GeometryError> {
        inflate_radius(self.radius, amount)
            .and_then(|radius| Capsule::new(self.center1, self.center2, radius))
    }
}

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

/// Whether `x` is a usable size for the infallible makers: finite and not negative, and (for
/// extents) small enough that the shape's extent stays within `f32` (see
/// [`GeometryError::OutOfRange`]).
const fn usable(x: f32) -> bool {
    x >= 0.0 && x < 1.0e18
}

impl Shape {
    /// Why the shape is not one its constructors would make, or `Ok`: a circle or capsule
    /// with a non-finite or negative radius, a non-finite centre or an extent beyond `f32`
    /// ([`Circle::validate`]); a polygon failing [`Polygon::is_valid`]
    /// ([`GeometryError::InvalidPolygon`]); a chain segment [`ChainSegment::new`] refuses.
    pub fn validate(&self) -> Result<(), GeometryError> {
        match self {
            Shape::Circle(c) => c.validate(),
            Shape::Capsule(c) => c.validate(),
            Shape::Polygon(p) if p.is_valid() => Ok(()),
            Shape::Polygon(_) => Err(GeometryError::InvalidPolygon),
            Shape::ChainSegment(c) => ChainSegment::new(c.ghost1, c.point1, c.point2, c.ghost2).map(|_| ()),
        }
    }

    /// Whether the shape is one its constructors would make (see [`Shape::validate`]). The
    /// [`World`](crate::World) and every C entry point refuse shapes that are not.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.validate().is_ok()
    }

    /// A circle of radius `r` centred on the local origin, for shapes known when the program
    /// is written (`const` where the value is). For untrusted sizes use [`Circle::new`].
    ///
    /// # Panics
    /// When `r` is negative, NaN or 1e18 or more.
    #[must_use]
    pub const fn circle(r: f32) -> Shape {
        Shape::circle_at(Vec2::ZERO, r)
    }

    /// A circle of radius `r` centred at `center` (local space). See [`Shape::circle`].
    ///
    /// # Panics
    /// When `r` is negative, NaN or 1e18 or more, or a coordinate of `center` is not finite or
    /// its magnitude is 1e18 or more.
    #[must_use]
    pub const fn circle_at(center: Vec2, r: f32) -> Shape {
        assert!(
            usable(r),
            "Shape::circle: radius must be finite, >= 0 and below 1e18"
        );
        assert!(
            usable(center.x.abs()) && usable(center.y.abs()),
            "Shape::circle_at: centre must be finite and within 1e18"
        );
        Shape::Circle(Circle { center, radius: r })
    }

    /// A box with half extents `hx`, `hy` centred on the local origin: the same polygon as
    /// [`Polygon::make_box`]. For untrusted sizes use that.
    ///
    /// # Panics
    /// When `hx` or `hy` is not positive, NaN, or 1e18 or more.
    #[must_use]
    pub const fn rect(hx: f32, hy: f32) -> Shape {
        assert!(
            hx > 0.0 && hy > 0.0 && usable(hx) && usable(hy),
            "Shape::rect: half extents must be positive, finite and below 1e18"
        );
        let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        vertices[0] = Vec2::new(-hx, -hy);
        vertices[1] = Vec2::new(hx, -hy);
        vertices[2] = Vec2::new(hx, hy);
        vertices[3] = Vec2::new(-hx, hy);
        normals[0] = Vec2::new(0.0, -1.0);
        normals[1] = Vec2::new(1.0, 0.0);
        normals[2] = Vec2::new(0.0, 1.0);
        normals[3] = Vec2::new(-1.0, 0.0);
        Shape::Polygon(Polygon {
            vertices,
            normals,
            centroid: Vec2::ZERO,
            radius: 0.0,
            count: 4,
        })
    }

    /// A capsule around the segment `a`–`b` with radius `r` (0: a segment). For untrusted
    /// data use [`Capsule::new`].
    ///
    /// # Panics
    /// When `r` is negative, NaN or 1e18 or more, or a coordinate is not finite or its
    /// magnitude is 1e18 or more.
    #[must_use]
    pub const fn capsule(a: Vec2, b: Vec2, r: f32) -> Shape {
        assert!(
            usable(r),
            "Shape::capsule: radius must be finite, >= 0 and below 1e18"
        );
        assert!(
            usable(a.x.abs()) && usable(a.y.abs()) && usable(b.x.abs()) && usable(b.y.abs()),
            "Shape::capsule: ends must be finite and within 1e18"
        );
        Shape::Capsule(Capsule {
            center1: a,
            center2: b,
            radius: r,
        })
    }

    /// The segment `a`–`b` (a capsule of radius 0). See [`Shape::capsule`].
    ///
    /// # Panics
    /// As [`Shape::capsule`].
    #[must_use]
    pub const fn segment(a: Vec2, b: Vec2) -> Shape {
        Shape::capsule(a, b, 0.0)
    }

    /// The circle, if this is one.
    #[must_use]
    pub const fn as_circle(&self) -> Option<&Circle> {
        match self {
            Shape::Circle(c) => Some(c),
            _ => None,
        }
    }

    /// The capsule (or segment), if this is one.
    #[must_use]
    pub const fn as_capsule(&self) -> Option<&Capsule> {
        match self {
            Shape::Capsule(c) => Some(c),
            _ => None,
        }
    }

    /// The polygon, if this is one.
    #[must_use]
    pub const fn as_polygon(&self) -> Option<&Polygon> {
        match self {
            Shape::Polygon(p) => Some(p),
            _ => None,
        }
    }

    /// The chain segment, if this is one.
    #[must_use]
    pub const fn as_chain_segment(&self) -> Option<&ChainSegment> {
        match self {
            Shape::ChainSegment(p) => Some(p),
            _ => None,
        }
    }

    /// Mass properties for `density`.
    #[must_use]
    pub fn mass(&self, density: f32) -> MassData {
        match self {
            Shape::Circle(s) => s.mass(density),
            Shape::Capsule(s) => s.mass(density),
            Shape::Polygon(s) => s.mass(density),
            Shape::ChainSegment(s) => MassData {
                mass: 0.0,
                center: (s.point1 + s.point2) * 0.5,
                rotational_inertia: 0.0,
            },
        }
    }

    /// World bounding box under `xf`.
    #[must_use]
    pub fn aabb(&self, xf: Transform) -> Aabb {
        match self {
            Shape::Circle(s) => s.aabb(xf),
            Shape::Capsule(s) => s.aabb(xf),
            Shape::Polygon(s) => s.aabb(xf),
            Shape::ChainSegment(s) => s.aabb(xf),
        }
    }

    /// True when the world point `p` lies inside or on the shape placed at `xf` (never for a
    /// chain segment, which has no inside).
    #[must_use]
    pub fn contains_point(&self, xf: Transform, p: Vec2) -> bool {
        match self {
            Shape::Circle(s) => s.contains_point(xf, p),
            Shape::Capsule(s) => s.contains_point(xf, p),
            Shape::Polygon(s) => s.contains_point(xf, p),
            Shape::ChainSegment(_) => false,
        }
    }

    /// The shape grown (or, for negative `amount`, shrunk) by `amount` on every side. A chain
    /// segment is returned unchanged for an amount of 0 and is
    /// [`GeometryError::Unsupported`] otherwise.
    pub fn inflated(&self, amount: f32) -> Result<Shape, GeometryError> {
        Ok(match self {
            Shape::Circle(s) => Shape::Circle(s.inflated(amount)?),
            Shape::Capsule(s) => Shape::Capsule(s.inflated(amount)?),
            Shape::Polygon(s) => Shape::Polygon(s.inflated(amount)?),
            Shape::ChainSegment(s) if amount == 0.0 => Shape::ChainSegment(*s),
            Shape::ChainSegment(_) => return Err(GeometryError::Unsupported),
        })
    }

    /// The outer rounding radius (circle and capsule radius, polygon rounding; 0 for a chain
    /// segment).
    #[must_use]
    pub fn radius(&self) -> f32 {
        match self {
            Shape::Circle(s) => s.radius,
            Shape::Capsule(s) => s.radius,
            Shape::Polygon(s) => s.radius,
            Shape::ChainSegment(_) => 0.0,
        }
    }
}

impl From<Circle> for Shape {
    fn from(s: Circle) -> Shape {
        Shape::Circle(s)
    }
}
impl From<Capsule> for Shape {
    fn from(s: Capsule) -> Shape {
        Shape::Capsule(s)
    }
}
impl From<ChainSegment> for Shape {
    fn from(s: ChainSegment) -> Shape {
        Shape::ChainSegment(s)
    }
}
impl From<Polygon> for Shape {
    fn from(s: Polygon) -> Shape {
        Shape::Polygon(s)
    }
}

/// A segment is treated as a point when shorter than this fraction of the pair's scale.
pub(crate) const DEGENERATE_SEGMENT: f32 = 1.0e-6;

/// Capsule degenerate to a point (both centres closer than the tolerance): treat as a circle.
#[inline]
pub(crate) fn capsule_as_circle(c: &Capsule) -> Option<Circle> {
    // Squared lengths (no square root on this path, which every capsule query takes); plain
    // compares, where a NaN anywhere makes the test false and the capsule path rejects it.
    let d = c.center2 - c.center1;
    let len_sq = d.dot(d);
    let (a1, a2) = (c.center1.abs(), c.center2.abs());
    let larger = |x: f32, y: f32| if x > y { x } else { y };
    let scale = larger(larger(larger(a1.x, a1.y), larger(a2.x, a2.y)), c.radius);
    let tol = DEGENERATE_SEGMENT * scale;
    let tol_sq = tol * tol;
    // `tol_sq` overflows only for coordinates beyond 1e25; such a capsule stays a capsule.
    if (len_sq <= tol_sq && tol_sq < f32::INFINITY) || len_sq == 0.0 {
        Some(Circle {
            center: (c.center1 + c.center2) * 0.5,
            radius: c.radius,
        })
    } else {
        None
    }
}

/// Deserialization forms of the shapes (feature `serde`): the same fields, made into a shape
/// only through the constructors' checks (a polygon must pass [`Polygon::is_valid`] with its
/// centroid inside it: a hand-edited polygon with a bad winding, a wrong normal or a
/// misplaced centroid is an error, not a corrupt shape).
#[cfg(feature = "serde")]
mod serde_data {
    use super::{GeometryError, MAX_POLYGON_VERTICES};
    use crate::math::Vec2;

    #[derive(serde::Deserialize)]
    pub(super) struct Circle {
        center: Vec2,
        radius: f32,
    }

    impl TryFrom<Circle> for super::Circle {
        type Error = GeometryError;
        fn try_from(c: Circle) -> Result<Self, GeometryError> {
            super::Circle::new(c.center, c.radius)
        }
    }

    #[derive(serde::Deserialize)]
    pub(super) struct Capsule {
        center1: Vec2,
        center2: Vec2,
        radius: f32,
    }

    impl TryFrom<Capsule> for super::Capsule {
        type Error = GeometryError;
        fn try_from(c: Capsule) -> Result<Self, GeometryError> {
            super::Capsule::new(c.center1, c.center2, c.radius)
        }
    }

    #[derive(serde::Deserialize)]
    pub(super) struct Polygon {
        vertices: [Vec2; MAX_POLYGON_VERTICES],
        normals: [Vec2; MAX_POLYGON_VERTICES],
        centroid: Vec2,
        radius: f32,
        count: u32,
    }

    impl TryFrom<Polygon> for super::Polygon {
        type Error = GeometryError;
        fn try_from(p: Polygon) -> Result<Self, GeometryError> {
            let poly = super::Polygon {
                vertices: p.vertices,
                normals: p.normals,
                centroid: p.centroid,
                radius: p.radius,
                count: p.count,
            };
            let n = poly.len();
            let centroid_inside = poly.is_valid()
                && (0..n).all(|i| poly.normals[i].dot(poly.centroid - poly.vertices[i]) < 0.0);
            if centroid_inside {
                Ok(poly)
            } else {
                Err(GeometryError::InvalidPolygon)
            }
        }
    }
}
