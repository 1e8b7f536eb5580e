//! Linear shape casts: regression cases reported against the peers, accuracy at several sizes
//! and brute-force properties (the comparison with Box2D v3's `b2ShapeCast` is
//! `peers/tests/casts.rs`).
mod common;
use collide2d::*;
use common::*;

#[test]
fn regression_big_circle_into_an_aabb_edge() {
    // Circle r 50 from (−4900, 30) moving (5000, 0) into the box [0, 200] × [−100, 100]: its
    // left edge x = 0 is reached when the centre is at x = −50, t = 4850 / 5000 = 0.97.
    let bx = Shape::Polygon(Polygon::from_aabb(Aabb::new(v(0.0, -100.0), v(200.0, 100.0))).unwrap());
    let c = Shape::Circle(Circle::new(Vec2::ZERO, 50.0).unwrap());
    let out = shape_cast(
        &bx,
        Transform::IDENTITY,
        Vec2::ZERO,
        &c,
        at(-4900.0, 30.0),
        v(5000.0, 0.0),
        0.0,
    );
    assert_eq!(out.state, CastState::Hit);
    assert!((out.fraction - 0.97).abs() < 1e-5, "{out:?}");
    assert!((out.normal - v(-1.0, 0.0)).length() < 1e-5, "{out:?}");
    assert!(
        out.point.x.abs() < 1e-2 && (out.point.y - 30.0).abs() < 1e-2,
        "point on the edge: {out:?}"
    );
    // Same with the circle as A: the normal points from the circle to the box.
    let out = shape_cast(
        &c,
        at(-4900.0, 30.0),
        v(5000.0, 0.0),
        &bx,
        Transform::IDENTITY,
        Vec2::ZERO,
        0.0,
    );
    assert_eq!(out.state, CastState::Hit);
    assert!((out.normal - v(1.0, 0.0)).length() < 1e-5);
}

#[test]
fn regression_short_cast_that_ends_overlapping_is_a_hit() {
    // Circle r .5 at (0, 1.1) moving 0.106 down onto a 1×1 box (top at y = .5): the gap is 0.1,
    // so it hits at t = 0.1 / 0.106 and would overlap by 0.006 at the end.
    let bx = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
    let c = Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap());
    let out = shape_cast(
        &bx,
        Transform::IDENTITY,
        Vec2::ZERO,
        &c,
        at(0.0, 1.1),
        v(0.0, -0.106),
        0.0,
    );
    assert_eq!(out.state, CastState::Hit);
    assert!((out.fraction - 0.1 / 0.106).abs() < 1e-4);
    assert!((out.normal - v(0.0, 1.0)).length() < 1e-5);
}

#[test]
fn regression_box_sliding_on_flat_ground() {
    // A box 6e-8 above the ground sliding sideways: not blocked, and no zero normal anywhere.
    let ground = Shape::Polygon(Polygon::make_box(10.0, 0.5).unwrap());
    let bx = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
    let start = at(0.0, 1.0 + 6e-8);
    let out = shape_cast(
        &ground,
        Transform::IDENTITY,
        Vec2::ZERO,
        &bx,
        start,
        v(3.0, 0.0),
        0.0,
    );
    assert_eq!(out.state, CastState::Miss);
    // Moving away: not blocked either.
    let out = shape_cast(
        &ground,
        Transform::IDENTITY,
        Vec2::ZERO,
        &bx,
        start,
        v(3.0, 1.0),
        0.0,
    );
    assert_eq!(out.state, CastState::Miss);
    // Pressing down while sliding: blocked at once with the ground's normal.
    let out = shape_cast(
        &ground,
        Transform::IDENTITY,
        Vec2::ZERO,
        &bx,
        start,
        v(3.0, -0.1),
        0.0,
    );
    assert_eq!(out.state, CastState::Hit);
    assert_eq!(out.fraction, 0.0);
    assert!((out.normal - v(0.0, 1.0)).length() < 1e-5, "{out:?}");
    // Exactly touching (distance 0) behaves the same.
    let out = shape_cast(
        &ground,
        Transform::IDENTITY,
        Vec2::ZERO,
        &bx,
        at(2.0, 1.0),
        v(-3.0, 0.0),
        0.0,
    );
    assert_eq!(out.state, CastState::Miss);
}

