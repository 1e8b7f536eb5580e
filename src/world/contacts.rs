//! Contact bookkeeping: the contact slab, the per-body contact lists, the awake work list,
//! the broad phase (new pairs from the move buffer) and the narrow phase.
//!
//! Every operation here is O(1) per contact that begins, ends, wakes or sleeps: a contact is
//! found through the pair table, unlinked from its two bodies' doubly linked lists, and
//! swap-removed from the awake list. Nothing proportional to the number of pairs is moved
//! when one pair changes (the sorted pair array this replaces spent 82–95 % of busy steps in
//! `memmove`).

use super::*;
use crate::solver::ConstraintPoint;

/// The per-step data of a contact, kept densely in `World::active` while the contact is
/// awake (the narrow phase walks it in order) and parked in `World::parked` while it
/// sleeps (Box2D v3 keeps its contact sims in per-set arrays the same way).
#[derive(Clone, Copy)]
pub(super) struct ContactSim {
    /// The contact's slab id.
    pub(super) id: u32,
    /// Slot indices of the two shapes, `a < b`.
    pub(super) a: u32,
    pub(super) b: u32,
    /// The bodies they belong to (`a` and `b` themselves unless one is an extra shape).
    pub(super) oa: u32,
    pub(super) ob: u32,
    /// The manifold had points at the last update (for a sensor pair: the shapes overlap).
    pub(super) touching: bool,
    /// One of the bodies is a sensor: overlap events, no collision.
    pub(super) sensor: bool,
    /// The pair's combined friction and restitution (materials are fixed at creation).
    pub(super) friction: f32,
    pub(super) restitution: f32,
    /// Where the pair's constraint was solved in the last step (`block · 4 + lane` in
    /// `World::blocks`); `PARKED` when its impulses were kept in `World::sleep_impulses` as
    /// it fell asleep (and it has not been solved since); `NONE` otherwise.
    pub(super) solved: u32,
}

/// `ContactSim::solved` of a contact whose impulses wait in `World::sleep_impulses`.
pub(super) const PARKED: u32 = NONE - 1;

/// When a contact is destroyed, which decides where the end of a touching one goes.
#[derive(Clone, Copy)]
pub(super) enum Ending {
    /// In a step's narrow phase: among that step's end events.
    InStep,
    /// Between steps (a body removed, a filter changed): queued for the next step's.
    BetweenSteps,
}

/// The larger per-contact data the narrow phase reads only for pairs close enough to touch,
/// kept in an array of its own beside `World::active` (same index; `World::parked` holds
/// both) so that the walk over the many pairs that are apart streams 36 bytes per pair, not
/// 140.
#[derive(Clone, Copy, Default)]
pub(super) struct SimMemory {
    /// The last manifold computed in full, with the poses it was computed at.
    pub(super) cache: Option<ContactCache>,
}

/// A pair of bodies whose fat boxes overlap: the slab entry, touched only when the contact
/// begins, ends, wakes or sleeps.
#[derive(Clone, Copy)]
pub(super) struct Contact {
    /// Slot indices of the two shapes, `a < b`; `a == NONE` marks a free slab entry.
    pub(super) a: u32,
    pub(super) b: u32,
    /// The bodies they belong to; the contact is listed on these two bodies.
    pub(super) oa: u32,
    pub(super) ob: u32,
    /// The manifold had points at the last update (a copy of the sim's flag).
    pub(super) touching: bool,
    /// One of the bodies is a sensor.
    pub(super) sensor: bool,
    /// Neighbours in the contact lists of body `oa` (index 0) and body `ob` (index 1), as edge
    /// keys `contact << 1 | side`.
    pub(super) prev: [u32; 2],
    pub(super) next: [u32; 2],
    /// Index in `World::active`, or `NONE` while both bodies are asleep or static (then
    /// the sim is at `parked` in `World::parked`).
    pub(super) active_index: u32,
    pub(super) parked: u32,
}

impl Contact {
    /// The body of the pair that is not body `s`.
    pub(super) fn other(&self, s: u32) -> u32 {
        if self.oa == s {
            self.ob
        } else {
            self.oa
        }
    }
}

/// The speculative distance of a pair this step: [`SPECULATIVE_DISTANCE`] plus how far the
/// two bodies can approach each other in `dt` (`|vB − vA| + |ωA|·reachA + |ωB|·reachB`,
/// times `dt`: a bound on the relative speed of any two of their points), the latter capped
/// at [`CONTINUOUS_SAFETY_FACTOR`] × the larger of the two smallest extents. Within the cap
/// a contact stops the approach before the surfaces meet (no penetration, so restitution and
/// stacking see clean first contacts); beyond it the body moves fast enough for the
/// continuous phase, and the cap keeps ghost points from reaching further ahead of a body
/// than half its own size (an unbounded `dt × speed` margin puts them metres ahead of a
/// fast one). Relative, not `|vA| + |vB|`: bodies falling or tumbling together (a tumbler's
/// load, a falling pile) are not approaching, and the sum gave the tumbler 28 % more
/// speculative constraints than Box2D's constant margin.
pub(super) fn speculative_margin(sa: &Hot, sb: &Hot, dt: f32) -> f32 {
    let speed = (sb.velocity - sa.velocity).length() + sa.spin + sb.spin;
    let cap = CONTINUOUS_SAFETY_FACTOR * sa.min_extent.max(sb.min_extent);
    // `min` with a NaN-free cap: the speed is finite by the world's invariants.
    SPECULATIVE_DISTANCE + (dt * speed).min(cap)
}

impl World {
    /// Whether a body slot is an awake (kinematic or dynamic) body (pass the owner of an
    /// extra shape's slot).
    pub(super) fn is_awake_slot(&self, s: u32) -> bool {
        self.hot[s as usize].awake_index != NONE
    }

    /// The solver index of a body this step: 0 for static (and, never used, sleeping)
    /// bodies, `awake_index + 1` for awake ones.
    fn solver_index(&self, s: u32) -> u32 {
        match self.hot[s as usize].awake_index {
            NONE => 0,
            k => k + 1,
        }
    }

