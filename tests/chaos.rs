//! Chaos: seeded random World operations with hostile values — NaN, infinities, 1e19 …
//! `f32::MAX`, denormals, hand-filled shapes of random bits, stale ids, out-of-range steps —
//! mixed with ordinary ones. Every operation runs under `catch_unwind`; after each the world's
//! invariants must hold, and after each step every live body must be finite. The operations
//! cover bodies, extra shapes (definitions, removal, filter, sensor and material setters),
//! chains, forces, torques and impulses at a point, settings, queries, the mover pushing
//! bodies, and ids of bodies, shapes and chains that were removed or that another `World`
//! gave (every such id must be refused).
//!
//! Counted and printed: operations, refused (an error returned), accepted-bad (an input the
//! docs say is refused, accepted: must be 0), panics (must be 0), non-finite bodies after a
//! step (must be 0), and bodies frozen by containment (listed in `World::fault_events` after
//! a step; counted and printed only). CI runs six seeds of `CHAOS_OPS` (default 1500)
//! operations each; `CHAOS_OPS=10000 cargo test --release --features solver --test chaos --
//! --nocapture` is the long run; `CHAOS_DEBUG=1` prints every refusal of an input the test
//! counts as legal (the door may refuse more than it counts, e.g. an impulse pushing a body
//! past the speed limit) and every bad input accepted.
mod common;
use collide2d::world::limits;
use collide2d::*;
use common::{v, Rng};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A float: ordinary two times in three, otherwise one of the values that break arithmetic.
fn hostile(rng: &mut Rng, ordinary: f32) -> f32 {
    match rng.index(24) {
        0 => f32::NAN,
        1 => f32::INFINITY,
        2 => -f32::INFINITY,
        3 => f32::MAX,
        4 => 1.0e19,
        5 => -1.0e30,
        6 => 1.0e-40, // denormal
        7 => 2.0e6,   // finite, beyond the world's extent
        _ => ordinary,
    }
}

/// [`hostile`] with an ordinary value drawn from `lo..hi`.
fn hostile_in(rng: &mut Rng, lo: f32, hi: f32) -> f32 {
    let ordinary = rng.range(lo, hi);
    hostile(rng, ordinary)
}

/// `|x| <= bound`, false for NaN.
fn within(x: f32, bound: f32) -> bool {
    x.abs() <= bound
}

/// Whether `x` is what the door accepts for a coordinate-like value.
fn fine(x: f32) -> bool {
    x.is_finite() && x.abs() <= limits::MAX_COORDINATE
}

/// A shape, and whether the world must refuse it: a made one, or one of random bits.
fn shape(rng: &mut Rng) -> (Shape, bool) {
    match rng.index(9) {
        0 => (Shape::rect(rng.range(0.1, 2.0), rng.range(0.1, 2.0)), false),
        1 => (Shape::circle(rng.range(0.1, 1.0)), false),
        2 => (
            Shape::capsule(v(-0.5, 0.0), v(0.5, 0.0), rng.range(0.05, 0.5)),
            false,
        ),
        _ => {
            // Random bits with a valid tag: the world must take it only if its constructors
            // would have made it.
            let mut bytes = [0u8; core::mem::size_of::<Shape>()];
            for b in bytes.iter_mut() {
                *b = rng.next_u64() as u8;
            }
            let tag = (rng.index(4) as u32).to_ne_bytes();
            bytes[..4].copy_from_slice(&tag);
            // SAFETY (test): the tag names a variant and every payload field is plain data.
            let s: Shape = unsafe { core::ptr::read_unaligned(bytes.as_ptr() as *const Shape) };
            let bad = s.validate().is_err() || !shape_within(&s);
            (s, bad)
        }
    }
}

/// Whether a valid shape's points and radius are within the world's extent.
fn shape_within(s: &Shape) -> bool {
    let pt = |p: Vec2| fine(p.x) && fine(p.y);
    match s {
        Shape::Circle(c) => pt(c.center) && c.radius <= limits::MAX_COORDINATE,
        Shape::Capsule(c) => pt(c.center1) && pt(c.center2) && c.radius <= limits::MAX_COORDINATE,
        Shape::Polygon(p) => {
            p.vertices[..p.len()].iter().all(|&q| pt(q)) && p.radius <= limits::MAX_COORDINATE
        }
        Shape::ChainSegment(c) => [c.ghost1, c.point1, c.point2, c.ghost2].into_iter().all(pt),
    }
}

