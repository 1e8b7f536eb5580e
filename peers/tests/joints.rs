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
