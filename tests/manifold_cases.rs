//! Hand-derived scenarios for every pair of kinds, including the degenerate ones.
//! Expected values are worked out on paper in the comment above each assertion.
mod common;
use collide2d::*;
use common::{at, v};

const EPS: f32 = 1e-5;

macro_rules! ensure_small {
    ($a:expr, $b:expr) => {
        assert!(
            ($a - $b).abs() <= EPS,
            "{} = {} but expected {}",
            stringify!($a),
            $a,
            $b
        )
    };
    ($a:expr, $b:expr, $tol:expr) => {
        assert!(
            ($a - $b).abs() <= $tol,
            "{} = {} but expected {}",
            stringify!($a),
            $a,
            $b
        )
    };
}

fn circle(r: f32) -> Shape {
    Shape::Circle(Circle::new(Vec2::ZERO, r).unwrap())
}
fn boxs(hx: f32, hy: f32) -> Shape {
    Shape::Polygon(Polygon::make_box(hx, hy).unwrap())
}
fn capsule(a: Vec2, b: Vec2, r: f32) -> Shape {
    Shape::Capsule(Capsule::new(a, b, r).unwrap())
}
fn check_agrees(a: &Shape, xa: Transform, b: &Shape, xb: Transform) -> Manifold {
    let m = collide(a, xa, b, xb);
    assert_eq!(
        overlaps(a, xa, b, xb),
        m.count > 0,
        "overlaps and collide disagree"
    );
    m
}
fn sorted_points(m: &Manifold) -> Vec<ManifoldPoint> {
    let mut p = m.points().to_vec();
    p.sort_by(|a, b| {
        a.point
            .x
            .partial_cmp(&b.point.x)
            .unwrap()
            .then(a.point.y.partial_cmp(&b.point.y).unwrap())
    });
    p
}

#[test]
fn circles_overlapping() {
    // r 1 at 0 and r 0.5 at (1.2, 0): depth 1.5 - 1.2 = 0.3, normal +x, surfaces at x = 1 and
    // x = 0.7, midpoint 0.85.
    let m = check_agrees(&circle(1.0), at(0.0, 0.0), &circle(0.5), at(1.2, 0.0));
    assert_eq!(m.count, 1);
    ensure_small!(m.normal.x, 1.0);
    ensure_small!(m.points[0].depth, 0.3);
    ensure_small!(m.points[0].point.x, 0.85);
    ensure_small!(m.points[0].point.y, 0.0);
}

#[test]
fn circles_coincident_centres_use_a_x_axis() {
    // Same centre; A rotated by 90°: A's local +x is world +y. Depth = r1 + r2 = 1.5.
    let m = check_agrees(
        &circle(1.0),
        Transform::new(v(3.0, 4.0), core::f32::consts::FRAC_PI_2),
        &circle(0.5),
        at(3.0, 4.0),
    );
    assert_eq!(m.count, 1);
    ensure_small!(m.normal.x, 0.0);
    ensure_small!(m.normal.y, 1.0);
    ensure_small!(m.points[0].depth, 1.5);
}

#[test]
fn exactly_touching_counts_everywhere() {
    // Circles: 1 + 1 = distance 2 exactly.
    let m = check_agrees(&circle(1.0), at(0.0, 0.0), &circle(1.0), at(2.0, 0.0));
    assert_eq!(m.count, 1);
    assert_eq!(m.points[0].depth, 0.0);
    // Box half 1 and circle r 0.5 at x = 1.5: touching the +x face.
    let m = check_agrees(&boxs(1.0, 1.0), at(0.0, 0.0), &circle(0.5), at(1.5, 0.0));
    assert_eq!(m.count, 1);
    assert_eq!(m.points[0].depth, 0.0);
    // Two unit boxes side by side: face contact, two points at depth 0.
    let m = check_agrees(&boxs(1.0, 1.0), at(0.0, 0.0), &boxs(1.0, 1.0), at(2.0, 0.0));
    assert_eq!(m.count, 2);
    assert!(m.points().iter().all(|p| p.depth == 0.0));
    // Capsules end to end: (−1,0)–(1,0) r 0.5 and (2,0)–(3,0) r 0.5.
    let m = check_agrees(
        &capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.5),
        at(0.0, 0.0),
        &capsule(v(2.0, 0.0), v(3.0, 0.0), 0.5),
        at(0.0, 0.0),
    );
    assert_eq!(m.count, 1);
    assert_eq!(m.points[0].depth, 0.0);
    // One ulp further apart: no contact anywhere.
    let m = check_agrees(&circle(1.0), at(0.0, 0.0), &circle(1.0), at(2.0000002, 0.0));
    assert_eq!(m.count, 0);
}

