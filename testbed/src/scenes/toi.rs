//! Time of impact between two sweeps.
use collide2d::draw::{draw_shape, draw_sweep, Color, DebugDraw};
use collide2d::*;

use super::*;

/// Two sweeps (start and end poses of A and B) and their time of impact.
pub struct Toi {
    shapes: [Shape; 2],
    /// A start, A end, B start, B end.
    pub(super) poses: [Transform; 4],
    /// The pose being dragged or last picked.
    drag: PoseDrag,
}

impl Toi {
    pub(super) fn new() -> Toi {
        Toi {
            // What the page's selectors show by default: A a capsule, B a box.
            shapes: [
                shape_of("capsule").unwrap_or(Shape::circle(0.5)),
                shape_of("box").unwrap_or(Shape::circle(0.5)),
            ],
            poses: [
                Transform::new(Vec2::new(-3.0, 0.5), 0.0),
                Transform::new(Vec2::new(2.5, -0.5), 3.0),
                Transform::new(Vec2::new(0.5, -2.0), 0.0),
                Transform::new(Vec2::new(-0.5, 2.0), 0.0),
            ],
            drag: PoseDrag::new(1),
        }
    }

    pub(super) fn set(&mut self, key: &str, value: &str) {
        let shape = |i: usize, s: &mut [Shape; 2]| {
            if let Some(v) = shape_of(value) {
                s[i] = v;
            }
        };
        match key {
            "a" => shape(0, &mut self.shapes),
            "b" => shape(1, &mut self.shapes),
            _ => {
                // Pose keys: a1x, a1y, a1a, a2x, …, b2a.
                let k = key.as_bytes();
                if k.len() != 3 {
                    return;
                }
                let i = match (k[0], k[1]) {
                    (b'a', b'1') => 0,
                    (b'a', b'2') => 1,
                    (b'b', b'1') => 2,
                    (b'b', b'2') => 3,
                    _ => return,
                };
                let Some(v) = num(value) else { return };
                match k[2] {
                    b'x' => self.poses[i].p.x = v,
                    b'y' => self.poses[i].p.y = v,
                    b'a' => self.poses[i].q = Rot::from_angle(v),
                    _ => {}
                }
            }
        }
    }

    pub(super) fn pointer(&mut self, kind: u32, p: Vec2) -> bool {
        self.drag.pointer(&mut self.poses, kind, p, 1.0)
    }

    pub(super) fn rotate(&mut self, angle: f32) {
        self.drag.rotate(&mut self.poses, angle);
    }

    pub(super) fn sweeps(&self) -> [Sweep; 2] {
        let sweep = |s: &Shape, x1, x2| Sweep::from_transforms(s.mass(1.0).center, x1, x2);
        [
            sweep(&self.shapes[0], self.poses[0], self.poses[1]),
            sweep(&self.shapes[1], self.poses[2], self.poses[3]),
        ]
    }

    /// The time of impact, both poses at its fraction, and the distance between them there.
    pub(super) fn impact(&self) -> (ToiOutput, Transform, Transform, DistanceOutput) {
        let [sa, sb] = self.sweeps();
        let toi = time_of_impact(&self.shapes[0], &sa, &self.shapes[1], &sb, 1.0);
        let (xa, xb) = (sa.transform_at(toi.fraction), sb.transform_at(toi.fraction));
        let dist = shape_distance(
            &self.shapes[0],
            xa,
            &self.shapes[1],
            xb,
            &mut SimplexCache::default(),
        );
        (toi, xa, xb, dist)
    }

    pub(super) fn draw(&self, d: &mut impl DebugDraw) {
        let [sa, sb] = self.sweeps();
        draw_sweep(d, &self.shapes[0], &sa, 8);
        draw_sweep(d, &self.shapes[1], &sb, 8);
        d.transform(self.poses[self.drag.selected]);
        let (out, xa, xb, dist) = self.impact();
        if matches!(out.state, ToiState::Hit | ToiState::Overlapped | ToiState::Failed) {
            draw_shape(d, &self.shapes[0], xa, Color::DYNAMIC);
            draw_shape(d, &self.shapes[1], xb, Color::DYNAMIC);
            d.point(dist.point_a, 5.0, Color::CONTACT);
            d.point(dist.point_b, 5.0, Color::CONTACT);
        }
    }

    /// `[state, fraction, iterations, A's pose x, y, angle and B's at the fraction, distance
    /// between them there]`.
    pub(super) fn results(&self, out: &mut Vec<f32>) {
        let (toi, xa, xb, dist) = self.impact();
        out.extend([
            toi.state as u32 as f32,
            toi.fraction,
            toi.iterations as f32,
            xa.p.x,
            xa.p.y,
            xa.q.angle(),
            xb.p.x,
            xb.p.y,
            xb.q.angle(),
            dist.distance,
        ]);
    }
}
