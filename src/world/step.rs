//! The step: its phases in order (`step_inner`), the graph colouring that places each
//! touching constraint in a SIMD lane (`claim_lane`), and finalizing the bodies after the
//! solver.

use super::*;

impl World {
    /// Advances the world by `dt` seconds in `substeps` sub-steps (see the module docs).
    /// Clears and refills the contact and sensor events; its end events start with the ends
    /// caused since the last step (see [`World::end_events`]). Errors with
    /// [`SolverError::InvalidStep`] for a `dt` outside [[`limits::MIN_TIME_STEP`],
    /// [`limits::MAX_TIME_STEP`]] (1e-6 … 1 s) or `substeps` outside 1..=64 (the world and its
    /// events are unchanged), and with
    /// [`SolverError::OutOfMemory`] when the allocator cannot provide what the step needs.
    /// The step reserves most of it right after finding the new pairs, before anything
    /// changes, and a failure there leaves the world as it was (only the events are cleared;
    /// the ends caused since the last step wait for the next one). The solver's constraint
    /// blocks and body copies, and the room for the contacts touching after the narrow phase
    /// to end before the next step, are reserved during the step; when they cannot be, the
    /// step stops before the solver: no body has moved, the narrow phase's contact updates,
    /// wakes and events (the earlier ends with them) stand, and the contacts start cold next
    /// step. Either way the world stays valid and a later step goes on.
    pub fn step(&mut self, dt: f32, substeps: u32) -> Result<(), SolverError> {
        self.step_inner(dt, substeps, None)
    }

    /// [`World::step`] calling `hooks` for new shape pairs and touching contacts (see
    /// [`ContactHooks`]; the world is read-only inside them).
    pub fn step_with_hooks(
        &mut self,
        dt: f32,
        substeps: u32,
        hooks: &mut dyn ContactHooks,
    ) -> Result<(), SolverError> {
        self.step_inner(dt, substeps, Some(hooks))
    }

    pub(super) fn step_inner(
        &mut self,
        dt: f32,
        substeps: u32,
        mut hooks: Option<&mut dyn ContactHooks>,
    ) -> Result<(), SolverError> {
        self.profile = StepProfile::default();
        limits::check_step(dt, substeps)?;
        let settings = SolverSettings {
            substeps,
            ..self.settings
        };
        if !settings.is_valid() {
            return Err(SolverError::InvalidInput);
        }
        self.settings.substeps = substeps;
        self.begin.clear();
        self.end.clear();
        self.sensor_begin.clear();
        self.sensor_end.clear();
        self.faults.clear();
        self.last_dt = dt;
        let clock = self.profile_clock;
        let now = || clock.map_or(0, |f| f());
        let t0 = now();
        self.update_pairs(hooks.as_deref_mut())?;
        let t1 = now();
        // The ends queued since the last step happened before anything of this one: they lead
        // its end events (room reserved by `update_pairs`).
        self.end.extend_from_slice(&self.queued_end);
        self.queued_end.clear();
        self.sensor_end.extend_from_slice(&self.queued_sensor_end);
        self.queued_sensor_end.clear();
        self.update_contacts(hooks)?;
        self.reserve_solver()?;
        // The joints removed with their bodies since the last step lead its joint events.
        self.joint_events.clear();
        self.joint_events.extend_from_slice(&self.queued_joint_events);
        self.queued_joint_events.clear();
        let h = dt / settings.substeps as f32;
        self.prepare_joints(h);
        let t2 = now();

        // The awake bodies as the solver sees them: index 0 stands for every static body.
        self.scratch.solver_bodies.clear();
        self.scratch
            .solver_bodies
            .push(Body::new_static(Transform::IDENTITY));
        let bodies = &self.bodies;
        self.scratch
            .solver_bodies
            .extend(self.awake.iter().map(|&s| bodies[s as usize]));
        let rest = solver::BodyState::default();
        self.scratch
            .solver_states
            .resize(self.scratch.solver_bodies.len(), rest);
        self.scratch
            .solver_kicks
            .resize(self.scratch.solver_bodies.len(), solver::VelocityKick::default());
        solver::step_blocks(
            &mut self.scratch.solver_bodies,
            &mut self.scratch.solver_states,
            &mut self.scratch.solver_kicks,
            &mut self.blocks,
            (&mut self.scratch.joint_sims, &mut self.scratch.hinge_sims),
            &settings,
            dt,
        );
        self.finish_joints(h);
        // The impulses stay in `blocks` for warm starting: each touching sim knows its block
        // lane (no scattered writes).
        let t3 = now();
        self.finalize_bodies(dt);
        let t4 = now();
        self.solve_continuous();
        let t5 = now();
        self.update_sleep();
        let t6 = now();
        if clock.is_some() {
            let span = |a: u64, b: u64| b.wrapping_sub(a);
            self.profile = StepProfile {
                total: span(t0, t6),
                pairs: span(t0, t1),
                narrow: span(t1, t2),
                solve: span(t2, t3),
                finalize: span(t3, t4),
                continuous: span(t4, t5),
                sleep: span(t5, t6),
            };
        }
        Ok(())
    }

