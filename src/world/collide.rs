//! The narrow phase: each awake contact's manifold (fresh, or recycled from its cache),
//! the pre-solve hook, touching state and events, and each touching constraint built into
//! its SIMD lane.

use super::contacts::PARKED;
use super::*;
use crate::solver::ConstraintPoint;

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
