//! Shared test and benchmark support: a deterministic RNG, random shapes at a given scale and
//! conversions to Box2D v3's C structs.
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
    pub fn index(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn vec(&mut self, h: f32) -> Vec2 {
        Vec2::new(self.range(-h, h), self.range(-h, h))
    }
}

pub fn random_circle(rng: &mut Rng, s: f32) -> Circle {
    Circle::new(rng.vec(0.5 * s), rng.range(0.1, 1.0) * s).unwrap()
}

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

// ---------------------------------------------------------------------------------------------
// Box2D v3

pub mod b2 {
    pub use boxdd_sys::ffi::*;
}

pub fn b2v(v: Vec2) -> b2::b2Vec2 {
    b2::b2Vec2 { x: v.x, y: v.y }
}

pub fn b2xf(x: Transform) -> b2::b2Transform {
    b2::b2Transform {
        p: b2v(x.p),
        q: b2::b2Rot { c: x.q.c, s: x.q.s },
    }
}

pub fn b2circle(c: &Circle) -> b2::b2Circle {
    b2::b2Circle {
        center: b2v(c.center),
        radius: c.radius,
    }
}

pub fn b2capsule(c: &Capsule) -> b2::b2Capsule {
    b2::b2Capsule {
        center1: b2v(c.center1),
        center2: b2v(c.center2),
        radius: c.radius,
    }
}

pub fn b2polygon(p: &Polygon) -> b2::b2Polygon {
    b2::b2Polygon {
        vertices: p.vertices.map(b2v),
        normals: p.normals.map(b2v),
        centroid: b2v(p.centroid),
        radius: p.radius,
        count: p.count as i32,
    }
}

/// A shape in Box2D's form, built once and passed by reference.
pub enum B2Shape {
    Circle(b2::b2Circle),
    Capsule(b2::b2Capsule),
    Polygon(b2::b2Polygon),
    ChainSegment(b2::b2ChainSegment),
}

pub fn b2chain_segment(c: &ChainSegment) -> b2::b2ChainSegment {
    b2::b2ChainSegment {
        ghost1: b2v(c.ghost1),
        segment: b2::b2Segment {
            point1: b2v(c.point1),
            point2: b2v(c.point2),
        },
        ghost2: b2v(c.ghost2),
        chainId: 0,
    }
}

pub fn b2shape(s: &Shape) -> B2Shape {
    match s {
        Shape::Circle(c) => B2Shape::Circle(b2circle(c)),
        Shape::Capsule(c) => B2Shape::Capsule(b2capsule(c)),
        Shape::Polygon(p) => B2Shape::Polygon(b2polygon(p)),
        Shape::ChainSegment(c) => B2Shape::ChainSegment(b2chain_segment(c)),
    }
}

/// Box2D's manifold for the canonical order (A the more complex kind), in frame A.
/// Returns None for pairs Box2D does not offer in this order.
pub fn b2collide_local(a: &B2Shape, b: &B2Shape, xf: b2::b2Transform) -> Option<b2::b2LocalManifold> {
    // SAFETY: all pointers refer to live, initialised locals for the duration of the call.
    unsafe {
        Some(match (a, b) {
            (B2Shape::Circle(a), B2Shape::Circle(b)) => b2::b2CollideCircles(a, b, xf),
            (B2Shape::Capsule(a), B2Shape::Circle(b)) => b2::b2CollideCapsuleAndCircle(a, b, xf),
            (B2Shape::Capsule(a), B2Shape::Capsule(b)) => b2::b2CollideCapsules(a, b, xf),
            (B2Shape::Polygon(a), B2Shape::Circle(b)) => b2::b2CollidePolygonAndCircle(a, b, xf),
            (B2Shape::Polygon(a), B2Shape::Capsule(b)) => b2::b2CollidePolygonAndCapsule(a, b, xf),
            (B2Shape::Polygon(a), B2Shape::Polygon(b)) => b2::b2CollidePolygons(a, b, xf),
            (B2Shape::ChainSegment(a), B2Shape::Circle(b)) => b2::b2CollideChainSegmentAndCircle(a, b, xf),
            (B2Shape::ChainSegment(a), B2Shape::Capsule(b)) => {
                let mut cache: b2::b2SimplexCache = std::mem::zeroed();
                b2::b2CollideChainSegmentAndCapsule(a, b, xf, &mut cache)
            }
            (B2Shape::ChainSegment(a), B2Shape::Polygon(b)) => {
                let mut cache: b2::b2SimplexCache = std::mem::zeroed();
                b2::b2CollideChainSegmentAndPolygon(a, b, xf, &mut cache)
            }
            _ => return None,
        })
    }
}

