//! The shortcut for two axis-aligned boxes: when both polygons are canonical boxes (as
//! `Polygon::make_box` and `Polygon::from_aabb` lay them out), the SAT needs no dot products per
//! vertex and no [`LocalPoly`](super::polygon) is built before the decision. Its results are the
//! full path's bit for bit (tested in `polygon.rs`).

use super::polygon_pair_frames;
use crate::fmath;
use crate::geometry::{Polygon, MAX_POLYGON_VERTICES};
use crate::math::{Transform, Vec2};

/// What the box-pair shortcut decided (see [`box_pair_decide`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum BoxPair {
    /// Not two canonical boxes, or a case only the full path decides.
    Unknown,
    /// Separated by more than the margin (or invalid input): no contact.
    Apart,
    /// Valid input whose cores overlap or touch: in contact, with the full path's SAT result.
    Touching(BoxSat),
}

/// The SAT of two canonical boxes in A's shifted frame: what [`polygon_verdict`] would find, and
/// the corners `from_polygon` would compute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BoxSat {
    pub(super) sep_a: f32,
    pub(super) edge_a: usize,
    pub(super) sep_b: f32,
    pub(super) edge_b: usize,
    /// A's corners.
    pub(super) ca: [Vec2; 4],
    /// B's corners.
    pub(super) w: [Vec2; 4],
}

/// Whether `count` vertices `v` with normals `n` are laid out as [`Polygon::make_box`],
/// [`Polygon::from_aabb`] and unrotated [`Polygon::make_offset_box`] lay boxes out: four
/// vertices from the lower-left corner counter-clockwise, normals exactly `(0,-1), (1,0), (0,1),
/// (-1,0)`. The one canonical-box predicate: the source-side test here and the frame-side test
/// of `LocalPoly` (where `n · w` for each normal is then exactly `-w.y`, `w.x`, `w.y`, `-w.x`, and
/// the corner minimising `n · w` is picked by the signs of `n`, rounding being monotone).
#[inline(always)]
pub(super) fn is_canonical_box(
    count: u32,
    v: &[Vec2; MAX_POLYGON_VERTICES],
    n: &[Vec2; MAX_POLYGON_VERTICES],
) -> bool {
    count == 4
        && n[0] == Vec2::new(0.0, -1.0)
        && n[1] == Vec2::X
        && n[2] == Vec2::Y
        && n[3] == Vec2::new(-1.0, 0.0)
        && v[1].y == v[0].y
        && v[2].x == v[1].x
        && v[3].y == v[2].y
        && v[3].x == v[0].x
        && v[1].x >= v[0].x
        && v[2].y >= v[1].y
}

