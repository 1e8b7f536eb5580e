//! Bodies landing flat: a box, a rounded box, a capsule lying down and a hexagon on a face,
//! dropped with angle 0 at impact speeds 0.5 … 20 m/s (60 Hz, 4 sub-steps, friction 0.6,
//! restitution 0) onto level floors built the ways games build them: one static box, a
//! `tile_outlines` chain, two boxes of one static body meeting under the lander, two separate
//! static bodies meeting under it, and two open chains meeting under it.
//!
//! After the drop the lander must neither spin nor hop, on every floor and across its seams:
//! max |ω| ≤ 0.01 rad/s and max upward speed ≤ 0.01 m/s. Every floor's figures are printed
//! next to Box2D 3.2-dev's (boxdd-sys 0.6) on the same bodies, shapes and drops.
mod common;
use collide2d::*;
use common::{b2, v};

const SPEEDS: [f32; 5] = [0.5, 2.0, 5.0, 10.0, 20.0];
const STEPS: usize = 90;
const FLAT_BOUND: f32 = 0.01;

fn landers() -> Vec<(&'static str, Shape)> {
    let hexagon: Vec<Vec2> = (0..6)
        .map(|k| {
            let a = k as f32 * core::f32::consts::PI / 3.0;
            v(0.25 * a.cos(), 0.25 * a.sin())
        })
        .collect();
    vec![
        ("box", Shape::Polygon(Polygon::make_box(0.25, 0.25).unwrap())),
        (
            "rounded box",
            Shape::Polygon(Polygon::make_rounded_box(0.2, 0.2, 0.05).unwrap()),
        ),
        (
            "capsule",
            Shape::Capsule(Capsule::new(v(-0.15, 0.0), v(0.15, 0.0), 0.1).unwrap()),
        ),
        ("hexagon", Shape::Polygon(Polygon::new(&hexagon).unwrap())),
    ]
}

/// A floor whose top is the line y = 0: static bodies, each a list of shapes in world space
/// (the bodies sit at the identity).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Floor {
    OneBox,
    TileChain,
    CompoundSeam,
    SeparateSeam,
    ChainSeam,
}

impl Floor {
    const ALL: [Floor; 5] = [
        Floor::OneBox,
        Floor::TileChain,
        Floor::CompoundSeam,
        Floor::SeparateSeam,
        Floor::ChainSeam,
    ];

    fn bodies(self) -> Vec<Vec<Shape>> {
        let half =
            |cx: f32| Shape::Polygon(Polygon::make_offset_box(5.0, 0.5, v(cx, -0.5), Rot::IDENTITY).unwrap());
        let segments = |c: Chain| c.segments().map(Shape::ChainSegment).collect::<Vec<_>>();
        match self {
            Floor::OneBox => vec![vec![half(0.0)]],
            Floor::TileChain => tile_outlines(20, 1, 1.0, v(-10.0, -1.0), |_, _| true)
                .unwrap()
                .into_iter()
                .map(segments)
                .collect(),
            Floor::CompoundSeam => vec![vec![half(-5.0), half(5.0)]],
            Floor::SeparateSeam => vec![vec![half(-5.0)], vec![half(5.0)]],
            Floor::ChainSeam => vec![
                segments(Chain::open(&[v(-10.0, 0.0), v(0.0, 0.0)]).unwrap()),
                segments(Chain::open(&[v(0.0, 0.0), v(10.0, 0.0)]).unwrap()),
            ],
        }
    }

    /// Where the lander's centre starts across: over the seam (x = 0) and off it by a part of
    /// the lander's width; on flat floors the same offsets.
    fn offsets(self) -> [f32; 3] {
        [0.0, 0.07, 0.16]
    }
}

/// The worst spin, upward speed and sideways speed of one drop.
#[derive(Clone, Copy, Default, Debug)]
struct Landing {
    spin: f32,
    hop: f32,
    side: f32,
}

impl Landing {
    fn add(&mut self, w: f32, vel: Vec2) {
        self.spin = self.spin.max(w.abs());
        self.hop = self.hop.max(vel.y);
        self.side = self.side.max(vel.x.abs());
    }
    fn max(self, o: Landing) -> Landing {
        Landing {
            spin: self.spin.max(o.spin),
            hop: self.hop.max(o.hop),
            side: self.side.max(o.side),
        }
    }
}

/// The lander's start: its lowest point 0.05 above the floor, moving down at `speed`.
fn start(shape: &Shape, x: f32, angle: f32) -> Transform {
    let q = Rot::from_angle(angle);
    let lowest = shape.aabb(Transform { p: Vec2::ZERO, q }).min.y;
    Transform {
        p: v(x, 0.05 - lowest),
        q,
    }
}

fn drop_ours(floor: Floor, shape: &Shape, x: f32, angle: f32, speed: f32) -> Landing {
    let mut w = World::default();
    for shapes in floor.bodies() {
        let def = BodyDef::new(BodyKind::Static, Transform::IDENTITY, shapes[0]);
        let id = w.add_body(&def).unwrap();
        for s in &shapes[1..] {
            w.add_shape(id, s).unwrap();
        }
    }
    let mut def = BodyDef::new(BodyKind::Dynamic, start(shape, x, angle), *shape);
    def.linear_velocity = v(0.0, -speed);
    let id = w.add_body(&def).unwrap();
    let mut out = Landing::default();
    for _ in 0..STEPS {
        w.step(1.0 / 60.0, 4).unwrap();
        let b = w.body(id).unwrap();
        out.add(b.angular_velocity, b.linear_velocity);
    }
    out
}

