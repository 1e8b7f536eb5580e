//! What a game calls on a world every frame: forces and impulses against hand-derived
//! motion, damping, gravity scale, fixed rotation, collision filters (world and tree),
//! sensors, and filtered world queries against brute force.

use collide2d::solver::{SolverError, SolverSettings};
use collide2d::*;

mod common;

const DT: f32 = 1.0 / 60.0;
const N: u32 = 4;

fn zero_g() -> World {
    World::new(SolverSettings {
        gravity: Vec2::ZERO,
        ..SolverSettings::default()
    })
    .unwrap()
}

fn boxed(hw: f32, hh: f32) -> Shape {
    Shape::Polygon(Polygon::make_box(hw, hh).unwrap())
}

/// A unit box of density 2: mass 2, rotational inertia m(w² + h²)/12 = 1/3.
fn unit_box(w: &mut World, p: Vec2) -> BodyId {
    let mut d = BodyDef::new(BodyKind::Dynamic, Transform::from_translation(p), boxed(0.5, 0.5));
    d.material.density = 2.0;
    w.add_body(&d).unwrap()
}

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

#[test]
fn forces_and_torques_integrate_per_sub_step_and_clear_after_the_step() {
    let mut w = zero_g();
    let b = unit_box(&mut w, Vec2::ZERO);
    let (m, inertia) = (2.0f32, 1.0f32 / 3.0);
    // Force at the centre: per sub-step v += h F/m, x += h v (symplectic Euler), so after one
    // step v = dt F/m and x = a h² n(n+1)/2.
    let f = Vec2::new(4.0, -2.0);
    w.apply_force_to_center(b, f).unwrap();
    w.step(DT, N).unwrap();
    let h = DT / N as f32;
    let a = f * (1.0 / m);
    let body = *w.body(b).unwrap();
    assert!(
        close(body.linear_velocity.x, a.x * DT, 1e-5),
        "{:?}",
        body.linear_velocity
    );
    assert!(close(body.linear_velocity.y, a.y * DT, 1e-5));
    let x = a.x * h * h * (N * (N + 1)) as f32 / 2.0;
    assert!(
        close(body.transform.p.x, x, 1e-4),
        "{} vs {x}",
        body.transform.p.x
    );
    assert_eq!(body.force, Vec2::ZERO, "cleared after the step");
    // No force in the next step: the velocity stays.
    w.step(DT, N).unwrap();
    assert!(close(w.body(b).unwrap().linear_velocity.x, a.x * DT, 1e-5));

    // Torque: ω = dt τ / I.
    let mut w = zero_g();
    let b = unit_box(&mut w, Vec2::ZERO);
    w.apply_torque(b, 0.5).unwrap();
    w.step(DT, N).unwrap();
    assert!(close(
        w.body(b).unwrap().angular_velocity,
        DT * 0.5 / inertia,
        1e-5
    ));

    // A force off the centre adds the torque r × F: (1, 0) × (0, 3) = 3.
    let mut w = zero_g();
    let b = unit_box(&mut w, Vec2::ZERO);
    w.apply_force(b, Vec2::new(0.0, 3.0), Vec2::new(1.0, 0.0))
        .unwrap();
    w.step(DT, N).unwrap();
    let body = w.body(b).unwrap();
    assert!(close(body.angular_velocity, DT * 3.0 / inertia, 1e-5));
    assert!(close(body.linear_velocity.y, DT * 3.0 / m, 1e-5));
}

#[test]
fn impulses_change_velocity_at_once() {
    let mut w = zero_g();
    let b = unit_box(&mut w, Vec2::new(1.0, 2.0));
    w.apply_linear_impulse_to_center(b, Vec2::new(1.0, 0.5)).unwrap();
    assert_eq!(w.body(b).unwrap().linear_velocity, Vec2::new(0.5, 0.25));
    // At (1, 3), one above the centre: r × J = (0, 1) × (2, 0) = −2.
    w.apply_linear_impulse(b, Vec2::new(2.0, 0.0), Vec2::new(1.0, 3.0))
        .unwrap();
    let body = w.body(b).unwrap();
    assert_eq!(body.linear_velocity, Vec2::new(1.5, 0.25));
    assert!(close(body.angular_velocity, -2.0 * 3.0, 1e-6));
    w.apply_angular_impulse(b, 1.0).unwrap();
    assert!(close(w.body(b).unwrap().angular_velocity, -6.0 + 3.0, 1e-6));
}

