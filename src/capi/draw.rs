//! Debug drawing from C: a `c2d_DebugDraw` table of callbacks with a `void* context` (Box2D's
//! `b2DebugDraw`), through which the library draws shapes, manifolds, rays, a tree or a world.
//! A NULL callback is skipped. Colours are `0xRRGGBB` (the `C2D_COLOR_*` palette).

use super::status::{read, read_shape, Status};
use crate::draw::{self, Color, DebugDraw};
use crate::math::{Ray, Transform, Vec2};
use crate::narrowphase::Manifold;
use crate::raycast::RayHit;
use core::ffi::{c_char, c_void};

/// The drawing callbacks and what `c2d_world_draw` draws. Zero-initialise it and set what you
/// need: every callback may be NULL, and the flags default to false. A flag holding anything
/// but 0 or 1 makes every drawing call return `C2D_STATUS_INVALID_INPUT`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct DebugDrawFcns {
    /// A closed polygon outline through `count` world vertices.
    pub draw_polygon:
        Option<unsafe extern "C" fn(vertices: *const Vec2, count: i32, color: u32, context: *mut c_void)>,
    /// A filled convex polygon: `count` local vertices rounded by `radius`, placed by `xf`.
    pub draw_solid_polygon: Option<
        unsafe extern "C" fn(
            xf: Transform,
            vertices: *const Vec2,
            count: i32,
            radius: f32,
            color: u32,
            context: *mut c_void,
        ),
    >,
    /// A circle outline, world centre.
    pub draw_circle:
        Option<unsafe extern "C" fn(center: Vec2, radius: f32, color: u32, context: *mut c_void)>,
    /// A filled circle centred on `xf.p`, rotated by `xf.q`.
    pub draw_solid_circle:
        Option<unsafe extern "C" fn(xf: Transform, radius: f32, color: u32, context: *mut c_void)>,
    /// A filled capsule between world points.
    pub draw_solid_capsule:
        Option<unsafe extern "C" fn(p1: Vec2, p2: Vec2, radius: f32, color: u32, context: *mut c_void)>,
    /// A world segment.
    pub draw_segment: Option<unsafe extern "C" fn(p1: Vec2, p2: Vec2, color: u32, context: *mut c_void)>,
    /// A transform's axes.
    pub draw_transform: Option<unsafe extern "C" fn(xf: Transform, context: *mut c_void)>,
    /// A point of `size` pixels.
    pub draw_point: Option<unsafe extern "C" fn(p: Vec2, size: f32, color: u32, context: *mut c_void)>,
    /// NUL-terminated text at a world point (valid during the call).
    pub draw_string:
        Option<unsafe extern "C" fn(p: Vec2, text: *const c_char, color: u32, context: *mut c_void)>,
    /// Passed last to every callback.
    pub context: *mut c_void,
    /// `c2d_world_draw`: the shapes, coloured by body state.
    pub draw_shapes: bool,
    /// `c2d_world_draw`: the shapes' fat boxes.
    pub draw_bounds: bool,
    /// `c2d_world_draw`: the contact points and normals of touching pairs.
    pub draw_contacts: bool,
    /// `c2d_world_draw`: each body's transform.
    pub draw_transforms: bool,
    /// `c2d_world_draw`: the broad-phase tree's boxes.
    pub draw_tree: bool,
    /// `c2d_world_draw`: the enabled joints (anchors, the lines to them, axes and limits).
    pub draw_joints: bool,
}

/// [`DebugDraw`] over a C callback table.
struct Callbacks<'a>(&'a DebugDrawFcns);

