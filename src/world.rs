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
//! 1. **broad phase** — new pairs of overlapping fat boxes from the [`DynamicTree`]
//!    (proxies whose fat box moved), skipping pairs where neither body is dynamic;
//! 2. **narrow phase** — for every pair: drop it when the fat boxes no longer overlap,
//!    otherwise [`collide_with_margin`] with a speculative margin, and match points by
//!    feature id with last step's constraint for warm starting. As in Box2D v3, a pair
//!    that has barely moved relative to itself since its last full manifold (less than
//!    [`CONTACT_RECYCLE_DISTANCE`], see [`World::set_recycle_distance`]) *recycles* it: same
//!    normal and features, points carried along by the bodies and depths updated from their
//!    motion — in a settled stack most manifolds are never recomputed;
//! 3. **events** — a pair *begins touching* when its manifold first has a point and *ends*
//!    when it has none (or the pair is dropped, or a body removed). As in Box2D, speculative
//!    points count, so touching starts slightly before the surfaces meet; this keeps the
//!    events from flickering for resting contacts;
//! 4. **solver** — [`solver::step_with_scratch`] with the world's settings. Touching pairs
//!    are ordered by a greedy colouring of the contact graph (no two constraints of a
//!    colour share a moving body), so that runs of four are solved together in SIMD lanes;
//! 5. **proxies** — every moving body's proxy is moved to cover its box now and its box one
//!    step ahead at its current velocity (predictive fat boxes), so fast bodies find their
//!    pairs before they reach them.
//!
//! The speculative margin of a pair is `SPECULATIVE_DISTANCE + dt × (relative speed bound)`,
//! where the bound is `|vA| + |vB| + |ωA|·reachA + |ωB|·reachB`: a speculative point stops the
//! approach within the step, so bodies do not tunnel into each other at any speed the solver
//! can represent (very thin shapes hit at an angle may still pass; there is no continuous
//! collision beyond this).
//!
//! Friction combines as `sqrt(μa·μb)`, restitution as `max(ea, eb)` (Box2D's rules). Bodies
//! carry one shape each. There is no sleeping and no joints. Body ids carry a generation, so a
//! removed body's id is rejected with [`SolverError::InvalidBody`] even after its slot is
//! reused.

use alloc::vec::Vec;

use crate::geometry::Shape;
use crate::math::{Aabb, Ray, Rot, Transform, Vec2};
use crate::narrowphase::{collide_with_margin, overlaps_aabb_shape, Manifold};
use crate::raycast::RayHit;
use crate::solver::{
    self, mix_friction, mix_restitution, non_negative, positive, Body, ContactConstraint, SolverError,
    SolverSettings,
};
use crate::tree::{DynamicTree, ProxyId, Visit};

/// Base speculative distance (m), Box2D's `4 × linearSlop`.
pub const SPECULATIVE_DISTANCE: f32 = 0.02;

/// Colours of the contact graph (see `World::order_constraints`); constraints of a body with
/// more contacts than this are solved one at a time, after the others.
const COLORS: usize = 64;

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
}

impl BodyDef {
    /// A definition with zero velocity, the default material and no user data.
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
    reach: f32,
    user_data: u64,
}

