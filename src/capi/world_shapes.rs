//! Shapes by id from C: adding shapes with their own definition, reading and changing one
//! shape, removing it (Rust: `World::add_shape_def` and the `ShapeId` calls).

use super::status::{read_shape, status, write, write_listed, Status};
use super::world_id::{world_mut, world_ref, WorldId};
use crate::geometry::Shape;
use crate::solver::SolverError;
use crate::tree::Filter;
use crate::world::{BodyId, Material, ShapeDef, ShapeId};

/// Adds another shape (body space) to a body: a compound body, each shape with its own proxy
/// and the body's material, filter, sensor flag and user data; a dynamic body's mass
/// properties become those of all its shapes (Rust: `World::add_shape`). The shape is checked
/// as `c2d_world_add_body` checks one. Writes the new shape's id to `*out_shape` unless it is
/// NULL. `C2D_STATUS_OUT_OF_MEMORY` when the allocator cannot provide the room for the shape:
/// the world is unchanged.
///
/// # Safety
/// `shape` NULL or a readable `c2d_Shape`; `out_shape` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_add_shape(
    world: WorldId,
    id: BodyId,
    shape: *const Shape,
    out_shape: *mut ShapeId,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, sh) = match unsafe { (world_mut(world), read_shape(shape)) } {
        (Ok(w), Ok(s)) => (w, s),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    // SAFETY: `out_shape` NULL or writable by contract.
    unsafe { write_shape_id(w.add_shape(id, &sh), out_shape) }
}

/// Writes the id of a shape just added to `*out` unless `out` is NULL.
///
/// # Safety
/// `out` NULL or writable.
unsafe fn write_shape_id(r: Result<ShapeId, SolverError>, out: *mut ShapeId) -> Status {
    match r {
        Ok(s) if !out.is_null() => {
            // SAFETY: non-null and writable by the caller's contract.
            unsafe { core::ptr::write_unaligned(out, s) };
            Status::Ok
        }
        Ok(_) => Status::Ok,
        Err(e) => e.into(),
    }
}

/// A shape definition with the defaults for `*shape`: density 1, friction 0.6, restitution
/// 0, the default filter, not a sensor, user data 0 (Rust: `ShapeDef::new`). The shape is
/// checked as `c2d_world_add_body` checks one.
///
/// # Safety
/// `shape` NULL or a readable `c2d_Shape`; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_shape_def(shape: *const Shape, out: *mut ShapeDef) -> Status {
    // SAFETY: checked by the helper; readable by contract.
    let sh = match unsafe { read_shape(shape) } {
        Ok(s) => s,
        Err(e) => return e,
    };
    // SAFETY: `out` NULL or writable by contract.
    unsafe { write(out, ShapeDef::new(sh)) }
}

/// Reads a `c2d_ShapeDef`: its shape through `read_shape`, its sensor flag a valid bool.
///
/// # Safety
/// `p` NULL or a readable `c2d_ShapeDef`.
unsafe fn read_shape_def(p: *const ShapeDef) -> Result<ShapeDef, Status> {
    if p.is_null() {
        return Err(Status::NullPointer);
    }
    let base = p as *const u8;
    // SAFETY: the shape lies at its offset inside the readable definition.
    let shape = unsafe { read_shape(base.add(core::mem::offset_of!(ShapeDef, shape)) as *const Shape)? };
    // SAFETY: the offset lies inside the readable definition and names a one-byte bool.
    let sensor = unsafe { core::ptr::read(base.add(core::mem::offset_of!(ShapeDef, sensor))) };
    if sensor > 1 {
        return Err(Status::InvalidInput);
    }
    // SAFETY: each field is plain data at its offset inside the readable definition.
    unsafe {
        Ok(ShapeDef {
            shape,
            material: core::ptr::read_unaligned(
                base.add(core::mem::offset_of!(ShapeDef, material)) as *const Material
            ),
            filter: core::ptr::read_unaligned(
                base.add(core::mem::offset_of!(ShapeDef, filter)) as *const Filter
            ),
            sensor: sensor == 1,
            user_data: core::ptr::read_unaligned(
                base.add(core::mem::offset_of!(ShapeDef, user_data)) as *const u64
            ),
        })
    }
}

/// Adds a shape with its own material, filter, sensor flag and user data to a body (a foot
/// sensor on a player, per-shape friction); the shape and material are checked as at body
/// creation, and a dynamic body's mass comes from every shape's own density (Rust:
/// `World::add_shape_def`). Writes the new shape's id to `*out_shape` unless it is NULL.
/// `C2D_STATUS_UNSUPPORTED` for a shape without area on a dynamic body or as a sensor;
/// `C2D_STATUS_OUT_OF_MEMORY` when the allocator cannot provide the room for the shape: the
/// world is unchanged.
///
/// # Safety
/// `def` NULL or a readable `c2d_ShapeDef`; `out_shape` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_add_shape_def(
    world: WorldId,
    id: BodyId,
    def: *const ShapeDef,
    out_shape: *mut ShapeId,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (w, d) = match unsafe { (world_mut(world), read_shape_def(def)) } {
        (Ok(w), Ok(d)) => (w, d),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    // SAFETY: `out_shape` NULL or writable by contract.
    unsafe { write_shape_id(w.add_shape_def(id, &d), out_shape) }
}

