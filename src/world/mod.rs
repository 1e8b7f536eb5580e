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
//! 2. **narrow phase**, in two halves (`collide.rs`). The *collide* pass reads bodies and
//!    shapes and writes only each *awake* contact's cached manifold and its finding: the
//!    fat boxes parted, or [`collide_with_margin`] with the speculative distance. As in
//!    Box2D v3, a pair that has barely moved relative to itself since its last full manifold
//!    (less than [`CONTACT_RECYCLE_DISTANCE`], see [`World::set_recycle_distance`])
//!    *recycles* it: same normal and features, points carried along by the bodies and depths
//!    updated from their motion — in a settled stack most manifolds are never recomputed.
//!    The *update* then applies the findings in contact order, serially: touching state and
//!    events, the pre-solve hook ([`ContactHooks`]), waking what an awake body touches, and
//!    the constraint built into its lane with the impulses matched by feature id (warm
//!    starting). Contacts are collided in chunks of 32 that are updated while their bodies
//!    are still in cache; contacts of woken islands are collided in later chunks of the same
//!    step, and pairs whose boxes parted end after the last chunk;
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
//!    the first impact, keeping its velocity, as Box2D's continuous phase does, unless the
//!    step's end pose leaves it at most its core distance (a quarter of its smallest extent)
//!    into the shape with its centroid in front at both ends: the solver's contact stopped
//!    it there (a capsule landing nearly flat on both ends at once), and pausing it at the
//!    impact would undo that. Box2D sweeps
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
//!    per shape as Box2D v3 does: [`FAT_MARGIN_FRACTION`] of the shape's extent, at most
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
//! rule). A face that lands nearly flat on a face (two points, no push in the last step, both
//! closing within this one, under about 0.2 rad) lands on both points together: for that step
//! the near point is taken to be as far as the far one, so it sinks in by the difference and
//! is pushed out softly; landing on the near point alone would spin the body onto the far
//! one and throw it up.
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
//! Files, by concept: `constants.rs` (every tuning constant), `types.rs` (the public value
//! types), `store.rs` (per-slot data), `scratch.rs` (the per-step scratch arrays), `bodies.rs`, `shapes.rs` and `chains.rs` (adding,
//! changing and removing them), `access.rs` (reading and setting bodies by id, events),
//! `pairs.rs` (the pair hash set), `contacts.rs` (contact bookkeeping and the broad phase),
//! `collide.rs` (the narrow phase, recycling and the constraints' lanes), `hooks.rs` (the
//! custom filter and pre-solve hooks), `step.rs` (the step's phases in order, colouring,
//! finalizing), `sleep.rs` (islands), `continuous.rs` (time of impact for fast bodies),
//! `internal_edges.rs`, `queries.rs` (filtered world queries), `control.rs` (forces,
//! damping, filters and other per-body settings), `mover.rs` (the world as a mover level),
//! `draw.rs`, `limits.rs` (the door's bounds), `invariants.rs` (the recount for tests);
//! this file holds the `World` struct, its construction and its proxies.

mod access;
mod bodies;
mod chains;
mod collide;
pub mod constants;
mod contacts;
mod continuous;
mod control;
#[doc(hidden)]
pub mod determinism;
mod draw;
mod hooks;
mod internal_edges;
mod invariants;
mod joints;
pub mod limits;
mod mover;
mod pairs;
mod queries;
mod scratch;
mod shapes;
mod sleep;
mod snapshot;
mod step;
mod store;
#[cfg(test)]
mod tests;
mod types;

use alloc::vec::Vec;

use crate::cast::CastShape;
use crate::geometry::Shape;
use crate::math::{Aabb, Ray, Rot, Transform, Vec2};
use crate::narrowphase::{collide_with_margin, overlaps_aabb_shape, Manifold};
use crate::solver::{self, non_negative, positive, Body, ContactConstraint, SolverError, SolverSettings};
use crate::tree::{DynamicTree, Filter, ProxyId, Visit};

