//! Auto-step (`MoveOptions::max_step_height`): five mover shapes walking at 60 Hz into stairs
//! of several heights climb every step no taller than the option in the frame they reach it
//! and end standing on its top, and do not climb a step that is too tall, a top steeper than
//! walkable, or a top under a ceiling without room for them; with ground snap they walk back
//! down. Every position is checked against brute-force geometry (tests/common): the height
//! of the mover's bottom over the top it stands on, and its clearance from every obstacle.
mod common;
use collide2d::*;
use common::*;

const DT: f32 = 1.0 / 60.0;
const GRAVITY: f32 = 9.8;
const SKIN: f32 = 0.01;

/// The movers, about 1 unit tall, with their half height (origin to bottom).
fn movers() -> Vec<(&'static str, Shape, f32)> {
    let hexagon: Vec<Vec2> = (0..6)
        .map(|k| {
            let a = core::f32::consts::PI / 3.0 * k as f32;
            v(0.4 * a.cos(), 0.5 * a.sin())
        })
        .collect();
    vec![
        ("box", Shape::Polygon(Polygon::make_box(0.3, 0.5).unwrap()), 0.5),
        (
            "rounded box",
            Shape::Polygon(Polygon::make_rounded_box(0.2, 0.4, 0.1).unwrap()),
            0.5,
        ),
        (
            "capsule",
            Shape::Capsule(Capsule::new(v(0.0, -0.2), v(0.0, 0.2), 0.3).unwrap()),
            0.5,
        ),
        (
            "circle",
            Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap()),
            0.5,
        ),
        (
            "hexagon",
            Shape::Polygon(Polygon::new(&hexagon).unwrap()),
            0.5 * (core::f32::consts::PI / 3.0).sin(),
        ),
    ]
}

struct Level {
    shapes: Vec<(Shape, Transform)>,
}

impl Level {
    fn boxed(mut self, min: Vec2, max: Vec2) -> Level {
        let c = (min + max) * 0.5;
        let h = (max - min) * 0.5;
        self.shapes
            .push((Shape::Polygon(Polygon::make_box(h.x, h.y).unwrap()), at(c.x, c.y)));
        self
    }
    fn obstacles(&self) -> Vec<Obstacle<'_>> {
        self.shapes
            .iter()
            .enumerate()
            .map(|(i, (s, xf))| Obstacle::fixed(s, *xf, i as u64))
            .collect()
    }
    fn clearance(&self, mover: &Shape, xf: Transform) -> f64 {
        self.shapes
            .iter()
            .map(|(s, x)| surface_distance(s, *x, mover, xf))
            .fold(f64::INFINITY, f64::min)
    }
}

/// A floor (top at y = 0) and, from x = 2 on, a block whose top is at `height`.
fn step_level(height: f32) -> Level {
    Level { shapes: Vec::new() }
        .boxed(v(-10.0, -1.0), v(10.0, 0.0))
        .boxed(v(2.0, -1.0), v(10.0, height))
}

/// Stairs up from x = 2: `n` steps of `rise` and `run` 1, then a landing.
fn stairs(rise: f32, n: usize) -> Level {
    let mut l = Level { shapes: Vec::new() }.boxed(v(-10.0, -1.0), v(2.0, 0.0));
    for k in 0..=n {
        let x = 2.0 + k as f32;
        let w = if k == n { 10.0 } else { 1.0 };
        l = l.boxed(v(x, -1.0), v(x + w, rise * (k + 1) as f32));
    }
    l
}

fn options(step: f32) -> MoveOptions {
    MoveOptions {
        max_step_height: step,
        ground_snap: step,
        ..MoveOptions::default()
    }
}

/// Walks `mover` right at `speed` from x = 0 for `frames` frames; returns every result.
fn walk(
    level: &Level,
    mover: &Shape,
    half: f32,
    speed: f32,
    frames: usize,
    opts: &MoveOptions,
) -> Vec<MoveResult> {
    let obstacles = level.obstacles();
    let mut pos = v(0.0, half + SKIN);
    let mut vel = Vec2::ZERO;
    let mut out = Vec::new();
    for _ in 0..frames {
        vel = v(speed, vel.y - GRAVITY * DT);
        let r = move_and_slide(&obstacles[..], mover, at(pos.x, pos.y), vel * DT, vel, opts);
        assert!(
            level.clearance(mover, at(r.position.x, r.position.y)) >= f64::from(SKIN) * 0.25 - 1e-5,
            "inside a surface: {r:?}"
        );
        pos = r.position;
        vel = r.velocity;
        out.push(r);
    }
    out
}

