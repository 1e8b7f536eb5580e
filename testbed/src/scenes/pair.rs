//! The pair explorer: two shapes, their manifold, distance and overlap.
use collide2d::draw::{draw_manifold, draw_shape, DebugDraw};
use collide2d::*;

use super::*;
use crate::palette;

/// The pair explorer: shapes A and B, each dragged and rotated.
pub struct Pair {
    shapes: [Shape; 2],
    pub(super) xf: [Transform; 2],
    /// The shape being dragged or last picked.
    drag: PoseDrag,
}

impl Default for Pair {
    fn default() -> Self {
        Pair::new()
    }
}

impl Pair {
    /// A box at the origin and a capsule beside it.
    pub fn new() -> Pair {
        Pair {
            shapes: [
                Shape::rect(0.5, 0.5),
                Shape::capsule(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.3),
            ],
            xf: [Transform::IDENTITY, Transform::new(Vec2::new(1.0, 0.6), 0.3)],
            drag: PoseDrag::new(1),
        }
    }

    pub(super) fn set(&mut self, key: &str, value: &str) {
        let which = usize::from(key.starts_with('b'));
        let xf = &mut self.xf[which];
        match key {
            "a" | "b" => {
                if let Some(s) = shape_of(value) {
                    self.shapes[which] = s;
                }
            }
            "ax" | "bx" => xf.p.x = num(value).unwrap_or(xf.p.x),
            "ay" | "by" => xf.p.y = num(value).unwrap_or(xf.p.y),
            "aa" | "ba" => xf.q = Rot::from_angle(num(value).unwrap_or(xf.q.angle())),
            _ => {}
        }
    }

    pub(super) fn pointer(&mut self, kind: u32, p: Vec2) -> bool {
        self.drag.pointer(&mut self.xf, kind, p, 1.5)
    }

    pub(super) fn rotate(&mut self, angle: f32) {
        self.drag.rotate(&mut self.xf, angle);
    }

    pub(super) fn draw(&self, d: &mut impl DebugDraw) {
        draw_shape(d, &self.shapes[0], self.xf[0], palette::SHAPE_A);
        draw_shape(d, &self.shapes[1], self.xf[1], palette::SHAPE_B);
        d.transform(self.xf[self.drag.selected]);
        draw_manifold(d, &self.manifold(), 0.5);
        let dist = self.distance();
        if dist.distance > 0.0 {
            d.segment(dist.point_a, dist.point_b, palette::RAY);
            d.point(dist.point_a, 5.0, palette::RAY);
            d.point(dist.point_b, 5.0, palette::RAY);
        }
    }

    /// The pair's contact manifold (A to B).
    pub(super) fn manifold(&self) -> Manifold {
        collide(&self.shapes[0], self.xf[0], &self.shapes[1], self.xf[1])
    }

    pub(super) fn distance(&self) -> DistanceOutput {
        shape_distance(
            &self.shapes[0],
            self.xf[0],
            &self.shapes[1],
            self.xf[1],
            &mut SimplexCache::default(),
        )
    }

    /// `[overlap, point count, normal x, normal y, (x, y, depth, id) × 2, distance,
    /// closest on A x, y, closest on B x, y]`.
    pub(super) fn results(&self, out: &mut Vec<f32>) {
        let (a, b) = (&self.shapes[0], &self.shapes[1]);
        let m = collide(a, self.xf[0], b, self.xf[1]);
        out.push(f32::from(u8::from(overlaps(a, self.xf[0], b, self.xf[1]))));
        out.push(m.count as f32);
        out.extend([m.normal.x, m.normal.y]);
        for i in 0..2 {
            match m.points().get(i) {
                Some(p) => out.extend([p.point.x, p.point.y, p.depth, p.id as f32]),
                None => out.extend([0.0; 4]),
            }
        }
        let dist = self.distance();
        out.extend([
            dist.distance,
            dist.point_a.x,
            dist.point_a.y,
            dist.point_b.x,
            dist.point_b.y,
        ]);
    }
}
