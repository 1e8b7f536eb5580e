//! GJK distance, segment distance and ray casts: hand-derived cases and brute-force
//! properties (the comparisons with Box2D v3 are `peers/tests/distance_and_rays.rs`).
mod common;
use collide2d::*;
use common::*;

#[test]
fn segment_distance_hand_cases() {
    // Parallel, offset by 1: closest points at the overlap start.
    let s = segment_distance(v(0.0, 0.0), v(2.0, 0.0), v(1.0, 1.0), v(3.0, 1.0));
    assert!((s.distance_squared - 1.0).abs() < 1e-6);
    // Crossing: distance 0 at (1, 0).
    let s = segment_distance(v(0.0, 0.0), v(2.0, 0.0), v(1.0, -1.0), v(1.0, 1.0));
    assert!(s.distance_squared < 1e-12);
    assert!((s.closest1 - v(1.0, 0.0)).length() < 1e-6 && (s.fraction1 - 0.5).abs() < 1e-6);
    // Point against segment (zero length): (1, 2) to the x axis segment: 2.
    let s = segment_distance(v(1.0, 2.0), v(1.0, 2.0), v(0.0, 0.0), v(4.0, 0.0));
    assert!((s.distance_squared - 4.0).abs() < 1e-6 && (s.fraction2 - 0.25).abs() < 1e-6);
}

#[test]
fn gjk_hand_cases() {
    let bx = Shape::Polygon(Polygon::make_box(1.0, 1.0).unwrap());
    let c = Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap());
    let mut cache = SimplexCache::default();
    // Circle centre (3, 0.5): distance to the +x face 2, minus radius: 1.5; normal +x.
    let d = shape_distance(&bx, Transform::IDENTITY, &c, at(3.0, 0.5), &mut cache);
    assert_eq!(d.status, DistanceStatus::Separated);
    assert!((d.distance - 1.5).abs() < 1e-5);
    assert!((d.normal - v(1.0, 0.0)).length() < 1e-5);
    assert!((d.point_a - v(1.0, 0.5)).length() < 1e-5 && (d.point_b - v(2.5, 0.5)).length() < 1e-5);
    // Corner region: centre (3, 3): corner distance 2√2, minus .5.
    let d = shape_distance(
        &bx,
        Transform::IDENTITY,
        &c,
        at(3.0, 3.0),
        &mut SimplexCache::default(),
    );
    assert!((d.distance - (8.0f32.sqrt() - 0.5)).abs() < 1e-5);
    // Overlapping: explicit status, distance exactly 0.
    let d = shape_distance(
        &bx,
        Transform::IDENTITY,
        &c,
        at(1.2, 0.0),
        &mut SimplexCache::default(),
    );
    assert_eq!(d.status, DistanceStatus::Overlapping);
    assert_eq!(d.distance, 0.0);
    let d = shape_distance(
        &bx,
        Transform::IDENTITY,
        &bx,
        at(0.5, 0.5),
        &mut SimplexCache::default(),
    );
    assert_eq!(d.status, DistanceStatus::Overlapping);
    assert_eq!(d.normal, Vec2::ZERO);
    // Same pair far from the origin and at large and tiny scales.
    for s in [0.01f32, 1.0, 1000.0, 10000.0] {
        let big = Shape::Polygon(Polygon::make_box(s, s).unwrap());
        let ball = Shape::Circle(Circle::new(Vec2::ZERO, 0.5 * s).unwrap());
        for o in [v(0.0, 0.0), v(10000.0, -10000.0)] {
            let d = shape_distance(
                &big,
                at(o.x, o.y),
                &ball,
                at(o.x + 3.0 * s, o.y + 0.5 * s),
                &mut SimplexCache::default(),
            );
            assert!(
                (d.distance / s - 1.5).abs() < 1e-4 + 2e-3 / s,
                "scale {s} offset {o:?}: {}",
                d.distance
            );
        }
    }
    // Invalid input.
    let nan = Transform {
        p: v(f32::NAN, 0.0),
        q: Rot::IDENTITY,
    };
    assert_eq!(
        shape_distance(&bx, nan, &c, Transform::IDENTITY, &mut cache).status,
        DistanceStatus::InvalidInput
    );
    let mut bad = Polygon::make_box(1.0, 1.0).unwrap();
    bad.count = 0;
    assert_eq!(
        shape_distance(
            &Shape::Polygon(bad),
            Transform::IDENTITY,
            &c,
            at(5.0, 0.0),
            &mut cache
        )
        .status,
        DistanceStatus::InvalidInput
    );
    // A garbage cache is validated and ignored.
    let mut garbage = SimplexCache {
        count: 3,
        index_a: [7, 7, 200],
        index_b: [9, 1, 1],
    };
    let d = shape_distance(&bx, Transform::IDENTITY, &c, at(3.0, 0.5), &mut garbage);
    assert!((d.distance - 1.5).abs() < 1e-5);
    let mut garbage = SimplexCache {
        count: 60000,
        index_a: [0; 3],
        index_b: [0; 3],
    };
    let d = shape_distance(&bx, Transform::IDENTITY, &c, at(3.0, 0.5), &mut garbage);
    assert!((d.distance - 1.5).abs() < 1e-5);
}

