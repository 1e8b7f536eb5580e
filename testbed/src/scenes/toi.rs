//! Time of impact between two sweeps.
use collide2d::draw::{draw_shape, DebugDraw};
use collide2d::*;

use super::*;
use crate::palette;

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

    /// Each sweep in its shape's colour: seven poses between the ends faint, the start
    /// dimmer than the end; at the time of impact both shapes in full colour, their closest
    /// points as large points joined by a line, and the selected pose's axes.
    pub(super) fn draw(&self, d: &mut impl DebugDraw) {
        let sweeps = self.sweeps();
        let (out, xa, xb, dist) = self.impact();
        let hit = matches!(out.state, ToiState::Hit | ToiState::Overlapped | ToiState::Failed);
        for (i, color) in [palette::SHAPE_A, palette::SHAPE_B].into_iter().enumerate() {
            let steps = 8;
            for k in 1..steps {
                let t = k as f32 / steps as f32;
                draw_shape(d, &self.shapes[i], sweeps[i].transform_at(t), color.scaled(0.3));
            }
            draw_shape(
                d,
                &self.shapes[i],
                sweeps[i].transform_at(0.0),
                color.scaled(0.55),
            );
            draw_shape(
                d,
                &self.shapes[i],
                sweeps[i].transform_at(1.0),
                color.scaled(if hit { 0.8 } else { 1.0 }),
            );
        }
        if hit {
            draw_shape(d, &self.shapes[0], xa, palette::SHAPE_A);
            draw_shape(d, &self.shapes[1], xb, palette::SHAPE_B);
            d.segment(dist.point_a, dist.point_b, palette::RAY);
            d.point(dist.point_a, 8.0, palette::POINT);
            d.point(dist.point_b, 8.0, palette::POINT);
        }
        d.transform(self.poses[self.drag.selected]);
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
