//! Box2D v3's benchmark scenes (its `shared/benchmarks.c`) as one body list each, which the
//! scene runner (`examples/scenes.rs`) builds in collide2d's `World` and in Box2D, and the
//! snapshot comparison (`examples/snapshot_cost.rs`) in collide2d's `World` and in rapier2d.
//!
//! The scenes differ from Box2D's file where collide2d's `World` has no equivalent,
//! identically for every engine: one shape per body (the tumbler's four walls are four
//! bodies), motors are kinematic bodies turning at the motor's speed (tumbler, spinner), the
//! spinner's chain loop is 360 static bodies of one chain segment each (one-sided, facing in,
//! with the loop's ghost vertices), and the many-pyramids ground is one static body per
//! segment row. `tile_slide` is ours: bodies sliding over a floor of separate static boxes,
//! where internal-edge removal works.
//!
//! `SCENES_BAR_SPEED` (rad/s) perturbs the spinner's bar and `SCENES_RING=segments` builds its
//! ring of two-sided segments.
use collide2d::*;

/// One body of a scene: one shape, at rest unless `v`/`w` say otherwise.
#[derive(Clone, Copy)]
pub struct Spec {
    /// Static, kinematic or dynamic.
    pub kind: BodyKind,
    /// Starting transform.
    pub xf: Transform,
    /// Starting linear velocity (m/s).
    pub v: Vec2,
    /// Starting angular velocity (rad/s, counter-clockwise positive).
    pub w: f32,
    /// The body's one shape, in body coordinates.
    pub shape: Shape,
    /// Density, friction and restitution.
    pub material: Material,
    /// Whether the body may sleep.
    pub enable_sleep: bool,
    /// Its collision filter.
    pub filter: Filter,
}

/// A body at rest at `p` with the default material.
pub fn spec(kind: BodyKind, p: Vec2, shape: Shape) -> Spec {
    Spec {
        kind,
        xf: Transform::from_translation(p),
        v: Vec2::ZERO,
        w: 0.0,
        shape,
        material: Material::default(),
        enable_sleep: true,
        filter: Filter::DEFAULT,
    }
}

/// A square of half extent `h`.
pub fn square(h: f32) -> Shape {
    Shape::Polygon(Polygon::make_box(h, h).unwrap())
}

/// End-state measure of a scene.
#[derive(Clone, Copy)]
pub enum Measure {
    /// Largest displacement (m) of the dynamic bodies from their start.
    Displacement,
    /// Bodies outside the rotating box of half-size 10 about (0, 10) turned by ω t.
    OutsideBox(f32),
    /// Bodies farther than 40 m from (0, 32).
    OutsideRing,
    /// Largest rise (m) of a dynamic body above its start: a hop or a snag on a seam.
    Rise,
}

/// A scene: its bodies and its end measure.
pub struct Scene {
    /// The scene's name in the runner's output.
    pub name: &'static str,
    /// Its bodies, in the order both engines add them.
    pub bodies: Vec<Spec>,
    /// What the runner reports at the end.
    pub measure: Measure,
    /// Revolute joints: body indices A and B and the anchor in each body's frame.
    pub hinges: Vec<(usize, usize, Vec2, Vec2)>,
}

/// Appends a pyramid of `base` rows of squares of half extent `extent`, its bottom row
/// centred on `center_x + extent * base` and resting on `y = base_y`.
pub fn pyramid(out: &mut Vec<Spec>, base: usize, extent: f32, center_x: f32, base_y: f32) {
    for i in 0..base {
        let y = (2.0 * i as f32 + 1.0) * extent + base_y;
        for j in i..base {
            let x = (i as f32 + 1.0) * extent + 2.0 * (j - i) as f32 * extent + center_x;
            out.push(spec(BodyKind::Dynamic, Vec2::new(x, y), square(extent)));
        }
    }
}

/// Box2D's large pyramid: `base` rows of unit boxes (`base (base + 1) / 2` of them) on a
/// static box 200 m wide.
pub fn large_pyramid(base: usize) -> Scene {
    let mut b = vec![spec(
        BodyKind::Static,
        Vec2::new(0.0, -1.0),
        Shape::Polygon(Polygon::make_box(100.0, 1.0).unwrap()),
    )];
    pyramid(&mut b, base, 0.5, -0.5 * base as f32, 0.0);
    Scene {
        name: if base == 100 {
            "large_pyramid_100"
        } else {
            "large_pyramid_140"
        },
        bodies: b,
        measure: Measure::Displacement,
        hinges: Vec::new(),
    }
}

