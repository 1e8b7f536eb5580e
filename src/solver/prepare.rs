//! Preparing constraints: [`prepare_contact`] turns a manifold into a [`ContactConstraint`]
//! (anchors, base separations, effective masses, approach speeds), warm-started from last
//! step's constraint of the pair ([`Carried`]): points with the same feature id, or failing
//! that within [`WARM_START_DISTANCE`], start from its accumulated impulses.

use super::{cross_sv, non_negative, Body, ConstraintPoint, ContactConstraint, SolverError};
use crate::math::Vec2;
use crate::narrowphase::Manifold;

/// The inputs of [`prepare_contact_pair`]: one contact between two bodies, each part named.
#[derive(Clone, Copy, Debug)]
pub struct ContactPair<'a> {
    /// Index of body A in the body slice.
    pub a: u32,
    /// Index of body B.
    pub b: u32,
    /// The manifold of A's shape against B's (normal from A to B, world space).
    pub manifold: &'a Manifold,
    /// Coulomb friction coefficient (≥ 0), usually the mixed friction of the two materials.
    pub friction: f32,
    /// Restitution (≥ 0).
    pub restitution: f32,
    /// This pair's constraint from the last step, for warm starting (`None` the first time).
    pub previous: Option<&'a ContactConstraint>,
}

/// [`prepare_contact`] with its inputs named.
///
/// # Errors
/// As [`prepare_contact`].
pub fn prepare_contact_pair(
    bodies: &[Body],
    pair: &ContactPair<'_>,
) -> Result<ContactConstraint, SolverError> {
    prepare_contact(
        bodies,
        pair.a,
        pair.b,
        pair.manifold,
        pair.friction,
        pair.restitution,
        pair.previous,
    )
}

/// Builds the constraint for `manifold` (computed for the shapes of bodies `a` and `b` at
/// their current transforms, A first). When `previous` is this pair's constraint from the
/// last step, points whose feature ids match — or, failing that, that lie within
/// [`WARM_START_DISTANCE`] of an old point — start from its accumulated impulses.
///
/// Errors: [`SolverError::InvalidBody`] for indices out of range or `a == b`;
/// [`SolverError::InvalidInput`] for an invalid body, a non-finite manifold, or negative or
/// non-finite friction/restitution. A manifold with `count == 0` gives an empty constraint.
pub fn prepare_contact(
    bodies: &[Body],
    a: u32,
    b: u32,
    manifold: &Manifold,
    friction: f32,
    restitution: f32,
    previous: Option<&ContactConstraint>,
) -> Result<ContactConstraint, SolverError> {
    let (Some(ba), Some(bb)) = (bodies.get(a as usize), bodies.get(b as usize)) else {
        return Err(SolverError::InvalidBody);
    };
    if a == b {
        return Err(SolverError::InvalidBody);
    }
    if !(ba.is_valid() && bb.is_valid() && non_negative(friction) && non_negative(restitution)) {
        return Err(SolverError::InvalidInput);
    }
    let mut c = ContactConstraint::default();
    let carried = previous.map(Carried::new);
    build_constraint(
        &mut c,
        (a, ba),
        (b, bb),
        manifold,
        friction,
        restitution,
        carried.as_ref(),
    )?;
    Ok(c)
}

/// What warm starting takes from last step's constraint of a pair: per old point its feature
/// id, anchor on A and accumulated impulses. Small, so a constraint can be rebuilt in place.
#[derive(Clone, Copy)]
pub(crate) struct Carried {
    pub(super) count: u32,
    pub(super) points: [(u32, Vec2, f32, f32); 2],
}

impl Carried {
    /// Whether last step's constraint pushed at any point (a normal impulse above zero).
    #[cfg(feature = "alloc")]
    pub(crate) fn pushed(&self) -> bool {
        self.points[..self.count as usize].iter().any(|p| p.2 > 0.0)
    }

    /// Whether the carried impulses can be read back: at most two points, every number finite
    /// (what a restored snapshot's must hold).
    pub(crate) fn is_valid(&self) -> bool {
        self.count <= 2
            && self.points[..self.count.min(2) as usize]
                .iter()
                .all(|p| p.1.is_finite() && p.2.is_finite() && p.3.is_finite())
    }

    /// This with its point count set to `count` (tests of restoring hostile snapshots).
    #[cfg(test)]
    pub(crate) fn with_count(mut self, count: u32) -> Carried {
        self.count = count;
        self
    }

    pub(crate) fn new(prev: &ContactConstraint) -> Carried {
        let p = |cp: &ConstraintPoint| (cp.id, cp.anchor_a, cp.normal_impulse, cp.tangent_impulse);
        Carried {
            count: prev.count.min(2),
            points: [p(&prev.points[0]), p(&prev.points[1])],
        }
    }
}

