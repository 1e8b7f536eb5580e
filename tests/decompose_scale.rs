//! `decompose` at any size and on weakly simple polygons: piece counts against the optimum
//! where it is known (convex polygons, combs) and against a bound (regular stars), touching
//! and bridged outlines accepted with their exact area, crossings refused, and a property test
//! at scales 0.01 … 1e4 that the pieces are valid, made of the polygon's vertices,
//! pairwise disjoint (separating axes in `f64`) and cover its area. Times are reported by an
//! ignored test, never asserted.
mod common;

use collide2d::*;
use common::{comb_polygon, regular_polygon, regular_star};
use quickcheck::{QuickCheck, TestResult};
use std::collections::HashSet;

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// An integer in `lo..hi`.
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo) as u64) as i64
    }
}

/// An outline's corners on the integer grid.
type Outline<'a> = &'a [(i32, i32)];

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// Twice the signed area of a loop, measured from `o` (so that far from the origin the terms
/// do not cancel).
fn area2(p: &[Vec2], o: Vec2) -> f64 {
    let n = p.len();
    (0..n)
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % n]);
            let (ax, ay) = (f64::from(a.x) - f64::from(o.x), f64::from(a.y) - f64::from(o.y));
            let (bx, by) = (f64::from(b.x) - f64::from(o.x), f64::from(b.y) - f64::from(o.y));
            ax * by - ay * bx
        })
        .sum()
}

/// Whether convex loops `a` and `b` (counter-clockwise) share interior: no edge of either
/// has the other wholly on its outer side (within `f64` rounding of the cross products).
fn overlap(a: &[Vec2], b: &[Vec2]) -> bool {
    let separates = |a: &[Vec2], b: &[Vec2]| {
        (0..a.len()).any(|i| {
            let (p, q) = (a[i], a[(i + 1) % a.len()]);
            let (ex, ey) = (f64::from(q.x) - f64::from(p.x), f64::from(q.y) - f64::from(p.y));
            b.iter().all(|r| {
                let (rx, ry) = (f64::from(r.x) - f64::from(p.x), f64::from(r.y) - f64::from(p.y));
                let c = ex * ry - ey * rx;
                c <= 1e-12 * (ex.hypot(ey) * rx.hypot(ry))
            })
        })
    };
    !(separates(a, b) || separates(b, a))
}

/// The pieces of `poly` are valid polygons of at most 8 vertices taken from its points,
/// pairwise disjoint (checked when there are at most `brute` pieces), with areas summing to
/// its area (decomposition drops only points that leave the boundary as it is).
fn check_tiling(poly: &[Vec2], pieces: &[Polygon], brute: usize) -> Result<(), String> {
    let w = poly;
    let o = w[0];
    let whole = area2(w, o).abs();
    let corners: HashSet<(u32, u32)> = w.iter().map(|p| (p.x.to_bits(), p.y.to_bits())).collect();
    let mut sum = 0.0;
    for (k, p) in pieces.iter().enumerate() {
        if !p.is_valid() || p.vertices().len() > 8 {
            return Err(format!("piece {k} not valid: {p:?}"));
        }
        if let Some(q) = p
            .vertices()
            .iter()
            .find(|q| !corners.contains(&(q.x.to_bits(), q.y.to_bits())))
        {
            return Err(format!("piece {k} has a vertex {q:?} not in the polygon"));
        }
        let a = area2(p.vertices(), o);
        if a <= 0.0 {
            return Err(format!("piece {k} has area {a}"));
        }
        sum += a;
    }
    if (sum - whole).abs() > 1e-9 * whole {
        return Err(format!("pieces' area {sum} of {whole} (twice)"));
    }
    if pieces.len() <= brute {
        for (i, a) in pieces.iter().enumerate() {
            for (j, b) in pieces.iter().enumerate().skip(i + 1) {
                if overlap(a.vertices(), b.vertices()) {
                    return Err(format!("pieces {i} and {j} overlap: {a:?} {b:?}"));
                }
            }
        }
    }
    Ok(())
}

/// Whether every corner of `poly` turns strictly left (exactly, in `f64`: the coordinates'
/// differences and their products are exact for `f32` corners of one magnitude).
fn strictly_convex(poly: &[Vec2]) -> bool {
    let n = poly.len();
    (0..n).all(|i| {
        let (a, b, c) = (poly[i], poly[(i + 1) % n], poly[(i + 2) % n]);
        let d = |p: Vec2, q: Vec2| (f64::from(q.x) - f64::from(p.x), f64::from(q.y) - f64::from(p.y));
        let (e, f) = (d(a, b), d(b, c));
        e.0 * f.1 - e.1 * f.0 > 0.0
    })
}