#[test]
fn capsule_circle_side_and_centre_on_segment() {
    // Capsule (−1,0)–(1,0) r 0.5; circle r 0.5 at (0, 0.8): depth 0.2, normal +y,
    // surfaces at y = 0.5 and 0.3, midpoint 0.4.
    let cap = capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.5);
    let m = check_agrees(&cap, at(0.0, 0.0), &circle(0.5), at(0.0, 0.8));
    assert_eq!(m.count, 1);
    ensure_small!(m.normal.y, 1.0);
    ensure_small!(m.points[0].depth, 0.2);
    ensure_small!(m.points[0].point.y, 0.4);
    // Circle centre exactly on the core segment: documented left normal of (1,0) = +y, depth 1.
    let m = check_agrees(&cap, at(0.0, 0.0), &circle(0.5), at(0.3, 0.0));
    ensure_small!(m.normal.y, 1.0);
    ensure_small!(m.points[0].depth, 1.0);
    // Beyond the end cap: circle at (1.8, 0): distance 0.8, depth 0.2, normal +x.
    let m = check_agrees(&cap, at(0.0, 0.0), &circle(0.5), at(1.8, 0.0));
    ensure_small!(m.normal.x, 1.0);
    ensure_small!(m.points[0].depth, 0.2);
    // Flipped order gives the negated normal and the same depth.
    let f = check_agrees(&circle(0.5), at(1.8, 0.0), &cap, at(0.0, 0.0));
    ensure_small!(f.normal.x, -1.0);
    ensure_small!(f.points[0].depth, 0.2);
}

#[test]
fn polygon_circle_face_vertex_inside_corner() {
    let b = boxs(1.0, 1.0);
    // Face region: circle r .5 at (1.3, .2): depth .2, normal +x, point x = (1 + .8)/2 = .9.
    let m = check_agrees(&b, at(0.0, 0.0), &circle(0.5), at(1.3, 0.2));
    ensure_small!(m.normal.x, 1.0);
    ensure_small!(m.points[0].depth, 0.2);
    ensure_small!(m.points[0].point.x, 0.9);
    ensure_small!(m.points[0].point.y, 0.2);
    // Vertex region: centre (1.3, 1.3): distance to corner √0.18 = 0.424264, depth 0.075736,
    // normal (1,1)/√2.
    let m = check_agrees(&b, at(0.0, 0.0), &circle(0.5), at(1.3, 1.3));
    ensure_small!(m.normal.x, core::f32::consts::FRAC_1_SQRT_2);
    ensure_small!(m.normal.y, core::f32::consts::FRAC_1_SQRT_2);
    ensure_small!(m.points[0].depth, 0.5 - 0.18f32.sqrt());
    // Centre inside: (0.8, 0.1) is 0.2 inside the +x face (least penetration); depth 0.7.
    let m = check_agrees(&b, at(0.0, 0.0), &circle(0.5), at(0.8, 0.1));
    ensure_small!(m.normal.x, 1.0);
    ensure_small!(m.points[0].depth, 0.7);
    // Corner exactly on the circle centre: faces +x (edge 1) and +y tie at separation 0; the
    // first (edge 1, +x) wins; depth is the radius.
    let m = check_agrees(&b, at(0.0, 0.0), &circle(0.5), at(1.0, 1.0));
    ensure_small!(m.normal.x, 1.0);
    ensure_small!(m.points[0].depth, 0.5);
    assert_eq!(m.points[0].id, 0x8100);
}

#[test]
fn capsules_parallel_give_two_points() {
    // A (−1,0)–(1,0) r .25; B (−.5,.4)–(1.5,.4) r .25. Overlap of projections x ∈ [−.5, 1].
    // Gap between cores 0.4, depth 0.5 − 0.4 = 0.1, normal +y, points at y = (.25 + .15)/2 = .2.
    let m = check_agrees(
        &capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.25),
        at(0.0, 0.0),
        &capsule(v(-0.5, 0.4), v(1.5, 0.4), 0.25),
        at(0.0, 0.0),
    );
    assert_eq!(m.count, 2);
    ensure_small!(m.normal.y, 1.0);
    let p = sorted_points(&m);
    ensure_small!(p[0].point.x, -0.5);
    ensure_small!(p[1].point.x, 1.0);
    for q in &p {
        ensure_small!(q.point.y, 0.2);
        ensure_small!(q.depth, 0.1);
    }
    assert_ne!(p[0].id, p[1].id);
}

