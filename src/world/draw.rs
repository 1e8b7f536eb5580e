//! Debug drawing of a whole world through [`DebugDraw`](crate::draw::DebugDraw).

use super::*;
use crate::draw::{draw_aabb, draw_manifold, draw_shape, Color, DebugDraw};

/// What [`World::draw`] draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawFlags {
    /// Every shape, coloured by its body's state ([`Color::STATIC`], [`Color::KINEMATIC`],
    /// [`Color::DYNAMIC`], [`Color::SLEEPING`], [`Color::SENSOR`]).
    pub shapes: bool,
    /// Every shape's fat box in the broad phase ([`Color::BOUNDS`]).
    pub bounds: bool,
    /// The contact points and normals of every touching pair (sleeping ones too), recomputed
    /// at the bodies' current poses (so they match the shapes drawn).
    pub contacts: bool,
    /// Each body's transform (its origin's axes).
    pub transforms: bool,
    /// The broad phase's tree, every node's box shaded by height.
    pub tree: bool,
    /// The enabled joints (Box2D's drawing): a line from each body's origin to its anchor
    /// and between the two anchors, the anchors as points ([`Color::JOINT`]); a revolute
    /// joint's limits as two rays from its anchor ([`Color::LOWER_LIMIT`] for the lower,
    /// [`Color::CONTACT`] for the upper); a prismatic or wheel joint's axis through frame A's
    /// origin, between its limits when they are on (their ends marked), else 0.5 m each way.
    pub joints: bool,
}

impl Default for DrawFlags {
    /// Shapes and contacts.
    fn default() -> Self {
        DrawFlags {
            shapes: true,
            bounds: false,
            contacts: true,
            transforms: false,
            tree: false,
            joints: true,
        }
    }
}

impl World {
    /// The colour of the shape in slot `i` by its body's state.
    fn draw_color(&self, i: usize) -> Color {
        let slot = &self.slots[i];
        let owner = self.owner(i as u32) as usize;
        if slot.sensor {
            Color::SENSOR
        } else {
            match slot.kind {
                BodyKind::Static => Color::STATIC,
                BodyKind::Kinematic if self.hot[owner].awake_index == NONE => Color::SLEEPING,
                BodyKind::Kinematic => Color::KINEMATIC,
                BodyKind::Dynamic if self.hot[owner].awake_index == NONE => Color::SLEEPING,
                BodyKind::Dynamic => Color::DYNAMIC,
            }
        }
    }

    /// Draws the world through `d`, as chosen by `flags` (see [`DrawFlags`]). Allocates
    /// nothing; the contacts cost one manifold per touching pair.
    pub fn draw(&self, d: &mut (impl DebugDraw + ?Sized), flags: DrawFlags) {
        for (i, slot) in self.slots.iter().enumerate() {
            if !slot.live {
                continue;
            }
            let xf = self.bodies[i].transform;
            if flags.shapes {
                draw_shape(d, &slot.shape, xf, self.draw_color(i));
            }
            if flags.bounds {
                draw_aabb(d, self.boxes[i].fat, Color::BOUNDS);
            }
            if flags.transforms && slot.parent == NONE {
                d.transform(xf);
            }
        }
        if flags.contacts {
            // Every live touching contact, awake or asleep (a free slab entry has a == NONE).
            for c in self
                .contacts
                .iter()
                .filter(|c| c.a != NONE && c.touching && !c.sensor)
            {
                let (a, b) = (c.a as usize, c.b as usize);
                let m = collide_with_margin(
                    &self.slots[a].shape,
                    self.bodies[a].transform,
                    &self.slots[b].shape,
                    self.bodies[b].transform,
                    0.0,
                );
                draw_manifold(d, &m, 0.3);
            }
        }
        if flags.joints {
            self.draw_joints(d);
        }
        if flags.tree {
            self.tree.draw(d);
        }
    }

    /// The enabled joints, as [`DrawFlags::joints`] says.
    fn draw_joints(&self, d: &mut (impl DebugDraw + ?Sized)) {
        use crate::solver::JointKind;
        for j in self.joints.iter().filter(|j| j.live && j.enabled) {
            let (xa, xb) = (
                self.bodies[j.a as usize].transform,
                self.bodies[j.b as usize].transform,
            );
            let (fa, fb) = (xa * j.frame_a, xb * j.frame_b);
            d.segment(xa.p, fa.p, Color::JOINT);
            d.segment(fa.p, fb.p, Color::JOINT);
            d.segment(fb.p, xb.p, Color::JOINT);
            d.point(fa.p, 5.0, Color::JOINT);
            d.point(fb.p, 5.0, Color::JOINT);
            match j.kind {
                JointKind::Revolute(r) if r.enable_limit => {
                    let ray = |angle: f32| fb.p + (fa.q * Rot::from_angle(angle)).x_axis() * 0.25;
                    d.segment(fb.p, ray(r.lower_angle), Color::LOWER_LIMIT);
                    d.segment(fb.p, ray(r.upper_angle), Color::CONTACT);
                }
                JointKind::Prismatic(p) => {
                    draw_axis(d, fa, (p.lower_translation, p.upper_translation), p.enable_limit)
                }
                JointKind::Wheel(w) => {
                    draw_axis(d, fa, (w.lower_translation, w.upper_translation), w.enable_limit)
                }
                _ => {}
            }
        }
    }
}

/// A prismatic or wheel joint's axis through frame `fa`'s origin along its x axis: between
/// the limits `(lo, hi)` with their ends marked, or 0.5 m each way without them.
fn draw_axis(d: &mut (impl DebugDraw + ?Sized), fa: Transform, (lo, hi): (f32, f32), limited: bool) {
    let axis = fa.q.x_axis();
    let (lo, hi) = if limited { (lo, hi) } else { (-0.5, 0.5) };
    let (p, q) = (fa.p + axis * lo, fa.p + axis * hi);
    d.segment(p, q, Color::JOINT);
    if limited {
        d.point(p, 5.0, Color::LOWER_LIMIT);
        d.point(q, 5.0, Color::CONTACT);
    }
}
