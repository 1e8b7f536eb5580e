//! The solver through the C ABI: the immediate-mode functions on caller arrays (no allocator)
//! and the `c2d_World` handle (`c2d_world_create` / `c2d_world_free`, needs `alloc`).
//!
//! The world has no init-in-caller-memory form: it grows (bodies, pairs, events), so it needs
//! an allocator. Allocator-free programs use the immediate-mode functions with their own
//! arrays and a tree from `c2d_tree_init`.

use super::{read, write, Status};
use crate::geometry::MassData;
use crate::manifold::Manifold;
use crate::math::{Transform, Vec2};
use crate::solver::{self, Body, ContactConstraint, SolverError, SolverSettings};

impl From<SolverError> for Status {
    fn from(e: SolverError) -> Status {
        match e {
            SolverError::InvalidStep => Status::InvalidStep,
            SolverError::InvalidBody => Status::InvalidBody,
            SolverError::InvalidInput => Status::InvalidInput,
        }
    }
}

fn status(r: Result<(), SolverError>) -> Status {
    r.map_or_else(Status::from, |()| Status::Ok)
}

/// A slice from a C array; NULL is allowed only with `count == 0`.
///
/// # Safety
/// `p` must be NULL or point to `count` readable and writable values, not aliased elsewhere.
unsafe fn slice_mut<'a, T>(p: *mut T, count: usize) -> Result<&'a mut [T], Status> {
    if count == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(Status::NullPointer);
    }
    // SAFETY: non-null, `count` valid elements, exclusively ours for the call (caller's contract).
    Ok(unsafe { core::slice::from_raw_parts_mut(p, count) })
}

/// Writes Box2D v3's default solver settings (gravity (0, −10), 4 sub-steps, contacts at
/// 30 Hz with damping ratio 10, push-out at most 3 m/s, restitution threshold 1 m/s).
///
/// # Safety
/// `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_solver_default_settings(out: *mut SolverSettings) -> Status {
    // SAFETY: checked by the helper; writability is the caller's contract.
    unsafe { write(out, SolverSettings::default()) }
}

/// Makes a static body at `*xf` (infinite mass, never moves).
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_body_make_static(xf: *const Transform, out: *mut Body) -> Status {
    // SAFETY: checked by the helper; readability is the caller's contract.
    let xf = match unsafe { read(xf) } {
        Ok(x) => x,
        Err(e) => return e,
    };
    if !xf.is_valid() {
        return Status::InvalidInput;
    }
    // SAFETY: checked by the helper; writability is the caller's contract.
    unsafe { write(out, Body::new_static(xf)) }
}

/// Makes a kinematic body at `*xf` moving with `*linear_velocity` and `angular_velocity`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_body_make_kinematic(
    xf: *const Transform,
    linear_velocity: *const Vec2,
    angular_velocity: f32,
    out: *mut Body,
) -> Status {
    // SAFETY: checked by the helpers; readability is the caller's contract.
    let (xf, v) = match unsafe { (read(xf), read(linear_velocity)) } {
        (Ok(x), Ok(v)) => (x, v),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let b = Body::new_kinematic(xf, v, angular_velocity);
    if !b.is_valid() {
        return Status::InvalidInput;
    }
    // SAFETY: checked by the helper; writability is the caller's contract.
    unsafe { write(out, b) }
}

/// Makes a dynamic body at `*xf` with mass properties `*mass` (from `c2d_shape_mass`).
/// `C2D_STATUS_INVALID_INPUT` unless the mass is finite and positive.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_body_make_dynamic(
    xf: *const Transform,
    mass: *const MassData,
    out: *mut Body,
) -> Status {
    // SAFETY: checked by the helpers; readability is the caller's contract.
    let (xf, m) = match unsafe { (read(xf), read(mass)) } {
        (Ok(x), Ok(m)) => (x, m),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    match Body::new_dynamic(xf, m) {
        // SAFETY: checked by the helper; writability is the caller's contract.
        Ok(b) => unsafe { write(out, b) },
        Err(e) => e.into(),
    }
}

/// Prepares the constraint for `*manifold` between `bodies[a]` and `bodies[b]` (manifold
/// computed with A first); `previous` (may be NULL) is last step's constraint of the pair,
/// for warm starting. Friction and restitution are the combined values.
///
/// # Safety
/// `bodies` must point to `body_count` readable bodies (NULL only with count 0); other
/// pointers NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_prepare_contact(
    bodies: *const Body,
    body_count: usize,
    a: u32,
    b: u32,
    manifold: *const Manifold,
    friction: f32,
    restitution: f32,
    previous: *const ContactConstraint,
    out: *mut ContactConstraint,
) -> Status {
    // SAFETY: read-only use of the caller's array; the cast to *mut is never written through.
    let bodies = match unsafe { slice_mut(bodies as *mut Body, body_count) } {
        Ok(s) => &*s,
        Err(e) => return e,
    };
    // SAFETY: checked by the helper; readability is the caller's contract.
    let m = match unsafe { read(manifold) } {
        Ok(m) => m,
        Err(e) => return e,
    };
    if out.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: NULL is allowed (no warm start); otherwise readable by the caller's contract.
    let prev = if previous.is_null() {
        None
    } else {
        unsafe { read(previous) }.ok()
    };
    match solver::prepare_contact(bodies, a, b, &m, friction, restitution, prev.as_ref()) {
        // SAFETY: `out` checked non-null; writability is the caller's contract.
        Ok(c) => unsafe { write(out, c) },
        Err(e) => e.into(),
    }
}

