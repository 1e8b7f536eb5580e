//! Distance, ray casts, shape casts and time of impact: collide2d, Box2D v3 (boxdd-sys) and
//! parry2d side by side on the same 4096 pre-generated inputs per row, in one run.
//! Time per query = reported time / 4096.
//!
//! Every library's whole result goes through `black_box` (the fields a row does not sum must
//! still be computed), and every library starts from the same world poses: Box2D's functions
//! take B's pose in A's frame, computed inside the timed loop. Box2D's outputs stay in its
//! local frames (its API's form); ours are in world space.
use collide2d::*;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

use collide2d_peers::*;

const N: usize = 4096;

fn gon8(rng: &mut Rng) -> Shape {
    Shape::Polygon(random_polygon(rng, 0.6, 8, 0.0))
}

fn distance_bench(c: &mut Criterion) {
    let mut rng = Rng(11);
    let a: Vec<Shape> = (0..N).map(|_| gon8(&mut rng)).collect();
    let b: Vec<Shape> = (0..N).map(|_| gon8(&mut rng)).collect();
    let xa: Vec<Transform> = (0..N).map(|_| random_transform(&mut rng, 10.0)).collect();
    let xb: Vec<Transform> = (0..N)
        .map(|i| Transform::new(xa[i].p + rng.vec(3.0), rng.range(-3.2, 3.2)))
        .collect();
    let b2in: Vec<b2::b2DistanceInput> = (0..N)
        .map(|i| b2::b2DistanceInput {
            proxyA: b2proxy(&ShapeProxy::from_shape(&a[i])),
            proxyB: b2proxy(&ShapeProxy::from_shape(&b[i])),
            transform: b2xf(xa[i].inv_mul(xb[i])),
            useRadii: true,
        })
        .collect();
    let pa: Vec<_> = a.iter().map(parry_shape).collect();
    let pb: Vec<_> = b.iter().map(parry_shape).collect();
    let pxa: Vec<_> = xa.iter().map(|&x| parry_pose(x)).collect();
    let pxb: Vec<_> = xb.iter().map(|&x| parry_pose(x)).collect();

    let mut g = c.benchmark_group("distance/8gon-8gon");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function(BenchmarkId::new("collide2d", N), |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            for i in 0..N {
                s += black_box(shape_distance(
                    &a[i],
                    xa[i],
                    &b[i],
                    xb[i],
                    &mut SimplexCache::default(),
                ))
                .distance;
            }
            black_box(s)
        })
    });
    // Same inputs as Box2D gets: proxies built once (the relative transform is still computed
    // per call here, Box2D's is precomputed).
    let proxa: Vec<ShapeProxy> = a.iter().map(ShapeProxy::from_shape).collect();
    let proxb: Vec<ShapeProxy> = b.iter().map(ShapeProxy::from_shape).collect();
    g.bench_function(BenchmarkId::new("collide2d-proxies", N), |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            for i in 0..N {
                s += black_box(proxy_distance(
                    &proxa[i],
                    xa[i],
                    &proxb[i],
                    xb[i],
                    &mut SimplexCache::default(),
                ))
                .distance;
            }
            black_box(s)
        })
    });
    // Box2D takes B's pose relative to A: computed per call from the world poses, as its
    // manifold rows do (its results stay in A's frame, not converted to world space).
    let mut b2in = b2in;
    g.bench_function(BenchmarkId::new("box2d", N), |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            for (i, inp) in b2in.iter_mut().enumerate() {
                inp.transform = b2xf(xa[i].inv_mul(xb[i]));
                let mut cache = b2::b2SimplexCache {
                    count: 0,
                    indexA: [0; 3],
                    indexB: [0; 3],
                };
                // SAFETY: live locals; a null simplex buffer with capacity 0 is allowed.
                s += black_box(unsafe { b2::b2ShapeDistance(inp, &mut cache, core::ptr::null_mut(), 0) })
                    .distance;
            }
            black_box(s)
        })
    });
    g.bench_function(BenchmarkId::new("parry2d", N), |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            for i in 0..N {
                s += black_box(
                    parry2d::query::distance(&pxa[i], pa[i].as_ref(), &pxb[i], pb[i].as_ref()).unwrap(),
                )
                .distance;
            }
            black_box(s)
        })
    });
    g.finish();
}