    /// Whether the broad phase should make a contact for shapes (slots) `a` and `b`: of two
    /// different bodies, filters agree, not two sensors; then a sensor pair needs one moving
    /// (non-static) body, a solid pair one dynamic body.
    pub(super) fn should_collide(slots: &[Slot], a: u32, b: u32) -> bool {
        let (sa, sb) = (&slots[a as usize], &slots[b as usize]);
        let owner = |s: u32, slot: &Slot| if slot.parent == NONE { s } else { slot.parent };
        if owner(a, sa) == owner(b, sb) || (sa.sensor && sb.sensor) || !sa.filter.should_collide(&sb.filter) {
            return false;
        }
        if sa.sensor || sb.sensor {
            sa.kind != BodyKind::Static || sb.kind != BodyKind::Static
        } else {
            sa.kind == BodyKind::Dynamic || sb.kind == BodyKind::Dynamic
        }
    }

    /// Broad phase: contacts for new pairs involving the proxies in the move buffer. When a
    /// large share of the tree moved (the first step, a scene shaken as a whole) the tree's
    /// simultaneous self-descent is cheaper than one query per proxy, and is used instead;
    /// both report the same pairs (the world is the only mover of its tree, so the tree's
    /// moved marks are exactly the move buffer).
    ///
    /// Allocation-safe: the candidate pairs are gathered with fallible pushes, then
    /// [`World::reserve_step`] makes room for everything the rest of the step can grow into,
    /// before anything changes. [`SolverError::OutOfMemory`] leaves the world as it was (the
    /// moved proxies are kept for the next try).
    pub(super) fn update_pairs<'h>(
        &mut self,
        mut hooks: Option<&mut (dyn ContactHooks + 'h)>,
    ) -> Result<(), SolverError> {
        // Proxies move lazily (their ancestors' boxes only grow); the loosened top of the
        // tree is rebuilt here, once, before the pairs are looked for (as Box2D does). Without
        // room for the scratch the tree stays as it is: valid, only slower to query.
        let proxies = self.tree.proxy_count() as usize;
        let scratch = &mut self.rebuild_scratch;
        if scratch.len() >= proxies || scratch.try_reserve(proxies - scratch.len()).is_ok() {
            scratch.resize(scratch.len().max(proxies), 0);
            let _ = self.tree.rebuild_enlarged(scratch);
        }
        let moved = core::mem::take(&mut self.move_buffer);
        self.found.clear();
        let mut failed = false;
        let (slots, found, table) = (&self.slots, &mut self.found, &self.pair_table);
        // Only pairs without a contact are kept: most pairs a moved proxy reports already have
        // one, and each is looked up once, here.
        let mut report = |_: ProxyId, ua: u64, _: ProxyId, ub: u64| {
            let (a, b) = (ua as u32, ub as u32);
            if table.get(pair_key(a, b)).is_none() && Self::should_collide(slots, a, b) {
                if found.try_reserve(1).is_ok() {
                    found.push((a.min(b), a.max(b)));
                } else {
                    failed = true;
                }
            }
        };
        if moved.is_empty() {
            // Nothing moved: no new pairs.
        } else if 4 * moved.len() >= self.tree.proxy_count() as usize {
            self.tree.query_pairs(&mut report);
        } else {
            self.tree.query_pairs_of(&moved, &mut report);
        }
        let new = self.found.len();
        if failed || self.reserve_step(new, 0).is_err() {
            // The traversal cleared the moved marks: put them back with the buffer.
            for &id in &moved {
                let _ = self.tree.touch_proxy(id);
            }
            self.move_buffer = moved;
            return Err(SolverError::OutOfMemory);
        }
        let mut moved = moved;
        moved.clear();
        self.move_buffer = moved;
        for k in 0..self.found.len() {
            let (a, b) = self.found[k];
            // The tree reports each pair once; the check keeps a contact from ever being made
            // twice all the same (it costs one lookup per new pair).
            if self.pair_table.get(pair_key(a, b)).is_some() {
                continue;
            }
            if let Some(h) = hooks.as_deref_mut() {
                if !h.should_collide(self, self.shape_id_of(a), self.shape_id_of(b)) {
                    continue;
                }
            }
            self.create_contact(a, b);
        }
        Ok(())
    }

    fn link(&mut self, c: u32, side: usize, body: u32) {
        let edge = c << 1 | side as u32;
        let head = self.slots[body as usize].contact_head;
        let contact = &mut self.contacts[c as usize];
        contact.prev[side] = NONE;
        contact.next[side] = head;
        if head != NONE {
            self.contacts[(head >> 1) as usize].prev[(head & 1) as usize] = edge;
        }
        self.slots[body as usize].contact_head = edge;
    }

    fn unlink(&mut self, c: u32, side: usize, body: u32) {
        let (p, n) = {
            let contact = &self.contacts[c as usize];
            (contact.prev[side], contact.next[side])
        };
        if p != NONE {
            self.contacts[(p >> 1) as usize].next[(p & 1) as usize] = n;
        } else {
            self.slots[body as usize].contact_head = n;
        }
        if n != NONE {
            self.contacts[(n >> 1) as usize].prev[(n & 1) as usize] = p;
        }
    }

    /// Makes the contact of shapes (slots) `a < b` (not touching yet).
    /// The friction and restitution of a contact of shapes (slots) `a` and `b`, mixed from
    /// their materials.
    pub(super) fn mixed_material(&self, a: u32, b: u32) -> (f32, f32) {
        let (ma, mb) = (self.slots[a as usize].material, self.slots[b as usize].material);
        (
            solver::mix_friction(ma.friction, mb.friction),
            solver::mix_restitution(ma.restitution, mb.restitution),
        )
    }

