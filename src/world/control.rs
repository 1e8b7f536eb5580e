//! What a game calls on a body between steps: forces, impulses, damping, gravity scale,
//! fixed rotation, filters, bullets and world settings.

use super::*;

impl World {
    /// A dynamic body's slot after validating `values` are finite; `None` for static and
    /// kinematic bodies (forces do not move them).
    pub(super) fn dynamic_for_force(
        &mut self,
        id: BodyId,
        values: &[f32],
    ) -> Result<Option<usize>, SolverError> {
        let i = self.slot(id)?;
        if !values.iter().all(|v| v.is_finite()) {
            return Err(SolverError::InvalidInput);
        }
        if self.slots[i].kind != BodyKind::Dynamic {
            return Ok(None);
        }
        Ok(Some(i))
    }

    /// Adds `force` and `torque` to dynamic body `i`'s totals for the next step and wakes it,
    /// when the
    /// totals stay finite and within [`limits::MAX_ACCELERATION`] (`|ΣF|/m`, `|Στ|/I`);
    /// [`SolverError::OutOfRange`] (nothing added) otherwise.
    fn add_force(&mut self, i: usize, force: Vec2, torque: f32) -> Result<(), SolverError> {
        let b = &self.bodies[i];
        let (f, t) = (b.force + force, b.torque + torque);
        let ok = f.is_finite()
            && t.is_finite()
            && f.length() * b.inv_mass <= limits::MAX_ACCELERATION
            && t.abs() * b.inv_inertia <= limits::MAX_ACCELERATION;
        if !ok {
            return Err(SolverError::OutOfRange);
        }
        self.wake_body(i as u32);
        let b = &mut self.bodies[i];
        (b.force, b.torque) = (f, t);
        Ok(())
    }

    /// Gives dynamic body `i` the velocity change of `impulse` at the centre of mass and of
    /// `angular` (N·m·s), waking it, when the new velocity is within the world's speed limits
    /// ([`limits`]); [`SolverError::OutOfRange`] (nothing changed) otherwise.
    fn add_impulse(&mut self, i: usize, impulse: Vec2, angular: f32) -> Result<(), SolverError> {
        let b = &self.bodies[i];
        let v = b.linear_velocity + impulse * b.inv_mass;
        let w = b.angular_velocity + b.inv_inertia * angular;
        limits::check_velocity(v, w, self.settings.max_linear_speed).map_err(|_| SolverError::OutOfRange)?;
        self.wake_body(i as u32);
        let b = &mut self.bodies[i];
        (b.linear_velocity, b.angular_velocity) = (v, w);
        Ok(())
    }

    /// Applies a world force (N) at world point `point` for the next step (forces add up
    /// until the step, which applies them in every sub-step and then clears them); off the
    /// centre of mass it adds the torque `(point − centre) × force`. Wakes the body. Ignored
    /// for static and kinematic bodies. Errors: non-finite input is
    /// [`SolverError::InvalidInput`]; forces or torques adding up to an acceleration above
    /// [`limits::MAX_ACCELERATION`] are [`SolverError::OutOfRange`] (nothing is added).
    pub fn apply_force(&mut self, id: BodyId, force: Vec2, point: Vec2) -> Result<(), SolverError> {
        if let Some(i) = self.dynamic_for_force(id, &[force.x, force.y, point.x, point.y])? {
            let torque = (point - self.bodies[i].center()).cross(force);
            self.add_force(i, force, torque)?;
        }
        Ok(())
    }

    /// [`World::apply_force`] at the centre of mass (no torque).
    pub fn apply_force_to_center(&mut self, id: BodyId, force: Vec2) -> Result<(), SolverError> {
        if let Some(i) = self.dynamic_for_force(id, &[force.x, force.y])? {
            self.add_force(i, force, 0.0)?;
        }
        Ok(())
    }

    /// Applies a torque (N·m, counter-clockwise positive) for the next step, as
    /// [`World::apply_force`].
    pub fn apply_torque(&mut self, id: BodyId, torque: f32) -> Result<(), SolverError> {
        if let Some(i) = self.dynamic_for_force(id, &[torque])? {
            self.add_force(i, Vec2::ZERO, torque)?;
        }
        Ok(())
    }

    /// Applies a linear impulse (N·s) at world point `point` now: the velocity changes by
    /// `impulse / m` and the angular velocity by `(point − centre) × impulse / I`. Wakes the
    /// body; ignored for static and kinematic bodies. Errors: non-finite input is
    /// [`SolverError::InvalidInput`]; an impulse that would leave the body faster than the
    /// world's `max_linear_speed` or [`limits::MAX_ANGULAR_SPEED`] is
    /// [`SolverError::OutOfRange`] (nothing changes).
    pub fn apply_linear_impulse(
        &mut self,
        id: BodyId,
        impulse: Vec2,
        point: Vec2,
    ) -> Result<(), SolverError> {
        if let Some(i) = self.dynamic_for_force(id, &[impulse.x, impulse.y, point.x, point.y])? {
            let angular = (point - self.bodies[i].center()).cross(impulse);
            self.add_impulse(i, impulse, angular)?;
        }
        Ok(())
    }

    /// [`World::apply_linear_impulse`] at the centre of mass.
    pub fn apply_linear_impulse_to_center(&mut self, id: BodyId, impulse: Vec2) -> Result<(), SolverError> {
        if let Some(i) = self.dynamic_for_force(id, &[impulse.x, impulse.y])? {
            self.add_impulse(i, impulse, 0.0)?;
        }
        Ok(())
    }

