//! Chain segments and chains: one-sided, ghost-free manifolds, one-sided ray and shape casts,
//! ghost-freedom on flat and bent chains, welding, and quickcheck properties at scales
//! 0.01 … 10 000 (the comparisons with Box2D v3's `b2CollideChainSegmentAnd*` and
//! `b2RayCastSegment(oneSided)` are `peers/tests/chains.rs`).
mod common;
use collide2d::*;
use common::*;

/// The unit segments of a flat floor on y = 0 from x = 0 to `n`, each with its real neighbours
/// as ghosts (what a tile floor gives when its vertices are kept, as
/// `ChainSegment::from_polyline` does). Listed right to left, so the front side is up (the top
/// edge of a counter-clockwise solid).
fn flat_segments(n: usize) -> Vec<ChainSegment> {
    let pts: Vec<Vec2> = (0..=n).rev().map(|i| v(i as f32, 0.0)).collect();
    (0..n)
        .map(|i| ChainSegment::from_polyline(&pts, false, i).unwrap())
        .collect()
}

fn slider_shapes(size: f32) -> Vec<(&'static str, Shape)> {
    vec![
        ("box", Shape::Polygon(Polygon::make_box(size, size).unwrap())),
        (
            "rounded box",
            Shape::Polygon(Polygon::make_rounded_box(0.8 * size, 0.8 * size, 0.2 * size).unwrap()),
        ),
        (
            "capsule",
            Shape::Capsule(Capsule::new(v(-size, 0.0), v(size, 0.0), 0.5 * size).unwrap()),
        ),
        ("circle", Shape::Circle(Circle::new(Vec2::ZERO, size).unwrap())),
    ]
}

/// The lowest point of a shape's surface below its origin (its resting height on y = 0).
fn rest_height(sh: &Shape) -> f32 {
    -sh.aabb(Transform::IDENTITY).min.y
}

/// Sliding across the seams of a flat floor: at every position (including exactly on and a
/// few ulps around each vertex) and a range of penetrations, every contact any segment reports
/// has the floor's normal. The same shapes against separate two-sided segments (capsules of
/// radius 0) catch the seams: the comparison proves the test can fail.
#[test]
fn sliding_across_flat_chain_vertices_sees_only_the_floor_normal() {
    let segs = flat_segments(6);
    let margin = 0.02;
    for scale in [0.01f32, 1.0, 100.0] {
        for (name, sh) in slider_shapes(0.25 * scale) {
            let h = rest_height(&sh);
            let mut snags_separate = 0;
            let mut contacts = 0;
            for k in 0..=400 {
                // x from 1.5 to 4.5 (scaled), plus the vertices themselves and ulps around them.
                let mut xs = vec![(1.5 + 3.0 * k as f32 / 400.0) * scale];
                if k % 100 == 0 {
                    let vx = (2 + k / 100) as f32 * scale;
                    xs.extend([
                        vx,
                        f32::from_bits(vx.to_bits() + 2),
                        f32::from_bits(vx.to_bits() - 2),
                    ]);
                }
                for x in xs {
                    for pen in [0.0, 1e-4, 0.005, 0.02, -0.01] {
                        let xf = Transform::from_translation(v(x, h - pen * scale));
                        for seg in &segs {
                            let seg_s = ChainSegment::new(
                                seg.ghost1 * scale,
                                seg.point1 * scale,
                                seg.point2 * scale,
                                seg.ghost2 * scale,
                            )
                            .unwrap();
                            let m = collide_with_margin(
                                &Shape::ChainSegment(seg_s),
                                Transform::IDENTITY,
                                &sh,
                                xf,
                                margin * scale,
                            );
                            if m.count > 0 {
                                contacts += 1;
                                let ang = m.normal.x.atan2(m.normal.y).abs();
                                assert!(
                                    ang <= 1e-3,
                                    "{name} scale {scale} x {x} pen {pen}: normal {:?}",
                                    m.normal
                                );
                                for p in m.points() {
                                    // Depth along the floor normal: the penetration, never more.
                                    assert!(
                                        (p.depth - pen * scale).abs() <= 1e-3 * scale + 1e-4 * scale,
                                        "{name} x {x} pen {pen}: {m:?}"
                                    );
                                }
                            }
                            let two_sided = Shape::Capsule(seg_s.segment());
                            let m2 =
                                collide_with_margin(&two_sided, Transform::IDENTITY, &sh, xf, margin * scale);
                            if m2.count > 0 && m2.normal.x.atan2(m2.normal.y).abs() > 1e-3 {
                                snags_separate += 1;
                            }
                        }
                    }
                }
            }
            assert!(contacts > 1000, "{name}: {contacts}");
            // Circles have no corners: separate segments give them vertex normals only near the
            // seam's rounded end, which the floor hides as well... the sharp kinds must snag.
            if name != "circle" {
                assert!(
                    snags_separate > 0,
                    "{name} scale {scale}: separate segments never snagged"
                );
            }
        }
    }
}