    fn create_contact(&mut self, a: u32, b: u32) {
        let sensor = self.slots[a as usize].sensor || self.slots[b as usize].sensor;
        let (oa, ob) = (self.owner(a), self.owner(b));
        let c = match self.free_contacts.last() {
            Some(&c) => c,
            None => self.contacts.len() as u32,
        };
        let contact = Contact {
            a,
            b,
            oa,
            ob,
            touching: false,
            sensor,
            prev: [NONE; 2],
            next: [NONE; 2],
            active_index: NONE,
            parked: NONE,
        };
        let (friction, restitution) = self.mixed_material(a, b);
        let sim = ContactSim {
            id: c,
            a,
            b,
            oa,
            ob,
            touching: false,
            sensor,
            friction,
            restitution,
            solved: NONE,
        };
        let sim = (sim, SimMemory::default());
        if (c as usize) < self.contacts.len() {
            self.free_contacts.pop();
            self.contacts[c as usize] = contact;
        } else {
            self.contacts.push(contact);
        }
        self.link(c, 0, oa);
        self.link(c, 1, ob);
        self.pair_table.insert(pair_key(a, b), c);
        if self.is_awake_slot(oa) || self.is_awake_slot(ob) {
            self.push_active(c, sim);
        } else {
            self.park(c, sim);
        }
    }

    /// Appends a contact's sim to the awake work list.
    fn push_active(&mut self, c: u32, (sim, memory): (ContactSim, SimMemory)) {
        self.contacts[c as usize].active_index = self.active.len() as u32;
        self.active.push(sim);
        self.active_memory.push(memory);
    }

    /// Stores a sleeping contact's sim in the parked slab.
    fn park(&mut self, c: u32, sim: (ContactSim, SimMemory)) {
        let at = match self.free_parked.pop() {
            Some(at) => {
                self.parked[at as usize] = sim;
                at
            }
            None => {
                self.parked.push(sim);
                (self.parked.len() - 1) as u32
            }
        };
        self.contacts[c as usize].parked = at;
    }

    /// Takes a contact's sim out of the parked slab.
    fn unpark(&mut self, c: u32) -> (ContactSim, SimMemory) {
        let at = core::mem::replace(&mut self.contacts[c as usize].parked, NONE);
        self.free_parked.push(at);
        self.parked[at as usize]
    }

    /// Forgets the recycling cache of every contact of body `s`, so that each computes its
    /// manifold afresh at the next step: for when the body's centre of mass moved (a cache's
    /// material points are relative to the centre then). O(the body's contacts).
    pub(super) fn forget_manifolds(&mut self, s: u32) {
        let mut e = self.slots[s as usize].contact_head;
        while e != NONE {
            let contact = &self.contacts[(e >> 1) as usize];
            let next = contact.next[(e & 1) as usize];
            let memory = match contact.active_index {
                NONE => &mut self.parked[contact.parked as usize].1,
                k => &mut self.active_memory[k as usize],
            };
            memory.cache = None;
            e = next;
        }
    }

    /// Puts a contact's sim on the awake work list (no-op when it is there).
    pub(super) fn activate(&mut self, c: u32) {
        if self.contacts[c as usize].active_index == NONE {
            let sim = self.unpark(c);
            self.push_active(c, sim);
        }
    }

    /// Takes a contact's sim off the awake work list and parks it (no-op when it is not
    /// there).
    pub(super) fn deactivate(&mut self, c: u32) {
        let k = self.contacts[c as usize].active_index;
        if k == NONE {
            return;
        }
        let (mut sim, memory) = self.take_active(c, k);
        // Parked: the impulses move from the last step's constraint to the side, for when
        // the pair wakes (a pair woken and put back to sleep between steps keeps them).
        if let Some(carried) = self.carried(sim.solved) {
            // Grown only as contacts fall asleep (within the room `reserve_step` keeps for
            // the whole slab), so worlds that never sleep never touch it.
            let i = c as usize;
            if self.sleep_impulses.len() <= i {
                self.sleep_impulses.resize(i + 1, None);
            }
            self.sleep_impulses[i] = Some(carried);
            sim.solved = PARKED;
        } else if sim.solved != PARKED {
            sim.solved = NONE;
        }
        self.park(c, (sim, memory));
    }

    /// Swap-removes the sim of contact `c` from `active[k]` (and its memory).
    fn take_active(&mut self, c: u32, k: u32) -> (ContactSim, SimMemory) {
        let sim = self.active.swap_remove(k as usize);
        let memory = self.active_memory.swap_remove(k as usize);
        if let Some(moved) = self.active.get(k as usize) {
            self.contacts[moved.id as usize].active_index = k;
        }
        self.contacts[c as usize].active_index = NONE;
        (sim, memory)
    }

    /// The sim of a contact, wherever it is.
    pub(super) fn sim(&self, c: u32) -> &ContactSim {
        let contact = &self.contacts[c as usize];
        match contact.active_index {
            NONE => &self.parked[contact.parked as usize].0,
            k => &self.active[k as usize],
        }
    }

    /// Destroys a contact; a touching one ends, with an end event in this step's events or
    /// queued for the next step's (`when`). Allocates nothing: the room for every touching
    /// contact's end is kept by `reserve_step` and `reserve_solver`.
    pub(super) fn destroy_contact(&mut self, c: u32, when: Ending) {
        let contact = &self.contacts[c as usize];
        let (a, b, touching, sensor) = (contact.a, contact.b, contact.touching, contact.sensor);
        let (oa, ob) = (contact.oa, contact.ob);
        if touching && sensor {
            let event = self.sensor_event(a, b);
            self.sensor_overlaps -= 1;
            match when {
                Ending::InStep => self.sensor_end.push(event),
                Ending::BetweenSteps => self.queued_sensor_end.push(event),
            }
        } else if touching {
            let event = self.end_event(a, b);
            self.touching_count -= 1;
            match when {
                Ending::InStep => self.end.push(event),
                Ending::BetweenSteps => self.queued_end.push(event),
            }
        }
        self.pair_table.remove(pair_key(a, b));
        self.unlink(c, 0, oa);
        self.unlink(c, 1, ob);
        match self.contacts[c as usize].active_index {
            NONE => {
                self.unpark(c);
            }
            k => {
                self.take_active(c, k);
            }
        }
        self.contacts[c as usize].a = NONE;
        self.free_contacts.push(c);
    }

