//! Sleeping: per-step islands of rested bodies by union-find, sleeping islands, waking.

use super::*;

/// Root of `i` in the union-find forest `parent`, halving the path on the way.
fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let grand = parent[parent[i as usize] as usize];
        parent[i as usize] = grand;
        i = grand;
    }
    i
}

/// `World::rested` of an awake body that has not rested for [`TIME_TO_SLEEP`].
pub(super) const AWAKE: u8 = 0;
/// `World::rested` of a body that has rested for [`TIME_TO_SLEEP`].
pub(super) const RESTED: u8 = 1;
/// `World::rested` of a rested body touching one that has not (set by `update_sleep`).
const HELD: u8 = 2;

impl World {
    /// Makes sure the next [`World::new_island`] of one body allocates nothing: a recycled
    /// island with room for a member.
    pub(super) fn reserve_island(&mut self) -> Result<(), SolverError> {
        if let Some(&id) = self.free_islands.last() {
            let members = &mut self.islands[id as usize];
            return members.try_reserve(1).map_err(|_| SolverError::OutOfMemory);
        }
        let mut members = Vec::new();
        members.try_reserve(1).map_err(|_| SolverError::OutOfMemory)?;
        self.islands
            .try_reserve(1)
            .map_err(|_| SolverError::OutOfMemory)?;
        self.free_islands
            .try_reserve(1)
            .map_err(|_| SolverError::OutOfMemory)?;
        self.islands.push(members);
        self.free_islands.push((self.islands.len() - 1) as u32);
        Ok(())
    }

    /// Puts `bodies` (awake or just added) to sleep together as one island: they leave the
    /// awake list with zero velocity, and every contact left without an awake body leaves
    /// the work list. `false`, changing nothing, when the island's member list cannot be
    /// allocated (the bodies stay awake).
    pub(super) fn new_island(&mut self, bodies: &[u32]) -> bool {
        // Room in the parked slab for every awake contact of these bodies (an upper bound on
        // those that leave the work list), and in its free list for all of it.
        let mut parking = 0;
        for &s in bodies {
            let mut e = self.slots[s as usize].contact_head;
            while e != NONE {
                let contact = &self.contacts[(e >> 1) as usize];
                parking += usize::from(contact.active_index != NONE);
                e = contact.next[(e & 1) as usize];
            }
        }
        let slab = self.parked.len() + parking.saturating_sub(self.free_parked.len());
        if self.parked.try_reserve(slab - self.parked.len()).is_err()
            || self
                .free_parked
                .try_reserve(slab.saturating_sub(self.free_parked.len()))
                .is_err()
        {
            return false;
        }
        let id = match self.free_islands.last() {
            Some(&id) => id,
            None => {
                if self.islands.try_reserve(1).is_err() || self.free_islands.try_reserve(1).is_err() {
                    return false;
                }
                self.islands.push(Vec::new());
                self.free_islands.push((self.islands.len() - 1) as u32);
                (self.islands.len() - 1) as u32
            }
        };
        let mut members = core::mem::take(&mut self.islands[id as usize]);
        members.clear();
        if members.try_reserve(bodies.len()).is_err() {
            self.islands[id as usize] = members;
            return false;
        }
        self.free_islands.pop();
        members.extend_from_slice(bodies);
        for &s in bodies {
            self.remove_awake(s);
            self.hot[s as usize].island = id;
            self.hot[s as usize].spin = 0.0;
            self.hot[s as usize].velocity = Vec2::ZERO;
            let b = &mut self.bodies[s as usize];
            b.linear_velocity = Vec2::ZERO;
            b.angular_velocity = 0.0;
        }
        for &s in bodies {
            let mut e = self.slots[s as usize].contact_head;
            while e != NONE {
                let c = e >> 1;
                let contact = &self.contacts[c as usize];
                e = contact.next[(e & 1) as usize];
                let (a, b) = (contact.oa, contact.ob);
                if !self.is_awake_slot(a) && !self.is_awake_slot(b) {
                    self.deactivate(c);
                }
            }
        }
        self.islands[id as usize] = members;
        true
    }

    /// Wakes the island of body `s` (no-op for awake and static bodies).
    pub(super) fn wake_body(&mut self, s: u32) {
        let id = self.hot[s as usize].island;
        if id == NONE {
            return;
        }
        let members = core::mem::take(&mut self.islands[id as usize]);
        for &m in &members {
            self.hot[m as usize].island = NONE;
            self.slots[m as usize].sleep_time = 0.0;
            self.push_awake(m);
        }
        for &m in &members {
            let mut e = self.slots[m as usize].contact_head;
            while e != NONE {
                let c = e >> 1;
                e = self.contacts[c as usize].next[(e & 1) as usize];
                self.activate(c);
            }
        }
        // Keep the allocation for the next island that falls asleep.
        self.islands[id as usize] = members;
        self.islands[id as usize].clear();
        self.free_islands.push(id);
    }

