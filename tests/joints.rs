//! Joints in the World: each kind against hand-derived physics (a pendulum's period, a rod's
//! length, a slider's axis, a motor's speed, a weld's rigid pose), chains and bridges that
//! stay connected, and the bookkeeping: collide-connected, breaking, removal with a body,
//! sleeping and waking together, ids, the door's ranges.
#![cfg(feature = "solver")]

use collide2d::*;
use core::f32::consts::PI;

const DT: f32 = 1.0 / 60.0;

fn world() -> World {
    World::default()
}

fn anchor(w: &mut World, p: Vec2) -> BodyId {
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(p),
        Shape::circle(0.05),
    ))
    .unwrap()
}

fn ball(w: &mut World, p: Vec2, r: f32) -> BodyId {
    w.add_body(&BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(p),
        Shape::circle(r),
    ))
    .unwrap()
}

fn boxed(w: &mut World, p: Vec2, hx: f32, hy: f32) -> BodyId {
    w.add_body(&BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(p),
        Shape::rect(hx, hy),
    ))
    .unwrap()
}

/// World position of a joint frame's origin.
fn frame_point(w: &World, body: BodyId, local: Transform) -> Vec2 {
    w.transform(body).unwrap().apply(local.p)
}

/// Distance between the two frame origins of a joint.
fn separation(w: &World, j: JointId) -> f32 {
    let d = w.joint(j).unwrap();
    frame_point(w, d.body_a, d.local_frame_a).distance(frame_point(w, d.body_b, d.local_frame_b))
}

fn hinge(w: &mut World, a: BodyId, b: BodyId, at: Vec2) -> JointId {
    let (xa, xb) = (w.transform(a).unwrap(), w.transform(b).unwrap());
    let def = JointDef::new(JointKind::Revolute(RevoluteJoint::default()), a, b).at_world_anchor(at, xa, xb);
    w.add_joint(&def).unwrap()
}

#[test]
fn a_pendulum_swings_with_the_period_of_a_physical_pendulum() {
    // A disc of radius 0.1 on a hinge 1 m above its centre, released 0.1 rad from the
    // vertical: T = 2π √(I / (m g L)), I = m (r²/2 + L²) about the hinge.
    let mut w = world();
    let top = anchor(&mut w, Vec2::new(0.0, 5.0));
    let (len, r) = (1.0f32, 0.1f32);
    let theta0 = 0.1f32;
    let bob = ball(&mut w, Vec2::new(len * theta0.sin(), 5.0 - len * theta0.cos()), r);
    let j = hinge(&mut w, top, bob, Vec2::new(0.0, 5.0));
    let expected = 2.0 * PI * ((0.5 * r * r + len * len) / (10.0 * len)).sqrt();
    // Zero crossings of the bob's x from + to −, timed by linear interpolation.
    let mut crossings = Vec::new();
    let mut last = w.transform(bob).unwrap().p.x;
    let mut worst = 0.0f32;
    for k in 1..=600 {
        w.step(DT, 4).unwrap();
        let x = w.transform(bob).unwrap().p.x;
        if last > 0.0 && x <= 0.0 {
            crossings.push((k as f32 - 1.0 + last / (last - x)) * DT);
        }
        last = x;
        worst = worst.max(separation(&w, j));
    }
    assert!(crossings.len() >= 3, "{crossings:?}");
    let period = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f32;
    // The small-angle formula is 0.02 % short at 0.1 rad; the soft step adds a little.
    assert!(
        (period - expected).abs() < 0.01 * expected,
        "period {period}, expected {expected}"
    );
    assert!(worst < 2e-3, "anchor drifted {worst} m");
}

