//! Arbitrary bytes through the solver's C ABI: body definitions read from raw bytes (invalid
//! kinds and shape tags, garbage polygons, NaN everywhere), removals with arbitrary ids, steps
//! with arbitrary dt and sub-step counts, velocity and transform changes, ray casts, AABB
//! queries and events, extra shapes from raw bytes, chains, decompositions and tile outlines from
//! raw numbers, the character mover from raw bytes and with the makers' shapes; a scene that
//! makes contact and sensor events; then the immediate-mode functions on raw body
//! and constraint arrays, including the solver's split entry points and body makers; the world
//! settings (recycle distance, internal-edge removal, a profile clock, non-default solver
//! settings, custom filter and pre-solve hooks that try to change the world, and destroyed
//! ids in a second world), body definitions from `c2d_body_def`, joints (from the makers and
//! from raw bytes, every joint entry point on live and stale ids), debug drawing, and every
//! allocating entry point with its allocations failing from a chosen one on (`failing_alloc`;
//! out of memory must leave every body, its shapes and their definitions as they were).
//! Nothing may panic; errors must be status codes; after every operation the world passes
//! `c2d_world_validate` (its invariants, every body finite) and the event lists name live
//! bodies and shapes or ones the target removed (right after a step, begin events name live
//! ones only); query and ray callbacks name live bodies, ray hits have a fraction in [0, 1]
//! and a unit normal, and mover results are finite.
#![no_main]
use collide2d::capi::*;
use collide2d::solver::{Body, ContactConstraint};
use collide2d::*;
use core::ffi::c_void;
use core::mem::size_of;
use draw_table::{draw_table, Seen};
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;

#[path = "draw_table.rs"]
mod draw_table;
#[path = "failing_alloc.rs"]
mod failing_alloc;
use failing_alloc::failing;

/// A profile clock: a counter that only goes up.
extern "C" fn tick() -> u64 {
    use core::sync::atomic::{AtomicU64, Ordering};
    static TICKS: AtomicU64 = AtomicU64::new(0);
    TICKS.fetch_add(7, Ordering::Relaxed)
}

/// What the query callbacks get: the world they query (every body they are handed must be
/// live in it) and a call counter.
struct Probe {
    world: WorldId,
    calls: u64,
}

unsafe extern "C" fn on_body(b: BodyId, c: *mut c_void) -> bool {
    // SAFETY: the context is the target's live `Probe`.
    let p = unsafe { &mut *(c as *mut Probe) };
    p.calls += 1;
    // SAFETY: the world is live (it is being queried; reading is allowed in its callbacks).
    assert!(
        unsafe { live_body(p.world, b) },
        "a query named a body that is not live: {b:?}"
    );
    true
}

unsafe extern "C" fn on_ray(hit: *const WorldRayHit, c: *mut c_void) -> f32 {
    // SAFETY: the context is the target's live `Probe`; `hit` is valid during the call.
    let (p, hit) = unsafe { (&mut *(c as *mut Probe), &*hit) };
    p.calls += 1;
    // SAFETY: as in `on_body`.
    unsafe { check_ray_hit(p.world, hit) };
    hit.hit.fraction
}

/// Whether `id` names a live body of `w`.
///
/// # Safety
/// `w` live (or being queried).
unsafe fn live_body(w: WorldId, id: BodyId) -> bool {
    // SAFETY: the caller's contract; `b` is a local of a plain-data type.
    unsafe {
        let mut b = core::mem::zeroed::<Body>();
        c2d_world_get_body(w, id, &mut b) == Status::Ok
    }
}

/// Whether `shape` is a live shape of the live body `body`.
///
/// # Safety
/// `w` live.
unsafe fn owns(w: WorldId, body: BodyId, shape: ShapeId) -> bool {
    let mut owner = BodyId::default();
    // SAFETY: the caller's contract; `owner` is a local.
    unsafe { c2d_world_shape_body(w, shape, &mut owner) == Status::Ok && owner == body }
}

/// A world ray hit as the docs promise it: a live body, a fraction of the translation in
/// [0, 1], a unit normal and a finite point.
///
/// # Safety
/// `w` live (or being queried).
unsafe fn check_ray_hit(w: WorldId, hit: &WorldRayHit) {
    // SAFETY: the caller's contract.
    assert!(
        unsafe { live_body(w, hit.body) },
        "a ray hit a body that is not live: {hit:?}"
    );
    assert!(hit.hit.fraction >= 0.0 && hit.hit.fraction <= 1.0, "{hit:?}");
    assert!((hit.hit.normal.length() - 1.0).abs() < 1e-3, "{hit:?}");
    assert!(hit.hit.point.is_finite(), "{hit:?}");
}

/// The ids the target removed: bodies (removed alone or as a chain's body) and shapes removed
/// from a body. End events name them with the ids as they were, and the event lists keep the
/// last step's events until the next step, so an event may name these once they are stale.
#[derive(Default)]
struct Removed {
    bodies: HashSet<BodyId>,
    shapes: HashSet<ShapeId>,
}

/// The event lists against what the docs promise. Always: every contact and sensor event names,
/// on each side, a live body with its live shape, or a body or shape the caller removed. Right
/// after a step that succeeded (`fresh`): every begin event names live bodies and their live
/// shapes (nothing was removed since), and every contact begin carries a manifold of 1 or 2
/// points with a unit normal.
///
/// # Safety
/// `w` live.
unsafe fn check_events(w: WorldId, removed: &Removed, fresh: bool) {
    // SAFETY (whole body): the caller's contract; every pointer is a local.
    unsafe {
        let named = |body: BodyId, shape: ShapeId| {
            owns(w, body, shape) || removed.bodies.contains(&body) || removed.shapes.contains(&shape)
        };
        let mut contacts = [ContactEvent::default(); 32];
        let mut n = 0usize;
        for begin in [true, false] {
            let read = if begin {
                c2d_world_begin_events
            } else {
                c2d_world_end_events
            };
            assert_eq!(read(w, contacts.as_mut_ptr(), 32, &mut n), Status::Ok);
            for e in &contacts[..n.min(32)] {
                if begin && fresh {
                    assert!(
                        owns(w, e.body_a, e.shape_a) && owns(w, e.body_b, e.shape_b),
                        "a begin event right after its step names a body or shape that is not live: {e:?}"
                    );
                    assert!(e.manifold.count >= 1 && e.manifold.count <= 2, "{e:?}");
                    assert!((e.manifold.normal.length() - 1.0).abs() < 1e-3, "{e:?}");
                }
                assert!(
                    named(e.body_a, e.shape_a) && named(e.body_b, e.shape_b),
                    "a contact event (begin: {begin}) names an id that is neither live nor removed: {e:?}"
                );
            }
        }
        let mut sensors = [SensorEvent::default(); 32];
        for begin in [true, false] {
            let read = if begin {
                c2d_world_sensor_begin_events
            } else {
                c2d_world_sensor_end_events
            };
            assert_eq!(read(w, sensors.as_mut_ptr(), 32, &mut n), Status::Ok);
            for e in &sensors[..n.min(32)] {
                if begin && fresh {
                    assert!(
                        owns(w, e.sensor, e.sensor_shape) && owns(w, e.visitor, e.visitor_shape),
                        "a sensor begin event right after its step names a body or shape that is not live: {e:?}"
                    );
                }
                assert!(
                    named(e.sensor, e.sensor_shape) && named(e.visitor, e.visitor_shape),
                    "a sensor event (begin: {begin}) names an id that is neither live nor removed: {e:?}"
                );
            }
        }
    }
}

