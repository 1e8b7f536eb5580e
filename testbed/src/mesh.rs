//! A [`DebugDraw`] backend that turns the scene into convex polygons for the page's
//! rasteriser ([`crate::raster`]): every vertex is a world point plus an offset in device
//! pixels, so lines, arrow heads and points keep their pixel size at any zoom while the camera
//! is applied when the polygons are drawn.
//!
//! A polygon is `n, colour, fill` followed by `n` vertices `x, y, ox, oy` (world, then device
//! pixels with y up), each as `f32` bits in a `u32`; colours are `0xAABBGGRR` (bytes R, G, B,
//! A in memory, as the canvas's image data holds them). `fill` 0 means the polygon is solid in
//! `colour`; otherwise it is filled with `fill` and outlined in `colour` by a band
//! [`OUTLINE`] pixels wide inside its edge. A vertex lands on the canvas pixel
//! `(origin_x + scale x + ox, origin_y - scale y - oy)`.
//!
//! Layers, bottom to top: shapes, lines (segments, arrow shafts), arrow heads, points. A
//! shape is its outline cut into straight pieces (circles and rounded corners in pieces of
//! about 6 pixels at the scale given), filled darker than its outline.
use collide2d::draw::{Color, DebugDraw};
use collide2d::{Transform, Vec2};

use crate::palette;

/// Words per vertex.
pub const STRIDE: usize = 4;
/// Words before a polygon's vertices: count, colour, fill.
pub const HEADER: usize = 3;
/// A filled shape's outline band, in CSS pixels (times the device pixel ratio).
pub const OUTLINE: f32 = 1.25;
/// Line width in CSS pixels (times the device pixel ratio).
const LINE_WIDTH: f32 = 1.5;
/// An arrow head's length in CSS pixels (at most half the arrow).
const HEAD: f32 = 9.0;
/// A fill is its outline colour times this (as the 2D canvas path paints it).
const FILL_SHADE: f32 = 0.45;

const FILLS: usize = 0;
const LINES: usize = 1;
const HEADS: usize = 2;
const POINTS: usize = 3;

/// The polygon builder.
pub struct Mesh {
    layers: [Vec<u32>; 4],
    /// Every layer, bottom first, after [`Mesh::finish`].
    pub out: Vec<u32>,
    /// Device pixels per world unit (how finely curves are cut).
    pub scale: f32,
    /// Device pixels per CSS pixel (line widths, heads, points).
    pub dpr: f32,
    /// Scratch outline of the shape being filled.
    ring: Vec<Vec2>,
    /// Which [`palette::LEGEND`] colours were drawn since the last reset (bit `i` for entry
    /// `i`), and the last colour looked up.
    pub legend: u32,
    last: u32,
}

/// `0xRRGGBB` as the vertex's `0xAABBGGRR`, opaque.
pub fn rgba(c: Color) -> u32 {
    let (r, g, b) = ((c.0 >> 16) & 0xFF, (c.0 >> 8) & 0xFF, c.0 & 0xFF);
    0xFF00_0000 | (b << 16) | (g << 8) | r
}

impl Default for Mesh {
    fn default() -> Self {
        Mesh::new(1.0, 1.0)
    }
}

impl Mesh {
    /// An empty mesh for a camera of `scale` device pixels per world unit on a screen of
    /// device pixel ratio `dpr` (both clamped to sane positive values).
    pub fn new(scale: f32, dpr: f32) -> Mesh {
        let mut m = Mesh {
            layers: Default::default(),
            out: Vec::new(),
            scale: 1.0,
            dpr: 1.0,
            ring: Vec::new(),
            legend: 0,
            last: 0,
        };
        m.reset(scale, dpr);
        m
    }

    /// Empties the mesh (keeping its memory) for a new frame.
    pub fn reset(&mut self, scale: f32, dpr: f32) {
        for l in &mut self.layers {
            l.clear();
        }
        self.out.clear();
        self.legend = 0;
        self.last = 0;
        self.scale = if scale.is_finite() && scale > 0.0 {
            scale
        } else {
            1.0
        };
        self.dpr = if dpr.is_finite() && dpr > 0.0 {
            dpr.min(8.0)
        } else {
            1.0
        };
    }

