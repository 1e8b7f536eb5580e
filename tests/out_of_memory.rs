//! Out of memory never aborts and never corrupts: a global allocator that fails every
//! allocation from the n-th on (for every n a scripted scene reaches) makes each `World` and
//! tree call either succeed or return its out-of-memory error; once memory is back the same
//! world goes on stepping, its invariants hold (checked by brute force) and every body added
//! is there. An allocation the library did not reserve would abort this test process.
#![cfg(all(feature = "solver", feature = "alloc"))]
use collide2d::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Fails allocations on the test's own thread once `FAIL_FROM` allocations have been made
/// while armed; other threads (the harness) are never failed.
struct FailingAllocator;

thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
    static FAIL_FROM: Cell<usize> = const { Cell::new(usize::MAX) };
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
            n >= FAIL_FROM.with(|f| f.get())
        };
        if fail {
            core::ptr::null_mut()
        } else {
            // SAFETY: the caller's layout, passed through.
            unsafe { System.alloc(layout) }
        }
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: `p` came from System with this layout.
        unsafe { System.dealloc(p, layout) }
    }
}

#[global_allocator]
static GLOBAL: FailingAllocator = FailingAllocator;

fn arm(fail_from: usize) {
    COUNT.with(|c| c.set(0));
    FAIL_FROM.with(|f| f.set(fail_from));
    ARMED.with(|a| a.set(true));
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
    added.extend(ok_or_oom(w.add_chain(&ground, chain)));
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
