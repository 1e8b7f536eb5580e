//! Character movement: the plane solver, the mover queries and `move_and_slide` over an array
//! of obstacles or a query callback (the world's versions are in `world.rs`).

use super::status::{read, read_shape, write, Status};
use crate::geometry::Shape;
use crate::math::{Aabb, Transform, Vec2};
use crate::mover::{
    cast_mover, clip_vector, collide_mover, move_and_slide, solve_planes, CollisionPlane, MoveOptions,
    MoveResult, MoverHit, MoverLevel, MoverPlane, Obstacle, PlaneSolverResult,
};

/// Solves for the translation nearest `target` that satisfies the `count` collision planes
/// (Box2D v3's `b2SolvePlanes`: iterative push-out with accumulated, clamped pushes; the
/// mover may end `C2D_PLANE_SLOP` past a plane). Writes each plane's `push` and `*out`.
///
/// # Safety
/// `planes` NULL (only with `count` 0) or `count` writable `c2d_CollisionPlane`; `out` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_solve_planes(
    target: Vec2,
    planes: *mut CollisionPlane,
    count: u32,
    out: *mut PlaneSolverResult,
) -> Status {
    if out.is_null() || (planes.is_null() && count > 0) {
        return Status::NullPointer;
    }
    if !target.is_finite() {
        return Status::NonFinite;
    }
    let slice: &mut [CollisionPlane] = if count == 0 {
        &mut []
    } else {
        // SAFETY: non-null with `count` writable planes by the caller's contract.
        unsafe { core::slice::from_raw_parts_mut(planes, count as usize) }
    };
    let r = solve_planes(target, slice);
    // SAFETY: `out` checked non-null.
    unsafe { write(out, r) }
}

/// Removes from `v` its component into every plane with a non-zero push and `clip_velocity`
/// set (Box2D's `b2ClipVector`). Writes `*out`.
///
/// # Safety
/// `planes` NULL (only with `count` 0) or `count` readable `c2d_CollisionPlane`; `out` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_clip_vector(
    v: Vec2,
    planes: *const CollisionPlane,
    count: u32,
    out: *mut Vec2,
) -> Status {
    if out.is_null() || (planes.is_null() && count > 0) {
        return Status::NullPointer;
    }
    let slice: &[CollisionPlane] = if count == 0 {
        &[]
    } else {
        // SAFETY: non-null with `count` readable planes by the caller's contract.
        unsafe { core::slice::from_raw_parts(planes, count as usize) }
    };
    // SAFETY: `out` checked non-null.
    unsafe { write(out, clip_vector(v, slice)) }
}

/// One obstacle for the C mover functions: a shape at a world transform, the user data reported
/// back for it, and how it moves (a moving platform carries a mover standing on it; all zero
/// for a fixed obstacle). Declared by hand in the header (it embeds `c2d_Shape`); the layout
/// is checked by a test.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MoverObstacle {
    /// The shape, in its local space.
    pub shape: Shape,
    /// Its world transform.
    pub xf: Transform,
    /// Reported in `c2d_MoverPlane.user_data` and `c2d_MoverHit.user_data`.
    pub user_data: u64,
    /// World linear velocity of `center` (length units per second).
    pub velocity: Vec2,
    /// Angular velocity about `center` (radians per second, counter-clockwise positive).
    pub angular_velocity: f32,
    /// World point the obstacle rotates about.
    pub center: Vec2,
}

/// Reads and validates one obstacle.
///
/// # Safety
/// `p` must point to a readable `c2d_MoverObstacle`.
unsafe fn read_obstacle(p: *const MoverObstacle) -> Result<(Shape, MoverObstacle), Status> {
    // SAFETY: `p` is readable by the caller's contract; the shape is its first field, read
    // through the tag-validating helper before the whole struct is read as Rust values.
    let shape = unsafe { read_shape(core::ptr::addr_of!((*p).shape)) }?;
    // SAFETY: the tag is valid (checked above), every other field is plain data.
    let o = unsafe { core::ptr::read_unaligned(p) };
    if !o.xf.is_valid() || !o.velocity.is_finite() || !o.angular_velocity.is_finite() || !o.center.is_finite()
    {
        return Err(Status::NonFinite);
    }
    Ok((shape, o))
}