/// `overlaps` agrees with `collide(.., 0)`, the dispatch in either order gives the same contact
/// (flipped), and a shape wholly behind the segment's line never touches it.
#[test]
fn overlaps_dispatch_and_one_sidedness() {
    let mut rng = Rng(0x0E51DE);
    let mut behind_checked = 0;
    for i in 0..30_000 {
        let s = [0.01, 1.0, 10_000.0][i % 3];
        let seg = random_chain_segment(&mut rng, s);
        let (b, xb) = near_segment(&mut rng, &seg, i % 5, s);
        let xa = Transform::new(rng.vec(s), rng.range(-3.2, 3.2));
        let xb = xa * xb;
        let a = Shape::ChainSegment(seg);
        let m = collide(&a, xa, &b, xb);
        assert_eq!(overlaps(&a, xa, &b, xb), m.count > 0, "#{i}");
        assert_eq!(overlaps(&b, xb, &a, xa), m.count > 0, "#{i}");
        let r = collide(&b, xb, &a, xa);
        assert_eq!(r, m.flipped(), "#{i}");
        // Wholly behind the line: every point of B's AABB-free hull below it.
        let n = xa.q.rotate(seg.normal());
        let p1 = xa.apply(seg.point1);
        let (core, radius) = world_core(&b, xb);
        if core.iter().all(|p| n.dot(*p - p1) < -radius - 1e-3 * s) {
            behind_checked += 1;
            assert_eq!(m.count, 0, "#{i}");
        }
    }
    assert!(behind_checked > 1000, "{behind_checked}");
    // Two chain segments never collide.
    let c = Shape::ChainSegment(ChainSegment::lone(v(0.0, 0.0), v(1.0, 0.0)).unwrap());
    assert_eq!(collide(&c, Transform::IDENTITY, &c, Transform::IDENTITY).count, 0);
    assert!(!overlaps(&c, Transform::IDENTITY, &c, Transform::IDENTITY));
}

/// One-sided ray casts: a ray from behind a chain segment never hits it, at scales 0.01 … 1000
/// (the same rays are compared with Box2D's `b2RayCastSegment(.., oneSided = true)` in
/// `peers/tests/chains.rs`).
#[test]
fn one_sided_ray_casts_from_behind_never_hit() {
    let mut rng = Rng(0xA7);
    let mut from_behind = 0;
    for i in 0..20_000 {
        let s = [0.01, 1.0, 1000.0][i % 3];
        let seg = random_chain_segment(&mut rng, s);
        let xf = Transform::new(rng.vec(s), rng.range(-3.2, 3.2));
        let target = xf.apply(seg.point1.lerp(seg.point2, rng.range(-0.2, 1.2)));
        let origin = target + rng.vec(3.0 * s);
        let ray = Ray::new(origin, (target - origin) * rng.range(0.5, 2.0));
        let sh = Shape::ChainSegment(seg);
        let ours = ray_cast(&sh, xf, &ray);
        let behind = xf.q.rotate(seg.normal()).dot(origin - xf.apply(seg.point1)) < 0.0;
        from_behind += usize::from(behind);
        if behind {
            assert!(ours.is_none(), "#{i}: a ray from behind hit");
        }
    }
    assert!(from_behind > 3000, "{from_behind}");
}

