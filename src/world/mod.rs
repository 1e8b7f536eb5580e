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
//!    events from flickering for resting contacts. A sleeping body touched by an awake one
//!    wakes with its island;
//! 4. **solver** — [`solver::step_with_scratch`] over the awake bodies only. Touching pairs
//!    are ordered by a greedy colouring of the contact graph (no two constraints of a
//!    colour share a moving body), so that runs of four are solved together in SIMD lanes;
//! 5. **continuous** — a dynamic body that moved more than half its smallest extent is swept
//!    from its old pose to its new one against static and kinematic shapes (bullets: also
//!    against dynamic ones) with [`time_of_impact`](crate::time_of_impact) and stopped at
//!    the first impact, keeping its velocity, as Box2D's continuous phase does. Box2D sweeps
//!    non-bullets against static shapes only; kinematic ones are included here (taken at
//!    their pose after the step) because without them bodies squeezed and flung by a fast
//!    kinematic body leave the container: in the spinner scene, 3 bodies escape the ring
//!    without, 0 with (the cost, one time of impact per fast body near the bar, is in the
//!    scenes table);
//! 6. **sleep** — a body whose speed (and position correction) stays under
//!    [`SLEEP_VELOCITY`] accumulates sleep time; each step the awake bodies are grouped into
//!    islands by union-find over touching contacts between non-static bodies, and an island
//!    whose every body has slept for [`TIME_TO_SLEEP`] goes to sleep as a whole: its bodies
//!    and contacts leave the per-step arrays and cost nothing until woken;
//! 7. **proxies** — every awake body's proxy is moved when its box (grown by the speculative
//!    distance) leaves its fat box; moved proxies go into the move buffer.
//!
//! **Speculative distance.** Contacts are created with points up to
//! [`SPECULATIVE_DISTANCE`] (Box2D's 4 × linear slop) apart, a bound that does not grow
//! with speed: a larger, speed-scaled margin makes a fast body collide with ghosts far ahead
//! of it. Fast bodies are kept from passing through static geometry by the continuous phase
//! instead; two fast *dynamic* bodies can pass through each other unless one is a
//! [bullet](BodyDef::bullet) (Box2D's rule).
//!
//! **Sleeping** (Box2D's behaviour, with per-step islands). Islands are found afresh every
//! step by union-find over the awake bodies and the touching contacts (O(awake bodies +
//! awake contacts), the same order as the step itself), rather than kept persistently as
//! in Box2D v3, which needs deferred island splitting when contacts end; the union-find
//! needs no bookkeeping on contact begin/end and cannot go stale. An island that falls
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

mod contacts;
mod continuous;
mod mover;
mod pairs;
mod sleep;

use alloc::vec::Vec;

use crate::cast::{CastOutput, CastShape};
use crate::geometry::Shape;
use crate::math::{Aabb, Ray, Rot, Transform, Vec2};
use crate::narrowphase::{collide_with_margin, overlaps_aabb_shape, Manifold};
use crate::raycast::RayHit;
use crate::solver::{self, non_negative, positive, Body, ContactConstraint, SolverError, SolverSettings};
use crate::tree::{DynamicTree, Filter, ProxyId, Visit};

use contacts::{Contact, ContactSim};
pub use mover::WorldLevel;
use pairs::{pair_key, PairTable};

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

/// Colours of the contact graph (see `World::order_constraints`); constraints of a body with
/// more contacts than this are solved one at a time, after the others.
const COLORS: usize = 64;

/// "No index" in the world's intrusive lists.
const NONE: u32 = u32::MAX;

/// How a body moves.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// Never moves; infinite mass.
    Static = 0,
    /// Moves with its set velocity; infinite mass, ignores gravity and contacts.
    Kinematic = 1,
    /// Moved by gravity and contacts.
    Dynamic = 2,
}

/// Surface and mass material of a body's shape.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Mass per unit area (kg/m²); must be positive for dynamic bodies.
    pub density: f32,
    /// Coulomb friction coefficient, ≥ 0.
    pub friction: f32,
    /// Restitution (bounciness), ≥ 0; 1 bounces back to the drop height.
    pub restitution: f32,
}

impl Default for Material {
    fn default() -> Self {
        Material {
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
        }
    }
}

/// Everything needed to add a body.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyDef {
    /// Static, kinematic or dynamic.
    pub kind: BodyKind,
    /// Initial world transform of the body origin (the shape's frame).
    pub transform: Transform,
    /// Initial velocity of the centre of mass.
    pub linear_velocity: Vec2,
    /// Initial angular velocity (rad/s).
    pub angular_velocity: f32,
    /// The body's shape, in body space.
    pub shape: Shape,
    /// Its material.
    pub material: Material,
    /// Free for the caller; returned by queries and events through [`World::user_data`].
    pub user_data: u64,
    /// Collision filtering (category, mask, group; Box2D's meaning, see [`Filter`]).
    pub filter: Filter,
    /// Linear damping rate (1/s, ≥ 0; default 0): velocity shrinks by `1 / (1 + h·rate)`
    /// per sub-step `h`.
    pub linear_damping: f32,
    /// Angular damping rate (1/s, ≥ 0; default 0).
    pub angular_damping: f32,
    /// Multiplies the world's gravity for this body (default 1; dynamic bodies only).
    pub gravity_scale: f32,
    /// Whether the body may fall asleep (default true). See [`World::set_sleep_enabled`].
    pub enable_sleep: bool,
    /// Whether the body starts awake (default true). A body added asleep forms a sleeping
    /// island of its own and wakes when touched (Box2D's `isAwake = false`, e.g. for a wall
    /// of boxes waiting to be smashed). Static bodies ignore it.
    pub awake: bool,
    /// A dynamic body swept by the continuous phase against dynamic bodies too, not only
    /// against static and kinematic ones (default false; Box2D's `isBullet`). Costs a
    /// time-of-impact sweep against each nearby body whenever the body moves fast.
    pub bullet: bool,
    /// A dynamic body that never rotates (infinite rotational inertia; default false).
    pub fixed_rotation: bool,
    /// A sensor: reports overlap begin/end with other bodies ([`World::sensor_begin_events`])
    /// and never collides (default false). Sensors do not detect other sensors, take part
    /// in no island and are skipped by the continuous phase and by ray and shape queries
    /// unless asked for. The shape must have an area (a segment cannot be a sensor). Fixed
    /// at creation.
    pub sensor: bool,
}

impl BodyDef {
    /// A definition with zero velocity, the default material, no user data, the default
    /// filter, no damping, gravity scale 1, awake, allowed to sleep, not a bullet, free to
    /// rotate, not a sensor.
    #[must_use]
    pub fn new(kind: BodyKind, transform: Transform, shape: Shape) -> BodyDef {
        BodyDef {
            kind,
            transform,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            shape,
            material: Material::default(),
            user_data: 0,
            filter: Filter::DEFAULT,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            enable_sleep: true,
            awake: true,
            bullet: false,
            fixed_rotation: false,
            sensor: false,
        }
    }
}

