//! Unit tests of the world's internals: containment of non-finite bodies, waking inside the
//! narrow phase, contact recycling.

use super::collide::recycle;
use super::*;

/// Containment: a body whose state is non-finite when a step runs (the door makes that
/// impossible through the API, so the test writes it directly) is stopped where it was
/// before the step and reported; the box resting on it and the rest of the world stay
/// finite, in this step and the next ones.
#[test]
fn a_body_a_step_would_make_non_finite_is_stopped_and_reported() {
    let mut w = World::default();
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::IDENTITY,
        Shape::rect(5.0, 0.5),
    ))
    .unwrap();
    let below = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(0.0, 1.0)),
            Shape::rect(0.5, 0.5),
        ))
        .unwrap();
    let above = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(0.0, 2.0)),
            Shape::rect(0.5, 0.5),
        ))
        .unwrap();
    for _ in 0..30 {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    assert!(w.fault_events().is_empty());
    let pose = w.transform(below).unwrap();
    w.set_velocity(below, Vec2::new(0.0, 1.0), 0.0).unwrap();
    w.bodies[below.index as usize].angular_velocity = f32::NAN;
    w.step(1.0 / 60.0, 4).unwrap();
    let faults = w.fault_events();
    assert!(faults.contains(&below), "{faults:?}");
    let b = w.body(below).unwrap();
    assert!(b.is_valid() && b.linear_velocity == Vec2::ZERO && b.angular_velocity == 0.0);
    assert_eq!(w.transform(below).unwrap(), pose);
    for _ in 0..60 {
        w.step(1.0 / 60.0, 4).unwrap();
        assert!(w.body(below).unwrap().is_valid() && w.body(above).unwrap().is_valid());
    }
    assert!(w.fault_events().is_empty());
    assert!((w.transform(above).unwrap().p.y - 2.0).abs() < 0.05);
    w.check_invariants(false).unwrap();
}
use crate::geometry::Polygon;

/// Two boxes side by side, one sliding along the other, put to sleep in flight (so their
/// poses have moved, by different amounts, since their centres were last worked out),
/// then woken in the middle of a narrow phase by a third body: their own contact joins
/// that narrow phase after the wake. Its
/// constraint's anchors must be taken from the bodies' current centres: both anchors name
/// the same point, so `anchor_a − anchor_b` is `centre_b − centre_a` of the poses the step
/// started from.
#[test]
fn a_contact_woken_mid_narrow_phase_uses_the_bodies_current_centres() {
    for speed in [0.5f32, 3.0, 12.0] {
        let mut w = World::new(SolverSettings {
            gravity: Vec2::ZERO,
            ..Default::default()
        })
        .unwrap();
        let boxed = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
        let add = |x: f32, v: f32, w: &mut World| {
            let mut d = BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(Vec2::new(x, 0.0)),
                boxed,
            );
            d.linear_velocity = Vec2::new(0.0, v);
            w.add_body(&d).unwrap()
        };
        let s = add(0.0, speed, &mut w);
        let t = add(1.0, 0.0, &mut w);
        w.step(1.0 / 60.0, 4).unwrap();
        assert!(w.contact(s, t).unwrap().is_some(), "the pair touches");
        w.set_awake(s, false).unwrap();
        assert!(!w.is_awake(s).unwrap() && !w.is_awake(t).unwrap());
        // A third box just touching S from the left, moving into it.
        let ys = w.transform(s).unwrap().p.y;
        let mut d = BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(-1.0, ys)),
            boxed,
        );
        d.linear_velocity = Vec2::new(1.0, 0.0);
        w.add_body(&d).unwrap();
        let centre = |w: &World, id: BodyId| w.body(id).unwrap().center();
        let (cs, ct) = (centre(&w, s), centre(&w, t));
        w.step(1.0 / 60.0, 4).unwrap();
        assert!(
            w.is_awake(s).unwrap() && w.is_awake(t).unwrap(),
            "the touch wakes the island"
        );
        let c = w.contact(s, t).unwrap().expect("the woken pair is solved");
        let expected = if c.body_a == s.index { ct - cs } else { cs - ct };
        for p in &c.points[..c.count as usize] {
            let d = p.anchor_a - p.anchor_b;
            assert!(
                (d - expected).length() < 1e-5,
                "speed {speed}: anchors {d:?} against centres {expected:?}"
            );
        }
    }
}