#[test]
fn damping_and_gravity_scale_follow_the_sub_step_formula() {
    let mut w = zero_g();
    let mut d = BodyDef::new(BodyKind::Dynamic, Transform::IDENTITY, Shape::circle(0.5));
    d.linear_velocity = Vec2::new(2.0, 0.0);
    d.angular_velocity = 3.0;
    d.linear_damping = 0.7;
    d.angular_damping = 1.5;
    let b = w.add_body(&d).unwrap();
    w.step(DT, N).unwrap();
    let h = DT / N as f32;
    let body = w.body(b).unwrap();
    assert!(close(
        body.linear_velocity.x,
        2.0 / (1.0 + h * 0.7f32).powi(N as i32),
        1e-5
    ));
    assert!(close(
        body.angular_velocity,
        3.0 / (1.0 + h * 1.5f32).powi(N as i32),
        1e-5
    ));
    w.set_damping(b, 0.0, 0.0).unwrap();
    assert_eq!(w.set_damping(b, -1.0, 0.0), Err(SolverError::InvalidInput));

    let mut w = World::default();
    let mut d = BodyDef::new(BodyKind::Dynamic, Transform::IDENTITY, Shape::circle(0.5));
    d.gravity_scale = 0.5;
    let b = w.add_body(&d).unwrap();
    w.step(DT, N).unwrap();
    assert!(close(
        w.body(b).unwrap().linear_velocity.y,
        -10.0 * 0.5 * DT,
        1e-5
    ));
    w.set_gravity_scale(b, -1.0).unwrap();
    w.step(DT, N).unwrap();
    assert!(close(
        w.body(b).unwrap().linear_velocity.y,
        -5.0 * DT + 10.0 * DT,
        1e-4
    ));
    assert_eq!(w.set_gravity_scale(b, f32::NAN), Err(SolverError::InvalidInput));
}

#[test]
fn forces_wake_sleepers_and_bad_input_is_an_error() {
    let mut w = World::default();
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(Vec2::new(0.0, -0.5)),
        boxed(10.0, 0.5),
    ))
    .unwrap();
    let b = unit_box(&mut w, Vec2::new(0.0, 0.5));
    for _ in 0..120 {
        w.step(DT, N).unwrap();
    }
    assert!(!w.is_awake(b).unwrap());
    w.apply_force_to_center(b, Vec2::new(1.0, 0.0)).unwrap();
    assert!(w.is_awake(b).unwrap());
    for bad in [f32::NAN, f32::INFINITY] {
        assert_eq!(
            w.apply_force_to_center(b, Vec2::new(bad, 0.0)),
            Err(SolverError::InvalidInput)
        );
        assert_eq!(
            w.apply_force(b, Vec2::X, Vec2::new(0.0, bad)),
            Err(SolverError::InvalidInput)
        );
        assert_eq!(w.apply_torque(b, bad), Err(SolverError::InvalidInput));
        assert_eq!(
            w.apply_linear_impulse_to_center(b, Vec2::new(0.0, bad)),
            Err(SolverError::InvalidInput)
        );
        assert_eq!(w.apply_angular_impulse(b, bad), Err(SolverError::InvalidInput));
    }
    assert!(w.body(b).unwrap().is_valid());
    let gone = unit_box(&mut w, Vec2::new(5.0, 5.0));
    w.remove_body(gone).unwrap();
    assert_eq!(
        w.apply_force_to_center(gone, Vec2::X),
        Err(SolverError::InvalidBody)
    );
    assert_eq!(w.set_filter(gone, Filter::DEFAULT), Err(SolverError::InvalidBody));
    assert_eq!(w.set_fixed_rotation(gone, true), Err(SolverError::InvalidBody));
}