    /// Wakes every sleeping body that touches body `s`.
    pub(super) fn wake_touching(&mut self, s: u32) {
        let mut e = self.slots[s as usize].contact_head;
        while e != NONE {
            let contact = &self.contacts[(e >> 1) as usize];
            e = contact.next[(e & 1) as usize];
            if contact.touching && !contact.sensor {
                let other = contact.other(s);
                self.wake_body(other);
            }
        }
    }

    /// Puts to sleep every island (bodies connected by this step's touching constraints
    /// between non-static bodies) whose bodies have all rested for [`TIME_TO_SLEEP`].
    pub(super) fn update_sleep(&mut self) {
        // An island sleeps when every body in it has rested for TIME_TO_SLEEP. Only the
        // rested bodies (listed by `finalize_bodies`) are grouped, among themselves, by
        // union-find over this step's touching constraints between moving bodies (`links`,
        // listed by the narrow phase); a group touching a moving body that has not rested is
        // held awake. A group of rested bodies that nothing holds is exactly a whole island
        // of rested bodies. Per constraint this reads two flags; the union-find runs on the
        // rested pairs only.
        if !self.sleep_enabled || self.scratch.tired.is_empty() {
            return;
        }
        // Only the rested bodies' entries are read (unions stay among them).
        let n = self.awake.len();
        if self.scratch.parent.len() < n {
            self.scratch.parent.resize(n, 0);
        }
        for k in 0..self.scratch.tired.len() {
            let t = self.scratch.tired[k];
            self.scratch.parent[t as usize] = t;
        }
        for k in 0..self.scratch.links.len() {
            let (ka, kb) = self.scratch.links[k];
            match (self.scratch.rested[ka as usize], self.scratch.rested[kb as usize]) {
                (AWAKE, AWAKE) => {}
                (AWAKE, _) => self.scratch.rested[kb as usize] = HELD,
                (_, AWAKE) => self.scratch.rested[ka as usize] = HELD,
                _ => {
                    let (ra, rb) = (
                        find(&mut self.scratch.parent, ka),
                        find(&mut self.scratch.parent, kb),
                    );
                    // The smaller root wins: deterministic, and roots stay the lowest index.
                    let (lo, hi) = (ra.min(rb), ra.max(rb));
                    self.scratch.parent[hi as usize] = lo;
                }
            }
        }
        // A group is held when any of its bodies is: mark the roots.
        for k in 0..self.scratch.tired.len() {
            let t = self.scratch.tired[k];
            if self.scratch.rested[t as usize] == HELD {
                let r = find(&mut self.scratch.parent, t);
                self.scratch.rested[r as usize] = HELD;
            }
        }
        // Sleepy islands in order of their root (the lowest awake index of the island);
        // `found` is free scratch here.
        self.scratch.found.clear();
        for k in 0..self.scratch.tired.len() {
            let t = self.scratch.tired[k];
            let r = find(&mut self.scratch.parent, t);
            if self.scratch.rested[r as usize] == RESTED {
                self.scratch.found.push((r, self.awake[t as usize]));
            }
        }
        if self.scratch.found.is_empty() {
            return;
        }
        self.scratch.found.sort_unstable();
        // Out of memory for the list of a sleepy island's bodies: they stay awake this step.
        let mut group = Vec::new();
        if group.try_reserve(self.scratch.found.len()).is_err() {
            return;
        }
        let mut k = 0;
        while k < self.scratch.found.len() {
            let r = self.scratch.found[k].0;
            group.clear();
            while k < self.scratch.found.len() && self.scratch.found[k].0 == r {
                group.push(self.scratch.found[k].1);
                k += 1;
            }
            self.new_island(&group);
        }
    }

    /// Whether the body is awake. Static bodies are never awake; kinematic and dynamic
    /// bodies are awake unless their island sleeps.
    pub fn is_awake(&self, id: BodyId) -> Result<bool, SolverError> {
        self.slot(id).map(|i| self.hot[i].awake_index != NONE)
    }