/// The ids of a body's shapes (its first shape, then the added ones, most recent first)
/// into `out` (room for `capacity`), their count to `*out_count` (always;
/// `C2D_STATUS_BUFFER_TOO_SMALL` when they do not fit; `out` may be NULL with capacity 0 to
/// ask for the count).
///
/// # Safety
/// `out` NULL or `capacity` writable `c2d_ShapeId`; `out_count` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_body_shapes(
    world: WorldId,
    id: BodyId,
    out: *mut ShapeId,
    capacity: u32,
    out_count: *mut u32,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_ref(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    if out_count.is_null() {
        return Status::NullPointer;
    }
    match w.shape_ids(id) {
        // SAFETY: the outputs as this function's contract states.
        Ok(ids) => unsafe { write_listed(ids, out, capacity, out_count) },
        Err(e) => e.into(),
    }
}

/// The body a shape belongs to. `C2D_STATUS_INVALID_SHAPE_ID` for a stale shape id.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_shape_body(world: WorldId, shape: ShapeId, out: *mut BodyId) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        // SAFETY: `out` NULL or writable by contract.
        Ok(w) => match w.shape_body(shape) {
            Ok(b) => unsafe { write(out, b) },
            Err(e) => e.into(),
        },
        Err(e) => e,
    }
}

/// Everything about a shape (its geometry in body space, material, filter, sensor flag and
/// user data) as a `c2d_ShapeDef`. `C2D_STATUS_INVALID_SHAPE_ID` for a stale shape id.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_get_shape_def(
    world: WorldId,
    shape: ShapeId,
    out: *mut ShapeDef,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_ref(world) } {
        // SAFETY: `out` NULL or writable by contract.
        Ok(w) => match w.shape_def(shape) {
            Ok(d) => unsafe { write(out, d) },
            Err(e) => e.into(),
        },
        Err(e) => e,
    }
}

/// Sets a shape's material: friction and restitution apply from the next step; on a dynamic
/// body a new density changes its mass as `c2d_world_add_shape_def` does (Rust:
/// `World::set_shape_material`). The material is checked as at creation.
///
/// # Safety
/// `material` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_shape_material(
    world: WorldId,
    shape: ShapeId,
    material: *const Material,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_mut(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    if material.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: non-null and readable by contract; plain data.
    let m = unsafe { core::ptr::read_unaligned(material) };
    status(w.set_shape_material(shape, m))
}

/// Sets a shape's collision filter; its contacts end (their end events come with the next
/// step's) and are found again under the new filter (Rust: `World::set_shape_filter`).
/// `C2D_STATUS_OUT_OF_MEMORY` only after a step that itself ran out of memory (nothing
/// changes).
///
/// # Safety
/// `filter` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_shape_filter(
    world: WorldId,
    shape: ShapeId,
    filter: *const Filter,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let w = match unsafe { world_mut(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    if filter.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: non-null and readable by contract; plain data.
    let f = unsafe { core::ptr::read_unaligned(filter) };
    status(w.set_shape_filter(shape, f))
}

/// Makes a shape a sensor (overlap events only) or a solid shape; its contacts end and are
/// found again (Rust: `World::set_shape_sensor`). `C2D_STATUS_UNSUPPORTED` for a sensor
/// without area; `C2D_STATUS_OUT_OF_MEMORY` only after a step that itself ran out of memory.
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_shape_sensor(world: WorldId, shape: ShapeId, sensor: bool) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_shape_sensor(shape, sensor)),
        Err(e) => e,
    }
}

/// Sets a shape's user data (a body's user data is its first shape's).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_set_shape_user_data(world: WorldId, shape: ShapeId, data: u64) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.set_shape_user_data(shape, data)),
        Err(e) => e,
    }
}

/// Removes a shape added to a body (its contacts end as with `c2d_world_remove_body`; a
/// dynamic body's mass becomes that of its other shapes). `C2D_STATUS_UNSUPPORTED` for a
/// body's first shape (remove the body); `C2D_STATUS_OUT_OF_MEMORY` only after a step that
/// itself ran out of memory (nothing changes).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_remove_shape(world: WorldId, shape: ShapeId) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => status(w.remove_shape(shape)),
        Err(e) => e,
    }
}
