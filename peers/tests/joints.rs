//! Joints against Box2D 3.2-dev (boxdd-sys 0.6, commit 56edae79) on the same scenes, built
//! body for body in both engines (60 Hz, 4 sub-steps, Box2D's joint defaults: constraint
//! stiffness 60 Hz, damping ratio 2, single-threaded): a pendulum's period, a hanging chain's
//! stretch, and a bridge of hinged planks under dropped boxes (its sag and joint errors).
//!
//! Known differences, normalised or bounded here: Box2D solves joints in its graph colours
//! (a joint and the contacts of one colour before the next colour), collide2d solves every
//! joint before every contact in each phase, so the two are close but not bit for bit.
//! Box2D's angle is `b2Atan2`'s approximation, collide2d's `libm::atan2f`.

#![cfg(feature = "solver")]

use boxdd_sys::ffi as b2;
use collide2d::*;
use collide2d_peers::box2d::box2d_worlds_guard;

const DT: f32 = 1.0 / 60.0;

/// A Box2D world with gravity (0, −10), sleeping off.
fn b2_world() -> b2::b2WorldId {
    // SAFETY: a definition Box2D initialised.
    unsafe {
        let mut wd = b2::b2DefaultWorldDef();
        wd.gravity = b2::b2Vec2 { x: 0.0, y: -10.0 };
        wd.enableSleep = false;
        wd.workerCount = 1;
        b2::b2CreateWorld(&wd)
    }
}

/// A Box2D body with one box or circle (`radius > 0`) of density 1, friction 0.6.
fn b2_body(world: b2::b2WorldId, dynamic: bool, p: Vec2, half: Vec2, radius: f32) -> b2::b2BodyId {
    // SAFETY: definitions Box2D initialised.
    unsafe {
        let mut bd = b2::b2DefaultBodyDef();
        if dynamic {
            bd.type_ = b2::b2BodyType_b2_dynamicBody;
        }
        bd.position = b2::b2Vec2 { x: p.x, y: p.y };
        let body = b2::b2CreateBody(world, &bd);
        let mut sd = b2::b2DefaultShapeDef();
        sd.density = 1.0;
        sd.material.friction = 0.6;
        if radius > 0.0 {
            let c = b2::b2Circle {
                center: b2::b2Vec2 { x: 0.0, y: 0.0 },
                radius,
            };
            b2::b2CreateCircleShape(body, &sd, &c);
        } else {
            let poly = b2::b2MakeBox(half.x, half.y);
            b2::b2CreatePolygonShape(body, &sd, &poly);
        }
        body
    }
}

/// A Box2D revolute joint at the world point `at` (bodies not colliding).
fn b2_hinge(world: b2::b2WorldId, a: b2::b2BodyId, b: b2::b2BodyId, at: Vec2) -> b2::b2JointId {
    // SAFETY: definitions Box2D initialised; live bodies.
    unsafe {
        let mut jd = b2::b2DefaultRevoluteJointDef();
        jd.base.bodyIdA = a;
        jd.base.bodyIdB = b;
        let pa = b2::b2Body_GetLocalPoint(a, b2::b2Vec2 { x: at.x, y: at.y });
        let pb = b2::b2Body_GetLocalPoint(b, b2::b2Vec2 { x: at.x, y: at.y });
        jd.base.localFrameA.p = pa;
        jd.base.localFrameB.p = pb;
        b2::b2CreateRevoluteJoint(world, &jd)
    }
}

fn b2_pos(b: b2::b2BodyId) -> Vec2 {
    // SAFETY: a live body.
    let p = unsafe { b2::b2Body_GetPosition(b) };
    Vec2::new(p.x, p.y)
}

/// Separation of a Box2D joint's two frame origins (world).
fn b2_separation(j: b2::b2JointId) -> f32 {
    // SAFETY: a live joint and its bodies.
    unsafe {
        let (a, b) = (b2::b2Joint_GetBodyA(j), b2::b2Joint_GetBodyB(j));
        let (fa, fb) = (b2::b2Joint_GetLocalFrameA(j), b2::b2Joint_GetLocalFrameB(j));
        let pa = b2::b2Body_GetWorldPoint(a, fa.p);
        let pb = b2::b2Body_GetWorldPoint(b, fb.p);
        Vec2::new(pa.x, pa.y).distance(Vec2::new(pb.x, pb.y))
    }
}

