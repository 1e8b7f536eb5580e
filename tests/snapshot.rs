//! World snapshots: a restored world continues bit for bit as the original (checked against
//! the original's own continuation, step by step, whatever the state at the snapshot), and
//! bytes that are truncated, corrupted, of another version or hostile are an error, never a
//! panic or a broken world.
#![cfg(feature = "solver")]

mod common;

use collide2d::geometry::Chain;
use collide2d::{
    BodyDef, BodyId, BodyKind, Capsule, ChainDef, Circle, DistanceJoint, JointDef, JointKind, Polygon,
    RevoluteJoint, Shape, ShapeDef, SnapshotError, Transform, Vec2, WeldJoint, World, SNAPSHOT_HEADER_BYTES,
};
use common::Rng;

/// A scene with every kind of state a step keeps: a chain ground and a static box, a pile of
/// boxes, circles and capsules that settles and sleeps, a body of three shapes, a sensor, a
/// kinematic platform, a bullet fired at a wall, and a body removed mid-run (a free slot).
fn scene() -> (World, Vec<BodyId>) {
    let mut w = World::default();
    let ground = Chain::open(&[
        Vec2::new(-20.0, 2.0),
        Vec2::new(-12.0, 0.0),
        Vec2::new(12.0, 0.0),
        Vec2::new(20.0, 2.0),
    ])
    .unwrap();
    w.add_chain(&ChainDef::new(&ground)).unwrap();
    let wall = Shape::Polygon(Polygon::make_box(0.1, 3.0).unwrap());
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(Vec2::new(14.0, 3.0)),
        wall,
    ))
    .unwrap();
    let mut ids = Vec::new();
    for k in 0..60 {
        let (row, col) = (k / 10, k % 10);
        let p = Vec2::new(-5.0 + col as f32 * 0.9 + 0.2 * (row % 2) as f32, 0.5 + row as f32);
        let shape = match k % 3 {
            0 => Shape::Polygon(Polygon::make_box(0.35, 0.3).unwrap()),
            1 => Shape::Circle(Circle::new(Vec2::ZERO, 0.35).unwrap()),
            _ => Shape::Capsule(Capsule::new(Vec2::new(-0.25, 0.0), Vec2::new(0.25, 0.0), 0.2).unwrap()),
        };
        let mut d = BodyDef::new(BodyKind::Dynamic, Transform::new(p, 0.2 * k as f32), shape);
        d.material.restitution = 0.1 * (k % 3) as f32;
        ids.push(w.add_body(&d).unwrap());
    }
    // A body of three shapes.
    let mut d = BodyDef::new(
        BodyKind::Dynamic,
        Transform::new(Vec2::new(6.0, 4.0), 0.3),
        Shape::Polygon(Polygon::make_box(0.5, 0.1).unwrap()),
    );
    d.material.friction = 0.3;
    let multi = w.add_body(&d).unwrap();
    w.add_shape(
        multi,
        &Shape::Circle(Circle::new(Vec2::new(0.6, 0.0), 0.2).unwrap()),
    )
    .unwrap();
    let mut side = ShapeDef::new(Shape::Capsule(
        Capsule::new(Vec2::new(-0.6, 0.0), Vec2::new(-0.6, 0.4), 0.1).unwrap(),
    ));
    side.material.friction = 0.9;
    w.add_shape_def(multi, &side).unwrap();
    ids.push(multi);
    // A sensor the pile falls through, a kinematic platform, a bullet.
    let mut s = BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(Vec2::new(-2.0, 2.0)),
        Shape::Polygon(Polygon::make_box(2.0, 1.0).unwrap()),
    );
    s.sensor = true;
    ids.push(w.add_body(&s).unwrap());
    let mut k = BodyDef::new(
        BodyKind::Kinematic,
        Transform::from_translation(Vec2::new(9.0, 1.0)),
        Shape::Polygon(Polygon::make_box(1.0, 0.1).unwrap()),
    );
    k.linear_velocity = Vec2::new(0.0, 0.5);
    k.angular_velocity = 0.3;
    ids.push(w.add_body(&k).unwrap());
    let mut b = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(Vec2::new(0.0, 8.0)),
        Shape::Circle(Circle::new(Vec2::ZERO, 0.05).unwrap()),
    );
    b.bullet = true;
    b.linear_velocity = Vec2::new(300.0, -2.0);
    b.gravity_scale = 0.0;
    ids.push(w.add_body(&b).unwrap());
    // Joints: a hanging chain of five hinged links (the last one breakable), a spring, a
    // weld, and a joint removed with its body.
    let top = w
        .add_body(&BodyDef::new(
            BodyKind::Static,
            Transform::from_translation(Vec2::new(-14.0, 9.0)),
            Shape::circle(0.1),
        ))
        .unwrap();
    let mut prev = top;
    for i in 0..5 {
        let x = -14.0 + 0.3 + 0.6 * i as f32;
        let link = w
            .add_body(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(Vec2::new(x, 9.0)),
                Shape::rect(0.3, 0.05),
            ))
            .unwrap();
        let (xa, xb) = (w.transform(prev).unwrap(), w.transform(link).unwrap());
        let mut def = JointDef::new(JointKind::Revolute(RevoluteJoint::default()), prev, link)
            .at_world_anchor(Vec2::new(x - 0.3, 9.0), xa, xb);
        if i == 4 {
            def.force_threshold = 0.5;
        }
        w.add_joint(&def).unwrap();
        ids.push(link);
        prev = link;
    }
    let spring = JointKind::Distance(DistanceJoint {
        length: 1.0,
        enable_spring: true,
        hertz: 2.0,
        damping_ratio: 0.1,
        ..DistanceJoint::default()
    });
    w.add_joint(&JointDef::new(spring, ids[50], ids[51])).unwrap();
    w.add_joint(&JointDef::new(
        JointKind::Weld(WeldJoint::default()),
        ids[52],
        ids[53],
    ))
    .unwrap();
    w.add_joint(&JointDef::new(JointKind::Filter, ids[7], ids[8]))
        .unwrap();
    let doomed = ids.remove(7);
    w.remove_body(doomed).unwrap();
    (w, ids)
}

