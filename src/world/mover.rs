//! The world as a level for the character mover ([`crate::mover`]): a kinematic character
//! moved with [`move_and_slide`](crate::mover::move_and_slide) through the world's bodies,
//! carried by moving (kinematic or dynamic) ones it stands on.

use super::{BodyId, QueryFilter, World};
use crate::math::Aabb;
use crate::mover::{MoverLevel, Obstacle};
use crate::tree::Visit;

impl BodyId {
    /// The id packed in a `u64` (index in the low half, generation in the high half): the
    /// user data of the world's obstacles ([`World::mover_level`]).
    #[inline]
    #[must_use]
    pub const fn to_bits(self) -> u64 {
        self.index as u64 | (self.generation as u64) << 32
    }

    /// The id packed by [`BodyId::to_bits`].
    #[inline]
    #[must_use]
    pub const fn from_bits(bits: u64) -> BodyId {
        BodyId {
            index: bits as u32,
            generation: (bits >> 32) as u32,
        }
    }
}

/// The bodies of a [`World`] that pass a [`QueryFilter`], as a [`MoverLevel`]: each shape is an
/// obstacle whose user data is its body's [`BodyId::to_bits`] and whose velocity is its
/// body's (a mover standing on a kinematic platform or a dynamic box is carried by it). Put
/// the character's own body, if it has one in the world, in the filter's `ignore` list.
pub struct WorldLevel<'w> {
    world: &'w World,
    filter: QueryFilter<'w>,
}

impl World {
    /// The world's bodies passing `filter` as a level for [`crate::mover::move_and_slide`],
    /// [`crate::mover::collide_mover`] and [`crate::mover::cast_mover`].
    #[must_use]
    pub fn mover_level<'w>(&'w self, filter: &QueryFilter<'w>) -> WorldLevel<'w> {
        WorldLevel {
            world: self,
            filter: *filter,
        }
    }
}

impl MoverLevel for WorldLevel<'_> {
    fn obstacles(&self, aabb: Aabb, f: &mut dyn FnMut(&Obstacle<'_>) -> bool) {
        let w = self.world;
        w.tree.query(aabb, self.filter.mask, |_, user| {
            let i = user as usize;
            if !w.passes(i, &self.filter) {
                return Visit::Continue;
            }
            let owner = w.owner(i as u32) as usize;
            let body = &w.bodies[i];
            let motion = &w.bodies[owner];
            let o = Obstacle::fixed(&w.slots[i].shape, body.transform, w.id_of(i as u32).to_bits()).moving(
                motion.linear_velocity,
                motion.angular_velocity,
                motion.center(),
            );
            if f(&o) {
                Visit::Continue
            } else {
                Visit::Stop
            }
        });
    }
}

/// How a character moved with [`World::move_and_push`] acts on the dynamic bodies it touches
/// (rapier's character-controller impulses). The defaults push as a 80 kg character with no
/// limit on its force.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoverPush {
    /// The character's mass (kg, default 80; 0: it pushes nothing and weighs nothing;
    /// `f32::INFINITY`: it pushes as a kinematic body, always at its own speed). A body it
    /// walks into at relative speed `v` along the contact normal gets the impulse of a
    /// perfectly inelastic collision between the two masses, `v / (1/m + 1/m_b + r×n²/I_b)`:
    /// a body as heavy as the character is pushed at half its speed in one frame, and keeps
    /// being pushed on the following frames until it moves at the character's speed.
    pub mass: f32,
    /// Most force the character pushes with (N, default `f32::INFINITY`): each push impulse is
    /// at most `max_force × time_step`, so a crate whose friction needs more does not move.
    pub max_force: f32,
}

impl Default for MoverPush {
    fn default() -> Self {
        MoverPush {
            mass: 80.0,
            max_force: f32::INFINITY,
        }
    }
}

impl World {
    /// [`crate::mover::move_and_slide`] through this world's bodies passing `filter` (see
    /// [`World::mover_level`]), then the character acts on the dynamic bodies it touches at the
    /// end of the move, as `push` says, when `opts.time_step` is positive (the frame's
    /// duration; 0 moves without pushing):
    /// - each dynamic body it walked into (a contact that is not its ground, which it was
    ///   moving into: `(velocity − body's velocity at the contact) · (−normal) > 0`, with
    ///   `velocity` the one passed in, before clipping) gets a push impulse along `−normal`
    ///   at the contact point, as [`MoverPush::mass`] says, limited by
    ///   [`MoverPush::max_force`]; once per body (its nearest contact);
    /// - a dynamic body it stands on (its ground) is pressed by its weight: the impulse
    ///   `mass × gravity × time_step` at the ground point.
    ///
    /// The impulses take effect in the next [`World::step`] (the bodies move then, and the
    /// character is stopped by them in this frame's move): call it after stepping, as for
    /// moving platforms. Bodies pushed are woken. A push that would take a body beyond the
    /// world's speed limit is left out. Errors: [`SolverError::InvalidInput`] for a NaN or
    /// negative mass or maximum force (nothing moved; `f32::INFINITY` is valid for both, see
    /// [`MoverPush`]).
    ///
    /// [`SolverError::InvalidInput`]: crate::solver::SolverError::InvalidInput
    #[allow(clippy::too_many_arguments)]
    pub fn move_and_push(
        &mut self,
        mover: &crate::geometry::Shape,
        xf: crate::math::Transform,
        translation: crate::math::Vec2,
        velocity: crate::math::Vec2,
        opts: &crate::mover::MoveOptions,
        filter: &QueryFilter<'_>,
        push: &MoverPush,
    ) -> Result<crate::mover::MoveResult, crate::solver::SolverError> {
        use super::BodyKind;
        use crate::solver::SolverError;
        if !(push.mass >= 0.0) || push.mass.is_nan() || !(push.max_force >= 0.0) {
            return Err(SolverError::InvalidInput);
        }
        let r =
            crate::mover::move_and_slide(&self.mover_level(filter), mover, xf, translation, velocity, opts);
        let dt = opts.time_step;
        if !(dt > 0.0 && dt.is_finite()) || push.mass == 0.0 || !velocity.is_finite() {
            return Ok(r);
        }
        let inv_mass = 1.0 / push.mass;
        let most = push.max_force * dt;
        let mut done = [BodyId::default(); crate::mover::MAX_MOVER_CONTACTS];
        let mut n_done = 0;
        for c in r.contacts() {
            let id = BodyId::from_bits(c.user_data);
            if done[..n_done].contains(&id) || !matches!(self.kind(id), Ok(BodyKind::Dynamic)) {
                continue;
            }
            done[n_done] = id;
            n_done += 1;
            let Ok(i) = self.slot(id) else { continue };
            let n = c.plane.normal;
            let impulse = if r.on_ground && *c == r.ground {
                self.settings.gravity * (push.mass * dt)
            } else {
                let approach = (velocity - c.velocity).dot(-n);
                if !(approach > 0.0) {
                    continue;
                }
                let b = &self.bodies[i];
                let rn = (c.point - b.center()).cross(n);
                let k = inv_mass + b.inv_mass + b.inv_inertia * rn * rn;
                if !(k > 0.0) {
                    continue;
                }
                -n * (approach / k).min(most)
            };
            if impulse.is_finite() {
                // Beyond the world's speed limit: left out, as documented.
                let _ = self.apply_linear_impulse(id, impulse, c.point);
            }
        }
        Ok(r)
    }
}