/// A mover's result, from a start at `xf`, as the docs promise it: a finite velocity and step
/// height, at most `MAX_MOVER_CONTACTS` contacts, each with a finite plane, point and velocity,
/// and a finite position unless the start's is not (invalid input leaves the mover where it
/// is: the result's position is `xf.p`).
fn check_move(r: &MoveResult, xf: &Transform) {
    assert!(r.velocity.is_finite() && r.stepped_up.is_finite(), "{r:?}");
    assert!(r.position.is_finite() || !xf.p.is_finite(), "{r:?} from {xf:?}");
    assert!(r.contact_count as usize <= MAX_MOVER_CONTACTS, "{r:?}");
    for c in r.contacts() {
        let finite = c.plane.normal.is_finite() && c.plane.offset.is_finite();
        assert!(finite && c.point.is_finite() && c.velocity.is_finite(), "{r:?}");
    }
}

/// What a body is, as far as out of memory must leave it: its status, pose, motion, mass and
/// accumulated force, whether it is awake, and its shapes with their definitions.
#[derive(Debug, PartialEq)]
struct BodyState {
    status: Status,
    motion: (Transform, Vec2, f32, f32, f32, Vec2, f32),
    awake: bool,
    shape_count: u32,
    shapes: Vec<(ShapeId, ShapeDef)>,
}

/// Every listed body's [`BodyState`].
///
/// # Safety
/// `w` live.
unsafe fn snapshot(w: WorldId, ids: &[BodyId]) -> Vec<BodyState> {
    ids.iter()
        .map(|&id| {
            let (mut awake, mut list, mut n) = (false, [ShapeId::default(); 16], 0u32);
            // SAFETY: the caller's contract; every pointer is a local of a plain-data type.
            unsafe {
                let mut b = core::mem::zeroed::<Body>();
                let status = c2d_world_get_body(w, id, &mut b);
                let _ = c2d_world_is_awake(w, id, &mut awake);
                let _ = c2d_world_body_shapes(w, id, list.as_mut_ptr(), 16, &mut n);
                let shapes = list[..n.min(16) as usize]
                    .iter()
                    .map(|&s| {
                        let mut def = core::mem::zeroed::<ShapeDef>();
                        let _ = c2d_world_get_shape_def(w, s, &mut def);
                        (s, def)
                    })
                    .collect();
                BodyState {
                    status,
                    motion: (
                        b.transform,
                        b.linear_velocity,
                        b.angular_velocity,
                        b.inv_mass,
                        b.inv_inertia,
                        b.force,
                        b.torque,
                    ),
                    awake,
                    shape_count: n,
                    shapes,
                }
            }
        })
        .collect()
}

/// What the hooks of the second world get: its id and a call counter.
struct Hook {
    world: WorldId,
    calls: u32,
}

/// Checks the world lock from inside a hook: changing is refused, reading works.
///
/// # Safety
/// `c` must point to a live `Hook` whose world is stepping.
unsafe fn inside_hook(c: *mut c_void) -> u32 {
    // SAFETY: the caller's contract.
    let h = unsafe { &mut *(c as *mut Hook) };
    h.calls += 1;
    let mut n = 0u32;
    // SAFETY: the world is live (it is stepping); `n` is a local.
    unsafe {
        assert_eq!(c2d_world_remove_body(h.world, BodyId::default()), Status::Locked);
        assert_eq!(c2d_world_step(h.world, 1.0 / 60.0, 1), Status::Locked);
        assert_eq!(c2d_world_destroy(h.world), Status::Locked);
        assert_eq!(c2d_world_body_count(h.world, &mut n), Status::Ok);
    }
    h.calls
}

unsafe extern "C" fn hook_filter(_: ShapeId, _: ShapeId, c: *mut c_void) -> bool {
    // SAFETY: the target passes a live `Hook`.
    (unsafe { inside_hook(c) }) % 3 != 0
}

unsafe extern "C" fn hook_pre_solve(_: ShapeId, _: ShapeId, m: *const Manifold, c: *mut c_void) -> bool {
    // SAFETY: the manifold is valid during the call.
    let m = unsafe { &*m };
    assert!(m.count > 0 && m.count <= 2);
    // SAFETY: the target passes a live `Hook`.
    (unsafe { inside_hook(c) }) % 2 == 0
}

/// A chain definition whose kind, transform, velocities, material, filter and user data are
/// raw bytes, over `pts`.
fn chain_def(raw: &[u8; size_of::<CChainDef>()], pts: &[Vec2], closed: bool) -> CChainDef {
    // SAFETY: every field is plain data (the pointer is replaced below).
    let mut d: CChainDef = unsafe { core::ptr::read_unaligned(raw.as_ptr() as *const CChainDef) };
    if raw[0] & 1 == 0 {
        // The defaults, as a C program starts.
        // SAFETY: `d` is writable.
        assert_eq!(unsafe { c2d_chain_def_default(&mut d) }, Status::Ok);
    }
    d.points = pts.as_ptr();
    d.count = pts.len() as u32;
    d.closed = u32::from(closed);
    d
}

/// The bodies and chains the target added, and the ids it removed.
#[derive(Default)]
struct Book {
    chains: Vec<ChainId>,
    /// Joint ids made (live, or stale once removed: the calls must refuse those).
    joints: Vec<JointId>,
    removed: Removed,
}

impl Book {
    /// Notes that `body` was removed (alone or as a chain's body).
    fn body_removed(&mut self, ids: &mut Vec<BodyId>, body: BodyId) {
        ids.retain(|&b| b != body);
        self.chains
            .retain(|c| (c.index, c.generation) != (body.index, body.generation));
        self.removed.bodies.insert(body);
    }
}

/// Adds a chain; it joins `book` and its body `ids`, or with `remove` the chain is removed
/// again (after which its id is refused everywhere).
///
/// # Safety
/// `w` live; `d.points` readable for `d.count` points.
unsafe fn add_chain(
    w: WorldId,
    d: &CChainDef,
    remove: bool,
    ids: &mut Vec<BodyId>,
    book: &mut Book,
) -> Status {
    let mut chain = ChainId::default();
    // SAFETY: the caller's contract; locals are writable.
    let s = unsafe { c2d_world_add_chain(w, d, &mut chain) };
    if s == Status::Ok {
        // SAFETY: as above.
        unsafe { chain_added(w, chain, remove, ids, book) };
    }
    s
}

