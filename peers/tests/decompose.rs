//! Decomposition into convex pieces beside parry2d's `hertel_mehlhorn` on parry's own ear
//! clipping (the independent checks of the pieces are collide2d's own `tests/decompose.rs`).
use collide2d::*;
use collide2d_peers::{random_spiral_polygon, random_star_polygon, signed_area64, Rng};

/// The polygons of collide2d's `decomposition_covers_the_polygon_with_valid_disjoint_pieces`
/// (same seed, same draws) cut by `decompose` and by parry2d: its ear clipping, then its
/// Hertel–Mehlhorn (no vertex cap); the piece counts are printed side by side.
#[test]
fn piece_counts_beside_parry_hertel_mehlhorn() {
    let mut rng = Rng(0xDEC0);
    let (mut ours_total, mut parry_total, mut parry_split_total, mut parry_over8) = (0, 0, 0, 0);
    let mut cases = 0;
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
        let mut ccw = poly.clone();
        if signed_area64(&ccw) < 0.0 {
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
