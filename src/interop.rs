//! Conversions with the Rust ecosystem's math types (features `glam` and `mint`).
//!
//! | collide2d | glam | mint |
//! |---|---|---|
//! | [`Vec2`] | `glam::Vec2` (both ways) | `mint::Vector2<f32>`, `mint::Point2<f32>` (both ways) |
//! | [`Rot`] | `glam::Mat2` (to; `TryFrom` back) | `mint::ColumnMatrix2<f32>` (to; `TryFrom` back) |
//! | [`Transform`] | `glam::Affine2` (to; `TryFrom` back) | `mint::ColumnMatrix2x3<f32>` (to; `TryFrom` back) |
//! | [`Aabb`] | `(glam::Vec2, glam::Vec2)` as (min, max), both ways | `(mint::Point2<f32>, mint::Point2<f32>)`, both ways |
//!
//! A matrix becomes a [`Rot`] only when it is a rotation: its first column `(c, s)` of unit
//! length (within [`Rot::UNIT_TOLERANCE`]) and its second column `(-s, c)` within the same
//! tolerance (no scale, shear or reflection); otherwise the conversion fails with
//! [`NotARotation`]. The matrix of a `Rot` is `[[c, -s], [s, c]]` (columns `(c, s)` and
//! `(-s, c)`), so `Mat2 * v` rotates `v` as [`Rot::rotate`] does.
#[cfg(any(feature = "glam", feature = "mint"))]
use crate::math::{Aabb, Rot, Transform, Vec2};

/// A matrix that is not a rotation (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotARotation;

impl core::fmt::Display for NotARotation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("the matrix is not a rotation (unit columns (c, s) and (-s, c))")
    }
}

impl core::error::Error for NotARotation {}

/// The rotation with first column `(c, s)` if the second column is `(-s, c)`.
#[cfg(any(feature = "glam", feature = "mint"))]
fn rotation_from_columns(x: Vec2, y: Vec2) -> Result<Rot, NotARotation> {
    let q = Rot { c: x.x, s: x.y };
    let tol = Rot::UNIT_TOLERANCE;
    if q.is_unit() && (y.x + q.s).abs() <= tol && (y.y - q.c).abs() <= tol {
        Ok(q)
    } else {
        Err(NotARotation)
    }
}

#[cfg(feature = "glam")]
mod glam_impls {
    use super::*;

    impl From<glam::Vec2> for Vec2 {
        fn from(v: glam::Vec2) -> Vec2 {
            Vec2::new(v.x, v.y)
        }
    }

    impl From<Vec2> for glam::Vec2 {
        fn from(v: Vec2) -> glam::Vec2 {
            glam::Vec2::new(v.x, v.y)
        }
    }

    impl From<Rot> for glam::Mat2 {
        fn from(q: Rot) -> glam::Mat2 {
            glam::Mat2::from_cols(glam::Vec2::new(q.c, q.s), glam::Vec2::new(-q.s, q.c))
        }
    }

    impl TryFrom<glam::Mat2> for Rot {
        type Error = NotARotation;
        fn try_from(m: glam::Mat2) -> Result<Rot, NotARotation> {
            rotation_from_columns(m.x_axis.into(), m.y_axis.into())
        }
    }

    impl From<Transform> for glam::Affine2 {
        fn from(xf: Transform) -> glam::Affine2 {
            glam::Affine2::from_mat2_translation(xf.q.into(), xf.p.into())
        }
    }

    impl TryFrom<glam::Affine2> for Transform {
        type Error = NotARotation;
        fn try_from(a: glam::Affine2) -> Result<Transform, NotARotation> {
            Ok(Transform {
                p: a.translation.into(),
                q: rotation_from_columns(a.matrix2.x_axis.into(), a.matrix2.y_axis.into())?,
            })
        }
    }

    impl From<Aabb> for (glam::Vec2, glam::Vec2) {
        fn from(b: Aabb) -> (glam::Vec2, glam::Vec2) {
            (b.min.into(), b.max.into())
        }
    }

    impl From<(glam::Vec2, glam::Vec2)> for Aabb {
        fn from((min, max): (glam::Vec2, glam::Vec2)) -> Aabb {
            Aabb::new(min.into(), max.into())
        }
    }
}

#[cfg(feature = "mint")]
mod mint_impls {
    use super::*;

    impl From<mint::Vector2<f32>> for Vec2 {
        fn from(v: mint::Vector2<f32>) -> Vec2 {
            Vec2::new(v.x, v.y)
        }
    }

    impl From<Vec2> for mint::Vector2<f32> {
        fn from(v: Vec2) -> mint::Vector2<f32> {
            mint::Vector2 { x: v.x, y: v.y }
        }
    }

    impl From<mint::Point2<f32>> for Vec2 {
        fn from(v: mint::Point2<f32>) -> Vec2 {
            Vec2::new(v.x, v.y)
        }
    }

    impl From<Vec2> for mint::Point2<f32> {
        fn from(v: Vec2) -> mint::Point2<f32> {
            mint::Point2 { x: v.x, y: v.y }
        }
    }

    impl From<Rot> for mint::ColumnMatrix2<f32> {
        fn from(q: Rot) -> mint::ColumnMatrix2<f32> {
            mint::ColumnMatrix2 {
                x: mint::Vector2 { x: q.c, y: q.s },
                y: mint::Vector2 { x: -q.s, y: q.c },
            }
        }
    }

    impl TryFrom<mint::ColumnMatrix2<f32>> for Rot {
        type Error = NotARotation;
        fn try_from(m: mint::ColumnMatrix2<f32>) -> Result<Rot, NotARotation> {
            rotation_from_columns(m.x.into(), m.y.into())
        }
    }

    impl From<Transform> for mint::ColumnMatrix2x3<f32> {
        fn from(xf: Transform) -> mint::ColumnMatrix2x3<f32> {
            let m: mint::ColumnMatrix2<f32> = xf.q.into();
            mint::ColumnMatrix2x3 {
                x: m.x,
                y: m.y,
                z: xf.p.into(),
            }
        }
    }

    impl TryFrom<mint::ColumnMatrix2x3<f32>> for Transform {
        type Error = NotARotation;
        fn try_from(m: mint::ColumnMatrix2x3<f32>) -> Result<Transform, NotARotation> {
            Ok(Transform {
                p: m.z.into(),
                q: rotation_from_columns(m.x.into(), m.y.into())?,
            })
        }
    }

    impl From<Aabb> for (mint::Point2<f32>, mint::Point2<f32>) {
        fn from(b: Aabb) -> (mint::Point2<f32>, mint::Point2<f32>) {
            (b.min.into(), b.max.into())
        }
    }

    impl From<(mint::Point2<f32>, mint::Point2<f32>)> for Aabb {
        fn from((min, max): (mint::Point2<f32>, mint::Point2<f32>)) -> Aabb {
            Aabb::new(min.into(), max.into())
        }
    }
}
