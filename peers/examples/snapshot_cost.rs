//! The cost of a snapshot: collide2d's `World::snapshot` / `restore_into` / `restore` against
//! rapier2d's serde snapshot (bincode 1) of the same scene built in rapier, for Box2D's large
//! pyramid (100 rows, 5 050 boxes) and the tumbler (2 025 boxes in four turning walls), each
//! stepped the same number of steps in both engines first so that contacts, warm-start
//! impulses and sleep state exist.
//!
//! Both engines get the scene's bodies (`collide2d_peers::scenes`) with the same shapes,
//! densities, friction, restitution, gravity (collide2d's (0, -10)) and 60 Hz steps;
//! collide2d steps with 4 sub-steps, rapier with its defaults otherwise (4 solver iterations,
//! its own contact softness, prediction distance, sleep thresholds, BVH broad phase, no CCD;
//! friction combined by average where collide2d takes the geometric mean, equal here since
//! every shape has the same friction). Boxes are rapier cuboids (the shape a rapier user
//! builds a box with), a wall offset from its body by the collider's position and given
//! massless mass properties centred on the body's origin, so that rapier turns it about that
//! origin as collide2d does (rapier turns a kinematic body about its centre of mass).
//!
//! What is measured, interleaved (the engine that goes first alternates) and reported as the
//! median of `reps` repetitions (at least 21):
//! - collide2d: `World::snapshot` into a preallocated buffer, `World::restore_into` a world
//!   reused from one repetition to the next, `World::restore` into a new world (dropped
//!   outside the timing), and `Clone` of the world for reference;
//! - rapier2d: `bincode::serialize_into` a reused `Vec` of its `PhysicsWorld` (rapier's own
//!   serializable bundle: integration parameters, gravity, island manager, BVH broad phase,
//!   narrow phase with its contact pairs and manifolds, body, collider, impulse-joint,
//!   multibody-joint and soft-body sets; rapier skips the pipelines and the CCD solver, which
//!   hold only workspace) plus its `CCDSolver`, and `bincode::deserialize` of both into new
//!   values (dropped outside the timing).
//!
//! Asserts that a collide2d world restored from its snapshot and stepped 10 times has the
//! same transforms, bit for bit, as the original stepped 10 times, and reports whether
//! rapier's deserialized world does the same. Also prints, for each engine, the pairs,
//! touching contacts, awake bodies and bodies escaped from the tumbler after the steps, and
//! the bytes per body before the first step and the bytes added per pair since.
//!
//! `cargo run --release -p collide2d-peers --example snapshot_cost [scene filter] [steps] [reps]`
//! (defaults: all scenes, 300 steps, 31 repetitions); the pyramid is run with sleeping
//! enabled (`/sleep`) and disabled (`/awake`) in both engines, the tumbler with it enabled.
use std::time::Instant;

use collide2d::{BodyId, BodyKind, Shape, Transform, World};
use collide2d_peers::scenes::{body_def, large_pyramid, tumbler, Measure, Scene, Spec};
use rapier2d::prelude::{
    CCDSolver, ColliderBuilder, MassProperties, PhysicsWorld, Pose, RigidBodyBuilder, RigidBodyHandle, Vector,
};

const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;

fn ours(scene: &Scene, sleep: bool) -> (World, Vec<BodyId>) {
    let mut world = World::default();
    world.set_sleep_enabled(sleep);
    let ids = scene
        .bodies
        .iter()
        .map(|s| world.add_body(&body_def(s)).unwrap())
        .collect();
    (world, ids)
}

/// The rapier collider of `s`'s shape: a cuboid for a box (the only shapes these scenes have).
fn rapier_collider(s: &Spec) -> ColliderBuilder {
    let Shape::Polygon(p) = &s.shape else {
        panic!("only boxes are built in rapier here");
    };
    let v = &p.vertices[..p.count as usize];
    let (lo, hi) = v
        .iter()
        .fold((v[0], v[0]), |(lo, hi), q| (lo.min(*q), hi.max(*q)));
    assert!(
        v.len() == 4
            && p.radius == 0.0
            && v.iter()
                .all(|q| (q.x == lo.x || q.x == hi.x) && (q.y == lo.y || q.y == hi.y)),
        "not an axis-aligned box"
    );
    let (c, h) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
    let collider = ColliderBuilder::cuboid(h.x, h.y)
        .translation(Vector::new(c.x, c.y))
        .friction(s.material.friction)
        .restitution(s.material.restitution);
    if s.kind == BodyKind::Dynamic {
        collider.density(s.material.density)
    } else {
        // Massless, its centre at the body's origin (`-c` in the collider's frame, which
        // rapier shifts by `c`): rapier turns a kinematic body about its centre of mass, which
        // it would otherwise take from the collider, so that each tumbler wall would orbit its
        // own middle; collide2d and Box2D turn a kinematic body about its origin.
        collider.mass_properties(MassProperties::new(Vector::new(-c.x, -c.y), 0.0, 0.0))
    }
}

