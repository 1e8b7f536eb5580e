//! Shapes and what can be computed from one shape alone: constructors, mass properties,
//! bounding boxes, point containment and inflation.
//!
//! Shapes live in local space; every function that needs a placement takes a [`Transform`].

use crate::math::{Aabb, Transform, Vec2};

pub mod chain;
pub(crate) mod hull;
mod mass;
mod polygon;

#[cfg(feature = "alloc")]
pub use chain::Chain;
pub use chain::{ChainSegment, CHAIN_COLLINEAR_RELATIVE, CHAIN_WELD_RELATIVE};

pub use crate::segment::closest_point_on_segment;
use bytemuck::{Pod, Zeroable};
use core::fmt;
pub use hull::compute_hull;
use hull::finite_extent;

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
