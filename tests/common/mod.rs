//! Shared test support with no peer library: a deterministic RNG, random shapes at a given
//! scale, independent brute-force geometry in `f64` and the scenes several tests step. The
//! root crate's tests include it as `mod common`; the peer comparisons (`peers/`) include the
//! same file in their library, next to the conversions to Box2D's and parry2d's types. A
//! scenario that one root test shares with its peer comparison is a file next to this one
//! (`landing.rs`, `mover_levels.rs`), included by both with `#[path]`.
#![allow(dead_code)]

use collide2d::*;

/// The deepest point's depth, or -inf without contact (the tests' comparisons rely on it).
pub fn deepest(m: &Manifold) -> f32 {
    m.max_depth().unwrap_or(f32::NEG_INFINITY)
}

/// `Vec2::new(x, y)`.
pub fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A pure translation to `(x, y)`.
pub fn at(x: f32, y: f32) -> Transform {
    Transform::from_translation(v(x, y))
}

/// SplitMix64: tiny, deterministic, good enough for test inputs.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }
    /// Uniform in 0..n.
    pub fn index(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// A point uniform in the square [-h, h)².
    pub fn vec(&mut self, h: f32) -> Vec2 {
        Vec2::new(self.range(-h, h), self.range(-h, h))
    }
}

/// A random circle of radius 0.1 … 1 times `s`, centred within 0.5 `s` of the origin.
pub fn random_circle(rng: &mut Rng, s: f32) -> Circle {
    Circle::new(rng.vec(0.5 * s), rng.range(0.1, 1.0) * s).unwrap()
}

/// A random capsule of length 0.4 … 2 times `s` centred within 0.3 `s` of the origin, of radius
/// 0.05 … 0.5 times `s` when `rounded`, else a segment (radius 0).
pub fn random_capsule(rng: &mut Rng, s: f32, rounded: bool) -> Capsule {
    let c = rng.vec(0.3 * s);
    let half = Rot::from_angle(rng.range(-3.2, 3.2)).x_axis() * (rng.range(0.2, 1.0) * s);
    let r = if rounded { rng.range(0.05, 0.5) * s } else { 0.0 };
    Capsule::new(c - half, c + half, r).unwrap()
}

/// A random convex polygon with `n` (3..=8) vertices roughly on a circle of radius ~s.
pub fn random_polygon(rng: &mut Rng, s: f32, n: usize, radius: f32) -> Polygon {
    loop {
        let mut pts = [Vec2::ZERO; 8];
        let base = rng.range(0.0, 6.3);
        for (i, p) in pts.iter_mut().enumerate().take(n) {
            let a = base + (i as f32 + rng.range(-0.3, 0.3)) * core::f32::consts::TAU / n as f32;
            *p = Rot::from_angle(a).x_axis() * (rng.range(0.5, 1.0) * s);
        }
        if let Ok(p) = Polygon::new_rounded(&pts[..n], radius) {
            return p;
        }
    }
}

/// A random box of half extents 0.2 … 1 times `s`, centred on the origin.
pub fn random_box(rng: &mut Rng, s: f32) -> Polygon {
    Polygon::make_box(rng.range(0.2, 1.0) * s, rng.range(0.2, 1.0) * s).unwrap()
}

/// `n` boxes with centres in [0, 1000]² and half extents in [0.5, 5] (the tree benchmark's
/// and memory report's input).
pub fn random_boxes(rng: &mut Rng, n: usize) -> Vec<Aabb> {
    (0..n)
        .map(|_| {
            let c = Vec2::new(rng.range(0.0, 1000.0), rng.range(0.0, 1000.0));
            let h = Vec2::new(rng.range(0.5, 5.0), rng.range(0.5, 5.0));
            Aabb::from_center_half_extents(c, h)
        })
        .collect()
}

/// A random pose: position within `spread` of the origin on each axis, any angle.
pub fn random_transform(rng: &mut Rng, spread: f32) -> Transform {
    Transform::new(rng.vec(spread), rng.range(-3.2, 3.2))
}