fn ray_bench(c: &mut Criterion) {
    for (name, kind) in [("circle", 0usize), ("capsule", 1), ("box", 4), ("8gon", 2)] {
        let mut rng = Rng(20 + kind as u64);
        let shapes: Vec<Shape> = (0..N)
            .map(|_| {
                if kind == 2 {
                    gon8(&mut rng)
                } else {
                    random_shape(&mut rng, kind, 1.0)
                }
            })
            .collect();
        let xf: Vec<Transform> = (0..N).map(|_| random_transform(&mut rng, 10.0)).collect();
        let rays: Vec<Ray> = (0..N)
            .map(|i| {
                let o = xf[i].p + rng.vec(3.0);
                Ray::new(o, (xf[i].p + rng.vec(1.5) - o) * 2.0)
            })
            .collect();
        let b2s: Vec<B2Shape> = shapes.iter().map(b2shape).collect();
        let ps: Vec<_> = shapes.iter().map(parry_shape).collect();
        let pxf: Vec<_> = xf.iter().map(|&x| parry_pose(x)).collect();
        let prays: Vec<_> = rays
            .iter()
            .map(|r| parry2d::query::Ray::new(parry_vec(r.origin), parry_vec(r.translation)))
            .collect();

        let mut g = c.benchmark_group(format!("ray/{name}"));
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function(BenchmarkId::new("collide2d", N), |bch| {
            bch.iter(|| {
                let mut n = 0.0;
                for i in 0..N {
                    if let Some(h) = black_box(ray_cast(&shapes[i], xf[i], &rays[i])) {
                        n += h.fraction;
                    }
                }
                black_box(n)
            })
        });
        g.bench_function(BenchmarkId::new("box2d", N), |bch| {
            bch.iter(|| {
                let mut n = 0.0;
                for i in 0..N {
                    // Box2D takes the ray in the shape's local frame; the caller transforms it.
                    let inp = b2::b2RayCastInput {
                        origin: b2v(xf[i].inv_apply(rays[i].origin)),
                        translation: b2v(xf[i].q.inv_rotate(rays[i].translation)),
                        maxFraction: 1.0,
                    };
                    // SAFETY: live locals.
                    let out = black_box(unsafe {
                        match &b2s[i] {
                            B2Shape::Circle(s) => b2::b2RayCastCircle(s, &inp),
                            B2Shape::Capsule(s) => b2::b2RayCastCapsule(s, &inp),
                            B2Shape::Polygon(s) => b2::b2RayCastPolygon(s, &inp),
                            B2Shape::ChainSegment(s) => b2::b2RayCastSegment(&s.segment, &inp, true),
                        }
                    });
                    if out.hit {
                        n += out.fraction;
                    }
                }
                black_box(n)
            })
        });
        g.bench_function(BenchmarkId::new("parry2d", N), |bch| {
            bch.iter(|| {
                let mut n = 0.0;
                for i in 0..N {
                    if let Some(h) = black_box(ps[i].cast_ray_and_get_normal(&pxf[i], &prays[i], 1.0, true)) {
                        n += h.time_of_impact;
                    }
                }
                black_box(n)
            })
        });
        g.finish();
    }
}

