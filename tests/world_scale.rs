//! The World at scale: pair bookkeeping against a brute-force recount, sleeping and every
//! waking trigger, continuous collision (thin walls, bullets) and determinism.

use collide2d::solver;
use collide2d::*;
use quickcheck::{QuickCheck, TestResult};

mod common;

const DT: f32 = 1.0 / 60.0;

fn boxed(hw: f32, hh: f32) -> Shape {
    Shape::Polygon(Polygon::make_box(hw, hh).unwrap())
}

fn ground(w: &mut World) -> BodyId {
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(Vec2::new(0.0, -0.5)),
        boxed(20.0, 0.5),
    ))
    .unwrap()
}

fn dynamic(w: &mut World, p: Vec2, shape: Shape) -> BodyId {
    w.add_body(&BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(p),
        shape,
    ))
    .unwrap()
}

fn steps(w: &mut World, n: usize) {
    for _ in 0..n {
        w.step(DT, 4).unwrap();
        w.check_invariants(false).unwrap();
    }
}

/// A stack of `n` unit boxes on the ground, stepped until it sleeps.
fn sleeping_stack(n: usize) -> (World, BodyId, Vec<BodyId>) {
    let mut w = World::default();
    let g = ground(&mut w);
    let ids: Vec<_> = (0..n)
        .map(|i| dynamic(&mut w, Vec2::new(0.0, 0.5 + i as f32), boxed(0.5, 0.5)))
        .collect();
    steps(&mut w, 240);
    assert_eq!(w.awake_body_count(), 0, "a settled stack sleeps within 4 s");
    for id in &ids {
        assert!(!w.is_awake(*id).unwrap());
        assert_eq!(w.body(*id).unwrap().linear_velocity, Vec2::ZERO);
    }
    (w, g, ids)
}

#[test]
fn a_settled_stack_sleeps_and_costs_no_contact_updates() {
    let (mut w, g, ids) = sleeping_stack(3);
    assert!(!w.is_awake(g).unwrap(), "static bodies are never awake");
    // Asleep: nothing moves, contacts and their count stay.
    let before: Vec<_> = ids.iter().map(|id| w.transform(*id).unwrap()).collect();
    let contacts = w.contact_count();
    assert_eq!(contacts, 3);
    steps(&mut w, 60);
    for (id, xf) in ids.iter().zip(&before) {
        assert_eq!(w.transform(*id).unwrap(), *xf);
    }
    assert_eq!(w.contact_count(), contacts);
    assert!(w.begin_events().is_empty() && w.end_events().is_empty());
}

#[test]
fn set_velocity_set_transform_and_set_awake_wake_the_island() {
    let (mut w, _, ids) = sleeping_stack(3);
    w.set_velocity(ids[2], Vec2::new(0.1, 0.0), 0.0).unwrap();
    assert!(
        ids.iter().all(|id| w.is_awake(*id).unwrap()),
        "the whole island wakes"
    );
    assert_eq!(w.body(ids[2]).unwrap().linear_velocity, Vec2::new(0.1, 0.0));

    let (mut w, _, ids) = sleeping_stack(3);
    let top = w.transform(ids[2]).unwrap();
    w.set_transform(ids[2], Transform::from_translation(top.p + Vec2::new(0.0, 0.001)))
        .unwrap();
    assert!(ids.iter().all(|id| w.is_awake(*id).unwrap()));

    let (mut w, _, ids) = sleeping_stack(3);
    w.set_awake(ids[0], true).unwrap();
    assert!(ids.iter().all(|id| w.is_awake(*id).unwrap()));
    // And back to sleep at once, all three (connected through touching contacts).
    w.set_awake(ids[1], false).unwrap();
    assert_eq!(w.awake_body_count(), 0);
    w.check_invariants(true).unwrap();
}

