//! The continuous phase: fast dynamic bodies swept against static and kinematic shapes
//! (bullets also against dynamic ones) and stopped at the first time of impact.

use super::*;
use crate::geometry::Circle;
use crate::narrowphase::overlaps_aabb_shape;
use crate::toi::{time_of_impact, Sweep, ToiOutput, ToiState};

/// A fast body whose sweep starts overlapping or touching a shape retries with a circle of
/// this fraction of its smallest extent about its centroid (Box2D's `B2_CORE_FRACTION`): the
/// core still catches a pass-through while the surface is allowed to start in contact.
const CORE_FRACTION: f32 = 0.25;

/// The point of a shape that stays inside it when it is shrunk: its centroid.
fn centroid(shape: &Shape) -> Vec2 {
    match shape {
        Shape::Circle(c) => c.center,
        Shape::Capsule(c) => (c.center1 + c.center2) * 0.5,
        Shape::Polygon(p) => p.centroid,
        Shape::ChainSegment(c) => (c.point1 + c.point2) * 0.5,
    }
}

/// Whether the swept region `path` certainly misses `shape` at `xf`, so no time of impact is
/// needed. For a polygon, a cheap separating-axis test on the polygon's own faces (the box's
/// axes were the tree query's): `path` lies beyond one face by more than the rounding radius
/// plus a tolerance. Conservative: `false` whenever they overlap, and also for some boxes
/// that only come close. The tolerance, [`SPECULATIVE_DISTANCE`] plus a millionth of the
/// coordinates' magnitude, covers the rounding of these few operations. Other shapes take
/// the exact [`overlaps_aabb_shape`].
fn misses(path: Aabb, shape: &Shape, xf: Transform) -> bool {
    let Shape::Polygon(p) = shape else {
        return !overlaps_aabb_shape(path, shape, xf);
    };
    let (c, h) = (path.center(), path.half_extents());
    let size = c.x.abs() + c.y.abs() + h.x + h.y + xf.p.x.abs() + xf.p.y.abs();
    let beyond = p.radius + SPECULATIVE_DISTANCE + 1e-6 * size;
    let count = (p.count as usize).min(p.vertices.len());
    p.vertices[..count]
        .iter()
        .zip(&p.normals[..count])
        .any(|(&v, &n)| {
            let n = xf.q.rotate(n);
            let gap = n.dot(c - xf.apply(v)) - (n.x.abs() * h.x + n.y.abs() * h.y);
            gap > beyond
        })
}

/// Whether a time of impact found the shapes overlapping, or touching, at the start of the
/// sweep (Box2D's `fraction == 0`).
fn starts_in_contact(out: &ToiOutput) -> bool {
    match out.state {
        ToiState::Overlapped => true,
        ToiState::Hit | ToiState::Failed => out.fraction <= 0.0,
        _ => false,
    }
}

/// A target of a sweep: a shape's pose and its body's centre of mass (body frame).
#[derive(Clone, Copy)]
struct Target {
    xf: Transform,
    local_center: Vec2,
}

/// One fast shape's sweep, as every target is checked against it.
struct SweepContext<'a> {
    /// The fast shape (body frame).
    shape: &'a Shape,
    sweep: &'a Sweep,
    /// The box the whole sweep stays in.
    path: Aabb,
    /// The shape's centroid (world) at the start and the end of the sweep.
    centroids: (Vec2, Vec2),
    /// The centroid in the body frame: the core's centre.
    local_centroid: Vec2,
    /// The core circle's radius, for a sweep that starts in contact.
    core_radius: f32,
    /// How far the solver let the body's near point sink in when it landed nearly flat this
    /// step (`land_together`), or 0.
    landing_sink: f32,
}