#[test]
fn steps_no_taller_than_the_option_are_climbed_in_one_frame() {
    for (name, mover, half) in movers() {
        for height in [0.05f32, 0.1, 0.2, 0.25] {
            let level = step_level(height);
            let rs = walk(&level, &mover, half, 3.0, 90, &options(0.25));
            let last = rs.last().unwrap();
            // It is on the top, well past the riser, standing a skin above it.
            assert!(
                last.position.x > 4.0,
                "{name} {height}: stuck at {:?}",
                last.position
            );
            // Standing on it: in the skin band over its top.
            let bottom = last.position.y - half - height;
            assert!(
                (0.25 * SKIN..=2.0 * SKIN).contains(&bottom),
                "{name} {height}: bottom {bottom} over the top"
            );
            assert!(last.on_ground, "{name} {height}");
            // Every frame it stands on ground (it never leaves the floor nor hangs at the
            // riser), and the climb happens at once: the frames that rose add up to the step.
            let climbed: f32 = rs.iter().map(|r| r.stepped_up).sum();
            assert!(rs.iter().all(|r| r.on_ground), "{name} {height}: off the ground");
            // A box rises in one frame. A round or slanted one comes down on the
            // step's corner first and rises as it walks on over it: within the frames it takes
            // to walk its own half width.
            let rising = rs
                .windows(2)
                .filter(|w| w[1].position.y > w[0].position.y + 1e-4)
                .count();
            let half_width = match name {
                "circle" => 0.5,
                "hexagon" => 0.4,
                _ => 0.3,
            };
            let frames = if name == "box" {
                1
            } else {
                (half_width / (3.0 * DT)).ceil() as usize + 1
            };
            assert!(rising <= frames, "{name} {height}: rose over {rising} frames");
            // Round movers may roll up a low step on their own (no auto-step needed).
            assert!(
                climbed <= height + 2.0 * SKIN,
                "{name} {height}: climbed {climbed}"
            );
            // It never slowed at the step: the walk lost at most a frame's travel.
            assert!(
                last.position.x > 90.0 * DT * 3.0 - 0.06,
                "{name} {height}: {:?}",
                last.position
            );
        }
    }
}

#[test]
fn stairs_are_walked_up_and_with_ground_snap_back_down() {
    for (name, mover, half) in movers() {
        for rise in [0.1f32, 0.2] {
            let level = stairs(rise, 4);
            let rs = walk(&level, &mover, half, 4.0, 150, &options(0.25));
            let last = rs.last().unwrap();
            let top = rise * 5.0;
            assert!(
                last.position.x > 7.5,
                "{name} {rise}: stuck at {:?}",
                last.position
            );
            let bottom = last.position.y - half - top;
            assert!(
                (0.25 * SKIN..=2.0 * SKIN).contains(&bottom),
                "{name} {rise}: {:?}",
                last.position
            );
            assert!(rs.iter().all(|r| r.on_ground), "{name} {rise}: off the ground");
            // Back down: walking left with snap, on the ground every frame, down to the floor.
            let obstacles = level.obstacles();
            let opts = options(0.25);
            let mut pos = last.position;
            let mut vel = Vec2::ZERO;
            for k in 0..150 {
                vel = v(-4.0, vel.y - GRAVITY * DT);
                let r = move_and_slide(&obstacles[..], &mover, at(pos.x, pos.y), vel * DT, vel, &opts);
                assert!(
                    r.position.y <= pos.y + 1e-5,
                    "{name} {rise} frame {k}: rose going down"
                );
                // Rounded movers roll over each edge (a steep contact) for a frame or two.
                if name == "box" {
                    assert!(r.on_ground, "{name} {rise} frame {k}: {r:?}");
                }
                pos = r.position;
                vel = r.velocity;
            }
            assert!(pos.x < 1.5, "{name} {rise}: {pos:?}");
            assert!(
                (0.25 * SKIN..=2.0 * SKIN).contains(&(pos.y - half)),
                "{name} {rise}: {pos:?}"
            );
        }
    }
}

