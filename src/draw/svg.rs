//! An SVG backend for [`DebugDraw`]: writes SVG elements into any [`core::fmt::Write`] (a
//! `String`, or a fixed buffer of your own without an allocator).
//!
//! The world rectangle `view` maps onto a picture `width` pixels wide (the height follows the
//! aspect ratio), y up in the world and down in the picture. Filled shapes are drawn with a
//! translucent fill and an opaque outline; a rounded polygon is its core polygon stroked with
//! the rounding diameter and round joins, which is exactly the rounded shape. Sizes given to
//! [`DebugDraw::point`] are in pixels.

use super::{Color, DebugDraw};
use crate::geometry::MAX_POLYGON_VERTICES;
use crate::math::{Aabb, Transform, Vec2};
use core::fmt::{self, Write};

/// An SVG picture being written: [`Svg::begin`], draw through [`DebugDraw`], then
/// [`Svg::finish`]. A write error is kept and returned by `finish`.
pub struct Svg<W: Write> {
    out: W,
    view: Aabb,
    scale: f32,
    error: fmt::Result,
}

struct Hex(Color);

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:06x}", self.0 .0 & 0xFF_FF_FF)
    }
}

impl<W: Write> Svg<W> {
    /// Starts a picture of the world rectangle `view`, `width` pixels wide, on a white
    /// background.
    pub fn begin(out: W, view: Aabb, width: f32) -> Svg<W> {
        let extent = view.max - view.min;
        let scale = if extent.x > 0.0 && width > 0.0 {
            width / extent.x
        } else {
            1.0
        };
        let mut svg = Svg {
            out,
            view,
            scale,
            error: Ok(()),
        };
        let (w, h) = (extent.x * scale, extent.y * scale);
        svg.error = write!(
            svg.out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.1} {h:.1}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        );
        svg
    }

    /// Ends the picture; returns the writer, or the first write error.
    pub fn finish(mut self) -> Result<W, fmt::Error> {
        self.put(format_args!("</svg>\n"));
        self.error.map(|_| self.out)
    }

    /// A world point in picture coordinates.
    #[must_use]
    pub fn to_screen(&self, p: Vec2) -> Vec2 {
        Vec2::new(
            (p.x - self.view.min.x) * self.scale,
            (self.view.max.y - p.y) * self.scale,
        )
    }

    fn put(&mut self, args: fmt::Arguments<'_>) {
        if self.error.is_ok() {
            self.error = self.out.write_fmt(args);
        }
    }

    fn points(&mut self, world: impl Iterator<Item = Vec2>) {
        for p in world {
            let s = self.to_screen(p);
            self.put(format_args!("{:.2},{:.2} ", s.x, s.y));
        }
    }

    fn line(&mut self, p1: Vec2, p2: Vec2, color: Color, width: f32) {
        self.stroke(p1, p2, color, width, "");
    }

    /// A round-capped line of `width` pixels; `extra` holds further attributes.
    fn stroke(&mut self, p1: Vec2, p2: Vec2, color: Color, width: f32, extra: &str) {
        let (a, b) = (self.to_screen(p1), self.to_screen(p2));
        self.put(format_args!(
            "<line x1=\"{:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\" stroke=\"{}\"{extra} stroke-width=\"{:.2}\" stroke-linecap=\"round\"/>\n",
            a.x,
            a.y,
            b.x,
            b.y,
            Hex(color),
            width
        ));
    }
}

impl<W: Write> DebugDraw for Svg<W> {
    fn polygon(&mut self, vertices: &[Vec2], color: Color) {
        self.put(format_args!("<polygon points=\""));
        self.points(vertices.iter().copied());
        self.put(format_args!("\" fill=\"none\" stroke=\"{}\"/>\n", Hex(color)));
    }

    fn solid_polygon(&mut self, xf: Transform, vertices: &[Vec2], radius: f32, color: Color) {
        let n = vertices.len().min(MAX_POLYGON_VERTICES);
        // The rounded polygon: the core, stroked with the rounding diameter and round joins,
        // under the outline of the same shape.
        if radius > 0.0 {
            self.put(format_args!("<polygon points=\""));
            self.points(vertices[..n].iter().map(|&v| xf.apply(v)));
            self.put(format_args!(
                "\" fill=\"{0}\" fill-opacity=\"0.5\" stroke=\"{0}\" stroke-opacity=\"0.5\" stroke-width=\"{1:.2}\" stroke-linejoin=\"round\"/>\n",
                Hex(color),
                2.0 * radius * self.scale
            ));
        } else {
            self.put(format_args!("<polygon points=\""));
            self.points(vertices[..n].iter().map(|&v| xf.apply(v)));
            self.put(format_args!(
                "\" fill=\"{0}\" fill-opacity=\"0.5\" stroke=\"{0}\"/>\n",
                Hex(color)
            ));
        }
    }

    fn circle(&mut self, center: Vec2, radius: f32, color: Color) {
        let c = self.to_screen(center);
        self.put(format_args!(
            "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"{:.2}\" fill=\"none\" stroke=\"{}\"/>\n",
            c.x,
            c.y,
            radius * self.scale,
            Hex(color)
        ));
    }

    fn solid_circle(&mut self, xf: Transform, radius: f32, color: Color) {
        let c = self.to_screen(xf.p);
        self.put(format_args!(
            "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"{:.2}\" fill=\"{3}\" fill-opacity=\"0.5\" stroke=\"{3}\"/>\n",
            c.x,
            c.y,
            radius * self.scale,
            Hex(color)
        ));
        self.line(xf.p, xf.p + xf.q.rotate(Vec2::X) * radius, color, 1.0);
    }

    fn solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        let width = (2.0 * radius * self.scale).max(1.0);
        self.stroke(p1, p2, color, width, " stroke-opacity=\"0.5\"");
        self.line(p1, p2, color, 1.0);
    }

    fn segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        self.line(p1, p2, color, 1.5);
    }

    fn transform(&mut self, xf: Transform) {
        let k = 0.3;
        self.line(xf.p, xf.p + xf.q.rotate(Vec2::X) * k, Color(0xE6_33_33), 1.5);
        self.line(xf.p, xf.p + xf.q.rotate(Vec2::Y) * k, Color(0x33_CC_33), 1.5);
    }

    fn point(&mut self, p: Vec2, size: f32, color: Color) {
        let c = self.to_screen(p);
        self.put(format_args!(
            "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"{:.2}\" fill=\"{}\"/>\n",
            c.x,
            c.y,
            0.5 * size,
            Hex(color)
        ));
    }

    fn string(&mut self, p: Vec2, text: &str, color: Color) {
        let c = self.to_screen(p);
        self.put(format_args!(
            "<text x=\"{:.2}\" y=\"{:.2}\" font-family=\"sans-serif\" font-size=\"12\" fill=\"{}\">",
            c.x,
            c.y,
            Hex(color)
        ));
        // Escaped character by character: no allocation.
        for ch in text.chars() {
            match ch {
                '<' => self.put(format_args!("&lt;")),
                '>' => self.put(format_args!("&gt;")),
                '&' => self.put(format_args!("&amp;")),
                c => self.put(format_args!("{c}")),
            }
        }
        self.put(format_args!("</text>\n"));
    }
}