/// A static ground box and a unit box resting on it, stepped once so the pair has a
/// cached manifold. Returns the world and the two slots.
fn resting() -> (World, usize, usize) {
    let mut w = World::default();
    let ground = Shape::Polygon(Polygon::make_box(5.0, 0.5).unwrap());
    let g = w
        .add_body(&BodyDef::new(
            BodyKind::Static,
            Transform::from_translation(Vec2::new(0.0, -0.5)),
            ground,
        ))
        .unwrap();
    let unit = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
    let b = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(0.3, 0.49)),
            unit,
        ))
        .unwrap();
    w.step(1.0 / 60.0, 4).unwrap();
    (w, g.index as usize, b.index as usize)
}

/// Recycles the pair's cached manifold with body `b` moved to `xf`; the fresh manifold at
/// the same pose is the oracle.
fn recycled_and_fresh(w: &World, g: usize, b: usize, xf: Transform) -> (Option<Manifold>, Manifold) {
    let cache = w.active_memory[0].cache.expect("cached after a step");
    let mut body = w.bodies[b];
    body.transform = xf;
    // The recycled points as a manifold: each at its anchor on the ground, its depth
    // the current separation of the two material points negated.
    let r = recycle(
        &cache,
        (&w.bodies[g], &w.hot[g]),
        (&body, &w.hot[b]),
        (true, cache.margin),
        w.recycle_distance,
    )
    .map(|p| collide::manifold_of(cache.normal, &p[..cache.count as usize], w.bodies[g].center()));
    // With the recycle distance as margin, so points that recycling keeps as speculative
    // (the box lifted off) are there in the oracle too.
    let margin = CONTACT_RECYCLE_DISTANCE;
    let fresh = collide_with_margin(
        &w.slots[g].shape,
        w.bodies[g].transform,
        &w.slots[b].shape,
        xf,
        margin,
    );
    (r, fresh)
}

#[test]
fn recycled_manifold_follows_small_motion_like_a_fresh_one() {
    let (w, g, b) = resting();
    let start = w.bodies[b].transform;
    // Pure translations within the recycle distance: same depths and features as a fresh
    // manifold. A recycled point is carried half by each body (midway between the two
    // anchors), so where a fresh point rides on one body alone (a sliding box's corner)
    // they part by at most half the motion.
    for d in [
        Vec2::new(0.02, 0.0),
        Vec2::new(0.0, -0.03),
        Vec2::new(-0.02, 0.02),
    ] {
        let xf = Transform {
            p: start.p + d,
            q: start.q,
        };
        let (r, fresh) = recycled_and_fresh(&w, g, b, xf);
        let r = r.expect("small motion is recycled");
        assert_eq!(r.count, fresh.count);
        for (p, q) in r.points().iter().zip(fresh.points()) {
            assert_eq!(p.id, q.id);
            assert!((p.depth - q.depth).abs() < 1e-5, "{} vs {}", p.depth, q.depth);
            assert!(p.point.distance(q.point) <= 0.5 * d.length() + 1e-5);
        }
    }
    // A small turn (1°): depths within reach·(1 − cos) + sin·offset of the fresh ones.
    let xf = Transform::new(start.p, 1.0f32.to_radians());
    let (r, fresh) = recycled_and_fresh(&w, g, b, xf);
    let r = r.expect("small turn is recycled");
    for (p, q) in r.points().iter().zip(fresh.points()) {
        assert!((p.depth - q.depth).abs() < 0.01, "{} vs {}", p.depth, q.depth);
    }
}