#[test]
fn gjk_properties_against_brute_force() {
    let mut rng = Rng(404);
    for i in 0..20000 {
        let s = [0.01f32, 1.0, 100.0, 10000.0][i % 4];
        let ka = rng.index(6);
        let a = random_shape(&mut rng, ka, s);
        let kb = rng.index(6);
        let b = random_shape(&mut rng, kb, s);
        let xa = random_transform(&mut rng, 2.0 * s);
        let xb = Transform::new(xa.p + rng.vec(3.0 * s), rng.range(-3.2, 3.2));
        let mut cold = SimplexCache::default();
        let d = shape_distance(&a, xa, &b, xb, &mut cold);
        assert_ne!(d.status, DistanceStatus::NotConverged, "pair {i}");
        assert!(d.distance >= 0.0);
        let truth = surface_distance(&a, xa, &b, xb);
        let tol = 2e-5 * s as f64 + 4e-7 * xa.p.length().max(xb.p.length()) as f64;
        // distance = 0 <=> overlaps, away from the boundary.
        if truth.abs() > tol {
            assert_eq!(
                d.status == DistanceStatus::Overlapping,
                overlaps(&a, xa, &b, xb),
                "pair {i}"
            );
            assert_eq!(d.status == DistanceStatus::Overlapping, truth <= 0.0, "pair {i}");
        }
        if d.status == DistanceStatus::Separated {
            // Matches the brute-force distance; the closest points lie on their surfaces and
            // are `distance` apart along the unit normal.
            assert!(
                (d.distance as f64 - truth).abs() <= tol,
                "pair {i}: {} vs {truth}",
                d.distance
            );
            assert!((d.normal.length() - 1.0).abs() < 1e-5);
            assert!(signed_distance_to_surface(d.point_a, &a, xa).abs() <= tol);
            assert!(signed_distance_to_surface(d.point_b, &b, xb).abs() <= tol);
            assert!(((d.point_b - d.point_a).length() - d.distance).abs() as f64 <= tol);
            // Warm start from the cold result's cache agrees.
            let mut warm = cold;
            let w = shape_distance(&a, xa, &b, xb, &mut warm);
            assert!((w.distance - d.distance).abs() as f64 <= tol);
        }
    }
}

#[test]
fn warm_start_follows_a_moving_pair() {
    // A box sliding past an 8-gon: the cache carried from frame to frame gives the same answer
    // as a cold start every frame, in no more iterations on average.
    let mut rng = Rng(5);
    let a = Shape::Polygon(random_polygon(&mut rng, 1.0, 8, 0.0));
    let b = Shape::Polygon(Polygon::make_box(0.5, 0.3).unwrap());
    let mut cache = SimplexCache::default();
    let (mut warm_it, mut cold_it) = (0, 0);
    for k in 0..200 {
        let t = k as f32 * 0.02;
        let xb = Transform::new(v(-2.0 + t, 1.6 + 0.1 * (t * 3.0).sin()), 0.3 * t);
        let w = shape_distance(&a, Transform::IDENTITY, &b, xb, &mut cache);
        let c = shape_distance(&a, Transform::IDENTITY, &b, xb, &mut SimplexCache::default());
        assert_eq!(w.status, c.status);
        assert!((w.distance - c.distance).abs() < 1e-5);
        warm_it += w.iterations;
        cold_it += c.iterations;
    }
    assert!(warm_it <= cold_it, "warm {warm_it} cold {cold_it}");
}

