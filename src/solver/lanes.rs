//! Lane arithmetic for the contact solver.
//!
//! The solver's per-constraint code is written once over [`Wide<N>`], `N` `f32` lanes: it runs
//! on one constraint (`N = 1`) or on several independent constraints at once (`N = 4`, which
//! the compiler maps to one SSE/NEON/WASM SIMD register where it can, and to plain scalar code
//! elsewhere). Each lane performs exactly the scalar operations in the same order — no fused
//! multiply-add, no reassociation — so a constraint solved in a block gives bit-for-bit the
//! result it gets when solved alone, on every target.

use core::ops::{Add, Div, Mul, Neg, Sub};

/// Several numbers processed in lock step (implemented by [`Wide`]).
pub(crate) trait Lane:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self> + Neg<Output = Self>
{
    /// Per-lane truth value.
    type Mask: Copy;
    /// Every lane `x`.
    fn splat(x: f32) -> Self;
    /// Per lane `self > o` (false when either is NaN).
    fn gt(self, o: Self) -> Self::Mask;
    /// Per lane `self >= o` (false when either is NaN).
    fn ge(self, o: Self) -> Self::Mask;
    /// Per lane `if m { a } else { b }`.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    /// True when every lane of `m` is set.
    fn all(m: Self::Mask) -> bool;
    /// Per lane `a && b`.
    fn and(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// Per lane `a || b`.
    fn or(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// Per lane `a && !b`.
    fn and_not(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// True when some lane of `m` is set.
    fn any(m: Self::Mask) -> bool;
}

/// `N` `f32` lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(16))]
pub(crate) struct Wide<const N: usize>(pub [f32; N]);

/// Calls `f(i)` for every lane `i` in `0..N`, written out one call per lane for the lane
/// counts the solver uses (1 and 4). After inlining the indices are constants, so the lanes
/// live in registers at every optimisation level: at opt-level "s" or "z" LLVM does not unroll
/// a `for i in 0..N` loop, which kept every lane array in memory and made a world step about
/// 19 times slower than at opt-level 3 (measured on a 210-box pyramid).
#[inline(always)]
fn each<const N: usize>(mut f: impl FnMut(usize)) {
    match N {
        1 => f(0),
        4 => {
            f(0);
            f(1);
            f(2);
            f(3);
        }
        _ => {
            for i in 0..N {
                f(i);
            }
        }
    }
}

impl<const N: usize> Wide<N> {
    /// Lane `i` is `f(i)`.
    #[inline(always)]
    pub(crate) fn from_fn(mut f: impl FnMut(usize) -> f32) -> Self {
        let mut a = [0.0; N];
        each::<N>(|i| a[i] = f(i));
        Wide(a)
    }
    /// Mask lane `i` is `f(i)`.
    #[inline(always)]
    pub(crate) fn mask_from_fn(mut f: impl FnMut(usize) -> bool) -> [u32; N] {
        let mut m = [0u32; N];
        each::<N>(|i| m[i] = 0u32.wrapping_sub(f(i) as u32));
        m
    }
    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(f32, f32) -> f32) -> Self {
        let mut a = self.0;
        each::<N>(|i| a[i] = f(a[i], o.0[i]));
        Wide(a)
    }
}

impl<const N: usize> Add for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self.zip(o, |a, b| a + b)
    }
}
impl<const N: usize> Sub for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self.zip(o, |a, b| a - b)
    }
}
impl<const N: usize> Mul for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        self.zip(o, |a, b| a * b)
    }
}
impl<const N: usize> Div for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        self.zip(o, |a, b| a / b)
    }
}
impl<const N: usize> Neg for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        let mut a = self.0;
        each::<N>(|i| a[i] = -a[i]);
        Wide(a)
    }
}

/// Lane masks: all bits set for true, zero for false (the SIMD convention, so
/// [`Lane::select`] is three bitwise operations).
impl<const N: usize> Lane for Wide<N> {
    type Mask = [u32; N];
    #[inline(always)]
    fn splat(x: f32) -> Self {
        Wide([x; N])
    }
    #[inline(always)]
    fn gt(self, o: Self) -> [u32; N] {
        Wide::mask_from_fn(|i| self.0[i] > o.0[i])
    }
    #[inline(always)]
    fn ge(self, o: Self) -> [u32; N] {
        Wide::mask_from_fn(|i| self.0[i] >= o.0[i])
    }
    #[inline(always)]
    fn select(m: [u32; N], a: Self, b: Self) -> Self {
        let mut r = [0.0; N];
        each::<N>(|i| r[i] = f32::from_bits((a.0[i].to_bits() & m[i]) | (b.0[i].to_bits() & !m[i])));
        Wide(r)
    }
    #[inline(always)]
    fn and(a: [u32; N], b: [u32; N]) -> [u32; N] {
        let mut m = a;
        each::<N>(|i| m[i] &= b[i]);
        m
    }
    #[inline(always)]
    fn or(a: [u32; N], b: [u32; N]) -> [u32; N] {
        let mut m = a;
        each::<N>(|i| m[i] |= b[i]);
        m
    }
    #[inline(always)]
    fn and_not(a: [u32; N], b: [u32; N]) -> [u32; N] {
        let mut m = a;
        each::<N>(|i| m[i] &= !b[i]);
        m
    }
    #[inline(always)]
    fn all(m: [u32; N]) -> bool {
        let mut acc = u32::MAX;
        each::<N>(|i| acc &= m[i]);
        acc == u32::MAX
    }
    #[inline(always)]
    fn any(m: [u32; N]) -> bool {
        let mut acc = 0;
        each::<N>(|i| acc |= m[i]);
        acc != 0
    }
}