    /// Finds the lane for the touching constraint between the bodies at solver indices `ia`
    /// and `ib` (inverse masses and inertias `masses`) and returns it as (block, lane), or
    /// `None` when the blocks cannot grow (the step then fails with out of memory); the
    /// caller builds the constraint there, and the colour it got (`NO_COLOR`: a block of its
    /// own). A greedy colouring of the contact graph in pair order that keeps a contact's
    /// colour from the last step (`preferred`) when neither body has used it yet this step: no
    /// two constraints of one colour share a moving body (fixed bodies do not count); each
    /// colour fills one open block at a time for constraints of one point and
    /// one for those of two (`two_points`), four lanes, so that the solver
    /// takes every block whole in SIMD lanes. A constraint that finds no free colour among
    /// [`COLORS`] gets a block of its own. Blocks follow in the order they were opened, and
    /// the solver's result is bit for bit that of solving the constraints one at a time in
    /// that order, lane by lane.
    pub(super) fn claim_lane(
        &mut self,
        (ia, ib): (u32, u32),
        masses: [(f32, f32); 2],
        open: &mut [(u32, u32); 2 * COLORS],
        (two_points, preferred): (bool, u8),
    ) -> Option<(usize, usize, u8)> {
        const LANES: u32 = solver::ContactBlock::LANES as u32;
        let (ia, ib) = (ia as usize, ib as usize);
        // Woken bodies join the solver during the narrow phase (room reserved per step).
        let top = ia.max(ib) + 1;
        if self.scratch.used_colors.len() < top {
            self.scratch.used_colors.resize(top, 0);
        }
        let moving = |(m, i): (f32, f32)| !(m == 0.0 && i == 0.0);
        let (ma, mb) = (moving(masses[0]), moving(masses[1]));
        let busy = if ma { self.scratch.used_colors[ia] } else { 0 }
            | if mb { self.scratch.used_colors[ib] } else { 0 };
        let preferred = usize::from(preferred);
        let color = if preferred < COLORS && busy & (1u64 << preferred) == 0 {
            preferred
        } else {
            (!busy).trailing_zeros() as usize // COLORS when all are taken
        };
        let mut own = (NONE, LANES);
        let (block, lane) = if color < COLORS {
            &mut open[2 * color + usize::from(two_points)]
        } else {
            &mut own
        };
        if *block == NONE || *lane == LANES {
            let n = self.blocks.len();
            let more = (n / 8).max(16);
            // Each array checked on its own: after a failure their capacities can differ.
            if (n == self.blocks.capacity() && self.blocks.try_reserve_exact(more).is_err())
                || (n == self.block_ids.capacity() && self.block_ids.try_reserve_exact(more).is_err())
            {
                return None;
            }
            self.blocks.push(solver::ContactBlock::default());
            self.block_ids.push([[0; 2]; 4]);
            (*block, *lane) = (n as u32, 0);
        }
        if color < COLORS {
            let bit = 1u64 << color;
            if ma {
                self.scratch.used_colors[ia] |= bit;
            }
            if mb {
                self.scratch.used_colors[ib] |= bit;
            }
        }
        let (k, l) = (*block as usize, *lane as usize);
        *lane += 1;
        let color = if color < COLORS { color as u8 } else { NO_COLOR };
        Some((k, l, color))
    }

    /// The warm-starting data of the constraint solved at `at` (`block · 4 + lane`) in the
    /// last step.
    pub(super) fn carried(&self, at: u32) -> Option<solver::Carried> {
        carried_from(&self.blocks, &self.block_ids, at)
    }

