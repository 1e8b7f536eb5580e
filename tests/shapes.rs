//! Shapes: constructors and their errors, mass properties, bounds, containment, inflation and
//! the C-compatible layout of every value type.
mod common;
use collide2d::*;
use common::*;
use core::mem::{align_of, size_of};

#[test]
fn layout_matches_the_c_header() {
    assert_eq!(size_of::<Vec2>(), 8);
    assert_eq!(size_of::<Rot>(), 8);
    assert_eq!(size_of::<Transform>(), 16);
    assert_eq!(size_of::<Aabb>(), 16);
    assert_eq!(size_of::<Circle>(), 12);
    assert_eq!(size_of::<Capsule>(), 20);
    assert_eq!(size_of::<Polygon>(), 144);
    assert_eq!(size_of::<MassData>(), 16);
    assert_eq!(size_of::<ManifoldPoint>(), 16);
    assert_eq!(size_of::<Manifold>(), 44);
    // Tagged union: u32 tag then the largest member.
    assert_eq!(size_of::<Shape>(), 148);
    assert_eq!(align_of::<Shape>(), 4);
    assert_eq!(size_of::<GeometryError>(), 4);
    // Pod: a vertex buffer casts to points without a copy.
    let raw: [f32; 4] = [1.0, 2.0, 3.0, 4.0];
    let pts: &[Vec2] = bytemuck::cast_slice(&raw);
    assert_eq!(pts[1], v(3.0, 4.0));
}

#[test]
fn hull_errors_are_named() {
    assert_eq!(
        Polygon::new(&[v(0.0, 0.0), v(1.0, 0.0)]),
        Err(GeometryError::TooFewPoints)
    );
    assert_eq!(
        Polygon::new(&[v(0.0, 0.0), v(1.0, 0.0), v(0.0, 0.0)]),
        Err(GeometryError::TooFewPoints)
    );
    assert_eq!(
        Polygon::new(&[v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0), v(3.0, 3.0)]),
        Err(GeometryError::Collinear)
    );
    assert_eq!(
        Polygon::new(&[v(0.0, 0.0), v(1.0, 0.0), v(f32::NAN, 1.0)]),
        Err(GeometryError::NonFinite)
    );
    assert_eq!(
        Polygon::new(&[v(0.0, 0.0), v(1.0, 0.0), v(f32::INFINITY, 1.0)]),
        Err(GeometryError::NonFinite)
    );
    // Finite but too far apart for f32 arithmetic: named for what it is, not "non-finite"
    // (1e30 was reported as NonFinite). 1e18 still works; the limit is about 1.3e19.
    assert_eq!(
        Polygon::new(&[v(-1e30, 0.0), v(1e30, 0.0), v(0.0, 1e30)]),
        Err(GeometryError::OutOfRange)
    );
    assert_eq!(Polygon::make_box(1e30, 1e30), Err(GeometryError::OutOfRange));
    assert_eq!(
        Polygon::from_aabb(Aabb::new(v(-3e38, 0.0), v(3e38, 1.0))),
        Err(GeometryError::OutOfRange)
    );
    assert!(Polygon::new(&[v(-1e18, 0.0), v(1e18, 0.0), v(0.0, 1e18)]).is_ok());
    assert_eq!(
        GeometryError::OutOfRange.to_string(),
        "points too far apart: their extent overflows f32"
    );
    assert_eq!(Polygon::new(&[v(0.0, 0.0); 9]), Err(GeometryError::TooManyPoints));
    assert_eq!(
        Polygon::new_rounded(&[v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)], -0.1),
        Err(GeometryError::NegativeRadius)
    );
    assert_eq!(Polygon::make_box(0.0, 1.0), Err(GeometryError::InvalidExtent));
    assert_eq!(Polygon::make_box(f32::NAN, 1.0), Err(GeometryError::NonFinite));
    assert_eq!(Circle::new(Vec2::ZERO, -1.0), Err(GeometryError::NegativeRadius));
    assert_eq!(
        Capsule::new(Vec2::ZERO, v(f32::NAN, 0.0), 1.0),
        Err(GeometryError::NonFinite)
    );
}