fn cast_bench(c: &mut Criterion) {
    let mut rng = Rng(40);
    let a: Vec<Shape> = (0..N).map(|_| gon8(&mut rng)).collect();
    let b: Vec<Shape> = (0..N).map(|_| gon8(&mut rng)).collect();
    let xa: Vec<Transform> = (0..N).map(|_| random_transform(&mut rng, 10.0)).collect();
    let xb: Vec<Transform> = (0..N)
        .map(|i| Transform::new(xa[i].p + rng.vec(5.0), rng.range(-3.2, 3.2)))
        .collect();
    let tb: Vec<Vec2> = (0..N)
        .map(|i| (xa[i].p - xb[i].p) * rng.range(0.5, 2.0) + rng.vec(1.0))
        .collect();
    let b2in: Vec<b2::b2ShapeCastPairInput> = (0..N)
        .map(|i| b2::b2ShapeCastPairInput {
            proxyA: b2proxy(&ShapeProxy::from_shape(&a[i])),
            proxyB: b2proxy(&ShapeProxy::from_shape(&b[i])),
            transform: b2xf(xa[i].inv_mul(xb[i])),
            translationB: b2v(xa[i].q.inv_rotate(tb[i])),
            maxFraction: 1.0,
            canEncroach: false,
        })
        .collect();
    let pa: Vec<_> = a.iter().map(parry_shape).collect();
    let pb: Vec<_> = b.iter().map(parry_shape).collect();
    let pxa: Vec<_> = xa.iter().map(|&x| parry_pose(x)).collect();
    let pxb: Vec<_> = xb.iter().map(|&x| parry_pose(x)).collect();

    let mut g = c.benchmark_group("shape-cast/8gon-8gon");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function(BenchmarkId::new("collide2d", N), |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            for i in 0..N {
                s += black_box(shape_cast(&a[i], xa[i], Vec2::ZERO, &b[i], xb[i], tb[i], 0.0)).fraction;
            }
            black_box(s)
        })
    });
    // B's pose and translation in A's frame, computed per call from the world inputs (as the
    // distance row); the hit stays in A's frame.
    let mut b2in = b2in;
    g.bench_function(BenchmarkId::new("box2d", N), |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            for (i, inp) in b2in.iter_mut().enumerate() {
                inp.transform = b2xf(xa[i].inv_mul(xb[i]));
                inp.translationB = b2v(xa[i].q.inv_rotate(tb[i]));
                // SAFETY: live local.
                s += black_box(unsafe { b2::b2ShapeCast(inp) }).fraction;
            }
            black_box(s)
        })
    });
    g.bench_function(BenchmarkId::new("parry2d", N), |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            let opts = parry2d::query::ShapeCastOptions::with_max_time_of_impact(1.0);
            for i in 0..N {
                let v = parry_vec(tb[i]);
                if let Some(h) = black_box(
                    parry2d::query::cast_shapes(
                        &pxa[i],
                        parry_vec(Vec2::ZERO),
                        pa[i].as_ref(),
                        &pxb[i],
                        v,
                        pb[i].as_ref(),
                        opts,
                    )
                    .unwrap(),
                ) {
                    s += h.time_of_impact;
                }
            }
            black_box(s)
        })
    });
    g.finish();

    // Time of impact with rotation: collide2d and Box2D (parry's nonlinear cast is a different
    // motion model, so it is not compared).
    let sa: Vec<Sweep> = (0..N)
        .map(|i| {
            Sweep::from_transforms(
                a[i].mass(1.0).center,
                xa[i],
                Transform::new(xa[i].p, xa[i].q.angle() + 0.3),
            )
        })
        .collect();
    let sb: Vec<Sweep> = (0..N)
        .map(|i| {
            Sweep::from_transforms(
                b[i].mass(1.0).center,
                xb[i],
                Transform::new(xb[i].p + tb[i], xb[i].q.angle() - 0.4),
            )
        })
        .collect();
    let b2toi_in: Vec<b2::b2TOIInput> = (0..N)
        .map(|i| b2::b2TOIInput {
            proxyA: b2proxy(&ShapeProxy::from_shape(&a[i])),
            proxyB: b2proxy(&ShapeProxy::from_shape(&b[i])),
            sweepA: b2sweep(&sa[i]),
            sweepB: b2sweep(&sb[i]),
            maxFraction: 1.0,
        })
        .collect();
    let mut g = c.benchmark_group("toi/8gon-8gon");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function(BenchmarkId::new("collide2d", N), |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            for i in 0..N {
                s += black_box(time_of_impact(&a[i], &sa[i], &b[i], &sb[i], 1.0)).fraction;
            }
            black_box(s)
        })
    });
    g.bench_function(BenchmarkId::new("box2d", N), |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            for inp in &b2toi_in {
                // SAFETY: live local.
                s += black_box(unsafe { b2::b2TimeOfImpact(inp) }).fraction;
            }
            black_box(s)
        })
    });
    g.finish();
}

criterion_group! {
    name = queries;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1));
    targets = distance_bench, ray_bench, cast_bench
}
criterion_main!(queries);