/// A material, and whether the world must refuse it (a coefficient negative, NaN or beyond
/// its bound).
fn material(rng: &mut Rng) -> (Material, bool) {
    let m = Material {
        density: hostile_in(rng, 0.1, 5.0),
        friction: hostile_in(rng, 0.0, 1.0),
        restitution: hostile_in(rng, 0.0, 1.0),
    };
    let coefficient = |x: f32, bound: f32| x >= 0.0 && x <= bound;
    let good = coefficient(m.density, limits::MAX_DENSITY)
        && coefficient(m.friction, limits::MAX_FRICTION)
        && coefficient(m.restitution, limits::MAX_RESTITUTION);
    (m, !good)
}

/// A filter of random bits (every filter is valid).
fn filter(rng: &mut Rng) -> Filter {
    Filter {
        category_bits: rng.next_u64(),
        mask_bits: rng.next_u64() | 1,
        group_index: rng.index(5) as i32 - 2,
    }
}

/// Ids another `World` gave: a body, its first shape, an added shape and a chain. Every call
/// on this world must refuse them.
struct Foreign {
    body: BodyId,
    shapes: [ShapeId; 2],
    chain: ChainId,
}

impl Foreign {
    fn new() -> Foreign {
        let mut other = World::default();
        let def = BodyDef::new(BodyKind::Dynamic, Transform::IDENTITY, Shape::rect(0.5, 0.5));
        let body = other.add_body(&def).unwrap();
        let added = other.add_shape(body, &Shape::circle(0.25)).unwrap();
        let chain = Chain::open(&[v(-5.0, 0.0), v(0.0, -1.0), v(5.0, 0.0)]).unwrap();
        let chain = other.add_chain(&ChainDef::new(&chain)).unwrap();
        Foreign {
            body,
            shapes: [body.first_shape(), added],
            chain,
        }
    }
}

/// The ids the run made: live and removed bodies, added shapes and chains (a chain's body is
/// among the bodies), and another world's.
struct Ids {
    bodies: Vec<BodyId>,
    dead: Vec<BodyId>,
    shapes: Vec<ShapeId>,
    dead_shapes: Vec<ShapeId>,
    chains: Vec<ChainId>,
    dead_chains: Vec<ChainId>,
    foreign: Foreign,
}

impl Ids {
    /// A body id and whether it is stale or foreign (so must be refused).
    fn body(&self, rng: &mut Rng) -> (BodyId, bool) {
        match rng.index(16) {
            0 => (self.foreign.body, true),
            1 | 2 if !self.dead.is_empty() => (self.dead[rng.index(self.dead.len())], true),
            _ if self.bodies.is_empty() => (BodyId::default(), true),
            _ => (self.bodies[rng.index(self.bodies.len())], false),
        }
    }

    /// A shape id (an added shape or a body's first shape) and whether it is stale or foreign.
    fn shape(&mut self, rng: &mut Rng) -> (ShapeId, bool) {
        match rng.index(16) {
            0 => (self.foreign.shapes[rng.index(2)], true),
            1 | 2 if !self.dead_shapes.is_empty() => {
                (self.dead_shapes[rng.index(self.dead_shapes.len())], true)
            }
            3..=9 if !self.shapes.is_empty() => (self.shapes[rng.index(self.shapes.len())], false),
            _ => {
                let (body, stale) = self.body(rng);
                (body.first_shape(), stale)
            }
        }
    }

    /// A chain id and whether it is stale or foreign.
    fn chain(&self, rng: &mut Rng) -> (ChainId, bool) {
        match rng.index(8) {
            0 => (self.foreign.chain, true),
            1 if !self.dead_chains.is_empty() => (self.dead_chains[rng.index(self.dead_chains.len())], true),
            _ if self.chains.is_empty() => (ChainId::default(), true),
            _ => (self.chains[rng.index(self.chains.len())], false),
        }
    }

