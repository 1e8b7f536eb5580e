//! Plain `#[repr(C)]` math value types: [`Vec2`], [`Rot`], [`Transform`] and [`Aabb`].
//!
//! All are `Copy`, `bytemuck::Pod` and laid out exactly as their C counterparts in
//! `include/collide2d.h`. Angles are radians, rotations are counter-clockwise.

use crate::fmath;
use bytemuck::{Pod, Zeroable};
use core::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// A 2D vector or point, `f32` components.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Vec2 {
    /// x component.
    pub x: f32,
    /// y component.
    pub y: f32,
}

impl Vec2 {
    /// `(0, 0)`.
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };
    /// `(1, 0)`.
    pub const X: Vec2 = Vec2 { x: 1.0, y: 0.0 };
    /// `(0, 1)`.
    pub const Y: Vec2 = Vec2 { x: 0.0, y: 1.0 };

    /// Makes a vector from its components.
    #[inline]
    #[must_use]
    pub const fn new(x: f32, y: f32) -> Vec2 {
        Vec2 { x, y }
    }

    /// Dot product.
    #[inline]
    #[must_use]
    pub fn dot(self, o: Vec2) -> f32 {
        self.x * o.x + self.y * o.y
    }

    /// 2D cross product `self.x * o.y - self.y * o.x` (the z of the 3D cross product).
    #[inline]
    #[must_use]
    pub fn cross(self, o: Vec2) -> f32 {
        self.x * o.y - self.y * o.x
    }

    /// The vector rotated by +90° (counter-clockwise): `(-y, x)`.
    #[inline]
    #[must_use]
    pub fn left_perp(self) -> Vec2 {
        Vec2::new(-self.y, self.x)
    }

    /// The vector rotated by -90° (clockwise): `(y, -x)`. For a CCW polygon edge this points
    /// outward.
    #[inline]
    #[must_use]
    pub fn right_perp(self) -> Vec2 {
        Vec2::new(self.y, -self.x)
    }

    /// Squared length.
    #[inline]
    #[must_use]
    pub fn length_squared(self) -> f32 {
        self.dot(self)
    }

    /// Euclidean length.
    #[inline]
    #[must_use]
    pub fn length(self) -> f32 {
        fmath::sqrt(self.dot(self))
    }

    /// Distance between two points.
    #[inline]
    #[must_use]
    pub fn distance(self, o: Vec2) -> f32 {
        (o - self).length()
    }

    /// Squared distance between two points.
    #[inline]
    #[must_use]
    pub fn distance_squared(self, o: Vec2) -> f32 {
        (o - self).length_squared()
    }

    /// Unit vector in the same direction, or `None` when the length is zero, below about
    /// 1e-19 (the squared length leaves `f32`'s normal range, and with it the precision a unit
    /// result needs) or not finite.
    #[inline]
    #[must_use]
    // Plain compares (a range's `contains` compiles to float classification).
    #[allow(clippy::manual_range_contains)]
    pub fn try_normalize(self) -> Option<Vec2> {
        let len_sq = self.dot(self);
        if len_sq >= f32::MIN_POSITIVE && len_sq < f32::INFINITY {
            Some(self * (1.0 / fmath::sqrt(len_sq)))
        } else {
            None
        }
    }

    /// The larger magnitude of the two components.
    #[inline]
    #[must_use]
    pub(crate) fn max_abs(self) -> f32 {
        self.x.abs().max(self.y.abs())
    }

    /// Unit vector in the direction of any nonzero finite vector, also where its squared
    /// length leaves f32's normal range (components below about 1e-19 or above 1e19): such a
    /// vector is first scaled by a power of two (exact), so the result is unit length to
    /// rounding whatever the magnitude. `None` for zero or non-finite components. Equal to
    /// [`Vec2::try_normalize`] where that gives `Some`.
    #[inline]
    #[must_use]
    pub(crate) fn direction(self) -> Option<Vec2> {
        // 2^100 and 2^-100: scaling by them is exact for every finite f32 in the ranges used.
        const UP: f32 = 1.267_650_6e30;
        const DOWN: f32 = 7.888_609e-31;
        let m = self.x.abs().max(self.y.abs());
        if !(m > 0.0 && m < f32::INFINITY) {
            return None;
        }
        if let Some(n) = self.try_normalize() {
            return Some(n);
        }
        let s = if m < 1.0 { self * UP } else { self * DOWN };
        s.try_normalize()
    }

    /// Unit vector in the same direction, or `(0, 0)` where [`Vec2::try_normalize`] gives
    /// `None`.
    #[inline]
    #[must_use]
    pub fn normalize_or_zero(self) -> Vec2 {
        self.try_normalize().unwrap_or(Vec2::ZERO)
    }

    /// Unit vector and length. The unit vector is `(0, 0)` where [`Vec2::try_normalize`]
    /// gives `None`.
    #[inline]
    #[must_use]
    // Plain compares, as `try_normalize`.
    #[allow(clippy::manual_range_contains)]
    pub fn normalize_and_length(self) -> (Vec2, f32) {
        let len_sq = self.dot(self);
        let len = fmath::sqrt(len_sq);
        if len_sq >= f32::MIN_POSITIVE && len_sq < f32::INFINITY {
            (self * (1.0 / len), len)
        } else {
            (Vec2::ZERO, len)
        }
    }

    /// Linear interpolation `self + t * (o - self)`.
    #[inline]
    #[must_use]
    pub fn lerp(self, o: Vec2, t: f32) -> Vec2 {
        Vec2::new(self.x + t * (o.x - self.x), self.y + t * (o.y - self.y))
    }

    /// `self + s * v`.
    #[inline]
    #[must_use]
    pub fn mul_add(self, s: f32, v: Vec2) -> Vec2 {
        Vec2::new(self.x + s * v.x, self.y + s * v.y)
    }

    /// Component-wise minimum.
    #[inline]
    #[must_use]
    pub fn min(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x.min(o.x), self.y.min(o.y))
    }

    /// Component-wise maximum.
    #[inline]
    #[must_use]
    pub fn max(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x.max(o.x), self.y.max(o.y))
    }

    /// Component-wise absolute value.
    #[inline]
    #[must_use]
    pub fn abs(self) -> Vec2 {
        Vec2::new(self.x.abs(), self.y.abs())
    }

    /// True when both components are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(self) -> bool {
        // Branch-free: `v * 0` is 0 for finite v and NaN for infinities and NaN.
        self.x * 0.0 + self.y * 0.0 == 0.0
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    #[inline]
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}
impl Sub for Vec2 {
    type Output = Vec2;
    #[inline]
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}
impl Neg for Vec2 {
    type Output = Vec2;
    #[inline]
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}
impl Mul<f32> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn mul(self, s: f32) -> Vec2 {
        Vec2::new(self.x * s, self.y * s)
    }
}
impl Mul<Vec2> for f32 {
    type Output = Vec2;
    #[inline]
    fn mul(self, v: Vec2) -> Vec2 {
        Vec2::new(self * v.x, self * v.y)
    }
}
impl Div<f32> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn div(self, s: f32) -> Vec2 {
        Vec2::new(self.x / s, self.y / s)
    }
}
impl AddAssign for Vec2 {
    #[inline]
    fn add_assign(&mut self, o: Vec2) {
        *self = *self + o;
    }
}
impl SubAssign for Vec2 {
    #[inline]
    fn sub_assign(&mut self, o: Vec2) {
        *self = *self - o;
    }
}
impl MulAssign<f32> for Vec2 {
    #[inline]
    fn mul_assign(&mut self, s: f32) {
        *self = *self * s;
    }
}