#[derive(Clone, Copy, Debug)]
struct Pair {
    a: u32,
    b: u32,
    touching: bool,
    /// Index in `World::constraints` of the pair's constraint from the last step (valid
    /// while `touching`).
    solved: u32,
    /// The last manifold computed in full, with the poses it was computed at; `None` until
    /// the first one.
    cache: Option<ContactCache>,
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

/// Rigid bodies, a broad-phase tree, persistent contacts and the solver.
pub struct World {
    settings: SolverSettings,
    slots: Vec<Slot>,
    bodies: Vec<Body>,
    free: Vec<u32>,
    tree: DynamicTree<Vec<crate::tree::TreeNode>>,
    /// Sorted by `(a, b)`, `a < b`.
    pairs: Vec<Pair>,
    /// The touching pairs' constraints in solver order (see `order_constraints`); between
    /// steps, with the impulses the last step left for warm starting.
    constraints: Vec<ContactConstraint>,
    /// This step's new constraints in pair order, before colouring.
    fresh: Vec<ContactConstraint>,
    /// Index into `pairs` of each entry of `fresh`, then (after colouring) of `constraints`.
    fresh_pair: Vec<u32>,
    order: Vec<u32>,
    /// Solver scratch (see [`solver::step_with_scratch`]).
    blocks: Vec<solver::ContactBlock>,
    /// Colouring scratch: per body, the colours its constraints use; per constraint, its colour.
    used_colors: Vec<u64>,
    color_of: Vec<u8>,
    begin: Vec<ContactEvent>,
    end: Vec<ContactEvent>,
    last_dt: f32,
    recycle_distance: f32,
}

impl Default for World {
    fn default() -> Self {
        World::new(SolverSettings::default())
    }
}

fn key(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
}

impl World {
    /// An empty world with these solver settings (gravity and sub-steps are among them).
    #[must_use]
    pub fn new(settings: SolverSettings) -> World {
        World {
            settings,
            slots: Vec::new(),
            bodies: Vec::new(),
            free: Vec::new(),
            tree: DynamicTree::new(),
            pairs: Vec::new(),
            constraints: Vec::new(),
            fresh: Vec::new(),
            fresh_pair: Vec::new(),
            order: Vec::new(),
            blocks: Vec::new(),
            used_colors: Vec::new(),
            color_of: Vec::new(),
            begin: Vec::new(),
            end: Vec::new(),
            last_dt: 1.0 / 60.0,
            recycle_distance: CONTACT_RECYCLE_DISTANCE,
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
        self.slots.iter().filter(|s| s.live).count()
    }

    /// Number of touching contacts (pairs whose manifold has points).
    #[must_use]
    pub fn contact_count(&self) -> usize {
        self.pairs.iter().filter(|p| p.touching).count()
    }

    fn slot(&self, id: BodyId) -> Result<usize, SolverError> {
        match self.slots.get(id.index as usize) {
            Some(s) if s.live && s.generation == id.generation => Ok(id.index as usize),
            _ => Err(SolverError::InvalidBody),
        }
    }

    fn id_of(&self, index: u32) -> BodyId {
        BodyId {
            index,
            generation: self.slots[index as usize].generation,
        }
    }

    /// Adds a body. Errors with [`SolverError::InvalidInput`] for an invalid transform,
    /// non-finite velocity, negative or non-finite friction/restitution, or a dynamic body
    /// whose density is not positive (or whose mass is not finite and positive).
    pub fn add_body(&mut self, def: &BodyDef) -> Result<BodyId, SolverError> {
        let m = def.material;
        let material_ok = non_negative(m.friction) && non_negative(m.restitution) && non_negative(m.density);
        if !material_ok || !def.linear_velocity.is_finite() || !def.angular_velocity.is_finite() {
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
        if !body.is_valid() {
            return Err(SolverError::InvalidInput);
        }
        let local = def.shape.aabb(Transform::IDENTITY);
        let reach = [
            local.min,
            local.max,
            Vec2::new(local.min.x, local.max.y),
            Vec2::new(local.max.x, local.min.y),
        ]
        .iter()
        .map(|c| c.distance(body.local_center))
        .fold(0.0f32, f32::max);
        let index = match self.free.last() {
            Some(&i) => i,
            None => self.slots.len() as u32,
        };
        let proxy = self
            .tree
            .create_proxy(def.shape.aabb(xf), 1, u64::from(index))
            .map_err(|_| SolverError::InvalidInput)?;
        if body.inv_mass == 0.0 && def.kind == BodyKind::Static {
            body.gravity_scale = 0.0;
        }
        let generation = self
            .slots
            .get(index as usize)
            .map_or(1, |s| s.generation.wrapping_add(1).max(1));
        let slot = Slot {
            generation,
            live: true,
            kind: def.kind,
            shape: def.shape,
            material: m,
            proxy,
            reach,
            user_data: def.user_data,
        };
        if (index as usize) < self.slots.len() {
            self.free.pop();
            self.slots[index as usize] = slot;
            self.bodies[index as usize] = body;
        } else {
            self.slots.push(slot);
            self.bodies.push(body);
        }
        Ok(BodyId { index, generation })
    }

    /// Removes a body, its proxy and its contacts; touching contacts produce end events
    /// (visible through [`World::end_events`] until the next step).
    pub fn remove_body(&mut self, id: BodyId) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        let proxy = self.slots[i].proxy;
        // The proxy exists for every live body; a failure here would be a world bug.
        let _ = self.tree.destroy_proxy(proxy);
        let mut k = 0;
        while k < self.pairs.len() {
            let p = self.pairs[k];
            if p.a as usize == i || p.b as usize == i {
                self.end_if_touching(&p);
                self.pairs.remove(k);
            } else {
                k += 1;
            }
        }
        self.slots[i].live = false;
        self.bodies[i] = Body::new_static(Transform::IDENTITY);
        self.free.push(i as u32);
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

    /// The body's shape (body space).
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

    /// Sets the velocity of the centre of mass and the angular velocity. Ignored (but
    /// validated) for static bodies.
    pub fn set_velocity(&mut self, id: BodyId, linear: Vec2, angular: f32) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        if !linear.is_finite() || !angular.is_finite() {
            return Err(SolverError::InvalidInput);
        }
        if self.slots[i].kind != BodyKind::Static {
            self.bodies[i].linear_velocity = linear;
            self.bodies[i].angular_velocity = angular;
        }
        Ok(())
    }

    /// Teleports a body (its proxy follows at once).
    pub fn set_transform(&mut self, id: BodyId, xf: Transform) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        if !xf.is_valid() {
            return Err(SolverError::InvalidInput);
        }
        self.bodies[i].transform = xf;
        let aabb = self.slots[i].shape.aabb(xf);
        self.tree
            .move_proxy(self.slots[i].proxy, aabb)
            .map_err(|_| SolverError::InvalidInput)?;
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
        self.last_dt = dt;
        self.find_new_pairs();
        self.update_contacts(dt);

        self.order_constraints();
        self.blocks.resize(
            self.constraints.len() / solver::ContactBlock::LANES,
            solver::ContactBlock::default(),
        );
        solver::step_with_scratch(
            &mut self.bodies,
            &mut self.constraints,
            &mut self.blocks,
            &settings,
            dt,
        )?;
        // The accumulated impulses stay in `constraints` for warm starting.
        for (i, &k) in self.order.iter().enumerate() {
            self.pairs[k as usize].solved = i as u32;
        }
        self.update_proxies();
        Ok(())
    }

