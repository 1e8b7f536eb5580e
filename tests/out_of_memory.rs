//! Out of memory never aborts and never corrupts: a global allocator that fails every
//! allocation from the n-th on (for every n a scripted scene reaches) makes each `World` and
//! tree call either succeed or return its out-of-memory error; once memory is back the same
//! world goes on stepping, its invariants hold (checked by brute force) and every body added
//! is there. The level builders (chains, decomposition, tile outlines, chains added to a
//! world, and their C entry points) are run with each of their allocations failing in turn,
//! alone and with every later one: each call returns its out-of-memory error, leaves its
//! outputs as they were and frees everything it took. Every C entry point the header documents
//! with `C2D_STATUS_OUT_OF_MEMORY` (the list is read from include/collide2d.h and must match
//! the tests here) is called in-process with each of its allocations failing in turn. An
//! allocation the library did not reserve would abort this test process.
#![cfg(all(feature = "solver", feature = "alloc"))]
use collide2d::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Fails allocations on the test's own thread once `FAIL_FROM` allocations have been made
/// while armed (with `ONLY`, just allocation number `FAIL_FROM`); other threads (the harness)
/// are never failed. `LIVE` counts the bytes allocated minus the bytes freed on each thread
/// (a reallocation is an allocation and a free), so a call that frees all it took leaves it
/// as it found it.
struct FailingAllocator;

thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
    static FAIL_FROM: Cell<usize> = const { Cell::new(usize::MAX) };
    static ONLY: Cell<bool> = const { Cell::new(false) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator, or returns NULL (a permitted failure).
unsafe impl GlobalAlloc for FailingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let fail = ARMED.with(|a| a.get()) && {
            let n = COUNT.with(|c| {
                let n = c.get();
                c.set(n + 1);
                n
            });
            let from = FAIL_FROM.with(|f| f.get());
            if ONLY.with(|o| o.get()) {
                n == from
            } else {
                n >= from
            }
        };
        if fail {
            return core::ptr::null_mut();
        }
        // SAFETY: the caller's layout, passed through.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.with(|l| l.set(l.get() + layout.size() as isize));
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        LIVE.with(|l| l.set(l.get() - layout.size() as isize));
        // SAFETY: `p` came from System with this layout.
        unsafe { System.dealloc(p, layout) }
    }
}

#[global_allocator]
static GLOBAL: FailingAllocator = FailingAllocator;

fn arm(fail_from: usize) {
    arm_as(fail_from, false);
}

/// Arms the allocator: allocation `n` fails and, unless `only`, every later one too.
fn arm_as(n: usize, only: bool) {
    COUNT.with(|c| c.set(0));
    FAIL_FROM.with(|f| f.set(n));
    ONLY.with(|o| o.set(only));
    ARMED.with(|a| a.set(true));
}

/// Bytes held on this thread (allocated minus freed since it started).
fn live() -> isize {
    LIVE.with(|l| l.get())
}

fn disarm() -> usize {
    ARMED.with(|a| a.set(false));
    COUNT.with(|c| c.get())
}

fn ok_or_oom<T>(r: Result<T, SolverError>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(SolverError::OutOfMemory) => None,
        Err(e) => panic!("unexpected {e:?}"),
    }
}

/// The scripted scene: a ground, boxes and circles dropped in waves (pairs begin), a body put
/// to sleep by hand and woken, one removed, a compound shape added, a chain, and steps in
/// between (islands fall asleep at the end). Records the bodies that were added in `added`
/// (made with room for all, so the script itself allocates nothing while armed).
fn script(w: &mut World, chain: &Chain, added: &mut Vec<BodyId>) {
    let ground = BodyDef::new(BodyKind::Static, Transform::IDENTITY, Shape::rect(20.0, 0.5));
    added.extend(ok_or_oom(w.add_body(&ground)));
    added.extend(ok_or_oom(
        w.add_chain(&ChainDef::new(chain))
            .map(|c| w.chain_body(c).unwrap()),
    ));
    for wave in 0..4 {
        for i in 0..12 {
            let x = -6.0 + i as f32 + 0.1 * wave as f32;
            let shape = if i % 3 == 0 {
                Shape::circle(0.4)
            } else {
                Shape::rect(0.4, 0.4)
            };
            let def = BodyDef::new(
                BodyKind::Dynamic,
                Transform::new(Vec2::new(x, 2.0 + wave as f32), 0.1),
                shape,
            );
            added.extend(ok_or_oom(w.add_body(&def)));
        }
        for _ in 0..8 {
            let _ = ok_or_oom(w.step(1.0 / 60.0, 4));
        }
    }
    if let Some(&id) = added.get(5) {
        let _ = ok_or_oom(w.add_shape(id, &Shape::circle_at(Vec2::new(0.5, 0.0), 0.2)));
        let _ = ok_or_oom(w.set_awake(id, false));
        let _ = ok_or_oom(w.set_awake(id, true));
    }
    if let Some(&id) = added.get(7) {
        if ok_or_oom(w.remove_body(id)).is_some() {
            added.retain(|&b| b != id);
        }
    }
    for _ in 0..60 {
        let _ = ok_or_oom(w.step(1.0 / 60.0, 4));
    }
}

#[test]
fn every_allocation_failure_is_reported_and_recovered_from() {
    // How many allocations the scene makes when nothing fails.
    let chain = Chain::open(&[Vec2::new(-20.0, 6.0), Vec2::new(-10.0, 1.0), Vec2::new(0.0, 1.5)]).unwrap();
    let mut w = World::default();
    let mut added = Vec::with_capacity(100);
    arm(usize::MAX);
    script(&mut w, &chain, &mut added);
    let total = disarm();
    assert!(total > 50, "{total}");
    eprintln!("the scene makes {total} allocations; each one is failed in turn");
    let mut failed_calls = 0;
    for fail_from in 0..=total {
        let mut w = World::default();
        let mut added = Vec::with_capacity(100);
        arm(fail_from);
        script(&mut w, &chain, &mut added);
        disarm();
        // Memory is back: the world goes on, whole.
        for _ in 0..5 {
            w.step(1.0 / 60.0, 4).unwrap();
        }
        w.check_invariants(false)
            .unwrap_or_else(|e| panic!("fail from {fail_from}: {e}"));
        for &id in &added {
            w.body(id)
                .unwrap_or_else(|e| panic!("fail from {fail_from}: body lost: {e:?}"));
        }
        assert_eq!(w.body_count(), added.len(), "fail from {fail_from}");
        failed_calls += usize::from(added.len() < 50);
    }
    assert!(failed_calls > 0);
}

#[test]
fn tree_growth_failure_leaves_the_tree_valid() {
    let mut tree = DynamicTree::new();
    let mut ids = Vec::with_capacity(10_000);
    for fail_from in [0, 1, 2] {
        arm(fail_from);
        // Adds until the storage must grow and cannot.
        let mut refused = 0;
        for i in 0..200_000u64 {
            let b = Aabb::new(Vec2::new(i as f32, 0.0), Vec2::new(i as f32 + 0.5, 0.5));
            match tree.create_proxy(b, 1, i) {
                Ok(id) => ids.push(id),
                Err(TreeError::Full) => {
                    refused += 1;
                    break;
                }
                Err(e) => panic!("{e:?}"),
            }
        }
        disarm();
        assert!(refused > 0, "fail from {fail_from}");
        tree.validate().unwrap();
        assert_eq!(tree.proxy_count() as usize, ids.len());
    }
}

