//! A character moved through a `World` with `World::move_and_push` pushes the dynamic bodies
//! it walks into and presses its weight on one it stands on: the impulse of one push against
//! the hand-derived inelastic-collision value for several masses and a force limit, a crate
//! walked across a floor, a crate too heavy for the character's force, and the weight on a
//! floating plank (velocity change `m g dt / m_b`, by hand). Rust and, in tests/c_abi.rs, C.
#![cfg(all(feature = "solver", feature = "alloc"))]
mod common;
use collide2d::*;
use common::{surface_distance, v};

const DT: f32 = 1.0 / 60.0;

fn world(gravity: Vec2) -> World {
    World::new(SolverSettings {
        gravity,
        ..SolverSettings::default()
    })
    .unwrap()
}

fn push_opts() -> MoveOptions {
    MoveOptions {
        time_step: DT,
        ..MoveOptions::default()
    }
}

/// A free circle of mass 2 (no gravity) hit head-on by a circle mover at 3 m/s: one push
/// gives it `v m / (m + 2)` for a character of mass `m` (3 for an infinite mass), and at most
/// `max_force × dt / 2` under a force limit.
#[test]
fn one_push_is_the_inelastic_collision_of_the_two_masses() {
    let radius = 0.5;
    let density = 2.0 / (core::f32::consts::PI * radius * radius);
    let mover = Shape::circle(radius);
    for (mass, max_force, expected) in [
        (2.0f32, f32::INFINITY, 1.5f32),
        (6.0, f32::INFINITY, 2.25),
        (f32::INFINITY, f32::INFINITY, 3.0),
        (2.0, 60.0, 0.5),
        (0.0, f32::INFINITY, 0.0),
    ] {
        let mut w = world(Vec2::ZERO);
        let mut def = BodyDef::new(BodyKind::Dynamic, Transform::IDENTITY, Shape::circle(radius));
        def.material.density = density;
        let ball = w.add_body(&def).unwrap();
        let speed = v(3.0, 0.0);
        // The mover 0.015 from the ball's surface: it moves in and is stopped at the skin.
        let at = Transform::from_translation(v(-1.015, 0.0));
        let push = MoverPush { mass, max_force };
        let r = w
            .move_and_push(
                &mover,
                at,
                speed * DT,
                speed,
                &push_opts(),
                &QueryFilter::ALL,
                &push,
            )
            .unwrap();
        assert!(r.contact_count >= 1, "{r:?}");
        let got = w.body(ball).unwrap().linear_velocity;
        assert!(
            (got.x - expected).abs() < 1e-4 && got.y.abs() < 1e-5,
            "mass {mass} max force {max_force}: {got:?}, expected {expected}"
        );
        assert_eq!(w.body(ball).unwrap().angular_velocity, 0.0);
    }
}

fn floor_and_crate(half: f32, density: f32) -> (World, BodyId) {
    let mut w = world(v(0.0, -10.0));
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(v(0.0, -0.5)),
        Shape::rect(50.0, 0.5),
    ))
    .unwrap();
    let mut def = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(v(2.0, half)),
        Shape::rect(half, half),
    );
    def.material.density = density;
    def.material.friction = 0.6;
    let crate_id = w.add_body(&def).unwrap();
    for _ in 0..30 {
        w.step(DT, 4).unwrap();
    }
    (w, crate_id)
}

/// Walks a box character right at 3 m/s for `frames` frames (stepping the world first each
/// frame); returns the character's and the crate's x, and the smallest clearance seen.
fn walk(w: &mut World, crate_id: BodyId, push: &MoverPush, frames: usize) -> (f32, f32, f64) {
    let mover = Shape::rect(0.3, 0.5);
    let mut p = v(0.0, 0.51);
    let mut vel = Vec2::ZERO;
    let mut closest = f64::INFINITY;
    for _ in 0..frames {
        w.step(DT, 4).unwrap();
        vel = v(3.0, vel.y - 10.0 * DT);
        let r = w
            .move_and_push(
                &mover,
                Transform::from_translation(p),
                vel * DT,
                vel,
                &push_opts(),
                &QueryFilter::ALL,
                push,
            )
            .unwrap();
        p = r.position;
        vel = r.velocity;
        let c = w.body(crate_id).unwrap();
        let crate_shape = *w.shape(crate_id).unwrap();
        closest = closest.min(surface_distance(
            &crate_shape,
            c.transform,
            &mover,
            Transform::from_translation(p),
        ));
    }
    (p.x, w.body(crate_id).unwrap().transform.p.x, closest)
}