/// A C array of obstacles as a level, validated when made.
struct ArrayLevel {
    obstacles: *const MoverObstacle,
    count: usize,
}

impl ArrayLevel {
    /// # Safety
    /// `obstacles` NULL (only with `count` 0) or `count` readable obstacles that stay valid
    /// while the level is used.
    unsafe fn new(obstacles: *const MoverObstacle, count: u32) -> Result<ArrayLevel, Status> {
        if obstacles.is_null() && count > 0 {
            return Err(Status::NullPointer);
        }
        for i in 0..count as usize {
            // SAFETY: within the caller's `count` readable obstacles.
            unsafe { read_obstacle(obstacles.add(i)) }?;
        }
        Ok(ArrayLevel {
            obstacles,
            count: count as usize,
        })
    }
}

impl MoverLevel for ArrayLevel {
    fn obstacles(&self, aabb: Aabb, f: &mut dyn FnMut(&Obstacle<'_>) -> bool) {
        for i in 0..self.count {
            // SAFETY: validated in `new`, readable while the level lives (caller's contract).
            let Ok((shape, o)) = (unsafe { read_obstacle(self.obstacles.add(i)) }) else {
                continue;
            };
            if !shape.aabb(o.xf).overlaps(aabb) {
                continue;
            }
            let ob =
                Obstacle::fixed(&shape, o.xf, o.user_data).moving(o.velocity, o.angular_velocity, o.center);
            if !f(&ob) {
                return;
            }
        }
    }
}

/// A level query of the caller's: writes up to `capacity` obstacles whose bounds may overlap
/// the world box `aabb` to `out` and returns how many it wrote (more than `capacity` counts
/// as `capacity`).
pub type LevelQueryFcn = Option<
    unsafe extern "C" fn(
        aabb: Aabb,
        out: *mut MoverObstacle,
        capacity: u32,
        context: *mut core::ffi::c_void,
    ) -> u32,
>;

/// Obstacles one query of a [`LevelQueryFcn`] may return.
pub const LEVEL_QUERY_CAPACITY: u32 = 64;

/// A C query callback as a level.
struct CallbackLevel {
    query: unsafe extern "C" fn(Aabb, *mut MoverObstacle, u32, *mut core::ffi::c_void) -> u32,
    context: *mut core::ffi::c_void,
}

impl MoverLevel for CallbackLevel {
    fn obstacles(&self, aabb: Aabb, f: &mut dyn FnMut(&Obstacle<'_>) -> bool) {
        let blank = MoverObstacle {
            shape: Shape::circle(1.0),
            xf: Transform::IDENTITY,
            user_data: 0,
            velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            center: Vec2::ZERO,
        };
        let mut buffer = [blank; LEVEL_QUERY_CAPACITY as usize];
        // SAFETY: the callback and its context are the caller's, valid by contract; the buffer
        // holds `LEVEL_QUERY_CAPACITY` writable obstacles.
        let n = unsafe { (self.query)(aabb, buffer.as_mut_ptr(), LEVEL_QUERY_CAPACITY, self.context) };
        for o in &buffer[..(n.min(LEVEL_QUERY_CAPACITY)) as usize] {
            // SAFETY: a slot of the buffer, readable; an invalid obstacle is skipped.
            let Ok((shape, o)) = (unsafe { read_obstacle(o) }) else {
                continue;
            };
            let ob =
                Obstacle::fixed(&shape, o.xf, o.user_data).moving(o.velocity, o.angular_velocity, o.center);
            if !f(&ob) {
                return;
            }
        }
    }
}

/// Reads the mover's shape, transform and options (NULL options: the defaults).
///
/// # Safety
/// Pointers NULL (options only) or readable.
pub(super) unsafe fn read_mover(
    mover: *const Shape,
    xf: *const Transform,
    options: *const MoveOptions,
) -> Result<(Shape, Transform, MoveOptions), Status> {
    // SAFETY: checked by the helpers; readability is the caller's contract.
    let (s, x) = unsafe { (read_shape(mover)?, read(xf)?) };
    if !x.is_valid() {
        return Err(Status::NonFinite);
    }
    let opts = if options.is_null() {
        MoveOptions::default()
    } else {
        // SAFETY: non-null and readable by contract. The bool's byte is checked before the
        // struct is read as Rust values (a byte other than 0 or 1 is not a Rust bool).
        let flag =
            unsafe { core::ptr::read_unaligned(core::ptr::addr_of!((*options).slide_on_steep) as *const u8) };
        if flag > 1 {
            return Err(Status::OutOfRange);
        }
        // SAFETY: as above, every field now holds a valid value.
        unsafe { read(options)? }
    };
    Ok((s, x, opts))
}

/// The obstacle array as a level and the mover, read and validated (the array's error first).
///
/// # Safety
/// As [`ArrayLevel::new`] and [`read_mover`].
unsafe fn read_array_and_mover(
    obstacles: *const MoverObstacle,
    count: u32,
    mover: *const Shape,
    xf: *const Transform,
    options: *const MoveOptions,
) -> Result<(ArrayLevel, Shape, Transform, MoveOptions), Status> {
    // SAFETY: forwarded contract; both are read before either error is returned.
    let (level, m) = unsafe { (ArrayLevel::new(obstacles, count), read_mover(mover, xf, options)) };
    let level = level?;
    let (s, x, opts) = m?;
    Ok((level, s, x, opts))
}

/// Writes the default `c2d_MoveOptions` (skin 0.01, 5 iterations, up (0, 1), max slope π/4,
/// no ground snap, slide on steep slopes, no platform carry) to `*out`.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_move_options_default(out: *mut MoveOptions) -> Status {
    // SAFETY: checked by the helper; writability is the caller's contract.
    unsafe { write(out, MoveOptions::default()) }
}

/// The planes of every obstacle (of the `count` in `obstacles`) that the mover `*shape` at
/// `*xf` overlaps or comes within `margin` of: normal from the obstacle toward the mover,
/// offset = penetration (Box2D's `b2PlaneResult`). Writes up to `capacity` planes to `out`
/// and the number found to `*out_count`; more than `capacity` is `C2D_STATUS_BUFFER_TOO_SMALL`
/// (the first `capacity` are written).
///
/// A mover transform `*xf` that is not finite, or whose rotation is not unit length, is
/// `C2D_STATUS_NON_FINITE` (nothing is written).
///
/// # Safety
/// `obstacles` NULL (only with `count` 0) or `count` readable obstacles; `out` NULL (only with
/// `capacity` 0) or `capacity` writable planes; the other pointers NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_collide_mover(
    obstacles: *const MoverObstacle,
    count: u32,
    shape: *const Shape,
    xf: *const Transform,
    margin: f32,
    out: *mut MoverPlane,
    capacity: u32,
    out_count: *mut u32,
) -> Status {
    if out_count.is_null() || (out.is_null() && capacity > 0) {
        return Status::NullPointer;
    }
    // SAFETY: checked by the helper; validity is the caller's contract.
    let (level, s, x, _) =
        match unsafe { read_array_and_mover(obstacles, count, shape, xf, core::ptr::null()) } {
            Ok(r) => r,
            Err(e) => return e,
        };
    let mut n = 0u32;
    collide_mover(&level, &s, x, margin, |p| {
        if n < capacity {
            // SAFETY: `out` has `capacity` writable planes by contract.
            unsafe { core::ptr::write_unaligned(out.add(n as usize), *p) };
        }
        n += 1;
        true
    });
    // SAFETY: checked non-null; writable by contract.
    unsafe { write(out_count, n) };
    if n > capacity {
        Status::BufferTooSmall
    } else {
        Status::Ok
    }
}