#[test]
fn capsules_crossing_cores() {
    // A (−1,0)–(1,0) r .1; B (.3,−.3)–(.3,1) r .1. Cores cross; pushing B up by .3 clears
    // the cores, plus .2 for the radii: depth .5 along +y (SAT over the segment normals is exact).
    let m = check_agrees(
        &capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.1),
        at(0.0, 0.0),
        &capsule(v(0.3, -0.3), v(0.3, 1.0), 0.1),
        at(0.0, 0.0),
    );
    assert_eq!(m.count, 1);
    ensure_small!(m.normal.y, 1.0);
    ensure_small!(m.points[0].depth, 0.5);
}

#[test]
fn box_on_box_two_points_with_stable_ids() {
    // A half 1 at 0; B half .5 at (.2, 1.4): B's bottom at y = .9, depth .1, normal +y;
    // clipped x range [−.3, .7], points at y = (1 + .9)/2 = .95.
    let a = boxs(1.0, 1.0);
    let b = boxs(0.5, 0.5);
    let m = check_agrees(&a, at(0.0, 0.0), &b, at(0.2, 1.4));
    assert_eq!(m.count, 2);
    ensure_small!(m.normal.y, 1.0);
    let p = sorted_points(&m);
    ensure_small!(p[0].point.x, -0.3);
    ensure_small!(p[1].point.x, 0.7);
    for q in &p {
        ensure_small!(q.point.y, 0.95);
        ensure_small!(q.depth, 0.1);
    }
    // Sliding B a little keeps the same feature ids (warm starting).
    let m2 = check_agrees(&a, at(0.0, 0.0), &b, at(0.25, 1.41));
    let ids1: Vec<u32> = sorted_points(&m).iter().map(|p| p.id).collect();
    let ids2: Vec<u32> = sorted_points(&m2).iter().map(|p| p.id).collect();
    assert_eq!(ids1, ids2);
    // Reference face is A's +y face (edge 2): high byte 0x82.
    assert!(ids1.iter().all(|id| id >> 8 == 0x82));
}

#[test]
fn diamond_corner_poking_a_face() {
    // B: half .5 box rotated 45° at (0, 1.6); its lowest corner at 1.6 − .5√2 = 0.892893.
    // Depth 1 − .892893 = .107107 at x = 0, one point at y = (1 + .892893)/2.
    let b = Shape::Polygon(
        Polygon::make_offset_box(
            0.5,
            0.5,
            Vec2::ZERO,
            Rot::from_angle(core::f32::consts::FRAC_PI_4),
        )
        .unwrap(),
    );
    let m = check_agrees(&boxs(1.0, 1.0), at(0.0, 0.0), &b, at(0.0, 1.6));
    assert_eq!(m.count, 1);
    let low = 1.6 - 0.5 * core::f32::consts::SQRT_2;
    ensure_small!(m.normal.y, 1.0);
    ensure_small!(m.points[0].depth, 1.0 - low);
    ensure_small!(m.points[0].point.x, 0.0);
    ensure_small!(m.points[0].point.y, 0.5 * (1.0 + low));
}

#[test]
fn capsule_lying_on_a_face_gives_two_points() {
    // Box half (2, .5); capsule (−1,.7)–(1,.7) r .25: bottom at .45, depth .05, points at
    // x = ±1, y = (.5 + .45)/2 = .475.
    let m = check_agrees(
        &boxs(2.0, 0.5),
        at(0.0, 0.0),
        &capsule(v(-1.0, 0.7), v(1.0, 0.7), 0.25),
        at(0.0, 0.0),
    );
    assert_eq!(m.count, 2);
    ensure_small!(m.normal.y, 1.0);
    let p = sorted_points(&m);
    ensure_small!(p[0].point.x, -1.0);
    ensure_small!(p[1].point.x, 1.0);
    for q in &p {
        ensure_small!(q.point.y, 0.475);
        ensure_small!(q.depth, 0.05);
    }
}

#[test]
fn capsule_core_crossing_a_polygon() {
    // Capsule (0,−2)–(0,2) r .1 through the middle of a half-1 box. Least push: sideways by
    // 1 (to the face) + .1 (radius) = 1.1 along ±x; tie between A's faces and the capsule's
    // sides resolves to A's first best face, edge 1 (+x). Clipped to y ∈ [−1, 1]; points at
    // x = (1 + (−.1))/2 = .45.
    let m = check_agrees(
        &boxs(1.0, 1.0),
        at(0.0, 0.0),
        &capsule(v(0.0, -2.0), v(0.0, 2.0), 0.1),
        at(0.0, 0.0),
    );
    assert_eq!(m.count, 2);
    ensure_small!(m.normal.x, 1.0);
    let p = sorted_points(&m);
    for (q, y) in p.iter().zip([-1.0, 1.0]) {
        ensure_small!(q.depth, 1.1);
        ensure_small!(q.point.x, 0.45);
        ensure_small!(q.point.y, y);
    }
}