/// A rotation stored as `(cos, sin)` of its angle. Counter-clockwise, radians.
///
/// A valid rotation has `c² + s² = 1`; [`Rot::from_angle`] and [`Rot::normalized`] produce one.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "serde_data::Rot")
)]
pub struct Rot {
    /// Cosine of the angle.
    pub c: f32,
    /// Sine of the angle.
    pub s: f32,
}

impl Default for Rot {
    fn default() -> Self {
        Rot::IDENTITY
    }
}

impl Rot {
    /// The zero rotation `(1, 0)`.
    pub const IDENTITY: Rot = Rot { c: 1.0, s: 0.0 };

    /// How far `c² + s²` may be from 1 for a rotation to count as unit length (see
    /// [`Transform::is_valid`]).
    pub const UNIT_TOLERANCE: f32 = 1.0e-3;

    /// Whether `c² + s²` is within [`Rot::UNIT_TOLERANCE`] of 1 (false for NaN).
    #[inline]
    #[must_use]
    pub fn is_unit(self) -> bool {
        self.unit_error() <= Self::UNIT_TOLERANCE
    }

    /// `|c² + s² − 1|`, the quantity both [`Rot::is_unit`] and [`Transform::is_valid`] bound
    /// (NaN for a NaN rotation).
    #[inline]
    fn unit_error(self) -> f32 {
        (self.c * self.c + self.s * self.s - 1.0).abs()
    }

