//! Debug drawing (Box2D's `b2DebugDraw` is the model): a [`DebugDraw`] trait with a handful of
//! primitives, implemented by the caller's renderer, and functions that draw the crate's
//! shapes and query results through it. `no_std`, no allocation.
//!
//! Everything is passed in world space, except [`DebugDraw::solid_polygon`] and
//! [`DebugDraw::solid_circle`], which take the shape's local vertices or radius and its
//! [`Transform`] (as Box2D's, so a renderer can instance them). Colours follow one palette,
//! [`Color`]'s constants: bodies by state (static, kinematic, dynamic, sleeping, sensor), then
//! contacts, normals, rays, casts and tree boxes.
//!
//! [`svg::Svg`] is a backend that writes an SVG picture (no dependency, no allocation).
//!
//! [`DynamicTree::draw`](crate::tree::DynamicTree::draw) draws a tree's boxes by depth;
//! `World::draw` (features `solver` + `alloc`) a whole world, chosen by `DrawFlags`;
//! [`MoveResult::draw`](crate::mover::MoveResult::draw) a character's mover planes.

pub mod svg;

use crate::cast::{CastOutput, CastShape, CastState};
use crate::geometry::{Shape, MAX_POLYGON_VERTICES};
use crate::math::{Aabb, Ray, Transform, Vec2};
use crate::narrowphase::Manifold;
use crate::raycast::RayHit;
use crate::toi::Sweep;

/// An sRGB colour, `0xRRGGBB` (in C a `uint32_t`; the palette as `C2D_COLOR_*`).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Color(pub u32);

impl Color {
    /// Static bodies and level geometry (grey green).
    pub const STATIC: Color = Color(0x7F_B2_7F);
    /// Kinematic bodies (blue).
    pub const KINEMATIC: Color = Color(0x80_80_E6);
    /// Awake dynamic bodies (salmon).
    pub const DYNAMIC: Color = Color(0xE6_B2_B2);
    /// Sleeping bodies (grey).
    pub const SLEEPING: Color = Color(0x99_99_99);
    /// Sensors (yellow).
    pub const SENSOR: Color = Color(0xE6_CC_4D);
    /// Contact points (red).
    pub const CONTACT: Color = Color(0xE6_33_33);
    /// Contact and hit normals (green).
    pub const NORMAL: Color = Color(0x33_CC_33);
    /// Rays and ray hits (cyan).
    pub const RAY: Color = Color(0x33_B2_E6);
    /// Shape casts and sweeps (purple).
    pub const CAST: Color = Color(0xB2_66_E6);
    /// Tree boxes (the depth darkens them) and body bounds (magenta).
    pub const BOUNDS: Color = Color(0xE6_4D_E6);
    /// Joints: the lines from each body to its anchor and between the anchors, and their
    /// axes (teal).
    pub const JOINT: Color = Color(0x4D_B2_B2);
    /// A joint's lower limit (green; the upper limit is [`Color::CONTACT`]'s red).
    pub const LOWER_LIMIT: Color = Color(0x4D_E6_4D);

    /// This colour with each channel scaled by `k` in `[0, 1]` (for depth shading).
    #[must_use]
    pub fn scaled(self, k: f32) -> Color {
        let k = if k >= 0.0 { k.min(1.0) } else { 0.0 };
        let ch = |shift: u32| ((((self.0 >> shift) & 0xFF) as f32 * k) as u32) << shift;
        Color(ch(16) | ch(8) | ch(0))
    }
}

/// The primitives a renderer provides. Every method has a default that draws nothing, so a
/// backend implements what it can (a line renderer only `segment`, say).
pub trait DebugDraw {
    /// A closed polygon outline through world `vertices`.
    fn polygon(&mut self, vertices: &[Vec2], color: Color) {
        let _ = (vertices, color);
    }
    /// A filled convex polygon: local `vertices`, rounded by `radius`, placed by `xf`.
    fn solid_polygon(&mut self, xf: Transform, vertices: &[Vec2], radius: f32, color: Color) {
        let _ = (xf, vertices, radius, color);
    }
    /// A circle outline, world centre.
    fn circle(&mut self, center: Vec2, radius: f32, color: Color) {
        let _ = (center, radius, color);
    }
    /// A filled circle centred on `xf.p`; `xf.q` shows its rotation (draw a radius line).
    fn solid_circle(&mut self, xf: Transform, radius: f32, color: Color) {
        let _ = (xf, radius, color);
    }
    /// A filled capsule between world points `p1` and `p2`.
    fn solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        let _ = (p1, p2, radius, color);
    }
    /// A line segment, world space.
    fn segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        let _ = (p1, p2, color);
    }
    /// A transform's axes (x red, y green) at its origin.
    fn transform(&mut self, xf: Transform) {
        let _ = xf;
    }
    /// A point of `size` pixels (screen size, not world).
    fn point(&mut self, p: Vec2, size: f32, color: Color) {
        let _ = (p, size, color);
    }
    /// Text at a world point, where the backend has text.
    fn string(&mut self, p: Vec2, text: &str, color: Color) {
        let _ = (p, text, color);
    }
}

