//! Joints from C (`World::add_joint` and the rest): definitions read with every tag and
//! bool checked as integers first, ids checked by the world.

use super::status::{read, status, write, Status};
use super::world::copy_events;
use super::world_id::{world_mut, world_ref, WorldId};
use crate::math::{Transform, Vec2};
use crate::solver::{
    DistanceJoint, JointKind, MotorJoint, PrismaticJoint, RevoluteJoint, WeldJoint, WheelJoint,
};
use crate::world::{BodyId, JointDef, JointEvent, JointId};
use core::mem::offset_of;

/// Offset of the payload in a `JointKind` (`#[repr(C, u32)]`: the tag, then the union).
const PAYLOAD: usize = 4;

/// The bools of a kind's payload, as offsets into it.
fn bool_offsets(tag: u32) -> &'static [usize] {
    const DISTANCE: [usize; 3] = [
        offset_of!(DistanceJoint, enable_spring),
        offset_of!(DistanceJoint, enable_limit),
        offset_of!(DistanceJoint, enable_motor),
    ];
    const REVOLUTE: [usize; 3] = [
        offset_of!(RevoluteJoint, enable_spring),
        offset_of!(RevoluteJoint, enable_limit),
        offset_of!(RevoluteJoint, enable_motor),
    ];
    const PRISMATIC: [usize; 3] = [
        offset_of!(PrismaticJoint, enable_spring),
        offset_of!(PrismaticJoint, enable_limit),
        offset_of!(PrismaticJoint, enable_motor),
    ];
    const WHEEL: [usize; 3] = [
        offset_of!(WheelJoint, enable_spring),
        offset_of!(WheelJoint, enable_limit),
        offset_of!(WheelJoint, enable_motor),
    ];
    match tag {
        0 => &DISTANCE,
        1 => &REVOLUTE,
        2 => &PRISMATIC,
        4 => &WHEEL,
        _ => &[],
    }
}

/// Reads a joint kind from C at `p`, its tag and bools checked as integers first (an
/// invalid enum tag or bool must never be read as a Rust value).
///
/// # Safety
/// `p` must be NULL or point to `size_of::<JointKind>()` readable bytes.
unsafe fn read_kind(p: *const JointKind) -> Result<JointKind, Status> {
    if p.is_null() {
        return Err(Status::NullPointer);
    }
    let base = p as *const u8;
    // SAFETY: the first four bytes are the u32 tag.
    let tag = unsafe { core::ptr::read_unaligned(base as *const u32) };
    if tag > 6 {
        return Err(Status::InvalidInput);
    }
    for &at in bool_offsets(tag) {
        // SAFETY: the offset lies inside the payload of this tag, inside the readable kind.
        if unsafe { core::ptr::read(base.add(PAYLOAD + at)) } > 1 {
            return Err(Status::InvalidInput);
        }
    }
    // SAFETY: the tag names a variant and its bools are 0 or 1; every other field is plain
    // f32 data (padding bytes are never read as values).
    Ok(unsafe { core::ptr::read_unaligned(p) })
}

/// Reads a joint definition from C, as `read_kind` reads its kind.
///
/// # Safety
/// `p` must be NULL or point to a readable `c2d_JointDef`.
unsafe fn read_def(p: *const JointDef) -> Result<JointDef, Status> {
    if p.is_null() {
        return Err(Status::NullPointer);
    }
    let base = p as *const u8;
    // SAFETY: the kind lies at its offset inside the readable definition.
    let kind = unsafe { read_kind(base.add(offset_of!(JointDef, kind)) as *const JointKind) }?;
    // SAFETY: the offset lies inside the definition and names a one-byte bool.
    if unsafe { core::ptr::read(base.add(offset_of!(JointDef, collide_connected))) } > 1 {
        return Err(Status::InvalidInput);
    }
    // SAFETY: the kind and the bool are valid; every other field is plain data. The kind
    // read above replaces the one read here (the same bytes).
    let def = unsafe { core::ptr::read_unaligned(p) };
    Ok(JointDef { kind, ..def })
}