/// A shape cast from behind a chain segment passes it; from the front it stops on it, where
/// the two-sided segment stops it too.
#[test]
fn shape_casts_are_one_sided() {
    let seg = ChainSegment::lone(v(1.0, 0.0), v(-1.0, 0.0)).unwrap(); // front side up
    let a = Shape::ChainSegment(seg);
    let two = Shape::Capsule(seg.segment());
    let b = Shape::Polygon(Polygon::make_box(0.1, 0.1).unwrap());
    let id = Transform::IDENTITY;
    // From above, moving down: hit at the top of the segment.
    let down = shape_cast(
        &a,
        id,
        Vec2::ZERO,
        &b,
        Transform::from_translation(v(0.0, 1.0)),
        v(0.0, -2.0),
        0.0,
    );
    assert_eq!(down.state, CastState::Hit);
    assert!((down.fraction - 0.45).abs() < 1e-4, "{down:?}");
    assert!(down.normal.dot(v(0.0, 1.0)) > 0.9999, "{down:?}");
    let two_down = shape_cast(
        &two,
        id,
        Vec2::ZERO,
        &b,
        Transform::from_translation(v(0.0, 1.0)),
        v(0.0, -2.0),
        0.0,
    );
    assert!((two_down.fraction - down.fraction).abs() < 1e-6);
    // From below, moving up: passes the one-sided segment, not the two-sided one.
    let up = shape_cast(
        &a,
        id,
        Vec2::ZERO,
        &b,
        Transform::from_translation(v(0.0, -1.0)),
        v(0.0, 2.0),
        0.0,
    );
    assert_eq!(up.state, CastState::Miss);
    let two_up = shape_cast(
        &two,
        id,
        Vec2::ZERO,
        &b,
        Transform::from_translation(v(0.0, -1.0)),
        v(0.0, 2.0),
        0.0,
    );
    assert_eq!(two_up.state, CastState::Hit);
    // Either order.
    let swapped = shape_cast(
        &b,
        Transform::from_translation(v(0.0, -1.0)),
        v(0.0, 2.0),
        &a,
        id,
        Vec2::ZERO,
        0.0,
    );
    assert_eq!(swapped.state, CastState::Miss);
    // Distance is geometric (two-sided), from either side.
    let mut cache = SimplexCache::default();
    let d = shape_distance(&a, id, &b, Transform::from_translation(v(0.0, -1.0)), &mut cache);
    assert!((d.distance - 0.9).abs() < 1e-5, "{d:?}");
}

/// Regression (found by `examples/platformer.rs`): a capsule jumping up through a one-way
/// platform near its open end, its core crossing the segment 0.13 from the end, has no contact
/// (the end's only other normal, along the segment, belongs to the square end's missing
/// neighbour), and the cast from there reported `Failed` (cores crossing gave no direction),
/// which the mover took as a wall at fraction 0: the character froze in the platform. Such a
/// cast is a miss, and the mover, partly behind the platform, passes it: it moves on by the
/// whole step, never pushed up onto the face while straddling it.
#[test]
fn a_shape_crossing_a_one_way_platform_end_is_not_stuck() {
    let chain = Chain::open(&[Vec2::new(31.5, 5.0), Vec2::new(27.0, 5.0)]).unwrap();
    let seg = Shape::ChainSegment(chain.segments().next().unwrap());
    let player = Shape::capsule(Vec2::new(0.0, -0.3), Vec2::new(0.0, 0.3), 0.3);
    let step = Vec2::new(0.083, 0.011);
    let level = [Obstacle::fixed(&seg, Transform::IDENTITY, 7)];
    for x in [27.0f32, 27.05, 27.1, 27.130604, 27.2] {
        for y in [4.9f32, 5.0, 5.1044374] {
            let xf = Transform::from(Vec2::new(x, y));
            let m = collide(&seg, Transform::IDENTITY, &player, xf);
            let cast = shape_cast(&player, xf, step, &seg, Transform::IDENTITY, Vec2::ZERO, 0.01);
            assert_ne!(cast.state, CastState::Failed, "({x}, {y})");
            if m.count == 0 {
                assert_eq!(cast.state, CastState::Miss, "({x}, {y})");
            }
            let r = move_and_slide(
                &level[..],
                &player,
                xf,
                step,
                step * 60.0,
                &MoveOptions::default(),
            );
            // It moves on by the whole step: neither held back nor pushed up.
            assert!(
                (r.position - (Vec2::new(x, y) + step)).length() < 1e-5,
                "({x}, {y}) -> {:?}",
                r.position
            );
            assert!(!r.on_ground, "({x}, {y}) -> {r:?}");
        }
    }
    // Well inside the span with the centre in front and the bottom 0.5 behind the face: it
    // passes on by the step, not lifted onto the face, and is not on ground.
    let r = move_and_slide(
        &level[..],
        &player,
        Transform::from(Vec2::new(29.0, 5.1)),
        step,
        step * 60.0,
        &MoveOptions::default(),
    );
    assert!(
        (r.position - (Vec2::new(29.0, 5.1) + step)).length() < 1e-5 && !r.on_ground,
        "{r:?}"
    );
}

