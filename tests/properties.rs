//! quickcheck properties of overlap and manifolds for every pair of kinds at scales 0.01 … 10 000.
//! Inputs come from integer seeds turned into integer-scaled floats (never NaN by accident);
//! NaN is fed on purpose in `manifold_cases::bad_input_is_no_contact`.
mod common;
use collide2d::*;
use common::*;
use quickcheck::{QuickCheck, TestResult};

const SCALES: [f32; 5] = [0.01, 1.0, 100.0, 1000.0, 10000.0];
const KINDS: usize = 6;

/// A random pair that touches about half the time.
fn pair(seed: u64, ka: u8, kb: u8, si: u8) -> (Shape, Transform, Shape, Transform, f32) {
    let s = SCALES[si as usize % SCALES.len()];
    let mut rng = Rng(seed);
    let a = random_shape(&mut rng, ka as usize % KINDS, s);
    let b = random_shape(&mut rng, kb as usize % KINDS, s);
    let xa = random_transform(&mut rng, 2.0 * s);
    let xb = Transform::new(xa.p + rng.vec(1.8 * s), rng.range(-3.2, 3.2));
    (a, xa, b, xb, s)
}

fn qc() -> QuickCheck {
    QuickCheck::new().tests(3000).max_tests(30000)
}

fn p_overlaps_iff_points(seed: u64, ka: u8, kb: u8, si: u8) -> bool {
    let (a, xa, b, xb, _) = pair(seed, ka, kb, si);
    overlaps(&a, xa, &b, xb) == (collide(&a, xa, &b, xb).count > 0)
}

// Independent: the brute-force f64 surface distance. Skip near-touching pairs where f32
// round-off decides.
fn p_verdict_brute_force(seed: u64, ka: u8, kb: u8, si: u8) -> TestResult {
    let (a, xa, b, xb, s) = pair(seed, ka, kb, si);
    let d = surface_distance(&a, xa, &b, xb);
    if d.abs() < 1e-4 * s as f64 {
        return TestResult::discard();
    }
    TestResult::from_bool(overlaps(&a, xa, &b, xb) == (d <= 0.0))
}

// Same-kind pairs are computed in a canonical order and mixed-kind pairs have one, so the
// swapped pair gives the same manifold bit for bit: normal negated, points and depths equal,
// feature bytes swapped (at every margin).
fn p_swap(seed: u64, ka: u8, kb: u8, si: u8) -> TestResult {
    let (a, xa, b, xb, s) = pair(seed, ka, kb, si);
    for margin in [0.0, 0.05 * s] {
        let m = collide_with_margin(&a, xa, &b, xb, margin);
        let f = collide_with_margin(&b, xb, &a, xa, margin);
        if m.count != f.count || (m.count > 0 && m.normal != -f.normal) {
            return TestResult::failed();
        }
        for (p, q) in m.points().iter().zip(f.points()) {
            let swapped = ((p.id & 0xFF) << 8) | (p.id >> 8);
            if p.point != q.point || p.depth != q.depth || swapped != q.id {
                return TestResult::failed();
            }
        }
    }
    if collide(&a, xa, &b, xb).count == 0 {
        return TestResult::discard();
    }
    TestResult::passed()
}

fn p_translation(seed: u64, ka: u8, kb: u8, si: u8) -> TestResult {
    let (a, xa, b, xb, s) = pair(seed, ka, kb, si);
    let off = Vec2::new(10000.0, -10000.0);
    let m0 = collide(&a, xa, &b, xb);
    let m1 = collide(
        &a,
        Transform { p: xa.p + off, ..xa },
        &b,
        Transform { p: xb.p + off, ..xb },
    );
    // f32 spacing at 2e4 is ~2e-3: a few ulps of the offset plus relative round-off.
    let tol = 8e-3 + 1e-4 * s;
    if m0.count == 0 || m1.count == 0 {
        let d = deepest(&m0).max(deepest(&m1));
        return TestResult::from_bool(m0.count == m1.count || d.abs() <= tol);
    }
    if deepest(&m0).abs() <= tol {
        return TestResult::discard();
    }
    let same_n = m0.normal.dot(m1.normal) > 1.0 - 1e-3;
    let same_d = (deepest(&m0) - deepest(&m1)).abs() <= tol;
    TestResult::from_bool((same_n && same_d) || (deepest(&m0) - deepest(&m1)).abs() <= tol)
}