/// Box2D's manifold converted to our conventions: world space, depth = -separation.
pub fn b2collide_world(a: &Shape, xa: Transform, b: &Shape, xb: Transform) -> Option<Manifold> {
    let rel = xa.inv_mul(xb);
    let lm = b2collide_local(&b2shape(a), &b2shape(b), b2xf(rel))?;
    Some(b2local_to_world(&lm, xa, 1.0))
}

/// A Box2D manifold in frame A, computed at `1 / scale` of the real size, as our manifold at
/// the real size: world space (A at `xa`), lengths times `scale`, depth = -separation.
pub fn b2local_to_world(lm: &b2::b2LocalManifold, xa: Transform, scale: f32) -> Manifold {
    let mut m = Manifold {
        count: lm.pointCount as u32,
        ..Manifold::default()
    };
    if m.count > 0 {
        m.normal = xa.q.rotate(Vec2::new(lm.normal.x, lm.normal.y));
    }
    for i in 0..m.count as usize {
        let p = lm.points[i];
        m.points[i] = ManifoldPoint {
            point: xa.apply(Vec2::new(p.point.x, p.point.y) * scale),
            depth: -p.separation * scale,
            id: u32::from(p.id),
        };
    }
    m
}

/// Box2D's speculative distance (4 × linear slop of 0.005 m).
pub const B2_SPECULATIVE_DISTANCE: f32 = 0.02;

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

pub fn b2proxy(p: &ShapeProxy) -> b2::b2ShapeProxy {
    b2::b2ShapeProxy {
        points: p.points.map(b2v),
        count: p.count as i32,
        radius: p.radius,
    }
}

/// Box2D's distance (with radii), converted to world space: (distance, point A, point B).
pub fn b2distance_world(a: &Shape, xa: Transform, b: &Shape, xb: Transform) -> (f32, Vec2, Vec2) {
    let input = b2::b2DistanceInput {
        proxyA: b2proxy(&ShapeProxy::from_shape(a)),
        proxyB: b2proxy(&ShapeProxy::from_shape(b)),
        transform: b2xf(xa.inv_mul(xb)),
        useRadii: true,
    };
    let mut cache = b2::b2SimplexCache {
        count: 0,
        indexA: [0; 3],
        indexB: [0; 3],
    };
    // SAFETY: input and cache are live locals; a null simplex buffer with capacity 0 is allowed.
    let out = unsafe { b2::b2ShapeDistance(&input, &mut cache, core::ptr::null_mut(), 0) };
    let pa = xa.apply(Vec2::new(out.pointA.x, out.pointA.y));
    let pb = xa.apply(Vec2::new(out.pointB.x, out.pointB.y));
    (out.distance, pa, pb)
}

/// Box2D's ray cast against a shape, converted to world space; None on a miss.
pub fn b2raycast_world(s: &Shape, xf: Transform, ray: &Ray) -> Option<RayHit> {
    let input = b2::b2RayCastInput {
        origin: b2v(xf.inv_apply(ray.origin)),
        translation: b2v(xf.q.inv_rotate(ray.translation)),
        maxFraction: ray.max_fraction,
    };
    // SAFETY: shape and input are live locals for the duration of each call.
    let out = unsafe {
        match s {
            Shape::Circle(c) => b2::b2RayCastCircle(&b2circle(c), &input),
            Shape::Capsule(c) => b2::b2RayCastCapsule(&b2capsule(c), &input),
            Shape::Polygon(p) => b2::b2RayCastPolygon(&b2polygon(p), &input),
            Shape::ChainSegment(c) => b2::b2RayCastSegment(
                &b2::b2Segment {
                    point1: b2v(c.point1),
                    point2: b2v(c.point2),
                },
                &input,
                true,
            ),
        }
    };
    out.hit.then(|| RayHit {
        point: xf.apply(Vec2::new(out.point.x, out.point.y)),
        normal: xf.q.rotate(Vec2::new(out.normal.x, out.normal.y)),
        fraction: out.fraction,
    })
}