/// Everything a game reads from a world, as bit patterns: every body's pose, velocities and
/// sleep state, the touching contacts with their manifolds, and the last step's events.
fn fingerprint(w: &World) -> Vec<u64> {
    let mut out = Vec::new();
    let mut f = |x: f32| out.push(u64::from(x.to_bits()));
    for id in w.body_ids() {
        let xf = w.transform(id).unwrap();
        let v = w.linear_velocity(id).unwrap();
        for x in [
            xf.p.x,
            xf.p.y,
            xf.q.c,
            xf.q.s,
            v.x,
            v.y,
            w.angular_velocity(id).unwrap(),
        ] {
            f(x);
        }
        f(if w.is_awake(id).unwrap() { 1.0 } else { 0.0 });
    }
    let events = w.begin_events().iter().chain(w.end_events()).copied();
    for c in w.contacts().chain(events) {
        out.push(u64::from(c.body_a.index) << 32 | u64::from(c.body_b.index));
        out.push(u64::from(c.shape_a.index) << 32 | u64::from(c.shape_b.index));
        let m = c.manifold;
        out.push(u64::from(m.count));
        for x in [m.normal.x, m.normal.y] {
            out.push(u64::from(x.to_bits()));
        }
        for p in &m.points[..m.count as usize] {
            for x in [p.point.x, p.point.y, p.depth] {
                out.push(u64::from(x.to_bits()));
            }
            out.push(u64::from(p.id));
        }
    }
    for e in w.joint_events() {
        out.push(u64::from(e.joint.index) << 32 | e.kind as u64);
        out.push(u64::from(e.force.x.to_bits()) << 32 | u64::from(e.torque.to_bits()));
    }
    for e in w.sensor_begin_events().iter().chain(w.sensor_end_events()) {
        out.push(u64::from(e.sensor.index) << 32 | u64::from(e.visitor.index));
    }
    out.push(w.body_count() as u64);
    out.push(w.awake_body_count() as u64);
    out.push(w.contact_count() as u64);
    out
}

fn step(w: &mut World) {
    w.step(1.0 / 60.0, 4).unwrap();
}

