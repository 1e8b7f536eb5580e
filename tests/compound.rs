//! Bodies with several shapes (`World::add_shape`), chains as one body, and concave shapes
//! decomposed into a dynamic compound body: mass properties against hand-derived values, the
//! motion of a compound against the single shape it equals, resting heights, queries, sleep,
//! removal and continuous collision.
mod common;
use collide2d::*;
use common::v;

const DT: f32 = 1.0 / 60.0;

fn ground(w: &mut World) -> BodyId {
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(v(0.0, -0.5)),
        Shape::rect(50.0, 0.5),
    ))
    .unwrap()
}

#[test]
fn compound_mass_is_the_sum_with_the_parallel_axis_theorem() {
    let mut w = World::default();
    // Two unit squares side by side = one 2 × 1 rectangle: mass 2, centre (0.5, 0),
    // inertia 2·(2² + 1²)/12 = 5/6 (or 2·1/6 + 2·0.5² by parallel axes).
    let id = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::IDENTITY,
            Shape::rect(0.5, 0.5),
        ))
        .unwrap();
    let right = Shape::Polygon(Polygon::make_offset_box(0.5, 0.5, v(1.0, 0.0), Rot::IDENTITY).unwrap());
    w.add_shape(id, &right).unwrap();
    let b = w.body(id).unwrap();
    assert!((1.0 / b.inv_mass - 2.0).abs() < 1e-5);
    assert!((b.local_center - v(0.5, 0.0)).length() < 1e-6);
    assert!(
        (1.0 / b.inv_inertia - 5.0 / 6.0).abs() < 1e-5,
        "{}",
        1.0 / b.inv_inertia
    );
    assert_eq!(w.shapes(id).unwrap().count(), 2);
    assert_eq!(w.body_count(), 1);
    // A spinning body keeps the motion of its material points when its centre moves.
    let spin = w
        .add_body(&BodyDef {
            angular_velocity: 2.0,
            ..BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(v(10.0, 10.0)),
                Shape::rect(0.5, 0.5),
            )
        })
        .unwrap();
    w.add_shape(spin, &right).unwrap();
    let b = w.body(spin).unwrap();
    // The new centre (offset 0.5 along x) moves at ω × r = 2 · (0, 0.5) = (0, 1).
    assert!(
        (b.linear_velocity - v(0.0, 1.0)).length() < 1e-6,
        "{:?}",
        b.linear_velocity
    );
    // Bad input: a chain segment on a dynamic body, a stale id.
    let seg = Shape::ChainSegment(ChainSegment::lone(v(0.0, 0.0), v(1.0, 0.0)).unwrap());
    assert_eq!(w.add_shape(id, &seg), Err(SolverError::Unsupported));
    let gone = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::IDENTITY,
            Shape::rect(0.5, 0.5),
        ))
        .unwrap();
    w.remove_body(gone).unwrap();
    assert_eq!(w.add_shape(gone, &right), Err(SolverError::InvalidBody));
}

#[test]
fn a_compound_moves_as_the_single_shape_it_equals() {
    // The 2 × 1 compound and a 2 × 1 box, dropped tilted side by side (far apart), land and
    // settle at the same pose (the manifolds differ at the inner seam only in how the points
    // are split, not in the motion they produce).
    let mut w = World::default();
    ground(&mut w);
    let start = Transform::new(v(-10.0, 3.0), 0.3);
    let one = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            start,
            Shape::Polygon(Polygon::make_offset_box(1.0, 0.5, v(0.5, 0.0), Rot::IDENTITY).unwrap()),
        ))
        .unwrap();
    let two = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::new(v(10.0, 3.0), 0.3),
            Shape::rect(0.5, 0.5),
        ))
        .unwrap();
    w.add_shape(
        two,
        &Shape::Polygon(Polygon::make_offset_box(0.5, 0.5, v(1.0, 0.0), Rot::IDENTITY).unwrap()),
    )
    .unwrap();
    for _ in 0..240 {
        w.step(DT, 4).unwrap();
    }
    let (a, b) = (w.transform(one).unwrap(), w.transform(two).unwrap());
    // Both lie flat on the ground (centre height 0.5, rotation a multiple of π).
    for x in [a, b] {
        assert!((w.body(one).unwrap().center().y - 0.5).abs() < 0.01);
        assert!(x.q.s.abs() < 0.01, "{x:?}");
    }
    assert!((w.body(two).unwrap().center().y - 0.5).abs() < 0.01);
    assert!(((a.p.x + 10.0) - (b.p.x - 10.0)).abs() < 0.05, "{a:?} {b:?}");
}