    /// Joins the layers into [`Mesh::out`], bottom first; returns its length in words.
    pub fn finish(&mut self) -> usize {
        self.out.clear();
        for l in &self.layers {
            self.out.extend_from_slice(l);
        }
        self.out.len()
    }

    /// Starts a polygon of `n` vertices in `layer` (the next `n` [`Mesh::vertex`] calls),
    /// solid in `color` (`fill` 0) or filled with `fill` and outlined in `color`.
    fn begin(&mut self, layer: usize, n: usize, color: u32, fill: u32) {
        self.layers[layer].extend_from_slice(&[n as u32, color, fill]);
        if color != self.last {
            self.last = color;
            if let Some(i) = palette::LEGEND.iter().position(|(c, _)| rgba(*c) == color) {
                self.legend |= 1 << i;
            }
        }
    }

    fn vertex(&mut self, layer: usize, p: Vec2, off: Vec2) {
        self.layers[layer].extend_from_slice(&[
            p.x.to_bits(),
            p.y.to_bits(),
            off.x.to_bits(),
            off.y.to_bits(),
        ]);
    }

    /// A line from `a` to `b` (world) `width` device pixels wide, with square ends reaching
    /// half the width past each point (so outlines close at their corners). A zero-length
    /// line is a square dot.
    fn line(&mut self, layer: usize, a: Vec2, b: Vec2, width: f32, color: u32) {
        let d = b - a;
        let len = d.length();
        let dir = if len > 0.0 && len.is_finite() {
            d / len
        } else {
            Vec2::new(1.0, 0.0)
        };
        let h = 0.5 * width;
        let (along, across) = (dir * h, Vec2::new(-dir.y, dir.x) * h);
        self.begin(layer, 4, color, 0);
        self.vertex(layer, a, -along - across);
        self.vertex(layer, b, along - across);
        self.vertex(layer, b, along + across);
        self.vertex(layer, a, -along + across);
    }

    /// An arrow head at `b`, pointing away from `a` (none when it would be under two pixels).
    fn head(&mut self, a: Vec2, b: Vec2, color: u32) {
        let d = b - a;
        let len = d.length();
        if !(len > 0.0 && len.is_finite()) {
            return;
        }
        let dir = d / len;
        let size = (HEAD * self.dpr).min(0.5 * len * self.scale);
        // A head under two pixels long cannot be told from the shaft's end.
        if size < 2.0 * self.dpr {
            return;
        }
        let (back, side) = (dir * -size, Vec2::new(-dir.y, dir.x) * (0.5 * size));
        self.begin(HEADS, 3, color, 0);
        self.vertex(HEADS, b, Vec2::ZERO);
        self.vertex(HEADS, b, back - side);
        self.vertex(HEADS, b, back + side);
    }

    fn arrow(&mut self, a: Vec2, b: Vec2, color: Color) {
        let c = rgba(color);
        self.line(LINES, a, b, LINE_WIDTH * self.dpr, c);
        self.head(a, b, c);
    }

    /// Segments for an arc of `angle` radians of radius `r` (world): about 6 device pixels
    /// each, at least 16 and at most 64 for a whole turn (at least one per arc).
    fn arc_segments(&self, r: f32, angle: f32) -> u32 {
        let full = (core::f32::consts::TAU * r * self.scale / (6.0 * self.dpr)).clamp(16.0, 64.0);
        ((full * angle / core::f32::consts::TAU).ceil() as u32).max(1)
    }

    /// Appends to the ring the arc around `c` of radius `r` from angle `a0` to `a1`
    /// (counter-clockwise, `a1 >= a0`), both ends included.
    fn push_arc(&mut self, c: Vec2, r: f32, a0: f32, a1: f32) {
        let n = self.arc_segments(r, a1 - a0);
        for k in 0..=n {
            let t = a0 + (a1 - a0) * k as f32 / n as f32;
            self.ring.push(c + Vec2::new(t.cos(), t.sin()) * r);
        }
    }