    /// The constraint solved at `at` in the last step, with its impulses.
    pub(super) fn solved_constraint(&self, at: u32) -> Option<ContactConstraint> {
        let (k, l) = split_place(at);
        Some(self.blocks.get(k)?.lane(l, self.block_ids.get(k)?[l]))
    }

    /// Copies the solved awake bodies back, accumulates sleep time and moves the proxies of
    /// bodies that are not fast (fast ones go to the continuous phase, which moves them).
    pub(super) fn finalize_bodies(&mut self, dt: f32) {
        self.scratch.fast.clear();
        self.scratch.rested.clear();
        self.scratch.tired.clear();
        let inv_dt = 1.0 / dt;
        let sleepy = self.sleep_enabled;
        let max_speed = self.settings.max_linear_speed;
        for k in 0..self.awake.len() {
            let s = self.awake[k];
            let mut b = self.scratch.solver_bodies[k + 1];
            b.force = Vec2::ZERO;
            b.torque = 0.0;
            let i = s as usize;
            // The speed limits hold between steps: the relax and restitution passes after the
            // last integration may leave a body faster than `max_linear_speed` (which the
            // integration enforces) or `limits::MAX_ANGULAR_SPEED`.
            let speed2 = b.linear_velocity.length_squared();
            if speed2 > max_speed * max_speed {
                b.linear_velocity *= max_speed / crate::fmath::sqrt(speed2);
            }
            if b.angular_velocity.abs() > limits::MAX_ANGULAR_SPEED {
                b.angular_velocity = limits::MAX_ANGULAR_SPEED.copysign(b.angular_velocity);
            }
            // The step changes only the pose and the velocities; their sum is finite exactly
            // when each is (every term is bounded far below f32's range between steps).
            let (v, p, q) = (b.linear_velocity, b.transform.p, b.transform.q);
            if !(v.x + v.y + b.angular_velocity + p.x + p.y + q.c + q.s).is_finite() {
                // Containment: a body the step would leave non-finite (which the checks at the
                // door rule out for legal input) keeps its pose from before the step, stops,
                // and is reported; nothing non-finite stays in the world to spread.
                b = self.bodies[i];
                b.linear_velocity = Vec2::ZERO;
                b.angular_velocity = 0.0;
                b.delta_position = Vec2::ZERO;
                b.delta_rotation = Rot::IDENTITY;
                b.force = Vec2::ZERO;
                b.torque = 0.0;
                let generation = self.slots[i].generation;
                // Room reserved by `reserve_step` (one per body).
                self.faults.push(BodyId { index: s, generation });
            }
            self.bodies[i] = b;
            let slot = &mut self.slots[i];
            let Hot {
                reach, min_extent, ..
            } = self.hot[i];
            let speed = b.linear_velocity.length() + b.angular_velocity.abs() * reach;
            let moved = b.delta_position.length() + b.delta_rotation.s.abs() * reach;
            // Position correction counts half as much as true velocity (Box2D's rule).
            let sleep_speed = speed.max(0.5 * inv_dt * moved);
            let mut fast = false;
            let mut rested = sleep::AWAKE;
            if !sleepy || !slot.enable_sleep || sleep_speed > SLEEP_VELOCITY {
                slot.sleep_time = 0.0;
                let motion = moved.max(speed * dt);
                fast = self.continuous_enabled
                    && slot.kind == BodyKind::Dynamic
                    && !slot.sensor
                    && motion > CONTINUOUS_SAFETY_FACTOR * min_extent;
            } else {
                slot.sleep_time += dt;
                if slot.sleep_time >= TIME_TO_SLEEP {
                    rested = sleep::RESTED;
                    self.scratch.tired.push(k as u32);
                }
            }
            self.scratch.rested.push(rested);
            if fast {
                self.scratch.fast.push(s);
            } else {
                // Cannot fail: the proxy is live and the box finite (bodies are validated).
                let _ = self.sync_body(i);
            }
        }
    }

    pub(super) fn push_awake(&mut self, s: u32) {
        self.hot[s as usize].center = self.bodies[s as usize].center();
        self.hot[s as usize].awake_index = self.awake.len() as u32;
        self.awake.push(s);
    }

    pub(super) fn remove_awake(&mut self, s: u32) {
        let k = self.hot[s as usize].awake_index;
        if k == NONE {
            return;
        }
        self.awake.swap_remove(k as usize);
        if let Some(&moved) = self.awake.get(k as usize) {
            self.hot[moved as usize].awake_index = k;
        }
        self.hot[s as usize].awake_index = NONE;
    }
}
