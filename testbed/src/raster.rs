//! The page's renderer: [`Mesh`](crate::mesh::Mesh) polygons drawn into an RGBA pixel buffer
//! in WebAssembly, which the page puts on its canvas in one call (`putImageData`). Every
//! polygon is convex; a pixel's coverage is taken from its centre's signed distance to the
//! polygon's edges (`0.5 − the largest`, clamped to [0, 1]: exact for a pixel crossed by one
//! edge, an estimate near corners), and the colour is blended over what is there by that
//! coverage. A filled shape is drawn in the same pass: inside a convex polygon the largest
//! signed distance is minus the distance to its boundary, so pixels within the outline band
//! take the outline colour and the rest the fill (blended across the band's inner pixel). Work is proportional to the pixels each polygon's rows span (found exactly per
//! row from the edges), not to its bounding box, so a long thin diagonal line costs its length.
//!
//! The pixels are the same bytes natively and in the browser (the arithmetic is plain `f32`
//! and integer work, no fused operations), which is what lets CI compare the page's canvas
//! with a native rendering.
use collide2d::Vec2;

use crate::mesh::{polygons_raw, OUTLINE, STRIDE};

/// The largest buffer side, in pixels (a 16K canvas), and the most pixels in all.
pub const MAX_SIDE: u32 = 16_384;
/// At most 64 M pixels (256 MB).
pub const MAX_PIXELS: u64 = 1 << 26;

/// The camera: a world point `(x, y)` lands on the pixel
/// `(origin_x + scale x, origin_y - scale y)`.
#[derive(Clone, Copy, Debug)]
pub struct Camera {
    /// Pixel column of the world origin.
    pub origin_x: f32,
    /// Pixel row of the world origin.
    pub origin_y: f32,
    /// Pixels per world unit.
    pub scale: f32,
    /// Device pixels per CSS pixel (the outline band's width).
    pub dpr: f32,
}

/// An RGBA pixel buffer, rows top first, each pixel `0xAABBGGRR` (bytes R, G, B, A).
#[derive(Default)]
pub struct Raster {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels.
    pub pixels: Vec<u32>,
    /// Per polygon: the pixel-space vertices (scratch).
    points: Vec<Vec2>,
    /// Per polygon: each edge's outward unit normal and offset (scratch).
    edges: Vec<(f32, f32, f32)>,
}

/// Blends colour `src` over `dst` by coverage `k` in [0, 1] (opaque result): red and blue
/// in one multiply, green in another (each channel times at most 256 stays in its 16 bits).
fn blend(dst: u32, src: u32, k: f32) -> u32 {
    let w = (k * 256.0) as u32; // 0 ..= 256
    let inv = 256 - w;
    let rb = (((dst & 0x00FF_00FF) * inv + (src & 0x00FF_00FF) * w) >> 8) & 0x00FF_00FF;
    let g = (((dst & 0x0000_FF00) * inv + (src & 0x0000_FF00) * w) >> 8) & 0x0000_FF00;
    0xFF00_0000 | rb | g
}

/// The pixel columns `[x0, x1)` of the row whose centres are at height `py` that lie within
/// half a pixel of the convex polygon with `edges` (see [`Raster::scan`]), clipped to
/// `[0, width)`; `None` when there are none.
fn span(edges: impl Iterator<Item = (f32, f32, f32)>, py: f32, width: i64) -> Option<(i64, i64)> {
    let (mut lo, mut hi) = (f32::NEG_INFINITY, f32::INFINITY);
    for (nx, ny, c) in edges {
        let rest = 0.5 + c - ny * py;
        if nx > 0.0 {
            let x = rest / nx;
            hi = if x < hi { x } else { hi };
        } else if nx < 0.0 {
            let x = rest / nx;
            lo = if x > lo { x } else { lo };
        } else if rest <= 0.0 {
            return None;
        }
    }
    if lo.partial_cmp(&hi) != Some(core::cmp::Ordering::Less) {
        return None;
    }
    let x0 = ((lo - 0.5).floor() as i64).max(0);
    let x1 = ((hi - 0.5).ceil() as i64).saturating_add(1).min(width);
    (x0 < x1).then_some((x0, x1))
}