#[test]
fn a_chain_of_a_hundred_links_hangs_connected() {
    let mut w = world();
    let top = anchor(&mut w, Vec2::new(0.0, 20.0));
    let mut prev = top;
    let mut joints = Vec::new();
    for i in 0..100 {
        let x = 0.1 + 0.2 * i as f32;
        let link = boxed(&mut w, Vec2::new(x, 20.0), 0.1, 0.025);
        joints.push(hinge(&mut w, prev, link, Vec2::new(x - 0.1, 20.0)));
        prev = link;
    }
    let mut worst = 0.0f32;
    for _ in 0..600 {
        w.step(DT, 4).unwrap();
    }
    for &j in &joints {
        worst = worst.max(separation(&w, j));
    }
    // The soft step stretches a hanging chain: the top joint carries the whole chain's
    // weight (10 N) on a link of 0.01 kg.
    assert!(worst < 0.04, "a link came {worst} m apart");
    // Released level, the chain swings (nothing damps it); its end stays within the chain's
    // length of the top.
    let end = w.transform(prev).unwrap().p.distance(Vec2::new(0.0, 20.0));
    assert!(
        end > 10.0 && end < 20.0 + 100.0 * 0.04,
        "end {end} m from the top"
    );
}

#[test]
fn a_rigid_distance_joint_keeps_its_length_and_a_spring_oscillates_at_its_frequency() {
    let mut w = world();
    let top = anchor(&mut w, Vec2::new(0.0, 10.0));
    let bob = ball(&mut w, Vec2::new(2.0, 10.0), 0.1);
    let rod = JointKind::Distance(DistanceJoint {
        length: 2.0,
        ..DistanceJoint::default()
    });
    let j = w.add_joint(&JointDef::new(rod, top, bob)).unwrap();
    let mut worst = 0.0f32;
    for _ in 0..300 {
        w.step(DT, 4).unwrap();
        worst = worst.max((separation(&w, j) - 2.0).abs());
    }
    assert!(worst < 5e-3, "rod length off by {worst}");

    // A vertical spring without gravity: f = 1 Hz, period 1 s.
    let mut w = World::new(SolverSettings {
        gravity: Vec2::ZERO,
        ..SolverSettings::default()
    })
    .unwrap();
    let top = anchor(&mut w, Vec2::new(0.0, 10.0));
    let bob = ball(&mut w, Vec2::new(0.0, 8.5), 0.1);
    let spring = JointKind::Distance(DistanceJoint {
        length: 2.0,
        enable_spring: true,
        hertz: 1.0,
        damping_ratio: 0.0,
        ..DistanceJoint::default()
    });
    w.add_joint(&JointDef::new(spring, top, bob)).unwrap();
    let mut crossings = Vec::new();
    let mut last = w.transform(bob).unwrap().p.y - 8.0;
    for k in 1..=300 {
        w.step(DT, 4).unwrap();
        let y = w.transform(bob).unwrap().p.y - 8.0;
        if last > 0.0 && y <= 0.0 {
            crossings.push((k as f32 - 1.0 + last / (last - y)) * DT);
        }
        last = y;
    }
    let period = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f32;
    assert!(
        (period - 1.0).abs() < 0.03,
        "spring period {period} s, expected 1 s: {crossings:?}"
    );
}

#[test]
fn a_prismatic_joint_keeps_to_its_axis_its_limits_and_its_motor_speed() {
    let mut w = World::new(SolverSettings {
        gravity: Vec2::new(0.0, -10.0),
        ..SolverSettings::default()
    })
    .unwrap();
    let base = anchor(&mut w, Vec2::ZERO);
    let slider = boxed(&mut w, Vec2::ZERO, 0.2, 0.2);
    // Axis at 30° above +x; a motor at 1.5 m/s up the axis (10 N on 0.16 kg, six times the
    // weight's pull along the axis), limit 2 m. The limit is soft (60 Hz on the slider's
    // mass): the motor's push holds the slider 10 / (0.16 · (2π · 60)²) = 0.4 mm past it.
    let axis_angle = PI / 6.0;
    let kind = JointKind::Prismatic(PrismaticJoint {
        enable_motor: true,
        max_motor_force: 10.0,
        motor_speed: 1.5,
        enable_limit: true,
        lower_translation: -1.0,
        upper_translation: 2.0,
        ..PrismaticJoint::default()
    });
    let mut def = JointDef::new(kind, base, slider);
    def.local_frame_a = Transform::new(Vec2::ZERO, axis_angle);
    def.local_frame_b = Transform::new(Vec2::ZERO, axis_angle);
    w.add_joint(&def).unwrap();
    let axis = Vec2::new(axis_angle.cos(), axis_angle.sin());
    let mut off_axis = 0.0f32;
    let mut turned = 0.0f32;
    for k in 0..180 {
        w.step(DT, 4).unwrap();
        let xf = w.transform(slider).unwrap();
        off_axis = off_axis.max(xf.p.cross(axis).abs());
        turned = turned.max(xf.q.angle().abs());
        if k == 40 {
            let along = xf.p.dot(axis);
            let v = w.linear_velocity(slider).unwrap().dot(axis);
            assert!((v - 1.5).abs() < 0.01, "motor speed {v}");
            assert!((along - 1.5 * 41.0 * DT).abs() < 0.05, "travelled {along}");
        }
    }
    let along = w.transform(slider).unwrap().p.dot(axis);
    assert!((along - 2.0).abs() < 0.002, "stopped at {along}, limit 2");
    assert!(
        off_axis < 1e-3 && turned < 1e-3,
        "left the axis by {off_axis} m, turned {turned} rad"
    );
}

