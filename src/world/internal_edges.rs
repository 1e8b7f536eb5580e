//! Internal-edge removal for static geometry: floors, walls and platforms built from separate
//! polygons (tiles placed by an editor, destructible blocks, the shapes of one static body)
//! collide as smoothly as one chain.
//!
//! Where two static polygons meet face to face, each covers an edge of the other: those edges
//! are *internal*. A dynamic shape sliding across the seam can still find one of them, or the
//! corner at its end, as the polygon's closest feature (a box sinks its slop into the floor,
//! and at the seam the next tile's side face is a shallower way out), and its manifold then
//! pushes sideways or up: the body snags. Box2D leaves this to the user; Jolt removes such
//! contacts in 3D ("enhanced internal edge removal"). Here, a contact of a non-static shape
//! with a static polygon whose normal is an internal edge's, or comes from a corner next to an
//! internal edge, is replaced by the contact with the exposed edge at that corner, taken as a
//! one-sided chain segment whose ghost vertices continue the surface (straight on across an
//! internal edge, round the polygon's own corner otherwise): the chain rule then keeps only
//! normals the surface really has. A corner between two internal edges is inside the floor,
//! and its contact is dropped.
//!
//! Chain segments and two-sided segments laid end to end are welded the same way. An open
//! chain's end is square (its ghost is its own point, so the end acts as a 90° corner) and a
//! segment's ends are points; where another static chain segment, segment or sharp polygon
//! edge continues one straight on (two chains drawn separately meeting on a floor, a chain
//! floor running into a tile's top), the end is taken as the surface going on: the segment is
//! lengthened past it with a collinear ghost (a two-sided segment is taken as the one-sided
//! chain segment facing the other shape), so no normal from the end's corner is admitted and
//! a body landing on or sliding across the joint is not turned or thrown there. Ends that
//! meet at an angle are left as they are.
//!
//! An edge is internal when one edge of another static polygon (sharp: radius 0) lies on it
//! facing the other way and covers it end to end, within [`EDGE_TOLERANCE`]. An edge covered
//! by two or more shorter edges together is not recognised. Which edges are internal is
//! worked out when a contact first needs it, and again after any static shape is added,
//! removed or moved (one counter for the whole world).

use crate::geometry::{ChainSegment, Polygon, Shape};
use crate::math::{Transform, Vec2};
use crate::narrowphase::{collide_with_margin, Manifold};

use super::constants::EDGE_TOLERANCE;

/// Cosine above which a manifold normal is taken to be an edge's normal (about 0.8°).
const SAME_DIRECTION: f32 = 0.9999;

/// The polygon's edges in world space: `(v_i, v_{i+1}, outward unit normal)`.
fn world_edges(p: &Polygon, xf: Transform) -> impl Iterator<Item = (Vec2, Vec2, Vec2)> + '_ {
    let n = p.len();
    (0..n).map(move |i| {
        (
            xf.apply(p.vertices[i]),
            xf.apply(p.vertices[(i + 1) % n]),
            xf.q.rotate(p.normals[i]),
        )
    })
}

/// Whether the edge `a → b` with outward normal `n` is covered by the edge `c → d` with
/// outward normal `m`: facing the other way, on the same line and spanning it end to end,
/// within [`EDGE_TOLERANCE`].
fn covers((a, b, n): (Vec2, Vec2, Vec2), (c, d, m): (Vec2, Vec2, Vec2)) -> bool {
    if n.dot(m) > -SAME_DIRECTION {
        return false;
    }
    if (c - a).dot(n).abs() > EDGE_TOLERANCE || (d - a).dot(n).abs() > EDGE_TOLERANCE {
        return false;
    }
    // Along the edge: its own direction (the outward normal turned a quarter to the left).
    let t = n.left_perp();
    let (lo, hi) = {
        let (u, v) = ((c - a).dot(t), (d - a).dot(t));
        (u.min(v), u.max(v))
    };
    let length = (b - a).dot(t);
    lo <= EDGE_TOLERANCE && hi >= length - EDGE_TOLERANCE
}

