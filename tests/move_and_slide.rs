//! `move_and_slide` scenarios at 60 Hz for a box, a rounded box, a capsule and a circle mover:
//! walking across 100 seams (separate boxes and chain segments), pushing into a wall and into
//! V corners, slopes, a ceiling, starting in overlap, a thin wall at 100 sizes per frame,
//! ground snap down steps, a moving platform; randomized properties at offsets up to 10 000.
//! Every check is against brute-force geometry (tests/common), never the mover's own queries.
mod common;
use collide2d::*;
use common::*;

const DT: f32 = 1.0 / 60.0;
const GRAVITY: f32 = 9.8;

/// The four movers, each about 1 unit tall, with their half height (origin to bottom).
fn movers() -> Vec<(&'static str, Shape, f32)> {
    vec![
        ("box", Shape::Polygon(Polygon::make_box(0.4, 0.5).unwrap()), 0.5),
        (
            "rounded box",
            Shape::Polygon(Polygon::make_rounded_box(0.3, 0.4, 0.1).unwrap()),
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
    ]
}

/// Owned obstacles of a test level.
struct Level {
    shapes: Vec<(Shape, Transform)>,
}

impl Level {
    fn new() -> Level {
        Level { shapes: Vec::new() }
    }
    fn boxed(mut self, min: Vec2, max: Vec2) -> Level {
        let c = (min + max) * 0.5;
        let h = (max - min) * 0.5;
        self.shapes
            .push((Shape::Polygon(Polygon::make_box(h.x, h.y).unwrap()), at(c.x, c.y)));
        self
    }
    fn shape(mut self, s: Shape, xf: Transform) -> Level {
        self.shapes.push((s, xf));
        self
    }
    fn obstacles(&self) -> Vec<Obstacle<'_>> {
        self.shapes
            .iter()
            .enumerate()
            .map(|(i, (s, xf))| Obstacle::fixed(s, *xf, i as u64))
            .collect()
    }
    /// Smallest brute-force surface distance from the mover to any obstacle.
    fn clearance(&self, mover: &Shape, xf: Transform) -> f64 {
        self.shapes
            .iter()
            .map(|(s, x)| surface_distance(s, *x, mover, xf))
            .fold(f64::INFINITY, f64::min)
    }
}

/// A floor of `n` separate unit boxes, top at y = 0, from x = 0.
fn box_floor(n: usize) -> Level {
    (0..n).fold(Level::new(), |l, i| {
        l.boxed(v(i as f32, -1.0), v(i as f32 + 1.0, 0.0))
    })
}

/// A floor of `n` unit chain segments at y = 0 (front side up), each with its neighbours as
/// ghosts: seams between segments that meet flush.
fn chain_floor(n: usize) -> Level {
    (0..n).fold(Level::new(), |l, i| {
        let x = i as f32;
        let seg = ChainSegment::new(v(x + 2.0, 0.0), v(x + 1.0, 0.0), v(x, 0.0), v(x - 1.0, 0.0)).unwrap();
        l.shape(Shape::ChainSegment(seg), Transform::IDENTITY)
    })
}