/// A convex polygon of n vertices gives `ceil((n − 2) / 6)` pieces, the fewest of at most 8
/// vertices, at several radii and offsets, up to 100 000 vertices (no vertex is dropped
/// however little it turns). Regular polygons whose `f32` corners are not strictly convex
/// (rounding dents them) are only checked for their tiling.
#[test]
fn convex_polygons_give_the_fewest_pieces() {
    let sizes = (3..=64).chain([100, 999, 1000, 4096, 8192, 16_384, 100_000]);
    for n in sizes {
        for (r, c) in [
            (1.0, (0.0, 0.0)),
            (1000.0, (-3000.0, 500.0)),
            (0.01, (0.05, -0.02)),
        ] {
            let poly = regular_polygon(n, r, c);
            let pieces = decompose(&poly).unwrap();
            if strictly_convex(&poly) {
                assert_eq!(pieces.len(), (n - 2).div_ceil(6), "{n}-gon, radius {r}");
            } else {
                eprintln!("{n}-gon, radius {r}: not convex in f32, {} pieces", pieces.len());
            }
            if n <= 1000 {
                check_tiling(&poly, &pieces, 200).unwrap_or_else(|e| panic!("{n}-gon: {e}"));
            }
        }
    }
}

/// Regular stars: at most a piece per tip plus `ceil((t − 2) / 6)` for the inner polygon the
/// t tips stand on, down to 0.04 % of a turn per vertex (16 384 vertices). A convex piece of
/// these stars holds at most two tips (the segment between most pairs leaves the star, and no
/// three are pairwise joined inside it), so no decomposition has fewer than t / 2.
#[test]
fn stars_give_a_piece_per_tip_and_few_more() {
    for (n, inner) in [
        (8usize, 0.5),
        (64, 0.5),
        (64, 0.9),
        (1000, 0.5),
        (1000, 0.9),
        (16_384, 0.5),
        (16_384, 0.9),
    ] {
        {
            let poly = regular_star(n, inner, 1.0);
            let pieces = decompose(&poly).unwrap();
            let tips = n / 2;
            assert!(
                pieces.len() >= tips / 2 && pieces.len() <= tips + (tips - 2).div_ceil(6),
                "{n}-vertex star (inner {inner}): {} pieces",
                pieces.len()
            );
            check_tiling(&poly, &pieces, if n <= 64 { 400 } else { 0 })
                .unwrap_or_else(|e| panic!("{n}-vertex star: {e}"));
        }
    }
}

/// A comb of t teeth gives t + 1 pieces, the fewest: a convex piece reaches the top of one
/// tooth only, and the base under the gaps needs one more. The base is one piece whose top
/// edge passes through the feet of the teeth.
#[test]
fn combs_give_a_piece_per_tooth_and_one_for_the_base() {
    for teeth in [1usize, 2, 3, 5, 17, 100, 4095] {
        let poly = comb_polygon(teeth);
        let pieces = decompose(&poly).unwrap();
        assert_eq!(pieces.len(), teeth + 1, "comb of {teeth}");
        check_tiling(&poly, &pieces, 500).unwrap_or_else(|e| panic!("comb of {teeth}: {e}"));
        // Mirrored (clockwise), and far from the origin.
        let far: Vec<Vec2> = poly.iter().rev().map(|p| v(p.x + 1.0e5, -p.y - 3.0e4)).collect();
        let pieces = decompose(&far).unwrap();
        assert_eq!(pieces.len(), teeth + 1, "far comb of {teeth}");
        check_tiling(&far, &pieces, 500).unwrap_or_else(|e| panic!("far comb of {teeth}: {e}"));
    }
}

