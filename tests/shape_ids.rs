//! Shapes with their own ids and data: a foot sensor on a player's body, per-shape friction on
//! one body (decelerations checked against hand-derived Coulomb friction), per-shape density
//! and filters, removing shapes, and ids checked against a model under random adds and
//! removes.
mod common;
use collide2d::*;
use common::{v, Rng};

const DT: f32 = 1.0 / 60.0;

fn ground(w: &mut World) -> BodyId {
    let def = BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(v(0.0, -0.5)),
        Shape::rect(50.0, 0.5),
    );
    w.add_body(&def).unwrap()
}

/// A player (a 0.5 × 1 box) with a foot sensor (a thin box under its feet, density 0): the
/// sensor reports the ground when the player lands and when it jumps off, naming the foot
/// shape; the player lands on its solid shape; the foot adds no mass.
#[test]
fn a_foot_sensor_reports_the_ground_under_a_player() {
    let mut w = World::default();
    let g = ground(&mut w);
    let player = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(v(0.0, 1.5)),
            Shape::rect(0.25, 0.5),
        ))
        .unwrap();
    let mass_before = 1.0 / w.body(player).unwrap().inv_mass;
    let foot_box = Polygon::make_offset_box(0.2, 0.05, v(0.0, -0.5), Rot::IDENTITY).unwrap();
    let mut foot = ShapeDef::new(Shape::Polygon(foot_box));
    foot.sensor = true;
    foot.material.density = 0.0;
    foot.user_data = 77;
    let foot_id = w.add_shape_def(player, &foot).unwrap();
    assert_eq!(w.shape_body(foot_id), Ok(player));
    assert_eq!(w.shape_user_data(foot_id), Ok(77));
    assert!(w.shape_def(foot_id).unwrap().sensor);
    // Density 1 × 0.5 × 1 = 0.5 kg, with or without the massless foot.
    assert!((mass_before - 0.5).abs() < 1e-6);
    assert!((1.0 / w.body(player).unwrap().inv_mass - 0.5).abs() < 1e-6);
    let mut landed = None;
    for step in 0..120 {
        w.step(DT, 4).unwrap();
        for e in w.sensor_begin_events() {
            assert_eq!((e.sensor, e.sensor_shape, e.visitor), (player, foot_id, g));
            assert_eq!(e.visitor_shape, g.first_shape());
            landed.get_or_insert(step);
        }
        // The solid shape collides; the foot does not hold the player up.
        assert!(w
            .begin_events()
            .iter()
            .all(|e| e.shape_a == g.first_shape() || e.shape_b == g.first_shape()));
    }
    assert!(landed.is_some(), "the foot never touched the ground");
    let rest = w.transform(player).unwrap().p.y;
    assert!((rest - 0.5).abs() < 0.02, "resting on its solid shape at {rest}");
    // Jump: the foot leaves the ground.
    w.set_velocity(player, v(0.0, 6.0), 0.0).unwrap();
    let mut left = false;
    for _ in 0..10 {
        w.step(DT, 4).unwrap();
        for e in w.sensor_end_events() {
            assert_eq!((e.sensor_shape, e.visitor), (foot_id, g));
            left = true;
        }
    }
    assert!(left, "the foot never left the ground");
}

/// Speed of a body sliding right on the ground after `steps` steps from `v0`.
fn slide(w: &mut World, body: BodyId, v0: f32, steps: usize) -> f32 {
    w.set_velocity(body, v(v0, 0.0), 0.0).unwrap();
    for _ in 0..steps {
        w.step(DT, 4).unwrap();
    }
    w.body(body).unwrap().linear_velocity.x
}

