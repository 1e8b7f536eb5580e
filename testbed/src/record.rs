//! A [`DebugDraw`] backend that records primitives as a flat list of `f32`s, which the page's
//! JavaScript reads straight out of the module's memory and paints on a canvas.
//!
//! Each primitive is `[op, colour, arguments…]`, every coordinate in world space (y up):
//!
//! | op | primitive | arguments |
//! |---|---|---|
//! | 1 | polygon outline | `n, x0, y0, …` |
//! | 2 | filled polygon | `radius, n, x0, y0, …` (world vertices; rounded by `radius`) |
//! | 3 | circle outline | `cx, cy, r` |
//! | 4 | filled circle | `cx, cy, r, ax, ay` (`a`: the end of the radius line) |
//! | 5 | filled capsule | `x1, y1, x2, y2, r` |
//! | 6 | segment | `x1, y1, x2, y2` |
//! | 7 | transform axes | `px, py, c, s` |
//! | 8 | point | `x, y, size` (size in pixels) |
//! | 9 | arrow | `x1, y1, x2, y2` (head at the second point) |
//!
//! Colours are `0xRRGGBB` stored as an `f32` (exact: below 2²⁴), in the testbed's palette
//! ([`palette::map`]); normals are recorded as arrows. This is the page's 2D-canvas path,
//! taken where WebGL is missing; [`crate::mesh`] builds what the WebGL path draws.
use collide2d::draw::{Color, DebugDraw};
use collide2d::{Transform, Vec2};

use crate::palette;

/// Op codes of the recorded stream.
pub const POLYGON: f32 = 1.0;
/// Filled polygon.
pub const SOLID_POLYGON: f32 = 2.0;
/// Circle outline.
pub const CIRCLE: f32 = 3.0;
/// Filled circle.
pub const SOLID_CIRCLE: f32 = 4.0;
/// Filled capsule.
pub const SOLID_CAPSULE: f32 = 5.0;
/// Segment.
pub const SEGMENT: f32 = 6.0;
/// Transform axes.
pub const TRANSFORM: f32 = 7.0;
/// Point.
pub const POINT: f32 = 8.0;
/// Arrow.
pub const ARROW: f32 = 9.0;

/// The recorder: primitives appended to `out`.
pub struct Recorder<'a> {
    /// The stream.
    pub out: &'a mut Vec<f32>,
}

impl Recorder<'_> {
    fn head(&mut self, op: f32, color: Color) {
        self.out.push(op);
        self.out.push(palette::map(color).0 as f32);
    }
    fn v(&mut self, p: Vec2) {
        self.out.push(p.x);
        self.out.push(p.y);
    }
}

impl DebugDraw for Recorder<'_> {
    fn polygon(&mut self, vertices: &[Vec2], color: Color) {
        self.head(POLYGON, color);
        self.out.push(vertices.len() as f32);
        for &v in vertices {
            self.v(v);
        }
    }
    fn solid_polygon(&mut self, xf: Transform, vertices: &[Vec2], radius: f32, color: Color) {
        self.head(SOLID_POLYGON, color);
        self.out.push(radius);
        self.out.push(vertices.len() as f32);
        for &v in vertices {
            self.v(xf.apply(v));
        }
    }
    fn circle(&mut self, center: Vec2, radius: f32, color: Color) {
        self.head(CIRCLE, color);
        self.v(center);
        self.out.push(radius);
    }
    fn solid_circle(&mut self, xf: Transform, radius: f32, color: Color) {
        self.head(SOLID_CIRCLE, color);
        self.v(xf.p);
        self.out.push(radius);
        self.v(xf.apply(Vec2::new(radius, 0.0)));
    }
    fn solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        self.head(SOLID_CAPSULE, color);
        self.v(p1);
        self.v(p2);
        self.out.push(radius);
    }
    fn segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        let op = if palette::is_arrow(palette::map(color)) {
            ARROW
        } else {
            SEGMENT
        };
        self.head(op, color);
        self.v(p1);
        self.v(p2);
    }
    fn transform(&mut self, xf: Transform) {
        self.head(TRANSFORM, Color(0));
        self.v(xf.p);
        self.out.push(xf.q.c);
        self.out.push(xf.q.s);
    }
    fn point(&mut self, p: Vec2, size: f32, color: Color) {
        self.head(POINT, color);
        self.v(p);
        self.out.push(size);
    }
}