// SAFETY (every method): a non-NULL callback is a valid function by the caller's contract
// for `c2d_*_draw`; the slices and strings passed live for the duration of the call.
impl DebugDraw for Callbacks<'_> {
    fn polygon(&mut self, vertices: &[Vec2], color: Color) {
        if let Some(f) = self.0.draw_polygon {
            // SAFETY: see the impl.
            unsafe { f(vertices.as_ptr(), vertices.len() as i32, color.0, self.0.context) }
        }
    }
    fn solid_polygon(&mut self, xf: Transform, vertices: &[Vec2], radius: f32, color: Color) {
        if let Some(f) = self.0.draw_solid_polygon {
            // SAFETY: see the impl.
            unsafe {
                f(
                    xf,
                    vertices.as_ptr(),
                    vertices.len() as i32,
                    radius,
                    color.0,
                    self.0.context,
                )
            }
        }
    }
    fn circle(&mut self, center: Vec2, radius: f32, color: Color) {
        if let Some(f) = self.0.draw_circle {
            // SAFETY: see the impl.
            unsafe { f(center, radius, color.0, self.0.context) }
        }
    }
    fn solid_circle(&mut self, xf: Transform, radius: f32, color: Color) {
        if let Some(f) = self.0.draw_solid_circle {
            // SAFETY: see the impl.
            unsafe { f(xf, radius, color.0, self.0.context) }
        }
    }
    fn solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        if let Some(f) = self.0.draw_solid_capsule {
            // SAFETY: see the impl.
            unsafe { f(p1, p2, radius, color.0, self.0.context) }
        }
    }
    fn segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        if let Some(f) = self.0.draw_segment {
            // SAFETY: see the impl.
            unsafe { f(p1, p2, color.0, self.0.context) }
        }
    }
    fn transform(&mut self, xf: Transform) {
        if let Some(f) = self.0.draw_transform {
            // SAFETY: see the impl.
            unsafe { f(xf, self.0.context) }
        }
    }
    fn point(&mut self, p: Vec2, size: f32, color: Color) {
        if let Some(f) = self.0.draw_point {
            // SAFETY: see the impl.
            unsafe { f(p, size, color.0, self.0.context) }
        }
    }
    fn string(&mut self, p: Vec2, text: &str, color: Color) {
        if let Some(f) = self.0.draw_string {
            // NUL-terminated copy in a fixed buffer (longer text is cut; inner NULs end it).
            let mut buf = [0u8; 256];
            for (d, &b) in buf[..255].iter_mut().zip(text.as_bytes()) {
                *d = b;
            }
            // SAFETY: see the impl; `buf` ends with a NUL.
            unsafe { f(p, buf.as_ptr() as *const c_char, color.0, self.0.context) }
        }
    }
}

/// Reads the callback table, its flags checked as bytes first (a C `bool` holding anything
/// but 0 or 1 must never be read as a Rust `bool`): `C2D_STATUS_INVALID_INPUT` otherwise.
///
/// # Safety
/// `draw` is NULL or points to a readable `c2d_DebugDraw`.
unsafe fn table(draw: *const DebugDrawFcns) -> Result<DebugDrawFcns, Status> {
    if draw.is_null() {
        return Err(Status::NullPointer);
    }
    let base = draw as *const u8;
    for at in [
        core::mem::offset_of!(DebugDrawFcns, draw_shapes),
        core::mem::offset_of!(DebugDrawFcns, draw_bounds),
        core::mem::offset_of!(DebugDrawFcns, draw_contacts),
        core::mem::offset_of!(DebugDrawFcns, draw_transforms),
        core::mem::offset_of!(DebugDrawFcns, draw_tree),
        core::mem::offset_of!(DebugDrawFcns, draw_joints),
    ] {
        // SAFETY: the offset lies inside the readable table and names a one-byte bool.
        if unsafe { core::ptr::read(base.add(at)) } > 1 {
            return Err(Status::InvalidInput);
        }
    }
    // SAFETY: the caller's contract; the flags are 0 or 1 and the callbacks are nullable
    // function pointers (any value the C side stored is one it may call).
    unsafe { read(draw) }
}

/// Draws a shape at a transform through the callbacks (polygons as `draw_solid_polygon` with
/// local vertices, circles as `draw_solid_circle`, capsules as `draw_solid_capsule`, chain
/// segments as segments with a tick along the front normal).
///
/// # Safety
/// Pointers NULL or readable; every non-NULL callback callable with the table's context.
#[no_mangle]
pub unsafe extern "C" fn c2d_draw_shape(
    draw: *const DebugDrawFcns,
    shape: *const crate::geometry::Shape,
    xf: *const Transform,
    color: u32,
) -> Status {
    // SAFETY: the caller's contract; every pointer is checked.
    let (t, s, x) = match unsafe { (table(draw), read_shape(shape), read::<Transform>(xf)) } {
        (Ok(t), Ok(s), Ok(x)) => (t, s, x),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return e,
    };
    draw::draw_shape(&mut Callbacks(&t), &s, x, Color(color));
    Status::Ok
}

