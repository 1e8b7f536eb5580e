//! Arbitrary bytes through the C ABI query entry points: raw `c2d_Shape` values (any tag, any
//! payload, including NaN and huge floats), transforms, rays, sweeps and margins. Nothing may
//! panic; for inputs below 1e18 in magnitude `c2d_overlaps` must agree with `c2d_collide`; and
//! every output keeps its documented invariants (at most 2 manifold points, unit normals,
//! finite points and depths, ray fractions within [0, max_fraction]).
//!
//! A selector byte then picks one group of the remaining query entry points, all fed from the
//! same bytes: the typed pair functions, chain segments and the level builders (weld,
//! decomposition, tile and slope outlines, heightfields: each with its allocations failing
//! from a chosen one on, which must write nothing), the makers and point / box / proxy
//! queries, debug drawing and the plane solver, or the process-wide hooks. `c2d_shape_validate`
//! must refuse a shape with the status another entry point refuses it with.
#![no_main]
use collide2d::capi::*;
use collide2d::*;
use core::ffi::{c_char, c_void};
use draw_table::{draw_table, Seen};
use libfuzzer_sys::fuzz_target;

#[path = "draw_table.rs"]
mod draw_table;
#[path = "failing_alloc.rs"]
mod failing_alloc;
use failing_alloc::failing;

const SHAPE: usize = core::mem::size_of::<Shape>();

fn f32s(bytes: &[u8]) -> impl Iterator<Item = f32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// `bytes` (zero-padded) in 8-byte-aligned storage, to be read through a pointer as a `T` whose
/// every field is checked by the C ABI.
fn raw<T>(bytes: &[u8]) -> Vec<u64> {
    let mut buf = vec![0u64; core::mem::size_of::<T>().div_ceil(8)];
    let n = bytes.len().min(core::mem::size_of::<T>());
    // SAFETY: `buf` holds at least size_of::<T>() >= n bytes.
    unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.as_mut_ptr() as *mut u8, n) };
    buf
}

/// A level of up to two obstacles from raw bytes for `c2d_move_and_slide_query`; the context
/// is a `Level`.
struct Level {
    obstacles: [Vec<u64>; 2],
    count: u32,
}
unsafe extern "C" fn level_query(_aabb: Aabb, out: *mut MoverObstacle, capacity: u32, c: *mut c_void) -> u32 {
    // SAFETY: the context is the target's live `Level`; `out` has `capacity` writable slots.
    let level = unsafe { &*(c as *const Level) };
    let n = level.count.min(capacity);
    for k in 0..n as usize {
        let src = level.obstacles[k].as_ptr() as *const u8;
        // SAFETY: each buffer holds size_of::<MoverObstacle>() bytes, which the mover checks.
        unsafe {
            core::ptr::copy_nonoverlapping(src, out.add(k) as *mut u8, core::mem::size_of::<MoverObstacle>())
        };
    }
    n
}

unsafe extern "C" fn failing_alloc(_size: usize, _align: usize, _c: *mut c_void) -> *mut c_void {
    core::ptr::null_mut()
}
unsafe extern "C" fn failing_free(_m: *mut c_void, _size: usize, _align: usize, _c: *mut c_void) {}
unsafe extern "C" fn on_log(message: *const c_char, _c: *mut c_void) {
    assert!(!message.is_null());
}
unsafe extern "C" fn on_assert(message: *const c_char, _file: *const c_char, _line: i32, _c: *mut c_void) {
    // SAFETY: the hook's contract: a NUL-terminated message valid during the call.
    let text = unsafe { core::ffi::CStr::from_ptr(message) };
    panic!("internal error reported to the assert hook: {text:?}");
}

/// Runs `call` (which writes its outputs into the value it gets) with every allocation granted,
/// then into a `fresh()` value with the allocations from the `budget`-th on failing: out of memory
/// writes nothing (the value is still as `fresh()` made it), any other outcome is the one with
/// memory, status and outputs. Only the call itself is failed.
fn fails_cleanly<O: PartialEq + core::fmt::Debug>(
    budget: u8,
    fresh: impl Fn() -> O,
    call: impl Fn(&mut O) -> Status,
) {
    let mut with = fresh();
    let s = call(&mut with);
    let mut without = fresh();
    match failing(budget, || call(&mut without)) {
        Status::OutOfMemory => assert!(without == fresh(), "out of memory wrote an output: {without:?}"),
        s2 => {
            assert_eq!(s2, s, "a status changed with less memory");
            assert!(
                without == with,
                "an output changed with less memory: {without:?} {with:?}"
            );
        }
    }
}