/// The mask of `p`'s edges (bit `i`: edge `v_i → v_{i+1}`) that one of `others` covers. Only
/// sharp polygons take part (a rounded one's surface is not its edges).
pub(super) fn internal_mask<'a>(
    p: &Polygon,
    xf: Transform,
    others: impl Iterator<Item = (&'a Polygon, Transform)>,
) -> u8 {
    if p.radius != 0.0 {
        return 0;
    }
    let mut mask = 0u8;
    let full = if p.len() >= 8 {
        u8::MAX
    } else {
        (1u8 << p.len()) - 1
    };
    for (q, xq) in others {
        if q.radius != 0.0 {
            continue;
        }
        for (i, e) in world_edges(p, xf).enumerate() {
            if mask & (1 << i) == 0 && world_edges(q, xq).any(|f| covers(e, f)) {
                mask |= 1 << i;
            }
        }
        if mask == full {
            break;
        }
    }
    mask
}

/// The chain segment of edge `i` of `p` (polygon frame) with ghosts that continue the surface:
/// straight on across an internal neighbouring edge, the polygon's own next vertex otherwise.
fn exposed_segment(p: &Polygon, mask: u8, i: usize) -> Option<ChainSegment> {
    extended_segment(p, mask, i, 0.0)
}

/// [`exposed_segment`] lengthened by `reach` past each end whose neighbouring edge is
/// internal: the surface goes on there (the neighbour's face), and a shape straddling the
/// seam then gets the same two points from both polygons (one surface's contact) instead of
/// two halves that the solver, one after the other, would turn it with.
fn extended_segment(p: &Polygon, mask: u8, i: usize, reach: f32) -> Option<ChainSegment> {
    let n = p.len();
    let v = |k: usize| p.vertices[k % n];
    let (mut v1, mut v2) = (v(i), v(i + 1));
    let before = (i + n - 1) % n;
    let after = (i + 1) % n;
    let along = (v2 - v1).normalize_or_zero();
    if mask & (1 << before) != 0 {
        v1 -= along * reach;
    }
    if mask & (1 << after) != 0 {
        v2 += along * reach;
    }
    let ghost1 = if mask & (1 << before) != 0 {
        v1 - (v2 - v1)
    } else {
        v(before)
    };
    let ghost2 = if mask & (1 << after) != 0 {
        v2 + (v2 - v1)
    } else {
        v(i + 2)
    };
    ChainSegment::new(ghost1, v1, v2, ghost2).ok()
}

/// The exposed edges of `p` (internal edges `mask`) as one-sided chain segments in the
/// polygon's frame, their ghosts continuing the surface (see [`exposed_segment`]).
pub(super) fn exposed_segments(p: &Polygon, mask: u8) -> impl Iterator<Item = ChainSegment> + '_ {
    (0..p.len())
        .filter(move |&i| mask & (1 << i) == 0)
        .filter_map(move |i| exposed_segment(p, mask, i))
}