fn rapier(scene: &Scene, gravity: collide2d::Vec2, sleep: bool) -> (PhysicsWorld, Vec<RigidBodyHandle>) {
    let mut world = PhysicsWorld {
        gravity: Vector::new(gravity.x, gravity.y),
        ..PhysicsWorld::default()
    };
    world.integration_parameters.dt = DT;
    let handles = scene
        .bodies
        .iter()
        .map(|s| {
            let body = match s.kind {
                BodyKind::Static => RigidBodyBuilder::fixed(),
                BodyKind::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
                BodyKind::Dynamic => RigidBodyBuilder::dynamic(),
            }
            .pose(Pose::new(Vector::new(s.xf.p.x, s.xf.p.y), s.xf.q.angle()))
            .linvel(Vector::new(s.v.x, s.v.y))
            .angvel(s.w)
            .can_sleep(s.enable_sleep && sleep);
            world.insert(body, rapier_collider(s)).0
        })
        .collect();
    (world, handles)
}

/// What rapier's step reads between steps: its `PhysicsWorld` and its `CCDSolver`.
fn rapier_serialize(world: &PhysicsWorld, out: &mut Vec<u8>) {
    out.clear();
    bincode::serialize_into(&mut *out, &(world, &world.ccd_solver)).unwrap();
}

