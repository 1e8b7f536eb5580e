//! [`ContactBlock`]: [`BLOCK`] consecutive constraints that share no moving body, in lanes:
//! packed once per step from the caller's constraints ([`pack`], written back by [`unpack`])
//! or filled lane by lane by the World, and the passes over blocks, each processed whole. The
//! tests check every path (one at a time, gathered, packed, the World's blocks on body states)
//! against the others, bit for bit.

use super::lanes::{Lane, Wide};
use super::layout::{independent, masses, BodyLanes, ContactLanes, Motion, BLOCK};
use super::passes::{run_lanes, Pass};
use super::{Body, ContactConstraint};
// Filling and reading single lanes (the World's way).
#[cfg(feature = "alloc")]
use {super::layout::PointLanes, super::prepare::Carried, super::ConstraintPoint, crate::math::Vec2};

/// Four consecutive constraints that share no moving body, packed once per step into
/// lanes (structure of arrays) by [`step_with_scratch`](super::step_with_scratch), so that
/// the passes read them without gathering. Scratch memory: the contents are meaningless
/// between steps. About 560 bytes (with the four bodies' masses, packed once per step).
#[derive(Clone, Copy)]
#[repr(C)]
pub struct ContactBlock {
    lanes: ContactLanes<BLOCK>,
    body_a: [u32; BLOCK],
    body_b: [u32; BLOCK],
    /// The bodies' inverse masses and inertias, per lane.
    inv_mass_a: Wide<BLOCK>,
    inv_inertia_a: Wide<BLOCK>,
    inv_mass_b: Wide<BLOCK>,
    inv_inertia_b: Wide<BLOCK>,
    /// Index of the first of the constraints in the step's slice.
    pub(super) start: u32,
}

impl ContactBlock {
    /// Constraints per block.
    pub const LANES: usize = BLOCK;
}

impl Default for ContactBlock {
    fn default() -> Self {
        let run = [ContactConstraint::default(); BLOCK];
        ContactBlock {
            lanes: ContactLanes::gather(&run),
            body_a: [0; BLOCK],
            body_b: [0; BLOCK],
            inv_mass_a: Wide::splat(0.0),
            inv_inertia_a: Wide::splat(0.0),
            inv_mass_b: Wide::splat(0.0),
            inv_inertia_b: Wide::splat(0.0),
            start: u32::MAX,
        }
    }
}

impl ContactBlock {
    /// Works out the lanes' two-point coupling (see [`ContactLanes::couple`]) once all are
    /// filled, before the step's passes.
    #[cfg(feature = "alloc")]
    #[inline(always)]
    pub(crate) fn couple(&mut self) {
        self.lanes.couple(
            (self.inv_mass_a, self.inv_inertia_a),
            (self.inv_mass_b, self.inv_inertia_b),
        );
    }

    /// Puts constraint `c` into lane `l`, with its bodies' inverse masses and inertias
    /// `masses` (A's, then B's). The lanes never filled stay empty: body 0 on both
    /// sides, no points, so every pass leaves them (and body 0, when it is fixed) unchanged.
    /// Blocks filled this way are for [`run_blocks`]: the caller guarantees that no moving
    /// body appears in two lanes of a block.
    #[cfg(all(test, feature = "alloc"))]
    pub(crate) fn set_lane(&mut self, l: usize, c: &ContactConstraint, masses: [(f32, f32); 2]) {
        let [(ma, ia), (mb, ib)] = masses;
        self.lanes.set(l, c);
        self.body_a[l] = c.body_a;
        self.body_b[l] = c.body_b;
        self.inv_mass_a.0[l] = ma;
        self.inv_inertia_a.0[l] = ia;
        self.inv_mass_b.0[l] = mb;
        self.inv_inertia_b.0[l] = ib;
        self.couple();
    }