#[test]
fn steps_taller_than_the_option_are_not_climbed() {
    for (name, mover, half) in movers() {
        for height in [0.3f32, 0.5, 1.0] {
            let level = step_level(height);
            let rs = walk(&level, &mover, half, 3.0, 60, &options(0.25));
            let last = rs.last().unwrap();
            assert!(
                last.position.x < 2.0,
                "{name} {height}: climbed to {:?}",
                last.position
            );
            assert!(
                (last.position.y - half - SKIN).abs() < 0.25 * SKIN,
                "{name} {height}: {:?}",
                last.position
            );
            assert!(rs.iter().all(|r| r.stepped_up == 0.0), "{name} {height}");
        }
        // Without the option, a sharp box does not climb even a low step.
        if name == "box" {
            let rs = walk(&step_level(0.05), &mover, half, 3.0, 60, &options(0.0));
            assert!(
                rs.last().unwrap().position.x < 2.0,
                "{name}: climbed without auto-step"
            );
        }
    }
}

#[test]
fn a_steep_top_or_a_top_without_headroom_is_not_climbed() {
    for (name, mover, half) in movers() {
        // A step of 0.1 whose top rises at 60° (steeper than the walkable 45°).
        let wedge =
            Polygon::new(&[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 0.1 + 3f32.sqrt()), v(0.0, 0.1)]).unwrap();
        let mut level = Level { shapes: Vec::new() }.boxed(v(-10.0, -1.0), v(10.0, 0.0));
        level.shapes.push((Shape::Polygon(wedge), at(2.0, 0.0)));
        let rs = walk(&level, &mover, half, 3.0, 60, &options(0.25));
        let last = rs.last().unwrap();
        assert!(
            rs.iter().all(|r| r.stepped_up == 0.0),
            "{name}: stepped onto a steep top"
        );
        assert!(last.position.y - half < 0.1, "{name}: {:?}", last.position);
        // A step of 0.1 under a ceiling that leaves 0.05 less than the mover's height.
        let tall = 2.0 * half;
        let low = step_level(0.1).boxed(v(2.0, 0.1 + tall - 0.05), v(10.0, 3.0));
        let rs = walk(&low, &mover, half, 3.0, 60, &options(0.25));
        let last = rs.last().unwrap();
        assert!(
            last.position.x < 2.0,
            "{name}: climbed under a low ceiling: {:?}",
            last.position
        );
        assert!(rs.iter().all(|r| r.stepped_up == 0.0), "{name}");
        // The same step with room under the ceiling (0.1 to spare) is climbed.
        let roomy = step_level(0.1).boxed(v(2.0, 0.1 + tall + 0.1), v(10.0, 3.0));
        let rs = walk(&roomy, &mover, half, 3.0, 90, &options(0.25));
        assert!(
            rs.last().unwrap().position.x > 4.0,
            "{name}: did not climb under a high ceiling"
        );
    }
}

#[test]
fn a_jump_or_a_mover_in_the_air_does_not_step() {
    let level = step_level(0.2);
    let obstacles = level.obstacles();
    for (name, mover, half) in movers() {
        // In the air next to the riser, falling: it slides down the riser, no step.
        let x = 2.0 - 0.4 - 2.0 * SKIN;
        let r = move_and_slide(
            &obstacles[..],
            &mover,
            at(x, half + 0.15),
            v(0.2, -0.05),
            v(12.0, -3.0),
            &options(0.25),
        );
        assert_eq!(r.stepped_up, 0.0, "{name}: {r:?}");
        // Jumping at the riser from the floor: moving up, no step.
        let r = move_and_slide(
            &obstacles[..],
            &mover,
            at(x, half + SKIN),
            v(0.2, 0.05),
            v(12.0, 3.0),
            &options(0.25),
        );
        assert_eq!(r.stepped_up, 0.0, "{name}: {r:?}");
    }
}
