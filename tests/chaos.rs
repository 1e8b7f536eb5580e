//! Chaos: seeded random World operations with hostile values — NaN, infinities, 1e19 …
//! `f32::MAX`, denormals, hand-filled shapes of random bits, stale ids, out-of-range steps —
//! mixed with ordinary ones. Every operation runs under `catch_unwind`; after each the world's
//! invariants must hold, and after each step every live body must be finite.
//!
//! Counted and printed: operations, refused (an error returned), accepted-bad (an input the
//! docs say is refused, accepted: must be 0), panics (must be 0), non-finite bodies after a
//! step (must be 0). CI runs six seeds of `CHAOS_OPS` (default 1500) operations each;
//! `CHAOS_OPS=10000 cargo test --release --features solver --test chaos -- --nocapture` is the
//! long run; `CHAOS_DEBUG=1` prints every refusal of an input the test counts as legal (the
//! door may refuse more than it counts, e.g. an impulse pushing a body past the speed limit).
mod common;
use collide2d::world::limits;
use collide2d::*;
use common::{v, Rng};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A float: ordinary two times in three, otherwise one of the values that break arithmetic.
fn hostile(rng: &mut Rng, ordinary: f32) -> f32 {
    match rng.index(24) {
        0 => f32::NAN,
        1 => f32::INFINITY,
        2 => -f32::INFINITY,
        3 => f32::MAX,
        4 => 1.0e19,
        5 => -1.0e30,
        6 => 1.0e-40, // denormal
        7 => 2.0e6,   // finite, beyond the world's extent
        _ => ordinary,
    }
}

/// [`hostile`] with an ordinary value drawn from `lo..hi`.
fn hostile_in(rng: &mut Rng, lo: f32, hi: f32) -> f32 {
    let ordinary = rng.range(lo, hi);
    hostile(rng, ordinary)
}

/// `|x| <= bound`, false for NaN.
fn within(x: f32, bound: f32) -> bool {
    x.abs() <= bound
}

/// Whether `x` is what the door accepts for a coordinate-like value.
fn fine(x: f32) -> bool {
    x.is_finite() && x.abs() <= limits::MAX_COORDINATE
}

/// A shape, and whether the world must refuse it: a made one, or one of random bits.
fn shape(rng: &mut Rng) -> (Shape, bool) {
    match rng.index(9) {
        0 => (Shape::rect(rng.range(0.1, 2.0), rng.range(0.1, 2.0)), false),
        1 => (Shape::circle(rng.range(0.1, 1.0)), false),
        2 => (
            Shape::capsule(v(-0.5, 0.0), v(0.5, 0.0), rng.range(0.05, 0.5)),
            false,
        ),
        _ => {
            // Random bits with a valid tag: the world must take it only if its constructors
            // would have made it.
            let mut bytes = [0u8; core::mem::size_of::<Shape>()];
            for b in bytes.iter_mut() {
                *b = rng.next_u64() as u8;
            }
            let tag = (rng.index(4) as u32).to_ne_bytes();
            bytes[..4].copy_from_slice(&tag);
            // SAFETY (test): the tag names a variant and every payload field is plain data.
            let s: Shape = unsafe { core::ptr::read_unaligned(bytes.as_ptr() as *const Shape) };
            let bad = s.validate().is_err() || !shape_within(&s);
            (s, bad)
        }
    }
}

/// Whether a valid shape's points and radius are within the world's extent.
fn shape_within(s: &Shape) -> bool {
    let pt = |p: Vec2| fine(p.x) && fine(p.y);
    match s {
        Shape::Circle(c) => pt(c.center) && c.radius <= limits::MAX_COORDINATE,
        Shape::Capsule(c) => pt(c.center1) && pt(c.center2) && c.radius <= limits::MAX_COORDINATE,
        Shape::Polygon(p) => {
            p.vertices[..p.len()].iter().all(|&q| pt(q)) && p.radius <= limits::MAX_COORDINATE
        }
        Shape::ChainSegment(c) => [c.ghost1, c.point1, c.point2, c.ghost2].into_iter().all(pt),
    }
}

#[derive(Default, Debug)]
struct Figures {
    operations: usize,
    refused: usize,
    accepted_bad: usize,
    panics: usize,
    non_finite: usize,
}