/// Whether the static shape `other` (shape and pose) continues the segment `p1 → p2` (world)
/// straight on past its end `bit` (1: `p1`, 2: `p2`): one of its edges (a chain segment, a
/// two-sided segment, or an edge of a sharp polygon) lies on the segment's line and reaches
/// from that end point on beyond it, within [`EDGE_TOLERANCE`], facing the same way as the
/// segment's front (the right of `p1 → p2`) unless `two_sided` (a two-sided segment has a
/// front on both sides, and a two-sided neighbour faces both ways). Two open chains or two
/// segments laid end to end, or a chain floor meeting a tile's top, are one surface there.
pub(super) fn continues(
    (p1, p2): (Vec2, Vec2),
    bit: u8,
    two_sided: bool,
    (other, xo): (&Shape, Transform),
) -> bool {
    let Some(e) = (p2 - p1).try_normalize() else {
        return false;
    };
    // The front normal (the right of the direction, as a polygon's outward normal is the
    // right of its counter-clockwise edge) and the way out past the end.
    let n = e.right_perp();
    let (end, out) = if bit == 1 { (p1, -e) } else { (p2, e) };
    let goes_on = |a: Vec2, b: Vec2, m: Vec2, both_ways: bool| {
        let facing = n.dot(m);
        if !(facing >= SAME_DIRECTION || ((two_sided || both_ways) && facing <= -SAME_DIRECTION)) {
            return false;
        }
        if (a - end).dot(n).abs() > EDGE_TOLERANCE || (b - end).dot(n).abs() > EDGE_TOLERANCE {
            return false;
        }
        let (u, w) = ((a - end).dot(out), (b - end).dot(out));
        u.min(w) <= EDGE_TOLERANCE && u.max(w) > EDGE_TOLERANCE
    };
    let segment = |q1: Vec2, q2: Vec2, both_ways: bool| {
        (q2 - q1)
            .try_normalize()
            .is_some_and(|f| goes_on(q1, q2, f.right_perp(), both_ways))
    };
    match other {
        Shape::ChainSegment(d) => segment(xo.apply(d.point1), xo.apply(d.point2), false),
        Shape::Capsule(d) if d.radius == 0.0 => segment(xo.apply(d.center1), xo.apply(d.center2), true),
        Shape::Polygon(q) if q.radius == 0.0 => world_edges(q, xo).any(|(a, b, m)| goes_on(a, b, m, false)),
        _ => false,
    }
}

/// A two-sided segment `p1 → p2` (the shape's frame) with welded ends `ends` (bits as in
/// [`continues`]) as the one-sided chain segment facing `toward` (a point in the same frame:
/// the other shape's centre), so that it can be welded as a chain's end is
/// ([`welded_segment`]); its other ends stay square. A body skimming a floor of separate
/// segments then meets one surface, not each segment's end point.
pub(super) fn facing_segment(p1: Vec2, p2: Vec2, ends: u8, toward: Vec2) -> Option<(ChainSegment, u8)> {
    // The front of `p1 → p2` is on its right: `toward` there, or the segment reversed (its
    // end bits swapped with it).
    let front = (p2 - p1).cross(toward - p1) <= 0.0;
    let (a, b, ends) = if front {
        (p1, p2, ends)
    } else {
        (p2, p1, ((ends & 1) << 1) | ((ends & 2) >> 1))
    };
    ChainSegment::new(a, a, b, b).ok().map(|c| (c, ends))
}

/// Chain segment `c` with its welded ends (`ends`, bits as in [`continues`]) taken as the
/// surface going on straight: each such end lengthened by `reach` (the other shape's size,
/// so that a shape straddling the seam gets the same points from both sides, as one surface
/// would give) with a collinear ghost beyond it. The chain rules then admit no normal from
/// that end's corner: a body landing on, or sliding over, two open chains laid end to end is
/// not turned or thrown at the joint.
pub(super) fn welded_segment(c: &ChainSegment, ends: u8, reach: f32) -> ChainSegment {
    let along = (c.point2 - c.point1).normalize_or_zero();
    let mut w = *c;
    if ends & 1 != 0 {
        w.point1 -= along * reach;
        w.ghost1 = w.point1 - (w.point2 - w.point1);
    }
    if ends & 2 != 0 {
        w.point2 += along * reach;
        w.ghost2 = w.point2 + (w.point2 - w.point1);
    }
    // Finite by the world's ranges; a segment that is not (a reach past f32) stays as it was.
    ChainSegment::new(w.ghost1, w.point1, w.point2, w.ghost2).unwrap_or(*c)
}

