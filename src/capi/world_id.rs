//! The C world id `c2d_WorldId`: a value naming a world in a process-wide registry of
//! [`MAX_WORLDS`] slots (Box2D's `b2WorldId`: slot index + 1 and a generation), and the lock
//! that keeps callbacks from changing the world that runs them.
//!
//! An id is checked on every call: the zero id, an id of a destroyed world (its slot's
//! generation moved on) or of a slot never used is `C2D_STATUS_INVALID_WORLD`, so destroying
//! a world twice or using it after destroy is an error, never a double free.
//!
//! **Lock.** A call that runs the caller's callbacks (a query, a draw, a step with hooks)
//! holds its slot's lock. While it is held, a call that would change the world returns
//! `C2D_STATUS_LOCKED` without touching it, and a call that reads the world reads it through
//! the reference the running call holds (the slot's *view*): a query or draw call sets the
//! view for its whole run, a step only around each hook call (the step changes the world
//! between them). Outside a hook (the profile clock) a step's world cannot be read: reads
//! return `C2D_STATUS_LOCKED` too.
//!
//! Slots are claimed and released with atomic operations, so worlds may be created and
//! destroyed from several threads; one world's calls must not race each other (Box2D's rule).

use super::status::{write, Status};
use crate::solver::SolverSettings;
use crate::world::World;
use alloc::boxed::Box;
use core::ffi::c_void;
use core::sync::atomic::{AtomicPtr, AtomicU32, Ordering};

/// How many worlds can exist at once (Box2D's `B2_MAX_WORLDS`).
pub const MAX_WORLDS: usize = 128;

/// A world's id (Rust: `collide2d::capi::WorldId`): `index1` is its registry slot plus one,
/// `generation` counts the slot's worlds. The zero id names no world. Compare with
/// `c2d_world_id_equals`, test with `c2d_world_is_valid`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WorldId {
    /// Registry slot + 1; 0 names no world.
    pub index1: u16,
    /// The slot's generation when the world was created (1 … 65 535).
    pub generation: u16,
}

/// A slot's C hooks: (function as a data pointer, context) for the custom filter, then for
/// the pre-solve hook; null: none.
pub(super) type HookSlots = [(AtomicPtr<()>, AtomicPtr<c_void>); 2];

/// One registry slot.
struct Entry {
    /// The world (from `Box::into_raw`), null while the slot is free.
    world: AtomicPtr<World>,
    /// The generation of the slot's current (or next) world.
    generation: AtomicU32,
    /// How many callback-running calls on the world are under way (they nest).
    locks: AtomicU32,
    /// While locked: the reference through which the running call lets callbacks read the
    /// world (null: reads are refused too).
    view: AtomicPtr<World>,
    /// Non-zero while the world is a Rust world lent by [`lend_world`] (not ours to free).
    lent: AtomicU32,
    /// The C custom filter and pre-solve hooks (function pointer as a data pointer, null:
    /// none) with their contexts; see `world_hooks.rs`.
    hooks: HookSlots,
}

#[allow(clippy::declare_interior_mutable_const)]
const FREE: Entry = Entry {
    world: AtomicPtr::new(core::ptr::null_mut()),
    generation: AtomicU32::new(1),
    locks: AtomicU32::new(0),
    view: AtomicPtr::new(core::ptr::null_mut()),
    lent: AtomicU32::new(0),
    hooks: [
        (
            AtomicPtr::new(core::ptr::null_mut()),
            AtomicPtr::new(core::ptr::null_mut()),
        ),
        (
            AtomicPtr::new(core::ptr::null_mut()),
            AtomicPtr::new(core::ptr::null_mut()),
        ),
    ],
};

static WORLDS: [Entry; MAX_WORLDS] = [FREE; MAX_WORLDS];

/// The slot `id` names while its world lives.
fn entry(id: WorldId) -> Result<&'static Entry, Status> {
    let e = WORLDS
        .get((id.index1 as usize).wrapping_sub(1))
        .ok_or(Status::InvalidWorld)?;
    if e.world.load(Ordering::Acquire).is_null()
        || e.generation.load(Ordering::Acquire) != id.generation as u32
    {
        return Err(Status::InvalidWorld);
    }
    Ok(e)
}

