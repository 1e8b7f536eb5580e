//! `closest_point` for every kind at scales 0.01 … 10 000, checked independently: the signed
//! distance against a brute-force f64 distance to the surface, the point lying on the surface
//! (its own brute-force distance 0) at |distance| from the query point, the normal unit and
//! consistent (`peers/tests/point_queries.rs` compares the same queries with parry2d's
//! `project_point`). Hand-derived cases for the documented degenerate choices.
mod common;
use collide2d::*;
use common::*;

fn scale_of(i: usize) -> f32 {
    [0.01, 1.0, 100.0, 10_000.0][i % 4]
}

#[test]
fn closest_points_match_brute_force() {
    let mut rng = Rng(0x9017);
    let mut inside_seen = 0;
    for i in 0..40_000 {
        let s = scale_of(i);
        let shape = random_shape(&mut rng, i % 6, s);
        let xf = Transform::new(rng.vec(2.0 * s), rng.range(-3.2, 3.2));
        // Query points around the shape, inside and out, some exactly on its centre.
        let p = if i % 50 == 0 {
            xf.apply(shape.mass(1.0).center)
        } else {
            xf.p + rng.vec(2.0 * s)
        };
        let out = closest_point(&shape, xf, p).unwrap();
        let tol = 2e-5 * s;
        // Signed distance: brute force in f64.
        let truth = signed_distance_to_surface(p, &shape, xf);
        assert!(
            (f64::from(out.distance) - truth).abs() <= f64::from(tol),
            "#{i}: {out:?} vs {truth} ({shape:?} {xf:?} {p:?})"
        );
        // The point is on the surface, |distance| away from p, along the normal.
        let on = signed_distance_to_surface(out.point, &shape, xf);
        assert!(on.abs() <= f64::from(tol), "#{i}: point off the surface by {on}");
        assert!((out.point.distance(p) - out.distance.abs()).abs() <= tol, "#{i}");
        assert!((out.normal.length() - 1.0).abs() < 1e-4, "#{i}");
        if out.distance.abs() > 1e-3 * s {
            // p = point + normal · distance (outside along the normal, inside against it).
            assert!(
                (out.point + out.normal * out.distance - p).length() <= 2.0 * tol,
                "#{i}: {out:?} {p:?}"
            );
        }
        assert_eq!(out.inside == 1, out.distance <= 0.0);
        inside_seen += usize::from(out.inside == 1);
    }
    assert!(inside_seen > 2_000, "{inside_seen}");
}

#[test]
fn closest_point_degenerate_cases_and_chain_segments() {
    let id = Transform::IDENTITY;
    // Circle centre: the local +x axis, at the radius, distance -r.
    let c = Shape::circle(2.0);
    let out = closest_point(
        &c,
        Transform::new(v(1.0, 1.0), std::f32::consts::FRAC_PI_2),
        v(1.0, 1.0),
    )
    .unwrap();
    assert!((out.normal - v(0.0, 1.0)).length() < 1e-6 && (out.point - v(1.0, 3.0)).length() < 1e-6);
    assert_eq!(out.distance, -2.0);
    // On a capsule's core: the core's left normal.
    let k = Shape::Capsule(Capsule::new(v(-1.0, 0.0), v(1.0, 0.0), 0.5).unwrap());
    let out = closest_point(&k, id, v(0.25, 0.0)).unwrap();
    assert_eq!(out.normal, v(0.0, 1.0));
    assert_eq!(out.point, v(0.25, 0.5));
    assert_eq!(out.distance, -0.5);
    // Inside a box: out through the nearest face.
    let b = Shape::rect(2.0, 1.0);
    let out = closest_point(&b, id, v(1.5, 0.2)).unwrap();
    assert_eq!(out.normal, v(1.0, 0.0));
    assert!((out.point - v(2.0, 0.2)).length() < 1e-6 && (out.distance + 0.5).abs() < 1e-6);
    // Outside a box's corner: the corner, normal along the diagonal.
    let out = closest_point(&b, id, v(5.0, 5.0)).unwrap();
    assert_eq!(out.point, v(2.0, 1.0));
    assert!((out.distance - 5.0).abs() < 1e-5 && (out.normal - v(0.6, 0.8)).length() < 1e-6);
    // A chain segment has no inside: behind it the distance is still positive, the normal
    // points back at the query point.
    let seg = Shape::ChainSegment(ChainSegment::lone(v(1.0, 0.0), v(-1.0, 0.0)).unwrap()); // front up
    let above = closest_point(&seg, id, v(0.5, 2.0)).unwrap();
    assert_eq!(
        (above.point, above.normal, above.distance, above.inside),
        (v(0.5, 0.0), v(0.0, 1.0), 2.0, 0)
    );
    let below = closest_point(&seg, id, v(0.5, -2.0)).unwrap();
    assert_eq!((below.normal, below.distance), (v(0.0, -1.0), 2.0));
    let on = closest_point(&seg, id, v(0.5, 0.0)).unwrap();
    assert_eq!((on.normal, on.distance, on.inside), (v(0.0, 1.0), 0.0, 1));
    // Bad input.
    assert!(closest_point(&b, id, v(f32::NAN, 0.0)).is_none());
    assert!(closest_point(
        &Shape::Circle(Circle {
            center: Vec2::ZERO,
            radius: -1.0
        }),
        id,
        Vec2::ZERO
    )
    .is_none());
    let mut broken = Polygon::make_box(1.0, 1.0).unwrap();
    broken.count = 9;
    assert!(closest_point(&Shape::Polygon(broken), id, Vec2::ZERO).is_none());
    assert!(closest_point(
        &b,
        Transform {
            p: Vec2::ZERO,
            q: Rot { c: 2.0, s: 0.0 }
        },
        Vec2::ZERO
    )
    .is_none());
}