use constants::{COLORS, MARGIN_GROWTH, MIN_SIDED_SEGMENT};
pub use constants::{
    CONTACT_RECYCLE_COS_ANGLE, CONTACT_RECYCLE_DISTANCE, CONTINUOUS_SAFETY_FACTOR, EDGE_TOLERANCE,
    FAT_MARGIN_FRACTION, LINEAR_SLOP, MAX_FAT_MARGIN, SLEEP_VELOCITY, SPECULATIVE_DISTANCE, TIME_TO_SLEEP,
};
use contacts::{Contact, ContactSim, Ending, SimMemory, NO_COLOR};
pub use draw::DrawFlags;
pub use hooks::ContactHooks;
pub use joints::{JointDef, JointEvent, JointEventKind, JointId};
pub use mover::{MoverPush, WorldLevel};
use pairs::{pair_key, PairTable};
use scratch::StepScratch;
pub use snapshot::{SnapshotError, SNAPSHOT_FORMAT, SNAPSHOT_HEADER_BYTES};
use store::*;
pub use types::{
    BodyDef, BodyId, BodyKind, ChainDef, ChainId, ContactEvent, Material, ProfileClock, QueryFilter,
    SensorEvent, ShapeDef, ShapeId, StepProfile, WorldCastHit, WorldRayHit,
};

/// "No index" in the world's intrusive lists.
const NONE: u32 = u32::MAX;

/// Rigid bodies, a broad-phase tree, persistent contacts, sleeping islands and the solver.
///
/// Memory and cost: per body one slot and one [`Body`]; per pair of overlapping fat boxes
/// one contact (in a slab, found through a hash set); per step O(moved proxies · log n) for
/// new pairs plus O(awake bodies + awake contacts) for everything else. Sleeping bodies and
/// their contacts cost nothing per step.
///
/// `Clone` copies the whole state — contact caches, warm-start impulses, sleep timers,
/// sleeping islands, the trees, the colours, the events of the last step — so a clone
/// stepped N times equals the original stepped N times, bit for bit (the building block of
/// rollback and save games); the ids of the original name the same objects in the clone.
#[derive(Clone)]
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
    /// The per-step scratch arrays (see `StepScratch`).
    scratch: StepScratch,
    /// Proxies created or moved since the last broad phase (duplicates allowed).
    move_buffer: Vec<ProxyId>,
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
    begin: Vec<ContactEvent>,
    end: Vec<ContactEvent>,
    sensor_begin: Vec<SensorEvent>,
    sensor_end: Vec<SensorEvent>,
    /// Bodies the last step stopped because they would have become non-finite.
    faults: Vec<BodyId>,
    /// Joint slab (stable ids); free slots are listed in `free_joints`.
    joints: Vec<joints::JointSlot>,
    free_joints: Vec<u32>,
    /// The joints that broke in the last step, after those removed with their bodies before it.
    joint_events: Vec<JointEvent>,
    /// Joints removed with their bodies since the last step (they lead its joint events).
    queued_joint_events: Vec<JointEvent>,
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

