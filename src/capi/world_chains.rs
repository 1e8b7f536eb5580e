//! Chains of level geometry from C: `c2d_ChainDef`, `c2d_world_add_chain`,
//! `c2d_world_remove_chain`, `c2d_world_chain_body` (Rust: `World::add_chain` and the
//! `ChainId` calls).

use super::status::{write, Status};
use super::world_id::{world_mut, world_ref, WorldId};
use crate::geometry::Chain;
use crate::math::{Transform, Vec2};
use crate::tree::Filter;
use crate::world::{BodyId, BodyKind, ChainDef, ChainId, Material};

/// A chain to add to a world (Rust: `ChainDef`, with the points unwelded). Start from
/// `c2d_chain_def_default`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CChainDef {
    /// `count` points (the chain body's frame); welded as `c2d_chain_weld` welds them.
    pub points: *const Vec2,
    /// Number of points at `points`.
    pub count: u32,
    /// Non-zero: a loop, counter-clockwise around a solid, clockwise around a room (open space
    /// inside); zero: an open polyline.
    pub closed: u32,
    /// `C2D_BODY_KIND_STATIC` or `C2D_BODY_KIND_KINEMATIC` (dynamic: `C2D_STATUS_UNSUPPORTED`).
    pub kind: u32,
    /// The chain body's world transform.
    pub transform: Transform,
    /// A kinematic chain's velocity (m/s, world).
    pub linear_velocity: Vec2,
    /// A kinematic chain's angular velocity (rad/s, counter-clockwise).
    pub angular_velocity: f32,
    /// Every segment's friction and restitution (density unused).
    pub material: Material,
    /// Every segment's collision filter.
    pub filter: Filter,
    /// The body's and every segment's user data.
    pub user_data: u64,
}

/// Writes the default chain definition: no points, open, static, at the origin, at rest, the
/// default material and filter, user data 0.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_chain_def_default(out: *mut CChainDef) -> Status {
    let def = CChainDef {
        points: core::ptr::null(),
        count: 0,
        closed: 0,
        kind: BodyKind::Static as u32,
        transform: Transform::IDENTITY,
        linear_velocity: Vec2::ZERO,
        angular_velocity: 0.0,
        material: Material::default(),
        filter: Filter::DEFAULT,
        user_data: 0,
    };
    // SAFETY: checked non-null by `write`; writable by the caller's contract.
    unsafe { write(out, def) }
}

/// Adds a chain of level geometry: the points welded (`c2d_chain_weld`'s rule), one body of
/// `def->kind` whose shapes are the segments, each with `def`'s material, filter and user data
/// (Rust: `World::add_chain`). Writes its id to `*out_id`. `C2D_STATUS_INVALID_BODY_KIND` for a
/// kind that is not 0..=2, `C2D_STATUS_UNSUPPORTED` for a dynamic chain, the weld's status for
/// points it refuses, and `c2d_world_add_body`'s checks of the transform and velocities.
/// `C2D_STATUS_OUT_OF_MEMORY` when the allocator cannot provide the welded points or the
/// world's room for the segments: the world is unchanged and `*out_id` not written.
///
/// # Safety
/// `def` NULL or a readable `c2d_ChainDef` whose `points` are NULL or `count` readable
/// `c2d_Vec2`; `out_id` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_add_chain(
    world: WorldId,
    def: *const CChainDef,
    out_id: *mut ChainId,
) -> Status {
    // SAFETY: checked by the helper; one world's calls do not race by the caller's contract.
    let w = match unsafe { world_mut(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    if def.is_null() || out_id.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: non-null and readable by the caller's contract; every field is plain data.
    let d = unsafe { core::ptr::read_unaligned(def) };
    let kind = match d.kind {
        0 => BodyKind::Static,
        1 => BodyKind::Kinematic,
        2 => BodyKind::Dynamic,
        _ => return Status::InvalidBodyKind,
    };
    if d.points.is_null() {
        return Status::NullPointer;
    }
    // SAFETY: non-null; `count` readable points by the caller's contract.
    let pts = unsafe { core::slice::from_raw_parts(d.points, d.count as usize) };
    let chain = match if d.closed != 0 {
        Chain::closed(pts)
    } else {
        Chain::open(pts)
    } {
        Ok(c) => c,
        Err(e) => return e.into(),
    };
    let def = ChainDef {
        kind,
        transform: d.transform,
        linear_velocity: d.linear_velocity,
        angular_velocity: d.angular_velocity,
        material: d.material,
        filter: d.filter,
        user_data: d.user_data,
        ..ChainDef::new(&chain)
    };
    match w.add_chain(&def) {
        // SAFETY: `out_id` checked non-null.
        Ok(id) => unsafe { write(out_id, id) },
        Err(e) => e.into(),
    }
}

/// Removes a chain: its body, every segment and their contacts (end events with the next
/// step's). `C2D_STATUS_INVALID_CHAIN_ID` for a stale id. Allocates nothing, as
/// `c2d_world_remove_body`: `C2D_STATUS_OUT_OF_MEMORY` only after a step that itself ran out
/// of memory (the world is then unchanged).
///
/// # Safety
/// Every argument is a value; ids are checked.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_remove_chain(world: WorldId, chain: ChainId) -> Status {
    // SAFETY: checked by the helper; one world's calls do not race by the caller's contract.
    match unsafe { world_mut(world) } {
        Ok(w) => w.remove_chain(chain).map_or_else(Status::from, |()| Status::Ok),
        Err(e) => e,
    }
}

/// Writes the id of the body a chain makes (its pose, velocity and contacts) to `*out`.
/// `C2D_STATUS_INVALID_CHAIN_ID` for a stale id.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_world_chain_body(world: WorldId, chain: ChainId, out: *mut BodyId) -> Status {
    // SAFETY: checked by the helper; one world's calls do not race by the caller's contract.
    match unsafe { world_ref(world) }.map(|w| w.chain_body(chain)) {
        // SAFETY: checked non-null by `write`; writable by the caller's contract.
        Ok(Ok(id)) => unsafe { write(out, id) },
        Ok(Err(e)) => e.into(),
        Err(e) => e,
    }
}