    /// The sensor event of a sensor pair.
    fn sensor_event(&self, a: u32, b: u32) -> SensorEvent {
        let (sensor, visitor) = if self.slots[a as usize].sensor {
            (a, b)
        } else {
            (b, a)
        };
        SensorEvent {
            sensor: self.id_of(sensor),
            visitor: self.id_of(visitor),
            sensor_shape: self.shape_id_of(sensor),
            visitor_shape: self.shape_id_of(visitor),
        }
    }

    /// The end event of the contact of shapes (slots) `a < b`.
    fn end_event(&self, a: u32, b: u32) -> ContactEvent {
        ContactEvent {
            body_a: self.id_of(a),
            body_b: self.id_of(b),
            manifold: Manifold::default(),
            shape_a: self.shape_id_of(a),
            shape_b: self.shape_id_of(b),
        }
    }

    /// Narrow phase over the awake contacts (contacts before the current one never move
    /// during the pass: removal swaps in the last one and waking appends): drops pairs whose fat boxes parted, updates
    /// manifolds (recycling where it can), wakes sleeping bodies that an awake body
    /// touches, records begin/end events and builds this step's constraints into `blocks`.
    /// Errors with [`SolverError::OutOfMemory`] when the blocks could not grow (the contacts
    /// then forget their impulses).
    pub(super) fn update_contacts<'h>(
        &mut self,
        mut hooks: Option<&mut (dyn ContactHooks + 'h)>,
    ) -> Result<(), SolverError> {
        // Each awake body's speed bound once, not once per contact.
        for &s in &self.awake {
            let b = &self.bodies[s as usize];
            let hot = &mut self.hot[s as usize];
            hot.spin = b.angular_velocity.abs() * hot.reach;
            hot.velocity = b.linear_velocity;
            hot.center = b.center();
        }
        // Last step's blocks are read for warm starting while this step's are filled.
        core::mem::swap(&mut self.blocks, &mut self.prev_blocks);
        core::mem::swap(&mut self.block_ids, &mut self.prev_block_ids);
        self.blocks.clear();
        self.block_ids.clear();
        self.used_colors.clear();
        self.used_colors.resize(self.awake.len() + 1, 0);
        self.links.clear();
        let linking = self.sleep_enabled;
        let mut open = [(NONE, 0u32); 2 * COLORS];
        let mut out_of_memory = false;
        let mut k = 0;
        // Waking a body appends its contacts to `active`: they are updated in this pass too.
        while k < self.active.len() {
            let sim = &self.active[k];
            let (c, a, b, was_touching) = (sim.id, sim.a, sim.b, sim.touching);
            let (oa, ob) = (sim.oa, sim.ob);
            let (boxes_a, boxes_b) = (self.boxes[a as usize], self.boxes[b as usize]);
            if !boxes_a.fat.overlaps(boxes_b.fat) {
                // Swap-removes `active[k]`: the next contact now sits at `k`.
                self.destroy_contact(c, Ending::InStep);
                continue;
            }
            if self.internal_edge_removal && !self.active[k].sensor {
                self.refresh_internal_edges(a as usize);
                self.refresh_internal_edges(b as usize);
            }
            let (sa, sb) = (&self.slots[a as usize], &self.slots[b as usize]);
            let (ba, bb) = (&self.bodies[a as usize], &self.bodies[b as usize]);
            if self.active[k].sensor {
                // Overlap only: events, no constraint, no waking, no island.
                let overlapping =
                    crate::narrowphase::overlaps(&sa.shape, ba.transform, &sb.shape, bb.transform);
                if overlapping != was_touching {
                    self.active[k].touching = overlapping;
                    self.contacts[c as usize].touching = overlapping;
                    let event = self.sensor_event(a, b);
                    if overlapping {
                        self.sensor_overlaps += 1;
                        self.sensor_begin.push(event);
                    } else {
                        self.sensor_overlaps -= 1;
                        self.sensor_end.push(event);
                    }
                }
                k += 1;
                continue;
            }
            // The tight boxes include the speculative distance on each side; beyond the
            // pair's margin apart no point can exist, whatever the shapes.
            let (ha, hb) = (&self.hot[oa as usize], &self.hot[ob as usize]);
            let margin = speculative_margin(ha, hb, self.last_dt);
            let (ta, tb) = (boxes_a.tight, boxes_b.tight);
            let gap = (ta.min.x - tb.max.x)
                .max(tb.min.x - ta.max.x)
                .max(ta.min.y - tb.max.y)
                .max(tb.min.y - ta.max.y);
            let far = gap > margin - 2.0 * SPECULATIVE_DISTANCE;
            // The centres of mass: kept per step for awake bodies (an extra shape's slot holds
            // a copy of its body, so the owner's centre is the slot's).
            let center = |h: &Hot, body: &Body| {
                if h.awake_index != NONE {
                    h.center
                } else {
                    body.center()
                }
            };
            let (ca, cb) = (center(ha, ba), center(hb, bb));
            // This step's constraint points (impulses zero), their normal and count; a fresh
            // manifold is kept for a begin event.
            let mut points = [ConstraintPoint::default(); 2];
            let (mut normal, mut count) = (Vec2::ZERO, 0usize);
            let mut fresh = None;
            if !far {
                let memory = &mut self.active_memory[k];
                let recycled = memory.cache.as_ref().and_then(|cache| {
                    recycle_into(
                        cache,
                        (ba, ha, ca),
                        (bb, hb, cb),
                        (was_touching, margin),
                        self.recycle_distance,
                        &mut points,
                    )
                    .then_some((cache.normal, cache.count as usize))
                });
                if let Some(found) = recycled {
                    (normal, count) = found;
                } else {
                    let m = collide_with_margin(&sa.shape, ba.transform, &sb.shape, bb.transform, margin);
                    let m = match (&sa.shape, &sb.shape) {
                        (Shape::Polygon(p), _) if sa.internal_edges != 0 && self.internal_edge_removal => {
                            let polygon = (p, ba.transform, sa.internal_edges);
                            internal_edges::correct(m, polygon, (&sb.shape, bb.transform), true, margin)
                        }
                        (_, Shape::Polygon(p)) if sb.internal_edges != 0 && self.internal_edge_removal => {
                            let polygon = (p, bb.transform, sb.internal_edges);
                            internal_edges::correct(m, polygon, (&sa.shape, ba.transform), false, margin)
                        }
                        _ => m,
                    };
                    // Bodies and materials are valid by the world's invariants; only the
                    // manifold is checked (a non-finite one gives no contact, and is not kept).
                    let usable = m.count == 0 || solver::usable(&m);
                    if usable {
                        for (cp, mp) in points.iter_mut().zip(m.points()) {
                            *cp = solver::constraint_point(mp, m.normal, (ca, ba), (cb, bb));
                        }
                        (normal, count) = (m.normal, m.points().len());
                        fresh = Some(m);
                    }
                    memory.cache = usable
                        .then(|| ContactCache::new(&points[..count], normal, margin, (ca, ba), (cb, bb)));
                }
            }
            if count != 0 {
                if let Some(h) = hooks.as_deref_mut() {
                    let manifold = fresh.unwrap_or_else(|| manifold_of(normal, &points[..count], ca));
                    if h.pre_solve(self, self.shape_id_of(a), self.shape_id_of(b), &manifold) {
                        fresh = Some(manifold);
                    } else {
                        count = 0;
                    }
                }
            }
            if count == 0 {
                // No points: no constraint to build, and the sim is written only when it
                // changes (most apart pairs stay apart, and their sims stay clean in cache).
                let sim = &mut self.active[k];
                if sim.solved != NONE {
                    sim.solved = NONE;
                }
                if was_touching {
                    sim.touching = false;
                    self.contacts[c as usize].touching = false;
                    self.touching_count -= 1;
                    let event = self.end_event(a, b);
                    self.end.push(event);
                }
                k += 1;
                continue;
            }
            let contact = &self.active[k];
            let (friction, restitution, solved) = (contact.friction, contact.restitution, contact.solved);
            // Last step's impulses: from its constraint while awake, from the side when it
            // was parked.
            let carried = match (was_touching, solved) {
                (false, _) | (true, NONE) => None,
                (true, PARKED) => self.sleep_impulses.get(c as usize).copied().flatten(),
                (true, at) => carried_from(&self.prev_blocks, &self.prev_block_ids, at),
            };
            // An awake body touches a sleeping one: its island wakes and takes part in this
            // step (its contacts join `active` and are updated below).
            for s in [oa, ob] {
                if self.hot[s as usize].island != NONE {
                    self.wake_body(s);
                }
            }
            let (ia, ib) = (self.solver_index(oa), self.solver_index(ob));
            let (ba, bb) = (&self.bodies[a as usize], &self.bodies[b as usize]);
            let masses = [(ba.inv_mass, ba.inv_inertia), (bb.inv_mass, bb.inv_inertia)];
            let place = match self.claim_lane((ia, ib), masses, &mut open, count == 2) {
                Some((k, l)) => {
                    // Built straight into its lane (no constraint in between).
                    let (ba, bb) = (&self.bodies[a as usize], &self.bodies[b as usize]);
                    let ids = self.blocks[k].fill_lane(
                        l,
                        (ia, ba),
                        (ib, bb),
                        (normal, points, count),
                        (friction, restitution),
                        carried.as_ref(),
                    );
                    self.block_ids[k][l] = ids;
                    if linking && ia != 0 && ib != 0 {
                        self.links.push((ia - 1, ib - 1));
                    }
                    (k * solver::ContactBlock::LANES + l) as u32
                }
                None => {
                    out_of_memory = true;
                    NONE
                }
            };
            let sim = &mut self.active[k];
            sim.touching = true;
            sim.solved = place;
            if !was_touching {
                self.contacts[c as usize].touching = true;
                self.touching_count += 1;
                let manifold = fresh.unwrap_or_else(|| manifold_of(normal, &points[..count], ca));
                self.begin.push(ContactEvent {
                    body_a: self.id_of(a),
                    body_b: self.id_of(b),
                    manifold,
                    shape_a: self.shape_id_of(a),
                    shape_b: self.shape_id_of(b),
                });
            }
            k += 1;
        }
        if out_of_memory {
            self.forget_impulses();
            return Err(SolverError::OutOfMemory);
        }
        Ok(())
    }
}