#[test]
fn hull_welds_drops_collinear_and_orders_ccw() {
    // A square given clockwise with a duplicate corner (1e-6 away), an edge midpoint and an
    // interior point: the hull is the 4 corners, CCW.
    let pts = [
        v(0.0, 0.0),
        v(0.0, 1.0),
        v(1.0, 1.0),
        v(1.0, 0.0),
        v(1.0, 1e-6),
        v(0.5, 0.0),
        v(0.5, 0.5),
    ];
    let p = Polygon::new(&pts).unwrap();
    assert_eq!(p.count, 4);
    let verts = p.vertices();
    for i in 0..4 {
        let e0 = verts[(i + 1) % 4] - verts[i];
        let e1 = verts[(i + 2) % 4] - verts[(i + 1) % 4];
        assert!(e0.cross(e1) > 0.0, "not CCW");
        // Normals are outward units perpendicular to their edge.
        assert!((p.normals[i].length() - 1.0).abs() < 1e-6);
        assert!(p.normals[i].dot(e0).abs() < 1e-6);
        assert!(p.normals[i].dot(p.centroid - verts[i]) < 0.0);
    }
    assert!((p.centroid - v(0.5, 0.5)).length() < 1e-6);
    // Same at scale 1e4 and 1e-2: tolerances are relative.
    for s in [1e-2f32, 1e4] {
        let scaled: Vec<Vec2> = pts.iter().map(|&q| q * s).collect();
        assert_eq!(Polygon::new(&scaled).unwrap().count, 4, "scale {s}");
    }
    // An 8-gon keeps all 8 vertices.
    let oct: Vec<Vec2> = (0..8)
        .map(|i| Rot::from_angle(i as f32 * core::f32::consts::FRAC_PI_4).x_axis())
        .collect();
    assert_eq!(Polygon::new(&oct).unwrap().count, 8);
}

#[test]
fn box_makers() {
    let b = Polygon::make_offset_box(
        2.0,
        1.0,
        v(3.0, 4.0),
        Rot::from_angle(core::f32::consts::FRAC_PI_2),
    )
    .unwrap();
    // Rotated 90°: x extent 1, y extent 2 around (3, 4).
    let bb = b.aabb(Transform::IDENTITY);
    assert!((bb.min - v(2.0, 2.0)).length() < 1e-5 && (bb.max - v(4.0, 6.0)).length() < 1e-5);
    assert_eq!(b.centroid, v(3.0, 4.0));
    let r = Polygon::make_rounded_box(1.0, 1.0, 0.25).unwrap();
    assert_eq!(r.radius, 0.25);
    let a = Polygon::from_aabb(Aabb::new(v(-1.0, 2.0), v(3.0, 5.0))).unwrap();
    assert_eq!(
        a.vertices(),
        &[v(-1.0, 2.0), v(3.0, 2.0), v(3.0, 5.0), v(-1.0, 5.0)]
    );
    assert_eq!(
        Polygon::from_aabb(Aabb::new(v(0.0, 0.0), v(0.0, 1.0))),
        Err(GeometryError::InvalidExtent)
    );
}

/// Numerical mass properties of any shape by sampling a fine grid (independent of the code
/// under test except for `contains_point`, itself checked below against closed forms).
fn sampled_mass(s: &Shape, n: usize) -> (f64, (f64, f64), f64) {
    let bb = s.aabb(Transform::IDENTITY);
    let (w, h) = ((bb.max.x - bb.min.x) as f64, (bb.max.y - bb.min.y) as f64);
    let (dx, dy) = (w / n as f64, h / n as f64);
    let (mut m, mut cx, mut cy, mut i0) = (0.0, 0.0, 0.0, 0.0);
    for i in 0..n {
        for j in 0..n {
            let x = bb.min.x as f64 + (i as f64 + 0.5) * dx;
            let y = bb.min.y as f64 + (j as f64 + 0.5) * dy;
            if s.contains_point(Transform::IDENTITY, v(x as f32, y as f32)) {
                let a = dx * dy;
                m += a;
                cx += a * x;
                cy += a * y;
                i0 += a * (x * x + y * y);
            }
        }
    }
    let (cx, cy) = (cx / m, cy / m);
    (m, (cx, cy), i0 - m * (cx * cx + cy * cy))
}

