//! The narrow phase: each awake contact's manifold (fresh, or recycled from its cache),
//! the pre-solve hook, touching state and events, and each touching constraint built into
//! its SIMD lane.

use super::contacts::PARKED;
use super::*;
use crate::solver::ConstraintPoint;

/// Contacts collided at a time before their findings are applied (`World::update_contacts`):
/// enough to stream, few enough that the bodies they read are still in cache when the update
/// reads them again.
const COLLIDE_CHUNK: usize = 32;

/// What the collide pass found for one awake contact (`World::collide_contacts`), read by
/// the serial update that follows it (`World::update_contact`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Collided {
    /// The contact's index in `World::active`.
    k: u32,
    /// `PARTED`, `SENSOR`, `SOLID` or `APART`.
    state: u8,
    /// A sensor pair's shapes overlap.
    overlapping: bool,
    /// A static polygon's internal edges were worked out afresh: the update caches them.
    stale_edges: bool,
    /// The manifold was computed afresh (not recycled): `fresh` holds it.
    is_fresh: bool,
    /// Number of points (0, 1 or 2) of a solid pair.
    count: u32,
    /// The manifold normal, from shape A to shape B (world).
    normal: Vec2,
    /// Body A's centre of mass (world), for manifolds rebuilt from the points.
    center_a: Vec2,
    /// The constraint points (impulses zero).
    points: [ConstraintPoint; 2],
    /// The manifold when `is_fresh` (last, so that the other findings share a cache line).
    fresh: Manifold,
}

impl Collided {
    /// A solid pair's manifold: the fresh one, or rebuilt from the recycled points.
    fn manifold(&self) -> Manifold {
        if self.is_fresh {
            self.fresh
        } else {
            manifold_of(
                self.normal,
                &self.points[..(self.count as usize).min(2)],
                self.center_a,
            )
        }
    }

    /// The pair's fat boxes parted: the contact ends.
    const PARTED: u8 = 0;
    /// A sensor pair: `overlapping` says whether the shapes overlap.
    const SENSOR: u8 = 1;
    /// A solid pair: `count` points.
    const SOLID: u8 = 2;
    /// A solid pair too far apart for points that had none before either: nothing changes.
    const APART: u8 = 3;
}

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
///
/// Returned with the same margin uncapped, [`SPECULATIVE_DISTANCE`] plus the whole approach
/// bound of the step: a manifold's point beyond the capped margin but within the uncapped
/// one is kept when another point of the same manifold is within the capped margin (see
/// [`keep_within_margin`]).
pub(super) fn speculative_margins(sa: &Hot, sb: &Hot, dt: f32) -> (f32, f32) {
    let speed = (sb.velocity - sa.velocity).length() + sa.spin + sb.spin;
    let cap = CONTINUOUS_SAFETY_FACTOR * sa.min_extent.max(sb.min_extent);
    let approach = dt * speed;
    // `min` with a NaN-free cap: the speed is finite by the world's invariants.
    (
        SPECULATIVE_DISTANCE + approach.min(cap),
        SPECULATIVE_DISTANCE + approach,
    )
}

/// Cosine of the largest angle between two faces that `land_together` can take together
/// (about 0.2 rad: a difference of heights under a fifth of the points' distance apart).
const LANDING_COS: f32 = 0.98;