    /// Rotation by `angle` radians (counter-clockwise). Uses `libm::sincosf`.
    #[inline]
    #[must_use]
    pub fn from_angle(angle: f32) -> Rot {
        let (s, c) = fmath::sin_cos(angle);
        Rot { c, s }
    }

    /// The angle in radians, in `[-π, π]`.
    #[inline]
    #[must_use]
    pub fn angle(self) -> f32 {
        fmath::atan2(self.s, self.c)
    }

    /// The same rotation rescaled to unit length; identity when `(c, s)` is zero or not finite.
    #[inline]
    #[must_use]
    pub fn normalized(self) -> Rot {
        match Vec2::new(self.c, self.s).try_normalize() {
            Some(v) => Rot { c: v.x, s: v.y },
            None => Rot::IDENTITY,
        }
    }

    /// Rotates a vector.
    #[inline]
    #[must_use]
    pub fn rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x - self.s * v.y, self.s * v.x + self.c * v.y)
    }

    /// Rotates a vector by the inverse rotation.
    #[inline]
    #[must_use]
    pub fn inv_rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x + self.s * v.y, -self.s * v.x + self.c * v.y)
    }

    /// `self⁻¹ * o`: the rotation of `o` seen from `self`'s frame.
    #[inline]
    #[must_use]
    pub fn inv_mul(self, o: Rot) -> Rot {
        Rot {
            c: self.c * o.c + self.s * o.s,
            s: self.c * o.s - self.s * o.c,
        }
    }

    /// The local x axis `(c, s)`.
    #[inline]
    #[must_use]
    pub fn x_axis(self) -> Vec2 {
        Vec2::new(self.c, self.s)
    }

    /// True when both components are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(self) -> bool {
        self.c.is_finite() && self.s.is_finite()
    }
}

/// A rigid transform: rotate by `q`, then translate by `p`. Maps local (shape) space to world.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "serde_data::Transform")
)]
pub struct Transform {
    /// Translation (world position of the local origin).
    pub p: Vec2,
    /// Rotation.
    pub q: Rot,
}

impl Transform {
    /// The identity transform: local space equals world space (cute_c2 style).
    pub const IDENTITY: Transform = Transform {
        p: Vec2::ZERO,
        q: Rot::IDENTITY,
    };

    /// A transform from a position and an angle in radians.
    #[inline]
    #[must_use]
    pub fn new(p: Vec2, angle: f32) -> Transform {
        Transform {
            p,
            q: Rot::from_angle(angle),
        }
    }

    /// A pure translation.
    #[inline]
    #[must_use]
    pub const fn from_translation(p: Vec2) -> Transform {
        Transform { p, q: Rot::IDENTITY }
    }

    /// Local point to world.
    #[inline]
    #[must_use]
    pub fn apply(self, v: Vec2) -> Vec2 {
        self.q.rotate(v) + self.p
    }

    /// World point to local.
    #[inline]
    #[must_use]
    pub fn inv_apply(self, v: Vec2) -> Vec2 {
        self.q.inv_rotate(v - self.p)
    }

    /// `self⁻¹ * o`: the transform `o` expressed in `self`'s local frame. This is how every pair
    /// query puts shape B into shape A's frame.
    #[inline]
    #[must_use]
    pub fn inv_mul(self, o: Transform) -> Transform {
        Transform {
            p: self.q.inv_rotate(o.p - self.p),
            q: self.q.inv_mul(o.q),
        }
    }

    /// True when all four numbers are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(self) -> bool {
        self.p.is_finite() && self.q.is_finite()
    }

    /// True when finite and the rotation has unit length within 1e-3 (`|c² + s² − 1| <= 1e-3`).
    /// Every query treats other transforms as bad input ("no contact" / "no hit" / invalid).
    #[inline]
    #[must_use]
    pub fn is_valid(self) -> bool {
        // `x * 0` is 0 for finite x and NaN otherwise, so adding the position's two products
        // leaves the rotation's error unchanged when the position is finite and makes the one
        // comparison false when it is not (or when the rotation is NaN).
        self.p.x * 0.0 + self.p.y * 0.0 + self.q.unit_error() <= Rot::UNIT_TOLERANCE
    }
}