#[test]
fn mass_properties_closed_forms() {
    // Circle r 2, density 3: m = 3π·4 = 12π, I = m r²/2 = 24π.
    let c = Circle::new(v(1.0, 2.0), 2.0).unwrap().mass(3.0);
    assert!((c.mass - 12.0 * core::f32::consts::PI).abs() < 1e-4);
    assert!((c.rotational_inertia - 24.0 * core::f32::consts::PI).abs() < 1e-3);
    assert_eq!(c.center, v(1.0, 2.0));
    // Box 2×1 half extents, density 1: m = 8, I = m (w² + h²)/12 = 8 (16 + 4)/12.
    let b = Polygon::make_box(2.0, 1.0).unwrap().mass(1.0);
    assert!((b.mass - 8.0).abs() < 1e-5);
    assert!((b.rotational_inertia - 8.0 * 20.0 / 12.0).abs() < 1e-4);
    // Capsule length 2, r .5: area = 2·2·.5 + π/4.
    let k = Capsule::new(v(-1.0, 0.0), v(1.0, 0.0), 0.5).unwrap().mass(1.0);
    assert!((k.mass - (2.0 + core::f32::consts::PI / 4.0)).abs() < 1e-5);
    // Rounded box core half (1, .5), r .2: area = 2·1 + 2·.2·(2 + 1)·2/2... = core 2 + strips
    // perimeter 6 × .2 = 1.2 + π·.04.
    let r = Polygon::make_rounded_box(1.0, 0.5, 0.2).unwrap().mass(1.0);
    assert!((r.mass - (2.0 + 1.2 + core::f32::consts::PI * 0.04)).abs() < 1e-5);
}

#[test]
fn mass_properties_match_numerical_integration() {
    let mut rng = Rng(77);
    let shapes = [
        Shape::Capsule(Capsule::new(v(-1.0, 0.3), v(1.0, -0.2), 0.5).unwrap()),
        Shape::Polygon(Polygon::make_rounded_box(1.0, 0.5, 0.2).unwrap()),
        Shape::Polygon(random_polygon(&mut rng, 1.0, 6, 0.3)),
        Shape::Polygon(random_polygon(&mut rng, 1.0, 5, 0.0)),
    ];
    for s in &shapes {
        let md = s.mass(1.0);
        let (m, c, i) = sampled_mass(s, 1500);
        assert!(
            (md.mass as f64 - m).abs() / m < 2e-3,
            "mass {} vs {m} for {s:?}",
            md.mass
        );
        assert!((md.center.x as f64 - c.0).abs() < 2e-3 && (md.center.y as f64 - c.1).abs() < 2e-3);
        assert!(
            (md.rotational_inertia as f64 - i).abs() / i < 3e-3,
            "inertia {} vs {i}",
            md.rotational_inertia
        );
    }
}

#[test]
fn world_aabbs() {
    let xf = Transform::new(v(10.0, -5.0), core::f32::consts::FRAC_PI_2);
    let c = Shape::Circle(Circle::new(v(1.0, 0.0), 0.5).unwrap()).aabb(xf);
    // Centre (1,0) rotated 90° → (0,1) + (10,−5) = (10,−4).
    assert!((c.center() - v(10.0, -4.0)).length() < 1e-5 && (c.half_extents() - v(0.5, 0.5)).length() < 1e-5);
    let k = Shape::Capsule(Capsule::new(v(0.0, 0.0), v(2.0, 0.0), 0.5).unwrap()).aabb(xf);
    assert!((k.min - v(9.5, -5.5)).length() < 1e-5 && (k.max - v(10.5, -2.5)).length() < 1e-5);
    let p = Shape::Polygon(Polygon::make_rounded_box(1.0, 2.0, 0.5).unwrap()).aabb(xf);
    assert!((p.half_extents() - v(2.5, 1.5)).length() < 1e-5);
}