/// `max(a, b)`, and `b` when `a` is NaN.
#[inline(always)]
pub(crate) fn max<T: Lane>(a: T, b: T) -> T {
    T::select(a.gt(b), a, b)
}

/// `min(a, b)`, and `a` when `b` is NaN.
#[inline(always)]
pub(crate) fn min<T: Lane>(a: T, b: T) -> T {
    T::select(a.gt(b), b, a)
}

/// A 2D vector of lanes.
#[derive(Clone, Copy)]
pub(crate) struct V2<T> {
    pub x: T,
    pub y: T,
}

impl<T: Lane> V2<T> {
    #[inline(always)]
    pub(crate) fn dot(self, o: V2<T>) -> T {
        self.x * o.x + self.y * o.y
    }
    /// `self.x * o.y - self.y * o.x`.
    #[inline(always)]
    pub(crate) fn cross(self, o: V2<T>) -> T {
        self.x * o.y - self.y * o.x
    }
    #[inline(always)]
    pub(crate) fn scale(self, s: T) -> V2<T> {
        V2 {
            x: self.x * s,
            y: self.y * s,
        }
    }
    #[inline(always)]
    pub(crate) fn add(self, o: V2<T>) -> V2<T> {
        V2 {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
    #[inline(always)]
    pub(crate) fn sub(self, o: V2<T>) -> V2<T> {
        V2 {
            x: self.x - o.x,
            y: self.y - o.y,
        }
    }
    /// `(y, -x)`, clockwise by 90°.
    #[inline(always)]
    pub(crate) fn right_perp(self) -> V2<T> {
        V2 {
            x: self.y,
            y: -self.x,
        }
    }
    /// Rotates `v` by the rotation `(c, s) = self`.
    #[inline(always)]
    pub(crate) fn rotate(self, v: V2<T>) -> V2<T> {
        V2 {
            x: self.x * v.x - self.y * v.y,
            y: self.y * v.x + self.x * v.y,
        }
    }
    /// Per lane `if m { a } else { b }`.
    #[inline(always)]
    pub(crate) fn select(m: T::Mask, a: V2<T>, b: V2<T>) -> V2<T> {
        V2 {
            x: T::select(m, a.x, b.x),
            y: T::select(m, a.y, b.y),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_lanes_do_exactly_what_one_does() {
        type F1 = Wide<1>;
        type F4 = Wide<4>;
        let xs = [
            1.5f32,
            -0.0,
            0.0,
            f32::NAN,
            3.0e-39,
            -7.25,
            f32::INFINITY,
            0.1,
            -1.0e30,
        ];
        let same = |w: F4, s: F1| w.0.iter().all(|l| l.to_bits() == s.0[0].to_bits());
        for &a in &xs {
            for &b in &xs {
                let (fa, fb) = (F4::splat(a), F4::splat(b));
                let (sa, sb) = (F1::splat(a), F1::splat(b));
                assert!(same(fa + fb, sa + sb) && (sa + sb).0[0].to_bits() == (a + b).to_bits());
                assert!(same(fa - fb, sa - sb) && (sa - sb).0[0].to_bits() == (a - b).to_bits());
                assert!(same(fa * fb, sa * sb) && (sa * sb).0[0].to_bits() == (a * b).to_bits());
                assert!(same(-fa, -sa) && (-sa).0[0].to_bits() == (-a).to_bits());
                assert!(same(fa / fb, sa / sb) && (sa / sb).0[0].to_bits() == (a / b).to_bits());
                assert_eq!(F4::all(fa.ge(fb)), a >= b);
                assert_eq!(F1::all(sa.ge(sb)), a >= b);
                assert!(same(max(fa, fb), max(sa, sb)));
                assert!(same(min(fa, fb), min(sa, sb)));
                assert_eq!(F4::all(fa.gt(fb)), a > b);
                assert_eq!(F1::all(sa.gt(sb)), a > b);
            }
        }
        // The NaN rules the solver relies on.
        assert_eq!(max(F1::splat(f32::NAN), F1::splat(2.0)).0, [2.0]);
        assert_eq!(min(F1::splat(2.0), F1::splat(f32::NAN)).0, [2.0]);
        let m = Wide([1.0, 2.0, 3.0, 4.0]).gt(F4::splat(2.5));
        assert_eq!(
            F4::select(m, F4::splat(9.0), Wide([1.0, 2.0, 3.0, 4.0])).0,
            [1.0, 2.0, 9.0, 9.0]
        );
        assert!(!F4::all(m) && F4::any(m) && !F4::any([0; 4]));
        assert_eq!(F4::mask_from_fn(|i| i == 1), [0, u32::MAX, 0, 0]);
        let both = F4::and(m, Wide([5.0, 5.0, 0.0, 5.0]).gt(F4::splat(1.0)));
        assert_eq!(both, [0, 0, 0, u32::MAX]);
        assert_eq!(F4::or(m, both), m);
        assert_eq!(F4::and_not(m, both), [0, 0, u32::MAX, 0]);
    }
}