#[test]
fn far_from_origin_matches_origin() {
    // The same box-on-box pair at (10000, −10000): depth .1 within f32 spacing at 1e4 (~1e-3).
    let a = boxs(1.0, 1.0);
    let b = boxs(0.5, 0.5);
    let o = v(10000.0, -10000.0);
    let m = check_agrees(&a, at(o.x, o.y), &b, at(o.x + 0.2, o.y + 1.4));
    assert_eq!(m.count, 2);
    for q in m.points() {
        ensure_small!(q.depth, 0.1, 2e-3);
        ensure_small!(q.point.y - o.y, 0.95, 2e-3);
    }
    ensure_small!(m.normal.y, 1.0);
}

#[test]
fn sizes_from_hundredth_to_ten_thousand() {
    // Box-on-box scaled by s: depth .1 s, two points. cute_c2's GJK breaks at 100–1000.
    for s in [0.01f32, 0.1, 1.0, 100.0, 1000.0, 10000.0] {
        let a = Shape::Polygon(Polygon::make_box(s, s).unwrap());
        let b = Shape::Polygon(Polygon::make_box(0.5 * s, 0.5 * s).unwrap());
        let m = check_agrees(&a, at(0.0, 0.0), &b, at(0.2 * s, 1.4 * s));
        assert_eq!(m.count, 2, "scale {s}");
        for q in m.points() {
            ensure_small!(q.depth / s, 0.1, 1e-5);
        }
        let c = Shape::Circle(Circle::new(Vec2::ZERO, 0.5 * s).unwrap());
        let m = check_agrees(&a, at(0.0, 0.0), &c, at(1.3 * s, 1.3 * s));
        ensure_small!(m.points[0].depth / s, 0.5 - 0.18f32.sqrt(), 1e-5);
    }
}

#[test]
fn rounded_boxes_corner_to_corner() {
    // Two rounded boxes (core half .5, radius .1) with cores corner to corner along the
    // diagonal: cores' corners at (.5,.5) and (1.1,1.1) − (.5,.5)... B at (1.1, 1.1): core
    // corner (.6,.6); core distance .1√2 = .141421; depth .2 − .141421 = .058579 along
    // (1,1)/√2 — the exact closest-point direction, not a face normal.
    let a = Shape::Polygon(Polygon::make_rounded_box(0.5, 0.5, 0.1).unwrap());
    let m = check_agrees(&a, at(0.0, 0.0), &a, at(1.1, 1.1));
    assert_eq!(m.count, 1);
    ensure_small!(m.normal.x, core::f32::consts::FRAC_1_SQRT_2);
    ensure_small!(m.normal.y, core::f32::consts::FRAC_1_SQRT_2);
    ensure_small!(m.points[0].depth, 0.2 - 0.1 * core::f32::consts::SQRT_2);
    // Vertex 2 of A against vertex 0 of B.
    assert_eq!(m.points[0].id, 0x0200);
}

#[test]
fn margin_reports_speculative_points() {
    // Circles 0.05 apart: no contact at margin 0, one point with depth −0.05 at margin 0.1.
    let (a, b) = (circle(1.0), circle(1.0));
    assert_eq!(collide(&a, at(0.0, 0.0), &b, at(2.05, 0.0)).count, 0);
    let m = collide_with_margin(&a, at(0.0, 0.0), &b, at(2.05, 0.0), 0.1);
    assert_eq!(m.count, 1);
    ensure_small!(m.points[0].depth, -0.05);
    // Boxes 0.05 apart: two speculative points.
    let m = collide_with_margin(&boxs(1.0, 1.0), at(0.0, 0.0), &boxs(1.0, 1.0), at(2.05, 0.0), 0.1);
    assert_eq!(m.count, 2);
    for q in m.points() {
        ensure_small!(q.depth, -0.05);
    }
    // Negative and NaN margins act as 0.
    assert_eq!(
        collide_with_margin(&a, at(0.0, 0.0), &b, at(2.05, 0.0), -1.0).count,
        0
    );
    assert_eq!(
        collide_with_margin(&a, at(0.0, 0.0), &b, at(2.05, 0.0), f32::NAN).count,
        0
    );
}