#[test]
fn welded_bodies_fall_and_land_as_one() {
    let mut w = world();
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::IDENTITY,
        Shape::rect(10.0, 0.5),
    ))
    .unwrap();
    let a = boxed(&mut w, Vec2::new(0.0, 3.0), 0.5, 0.25);
    let b = boxed(&mut w, Vec2::new(1.0, 3.2), 0.5, 0.25);
    let (xa, xb) = (w.transform(a).unwrap(), w.transform(b).unwrap());
    let def = JointDef::new(JointKind::Weld(WeldJoint::default()), a, b).at_world_anchor(
        Vec2::new(0.5, 3.1),
        xa,
        xb,
    );
    w.add_joint(&def).unwrap();
    let relative = xa.inv_mul(xb);
    let mut worst = (0.0f32, 0.0f32);
    let mut settled = (0.0f32, 0.0f32);
    for k in 0..240 {
        w.step(DT, 4).unwrap();
        let r = w.transform(a).unwrap().inv_mul(w.transform(b).unwrap());
        let off = (r.p.distance(relative.p), r.q.inv_mul(relative.q).angle().abs());
        worst = (worst.0.max(off.0), worst.1.max(off.1));
        if k >= 180 {
            settled = (settled.0.max(off.0), settled.1.max(off.1));
        }
    }
    // The weld is soft (60 Hz): the landing at 7 m/s bends it a little, and it springs back.
    assert!(
        worst.0 < 0.05 && worst.1 < 0.05,
        "the weld gave {worst:?} at the landing"
    );
    assert!(
        settled.0 < 2e-3 && settled.1 < 2e-3,
        "the weld rests bent by {settled:?}"
    );
    // B hangs off A's edge and the pair rests tilted on the ground as one piece.
    assert!(w.transform(a).unwrap().p.y < 1.5);
}

#[test]
fn a_wheel_joint_carries_a_car_and_its_motor_drives_it() {
    let mut w = world();
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::IDENTITY,
        Shape::rect(50.0, 0.5),
    ))
    .unwrap();
    let chassis = boxed(&mut w, Vec2::new(0.0, 1.6), 1.0, 0.2);
    let mut wheels = Vec::new();
    for x in [-0.7f32, 0.7] {
        let mut d = BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(x, 0.9)),
            Shape::circle(0.4),
        );
        d.material.friction = 0.9;
        let wheel = w.add_body(&d).unwrap();
        let kind = JointKind::Wheel(WheelJoint {
            enable_motor: true,
            max_motor_torque: 50.0,
            motor_speed: -10.0, // clockwise: drives to +x
            hertz: 5.0,
            damping_ratio: 0.7,
            ..WheelJoint::default()
        });
        let mut def = JointDef::new(kind, chassis, wheel);
        def.local_frame_a = Transform::new(Vec2::new(x, -0.7), PI / 2.0); // suspension axis: up
        w.add_joint(&def).unwrap();
        wheels.push(wheel);
    }
    for _ in 0..240 {
        w.step(DT, 4).unwrap();
    }
    let p = w.transform(chassis).unwrap().p;
    let v = w.linear_velocity(chassis).unwrap();
    // Wheel radius 0.4 at 10 rad/s rolls at 4 m/s.
    assert!(
        p.x > 5.0 && (v.x - 4.0).abs() < 0.3,
        "chassis at {p:?} moving {v:?}"
    );
    assert!(p.y > 1.0 && p.y < 1.8, "chassis height {}", p.y);
}