#[test]
fn restored_world_continues_bit_for_bit() {
    // Snapshots at the first step, while the bullet flies, while the pile tumbles and after
    // it sleeps; each restored world (fresh, and into a reused world) is stepped beside the
    // original and compared after every step.
    let (mut original, ids) = scene();
    let mut reused = World::default();
    let mut checked = 0;
    let mut slept = false;
    for at in [0usize, 1, 3, 20, 90, 240] {
        while checked < at {
            step(&mut original);
            checked += 1;
        }
        let bytes = original.snapshot_to_vec().unwrap();
        assert_eq!(bytes.len(), original.snapshot_size());
        let mut fresh = World::restore(&bytes).unwrap();
        reused.restore_into(&bytes).unwrap();
        fresh.check_invariants(false).unwrap();
        assert_eq!(
            fingerprint(&fresh),
            fingerprint(&original),
            "at {at}, before stepping"
        );
        // The restored world writes the same bytes.
        assert_eq!(fresh.snapshot_to_vec().unwrap(), bytes, "at {at}");
        let mut twin = original.clone();
        for k in 0..40 {
            step(&mut twin);
            step(&mut fresh);
            step(&mut reused);
            let want = fingerprint(&twin);
            assert_eq!(fingerprint(&fresh), want, "snapshot at {at}, step {k}");
            assert_eq!(fingerprint(&reused), want, "restore_into at {at}, step {k}");
        }
        slept |= ids.iter().any(|&id| !original.is_awake(id).unwrap());
        // The original's ids name the same bodies in the restored world.
        assert_eq!(fresh.transform(ids[0]), twin.transform(ids[0]));
    }
    assert!(
        slept,
        "the scene never put a body to sleep: the sleeping state went unchecked"
    );
}

#[test]
fn snapshot_reports_the_size_it_needs() {
    let (w, _) = scene();
    let n = w.snapshot_size();
    let mut short = vec![0u8; n - 1];
    assert_eq!(
        w.snapshot(&mut short),
        Err(SnapshotError::BufferTooSmall { needed: n })
    );
    let mut tiny = [0u8; 3];
    assert_eq!(
        w.snapshot(&mut tiny),
        Err(SnapshotError::BufferTooSmall { needed: n })
    );
    let mut exact = vec![0u8; n + 10];
    assert_eq!(w.snapshot(&mut exact), Ok(n));
}

#[test]
fn damaged_bytes_are_refused_and_leave_the_world_alone() {
    let (mut w, ids) = scene();
    for _ in 0..30 {
        step(&mut w);
    }
    let bytes = w.snapshot_to_vec().unwrap();
    let (mut target, _) = scene();
    let before = fingerprint(&target);
    // Every truncation.
    for len in 0..bytes.len() {
        let r = target.restore_into(&bytes[..len]);
        let want = if len < SNAPSHOT_HEADER_BYTES || len < bytes.len() {
            SnapshotError::Truncated
        } else {
            unreachable!()
        };
        assert_eq!(r, Err(want), "truncated to {len}");
    }
    assert_eq!(fingerprint(&target), before);
    // A trailing byte, another magic, another format, another crate version.
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(target.restore_into(&longer), Err(SnapshotError::ChecksumMismatch));
    let mut other = bytes.clone();
    other[0] = b'X';
    assert_eq!(target.restore_into(&other), Err(SnapshotError::NotASnapshot));
    for at in [8, 12, 14, 16, 18] {
        let mut other = bytes.clone();
        other[at] ^= 1;
        assert_eq!(
            target.restore_into(&other),
            Err(SnapshotError::UnsupportedVersion),
            "byte {at}"
        );
    }
    // Every single-bit flip after the header: the checksum catches it.
    let mut rng = Rng(7);
    for _ in 0..3000 {
        let mut bad = bytes.clone();
        let at = SNAPSHOT_HEADER_BYTES + rng.index(bytes.len() - SNAPSHOT_HEADER_BYTES);
        bad[at] ^= 1 << rng.index(8);
        assert_eq!(
            target.restore_into(&bad),
            Err(SnapshotError::ChecksumMismatch),
            "byte {at}"
        );
    }
    assert_eq!(fingerprint(&target), before);
    // The original's snapshot still restores into the world the refusals left alone.
    target.restore_into(&bytes).unwrap();
    assert_eq!(target.transform(ids[3]), w.transform(ids[3]));
}

/// Recomputes the header's checksum (its last eight bytes) after the stores were edited, as
/// a hostile writer would.
fn reseal(bytes: &mut [u8]) {
    let sum = collide2d_checksum(&bytes[SNAPSHOT_HEADER_BYTES..]);
    bytes[36..44].copy_from_slice(&sum.to_le_bytes());
}

