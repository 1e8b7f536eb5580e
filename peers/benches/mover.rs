//! Character movement: `closest_point` per shape kind (collide2d, Box2D's
//! `b2Shape_GetClosestPoint` computation — `b2ShapeDistance` from the shape to a one-point
//! proxy — and parry2d's `project_point`, on the same 4096 points per row), and one
//! `move_and_slide` of a capsule through a 64-box neighbourhood against Box2D's mover loop
//! (`b2World_CollideMover`, `b2SolvePlanes`, `b2World_CastMover`, 5 iterations) on the same
//! world and the same 256 moves. Rows go to the "Character movement" section of
//! BENCHMARKS.md (`scripts/bench.sh --mover`).
use collide2d::*;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

use collide2d_peers::*;

const N: usize = 4096;

fn closest_points(c: &mut Criterion) {
    for (kind, name) in [
        (0usize, "circle"),
        (2, "capsule"),
        (3, "polygon"),
        (4, "rounded-polygon"),
    ] {
        let mut rng = Rng(0xC105E + kind as u64);
        let cases: Vec<(Shape, Transform, Vec2)> = (0..N)
            .map(|_| {
                let s = match kind {
                    0 => Shape::Circle(random_circle(&mut rng, 1.0)),
                    2 => Shape::Capsule(random_capsule(&mut rng, 1.0, true)),
                    3 => {
                        let n = 3 + rng.index(6);
                        Shape::Polygon(random_polygon(&mut rng, 1.0, n, 0.0))
                    }
                    _ => {
                        let n = 3 + rng.index(6);
                        Shape::Polygon(random_polygon(&mut rng, 1.0, n, 0.1))
                    }
                };
                let xf = random_transform(&mut rng, 5.0);
                let p = xf.p + rng.vec(2.0);
                (s, xf, p)
            })
            .collect();
        let b2: Vec<(b2::b2ShapeProxy, Transform, Vec2)> = cases
            .iter()
            .map(|(s, xf, p)| (b2proxy(&ShapeProxy::from_shape(s)), *xf, *p))
            .collect();
        let parry: Vec<_> = cases
            .iter()
            .map(|(s, xf, p)| (parry_shape(s), parry_pose(*xf), parry_vec(*p)))
            .collect();
        let mut g = c.benchmark_group(format!("mover/closest-point-{name}"));
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function(BenchmarkId::new("collide2d", N), |bch| {
            bch.iter(|| {
                for (s, xf, p) in &cases {
                    black_box(closest_point(s, *xf, *p));
                }
            })
        });
        g.bench_function(BenchmarkId::new("box2d", N), |bch| {
            bch.iter(|| {
                for (proxy, xf, p) in &b2 {
                    // Box2D's b2Shape_GetClosestPoint: the point into the shape's frame (its
                    // inline b2InvTransformPoint, here in Rust), b2ShapeDistance to a one-point
                    // proxy, the closest point back to world.
                    let local = b2v(xf.inv_apply(*p));
                    // SAFETY: plain Box2D C calls on locals.
                    unsafe {
                        let input = b2::b2DistanceInput {
                            proxyA: *proxy,
                            proxyB: b2::b2MakeProxy(&local, 1, 0.0),
                            transform: b2::b2Transform {
                                p: b2::b2Vec2 { x: 0.0, y: 0.0 },
                                q: b2::b2Rot { c: 1.0, s: 0.0 },
                            },
                            useRadii: true,
                        };
                        let mut cache = std::mem::zeroed::<b2::b2SimplexCache>();
                        let out = b2::b2ShapeDistance(&input, &mut cache, std::ptr::null_mut(), 0);
                        black_box((xf.apply(v(out.pointA.x, out.pointA.y)), out.distance));
                    }
                }
            })
        });
        g.bench_function(BenchmarkId::new("parry2d", N), |bch| {
            bch.iter(|| {
                for (s, pose, p) in &parry {
                    black_box(s.project_point(pose, *p, false));
                }
            })
        });
        g.finish();
    }
}

/// 64 boxes in a 16 × 8 neighbourhood above a floor, and 256 capsule moves (starts clear of
/// everything, 0.1–0.5 long, any direction).
/// A level and the moves through it: (start, translation).
type Neighbourhood = (Vec<(Shape, Transform)>, Vec<(Vec2, Vec2)>);

