//! Optional Rust interop (features `serde`, `glam`, `mint`): value types round-trip through
//! serde bit for bit, hand-edited invalid data is refused on deserialize (never a corrupt
//! shape), and the glam/mint conversions agree with glam's own arithmetic.
#![cfg(all(feature = "serde", feature = "glam", feature = "mint", feature = "solver"))]
use collide2d::*;
use serde::{de::DeserializeOwned, Serialize};

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + core::fmt::Debug>(v: &T) -> String {
    let json = serde_json::to_string(v).unwrap();
    let back: T = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
    assert_eq!(&back, v, "{json}");
    json
}

fn shapes() -> Vec<Shape> {
    vec![
        Shape::Circle(Circle::new(Vec2::new(0.25, -1.5), 0.75).unwrap()),
        Shape::Capsule(Capsule::new(Vec2::new(-1.0, 0.1), Vec2::new(2.0, 0.3), 0.2).unwrap()),
        Shape::Polygon(
            Polygon::make_offset_box(1.0, 0.5, Vec2::new(0.3, 0.1), Rot::from_angle(0.7)).unwrap(),
        ),
        Shape::Polygon(
            Polygon::new_rounded(
                &(0..8)
                    .map(|i| Vec2::new((i as f32 * 0.785).cos() * 2.0, (i as f32 * 0.785).sin()))
                    .collect::<Vec<_>>(),
                0.1,
            )
            .unwrap(),
        ),
        Shape::ChainSegment(
            ChainSegment::new(
                Vec2::new(-1.0, 0.5),
                Vec2::new(0.0, 0.0),
                Vec2::new(2.0, 0.0),
                Vec2::new(3.0, -0.2),
            )
            .unwrap(),
        ),
    ]
}

#[test]
fn value_types_round_trip_bit_for_bit() {
    let xf = Transform::new(Vec2::new(1.5, -2.25), 0.3);
    round_trip(&Vec2::new(0.1, -3.0e7));
    round_trip(&Rot::from_angle(-2.0));
    round_trip(&xf);
    round_trip(&Aabb::new(Vec2::new(-1.0, -2.0), Vec2::new(3.0, 4.5)));
    round_trip(&Ray::new(Vec2::new(-5.0, 0.2), Vec2::new(10.0, 0.1)));
    for s in shapes() {
        round_trip(&s);
        round_trip(&s.mass(2.0));
    }
    let chain = Chain::closed(&[
        Vec2::new(0.0, 0.0),
        Vec2::new(4.0, 0.0),
        Vec2::new(4.0, 3.0),
        Vec2::new(0.0, 3.0),
    ])
    .unwrap();
    round_trip(&chain);
    round_trip(&Chain::open(&[Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(3.0, 1.0)]).unwrap());
    // Query outputs.
    let [a, b] = [shapes()[2], shapes()[1]];
    let xb = Transform::new(Vec2::new(1.9, -2.0), 0.2);
    let m = collide(&a, xf, &b, xb);
    assert!(m.count > 0);
    round_trip(&m);
    round_trip(&ray_cast(&a, xf, &Ray::new(Vec2::new(-5.0, -2.0), Vec2::new(12.0, 0.0))).unwrap());
    round_trip(&shape_cast(
        &a,
        xf,
        Vec2::ZERO,
        &b,
        Transform::from(Vec2::new(5.0, -2.0)),
        Vec2::new(-8.0, 0.0),
        0.0,
    ));
    round_trip(&shape_distance(
        &a,
        xf,
        &b,
        Transform::from(Vec2::new(5.0, -2.0)),
        &mut SimplexCache::default(),
    ));
    round_trip(&closest_point(&a, xf, Vec2::new(4.0, 4.0)).unwrap());
    round_trip(&Filter {
        category_bits: 2,
        mask_bits: 5,
        group_index: -3,
    });
    round_trip(&BodyDef::new(BodyKind::Dynamic, xf, shapes()[3]));
    round_trip(&MoveOptions::default());
}

/// Takes a valid value's JSON, edits it, and expects the deserialize to fail.
fn refused<T: Serialize + DeserializeOwned + core::fmt::Debug>(v: &T, edit: impl Fn(&mut serde_json::Value)) {
    let mut json = serde_json::to_value(v).unwrap();
    edit(&mut json);
    let r: Result<T, _> = serde_json::from_value(json.clone());
    assert!(r.is_err(), "accepted {json}: {r:?}");
}

