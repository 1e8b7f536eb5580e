//! Solver step on Box2D's 20-row pyramid (210 boxes, settled), collide2d's `World` vs
//! Box2D v3 (single-threaded, sleeping off in both), 60 Hz, 4 sub-steps.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use collide2d_peers::*;

const DT: f32 = 1.0 / 60.0;

fn pyramid_step(c: &mut Criterion) {
    let mut g = c.benchmark_group("solver/pyramid20-step");
    g.throughput(Throughput::Elements(1));
    let (mut w, _) = pyramid_world(20);
    // Both engines awake: the row measures the step, not a sleeping world.
    w.set_sleep_enabled(false);
    for _ in 0..120 {
        w.step(DT, 4).unwrap();
    }
    g.bench_function("collide2d", |b| b.iter(|| w.step(DT, 4).unwrap()));
    let (bw, _) = box2d_pyramid(20);
    // SAFETY: valid world id; destroyed once at the end.
    unsafe {
        for _ in 0..120 {
            b2::b2World_Step(bw, DT, 4);
        }
        g.bench_function("box2d", |b| b.iter(|| b2::b2World_Step(bw, DT, 4)));
        b2::b2DestroyWorld(bw);
    }
    g.finish();
}

criterion_group!(benches, pyramid_step);
criterion_main!(benches);