#[test]
fn a_motor_joint_drags_a_body_to_its_target_with_bounded_force() {
    let mut w = World::new(SolverSettings {
        gravity: Vec2::ZERO,
        ..SolverSettings::default()
    })
    .unwrap();
    let ground = anchor(&mut w, Vec2::ZERO);
    let body = boxed(&mut w, Vec2::new(3.0, 0.0), 0.5, 0.5); // 1 kg
    let kind = JointKind::Motor(MotorJoint {
        linear_hertz: 5.0,
        linear_damping_ratio: 1.0,
        max_spring_force: 20.0,
        angular_hertz: 5.0,
        angular_damping_ratio: 1.0,
        max_spring_torque: 20.0,
        ..MotorJoint::default()
    });
    let j = w.add_joint(&JointDef::new(kind, ground, body)).unwrap();
    let mut peak = 0.0f32;
    for _ in 0..180 {
        w.step(DT, 4).unwrap();
        peak = peak.max(w.joint_reaction(j).unwrap().0.length());
    }
    let p = w.transform(body).unwrap().p;
    assert!(p.length() < 0.02, "body at {p:?}");
    assert!(peak <= 20.0 * 1.0001, "force {peak} above the bound");
    // Moving the target frame drags it along.
    w.set_joint_frames(
        j,
        Transform::from_translation(Vec2::new(0.0, 2.0)),
        Transform::IDENTITY,
    )
    .unwrap();
    for _ in 0..180 {
        w.step(DT, 4).unwrap();
    }
    assert!(w.transform(body).unwrap().p.distance(Vec2::new(0.0, 2.0)) < 0.02);
}

#[test]
fn joined_bodies_do_not_collide_unless_asked_and_again_after_removal() {
    let mut w = World::new(SolverSettings {
        gravity: Vec2::ZERO,
        ..SolverSettings::default()
    })
    .unwrap();
    let a = boxed(&mut w, Vec2::ZERO, 0.5, 0.5);
    let b = boxed(&mut w, Vec2::new(0.6, 0.0), 0.5, 0.5);
    w.step(DT, 4).unwrap();
    assert_eq!(w.contacts().count(), 1);
    let j = w.add_joint(&JointDef::new(JointKind::Filter, a, b)).unwrap();
    w.step(DT, 4).unwrap();
    assert_eq!(w.contacts().count(), 0, "a filter joint keeps them apart");
    assert_eq!(w.end_events().len(), 1);
    w.remove_joint(j).unwrap();
    w.step(DT, 4).unwrap();
    assert_eq!(
        w.contacts().count(),
        1,
        "they collide again once the joint is gone"
    );
    let mut def = JointDef::new(JointKind::Filter, a, b);
    def.collide_connected = true;
    w.add_joint(&def).unwrap();
    w.step(DT, 4).unwrap();
    assert_eq!(w.contacts().count(), 1);
}