fn body(w: &mut World, dynamic: bool, p: Vec2, half: Vec2, radius: f32) -> BodyId {
    let kind = if dynamic {
        BodyKind::Dynamic
    } else {
        BodyKind::Static
    };
    let shape = if radius > 0.0 {
        Shape::circle(radius)
    } else {
        Shape::rect(half.x, half.y)
    };
    let mut d = BodyDef::new(kind, Transform::from_translation(p), shape);
    d.material.friction = 0.6;
    d.enable_sleep = false;
    w.add_body(&d).unwrap()
}

fn hinge(w: &mut World, a: BodyId, b: BodyId, at: Vec2) -> JointId {
    let (xa, xb) = (w.transform(a).unwrap(), w.transform(b).unwrap());
    let def = JointDef::new(JointKind::Revolute(RevoluteJoint::default()), a, b).at_world_anchor(at, xa, xb);
    w.add_joint(&def).unwrap()
}

fn separation(w: &World, j: JointId) -> f32 {
    let d = w.joint(j).unwrap();
    let pa = w.transform(d.body_a).unwrap().apply(d.local_frame_a.p);
    let pb = w.transform(d.body_b).unwrap().apply(d.local_frame_b.p);
    pa.distance(pb)
}

/// Times of the downward zero crossings of `x(t)`, interpolated.
fn crossings(xs: &[f32]) -> Vec<f32> {
    xs.windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] > 0.0 && w[1] <= 0.0)
        .map(|(k, w)| (k as f32 + w[0] / (w[0] - w[1])) * DT)
        .collect()
}

fn period(xs: &[f32]) -> f32 {
    let c = crossings(xs);
    (c[c.len() - 1] - c[0]) / (c.len() - 1) as f32
}

#[test]
fn a_pendulum_swings_with_box2ds_period_and_amplitude() {
    let _guard = box2d_worlds_guard();
    let start = Vec2::new(0.8, 4.4); // 1 m from the hinge at (0, 5), 0.93 rad out
    let mut w = World::default();
    let top = body(&mut w, false, Vec2::new(0.0, 5.0), Vec2::ZERO, 0.05);
    let bob = body(&mut w, true, start, Vec2::ZERO, 0.1);
    let j = hinge(&mut w, top, bob, Vec2::new(0.0, 5.0));
    let world = b2_world();
    let b_top = b2_body(world, false, Vec2::new(0.0, 5.0), Vec2::ZERO, 0.05);
    let b_bob = b2_body(world, true, start, Vec2::ZERO, 0.1);
    let b_j = b2_hinge(world, b_top, b_bob, Vec2::new(0.0, 5.0));
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let (mut err, mut b_err) = (0.0f32, 0.0f32);
    for _ in 0..600 {
        w.step(DT, 4).unwrap();
        // SAFETY: a live world.
        unsafe { b2::b2World_Step(world, DT, 4) };
        ours.push(w.transform(bob).unwrap().p.x);
        theirs.push(b2_pos(b_bob).x);
        err = err.max(separation(&w, j));
        b_err = b_err.max(b2_separation(b_j));
    }
    let (p, bp) = (period(&ours), period(&theirs));
    let amp = |xs: &[f32]| xs[500..].iter().fold(0.0f32, |m, x| m.max(*x));
    eprintln!(
        "pendulum: period {p:.4} s (Box2D {bp:.4}), amplitude after 500 steps {:.4} (Box2D {:.4}), \
         anchor error {err:.2e} (Box2D {b_err:.2e})",
        amp(&ours),
        amp(&theirs)
    );
    assert!((p - bp).abs() < 0.005 * bp, "period {p} vs Box2D {bp}");
    assert!((amp(&ours) - amp(&theirs)).abs() < 0.02, "amplitude differs");
    assert!(err <= b_err * 1.5 + 1e-4, "anchor error {err} vs Box2D {b_err}");
    // SAFETY: the world made above.
    unsafe { b2::b2DestroyWorld(world) };
}

