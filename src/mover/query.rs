//! Mover queries over a level: the obstacles a level hands out ([`MoverLevel`]), the planes of
//! what a mover touches ([`collide_mover`]) and how far it can translate ([`cast_mover`]).

use super::Plane;
use crate::cast::{shape_cast, CastState};
use crate::geometry::{Polygon, Shape};
use crate::math::{Aabb, Rot, Transform, Vec2};
use crate::narrowphase::{collide_with_margin, overlaps};
use crate::tree::{DynamicTree, NodeStorage, ProxyId, Visit};
use core::marker::PhantomData;

/// One obstacle of a level: a shape at a world transform, what the caller wants reported for
/// it (`user_data`), and how it moves (moving platforms carry a mover standing on them).
#[derive(Clone, Copy, Debug)]
pub struct Obstacle<'s> {
    /// The shape, in its local space.
    pub shape: &'s Shape,
    /// Its world transform.
    pub xf: Transform,
    /// Reported back in [`MoverPlane::user_data`] and [`MoverHit::user_data`].
    pub user_data: u64,
    /// World linear velocity of `center` (length units per second).
    pub velocity: Vec2,
    /// Angular velocity (radians per second, counter-clockwise positive) about `center`.
    pub angular_velocity: f32,
    /// World point the obstacle rotates about (its body's centre of mass).
    pub center: Vec2,
}

impl<'s> Obstacle<'s> {
    /// A fixed obstacle: `shape` at `xf`, not moving.
    #[inline]
    #[must_use]
    pub const fn fixed(shape: &'s Shape, xf: Transform, user_data: u64) -> Obstacle<'s> {
        Obstacle {
            shape,
            xf,
            user_data,
            velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            center: xf.p,
        }
    }

    /// The same obstacle moving with linear velocity `velocity` at world point `center` and
    /// angular velocity `angular_velocity` (rad/s, counter-clockwise) about it.
    #[inline]
    #[must_use]
    pub const fn moving(self, velocity: Vec2, angular_velocity: f32, center: Vec2) -> Obstacle<'s> {
        Obstacle {
            velocity,
            angular_velocity,
            center,
            ..self
        }
    }

    /// World velocity of the obstacle's material at world point `p`: `v + ω × (p − center)`.
    #[inline]
    #[must_use]
    pub fn velocity_at(&self, p: Vec2) -> Vec2 {
        let r = p - self.center;
        self.velocity + Vec2::new(-r.y, r.x) * self.angular_velocity
    }
}

