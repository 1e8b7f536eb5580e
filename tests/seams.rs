//! Floors of separate boxes as smooth as a chain: internal-edge removal.
//!
//! The sweep: a box, a rounded box, a capsule and a circle (size about 0.25) pushed along a
//! floor of 100 unit tiles at 2, 8 and 20 m/s, friction 0 and 0.6, from start positions spread
//! over one tile; the floor is 100 separate static bodies, or 100 box shapes of one static
//! body, or 100 open one-segment chains laid end to end, or 100 two-sided segments end to
//! end, or (the reference) one `tile_outlines` chain. A snag step is one where the body's
//! vertical speed exceeds 0.05 m/s or its angular velocity changes by more than 0.5 rad/s from
//! the step before. With friction the body is pushed: its horizontal speed is set back every
//! step, and a ball starts rolling. With internal-edge removal (the default) separate boxes,
//! chains and segments must give 0 snag steps, as the one chain does; with it switched off
//! they snag (the test can fail).
//!
//! Which steps count: the body starts touching the floor, but its contact begins at the end of
//! the first step (one step of free fall, g·dt = 0.17 m/s down), so every step from the second
//! on counts. A ball rolling with friction is the one exception, on a chain as on tiles: its
//! reported vertical velocity is a steady −0.08 m/s (2 m/s) to −0.15 m/s (20 m/s) while its
//! centre keeps its height to within a millimetre, and it takes the first [`SETTLE`] steps to
//! sink into its contact (up to 14 mm at 20 m/s, 11 mm for the small ball at 30 m/s, its
//! angular velocity changing by up to 12 rad/s meanwhile). For it the vertical speed is its
//! centre's rise or fall over the step divided by the step, counted from step [`SETTLE`] on.
mod common;
use collide2d::*;
use common::v;

const SPEEDS: [f32; 3] = [2.0, 8.0, 20.0];
const FRICTIONS: [f32; 2] = [0.0, 0.6];
const STEPS: usize = 120;
/// Start positions per case, spread over one tile.
const STARTS: usize = 50;
/// The largest vertical speed of a step that is not a snag, m/s.
const SNAG_VY: f32 = 0.05;
/// The largest change of angular velocity over a step that is not a snag, rad/s.
const SNAG_DW: f32 = 0.5;
/// Steps a ball rolling with friction takes to settle into its contact before its snags are
/// counted (1/6 s); every other body's are counted from the second step.
const SETTLE: usize = 10;
/// The step, s.
const DT: f32 = 1.0 / 60.0;