/// Box2D's many pyramids: 20 × 20 pyramids of 10 rows on 20 static segment rows.
pub fn many_pyramids() -> Scene {
    let (base, extent, rows, cols) = (10usize, 0.5f32, 20usize, 20usize);
    let ground_dy = 2.0 * extent * (base as f32 + 1.0);
    let ground_w = 2.0 * extent * cols as f32 * (base as f32 + 1.0);
    let mut b = Vec::new();
    for i in 0..rows {
        let y = i as f32 * ground_dy;
        let seg = Shape::Capsule(
            Capsule::new(Vec2::new(-0.5 * ground_w, y), Vec2::new(0.5 * ground_w, y), 0.0).unwrap(),
        );
        b.push(spec(BodyKind::Static, Vec2::ZERO, seg));
    }
    let base_w = 2.0 * extent * base as f32;
    for i in 0..rows {
        for j in 0..cols {
            let cx = -0.5 * ground_w + j as f32 * (base_w + 2.0 * extent) + 2.0 * extent;
            pyramid(&mut b, base, extent, cx - 0.5, i as f32 * ground_dy);
        }
    }
    Scene {
        name: "many_pyramids_20x20",
        bodies: b,
        measure: Measure::Displacement,
        hinges: Vec::new(),
    }
}

/// Not one of Box2D's scenes: 900 bodies (boxes, capsules lying down and circles, about half a
/// metre across, friction 0) sliding at 4 m/s over a floor of 1000 separate static unit boxes,
/// so that nearly every contact is with a tile and crosses a seam every quarter second: the
/// scene where internal-edge removal works (`SCENES_NO_EDGE_REMOVAL=1` for its cost).
pub fn tile_slide() -> Scene {
    let mut b: Vec<Spec> = (0..1000)
        .map(|i| spec(BodyKind::Static, Vec2::new(i as f32 - 499.5, -0.5), square(0.5)))
        .collect();
    let capsule = Shape::Capsule(Capsule::new(Vec2::new(-0.15, 0.0), Vec2::new(0.15, 0.0), 0.1).unwrap());
    let circle = Shape::Circle(Circle::new(Vec2::ZERO, 0.25).unwrap());
    for i in 0..900 {
        let (shape, low) = [(square(0.25), 0.25), (capsule, 0.1), (circle, 0.25)][i % 3];
        let mut s = spec(BodyKind::Dynamic, Vec2::new(i as f32 - 480.0 + 0.3, low), shape);
        s.v = Vec2::new(4.0, 0.0);
        s.material.friction = 0.0;
        b.push(s);
    }
    Scene {
        name: "tile_slide",
        bodies: b,
        measure: Measure::Rise,
        hinges: Vec::new(),
    }
}

/// The tumbler's turning speed (rad/s): Box2D's 25 degrees a second.
pub const TUMBLER_SPEED: f32 = 25.0 * core::f32::consts::PI / 180.0;

/// Box2D's tumbler: 2 025 small boxes in a box of four kinematic walls turning at
/// [`TUMBLER_SPEED`] about (0, 10).
pub fn tumbler() -> Scene {
    let mut b = Vec::new();
    for (hx, hy, c) in [
        (0.5, 10.0, Vec2::new(10.0, 0.0)),
        (0.5, 10.0, Vec2::new(-10.0, 0.0)),
        (10.0, 0.5, Vec2::new(0.0, 10.0)),
        (10.0, 0.5, Vec2::new(0.0, -10.0)),
    ] {
        let wall = Shape::Polygon(Polygon::make_offset_box(hx, hy, c, Rot::IDENTITY).unwrap());
        let mut s = spec(BodyKind::Kinematic, Vec2::new(0.0, 10.0), wall);
        s.w = TUMBLER_SPEED;
        b.push(s);
    }
    let n = 45;
    let mut y = -0.2 * n as f32 + 10.0;
    for _ in 0..n {
        let mut x = -0.2 * n as f32;
        for _ in 0..n {
            b.push(spec(BodyKind::Dynamic, Vec2::new(x, y), square(0.125)));
            x += 0.4;
        }
        y += 0.4;
    }
    Scene {
        name: "tumbler",
        bodies: b,
        measure: Measure::OutsideBox(TUMBLER_SPEED),
        hinges: Vec::new(),
    }
}