/// The world `id` names, to read: through the running call's view while it is locked.
///
/// # Safety
/// The world must not be destroyed while the reference lives, and no call may change it
/// then (the caller's contract: one world's calls do not race).
pub(super) unsafe fn world_ref<'a>(id: WorldId) -> Result<&'a World, Status> {
    let e = entry(id)?;
    let p = if e.locks.load(Ordering::Acquire) > 0 {
        let view = e.view.load(Ordering::Acquire);
        if view.is_null() {
            return Err(Status::Locked);
        }
        view
    } else {
        e.world.load(Ordering::Acquire)
    };
    // SAFETY: a live world's pointer or the view a running call set from its reference.
    Ok(unsafe { &*p })
}

/// The C hooks of the world `id` names: (function, context) for the custom filter, then for
/// the pre-solve hook.
pub(super) fn hook_slots(id: WorldId) -> Result<&'static HookSlots, Status> {
    entry(id).map(|e| &e.hooks)
}

/// The world `id` names, to change; `Locked` while a call on it runs callbacks.
///
/// # Safety
/// As [`world_ref`], and no other reference to the world may be live.
pub(super) unsafe fn world_mut<'a>(id: WorldId) -> Result<&'a mut World, Status> {
    let e = entry(id)?;
    if e.locks.load(Ordering::Acquire) > 0 {
        return Err(Status::Locked);
    }
    // SAFETY: unlocked, so no running call holds a reference; exclusive by contract.
    Ok(unsafe { &mut *e.world.load(Ordering::Acquire) })
}

/// Holds a world's lock while a call runs the caller's callbacks; restores the view and the
/// lock count when dropped (calls nest).
pub(super) struct Locked {
    entry: &'static Entry,
    view: *mut World,
}

impl Locked {
    /// Locks the world `id` names with `view` as what callbacks read (null: nothing).
    pub(super) fn new(id: WorldId, view: *const World) -> Result<Locked, Status> {
        let entry = entry(id)?;
        entry.locks.fetch_add(1, Ordering::AcqRel);
        let view = entry.view.swap(view as *mut World, Ordering::AcqRel);
        Ok(Locked { entry, view })
    }

    /// Lets callbacks read the world through `view` until the returned guard drops.
    pub(super) fn show(&self, view: &World) -> Shown<'_> {
        let before = self
            .entry
            .view
            .swap(view as *const World as *mut World, Ordering::AcqRel);
        Shown { lock: self, before }
    }
}

impl Drop for Locked {
    fn drop(&mut self) {
        self.entry.view.store(self.view, Ordering::Release);
        self.entry.locks.fetch_sub(1, Ordering::AcqRel);
    }
}

/// See [`Locked::show`].
pub(super) struct Shown<'a> {
    lock: &'a Locked,
    before: *mut World,
}

impl Drop for Shown<'_> {
    fn drop(&mut self) {
        self.lock.entry.view.store(self.before, Ordering::Release);
    }
}

/// The world behind a live id, for tests and tools that mix the C and Rust APIs in one
/// process (`None` for an id that names no world, or while a call on it runs callbacks).
///
/// # Safety
/// As the C calls: the world must not be destroyed or changed while the reference lives.
#[doc(hidden)]
pub unsafe fn world_of<'a>(id: WorldId) -> Option<&'a World> {
    // SAFETY: the caller's contract.
    unsafe { world_ref(id) }.ok()
}