impl World {
    /// Checks that every live body is finite, and the world's bookkeeping against a recount:
    /// the pair table, the contact slab,
    /// every body's contact list, the awake list, the awake work list, the sleeping islands
    /// and the touching count; and that every dynamic-involving pair of live bodies whose fat
    /// boxes overlap has a contact once the broad phase has run (`broad_phase_current`).
    /// O(bodies²); for tests and fuzzing. Returns the first broken invariant.
    #[doc(hidden)]
    pub fn check_invariants(&self, broad_phase_current: bool) -> Result<(), &'static str> {
        let live = |s: u32| self.slots.get(s as usize).is_some_and(|x| x.live);
        // No body is ever non-finite between steps (the door and the step's containment).
        if self
            .slots
            .iter()
            .zip(&self.bodies)
            .any(|(slot, body)| slot.live && !body.is_valid())
        {
            return Err("a live body is not finite");
        }
        let mut count = 0;
        let mut touching = 0;
        let mut overlaps = 0;
        let mut parked = 0;
        for (c, contact) in self.contacts.iter().enumerate() {
            if contact.a == NONE {
                continue;
            }
            count += 1;
            let (a, b) = (contact.a, contact.b);
            if !(a < b && live(a) && live(b)) {
                return Err("contact of a dead body or unordered pair");
            }
            if self.pair_table.get(pair_key(a, b)) != Some(c as u32) {
                return Err("pair table does not find a contact");
            }
            let sim = self.sim(c as u32);
            if sim.id != c as u32
                || sim.a != a
                || sim.b != b
                || sim.oa != contact.oa
                || sim.ob != contact.ob
                || sim.touching != contact.touching
            {
                return Err("contact sim out of step with its slab entry");
            }
            let (oa, ob) = (contact.oa, contact.ob);
            if oa != self.owner(a) || ob != self.owner(b) || oa == ob {
                return Err("contact owners out of step");
            }
            let awake = self.is_awake_slot(oa) || self.is_awake_slot(ob);
            if awake != (contact.active_index != NONE) {
                return Err("contact active without an awake body, or inactive with one");
            }
            if (contact.active_index == NONE) != (contact.parked != NONE) {
                return Err("contact neither active nor parked, or both");
            }
            parked += usize::from(contact.parked != NONE);
            touching += usize::from(contact.touching && !contact.sensor);
            overlaps += usize::from(contact.touching && contact.sensor);
            if sim.sensor != contact.sensor {
                return Err("sensor flag out of step");
            }
            for (side, s) in [oa, ob].into_iter().enumerate() {
                let edge = (c as u32) << 1 | side as u32;
                let mut e = self.slots[s as usize].contact_head;
                let mut found = false;
                let mut guard = 0;
                while e != NONE && guard <= self.contacts.len() * 2 {
                    found |= e == edge;
                    e = self.contacts[(e >> 1) as usize].next[(e & 1) as usize];
                    guard += 1;
                }
                if !found {
                    return Err("contact missing from a body's contact list");
                }
            }
        }
        if count != self.pair_table.len() || count + self.free_contacts.len() != self.contacts.len() {
            return Err("pair table, slab and free list disagree");
        }
        if parked + self.free_parked.len() != self.parked.len() {
            return Err("parked slab out of step");
        }
        if touching != self.touching_count {
            return Err("touching count is off");
        }
        if overlaps != self.sensor_overlaps {
            return Err("sensor overlap count is off");
        }
        for (k, sim) in self.active.iter().enumerate() {
            if self.contacts[sim.id as usize].active_index != k as u32 {
                return Err("active index out of step");
            }
        }
        for (k, &s) in self.awake.iter().enumerate() {
            let (slot, hot) = (&self.slots[s as usize], &self.hot[s as usize]);
            if !slot.live
                || hot.awake_index != k as u32
                || hot.island != NONE
                || slot.kind == BodyKind::Static
            {
                return Err("awake list out of step");
            }
        }
        let mut list_total = 0;
        for (s, slot) in self.slots.iter().enumerate() {
            if !slot.live {
                continue;
            }
            if slot.parent != NONE {
                // An extra shape: its contacts are on its body's list, its state is its body's.
                let p = slot.parent as usize;
                let body_ok = self
                    .slots
                    .get(p)
                    .is_some_and(|b| b.live && b.parent == NONE && b.kind == slot.kind);
                if slot.contact_head != NONE || !body_ok || self.hot[s].awake_index != NONE {
                    return Err("extra shape out of step with its body");
                }
                continue;
            }
            let hot = &self.hot[s];
            let asleep = hot.island != NONE;
            let awake = hot.awake_index != NONE;
            if slot.kind == BodyKind::Static && (asleep || awake)
                || slot.kind != BodyKind::Static && asleep == awake
            {
                return Err("body neither awake nor asleep, or both");
            }
            if asleep && !self.islands[hot.island as usize].contains(&(s as u32)) {
                return Err("sleeping body missing from its island");
            }
            let mut e = slot.contact_head;
            while e != NONE && list_total <= 2 * self.contacts.len() {
                list_total += 1;
                e = self.contacts[(e >> 1) as usize].next[(e & 1) as usize];
            }
        }
        if list_total != 2 * count {
            return Err("contact lists hold more edges than contacts");
        }
        if !broad_phase_current {
            return Ok(());
        }
        for a in 0..self.slots.len() as u32 {
            for b in a + 1..self.slots.len() as u32 {
                if !(live(a) && live(b) && Self::should_collide(&self.slots, a, b)) {
                    continue;
                }
                let (fa, fb) = (self.boxes[a as usize].fat, self.boxes[b as usize].fat);
                let sa = &self.slots[a as usize];
                if self.tree.fat_aabb(sa.proxy) != Ok(fa) {
                    return Err("cached fat box differs from the tree's");
                }
                if sa.kind != BodyKind::Dynamic && self.fixed_tree.fat_aabb(sa.fixed_proxy) != Ok(fa) {
                    return Err("fixed tree's box differs from the main tree's");
                }
                if fa.overlaps(fb) && self.pair_table.get(pair_key(a, b)).is_none() {
                    return Err("overlapping fat boxes without a contact");
                }
            }
        }
        Ok(())
    }

    /// Runs the broad phase alone (for tests: afterwards every overlapping pair has a
    /// contact, see [`World::check_invariants`]).
    #[doc(hidden)]
    pub fn update_broad_phase(&mut self) -> Result<(), SolverError> {
        self.update_pairs(None)
    }
}