fn movers() -> Vec<(&'static str, Shape)> {
    vec![
        ("box", Shape::rect(0.25, 0.25)),
        (
            "rounded box",
            Shape::Polygon(Polygon::make_rounded_box(0.2, 0.2, 0.05).unwrap()),
        ),
        (
            "capsule",
            Shape::Capsule(Capsule::new(v(-0.15, 0.0), v(0.15, 0.0), 0.1).unwrap()),
        ),
        ("circle", Shape::circle(0.25)),
    ]
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Floor {
    SeparateBodies,
    OneBody,
    Chain,
    /// 100 open chains of one unit segment each, laid end to end (drawn right to left, solid
    /// side down), each its own static body.
    OpenChains,
    /// 100 two-sided unit segments end to end, each its own static body.
    Segments,
}

fn build(w: &mut World, floor: Floor, friction: f32) {
    let mut def = BodyDef::new(BodyKind::Static, Transform::IDENTITY, Shape::rect(0.5, 0.5));
    def.material.friction = friction;
    let tile = |i: usize| {
        Shape::Polygon(Polygon::make_offset_box(0.5, 0.5, v(i as f32 + 0.5, -0.5), Rot::IDENTITY).unwrap())
    };
    match floor {
        Floor::SeparateBodies => {
            for i in 0..100 {
                w.add_body(&BodyDef {
                    shape: tile(i),
                    ..def
                })
                .unwrap();
            }
        }
        Floor::OneBody => {
            let id = w
                .add_body(&BodyDef {
                    shape: tile(0),
                    ..def
                })
                .unwrap();
            for i in 1..100 {
                w.add_shape(id, &tile(i)).unwrap();
            }
        }
        Floor::OpenChains => {
            for i in 0..100 {
                let piece = Chain::open(&[v(i as f32 + 1.0, 0.0), v(i as f32, 0.0)]).unwrap();
                w.add_chain(&ChainDef {
                    material: def.material,
                    ..ChainDef::new(&piece)
                })
                .unwrap();
            }
        }
        Floor::Segments => {
            for i in 0..100 {
                w.add_body(&BodyDef {
                    shape: Shape::segment(v(i as f32, 0.0), v(i as f32 + 1.0, 0.0)),
                    ..def
                })
                .unwrap();
            }
        }
        Floor::Chain => {
            for c in tile_outlines(100, 1, 1.0, v(0.0, -1.0), |_, _| true).unwrap() {
                w.add_chain(&ChainDef {
                    material: def.material,
                    ..ChainDef::new(&c)
                })
                .unwrap();
            }
        }
    }
}

/// Small movers (size 0.05), pushed faster.
fn small_movers() -> Vec<(&'static str, Shape)> {
    vec![
        ("small box", Shape::rect(0.05, 0.05)),
        ("small capsule", Shape::capsule(v(-0.03, 0.0), v(0.03, 0.0), 0.02)),
        ("small circle", Shape::circle(0.05)),
    ]
}

/// Runs and snag steps over every mover, speed, friction and start (`starts` of them).
fn sweep(floor: Floor, starts: usize, removal: bool) -> (usize, usize, usize) {
    let (mut runs, mut snag_runs, mut snag_steps) = (0, 0, 0);
    // The largest vertical speed and change of angular velocity over the counted steps.
    let (mut top_vy, mut top_dw) = (0.0f32, 0.0f32);
    let cases = movers()
        .into_iter()
        .flat_map(|m| SPEEDS.map(|s| (m, s)))
        .chain(small_movers().into_iter().map(|m| (m, 30.0)));
    for ((name, shape), speed) in cases {
        {
            for friction in FRICTIONS {
                let mut worst = 0;
                for k in 0..starts {
                    let mut w = World::default();
                    w.set_internal_edge_removal(removal);
                    build(&mut w, floor, friction);
                    let low = -shape.aabb(Transform::IDENTITY).min.y;
                    let x = 2.0 + k as f32 / starts as f32;
                    let mut def =
                        BodyDef::new(BodyKind::Dynamic, Transform::from_translation(v(x, low)), shape);
                    def.material.friction = friction;
                    def.linear_velocity = v(speed, 0.0);
                    // A ball with friction rolls: it starts rolling, so that its spin is steady.
                    if let (Shape::Circle(c), true) = (&shape, friction > 0.0) {
                        def.angular_velocity = -speed / c.radius;
                    }
                    def.enable_sleep = false;
                    let id = w.add_body(&def).unwrap();
                    let rolling = matches!(shape, Shape::Circle(_)) && friction > 0.0;
                    let first = if rolling { SETTLE } else { 1 };
                    let mut snagged = 0;
                    let (mut prev_y, mut prev_w) = (low, def.angular_velocity);
                    for step in 0..STEPS {
                        // Pushed: friction would stop the slide, so the speed is held.
                        if friction > 0.0 {
                            let b = *w.body(id).unwrap();
                            w.set_velocity(id, v(speed, b.linear_velocity.y), b.angular_velocity)
                                .unwrap();
                        }
                        w.step(DT, 4).unwrap();
                        let b = *w.body(id).unwrap();
                        if b.transform.p.x > 98.0 {
                            break;
                        }
                        let vy = if rolling {
                            (b.transform.p.y - prev_y) / DT
                        } else {
                            b.linear_velocity.y
                        };
                        let dw = (b.angular_velocity - prev_w).abs();
                        if step >= first {
                            snagged += usize::from(vy.abs() > SNAG_VY || dw > SNAG_DW);
                            top_vy = top_vy.max(vy.abs());
                            top_dw = top_dw.max(dw);
                        }
                        (prev_y, prev_w) = (b.transform.p.y, b.angular_velocity);
                    }
                    runs += 1;
                    snag_runs += usize::from(snagged > 0);
                    snag_steps += snagged;
                    worst = worst.max(snagged);
                }
                if worst > 0 {
                    eprintln!("{floor:?} removal {removal}: {name} {speed} m/s friction {friction}: worst run {worst} snag steps");
                }
            }
        }
    }
    eprintln!(
        "{floor:?} removal {removal}: {snag_runs} of {runs} runs snag, {snag_steps} snag steps; \
         max |vy| {top_vy:.4} m/s, max |dw| {top_dw:.4} rad/s"
    );
    (runs, snag_runs, snag_steps)
}

#[test]
fn separate_boxes_slide_as_smoothly_as_a_chain() {
    for floor in [
        Floor::Chain,
        Floor::SeparateBodies,
        Floor::OneBody,
        Floor::OpenChains,
        Floor::Segments,
    ] {
        let (_, _, steps) = sweep(floor, STARTS, true);
        assert_eq!(steps, 0, "{floor:?}");
    }
}

#[test]
fn without_internal_edge_removal_separate_boxes_snag() {
    for floor in [Floor::SeparateBodies, Floor::OpenChains, Floor::Segments] {
        let (_, runs, _) = sweep(floor, STARTS, false);
        assert!(runs > 0, "{floor:?}");
    }
}

/// Snag steps of a stack of three boxes (half extent 0.25) whose bottom box is pushed at
/// `speed` across `floor` (friction 0.6 everywhere), over all three boxes, from `starts`
/// start positions, each step from the second on (the stack sways and its top boxes may
/// topple, on a chain too).
fn stack_sweep(floor: Floor, starts: usize, removal: bool) -> usize {
    let mut snag_steps = 0;
    for speed in [2.0f32, 4.0] {
        for k in 0..starts {
            let mut w = World::default();
            w.set_internal_edge_removal(removal);
            build(&mut w, floor, 0.6);
            let x = 2.0 + k as f32 / starts as f32;
            let ids: Vec<BodyId> = (0..3)
                .map(|j| {
                    let mut def = BodyDef::new(
                        BodyKind::Dynamic,
                        Transform::from_translation(v(x, 0.25 + 0.5 * j as f32)),
                        Shape::rect(0.25, 0.25),
                    );
                    def.enable_sleep = false;
                    w.add_body(&def).unwrap()
                })
                .collect();
            let mut prev_w = [0.0f32; 3];
            for step in 0..STEPS {
                let b = *w.body(ids[0]).unwrap();
                w.set_velocity(ids[0], v(speed, b.linear_velocity.y), b.angular_velocity)
                    .unwrap();
                w.step(DT, 4).unwrap();
                for (j, &id) in ids.iter().enumerate() {
                    let b = *w.body(id).unwrap();
                    let bad = b.linear_velocity.y.abs() > SNAG_VY
                        || (b.angular_velocity - prev_w[j]).abs() > SNAG_DW;
                    snag_steps += usize::from(bad && step >= 1);
                    prev_w[j] = b.angular_velocity;
                }
            }
        }
    }
    eprintln!("stack on {floor:?} removal {removal}: {snag_steps} snag steps");
    snag_steps
}

#[test]
fn a_pushed_stack_crosses_separate_boxes_as_it_crosses_a_chain() {
    let chain = stack_sweep(Floor::Chain, 10, true);
    let boxes = stack_sweep(Floor::SeparateBodies, 10, true);
    let raw = stack_sweep(Floor::SeparateBodies, 10, false);
    assert!(
        boxes as f32 <= chain as f32 * 1.1,
        "separate boxes {boxes}, chain {chain}"
    );
    assert!(raw > boxes, "without removal {raw}, with {boxes}");
}
