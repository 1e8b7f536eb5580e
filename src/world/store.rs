//! The per-slot data of bodies and shapes (`Slot`, its hot part `Hot`, its boxes), the
//! contact cache recycling reads, and the per-shape numbers derived from geometry (extent,
//! fat margin, reach, combined mass).

use super::*;

#[derive(Clone, Copy, Debug)]
pub(super) struct Slot {
    pub(super) generation: u32,
    pub(super) live: bool,
    pub(super) kind: BodyKind,
    pub(super) shape: Shape,
    pub(super) material: Material,
    pub(super) proxy: ProxyId,
    /// The proxy in `World::fixed_tree` (static and kinematic bodies only).
    pub(super) fixed_proxy: ProxyId,
    pub(super) user_data: u64,
    /// Seconds the body has rested (see [`SLEEP_VELOCITY`]).
    pub(super) sleep_time: f32,
    pub(super) enable_sleep: bool,
    pub(super) bullet: bool,
    pub(super) filter: Filter,
    pub(super) sensor: bool,
    pub(super) fixed_rotation: bool,
    /// The proxy's fat margin in both trees (see [`fat_margin`]).
    pub(super) margin: f32,
    /// First edge of the body's contact list (`contact << 1 | side`), or `NONE`. The
    /// contacts of a body's extra shapes are listed here too (never on the shape's slot).
    pub(super) contact_head: u32,
    /// First edge of the body's joint list (`joint << 1 | side`), or `NONE` (body slots only).
    pub(super) joint_head: u32,
    /// For an extra shape of a body (see [`World::add_shape`]): the body's slot; `NONE` for a
    /// body's own slot. An extra shape's slot has its own proxy, boxes, filter, material and
    /// a copy of the body's [`Body`] (kept in step by `sync_body`), and is never a body id.
    pub(super) parent: u32,
    /// The next extra shape of the same body (a list from the body's slot), or `NONE`.
    pub(super) next_shape: u32,
    /// A static polygon's internal edges, or a static chain segment's welded ends (bit 0 at
    /// `point1`, bit 1 at `point2`; see [`internal_edges`]), as of `World::static_epoch`
    /// `internal_epoch`.
    pub(super) internal_edges: u8,
    /// The value of `World::static_epoch` when `internal_edges` was worked out (`NONE`: never).
    pub(super) internal_epoch: u32,
}

/// The per-body data the narrow phase reads for every contact, kept apart from the large
/// `Slot` (which holds the shape) so that a step's scattered per-body reads touch 40 bytes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hot {
    /// Index in `World::awake`, or `NONE` for static and sleeping bodies.
    pub(super) awake_index: u32,
    /// The sleeping island the body belongs to, or `NONE`.
    pub(super) island: u32,
    /// Farthest point of the shape's local box from the centre of mass.
    pub(super) reach: f32,
    /// Smallest extent of the shape (the continuous phase's yardstick).
    pub(super) min_extent: f32,
    /// Fastest any point of the body moves relative to its centre of mass, `|ω|·reach`
    /// (m/s): refreshed for the awake bodies at the start of each narrow phase, 0 for
    /// static and sleeping ones.
    pub(super) spin: f32,
    /// The shape is unchanged by rotation about the centre of mass (a circle centred on it):
    /// contact recycling ignores the body's turn, so a rolling ball keeps its support point.
    pub(super) round: bool,
    /// The velocity of the body's centre of mass (m/s, world), refreshed with `spin`; zero for
    /// static and sleeping bodies.
    pub(super) velocity: Vec2,
    /// The body's centre of mass (world): set for the awake bodies at the start of each
    /// narrow phase (and for a body woken during it), read there for every contact instead
    /// of being worked out per contact. Stale between steps, and not read for static and
    /// sleeping bodies (the narrow phase works theirs out).
    pub(super) center: Vec2,
}

/// A slot's two boxes, read together by the narrow phase for every pair.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(super) struct SlotBoxes {
    /// The proxy's fat box (a copy of the tree's, read without a walk through the slot and
    /// the tree node): a pair whose fat boxes part is dropped.
    pub(super) fat: Aabb,
    /// The shape's box at its current pose grown by the speculative distance (the proxy's
    /// tight box): lets the narrow phase skip pairs too far apart for any point without
    /// running the manifold.
    pub(super) tight: Aabb,
}

/// One point of a pair's last full manifold, as its constraint was prepared from it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct CachedPoint {
    /// The point relative to body A's and body B's centre of mass (world frame, at the
    /// time): the material point of each body that was there; recycling turns each with its
    /// body (a change of a body's centre of mass forgets the cache).
    pub(super) anchor_a: Vec2,
    pub(super) anchor_b: Vec2,
    /// The separation at the time (−depth) minus `dot(cB − cA + anchor_b − anchor_a, n)` at
    /// the time (`cA`, `cB` the centres; zero up to rounding): adding that dot product for
    /// the bodies' current centres and turned anchors gives the current separation of the
    /// two material points.
    pub(super) separation: f32,
    /// The manifold point's feature id.
    pub(super) id: u32,
}

