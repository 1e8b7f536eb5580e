//! Exact predicates on points whose coordinates are `f32` values held in `f64`.
//!
//! The product of two `f32` values is exact in `f64` (24 + 24 significant bits, exponents far
//! inside `f64`'s range), so every predicate here is a sum of exact products whose sign is
//! found exactly: a floating-point filter (Shewchuk's error bound) decides the clear cases and
//! an expansion sum (Shewchuk's grow-expansion with zero elimination) the rest. Decisions never
//! depend on rounding, so the sweeps built on them see one consistent geometry.

/// A point: `f32` coordinates held exactly in `f64`.
pub(super) type P = (f64, f64);

/// Half an ulp of 1 in `f64`.
const EPS: f64 = f64::EPSILON * 0.5;

/// Shewchuk's `ccwerrboundA`: `|det|` above this times the sum of the magnitudes of its two
/// products has the sign of the rounded determinant.
const ORIENT_BOUND: f64 = (3.0 + 16.0 * EPS) * EPS;

/// The most terms [`sum_sign`] adds (the perturbed orientation's second-order term has 72).
pub(super) const MAX_TERMS: usize = 80;

/// `a + b` and its rounding error, exactly (Knuth's two-sum).
#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bv = s - a;
    let av = s - bv;
    (s, (a - av) + (b - bv))
}

/// The exact sign (-1, 0 or 1) of the sum of `terms`, each an exact `f64` (at most
/// [`MAX_TERMS`]; more are not summed).
pub(super) fn sum_sign(terms: &[f64]) -> i32 {
    debug_assert!(terms.len() <= MAX_TERMS);
    // A non-overlapping expansion in increasing magnitude: its sign is its last component's.
    let mut e = [0.0f64; MAX_TERMS];
    let mut len = 0;
    for &t in terms.iter().take(MAX_TERMS) {
        let mut q = t;
        let mut k = 0;
        for i in 0..len {
            let (s, h) = two_sum(q, e[i]);
            if h != 0.0 {
                e[k] = h;
                k += 1;
            }
            q = s;
        }
        if q != 0.0 {
            e[k] = q;
            k += 1;
        }
        len = k;
    }
    match len {
        0 => 0,
        _ if e[len - 1] > 0.0 => 1,
        _ => -1,
    }
}

/// The exact sign of `cross(b - a, c - a)`: 1 when `a`, `b`, `c` turn counter-clockwise, -1
/// clockwise, 0 when collinear.
#[inline]
pub(super) fn orient(a: P, b: P, c: P) -> i32 {
    let l = (b.0 - a.0) * (c.1 - a.1);
    let r = (b.1 - a.1) * (c.0 - a.0);
    let det = l - r;
    let bound = ORIENT_BOUND * (l.abs() + r.abs());
    if det > bound {
        1
    } else if -det > bound {
        -1
    } else {
        // The determinant expanded into six products of coordinates, each exact.
        sum_sign(&[
            a.0 * b.1,
            -(a.1 * b.0),
            b.0 * c.1,
            -(b.1 * c.0),
            c.0 * a.1,
            -(c.1 * a.0),
        ])
    }
}

/// Whether `a` comes before `b` in the sweep order: higher first, then (on one height) further
/// left. Exact; false for equal points.
#[inline]
pub(super) fn above(a: P, b: P) -> bool {
    a.1 > b.1 || (a.1 == b.1 && a.0 < b.0)
}

/// Terms of the sum `Σ ux[i]·vy[j] − uy[i]·vx[j]` (the cross product of two vectors whose
/// components are sums of terms) appended to `out` from `len` on.
pub(super) fn cross_terms(u: (&[f64], &[f64]), v: (&[f64], &[f64]), out: &mut [f64], len: &mut usize) {
    for &a in u.0 {
        for &b in v.1 {
            if a != 0.0 && b != 0.0 && *len < out.len() {
                out[*len] = a * b;
                *len += 1;
            }
        }
    }
    for &a in u.1 {
        for &b in v.0 {
            if a != 0.0 && b != 0.0 && *len < out.len() {
                out[*len] = -(a * b);
                *len += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Collinear points whose rounded determinant is not zero are found collinear, and the
    /// smallest turn `f32` points can make is found.
    #[test]
    fn orientation_is_exact_where_rounding_is_not() {
        let big = 16_777_216.0f64; // 2^24
                                   // On the line y = x / 3 through the origin: (3k, k) for large k.
        let (a, b, c) = (
            (0.0, 0.0),
            (3.0 * big / 4.0, big / 4.0),
            (3.0 * 1_000_001.0, 1_000_001.0),
        );
        assert_eq!(orient(a, b, c), 0);
        assert_eq!(orient((0.5, 0.5), (12.0, 12.0), (24.0, 24.0)), 0);
        // Shewchuk's classic: points near (0.5, 0.5) on the line y = x, nudged by an ulp.
        let x = 0.5f64 + f64::from(f32::EPSILON) / 2.0;
        assert_eq!(orient((x, 0.5), (12.0, 12.0), (24.0, 24.0)), -1);
        assert_eq!(orient((0.5, x), (12.0, 12.0), (24.0, 24.0)), 1);
        // Far from the origin: a turn of one f32 ulp at 1e7.
        let f = |x: f32, y: f32| (f64::from(x), f64::from(y));
        let o = 1.0e7f32;
        assert_eq!(orient(f(o, o), f(o + 1.0, o + 1.0), f(o + 2.0, o + 2.0)), 0);
        assert_eq!(orient(f(o, o), f(o + 1.0, o + 1.0), f(o + 2.0, o + 3.0)), 1);
        assert_eq!(sum_sign(&[1e30, 1.0, -1e30]), 1);
        assert_eq!(sum_sign(&[1e30, -1.0, -1e30, 1.0]), 0);
        assert_eq!(sum_sign(&[]), 0);
    }
}