impl Mul for Rot {
    type Output = Rot;
    /// Composition `self * o` (apply `o` first, then `self`).
    #[inline]
    fn mul(self, o: Rot) -> Rot {
        Rot {
            c: self.c * o.c - self.s * o.s,
            s: self.s * o.c + self.c * o.s,
        }
    }
}

impl Mul for Transform {
    type Output = Transform;
    /// Composition `self * o`: first `o`, then `self`.
    #[inline]
    fn mul(self, o: Transform) -> Transform {
        Transform {
            p: self.q.rotate(o.p) + self.p,
            q: self.q * o.q,
        }
    }
}

/// An axis-aligned bounding box in whatever frame its user says (world unless noted).
///
/// Valid when `min <= max` component-wise and all values are finite.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "serde_data::Aabb")
)]
pub struct Aabb {
    /// Lower corner.
    pub min: Vec2,
    /// Upper corner.
    pub max: Vec2,
}

impl Aabb {
    /// Makes a box from its corners (not checked; see [`Aabb::is_valid`]).
    #[inline]
    #[must_use]
    pub const fn new(min: Vec2, max: Vec2) -> Aabb {
        Aabb { min, max }
    }

    /// Box from a centre and half extents.
    #[inline]
    #[must_use]
    pub fn from_center_half_extents(center: Vec2, half: Vec2) -> Aabb {
        Aabb {
            min: center - half,
            max: center + half,
        }
    }

    /// True when finite and `min <= max` on both axes.
    #[inline]
    #[must_use]
    pub fn is_valid(self) -> bool {
        self.min.is_finite() && self.max.is_finite() && self.min.x <= self.max.x && self.min.y <= self.max.y
    }