#[test]
fn invalid_data_is_refused_on_deserialize() {
    let poly = match shapes()[2] {
        Shape::Polygon(p) => p,
        _ => unreachable!(),
    };
    // Clockwise winding: vertices reversed (normals reversed with them, still unit).
    refused(&poly, |j| {
        let n = j["count"].as_u64().unwrap() as usize;
        let v: Vec<_> = j["vertices"].as_array().unwrap()[..n].to_vec();
        for (i, x) in v.iter().rev().enumerate() {
            j["vertices"][i] = x.clone();
        }
    });
    // A normal that is not its edge's outward normal.
    refused(&poly, |j| {
        j["normals"][1] = serde_json::json!({"x": 0.0, "y": 1.0})
    });
    // A centroid outside the polygon.
    refused(&poly, |j| {
        j["centroid"] = serde_json::json!({"x": 50.0, "y": 0.0})
    });
    refused(&poly, |j| j["count"] = serde_json::json!(9));
    refused(&poly, |j| j["radius"] = serde_json::json!(-0.5));
    // Inside a Shape too.
    refused(&Shape::Polygon(poly), |j| {
        j["Polygon"]["count"] = serde_json::json!(2)
    });
    refused(&shapes()[0], |j| j["Circle"]["radius"] = serde_json::json!(-1.0));
    refused(&shapes()[1], |j| j["Capsule"]["radius"] = serde_json::json!(null));
    refused(&shapes()[4], |j| {
        j["ChainSegment"]["point2"] = j["ChainSegment"]["point1"].clone();
    });
    refused(&Rot::from_angle(0.4), |j| j["c"] = serde_json::json!(2.0));
    refused(&Transform::IDENTITY, |j| j["q"]["s"] = serde_json::json!(1.0));
    refused(&Aabb::new(Vec2::ZERO, Vec2::new(1.0, 1.0)), |j| {
        j["min"]["x"] = serde_json::json!(2.0)
    });
    refused(&Chain::open(&[Vec2::ZERO, Vec2::new(1.0, 0.0)]).unwrap(), |j| {
        j["points"] = serde_json::json!([{"x": 0.0, "y": 0.0}]);
    });
}

#[test]
fn glam_and_mint_conversions_agree_with_glam() {
    let xf = Transform::new(Vec2::new(3.0, -1.0), 0.9);
    let v = Vec2::new(0.7, 2.5);
    // glam's own affine arithmetic gives the same point (to rounding).
    let a: glam::Affine2 = xf.into();
    let p = a.transform_point2(v.into());
    let q = xf.apply(v);
    assert!((p.x - q.x).abs() < 1e-6 && (p.y - q.y).abs() < 1e-6, "{p} {q:?}");
    let m: glam::Mat2 = xf.q.into();
    let r = m * glam::Vec2::from(v);
    let s = xf.q.rotate(v);
    assert!((r.x - s.x).abs() < 1e-6 && (r.y - s.y).abs() < 1e-6);
    // Back exactly.
    assert_eq!(Transform::try_from(a), Ok(xf));
    assert_eq!(Rot::try_from(m), Ok(xf.q));
    assert_eq!(Vec2::from(glam::Vec2::from(v)), v);
    let b = Aabb::new(Vec2::new(-1.0, 0.0), Vec2::new(2.0, 3.0));
    assert_eq!(Aabb::from(<(glam::Vec2, glam::Vec2)>::from(b)), b);
    // Not rotations: a scale, a shear, a reflection.
    assert_eq!(
        Rot::try_from(glam::Mat2::from_diagonal(glam::Vec2::new(2.0, 2.0))),
        Err(interop::NotARotation)
    );
    assert_eq!(
        Rot::try_from(glam::Mat2::from_cols_array(&[1.0, 0.0, 0.5, 1.0])),
        Err(interop::NotARotation)
    );
    assert_eq!(
        Rot::try_from(glam::Mat2::from_cols_array(&[1.0, 0.0, 0.0, -1.0])),
        Err(interop::NotARotation)
    );
    // mint: the same numbers in its layout.
    let mm: mint::ColumnMatrix2x3<f32> = xf.into();
    assert_eq!(
        (mm.x.x, mm.x.y, mm.y.x, mm.y.y),
        (xf.q.c, xf.q.s, -xf.q.s, xf.q.c)
    );
    assert_eq!((mm.z.x, mm.z.y), (xf.p.x, xf.p.y));
    assert_eq!(Transform::try_from(mm), Ok(xf));
    assert_eq!(Vec2::from(mint::Point2::from(v)), v);
    assert_eq!(Vec2::from(mint::Vector2::from(v)), v);
    assert_eq!(Aabb::from(<(mint::Point2<f32>, mint::Point2<f32>)>::from(b)), b);
    let bad = mint::ColumnMatrix2 {
        x: mint::Vector2 { x: 1.0, y: 0.0 },
        y: mint::Vector2 { x: 0.0, y: -1.0 },
    };
    assert_eq!(Rot::try_from(bad), Err(interop::NotARotation));
}