#[test]
fn a_joint_breaks_above_its_threshold_and_leaves_with_its_body() {
    let mut w = world();
    let top = anchor(&mut w, Vec2::new(0.0, 5.0));
    let bob = boxed(&mut w, Vec2::new(0.0, 4.0), 0.5, 0.5); // 1 kg: weight 10 N
    let (xa, xb) = (w.transform(top).unwrap(), w.transform(bob).unwrap());
    let mut def = JointDef::new(JointKind::Revolute(RevoluteJoint::default()), top, bob).at_world_anchor(
        Vec2::new(0.0, 5.0),
        xa,
        xb,
    );
    def.force_threshold = 15.0;
    def.user_data = 77;
    let j = w.add_joint(&def).unwrap();
    for _ in 0..60 {
        w.step(DT, 4).unwrap();
        assert!(w.joint_events().is_empty());
    }
    let (f, _) = w.joint_reaction(j).unwrap();
    assert!(
        (f.y - 10.0).abs() < 0.1 && f.x.abs() < 0.1,
        "holding the weight: {f:?}"
    );
    // Twice the weight breaks it (the resting bob sleeps: gravity changes wake nothing).
    w.set_gravity(Vec2::new(0.0, -20.0)).unwrap();
    w.set_awake(bob, true).unwrap();
    let mut broke = None;
    for _ in 0..10 {
        w.step(DT, 4).unwrap();
        if let Some(e) = w.joint_events().first() {
            broke = Some(*e);
            break;
        }
    }
    let e = broke.expect("the joint did not break");
    assert_eq!((e.joint, e.kind, e.user_data), (j, JointEventKind::Broke, 77));
    assert!(e.force.length() > 15.0);
    assert!(!w.joint_enabled(j).unwrap());
    let y = w.transform(bob).unwrap().p.y;
    for _ in 0..30 {
        w.step(DT, 4).unwrap();
    }
    assert!(
        w.transform(bob).unwrap().p.y < y - 0.5,
        "a broken joint holds nothing"
    );
    // Removing a body removes its joints and reports them in the next step.
    let other = ball(&mut w, Vec2::new(3.0, 5.0), 0.2);
    let j2 = hinge(&mut w, top, other, Vec2::new(3.0, 5.5));
    w.remove_body(other).unwrap();
    assert_eq!(w.joint_enabled(j2), Err(SolverError::InvalidJoint));
    assert_eq!(w.remove_joint(j2), Err(SolverError::InvalidJoint));
    w.step(DT, 4).unwrap();
    let e = w.joint_events()[0];
    assert_eq!((e.joint, e.kind), (j2, JointEventKind::BodyRemoved));
    assert_eq!(w.joint_count(), 1);
}

#[test]
fn jointed_bodies_sleep_and_wake_together() {
    let mut w = world();
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::IDENTITY,
        Shape::rect(10.0, 0.5),
    ))
    .unwrap();
    let a = boxed(&mut w, Vec2::new(-3.0, 1.0), 0.5, 0.5);
    let b = boxed(&mut w, Vec2::new(3.0, 1.0), 0.5, 0.5);
    let rope = JointKind::Distance(DistanceJoint {
        length: 6.0,
        ..DistanceJoint::default()
    });
    w.add_joint(&JointDef::new(rope, a, b)).unwrap();
    for _ in 0..400 {
        w.step(DT, 4).unwrap();
    }
    assert!(
        !w.is_awake(a).unwrap() && !w.is_awake(b).unwrap(),
        "the pair should sleep"
    );
    w.set_awake(a, true).unwrap();
    assert!(w.is_awake(b).unwrap(), "waking one wakes the body jointed to it");
    // Putting one to sleep takes its jointed partner along.
    w.set_awake(b, false).unwrap();
    assert!(!w.is_awake(a).unwrap());
}

#[test]
fn the_door_refuses_bad_joint_definitions() {
    let mut w = world();
    let a = ball(&mut w, Vec2::ZERO, 0.5);
    let b = ball(&mut w, Vec2::new(2.0, 0.0), 0.5);
    let rev = |r: RevoluteJoint| JointDef::new(JointKind::Revolute(r), a, b);
    let bad = [
        (JointDef::new(JointKind::Filter, a, a), SolverError::InvalidBody),
        (
            rev(RevoluteJoint {
                lower_angle: 1.0,
                upper_angle: 0.5,
                ..RevoluteJoint::default()
            }),
            SolverError::OutOfRange,
        ),
        (
            rev(RevoluteJoint {
                motor_speed: f32::NAN,
                ..RevoluteJoint::default()
            }),
            SolverError::InvalidInput,
        ),
        (
            JointDef {
                force_threshold: -1.0,
                ..rev(RevoluteJoint::default())
            },
            SolverError::OutOfRange,
        ),
        (
            JointDef::new(
                JointKind::Distance(DistanceJoint {
                    length: 0.0,
                    ..DistanceJoint::default()
                }),
                a,
                b,
            ),
            SolverError::OutOfRange,
        ),
        (
            JointDef {
                local_frame_a: Transform::from_translation(Vec2::new(f32::INFINITY, 0.0)),
                ..rev(RevoluteJoint::default())
            },
            SolverError::InvalidInput,
        ),
    ];
    for (def, want) in bad {
        assert_eq!(w.add_joint(&def), Err(want), "{def:?}");
    }
    assert_eq!(w.joint_count(), 0);
    let j = w.add_joint(&rev(RevoluteJoint::default())).unwrap();
    assert_eq!(
        w.set_joint_kind(j, JointKind::Weld(WeldJoint::default())),
        Err(SolverError::Unsupported)
    );
    let foreign = World::default().add_joint(&JointDef::new(JointKind::Filter, a, b));
    assert_eq!(foreign, Err(SolverError::InvalidBody), "ids of another world");
}

