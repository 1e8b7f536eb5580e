//! A small world (features `solver` + `alloc`): one call per frame.
//!
//! ```
//! use collide2d::*;
//! let mut world = World::default(); // gravity (0, -10), Box2D's contact tuning
//! let ground = Shape::Polygon(Polygon::make_box(20.0, 0.5).unwrap());
//! world.add_body(&BodyDef::new(BodyKind::Static, Transform::IDENTITY, ground)).unwrap();
//! let crate_ = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
//! let def = BodyDef::new(BodyKind::Dynamic, Transform::new(Vec2::new(0.0, 3.0), 0.3), crate_);
//! let id = world.add_body(&def).unwrap();
//! for _ in 0..120 {
//!     world.step(1.0 / 60.0, 4).unwrap();
//! }
//! assert!((world.transform(id).unwrap().p.y - 1.0).abs() < 0.02); // resting on the ground
//! ```
//!
//! [`World::step`] runs, in order:
//! 1. **broad phase** — new pairs from the [`DynamicTree`], looking only at the proxies moved
//!    since the last step (the world's *move buffer*; see
//!    [`DynamicTree::query_pairs_of`]), skipping pairs where neither body is dynamic. A
//!    pair's contact is found in O(1) through a hash set of body pairs;
//! 2. **narrow phase** — for every *awake* contact: drop it when the fat boxes no longer
//!    overlap, otherwise [`collide_with_margin`] with the speculative distance, and match
//!    points by feature id with the impulses the contact kept from its last solve (warm
//!    starting). As in Box2D v3, a pair that has barely moved relative to itself since its
//!    last full manifold (less than [`CONTACT_RECYCLE_DISTANCE`], see
//!    [`World::set_recycle_distance`]) *recycles* it: same normal and features, points
//!    carried along by the bodies and depths updated from their motion — in a settled stack
//!    most manifolds are never recomputed;
//! 3. **events** — a pair *begins touching* when its manifold first has a point and *ends*
//!    when it has none (or the pair is dropped, or a body removed). As in Box2D, speculative
//!    points count, so touching starts slightly before the surfaces meet; this keeps the
//!    events from flickering for resting contacts. Ends caused between steps (a body
//!    removed, a filter changed) are queued as they happen and lead the next step's end
//!    events, so the events the steps report match every begin with exactly one end. A
//!    sleeping body touched by an awake one wakes with its island;
//! 4. **solver** — the step of [`solver::step`] over the awake bodies only. The narrow
//!    phase puts each touching pair's constraint straight into a block of four by a greedy
//!    colouring of the contact graph (no two constraints of a block share a moving body), so
//!    that every block is solved in SIMD lanes: bit for bit the result of [`solver::step`]
//!    on the constraints in block order;
//! 5. **continuous** — a dynamic body that moved more than half its smallest extent is swept
//!    from its old pose to its new one against static and kinematic shapes (bullets: also
//!    against dynamic ones) with [`time_of_impact`](crate::time_of_impact) and stopped at
//!    the first impact, keeping its velocity, as Box2D's continuous phase does. Box2D sweeps
//!    non-bullets against static shapes only; kinematic ones are included here (taken at
//!    their pose after the step) so that a fast body does not pass through a thin moving
//!    platform or a turning container wall, as the issue asks and a game expects. In the
//!    spinner scene 0 bodies escape either way since a sweep that starts touching falls back
//!    to the body's core (Box2D's `fraction == 0` rule; 3 escaped without kinematic sweeps
//!    before it); the cost, a time of impact per fast body near a kinematic shape, is in
//!    the tumbler's continuous phase in BENCHMARKS.md. One-sided chain segments follow
//!    Box2D's rule: no sweep when the body's centroid starts behind the segment, or ends
//!    more than its core distance in front after closing in by less than that (a slide
//!    along the surface is not paused). Beyond Box2D: a body whose core already touches a
//!    one-sided segment at the start of its sweep, and whose centroid would end behind
//!    it, stays where it started (Box2D ignores such a hit and lets the body through);
//! 6. **sleep** — a body whose speed (and position correction) stays under
//!    [`SLEEP_VELOCITY`] accumulates sleep time; each step the bodies that have rested for
//!    [`TIME_TO_SLEEP`] are grouped by union-find over touching constraints between
//!    non-static bodies, and an island whose every body has rested that long (a group
//!    touching no body that has not) goes to sleep as a whole: its bodies
//!    and contacts leave the per-step arrays and cost nothing until woken;
//! 7. **proxies** — every awake body's proxy is moved when its box (grown by the speculative
//!    distance) leaves its fat box; moved proxies go into the move buffer. Fat boxes are sized
//!    per shape as Box2D v3.1 does: [`FAT_MARGIN_FRACTION`] of the shape's extent, at most
//!    [`MAX_FAT_MARGIN`] (static shapes: the speculative distance). The tree's own
//!    [`DynamicTree::margin`](crate::tree::DynamicTree::margin) is not used by the world.
//!    A single 0.1 m margin gave the tumbler's small boxes twice the pairs (17 900 against
//!    9 600 per step) and cost more in the narrow phase than the extra proxy moves save.
//!
//! **Speculative distance.** Contacts are created with points up to
//! [`SPECULATIVE_DISTANCE`] (Box2D's 4 × linear slop) apart, plus how far the two bodies
//! can approach each other in the step (their relative speed bound times `dt`), that extra
//! capped at half the larger of their smallest extents: a landing box is stopped by a
//! speculative point before it penetrates (Box2D's constant margin lets it sink in and be
//! pushed out), and the cap keeps ghost points from reaching far ahead of a fast body (an
//! unbounded `dt × speed` margin puts them metres ahead). Beyond the cap, fast bodies are
//! kept from passing through static geometry by the continuous phase; two fast *dynamic*
//! bodies can pass through each other unless one is a [bullet](BodyDef::bullet) (Box2D's
//! rule).
//!
//! **Sleeping** (Box2D's behaviour, with per-step islands). Islands are found afresh every
//! step, rather than kept persistently as in Box2D v3 (which needs deferred island splitting
//! when contacts end): only the bodies that have rested for [`TIME_TO_SLEEP`] can sleep, so
//! only they are grouped, by union-find over this step's touching constraints between
//! moving bodies, and a group touching a moving body that has not rested is held awake.
//! A group nothing holds is a whole island of rested bodies. The cost is two flag reads per
//! touching constraint plus the rested bodies' unions (a jiggling pyramid where most bodies
//! move pays almost nothing; nothing at all while no body has rested), with no bookkeeping
//! on contact begin/end and nothing that can go stale. An island that falls
//! asleep is recorded as a *sleeping island* (its body list), so waking any body of it wakes
//! exactly the bodies that fell asleep together. Kinematic bodies take part in islands like
//! dynamic ones (a moving kinematic body keeps what it touches awake); static bodies do not
//! link islands. Woken by: a touch from an awake body, [`World::set_velocity`],
//! [`World::set_transform`], [`World::set_awake`], removing a body of the island or one
//! touching it, disabling sleep on one of its bodies or for the world.
//!
//! **Shapes.** A body starts with one shape ([`BodyDef::shape`]) and may get more with
//! [`World::add_shape`] (a compound body: a concave shape [`decompose`](crate::decompose())d into
//! convex pieces, a level built of several pieces). Each shape has its own proxy, boxes and
//! contacts; a dynamic body's mass, centre of mass and rotational inertia are those of all its
//! shapes together. Contacts, events and queries speak of bodies: two shapes of one body never
//! collide with each other, and two bodies touching with two pairs of shapes have two contacts
//! (two begin events). [`World::add_chain`] makes a chain one static (or kinematic) body with a
//! shape per segment.
//!
//! Friction combines as `sqrt(μa·μb)`, restitution as `max(ea, eb)` (Box2D's rules). There are
//! no joints. Body ids carry a generation, so a removed
//! body's id is rejected with [`SolverError::InvalidBody`] even after its slot is reused.
//!
//! Files: `types.rs` (the public value types), `bodies.rs` (adding and removing bodies,
//! shapes and chains), `pairs.rs` (the pair hash set), `contacts.rs` (contact bookkeeping,
//! broad and narrow phase, recycling), `sleep.rs` (islands), `continuous.rs` (time of
//! impact for fast bodies), `queries.rs` (filtered world queries), `control.rs` (forces,
//! damping, filters and other per-body settings), `mover.rs` (the world as a mover level);
//! this file holds the `World` itself and its step.

mod bodies;
mod chains;
mod contacts;
mod continuous;
mod control;
mod draw;
mod hooks;
mod internal_edges;
pub mod limits;
mod mover;
mod pairs;
mod queries;
mod shapes;
mod sleep;
mod types;

use alloc::vec::Vec;

use crate::cast::CastShape;
use crate::geometry::Shape;
use crate::math::{Aabb, Ray, Rot, Transform, Vec2};
use crate::narrowphase::{collide_with_margin, overlaps_aabb_shape, Manifold};
use crate::solver::{self, non_negative, positive, Body, ContactConstraint, SolverError, SolverSettings};
use crate::tree::{DynamicTree, Filter, ProxyId, Visit};