#[test]
fn bad_input_is_no_contact() {
    let shapes = [
        circle(1.0),
        boxs(1.0, 1.0),
        capsule(v(0.0, 0.0), v(1.0, 0.0), 0.5),
        Shape::Polygon(Polygon::make_rounded_box(1.0, 1.0, 0.2).unwrap()),
    ];
    let bad_xf = [
        Transform {
            p: v(f32::NAN, 0.0),
            q: Rot::IDENTITY,
        },
        Transform {
            p: v(0.0, f32::INFINITY),
            q: Rot::IDENTITY,
        },
        Transform {
            p: Vec2::ZERO,
            q: Rot { c: f32::NAN, s: 0.0 },
        },
        Transform {
            p: v(f32::INFINITY, f32::NEG_INFINITY),
            q: Rot::IDENTITY,
        },
        // Finite but not a rotation.
        Transform {
            p: Vec2::ZERO,
            q: Rot { c: 2.0, s: 0.0 },
        },
    ];
    for a in &shapes {
        for b in &shapes {
            for &x in &bad_xf {
                // Both bad too: equal infinite positions differ by NaN, not by zero.
                for (xa, xb) in [(x, Transform::IDENTITY), (Transform::IDENTITY, x), (x, x)] {
                    assert!(!overlaps(a, xa, b, xb));
                    assert_eq!(collide_with_margin(a, xa, b, xb, 1.0).count, 0);
                }
            }
        }
    }
    // Hand-made garbage polygons (Pod allows anything): count 0, 2, 9, u32::MAX, NaN vertex.
    let mut p = Polygon::make_box(1.0, 1.0).unwrap();
    for count in [0u32, 1, 2, 9, u32::MAX] {
        p.count = count;
        let s = Shape::Polygon(p);
        for b in &shapes {
            assert!(!overlaps(&s, Transform::IDENTITY, b, Transform::IDENTITY));
            assert_eq!(collide(b, Transform::IDENTITY, &s, Transform::IDENTITY).count, 0);
        }
    }
    let mut p = Polygon::make_box(1.0, 1.0).unwrap();
    p.vertices[2].x = f32::NAN;
    let s = Shape::Polygon(p);
    for b in &shapes {
        assert!(!overlaps(&s, Transform::IDENTITY, b, Transform::IDENTITY));
        assert_eq!(collide(b, Transform::IDENTITY, &s, Transform::IDENTITY).count, 0);
    }
    // Negative radii from hand-filled structs.
    let c = Shape::Circle(Circle {
        center: Vec2::ZERO,
        radius: -5.0,
    });
    for b in &shapes {
        assert!(!overlaps(&c, Transform::IDENTITY, b, Transform::IDENTITY));
        assert_eq!(collide(&c, Transform::IDENTITY, b, Transform::IDENTITY).count, 0);
    }
}

#[test]
fn degenerate_capsule_acts_as_circle() {
    // Capsule with equal centres (0,0) r .5 against box half 1: like a circle at (1.3, .2).
    let cap = capsule(v(1.3, 0.2), v(1.3, 0.2), 0.5);
    let m = check_agrees(&boxs(1.0, 1.0), at(0.0, 0.0), &cap, at(0.0, 0.0));
    ensure_small!(m.points[0].depth, 0.2);
    ensure_small!(m.normal.x, 1.0);
    let m = check_agrees(
        &cap,
        at(0.0, 0.0),
        &capsule(v(1.3, 1.0), v(1.3, 2.0), 0.5),
        at(0.0, 0.0),
    );
    // Point (1.3,.2) to segment starting at (1.3,1): distance .8, depth .2, normal +y.
    ensure_small!(m.points[0].depth, 0.2);
    ensure_small!(m.normal.y, 1.0);
}