    /// Builds the constraint of `manifold` (with points, and
    /// [`usable`](super::prepare::usable)) between the bodies at solver indices `a` and `b`
    /// (with centres of mass `ca` and `cb`, their [`Body::center`]) straight into lane `l`,
    /// warm-started from `previous`: the lane
    /// [`build_constraint`](super::prepare::build_constraint) and [`ContactBlock::set_lane`]
    /// give, bit for bit, without the constraint in between.
    /// Returns the points' feature ids (the lanes do not hold them).
    #[cfg(all(test, feature = "alloc"))]
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn build_lane(
        &mut self,
        l: usize,
        (a, ba, ca): (u32, &Body, Vec2),
        (b, bb, cb): (u32, &Body, Vec2),
        manifold: &crate::narrowphase::Manifold,
        friction: f32,
        restitution: f32,
        previous: Option<&Carried>,
    ) -> [u32; 2] {
        let pts = manifold.points();
        let mut points = [ConstraintPoint::default(); 2];
        for (cp, mp) in points.iter_mut().zip(pts) {
            *cp = super::prepare::constraint_point(mp, manifold.normal, (ca, ba), (cb, bb));
        }
        self.fill_lane(
            l,
            (a, ba),
            (b, bb),
            (manifold.normal, points, pts.len()),
            (friction, restitution),
            previous,
        )
    }

    /// Puts the constraint with normal `normal` and its first `count` points `points`
    /// (impulses zero; see [`constraint_point`](super::prepare::constraint_point)) between the
    /// bodies at solver indices `a` and `b` into lane `l`, warm-started from `previous`: the
    /// last part of [`ContactBlock::build_lane`], for points prepared elsewhere (the World's
    /// recycled contacts). Returns the points' feature ids.
    #[cfg(feature = "alloc")]
    #[inline(always)]
    pub(crate) fn fill_lane(
        &mut self,
        l: usize,
        (a, ba): (u32, &Body),
        (b, bb): (u32, &Body),
        (normal, mut points, count): (Vec2, [ConstraintPoint; 2], usize),
        (friction, restitution): (f32, f32),
        previous: Option<&Carried>,
    ) -> [u32; 2] {
        let count = count.min(2);
        if let Some(prev) = previous {
            super::prepare::warm_start_points(&mut points[..count], prev);
        }
        self.lanes
            .set_parts(l, normal, friction, restitution, &points, count as u32);

        self.body_a[l] = a;
        self.body_b[l] = b;
        self.inv_mass_a.0[l] = ba.inv_mass;
        self.inv_inertia_a.0[l] = ba.inv_inertia;
        self.inv_mass_b.0[l] = bb.inv_mass;
        self.inv_inertia_b.0[l] = bb.inv_inertia;
        [points[0].id, points[1].id]
    }

    /// The body indices of lane `l` (`(0, 0)` for an empty lane).
    #[cfg(feature = "alloc")]
    pub(crate) fn lane_bodies(&self, l: usize) -> (u32, u32) {
        (self.body_a[l], self.body_b[l])
    }

    /// Lane `l` as a constraint (its impulses as the last pass left them), with the points'
    /// feature ids `ids`.
    #[cfg(feature = "alloc")]
    pub(crate) fn lane(&self, l: usize, ids: [u32; 2]) -> ContactConstraint {
        self.lanes.get(l, self.lane_bodies(l), ids)
    }

    /// What warm starting the next step needs from lane `l` (see [`ContactBlock::lane`]).
    #[cfg(feature = "alloc")]
    pub(crate) fn carried(&self, l: usize, ids: [u32; 2]) -> Carried {
        // Only what warm starting reads (the same values `lane` gives): anchors on A,
        // impulses and the count of leading active points.
        let [p0, p1] = &self.lanes.points;
        let point = |p: &PointLanes<BLOCK>, id: u32| {
            (
                id,
                Vec2::new(p.ra.x.0[l], p.ra.y.0[l]),
                p.normal_impulse.0[l],
                p.tangent_impulse.0[l],
            )
        };
        let count = match (p0.active[l] != 0, p1.active[l] != 0) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        };
        Carried {
            count,
            points: [point(p0, ids[0]), point(p1, ids[1])],
        }
    }

    /// Whether some lane has restitution.
    #[cfg(feature = "alloc")]
    fn bouncy(&self) -> bool {
        Wide::any(self.lanes.restitution.gt(Wide::splat(0.0)))
    }
}