/// Whether shape `a` (at `xa`) has a face turned along the normal `n` (from A to B) and `b`
/// (at `xb`) one turned against it, each within about 0.2 rad ([`LANDING_COS`]): the only
/// pairs whose second point `land_together` could use. A segment's or a capsule's sides
/// count either way; a circle has none. Cheap (a few dot products), so that a fast pair
/// meeting corner first is collided once.
fn faces_meet(a: &Shape, xa: Transform, b: &Shape, xb: Transform, n: Vec2) -> bool {
    let face_along = |shape: &Shape, xf: Transform, n: Vec2| match shape {
        Shape::Circle(_) => false,
        Shape::Capsule(c) => {
            let axis = xf.q.rotate(c.center2 - c.center1).normalize_or_zero();
            axis.cross(n).abs() > LANDING_COS
        }
        Shape::ChainSegment(c) => {
            let axis = xf.q.rotate(c.point2 - c.point1).normalize_or_zero();
            axis.cross(n).abs() > LANDING_COS
        }
        Shape::Polygon(p) => {
            let count = (p.count as usize).min(p.normals.len());
            let local = xf.q.inv_rotate(n);
            p.normals[..count].iter().any(|m| m.dot(local) > LANDING_COS)
        }
    };
    face_along(a, xa, n) && face_along(b, xb, -n)
}

