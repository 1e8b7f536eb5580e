//! Overlap tests and contact manifolds: collide2d, Box2D v3 (boxdd-sys) and parry2d side by side
//! on the same 4096 pre-generated pairs per row (about half touching), in one run.
//!
//! Every library gets both world transforms and computes the relative transform itself inside
//! the timed loop, as a user would. Box2D shapes are built once in a store and passed by
//! reference. parry's manifolds are cleared before each call so its frame-to-frame cache
//! (`try_update_contacts`) cannot skip the work.
//!
//! Time per pair = reported time / 4096 (criterion's throughput is set to 4096 elements).
//! collide2d is measured twice: through the generic `collide` / `overlaps` on `Shape`s (148 B
//! each), and through the typed per-pair functions on arrays of the concrete type
//! (`collide2d-typed`), which is how Box2D's and parry's typed calls are measured.
//!
//! Every result is passed whole through `black_box`, so each library pays for its complete
//! output. The typed functions are `#[inline]`: when only the point count was summed, the
//! compiler dropped the stores (and work) of the fields nobody read, which flattered those rows.
//! Box2D's manifolds stay in its frame A (its API's output); ours are in world space.
use collide2d::*;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

use collide2d_peers::*;

use parry2d::math::{Pose, Vector as PV};
use parry2d::query::details as pm;
use parry2d::query::ContactManifold;
use parry2d::shape as ps;

const N: usize = 4096;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Circle,
    Box,
    Gon8,
    Capsule,
}

fn make(rng: &mut Rng, k: Kind) -> Shape {
    match k {
        Kind::Circle => Shape::Circle(Circle::new(Vec2::ZERO, rng.range(0.3, 0.7)).unwrap()),
        Kind::Box => Shape::Polygon(Polygon::make_box(rng.range(0.3, 0.7), rng.range(0.3, 0.7)).unwrap()),
        Kind::Gon8 => Shape::Polygon(random_polygon(rng, 0.6, 8, 0.0)),
        Kind::Capsule => {
            let h = rng.range(0.2, 0.5);
            Shape::Capsule(Capsule::new(Vec2::new(-h, 0.0), Vec2::new(h, 0.0), rng.range(0.1, 0.3)).unwrap())
        }
    }
}

struct Pairs {
    a: Vec<Shape>,
    b: Vec<Shape>,
    xa: Vec<Transform>,
    xb: Vec<Transform>,
}

/// 4096 shuffled pairs; the spread is tuned so that about half touch.
fn pairs(ka: Kind, kb: Kind, seed: u64) -> Pairs {
    let mut rng = Rng(seed);
    let mut p = Pairs {
        a: vec![],
        b: vec![],
        xa: vec![],
        xb: vec![],
    };
    let mut spread = 1.2;
    loop {
        p.a.clear();
        p.b.clear();
        p.xa.clear();
        p.xb.clear();
        for _ in 0..N {
            let xa = random_transform(&mut rng, 10.0);
            let xb = Transform::new(xa.p + rng.vec(spread), rng.range(-3.2, 3.2));
            p.a.push(make(&mut rng, ka));
            p.b.push(make(&mut rng, kb));
            p.xa.push(xa);
            p.xb.push(xb);
        }
        let touching = (0..N)
            .filter(|&i| overlaps(&p.a[i], p.xa[i], &p.b[i], p.xb[i]))
            .count();
        if touching * 10 > N * 6 {
            spread *= 1.1;
        } else if touching * 10 < N * 4 {
            spread /= 1.1;
        } else {
            return p;
        }
    }
}

/// The same shapes as arrays of their own type (for the typed per-pair functions).
enum Typed {
    C(Vec<Circle>),
    K(Vec<Capsule>),
    P(Vec<Polygon>),
}

fn typed(v: &[Shape]) -> Typed {
    match v[0] {
        Shape::Circle(_) => Typed::C(
            v.iter()
                .map(|s| {
                    if let Shape::Circle(c) = s {
                        *c
                    } else {
                        unreachable!()
                    }
                })
                .collect(),
        ),
        Shape::Capsule(_) => Typed::K(
            v.iter()
                .map(|s| {
                    if let Shape::Capsule(c) = s {
                        *c
                    } else {
                        unreachable!()
                    }
                })
                .collect(),
        ),
        Shape::Polygon(_) => Typed::P(
            v.iter()
                .map(|s| {
                    if let Shape::Polygon(c) = s {
                        *c
                    } else {
                        unreachable!()
                    }
                })
                .collect(),
        ),
        Shape::ChainSegment(_) => unreachable!("chain segments have their own rows"),
    }
}

fn ppose(x: Transform) -> Pose {
    Pose::new(PV::new(x.p.x, x.p.y), x.q.angle())
}