fn chaos(seed: u64, operations: usize) -> Figures {
    let mut rng = Rng(seed);
    let mut w = World::default();
    let mut ids: Vec<BodyId> = vec![];
    let mut dead: Vec<BodyId> = vec![];
    let mut f = Figures::default();
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::IDENTITY,
        Shape::rect(20.0, 0.5),
    ))
    .unwrap();
    for _ in 0..operations {
        f.operations += 1;
        let pick = |rng: &mut Rng, ids: &[BodyId], dead: &[BodyId]| -> (BodyId, bool) {
            if !dead.is_empty() && rng.index(8) == 0 {
                (dead[rng.index(dead.len())], true)
            } else if ids.is_empty() {
                (BodyId::default(), true)
            } else {
                (ids[rng.index(ids.len())], false)
            }
        };
        let op = rng.index(14);
        // (result, whether the input was one the docs say is refused)
        let outcome = catch_unwind(AssertUnwindSafe(|| -> (Result<(), SolverError>, bool) {
            match op {
                0 | 1 => {
                    let (s, bad_shape) = shape(&mut rng);
                    let kind = [BodyKind::Static, BodyKind::Kinematic, BodyKind::Dynamic][rng.index(3)];
                    let (x, y) = (hostile_in(&mut rng, -15.0, 15.0), hostile_in(&mut rng, 1.0, 20.0));
                    let mut def = BodyDef::new(kind, Transform::from_translation(v(x, y)), s);
                    let (vx, gs) = (hostile_in(&mut rng, -5.0, 5.0), hostile(&mut rng, 1.0));
                    def.linear_velocity = v(vx, 0.0);
                    def.gravity_scale = gs;
                    let chain_on_dynamic = matches!(s, Shape::ChainSegment(_)) && kind == BodyKind::Dynamic;
                    let bad = bad_shape
                        || !fine(x)
                        || !fine(y)
                        || !within(vx, w.settings().max_linear_speed)
                        || !within(gs, limits::MAX_GRAVITY_SCALE)
                        || chain_on_dynamic;
                    match w.add_body(&def) {
                        Ok(id) => {
                            ids.push(id);
                            (Ok(()), bad)
                        }
                        Err(e) => (Err(e), bad),
                    }
                }
                2 => {
                    let (id, stale) = pick(&mut rng, &ids, &dead);
                    let (s, bad_shape) = shape(&mut rng);
                    (w.add_shape(id, &s).map(|_| ()), stale || bad_shape)
                }
                3 => {
                    let (id, stale) = pick(&mut rng, &ids, &dead);
                    let r = w.remove_body(id);
                    if r.is_ok() {
                        ids.retain(|&k| k != id);
                        dead.push(id);
                    }
                    (r, stale)
                }
                4 => {
                    let (id, stale) = pick(&mut rng, &ids, &dead);
                    let (vx, om) = (hostile_in(&mut rng, -10.0, 10.0), hostile(&mut rng, 1.0));
                    let bad = stale
                        || !within(vx, w.settings().max_linear_speed)
                        || !within(om, limits::MAX_ANGULAR_SPEED);
                    (w.set_velocity(id, v(vx, 0.0), om), bad)
                }
                5 => {
                    let (id, stale) = pick(&mut rng, &ids, &dead);
                    let (x, y) = (hostile_in(&mut rng, -15.0, 15.0), hostile_in(&mut rng, 1.0, 20.0));
                    let bad = stale || !fine(x) || !fine(y);
                    (w.set_transform(id, Transform::from_translation(v(x, y))), bad)
                }
                6 => {
                    let (id, stale) = pick(&mut rng, &ids, &dead);
                    let s = hostile_in(&mut rng, -2.0, 2.0);
                    (
                        w.set_gravity_scale(id, s),
                        stale || !within(s, limits::MAX_GRAVITY_SCALE),
                    )
                }
                7 => {
                    let (id, stale) = pick(&mut rng, &ids, &dead);
                    let j = hostile_in(&mut rng, -5.0, 5.0);
                    // Refused when not finite or when it would exceed the speed limits.
                    let r = w.apply_angular_impulse(id, j);
                    (r, stale || !j.is_finite())
                }
                8 => {
                    let (id, stale) = pick(&mut rng, &ids, &dead);
                    let fx = hostile_in(&mut rng, -50.0, 50.0);
                    let p = hostile(&mut rng, 0.0);
                    (
                        w.apply_force(id, v(fx, 0.0), v(p, 0.0)),
                        stale || !fx.is_finite() || !p.is_finite(),
                    )
                }
                9 => {
                    let (id, stale) = pick(&mut rng, &ids, &dead);
                    let (a, b) = (hostile(&mut rng, 0.5), hostile(&mut rng, 0.5));
                    let bad =
                        stale || !(within(a, f32::MAX) && a >= 0.0) || !(within(b, f32::MAX) && b >= 0.0);
                    (w.set_damping(id, a, b), bad)
                }
                10 => {
                    let g = hostile(&mut rng, -10.0);
                    let speed = hostile(&mut rng, 400.0);
                    let s = SolverSettings {
                        gravity: v(0.0, g),
                        max_linear_speed: speed,
                        ..SolverSettings::default()
                    };
                    let good = within(g, limits::MAX_GRAVITY)
                        && speed > 0.0
                        && within(speed, limits::MAX_LINEAR_SPEED);
                    let bad = !good;
                    (w.set_settings(s), bad)
                }
                11 => {
                    // Queries with hostile input: never a panic, results name live bodies.
                    let o = v(hostile_in(&mut rng, -20.0, 20.0), hostile(&mut rng, 10.0));
                    let d = v(hostile(&mut rng, 0.0), hostile(&mut rng, -30.0));
                    if let Some(hit) = w.ray_cast(o, d) {
                        assert!(
                            w.body(hit.body).is_ok()
                                && hit.hit.point.is_finite()
                                && hit.hit.normal.is_finite()
                        );
                    }
                    let (s, _) = shape(&mut rng);
                    let xf = Transform::from_translation(o);
                    w.overlap_shape(&s, xf, &QueryFilter::ALL, |b| {
                        assert!(w.body(b).is_ok());
                        true
                    });
                    if let Some(hit) = w.cast_shape(&s, xf, d, &QueryFilter::ALL) {
                        assert!(w.body(hit.body).is_ok());
                    }
                    let level = w.mover_level(&QueryFilter::ALL);
                    let r = move_and_slide(&level, &s, xf, d, d, &MoveOptions::default());
                    // Invalid input leaves the mover where it was (a non-finite start stays so).
                    assert!(r.position.is_finite() || !o.is_finite());
                    (Ok(()), false)
                }
                _ => {
                    let dt = hostile(&mut rng, 1.0 / 60.0);
                    let bad = !(dt > 0.0 && within(dt, limits::MAX_TIME_STEP));
                    let r = w.step(dt, 4);
                    if r.is_ok() {
                        let live = ids
                            .iter()
                            .filter(|&&id| w.body(id).is_ok_and(|b| !b.is_valid()))
                            .count();
                        f.non_finite += live;
                    }
                    (r, bad)
                }
            }
        }));
        match outcome {
            Err(_) => f.panics += 1,
            Ok((Err(e), bad)) => {
                f.refused += 1;
                if std::env::var("CHAOS_DEBUG").is_ok() && !bad {
                    eprintln!("op {op} refused though good: {e:?}");
                }
            }
            Ok((Ok(()), bad)) => f.accepted_bad += usize::from(bad),
        }
        if let Err(e) = w.check_invariants(false) {
            panic!("seed {seed}: invariant broken after op {op}: {e}");
        }
    }
    f
}

#[test]
fn chaos_runs_refuse_every_bad_input_and_never_panic() {
    let ops: usize = std::env::var("CHAOS_OPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1500);
    let mut total = Figures::default();
    for seed in 1..=6u64 {
        let f = chaos(seed, ops);
        eprintln!("seed {seed}: {f:?}");
        total.operations += f.operations;
        total.refused += f.refused;
        total.accepted_bad += f.accepted_bad;
        total.panics += f.panics;
        total.non_finite += f.non_finite;
    }
    eprintln!("chaos total: {total:?}");
    assert!(
        total.refused > total.operations / 20,
        "hostile input exercised: {total:?}"
    );
    assert_eq!(
        (total.accepted_bad, total.panics, total.non_finite),
        (0, 0, 0),
        "{total:?}"
    );
}