#[test]
fn a_touch_by_an_awake_body_wakes_the_island() {
    let (mut w, _, ids) = sleeping_stack(2);
    let ball = dynamic(&mut w, Vec2::new(0.0, 4.0), Shape::circle(0.3));
    let mut woke_at = None;
    for step in 0..120 {
        w.step(DT, 4).unwrap();
        w.check_invariants(false).unwrap();
        if woke_at.is_none() && w.is_awake(ids[0]).unwrap() {
            woke_at = Some(step);
            assert!(w.is_awake(ids[1]).unwrap(), "whole island");
        }
    }
    assert!(woke_at.is_some(), "the falling ball never woke the stack");
    let _ = ball;
    // Without the touch nothing would have woken: a ball landing far away leaves it asleep.
    let (mut w, _, ids) = sleeping_stack(2);
    dynamic(&mut w, Vec2::new(8.0, 4.0), Shape::circle(0.3));
    steps(&mut w, 120);
    assert!(!w.is_awake(ids[0]).unwrap());
}

#[test]
fn removing_a_body_wakes_what_rested_on_it() {
    let (mut w, _, ids) = sleeping_stack(3);
    let top_y = w.transform(ids[2]).unwrap().p.y;
    w.remove_body(ids[1]).unwrap();
    w.check_invariants(true).unwrap();
    assert!(w.is_awake(ids[2]).unwrap() && w.is_awake(ids[0]).unwrap());
    steps(&mut w, 120);
    let fallen = top_y - w.transform(ids[2]).unwrap().p.y;
    assert!(
        (fallen - 1.0).abs() < 0.03,
        "the top box fell {fallen} m onto the bottom one"
    );
    // Removing a sleeping body's ground (a static body) wakes it too.
    let (mut w, g, ids) = sleeping_stack(1);
    w.remove_body(g).unwrap();
    assert!(w.is_awake(ids[0]).unwrap());
    steps(&mut w, 30);
    assert!(w.transform(ids[0]).unwrap().p.y < 0.0, "it falls");
}

#[test]
fn sleep_settings_per_body_and_per_world() {
    let (mut w, _, ids) = sleeping_stack(2);
    w.set_body_sleep_enabled(ids[0], false).unwrap();
    assert!(!w.body_sleep_enabled(ids[0]).unwrap());
    assert!(w.is_awake(ids[1]).unwrap(), "the island wakes");
    steps(&mut w, 240);
    assert_eq!(
        w.awake_body_count(),
        2,
        "one body that may not sleep keeps its island awake"
    );
    w.set_body_sleep_enabled(ids[0], true).unwrap();
    steps(&mut w, 60);
    assert_eq!(w.awake_body_count(), 0);
    w.set_sleep_enabled(false);
    assert!(!w.sleep_enabled());
    assert_eq!(w.awake_body_count(), 2, "disabling sleep wakes everything");
    steps(&mut w, 240);
    assert_eq!(w.awake_body_count(), 2);
    w.set_awake(ids[0], false).unwrap();
    assert_eq!(
        w.awake_body_count(),
        2,
        "set_awake(false) is ignored while sleep is off"
    );
    // A body added asleep waits until touched.
    let mut w = World::default();
    ground(&mut w);
    let mut d = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(Vec2::new(0.0, 3.0)),
        boxed(0.5, 0.5),
    );
    d.awake = false;
    let hanging = w.add_body(&d).unwrap();
    steps(&mut w, 60);
    assert_eq!(w.transform(hanging).unwrap().p.y, 3.0, "asleep in mid-air");
    let ball = dynamic(&mut w, Vec2::new(0.0, 5.0), Shape::circle(0.25));
    steps(&mut w, 60);
    assert!(w.transform(hanging).unwrap().p.y < 3.0, "woken by the ball");
    let _ = ball;
    // Stale ids are errors, not panics.
    let id = dynamic(&mut w, Vec2::new(5.0, 1.0), Shape::circle(0.5));
    w.remove_body(id).unwrap();
    assert_eq!(w.is_awake(id), Err(solver::SolverError::InvalidBody));
    assert_eq!(w.set_awake(id, true), Err(solver::SolverError::InvalidBody));
    assert_eq!(
        w.set_body_sleep_enabled(id, true),
        Err(solver::SolverError::InvalidBody)
    );
    assert_eq!(w.set_bullet(id, true), Err(solver::SolverError::InvalidBody));
}