impl SweepContext<'_> {
    /// Lowers `fraction` to the earliest impact with `target_shape` at `target` (a static or
    /// kinematic shape, or a dynamic one for a bullet).
    fn sweep(&self, target_shape: &Shape, target: Target, fraction: &mut f32) {
        let (c1, c2) = self.centroids;
        let (core_radius, xf) = (self.core_radius, target.xf);
        // A one-sided segment whose line the centroid crosses from front to back.
        let mut crosses = false;
        if let Shape::ChainSegment(c) = target_shape {
            // One-sided, as Box2D's continuous phase: no sweep for a body whose centroid
            // starts behind the segment, nor for one that ends with its centroid more than
            // the core distance in front after closing in by less than that (sliding along
            // the surface). A body that ends deep in the face, its centroid in front but
            // within the core distance, is still swept: skipping every body whose centroid
            // stays in front let a ball flung at the spinner's ring end 80 % of its radius
            // into the face and leave behind it next step.
            let (p1, p2) = (xf.apply(c.point1), xf.apply(c.point2));
            let (e, length) = (p2 - p1).normalize_and_length();
            if length > MIN_SIDED_SEGMENT {
                let (s1, s2) = ((c1 - p1).cross(e), (c2 - p1).cross(e));
                if s1 < 0.0 || (s1 - s2 < core_radius && s2 > core_radius) {
                    return;
                }
                crosses = s2 < 0.0;
            }
        }
        // A shape the path's box does not touch cannot be hit: skip the time of impact
        // (the common case for a fast body inside a large container).
        if misses(self.path, target_shape, xf) {
            return;
        }
        let still = Sweep::from_transforms(target.local_center, xf, xf);
        let mut out = time_of_impact(target_shape, &still, self.shape, self.sweep, *fraction);
        // Overlapping, or touching, at the start (Box2D's `fraction == 0` fallback): a body
        // resting on the shape and pushed through it in one step (a spinner's bar pressing a
        // ball into the ring) must still be caught, by its core.
        if starts_in_contact(&out) {
            if let Ok(core) = Circle::new(self.local_centroid, core_radius) {
                out = time_of_impact(target_shape, &still, &Shape::Circle(core), self.sweep, *fraction);
                // The core itself starts on a one-sided segment that the centroid then
                // crosses: a body already sunk to its core in the face, about to leave behind
                // it (a box skimming a floor at 280 m/s, embedded by its first step). Box2D
                // ignores the core's hit at 0 and lets it through; here it stays where it
                // started, in front, for the next step's contact.
                if crosses && starts_in_contact(&out) {
                    *fraction = 0.0;
                    return;
                }
            }
        }
        let hit = matches!(out.state, ToiState::Hit | ToiState::Failed);
        if hit && 0.0 < out.fraction && out.fraction < *fraction && !self.ends_sunk_in_front(target_shape, xf)
        {
            *fraction = out.fraction;
        }
    }

    /// Whether the step's end pose leaves the shape at most the core distance (plus the
    /// sink a nearly flat landing was allowed this step) into the target (pose `xf`), with
    /// the centroid in front of the contact at both ends of the sweep: the solver's contact
    /// stopped the approach, and the next step's contact pushes the surface out. Pausing the
    /// body at the time of impact instead would undo what the solver did: a capsule landing
    /// nearly flat, both of its points taken together, would be put back on its near end
    /// and tip onto the far one.
    fn ends_sunk_in_front(&self, target_shape: &Shape, xf: Transform) -> bool {
        let end = self.sweep.transform_at(1.0);
        let m = collide_with_margin(target_shape, xf, self.shape, end, 0.0);
        let Some(first) = m.points().first() else {
            return false;
        };
        let (c1, c2) = self.centroids;
        let p = first.point;
        let allowed = self.core_radius + self.landing_sink;
        m.points().iter().all(|q| q.depth <= allowed)
            && (c1 - p).dot(m.normal) > 0.0
            && (c2 - p).dot(m.normal) > 0.0
    }
}

impl World {
    /// Sweeps the fast bodies found by `finalize_bodies` (non-bullets first, then bullets,
    /// which see the others at their final poses) and moves their proxies.
    pub(super) fn solve_continuous(&mut self) {
        // By slot, for a binary search per fast body (no allocation: sorted in place).
        self.scratch.landed.sort_unstable_by_key(|&(s, _)| s);
        for pass_bullets in [false, true] {
            for k in 0..self.scratch.fast.len() {
                let s = self.scratch.fast[k];
                if self.slots[s as usize].bullet == pass_bullets {
                    self.sweep_fast_body(s);
                }
            }
        }
    }