    /// Wakes a body with its sleeping island (`true`), or puts to sleep at once the body
    /// and every body connected to it through touching contacts between non-static bodies
    /// (`false`, Box2D's `b2Body_SetAwake(false)`). No-op for static bodies; `false` is
    /// ignored when sleeping is disabled for the world or for one of those bodies.
    ///
    /// Errors with [`SolverError::InvalidBody`] for a stale id. Putting to sleep allocates
    /// (the list of connected bodies and their island): it errors with
    /// [`SolverError::OutOfMemory`] when that memory is not there, and the bodies then stay
    /// awake as they were. Waking allocates nothing.
    pub fn set_awake(&mut self, id: BodyId, awake: bool) -> Result<(), SolverError> {
        let i = self.slot(id)? as u32;
        if self.slots[i as usize].kind == BodyKind::Static {
            return Ok(());
        }
        if awake {
            self.wake_body(i);
            return Ok(());
        }
        if self.hot[i as usize].awake_index == NONE {
            return Ok(());
        }
        // The connected awake bodies, by depth-first search over touching contacts. An awake
        // body's island is NONE; a visited one is marked in it for the walk (O(group), nothing
        // proportional to the world), and the marks are cleared unless the group sleeps.
        const MARK: u32 = NONE - 1;
        let mut group = Vec::new();
        if group.try_reserve(1).is_err() {
            return Err(SolverError::OutOfMemory);
        }
        group.push(i);
        self.hot[i as usize].island = MARK;
        let mut failed = false;
        let mut k = 0;
        'walk: while k < group.len() {
            let s = group[k];
            k += 1;
            let mut e = self.slots[s as usize].contact_head;
            while e != NONE {
                let contact = &self.contacts[(e >> 1) as usize];
                e = contact.next[(e & 1) as usize];
                let o = contact.other(s);
                let hot = &self.hot[o as usize];
                if contact.touching && !contact.sensor && hot.awake_index != NONE && hot.island != MARK {
                    if group.try_reserve(1).is_err() {
                        failed = true;
                        break 'walk;
                    }
                    self.hot[o as usize].island = MARK;
                    group.push(o);
                }
            }
            // Jointed bodies sleep together.
            let mut e = self.slots[s as usize].joint_head;
            while e != NONE {
                let joint = &self.joints[(e >> 1) as usize];
                e = joint.next[(e & 1) as usize];
                let o = joint.other(s);
                let hot = &self.hot[o as usize];
                if joint.enabled && hot.awake_index != NONE && hot.island != MARK {
                    if group.try_reserve(1).is_err() {
                        failed = true;
                        break 'walk;
                    }
                    self.hot[o as usize].island = MARK;
                    group.push(o);
                }
            }
        }
        let eligible =
            !failed && self.sleep_enabled && group.iter().all(|&s| self.slots[s as usize].enable_sleep);
        // `new_island` sets every member's island.
        if eligible && self.new_island(&group) {
            return Ok(());
        }
        for &s in &group {
            self.hot[s as usize].island = NONE;
        }
        if failed || eligible {
            Err(SolverError::OutOfMemory)
        } else {
            Ok(())
        }
    }

    /// Allows or forbids sleeping for the whole world (default allowed). Forbidding wakes
    /// every sleeping body.
    pub fn set_sleep_enabled(&mut self, enabled: bool) {
        self.sleep_enabled = enabled;
        if !enabled {
            for id in 0..self.islands.len() {
                if let Some(&s) = self.islands[id].first() {
                    self.wake_body(s);
                }
            }
            for &s in &self.awake {
                self.slots[s as usize].sleep_time = 0.0;
            }
        }
    }

    /// Whether sleeping is allowed for the world.
    #[must_use]
    pub fn sleep_enabled(&self) -> bool {
        self.sleep_enabled
    }

    /// Allows or forbids sleeping for one body (Box2D's `enableSleep`). Forbidding wakes it
    /// (with its island) and keeps every island it joins awake.
    pub fn set_body_sleep_enabled(&mut self, id: BodyId, enabled: bool) -> Result<(), SolverError> {
        let i = self.slot(id)?;
        self.slots[i].enable_sleep = enabled;
        if !enabled {
            self.wake_body(i as u32);
            self.slots[i].sleep_time = 0.0;
        }
        Ok(())
    }

    /// Whether the body may sleep.
    pub fn body_sleep_enabled(&self, id: BodyId) -> Result<bool, SolverError> {
        self.slot(id).map(|i| self.slots[i].enable_sleep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Polygon;
    use crate::world::BodyDef;
    use alloc::vec;

    /// The islands of the awake bodies by brute force: breadth-first search over every
    /// touching, non-sensor contact of the slab between two awake bodies.
    fn awake_components(w: &World) -> Vec<Vec<u32>> {
        let awake: Vec<u32> = w.awake.clone();
        let mut seen = vec![false; w.slots.len()];
        let mut out = Vec::new();
        for &start in &awake {
            if seen[start as usize] {
                continue;
            }
            seen[start as usize] = true;
            let mut group = vec![start];
            let mut k = 0;
            while k < group.len() {
                let s = group[k];
                k += 1;
                for c in &w.contacts {
                    if c.a == NONE || !c.touching || c.sensor || (c.oa != s && c.ob != s) {
                        continue;
                    }
                    let o = c.other(s);
                    if w.hot[o as usize].awake_index != NONE && !seen[o as usize] {
                        seen[o as usize] = true;
                        group.push(o);
                    }
                }
            }
            out.push(group);
        }
        out
    }

    /// Rows of small stacks and piles on a ground, some held awake (a body that may not
    /// sleep, a body nudged every few steps, a kinematic body turning slowly inside a
    /// pile), stepped with sleeping on. After every step, checked against a brute-force
    /// grouping: no awake island is left whose bodies have all rested for TIME_TO_SLEEP;
    /// every body that fell asleep in the step had rested that long, and no sleeping body
    /// touches an awake moving one (its whole island slept with it).
    #[test]
    fn islands_sleep_exactly_when_every_member_has_rested() {
        for seed in 0..6u32 {
            let mut w = World::default();
            let ground = Polygon::make_box(60.0, 0.5).unwrap();
            w.add_body(&BodyDef::new(
                BodyKind::Static,
                Transform::from_translation(Vec2::new(0.0, -0.5)),
                Shape::Polygon(ground),
            ))
            .unwrap();
            let mut nudged = Vec::new();
            for col in 0..10u32 {
                let x = -50.0 + 10.0 * col as f32;
                let h = 1 + (col * 7 + seed * 3) % 5;
                for row in 0..h {
                    let size = 0.3 + 0.05 * ((col + row + seed) % 4) as f32;
                    let shape = Polygon::make_box(size, 0.4).unwrap();
                    let mut d = BodyDef::new(
                        BodyKind::Dynamic,
                        Transform::from_translation(Vec2::new(
                            x + 0.02 * row as f32,
                            0.4 + 0.81 * row as f32,
                        )),
                        Shape::Polygon(shape),
                    );
                    d.enable_sleep = !(col == 3 && row == h - 1);
                    let id = w.add_body(&d).unwrap();
                    if col == (seed % 4) * 2 + 1 && row == 0 {
                        nudged.push(id);
                    }
                }
                if col == 8 {
                    let mut k = BodyDef::new(
                        BodyKind::Kinematic,
                        Transform::from_translation(Vec2::new(x + 2.0, 0.5)),
                        Shape::circle(0.3),
                    );
                    k.angular_velocity = 0.2;
                    w.add_body(&k).unwrap();
                    w.add_body(&BodyDef::new(
                        BodyKind::Dynamic,
                        Transform::from_translation(Vec2::new(x + 2.0, 1.1)),
                        Shape::circle(0.25),
                    ))
                    .unwrap();
                }
            }
            let mut slept_some = false;
            for step in 0..400 {
                if step % 37 == 0 && step < 200 {
                    for &id in &nudged {
                        w.apply_linear_impulse_to_center(id, Vec2::new(0.3, 0.0)).unwrap();
                    }
                }
                let was_awake: Vec<bool> = (0..w.slots.len()).map(|s| w.hot[s].awake_index != NONE).collect();
                w.step(1.0 / 60.0, 4).unwrap();
                for group in awake_components(&w) {
                    let all_rested = group
                        .iter()
                        .all(|&s| w.slots[s as usize].sleep_time >= TIME_TO_SLEEP);
                    assert!(
                        !all_rested,
                        "seed {seed} step {step}: a rested island stayed awake: {group:?}"
                    );
                }
                for (s, &awake_before) in was_awake.iter().enumerate() {
                    let asleep = w.hot[s].island != NONE;
                    if asleep && awake_before {
                        slept_some = true;
                        assert!(
                            w.slots[s].sleep_time >= TIME_TO_SLEEP,
                            "seed {seed}: slept unrested"
                        );
                    }
                    if !asleep {
                        continue;
                    }
                    for c in &w.contacts {
                        if c.a != NONE && c.touching && !c.sensor && (c.oa == s as u32 || c.ob == s as u32) {
                            let o = c.other(s as u32);
                            assert_eq!(
                                w.hot[o as usize].awake_index, NONE,
                                "seed {seed} step {step}: a sleeping body touches an awake one"
                            );
                        }
                    }
                }
            }
            assert!(slept_some, "seed {seed}: nothing fell asleep");
            // The stack with a body that may not sleep, and the pile with the kinematic
            // body, stay awake.
            assert!(w.awake_body_count() > 0);
        }
    }
}