/// How far the mover `*shape` at `*xf` can translate by `translation` before coming within
/// `skin` of an obstacle (of the `count` in `obstacles`); obstacles it starts penetrating are
/// ignored (resolve them with `c2d_collide_mover`'s planes). Writes whether it hits one to
/// `*out_hit` and the hit (fraction, feature normal toward the mover, point, user data) to
/// `*out` when it does.
///
/// A mover transform `*xf` that is not finite, or whose rotation is not unit length, is
/// `C2D_STATUS_NON_FINITE` (nothing is written).
///
/// # Safety
/// `obstacles` NULL (only with `count` 0) or `count` readable obstacles; the other pointers
/// NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_cast_mover(
    obstacles: *const MoverObstacle,
    count: u32,
    shape: *const Shape,
    xf: *const Transform,
    translation: Vec2,
    skin: f32,
    out_hit: *mut bool,
    out: *mut MoverHit,
) -> Status {
    if out_hit.is_null() || out.is_null() {
        return Status::NullPointer;
    }
    if !translation.is_finite() || !skin.is_finite() {
        return Status::NonFinite;
    }
    // SAFETY: checked by the helper; validity is the caller's contract.
    let (level, s, x, _) =
        match unsafe { read_array_and_mover(obstacles, count, shape, xf, core::ptr::null()) } {
            Ok(r) => r,
            Err(e) => return e,
        };
    let hit = cast_mover(&level, &s, x, translation, skin.max(0.0));
    if let Some(h) = hit {
        // SAFETY: checked non-null; writable by contract.
        unsafe { write(out, h) };
    }
    // SAFETY: checked non-null; writable by contract.
    unsafe { write(out_hit, hit.is_some()) }
}