#[test]
fn a_character_walks_a_crate_across_the_floor() {
    let (mut w, crate_id) = floor_and_crate(0.5, 1.0);
    let (character, crate_x, closest) = walk(&mut w, crate_id, &MoverPush::default(), 120);
    eprintln!("pushing for 2 s: character at {character:.3}, crate at {crate_x:.3}, closest {closest:.4}");
    // Two seconds at 3 m/s from 0: the crate (starting 1.2 ahead of the character's front)
    // goes ahead of it most of the way.
    assert!(character > 4.5, "character {character}");
    assert!(crate_x > character + 0.7, "crate {crate_x} character {character}");
    assert!(closest > -1e-3, "the character went into the crate: {closest}");
    // Without pushing, the crate stays and the character stops at it.
    let (mut w, crate_id) = floor_and_crate(0.5, 1.0);
    let none = MoverPush {
        mass: 0.0,
        ..MoverPush::default()
    };
    let (character, crate_x, _) = walk(&mut w, crate_id, &none, 120);
    assert!((crate_x - 2.0).abs() < 1e-3, "crate {crate_x}");
    assert!(character < 1.2, "character {character}");
}

#[test]
fn a_crate_heavier_than_the_force_limit_does_not_move() {
    // 1 × 1 crate of 1000 kg: friction holds it with 0.6 × 1000 × 10 = 6000 N.
    let (mut w, crate_id) = floor_and_crate(0.5, 1000.0);
    let weak = MoverPush {
        mass: 80.0,
        max_force: 2000.0,
    };
    // (The soft contact lets a held crate creep by millimetres.)
    let (_, weak_x, _) = walk(&mut w, crate_id, &weak, 60);
    let (mut w, crate_id) = floor_and_crate(0.5, 1000.0);
    let (_, strong_x, _) = walk(&mut w, crate_id, &MoverPush::default(), 60);
    eprintln!("1000 kg crate after 1 s: pushed with at most 2000 N {weak_x:.4}, unlimited {strong_x:.4}");
    assert!(
        (weak_x - 2.0).abs() < 5e-3,
        "weak push moved the crate to {weak_x}"
    );
    assert!(
        strong_x > 2.1,
        "an unlimited 80 kg push left the crate at {strong_x}"
    );
}

#[test]
fn standing_on_a_dynamic_body_presses_it_with_the_character_weight() {
    // A 2 × 0.2 plank of density 10 (mass 4) floating with gravity scale 0; gravity -10.
    let mut w = world(v(0.0, -10.0));
    let mut def = BodyDef::new(BodyKind::Dynamic, Transform::IDENTITY, Shape::rect(1.0, 0.1));
    def.material.density = 10.0;
    def.gravity_scale = 0.0;
    let plank = w.add_body(&def).unwrap();
    let mover = Shape::rect(0.3, 0.5);
    let at = Transform::from_translation(v(0.0, 0.1 + 0.5 + 0.01));
    let vel = v(0.0, -10.0 * DT);
    let push = MoverPush::default();
    let r = w
        .move_and_push(&mover, at, vel * DT, vel, &push_opts(), &QueryFilter::ALL, &push)
        .unwrap();
    assert!(
        r.on_ground && BodyId::from_bits(r.ground.user_data) == plank,
        "{r:?}"
    );
    let got = w.body(plank).unwrap().linear_velocity;
    let expected = -10.0 * 80.0 * DT / 4.0;
    assert!(
        (got.y - expected).abs() < 1e-4 && got.x.abs() < 1e-5,
        "{got:?} vs {expected}"
    );
    // Bad push settings are refused and move nothing.
    for bad in [-1.0, f32::NAN] {
        let p = MoverPush {
            mass: bad,
            ..MoverPush::default()
        };
        assert_eq!(
            w.move_and_push(&mover, at, vel * DT, vel, &push_opts(), &QueryFilter::ALL, &p),
            Err(SolverError::InvalidInput)
        );
        let p = MoverPush {
            max_force: bad,
            ..MoverPush::default()
        };
        assert_eq!(
            w.move_and_push(&mover, at, vel * DT, vel, &push_opts(), &QueryFilter::ALL, &p),
            Err(SolverError::InvalidInput)
        );
    }
    assert_eq!(w.body(plank).unwrap().linear_velocity, got);
}