#[test]
fn a_hanging_chain_stretches_no_more_than_box2ds() {
    let _guard = box2d_worlds_guard();
    let (links, half) = (40, Vec2::new(0.25, 0.05));
    let mut w = World::default();
    let world = b2_world();
    let top = body(&mut w, false, Vec2::new(0.0, 30.0), Vec2::ZERO, 0.05);
    let b_top = b2_body(world, false, Vec2::new(0.0, 30.0), Vec2::ZERO, 0.05);
    let (mut prev, mut b_prev) = (top, b_top);
    let (mut joints, mut b_joints) = (Vec::new(), Vec::new());
    for i in 0..links {
        let x = half.x + 2.0 * half.x * i as f32;
        let at = Vec2::new(x - half.x, 30.0);
        let link = body(&mut w, true, Vec2::new(x, 30.0), half, 0.0);
        let b_link = b2_body(world, true, Vec2::new(x, 30.0), half, 0.0);
        joints.push(hinge(&mut w, prev, link, at));
        b_joints.push(b2_hinge(world, b_prev, b_link, at));
        (prev, b_prev) = (link, b_link);
    }
    let (mut err, mut b_err) = (0.0f32, 0.0f32);
    for k in 0..480 {
        w.step(DT, 4).unwrap();
        // SAFETY: a live world.
        unsafe { b2::b2World_Step(world, DT, 4) };
        if k >= 120 {
            err = joints.iter().map(|&j| separation(&w, j)).fold(err, f32::max);
            b_err = b_joints.iter().map(|&j| b2_separation(j)).fold(b_err, f32::max);
        }
    }
    eprintln!("hanging chain of {links}: largest joint gap {err:.4} m (Box2D {b_err:.4} m)");
    assert!(err <= b_err * 1.25 + 1e-3, "stretch {err} vs Box2D {b_err}");
    // SAFETY: the world made above.
    unsafe { b2::b2DestroyWorld(world) };
}

#[test]
fn a_bridge_carries_dropped_boxes_as_box2ds_does() {
    let _guard = box2d_worlds_guard();
    let (planks, half) = (40, Vec2::new(0.25, 0.0625));
    let mut w = World::default();
    let world = b2_world();
    let ground = body(&mut w, false, Vec2::ZERO, Vec2::new(0.1, 0.1), 0.0);
    let b_ground = b2_body(world, false, Vec2::ZERO, Vec2::new(0.1, 0.1), 0.0);
    let x0 = -(planks as f32) * half.x;
    let y = 10.0;
    let (mut prev, mut b_prev) = (ground, b_ground);
    let (mut joints, mut b_joints) = (Vec::new(), Vec::new());
    let (mut ids, mut b_ids) = (Vec::new(), Vec::new());
    for i in 0..planks {
        let x = x0 + half.x + 2.0 * half.x * i as f32;
        let plank = body(&mut w, true, Vec2::new(x, y), half, 0.0);
        let b_plank = b2_body(world, true, Vec2::new(x, y), half, 0.0);
        let at = Vec2::new(x - half.x, y);
        joints.push(hinge(&mut w, prev, plank, at));
        b_joints.push(b2_hinge(world, b_prev, b_plank, at));
        ids.push(plank);
        b_ids.push(b_plank);
        (prev, b_prev) = (plank, b_plank);
    }
    // The far end: a second static anchor.
    let end = body(&mut w, false, Vec2::new(-x0 + 0.1, y), Vec2::new(0.1, 0.1), 0.0);
    let b_end = b2_body(world, false, Vec2::new(-x0 + 0.1, y), Vec2::new(0.1, 0.1), 0.0);
    joints.push(hinge(&mut w, prev, end, Vec2::new(-x0, y)));
    b_joints.push(b2_hinge(world, b_prev, b_end, Vec2::new(-x0, y)));
    // Ten boxes dropped on it.
    for i in 0..10 {
        let p = Vec2::new(-4.0 + 0.9 * i as f32, y + 2.0);
        body(&mut w, true, p, Vec2::new(0.25, 0.25), 0.0);
        b2_body(world, true, p, Vec2::new(0.25, 0.25), 0.0);
    }
    let (mut err, mut b_err) = (0.0f32, 0.0f32);
    for _ in 0..600 {
        w.step(DT, 4).unwrap();
        // SAFETY: a live world.
        unsafe { b2::b2World_Step(world, DT, 4) };
        err = joints.iter().map(|&j| separation(&w, j)).fold(err, f32::max);
        b_err = b_joints.iter().map(|&j| b2_separation(j)).fold(b_err, f32::max);
    }
    let sag = ids
        .iter()
        .map(|&b| y - w.transform(b).unwrap().p.y)
        .fold(0.0f32, f32::max);
    let b_sag = b_ids.iter().map(|&b| y - b2_pos(b).y).fold(0.0f32, f32::max);
    eprintln!("bridge of {planks}: sag {sag:.4} m (Box2D {b_sag:.4} m), largest joint gap {err:.4} m (Box2D {b_err:.4} m)");
    assert!(
        (sag - b_sag).abs() < 0.05 * b_sag + 0.01,
        "sag {sag} vs Box2D {b_sag}"
    );
    assert!(err <= b_err * 1.25 + 1e-3, "joint gap {err} vs Box2D {b_err}");
    // SAFETY: the world made above.
    unsafe { b2::b2DestroyWorld(world) };
}

