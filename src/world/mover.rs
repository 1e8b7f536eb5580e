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
