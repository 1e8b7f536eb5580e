//! The plane solver (`solve_planes`, `clip_vector`) on hand-derived cases: a floor, a corner,
//! a soft plane (`peers/tests/mover.rs` checks it bit for bit against Box2D 3.2-dev's
//! `b2SolvePlanes` and `b2ClipVector`).
mod common;
use collide2d::*;
use common::*;

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
