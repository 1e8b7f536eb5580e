//! Arbitrary bytes through the solver's C ABI: body definitions read from raw bytes (invalid
//! kinds and shape tags, garbage polygons, NaN everywhere), removals with arbitrary ids, steps
//! with arbitrary dt and sub-step counts, velocity and transform changes, ray casts, AABB
//! queries and events; then the immediate-mode functions on raw body and constraint arrays.
//! Nothing may panic; errors must be status codes.
#![no_main]
use collide2d::capi::*;
use collide2d::solver::{Body, ContactConstraint};
use collide2d::*;
use core::ffi::c_void;
use core::mem::size_of;
use libfuzzer_sys::fuzz_target;

unsafe extern "C" fn on_body(_b: BodyId, c: *mut c_void) -> bool {
    // SAFETY: the context is the target's live counter.
    unsafe { *(c as *mut u64) += 1 };
    true
}

/// A value of a plain-data type from the next bytes (zero-padded).
fn take<T: Copy>(data: &mut &[u8]) -> T {
    let mut buf = vec![0u8; size_of::<T>()];
    let n = buf.len().min(data.len());
    buf[..n].copy_from_slice(&data[..n]);
    *data = &data[n..];
    // SAFETY: only instantiated with types for which every bit pattern is valid (f32, u32,
    // u64, Vec2, Transform, Aabb, BodyId, Body, ContactConstraint, Manifold) or with raw
    // bytes of BodyDef that are passed only by pointer for the C ABI to validate.
    unsafe { core::ptr::read_unaligned(buf.as_ptr() as *const T) }
}

fuzz_target!(|data: &[u8]| {
    let mut data = data;
    let mut w: *mut World = core::ptr::null_mut();
    // SAFETY: `w` is a valid out-parameter.
    unsafe { assert_eq!(c2d_world_create(core::ptr::null(), &mut w), Status::Ok) };
    let mut ids: Vec<BodyId> = Vec::new();
    let mut hits = 0u64;
    while let Some((&op, rest)) = data.split_first() {
        data = rest;
        // SAFETY (whole block): `w` is live; every pointer passed points to a local.
        unsafe {
            match op % 9 {
                0 | 1 => {
                    let bytes: [u8; size_of::<BodyDef>()] = take(&mut data);
                    let mut id = BodyId::default();
                    if c2d_world_add_body(w, bytes.as_ptr() as *const BodyDef, &mut id) == Status::Ok {
                        ids.push(id);
                    }
                }
                2 => {
                    let id: BodyId = take(&mut data);
                    let _ = c2d_world_remove_body(w, id);
                }
                3 if !ids.is_empty() => {
                    let k: u32 = take(&mut data);
                    let _ = c2d_world_remove_body(w, ids[k as usize % ids.len()]);
                }
                4 => {
                    let dt: f32 = take(&mut data);
                    let sub: u32 = take(&mut data);
                    // Keep each run short: sub-steps beyond 64 are rejected anyway.
                    let _ = c2d_world_step(w, dt, sub % 80);
                }
                5 if !ids.is_empty() => {
                    let k: u32 = take(&mut data);
                    let v: Vec2 = take(&mut data);
                    let a: f32 = take(&mut data);
                    let xf: Transform = take(&mut data);
                    let id = ids[k as usize % ids.len()];
                    let _ = c2d_world_set_velocity(w, id, &v, a);
                    let _ = c2d_world_set_transform(w, id, &xf);
                    let mut b = core::mem::zeroed::<Body>();
                    let _ = c2d_world_get_body(w, id, &mut b);
                }
                6 => {
                    let o: Vec2 = take(&mut data);
                    let t: Vec2 = take(&mut data);
                    let mut hit = false;
                    let mut out = WorldRayHit::default();
                    let _ = c2d_world_ray_cast(w, &o, &t, &mut hit, &mut out);
                    let b: Aabb = take(&mut data);
                    let _ = c2d_world_query_aabb(w, &b, Some(on_body), &mut hits as *mut u64 as *mut c_void);
                }
                7 => {
                    let mut n = 0usize;
                    let mut buf = [ContactEvent::default(); 4];
                    let _ = c2d_world_begin_events(w, buf.as_mut_ptr(), buf.len(), &mut n);
                    let _ = c2d_world_end_events(w, buf.as_mut_ptr(), buf.len(), &mut n);
                    let (mut nb, mut nc) = (0u32, 0u32);
                    let _ = c2d_world_counts(w, &mut nb, &mut nc);
                }
                _ => {
                    // Immediate mode on raw arrays.
                    let mut bodies: [Body; 3] = take(&mut data);
                    let m: Manifold = take(&mut data);
                    let (a, b): (u32, u32) = (take(&mut data), take(&mut data));
                    let mut c = ContactConstraint::default();
                    let _ = c2d_prepare_contact(bodies.as_ptr(), 3, a % 4, b % 4, &m, 0.5, 0.2, core::ptr::null(), &mut c);
                    let mut raw: [ContactConstraint; 2] = take(&mut data);
                    raw[0] = c;
                    let mut s = core::mem::zeroed();
                    let _ = c2d_solver_default_settings(&mut s);
                    let dt: f32 = take(&mut data);
                    let _ = c2d_solver_step(bodies.as_mut_ptr(), 3, raw.as_mut_ptr(), 2, &s, dt);
                }
            }
        }
    }
    // SAFETY: freed once.
    unsafe { c2d_world_free(w) };
});