/// Box2D's spinner (`with_bar`) or its pile without the bar: 6 076 capsules, circles and
/// boxes inside a ring of 360 chain segments of radius 40 m.
pub fn spinner(with_bar: bool) -> Scene {
    let mut b = Vec::new();
    let n = 360;
    let q = Rot::from_angle(-2.0 * core::f32::consts::PI / n as f32);
    let mut p = Vec2::new(40.0, 0.0);
    let mut points = Vec::new();
    for _ in 0..n {
        points.push(Vec2::new(p.x, p.y + 32.0));
        p = q.rotate(p);
    }
    // Box2D's ring is a chain loop; clockwise, so its one-sided faces point inward.
    // `SCENES_RING=segments` builds it of two-sided segments instead (both engines).
    let ring = Chain::closed(&points).unwrap();
    assert_eq!(ring.segment_count(), n);
    let two_sided = std::env::var("SCENES_RING").is_ok_and(|v| v == "segments");
    for seg in ring.segments() {
        let shape = if two_sided {
            Shape::Capsule(seg.segment())
        } else {
            Shape::ChainSegment(seg)
        };
        let mut s = spec(BodyKind::Static, Vec2::ZERO, shape);
        s.material.friction = 0.1;
        b.push(s);
    }
    if with_bar {
        let bar = Polygon::make_box(0.4, 20.0).unwrap().inflated(0.2).unwrap();
        let mut s = spec(BodyKind::Kinematic, Vec2::new(0.0, 12.0), Shape::Polygon(bar));
        // `SCENES_BAR_SPEED` (rad/s, default Box2D's 5) perturbs the trajectory: one run's
        // escape count is one sample of a chaotic scene.
        s.w = std::env::var("SCENES_BAR_SPEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(5.0);
        s.material.friction = 0.0;
        s.enable_sleep = false;
        b.push(s);
    }
    let capsule = Shape::Capsule(Capsule::new(Vec2::new(-0.25, 0.0), Vec2::new(0.25, 0.0), 0.25).unwrap());
    let circle = Shape::Circle(Circle::new(Vec2::ZERO, 0.35).unwrap());
    let (mut x, mut y) = (-23.0f32, 2.0f32);
    for i in 0..2 * 3038 {
        let shape = [capsule, circle, square(0.35)][i % 3];
        let mut s = spec(BodyKind::Dynamic, Vec2::new(x, y), shape);
        s.material = Material {
            density: 0.25,
            friction: 0.1,
            restitution: 0.1,
        };
        b.push(s);
        x += 0.5;
        if x >= 23.0 {
            x = -23.0;
            y += 0.5;
        }
    }
    Scene {
        name: if with_bar { "spinner" } else { "pile" },
        bodies: b,
        measure: Measure::OutsideRing,
        hinges: Vec::new(),
    }
}

/// The `World` body definition of `s`.
pub fn body_def(s: &Spec) -> BodyDef {
    let mut d = BodyDef::new(s.kind, s.xf, s.shape);
    d.linear_velocity = s.v;
    d.angular_velocity = s.w;
    d.material = s.material;
    d.enable_sleep = s.enable_sleep;
    d.filter = s.filter;
    d
}

/// Box2D's joint grid: `n × n` circles of radius 0.4 one metre apart, each joined by a
/// revolute joint to the one above and the one to its left (anchors half-way), seven of the
/// top row static; the circles do not collide with each other (category 2, mask all but 2).
pub fn joint_grid(n: usize) -> Scene {
    let mut bodies = Vec::with_capacity(n * n);
    let mut hinges = Vec::with_capacity(2 * n * n);
    let filter = Filter {
        category_bits: 2,
        mask_bits: !2u64,
        group_index: 0,
    };
    for k in 0..n {
        for i in 0..n {
            let fixed = k + 3 >= n / 2 && k <= n / 2 + 3 && i == 0;
            let kind = if fixed {
                BodyKind::Static
            } else {
                BodyKind::Dynamic
            };
            let mut b = spec(kind, Vec2::new(k as f32, -(i as f32)), Shape::circle(0.4));
            b.filter = filter;
            b.enable_sleep = false;
            let index = bodies.len();
            if i > 0 {
                hinges.push((index - 1, index, Vec2::new(0.0, -0.5), Vec2::new(0.0, 0.5)));
            }
            if k > 0 {
                hinges.push((index - n, index, Vec2::new(0.5, 0.0), Vec2::new(-0.5, 0.0)));
            }
            bodies.push(b);
        }
    }
    Scene {
        name: "joint_grid",
        bodies,
        measure: Measure::Displacement,
        hinges,
    }
}
