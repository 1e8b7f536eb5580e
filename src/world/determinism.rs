//! The cross-platform determinism scene (Box2D's `test_determinism`): one fixed scene, stepped
//! a fixed number of times, every body's state hashed. Test support, hidden from the docs:
//! `tests/determinism.rs` pins the hash of 300 steps, and `scripts/determinism.sh` requires the
//! same hash from x86-64 (debug, release, `-C target-cpu=native`), aarch64, wasm32 and a
//! Cortex-M4F (`examples/determinism.rs`, `c_examples/embedded/determinism.c`).
//!
//! The scene, 326 bodies (321 dynamic) and 14 joints, most in a bin 24 m wide and 28 m high:
//! - the floor, a static chain ([`World::add_chain`]) of gentle bumps between two static box
//!   walls;
//! - 288 dynamic bodies dropped in a staggered grid of 12 columns and 24 rows, turned a little
//!   each: boxes, circles, rounded boxes and capsules in turn, some bouncy;
//! - 4 concave bodies, an L made with [`decompose`](crate::decompose()) into convex pieces
//!   and added with [`World::add_shape`];
//! - 12 boxes dropped apart onto a static shelf under the bin, 6 on each side of it, with sleep on: they land,
//!   rest and fall asleep within the 300 steps (the pile, stirred by the paddle, stays awake);
//! - a kinematic paddle that sweeps through the pile, turning as it goes;
//! - a bullet ([`BodyDef::bullet`]) shot sideways into the pile at 60 m/s;
//! - falling hinges (Box2D's): two columns of 8 boxes over the shelf, each hinged to the one
//!   below with a limited, sprung revolute joint, toppling onto the shelf.
//!
//! The hash is FNV-1a 64 (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`) over, for
//! each body in [`World::body_ids`] order (the order they were added), the little-endian bytes
//! of the bit patterns of `p.x, p.y, q.c, q.s`, linear velocity `x, y` and angular velocity,
//! then one byte: 1 if awake, else 0.

use super::*;
use crate::geometry::{Capsule, Chain, Circle, GeometryError, Polygon};
use crate::level::decompose;

/// A geometry error as the world's error type.
fn shape_err(_: GeometryError) -> SolverError {
    SolverError::InvalidShape
}

/// The time step of the scene: 60 Hz with 4 sub-steps.
const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;