/// Moves the mover `*shape` at `*xf` by up to `translation` through the `count` obstacles
/// (each call reads the whole array: pass the neighbourhood, or use `c2d_move_and_slide_query`
/// or `c2d_world_move_and_slide` for a whole level),
/// sliding along what it touches: it keeps `options->skin` of clearance outside every
/// surface, climbs slopes up to `options->max_slope` at the commanded lateral speed, snaps
/// down by up to `options->ground_snap`, steps up by up to `options->max_step_height`, rides
/// moving obstacles when `options->time_step` > 0, and passes chain segments from behind (one-way
/// platforms). `velocity` is clipped against what blocked it. `options` NULL means the
/// defaults. Writes `*out` (Rust: `move_and_slide`, whose docs give the algorithm).
///
/// A mover transform `*xf` that is not finite, or whose rotation is not unit length, is
/// `C2D_STATUS_NON_FINITE` (nothing is written).
///
/// # Safety
/// `obstacles` NULL (only with `count` 0) or `count` readable obstacles; the other pointers
/// NULL (options only) or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_move_and_slide(
    obstacles: *const MoverObstacle,
    count: u32,
    shape: *const Shape,
    xf: *const Transform,
    translation: Vec2,
    velocity: Vec2,
    options: *const MoveOptions,
    out: *mut MoveResult,
) -> Status {
    if out.is_null() {
        return Status::NullPointer;
    }
    if !translation.is_finite() || !velocity.is_finite() {
        return Status::NonFinite;
    }
    // SAFETY: checked by the helper; validity is the caller's contract.
    let (level, s, x, opts) = match unsafe { read_array_and_mover(obstacles, count, shape, xf, options) } {
        Ok(r) => r,
        Err(e) => return e,
    };
    let r = move_and_slide(&level, &s, x, translation, velocity, &opts);
    // SAFETY: checked non-null; writable by contract.
    unsafe { write(out, r) }
}

/// `c2d_move_and_slide` over a level of the caller's: `query` is called with a world box and
/// fills a buffer of up to `C2D_LEVEL_QUERY_CAPACITY` (64) obstacles near it (a tile map's
/// cells, a spatial hash), `context` passed through.
///
/// A mover transform `*xf` that is not finite, or whose rotation is not unit length, is
/// `C2D_STATUS_NON_FINITE` (nothing is written).
///
/// # Safety
/// `query` must be safe to call with `context` for the duration of the call; the other
/// pointers NULL (options only) or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_move_and_slide_query(
    query: LevelQueryFcn,
    context: *mut core::ffi::c_void,
    shape: *const Shape,
    xf: *const Transform,
    translation: Vec2,
    velocity: Vec2,
    options: *const MoveOptions,
    out: *mut MoveResult,
) -> Status {
    let Some(query) = query else {
        return Status::NullPointer;
    };
    if out.is_null() {
        return Status::NullPointer;
    }
    if !translation.is_finite() || !velocity.is_finite() {
        return Status::NonFinite;
    }
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (s, x, opts) = match unsafe { read_mover(shape, xf, options) } {
        Ok(m) => m,
        Err(e) => return e,
    };
    let level = CallbackLevel { query, context };
    let r = move_and_slide(&level, &s, x, translation, velocity, &opts);
    // SAFETY: checked non-null; writable by contract.
    unsafe { write(out, r) }
}