impl Raster {
    /// Resizes the buffer to `width × height` pixels (each side clamped to [1, MAX_SIDE]
    /// and the whole to MAX_PIXELS, the height shrinking first); returns whether it holds that
    /// size.
    pub fn resize(&mut self, width: u32, height: u32) -> bool {
        let w = width.clamp(1, MAX_SIDE);
        let h = height.clamp(1, MAX_SIDE).min((MAX_PIXELS / u64::from(w)) as u32);
        self.width = w;
        self.height = h;
        self.pixels.resize(w as usize * h as usize, 0);
        (w, h) == (width, height)
    }

    /// Every pixel set to `color`.
    pub fn clear(&mut self, color: u32) {
        self.pixels.fill(color);
    }

    /// Draws every polygon of a mesh's `out` ([`crate::mesh`]) through `camera`, in order.
    pub fn draw(&mut self, out: &[u32], camera: Camera) {
        let mut points = core::mem::take(&mut self.points);
        let band = OUTLINE * camera.dpr;
        for (color, fill, words) in polygons_raw(out) {
            points.clear();
            for v in words.chunks_exact(STRIDE) {
                let f = |k: usize| f32::from_bits(v[k]);
                points.push(Vec2::new(
                    camera.origin_x + camera.scale * f(0) + f(2),
                    camera.origin_y - camera.scale * f(1) - f(3),
                ));
            }
            self.fill_convex(&points, color, (fill != 0).then_some((fill, band)));
        }
        self.points = points;
    }

    /// Fills the convex polygon `p` (pixel coordinates, either winding) with `color`,
    /// antialiased; with `fill = Some((inside, band))`, only a band `band` pixels wide inside
    /// its edge is `color` and the rest `inside`. Polygons with a non-finite vertex or fewer
    /// than three are skipped.
    pub fn fill_convex(&mut self, p: &[Vec2], color: u32, fill: Option<(u32, f32)>) {
        if p.len() < 3 || p.iter().any(|v| !(v.x.is_finite() && v.y.is_finite())) {
            return;
        }
        if fill.is_none() && p.len() == 4 {
            let (a, b, c, d) = (p[0], p[1], p[2], p[3]);
            if a.y == b.y && b.x == c.x && c.y == d.y && d.x == a.x {
                // Points: moved to the nearest whole pixel, so a square of whole pixels is
                // drawn crisp.
                let (x0, y0) = (a.x.min(c.x), a.y.min(c.y));
                let (sx, sy) = ((x0.round() - x0), (y0.round() - y0));
                self.fill_rect(x0 + sx, y0 + sy, a.x.max(c.x) + sx, a.y.max(c.y) + sy, color);
                return;
            }
        }
        let twice_area: f32 = (0..p.len()).map(|k| p[k].cross(p[(k + 1) % p.len()])).sum();
        if twice_area == 0.0 {
            return;
        }
        // Outward normals: in y-down pixels a polygon of positive signed area is clockwise on
        // screen; its outward normal is the edge turned one way, else the other.
        let sign = if twice_area > 0.0 { 1.0 } else { -1.0 };
        self.edges.clear();
        let (mut y0, mut y1) = (f32::INFINITY, f32::NEG_INFINITY);
        for k in 0..p.len() {
            let (a, b) = (p[k], p[(k + 1) % p.len()]);
            y0 = y0.min(a.y);
            y1 = y1.max(a.y);
            let e = b - a;
            let len = e.length();
            if len > 0.0 {
                let n = Vec2::new(e.y, -e.x) * (sign / len);
                self.edges.push((n.x, n.y, n.x * a.x + n.y * a.y));
            }
        }
        let edges = core::mem::take(&mut self.edges);
        if edges.len() <= 4 {
            // Up to four edges (lines, arrow heads, boxes): fixed lanes the compiler can keep
            // in vector registers; the missing ones never bind (a distance of minus infinity).
            let mut e = [(0.0f32, 0.0f32, f32::INFINITY); 4];
            e[..edges.len()].copy_from_slice(&edges);
            self.scan::<4>(e, (y0, y1), color, fill);
        } else {
            self.scan_edges(&edges, (y0, y1), color, fill);
        }
        self.edges = edges;
    }

