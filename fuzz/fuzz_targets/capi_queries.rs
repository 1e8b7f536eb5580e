//! Arbitrary bytes through the C ABI query entry points: raw `c2d_Shape` values (any tag, any
//! payload, including NaN and huge floats), transforms, rays, sweeps and margins. Nothing may
//! panic; for inputs below 1e18 in magnitude `c2d_overlaps` must agree with `c2d_collide`; and
//! every output keeps its documented invariants (at most 2 manifold points, unit normals,
//! finite points and depths, ray fractions within [0, max_fraction]).
#![no_main]
use collide2d::capi::*;
use collide2d::*;
use libfuzzer_sys::fuzz_target;

const SHAPE: usize = core::mem::size_of::<Shape>();

fn f32s(bytes: &[u8]) -> impl Iterator<Item = f32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
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
    }
});