#[test]
fn a_decomposed_concave_body_falls_and_rests_on_its_flat_side() {
    // An L (concave, 6 vertices) as a dynamic compound of its convex pieces, dropped lying on
    // its long leg: it rests with the leg's bottom on the ground.
    let l = [
        v(0.0, 0.0),
        v(3.0, 0.0),
        v(3.0, 0.5),
        v(0.5, 0.5),
        v(0.5, 2.0),
        v(0.0, 2.0),
    ];
    let pieces = decompose(&l).unwrap();
    assert_eq!(pieces.len(), 2);
    let mut w = World::default();
    ground(&mut w);
    let id = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(v(0.0, 1.0)),
            Shape::Polygon(pieces[0]),
        ))
        .unwrap();
    for p in &pieces[1..] {
        w.add_shape(id, &Shape::Polygon(*p)).unwrap();
    }
    // Mass from all pieces: the L's area (3 × 0.5 + 0.5 × 1.5 = 2.25).
    assert!((1.0 / w.body(id).unwrap().inv_mass - 2.25).abs() < 1e-4);
    for _ in 0..240 {
        w.step(DT, 4).unwrap();
    }
    let xf = w.transform(id).unwrap();
    assert!(xf.p.y.abs() < 0.01 && xf.q.s.abs() < 0.01, "{xf:?}");
    // Queries see every piece and report the body: a ray down onto the upright leg.
    let hit = w.ray_cast(v(xf.p.x + 0.25, 5.0), v(0.0, -10.0)).unwrap();
    assert_eq!(hit.body, id);
    assert!((hit.hit.point.y - 2.0).abs() < 0.02, "{hit:?}");
    // Ignoring the body ignores all its shapes.
    let ignore = [id];
    let filter = QueryFilter {
        ignore: &ignore,
        ..QueryFilter::ALL
    };
    let through = w
        .ray_cast_filtered(v(xf.p.x + 0.25, 5.0), v(0.0, -10.0), &filter)
        .unwrap();
    assert_ne!(through.body, id);
    // It sleeps, wakes when touched, and its removal takes every proxy with it.
    assert!(!w.is_awake(id).unwrap());
    let ball = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(v(xf.p.x + 2.5, 3.0)),
            Shape::circle(0.2),
        ))
        .unwrap();
    for _ in 0..60 {
        w.step(DT, 4).unwrap();
    }
    assert!(w.contact(id, ball).unwrap().is_some() || w.is_awake(id).unwrap());
    let proxies = w.tree().proxy_count();
    w.remove_body(id).unwrap();
    assert_eq!(w.tree().proxy_count(), proxies - 2);
    w.check_invariants(false).unwrap();
}

#[test]
fn a_fast_compound_never_passes_a_thin_wall() {
    for speed in [30.0f32, 100.0, 300.0] {
        let mut w = World::default();
        w.set_settings(SolverSettings {
            gravity: Vec2::ZERO,
            ..*w.settings()
        })
        .unwrap();
        let wall = w
            .add_body(&BodyDef::new(
                BodyKind::Static,
                Transform::from_translation(v(10.0, 0.0)),
                Shape::rect(0.02, 5.0),
            ))
            .unwrap();
        // A dumbbell: two small boxes 1 m apart on one body; the leading one is the second shape.
        let id = w
            .add_body(&BodyDef {
                linear_velocity: v(speed, 0.0),
                ..BodyDef::new(BodyKind::Dynamic, Transform::IDENTITY, Shape::rect(0.1, 0.1))
            })
            .unwrap();
        w.add_shape(
            id,
            &Shape::Polygon(Polygon::make_offset_box(0.1, 0.1, v(1.0, 0.0), Rot::IDENTITY).unwrap()),
        )
        .unwrap();
        for _ in 0..60 {
            w.step(DT, 4).unwrap();
            // The leading box's right edge never passes the wall's left face by more than slop.
            let front = w.transform(id).unwrap().apply(v(1.1, 0.0)).x;
            assert!(front <= 9.98 + 0.02, "speed {speed}: front at {front}");
        }
        let _ = wall;
    }
}

