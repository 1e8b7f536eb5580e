//! Joints between a world's bodies (`World::add_joint`): their store, their ids, the lists
//! of joints on each body, and their part of a step (gathered from the awake bodies,
//! prepared, solved with the contacts, checked against their break thresholds).

use super::contacts::room;
use super::*;
use crate::solver::{HingeSim, JointBody, JointImpulses, JointKind, JointSim};

/// A joint's id: its slot and generation (with the world's tag), like [`BodyId`]. An id of
/// a removed joint or of another world is refused with [`SolverError::InvalidJoint`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JointId {
    /// Slot index.
    pub index: u32,
    /// The world's tag (high 16 bits) and the slot's use count (low 16 bits, never 0).
    pub generation: u32,
}

/// A joint to add ([`World::add_joint`]): its kind and settings, the two bodies, a frame on
/// each (in the body's frame: the anchor point and the joint's axes; see
/// [`JointKind`](crate::solver::JointKind)), and what the step does with it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointDef {
    /// The kind and its settings.
    pub kind: JointKind,
    /// Body A.
    pub body_a: BodyId,
    /// Body B (not A).
    pub body_b: BodyId,
    /// The joint frame on body A, in A's body frame (the frame of its shapes).
    pub local_frame_a: Transform,
    /// The joint frame on body B, in B's body frame.
    pub local_frame_b: Transform,
    /// The constraint force (N) above which the joint breaks: it is disabled at the end of
    /// the step and reported in [`World::joint_events`] (default `f32::MAX`: never).
    pub force_threshold: f32,
    /// The constraint torque (N·m) above which the joint breaks (default `f32::MAX`).
    pub torque_threshold: f32,
    /// Stiffness of the rigid parts (Hz, default 60, Box2D's; capped at a quarter of the
    /// sub-step rate).
    pub constraint_hertz: f32,
    /// Damping ratio of the rigid parts (default 2, Box2D's).
    pub constraint_damping_ratio: f32,
    /// The game's data, returned by [`World::joint_user_data`].
    pub user_data: u64,
    /// Whether the two bodies still collide with each other (default `false`).
    pub collide_connected: bool,
}

impl JointDef {
    /// A joint of `kind` between `a` and `b` with frames at the bodies' origins and Box2D's
    /// defaults for the rest.
    #[must_use]
    pub fn new(kind: JointKind, a: BodyId, b: BodyId) -> JointDef {
        JointDef {
            kind,
            body_a: a,
            body_b: b,
            local_frame_a: Transform::IDENTITY,
            local_frame_b: Transform::IDENTITY,
            collide_connected: false,
            force_threshold: f32::MAX,
            torque_threshold: f32::MAX,
            constraint_hertz: 60.0,
            constraint_damping_ratio: 2.0,
            user_data: 0,
        }
    }

    /// This definition with the frames placed at the world point `anchor` (both frames'
    /// x axes along the world's x axis, turned into each body's frame) for bodies at `xa`
    /// and `xb`: how a hinge or a weld is usually placed.
    #[must_use]
    pub fn at_world_anchor(self, anchor: Vec2, xa: Transform, xb: Transform) -> JointDef {
        JointDef {
            local_frame_a: xa.inv_mul(Transform {
                p: anchor,
                q: Rot::IDENTITY,
            }),
            local_frame_b: xb.inv_mul(Transform {
                p: anchor,
                q: Rot::IDENTITY,
            }),
            ..self
        }
    }
}

/// Why a joint left the world or stopped working (see [`World::joint_events`]).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointEventKind {
    /// Its force or torque passed its threshold: it is disabled (still in the world; enable
    /// it again or remove it).
    Broke = 0,
    /// One of its bodies was removed, and the joint with it.
    BodyRemoved = 1,
}

/// A joint that broke or was removed with a body.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointEvent {
    /// The joint (stale when it was removed).
    pub joint: JointId,
    /// Its bodies (one of them stale when it was removed).
    pub body_a: BodyId,
    /// See `body_a`.
    pub body_b: BodyId,
    /// Why.
    pub kind: JointEventKind,
    /// The constraint force (N, world, on body B) of the step that broke it (zero otherwise).
    pub force: Vec2,
    /// The constraint torque (N·m) of the step that broke it (zero otherwise).
    pub torque: f32,
    /// The joint's user data.
    pub user_data: u64,
}

