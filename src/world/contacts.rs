//! Contact bookkeeping: the contact slab, the per-body contact lists, the awake work list,
//! the broad phase (new pairs from the move buffer) and the narrow phase.
//!
//! Every operation here is O(1) per contact that begins, ends, wakes or sleeps: a contact is
//! found through the pair table, unlinked from its two bodies' doubly linked lists, and
//! swap-removed from the awake list. Nothing proportional to the number of pairs is moved
//! when one pair changes (the sorted pair array this replaces spent 82–95 % of busy steps in
//! `memmove`).

use super::*;

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
    /// The graph colour the contact's constraint had when last solved (`NO_COLOR`: none):
    /// tried first when it is next coloured, so that a touching contact keeps its colour
    /// while its bodies' other constraints allow (Box2D's persistent constraint graph).
    pub(super) color: u8,
}

/// `ContactSim::color` of a contact without a colour (never solved, or given a block of its
/// own).
pub(super) const NO_COLOR: u8 = u8::MAX;

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

impl World {
    /// Whether a body slot is an awake (kinematic or dynamic) body (pass the owner of an
    /// extra shape's slot).
    pub(super) fn is_awake_slot(&self, s: u32) -> bool {
        self.hot[s as usize].awake_index != NONE
    }

    /// The solver index of a body this step: 0 for static (and, never used, sleeping)
    /// bodies, `awake_index + 1` for awake ones.
    pub(super) fn solver_index(&self, s: u32) -> u32 {
        match self.hot[s as usize].awake_index {
            NONE => 0,
            k => k + 1,
        }
    }

    /// Whether the broad phase should make a contact for shapes (slots) `a` and `b`: of two
    /// different bodies, filters agree, not two sensors, no enabled joint between the bodies
    /// that keeps them apart; then a sensor pair needs one moving (non-static) body, a solid
    /// pair one dynamic body.
    pub(super) fn should_collide(slots: &[Slot], joints: &[joints::JointSlot], a: u32, b: u32) -> bool {
        let (sa, sb) = (&slots[a as usize], &slots[b as usize]);
        let owner = |s: u32, slot: &Slot| if slot.parent == NONE { s } else { slot.parent };
        let (oa, ob) = (owner(a, sa), owner(b, sb));
        if oa == ob || (sa.sensor && sb.sensor) || !sa.filter.should_collide(&sb.filter) {
            return false;
        }
        let kinds = if sa.sensor || sb.sensor {
            sa.kind != BodyKind::Static || sb.kind != BodyKind::Static
        } else {
            sa.kind == BodyKind::Dynamic || sb.kind == BodyKind::Dynamic
        };
        kinds && !Self::joined_apart(slots, joints, oa, ob)
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
        let scratch = &mut self.scratch.rebuild;
        if scratch.len() >= proxies || scratch.try_reserve(proxies - scratch.len()).is_ok() {
            scratch.resize(scratch.len().max(proxies), 0);
            let _ = self.tree.rebuild_enlarged(scratch);
        }
        let moved = core::mem::take(&mut self.move_buffer);
        self.scratch.found.clear();
        let mut failed = false;
        let (slots, joints, found, table) = (
            &self.slots,
            &self.joints,
            &mut self.scratch.found,
            &self.pair_table,
        );
        // Only pairs without a contact are kept: most pairs a moved proxy reports already have
        // one, and each is looked up once, here.
        let mut report = |_: ProxyId, ua: u64, _: ProxyId, ub: u64| {
            let (a, b) = (ua as u32, ub as u32);
            if table.get(pair_key(a, b)).is_none() && Self::should_collide(slots, joints, a, b) {
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
        let new = self.scratch.found.len();
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
        for k in 0..self.scratch.found.len() {
            let (a, b) = self.scratch.found[k];
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
            color: NO_COLOR,
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
    pub(super) fn sensor_event(&self, a: u32, b: u32) -> SensorEvent {
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
    pub(super) fn end_event(&self, a: u32, b: u32) -> ContactEvent {
        ContactEvent {
            body_a: self.id_of(a),
            body_b: self.id_of(b),
            manifold: Manifold::default(),
            shape_a: self.shape_id_of(a),
            shape_b: self.shape_id_of(b),
        }
    }
}

impl World {
    /// Runs the broad phase alone (for tests: afterwards every overlapping pair has a
    /// contact, see [`World::check_invariants`]).
    #[doc(hidden)]
    pub fn update_broad_phase(&mut self) -> Result<(), SolverError> {
        self.update_pairs(None)
    }
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
        if room(&mut self.scratch.solver_bodies, bodies).is_ok()
            && room(&mut self.scratch.solver_states, bodies).is_ok()
            && room(&mut self.scratch.solver_kicks, bodies).is_ok()
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
        room(&mut self.scratch.used_colors, bodies + 1)?;
        room(&mut self.scratch.parent, bodies)?;
        room(&mut self.scratch.rested, bodies)?;
        room(&mut self.scratch.tired, bodies)?;
        let joints = self.joint_count();
        room(&mut self.scratch.links, contacts + joints)?;
        room(&mut self.scratch.parting, contacts)?;
        room(&mut self.scratch.fast, bodies)?;
        room(&mut self.scratch.landed, contacts)?;
        room(&mut self.faults, bodies)?;
        room(&mut self.awake, bodies)?;
        room(&mut self.move_buffer, bodies)?;
        room(&mut self.free, bodies)?;
        let found = bodies.max(self.scratch.found.len());
        room(&mut self.scratch.found, found)?;
        let islands = self.islands.len();
        room(&mut self.free_islands, islands)?;
        Ok(())
    }
}
