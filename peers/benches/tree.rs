//! Dynamic AABB tree: collide2d, Box2D v3's b2DynamicTree (boxdd-sys) and parry2d's Bvh on the
//! same 10 000 boxes (random in 1000 × 1000, sizes 1–10), in one run.
//!
//! Rows: insert all; 10 000 AABB queries; 1 000 closest-hit ray casts (leaf test = ray vs the
//! leaf box); moving every proxy by a small step; all overlapping pairs.
use collide2d::*;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::ffi::c_void;
use std::hint::black_box;

use collide2d_peers::*;

use parry2d::bounding_volume::Aabb as PAabb;
use parry2d::partitioning::{Bvh, BvhWorkspace};

const N: usize = 10_000;

fn b2aabb(b: Aabb) -> b2::b2AABB {
    b2::b2AABB {
        lowerBound: b2v(b.min),
        upperBound: b2v(b.max),
    }
}

fn paabb(b: Aabb) -> PAabb {
    PAabb::new(parry_vec(b.min), parry_vec(b.max))
}

unsafe extern "C" fn b2_count(_id: i32, _user: u64, ctx: *mut c_void) -> bool {
    // SAFETY: ctx points at the caller's usize counter for the duration of the query.
    unsafe { *(ctx as *mut usize) += 1 };
    true
}

struct RayCtx {
    boxes: *const Aabb,
    p: Vec2,
    d: Vec2,
    best: f32,
}

/// Entry fraction of the segment into a box (slab test), if any.
fn entry(p: Vec2, d: Vec2, max: f32, b: Aabb) -> Option<f32> {
    let (mut lo, mut hi) = (0.0f32, max);
    for (o, dd, mn, mx) in [(p.x, d.x, b.min.x, b.max.x), (p.y, d.y, b.min.y, b.max.y)] {
        if dd == 0.0 {
            if o < mn || o > mx {
                return None;
            }
        } else {
            let inv = 1.0 / dd;
            let (t1, t2) = ((mn - o) * inv, (mx - o) * inv);
            lo = lo.max(t1.min(t2));
            hi = hi.min(t1.max(t2));
        }
    }
    (lo <= hi).then_some(lo)
}

unsafe extern "C" fn b2_ray(input: *const b2::b2RayCastInput, _id: i32, user: u64, ctx: *mut c_void) -> f32 {
    // SAFETY: ctx is the caller's RayCtx and input is Box2D's live input for this callback.
    let (c, input) = unsafe { (&mut *(ctx as *mut RayCtx), &*input) };
    // SAFETY: user data is an index into the live boxes array.
    let b = unsafe { *c.boxes.add(user as usize) };
    match entry(c.p, c.d, input.maxFraction, b) {
        Some(t) => {
            c.best = c.best.min(t);
            t
        }
        None => -1.0,
    }
}