    /// Sweeps every shape of fast body `s` and stops the body at the earliest impact.
    fn sweep_fast_body(&mut self, s: u32) {
        let body = self.bodies[s as usize];
        let q2 = body.transform.q;
        let c2 = body.center();
        // `delta_rotation` composes onto the start rotation: q2 = delta · q1.
        let sweep = Sweep {
            local_center: body.local_center,
            c1: c2 - body.delta_position,
            c2,
            q1: body.delta_rotation.inv_mul(q2),
            q2,
        };
        let mut fraction = 1.0f32;
        // The last swept shape's end box (the body's own, when it has one shape).
        let mut end = Aabb::new(Vec2::ZERO, Vec2::ZERO);
        let mut k = s;
        while k != NONE {
            let (hit, box_k) = self.sweep_shape(s, k, &sweep, fraction);
            fraction = fraction.min(hit);
            end = box_k;
            k = self.slots[k as usize].next_shape;
        }
        // Cannot fail: the proxies are live and the pose finite.
        if fraction == 1.0 && self.slots[s as usize].next_shape == NONE {
            // Not stopped, one shape: its box at the end pose is the sweep's.
            let _ = self.sync_proxy_to(s as usize, end.inflated(SPECULATIVE_DISTANCE));
            return;
        }
        if fraction < 1.0 {
            // Stopped at the impact with its velocity kept: next step's contact (now within
            // the speculative distance) takes the impact.
            self.bodies[s as usize].transform = sweep.transform_at(fraction);
        }
        let _ = self.sync_body(s as usize);
    }

