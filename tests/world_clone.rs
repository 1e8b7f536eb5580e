//! `World: Clone` continues bit for bit: a clone taken at any point of a busy scene (sleeping
//! islands, contacts mid-touch, fast bodies in the continuous phase, sensors, chains,
//! multi-shape bodies, bodies added and removed) and stepped N times equals the original
//! stepped N times — every body, every event, every contact.
#![cfg(feature = "solver")]
use collide2d::*;

mod common;

const DT: f32 = 1.0 / 60.0;

/// Everything observable about a world, bit for bit.
fn state(w: &World) -> Vec<u32> {
    let mut out = Vec::new();
    let f = |out: &mut Vec<u32>, x: f32| out.push(x.to_bits());
    for id in w.body_ids() {
        let b = w.body(id).unwrap();
        out.extend([id.index, id.generation, u32::from(w.is_awake(id).unwrap())]);
        for x in [
            b.transform.p.x,
            b.transform.p.y,
            b.transform.q.c,
            b.transform.q.s,
            b.linear_velocity.x,
            b.linear_velocity.y,
            b.angular_velocity,
        ] {
            f(&mut out, x);
        }
    }
    for e in w.begin_events().iter().chain(w.end_events()) {
        out.extend([e.shape_a.index, e.shape_b.index, e.manifold.count]);
        f(&mut out, e.manifold.normal.x);
    }
    for e in w.sensor_begin_events().iter().chain(w.sensor_end_events()) {
        out.extend([e.sensor_shape.index, e.visitor_shape.index]);
    }
    for c in w.contacts() {
        out.extend([c.shape_a.index, c.shape_b.index, c.manifold.count]);
        for p in c.manifold.points() {
            f(&mut out, p.point.x);
            f(&mut out, p.depth);
        }
    }
    out.push(w.awake_body_count() as u32);
    out.push(w.pair_count() as u32);
    out
}

/// A busy scene: a chain floor, a pile of boxes, circles and two-shape bodies, a sensor
/// zone, a thin wall and a bullet.
fn scene(seed: u64) -> (World, Vec<BodyId>) {
    let mut rng = common::Rng(seed);
    let mut w = World::default();
    let floor = Chain::closed(&[
        Vec2::new(-20.0, -1.0),
        Vec2::new(20.0, -1.0),
        Vec2::new(20.0, 0.0),
        Vec2::new(-20.0, 0.0),
    ])
    .unwrap();
    w.add_chain(&ChainDef::new(&floor)).unwrap();
    let wall = BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(Vec2::new(12.0, 3.0)),
        Shape::rect(0.05, 3.0),
    );
    w.add_body(&wall).unwrap();
    let mut zone = BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(Vec2::new(-5.0, 1.0)),
        Shape::rect(2.0, 1.0),
    );
    zone.sensor = true;
    w.add_body(&zone).unwrap();
    let mut ids = Vec::new();
    for i in 0..60 {
        let at = Transform::new(
            Vec2::new(rng.range(-8.0, 8.0), 1.0 + 0.7 * i as f32),
            rng.range(0.0, 3.0),
        );
        let shape = if i % 3 == 0 {
            Shape::circle(0.3)
        } else {
            Shape::rect(0.3, 0.2)
        };
        let id = w.add_body(&BodyDef::new(BodyKind::Dynamic, at, shape)).unwrap();
        if i % 7 == 0 {
            w.add_shape(id, &Shape::circle_at(Vec2::new(0.4, 0.0), 0.15))
                .unwrap();
        }
        ids.push(id);
    }
    let mut bullet = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(Vec2::new(0.0, 4.0)),
        Shape::circle(0.1),
    );
    bullet.linear_velocity = Vec2::new(150.0, 0.0);
    bullet.bullet = true;
    ids.push(w.add_body(&bullet).unwrap());
    (w, ids)
}

#[test]
fn a_clone_steps_bit_for_bit_like_the_original() {
    for seed in [1, 2, 3] {
        let (mut w, mut ids) = scene(seed);
        let mut rng = common::Rng(seed + 100);
        // The clone being compared and the steps it has left.
        let mut twin: Option<(World, u32)> = None;
        let mut compared = 0;
        for step in 0..600 {
            if twin.is_none() && step % 37 == 0 {
                let copy = w.clone();
                assert_eq!(state(&copy), state(&w));
                twin = Some((copy, 45));
            }
            // The same changes to both: a kick, a removal, an addition.
            let change = |world: &mut World, ids: &mut Vec<BodyId>, rng: &mut common::Rng| {
                if step % 29 == 0 {
                    let id = ids[rng.index(ids.len())];
                    world.set_velocity(id, Vec2::new(0.0, 5.0), 1.0).unwrap();
                }
                if step == 200 {
                    world.remove_body(ids[5]).unwrap();
                }
                if step == 300 {
                    let at = Transform::from_translation(Vec2::new(2.0, 6.0));
                    let id = world.add_body(&BodyDef::new(BodyKind::Dynamic, at, Shape::rect(0.4, 0.4)));
                    ids.push(id.unwrap());
                }
            };
            let (before_ids, before_rng) = (ids.clone(), common::Rng(rng.0));
            change(&mut w, &mut ids, &mut rng);
            w.step(DT, 4).unwrap();
            if let Some((copy, left)) = twin.as_mut() {
                let (mut twin_ids, mut twin_rng) = (before_ids, before_rng);
                change(copy, &mut twin_ids, &mut twin_rng);
                copy.step(DT, 4).unwrap();
                assert_eq!(twin_ids, ids, "the same ids in both");
                assert_eq!(state(copy), state(&w), "seed {seed}, step {step}");
                compared += 1;
                *left -= 1;
                if *left == 0 {
                    twin = None;
                }
            }
            if step == 200 {
                ids.remove(5);
            }
        }
        assert!(compared > 300, "{compared}");
        // By the end most of the pile sleeps: clones were taken with islands asleep too.
        assert!(w.awake_body_count() < ids.len(), "{}", w.awake_body_count());
    }
}