#[test]
fn fixed_rotation_never_turns() {
    let mut w = zero_g();
    let mut d = BodyDef::new(BodyKind::Dynamic, Transform::IDENTITY, boxed(0.5, 0.5));
    d.fixed_rotation = true;
    d.angular_velocity = 5.0;
    let b = w.add_body(&d).unwrap();
    assert!(w.fixed_rotation(b).unwrap());
    w.apply_linear_impulse(b, Vec2::new(0.0, 1.0), Vec2::new(0.5, 0.0))
        .unwrap();
    w.apply_torque(b, 10.0).unwrap();
    // An off-centre hit by a ball.
    let mut ball = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(Vec2::new(-3.0, 0.4)),
        Shape::circle(0.2),
    );
    ball.linear_velocity = Vec2::new(10.0, 0.0);
    w.add_body(&ball).unwrap();
    for _ in 0..60 {
        w.step(DT, N).unwrap();
    }
    assert_eq!(w.transform(b).unwrap().q, Rot::IDENTITY);
    assert!(w.body(b).unwrap().linear_velocity.x > 0.5, "pushed by the ball");
    w.set_fixed_rotation(b, false).unwrap();
    w.apply_angular_impulse(b, 1.0).unwrap();
    // Density 1: mass 1, I = (1 + 1)/12 = 1/6.
    assert!(
        close(w.body(b).unwrap().angular_velocity, 6.0, 1e-5),
        "{}",
        w.body(b).unwrap().angular_velocity
    );
}

// -------------------------------------------------------------------------------------------
// Filtering

#[test]
fn filter_rule_matches_box2d_truth_table() {
    let f = |category_bits, mask_bits, group_index| Filter {
        category_bits,
        mask_bits,
        group_index,
    };
    // (a, b, expected), hand-derived from Box2D's b2ShouldShapesCollide.
    let cases = [
        (Filter::DEFAULT, Filter::DEFAULT, true),
        (f(1, !2, 0), f(2, u64::MAX, 0), false), // A refuses B's category
        (f(1, u64::MAX, 0), f(2, !1, 0), false), // B refuses A's category
        (f(4, 8, 0), f(8, 4, 0), true),
        (f(1, 0, 3), f(1, 0, 3), true), // same positive group beats the masks
        (f(1, u64::MAX, -3), f(1, u64::MAX, -3), false), // same negative group never
        (f(1, u64::MAX, -3), f(1, u64::MAX, -4), true), // different groups: the bits decide
        (f(1, 0, 2), f(1, u64::MAX, -2), false),
    ];
    for (a, b, want) in cases {
        assert_eq!(a.should_collide(&b), want, "{a:?} {b:?}");
        assert_eq!(b.should_collide(&a), want, "symmetric");
    }
}

/// The tree alone: categories as proxy bits prune the query, `Filter::should_collide` in the
/// callback decides, against a brute-force pass over all boxes.
#[test]
fn filtering_on_the_tree_alone_matches_brute_force() {
    let mut rng = common::Rng(42);
    let boxes = common::random_boxes(&mut rng, 300);
    let filters: Vec<Filter> = (0..300)
        .map(|k| Filter {
            category_bits: 1 << (k % 4),
            mask_bits: [u64::MAX, 0b0011, 0b0101, 0b1110][k % 4],
            group_index: [0, 1, -1, 0, 2][k % 5],
        })
        .collect();
    let mut tree = DynamicTree::new();
    for (k, b) in boxes.iter().enumerate() {
        tree.create_proxy(*b, filters[k].category_bits, k as u64).unwrap();
    }
    for q in 0..300 {
        let me = filters[q];
        let mut got: Vec<u64> = tree
            .query_iter(boxes[q], me.mask_bits)
            .filter(|&(_, u)| u as usize != q && me.should_collide(&filters[u as usize]))
            .map(|(_, u)| u)
            .collect();
        got.sort_unstable();
        let want: Vec<u64> = (0..300)
            .filter(|&k| k != q && boxes[k].inflated(DEFAULT_AABB_MARGIN).overlaps(boxes[q]))
            .filter(|&k| me.should_collide(&filters[k]))
            .map(|k| k as u64)
            .collect();
        assert_eq!(got, want, "query {q}");
    }
}

