//! The continuous phase: fast dynamic bodies swept against static and kinematic shapes
//! (bullets also against dynamic ones) and stopped at the first time of impact.

use super::*;
use crate::geometry::Circle;
use crate::narrowphase::overlaps_aabb_shape;
use crate::toi::{time_of_impact, Sweep, ToiState};

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

impl World {
    /// Sweeps the fast bodies found by `finalize_bodies` (non-bullets first, then bullets,
    /// which see the others at their final poses) and moves their proxies.
    pub(super) fn solve_continuous(&mut self) {
        for pass_bullets in [false, true] {
            for k in 0..self.fast.len() {
                let s = self.fast[k];
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
        let mut k = s;
        while k != NONE {
            fraction = fraction.min(self.sweep_shape(s, k, &sweep, fraction));
            k = self.slots[k as usize].next_shape;
        }
        if fraction < 1.0 {
            // Stopped at the impact with its velocity kept: next step's contact (now within
            // the speculative distance) takes the impact.
            self.bodies[s as usize].transform = sweep.transform_at(fraction);
        }
        // Cannot fail: the proxies are live and the pose finite.
        let _ = self.sync_body(s as usize);
    }

    /// The earliest impact (below `fraction`) of shape slot `k` of body `s` moving along
    /// `sweep`, or `fraction`.
    fn sweep_shape(&self, s: u32, k: u32, sweep: &Sweep, mut fraction: f32) -> f32 {
        let body = self.bodies[s as usize];
        let slot = &self.slots[k as usize];
        let bullet = self.slots[s as usize].bullet;
        let start = sweep.transform_at(0.0);
        let swept = slot.shape.aabb(start).union(slot.shape.aabb(body.transform));
        // The box the whole sweep stays in: the two end boxes, grown by how far a turning
        // point can bulge past the chord between its end positions: reach·(1 − cos(θ/2)),
        // at most reach·|sin θ| for turns up to 90°, at most the reach beyond.
        let dq = body.delta_rotation;
        let turn = if dq.c >= 0.0 { dq.s.abs() } else { 1.0 };
        let bulge = self.hot[s as usize].reach * turn;
        let path = swept.inflated(bulge);
        let core = Circle::new(
            centroid(&slot.shape),
            CORE_FRACTION * self.hot[s as usize].min_extent,
        )
        .ok()
        .map(Shape::Circle);
        let (slots, bodies) = (&self.slots, &self.bodies);
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
            let skip =
                same_body || dynamic_skipped || other.sensor || !slot.filter.should_collide(&other.filter);
            if skip {
                return Visit::Continue;
            }
            let xf = bodies[o as usize].transform;
            if let Shape::ChainSegment(c) = &other.shape {
                // One-sided, as Box2D's continuous phase: a body whose centre starts behind
                // the segment, or still ends in front of it, has not tunnelled through it.
                let (p1, p2) = (xf.apply(c.point1), xf.apply(c.point2));
                let e = p2 - p1;
                let (o1, o2) = ((sweep.c1 - p1).cross(e), (sweep.c2 - p1).cross(e));
                if o1 < 0.0 || o2 > 0.0 || o1 == o2 {
                    return Visit::Continue;
                }
            }
            // A shape the path's box does not touch cannot be hit: skip the time of impact
            // (the common case for a fast body inside a large container).
            if !overlaps_aabb_shape(path, &other.shape, xf) {
                return Visit::Continue;
            }
            let still = Sweep::from_transforms(bodies[o as usize].local_center, xf, xf);
            let mut out = time_of_impact(&other.shape, &still, &slot.shape, sweep, fraction);
            // Overlapping, or touching, at the start (Box2D's `fraction == 0` fallback): a
            // body resting on the shape and pushed through it in one step (a spinner's bar
            // pressing a ball into the ring) must still be caught, by its core.
            let at_start = match out.state {
                ToiState::Overlapped => true,
                ToiState::Hit | ToiState::Failed => out.fraction <= 0.0,
                _ => false,
            };
            if at_start {
                if let Some(core) = &core {
                    out = time_of_impact(&other.shape, &still, core, sweep, fraction);
                }
            }
            let hit = matches!(out.state, ToiState::Hit | ToiState::Failed);
            if hit && 0.0 < out.fraction && out.fraction < fraction {
                fraction = out.fraction;
            }
            Visit::Continue
        });
        fraction
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::BodyDef;

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
}
