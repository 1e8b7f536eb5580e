//! Reading and setting bodies by id between steps: counts, poses, velocities, gravity, the
//! last step's events and a pair's solved contact.

use super::contacts::PARKED;
use super::*;

impl World {
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

    /// The bodies the last step stopped because its arithmetic would have left them
    /// non-finite: each keeps its pose from before the step with zero velocity. Input checked
    /// at the door ([`limits`]) causes this only in the one extreme case its module docs name
    /// (a body of about 1e6 m spinning at the angular speed limit, wedged between static and
    /// kinematic bodies); a body touching such a body in the same step may be listed too (its
    /// impulses came from the non-finite one).
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

    /// Every touching contact between two solid shapes, awake or asleep, in contact-slab order
    /// (stable while no contact begins or ends): the two shapes and their bodies
    /// (`shape_a`, the one with the smaller slot index, on `body_a`) and the manifold, normal
    /// from shape A to shape B (world). An awake contact's manifold is the one the last step
    /// solved, its points placed at the bodies' current centres of mass (on the step a face
    /// lands nearly flat, the near point's depth is the far one's, as the solver took it; see
    /// the module docs); a sleeping contact's is the last one computed in full (computed now
    /// when none is kept); every one listed has one or two points. Sensor overlaps are not contacts
    /// ([`World::sensor_begin_events`]). O(contacts ever made, live or free).
    pub fn contacts(&self) -> impl Iterator<Item = ContactEvent> + '_ {
        (0..self.contacts.len() as u32).filter_map(move |c| {
            let contact = &self.contacts[c as usize];
            if contact.a == NONE || !contact.touching || contact.sensor {
                return None;
            }
            let manifold = self.touching_manifold(c);
            // Every listed contact has one or two points (a contact whose kept manifold was
            // dropped and whose shapes no longer come within the speculative distance, until
            // the next step ends it, is left out).
            (manifold.count > 0).then(|| ContactEvent {
                body_a: self.id_of(contact.a),
                body_b: self.id_of(contact.b),
                manifold,
                shape_a: self.shape_id_of(contact.a),
                shape_b: self.shape_id_of(contact.b),
            })
        })
    }

    /// The manifold of the touching contact `c` (see [`World::contacts`]).
    fn touching_manifold(&self, c: u32) -> Manifold {
        let contact = &self.contacts[c as usize];
        let ca = self.bodies[contact.oa as usize].center();
        let sim = self.sim(c);
        if let Some(cc) = (sim.solved != PARKED && sim.solved != NONE)
            .then(|| self.solved_constraint(sim.solved))
            .flatten()
        {
            return super::collide::manifold_of(cc.normal, &cc.points[..cc.count as usize], ca);
        }
        let memory = match contact.active_index {
            NONE => &self.parked[contact.parked as usize].1,
            k => &self.active_memory[k as usize],
        };
        let Some(cache) = memory.cache.as_ref() else {
            // No manifold kept (the cache is dropped when a body's centre of mass moves, e.g.
            // a shape added to a sleeping or just-slept body): computed now, within the
            // speculative distance as a step would.
            let (a, b) = (contact.a as usize, contact.b as usize);
            return crate::narrowphase::collide_with_margin(
                &self.slots[a].shape,
                self.bodies[a].transform,
                &self.slots[b].shape,
                self.bodies[b].transform,
                SPECULATIVE_DISTANCE,
            );
        };
        let mut m = Manifold {
            normal: cache.normal,
            count: cache.count.min(2),
            ..Manifold::default()
        };
        let cb = self.bodies[contact.ob as usize].center();
        for (mp, p) in m.points.iter_mut().zip(&cache.points[..m.count as usize]) {
            mp.point = ca + p.anchor_a;
            mp.depth = -(p.separation + (cb - ca + p.anchor_b - p.anchor_a).dot(cache.normal));
            mp.id = p.id;
        }
        m
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
}
