//! Queries of a `c2d_Tree` from C: box queries, ray and box casts and overlapping pairs
//! through C callbacks, and the shape-level queries, which ask a C callback for each proxy's
//! shape (closest ray hit, closest cast, overlapping shapes, contacts).

use super::status::{read, read_shape, write, Status};
use super::tree::{tree_mut, tree_ref, with_tree, Storage, Tree};
use crate::cast::CastShape;
use crate::geometry::Shape;
use crate::math::{Aabb, Ray, Transform, Vec2};
use crate::narrowphase::Manifold;
use crate::tree::{ProxyId, TreeCastHit, TreeRayHit, Visit};
use core::ffi::c_void;

/// A cast callback's C return value as a [`Visit`] (Box2D's convention, kept in C): negative
/// ignores the proxy, 0 stops, a fraction clips the ray or sweep (one at or above the current
/// maximum leaves it unchanged).
fn visit(fraction: f32) -> Visit {
    if fraction < 0.0 {
        Visit::Continue
    } else if fraction == 0.0 {
        Visit::Stop
    } else {
        Visit::Clip(fraction)
    }
}

/// Callback for `c2d_tree_query`: return false to stop.
pub type TreeQueryCallback =
    Option<unsafe extern "C" fn(id: u32, user_data: u64, context: *mut c_void) -> bool>;
/// Callback for `c2d_tree_ray_cast`: return 0 to stop, a fraction to clip, the ray's
/// `max_fraction` to continue, a negative value to ignore the proxy.
pub type TreeRayCastCallback =
    Option<unsafe extern "C" fn(ray: *const Ray, id: u32, user_data: u64, context: *mut c_void) -> f32>;
/// Callback for `c2d_tree_query_pairs`.
pub type TreePairCallback =
    Option<unsafe extern "C" fn(id_a: u32, user_a: u64, id_b: u32, user_b: u64, context: *mut c_void)>;

/// Calls `callback(id, user_data, context)` for every proxy whose fat box overlaps `*aabb` and
/// whose category bits intersect `mask`.
///
/// # Safety
/// Pointers must be NULL or valid; `callback` must be safe to call with `context`.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_query(
    tree: *const Tree,
    aabb: *const Aabb,
    mask: u64,
    callback: TreeQueryCallback,
    context: *mut c_void,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (t, b) = match unsafe { (tree_ref(tree), read(aabb)) } {
        (Ok(t), Ok(b)) => (t, b),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let Some(cb) = callback else {
        return Status::NullPointer;
    };
    // SAFETY: the callback and its context are the caller's, valid by contract.
    with_tree!(t, tr => tr.query(b, mask, |id, user| {
        if unsafe { cb(id.index(), user, context) } {
            Visit::Continue
        } else {
            Visit::Stop
        }
    }));
    Status::Ok
}

/// Casts `*ray` through the tree (see `c2d_TreeRayCastCallback` for the callback's return).
///
/// # Safety
/// Pointers must be NULL or valid; `callback` must be safe to call with `context`.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_ray_cast(
    tree: *const Tree,
    ray: *const Ray,
    mask: u64,
    callback: TreeRayCastCallback,
    context: *mut c_void,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (t, r) = match unsafe { (tree_ref(tree), read(ray)) } {
        (Ok(t), Ok(r)) => (t, r),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let Some(cb) = callback else {
        return Status::NullPointer;
    };
    // SAFETY: the callback and its context are the caller's, valid by contract; `input` is a
    // live reference for the duration of the call.
    with_tree!(t, tr => tr.ray_cast(&r, mask, |input, id, user| visit(unsafe { cb(input, id.index(), user, context) })));
    Status::Ok
}

/// Reports every overlapping pair involving a proxy created or moved since the last call,
/// each once, then clears the moved marks.
///
/// # Safety
/// `tree` must be NULL or a live handle; `callback` must be safe to call with `context`.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_query_pairs(
    tree: *mut Tree,
    callback: TreePairCallback,
    context: *mut c_void,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let t = match unsafe { tree_mut(tree) } {
        Ok(t) => t,
        Err(e) => return e,
    };
    let Some(cb) = callback else {
        return Status::NullPointer;
    };
    // SAFETY: the callback and its context are the caller's, valid by contract.
    with_tree!(mut t, tr => tr.query_pairs(|a, ua, b, ub| unsafe { cb(a.index(), ua, b.index(), ub, context) }));
    Status::Ok
}

/// Callback for `c2d_tree_box_cast`: receives the sweep's current maximum fraction; returns as
/// for `c2d_TreeRayCastCallback`.
pub type TreeBoxCastCallback =
    Option<unsafe extern "C" fn(max_fraction: f32, id: u32, user_data: u64, context: *mut c_void) -> f32>;