/// A pyramid of 20 rows (210 boxes) asleep: every body, and the step does no contact work
/// (the awake work list is empty, checked through the invariants and the awake count).
#[test]
fn a_pyramid_falls_asleep_as_box2d_does_and_stays_put() {
    let (mut w, ids) = common::pyramid_world(20);
    let mut slept_at = None;
    for step in 0..600 {
        w.step(DT, 4).unwrap();
        if w.awake_body_count() == 0 {
            slept_at = Some(step);
            break;
        }
    }
    let slept_at = slept_at.expect("the pyramid never slept in 10 s");
    eprintln!("pyramid asleep after {slept_at} steps");
    let before: Vec<_> = ids.iter().map(|id| w.transform(*id).unwrap()).collect();
    steps(&mut w, 30);
    for (id, xf) in ids.iter().zip(&before) {
        assert_eq!(w.transform(*id).unwrap(), *xf);
    }
    w.check_invariants(true).unwrap();
}

// -------------------------------------------------------------------------------------------
// Continuous collision

/// A small circle fired at a thin static wall: stopped in front of it at every speed with
/// the continuous phase, through it without (so the wall is thin enough to matter).
#[test]
fn fast_bodies_never_pass_a_thin_static_wall() {
    for speed in [30.0f32, 100.0, 300.0, 1000.0] {
        for continuous in [true, false] {
            let mut w = World::new(solver::SolverSettings {
                gravity: Vec2::ZERO,
                max_linear_speed: 1000.0,
                ..Default::default()
            })
            .unwrap();
            w.set_continuous_enabled(continuous);
            w.add_body(&BodyDef::new(
                BodyKind::Static,
                Transform::from_translation(Vec2::new(10.0, 0.0)),
                boxed(0.05, 2.0),
            ))
            .unwrap();
            let mut d = BodyDef::new(BodyKind::Dynamic, Transform::IDENTITY, Shape::circle(0.1));
            d.linear_velocity = Vec2::new(speed, 0.0);
            let b = w.add_body(&d).unwrap();
            let mut max_x = f32::MIN;
            for _ in 0..120 {
                w.step(DT, 4).unwrap();
                max_x = max_x.max(w.transform(b).unwrap().p.x);
            }
            // The wall's face is at x = 9.95; the circle's centre may reach 9.85 + slop.
            if continuous {
                assert!(max_x < 9.95, "{speed} m/s: reached x = {max_x}");
            } else if speed >= 100.0 {
                assert!(
                    max_x > 10.05,
                    "{speed} m/s without continuous should tunnel ({max_x})"
                );
            }
        }
    }
}

/// A bullet stops at a thin dynamic plank; the same body without the bullet flag passes
/// through it (non-bullets sweep against static and kinematic shapes only). A kinematic
/// plank stops both.
#[test]
fn bullets_sweep_against_dynamic_bodies_and_everyone_against_kinematic_ones() {
    for (bullet, kind) in [
        (true, BodyKind::Dynamic),
        (false, BodyKind::Dynamic),
        (true, BodyKind::Kinematic),
        (false, BodyKind::Kinematic),
    ] {
        let mut w = World::new(solver::SolverSettings {
            gravity: Vec2::ZERO,
            ..Default::default()
        })
        .unwrap();
        let mut plank = BodyDef::new(
            kind,
            Transform::from_translation(Vec2::new(10.0, 0.0)),
            boxed(0.05, 2.0),
        );
        plank.material.density = 100.0;
        let plank = w.add_body(&plank).unwrap();
        let mut d = BodyDef::new(BodyKind::Dynamic, Transform::IDENTITY, Shape::circle(0.1));
        d.linear_velocity = Vec2::new(300.0, 0.0);
        d.bullet = bullet;
        let b = w.add_body(&d).unwrap();
        assert_eq!(w.is_bullet(b).unwrap(), bullet);
        let mut passed = false;
        for _ in 0..30 {
            w.step(DT, 4).unwrap();
            let (xb, xp) = (w.transform(b).unwrap().p.x, w.transform(plank).unwrap().p.x);
            passed |= xb > xp + 0.2;
        }
        let stops = bullet || kind == BodyKind::Kinematic;
        assert_eq!(passed, !stops, "bullet = {bullet}, plank {kind:?}");
    }
}

// -------------------------------------------------------------------------------------------
// Pair bookkeeping against a brute-force recount