/// The snapshot checksum, written out from its documentation (a 64-bit multiply-rotate hash
/// over little-endian words, then the remaining bytes), independently of the crate's code.
fn collide2d_checksum(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = 0x243F_6A88_85A3_08D3 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = (h ^ u64::from_le_bytes(c.try_into().unwrap()))
            .wrapping_mul(K)
            .rotate_left(29);
    }
    for &b in chunks.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(K).rotate_left(29);
    }
    h ^ (h >> 32)
}

#[test]
fn hostile_bytes_with_a_good_checksum_never_break_a_world() {
    // Random edits of the stores (bytes set, runs of bytes overwritten, counts changed), the
    // checksum recomputed: restore must refuse them or give a world that passes its own
    // checks and steps without a panic or a non-finite body.
    let (mut w, _) = scene();
    for _ in 0..25 {
        step(&mut w);
    }
    let bytes = w.snapshot_to_vec().unwrap();
    {
        let mut same = bytes.clone();
        reseal(&mut same);
        assert_eq!(same, bytes, "the test's checksum differs from the crate's");
    }
    let mut rng = Rng(99);
    let (mut refused, mut accepted) = (0, 0);
    let cases = if cfg!(debug_assertions) { 400 } else { 4000 };
    for _ in 0..cases {
        let mut bad = bytes.clone();
        for _ in 0..1 + rng.index(4) {
            let at = SNAPSHOT_HEADER_BYTES + rng.index(bytes.len() - SNAPSHOT_HEADER_BYTES);
            match rng.index(4) {
                0 => bad[at] = rng.index(256) as u8,
                1 => bad[at] ^= 1 << rng.index(8),
                2 => {
                    let v = [0u32, 1, 2, u32::MAX, u32::MAX - 1, 0x7FFF_FFFF, 1000][rng.index(7)];
                    let end = (at + 4).min(bad.len());
                    bad[at..end].copy_from_slice(&v.to_le_bytes()[..end - at]);
                }
                _ => {
                    let v = [f32::NAN, f32::INFINITY, 1e30, -0.0, 0.0][rng.index(5)];
                    let end = (at + 4).min(bad.len());
                    bad[at..end].copy_from_slice(&v.to_bits().to_le_bytes()[..end - at]);
                }
            }
        }
        reseal(&mut bad);
        match World::restore(&bad) {
            Err(e) => {
                assert!(
                    matches!(e, SnapshotError::Corrupt | SnapshotError::OutOfMemory),
                    "{e:?}"
                );
                refused += 1;
            }
            Ok(mut r) => {
                accepted += 1;
                r.check_invariants(false).unwrap();
                for _ in 0..5 {
                    let _ = r.step(1.0 / 60.0, 4);
                    r.check_invariants(false).unwrap();
                }
                let _ = r.snapshot_to_vec().unwrap();
            }
        }
    }
    eprintln!("hostile snapshots: {refused} refused, {accepted} accepted and stepped");
    assert!(refused > 0 && accepted > 0);
}

#[test]
fn an_empty_world_round_trips() {
    let w = World::default();
    let bytes = w.snapshot_to_vec().unwrap();
    let r = World::restore(&bytes).unwrap();
    assert_eq!(r.body_count(), 0);
    assert_eq!(r.snapshot_to_vec().unwrap(), bytes);
}

#[test]
fn snapshot_and_restore_at_random_steps_change_nothing() {
    // The determinism scene stepped 300 times straight, and again with the world replaced
    // by a restore of its own snapshot at random steps (fresh worlds and `restore_into`
    // alternately): the same bits at the end.
    let (mut straight, ids) = common::determinism_scene(0);
    for _ in 0..300 {
        step(&mut straight);
    }
    let want = common::hash_transforms(&straight, &ids);
    let mut rng = Rng(2024);
    for round in 0..3 {
        let (mut w, ids) = common::determinism_scene(0);
        let mut spare = World::default();
        for k in 0..300 {
            if rng.index(20) == 0 {
                let bytes = w.snapshot_to_vec().unwrap();
                if k % 2 == 0 {
                    w = World::restore(&bytes).unwrap();
                } else {
                    spare.restore_into(&bytes).unwrap();
                    std::mem::swap(&mut w, &mut spare);
                }
            }
            step(&mut w);
        }
        assert_eq!(common::hash_transforms(&w, &ids), want, "round {round}");
    }
}