/// Advances `bodies` by `dt` under `contacts` (see the Rust `solver::step`): sub-stepped soft
/// contacts with warm starting, friction and restitution. Accumulated impulses stay in
/// `contacts` for next step's `c2d_prepare_contact`. Constraints naming bodies out of range
/// are skipped. Errors leave everything unchanged.
///
/// # Safety
/// `bodies` and `contacts` must point to `body_count` / `contact_count` writable elements
/// (NULL only with a count of 0); `settings` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_solver_step(
    bodies: *mut Body,
    body_count: usize,
    contacts: *mut ContactConstraint,
    contact_count: usize,
    settings: *const SolverSettings,
    dt: f32,
) -> Status {
    // SAFETY: the caller's contract is this function's; no scratch (NULL with 0 bytes) is
    // the plain step, as `solver::step` is `step_with_scratch` with none.
    unsafe {
        c2d_solver_step_with_scratch(
            bodies,
            body_count,
            contacts,
            contact_count,
            core::ptr::null_mut(),
            0,
            settings,
            dt,
        )
    }
}

/// Bytes of scratch memory that let `c2d_solver_step_with_scratch` pack every run of 4
/// independent contacts among `contact_count` (blocks of about 500 bytes per 4 contacts, plus
/// slack for aligning the start).
#[no_mangle]
pub extern "C" fn c2d_solver_scratch_bytes(contact_count: usize) -> usize {
    let block = core::mem::size_of::<solver::ContactBlock>();
    (contact_count / solver::ContactBlock::LANES)
        .saturating_mul(block)
        .saturating_add(core::mem::align_of::<solver::ContactBlock>() - 1)
}