/// A ragdoll (Box2D's human: torso, head, arms and legs of two parts each, eleven revolute
/// joints with angle limits and a little friction-like motor) dropped onto the ground from
/// 5 m: it lands, stays together (every joint's anchors within 2 cm once it rests) and comes
/// to rest (asleep) within 5 s.
#[test]
fn a_ragdoll_falls_stays_together_and_comes_to_rest() {
    let mut w = world();
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::IDENTITY,
        Shape::rect(20.0, 0.5),
    ))
    .unwrap();
    let base = Vec2::new(0.0, 5.0);
    // (centre, half extents) of each part: torso, head, upper/lower arms, upper/lower legs.
    let parts: [(Vec2, Vec2); 11] = [
        (Vec2::new(0.0, 1.2), Vec2::new(0.15, 0.3)),
        (Vec2::new(0.0, 1.7), Vec2::new(0.11, 0.12)),
        (Vec2::new(-0.3, 1.35), Vec2::new(0.15, 0.05)),
        (Vec2::new(-0.6, 1.35), Vec2::new(0.15, 0.045)),
        (Vec2::new(0.3, 1.35), Vec2::new(0.15, 0.05)),
        (Vec2::new(0.6, 1.35), Vec2::new(0.15, 0.045)),
        (Vec2::new(-0.08, 0.72), Vec2::new(0.06, 0.2)),
        (Vec2::new(-0.08, 0.3), Vec2::new(0.05, 0.2)),
        (Vec2::new(0.08, 0.72), Vec2::new(0.06, 0.2)),
        (Vec2::new(0.08, 0.3), Vec2::new(0.05, 0.2)),
        (Vec2::new(0.0, 1.05), Vec2::new(0.12, 0.08)), // hips
    ];
    let ids: Vec<BodyId> = parts
        .iter()
        .map(|(c, h)| {
            let mut d = BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(base + *c),
                Shape::rect(h.x, h.y),
            );
            d.material.friction = 0.6;
            w.add_body(&d).unwrap()
        })
        .collect();
    // (A, B, anchor relative to base, lower, upper angle).
    let links: [(usize, usize, Vec2, f32, f32); 10] = [
        (0, 1, Vec2::new(0.0, 1.56), -0.5, 0.5),
        (0, 2, Vec2::new(-0.15, 1.35), -2.0, 2.0),
        (2, 3, Vec2::new(-0.45, 1.35), 0.0, 2.5),
        (0, 4, Vec2::new(0.15, 1.35), -2.0, 2.0),
        (4, 5, Vec2::new(0.45, 1.35), -2.5, 0.0),
        (0, 10, Vec2::new(0.0, 1.0), -0.3, 0.3),
        (10, 6, Vec2::new(-0.08, 0.95), -1.5, 0.4),
        (6, 7, Vec2::new(-0.08, 0.51), -2.5, 0.0),
        (10, 8, Vec2::new(0.08, 0.95), -1.5, 0.4),
        (8, 9, Vec2::new(0.08, 0.51), -2.5, 0.0),
    ];
    let mut joints = Vec::new();
    for (a, b, at, lo, hi) in links {
        let kind = JointKind::Revolute(RevoluteJoint {
            enable_limit: true,
            lower_angle: lo,
            upper_angle: hi,
            enable_motor: true,
            max_motor_torque: 0.2,
            ..RevoluteJoint::default()
        });
        let (xa, xb) = (w.transform(ids[a]).unwrap(), w.transform(ids[b]).unwrap());
        joints.push(
            w.add_joint(&JointDef::new(kind, ids[a], ids[b]).at_world_anchor(base + at, xa, xb))
                .unwrap(),
        );
    }
    // A push so that it tumbles.
    w.apply_linear_impulse_to_center(ids[0], Vec2::new(1.5, 0.0))
        .unwrap();
    let mut slept_at = None;
    for k in 0..600 {
        w.step(DT, 4).unwrap();
        if slept_at.is_none() && ids.iter().all(|&id| !w.is_awake(id).unwrap()) {
            slept_at = Some(k);
        }
    }
    let worst = joints.iter().map(|&j| separation(&w, j)).fold(0.0f32, f32::max);
    assert!(worst < 0.02, "a joint came {worst} m apart");
    let lowest = ids
        .iter()
        .map(|&id| w.transform(id).unwrap().p.y)
        .fold(f32::MAX, f32::min);
    assert!(
        lowest > 0.5 && lowest < 1.0,
        "lowest part at {lowest}: it should lie on the ground"
    );
    let slept = slept_at.expect("the ragdoll never came to rest");
    assert!(slept < 300, "came to rest only after {slept} steps");
}

