//! Pairs placed exactly at and within a few ulps of touching, where round-off decides, for every
//! pair of kinds at scales 0.01 … 10 000: `overlaps(a, b) == (collide(a, b).count > 0)` bit for
//! bit, and swapping A and B gives the same decision, the same depths and the same points.
//!
//! The generator: B is placed along a random direction from A; the touching offset is found by
//! bisection, either on the brute-force f64 surface distance (independent of the code under
//! test) or on `overlaps` itself (the f32 decision boundary, where disagreements live); then
//! B's position is nudged by -4..=4 ulps in each coordinate.
mod common;
use collide2d::*;
use common::*;
use quickcheck::{QuickCheck, TestResult};

const SCALES: [f32; 5] = [0.01, 1.0, 100.0, 1000.0, 10000.0];
const KINDS: usize = 6;

/// `x` moved by `k` units in the last place (through zero as the float line does).
fn nudge(x: f32, k: i32) -> f32 {
    // Floats ordered as integers: negative values mirrored below zero.
    let key = |v: f32| {
        let b = v.to_bits() as i32;
        if b < 0 {
            i32::MIN - b
        } else {
            b
        }
    };
    let from_key = |k: i32| f32::from_bits(if k < 0 { (i32::MIN - k) as u32 } else { k as u32 });
    from_key(key(x) + k)
}

/// A pair at or within a few ulps of touching. `mode` 0 bisects the f64 brute-force surface
/// distance, 1 bisects `overlaps`.
fn touching_pair(seed: u64, ka: u8, kb: u8, si: u8, mode: u8) -> (Shape, Transform, Shape, Transform, f32) {
    let s = SCALES[si as usize % SCALES.len()];
    let mut rng = Rng(seed);
    let a = random_shape(&mut rng, ka as usize % KINDS, s);
    let b = random_shape(&mut rng, kb as usize % KINDS, s);
    let xa = random_transform(&mut rng, 2.0 * s);
    let qb = rng.range(-3.2, 3.2);
    let angle = rng.range(-3.2, 3.2);
    let dir = Vec2::new(angle.cos(), angle.sin());
    // Exact axis-aligned directions and rotations too: parallel faces are where ties live.
    let (dir, qb) = match rng.index(4) {
        0 => (Vec2::new(dir.x.signum(), 0.0), 0.0),
        1 => (Vec2::new(0.0, dir.y.signum()), qb),
        _ => (dir, qb),
    };
    let place = |t: f32| Transform::new(xa.p + dir * t, qb);
    let apart = |t: f32| {
        if mode % 2 == 0 {
            surface_distance(&a, xa, &b, place(t)) > 0.0
        } else {
            !overlaps(&a, xa, &b, place(t))
        }
    };
    // From overlapping (t = 0 puts B's origin on A's) out to surely apart.
    let (mut lo, mut hi) = (0.0f32, 8.0 * s);
    if apart(lo) || !apart(hi) {
        return (a, xa, b, place(hi), s);
    }
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if apart(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let t = if rng.index(2) == 0 { lo } else { hi };
    let p = xa.p + dir * t;
    let (kx, ky) = (rng.index(9) as i32 - 4, rng.index(9) as i32 - 4);
    let xb = Transform::new(Vec2::new(nudge(p.x, kx), nudge(p.y, ky)), qb);
    (a, xa, b, xb, s)
}

/// The promises, checked on one pair in both orders. Returns a description of the first
/// broken one.
fn check(a: &Shape, xa: Transform, b: &Shape, xb: Transform, s: f32) -> Result<(), String> {
    for margin in [0.0, 0.01 * s] {
        let m = collide_with_margin(a, xa, b, xb, margin);
        let f = collide_with_margin(b, xb, a, xa, margin);
        if margin == 0.0 {
            let (o, of) = (overlaps(a, xa, b, xb), overlaps(b, xb, a, xa));
            if o != (m.count > 0) || of != (f.count > 0) {
                return Err(format!("overlaps {o}/{of} but counts {}/{}", m.count, f.count));
            }
        }
        if m.count != f.count {
            return Err(format!("margin {margin}: count {} swapped {}", m.count, f.count));
        }
        if m.count > 0 {
            if m.normal != -f.normal {
                return Err(format!(
                    "margin {margin}: normal {:?} swapped {:?}",
                    m.normal, f.normal
                ));
            }
            for (p, q) in m.points().iter().zip(f.points()) {
                let swapped_id = ((p.id & 0xFF) << 8) | (p.id >> 8);
                if p.point != q.point || p.depth != q.depth || swapped_id != q.id {
                    return Err(format!("margin {margin}: point {p:?} swapped {q:?}"));
                }
            }
        }
    }
    Ok(())
}

fn p_touching(seed: u64, ka: u8, kb: u8, si: u8, mode: u8) -> TestResult {
    let (a, xa, b, xb, s) = touching_pair(seed, ka, kb, si, mode);
    match check(&a, xa, &b, xb, s) {
        Ok(()) => TestResult::passed(),
        Err(e) => TestResult::error(format!("{e}\nA {a:?} {xa:?}\nB {b:?} {xb:?}")),
    }
}

#[test]
fn near_touching_pairs_keep_the_overlap_and_swap_promises() {
    QuickCheck::new()
        .tests(2000)
        .max_tests(20000)
        .quickcheck(p_touching as fn(u64, u8, u8, u8, u8) -> TestResult);
}

/// quickcheck cannot be seeded: the same property over a fixed sweep of every kind pair, scale
/// and placement mode, reproducible from the printed seed.
#[test]
fn near_touching_sweep_over_every_pair_and_scale() {
    let n: u64 = if cfg!(debug_assertions) { 3_600 } else { 36_000 };
    let mut failures = std::collections::BTreeMap::<(u8, u8), u32>::new();
    let mut first = None;
    let mut in_contact = 0u64;
    for seed in 0..n {
        let (ka, kb, si, mode) = (
            (seed % 6) as u8,
            ((seed / 6) % 6) as u8,
            ((seed / 36) % 5) as u8,
            ((seed / 180) % 2) as u8,
        );
        let h = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let (a, xa, b, xb, s) = touching_pair(h, ka, kb, si, mode);
        in_contact += u64::from(overlaps(&a, xa, &b, xb));
        if let Err(e) = check(&a, xa, &b, xb, s) {
            *failures.entry((ka.min(kb), ka.max(kb))).or_default() += 1;
            first.get_or_insert(format!("seed {h} kinds ({ka}, {kb}) scale {s} mode {mode}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "failures by kind pair {failures:?}; first: {}",
        first.unwrap()
    );
    // The generator lands on both sides of touching (it would not test much otherwise).
    assert!(
        in_contact > n / 4 && in_contact < 3 * n / 4,
        "{in_contact} of {n} in contact"
    );
}