/// A body handle: slot index plus generation. Stale handles are rejected.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BodyId {
    /// Slot index.
    pub index: u32,
    /// Generation of the slot when the body was added (never 0 for a live body).
    pub generation: u32,
}

/// A contact event: two bodies, `body_a.index < body_b.index`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactEvent {
    /// The body with the smaller index.
    pub body_a: BodyId,
    /// The other body.
    pub body_b: BodyId,
    /// For begin events, the first manifold (normal from A to B); zeroed for end events.
    pub manifold: Manifold,
}

/// A sensor event: `visitor` began or stopped overlapping the sensor body `sensor`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SensorEvent {
    /// The sensor body.
    pub sensor: BodyId,
    /// The body that entered or left it.
    pub visitor: BodyId,
}

/// Which bodies a world query considers: those whose filter category is in `mask`, except
/// the bodies in `ignore`; sensors only when `sensors` is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueryFilter<'a> {
    /// Category mask: a body is considered when `category_bits & mask != 0`.
    pub mask: u64,
    /// Bodies never reported (e.g. the querying character itself).
    pub ignore: &'a [BodyId],
    /// Whether sensor bodies are reported.
    pub sensors: bool,
}

impl QueryFilter<'_> {
    /// Every non-sensor body.
    pub const ALL: QueryFilter<'static> = QueryFilter {
        mask: u64::MAX,
        ignore: &[],
        sensors: false,
    };
}

impl Default for QueryFilter<'_> {
    fn default() -> Self {
        QueryFilter::ALL
    }
}

/// The first hit of [`World::cast_shape`].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldCastHit {
    /// The body hit.
    pub body: BodyId,
    /// Fraction of the translation, world point on the moving shape, unit normal from the
    /// moving shape to the body, and for a start in overlap the depth (state `Overlapping`).
    pub output: CastOutput,
}

/// The closest hit of [`World::ray_cast`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WorldRayHit {
    /// The body hit.
    pub body: BodyId,
    /// Where and how.
    pub hit: RayHit,
}

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
    /// First edge of the body's contact list (`contact << 1 | side`), or `NONE`. The
    /// contacts of a body's extra shapes are listed here too (never on the shape's slot).
    contact_head: u32,
    /// For an extra shape of a body (see [`World::add_shape`]): the body's slot; `NONE` for a
    /// body's own slot. An extra shape's slot has its own proxy, boxes, filter, material and
    /// a copy of the body's [`Body`] (kept in step by `sync_body`), and is never a body id.
    parent: u32,
    /// The next extra shape of the same body (a list from the body's slot), or `NONE`.
    next_shape: u32,
}

/// The per-body data the narrow phase reads for every contact, kept apart from the large
/// `Slot` (which holds the shape) so that a step's scattered per-body reads touch 16 bytes.
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
    /// Fastest any point of the body moves, `|v| + |ω|·reach` (m/s): refreshed for the
    /// awake bodies at the start of each narrow phase, 0 for static and sleeping ones.
    speed: f32,
    /// The shape is unchanged by rotation about the centre of mass (a circle centred on it):
    /// contact recycling ignores the body's turn, so a rolling ball keeps its support point.
    round: bool,
}

/// What contact recycling needs from the last full manifold of a pair.
#[derive(Clone, Copy, Debug)]
struct ContactCache {
    manifold: Manifold,
    center_a: Vec2,
    center_b: Vec2,
    rotation_a: Rot,
    rotation_b: Rot,
    /// `transform_a⁻¹ · transform_b` at the time.
    relative: Transform,
}

/// Default distance (m) below which a pair's relative motion since its last full manifold
/// lets [`World::step`] reuse that manifold (Box2D v3's `B2_CONTACT_RECYCLE_DISTANCE`, ten
/// times its linear slop). See [`World::set_recycle_distance`].
pub const CONTACT_RECYCLE_DISTANCE: f32 = 0.05;

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
    /// Per slot, its shape's box at its current pose grown by the speculative distance (the
    /// proxy's tight box): lets the narrow phase skip pairs that are too far apart for any
    /// point without running the manifold.
    tight: Vec<Aabb>,
    /// Per slot, its proxy's fat box (a copy of the tree's, read by the narrow phase
    /// without a walk through the slot and the tree node).
    fat: Vec<Aabb>,
    /// Proxies created or moved since the last broad phase (duplicates allowed).
    move_buffer: Vec<ProxyId>,
    /// Broad-phase scratch: the new pairs found this step.
    found: Vec<(u32, u32)>,
    /// Body pair → contact id.
    pair_table: PairTable,
    /// Contact slab (stable ids); free slots are listed in `free_contacts`.
    contacts: Vec<Contact>,
    free_contacts: Vec<u32>,
    /// The sims of the contacts with at least one awake body (the narrow phase's work list).
    active: Vec<ContactSim>,
    /// The sims of sleeping contacts (a slab; free entries listed in `free_parked`).
    parked: Vec<ContactSim>,
    free_parked: Vec<u32>,
    /// Number of contacts whose manifold has points (awake or asleep).
    touching_count: usize,
    /// Awake kinematic and dynamic bodies (slot indices); the solver sees them in this order
    /// at solver index `i + 1` (index 0 stands for every static body).
    awake: Vec<u32>,
    /// Sleeping islands: the bodies that fell asleep together. Free entries are empty and
    /// listed in `free_islands`.
    islands: Vec<Vec<u32>>,
    free_islands: Vec<u32>,
    /// The awake bodies as the solver sees them this step.
    solver_bodies: Vec<Body>,
    /// The touching pairs' constraints in solver order (see `order_constraints`); between
    /// steps, with the impulses of the last step (body indices are solver indices).
    constraints: Vec<ContactConstraint>,
    /// This step's new constraints in pair order, before colouring.
    fresh: Vec<ContactConstraint>,
    /// For each entry of `fresh`, its index in `constraints` after colouring.
    position: Vec<u32>,
    /// Solver scratch (see [`solver::step_with_scratch`]).
    blocks: Vec<solver::ContactBlock>,
    /// Colouring scratch: per body, the colours its constraints use; per constraint, its colour.
    used_colors: Vec<u64>,
    color_of: Vec<u8>,
    /// Union-find and continuous-phase scratch.
    parent: Vec<u32>,
    rest: Vec<f32>,
    fast: Vec<u32>,
    begin: Vec<ContactEvent>,
    end: Vec<ContactEvent>,
    sensor_begin: Vec<SensorEvent>,
    sensor_end: Vec<SensorEvent>,
    last_dt: f32,
    recycle_distance: f32,
    sleep_enabled: bool,
    continuous_enabled: bool,
}