/// Builds the scene (before any step).
///
/// # Errors
/// Whatever [`World`] returns while adding the bodies (none on a working build).
pub fn scene() -> Result<World, SolverError> {
    let mut w = World::default();
    let boxed = |hw: f32, hh: f32| Polygon::make_box(hw, hh).map(Shape::Polygon).map_err(shape_err);
    // The floor: a chain of bumps from x = 12 to -12 (right to left, so that its front side,
    // the right of each segment, faces up), and two walls.
    let mut floor = [Vec2::ZERO; 25];
    for (k, p) in floor.iter_mut().enumerate() {
        let y = if k % 4 == 2 { 0.25 } else { 0.0 };
        *p = Vec2::new(12.0 - k as f32, y);
    }
    let chain = Chain::open(&floor).map_err(shape_err)?;
    w.add_chain(&ChainDef::new(&chain))?;
    for x in [-12.5f32, 12.5] {
        let def = BodyDef::new(
            BodyKind::Static,
            Transform::from_translation(Vec2::new(x, 14.0)),
            boxed(0.5, 14.0)?,
        );
        w.add_body(&def)?;
    }
    // A shelf under the bin, with boxes dropped apart onto it on either side of the bin: they
    // land and fall asleep.
    let shelf = Transform::from_translation(Vec2::new(0.0, -10.0));
    w.add_body(&BodyDef::new(BodyKind::Static, shelf, boxed(30.0, 0.5)?))?;
    for k in 0..12 {
        let x = if k < 6 {
            -28.0 + 2.0 * k as f32
        } else {
            6.0 + 2.0 * k as f32
        };
        let p = Vec2::new(x, -8.7 + 0.05 * k as f32);
        w.add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(p),
            boxed(0.3, 0.3)?,
        ))?;
    }
    // Falling hinges (as Box2D's `test_determinism`): two columns of 8 boxes over the shelf,
    // each hinged to the one below by a revolute joint with angle limits and a spring,
    // leaning a little so that they topple, land and fall asleep.
    for x in [-15.0f32, 15.0] {
        let mut below: Option<(BodyId, Vec2)> = None;
        for k in 0..8 {
            let p = Vec2::new(x + 0.04 * k as f32 * x.signum(), -9.2 + 0.55 * k as f32);
            let id = w.add_body(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(p),
                boxed(0.25, 0.25)?,
            ))?;
            if let Some((prev, q)) = below {
                let kind = crate::solver::JointKind::Revolute(crate::solver::RevoluteJoint {
                    enable_limit: true,
                    lower_angle: -0.25 * core::f32::consts::PI,
                    upper_angle: 0.25 * core::f32::consts::PI,
                    enable_spring: true,
                    hertz: 0.5,
                    damping_ratio: 0.5,
                    ..Default::default()
                });
                let anchor = (p + q) * 0.5;
                let def = JointDef::new(kind, prev, id).at_world_anchor(
                    anchor,
                    Transform::from_translation(q),
                    Transform::from_translation(p),
                );
                w.add_joint(&def)?;
            }
            below = Some((id, p));
        }
    }
    // The pile.
    let capsule = Capsule::new(Vec2::new(-0.25, 0.0), Vec2::new(0.25, 0.0), 0.2).map_err(shape_err)?;
    let circle = Circle::new(Vec2::ZERO, 0.35).map_err(shape_err)?;
    let rounded = Polygon::make_rounded_box(0.25, 0.2, 0.1).map_err(shape_err)?;
    for k in 0..288u32 {
        let (row, col) = (k / 12, k % 12);
        let p = Vec2::new(
            -10.5 + 1.8 * col as f32 + 0.4 * (row % 2) as f32,
            1.5 + 0.9 * row as f32,
        );
        let shape = match k % 4 {
            0 => boxed(0.35, 0.25)?,
            1 => Shape::Circle(circle),
            2 => Shape::Polygon(rounded),
            _ => Shape::Capsule(capsule),
        };
        let mut def = BodyDef::new(BodyKind::Dynamic, Transform::new(p, 0.13 * k as f32), shape);
        def.material.restitution = 0.1 * (k % 3) as f32;
        w.add_body(&def)?;
    }
    // Concave L bodies, decomposed.
    let l = [
        Vec2::new(-0.6, -0.4),
        Vec2::new(0.6, -0.4),
        Vec2::new(0.6, -0.1),
        Vec2::new(-0.3, -0.1),
        Vec2::new(-0.3, 0.6),
        Vec2::new(-0.6, 0.6),
    ];
    let pieces = decompose(&l).map_err(shape_err)?;
    for k in 0..4 {
        let p = Vec2::new(-7.5 + 5.0 * k as f32, 24.0);
        let def = BodyDef::new(
            BodyKind::Dynamic,
            Transform::new(p, 0.7 * k as f32),
            Shape::Polygon(pieces[0]),
        );
        let id = w.add_body(&def)?;
        for piece in &pieces[1..] {
            w.add_shape(id, &Shape::Polygon(*piece))?;
        }
    }
    // The kinematic paddle: moves right through the pile, turning.
    let mut paddle = BodyDef::new(
        BodyKind::Kinematic,
        Transform::from_translation(Vec2::new(-9.0, 2.0)),
        boxed(1.5, 0.15)?,
    );
    paddle.linear_velocity = Vec2::new(2.0, 0.5);
    paddle.angular_velocity = 1.5;
    w.add_body(&paddle)?;
    // The bullet.
    let mut bullet = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(Vec2::new(-11.5, 4.0)),
        Shape::Circle(Circle::new(Vec2::ZERO, 0.1).map_err(shape_err)?),
    );
    bullet.bullet = true;
    bullet.linear_velocity = Vec2::new(60.0, 3.0);
    bullet.material.density = 20.0;
    w.add_body(&bullet)?;
    Ok(w)
}

/// FNV-1a 64 of every body's state, as the module describes.
#[must_use]
pub fn hash(w: &World) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    };
    for id in w.body_ids() {
        let (Ok(xf), Ok(v), Ok(av), Ok(awake)) = (
            w.transform(id),
            w.linear_velocity(id),
            w.angular_velocity(id),
            w.is_awake(id),
        ) else {
            continue;
        };
        for f in [xf.p.x, xf.p.y, xf.q.c, xf.q.s, v.x, v.y, av] {
            eat(&f.to_bits().to_le_bytes());
        }
        eat(&[u8::from(awake)]);
    }
    h
}

/// [`hash`] of the [`scene`] after `steps` steps of 1/60 s with 4 sub-steps.
///
/// # Errors
/// Whatever [`World`] returns while building or stepping (none on a working build).
pub fn scene_hash(steps: u32) -> Result<u64, SolverError> {
    let mut w = scene()?;
    for _ in 0..steps {
        w.step(DT, SUBSTEPS)?;
    }
    Ok(hash(&w))
}