/// Boxes dropped on a ground: one whose mask refuses the ground's category falls through;
/// two of one negative group fall through each other; `set_filter` lets a resting box drop.
#[test]
fn world_filters_decide_who_collides() {
    let ground_cat = Filter {
        category_bits: 2,
        ..Filter::DEFAULT
    };
    let mut w = World::default();
    let mut g = BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(Vec2::new(0.0, -0.5)),
        boxed(10.0, 0.5),
    );
    g.filter = ground_cat;
    w.add_body(&g).unwrap();
    let rests = unit_box(&mut w, Vec2::new(-3.0, 0.5));
    let mut d = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(Vec2::new(3.0, 0.5)),
        boxed(0.5, 0.5),
    );
    d.filter.mask_bits = !2;
    let falls = w.add_body(&d).unwrap();
    let mut ghost = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(Vec2::new(0.0, 0.5)),
        boxed(0.5, 0.5),
    );
    ghost.filter.group_index = -7;
    let low = w.add_body(&ghost).unwrap();
    ghost.transform = Transform::from_translation(Vec2::new(0.0, 1.3));
    let high = w.add_body(&ghost).unwrap();
    for _ in 0..60 {
        w.step(DT, N).unwrap();
    }
    assert!((w.transform(rests).unwrap().p.y - 0.5).abs() < 0.02);
    assert!(w.transform(falls).unwrap().p.y < -2.0, "refused the ground");
    let (yl, yh) = (w.transform(low).unwrap().p.y, w.transform(high).unwrap().p.y);
    assert!(
        (yl - 0.5).abs() < 0.02 && (yh - 0.5).abs() < 0.05,
        "{yl} {yh}: one inside the other"
    );
    assert_eq!(w.filter(falls).unwrap().mask_bits, !2);
    // Refuse the ground now: the resting box drops.
    w.set_filter(
        rests,
        Filter {
            mask_bits: !2,
            ..Filter::DEFAULT
        },
    )
    .unwrap();
    for _ in 0..60 {
        w.step(DT, N).unwrap();
        w.check_invariants(false).unwrap();
    }
    assert!(w.transform(rests).unwrap().p.y < -2.0);
    w.update_broad_phase().unwrap();
    w.check_invariants(true).unwrap();
}

// -------------------------------------------------------------------------------------------
// Sensors

#[test]
fn sensors_report_overlaps_and_never_collide() {
    let mut w = World::default();
    let mut zone = BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(Vec2::new(0.0, 5.0)),
        boxed(2.0, 1.0),
    );
    zone.sensor = true;
    let zone = w.add_body(&zone).unwrap();
    assert!(w.is_sensor(zone).unwrap());
    // A second sensor overlapping the first (sensors do not detect sensors), off the path.
    let mut other = BodyDef::new(
        BodyKind::Kinematic,
        Transform::from_translation(Vec2::new(4.0, 5.0)),
        boxed(2.5, 1.0),
    );
    other.sensor = true;
    w.add_body(&other).unwrap();
    let ball = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(0.0, 8.0)),
            Shape::circle(0.25),
        ))
        .unwrap();
    let (mut began, mut ended) = (None, None);
    for step in 0..120 {
        w.step(DT, N).unwrap();
        for e in w.sensor_begin_events() {
            assert_eq!((e.sensor, e.visitor), (zone, ball));
            assert!(began.is_none());
            began = Some((step, w.transform(ball).unwrap().p.y));
        }
        for e in w.sensor_end_events() {
            assert_eq!((e.sensor, e.visitor), (zone, ball));
            ended = Some((step, w.transform(ball).unwrap().p.y));
        }
        assert!(w.begin_events().is_empty(), "no collision with a sensor");
    }
    let (b0, y0) = began.expect("entered");
    let (b1, y1) = ended.expect("left");
    assert!(b1 > b0);
    // Entered when the ball's bottom crossed the zone's top (6) within one step's fall,
    // left when its top crossed the bottom (4).
    assert!(y0 < 6.25 + 0.01 && y0 > 6.25 - 0.3, "entered at {y0}");
    assert!(y1 < 3.75 + 0.01 && y1 > 3.75 - 0.4, "left at {y1}");
    assert!(w.transform(ball).unwrap().p.y < 0.0, "fell straight through");
    // Removing a visitor inside the zone ends its overlap, reported by the next step.
    let inside = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(-1.0, 5.0)),
            Shape::circle(0.25),
        ))
        .unwrap();
    w.set_gravity_scale(inside, 0.0).unwrap();
    w.step(DT, N).unwrap();
    assert_eq!(w.sensor_begin_events().len(), 1);
    w.remove_body(inside).unwrap();
    w.step(DT, N).unwrap();
    assert_eq!(
        w.sensor_end_events(),
        &[SensorEvent {
            sensor: zone,
            visitor: inside,
            sensor_shape: zone.first_shape(),
            visitor_shape: inside.first_shape(),
        }]
    );
    // A sensor needs an area.
    let mut seg = BodyDef::new(
        BodyKind::Static,
        Transform::IDENTITY,
        Shape::segment(Vec2::ZERO, Vec2::X),
    );
    seg.sensor = true;
    assert_eq!(w.add_body(&seg), Err(SolverError::Unsupported));
    w.check_invariants(false).unwrap();
}

