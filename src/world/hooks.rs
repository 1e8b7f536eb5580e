//! Callbacks a step makes into the game: a custom filter for new shape pairs and a pre-solve
//! hook per touching contact (Box2D's `b2CustomFilterFcn` and `b2PreSolveFcn`).
//!
//! They are a trait passed to [`World::step_with_hooks`] rather than closures stored in the
//! world: the hooks may borrow the game's own state for the step (no `'static` bound, no
//! boxing, no allocation), one value implements both, and a world without hooks pays
//! nothing. Each hook receives the world read-only, so it can look at bodies and shapes but
//! cannot change the world while the step runs (the borrow checker is the world lock in
//! Rust; the C ABI returns `C2D_STATUS_LOCKED`).

use super::{ShapeId, World};
use crate::narrowphase::Manifold;

/// The hooks of [`World::step_with_hooks`]. Both default to "yes".
pub trait ContactHooks {
    /// Whether shapes `a` and `b` (of two bodies that the filters and sensor rules let
    /// collide) get a contact. Asked in the broad phase when the pair has no contact and one
    /// of the two proxies moved in the tree (entered a new fat box): a refused pair may be
    /// asked again on a later step, and a pair that got its contact keeps it while the fat
    /// boxes overlap ([`World::set_shape_filter`] on either shape ends it and asks again).
    /// Return the same answer for the same pair unless the game's rule changed.
    fn should_collide(&mut self, world: &World, a: ShapeId, b: ShapeId) -> bool {
        let _ = (world, a, b);
        true
    }

    /// Called once per step for every awake touching contact between two solid shapes (not
    /// sensors), after its manifold is found and before its constraint is built: `false`
    /// disables the contact for this step (no constraint; it counts as not touching, so a
    /// begin or end event follows as it would for a manifold without points). `manifold`'s
    /// normal points from shape `a` to shape `b` (world frame); its points include the
    /// speculative ones (positive separation, `depth < 0`). The world shows the bodies at
    /// their poses before this step moves them. A sleeping contact is not asked (its last
    /// answer stands while its island sleeps): wake a body ([`World::set_awake`]) when the
    /// game's rule for it changes.
    fn pre_solve(&mut self, world: &World, a: ShapeId, b: ShapeId, manifold: &Manifold) -> bool {
        let _ = (world, a, b, manifold);
        true
    }
}

/// No hooks: every pair collides, every contact is solved.
impl ContactHooks for () {}