/// A random shape of the given kind (0 circle, 1 capsule, 2 polygon, 3 rounded polygon, 4 box,
/// 5 segment).
pub fn random_shape(rng: &mut Rng, kind: usize, s: f32) -> Shape {
    match kind {
        0 => Shape::Circle(random_circle(rng, s)),
        1 => Shape::Capsule(random_capsule(rng, s, true)),
        2 => {
            let n = 3 + rng.index(6);
            Shape::Polygon(random_polygon(rng, s, n, 0.0))
        }
        3 => {
            let n = 3 + rng.index(6);
            let r = rng.range(0.05, 0.3) * s;
            Shape::Polygon(random_polygon(rng, s, n, r))
        }
        4 => Shape::Polygon(random_box(rng, s)),
        _ => Shape::Capsule(random_capsule(rng, s, false)),
    }
}

/// A random chain segment at scale `s`: the segment plus ghosts turned by flat, near-flat
/// (around the 0.01 convexity tolerance), convex and concave angles.
pub fn random_chain_segment(rng: &mut Rng, s: f32) -> ChainSegment {
    let p1 = rng.vec(s);
    let dir = Rot::from_angle(rng.range(-3.2, 3.2));
    let len = rng.range(0.5, 3.0) * s;
    let p2 = p1 + dir.x_axis() * len;
    let turn = |rng: &mut Rng| match rng.index(6) {
        0 => 0.0,
        1 => [0.009, 0.011, -0.009, -0.011, 1e-4, -1e-4][rng.index(6)],
        2 => rng.range(-0.3, 0.3),
        _ => rng.range(-2.5, 2.5),
    };
    let t0 = turn(rng);
    let t2 = turn(rng);
    // ghost1 → p1 continues into p1 → p2 turned by t0 (positive = left turn = convex corner).
    let d0 = Rot::from_angle(-t0).rotate(dir.x_axis());
    let d2 = Rot::from_angle(t2).rotate(dir.x_axis());
    let g1 = p1 - d0 * (rng.range(0.5, 2.0) * s);
    let g2 = p2 + d2 * (rng.range(0.5, 2.0) * s);
    ChainSegment::new(g1, p1, p2, g2).unwrap()
}

/// A shape of `kind` (0 circle, 1 capsule, 2 polygon, 3 rounded polygon, 4 box) placed near
/// the segment, in front, behind, overlapping, at its ends.
pub fn near_segment(rng: &mut Rng, seg: &ChainSegment, kind: usize, s: f32) -> (Shape, Transform) {
    let shape = random_shape(rng, kind, 0.5 * s);
    let t = rng.range(-0.4, 1.4);
    let base = seg.point1.lerp(seg.point2, t);
    let off = rng.range(-0.6, 1.2) * s;
    let p = base + seg.normal() * off + rng.vec(0.1 * s);
    (shape, Transform::new(p, rng.range(-3.2, 3.2)))
}

/// The signed area of a polygon (counter-clockwise positive), shoelace formula in `f64`.
pub fn signed_area64(p: &[Vec2]) -> f64 {
    let n = p.len();
    (0..n)
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % n]);
            f64::from(a.x) * f64::from(b.y) - f64::from(a.y) * f64::from(b.x)
        })
        .sum::<f64>()
        * 0.5
}

/// A random star-shaped polygon at scale `s`: `n` vertices at sorted random angles and random
/// radii, counter-clockwise.
pub fn random_star_polygon(rng: &mut Rng, n: usize, s: f32) -> Vec<Vec2> {
    let c = rng.vec(s);
    let mut angles: Vec<f32> = (0..n)
        .map(|i| (i as f32 + rng.range(0.1, 0.9)) / n as f32 * std::f32::consts::TAU)
        .collect();
    angles.sort_by(f32::total_cmp);
    angles
        .iter()
        .map(|a| c + Rot::from_angle(*a).x_axis() * (rng.range(0.3, 1.0) * s))
        .collect()
}

/// A regular `n`-gon of radius `r` about `c`, counter-clockwise (angles in `f64`, rounded once).
pub fn regular_polygon(n: usize, r: f64, c: (f64, f64)) -> Vec<Vec2> {
    (0..n)
        .map(|k| {
            let a = core::f64::consts::TAU * k as f64 / n as f64;
            v((c.0 + r * a.cos()) as f32, (c.1 + r * a.sin()) as f32)
        })
        .collect()
}

