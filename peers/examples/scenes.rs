//! Box2D v3's benchmark scenes (its `shared/benchmarks.c`) in collide2d's `World` and in
//! Box2D v3 (through `boxdd-sys`, one worker thread), built from one body list, 60 Hz with
//! 4 sub-steps. Prints one `scene bodies engine sleep step0 mean worst end bytes` line per run:
//! milliseconds for step 0, the mean of steps 100–299 and the worst step after step 0; the
//! end-state measure of the scene; peak heap bytes (both engines' allocations are counted:
//! ours through the global allocator, Box2D's through `b2SetAllocator`, each engine's apart).
//! Unless one engine is named, both worlds run side by side, stepped in turns of 10 steps
//! so that the shared machine's changes of speed hit both alike.
//!
//! `cargo run --release -p collide2d-peers --example scenes [scene filter] [steps] [engine]`; the
//! bench script builds Box2D with `-DNDEBUG`. The scenes (`collide2d_peers::scenes`, which
//! says where they differ from Box2D's file) are built identically for both engines.
//!
//! `SCENES_PROFILE=1` prints each engine's phase times; `SCENES_BAR_SPEED` (rad/s) perturbs the
//! spinner's bar, `SCENES_RING=segments` builds its ring of two-sided segments, and
//! `SCENES_NO_EDGE_REMOVAL=1` switches our `World`'s internal-edge removal off (on by default).
use collide2d::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use collide2d_peers::scenes::{
    body_def, joint_grid, large_pyramid, many_pyramids, spinner, tile_slide, tumbler, Measure, Scene,
};
use collide2d_peers::{b2, b2capsule, b2chain_segment, b2circle, b2polygon, b2v};

/// Counts live and peak heap bytes (ours and, through `b2SetAllocator`, Box2D's).
struct Counting;
/// Live and peak bytes per engine (0: collide2d, 1: Box2D): with both worlds alive at once
/// (the interleaved runs), each allocation and free counts for the engine `CURRENT` names,
/// which the runner sets before building, stepping or dropping that engine's world.
static LIVE: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];
static PEAK: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];
static CURRENT: AtomicUsize = AtomicUsize::new(0);

fn count_alloc(n: usize) {
    let e = CURRENT.load(Relaxed);
    let live = LIVE[e].fetch_add(n, Relaxed) + n;
    PEAK[e].fetch_max(live, Relaxed);
}

fn count_free(n: usize) {
    LIVE[CURRENT.load(Relaxed)].fetch_sub(n, Relaxed);
}

// SAFETY: forwards to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        count_alloc(l.size());
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        count_free(l.size());
        // SAFETY: as above.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        count_alloc(n);
        count_free(l.size());
        // SAFETY: as above.
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

unsafe extern "C" fn b2_alloc(size: usize, alignment: i32) -> *mut core::ffi::c_void {
    let l = Layout::from_size_align(size.max(1), alignment.max(16) as usize).unwrap();
    // SAFETY: a valid non-zero layout; freed by `b2_free` with the same size.
    unsafe { GLOBAL.alloc(l) as *mut core::ffi::c_void }
}

unsafe extern "C" fn b2_free(p: *mut core::ffi::c_void, size: usize) {
    if !p.is_null() {
        // Box2D frees with the size it allocated; its alignment is at most 32 (B2_ALIGNMENT).
        let l = Layout::from_size_align(size.max(1), 32).unwrap();
        // SAFETY: `p` came from `b2_alloc`, whose alignment only affects placement, not the
        // system allocator's bookkeeping for these sizes.
        unsafe { GLOBAL.dealloc(p as *mut u8, l) }
    }
}