/// A joint in the store.
#[derive(Clone, Copy, Debug)]
pub(super) struct JointSlot {
    pub(super) generation: u32,
    pub(super) live: bool,
    pub(super) enabled: bool,
    pub(super) kind: JointKind,
    /// Body slots of A and B.
    pub(super) a: u32,
    pub(super) b: u32,
    pub(super) frame_a: Transform,
    pub(super) frame_b: Transform,
    pub(super) collide_connected: bool,
    pub(super) force_threshold: f32,
    pub(super) torque_threshold: f32,
    pub(super) hertz: f32,
    pub(super) damping_ratio: f32,
    pub(super) user_data: u64,
    pub(super) impulses: JointImpulses,
    /// Neighbours in the joint lists of body `a` (index 0) and `b` (index 1), as edge keys
    /// `joint << 1 | side`.
    pub(super) prev: [u32; 2],
    pub(super) next: [u32; 2],
}

impl JointSlot {
    /// The body of the joint that is not `s`.
    pub(super) fn other(&self, s: u32) -> u32 {
        if self.a == s {
            self.b
        } else {
            self.a
        }
    }
}

impl World {
    /// Adds a joint between two bodies (Box2D's `b2Create*Joint`). Both bodies are woken
    /// (jointed bodies sleep and wake together); with `collide_connected` false, contacts
    /// between them end (reported as ends by the next step) and none begins while the joint
    /// exists. Errors: [`SolverError::InvalidBody`] for a stale body id or A = B,
    /// [`SolverError::InvalidInput`] / [`SolverError::OutOfRange`] for settings outside the
    /// ranges of [`JointKind`]'s fields (non-finite, negative stiffness, damping, forces or
    /// thresholds, lengths or a frame beyond [`MAX_COORDINATE`](limits::MAX_COORDINATE), a
    /// lower limit above the upper), [`SolverError::OutOfMemory`] (nothing added).
    pub fn add_joint(&mut self, def: &JointDef) -> Result<JointId, SolverError> {
        let (a, b) = (self.slot(def.body_a)? as u32, self.slot(def.body_b)? as u32);
        if a == b {
            return Err(SolverError::InvalidBody);
        }
        limits::check_joint_def(def)?;
        let oom = |_| SolverError::OutOfMemory;
        if self.free_joints.is_empty() {
            self.joints.try_reserve(1).map_err(oom)?;
        }
        self.reserve_joint_step(1).map_err(oom)?;
        // Ending their contacts needs no room: the world keeps room for every touching
        // contact and sensor overlap to end between steps.
        let index = match self.free_joints.pop() {
            Some(i) => i,
            None => {
                self.joints.push(JointSlot {
                    generation: 0,
                    live: false,
                    enabled: false,
                    kind: JointKind::Filter,
                    a: NONE,
                    b: NONE,
                    frame_a: Transform::IDENTITY,
                    frame_b: Transform::IDENTITY,
                    collide_connected: false,
                    force_threshold: 0.0,
                    torque_threshold: 0.0,
                    hertz: 0.0,
                    damping_ratio: 0.0,
                    user_data: 0,
                    impulses: JointImpulses::default(),
                    prev: [NONE; 2],
                    next: [NONE; 2],
                });
                (self.joints.len() - 1) as u32
            }
        };
        let generation = self.tag | ((self.joints[index as usize].generation & 0xFFFF) % 0xFFFF + 1);
        self.joints[index as usize] = JointSlot {
            generation,
            live: true,
            enabled: true,
            kind: def.kind,
            a,
            b,
            frame_a: def.local_frame_a,
            frame_b: def.local_frame_b,
            collide_connected: def.collide_connected,
            force_threshold: def.force_threshold,
            torque_threshold: def.torque_threshold,
            hertz: def.constraint_hertz,
            damping_ratio: def.constraint_damping_ratio,
            user_data: def.user_data,
            impulses: JointImpulses::default(),
            prev: [NONE; 2],
            next: [NONE; 2],
        };
        self.link_joint(index);
        self.wake_body(a);
        self.wake_body(b);
        if !def.collide_connected {
            self.end_contacts_between(a, b);
        }
        Ok(JointId { index, generation })
    }

