//! An SVG backend for [`DebugDraw`]: writes SVG elements into any [`core::fmt::Write`] (a
//! `String`, or a fixed buffer of your own without an allocator).
//!
//! The world rectangle `view` maps onto a picture `width` pixels wide (the height follows the
//! aspect ratio), y up in the world and down in the picture. Filled shapes are one path each,
//! with a translucent fill and an opaque outline [`Svg::line_width`] pixels wide (2 by
//! default); rounded polygons and capsules are their exact outlines, straight edges joined by
//! circular arcs. Sizes given to [`DebugDraw::point`] are in pixels; [`Svg::text`] writes text
//! at a picture position (titles, numbers).

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
    /// Outline and segment width in pixels (2 by default).
    pub line_width: f32,
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
            line_width: 2.0,
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

    /// Picture pixels per world unit.
    #[must_use]
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// Writes `text` with its baseline's left end at picture position `(x, y)` (pixels from
    /// the top-left corner), `size` pixels tall, in `color`; `bold` for titles.
    pub fn text(&mut self, x: f32, y: f32, size: f32, text: &str, color: Color, bold: bool) {
        let weight = if bold { " font-weight=\"bold\"" } else { "" };
        self.put(format_args!(
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-family=\"sans-serif\" font-size=\"{size:.1}\"{weight} fill=\"{}\">",
            Hex(color)
        ));
        self.escaped(text);
        self.put(format_args!("</text>\n"));
    }

    /// Writes `text` with `<`, `>` and `&` escaped, character by character (no allocation).
    fn escaped(&mut self, text: &str) {
        for ch in text.chars() {
            match ch {
                '<' => self.put(format_args!("&lt;")),
                '>' => self.put(format_args!("&gt;")),
                '&' => self.put(format_args!("&amp;")),
                c => self.put(format_args!("{c}")),
            }
        }
    }

    /// A closed path around the rounded outline of the convex counter-clockwise polygon
    /// `vertices` (world) grown by `radius`: each edge moved out by the radius, consecutive
    /// edges joined by an arc around their shared vertex; filled translucent, outlined opaque.
    fn rounded_path(
        &mut self,
        vertices: impl Iterator<Item = Vec2> + Clone,
        n: usize,
        radius: f32,
        color: Color,
    ) {
        let lw = self.line_width;
        let r = radius * self.scale;
        let at = |i: usize| vertices.clone().nth(i % n).unwrap_or(Vec2::ZERO);
        let normal = |a: Vec2, b: Vec2| {
            let e = b - a;
            let l = e.length();
            if l > 0.0 {
                Vec2::new(e.y / l, -e.x / l)
            } else {
                Vec2::X
            }
        };
        self.put(format_args!("<path d=\""));
        for i in 0..n {
            let (prev, v, next) = (at(i + n - 1), at(i), at(i + 1));
            let (n0, n1) = (normal(prev, v), normal(v, next));
            let (a, b) = (self.to_screen(v + n0 * radius), self.to_screen(v + n1 * radius));
            let cmd = if i == 0 { 'M' } else { 'L' };
            // Around the vertex from one edge normal to the next: counter-clockwise in the
            // world, which in the y-down picture's angles is the negative direction (sweep 0).
            self.put(format_args!(
                "{cmd}{:.2},{:.2} A{r:.2},{r:.2} 0 0 0 {:.2},{:.2} ",
                a.x, a.y, b.x, b.y
            ));
        }
        self.put(format_args!(
            "Z\" fill=\"{0}\" fill-opacity=\"0.5\" stroke=\"{0}\" stroke-width=\"{1:.2}\" stroke-linejoin=\"round\"/>\n",
            Hex(color),
            lw
        ));
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
        let lw = self.line_width;
        self.put(format_args!("<polygon points=\""));
        self.points(vertices.iter().copied());
        self.put(format_args!(
            "\" fill=\"none\" stroke=\"{}\" stroke-width=\"{:.2}\" stroke-linejoin=\"round\"/>\n",
            Hex(color),
            lw
        ));
    }

    fn solid_polygon(&mut self, xf: Transform, vertices: &[Vec2], radius: f32, color: Color) {
        let lw = self.line_width;
        let n = vertices.len().min(MAX_POLYGON_VERTICES);
        if radius > 0.0 && n >= 2 {
            self.rounded_path(vertices[..n].iter().map(|&v| xf.apply(v)), n, radius, color);
        } else {
            self.put(format_args!("<polygon points=\""));
            self.points(vertices[..n].iter().map(|&v| xf.apply(v)));
            self.put(format_args!(
                "\" fill=\"{0}\" fill-opacity=\"0.5\" stroke=\"{0}\" stroke-width=\"{1:.2}\" stroke-linejoin=\"round\"/>\n",
                Hex(color),
                lw
            ));
        }
    }

    fn circle(&mut self, center: Vec2, radius: f32, color: Color) {
        let lw = self.line_width;
        let c = self.to_screen(center);
        self.put(format_args!(
            "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"{:.2}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{:.2}\"/>\n",
            c.x,
            c.y,
            radius * self.scale,
            Hex(color),
            lw
        ));
    }

    fn solid_circle(&mut self, xf: Transform, radius: f32, color: Color) {
        let lw = self.line_width;
        let c = self.to_screen(xf.p);
        self.put(format_args!(
            "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"{:.2}\" fill=\"{3}\" fill-opacity=\"0.5\" stroke=\"{3}\" stroke-width=\"{4:.2}\"/>\n",
            c.x,
            c.y,
            radius * self.scale,
            Hex(color),
            lw
        ));
        self.line(xf.p, xf.p + xf.q.rotate(Vec2::X) * radius, color, self.line_width);
    }

    fn solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        // The capsule is the segment p1 → p2 (a two-point "polygon") grown by the radius.
        self.rounded_path([p1, p2].into_iter(), 2, radius, color);
    }

    fn segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        self.line(p1, p2, color, self.line_width);
    }

    fn transform(&mut self, xf: Transform) {
        let k = 0.3;
        self.line(
            xf.p,
            xf.p + xf.q.rotate(Vec2::X) * k,
            Color(0xE6_33_33),
            self.line_width,
        );
        self.line(
            xf.p,
            xf.p + xf.q.rotate(Vec2::Y) * k,
            Color(0x33_CC_33),
            self.line_width,
        );
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
        self.escaped(text);
        self.put(format_args!("</text>\n"));
    }
}