/// Box2D's pair shape cast (B moving relative to A), world-space result: Some(fraction, normal)
/// on a hit that is not an initial overlap.
pub fn b2shapecast_world(
    a: &Shape,
    xa: Transform,
    ta: Vec2,
    b: &Shape,
    xb: Transform,
    tb: Vec2,
) -> Option<(f32, Vec2)> {
    let input = b2::b2ShapeCastPairInput {
        proxyA: b2proxy(&ShapeProxy::from_shape(a)),
        proxyB: b2proxy(&ShapeProxy::from_shape(b)),
        transform: b2xf(xa.inv_mul(xb)),
        translationB: b2v(xa.q.inv_rotate(tb - ta)),
        maxFraction: 1.0,
        canEncroach: false,
    };
    // SAFETY: input is a live local.
    let out = unsafe { b2::b2ShapeCast(&input) };
    (out.hit && out.fraction > 0.0)
        .then(|| (out.fraction, xa.q.rotate(Vec2::new(out.normal.x, out.normal.y))))
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

pub fn b2sweep(s: &Sweep) -> b2::b2Sweep {
    b2::b2Sweep {
        localCenter: b2v(s.local_center),
        c1: b2v(s.c1),
        c2: b2v(s.c2),
        q1: b2::b2Rot { c: s.q1.c, s: s.q1.s },
        q2: b2::b2Rot { c: s.q2.c, s: s.q2.s },
    }
}

/// Box2D's time of impact: (state, fraction) with Box2D's state numbering.
pub fn b2toi(a: &Shape, sa: &Sweep, b: &Shape, sb: &Sweep) -> (u32, f32) {
    let input = b2::b2TOIInput {
        proxyA: b2proxy(&ShapeProxy::from_shape(a)),
        proxyB: b2proxy(&ShapeProxy::from_shape(b)),
        sweepA: b2sweep(sa),
        sweepB: b2sweep(sb),
        maxFraction: 1.0,
    };
    // SAFETY: input is a live local.
    let out = unsafe { b2::b2TimeOfImpact(&input) };
    (out.state, out.fraction)
}

// ---------------------------------------------------------------------------------------------
// parry2d

pub fn parry_vec(v: Vec2) -> parry2d::math::Vector {
    parry2d::math::Vector::new(v.x, v.y)
}

pub fn parry_pose(x: Transform) -> parry2d::math::Pose {
    parry2d::math::Pose::new(parry_vec(x.p), x.q.angle())
}

/// The same shape in parry (ball, capsule or segment, convex polygon, round convex polygon).
pub fn parry_shape(s: &Shape) -> Box<dyn parry2d::shape::Shape> {
    use parry2d::shape as ps;
    match s {
        Shape::Circle(c) if c.center == Vec2::ZERO => Box::new(ps::Ball::new(c.radius)),
        Shape::Circle(c) => Box::new(ps::Capsule::new(
            parry_vec(c.center),
            parry_vec(c.center),
            c.radius,
        )),
        Shape::Capsule(c) if c.radius == 0.0 => {
            Box::new(ps::Segment::new(parry_vec(c.center1), parry_vec(c.center2)))
        }
        Shape::Capsule(c) => Box::new(ps::Capsule::new(
            parry_vec(c.center1),
            parry_vec(c.center2),
            c.radius,
        )),
        Shape::Polygon(p) => {
            let poly =
                ps::ConvexPolygon::from_convex_polyline(p.vertices().iter().map(|&v| parry_vec(v)).collect())
                    .unwrap();
            if p.radius > 0.0 {
                Box::new(ps::RoundShape {
                    inner_shape: poly,
                    border_radius: p.radius,
                })
            } else {
                Box::new(poly)
            }
        }
        // parry has no one-sided segment: the two-sided segment (distance, two-sided queries).
        Shape::ChainSegment(c) => Box::new(ps::Segment::new(parry_vec(c.point1), parry_vec(c.point2))),
    }
}

/// The pyramid scene shared by the solver tests and benchmarks, in both engines: a static
/// ground box (half extents 40 × 0.5, top at y = 0) and `rows` rows of unit boxes, row `i`
/// holding `rows − i` boxes side by side, touching. Density 1, friction 0.6, no restitution,
/// gravity (0, −10), no sleeping.
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

/// The same pyramid in Box2D v3 (single-threaded, sleeping off). Destroy with
/// `b2::b2DestroyWorld(world)`.
pub fn box2d_pyramid(rows: usize) -> (b2::b2WorldId, Vec<b2::b2BodyId>) {
    // SAFETY: plain Box2D C calls on definitions it initialised itself.
    unsafe {
        let mut wd = b2::b2DefaultWorldDef();
        wd.gravity = b2::b2Vec2 { x: 0.0, y: -10.0 };
        wd.enableSleep = false;
        wd.workerCount = 1;
        let world = b2::b2CreateWorld(&wd);
        let mut bd = b2::b2DefaultBodyDef();
        bd.position = b2::b2Vec2 { x: 0.0, y: -0.5 };
        let ground = b2::b2CreateBody(world, &bd);
        let mut sd = b2::b2DefaultShapeDef();
        sd.material.friction = 0.6;
        sd.density = 1.0;
        let gp = b2::b2MakeBox(40.0, 0.5);
        b2::b2CreatePolygonShape(ground, &sd, &gp);
        let unit = b2::b2MakeBox(0.5, 0.5);
        let ids = pyramid_starts(rows)
            .into_iter()
            .map(|p| {
                let mut bd = b2::b2DefaultBodyDef();
                bd.type_ = b2::b2BodyType_b2_dynamicBody;
                bd.position = b2::b2Vec2 { x: p.x, y: p.y };
                bd.enableSleep = false;
                let b = b2::b2CreateBody(world, &bd);
                b2::b2CreatePolygonShape(b, &sd, &unit);
                b
            })
            .collect();
        (world, ids)
    }
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

/// Box2D's plane-result callback for `b2World_CollideMover`: collects each plane into the
/// `Vec<b2CollisionPlane>` passed as the context, rigid and clipping velocity (the defaults of
/// Box2D's `geometric_mover` sample).
///
/// # Safety
/// `context` must point to a live `Vec<b2::b2CollisionPlane>`; Box2D passes a valid result.
pub unsafe extern "C" fn b2_collect_plane(
    _shape: b2::b2ShapeId,
    result: *const b2::b2PlaneResult,
    context: *mut std::os::raw::c_void,
) -> bool {
    // SAFETY: by this function's contract.
    let (planes, result) = unsafe { (&mut *(context as *mut Vec<b2::b2CollisionPlane>), &*result) };
    planes.push(b2::b2CollisionPlane {
        plane: result.plane,
        pushLimit: f32::MAX,
        push: 0.0,
        clipVelocity: true,
    });
    true
}

/// Box2D v3.1's mover loop as its `geometric_mover` sample runs it, for the capsule `mover`
/// (centres relative to the position): up to 5 iterations of `b2World_CollideMover`,
/// `b2SolvePlanes` toward `target` and `b2World_CastMover`, stopping after a step shorter than
/// 0.01. Returns the final position, the length of the path and the iterations used; `planes`
/// holds the last iteration's planes (for `b2ClipVector`).
pub fn box2d_mover_loop(
    world: b2::b2WorldId,
    mover: &b2::b2Capsule,
    start: Vec2,
    target: Vec2,
    planes: &mut Vec<b2::b2CollisionPlane>,
) -> (Vec2, f32, u32) {
    let (mut pos, mut path, mut iterations) = (start, 0.0, 0);
    // SAFETY: plain Box2D C calls on the caller's world; the plane Vec outlives each collide
    // call.
    unsafe {
        let filter = b2::b2DefaultQueryFilter();
        while iterations < 5 {
            iterations += 1;
            planes.clear();
            b2::b2World_CollideMover(
                world,
                b2v(pos),
                mover,
                filter,
                Some(b2_collect_plane),
                planes as *mut Vec<b2::b2CollisionPlane> as *mut std::os::raw::c_void,
            );
            let r = b2::b2SolvePlanes(b2v(target - pos), planes.as_mut_ptr(), planes.len() as i32);
            let delta = Vec2::new(r.translation.x, r.translation.y);
            let fraction = b2::b2World_CastMover(world, b2v(pos), mover, b2v(delta), filter);
            let step = delta * fraction;
            pos += step;
            path += step.length();
            if step.length_squared() < 0.01 * 0.01 {
                break;
            }
        }
    }
    (pos, path, iterations)
}