/// Regression (the `capi_queries` fuzz target, after 4.7 million runs): a hand-filled chain
/// segment whose points are 1.6e-30 apart (a squared length that underflows f32) and whose end
/// ghost lies a denormal distance from its point, against a circle of radius 8192, gave one
/// manifold point with a zero normal. Such a segment has no direction: the constructor refuses
/// it, and every query treats it as no contact.
#[test]
fn chain_segments_too_short_to_have_a_direction_are_refused() {
    let bad = ChainSegment {
        ghost1: Vec2::new(3.8791314e-37, -8796227000000.0),
        point1: Vec2::new(1.5761395e-30, 1e-45),
        point2: Vec2::new(0.0, 1.22e-43),
        ghost2: Vec2::new(2.6905e-41, 0.0),
    };
    assert_eq!(
        ChainSegment::new(bad.ghost1, bad.point1, bad.point2, bad.ghost2),
        Err(GeometryError::TooFewPoints)
    );
    // A real segment with a ghost a denormal distance off its point is refused too; one whose
    // ghost equals its point (a square end) is not.
    let p1 = Vec2::new(-1.0, 0.0);
    let p2 = Vec2::new(0.0, 0.0);
    assert!(ChainSegment::new(p1, p1, p2, p2).is_ok());
    assert_eq!(
        ChainSegment::new(p1, p1, p2, Vec2::new(1e-30, 0.0)),
        Err(GeometryError::TooFewPoints)
    );
    let q = Rot {
        c: 0.0,
        s: 0.99989414,
    };
    let xa = Transform {
        p: Vec2::new(2.3509886e-38, 1.076e-42),
        q,
    };
    let xb = Transform {
        p: Vec2::new(0.0, 1.076e-42),
        q,
    };
    let circle = Shape::Circle(Circle {
        center: Vec2::new(0.0, 5.881059e-39),
        radius: 8192.0,
    });
    let seg = Shape::ChainSegment(bad);
    for margin in [0.0, 0.02] {
        let m = collide_with_margin(&seg, xa, &circle, xb, margin);
        assert_eq!(m.count, 0, "{m:?}");
        let m = collide_with_margin(&circle, xb, &seg, xa, margin);
        assert_eq!(m.count, 0, "{m:?}");
    }
    assert!(!overlaps(&seg, xa, &circle, xb));
    let ray = Ray::new(Vec2::new(-1.0, 0.5), Vec2::new(2.0, 0.0));
    assert!(ray_cast(&seg, xa, &ray).is_none());
}

#[test]
fn chains_weld_duplicates_and_collinear_points() {
    // Duplicates (exact and within a few ulps) and collinear in-between points go.
    let p = [
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(1.0, 0.0),
        v(f32::from_bits(2.0f32.to_bits() + 1), 0.0),
        v(3.0, 0.0),
        v(3.0, 1.0),
    ];
    let c = Chain::open(&p).unwrap();
    assert_eq!(c.points(), &[v(0.0, 0.0), v(3.0, 0.0), v(3.0, 1.0)]);
    assert_eq!(c.segment_count(), 2);
    // A spike back along the line is not "between": kept.
    let c = Chain::open(&[v(0.0, 0.0), v(2.0, 0.0), v(1.0, 0.0)]).unwrap();
    assert_eq!(c.points().len(), 3);
    // Loops: the seam is welded too (first point collinear between last and second).
    let sq = [v(1.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0), v(0.0, 0.0)];
    let c = Chain::closed(&sq).unwrap();
    assert_eq!(c.points().len(), 4);
    assert!((c.signed_area() - 4.0).abs() < 1e-6);
    assert_eq!(c.segments().count(), 4);
    // Every segment's ghosts are its neighbours' far ends.
    let segs: Vec<_> = c.segments().collect();
    for i in 0..4 {
        assert_eq!(segs[i].point2, segs[(i + 1) % 4].point1);
        assert_eq!(segs[i].ghost2, segs[(i + 1) % 4].point2);
        assert_eq!(segs[i].ghost1, segs[(i + 3) % 4].point1);
    }
    // A CCW loop's front faces point out.
    let bottom = segs
        .iter()
        .find(|s| s.point1.y == 0.0 && s.point2.y == 0.0)
        .unwrap();
    assert_eq!(bottom.normal(), v(0.0, -1.0));
    // Errors.
    assert_eq!(Chain::open(&[v(0.0, 0.0)]), Err(GeometryError::TooFewPoints));
    assert_eq!(
        Chain::open(&[v(1.0, 1.0), v(1.0, 1.0)]),
        Err(GeometryError::TooFewPoints)
    );
    assert_eq!(
        Chain::closed(&[v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)]),
        Err(GeometryError::TooFewPoints)
    );
    assert_eq!(
        Chain::open(&[v(0.0, 0.0), v(f32::NAN, 0.0)]),
        Err(GeometryError::NonFinite)
    );
    assert_eq!(
        Chain::open(&[v(-3e38, 0.0), v(3e38, 0.0)]),
        Err(GeometryError::OutOfRange)
    );
    assert_eq!(
        ChainSegment::new(v(0.0, 0.0), v(1.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)),
        Err(GeometryError::TooFewPoints)
    );
    // Open ends are square: a circle beyond the end of a lone floor touches its corner from the
    // side, not from below.
    let floor = ChainSegment::lone(v(1.0, 0.0), v(-1.0, 0.0)).unwrap();
    let side = collide(
        &Shape::ChainSegment(floor),
        Transform::IDENTITY,
        &Shape::Circle(Circle::new(v(1.2, 0.05), 0.25).unwrap()),
        Transform::IDENTITY,
    );
    assert_eq!(side.count, 1);
    assert!(side.normal.x > 0.9, "{side:?}");
    let under = collide(
        &Shape::ChainSegment(floor),
        Transform::IDENTITY,
        &Shape::Circle(Circle::new(v(1.1, -0.2), 0.25).unwrap()),
        Transform::IDENTITY,
    );
    assert_eq!(under.count, 0, "{under:?}");
    // Non-finite or bad input through `Shape`: no contact, no panic.
    let bad = Shape::ChainSegment(ChainSegment {
        ghost1: v(f32::NAN, 0.0),
        ..floor
    });
    assert_eq!(
        collide(
            &bad,
            Transform::IDENTITY,
            &Shape::Circle(Circle::new(v(0.0, 0.1), 0.25).unwrap()),
            Transform::IDENTITY
        )
        .count,
        0
    );
    let degenerate = Shape::ChainSegment(ChainSegment {
        point2: floor.point1,
        ..floor
    });
    for b in slider_shapes(0.25) {
        assert_eq!(
            collide(&degenerate, Transform::IDENTITY, &b.1, Transform::IDENTITY).count,
            0
        );
    }
}

