//! The landing scenario of `tests/landing.rs`, shared with its Box2D comparison
//! (`peers/tests/landing.rs`): the landers, the floors, the drop and its worst velocities.
//! Included by both with `#[path]`; reads `v` from the including crate's `common`.
#![allow(dead_code)]

use collide2d::*;

use crate::common::v;

/// The impact speeds, m/s.
pub const SPEEDS: [f32; 5] = [0.5, 2.0, 5.0, 10.0, 20.0];
/// The steps of one drop (1.5 s at 60 Hz).
pub const STEPS: usize = 90;

/// The landers, each with its name: a box, a rounded box, a capsule lying down and a hexagon
/// on a face, about half a metre across.
pub fn landers() -> Vec<(&'static str, Shape)> {
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
pub enum Floor {
    /// One static box.
    OneBox,
    /// A `tile_outlines` chain of one row of 20 tiles.
    TileChain,
    /// Two boxes of one static body meeting at x = 0.
    CompoundSeam,
    /// Two separate static bodies meeting at x = 0.
    SeparateSeam,
    /// Two open chains meeting at x = 0.
    ChainSeam,
}

impl Floor {
    /// Every floor.
    pub const ALL: [Floor; 5] = [
        Floor::OneBox,
        Floor::TileChain,
        Floor::CompoundSeam,
        Floor::SeparateSeam,
        Floor::ChainSeam,
    ];

    /// The floor's static bodies, each its list of shapes.
    pub fn bodies(self) -> Vec<Vec<Shape>> {
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
            // Right to left: an open chain's solid side is on the left of its direction,
            // so these face up (as the top of `tile_outlines`' loop does).
            Floor::ChainSeam => vec![
                segments(Chain::open(&[v(0.0, 0.0), v(-10.0, 0.0)]).unwrap()),
                segments(Chain::open(&[v(10.0, 0.0), v(0.0, 0.0)]).unwrap()),
            ],
        }
    }

    /// Where the lander's centre starts across: over the seam (x = 0) and off it by a part of
    /// the lander's width; on flat floors the same offsets.
    pub fn offsets(self) -> [f32; 3] {
        [0.0, 0.07, 0.16]
    }
}

/// The worst spin, upward speed and sideways speed of one drop.
#[derive(Clone, Copy, Default, Debug)]
pub struct Landing {
    /// Largest |angular velocity|, rad/s.
    pub spin: f32,
    /// Largest upward speed, m/s.
    pub hop: f32,
    /// Largest |sideways speed|, m/s.
    pub side: f32,
}

impl Landing {
    /// Takes in one step's angular velocity `w` and linear velocity `vel`.
    pub fn add(&mut self, w: f32, vel: Vec2) {
        self.spin = self.spin.max(w.abs());
        self.hop = self.hop.max(vel.y);
        self.side = self.side.max(vel.x.abs());
    }
    /// The worst of both.
    pub fn max(self, o: Landing) -> Landing {
        Landing {
            spin: self.spin.max(o.spin),
            hop: self.hop.max(o.hop),
            side: self.side.max(o.side),
        }
    }
}

/// The lander's start at `x` turned by `angle`: its lowest point 0.05 above the floor.
pub fn start(shape: &Shape, x: f32, angle: f32) -> Transform {
    let q = Rot::from_angle(angle);
    let lowest = shape.aabb(Transform { p: Vec2::ZERO, q }).min.y;
    Transform {
        p: v(x, 0.05 - lowest),
        q,
    }
}

/// One drop in collide2d's `World`: the lander at `x` turned by `angle`, moving down at
/// `speed`, stepped [`STEPS`] times at 60 Hz with 4 sub-steps.
pub fn drop_ours(floor: Floor, shape: &Shape, x: f32, angle: f32, speed: f32) -> Landing {
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
    check_rests_on_floor(shape, w.body(id).unwrap().transform, floor);
    out
}

/// Panics unless a lander at pose `xf` after its drop rests on the floor (y = 0): its
/// lowest point within 2 cm of it. A floor the lander falls through (or misses) would give
/// figures of 0 and pass every bound.
pub fn check_rests_on_floor(shape: &Shape, xf: Transform, floor: Floor) {
    let lowest = shape.aabb(xf).min.y;
    assert!(
        lowest.abs() < 0.02,
        "{floor:?}: the lander ends with its lowest point at {lowest}, not on the floor"
    );
}