    /// The convex ring as a shape: filled in the shaded colour, outlined in the full colour
    /// (a ring of fewer than three points as its outline alone).
    fn fill_ring(&mut self, color: Color) {
        let ring = core::mem::take(&mut self.ring);
        let (fill, edge) = (rgba(color.scaled(FILL_SHADE)), rgba(color));
        if ring.len() >= 3 {
            self.begin(FILLS, ring.len(), edge, fill);
            for &p in &ring {
                self.vertex(FILLS, p, Vec2::ZERO);
            }
        } else {
            self.outline(&ring, edge);
        }
        self.ring = ring;
        self.ring.clear();
    }

    /// The closed outline through `points`.
    fn outline(&mut self, points: &[Vec2], color: u32) {
        let w = LINE_WIDTH * self.dpr;
        for k in 0..points.len() {
            let (a, b) = (points[k], points[(k + 1) % points.len()]);
            self.line(LINES, a, b, w, color);
        }
    }
}

impl DebugDraw for Mesh {
    fn polygon(&mut self, vertices: &[Vec2], color: Color) {
        self.outline(vertices, rgba(palette::map(color)));
    }

    fn solid_polygon(&mut self, xf: Transform, vertices: &[Vec2], radius: f32, color: Color) {
        let color = palette::map(color);
        self.ring.clear();
        if radius > 0.0 && vertices.len() >= 2 {
            // The rounded outline: each corner's arc from the previous edge's outward normal
            // to the next one's (the polygon is convex and counter-clockwise).
            let n = vertices.len();
            let normal = |i: usize| {
                let e = xf.q.rotate(vertices[(i + 1) % n] - vertices[i]);
                let l = e.length();
                if l > 0.0 {
                    Vec2::new(e.y / l, -e.x / l)
                } else {
                    Vec2::new(1.0, 0.0)
                }
            };
            for (i, &v) in vertices.iter().enumerate() {
                let (before, after) = (normal((i + n - 1) % n), normal(i));
                let a0 = before.y.atan2(before.x);
                let mut a1 = after.y.atan2(after.x);
                if a1 < a0 {
                    a1 += core::f32::consts::TAU;
                }
                self.push_arc(xf.apply(v), radius, a0, a1);
            }
        } else {
            self.ring.extend(vertices.iter().map(|&v| xf.apply(v)));
        }
        self.fill_ring(color);
    }

    fn circle(&mut self, center: Vec2, radius: f32, color: Color) {
        self.ring.clear();
        self.push_arc(center, radius, 0.0, core::f32::consts::TAU);
        self.ring.pop();
        let ring = core::mem::take(&mut self.ring);
        self.outline(&ring, rgba(palette::map(color)));
        self.ring = ring;
    }

    fn solid_circle(&mut self, xf: Transform, radius: f32, color: Color) {
        let color = palette::map(color);
        self.ring.clear();
        self.push_arc(xf.p, radius, 0.0, core::f32::consts::TAU);
        self.ring.pop();
        self.fill_ring(color);
        let edge = xf.apply(Vec2::new(radius, 0.0));
        self.line(LINES, xf.p, edge, LINE_WIDTH * self.dpr, rgba(color));
    }

    fn solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        let color = palette::map(color);
        // A segment (radius 0), or a capsule thinner than its outline: the line itself.
        if radius * self.scale < LINE_WIDTH * self.dpr {
            self.line(LINES, p1, p2, LINE_WIDTH * self.dpr, rgba(color));
            return;
        }
        let d = p2 - p1;
        let a = if d.length_squared() > 0.0 {
            d.y.atan2(d.x)
        } else {
            0.0
        };
        let quarter = core::f32::consts::FRAC_PI_2;
        self.ring.clear();
        self.push_arc(p2, radius, a - quarter, a + quarter);
        self.push_arc(p1, radius, a + quarter, a + 3.0 * quarter);
        self.fill_ring(color);
    }

    fn segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        let color = palette::map(color);
        if palette::is_arrow(color) {
            self.arrow(p1, p2, color);
        } else {
            self.line(LINES, p1, p2, LINE_WIDTH * self.dpr, rgba(color));
        }
    }

    fn transform(&mut self, xf: Transform) {
        let k = 0.5;
        self.arrow(xf.p, xf.p + xf.q.x_axis() * k, palette::AXIS_X);
        let y = xf.q.x_axis();
        self.arrow(xf.p, xf.p + Vec2::new(-y.y, y.x) * k, palette::AXIS_Y);
    }

    fn point(&mut self, p: Vec2, size: f32, color: Color) {
        let h = 0.5 * size * self.dpr;
        let c = rgba(palette::map(color));
        self.begin(POINTS, 4, c, 0);
        for corner in [
            Vec2::new(-h, -h),
            Vec2::new(h, -h),
            Vec2::new(h, h),
            Vec2::new(-h, h),
        ] {
            self.vertex(POINTS, p, corner);
        }
    }
}