use contacts::{Contact, ContactSim, Ending, SimMemory};
pub use draw::DrawFlags;
pub use hooks::ContactHooks;
pub use mover::{MoverPush, WorldLevel};
use pairs::{pair_key, PairTable};
pub use types::{
    BodyDef, BodyId, BodyKind, ChainDef, ChainId, ContactEvent, Material, ProfileClock, QueryFilter,
    SensorEvent, ShapeDef, ShapeId, StepProfile, WorldCastHit, WorldRayHit,
};

/// Base speculative distance (m), Box2D's `4 × linearSlop`: contact points are created for
/// surfaces up to this far apart. Bounded, independent of speed (see the module docs).
pub const SPECULATIVE_DISTANCE: f32 = 0.02;

/// Speed (m/s, including the rotation of the farthest point) under which a body counts as
/// resting for sleep (Box2D's default `sleepThreshold`).
pub const SLEEP_VELOCITY: f32 = 0.05;

/// Seconds every body of an island must have rested before the island sleeps (Box2D's
/// `B2_TIME_TO_SLEEP`).
pub const TIME_TO_SLEEP: f32 = 0.5;

/// A dynamic body is swept by the continuous phase when it moved in one step by more than
/// this fraction of its smallest extent (Box2D's default `safetyFactor`).
pub const CONTINUOUS_SAFETY_FACTOR: f32 = 0.5;

/// Colours of the contact graph (see `World::place_constraint`); a constraint of a body with
/// more contacts than this gets a block of its own.
const COLORS: usize = 64;

/// "No index" in the world's intrusive lists.
const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Slot {
    generation: u32,
    live: bool,
    kind: BodyKind,
    shape: Shape,
    material: Material,
    proxy: ProxyId,
    /// The proxy in `World::fixed_tree` (static and kinematic bodies only).
    fixed_proxy: ProxyId,
    user_data: u64,
    /// Seconds the body has rested (see [`SLEEP_VELOCITY`]).
    sleep_time: f32,
    enable_sleep: bool,
    bullet: bool,
    filter: Filter,
    sensor: bool,
    fixed_rotation: bool,
    /// The proxy's fat margin in both trees (see [`fat_margin`]).
    margin: f32,
    /// First edge of the body's contact list (`contact << 1 | side`), or `NONE`. The
    /// contacts of a body's extra shapes are listed here too (never on the shape's slot).
    contact_head: u32,
    /// For an extra shape of a body (see [`World::add_shape`]): the body's slot; `NONE` for a
    /// body's own slot. An extra shape's slot has its own proxy, boxes, filter, material and
    /// a copy of the body's [`Body`] (kept in step by `sync_body`), and is never a body id.
    parent: u32,
    /// The next extra shape of the same body (a list from the body's slot), or `NONE`.
    next_shape: u32,
    /// A static polygon's internal edges (see [`internal_edges`]), as of `World::static_epoch`
    /// `internal_epoch`.
    internal_edges: u8,
    /// The value of `World::static_epoch` when `internal_edges` was worked out (`NONE`: never).
    internal_epoch: u32,
}

/// The per-body data the narrow phase reads for every contact, kept apart from the large
/// `Slot` (which holds the shape) so that a step's scattered per-body reads touch 40 bytes.
#[derive(Clone, Copy, Debug)]
struct Hot {
    /// Index in `World::awake`, or `NONE` for static and sleeping bodies.
    awake_index: u32,
    /// The sleeping island the body belongs to, or `NONE`.
    island: u32,
    /// Farthest point of the shape's local box from the centre of mass.
    reach: f32,
    /// Smallest extent of the shape (the continuous phase's yardstick).
    min_extent: f32,
    /// Fastest any point of the body moves relative to its centre of mass, `|ω|·reach`
    /// (m/s): refreshed for the awake bodies at the start of each narrow phase, 0 for
    /// static and sleeping ones.
    spin: f32,
    /// The shape is unchanged by rotation about the centre of mass (a circle centred on it):
    /// contact recycling ignores the body's turn, so a rolling ball keeps its support point.
    round: bool,
    /// The velocity of the body's centre of mass (m/s, world), refreshed with `spin`; zero for
    /// static and sleeping bodies.
    velocity: Vec2,
    /// The body's centre of mass (world): set for the awake bodies at the start of each
    /// narrow phase (and for a body woken during it), read there for every contact instead
    /// of being worked out per contact. Stale between steps, and not read for static and
    /// sleeping bodies (the narrow phase works theirs out).
    center: Vec2,
}

/// A slot's two boxes, read together by the narrow phase for every pair.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct SlotBoxes {
    /// The proxy's fat box (a copy of the tree's, read without a walk through the slot and
    /// the tree node): a pair whose fat boxes part is dropped.
    fat: Aabb,
    /// The shape's box at its current pose grown by the speculative distance (the proxy's
    /// tight box): lets the narrow phase skip pairs too far apart for any point without
    /// running the manifold.
    tight: Aabb,
}

/// One point of a pair's last full manifold, as its constraint was prepared from it.
#[derive(Clone, Copy, Debug, Default)]
struct CachedPoint {
    /// The point relative to body A's and body B's centre of mass (world frame, at the
    /// time): the material point of each body that was there; recycling turns each with its
    /// body (a change of a body's centre of mass forgets the cache).
    anchor_a: Vec2,
    anchor_b: Vec2,
    /// The separation at the time (−depth) minus `dot(cB − cA + anchor_b − anchor_a, n)` at
    /// the time (`cA`, `cB` the centres; zero up to rounding): adding that dot product for
    /// the bodies' current centres and turned anchors gives the current separation of the
    /// two material points.
    separation: f32,
    /// The manifold point's feature id.
    id: u32,
}

/// What contact recycling needs from the last full manifold of a pair: its normal and its
/// points as material points of the two bodies (no points: the shapes were apart, within
/// the margin).
#[derive(Clone, Copy, Debug)]
struct ContactCache {
    normal: Vec2,
    count: u32,
    /// The speculative margin the manifold was computed with.
    margin: f32,
    points: [CachedPoint; 2],
    rotation_a: Rot,
    rotation_b: Rot,
    /// `transform_a⁻¹ · transform_b` at the time.
    relative: Transform,
}

/// Default distance (m) below which a pair's relative motion since its last full manifold
/// lets [`World::step`] reuse that manifold (Box2D v3's `B2_CONTACT_RECYCLE_DISTANCE`, ten
/// times its linear slop). See [`World::set_recycle_distance`].
pub const CONTACT_RECYCLE_DISTANCE: f32 = 0.05;

/// Largest fat-box margin (m) of a moving shape's proxy (Box2D v3.1's `B2_MAX_AABB_MARGIN`).
/// A proxy's fat box is its tight box (the shape's box grown by [`SPECULATIVE_DISTANCE`])
/// grown by [`FAT_MARGIN_FRACTION`] of the shape's extent, at most this; a static body's by
/// [`SPECULATIVE_DISTANCE`]. Pairs exist while fat boxes overlap; a proxy is moved in the
/// tree when its tight box leaves its fat box.
pub const MAX_FAT_MARGIN: f32 = 0.05;

/// Fraction of a moving shape's extent used as its proxy's fat margin (Box2D v3.1's
/// `B2_AABB_MARGIN_FRACTION`); see [`MAX_FAT_MARGIN`].
pub const FAT_MARGIN_FRACTION: f32 = 0.125;

/// Recycling also requires each body to have turned by less than `acos` of this (about 11°)
/// since the last full manifold (Box2D v3's `B2_CONTACT_RECYCLE_COS_ANGLE`).
pub const CONTACT_RECYCLE_COS_ANGLE: f32 = 0.98;