/// A regular star of `n` (even) vertices alternating between radii `r` and `inner · r`,
/// counter-clockwise.
pub fn regular_star(n: usize, inner: f64, r: f64) -> Vec<Vec2> {
    (0..n)
        .map(|k| {
            let a = core::f64::consts::TAU * k as f64 / n as f64;
            let r = if k % 2 == 0 { r } else { inner * r };
            v((r * a.cos()) as f32, (r * a.sin()) as f32)
        })
        .collect()
}

/// A comb: a base `2 · teeth` wide and 2 deep under `teeth` teeth 1 wide and 4 tall, 1 apart,
/// counter-clockwise (`4 · teeth + 1` vertices after welding: the first tooth's left side
/// continues the base's).
pub fn comb_polygon(teeth: usize) -> Vec<Vec2> {
    let right = 2.0 * teeth as f32;
    let mut pts = vec![v(0.0, -2.0), v(right, -2.0)];
    for t in (0..teeth).rev() {
        let x = 2.0 * t as f32;
        pts.extend([v(x + 2.0, 0.0), v(x + 1.0, 0.0), v(x + 1.0, 4.0), v(x, 4.0)]);
    }
    pts
}

/// A random thick spiral at scale `s` (a simple, very concave polygon): an outer arm out and
/// an inner arm back, `n` vertices in all.
pub fn random_spiral_polygon(rng: &mut Rng, n: usize, s: f32) -> Vec<Vec2> {
    let half = n / 2;
    let turns = rng.range(1.0, 2.5);
    let arm = |k: usize, r0: f32| {
        let t = k as f32 / (half - 1).max(1) as f32;
        let a = t * turns * std::f32::consts::TAU;
        Rot::from_angle(a).x_axis() * ((r0 + t) * s)
    };
    let mut pts: Vec<Vec2> = (0..half).map(|k| arm(k, 0.35)).collect();
    pts.extend((0..half).rev().map(|k| arm(k, 0.2)));
    pts
}

