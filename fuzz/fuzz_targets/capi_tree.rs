//! Arbitrary operation sequences on a tree in caller memory through the C ABI: create,
//! destroy, move, enlarge (random ids, including stale and out-of-range ones, and arbitrary
//! floats), rebuild, queries, ray and box casts, pair finding, and the shape-level queries (with
//! a shape callback that also hands out a broken polygon and NULL); margins, lazy moves, the
//! enlarged rebuild, the per-proxy getters and setters, debug drawing, and a heap tree made by
//! `c2d_tree_create` beside the one in caller memory (with its allocations failing from a chosen
//! one on). Nothing may panic, the tree must validate
//! after every operation, shape-query outputs keep their invariants, and a drawn tree whose
//! boxes are all finite draws finite coordinates.
#![no_main]
use collide2d::capi::*;
use collide2d::*;
use core::ffi::c_void;
use draw_table::{draw_table, Seen};
use libfuzzer_sys::fuzz_target;

#[path = "draw_table.rs"]
mod draw_table;
#[path = "failing_alloc.rs"]
mod failing_alloc;
use failing_alloc::failing;

unsafe extern "C" fn on_query(_id: u32, _u: u64, _c: *mut c_void) -> bool {
    true
}
unsafe extern "C" fn on_ray(r: *const Ray, _id: u32, u: u64, _c: *mut c_void) -> f32 {
    // SAFETY: the tree passes a live ray.
    let max = unsafe { (*r).max_fraction };
    match u % 4 {
        0 => 0.0,
        1 => -1.0,
        2 => max * 0.5,
        _ => max,
    }
}
unsafe extern "C" fn on_box(max: f32, _id: u32, u: u64, _c: *mut c_void) -> f32 {
    if u.is_multiple_of(3) {
        0.5 * max
    } else {
        max
    }
}
unsafe extern "C" fn on_pair(_a: u32, _ua: u64, _b: u32, _ub: u64, c: *mut c_void) {
    // SAFETY: the context is the target's live counter.
    unsafe { *(c as *mut u64) += 1 };
}

/// The shapes the shape callback hands out: a circle, a box, a capsule, and a hand-filled
/// polygon that `c2d_shape_validate` refuses.
struct Shapes([Shape; 4]);

unsafe extern "C" fn shape_of(_id: u32, u: u64, xf: *mut Transform, c: *mut c_void) -> *const Shape {
    // SAFETY: the context is the target's live `Shapes`; `xf` is the tree's live slot.
    let shapes = unsafe { &*(c as *const Shapes) };
    unsafe { *xf = Transform::new(Vec2::new((u % 17) as f32, (u % 5) as f32), u as f32 * 0.1) };
    match u % 9 {
        8 => core::ptr::null(),
        k => &shapes.0[(k % 4) as usize],
    }
}
unsafe extern "C" fn on_shape(_id: u32, _u: u64, _c: *mut c_void) -> bool {
    true
}
unsafe extern "C" fn on_contact(_id: u32, _u: u64, m: *const Manifold, _c: *mut c_void) -> bool {
    // SAFETY: the tree passes a live manifold.
    let m = unsafe { &*m };
    assert!(m.count >= 1 && m.count <= 2);
    assert!((m.normal.length() - 1.0).abs() < 1e-3, "{m:?}");
    true
}