    /// Fills `constraints` with this step's constraints (`fresh`) grouped by colour: a
    /// greedy colouring of the contact graph in which no two constraints of one colour share
    /// a moving body (fixed bodies do not count). Runs of four constraints of one colour are
    /// then solved together in SIMD lanes by the solver. Constraints that find no free
    /// colour among [`COLORS`] go last. `order[i]` is the pair of `constraints[i]`.
    fn order_constraints(&mut self) {
        self.used_colors.clear();
        self.used_colors.resize(self.bodies.len(), 0);
        self.color_of.clear();
        let mut counts = [0u32; COLORS + 1];
        for c in &self.fresh {
            let (a, b) = (c.body_a as usize, c.body_b as usize);
            let moving = |i: usize| !solver::is_fixed(&self.bodies[i]);
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
        self.order.clear();
        self.order.resize(n, 0);
        self.constraints.clear();
        self.constraints.resize(n, ContactConstraint::default());
        for ((c, &k), &color) in self.fresh.iter().zip(&self.fresh_pair).zip(&self.color_of) {
            let at = &mut counts[color as usize];
            self.order[*at as usize] = k;
            self.constraints[*at as usize] = *c;
            *at += 1;
        }
    }

    fn find_new_pairs(&mut self) {
        let mut found: Vec<(u32, u32)> = Vec::new();
        let slots = &self.slots;
        self.tree.query_pairs(|_, ua, _, ub| {
            let (a, b) = key(ua as u32, ub as u32);
            let (ka, kb) = (slots[a as usize].kind, slots[b as usize].kind);
            if ka == BodyKind::Dynamic || kb == BodyKind::Dynamic {
                found.push((a, b));
            }
        });
        for (a, b) in found {
            if let Err(at) = self.pairs.binary_search_by(|p| (p.a, p.b).cmp(&(a, b))) {
                self.pairs.insert(
                    at,
                    Pair {
                        a,
                        b,
                        touching: false,
                        solved: 0,
                        cache: None,
                    },
                );
            }
        }
    }

    /// Records an end event for a pair that was touching (removed, dropped or separated).
    fn end_if_touching(&mut self, p: &Pair) {
        self.end_event(p.a, p.b, p.touching);
    }

    /// Records an end event for the pair of bodies `a`, `b` when it was `touching`.
    fn end_event(&mut self, a: u32, b: u32, touching: bool) {
        if touching {
            self.end.push(ContactEvent {
                body_a: self.id_of(a),
                body_b: self.id_of(b),
                manifold: Manifold::default(),
            });
        }
    }

    fn update_contacts(&mut self, dt: f32) {
        self.fresh.clear();
        self.fresh_pair.clear();
        let mut k = 0;
        while k < self.pairs.len() {
            let (a, b, was_touching) = (self.pairs[k].a, self.pairs[k].b, self.pairs[k].touching);
            let (sa, sb) = (&self.slots[a as usize], &self.slots[b as usize]);
            let fat_a = self.tree.fat_aabb(sa.proxy);
            let fat_b = self.tree.fat_aabb(sb.proxy);
            let keep = matches!((fat_a, fat_b), (Ok(fa), Ok(fb)) if fa.overlaps(fb));
            if !keep {
                let p = self.pairs.remove(k);
                self.end_if_touching(&p);
                continue;
            }
            let (ba, bb) = (&self.bodies[a as usize], &self.bodies[b as usize]);
            let pair = &mut self.pairs[k];
            let recycled = pair
                .cache
                .as_ref()
                .and_then(|cache| recycle(cache, (ba, sa), (bb, sb), was_touching, self.recycle_distance));
            let m = match recycled {
                Some(m) => m,
                None => {
                    let speed = ba.linear_velocity.length()
                        + bb.linear_velocity.length()
                        + ba.angular_velocity.abs() * sa.reach
                        + bb.angular_velocity.abs() * sb.reach;
                    let margin = SPECULATIVE_DISTANCE + dt * speed;
                    let m = collide_with_margin(&sa.shape, ba.transform, &sb.shape, bb.transform, margin);
                    pair.cache = Some(ContactCache {
                        manifold: m,
                        center_a: ba.center(),
                        center_b: bb.center(),
                        rotation_a: ba.transform.q,
                        rotation_b: bb.transform.q,
                        relative: ba.transform.inv_mul(bb.transform),
                    });
                    m
                }
            };
            let friction = mix_friction(sa.material.friction, sb.material.friction);
            let restitution = mix_restitution(sa.material.restitution, sb.material.restitution);
            let prev = self
                .constraints
                .get(pair.solved as usize)
                .filter(|_| was_touching)
                .map(solver::Carried::new);
            // Bodies and materials are valid by the world's invariants; only the manifold is
            // checked (a non-finite one gives no contact).
            self.fresh.push(ContactConstraint::default());
            let c = self.fresh.last_mut().expect("just pushed");
            let _ = solver::build_constraint(c, (a, ba), (b, bb), &m, friction, restitution, prev.as_ref());
            let touching = c.count > 0;
            if touching {
                self.fresh_pair.push(k as u32);
            } else {
                self.fresh.pop();
            }
            pair.touching = touching;
            if touching && !was_touching {
                self.begin.push(ContactEvent {
                    body_a: self.id_of(a),
                    body_b: self.id_of(b),
                    manifold: m,
                });
            } else if !touching {
                self.end_event(a, b, was_touching);
            }
            k += 1;
        }
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

    fn update_proxies(&mut self) {
        let dt = self.last_dt;
        for (i, s) in self.slots.iter().enumerate() {
            if !s.live || s.kind == BodyKind::Static {
                continue;
            }
            let b = &self.bodies[i];
            let now = s.shape.aabb(b.transform);
            let ahead = Aabb {
                min: now.min + b.linear_velocity * dt,
                max: now.max + b.linear_velocity * dt,
            };
            let grow = b.angular_velocity.abs() * dt * s.reach;
            let aabb = now.union(ahead).inflated(grow.min(s.reach));
            // Cannot fail: the proxy is live and the box finite (bodies are validated).
            let _ = self.tree.move_proxy(s.proxy, aabb);
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

    /// The current manifold-derived constraint of a touching pair, if the two bodies touch.
    pub fn contact(&self, a: BodyId, b: BodyId) -> Result<Option<&ContactConstraint>, SolverError> {
        let (ia, ib) = (self.slot(a)? as u32, self.slot(b)? as u32);
        let k = key(ia, ib);
        Ok(self
            .pairs
            .binary_search_by(|p| (p.a, p.b).cmp(&k))
            .ok()
            .map(|i| &self.pairs[i])
            .filter(|p| p.touching)
            .and_then(|p| self.constraints.get(p.solved as usize)))
    }

    /// Closest body hit by the ray from `origin` along `translation` (a ray starting inside a
    /// shape does not hit it). `None` for no hit or non-finite input.
    #[must_use]
    pub fn ray_cast(&self, origin: Vec2, translation: Vec2) -> Option<WorldRayHit> {
        let ray = Ray::new(origin, translation);
        self.tree
            .ray_cast_closest(&ray, u64::MAX, |_, user| {
                let i = user as usize;
                Some((&self.slots[i].shape, self.bodies[i].transform))
            })
            .map(|h| WorldRayHit {
                body: self.id_of(h.user_data as u32),
                hit: h.hit,
            })
    }

    /// Calls `f(body)` for every body whose shape overlaps `aabb` (exact test, not just the
    /// fat box); `f` returns `false` to stop. Nothing is reported for an invalid box.
    pub fn query_aabb(&self, aabb: Aabb, mut f: impl FnMut(BodyId) -> bool) {
        self.tree.query(aabb, u64::MAX, |_, user| {
            let i = user as usize;
            if overlaps_aabb_shape(aabb, &self.slots[i].shape, self.bodies[i].transform)
                && !f(self.id_of(i as u32))
            {
                Visit::Stop
            } else {
                Visit::Continue
            }
        });
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
    a: (&Body, &Slot),
    b: (&Body, &Slot),
    touching: bool,
    distance: f32,
) -> Option<Manifold> {
    let ((ba, sa), (bb, sb)) = (a, b);
    let (qa, qb) = (ba.transform.q, bb.transform.q);
    let turn_a = cache.rotation_a.inv_mul(qa);
    let turn_b = cache.rotation_b.inv_mul(qb);
    if !(turn_a.c.min(turn_b.c) > CONTACT_RECYCLE_COS_ANGLE) {
        return None;
    }
    let reach = |body: &Body, slot: &Slot| if body.inv_mass == 0.0 { 0.0 } else { slot.reach };
    let relative = ba.transform.inv_mul(bb.transform);
    let turn = relative.q.inv_mul(cache.relative.q);
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
        mp.point = ca + ra + gap * 0.5;
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
        let cache = w.pairs[0].cache.expect("cached after a step");
        let mut body = w.bodies[b];
        body.transform = xf;
        let r = recycle(
            &cache,
            (&w.bodies[g], &w.slots[g]),
            (&body, &w.slots[b]),
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
        w.slots[b].reach = 0.0;
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
