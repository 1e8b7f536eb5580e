//! A `c2d_DebugDraw` table for the fuzz targets: every callback records into a `Seen` whether
//! the numbers it received were finite, so a target can assert that finite inputs draw finite
//! coordinates.
use collide2d::capi::DebugDrawFcns;
use collide2d::{Transform, Vec2};
use core::ffi::{c_char, c_void};

/// What the drawing callbacks saw: how many calls, and how many carried a non-finite number.
#[derive(Default)]
pub struct Seen {
    pub calls: u64,
    pub non_finite: u64,
}

fn see(c: *mut c_void, values: &[f32]) {
    // SAFETY: every table passes a live `Seen` as its context.
    let seen = unsafe { &mut *(c as *mut Seen) };
    seen.calls += 1;
    if !values.iter().all(|x| x.is_finite()) {
        seen.non_finite += 1;
    }
}
unsafe extern "C" fn d_polygon(v: *const Vec2, n: i32, _col: u32, c: *mut c_void) {
    // SAFETY: the library passes `n` readable vertices.
    let v = unsafe { core::slice::from_raw_parts(v, n.max(0) as usize) };
    assert!(n >= 0);
    see(c, &v.iter().flat_map(|p| [p.x, p.y]).collect::<Vec<_>>());
}
unsafe extern "C" fn d_solid_polygon(
    xf: Transform,
    v: *const Vec2,
    n: i32,
    r: f32,
    _col: u32,
    c: *mut c_void,
) {
    // SAFETY: the library passes `n` readable vertices.
    let v = unsafe { core::slice::from_raw_parts(v, n.max(0) as usize) };
    assert!(n >= 0);
    let mut all = vec![xf.p.x, xf.p.y, xf.q.c, xf.q.s, r];
    all.extend(v.iter().flat_map(|p| [p.x, p.y]));
    see(c, &all);
}
unsafe extern "C" fn d_circle(p: Vec2, r: f32, _col: u32, c: *mut c_void) {
    see(c, &[p.x, p.y, r]);
}
unsafe extern "C" fn d_solid_circle(xf: Transform, r: f32, _col: u32, c: *mut c_void) {
    see(c, &[xf.p.x, xf.p.y, xf.q.c, xf.q.s, r]);
}
unsafe extern "C" fn d_solid_capsule(a: Vec2, b: Vec2, r: f32, _col: u32, c: *mut c_void) {
    see(c, &[a.x, a.y, b.x, b.y, r]);
}
unsafe extern "C" fn d_segment(a: Vec2, b: Vec2, _col: u32, c: *mut c_void) {
    see(c, &[a.x, a.y, b.x, b.y]);
}
unsafe extern "C" fn d_transform(xf: Transform, c: *mut c_void) {
    see(c, &[xf.p.x, xf.p.y, xf.q.c, xf.q.s]);
}
unsafe extern "C" fn d_point(p: Vec2, size: f32, _col: u32, c: *mut c_void) {
    see(c, &[p.x, p.y, size]);
}
unsafe extern "C" fn d_string(p: Vec2, text: *const c_char, _col: u32, c: *mut c_void) {
    assert!(!text.is_null());
    see(c, &[p.x, p.y]);
}

/// A drawing table whose callbacks record into `seen`: bit k of `nulls` leaves callback k NULL
/// (a NULL callback is skipped); `flags` bits 0..5 choose what `c2d_world_draw` draws.
pub fn draw_table(seen: &mut Seen, nulls: u8, flags: u8) -> DebugDrawFcns {
    let on = |k: u32| nulls & (1 << k) == 0;
    DebugDrawFcns {
        draw_polygon: if on(0) { Some(d_polygon) } else { None },
        draw_solid_polygon: if on(1) { Some(d_solid_polygon) } else { None },
        draw_circle: if on(2) { Some(d_circle) } else { None },
        draw_solid_circle: if on(3) { Some(d_solid_circle) } else { None },
        draw_solid_capsule: if on(4) { Some(d_solid_capsule) } else { None },
        draw_segment: if on(5) { Some(d_segment) } else { None },
        draw_transform: if on(6) { Some(d_transform) } else { None },
        draw_point: if on(7) { Some(d_point) } else { None },
        draw_string: Some(d_string),
        context: seen as *mut Seen as *mut c_void,
        draw_shapes: flags & 1 != 0,
        draw_bounds: flags & 2 != 0,
        draw_contacts: flags & 4 != 0,
        draw_transforms: flags & 8 != 0,
        draw_tree: flags & 16 != 0,
        draw_joints: flags & 32 != 0,
    }
}