#[test]
fn aabb_overlaps_against_every_kind() {
    let bx = Aabb::new(v(-1.0, -1.0), v(1.0, 1.0));
    assert!(overlaps_aabbs(bx, Aabb::new(v(1.0, 0.0), v(2.0, 1.0)))); // touching
    assert!(!overlaps_aabbs(bx, Aabb::new(v(1.1, 0.0), v(2.0, 1.0))));
    let c = Circle::new(Vec2::ZERO, 0.5).unwrap();
    assert!(overlaps_aabb_circle(bx, &c, at(1.5, 0.0))); // touching
    assert!(!overlaps_aabb_circle(bx, &c, at(1.36, 1.36))); // corner distance .509 > .5
    assert!(overlaps_aabb_circle(bx, &c, at(1.35, 1.35))); // .495 < .5
    let cap = Capsule::new(v(0.0, 0.0), v(2.0, 0.0), 0.2).unwrap();
    // Vertical segment (1.1,.5)–(1.1,2.5) r .2 is .1 from the +x face.
    assert!(overlaps_aabb_capsule(
        bx,
        &cap,
        Transform::new(v(1.1, 0.5), core::f32::consts::FRAC_PI_2)
    ));
    assert!(!overlaps_aabb_capsule(bx, &cap, at(1.3, 0.0)));
    let p = Polygon::make_box(0.5, 0.5).unwrap();
    assert!(overlaps_aabb_polygon(bx, &p, at(1.5, 1.5))); // corner touching corner
    assert!(!overlaps_aabb_polygon(bx, &p, Transform::new(v(1.6, 1.6), 0.3)));
    // A flat box (a segment) and a point box are exact too.
    assert!(overlaps_aabb_shape(
        Aabb::new(v(-1.0, 0.0), v(1.0, 0.0)),
        &Shape::Circle(c),
        at(0.0, 0.5)
    ));
    assert!(!overlaps_aabb_shape(
        Aabb::new(v(-1.0, 0.0), v(1.0, 0.0)),
        &Shape::Circle(c),
        at(0.0, 0.51)
    ));
    assert!(overlaps_aabb_shape(
        Aabb::new(v(0.5, 0.0), v(0.5, 0.0)),
        &Shape::Polygon(p),
        at(0.0, 0.0)
    ));
    // Invalid boxes never overlap.
    assert!(!overlaps_aabb_shape(
        Aabb::new(v(1.0, 1.0), v(-1.0, -1.0)),
        &Shape::Polygon(p),
        at(0.0, 0.0)
    ));
    assert!(!overlaps_aabb_shape(
        Aabb::new(v(f32::NAN, 1.0), v(1.0, 1.0)),
        &Shape::Circle(c),
        at(0.0, 0.0)
    ));
}

#[test]
fn non_unit_rotations_are_bad_input_everywhere() {
    // Found by fuzzing the C ABI: a "rotation" of length ~1e15 made the local computation
    // overflow differently from the world conversion, so overlaps said yes while collide said
    // no. A transform whose rotation is not unit length (within 1e-3) is now bad input for every
    // query, and all of them agree on "no contact".
    let shapes = [
        circle(1.0),
        boxs(1.0, 1.0),
        capsule(v(0.0, 0.0), v(1.0, 0.0), 0.5),
        Shape::Polygon(Polygon::make_rounded_box(1.0, 1.0, 0.2).unwrap()),
    ];
    let bad = [
        Rot { c: 9.5e14, s: 9.5e14 },
        Rot { c: 0.0, s: 0.0 },
        Rot { c: 1.01, s: 0.0 },
    ];
    for a in &shapes {
        for b in &shapes {
            for q in bad {
                let x = Transform { p: v(0.0, 0.0), q };
                for (xa, xb) in [(x, Transform::IDENTITY), (Transform::IDENTITY, x)] {
                    assert!(!overlaps(a, xa, b, xb));
                    assert_eq!(collide_with_margin(a, xa, b, xb, 1.0).count, 0);
                    assert_eq!(
                        shape_distance(a, xa, b, xb, &mut SimplexCache::default()).status,
                        DistanceStatus::InvalidInput
                    );
                    assert_eq!(
                        shape_cast(a, xa, Vec2::ZERO, b, xb, v(1.0, 0.0), 0.0).state,
                        CastState::InvalidInput
                    );
                }
                assert!(ray_cast(
                    a,
                    Transform { p: Vec2::ZERO, q },
                    &Ray::new(v(-5.0, 0.0), v(10.0, 0.0))
                )
                .is_none());
            }
        }
    }
    // AABB queries validate as the pair queries do, for every kind (the circle once skipped
    // the transform and radius checks: a zero rotation or an infinite radius gave `true`).
    let boxes = [
        Aabb::new(v(-1.0, -1.0), v(1.0, 1.0)),
        Aabb::new(v(-1.0, 0.0), v(1.0, 0.0)),
        Aabb::new(v(0.5, 0.0), v(0.5, 0.0)),
    ];
    let far_inf = Circle {
        center: v(0.0, 0.0),
        radius: f32::INFINITY,
    };
    let nan_centre = Circle {
        center: v(f32::NAN, 0.0),
        radius: 1.0,
    };
    for aabb in boxes {
        for s in shapes
            .iter()
            .chain(&[Shape::Circle(far_inf), Shape::Circle(nan_centre)])
        {
            for q in bad {
                assert!(
                    !overlaps_aabb_shape(aabb, s, Transform { p: Vec2::ZERO, q }),
                    "{s:?} {q:?}"
                );
            }
            let nan_p = Transform::new(v(f32::NAN, 0.0), 0.0);
            assert!(!overlaps_aabb_shape(aabb, s, nan_p));
        }
        assert!(!overlaps_aabb_circle(aabb, &far_inf, Transform::IDENTITY));
        assert!(!overlaps_aabb_circle(aabb, &nan_centre, Transform::IDENTITY));
        for s in &shapes {
            assert!(
                overlaps_aabb_shape(aabb, s, Transform::IDENTITY),
                "{aabb:?} {s:?}"
            );
        }
    }
    // Slightly off unit (as after integration drift) is still accepted.
    let drift = Transform {
        p: Vec2::ZERO,
        q: Rot { c: 1.0004, s: 0.0 },
    };
    assert!(overlaps(&shapes[0], drift, &shapes[1], Transform::IDENTITY));
}