/// One pass over `blocks` in order, every block processed whole in lanes: for blocks filled
/// by [`ContactBlock::set_lane`], whose lanes share no moving body.
#[cfg(feature = "alloc")]
pub(crate) fn run_blocks<B: Motion>(bodies: &mut [B], blocks: &mut [ContactBlock], pass: &Pass) {
    // The same dispatch as `run_pass`, written out: passed through a shared helper taking a
    // closure, the kernel was compiled once for a run-time pass (the closure is not inlined
    // at four call sites) and a large pyramid's step got about 20 % slower.
    match *pass {
        Pass::WarmStart => blocks_with(bodies, blocks, &Pass::WarmStart),
        Pass::Solve {
            soft_dynamic,
            soft_static,
            inv_h,
            push_max,
            use_bias,
        } => {
            let pass = |use_bias| Pass::Solve {
                soft_dynamic,
                soft_static,
                inv_h,
                push_max,
                use_bias,
            };
            if use_bias {
                blocks_with(bodies, blocks, &pass(true));
            } else {
                blocks_with(bodies, blocks, &pass(false));
            }
        }
        Pass::Restitution { threshold } => blocks_with(bodies, blocks, &Pass::Restitution { threshold }),
    }
}

/// Whether some block has restitution (otherwise restitution passes change nothing).
#[cfg(feature = "alloc")]
pub(crate) fn any_bouncy_block(blocks: &[ContactBlock]) -> bool {
    blocks.iter().any(ContactBlock::bouncy)
}

#[cfg(feature = "alloc")]
#[inline(always)]
fn blocks_with<B: Motion>(bodies: &mut [B], blocks: &mut [ContactBlock], pass: &Pass) {
    for blk in blocks {
        run_block(bodies, blk, pass);
    }
}

/// One pass over one block's four lanes.
#[inline(always)]
pub(super) fn run_block<B: Motion>(bodies: &mut [B], blk: &mut ContactBlock, pass: &Pass) {
    // A restitution pass changes nothing in a block without a bouncing point (every lane is
    // masked off), so it skips the body loads and stores as well: the same result, bit for
    // bit, and a settled scene with a little restitution pays almost nothing for its
    // restitution passes.
    if let Pass::Restitution { threshold } = *pass {
        if !blk.lanes.bounces(threshold) {
            return;
        }
    }
    let (ia, ib) = (blk.body_a.map(|i| i as usize), blk.body_b.map(|i| i as usize));
    let mut a = BodyLanes::load_with(bodies, ia, blk.inv_mass_a, blk.inv_inertia_a);
    let mut b = BodyLanes::load_with(bodies, ib, blk.inv_mass_b, blk.inv_inertia_b);
    // Most blocks have two points in every lane (box stacks) or one in every lane (round
    // shapes): their passes skip the masks, and the second point when no lane has one.
    let [p0, p1] = &blk.lanes.points;
    let shape = (Wide::all(p0.active), Wide::any(p1.active), Wide::all(p1.active));
    let lanes = &mut blk.lanes;
    match shape {
        (true, true, true) => run_lanes::<BLOCK, true, false>(&mut a, &mut b, lanes, pass),
        (true, false, _) => run_lanes::<BLOCK, true, true>(&mut a, &mut b, lanes, pass),
        (false, false, _) => run_lanes::<BLOCK, false, true>(&mut a, &mut b, lanes, pass),
        _ => run_lanes::<BLOCK, false, false>(&mut a, &mut b, lanes, pass),
    }
    a.store(bodies, ia);
    b.store(bodies, ib);
}

impl core::fmt::Debug for ContactBlock {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ContactBlock")
            .field("start", &self.start)
            .finish_non_exhaustive()
    }
}

/// Packs as many runs of independent constraints as fit into `blocks` (in slice order, runs
/// not overlapping) and returns how many blocks were filled.
pub(crate) fn pack(bodies: &[Body], contacts: &[ContactConstraint], blocks: &mut [ContactBlock]) -> usize {
    let mut used = 0;
    let mut k = 0;
    while used < blocks.len() {
        let Some(run) = contacts.get(k..k + BLOCK) else {
            break;
        };
        let run: &[ContactConstraint; BLOCK] = run.try_into().expect("BLOCK long");
        match independent(bodies, run) {
            Some(pairs) => {
                let (ia, ib) = (pairs.map(|p| p.0), pairs.map(|p| p.1));
                let ((inv_mass_a, inv_inertia_a), (inv_mass_b, inv_inertia_b)) =
                    (masses(bodies, ia), masses(bodies, ib));
                let mut lanes = ContactLanes::gather(run);
                lanes.couple((inv_mass_a, inv_inertia_a), (inv_mass_b, inv_inertia_b));
                blocks[used] = ContactBlock {
                    lanes,
                    body_a: ia.map(|i| i as u32),
                    body_b: ib.map(|i| i as u32),
                    inv_mass_a,
                    inv_inertia_a,
                    inv_mass_b,
                    inv_inertia_b,
                    start: k as u32,
                };
                used += 1;
                k += BLOCK;
            }
            None => k += 1,
        }
    }
    used
}