/// Random adds, extra shapes (compound bodies), teleports, velocity changes, removals and steps
/// on a world of mixed bodies
/// (at scale `s`), sleeping on: after every operation the bookkeeping holds, and after the
/// broad phase every pair of overlapping fat boxes has exactly one contact (brute force over
/// all pairs in `check_invariants`).
fn p_bookkeeping(seed: u64, ops: Vec<u8>, scale: u8) -> TestResult {
    let s = [0.01f32, 1.0, 100.0][scale as usize % 3];
    let mut rng = common::Rng(seed);
    let mut w = World::default();
    let mut ids: Vec<BodyId> = Vec::new();
    for op in ops.iter().take(80) {
        match op % 6 {
            0 | 1 => {
                let k = rng.index(5);
                let shape = common::random_shape(&mut rng, k, s);
                let kind = [
                    BodyKind::Static,
                    BodyKind::Kinematic,
                    BodyKind::Dynamic,
                    BodyKind::Dynamic,
                ][rng.index(4)];
                let mut d = BodyDef::new(kind, common::random_transform(&mut rng, 3.0 * s), shape);
                d.linear_velocity = rng.vec(2.0 * s);
                d.awake = rng.index(4) != 0;
                if let Ok(id) = w.add_body(&d) {
                    ids.push(id);
                }
            }
            2 if !ids.is_empty() => {
                let id = ids.swap_remove(rng.index(ids.len()));
                w.remove_body(id).unwrap();
            }
            3 if !ids.is_empty() => {
                let id = ids[rng.index(ids.len())];
                w.set_transform(id, common::random_transform(&mut rng, 3.0 * s))
                    .unwrap();
            }
            4 if !ids.is_empty() => {
                let id = ids[rng.index(ids.len())];
                match rng.index(4) {
                    0 => w.set_velocity(id, rng.vec(s), 0.0).unwrap(),
                    1 => w.set_awake(id, false).unwrap(),
                    2 => w.set_awake(id, true).unwrap(),
                    _ => {
                        // Another shape on the body (a compound), offset in body space.
                        let k = rng.index(5);
                        let shape = common::random_shape(&mut rng, k, 0.5 * s);
                        let off = rng.vec(s);
                        let moved = match shape {
                            Shape::Circle(c) => Shape::Circle(Circle::new(c.center + off, c.radius).unwrap()),
                            Shape::Capsule(c) => Shape::Capsule(
                                Capsule::new(c.center1 + off, c.center2 + off, c.radius).unwrap(),
                            ),
                            Shape::Polygon(p) => {
                                let pts: Vec<Vec2> = p.vertices().iter().map(|v| *v + off).collect();
                                Shape::Polygon(Polygon::new_rounded(&pts, p.radius).unwrap())
                            }
                            other => other,
                        };
                        w.add_shape(id, &moved).unwrap();
                    }
                }
            }
            _ => {
                for _ in 0..1 + rng.index(40) {
                    w.step(DT, 4).unwrap();
                }
            }
        }
        if let Err(e) = w.check_invariants(false) {
            eprintln!("after op {op}: {e}");
            return TestResult::failed();
        }
    }
    w.update_broad_phase().unwrap();
    match w.check_invariants(true) {
        Ok(()) => TestResult::passed(),
        Err(e) => {
            eprintln!("after the broad phase: {e}");
            TestResult::failed()
        }
    }
}

#[test]
fn prop_pair_bookkeeping_matches_a_brute_force_recount() {
    QuickCheck::new()
        .tests(300)
        .quickcheck(p_bookkeeping as fn(u64, Vec<u8>, u8) -> TestResult);
}

/// Many bodies starting at once (every pair begins in step 0), then mass removal: the
/// bookkeeping holds throughout and ends empty.
#[test]
fn step_zero_with_every_pair_beginning_then_everything_removed() {
    let mut w = World::default();
    ground(&mut w);
    let mut ids = Vec::new();
    for i in 0..30 {
        for j in 0..30 {
            ids.push(dynamic(
                &mut w,
                Vec2::new(i as f32 * 0.45 - 7.0, j as f32 * 0.45 + 0.3),
                Shape::circle(0.25),
            ));
        }
    }
    w.step(DT, 4).unwrap();
    w.check_invariants(false).unwrap();
    assert!(w.pair_count() > 900);
    steps(&mut w, 30);
    for (k, id) in ids.iter().enumerate() {
        w.remove_body(*id).unwrap();
        if k % 97 == 0 {
            w.check_invariants(false).unwrap();
        }
    }
    w.check_invariants(true).unwrap();
    assert_eq!(w.pair_count(), 0);
    assert_eq!(w.contact_count(), 0);
    assert_eq!(w.body_count(), 1);
}