    /// Applies an angular impulse (N·m·s): the angular velocity changes by `impulse / I`
    /// (errors as [`World::apply_linear_impulse`]).
    pub fn apply_angular_impulse(&mut self, id: BodyId, impulse: f32) -> Result<(), SolverError> {
        if let Some(i) = self.dynamic_for_force(id, &[impulse])? {
            self.add_impulse(i, Vec2::ZERO, impulse)?;
        }
        Ok(())
    }

    /// Sets the linear and angular damping rates (1/s, finite and ≥ 0,
    /// [`SolverError::InvalidInput`] otherwise) of a dynamic body (ignored for other kinds).
    pub fn set_damping(&mut self, id: BodyId, linear: f32, angular: f32) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        limits::check_damping(linear, angular)?;
        if self.slots[i].kind == BodyKind::Dynamic {
            self.bodies[i].linear_damping = linear;
            self.bodies[i].angular_damping = angular;
        }
        Ok(())
    }

    /// Sets the gravity scale of a dynamic body (ignored for other kinds) and wakes it.
    /// Errors: [`SolverError::InvalidInput`] when not finite, [`SolverError::OutOfRange`]
    /// beyond ±[`limits::MAX_GRAVITY_SCALE`].
    pub fn set_gravity_scale(&mut self, id: BodyId, scale: f32) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        limits::check_gravity_scale(scale)?;
        if self.slots[i].kind == BodyKind::Dynamic {
            self.wake_body(i as u32);
            self.bodies[i].gravity_scale = scale;
        }
        Ok(())
    }

    /// Turns internal-edge removal on (the default) or off: contacts of moving shapes with
    /// static polygons whose normal comes from an edge another static polygon covers (the
    /// seam between two tiles), or from a corner next to one, are taken with the exposed edge
    /// as a one-sided chain segment (see the `internal_edges` module docs in the source). A
    /// floor of separate boxes then slides as a chain does. Off, such floors snag as in Box2D.
    pub fn set_internal_edge_removal(&mut self, enabled: bool) {
        self.internal_edge_removal = enabled;
    }

    /// Whether internal-edge removal is on (see [`World::set_internal_edge_removal`]).
    #[must_use]
    pub fn internal_edge_removal(&self) -> bool {
        self.internal_edge_removal
    }

    /// Stops (`true`) or frees (`false`) the rotation of a dynamic body: fixed, it has
    /// infinite rotational inertia and zero angular velocity (ignored for other kinds).
    /// Freeing the rotation of a body whose inertia is too small for its reciprocal to be
    /// finite in `f32` (below about 3e-39) is [`SolverError::InvalidInput`] and leaves the
    /// rotation fixed.
    pub fn set_fixed_rotation(&mut self, id: BodyId, fixed: bool) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        if self.slots[i].kind != BodyKind::Dynamic {
            return Ok(());
        }
        // The inverse inertia of all the body's shapes about its centre of mass.
        let inv_inertia = if fixed {
            0.0
        } else {
            combined_mass(self.masses_of(i)).map_or(Ok(0.0), |m| {
                Body::new_dynamic(Transform::IDENTITY, m).map(|b| b.inv_inertia)
            })?
        };
        self.wake_body(i as u32);
        self.slots[i].fixed_rotation = fixed;
        let b = &mut self.bodies[i];
        b.inv_inertia = inv_inertia;
        if fixed {
            b.angular_velocity = 0.0;
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

    /// Replaces the body's collision filter. Its contacts end and are found again by the next
    /// step's broad phase under the new filter (Box2D's behaviour): the next step reports the
    /// ends of the touching ones first in its end events ([`World::end_events`],
    /// [`World::sensor_end_events`]) and, where the new filter still lets a pair touch, its
    /// begin again. Wakes the body and what it touched. Allocates nothing (the room is kept
    /// as for [`World::remove_body`]); errors with [`SolverError::InvalidBody`] for a stale
    /// id, and with [`SolverError::OutOfMemory`] only after a step that itself failed for
    /// lack of memory (the world is then unchanged).
    pub fn set_filter(&mut self, id: BodyId, filter: Filter) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        // Normally a no-op (the room is kept by every step and addition).
        self.reserve_step(0, 0).map_err(|_| SolverError::OutOfMemory)?;
        self.wake_body(i as u32);
        self.wake_touching(i as u32);
        while self.slots[i].contact_head != NONE {
            let c = self.slots[i].contact_head >> 1;
            self.destroy_contact(c, Ending::BetweenSteps);
        }
        // Every shape of the body takes the filter.
        let mut k = i as u32;
        while k != NONE {
            self.slots[k as usize].filter = filter;
            self.refresh_proxy(k);
            k = self.slots[k as usize].next_shape;
        }
        Ok(())
    }

    /// Sets the contact recycling distance (m; default [`CONTACT_RECYCLE_DISTANCE`]); 0
    /// computes every manifold in full every step. Negative or non-finite values are
    /// refused with [`SolverError::InvalidInput`].
    ///
    /// A recycled contact keeps its last full manifold's normal and feature ids, carries each
    /// point along with both bodies (midway between their two material points; on the moving
    /// body against a fixed one) and updates its separation from the bodies' current poses.
    /// Pairs with a kinematic body, pairs whose speculative margin grew since (they sped up),
    /// and the contacts of a body whose centre of mass moved (a shape added) are computed
    /// afresh.
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
}