/// Lends a Rust world to the C calls while `f` runs with its id (tests and tools that mix the
/// two APIs): `c2d_world_destroy` refuses it (`C2D_STATUS_LOCKED`), and the id names nothing
/// once `f` returns. `None` when `C2D_MAX_WORLDS` worlds exist.
#[doc(hidden)]
pub fn lend_world<R>(world: &mut World, f: impl FnOnce(WorldId) -> R) -> Option<R> {
    struct Return(&'static Entry);
    impl Drop for Return {
        fn drop(&mut self) {
            release(self.0);
            self.0.lent.store(0, Ordering::Release);
        }
    }
    let (id, e) = claim(world)?;
    e.lent.store(1, Ordering::Release);
    let _back = Return(e);
    Some(f(id))
}

/// Creates an empty world with `*settings` (NULL: the defaults); writes its id to `*out`.
/// Destroy it with `c2d_world_destroy`. The settings are checked: `C2D_STATUS_INVALID_INPUT`
/// for a non-finite value, `C2D_STATUS_OUT_OF_RANGE` for gravity above `C2D_MAX_GRAVITY`, a
/// contact hertz that is not positive, a negative damping ratio,
/// push-out speed or restitution threshold, or a `max_linear_speed` outside
/// (0, `C2D_MAX_LINEAR_SPEED`]. `C2D_STATUS_TOO_MANY_WORLDS` when `C2D_MAX_WORLDS` worlds
/// exist; `C2D_STATUS_OUT_OF_MEMORY` when the allocator cannot provide the world (`*out` not
/// written either way). `settings->substeps` is ignored: each `c2d_world_step` takes its own
/// sub-step count.
///
/// # Safety
/// `settings` NULL or readable; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_create(settings: *const SolverSettings, out: *mut WorldId) -> Status {
    if out.is_null() {
        return Status::NullPointer;
    }
    let s = if settings.is_null() {
        SolverSettings::default()
    } else {
        // SAFETY: non-null and readable by the caller's contract.
        unsafe { core::ptr::read_unaligned(settings) }
    };
    match World::new(s) {
        // SAFETY: `out` checked non-null; writable by the caller's contract.
        Ok(w) => unsafe { register(w, out) },
        Err(e) => e.into(),
    }
}

/// Puts a new world in the registry and writes its id to `*out` (`C2D_STATUS_OUT_OF_MEMORY`
/// or `C2D_STATUS_TOO_MANY_WORLDS` otherwise, the world dropped).
///
/// # Safety
/// `out` must be non-null and writable.
pub(super) unsafe fn register(w: World, out: *mut WorldId) -> Status {
    let Some(w) = super::status::try_box(w) else {
        return Status::OutOfMemory;
    };
    let w = Box::into_raw(w);
    if let Some((id, _)) = claim(w) {
        // SAFETY: non-null and writable by the caller's contract.
        return unsafe { write(out, id) };
    }
    // SAFETY: made by Box::into_raw above and never shared.
    drop(unsafe { Box::from_raw(w) });
    Status::TooManyWorlds
}

/// Puts `world` in the first free registry slot: its id and slot, or `None` when all
/// `MAX_WORLDS` are taken.
fn claim(world: *mut World) -> Option<(WorldId, &'static Entry)> {
    let (i, e) = WORLDS.iter().enumerate().find(|(_, e)| {
        e.world
            .compare_exchange(core::ptr::null_mut(), world, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    })?;
    let id = WorldId {
        index1: i as u16 + 1,
        generation: e.generation.load(Ordering::Acquire) as u16,
    };
    Some((id, e))
}

/// Destroys a world and everything in it; its id (and every body, shape and chain id of it)
/// names nothing afterwards. `C2D_STATUS_INVALID_WORLD` for an id that names no live world
/// (destroying twice is this error), `C2D_STATUS_LOCKED` from inside a callback of a call on
/// the world (nothing destroyed).
///
/// # Safety
/// No other call on the world may run at the same time on another thread.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_destroy(world: WorldId) -> Status {
    let e = match entry(world) {
        Ok(e) => e,
        Err(s) => return s,
    };
    if e.locks.load(Ordering::Acquire) > 0 || e.lent.load(Ordering::Acquire) != 0 {
        return Status::Locked;
    }
    let w = release(e);
    // SAFETY: the slot held this world from Box::into_raw in c2d_world_create; `release`
    // took it out, so it is freed once.
    drop(unsafe { Box::from_raw(w) });
    Status::Ok
}

/// Frees slot `e`: its generation moves on, its hooks are cleared; returns its world.
fn release(e: &Entry) -> *mut World {
    let g = e.generation.load(Ordering::Acquire);
    e.generation.store(g % 0xFFFF + 1, Ordering::Release);
    for (f, c) in &e.hooks {
        f.store(core::ptr::null_mut(), Ordering::Release);
        c.store(core::ptr::null_mut(), Ordering::Release);
    }
    e.world.swap(core::ptr::null_mut(), Ordering::AcqRel)
}

/// Whether `world` names a live world.
#[no_mangle]
pub extern "C" fn c2d_world_is_valid(world: WorldId) -> bool {
    entry(world).is_ok()
}

/// Whether two world ids are the same.
#[no_mangle]
pub extern "C" fn c2d_world_id_equals(a: WorldId, b: WorldId) -> bool {
    a == b
}
