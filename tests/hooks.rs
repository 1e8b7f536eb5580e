//! The step's hooks (`World::step_with_hooks`, `ContactHooks`): a one-way platform through
//! the pre-solve hook, a custom filter that lets a ghost fall through the ground, events of a
//! contact the pre-solve hook disables, and hooks that answer "yes" changing nothing.
#![cfg(feature = "solver")]
use collide2d::*;

const DT: f32 = 1.0 / 60.0;

/// A static platform (a box 4 wide, 0.2 thick, top at y = 3) and a dynamic box (half extent
/// 0.25) at `start`, moving at `velocity`. Returns (world, platform shape, box body).
fn platform_scene(start: Vec2, velocity: Vec2) -> (World, ShapeId, BodyId) {
    let mut w = World::default();
    let def = BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(Vec2::new(0.0, 2.9)),
        Shape::rect(2.0, 0.1),
    );
    let platform = w.add_body(&def).unwrap().first_shape();
    let mut def = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(start),
        Shape::rect(0.25, 0.25),
    );
    def.linear_velocity = velocity;
    let body = w.add_body(&def).unwrap();
    (w, platform, body)
}

/// Box2D's one-way platform rule (its platformer sample): the contact is solved only while
/// its normal, taken from the platform towards the other shape, points up.
struct OneWay {
    platform: ShapeId,
    calls: usize,
    /// Every normal seen, oriented from the platform to the other shape.
    normals: Vec<Vec2>,
}

impl ContactHooks for OneWay {
    fn pre_solve(&mut self, world: &World, a: ShapeId, b: ShapeId, m: &Manifold) -> bool {
        self.calls += 1;
        assert!(m.count > 0 && m.count <= 2);
        // The world is readable here: both shapes are live.
        assert!(world.shape_body(a).is_ok() && world.shape_body(b).is_ok());
        let sign = if a == self.platform {
            1.0
        } else if b == self.platform {
            -1.0
        } else {
            return true;
        };
        let n = m.normal * sign;
        self.normals.push(n);
        n.y > 0.7
    }
}

/// A box thrown up from below passes through the platform and then lands on it; without the
/// hook the same throw stops under the platform.
#[test]
fn one_way_platform_through_the_pre_solve_hook() {
    for speed in [6.0f32, 8.0, 10.0, 14.0] {
        let (mut w, platform, body) = platform_scene(Vec2::new(0.0, 1.5), Vec2::new(0.0, speed));
        let mut hooks = OneWay {
            platform,
            calls: 0,
            normals: Vec::new(),
        };
        let mut highest = f32::MIN;
        for _ in 0..240 {
            w.step_with_hooks(DT, 4, &mut hooks).unwrap();
            highest = highest.max(w.position(body).unwrap().y);
        }
        let rest = w.position(body).unwrap();
        // Resting on the top (3.0) with its centre 0.25 above; the throw went higher first
        // (v²/2g above the start, 1.8 m at 6 m/s).
        assert!((rest.y - 3.25).abs() < 0.02, "speed {speed}: rests at {rest:?}");
        assert!(highest > 3.25 + 0.05, "speed {speed}: highest {highest}");
        assert!(w.linear_velocity(body).unwrap().length() < 0.05);
        assert!(
            hooks.calls > 0 && hooks.normals.iter().any(|n| n.y < -0.7),
            "speed {speed}"
        );
        assert!(hooks.normals.iter().any(|n| n.y > 0.7), "speed {speed}");
        // The same throw without the hook hits the underside.
        let (mut w, _, body) = platform_scene(Vec2::new(0.0, 1.5), Vec2::new(0.0, speed));
        let mut highest = f32::MIN;
        for _ in 0..240 {
            w.step(DT, 4).unwrap();
            highest = highest.max(w.position(body).unwrap().y);
        }
        assert!(
            highest < 2.8 - 0.25 + 0.02,
            "speed {speed}: without the hook it reached {highest}"
        );
    }
    // Dropped from above, the platform holds.
    let (mut w, platform, body) = platform_scene(Vec2::new(0.5, 5.0), Vec2::ZERO);
    let mut hooks = OneWay {
        platform,
        calls: 0,
        normals: Vec::new(),
    };
    for _ in 0..180 {
        w.step_with_hooks(DT, 4, &mut hooks).unwrap();
    }
    assert!((w.position(body).unwrap().y - 3.25).abs() < 0.02);
    assert!(hooks.normals.iter().all(|n| n.y > 0.7));
}

/// A filter that refuses pairs with a ghost shape (user data 1) and counts its calls.
struct Ghosts {
    asked: usize,
    asked_about_ghost: usize,
}

impl ContactHooks for Ghosts {
    fn should_collide(&mut self, world: &World, a: ShapeId, b: ShapeId) -> bool {
        self.asked += 1;
        let ghost = |s| world.shape_user_data(s) == Ok(1);
        if ghost(a) || ghost(b) {
            self.asked_about_ghost += 1;
            return false;
        }
        true
    }
}