/// Books a chain `c2d_world_add_chain` made, or with `remove` removes it again.
///
/// # Safety
/// `w` live.
unsafe fn chain_added(w: WorldId, chain: ChainId, remove: bool, ids: &mut Vec<BodyId>, book: &mut Book) {
    let mut body = BodyId::default();
    // SAFETY: the caller's contract; locals are writable.
    unsafe {
        assert_eq!(c2d_world_chain_body(w, chain, &mut body), Status::Ok);
        if remove {
            assert_eq!(c2d_world_remove_chain(w, chain), Status::Ok);
            book.body_removed(ids, body);
            assert_eq!(c2d_world_remove_chain(w, chain), Status::InvalidChainId);
            assert_eq!(c2d_world_chain_body(w, chain, &mut body), Status::InvalidChainId);
        } else {
            ids.push(body);
            book.chains.push(chain);
        }
    }
}

/// A value of a plain-data type from the next bytes (zero-padded).
fn take<T: Copy>(data: &mut &[u8]) -> T {
    let mut buf = vec![0u8; size_of::<T>()];
    let n = buf.len().min(data.len());
    buf[..n].copy_from_slice(&data[..n]);
    *data = &data[n..];
    // SAFETY: only instantiated with types for which every bit pattern is valid (f32, u32,
    // u64, Vec2, Transform, Aabb, BodyId, JointId, Body, ContactConstraint, Manifold, Filter, MoverPush) or with raw
    // bytes of BodyDef that are passed only by pointer for the C ABI to validate.
    unsafe { core::ptr::read_unaligned(buf.as_ptr() as *const T) }
}