/// Runs a scene; returns per-step milliseconds, the end measure and the peak heap bytes.
trait Engine {
    fn step(&mut self);
    /// Box2D's own per-phase timing of the last step (ms), for `SCENES_PROFILE=1`.
    fn profile(&self) -> Option<[(&'static str, f32); 11]> {
        None
    }
    /// World transform of body `k` of the scene's list.
    fn transform(&self, k: usize) -> Transform;
}

/// Nanoseconds since the first call: the World's profile clock.
extern "C" fn clock_ns() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

struct Ours {
    world: World,
    ids: Vec<BodyId>,
}

impl Ours {
    fn new(scene: &Scene, sleep: bool) -> Ours {
        let mut world = World::default();
        world.set_sleep_enabled(sleep);
        // `SCENES_NO_EDGE_REMOVAL=1` switches internal-edge removal off, to measure its cost.
        world.set_internal_edge_removal(std::env::var_os("SCENES_NO_EDGE_REMOVAL").is_none());
        if std::env::var_os("SCENES_PROFILE").is_some() {
            world.set_profile_clock(Some(clock_ns));
        }
        let ids: Vec<BodyId> = scene
            .bodies
            .iter()
            .map(|s| world.add_body(&body_def(s)).unwrap())
            .collect();
        for &(a, b, pa, pb) in &scene.hinges {
            let mut def = JointDef::new(JointKind::Revolute(RevoluteJoint::default()), ids[a], ids[b]);
            def.local_frame_a = Transform::from_translation(pa);
            def.local_frame_b = Transform::from_translation(pb);
            world.add_joint(&def).unwrap();
        }
        Ours { world, ids }
    }
}

impl Engine for Ours {
    fn step(&mut self) {
        self.world.step(1.0 / 60.0, 4).unwrap();
    }
    fn profile(&self) -> Option<[(&'static str, f32); 11]> {
        // The World's own phase times (its clock counts nanoseconds), and its pair count.
        let p = self.world.profile();
        let ms = |t: u64| t as f32 * 1e-6;
        Some([
            ("pairs", ms(p.pairs)),
            ("narrow", ms(p.narrow)),
            ("solve", ms(p.solve)),
            ("finalize", ms(p.finalize)),
            ("continuous", ms(p.continuous)),
            ("sleep", ms(p.sleep)),
            ("", 0.0),
            ("", 0.0),
            ("", 0.0),
            ("contacts", self.world.pair_count() as f32),
            ("touching", self.world.contact_count() as f32),
        ])
    }
    fn transform(&self, k: usize) -> Transform {
        self.world.transform(self.ids[k]).unwrap()
    }
}

struct Box2d {
    world: b2::b2WorldId,
    ids: Vec<b2::b2BodyId>,
}

impl Box2d {
    fn new(scene: &Scene, sleep: bool) -> Box2d {
        // SAFETY: plain Box2D C calls on definitions it initialised itself.
        unsafe {
            let mut wd = b2::b2DefaultWorldDef();
            wd.enableSleep = sleep;
            wd.workerCount = 1;
            let world = b2::b2CreateWorld(&wd);
            let ids = scene
                .bodies
                .iter()
                .map(|s| {
                    let mut bd = b2::b2DefaultBodyDef();
                    bd.type_ = match s.kind {
                        BodyKind::Static => b2::b2BodyType_b2_staticBody,
                        BodyKind::Kinematic => b2::b2BodyType_b2_kinematicBody,
                        BodyKind::Dynamic => b2::b2BodyType_b2_dynamicBody,
                    };
                    bd.position = b2v(s.xf.p);
                    bd.rotation = b2::b2Rot {
                        c: s.xf.q.c,
                        s: s.xf.q.s,
                    };
                    bd.linearVelocity = b2v(s.v);
                    bd.angularVelocity = s.w;
                    bd.enableSleep = s.enable_sleep;
                    let body = b2::b2CreateBody(world, &bd);
                    let mut sd = b2::b2DefaultShapeDef();
                    sd.density = s.material.density;
                    sd.material.friction = s.material.friction;
                    sd.material.restitution = s.material.restitution;
                    sd.filter.categoryBits = s.filter.category_bits;
                    sd.filter.maskBits = s.filter.mask_bits;
                    sd.filter.groupIndex = s.filter.group_index;
                    match &s.shape {
                        Shape::Circle(c) => {
                            b2::b2CreateCircleShape(body, &sd, &b2circle(c));
                        }
                        Shape::Capsule(c) if c.radius == 0.0 => {
                            let seg = b2::b2Segment {
                                point1: b2v(c.center1),
                                point2: b2v(c.center2),
                            };
                            b2::b2CreateSegmentShape(body, &sd, &seg);
                        }
                        Shape::Capsule(c) => {
                            b2::b2CreateCapsuleShape(body, &sd, &b2capsule(c));
                        }
                        Shape::ChainSegment(c) => {
                            b2::b2CreateChainSegmentShape(body, &sd, &b2chain_segment(c));
                        }
                        Shape::Polygon(p) => {
                            b2::b2CreatePolygonShape(body, &sd, &b2polygon(p));
                        }
                    }
                    body
                })
                .collect::<Vec<_>>();
            for &(a, b, pa, pb) in &scene.hinges {
                let mut jd = b2::b2DefaultRevoluteJointDef();
                jd.base.bodyIdA = ids[a];
                jd.base.bodyIdB = ids[b];
                jd.base.localFrameA.p = b2v(pa);
                jd.base.localFrameB.p = b2v(pb);
                b2::b2CreateRevoluteJoint(world, &jd);
            }
            Box2d { world, ids }
        }
    }
}

impl Drop for Box2d {
    fn drop(&mut self) {
        // SAFETY: destroyed once; no ids are used afterwards.
        unsafe { b2::b2DestroyWorld(self.world) };
    }
}

impl Engine for Box2d {
    fn step(&mut self) {
        // SAFETY: a live world.
        unsafe { b2::b2World_Step(self.world, 1.0 / 60.0, 4) };
    }
    fn profile(&self) -> Option<[(&'static str, f32); 11]> {
        // SAFETY: a live world.
        let p = unsafe { b2::b2World_GetProfile(self.world) };
        Some([
            ("pairs", p.pairs),
            ("collide", p.collide),
            ("solve", p.solve),
            ("prepare", p.prepareConstraints),
            (
                "solver_passes",
                p.integrateVelocities
                    + p.warmStart
                    + p.solveImpulses
                    + p.integratePositions
                    + p.relaxImpulses
                    + p.applyRestitution
                    + p.storeImpulses,
            ),
            ("transforms", p.transforms),
            ("refit", p.refit),
            ("sleep", p.sleepIslands + p.splitIslands),
            ("bullets", p.bullets),
            // SAFETY: a live world.
            (
                "contacts",
                unsafe { b2::b2World_GetCounters(self.world) }.contactCount as f32,
            ),
            // The constraint graph's colours hold the awake touching contacts.
            (
                "touching",
                // SAFETY: a live world.
                unsafe { b2::b2World_GetCounters(self.world) }
                    .colorCounts
                    .iter()
                    .sum::<i32>() as f32,
            ),
        ])
    }
    fn transform(&self, k: usize) -> Transform {
        // SAFETY: a live body of a live world.
        let (p, q) = unsafe {
            (
                b2::b2Body_GetPosition(self.ids[k]),
                b2::b2Body_GetRotation(self.ids[k]),
            )
        };
        Transform {
            p: Vec2::new(p.x, p.y),
            q: Rot { c: q.c, s: q.s },
        }
    }
}

fn measure(scene: &Scene, e: &dyn Engine, steps: usize) -> f64 {
    let dynamic = scene
        .bodies
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == BodyKind::Dynamic);
    match scene.measure {
        Measure::Displacement => dynamic
            .map(|(k, s)| e.transform(k).p.distance(s.xf.p) as f64)
            .fold(0.0, f64::max),
        Measure::OutsideBox(w) => {
            let q = Rot::from_angle(w * steps as f32 / 60.0);
            dynamic
                .filter(|(k, _)| {
                    let local = q.inv_rotate(e.transform(*k).p - Vec2::new(0.0, 10.0));
                    local.x.abs() > 10.0 || local.y.abs() > 10.0
                })
                .count() as f64
        }
        Measure::OutsideRing => dynamic
            .filter(|(k, _)| e.transform(*k).p.distance(Vec2::new(0.0, 32.0)) > 40.0)
            .count() as f64,
        Measure::Rise => dynamic
            .map(|(k, s)| f64::from(e.transform(k).p.y - s.xf.p.y))
            .fold(0.0, f64::max),
    }
}

/// One engine's world with its step times and profile sums.
struct Run {
    name: &'static str,
    index: usize,
    engine: Box<dyn Engine>,
    times: Vec<f64>,
    phases: [f64; 11],
    base: usize,
}

impl Run {
    fn new(scene: &Scene, name: &'static str, sleep: bool, steps: usize) -> Run {
        let index = usize::from(name == "box2d");
        CURRENT.store(index, Relaxed);
        PEAK[index].store(LIVE[index].load(Relaxed), Relaxed);
        let base = LIVE[index].load(Relaxed);
        let engine: Box<dyn Engine> = if index == 0 {
            Box::new(Ours::new(scene, sleep))
        } else {
            Box::new(Box2d::new(scene, sleep))
        };
        Run {
            name,
            index,
            engine,
            times: Vec::with_capacity(steps),
            phases: [0.0; 11],
            base,
        }
    }