/// A recycled contact keeps its material points relative to the bodies' centres of mass,
/// which hold only while the centres do: a shape added forgets the body's caches. Its
/// effective masses are worked out each step from the bodies' current masses. A box resting on static ground, recycled
/// step after step:
/// - its rotation fixed: the normal mass must be exactly `1 / inv_mass` (no inertia term
///   left);
/// - a second box added on top of it (not touching the ground): its centre of mass moves
///   up by 0.5 m, and the points of its one contact (centre + anchor on the box) must
///   stay on the ground's top face (`y = 0`).
#[test]
fn a_change_of_mass_or_centre_reaches_the_bodys_recycled_contacts() {
    let (mut w, g, b) = resting();
    let (gid, bid) = (w.id_of(g as u32), w.id_of(b as u32));
    for _ in 0..3 {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    let c = w.contact(gid, bid).unwrap().expect("resting");
    let inv_mass = w.bodies[b].inv_mass;
    assert!(
        c.points[0].normal_mass < 0.99 / inv_mass,
        "the corner's lever arm counts"
    );
    w.set_fixed_rotation(bid, true).unwrap();
    w.step(1.0 / 60.0, 4).unwrap();
    let c = w.contact(gid, bid).unwrap().expect("resting");
    for p in &c.points[..c.count as usize] {
        assert_eq!(p.normal_mass, 1.0 / inv_mass);
    }
    w.set_fixed_rotation(bid, false).unwrap();
    for _ in 0..3 {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    let side =
        Shape::Polygon(Polygon::make_offset_box(0.5, 0.5, Vec2::new(0.0, 1.0), Rot::IDENTITY).unwrap());
    w.add_shape(bid, &side).unwrap();
    w.step(1.0 / 60.0, 4).unwrap();
    let center = w.bodies[b].center();
    let c = w.contact(gid, bid).unwrap().expect("resting");
    assert!(c.count >= 1);
    for p in &c.points[..c.count as usize] {
        let anchor = if c.body_a == b as u32 {
            p.anchor_a
        } else {
            p.anchor_b
        };
        let y = (center + anchor).y;
        assert!(y.abs() < 0.02, "contact point at y = {y}");
    }
}

/// A recycled contact acts at one point for both bodies: `centre_a + anchor_a` and
/// `centre_b + anchor_b` agree (to rounding) for two dynamic boxes, one sliding and
/// turning on the other within the recycle limits; against the fixed ground the point is
/// the moving box's own material point, carried along with it.
#[test]
fn a_recycled_contact_acts_at_one_point_for_both_bodies() {
    let mut w = World::new(SolverSettings {
        gravity: Vec2::ZERO,
        ..Default::default()
    })
    .unwrap();
    let boxed = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
    let ground = w
        .add_body(&BodyDef::new(BodyKind::Static, Transform::IDENTITY, boxed))
        .unwrap();
    let lower = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(0.2, 0.995)),
            boxed,
        ))
        .unwrap();
    let mut d = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(Vec2::new(0.0, 1.99)),
        boxed,
    );
    d.linear_velocity = Vec2::new(0.6, 0.0);
    d.angular_velocity = 0.3;
    let upper = w.add_body(&d).unwrap();
    w.step(1.0 / 60.0, 4).unwrap();
    let first = w.contact(lower, upper).unwrap().expect("touching");
    // The anchors are relative to the centres the step starts from.
    let centre = |w: &World, id: BodyId| w.body(id).unwrap().center();
    let (cl, cu) = (centre(&w, lower), centre(&w, upper));
    w.step(1.0 / 60.0, 4).unwrap();
    let c = w.contact(lower, upper).unwrap().expect("touching");
    assert_eq!(c.normal, first.normal, "recycled: same normal");
    let (ca, cb) = if c.body_a == lower.index {
        (cl, cu)
    } else {
        (cu, cl)
    };
    for p in &c.points[..c.count as usize] {
        assert!((ca + p.anchor_a).distance(cb + p.anchor_b) < 1e-5);
    }
    let g = w.contact(ground, lower).unwrap().expect("touching");
    assert!(g.count == 2);
}