impl World {
    /// An empty world with these solver settings (gravity, contact tuning, speed limit),
    /// checked as [`World::set_settings`] checks them. `settings.substeps` is not the world's:
    /// each [`World::step`] takes its own sub-step count (Box2D's `b2World_Step`).
    pub fn new(settings: SolverSettings) -> Result<World, SolverError> {
        let settings = limits::world_settings(settings)?;
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
            scratch: StepScratch::default(),
            move_buffer: Vec::new(),
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
            blocks: Vec::new(),
            block_ids: Vec::new(),
            prev_blocks: Vec::new(),
            prev_block_ids: Vec::new(),
            begin: Vec::new(),
            end: Vec::new(),
            sensor_begin: Vec::new(),
            sensor_end: Vec::new(),
            faults: Vec::new(),
            joints: Vec::new(),
            free_joints: Vec::new(),
            joint_events: Vec::new(),
            queued_joint_events: Vec::new(),
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

    /// The clock set with [`World::set_profile_clock`], if any.
    #[must_use]
    pub fn profile_clock(&self) -> Option<ProfileClock> {
        self.profile_clock
    }

    /// How long each phase of the last [`World::step`] took, in ticks of the clock set with
    /// [`World::set_profile_clock`]; all zero without a clock or after a failed step.
    #[must_use]
    pub fn profile(&self) -> StepProfile {
        self.profile
    }

    /// The solver settings; `substeps` is the sub-step count of the last [`World::step`]
    /// (the default, 4, before the first).
    #[must_use]
    pub fn settings(&self) -> &SolverSettings {
        &self.settings
    }

    /// Replaces the solver settings (gravity, stiffness...). `settings.substeps` is ignored:
    /// the sub-step count is [`World::step`]'s argument alone. Errors (the
    /// settings are kept): [`SolverError::InvalidInput`] for a non-finite value,
    /// [`SolverError::OutOfRange`] for gravity above [`limits::MAX_GRAVITY`], a contact hertz
    /// that is not positive, a negative damping ratio, push-out speed
    /// or restitution threshold, or a `max_linear_speed` outside (0,
    /// [`limits::MAX_LINEAR_SPEED`]]. Bodies moving faster than a lowered `max_linear_speed`
    /// are slowed to it by the next step's integration.
    pub fn set_settings(&mut self, settings: SolverSettings) -> Result<(), SolverError> {
        let settings = limits::world_settings(SolverSettings {
            substeps: self.settings.substeps,
            ..settings
        })?;
        self.settings = settings;
        Ok(())
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

    /// Notes that a static shape was added, removed or moved: every static polygon's internal
    /// edges, and every static chain segment's welded ends, are worked out again when a
    /// contact next needs them.
    fn static_changed(&mut self) {
        // `NONE` marks "never worked out": the counter skips it.
        self.static_epoch = (self.static_epoch + 1) % NONE;
    }

    /// Works out slot `i`'s internal edges if it is a static polygon whose edges are older
    /// than the last change to the static shapes.
    fn refresh_internal_edges(&mut self, i: usize) {
        if !self.internal_edges_stale(i) {
            return;
        }
        let mask = self.internal_edges_of(i);
        let slot = &mut self.slots[i];
        slot.internal_edges = mask;
        slot.internal_epoch = self.static_epoch;
    }

    /// Whether slot `i` is a static polygon or chain segment whose cached internal edges or
    /// welded ends predate the last change to the static shapes.
    fn internal_edges_stale(&self, i: usize) -> bool {
        let slot = &self.slots[i];
        slot.kind == BodyKind::Static
            && match &slot.shape {
                Shape::Polygon(_) | Shape::ChainSegment(_) => true,
                Shape::Capsule(c) => c.radius == 0.0,
                Shape::Circle(_) => false,
            }
            && slot.internal_epoch != self.static_epoch
    }

    /// Slot `i`'s internal edges (a static polygon) or welded ends (a static chain segment;
    /// 0 for other shapes): as kept when current, otherwise from the static shapes near it
    /// (the fixed tree) that cover its edges or continue its ends.
    fn internal_edges_of(&self, i: usize) -> u8 {
        let slot = &self.slots[i];
        if slot.kind != BodyKind::Static {
            return 0;
        }
        let p = match &slot.shape {
            Shape::Polygon(p) => p,
            Shape::ChainSegment(c) => {
                if slot.internal_epoch == self.static_epoch {
                    return slot.internal_edges;
                }
                let square = (c.ghost1 == c.point1, c.ghost2 == c.point2);
                return self.welded_ends_of(i, (c.point1, c.point2), square, false);
            }
            Shape::Capsule(c) if c.radius == 0.0 => {
                if slot.internal_epoch == self.static_epoch {
                    return slot.internal_edges;
                }
                return self.welded_ends_of(i, (c.center1, c.center2), (true, true), true);
            }
            _ => return 0,
        };
        if slot.internal_epoch == self.static_epoch {
            return slot.internal_edges;
        }
        let xf = self.bodies[i].transform;
        let area = p.aabb(xf).inflated(EDGE_TOLERANCE);
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

    /// The ends of static segment `p1 → p2` (slot `i`, body frame; a chain segment's, or a
    /// two-sided segment's when `two_sided`) that are square (`square`: a chain segment's
    /// ends without a neighbour; both of a two-sided segment's) and that another static
    /// segment or sharp polygon continues straight on (see [`internal_edges::continues`]),
    /// from the static shapes at each end (the fixed tree).
    fn welded_ends_of(&self, i: usize, (p1, p2): (Vec2, Vec2), square: (bool, bool), two_sided: bool) -> u8 {
        let xf = self.bodies[i].transform;
        let (w1, w2) = (xf.apply(p1), xf.apply(p2));
        let mut ends = 0u8;
        for (bit, square, p) in [(1u8, square.0, w1), (2, square.1, w2)] {
            if !square {
                continue;
            }
            let area = Aabb::new(p, p).inflated(EDGE_TOLERANCE);
            self.fixed_tree.query(area, u64::MAX, |_, user| {
                let j = user as usize;
                if j != i && self.slots[j].kind == BodyKind::Static {
                    let other = (&self.slots[j].shape, self.bodies[j].transform);
                    if internal_edges::continues((w1, w2), bit, two_sided, other) {
                        ends |= bit;
                        return Visit::Stop;
                    }
                }
                Visit::Continue
            });
        }
        ends
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
}
