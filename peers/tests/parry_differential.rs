//! Differential tests of distance, ray casts and shape casts against parry2d.
//!
//! Conventions normalised: parry's distance is 0 for intersecting shapes (ours reports
//! `Overlapping` and 0); parry's solid ray cast from inside reports time 0 (ours: no hit, as
//! Box2D) so rays starting inside are skipped; parry's `cast_shapes` reports an initial
//! penetration as a hit at time 0 (ours: `Overlapping`).
use collide2d::*;
use collide2d_peers::*;

#[test]
fn distance_matches_parry() {
    let mut rng = Rng(501);
    let mut compared = 0;
    let mut parry_approx = 0;
    for i in 0..8000 {
        let (ka, kb) = (rng.index(6), rng.index(6));
        let a = random_shape(&mut rng, ka, 1.0);
        let b = random_shape(&mut rng, kb, 1.0);
        let xa = random_transform(&mut rng, 2.0);
        let xb = Transform::new(xa.p + rng.vec(3.0), rng.range(-3.2, 3.2));
        let ours = shape_distance(&a, xa, &b, xb, &mut SimplexCache::default());
        let (pa, pb) = (parry_shape(&a), parry_shape(&b));
        let theirs = parry2d::query::distance(&parry_pose(xa), pa.as_ref(), &parry_pose(xb), pb.as_ref())
            .unwrap()
            .distance;
        if (ours.distance - theirs).abs() >= 1e-4 {
            // parry's support-map GJK stops at an absolute tolerance of about 1e-4; the
            // brute-force distance decides, and ours must match it tightly.
            let truth = surface_distance(&a, xa, &b, xb).max(0.0);
            assert!(
                (ours.distance as f64 - truth).abs() < 2e-5,
                "case {i} kinds {ka} {kb}: ours {ours:?} parry {theirs} brute {truth}"
            );
            assert!((theirs as f64 - truth).abs() > (ours.distance as f64 - truth).abs());
            parry_approx += 1;
        }
        compared += 1;
    }
    assert_eq!(compared, 8000);
    eprintln!("distance vs parry: {compared} pairs, {parry_approx} where parry is off by >= 1e-4 and ours matches brute force");
}

#[test]
fn rays_match_parry() {
    let mut rng = Rng(502);
    let mut compared = 0;
    let mut parry_approx = 0;
    for i in 0..8000 {
        let k = rng.index(6);
        let shape = random_shape(&mut rng, k, 1.0);
        let xf = random_transform(&mut rng, 1.0);
        let origin = xf.p + rng.vec(3.0);
        let ray = Ray::new(origin, (xf.p + rng.vec(1.0) - origin) * rng.range(0.3, 2.0));
        if signed_distance_to_surface(ray.origin, &shape, xf) <= 1e-5 {
            continue; // parry: time 0 from inside; ours: no hit (documented)
        }
        let ours = ray_cast(&shape, xf, &ray);
        let ps = parry_shape(&shape);
        let pray = parry2d::query::Ray::new(parry_vec(ray.origin), parry_vec(ray.translation));
        let theirs = ps.cast_ray_and_get_normal(&parry_pose(xf), &pray, 1.0, true);
        match (ours, theirs) {
            (Some(o), Some(t)) => {
                if (o.fraction - t.time_of_impact).abs() >= 1e-4 {
                    // parry's rounded and capsule casts iterate to an absolute tolerance; ours
                    // must be on the surface (brute force) with nothing hit earlier.
                    assert!(
                        signed_distance_to_surface(o.point, &shape, xf).abs() < 2e-5,
                        "case {i}: {o:?} {t:?}"
                    );
                    let earlier = (0..400).any(|k| {
                        signed_distance_to_surface(
                            ray.origin.mul_add(o.fraction * k as f32 / 400.0, ray.translation),
                            &shape,
                            xf,
                        ) < -2e-5
                    });
                    assert!(!earlier, "case {i}");
                    parry_approx += 1;
                } else {
                    assert!(
                        o.normal.dot(Vec2::new(t.normal.x, t.normal.y)) > 0.999,
                        "case {i}: {o:?} {t:?}"
                    );
                }
                compared += 1;
            }
            (None, None) => {}
            (o, t) => {
                // Only grazing rays may disagree: the closest approach is within round-off.
                let closest = (0..=2000)
                    .map(|k| {
                        signed_distance_to_surface(
                            ray.origin.mul_add(k as f32 / 2000.0, ray.translation),
                            &shape,
                            xf,
                        )
                    })
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    closest.abs() < 1e-3,
                    "case {i} kind {k}: ours {o:?} parry {t:?} closest {closest}"
                );
            }
        }
    }
    assert!(compared > 3000, "{compared}");
    eprintln!("rays vs parry: {compared} hits, {parry_approx} where parry's fraction is off by >= 1e-4 and ours is verified");
}

#[test]
fn shape_casts_match_parry() {
    let mut rng = Rng(503);
    let mut compared = 0;
    let mut parry_approx = 0;
    for i in 0..6000 {
        let (ka, kb) = (rng.index(6), rng.index(6));
        let a = random_shape(&mut rng, ka, 1.0);
        let b = random_shape(&mut rng, kb, 1.0);
        let xa = random_transform(&mut rng, 2.0);
        let xb = Transform::new(xa.p + rng.vec(6.0), rng.range(-3.2, 3.2));
        let ta = rng.vec(1.0);
        let tb = (xa.p - xb.p) * rng.range(0.5, 2.0) + rng.vec(1.0);
        let ours = shape_cast(&a, xa, ta, &b, xb, tb, 0.0);
        let (pa, pb) = (parry_shape(&a), parry_shape(&b));
        let opts = parry2d::query::ShapeCastOptions::with_max_time_of_impact(1.0);
        let theirs = parry2d::query::cast_shapes(
            &parry_pose(xa),
            parry_vec(ta),
            pa.as_ref(),
            &parry_pose(xb),
            parry_vec(tb),
            pb.as_ref(),
            opts,
        )
        .unwrap();
        let gap = |t: f32| {
            surface_distance(
                &a,
                Transform {
                    p: xa.p + ta * t,
                    q: xa.q,
                },
                &b,
                Transform {
                    p: xb.p + tb * t,
                    q: xb.q,
                },
            )
        };
        match (ours.state, theirs) {
            (CastState::Hit, Some(h)) => {
                // parry's tolerance is absolute (~1e-4 in position).
                let ftol = 2e-4 / (tb - ta).length() + 1e-5;
                if (ours.fraction - h.time_of_impact).abs() > ftol {
                    // Verify ours: touching at our fraction (brute force).
                    assert!(
                        gap(ours.fraction).abs() < 2e-5,
                        "case {i}: ours {ours:?} parry {} gap {}",
                        h.time_of_impact,
                        gap(ours.fraction)
                    );
                    parry_approx += 1;
                }
                compared += 1;
            }
            (CastState::Overlapping, Some(h)) => assert_eq!(h.time_of_impact, 0.0, "case {i}"),
            (CastState::Miss, None) => {}
            (o, t) => {
                // Grazing casts only.
                let closest = (0..=1000)
                    .map(|k| gap(k as f32 / 1000.0))
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    closest.abs() < 1e-3,
                    "case {i}: ours {o:?} parry {:?} closest {closest}",
                    t.map(|h| h.time_of_impact)
                );
            }
        }
    }
    assert!(compared > 1000, "{compared}");
    eprintln!("shape casts vs parry: {compared} hits, {parry_approx} where parry differs beyond 2e-4 and ours is verified touching");
}