#[test]
fn point_containment_boundary_counts() {
    let b = Shape::Polygon(Polygon::make_box(1.0, 1.0).unwrap());
    let xf = Transform::new(v(5.0, 5.0), 0.0);
    assert!(b.contains_point(xf, v(6.0, 5.0)));
    assert!(!b.contains_point(xf, v(6.001, 5.0)));
    let r = Shape::Polygon(Polygon::make_rounded_box(1.0, 1.0, 0.5).unwrap());
    // Corner region: (1,1) + .5 (1,1)/√2 is on the surface; a bit further is out.
    assert!(r.contains_point(Transform::IDENTITY, v(1.35, 1.35)));
    assert!(!r.contains_point(Transform::IDENTITY, v(1.36, 1.36)));
    assert!(r.contains_point(Transform::IDENTITY, v(1.5, 0.0)));
    let k = Shape::Capsule(Capsule::new(v(0.0, 0.0), v(2.0, 0.0), 0.5).unwrap());
    assert!(k.contains_point(Transform::IDENTITY, v(2.5, 0.0)));
    assert!(!k.contains_point(Transform::IDENTITY, v(2.51, 0.0)));
    assert!(!k.contains_point(Transform::IDENTITY, v(f32::NAN, 0.0)));
}

#[test]
fn inflate_and_deflate() {
    let c = Shape::Circle(Circle::new(Vec2::ZERO, 1.0).unwrap());
    assert_eq!(c.inflated(0.5).unwrap().radius(), 1.5);
    assert_eq!(c.inflated(-2.0), Err(GeometryError::Collapsed));
    let b = Polygon::make_box(1.0, 1.0).unwrap();
    assert_eq!(b.inflated(0.25).unwrap().radius, 0.25);
    // Deflating a sharp box by .25 moves every edge in: half extents .75.
    let d = b.inflated(-0.25).unwrap();
    assert_eq!(d.radius, 0.0);
    let bb = d.aabb(Transform::IDENTITY);
    assert!((bb.min - v(-0.75, -0.75)).length() < 1e-5 && (bb.max - v(0.75, 0.75)).length() < 1e-5);
    // A rounded box first loses its rounding.
    let r = Polygon::make_rounded_box(1.0, 1.0, 0.5)
        .unwrap()
        .inflated(-0.25)
        .unwrap();
    assert_eq!(r.radius, 0.25);
    assert_eq!(r.count, 4);
    // A thin box collapses; a triangle loses its short side's neighbourhood but stays valid.
    assert_eq!(
        Polygon::make_box(1.0, 0.1).unwrap().inflated(-0.2),
        Err(GeometryError::Collapsed)
    );
    let t = Polygon::new(&[v(0.0, 0.0), v(4.0, 0.0), v(0.0, 3.0)])
        .unwrap()
        .inflated(-0.5)
        .unwrap();
    // Inradius of the 3-4-5 triangle is 1: deflating by .5 leaves a similar triangle scaled by
    // 1/2 about the incentre (1,1): vertices (.5,.5), (2.5,.5), (.5,2).
    let mut got: Vec<(i32, i32)> = t
        .vertices()
        .iter()
        .map(|p| ((p.x * 100.0).round() as i32, (p.y * 100.0).round() as i32))
        .collect();
    got.sort();
    assert_eq!(got, vec![(50, 50), (50, 200), (250, 50)]);
    assert_eq!(b.inflated(f32::NAN), Err(GeometryError::NonFinite));
}

#[test]
fn transform_validity() {
    let ok = Transform::new(v(3.0, -4.0), 0.7);
    assert!(ok.is_valid());
    assert!(Transform::new(v(1.0e38, -3.0e38), 2.0).is_valid());
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert!(!Transform { p: v(bad, 0.0), ..ok }.is_valid(), "{bad}");
        assert!(!Transform { p: v(0.0, bad), ..ok }.is_valid(), "{bad}");
        assert!(
            !Transform {
                q: Rot { c: bad, s: 0.0 },
                ..ok
            }
            .is_valid(),
            "{bad}"
        );
        assert!(
            !Transform {
                q: Rot { c: 1.0, s: bad },
                ..ok
            }
            .is_valid(),
            "{bad}"
        );
    }
    // The rotation must be unit length within 1e-3 (squared norm).
    assert!(Transform {
        q: Rot { c: 1.0004, s: 0.0 },
        ..ok
    }
    .is_valid());
    assert!(!Transform {
        q: Rot { c: 1.01, s: 0.0 },
        ..ok
    }
    .is_valid());
    assert!(!Transform {
        q: Rot { c: 0.0, s: 0.0 },
        ..ok
    }
    .is_valid());
}