/// Between steps, removing bodies and changing filters allocate nothing, though every contact
/// they end is queued for the next step's end events: with every allocation failing, a pile
/// on the ground with a sensor zone (its last step began new contacts: a box added resting
/// on the ground) is refiltered in part and then removed body by body, every call succeeds,
/// and once memory is back the next step reports every touching contact's and sensor
/// overlap's end.
#[test]
fn removing_bodies_and_changing_filters_between_steps_allocate_nothing() {
    let mut w = World::default();
    let mut ids = Vec::with_capacity(64);
    ids.push(
        w.add_body(&BodyDef::new(
            BodyKind::Static,
            Transform::IDENTITY,
            Shape::rect(20.0, 0.5),
        ))
        .unwrap(),
    );
    let mut zone = BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(Vec2::new(0.0, 2.0)),
        Shape::rect(3.0, 2.0),
    );
    zone.sensor = true;
    ids.push(w.add_body(&zone).unwrap());
    for i in 0..24 {
        let (x, y) = (-3.0 + (i % 6) as f32, 1.0 + 0.9 * (i / 6) as f32);
        let def = BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(x, y)),
            Shape::rect(0.4, 0.4),
        );
        ids.push(w.add_body(&def).unwrap());
    }
    // Sensor overlaps open: begins minus ends over the steps.
    let mut overlapping = 0;
    let mut step = |w: &mut World| {
        w.step(1.0 / 60.0, 4).unwrap();
        overlapping += w.sensor_begin_events().len();
        overlapping -= w.sensor_end_events().len();
    };
    for _ in 0..30 {
        step(&mut w);
    }
    let late = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(Vec2::new(10.0, 0.9)),
        Shape::rect(0.4, 0.4),
    );
    ids.push(w.add_body(&late).unwrap());
    step(&mut w);
    assert!(w.begin_events().iter().any(|e| e.body_b == ids[ids.len() - 1]));
    let touching = w.contact_count();
    assert!(touching > 20 && overlapping > 10, "{touching} {overlapping}");
    arm(0);
    let mut failures = 0;
    for &id in &ids[2..8] {
        failures += usize::from(w.set_filter(id, Filter::DEFAULT).is_err());
    }
    for &id in ids.iter().rev() {
        failures += usize::from(w.remove_body(id).is_err());
    }
    let allocations = disarm();
    assert_eq!((failures, allocations), (0, 0));
    assert!(w.end_events().is_empty(), "reported by the next step");
    w.step(1.0 / 60.0, 4).unwrap();
    assert_eq!(w.end_events().len(), touching);
    assert_eq!(w.sensor_end_events().len(), overlapping);
}

/// Runs `call` once with nothing failing to count its allocations (`judge` must find it
/// succeeded), then, for each allocation n in turn, once with only allocation n failing
/// (`judge` checks the result: out of memory, or success with the right result when the call
/// could do without that allocation) and once with every allocation from n on failing
/// (`judge` must find it reported running out of memory). After each call and its result are
/// dropped, the bytes live on this thread are what they were before it. Returns the
/// allocation count.
fn fail_each<T>(name: &str, mut call: impl FnMut() -> T, mut judge: impl FnMut(T) -> bool) -> usize {
    let before = live();
    arm(usize::MAX);
    let r = call();
    let total = disarm();
    assert!(!judge(r), "{name}: out of memory with nothing failing");
    assert_eq!(live(), before, "{name}: leaked with nothing failing");
    for n in 0..total {
        for only in [true, false] {
            let before = live();
            arm_as(n, only);
            let r = call();
            disarm();
            let oom = judge(r);
            assert!(
                oom || only,
                "{name}: allocations from {n} on failed but the call succeeded"
            );
            assert_eq!(
                live(),
                before,
                "{name}: allocation {n} failed (only: {only}): leaked"
            );
        }
    }
    eprintln!("{name}: {total} allocations, each failed in turn");
    total
}

/// True for a geometry out-of-memory error; `Ok` must equal `expected`.
fn geometry_oom<T: PartialEq + core::fmt::Debug>(r: Result<T, GeometryError>, expected: &T) -> bool {
    match r {
        Ok(v) => {
            assert_eq!(&v, expected);
            false
        }
        Err(GeometryError::OutOfMemory) => true,
        Err(e) => panic!("unexpected {e:?}"),
    }
}

/// An open polyline of `n` points: a zigzag of slope ±1 whose runs of collinear points and
/// repeated points (every tenth) welding removes.
fn zigzag(n: usize) -> Vec<Vec2> {
    (0..n)
        .map(|i| {
            let j = i - usize::from(i % 10 == 9);
            let t = (j % 8) as f32;
            Vec2::new(j as f32 * 0.5, if t < 4.0 { t } else { 8.0 - t } * 0.5)
        })
        .collect()
}

/// A counter-clockwise loop of `n` points round the origin with a wavy radius, every tenth
/// point repeated.
fn wavy_loop(n: usize) -> Vec<Vec2> {
    (0..n)
        .map(|i| {
            let j = i - usize::from(i % 10 == 9);
            let a = core::f32::consts::TAU * j as f32 / n as f32;
            let r = 10.0 + 0.5 * (j % 3) as f32;
            Vec2::new(r * a.cos(), r * a.sin())
        })
        .collect()
}

/// A star of `n` vertices (`n / 2` spikes): simple, concave at every other vertex.
fn star(n: usize) -> Vec<Vec2> {
    (0..n)
        .map(|i| {
            let a = core::f32::consts::TAU * i as f32 / n as f32;
            let r = if i % 2 == 0 {
                10.0
            } else {
                6.0 + 0.5 * ((i * 7) % 5) as f32
            };
            Vec2::new(r * a.cos(), r * a.sin())
        })
        .collect()
}

/// A keyhole (weakly simple): a 40 × 40 square with a hole shaped as a star of `n` vertices,
/// joined to the square's right side by a zero-width bridge along the x axis, both ends of
/// the bridge visited twice.
fn keyhole(n: usize) -> Vec<Vec2> {
    let v = Vec2::new;
    let hole = star(n);
    let mut pts = vec![v(-20.0, -20.0), v(20.0, -20.0), v(20.0, 0.0)];
    // The hole clockwise from its tip on the bridge, (10, 0), back to it.
    pts.push(hole[0]);
    pts.extend(hole[1..].iter().rev());
    pts.push(hole[0]);
    pts.extend([v(20.0, 0.0), v(20.0, 20.0), v(-20.0, 20.0)]);
    pts
}

/// The outline of a square ring of cells `side` wide whose bottom-left cell is missing, so
/// that its two ends touch at one corner, (1, 1): one weakly simple loop, round the outside and
/// the hole, passing that corner twice.
fn pinched_ring(side: usize) -> Vec<Vec2> {
    let solid = |x: usize, y: usize| (x == 0 || y == 0 || x == side - 1 || y == side - 1) && (x, y) != (0, 0);
    let outlines = tile_outlines(side, side, 1.0, Vec2::ZERO, solid).unwrap();
    assert_eq!(outlines.len(), 1, "one loop");
    let pts = outlines[0].points().to_vec();
    assert_eq!(pts.iter().filter(|&&p| p == Vec2::new(1.0, 1.0)).count(), 2);
    pts
}