/// Rigid bodies, a broad-phase tree, persistent contacts, sleeping islands and the solver.
///
/// Memory and cost: per body one slot and one [`Body`]; per pair of overlapping fat boxes
/// one contact (in a slab, found through a hash set); per step O(moved proxies · log n) for
/// new pairs plus O(awake bodies + awake contacts) for everything else. Sleeping bodies and
/// their contacts cost nothing per step.
pub struct World {
    /// This world's tag in the high 16 bits of every generation it gives (see
    /// [`World::next_generation`]).
    tag: u32,
    settings: SolverSettings,
    slots: Vec<Slot>,
    hot: Vec<Hot>,
    bodies: Vec<Body>,
    free: Vec<u32>,
    live_count: usize,
    tree: DynamicTree<Vec<crate::tree::TreeNode>>,
    /// A second tree with the static and kinematic bodies only: what a fast non-bullet body
    /// is swept against (as Box2D sweeps against its static tree), without walking past the
    /// dynamic bodies crowding the main tree. User data are slot indices.
    fixed_tree: DynamicTree<Vec<crate::tree::TreeNode>>,
    /// Per slot, its proxy's fat and tight boxes, side by side (one cache line for both
    /// checks the narrow phase makes on every pair).
    boxes: Vec<SlotBoxes>,
    /// Scratch of [`DynamicTree::rebuild_enlarged`], one entry per proxy.
    rebuild_scratch: Vec<u32>,
    /// Proxies created or moved since the last broad phase (duplicates allowed).
    move_buffer: Vec<ProxyId>,
    /// Broad-phase scratch: the new pairs found this step.
    found: Vec<(u32, u32)>,
    /// Body pair → contact id.
    pair_table: PairTable,
    /// Contact slab (stable ids); free slots are listed in `free_contacts`.
    contacts: Vec<Contact>,
    free_contacts: Vec<u32>,
    /// Beside the slab entries: the impulses a contact kept when it fell asleep (read when
    /// it wakes, see `ContactSim::solved`; an entry is meaningful only while its contact's
    /// `solved` is `PARKED`, and the array is only as long as the last contact that slept).
    sleep_impulses: Vec<Option<solver::Carried>>,
    /// The sims of the contacts with at least one awake body (the narrow phase's work list).
    active: Vec<ContactSim>,
    /// Beside each entry of `active`, the contact's larger data (see `SimMemory`).
    active_memory: Vec<SimMemory>,
    /// The sims of sleeping contacts (a slab; free entries listed in `free_parked`).
    parked: Vec<(ContactSim, SimMemory)>,
    free_parked: Vec<u32>,
    /// Number of contacts whose manifold has points (awake or asleep).
    touching_count: usize,
    /// Number of sensor contacts whose shapes overlap (awake or asleep).
    sensor_overlaps: usize,
    /// Awake kinematic and dynamic bodies (slot indices); the solver sees them in this order
    /// at solver index `i + 1` (index 0 stands for every static body).
    awake: Vec<u32>,
    /// Sleeping islands: the bodies that fell asleep together. Free entries are empty and
    /// listed in `free_islands`.
    islands: Vec<Vec<u32>>,
    free_islands: Vec<u32>,
    /// The awake bodies as the solver sees them this step.
    solver_bodies: Vec<Body>,
    /// The solver passes' compact copy of `solver_bodies`' velocities and motions.
    solver_states: Vec<solver::BodyState>,
    /// Per solver body, its velocity change per sub-step (worked out once per step).
    solver_kicks: Vec<solver::VelocityKick>,
    /// The touching pairs' constraints, packed into lanes by the narrow phase as it builds
    /// them (see `place_constraint`); between steps, with the impulses of the last step. A
    /// touching sim's `solved` is its place, `block · 4 + lane`.
    blocks: Vec<solver::ContactBlock>,
    /// Per block and lane, the points' feature ids (the lanes do not hold them; warm
    /// starting matches points by them).
    block_ids: Vec<[[u32; 2]; 4]>,
    /// The previous step's `blocks` and `block_ids` while the narrow phase reads their
    /// impulses for warm starting and fills the new ones (the two are swapped each step).
    prev_blocks: Vec<solver::ContactBlock>,
    prev_block_ids: Vec<[[u32; 2]; 4]>,
    /// Colouring scratch: per solver body, the colours its constraints use this step.
    used_colors: Vec<u64>,
    /// Union-find and continuous-phase scratch.
    parent: Vec<u32>,
    /// Per awake body (by awake index), written by `finalize_bodies`: whether it has rested
    /// for [`TIME_TO_SLEEP`] (`sleep::RESTED`), then in `update_sleep` whether a touching
    /// body that has not holds it awake.
    rested: Vec<u8>,
    /// The awake indices of the bodies that have rested for [`TIME_TO_SLEEP`] this step.
    tired: Vec<u32>,
    /// This step's touching constraints between two moving bodies, as awake indices
    /// (listed by the narrow phase while sleeping is enabled; the islands' edges).
    links: Vec<(u32, u32)>,
    fast: Vec<u32>,
    begin: Vec<ContactEvent>,
    end: Vec<ContactEvent>,
    sensor_begin: Vec<SensorEvent>,
    sensor_end: Vec<SensorEvent>,
    /// Bodies the last step stopped because they would have become non-finite.
    faults: Vec<BodyId>,
    /// Whether contacts with static polygons are corrected for internal edges.
    internal_edge_removal: bool,
    /// Counts changes to the static shapes (added, removed, moved): a static polygon's
    /// internal edges are worked out again when their epoch is older.
    static_epoch: u32,
    /// Ends caused between steps (a body removed, a filter changed), in the order they
    /// happened: the next step puts them at the head of `end` and `sensor_end`. Room is kept
    /// here for every touching contact and sensor overlap to end (`reserve_solver`,
    /// `reserve_step`), so the calls that end them allocate nothing.
    queued_end: Vec<ContactEvent>,
    queued_sensor_end: Vec<SensorEvent>,
    last_dt: f32,
    recycle_distance: f32,
    sleep_enabled: bool,
    continuous_enabled: bool,
    /// The caller's clock for [`World::profile`], if any, and the last step's phase times.
    profile_clock: Option<ProfileClock>,
    profile: StepProfile,
}

impl Default for World {
    fn default() -> Self {
        World::with_settings(SolverSettings::default())
    }
}

/// A constraint's place `block · 4 + lane` as (block, lane).
fn split_place(at: u32) -> (usize, usize) {
    let at = at as usize;
    (at / solver::ContactBlock::LANES, at % solver::ContactBlock::LANES)
}

/// The warm-starting data of the constraint at `at` in `blocks` (with their `ids`).
fn carried_from(blocks: &[solver::ContactBlock], ids: &[[[u32; 2]; 4]], at: u32) -> Option<solver::Carried> {
    let (k, l) = split_place(at);
    Some(blocks.get(k)?.carried(l, ids.get(k)?[l]))
}