/// A sled of two shapes side by side, one icy (friction 0) and one rough (0.64), on ground
/// of friction 1 (gravity 10): each carries half the weight and the mixed friction is
/// `sqrt(μ · 1)`, so it decelerates at `10 · (0 + 0.8) / 2 = 4 m/s²`; with both shapes at
/// 0.64, at 8 m/s².
#[test]
fn per_shape_friction_on_one_body() {
    let mut w = World::default();
    let g = ground(&mut w);
    let mut gm = w.shape_def(g.first_shape()).unwrap().material;
    gm.friction = 1.0;
    w.set_shape_material(g.first_shape(), gm).unwrap();
    let left = Polygon::make_offset_box(0.5, 0.25, v(-0.5, 0.0), Rot::IDENTITY).unwrap();
    let right = Polygon::make_offset_box(0.5, 0.25, v(0.5, 0.0), Rot::IDENTITY).unwrap();
    let mut def = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(v(0.0, 0.25)),
        Shape::Polygon(left),
    );
    def.material.friction = 0.0;
    let sled = w.add_body(&def).unwrap();
    let mut rough = ShapeDef::new(Shape::Polygon(right));
    rough.material.friction = 0.64;
    let rough_id = w.add_shape_def(sled, &rough).unwrap();
    for _ in 0..30 {
        w.step(DT, 4).unwrap();
    }
    // 15 steps = 0.25 s at 4 m/s²: from 3 m/s to 2 m/s.
    let v1 = slide(&mut w, sled, 3.0, 15);
    assert!((v1 - 2.0).abs() < 0.1, "mixed friction: {v1}");
    // The icy shape made rough: 8 m/s², from 3 m/s to 1 m/s.
    w.set_shape_material(sled.first_shape(), rough.material).unwrap();
    let v2 = slide(&mut w, sled, 3.0, 15);
    assert!((v2 - 1.0).abs() < 0.1, "both rough: {v2}");
    // Both icy: no deceleration.
    let mut icy = rough.material;
    icy.friction = 0.0;
    w.set_shape_material(sled.first_shape(), icy).unwrap();
    w.set_shape_material(rough_id, icy).unwrap();
    let v3 = slide(&mut w, sled, 3.0, 15);
    assert!((v3 - 3.0).abs() < 0.02, "both icy: {v3}");
}

/// Per-shape density: a body of two equal boxes, one 3 times as dense, has its mass `1 + 3`
/// and its centre of mass three quarters of the way to the dense box; changing the density
/// moves them; removing the dense box leaves the light one's mass and centre.
#[test]
fn per_shape_density_and_removing_shapes_set_the_mass() {
    let mut w = World::default();
    let a = Polygon::make_offset_box(0.5, 0.5, v(-1.0, 0.0), Rot::IDENTITY).unwrap();
    let b = Polygon::make_offset_box(0.5, 0.5, v(1.0, 0.0), Rot::IDENTITY).unwrap();
    let body = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(v(0.0, 5.0)),
            Shape::Polygon(a),
        ))
        .unwrap();
    let mut heavy = ShapeDef::new(Shape::Polygon(b));
    heavy.material.density = 3.0;
    let hb = w.add_shape_def(body, &heavy).unwrap();
    let b0 = *w.body(body).unwrap();
    assert!((1.0 / b0.inv_mass - 4.0).abs() < 1e-5);
    assert!((b0.local_center.x - 0.5).abs() < 1e-6, "{:?}", b0.local_center);
    // Inertia: each unit box has I = m/6 about its centre, plus m·d² (d = 1 and 0.5 ... ):
    // light 1/6 + 1·1.5², heavy 3/6 + 3·0.5².
    let want_i = 1.0 / 6.0 + 2.25 + 0.5 + 0.75;
    assert!(
        (1.0 / b0.inv_inertia - want_i).abs() < 1e-4,
        "{}",
        1.0 / b0.inv_inertia
    );
    let mut m = heavy.material;
    m.density = 1.0;
    w.set_shape_material(hb, m).unwrap();
    let b1 = *w.body(body).unwrap();
    assert!((1.0 / b1.inv_mass - 2.0).abs() < 1e-5 && b1.local_center.x.abs() < 1e-6);
    // A density that leaves no mass is refused and changes nothing.
    let mut none = m;
    none.density = 0.0;
    assert_eq!(w.set_shape_material(body.first_shape(), none), Ok(()));
    assert_eq!(w.set_shape_material(hb, none), Err(SolverError::InvalidInput));
    assert_eq!(w.shape_def(hb).unwrap().material.density, 1.0);
    w.set_shape_material(body.first_shape(), m).unwrap();
    // Removing the second box: the first one's mass and centre.
    w.remove_shape(hb).unwrap();
    let b2 = *w.body(body).unwrap();
    assert!((1.0 / b2.inv_mass - 1.0).abs() < 1e-5 && (b2.local_center.x + 1.0).abs() < 1e-6);
    assert_eq!(w.remove_shape(hb), Err(SolverError::InvalidShapeId));
    assert_eq!(w.shape_def(hb), Err(SolverError::InvalidShapeId));
    assert_eq!(w.remove_shape(body.first_shape()), Err(SolverError::Unsupported));
    assert_eq!(
        w.shape_ids(body).unwrap().collect::<Vec<_>>(),
        vec![body.first_shape()]
    );
    w.check_invariants(true).unwrap();
}