/// Loops as `c2d_tile_outlines` writes them: the points, each loop's point count, the two
/// totals.
type Loops = (Vec<Vec2>, Vec<u32>, u32, u32);

/// Empty [`Loops`] buffers (sentinels) with room for 64 points in 16 loops.
fn fresh_loops() -> Loops {
    (
        vec![Vec2::new(-7.0, 7.0); 64],
        vec![u32::MAX; 16],
        u32::MAX,
        u32::MAX,
    )
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 * SHAPE + 64 {
        return;
    }
    let (sa, rest) = data.split_at(SHAPE);
    let (sb, rest) = rest.split_at(SHAPE);
    let mut raw_a = [0u8; SHAPE];
    let mut raw_b = [0u8; SHAPE];
    raw_a.copy_from_slice(sa);
    raw_b.copy_from_slice(sb);
    // Keep the tag mostly valid so the queries run, but let invalid tags through too.
    if rest[0] & 0x80 == 0 {
        raw_a[..4].copy_from_slice(&u32::from(rest[1] % 3).to_le_bytes());
        raw_b[..4].copy_from_slice(&u32::from(rest[2] % 3).to_le_bytes());
    }
    let a = raw_a.as_ptr() as *const Shape;
    let b = raw_b.as_ptr() as *const Shape;
    let v: Vec<f32> = f32s(&rest[4..]).collect();
    let xa = Transform {
        p: Vec2::new(v[0], v[1]),
        q: Rot { c: v[2], s: v[3] },
    };
    let xb = Transform {
        p: Vec2::new(v[4], v[5]),
        q: Rot { c: v[6], s: v[7] },
    };
    let ray = Ray {
        origin: Vec2::new(v[8], v[9]),
        translation: Vec2::new(v[10], v[11]),
        max_fraction: v[12],
    };
    let margin = v[13];
    let mut m = Manifold::default();
    let mut over = false;
    let mut hit = false;
    let mut rh = RayHit::default();
    let mut d = core::mem::MaybeUninit::<DistanceOutput>::uninit();
    let mut cast = core::mem::MaybeUninit::<CastOutput>::uninit();
    let mut toi = core::mem::MaybeUninit::<ToiOutput>::uninit();
    let mut cache = SimplexCache {
        count: u16::from(rest[3]) % 5,
        index_a: [rest[1], rest[2], rest[3]],
        index_b: [rest[3], rest[1], rest[2]],
    };
    let sweep_a = Sweep {
        local_center: Vec2::new(v[0], v[2]),
        c1: xa.p,
        c2: xb.p,
        q1: xa.q,
        q2: xb.q,
    };
    let sweep_b = Sweep {
        local_center: Vec2::new(v[3], v[1]),
        c1: xb.p,
        c2: xa.p,
        q1: xb.q,
        q2: xa.q,
    };
    // SAFETY: the shapes point at SHAPE readable bytes (tags are validated by the ABI); every
    // other pointer is a live local of its type.
    unsafe {
        let s1 = c2d_collide(a, &xa, b, &xb, 0.0, &mut m);
        let s2 = c2d_overlaps(a, &xa, b, &xb, &mut over);
        assert_eq!(s1, s2);
        let small = |x: f32| x.abs() < 1e18;
        let bytes_small =
            f32s(&raw_a[4..]).chain(f32s(&raw_b[4..])).all(small) && v[..8].iter().all(|x| small(*x));
        if s1 == Status::Ok && bytes_small {
            assert_eq!(over, m.count > 0, "overlaps and collide disagree");
        }
        // Every output keeps its documented invariants (polygons that break the constructors'
        // promises are refused on entry with InvalidShape).
        let unit = |n: Vec2| (n.length() - 1.0).abs() <= 1e-3;
        let check_manifold = |m: &Manifold| {
            assert!(m.count <= 2);
            if m.count > 0 {
                assert!(unit(m.normal), "manifold normal {m:?}");
            }
            for p in m.points() {
                assert!(p.point.is_finite() && p.depth.is_finite(), "{m:?}");
            }
        };
        if s1 == Status::Ok {
            check_manifold(&m);
        }
        if c2d_collide(a, &xa, b, &xb, margin, &mut m) == Status::Ok {
            check_manifold(&m);
        }
        if c2d_ray_cast(a, &xa, &ray, &mut hit, &mut rh) == Status::Ok && hit {
            assert!(rh.fraction >= 0.0 && rh.fraction <= ray.max_fraction, "{rh:?}");
            assert!(unit(rh.normal) && rh.point.is_finite(), "{rh:?}");
        }
        let _ = c2d_shape_distance(a, &xa, b, &xb, &mut cache, d.as_mut_ptr());
        let _ = c2d_shape_cast(
            a,
            &xa,
            Vec2::new(v[8], v[9]),
            b,
            &xb,
            Vec2::new(v[10], v[11]),
            margin,
            cast.as_mut_ptr(),
        );
        let _ = c2d_time_of_impact(a, &sweep_a, b, &sweep_b, v[12], toi.as_mut_ptr());
        let mut sh = core::mem::MaybeUninit::<Shape>::uninit();
        let pts: Vec<Vec2> = v.chunks_exact(2).take(9).map(|p| Vec2::new(p[0], p[1])).collect();
        // The contract: `count` points are readable (counts above 8 are refused before reading).
        let count = (rest[1] % 10).min(pts.len() as u8);
        let _ = c2d_make_polygon(pts.as_ptr(), u32::from(count), margin, sh.as_mut_ptr());
        let _ = c2d_shape_inflate(a, margin, sh.as_mut_ptr());
        let mut mass = MassData::default();
        let _ = c2d_shape_mass(a, v[13], &mut mass);
        // The door's check alone: a shape it refuses is refused with the same status by an
        // entry point given nothing else to refuse.
        let checked = c2d_shape_validate(a);
        let mut bb = Aabb::new(Vec2::ZERO, Vec2::ZERO);
        let boxed = c2d_shape_aabb(a, &Transform::IDENTITY, &mut bb);
        if checked != Status::Ok {
            assert_eq!(boxed, checked, "c2d_shape_validate and c2d_shape_aabb disagree");
        }

        // The selector byte: the group in its low two bits, which pointers are NULL above them.
        let sel = data[data.len() - 1];
        let null = |bit: u32| sel & (4 << bit) != 0;
        let g = |k: usize| v.get(k).copied().unwrap_or(0.0);
        let p = |k: usize| Vec2::new(g(k), g(k + 1));
        let finite = bytes_small && v.iter().take(16).all(|x| small(*x));
        match sel % 4 {
            0 => {
                // The typed pair functions on the raw payloads (the ABI checks every field).
                let (pa, pb) = (&raw_a[4..], &raw_b[4..]);
                let (ca, cb) = (raw::<Circle>(pa), raw::<Circle>(pb));
                let (ka, kb) = (raw::<Capsule>(pa), raw::<Capsule>(pb));
                let (qa, qb) = (raw::<Polygon>(pa), raw::<Polygon>(pb));
                let sg = raw::<ChainSegment>(pa);
                let ca = ca.as_ptr() as *const Circle;
                let cb = cb.as_ptr() as *const Circle;
                let ka = ka.as_ptr() as *const Capsule;
                let kb = kb.as_ptr() as *const Capsule;
                let qa = qa.as_ptr() as *const Polygon;
                let qb = qb.as_ptr() as *const Polygon;
                let sg = sg.as_ptr() as *const ChainSegment;
                let ok = |s: Status, m: &Manifold| {
                    if s == Status::Ok {
                        check_manifold(m);
                    }
                };
                ok(c2d_collide_circles(ca, &xa, cb, &xb, margin, &mut m), &m);
                ok(c2d_collide_capsule_circle(ka, &xa, cb, &xb, margin, &mut m), &m);
                ok(c2d_collide_capsules(ka, &xa, kb, &xb, margin, &mut m), &m);
                ok(c2d_collide_polygon_circle(qa, &xa, cb, &xb, margin, &mut m), &m);
                ok(c2d_collide_polygon_capsule(qa, &xa, kb, &xb, margin, &mut m), &m);
                ok(c2d_collide_polygons(qa, &xa, qb, &xb, margin, &mut m), &m);
                ok(
                    c2d_collide_chain_segment_circle(sg, &xa, cb, &xb, margin, &mut m),
                    &m,
                );
                ok(
                    c2d_collide_chain_segment_capsule(sg, &xa, kb, &xb, margin, &mut m),
                    &m,
                );
                ok(
                    c2d_collide_chain_segment_polygon(sg, &xa, qb, &xb, margin, &mut m),
                    &m,
                );
                let o: *mut bool = if null(0) { core::ptr::null_mut() } else { &mut over };
                let _ = c2d_overlaps_circles(ca, &xa, cb, &xb, o);
                let _ = c2d_overlaps_capsule_circle(ka, &xa, cb, &xb, o);
                let _ = c2d_overlaps_capsules(ka, &xa, kb, &xb, o);
                let _ = c2d_overlaps_polygon_circle(qa, &xa, cb, &xb, o);
                let _ = c2d_overlaps_polygon_capsule(qa, &xa, kb, &xb, o);
                let _ = c2d_overlaps_polygons(qa, &xa, qb, &xb, o);
                let _ = c2d_overlaps_chain_segment_circle(sg, &xa, cb, &xb, o);
                let _ = c2d_overlaps_chain_segment_capsule(sg, &xa, kb, &xb, o);
                let _ = c2d_overlaps_chain_segment_polygon(sg, &xa, qb, &xb, o);
                if c2d_ray_cast_chain_segment(sg, &xa, &ray, &mut hit, &mut rh) == Status::Ok && hit {
                    assert!(rh.fraction >= 0.0 && rh.fraction <= ray.max_fraction, "{rh:?}");
                }
                // Chains from the raw numbers.
                let mut sh = core::mem::MaybeUninit::<Shape>::uninit();
                let _ = c2d_make_chain_segment(p(0), p(2), p(4), p(6), sh.as_mut_ptr());
                let n = u32::from(rest[1] % 8).min(pts.len() as u32);
                let mut seg = core::mem::MaybeUninit::<ChainSegment>::uninit();
                let _ = c2d_chain_segment_from_polyline(
                    pts.as_ptr(),
                    n,
                    null(1),
                    u32::from(rest[2] % 10),
                    seg.as_mut_ptr(),
                );
                let mut welded = [Vec2::ZERO; 9];
                let mut wn = 0u32;
                let out = if null(2) {
                    core::ptr::null_mut()
                } else {
                    welded.as_mut_ptr()
                };
                // Sometimes with its allocation failing: nothing is written.
                let budget = if null(3) { rest[3] % 2 } else { u8::MAX };
                match failing(budget, || c2d_chain_weld(pts.as_ptr(), n, null(1), out, &mut wn)) {
                    Status::Ok => assert!(wn <= n, "weld grew {n} points to {wn}"),
                    Status::OutOfMemory => assert!(wn == 0 && welded == [Vec2::ZERO; 9]),
                    _ => {}
                }
                // The level builders on the same numbers, each with its allocations failing
                // from the `budget`-th on: out of memory writes nothing, and any other outcome
                // is the one with memory.
                let budget = rest[3] % 16;
                let count = u32::from(rest[1] % 10).min(pts.len() as u32);
                let sentinel = Polygon::make_box(123.0, 45.0).unwrap();
                fails_cleanly(
                    budget,
                    || ([sentinel; 8], u32::MAX),
                    |(out, n)| c2d_decompose(pts.as_ptr(), count, out.as_mut_ptr(), 8, n),
                );
                // A grid of up to 8 x 8 cells from shape b's bytes, on cells of a raw size or
                // of 0.5 (so that most grids are taken).
                let (gw, gh) = (u32::from(rest[1] % 9), u32::from(rest[2] % 9));
                let cells: Vec<u8> = (0..(gw * gh) as usize).map(|i| raw_b[i % SHAPE]).collect();
                let size = if null(1) { g(0) } else { 0.5 };
                let tiles: Vec<u8> = cells.iter().map(|c| c % 13).collect();
                let cell = if null(1) { p(0) } else { Vec2::new(0.5, 0.25) };
                let cells: Vec<u8> = cells.iter().map(|c| c & 1).collect();
                let loops = |(pts, counts, np, nl): &mut Loops| {
                    (
                        pts.as_mut_ptr(),
                        pts.len() as u32,
                        counts.as_mut_ptr(),
                        counts.len() as u32,
                        np as *mut u32,
                        nl as *mut u32,
                    )
                };
                fails_cleanly(budget, fresh_loops, |out| {
                    let (pts, pc, counts, lc, np, nl) = loops(out);
                    c2d_tile_outlines(cells.as_ptr(), gw, gh, size, p(2), pts, pc, counts, lc, np, nl)
                });
                fails_cleanly(budget, fresh_loops, |out| {
                    let (pts, pc, counts, lc, np, nl) = loops(out);
                    c2d_slope_outlines(tiles.as_ptr(), gw, gh, cell, p(2), pts, pc, counts, lc, np, nl)
                });
                // A heightfield of up to 12 raw heights (a third of the time with a bottom
                // below them all).
                let heights: Vec<f32> = v
                    .iter()
                    .skip(4)
                    .take(usize::from(rest[2] % 13))
                    .copied()
                    .collect();
                let low = heights.iter().copied().fold(0.0f32, f32::min) - 1.0;
                let bottom = if rest[3] % 3 == 0 { low } else { g(3) };
                let spacing = if null(1) { g(1) } else { 0.25 };
                fails_cleanly(
                    budget,
                    || ([Vec2::new(-7.0, 7.0); 26], u32::MAX),
                    |(out, n)| {
                        let hs = heights.as_ptr();
                        let kind = u32::from(rest[1] % 4);
                        let count = heights.len() as u32;
                        c2d_heightfield(
                            p(2),
                            spacing,
                            hs,
                            count,
                            kind,
                            null(2),
                            bottom,
                            out.as_mut_ptr(),
                            26,
                            n,
                        )
                    },
                );
            }
            1 => {
                // The makers and the point, box, proxy and sweep queries.
                let mut sh = core::mem::MaybeUninit::<Shape>::uninit();
                let out = if null(0) {
                    core::ptr::null_mut()
                } else {
                    sh.as_mut_ptr()
                };
                let _ = c2d_make_circle(p(0), g(2), out);
                let _ = c2d_make_capsule(p(0), p(2), g(4), out);
                let _ = c2d_make_box(g(5), g(6), out);
                let _ = c2d_make_offset_rounded_box(g(5), g(6), p(7), Rot { c: g(9), s: g(10) }, g(11), out);
                let bx = Aabb::new(p(0), p(2));
                let _ = c2d_make_box_from_aabb(&bx, out);
                let mut pp = PointProjection::default();
                let _ = c2d_closest_point(a, &xa, p(12), &mut pp);
                let _ = c2d_overlaps_aabb_shape(&bx, b, &xb, &mut over);
                if c2d_ray_cast_aabb(&bx, &ray, &mut hit, &mut rh) == Status::Ok && hit {
                    assert!(rh.fraction >= 0.0 && rh.fraction <= ray.max_fraction, "{rh:?}");
                }
                let by = Aabb::new(p(4), p(6));
                let _ = c2d_overlaps_aabbs(&bx, &by, &mut over);
                let mut sd = SegmentDistance::default();
                let _ = c2d_segment_distance(p(0), p(2), p(4), p(6), &mut sd);
                let (mut pa, mut pb) = (
                    core::mem::MaybeUninit::<ShapeProxy>::uninit(),
                    core::mem::MaybeUninit::<ShapeProxy>::uninit(),
                );
                if c2d_make_proxy(a, pa.as_mut_ptr()) == Status::Ok
                    && c2d_make_proxy(b, pb.as_mut_ptr()) == Status::Ok
                {
                    let _ =
                        c2d_proxy_distance(pa.as_ptr(), &xa, pb.as_ptr(), &xb, &mut cache, d.as_mut_ptr());
                }
                // A proxy from raw bytes: the ABI checks its count.
                let rp = raw::<ShapeProxy>(&raw_b);
                let _ = c2d_proxy_distance(
                    rp.as_ptr() as *const ShapeProxy,
                    &xa,
                    rp.as_ptr() as *const ShapeProxy,
                    &xb,
                    &mut cache,
                    d.as_mut_ptr(),
                );
                let mut xf = Transform::IDENTITY;
                let _ = c2d_sweep_transform_at(&sweep_a, g(14), &mut xf);
                let mut bb = Aabb::new(Vec2::ZERO, Vec2::ZERO);
                let _ = c2d_shape_aabb(a, &xa, &mut bb);
                let _ = c2d_shape_contains_point(a, &xa, p(12), &mut over);
                let fa = raw::<Filter>(&raw_a);
                let fb = raw::<Filter>(&raw_b);
                let _ = c2d_filter_should_collide(
                    fa.as_ptr() as *const Filter,
                    fb.as_ptr() as *const Filter,
                    &mut over,
                );
                let version = c2d_get_version();
                assert_eq!(version, c2d_get_version());
            }
            2 => {
                // Debug drawing of the raw shape, a manifold, a ray and a move; finite inputs
                // below 1e18 draw finite coordinates.
                let mut seen = Seen::default();
                let table = draw_table(&mut seen, rest[1], 0);
                let tp: *const DebugDrawFcns = if null(0) { core::ptr::null() } else { &table };
                let _ = c2d_draw_shape(tp, a, &xa, u32::from(rest[2]));
                if c2d_collide(a, &xa, b, &xb, margin, &mut m) == Status::Ok {
                    let _ = c2d_draw_manifold(tp, &m, g(14));
                }
                let hp: *const RayHit = if null(1) { core::ptr::null() } else { &rh };
                let _ = c2d_draw_ray(tp, &ray, hp, g(14));
                // The plane solver on planes from raw numbers.
                let mut planes: Vec<CollisionPlane> = v
                    .chunks_exact(5)
                    .map(|c| CollisionPlane {
                        plane: Plane {
                            normal: Vec2::new(c[0], c[1]),
                            offset: c[2],
                        },
                        push_limit: c[3],
                        push: 0.0,
                        clip_velocity: c[4].to_bits() & 1,
                    })
                    .collect();
                let count = planes.len() as u32;
                let mut res = PlaneSolverResult::default();
                let _ = c2d_solve_planes(p(0), planes.as_mut_ptr(), count, &mut res);
                let mut clipped = Vec2::ZERO;
                let _ = c2d_clip_vector(p(2), planes.as_ptr(), count, &mut clipped);
                // The mover over a caller's level of the two raw shapes.
                let mut opts = MoveOptions::default();
                let op: *mut MoveOptions = if null(2) { core::ptr::null_mut() } else { &mut opts };
                let _ = c2d_move_options_default(op);
                // Obstacles straight from the input: shape a's bytes (its tag unmasked) and on.
                let level = Level {
                    obstacles: [raw::<MoverObstacle>(data), raw::<MoverObstacle>(&data[SHAPE..])],
                    count: u32::from(rest[2] % 3),
                };
                let ctx = &level as *const Level as *mut c_void;
                let mut r = core::mem::zeroed::<MoveResult>();
                let opts_p: *const MoveOptions = if null(3) { core::ptr::null() } else { &opts };
                if c2d_move_and_slide_query(Some(level_query), ctx, b, &xb, p(8), p(10), opts_p, &mut r)
                    == Status::Ok
                {
                    let _ = c2d_draw_move_result(tp, &r, g(14));
                }
                if finite {
                    assert_eq!(seen.non_finite, 0, "finite inputs drew a non-finite coordinate");
                }
            }
            _ => {
                // The process-wide hooks: a Rust program keeps Rust's allocator, so the hooks are
                // stored but not consulted and the byte count stays 0; every hook is restored to
                // the default before the run ends.
                let alloc = if null(0) { None } else { Some(failing_alloc as _) };
                let free = if null(1) { None } else { Some(failing_free as _) };
                let s = c2d_set_allocator(alloc, free, core::ptr::null_mut());
                if alloc.is_some() != free.is_some() {
                    assert_eq!(s, Status::NullPointer);
                } else {
                    assert_eq!(s, Status::Ok);
                }
                assert_eq!(c2d_get_byte_count(), 0);
                c2d_set_log_fcn(if null(2) { None } else { Some(on_log) }, core::ptr::null_mut());
                c2d_set_assert_fcn(
                    if null(3) { None } else { Some(on_assert) },
                    core::ptr::null_mut(),
                );
                let mut t: *mut Tree = core::ptr::null_mut();
                if c2d_tree_create(&mut t) == Status::Ok {
                    let bx = Aabb::new(p(0), p(0) + p(2));
                    let mut id = 0;
                    let _ = c2d_tree_create_proxy(t, &bx, 1, 0, &mut id);
                    assert_eq!(c2d_tree_validate(t), Status::Ok);
                    c2d_tree_free(t);
                }
                assert_eq!(c2d_set_allocator(None, None, core::ptr::null_mut()), Status::Ok);
                c2d_set_log_fcn(None, core::ptr::null_mut());
                c2d_set_assert_fcn(None, core::ptr::null_mut());
            }
        }
    }
});
