//! The one place where transcendental functions and square roots are called.
//!
//! Everything goes through `libm` on every target so that results are bit-identical across
//! platforms (no platform `sqrtf`, no fused multiply-add).

#[inline]
pub(crate) fn sqrt(x: f32) -> f32 {
    libm::sqrtf(x)
}

#[inline]
pub(crate) fn sin_cos(x: f32) -> (f32, f32) {
    libm::sincosf(x)
}

#[inline]
pub(crate) fn atan2(y: f32, x: f32) -> f32 {
    libm::atan2f(y, x)
}

#[inline]
pub(crate) fn tan(x: f32) -> f32 {
    libm::tanf(x)
}

#[inline]
pub(crate) fn sin(x: f32) -> f32 {
    libm::sinf(x)
}

/// `x * 0.0` is `0.0` for every finite `x` and NaN for infinities and NaN, so a sum of such
/// products is a branch-free finiteness test over many values.
#[inline]
pub(crate) fn nan_if_not_finite(x: f32) -> f32 {
    x * 0.0
}

/// Double precision, for the chain welder (feature `alloc`).
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn sqrt64(x: f64) -> f64 {
    libm::sqrt(x)
}

/// Double precision, for the chain welder (feature `alloc`).
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn atan2_64(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}

/// Double precision, for the chain welder (feature `alloc`).
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn asin64(x: f64) -> f64 {
    libm::asin(x)
}