    fn step(&mut self, profiling: bool) {
        CURRENT.store(self.index, Relaxed);
        let k = self.times.len();
        let t = Instant::now();
        self.engine.step();
        self.times.push(t.elapsed().as_secs_f64() * 1e3);
        if let (true, true, Some(p)) = (profiling, (100..300).contains(&k), self.engine.profile()) {
            for (acc, (_, ms)) in self.phases.iter_mut().zip(p) {
                *acc += f64::from(ms) / 200.0;
            }
        }
    }

    fn report(self, scene: &Scene, sleep: bool, profiling: bool) {
        CURRENT.store(self.index, Relaxed);
        let steps = self.times.len();
        if let (true, Some(p)) = (profiling, self.engine.profile()) {
            let parts: Vec<String> = p
                .iter()
                .zip(self.phases)
                .map(|((n, _), ms)| format!("{n} {ms:.3}"))
                .collect();
            println!("# {} profile: {}", self.name, parts.join(", "));
        }
        let end = measure(scene, self.engine.as_ref(), steps);
        let peak = PEAK[self.index].load(Relaxed) - self.base;
        let times = &self.times;
        let window = &times[100.min(steps)..300.min(steps)];
        let mean = window.iter().sum::<f64>() / window.len().max(1) as f64;
        let worst = times[1..].iter().cloned().fold(0.0, f64::max);
        println!(
            "{} {} {} {} {:.3} {:.3} {:.3} {} {}",
            scene.name,
            scene.bodies.len(),
            self.name,
            if sleep { "sleep" } else { "awake" },
            times[0],
            mean,
            worst,
            end,
            peak
        );
        drop(self.engine);
    }
}

/// Steps of one engine before the other takes its turn in an interleaved run.
const CHUNK: usize = 10;

/// Runs the scene in each engine named in `engines`. With both, their worlds live side by side
/// and are stepped in turns of [`CHUNK`] steps (ours first in even turns, Box2D first in odd
/// ones): the machine's speed drifts by tens of percent over seconds on a shared VM, and
/// taking turns makes the drift hit both engines alike, while each turn still runs on caches
/// warm from the engine's own previous step.
fn run(scene: &Scene, engines: &[&'static str], sleep: bool, steps: usize) {
    let profiling = std::env::var_os("SCENES_PROFILE").is_some();
    let mut runs: Vec<Run> = engines
        .iter()
        .map(|&e| Run::new(scene, e, sleep, steps))
        .collect();
    let mut done = 0;
    let mut turn = 0;
    while done < steps {
        let n = CHUNK.min(steps - done);
        let order: Vec<usize> = if turn % 2 == 0 {
            (0..runs.len()).collect()
        } else {
            (0..runs.len()).rev().collect()
        };
        for r in order {
            for _ in 0..n {
                runs[r].step(profiling);
            }
        }
        done += n;
        turn += 1;
    }
    for r in runs {
        r.report(scene, sleep, profiling);
    }
}

fn main() {
    // SAFETY: installs counting allocators before any Box2D call.
    unsafe { b2::b2SetAllocator(Some(b2_alloc), Some(b2_free)) };
    let args: Vec<String> = std::env::args().collect();
    let filter = args.get(1).cloned().unwrap_or_default();
    let steps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(300);
    let only = args.get(3).cloned().unwrap_or_default();
    let scenes: Vec<fn() -> Scene> = vec![
        || large_pyramid(100),
        || large_pyramid(140),
        || joint_grid(100),
        many_pyramids,
        tumbler,
        || spinner(true),
        || spinner(false),
        tile_slide,
    ];
    println!("# scene bodies engine sleep step0_ms mean_ms_100_299 worst_ms end_measure peak_bytes");
    for make in scenes {
        let scene = make();
        if !scene.name.contains(filter.as_str()) {
            continue;
        }
        let engines: Vec<&'static str> = ["collide2d", "box2d"]
            .into_iter()
            .filter(|e| e.contains(only.as_str()))
            .collect();
        for sleep in [false, true] {
            run(&scene, &engines, sleep, steps);
        }
    }
}