/// The ghost falls through the ground and never begins a contact; its twin lands. The refused
/// pair is asked again after `set_shape_filter`.
#[test]
fn custom_filter_lets_a_ghost_fall_through() {
    let mut w = World::default();
    let ground = BodyDef::new(BodyKind::Static, Transform::IDENTITY, Shape::rect(10.0, 0.5));
    let ground = w.add_body(&ground).unwrap();
    let at = |x: f32| Transform::from_translation(Vec2::new(x, 2.0));
    let ghost = w
        .add_body(&BodyDef {
            user_data: 1,
            ..BodyDef::new(BodyKind::Dynamic, at(-2.0), Shape::rect(0.25, 0.25))
        })
        .unwrap();
    let solid = w
        .add_body(&BodyDef::new(BodyKind::Dynamic, at(2.0), Shape::rect(0.25, 0.25)))
        .unwrap();
    // A shape's user data starts as its body's.
    assert_eq!(w.shape_user_data(ghost.first_shape()), Ok(1));
    let mut hooks = Ghosts {
        asked: 0,
        asked_about_ghost: 0,
    };
    let mut ghost_began = 0;
    for k in 0..90 {
        w.step_with_hooks(DT, 4, &mut hooks).unwrap();
        ghost_began += w
            .begin_events()
            .iter()
            .filter(|e| e.body_a == ghost || e.body_b == ghost)
            .count();
        if k == 35 {
            // While it passes through the ground: refiltering asks again (and is refused again).
            let before = hooks.asked_about_ghost;
            assert!(before > 0 && w.position(ghost).unwrap().y.abs() < 0.75);
            w.set_shape_filter(ghost.first_shape(), Filter::DEFAULT).unwrap();
            w.step_with_hooks(DT, 4, &mut hooks).unwrap();
            assert!(hooks.asked_about_ghost > before, "not asked again");
        }
    }
    assert_eq!(ghost_began, 0);
    assert!(hooks.asked_about_ghost >= 1 && hooks.asked > hooks.asked_about_ghost);
    assert!(w.position(ghost).unwrap().y < -5.0, "the ghost fell through");
    assert!(
        (w.position(solid).unwrap().y - 0.75).abs() < 0.02,
        "its twin landed"
    );
    assert!(w.body(ground).is_ok());
}

/// Solves every contact until `off_after` calls, then none.
struct Switch {
    calls: usize,
    off_after: usize,
}

impl ContactHooks for Switch {
    fn pre_solve(&mut self, _: &World, _: ShapeId, _: ShapeId, _: &Manifold) -> bool {
        self.calls += 1;
        self.calls <= self.off_after
    }
}

/// A contact the hook disables counts as not touching: it ends with one end event, and the
/// box falls through the floor it rested on.
#[test]
fn a_disabled_contact_ends_and_stops_holding() {
    let (mut w, _, body) = platform_scene(Vec2::new(0.0, 3.3), Vec2::ZERO);
    let mut hooks = Switch {
        calls: 0,
        off_after: usize::MAX,
    };
    let (mut begins, mut ends) = (0, 0);
    for _ in 0..60 {
        w.step_with_hooks(DT, 4, &mut hooks).unwrap();
        begins += w.begin_events().len();
        ends += w.end_events().len();
    }
    assert_eq!((begins, ends), (1, 0));
    assert!((w.position(body).unwrap().y - 3.25).abs() < 0.02);
    // The box is asleep by now: sleeping contacts are not asked (their last answer stands),
    // so the game wakes the body when its rule changes.
    assert!(!w.is_awake(body).unwrap());
    let asked = hooks.calls;
    w.step_with_hooks(DT, 4, &mut hooks).unwrap();
    assert_eq!(hooks.calls, asked);
    w.set_awake(body, true).unwrap();
    hooks.off_after = hooks.calls;
    w.step_with_hooks(DT, 4, &mut hooks).unwrap();
    assert_eq!((w.begin_events().len(), w.end_events().len()), (0, 1));
    for _ in 0..60 {
        w.step_with_hooks(DT, 4, &mut hooks).unwrap();
        assert!(w.begin_events().is_empty());
    }
    assert!(w.position(body).unwrap().y < 2.0, "fell through");
}

/// Hooks that say yes to everything step exactly as no hooks (bit for bit), in a pile with
/// sleeping, recycling and many pairs.
#[test]
fn hooks_saying_yes_change_nothing() {
    struct Yes(usize, usize);
    impl ContactHooks for Yes {
        fn should_collide(&mut self, _: &World, _: ShapeId, _: ShapeId) -> bool {
            self.0 += 1;
            true
        }
        fn pre_solve(&mut self, _: &World, _: ShapeId, _: ShapeId, _: &Manifold) -> bool {
            self.1 += 1;
            true
        }
    }
    let build = || {
        let mut w = World::default();
        let ground = BodyDef::new(BodyKind::Static, Transform::IDENTITY, Shape::rect(20.0, 0.5));
        w.add_body(&ground).unwrap();
        let ids: Vec<BodyId> = (0..60)
            .map(|i| {
                let at = Transform::new(
                    Vec2::new((i % 10) as f32 * 0.9 - 4.5, 1.0 + (i / 10) as f32),
                    0.1 * i as f32,
                );
                let shape = if i % 3 == 0 {
                    Shape::circle(0.3)
                } else {
                    Shape::rect(0.3, 0.2)
                };
                w.add_body(&BodyDef::new(BodyKind::Dynamic, at, shape)).unwrap()
            })
            .collect();
        (w, ids)
    };
    let (mut plain, ids) = build();
    let (mut hooked, hooked_ids) = build();
    let mut yes = Yes(0, 0);
    for _ in 0..300 {
        plain.step(DT, 4).unwrap();
        hooked.step_with_hooks(DT, 4, &mut yes).unwrap();
    }
    for (&id, &twin) in ids.iter().zip(&hooked_ids) {
        assert_eq!(plain.body(id).unwrap(), hooked.body(twin).unwrap());
    }
    assert!(yes.0 > 60 && yes.1 > 1000, "{} {}", yes.0, yes.1);
    // `()` is the no-hooks value.
    plain.step_with_hooks(DT, 4, &mut ()).unwrap();
    hooked.step(DT, 4).unwrap();
    for (&id, &twin) in ids.iter().zip(&hooked_ids) {
        assert_eq!(plain.body(id).unwrap(), hooked.body(twin).unwrap());
    }
}