#[test]
fn ray_hand_cases() {
    let bx = Shape::Polygon(Polygon::make_box(1.0, 1.0).unwrap());
    let id = Transform::IDENTITY;
    // From (-3, 0.5) along +x by 4: hits the −x face at x = −1, fraction 2/4.
    let h = ray_cast(&bx, id, &Ray::new(v(-3.0, 0.5), v(4.0, 0.0))).unwrap();
    assert!(
        (h.fraction - 0.5).abs() < 1e-6
            && h.normal == v(-1.0, 0.0)
            && (h.point - v(-1.0, 0.5)).length() < 1e-6
    );
    // Parallel to the top face, grazing it: touching counts, enters through the −x face corner.
    let h = ray_cast(&bx, id, &Ray::new(v(-3.0, 1.0), v(4.0, 0.0))).unwrap();
    assert!((h.fraction - 0.5).abs() < 1e-6);
    // Parallel just above: miss.
    assert!(ray_cast(&bx, id, &Ray::new(v(-3.0, 1.001), v(4.0, 0.0))).is_none());
    // Starting inside or on the boundary: no hit, for every kind.
    let circle = Shape::Circle(Circle::new(Vec2::ZERO, 1.0).unwrap());
    let cap = Shape::Capsule(Capsule::new(v(-1.0, 0.0), v(1.0, 0.0), 0.5).unwrap());
    let rbox = Shape::Polygon(Polygon::make_rounded_box(1.0, 1.0, 0.25).unwrap());
    for s in [&bx, &circle, &cap, &rbox] {
        assert!(ray_cast(s, id, &Ray::new(v(0.1, 0.2), v(5.0, 0.0))).is_none());
        assert!(ray_cast(s, id, &Ray::new(v(0.0, 0.0), v(0.0, -5.0))).is_none());
        // Zero-length ray.
        assert!(ray_cast(s, id, &Ray::new(v(-5.0, 0.0), Vec2::ZERO)).is_none());
        // NaN.
        assert!(ray_cast(s, id, &Ray::new(v(f32::NAN, 0.0), v(1.0, 0.0))).is_none());
        assert!(ray_cast(
            s,
            id,
            &Ray {
                origin: v(-5.0, 0.0),
                translation: v(10.0, 0.0),
                max_fraction: f32::NAN
            }
        )
        .is_none());
    }
    assert!(ray_cast(&bx, id, &Ray::new(v(1.0, 0.0), v(-1.0, 0.0))).is_none());
    assert!(ray_cast(&circle, id, &Ray::new(v(1.0, 0.0), v(-1.0, 0.0))).is_none());
    // Circle: from (−5, 0.6) along +x: hit at x = −0.8 (0.6² + 0.8² = 1), fraction 4.2/10.
    let h = ray_cast(&circle, id, &Ray::new(v(-5.0, 0.6), v(10.0, 0.0))).unwrap();
    assert!((h.fraction - 0.42).abs() < 1e-6 && (h.normal - v(-0.8, 0.6)).length() < 1e-6);
    // Tangent: grazes at (0, 1).
    let h = ray_cast(&circle, id, &Ray::new(v(-5.0, 1.0), v(10.0, 0.0))).unwrap();
    assert!((h.point - v(0.0, 1.0)).length() < 1e-5);
    // Capsule side from above, end cap from the side.
    let h = ray_cast(&cap, id, &Ray::new(v(0.3, 5.0), v(0.0, -10.0))).unwrap();
    assert!((h.fraction - 0.45).abs() < 1e-6 && h.normal == v(0.0, 1.0));
    let h = ray_cast(&cap, id, &Ray::new(v(5.0, 0.0), v(-10.0, 0.0))).unwrap();
    assert!((h.fraction - 0.35).abs() < 1e-6 && (h.normal - v(1.0, 0.0)).length() < 1e-6);
    // Crossing the side's line beyond an end: only that end's cap. Straight down at x = 1.3
    // meets the cap at (1.3, 0.4) (0.3² + 0.4² = 0.5²): fraction 4.6/10, normal (0.6, 0.8).
    let h = ray_cast(&cap, id, &Ray::new(v(1.3, 5.0), v(0.0, -10.0))).unwrap();
    assert!((h.fraction - 0.46).abs() < 1e-6 && (h.normal - v(0.6, 0.8)).length() < 1e-6);
    // The same from below, mirrored; and at x = 1.6 it passes the cap.
    let h = ray_cast(&cap, id, &Ray::new(v(-1.3, -5.0), v(0.0, 10.0))).unwrap();
    assert!((h.fraction - 0.46).abs() < 1e-6 && (h.normal - v(-0.6, -0.8)).length() < 1e-6);
    assert!(ray_cast(&cap, id, &Ray::new(v(1.6, 5.0), v(0.0, -10.0))).is_none());
    // Within the slab beyond an end: towards the capsule hits that cap, away misses; parallel
    // outside the slab misses.
    let h = ray_cast(&cap, id, &Ray::new(v(-5.0, 0.3), v(10.0, 0.0))).unwrap();
    assert!((h.fraction - 0.36).abs() < 1e-6 && (h.normal - v(-0.8, 0.6)).length() < 1e-6);
    assert!(ray_cast(&cap, id, &Ray::new(v(-5.0, 0.3), v(-10.0, 0.0))).is_none());
    assert!(ray_cast(&cap, id, &Ray::new(v(-5.0, 0.7), v(10.0, 0.0))).is_none());
    // Starting on the side, and on a cap: no hit.
    assert!(ray_cast(&cap, id, &Ray::new(v(0.2, 0.5), v(0.0, -1.0))).is_none());
    assert!(ray_cast(&cap, id, &Ray::new(v(1.5, 0.0), v(-1.0, 0.0))).is_none());
    // Rounded box corner: along the diagonal towards (1,1) corner: hits at (1,1) + .25/√2 (1,1).
    let h = ray_cast(&rbox, id, &Ray::new(v(3.0, 3.0), v(-3.0, -3.0))).unwrap();
    let k = 1.0 + 0.25 * core::f32::consts::FRAC_1_SQRT_2;
    assert!((h.point - v(k, k)).length() < 1e-5);
    // Thin shape: a segment is hit from either side.
    let seg = Shape::Capsule(Capsule::segment(v(-1.0, 0.0), v(1.0, 0.0)).unwrap());
    let h = ray_cast(&seg, id, &Ray::new(v(0.0, 2.0), v(0.0, -4.0))).unwrap();
    assert!((h.fraction - 0.5).abs() < 1e-6 && h.normal == v(0.0, 1.0));
    let h = ray_cast(&seg, id, &Ray::new(v(0.0, -2.0), v(0.0, 4.0))).unwrap();
    assert!(h.normal == v(0.0, -1.0));
    // max_fraction clips.
    assert!(ray_cast(
        &bx,
        id,
        &Ray {
            origin: v(-3.0, 0.0),
            translation: v(4.0, 0.0),
            max_fraction: 0.49
        }
    )
    .is_none());
    // AABB: same rules.
    let bb = Aabb::new(v(-1.0, -1.0), v(1.0, 1.0));
    let h = ray_cast_aabb(bb, &Ray::new(v(-3.0, 0.5), v(4.0, 0.0))).unwrap();
    assert!((h.fraction - 0.5).abs() < 1e-6 && h.normal == v(-1.0, 0.0));
    assert!(ray_cast_aabb(bb, &Ray::new(v(0.0, 0.0), v(4.0, 0.0))).is_none());
    assert!(ray_cast_aabb(bb, &Ray::new(v(-1.0, 0.0), v(4.0, 0.0))).is_none());
    assert!(ray_cast_aabb(bb, &Ray::new(v(-3.0, 1.5), v(4.0, 0.0))).is_none());
}