/// Regression (quickcheck seed 2070022787669113219, scale 1000): a capsule end 0.06 from the
/// inside of a segment, coordinates near 2000. The normal came from the direction between
/// the closest points, good to only ~1e-3 rad at that gap, and the two orders of the pair
/// disagreed by 0.0037 rad (points 0.3 apart). The normal of an end against an edge is the
/// edge's perpendicular: both orders must give it, checked here against the segment's world
/// direction computed in f64.
#[test]
fn capsule_end_near_a_segment_far_from_the_origin() {
    let a = Capsule {
        center1: v(-378.26434, 185.52946),
        center2: v(388.31958, -132.28777),
        radius: 164.95216,
    };
    let xa = Transform {
        p: v(1949.0398, -300.4806),
        q: Rot {
            c: 0.4661385,
            s: -0.88471174,
        },
    };
    let b = Capsule {
        center1: v(-768.5177, -299.66345),
        center2: v(636.2991, 662.3833),
        radius: 0.0,
    };
    let xb = Transform {
        p: v(2577.2869, -47.478638),
        q: Rot {
            c: -0.99901825,
            s: -0.044300746,
        },
    };
    let (sa, sb) = (Shape::Capsule(a), Shape::Capsule(b));
    let m = collide(&sa, xa, &sb, xb);
    let f = collide(&sb, xb, &sa, xa);
    assert_eq!((m.count, f.count), (1, 1));
    // B's segment direction in world space, in f64.
    let (c, s) = (xb.q.c as f64, xb.q.s as f64);
    let d = (
        (b.center2.x - b.center1.x) as f64,
        (b.center2.y - b.center1.y) as f64,
    );
    let w = (c * d.0 - s * d.1, s * d.0 + c * d.1);
    let len = (w.0 * w.0 + w.1 * w.1).sqrt();
    // Perpendicular to the segment: |n · direction| ~ 0 in both orders.
    for n in [m.normal, f.normal] {
        let along = (n.x as f64 * w.0 + n.y as f64 * w.1) / len;
        assert!(
            along.abs() < 1e-5,
            "normal not perpendicular to the segment: {along}"
        );
    }
    assert!(m.normal.dot(f.normal) < -0.999_999);
    assert!((m.points[0].depth - f.points[0].depth).abs() < 2e-3);
    assert!(m.points[0].point.distance(f.points[0].point) < 2e-3);
}

/// Fuzz find (capi_queries): two circles whose centres are 4e26 apart with a radius of 2.8e26
/// overflow the squared distance to infinity, which compared `<=` an infinite squared reach, so
/// `collide` reported a contact with a zero normal and a depth of -inf. Every pair that tests a
/// squared distance now counts an overflowed one as no contact, and `overlaps` agrees.
#[test]
fn overflowing_squared_distances_are_no_contact() {
    let big = 2.8460483e26;
    let far = v(2.847992e26, 2.8460483e26);
    let xa = Transform {
        p: v(0.00071040133, 0.000954539),
        q: Rot {
            c: 0.0007109676,
            s: 1.0000002,
        },
    };
    let xb = Transform {
        p: v(1.4e-44, 0.00071040133),
        q: Rot {
            c: 0.0007095341,
            s: 1.0000002,
        },
    };
    let dot = Shape::Circle(Circle::new(v(0.0, 0.0), 0.0).unwrap());
    let shapes = [
        // Hand-filled: beyond what the constructors make (their extent overflows f32).
        Shape::Circle(Circle {
            center: far,
            radius: big,
        }),
        Shape::Capsule(Capsule {
            center1: far,
            center2: far * 0.5,
            radius: big,
        }),
        Shape::Capsule(Capsule::new(v(0.0, 0.0), v(1.0, 0.0), 0.0).unwrap()),
        Shape::Polygon(Polygon::make_rounded_box(1.0, 1.0, 0.5).unwrap()),
    ];
    for b in &shapes {
        for (p, xp, q, xq) in [(&dot, xa, b, xb), (b, xb, &dot, xa), (&shapes[0], xa, b, xb)] {
            for margin in [0.0, 0.001, f32::MAX] {
                let m = collide_with_margin(p, xp, q, xq, margin);
                if m.count > 0 {
                    assert!((m.normal.length() - 1.0).abs() < 1e-3, "{m:?}");
                    assert!(
                        m.points()
                            .iter()
                            .all(|c| c.depth.is_finite() && c.point.is_finite()),
                        "{m:?}"
                    );
                }
            }
            assert_eq!(
                overlaps(p, xp, q, xq),
                collide(p, xp, q, xq).count > 0,
                "{p:?} {q:?}"
            );
        }
    }
    assert_eq!(collide(&dot, xa, &shapes[0], xb).count, 0);
}