fn rapier_deserialize(bytes: &[u8]) -> PhysicsWorld {
    let (mut world, ccd): (PhysicsWorld, CCDSolver) = bincode::deserialize(bytes).unwrap();
    world.ccd_solver = ccd;
    world
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Microseconds of one call of `f` (its result is dropped after the clock stops).
fn time<R>(f: impl FnOnce() -> R) -> (f64, R) {
    let t = Instant::now();
    let r = f();
    (t.elapsed().as_secs_f64() * 1e6, r)
}

fn transforms_bits(xf: impl Iterator<Item = Transform>) -> Vec<[u32; 4]> {
    xf.map(|t| [t.p.x.to_bits(), t.p.y.to_bits(), t.q.c.to_bits(), t.q.s.to_bits()])
        .collect()
}

fn rapier_bits(world: &PhysicsWorld, handles: &[RigidBodyHandle]) -> Vec<[u32; 4]> {
    handles
        .iter()
        .map(|h| {
            let p = world.bodies[*h].position();
            [
                p.translation.x.to_bits(),
                p.translation.y.to_bits(),
                p.rotation.re.to_bits(),
                p.rotation.im.to_bits(),
            ]
        })
        .collect()
}

/// Builds, steps and measures `scene` in both engines, sleeping enabled or not in both.
fn run(scene: &Scene, sleep: bool, steps: usize, reps: usize) {
    let name = format!("{}/{}", scene.name, if sleep { "sleep" } else { "awake" });
    let (mut world, ids) = ours(scene, sleep);
    let (mut rworld, handles) = rapier(scene, world.gravity(), sleep);
    // The bytes before the first step (bodies, shapes and trees, no contacts yet) split each
    // engine's bytes into a part per body and a part per pair.
    let (ours_empty, rapier_empty) = {
        let mut v = Vec::new();
        rapier_serialize(&rworld, &mut v);
        (world.snapshot_size(), v.len())
    };
    let (mut step_ours, mut step_rapier) = (0.0, 0.0);
    for _ in 0..steps {
        step_ours += time(|| world.step(DT, SUBSTEPS).unwrap()).0;
        step_rapier += time(|| rworld.step()).0;
    }
    let bodies = scene.bodies.len();
    let rapier_touching = rworld
        .narrow_phase
        .contact_pairs()
        .filter(|p| p.has_any_active_contact())
        .count();
    let rapier_awake = rworld
        .bodies
        .iter()
        .filter(|(_, b)| b.is_dynamic() && !b.is_sleeping())
        .count();
    let rapier_pairs = rworld.narrow_phase.contact_pairs().count();
    let escaped = |p: &dyn Fn(usize) -> collide2d::Vec2| match scene.measure {
        Measure::OutsideBox(w) => {
            let q = collide2d::Rot::from_angle(w * steps as f32 * DT);
            let dynamic = scene
                .bodies
                .iter()
                .enumerate()
                .filter(|(_, s)| s.kind == BodyKind::Dynamic);
            dynamic
                .filter(|(k, _)| {
                    let local = q.inv_rotate(p(*k) - collide2d::Vec2::new(0.0, 10.0));
                    local.x.abs() > 10.0 || local.y.abs() > 10.0
                })
                .count()
        }
        _ => 0,
    };
    let ours_escaped = escaped(&|k| world.transform(ids[k]).unwrap().p);
    let rapier_escaped = escaped(&|k| {
        let t = rworld.bodies[handles[k]].translation();
        collide2d::Vec2::new(t.x, t.y)
    });
    println!(
        "# {} after {steps} steps: collide2d {} pairs, {} touching, {} awake, {ours_escaped} escaped, \
         {:.2} ms/step; rapier2d {rapier_pairs} pairs, {rapier_touching} touching, {rapier_awake} awake, \
         {rapier_escaped} escaped, {:.2} ms/step",
        name,
        world.pair_count(),
        world.contact_count(),
        world.awake_body_count(),
        step_ours / steps as f64 * 1e-3,
        step_rapier / steps as f64 * 1e-3,
    );

    let size = world.snapshot_size();
    let mut buf = vec![0u8; size];
    let mut reused = World::default();
    let mut rbuf = Vec::new();
    let (mut snap, mut into, mut fresh, mut clone) = (vec![], vec![], vec![], vec![]);
    let (mut rsnap, mut rrestore) = (vec![], vec![]);
    for rep in 0..reps {
        let mut ours_turn = || {
            let (t, n) = time(|| world.snapshot(&mut buf).unwrap());
            assert_eq!(n, size);
            snap.push(t);
            into.push(time(|| reused.restore_into(&buf).unwrap()).0);
            let (t, w) = time(|| World::restore(&buf).unwrap());
            fresh.push(t);
            drop(w);
            let (t, w) = time(|| world.clone());
            clone.push(t);
            drop(w);
        };
        let mut rapier_turn = || {
            rsnap.push(time(|| rapier_serialize(&rworld, &mut rbuf)).0);
            let (t, w) = time(|| rapier_deserialize(&rbuf));
            rrestore.push(t);
            drop(w);
        };
        if rep % 2 == 0 {
            ours_turn();
            rapier_turn();
        } else {
            rapier_turn();
            ours_turn();
        }
    }

    // A world restored from the snapshot continues bit for bit as the original.
    let mut restored = World::restore(&buf).unwrap();
    let mut rrestored = rapier_deserialize(&rbuf);
    for _ in 0..10 {
        world.step(DT, SUBSTEPS).unwrap();
        restored.step(DT, SUBSTEPS).unwrap();
        reused.step(DT, SUBSTEPS).unwrap();
        rworld.step();
        rrestored.step();
    }
    let expected = transforms_bits(ids.iter().map(|id| world.transform(*id).unwrap()));
    assert_eq!(
        expected,
        transforms_bits(ids.iter().map(|id| restored.transform(*id).unwrap())),
        "World::restore diverged"
    );
    assert_eq!(
        expected,
        transforms_bits(ids.iter().map(|id| reused.transform(*id).unwrap())),
        "World::restore_into diverged"
    );
    let rapier_same = rapier_bits(&rworld, &handles) == rapier_bits(&rrestored, &handles);

    let (snap, into, fresh, clone) = (
        median(&mut snap),
        median(&mut into),
        median(&mut fresh),
        median(&mut clone),
    );
    let (rsnap, rrestore) = (median(&mut rsnap), median(&mut rrestore));
    let rbytes = rbuf.len();
    let per_pair = |full: usize, empty: usize, pairs: usize| (full - empty) as f64 / pairs.max(1) as f64;
    println!(
        "# {} bytes before the first step per body: collide2d {:.1}, rapier2d {:.1}; \
         bytes added per pair after {steps} steps: collide2d {:.1}, rapier2d {:.1}",
        name,
        ours_empty as f64 / bodies as f64,
        rapier_empty as f64 / bodies as f64,
        per_pair(size, ours_empty, world.pair_count()),
        per_pair(rbytes, rapier_empty, rapier_pairs),
    );
    println!(
        "{} {bodies} collide2d bytes {size} per_body {:.1} snapshot_us {snap:.0} restore_into_us {into:.0} \
         restore_us {fresh:.0} clone_us {clone:.0} bit_identical_after_10 true",
        name,
        size as f64 / bodies as f64,
    );
    println!(
        "{} {bodies} rapier2d bytes {rbytes} per_body {:.1} snapshot_us {rsnap:.0} restore_us {rrestore:.0} \
         bit_identical_after_10 {rapier_same}",
        name,
        rbytes as f64 / bodies as f64,
    );
    println!(
        "{} ratio collide2d/rapier2d: bytes {:.3} snapshot {:.3} restore_into {:.3} restore {:.3}",
        name,
        size as f64 / rbytes as f64,
        snap / rsnap,
        into / rrestore,
        fresh / rrestore,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let filter = args.get(1).cloned().unwrap_or_default();
    let steps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(300);
    let reps: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(31).max(21);
    println!("# collide2d against rapier2d 0.36 + bincode 1.3; medians of {reps} interleaved repetitions");
    // Sleeping changes what is stored (parked contacts and sleep impulses in collide2d, where
    // an awake world has its last step's constraint lanes) and the engines' sleep thresholds
    // differ, so the pyramid is measured with sleeping on and with it off in both engines.
    let cases: [(fn() -> Scene, bool); 3] = [
        (|| large_pyramid(100), true),
        (|| large_pyramid(100), false),
        (tumbler, true),
    ];
    for (make, sleep) in cases {
        let scene = make();
        if scene.name.contains(filter.as_str()) {
            run(&scene, sleep, steps, reps);
        }
    }
}