/// Smallest extent of a shape: the radius of the largest circle about its centroid that the
/// shape contains (Box2D's `minExtent`), used to decide when a body moves fast.
fn min_extent(shape: &Shape) -> f32 {
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

/// The fat-box margin of a shape's proxy (Box2D v3.1's rule): [`FAT_MARGIN_FRACTION`] of the
/// shape's extent about its own centre (circle: radius; capsule: half its length plus the
/// radius; polygon: its farthest vertex from the centroid plus its radius; chain segment:
/// half its length), at most [`MAX_FAT_MARGIN`]; a static body's shapes never move and get
/// the speculative distance. Small shapes thus get small fat boxes: with one margin for
/// all, a pile of small boxes finds twice the pairs it needs.
fn fat_margin(shape: &Shape, kind: BodyKind) -> f32 {
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
fn shape_reach(shape: &Shape, center: Vec2) -> f32 {
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
static WORLD_TAGS: core::sync::atomic::AtomicU32 = core::sync::atomic::AtomicU32::new(0);

/// A new world's tag: 1 to 65 535 in the high 16 bits, the next in creation order. Ids of
/// two worlds never agree on a generation unless 65 535 worlds were made between them.
fn next_world_tag() -> u32 {
    let n = WORLD_TAGS.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
    (n % 0xFFFF + 1) << 16
}

/// The mass properties of several shapes, each with its density, together (parallel-axis
/// theorem), or `None` when the total mass is not positive and finite.
fn combined_mass(shapes: impl Iterator<Item = (Shape, f32)> + Clone) -> Option<crate::geometry::MassData> {
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

impl World {
    /// An empty world with these solver settings (gravity and sub-steps are among them),
    /// checked as [`World::set_settings`] checks them.
    pub fn new(settings: SolverSettings) -> Result<World, SolverError> {
        limits::check_settings(&settings)?;
        Ok(World::with_settings(settings))
    }

    /// An empty world with settings already known to be valid.
    fn with_settings(settings: SolverSettings) -> World {
        World {
            tag: next_world_tag(),
            settings,
            slots: Vec::new(),
            hot: Vec::new(),
            bodies: Vec::new(),
            free: Vec::new(),
            live_count: 0,
            tree: DynamicTree::new(),
            fixed_tree: DynamicTree::new(),
            boxes: Vec::new(),
            move_buffer: Vec::new(),
            rebuild_scratch: Vec::new(),
            found: Vec::new(),
            pair_table: PairTable::default(),
            contacts: Vec::new(),
            free_contacts: Vec::new(),
            sleep_impulses: Vec::new(),
            active: Vec::new(),
            active_memory: Vec::new(),
            parked: Vec::new(),
            free_parked: Vec::new(),
            touching_count: 0,
            sensor_overlaps: 0,
            awake: Vec::new(),
            islands: Vec::new(),
            free_islands: Vec::new(),
            solver_bodies: Vec::new(),
            solver_states: Vec::new(),
            solver_kicks: Vec::new(),
            blocks: Vec::new(),
            block_ids: Vec::new(),
            prev_blocks: Vec::new(),
            prev_block_ids: Vec::new(),
            used_colors: Vec::new(),
            parent: Vec::new(),
            rested: Vec::new(),
            tired: Vec::new(),
            links: Vec::new(),
            fast: Vec::new(),
            begin: Vec::new(),
            end: Vec::new(),
            sensor_begin: Vec::new(),
            sensor_end: Vec::new(),
            faults: Vec::new(),
            internal_edge_removal: true,
            static_epoch: 0,
            queued_end: Vec::new(),
            queued_sensor_end: Vec::new(),
            last_dt: 1.0 / 60.0,
            recycle_distance: CONTACT_RECYCLE_DISTANCE,
            sleep_enabled: true,
            continuous_enabled: true,
            profile_clock: None,
            profile: StepProfile::default(),
        }
    }

    /// Sets the clock [`World::profile`] times each step's phases with (`None`, the default,
    /// times nothing and costs nothing). The world is `no_std` and has no clock of its own:
    /// pass any monotonic tick counter, e.g. nanoseconds since a fixed `Instant`; the profile
    /// is in its ticks. Seven reads of it per step.
    pub fn set_profile_clock(&mut self, clock: Option<ProfileClock>) {
        self.profile_clock = clock;
        self.profile = StepProfile::default();
    }

    /// How long each phase of the last [`World::step`] took, in ticks of the clock set with
    /// [`World::set_profile_clock`]; all zero without a clock or after a failed step.
    #[must_use]
    pub fn profile(&self) -> StepProfile {
        self.profile
    }

    /// The solver settings.
    #[must_use]
    pub fn settings(&self) -> &SolverSettings {
        &self.settings
    }

    /// Replaces the solver settings (gravity, stiffness...). The sub-step count passed to
    /// [`World::step`] overrides `substeps`, which must still be in 1..=64. Errors (the
    /// settings are kept): [`SolverError::InvalidInput`] for a non-finite value,
    /// [`SolverError::OutOfRange`] for gravity above [`limits::MAX_GRAVITY`], sub-steps outside
    /// 1..=64, a contact hertz that is not positive, a negative damping ratio, push-out speed
    /// or restitution threshold, or a `max_linear_speed` outside (0,
    /// [`limits::MAX_LINEAR_SPEED`]]. Bodies moving faster than a lowered `max_linear_speed`
    /// are slowed to it by the next step's integration.
    pub fn set_settings(&mut self, settings: SolverSettings) -> Result<(), SolverError> {
        limits::check_settings(&settings)?;
        self.settings = settings;
        Ok(())
    }

    /// Number of live bodies.
    #[must_use]
    pub fn body_count(&self) -> usize {
        self.live_count
    }

    /// Number of awake bodies (kinematic and dynamic; static bodies are never awake).
    #[must_use]
    pub fn awake_body_count(&self) -> usize {
        self.awake.len()
    }

    /// Number of touching contacts (pairs whose manifold has points), sleeping ones included.
    #[must_use]
    pub fn contact_count(&self) -> usize {
        self.touching_count
    }

    /// Number of pairs of bodies whose fat boxes overlap (touching or not): the contacts the
    /// world keeps.
    #[must_use]
    pub fn pair_count(&self) -> usize {
        self.pair_table.len()
    }

    fn slot(&self, id: BodyId) -> Result<usize, SolverError> {
        match self.slots.get(id.index as usize) {
            Some(s) if s.live && s.generation == id.generation && s.parent == NONE => Ok(id.index as usize),
            _ => Err(SolverError::InvalidBody),
        }
    }

    /// The body a slot belongs to: itself for a body's own slot, the parent for an extra
    /// shape's.
    #[inline]
    fn owner(&self, s: u32) -> u32 {
        match self.slots[s as usize].parent {
            NONE => s,
            p => p,
        }
    }

    /// The id of the body slot `index` belongs to.
    /// The generation for a new body or shape in slot `index`: the world's tag in the high
    /// 16 bits (so that an id of another world is never taken for one of this world) and in
    /// the low 16 bits one more than the slot's last (1 to 65 535, wrapping: an id is told
    /// stale until its slot has been reused 65 535 times, as in Box2D).
    fn next_generation(&self, index: u32) -> u32 {
        let last = self
            .slots
            .get(index as usize)
            .map_or(0, |s| s.generation & 0xFFFF);
        self.tag | (last % 0xFFFF + 1)
    }

    /// The id of the shape in slot `index`.
    fn shape_id_of(&self, index: u32) -> ShapeId {
        ShapeId {
            index,
            generation: self.slots[index as usize].generation,
        }
    }

    fn id_of(&self, index: u32) -> BodyId {
        let index = self.owner(index);
        BodyId {
            index,
            generation: self.slots[index as usize].generation,
        }
    }

    /// The proxy's tight box: the shape's box at `xf`, grown by the speculative distance
    /// (Box2D's), so that contacts within it are found before the fat box is left.
    fn proxy_box(shape: &Shape, xf: Transform) -> Aabb {
        shape.aabb(xf).inflated(SPECULATIVE_DISTANCE)
    }

    /// The solver body (transform, velocities, inverse mass...).
    pub fn body(&self, id: BodyId) -> Result<&Body, SolverError> {
        self.slot(id).map(|i| &self.bodies[i])
    }

    /// World transform of the body origin.
    pub fn transform(&self, id: BodyId) -> Result<Transform, SolverError> {
        self.body(id).map(|b| b.transform)
    }

    /// World position of the body origin (m).
    pub fn position(&self, id: BodyId) -> Result<Vec2, SolverError> {
        self.body(id).map(|b| b.transform.p)
    }

    /// World rotation of the body (counter-clockwise from the world's x axis).
    pub fn rotation(&self, id: BodyId) -> Result<Rot, SolverError> {
        self.body(id).map(|b| b.transform.q)
    }

    /// World position of the body's centre of mass (m).
    pub fn center_of_mass(&self, id: BodyId) -> Result<Vec2, SolverError> {
        self.body(id).map(Body::center)
    }

    /// Velocity of the body's centre of mass (m/s, world frame).
    pub fn linear_velocity(&self, id: BodyId) -> Result<Vec2, SolverError> {
        self.body(id).map(|b| b.linear_velocity)
    }

    /// Angular velocity (rad/s, counter-clockwise positive).
    pub fn angular_velocity(&self, id: BodyId) -> Result<f32, SolverError> {
        self.body(id).map(|b| b.angular_velocity)
    }

    /// Every live body's id, in slot order. O(slots): for a whole-world pass, not per body.
    pub fn body_ids(&self) -> impl Iterator<Item = BodyId> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.live && s.parent == NONE)
            .map(|(i, s)| BodyId {
                index: i as u32,
                generation: s.generation,
            })
    }

    /// The world's gravity (m/s²).
    #[must_use]
    pub fn gravity(&self) -> Vec2 {
        self.settings.gravity
    }

    /// Sets the world's gravity (m/s²), checked as [`World::set_settings`] checks it
    /// ([`SolverError::InvalidInput`], [`SolverError::OutOfRange`]). Sleeping bodies stay
    /// asleep until something wakes them (as in Box2D).
    pub fn set_gravity(&mut self, gravity: Vec2) -> Result<(), SolverError> {
        self.set_settings(SolverSettings {
            gravity,
            ..self.settings
        })
    }

    /// The body's first shape (body space; see [`World::shapes`] for all of them).
    pub fn shape(&self, id: BodyId) -> Result<&Shape, SolverError> {
        self.slot(id).map(|i| &self.slots[i].shape)
    }

    /// The body's kind.
    pub fn kind(&self, id: BodyId) -> Result<BodyKind, SolverError> {
        self.slot(id).map(|i| self.slots[i].kind)
    }

    /// The user data given at creation.
    pub fn user_data(&self, id: BodyId) -> Result<u64, SolverError> {
        self.slot(id).map(|i| self.slots[i].user_data)
    }

    /// Sets the velocity of the centre of mass and the angular velocity, and wakes the
    /// body. Ignored (but validated) for static bodies. Errors: [`SolverError::InvalidInput`]
    /// for non-finite values, [`SolverError::OutOfRange`] for a speed above the world's
    /// `max_linear_speed` or an angular speed above [`limits::MAX_ANGULAR_SPEED`].
    pub fn set_velocity(&mut self, id: BodyId, linear: Vec2, angular: f32) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        limits::check_velocity(linear, angular, self.settings.max_linear_speed)?;
        if self.slots[i].kind != BodyKind::Static {
            self.wake_body(i as u32);
            self.bodies[i].linear_velocity = linear;
            self.bodies[i].angular_velocity = angular;
        }
        Ok(())
    }

    /// Teleports a body (its proxy follows at once) and wakes it, and the bodies it
    /// touched (teleporting a static body wakes the sleeping bodies resting on it). Errors:
    /// [`SolverError::InvalidInput`] for a non-finite transform or a rotation that is not unit
    /// length, [`SolverError::OutOfRange`] for a position beyond [`limits::MAX_COORDINATE`].
    pub fn set_transform(&mut self, id: BodyId, xf: Transform) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        limits::check_transform(xf)?;
        if self.slots[i].kind == BodyKind::Static {
            self.static_changed();
        }
        self.wake_body(i as u32);
        self.wake_touching(i as u32);
        self.bodies[i].transform = xf;
        self.sync_body(i).map_err(|_| SolverError::InvalidInput)
    }

    /// Notes that a static shape was added, removed or moved: every static polygon's internal
    /// edges are worked out again when a contact next needs them.
    fn static_changed(&mut self) {
        // `NONE` marks "never worked out": the counter skips it.
        self.static_epoch = (self.static_epoch + 1) % NONE;
    }

    /// Works out slot `i`'s internal edges if it is a static polygon whose edges are older
    /// than the last change to the static shapes.
    fn refresh_internal_edges(&mut self, i: usize) {
        let slot = &self.slots[i];
        if slot.kind != BodyKind::Static
            || !matches!(slot.shape, Shape::Polygon(_))
            || slot.internal_epoch == self.static_epoch
        {
            return;
        }
        let mask = self.internal_edges_of(i);
        let slot = &mut self.slots[i];
        slot.internal_edges = mask;
        slot.internal_epoch = self.static_epoch;
    }

    /// Slot `i`'s internal edges (0 unless it is a static polygon): as kept when current,
    /// otherwise from the edges of the static polygons near it (the fixed tree) that cover
    /// its own.
    fn internal_edges_of(&self, i: usize) -> u8 {
        let slot = &self.slots[i];
        let Shape::Polygon(p) = &slot.shape else {
            return 0;
        };
        if slot.kind != BodyKind::Static {
            return 0;
        }
        if slot.internal_epoch == self.static_epoch {
            return slot.internal_edges;
        }
        let xf = self.bodies[i].transform;
        let area = p.aabb(xf).inflated(internal_edges::EDGE_TOLERANCE);
        let mut mask = 0u8;
        self.fixed_tree.query(area, u64::MAX, |_, user| {
            let j = user as usize;
            if let (true, BodyKind::Static, Shape::Polygon(q)) =
                (j != i, self.slots[j].kind, &self.slots[j].shape)
            {
                let neighbour = core::iter::once((q, self.bodies[j].transform));
                mask |= internal_edges::internal_mask(p, xf, neighbour);
            }
            Visit::Continue
        });
        mask
    }

    /// Brings body `i` and its extra shapes to its current pose: each extra shape's copy of
    /// the body is refreshed and every proxy synced.
    fn sync_body(&mut self, i: usize) -> Result<(), crate::tree::TreeError> {
        self.sync_proxy(i)?;
        let mut c = self.slots[i].next_shape;
        while c != NONE {
            self.bodies[c as usize] = self.bodies[i];
            self.sync_proxy(c as usize)?;
            c = self.slots[c as usize].next_shape;
        }
        Ok(())
    }

    /// Brings slot `i`'s broad-phase data to its current pose: its tight box, and its fat
    /// box when the tight one left it (the proxy then joins the move buffer, and a static or
    /// kinematic body's copy in the fixed tree follows: same box, same margin, so it leaves
    /// its fat box exactly when the main tree's does).
    fn sync_proxy(&mut self, i: usize) -> Result<(), crate::tree::TreeError> {
        let aabb = Self::proxy_box(&self.slots[i].shape, self.bodies[i].transform);
        self.sync_proxy_to(i, aabb)
    }

    /// [`World::sync_proxy`] with the tight box `aabb` (the proxy box at the slot's current
    /// pose) already computed.
    fn sync_proxy_to(&mut self, i: usize, aabb: Aabb) -> Result<(), crate::tree::TreeError> {
        let slot = &self.slots[i];
        self.boxes[i].tight = aabb;
        // A proxy already marked moved is in the buffer: the buffer never holds a proxy twice,
        // so it stays within the room reserved for it (one entry per proxy).
        let listed = self.tree.was_moved(slot.proxy)?;
        // Lazily: the tree's loosened top is rebuilt once per step (`update_pairs`).
        if self
            .tree
            .move_proxy_lazy_with_margin(slot.proxy, aabb, slot.margin)?
        {
            if !listed {
                self.move_buffer.push(slot.proxy);
            }
            self.boxes[i].fat = self.tree.fat_aabb(slot.proxy).unwrap_or(aabb);
            if slot.kind != BodyKind::Dynamic {
                let _ = self
                    .fixed_tree
                    .move_proxy_with_margin(slot.fixed_proxy, aabb, slot.margin);
            }
        }
        Ok(())
    }

    /// Advances the world by `dt` seconds in `substeps` sub-steps (see the module docs).
    /// Clears and refills the contact and sensor events; its end events start with the ends
    /// caused since the last step (see [`World::end_events`]). Errors with
    /// [`SolverError::InvalidStep`] for a `dt` that is not in (0, [`limits::MAX_TIME_STEP`]] or
    /// `substeps` outside 1..=64 (the world and its events are unchanged), and with
    /// [`SolverError::OutOfMemory`] when the allocator cannot provide what the step needs.
    /// The step reserves most of it right after finding the new pairs, before anything
    /// changes, and a failure there leaves the world as it was (only the events are cleared;
    /// the ends caused since the last step wait for the next one). The solver's constraint
    /// blocks and body copies, and the room for the contacts touching after the narrow phase
    /// to end before the next step, are reserved during the step; when they cannot be, the
    /// step stops before the solver: no body has moved, the narrow phase's contact updates,
    /// wakes and events (the earlier ends with them) stand, and the contacts start cold next
    /// step. Either way the world stays valid and a later step goes on.
    pub fn step(&mut self, dt: f32, substeps: u32) -> Result<(), SolverError> {
        self.step_inner(dt, substeps, None)
    }

    /// [`World::step`] calling `hooks` for new shape pairs and touching contacts (see
    /// [`ContactHooks`]; the world is read-only inside them).
    pub fn step_with_hooks(
        &mut self,
        dt: f32,
        substeps: u32,
        hooks: &mut dyn ContactHooks,
    ) -> Result<(), SolverError> {
        self.step_inner(dt, substeps, Some(hooks))
    }

    fn step_inner(
        &mut self,
        dt: f32,
        substeps: u32,
        mut hooks: Option<&mut dyn ContactHooks>,
    ) -> Result<(), SolverError> {
        self.profile = StepProfile::default();
        limits::check_step(dt, substeps)?;
        let settings = SolverSettings {
            substeps,
            ..self.settings
        };
        if !settings.is_valid() {
            return Err(SolverError::InvalidInput);
        }
        self.begin.clear();
        self.end.clear();
        self.sensor_begin.clear();
        self.sensor_end.clear();
        self.faults.clear();
        self.last_dt = dt;
        let clock = self.profile_clock;
        let now = || clock.map_or(0, |f| f());
        let t0 = now();
        self.update_pairs(hooks.as_deref_mut())?;
        let t1 = now();
        // The ends queued since the last step happened before anything of this one: they lead
        // its end events (room reserved by `update_pairs`).
        self.end.extend_from_slice(&self.queued_end);
        self.queued_end.clear();
        self.sensor_end.extend_from_slice(&self.queued_sensor_end);
        self.queued_sensor_end.clear();
        self.update_contacts(hooks)?;
        self.reserve_solver()?;
        let t2 = now();

        // The awake bodies as the solver sees them: index 0 stands for every static body.
        self.solver_bodies.clear();
        self.solver_bodies.push(Body::new_static(Transform::IDENTITY));
        let bodies = &self.bodies;
        self.solver_bodies
            .extend(self.awake.iter().map(|&s| bodies[s as usize]));
        let rest = solver::BodyState::default();
        self.solver_states.resize(self.solver_bodies.len(), rest);
        self.solver_kicks
            .resize(self.solver_bodies.len(), solver::VelocityKick::default());
        solver::step_blocks(
            &mut self.solver_bodies,
            &mut self.solver_states,
            &mut self.solver_kicks,
            &mut self.blocks,
            &settings,
            dt,
        );
        // The impulses stay in `blocks` for warm starting: each touching sim knows its block
        // lane (no scattered writes).
        let t3 = now();
        self.finalize_bodies(dt);
        let t4 = now();
        self.solve_continuous();
        let t5 = now();
        self.update_sleep();
        let t6 = now();
        if clock.is_some() {
            let span = |a: u64, b: u64| b.wrapping_sub(a);
            self.profile = StepProfile {
                total: span(t0, t6),
                pairs: span(t0, t1),
                narrow: span(t1, t2),
                solve: span(t2, t3),
                finalize: span(t3, t4),
                continuous: span(t4, t5),
                sleep: span(t5, t6),
            };
        }
        Ok(())
    }

    /// Finds the lane for the touching constraint between the bodies at solver indices `ia`
    /// and `ib` (inverse masses and inertias `masses`) and returns it as (block, lane), or
    /// `None` when the blocks cannot grow (the step then fails with out of memory); the
    /// caller builds the constraint there. A greedy colouring of the contact graph in pair
    /// order: no two constraints of one colour share a moving body (fixed bodies do not
    /// count); each colour fills one open block at a time for constraints of one point and
    /// one for those of two (`two_points`), four lanes, so that the solver
    /// takes every block whole in SIMD lanes. A constraint that finds no free colour among
    /// [`COLORS`] gets a block of its own. Blocks follow in the order they were opened, and
    /// the solver's result is bit for bit that of solving the constraints one at a time in
    /// that order, lane by lane.
    fn claim_lane(
        &mut self,
        (ia, ib): (u32, u32),
        masses: [(f32, f32); 2],
        open: &mut [(u32, u32); 2 * COLORS],
        two_points: bool,
    ) -> Option<(usize, usize)> {
        const LANES: u32 = solver::ContactBlock::LANES as u32;
        let (ia, ib) = (ia as usize, ib as usize);
        // Woken bodies join the solver during the narrow phase (room reserved per step).
        let top = ia.max(ib) + 1;
        if self.used_colors.len() < top {
            self.used_colors.resize(top, 0);
        }
        let moving = |(m, i): (f32, f32)| !(m == 0.0 && i == 0.0);
        let (ma, mb) = (moving(masses[0]), moving(masses[1]));
        let busy = if ma { self.used_colors[ia] } else { 0 } | if mb { self.used_colors[ib] } else { 0 };
        let color = (!busy).trailing_zeros() as usize; // COLORS when all are taken
        let mut own = (NONE, LANES);
        let (block, lane) = if color < COLORS {
            &mut open[2 * color + usize::from(two_points)]
        } else {
            &mut own
        };
        if *block == NONE || *lane == LANES {
            let n = self.blocks.len();
            let more = (n / 8).max(16);
            // Each array checked on its own: after a failure their capacities can differ.
            if (n == self.blocks.capacity() && self.blocks.try_reserve_exact(more).is_err())
                || (n == self.block_ids.capacity() && self.block_ids.try_reserve_exact(more).is_err())
            {
                return None;
            }
            self.blocks.push(solver::ContactBlock::default());
            self.block_ids.push([[0; 2]; 4]);
            (*block, *lane) = (n as u32, 0);
        }
        if color < COLORS {
            let bit = 1u64 << color;
            if ma {
                self.used_colors[ia] |= bit;
            }
            if mb {
                self.used_colors[ib] |= bit;
            }
        }
        let (k, l) = (*block as usize, *lane as usize);
        *lane += 1;
        Some((k, l))
    }

    /// The warm-starting data of the constraint solved at `at` (`block · 4 + lane`) in the
    /// last step.
    fn carried(&self, at: u32) -> Option<solver::Carried> {
        carried_from(&self.blocks, &self.block_ids, at)
    }

    /// The constraint solved at `at` in the last step, with its impulses.
    fn solved_constraint(&self, at: u32) -> Option<ContactConstraint> {
        let (k, l) = split_place(at);
        Some(self.blocks.get(k)?.lane(l, self.block_ids.get(k)?[l]))
    }

    /// Copies the solved awake bodies back, accumulates sleep time and moves the proxies of
    /// bodies that are not fast (fast ones go to the continuous phase, which moves them).
    fn finalize_bodies(&mut self, dt: f32) {
        self.fast.clear();
        self.rested.clear();
        self.tired.clear();
        let inv_dt = 1.0 / dt;
        let sleepy = self.sleep_enabled;
        let max_speed = self.settings.max_linear_speed;
        for k in 0..self.awake.len() {
            let s = self.awake[k];
            let mut b = self.solver_bodies[k + 1];
            b.force = Vec2::ZERO;
            b.torque = 0.0;
            let i = s as usize;
            // The speed limits hold between steps: the relax and restitution passes after the
            // last integration may leave a body faster than `max_linear_speed` (which the
            // integration enforces) or `limits::MAX_ANGULAR_SPEED`.
            let speed2 = b.linear_velocity.length_squared();
            if speed2 > max_speed * max_speed {
                b.linear_velocity *= max_speed / crate::fmath::sqrt(speed2);
            }
            if b.angular_velocity.abs() > limits::MAX_ANGULAR_SPEED {
                b.angular_velocity = limits::MAX_ANGULAR_SPEED.copysign(b.angular_velocity);
            }
            // The step changes only the pose and the velocities; their sum is finite exactly
            // when each is (every term is bounded far below f32's range between steps).
            let (v, p, q) = (b.linear_velocity, b.transform.p, b.transform.q);
            if !(v.x + v.y + b.angular_velocity + p.x + p.y + q.c + q.s).is_finite() {
                // Containment: a body the step would leave non-finite (which the checks at the
                // door rule out for legal input) keeps its pose from before the step, stops,
                // and is reported; nothing non-finite stays in the world to spread.
                b = self.bodies[i];
                b.linear_velocity = Vec2::ZERO;
                b.angular_velocity = 0.0;
                b.delta_position = Vec2::ZERO;
                b.delta_rotation = Rot::IDENTITY;
                b.force = Vec2::ZERO;
                b.torque = 0.0;
                let generation = self.slots[i].generation;
                // Room reserved by `reserve_step` (one per body).
                self.faults.push(BodyId { index: s, generation });
            }
            self.bodies[i] = b;
            let slot = &mut self.slots[i];
            let Hot {
                reach, min_extent, ..
            } = self.hot[i];
            let speed = b.linear_velocity.length() + b.angular_velocity.abs() * reach;
            let moved = b.delta_position.length() + b.delta_rotation.s.abs() * reach;
            // Position correction counts half as much as true velocity (Box2D's rule).
            let sleep_speed = speed.max(0.5 * inv_dt * moved);
            let mut fast = false;
            let mut rested = sleep::AWAKE;
            if !sleepy || !slot.enable_sleep || sleep_speed > SLEEP_VELOCITY {
                slot.sleep_time = 0.0;
                let motion = moved.max(speed * dt);
                fast = self.continuous_enabled
                    && slot.kind == BodyKind::Dynamic
                    && !slot.sensor
                    && motion > CONTINUOUS_SAFETY_FACTOR * min_extent;
            } else {
                slot.sleep_time += dt;
                if slot.sleep_time >= TIME_TO_SLEEP {
                    rested = sleep::RESTED;
                    self.tired.push(k as u32);
                }
            }
            self.rested.push(rested);
            if fast {
                self.fast.push(s);
            } else {
                // Cannot fail: the proxy is live and the box finite (bodies are validated).
                let _ = self.sync_body(i);
            }
        }
    }

    /// The bodies the last step stopped because its arithmetic would have left them
    /// non-finite: each keeps its pose from before the step with zero velocity. Input checked
    /// at the door ([`limits`]) never causes this; a body touching such a body in the same
    /// step may be listed too (its impulses came from the non-finite one).
    #[must_use]
    pub fn fault_events(&self) -> &[BodyId] {
        &self.faults
    }

    /// Pairs that began touching during the last step (or at the start of it). Every begin
    /// is matched by exactly one later end in [`World::end_events`] (the pair stops touching,
    /// is dropped, or one of its bodies is removed or refiltered).
    #[must_use]
    pub fn begin_events(&self) -> &[ContactEvent] {
        &self.begin
    }

    /// Pairs that stopped touching, as the last step reports them: first the contacts ended
    /// between that step and the one before it (a body removed with [`World::remove_body`],
    /// a filter changed with [`World::set_filter`]), in the order they were ended, then the
    /// pairs that stopped touching during the step. An end caused between steps is not seen
    /// here until the next step: between steps this lists the last step's ends, so the usual
    /// loop (step, then read the events) sees every end exactly once.
    ///
    /// The events carry the body ids as they were when the contact ended: a removed body's id
    /// is stale by the time it is read, and [`World::user_data`] and every other accessor
    /// refuse it with [`SolverError::InvalidBody`] (keep what you need about a body on your
    /// side, keyed by its id, or read it before removing the body). Read a step's end events
    /// before its begin events: a pair whose filter changed between steps ends (queued) and
    /// can begin again in the same step, while no contact both begins and ends within one
    /// step.
    ///
    /// Ends caused between steps are held until the next step whatever their number: at most
    /// one per contact touching after the last step, and the step keeps room for all of them,
    /// so the calls that end contacts allocate nothing.
    #[must_use]
    pub fn end_events(&self) -> &[ContactEvent] {
        &self.end
    }

    /// The constraint the last step solved for a pair, if the two bodies touched and were
    /// awake then, with `body_a`/`body_b` set to their slot indices ([`BodyId::index`]), its
    /// anchors relative to the centres of mass the step started from.
    pub fn contact(&self, a: BodyId, b: BodyId) -> Result<Option<ContactConstraint>, SolverError> {
        let (ia, ib) = (self.slot(a)? as u32, self.slot(b)? as u32);
        if ia == ib {
            return Ok(None);
        }
        // The first touching contact between any shape of `a` and any of `b`. Every such
        // contact is on both bodies' lists: walking the two in step and stopping when either
        // ends costs the shorter list, not a level body's list of everything resting on it.
        let found = |c: u32| -> Option<ContactConstraint> {
            let contact = &self.contacts[c as usize];
            if contact.other(ia) != ib || !contact.touching {
                return None;
            }
            let sim = self.sim(c);
            self.solved_constraint(sim.solved).map(|cc| ContactConstraint {
                body_a: sim.oa,
                body_b: sim.ob,
                ..cc
            })
        };
        let next = |e: u32| self.contacts[(e >> 1) as usize].next[(e & 1) as usize];
        let (mut ea, mut eb) = (
            self.slots[ia as usize].contact_head,
            self.slots[ib as usize].contact_head,
        );
        while ea != NONE && eb != NONE {
            for e in [ea, eb] {
                if let Some(cc) = found(e >> 1) {
                    return Ok(Some(cc));
                }
            }
            (ea, eb) = (next(ea), next(eb));
        }
        Ok(None)
    }

    fn push_awake(&mut self, s: u32) {
        self.hot[s as usize].center = self.bodies[s as usize].center();
        self.hot[s as usize].awake_index = self.awake.len() as u32;
        self.awake.push(s);
    }

    fn remove_awake(&mut self, s: u32) {
        let k = self.hot[s as usize].awake_index;
        if k == NONE {
            return;
        }
        self.awake.swap_remove(k as usize);
        if let Some(&moved) = self.awake.get(k as usize) {
            self.hot[moved as usize].awake_index = k;
        }
        self.hot[s as usize].awake_index = NONE;
    }
}