/// The shape with every length times `k` (about its own origin).
pub fn scaled_shape(sh: &Shape, k: f32) -> Shape {
    match sh {
        Shape::Circle(c) => Shape::Circle(Circle::new(c.center * k, c.radius * k).unwrap()),
        Shape::Capsule(c) => {
            Shape::Capsule(Capsule::new(c.center1 * k, c.center2 * k, c.radius * k).unwrap())
        }
        Shape::Polygon(p) => Shape::Polygon(
            Polygon::new_rounded(
                &p.vertices().iter().map(|v| *v * k).collect::<Vec<_>>(),
                p.radius * k,
            )
            .unwrap(),
        ),
        Shape::ChainSegment(c) => Shape::ChainSegment(
            ChainSegment::new(c.ghost1 * k, c.point1 * k, c.point2 * k, c.ghost2 * k).unwrap(),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Independent brute-force geometry (no collide2d query code involved)

/// The core of a shape in world space (polygon loop, segment or point) and its radius.
pub fn world_core(s: &Shape, xf: Transform) -> (Vec<Vec2>, f32) {
    match s {
        Shape::Circle(c) => (vec![xf.apply(c.center)], c.radius),
        Shape::Capsule(c) => (vec![xf.apply(c.center1), xf.apply(c.center2)], c.radius),
        Shape::Polygon(p) => (p.vertices().iter().map(|&v| xf.apply(v)).collect(), p.radius),
        Shape::ChainSegment(c) => (vec![xf.apply(c.point1), xf.apply(c.point2)], 0.0),
    }
}

fn pt_seg_dist(p: Vec2, a: Vec2, b: Vec2) -> f64 {
    let (px, py, ax, ay, bx, by) = (
        p.x as f64, p.y as f64, a.x as f64, a.y as f64, b.x as f64, b.y as f64,
    );
    let (ex, ey) = (bx - ax, by - ay);
    let ee = ex * ex + ey * ey;
    let t = if ee > 0.0 {
        (((px - ax) * ex + (py - ay) * ey) / ee).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (cx, cy) = (ax + t * ex, ay + t * ey);
    ((px - cx).powi(2) + (py - cy).powi(2)).sqrt()
}

fn edges(c: &[Vec2]) -> Vec<(Vec2, Vec2)> {
    match c.len() {
        1 => vec![(c[0], c[0])],
        2 => vec![(c[0], c[1])],
        n => (0..n).map(|i| (c[i], c[(i + 1) % n])).collect(),
    }
}

fn orient(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    (b.x as f64 - a.x as f64) * (c.y as f64 - a.y as f64)
        - (b.y as f64 - a.y as f64) * (c.x as f64 - a.x as f64)
}

fn inside_loop(p: Vec2, c: &[Vec2]) -> bool {
    c.len() >= 3 && (0..c.len()).all(|i| orient(c[i], c[(i + 1) % c.len()], p) >= 0.0)
}

fn segs_cross(a: (Vec2, Vec2), b: (Vec2, Vec2)) -> bool {
    let d1 = orient(b.0, b.1, a.0);
    let d2 = orient(b.0, b.1, a.1);
    let d3 = orient(a.0, a.1, b.0);
    let d4 = orient(a.0, a.1, b.1);
    ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
}

/// Exact distance between two cores in f64 (0 when they overlap).
pub fn core_distance(ca: &[Vec2], cb: &[Vec2]) -> f64 {
    if ca.iter().any(|&p| inside_loop(p, cb)) || cb.iter().any(|&p| inside_loop(p, ca)) {
        return 0.0;
    }
    let (ea, eb) = (edges(ca), edges(cb));
    let mut best = f64::INFINITY;
    for &x in &ea {
        for &y in &eb {
            if segs_cross(x, y) {
                return 0.0;
            }
            best = best
                .min(pt_seg_dist(x.0, y.0, y.1))
                .min(pt_seg_dist(x.1, y.0, y.1));
            best = best
                .min(pt_seg_dist(y.0, x.0, x.1))
                .min(pt_seg_dist(y.1, x.0, x.1));
        }
    }
    best
}

/// Signed distance between the two shapes' surfaces (negative = overlapping, only valid as a
/// sign when cores overlap) computed by brute force.
pub fn surface_distance(a: &Shape, xa: Transform, b: &Shape, xb: Transform) -> f64 {
    let (ca, ra) = world_core(a, xa);
    let (cb, rb) = world_core(b, xb);
    core_distance(&ca, &cb) - ra as f64 - rb as f64
}

/// Independent check of a contact manifold whose cores are apart: translating B by
/// `normal * max_depth` must make the surfaces just touch. Returns the remaining signed surface
/// distance (brute force in f64), or None when the cores overlap (check does not apply).
pub fn residual_after_resolve(
    m: &Manifold,
    a: &Shape,
    xa: Transform,
    b: &Shape,
    xb: Transform,
) -> Option<f64> {
    let (ca, _) = world_core(a, xa);
    let (cb, _) = world_core(b, xb);
    if core_distance(&ca, &cb) == 0.0 {
        return None;
    }
    let moved = Transform {
        p: xb.p + m.normal * deepest(m),
        q: xb.q,
    };
    Some(surface_distance(a, xa, b, moved).abs())
}

/// Signed distance from a world point to a shape's surface (negative inside), brute force f64.
pub fn signed_distance_to_surface(q: Vec2, s: &Shape, xf: Transform) -> f64 {
    let (core, r) = world_core(s, xf);
    let d = edges(&core)
        .iter()
        .map(|e| pt_seg_dist(q, e.0, e.1))
        .fold(f64::INFINITY, f64::min);
    let inside = inside_loop(q, &core);
    (if inside { -d } else { d }) - r as f64
}

fn closest_on_seg(p: (f64, f64), a: Vec2, b: Vec2) -> (f64, f64) {
    let (ax, ay, bx, by) = (a.x as f64, a.y as f64, b.x as f64, b.y as f64);
    let (ex, ey) = (bx - ax, by - ay);
    let ee = ex * ex + ey * ey;
    let t = if ee > 0.0 {
        (((p.0 - ax) * ex + (p.1 - ay) * ey) / ee).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (ax + t * ex, ay + t * ey)
}

/// Unit direction from A's core to B's core at their closest pair, by brute force in f64
/// (None when the cores overlap).
pub fn core_closest_direction(a: &Shape, xa: Transform, b: &Shape, xb: Transform) -> Option<Vec2> {
    let (ca, _) = world_core(a, xa);
    let (cb, _) = world_core(b, xb);
    if core_distance(&ca, &cb) == 0.0 {
        return None;
    }
    let mut best = (f64::INFINITY, (0.0, 0.0));
    for &(a0, a1) in &edges(&ca) {
        for &(b0, b1) in &edges(&cb) {
            for (p, s0, s1, sign) in [
                (b0, a0, a1, 1.0),
                (b1, a0, a1, 1.0),
                (a0, b0, b1, -1.0),
                (a1, b0, b1, -1.0),
            ] {
                let pp = (p.x as f64, p.y as f64);
                let q = closest_on_seg(pp, s0, s1);
                let (dx, dy) = ((pp.0 - q.0) * sign, (pp.1 - q.1) * sign);
                let d = (dx * dx + dy * dy).sqrt();
                if d < best.0 {
                    best = (d, (dx / d, dy / d));
                }
            }
        }
    }
    Some(Vec2::new(best.1 .0 as f32, best.1 .1 as f32))
}

/// The pyramid scene of the solver tests and benchmarks, its box centres: a static ground box
/// (half extents 40 × 0.5, top at y = 0) and `rows` rows of unit boxes, row `i` holding
/// `rows − i` boxes side by side, touching. Density 1, friction 0.6, no restitution, gravity
/// (0, −10), no sleeping. `pyramid_world` builds it in collide2d, the peers' `box2d_pyramid`
/// in Box2D.
pub fn pyramid_starts(rows: usize) -> Vec<Vec2> {
    let mut v = Vec::new();
    for i in 0..rows {
        let n = rows - i;
        for j in 0..n {
            v.push(Vec2::new(j as f32 - 0.5 * (n as f32 - 1.0), 0.5 + i as f32));
        }
    }
    v
}

/// The pyramid of [`pyramid_starts`] in a collide2d `World` with default settings,
/// and its boxes' ids, bottom row first.
#[cfg(feature = "solver")]
pub fn pyramid_world(rows: usize) -> (World, Vec<BodyId>) {
    let mut w = World::default();
    let ground = Shape::Polygon(Polygon::make_box(40.0, 0.5).unwrap());
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(Vec2::new(0.0, -0.5)),
        ground,
    ))
    .unwrap();
    let unit = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
    let ids = pyramid_starts(rows)
        .into_iter()
        .map(|p| {
            w.add_body(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(p),
                unit,
            ))
            .unwrap()
        })
        .collect();
    (w, ids)
}

/// The determinism scene (as Box2D's `test_determinism`, smaller): a ground, two walls and
/// 300 mixed bodies (boxes, circles, capsules, offset on a staggered grid so they tumble),
/// sleeping on, stepped `steps` times at 60 Hz with 4 sub-steps.
#[cfg(feature = "solver")]
pub fn determinism_scene(steps: usize) -> (World, Vec<BodyId>) {
    let mut w = World::default();
    for (p, hw, hh) in [
        (Vec2::new(0.0, -0.5), 12.0, 0.5),
        (Vec2::new(-12.5, 8.0), 0.5, 8.0),
        (Vec2::new(12.5, 8.0), 0.5, 8.0),
    ] {
        let s = Shape::Polygon(Polygon::make_box(hw, hh).unwrap());
        w.add_body(&BodyDef::new(BodyKind::Static, Transform::from_translation(p), s))
            .unwrap();
    }
    let mut ids = Vec::new();
    for k in 0..300 {
        let (row, col) = (k / 20, k % 20);
        let p = Vec2::new(
            -10.0 + col as f32 + 0.25 * (row % 2) as f32,
            1.0 + 1.1 * row as f32,
        );
        let shape = match k % 3 {
            0 => Shape::Polygon(Polygon::make_box(0.4, 0.3).unwrap()),
            1 => Shape::Circle(Circle::new(Vec2::ZERO, 0.4).unwrap()),
            _ => Shape::Capsule(Capsule::new(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.2).unwrap()),
        };
        let mut d = BodyDef::new(BodyKind::Dynamic, Transform::new(p, 0.1 * k as f32), shape);
        d.material.restitution = 0.1 * (k % 4) as f32;
        ids.push(w.add_body(&d).unwrap());
    }
    for _ in 0..steps {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    (w, ids)
}

/// FNV-1a over the bit patterns of the bodies' transforms.
#[cfg(feature = "solver")]
pub fn hash_transforms(w: &World, ids: &[BodyId]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for id in ids {
        let xf = w.transform(*id).unwrap();
        for f in [xf.p.x, xf.p.y, xf.q.c, xf.q.s] {
            for byte in f.to_bits().to_le_bytes() {
                h = (h ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    h
}