/// A shape filtered away from the ground falls through it while its body's other shape
/// still stands on it; removing a touching shape ends its contact in the next step's events.
#[test]
fn per_shape_filters_and_removed_shapes_end_their_contacts() {
    let mut w = World::default();
    let g = ground(&mut w);
    let left = Polygon::make_offset_box(0.25, 0.25, v(-1.0, 0.0), Rot::IDENTITY).unwrap();
    let right = Polygon::make_offset_box(0.25, 0.25, v(1.0, 0.0), Rot::IDENTITY).unwrap();
    let body = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(v(0.0, 0.25)),
            Shape::Polygon(left),
        ))
        .unwrap();
    let r = w.add_shape(body, &Shape::Polygon(right)).unwrap();
    for _ in 0..30 {
        w.step(DT, 4).unwrap();
    }
    assert_eq!(w.contact_count(), 2);
    // The right shape no longer collides with the ground's category: the body tips over it.
    let mut f = Filter::DEFAULT;
    f.mask_bits = !1;
    w.set_shape_filter(r, f).unwrap();
    w.step(DT, 4).unwrap();
    let ends = w.end_events().to_vec();
    assert_eq!(ends.len(), 1);
    assert_eq!((ends[0].body_a, ends[0].body_b), (g.min(body), g.max(body)));
    assert!(ends[0].shape_a == r || ends[0].shape_b == r);
    for _ in 0..60 {
        w.step(DT, 4).unwrap();
    }
    let tilt = w.transform(body).unwrap().q.angle();
    assert!(tilt < -0.3, "the unsupported right side fell: angle {tilt}");
    assert_eq!(w.shape_def(r).unwrap().filter, f);
    // Removing the left shape (the first) is refused; removing the right one works.
    w.remove_shape(r).unwrap();
    w.check_invariants(true).unwrap();
}

/// Random adds and removes of bodies and shapes against a model: every live shape id is
/// found (its body, its user data, in its body's list) and every removed one is refused.
#[test]
fn shape_ids_follow_a_model_under_random_adds_and_removes() {
    let mut rng = Rng(11);
    let mut w = World::default();
    // (shape id, body id, user data), and the removed shape ids.
    let mut live: Vec<(ShapeId, BodyId, u64)> = Vec::new();
    let mut dead: Vec<ShapeId> = Vec::new();
    let mut bodies: Vec<BodyId> = Vec::new();
    for op in 0..3000u64 {
        match rng.index(5) {
            0 => {
                let kind = [BodyKind::Static, BodyKind::Kinematic, BodyKind::Dynamic][rng.index(3)];
                let mut def = BodyDef::new(
                    kind,
                    Transform::from_translation(rng.vec(50.0)),
                    Shape::rect(0.5, 0.5),
                );
                def.user_data = op;
                let b = w.add_body(&def).unwrap();
                bodies.push(b);
                live.push((b.first_shape(), b, op));
            }
            1 | 2 if !bodies.is_empty() => {
                let b = bodies[rng.index(bodies.len())];
                let mut def = ShapeDef::new(Shape::circle(0.3));
                def.user_data = op;
                def.sensor = rng.index(4) == 0;
                let s = w.add_shape_def(b, &def).unwrap();
                live.push((s, b, op));
            }
            3 if !live.is_empty() => {
                let k = rng.index(live.len());
                let (s, b, _) = live[k];
                if s == b.first_shape() {
                    assert_eq!(w.remove_shape(s), Err(SolverError::Unsupported));
                } else {
                    w.remove_shape(s).unwrap();
                    live.swap_remove(k);
                    dead.push(s);
                }
            }
            4 if !bodies.is_empty() => {
                let b = bodies.swap_remove(rng.index(bodies.len()));
                w.remove_body(b).unwrap();
                live.retain(|&(s, owner, _)| {
                    if owner == b {
                        dead.push(s);
                    }
                    owner != b
                });
            }
            _ => {}
        }
        if op % 50 == 0 {
            w.step(DT, 4).unwrap();
        }
        if op % 97 == 0 {
            for &(s, b, data) in &live {
                assert_eq!(w.shape_body(s), Ok(b));
                assert_eq!(w.shape_user_data(s), Ok(data));
                assert!(w.shape_ids(b).unwrap().any(|x| x == s));
            }
            for &s in &dead {
                assert_eq!(w.shape_body(s), Err(SolverError::InvalidShapeId), "{s:?}");
                assert_eq!(w.set_shape_user_data(s, 1), Err(SolverError::InvalidShapeId));
            }
            for &b in &bodies {
                let mut want: Vec<ShapeId> = live.iter().filter(|x| x.1 == b).map(|x| x.0).collect();
                let mut got: Vec<ShapeId> = w.shape_ids(b).unwrap().collect();
                want.sort();
                got.sort();
                assert_eq!(got, want);
            }
            w.check_invariants(false).unwrap();
        }
    }
}