fn drop_box2d(floor: Floor, shape: &Shape, x: f32, angle: f32, speed: f32) -> Landing {
    // SAFETY (test): one world, created and destroyed here; every pointer passed refers to a
    // local that outlives the call.
    unsafe {
        let wd = b2::b2DefaultWorldDef();
        let world = b2::b2CreateWorld(&wd);
        let sd = b2::b2DefaultShapeDef();
        let add = |body: b2::b2BodyId, s: &Shape, sd: &b2::b2ShapeDef| match s {
            Shape::Polygon(p) => {
                b2::b2CreatePolygonShape(body, sd, &common::b2polygon(p));
            }
            Shape::Capsule(c) => {
                b2::b2CreateCapsuleShape(body, sd, &common::b2capsule(c));
            }
            Shape::Circle(c) => {
                b2::b2CreateCircleShape(body, sd, &common::b2circle(c));
            }
            Shape::ChainSegment(c) => {
                b2::b2CreateChainSegmentShape(body, sd, &common::b2chain_segment(c));
            }
        };
        for shapes in floor.bodies() {
            let bd = b2::b2DefaultBodyDef();
            let body = b2::b2CreateBody(world, &bd);
            for s in &shapes {
                add(body, s, &sd);
            }
        }
        let xf = start(shape, x, angle);
        let mut bd = b2::b2DefaultBodyDef();
        bd.type_ = b2::b2BodyType_b2_dynamicBody;
        bd.position = common::b2v(xf.p);
        bd.rotation = b2::b2Rot { c: xf.q.c, s: xf.q.s };
        bd.linearVelocity = common::b2v(v(0.0, -speed));
        let body = b2::b2CreateBody(world, &bd);
        let mut sd = b2::b2DefaultShapeDef();
        sd.density = 1.0;
        sd.material.friction = 0.6;
        add(body, shape, &sd);
        let mut out = Landing::default();
        for _ in 0..STEPS {
            b2::b2World_Step(world, 1.0 / 60.0, 4);
            let vel = b2::b2Body_GetLinearVelocity(body);
            out.add(b2::b2Body_GetAngularVelocity(body), v(vel.x, vel.y));
        }
        b2::b2DestroyWorld(world);
        out
    }
}

/// The worst of every lander, offset and speed on `floor`, ours and Box2D's.
fn worst(floor: Floor, angle: f32) -> Vec<(&'static str, Landing, Landing)> {
    landers()
        .into_iter()
        .map(|(name, shape)| {
            let (mut ours, mut theirs) = (Landing::default(), Landing::default());
            for x in floor.offsets() {
                for speed in SPEEDS {
                    ours = ours.max(drop_ours(floor, &shape, x, angle, speed));
                    theirs = theirs.max(drop_box2d(floor, &shape, x, angle, speed));
                }
            }
            eprintln!(
                "{floor:?} {name} tilt {angle}: ours |w| {:.4} rad/s, hop {:.4} m/s, side {:.4} m/s; \
                 Box2D |w| {:.4}, hop {:.4}, side {:.4}",
                ours.spin, ours.hop, ours.side, theirs.spin, theirs.hop, theirs.side
            );
            (name, ours, theirs)
        })
        .collect()
}

/// Every floor, seams included: two box shapes of one static body or two separate static
/// bodies meeting under the lander (Box2D 3.2-dev up to 6.3 rad/s and 0.96 m/s there), two
/// open chains meeting under it. Internal-edge removal makes the two boxes one surface.
#[test]
fn landing_flat_on_any_floor_neither_spins_nor_hops() {
    for floor in Floor::ALL {
        for (name, ours, _) in worst(floor, 0.0) {
            assert!(
                ours.spin <= FLAT_BOUND && ours.hop <= FLAT_BOUND,
                "{floor:?} {name}: {ours:?}"
            );
        }
    }
}

/// A box falling tilted (0.02 rad, so its far corner is 1 cm above the near one) gets both
/// corners into its contact as soon as both are within the step's speculative margin (at
/// least `SPECULATIVE_DISTANCE + dt·|v|`): a contact kept from an earlier step, when only
/// the near corner was within the margin, would let the box land on one corner while the
/// other's constraint is missing.
#[test]
fn a_tilted_box_gets_its_far_corner_once_within_the_margin() {
    let dt = 1.0 / 60.0;
    for speed in [0.5f32, 1.0, 2.0] {
        let mut w = World::default();
        let ground = BodyDef::new(
            BodyKind::Static,
            Transform::IDENTITY,
            Floor::OneBox.bodies()[0][0],
        );
        let g = w.add_body(&ground).unwrap();
        let shape = Shape::rect(0.25, 0.25);
        let mut def = BodyDef::new(BodyKind::Dynamic, start(&shape, 0.0, 0.02), shape);
        def.linear_velocity = v(0.0, -speed);
        let id = w.add_body(&def).unwrap();
        let mut checked = 0;
        for _ in 0..30 {
            let before = *w.body(id).unwrap();
            w.step(dt, 4).unwrap();
            // The corners' heights at the start of the step (the contact is built there).
            let far = [v(0.25, -0.25), v(-0.25, -0.25)]
                .map(|c| before.transform.apply(c).y)
                .into_iter()
                .fold(f32::MIN, f32::max);
            let margin = SPECULATIVE_DISTANCE + dt * before.linear_velocity.length();
            if far < margin * 0.99 && before.angular_velocity == 0.0 {
                let c = w.contact(g, id).unwrap().expect("in contact");
                assert_eq!(
                    c.count, 2,
                    "speed {speed}: far corner {far} within margin {margin}"
                );
                checked += 1;
            }
        }
        assert!(
            checked > 0,
            "speed {speed}: the far corner came within the margin"
        );
    }
}