/// Outlines touching themselves at a vertex or along a zero-width bridge are accepted: the
/// pieces cover exactly the area, at several scales and offsets.
#[test]
fn weakly_simple_outlines_are_decomposed_with_their_exact_area() {
    // Two squares meeting at a corner, as one loop (its passes through the corner nest: each
    // turns the long way round the other's).
    let corner = [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (1, 2), (1, 1), (0, 1)];
    // A keyhole: a square with a square hole, joined by a bridge from the outer corner.
    let keyhole = [
        (0, 0),
        (4, 0),
        (4, 4),
        (0, 4),
        (0, 0),
        (1, 1),
        (1, 3),
        (3, 3),
        (3, 1),
        (1, 1),
    ];
    // The bridge from the middle of the bottom edge to the middle of the hole's.
    let keyhole_mid = [
        (0, 0),
        (2, 0),
        (2, 1),
        (1, 1),
        (1, 3),
        (3, 3),
        (3, 1),
        (2, 1),
        (2, 0),
        (4, 0),
        (4, 4),
        (0, 4),
    ];
    // A triangular hole touching the outline's corner, no bridge.
    let touching_hole = [(0, 0), (4, 0), (4, 4), (0, 4), (0, 0), (1, 2), (2, 1)];
    // A ring whose two ends touch at one point (the tile rows SSS / S.S / .SS, y up).
    let ring = [
        (1, 0),
        (3, 0),
        (3, 3),
        (0, 3),
        (0, 1),
        (1, 1),
        (1, 2),
        (2, 2),
        (2, 1),
        (1, 1),
    ];
    let cases: [(&str, Outline, f64); 5] = [
        ("corner", &corner, 2.0),
        ("keyhole", &keyhole, 12.0),
        ("keyhole from an edge", &keyhole_mid, 12.0),
        ("touching hole", &touching_hole, 14.5),
        ("pinched ring", &ring, 7.0),
    ];
    for (name, pts, want) in cases {
        for (s, o) in [
            (1.0f32, v(0.0, 0.0)),
            (0.01, v(3.0, -2.0)),
            (1000.0, v(-1.0e5, 7.0e4)),
        ] {
            for reversed in [false, true] {
                let mut poly: Vec<Vec2> = pts.iter().map(|&(x, y)| o + v(x as f32, y as f32) * s).collect();
                if reversed {
                    poly.reverse();
                }
                let pieces = decompose(&poly).unwrap_or_else(|e| panic!("{name} at {s}: {e:?}"));
                check_tiling(&poly, &pieces, 100).unwrap_or_else(|e| panic!("{name} at {s}: {e}"));
                // The input's own area (its corners rounded to f32), and that it is the shape's.
                let area: f64 = pieces.iter().map(|p| area2(p.vertices(), o)).sum::<f64>() * 0.5;
                let input = area2(&poly, o).abs() * 0.5;
                assert!(
                    (area - input).abs() <= 1e-12 * input,
                    "{name} at {s}: {area} of {input}"
                );
                let ideal = want * f64::from(s) * f64::from(s);
                assert!(
                    (input - ideal).abs() <= 1e-5 * ideal,
                    "{name} at {s}: {input} of {ideal}"
                );
            }
        }
    }
    // The tile outline of the pinched ring is that kind of loop.
    let rows = ["SSS", "S.S", ".SS"];
    let outlines = tile_outlines(3, 3, 1.0, Vec2::ZERO, |x, y| rows[2 - y].as_bytes()[x] == b'S').unwrap();
    assert_eq!(outlines.len(), 1);
    let pieces = decompose(outlines[0].points()).unwrap();
    check_tiling(outlines[0].points(), &pieces, 100).unwrap();
}

/// Random tile grids: every outline (touching itself where two cells meet at a corner) is
/// decomposed into pieces tiling it; and loops that share a corner, spliced into one loop
/// there (so that its passes through the corner nest), are decomposed into pieces tiling both,
/// however the splices pair the passes. The outlines' areas sum to the solid cells'.
#[test]
fn tile_outlines_and_loops_spliced_at_corners_are_decomposed() {
    let mut rng = Rng(0x711E);
    let mut spliced = 0;
    for round in 0..300 {
        let (w, h) = (rng.int(2, 14) as usize, rng.int(2, 14) as usize);
        let density = rng.int(30, 80);
        let cells: Vec<bool> = (0..w * h).map(|_| rng.int(0, 100) < density).collect();
        let (s, o) = (
            [0.5f32, 1.0, 3.0][round % 3],
            v(rng.int(-50, 50) as f32, rng.int(-50, 50) as f32),
        );
        let outlines = tile_outlines(w, h, s, o, |x, y| cells[y * w + x]).unwrap();
        let mut loops: Vec<Vec<Vec2>> = outlines.iter().map(|c| c.points().to_vec()).collect();
        let mut signed = 0.0;
        for l in &loops {
            let pieces = decompose(l).unwrap_or_else(|e| panic!("round {round}: {e:?} {l:?}"));
            check_tiling(l, &pieces, 200).unwrap_or_else(|e| panic!("round {round}: {e}"));
            signed += area2(l, o) * 0.5;
        }
        let solid = cells.iter().filter(|&&c| c).count() as f64 * f64::from(s) * f64::from(s);
        assert!(
            (signed - solid).abs() <= 1e-9 * solid.max(1.0),
            "round {round}: {signed} of {solid}"
        );
        // Splice loops sharing a corner where neither new pass runs straight through it.
        let mut merged = true;
        while merged {
            merged = false;
            'pairs: for i in 0..loops.len() {
                for j in i + 1..loops.len() {
                    for (ai, a) in loops[i].iter().enumerate() {
                        let Some(bj) = loops[j].iter().position(|b| b == a) else {
                            continue;
                        };
                        let (la, lb) = (&loops[i], &loops[j]);
                        let a_in = la[(ai + la.len() - 1) % la.len()];
                        let a_out = la[(ai + 1) % la.len()];
                        let b_in = lb[(bj + lb.len() - 1) % lb.len()];
                        let b_out = lb[(bj + 1) % lb.len()];
                        let straight = |p: Vec2, q: Vec2| (p - *a).cross(q - *a) == 0.0;
                        if straight(a_in, b_out) || straight(b_in, a_out) {
                            continue;
                        }
                        let mut one: Vec<Vec2> = la[..=ai].to_vec();
                        one.extend(lb[bj + 1..].iter().chain(&lb[..=bj]));
                        one.extend(&la[ai + 1..]);
                        loops.swap_remove(j);
                        loops[i] = one;
                        merged = true;
                        spliced += 1;
                        break 'pairs;
                    }
                }
            }
        }
        for l in &loops {
            for reversed in [false, true] {
                let mut l = l.clone();
                if reversed {
                    l.reverse();
                }
                let pieces = decompose(&l).unwrap_or_else(|e| panic!("round {round}, spliced: {e:?} {l:?}"));
                check_tiling(&l, &pieces, 200).unwrap_or_else(|e| panic!("round {round}, spliced: {e}"));
            }
        }
    }
    assert!(spliced > 100, "{spliced} splices");
}