/// Fills `*out` with a joint definition of kind `tag` (`C2D_JOINT_DISTANCE` …
/// `C2D_JOINT_FILTER`) between two bodies with Box2D's defaults: frames at the bodies'
/// origins, bodies not colliding, no break thresholds, constraint stiffness 60 Hz with
/// damping ratio 2, and the kind's defaults (a distance joint of length 1, a wheel joint with
/// a 1 Hz, 0.7 suspension spring, everything else off or zero). An unknown tag is
/// `C2D_STATUS_INVALID_INPUT`.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_joint_def(
    tag: u32,
    body_a: BodyId,
    body_b: BodyId,
    out: *mut JointDef,
) -> Status {
    let kind = match tag {
        0 => JointKind::Distance(DistanceJoint::default()),
        1 => JointKind::Revolute(RevoluteJoint::default()),
        2 => JointKind::Prismatic(PrismaticJoint::default()),
        3 => JointKind::Weld(WeldJoint::default()),
        4 => JointKind::Wheel(WheelJoint::default()),
        5 => JointKind::Motor(MotorJoint::default()),
        6 => JointKind::Filter,
        _ => return Status::InvalidInput,
    };
    // SAFETY: NULL or writable by the caller's contract (checked by the helper).
    unsafe { write(out, JointDef::new(kind, body_a, body_b)) }
}

/// Places a definition's frames at the world point `anchor` for bodies at `xa` and `xb`
/// (both frames' x axes along the world's x axis), as `JointDef::at_world_anchor`.
///
/// # Safety
/// `def` NULL or a readable and writable `c2d_JointDef`; `xa`, `xb` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_joint_def_at_world_anchor(
    def: *mut JointDef,
    anchor: Vec2,
    xa: *const Transform,
    xb: *const Transform,
) -> Status {
    // SAFETY: readable by the caller's contract (checked by the helpers).
    let (d, xa, xb) = match unsafe { (read_def(def), read(xa), read(xb)) } {
        (Ok(d), Ok(a), Ok(b)) => (d, a, b),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return e,
    };
    if !(xa.is_valid() && xb.is_valid() && anchor.is_finite()) {
        return Status::InvalidInput;
    }
    // SAFETY: writable by the caller's contract.
    unsafe { write(def, d.at_world_anchor(anchor, xa, xb)) }
}

/// Adds a joint (Rust: `World::add_joint`) and writes its id. Both bodies are woken; without
/// `collide_connected` their contacts end. Errors: `C2D_STATUS_INVALID_BODY` (a stale body
/// id, or A = B), `C2D_STATUS_INVALID_INPUT` (an unknown kind tag, a bool that is not 0 or 1,
/// a non-finite setting), `C2D_STATUS_OUT_OF_RANGE` (a setting outside the ranges of
/// `World::add_joint`: negative stiffness, damping, forces or thresholds, a lower limit
/// above the upper, a frame beyond `C2D_MAX_COORDINATE`), `C2D_STATUS_OUT_OF_MEMORY`
/// (nothing added, `*out_id` not written).
///
/// # Safety
/// `def` NULL or a readable `c2d_JointDef`; `out_id` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_add_joint(
    world: WorldId,
    def: *const JointDef,
    out_id: *mut JointId,
) -> Status {
    if out_id.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, def) = match unsafe { (world_mut(world), read_def(def)) } {
        (Ok(w), Ok(d)) => (w, d),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    match w.add_joint(&def) {
        // SAFETY: checked non-null; writable by the caller's contract.
        Ok(id) => unsafe { write(out_id, id) },
        Err(e) => e.into(),
    }
}

/// Removes a joint; its bodies are woken and may collide again. A stale id is
/// `C2D_STATUS_INVALID_JOINT`.
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_remove_joint(world: WorldId, joint: JointId) -> Status {
    // SAFETY: checked by the helper.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.remove_joint(joint)),
        Err(e) => e,
    }
}

/// Enables or disables a joint (a disabled one is not solved and keeps no bodies apart);
/// enabling a joint that keeps its bodies apart ends their contacts. Allocates nothing.
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_joint_enabled(
    world: WorldId,
    joint: JointId,
    enabled: bool,
) -> Status {
    // SAFETY: checked by the helper.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_joint_enabled(joint, enabled)),
        Err(e) => e,
    }
}

/// Writes whether the joint is enabled (a broken joint is disabled).
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_joint_enabled(world: WorldId, joint: JointId, out: *mut bool) -> Status {
    // SAFETY: checked by the helpers.
    match unsafe { world_ref(world) }.and_then(|w| w.joint_enabled(joint).map_err(Status::from)) {
        // SAFETY: NULL or writable by the caller's contract.
        Ok(e) => unsafe { write(out, e) },
        Err(e) => e,
    }
}

/// Writes the joint's definition as it is now (settings, frames, thresholds, user data).
///
/// # Safety
/// `out` NULL or a writable `c2d_JointDef`.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_get_joint_def(
    world: WorldId,
    joint: JointId,
    out: *mut JointDef,
) -> Status {
    // SAFETY: checked by the helpers.
    match unsafe { world_ref(world) }.and_then(|w| w.joint(joint).map_err(Status::from)) {
        // SAFETY: NULL or writable by the caller's contract.
        Ok(d) => unsafe { write(out, d) },
        Err(e) => e,
    }
}

