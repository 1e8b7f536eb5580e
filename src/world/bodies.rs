//! Adding and removing bodies, shapes and chains.

use super::*;

impl World {
    /// Adds a body. Every value of `def` is checked at the door ([`limits`]): errors with
    /// [`SolverError::InvalidShape`] for a shape its constructors would not make,
    /// [`SolverError::InvalidInput`] for non-finite numbers or a rotation that is not unit
    /// length, [`SolverError::OutOfRange`] for a position or shape beyond
    /// [`limits::MAX_COORDINATE`], a speed above the world's `max_linear_speed` or
    /// [`limits::MAX_ANGULAR_SPEED`], a material, damping or gravity scale beyond its bound,
    /// [`SolverError::Unsupported`] for a chain segment on a dynamic body or a sensor without
    /// area, [`SolverError::InvalidInput`] for a dynamic body whose mass is not positive, and
    /// with [`SolverError::OutOfMemory`] when the allocator cannot provide the room. On error
    /// the world is unchanged.
    pub fn add_body(&mut self, def: &BodyDef) -> Result<BodyId, SolverError> {
        limits::check_body_def(def, &self.settings)?;
        let m = def.material;
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
        let asleep = def.kind != BodyKind::Static && !def.awake && def.enable_sleep && self.sleep_enabled;
        self.reserve_shapes(
            1,
            def.kind != BodyKind::Dynamic,
            def.kind != BodyKind::Static,
            asleep,
        )?;
        let reach = shape_reach(&def.shape, body.local_center);
        let index = match self.free.last() {
            Some(&i) => i,
            None => self.slots.len() as u32,
        };
        let margin = fat_margin(&def.shape, def.kind);
        let proxy = self
            .tree
            .create_proxy_with_margin(
                Self::proxy_box(&def.shape, xf),
                margin,
                def.filter.category_bits,
                u64::from(index),
            )
            .map_err(|_| SolverError::InvalidInput)?;
        self.move_buffer.push(proxy);
        let fixed_proxy = if def.kind == BodyKind::Dynamic {
            ProxyId::from_index(crate::tree::NULL_NODE)
        } else {
            // Cannot fail: the same box was just accepted by the main tree.
            match self.fixed_tree.create_proxy_with_margin(
                Self::proxy_box(&def.shape, xf),
                margin,
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
        let generation = self.next_generation(index);
        let hot = Hot {
            awake_index: NONE,
            island: NONE,
            reach,
            min_extent: min_extent(&def.shape),
            spin: 0.0,
            velocity: Vec2::ZERO,
            // A circle about its centre of mass looks the same at every rotation.
            round: matches!(def.shape, Shape::Circle(c) if c.center == body.local_center),
            center: body.center(),
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
            margin,
            contact_head: NONE,
            joint_head: NONE,
            parent: NONE,
            next_shape: NONE,
            internal_edges: 0,
            internal_epoch: NONE,
        };
        // Cannot fail: the proxy was just created.
        let fat = self.tree.fat_aabb(proxy).unwrap_or_default();
        self.put_slot(index, slot, hot, body, fat, Self::proxy_box(&def.shape, xf));
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
        if def.kind == BodyKind::Static {
            self.static_changed();
        }
        Ok(BodyId { index, generation })
    }

    /// Adds another shape to a body (in body space, like the body's first shape), with its
    /// own proxy and the body's material, filter, sensor flag and user data: a compound body.
    /// [`World::add_shape_def`] with those; see it for the rest.
    pub fn add_shape(&mut self, id: BodyId, shape: &Shape) -> Result<ShapeId, SolverError> {
        let parent = self.slots[self.slot(id)?];
        self.add_shape_def(
            id,
            &ShapeDef {
                shape: *shape,
                material: parent.material,
                filter: parent.filter,
                sensor: parent.sensor,
                user_data: parent.user_data,
            },
        )
    }

    /// Adds another shape to a body (in body space, like the body's first shape) with its own
    /// proxy, material, filter, sensor flag and user data: a compound body, a foot sensor on
    /// a player, per-shape friction. A dynamic body's mass, centre of mass and rotational
    /// inertia become those of all its shapes together, each with its own density (the
    /// centre of mass moves; the body origin stays, and the velocity of the new centre is
    /// the old motion's there). The body wakes. Returns the new shape's id.
    ///
    /// Contacts are per shape pair; events report both bodies and both shapes
    /// ([`ContactEvent`], [`SensorEvent`]): a body touching another with two shapes has two
    /// contacts (two begin events). A sensor shape on a body that is not a sensor reports
    /// overlaps and takes no collision response; two sensors never overlap. Errors:
    /// [`SolverError::InvalidBody`] for a stale id; the shape is checked as
    /// [`World::add_body`] checks one ([`SolverError::InvalidShape`],
    /// [`SolverError::OutOfRange`]), and the material too; [`SolverError::Unsupported`] for a
    /// shape without area (a chain segment or a segment) on a dynamic body or as a sensor;
    /// [`SolverError::InvalidInput`] for a shape that makes the mass invalid.
    pub fn add_shape_def(&mut self, id: BodyId, def: &ShapeDef) -> Result<ShapeId, SolverError> {
        let i = self.slot(id)?;
        let parent = self.slots[i];
        let shape = &def.shape;
        limits::check_shape(shape)?;
        limits::check_material(&def.material)?;
        let area = positive(shape.mass(1.0).mass);
        // Dynamic bodies and sensors need area.
        if !area && (parent.kind == BodyKind::Dynamic || parent.sensor || def.sensor) {
            return Err(SolverError::Unsupported);
        }
        // The body's new mass first: nothing changes when it is invalid.
        let mut body = self.bodies[i];
        self.reserve_shapes(1, parent.kind != BodyKind::Dynamic, false, false)?;
        if parent.kind == BodyKind::Dynamic {
            let all = self
                .masses_of(i)
                .chain(core::iter::once((*shape, def.material.density)));
            body = self.with_mass(i, all)?;
        }
        let index = match self.free.last() {
            Some(&k) => k,
            None => self.slots.len() as u32,
        };
        let xf = body.transform;
        let aabb = Self::proxy_box(shape, xf);
        let margin = fat_margin(shape, parent.kind);
        let proxy = self
            .tree
            .create_proxy_with_margin(aabb, margin, def.filter.category_bits, u64::from(index))
            .map_err(|_| SolverError::InvalidInput)?;
        let fixed_proxy = if parent.kind == BodyKind::Dynamic {
            ProxyId::from_index(crate::tree::NULL_NODE)
        } else {
            match self.fixed_tree.create_proxy_with_margin(
                aabb,
                margin,
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
        self.move_buffer.push(proxy);
        let generation = self.next_generation(index);
        let slot = Slot {
            generation,
            live: true,
            shape: *shape,
            proxy,
            fixed_proxy,
            margin,
            contact_head: NONE,
            joint_head: NONE,
            parent: i as u32,
            next_shape: parent.next_shape,
            internal_edges: 0,
            internal_epoch: NONE,
            material: def.material,
            filter: def.filter,
            sensor: def.sensor,
            user_data: def.user_data,
            ..parent
        };
        let hot = Hot {
            awake_index: NONE,
            island: NONE,
            spin: 0.0,
            velocity: Vec2::ZERO,
            round: false,
            ..self.hot[i]
        };
        let fat = self.tree.fat_aabb(proxy).unwrap_or(aabb);
        self.put_slot(index, slot, hot, body, fat, aabb);
        self.slots[i].next_shape = index;
        // A compound is not round. A dynamic body's centre moved: its extents over all its
        // shapes again, and every shape's copy of the body takes the new mass (its shapes are
        // few). A fixed body's centre stays put, so its extents only grow by the new shape
        // (adding a chain's n segments is O(n), not O(n²)).
        self.hot[i].round = false;
        if parent.kind == BodyKind::Dynamic {
            self.set_body_mass(i, body);
        } else {
            self.bodies[i] = body;
            let h = &mut self.hot[i];
            h.reach = h.reach.max(shape_reach(shape, body.local_center));
            h.min_extent = h.min_extent.min(min_extent(shape));
            self.wake_body(i as u32);
            // No contact of the body may be recycled across the change.
            self.forget_manifolds(i as u32);
        }
        if parent.kind == BodyKind::Static {
            self.static_changed();
        }
        Ok(ShapeId { index, generation })
    }

    /// The body's shapes (body space): the first one given at creation, then those added
    /// by [`World::add_shape`] (most recent first).
    pub fn shapes(&self, id: BodyId) -> Result<impl Iterator<Item = &Shape> + '_, SolverError> {
        let i = self.slot(id)?;
        Ok(self.slot_chain(i).map(|k| &self.slots[k as usize].shape))
    }

    /// Body slot `i` and its extra shapes' slots.
    pub(super) fn slot_chain(&self, i: usize) -> impl Iterator<Item = u32> + Clone + '_ {
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
    pub(super) fn shapes_of(&self, i: usize) -> impl Iterator<Item = Shape> + Clone + '_ {
        self.slot_chain(i).map(|k| self.slots[k as usize].shape)
    }

    /// Dynamic body `i` with the mass of `parts` (shapes with their densities): the centre of
    /// mass moves (the origin stays, and the velocity of the new centre is the old motion's
    /// there). [`SolverError::InvalidInput`] when the mass or the body would not be valid.
    pub(super) fn with_mass(
        &self,
        i: usize,
        parts: impl Iterator<Item = (Shape, f32)> + Clone,
    ) -> Result<Body, SolverError> {
        let mut body = self.bodies[i];
        let mass = combined_mass(parts).ok_or(SolverError::InvalidInput)?;
        let fresh = Body::new_dynamic(body.transform, mass)?;
        let old_center = body.center();
        body.local_center = fresh.local_center;
        body.inv_mass = fresh.inv_mass;
        body.inv_inertia = if self.slots[i].fixed_rotation {
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
        Ok(body)
    }

    /// Body slot `i`'s shapes with their densities.
    pub(super) fn masses_of(&self, i: usize) -> impl Iterator<Item = (Shape, f32)> + Clone + '_ {
        self.slot_chain(i).map(|k| {
            (
                self.slots[k as usize].shape,
                self.slots[k as usize].material.density,
            )
        })
    }

    /// Removes a body, its proxies and its contacts. Its touching contacts and sensor
    /// overlaps end: their end events are reported by the next [`World::step`], in
    /// [`World::end_events`] and [`World::sensor_end_events`] ahead of that step's own ends,
    /// with the body's id as it was (stale by then; read its user data before removing it).
    /// Until that step the event lists still hold the last step's events. A sleeping body's
    /// island wakes first, and so does any sleeping body it touched.
    ///
    /// Allocates nothing: every step and every addition keeps the room removing needs,
    /// queued ends included. Errors with [`SolverError::InvalidBody`] for a stale id, and
    /// with [`SolverError::OutOfMemory`] only after a step that itself failed for lack of
    /// memory (the world is then unchanged).
    pub fn remove_body(&mut self, id: BodyId) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        // Normally a no-op (the room is kept by every step and addition).
        self.reserve_step(0, 0).map_err(|_| SolverError::OutOfMemory)?;
        if self.slots[i].kind == BodyKind::Static {
            self.static_changed();
        }
        self.wake_body(i as u32);
        self.remove_joints_of(i as u32);
        while self.slots[i].contact_head != NONE {
            let c = self.slots[i].contact_head >> 1;
            let other = self.contacts[c as usize].other(i as u32);
            if self.contacts[c as usize].touching && !self.contacts[c as usize].sensor {
                self.wake_body(other);
            }
            self.destroy_contact(c, Ending::BetweenSteps);
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

    /// Makes room ahead of time for `moving` more dynamic or kinematic shapes, `fixed` more
    /// static or kinematic shapes (a kinematic shape counts in both) and `contacts` more
    /// contacts. A shape is a body's first shape, an extra shape ([`World::add_shape`]) or a
    /// chain segment ([`World::add_chain`]). Adding up to that many then grows no per-shape
    /// array: without the hint each array doubles when it fills, so a level of a million
    /// chain segments followed by the first of 20 000 crates would double every per-shape
    /// array of the million (about 600 bytes per shape; see BENCHMARKS.md for the bytes per
    /// shape next to Box2D's). Capacity hints only: nothing is added, and a later call with
    /// smaller numbers releases nothing. [`SolverError::OutOfMemory`] when the allocator
    /// cannot provide the room (the world is unchanged; some arrays may have grown).
    pub fn reserve(&mut self, moving: usize, fixed: usize, contacts: usize) -> Result<(), SolverError> {
        let total = moving.saturating_add(fixed);
        let fresh = total.saturating_sub(self.free.len());
        let oom = |_| SolverError::OutOfMemory;
        self.slots.try_reserve_exact(fresh).map_err(oom)?;
        self.hot.try_reserve_exact(fresh).map_err(oom)?;
        self.bodies.try_reserve_exact(fresh).map_err(oom)?;
        self.boxes.try_reserve_exact(fresh).map_err(oom)?;
        self.tree
            .reserve_proxies(total)
            .map_err(|_| SolverError::OutOfMemory)?;
        self.fixed_tree
            .reserve_proxies(fixed)
            .map_err(|_| SolverError::OutOfMemory)?;
        self.reserve_step(contacts, fresh).map_err(oom)
    }

    /// Makes room for `count` more shapes (their slots and proxies, in the fixed-body tree
    /// too when `fixed`, in the awake list when `moving`, and a sleeping island when
    /// `asleep`), so that adding them cannot run out of memory part-way:
    /// [`SolverError::OutOfMemory`] leaves the world unchanged (only spare capacity may
    /// have grown).
    pub(super) fn reserve_shapes(
        &mut self,
        count: usize,
        fixed: bool,
        moving: bool,
        asleep: bool,
    ) -> Result<(), SolverError> {
        let fresh = count.saturating_sub(self.free.len());
        let oom = |_| SolverError::OutOfMemory;
        self.slots.try_reserve(fresh).map_err(oom)?;
        self.hot.try_reserve(fresh).map_err(oom)?;
        self.bodies.try_reserve(fresh).map_err(oom)?;
        self.boxes.try_reserve(fresh).map_err(oom)?;
        self.move_buffer.try_reserve(count).map_err(oom)?;
        if moving {
            self.awake.try_reserve(count).map_err(oom)?;
        }
        self.tree
            .reserve_proxies(count)
            .map_err(|_| SolverError::OutOfMemory)?;
        if fixed {
            self.fixed_tree
                .reserve_proxies(count)
                .map_err(|_| SolverError::OutOfMemory)?;
        }
        if asleep {
            self.reserve_island()?;
        }
        self.reserve_step(0, count).map_err(oom)
    }

    /// Stores a new shape's slot data at `index`: the free slot on top of the free list, or a
    /// new one at the end (room reserved by [`World::reserve_shapes`]).
    fn put_slot(&mut self, index: u32, slot: Slot, hot: Hot, body: Body, fat: Aabb, tight: Aabb) {
        let i = index as usize;
        if i < self.slots.len() {
            self.free.pop();
            self.slots[i] = slot;
            self.hot[i] = hot;
            self.bodies[i] = body;
            self.boxes[i] = SlotBoxes { fat, tight };
        } else {
            self.slots.push(slot);
            self.hot.push(hot);
            self.bodies.push(body);
            self.boxes.push(SlotBoxes { fat, tight });
        }
    }
}