#[test]
fn accuracy_does_not_grow_with_size() {
    // Circle r .5166 cast straight down onto boxes of half extent 5, 50, 500 from 10 h above:
    // the final gap between the surfaces is within 1e-4 relative of the box size.
    for h in [5.0f32, 50.0, 500.0] {
        let r = 0.5166;
        let bx = Shape::Polygon(Polygon::make_box(h, h).unwrap());
        let c = Shape::Circle(Circle::new(Vec2::ZERO, r).unwrap());
        let y0 = 11.0 * h;
        let out = shape_cast(
            &bx,
            Transform::IDENTITY,
            Vec2::ZERO,
            &c,
            at(0.3 * h, y0),
            v(0.0, -20.0 * h),
            0.0,
        );
        assert_eq!(out.state, CastState::Hit);
        let y = y0 - 20.0 * h * out.fraction;
        let gap = y - r - h;
        assert!(gap >= 0.0 && gap <= 1e-4 * h, "h {h}: gap {gap}");
        assert!((out.normal - v(0.0, 1.0)).length() < 1e-5);
    }
}

#[test]
fn skin_stops_short() {
    let bx = Shape::Polygon(Polygon::make_box(1.0, 1.0).unwrap());
    let c = Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap());
    let out = shape_cast(
        &bx,
        Transform::IDENTITY,
        Vec2::ZERO,
        &c,
        at(0.0, 5.0),
        v(0.0, -10.0),
        0.1,
    );
    assert_eq!(out.state, CastState::Hit);
    // Stops when the gap is 0.1: centre at y = 1.6, t = 3.4 / 10.
    assert!((out.fraction - 0.34).abs() < 1e-5, "{out:?}");
}

#[test]
fn overlapping_and_invalid_input() {
    let bx = Shape::Polygon(Polygon::make_box(1.0, 1.0).unwrap());
    let c = Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap());
    let out = shape_cast(
        &bx,
        Transform::IDENTITY,
        Vec2::ZERO,
        &c,
        at(1.3, 0.0),
        v(5.0, 0.0),
        0.0,
    );
    assert_eq!(out.state, CastState::Overlapping);
    assert!((out.depth - 0.2).abs() < 1e-5 && (out.normal - v(1.0, 0.0)).length() < 1e-5);
    assert_eq!(
        shape_cast(
            &bx,
            Transform::IDENTITY,
            Vec2::ZERO,
            &c,
            at(5.0, 0.0),
            v(f32::NAN, 0.0),
            0.0
        )
        .state,
        CastState::InvalidInput
    );
    assert_eq!(
        shape_cast(
            &bx,
            Transform::IDENTITY,
            Vec2::ZERO,
            &c,
            at(5.0, 0.0),
            v(-5.0, 0.0),
            -1.0
        )
        .state,
        CastState::InvalidInput
    );
    let nan = Transform {
        p: v(0.0, f32::INFINITY),
        q: Rot::IDENTITY,
    };
    assert_eq!(
        shape_cast(&bx, nan, Vec2::ZERO, &c, at(5.0, 0.0), v(-5.0, 0.0), 0.0).state,
        CastState::InvalidInput
    );
    // Zero relative motion between apart shapes: a miss.
    assert_eq!(
        shape_cast(
            &bx,
            Transform::IDENTITY,
            v(1.0, 0.0),
            &c,
            at(5.0, 0.0),
            v(1.0, 0.0),
            0.0
        )
        .state,
        CastState::Miss
    );
}