    /// The slot of a live joint.
    fn joint_slot(&self, id: JointId) -> Result<usize, SolverError> {
        match self.joints.get(id.index as usize) {
            Some(j) if j.live && j.generation == id.generation => Ok(id.index as usize),
            _ => Err(SolverError::InvalidJoint),
        }
    }

    /// Removes a joint; its bodies are woken and, when they did not collide, may collide
    /// again from the next step. Errors with [`SolverError::InvalidJoint`] for a stale id.
    pub fn remove_joint(&mut self, id: JointId) -> Result<(), SolverError> {
        let j = self.joint_slot(id)? as u32;
        self.drop_joint(j);
        Ok(())
    }

    /// Unlinks and frees joint `j`, waking its bodies and letting them collide again.
    pub(super) fn drop_joint(&mut self, j: u32) {
        let (a, b, collide) = {
            let joint = &self.joints[j as usize];
            (joint.a, joint.b, joint.collide_connected)
        };
        self.unlink_joint(j);
        let joint = &mut self.joints[j as usize];
        joint.live = false;
        joint.enabled = false;
        self.free_joints.push(j);
        self.wake_body(a);
        self.wake_body(b);
        if !collide {
            self.refind_pairs(a);
        }
    }

    /// Enables or disables a joint (a disabled joint is not solved and does not keep its
    /// bodies from colliding, but stays in the world with its id). Wakes its bodies; allocates
    /// nothing.
    pub fn set_joint_enabled(&mut self, id: JointId, enabled: bool) -> Result<(), SolverError> {
        let j = self.joint_slot(id)?;
        let joint = &mut self.joints[j];
        if joint.enabled == enabled {
            return Ok(());
        }
        let (a, b, collide) = (joint.a, joint.b, joint.collide_connected);
        joint.enabled = enabled;
        joint.impulses = JointImpulses::default();
        self.wake_body(a);
        self.wake_body(b);
        if !collide {
            if enabled {
                self.end_contacts_between(a, b);
            } else {
                self.refind_pairs(a);
            }
        }
        Ok(())
    }

    /// Whether the joint is enabled.
    pub fn joint_enabled(&self, id: JointId) -> Result<bool, SolverError> {
        Ok(self.joints[self.joint_slot(id)?].enabled)
    }

    /// The joint's definition as it is now (its settings, frames and thresholds).
    pub fn joint(&self, id: JointId) -> Result<JointDef, SolverError> {
        let j = &self.joints[self.joint_slot(id)?];
        Ok(JointDef {
            kind: j.kind,
            body_a: self.id_of(j.a),
            body_b: self.id_of(j.b),
            local_frame_a: j.frame_a,
            local_frame_b: j.frame_b,
            collide_connected: j.collide_connected,
            force_threshold: j.force_threshold,
            torque_threshold: j.torque_threshold,
            constraint_hertz: j.hertz,
            constraint_damping_ratio: j.damping_ratio,
            user_data: j.user_data,
        })
    }

    /// The joint's user data.
    pub fn joint_user_data(&self, id: JointId) -> Result<u64, SolverError> {
        Ok(self.joints[self.joint_slot(id)?].user_data)
    }

    /// Changes the joint's settings (a motor's speed, a spring's stiffness, limits): `kind`
    /// must be of the joint's kind ([`SolverError::Unsupported`] otherwise) and is checked as
    /// [`World::add_joint`] checks it. Wakes the bodies; the impulses are kept.
    pub fn set_joint_kind(&mut self, id: JointId, kind: JointKind) -> Result<(), SolverError> {
        let j = self.joint_slot(id)?;
        if core::mem::discriminant(&self.joints[j].kind) != core::mem::discriminant(&kind) {
            return Err(SolverError::Unsupported);
        }
        let mut def = self.joint(id)?;
        def.kind = kind;
        limits::check_joint_def(&def)?;
        self.joints[j].kind = kind;
        let (a, b) = (self.joints[j].a, self.joints[j].b);
        self.wake_body(a);
        self.wake_body(b);
        Ok(())
    }

