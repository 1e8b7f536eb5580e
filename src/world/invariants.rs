//! The world's bookkeeping checked against a recount (`World::check_invariants`), for tests
//! and fuzzing.

use super::*;

/// What [`World::check_invariants`] returns when it cannot allocate its marks.
pub(super) const OUT_OF_MEMORY: &str = "out of memory for the check's marks";

impl World {
    /// Checks that every live body is finite, and the world's bookkeeping against a recount:
    /// the pair table, the contact slab,
    /// every body's contact list, the awake list, the awake work list, the sleeping islands
    /// and the touching count; and that every dynamic-involving pair of live bodies whose fat
    /// boxes overlap has a contact once the broad phase has run (`broad_phase_current`).
    /// O(bodies + contacts), and O(bodies²) with `broad_phase_current`; for tests, fuzzing
    /// and restoring snapshots. Returns the first broken invariant.
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
        // Marks, one per contact edge (and later one per slot): the lists are checked in one
        // pass each, not by searching a list per contact.
        let mut seen: Vec<bool> = Vec::new();
        let marks = (2 * self.contacts.len()).max(self.slots.len());
        if seen.try_reserve_exact(marks).is_err() {
            return Err(OUT_OF_MEMORY);
        }
        seen.resize(marks, false);
        let mut sleeping = 0usize;
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
            // The contact's place first: its sim is read from there.
            if (contact.active_index == NONE) == (contact.parked == NONE) {
                return Err("contact neither active nor parked, or both");
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
            parked += usize::from(contact.parked != NONE);
            touching += usize::from(contact.touching && !contact.sensor);
            overlaps += usize::from(contact.touching && contact.sensor);
            if sim.sensor != contact.sensor {
                return Err("sensor flag out of step");
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
            sleeping += usize::from(asleep);
            // Each edge on the list names a contact of this body, on this body's side, once.
            let mut e = slot.contact_head;
            while e != NONE && list_total <= 2 * self.contacts.len() {
                list_total += 1;
                let contact = &self.contacts[(e >> 1) as usize];
                let owner = if e & 1 == 0 { contact.oa } else { contact.ob };
                if contact.a == NONE || owner != s as u32 || core::mem::replace(&mut seen[e as usize], true) {
                    return Err("a body's contact list names a contact of another body, or twice");
                }
                e = contact.next[(e & 1) as usize];
            }
        }
        if list_total != 2 * count {
            return Err("contact lists hold more edges than contacts");
        }
        // With every listed edge distinct and live and as many edges as contacts have sides,
        // every contact is on both of its bodies' lists.
        // Islands: every member sleeps in it, each body once; with as many members as
        // sleeping bodies, every sleeping body is in its island.
        let mut members = 0usize;
        let listed = &mut seen[..];
        listed.fill(false);
        for (i, island) in self.islands.iter().enumerate() {
            for &m in island {
                members += 1;
                let ok = self.hot.get(m as usize).is_some_and(|h| h.island == i as u32)
                    && !core::mem::replace(&mut listed[m as usize], true);
                if !ok {
                    return Err("island member sleeps elsewhere, or is listed twice");
                }
            }
        }
        if members != sleeping {
            return Err("sleeping body missing from its island");
        }
        self.check_restored_joints()
            .map_err(|_| "joint store, joint lists or a joint's settings out of step")?;
        if !broad_phase_current {
            return Ok(());
        }
        for a in 0..self.slots.len() as u32 {
            for b in a + 1..self.slots.len() as u32 {
                if !(live(a) && live(b) && Self::should_collide(&self.slots, &self.joints, a, b)) {
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
}
