//! Linear shape casts (cute_c2's `c2TOI`, Box2D's `b2ShapeCast`): both shapes translate, no
//! rotation. Time of impact with rotation lives in [`crate::toi`] (re-exported here).

pub use crate::distance::CAST_RELATIVE_TOLERANCE;
use crate::distance::{gjk_scaled, ShapeProxy, SimplexCache};
use crate::geometry::{ChainSegment, Shape};
use crate::math::{Transform, Vec2};
use crate::narrowphase::{classify_normal, collide_with_margin, make_id, Manifold, NormalType, FEATURE_EDGE};
pub use crate::toi::{time_of_impact, Sweep, ToiOutput, ToiState, MAX_SWEEP_ROTATION, TOI_MAX_ITERATIONS};

/// Iteration cap of the shape cast's conservative advancement.
pub const CAST_MAX_ITERATIONS: u32 = 30;

/// How a shape cast ended.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CastState {
    /// No contact within the translation (including: starting in contact and moving apart or
    /// sliding along the contact surface).
    Miss = 0,
    /// Contact at `fraction`; `point` and `normal` describe it.
    Hit = 1,
    /// Already penetrating at `fraction = 0`; `depth`, `normal` and `point` come from the
    /// contact manifold.
    Overlapping = 2,
    /// The iteration cap was reached before converging.
    Failed = 3,
    /// Non-finite input, a negative target distance, or an invalid shape.
    InvalidInput = 4,
}

/// Result of [`shape_cast`].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CastOutput {
    /// What happened; the other fields are meaningful for [`CastState::Hit`] and
    /// [`CastState::Overlapping`].
    pub state: CastState,
    /// Fraction of the translations at which the shapes come within the target distance
    /// (`0` for [`CastState::Overlapping`], `1` for [`CastState::Miss`]).
    pub fraction: f32,
    /// World contact point on shape A's surface at `fraction`, with both shapes moved there.
    pub point: Vec2,
    /// World unit normal from A to B at the contact: the normal of the feature that was hit (see
    /// [`shape_cast`]). Never zero for [`CastState::Hit`] and [`CastState::Overlapping`].
    pub normal: Vec2,
    /// Penetration depth at `fraction = 0` for [`CastState::Overlapping`], else 0.
    pub depth: f32,
    /// Iterations used.
    pub iterations: u32,
    /// The features in contact for [`CastState::Hit`] and [`CastState::Overlapping`], encoded
    /// as a manifold point's
    /// [`id`](crate::narrowphase::ManifoldPoint::id): high byte A's feature, low byte B's, each
    /// [`FEATURE_EDGE`]` | i` for face `i` (a polygon edge,
    /// a capsule's or segment's side) or a vertex index (a circle is vertex 0). 0 otherwise.
    pub id: u32,
}

impl CastOutput {
    fn with_state(state: CastState, iterations: u32) -> CastOutput {
        CastOutput {
            state,
            fraction: if state == CastState::Miss { 1.0 } else { 0.0 },
            point: Vec2::ZERO,
            normal: Vec2::ZERO,
            depth: 0.0,
            iterations,
            id: 0,
        }
    }
}

/// One side of a shape cast: a shape at a world transform, moving by a world translation
/// (no rotation). The options struct of [`shape_cast_pair`] and of the tree's
/// [`DynamicTree::cast_closest`](crate::tree::DynamicTree::cast_closest).
#[derive(Clone, Copy, Debug)]
pub struct CastShape<'a> {
    /// The shape, in its local space.
    pub shape: &'a Shape,
    /// Where it starts.
    pub xf: Transform,
    /// How far it moves over the whole cast (world space).
    pub translation: Vec2,
}