/// `Polygon::is_valid` (what the C ABI checks on entry) accepts everything the constructors
/// make, at scales 0.01 … 10 000, and refuses hand-filled polygons that break any promise:
/// wrong count, non-finite data, clockwise or non-convex or self-intersecting (a pentagram
/// turns left at every vertex but winds twice), duplicate vertices, denormal coordinates whose
/// edges vanish, and normals that are scaled, inward or not perpendicular.
#[test]
fn polygon_validity_accepts_every_made_polygon_and_refuses_broken_ones() {
    let mut rng = Rng(31);
    for scale in [0.01f32, 1.0, 100.0, 10_000.0] {
        for n in 3..=8 {
            for _ in 0..200 {
                let p = random_polygon(&mut rng, scale, n, 0.0);
                assert!(p.is_valid(), "{p:?}");
                let r = random_polygon(&mut rng, scale, n, 0.1 * scale);
                assert!(r.is_valid(), "{r:?}");
                if let Ok(d) = r.inflated(-0.2 * scale) {
                    assert!(d.is_valid(), "{d:?}");
                }
            }
        }
        for _ in 0..200 {
            let b = Polygon::make_offset_rounded_box(
                rng.range(0.1, 1.0) * scale,
                rng.range(0.1, 1.0) * scale,
                rng.vec(scale),
                Rot::from_angle(rng.range(-3.2, 3.2)),
                rng.range(0.0, 0.1) * scale,
            )
            .unwrap();
            assert!(b.is_valid(), "{b:?}");
            let lo = rng.vec(scale);
            let a = Polygon::from_aabb(Aabb::new(lo, lo + v(0.5, 0.25) * scale)).unwrap();
            assert!(a.is_valid());
        }
    }
    let good = Polygon::make_box(1.0, 0.5).unwrap();
    let broken = |f: &dyn Fn(&mut Polygon)| {
        let mut p = good;
        f(&mut p);
        p
    };
    let cases: Vec<(&str, Polygon)> = vec![
        ("count 2", broken(&|p| p.count = 2)),
        ("count 9", broken(&|p| p.count = 9)),
        ("NaN vertex", broken(&|p| p.vertices[1].x = f32::NAN)),
        ("infinite radius", broken(&|p| p.radius = f32::INFINITY)),
        ("negative radius", broken(&|p| p.radius = -0.1)),
        ("NaN centroid", broken(&|p| p.centroid.y = f32::NAN)),
        ("scaled normal", broken(&|p| p.normals[2] *= 4.5e11)),
        ("inward normal", broken(&|p| p.normals[0] = -p.normals[0])),
        ("tilted normal", broken(&|p| p.normals[1] = v(0.999, 0.0447))),
        (
            "clockwise",
            broken(&|p| {
                p.vertices.swap(1, 3);
            }),
        ),
        ("duplicate vertex", broken(&|p| p.vertices[2] = p.vertices[1])),
        (
            "denormal",
            broken(&|p| {
                for w in &mut p.vertices[..4] {
                    *w *= 1e-40;
                }
            }),
        ),
        ("reflex vertex", broken(&|p| p.vertices[2] = v(0.0, -0.25))),
    ];
    for (name, p) in &cases {
        assert!(!p.is_valid(), "{name} accepted: {p:?}");
    }
    // A pentagram: every turn is to the left, but the edges wind twice around.
    let mut star = Polygon {
        vertices: [Vec2::ZERO; 8],
        normals: [Vec2::ZERO; 8],
        centroid: Vec2::ZERO,
        radius: 0.0,
        count: 5,
    };
    for i in 0..5 {
        let a = (i as f32) * 2.0 * 2.0 * std::f32::consts::PI / 5.0;
        star.vertices[i] = v(a.cos(), a.sin());
    }
    for i in 0..5 {
        let e = star.vertices[(i + 1) % 5] - star.vertices[i];
        star.normals[i] = v(e.y, -e.x) * (1.0 / e.length());
    }
    assert!(!star.is_valid(), "a pentagram winds twice");
    // The same points in convex order are fine.
    let conv: Vec<Vec2> = (0..5).map(|i| star.vertices[(i * 3) % 5]).collect();
    assert!(Polygon::new(&conv).unwrap().is_valid());
    assert!(good.is_valid());
}

