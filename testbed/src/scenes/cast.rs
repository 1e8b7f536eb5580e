//! Ray and shape casts through a few shapes and a one-sided chain floor.
use collide2d::draw::{draw_ray, draw_shape, Color, DebugDraw};
use collide2d::*;

use super::*;
use crate::palette;

/// Ray and shape casts through a few shapes and a one-sided chain floor.
pub struct Cast {
    pub(super) targets: Vec<(Shape, Transform)>,
    /// Cast a shape (`Some`) or a ray (`None`).
    moving: Option<Shape>,
    /// The moving shape's rotation.
    pub angle: f32,
    start: Vec2,
    end: Vec2,
    dragging: bool,
}

/// The closest hit of a cast: target index, fraction, point, normal.
struct CastHit {
    target: usize,
    fraction: f32,
    point: Vec2,
    normal: Vec2,
}

impl Cast {
    pub(super) fn new() -> Cast {
        let mut targets = Vec::new();
        let at = |x, y, a| Transform::new(Vec2::new(x, y), a);
        for (name, xf) in [
            ("box", at(-3.0, 1.5, 0.3)),
            ("circle", at(-1.0, 2.2, 0.0)),
            ("capsule", at(1.2, 1.6, -0.6)),
            ("rounded", at(3.4, 1.2, 0.2)),
            ("polygon", at(0.2, -0.2, 0.5)),
        ] {
            if let Some(s) = shape_of(name) {
                targets.push((s, xf));
            }
        }
        // A floor as a one-sided chain, front side up (listed right to left).
        let floor = [
            Vec2::new(5.5, -2.0),
            Vec2::new(2.0, -2.6),
            Vec2::new(-1.0, -2.2),
            Vec2::new(-5.5, -2.8),
        ];
        if let Ok(chain) = Chain::open(&floor) {
            for seg in chain.segments() {
                targets.push((Shape::ChainSegment(seg), Transform::IDENTITY));
            }
        }
        Cast {
            targets,
            moving: None,
            angle: 0.0,
            start: Vec2::new(-5.0, 3.5),
            end: Vec2::new(4.0, -3.5),
            dragging: false,
        }
    }

    pub(super) fn set(&mut self, key: &str, value: &str) {
        match key {
            "mode" => {
                if value == "ray" {
                    self.moving = None;
                } else if self.moving.is_none() {
                    self.moving = shape_of("box");
                }
            }
            "shape" => {
                if let Some(s) = shape_of(value) {
                    self.moving = Some(s);
                }
            }
            "angle" => self.angle = num(value).unwrap_or(self.angle),
            "x0" => self.start.x = num(value).unwrap_or(self.start.x),
            "y0" => self.start.y = num(value).unwrap_or(self.start.y),
            "x1" => self.end.x = num(value).unwrap_or(self.end.x),
            "y1" => self.end.y = num(value).unwrap_or(self.end.y),
            _ => {}
        }
    }

    pub(super) fn pointer(&mut self, kind: u32, p: Vec2) {
        match kind {
            POINTER_DOWN => {
                self.start = p;
                self.end = p;
                self.dragging = true;
            }
            POINTER_MOVE if self.dragging => self.end = p,
            POINTER_UP => self.dragging = false,
            _ => {}
        }
    }

    fn closest(&self) -> Option<CastHit> {
        let mut best: Option<CastHit> = None;
        for (i, (target, xf)) in self.targets.iter().enumerate() {
            let hit = match &self.moving {
                None => {
                    ray_cast(target, *xf, &Ray::new(self.start, self.end - self.start)).map(|h| CastHit {
                        target: i,
                        fraction: h.fraction,
                        point: h.point,
                        normal: h.normal,
                    })
                }
                Some(shape) => {
                    let out = shape_cast(
                        shape,
                        Transform::new(self.start, self.angle),
                        self.end - self.start,
                        target,
                        *xf,
                        Vec2::ZERO,
                        0.0,
                    );
                    matches!(out.state, CastState::Hit | CastState::Overlapping).then_some(CastHit {
                        target: i,
                        fraction: out.fraction,
                        point: out.point,
                        // The normal points from the target to the moving shape.
                        normal: -out.normal,
                    })
                }
            };
            if let Some(h) = hit {
                if best.as_ref().is_none_or(|b| h.fraction < b.fraction) {
                    best = Some(h);
                }
            }
        }
        best
    }

    pub(super) fn draw(&self, d: &mut impl DebugDraw) {
        for (shape, xf) in &self.targets {
            draw_shape(d, shape, *xf, Color::STATIC);
        }
        let hit = self.closest();
        match &self.moving {
            None => {
                let ray = Ray::new(self.start, self.end - self.start);
                let h = hit.map(|h| RayHit {
                    point: h.point,
                    normal: h.normal,
                    fraction: h.fraction,
                });
                draw_ray(d, &ray, h.as_ref(), 0.5);
            }
            Some(shape) => {
                let cs = CastShape::new(
                    shape,
                    Transform::new(self.start, self.angle),
                    self.end - self.start,
                );
                // The cast's start (dim), its path, the shape where it stops (at the end on a
                // miss) and, on a hit, the hit point and the one normal, out of the target.
                let t = hit.as_ref().map_or(1.0, |h| h.fraction);
                let stop = Transform {
                    p: cs.xf.p + cs.translation * t,
                    q: cs.xf.q,
                };
                draw_shape(d, shape, cs.xf, palette::CAST.scaled(0.55));
                d.segment(cs.xf.p, stop.p, palette::CAST);
                draw_shape(d, shape, stop, palette::CAST);
                if let Some(h) = &hit {
                    d.point(h.point, 7.0, palette::POINT);
                    d.segment(h.point, h.point + h.normal * 0.5, palette::NORMAL);
                }
            }
        }
    }

    /// Whether the shape cast refused its input ([`CastState::InvalidInput`], e.g. a
    /// translation that overflows to infinity) against any target; rays refuse nothing.
    fn refused(&self) -> bool {
        let Some(shape) = &self.moving else {
            return false;
        };
        self.targets.iter().any(|(target, xf)| {
            let xf_start = Transform::new(self.start, self.angle);
            shape_cast(
                shape,
                xf_start,
                self.end - self.start,
                target,
                *xf,
                Vec2::ZERO,
                0.0,
            )
            .state
                == CastState::InvalidInput
        })
    }

    /// `[shape cast?, hit?, target index, fraction, point x, y, normal x, y, input refused?]`;
    /// the normal points out of the target (towards the ray or the moving shape).
    pub(super) fn results(&self, out: &mut Vec<f32>) {
        out.push(f32::from(u8::from(self.moving.is_some())));
        match self.closest() {
            Some(h) => out.extend([
                1.0,
                h.target as f32,
                h.fraction,
                h.point.x,
                h.point.y,
                h.normal.x,
                h.normal.y,
            ]),
            None => out.extend([0.0, -1.0, 1.0, 0.0, 0.0, 0.0, 0.0]),
        }
        out.push(f32::from(u8::from(self.refused())));
    }
}
