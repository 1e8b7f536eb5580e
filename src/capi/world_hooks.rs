//! The C step and its hooks: `c2d_world_set_custom_filter`, `c2d_world_set_pre_solve`
//! (Box2D's `b2World_SetCustomFilterCallback` / `b2World_SetPreSolveCallback`) and
//! `c2d_world_step`, which calls them through [`ContactHooks`] with the world locked.

use super::status::{status, Status};
use super::world_id::{hook_slots, world_mut, Locked, WorldId};
use crate::narrowphase::Manifold;
use crate::world::{ContactHooks, ShapeId, World};
use core::ffi::c_void;
use core::sync::atomic::Ordering;

/// Custom filter: whether shapes `a` and `b` get a contact (see `c2d_world_set_custom_filter`).
pub type CustomFilterFcn = Option<unsafe extern "C" fn(a: ShapeId, b: ShapeId, context: *mut c_void) -> bool>;

/// Pre-solve hook: whether a touching contact is solved this step (see
/// `c2d_world_set_pre_solve`). `manifold` is valid during the call only.
pub type PreSolveFcn = Option<
    unsafe extern "C" fn(a: ShapeId, b: ShapeId, manifold: *const Manifold, context: *mut c_void) -> bool,
>;

type FilterInner = unsafe extern "C" fn(ShapeId, ShapeId, *mut c_void) -> bool;
type PreSolveInner = unsafe extern "C" fn(ShapeId, ShapeId, *const Manifold, *mut c_void) -> bool;

/// Sets the world's custom filter (NULL: none), called by `c2d_world_step` with `context`
/// when two shapes that the filters and sensor rules let collide come near each other
/// without a contact: returning false gives them none. A refused pair may be asked again on a
/// later step; a pair that got its contact keeps it while their boxes overlap
/// (`c2d_world_set_shape_filter` on either shape asks again). The world is locked during the
/// call: reading it works, changing it returns `C2D_STATUS_LOCKED`.
///
/// # Safety
/// `fcn`, if set, must be safe to call with `context` during every later step of the world.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_custom_filter(
    world: WorldId,
    fcn: CustomFilterFcn,
    context: *mut c_void,
) -> Status {
    set_hook(
        world,
        0,
        fcn.map_or(core::ptr::null_mut(), |f| f as *mut ()),
        context,
    )
}

/// Sets the world's pre-solve hook (NULL: none), called by `c2d_world_step` with `context` for
/// every awake touching contact between two solid shapes (a sleeping one keeps its last
/// answer: wake the body when the rule changes), after its manifold is found (normal from
/// shape `a` to shape `b`, points with their depths, speculative ones included) and before it
/// is solved: returning false disables the contact for this step (it counts as not touching:
/// begin and end events follow from that). Bodies are at their poses before the step moves
/// them. The world is locked during the call: reading it works, changing it returns
/// `C2D_STATUS_LOCKED`.
///
/// # Safety
/// `fcn`, if set, must be safe to call with `context` during every later step of the world.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_pre_solve(
    world: WorldId,
    fcn: PreSolveFcn,
    context: *mut c_void,
) -> Status {
    set_hook(
        world,
        1,
        fcn.map_or(core::ptr::null_mut(), |f| f as *mut ()),
        context,
    )
}

/// Stores hook `which` (0 filter, 1 pre-solve) in the world's registry slot.
fn set_hook(world: WorldId, which: usize, fcn: *mut (), context: *mut c_void) -> Status {
    // SAFETY: only the id is checked and the lock read; no reference to the world is made.
    if let Err(e) = unsafe { world_mut(world) } {
        return e;
    }
    let Ok(slots) = hook_slots(world) else {
        return Status::InvalidWorld;
    };
    slots[which].0.store(fcn, Ordering::Release);
    slots[which].1.store(context, Ordering::Release);
    Status::Ok
}

/// The C hooks as [`ContactHooks`]: each call lets the C function read the world through the
/// step's lock.
struct CHooks<'a> {
    lock: &'a Locked,
    filter: Option<(FilterInner, *mut c_void)>,
    pre_solve: Option<(PreSolveInner, *mut c_void)>,
}

impl ContactHooks for CHooks<'_> {
    fn should_collide(&mut self, world: &World, a: ShapeId, b: ShapeId) -> bool {
        let Some((f, context)) = self.filter else {
            return true;
        };
        let _shown = self.lock.show(world);
        // SAFETY: the function and context the caller set for this world's steps.
        unsafe { f(a, b, context) }
    }

    fn pre_solve(&mut self, world: &World, a: ShapeId, b: ShapeId, manifold: &Manifold) -> bool {
        let Some((f, context)) = self.pre_solve else {
            return true;
        };
        let _shown = self.lock.show(world);
        // SAFETY: the function and context the caller set; the manifold is a live reference.
        unsafe { f(a, b, manifold, context) }
    }
}

/// Advances the world by `dt` seconds in `substeps` sub-steps (1..=64); `dt` must be from
/// `C2D_MIN_TIME_STEP` to `C2D_MAX_TIME_STEP` (1e-6 … 1 s; `C2D_STATUS_INVALID_STEP`
/// otherwise, and nothing changes). Calls the custom filter and
/// pre-solve hooks if set. `C2D_STATUS_OUT_OF_MEMORY` when the allocator cannot provide what
/// the step needs (room for new pairs, contacts and the solver's per-step arrays): no body has
/// moved, the world stays valid and a later step goes on. A failure while finding the new
/// pairs changes nothing else; a later one keeps the narrow phase's contact updates and
/// events, which read as after any step (Rust: `World::step`). The world is locked for the whole step: from
/// inside a hook, reads work and changes return `C2D_STATUS_LOCKED`; from anything else the
/// step calls (the profile clock) reads return `C2D_STATUS_LOCKED` too.
///
/// # Safety
/// Every argument is a value; ids are checked. The hooks set on the world must be callable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_step(world: WorldId, dt: f32, substeps: u32) -> Status {
    // SAFETY: checked by the helper; one world's calls do not race by the caller's contract.
    let w = match unsafe { world_mut(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    let Ok(slots) = hook_slots(world) else {
        return Status::InvalidWorld;
    };
    let hook = |k: usize| {
        let f = slots[k].0.load(Ordering::Acquire);
        (!f.is_null()).then(|| (f, slots[k].1.load(Ordering::Acquire)))
    };
    // SAFETY: the slots hold null or a function pointer of exactly these types, stored by
    // `c2d_world_set_custom_filter` / `c2d_world_set_pre_solve` from `fcn as *mut ()`.
    let filter = hook(0).map(|(f, c)| (unsafe { core::mem::transmute::<*mut (), FilterInner>(f) }, c));
    // SAFETY: as above.
    let pre_solve = hook(1).map(|(f, c)| (unsafe { core::mem::transmute::<*mut (), PreSolveInner>(f) }, c));
    let lock = match Locked::new(world, core::ptr::null()) {
        Ok(l) => l,
        Err(e) => return e,
    };
    if filter.is_none() && pre_solve.is_none() {
        return status(w.step(dt, substeps));
    }
    let mut hooks = CHooks {
        lock: &lock,
        filter,
        pre_solve,
    };
    status(w.step_with_hooks(dt, substeps, &mut hooks))
}
