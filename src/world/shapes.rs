//! Shapes by id: each shape of a body has its own material, filter, sensor flag and user data,
//! readable and settable after creation, and extra shapes can be removed.

use super::*;

impl World {
    /// The slot of a live shape, or [`SolverError::InvalidShapeId`].
    pub(super) fn shape_slot(&self, id: ShapeId) -> Result<usize, SolverError> {
        match self.slots.get(id.index as usize) {
            Some(s) if s.live && s.generation == id.generation => Ok(id.index as usize),
            _ => Err(SolverError::InvalidShapeId),
        }
    }

    /// The ids of the body's shapes: its first shape (same index and generation as the body),
    /// then those added by [`World::add_shape`] / [`World::add_shape_def`], most recent
    /// first. [`SolverError::InvalidBody`] for a stale id.
    pub fn shape_ids(&self, id: BodyId) -> Result<impl Iterator<Item = ShapeId> + '_, SolverError> {
        let i = self.slot(id)?;
        Ok(self.slot_chain(i).map(|k| self.shape_id_of(k)))
    }

    /// The body a shape belongs to.
    pub fn shape_body(&self, id: ShapeId) -> Result<BodyId, SolverError> {
        let k = self.shape_slot(id)?;
        Ok(self.id_of(k as u32))
    }

    /// Everything about a shape: its geometry (body space), material, filter, sensor flag and
    /// user data, as a [`ShapeDef`] that [`World::add_shape_def`] would take.
    pub fn shape_def(&self, id: ShapeId) -> Result<ShapeDef, SolverError> {
        let s = &self.slots[self.shape_slot(id)?];
        Ok(ShapeDef {
            shape: s.shape,
            material: s.material,
            filter: s.filter,
            sensor: s.sensor,
            user_data: s.user_data,
        })
    }

    /// A shape's user data.
    pub fn shape_user_data(&self, id: ShapeId) -> Result<u64, SolverError> {
        self.shape_slot(id).map(|k| self.slots[k].user_data)
    }

    /// Sets a shape's user data (a body's user data is its first shape's).
    pub fn set_shape_user_data(&mut self, id: ShapeId, data: u64) -> Result<(), SolverError> {
        let k = self.shape_slot(id)?;
        self.slots[k].user_data = data;
        Ok(())
    }

    /// Sets a shape's material. Friction and restitution apply to its contacts (existing ones
    /// too) from the next step. On a dynamic body a new density changes the body's mass, centre of mass and
    /// inertia as [`World::add_shape_def`] does, and wakes it. Errors: the material is checked
    /// as at creation ([`SolverError::InvalidInput`], [`SolverError::OutOfRange`]);
    /// [`SolverError::InvalidInput`] when the body's mass would not be valid (nothing changes).
    pub fn set_shape_material(&mut self, id: ShapeId, material: Material) -> Result<(), SolverError> {
        let k = self.shape_slot(id)?;
        limits::check_material(&material)?;
        let i = self.owner(k as u32) as usize;
        if self.slots[i].kind == BodyKind::Dynamic && material.density != self.slots[k].material.density {
            let parts = self.slot_chain(i).map(|s| {
                let slot = &self.slots[s as usize];
                let density = if s as usize == k {
                    material.density
                } else {
                    slot.material.density
                };
                (slot.shape, density)
            });
            let body = self.with_mass(i, parts)?;
            self.slots[k].material = material;
            self.set_body_mass(i, body);
        } else {
            self.slots[k].material = material;
        }
        self.remix_contacts(k as u32);
        Ok(())
    }

    /// Mixes the friction and restitution of shape (slot) `k`'s contacts again from both
    /// shapes' materials (contacts keep them from creation). Walks its body's contact list.
    fn remix_contacts(&mut self, k: u32) {
        let i = self.owner(k);
        let mut edge = self.slots[i as usize].contact_head;
        while edge != NONE {
            let (c, side) = (edge >> 1, (edge & 1) as usize);
            let contact = self.contacts[c as usize];
            edge = contact.next[side];
            if contact.a != k && contact.b != k {
                continue;
            }
            let (friction, restitution) = self.mixed_material(contact.a, contact.b);
            let sim = match contact.active_index {
                NONE => &mut self.parked[contact.parked as usize].0,
                a => &mut self.active[a as usize],
            };
            sim.friction = friction;
            sim.restitution = restitution;
        }
    }

    /// Sets a shape's collision filter. Its contacts end and are found again by the next
    /// step's broad phase under the new filter (as [`World::set_filter`] does for a whole
    /// body). Errors as [`World::set_filter`].
    pub fn set_shape_filter(&mut self, id: ShapeId, filter: Filter) -> Result<(), SolverError> {
        let k = self.shape_slot(id)?;
        self.reserve_step(0, 0).map_err(|_| SolverError::OutOfMemory)?;
        self.end_shape_contacts(k as u32);
        self.slots[k].filter = filter;
        self.refresh_proxy(k as u32);
        Ok(())
    }

    /// Makes a shape a sensor (overlap events only) or a solid shape. Its contacts end and are
    /// found again by the next step. Errors: [`SolverError::Unsupported`] for a sensor without
    /// area; as [`World::set_filter`] otherwise.
    pub fn set_shape_sensor(&mut self, id: ShapeId, sensor: bool) -> Result<(), SolverError> {
        let k = self.shape_slot(id)?;
        if sensor && !positive(self.slots[k].shape.mass(1.0).mass) {
            return Err(SolverError::Unsupported);
        }
        self.reserve_step(0, 0).map_err(|_| SolverError::OutOfMemory)?;
        self.end_shape_contacts(k as u32);
        self.slots[k].sensor = sensor;
        self.refresh_proxy(k as u32);
        Ok(())
    }

    /// Removes a shape that was added to a body ([`World::add_shape`],
    /// [`World::add_shape_def`]), its proxy and its contacts (their end events come with the
    /// next step's, as for [`World::remove_body`]). A dynamic body's mass becomes that of its
    /// other shapes. The first shape (the one in the [`BodyDef`]) stays for the body's life:
    /// removing it is [`SolverError::Unsupported`] (remove the body). Errors:
    /// [`SolverError::InvalidShapeId`]; [`SolverError::InvalidInput`] when the remaining mass
    /// would not be valid; [`SolverError::OutOfMemory`] only after a step that itself ran out
    /// of memory (nothing changes).
    pub fn remove_shape(&mut self, id: ShapeId) -> Result<(), SolverError> {
        let k = self.shape_slot(id)? as u32;
        let i = self.owner(k) as usize;
        if k as usize == i {
            return Err(SolverError::Unsupported);
        }
        let dynamic = self.slots[i].kind == BodyKind::Dynamic;
        let body = if dynamic {
            let parts = self.slot_chain(i).filter(|&s| s != k).map(|s| {
                (
                    self.slots[s as usize].shape,
                    self.slots[s as usize].material.density,
                )
            });
            Some(self.with_mass(i, parts)?)
        } else {
            None
        };
        self.reserve_step(0, 0).map_err(|_| SolverError::OutOfMemory)?;
        if self.slots[i].kind == BodyKind::Static {
            self.static_changed();
        }
        self.end_shape_contacts(k);
        // Out of the body's shape list (singly linked from the body's slot).
        let mut prev = i as u32;
        while self.slots[prev as usize].next_shape != k {
            prev = self.slots[prev as usize].next_shape;
        }
        self.slots[prev as usize].next_shape = self.slots[k as usize].next_shape;
        let slot = self.slots[k as usize];
        // The proxies exist for every live slot; a failure here would be a world bug.
        let _ = self.tree.destroy_proxy(slot.proxy);
        if slot.kind != BodyKind::Dynamic {
            let _ = self.fixed_tree.destroy_proxy(slot.fixed_proxy);
        }
        self.slots[k as usize].live = false;
        self.slots[k as usize].next_shape = NONE;
        self.bodies[k as usize] = Body::new_static(Transform::IDENTITY);
        self.free.push(k);
        match body {
            Some(b) => self.set_body_mass(i, b),
            None => self.wake_body(i as u32),
        }
        Ok(())
    }

    /// Ends every contact of shape (slot) `k`, waking the bodies it touched; the ends are
    /// queued for the next step's events. Walks its body's contact list once.
    fn end_shape_contacts(&mut self, k: u32) {
        let i = self.owner(k);
        self.wake_body(i);
        let mut edge = self.slots[i as usize].contact_head;
        while edge != NONE {
            let (c, side) = (edge >> 1, (edge & 1) as usize);
            let contact = &self.contacts[c as usize];
            let next = contact.next[side];
            if contact.a == k || contact.b == k {
                let other = contact.other(i);
                if contact.touching && !contact.sensor {
                    self.wake_body(other);
                }
                self.destroy_contact(c, contacts::Ending::BetweenSteps);
            }
            edge = next;
        }
    }

    /// Gives shape (slot) `k`'s proxies its filter's category and queues it for the broad
    /// phase, so that its pairs are found again.
    pub(super) fn refresh_proxy(&mut self, k: u32) {
        let slot = &self.slots[k as usize];
        let (proxy, fixed, kind, category) =
            (slot.proxy, slot.fixed_proxy, slot.kind, slot.filter.category_bits);
        // Cannot fail: the proxy is live.
        let _ = self.tree.set_category_bits(proxy, category);
        if kind != BodyKind::Dynamic {
            let _ = self.fixed_tree.set_category_bits(fixed, category);
        }
        // The tree reports a proxy to the broad phase only with its moved mark set; one
        // already marked is in the buffer (never twice: the buffer keeps its reserved room).
        if !self.tree.was_moved(proxy).unwrap_or(true) {
            self.move_buffer.push(proxy);
        }
        let _ = self.tree.touch_proxy(proxy);
    }

    /// Gives dynamic body `i` the mass in `body` (from [`World::with_mass`]): its extents
    /// about the new centre, its shapes' copies, and no recycled manifold. Wakes it.
    pub(super) fn set_body_mass(&mut self, i: usize, body: Body) {
        self.bodies[i] = body;
        let (mut reach, mut min_ext) = (0.0f32, f32::INFINITY);
        for sh in self.shapes_of(i) {
            reach = reach.max(shape_reach(&sh, body.local_center));
            min_ext = min_ext.min(min_extent(&sh));
        }
        let h = &mut self.hot[i];
        h.reach = reach;
        h.min_extent = min_ext;
        self.wake_body(i as u32);
        self.forget_manifolds(i as u32);
        let _ = self.sync_body(i);
    }
}