enum PShape {
    Ball(ps::Ball),
    Cuboid(ps::Cuboid),
    Poly(ps::ConvexPolygon),
    Capsule(ps::Capsule),
}

fn pshape(s: &Shape, k: Kind) -> PShape {
    match s {
        Shape::Circle(c) => PShape::Ball(ps::Ball::new(c.radius)),
        Shape::Capsule(c) => PShape::Capsule(ps::Capsule::new(
            PV::new(c.center1.x, c.center1.y),
            PV::new(c.center2.x, c.center2.y),
            c.radius,
        )),
        Shape::Polygon(p) if k == Kind::Box => {
            let h = p.vertices[2];
            PShape::Cuboid(ps::Cuboid::new(PV::new(h.x, h.y)))
        }
        Shape::Polygon(p) => PShape::Poly(
            ps::ConvexPolygon::from_convex_polyline(p.vertices().iter().map(|v| PV::new(v.x, v.y)).collect())
                .unwrap(),
        ),
        Shape::ChainSegment(_) => unreachable!("chain segments have their own rows"),
    }
}

fn parry_manifold(pos12: &Pose, a: &PShape, b: &PShape, m: &mut ContactManifold<(), ()>) {
    m.clear();
    match (a, b) {
        (PShape::Ball(a), PShape::Ball(b)) => pm::contact_manifold_ball_ball(pos12, a, b, 0.0, m),
        (PShape::Cuboid(a), PShape::Cuboid(b)) => pm::contact_manifold_cuboid_cuboid(pos12, a, b, 0.0, m),
        (PShape::Capsule(a), PShape::Capsule(b)) => pm::contact_manifold_capsule_capsule(pos12, a, b, 0.0, m),
        (PShape::Poly(a), PShape::Poly(b)) => {
            pm::contact_manifold_pfm_pfm(pos12, a, 0.0, None, b, 0.0, None, 0.0, m)
        }
        (PShape::Poly(a), PShape::Capsule(b)) => {
            pm::contact_manifold_pfm_pfm(pos12, a, 0.0, None, &b.segment, b.radius, None, 0.0, m)
        }
        (PShape::Poly(a), PShape::Ball(b)) => {
            pm::contact_manifold_convex_ball(pos12, a, b, None, None, 0.0, m, false)
        }
        (PShape::Cuboid(a), PShape::Ball(b)) => {
            pm::contact_manifold_convex_ball(pos12, a, b, None, None, 0.0, m, false)
        }
        (PShape::Capsule(a), PShape::Ball(b)) => {
            pm::contact_manifold_convex_ball(pos12, a, b, None, None, 0.0, m, false)
        }
        (PShape::Cuboid(a), PShape::Capsule(b)) => {
            pm::contact_manifold_pfm_pfm(pos12, a, 0.0, None, &b.segment, b.radius, None, 0.0, m)
        }
        (PShape::Cuboid(a), PShape::Poly(b)) => {
            pm::contact_manifold_pfm_pfm(pos12, a, 0.0, None, b, 0.0, None, 0.0, m)
        }
        _ => unreachable!("pair not benchmarked"),
    }
}

fn parry_dyn(s: &PShape) -> &dyn ps::Shape {
    match s {
        PShape::Ball(x) => x,
        PShape::Cuboid(x) => x,
        PShape::Poly(x) => x,
        PShape::Capsule(x) => x,
    }
}