#[test]
fn cast_properties_against_brute_force() {
    // After moving both shapes to a hit fraction they touch (within tolerance), slightly before
    // it they are apart, and a miss never overlaps anywhere along the way (sampled).
    let mut rng = Rng(2024);
    let (mut hits, mut misses) = (0, 0);
    for i in 0..6000 {
        let s = [0.01f32, 1.0, 100.0, 10000.0][i % 4];
        let (ka, kb) = (rng.index(6), rng.index(6));
        let a = random_shape(&mut rng, ka, s);
        let b = random_shape(&mut rng, kb, s);
        let xa = random_transform(&mut rng, 2.0 * s);
        let xb = Transform::new(xa.p + rng.vec(6.0 * s), rng.range(-3.2, 3.2));
        let ta = rng.vec(2.0 * s);
        let tb = (xa.p - xb.p) * rng.range(0.5, 2.0) + rng.vec(s);
        let out = shape_cast(&a, xa, ta, &b, xb, tb, 0.0);
        let moved = |t: f32| {
            (
                Transform {
                    p: xa.p + ta * t,
                    q: xa.q,
                },
                Transform {
                    p: xb.p + tb * t,
                    q: xb.q,
                },
            )
        };
        let gap = |t: f32| {
            let (ma, mb) = moved(t);
            surface_distance(&a, ma, &b, mb)
        };
        let tol = 1e-4 * s as f64 + 1e-6 * (xa.p.length() + xb.p.length()) as f64;
        match out.state {
            CastState::Hit => {
                hits += 1;
                assert!((out.normal.length() - 1.0).abs() < 1e-5, "case {i}");
                assert!(
                    gap(out.fraction).abs() <= tol,
                    "case {i}: gap {} at {out:?}",
                    gap(out.fraction)
                );
                if out.fraction > 0.0 {
                    assert!(
                        gap(out.fraction * 0.999) > 0.0 || gap(out.fraction * 0.999).abs() <= tol,
                        "case {i}"
                    );
                }
            }
            CastState::Miss => {
                misses += 1;
                for k in 0..=200 {
                    assert!(
                        gap(k as f32 / 200.0) > -tol,
                        "case {i}: a miss overlaps at {k}/200"
                    );
                }
            }
            CastState::Overlapping => assert!(gap(0.0) <= tol, "case {i}"),
            CastState::Failed | CastState::InvalidInput => panic!("case {i}: {out:?}"),
        }
    }
    assert!(hits > 1000 && misses > 1000, "hits {hits} misses {misses}");
}

#[test]
fn regression_rotated_box_dropped_on_ground_gets_the_face_normal() {
    // A box rotated 0.4 rad dropped onto a wide ground box: its corner lands on the flat face,
    // so the normal is exactly the face normal. Broke when the manifold judged a 1e-4 gap at
    // coordinates of 5 finer than f32 round-off and took a noisy closest-point direction.
    let ground = Shape::Polygon(Polygon::make_box(5.0, 0.5).unwrap());
    let bx = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
    let out = shape_cast(
        &ground,
        Transform::IDENTITY,
        Vec2::ZERO,
        &bx,
        Transform::new(v(-3.0, 4.0), 0.4),
        v(2.0, -6.0),
        0.0,
    );
    assert_eq!(out.state, CastState::Hit);
    assert!((out.normal - v(0.0, 1.0)).length() < 1e-6, "{out:?}");
    assert!((out.point.y - 0.5).abs() < 1e-3, "{out:?}");
}

#[test]
fn cast_normal_is_the_feature_normal_not_the_closest_point_direction() {
    // Box2D issue #935. A unit box falls past the top-right corner (1, 0) of a ground box
    // with a skin of 0.1, its bottom-left corner 0.05 to the right of the ground's corner: it
    // stops where the two corners are 0.1 apart (gap y = √(0.1² − 0.05²) = 0.0866), and the
    // closest-point direction there is tilted 30° from vertical. The feature hit is the
    // ground's top face (its separation 0.0866 beats the side face's 0.05), whose normal is
    // reported, with the face in the id.
    let ground = Shape::Polygon(Polygon::from_aabb(Aabb::new(v(-4.0, -1.0), v(1.0, 0.0))).unwrap());
    let bx = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
    let out = shape_cast(
        &ground,
        Transform::IDENTITY,
        Vec2::ZERO,
        &bx,
        at(1.55, 3.0),
        v(0.0, -4.0),
        0.1,
    );
    assert_eq!(out.state, CastState::Hit, "{out:?}");
    let y_stop = 0.5 + (0.1f32 * 0.1 - 0.05 * 0.05).sqrt();
    assert!((3.0 - 4.0 * out.fraction - y_stop).abs() < 1e-4, "{out:?}");
    assert!((out.normal - v(0.0, 1.0)).length() < 1e-6, "{out:?}");
    // The ground's top face (edge 2 of from_aabb) or the box's bottom face (edge 0 of
    // make_box): the two separate equally.
    let edge = u32::from(FEATURE_EDGE);
    assert!(out.id >> 8 == edge | 2 || out.id & 0xff == edge, "{out:?}");
    // A circle at the same place does hit the corner itself: the direction from the corner.
    let c = Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap());
    let out = shape_cast(
        &ground,
        Transform::IDENTITY,
        Vec2::ZERO,
        &c,
        at(1.3, 3.0),
        v(0.0, -4.0),
        0.0,
    );
    assert_eq!(out.state, CastState::Hit);
    let centre = v(1.3, 3.0 - 4.0 * out.fraction);
    let dir = (centre - v(1.0, 0.0)).normalize_or_zero();
    assert!((out.normal - dir).length() < 1e-4, "{out:?} {dir:?}");
}

