//! The test levels of `tests/move_and_slide.rs`, shared with its Box2D comparison
//! (`peers/tests/move_and_slide.rs`): owned obstacles with brute-force clearance, a floor of
//! separate boxes and random levels. Included by both with `#[path]`; reads the random shapes
//! and brute-force geometry from the including crate's `common`.
#![allow(dead_code)]

use collide2d::*;

use crate::common::{at, random_capsule, random_circle, random_polygon, surface_distance, v, Rng};

/// Owned obstacles of a test level.
pub struct Level {
    /// Each obstacle's shape and pose.
    pub shapes: Vec<(Shape, Transform)>,
}

impl Level {
    /// An empty level.
    pub fn new() -> Level {
        Level { shapes: Vec::new() }
    }
    /// The level plus an axis-aligned box from `min` to `max`.
    pub fn boxed(mut self, min: Vec2, max: Vec2) -> Level {
        let c = (min + max) * 0.5;
        let h = (max - min) * 0.5;
        self.shapes
            .push((Shape::Polygon(Polygon::make_box(h.x, h.y).unwrap()), at(c.x, c.y)));
        self
    }
    /// The level plus `s` at `xf`.
    pub fn shape(mut self, s: Shape, xf: Transform) -> Level {
        self.shapes.push((s, xf));
        self
    }
    /// The obstacles as `move_and_slide` takes them, user data their index.
    pub fn obstacles(&self) -> Vec<Obstacle<'_>> {
        self.shapes
            .iter()
            .enumerate()
            .map(|(i, (s, xf))| Obstacle::fixed(s, *xf, i as u64))
            .collect()
    }
    /// Smallest brute-force surface distance from the mover to any obstacle.
    pub fn clearance(&self, mover: &Shape, xf: Transform) -> f64 {
        self.shapes
            .iter()
            .map(|(s, x)| surface_distance(s, *x, mover, xf))
            .fold(f64::INFINITY, f64::min)
    }

    /// [`Level::clearance`] over the solid obstacles only. A lone chain segment is one-sided
    /// about its whole line (Box2D's rule): a mover whose centre gets round its end is behind
    /// it and passes, which is its contract, not an overlap (chains are checked by the seam
    /// walks and tests/chains.rs).
    pub fn solid_clearance(&self, mover: &Shape, xf: Transform) -> f64 {
        self.shapes
            .iter()
            .filter(|(s, _)| !matches!(s, Shape::ChainSegment(_)))
            .map(|(s, x)| surface_distance(s, *x, mover, xf))
            .fold(f64::INFINITY, f64::min)
    }
}

/// A floor of `n` separate unit boxes, top at y = 0, from x = 0.
pub fn box_floor(n: usize) -> Level {
    (0..n).fold(Level::new(), |l, i| {
        l.boxed(v(i as f32, -1.0), v(i as f32 + 1.0, 0.0))
    })
}

/// A random level around the origin: boxes, circles, capsules, rounded polygons and chain
/// segments, plus a floor box whose top is at y = 0.
pub fn random_level(rng: &mut Rng, s: f32) -> Level {
    let mut level = Level::new().boxed(v(-6.0 * s, -s), v(6.0 * s, 0.0));
    for _ in 0..10 {
        let c = rng.vec(4.0 * s);
        let xf = Transform::new(c, rng.range(-3.2, 3.2));
        let shape = match rng.index(5) {
            0 => {
                Shape::Polygon(Polygon::make_box(rng.range(0.05, 1.0) * s, rng.range(0.05, 1.0) * s).unwrap())
            }
            1 => Shape::Circle(random_circle(rng, s)),
            2 => Shape::Capsule(random_capsule(rng, s, true)),
            3 => {
                let (n, r) = (3 + rng.index(6), rng.range(0.0, 0.2) * s);
                Shape::Polygon(random_polygon(rng, s, n, r))
            }
            _ => {
                let p = [rng.vec(s), rng.vec(s)];
                let seg = ChainSegment::new(p[0] - rng.vec(s), p[0], p[1], p[1] + rng.vec(s));
                match seg {
                    Ok(seg) => Shape::ChainSegment(seg),
                    Err(_) => continue,
                }
            }
        };
        level = level.shape(shape, xf);
    }
    level
}
