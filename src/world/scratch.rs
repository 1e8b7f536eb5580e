//! The per-step scratch of the world: arrays each step fills and empties, kept between steps
//! only for their capacity so that a step allocates nothing once they have grown (their room
//! is made by `World::reserve_step` and `World::reserve_solver` before the step changes
//! anything, which is what keeps the out-of-memory guarantee).

use super::*;

/// The step's scratch arrays, owned by the world and reserved with it.
#[derive(Clone, Default)]
pub(super) struct StepScratch {
    /// Scratch of [`DynamicTree::rebuild_enlarged`], one entry per proxy.
    pub(super) rebuild: Vec<u32>,
    /// Broad-phase scratch: the new pairs found this step.
    pub(super) found: Vec<(u32, u32)>,
    /// The contacts whose fat boxes parted this step (ended after the narrow phase).
    pub(super) parting: Vec<u32>,
    /// The awake bodies as the solver sees them this step.
    pub(super) solver_bodies: Vec<Body>,
    /// The solver passes' compact copy of `solver_bodies`' velocities and motions.
    pub(super) solver_states: Vec<solver::BodyState>,
    /// Per solver body, its velocity change per sub-step (worked out once per step).
    pub(super) solver_kicks: Vec<solver::VelocityKick>,
    /// Colouring scratch: per solver body, the colours its constraints use this step.
    pub(super) used_colors: Vec<u64>,
    /// Union-find and continuous-phase scratch.
    pub(super) parent: Vec<u32>,
    /// Per awake body (by awake index), written by `finalize_bodies`: whether it has rested
    /// for [`TIME_TO_SLEEP`] (`sleep::RESTED`), then in `update_sleep` whether a touching
    /// body that has not holds it awake.
    pub(super) rested: Vec<u8>,
    /// The awake indices of the bodies that have rested for [`TIME_TO_SLEEP`] this step.
    pub(super) tired: Vec<u32>,
    /// This step's touching constraints between two moving bodies, as awake indices
    /// (listed by the narrow phase while sleeping is enabled; the islands' edges).
    pub(super) links: Vec<(u32, u32)>,
    /// The awake bodies that moved fast enough this step for the continuous phase.
    pub(super) fast: Vec<u32>,
    /// The dynamic bodies (slots) that landed nearly flat on a static or kinematic shape
    /// this step, each with how far its near point was let sink in (`land_together`); sorted
    /// by slot before the continuous phase reads it.
    pub(super) landed: Vec<(u32, f32)>,
    /// The joints solved this step, prepared, and the joint slot of each.
    pub(super) joint_sims: Vec<solver::JointSim>,
    pub(super) joint_of_sim: Vec<u32>,
    /// The plain hinges among them, in their compact form, and the joint slot of each.
    pub(super) hinge_sims: Vec<solver::HingeSim>,
    pub(super) hinge_of_sim: Vec<u32>,
}

impl StepScratch {
    /// Empties every array, keeping its memory.
    pub(super) fn clear(&mut self) {
        self.rebuild.clear();
        self.found.clear();
        self.parting.clear();
        self.solver_bodies.clear();
        self.solver_states.clear();
        self.solver_kicks.clear();
        self.used_colors.clear();
        self.parent.clear();
        self.rested.clear();
        self.tired.clear();
        self.links.clear();
        self.fast.clear();
        self.landed.clear();
        self.joint_sims.clear();
        self.joint_of_sim.clear();
        self.hinge_sims.clear();
        self.hinge_of_sim.clear();
    }
}