/// The pose of a Box2D body (position and angle).
fn b2_pose(b: b2::b2BodyId) -> (Vec2, f32) {
    // SAFETY: a live body.
    let xf = unsafe { b2::b2Body_GetTransform(b) };
    (Vec2::new(xf.p.x, xf.p.y), xf.q.s.atan2(xf.q.c))
}

/// A static anchor at the origin and a dynamic box of half extents (0.5, 0.25) at `at`,
/// turned `angle`, in both engines (gravity (0, −10), density 1), joined by the joint `ours`
/// / `theirs` makes; both stepped `steps` times. Returns the largest distance between the
/// two boxes' positions and the largest difference of their angles over the run.
fn compare(
    at: Vec2,
    angle: f32,
    steps: usize,
    ours: impl FnOnce(BodyId, BodyId) -> JointDef,
    theirs: impl FnOnce(b2::b2WorldId, b2::b2BodyId, b2::b2BodyId),
) -> (f32, f32) {
    let mut w = World::default();
    let a = body(&mut w, false, Vec2::ZERO, Vec2::new(0.1, 0.1), 0.0);
    let mut d = BodyDef::new(
        BodyKind::Dynamic,
        Transform::new(at, angle),
        Shape::rect(0.5, 0.25),
    );
    d.enable_sleep = false;
    let b = w.add_body(&d).unwrap();
    w.add_joint(&ours(a, b)).unwrap();
    let world = b2_world();
    let ba = b2_body(world, false, Vec2::ZERO, Vec2::new(0.1, 0.1), 0.0);
    // SAFETY: definitions Box2D initialised.
    let bb = unsafe {
        let mut bd = b2::b2DefaultBodyDef();
        bd.type_ = b2::b2BodyType_b2_dynamicBody;
        bd.position = b2::b2Vec2 { x: at.x, y: at.y };
        bd.rotation = b2::b2Rot {
            c: angle.cos(),
            s: angle.sin(),
        };
        bd.enableSleep = false;
        let body = b2::b2CreateBody(world, &bd);
        let mut sd = b2::b2DefaultShapeDef();
        sd.density = 1.0;
        let poly = b2::b2MakeBox(0.5, 0.25);
        b2::b2CreatePolygonShape(body, &sd, &poly);
        body
    };
    theirs(world, ba, bb);
    let (mut dp, mut da) = (0.0f32, 0.0f32);
    for _ in 0..steps {
        w.step(DT, 4).unwrap();
        // SAFETY: a live world.
        unsafe { b2::b2World_Step(world, DT, 4) };
        let xf = w.transform(b).unwrap();
        let (p, q) = b2_pose(bb);
        dp = dp.max(xf.p.distance(p));
        let turn = xf.q.angle() - q;
        da = da.max((turn + PI).rem_euclid(2.0 * PI).sub(PI).abs());
    }
    // SAFETY: the world made above.
    unsafe { b2::b2DestroyWorld(world) };
    (dp, da)
}

use core::f32::consts::PI;
use core::ops::Sub;

fn b2_frame(xf: Transform) -> b2::b2Transform {
    b2::b2Transform {
        p: b2::b2Vec2 { x: xf.p.x, y: xf.p.y },
        q: b2::b2Rot { c: xf.q.c, s: xf.q.s },
    }
}