/// Fuzz find (capi_queries): a point circle 3.7e-23 from a segment, within a margin of 7e-4:
/// the squared distance (1.4e-45) is below f32's normal range, so its square root was too
/// coarse to normalise the direction, and the normal came out 1.029 long. Directions from
/// squared distances below `f32::MIN_POSITIVE` now fall back to the documented choice (here
/// the segment's left normal), and `Vec2::try_normalize` refuses such vectors.
#[test]
fn subnormal_squared_distances_give_unit_normals() {
    let a = Shape::Circle(Circle {
        center: v(2.3509886e-38, 0.0),
        radius: 0.0,
    });
    let xa = Transform {
        p: v(3.8510934e-23, 0.00071040133),
        q: Rot {
            c: 0.0007109676,
            s: 1.0000002,
        },
    };
    let b = Shape::Capsule(Capsule {
        center1: v(0.0, 0.0),
        center2: v(0.00071039796, 0.00071040133),
        radius: 2.0888e-41,
    });
    let xb = Transform {
        p: v(1.4e-44, 0.00071040133),
        q: Rot {
            c: 0.0007095341,
            s: 1.0000002,
        },
    };
    for (p, xp, q, xq) in [(&a, xa, &b, xb), (&b, xb, &a, xa), (&a, xa, &a, xb)] {
        let m = collide_with_margin(p, xp, q, xq, 0.00071040133);
        assert_eq!(m.count, 1);
        assert!((m.normal.length() - 1.0).abs() < 1e-6, "{m:?}");
    }
    assert_eq!(v(1e-22, 0.0).try_normalize(), None);
    assert_eq!(v(1e-22, 0.0).normalize_or_zero(), Vec2::ZERO);
    assert_eq!(v(1e-18, 0.0).try_normalize(), Some(v(1.0, 0.0)));
}

/// Shapes at the tiny end of f32 (coordinates down to 1e-22, where a gap's square leaves the
/// normal range): the normal of an end-to-end capsule contact and of a chain segment's end
/// against a circle is still unit length and points along the gap (the direction from the
/// closest point of A to that of B, worked out by hand in f64).
#[test]
fn tiny_gaps_give_unit_normals_along_the_gap() {
    for s in [1e-22f32, 3e-22, 1e-21, 1e-20, 1e-19, 1e-18] {
        let a = capsule(v(0.0, 0.0), v(s, 0.0), 0.01 * s);
        let b = capsule(v(0.0, 0.0), v(s, 0.0), 0.01 * s);
        // B's first end at (3s, 1.5s): the gap runs from A's (s, 0) along (2, 1.5).
        let xb = Transform::from_translation(v(3.0 * s, 1.5 * s));
        let m = collide_with_margin(&a, Transform::IDENTITY, &b, xb, 10.0 * s);
        assert_eq!(m.count, 1, "scale {s}: {m:?}");
        let expected = (2.0f64 / 2.5, 1.5f64 / 2.5);
        assert!(
            (f64::from(m.normal.x) - expected.0).abs() < 1e-4
                && (f64::from(m.normal.y) - expected.1).abs() < 1e-4,
            "scale {s}: {m:?}"
        );
        // A chain segment from (0, 0) to (s, 0), a circle beyond its end at (2s, 0.75s).
        // (Segments shorter than about 1e-19 are refused by the constructor.)
        let Ok(seg) = ChainSegment::new(v(-s, 0.0), v(0.0, 0.0), v(s, 0.0), v(2.0 * s, 0.0)) else {
            assert!(s < 2e-19);
            continue;
        };
        let seg = Shape::ChainSegment(seg);
        let c = circle(0.01 * s);
        let xc = Transform::from_translation(v(2.0 * s, 0.75 * s));
        let m = collide_with_margin(&seg, Transform::IDENTITY, &c, xc, 10.0 * s);
        if m.count > 0 {
            let expected = (1.0f64 / 1.25, 0.75f64 / 1.25);
            assert!(
                (f64::from(m.normal.x) - expected.0).abs() < 1e-4
                    && (f64::from(m.normal.y) - expected.1).abs() < 1e-4,
                "chain, scale {s}: {m:?}"
            );
        }
    }
}