// -------------------------------------------------------------------------------------------
// Filtered world queries against brute force

fn query_world(rng: &mut common::Rng) -> (World, Vec<BodyId>) {
    let mut w = World::default();
    let mut ids = Vec::new();
    for k in 0..120 {
        let kind = rng.index(5);
        let shape = common::random_shape(rng, kind, 1.0);
        let body_kind = [BodyKind::Static, BodyKind::Dynamic, BodyKind::Kinematic][k % 3];
        let mut d = BodyDef::new(body_kind, common::random_transform(rng, 15.0), shape);
        d.filter.category_bits = 1 << (k % 3);
        d.sensor = k % 10 == 0 && shape.mass(1.0).mass > 0.0;
        ids.push(w.add_body(&d).unwrap());
    }
    (w, ids)
}

#[test]
fn filtered_world_queries_match_brute_force() {
    let mut rng = common::Rng(7);
    let (w, ids) = query_world(&mut rng);
    for q in 0..200 {
        let ignore = [ids[rng.index(ids.len())], ids[rng.index(ids.len())]];
        let filter = QueryFilter {
            mask: [u64::MAX, 0b01, 0b110][q % 3],
            ignore: &ignore,
            sensors: q % 4 == 0,
        };
        let passes = |id: &BodyId| {
            let f = w.filter(*id).unwrap();
            f.category_bits & filter.mask != 0
                && (filter.sensors || !w.is_sensor(*id).unwrap())
                && !ignore.contains(id)
        };
        let candidates: Vec<BodyId> = ids.iter().copied().filter(passes).collect();
        let (origin, translation) = (rng.vec(18.0), rng.vec(30.0));
        let ray = Ray::new(origin, translation);
        // Every ray hit, and the closest.
        let mut all = Vec::new();
        w.ray_cast_all(origin, translation, &filter, |h| {
            all.push((h.body, h.hit.fraction));
            Visit::Continue
        });
        all.sort_by_key(|x| x.0);
        let mut want: Vec<(BodyId, f32)> = candidates
            .iter()
            .filter_map(|id| {
                ray_cast(w.shape(*id).unwrap(), w.transform(*id).unwrap(), &ray).map(|h| (*id, h.fraction))
            })
            .collect();
        want.sort_by_key(|x| x.0);
        assert_eq!(all, want, "ray {q}");
        let closest = w
            .ray_cast_filtered(origin, translation, &filter)
            .map(|h| h.hit.fraction);
        let best = want
            .iter()
            .map(|x| x.1)
            .fold(None, |m: Option<f32>, f| Some(m.map_or(f, |m| m.min(f))));
        assert_eq!(closest, best, "closest ray {q}");
        // Shape overlap.
        let probe = common::random_shape(&mut rng, q % 5, 2.0);
        let pxf = common::random_transform(&mut rng, 15.0);
        let mut got = Vec::new();
        w.overlap_shape(&probe, pxf, &filter, |id| {
            got.push(id);
            true
        });
        got.sort();
        let want: Vec<BodyId> = candidates
            .iter()
            .copied()
            .filter(|id| overlaps(&probe, pxf, w.shape(*id).unwrap(), w.transform(*id).unwrap()))
            .collect();
        assert_eq!(got, want, "overlap {q}");
        // Shape cast: the first hit's fraction equals the smallest over all candidates
        // (when nothing starts overlapping).
        let translation = rng.vec(20.0);
        let moving = CastShape::new(&probe, pxf, translation);
        let outs: Vec<CastOutput> = candidates
            .iter()
            .map(|id| {
                shape_cast_pair(
                    &moving,
                    &CastShape::at_rest(w.shape(*id).unwrap(), w.transform(*id).unwrap()),
                    0.0,
                )
            })
            .collect();
        if outs.iter().any(|o| o.state == CastState::Overlapping) {
            let hit = w
                .cast_shape(&probe, pxf, translation, &filter)
                .expect("overlap reported");
            assert_eq!(hit.output.state, CastState::Overlapping);
            continue;
        }
        let best = outs
            .iter()
            .filter(|o| o.state == CastState::Hit)
            .map(|o| o.fraction)
            .fold(None, |m: Option<f32>, f| Some(m.map_or(f, |m| m.min(f))));
        let got = w
            .cast_shape(&probe, pxf, translation, &filter)
            .map(|h| h.output.fraction);
        assert_eq!(got, best, "cast {q}");
    }
}