/// The speculative margin grows with the pair's speed; a manifold computed with a smaller
/// margin than this step's (by more than [`MARGIN_GROWTH`]) lacks points the
/// new margin would have, and is not recycled.
#[test]
fn a_manifold_from_a_smaller_margin_is_not_recycled() {
    let (w, g, b) = resting();
    let cache = w.active_memory[0].cache.expect("cached after a step");
    let at = |margin: f32| {
        recycle(
            &cache,
            (&w.bodies[g], &w.hot[g]),
            (&w.bodies[b], &w.hot[b]),
            (true, margin),
            w.recycle_distance,
        )
        .is_some()
    };
    assert!(at(cache.margin));
    assert!(at(cache.margin + 0.9 * MARGIN_GROWTH));
    assert!(!at(cache.margin + 1.1 * MARGIN_GROWTH));
    assert!(!at(f32::NAN));
}

#[test]
fn pairs_with_a_kinematic_body_are_always_recomputed() {
    // A ball resting on a box; the box static, then kinematic and turning. The kinematic
    // pair is recomputed even with the ball unmoved: the spinner's turning bar, with its
    // contacts recycled, pushed 3 of 6 076 bodies through the ring (0 without).
    for (kind, spin, recycled) in [(BodyKind::Static, 0.0, true), (BodyKind::Kinematic, 1.0, false)] {
        let mut w = World::default();
        let ground = Shape::Polygon(Polygon::make_box(5.0, 0.5).unwrap());
        let g = w
            .add_body(&BodyDef {
                angular_velocity: spin,
                ..BodyDef::new(kind, Transform::from_translation(Vec2::new(0.0, -0.5)), ground)
            })
            .unwrap();
        let ball = Shape::circle(0.5);
        let b = w
            .add_body(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(Vec2::new(0.3, 0.49)),
                ball,
            ))
            .unwrap();
        w.step(1.0 / 60.0, 4).unwrap();
        let (g, b) = (g.index as usize, b.index as usize);
        let at = w.bodies[b].transform;
        assert_eq!(recycled_and_fresh(&w, g, b, at).0.is_some(), recycled, "{kind:?}");
    }
}

#[test]
fn large_motion_turn_or_zero_distance_is_not_recycled() {
    let (mut w, g, b) = resting();
    let start = w.bodies[b].transform;
    let moved = Transform {
        p: start.p + Vec2::new(0.06, 0.0),
        q: start.q,
    };
    assert!(recycled_and_fresh(&w, g, b, moved).0.is_none());
    // Turning by 0.1 rad moves the box's corners (reach 0.71) by 0.07 > 0.05.
    assert!(recycled_and_fresh(&w, g, b, Transform::new(start.p, 0.1))
        .0
        .is_none());
    // More than acos(0.98) ≈ 11.5° is refused even for a point-like body.
    w.hot[b].reach = 0.0;
    assert!(recycled_and_fresh(&w, g, b, Transform::new(start.p, 0.25))
        .0
        .is_none());
    assert!(recycled_and_fresh(&w, g, b, Transform::new(start.p, 0.15))
        .0
        .is_some());
    w.set_recycle_distance(0.0).unwrap();
    let tiny = Transform {
        p: start.p + Vec2::new(1e-4, 0.0),
        q: start.q,
    };
    assert!(recycled_and_fresh(&w, g, b, tiny).0.is_none());
    assert_eq!(w.set_recycle_distance(-1.0), Err(SolverError::InvalidInput));
    assert_eq!(w.set_recycle_distance(f32::NAN), Err(SolverError::InvalidInput));
    assert_eq!(
        w.set_recycle_distance(f32::INFINITY),
        Err(SolverError::InvalidInput)
    );
}