// -------------------------------------------------------------------------------------------
// Determinism

/// A few hundred mixed bodies poured onto the ground with sleeping on, 400 steps: the final
/// transforms hash the same on every run (two worlds built and stepped in this process,
/// one after the other, with different allocation histories).
#[test]
fn determinism_hash_is_identical_across_runs() {
    let run = |junk: usize| {
        let _noise: Vec<Vec<u8>> = (0..junk).map(|k| vec![0u8; 1 + k * 37]).collect();
        let (w, ids) = common::determinism_scene(400);
        common::hash_transforms(&w, &ids)
    };
    let first = run(0);
    assert_eq!(first, run(50));
    assert_eq!(first, run(3));
    eprintln!("determinism hash {first:016x}");
}

/// Fat boxes are sized per shape as Box2D v3 sizes them: the tight box (shape box grown by
/// the speculative distance 0.02) grown by min(0.05, 0.125 × extent), a static body's by 0.02.
/// Two shapes pair exactly while their fat boxes overlap, so the centre distance at which a
/// pair appears is derived by hand and checked just inside and just outside it.
#[test]
fn fat_margins_follow_the_shape_as_box2d_sizes_them() {
    let spec = SPECULATIVE_DISTANCE;
    let margin = |extent: f32| (FAT_MARGIN_FRACTION * extent).min(MAX_FAT_MARGIN);
    // Hand values of the rule for the radii below: 0.0125, 0.025, 0.05 (capped), 0.05.
    for (r, m) in [(0.1f32, 0.0125f32), (0.2, 0.025), (1.0, 0.05), (4.0, 0.05)] {
        assert!((margin(r) - m).abs() < 1e-7);
        let half = r + spec + m;
        // Against a static circle of the same radius: its fat margin is the speculative distance.
        for (scale, kind_b) in [
            (2.0 * half, BodyKind::Dynamic),
            (half + r + spec + spec, BodyKind::Static),
        ] {
            for (d, want) in [(scale * 0.999, 1), (scale * 1.001, 0)] {
                let mut w = World::new(solver::SolverSettings {
                    gravity: Vec2::ZERO,
                    ..Default::default()
                })
                .unwrap();
                dynamic(&mut w, Vec2::ZERO, Shape::circle(r));
                w.add_body(&BodyDef::new(
                    kind_b,
                    Transform::from_translation(Vec2::new(d, 0.0)),
                    Shape::circle(r),
                ))
                .unwrap();
                w.step(DT, 4).unwrap();
                w.check_invariants(true).unwrap();
                assert_eq!(w.pair_count(), want, "radius {r}, {kind_b:?} at {d}");
                // Apart by more than the speculative distance: no contact, nothing moved.
                assert_eq!(w.contact_count(), 0);
            }
        }
    }
    // A box of half-width 0.125 (the tumbler's): extent √2 · 0.125, margin ≈ 0.0221.
    let m = margin(0.125 * 2f32.sqrt());
    assert!((m - 0.022_097).abs() < 1e-6);
}