/// The step profile, timed with a clock that counts its own reads: every phase spans one
/// tick and the step six (hand-derived), whatever the machine; nothing without a clock, and
/// a refused step leaves an all-zero profile.
#[test]
fn step_profile_spans_each_phase_of_the_clock() {
    use std::sync::atomic::{AtomicU64, Ordering};
    static TICKS: AtomicU64 = AtomicU64::new(0);
    extern "C" fn tick() -> u64 {
        TICKS.fetch_add(1, Ordering::Relaxed) + 1
    }
    let mut w = World::default();
    unit_box(&mut w, Vec2::new(0.0, 2.0));
    w.step(1.0 / 60.0, 4).unwrap();
    assert_eq!(w.profile(), StepProfile::default(), "no clock, no profile");
    w.set_profile_clock(Some(tick));
    w.step(1.0 / 60.0, 4).unwrap();
    let one = StepProfile {
        total: 6,
        pairs: 1,
        narrow: 1,
        solve: 1,
        finalize: 1,
        continuous: 1,
        sleep: 1,
    };
    assert_eq!(w.profile(), one);
    assert_eq!(w.step(f32::NAN, 4), Err(SolverError::InvalidStep));
    assert_eq!(w.profile(), StepProfile::default());
    w.step(1.0 / 60.0, 4).unwrap();
    assert_eq!(w.profile(), one);
    w.set_profile_clock(None);
    assert_eq!(w.profile(), StepProfile::default());
}

/// The per-frame accessors read the body's state; `body_ids` lists exactly the live bodies;
/// `set_gravity` turns the fall: after 1 s under (3, 0) m/s² from rest, a free body moves at
/// 3 m/s (to rounding of the sub-steps) and has gone 1.5 m (semi-implicit Euler at 240 Hz:
/// `3 · 1 · (1 + 1/240) / 2`).
#[test]
fn accessors_body_ids_and_gravity() {
    let mut w = World::default();
    let a = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::new(Vec2::new(1.0, 2.0), 0.5),
            Shape::rect(0.5, 0.25),
        ))
        .unwrap();
    let b = w
        .add_body(&BodyDef::new(
            BodyKind::Static,
            Transform::IDENTITY,
            Shape::circle(1.0),
        ))
        .unwrap();
    let c = w
        .add_body(&BodyDef::new(
            BodyKind::Kinematic,
            Transform::IDENTITY,
            Shape::circle(1.0),
        ))
        .unwrap();
    w.add_shape(a, &Shape::circle_at(Vec2::new(0.5, 0.0), 0.1))
        .unwrap();
    w.remove_body(b).unwrap();
    assert_eq!(w.body_ids().collect::<Vec<_>>(), vec![a, c]);
    assert_eq!(w.position(a), Ok(Vec2::new(1.0, 2.0)));
    assert_eq!(w.rotation(a).unwrap(), Rot::from_angle(0.5));
    assert_eq!(w.position(b), Err(SolverError::InvalidBody));
    w.set_velocity(a, Vec2::new(1.0, -2.0), 0.25).unwrap();
    assert_eq!(w.linear_velocity(a), Ok(Vec2::new(1.0, -2.0)));
    assert_eq!(w.angular_velocity(a), Ok(0.25));
    assert_eq!(w.center_of_mass(a).unwrap(), w.body(a).unwrap().center());
    w.set_velocity(a, Vec2::ZERO, 0.0).unwrap();
    assert_eq!(
        w.set_gravity(Vec2::new(f32::NAN, 0.0)),
        Err(SolverError::InvalidInput)
    );
    assert_eq!(w.set_gravity(Vec2::new(1.0e9, 0.0)), Err(SolverError::OutOfRange));
    w.set_gravity(Vec2::new(3.0, 0.0)).unwrap();
    assert_eq!(w.gravity(), Vec2::new(3.0, 0.0));
    let x0 = w.position(a).unwrap().x;
    for _ in 0..60 {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    let v = w.linear_velocity(a).unwrap();
    assert!((v.x - 3.0).abs() < 1e-4 && v.y.abs() < 1e-6, "{v:?}");
    let dx = w.position(a).unwrap().x - x0;
    assert!((dx - 3.0 * (1.0 + 1.0 / 240.0) / 2.0).abs() < 1e-3, "{dx}");
}