    /// Moves the joint's frames (in each body's frame), checked as [`World::add_joint`]
    /// checks them; wakes the bodies. A motor joint dragging a body follows a moved frame A.
    pub fn set_joint_frames(
        &mut self,
        id: JointId,
        frame_a: Transform,
        frame_b: Transform,
    ) -> Result<(), SolverError> {
        let j = self.joint_slot(id)?;
        let mut def = self.joint(id)?;
        (def.local_frame_a, def.local_frame_b) = (frame_a, frame_b);
        limits::check_joint_def(&def)?;
        let joint = &mut self.joints[j];
        (joint.frame_a, joint.frame_b) = (frame_a, frame_b);
        let (a, b) = (joint.a, joint.b);
        self.wake_body(a);
        self.wake_body(b);
        Ok(())
    }

    /// Sets the force and torque above which the joint breaks (see
    /// [`JointDef::force_threshold`]): finite or `f32::MAX`, `>= 0`.
    pub fn set_joint_thresholds(&mut self, id: JointId, force: f32, torque: f32) -> Result<(), SolverError> {
        let j = self.joint_slot(id)?;
        let mut def = self.joint(id)?;
        (def.force_threshold, def.torque_threshold) = (force, torque);
        limits::check_joint_def(&def)?;
        (self.joints[j].force_threshold, self.joints[j].torque_threshold) = (force, torque);
        Ok(())
    }

    /// The joint's constraint force (N, world frame, applied to body B; A gets its opposite)
    /// and torque (N·m, counter-clockwise positive, on B) in the last sub-step of the last
    /// step: its impulses over the sub-step. Zero for a disabled or sleeping joint's first step.
    pub fn joint_reaction(&self, id: JointId) -> Result<(Vec2, f32), SolverError> {
        let j = &self.joints[self.joint_slot(id)?];
        let inv_h = self.settings.substeps as f32 / self.last_dt;
        let (xa, xb) = (
            self.bodies[j.a as usize].transform,
            self.bodies[j.b as usize].transform,
        );
        let axis = match j.kind {
            JointKind::Distance(_) => (xb.apply(j.frame_b.p) - xa.apply(j.frame_a.p)).normalize_or_zero(),
            _ => (xa.q * j.frame_a.q).x_axis(),
        };
        Ok(crate::solver::reaction(&j.kind, &j.impulses, axis, inv_h))
    }