impl ContactCache {
    /// The cache of a full manifold's constraint points `points` (normal `normal`) between
    /// bodies `ba`, `bb` with centres of mass `ca`, `cb`.
    fn new(
        points: &[ConstraintPoint],
        normal: Vec2,
        margin: f32,
        (ca, ba): (Vec2, &Body),
        (cb, bb): (Vec2, &Body),
    ) -> Self {
        let mut cached = [CachedPoint::default(); 2];
        let dc = cb - ca;
        for (out, cp) in cached.iter_mut().zip(points) {
            *out = CachedPoint {
                anchor_a: cp.anchor_a,
                anchor_b: cp.anchor_b,
                // `base_separation` is the separation minus `dot(anchor_b − anchor_a, n)`.
                separation: cp.base_separation - dc.dot(normal),
                id: cp.id,
            };
        }
        ContactCache {
            normal,
            count: points.len() as u32,
            margin,
            points: cached,
            rotation_a: ba.transform.q,
            rotation_b: bb.transform.q,
            relative: ba.transform.inv_mul(bb.transform),
        }
    }
}

/// The manifold of constraint points `points` (normal `normal`, body A's centre of mass
/// `ca`): each point at A's anchor, its depth the points' current separation negated. For
/// the begin event of a recycled contact.
pub(super) fn manifold_of(normal: Vec2, points: &[ConstraintPoint], ca: Vec2) -> Manifold {
    let mut m = Manifold {
        normal,
        count: points.len() as u32,
        ..Manifold::default()
    };
    for (mp, cp) in m.points.iter_mut().zip(points) {
        mp.point = ca + cp.anchor_a;
        mp.depth = -(cp.base_separation + (cp.anchor_b - cp.anchor_a).dot(normal));
        mp.id = cp.id;
    }
    m
}