/// `World::contacts` lists exactly the pairs the events say are touching (every begin not yet
/// ended), awake and asleep, with manifold normals that agree with a fresh `collide` of the
/// two shapes; the C call lists the same.
#[test]
fn contacts_are_the_pairs_the_events_left_touching() {
    use std::collections::BTreeSet;
    let mut w = World::default();
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::IDENTITY,
        Shape::rect(10.0, 0.5),
    ))
    .unwrap();
    // Walls, and angular damping for the balls' rolling: without them a ball that rolls off
    // the ground falls for ever, and one that keeps rolling never sleeps, whichever way the
    // pile happened to settle.
    for x in [-10.0, 10.0] {
        let at = Transform::from_translation(Vec2::new(x, 5.0));
        w.add_body(&BodyDef::new(BodyKind::Static, at, Shape::rect(0.5, 5.0)))
            .unwrap();
    }
    let mut rng = common::Rng(5);
    for i in 0..40 {
        let at = Transform::new(
            Vec2::new(rng.range(-4.0, 4.0), 1.0 + 0.6 * i as f32),
            rng.range(0.0, 3.0),
        );
        let shape = if i % 3 == 0 {
            Shape::circle(0.25)
        } else {
            Shape::rect(0.3, 0.2)
        };
        let mut def = BodyDef::new(BodyKind::Dynamic, at, shape);
        def.angular_damping = 1.0;
        w.add_body(&def).unwrap();
    }
    let mut touching: BTreeSet<(ShapeId, ShapeId)> = BTreeSet::new();
    let (mut checked_asleep, mut normals_checked) = (false, 0);
    for step in 0..900 {
        w.step(DT, N).unwrap();
        for e in w.end_events() {
            assert!(touching.remove(&(e.shape_a, e.shape_b)), "an end without a begin");
        }
        for e in w.begin_events() {
            assert!(touching.insert((e.shape_a, e.shape_b)), "a begin while touching");
        }
        let listed: Vec<ContactEvent> = w.contacts().collect();
        let pairs: BTreeSet<(ShapeId, ShapeId)> = listed.iter().map(|c| (c.shape_a, c.shape_b)).collect();
        assert_eq!(pairs.len(), listed.len(), "a pair listed twice");
        assert_eq!(pairs, touching, "step {step}");
        for c in &listed {
            assert_eq!(w.shape_body(c.shape_a), Ok(c.body_a));
            assert_eq!(w.shape_body(c.shape_b), Ok(c.body_b));
            let m = &c.manifold;
            assert!(m.count >= 1 && m.count <= 2 && (m.normal.length() - 1.0).abs() < 1e-4);
            let (da, db) = (w.shape_def(c.shape_a).unwrap(), w.shape_def(c.shape_b).unwrap());
            let (xa, xb) = (w.transform(c.body_a).unwrap(), w.transform(c.body_b).unwrap());
            let fresh = collide_with_margin(&da.shape, xa, &db.shape, xb, 0.1);
            // Once everything rests the bodies are where their manifolds were found.
            let resting = w.awake_body_count() == 0;
            if resting && fresh.count > 0 && fresh.points().iter().any(|p| p.depth > 0.002) {
                assert!(
                    fresh.normal.dot(m.normal) > 0.9,
                    "{:?} against {:?}",
                    fresh.normal,
                    m.normal
                );
                normals_checked += 1;
            }
        }
        if w.awake_body_count() == 0 && !touching.is_empty() {
            checked_asleep = true;
        }
        #[cfg(feature = "capi")]
        if step % 50 == 0 {
            use collide2d::capi::*;
            let mut out = vec![ContactEvent::default(); listed.len() + 1];
            let mut n = 0u32;
            // SAFETY: a lent world, `out` with room for `out.len()` entries, a writable count.
            let s = lend_world(&mut w, |id| unsafe {
                c2d_world_contacts(id, out.as_mut_ptr(), out.len() as u32, &mut n)
            });
            assert_eq!(s, Some(Status::Ok));
            assert_eq!(&out[..n as usize], &listed[..]);
        }
    }
    assert!(checked_asleep, "the pile never fell asleep");
    assert!(
        touching.len() >= 40 && normals_checked > 30,
        "{} {normals_checked}",
        touching.len()
    );
}