/// A polygon, capsule or circle straddling a flat chain with its centre in front always
/// touches it at margin 0 (crossing cores meet at a round-off distance, not exactly 0).
#[test]
fn straddling_shapes_touch_at_margin_zero() {
    let mut rng = Rng(5);
    for i in 0..3000 {
        let s = [0.01, 1.0, 10_000.0][i % 3];
        let dir = Rot::from_angle(rng.range(-3.2, 3.2));
        let p1 = rng.vec(2.0 * s);
        let p2 = p1 + dir.x_axis() * (rng.range(1.0, 3.0) * s);
        let seg = ChainSegment::new(p1 - dir.x_axis() * s, p1, p2, p2 + dir.x_axis() * s).unwrap();
        let b = random_shape(&mut rng, i % 5, 0.8 * s);
        let base = p1.lerp(p2, rng.range(0.3, 0.7));
        let xb = Transform::new(
            base + seg.normal() * (rng.range(0.0, 0.2) * s),
            rng.range(-3.2, 3.2),
        );
        let a = Shape::ChainSegment(seg);
        let crosses = surface_distance(&a, Transform::IDENTITY, &b, xb) < -1e-3 * f64::from(s);
        // Centre in front of the segment and over its span (beyond an end it is the flat
        // neighbour's to report).
        // The centre the one-sided rule uses: the core polygon's centroid (not the rounded
        // shape's centre of mass), the capsule's midpoint, the circle's centre.
        let c = xb.apply(match &b {
            Shape::Polygon(p) => p.centroid,
            other => other.mass(1.0).center,
        });
        let t = (c - p1).dot(p2 - p1) / (p2 - p1).length_squared();
        if crosses && seg.normal().dot(c - p1) > 1e-3 * s && (0.05..0.95).contains(&t) {
            assert!(
                collide(&a, Transform::IDENTITY, &b, xb).count > 0,
                "#{i}: {b:?} {xb:?} {seg:?}"
            );
            assert!(overlaps(&a, Transform::IDENTITY, &b, xb), "#{i}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// quickcheck properties at scales 0.01 … 10 000, with boundary generators: shapes exactly on
// and within a few ulps of the front face, across a flat vertex, grazing an end.

const SCALES: [f32; 5] = [0.01, 1.0, 100.0, 1000.0, 10_000.0];

fn qc() -> quickcheck::QuickCheck {
    quickcheck::QuickCheck::new().tests(3000).max_tests(30000)
}

/// A flat floor segment of a longer chain (collinear ghosts), front side up, at scale `s`, and
/// a shape resting on it exactly (`ulps == 0`) or `ulps` f32 steps above/below, its centre over
/// the segment or over one of the two vertices.
fn resting(seed: u64, kind: u8, si: u8, ulps: i8, at_vertex: bool) -> (ChainSegment, Shape, Transform, f32) {
    let s = SCALES[si as usize % SCALES.len()];
    let mut rng = Rng(seed);
    let seg = ChainSegment::new(v(3.0 * s, 0.0), v(2.0 * s, 0.0), v(0.0, 0.0), v(-s, 0.0)).unwrap();
    let sh = match kind % 4 {
        0 => Shape::Polygon(Polygon::make_box(rng.range(0.1, 0.5) * s, rng.range(0.1, 0.5) * s).unwrap()),
        1 => Shape::Polygon(
            Polygon::make_rounded_box(rng.range(0.1, 0.4) * s, rng.range(0.1, 0.4) * s, 0.1 * s).unwrap(),
        ),
        2 => {
            Shape::Capsule(Capsule::new(v(-0.2 * s, 0.0), v(0.2 * s, 0.0), rng.range(0.05, 0.3) * s).unwrap())
        }
        _ => Shape::Circle(Circle::new(Vec2::ZERO, rng.range(0.1, 0.5) * s).unwrap()),
    };
    let h = -sh.aabb(Transform::IDENTITY).min.y;
    let y = f32::from_bits((h.to_bits() as i64 + i64::from(ulps)) as u32);
    let x = if at_vertex {
        [0.0, 2.0 * s][rng.index(2)] + rng.range(-1e-5, 1e-5) * s
    } else {
        rng.range(0.1, 1.9) * s
    };
    (seg, sh, Transform::from_translation(v(x, y)), s)
}

/// On a flat chain, every contact has the face normal exactly (within 1e-3 rad) and a depth
/// within round-off of the true one, for shapes resting on, a few ulps above or below the
/// face, over a vertex or not.
fn p_flat_chain_normal(seed: u64, kind: u8, si: u8, ulps: i8, at_vertex: bool) -> bool {
    let (seg, sh, xf, s) = resting(seed, kind, si, ulps, at_vertex);
    let m = collide_with_margin(&Shape::ChainSegment(seg), Transform::IDENTITY, &sh, xf, 0.01 * s);
    m.points().iter().all(|p| p.depth.abs() <= 1e-5 * s)
        && (m.count == 0 || m.normal.x.abs() <= 1e-3 && m.normal.y > 0.0)
}

/// A shape 4 to 16 ulps (of its height) into the face of a flat chain, over the segment's
/// span, touches at margin 0 (exactly on the face, a rounded shape's touching is decided by the
/// last ulp of a square root: `tests/touching.rs` covers that band for every pair).
fn p_touching_counts(seed: u64, kind: u8, si: u8, ulps: i8) -> quickcheck::TestResult {
    let ulps = -(4 + (ulps.unsigned_abs() % 13) as i8);
    let (seg, sh, xf, _) = resting(seed, kind, si, ulps, false);
    let a = Shape::ChainSegment(seg);
    quickcheck::TestResult::from_bool(
        overlaps(&a, Transform::IDENTITY, &sh, xf) && collide(&a, Transform::IDENTITY, &sh, xf).count > 0,
    )
}

/// The same pair at scale 1 and at scale `s` (everything multiplied): same verdict away from
/// touching, normals within 1e-4, depths within 1e-4 relative.
/// Whether the segment's face axis and a convex neighbour's axis separate B (a polygon or
/// capsule core at `xb`) within round-off of each other: a tie that the manifold breaks by
/// exact comparison (as Box2D does), so the verdict (the segment's contact, or none because
/// the neighbour owns it) may differ between scales. f64, B's core vertices.
fn axis_tie(seg: &ChainSegment, b: &Shape, xb: Transform) -> bool {
    let core: Vec<Vec2> = match b {
        Shape::Polygon(p) => p.vertices().to_vec(),
        Shape::Capsule(c) => vec![c.center1, c.center2],
        _ => return false,
    };
    let pts: Vec<(f64, f64)> = core
        .iter()
        .map(|v| {
            let w = xb.apply(*v);
            (f64::from(w.x), f64::from(w.y))
        })
        .collect();
    let d = |a: Vec2, b: Vec2| {
        let (x, y) = (f64::from(b.x - a.x), f64::from(b.y - a.y));
        let l = (x * x + y * y).sqrt();
        (x / l, y / l)
    };
    // Right perpendicular (the front normal of a segment running along `e`).
    let sep = |e: (f64, f64), o: Vec2| {
        let n = (e.1, -e.0);
        pts.iter()
            .map(|p| n.0 * (p.0 - f64::from(o.x)) + n.1 * (p.1 - f64::from(o.y)))
            .fold(f64::INFINITY, f64::min)
    };
    let (e0, e1, e2) = (
        d(seg.ghost1, seg.point1),
        d(seg.point1, seg.point2),
        d(seg.point2, seg.ghost2),
    );
    let face = sep(e1, seg.point1);
    let size = pts
        .iter()
        .map(|p| (p.0 - pts[0].0).hypot(p.1 - pts[0].1))
        .fold(0.0, f64::max)
        .max(1e-30);
    let cross = |a: (f64, f64), b: (f64, f64)| a.0 * b.1 - a.1 * b.0;
    let tie = |s: f64| (s - face).abs() < 1e-4 * size;
    (cross(e0, e1) >= 0.009 && tie(sep(e0, seg.point1)))
        || (cross(e1, e2) >= 0.009 && tie(sep(e2, seg.point2)))
}

fn p_scale_invariance(seed: u64, kind: u8, si: u8) -> quickcheck::TestResult {
    let s = SCALES[si as usize % SCALES.len()];
    let mut rng = Rng(seed);
    let seg = random_chain_segment(&mut rng, 1.0);
    let (b, xb) = near_segment(&mut rng, &seg, kind as usize % 5, 1.0);
    let a = Shape::ChainSegment(seg);
    let m1 = collide_with_margin(&a, Transform::IDENTITY, &b, xb, 0.02);
    let sa = scaled_shape(&a, s);
    let sb = scaled_shape(&b, s);
    let xs = Transform { p: xb.p * s, q: xb.q };
    let ms = collide_with_margin(&sa, Transform::IDENTITY, &sb, xs, 0.02 * s);
    let d1 = deepest(&m1);
    if (d1 + 0.02).abs() < 1e-3 || d1.abs() < 1e-3 || m1.count != ms.count {
        // Verdicts may differ only at the margin or at touching (round-off of the scaling), or
        // where the face's and a neighbour's axes tie.
        return if (d1 + 0.02).abs() < 1e-3
            || d1.abs() < 1e-3
            || (deepest(&ms) / s + 0.02).abs() < 1e-3
            || axis_tie(&seg, &b, xb)
        {
            quickcheck::TestResult::discard()
        } else {
            quickcheck::TestResult::failed()
        };
    }
    if m1.count == 0 {
        return quickcheck::TestResult::discard();
    }
    let ok =
        m1.normal.dot(ms.normal) > 1.0 - 1e-4 && (deepest(&ms) / s - d1).abs() <= 1e-4 * (1.0 + d1.abs());
    quickcheck::TestResult::from_bool(ok)
}

/// Mirrored through the segment's line, a shape that touched from the front is behind: no
/// contact at any margin (on a flat chain, where no neighbour can claim it either).
fn p_mirror_behind(seed: u64, kind: u8, si: u8, ulps: i8) -> bool {
    let (seg, sh, xf, s) = resting(seed, kind, si, ulps, false);
    let mirrored = Transform {
        p: v(xf.p.x, -xf.p.y - 1e-3 * s),
        q: xf.q,
    };
    collide_with_margin(
        &Shape::ChainSegment(seg),
        Transform::IDENTITY,
        &sh,
        mirrored,
        0.05 * s,
    )
    .count
        == 0
}

#[test]
fn chain_properties() {
    qc().quickcheck(p_flat_chain_normal as fn(u64, u8, u8, i8, bool) -> bool);
    qc().quickcheck(p_touching_counts as fn(u64, u8, u8, i8) -> quickcheck::TestResult);
    qc().quickcheck(p_scale_invariance as fn(u64, u8, u8) -> quickcheck::TestResult);
    qc().quickcheck(p_mirror_behind as fn(u64, u8, u8, i8) -> bool);
}

/// A tile level's chains in a `DynamicTree` (one proxy per segment): the shape-level queries
/// are one-sided and ghost-free through the tree too.
#[test]
fn chains_in_a_tree_are_one_sided_and_ghost_free() {
    // A floor 0..20 (top y = 1) and a block 8..10 up to y = 3, one closed outline.
    let cells: Vec<bool> = (0..20 * 3)
        .map(|i| i < 20 || (i % 20 >= 8 && i % 20 < 10))
        .collect();
    let chains = tile_outlines_from_cells(20, 3, &cells, 1.0, Vec2::ZERO).unwrap();
    assert_eq!(chains.len(), 1);
    // Keep a vertex at every unit of the floor's top: a seam every metre.
    let mut shapes: Vec<Shape> = Vec::new();
    for seg in chains[0].segments() {
        let n = (seg.point2 - seg.point1).length().round() as usize;
        let pts: Vec<Vec2> = (0..=n)
            .map(|k| seg.point1.lerp(seg.point2, k as f32 / n as f32))
            .collect();
        for k in 0..n {
            let g1 = if k == 0 { seg.ghost1 } else { pts[k - 1] };
            let g2 = if k + 1 == n { seg.ghost2 } else { pts[k + 2] };
            shapes.push(Shape::ChainSegment(
                ChainSegment::new(g1, pts[k], pts[k + 1], g2).unwrap(),
            ));
        }
    }
    let mut tree = DynamicTree::new();
    for (i, s) in shapes.iter().enumerate() {
        tree.create_proxy(s.aabb(Transform::IDENTITY), u64::MAX, i as u64)
            .unwrap();
    }
    let lookup = |_: ProxyId, u: u64| Some((&shapes[u as usize], Transform::IDENTITY));
    // A ray down onto the floor hits its top, normal up; a ray up from inside the solid passes
    // the floor's top from behind and hits nothing (the outline's bottom faces down, away).
    let down = tree
        .ray_cast_closest(&Ray::new(v(3.5, 5.0), v(0.0, -10.0)), u64::MAX, lookup)
        .unwrap();
    assert!(
        (down.hit.point.y - 1.0).abs() < 1e-6 && down.hit.normal == v(0.0, 1.0),
        "{down:?}"
    );
    assert!(tree
        .ray_cast_closest(&Ray::new(v(3.5, 0.5), v(0.0, 10.0)), u64::MAX, lookup)
        .is_none());
    // A ray sideways at the block's height hits its left wall, normal -x.
    let side = tree
        .ray_cast_closest(&Ray::new(v(1.0, 2.0), v(20.0, 0.0)), u64::MAX, lookup)
        .unwrap();
    assert!(
        (side.hit.point.x - 8.0).abs() < 1e-6 && side.hit.normal == v(-1.0, 0.0),
        "{side:?}"
    );
    // A box cast down lands on the floor; cast along the floor (resting on it, skin 0) it slides
    // across the seams and stops only at the block.
    let bx = Shape::rect(0.25, 0.25);
    let fall = CastShape {
        shape: &bx,
        xf: Transform::from_translation(v(3.3, 4.0)),
        translation: v(0.0, -5.0),
    };
    let hit = tree.cast_closest(&fall, 0.0, u64::MAX, lookup).unwrap();
    assert!((hit.output.fraction - 2.75 / 5.0).abs() < 1e-4, "{hit:?}");
    let slide = CastShape {
        shape: &bx,
        xf: Transform::from_translation(v(1.3, 1.25)),
        translation: v(10.0, 0.0),
    };
    let hit = tree.cast_closest(&slide, 0.0, u64::MAX, lookup).unwrap();
    assert!(
        (1.3 + 10.0 * hit.output.fraction + 0.25 - 8.0).abs() < 1e-3,
        "{hit:?}"
    );
    // The same box cast against the floor segment right of the first seam alone passes it: no
    // ghost hit at the seam's vertex (Box2D's segment cast stops there,
    // `peers/tests/chains.rs`).
    let next = shapes
        .iter()
        .find(|s| matches!(s, Shape::ChainSegment(c) if c.point1 == v(3.0, 1.0) && c.point2 == v(2.0, 1.0)))
        .unwrap();
    let ours = shape_cast(
        next,
        Transform::IDENTITY,
        Vec2::ZERO,
        &bx,
        slide.xf,
        slide.translation,
        0.0,
    );
    assert_eq!(ours.state, CastState::Miss, "{ours:?}");
    // Contacts of a box resting across a seam: every manifold has the floor's normal.
    for x in [2.0f32, 2.5, 3.0, 3.000_001, 2.999_999] {
        let xf = Transform::from_translation(v(x, 1.249));
        let mut n = 0;
        for (_, _, m) in tree.contacts(&bx, xf, 0.02, u64::MAX, lookup) {
            n += 1;
            // From the level shape to the box: up.
            let up = -m.normal;
            assert!(up.x.abs() < 1e-3 && up.y > 0.0, "x {x}: {m:?}");
        }
        assert!(n >= 1, "x {x}");
    }
}

/// A box pressed onto a segment's convex end where the face's axis and the neighbour's tie
/// (found by `chain_properties` at scale 0.01): the property discards it as a tie, and nothing
/// else differs between the scales.
#[test]
fn a_tie_between_the_face_and_a_neighbour_is_recognised() {
    let mut rng = Rng(1870794510520910975);
    let seg = random_chain_segment(&mut rng, 1.0);
    let (b, xb) = near_segment(&mut rng, &seg, 144 % 5, 1.0);
    assert!(axis_tie(&seg, &b, xb));
    assert!(!p_scale_invariance(1870794510520910975, 144, 0).is_failure());
    // Away from the tie (the box lifted off along the face's normal by 1 mm) there is none.
    let lifted = Transform {
        p: xb.p + seg.normal() * 0.001,
        q: xb.q,
    };
    assert!(!axis_tie(&seg, &b, lifted));
}