/// The polygons of a [`Mesh::out`] as `(colour, fill, vertex words)` ([`STRIDE`] words a
/// vertex); stops at a polygon that runs past the end.
pub fn polygons_raw(out: &[u32]) -> impl Iterator<Item = (u32, u32, &[u32])> + '_ {
    let mut i = 0;
    core::iter::from_fn(move || {
        let head = out.get(i..i + HEADER)?;
        let start = i + HEADER;
        let words = out.get(start..start.checked_add(STRIDE.checked_mul(head[0] as usize)?)?)?;
        i = start + words.len();
        Some((head[1], head[2], words))
    })
}

/// The polygons of a [`Mesh::out`]: colour, fill and vertices (world point, pixel offset).
pub fn polygons(out: &[u32]) -> impl Iterator<Item = (u32, u32, Vec<(Vec2, Vec2)>)> + '_ {
    polygons_raw(out).map(|(color, fill, words)| {
        let f = |k: usize| f32::from_bits(words[k]);
        let v = (0..words.len() / STRIDE)
            .map(|k| {
                (
                    Vec2::new(f(STRIDE * k), f(STRIDE * k + 1)),
                    Vec2::new(f(STRIDE * k + 2), f(STRIDE * k + 3)),
                )
            })
            .collect();
        (color, fill, v)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide2d::draw::draw_shape;
    use collide2d::{Polygon, Shape};

    /// The area the fill polygons of colour `fill` in `m` cover, in world units (their offsets
    /// are zero), and whether every one is counter-clockwise.
    fn fill_area(m: &Mesh, fill: u32) -> (f32, bool) {
        let mut area = 0.0;
        let mut ccw = true;
        for (_, _, v) in polygons(&m.out).filter(|p| p.1 == fill) {
            assert!(v.iter().all(|p| p.1 == Vec2::ZERO), "fills carry no pixel offset");
            let a: f32 = (0..v.len())
                .map(|k| 0.5 * v[k].0.cross(v[(k + 1) % v.len()].0))
                .sum();
            ccw &= a > 0.0;
            area += a;
        }
        (area, ccw)
    }

    /// A shape's fill covers its area (hand-derived: a box 2 × 1, a circle π r², a capsule
    /// π r² + 2 r l, a rounded box (2 + 2r)(1 + 2r) − (4 − π) r²) within the curves' chord
    /// error at 6 pixels per piece (at least 16 per turn), counter-clockwise.
    #[test]
    fn fills_cover_each_shapes_area() {
        let pi = core::f32::consts::PI;
        let r = 0.25;
        let cases: Vec<(Shape, f32)> = vec![
            (Shape::rect(1.0, 0.5), 2.0),
            (Shape::circle(0.5), pi * 0.25),
            (
                Shape::capsule(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.3),
                pi * 0.09 + 0.6,
            ),
            (
                Shape::Polygon(Polygon::make_rounded_box(1.0, 0.5, r).unwrap()),
                (2.0 + 2.0 * r) * (1.0 + 2.0 * r) - (4.0 - pi) * r * r,
            ),
        ];
        for scale in [20.0f32, 200.0] {
            for (shape, area) in &cases {
                let mut m = Mesh::new(scale, 1.0);
                draw_shape(
                    &mut m,
                    shape,
                    Transform::new(Vec2::new(3.0, -2.0), 0.7),
                    Color::DYNAMIC,
                );
                m.finish();
                let (got, ccw) = fill_area(&m, rgba(Color::DYNAMIC.scaled(FILL_SHADE)));
                assert!(ccw, "{shape:?} at scale {scale}");
                assert!(
                    (got - area).abs() <= 0.03 * area,
                    "{shape:?} at scale {scale}: {got} vs {area}"
                );
            }
        }
    }

    /// A line's four corners sit half its width (in pixels) across and past each end; an
    /// arrow adds a head at its end pointing along it; normals become arrows and axes get the
    /// axis colours.
    #[test]
    fn lines_and_arrows_are_offset_in_pixels() {
        let mut m = Mesh::new(50.0, 2.0);
        m.segment(Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Color::RAY);
        m.finish();
        let p: Vec<_> = polygons(&m.out).collect();
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].0, p[0].1), (rgba(palette::RAY), 0));
        let h = 0.5 * LINE_WIDTH * 2.0;
        for (at, off) in &p[0].2 {
            assert_eq!((off.x.abs(), off.y.abs()), (h, h));
            assert_eq!(
                off.x < 0.0,
                at.x == 0.0,
                "the offset reaches past the end it belongs to"
            );
        }
        let mut m = Mesh::new(50.0, 1.0);
        m.segment(Vec2::new(0.0, 0.0), Vec2::new(0.0, 1.0), Color::NORMAL);
        m.finish();
        let p: Vec<_> = polygons(&m.out).collect();
        assert_eq!(p.len(), 2, "shaft and head");
        let head = &p[1].2;
        assert!(head.iter().all(|(at, _)| *at == Vec2::new(0.0, 1.0)));
        assert_eq!(head[0].1, Vec2::ZERO, "the tip is the end point");
        assert!(
            head[1].1.y < 0.0 && head[2].1.y < 0.0,
            "the base is behind the tip"
        );
        let mut m = Mesh::new(50.0, 1.0);
        m.transform(Transform::IDENTITY);
        m.finish();
        let colours: Vec<u32> = polygons(&m.out).map(|p| p.0).collect();
        assert!(colours.contains(&rgba(palette::AXIS_X)) && colours.contains(&rgba(palette::AXIS_Y)));
        assert!(!colours.contains(&rgba(palette::NORMAL)) && !colours.contains(&rgba(palette::POINT)));
    }

    /// The legend bits name the palette colours drawn, and only those.
    #[test]
    fn the_legend_names_what_was_drawn() {
        let mut m = Mesh::new(50.0, 1.0);
        draw_shape(&mut m, &Shape::rect(0.5, 0.5), Transform::IDENTITY, Color::STATIC);
        m.segment(Vec2::ZERO, Vec2::new(0.0, 1.0), Color::NORMAL);
        let named: Vec<&str> = (0..palette::LEGEND.len())
            .filter(|i| m.legend & (1 << i) != 0)
            .map(|i| palette::LEGEND[i].1)
            .collect();
        assert_eq!(named, ["static body", "normal"]);
        m.reset(50.0, 1.0);
        assert_eq!(m.legend, 0);
    }

    /// A segment (a capsule of radius 0) is drawn as a line, not as an empty fill.
    #[test]
    fn segments_are_lines() {
        let mut m = Mesh::new(50.0, 1.0);
        draw_shape(
            &mut m,
            &Shape::capsule(Vec2::ZERO, Vec2::new(1.0, 0.0), 0.0),
            Transform::IDENTITY,
            Color::DYNAMIC,
        );
        m.finish();
        let p: Vec<_> = polygons(&m.out).collect();
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].0, p[0].1, p[0].2.len()), (rgba(Color::DYNAMIC), 0, 4));
    }

    /// Layers come out bottom first: a point drawn before a fill still lands after it.
    #[test]
    fn layers_are_ordered_fills_lines_heads_points() {
        let mut m = Mesh::new(50.0, 1.0);
        m.point(Vec2::ZERO, 4.0, Color::CONTACT);
        draw_shape(&mut m, &Shape::rect(0.5, 0.5), Transform::IDENTITY, Color::STATIC);
        m.finish();
        let p: Vec<_> = polygons(&m.out).collect();
        assert_eq!(p.last().unwrap().0, rgba(palette::POINT));
        assert_eq!(
            (p[0].0, p[0].1),
            (rgba(Color::STATIC), rgba(Color::STATIC.scaled(FILL_SHADE)))
        );
    }
}