/// The infallible makers give exactly what the fallible constructors give, in const context
/// too; the accessors, conversions and error traits a Rust caller expects exist.
#[test]
fn shortcuts_accessors_conversions_and_errors() {
    const BALL: Shape = Shape::circle(0.4);
    const WALL: Shape = Shape::rect(2.0, 0.5);
    const PILL: Shape = Shape::capsule(Vec2::new(0.0, -0.5), Vec2::new(0.0, 0.5), 0.25);
    assert_eq!(BALL, Shape::Circle(Circle::new(Vec2::ZERO, 0.4).unwrap()));
    assert_eq!(WALL, Shape::Polygon(Polygon::make_box(2.0, 0.5).unwrap()));
    assert_eq!(
        PILL,
        Shape::Capsule(Capsule::new(v(0.0, -0.5), v(0.0, 0.5), 0.25).unwrap())
    );
    assert_eq!(
        Shape::segment(v(1.0, 2.0), v(3.0, 4.0)),
        Shape::Capsule(Capsule::segment(v(1.0, 2.0), v(3.0, 4.0)).unwrap())
    );
    assert_eq!(
        Shape::circle_at(v(1.0, 2.0), 3.0),
        Shape::Circle(Circle::new(v(1.0, 2.0), 3.0).unwrap())
    );
    assert!(WALL.as_polygon().unwrap().is_valid());
    assert_eq!(BALL.as_circle().unwrap().radius, 0.4);
    assert!(BALL.as_polygon().is_none() && BALL.as_capsule().is_none());
    assert_eq!(PILL.as_capsule().unwrap().radius, 0.25);
    assert!(PILL.as_circle().is_none() && WALL.as_capsule().is_none());
    // Bad constants panic with a message.
    for bad in [
        std::panic::catch_unwind(|| Shape::circle(-1.0)),
        std::panic::catch_unwind(|| Shape::circle(f32::NAN)),
        std::panic::catch_unwind(|| Shape::rect(0.0, 1.0)),
        std::panic::catch_unwind(|| Shape::rect(1.0, f32::INFINITY)),
        std::panic::catch_unwind(|| Shape::capsule(v(f32::NAN, 0.0), v(1.0, 0.0), 0.1)),
    ] {
        assert!(bad.is_err());
    }
    // Conversions.
    assert_eq!(Vec2::from((1.0, 2.0)), v(1.0, 2.0));
    assert_eq!(Vec2::from([1.0, 2.0]), v(1.0, 2.0));
    assert_eq!(<[f32; 2]>::from(v(3.0, 4.0)), [3.0, 4.0]);
    assert_eq!(Transform::from(v(3.0, 4.0)), at(3.0, 4.0));
    assert_eq!(v(3.0, 4.0).normalize_or_zero(), v(0.6, 0.8));
    assert_eq!(Vec2::ZERO.normalize_or_zero(), Vec2::ZERO);
    assert_eq!(v(f32::NAN, 1.0).normalize_or_zero(), Vec2::ZERO);
    // max_depth: None without contact, the deepest point otherwise.
    let m = collide(&WALL, Transform::IDENTITY, &BALL, at(0.0, 0.8));
    assert_eq!(m.count, 1);
    assert!((m.max_depth().unwrap() - 0.1).abs() < 1e-6);
    assert_eq!(
        collide(&WALL, Transform::IDENTITY, &BALL, at(0.0, 5.0)).max_depth(),
        None
    );
    // Every error type is a `core::error::Error` with a message, so `?` into a boxed error works.
    fn boxed() -> Result<(), Box<dyn std::error::Error>> {
        Polygon::make_box(-1.0, 1.0)?;
        Ok(())
    }
    assert_eq!(
        boxed().unwrap_err().to_string(),
        "box half extent must be positive"
    );
    let errors: [&dyn std::error::Error; 2] = [&GeometryError::Collinear, &TreeError::InvalidProxy];
    for e in errors {
        assert!(!e.to_string().is_empty());
    }
    // The solver's errors exist with the `solver` feature.
    #[cfg(feature = "solver")]
    for e in [
        SolverError::InvalidStep,
        SolverError::InvalidShape,
        SolverError::OutOfRange,
        SolverError::Unsupported,
    ] {
        let e: &dyn std::error::Error = &e;
        assert!(!e.to_string().is_empty());
    }
}