#[cfg(test)]
mod tests {
    use super::contacts::recycle;
    use super::*;

    /// Containment: a body whose state is non-finite when a step runs (the door makes that
    /// impossible through the API, so the test writes it directly) is stopped where it was
    /// before the step and reported; the box resting on it and the rest of the world stay
    /// finite, in this step and the next ones.
    #[test]
    fn a_body_a_step_would_make_non_finite_is_stopped_and_reported() {
        let mut w = World::default();
        w.add_body(&BodyDef::new(
            BodyKind::Static,
            Transform::IDENTITY,
            Shape::rect(5.0, 0.5),
        ))
        .unwrap();
        let below = w
            .add_body(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(Vec2::new(0.0, 1.0)),
                Shape::rect(0.5, 0.5),
            ))
            .unwrap();
        let above = w
            .add_body(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(Vec2::new(0.0, 2.0)),
                Shape::rect(0.5, 0.5),
            ))
            .unwrap();
        for _ in 0..30 {
            w.step(1.0 / 60.0, 4).unwrap();
        }
        assert!(w.fault_events().is_empty());
        let pose = w.transform(below).unwrap();
        w.set_velocity(below, Vec2::new(0.0, 1.0), 0.0).unwrap();
        w.bodies[below.index as usize].angular_velocity = f32::NAN;
        w.step(1.0 / 60.0, 4).unwrap();
        let faults = w.fault_events();
        assert!(faults.contains(&below), "{faults:?}");
        let b = w.body(below).unwrap();
        assert!(b.is_valid() && b.linear_velocity == Vec2::ZERO && b.angular_velocity == 0.0);
        assert_eq!(w.transform(below).unwrap(), pose);
        for _ in 0..60 {
            w.step(1.0 / 60.0, 4).unwrap();
            assert!(w.body(below).unwrap().is_valid() && w.body(above).unwrap().is_valid());
        }
        assert!(w.fault_events().is_empty());
        assert!((w.transform(above).unwrap().p.y - 2.0).abs() < 0.05);
        w.check_invariants(false).unwrap();
    }
    use crate::geometry::Polygon;

    /// Two boxes side by side, one sliding along the other, put to sleep in flight (so their
    /// poses have moved, by different amounts, since their centres were last worked out),
    /// then woken in the middle of a narrow phase by a third body: their own contact joins
    /// that narrow phase after the wake. Its
    /// constraint's anchors must be taken from the bodies' current centres: both anchors name
    /// the same point, so `anchor_a − anchor_b` is `centre_b − centre_a` of the poses the step
    /// started from.
    #[test]
    fn a_contact_woken_mid_narrow_phase_uses_the_bodies_current_centres() {
        for speed in [0.5f32, 3.0, 12.0] {
            let mut w = World::new(SolverSettings {
                gravity: Vec2::ZERO,
                ..Default::default()
            })
            .unwrap();
            let boxed = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
            let add = |x: f32, v: f32, w: &mut World| {
                let mut d = BodyDef::new(
                    BodyKind::Dynamic,
                    Transform::from_translation(Vec2::new(x, 0.0)),
                    boxed,
                );
                d.linear_velocity = Vec2::new(0.0, v);
                w.add_body(&d).unwrap()
            };
            let s = add(0.0, speed, &mut w);
            let t = add(1.0, 0.0, &mut w);
            w.step(1.0 / 60.0, 4).unwrap();
            assert!(w.contact(s, t).unwrap().is_some(), "the pair touches");
            w.set_awake(s, false).unwrap();
            assert!(!w.is_awake(s).unwrap() && !w.is_awake(t).unwrap());
            // A third box just touching S from the left, moving into it.
            let ys = w.transform(s).unwrap().p.y;
            let mut d = BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(Vec2::new(-1.0, ys)),
                boxed,
            );
            d.linear_velocity = Vec2::new(1.0, 0.0);
            w.add_body(&d).unwrap();
            let centre = |w: &World, id: BodyId| w.body(id).unwrap().center();
            let (cs, ct) = (centre(&w, s), centre(&w, t));
            w.step(1.0 / 60.0, 4).unwrap();
            assert!(
                w.is_awake(s).unwrap() && w.is_awake(t).unwrap(),
                "the touch wakes the island"
            );
            let c = w.contact(s, t).unwrap().expect("the woken pair is solved");
            let expected = if c.body_a == s.index { ct - cs } else { cs - ct };
            for p in &c.points[..c.count as usize] {
                let d = p.anchor_a - p.anchor_b;
                assert!(
                    (d - expected).length() < 1e-5,
                    "speed {speed}: anchors {d:?} against centres {expected:?}"
                );
            }
        }
    }

    /// A static ground box and a unit box resting on it, stepped once so the pair has a
    /// cached manifold. Returns the world and the two slots.
    fn resting() -> (World, usize, usize) {
        let mut w = World::default();
        let ground = Shape::Polygon(Polygon::make_box(5.0, 0.5).unwrap());
        let g = w
            .add_body(&BodyDef::new(
                BodyKind::Static,
                Transform::from_translation(Vec2::new(0.0, -0.5)),
                ground,
            ))
            .unwrap();
        let unit = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
        let b = w
            .add_body(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(Vec2::new(0.3, 0.49)),
                unit,
            ))
            .unwrap();
        w.step(1.0 / 60.0, 4).unwrap();
        (w, g.index as usize, b.index as usize)
    }

    /// Recycles the pair's cached manifold with body `b` moved to `xf`; the fresh manifold at
    /// the same pose is the oracle.
    fn recycled_and_fresh(w: &World, g: usize, b: usize, xf: Transform) -> (Option<Manifold>, Manifold) {
        let cache = w.active_memory[0].cache.expect("cached after a step");
        let mut body = w.bodies[b];
        body.transform = xf;
        // The recycled points as a manifold: each at its anchor on the ground, its depth
        // the current separation of the two material points negated.
        let r = recycle(
            &cache,
            (&w.bodies[g], &w.hot[g]),
            (&body, &w.hot[b]),
            (true, cache.margin),
            w.recycle_distance,
        )
        .map(|p| contacts::manifold_of(cache.normal, &p[..cache.count as usize], w.bodies[g].center()));
        // With the recycle distance as margin, so points that recycling keeps as speculative
        // (the box lifted off) are there in the oracle too.
        let margin = CONTACT_RECYCLE_DISTANCE;
        let fresh = collide_with_margin(
            &w.slots[g].shape,
            w.bodies[g].transform,
            &w.slots[b].shape,
            xf,
            margin,
        );
        (r, fresh)
    }

    #[test]
    fn recycled_manifold_follows_small_motion_like_a_fresh_one() {
        let (w, g, b) = resting();
        let start = w.bodies[b].transform;
        // Pure translations within the recycle distance: same depths and features as a fresh
        // manifold. A recycled point is carried half by each body (midway between the two
        // anchors), so where a fresh point rides on one body alone (a sliding box's corner)
        // they part by at most half the motion.
        for d in [
            Vec2::new(0.02, 0.0),
            Vec2::new(0.0, -0.03),
            Vec2::new(-0.02, 0.02),
        ] {
            let xf = Transform {
                p: start.p + d,
                q: start.q,
            };
            let (r, fresh) = recycled_and_fresh(&w, g, b, xf);
            let r = r.expect("small motion is recycled");
            assert_eq!(r.count, fresh.count);
            for (p, q) in r.points().iter().zip(fresh.points()) {
                assert_eq!(p.id, q.id);
                assert!((p.depth - q.depth).abs() < 1e-5, "{} vs {}", p.depth, q.depth);
                assert!(p.point.distance(q.point) <= 0.5 * d.length() + 1e-5);
            }
        }
        // A small turn (1°): depths within reach·(1 − cos) + sin·offset of the fresh ones.
        let xf = Transform::new(start.p, 1.0f32.to_radians());
        let (r, fresh) = recycled_and_fresh(&w, g, b, xf);
        let r = r.expect("small turn is recycled");
        for (p, q) in r.points().iter().zip(fresh.points()) {
            assert!((p.depth - q.depth).abs() < 0.01, "{} vs {}", p.depth, q.depth);
        }
    }

    /// A recycled contact keeps its material points relative to the bodies' centres of mass,
    /// which hold only while the centres do: a shape added forgets the body's caches. Its
    /// effective masses are worked out each step from the bodies' current masses. A box resting on static ground, recycled
    /// step after step:
    /// - its rotation fixed: the normal mass must be exactly `1 / inv_mass` (no inertia term
    ///   left);
    /// - a second box added on top of it (not touching the ground): its centre of mass moves
    ///   up by 0.5 m, and the points of its one contact (centre + anchor on the box) must
    ///   stay on the ground's top face (`y = 0`).
    #[test]
    fn a_change_of_mass_or_centre_reaches_the_bodys_recycled_contacts() {
        let (mut w, g, b) = resting();
        let (gid, bid) = (w.id_of(g as u32), w.id_of(b as u32));
        for _ in 0..3 {
            w.step(1.0 / 60.0, 4).unwrap();
        }
        let c = w.contact(gid, bid).unwrap().expect("resting");
        let inv_mass = w.bodies[b].inv_mass;
        assert!(
            c.points[0].normal_mass < 0.99 / inv_mass,
            "the corner's lever arm counts"
        );
        w.set_fixed_rotation(bid, true).unwrap();
        w.step(1.0 / 60.0, 4).unwrap();
        let c = w.contact(gid, bid).unwrap().expect("resting");
        for p in &c.points[..c.count as usize] {
            assert_eq!(p.normal_mass, 1.0 / inv_mass);
        }
        w.set_fixed_rotation(bid, false).unwrap();
        for _ in 0..3 {
            w.step(1.0 / 60.0, 4).unwrap();
        }
        let side =
            Shape::Polygon(Polygon::make_offset_box(0.5, 0.5, Vec2::new(0.0, 1.0), Rot::IDENTITY).unwrap());
        w.add_shape(bid, &side).unwrap();
        w.step(1.0 / 60.0, 4).unwrap();
        let center = w.bodies[b].center();
        let c = w.contact(gid, bid).unwrap().expect("resting");
        assert!(c.count >= 1);
        for p in &c.points[..c.count as usize] {
            let anchor = if c.body_a == b as u32 {
                p.anchor_a
            } else {
                p.anchor_b
            };
            let y = (center + anchor).y;
            assert!(y.abs() < 0.02, "contact point at y = {y}");
        }
    }

    /// A recycled contact acts at one point for both bodies: `centre_a + anchor_a` and
    /// `centre_b + anchor_b` agree (to rounding) for two dynamic boxes, one sliding and
    /// turning on the other within the recycle limits; against the fixed ground the point is
    /// the moving box's own material point, carried along with it.
    #[test]
    fn a_recycled_contact_acts_at_one_point_for_both_bodies() {
        let mut w = World::new(SolverSettings {
            gravity: Vec2::ZERO,
            ..Default::default()
        })
        .unwrap();
        let boxed = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
        let ground = w
            .add_body(&BodyDef::new(BodyKind::Static, Transform::IDENTITY, boxed))
            .unwrap();
        let lower = w
            .add_body(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(Vec2::new(0.2, 0.995)),
                boxed,
            ))
            .unwrap();
        let mut d = BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(0.0, 1.99)),
            boxed,
        );
        d.linear_velocity = Vec2::new(0.6, 0.0);
        d.angular_velocity = 0.3;
        let upper = w.add_body(&d).unwrap();
        w.step(1.0 / 60.0, 4).unwrap();
        let first = w.contact(lower, upper).unwrap().expect("touching");
        // The anchors are relative to the centres the step starts from.
        let centre = |w: &World, id: BodyId| w.body(id).unwrap().center();
        let (cl, cu) = (centre(&w, lower), centre(&w, upper));
        w.step(1.0 / 60.0, 4).unwrap();
        let c = w.contact(lower, upper).unwrap().expect("touching");
        assert_eq!(c.normal, first.normal, "recycled: same normal");
        let (ca, cb) = if c.body_a == lower.index {
            (cl, cu)
        } else {
            (cu, cl)
        };
        for p in &c.points[..c.count as usize] {
            assert!((ca + p.anchor_a).distance(cb + p.anchor_b) < 1e-5);
        }
        let g = w.contact(ground, lower).unwrap().expect("touching");
        assert!(g.count == 2);
    }

    /// The speculative margin grows with the pair's speed; a manifold computed with a smaller
    /// margin than this step's (by more than [`contacts::MARGIN_GROWTH`]) lacks points the
    /// new margin would have, and is not recycled.
    #[test]
    fn a_manifold_from_a_smaller_margin_is_not_recycled() {
        let (w, g, b) = resting();
        let cache = w.active_memory[0].cache.expect("cached after a step");
        let at = |margin: f32| {
            recycle(
                &cache,
                (&w.bodies[g], &w.hot[g]),
                (&w.bodies[b], &w.hot[b]),
                (true, margin),
                w.recycle_distance,
            )
            .is_some()
        };
        assert!(at(cache.margin));
        assert!(at(cache.margin + 0.9 * contacts::MARGIN_GROWTH));
        assert!(!at(cache.margin + 1.1 * contacts::MARGIN_GROWTH));
        assert!(!at(f32::NAN));
    }

    #[test]
    fn pairs_with_a_kinematic_body_are_always_recomputed() {
        // A ball resting on a box; the box static, then kinematic and turning. The kinematic
        // pair is recomputed even with the ball unmoved: the spinner's turning bar, with its
        // contacts recycled, pushed 3 of 6 076 bodies through the ring (0 without).
        for (kind, spin, recycled) in [(BodyKind::Static, 0.0, true), (BodyKind::Kinematic, 1.0, false)] {
            let mut w = World::default();
            let ground = Shape::Polygon(Polygon::make_box(5.0, 0.5).unwrap());
            let g = w
                .add_body(&BodyDef {
                    angular_velocity: spin,
                    ..BodyDef::new(kind, Transform::from_translation(Vec2::new(0.0, -0.5)), ground)
                })
                .unwrap();
            let ball = Shape::circle(0.5);
            let b = w
                .add_body(&BodyDef::new(
                    BodyKind::Dynamic,
                    Transform::from_translation(Vec2::new(0.3, 0.49)),
                    ball,
                ))
                .unwrap();
            w.step(1.0 / 60.0, 4).unwrap();
            let (g, b) = (g.index as usize, b.index as usize);
            let at = w.bodies[b].transform;
            assert_eq!(recycled_and_fresh(&w, g, b, at).0.is_some(), recycled, "{kind:?}");
        }
    }

    #[test]
    fn large_motion_turn_or_zero_distance_is_not_recycled() {
        let (mut w, g, b) = resting();
        let start = w.bodies[b].transform;
        let moved = Transform {
            p: start.p + Vec2::new(0.06, 0.0),
            q: start.q,
        };
        assert!(recycled_and_fresh(&w, g, b, moved).0.is_none());
        // Turning by 0.1 rad moves the box's corners (reach 0.71) by 0.07 > 0.05.
        assert!(recycled_and_fresh(&w, g, b, Transform::new(start.p, 0.1))
            .0
            .is_none());
        // More than acos(0.98) ≈ 11.5° is refused even for a point-like body.
        w.hot[b].reach = 0.0;
        assert!(recycled_and_fresh(&w, g, b, Transform::new(start.p, 0.25))
            .0
            .is_none());
        assert!(recycled_and_fresh(&w, g, b, Transform::new(start.p, 0.15))
            .0
            .is_some());
        w.set_recycle_distance(0.0).unwrap();
        let tiny = Transform {
            p: start.p + Vec2::new(1e-4, 0.0),
            q: start.q,
        };
        assert!(recycled_and_fresh(&w, g, b, tiny).0.is_none());
        assert_eq!(w.set_recycle_distance(-1.0), Err(SolverError::InvalidInput));
        assert_eq!(w.set_recycle_distance(f32::NAN), Err(SolverError::InvalidInput));
        assert_eq!(
            w.set_recycle_distance(f32::INFINITY),
            Err(SolverError::InvalidInput)
        );
    }
}