/// The polygons each `decompose` test fails allocations of: a star (simple), a keyhole (a
/// bridge) and a pinched ring (a corner visited twice), so that the allocations only weakly
/// simple polygons make (pairing the passes at shared points, perturbing them) are failed too.
fn decompose_cases() -> [(&'static str, Vec<Vec2>); 3] {
    [
        ("star", star(200)),
        ("keyhole", keyhole(60)),
        ("pinched ring", pinched_ring(8)),
    ]
}

/// A `side` × `side` grid of cells, solid with probability about 0.45, from a fixed seed.
fn random_cells(side: usize) -> Vec<bool> {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    (0..side * side)
        .map(|_| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (s >> 33) % 100 < 45
        })
        .collect()
}

/// After `World::reserve`, adding that many awake bodies, static bodies, extra shapes and a
/// chain's segments allocates nothing: every allocation fails while they are added, and every
/// add succeeds. A level of 1000 chain segments followed by 2000 crates keeps its per-shape
/// arrays at the reserved size (no doubling when the first crate arrives). Reserving while
/// memory is gone is `OutOfMemory` and adds nothing.
#[test]
fn reserved_room_takes_the_bodies_without_allocating() {
    let chain = Chain::open(&zigzag(1001)).unwrap();
    let segments = chain.segment_count();
    let mut w = World::default();
    arm(0);
    assert_eq!(w.reserve(10, 10, 10), Err(SolverError::OutOfMemory));
    disarm();
    assert_eq!(w.body_count(), 0);
    let (crates, walls) = (2000, 50);
    w.reserve(crates + crates / 2, segments + walls, 0).unwrap();
    arm(0);
    let ground = w.add_chain(&ChainDef::new(&chain));
    let mut added = 0;
    for i in 0..walls {
        let at = Transform::from_translation(Vec2::new(i as f32 * 3.0, -5.0));
        added += usize::from(
            w.add_body(&BodyDef::new(BodyKind::Static, at, Shape::rect(1.0, 0.5)))
                .is_ok(),
        );
    }
    for i in 0..crates {
        let at =
            Transform::from_translation(Vec2::new((i % 100) as f32 * 1.5, 10.0 + (i / 100) as f32 * 1.5));
        let id = w.add_body(&BodyDef::new(BodyKind::Dynamic, at, Shape::rect(0.5, 0.5)));
        added += usize::from(id.is_ok());
        // Every other crate gets a second shape (a compound body).
        if let (Ok(id), true) = (id, i % 2 == 0) {
            let cap = Shape::Polygon(
                Polygon::make_offset_box(0.2, 0.2, Vec2::new(0.0, 0.6), Rot::IDENTITY).unwrap(),
            );
            added += usize::from(w.add_shape(id, &cap).is_ok());
        }
    }
    let failed_allocations = disarm();
    assert!(ground.is_ok(), "{ground:?}");
    assert_eq!(
        added,
        walls + crates + crates / 2,
        "{failed_allocations} allocations were tried"
    );
    assert_eq!(w.body_count(), 1 + walls + crates);
    w.step(1.0 / 60.0, 4).unwrap();
    w.check_invariants(true).unwrap();
}

#[test]
fn chains_report_running_out_of_memory() {
    let line = zigzag(1000);
    let ring = wavy_loop(1000);
    let open = Chain::open(&line).unwrap();
    let closed = Chain::closed(&ring).unwrap();
    assert!(open.points().len() < line.len() / 2 && closed.points().len() < ring.len());
    fail_each("Chain::open", || Chain::open(&line), |r| geometry_oom(r, &open));
    fail_each(
        "Chain::closed",
        || Chain::closed(&ring),
        |r| geometry_oom(r, &closed),
    );
}

#[test]
fn decompose_reports_running_out_of_memory() {
    for (name, poly) in decompose_cases() {
        let pieces = decompose(&poly).unwrap();
        assert!(pieces.len() >= 3, "{name}: {}", pieces.len());
        let total = fail_each(name, || decompose(&poly), |r| geometry_oom(r, &pieces));
        assert!(total > 5, "{name}: {total}");
    }
}

#[test]
fn tile_outlines_report_running_out_of_memory() {
    let side = 64;
    let cells = random_cells(side);
    let outlines = tile_outlines_from_cells(side, side, &cells, 0.5, Vec2::new(-3.0, 1.0)).unwrap();
    assert!(outlines.len() > 50, "{}", outlines.len());
    let total = fail_each(
        "tile_outlines",
        || tile_outlines(side, side, 0.5, Vec2::new(-3.0, 1.0), |x, y| cells[y * side + x]),
        |r| geometry_oom(r, &outlines),
    );
    assert!(total > 100, "{total}");
    fail_each(
        "tile_outlines_from_cells",
        || tile_outlines_from_cells(side, side, &cells, 0.5, Vec2::new(-3.0, 1.0)),
        |r| geometry_oom(r, &outlines),
    );
}

/// A 48 × 48 map of random tiles of every kind.
fn random_tiles(side: usize) -> Vec<Tile> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    (0..side * side)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            Tile::all()[(state % 12) as usize]
        })
        .collect()
}

#[test]
fn slope_outlines_and_heightfields_report_running_out_of_memory() {
    let side = 48;
    let tiles = random_tiles(side);
    let cell = Vec2::new(0.5, 0.75);
    let outlines = slope_outlines_from_tiles(side, side, &tiles, cell, Vec2::new(2.0, -1.0)).unwrap();
    assert!(outlines.len() > 50, "{}", outlines.len());
    let total = fail_each(
        "slope_outlines",
        || slope_outlines_from_tiles(side, side, &tiles, cell, Vec2::new(2.0, -1.0)),
        |r| geometry_oom(r, &outlines),
    );
    assert!(total > 100, "{total}");
    let heights: Vec<f32> = (0..500).map(|k| (k as f32 * 0.1).sin() + 2.0).collect();
    for kind in [HeightfieldKind::Samples, HeightfieldKind::Columns] {
        for bottom in [None, Some(0.0)] {
            let made = heightfield(Vec2::ZERO, 0.25, &heights, kind, bottom).unwrap();
            fail_each(
                "heightfield",
                || heightfield(Vec2::ZERO, 0.25, &heights, kind, bottom),
                |r| geometry_oom(r, &made),
            );
        }
    }
}

/// A world with a ground and a pile of boxes that has stepped a little, and its bodies.
fn world_with_a_pile() -> (World, Vec<BodyId>) {
    let mut w = World::default();
    let mut ids = vec![w
        .add_body(&BodyDef::new(
            BodyKind::Static,
            Transform::IDENTITY,
            Shape::rect(20.0, 0.5),
        ))
        .unwrap()];
    for i in 0..16 {
        let at = Vec2::new(-4.0 + (i % 8) as f32, 1.0 + (i / 8) as f32);
        let def = BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(at),
            Shape::rect(0.4, 0.4),
        );
        ids.push(w.add_body(&def).unwrap());
    }
    // Body 4 is a compound: a second shape (a circle inside its box) to set and remove.
    w.add_shape(ids[4], &Shape::circle_at(Vec2::new(0.1, 0.0), 0.2))
        .unwrap();
    for _ in 0..10 {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    (w, ids)
}