/// Sweeps the world box `*aabb` along `translation` through the tree (shape-cast broad phase).
///
/// # Safety
/// Pointers must be NULL or valid; `callback` must be safe to call with `context`.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_box_cast(
    tree: *const Tree,
    aabb: *const Aabb,
    translation: crate::math::Vec2,
    mask: u64,
    callback: TreeBoxCastCallback,
    context: *mut c_void,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (t, b) = match unsafe { (tree_ref(tree), read(aabb)) } {
        (Ok(t), Ok(b)) => (t, b),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let Some(cb) = callback else {
        return Status::NullPointer;
    };
    // SAFETY: the callback and its context are the caller's, valid by contract.
    with_tree!(t, tr => tr.box_cast(b, translation, mask, |max, id, user| visit(unsafe { cb(max, id.index(), user, context) })));
    Status::Ok
}

// ---------------------------------------------------------------------------------------------
// Shape-level queries

/// How the shape-level tree queries find a proxy's shape: returns a pointer to its shape and
/// writes its world transform to `*out_xf`, or returns NULL to skip the proxy. The shape must
/// stay valid until the query returns; a shape that fails `c2d_shape_validate` ends the query
/// with that status.
pub type TreeShapeCallback = Option<
    unsafe extern "C" fn(
        id: u32,
        user_data: u64,
        out_xf: *mut Transform,
        context: *mut c_void,
    ) -> *const Shape,
>;

/// Calls `shapes` for one proxy and checks what it returns. `bad` records a refused shape.
///
/// # Safety
/// `shapes` must be safe to call with `context`; a shape pointer it returns must stay readable
/// until the query that called this returns.
unsafe fn shape_of<'s>(
    shapes: unsafe extern "C" fn(u32, u64, *mut Transform, *mut c_void) -> *const Shape,
    context: *mut c_void,
    bad: &core::cell::Cell<Status>,
    id: ProxyId,
    user_data: u64,
) -> Option<(&'s Shape, Transform)> {
    if bad.get() != Status::Ok {
        return None;
    }
    let mut xf = Transform::IDENTITY;
    // SAFETY: the callback and its context are the caller's, valid by contract; `xf` is live.
    let p = unsafe { shapes(id.index(), user_data, &mut xf, context) };
    if p.is_null() {
        return None;
    }
    // SAFETY: a non-null shape pointer is readable by the callback's contract.
    if let Err(e) = unsafe { read_shape(p) } {
        bad.set(e);
        return None;
    }
    // SAFETY: readable until the query returns (the callback's contract), its tag and payload
    // checked just above; `&'s` does not outlive the query, which is the only user.
    Some((unsafe { &*p }, xf))
}

/// The tree, a shape and its transform from C, failing with the first problem in argument
/// order.
///
/// # Safety
/// Each pointer must be NULL or valid for its type; `tree` a live handle.
unsafe fn read_placed_shape<'a>(
    tree: *const Tree,
    shape: *const Shape,
    xf: *const Transform,
) -> Result<(&'a Tree, Shape, Transform), Status> {
    // SAFETY: each helper checks its pointer; validity is the caller's contract.
    unsafe { Ok((tree_ref(tree)?, read_shape(shape)?, read(xf)?)) }
}

/// The closest shape `*ray` hits: writes `*out_hit` and, on a hit, `*out` (proxy id, user
/// data, world point, unit normal out of the shape, fraction). See `c2d_TreeShapeCallback`.
///
/// # Safety
/// Pointers must be NULL or valid; `shapes` must be safe to call with `context`.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_ray_cast_closest(
    tree: *const Tree,
    ray: *const Ray,
    mask: u64,
    shapes: TreeShapeCallback,
    context: *mut c_void,
    out_hit: *mut bool,
    out: *mut TreeRayHit,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (t, r) = match unsafe { (tree_ref(tree), read(ray)) } {
        (Ok(t), Ok(r)) => (t, r),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let (Some(f), false, false) = (shapes, out_hit.is_null(), out.is_null()) else {
        return Status::NullPointer;
    };
    let bad = core::cell::Cell::new(Status::Ok);
    // SAFETY: forwarded contract of the callback.
    let hit = with_tree!(t, tr => tr.ray_cast_closest(&r, mask, |id, u| unsafe { shape_of(f, context, &bad, id, u) }));
    if bad.get() != Status::Ok {
        return bad.get();
    }
    // SAFETY: both checked non-null; writable by the caller's contract.
    unsafe {
        if let Some(h) = hit {
            write(out, h);
        }
        write(out_hit, hit.is_some())
    }
}