#[test]
fn ray_hits_are_on_the_surface_and_nothing_is_hit_earlier() {
    // Brute force: sample 400 points along the ray before the hit; none may be inside.
    let mut rng = Rng(99);
    let mut hits = 0;
    for i in 0..6000 {
        let s = [0.01f32, 1.0, 100.0, 10000.0][i % 4];
        let k = rng.index(6);
        let shape = random_shape(&mut rng, k, s);
        let xf = random_transform(&mut rng, s);
        let origin = xf.p + rng.vec(3.0 * s);
        let ray = Ray::new(origin, (xf.p + rng.vec(s) - origin) * rng.range(0.3, 2.0));
        let hit = ray_cast(&shape, xf, &ray);
        let tol = 2e-5 * s as f64 + 1e-6 * xf.p.length() as f64;
        let inside_at =
            |t: f32| signed_distance_to_surface(ray.origin.mul_add(t, ray.translation), &shape, xf) < -tol;
        match hit {
            Some(h) => {
                hits += 1;
                assert!((h.normal.length() - 1.0).abs() < 1e-5);
                assert!(h.fraction >= 0.0 && h.fraction <= 1.0);
                assert!(
                    signed_distance_to_surface(h.point, &shape, xf).abs() <= tol,
                    "case {i}"
                );
                for k in 0..400 {
                    assert!(
                        !inside_at(h.fraction * k as f32 / 400.0),
                        "case {i}: inside before the hit"
                    );
                }
                // The normal points against the ray (the ray enters the shape).
                assert!(h.normal.dot(ray.translation) <= 0.0);
            }
            None => {
                let origin_inside = signed_distance_to_surface(ray.origin, &shape, xf) <= tol;
                if !origin_inside {
                    for k in 0..=400 {
                        assert!(!inside_at(k as f32 / 400.0), "case {i}: missed a shape");
                    }
                }
            }
        }
    }
    assert!(hits > 1000);
}