/// The loop `decompose` works on, by brute force in integers: consecutive duplicates dropped,
/// then, as long as there is one, a point strictly inside the segment between its neighbours
/// that the loop visits only once.
fn cleaned(pts: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut w: Vec<(i64, i64)> = Vec::new();
    for &p in pts {
        if w.last() != Some(&p) {
            w.push(p);
        }
    }
    while w.len() > 1 && w.first() == w.last() {
        w.pop();
    }
    loop {
        let n = w.len();
        let drop = (0..n).find(|&i| {
            let (p, c, q) = (w[(i + n - 1) % n], w[i], w[(i + 1) % n]);
            let cross = (c.0 - p.0) * (q.1 - p.1) - (c.1 - p.1) * (q.0 - p.0);
            let dot = (p.0 - c.0) * (q.0 - c.0) + (p.1 - c.1) * (q.1 - c.1);
            n > 2 && cross == 0 && dot < 0 && w.iter().filter(|&&x| x == c).count() == 1
        });
        match drop {
            Some(i) => {
                w.remove(i);
            }
            None => return w,
        }
    }
}

/// The definition `decompose` documents, checked by brute force in integers on the cleaned
/// loop: every pair of edges, every point visited more than once.
fn weakly_simple(w: &[(i64, i64)]) -> bool {
    type Q = (i64, i64);
    let n = w.len();
    let orient = |a: Q, b: Q, c: Q| ((b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)).signum();
    let area: i64 = (0..n)
        .map(|i| w[i].0 * w[(i + 1) % n].1 - w[i].1 * w[(i + 1) % n].0)
        .sum();
    if area == 0 {
        return false;
    }
    let mut w = w.to_vec();
    if area < 0 {
        w.reverse();
    }
    let at = |i: usize| w[i % n];
    // Spikes, at points visited once (at a point visited again, the doubled edge is a bridge).
    for i in 0..n {
        let (p, c, q) = (at(i + n - 1), at(i), at(i + 1));
        if (0..n).filter(|&k| at(k) == c).count() > 1 {
            continue;
        }
        let dot = (p.0 - c.0) * (q.0 - c.0) + (p.1 - c.1) * (q.1 - c.1);
        if orient(p, c, q) == 0 && dot > 0 {
            return false;
        }
    }
    // Within the closed segment a–b, for a point on its line.
    let on = |a: Q, b: Q, x: Q| {
        x.0 >= a.0.min(b.0) && x.0 <= a.0.max(b.0) && x.1 >= a.1.min(b.1) && x.1 <= a.1.max(b.1)
    };
    for i in 0..n {
        for j in i + 1..n {
            if j == i + 1 || (i == 0 && j == n - 1) {
                continue;
            }
            let (a, b, c, d) = (at(i), at(i + 1), at(j), at(j + 1));
            let (o1, o2, o3, o4) = (orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b));
            if o1 == 0 && o2 == 0 {
                // Collinear: the length they share.
                let key = |p: Q| if a.0 != b.0 { p.0 } else { p.1 };
                let (s0, s1) = (key(a).min(key(b)), key(a).max(key(b)));
                let (t0, t1) = (key(c).min(key(d)), key(c).max(key(d)));
                if s0.max(t0) < s1.min(t1) && !(a == d && b == c) {
                    return false;
                }
                continue;
            }
            if o1 * o2 < 0 && o3 * o4 < 0 {
                return false;
            }
            let inside = |o: i64, p: Q, q: Q, x: Q| o == 0 && on(p, q, x) && x != p && x != q;
            if inside(o1, a, b, c) || inside(o2, a, b, d) || inside(o3, c, d, a) || inside(o4, c, d, b) {
                return false;
            }
        }
    }
    // At each point visited more than once the edges alternate, leaving and arriving.
    for i in 0..n {
        let o = at(i);
        let visits: Vec<usize> = (0..n).filter(|&k| at(k) == o).collect();
        if visits.len() < 2 || visits[0] != i {
            continue;
        }
        let mut rays: Vec<(Q, bool)> = visits
            .iter()
            .flat_map(|&k| [(at(k + 1), true), (at(k + n - 1), false)])
            .collect();
        let half = |x: Q| !(x.1 > o.1 || (x.1 == o.1 && x.0 > o.0));
        rays.sort_by(|x, y| {
            half(x.0)
                .cmp(&half(y.0))
                .then(orient(o, y.0, x.0).cmp(&0))
                .then(x.1.cmp(&y.1))
        });
        if (0..rays.len()).any(|k| rays[k].1 == rays[(k + 1) % rays.len()].1) {
            return false;
        }
    }
    true
}