fuzz_target!(|data: &[u8]| {
    let mut broken = Polygon::make_box(1.0, 1.0).unwrap();
    broken.normals[1] = -broken.normals[1];
    let shapes = Shapes([
        Shape::circle(0.5),
        Shape::rect(1.0, 0.25),
        Shape::capsule(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.2),
        Shape::Polygon(broken),
    ]);
    let ctx = &shapes as *const Shapes as *mut c_void;
    // The callback's shapes: three that pass the door's check, and the broken polygon.
    for (k, shape) in shapes.0.iter().enumerate() {
        // SAFETY: a live shape.
        let status = unsafe { c2d_shape_validate(shape) };
        let expected = if k == 3 { Status::InvalidShape } else { Status::Ok };
        assert_eq!(status, expected, "shape {k}");
    }
    let mut mem = vec![0u64; 512];
    let mut t: *mut Tree = core::ptr::null_mut();
    let size = c2d_tree_memory_size(40).min(mem.len() * 8);
    // SAFETY: `mem` is 8-byte aligned, `size` bytes fit in it, and it outlives the handle.
    unsafe {
        assert_eq!(
            c2d_tree_init(mem.as_mut_ptr() as *mut c_void, size, &mut t),
            Status::Ok
        )
    };
    let mut pairs = 0u64;
    for op in data.chunks_exact(21) {
        let f = |i: usize| f32::from_le_bytes([op[i], op[i + 1], op[i + 2], op[i + 3]]);
        let id = u32::from_le_bytes([op[1], op[2], op[3], op[4]]) % 96;
        let aabb = Aabb::new(
            Vec2::new(f(5), f(9)),
            Vec2::new(f(5) + f(13).abs(), f(9) + f(17).abs()),
        );
        // SAFETY: `t` is live; every pointer is a live local.
        unsafe {
            match op[0] % 16 {
                0..=2 => {
                    let mut out = 0;
                    let _ = c2d_tree_create_proxy(t, &aabb, u64::from(op[1]), u64::from(op[2]), &mut out);
                }
                3 => {
                    let _ = c2d_tree_destroy_proxy(t, id);
                }
                4 => {
                    let _ = c2d_tree_move_proxy(t, id, &aabb, core::ptr::null_mut());
                }
                5 => {
                    let _ = c2d_tree_enlarge_proxy(t, id, &aabb, core::ptr::null_mut());
                }
                6 => {
                    let _ = c2d_tree_rebuild(t);
                }
                7 => {
                    let _ = c2d_tree_query(t, &aabb, u64::from(op[3]), Some(on_query), core::ptr::null_mut());
                }
                8 => {
                    let ray = Ray {
                        origin: aabb.min,
                        translation: Vec2::new(f(13), f(17)),
                        max_fraction: f(1),
                    };
                    let _ = c2d_tree_ray_cast(t, &ray, u64::MAX, Some(on_ray), core::ptr::null_mut());
                    let _ = c2d_tree_box_cast(
                        t,
                        &aabb,
                        Vec2::new(f(13), f(1)),
                        u64::MAX,
                        Some(on_box),
                        core::ptr::null_mut(),
                    );
                    // The shape-level queries: outputs keep their invariants whatever happens.
                    let (mut hit, mut rh) = (false, core::mem::zeroed::<TreeRayHit>());
                    if c2d_tree_ray_cast_closest(t, &ray, u64::MAX, Some(shape_of), ctx, &mut hit, &mut rh)
                        == Status::Ok
                        && hit
                    {
                        assert!(
                            rh.hit.fraction >= 0.0 && rh.hit.fraction <= ray.max_fraction,
                            "{rh:?}"
                        );
                        assert!((rh.hit.normal.length() - 1.0).abs() < 1e-3, "{rh:?}");
                    }
                    let probe = &shapes.0[usize::from(op[2] % 3)];
                    let at = Transform::new(aabb.min, f(1));
                    let mut ch = core::mem::zeroed::<TreeCastHit>();
                    let s = c2d_tree_cast_closest(
                        t,
                        probe,
                        &at,
                        Vec2::new(f(13), f(17)),
                        f(1).abs().min(1.0),
                        u64::MAX,
                        Some(shape_of),
                        ctx,
                        &mut hit,
                        &mut ch,
                    );
                    if s == Status::Ok && hit {
                        assert!(ch.output.fraction >= 0.0 && ch.output.fraction <= 1.0, "{ch:?}");
                        assert!((ch.output.normal.length() - 1.0).abs() < 1e-3, "{ch:?}");
                    }
                    let _ = c2d_tree_query_shape(
                        t,
                        probe,
                        &at,
                        u64::MAX,
                        Some(shape_of),
                        ctx,
                        Some(on_shape),
                        core::ptr::null_mut(),
                    );
                    let _ = c2d_tree_contacts(
                        t,
                        probe,
                        &at,
                        f(1).abs(),
                        u64::MAX,
                        Some(shape_of),
                        ctx,
                        Some(on_contact),
                        core::ptr::null_mut(),
                    );
                }
                9 => {
                    let _ = c2d_tree_query_pairs(t, Some(on_pair), &mut pairs as *mut u64 as *mut c_void);
                }
                10 => {
                    // Margins: a proxy with its own margin, then the tree's default changed.
                    let mut out = 0;
                    let _ = c2d_tree_create_proxy_with_margin(
                        t,
                        &aabb,
                        f(13),
                        u64::from(op[1]),
                        u64::from(op[2]),
                        &mut out,
                    );
                    let _ = c2d_tree_set_margin(t, f(17));
                }
                11 => {
                    // Moves with a margin and lazy moves (fat box kept while it still contains
                    // the new one), reporting through a pointer or NULL.
                    let mut moved = false;
                    let out: *mut bool = if op[3] & 1 != 0 {
                        core::ptr::null_mut()
                    } else {
                        &mut moved
                    };
                    match op[3] % 3 {
                        0 => {
                            let _ = c2d_tree_move_proxy_with_margin(t, id, &aabb, f(13), out);
                        }
                        1 => {
                            let _ = c2d_tree_move_proxy_lazy(t, id, &aabb, out);
                        }
                        _ => {
                            let _ = c2d_tree_move_proxy_lazy_with_margin(t, id, &aabb, f(13), out);
                        }
                    }
                }
                12 => {
                    // The enlarged rebuild with scratch of any size (NULL included).
                    let n = usize::from(op[4]);
                    let mut scratch = vec![0u32; n];
                    let sp = if op[3] & 1 != 0 {
                        core::ptr::null_mut()
                    } else {
                        scratch.as_mut_ptr()
                    };
                    let _ = c2d_tree_rebuild_enlarged(t, sp, n);
                }
                13 => {
                    // The per-proxy getters and setters, and the tree-wide ones.
                    let mut bx = aabb;
                    let _ = c2d_tree_fat_aabb(t, id, &mut bx);
                    let (mut u, mut moved) = (0u64, false);
                    let _ = c2d_tree_user_data(t, id, &mut u);
                    let _ = c2d_tree_category_bits(t, id, &mut u);
                    let _ = c2d_tree_was_moved(t, id, &mut moved);
                    let _ = c2d_tree_set_category_bits(t, id, u64::from(op[3]) << (op[4] % 57));
                    let mut has = false;
                    let out: *mut Aabb = if op[3] & 1 != 0 {
                        core::ptr::null_mut()
                    } else {
                        &mut bx
                    };
                    let _ = c2d_tree_root_bounds(t, &mut has, out);
                    let count = c2d_tree_proxy_count(t);
                    let height = c2d_tree_height(t);
                    assert!(
                        count == 0 || height < count.max(2) * 2,
                        "height {height} for {count} proxies"
                    );
                    let ratio = c2d_tree_area_ratio(t);
                    assert!(ratio.is_nan() || ratio >= 0.0, "area ratio {ratio}");
                }
                14 => {
                    // Debug drawing through a table with some callbacks NULL, or a NULL table.
                    let mut seen = Seen::default();
                    let table = draw_table(&mut seen, op[3], op[4]);
                    let tp: *const DebugDrawFcns = if op[3] & 0x80 != 0 {
                        core::ptr::null()
                    } else {
                        &table
                    };
                    let _ = c2d_tree_draw(t, tp);
                    let mut has = false;
                    let mut root = aabb;
                    let _ = c2d_tree_root_bounds(t, &mut has, &mut root);
                    if !has || (root.min.is_finite() && root.max.is_finite()) {
                        assert_eq!(seen.non_finite, 0, "a finite tree drew a non-finite coordinate");
                    }
                }
                _ => {
                    // A heap tree beside the one in caller memory, or a NULL out-parameter.
                    let mut h: *mut Tree = core::ptr::null_mut();
                    let out: *mut *mut Tree = if op[3] & 1 != 0 {
                        core::ptr::null_mut()
                    } else {
                        &mut h
                    };
                    // With `op[3] & 2`, allocations from the `op[5]`-th on fail: creation
                    // and insertion (with the tree's margin, or with a margin of its own when
                    // `op[3] & 8`) report running out, write no id, and the tree stays whole.
                    let budget = if op[3] & 2 != 0 { op[5] } else { u8::MAX };
                    let made = failing(budget, || c2d_tree_create(out));
                    assert!(made == Status::Ok || made == Status::OutOfMemory || out.is_null());
                    if made == Status::Ok {
                        let mut count = 0u32;
                        for k in 0..u64::from(op[4] % 8) + 16 * u64::from(op[3] & 4) {
                            let mut pid = u32::MAX;
                            let made = if op[3] & 8 != 0 {
                                failing(budget, || {
                                    c2d_tree_create_proxy_with_margin(h, &aabb, f(13), k, k, &mut pid)
                                })
                            } else {
                                failing(budget, || c2d_tree_create_proxy(h, &aabb, k, k, &mut pid))
                            };
                            match made {
                                Status::Ok => count += 1,
                                Status::OutOfMemory => {
                                    assert_eq!(pid, u32::MAX, "out of memory wrote an id");
                                    assert_eq!(c2d_tree_proxy_count(h), count, "out of memory kept a proxy");
                                    assert_eq!(c2d_tree_validate(h), Status::Ok);
                                }
                                // A box or margin the tree refuses.
                                _ => {}
                            }
                        }
                        assert_eq!(c2d_tree_proxy_count(h), count, "a refused proxy was kept");
                        let _ = c2d_tree_query_pairs(h, Some(on_pair), &mut pairs as *mut u64 as *mut c_void);
                        assert_eq!(c2d_tree_validate(h), Status::Ok);
                    }
                    c2d_tree_free(h);
                }
            }
            assert_eq!(
                c2d_tree_validate(t),
                Status::Ok,
                "tree corrupted by op {}",
                op[0] % 16
            );
        }
    }
});