/// Draws a manifold: each point (`C2D_COLOR_CONTACT`) and its normal, `normal_length` long
/// (`C2D_COLOR_NORMAL`).
///
/// # Safety
/// As `c2d_draw_shape`.
#[no_mangle]
pub unsafe extern "C" fn c2d_draw_manifold(
    draw: *const DebugDrawFcns,
    m: *const Manifold,
    normal_length: f32,
) -> Status {
    // SAFETY: the caller's contract; both pointers are checked.
    match unsafe { (table(draw), read::<Manifold>(m)) } {
        (Ok(t), Ok(m)) => {
            draw::draw_manifold(&mut Callbacks(&t), &m, normal_length);
            Status::Ok
        }
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// Draws the mover planes of a `c2d_move_and_slide` result: for each contact the plane through
/// its point (`C2D_COLOR_CAST`, the ground's `C2D_COLOR_STATIC`), the point
/// (`C2D_COLOR_CONTACT`) and its normal toward the mover, `normal_length` long
/// (`C2D_COLOR_NORMAL`). World space.
///
/// # Safety
/// As `c2d_draw_shape`.
#[no_mangle]
pub unsafe extern "C" fn c2d_draw_move_result(
    draw: *const DebugDrawFcns,
    result: *const crate::mover::MoveResult,
    normal_length: f32,
) -> Status {
    // SAFETY: the caller's contract; both pointers are checked.
    match unsafe { (table(draw), read::<crate::mover::MoveResult>(result)) } {
        (Ok(t), Ok(r)) => {
            r.draw(&mut Callbacks(&t), normal_length);
            Status::Ok
        }
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// Draws a ray to its hit (`hit` non-NULL) with the hit normal, or its whole length.
///
/// # Safety
/// As `c2d_draw_shape`; `hit` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn c2d_draw_ray(
    draw: *const DebugDrawFcns,
    ray: *const Ray,
    hit: *const RayHit,
    normal_length: f32,
) -> Status {
    // SAFETY: the caller's contract; `hit` is optional.
    let h = if hit.is_null() {
        None
    } else {
        unsafe { read::<RayHit>(hit) }.ok()
    };
    // SAFETY: the caller's contract; both pointers are checked.
    match unsafe { (table(draw), read::<Ray>(ray)) } {
        (Ok(t), Ok(r)) => {
            draw::draw_ray(&mut Callbacks(&t), &r, h.as_ref(), normal_length);
            Status::Ok
        }
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// Draws every node box of a tree (shaded by height).
///
/// # Safety
/// `tree` NULL or a live handle; `draw` as in `c2d_draw_shape`.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_draw(tree: *const super::tree::Tree, draw: *const DebugDrawFcns) -> Status {
    // SAFETY: the caller's contract.
    let t = match unsafe { table(draw) } {
        Ok(t) => t,
        Err(e) => return e,
    };
    // SAFETY: the caller's contract.
    match unsafe { super::tree::tree_ref(tree) } {
        Ok(tr) => {
            super::tree::draw_tree(tr, &mut Callbacks(&t));
            Status::Ok
        }
        Err(e) => e,
    }
}

/// Draws a world as the table's flags choose (shapes by body state, bounds, contacts,
/// transforms, the tree, the joints).
///
/// While the callbacks run the world is locked (see `c2d_world_query_aabb`).
///
/// # Safety
/// `draw` as in `c2d_draw_shape`.
#[cfg(feature = "alloc")]
#[no_mangle]
pub unsafe extern "C" fn c2d_world_draw(
    world: super::world_id::WorldId,
    draw: *const DebugDrawFcns,
) -> Status {
    // SAFETY: the caller's contract.
    let t = match unsafe { table(draw) } {
        Ok(t) => t,
        Err(e) => return e,
    };
    // SAFETY: the id is checked; the world's calls do not race by the caller's contract.
    let w = match unsafe { super::world_id::world_ref(world) } {
        Ok(w) => w,
        Err(e) => return e,
    };
    let flags = crate::world::DrawFlags {
        shapes: t.draw_shapes,
        bounds: t.draw_bounds,
        contacts: t.draw_contacts,
        transforms: t.draw_transforms,
        tree: t.draw_tree,
        joints: t.draw_joints,
    };
    let _lock = match super::world_id::Locked::new(world, w) {
        Ok(l) => l,
        Err(e) => return e,
    };
    w.draw(&mut Callbacks(&t), flags);
    Status::Ok
}