/// `m`, the manifold of static polygon `p` (at `xp`, internal edges `mask`) against `other`
/// (at `xo`), with the polygon as shape A when `p_is_a` (B otherwise), corrected for internal
/// edges as the module docs describe; `margin` is the pair's speculative margin.
pub(super) fn correct(
    m: Manifold,
    (p, xp, mask): (&Polygon, Transform, u8),
    (other, xo): (&Shape, Transform),
    p_is_a: bool,
    margin: f32,
) -> Manifold {
    if mask == 0 || m.count == 0 {
        return m;
    }
    let n = p.len();
    // The normal from the polygon toward the other shape, in the polygon's frame.
    let out = xp.q.inv_rotate(if p_is_a { m.normal } else { -m.normal });
    let face = (0..n).find(|&i| p.normals[i].dot(out) > SAME_DIRECTION);
    // The polygon's corner nearest the contact (the deepest point's), for corner contacts and
    // for faces that are internal.
    let deepest = m
        .points()
        .iter()
        .fold(m.points[0], |d, q| if q.depth > d.depth { *q } else { d });
    let at = xp.inv_apply(deepest.point);
    let corner = (0..n)
        .min_by(|&i, &j| {
            let (di, dj) = (
                p.vertices[i].distance_squared(at),
                p.vertices[j].distance_squared(at),
            );
            di.partial_cmp(&dj).unwrap_or(core::cmp::Ordering::Equal)
        })
        .unwrap_or(0);
    let (before, after) = ((corner + n - 1) % n, corner);
    let internal = |i: usize| mask & (1 << i) != 0;
    let edge = match face {
        // A face of the surface: the contact is real, and taken as part of the surface that
        // goes on across a seam next to it.
        Some(i) if !internal(i) => {
            if !internal((i + n - 1) % n) && !internal((i + 1) % n) {
                return m;
            }
            i
        }
        // An internal face: the contact belongs with the exposed edge at its nearer end.
        Some(i) => {
            let (start, end) = (p.vertices[i], p.vertices[(i + 1) % n]);
            let near_start = start.distance_squared(at) <= end.distance_squared(at);
            let (side, other_side) = if near_start {
                ((i + n - 1) % n, (i + 1) % n)
            } else {
                ((i + 1) % n, (i + n - 1) % n)
            };
            match (internal(side), internal(other_side)) {
                (false, _) => side,
                (true, false) => other_side,
                (true, true) => return Manifold::default(),
            }
        }
        // A corner: real when both its edges are exposed.
        None => match (internal(before), internal(after)) {
            (false, false) => return m,
            (true, true) => return Manifold::default(),
            (true, false) => after,
            (false, true) => before,
        },
    };
    // The exposed edge, continued across its seams by the other shape's size: a shape
    // straddling a seam gets the same points from both polygons.
    let reach = 2.0 * other.aabb(xo).half_extents().length();
    let Some(segment) = extended_segment(p, mask, edge, reach) else {
        return m;
    };
    let segment = Shape::ChainSegment(segment);
    if p_is_a {
        collide_with_margin(&segment, xp, other, xo, margin)
    } else {
        collide_with_margin(other, xo, &segment, xp, margin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(cx: f32) -> (Polygon, Transform) {
        (
            Polygon::make_box(0.5, 0.5).unwrap(),
            Transform::from_translation(Vec2::new(cx, -0.5)),
        )
    }

    /// Three tiles in a row: the middle one's left and right faces are covered, its top and
    /// bottom are not; a tile one slop apart still covers, one a centimetre off does not.
    #[test]
    fn faces_covered_by_a_neighbour_are_internal() {
        let (p, xp) = tile(0.0);
        let (l, xl) = tile(-1.0);
        let (r, xr) = tile(1.0);
        // make_box: edges bottom (0), right (1), top (2), left (3).
        assert_eq!(internal_mask(&p, xp, [(&l, xl), (&r, xr)].into_iter()), 0b1010);
        assert_eq!(internal_mask(&p, xp, [(&r, xr)].into_iter()), 0b0010);
        let near = Transform::from_translation(Vec2::new(1.0 + 0.5 * EDGE_TOLERANCE, -0.5));
        assert_eq!(internal_mask(&p, xp, [(&r, near)].into_iter()), 0b0010);
        let off = Transform::from_translation(Vec2::new(1.01, -0.5));
        assert_eq!(internal_mask(&p, xp, [(&r, off)].into_iter()), 0);
        // A half-height neighbour covers only part of the face: not internal.
        let half = Polygon::make_box(0.5, 0.25).unwrap();
        let xh = Transform::from_translation(Vec2::new(1.0, -0.25));
        assert_eq!(internal_mask(&p, xp, [(&half, xh)].into_iter()), 0);
    }

    /// A box sunk a slop into the floor at a seam, its corner just past the next tile's
    /// internal left face: the raw manifold pushes it sideways; corrected, straight up.
    #[test]
    fn a_ghost_side_contact_at_a_seam_becomes_the_floor_contact() {
        let (r, xr) = tile(1.0);
        let mask = 0b1000; // left face covered by the tile at x = 0
        let mover = Shape::rect(0.25, 0.25);
        let xm = Transform::from_translation(Vec2::new(0.5 - 0.25 + 0.001, 0.25 - 0.005));
        let raw = collide_with_margin(&Shape::Polygon(r), xr, &mover, xm, 0.02);
        assert!(raw.count > 0 && raw.normal.x < -0.9, "{raw:?}");
        let fixed = correct(raw, (&r, xr, mask), (&mover, xm), true, 0.02);
        assert!(
            fixed.count > 0 && (fixed.normal - Vec2::new(0.0, 1.0)).length() < 1e-6,
            "{fixed:?}"
        );
        // The same pair in the other order.
        let flipped = collide_with_margin(&mover, xm, &Shape::Polygon(r), xr, 0.02);
        let fixed = correct(flipped, (&r, xr, mask), (&mover, xm), false, 0.02);
        assert!(
            fixed.count > 0 && (fixed.normal - Vec2::new(0.0, -1.0)).length() < 1e-6,
            "{fixed:?}"
        );
        // With the face exposed (no neighbour) the side contact is real and kept.
        let kept = correct(raw, (&r, xr, 0), (&mover, xm), true, 0.02);
        assert_eq!(kept, raw);
    }

    fn seg(a: Vec2, b: Vec2) -> ChainSegment {
        ChainSegment::new(a, a, b, b).unwrap()
    }

    fn ends(c: &ChainSegment) -> (Vec2, Vec2) {
        (c.point1, c.point2)
    }

    #[test]
    fn chains_laid_end_to_end_continue_each_other() {
        let v = Vec2::new;
        let xf = Transform::IDENTITY;
        // A floor drawn right to left (front up) in two pieces meeting at x = 0.
        let left = seg(v(0.0, 0.0), v(-10.0, 0.0));
        let right = seg(v(10.0, 0.0), v(0.0, 0.0));
        let on = |s: &ChainSegment| (Shape::ChainSegment(*s), xf);
        let (r, l) = (on(&right), on(&left));
        assert!(
            continues(ends(&left), 1, false, (&r.0, r.1)),
            "left's point1 is continued by right"
        );
        assert!(
            continues(ends(&right), 2, false, (&l.0, l.1)),
            "right's point2 is continued by left"
        );
        assert!(
            !continues(ends(&left), 2, false, (&r.0, r.1)),
            "left's far end is not"
        );
        // Facing down: not the same surface.
        let flipped = Shape::ChainSegment(seg(v(0.0, 0.0), v(10.0, 0.0)));
        assert!(!continues(ends(&left), 1, false, (&flipped, xf)));
        // A gap, a step and a bend: not continued.
        for other in [
            seg(v(10.0, 0.0), v(0.01, 0.0)),
            seg(v(10.0, 0.01), v(0.0, 0.01)),
            seg(v(10.0, 1.0), v(0.0, 0.0)),
        ] {
            assert!(
                !continues(ends(&left), 1, false, (&Shape::ChainSegment(other), xf)),
                "{other:?}"
            );
        }
        // A piece that overlaps the end and goes on is the surface too.
        let overlap = Shape::ChainSegment(seg(v(10.0, 0.0), v(-1.0, 0.0)));
        assert!(continues(ends(&left), 1, false, (&overlap, xf)));
        // A sharp tile whose top goes on from the end; a rounded one is not its edges.
        let tile = Polygon::make_offset_box(0.5, 0.5, v(0.5, -0.5), crate::math::Rot::IDENTITY).unwrap();
        assert!(continues(ends(&left), 1, false, (&Shape::Polygon(tile), xf)));
        let round = Polygon::make_rounded_box(0.45, 0.45, 0.05).unwrap();
        let xr = Transform::new(v(0.5, -0.5), 0.0);
        assert!(!continues(ends(&left), 1, false, (&Shape::Polygon(round), xr)));
    }

    #[test]
    fn a_welded_end_is_lengthened_with_a_collinear_ghost() {
        let v = Vec2::new;
        let left = seg(v(0.0, 0.0), v(-10.0, 0.0));
        let w = welded_segment(&left, 1, 0.5);
        assert_eq!(
            (w.point1, w.point2, w.ghost2),
            (v(0.5, 0.0), v(-10.0, 0.0), v(-10.0, 0.0))
        );
        assert_eq!(w.ghost1, v(11.0, 0.0));
        // The other end keeps its square ghost; no bits, no change.
        assert_eq!(welded_segment(&left, 0, 0.5), left);
        let both = welded_segment(&left, 3, 1.0);
        assert_eq!((both.point1, both.point2), (v(1.0, 0.0), v(-11.0, 0.0)));
        assert_eq!((both.ghost1, both.ghost2), (v(12.0, 0.0), v(-23.0, 0.0)));
    }

    #[test]
    fn two_sided_segments_continue_each_other_either_way() {
        let v = Vec2::new;
        let xf = Transform::IDENTITY;
        let next = Shape::Capsule(crate::geometry::Capsule::new(v(1.0, 0.0), v(2.0, 0.0), 0.0).unwrap());
        let back = Shape::Capsule(crate::geometry::Capsule::new(v(2.0, 0.0), v(1.0, 0.0), 0.0).unwrap());
        // A two-sided segment 0 → 1 is continued at its end 2 by either orientation.
        assert!(continues((v(0.0, 0.0), v(1.0, 0.0)), 2, true, (&next, xf)));
        assert!(continues((v(0.0, 0.0), v(1.0, 0.0)), 2, true, (&back, xf)));
        // A one-sided chain segment (front down) is continued by it too: a two-sided
        // neighbour faces both ways.
        assert!(continues((v(0.0, 0.0), v(1.0, 0.0)), 2, false, (&back, xf)));
        // Not at the other end, not across a gap or a bend.
        assert!(!continues((v(0.0, 0.0), v(1.0, 0.0)), 1, true, (&next, xf)));
        let bent = Shape::Capsule(crate::geometry::Capsule::new(v(1.0, 0.0), v(2.0, 0.5), 0.0).unwrap());
        assert!(!continues((v(0.0, 0.0), v(1.0, 0.0)), 2, true, (&bent, xf)));
        let apart = Shape::Capsule(crate::geometry::Capsule::new(v(1.01, 0.0), v(2.0, 0.0), 0.0).unwrap());
        assert!(!continues((v(0.0, 0.0), v(1.0, 0.0)), 2, true, (&apart, xf)));
    }

    #[test]
    fn a_welded_two_sided_segment_faces_the_other_shape() {
        let v = Vec2::new;
        // Above the segment 0 → 1 (its front, the right of 0 → 1, is below): reversed, the
        // end bits swapped with it.
        let (c, ends) = facing_segment(v(0.0, 0.0), v(1.0, 0.0), 2, v(0.5, 1.0)).unwrap();
        assert_eq!((c.point1, c.point2, ends), (v(1.0, 0.0), v(0.0, 0.0), 1));
        assert!(c.normal().y > 0.99);
        // Below it: as it is.
        let (c, ends) = facing_segment(v(0.0, 0.0), v(1.0, 0.0), 2, v(0.5, -1.0)).unwrap();
        assert_eq!((c.point1, c.point2, ends), (v(0.0, 0.0), v(1.0, 0.0), 2));
        assert!(c.normal().y < -0.99);
    }
}