/// The constraint graph is persistent: in a pyramid a touching contact keeps its colour from
/// step to step (Box2D's `constraint_graph.c` keeps it until the contact ends), also when the
/// pyramid falls asleep and is woken, which brings its contacts back in another order (a
/// greedy colouring in pair order would then recolour most of them).
#[test]
fn touching_contacts_keep_their_colours() {
    let mut w = World::default();
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::IDENTITY,
        Shape::rect(20.0, 0.5),
    ))
    .unwrap();
    let mut top = None;
    for row in 0..10 {
        for i in 0..(10 - row) {
            let x = (i as f32 - (10 - row) as f32 * 0.5) * 1.05 + 0.5;
            let at = Transform::from_translation(Vec2::new(x, 1.0 + row as f32 * 1.0));
            top = Some(
                w.add_body(&BodyDef::new(BodyKind::Dynamic, at, Shape::rect(0.5, 0.5)))
                    .unwrap(),
            );
        }
    }
    let colours = |w: &World| -> alloc::collections::BTreeMap<u32, u8> {
        w.active
            .iter()
            .filter(|s| s.touching && !s.sensor)
            .map(|s| (s.id, s.color))
            .collect()
    };
    let mut before = alloc::collections::BTreeMap::new();
    let mut slept = false;
    for _ in 0..600 {
        w.step(1.0 / 60.0, 4).unwrap();
        if w.awake_body_count() == 0 {
            slept = true;
            break;
        }
        before = colours(&w);
    }
    assert!(slept, "the pyramid never slept");
    assert!(
        before.len() > 60 && before.values().all(|&c| c != NO_COLOR),
        "{}",
        before.len()
    );
    w.set_awake(top.unwrap(), true).unwrap();
    w.step(1.0 / 60.0, 4).unwrap();
    let now = colours(&w);
    assert_eq!(now.len(), before.len());
    let kept = before
        .iter()
        .filter(|(c, colour)| now.get(c) == Some(colour))
        .count();
    assert_eq!(kept, before.len(), "a touching contact changed colour");
    // The colouring is still proper: no two constraints of one colour share a moving body.
    let mut used = alloc::collections::BTreeSet::new();
    for s in w.active.iter().filter(|s| s.touching && s.color != NO_COLOR) {
        for body in [s.oa, s.ob] {
            if w.bodies[body as usize].inv_mass != 0.0 {
                assert!(
                    used.insert((body, s.color)),
                    "colour {} used twice on body {body}",
                    s.color
                );
            }
        }
    }
}

/// A snapshot whose contact cache claims more than two points is refused on restore (a
/// hostile snapshot with a cache count of 193 made a step index past the two points; found
/// by the `capi_snapshot` fuzz target).
#[test]
fn a_restored_contact_cache_holds_at_most_two_points() {
    let (mut w, _, _) = resting();
    let k = w
        .active_memory
        .iter()
        .position(|m| m.cache.is_some())
        .expect("a cached contact");
    let good = w.snapshot_to_vec().unwrap();
    assert!(World::restore(&good).is_ok());
    w.active_memory[k].cache.as_mut().unwrap().count = 193;
    let bad = w.snapshot_to_vec().unwrap();
    assert_eq!(World::restore(&bad).err(), Some(SnapshotError::Corrupt));
}

/// A snapshot whose contact is neither active nor parked (both indices `NONE`) is refused as
/// corrupt: the invariant check tests the contact's place before it reads the contact's sim
/// (found by `capi_snapshot` after 1 530 779 executions: the check indexed the parked store
/// with `NONE`). Both places set is refused the same way.
#[test]
fn a_restored_contact_that_is_nowhere_is_refused() {
    let (w, _, _) = resting();
    let c = w
        .contacts
        .iter()
        .position(|c| c.a != NONE && c.active_index != NONE)
        .expect("an active contact");
    assert!(World::restore(&w.snapshot_to_vec().unwrap()).is_ok());
    let mut nowhere = w.clone();
    nowhere.contacts[c].active_index = NONE;
    nowhere.contacts[c].parked = NONE;
    assert!(nowhere.check_invariants(false).is_err());
    let bad = nowhere.snapshot_to_vec().unwrap();
    assert_eq!(World::restore(&bad).err(), Some(SnapshotError::Corrupt));
    let mut both = w.clone();
    both.contacts[c].parked = 0;
    assert!(both.check_invariants(false).is_err());
}