    /// The earliest impact (below `fraction`) of shape slot `k` of body `s` moving along
    /// `sweep`, or `fraction`; and the shape's box at the end of the sweep.
    fn sweep_shape(&self, s: u32, k: u32, sweep: &Sweep, mut fraction: f32) -> (f32, Aabb) {
        let body = self.bodies[s as usize];
        let slot = &self.slots[k as usize];
        let bullet = self.slots[s as usize].bullet;
        // The start box: the proxy's tight box, synced at the start pose, less the
        // speculative distance it holds.
        let start = self.boxes[k as usize].tight.inflated(-SPECULATIVE_DISTANCE);
        let end = slot.shape.aabb(body.transform);
        let swept = start.union(end);
        // The box the whole sweep stays in: the two end boxes, grown by how far a turning
        // point can bulge past the chord between its end positions: reach·(1 − cos(θ/2)),
        // at most reach·|sin θ| for turns up to 90°, at most the reach beyond.
        let dq = body.delta_rotation;
        let turn = if dq.c >= 0.0 { dq.s.abs() } else { 1.0 };
        let bulge = self.hot[s as usize].reach * turn;
        let path = swept.inflated(bulge);
        // Built only for a sweep that starts in contact (most never do).
        let core_radius = CORE_FRACTION * self.hot[s as usize].min_extent;
        let landed = &self.scratch.landed;
        let first = landed.partition_point(|&(b, _)| b < s);
        let landing_sink = landed[first..]
            .iter()
            .take_while(|&&(b, _)| b == s)
            .fold(0.0f32, |m, &(_, sink)| m.max(sink));
        // The shape's centroid (the core's centre), at the start and end of the sweep for
        // one-sided segments.
        let local_centroid = centroid(&slot.shape);
        let (c1, c2) = (
            sweep.transform_at(0.0).apply(local_centroid),
            sweep.transform_at(1.0).apply(local_centroid),
        );
        let ctx = SweepContext {
            shape: &slot.shape,
            sweep,
            path,
            centroids: (c1, c2),
            local_centroid,
            core_radius,
            landing_sink,
        };
        let (slots, bodies, joints) = (&self.slots, &self.bodies, &self.joints);
        // Non-bullets meet static and kinematic shapes only: their own tree.
        let tree = if bullet { &self.tree } else { &self.fixed_tree };
        tree.query(swept, u64::MAX, |_, user| {
            let o = user as u32;
            let other = &slots[o as usize];
            // Static and kinematic shapes always; dynamic ones only for a bullet, and
            // never another bullet (Box2D's rule).
            let other_bullet = slots[if other.parent == NONE { o } else { other.parent } as usize].bullet;
            let dynamic_skipped = other.kind == BodyKind::Dynamic && (!bullet || other_bullet);
            let same_body = o == s || other.parent == s;
            let owner = if other.parent == NONE { o } else { other.parent };
            let skip = same_body
                || dynamic_skipped
                || other.sensor
                || !slot.filter.should_collide(&other.filter)
                || Self::joined_apart(slots, joints, s, owner);
            if skip {
                return Visit::Continue;
            }
            let xf = bodies[o as usize].transform;
            let target = Target {
                xf,
                local_center: bodies[o as usize].local_center,
            };
            // A static polygon with edges covered by its neighbours is swept as its exposed
            // edges, each a one-sided chain segment (as its contacts are taken; see
            // `internal_edges`): a body skimming a floor of tiles is not stopped at a seam.
            let internal = match &other.shape {
                Shape::Polygon(p) if self.internal_edge_removal && other.kind == BodyKind::Static => {
                    let mask = self.internal_edges_of(o as usize);
                    (mask != 0).then_some((p, mask))
                }
                _ => None,
            };
            match internal {
                Some((p, mask)) => {
                    for edge in internal_edges::exposed_segments(p, mask) {
                        ctx.sweep(&Shape::ChainSegment(edge), target, &mut fraction);
                    }
                }
                None => ctx.sweep(&other.shape, target, &mut fraction),
            }
            Visit::Continue
        });
        (fraction, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Polygon;
    use crate::world::BodyDef;
    use alloc::vec;
    use alloc::vec::Vec;

    /// `misses` is a cull: it may keep a box that only comes close, never drop one that
    /// overlaps. Random rounded polygons (3 to 8 vertices) at random poses and scales from
    /// 0.01 to 10 000, against boxes placed at random, and boxes pushed onto one of the
    /// polygon's faces: exactly touching the rounded face, and a few ulps inside and outside.
    /// The exact [`overlaps_aabb_shape`] is the oracle.
    #[test]
    fn the_polygon_cull_never_drops_an_overlapping_box() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut unit = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 40) as f32) / ((1u64 << 24) as f32)
        };
        let mut kept_near = 0;
        for scale in [0.01f32, 1.0, 100.0, 10_000.0] {
            for _ in 0..4000 {
                let n = 3 + (unit() * 6.0) as usize;
                let points: Vec<Vec2> = (0..n)
                    .map(|i| {
                        let a = core::f32::consts::TAU * (i as f32 + 0.8 * unit()) / n as f32;
                        Vec2::new(a.cos(), a.sin()) * (scale * (0.5 + unit()))
                    })
                    .collect();
                let radius = if unit() < 0.5 { 0.0 } else { 0.2 * scale * unit() };
                let Ok(poly) = Polygon::new_rounded(&points, radius) else {
                    continue;
                };
                let xf = Transform::new(
                    Vec2::new(unit() - 0.5, unit() - 0.5) * (20.0 * scale),
                    core::f32::consts::TAU * unit(),
                );
                let shape = Shape::Polygon(poly);
                let half = Vec2::new(unit(), unit()) * scale;
                // A random box near the polygon.
                let c = xf.p + Vec2::new(unit() - 0.5, unit() - 0.5) * (5.0 * scale);
                let mut boxes = vec![Aabb::new(c - half, c + half)];
                // A box whose nearest corner sits on the rounded face of edge `e`, then
                // pushed a few ulps in or out along the face normal.
                let e = (unit() * poly.count as f32) as usize % poly.count as usize;
                let normal = xf.q.rotate(poly.normals[e]);
                let v = xf.apply(poly.vertices[e]);
                let w = xf.apply(poly.vertices[(e + 1) % poly.count as usize]);
                let on_face = v + (w - v) * unit() + normal * poly.radius;
                let corner_offset = Vec2::new(half.x * normal.x.signum(), half.y * normal.y.signum());
                for ulps in [-4.0f32, -1.0, 0.0, 1.0, 4.0] {
                    let step = ulps * f32::EPSILON * (on_face.x.abs() + on_face.y.abs() + scale);
                    let center = on_face + normal * step + corner_offset;
                    boxes.push(Aabb::new(center - half, center + half));
                }
                for b in boxes {
                    let exact = overlaps_aabb_shape(b, &shape, xf);
                    let culled = misses(b, &shape, xf);
                    assert!(
                        !(exact && culled),
                        "scale {scale}: an overlapping box was culled: {b:?} against {poly:?} at {xf:?}"
                    );
                    kept_near += usize::from(!exact && !culled);
                }
            }
        }
        // The cull is not vacuous the other way: boxes far out are dropped.
        let poly = Shape::Polygon(Polygon::make_box(1.0, 1.0).unwrap());
        let far = Aabb::new(Vec2::new(1.5, -0.2), Vec2::new(1.7, 0.2));
        assert!(misses(far, &poly, Transform::IDENTITY));
        assert!(!misses(
            far,
            &poly,
            Transform::from_translation(Vec2::new(0.6, 0.0))
        ));
        assert!(kept_near > 0);
    }

    /// A ball that starts its step touching (or barely overlapping) a zero-thickness static
    /// segment and ends it on the far side: the sweep's time of impact is at fraction 0, and
    /// the core fallback (Box2D's `fraction == 0` rule) must stop it on the near side. This
    /// is how the spinner's bar pressed a ball through its ring; with only `Overlapped`
    /// falling back, a hit at 0 was ignored and the ball passed.
    #[test]
    fn a_sweep_starting_in_contact_falls_back_to_the_core() {
        for scale in [0.01f32, 1.0, 100.0] {
            for start_gap in [0.0f32, -0.01, -0.05, 0.002] {
                let mut w = World::default();
                let seg = Shape::segment(Vec2::new(-2.0 * scale, 0.0), Vec2::new(2.0 * scale, 0.0));
                w.add_body(&BodyDef::new(BodyKind::Static, Transform::IDENTITY, seg))
                    .unwrap();
                let r = 0.35 * scale;
                let start = Vec2::new(0.0, r + start_gap * r);
                let b = w
                    .add_body(&BodyDef::new(
                        BodyKind::Dynamic,
                        Transform::from_translation(start),
                        Shape::circle(r),
                    ))
                    .unwrap()
                    .index as usize;
                // The solver's outcome, as the spinner's bar left it: moved 1.6 r across.
                let motion = Vec2::new(0.5 * r, -1.6 * r);
                w.bodies[b].transform = Transform::from_translation(start + motion);
                w.bodies[b].delta_position = motion;
                w.bodies[b].delta_rotation = crate::math::Rot::IDENTITY;
                w.sweep_fast_body(b as u32);
                let y = w.bodies[b].transform.p.y;
                assert!(
                    y > 0.0 && y < start.y,
                    "scale {scale}, start gap {start_gap}: stopped at y = {y}"
                );
            }
        }
    }

    /// Sweeps a ball of radius `r` (scale `scale`) against a lone one-sided chain segment on
    /// the x axis, front side up, from `start` by `motion`; returns where it stopped.
    fn sweep_ball_at_chain(scale: f32, start: Vec2, motion: Vec2) -> Vec2 {
        let mut w = World::default();
        let seg =
            crate::geometry::ChainSegment::lone(Vec2::new(4.0 * scale, 0.0), Vec2::new(-4.0 * scale, 0.0))
                .unwrap();
        w.add_body(&BodyDef::new(
            BodyKind::Static,
            Transform::IDENTITY,
            Shape::ChainSegment(seg),
        ))
        .unwrap();
        let b = w
            .add_body(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(start),
                Shape::circle(0.35 * scale),
            ))
            .unwrap()
            .index as usize;
        w.bodies[b].transform = Transform::from_translation(start + motion);
        w.bodies[b].delta_position = motion;
        w.bodies[b].delta_rotation = crate::math::Rot::IDENTITY;
        w.sweep_fast_body(b as u32);
        w.bodies[b].transform.p
    }

    /// Box2D's one-sided rule for chain segments, case by case. A ball flung at the front face
    /// that the solver left deep in it (its centre still in front, within the core distance,
    /// a quarter of its radius) is swept and stopped at the impact: the spinner's ring let such
    /// balls out when every sweep ending with the centre in front was skipped. A ball sliding
    /// along the face (closing in by less than the core distance and ending beyond it) is not
    /// paused, and one that starts behind the segment passes it (one-sided).
    #[test]
    fn one_sided_segments_stop_deep_arrivals_and_let_slides_and_backs_through() {
        for scale in [0.01f32, 1.0, 100.0] {
            let r = 0.35 * scale;
            // Flung down from 2r to 0.2r above the face: 80 % of the radius into it.
            let end = sweep_ball_at_chain(scale, Vec2::new(0.0, 2.0 * r), Vec2::new(0.3 * r, -1.8 * r));
            assert!(
                end.y > 0.5 * r && end.y < 2.0 * r,
                "scale {scale}: a deep arrival stopped at y = {} (radius {r})",
                end.y
            );
            // Sliding along the face 3 radii while closing in by 0.05 r: not paused.
            let slide = Vec2::new(3.0 * r, -0.05 * r);
            let end = sweep_ball_at_chain(scale, Vec2::new(0.0, 1.01 * r), slide);
            assert_eq!(
                end,
                Vec2::new(0.0, 1.01 * r) + slide,
                "scale {scale}: a slide was paused"
            );
            // From behind to the front: one-sided, not stopped.
            let through = Vec2::new(0.0, 3.0 * r);
            let end = sweep_ball_at_chain(scale, Vec2::new(0.0, -1.5 * r), through);
            assert_eq!(
                end,
                Vec2::new(0.0, 1.5 * r),
                "scale {scale}: stopped by the back side"
            );
        }
    }
}