/// A source of obstacles for the mover functions: a slice of [`Obstacle`]s, a
/// [`TreeLevel`] (a dynamic tree and a function from a proxy to its obstacle), a
/// [`FnLevel`] (any callback, see [`level_fn`]), or a `World` (through
/// `World::mover_level`).
pub trait MoverLevel {
    /// Calls `f` with every obstacle whose bounds may overlap the world box `aabb` (a superset
    /// is fine: the mover tests each exactly); stops when `f` returns `false`.
    fn obstacles(&self, aabb: Aabb, f: &mut dyn FnMut(&Obstacle<'_>) -> bool);
}

/// A slice is a linear scan per query: fine for a neighbourhood the caller has already picked;
/// for a whole level of thousands of obstacles use a [`TreeLevel`] or the `World`.
impl MoverLevel for [Obstacle<'_>] {
    fn obstacles(&self, aabb: Aabb, f: &mut dyn FnMut(&Obstacle<'_>) -> bool) {
        for o in self {
            if o.shape.aabb(o.xf).overlaps(aabb) && !f(o) {
                return;
            }
        }
    }
}

/// A dynamic tree as a level: `obstacle` maps a proxy's id and user data to its obstacle
/// (`None` skips it), e.g. `|_, user| Some(Obstacle::fixed(&shapes[user as usize], xf, user))`.
/// Proxies whose category bits miss `mask` are never visited.
pub struct TreeLevel<'t, 's, S: NodeStorage, F> {
    /// The tree.
    pub tree: &'t DynamicTree<S>,
    /// Category mask of the proxies considered.
    pub mask: u64,
    /// From a proxy to its obstacle.
    pub obstacle: F,
    shapes: PhantomData<&'s Shape>,
}

impl<'t, 's, S, F> TreeLevel<'t, 's, S, F>
where
    S: NodeStorage,
    F: Fn(ProxyId, u64) -> Option<Obstacle<'s>>,
{
    /// `tree` as a level, its proxies mapped to obstacles by `obstacle`.
    pub fn new(tree: &'t DynamicTree<S>, mask: u64, obstacle: F) -> Self {
        TreeLevel {
            tree,
            mask,
            obstacle,
            shapes: PhantomData,
        }
    }
}

impl<'s, S, F> MoverLevel for TreeLevel<'_, 's, S, F>
where
    S: NodeStorage,
    F: Fn(ProxyId, u64) -> Option<Obstacle<'s>>,
{
    fn obstacles(&self, aabb: Aabb, f: &mut dyn FnMut(&Obstacle<'_>) -> bool) {
        self.tree
            .query(aabb, self.mask, |id, user| match (self.obstacle)(id, user) {
                Some(o) if !f(&o) => Visit::Stop,
                _ => Visit::Continue,
            });
    }
}

/// Any callback as a level; make one with [`level_fn`] (which spells the callback's type).
pub struct FnLevel<F>(pub F);

/// A level from a callback `|aabb, f| …` that calls `f` with each obstacle near `aabb` and
/// stops when `f` returns `false` (e.g. over a spatial hash or a tile map of the caller's).
pub fn level_fn<F>(f: F) -> FnLevel<F>
where
    F: Fn(Aabb, &mut dyn FnMut(&Obstacle<'_>) -> bool),
{
    FnLevel(f)
}

impl<F> MoverLevel for FnLevel<F>
where
    F: Fn(Aabb, &mut dyn FnMut(&Obstacle<'_>) -> bool),
{
    fn obstacles(&self, aabb: Aabb, f: &mut dyn FnMut(&Obstacle<'_>) -> bool) {
        (self.0)(aabb, f);
    }
}

/// Depth behind a one-way platform's line, as a fraction of the mover's extent, beyond which
/// the mover counts as behind it (round-off of a mover resting on it, never a skin: a skin is
/// about 1 % of the mover).
const ONE_WAY_TOLERANCE_RELATIVE: f32 = 2.5e-4;

/// Whether `mover` at `start` is behind the one-sided chain segment `o` (a one-way platform)
/// anywhere over the segment's extent: some part of it lies more than
/// [`ONE_WAY_TOLERANCE_RELATIVE`] × its extent behind the segment's line, between the two
/// perpendiculars through the segment's ends. The segment is taken where it was `time_step`
/// seconds ago (moved back by its velocity at its midpoint), so a platform that rose into a
/// mover standing on it during the frame still holds it. `false` for every other shape.
pub(crate) fn behind_one_way(o: &Obstacle<'_>, mover: &Shape, start: Transform, time_step: f32) -> bool {
    let Shape::ChainSegment(s) = o.shape else {
        return false;
    };
    let (mut p1, mut p2) = (o.xf.apply(s.point1), o.xf.apply(s.point2));
    if time_step > 0.0 && time_step.is_finite() {
        let back = o.velocity_at((p1 + p2) * 0.5) * time_step;
        if back.is_finite() {
            p1 -= back;
            p2 -= back;
        }
    }
    let e = p2 - p1;
    let aabb = mover.aabb(start);
    let (Some(dir), true) = (e.try_normalize(), aabb.is_valid()) else {
        return false;
    };
    let n = dir.right_perp();
    // The deepest corner of the mover's box bounds how far behind the line it reaches.
    let corners = [
        aabb.min,
        Vec2::new(aabb.max.x, aabb.min.y),
        aabb.max,
        Vec2::new(aabb.min.x, aabb.max.y),
    ];
    let reach = corners.iter().map(|&c| n.dot(p1 - c)).fold(f32::MIN, f32::max);
    let (lo, hi) = corners
        .iter()
        .map(|&c| dir.dot(c - p1))
        .fold((f32::MAX, f32::MIN), |(lo, hi), t| (lo.min(t), hi.max(t)));
    let length = e.dot(dir);
    let tolerance = ONE_WAY_TOLERANCE_RELATIVE * (aabb.max - aabb.min).length();
    if !(reach > tolerance) || hi < 0.0 || lo > length {
        return false;
    }
    // The region behind the segment over its extent, from the tolerance to past the mover's
    // deepest point, as a box: the mover is behind exactly when it overlaps the box.
    let (hx, hy) = (0.5 * length, 0.5 * reach);
    let Ok(slab) = Polygon::make_box(hx, hy) else {
        return false;
    };
    let xf = Transform {
        p: p1 + dir * hx - n * (tolerance + hy),
        q: Rot { c: dir.x, s: dir.y },
    };
    overlaps(&Shape::Polygon(slab), xf, mover, start)
}

/// `level` under the one-way rule: the chain segments the mover (at `start`, the start of its
/// move) is behind anywhere are left out ([`behind_one_way`]), for the whole move.
pub(crate) struct OneWayLevel<'a, L: ?Sized> {
    pub(crate) level: &'a L,
    pub(crate) mover: &'a Shape,
    pub(crate) start: Transform,
    pub(crate) time_step: f32,
}

impl<L: MoverLevel + ?Sized> MoverLevel for OneWayLevel<'_, L> {
    fn obstacles(&self, aabb: Aabb, f: &mut dyn FnMut(&Obstacle<'_>) -> bool) {
        self.level.obstacles(aabb, &mut |o| {
            behind_one_way(o, self.mover, self.start, self.time_step) || f(o)
        });
    }
}

/// A collision plane between a mover and one obstacle (Box2D's `b2PlaneResult`, for any mover
/// shape).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoverPlane {
    /// World unit normal from the obstacle toward the mover (the normal of the obstacle's
    /// feature it touches: a face normal where a face is touched), and the mover's penetration
    /// `offset = −separation` (Box2D's convention, relative to the mover's position: a
    /// translation `d` of the mover clears the obstacle when `normal · d ≥ offset`).
    pub plane: Plane,
    /// World contact point (midway between the two surfaces).
    pub point: Vec2,
    /// World velocity of the obstacle at `point` (a moving platform's carry).
    pub velocity: Vec2,
    /// The obstacle's [`Obstacle::user_data`].
    pub user_data: u64,
    /// The features in contact, a [`ManifoldPoint::id`](crate::narrowphase::ManifoldPoint::id)
    /// with the obstacle as A and the mover as B.
    pub id: u32,
}

impl MoverPlane {
    /// Surface distance between the mover and the obstacle along the normal: positive apart,
    /// negative penetrating.
    #[inline]
    #[must_use]
    pub fn separation(&self) -> f32 {
        -self.plane.offset
    }

    /// Whether the surface is ground under `up` (a unit vector): its normal is at most the
    /// slope angle whose cosine is `cos_max_slope` from `up`.
    #[inline]
    #[must_use]
    pub fn is_walkable(&self, up: Vec2, cos_max_slope: f32) -> bool {
        self.plane.normal.dot(up) >= cos_max_slope
    }
}

/// The plane between `mover` at `xf` and one obstacle, when their surfaces are at most
/// `margin` apart.
pub(crate) fn mover_plane(o: &Obstacle<'_>, mover: &Shape, xf: Transform, margin: f32) -> Option<MoverPlane> {
    let m = collide_with_margin(o.shape, o.xf, mover, xf, margin);
    let pts = m.points();
    let mut best = *pts.first()?;
    for p in &pts[1..] {
        if p.depth > best.depth {
            best = *p;
        }
    }
    (-best.depth <= margin).then(|| MoverPlane {
        plane: Plane {
            normal: m.normal,
            offset: best.depth,
        },
        point: best.point,
        velocity: o.velocity_at(best.point),
        user_data: o.user_data,
        id: best.id,
    })
}

/// Calls `f` with the plane of every obstacle of `level` that `mover` (at world transform
/// `xf`) overlaps or comes within `margin` of (a distance `>= 0`; NaN or negative is 0), until
/// `f` returns `false`. Each plane is the contact manifold's (normal from the obstacle toward
/// the mover, the deepest point's penetration as the offset), so chain segments keep their
/// one-sidedness and ghost rules: a mover never gets a plane from the back of a chain or a
/// normal a chain segment does not own, and a chain segment the mover has any part behind (a
/// one-way platform it is passing, see [One-way platforms](crate::mover#one-way-platforms))
/// gives no plane. Box2D's `b2World_CollideMover` for any convex mover shape, with a margin
/// (Box2D: touching only). Nothing is reported for an invalid mover or transform.
pub fn collide_mover<L: MoverLevel + ?Sized>(
    level: &L,
    mover: &Shape,
    xf: Transform,
    margin: f32,
    mut f: impl FnMut(&MoverPlane) -> bool,
) {
    let margin = if margin > 0.0 { margin } else { 0.0 };
    let aabb = mover.aabb(xf);
    if !aabb.is_valid() || !margin.is_finite() {
        return;
    }
    let level = OneWayLevel {
        level,
        mover,
        start: xf,
        time_step: 0.0,
    };
    level.obstacles(
        aabb.inflated(margin),
        &mut |o| match mover_plane(o, mover, xf, margin) {
            Some(p) => f(&p),
            None => true,
        },
    );
}

/// The first obstacle of [`cast_mover`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoverHit {
    /// Fraction of the translation the mover can travel before coming within the skin.
    pub fraction: f32,
    /// World unit normal of the feature hit, from the obstacle toward the mover.
    pub normal: Vec2,
    /// World contact point on the mover's surface at `fraction`.
    pub point: Vec2,
    /// The obstacle's [`Obstacle::user_data`].
    pub user_data: u64,
    /// The features in contact, with the obstacle as A and the mover as B (see
    /// [`CastOutput::id`](crate::cast::CastOutput::id)).
    pub id: u32,
}

/// How far `mover` (at world transform `xf`) can translate along `translation` before its
/// surface comes within `skin` (`>= 0`) of an obstacle of `level`: the first hit, or `None`
/// when it travels the whole way. Each obstacle is tested with [`shape_cast`] (so the hit
/// normal is the feature's, and chain segments are one-sided and ghost-free; one the mover at
/// `xf` has any part behind is a one-way platform it is passing, never a hit); obstacles the
/// mover starts *penetrating* are ignored, as in Box2D's `b2World_CastMover` — resolve them
/// with [`collide_mover`]'s planes — while one it starts within the skin of and moves further
/// into stops it at fraction 0. A hit whose feature normal the move does not go into (sliding
/// along the face met, or away from it; or into it by less than a quarter of the skin over the
/// whole move, round-off of a slide along a wall) does not stop the mover: the face separates
/// the two along the whole move. A cast that does not converge counts as a hit at fraction 0
/// (never a tunnel). Invalid input (non-finite transform or translation, negative or NaN
/// skin) is a hit at fraction 0 with a zero normal: the mover stays where it is.
pub fn cast_mover<L: MoverLevel + ?Sized>(
    level: &L,
    mover: &Shape,
    xf: Transform,
    translation: Vec2,
    skin: f32,
) -> Option<MoverHit> {
    let aabb = mover.aabb(xf);
    if !aabb.is_valid() || !translation.is_finite() || !(skin >= 0.0) || !skin.is_finite() {
        return Some(MoverHit::default());
    }
    let moved = Aabb::new(aabb.min + translation, aabb.max + translation);
    let swept = aabb.union(moved).inflated(skin);
    let mut best: Option<MoverHit> = None;
    let level = OneWayLevel {
        level,
        mover,
        start: xf,
        time_step: 0.0,
    };
    level.obstacles(swept, &mut |o| {
        if let Some(h) = obstacle_hit(o, mover, xf, translation, skin) {
            if best.is_none_or(|b| h.fraction < b.fraction) {
                best = Some(h);
            }
        }
        true
    });
    best
}

/// [`cast_mover`] against one obstacle.
pub(crate) fn obstacle_hit(
    o: &Obstacle<'_>,
    mover: &Shape,
    xf: Transform,
    translation: Vec2,
    skin: f32,
) -> Option<MoverHit> {
    let out = shape_cast(mover, xf, translation, o.shape, o.xf, Vec2::ZERO, skin);
    let (fraction, normal) = match out.state {
        // Moving along or away from the feature met (or into it by less than a quarter of the
        // skin over the whole move): its face, a supporting line of the obstacle, separates
        // the two along the whole move, so this obstacle is not entered nor come closer to
        // than three quarters of the skin. This is a mover resting at the skin sliding past a
        // corner, or along a wall within round-off.
        CastState::Hit if out.normal.dot(translation) <= 0.25 * skin => return None,
        CastState::Hit => (out.fraction, -out.normal),
        CastState::Failed => (0.0, -translation.normalize_or_zero()),
        _ => return None,
    };
    Some(MoverHit {
        fraction,
        normal,
        point: out.point,
        user_data: o.user_data,
        id: (out.id & 0xff) << 8 | out.id >> 8,
    })
}