/// A manifold computed with the uncapped margin (for a pair whose manifold at the capped
/// `margin` has one point), cut to the capped `margin`: no point when none is within
/// `margin`, otherwise every point it has. A fast body's margin is capped at half its
/// smallest extent, so the far point of a face landing tilted can lie beyond the cap while
/// the near one is within it; that point shares the near one's normal and face, so it is no
/// ghost ahead of the body, and with it the two points land together (`land_together`).
fn keep_within_margin(mut m: Manifold, margin: f32) -> Manifold {
    let nearest = m.points().iter().map(|p| -p.depth).fold(f32::INFINITY, f32::min);
    if !(nearest <= margin) {
        m.count = 0;
    }
    m
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
        self.scratch.used_colors.clear();
        self.scratch.used_colors.resize(self.awake.len() + 1, 0);
        self.scratch.links.clear();
        self.scratch.parting.clear();
        self.scratch.landed.clear();
        let mut open = [(NONE, 0u32); 2 * COLORS];
        let mut out_of_memory = false;
        // The contacts are collided in chunks, each chunk's findings then applied in order
        // while they are still in cache. Waking a body appends its contacts to `active`: later
        // chunks collide and update them too.
        let mut found = [Collided::default(); COLLIDE_CHUNK];
        let mut start = 0;
        while start < self.active.len() {
            let end = self.active.len().min(start + COLLIDE_CHUNK);
            let n = self.collide_contacts(start..end, &mut found, hooks.is_some());
            for found in &found[..n] {
                out_of_memory |= !self.update_contact(found, &mut open, hooks.as_deref_mut());
            }
            start = end;
        }
        // The pairs whose fat boxes parted end after every round (removing them reorders
        // `active`).
        for i in 0..self.scratch.parting.len() {
            self.destroy_contact(self.scratch.parting[i], Ending::InStep);
        }
        if out_of_memory {
            self.forget_impulses();
            return Err(SolverError::OutOfMemory);
        }
        Ok(())
    }

    /// The collide pass over `active[range]` (at most a chunk): each contact's manifold
    /// (recycled, or computed afresh and cached) into `found`, which holds the first `n`
    /// (returned) findings the update must act on. It reads the bodies, shapes and boxes and
    /// writes only each contact's own cache and finding: no events, no waking, no colouring
    /// (the contacts could be collided in any order, or at once).
    fn collide_contacts(
        &mut self,
        range: core::ops::Range<usize>,
        found: &mut [Collided; COLLIDE_CHUNK],
        hooked: bool,
    ) -> usize {
        let mut memory = core::mem::take(&mut self.active_memory);
        let world = &*self;
        // Only the findings the update acts on are kept: a pair apart before and after is
        // overwritten by the next, so the update's loop sees no such pairs.
        let mut n = 0;
        for k in range {
            let out = &mut found[n];
            world.collide_contact(k, &mut memory[k], out, hooked);
            n += usize::from(out.state != Collided::APART);
        }
        self.active_memory = memory;
        n
    }

    /// What the awake contact `active[k]` finds this step (see [`World::collide_contacts`]);
    /// `hooked`: a pre-solve hook will read the manifold.
    #[inline]
    fn collide_contact(&self, k: usize, memory: &mut SimMemory, out: &mut Collided, hooked: bool) {
        let sim = &self.active[k];
        let (a, b, was_touching) = (sim.a, sim.b, sim.touching);
        let (oa, ob) = (sim.oa, sim.ob);
        let (boxes_a, boxes_b) = (self.boxes[a as usize], self.boxes[b as usize]);
        out.k = k as u32;
        out.count = 0;
        out.is_fresh = false;
        out.stale_edges = false;
        if !boxes_a.fat.overlaps(boxes_b.fat) {
            out.state = Collided::PARTED;
            return;
        }
        let (sa, sb) = (&self.slots[a as usize], &self.slots[b as usize]);
        let (ba, bb) = (&self.bodies[a as usize], &self.bodies[b as usize]);
        if sim.sensor {
            // Overlap only: events, no constraint, no waking, no island.
            out.state = Collided::SENSOR;
            out.overlapping = crate::narrowphase::overlaps(&sa.shape, ba.transform, &sb.shape, bb.transform);
            return;
        }
        // A static polygon's internal edges, from its cache or worked out when the cache is
        // stale (the update writes them back).
        let removal = self.internal_edge_removal;
        let edges = |i: u32| {
            if removal {
                self.internal_edges_of(i as usize)
            } else {
                0
            }
        };
        // The tight boxes include the speculative distance on each side; beyond the
        // pair's margin apart no point can exist, whatever the shapes.
        let (ha, hb) = (&self.hot[oa as usize], &self.hot[ob as usize]);
        let (margin, wide) = speculative_margins(ha, hb, self.last_dt);
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
        out.state = Collided::SOLID;
        if far {
            if !was_touching && sim.solved == NONE {
                // Apart before and after: the update has nothing to change.
                out.state = Collided::APART;
            }
            return;
        }
        let (ca, cb) = (center(ha, ba), center(hb, bb));
        out.center_a = ca;
        // This step's constraint points (impulses zero), their normal and count; a fresh
        // manifold is kept for a begin event.
        let recycled = memory.cache.as_ref().and_then(|cache| {
            recycle_into(
                cache,
                (ba, ha, ca),
                (bb, hb, cb),
                (was_touching, margin),
                self.recycle_distance,
                &mut out.points,
            )
            .then_some((cache.normal, cache.count))
        });
        if let Some((normal, count)) = recycled {
            (out.normal, out.count) = (normal, count);
            return;
        }
        let (ea, eb) = (edges(a), edges(b));
        // A static chain segment whose square end another static surface continues is taken
        // with that end welded to it (see `internal_edges::welded_segment`).
        // (Built only for such a segment: the other shapes are read in place, not copied.)
        // A two-sided segment's welded ends make it the one-sided chain segment facing the
        // other shape, welded the same way.
        let welded = |shape: &Shape, xf: Transform, ends: u8, other: &Shape, xo: Transform| {
            let reach = || 2.0 * other.aabb(xo).half_extents().length();
            match shape {
                Shape::ChainSegment(c) if ends != 0 => Some(Shape::ChainSegment(
                    internal_edges::welded_segment(c, ends, reach()),
                )),
                Shape::Capsule(c) if ends != 0 && c.radius == 0.0 => {
                    let toward = xf.inv_apply(xo.apply(other.aabb(Transform::IDENTITY).center()));
                    internal_edges::facing_segment(c.center1, c.center2, ends, toward).map(|(s, ends)| {
                        Shape::ChainSegment(internal_edges::welded_segment(&s, ends, reach()))
                    })
                }
                _ => None,
            }
        };
        let (welded_a, welded_b) = (
            welded(&sa.shape, ba.transform, ea, &sb.shape, bb.transform),
            welded(&sb.shape, bb.transform, eb, &sa.shape, ba.transform),
        );
        let shape_a = welded_a.as_ref().unwrap_or(&sa.shape);
        let shape_b = welded_b.as_ref().unwrap_or(&sb.shape);
        out.stale_edges =
            removal && (self.internal_edges_stale(a as usize) || self.internal_edges_stale(b as usize));
        let collide_at = |margin: f32| {
            let m = collide_with_margin(shape_a, ba.transform, shape_b, bb.transform, margin);
            match (&sa.shape, &sb.shape) {
                (Shape::Polygon(p), _) if ea != 0 => {
                    internal_edges::correct(m, (p, ba.transform, ea), (&sb.shape, bb.transform), true, margin)
                }
                (_, Shape::Polygon(p)) if eb != 0 => internal_edges::correct(
                    m,
                    (p, bb.transform, eb),
                    (&sa.shape, ba.transform),
                    false,
                    margin,
                ),
                _ => m,
            }
        };
        let mut m = collide_at(margin);
        // One point where the pair can have two (no circle), and a capped margin: the other
        // point may lie between the cap and the whole approach (see `keep_within_margin`).
        if m.count == 1
            && wide > margin
            && faces_meet(&sa.shape, ba.transform, &sb.shape, bb.transform, m.normal)
        {
            let whole = keep_within_margin(collide_at(wide), margin);
            if whole.count == 2 {
                m = whole;
            }
        }
        // Bodies and materials are valid by the world's invariants; only the manifold is
        // checked (a non-finite one gives no contact, and is not kept).
        let usable = m.count == 0 || solver::usable(&m);
        if usable {
            for (cp, mp) in out.points.iter_mut().zip(m.points()) {
                *cp = solver::constraint_point(mp, m.normal, (ca, ba), (cb, bb));
            }
            (out.normal, out.count) = (m.normal, m.points().len() as u32);
            // The manifold itself is read only by a begin event and the pre-solve hook.
            if hooked || !was_touching {
                out.fresh = m;
                out.is_fresh = true;
            }
        }
        let (points, normal) = (&out.points[..out.count as usize], out.normal);
        memory.cache = usable.then(|| ContactCache::new(points, normal, margin, (ca, ba), (cb, bb)));
    }

    /// The serial update of the awake contact `active[k]` from what the collide pass found:
    /// touching state and events, the pre-solve hook, waking what it touches, and its
    /// constraint built into a SIMD lane of the graph colouring. A pair whose fat boxes
    /// parted is listed in `parting`. Returns false when the blocks could not grow.
    #[inline]
    fn update_contact(
        &mut self,
        found: &Collided,
        open: &mut [(u32, u32); 2 * COLORS],
        hooks: Option<&mut (dyn ContactHooks + '_)>,
    ) -> bool {
        let k = found.k as usize;
        let sim = &self.active[k];
        let (c, a, b, was_touching) = (sim.id, sim.a, sim.b, sim.touching);
        let (oa, ob) = (sim.oa, sim.ob);
        match found.state {
            Collided::PARTED => {
                self.scratch.parting.push(c);
                return true;
            }
            Collided::SENSOR => {
                let overlapping = found.overlapping;
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
                return true;
            }
            _ => {}
        }
        if found.stale_edges {
            self.refresh_internal_edges(a as usize);
            self.refresh_internal_edges(b as usize);
        }
        let (normal, points) = (found.normal, &found.points);
        let mut count = found.count as usize;
        if count != 0 {
            if let Some(h) = hooks {
                let manifold = found.manifold();
                if !h.pre_solve(self, self.shape_id_of(a), self.shape_id_of(b), &manifold) {
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
            return true;
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
        // step (its contacts join `active` and are collided in the next round).
        for s in [oa, ob] {
            if self.hot[s as usize].island != NONE {
                self.wake_body(s);
            }
        }
        let (ia, ib) = (self.solver_index(oa), self.solver_index(ob));
        let (ba, bb) = (&self.bodies[a as usize], &self.bodies[b as usize]);
        let masses = [(ba.inv_mass, ba.inv_inertia), (bb.inv_mass, bb.inv_inertia)];
        // Without room for its block the contact still counts as touching (its events stand)
        // and the step fails before the solver.
        let color = self.active[k].color;
        let place = match self.claim_lane((ia, ib), masses, open, (count == 2, color)) {
            Some((block, lane, color)) => {
                self.active[k].color = color;
                // Built straight into its lane (no constraint in between).
                let (ba, bb) = (&self.bodies[a as usize], &self.bodies[b as usize]);
                let mut points = *points;
                if count == 2 && !carried.as_ref().is_some_and(solver::Carried::pushed) {
                    if let Some(sink) = land_together(&mut points, normal, self.last_dt) {
                        // A landing on a static or kinematic shape: the continuous phase
                        // accepts the near point sunk in by this much (room reserved by
                        // `reserve_step`, one per contact).
                        match (ba.inv_mass == 0.0, bb.inv_mass == 0.0) {
                            (true, false) => self.scratch.landed.push((ob, sink)),
                            (false, true) => self.scratch.landed.push((oa, sink)),
                            _ => {}
                        }
                    }
                }
                let ids = self.blocks[block].fill_lane(
                    lane,
                    (ia, ba),
                    (ib, bb),
                    (normal, points, count),
                    (friction, restitution),
                    carried.as_ref(),
                );
                self.block_ids[block][lane] = ids;
                if self.sleep_enabled && ia != 0 && ib != 0 {
                    self.scratch.links.push((ia - 1, ib - 1));
                }
                (block * solver::ContactBlock::LANES + lane) as u32
            }
            None => NONE,
        };
        let sim = &mut self.active[k];
        sim.touching = true;
        sim.solved = place;
        if !was_touching {
            self.contacts[c as usize].touching = true;
            self.touching_count += 1;
            let manifold = found.manifold();
            self.begin.push(ContactEvent {
                body_a: self.id_of(a),
                body_b: self.id_of(b),
                manifold,
                shape_a: self.shape_id_of(a),
                shape_b: self.shape_id_of(b),
            });
        }
        place != NONE
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
/// [`speculative_margins`]), so recycling also requires this step's margin (`touching.1`) to
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

/// A face landing on a face, nearly flat: both points of a two-point manifold that pushed at
/// neither point last step (normal `n`) approach by more than the linear slop in this step of
/// `dt`, the near point closes its gap within the step and the far point the difference
/// between the two gaps, and the faces meet at less than about 0.2 rad (the difference under
/// a fifth of the points' distance apart). Then the near point is taken to be as far as the
/// far one, so that both points land together: the near one sinks in by the difference (as
/// Box2D's constant margin lets a landing body sink in) and the soft contact pushes it out
/// over the next steps, with both points pushing. Solved as they are, the near point lands
/// first, its impulse spins the body onto the far one, and that second impact throws it up:
/// a box tilted 0.05 rad landing at 5 m/s spins at 7.9 rad/s and hops at 1.2 m/s that way,
/// and lands flat this way (`tests/landing.rs`). Returns the difference when the points
/// were taken together.
fn land_together(points: &mut [ConstraintPoint; 2], n: Vec2, dt: f32) -> Option<f32> {
    let gap = |p: &ConstraintPoint| p.base_separation + (p.anchor_b - p.anchor_a).dot(n);
    let reach = |p: &ConstraintPoint| -p.relative_velocity * dt;
    let (near, far) = if gap(&points[0]) <= gap(&points[1]) {
        (0, 1)
    } else {
        (1, 0)
    };
    let (pn, pf) = (&points[near], &points[far]);
    let diff = gap(pf) - gap(pn);
    let apart = (pf.anchor_a - pn.anchor_a).length_squared();
    if reach(pn) > LINEAR_SLOP.max(gap(pn))
        && reach(pf) > LINEAR_SLOP.max(diff)
        && diff * diff <= 0.04 * apart
    {
        points[near].base_separation += diff;
        return Some(diff);
    }
    None
}
