//! Mass properties of polygons, exact for rounded ones (edge strips and corner sectors).

use super::{MassData, Polygon};
use crate::fmath;
use crate::math::{unit_scale, Vec2};

impl Polygon {
    /// Exact mass properties for `density`, including the rounding (edge strips and corner
    /// sectors), unlike Box2D's approximation.
    #[must_use]
    pub fn mass(&self, density: f32) -> MassData {
        let v = self.vertices();
        let n = v.len();
        if n == 0 {
            return MassData::default();
        }
        let origin = v[0];
        let mut acc = MassAccumulator::default();
        for i in 0..n {
            acc.add_triangle(v[i] - origin, v[(i + 1) % n] - origin);
        }
        let r = self.radius;
        if r > 0.0 {
            for i in 0..n {
                let a = v[i] - origin;
                let b = v[(i + 1) % n] - origin;
                let off = self.normals[i] * r;
                // The strip lies right of the CCW edge a -> b, so its CCW loop is
                // a, a+off, b+off, b; summed as signed triangles fanned from the origin.
                acc.add_triangle(a, a + off);
                acc.add_triangle(a + off, b + off);
                acc.add_triangle(b + off, b);
                acc.add_triangle(b, a);
            }
            for (i, &vi) in v.iter().enumerate() {
                let n0 = self.normals[(i + n - 1) % n];
                let n1 = self.normals[i];
                acc.add_sector(vi - origin, n0, n1, r);
            }
        }
        if acc.area <= 0.0 {
            return MassData {
                mass: 0.0,
                center: origin,
                rotational_inertia: 0.0,
            };
        }
        let c = acc.first / acc.area;
        MassData {
            mass: density * acc.area,
            center: origin + c,
            rotational_inertia: density * (acc.second - acc.area * c.dot(c)),
        }
    }
}

pub(super) fn polygon_centroid(v: &[Vec2]) -> Vec2 {
    let origin = v[0];
    // The offsets from the first vertex scaled by a power of two to a largest component near
    // 1 (exact), so that the cubic terms neither overflow (sides near 1e13) nor underflow
    // (sides near 1e-13); the result is the same as unscaled wherever that is finite.
    let m = v.iter().fold(0.0f32, |m, &p| m.max((p - origin).max_abs()));
    let s = unit_scale(m);
    let mut area = 0.0;
    let mut c = Vec2::ZERO;
    for i in 1..v.len() - 1 {
        let e1 = (v[i] - origin) * s;
        let e2 = (v[i + 1] - origin) * s;
        let a = 0.5 * e1.cross(e2);
        c += (e1 + e2) * (a / 3.0);
        area += a;
    }
    if area > 0.0 {
        origin + (c / area) * (1.0 / s)
    } else {
        origin
    }
}

/// Area, first moment and polar second moment about the local origin, for unit density.
#[derive(Default)]
struct MassAccumulator {
    area: f32,
    first: Vec2,
    second: f32,
}

impl MassAccumulator {
    /// Adds the signed triangle (origin, a, b).
    fn add_triangle(&mut self, a: Vec2, b: Vec2) {
        let d = a.cross(b);
        let area = 0.5 * d;
        self.area += area;
        self.first += (a + b) * (area / 3.0);
        let intx2 = a.x * a.x + b.x * a.x + b.x * b.x;
        let inty2 = a.y * a.y + b.y * a.y + b.y * b.y;
        self.second += (0.25 / 3.0) * d * (intx2 + inty2);
    }

    /// Adds the circular sector with apex `apex`, radius `r`, from direction `n0` to `n1` (CCW).
    fn add_sector(&mut self, apex: Vec2, n0: Vec2, n1: Vec2, r: f32) {
        let theta = fmath::atan2(n0.cross(n1), n0.dot(n1));
        if theta <= 0.0 {
            return;
        }
        let area = 0.5 * theta * r * r;
        let bis = (n0 + n1).try_normalize().unwrap_or(n0);
        let d = 4.0 * r * fmath::sin(0.5 * theta) / (3.0 * theta);
        let c_rel = bis * d;
        let i_apex = 0.25 * theta * r * r * r * r;
        self.area += area;
        self.first += (apex + c_rel) * area;
        self.second += i_apex + area * (apex.dot(apex) + 2.0 * apex.dot(c_rel));
    }
}