/// How much a pair's speculative margin may have grown since its manifold was computed for
/// the manifold to be recycled (m): Box2D's linear slop, `SPECULATIVE_DISTANCE / 4`, the
/// penetration a point missing from the manifold can then reach in a step.
pub(super) const MARGIN_GROWTH: f32 = SPECULATIVE_DISTANCE / 4.0;

/// Contact recycling (Box2D v3): when the pair has moved relative to itself by less than
/// the recycle distance since its last full manifold (translation plus the largest moving
/// body's reach times the sine of the turn; the speculative distance for pairs not
/// touching) and neither body turned by more than about 11°, the last manifold is reused:
/// same normal and feature ids, each point's two material points (one on each body) carried
/// along by their bodies' motion, the separation between them updated from the bodies'
/// current centres and turns (as the solver does in sub-steps). The constraint acts at one
/// point for both bodies: midway between the two material points, or at the moving body's
/// against a fixed one (where a fresh manifold puts it). Box2D v3 instead keeps each body's
/// own anchor unturned; equal and opposite impulses at two points up to the recycle distance
/// apart add a spurious torque, and in the spinner capsules spun up by it were pushed through
/// the ring (11 escapes in eight perturbed 1 500-step runs, against 2 with one point). The
/// effective masses and the approach speed are worked out for the current anchors and
/// velocities.
///
/// Unlike Box2D's, this world's speculative margin grows with the pair's speed (see
/// [`speculative_margin`]), so recycling also requires this step's margin (`touching.1`) to
/// exceed the one the manifold was computed with by at most [`MARGIN_GROWTH`]: the manifold
/// holds only the points that were within its margin, and a pair that sped up would miss the
/// speculative points its new speed needs. `None` when the manifold must be computed again.
#[cfg(test)]
pub(super) fn recycle(
    cache: &ContactCache,
    a: (&Body, &Hot),
    b: (&Body, &Hot),
    touching: (bool, f32),
    distance: f32,
) -> Option<[ConstraintPoint; 2]> {
    let mut points = [ConstraintPoint::default(); 2];
    let (ba, sa) = a;
    let (bb, sb) = b;
    recycle_into(
        cache,
        (ba, sa, ba.center()),
        (bb, sb, bb.center()),
        touching,
        distance,
        &mut points,
    )
    .then_some(points)
}