/// Changes the joint's settings (a motor's speed, a spring, limits): `kind` must have the
/// joint's tag (`C2D_STATUS_UNSUPPORTED` otherwise) and is checked as `c2d_world_add_joint`
/// checks it. Wakes the bodies.
///
/// # Safety
/// `kind` NULL or a readable `c2d_JointKind`.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_joint_kind(
    world: WorldId,
    joint: JointId,
    kind: *const JointKind,
) -> Status {
    // SAFETY: checked by the helpers.
    match unsafe { (world_mut(world), read_kind(kind)) } {
        (Ok(w), Ok(k)) => status(w.set_joint_kind(joint, k)),
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// Moves the joint's frames (each in its body's frame); a motor joint dragging a body
/// follows a moved frame A. Checked as `c2d_world_add_joint` checks frames.
///
/// # Safety
/// `frame_a`, `frame_b` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_joint_frames(
    world: WorldId,
    joint: JointId,
    frame_a: *const Transform,
    frame_b: *const Transform,
) -> Status {
    // SAFETY: checked by the helpers.
    match unsafe { (world_mut(world), read(frame_a), read(frame_b)) } {
        (Ok(w), Ok(a), Ok(b)) => status(w.set_joint_frames(joint, a, b)),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => e,
    }
}

/// Sets the force (N) and torque (N·m) above which the joint breaks (`>= 0`, not NaN;
/// `FLT_MAX`: never).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_joint_thresholds(
    world: WorldId,
    joint: JointId,
    force: f32,
    torque: f32,
) -> Status {
    // SAFETY: checked by the helper.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_joint_thresholds(joint, force, torque)),
        Err(e) => e,
    }
}

/// Writes the joint's constraint force (N, world, on body B) and torque (N·m) of the last
/// sub-step (either pointer may be NULL).
///
/// # Safety
/// `out_force`, `out_torque` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_joint_reaction(
    world: WorldId,
    joint: JointId,
    out_force: *mut Vec2,
    out_torque: *mut f32,
) -> Status {
    // SAFETY: checked by the helpers.
    match unsafe { world_ref(world) }.and_then(|w| w.joint_reaction(joint).map_err(Status::from)) {
        Ok((f, t)) => {
            if !out_force.is_null() {
                // SAFETY: non-null and writable by the caller's contract.
                unsafe { core::ptr::write_unaligned(out_force, f) };
            }
            if !out_torque.is_null() {
                // SAFETY: as above.
                unsafe { core::ptr::write_unaligned(out_torque, t) };
            }
            Status::Ok
        }
        Err(e) => e,
    }
}

/// The joints that broke in the last step, after those removed with their bodies since the
/// step before (Rust: `World::joint_events`), copied as in `c2d_world_begin_events`.
///
/// # Safety
/// `buffer` room for `capacity` events (NULL with 0); `out_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_joint_events(
    world: WorldId,
    buffer: *mut JointEvent,
    capacity: usize,
    out_count: *mut usize,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        Ok(w) => unsafe { copy_events(w.joint_events(), buffer, capacity, out_count) },
        Err(e) => e,
    }
}

/// Writes the number of joints in the world.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_joint_count(world: WorldId, out: *mut usize) -> Status {
    // SAFETY: checked by the helpers.
    match unsafe { world_ref(world) } {
        // SAFETY: NULL or writable by the caller's contract.
        Ok(w) => unsafe { write(out, w.joint_count()) },
        Err(e) => e,
    }
}

/// The joints of a body, copied as in `c2d_world_begin_events` (up to `capacity` into
/// `buffer`, the total into `*out_count`).
///
/// # Safety
/// `buffer` room for `capacity` ids (NULL with 0); `out_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_body_joints(
    world: WorldId,
    body: BodyId,
    buffer: *mut JointId,
    capacity: usize,
    out_count: *mut usize,
) -> Status {
    if out_count.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: checked by the helpers.
    let w = match unsafe { world_ref(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    let ids = match w.joint_ids(body) {
        Ok(ids) => ids,
        Err(e) => return e.into(),
    };
    // SAFETY: room for `capacity` ids by the caller's contract.
    let dst = match unsafe { super::status::slice_mut(buffer, capacity) } {
        Ok(d) => d,
        Err(e) => return e,
    };
    let mut n = 0usize;
    for id in ids {
        if let Some(slot) = dst.get_mut(n) {
            *slot = id;
        }
        n += 1;
    }
    // SAFETY: checked non-null; writable by the caller's contract.
    unsafe { write(out_count, n) }
}
