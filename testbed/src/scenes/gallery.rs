//! The manifold gallery: every pair of shape kinds at once (the unordered pairs of
//! [`SHAPE_KINDS`] but segment against segment, which has no area to overlap and, as in
//! Box2D, no manifold: 20), each pair overlapping a little, with its contact manifold.
use collide2d::draw::{draw_manifold, draw_shape, DebugDraw};
use collide2d::*;

use super::*;
use crate::palette;

/// The gallery: the pairs, laid out in a grid of cells `CELL` metres apart.
pub struct Gallery {
    /// `(shape A, pose, shape B, pose)` for each pair.
    pub pairs: Vec<(Shape, Transform, Shape, Transform)>,
    /// How far B is pushed into A (`push`, metres; 0.1 by default).
    push: f32,
    /// B's turn (`turn`, radians; 0.4 by default).
    turn: f32,
}

/// Grid spacing in metres.
const CELL: f32 = 3.0;
/// Cells per row.
const COLUMNS: usize = 7;

impl Gallery {
    pub(super) fn new() -> Gallery {
        let mut g = Gallery {
            pairs: Vec::new(),
            push: 0.1,
            turn: 0.4,
        };
        g.lay_out();
        g
    }

    /// Places every pair: A at the cell's centre, B to its upper right, turned by `turn` and
    /// moved towards A along their separating normal until they overlap by `push` (apart by
    /// `-push` when it is negative).
    fn lay_out(&mut self) {
        self.pairs.clear();
        let mut k = 0;
        for (i, a) in SHAPE_KINDS.iter().enumerate() {
            for b in &SHAPE_KINDS[i..] {
                let (Some(sa), Some(sb)) = (shape_of(a), shape_of(b)) else {
                    continue;
                };
                if *a == "segment" && *b == "segment" {
                    continue;
                }
                let c = Vec2::new((k % COLUMNS) as f32 * CELL, -((k / COLUMNS) as f32) * CELL);
                let xa = Transform::from(c);
                let dir = Vec2::new(0.8, 0.6);
                let far = Transform::new(c + dir * 2.0, self.turn);
                let d = shape_distance(&sa, xa, &sb, far, &mut SimplexCache::default());
                // Along the separating normal (A to B): touching after `distance`, then `push`
                // further in.
                let xb = Transform::new(far.p - d.normal * (d.distance + self.push), self.turn);
                self.pairs.push((sa, xa, sb, xb));
                k += 1;
            }
        }
    }

    pub(super) fn set(&mut self, key: &str, value: &str) {
        match key {
            "push" => {
                if let Some(v) = num(value).filter(|v| (-1.0..=1.0).contains(v)) {
                    self.push = v;
                    self.lay_out();
                }
            }
            "turn" => {
                if let Some(v) = num(value).filter(|v| v.abs() <= 10.0) {
                    self.turn = v;
                    self.lay_out();
                }
            }
            _ => {}
        }
    }

    /// Each pair's manifold (A to B).
    pub(super) fn manifolds(&self) -> impl Iterator<Item = Manifold> + '_ {
        self.pairs
            .iter()
            .map(|(sa, xa, sb, xb)| collide(sa, *xa, sb, *xb))
    }

    pub(super) fn draw(&self, d: &mut impl DebugDraw) {
        for ((sa, xa, sb, xb), m) in self.pairs.iter().zip(self.manifolds()) {
            draw_shape(d, sa, *xa, palette::SHAPE_A);
            draw_shape(d, sb, *xb, palette::SHAPE_B);
            draw_manifold(d, &m, 0.5);
        }
    }

    /// `[points of each pair's manifold]` (20 values, pairs in [`SHAPE_KINDS`] order: A's
    /// kind, then B's from A's on).
    pub(super) fn results(&self, out: &mut Vec<f32>) {
        out.extend(self.manifolds().map(|m| m.count as f32));
    }

    /// The grid's extent.
    pub(super) fn view(&self) -> Aabb {
        let rows = self.pairs.len().div_ceil(COLUMNS);
        Aabb {
            min: Vec2::new(-1.5, -((rows - 1) as f32) * CELL - 1.5),
            max: Vec2::new((COLUMNS - 1) as f32 * CELL + 3.0, 3.0),
        }
    }
}
