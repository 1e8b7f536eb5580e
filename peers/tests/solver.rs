//! The solver side by side with Box2D v3 (the hand-derived physics checks are collide2d's own
//! `tests/solver.rs`).
use collide2d::*;
use collide2d_peers::*;

const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;

/// The pyramid in Box2D v3 and in collide2d, side by side for 10 s: both stand, and every
/// box settles to the same place in both engines (same soft-contact model and tuning).
#[test]
fn pyramid_settles_like_box2d() {
    let _box2d = box2d_worlds_guard();
    let rows = 20;
    let starts = pyramid_starts(rows);
    let (mut w, ids) = pyramid_world(rows);
    let (bw, bids) = box2d_pyramid(rows);
    let (mut ours_max, mut theirs_max) = (0.0f32, 0.0f32);
    let mut box2d_final = Vec::new();
    for _ in 0..600 {
        w.step(DT, SUBSTEPS).unwrap();
        // SAFETY: valid world and body ids created above.
        unsafe { b2::b2World_Step(bw, DT, SUBSTEPS as i32) };
        box2d_final.clear();
        for (k, s) in starts.iter().enumerate() {
            ours_max = ours_max.max(w.transform(ids[k]).unwrap().p.distance(*s));
            // SAFETY: as above.
            let p = unsafe { b2::b2Body_GetPosition(bids[k]) };
            let p = Vec2::new(p.x, p.y);
            theirs_max = theirs_max.max(p.distance(*s));
            box2d_final.push(p);
        }
    }
    let mut worst_gap = 0.0f32;
    let mut speed = 0.0f32;
    for (k, p) in box2d_final.iter().enumerate() {
        let b = w.body(ids[k]).unwrap();
        worst_gap = worst_gap.max(b.transform.p.distance(*p));
        speed = speed.max(b.linear_velocity.length());
    }
    // SAFETY: destroyed once; no ids used afterwards.
    unsafe { b2::b2DestroyWorld(bw) };
    eprintln!("pyramid: max drift ours {ours_max}, Box2D {theirs_max}; final gap {worst_gap}; our max speed at 10 s {speed}");
    assert!(ours_max < 0.05 && theirs_max < 0.05);
    assert!(worst_gap < 0.01, "final positions differ by {worst_gap}");
    assert!(speed < 0.01, "not settled: {speed} m/s");
}