/// On a small grid (many collinear points, repeated points, crossings, bridges), `decompose`
/// accepts exactly the loops the brute-force definition accepts, and the pieces of every loop
/// it accepts tile it.
#[test]
fn acceptance_matches_the_definition_on_a_small_grid() {
    let mut rng = Rng(0x9121D);
    let (mut accepted, mut touching) = (0, 0);
    for case in 0..50_000 {
        let n = rng.int(3, 13) as usize;
        let side = rng.int(2, 6);
        let pts: Vec<(i64, i64)> = (0..n).map(|_| (rng.int(0, side), rng.int(0, side))).collect();
        // Powers of two: scaled corners are exact and scale back.
        let s = [0.25f32, 1.0, 8.0, 1024.0][case % 4];
        let poly: Vec<Vec2> = pts.iter().map(|&(x, y)| v(x as f32 * s, y as f32 * s)).collect();
        let w = cleaned(&pts);
        let got = decompose(&poly);
        if w.len() < 3 {
            assert_eq!(
                got.err(),
                Some(GeometryError::TooFewPoints),
                "case {case}: {pts:?}"
            );
            continue;
        }
        let want = weakly_simple(&w);
        assert_eq!(got.is_ok(), want, "case {case}: {got:?} for {w:?}");
        if let Ok(pieces) = got {
            accepted += 1;
            let set: HashSet<(i64, i64)> = w.iter().copied().collect();
            touching += usize::from(set.len() < w.len());
            check_tiling(&poly, &pieces, 100).unwrap_or_else(|e| panic!("case {case}: {e} for {w:?}"));
        } else {
            assert_eq!(got.err(), Some(GeometryError::SelfIntersecting), "case {case}");
        }
    }
    assert!(
        accepted > 2000 && touching > 100,
        "{accepted} accepted, {touching} touching"
    );
}

/// Arbitrary points (any bit pattern, subnormal, far from the origin, repeated, collinear)
/// give a named error or valid pieces, never a panic.
#[test]
fn arbitrary_points_give_an_error_or_valid_pieces() {
    let mut rng = Rng(0xBAD);
    for case in 0..20_000 {
        let n = rng.int(3, 17) as usize;
        let kind = rng.int(0, 4);
        let pool: Vec<f32> = (0..4)
            .map(|_| match kind {
                0 => f32::from_bits(rng.next() as u32),
                1 => rng.int(0, 5) as f32 * 1.0e-30,
                2 => 1.0e7 + rng.int(0, 4) as f32,
                _ => rng.int(-1000, 1000) as f32 * 0.37,
            })
            .collect();
        let pts: Vec<Vec2> = (0..n)
            .map(|_| {
                let jitter = if kind == 3 { rng.int(0, 7) as f32 } else { 0.0 };
                v(
                    pool[rng.int(0, 4) as usize] + jitter,
                    pool[rng.int(0, 4) as usize],
                )
            })
            .collect();
        if let Ok(pieces) = decompose(&pts) {
            assert!(pieces.iter().all(|p| p.is_valid()), "case {case}: {pts:?}");
        }
    }
}