/// The polygon-pair decision for two canonical boxes without building [`LocalPoly`]s: B's
/// corners and normals are computed in A's shifted frame with exactly the arithmetic of
/// [`LocalPoly::from_polygon`], and the SAT uses the shortcuts of [`find_max_separation`], so the
/// separation is the full path's bit for bit. `Apart` is then exactly the full verdict's
/// `Apart` (for invalid input the full path reports no contact too); `Touching` is returned only
/// for input `from_polygon` accepts (same finiteness sums) whose cores overlap, where the full
/// verdict is `Contact` with no closest-point search. Everything else is `Unknown`.
#[inline(always)]
pub(crate) fn box_pair_decide(a: &Polygon, b: &Polygon, xf: Transform, margin: f32) -> BoxPair {
    if !(is_canonical_box(a.count, &a.vertices, &a.normals)
        && is_canonical_box(b.count, &b.vertices, &b.normals))
    {
        return BoxPair::Unknown;
    }
    let (_, sa, sb) = polygon_pair_frames(a, xf);
    // A's corners in its shifted frame (the identity-rotation path of `from_polygon`): the
    // rectangle [x0, x1] × [y0, y1].
    let (x0, x1) = (a.vertices[0].x + sa.p.x, a.vertices[1].x + sa.p.x);
    let (y0, y1) = (a.vertices[0].y + sa.p.y, a.vertices[2].y + sa.p.y);
    let ca = [
        Vec2::new(x0, y0),
        Vec2::new(x1, y0),
        Vec2::new(x1, y1),
        Vec2::new(x0, y1),
    ];
    // B's corners `sb.apply(v)`: a box shares its eight products among its four corners.
    let (c, s, t) = (sb.q.c, sb.q.s, sb.p);
    let (bx0, bx1, by0, by1) = (b.vertices[0].x, b.vertices[1].x, b.vertices[0].y, b.vertices[2].y);
    let (cx0, cx1, sx0, sx1) = (c * bx0, c * bx1, s * bx0, s * bx1);
    let (cy0, cy1, sy0, sy1) = (c * by0, c * by1, s * by0, s * by1);
    let w = [
        Vec2::new((cx0 - sy0) + t.x, (sx0 + cy0) + t.y),
        Vec2::new((cx1 - sy0) + t.x, (sx1 + cy0) + t.y),
        Vec2::new((cx1 - sy1) + t.x, (sx1 + cy1) + t.y),
        Vec2::new((cx0 - sy1) + t.x, (sx0 + cy1) + t.y),
    ];
    // B's normals `sb.q.rotate(n)` for the canonical normals (equal up to the sign of zero).
    let m = [
        Vec2::new(s, -c),
        Vec2::new(c, s),
        Vec2::new(-s, c),
        Vec2::new(-c, -s),
    ];
    // A's faces against B's corners: the extremes of B's coordinates.
    let (mut lo_x, mut hi_x, mut lo_y, mut hi_y) = (w[0].x, w[0].x, w[0].y, w[0].y);
    for v in &w[1..] {
        lo_x = if v.x < lo_x { v.x } else { lo_x };
        hi_x = if v.x > hi_x { v.x } else { hi_x };
        lo_y = if v.y < lo_y { v.y } else { lo_y };
        hi_y = if v.y > hi_y { v.y } else { hi_y };
    }
    let mins = [-hi_y, lo_x, lo_y, -hi_x];
    let (mut sep_a, mut edge_a) = (f32::NEG_INFINITY, 0);
    for i in 0..4 {
        let si = mins[i] - a.normals[i].dot(ca[i]);
        if si > sep_a {
            sep_a = si;
            edge_a = i;
        }
    }
    // B's faces against A's minimising corner, picked by the signs of the normal.
    let (mut sep_b, mut edge_b) = (f32::NEG_INFINITY, 0);
    for j in 0..4 {
        let n = m[j];
        let corner = Vec2::new(if n.x >= 0.0 { x0 } else { x1 }, if n.y >= 0.0 { y0 } else { y1 });
        let sj = n.dot(corner) - n.dot(w[j]);
        if sj > sep_b {
            sep_b = sj;
            edge_b = j;
        }
    }
    let sep = sep_a.max(sep_b);
    if !(sep <= a.radius + b.radius + margin) {
        return BoxPair::Apart;
    }
    if sep > 0.0 {
        return BoxPair::Unknown;
    }
    // `from_polygon`'s acceptance test, term for term.
    let mut sum_a = a.radius;
    let mut sum_b = b.radius;
    for i in 0..4 {
        sum_a += ca[i].x + ca[i].y + a.normals[i].x + a.normals[i].y;
        sum_b += w[i].x + w[i].y + m[i].x + m[i].y;
    }
    if a.radius >= 0.0
        && b.radius >= 0.0
        && fmath::nan_if_not_finite(sum_a) == 0.0
        && fmath::nan_if_not_finite(sum_b) == 0.0
    {
        BoxPair::Touching(BoxSat {
            sep_a,
            edge_a,
            sep_b,
            edge_b,
            ca,
            w,
        })
    } else {
        BoxPair::Unknown
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::math::{Aabb, Rot};
    use crate::narrowphase::polygon::{
        find_max_separation, polygon_verdict, polygons_local, polygons_ordered, LocalPoly, PolyVerdict,
    };
    use crate::narrowphase::{pair_frame, Manifold};
    use crate::test_rng::Rng;

    /// The axis-aligned-box shortcuts of `find_max_separation` against the full loops (the same
    /// polygons with the flag cleared): identical separation and edge, on random boxes and
    /// polygons at four scales, with exact identity rotations, exactly touching boxes and
    /// integer coordinates (ties) included.
    #[test]
    fn aligned_box_sat_shortcut_is_bit_identical() {
        let mut rng = Rng(7);
        let mut shortcuts = 0;
        for case in 0..40_000 {
            let s = [0.01f32, 1.0, 100.0, 1.0e4][case % 4];
            let integer = case % 5 == 0;
            let q = |rng: &mut Rng, lo: f32, hi: f32| {
                let v = rng.f(lo, hi) * s;
                if integer {
                    v.round().max(1.0)
                } else {
                    v
                }
            };
            let box_a = Polygon::make_offset_box(
                q(&mut rng, 0.2, 1.0),
                q(&mut rng, 0.2, 1.0),
                Vec2::new(q(&mut rng, -1.0, 1.0), q(&mut rng, -1.0, 1.0)),
                Rot::IDENTITY,
            )
            .unwrap();
            let other = match case % 3 {
                0 => Polygon::make_box(q(&mut rng, 0.2, 1.0), q(&mut rng, 0.2, 1.0)).unwrap(),
                1 => {
                    let n = 3 + (case / 3) % 6;
                    let pts: [Vec2; 8] = core::array::from_fn(|i| {
                        let a = (i as f32 + rng.f(-0.3, 0.3)) * core::f32::consts::TAU / n as f32;
                        Rot::from_angle(a).x_axis() * (rng.f(0.5, 1.0) * s)
                    });
                    match Polygon::new(&pts[..n]) {
                        Ok(p) => p,
                        Err(_) => continue,
                    }
                }
                _ => Polygon::from_aabb(Aabb::new(
                    Vec2::new(-q(&mut rng, 0.2, 1.0), -q(&mut rng, 0.2, 1.0)),
                    Vec2::new(q(&mut rng, 0.2, 1.0), q(&mut rng, 0.2, 1.0)),
                ))
                .unwrap(),
            };
            let angle = if case % 7 < 3 { 0.0 } else { rng.f(-3.2, 3.2) };
            let xf = Transform::new(Vec2::new(q(&mut rng, -2.0, 2.0), q(&mut rng, -2.0, 2.0)), angle);
            let (_, sa, sb) = polygon_pair_frames(&box_a, xf);
            let la = LocalPoly::from_polygon(&box_a, sa).unwrap();
            let lb = LocalPoly::from_polygon(&other, sb).unwrap();
            assert!(la.aligned, "case {case}: A not detected");
            let (mut fa, mut fb) = (la, lb);
            fa.aligned = false;
            fb.aligned = false;
            shortcuts += 1 + usize::from(lb.aligned);
            for (x, y, fx, fy) in [(&la, &lb, &fa, &fb), (&lb, &la, &fb, &fa)] {
                let (s1, e1) = find_max_separation(x, y);
                let (s2, e2) = find_max_separation(fx, fy);
                assert!(s1 == s2 && e1 == e2, "case {case}: ({s1}, {e1}) vs ({s2}, {e2})");
            }
        }
        assert!(shortcuts > 40_000);
    }

    /// The box-pair shortcut against the full verdict on the same input: `Apart` only where the
    /// full path finds no contact (apart, or input it rejects), `Touching` only where it finds
    /// contact without a closest-point search. Rounded boxes, margins, exact touching, huge and
    /// non-finite coordinates, and negative radii included.
    #[test]
    fn box_pair_decision_matches_full_verdict() {
        let mut rng = Rng(11);
        let mut decided = 0;
        for case in 0..60_000 {
            let s = [0.01f32, 1.0, 100.0, 1.0e4][case % 4];
            let integer = case % 5 == 0;
            let q = |rng: &mut Rng, lo: f32, hi: f32| {
                let v = rng.f(lo, hi) * s;
                if integer {
                    v.round().max(1.0)
                } else {
                    v
                }
            };
            let radius = |rng: &mut Rng| if case % 6 == 0 { rng.f(0.0, 0.3) * s } else { 0.0 };
            let mut a = Polygon::make_offset_box(
                q(&mut rng, 0.2, 1.0),
                q(&mut rng, 0.2, 1.0),
                Vec2::new(q(&mut rng, -1.0, 1.0), q(&mut rng, -1.0, 1.0)),
                Rot::IDENTITY,
            )
            .unwrap();
            a.radius = radius(&mut rng);
            let mut b = Polygon::from_aabb(Aabb::new(
                Vec2::new(-q(&mut rng, 0.2, 1.0), -q(&mut rng, 0.2, 1.0)),
                Vec2::new(q(&mut rng, 0.2, 1.0), q(&mut rng, 0.2, 1.0)),
            ))
            .unwrap();
            b.radius = radius(&mut rng);
            // Bad input: non-finite or huge corners (kept in the canonical layout), bad radius.
            match case % 97 {
                1 => {
                    b.vertices[1].x = f32::INFINITY;
                    b.vertices[2].x = f32::INFINITY;
                }
                2 => {
                    a.vertices[2].y = f32::NAN;
                    a.vertices[3].y = f32::NAN;
                }
                3 => b.radius = -1.0,
                4 => {
                    for v in &mut b.vertices[..4] {
                        *v *= 3.0e37;
                    }
                }
                _ => {}
            }
            let angle = if case % 7 < 3 { 0.0 } else { rng.f(-3.2, 3.2) };
            let xf = Transform::new(Vec2::new(q(&mut rng, -2.0, 2.0), q(&mut rng, -2.0, 2.0)), angle);
            let margin = if case % 3 == 0 { 0.05 * s } else { 0.0 };
            let (_, sa, sb) = polygon_pair_frames(&a, xf);
            let full = match (LocalPoly::from_polygon(&a, sa), LocalPoly::from_polygon(&b, sb)) {
                (Some(la), Some(lb)) => Some(polygon_verdict(&la, &lb, margin)),
                _ => None,
            };
            // The whole manifold equals the one built by the full path.
            let xfa = Transform::new(Vec2::new(3.0 * s, -2.0 * s), 0.7);
            // (In A-first order: `collide_polygons` may compute the pair B first.)
            let fast = polygons_ordered(&a, xfa, &b, xfa * xf, margin);
            let slow = match pair_frame(xfa, xfa * xf) {
                Some(rel) => {
                    let (origin, sa, sb) = polygon_pair_frames(&a, rel);
                    match (LocalPoly::from_polygon(&a, sa), LocalPoly::from_polygon(&b, sb)) {
                        (Some(la), Some(lb)) => polygons_local(&la, &lb, margin).to_world(xfa, origin),
                        _ => Manifold::default(),
                    }
                }
                None => Manifold::default(),
            };
            assert_eq!(fast, slow, "case {case}: manifolds differ");
            match (box_pair_decide(&a, &b, xf, margin), &full) {
                (BoxPair::Apart, None | Some(PolyVerdict::Apart)) => decided += 1,
                (
                    BoxPair::Touching(sat),
                    Some(PolyVerdict::Contact {
                        sep_a,
                        edge_a,
                        sep_b,
                        edge_b,
                        closest: None,
                    }),
                ) => {
                    // The same SAT result as the full path.
                    assert!(
                        sat.sep_a == *sep_a
                            && sat.edge_a == *edge_a
                            && sat.sep_b == *sep_b
                            && sat.edge_b == *edge_b,
                        "case {case}: SAT differs"
                    );
                    decided += 1;
                }
                (BoxPair::Unknown, _) => {}
                (d, _) => panic!("case {case}: shortcut {d:?} disagrees with the full verdict"),
            }
        }
        assert!(decided > 50_000, "decided {decided}");
    }
}