impl Default for World {
    fn default() -> Self {
        World::new(SolverSettings::default())
    }
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

/// The mass properties of several shapes of one density together (parallel-axis theorem),
/// or `None` when the total mass is not positive and finite.
fn combined_mass(shapes: &[Shape], density: f32) -> Option<crate::geometry::MassData> {
    let parts: Vec<_> = shapes.iter().map(|s| s.mass(density)).collect();
    let mass: f32 = parts.iter().map(|m| m.mass).sum();
    if !positive(mass) {
        return None;
    }
    let center = parts.iter().fold(Vec2::ZERO, |c, m| c + m.center * m.mass) * (1.0 / mass);
    let inertia = parts
        .iter()
        .map(|m| m.rotational_inertia + m.mass * (m.center - center).length_squared())
        .sum();
    Some(crate::geometry::MassData {
        mass,
        center,
        rotational_inertia: inertia,
    })
}

impl World {
    /// An empty world with these solver settings (gravity and sub-steps are among them).
    #[must_use]
    pub fn new(settings: SolverSettings) -> World {
        World {
            settings,
            slots: Vec::new(),
            hot: Vec::new(),
            bodies: Vec::new(),
            free: Vec::new(),
            live_count: 0,
            tree: DynamicTree::new(),
            fixed_tree: DynamicTree::new(),
            tight: Vec::new(),
            fat: Vec::new(),
            move_buffer: Vec::new(),
            found: Vec::new(),
            pair_table: PairTable::default(),
            contacts: Vec::new(),
            free_contacts: Vec::new(),
            active: Vec::new(),
            parked: Vec::new(),
            free_parked: Vec::new(),
            touching_count: 0,
            awake: Vec::new(),
            islands: Vec::new(),
            free_islands: Vec::new(),
            solver_bodies: Vec::new(),
            constraints: Vec::new(),
            fresh: Vec::new(),
            position: Vec::new(),
            blocks: Vec::new(),
            used_colors: Vec::new(),
            color_of: Vec::new(),
            parent: Vec::new(),
            rest: Vec::new(),
            fast: Vec::new(),
            begin: Vec::new(),
            end: Vec::new(),
            sensor_begin: Vec::new(),
            sensor_end: Vec::new(),
            last_dt: 1.0 / 60.0,
            recycle_distance: CONTACT_RECYCLE_DISTANCE,
            sleep_enabled: true,
            continuous_enabled: true,
        }
    }

    /// The solver settings.
    #[must_use]
    pub fn settings(&self) -> &SolverSettings {
        &self.settings
    }