fn neighbourhood() -> Neighbourhood {
    let mut rng = Rng(0x64B0);
    let mut level = vec![(
        Shape::Polygon(Polygon::make_box(10.0, 0.5).unwrap()),
        Transform::from_translation(v(0.0, -0.5)),
    )];
    while level.len() < 65 {
        let s = Shape::Polygon(Polygon::make_box(rng.range(0.2, 0.6), rng.range(0.2, 0.6)).unwrap());
        level.push((
            s,
            Transform::new(v(rng.range(-8.0, 8.0), rng.range(0.5, 8.0)), rng.range(-0.5, 0.5)),
        ));
    }
    let capsule = Shape::Capsule(Capsule::new(v(0.0, -0.2), v(0.0, 0.2), 0.3).unwrap());
    let mut moves = Vec::new();
    while moves.len() < 256 {
        let p = v(rng.range(-8.0, 8.0), rng.range(0.6, 8.0));
        let clear = level
            .iter()
            .all(|(s, xf)| surface_distance(s, *xf, &capsule, Transform::from_translation(p)) > 0.05);
        if clear {
            moves.push((
                p,
                Rot::from_angle(rng.range(-3.2, 3.2)).x_axis() * rng.range(0.1, 0.5),
            ));
        }
    }
    (level, moves)
}

fn move_and_slide_rows(c: &mut Criterion) {
    let (level, moves) = neighbourhood();
    let capsule = Capsule::new(v(0.0, -0.2), v(0.0, 0.2), 0.3).unwrap();
    let mover = Shape::Capsule(capsule);
    let mut world = World::default();
    for (s, xf) in &level {
        world.add_body(&BodyDef::new(BodyKind::Static, *xf, *s)).unwrap();
    }
    // SAFETY: plain Box2D C calls building a static world.
    let b2world = unsafe {
        let mut wd = b2::b2DefaultWorldDef();
        wd.workerCount = 1;
        let w = b2::b2CreateWorld(&wd);
        for (s, xf) in &level {
            let mut bd = b2::b2DefaultBodyDef();
            let x = b2xf(*xf);
            bd.position = x.p;
            bd.rotation = x.q;
            let body = b2::b2CreateBody(w, &bd);
            let Shape::Polygon(p) = s else { unreachable!() };
            b2::b2CreatePolygonShape(body, &b2::b2DefaultShapeDef(), &b2polygon(p));
        }
        w
    };
    let top_down = MoveOptions {
        up: Vec2::ZERO,
        ..MoveOptions::default()
    };
    let platformer = MoveOptions::default();
    let mut g = c.benchmark_group("mover/move-and-slide-capsule-64-boxes");
    g.throughput(Throughput::Elements(moves.len() as u64));
    let filter = QueryFilter::ALL;
    let lvl = world.mover_level(&filter);
    g.bench_function(BenchmarkId::new("collide2d-top-down", moves.len()), |bch| {
        bch.iter(|| {
            for (p, t) in &moves {
                black_box(move_and_slide(
                    &lvl,
                    &mover,
                    Transform::from_translation(*p),
                    *t,
                    *t,
                    &top_down,
                ));
            }
        })
    });
    g.bench_function(BenchmarkId::new("collide2d-platformer", moves.len()), |bch| {
        bch.iter(|| {
            for (p, t) in &moves {
                black_box(move_and_slide(
                    &lvl,
                    &mover,
                    Transform::from_translation(*p),
                    *t,
                    *t,
                    &platformer,
                ));
            }
        })
    });
    let b2mover = b2capsule(&capsule);
    g.bench_function(BenchmarkId::new("box2d", moves.len()), |bch| {
        let mut planes: Vec<b2::b2CollisionPlane> = Vec::with_capacity(64);
        bch.iter(|| {
            for (start, t) in &moves {
                let (pos, _, _) = box2d_mover_loop(b2world, &b2mover, *start, *start + *t, &mut planes);
                // SAFETY: a plain Box2D C call on the planes of the loop's last iteration.
                let vel = unsafe { b2::b2ClipVector(b2v(*t), planes.as_ptr(), planes.len() as i32) };
                black_box((pos, vel));
            }
        })
    });
    g.finish();
    // SAFETY: created above, not used after.
    unsafe { b2::b2DestroyWorld(b2world) };
}

criterion_group!(benches, closest_points, move_and_slide_rows);
criterion_main!(benches);
