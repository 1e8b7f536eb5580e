//! `closest_point` against parry2d's `project_point` (solid = false) for every kind at scales
//! 0.01 … 10 000 (the brute-force checks and hand-derived cases are collide2d's own
//! `tests/point_queries.rs`).
use collide2d::*;
use collide2d_peers::*;

fn scale_of(i: usize) -> f32 {
    [0.01, 1.0, 100.0, 10_000.0][i % 4]
}

/// The queries of collide2d's `closest_points_match_brute_force` (same seed, same draws)
/// against parry2d's `project_point` (solid = false).
#[test]
fn closest_points_against_parry() {
    let mut rng = Rng(0x9017);
    let (mut agree, mut parry_farther, mut parry_off_rounded) = (0, 0, 0);
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
        // parry2d: the same projection onto the boundary.
        let ps = parry_shape(&shape);
        let proj = ps.project_point(&parry_pose(xf), parry_vec(p), false);
        let pp = Vec2::new(proj.point.x, proj.point.y);
        // (At a circle's centre or on a capsule's core every direction is as close: each
        // library picks its own, so those samples are compared on distance only.) Where the
        // points differ, the one nearer to `p` is right if both are surface points: parry must
        // never be nearer with a point on the surface; otherwise it is counted (parry's polygon
        // projection picks the wrong feature next to nearly parallel edges, and its
        // `RoundShape` projection is approximate, off the surface).
        if out.distance.abs() > 1e-3 * s && i % 50 != 0 {
            let parry_d = pp.distance(p);
            let ours_d = out.distance.abs();
            let parry_on_surface = signed_distance_to_surface(pp, &shape, xf).abs() <= f64::from(4.0 * tol);
            assert!(
                !parry_on_surface || parry_d + 4.0 * tol >= ours_d,
                "#{i}: parry nearer: {pp:?} vs {out:?} ({shape:?} {xf:?} {p:?})"
            );
            if !parry_on_surface || pp.distance(out.point) > 4.0 * tol + 1e-4 * ours_d {
                if matches!(shape, Shape::Polygon(p) if p.radius > 0.0) {
                    parry_off_rounded += 1;
                } else {
                    parry_farther += 1;
                }
            } else {
                agree += 1;
            }
            assert_eq!(proj.is_inside, out.inside == 1, "#{i}");
        }
    }
    eprintln!(
        "parry agrees on {agree} points; farther from the query on {parry_farther} (sharp shapes), \
         off the surface or farther on {parry_off_rounded} (rounded polygons)"
    );
    assert!(
        agree > 30_000 && parry_farther * 100 < agree,
        "{agree} {parry_farther}"
    );
}
