//! The solver through the C ABI: the immediate-mode functions on caller arrays (no allocator)
//! and the C world (`c2d_world_create` / `c2d_world_destroy`, needs `alloc`).
//!
//! The world has no init-in-caller-memory form: it grows (bodies, pairs, events), so it needs
//! an allocator. Allocator-free programs use the immediate-mode functions with their own
//! arrays and a tree from `c2d_tree_init`.

use super::status::{read, slice_mut, status, write, Status};
use crate::geometry::MassData;
use crate::math::{Transform, Vec2};
use crate::narrowphase::Manifold;
use crate::solver::{self, Body, ContactConstraint, SolverSettings};

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
/// `C2D_STATUS_INVALID_INPUT` unless the mass is finite and positive and the inverse mass
/// and inverse inertia are finite (a mass or inertia below about 3e-39 is refused).
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

/// Advances `bodies` by `dt` under `contacts` in `settings->substeps` sub-steps (Rust:
/// `solver::step`): soft contacts with warm starting, friction and restitution. Accumulated impulses stay in
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
/// independent contacts among `contact_count` (blocks of about 560 bytes per 4 contacts, plus
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
/// (a world steps this way, `c2d_world_step`). `c2d_solver_scratch_bytes(contact_count)` bytes are
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