impl<'a> CastShape<'a> {
    /// `shape` at `xf` moving by `translation`.
    #[inline]
    #[must_use]
    pub const fn new(shape: &'a Shape, xf: Transform, translation: Vec2) -> CastShape<'a> {
        CastShape {
            shape,
            xf,
            translation,
        }
    }

    /// `shape` at `xf`, not moving.
    #[inline]
    #[must_use]
    pub const fn at_rest(shape: &'a Shape, xf: Transform) -> CastShape<'a> {
        CastShape::new(shape, xf, Vec2::ZERO)
    }
}

/// [`shape_cast`] with each side named: `a` and `b` cannot be swapped by accident.
#[inline]
#[must_use]
pub fn shape_cast_pair(a: &CastShape<'_>, b: &CastShape<'_>, target_distance: f32) -> CastOutput {
    shape_cast(
        a.shape,
        a.xf,
        a.translation,
        b.shape,
        b.xf,
        b.translation,
        target_distance,
    )
}

/// The larger of two floats by a plain compare (the NaN-aware `f32::max` costs a blend per
/// step); NaN never reaches it, the validation runs before.
#[inline]
fn larger(x: f32, y: f32) -> f32 {
    if x > y {
        x
    } else {
        y
    }
}

/// True when `s` is a chain segment and the mean of `other`'s points starts behind it.
fn starts_behind(s: &Shape, xfs: Transform, other: &ShapeProxy, xfo: Transform) -> bool {
    let Shape::ChainSegment(c) = s else {
        return false;
    };
    let pts = other.points();
    let mut mean = Vec2::ZERO;
    for p in pts {
        mean += *p;
    }
    let mean = xfs.inv_apply(xfo.apply(mean * (1.0 / pts.len().max(1) as f32)));
    c.normal().dot(mean - c.point1) < 0.0
}

/// Casts shape A (at `xfa`, moving by `translation_a`) and shape B (at `xfb`, moving by
/// `translation_b`) and finds the first fraction `t` in `[0, 1]` of both translations at which
/// their surfaces come within `target_distance` (a skin, `>= 0`; 0 for touching).
///
/// The reported normal is the normal of the *feature* that was hit, read from the contact
/// manifold of the two shapes at the hit pose (margin: the target distance): a face's normal
/// when a face was hit (the reference face of the polygon clipping, a capsule's side), and the
/// direction between the closest points only when two vertices or rounded parts meet (a circle
/// against a corner). Two sharp polygons meeting corner to corner a skin apart report the face
/// of either that separates them most, the face that is touched as the gap closes. So a box landing near the end of a face, or a shape stopping
/// a skin short of a face near its corner, gets the face normal, not a direction tilted toward
/// the corner (Box2D issue #935: Box2D reports the closest-point direction at its stop). The
/// features are in [`CastOutput::id`].
///
/// Runs in A's frame with B's relative motion. A pair that starts within the target distance
/// but moves apart or slides along the contact is not blocked ([`CastState::Miss`]); one that
/// starts penetrating reports [`CastState::Overlapping`] with depth and normal.
///
/// A chain segment is one-sided here as in Box2D's `b2ShapeCastShape`: a cast whose other shape
/// starts with the mean of its core points behind the segment misses it. Better than Box2D, it
/// is ghost-free too: a hit whose normal the segment does not own (a normal in a convex
/// neighbour's fan is the neighbour's to report; at a flat or concave vertex only the face
/// normal counts, and only when moving into the face) is not a hit, so a shape sliding along a
/// chain never stops on the vertex between two segments. A shape that starts within the target
/// distance of a segment with no contact under the one-sided rules (rising through a one-way
/// platform, or past its open end) misses it: it is let through, as the manifold lets it.
/// Two chain segments never hit each other.
#[must_use]
pub fn shape_cast(
    a: &Shape,
    xfa: Transform,
    translation_a: Vec2,
    b: &Shape,
    xfb: Transform,
    translation_b: Vec2,
    target_distance: f32,
) -> CastOutput {
    if !(target_distance >= 0.0)
        || !target_distance.is_finite()
        || !translation_a.is_finite()
        || !translation_b.is_finite()
    {
        return CastOutput::with_state(CastState::InvalidInput, 0);
    }
    let proxy_a = ShapeProxy::from_shape(a);
    let proxy_b = ShapeProxy::from_shape(b);
    if !xfa.is_valid() || !xfb.is_valid() {
        return CastOutput::with_state(CastState::InvalidInput, 0);
    }
    let both_chains = matches!((a, b), (Shape::ChainSegment(_), Shape::ChainSegment(_)));
    if both_chains || starts_behind(a, xfa, &proxy_b, xfb) || starts_behind(b, xfb, &proxy_a, xfa) {
        return CastOutput::with_state(CastState::Miss, 0);
    }
    let out = linear_cast(
        a,
        xfa,
        translation_a,
        b,
        xfb,
        translation_b,
        target_distance,
        proxy_a,
        proxy_b,
    );
    match (a, b) {
        (Shape::ChainSegment(c), _) => chain_filter(c, xfa, out, out.normal, translation_b - translation_a),
        (_, Shape::ChainSegment(c)) => chain_filter(c, xfb, out, -out.normal, translation_a - translation_b),
        _ => out,
    }
}

/// A cast's hit against chain segment `c` (at `xf`) kept only with a normal the segment owns
/// (see [`shape_cast`]); `n` is the hit normal from the segment to the other shape and `d` that
/// shape's motion relative to the segment (world).
fn chain_filter(c: &ChainSegment, xf: Transform, out: CastOutput, n: Vec2, d: Vec2) -> CastOutput {
    if out.state != CastState::Hit {
        return out;
    }
    let local = xf.q.inv_rotate(n);
    match classify_normal(c, local) {
        Some(NormalType::Admit) => out,
        Some(NormalType::Snap) => {
            // At a flat or concave vertex: the face, when the shape moves into it.
            let face = xf.q.rotate(c.normal());
            if face.dot(d) < 0.0 {
                let sign = if out.normal.dot(n) >= 0.0 { 1.0 } else { -1.0 };
                CastOutput {
                    normal: face * sign,
                    ..out
                }
            } else {
                CastOutput::with_state(CastState::Miss, out.iterations)
            }
        }
        Some(NormalType::Skip) | None => CastOutput::with_state(CastState::Miss, out.iterations),
    }
}

/// Whether `s` is a one-sided chain segment.
fn is_chain(s: &Shape) -> bool {
    matches!(s, Shape::ChainSegment(_))
}

/// The id of a manifold's deepest point.
fn deepest_id(m: &Manifold) -> u32 {
    let pts = m.points();
    let mut best = pts[0];
    for p in &pts[1..] {
        if p.depth > best.depth {
            best = *p;
        }
    }
    best.id
}

/// The normal (A to B) and id of the feature hit, from the manifold `m` at the hit pose: the
/// manifold's own, except when two sharp polygons meet corner to corner (a skin apart). Then
/// the direction between the corners is a property of no face, and the face of either polygon
/// that separates them most (the one actually touched as the gap closes) is reported.
fn feature_normal(a: &Shape, xa: Transform, b: &Shape, xb: Transform, m: &Manifold) -> (Vec2, u32) {
    let id = deepest_id(m);
    let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) else {
        return (m.normal, id);
    };
    let vertex_pair = (id >> 8) as u8 & FEATURE_EDGE == 0 && id as u8 & FEATURE_EDGE == 0;
    if pa.radius != 0.0 || pb.radius != 0.0 || !vertex_pair {
        return (m.normal, id);
    }
    // B in A's frame; SAT over both polygons' faces.
    let rel = xa.inv_mul(xb);
    let (va, vb) = (pa.vertices(), pb.vertices());
    let mut best = (f32::NEG_INFINITY, Vec2::ZERO, 0u32);
    for (i, (&p, &n)) in va.iter().zip(&pa.normals).enumerate() {
        let (mut sep, mut k) = (f32::INFINITY, 0);
        for (j, &q) in vb.iter().enumerate() {
            let d = n.dot(rel.apply(q) - p);
            if d < sep {
                (sep, k) = (d, j);
            }
        }
        if sep > best.0 {
            best = (sep, n, make_id(FEATURE_EDGE | i as u8, k as u8));
        }
    }
    for (j, (&q, &n)) in vb.iter().zip(&pb.normals).enumerate() {
        let (q, n) = (rel.apply(q), rel.q.rotate(n));
        let (mut sep, mut k) = (f32::INFINITY, 0);
        for (i, &p) in va.iter().enumerate() {
            let d = n.dot(p - q);
            if d < sep {
                (sep, k) = (d, i);
            }
        }
        if sep > best.0 {
            best = (sep, -n, make_id(k as u8, FEATURE_EDGE | j as u8));
        }
    }
    (xa.q.rotate(best.1), best.2)
}

/// [`shape_cast`] after the chain-segment entry checks.
#[allow(clippy::too_many_arguments)]
fn linear_cast(
    a: &Shape,
    xfa: Transform,
    translation_a: Vec2,
    b: &Shape,
    xfb: Transform,
    translation_b: Vec2,
    target_distance: f32,
    proxy_a: ShapeProxy,
    proxy_b: ShapeProxy,
) -> CastOutput {
    let rel = xfa.inv_mul(xfb);
    let (Some(ea), Some((pb0, eb))) = (proxy_a.check(), proxy_b.transformed(rel)) else {
        return CastOutput::with_state(CastState::InvalidInput, 0);
    };
    let pa = &proxy_a;
    // B's motion relative to A, in A's frame.
    let d = xfa.q.inv_rotate(translation_b - translation_a);
    let (ra, rb) = (pa.radius, pb0.radius);
    // A's extent is already local (`ea` includes its radius, never above ra + rb).
    let size = ea.max(proxy_b.extent()).max(ra + rb).max(f32::MIN_POSITIVE);
    let tol = CAST_RELATIVE_TOLERANCE * size;
    // Core-to-core target. Sharp shapes stop a tolerance short of touching, so the normal is
    // always that of two separated cores.
    let target = (target_distance + ra + rb).max(2.0 * tol);

    // Initial state: penetrating, within the target, or apart.
    let mut cache = SimplexCache::default();
    let g = gjk_scaled(pa, &pb0, &mut cache, ea.max(eb));
    let core = g.pb - g.pa;
    let core_dist = g.distance;
    if core_dist <= target + tol {
        let m = collide_with_margin(a, xfa, b, xfb, target_distance + 2.0 * tol);
        let (n, depth, point, id) = match m.max_depth() {
            Some(depth) => {
                let (n, id) = if depth > 2.0 * tol {
                    (m.normal, deepest_id(&m))
                } else {
                    feature_normal(a, xfa, b, xfb, &m)
                };
                (n, depth, m.points[0].point, id)
            }
            // Within reach with no contact: only a one-sided chain segment drops such a pair
            // (the shape is passing through it from behind, or past its open end, with no
            // normal the segment owns), and the segment lets it go on: no hit.
            None if is_chain(a) || is_chain(b) => return CastOutput::with_state(CastState::Miss, 1),
            None => match core.try_normalize() {
                Some(n) => (xfa.q.rotate(n), ra + rb - core_dist, xfa.apply(g.pa + n * ra), 0),
                None => return CastOutput::with_state(CastState::Failed, 1),
            },
        };
        if depth > 2.0 * tol {
            return CastOutput {
                state: CastState::Overlapping,
                fraction: 0.0,
                point,
                normal: n,
                depth,
                iterations: 1,
                id,
            };
        }
        // Touching or within the skin: blocked only when moving further in.
        let vn = n.dot(translation_b - translation_a);
        if vn >= 0.0 {
            return CastOutput::with_state(CastState::Miss, 1);
        }
        return CastOutput {
            state: CastState::Hit,
            fraction: 0.0,
            point,
            normal: n,
            depth: 0.0,
            iterations: 1,
            id,
        };
    }

    // Conservative advancement: distance under linear motion is convex in t, so stepping to the
    // root of its tangent line never passes the true contact.
    let mut t = 0.0f32;
    let mut pb = pb0;
    let mut g = g;
    let mut iterations = 1;
    loop {
        let dist = g.distance;
        // The simplex normal stays exact at the tiny gaps where a cast stops.
        let n = g.normal.unwrap_or(Vec2::ZERO);
        if g.overlap || n == Vec2::ZERO {
            // Cannot happen while advancing conservatively; report rather than guess.
            return CastOutput::with_state(CastState::Failed, iterations);
        }
        if dist <= target + tol {
            // The feature normal from the manifold at the hit pose (a face's normal where a
            // face was hit); the closest-point direction when it has no point.
            let xa = Transform {
                p: xfa.p + translation_a * t,
                q: xfa.q,
            };
            let xb = Transform {
                p: xfb.p + translation_b * t,
                q: xfb.q,
            };
            // The margin also covers the round-off of the poses (far from the origin a float
            // spacing can exceed the relative tolerance), or the manifold could miss the pair
            // and the tilted closest-point direction be reported instead of the face.
            let coords = xa.p.x.abs().max(xa.p.y.abs()).max(xb.p.x.abs()).max(xb.p.y.abs());
            let m = collide_with_margin(
                a,
                xa,
                b,
                xb,
                target_distance + 4.0 * tol + 8.0 * f32::EPSILON * coords,
            );
            let (normal, id) = if m.count > 0 {
                feature_normal(a, xa, b, xb, &m)
            } else {
                (xfa.q.rotate(n), 0)
            };
            return CastOutput {
                state: CastState::Hit,
                fraction: t,
                point: xa.apply(g.pa + n * ra),
                normal,
                depth: 0.0,
                iterations,
                id,
            };
        }
        let vn = d.dot(n);
        if vn >= 0.0 {
            return CastOutput::with_state(CastState::Miss, iterations);
        }
        t += (dist - target) / -vn;
        if !(t < 1.0) {
            // Check the end point exactly: the step may overshoot 1 only when no contact.
            return CastOutput::with_state(CastState::Miss, iterations);
        }
        if iterations >= CAST_MAX_ITERATIONS {
            return CastOutput::with_state(CastState::Failed, iterations);
        }
        // B advanced, and its extent (GJK's round-off scale, which must follow B: near the
        // hit it is small, and so must GJK's touching tolerance be) in the same loop.
        let mut eb = pb.radius;
        let n = pb.points().len();
        for (q, q0) in pb.points[..n].iter_mut().zip(&pb0.points[..n]) {
            *q = q0.mul_add(t, d);
            eb = larger(eb, larger(q.x.abs(), q.y.abs()));
        }
        g = gjk_scaled(pa, &pb, &mut cache, ea.max(eb));
        iterations += 1;
    }
}