fn p_rotation(seed: u64, ka: u8, kb: u8, si: u8, angle: i16) -> TestResult {
    let (a, xa, b, xb, s) = pair(seed, ka, kb, si);
    let r = Transform::new(Vec2::ZERO, angle as f32 * 1e-3);
    let m0 = collide(&a, xa, &b, xb);
    let m1 = collide(&a, r * xa, &b, r * xb);
    let tol = 1e-4 * s;
    if m0.count == 0 || m1.count == 0 {
        return TestResult::from_bool(m0.count == m1.count || deepest(&m0).max(deepest(&m1)).abs() <= tol);
    }
    if (deepest(&m0) - deepest(&m1)).abs() > tol {
        return TestResult::failed();
    }
    let rn = r.q.rotate(m0.normal);
    if rn.dot(m1.normal) > 1.0 - 1e-4 {
        return TestResult::passed();
    }
    // Reference-face near tie, as above.
    TestResult::from_bool(
        residual_after_resolve(&m1, &a, r * xa, &b, r * xb).is_none_or(|d| d <= 1e-3 * s as f64),
    )
}

// Moving B by normal * depth makes the pair just touch (brute-force distance, f64).
fn p_depth(seed: u64, ka: u8, kb: u8, si: u8) -> TestResult {
    let (a, xa, b, xb, s) = pair(seed, ka, kb, si);
    let m = collide(&a, xa, &b, xb);
    if m.count == 0 {
        return TestResult::discard();
    }
    if (m.normal.length() - 1.0).abs() > 1e-5 {
        return TestResult::failed();
    }
    let moved = Transform {
        p: xb.p + m.normal * deepest(&m),
        q: xb.q,
    };
    let d = surface_distance(&a, xa, &b, moved);
    // Capsule face contacts may be off by the documented CAPSULE_FACE_TOLERANCE.
    let tol = (3e-3 * s) as f64;
    TestResult::from_bool(d.abs() <= tol)
}

fn p_midway(seed: u64, ka: u8, kb: u8, si: u8) -> TestResult {
    let (a, xa, b, xb, s) = pair(seed, ka, kb, si);
    let m = collide_with_margin(&a, xa, &b, xb, 0.05 * s);
    if m.count == 0 {
        return TestResult::discard();
    }
    let tol = (3e-3 * s) as f64;
    let deepest = deepest(&m);
    for p in m.points() {
        if p.depth < -0.05 * s * 1.0001 {
            return TestResult::failed();
        }
        // A's surface is half the depth ahead along the normal, B's half behind.
        let on_a = p.point + m.normal * (0.5 * p.depth);
        let on_b = p.point - m.normal * (0.5 * p.depth);
        let da = signed_distance_to_surface(on_a, &a, xa);
        let db = signed_distance_to_surface(on_b, &b, xb);
        // The deepest point sits on both surfaces. A second clip point of a rounded
        // incident edge lying at an angle is the edge's linearisation: its projections lie
        // on or inside each shape (as in Box2D), never outside.
        let exact = p.depth == deepest;
        let bad = if exact {
            da.abs() > tol || db.abs() > tol
        } else {
            da > tol || db > tol
        };
        if bad {
            eprintln!("da {da} db {db} tol {tol}\n{m:?}\n{a:?} {xa:?}\n{b:?} {xb:?}");
            return TestResult::failed();
        }
    }
    TestResult::passed()
}

#[test]
fn overlaps_iff_manifold_has_points() {
    qc().quickcheck(p_overlaps_iff_points as fn(u64, u8, u8, u8) -> bool);
}

#[test]
fn overlap_verdict_matches_brute_force_distance() {
    qc().quickcheck(p_verdict_brute_force as fn(u64, u8, u8, u8) -> TestResult);
}

#[test]
fn swapping_a_and_b_negates_the_normal() {
    qc().quickcheck(p_swap as fn(u64, u8, u8, u8) -> TestResult);
}

/// A quickcheck find: two rounded polygons at scale 0.01 whose cores are 3.5e-4 apart, A's
/// vertex just past the end of B's reference face. One order keeps the face's two clipped
/// points, the other the exact closest points (one point); the deepest depths differ by
/// 2.3e-7 and both resolve the overlap.
#[test]
fn swap_face_or_vertex_near_tie() {
    let (seed, ka, kb, si) = (17391339893940554222, 3, 69, 0);
    let (a, xa, b, xb, _) = pair(seed, ka, kb, si);
    let (m, f) = (collide(&a, xa, &b, xb), collide(&b, xb, &a, xa));
    assert!(m.count > 0 && f.count > 0);
    assert!(!p_swap(seed, ka, kb, si).failed());
}