/// Writes the blocks' results back into `contacts`.
pub(crate) fn unpack(blocks: &[ContactBlock], contacts: &mut [ContactConstraint]) {
    for blk in blocks {
        let start = blk.start as usize;
        if let Some(run) = contacts.get_mut(start..start + BLOCK) {
            blk.lanes.scatter(run.try_into().expect("BLOCK long"));
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::geometry::{Polygon, Shape};
    use crate::math::Transform;
    use crate::narrowphase::collide_with_margin;
    use crate::solver::gather::{run_gathered, run_pass};
    use crate::solver::layout::{is_fixed, pair_indices, BodyState};
    use crate::solver::prepare::{build_constraint, Carried};
    use crate::solver::stepping::{solve_pass, step_blocks, VelocityKick};
    use crate::solver::{
        integrate_positions, integrate_velocities, prepare_contact, SolverSettings, RESTITUTION_PASSES,
    };

    use crate::test_rng::Rng;

    /// A jumble of boxes at `scale` (some static, some bouncy, all moving), their contacts in
    /// random order with impulses from a first step.
    fn scene(seed: u64, scale: f32) -> ([Body; 40], [ContactConstraint; 120], usize) {
        let mut rng = Rng(seed);
        let unit = Shape::Polygon(Polygon::make_box(0.5 * scale, 0.5 * scale).unwrap());
        let mut bodies = [Body::new_static(Transform::IDENTITY); 40];
        for (i, b) in bodies.iter_mut().enumerate() {
            let xf = Transform::new(
                crate::math::Vec2::new((i % 8) as f32 * 0.95 * scale, (i / 8) as f32 * 0.95 * scale),
                rng.f(-0.1, 0.1),
            );
            *b = if i % 7 == 0 {
                Body::new_static(xf)
            } else {
                let mut d = Body::new_dynamic(xf, unit.mass(1.0)).unwrap();
                d.linear_velocity = crate::math::Vec2::new(rng.f(-2.0, 2.0), rng.f(-2.0, 2.0)) * scale;
                d.angular_velocity = rng.f(-2.0, 2.0);
                d
            };
        }
        let mut contacts = [ContactConstraint::default(); 120];
        let mut n = 0;
        for i in 0..40 {
            for j in i + 1..40 {
                let (xa, xb) = (bodies[i].transform, bodies[j].transform);
                let m = collide_with_margin(&unit, xa, &unit, xb, 0.05 * scale);
                if m.count > 0 && n < contacts.len() {
                    let e = if (i + j) % 3 == 0 { 0.8 } else { 0.0 };
                    contacts[n] = prepare_contact(&bodies, i as u32, j as u32, &m, 0.6, e, None).unwrap();
                    n += 1;
                }
            }
        }
        for k in (1..n).rev() {
            contacts.swap(k, (rng.next() % (k as u64 + 1)) as usize);
        }
        (bodies, contacts, n)
    }

    /// A two-point constraint solved alone by one relax pass (rigid rows, no bias for
    /// touching points, no friction) ends at the solution of its linear complementarity problem, checked
    /// against the conditions themselves, from velocities measured after the pass: both
    /// totals ≥ 0, both points' approach speeds no faster than their speculative allowance
    /// (`vₙ ≥ −s/h`, 0 when touching), and a point that pushes moves at exactly that speed.
    #[test]
    fn a_pair_of_points_solved_together_meets_the_complementarity_conditions() {
        let (mut pairs, mut pushing_one) = (0, 0);
        for seed in 0..40u64 {
            let scale = [0.01f32, 1.0, 100.0][seed as usize % 3];
            let (bodies, mut contacts, n) = scene(seed, scale);
            let settings = SolverSettings::default();
            let h = (1.0 / 60.0) / settings.substeps as f32;
            let relax = solve_pass(&settings, h, false);
            for c in contacts[..n].iter_mut().filter(|c| c.count == 2) {
                let mut b = bodies;
                for cp in &mut c.points {
                    cp.normal_impulse = 0.0;
                }
                // Without friction the relax pass ends with the normal solve.
                c.friction = 0.0;
                let pair = pair_indices(b.len(), c).unwrap();
                run_gathered(&mut b, core::array::from_mut(c), [pair], &relax);
                let (ba, bb) = (&b[pair.0], &b[pair.1]);
                let speed = |cp: &ConstraintPoint| {
                    let va = ba.linear_velocity + cp.anchor_a.left_perp() * ba.angular_velocity;
                    let vb = bb.linear_velocity + cp.anchor_b.left_perp() * bb.angular_velocity;
                    (vb - va).dot(c.normal)
                };
                let vmax = (ba.linear_velocity - bb.linear_velocity).length() + scale;
                let mut pushing = 0;
                for cp in &c.points {
                    // Bodies have not moved: the separation is the manifold's (base
                    // separation plus the anchors' offset along the normal).
                    let s = cp.base_separation + (cp.anchor_b - cp.anchor_a).dot(c.normal);
                    let w = speed(cp) + s.max(0.0) / h;
                    let tol = 1e-4 * vmax.max(s.abs() / h);
                    assert!(cp.normal_impulse >= 0.0, "seed {seed}");
                    assert!(
                        w >= -tol,
                        "seed {seed}: point approaches too fast ({w}, tol {tol})"
                    );
                    if cp.normal_impulse > 0.0 {
                        assert!(w.abs() <= tol, "seed {seed}: a pushing point separates ({w})");
                        pushing += 1;
                    }
                }
                pairs += 1;
                pushing_one += usize::from(pushing == 1);
            }
        }
        assert!(
            pairs > 100 && pushing_one > 5,
            "cases: {pairs} pairs, {pushing_one} with one point pushing"
        );
    }

    /// The step of `solver::step`, with each pass done by `pass`.
    fn step_by(
        bodies: &mut [Body],
        contacts: &mut [ContactConstraint],
        mut pass: impl FnMut(&mut [Body], &mut [ContactConstraint], &Pass),
    ) {
        let settings = SolverSettings::default();
        let h = (1.0 / 60.0) / settings.substeps as f32;
        for b in bodies.iter_mut() {
            b.delta_position = crate::math::Vec2::ZERO;
            b.delta_rotation = crate::math::Rot::IDENTITY;
        }
        for c in contacts.iter_mut() {
            for cp in &mut c.points {
                cp.max_normal_impulse = 0.0;
            }
        }
        for _ in 0..settings.substeps {
            integrate_velocities(bodies, settings.gravity, h);
            pass(bodies, contacts, &Pass::WarmStart);
            pass(bodies, contacts, &solve_pass(&settings, h, true));
            integrate_positions(bodies, h, settings.max_linear_speed);
            pass(bodies, contacts, &solve_pass(&settings, h, false));
        }
        for _ in 0..RESTITUTION_PASSES {
            pass(bodies, contacts, &Pass::Restitution { threshold: 0.5 });
        }
    }

    fn bits(bodies: &[Body], contacts: &[ContactConstraint]) -> ([u32; 18], [u32; 30]) {
        let mut h = ([0u32; 18], [0u32; 30]);
        for (i, w) in bytemuck::cast_slice::<Body, u32>(bodies).iter().enumerate() {
            h.0[i % 18] ^= w.rotate_left((i / 18) as u32 % 32);
        }
        for (i, w) in bytemuck::cast_slice::<ContactConstraint, u32>(contacts)
            .iter()
            .enumerate()
        {
            h.1[i % 30] ^= w.rotate_left((i / 30) as u32 % 32);
        }
        h
    }

    /// The World's path: constraints packed once into blocks, some lanes left empty, every
    /// block run whole. Same bits as solving the constraints one at a time in block order.
    /// `build_lane` (the World's way) gives the lane `build_constraint` then `set_lane`
    /// give, bit for bit: from scene manifolds at three scales, warm-started from the
    /// constraint of a shifted pose (ids kept, anchors moved, so both matching rules run)
    /// and cold, into every lane position.
    #[test]
    fn lanes_built_in_place_match_built_constraints_bit_for_bit() {
        let mut warm = 0;
        for seed in 0..30u64 {
            let scale = [0.01f32, 1.0, 100.0][seed as usize % 3];
            let (bodies, _, _) = scene(seed, scale);
            let unit = Shape::Polygon(Polygon::make_box(0.5 * scale, 0.5 * scale).unwrap());
            let mut rng = Rng(seed ^ 0x5eed);
            let mut l = 0;
            for i in 0..40u32 {
                for j in i + 1..40u32 {
                    let (ba, bb) = (&bodies[i as usize], &bodies[j as usize]);
                    let m = collide_with_margin(&unit, ba.transform, &unit, bb.transform, 0.05 * scale);
                    if m.count == 0 {
                        continue;
                    }
                    // Last step's constraint: the pair a little apart, with made-up impulses.
                    let mut shifted = *bb;
                    shifted.transform.p += crate::math::Vec2::new(rng.f(-0.03, 0.03), 0.0) * scale;
                    let m0 = collide_with_margin(&unit, ba.transform, &unit, shifted.transform, 0.05 * scale);
                    let mut old = prepare_contact(&bodies, i, j, &m0, 0.6, 0.2, None).unwrap_or_default();
                    for cp in &mut old.points {
                        cp.normal_impulse = rng.f(0.0, 2.0);
                        cp.tangent_impulse = rng.f(-1.0, 1.0);
                        if rng.next() % 3 == 0 {
                            cp.id ^= 0x0101;
                        }
                    }
                    let carried = (rng.next() % 4 != 0).then(|| Carried::new(&old));
                    warm += usize::from(carried.is_some() && old.count > 0);
                    let mut c = ContactConstraint::default();
                    build_constraint(&mut c, (i, ba), (j, bb), &m, 0.6, 0.2, carried.as_ref()).unwrap();
                    let (mut one, mut two) = (ContactBlock::default(), ContactBlock::default());
                    one.set_lane(
                        l,
                        &c,
                        [(ba.inv_mass, ba.inv_inertia), (bb.inv_mass, bb.inv_inertia)],
                    );
                    let ids = two.build_lane(
                        l,
                        (i, ba, ba.center()),
                        (j, bb, bb.center()),
                        &m,
                        0.6,
                        0.2,
                        carried.as_ref(),
                    );
                    assert_eq!(ids, [c.points[0].id, c.points[1].id]);
                    assert_eq!(
                        bytemuck::bytes_of(&one.lane(l, ids)),
                        bytemuck::bytes_of(&two.lane(l, ids)),
                        "seed {seed}, pair {i} {j}"
                    );
                    assert_eq!(one.lane_bodies(l), two.lane_bodies(l));
                    for (x, y) in [
                        (one.inv_mass_a, two.inv_mass_a),
                        (one.inv_inertia_a, two.inv_inertia_a),
                        (one.inv_mass_b, two.inv_mass_b),
                        (one.inv_inertia_b, two.inv_inertia_b),
                    ] {
                        assert_eq!(x.0.map(f32::to_bits), y.0.map(f32::to_bits));
                    }
                    l = (l + 1) % BLOCK;
                }
            }
        }
        assert!(warm > 100, "warm starts exercised: {warm}");
    }

    #[test]
    fn padded_blocks_agree_with_one_at_a_time_bit_for_bit() {
        let mut padded = 0;
        for seed in 0..30u64 {
            let scale = [0.01f32, 1.0, 100.0][seed as usize % 3];
            let (bodies, mut contacts, n) = scene(seed, scale);
            for c in &mut contacts[..n] {
                for cp in &mut c.points {
                    cp.max_normal_impulse = 0.0;
                }
            }
            // Blocks in slice order: a block closes when full or when the next constraint
            // shares a moving body with it (so many blocks have empty lanes).
            let mut blocks: std::vec::Vec<ContactBlock> = std::vec::Vec::new();
            let mut place = std::vec::Vec::new();
            let mut lanes = BLOCK;
            let mut moving: std::vec::Vec<u32> = std::vec::Vec::new();
            for c in &contacts[..n] {
                let mine = [c.body_a, c.body_b]
                    .into_iter()
                    .filter(|&i| !is_fixed(&bodies[i as usize]));
                let clash = mine.clone().any(|i| moving.contains(&i));
                if lanes == BLOCK || clash {
                    padded += BLOCK - lanes.min(BLOCK);
                    blocks.push(ContactBlock::default());
                    lanes = 0;
                    moving.clear();
                }
                moving.extend(mine);
                let m = |i: u32| (bodies[i as usize].inv_mass, bodies[i as usize].inv_inertia);
                blocks
                    .last_mut()
                    .unwrap()
                    .set_lane(lanes, c, [m(c.body_a), m(c.body_b)]);
                place.push((blocks.len() - 1, lanes));
                lanes += 1;
            }
            let (mut b1, mut c1) = (bodies, contacts);
            step_by(&mut b1, &mut c1[..n], |b, c, p| {
                for con in c.iter_mut() {
                    if let Some(pair) = pair_indices(b.len(), con) {
                        run_gathered(b, core::array::from_mut(con), [pair], p);
                    }
                }
            });
            // The World's form: `step_blocks`, whose passes run on compact body states.
            let mut b3 = bodies;
            let mut blocks3 = blocks.clone();
            let mut states = [BodyState::default(); 40];
            let mut kicks = [VelocityKick::default(); 40];
            let settings = SolverSettings {
                restitution_threshold: 0.5,
                ..SolverSettings::default()
            };
            step_blocks(
                &mut b3,
                &mut states,
                &mut kicks,
                &mut blocks3,
                (&mut [], &mut []),
                &settings,
                1.0 / 60.0,
            );
            let mut c3 = contacts;
            for (c, &(k, l)) in c3[..n].iter_mut().zip(&place) {
                *c = blocks3[k].lane(l, [c.points[0].id, c.points[1].id]);
            }
            let (mut b2, mut c2) = (bodies, contacts);
            step_by(&mut b2, &mut c2[..n], |b, _, p| run_blocks(b, &mut blocks, p));
            for (c, &(k, l)) in c2[..n].iter_mut().zip(&place) {
                *c = blocks[k].lane(l, [c.points[0].id, c.points[1].id]);
            }
            assert_eq!(
                bits(&b1, &c1),
                bits(&b2, &c2),
                "seed {seed}: padded blocks differ"
            );
            assert_eq!(
                bits(&b1, &c1),
                bits(&b3, &c3),
                "seed {seed}: step_blocks on body states differs"
            );
        }
        assert!(padded > 30, "empty lanes exercised: {padded}");
    }

    #[test]
    fn lanes_blocks_and_one_at_a_time_agree_bit_for_bit() {
        let mut saw_blocks = 0;
        let mut saw_singles = 0;
        for seed in 0..30u64 {
            let scale = [0.01f32, 1.0, 100.0][seed as usize % 3];
            let (bodies, contacts, n) = scene(seed, scale);
            // One constraint at a time, in order: plain sequential Gauss–Seidel.
            let (mut b1, mut c1) = (bodies, contacts);
            step_by(&mut b1, &mut c1[..n], |b, c, p| {
                for con in c.iter_mut() {
                    if let Some(pair) = pair_indices(b.len(), con) {
                        run_gathered(b, core::array::from_mut(con), [pair], p);
                    }
                }
            });
            // Runs of independent constraints gathered into lanes on every pass.
            let (mut b2, mut c2) = (bodies, contacts);
            step_by(&mut b2, &mut c2[..n], |b, c, p| run_pass(b, c, &mut [], p));
            // Runs packed once into blocks (some of them: the scratch is short).
            let (mut b3, mut c3) = (bodies, contacts);
            let mut scratch = [ContactBlock::default(); 6];
            let packed = pack(&b3, &c3[..n], &mut scratch);
            saw_blocks += packed;
            saw_singles += n - packed * BLOCK;
            step_by(&mut b3, &mut c3[..n], |b, c, p| {
                run_pass(b, c, &mut scratch[..packed], p)
            });
            unpack(&scratch[..packed], &mut c3[..n]);
            assert_eq!(
                bits(&b1, &c1),
                bits(&b2, &c2),
                "seed {seed}: lanes differ from one at a time"
            );
            assert_eq!(
                bits(&b1, &c1),
                bits(&b3, &c3),
                "seed {seed}: blocks differ from one at a time"
            );
            assert!(b1.iter().all(Body::is_valid));
        }
        assert!(
            saw_blocks > 30 && saw_singles > 30,
            "both paths exercised: {saw_blocks} {saw_singles}"
        );
        std::eprintln!(
            "packed blocks {saw_blocks}, constraints left to the gathered paths {saw_singles}: bit-identical"
        );
    }
}

#[cfg(feature = "alloc")]
crate::wire::wire_struct!(ContactBlock {
    lanes: ContactLanes<BLOCK>,
    body_a: [u32; BLOCK],
    body_b: [u32; BLOCK],
    inv_mass_a: Wide<BLOCK>,
    inv_inertia_a: Wide<BLOCK>,
    inv_mass_b: Wide<BLOCK>,
    inv_inertia_b: Wide<BLOCK>,
    start: u32,
});