    /// The rows of a convex polygon given by its `N` edges (outward unit normal `(nx, ny)`
    /// and offset `c`: the signed distance of `(x, y)` is `nx x + ny y − c`) between `y0`
    /// and `y1`: each row's span found from the edges, then each pixel's distance stepped
    /// along the row (it grows by `nx` a pixel).
    fn scan<const N: usize>(
        &mut self,
        e: [(f32, f32, f32); N],
        (y0, y1): (f32, f32),
        color: u32,
        fill: Option<(u32, f32)>,
    ) {
        let (w, h) = (self.width as i64, self.height as i64);
        let row0 = ((y0 - 0.5).floor() as i64).max(0);
        let row1 = ((y1 + 0.5).ceil() as i64).min(h);
        let nx: [f32; N] = core::array::from_fn(|k| e[k].0);
        for row in row0..row1 {
            let py = row as f32 + 0.5;
            let Some((x0, x1)) = span(e.iter().copied(), py, w) else {
                continue;
            };
            let px = x0 as f32 + 0.5;
            let mut d: [f32; N] = core::array::from_fn(|k| e[k].0 * px + e[k].1 * py - e[k].2);
            let line = row as usize * self.width as usize;
            for x in x0..x1 {
                let mut m = f32::NEG_INFINITY;
                for k in 0..N {
                    m = if d[k] > m { d[k] } else { m };
                    d[k] += nx[k];
                }
                self.put(line + x as usize, m, color, fill);
            }
        }
    }

    /// [`Raster::scan`] for any number of edges.
    fn scan_edges(
        &mut self,
        e: &[(f32, f32, f32)],
        (y0, y1): (f32, f32),
        color: u32,
        fill: Option<(u32, f32)>,
    ) {
        let (w, h) = (self.width as i64, self.height as i64);
        let row0 = ((y0 - 0.5).floor() as i64).max(0);
        let row1 = ((y1 + 0.5).ceil() as i64).min(h);
        for row in row0..row1 {
            let py = row as f32 + 0.5;
            let Some((x0, x1)) = span(e.iter().copied(), py, w) else {
                continue;
            };
            let line = row as usize * self.width as usize;
            for x in x0..x1 {
                let px = x as f32 + 0.5;
                let mut m = f32::NEG_INFINITY;
                for &(nx, ny, c) in e {
                    let v = nx * px + ny * py - c;
                    m = if v > m { v } else { m };
                }
                self.put(line + x as usize, m, color, fill);
            }
        }
    }

    /// Pixel `at`, whose centre lies at signed distance `d` from the polygon (negative
    /// inside), takes `color` (or, inside a filled shape's band, the fill) by its coverage.
    #[inline]
    fn put(&mut self, at: usize, d: f32, color: u32, fill: Option<(u32, f32)>) {
        let k = 0.5 - d;
        if k <= 0.0 {
            return;
        }
        let ink = match fill {
            None => color,
            Some((inside, band)) => {
                let t = d + band + 0.5;
                if t <= 0.0 {
                    inside
                } else if t >= 1.0 {
                    color
                } else {
                    blend(inside, color, t)
                }
            }
        };
        self.pixels[at] = if k >= 1.0 {
            ink
        } else {
            blend(self.pixels[at], ink, k)
        };
    }
}