/// Writes into `out` the constraint [`prepare_contact`] builds, for bodies, friction and
/// restitution already known to be valid (the world's): only the manifold is checked. On
/// error `out` is an empty constraint.
pub(crate) fn build_constraint(
    out: &mut ContactConstraint,
    (a, ba): (u32, &Body),
    (b, bb): (u32, &Body),
    manifold: &Manifold,
    friction: f32,
    restitution: f32,
    previous: Option<&Carried>,
) -> Result<(), SolverError> {
    *out = ContactConstraint {
        body_a: a,
        body_b: b,
        normal: manifold.normal,
        friction,
        restitution,
        ..ContactConstraint::default()
    };
    let pts = manifold.points();
    if pts.is_empty() {
        return Ok(());
    }
    if !usable(manifold) {
        *out = ContactConstraint::default();
        return Err(SolverError::InvalidInput);
    }
    let (ca, cb) = (ba.center(), bb.center());
    for (cp, mp) in out.points.iter_mut().zip(pts) {
        *cp = constraint_point(mp, manifold.normal, (ca, ba), (cb, bb));
    }
    out.count = pts.len() as u32;
    if let Some(prev) = previous {
        warm_start_from(out, prev);
    }
    Ok(())
}

/// Whether a manifold with points can be built into a constraint: finite, unit normal.
#[inline(always)]
pub(crate) fn usable(manifold: &Manifold) -> bool {
    let n = manifold.normal;
    let finite = n.is_finite()
        && manifold
            .points()
            .iter()
            .all(|mp| mp.point.is_finite() && mp.depth.is_finite());
    finite && (n.length_squared() - 1.0).abs() <= 1e-3
}

/// The constraint point of manifold point `mp` (normal `n`) between bodies `ba`, `bb` with
/// centres of mass `ca`, `cb`, impulses zero.
#[inline(always)]
pub(crate) fn constraint_point(
    mp: &crate::narrowphase::ManifoldPoint,
    n: Vec2,
    (ca, ba): (Vec2, &Body),
    (cb, bb): (Vec2, &Body),
) -> ConstraintPoint {
    let ra = mp.point - ca;
    let rb = mp.point - cb;
    constraint_at((ra, rb), -mp.depth - (rb - ra).dot(n), n, (ba, bb), mp.id)
}

/// The constraint point with anchors `ra`, `rb` (from each body's centre of mass, world
/// frame), base separation `base_separation` (see [`ConstraintPoint::base_separation`]) and
/// feature id `id` along normal `n` between bodies `ba`, `bb`: the effective masses and the
/// approach speed worked out from the bodies' masses and velocities, impulses zero.
#[inline(always)]
pub(crate) fn constraint_at(
    (ra, rb): (Vec2, Vec2),
    base_separation: f32,
    n: Vec2,
    (ba, bb): (&Body, &Body),
    id: u32,
) -> ConstraintPoint {
    let t = n.right_perp();
    let (ma, ia, mb, ib) = (ba.inv_mass, ba.inv_inertia, bb.inv_mass, bb.inv_inertia);
    let rna = ra.cross(n);
    let rnb = rb.cross(n);
    let kn = ma + mb + ia * rna * rna + ib * rnb * rnb;
    let rta = ra.cross(t);
    let rtb = rb.cross(t);
    let kt = ma + mb + ia * rta * rta + ib * rtb * rtb;
    let dv = bb.linear_velocity + cross_sv(bb.angular_velocity, rb)
        - ba.linear_velocity
        - cross_sv(ba.angular_velocity, ra);
    ConstraintPoint {
        anchor_a: ra,
        anchor_b: rb,
        base_separation,
        normal_impulse: 0.0,
        tangent_impulse: 0.0,
        max_normal_impulse: 0.0,
        normal_mass: if kn > 0.0 { 1.0 / kn } else { 0.0 },
        tangent_mass: if kt > 0.0 { 1.0 / kt } else { 0.0 },
        relative_velocity: dv.dot(n),
        id,
    }
}

/// Copies accumulated impulses from `prev` into `c`: first points with equal feature ids,
/// then each remaining point from the nearest unused old point within
/// [`WARM_START_DISTANCE`] (compared by anchor on body A; the first on a tie). The second
/// rule matters for stacks: with two equally deep faces (equal boxes stacked), the
/// manifold's reference face can switch between A and B from one frame to the next — the
/// manifold is swap-symmetric, so it has no preference — which renames the feature ids of
/// the same two corners.
fn warm_start_from(c: &mut ContactConstraint, prev: &Carried) {
    let count = (c.count as usize).min(2);
    warm_start_points(&mut c.points[..count], prev);
}

/// [`warm_start_from`] on the constraint's first points.
#[inline(always)]
pub(crate) fn warm_start_points(points: &mut [ConstraintPoint], prev: &Carried) {
    let old = &prev.points[..prev.count as usize];
    let count = points.len().min(2);
    // The common case, the same features in the same order: what the matching below gives
    // (each point takes the first unused old point of its id, which is its own).
    if old.len() == count && points.iter().zip(old).all(|(cp, o)| cp.id == o.0) {
        for (cp, &(_, _, normal, tangent)) in points.iter_mut().zip(old) {
            if normal.is_finite() && tangent.is_finite() {
                cp.normal_impulse = normal.max(0.0);
                cp.tangent_impulse = tangent;
            }
        }
        return;
    }
    match_points(points, prev);
}