/// `c2d_solver_step` with scratch memory into which runs of 4 independent contacts are packed
/// once per step instead of gathered on every pass: the same result bit for bit, less work
/// (the `c2d_World` steps this way). `c2d_solver_scratch_bytes(contact_count)` bytes are
/// enough for every run; with fewer, the runs that do not fit are gathered as in
/// `c2d_solver_step`. Any address works (the start is aligned inside the buffer).
///
/// # Safety
/// As `c2d_solver_step`; and `scratch` must be NULL (only with `scratch_bytes` 0) or point to
/// `scratch_bytes` writable bytes of initialised memory (for example from `calloc`, or kept
/// from an earlier call), overlapping no other argument. Its contents are meaningless
/// between calls.
#[no_mangle]
pub unsafe extern "C" fn c2d_solver_step_with_scratch(
    bodies: *mut Body,
    body_count: usize,
    contacts: *mut ContactConstraint,
    contact_count: usize,
    scratch: *mut core::ffi::c_void,
    scratch_bytes: usize,
    settings: *const SolverSettings,
    dt: f32,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (bodies, contacts, settings) = match unsafe {
        (
            slice_mut(bodies, body_count),
            slice_mut(contacts, contact_count),
            read(settings),
        )
    } {
        (Ok(b), Ok(c), Ok(s)) => (b, c, s),
        (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => return e,
    };
    if scratch.is_null() && scratch_bytes > 0 {
        return Status::NullPointer;
    }
    let (size, align) = (
        core::mem::size_of::<solver::ContactBlock>(),
        core::mem::align_of::<solver::ContactBlock>(),
    );
    // Bytes from `scratch` to the first aligned address, and the whole blocks after it.
    let skip = (scratch as usize).wrapping_neg() & (align - 1);
    let count = scratch_bytes.saturating_sub(skip) / size;
    let blocks: &mut [solver::ContactBlock] = if count == 0 {
        &mut []
    } else {
        // SAFETY: `skip + count * size <= scratch_bytes`, so the blocks lie inside the
        // caller's buffer, which is writable, initialised and unaliased (the contract); the
        // start is aligned; and every initialised bit pattern is a valid block (f32 and u32
        // fields only).
        unsafe {
            core::slice::from_raw_parts_mut(
                scratch.cast::<u8>().add(skip).cast::<solver::ContactBlock>(),
                count,
            )
        }
    };
    status(solver::step_with_scratch(bodies, contacts, blocks, &settings, dt))
}

/// The pieces of `c2d_solver_step`, for callers who schedule their own sub-steps: gravity
/// and damping for a sub-step `h`.
///
/// # Safety
/// `bodies` must point to `body_count` writable bodies (NULL only with count 0); `gravity`
/// NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_solver_integrate_velocities(
    bodies: *mut Body,
    body_count: usize,
    gravity: *const Vec2,
    h: f32,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { (slice_mut(bodies, body_count), read(gravity)) } {
        (Ok(b), Ok(g)) => {
            solver::integrate_velocities(b, g, h);
            Status::Ok
        }
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// Moves bodies by their velocities for a sub-step `h` (speed limited to `max_speed`) and
/// accumulates their `delta_position` / `delta_rotation`.
///
/// # Safety
/// `bodies` must point to `body_count` writable bodies (NULL only with count 0).
#[no_mangle]
pub unsafe extern "C" fn c2d_solver_integrate_positions(
    bodies: *mut Body,
    body_count: usize,
    h: f32,
    max_speed: f32,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { slice_mut(bodies, body_count) } {
        Ok(b) => {
            solver::integrate_positions(b, h, max_speed);
            Status::Ok
        }
        Err(e) => e,
    }
}

/// Which pass of the contact solver to run (see `c2d_solver_contacts`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverPass {
    /// Apply the accumulated impulses.
    WarmStart = 0,
    /// Sequential impulses with the soft position bias.
    Solve = 1,
    /// Sequential impulses without bias (after integrating positions).
    Relax = 2,
    /// Restitution (once per step, after the last sub-step).
    Restitution = 3,
}

/// Runs one pass over `contacts` for a sub-step `h`: `pass` is a `c2d_SolverPass` value
/// (`C2D_STATUS_INVALID_INPUT` for any other). Constraints naming bodies out of range are
/// skipped.
///
/// # Safety
/// `bodies` / `contacts` must point to `body_count` / `contact_count` writable elements
/// (NULL only with a count of 0); `settings` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_solver_contacts(
    bodies: *mut Body,
    body_count: usize,
    contacts: *mut ContactConstraint,
    contact_count: usize,
    settings: *const SolverSettings,
    h: f32,
    pass: u32,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (b, c, s) = match unsafe {
        (
            slice_mut(bodies, body_count),
            slice_mut(contacts, contact_count),
            read(settings),
        )
    } {
        (Ok(b), Ok(c), Ok(s)) => (b, c, s),
        (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => return e,
    };
    if !solver::positive(h) {
        return Status::InvalidStep;
    }
    match pass {
        0 => solver::warm_start(b, c),
        1 => solver::solve_contacts(b, c, &s, h, true),
        2 => solver::solve_contacts(b, c, &s, h, false),
        3 => solver::apply_restitution(b, c, s.restitution_threshold),
        _ => return Status::InvalidInput,
    }
    Status::Ok
}

#[cfg(feature = "alloc")]
pub use world::*;

#[cfg(feature = "alloc")]
mod world {
    use super::*;
    use crate::geometry::Shape;
    use crate::math::Aabb;
    use crate::world::{BodyDef, BodyId, ContactEvent, World, WorldRayHit};
    use alloc::boxed::Box;
    use core::ffi::c_void;

    /// Callback for `c2d_world_query_aabb`: return false to stop.
    pub type WorldQueryCallback = Option<unsafe extern "C" fn(body: BodyId, context: *mut c_void) -> bool>;

    /// # Safety
    /// `w` must be NULL or a live handle from `c2d_world_create`.
    unsafe fn world_ref<'a>(w: *const World) -> Result<&'a World, Status> {
        // SAFETY: non-null handles are live worlds by the caller's contract.
        unsafe { w.as_ref() }.ok_or(Status::NullPointer)
    }

    /// # Safety
    /// As [`world_ref`], with no other reference live.
    unsafe fn world_mut<'a>(w: *mut World) -> Result<&'a mut World, Status> {
        // SAFETY: non-null handles are live, exclusively borrowed worlds by contract.
        unsafe { w.as_mut() }.ok_or(Status::NullPointer)
    }

    /// Reads a body definition from C, validating the kind and shape tags as integers first.
    ///
    /// # Safety
    /// `p` must be NULL or point to a readable `c2d_BodyDef`.
    unsafe fn read_body_def(p: *const BodyDef) -> Result<BodyDef, Status> {
        if p.is_null() {
            return Err(Status::NullPointer);
        }
        let base = p as *const u8;
        // SAFETY: both offsets lie inside the readable BodyDef; each names a u32 tag.
        let (kind, tag) = unsafe {
            (
                core::ptr::read_unaligned(base.add(core::mem::offset_of!(BodyDef, kind)) as *const u32),
                core::ptr::read_unaligned(base.add(core::mem::offset_of!(BodyDef, shape)) as *const u32),
            )
        };
        if kind > 2 {
            return Err(Status::InvalidBodyKind);
        }
        if tag > 2 {
            return Err(Status::InvalidShapeTag);
        }
        // SAFETY: both enum tags are valid and every other field is plain f32/u32/u64 data.
        Ok(unsafe { core::ptr::read_unaligned(p) })
    }

    /// Creates an empty world with `*settings` (NULL: the defaults); writes the handle to
    /// `*out`. Free it with `c2d_world_free`.
    ///
    /// # Safety
    /// `settings` NULL or readable; `out` NULL or writable.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_create(
        settings: *const SolverSettings,
        out: *mut *mut World,
    ) -> Status {
        if out.is_null() {
            return Status::NullPointer;
        }
        let s = if settings.is_null() {
            SolverSettings::default()
        } else {
            // SAFETY: non-null and readable by the caller's contract.
            unsafe { core::ptr::read_unaligned(settings) }
        };
        let w = Box::into_raw(Box::new(World::new(s)));
        // SAFETY: `out` checked non-null; writable by the caller's contract.
        unsafe { out.write_unaligned(w) };
        Status::Ok
    }

    /// Frees a world (NULL is ignored).
    ///
    /// # Safety
    /// `world` must be NULL or a live handle, not used afterwards.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_free(world: *mut World) {
        if !world.is_null() {
            // SAFETY: handles come from Box::into_raw in c2d_world_create, freed once.
            drop(unsafe { Box::from_raw(world) });
        }
    }

    /// Adds a body; writes its id to `*out_id`.
    ///
    /// # Safety
    /// `world` NULL or live; other pointers NULL or valid.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_add_body(
        world: *mut World,
        def: *const BodyDef,
        out_id: *mut BodyId,
    ) -> Status {
        // SAFETY: checked by the helpers; validity is the caller's contract.
        let (w, d) = match unsafe { (world_mut(world), read_body_def(def)) } {
            (Ok(w), Ok(d)) => (w, d),
            (Err(e), _) | (_, Err(e)) => return e,
        };
        if out_id.is_null() {
            return Status::NullPointer;
        }
        match w.add_body(&d) {
            // SAFETY: `out_id` checked non-null; writable by the caller's contract.
            Ok(id) => unsafe { write(out_id, id) },
            Err(e) => e.into(),
        }
    }

    /// Removes a body (touching contacts produce end events). Stale ids:
    /// `C2D_STATUS_INVALID_BODY`.
    ///
    /// # Safety
    /// `world` NULL or live.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_remove_body(world: *mut World, id: BodyId) -> Status {
        // SAFETY: checked by the helper; validity is the caller's contract.
        match unsafe { world_mut(world) } {
            Ok(w) => status(w.remove_body(id)),
            Err(e) => e,
        }
    }

    /// Advances the world by `dt` seconds in `substeps` sub-steps (1..=64).
    ///
    /// # Safety
    /// `world` NULL or live.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_step(world: *mut World, dt: f32, substeps: u32) -> Status {
        // SAFETY: checked by the helper; validity is the caller's contract.
        match unsafe { world_mut(world) } {
            Ok(w) => status(w.step(dt, substeps)),
            Err(e) => e,
        }
    }

    /// Sets the contact recycling distance in metres (default `c2d_CONTACT_RECYCLE_DISTANCE`;
    /// 0 recomputes every manifold every step). Negative or non-finite:
    /// `C2D_STATUS_INVALID_INPUT`.
    ///
    /// # Safety
    /// `world` NULL or live.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_set_recycle_distance(world: *mut World, distance: f32) -> Status {
        // SAFETY: checked by the helper; validity is the caller's contract.
        match unsafe { world_mut(world) } {
            Ok(w) => status(w.set_recycle_distance(distance)),
            Err(e) => e,
        }
    }

    /// Copies a body's solver state (transform, velocities, inverse mass...) to `*out`.
    ///
    /// # Safety
    /// `world` NULL or live; `out` NULL or writable.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_get_body(world: *const World, id: BodyId, out: *mut Body) -> Status {
        // SAFETY: checked by the helper; validity is the caller's contract.
        let w = match unsafe { world_ref(world) } {
            Ok(w) => w,
            Err(e) => return e,
        };
        match w.body(id) {
            // SAFETY: checked by the helper; writability is the caller's contract.
            Ok(b) => unsafe { write(out, *b) },
            Err(e) => e.into(),
        }
    }

    /// Writes a body's user data (given at creation) to `*out`.
    ///
    /// # Safety
    /// `world` NULL or live; `out` NULL or writable.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_user_data(world: *const World, id: BodyId, out: *mut u64) -> Status {
        // SAFETY: checked by the helper; validity is the caller's contract.
        let w = match unsafe { world_ref(world) } {
            Ok(w) => w,
            Err(e) => return e,
        };
        match w.user_data(id) {
            // SAFETY: checked by the helper; writability is the caller's contract.
            Ok(u) => unsafe { write(out, u) },
            Err(e) => e.into(),
        }
    }

    /// Sets a body's velocities (ignored for static bodies).
    ///
    /// # Safety
    /// `world` NULL or live; `linear` NULL or readable.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_set_velocity(
        world: *mut World,
        id: BodyId,
        linear: *const Vec2,
        angular: f32,
    ) -> Status {
        // SAFETY: checked by the helpers; validity is the caller's contract.
        match unsafe { (world_mut(world), read(linear)) } {
            (Ok(w), Ok(v)) => status(w.set_velocity(id, v, angular)),
            (Err(e), _) | (_, Err(e)) => e,
        }
    }

    /// Teleports a body to `*xf`.
    ///
    /// # Safety
    /// `world` NULL or live; `xf` NULL or readable.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_set_transform(
        world: *mut World,
        id: BodyId,
        xf: *const Transform,
    ) -> Status {
        // SAFETY: checked by the helpers; validity is the caller's contract.
        match unsafe { (world_mut(world), read(xf)) } {
            (Ok(w), Ok(x)) => status(w.set_transform(id, x)),
            (Err(e), _) | (_, Err(e)) => e,
        }
    }

    /// Writes the number of live bodies and of touching contacts (either pointer may be NULL).
    ///
    /// # Safety
    /// `world` NULL or live; the outputs NULL or writable.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_counts(
        world: *const World,
        out_bodies: *mut u32,
        out_contacts: *mut u32,
    ) -> Status {
        // SAFETY: checked by the helper; validity is the caller's contract.
        let w = match unsafe { world_ref(world) } {
            Ok(w) => w,
            Err(e) => return e,
        };
        // SAFETY: each output is written only when non-null; writable by contract.
        unsafe {
            if !out_bodies.is_null() {
                write(out_bodies, u32::try_from(w.body_count()).unwrap_or(u32::MAX));
            }
            if !out_contacts.is_null() {
                write(out_contacts, u32::try_from(w.contact_count()).unwrap_or(u32::MAX));
            }
        }
        Status::Ok
    }

    /// Copies up to `capacity` events into `buffer` (NULL only with capacity 0) and writes the
    /// total number available to `*out_count`.
    ///
    /// # Safety
    /// `buffer` must have room for `capacity` events; `out_count` NULL or writable.
    unsafe fn copy_events(
        events: &[ContactEvent],
        buffer: *mut ContactEvent,
        capacity: usize,
        out_count: *mut usize,
    ) -> Status {
        if out_count.is_null() {
            return Status::NullPointer;
        }
        // SAFETY: `buffer` has room for `capacity` events by the caller's contract.
        let dst = match unsafe { slice_mut(buffer, capacity) } {
            Ok(d) => d,
            Err(e) => return e,
        };
        let n = events.len().min(dst.len());
        dst[..n].copy_from_slice(&events[..n]);
        // SAFETY: `out_count` checked non-null; writable by contract.
        unsafe { write(out_count, events.len()) }
    }

    /// The last step's begin-touch events (with their first manifold); see `copy` rules:
    /// up to `capacity` are copied into `buffer`, the total is written to `*out_count`.
    ///
    /// # Safety
    /// `world` NULL or live; `buffer` room for `capacity` events (NULL with 0).
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_begin_events(
        world: *const World,
        buffer: *mut ContactEvent,
        capacity: usize,
        out_count: *mut usize,
    ) -> Status {
        // SAFETY: checked by the helpers; validity is the caller's contract.
        match unsafe { world_ref(world) } {
            Ok(w) => unsafe { copy_events(w.begin_events(), buffer, capacity, out_count) },
            Err(e) => e,
        }
    }

    /// The last step's end-touch events (and those of bodies removed since), copied as in
    /// `c2d_world_begin_events`.
    ///
    /// # Safety
    /// As `c2d_world_begin_events`.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_end_events(
        world: *const World,
        buffer: *mut ContactEvent,
        capacity: usize,
        out_count: *mut usize,
    ) -> Status {
        // SAFETY: checked by the helpers; validity is the caller's contract.
        match unsafe { world_ref(world) } {
            Ok(w) => unsafe { copy_events(w.end_events(), buffer, capacity, out_count) },
            Err(e) => e,
        }
    }

    /// Closest body hit by the ray from `*origin` along `*translation`. Writes whether there
    /// was a hit to `*out_hit`, and the hit to `*out` only when there was.
    ///
    /// # Safety
    /// `world` NULL or live; other pointers NULL or valid.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_ray_cast(
        world: *const World,
        origin: *const Vec2,
        translation: *const Vec2,
        out_hit: *mut bool,
        out: *mut WorldRayHit,
    ) -> Status {
        // SAFETY: checked by the helpers; validity is the caller's contract.
        let (w, o, t) = match unsafe { (world_ref(world), read(origin), read(translation)) } {
            (Ok(w), Ok(o), Ok(t)) => (w, o, t),
            (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => return e,
        };
        if out_hit.is_null() || out.is_null() {
            return Status::NullPointer;
        }
        let hit = w.ray_cast(o, t);
        if let Some(h) = hit {
            // SAFETY: `out` checked non-null; writable by contract.
            unsafe { write(out, h) };
        }
        // SAFETY: `out_hit` checked non-null; writable by contract.
        unsafe { write(out_hit, hit.is_some()) }
    }

    /// Calls `callback(body, context)` for every body whose shape overlaps `*aabb`.
    ///
    /// # Safety
    /// `world` NULL or live; `aabb` NULL or readable; `callback` safe to call with `context`.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_world_query_aabb(
        world: *const World,
        aabb: *const Aabb,
        callback: WorldQueryCallback,
        context: *mut c_void,
    ) -> Status {
        // SAFETY: checked by the helpers; validity is the caller's contract.
        let (w, b) = match unsafe { (world_ref(world), read(aabb)) } {
            (Ok(w), Ok(b)) => (w, b),
            (Err(e), _) | (_, Err(e)) => return e,
        };
        let Some(cb) = callback else {
            return Status::NullPointer;
        };
        // SAFETY: the callback and its context are the caller's, valid by contract.
        w.query_aabb(b, |id| unsafe { cb(id, context) });
        Status::Ok
    }

    /// Makes a body definition with zero velocity, the default material (density 1,
    /// friction 0.6, restitution 0) and no user data.
    ///
    /// # Safety
    /// `shape` and `xf` NULL or readable; `out` NULL or writable.
    #[no_mangle]
    pub unsafe extern "C" fn c2d_body_def(
        kind: u32,
        xf: *const Transform,
        shape: *const Shape,
        out: *mut BodyDef,
    ) -> Status {
        use crate::world::BodyKind;
        let kind = match kind {
            0 => BodyKind::Static,
            1 => BodyKind::Kinematic,
            2 => BodyKind::Dynamic,
            _ => return Status::InvalidBodyKind,
        };
        // SAFETY: checked by the helpers; validity is the caller's contract.
        let (xf, s) = match unsafe { (read(xf), super::super::read_shape(shape)) } {
            (Ok(x), Ok(s)) => (x, s),
            (Err(e), _) | (_, Err(e)) => return e,
        };
        // SAFETY: checked by the helper; writability is the caller's contract.
        unsafe { write(out, BodyDef::new(kind, xf, s)) }
    }
}