    /// Centre point.
    #[inline]
    #[must_use]
    pub fn center(self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    /// Half extents.
    #[inline]
    #[must_use]
    pub fn half_extents(self) -> Vec2 {
        (self.max - self.min) * 0.5
    }

    /// Perimeter (the surface-area heuristic cost in 2D).
    #[inline]
    #[must_use]
    pub fn perimeter(self) -> f32 {
        2.0 * ((self.max.x - self.min.x) + (self.max.y - self.min.y))
    }

    /// Smallest box containing both.
    #[inline]
    #[must_use]
    pub fn union(self, o: Aabb) -> Aabb {
        Aabb {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    /// True when `o` lies inside `self` (boundaries included).
    #[inline]
    #[must_use]
    pub fn contains(self, o: Aabb) -> bool {
        self.min.x <= o.min.x && self.min.y <= o.min.y && o.max.x <= self.max.x && o.max.y <= self.max.y
    }

    /// True when the point lies inside or on the boundary.
    #[inline]
    #[must_use]
    pub fn contains_point(self, p: Vec2) -> bool {
        self.min.x <= p.x && p.x <= self.max.x && self.min.y <= p.y && p.y <= self.max.y
    }

    /// True when the boxes overlap or touch. False when either holds NaN.
    #[inline]
    #[must_use]
    pub fn overlaps(self, o: Aabb) -> bool {
        self.min.x <= o.max.x && o.min.x <= self.max.x && self.min.y <= o.max.y && o.min.y <= self.max.y
    }

    /// Box grown by `margin` on every side (shrunk when negative).
    #[inline]
    #[must_use]
    pub fn inflated(self, margin: f32) -> Aabb {
        let m = Vec2::new(margin, margin);
        Aabb {
            min: self.min - m,
            max: self.max + m,
        }
    }

    /// The point of the box closest to `p` (`p` itself when inside).
    #[inline]
    #[must_use]
    pub fn closest_point(self, p: Vec2) -> Vec2 {
        p.max(self.min).min(self.max)
    }
}

/// A ray (or a segment sweep): `origin + t * translation`, `t` in `[0, max_fraction]`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ray {
    /// Start point, world space.
    pub origin: Vec2,
    /// Direction and length, world space.
    pub translation: Vec2,
    /// Largest fraction of `translation` to consider, usually 1.
    pub max_fraction: f32,
}

impl Ray {
    /// A ray from `origin` along `translation` with `max_fraction = 1`.
    #[inline]
    #[must_use]
    pub fn new(origin: Vec2, translation: Vec2) -> Ray {
        Ray {
            origin,
            translation,
            max_fraction: 1.0,
        }
    }
}

impl From<(f32, f32)> for Vec2 {
    #[inline]
    fn from((x, y): (f32, f32)) -> Vec2 {
        Vec2::new(x, y)
    }
}

impl From<[f32; 2]> for Vec2 {
    #[inline]
    fn from([x, y]: [f32; 2]) -> Vec2 {
        Vec2::new(x, y)
    }
}

impl From<Vec2> for [f32; 2] {
    #[inline]
    fn from(v: Vec2) -> [f32; 2] {
        [v.x, v.y]
    }
}

/// A pure translation (as [`Transform::from_translation`]).
impl From<Vec2> for Transform {
    #[inline]
    fn from(p: Vec2) -> Transform {
        Transform::from_translation(p)
    }
}

/// Deserialization forms of the validated value types (feature `serde`): the same fields,
/// checked before they become a value.
#[cfg(feature = "serde")]
mod serde_data {
    use super::Vec2;

    #[derive(serde::Deserialize)]
    pub(super) struct Rot {
        c: f32,
        s: f32,
    }

    impl TryFrom<Rot> for super::Rot {
        type Error = &'static str;
        fn try_from(r: Rot) -> Result<Self, Self::Error> {
            let q = super::Rot { c: r.c, s: r.s };
            if q.is_unit() {
                Ok(q)
            } else {
                Err("a rotation must have c² + s² = 1 (within Rot::UNIT_TOLERANCE)")
            }
        }
    }

    #[derive(serde::Deserialize)]
    pub(super) struct Transform {
        p: Vec2,
        q: super::Rot,
    }

    impl TryFrom<Transform> for super::Transform {
        type Error = &'static str;
        fn try_from(t: Transform) -> Result<Self, Self::Error> {
            let xf = super::Transform { p: t.p, q: t.q };
            if xf.is_valid() {
                Ok(xf)
            } else {
                Err("a transform must have a finite position")
            }
        }
    }

    #[derive(serde::Deserialize)]
    pub(super) struct Aabb {
        min: Vec2,
        max: Vec2,
    }

    impl TryFrom<Aabb> for super::Aabb {
        type Error = &'static str;
        fn try_from(b: Aabb) -> Result<Self, Self::Error> {
            let aabb = super::Aabb {
                min: b.min,
                max: b.max,
            };
            if aabb.is_valid() {
                Ok(aabb)
            } else {
                Err("a box must be finite with min <= max")
            }
        }
    }
}

/// The power of two `s` for which `m · s` lies in [1, 2), for a finite `m > 0` whose exponent
/// allows it (otherwise the nearest normal power of two: `2^126` for `m` at or below
/// `f32::MIN_POSITIVE`, `2^-126` for `m` of `2^127` or more). Multiplying by a power of two is
/// exact unless the product leaves the normal range, so geometry scaled by `s` keeps every
/// sign and ratio while its squares and cross products stay far from underflow and overflow:
/// the constructors' predicates hold the same at 1e-30 as at 1.
#[inline]
#[must_use]
pub(crate) fn unit_scale(m: f32) -> f32 {
    // The biased exponent (0 for subnormals and zero, which are treated as the smallest
    // normal exponent); the result's biased exponent is 254 − e, kept within the normals.
    let e = ((m.to_bits() >> 23) & 0xff) as i32;
    let k = (254 - e.max(1)).clamp(1, 254);
    f32::from_bits((k as u32) << 23)
}

#[cfg(test)]
mod tests {
    use super::unit_scale;

    /// `m · s` lands in [1, 2) for every normal `m` the scale can reach, and the scale is a
    /// power of two (a single set exponent bit pattern, mantissa zero).
    #[test]
    fn unit_scale_brings_magnitudes_to_one() {
        let mut m = 1.0e-37f32;
        while m < 1.0e38 {
            for x in [m, m * 1.5, m * 1.999] {
                let s = unit_scale(x);
                assert_eq!(s.to_bits() & 0x007f_ffff, 0, "{x:e}: {s:e}");
                assert!((1.0..2.0).contains(&(x * s)), "{x:e} · {s:e} = {:e}", x * s);
            }
            m *= 7.3;
        }
        assert_eq!(unit_scale(1.0), 1.0);
        assert_eq!(unit_scale(3.0), 0.5);
        // The ends: the largest and the smallest scales are normal powers of two.
        assert_eq!(unit_scale(f32::MAX), f32::from_bits(1 << 23));
        assert_eq!(unit_scale(1.0e-45), 2f32.powi(126));
        assert_eq!(unit_scale(0.0), 2f32.powi(126));
    }
}