/// One frame of a walking character: horizontal speed `vx` commanded, gravity on the vertical.
fn frame(
    level: &[Obstacle<'_>],
    mover: &Shape,
    pos: Vec2,
    vel: Vec2,
    vx: f32,
    opts: &MoveOptions,
) -> MoveResult {
    let vel = v(vx, vel.y - GRAVITY * DT);
    move_and_slide(level, mover, at(pos.x, pos.y), vel * DT, vel, opts)
}

#[test]
fn walking_across_100_seams_never_stops_bounces_or_slows() {
    // 5 m/s along floors of 100 separate boxes and of 100 chain segments, from four start
    // offsets, for every mover: each frame advances 5/60 within 1 % and the height changes by
    // at most 1e-5 (no bump at any seam), and the mover rests outside the floor within the
    // skin band.
    let opts = MoveOptions::default();
    let mut walks = 0;
    for (name, floor) in [("boxes", box_floor(100)), ("chain", chain_floor(100))] {
        let obstacles = floor.obstacles();
        for (mover_name, mover, half) in movers() {
            for start in [1.0f32, 1.25, 1.5, 1.9] {
                let mut pos = v(start, half + opts.skin);
                let mut vel = Vec2::ZERO;
                let mut worst_progress = f32::INFINITY;
                let mut worst_rise = 0.0f32;
                let mut min_gap = f64::INFINITY;
                for k in 0..1300 {
                    let r = frame(&obstacles, &mover, pos, vel, 5.0, &opts);
                    let d = r.position - pos;
                    if k > 2 {
                        worst_progress = worst_progress.min(d.x / (5.0 * DT));
                        worst_rise = worst_rise.max(d.y.abs());
                    }
                    assert!(r.on_ground, "{name} {mover_name} start {start} frame {k}: {r:?}");
                    pos = r.position;
                    vel = r.velocity;
                    min_gap = min_gap.min(floor.clearance(&mover, at(pos.x, pos.y)));
                    if pos.x > 97.0 {
                        break;
                    }
                }
                assert!(
                    pos.x > 97.0,
                    "{name} {mover_name} start {start}: stopped at {pos:?}"
                );
                assert!(
                    worst_progress > 0.99 && worst_progress < 1.01,
                    "{name} {mover_name} start {start}: worst progress {worst_progress}"
                );
                assert!(
                    worst_rise <= 1e-5,
                    "{name} {mover_name} start {start}: rise {worst_rise}"
                );
                assert!(
                    min_gap >= 0.0 && min_gap <= 2.0 * opts.skin as f64,
                    "{name} {mover_name} start {start}: gap {min_gap}"
                );
                walks += 1;
            }
        }
    }
    assert_eq!(walks, 32);
}

#[test]
fn pushing_into_a_wall_does_not_move_or_penetrate() {
    // Walk into a wall standing on the floor, then keep pushing for 60 frames: the position
    // stays within 1e-6 of the mover's size per frame, and never inside the wall.
    let opts = MoveOptions::default();
    let level = Level::new()
        .boxed(v(-10.0, -1.0), v(10.0, 0.0))
        .boxed(v(3.0, 0.0), v(4.0, 3.0));
    let obstacles = level.obstacles();
    for (name, mover, half) in movers() {
        let mut pos = v(0.0, half + opts.skin);
        let mut vel = Vec2::ZERO;
        for _ in 0..90 {
            let r = frame(&obstacles, &mover, pos, vel, 5.0, &opts);
            pos = r.position;
            vel = r.velocity;
        }
        let rest = pos;
        let gap = level.clearance(&mover, at(pos.x, pos.y));
        assert!(
            gap <= 2.0 * opts.skin as f64,
            "{name}: never reached the wall, {rest:?}"
        );
        for k in 0..60 {
            let r = frame(&obstacles, &mover, pos, vel, 5.0, &opts);
            let moved = (r.position - pos).length();
            let bound = (1e-6f32).max(f32::EPSILON * pos.x.abs().max(pos.y.abs()));
            assert!(moved <= bound, "{name} frame {k}: moved {moved}, {r:?}");
            assert!(
                r.velocity.x.abs() < 1e-4,
                "{name}: velocity into the wall kept, {r:?}"
            );
            pos = r.position;
            vel = r.velocity;
            let gap = level.clearance(&mover, at(pos.x, pos.y));
            assert!(gap >= 0.0, "{name} frame {k}: inside by {gap}");
        }
        assert!((pos - rest).length() < 1e-5);
    }
}

/// A V of two thick walls opening to the left with the apex at the origin, `angle` between
/// the walls (radians).
fn v_corner(angle: f32) -> Level {
    let half = angle * 0.5;
    let mut level = Level::new();
    for side in [1.0f32, -1.0] {
        // The wall's inner face runs from the apex out along direction (−cos, ±sin).
        let dir = v(-half.cos(), side * half.sin());
        let outward = v(dir.y, -dir.x) * side; // away from the inside of the V
        let len = 6.0;
        let center = dir * (len * 0.5) + outward * 0.5 * -1.0 * -1.0;
        let xf = Transform::new(center, dir.y.atan2(dir.x));
        level = level.shape(Shape::Polygon(Polygon::make_box(len * 0.5, 0.5).unwrap()), xf);
    }
    level
}

#[test]
fn pushing_into_v_corners_never_jitters_or_penetrates() {
    // V corners of 60°, 90° and 120°, no gravity, pushed into the apex at 5 m/s for 120
    // frames: after settling (60 frames) the mover moves at most 1e-6 of its size per frame,
    // and it is never inside a wall.
    let opts = MoveOptions::default();
    for angle_deg in [60.0f32, 90.0, 120.0] {
        let level = v_corner(angle_deg.to_radians());
        let obstacles = level.obstacles();
        for (name, mover, _) in movers() {
            let mut pos = v(-4.0, 0.0);
            assert!(
                level.clearance(&mover, at(pos.x, pos.y)) > 0.0,
                "{angle_deg} {name}: start"
            );
            let mut vel = v(5.0, 0.0);
            for k in 0..120 {
                let r = move_and_slide(&obstacles[..], &mover, at(pos.x, pos.y), vel * DT, vel, &opts);
                let moved = (r.position - pos).length();
                if k >= 60 {
                    assert!(
                        moved <= 1e-6,
                        "{angle_deg}° {name} frame {k}: jitter {moved}, {r:?}"
                    );
                }
                pos = r.position;
                vel = v(5.0, 0.0);
                let gap = level.clearance(&mover, at(pos.x, pos.y));
                assert!(gap >= 0.0, "{angle_deg}° {name} frame {k}: inside by {gap}");
            }
            assert!(
                pos.x > -3.0,
                "{angle_deg}° {name}: did not reach the corner, {pos:?}"
            );
        }
    }
}

#[test]
fn walkable_slopes_are_climbed_at_the_commanded_speed_and_steep_ones_are_not() {
    // A 30° ramp (max slope 45°): once on it, every frame advances 5/60 horizontally within
    // 1 %. A 60° ramp: the mover never gets more than a skin band above the foot.
    let opts = MoveOptions::default();
    for (deg, walkable) in [(30.0f32, true), (60.0, false)] {
        let t = deg.to_radians().tan();
        let ramp = Polygon::new(&[v(2.0, 0.0), v(12.0, 0.0), v(12.0, 10.0 * t)]).unwrap();
        let level = Level::new()
            .boxed(v(-10.0, -1.0), v(30.0, 0.0))
            .shape(Shape::Polygon(ramp), Transform::IDENTITY);
        let obstacles = level.obstacles();
        for (name, mover, half) in movers() {
            let mut pos = v(0.0, half + opts.skin);
            let mut vel = Vec2::ZERO;
            let mut max_y = pos.y;
            for _ in 0..150 {
                let r = frame(&obstacles, &mover, pos, vel, 5.0, &opts);
                let d = r.position - pos;
                let on_slope = pos.x > 4.0 && r.position.x < 10.0;
                if walkable && on_slope {
                    assert!(
                        (d.x / (5.0 * DT) - 1.0).abs() < 0.01,
                        "{deg}° {name}: progress {} at {pos:?}",
                        d.x / (5.0 * DT)
                    );
                    assert!(r.on_ground, "{deg}° {name}: not on ground at {pos:?}");
                }
                pos = r.position;
                vel = r.velocity;
                max_y = max_y.max(pos.y);
                assert!(
                    level.clearance(&mover, at(pos.x, pos.y)) >= 0.0,
                    "{deg}° {name}: inside at {pos:?}"
                );
            }
            if walkable {
                assert!(pos.x > 11.0, "{deg}° {name}: did not climb, {pos:?}");
            } else {
                assert!(
                    max_y < half + 0.5,
                    "{deg}° {name}: climbed the steep slope to {max_y}"
                );
            }
        }
    }
}

#[test]
fn a_ceiling_stops_a_jump() {
    let opts = MoveOptions::default();
    let level = Level::new()
        .boxed(v(-10.0, -1.0), v(10.0, 0.0))
        .boxed(v(-10.0, 2.0), v(10.0, 3.0));
    let obstacles = level.obstacles();
    for (name, mover, half) in movers() {
        let mut pos = v(0.0, half + opts.skin);
        let mut vel = v(0.0, 12.0);
        let mut hit_ceiling = false;
        for k in 0..60 {
            let r = move_and_slide(&obstacles[..], &mover, at(pos.x, pos.y), vel * DT, vel, &opts);
            let gap = level.clearance(&mover, at(r.position.x, r.position.y));
            assert!(gap >= 0.0, "{name} frame {k}: inside by {gap}");
            if r.contacts().iter().any(|c| c.plane.normal.y < -0.99) {
                hit_ceiling = true;
                assert!(
                    r.velocity.y <= 0.0,
                    "{name}: still rising after the ceiling, {r:?}"
                );
                assert!(r.position.y + half <= 2.0, "{name}");
            }
            pos = r.position;
            vel = v(0.0, r.velocity.y - GRAVITY * DT);
        }
        assert!(hit_ceiling, "{name}");
    }
}

#[test]
fn a_mover_started_in_a_wall_is_pushed_out_in_one_frame_without_overshoot() {
    let opts = MoveOptions::default();
    let level = Level::new().boxed(v(0.0, -5.0), v(4.0, 5.0));
    let obstacles = level.obstacles();
    for (name, mover, _) in movers() {
        for depth in [0.001f32, 0.05, 0.2] {
            // Its right side `depth` into the wall's left face.
            let extent = mover.aabb(Transform::IDENTITY).max.x;
            let pos = v(depth - extent, 0.0);
            let r = move_and_slide(
                &obstacles[..],
                &mover,
                at(pos.x, pos.y),
                Vec2::ZERO,
                Vec2::ZERO,
                &opts,
            );
            let gap = level.clearance(&mover, at(r.position.x, r.position.y));
            assert!(
                gap >= opts.skin as f64 * 0.98 && gap <= opts.skin as f64 * 1.02,
                "{name} depth {depth}: gap after one frame {gap}, {r:?}"
            );
            assert!(r.position.y.abs() < 1e-6, "{name}: pushed sideways, {r:?}");
            // And stays.
            let r2 = move_and_slide(
                &obstacles[..],
                &mover,
                at(r.position.x, r.position.y),
                Vec2::ZERO,
                Vec2::ZERO,
                &opts,
            );
            assert!((r2.position - r.position).length() < 1e-6, "{name}: {r2:?}");
        }
    }
}

#[test]
fn at_a_hundred_sizes_per_frame_a_thin_wall_is_never_passed() {
    let opts = MoveOptions::default();
    let mut rng = Rng(100);
    for (name, mover, _) in movers() {
        for _ in 0..50 {
            let x = rng.range(10.0, 90.0);
            let level = Level::new().boxed(v(x, -20.0), v(x + 0.02, 20.0));
            let obstacles = level.obstacles();
            let start = v(0.0, rng.range(-5.0, 5.0));
            let t = v(100.0, rng.range(-20.0, 20.0));
            let r = move_and_slide(&obstacles[..], &mover, at(start.x, start.y), t, t * 60.0, &opts);
            assert!(r.position.x < x, "{name}: passed the wall at {x}: {r:?}");
            assert!(level.clearance(&mover, at(r.position.x, r.position.y)) >= 0.0);
        }
    }
}

#[test]
fn ground_snap_follows_steps_down_and_a_jump_is_not_snapped() {
    // Steps down of 0.2 every 2 units; snap 0.3. A sharp box is on the ground every frame; a
    // rounded mover rolls over each step's edge (its round bottom rests on the corner, a
    // steep contact, not ground) for at most 3 frames a step. No mover ever moves up.
    let opts = MoveOptions {
        ground_snap: 0.3,
        ..MoveOptions::default()
    };
    let mut level = Level::new();
    for i in 0..10 {
        let top = -0.2 * i as f32;
        level = level.boxed(v(2.0 * i as f32, top - 1.0), v(2.0 * i as f32 + 2.0, top));
    }
    let obstacles = level.obstacles();
    for (name, mover, half) in movers() {
        let mut pos = v(0.5, half + opts.skin);
        let mut vel = Vec2::ZERO;
        let mut off_ground = 0;
        for k in 0..300 {
            let r = frame(&obstacles, &mover, pos, vel, 5.0, &opts);
            if !r.on_ground {
                off_ground += 1;
                assert!(
                    name != "box",
                    "{name} frame {k}: left the ground at {:?}",
                    r.position
                );
            }
            assert!(r.position.y <= pos.y + 1e-5, "{name} frame {k}: moved up, {r:?}");
            assert!(level.clearance(&mover, at(r.position.x, r.position.y)) >= 0.0);
            pos = r.position;
            vel = r.velocity;
            if pos.x > 18.6 {
                break;
            }
        }
        assert!(pos.x > 18.6, "{name}: {pos:?}");
        assert!(off_ground <= 3 * 9, "{name}: {off_ground} frames off the ground");
        assert!((pos.y - (half + opts.skin - 1.8)).abs() < 0.02, "{name}: {pos:?}");
        // A jump from the ground is not snapped back.
        let up = v(0.0, 3.0);
        let r = move_and_slide(&obstacles[..], &mover, at(pos.x, pos.y), up * DT, up, &opts);
        assert!(r.position.y > pos.y + 0.04 && !r.on_ground, "{name}: {r:?}");
    }
}

#[test]
fn a_moving_platform_carries_the_mover() {
    // A platform moving right at 2 m/s and up at 0.5 m/s; the mover stands still on it. Each
    // frame the platform is moved first, then the mover: it keeps its place on the platform.
    let opts = MoveOptions {
        time_step: DT,
        ..MoveOptions::default()
    };
    let platform = Shape::Polygon(Polygon::make_box(2.0, 0.25).unwrap());
    let pv = v(2.0, 0.5);
    for (name, mover, half) in movers() {
        let mut p = v(0.0, -0.25);
        let mut pos = v(0.3, half + opts.skin);
        let mut vel = Vec2::ZERO;
        for k in 0..120 {
            p += pv * DT;
            let obstacle = [Obstacle::fixed(&platform, at(p.x, p.y), 7).moving(pv, 0.0, p)];
            let r = frame(&obstacle, &mover, pos, vel, 0.0, &opts);
            assert!(r.on_ground && r.ground.user_data == 7, "{name} frame {k}: {r:?}");
            assert!((r.ground.velocity - pv).length() < 1e-6);
            pos = r.position;
            vel = r.velocity;
            let rel = pos - p;
            assert!(
                (rel - v(0.3, 0.25 + half + opts.skin)).length() < 2e-3,
                "{name} frame {k}: drifted on the platform to {rel:?}"
            );
        }
    }
}