fn bench_pair(c: &mut Criterion, name: &str, ka: Kind, kb: Kind, seed: u64) {
    let p = pairs(ka, kb, seed);
    let b2a: Vec<B2Shape> = p.a.iter().map(b2shape).collect();
    let b2b: Vec<B2Shape> = p.b.iter().map(b2shape).collect();
    let pa: Vec<PShape> = p.a.iter().map(|s| pshape(s, ka)).collect();
    let pb: Vec<PShape> = p.b.iter().map(|s| pshape(s, kb)).collect();
    let pxa: Vec<Pose> = p.xa.iter().map(|&x| ppose(x)).collect();
    let pxb: Vec<Pose> = p.xb.iter().map(|&x| ppose(x)).collect();
    let (ta, tb) = (typed(&p.a), typed(&p.b));

    let mut g = c.benchmark_group(format!("manifold/{name}"));
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function(BenchmarkId::new("collide2d", N), |bch| {
        bch.iter(|| {
            let mut n = 0;
            for i in 0..N {
                n += black_box(collide(&p.a[i], p.xa[i], &p.b[i], p.xb[i])).count;
            }
            black_box(n)
        })
    });
    // The typed per-pair function on typed arrays, as the peers' typed calls get.
    g.bench_function(BenchmarkId::new("collide2d-typed", N), |bch| {
        bch.iter(|| {
            let mut n = 0;
            macro_rules! run {
                ($a:expr, $b:expr, $f:path) => {
                    for i in 0..N {
                        n += black_box($f(&$a[i], p.xa[i], &$b[i], p.xb[i], 0.0)).count;
                    }
                };
            }
            match (&ta, &tb) {
                (Typed::C(a), Typed::C(b)) => run!(a, b, collide_circles),
                (Typed::K(a), Typed::C(b)) => run!(a, b, collide_capsule_circle),
                (Typed::K(a), Typed::K(b)) => run!(a, b, collide_capsules),
                (Typed::P(a), Typed::C(b)) => run!(a, b, collide_polygon_circle),
                (Typed::P(a), Typed::K(b)) => run!(a, b, collide_polygon_capsule),
                (Typed::P(a), Typed::P(b)) => run!(a, b, collide_polygons),
                _ => unreachable!("pairs are in canonical order"),
            }
            black_box(n)
        })
    });
    g.bench_function(BenchmarkId::new("box2d", N), |bch| {
        bch.iter(|| {
            let mut n = 0;
            for i in 0..N {
                let rel = b2xf(p.xa[i].inv_mul(p.xb[i]));
                n += black_box(b2collide_local(&b2a[i], &b2b[i], rel).unwrap()).pointCount;
            }
            black_box(n)
        })
    });
    let mut man = ContactManifold::<(), ()>::new();
    g.bench_function(BenchmarkId::new("parry2d", N), |bch| {
        bch.iter(|| {
            let mut n = 0;
            for i in 0..N {
                let pos12 = pxa[i].inv_mul(&pxb[i]);
                parry_manifold(&pos12, &pa[i], &pb[i], &mut man);
                n += man.points.len();
            }
            black_box(n)
        })
    });
    g.finish();

    let mut g = c.benchmark_group(format!("overlap/{name}"));
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function(BenchmarkId::new("collide2d", N), |bch| {
        bch.iter(|| {
            let mut n = 0;
            for i in 0..N {
                n += overlaps(&p.a[i], p.xa[i], &p.b[i], p.xb[i]) as u32;
            }
            black_box(n)
        })
    });
    g.bench_function(BenchmarkId::new("collide2d-typed", N), |bch| {
        bch.iter(|| {
            let mut n = 0;
            macro_rules! run {
                ($a:expr, $b:expr, $f:path) => {
                    for i in 0..N {
                        n += $f(&$a[i], p.xa[i], &$b[i], p.xb[i]) as u32;
                    }
                };
            }
            match (&ta, &tb) {
                (Typed::C(a), Typed::C(b)) => run!(a, b, overlaps_circles),
                (Typed::K(a), Typed::C(b)) => run!(a, b, overlaps_capsule_circle),
                (Typed::K(a), Typed::K(b)) => run!(a, b, overlaps_capsules),
                (Typed::P(a), Typed::C(b)) => run!(a, b, overlaps_polygon_circle),
                (Typed::P(a), Typed::K(b)) => run!(a, b, overlaps_polygon_capsule),
                (Typed::P(a), Typed::P(b)) => run!(a, b, overlaps_polygons),
                _ => unreachable!("pairs are in canonical order"),
            }
            black_box(n)
        })
    });
    g.bench_function(BenchmarkId::new("parry2d", N), |bch| {
        bch.iter(|| {
            let mut n = 0;
            for i in 0..N {
                n += parry2d::query::intersection_test(&pxa[i], parry_dyn(&pa[i]), &pxb[i], parry_dyn(&pb[i]))
                    .unwrap()
                    .intersecting as u32;
            }
            black_box(n)
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    bench_pair(c, "circle-circle", Kind::Circle, Kind::Circle, 1);
    bench_pair(c, "box-box", Kind::Box, Kind::Box, 2);
    bench_pair(c, "8gon-8gon", Kind::Gon8, Kind::Gon8, 3);
    bench_pair(c, "capsule-capsule", Kind::Capsule, Kind::Capsule, 4);
    bench_pair(c, "8gon-capsule", Kind::Gon8, Kind::Capsule, 5);
    bench_pair(c, "8gon-circle", Kind::Gon8, Kind::Circle, 6);
    bench_pair(c, "box-circle", Kind::Box, Kind::Circle, 7);
    bench_pair(c, "box-capsule", Kind::Box, Kind::Capsule, 8);
    bench_pair(c, "box-8gon", Kind::Box, Kind::Gon8, 9);
    bench_pair(c, "capsule-circle", Kind::Capsule, Kind::Circle, 10);
}

criterion_group! {
    name = narrowphase;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1));
    targets = benches
}
criterion_main!(narrowphase);