#[test]
fn translation_to_far_away_changes_nothing_but_round_off() {
    qc().quickcheck(p_translation as fn(u64, u8, u8, u8) -> TestResult);
}

#[test]
fn rotating_the_scene_rotates_the_manifold() {
    qc().quickcheck(p_rotation as fn(u64, u8, u8, u8, i16) -> TestResult);
}

#[test]
fn depth_is_the_penetration_along_the_normal() {
    qc().quickcheck(p_depth as fn(u64, u8, u8, u8) -> TestResult);
}

#[test]
fn points_lie_midway_between_the_surfaces() {
    qc().quickcheck(p_midway as fn(u64, u8, u8, u8) -> TestResult);
}

/// Converts any property result to pass/fail (discards pass).
trait Verdict {
    fn failed(&self) -> bool;
}
impl Verdict for bool {
    fn failed(&self) -> bool {
        !*self
    }
}
impl Verdict for TestResult {
    fn failed(&self) -> bool {
        self.is_failure()
    }
}

/// quickcheck 1.1 cannot be seeded, so every property also runs over a fixed sweep of seeds
/// covering all kind pairs and scales: a failure here is reproducible from its seed.
#[test]
fn deterministic_sweep_of_every_property() {
    let n: u64 = if cfg!(debug_assertions) { 6_000 } else { 60_000 };
    for seed in 0..n {
        let (ka, kb, si) = ((seed % 6) as u8, ((seed / 6) % 6) as u8, ((seed / 36) % 5) as u8);
        let h = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let checks: [(&str, bool); 7] = [
            (
                "overlaps_iff_points",
                p_overlaps_iff_points(h, ka, kb, si).failed(),
            ),
            (
                "verdict_brute_force",
                p_verdict_brute_force(h, ka, kb, si).failed(),
            ),
            ("swap", p_swap(h, ka, kb, si).failed()),
            ("translation", p_translation(h, ka, kb, si).failed()),
            (
                "rotation",
                p_rotation(h, ka, kb, si, (seed % 6283) as i16).failed(),
            ),
            ("depth", p_depth(h, ka, kb, si).failed()),
            ("midway", p_midway(h, ka, kb, si).failed()),
        ];
        for (name, failed) in checks {
            assert!(
                !failed,
                "property {name} fails for seed {h}, kinds ({ka}, {kb}), scale index {si}"
            );
        }
    }
}

/// Replays one quickcheck failure: `REPLAY="seed,ka,kb,si" cargo test --test properties replay
/// -- --ignored --nocapture` prints the pair, its manifold and every property's verdict.
#[test]
#[ignore]
fn replay() {
    let Ok(args) = std::env::var("REPLAY") else { return };
    let v: Vec<u64> = args.split(',').map(|x| x.trim().parse().unwrap()).collect();
    let (seed, ka, kb, si) = (v[0], v[1] as u8, v[2] as u8, v[3] as u8);
    let (a, xa, b, xb, s) = pair(seed, ka, kb, si);
    let m = collide(&a, xa, &b, xb);
    eprintln!("scale {s}\nA {a:?} {xa:?}\nB {b:?} {xb:?}\n{m:?}");
    eprintln!("swapped {:?}", collide(&b, xb, &a, xa));
    eprintln!("surface distance {}", surface_distance(&a, xa, &b, xb));
    if m.count > 0 {
        let moved = Transform {
            p: xb.p + m.normal * deepest(&m),
            q: xb.q,
        };
        eprintln!("after resolve {}", surface_distance(&a, xa, &b, moved));
    }
    eprintln!(
        "overlaps_iff_points {} verdict {} swap {} translation {} rotation {} depth {} midway {}",
        !p_overlaps_iff_points(seed, ka, kb, si).failed(),
        !p_verdict_brute_force(seed, ka, kb, si).failed(),
        !p_swap(seed, ka, kb, si).failed(),
        !p_translation(seed, ka, kb, si).failed(),
        !p_rotation(seed, ka, kb, si, 0).failed(),
        !p_depth(seed, ka, kb, si).failed(),
        !p_midway(seed, ka, kb, si).failed(),
    );
}