impl Raster {
    /// Fills the pixel-aligned rectangle `[x0, x1] × [y0, y1]` (pixel coordinates) with
    /// `color`, each pixel covered by the share of its area inside (exact box-filter
    /// coverage): the fast path of [`Raster::fill_convex`] for points.
    pub fn fill_rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, color: u32) {
        if !(x0 < x1 && y0 < y1) {
            return;
        }
        let (w, h) = (self.width as i64, self.height as i64);
        let (c0, c1) = ((x0.floor() as i64).max(0), (x1.ceil() as i64).min(w));
        let (r0, r1) = ((y0.floor() as i64).max(0), (y1.ceil() as i64).min(h));
        let overlap = |lo: f32, hi: f32, i: i64| (hi.min(i as f32 + 1.0) - lo.max(i as f32)).clamp(0.0, 1.0);
        for row in r0..r1 {
            let ky = overlap(y0, y1, row);
            let line = row as usize * self.width as usize;
            for x in c0..c1 {
                let k = ky * overlap(x0, x1, x);
                let at = line + x as usize;
                if k >= 1.0 {
                    self.pixels[at] = color;
                } else if k > 0.0 {
                    self.pixels[at] = blend(self.pixels[at], color, k);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: u32 = 0xFFFF_FFFF;
    const BLACK: u32 = 0xFF00_0000;

    fn coverage(r: &Raster) -> f32 {
        r.pixels.iter().map(|&p| (p & 0xFF) as f32 / 255.0).sum()
    }

    /// The ink a polygon leaves (white on black, summed over pixels) is its area, for random
    /// triangles and quads of both windings at many sizes and sub-pixel positions (the
    /// coverage estimate errs only near corners: within a pixel per corner), and a shape
    /// aligned with the pixel grid covers exactly its pixels.
    #[test]
    fn ink_matches_area() {
        let mut r = Raster::default();
        r.resize(64, 64);
        let mut seed = 12345u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        for _ in 0..500 {
            let c = Vec2::new(16.0 + 32.0 * rnd(), 16.0 + 32.0 * rnd());
            let size = 1.0 + 14.0 * rnd();
            let n = 3 + (rnd() * 2.0) as usize;
            let start = rnd() * core::f32::consts::TAU;
            let mut p: Vec<Vec2> = (0..n)
                .map(|k| {
                    let a = start + k as f32 * core::f32::consts::TAU / n as f32;
                    c + Vec2::new(a.cos(), a.sin()) * size
                })
                .collect();
            if rnd() < 0.5 {
                p.reverse();
            }
            let area: f32 = 0.5 * (0..n).map(|k| p[k].cross(p[(k + 1) % n])).sum::<f32>().abs();
            r.clear(BLACK);
            r.fill_convex(&p, WHITE, None);
            let ink = coverage(&r);
            assert!(
                (ink - area).abs() <= 0.25 * n as f32 + 0.02 * area,
                "{p:?}: ink {ink} area {area}"
            );
        }
        r.clear(BLACK);
        r.fill_convex(
            &[
                Vec2::new(3.0, 5.0),
                Vec2::new(13.0, 5.0),
                Vec2::new(13.0, 9.0),
                Vec2::new(3.0, 9.0),
            ],
            WHITE,
            None,
        );
        for y in 0..64 {
            for x in 0..64 {
                let inside = (3..13).contains(&x) && (5..9).contains(&y);
                assert_eq!(
                    r.pixels[y * 64 + x],
                    if inside { WHITE } else { BLACK },
                    "({x}, {y})"
                );
            }
        }
    }

    /// A 5 × 5 square point at a half-pixel offset is moved onto whole pixels: 25 full pixels
    /// (its area); a filled shape is its fill inside and its outline colour in the band along
    /// its edges.
    #[test]
    fn points_and_outlined_fills() {
        let mut r = Raster::default();
        r.resize(16, 16);
        r.clear(BLACK);
        let sq = [
            Vec2::new(2.5, 2.5),
            Vec2::new(7.5, 2.5),
            Vec2::new(7.5, 7.5),
            Vec2::new(2.5, 7.5),
        ];
        r.fill_convex(&sq, WHITE, None);
        assert!((coverage(&r) - 25.0).abs() < 0.1, "{}", coverage(&r));
        let full = r.pixels.iter().filter(|&&p| p == WHITE).count();
        assert_eq!(full, 25);
        r.clear(BLACK);
        r.fill_rect(2.5, 2.5, 7.5, 7.5, WHITE);
        assert!((coverage(&r) - 25.0).abs() < 0.1, "{}", coverage(&r));
        assert_eq!(
            r.pixels.iter().filter(|&&p| p == WHITE).count(),
            16,
            "the rectangle itself is not moved"
        );
        // A 12 × 8 rectangle filled grey (0x40) with a white band of 2 px.
        r.clear(BLACK);
        let grey = 0xFF40_4040;
        let rect = [
            Vec2::new(2.0, 4.0),
            Vec2::new(14.0, 4.0),
            Vec2::new(14.0, 12.0),
            Vec2::new(2.0, 12.0),
        ];
        r.fill_convex(&rect, WHITE, Some((grey, 2.0)));
        for y in 0..16 {
            for x in 0..16 {
                let p = r.pixels[y * 16 + x];
                let inside = (2..14).contains(&x) && (4..12).contains(&y);
                let edge_distance = [x as i32 - 2, 13 - x as i32, y as i32 - 4, 11 - y as i32]
                    .into_iter()
                    .min()
                    .unwrap();
                let want = if !inside {
                    BLACK
                } else if edge_distance <= 1 {
                    WHITE
                } else {
                    grey
                };
                assert_eq!(p, want, "({x}, {y})");
            }
        }
    }

    /// Polygons partly or wholly off the buffer, degenerate, or with non-finite vertices draw
    /// what is on the buffer and nothing else, without panicking.
    #[test]
    fn off_buffer_and_bad_polygons_are_clipped_or_skipped() {
        let mut r = Raster::default();
        r.resize(16, 16);
        r.clear(BLACK);
        // A triangle a million pixels across (f32 keeps its edges within 0.1 px here).
        let big = [Vec2::new(-1e6, -1e6), Vec2::new(1e6, -1e6), Vec2::new(0.0, 1e6)];
        r.fill_convex(&big, WHITE, None);
        // Beyond that the edges' places are not representable: it must only not panic.
        let mut scratch = Raster::default();
        scratch.resize(16, 16);
        scratch.fill_convex(
            &[
                Vec2::new(-1e30, -1e30),
                Vec2::new(1e30, -1e30),
                Vec2::new(0.0, 1e30),
            ],
            WHITE,
            None,
        );
        scratch.fill_convex(
            &[Vec2::new(-3e38, 0.0), Vec2::new(3e38, 0.0), Vec2::new(0.0, 3e38)],
            WHITE,
            None,
        );
        for bad in [
            vec![Vec2::new(f32::NAN, 0.0), Vec2::new(5.0, 0.0), Vec2::new(0.0, 5.0)],
            vec![Vec2::new(1.0, 1.0), Vec2::new(2.0, 2.0), Vec2::new(3.0, 3.0)],
            vec![Vec2::new(1.0, 1.0), Vec2::new(2.0, 2.0)],
            vec![
                Vec2::new(-50.0, -50.0),
                Vec2::new(-40.0, -50.0),
                Vec2::new(-40.0, -40.0),
            ],
        ] {
            r.fill_convex(&bad, BLACK, None);
        }
        assert!(
            r.pixels.iter().all(|&p| p == WHITE),
            "the huge triangle covers all; the rest drew nothing"
        );
        let mut r = Raster::default();
        assert!(!r.resize(100_000, 100_000));
        assert!(r.width <= MAX_SIDE && u64::from(r.width) * u64::from(r.height) <= MAX_PIXELS);
    }
}