/// The first shape that `*shape` at `*xf`, moving by `translation`, touches (within
/// `target_distance`): writes `*out_hit` and, on a hit, `*out` (`state` is `C2D_CAST_STATE_HIT`
/// or, when it starts penetrating a shape, `OVERLAPPING` with depth; normals point from the
/// moving shape to the one hit).
///
/// # Safety
/// Pointers must be NULL or valid; `shapes` must be safe to call with `context`.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_cast_closest(
    tree: *const Tree,
    shape: *const Shape,
    xf: *const Transform,
    translation: Vec2,
    target_distance: f32,
    mask: u64,
    shapes: TreeShapeCallback,
    context: *mut c_void,
    out_hit: *mut bool,
    out: *mut TreeCastHit,
) -> Status {
    // SAFETY: forwarded contract.
    let (t, s, x) = match unsafe { read_placed_shape(tree, shape, xf) } {
        Ok(v) => v,
        Err(e) => return e,
    };
    let (Some(f), false, false) = (shapes, out_hit.is_null(), out.is_null()) else {
        return Status::NullPointer;
    };
    let bad = core::cell::Cell::new(Status::Ok);
    let moving = CastShape::new(&s, x, translation);
    // SAFETY: forwarded contract of the callback.
    let hit = with_tree!(t, tr => tr.cast_closest(&moving, target_distance, mask, |id, u| unsafe { shape_of(f, context, &bad, id, u) }));
    if bad.get() != Status::Ok {
        return bad.get();
    }
    // SAFETY: both checked non-null; writable by the caller's contract.
    unsafe {
        if let Some(h) = hit {
            write(out, h);
        }
        write(out_hit, hit.is_some())
    }
}

/// Callback for `c2d_tree_query_shape`: return false to stop.
pub type TreeShapeQueryCallback = TreeQueryCallback;

/// Calls `callback(id, user_data, context)` for every proxy whose shape overlaps or touches
/// `*shape` at `*xf` (exact). Stops at `callback`'s false or at a shape from `shapes` that
/// fails validation (returned as the status; the callback saw only the proxies before it).
///
/// # Safety
/// Pointers must be NULL or valid; the callbacks must be safe to call with their contexts.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_query_shape(
    tree: *const Tree,
    shape: *const Shape,
    xf: *const Transform,
    mask: u64,
    shapes: TreeShapeCallback,
    shapes_context: *mut c_void,
    callback: TreeShapeQueryCallback,
    context: *mut c_void,
) -> Status {
    // SAFETY: forwarded contract.
    let (t, s, x) = match unsafe { read_placed_shape(tree, shape, xf) } {
        Ok(v) => v,
        Err(e) => return e,
    };
    let (Some(f), Some(cb)) = (shapes, callback) else {
        return Status::NullPointer;
    };
    let bad = core::cell::Cell::new(Status::Ok);
    with_tree!(t, tr => {
        // SAFETY: forwarded contract of the shape callback.
        for (id, u) in tr.overlapping(&s, x, mask, |id, u| unsafe { shape_of(f, shapes_context, &bad, id, u) }) {
            // SAFETY: the callback and its context are the caller's, valid by contract.
            if bad.get() != Status::Ok || !unsafe { cb(id.index(), u, context) } {
                break;
            }
        }
    });
    bad.get()
}

/// Callback for `c2d_tree_contacts`: the proxy, its user data and the manifold (`*shape` as
/// A); return false to stop.
pub type TreeContactCallback = Option<
    unsafe extern "C" fn(id: u32, user_data: u64, manifold: *const Manifold, context: *mut c_void) -> bool,
>;

/// Calls `callback` with the contact manifold of `*shape` at `*xf` against every shape in the
/// tree it touches or comes within `margin` of (speculative points). Stops as
/// `c2d_tree_query_shape` does.
///
/// # Safety
/// Pointers must be NULL or valid; the callbacks must be safe to call with their contexts.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_contacts(
    tree: *const Tree,
    shape: *const Shape,
    xf: *const Transform,
    margin: f32,
    mask: u64,
    shapes: TreeShapeCallback,
    shapes_context: *mut c_void,
    callback: TreeContactCallback,
    context: *mut c_void,
) -> Status {
    // SAFETY: forwarded contract.
    let (t, s, x) = match unsafe { read_placed_shape(tree, shape, xf) } {
        Ok(v) => v,
        Err(e) => return e,
    };
    let (Some(f), Some(cb)) = (shapes, callback) else {
        return Status::NullPointer;
    };
    let bad = core::cell::Cell::new(Status::Ok);
    with_tree!(t, tr => {
        // SAFETY: forwarded contract of the shape callback.
        for (id, u, m) in tr.contacts(&s, x, margin, mask, |id, u| unsafe { shape_of(f, shapes_context, &bad, id, u) }) {
            // SAFETY: the callback and its context are the caller's; `m` is live for the call.
            if bad.get() != Status::Ok || !unsafe { cb(id.index(), u, &m, context) } {
                break;
            }
        }
    });
    bad.get()
}