/// A car on two motorised wheel joints drives over a chain terrain of slopes (up to 20°) and
/// bumps: it climbs the hills, keeps both wheels on (the suspension within its travel) and
/// gets past the last hill.
#[test]
fn a_car_on_wheel_joints_drives_over_a_chain_terrain() {
    let mut w = world();
    let mut points = vec![Vec2::new(-20.0, 0.0), Vec2::new(5.0, 0.0)];
    // Hills: 4 m up at 20°, flat, down, then bumps.
    let rise = 20f32.to_radians().tan() * 4.0;
    points.extend([
        Vec2::new(9.0, rise),
        Vec2::new(13.0, rise),
        Vec2::new(17.0, 0.0),
        Vec2::new(20.0, 0.25),
        Vec2::new(23.0, 0.0),
        Vec2::new(26.0, 0.25),
        Vec2::new(29.0, 0.0),
        Vec2::new(200.0, 0.0),
    ]);
    // A chain's solid side is to the right of its direction: listed right to left, its front
    // faces up.
    points.reverse();
    let chain = collide2d::geometry::Chain::open(&points).unwrap();
    w.add_chain(&ChainDef::new(&chain)).unwrap();
    let mut d = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(Vec2::new(0.0, 1.2)),
        Shape::rect(1.2, 0.2),
    );
    d.material.density = 2.0;
    let chassis = w.add_body(&d).unwrap();
    let mut wheels = Vec::new();
    for x in [-0.9f32, 0.9] {
        let mut d = BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(x, 0.5)),
            Shape::circle(0.4),
        );
        d.material.friction = 0.9;
        let wheel = w.add_body(&d).unwrap();
        let kind = JointKind::Wheel(WheelJoint {
            enable_motor: true,
            max_motor_torque: 60.0,
            motor_speed: -12.0,
            hertz: 4.0,
            damping_ratio: 0.7,
            enable_limit: true,
            lower_translation: -0.25,
            upper_translation: 0.25,
            ..WheelJoint::default()
        });
        let mut def = JointDef::new(kind, chassis, wheel);
        def.local_frame_a = Transform::new(Vec2::new(x, -0.7), core::f32::consts::FRAC_PI_2);
        wheels.push((wheel, w.add_joint(&def).unwrap()));
    }
    let mut travel = 0.0f32;
    let mut highest = 0.0f32;
    for _ in 0..900 {
        w.step(DT, 4).unwrap();
        let xc = w.transform(chassis).unwrap();
        highest = highest.max(xc.p.y);
        for &(wheel, j) in &wheels {
            let def = w.joint(j).unwrap();
            let axis = (xc.q * def.local_frame_a.q).x_axis();
            let t = (w.transform(wheel).unwrap().p - xc.apply(def.local_frame_a.p)).dot(axis);
            travel = travel.max(t.abs());
        }
    }
    let end = w.transform(chassis).unwrap().p;
    assert!(end.x > 30.0, "the car stopped at {end:?}");
    assert!(
        highest > rise + 0.8,
        "it never climbed the hill (highest {highest})"
    );
    assert!(
        travel < 0.25 + 0.02,
        "a wheel left its suspension travel: {travel}"
    );
    let q = w.transform(chassis).unwrap().q;
    assert!(q.c > 0.9, "the car turned over: {q:?} at {end:?}");
}
