//! The plane solver against Box2D v3.1's `b2SolvePlanes` and `b2ClipVector` on random plane
//! sets (rigid and soft, 0 … 8 planes, scales 0.01 … 100): translations, pushes and iteration
//! counts bit for bit; and hand-derived cases (a floor, a corner, a soft plane).
mod common;
use collide2d::*;
use common::*;

fn b2planes(planes: &[CollisionPlane]) -> Vec<b2::b2CollisionPlane> {
    planes
        .iter()
        .map(|p| b2::b2CollisionPlane {
            plane: b2::b2Plane {
                normal: b2v(p.plane.normal),
                offset: p.plane.offset,
            },
            pushLimit: p.push_limit,
            push: p.push,
            clipVelocity: p.clip_velocity != 0,
        })
        .collect()
}

#[test]
fn plane_solver_matches_box2d_bit_for_bit() {
    let mut rng = Rng(0x91A4E);
    let mut moved = 0;
    for i in 0..50_000 {
        let s = [0.01f32, 0.1, 1.0, 10.0, 100.0][i % 5];
        let n = rng.index(9);
        let mut planes: Vec<CollisionPlane> = (0..n)
            .map(|_| {
                let normal = Rot::from_angle(rng.range(-3.2, 3.2)).x_axis();
                CollisionPlane {
                    plane: Plane {
                        normal,
                        offset: rng.range(-0.5, 0.1) * s,
                    },
                    push_limit: if rng.index(4) == 0 {
                        rng.range(0.0, 0.5) * s
                    } else {
                        f32::MAX
                    },
                    push: rng.range(-1.0, 1.0), // overwritten by the solver
                    clip_velocity: u32::from(rng.index(3) != 0),
                }
            })
            .collect();
        let target = rng.vec(s);
        let mut theirs = b2planes(&planes);
        // SAFETY: the plane array is a live Vec of `n` elements.
        let r = unsafe { b2::b2SolvePlanes(b2v(target), theirs.as_mut_ptr(), n as i32) };
        let ours = solve_planes(target, &mut planes);
        assert_eq!(ours.translation.x.to_bits(), r.translation.x.to_bits(), "#{i}");
        assert_eq!(ours.translation.y.to_bits(), r.translation.y.to_bits(), "#{i}");
        assert_eq!(ours.iteration_count, r.iterationCount as u32, "#{i}");
        for (a, b) in planes.iter().zip(&theirs) {
            assert_eq!(a.push.to_bits(), b.push.to_bits(), "#{i}");
        }
        moved += usize::from(ours.translation != target);
        let v = rng.vec(2.0 * s);
        // SAFETY: as above.
        let cv = unsafe { b2::b2ClipVector(b2v(v), theirs.as_ptr(), n as i32) };
        let ov = clip_vector(v, &planes);
        assert_eq!(
            (ov.x.to_bits(), ov.y.to_bits()),
            (cv.x.to_bits(), cv.y.to_bits()),
            "#{i}"
        );
    }
    assert!(moved > 20_000, "{moved}");
}

#[test]
fn plane_solver_hand_cases() {
    let rigid = |normal: Vec2, offset: f32| CollisionPlane {
        plane: Plane { normal, offset },
        push_limit: f32::MAX,
        push: 0.0,
        clip_velocity: 1,
    };
    // A floor (normal up through the origin): moving down-right keeps the x motion and stops
    // a slop into the floor (the contact stays, no jitter).
    let mut floor = [rigid(v(0.0, 1.0), 0.0)];
    let r = solve_planes(v(1.0, -1.0), &mut floor);
    assert!((r.translation - v(1.0, -PLANE_SLOP)).length() < 1e-6, "{r:?}");
    assert!((floor[0].push - (1.0 - PLANE_SLOP)).abs() < 1e-6);
    // The velocity into the floor is clipped, along it kept.
    assert_eq!(clip_vector(v(3.0, -2.0), &floor), v(3.0, 0.0));
    assert_eq!(clip_vector(v(3.0, 2.0), &floor), v(3.0, 2.0));
    // A corner (floor and a wall facing -x at x = 0.5): blocked in both.
    let mut corner = [rigid(v(0.0, 1.0), 0.0), rigid(v(-1.0, 0.0), -0.5)];
    let r = solve_planes(v(2.0, -1.0), &mut corner);
    assert!(
        (r.translation - v(0.5 + PLANE_SLOP, -PLANE_SLOP)).length() < 1e-5,
        "{r:?}"
    );
    assert_eq!(clip_vector(v(1.0, -1.0), &corner), Vec2::ZERO);
    // A soft plane gives way after its push limit.
    let mut soft = [CollisionPlane {
        push_limit: 0.25,
        clip_velocity: 0,
        ..rigid(v(0.0, 1.0), 0.0)
    }];
    let r = solve_planes(v(0.0, -1.0), &mut soft);
    assert!(
        (r.translation - v(0.0, -0.75)).length() < 1e-6 && soft[0].push == 0.25,
        "{r:?}"
    );
    assert_eq!(clip_vector(v(0.0, -1.0), &soft), v(0.0, -1.0)); // soft: not clipped
                                                                // No planes: the target.
    assert_eq!(solve_planes(v(1.0, 2.0), &mut []).translation, v(1.0, 2.0));
}