/// [`warm_start_points`] without its shortcut: each point takes the first unused old point of
/// its feature id, then a point still without one takes the nearest unused old point within
/// [`WARM_START_DISTANCE`] of its anchor on A; a matched point takes that point's impulses
/// when they are finite (the normal one clamped at 0).
#[inline(always)]
fn match_points(points: &mut [ConstraintPoint], prev: &Carried) {
    const NONE: usize = usize::MAX;
    let old = &prev.points[..prev.count as usize];
    let count = points.len().min(2);
    let mut used = [false; 2];
    let mut source = [NONE; 2];
    for (k, cp) in points[..count].iter().enumerate() {
        for (j, o) in old.iter().enumerate() {
            if !used[j] && o.0 == cp.id {
                used[j] = true;
                source[k] = j;
                break;
            }
        }
    }
    for (k, cp) in points[..count].iter().enumerate() {
        if source[k] != NONE {
            continue;
        }
        let mut best = (NONE, WARM_START_DISTANCE * WARM_START_DISTANCE);
        for (j, o) in old.iter().enumerate() {
            let d2 = o.1.distance_squared(cp.anchor_a);
            if !used[j] && d2 <= best.1 && (best.0 == NONE || d2 < best.1) {
                best = (j, d2);
            }
        }
        if best.0 != NONE {
            used[best.0] = true;
            source[k] = best.0;
        }
    }
    for (cp, j) in points[..count].iter_mut().zip(source) {
        if let Some(&(_, _, normal, tangent)) = old.get(j) {
            if normal.is_finite() && tangent.is_finite() {
                cp.normal_impulse = normal.max(0.0);
                cp.tangent_impulse = tangent;
            }
        }
    }
}

/// Warm starting falls back to matching points by position within this distance (m) when
/// their feature ids differ (see [`prepare_contact`]).
pub const WARM_START_DISTANCE: f32 = 0.05;

#[cfg(test)]
mod tests {
    use super::*;

    fn point(id: u32, anchor: Vec2) -> ConstraintPoint {
        ConstraintPoint {
            id,
            anchor_a: anchor,
            ..ConstraintPoint::default()
        }
    }

    /// The shortcut of `warm_start_points` (same features in the same order) gives what the
    /// general matching gives, over every combination of counts 0–2, ids drawn from three
    /// (duplicates, swaps), anchors near and far, and impulses that are negative or not
    /// finite; and by hand: impulses copied, the normal one clamped at 0, non-finite ones
    /// ignored.
    #[test]
    fn warm_start_shortcut_matches_the_general_rule() {
        let anchors = [Vec2::new(0.0, 0.0), Vec2::new(0.01, 0.0), Vec2::new(1.0, 0.0)];
        let impulses = [
            (1.5f32, -0.25f32),
            (-2.0, 0.5),
            (f32::NAN, 1.0),
            (0.75, f32::INFINITY),
        ];
        let mut checked = 0;
        for old_count in 0..=2u32 {
            for new_count in 0..=2usize {
                for ids in 0..81u32 {
                    let id = |k: u32| 1 + (ids / 3u32.pow(k)) % 3;
                    for variant in 0..4usize {
                        let prev = Carried {
                            count: old_count,
                            points: [
                                (
                                    id(0),
                                    anchors[variant % 3],
                                    impulses[variant].0,
                                    impulses[variant].1,
                                ),
                                (
                                    id(1),
                                    anchors[(variant + 1) % 3],
                                    impulses[3 - variant].0,
                                    impulses[3 - variant].1,
                                ),
                            ],
                        };
                        let fresh = [
                            point(id(2), anchors[(variant + 2) % 3]),
                            point(id(3), anchors[variant % 3]),
                        ];
                        let mut shortcut = fresh;
                        let mut general = fresh;
                        warm_start_points(&mut shortcut[..new_count], &prev);
                        match_points(&mut general[..new_count], &prev);
                        for (x, y) in shortcut.iter().zip(&general) {
                            assert_eq!(x.normal_impulse.to_bits(), y.normal_impulse.to_bits());
                            assert_eq!(x.tangent_impulse.to_bits(), y.tangent_impulse.to_bits());
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 3 * 3 * 81 * 4);
        // By hand: ids 7, 9 in order; a negative normal impulse is clamped, a NaN one ignored.
        let prev = Carried {
            count: 2,
            points: [(7, Vec2::ZERO, -1.0, 0.5), (9, Vec2::ZERO, f32::NAN, 2.0)],
        };
        let mut pts = [point(7, Vec2::new(5.0, 5.0)), point(9, Vec2::new(-5.0, 5.0))];
        warm_start_points(&mut pts, &prev);
        assert_eq!((pts[0].normal_impulse, pts[0].tangent_impulse), (0.0, 0.5));
        assert_eq!((pts[1].normal_impulse, pts[1].tangent_impulse), (0.0, 0.0));
    }
}