#[test]
fn proxy_from_shape_copies_the_used_points_and_zeroes_the_rest() {
    let mut tri = Polygon::new(&[v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)]).unwrap();
    // Whatever the polygon holds past its count stays out of the proxy.
    tri.vertices[5] = v(f32::NAN, 7.0);
    let p = ShapeProxy::from_shape(&Shape::Polygon(tri));
    assert_eq!(p.count, 3);
    assert_eq!(p.points(), &tri.vertices[..3]);
    assert!(p.points[3..].iter().all(|q| *q == Vec2::ZERO));
    let oct = random_polygon(&mut Rng(5), 1.0, 8, 0.1);
    let p = ShapeProxy::from_shape(&Shape::Polygon(oct));
    assert_eq!((p.count, p.radius), (8, 0.1));
    assert_eq!(p.points, oct.vertices);
    // An invalid count gives the empty proxy.
    let mut bad = tri;
    bad.count = 9;
    assert_eq!(ShapeProxy::from_shape(&Shape::Polygon(bad)).count, 0);
}

/// Rays and segments follow one documented rule (a segment has no inside): a ray running along
/// a segment's line hits the end it reaches, with the normal opposing the ray (it was not
/// reported, although a collinear ray into a box edge hits); a ray starting on a segment hits
/// at fraction +0.0 (it reported -0.0 when it left towards the segment's right side). Both
/// directions, unrotated and rotated by an exact quarter turn, and through the C ABI's shape.
#[test]
fn rays_along_and_from_segments_follow_one_rule() {
    let seg = Shape::Capsule(Capsule::segment(v(0.0, 0.0), v(1.0, 0.0)).unwrap());
    let quarter = Transform {
        p: v(5.0, -2.0),
        q: Rot { c: 0.0, s: 1.0 },
    };
    for xf in [Transform::IDENTITY, quarter] {
        // `w(x, y)`: the local point (x, y) in world space; `d(x, y)`: a local direction.
        let w = |x: f32, y: f32| xf.apply(v(x, y));
        let d = |x: f32, y: f32| xf.q.rotate(v(x, y));
        let exact = |a: Vec2, b: Vec2| (a - b).length() < 1e-6;
        // Along the line from before the start: hits (0, 0) at 1/3, normal against the ray.
        let h = ray_cast(&seg, xf, &Ray::new(w(-1.0, 0.0), d(3.0, 0.0))).expect("collinear hit");
        assert!((h.fraction - 1.0 / 3.0).abs() < 1e-6, "{h:?}");
        assert!(
            exact(h.point, w(0.0, 0.0)) && exact(h.normal, d(-1.0, 0.0)),
            "{h:?}"
        );
        // The other direction: hits (1, 0) at 1/3, normal +x.
        let h = ray_cast(&seg, xf, &Ray::new(w(2.0, 0.0), d(-3.0, 0.0))).expect("collinear hit");
        assert!((h.fraction - 1.0 / 3.0).abs() < 1e-6, "{h:?}");
        assert!(
            exact(h.point, w(1.0, 0.0)) && exact(h.normal, d(1.0, 0.0)),
            "{h:?}"
        );
        // Too short, or moving away: no hit.
        assert!(ray_cast(&seg, xf, &Ray::new(w(-1.0, 0.0), d(0.5, 0.0))).is_none());
        assert!(ray_cast(&seg, xf, &Ray::new(w(2.0, 0.0), d(1.0, 0.0))).is_none());
        assert!(ray_cast(&seg, xf, &Ray::new(w(-1.0, 0.0), d(-1.0, 0.0))).is_none());
        if xf == Transform::IDENTITY {
            // (Exactly on the segment only where the transform adds no round-off.)
            // Starting on the segment and leaving on either side, or along it either way:
            // fraction +0.0 (sign bit clear), normal opposing the ray.
            for (dir, n) in [
                (v(0.0, 1.0), v(0.0, -1.0)),
                (v(0.0, -1.0), v(0.0, 1.0)),
                (v(1.0, 0.0), v(-1.0, 0.0)),
                (v(-1.0, 0.0), v(1.0, 0.0)),
                (v(1.0, 1.0), v(0.0, -1.0)),
            ] {
                let h = ray_cast(&seg, xf, &Ray::new(v(0.5, 0.0), dir)).expect("starts on it");
                assert_eq!(h.fraction.to_bits(), 0.0f32.to_bits(), "{dir:?}: {h:?}");
                assert!(
                    exact(h.normal, n) && exact(h.point, v(0.5, 0.0)),
                    "{dir:?}: {h:?}"
                );
            }
            // An end counts as on the segment.
            let h = ray_cast(&seg, xf, &Ray::new(v(1.0, 0.0), v(0.0, -2.0))).unwrap();
            assert_eq!(h.fraction.to_bits(), 0);
        }
    }
    // A rounded capsule keeps the solid rule: starting on it, no hit; along it, the cap.
    let cap = Shape::Capsule(Capsule::new(v(0.0, 0.0), v(1.0, 0.0), 0.5).unwrap());
    assert!(ray_cast(&cap, Transform::IDENTITY, &Ray::new(v(0.5, 0.5), v(0.0, 1.0))).is_none());
    let h = ray_cast(&cap, Transform::IDENTITY, &Ray::new(v(-1.0, 0.0), v(3.0, 0.0))).unwrap();
    assert!((h.fraction - 1.0 / 6.0).abs() < 1e-6 && h.normal == v(-1.0, 0.0));
}