fuzz_target!(|data: &[u8]| {
    let mut data = data;
    let mut w = WorldId::default();
    // SAFETY: `w` is a valid out-parameter.
    unsafe { assert_eq!(c2d_world_create(core::ptr::null(), &mut w), Status::Ok) };
    let mut ids: Vec<BodyId> = Vec::new();
    let mut book = Book::default();
    let mut probe = Probe { world: w, calls: 0 };
    let pc = &mut probe as *mut Probe as *mut c_void;
    while let Some((&op, rest)) = data.split_first() {
        data = rest;
        // SAFETY (whole block): `w` is live; every pointer passed points to a local.
        unsafe {
            match op % 26 {
                0 | 1 => {
                    let bytes: [u8; size_of::<BodyDef>()] = take(&mut data);
                    let mut id = BodyId::default();
                    if c2d_world_add_body(w, bytes.as_ptr() as *const BodyDef, &mut id) == Status::Ok {
                        ids.push(id);
                    }
                }
                2 => {
                    // Any id: a live one (which the fuzzer may learn) is removed.
                    let id: BodyId = take(&mut data);
                    if c2d_world_remove_body(w, id) == Status::Ok {
                        book.body_removed(&mut ids, id);
                    }
                }
                3 if !ids.is_empty() => {
                    let k: u32 = take(&mut data);
                    let id = ids[k as usize % ids.len()];
                    if c2d_world_remove_body(w, id) == Status::Ok {
                        book.body_removed(&mut ids, id);
                    }
                }
                4 => {
                    let dt: f32 = take(&mut data);
                    let sub: u32 = take(&mut data);
                    // Keep each run short: sub-steps beyond 64 are rejected anyway.
                    if c2d_world_step(w, dt, sub % 80) == Status::Ok {
                        check_events(w, &book.removed, true);
                    }
                }
                5 if !ids.is_empty() => {
                    let k: u32 = take(&mut data);
                    let v: Vec2 = take(&mut data);
                    let a: f32 = take(&mut data);
                    let xf: Transform = take(&mut data);
                    let id = ids[k as usize % ids.len()];
                    let _ = c2d_world_set_velocity(w, id, &v, a);
                    let _ = c2d_world_set_transform(w, id, &xf);
                    let mut b = core::mem::zeroed::<Body>();
                    let _ = c2d_world_get_body(w, id, &mut b);
                }
                6 => {
                    let o: Vec2 = take(&mut data);
                    let t: Vec2 = take(&mut data);
                    let mut hit = false;
                    let mut out = WorldRayHit::default();
                    if c2d_world_ray_cast(w, &o, &t, &mut hit, &mut out) == Status::Ok && hit {
                        check_ray_hit(w, &out);
                    }
                    let b: Aabb = take(&mut data);
                    let _ = c2d_world_query_aabb(w, &b, Some(on_body), pc);
                }
                8 => {
                    // A scene that makes events: a static ground (with a sensor circle on it
                    // when `flags & 1`) and a box just above it, at a place a byte chooses,
                    // then an ordinary step (and with `flags & 2` a second one after the box
                    // is removed, which ends its contacts); after each step the event lists as
                    // the docs promise them right after a step.
                    let (place, flags): (u8, u8) = (take(&mut data), take(&mut data));
                    let at = Vec2::new(f32::from(place) * 4.0 - 512.0, -3.0);
                    let ground = BodyDef::new(
                        BodyKind::Static,
                        Transform::from_translation(at),
                        Shape::rect(1.5, 0.25),
                    );
                    let above = Transform::from_translation(at + Vec2::new(0.0, 0.76));
                    let crate_def = BodyDef::new(BodyKind::Dynamic, above, Shape::rect(0.5, 0.5));
                    let (mut g, mut b) = (BodyId::default(), BodyId::default());
                    if c2d_world_add_body(w, &ground, &mut g) == Status::Ok {
                        ids.push(g);
                        if flags & 1 != 0 {
                            let mut sensor = ShapeDef::new(Shape::circle(1.0));
                            sensor.sensor = true;
                            let _ = c2d_world_add_shape_def(w, g, &sensor, core::ptr::null_mut());
                        }
                    }
                    if c2d_world_add_body(w, &crate_def, &mut b) == Status::Ok {
                        ids.push(b);
                    }
                    // One step, or two with the box removed between them (a short op: steps
                    // dominate the target's time).
                    for k in 0..1 + u8::from(flags & 2 != 0) {
                        if k == 1 && c2d_world_remove_body(w, b) == Status::Ok {
                            book.body_removed(&mut ids, b);
                        }
                        let sub = 1 + u32::from((flags >> 2) % 4);
                        if c2d_world_step(w, 1.0 / 60.0, sub) == Status::Ok {
                            check_events(w, &book.removed, true);
                        }
                    }
                }
                7 => {
                    let mut n = 0usize;
                    let mut buf = [ContactEvent::default(); 4];
                    let _ = c2d_world_begin_events(w, buf.as_mut_ptr(), buf.len(), &mut n);
                    let _ = c2d_world_end_events(w, buf.as_mut_ptr(), buf.len(), &mut n);
                    let (mut nb, mut nc) = (0u32, 0u32);
                    let _ = c2d_world_counts(w, &mut nb, &mut nc);
                }
                9 if !ids.is_empty() => {
                    // Sleep, bullets, forces, impulses, damping, filters: every setter with
                    // arbitrary numbers (NaN and infinities included).
                    let k: u32 = take(&mut data);
                    let id = ids[k as usize % ids.len()];
                    let (f, p): (Vec2, Vec2) = (take(&mut data), take(&mut data));
                    let (x, y): (f32, f32) = (take(&mut data), take(&mut data));
                    let flags: u8 = take(&mut data);
                    let filter: Filter = take(&mut data);
                    let _ = c2d_world_set_awake(w, id, flags & 1 != 0);
                    let _ = c2d_world_set_body_sleep_enabled(w, id, flags & 2 != 0);
                    let _ = c2d_world_set_bullet(w, id, flags & 4 != 0);
                    let _ =
                        c2d_world_apply_force(w, id, &f, if flags & 8 != 0 { &p } else { core::ptr::null() });
                    let _ = c2d_world_apply_linear_impulse(w, id, &f, &p);
                    let _ = c2d_world_apply_torque(w, id, x);
                    let _ = c2d_world_apply_angular_impulse(w, id, y);
                    let _ = c2d_world_set_damping(w, id, x, y);
                    let _ = c2d_world_set_gravity_scale(w, id, x);
                    let _ = c2d_world_set_fixed_rotation(w, id, flags & 16 != 0);
                    if flags & 32 != 0 {
                        let _ = c2d_world_set_filter(w, id, &filter);
                    }
                    let mut awake = false;
                    let _ = c2d_world_is_awake(w, id, &mut awake);
                }
                10 => {
                    let flags: u8 = take(&mut data);
                    let _ = c2d_world_set_sleep_enabled(w, flags & 1 != 0);
                    let _ = c2d_world_set_continuous_enabled(w, flags & 2 != 0);
                    let mut n = 0usize;
                    let mut buf = [SensorEvent::default(); 4];
                    let _ = c2d_world_sensor_begin_events(w, buf.as_mut_ptr(), buf.len(), &mut n);
                    let _ = c2d_world_sensor_end_events(w, buf.as_mut_ptr(), buf.len(), &mut n);
                    let mut awake = 0u32;
                    let _ = c2d_world_awake_body_count(w, &mut awake);
                    // Gravity from raw numbers (refused unless finite and in range), and the
                    // list of bodies into a buffer of any size.
                    let g: Vec2 = take(&mut data);
                    let _ = c2d_world_set_gravity(w, &g);
                    let mut got = Vec2::ZERO;
                    let _ = c2d_world_get_gravity(w, &mut got);
                    let mut listed = [BodyId::default(); 8];
                    let mut nl = 0u32;
                    let cap = u32::from(take::<u8>(&mut data) % 9);
                    let _ = c2d_world_body_ids(w, listed.as_mut_ptr(), cap, &mut nl);
                    // Touching contacts: every one names live shapes of live bodies.
                    let mut touching = vec![ContactEvent::default(); cap as usize];
                    let mut nt = 0u32;
                    if c2d_world_contacts(w, touching.as_mut_ptr(), cap, &mut nt) == Status::Ok {
                        for c in &touching[..nt as usize] {
                            let mut owner = BodyId::default();
                            assert_eq!(c2d_world_shape_body(w, c.shape_a, &mut owner), Status::Ok);
                            assert_eq!(owner, c.body_a);
                            assert!(c.manifold.count >= 1 && c.manifold.count <= 2);
                        }
                    }
                    // Capacity hints, small enough that the run's memory stays bounded.
                    let (m, f, c) = (
                        take::<u16>(&mut data),
                        take::<u16>(&mut data),
                        take::<u16>(&mut data),
                    );
                    let _ = c2d_world_reserve(
                        w,
                        usize::from(m % 4096),
                        usize::from(f % 4096),
                        usize::from(c % 4096),
                    );
                }
                11 => {
                    // Filtered queries with an ignore list drawn from the live ids.
                    let (o, t): (Vec2, Vec2) = (take(&mut data), take(&mut data));
                    let mask: u64 = take(&mut data);
                    let sensors: u32 = take(&mut data);
                    let n = ids.len().min(3);
                    let filter = WorldQueryFilter {
                        mask,
                        ignore: ids.as_ptr(),
                        ignore_count: n,
                        sensors,
                    };
                    let mut hit = false;
                    let mut out = WorldRayHit::default();
                    if c2d_world_ray_cast_filtered(w, &o, &t, &filter, &mut hit, &mut out) == Status::Ok
                        && hit
                    {
                        check_ray_hit(w, &out);
                        assert!(!ids[..n].contains(&out.body), "an ignored body was hit");
                    }
                    let _ = c2d_world_ray_cast_all(w, &o, &t, &filter, Some(on_ray), pc);
                    let shape: Shape = Shape::circle(1.0);
                    let xf: Transform = take(&mut data);
                    let _ = c2d_world_overlap_shape(w, &shape, &xf, &filter, Some(on_body), pc);
                    let mut cast = core::mem::zeroed::<WorldCastHit>();
                    if c2d_world_cast_shape(w, &shape, &xf, &t, &filter, &mut hit, &mut cast) == Status::Ok
                        && hit
                    {
                        assert!(
                            live_body(w, cast.body),
                            "a cast hit a body that is not live: {cast:?}"
                        );
                        let f = cast.output.fraction;
                        assert!((0.0..=1.0).contains(&f), "{cast:?}");
                    }
                }
                12 => {
                    // Another shape (raw bytes: any tag, garbage payload) on a body, or on any id.
                    let shape_bytes: [u8; size_of::<Shape>()] = take(&mut data);
                    let id = if ids.is_empty() || op & 0x80 != 0 {
                        take::<BodyId>(&mut data)
                    } else {
                        ids[take::<u32>(&mut data) as usize % ids.len()]
                    };
                    let _ = c2d_world_add_shape(
                        w,
                        id,
                        shape_bytes.as_ptr() as *const Shape,
                        core::ptr::null_mut(),
                    );
                }
                13 => {
                    // Level geometry from raw numbers: a chain body, a tile outline, a decomposition.
                    let n = (take::<u8>(&mut data) % 24) as usize;
                    let pts: Vec<Vec2> = (0..n).map(|_| take::<Vec2>(&mut data)).collect();
                    let def_bytes: [u8; size_of::<CChainDef>()] = take(&mut data);
                    let _ = add_chain(
                        w,
                        &chain_def(&def_bytes, &pts, op & 0x40 != 0),
                        op & 0x10 != 0,
                        &mut ids,
                        &mut book,
                    );
                    let mut pieces = [Polygon::make_box(1.0, 1.0).unwrap(); 24];
                    let mut count = 0u32;
                    let _ = c2d_decompose(pts.as_ptr(), n as u32, pieces.as_mut_ptr(), 24, &mut count);
                    let (gw, gh) = (take::<u8>(&mut data) % 12, take::<u8>(&mut data) % 12);
                    let cells: Vec<u8> = (0..gw as usize * gh as usize)
                        .map(|_| take::<u8>(&mut data) & 1)
                        .collect();
                    let size: f32 = take(&mut data);
                    let origin: Vec2 = take(&mut data);
                    let mut out_pts = [Vec2::ZERO; 256];
                    let mut loops = [0u32; 64];
                    let (mut np, mut nl) = (0u32, 0u32);
                    let _ = c2d_tile_outlines(
                        cells.as_ptr(),
                        u32::from(gw),
                        u32::from(gh),
                        size,
                        origin,
                        out_pts.as_mut_ptr(),
                        256,
                        loops.as_mut_ptr(),
                        64,
                        &mut np,
                        &mut nl,
                    );
                    // Slope tiles (any byte: 12 and above are refused) on rectangular cells,
                    // and a heightfield, each loop added to the world as level geometry.
                    let (sw, sh) = (take::<u8>(&mut data) % 10, take::<u8>(&mut data) % 10);
                    let tiles: Vec<u8> = (0..sw as usize * sh as usize)
                        .map(|_| take::<u8>(&mut data) % 13)
                        .collect();
                    let cell: Vec2 = take(&mut data);
                    if c2d_slope_outlines(
                        tiles.as_ptr(),
                        u32::from(sw),
                        u32::from(sh),
                        cell,
                        origin,
                        out_pts.as_mut_ptr(),
                        256,
                        loops.as_mut_ptr(),
                        64,
                        &mut np,
                        &mut nl,
                    ) == Status::Ok
                    {
                        let mut first = 0usize;
                        for &count in &loops[..nl as usize] {
                            let at = out_pts[first..].as_ptr();
                            let loop_points = core::slice::from_raw_parts(at, count as usize);
                            let _ = add_chain(
                                w,
                                &chain_def(&def_bytes, loop_points, true),
                                false,
                                &mut ids,
                                &mut book,
                            );
                            first += count as usize;
                        }
                    }
                    let nh = (take::<u8>(&mut data) % 16) as usize;
                    let heights: Vec<f32> = (0..nh).map(|_| take::<f32>(&mut data)).collect();
                    let (spacing, bottom): (f32, f32) = (take(&mut data), take(&mut data));
                    let mut surface = [Vec2::ZERO; 34];
                    let mut ns = 0u32;
                    let kind = u32::from(take::<u8>(&mut data) % 3);
                    if c2d_heightfield(
                        origin,
                        spacing,
                        heights.as_ptr(),
                        nh as u32,
                        kind,
                        op & 0x20 != 0,
                        bottom,
                        surface.as_mut_ptr(),
                        34,
                        &mut ns,
                    ) == Status::Ok
                    {
                        let closed = op & 0x20 != 0;
                        let _ = add_chain(
                            w,
                            &chain_def(&def_bytes, &surface[..ns as usize], closed),
                            false,
                            &mut ids,
                            &mut book,
                        );
                    }
                }
                14 | 15 => {
                    // The mover from raw bytes: any shape tag, NaN, garbage options (a bool byte
                    // that is not 0 or 1), through the world and over a raw obstacle array.
                    let shape_bytes: [u8; size_of::<Shape>()] = take(&mut data);
                    let xf: Transform = take(&mut data);
                    let t: Vec2 = take(&mut data);
                    let v: Vec2 = take(&mut data);
                    let opt_bytes: [u8; size_of::<MoveOptions>()] = take(&mut data);
                    let opts = if op & 0x80 != 0 {
                        core::ptr::null()
                    } else {
                        opt_bytes.as_ptr() as *const MoveOptions
                    };
                    let shape = shape_bytes.as_ptr() as *const Shape;
                    let mut r = core::mem::zeroed::<MoveResult>();
                    if c2d_world_move_and_slide(w, shape, &xf, t, v, opts, core::ptr::null(), &mut r)
                        == Status::Ok
                    {
                        check_move(&r, &xf);
                    }
                    // Pushing the world's dynamic bodies: default or raw push settings.
                    let mut push = core::mem::zeroed::<MoverPush>();
                    let _ = c2d_mover_push_default(&mut push);
                    let raw_push: MoverPush = take(&mut data);
                    let push: *const MoverPush = match op & 0x60 {
                        0 => core::ptr::null(),
                        0x20 => &push,
                        _ => &raw_push,
                    };
                    if c2d_world_move_and_push(w, shape, &xf, t, v, opts, core::ptr::null(), push, &mut r)
                        == Status::Ok
                    {
                        check_move(&r, &xf);
                    }
                    let obstacles: [[u8; size_of::<MoverObstacle>()]; 2] = take(&mut data);
                    let ob = obstacles.as_ptr() as *const MoverObstacle;
                    if c2d_move_and_slide(ob, 2, shape, &xf, t, v, opts, &mut r) == Status::Ok {
                        check_move(&r, &xf);
                    }
                    let mut planes = [MoverPlane::default(); 4];
                    let mut n = 0u32;
                    let margin: f32 = take(&mut data);
                    let _ = c2d_collide_mover(ob, 2, shape, &xf, margin, planes.as_mut_ptr(), 4, &mut n);
                    let (mut hit, mut h) = (false, MoverHit::default());
                    if c2d_cast_mover(ob, 2, shape, &xf, t, margin, &mut hit, &mut h) == Status::Ok && hit {
                        assert!((0.0..=1.0).contains(&h.fraction), "{h:?}");
                        assert!(h.point.is_finite() && h.normal.is_finite(), "{h:?}");
                    }
                }
                16 => {
                    // World settings and per-world getters with arbitrary values.
                    let d: f32 = take(&mut data);
                    let flags: u8 = take(&mut data);
                    let s = c2d_world_set_recycle_distance(w, d);
                    if !(d >= 0.0 && d.is_finite()) {
                        assert_eq!(s, Status::InvalidInput, "recycle distance {d}");
                    }
                    let _ = c2d_world_set_internal_edge_removal(w, flags & 1 != 0);
                    let _ = c2d_world_set_profile_clock(w, if flags & 2 != 0 { Some(tick) } else { None });
                    let mut profile = core::mem::zeroed::<StepProfile>();
                    let out: *mut StepProfile = if flags & 4 != 0 {
                        core::ptr::null_mut()
                    } else {
                        &mut profile
                    };
                    let _ = c2d_world_profile(w, out);
                    let (mut n, mut u) = (0u32, 0u64);
                    if c2d_world_body_count(w, &mut n) == Status::Ok {
                        let mut nb = 0u32;
                        let mut nc = 0u32;
                        if c2d_world_counts(w, &mut nb, &mut nc) == Status::Ok {
                            assert_eq!(n, nb);
                        }
                    }
                    let id = if ids.is_empty() || flags & 8 != 0 {
                        take::<BodyId>(&mut data)
                    } else {
                        ids[take::<u32>(&mut data) as usize % ids.len()]
                    };
                    let _ = c2d_world_user_data(w, id, &mut u);
                }
                17 => {
                    // Debug drawing of the whole world; its bodies are finite (validated after
                    // every operation), so below 1e18 everything drawn is finite.
                    let (nulls, flags): (u8, u8) = (take(&mut data), take(&mut data));
                    let mut seen = Seen::default();
                    let table = draw_table(&mut seen, nulls, flags);
                    let tp: *const DebugDrawFcns = if nulls & 0x80 != 0 {
                        core::ptr::null()
                    } else {
                        &table
                    };
                    let _ = c2d_world_draw(w, tp);
                    let small = ids.iter().all(|id| {
                        let mut b = core::mem::zeroed::<Body>();
                        c2d_world_get_body(w, *id, &mut b) != Status::Ok
                            || (b.transform.p.x.abs() < 1e18 && b.transform.p.y.abs() < 1e18)
                    });
                    if small {
                        assert_eq!(seen.non_finite, 0, "a finite world drew a non-finite coordinate");
                    }
                }
                18 => {
                    // A body definition from `c2d_body_def` with a raw kind and shape.
                    let kind: u32 = take(&mut data);
                    let xf: Transform = take(&mut data);
                    let shape_bytes: [u8; size_of::<Shape>()] = take(&mut data);
                    let mut def = core::mem::MaybeUninit::<BodyDef>::uninit();
                    let shape = shape_bytes.as_ptr() as *const Shape;
                    if c2d_body_def(kind % 4, &xf, shape, def.as_mut_ptr()) == Status::Ok {
                        let mut id = BodyId::default();
                        if c2d_world_add_body(w, def.as_ptr(), &mut id) == Status::Ok {
                            ids.push(id);
                        }
                    }
                }
                19 => {
                    // The solver's split entry points and the body makers on raw arrays.
                    let xf: Transform = take(&mut data);
                    let v: Vec2 = take(&mut data);
                    let (av, h, max_speed): (f32, f32, f32) =
                        (take(&mut data), take(&mut data), take(&mut data));
                    let mass: MassData = take(&mut data);
                    let mut bodies: [Body; 3] = take(&mut data);
                    let _ = c2d_body_make_static(&xf, &mut bodies[0]);
                    let _ = c2d_body_make_kinematic(&xf, &v, av, &mut bodies[1]);
                    let _ = c2d_body_make_dynamic(&xf, &mass, &mut bodies[2]);
                    let mut raw: [ContactConstraint; 2] = take(&mut data);
                    let mut s = core::mem::zeroed();
                    let _ = c2d_solver_default_settings(&mut s);
                    let need = c2d_solver_scratch_bytes(raw.len());
                    let have = usize::from(take::<u8>(&mut data)).min(need.saturating_mul(2));
                    let mut scratch = vec![0u8; have];
                    let sp = if have == 0 {
                        core::ptr::null_mut()
                    } else {
                        scratch.as_mut_ptr() as *mut c_void
                    };
                    let (bp, cp) = (bodies.as_mut_ptr(), raw.as_mut_ptr());
                    let _ = c2d_solver_step_with_scratch(bp, 3, cp, 2, sp, have, &s, h);
                    let _ = c2d_solver_integrate_velocities(bp, 3, &v, h);
                    let _ = c2d_solver_contacts(bp, 3, cp, 2, &s, h, take::<u32>(&mut data) % 6);
                    let _ = c2d_solver_integrate_positions(bp, 3, h, max_speed);
                }
                20 => {
                    // A second world with solver settings from raw bytes (refused unless valid),
                    // a few bodies and steps.
                    let settings: [u8; size_of::<SolverSettings>()] = take(&mut data);
                    let mut w2 = WorldId::default();
                    let sp = settings.as_ptr() as *const SolverSettings;
                    if c2d_world_create(sp, &mut w2) == Status::Ok {
                        // Hooks that decide from a counter and try to change the world.
                        let mut hook = Hook { world: w2, calls: 0 };
                        let ctx = &mut hook as *mut Hook as *mut c_void;
                        let mode = take::<u8>(&mut data);
                        if mode & 1 != 0 {
                            assert_eq!(
                                c2d_world_set_custom_filter(w2, Some(hook_filter), ctx),
                                Status::Ok
                            );
                        }
                        if mode & 2 != 0 {
                            assert_eq!(c2d_world_set_pre_solve(w2, Some(hook_pre_solve), ctx), Status::Ok);
                        }
                        for _ in 0..take::<u8>(&mut data) % 4 {
                            let bytes: [u8; size_of::<BodyDef>()] = take(&mut data);
                            let mut id = BodyId::default();
                            let _ = c2d_world_add_body(w2, bytes.as_ptr() as *const BodyDef, &mut id);
                        }
                        for _ in 0..take::<u8>(&mut data) % 4 {
                            let _ = c2d_world_step(w2, take(&mut data), take::<u32>(&mut data) % 9);
                            assert_eq!(c2d_world_validate(w2), Status::Ok);
                        }
                        assert!(c2d_world_id_equals(hook.world, w2) && c2d_world_is_valid(w2));
                        assert_eq!(c2d_world_destroy(w2), Status::Ok);
                        // A destroyed world's id names nothing.
                        assert!(!c2d_world_is_valid(w2));
                        assert_eq!(c2d_world_destroy(w2), Status::InvalidWorld);
                        assert_eq!(c2d_world_step(w2, 1.0 / 60.0, 4), Status::InvalidWorld);
                    }
                }
                21 if !ids.is_empty() => {
                    // Shapes by id: a shape definition from raw bytes (any tag, garbage material,
                    // a bool byte that is not 0 or 1) on a live body or any id, then every shape
                    // setter on a listed shape or a raw id, and removal.
                    let id = if op & 0x80 != 0 {
                        take::<BodyId>(&mut data)
                    } else {
                        ids[take::<u32>(&mut data) as usize % ids.len()]
                    };
                    let def_bytes: [u8; size_of::<ShapeDef>()] = take(&mut data);
                    let mut made = ShapeId::default();
                    let _ = c2d_world_add_shape_def(w, id, def_bytes.as_ptr() as *const ShapeDef, &mut made);
                    let shape_bytes: [u8; size_of::<Shape>()] = take(&mut data);
                    let mut def = core::mem::zeroed::<ShapeDef>();
                    let _ = c2d_shape_def(shape_bytes.as_ptr() as *const Shape, &mut def);
                    let mut list = [ShapeId::default(); 4];
                    let mut n = 0u32;
                    let _ = c2d_world_body_shapes(
                        w,
                        id,
                        list.as_mut_ptr(),
                        take::<u8>(&mut data) as u32 % 5,
                        &mut n,
                    );
                    let shape = if op & 0x40 != 0 {
                        take::<ShapeId>(&mut data)
                    } else {
                        list[n.min(4).saturating_sub(1) as usize]
                    };
                    let (material, filter): (Material, Filter) = (take(&mut data), take(&mut data));
                    let flags: u8 = take(&mut data);
                    let mut owner = BodyId::default();
                    let mut read = core::mem::zeroed::<ShapeDef>();
                    let _ = c2d_world_shape_body(w, shape, &mut owner);
                    let _ = c2d_world_get_shape_def(w, shape, &mut read);
                    let _ = c2d_world_set_shape_material(w, shape, &material);
                    let _ = c2d_world_set_shape_filter(w, shape, &filter);
                    let _ = c2d_world_set_shape_sensor(w, shape, flags & 1 != 0);
                    let _ = c2d_world_set_shape_user_data(w, shape, u64::from(flags));
                    if flags & 2 != 0 && c2d_world_remove_shape(w, shape) == Status::Ok {
                        book.removed.shapes.insert(shape);
                    }
                }
                22 => {
                    // The mover with a shape the makers give (sized from a byte), from a raw
                    // transform or just above a live body, with a raw translation and velocity
                    // (NaN, 1e30 and f32::MAX included) and sometimes a raw iteration count:
                    // refused, or a finite result; pushed bodies stay finite (validated below).
                    let (kind, size): (u8, u8) = (take(&mut data), take(&mut data));
                    let r0 = 0.05 + f32::from(size) / 64.0;
                    let shape = match kind % 3 {
                        0 => Shape::circle(r0),
                        1 => Shape::rect(r0, 0.5 * r0 + 0.05),
                        _ => Shape::capsule(Vec2::new(0.0, -r0), Vec2::new(0.0, r0), 0.5 * r0),
                    };
                    let mut xf: Transform = take(&mut data);
                    if kind & 0x80 == 0 && !ids.is_empty() {
                        let mut b = core::mem::zeroed::<Body>();
                        let id = ids[take::<u32>(&mut data) as usize % ids.len()];
                        if c2d_world_get_body(w, id, &mut b) == Status::Ok {
                            xf = Transform::from_translation(b.transform.p + Vec2::new(0.0, 3.0 * r0 + 0.5));
                        }
                    }
                    let (t, v): (Vec2, Vec2) = (take(&mut data), take(&mut data));
                    let mut opts = MoveOptions::default();
                    if kind & 0x40 != 0 {
                        opts.max_iterations = take(&mut data);
                    }
                    let mut r = core::mem::zeroed::<MoveResult>();
                    if c2d_world_move_and_slide(w, &shape, &xf, t, v, &opts, core::ptr::null(), &mut r)
                        == Status::Ok
                    {
                        check_move(&r, &xf);
                    }
                    let mut push = core::mem::zeroed::<MoverPush>();
                    assert_eq!(c2d_mover_push_default(&mut push), Status::Ok);
                    if c2d_world_move_and_push(w, &shape, &xf, t, v, &opts, core::ptr::null(), &push, &mut r)
                        == Status::Ok
                    {
                        check_move(&r, &xf);
                    }
                }
                24 => {
                    // Out of memory: one allocating entry point with its allocations from the
                    // `budget`-th on failing. It succeeds or reports running out (or refuses
                    // its input); out of memory adds and removes nothing, writes no id, and
                    // leaves every body as it was (pose, motion, mass, force, sleep, shapes
                    // and their definitions).
                    let budget: u8 = take(&mut data);
                    let which: u8 = take(&mut data);
                    let (mut before, mut contacts) = (0u32, 0u32);
                    let _ = c2d_world_counts(w, &mut before, &mut contacts);
                    let was = snapshot(w, &ids);
                    let def_bytes: [u8; size_of::<BodyDef>()] = take(&mut data);
                    let def = def_bytes.as_ptr() as *const BodyDef;
                    let k: u32 = take(&mut data);
                    let live = |ids: &Vec<BodyId>| ids[k as usize % ids.len()];
                    // A body's most recent shape (its first when it has no other).
                    let last_shape = |id: BodyId| {
                        let (mut list, mut n) = ([ShapeId::default(); 2], 0u32);
                        let _ = c2d_world_body_shapes(w, id, list.as_mut_ptr(), 2, &mut n);
                        list[usize::from(n >= 2)]
                    };
                    let mut id = BodyId::default();
                    let mut made = ShapeId::default();
                    let mut chain = ChainId::default();
                    let s = match which % 13 {
                        0 => {
                            let s = failing(budget, || c2d_world_add_body(w, def, &mut id));
                            if s == Status::Ok {
                                ids.push(id);
                            }
                            s
                        }
                        1 if !ids.is_empty() => {
                            // The fallible maker: `Shape::circle_at` panics on a centre
                            // beyond its range by design.
                            let shape = Circle::new(take(&mut data), 0.25)
                                .map(Shape::Circle)
                                .unwrap_or(Shape::circle(0.25));
                            let on = live(&ids);
                            failing(budget, || c2d_world_add_shape(w, on, &shape, &mut made))
                        }
                        2 => {
                            let n = (take::<u8>(&mut data) % 24) as usize;
                            let pts: Vec<Vec2> = (0..n).map(|_| take::<Vec2>(&mut data)).collect();
                            let chain_bytes: [u8; size_of::<CChainDef>()] = take(&mut data);
                            let d = chain_def(&chain_bytes, &pts, which & 0x80 != 0);
                            let s = failing(budget, || c2d_world_add_chain(w, &d, &mut chain));
                            if s == Status::Ok {
                                chain_added(w, chain, false, &mut ids, &mut book);
                                chain = ChainId::default();
                            }
                            s
                        }
                        3 if !ids.is_empty() => {
                            let gone = live(&ids);
                            let s = failing(budget, || c2d_world_remove_body(w, gone));
                            if s == Status::Ok {
                                book.body_removed(&mut ids, gone);
                            }
                            s
                        }
                        4 if !ids.is_empty() => {
                            let on = live(&ids);
                            failing(budget, || c2d_world_set_filter(w, on, &Filter::DEFAULT))
                        }
                        5 if !ids.is_empty() => {
                            let mut sd = ShapeDef::new(Shape::circle(0.25));
                            sd.sensor = which & 0x80 != 0;
                            let on = live(&ids);
                            failing(budget, || c2d_world_add_shape_def(w, on, &sd, &mut made))
                        }
                        6 if !ids.is_empty() => {
                            let shape = last_shape(live(&ids));
                            let s = failing(budget, || c2d_world_remove_shape(w, shape));
                            if s == Status::Ok {
                                book.removed.shapes.insert(shape);
                            }
                            s
                        }
                        7 if !ids.is_empty() => {
                            let filter: Filter = take(&mut data);
                            let shape = last_shape(live(&ids));
                            failing(budget, || c2d_world_set_shape_filter(w, shape, &filter))
                        }
                        8 if !ids.is_empty() => {
                            let shape = last_shape(live(&ids));
                            failing(budget, || c2d_world_set_shape_sensor(w, shape, which & 0x80 != 0))
                        }
                        9 => {
                            // Capacity hints, small enough that the run's memory stays bounded.
                            let (m, f, c) = (
                                usize::from(take::<u16>(&mut data) % 4096),
                                usize::from(take::<u16>(&mut data) % 4096),
                                usize::from(take::<u16>(&mut data) % 4096),
                            );
                            failing(budget, || c2d_world_reserve(w, m, f, c))
                        }
                        10 if !ids.is_empty() => {
                            let on = live(&ids);
                            failing(budget, || c2d_world_set_awake(w, on, which & 0x80 != 0))
                        }
                        11 if !book.chains.is_empty() => {
                            let gone = book.chains[k as usize % book.chains.len()];
                            let s = failing(budget, || c2d_world_remove_chain(w, gone));
                            if s == Status::Ok {
                                let body = BodyId {
                                    index: gone.index,
                                    generation: gone.generation,
                                };
                                book.body_removed(&mut ids, body);
                            }
                            s
                        }
                        _ => {
                            let s =
                                failing(budget, || c2d_world_step(w, 1.0 / 60.0, 1 + u32::from(which % 8)));
                            if s == Status::Ok {
                                check_events(w, &book.removed, true);
                            }
                            s
                        }
                    };
                    let mut after = 0u32;
                    let _ = c2d_world_counts(w, &mut after, &mut contacts);
                    // Otherwise success, or a refusal of the input or of a stale id.
                    if s == Status::OutOfMemory {
                        assert_eq!(after, before, "out of memory changed the body count");
                        assert_eq!((id, made, chain), Default::default(), "out of memory wrote an id");
                        assert!(
                            snapshot(w, &ids) == was,
                            "out of memory (entry point {}) changed a body",
                            which % 13
                        );
                    }
                    // A world made with too little memory is refused whole.
                    let mut w2 = WorldId::default();
                    match failing(budget, || c2d_world_create(core::ptr::null(), &mut w2)) {
                        Status::Ok => assert_eq!(c2d_world_destroy(w2), Status::Ok),
                        s => assert!(s == Status::OutOfMemory && w2 == WorldId::default(), "{s:?}"),
                    }
                }
                23 => {
                    // Immediate mode on raw arrays.
                    let mut bodies: [Body; 3] = take(&mut data);
                    let m: Manifold = take(&mut data);
                    let (a, b): (u32, u32) = (take(&mut data), take(&mut data));
                    let mut c = ContactConstraint::default();
                    let _ = c2d_prepare_contact(
                        bodies.as_ptr(),
                        3,
                        a % 4,
                        b % 4,
                        &m,
                        0.5,
                        0.2,
                        core::ptr::null(),
                        &mut c,
                    );
                    let mut raw: [ContactConstraint; 2] = take(&mut data);
                    raw[0] = c;
                    let mut s = core::mem::zeroed();
                    let _ = c2d_solver_default_settings(&mut s);
                    let dt: f32 = take(&mut data);
                    let _ = c2d_solver_step(bodies.as_mut_ptr(), 3, raw.as_mut_ptr(), 2, &s, dt);
                }
                25 if !ids.is_empty() => {
                    // Joints: a definition from the makers or from raw bytes, then every joint
                    // entry point on a live or fuzzed joint id.
                    let (ka, kb, tag, mode): (u32, u32, u32, u32) =
                        (take(&mut data), take(&mut data), take(&mut data), take(&mut data));
                    let (a, b) = (ids[ka as usize % ids.len()], ids[kb as usize % ids.len()]);
                    let mut def = core::mem::zeroed::<JointDef>();
                    let made = c2d_joint_def(tag % 8, a, b, &mut def);
                    assert_eq!(made == Status::Ok, tag % 8 < 7);
                    let (anchor, xa, xb): (Vec2, Transform, Transform) =
                        (take(&mut data), take(&mut data), take(&mut data));
                    let _ = c2d_joint_def_at_world_anchor(&mut def, anchor, &xa, &xb);
                    let raw: [u8; size_of::<JointDef>()] = take(&mut data);
                    let ptr = if mode & 1 == 0 {
                        &def as *const JointDef
                    } else {
                        raw.as_ptr() as *const JointDef
                    };
                    let mut j = JointId::default();
                    if c2d_world_add_joint(w, ptr, &mut j) == Status::Ok {
                        book.joints.push(j);
                    }
                    let jid = match book.joints.len() {
                        0 => take(&mut data),
                        n => book.joints[(mode >> 8) as usize % n],
                    };
                    let _ = c2d_world_set_joint_enabled(w, jid, mode & 2 != 0);
                    let mut enabled = false;
                    let _ = c2d_world_joint_enabled(w, jid, &mut enabled);
                    let mut got = core::mem::zeroed::<JointDef>();
                    if c2d_world_get_joint_def(w, jid, &mut got) == Status::Ok {
                        assert_eq!(c2d_world_set_joint_kind(w, jid, &got.kind), Status::Ok);
                        let _ = c2d_world_set_joint_kind(w, jid, raw.as_ptr() as *const JointKind);
                    }
                    let _ = c2d_world_set_joint_frames(w, jid, &xa, &xb);
                    let (f, t): (f32, f32) = (take(&mut data), take(&mut data));
                    let _ = c2d_world_set_joint_thresholds(w, jid, f, t);
                    let (mut force, mut torque) = (Vec2::ZERO, 0.0f32);
                    if c2d_world_joint_reaction(w, jid, &mut force, &mut torque) == Status::Ok {
                        assert!(
                            force.is_finite() && torque.is_finite(),
                            "reaction {force:?} {torque}"
                        );
                    }
                    let mut events = [core::mem::zeroed::<JointEvent>(); 4];
                    let mut n = 0usize;
                    assert_eq!(
                        c2d_world_joint_events(w, events.as_mut_ptr(), 4, &mut n),
                        Status::Ok
                    );
                    let _ = c2d_world_joint_count(w, &mut n);
                    let mut on = [JointId::default(); 4];
                    let s = c2d_world_body_joints(w, a, on.as_mut_ptr(), 4, &mut n);
                    assert!(s == Status::Ok || s == Status::InvalidBody, "{s:?}");
                    if mode & 4 != 0 {
                        let _ = c2d_world_remove_joint(w, jid);
                    }
                }
                // The arms above that need a live body (3, 5, 9, 21, 25), when there is none.
                _ => {}
            }
            // What the docs promise after every call: the world's invariants hold, every live
            // body is finite (`c2d_world_validate` checks both), and the events name live ids
            // or ids the target removed.
            assert_eq!(c2d_world_validate(w), Status::Ok);
            check_events(w, &book.removed, false);
            // Bodies the last step stopped (containment) are finite, or removed since.
            let mut faults = [BodyId::default(); 8];
            let mut n = 0usize;
            assert_eq!(
                c2d_world_fault_events(w, faults.as_mut_ptr(), 8, &mut n),
                Status::Ok
            );
            for id in &faults[..n.min(8)] {
                let mut b = core::mem::zeroed::<Body>();
                match c2d_world_get_body(w, *id, &mut b) {
                    Status::Ok => assert!(b.transform.p.is_finite() && b.linear_velocity.is_finite()),
                    s => assert_eq!(s, Status::InvalidBody),
                }
            }
        }
    }
    // SAFETY: destroyed once.
    unsafe { assert_eq!(c2d_world_destroy(w), Status::Ok) };
});