fn tree_benches(c: &mut Criterion) {
    let mut rng = Rng(2025);
    let bx = random_boxes(&mut rng, N);
    let queries = random_boxes(&mut rng, N);
    let rays: Vec<(Vec2, Vec2)> = (0..1000)
        .map(|_| {
            let p = Vec2::new(rng.range(0.0, 1000.0), rng.range(0.0, 1000.0));
            (p, rng.vec(100.0))
        })
        .collect();
    let steps: Vec<Vec2> = (0..N).map(|_| rng.vec(0.05)).collect();
    let build_ours = || {
        let mut t = DynamicTree::with_capacity(2 * N);
        let ids: Vec<ProxyId> = bx
            .iter()
            .enumerate()
            .map(|(i, b)| t.create_proxy(*b, 1, i as u64).unwrap())
            .collect();
        (t, ids)
    };

    // Prebuilt trees for the query rows.
    let mut ours = DynamicTree::with_capacity(2 * N);
    for (i, b) in bx.iter().enumerate() {
        ours.create_proxy(*b, 1, i as u64).unwrap();
    }
    // SAFETY: Box2D tree used only through its API below and destroyed at the end.
    let mut b2tree = unsafe { b2::b2DynamicTree_Create(2 * N as i32) };
    for (i, b) in bx.iter().enumerate() {
        // SAFETY: live tree.
        unsafe {
            b2::b2DynamicTree_CreateProxy(&mut b2tree, b2aabb(b.inflated(DEFAULT_AABB_MARGIN)), 1, i as u64)
        };
    }
    let mut pbvh = Bvh::new();
    for (i, b) in bx.iter().enumerate() {
        pbvh.insert(paabb(b.inflated(DEFAULT_AABB_MARGIN)), i as u32);
    }

    let mut g = c.benchmark_group("tree/insert-10k");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("collide2d", |bch| {
        bch.iter(|| {
            let mut t = DynamicTree::with_capacity(2 * N);
            for (i, b) in bx.iter().enumerate() {
                t.create_proxy(*b, 1, i as u64).unwrap();
            }
            black_box(t.height())
        })
    });
    g.bench_function("box2d", |bch| {
        bch.iter(|| {
            // SAFETY: create, fill and destroy within the iteration.
            unsafe {
                let mut t = b2::b2DynamicTree_Create(2 * N as i32);
                for (i, b) in bx.iter().enumerate() {
                    b2::b2DynamicTree_CreateProxy(
                        &mut t,
                        b2aabb(b.inflated(DEFAULT_AABB_MARGIN)),
                        1,
                        i as u64,
                    );
                }
                b2::b2DynamicTree_Destroy(&mut t);
            }
        })
    });
    g.bench_function("parry2d", |bch| {
        bch.iter(|| {
            let mut t = Bvh::new();
            for (i, b) in bx.iter().enumerate() {
                t.insert(paabb(b.inflated(DEFAULT_AABB_MARGIN)), i as u32);
            }
            black_box(t.leaf_count())
        })
    });
    g.finish();

    let mut g = c.benchmark_group("tree/query-10k");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("collide2d", |bch| {
        bch.iter(|| {
            let mut n = 0usize;
            for q in &queries {
                ours.query(*q, u64::MAX, |_, _| {
                    n += 1;
                    Visit::Continue
                });
            }
            black_box(n)
        })
    });
    g.bench_function("collide2d-iter", |bch| {
        bch.iter(|| {
            let mut n = 0usize;
            for q in &queries {
                n += ours.query_iter(*q, u64::MAX).count();
            }
            black_box(n)
        })
    });
    g.bench_function("box2d", |bch| {
        bch.iter(|| {
            let mut n = 0usize;
            for q in &queries {
                // SAFETY: live tree; the context is the live counter.
                unsafe {
                    b2::b2DynamicTree_Query(
                        &b2tree,
                        b2aabb(*q),
                        u64::MAX,
                        Some(b2_count),
                        &mut n as *mut usize as *mut c_void,
                    )
                };
            }
            black_box(n)
        })
    });
    g.bench_function("parry2d", |bch| {
        bch.iter(|| {
            let mut n = 0usize;
            for q in &queries {
                let pq = paabb(*q);
                n += pbvh.intersect_aabb(&pq).count();
            }
            black_box(n)
        })
    });
    g.finish();

    let fat: Vec<Aabb> = bx.iter().map(|b| b.inflated(DEFAULT_AABB_MARGIN)).collect();
    let mut g = c.benchmark_group("tree/ray-closest-1k");
    g.throughput(Throughput::Elements(1000));
    g.bench_function("collide2d", |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            for &(p, d) in &rays {
                let mut best = f32::INFINITY;
                ours.ray_cast(&Ray::new(p, d), u64::MAX, |r, _, user| {
                    match entry(p, d, r.max_fraction, fat[user as usize]) {
                        Some(t) => {
                            best = best.min(t);
                            Visit::Clip(t)
                        }
                        None => Visit::Continue,
                    }
                });
                s += best.min(1.0);
            }
            black_box(s)
        })
    });
    g.bench_function("box2d", |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            for &(p, d) in &rays {
                let input = b2::b2RayCastInput {
                    origin: b2v(p),
                    translation: b2v(d),
                    maxFraction: 1.0,
                };
                let mut ctx = RayCtx {
                    boxes: fat.as_ptr(),
                    p,
                    d,
                    best: f32::INFINITY,
                };
                // SAFETY: live tree, input and context.
                unsafe {
                    b2::b2DynamicTree_RayCast(
                        &b2tree,
                        &input,
                        u64::MAX,
                        Some(b2_ray),
                        &mut ctx as *mut RayCtx as *mut c_void,
                    )
                };
                s += ctx.best.min(1.0);
            }
            black_box(s)
        })
    });
    g.bench_function("parry2d", |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            for &(p, d) in &rays {
                let ray = parry2d::query::Ray::new(parry_vec(p), parry_vec(d));
                if let Some((_, t)) =
                    pbvh.cast_ray(&ray, 1.0, |leaf, best| entry(p, d, best, fat[leaf as usize]))
                {
                    s += t;
                } else {
                    s += 1.0;
                }
            }
            black_box(s)
        })
    });
    g.finish();

    // Move every proxy by a small step (each library's intended update path).
    let moved: Vec<Aabb> = bx
        .iter()
        .zip(&steps)
        .map(|(b, s)| Aabb::new(b.min + *s, b.max + *s))
        .collect();
    let mut g = c.benchmark_group("tree/move-all-10k");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("collide2d-move", |bch| {
        bch.iter_batched_ref(
            build_ours,
            |(t, ids)| {
                let mut n = 0;
                for (id, b) in ids.iter().zip(&moved) {
                    n += t.move_proxy(*id, *b).unwrap() as u32;
                }
                black_box(n)
            },
            criterion::BatchSize::LargeInput,
        )
    });
    g.bench_function("collide2d-enlarge-rebuild", |bch| {
        bch.iter_batched_ref(
            build_ours,
            |(t, ids)| {
                for (id, b) in ids.iter().zip(&moved) {
                    t.enlarge_proxy(*id, *b).unwrap();
                }
                t.rebuild();
                black_box(t.height())
            },
            criterion::BatchSize::LargeInput,
        )
    });
    g.bench_function("box2d-enlarge-rebuild", |bch| {
        bch.iter_batched_ref(
            || {
                // SAFETY: tree created here, destroyed by the Drop guard below.
                let mut t = unsafe { b2::b2DynamicTree_Create(2 * N as i32) };
                let mut ids = Vec::with_capacity(N);
                for (i, b) in bx.iter().enumerate() {
                    // SAFETY: live tree.
                    ids.push(unsafe {
                        b2::b2DynamicTree_CreateProxy(
                            &mut t,
                            b2aabb(b.inflated(DEFAULT_AABB_MARGIN)),
                            1,
                            i as u64,
                        )
                    });
                }
                B2Tree(t, ids)
            },
            |t| {
                for (i, b) in moved.iter().enumerate() {
                    // Box2D's broad phase enlarges only when the box escapes the fat box.
                    if !fat[i].contains(*b) {
                        // SAFETY: live tree and proxy.
                        unsafe {
                            b2::b2DynamicTree_EnlargeProxy(
                                &mut t.0,
                                t.1[i],
                                b2aabb(b.inflated(DEFAULT_AABB_MARGIN)),
                            )
                        };
                    }
                }
                // SAFETY: live tree.
                black_box(unsafe { b2::b2DynamicTree_Rebuild(&mut t.0, false) })
            },
            criterion::BatchSize::LargeInput,
        )
    });
    g.bench_function("parry2d-update-refit", |bch| {
        let mut ws = BvhWorkspace::default();
        bch.iter_batched_ref(
            || pbvh.clone(),
            |t| {
                for (i, b) in moved.iter().enumerate() {
                    t.insert_or_update_partially(
                        paabb(b.inflated(DEFAULT_AABB_MARGIN)),
                        i as u32,
                        DEFAULT_AABB_MARGIN,
                    );
                }
                t.refit(&mut ws);
                black_box(t.leaf_count())
            },
            criterion::BatchSize::LargeInput,
        )
    });
    g.finish();

    // All overlapping pairs (every proxy counts as moved: the first frame of a scene).
    let mut g = c.benchmark_group("tree/pairs-all-10k");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("collide2d", |bch| {
        bch.iter_batched_ref(
            build_ours,
            |(t, _)| {
                let mut n = 0usize;
                t.query_pairs(|_, _, _, _| n += 1);
                black_box(n)
            },
            criterion::BatchSize::LargeInput,
        )
    });
    g.bench_function("box2d-query-each", |bch| {
        bch.iter(|| {
            // Box2D's broad phase: query each moved proxy's fat box (pairs counted twice).
            let mut n = 0usize;
            for b in &fat {
                // SAFETY: live tree and counter.
                unsafe {
                    b2::b2DynamicTree_Query(
                        &b2tree,
                        b2aabb(*b),
                        u64::MAX,
                        Some(b2_count),
                        &mut n as *mut usize as *mut c_void,
                    )
                };
            }
            black_box(n)
        })
    });
    g.bench_function("parry2d-leaf-pairs", |bch| {
        bch.iter(|| {
            let n = pbvh.leaf_pairs(&pbvh, |a, b| a.intersects(b)).count();
            black_box(n)
        })
    });
    g.finish();

    // SAFETY: destroy the prebuilt Box2D tree once.
    unsafe { b2::b2DynamicTree_Destroy(&mut b2tree) };
}

struct B2Tree(b2::b2DynamicTree, Vec<i32>);
impl Drop for B2Tree {
    fn drop(&mut self) {
        // SAFETY: the tree was created by b2DynamicTree_Create and is destroyed once.
        unsafe { b2::b2DynamicTree_Destroy(&mut self.0) };
    }
}

criterion_group! {
    name = tree;
    config = Criterion::default().sample_size(10).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(2));
    targets = tree_benches
}
criterion_main!(tree);