/// Draws `shape` at `xf`: polygons with [`DebugDraw::solid_polygon`] (local vertices and
/// radius), circles with [`DebugDraw::solid_circle`] (the world centre as the transform's
/// origin, the body rotation kept), capsules with [`DebugDraw::solid_capsule`] (world end
/// points), chain segments as their segment with a tick along the front normal from its
/// middle (a tenth of the segment's length, at most 0.25 units).
pub fn draw_shape(d: &mut (impl DebugDraw + ?Sized), shape: &Shape, xf: Transform, color: Color) {
    match shape {
        Shape::Circle(c) => d.solid_circle(
            Transform {
                p: xf.apply(c.center),
                q: xf.q,
            },
            c.radius,
            color,
        ),
        Shape::Capsule(c) => d.solid_capsule(xf.apply(c.center1), xf.apply(c.center2), c.radius, color),
        Shape::Polygon(p) => {
            let n = p.len().min(MAX_POLYGON_VERTICES);
            d.solid_polygon(xf, &p.vertices[..n], p.radius, color);
        }
        Shape::ChainSegment(c) => {
            let (p1, p2) = (xf.apply(c.point1), xf.apply(c.point2));
            d.segment(p1, p2, color);
            let mid = (p1 + p2) * 0.5;
            let tick = (0.1 * (p2 - p1).length()).min(0.25);
            d.segment(mid, mid + xf.q.rotate(c.normal()) * tick, color);
        }
    }
}

/// Draws a contact manifold: each point as a [`Color::CONTACT`] point, and from each point the
/// normal (A to B) as a [`Color::NORMAL`] segment of length `normal_length`.
pub fn draw_manifold(d: &mut (impl DebugDraw + ?Sized), m: &Manifold, normal_length: f32) {
    for p in m.points() {
        d.point(p.point, 5.0, Color::CONTACT);
        d.segment(p.point, p.point + m.normal * normal_length, Color::NORMAL);
    }
}

/// Draws a ray: to its hit point and the hit normal there (length `normal_length`), or its
/// whole length (up to `max_fraction`) when it misses.
pub fn draw_ray(d: &mut (impl DebugDraw + ?Sized), ray: &Ray, hit: Option<&RayHit>, normal_length: f32) {
    match hit {
        Some(h) => {
            d.segment(ray.origin, h.point, Color::RAY);
            d.point(h.point, 5.0, Color::RAY);
            d.segment(h.point, h.point + h.normal * normal_length, Color::NORMAL);
        }
        None => d.segment(
            ray.origin,
            ray.origin + ray.translation * ray.max_fraction,
            Color::RAY,
        ),
    }
}

/// Draws a shape cast: the moving shape at its start and at the hit (or at the end of its
/// translation when it misses) in [`Color::CAST`], the path of its origin, and at a hit the
/// contact point and normal.
pub fn draw_cast(
    d: &mut (impl DebugDraw + ?Sized),
    moving: &CastShape<'_>,
    out: &CastOutput,
    normal_length: f32,
) {
    let at = |t: f32| Transform {
        p: moving.xf.p + moving.translation * t,
        q: moving.xf.q,
    };
    let t = match out.state {
        CastState::Hit | CastState::Overlapping => out.fraction,
        _ => 1.0,
    };
    draw_shape(d, moving.shape, moving.xf, Color::CAST.scaled(0.6));
    draw_shape(d, moving.shape, at(t), Color::CAST);
    d.segment(moving.xf.p, at(t).p, Color::CAST);
    if matches!(out.state, CastState::Hit | CastState::Overlapping) {
        d.point(out.point, 5.0, Color::CONTACT);
        d.segment(out.point, out.point + out.normal * normal_length, Color::NORMAL);
    }
}

/// Draws a sweep: `shape` at `steps + 1` evenly spaced fractions from 0 to 1 (at least the two
/// ends), the first and last brighter.
pub fn draw_sweep(d: &mut (impl DebugDraw + ?Sized), shape: &Shape, sweep: &Sweep, steps: u32) {
    let steps = steps.max(1);
    for i in 0..=steps {
        let t = i as f32 / steps as f32;
        let k = if i == 0 || i == steps { 1.0 } else { 0.5 };
        draw_shape(d, shape, sweep.transform_at(t), Color::CAST.scaled(k));
    }
}

/// Draws a box as a closed outline.
pub fn draw_aabb(d: &mut (impl DebugDraw + ?Sized), b: Aabb, color: Color) {
    d.polygon(
        &[
            b.min,
            Vec2::new(b.max.x, b.min.y),
            b.max,
            Vec2::new(b.min.x, b.max.y),
        ],
        color,
    );
}