/// The added shape of `world_with_a_pile`'s body 4.
fn extra_shape(w: &World, body: BodyId) -> ShapeId {
    w.shape_ids(body)
        .unwrap()
        .find(|&s| s != body.first_shape())
        .unwrap()
}

/// Steps `w` ten times and returns its bodies' transforms.
fn run_on(w: &mut World, ids: &[BodyId]) -> Vec<Transform> {
    for _ in 0..10 {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    ids.iter().map(|&id| w.body(id).unwrap().transform).collect()
}

/// Adds `chain` through `add` (the Rust or the C call) to a fresh pile with each allocation
/// failing in turn (alone, and with every later one, as [`fail_each`]): a failed call leaves
/// the same bodies, invariants that hold and a world that steps on exactly as one never
/// asked; a call that succeeds adds one body with a shape per segment. Dropping the world
/// frees all it held.
fn add_chain_failing_each(
    name: &str,
    chain: &Chain,
    mut add: impl FnMut(&mut World) -> Result<BodyId, SolverError>,
) -> usize {
    let (mut reference, ids) = world_with_a_pile();
    let expected = run_on(&mut reference, &ids);
    drop((reference, ids));
    // One call with allocation `n` failing (alone when `only`); returns the allocation count.
    let mut attempt = |n: usize, only: bool| {
        let before = live();
        let (mut w, ids) = world_with_a_pile();
        let bodies = w.body_count();
        arm_as(n, only);
        let r = add(&mut w);
        let made = disarm();
        w.check_invariants(false)
            .unwrap_or_else(|e| panic!("{name}: allocation {n}: {e}"));
        match r {
            Ok(id) => {
                assert!(
                    only,
                    "{name}: allocations from {n} on failed but the call succeeded"
                );
                assert_eq!(w.body_count(), bodies + 1);
                assert_eq!(w.shapes(id).unwrap().count(), chain.segment_count());
                w.step(1.0 / 60.0, 4).unwrap();
            }
            Err(SolverError::OutOfMemory) => {
                assert_eq!(w.body_count(), bodies, "{name}: allocation {n}");
                assert_eq!(run_on(&mut w, &ids), expected, "{name}: allocation {n}");
            }
            Err(e) => panic!("{name}: allocation {n}: unexpected {e:?}"),
        }
        w.check_invariants(false)
            .unwrap_or_else(|e| panic!("{name}: allocation {n}: {e}"));
        drop((w, ids));
        assert_eq!(live(), before, "{name}: allocation {n} (only: {only}): leaked");
        made
    };
    let total = attempt(usize::MAX, true);
    for n in 0..total {
        attempt(n, true);
        attempt(n, false);
    }
    eprintln!("{name}: {total} allocations, each failed in turn");
    total
}

#[test]
fn adding_a_chain_to_a_world_reports_running_out_of_memory() {
    let chain = Chain::open(&zigzag(1000)).unwrap();
    for kind in [BodyKind::Static, BodyKind::Kinematic] {
        let def = ChainDef {
            kind,
            transform: Transform::from_translation(Vec2::new(-30.0, -5.0)),
            ..ChainDef::new(&chain)
        };
        let total = add_chain_failing_each(&format!("World::add_chain ({kind:?})"), &chain, |w| {
            w.add_chain(&def).map(|c| w.chain_body(c).unwrap())
        });
        assert!(total > 0);
    }
}

/// The C entry points called in-process: each allocation failing in turn gives
/// `C2D_STATUS_OUT_OF_MEMORY`, the outputs untouched and nothing held.
#[cfg(feature = "capi")]
mod c_entry_points {
    use super::*;
    use collide2d::capi::*;
    use std::cell::RefCell;

    /// True for out of memory (the outputs must be `untouched`), false for success.
    fn c_oom(status: Status, untouched: bool) -> bool {
        match status {
            Status::Ok => false,
            Status::OutOfMemory => {
                assert!(untouched, "an output was written");
                true
            }
            s => panic!("unexpected {s:?}"),
        }
    }

    #[test]
    fn c_chain_weld_reports_running_out_of_memory() {
        let line = zigzag(1000);
        let welded = Chain::open(&line).unwrap();
        let sentinel = Vec2::new(-7.0, 7.0);
        array_failing_each(
            "c2d_chain_weld",
            welded.points(),
            sentinel,
            line.len(),
            |out, _, count| {
                // SAFETY: `line.len()` readable points, as many writable, a writable count.
                unsafe { c2d_chain_weld(line.as_ptr(), line.len() as u32, false, out, count) }
            },
        );
    }

    #[test]
    fn c_decompose_reports_running_out_of_memory() {
        for (name, poly) in decompose_cases() {
            let pieces = decompose(&poly).unwrap();
            let sentinel = Polygon::make_box(123.0, 45.0).unwrap();
            let name = format!("c2d_decompose ({name})");
            array_failing_each(&name, &pieces, sentinel, 256, |out, room, count| {
                // SAFETY: `poly.len()` readable points, `room` writable polygons, a writable
                // count.
                unsafe { c2d_decompose(poly.as_ptr(), poly.len() as u32, out, room, count) }
            });
        }
    }

    #[test]
    fn c_tile_outlines_report_running_out_of_memory() {
        let side = 64;
        let cells: Vec<u8> = random_cells(side).into_iter().map(u8::from).collect();
        let outlines = tile_outlines(side, side, 0.5, Vec2::ZERO, |x, y| cells[y * side + x] != 0).unwrap();
        loops_failing_each(
            "c2d_tile_outlines",
            &outlines,
            |points, pcap, loops, lcap, pc, lc| {
                // SAFETY: `side * side` readable cells; the output buffers with their sizes.
                unsafe {
                    c2d_tile_outlines(
                        cells.as_ptr(),
                        side as u32,
                        side as u32,
                        0.5,
                        Vec2::ZERO,
                        points,
                        pcap,
                        loops,
                        lcap,
                        pc,
                        lc,
                    )
                }
            },
        );
    }

    #[test]
    fn c_slope_outlines_report_running_out_of_memory() {
        let side = 48;
        let tiles = random_tiles(side);
        let bytes: Vec<u8> = tiles.iter().map(|&t| t as u8).collect();
        let cell = Vec2::new(0.5, 0.75);
        let outlines = slope_outlines_from_tiles(side, side, &tiles, cell, Vec2::ZERO).unwrap();
        loops_failing_each(
            "c2d_slope_outlines",
            &outlines,
            |points, pcap, loops, lcap, pc, lc| {
                // SAFETY: `side * side` readable tiles; the output buffers with their sizes.
                unsafe {
                    c2d_slope_outlines(
                        bytes.as_ptr(),
                        side as u32,
                        side as u32,
                        cell,
                        Vec2::ZERO,
                        points,
                        pcap,
                        loops,
                        lcap,
                        pc,
                        lc,
                    )
                }
            },
        );
    }

    #[test]
    fn c_heightfield_reports_running_out_of_memory() {
        let heights: Vec<f32> = (0..500).map(|k| (k as f32 * 0.1).sin() + 2.0).collect();
        let made = heightfield(Vec2::ZERO, 0.25, &heights, HeightfieldKind::Columns, Some(0.0)).unwrap();
        let sentinel = Vec2::new(-7.0, 7.0);
        let room = 2 * heights.len() + 2;
        array_failing_each(
            "c2d_heightfield",
            made.points(),
            sentinel,
            room,
            |out, room, count| {
                // SAFETY: `heights.len()` readable heights, `room` writable points, a writable count.
                unsafe {
                    let hs = heights.as_ptr();
                    c2d_heightfield(
                        Vec2::ZERO,
                        0.25,
                        hs,
                        heights.len() as u32,
                        1,
                        true,
                        0.0,
                        out,
                        room,
                        count,
                    )
                }
            },
        );
    }

    /// A C entry point that writes an array and its count (`call` gets the array, its room
    /// and the count), with each of its allocations failing in turn: out of memory writes
    /// nothing, success writes exactly `expected`.
    fn array_failing_each<T: Copy + PartialEq + core::fmt::Debug>(
        name: &str,
        expected: &[T],
        sentinel: T,
        room: usize,
        call: impl Fn(*mut T, u32, *mut u32) -> Status,
    ) {
        let out = RefCell::new((vec![sentinel; room], u32::MAX));
        fail_each(
            name,
            || {
                let (out, count) = &mut *out.borrow_mut();
                out.fill(sentinel);
                *count = u32::MAX;
                call(out.as_mut_ptr(), room as u32, count)
            },
            |s| {
                let (out, count) = &*out.borrow();
                let count = *count;
                let untouched = count == u32::MAX && out.iter().all(|&p| p == sentinel);
                let oom = c_oom(s, untouched);
                if !oom {
                    assert_eq!(&out[..count as usize], expected);
                }
                oom
            },
        );
    }

    /// A C entry point that writes loops as `c2d_tile_outlines` does (`call` gets the point
    /// buffer and its size, the loop-count buffer and its size, and the two total counts),
    /// with each of its allocations failing in turn: out of memory writes nothing, success
    /// writes exactly `outlines`.
    #[allow(clippy::type_complexity)]
    fn loops_failing_each(
        name: &str,
        outlines: &[Chain],
        call: impl Fn(*mut Vec2, u32, *mut u32, u32, *mut u32, *mut u32) -> Status,
    ) {
        let points: Vec<Vec2> = outlines.iter().flat_map(|c| c.points().iter().copied()).collect();
        let loops: Vec<u32> = outlines.iter().map(|c| c.points().len() as u32).collect();
        let sentinel = Vec2::new(-7.0, 7.0);
        let out = RefCell::new((
            vec![sentinel; points.len()],
            vec![u32::MAX; loops.len()],
            u32::MAX,
            u32::MAX,
        ));
        fail_each(
            name,
            || {
                let (out_points, out_loops, point_count, loop_count) = &mut *out.borrow_mut();
                out_points.fill(sentinel);
                out_loops.fill(u32::MAX);
                (*point_count, *loop_count) = (u32::MAX, u32::MAX);
                call(
                    out_points.as_mut_ptr(),
                    out_points.len() as u32,
                    out_loops.as_mut_ptr(),
                    out_loops.len() as u32,
                    point_count,
                    loop_count,
                )
            },
            |s| {
                let (out_points, out_loops, point_count, loop_count) = &*out.borrow();
                let (point_count, loop_count) = (*point_count, *loop_count);
                let untouched = point_count == u32::MAX
                    && loop_count == u32::MAX
                    && out_points.iter().all(|&p| p == sentinel)
                    && out_loops.iter().all(|&c| c == u32::MAX);
                let oom = c_oom(s, untouched);
                if !oom {
                    assert_eq!(
                        (point_count as usize, loop_count as usize),
                        (points.len(), loops.len())
                    );
                    assert_eq!((out_points, out_loops), (&points, &loops));
                }
                oom
            },
        );
    }

    #[test]
    fn c_world_add_chain_reports_running_out_of_memory() {
        let line = zigzag(1000);
        let chain = Chain::open(&line).unwrap();
        // SAFETY: a writable definition.
        let mut def: CChainDef = unsafe { core::mem::zeroed() };
        // SAFETY: as above.
        assert_eq!(unsafe { c2d_chain_def_default(&mut def) }, Status::Ok);
        def.points = line.as_ptr();
        def.count = line.len() as u32;
        add_chain_failing_each("c2d_world_add_chain", &chain, |w| {
            let mut id = ChainId::default();
            // SAFETY: a lent world, a readable def with `line.len()` readable points, a
            // writable id.
            let s = lend_world(w, |w| unsafe { c2d_world_add_chain(w, &def, &mut id) }).unwrap();
            match s {
                Status::Ok => Ok(w.chain_body(id).unwrap()),
                Status::OutOfMemory => {
                    assert_eq!(id, ChainId::default(), "the id was written");
                    Err(SolverError::OutOfMemory)
                }
                s => panic!("unexpected {s:?}"),
            }
        });
    }

    /// The entry points include/collide2d.h documents as able to return
    /// `C2D_STATUS_OUT_OF_MEMORY` (the allocating ones): each function declaration whose
    /// comment block names the status.
    fn header_allocating_entry_points() -> std::collections::BTreeSet<String> {
        let header =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/collide2d.h")).unwrap();
        let mut found = std::collections::BTreeSet::new();
        let mut comment = String::new();
        for line in header.lines() {
            if let Some(text) = line.strip_prefix("//") {
                comment.push_str(text);
                continue;
            }
            if !line.starts_with(' ') && !line.starts_with('#') && !line.starts_with("typedef") {
                if let Some(name) = line
                    .split('(')
                    .next()
                    .and_then(|head| head.split_whitespace().last())
                    .map(|n| n.trim_start_matches('*'))
                {
                    if name.starts_with("c2d_")
                        && line.contains('(')
                        && comment.contains("C2D_STATUS_OUT_OF_MEMORY")
                    {
                        found.insert(name.to_string());
                    }
                }
            }
            comment.clear();
        }
        found
    }

    /// The allocating entry points this module fails allocation by allocation.
    const FAILED_IN_TURN: [&str; 26] = [
        "c2d_chain_weld",
        "c2d_decompose",
        "c2d_heightfield",
        "c2d_slope_outlines",
        "c2d_tile_outlines",
        "c2d_tree_create",
        "c2d_tree_create_proxy",
        "c2d_tree_create_proxy_with_margin",
        "c2d_world_add_body",
        "c2d_world_add_chain",
        "c2d_world_add_joint",
        "c2d_world_add_shape",
        "c2d_world_add_shape_def",
        "c2d_world_clone",
        "c2d_world_create",
        "c2d_world_create_from_snapshot",
        "c2d_world_remove_body",
        "c2d_world_remove_chain",
        "c2d_world_remove_shape",
        "c2d_world_reserve",
        "c2d_world_restore",
        "c2d_world_set_awake",
        "c2d_world_set_filter",
        "c2d_world_set_shape_filter",
        "c2d_world_set_shape_sensor",
        "c2d_world_step",
    ];

    #[test]
    fn every_allocating_entry_point_the_header_names_is_failed_in_turn() {
        let named = header_allocating_entry_points();
        let tested: std::collections::BTreeSet<String> =
            FAILED_IN_TURN.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            named, tested,
            "the header's allocating entry points (documented with C2D_STATUS_OUT_OF_MEMORY) and \
             this module's tests differ"
        );
    }

    /// `op` on a fresh world from `make`, with each of its allocations failing in turn (alone,
    /// and with every later one): out of memory leaves the same bodies, invariants that hold
    /// and a world that steps on bit for bit as one never asked; success is checked by
    /// `on_ok`. Dropping the world frees all it held. Returns the allocation count.
    fn world_op_failing_each(
        name: &str,
        make: impl Fn() -> (World, Vec<BodyId>),
        mut op: impl FnMut(&mut World, &[BodyId]) -> Status,
        mut on_ok: impl FnMut(&mut World, &[BodyId]),
    ) -> usize {
        let (mut reference, ids) = make();
        let expected = run_on(&mut reference, &ids);
        drop((reference, ids));
        let mut attempt = |n: usize, only: bool| {
            let before = live();
            let (mut w, ids) = make();
            let bodies = w.body_count();
            arm_as(n, only);
            let s = op(&mut w, &ids);
            let made = disarm();
            w.check_invariants(false)
                .unwrap_or_else(|e| panic!("{name}: allocation {n}: {e}"));
            match s {
                Status::Ok => {
                    assert!(
                        only,
                        "{name}: allocations from {n} on failed but the call succeeded"
                    );
                    on_ok(&mut w, &ids);
                }
                Status::OutOfMemory => {
                    assert_eq!(w.body_count(), bodies, "{name}: allocation {n}");
                    assert_eq!(run_on(&mut w, &ids), expected, "{name}: allocation {n}");
                }
                s => panic!("{name}: allocation {n}: unexpected {s:?}"),
            }
            w.check_invariants(false)
                .unwrap_or_else(|e| panic!("{name}: allocation {n}: {e}"));
            drop((w, ids));
            assert_eq!(live(), before, "{name}: allocation {n} (only: {only}): leaked");
            made
        };
        let total = attempt(usize::MAX, true);
        for n in 0..total {
            attempt(n, true);
            attempt(n, false);
        }
        eprintln!("{name}: {total} allocations, each failed in turn");
        total
    }

    /// A pile that has stepped, then a row of fresh boxes over it (their pairs and contacts
    /// begin in the next step: the step that allocates most).
    fn pile_with_fresh_boxes() -> (World, Vec<BodyId>) {
        let (mut w, mut ids) = world_with_a_pile();
        for i in 0..12 {
            let def = BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(Vec2::new(-5.0 + 0.81 * i as f32, 3.2)),
                Shape::rect(0.4, 0.4),
            );
            ids.push(w.add_body(&def).unwrap());
        }
        (w, ids)
    }

    /// [`pile_with_fresh_boxes`] with a chain between the pile and the fresh boxes (they land
    /// on it), the chain's body last in the list.
    fn pile_with_fresh_boxes_and_a_chain() -> (World, Vec<BodyId>) {
        let (mut w, mut ids) = pile_with_fresh_boxes();
        let chain = Chain::open(&[Vec2::new(-6.0, 2.7), Vec2::new(0.0, 2.65), Vec2::new(6.0, 2.7)]).unwrap();
        let id = w.add_chain(&ChainDef::new(&chain)).unwrap();
        ids.push(w.chain_body(id).unwrap());
        (w, ids)
    }

    /// The id of the chain whose body is `body`.
    fn chain_of(body: BodyId) -> ChainId {
        ChainId {
            index: body.index,
            generation: body.generation,
        }
    }

    /// [`pile_with_fresh_boxes`] after a step that ran out of memory late, once the narrow
    /// phase had begun new contacts: removals and filter changes then need room for the ends
    /// of those contacts, which the failed step could not reserve. The latest allocation whose
    /// failure leaves that need (found by trying from the last one down).
    fn pile_after_a_failed_step() -> (World, Vec<BodyId>) {
        static LATE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        after_a_failed_step(pile_with_fresh_boxes, &LATE)
    }

    /// [`pile_with_fresh_boxes_and_a_chain`] after a failed step, as
    /// [`pile_after_a_failed_step`].
    fn pile_with_a_chain_after_a_failed_step() -> (World, Vec<BodyId>) {
        static LATE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        after_a_failed_step(pile_with_fresh_boxes_and_a_chain, &LATE)
    }

    /// `make`'s world after a step that ran out of memory at the latest allocation whose
    /// failure leaves removals and filter changes needing memory (found once, in `late`).
    fn after_a_failed_step(
        make: fn() -> (World, Vec<BodyId>),
        late: &std::sync::OnceLock<usize>,
    ) -> (World, Vec<BodyId>) {
        let fail_at = |n: usize| {
            let (mut w, ids) = make();
            arm(n);
            let r = w.step(1.0 / 60.0, 4);
            disarm();
            assert_eq!(r, Err(SolverError::OutOfMemory), "allocation {n}");
            (w, ids)
        };
        let n = *late.get_or_init(|| {
            let (mut w, _) = make();
            arm(usize::MAX);
            w.step(1.0 / 60.0, 4).unwrap();
            let total = disarm();
            (0..total)
                .rev()
                .find(|&n| {
                    let (mut w, ids) = fail_at(n);
                    arm(0);
                    let r = w.set_filter(ids[4], Filter::DEFAULT);
                    disarm();
                    r == Err(SolverError::OutOfMemory)
                })
                .expect("no failed step leaves removals needing memory")
        });
        fail_at(n)
    }

    #[test]
    fn c_world_create_reports_running_out_of_memory() {
        let out = RefCell::new(WorldId::default());
        let total = fail_each(
            "c2d_world_create",
            || {
                *out.borrow_mut() = WorldId::default();
                // SAFETY: NULL settings (the defaults) and a writable id.
                unsafe { c2d_world_create(core::ptr::null(), &mut *out.borrow_mut()) }
            },
            |s| {
                let w = *out.borrow();
                let oom = c_oom(s, w == WorldId::default());
                // SAFETY: an id from `c2d_world_create` or the zero id, destroyed once.
                let destroyed = unsafe { c2d_world_destroy(w) };
                assert_eq!(destroyed, if oom { Status::InvalidWorld } else { Status::Ok });
                oom
            },
        );
        assert!(total > 0);
    }

    #[test]
    fn c_world_add_body_and_add_shape_report_running_out_of_memory() {
        let def = BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(6.0, 4.0)),
            Shape::capsule(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.2),
        );
        for kind in [BodyKind::Dynamic, BodyKind::Static] {
            let def = BodyDef { kind, ..def };
            let made = std::cell::Cell::new(BodyId::default());
            let total = world_op_failing_each(
                &format!("c2d_world_add_body ({kind:?})"),
                world_with_a_pile,
                |w, _| {
                    let mut id = BodyId::default();
                    // SAFETY: a live world, a readable definition, a writable id.
                    let s = lend_world(w, |w| unsafe { c2d_world_add_body(w, &def, &mut id) }).unwrap();
                    if s == Status::OutOfMemory {
                        assert_eq!(id, BodyId::default(), "the id was written");
                    }
                    made.set(id);
                    s
                },
                |w, _| {
                    assert_eq!(w.body(made.get()).unwrap().transform, def.transform);
                    w.step(1.0 / 60.0, 4).unwrap();
                },
            );
            assert!(total > 0);
        }
        let extra = Shape::circle_at(Vec2::new(0.45, 0.0), 0.2);
        let mut def = ShapeDef::new(extra);
        def.sensor = true;
        world_op_failing_each(
            "c2d_world_add_shape_def",
            world_with_a_pile,
            // SAFETY: a live world and a readable definition.
            |w, ids| {
                lend_world(w, |w| unsafe {
                    c2d_world_add_shape_def(w, ids[3], &def, core::ptr::null_mut())
                })
                .unwrap()
            },
            |w, ids| {
                assert_eq!(w.shapes(ids[3]).unwrap().count(), 2);
                w.step(1.0 / 60.0, 4).unwrap();
            },
        );
        world_op_failing_each(
            "c2d_world_add_shape",
            world_with_a_pile,
            // SAFETY: a live world and a readable shape.
            |w, ids| {
                lend_world(w, |w| unsafe {
                    c2d_world_add_shape(w, ids[3], &extra, core::ptr::null_mut())
                })
                .unwrap()
            },
            |w, ids| {
                assert_eq!(w.shapes(ids[3]).unwrap().count(), 2);
                w.step(1.0 / 60.0, 4).unwrap();
            },
        );
    }

    /// Adding a joint that keeps two touching bodies apart (their contact ends): out of memory
    /// adds and changes nothing.
    #[test]
    fn c_world_joints_report_running_out_of_memory() {
        // Bodies 1 and 2 rest side by side on the ground and touch.
        let total = world_op_failing_each(
            "c2d_world_add_joint",
            world_with_a_pile,
            |w, ids| {
                let def = JointDef::new(JointKind::Filter, ids[1], ids[2]);
                let mut j = JointId::default();
                // SAFETY: a live world, a readable definition, a writable id.
                let s = lend_world(w, |w| unsafe { c2d_world_add_joint(w, &def, &mut j) }).unwrap();
                assert_eq!(j == JointId::default(), s != Status::Ok, "{s:?}");
                s
            },
            |w, _| {
                assert_eq!(w.joint_count(), 1);
                w.step(1.0 / 60.0, 4).unwrap();
            },
        );
        assert!(total > 0);
    }

    /// Restoring a snapshot into a world, creating a world from one and cloning a world:
    /// out of memory leaves the world as it was and creates nothing.
    #[test]
    fn c_world_snapshot_entry_points_report_running_out_of_memory() {
        let bytes = {
            let (mut w, _) = pile_with_fresh_boxes();
            for _ in 0..5 {
                w.step(1.0 / 60.0, 4).unwrap();
            }
            w.snapshot_to_vec().unwrap()
        };
        let total = world_op_failing_each(
            "c2d_world_restore",
            world_with_a_pile,
            // SAFETY: a live world and readable bytes.
            |w, _| {
                lend_world(w, |w| unsafe {
                    c2d_world_restore(w, bytes.as_ptr(), bytes.len())
                })
                .unwrap()
            },
            |w, _| assert_eq!(w.snapshot_to_vec().unwrap(), bytes),
        );
        assert!(total > 0);
        let total = world_op_failing_each(
            "c2d_world_create_from_snapshot",
            world_with_a_pile,
            |_, _| {
                let mut made = WorldId::default();
                // SAFETY: readable bytes and a writable id.
                let s = unsafe { c2d_world_create_from_snapshot(bytes.as_ptr(), bytes.len(), &mut made) };
                let oom = s == Status::OutOfMemory;
                assert_eq!(made == WorldId::default(), oom, "{s:?}");
                // SAFETY: the world just made, or the zero id.
                let destroyed = unsafe { c2d_world_destroy(made) };
                assert_eq!(destroyed, if oom { Status::InvalidWorld } else { Status::Ok });
                s
            },
            |_, _| {},
        );
        assert!(total > 0);
        // The copy's snapshot goes into a buffer made before any allocation is counted.
        let buffer = RefCell::new(vec![0u8; 1 << 20]);
        let copy_hash = std::cell::Cell::new(0u64);
        let hash = |b: &[u8]| {
            b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| {
                (h ^ u64::from(x)).wrapping_mul(0x100_0000_01b3)
            })
        };
        let total = world_op_failing_each(
            "c2d_world_clone",
            world_with_a_pile,
            |w, _| {
                let mut made = WorldId::default();
                let s = lend_world(w, |w| {
                    // SAFETY: a live world and a writable id.
                    let s = unsafe { c2d_world_clone(w, &mut made) };
                    if s == Status::Ok {
                        let mut bytes = buffer.borrow_mut();
                        let mut n = 0;
                        // SAFETY: the copy just made, a buffer of its length, a writable size.
                        let r = unsafe { c2d_world_snapshot(made, bytes.as_mut_ptr(), bytes.len(), &mut n) };
                        assert_eq!(r, Status::Ok);
                        copy_hash.set(hash(&bytes[..n]));
                    }
                    s
                })
                .unwrap();
                assert_eq!(made == WorldId::default(), s != Status::Ok, "{s:?}");
                // SAFETY: the world just made, or the zero id.
                unsafe { c2d_world_destroy(made) };
                s
            },
            |w, _| {
                assert_eq!(
                    hash(&w.snapshot_to_vec().unwrap()),
                    copy_hash.get(),
                    "the clone differs"
                )
            },
        );
        assert!(total > 0);
    }

    #[test]
    fn c_world_reserve_reports_running_out_of_memory() {
        let total = world_op_failing_each(
            "c2d_world_reserve",
            world_with_a_pile,
            // SAFETY: a live world.
            |w, _| lend_world(w, |w| unsafe { c2d_world_reserve(w, 500, 300, 800) }).unwrap(),
            |w, _| {
                // The room is there: 500 more awake bodies take no allocation.
                arm(0);
                for i in 0..500 {
                    let at = Transform::from_translation(Vec2::new(i as f32 * 1.1 - 250.0, 30.0));
                    w.add_body(&BodyDef::new(BodyKind::Dynamic, at, Shape::rect(0.5, 0.5)))
                        .unwrap();
                }
                disarm();
            },
        );
        assert!(total > 0);
    }

    /// Every body's pose and velocity, bit for bit.
    fn motion(w: &World, ids: &[BodyId]) -> Vec<(Transform, Vec2, f32)> {
        ids.iter()
            .map(|&id| {
                let b = w.body(id).unwrap();
                (b.transform, b.linear_velocity, b.angular_velocity)
            })
            .collect()
    }

    /// A step with each of its allocations failing in turn (alone, and with every later one):
    /// out of memory moves no body (poses and velocities bit for bit as before), keeps every
    /// body and the invariants, and the world steps on; nothing leaks.
    #[test]
    fn c_world_step_reports_running_out_of_memory() {
        let step = |w: &mut World| {
            // SAFETY: a live world.
            lend_world(w, |w| unsafe { c2d_world_step(w, 1.0 / 60.0, 4) }).unwrap()
        };
        let (mut w, _) = pile_with_fresh_boxes();
        arm(usize::MAX);
        assert_eq!(step(&mut w), Status::Ok);
        let total = disarm();
        drop(w);
        assert!(total > 5, "{total}");
        for n in 0..total {
            for only in [true, false] {
                let before = live();
                let (mut w, ids) = pile_with_fresh_boxes();
                let was = motion(&w, &ids);
                arm_as(n, only);
                let s = step(&mut w);
                disarm();
                w.check_invariants(false)
                    .unwrap_or_else(|e| panic!("c2d_world_step: allocation {n}: {e}"));
                if c_oom(s, true) {
                    assert_eq!(
                        motion(&w, &ids),
                        was,
                        "c2d_world_step: allocation {n}: a body moved"
                    );
                } else {
                    assert!(
                        only,
                        "c2d_world_step: allocations from {n} on failed but the step succeeded"
                    );
                }
                assert_eq!(w.body_count(), ids.len());
                for _ in 0..3 {
                    assert_eq!(step(&mut w), Status::Ok);
                }
                w.check_invariants(false).unwrap();
                drop((w, ids, was));
                assert_eq!(
                    live(),
                    before,
                    "c2d_world_step: allocation {n} (only: {only}): leaked"
                );
            }
        }
        eprintln!("c2d_world_step: {total} allocations, each failed in turn");
    }

    #[test]
    fn c_world_remove_body_and_set_filter_report_running_out_of_memory_after_a_failed_step() {
        let names = [
            "c2d_world_remove_body",
            "c2d_world_set_filter",
            "c2d_world_set_shape_filter",
            "c2d_world_set_shape_sensor",
            "c2d_world_remove_shape",
        ];
        for (which, name) in names.into_iter().enumerate() {
            let total = world_op_failing_each(
                name,
                pile_after_a_failed_step,
                |w, ids| {
                    let extra = extra_shape(w, ids[4]);
                    // SAFETY: a live world and a readable filter.
                    lend_world(w, |w| unsafe {
                        match which {
                            0 => c2d_world_remove_body(w, ids[4]),
                            1 => c2d_world_set_filter(w, ids[4], &Filter::DEFAULT),
                            2 => c2d_world_set_shape_filter(w, ids[4].first_shape(), &Filter::DEFAULT),
                            3 => c2d_world_set_shape_sensor(w, extra, true),
                            _ => c2d_world_remove_shape(w, extra),
                        }
                    })
                    .unwrap()
                },
                |w, ids| {
                    assert_eq!(w.body(ids[4]).is_ok(), which != 0);
                    w.step(1.0 / 60.0, 4).unwrap();
                },
            );
            assert!(total > 0, "{name}");
        }
    }

    #[test]
    fn c_world_remove_chain_reports_running_out_of_memory_after_a_failed_step() {
        let total = world_op_failing_each(
            "c2d_world_remove_chain",
            pile_with_a_chain_after_a_failed_step,
            |w, ids| {
                let chain = chain_of(*ids.last().unwrap());
                // SAFETY: a live world.
                lend_world(w, |w| unsafe { c2d_world_remove_chain(w, chain) }).unwrap()
            },
            |w, ids| {
                let chain = chain_of(*ids.last().unwrap());
                assert_eq!(w.chain_body(chain), Err(SolverError::InvalidChainId));
                w.step(1.0 / 60.0, 4).unwrap();
            },
        );
        assert!(total > 0);
    }

    /// Putting a body to sleep gathers the bodies touching it into a new island, which
    /// allocates; out of memory leaves them awake and moving as before.
    #[test]
    fn c_world_set_awake_reports_running_out_of_memory() {
        let total = world_op_failing_each(
            "c2d_world_set_awake",
            world_with_a_pile,
            |w, ids| {
                assert!(w.is_awake(ids[3]).unwrap());
                // SAFETY: a live world.
                lend_world(w, |w| unsafe { c2d_world_set_awake(w, ids[3], false) }).unwrap()
            },
            |w, ids| {
                assert!(!w.is_awake(ids[3]).unwrap());
                w.step(1.0 / 60.0, 4).unwrap();
            },
        );
        assert!(total > 0);
    }

    #[test]
    fn c_tree_create_and_create_proxy_report_running_out_of_memory() {
        let out = RefCell::new(core::ptr::null_mut::<Tree>());
        fail_each(
            "c2d_tree_create",
            || {
                *out.borrow_mut() = core::ptr::null_mut();
                // SAFETY: a writable handle.
                unsafe { c2d_tree_create(&mut *out.borrow_mut()) }
            },
            |s| {
                let t = *out.borrow();
                let oom = c_oom(s, t.is_null());
                // SAFETY: a handle from `c2d_tree_create` or NULL, freed once.
                unsafe { c2d_tree_free(t) };
                oom
            },
        );
        // Filling a heap tree past each growth of its storage, with and without a margin.
        for margin in [None, Some(0.02)] {
            let name = if margin.is_some() {
                "c2d_tree_create_proxy_with_margin"
            } else {
                "c2d_tree_create_proxy"
            };
            let mut t = core::ptr::null_mut::<Tree>();
            // SAFETY: a writable handle.
            assert_eq!(unsafe { c2d_tree_create(&mut t) }, Status::Ok);
            let mut failed = 0;
            for i in 0..300u32 {
                let b = Aabb::new(Vec2::new(i as f32, 0.0), Vec2::new(i as f32 + 0.5, 0.5));
                let insert = |id: &mut u32| {
                    // SAFETY: a live tree, a readable box, a writable id.
                    unsafe {
                        match margin {
                            Some(m) => c2d_tree_create_proxy_with_margin(t, &b, m, 1, u64::from(i), id),
                            None => c2d_tree_create_proxy(t, &b, 1, u64::from(i), id),
                        }
                    }
                };
                // The insertion with its allocation failing (a growth of the storage is one
                // allocation): out of memory leaves the tree as it was and holds nothing more;
                // an insertion that needs no room allocates nothing.
                // SAFETY: a live tree.
                let count = unsafe { c2d_tree_proxy_count(t) };
                let before = live();
                let mut id = u32::MAX;
                arm(0);
                let s = insert(&mut id);
                let tried = disarm();
                if c_oom(s, id == u32::MAX) {
                    // SAFETY: a live tree.
                    unsafe {
                        assert_eq!(c2d_tree_proxy_count(t), count, "{name}: proxy {i}");
                        assert_eq!(c2d_tree_validate(t), Status::Ok, "{name}: proxy {i}");
                    }
                    assert_eq!(live(), before, "{name}: proxy {i}: leaked");
                    failed += 1;
                    assert_eq!(insert(&mut id), Status::Ok);
                } else {
                    assert_eq!(tried, 0, "{name}: proxy {i}: an allocation failed unreported");
                }
            }
            assert!(failed > 0, "{name}: the storage never grew");
            eprintln!("{name}: {failed} growth allocations failed in turn");
            let before_free = live();
            // SAFETY: a live handle, freed once.
            unsafe { c2d_tree_free(t) };
            assert!(live() < before_free);
        }
    }
}