/// Crossing, overlapping and folding outlines are refused.
#[test]
fn crossing_outlines_are_refused() {
    let refused: [(&str, Outline); 8] = [
        ("bow tie", &[(0, 0), (2, 2), (2, 0), (0, 2)]),
        ("vertex on an edge", &[(0, 0), (2, 0), (2, 2), (1, 0), (0, 2)]),
        // Two passes through (1, 1) crossing each other there.
        (
            "crossing at a vertex",
            &[(0, 0), (1, 1), (2, 2), (0, 2), (1, 1), (2, 0)],
        ),
        // A triangle inside a square, touching its corner: the edges at the corner do not
        // alternate between leaving and arriving.
        (
            "overlapping wedges",
            &[(0, 0), (4, 0), (4, 4), (2, 3), (3, 2), (4, 4), (0, 4)],
        ),
        // Collinear edges overlapping, not as a bridge.
        (
            "overlapping edges",
            &[(0, 0), (4, 0), (4, 2), (3, 2), (3, 0), (1, 0), (1, 2), (0, 2)],
        ),
        // A bridge traversed twice the same way.
        (
            "edge twice one way",
            &[(0, 0), (4, 0), (4, 4), (0, 4), (0, 0), (1, 1), (3, 1), (1, 1)],
        ),
        // An edge doubling back on the one before.
        ("spike", &[(0, 0), (4, 0), (4, 4), (2, 2), (4, 4), (0, 4)]),
        // A hole's edge running along the outline for part of its length.
        (
            "partial bridge",
            &[
                (0, 0),
                (4, 0),
                (4, 4),
                (0, 4),
                (0, 0),
                (2, 0),
                (2, 2),
                (3, 2),
                (3, 0),
                (0, 0),
            ],
        ),
    ];
    for (name, pts) in refused {
        for reversed in [false, true] {
            let mut poly: Vec<Vec2> = pts.iter().map(|&(x, y)| v(x as f32, y as f32)).collect();
            if reversed {
                poly.reverse();
            }
            assert_eq!(
                decompose(&poly).err(),
                Some(GeometryError::SelfIntersecting),
                "{name}"
            );
        }
    }
}

/// A random simple or weakly simple polygon of integer coordinates: a star-shaped polygon, a
/// spiral, a comb with random teeth, or one outline of a random tile grid (touching corners,
/// holes and long collinear runs).
fn random_polygon(rng: &mut Rng) -> Vec<(i64, i64)> {
    let kind = rng.int(0, 4);
    random_polygon_of(rng, kind)
}

/// A random polygon of one kind: 0 star-shaped, 1 spiral, 2 comb, 3 tile outline.
fn random_polygon_of(rng: &mut Rng, kind: i64) -> Vec<(i64, i64)> {
    match kind {
        0 => {
            let n = rng.int(3, 60) as usize;
            let mut angles: Vec<i64> = (0..n)
                .map(|k| (k as i64 * 10_000 + rng.int(1_000, 9_000)) / n as i64)
                .collect();
            angles.sort_unstable();
            angles
                .iter()
                .map(|&a| {
                    let t = a as f64 / 10_000.0 * core::f64::consts::TAU;
                    let r = rng.int(200, 1000) as f64;
                    ((r * t.cos()).round() as i64, (r * t.sin()).round() as i64)
                })
                .collect()
        }
        1 => {
            // At least 16 points a turn, so the arms' chords stay apart.
            let turns = rng.int(100, 250) as f64 / 100.0;
            let half = (16.0 * turns) as usize + rng.int(0, 20) as usize;
            let arm = |k: usize, r0: f64| {
                let t = k as f64 / (half - 1) as f64;
                let a = t * turns * core::f64::consts::TAU;
                let r = (r0 + t) * 1000.0;
                ((r * a.cos()).round() as i64, (r * a.sin()).round() as i64)
            };
            let mut pts: Vec<(i64, i64)> = (0..half).map(|k| arm(k, 0.35)).collect();
            pts.extend((0..half).rev().map(|k| arm(k, 0.2)));
            pts
        }
        2 => {
            let teeth = rng.int(1, 12);
            let mut pts = vec![(0, -rng.int(1, 5))];
            let mut x = 0;
            let mut tops = Vec::new();
            for _ in 0..teeth {
                let (w, gap, h) = (rng.int(1, 4), rng.int(1, 4), rng.int(1, 9));
                tops.push((x, x + w, h));
                x += w + gap;
            }
            pts.push((x, pts[0].1));
            for &(a, b, h) in tops.iter().rev() {
                pts.extend([(b, 0), (b, h), (a, h), (a, 0)]);
            }
            // The gap after the last tooth ends at the base's right side.
            pts.insert(2, (x, 0));
            pts
        }
        _ => {
            let (w, h) = (rng.int(2, 9) as usize, rng.int(2, 9) as usize);
            let cells: Vec<bool> = (0..w * h).map(|_| rng.int(0, 3) != 0).collect();
            let outlines = tile_outlines(w, h, 1.0, Vec2::ZERO, |x, y| cells[y * w + x]).unwrap_or_default();
            match outlines.get(rng.int(0, outlines.len().max(1) as i64) as usize) {
                Some(c) => c.points().iter().map(|p| (p.x as i64, p.y as i64)).collect(),
                None => vec![(0, 0), (1, 0), (0, 1)],
            }
        }
    }
}

