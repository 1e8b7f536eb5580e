//! Level geometry: chain-segment manifolds (collide2d and Box2D v3 on the same 4096 pairs per
//! row, about half touching), the outline of a 256 × 256 random tile map, and the decomposition
//! of a 64-vertex star polygon (collide2d and parry2d's ear clipping + Hertel–Mehlhorn).
//! Rows go to the "Level geometry" section of BENCHMARKS.md (`scripts/bench.sh`).
use collide2d::*;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

use collide2d_peers::*;

const N: usize = 4096;

/// A chain segment with random ghost turns and a shape of `kind` near its front side.
fn pair(rng: &mut Rng, kind: usize) -> (ChainSegment, Shape, Transform, Transform) {
    let dir = Rot::from_angle(rng.range(-3.2, 3.2));
    let p1 = rng.vec(2.0);
    let p2 = p1 + dir.x_axis() * rng.range(1.0, 3.0);
    let t0 = rng.range(-1.0, 1.0);
    let t2 = rng.range(-1.0, 1.0);
    let g1 = p1 - Rot::from_angle(-t0).rotate(dir.x_axis());
    let g2 = p2 + Rot::from_angle(t2).rotate(dir.x_axis());
    let seg = ChainSegment::new(g1, p1, p2, g2).unwrap();
    let shape = match kind {
        0 => Shape::Circle(Circle::new(Vec2::ZERO, rng.range(0.3, 0.6)).unwrap()),
        1 => Shape::Capsule(Capsule::new(v(-0.3, 0.0), v(0.3, 0.0), rng.range(0.1, 0.3)).unwrap()),
        _ => {
            let n = 3 + rng.index(6);
            Shape::Polygon(random_polygon(rng, 0.8, n, 0.0))
        }
    };
    let base = p1.lerp(p2, rng.range(-0.1, 1.1));
    let xb = Transform::new(base + seg.normal() * rng.range(-0.3, 0.6), rng.range(-3.2, 3.2));
    let xa = Transform::new(rng.vec(10.0), rng.range(-3.2, 3.2));
    (seg, shape, xa, xa * xb)
}

fn chain_manifolds(c: &mut Criterion) {
    for (kind, name) in [(0, "circle"), (1, "capsule"), (2, "polygon")] {
        let mut rng = Rng(0x1E7E1 + kind as u64);
        let pairs: Vec<_> = (0..N).map(|_| pair(&mut rng, kind)).collect();
        let touching = pairs
            .iter()
            .filter(|(s, b, xa, xb)| overlaps(&Shape::ChainSegment(*s), *xa, b, *xb))
            .count();
        eprintln!("chain-segment-{name}: {touching} of {N} touching");
        let b2segs: Vec<_> = pairs.iter().map(|p| b2chain_segment(&p.0)).collect();
        let b2shapes: Vec<_> = pairs.iter().map(|p| b2shape(&p.1)).collect();
        let mut g = c.benchmark_group(format!("level/chain-manifold-{name}"));
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function(BenchmarkId::new("collide2d", N), |bch| {
            bch.iter(|| {
                for (s, b, xa, xb) in &pairs {
                    let m = match b {
                        Shape::Circle(b) => collide_chain_segment_circle(s, *xa, b, *xb, 0.02),
                        Shape::Capsule(b) => collide_chain_segment_capsule(s, *xa, b, *xb, 0.02),
                        Shape::Polygon(b) => collide_chain_segment_polygon(s, *xa, b, *xb, 0.02),
                        Shape::ChainSegment(_) => unreachable!(),
                    };
                    black_box(m);
                }
            })
        });
        g.bench_function(BenchmarkId::new("box2d", N), |bch| {
            bch.iter(|| {
                for (i, (_, _, xa, xb)) in pairs.iter().enumerate() {
                    let rel = b2xf(xa.inv_mul(*xb));
                    let mut cache: b2::b2SimplexCache = unsafe { std::mem::zeroed() };
                    // SAFETY: every pointer refers to a live local or element.
                    let m = unsafe {
                        match &b2shapes[i] {
                            B2Shape::Circle(b) => b2::b2CollideChainSegmentAndCircle(&b2segs[i], b, rel),
                            B2Shape::Capsule(b) => {
                                b2::b2CollideChainSegmentAndCapsule(&b2segs[i], b, rel, &mut cache)
                            }
                            B2Shape::Polygon(b) => {
                                b2::b2CollideChainSegmentAndPolygon(&b2segs[i], b, rel, &mut cache)
                            }
                            B2Shape::ChainSegment(_) => unreachable!(),
                        }
                    };
                    black_box(m);
                }
            })
        });
        g.finish();
    }
}

fn tile_map(c: &mut Criterion) {
    let mut rng = Rng(0x7113);
    let cells: Vec<bool> = (0..256 * 256).map(|_| rng.range(0.0, 1.0) < 0.5).collect();
    let mut g = c.benchmark_group("level/tile-outline-256x256");
    g.throughput(Throughput::Elements(1));
    g.bench_function(BenchmarkId::new("collide2d", 1), |bch| {
        bch.iter(|| black_box(tile_outlines_from_cells(256, 256, &cells, 1.0, Vec2::ZERO).unwrap()))
    });
    g.finish();
}

fn decomposition(c: &mut Criterion) {
    let mut rng = Rng(0xDEC);
    let mut angles: Vec<f32> = (0..64)
        .map(|i| (i as f32 + rng.range(0.1, 0.9)) / 64.0 * std::f32::consts::TAU)
        .collect();
    angles.sort_by(f32::total_cmp);
    let poly: Vec<Vec2> = angles
        .iter()
        .map(|a| Rot::from_angle(*a).x_axis() * rng.range(0.3, 1.0))
        .collect();
    let pv: Vec<parry2d::math::Vector> = poly
        .iter()
        .map(|p| parry2d::math::Vector::new(p.x, p.y))
        .collect();
    eprintln!(
        "decompose 64-gon: collide2d {} pieces (<= 8 vertices), parry2d {} pieces",
        decompose(&poly).unwrap().len(),
        {
            let m = parry2d::shape::TriMesh::from_polygon(pv.clone()).unwrap();
            parry2d::transformation::hertel_mehlhorn(m.vertices(), m.indices()).len()
        }
    );
    let mut g = c.benchmark_group("level/decompose-64gon");
    g.throughput(Throughput::Elements(1));
    g.bench_function(BenchmarkId::new("collide2d", 1), |bch| {
        bch.iter(|| black_box(decompose(&poly).unwrap()))
    });
    g.bench_function(BenchmarkId::new("parry2d", 1), |bch| {
        bch.iter(|| {
            let m = parry2d::shape::TriMesh::from_polygon(pv.clone()).unwrap();
            black_box(parry2d::transformation::hertel_mehlhorn(
                m.vertices(),
                m.indices(),
            ))
        })
    });
    g.finish();
}

criterion_group! {
    name = level;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = chain_manifolds, tile_map, decomposition
}
criterion_main!(level);