/// Ids carry their world: bodies and shapes built the same way in two worlds have the same
/// slots but ids that only their own world accepts (an id of world 2 used in world 1 is
/// `InvalidBody` / `InvalidShapeId`, never world 1's object in that slot), from Rust and C.
#[test]
fn ids_of_another_world_are_refused() {
    let make = || {
        let mut w = World::default();
        let g = ground(&mut w);
        let b = w
            .add_body(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(v(0.0, 2.0)),
                Shape::rect(0.5, 0.5),
            ))
            .unwrap();
        let s = w.add_shape(b, &Shape::circle(0.2)).unwrap();
        (w, g, b, s)
    };
    let (mut w1, g1, b1, s1) = make();
    let (w2, g2, b2, s2) = make();
    assert_eq!((g1.index, b1.index, s1.index), (g2.index, b2.index, s2.index));
    assert!(g1 != g2 && b1 != b2 && s1 != s2);
    assert_eq!(w1.body(g2).err(), Some(SolverError::InvalidBody));
    assert_eq!(w1.remove_body(b2), Err(SolverError::InvalidBody));
    assert_eq!(w1.shape_def(s2).err(), Some(SolverError::InvalidShapeId));
    assert_eq!(w1.remove_shape(s2), Err(SolverError::InvalidShapeId));
    assert_eq!(w1.shape_ids(b2).err(), Some(SolverError::InvalidBody));
    assert!(w2.body(g2).is_ok() && w1.body(g1).is_ok());
    // Through C the same.
    #[cfg(feature = "capi")]
    {
        let mut out = collide2d::solver::Body::new_static(Transform::IDENTITY);
        // SAFETY: a live world and a writable body.
        let status = collide2d::capi::lend_world(&mut w1, |w| unsafe {
            collide2d::capi::c2d_world_get_body(w, g2, &mut out)
        });
        assert_eq!(status, Some(collide2d::capi::Status::InvalidBody));
    }
    // Many removals and re-adds in one slot: a stale id stays refused.
    let mut stale = b1;
    for _ in 0..1000 {
        w1.remove_body(stale).unwrap();
        let fresh = w1
            .add_body(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::IDENTITY,
                Shape::circle(0.5),
            ))
            .unwrap();
        assert_eq!(fresh.index, b1.index);
        assert_eq!(w1.body(b1).err(), Some(SolverError::InvalidBody));
        stale = fresh;
    }
}

