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
        if flags.tree {
            self.tree.draw(d);
        }
    }
}