    /// Replaces the solver settings (gravity, stiffness...). The sub-step count passed to
    /// [`World::step`] overrides `substeps`.
    pub fn set_settings(&mut self, settings: SolverSettings) {
        self.settings = settings;
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

    /// Adds a body. Errors with [`SolverError::InvalidInput`] for an invalid transform,
    /// non-finite velocity, negative or non-finite friction/restitution, or a dynamic body
    /// whose density is not positive (or whose mass is not finite and positive).
    pub fn add_body(&mut self, def: &BodyDef) -> Result<BodyId, SolverError> {
        let m = def.material;
        let material_ok = non_negative(m.friction) && non_negative(m.restitution) && non_negative(m.density);
        let motion_ok = def.linear_velocity.is_finite()
            && def.angular_velocity.is_finite()
            && non_negative(def.linear_damping)
            && non_negative(def.angular_damping)
            && def.gravity_scale.is_finite();
        // A sensor needs an area to be inside of (a segment has none).
        let sensor_ok = !def.sensor || positive(def.shape.mass(1.0).mass);
        // Chain segments are level geometry: no mass, so static or kinematic only.
        let chain_ok = !(def.kind == BodyKind::Dynamic && matches!(def.shape, Shape::ChainSegment(_)));
        if !material_ok || !motion_ok || !sensor_ok || !chain_ok {
            return Err(SolverError::InvalidInput);
        }
        let xf = def.transform;
        let mut body = match def.kind {
            BodyKind::Static => Body::new_static(xf),
            BodyKind::Kinematic => Body::new_kinematic(xf, def.linear_velocity, def.angular_velocity),
            BodyKind::Dynamic => {
                let mut b = Body::new_dynamic(xf, def.shape.mass(m.density))?;
                b.linear_velocity = def.linear_velocity;
                b.angular_velocity = def.angular_velocity;
                b
            }
        };
        if def.kind == BodyKind::Dynamic {
            body.linear_damping = def.linear_damping;
            body.angular_damping = def.angular_damping;
            body.gravity_scale = def.gravity_scale;
            if def.fixed_rotation {
                body.inv_inertia = 0.0;
                body.angular_velocity = 0.0;
            }
        }
        if !body.is_valid() {
            return Err(SolverError::InvalidInput);
        }
        let reach = shape_reach(&def.shape, body.local_center);
        let index = match self.free.last() {
            Some(&i) => i,
            None => self.slots.len() as u32,
        };
        let proxy = self
            .tree
            .create_proxy(
                Self::proxy_box(&def.shape, xf),
                def.filter.category_bits,
                u64::from(index),
            )
            .map_err(|_| SolverError::InvalidInput)?;
        self.move_buffer.push(proxy);
        let fixed_proxy = if def.kind == BodyKind::Dynamic {
            ProxyId::from_index(crate::tree::NULL_NODE)
        } else {
            // Cannot fail: the same box was just accepted by the main tree.
            match self.fixed_tree.create_proxy(
                Self::proxy_box(&def.shape, xf),
                def.filter.category_bits,
                u64::from(index),
            ) {
                Ok(p) => p,
                Err(_) => {
                    let _ = self.tree.destroy_proxy(proxy);
                    return Err(SolverError::InvalidInput);
                }
            }
        };
        let generation = self
            .slots
            .get(index as usize)
            .map_or(1, |s| s.generation.wrapping_add(1).max(1));
        let hot = Hot {
            awake_index: NONE,
            island: NONE,
            reach,
            min_extent: min_extent(&def.shape),
            speed: 0.0,
            // A circle about its centre of mass looks the same at every rotation.
            round: matches!(def.shape, Shape::Circle(c) if c.center == body.local_center),
        };
        let slot = Slot {
            generation,
            live: true,
            kind: def.kind,
            shape: def.shape,
            material: m,
            proxy,
            fixed_proxy,
            user_data: def.user_data,
            sleep_time: 0.0,
            enable_sleep: def.enable_sleep,
            bullet: def.bullet && def.kind == BodyKind::Dynamic,
            filter: def.filter,
            sensor: def.sensor,
            fixed_rotation: def.fixed_rotation && def.kind == BodyKind::Dynamic,
            contact_head: NONE,
            parent: NONE,
            next_shape: NONE,
        };
        // Cannot fail: the proxy was just created.
        let fat = self.tree.fat_aabb(proxy).unwrap_or_default();
        if (index as usize) < self.slots.len() {
            self.free.pop();
            self.slots[index as usize] = slot;
            self.hot[index as usize] = hot;
            self.bodies[index as usize] = body;
            self.fat[index as usize] = fat;
            self.tight[index as usize] = Self::proxy_box(&def.shape, xf);
        } else {
            self.slots.push(slot);
            self.hot.push(hot);
            self.bodies.push(body);
            self.fat.push(fat);
            self.tight.push(Self::proxy_box(&def.shape, xf));
        }
        self.live_count += 1;
        if def.kind != BodyKind::Static {
            if def.awake || !(def.enable_sleep && self.sleep_enabled) {
                self.push_awake(index);
            } else {
                self.bodies[index as usize].linear_velocity = Vec2::ZERO;
                self.bodies[index as usize].angular_velocity = 0.0;
                self.new_island(&[index]);
            }
        }
        Ok(BodyId { index, generation })
    }

    /// Adds a chain as level geometry: one body with `def`'s kind, transform, material,
    /// filter and user data (its `shape` is ignored) whose shapes are the chain's segments,
    /// each with its own proxy. The kind must be static or kinematic (a chain has no mass);
    /// a dynamic kind or a sensor is [`SolverError::InvalidInput`] and nothing is added.
    pub fn add_chain(
        &mut self,
        def: &BodyDef,
        chain: &crate::geometry::Chain,
    ) -> Result<BodyId, SolverError> {
        if def.kind == BodyKind::Dynamic || def.sensor {
            return Err(SolverError::InvalidInput);
        }
        let mut segments = chain.segments();
        let first = segments.next().ok_or(SolverError::InvalidInput)?;
        let id = self.add_body(&BodyDef {
            shape: Shape::ChainSegment(first),
            ..*def
        })?;
        for seg in segments {
            if let Err(e) = self.add_shape(id, &Shape::ChainSegment(seg)) {
                let _ = self.remove_body(id);
                return Err(e);
            }
        }
        Ok(id)
    }

    /// Adds another shape to a body (in body space, like the body's first shape), with its
    /// own proxy and the body's material, filter and sensor flag: a compound body. A
    /// dynamic body's mass, centre of mass and rotational inertia become those of all its
    /// shapes together (the centre of mass moves; the body origin stays, and the velocity
    /// of the new centre is the old motion's there). The body wakes.
    ///
    /// Contacts, events and queries stay per body: a contact between two shapes reports the
    /// two bodies, and a body touching another with two shapes has two contacts (two begin
    /// events). Errors: [`SolverError::InvalidBody`] for a stale id,
    /// [`SolverError::InvalidInput`] for a chain segment on a dynamic body, a sensor shape
    /// without area, or a shape that makes the mass invalid.
    pub fn add_shape(&mut self, id: BodyId, shape: &Shape) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        let parent = self.slots[i];
        let area = positive(shape.mass(1.0).mass);
        // Dynamic bodies and sensors need area.
        let needs_area = parent.kind == BodyKind::Dynamic || parent.sensor;
        let shape_ok = shape.aabb(Transform::IDENTITY).is_valid() && (area || !needs_area);
        if !shape_ok {
            return Err(SolverError::InvalidInput);
        }
        // The body's new mass first: nothing changes when it is invalid.
        let mut body = self.bodies[i];
        if parent.kind == BodyKind::Dynamic {
            let mut all: Vec<Shape> = self.shapes_of(i).collect();
            all.push(*shape);
            let mass = combined_mass(&all, parent.material.density).ok_or(SolverError::InvalidInput)?;
            let fresh = Body::new_dynamic(body.transform, mass)?;
            let old_center = body.center();
            body.local_center = fresh.local_center;
            body.inv_mass = fresh.inv_mass;
            body.inv_inertia = if parent.fixed_rotation {
                0.0
            } else {
                fresh.inv_inertia
            };
            body.linear_velocity += crate::math::Vec2::new(
                -body.angular_velocity * (body.center() - old_center).y,
                body.angular_velocity * (body.center() - old_center).x,
            );
            if !body.is_valid() {
                return Err(SolverError::InvalidInput);
            }
        }
        let index = match self.free.last() {
            Some(&k) => k,
            None => self.slots.len() as u32,
        };
        let xf = body.transform;
        let aabb = Self::proxy_box(shape, xf);
        let proxy = self
            .tree
            .create_proxy(aabb, parent.filter.category_bits, u64::from(index))
            .map_err(|_| SolverError::InvalidInput)?;
        let fixed_proxy = if parent.kind == BodyKind::Dynamic {
            ProxyId::from_index(crate::tree::NULL_NODE)
        } else {
            match self
                .fixed_tree
                .create_proxy(aabb, parent.filter.category_bits, u64::from(index))
            {
                Ok(p) => p,
                Err(_) => {
                    let _ = self.tree.destroy_proxy(proxy);
                    return Err(SolverError::InvalidInput);
                }
            }
        };
        self.move_buffer.push(proxy);
        let generation = self
            .slots
            .get(index as usize)
            .map_or(1, |s| s.generation.wrapping_add(1).max(1));
        let slot = Slot {
            generation,
            live: true,
            shape: *shape,
            proxy,
            fixed_proxy,
            contact_head: NONE,
            parent: i as u32,
            next_shape: parent.next_shape,
            ..parent
        };
        let hot = Hot {
            awake_index: NONE,
            island: NONE,
            speed: 0.0,
            round: false,
            ..self.hot[i]
        };
        let fat = self.tree.fat_aabb(proxy).unwrap_or(aabb);
        if (index as usize) < self.slots.len() {
            self.free.pop();
            self.slots[index as usize] = slot;
            self.hot[index as usize] = hot;
            self.bodies[index as usize] = body;
            self.fat[index as usize] = fat;
            self.tight[index as usize] = aabb;
        } else {
            self.slots.push(slot);
            self.hot.push(hot);
            self.bodies.push(body);
            self.fat.push(fat);
            self.tight.push(aabb);
        }
        self.slots[i].next_shape = index;
        self.bodies[i] = body;
        // The body's extents over all its shapes; a compound is not round. A fixed body's
        // centre stays put, so its extents only grow by the new shape (adding a chain's n
        // segments is O(n), not O(n²)); a dynamic body's centre moved: all shapes again, and
        // every shape's copy of the body takes the new mass (its shapes are few).
        let dynamic = parent.kind == BodyKind::Dynamic;
        let (mut reach, mut min_ext) = if dynamic {
            (0.0f32, f32::INFINITY)
        } else {
            (self.hot[i].reach, self.hot[i].min_extent)
        };
        if dynamic {
            for sh in self.shapes_of(i) {
                reach = reach.max(shape_reach(&sh, body.local_center));
                min_ext = min_ext.min(min_extent(&sh));
            }
        } else {
            reach = reach.max(shape_reach(shape, body.local_center));
            min_ext = min_ext.min(min_extent(shape));
        }
        let h = &mut self.hot[i];
        h.reach = reach;
        h.min_extent = min_ext;
        h.round = false;
        self.wake_body(i as u32);
        if dynamic {
            let _ = self.sync_body(i);
        }
        Ok(())
    }

    /// The body's shapes (body space): the first one given at creation, then those added
    /// by [`World::add_shape`] (most recent first).
    pub fn shapes(&self, id: BodyId) -> Result<impl Iterator<Item = &Shape> + '_, SolverError> {
        let i = self.slot(id)?;
        Ok(self.slot_chain(i).map(|k| &self.slots[k as usize].shape))
    }