/// Bodies, shapes and chains added and removed at random in two worlds, against a model: every
/// live id is found in its world and refused by the other (a foreign id names nothing there,
/// though the other world has live objects in the same slots), and every removed id is refused
/// by both, for bodies, shapes and chains.
#[test]
fn ids_of_two_worlds_follow_a_model() {
    #[derive(Default)]
    struct Model {
        bodies: Vec<BodyId>,
        /// (shape, its body)
        shapes: Vec<(ShapeId, BodyId)>,
        /// (chain, its body)
        chains: Vec<(ChainId, BodyId)>,
        dead_bodies: Vec<BodyId>,
        dead_shapes: Vec<ShapeId>,
        dead_chains: Vec<ChainId>,
    }
    impl Model {
        /// Forgets body `b` and its shapes and chain, as removing the body does.
        fn remove_body(&mut self, b: BodyId) {
            self.bodies.retain(|&x| x != b);
            self.dead_bodies.push(b);
            let (gone, kept): (Vec<(ShapeId, BodyId)>, Vec<_>) = self.shapes.iter().partition(|s| s.1 == b);
            self.dead_shapes.extend(gone.iter().map(|s| s.0));
            self.shapes = kept;
            let (gone, kept): (Vec<(ChainId, BodyId)>, Vec<_>) = self.chains.iter().partition(|c| c.1 == b);
            self.dead_chains.extend(gone.iter().map(|c| c.0));
            self.chains = kept;
        }
    }
    let mut rng = Rng(29);
    let mut worlds = [World::default(), World::default()];
    let mut models = [Model::default(), Model::default()];
    let points: Vec<Vec2> = (0..6).map(|i| Vec2::new(i as f32, (i % 2) as f32)).collect();
    let line = Chain::open(&points).unwrap();
    for op in 0..4000u64 {
        let k = rng.index(2);
        let (w, m) = (&mut worlds[k], &mut models[k]);
        match rng.index(7) {
            0 | 1 => {
                let kind = [BodyKind::Static, BodyKind::Dynamic][rng.index(2)];
                let at = Transform::from_translation(rng.vec(50.0));
                let b = w
                    .add_body(&BodyDef::new(kind, at, Shape::rect(0.5, 0.5)))
                    .unwrap();
                m.bodies.push(b);
                m.shapes.push((b.first_shape(), b));
            }
            2 => {
                let def = ChainDef {
                    transform: Transform::from_translation(rng.vec(50.0)),
                    user_data: op,
                    ..ChainDef::new(&line)
                };
                let c = w.add_chain(&def).unwrap();
                let b = w.chain_body(c).unwrap();
                m.bodies.push(b);
                m.chains.push((c, b));
                for s in w.chain_shapes(c).unwrap() {
                    assert_eq!(w.shape_user_data(s), Ok(op));
                    m.shapes.push((s, b));
                }
            }
            3 if !m.bodies.is_empty() => {
                let b = m.bodies[rng.index(m.bodies.len())];
                if m.chains.iter().all(|c| c.1 != b) {
                    let s = w.add_shape(b, &Shape::circle(0.2)).unwrap();
                    m.shapes.push((s, b));
                }
            }
            4 if !m.shapes.is_empty() => {
                let i = rng.index(m.shapes.len());
                let (s, b) = m.shapes[i];
                if s != b.first_shape() {
                    w.remove_shape(s).unwrap();
                    m.shapes.swap_remove(i);
                    m.dead_shapes.push(s);
                }
            }
            5 if !m.chains.is_empty() => {
                let (c, b) = m.chains[rng.index(m.chains.len())];
                w.remove_chain(c).unwrap();
                m.remove_body(b);
            }
            6 if !m.bodies.is_empty() => {
                let b = m.bodies[rng.index(m.bodies.len())];
                w.remove_body(b).unwrap();
                m.remove_body(b);
            }
            _ => {}
        }
        if op % 100 == 0 {
            w.step(DT, 4).unwrap();
        }
        if op % 131 == 0 {
            for k in 0..2 {
                let (w, other, m) = (&worlds[k], &worlds[1 - k], &models[k]);
                for &b in &m.bodies {
                    assert!(w.body(b).is_ok());
                    assert_eq!(other.body(b).err(), Some(SolverError::InvalidBody));
                }
                for &(s, b) in &m.shapes {
                    assert_eq!(w.shape_body(s), Ok(b));
                    assert_eq!(other.shape_body(s), Err(SolverError::InvalidShapeId));
                }
                for &(c, b) in &m.chains {
                    assert_eq!(w.chain_body(c), Ok(b));
                    let segments = m.shapes.iter().filter(|s| s.1 == b).count();
                    assert_eq!(w.chain_shapes(c).unwrap().count(), segments);
                    assert_eq!(other.chain_body(c), Err(SolverError::InvalidChainId));
                }
                for &b in &m.dead_bodies {
                    assert_eq!(w.body(b).err(), Some(SolverError::InvalidBody));
                    assert_eq!(other.body(b).err(), Some(SolverError::InvalidBody));
                }
                for &s in &m.dead_shapes {
                    assert_eq!(w.shape_body(s), Err(SolverError::InvalidShapeId));
                    assert_eq!(other.shape_body(s), Err(SolverError::InvalidShapeId));
                }
                for &c in &m.dead_chains {
                    assert_eq!(w.chain_body(c), Err(SolverError::InvalidChainId));
                    assert_eq!(other.chain_body(c), Err(SolverError::InvalidChainId));
                }
                // A body that is not a chain is no chain.
                for &b in &m.bodies {
                    if m.chains.iter().all(|c| c.1 != b) {
                        let as_chain = ChainId {
                            index: b.index,
                            generation: b.generation,
                        };
                        assert_eq!(w.chain_body(as_chain), Err(SolverError::InvalidChainId));
                    }
                }
                w.check_invariants(false).unwrap();
            }
            let counts = [worlds[0].body_count(), worlds[1].body_count()];
            assert_eq!(counts, [models[0].bodies.len(), models[1].bodies.len()]);
        }
    }
    // Both worlds used the same slots: foreign ids did collide with live slots.
    assert!(models.iter().all(|m| m.bodies.len() > 20 && m.chains.len() > 2));
}
