//! Decomposition of simple polygons into convex pieces of at most 8 vertices, checked
//! independently: pieces valid and convex, areas summing to the polygon's (f64 shoelace), no two
//! pieces overlapping (manifold depth), every piece vertex an input vertex; piece counts
//! reported against parry2d's `hertel_mehlhorn` on parry's own ear clipping.
mod common;
use collide2d::*;
use common::{v, Rng};

fn area64(p: &[Vec2]) -> f64 {
    let n = p.len();
    (0..n)
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % n]);
            f64::from(a.x) * f64::from(b.y) - f64::from(a.y) * f64::from(b.x)
        })
        .sum::<f64>()
        * 0.5
}

/// A star-shaped polygon: `n` vertices at sorted random angles and random radii.
fn star(rng: &mut Rng, n: usize, s: f32) -> Vec<Vec2> {
    let c = rng.vec(s);
    let mut angles: Vec<f32> = (0..n)
        .map(|i| (i as f32 + rng.range(0.1, 0.9)) / n as f32 * std::f32::consts::TAU)
        .collect();
    angles.sort_by(f32::total_cmp);
    angles
        .iter()
        .map(|a| c + Rot::from_angle(*a).x_axis() * (rng.range(0.3, 1.0) * s))
        .collect()
}

/// A thick spiral: an outer arm out and an inner arm back, `n` vertices in all.
fn spiral(rng: &mut Rng, n: usize, s: f32) -> Vec<Vec2> {
    let half = n / 2;
    let turns = rng.range(1.0, 2.5);
    let arm = |k: usize, r0: f32| {
        let t = k as f32 / (half - 1).max(1) as f32;
        let a = t * turns * std::f32::consts::TAU;
        Rot::from_angle(a).x_axis() * ((r0 + t) * s)
    };
    let mut pts: Vec<Vec2> = (0..half).map(|k| arm(k, 0.35)).collect();
    pts.extend((0..half).rev().map(|k| arm(k, 0.2)));
    pts
}

#[test]
fn decomposition_covers_the_polygon_with_valid_disjoint_pieces() {
    let mut rng = Rng(0xDEC0);
    let (mut ours_total, mut parry_total, mut parry_split_total, mut parry_over8) = (0, 0, 0, 0);
    let mut cases = 0;
    for i in 0..600 {
        let s = [0.01, 1.0, 100.0, 10_000.0][i % 4];
        let n = [4, 5, 8, 9, 17, 33, 64, 100, 200][i % 9];
        let mut poly = if i % 2 == 0 {
            star(&mut rng, n, s)
        } else {
            spiral(&mut rng, n.max(60), s)
        };
        if i % 3 == 0 {
            poly.reverse(); // either winding
        }
        let pieces = decompose(&poly).unwrap_or_else(|e| panic!("#{i}: {e:?} {poly:?}"));
        let whole = area64(&poly).abs();
        let mut sum = 0.0;
        for p in &pieces {
            assert!(p.is_valid() && p.count <= 8, "#{i}: {p:?}");
            sum += area64(p.vertices());
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
        // parry2d: its ear clipping, then its Hertel–Mehlhorn (no vertex cap).
        let mut ccw = poly.clone();
        if area64(&ccw) < 0.0 {
            ccw.reverse();
        }
        let pv: Vec<parry2d::math::Vector> =
            ccw.iter().map(|p| parry2d::math::Vector::new(p.x, p.y)).collect();
        if let Some(mesh) = parry2d::shape::TriMesh::from_polygon(pv.clone()) {
            let hm = parry2d::transformation::hertel_mehlhorn(mesh.vertices(), mesh.indices());
            cases += 1;
            ours_total += pieces.len();
            parry_total += hm.len();
            parry_over8 += hm.iter().filter(|p| p.len() > 8).count();
            // Each parry piece of k > 8 vertices needs at least ceil((k - 2) / 6) pieces of 8.
            parry_split_total += hm
                .iter()
                .map(|p| (p.len().saturating_sub(2)).div_ceil(6).max(1))
                .sum::<usize>();
        }
    }
    eprintln!(
        "{cases} polygons: ours {ours_total} pieces (<= 8 vertices); parry2d hertel_mehlhorn {parry_total} \
         ({parry_over8} with more than 8 vertices; at least {parry_split_total} once split to 8)"
    );
    assert!(cases > 300);
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