/// Fuzz find (capi_queries): a capsule of radius 1.96e-38 hit on its cap reported a zero
/// normal (the cap's offset divided by the radius underflowed). A cap that small is a point:
/// its normal opposes the ray.
#[test]
fn a_cap_of_vanishing_radius_still_gives_a_unit_normal() {
    let cap = Shape::Capsule(Capsule {
        center1: v(2.3509886e-38, 2.1986858e-18),
        center2: v(0.00071039994, 4.8340845e-32),
        radius: 1.9563815e-38,
    });
    let xf = Transform {
        p: v(0.00071040133, 0.00158102),
        q: Rot {
            c: 0.0007109676,
            s: 1.0000002,
        },
    };
    let ray = Ray {
        origin: v(0.00071040133, 0.00071040133),
        translation: v(1.12723e-40, 2.0),
        max_fraction: 0.0007098318,
    };
    let h = ray_cast(&cap, xf, &ray).expect("the ray reaches the capsule's end");
    assert!((h.normal.length() - 1.0).abs() < 1e-3, "{h:?}");
    assert!(h.normal.dot(ray.translation) < 0.0);
}

/// Fuzz find (capi_tree, the tree's closest ray hit): a ray starting 5e5 from a capsule of
/// radius 0.2, with a translation of 6e-16 and `max_fraction` 1e21, hit its cap with a normal
/// 0.908 long (the offset from the cap's centre is only as accurate as the far origin's ulp).
/// Such a normal is renormalised.
#[test]
fn a_far_origin_still_gives_a_unit_normal() {
    let cap = Shape::capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.2);
    let xf = Transform::new(v(11.0, 1.0), 1.1);
    let ray = Ray {
        origin: v(-525858.06, 5.764452e-16),
        translation: v(5.764452e-16, 3.8518603e-34),
        max_fraction: 1.04401335e21,
    };
    let h = ray_cast(&cap, xf, &ray).expect("the ray reaches the capsule");
    assert!((h.normal.length() - 1.0).abs() < 1e-3, "{h:?}");
    assert!(h.fraction <= ray.max_fraction);
}
