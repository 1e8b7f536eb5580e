//! The plane solver against Box2D 3.2-dev's `b2SolvePlanes` and `b2ClipVector` on random plane
//! sets (rigid and soft, 0 … 8 planes, scales 0.01 … 100): translations, pushes and iteration
//! counts bit for bit (the hand-derived cases are collide2d's own `tests/mover.rs`).
use collide2d::*;
use collide2d_peers::*;

/// The planes in Box2D's form.
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