    /// Removes `id` through `remove` (a body's or a chain's removal); on success the body, its
    /// shapes and its chain (if it is one) are stale from then on.
    fn remove_body(
        &mut self,
        w: &mut World,
        id: BodyId,
        remove: impl FnOnce(&mut World) -> Result<(), SolverError>,
    ) -> Result<(), SolverError> {
        let owned: Vec<ShapeId> = w.shape_ids(id).map(|s| s.collect()).unwrap_or_default();
        remove(w)?;
        self.bodies.retain(|&b| b != id);
        self.dead.push(id);
        self.shapes.retain(|s| !owned.contains(s));
        self.dead_shapes.extend(owned);
        let chain = ChainId {
            index: id.index,
            generation: id.generation,
        };
        if let Some(k) = self.chains.iter().position(|&c| c == chain) {
            self.dead_chains.push(self.chains.swap_remove(k));
        }
        Ok(())
    }
}

#[derive(Default, Debug)]
struct Figures {
    operations: usize,
    refused: usize,
    accepted_bad: usize,
    panics: usize,
    non_finite: usize,
    /// Bodies listed in `World::fault_events` after a step (stopped by containment).
    frozen: usize,
}

fn chaos(seed: u64, operations: usize) -> Figures {
    let mut rng = Rng(seed);
    let mut w = World::default();
    let mut ids = Ids {
        bodies: vec![],
        dead: vec![],
        shapes: vec![],
        dead_shapes: vec![],
        chains: vec![],
        dead_chains: vec![],
        foreign: Foreign::new(),
    };
    let mut f = Figures::default();
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::IDENTITY,
        Shape::rect(20.0, 0.5),
    ))
    .unwrap();
    for _ in 0..operations {
        f.operations += 1;
        let op = rng.index(24);
        // (result, whether the input was one the docs say is refused)
        let outcome = catch_unwind(AssertUnwindSafe(|| -> (Result<(), SolverError>, bool) {
            match op {
                0 | 1 => {
                    let (s, bad_shape) = shape(&mut rng);
                    let kind = [BodyKind::Static, BodyKind::Kinematic, BodyKind::Dynamic][rng.index(3)];
                    let (x, y) = (hostile_in(&mut rng, -15.0, 15.0), hostile_in(&mut rng, 1.0, 20.0));
                    let mut def = BodyDef::new(kind, Transform::from_translation(v(x, y)), s);
                    let (vx, gs) = (hostile_in(&mut rng, -5.0, 5.0), hostile(&mut rng, 1.0));
                    def.linear_velocity = v(vx, 0.0);
                    def.gravity_scale = gs;
                    let chain_on_dynamic = matches!(s, Shape::ChainSegment(_)) && kind == BodyKind::Dynamic;
                    let bad = bad_shape
                        || !fine(x)
                        || !fine(y)
                        || !within(vx, w.settings().max_linear_speed)
                        || !within(gs, limits::MAX_GRAVITY_SCALE)
                        || chain_on_dynamic;
                    match w.add_body(&def) {
                        Ok(id) => {
                            ids.bodies.push(id);
                            (Ok(()), bad)
                        }
                        Err(e) => (Err(e), bad),
                    }
                }
                2 => {
                    let (id, stale) = ids.body(&mut rng);
                    let (s, bad_shape) = shape(&mut rng);
                    match w.add_shape(id, &s) {
                        Ok(shape) => {
                            ids.shapes.push(shape);
                            (Ok(()), stale || bad_shape)
                        }
                        Err(e) => (Err(e), stale || bad_shape),
                    }
                }
                3 => {
                    let (id, stale) = ids.body(&mut rng);
                    (ids.remove_body(&mut w, id, |w| w.remove_body(id)), stale)
                }
                4 => {
                    let (id, stale) = ids.body(&mut rng);
                    let (vx, om) = (hostile_in(&mut rng, -10.0, 10.0), hostile(&mut rng, 1.0));
                    let bad = stale
                        || !within(vx, w.settings().max_linear_speed)
                        || !within(om, limits::MAX_ANGULAR_SPEED);
                    (w.set_velocity(id, v(vx, 0.0), om), bad)
                }
                5 => {
                    let (id, stale) = ids.body(&mut rng);
                    let (x, y) = (hostile_in(&mut rng, -15.0, 15.0), hostile_in(&mut rng, 1.0, 20.0));
                    let bad = stale || !fine(x) || !fine(y);
                    (w.set_transform(id, Transform::from_translation(v(x, y))), bad)
                }
                6 => {
                    let (id, stale) = ids.body(&mut rng);
                    let s = hostile_in(&mut rng, -2.0, 2.0);
                    (
                        w.set_gravity_scale(id, s),
                        stale || !within(s, limits::MAX_GRAVITY_SCALE),
                    )
                }
                7 => {
                    let (id, stale) = ids.body(&mut rng);
                    let j = hostile_in(&mut rng, -5.0, 5.0);
                    // Refused when not finite or when it would exceed the speed limits.
                    let r = w.apply_angular_impulse(id, j);
                    (r, stale || !j.is_finite())
                }
                8 => {
                    let (id, stale) = ids.body(&mut rng);
                    let fx = hostile_in(&mut rng, -50.0, 50.0);
                    let p = hostile(&mut rng, 0.0);
                    (
                        w.apply_force(id, v(fx, 0.0), v(p, 0.0)),
                        stale || !fx.is_finite() || !p.is_finite(),
                    )
                }
                9 => {
                    let (id, stale) = ids.body(&mut rng);
                    let (a, b) = (hostile(&mut rng, 0.5), hostile(&mut rng, 0.5));
                    let bad =
                        stale || !(within(a, f32::MAX) && a >= 0.0) || !(within(b, f32::MAX) && b >= 0.0);
                    (w.set_damping(id, a, b), bad)
                }
                10 => {
                    let g = hostile(&mut rng, -10.0);
                    let speed = hostile(&mut rng, 400.0);
                    let s = SolverSettings {
                        gravity: v(0.0, g),
                        max_linear_speed: speed,
                        ..SolverSettings::default()
                    };
                    let good = within(g, limits::MAX_GRAVITY)
                        && speed > 0.0
                        && within(speed, limits::MAX_LINEAR_SPEED);
                    let bad = !good;
                    (w.set_settings(s), bad)
                }
                11 => {
                    // Queries with hostile input: never a panic, results name live bodies.
                    let o = v(hostile_in(&mut rng, -20.0, 20.0), hostile(&mut rng, 10.0));
                    let d = v(hostile(&mut rng, 0.0), hostile(&mut rng, -30.0));
                    if let Some(hit) = w.ray_cast(o, d) {
                        assert!(
                            w.body(hit.body).is_ok()
                                && hit.hit.point.is_finite()
                                && hit.hit.normal.is_finite()
                        );
                    }
                    let (s, _) = shape(&mut rng);
                    let xf = Transform::from_translation(o);
                    w.overlap_shape(&s, xf, &QueryFilter::ALL, |b| {
                        assert!(w.body(b).is_ok());
                        true
                    });
                    if let Some(hit) = w.cast_shape(&s, xf, d, &QueryFilter::ALL) {
                        assert!(w.body(hit.body).is_ok());
                    }
                    let level = w.mover_level(&QueryFilter::ALL);
                    let r = move_and_slide(&level, &s, xf, d, d, &MoveOptions::default());
                    // Invalid input leaves the mover where it was (a non-finite start stays so).
                    assert!(r.position.is_finite() || !o.is_finite());
                    (Ok(()), false)
                }
                12 => {
                    // A linear impulse at a point (off the centre it turns the body too).
                    let (id, stale) = ids.body(&mut rng);
                    let j = v(hostile_in(&mut rng, -5.0, 5.0), hostile_in(&mut rng, -5.0, 5.0));
                    let p = v(hostile_in(&mut rng, -15.0, 15.0), hostile_in(&mut rng, 0.0, 20.0));
                    // Refused when not finite or when it would exceed the speed limits.
                    let r = w.apply_linear_impulse(id, j, p);
                    (r, stale || !j.is_finite() || !p.is_finite())
                }
                13 => {
                    let (id, stale) = ids.body(&mut rng);
                    let t = hostile_in(&mut rng, -50.0, 50.0);
                    // Refused when not finite or when the torques add up beyond the limit.
                    (w.apply_torque(id, t), stale || !t.is_finite())
                }
                14 => {
                    // A chain: an open polyline of 2 to 6 points (a coordinate sometimes
                    // hostile), of any kind (a dynamic chain is refused), at a hostile
                    // position and velocity.
                    let n = 2 + rng.index(5);
                    let x0 = rng.range(-20.0, 10.0);
                    let pts: Vec<Vec2> = (0..n)
                        .map(|k| {
                            let x = x0 + 2.0 * k as f32 + rng.range(0.0, 1.0);
                            let y = rng.range(-1.0, 1.0);
                            if rng.index(8) == 0 {
                                v(hostile(&mut rng, x), y)
                            } else {
                                v(x, y)
                            }
                        })
                        .collect();
                    let Ok(chain) = Chain::open(&pts) else {
                        // The polyline refused it (non-finite points, too few after welding).
                        return (Err(SolverError::InvalidInput), true);
                    };
                    let kind = [BodyKind::Static, BodyKind::Kinematic, BodyKind::Dynamic][rng.index(3)];
                    let (x, y) = (hostile_in(&mut rng, -5.0, 5.0), hostile_in(&mut rng, -2.0, 2.0));
                    let vx = if rng.index(4) == 0 {
                        hostile(&mut rng, 1.0)
                    } else {
                        0.0
                    };
                    let def = ChainDef {
                        kind,
                        transform: Transform::from_translation(v(x, y)),
                        linear_velocity: v(vx, 0.0),
                        ..ChainDef::new(&chain)
                    };
                    let bad = kind == BodyKind::Dynamic
                        || !fine(x)
                        || !fine(y)
                        || !within(vx, w.settings().max_linear_speed)
                        || !chain.points().iter().all(|p| fine(p.x) && fine(p.y));
                    match w.add_chain(&def) {
                        Ok(c) => {
                            ids.chains.push(c);
                            ids.bodies.push(w.chain_body(c).unwrap());
                            (Ok(()), bad)
                        }
                        Err(e) => (Err(e), bad),
                    }
                }
                15 => {
                    let (c, stale) = ids.chain(&mut rng);
                    let body = BodyId {
                        index: c.index,
                        generation: c.generation,
                    };
                    (ids.remove_body(&mut w, body, |w| w.remove_chain(c)), stale)
                }
                16 => {
                    // A shape definition: any shape, the default or a hostile material, any
                    // filter, sometimes a sensor.
                    let (id, stale) = ids.body(&mut rng);
                    let (s, bad_shape) = shape(&mut rng);
                    let (m, bad_material) = if rng.index(2) == 0 {
                        (Material::default(), false)
                    } else {
                        material(&mut rng)
                    };
                    let def = ShapeDef {
                        material: m,
                        filter: filter(&mut rng),
                        sensor: rng.index(3) == 0,
                        user_data: rng.next_u64(),
                        ..ShapeDef::new(s)
                    };
                    match w.add_shape_def(id, &def) {
                        Ok(shape) => {
                            ids.shapes.push(shape);
                            (Ok(()), stale || bad_shape || bad_material)
                        }
                        Err(e) => (Err(e), stale || bad_shape || bad_material),
                    }
                }
                17 => {
                    // A body's first shape is refused (Unsupported): only added ones go.
                    let (shape, stale) = ids.shape(&mut rng);
                    let r = w.remove_shape(shape);
                    if r.is_ok() {
                        ids.shapes.retain(|&s| s != shape);
                        ids.dead_shapes.push(shape);
                    }
                    (r, stale)
                }
                18 => {
                    // The shape setters: filter, sensor flag, material.
                    let (shape, stale) = ids.shape(&mut rng);
                    match rng.index(3) {
                        0 => (w.set_shape_filter(shape, filter(&mut rng)), stale),
                        1 => (w.set_shape_sensor(shape, rng.index(2) == 0), stale),
                        _ => {
                            let (m, bad) = material(&mut rng);
                            (w.set_shape_material(shape, m), stale || bad)
                        }
                    }
                }
                19 => {
                    // The mover pushing bodies: any shape (an invalid one leaves the mover
                    // where it is), from just above a body, a hostile translation, frame time
                    // and push; the pushes take effect in the next step (checked there).
                    let (id, _) = ids.body(&mut rng);
                    let (s, _) = shape(&mut rng);
                    let start = w.body(id).map_or(v(0.0, 3.0), |b| b.transform.p + v(0.0, 1.5));
                    let xf = Transform::from_translation(start);
                    let d = v(hostile_in(&mut rng, -3.0, 3.0), hostile_in(&mut rng, -3.0, 1.0));
                    let opts = MoveOptions {
                        time_step: hostile(&mut rng, 1.0 / 60.0),
                        ..MoveOptions::default()
                    };
                    let push = MoverPush {
                        mass: hostile_in(&mut rng, 0.0, 200.0),
                        max_force: if rng.index(2) == 0 {
                            f32::INFINITY
                        } else {
                            hostile_in(&mut rng, 0.0, 1e4)
                        },
                    };
                    // An infinite mass pushes as a kinematic body and an infinite force is no
                    // limit: only NaN and negative values are refused.
                    let bad = push.mass.is_nan()
                        || push.mass < 0.0
                        || push.max_force.is_nan()
                        || push.max_force < 0.0;
                    match w.move_and_push(&s, xf, d, d, &opts, &QueryFilter::ALL, &push) {
                        Ok(r) => {
                            assert!(r.position.is_finite() && r.velocity.is_finite(), "{r:?}");
                            (Ok(()), bad)
                        }
                        Err(e) => (Err(e), bad),
                    }
                }
                20 => {
                    // Ids another world gave, through the calls that take each kind of id.
                    let foreign = &ids.foreign;
                    let shape = foreign.shapes[rng.index(2)];
                    let r = match rng.index(8) {
                        0 => w.remove_body(foreign.body),
                        1 => w.set_velocity(foreign.body, v(1.0, 0.0), 0.0),
                        2 => w.add_shape(foreign.body, &Shape::circle(0.2)).map(|_| ()),
                        3 => w.apply_force(foreign.body, v(1.0, 0.0), Vec2::ZERO),
                        4 => w.remove_chain(foreign.chain),
                        5 => w.remove_shape(shape),
                        6 => w.set_shape_filter(shape, Filter::DEFAULT),
                        _ => w.body(foreign.body).map(|_| ()),
                    };
                    (r, true)
                }
                _ => {
                    let dt = hostile(&mut rng, 1.0 / 60.0);
                    let bad = !(dt > 0.0 && within(dt, limits::MAX_TIME_STEP));
                    let r = w.step(dt, 4);
                    if r.is_ok() {
                        let live = ids
                            .bodies
                            .iter()
                            .filter(|&&id| w.body(id).is_ok_and(|b| !b.is_valid()))
                            .count();
                        f.non_finite += live;
                        f.frozen += w.fault_events().len();
                    }
                    (r, bad)
                }
            }
        }));
        match outcome {
            Err(_) => f.panics += 1,
            Ok((Err(e), bad)) => {
                f.refused += 1;
                if std::env::var("CHAOS_DEBUG").is_ok() && !bad {
                    eprintln!("op {op} refused though good: {e:?}");
                }
            }
            Ok((Ok(()), bad)) => {
                if std::env::var("CHAOS_DEBUG").is_ok() && bad {
                    eprintln!("seed {seed}: op {op} accepted a bad input");
                }
                f.accepted_bad += usize::from(bad);
            }
        }
        if let Err(e) = w.check_invariants(false) {
            panic!("seed {seed}: invariant broken after op {op}: {e}");
        }
    }
    f
}

#[test]
fn chaos_runs_refuse_every_bad_input_and_never_panic() {
    let ops: usize = std::env::var("CHAOS_OPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1500);
    let mut total = Figures::default();
    for seed in 1..=6u64 {
        let f = chaos(seed, ops);
        eprintln!("seed {seed}: {f:?}");
        total.operations += f.operations;
        total.refused += f.refused;
        total.accepted_bad += f.accepted_bad;
        total.panics += f.panics;
        total.non_finite += f.non_finite;
        total.frozen += f.frozen;
    }
    eprintln!("chaos total: {total:?}");
    assert!(
        total.refused > total.operations / 20,
        "hostile input exercised: {total:?}"
    );
    assert_eq!(
        (total.accepted_bad, total.panics, total.non_finite),
        (0, 0, 0),
        "{total:?}"
    );
}