/// Runs a small spinner: a clockwise chain loop of `radius` (one-sided, facing in, built with
/// [`World::add_chain`] as a level would be), a kinematic bar below its centre turning at
/// `spin` rad/s, and `count` circles, capsules and boxes dropped in; returns how many dynamic
/// bodies are outside the ring after `n` steps.
fn chain_spinner_escapes(radius: f32, spin: f32, count: usize, n: usize) -> usize {
    let mut w = World::default();
    let center = Vec2::new(0.0, radius);
    let points: Vec<Vec2> = (0..180)
        .map(|i| {
            let a = -(i as f32) * core::f32::consts::TAU / 180.0;
            center + Vec2::new(a.cos(), a.sin()) * radius
        })
        .collect();
    let ring = Chain::closed(&points).unwrap();
    let mut def = ChainDef::new(&ring);
    def.material.friction = 0.1;
    w.add_chain(&def).unwrap();
    let bar = Polygon::make_box(0.2, 0.5 * radius)
        .unwrap()
        .inflated(0.1)
        .unwrap();
    let mut def = BodyDef::new(
        BodyKind::Kinematic,
        Transform::from_translation(Vec2::new(0.0, 0.5 * radius)),
        Shape::Polygon(bar),
    );
    def.angular_velocity = spin;
    def.material.friction = 0.0;
    w.add_body(&def).unwrap();
    let shapes = [
        Shape::Capsule(Capsule::new(Vec2::new(-0.25, 0.0), Vec2::new(0.25, 0.0), 0.25).unwrap()),
        Shape::circle(0.35),
        boxed(0.35, 0.35),
    ];
    // A grid of 0.5 m cells over the ring's disc, less a metre at the rim, filled from the
    // bottom up.
    let k = 2 * radius as i32;
    let cells = (-k..k)
        .flat_map(|row| (-k..k).map(move |col| (row, col)))
        .map(|(row, col)| center + Vec2::new(col as f32, row as f32) * 0.5)
        .filter(|p| p.distance(center) < radius - 1.0);
    let mut ids = Vec::new();
    for (i, p) in cells.take(count).enumerate() {
        let mut d = BodyDef::new(BodyKind::Dynamic, Transform::from_translation(p), shapes[i % 3]);
        d.material = Material {
            density: 0.25,
            friction: 0.1,
            restitution: 0.1,
        };
        ids.push(w.add_body(&d).unwrap());
    }
    assert_eq!(ids.len(), count, "room for {count} bodies");
    for _ in 0..n {
        w.step(DT, 4).unwrap();
    }
    ids.iter()
        .filter(|&&id| w.transform(id).unwrap().p.distance(center) > radius)
        .count()
}

/// The spinner on a one-sided chain ring (Box2D's benchmark scene, made small): bodies the
/// bar flings into the ring at tens of metres a second must all stay inside. The continuous
/// phase's one-sided rule once skipped every sweep that ended with the body's centroid still
/// in front of the segment, and a ball the solver left 80 % of its radius deep in the face
/// crossed it the next step.
#[test]
fn a_spinner_in_a_chain_ring_keeps_every_body_inside() {
    // Each of these let 1 or 2 bodies out in 300 steps with the old rule (measured).
    for (radius, spin, count) in [(14.0f32, 12.0f32, 600), (20.0, 16.0, 600)] {
        let out = chain_spinner_escapes(radius, spin, count, 300);
        assert_eq!(
            out, 0,
            "ring {radius} m, bar at {spin} rad/s, {count} bodies: {out} left the ring"
        );
    }
}

/// The speculative margin follows the pair's relative speed: 0.02 m plus the distance the two
/// can close in the step, `|vB − vA| + |ωA|·reachA + |ωB|·reachB` times `dt`. Two half-metre
/// boxes 0.05 m apart (no gravity): moving side by side at 3 m/s they close nothing, their
/// margin stays 0.02 and their pair has no point (the sum of speeds, 6 m/s, gave 0.12 and a
/// constraint); closing at 3 m/s the margin is 0.02 + 3/60 = 0.07 > 0.05, and the speculative
/// point stops them before they touch.
#[test]
fn the_speculative_margin_follows_the_relative_speed() {
    for (va, vb, closing) in [(3.0f32, 3.0f32, false), (1.5, -1.5, true)] {
        let mut w = World::new(solver::SolverSettings {
            gravity: Vec2::ZERO,
            ..Default::default()
        })
        .unwrap();
        let mut add = |x: f32, v: f32| {
            let mut d = BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(Vec2::new(x, 0.0)),
                boxed(0.25, 0.25),
            );
            // Side by side: both up; closing: towards each other along x.
            d.linear_velocity = if closing {
                Vec2::new(v, 0.0)
            } else {
                Vec2::new(0.0, v)
            };
            w.add_body(&d).unwrap()
        };
        let (a, b) = (add(0.0, va), add(0.55, vb));
        w.step(DT, 4).unwrap();
        assert_eq!(w.pair_count(), 1, "the fat boxes overlap: the pair exists");
        let touching = w.contact(a, b).unwrap().is_some();
        assert_eq!(
            touching, closing,
            "closing {closing}: a speculative constraint iff closing"
        );
        let gap = w.transform(b).unwrap().p.x - w.transform(a).unwrap().p.x - 0.5;
        if closing {
            assert!(gap > -0.005 && gap < 0.05, "stopped before touching: gap {gap}");
            assert!(w.body(a).unwrap().linear_velocity.x.abs() < 1.5);
        } else {
            assert!((gap - 0.05).abs() < 1e-5, "side by side the gap stays: {gap}");
        }
    }
}