/// A touching contact whose kept manifold was dropped (a shape added to a body moves its
/// centre of mass) and that then falls asleep is still listed with its points, computed now
/// (found by `capi_world` after 387 434 executions: it was listed with none). Checked after
/// every call, against a fresh manifold of the two shapes (hand-placed: a 1 × 1 box resting on
/// a plank, two points, normal up).
#[test]
fn contacts_whose_manifold_was_dropped_are_listed_with_their_points() {
    for on_box in [true, false] {
        let mut w = World::default();
        let at = Vec2::new(0.0, -3.0);
        let ground = w
            .add_body(&BodyDef::new(
                BodyKind::Static,
                Transform::from_translation(at),
                Shape::rect(1.5, 0.25),
            ))
            .unwrap();
        let crate_id = w
            .add_body(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(at + Vec2::new(0.0, 0.76)),
                Shape::rect(0.5, 0.5),
            ))
            .unwrap();
        w.step(1.0 / 60.0, 1).unwrap();
        // The plank-box contact (the added circle may touch too, after a step).
        let check = |w: &World, what: &str| {
            let listed: Vec<ContactEvent> = w.contacts().collect();
            assert!(
                listed.iter().all(|c| (1..=2).contains(&c.manifold.count)),
                "{what}: {listed:?}"
            );
            let main: Vec<&ContactEvent> = listed
                .iter()
                .filter(|c| c.shape_a == ground.first_shape() && c.shape_b == crate_id.first_shape())
                .collect();
            assert_eq!(main.len(), 1, "{what}: {listed:?}");
            let m = main[0].manifold;
            assert_eq!(m.count, 2, "{what}: {m:?}");
            assert!(m.normal.y > 0.999, "{what}: {m:?}");
        };
        check(&w, "after the step");
        w.add_shape(if on_box { crate_id } else { ground }, &Shape::circle(0.25))
            .unwrap();
        check(&w, "after a shape was added");
        w.set_awake(crate_id, false).unwrap();
        check(&w, "asleep");
        w.set_awake(crate_id, true).unwrap();
        check(&w, "woken");
        w.step(1.0 / 60.0, 1).unwrap();
        check(&w, "after the next step");
    }
}

/// A snapshot whose sleeping contact carries impulses for more than two points, or whose
/// parked contact's cache claims more, is refused as corrupt (found by `capi_snapshot` after
/// 4 732 666 executions: a carried count of 1 325 400 066 made the step slice past the two
/// points when the contact woke).
#[test]
fn a_restored_sleeping_contact_carries_at_most_two_points() {
    let (mut w, _, _) = resting();
    for _ in 0..240 {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    assert_eq!(w.awake_body_count(), 0, "the box fell asleep");
    let (k, carried) = w
        .sleep_impulses
        .iter()
        .enumerate()
        .find_map(|(k, c)| c.map(|c| (k, c)))
        .expect("a sleeping contact's impulses");
    assert!(World::restore(&w.snapshot_to_vec().unwrap()).is_ok());
    let mut bad = w.clone();
    bad.sleep_impulses[k] = Some(carried.with_count(1_325_400_066));
    assert_eq!(
        World::restore(&bad.snapshot_to_vec().unwrap()).err(),
        Some(SnapshotError::Corrupt)
    );
    let p = w
        .parked
        .iter()
        .position(|p| p.1.cache.is_some())
        .expect("a parked cache");
    let mut bad = w.clone();
    bad.parked[p].1.cache.as_mut().unwrap().count = 193;
    assert_eq!(
        World::restore(&bad.snapshot_to_vec().unwrap()).err(),
        Some(SnapshotError::Corrupt)
    );
}
