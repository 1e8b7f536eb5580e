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
//!    feature id with last step's constraint for warm starting;
//! 3. **events** — a pair *begins touching* when its manifold first has a point and *ends*
//!    when it has none (or the pair is dropped, or a body removed). As in Box2D, speculative
//!    points count, so touching starts slightly before the surfaces meet; this keeps the
//!    events from flickering for resting contacts;
//! 4. **solver** — [`solver::step`] with the world's settings;
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
use crate::manifold::{collide_with_margin, Manifold};
use crate::math::{Aabb, Transform, Vec2};
use crate::overlap::overlaps_aabb_shape;
use crate::raycast::{ray_cast, Ray, RayHit};
use crate::solver::{
    self, mix_friction, mix_restitution, non_negative, positive, Body, ContactConstraint, SolverError,
    SolverSettings,
};
use crate::tree::DynamicTree;

/// Base speculative distance (m), Box2D's `4 × linearSlop`.
pub const SPECULATIVE_DISTANCE: f32 = 0.02;

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
    proxy: u32,
    reach: f32,
    user_data: u64,
}

#[derive(Clone, Copy, Debug)]
struct Pair {
    a: u32,
    b: u32,
    touching: bool,
    constraint: ContactConstraint,
}

/// Rigid bodies, a broad-phase tree, persistent contacts and the solver.
pub struct World {
    settings: SolverSettings,
    slots: Vec<Slot>,
    bodies: Vec<Body>,
    free: Vec<u32>,
    tree: DynamicTree<Vec<crate::tree::TreeNode>>,
    /// Sorted by `(a, b)`, `a < b`.
    pairs: Vec<Pair>,
    constraints: Vec<ContactConstraint>,
    begin: Vec<ContactEvent>,
    end: Vec<ContactEvent>,
    last_dt: f32,
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
            begin: Vec::new(),
            end: Vec::new(),
            last_dt: 1.0 / 60.0,
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
        self.begin.clear();
        self.end.clear();
        self.last_dt = dt;
        self.find_new_pairs();
        self.update_contacts(dt);

        self.constraints.clear();
        for p in self.pairs.iter().filter(|p| p.touching) {
            self.constraints.push(p.constraint);
        }
        let settings = SolverSettings {
            substeps,
            ..self.settings
        };
        solver::step(&mut self.bodies, &mut self.constraints, &settings, dt)?;
        // Keep the accumulated impulses for warm starting (same order as pushed).
        for (p, c) in self
            .pairs
            .iter_mut()
            .filter(|p| p.touching)
            .zip(&self.constraints)
        {
            p.constraint = *c;
        }
        self.update_proxies();
        Ok(())
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
                        constraint: ContactConstraint::default(),
                    },
                );
            }
        }
    }

    /// Records an end event for a pair that was touching (removed, dropped or separated).
    fn end_if_touching(&mut self, p: &Pair) {
        if p.touching {
            self.end.push(ContactEvent {
                body_a: self.id_of(p.a),
                body_b: self.id_of(p.b),
                manifold: Manifold::default(),
            });
        }
    }

    fn update_contacts(&mut self, dt: f32) {
        let mut k = 0;
        while k < self.pairs.len() {
            let p = self.pairs[k];
            let (sa, sb) = (&self.slots[p.a as usize], &self.slots[p.b as usize]);
            let fat_a = self.tree.fat_aabb(sa.proxy);
            let fat_b = self.tree.fat_aabb(sb.proxy);
            let keep = matches!((fat_a, fat_b), (Ok(fa), Ok(fb)) if fa.overlaps(fb));
            if !keep {
                self.end_if_touching(&p);
                self.pairs.remove(k);
                continue;
            }
            let (ba, bb) = (&self.bodies[p.a as usize], &self.bodies[p.b as usize]);
            let speed = ba.linear_velocity.length()
                + bb.linear_velocity.length()
                + ba.angular_velocity.abs() * sa.reach
                + bb.angular_velocity.abs() * sb.reach;
            let margin = SPECULATIVE_DISTANCE + dt * speed;
            let m = collide_with_margin(&sa.shape, ba.transform, &sb.shape, bb.transform, margin);
            let friction = mix_friction(sa.material.friction, sb.material.friction);
            let restitution = mix_restitution(sa.material.restitution, sb.material.restitution);
            let prev = p.touching.then_some(&p.constraint);
            let constraint = solver::prepare_contact(&self.bodies, p.a, p.b, &m, friction, restitution, prev)
                .unwrap_or_default();
            let touching = constraint.count > 0;
            if touching && !p.touching {
                self.begin.push(ContactEvent {
                    body_a: self.id_of(p.a),
                    body_b: self.id_of(p.b),
                    manifold: m,
                });
            } else if !touching {
                self.end_if_touching(&p);
            }
            let pair = &mut self.pairs[k];
            pair.touching = touching;
            pair.constraint = constraint;
            k += 1;
        }
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
            .map(|p| &p.constraint))
    }

    /// Closest body hit by the ray from `origin` along `translation` (a ray starting inside a
    /// shape does not hit it). `None` for no hit or non-finite input.
    #[must_use]
    pub fn ray_cast(&self, origin: Vec2, translation: Vec2) -> Option<WorldRayHit> {
        let ray = Ray::new(origin, translation);
        let mut best: Option<WorldRayHit> = None;
        self.tree.ray_cast(&ray, u64::MAX, |r, _, user| {
            let i = user as usize;
            match ray_cast(&self.slots[i].shape, self.bodies[i].transform, r) {
                Some(hit) => {
                    best = Some(WorldRayHit {
                        body: self.id_of(i as u32),
                        hit,
                    });
                    hit.fraction
                }
                None => -1.0,
            }
        });
        best
    }

    /// Calls `f(body)` for every body whose shape overlaps `aabb` (exact test, not just the
    /// fat box); `f` returns `false` to stop. Nothing is reported for an invalid box.
    pub fn query_aabb(&self, aabb: Aabb, mut f: impl FnMut(BodyId) -> bool) {
        self.tree.query(aabb, u64::MAX, |_, user| {
            let i = user as usize;
            if overlaps_aabb_shape(aabb, &self.slots[i].shape, self.bodies[i].transform) {
                f(self.id_of(i as u32))
            } else {
                true
            }
        });
    }
}