fn p_pieces_tile_the_polygon(seed: u64) -> TestResult {
    let mut rng = Rng(seed);
    let pts = random_polygon(&mut rng);
    let s = [0.01f32, 0.1, 1.0, 100.0, 1.0e4][rng.int(0, 5) as usize];
    let o = v(rng.int(-100, 100) as f32, rng.int(-100, 100) as f32) * s;
    let mut poly: Vec<Vec2> = pts.iter().map(|&(x, y)| o + v(x as f32, y as f32) * s).collect();
    if rng.int(0, 2) == 0 {
        poly.reverse();
    }
    match decompose(&poly) {
        Ok(pieces) => match check_tiling(&poly, &pieces, 200) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(format!("seed {seed}, scale {s}: {e}\n{poly:?}")),
        },
        Err(e) => TestResult::error(format!("seed {seed}, scale {s}: {e:?}\n{poly:?}")),
    }
}

#[test]
fn prop_pieces_are_valid_disjoint_and_cover_the_polygon() {
    QuickCheck::new()
        .tests(3000)
        .quickcheck(p_pieces_tile_the_polygon as fn(u64) -> TestResult);
}

/// Report (not a test of speed): piece counts and times for circles, stars and combs of 64 …
/// 100 000 vertices. Run with `cargo test --release --test decompose_scale -- --ignored
/// --nocapture`.
#[test]
#[ignore]
fn report_piece_counts_and_times() {
    for n in [64usize, 1024, 16_384, 100_000] {
        let shapes: [(&str, Vec<Vec2>); 3] = [
            ("circle", regular_polygon(n, 1.0, (0.0, 0.0))),
            ("star", regular_star(n, 0.5, 1.0)),
            ("comb", comb_polygon((n - 1) / 4)),
        ];
        for (name, poly) in shapes {
            let t = std::time::Instant::now();
            let r = decompose(&poly);
            let dt = t.elapsed();
            match r {
                Ok(p) => eprintln!(
                    "{name:>6} {:>6} vertices: {:>6} pieces in {:>9.3} ms",
                    poly.len(),
                    p.len(),
                    dt.as_secs_f64() * 1e3
                ),
                Err(e) => eprintln!("{name:>6} {:>6} vertices: {e:?} in {dt:?}", poly.len()),
            }
        }
    }
    // Large random outlines: a star-shaped polygon of random radii, and the longest outline
    // of a random tile map (corners touching everywhere, long collinear runs).
    let mut rng = Rng(11);
    let n = 100_000;
    let random_star: Vec<Vec2> = (0..n)
        .map(|k| {
            let a = core::f64::consts::TAU * (k as f64 + 0.5) / n as f64;
            let r = rng.int(500, 1000) as f64;
            v((r * a.cos()) as f32, (r * a.sin()) as f32)
        })
        .collect();
    let side = 700;
    let cells: Vec<bool> = (0..side * side).map(|_| rng.int(0, 100) < 60).collect();
    let outlines = tile_outlines(side, side, 1.0, Vec2::ZERO, |x, y| cells[y * side + x]).unwrap();
    let tiles = outlines
        .iter()
        .max_by_key(|c| c.points().len())
        .unwrap()
        .points()
        .to_vec();
    for (name, poly) in [("random star", random_star), ("tile outline", tiles)] {
        let t = std::time::Instant::now();
        let r = decompose(&poly);
        let dt = t.elapsed();
        let pieces = r.map(|p| p.len());
        eprintln!(
            "{name} of {} vertices: {pieces:?} pieces in {:.3} ms",
            poly.len(),
            dt.as_secs_f64() * 1e3
        );
    }
    for (kind, name) in ["star-shaped", "spiral", "comb", "tile outline"]
        .iter()
        .enumerate()
    {
        let mut rng = Rng(7 + kind as u64);
        let (mut accepted, mut pieces, mut vertices) = (0, 0, 0);
        for _ in 0..500 {
            let poly: Vec<Vec2> = random_polygon_of(&mut rng, kind as i64)
                .iter()
                .map(|&(x, y)| v(x as f32, y as f32))
                .collect();
            if let Ok(p) = decompose(&poly) {
                accepted += 1;
                pieces += p.len();
                vertices += poly.len();
            }
        }
        eprintln!("500 random {name} polygons: {accepted} accepted, {vertices} vertices, {pieces} pieces");
    }
}

/// The C entry point takes the same weakly simple outlines: a keyhole gives the pieces
/// `decompose` gives, and a bow tie is refused.
#[cfg(feature = "capi")]
#[test]
fn c_decompose_takes_a_keyhole() {
    use collide2d::capi::*;
    let keyhole: Vec<Vec2> = [
        (0, 0),
        (4, 0),
        (4, 4),
        (0, 4),
        (0, 0),
        (1, 1),
        (1, 3),
        (3, 3),
        (3, 1),
        (1, 1),
    ]
    .iter()
    .map(|&(x, y)| v(x as f32, y as f32))
    .collect();
    let mut out = [Polygon::make_box(1.0, 1.0).unwrap(); 16];
    let mut count = 0u32;
    // SAFETY: `keyhole.len()` readable points, 16 writable polygons, a writable count.
    let status = unsafe {
        c2d_decompose(
            keyhole.as_ptr(),
            keyhole.len() as u32,
            out.as_mut_ptr(),
            16,
            &mut count,
        )
    };
    assert_eq!(status, Status::Ok);
    assert_eq!(&out[..count as usize], &decompose(&keyhole).unwrap()[..]);
    let bow = [v(0.0, 0.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 1.0)];
    // SAFETY: as above, 4 points.
    let status = unsafe { c2d_decompose(bow.as_ptr(), 4, out.as_mut_ptr(), 16, &mut count) };
    assert_eq!(status, Status::SelfIntersecting);
}