    /// The joints of a body (ids), in the order of its joint list.
    pub fn joint_ids(&self, body: BodyId) -> Result<impl Iterator<Item = JointId> + '_, SolverError> {
        let s = self.slot(body)?;
        let mut e = self.slots[s].joint_head;
        Ok(core::iter::from_fn(move || {
            if e == NONE {
                return None;
            }
            let j = e >> 1;
            e = self.joints[j as usize].next[(e & 1) as usize];
            Some(JointId {
                index: j,
                generation: self.joints[j as usize].generation,
            })
        }))
    }

    /// The joints that broke in the last step, after the joints removed with their bodies
    /// since the step before.
    #[must_use]
    pub fn joint_events(&self) -> &[JointEvent] {
        &self.joint_events
    }

    /// Number of joints in the world.
    #[must_use]
    pub fn joint_count(&self) -> usize {
        self.joints.len() - self.free_joints.len()
    }

    fn link_joint(&mut self, j: u32) {
        for side in 0..2u32 {
            let s = if side == 0 {
                self.joints[j as usize].a
            } else {
                self.joints[j as usize].b
            };
            let edge = j << 1 | side;
            let head = self.slots[s as usize].joint_head;
            self.joints[j as usize].prev[side as usize] = NONE;
            self.joints[j as usize].next[side as usize] = head;
            if head != NONE {
                self.joints[(head >> 1) as usize].prev[(head & 1) as usize] = edge;
            }
            self.slots[s as usize].joint_head = edge;
        }
    }

    fn unlink_joint(&mut self, j: u32) {
        for side in 0..2usize {
            let joint = &self.joints[j as usize];
            let s = if side == 0 { joint.a } else { joint.b };
            let (prev, next) = (joint.prev[side], joint.next[side]);
            if prev == NONE {
                self.slots[s as usize].joint_head = next;
            } else {
                self.joints[(prev >> 1) as usize].next[(prev & 1) as usize] = next;
            }
            if next != NONE {
                self.joints[(next >> 1) as usize].prev[(next & 1) as usize] = prev;
            }
        }
    }

    /// Removes the joints of body slot `s` (a body being removed), each reported as
    /// [`JointEventKind::BodyRemoved`] in the next step's joint events. The queue has room:
    /// `reserve_body_removal` made it.
    pub(super) fn remove_joints_of(&mut self, s: u32) {
        while self.slots[s as usize].joint_head != NONE {
            let j = self.slots[s as usize].joint_head >> 1;
            let joint = self.joints[j as usize];
            let event = JointEvent {
                joint: JointId {
                    index: j,
                    generation: joint.generation,
                },
                body_a: self.id_of(joint.a),
                body_b: self.id_of(joint.b),
                kind: JointEventKind::BodyRemoved,
                force: Vec2::ZERO,
                torque: 0.0,
                user_data: joint.user_data,
            };
            if self.queued_joint_events.len() < self.queued_joint_events.capacity() {
                self.queued_joint_events.push(event);
            }
            self.drop_joint(j);
        }
    }

    /// Whether an enabled joint between body slots `a` and `b` keeps them from colliding
    /// (walks the shorter joint list of the two).
    pub(super) fn joined_apart(slots: &[Slot], joints: &[JointSlot], a: u32, b: u32) -> bool {
        let (ha, hb) = (slots[a as usize].joint_head, slots[b as usize].joint_head);
        if ha == NONE || hb == NONE {
            return false;
        }
        let (mut ea, mut eb) = (ha, hb);
        // Walk both lists in step: stops at the end of the shorter one.
        while ea != NONE && eb != NONE {
            for (e, s) in [(ea, a), (eb, b)] {
                let joint = &joints[(e >> 1) as usize];
                let other = if s == a { b } else { a };
                if joint.other(s) == other && joint.enabled && !joint.collide_connected {
                    return true;
                }
            }
            ea = joints[(ea >> 1) as usize].next[(ea & 1) as usize];
            eb = joints[(eb >> 1) as usize].next[(eb & 1) as usize];
        }
        false
    }

    /// Ends every contact between body slots `a` and `b` (between steps: their ends lead the
    /// next step's end events, in the room the world keeps for them).
    fn end_contacts_between(&mut self, a: u32, b: u32) {
        let mut e = self.slots[a as usize].contact_head;
        while e != NONE {
            let c = e >> 1;
            let contact = self.contacts[c as usize];
            e = contact.next[(e & 1) as usize];
            if contact.other(a) == b {
                self.destroy_contact(c, Ending::BetweenSteps);
            }
        }
    }

    /// Puts the proxies of body slot `s` (and its extra shapes) in the move buffer, so that
    /// the next broad phase finds their pairs again (a joint that kept two bodies apart is
    /// gone).
    fn refind_pairs(&mut self, s: u32) {
        let mut k = s;
        while k != NONE {
            let proxy = self.slots[k as usize].proxy;
            if self.tree.touch_proxy(proxy).is_ok() && self.move_buffer.try_reserve(1).is_ok() {
                self.move_buffer.push(proxy);
            }
            k = self.slots[k as usize].next_shape;
        }
    }

    /// Room for `more` joints in the step's joint scratch.
    pub(super) fn reserve_joint_step(
        &mut self,
        more: usize,
    ) -> Result<(), alloc::collections::TryReserveError> {
        let n = self.joint_count() + more;
        room(&mut self.scratch.joint_sims, n)?;
        room(&mut self.scratch.joint_of_sim, n)?;
        room(&mut self.scratch.hinge_sims, n)?;
        room(&mut self.scratch.hinge_of_sim, n)?;
        let links = self.scratch.links.len() + n;
        room(&mut self.scratch.links, links)?;
        room(&mut self.queued_joint_events, n)?;
        room(&mut self.joint_events, n + self.queued_joint_events.len())
    }

    /// The enabled joints with an awake body, prepared for a step of sub-step `h`, in the
    /// order of the awake bodies' joint lists (each once: from its body A when A is awake,
    /// else from B). Also lists the island links of joints between two awake bodies.
    pub(super) fn prepare_joints(&mut self, h: f32) {
        self.scratch.joint_sims.clear();
        self.scratch.joint_of_sim.clear();
        self.scratch.hinge_sims.clear();
        self.scratch.hinge_of_sim.clear();
        if self.joints.len() == self.free_joints.len() {
            return;
        }
        let solver_index = |hot: &Hot| match hot.awake_index {
            NONE => 0,
            k => k + 1,
        };
        for k in 0..self.awake.len() {
            let s = self.awake[k];
            let mut e = self.slots[s as usize].joint_head;
            while e != NONE {
                let j = e >> 1;
                let side = e & 1;
                let joint = &self.joints[j as usize];
                e = joint.next[side as usize];
                let a_awake = self.hot[joint.a as usize].awake_index != NONE;
                if !joint.enabled || (side == 1 && a_awake) {
                    continue;
                }
                let body = |s: u32| {
                    let b = &self.bodies[s as usize];
                    JointBody {
                        index: solver_index(&self.hot[s as usize]),
                        transform: b.transform,
                        local_center: b.local_center,
                        inv_mass: b.inv_mass,
                        inv_inertia: b.inv_inertia,
                    }
                };
                let (ba, bb) = (body(joint.a), body(joint.b));
                if self.sleep_enabled && ba.index != 0 && bb.index != 0 {
                    self.scratch.links.push((ba.index - 1, bb.index - 1));
                }
                // Plain hinges go to their compact list (solved first in each phase).
                if HingeSim::applies(&joint.kind, &joint.impulses) {
                    let hinge = HingeSim::prepare(
                        joint.impulses.linear,
                        (joint.frame_a, joint.frame_b),
                        (&ba, &bb),
                        (joint.hertz, joint.damping_ratio),
                        h,
                    );
                    self.scratch.hinge_sims.push(hinge);
                    self.scratch.hinge_of_sim.push(j);
                    continue;
                }
                let sim = JointSim::prepare(
                    joint.kind,
                    joint.impulses,
                    (joint.frame_a, joint.frame_b),
                    (&ba, &bb),
                    (joint.hertz, joint.damping_ratio),
                    h,
                );
                self.scratch.joint_sims.push(sim);
                self.scratch.joint_of_sim.push(j);
            }
        }
    }

    /// After the solver: each solved joint keeps its impulses; a joint whose force or torque
    /// passed its threshold is disabled and reported.
    pub(super) fn finish_joints(&mut self, h: f32) {
        let inv_h = 1.0 / h;
        for k in 0..self.scratch.joint_sims.len() {
            let sim = &self.scratch.joint_sims[k];
            let j = self.scratch.joint_of_sim[k] as usize;
            self.joints[j].impulses = sim.impulses;
            let reaction = || sim.reaction(inv_h);
            if let Some(event) = self.broken(j, reaction) {
                self.break_joint(j, event);
            }
        }
        for k in 0..self.scratch.hinge_sims.len() {
            let hinge = &self.scratch.hinge_sims[k];
            let j = self.scratch.hinge_of_sim[k] as usize;
            self.joints[j].impulses.linear = hinge.linear;
            let reaction = || hinge.reaction(inv_h);
            if let Some(event) = self.broken(j, reaction) {
                self.break_joint(j, event);
            }
        }
    }

    /// The event of joint `j` breaking, when its reaction (worked out only for a joint with
    /// a threshold) passed its force or torque threshold.
    fn broken(&self, j: usize, reaction: impl FnOnce() -> (Vec2, f32)) -> Option<JointEvent> {
        let joint = &self.joints[j];
        if joint.force_threshold == f32::MAX && joint.torque_threshold == f32::MAX {
            return None;
        }
        let (force, torque) = reaction();
        (force.length() > joint.force_threshold || torque.abs() > joint.torque_threshold).then(|| {
            JointEvent {
                joint: JointId {
                    index: j as u32,
                    generation: joint.generation,
                },
                body_a: self.id_of(joint.a),
                body_b: self.id_of(joint.b),
                kind: JointEventKind::Broke,
                force,
                torque,
                user_data: joint.user_data,
            }
        })
    }

    /// Disables joint `j`, which broke, and reports it (room reserved by
    /// `reserve_joint_step`); its bodies' pairs are found again when it kept them apart.
    fn break_joint(&mut self, j: usize, event: JointEvent) {
        self.joint_events.push(event);
        let joint = &mut self.joints[j];
        joint.enabled = false;
        joint.impulses = JointImpulses::default();
        let (a, collide) = (joint.a, joint.collide_connected);
        if !collide {
            self.refind_pairs(a);
        }
    }
}