    /// Body slot `i` and its extra shapes' slots.
    fn slot_chain(&self, i: usize) -> impl Iterator<Item = u32> + '_ {
        let mut k = i as u32;
        core::iter::from_fn(move || {
            if k == NONE {
                return None;
            }
            let at = k;
            k = self.slots[k as usize].next_shape;
            Some(at)
        })
    }

    /// Copies of body slot `i`'s shapes.
    fn shapes_of(&self, i: usize) -> impl Iterator<Item = Shape> + '_ {
        self.slot_chain(i).map(|k| self.slots[k as usize].shape)
    }

    /// Removes a body, its proxy and its contacts; touching contacts produce end events
    /// (visible through [`World::end_events`] until the next step). A sleeping body's island
    /// wakes first, and so does any sleeping body it touched.
    pub fn remove_body(&mut self, id: BodyId) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        self.wake_body(i as u32);
        while self.slots[i].contact_head != NONE {
            let c = self.slots[i].contact_head >> 1;
            let other = self.contacts[c as usize].other(i as u32);
            if self.contacts[c as usize].touching && !self.contacts[c as usize].sensor {
                self.wake_body(other);
            }
            self.destroy_contact(c);
        }
        // The proxies exist for every live slot; a failure here would be a world bug.
        let mut k = i as u32;
        while k != NONE {
            let slot = &self.slots[k as usize];
            let (proxy, fixed, next) = (slot.proxy, slot.fixed_proxy, slot.next_shape);
            let _ = self.tree.destroy_proxy(proxy);
            if slot.kind != BodyKind::Dynamic {
                let _ = self.fixed_tree.destroy_proxy(fixed);
            }
            if k != i as u32 {
                self.slots[k as usize].live = false;
                self.bodies[k as usize] = Body::new_static(Transform::IDENTITY);
                self.free.push(k);
            }
            k = next;
        }
        self.slots[i].next_shape = NONE;
        self.remove_awake(i as u32);
        self.slots[i].live = false;
        self.bodies[i] = Body::new_static(Transform::IDENTITY);
        self.free.push(i as u32);
        self.live_count -= 1;
        Ok(())
    }

    /// The solver body (transform, velocities, inverse mass...).
    pub fn body(&self, id: BodyId) -> Result<&Body, SolverError> {
        self.slot(id).map(|i| &self.bodies[i])
    }

    /// World transform of the body origin.
    pub fn transform(&self, id: BodyId) -> Result<Transform, SolverError> {
        self.body(id).map(|b| b.transform)
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
    /// body. Ignored (but validated) for static bodies.
    pub fn set_velocity(&mut self, id: BodyId, linear: Vec2, angular: f32) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        if !linear.is_finite() || !angular.is_finite() {
            return Err(SolverError::InvalidInput);
        }
        if self.slots[i].kind != BodyKind::Static {
            self.wake_body(i as u32);
            self.bodies[i].linear_velocity = linear;
            self.bodies[i].angular_velocity = angular;
        }
        Ok(())
    }

    /// Teleports a body (its proxy follows at once) and wakes it, and the bodies it
    /// touched (teleporting a static body wakes the sleeping bodies resting on it).
    pub fn set_transform(&mut self, id: BodyId, xf: Transform) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        if !xf.is_valid() {
            return Err(SolverError::InvalidInput);
        }
        self.wake_body(i as u32);
        self.wake_touching(i as u32);
        self.bodies[i].transform = xf;
        self.sync_body(i).map_err(|_| SolverError::InvalidInput)
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
        let slot = &self.slots[i];
        let aabb = Self::proxy_box(&slot.shape, self.bodies[i].transform);
        self.tight[i] = aabb;
        if self.tree.move_proxy(slot.proxy, aabb)? {
            self.move_buffer.push(slot.proxy);
            self.fat[i] = self.tree.fat_aabb(slot.proxy).unwrap_or(aabb);
            if slot.kind != BodyKind::Dynamic {
                let _ = self.fixed_tree.move_proxy(slot.fixed_proxy, aabb);
            }
        }
        Ok(())
    }

    /// Advances the world by `dt` seconds in `substeps` sub-steps (see the module docs).
    /// Clears and refills the contact events. Errors with [`SolverError::InvalidStep`] for a
    /// non-finite or non-positive `dt` or `substeps` outside 1..=64 (the world is unchanged).
    pub fn step(&mut self, dt: f32, substeps: u32) -> Result<(), SolverError> {
        if !positive(dt) || !(1..=solver::MAX_SUBSTEPS).contains(&substeps) {
            return Err(SolverError::InvalidStep);
        }
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
        self.last_dt = dt;
        self.update_pairs();
        self.update_contacts();

        // The awake bodies as the solver sees them: index 0 stands for every static body.
        self.solver_bodies.clear();
        self.solver_bodies.push(Body::new_static(Transform::IDENTITY));
        let bodies = &self.bodies;
        self.solver_bodies
            .extend(self.awake.iter().map(|&s| bodies[s as usize]));
        self.order_constraints();
        self.blocks.resize(
            self.constraints.len() / solver::ContactBlock::LANES,
            solver::ContactBlock::default(),
        );
        solver::step_with_scratch(
            &mut self.solver_bodies,
            &mut self.constraints,
            &mut self.blocks,
            &settings,
            dt,
        )?;
        // The impulses stay in `constraints` for warm starting: each touching sim knows its
        // `fresh` index, and `position` maps that to its constraint (no scattered writes).
        self.finalize_bodies(dt);
        self.solve_continuous();
        self.update_sleep();
        Ok(())
    }

    /// Fills `constraints` with this step's constraints (`fresh`) grouped by colour: a
    /// greedy colouring of the contact graph in which no two constraints of one colour share
    /// a moving body (fixed bodies do not count). Runs of four constraints of one colour are
    /// then solved together in SIMD lanes by the solver. Constraints that find no free
    /// colour among [`COLORS`] go last. `position[j]` is the index in `constraints` of
    /// `fresh[j]`.
    fn order_constraints(&mut self) {
        self.used_colors.clear();
        self.used_colors.resize(self.solver_bodies.len(), 0);
        self.color_of.clear();
        let mut counts = [0u32; COLORS + 1];
        for c in &self.fresh {
            let (a, b) = (c.body_a as usize, c.body_b as usize);
            let moving = |i: usize| !solver::is_fixed(&self.solver_bodies[i]);
            let busy = if moving(a) { self.used_colors[a] } else { 0 }
                | if moving(b) { self.used_colors[b] } else { 0 };
            let color = (!busy).trailing_zeros() as usize; // COLORS when all are taken
            if color < COLORS {
                for i in [a, b] {
                    if moving(i) {
                        self.used_colors[i] |= 1 << color;
                    }
                }
            }
            counts[color] += 1;
            self.color_of.push(color as u8);
        }
        // Counting sort by colour (stable, so pair order is kept within a colour).
        let mut start = 0;
        for c in &mut counts {
            (*c, start) = (start, start + *c);
        }
        let n = self.fresh.len();
        self.position.clear();
        self.constraints.clear();
        self.constraints.resize(n, ContactConstraint::default());
        for (c, &color) in self.fresh.iter().zip(&self.color_of) {
            let at = &mut counts[color as usize];
            self.position.push(*at);
            self.constraints[*at as usize] = *c;
            *at += 1;
        }
    }

    /// Copies the solved awake bodies back, accumulates sleep time and moves the proxies of
    /// bodies that are not fast (fast ones go to the continuous phase, which moves them).
    fn finalize_bodies(&mut self, dt: f32) {
        self.fast.clear();
        let inv_dt = 1.0 / dt;
        let sleepy = self.sleep_enabled;
        for k in 0..self.awake.len() {
            let s = self.awake[k];
            let mut b = self.solver_bodies[k + 1];
            b.force = Vec2::ZERO;
            b.torque = 0.0;
            let i = s as usize;
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
            if !sleepy || !slot.enable_sleep || sleep_speed > SLEEP_VELOCITY {
                slot.sleep_time = 0.0;
                let motion = moved.max(speed * dt);
                fast = self.continuous_enabled
                    && slot.kind == BodyKind::Dynamic
                    && !slot.sensor
                    && motion > CONTINUOUS_SAFETY_FACTOR * min_extent;
            } else {
                slot.sleep_time += dt;
            }
            if fast {
                self.fast.push(s);
            } else {
                // Cannot fail: the proxy is live and the box finite (bodies are validated).
                let _ = self.sync_body(i);
            }
        }
    }

    /// Pairs that began touching during the last step (or at the start of it).
    #[must_use]
    pub fn begin_events(&self) -> &[ContactEvent] {
        &self.begin
    }

    /// Pairs that stopped touching during the last step, or whose body was removed since.
    #[must_use]
    pub fn end_events(&self) -> &[ContactEvent] {
        &self.end
    }

    /// The constraint the last step solved for a pair, if the two bodies touched and were
    /// awake then, with `body_a`/`body_b` set to their slot indices ([`BodyId::index`]).
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
            self.position
                .get(sim.solved as usize)
                .and_then(|&i| self.constraints.get(i as usize))
                .map(|cc| ContactConstraint {
                    body_a: sim.oa,
                    body_b: sim.ob,
                    ..*cc
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

    /// Whether slot `i` (a body's shape) passes a query filter.
    fn passes(&self, i: usize, filter: &QueryFilter<'_>) -> bool {
        let slot = &self.slots[i];
        let body = self.owner(i as u32) as usize;
        slot.filter.category_bits & filter.mask != 0
            && (filter.sensors || !slot.sensor)
            && !filter
                .ignore
                .iter()
                .any(|id| id.index as usize == body && id.generation == self.slots[body].generation)
    }

    /// The shape and pose of the body behind a proxy's user data, if it passes `filter`.
    fn filtered(&self, user: u64, filter: &QueryFilter<'_>) -> Option<(&Shape, Transform)> {
        let i = user as usize;
        self.passes(i, filter)
            .then(|| (&self.slots[i].shape, self.bodies[i].transform))
    }

    /// Closest non-sensor body hit by the ray from `origin` along `translation` (a ray
    /// starting inside a shape does not hit it). `None` for no hit or non-finite input.
    /// [`World::ray_cast_filtered`] with [`QueryFilter::ALL`].
    #[must_use]
    pub fn ray_cast(&self, origin: Vec2, translation: Vec2) -> Option<WorldRayHit> {
        self.ray_cast_filtered(origin, translation, &QueryFilter::ALL)
    }

    /// Closest body passing `filter` hit by the ray from `origin` along `translation`
    /// (world frame; the hit's fraction is of `translation`, its normal points out of the
    /// body). `None` for no hit or non-finite input.
    #[must_use]
    pub fn ray_cast_filtered(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: &QueryFilter<'_>,
    ) -> Option<WorldRayHit> {
        let ray = Ray::new(origin, translation);
        self.tree
            .ray_cast_closest(&ray, filter.mask, |_, user| self.filtered(user, filter))
            .map(|h| WorldRayHit {
                body: self.id_of(h.user_data as u32),
                hit: h.hit,
            })
    }

    /// Every body passing `filter` that the ray from `origin` along `translation` hits, in no
    /// particular order, as `f(hit)`; `f` returns [`Visit::Continue`] for more,
    /// [`Visit::Clip`] with the hit's fraction to keep only nearer hits from then on, or
    /// [`Visit::Stop`]. A body is reported once per shape the ray enters, at its entry point.
    pub fn ray_cast_all(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: &QueryFilter<'_>,
        mut f: impl FnMut(WorldRayHit) -> Visit,
    ) {
        let ray = Ray::new(origin, translation);
        self.tree.ray_cast(&ray, filter.mask, |clipped, _, user| {
            let Some((shape, xf)) = self.filtered(user, filter) else {
                return Visit::Continue;
            };
            match crate::raycast::ray_cast(shape, xf, clipped) {
                Some(hit) => f(WorldRayHit {
                    body: self.id_of(user as u32),
                    hit,
                }),
                None => Visit::Continue,
            }
        });
    }

    /// Calls `f(body)` for every non-sensor body whose shape overlaps `aabb` (exact test,
    /// not just the fat box); `f` returns `false` to stop. Nothing is reported for an invalid
    /// box. [`World::query_aabb_filtered`] with [`QueryFilter::ALL`].
    pub fn query_aabb(&self, aabb: Aabb, f: impl FnMut(BodyId) -> bool) {
        self.query_aabb_filtered(aabb, &QueryFilter::ALL, f);
    }

    /// [`World::query_aabb`] for the bodies passing `filter`.
    pub fn query_aabb_filtered(
        &self,
        aabb: Aabb,
        filter: &QueryFilter<'_>,
        mut f: impl FnMut(BodyId) -> bool,
    ) {
        self.tree
            .query(aabb, filter.mask, |_, user| match self.filtered(user, filter) {
                Some((shape, xf)) if overlaps_aabb_shape(aabb, shape, xf) && !f(self.id_of(user as u32)) => {
                    Visit::Stop
                }
                _ => Visit::Continue,
            });
    }

    /// Calls `f(body)` for every body passing `filter` whose shape overlaps or touches
    /// `shape` placed at `xf` (exact); `f` returns `false` to stop.
    pub fn overlap_shape(
        &self,
        shape: &Shape,
        xf: Transform,
        filter: &QueryFilter<'_>,
        mut f: impl FnMut(BodyId) -> bool,
    ) {
        for (_, user) in self
            .tree
            .overlapping(shape, xf, filter.mask, |_, user| self.filtered(user, filter))
        {
            if !f(self.id_of(user as u32)) {
                break;
            }
        }
    }

    /// The first body passing `filter` that `shape`, starting at `xf`, touches as it
    /// translates by `translation` (world frame), or `None`. A start in overlap reports
    /// that body with state `Overlapping` at fraction 0 ([`DynamicTree::cast_closest`]'s
    /// rules; the normal points from the moving shape to the body).
    #[must_use]
    pub fn cast_shape(
        &self,
        shape: &Shape,
        xf: Transform,
        translation: Vec2,
        filter: &QueryFilter<'_>,
    ) -> Option<WorldCastHit> {
        let moving = CastShape {
            shape,
            xf,
            translation,
        };
        self.tree
            .cast_closest(&moving, 0.0, filter.mask, |_, user| self.filtered(user, filter))
            .map(|h| WorldCastHit {
                body: self.id_of(h.user_data as u32),
                output: h.output,
            })
    }

    /// The broad-phase tree, for queries the world does not wrap: proxy user data are body
    /// slot indices ([`BodyId::index`]), category bits the bodies' filter categories. The
    /// world owns it (it is the only mover, so its moved marks are the world's move
    /// buffer), which is why a caller's own tree cannot serve as the world's: add static
    /// level geometry to the world as static bodies and query it through the world. There is
    /// one proxy per shape: a body with several shapes has several proxies, and a proxy's user
    /// data is the slot of its shape (the body's index for its first shape, an internal slot
    /// for the others: map results through the world's queries, which report bodies).
    #[must_use]
    pub fn tree(&self) -> &DynamicTree<Vec<crate::tree::TreeNode>> {
        &self.tree
    }

    /// Sensor overlaps that began during the last step.
    #[must_use]
    pub fn sensor_begin_events(&self) -> &[SensorEvent] {
        &self.sensor_begin
    }

    /// Sensor overlaps that ended during the last step, or because a body was removed since.
    #[must_use]
    pub fn sensor_end_events(&self) -> &[SensorEvent] {
        &self.sensor_end
    }

    /// Whether the body is a sensor.
    pub fn is_sensor(&self, id: BodyId) -> Result<bool, SolverError> {
        self.slot(id).map(|i| self.slots[i].sensor)
    }

    /// A dynamic body's slot after validating `values` are finite, waking it; `None` for
    /// static and kinematic bodies (forces do not move them).
    fn dynamic_for_force(&mut self, id: BodyId, values: &[f32]) -> Result<Option<usize>, SolverError> {
        let i = self.slot(id)?;
        if !values.iter().all(|v| v.is_finite()) {
            return Err(SolverError::InvalidInput);
        }
        if self.slots[i].kind != BodyKind::Dynamic {
            return Ok(None);
        }
        self.wake_body(i as u32);
        Ok(Some(i))
    }

    /// Applies a world force (N) at world point `point` for the next step (forces add up
    /// until the step, which applies them in every sub-step and then clears them); off the
    /// centre of mass it adds the torque `(point − centre) × force`. Wakes the body. Ignored
    /// for static and kinematic bodies; non-finite input is [`SolverError::InvalidInput`].
    pub fn apply_force(&mut self, id: BodyId, force: Vec2, point: Vec2) -> Result<(), SolverError> {
        if let Some(i) = self.dynamic_for_force(id, &[force.x, force.y, point.x, point.y])? {
            let b = &mut self.bodies[i];
            b.force += force;
            b.torque += (point - b.center()).cross(force);
        }
        Ok(())
    }

    /// [`World::apply_force`] at the centre of mass (no torque).
    pub fn apply_force_to_center(&mut self, id: BodyId, force: Vec2) -> Result<(), SolverError> {
        if let Some(i) = self.dynamic_for_force(id, &[force.x, force.y])? {
            self.bodies[i].force += force;
        }
        Ok(())
    }

    /// Applies a torque (N·m, counter-clockwise positive) for the next step, as
    /// [`World::apply_force`].
    pub fn apply_torque(&mut self, id: BodyId, torque: f32) -> Result<(), SolverError> {
        if let Some(i) = self.dynamic_for_force(id, &[torque])? {
            self.bodies[i].torque += torque;
        }
        Ok(())
    }

    /// Applies a linear impulse (N·s) at world point `point` now: the velocity changes by
    /// `impulse / m` and the angular velocity by `(point − centre) × impulse / I`. Wakes the
    /// body; ignored for static and kinematic bodies.
    pub fn apply_linear_impulse(
        &mut self,
        id: BodyId,
        impulse: Vec2,
        point: Vec2,
    ) -> Result<(), SolverError> {
        if let Some(i) = self.dynamic_for_force(id, &[impulse.x, impulse.y, point.x, point.y])? {
            let b = &mut self.bodies[i];
            b.linear_velocity += impulse * b.inv_mass;
            b.angular_velocity += b.inv_inertia * (point - b.center()).cross(impulse);
        }
        Ok(())
    }

    /// [`World::apply_linear_impulse`] at the centre of mass.
    pub fn apply_linear_impulse_to_center(&mut self, id: BodyId, impulse: Vec2) -> Result<(), SolverError> {
        if let Some(i) = self.dynamic_for_force(id, &[impulse.x, impulse.y])? {
            let b = &mut self.bodies[i];
            b.linear_velocity += impulse * b.inv_mass;
        }
        Ok(())
    }

    /// Applies an angular impulse (N·m·s): the angular velocity changes by `impulse / I`.
    pub fn apply_angular_impulse(&mut self, id: BodyId, impulse: f32) -> Result<(), SolverError> {
        if let Some(i) = self.dynamic_for_force(id, &[impulse])? {
            let b = &mut self.bodies[i];
            b.angular_velocity += b.inv_inertia * impulse;
        }
        Ok(())
    }

    /// Sets the linear and angular damping rates (1/s, ≥ 0) of a dynamic body (ignored for
    /// other kinds).
    pub fn set_damping(&mut self, id: BodyId, linear: f32, angular: f32) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        if !(non_negative(linear) && non_negative(angular)) {
            return Err(SolverError::InvalidInput);
        }
        if self.slots[i].kind == BodyKind::Dynamic {
            self.bodies[i].linear_damping = linear;
            self.bodies[i].angular_damping = angular;
        }
        Ok(())
    }

    /// Sets the gravity scale of a dynamic body (finite; ignored for other kinds). Wakes it.
    pub fn set_gravity_scale(&mut self, id: BodyId, scale: f32) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        if !scale.is_finite() {
            return Err(SolverError::InvalidInput);
        }
        if self.slots[i].kind == BodyKind::Dynamic {
            self.wake_body(i as u32);
            self.bodies[i].gravity_scale = scale;
        }
        Ok(())
    }

    /// Stops (`true`) or frees (`false`) the rotation of a dynamic body: fixed, it has
    /// infinite rotational inertia and zero angular velocity (ignored for other kinds).
    pub fn set_fixed_rotation(&mut self, id: BodyId, fixed: bool) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        if self.slots[i].kind != BodyKind::Dynamic {
            return Ok(());
        }
        self.wake_body(i as u32);
        self.slots[i].fixed_rotation = fixed;
        // The inertia of all the body's shapes about its centre of mass.
        let shapes: Vec<Shape> = self.shapes_of(i).collect();
        let inertia =
            combined_mass(&shapes, self.slots[i].material.density).map_or(0.0, |m| m.rotational_inertia);
        let b = &mut self.bodies[i];
        if fixed {
            b.inv_inertia = 0.0;
            b.angular_velocity = 0.0;
        } else {
            b.inv_inertia = if positive(inertia) { 1.0 / inertia } else { 0.0 };
        }
        Ok(())
    }

    /// Whether the body's rotation is fixed.
    pub fn fixed_rotation(&self, id: BodyId) -> Result<bool, SolverError> {
        self.slot(id).map(|i| self.slots[i].fixed_rotation)
    }

    /// The body's collision filter.
    pub fn filter(&self, id: BodyId) -> Result<Filter, SolverError> {
        self.slot(id).map(|i| self.slots[i].filter)
    }

    /// Replaces the body's collision filter. Its contacts end (with end events) and are found
    /// again by the next step's broad phase under the new filter (Box2D's behaviour). Wakes
    /// the body and what it touched.
    pub fn set_filter(&mut self, id: BodyId, filter: Filter) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        self.wake_body(i as u32);
        self.wake_touching(i as u32);
        while self.slots[i].contact_head != NONE {
            let c = self.slots[i].contact_head >> 1;
            self.destroy_contact(c);
        }
        // Every shape of the body takes the filter.
        let mut k = i as u32;
        while k != NONE {
            let slot = &mut self.slots[k as usize];
            slot.filter = filter;
            let (proxy, fixed, kind, next) = (slot.proxy, slot.fixed_proxy, slot.kind, slot.next_shape);
            // Cannot fail: the proxy is live.
            let _ = self.tree.set_category_bits(proxy, filter.category_bits);
            if kind != BodyKind::Dynamic {
                let _ = self.fixed_tree.set_category_bits(fixed, filter.category_bits);
            }
            self.move_buffer.push(proxy);
            // The tree reports a proxy to the broad phase only with its moved mark set.
            let _ = self.tree.touch_proxy(proxy);
            k = next;
        }
        Ok(())
    }

    /// Sets the contact recycling distance (m; default [`CONTACT_RECYCLE_DISTANCE`]); 0
    /// computes every manifold in full every step. Negative or non-finite values are
    /// refused with [`SolverError::InvalidInput`].
    pub fn set_recycle_distance(&mut self, distance: f32) -> Result<(), SolverError> {
        if !non_negative(distance) {
            return Err(SolverError::InvalidInput);
        }
        self.recycle_distance = distance;
        Ok(())
    }

    /// Turns the continuous phase on or off (default on). Off, fast bodies can pass through
    /// thin static shapes.
    pub fn set_continuous_enabled(&mut self, enabled: bool) {
        self.continuous_enabled = enabled;
    }

    /// Whether the continuous phase is on.
    #[must_use]
    pub fn continuous_enabled(&self) -> bool {
        self.continuous_enabled
    }

    /// Marks a dynamic body as a bullet (see [`BodyDef::bullet`]); ignored for other kinds.
    pub fn set_bullet(&mut self, id: BodyId, bullet: bool) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        self.slots[i].bullet = bullet && self.slots[i].kind == BodyKind::Dynamic;
        Ok(())
    }

    /// Whether the body is a bullet.
    pub fn is_bullet(&self, id: BodyId) -> Result<bool, SolverError> {
        self.slot(id).map(|i| self.slots[i].bullet)
    }

    fn push_awake(&mut self, s: u32) {
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

/// Contact recycling (Box2D v3): when the pair has moved relative to itself by less than
/// the recycle distance since its last full manifold (translation plus the largest moving
/// body's reach times the sine of the turn; the speculative distance for pairs not
/// touching) and neither body turned by more than about 11°, the old manifold is reused:
/// same normal, points and feature ids, each point carried along by both bodies'
/// motion and its depth updated from the new positions, as the solver does in sub-steps.
/// `None` when the manifold must be computed again.
fn recycle(
    cache: &ContactCache,
    a: (&Body, &Hot),
    b: (&Body, &Hot),
    touching: bool,
    distance: f32,
) -> Option<Manifold> {
    let ((ba, sa), (bb, sb)) = (a, b);
    let (qa, qb) = (ba.transform.q, bb.transform.q);
    let turn = |hot: &Hot, q: Rot, q0: Rot| if hot.round { Rot::IDENTITY } else { q0.inv_mul(q) };
    let turn_a = turn(sa, qa, cache.rotation_a);
    let turn_b = turn(sb, qb, cache.rotation_b);
    if !(turn_a.c.min(turn_b.c) > CONTACT_RECYCLE_COS_ANGLE) {
        return None;
    }
    let reach = |body: &Body, hot: &Hot| if body.inv_mass == 0.0 { 0.0 } else { hot.reach };
    let relative = ba.transform.inv_mul(bb.transform);
    let turn = if sa.round || sb.round {
        // Only the other body's turn moves the contact relative to the pair.
        turn_a.inv_mul(turn_b)
    } else {
        relative.q.inv_mul(cache.relative.q)
    };
    let tolerance = if touching {
        distance
    } else {
        distance.min(SPECULATIVE_DISTANCE)
    };
    // translation + reach·|sin(turn)| < tolerance, without a square root.
    let room = tolerance - reach(ba, sa).max(reach(bb, sb)) * turn.s.abs();
    if !(room > 0.0 && relative.p.distance_squared(cache.relative.p) < room * room) {
        return None;
    }
    let mut m = cache.manifold;
    let (ca, cb) = (ba.center(), bb.center());
    let dc = cb - ca;
    let count = m.points().len();
    for mp in &mut m.points[..count] {
        let ra = turn_a.rotate(mp.point - cache.center_a);
        let rb = turn_b.rotate(mp.point - cache.center_b);
        let gap = dc + (rb - ra);
        mp.depth -= gap.dot(m.normal);
        let mid = ca + ra + gap * 0.5;
        // Along the surface the point follows the moving body's material point (against a
        // fixed body the fresh manifold's points are the mover's): a midpoint would lag half
        // the slide, and on a rolling ball that lever arm reads as the contact separating.
        let tangent = m.normal.left_perp();
        let follow = if ba.inv_mass == 0.0 {
            (cb + rb - mid).dot(tangent)
        } else if bb.inv_mass == 0.0 {
            (ca + ra - mid).dot(tangent)
        } else {
            0.0
        };
        mp.point = mid.mul_add(follow, tangent);
    }
    Some(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Polygon;

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
        let cache = w.active[0].cache.expect("cached after a step");
        let mut body = w.bodies[b];
        body.transform = xf;
        let r = recycle(
            &cache,
            (&w.bodies[g], &w.hot[g]),
            (&body, &w.hot[b]),
            true,
            w.recycle_distance,
        );
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