/// The pieces of an exact outline `outline` keep it: each piece is valid, its vertices are
/// corners of the outline, and their areas sum to the outline's shoelace area in `f64`
/// (measured from `o`, to 1e-9 relative: `f64` rounding of the sums).
fn check_keeps_outline(outline: &[Vec2], pieces: &[Polygon], o: Vec2) -> Result<(), String> {
    let corners: HashSet<(u32, u32)> = outline.iter().map(|p| (p.x.to_bits(), p.y.to_bits())).collect();
    let whole = area2(outline, o).abs();
    let mut sum = 0.0;
    for (k, p) in pieces.iter().enumerate() {
        if !p.is_valid() {
            return Err(format!("piece {k} not valid: {p:?}"));
        }
        if let Some(q) = p
            .vertices()
            .iter()
            .find(|q| !corners.contains(&(q.x.to_bits(), q.y.to_bits())))
        {
            return Err(format!("piece {k} has a vertex {q:?} not in the outline"));
        }
        sum += area2(p.vertices(), o);
    }
    if (sum - whole).abs() > 1e-9 * whole {
        return Err(format!(
            "pieces' area {} of {} ({} pieces)",
            sum * 0.5,
            whole * 0.5,
            pieces.len()
        ));
    }
    Ok(())
}

/// Tile and slope outlines, exact by construction, are decomposed without changing shape at
/// any distance from the origin where the builders accept them (origins 1e3 … 1e7; slope
/// tiles of size 2 at 1e7, where half cells of 1 are still whole floats): the pieces' area is
/// the outline's and their corners are its corners. Regression: the map `SSSS / SS..` at
/// x = 1.2e6 (cell 1) decomposed into the triangle (4, 0), (0, 2), (0, 0) of area 4, not 6.
#[test]
fn outlines_far_from_the_origin_are_decomposed_with_their_exact_area() {
    let rows = ["SSSS", "SS.."];
    let o = v(1.2e6, 0.0);
    let outline = tile_outlines(4, 2, 1.0, o, |x, y| rows[1 - y].as_bytes()[x] == b'S').unwrap();
    assert_eq!(outline.len(), 1);
    let pieces = decompose(outline[0].points()).unwrap();
    check_keeps_outline(outline[0].points(), &pieces, o)
        .unwrap_or_else(|e| panic!("SSSS / SS.. at 1.2e6: {e}"));

    let mut rng = Rng(0xFA2);
    let mut failures = Vec::new();
    let mut loops = 0;
    for &far in &[1.0e3f32, 1.0e4, 1.0e5, 9.0e5, 1.0e6, 1.2e6, 4.0e6, 1.0e7] {
        for round in 0..40 {
            let (w, h) = (rng.int(2, 12) as usize, rng.int(2, 12) as usize);
            let o = v(
                far * [1.0, -1.0][round % 2] + rng.int(-50, 50) as f32,
                far * [1.0, 0.5, -1.0, 0.0][round % 4] + rng.int(-50, 50) as f32,
            );
            let density = rng.int(30, 90);
            let cells: Vec<bool> = (0..w * h).map(|_| rng.int(0, 100) < density).collect();
            let tiles: Vec<Tile> = (0..w * h)
                .map(|_| {
                    if rng.int(0, 100) < density {
                        Tile::all()[rng.int(1, 12) as usize]
                    } else {
                        Tile::Empty
                    }
                })
                .collect();
            let cell = if far >= 1.0e7 { 2.0 } else { 1.0 };
            let square = tile_outlines(w, h, 1.0, o, |x, y| cells[y * w + x]).unwrap();
            let sloped = slope_outlines(w, h, v(cell, cell), o, |x, y| tiles[y * w + x]).unwrap();
            for (kind, chains) in [("tiles", &square), ("slopes", &sloped)] {
                for c in chains.iter() {
                    loops += 1;
                    let result = decompose(c.points())
                        .map_err(|e| format!("{e:?}"))
                        .and_then(|p| check_keeps_outline(c.points(), &p, o));
                    if let Err(e) = result {
                        failures.push(format!("{kind} at {o:?}: {e}"));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {loops} outlines changed, first: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}