/// One body on each of the other kinds (with their springs, limits and motors on), no
/// contacts: the two engines run the same arithmetic, so the trajectories agree to rounding
/// (measured: at most 6e-6 m and 1.4e-5 rad over 4 s; the angles differ by `b2Atan2`'s
/// approximation against `atan2f`). Bound: 1e-4 m and 1e-4 rad.
#[test]
fn prismatic_wheel_weld_motor_and_distance_joints_follow_box2d() {
    let _guard = box2d_worlds_guard();
    let frame_a = Transform::new(Vec2::new(0.5, 0.0), 0.5);
    let frame_b = Transform::new(Vec2::new(-0.3, 0.1), 0.0);
    let mut report = Vec::new();
    // A slider on an axis 0.5 rad above +x with a spring, a motor and limits.
    let prismatic = PrismaticJoint {
        enable_spring: true,
        hertz: 1.5,
        damping_ratio: 0.3,
        target_translation: 0.5,
        enable_limit: true,
        lower_translation: -0.5,
        upper_translation: 1.5,
        enable_motor: true,
        max_motor_force: 3.0,
        motor_speed: 1.0,
    };
    let r = compare(
        Vec2::new(0.8, 0.4),
        0.2,
        240,
        |a, b| JointDef {
            local_frame_a: frame_a,
            local_frame_b: frame_b,
            ..JointDef::new(JointKind::Prismatic(prismatic), a, b)
        },
        // SAFETY (closure): definitions Box2D initialised; live bodies.
        |world, a, b| unsafe {
            let mut jd = b2::b2DefaultPrismaticJointDef();
            jd.base.bodyIdA = a;
            jd.base.bodyIdB = b;
            jd.base.localFrameA = b2_frame(frame_a);
            jd.base.localFrameB = b2_frame(frame_b);
            jd.enableSpring = true;
            jd.hertz = 1.5;
            jd.dampingRatio = 0.3;
            jd.targetTranslation = 0.5;
            jd.enableLimit = true;
            jd.lowerTranslation = -0.5;
            jd.upperTranslation = 1.5;
            jd.enableMotor = true;
            jd.maxMotorForce = 3.0;
            jd.motorSpeed = 1.0;
            b2::b2CreatePrismaticJoint(world, &jd);
        },
    );
    report.push(("prismatic", r));
    // A wheel on a suspension spring with limits and a motor.
    let wheel = WheelJoint {
        enable_spring: true,
        hertz: 2.0,
        damping_ratio: 0.5,
        enable_limit: true,
        lower_translation: -0.4,
        upper_translation: 0.4,
        enable_motor: true,
        max_motor_torque: 2.0,
        motor_speed: 5.0,
    };
    let r = compare(
        Vec2::new(0.4, -0.2),
        0.0,
        240,
        |a, b| JointDef {
            local_frame_a: frame_a,
            local_frame_b: frame_b,
            ..JointDef::new(JointKind::Wheel(wheel), a, b)
        },
        // SAFETY (closure): as above.
        |world, a, b| unsafe {
            let mut jd = b2::b2DefaultWheelJointDef();
            jd.base.bodyIdA = a;
            jd.base.bodyIdB = b;
            jd.base.localFrameA = b2_frame(frame_a);
            jd.base.localFrameB = b2_frame(frame_b);
            jd.enableSpring = true;
            jd.hertz = 2.0;
            jd.dampingRatio = 0.5;
            jd.enableLimit = true;
            jd.lowerTranslation = -0.4;
            jd.upperTranslation = 0.4;
            jd.enableMotor = true;
            jd.maxMotorTorque = 2.0;
            jd.motorSpeed = 5.0;
            b2::b2CreateWheelJoint(world, &jd);
        },
    );
    report.push(("wheel", r));
    // A soft weld (linear 3 Hz, angular 2 Hz).
    let weld = WeldJoint {
        linear_hertz: 3.0,
        angular_hertz: 2.0,
        linear_damping_ratio: 0.2,
        angular_damping_ratio: 0.2,
    };
    let r = compare(
        Vec2::new(0.8, 0.1),
        0.5,
        240,
        |a, b| JointDef {
            local_frame_a: frame_a,
            local_frame_b: frame_b,
            ..JointDef::new(JointKind::Weld(weld), a, b)
        },
        // SAFETY (closure): as above.
        |world, a, b| unsafe {
            let mut jd = b2::b2DefaultWeldJointDef();
            jd.base.bodyIdA = a;
            jd.base.bodyIdB = b;
            jd.base.localFrameA = b2_frame(frame_a);
            jd.base.localFrameB = b2_frame(frame_b);
            jd.linearHertz = 3.0;
            jd.angularHertz = 2.0;
            jd.linearDampingRatio = 0.2;
            jd.angularDampingRatio = 0.2;
            b2::b2CreateWeldJoint(world, &jd);
        },
    );
    report.push(("weld", r));
    // A motor joint: springs with bounds and a velocity drive.
    let motor = MotorJoint {
        linear_velocity: Vec2::new(0.5, 0.0),
        max_velocity_force: 2.0,
        angular_velocity: 1.0,
        max_velocity_torque: 1.0,
        linear_hertz: 2.0,
        linear_damping_ratio: 0.7,
        max_spring_force: 10.0,
        angular_hertz: 2.0,
        angular_damping_ratio: 0.7,
        max_spring_torque: 5.0,
    };
    let r = compare(
        Vec2::new(2.0, 1.0),
        0.3,
        240,
        |a, b| JointDef {
            local_frame_a: frame_a,
            local_frame_b: frame_b,
            ..JointDef::new(JointKind::Motor(motor), a, b)
        },
        // SAFETY (closure): as above.
        |world, a, b| unsafe {
            let mut jd = b2::b2DefaultMotorJointDef();
            jd.base.bodyIdA = a;
            jd.base.bodyIdB = b;
            jd.base.localFrameA = b2_frame(frame_a);
            jd.base.localFrameB = b2_frame(frame_b);
            jd.linearVelocity = b2::b2Vec2 { x: 0.5, y: 0.0 };
            jd.maxVelocityForce = 2.0;
            jd.angularVelocity = 1.0;
            jd.maxVelocityTorque = 1.0;
            jd.linearHertz = 2.0;
            jd.linearDampingRatio = 0.7;
            jd.maxSpringForce = 10.0;
            jd.angularHertz = 2.0;
            jd.angularDampingRatio = 0.7;
            jd.maxSpringTorque = 5.0;
            b2::b2CreateMotorJoint(world, &jd);
        },
    );
    report.push(("motor", r));
    // A distance joint: a spring with force bounds, a length range and a motor.
    let distance = DistanceJoint {
        length: 1.5,
        enable_spring: true,
        lower_spring_force: -20.0,
        upper_spring_force: 20.0,
        hertz: 2.0,
        damping_ratio: 0.1,
        enable_limit: true,
        min_length: 1.0,
        max_length: 2.0,
        enable_motor: true,
        max_motor_force: 1.0,
        motor_speed: 0.5,
    };
    let r = compare(
        Vec2::new(1.6, 0.5),
        0.0,
        240,
        |a, b| JointDef {
            local_frame_a: frame_a,
            local_frame_b: frame_b,
            ..JointDef::new(JointKind::Distance(distance), a, b)
        },
        // SAFETY (closure): as above.
        |world, a, b| unsafe {
            let mut jd = b2::b2DefaultDistanceJointDef();
            jd.base.bodyIdA = a;
            jd.base.bodyIdB = b;
            jd.base.localFrameA = b2_frame(frame_a);
            jd.base.localFrameB = b2_frame(frame_b);
            jd.length = 1.5;
            jd.enableSpring = true;
            jd.lowerSpringForce = -20.0;
            jd.upperSpringForce = 20.0;
            jd.hertz = 2.0;
            jd.dampingRatio = 0.1;
            jd.enableLimit = true;
            jd.minLength = 1.0;
            jd.maxLength = 2.0;
            jd.enableMotor = true;
            jd.maxMotorForce = 1.0;
            jd.motorSpeed = 0.5;
            b2::b2CreateDistanceJoint(world, &jd);
        },
    );
    report.push(("distance", r));
    for (name, (dp, da)) in &report {
        eprintln!("{name}: largest position difference {dp:.2e} m, angle difference {da:.2e} rad over 4 s");
    }
    for (name, (dp, da)) in report {
        assert!(
            dp < 1e-4 && da < 1e-4,
            "{name} drifts from Box2D: {dp} m, {da} rad"
        );
    }
}