#[test]
fn a_chain_is_one_body_with_a_shape_per_segment() {
    let mut w = World::default();
    let loop_pts = [v(0.0, 0.0), v(10.0, 0.0), v(10.0, 1.0), v(0.0, 1.0)];
    let chain = Chain::closed(&loop_pts).unwrap();
    let level = ChainDef::new(&chain);
    let chain_id = w.add_chain(&level).unwrap();
    let id = w.chain_body(chain_id).unwrap();
    assert_eq!(w.body_count(), 1);
    assert_eq!(w.shapes(id).unwrap().count(), 4);
    assert_eq!(w.tree().proxy_count(), 4);
    // A box dropped on it rests on the loop's top (front side out) at y = 1.25.
    let b = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(v(5.0, 3.0)),
            Shape::rect(0.25, 0.25),
        ))
        .unwrap();
    for _ in 0..120 {
        w.step(DT, 4).unwrap();
    }
    assert!((w.transform(b).unwrap().p.y - 1.25).abs() < 0.01);
    w.remove_body(id).unwrap();
    assert_eq!(w.tree().proxy_count(), 1);
    // Kinematic chains move as one body; dynamic ones are refused.
    let moving = ChainDef {
        kind: BodyKind::Kinematic,
        linear_velocity: v(1.0, 0.0),
        ..level
    };
    let k = w.add_chain(&moving).unwrap();
    w.step(DT, 4).unwrap();
    assert!((w.transform(w.chain_body(k).unwrap()).unwrap().p.x - DT).abs() < 1e-6);
    let dynamic = ChainDef {
        kind: BodyKind::Dynamic,
        ..level
    };
    assert_eq!(w.add_chain(&dynamic), Err(SolverError::Unsupported));
    w.check_invariants(false).unwrap();
}

/// A long chain (20 000 segments, a comb of 1 × 1 teeth) becomes one body in time linear in
/// its length, and a box lands on a tooth of it.
#[test]
fn a_long_chain_is_one_body_of_many_proxies() {
    let teeth = 5_000;
    let mut pts = Vec::with_capacity(4 * teeth + 2);
    // Counter-clockwise: along the bottom to the right, then the teeth back to the left.
    pts.push(v(0.0, -1.0));
    pts.push(v(2.0 * teeth as f32, -1.0));
    for k in (0..teeth).rev() {
        let x = 2.0 * k as f32;
        pts.extend([v(x + 2.0, 0.0), v(x + 1.0, 0.0), v(x + 1.0, 1.0), v(x, 1.0)]);
    }
    let chain = Chain::closed(&pts).unwrap();
    assert!(chain.segment_count() >= 4 * teeth);
    let mut w = World::default();
    let chain_id = w.add_chain(&ChainDef::new(&chain)).unwrap();
    let id = w.chain_body(chain_id).unwrap();
    assert_eq!(w.tree().proxy_count() as usize, chain.segment_count());
    let b = w
        .add_body(&BodyDef {
            enable_sleep: false, // `contact` reports the last step's solved (awake) pairs
            ..BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(v(4000.5, 3.0)),
                Shape::rect(0.25, 0.25),
            )
        })
        .unwrap();
    for _ in 0..90 {
        w.step(DT, 4).unwrap();
    }
    assert!((w.transform(b).unwrap().p.y - 1.25).abs() < 0.01);
    assert!(w.contact(id, b).unwrap().is_some());
}