/// What contact recycling needs from the last full manifold of a pair: its normal and its
/// points as material points of the two bodies (no points: the shapes were apart, within
/// the margin).
#[derive(Clone, Copy, Debug)]
pub(super) struct ContactCache {
    pub(super) normal: Vec2,
    pub(super) count: u32,
    /// The speculative margin the manifold was computed with.
    pub(super) margin: f32,
    pub(super) points: [CachedPoint; 2],
    pub(super) rotation_a: Rot,
    pub(super) rotation_b: Rot,
    /// `transform_a⁻¹ · transform_b` at the time.
    pub(super) relative: Transform,
}

/// A constraint's place `block · 4 + lane` as (block, lane).
pub(super) fn split_place(at: u32) -> (usize, usize) {
    let at = at as usize;
    (at / solver::ContactBlock::LANES, at % solver::ContactBlock::LANES)
}

/// The warm-starting data of the constraint at `at` in `blocks` (with their `ids`).
pub(super) fn carried_from(
    blocks: &[solver::ContactBlock],
    ids: &[[[u32; 2]; 4]],
    at: u32,
) -> Option<solver::Carried> {
    let (k, l) = split_place(at);
    Some(blocks.get(k)?.carried(l, ids.get(k)?[l]))
}

/// Smallest extent of a shape: the radius of the largest circle about its centroid that the
/// shape contains (Box2D's `minExtent`), used to decide when a body moves fast.
pub(super) fn min_extent(shape: &Shape) -> f32 {
    match shape {
        Shape::Circle(c) => c.radius,
        Shape::Capsule(c) => c.radius,
        Shape::Polygon(p) => {
            let n = p.count as usize;
            let inner = (0..n)
                .map(|i| p.normals[i].dot(p.vertices[i] - p.centroid))
                .fold(f32::INFINITY, f32::min);
            inner.max(0.0) + p.radius
        }
        Shape::ChainSegment(_) => 0.0,
    }
}

/// The fat-box margin of a shape's proxy (Box2D v3's rule): [`FAT_MARGIN_FRACTION`] of the
/// shape's extent about its own centre (circle: radius; capsule: half its length plus the
/// radius; polygon: its farthest vertex from the centroid plus its radius; chain segment:
/// half its length), at most [`MAX_FAT_MARGIN`]; a static body's shapes never move and get
/// the speculative distance. Small shapes thus get small fat boxes: with one margin for
/// all, a pile of small boxes finds twice the pairs it needs.
pub(super) fn fat_margin(shape: &Shape, kind: BodyKind) -> f32 {
    if kind == BodyKind::Static {
        return SPECULATIVE_DISTANCE;
    }
    let extent = match shape {
        Shape::Circle(c) => c.radius,
        Shape::Capsule(c) => 0.5 * c.center1.distance(c.center2) + c.radius,
        Shape::Polygon(p) => {
            let far = p.vertices[..p.count as usize]
                .iter()
                .map(|v| v.distance(p.centroid))
                .fold(0.0f32, f32::max);
            far + p.radius
        }
        Shape::ChainSegment(c) => 0.5 * c.point1.distance(c.point2),
    };
    // `min` keeps a finite bound even for a (rejected elsewhere) non-finite shape.
    (FAT_MARGIN_FRACTION * extent).min(MAX_FAT_MARGIN)
}

/// Farthest corner of a shape's local box from the centre of mass `center` (body space).
pub(super) fn shape_reach(shape: &Shape, center: Vec2) -> f32 {
    let local = shape.aabb(Transform::IDENTITY);
    [
        local.min,
        local.max,
        Vec2::new(local.min.x, local.max.y),
        Vec2::new(local.max.x, local.min.y),
    ]
    .iter()
    .map(|c| c.distance(center))
    .fold(0.0f32, f32::max)
}

/// Tags of the worlds made so far in this process (wrapping after 65 535).
pub(super) static WORLD_TAGS: core::sync::atomic::AtomicU32 = core::sync::atomic::AtomicU32::new(0);

/// A new world's tag: 1 to 65 535 in the high 16 bits, the next in creation order. Ids of
/// two worlds never agree on a generation unless 65 535 worlds were made between them.
pub(super) fn next_world_tag() -> u32 {
    let n = WORLD_TAGS.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
    (n % 0xFFFF + 1) << 16
}

/// The mass properties of several shapes, each with its density, together (parallel-axis
/// theorem), or `None` when the total mass is not positive and finite.
pub(super) fn combined_mass(
    shapes: impl Iterator<Item = (Shape, f32)> + Clone,
) -> Option<crate::geometry::MassData> {
    // Two passes over the shapes instead of a list of their masses: nothing is allocated.
    let parts = shapes.map(|(s, density)| s.mass(density));
    let mass: f32 = parts.clone().map(|m| m.mass).sum();
    if !positive(mass) {
        return None;
    }
    let center = parts.clone().fold(Vec2::ZERO, |c, m| c + m.center * m.mass) * (1.0 / mass);
    let inertia = parts
        .map(|m| m.rotational_inertia + m.mass * (m.center - center).length_squared())
        .sum();
    Some(crate::geometry::MassData {
        mass,
        center,
        rotational_inertia: inertia,
    })
}