/// A body fired at a one-sided chain floor from its front side never ends behind it: the
/// continuous phase's one-sided rule (Box2D's) sweeps every body that comes in deep and
/// skips only those that start behind or slide along. Circles, boxes and capsules at scales
/// 0.01 to 100, fired down at 1 to 300 m/s at random angles, starting on the floor (exactly
/// touching, a few ulps above or below) or up to ten sizes above it; no gravity, 10 steps.
fn p_fired_at_a_chain_floor(seed: u64, scale: u8, start: u8) -> TestResult {
    let s = [0.01f32, 1.0, 100.0][scale as usize % 3];
    let mut rng = common::Rng(seed);
    let mut w = World::new(solver::SolverSettings {
        gravity: Vec2::ZERO,
        ..Default::default()
    })
    .unwrap();
    // Front side up: the right of point1 → point2 when walking in −x.
    let floor = ChainSegment::lone(Vec2::new(1000.0 * s, 0.0), Vec2::new(-1000.0 * s, 0.0)).unwrap();
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::IDENTITY,
        Shape::ChainSegment(floor),
    ))
    .unwrap();
    let size = rng.range(0.05, 1.0) * s;
    let shape = match rng.index(3) {
        0 => Shape::circle(size),
        1 => boxed(size, rng.range(0.3, 1.0) * size),
        _ => Shape::Capsule(Capsule::new(Vec2::new(-size, 0.0), Vec2::new(size, 0.0), 0.5 * size).unwrap()),
    };
    let angle = rng.range(-1.5, 1.5);
    let xf = Transform::new(Vec2::ZERO, angle);
    // The lowest point of the shape at that angle, to place it on the floor.
    let bottom = shape.aabb(xf).min.y;
    let above = match start % 4 {
        0 => 0.0,
        1 => 4.0 * f32::EPSILON * s,
        2 => -4.0 * f32::EPSILON * s,
        _ => rng.range(0.0, 10.0) * size,
    };
    let y = -bottom + above;
    // At most the world's speed limit (a faster velocity is refused at the door).
    let speed = (rng.range(1.0, 300.0) * s).min(w.settings().max_linear_speed);
    let heading = rng.range(-3.0, -0.1);
    let mut d = BodyDef::new(BodyKind::Dynamic, Transform::new(Vec2::new(0.0, y), angle), shape);
    d.linear_velocity = Vec2::new(heading.cos(), heading.sin()) * speed;
    d.angular_velocity = rng.range(-20.0, 20.0);
    let b = w.add_body(&d).unwrap();
    for _ in 0..10 {
        if w.step(DT, 4).is_err() {
            return TestResult::error("step failed");
        }
        let c = w.body(b).unwrap().center();
        if c.y < 0.0 {
            return TestResult::error(format!(
                "centre behind the floor: {c:?}, size {size}, speed {speed}"
            ));
        }
    }
    TestResult::passed()
}

#[test]
fn prop_bodies_fired_at_a_chain_floor_stay_in_front() {
    QuickCheck::new()
        .tests(4000)
        .quickcheck(p_fired_at_a_chain_floor as fn(u64, u8, u8) -> TestResult);
}

/// Cases the property found: a box starting exactly on the floor, tilted 45° and skimming
/// it at 283 m/s, sinks to its core in the first step; the core's sweep then starts touching
/// (Box2D ignores such a hit) and the box left behind the floor in the second. 18 of 40 000
/// generated cases failed so before the one-sided core rule, 0 after.
#[test]
fn a_box_skimming_a_chain_floor_does_not_pass_it() {
    for (seed, scale, start) in [
        (14034698757321262106u64, 4u8, 0u8),
        (733u64.wrapping_mul(0x9e37_79b9_7f4a_7c15), 1, 0),
    ] {
        let r = p_fired_at_a_chain_floor(seed, scale, start);
        assert!(!r.is_failure() && !r.is_error(), "seed {seed}: {r:?}");
    }
}