#[test]
fn cast_normals_are_face_normals_or_closest_point_directions() {
    // At every hit (skins 0 and 10 % of the size, four scales) the normal separates the two
    // shapes' cores with a gap along it between 0 and the target (a valid contact normal, by
    // brute force over the core points), and it is either a face normal of A, a negated face
    // normal of B, or the brute-force direction between the closest core points.
    let mut rng = Rng(935);
    let (mut faces, mut directions) = (0, 0);
    for i in 0..6000 {
        let s = [0.01f32, 1.0, 100.0, 1000.0][i % 4];
        let skin = if i % 2 == 0 { 0.0 } else { 0.1 * s };
        let (ka, kb) = (rng.index(6), rng.index(6));
        let a = random_shape(&mut rng, ka, s);
        let b = random_shape(&mut rng, kb, s);
        let xa = random_transform(&mut rng, 2.0 * s);
        let xb = Transform::new(xa.p + rng.vec(6.0 * s), rng.range(-3.2, 3.2));
        let tb = (xa.p - xb.p) * rng.range(0.5, 2.0) + rng.vec(s);
        let out = shape_cast(&a, xa, Vec2::ZERO, &b, xb, tb, skin);
        if out.state != CastState::Hit {
            continue;
        }
        let xbt = Transform::new(xb.p + tb * out.fraction, xb.q.angle());
        let (ca, ra) = world_core(&a, xa);
        let (cb, rb) = world_core(&b, xbt);
        let n = out.normal;
        let hi_a = ca.iter().map(|p| f64::from(p.dot(n))).fold(f64::MIN, f64::max);
        let lo_b = cb.iter().map(|p| f64::from(p.dot(n))).fold(f64::MAX, f64::min);
        let gap = lo_b - hi_a - f64::from(ra + rb);
        let tol = 2e-4 * f64::from(s) + 2e-6 * f64::from(xa.p.length() + xb.p.length());
        assert!(
            gap >= -tol && gap <= f64::from(skin) + tol,
            "case {i}: gap {gap} along {n:?}, skin {skin}, {out:?}"
        );
        let face = |pts: &[Vec2], sign: f32| {
            (0..pts.len()).any(|k| {
                let e = pts[(k + 1) % pts.len()] - pts[k];
                let f = v(e.y, -e.x).normalize_or_zero() * sign;
                pts.len() > 1 && (f.dot(n) > 1.0 - 1e-5 || (pts.len() == 2 && (-f).dot(n) > 1.0 - 1e-5))
            })
        };
        if face(&ca, 1.0) || face(&cb, -1.0) {
            faces += 1;
        } else {
            let dir = core_closest_direction(&a, xa, &b, xbt).expect("cores apart at a hit");
            assert!(
                n.dot(dir) > 0.999,
                "case {i}: {out:?} is neither a face normal nor {dir:?}"
            );
            directions += 1;
        }
    }
    eprintln!("cast hits with a face normal: {faces}, with the closest-point direction: {directions}");
    assert!(faces > 500 && directions > 200, "{faces} {directions}");
}