/// [`recycle`] writing the first `cache.count` points into `out` (left unchanged when it
/// returns `false`): the narrow phase's form, given the bodies' centres of mass.
#[inline]
pub(super) fn recycle_into(
    cache: &ContactCache,
    a: (&Body, &Hot, Vec2),
    b: (&Body, &Hot, Vec2),
    (touching, margin): (bool, f32),
    distance: f32,
    out: &mut [ConstraintPoint; 2],
) -> bool {
    let ((ba, sa, ca), (bb, sb, cb)) = (a, b);
    if !(margin <= cache.margin + MARGIN_GROWTH) {
        return false;
    }
    // A pair with a kinematic body is recomputed every step: the rules below treat a body of
    // zero inverse mass as fixed (no reach), and a turning kinematic body breaks that (the
    // spinner's bar pushed bodies through the ring). Kinematic bodies are few, so this costs
    // little.
    let kinematic = |body: &Body, hot: &Hot| body.inv_mass == 0.0 && hot.awake_index != super::NONE;
    if kinematic(ba, sa) || kinematic(bb, sb) {
        return false;
    }
    let (qa, qb) = (ba.transform.q, bb.transform.q);
    let turn = |hot: &Hot, q: Rot, q0: Rot| if hot.round { Rot::IDENTITY } else { q0.inv_mul(q) };
    let turn_a = turn(sa, qa, cache.rotation_a);
    let turn_b = turn(sb, qb, cache.rotation_b);
    if !(turn_a.c.min(turn_b.c) > CONTACT_RECYCLE_COS_ANGLE) {
        return false;
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
    // A manifold with fewer points than the pair can have (two, unless a body is a circle)
    // leaves out the points that were beyond its margin: the far corner of a box landing
    // tilted, say. Once the pair has closed in by more than the margin has to spare, such a
    // point can be inside this step's margin, and the step would miss its speculative
    // constraint (the box lands on one corner and tips). Every point of a recycled manifold
    // may move by the pair's motion, so that motion is held within the margin's spare.
    let count = (cache.count as usize).min(2);
    let tolerance = if count < 2 && !(sa.round || sb.round) {
        tolerance.min(cache.margin + MARGIN_GROWTH - margin)
    } else {
        tolerance
    };
    // translation + reach·|sin(turn)| < tolerance, without a square root.
    let room = tolerance - reach(ba, sa).max(reach(bb, sb)) * turn.s.abs();
    if !(room > 0.0 && relative.p.distance_squared(cache.relative.p) < room * room) {
        return false;
    }
    let n = cache.normal;
    let dc = cb - ca;
    let (ma, mb) = (ba.inv_mass, bb.inv_mass);
    for (cp, p) in out.iter_mut().zip(&cache.points[..count]) {
        // The two material points the manifold point was on, now (the anchors turn with
        // their bodies; a round body's turn moves no contact), and the gap between them.
        let (ra, rb) = (turn_a.rotate(p.anchor_a), turn_b.rotate(p.anchor_b));
        let gap = dc + (rb - ra);
        // The contact acts at one point for both bodies (equal and opposite impulses at two
        // different points would add a torque): against a fixed body the moving body's
        // material point (where a fresh manifold puts it), else midway between the two.
        let ra = if ma == 0.0 {
            rb + dc
        } else if mb == 0.0 {
            ra
        } else {
            ra + gap * 0.5
        };
        let rb = ra - dc;
        // The current separation, `separation + dot(gap, n)` with the cached separation
        // taken at zero gap, minus `dot(rb − ra, n) = −dot(dc, n)`.
        let base = p.separation + gap.dot(n) + dc.dot(n);
        *cp = solver::constraint_at((ra, rb), base, n, (ba, bb), p.id);
    }
    true
}

/// Room for `total` elements in `v`: exactly what the bound needs plus an eighth (Vec's own
/// doubling would reserve up to twice the bound in every array, for bounds real steps rarely
/// reach).
pub(super) fn room<T>(v: &mut Vec<T>, total: usize) -> Result<(), alloc::collections::TryReserveError> {
    if v.capacity() >= total {
        return Ok(());
    }
    v.try_reserve_exact((total + total / 8).saturating_sub(v.len()))
}

impl World {
    /// Room for the solver's bodies of this step, sized exactly now that the narrow phase has
    /// woken the bodies it touched (the constraints' blocks grew as they were filled), and for
    /// every contact touching now and every sensor overlap to end between this step and the
    /// next (their ends are queued, and lead the next step's end events): the narrow phase was
    /// the last to begin any, so `remove_body` and `set_filter` find the room kept. On
    /// failure the step stops here: the contacts forget last step's impulses (they start
    /// cold, so no stale index survives) and the bodies have not moved.
    pub(super) fn reserve_solver(&mut self) -> Result<(), SolverError> {
        let bodies = self.awake.len() + 1;
        // The queues are empty (this step took them into its events). The next step's end
        // events start with what they will hold, at most `touching`: `end` gets that room
        // now, so the calls between steps find `reserve_step`'s room for it kept too.
        let (touching, overlaps) = (self.touching_count, self.sensor_overlaps);
        if room(&mut self.solver_bodies, bodies).is_ok()
            && room(&mut self.solver_states, bodies).is_ok()
            && room(&mut self.solver_kicks, bodies).is_ok()
            && room(&mut self.queued_end, touching).is_ok()
            && room(&mut self.queued_sensor_end, overlaps).is_ok()
            && room(&mut self.end, touching).is_ok()
        {
            return Ok(());
        }
        self.forget_impulses();
        Err(SolverError::OutOfMemory)
    }

    /// After a failed allocation: the awake contacts start cold next step, so no stale index
    /// into the solver's arrays survives.
    pub(super) fn forget_impulses(&mut self) {
        for sim in &mut self.active {
            sim.solved = NONE;
        }
    }

    /// Makes room for everything one step can grow into, given `new` contacts from the broad
    /// phase: every per-step array is bounded by the bodies (slots) and the contacts the step
    /// starts with plus the new ones. After this the narrow phase allocates nothing; the
    /// solver's arrays are sized exactly after it ([`World::reserve_solver`]), and an island
    /// falls asleep only with room for its list and parked contacts (else it stays awake). An
    /// allocation failure here changes nothing but spare capacity.
    ///
    /// Every call that adds bodies or shapes keeps this room for `new_slots` more too
    /// ([`World::reserve_shapes`]), so waking bodies and removing them (which move contacts and
    /// bodies between these arrays, and queue the ends of touching contacts) never allocate
    /// between steps either: the queues of ends only grow as the touching and overlap counts
    /// shrink, and `reserve_solver` sized them for the counts the narrow phase left.
    pub(super) fn reserve_step(
        &mut self,
        new: usize,
        new_slots: usize,
    ) -> Result<(), alloc::collections::TryReserveError> {
        let bodies = self.slots.len() + new_slots;
        let slab = self.contacts.len() + new;
        let contacts = self.active.len() + self.parked.len() + new;
        room(&mut self.contacts, slab)?;
        room(&mut self.free_contacts, slab)?;
        room(&mut self.sleep_impulses, slab)?;
        self.pair_table.try_reserve(new)?;
        room(&mut self.active, contacts)?;
        room(&mut self.active_memory, contacts)?;
        // The parked slab grows only when an island falls asleep, which reserves its own room
        // (an island that cannot stays awake); its free list holds at most the slab.
        let parked = self.parked.len();
        room(&mut self.free_parked, parked)?;
        // A contact ends only if it touched when the step began, and begins only if it did not.
        // The step's own ends follow those queued since the last step.
        let touching = self.touching_count.min(contacts);
        let (queued, queued_sensor) = (self.queued_end.len(), self.queued_sensor_end.len());
        room(&mut self.begin, contacts - touching)?;
        room(&mut self.end, queued + touching)?;
        room(&mut self.sensor_begin, contacts)?;
        room(&mut self.sensor_end, queued_sensor + contacts)?;
        // Every contact touching now and every sensor overlap may end before the next step
        // (each end adds one to its queue and takes one from its count).
        room(&mut self.queued_end, queued + self.touching_count)?;
        room(&mut self.queued_sensor_end, queued_sensor + self.sensor_overlaps)?;
        room(&mut self.used_colors, bodies + 1)?;
        room(&mut self.parent, bodies)?;
        room(&mut self.rested, bodies)?;
        room(&mut self.tired, bodies)?;
        room(&mut self.links, contacts)?;
        room(&mut self.fast, bodies)?;
        room(&mut self.faults, bodies)?;
        room(&mut self.awake, bodies)?;
        room(&mut self.move_buffer, bodies)?;
        room(&mut self.free, bodies)?;
        let found = bodies.max(self.found.len());
        room(&mut self.found, found)?;
        let islands = self.islands.len();
        room(&mut self.free_islands, islands)?;
        Ok(())
    }
}
