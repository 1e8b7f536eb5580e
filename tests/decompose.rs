//! Decomposition of simple polygons into convex pieces of at most 8 vertices, checked
//! independently: pieces valid and convex, areas summing to the polygon's (f64 shoelace), no two
//! pieces overlapping (manifold depth), every piece vertex an input vertex (the piece counts
//! against parry2d's `hertel_mehlhorn` are `peers/tests/decompose.rs`).
mod common;
use collide2d::*;
use common::{random_spiral_polygon, random_star_polygon, signed_area64, v, Rng};

#[test]
fn decomposition_covers_the_polygon_with_valid_disjoint_pieces() {
    let mut rng = Rng(0xDEC0);
    for i in 0..600 {
        let s = [0.01, 1.0, 100.0, 10_000.0][i % 4];
        let n = [4, 5, 8, 9, 17, 33, 64, 100, 200][i % 9];
        let mut poly = if i % 2 == 0 {
            random_star_polygon(&mut rng, n, s)
        } else {
            random_spiral_polygon(&mut rng, n.max(60), s)
        };
        if i % 3 == 0 {
            poly.reverse(); // either winding
        }
        let pieces = decompose(&poly).unwrap_or_else(|e| panic!("#{i}: {e:?} {poly:?}"));
        let whole = signed_area64(&poly).abs();
        let mut sum = 0.0;
        for p in &pieces {
            assert!(p.is_valid() && p.count <= 8, "#{i}: {p:?}");
            sum += signed_area64(p.vertices());
            for q in p.vertices() {
                assert!(poly.contains(q), "#{i}: new vertex {q:?}");
            }
        }
        assert!((sum - whole).abs() <= 1e-5 * whole, "#{i}: area {sum} vs {whole}");
        for (a, pa) in pieces.iter().enumerate() {
            for pb in &pieces[a + 1..] {
                let m = collide_polygons(pa, Transform::IDENTITY, pb, Transform::IDENTITY, 0.0);
                let depth = m.max_depth().unwrap_or(0.0);
                assert!(depth <= 1e-5 * s, "#{i}: pieces overlap by {depth}");
            }
        }
    }
}

#[test]
fn decomposition_rejects_bad_polygons() {
    // A bow tie crosses itself.
    let bow = [v(0.0, 0.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 1.0)];
    assert_eq!(decompose(&bow), Err(GeometryError::SelfIntersecting));
    // A polygon whose boundary touches itself at a vertex.
    let touch = [v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(1.0, 0.0), v(0.0, 2.0)];
    assert_eq!(decompose(&touch), Err(GeometryError::SelfIntersecting));
    assert_eq!(
        decompose(&[v(0.0, 0.0), v(1.0, 0.0)]),
        Err(GeometryError::TooFewPoints)
    );
    assert_eq!(
        decompose(&[v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)]),
        Err(GeometryError::TooFewPoints)
    );
    assert_eq!(
        decompose(&[v(0.0, 0.0), v(f32::NAN, 0.0), v(0.0, 1.0)]),
        Err(GeometryError::NonFinite)
    );
    // A concave L of 6 vertices: two pieces; a convex 20-gon: three pieces of at most 8.
    let l = [
        v(0.0, 0.0),
        v(2.0, 0.0),
        v(2.0, 1.0),
        v(1.0, 1.0),
        v(1.0, 2.0),
        v(0.0, 2.0),
    ];
    assert_eq!(decompose(&l).unwrap().len(), 2);
    let circle: Vec<Vec2> = (0..20)
        .map(|i| Rot::from_angle(i as f32 * 0.314_159_27).x_axis())
        .collect();
    let pieces = decompose(&circle).unwrap();
    assert_eq!(pieces.len(), 3, "{pieces:?}");
}
