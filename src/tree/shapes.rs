//! Shape-level queries over the tree: the exact tests every user otherwise writes by hand
//! around the tree's box queries and casts — the closest ray hit, the closest shape cast (with
//! its overlapping-at-the-start case), every shape overlapping a shape, every contact of a
//! shape.
//!
//! The tree stores boxes, not shapes: each query takes `shapes`, a function from a proxy's id
//! and user data to its shape and world transform (`None` skips the proxy), e.g.
//! `|_, user| Some((&level[user as usize].shape, level[user as usize].xf))`. Proxies whose
//! category bits do not intersect `mask` are never tested. Nothing allocates.

use super::{DynamicTree, NodeStorage, ProxyId, Visit};
use crate::cast::{shape_cast_pair, CastOutput, CastShape, CastState};
use crate::geometry::Shape;
use crate::math::{Ray, Transform};
use crate::narrowphase::{collide_with_margin, overlaps, Manifold};
use crate::raycast::{ray_cast, RayHit};

/// The closest ray hit of [`DynamicTree::ray_cast_closest`].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeRayHit {
    /// The proxy hit.
    pub id: ProxyId,
    /// Its user data.
    pub user_data: u64,
    /// Where the ray hit its shape (world space; see [`RayHit`]).
    pub hit: RayHit,
}

/// The first contact of [`DynamicTree::cast_closest`].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeCastHit {
    /// The proxy hit.
    pub id: ProxyId,
    /// Its user data.
    pub user_data: u64,
    /// The cast against its shape, with the moving shape as A: [`CastState::Hit`] (fraction of
    /// the translation, world point on the moving shape, world unit normal from the moving
    /// shape to the one hit) or [`CastState::Overlapping`] (the moving shape starts
    /// penetrating it: fraction 0, depth and normal).
    pub output: CastOutput,
}

impl<S: NodeStorage> DynamicTree<S> {
    /// The closest shape a ray hits: `(id, user_data, hit)` with the smallest fraction, or
    /// `None`. Exact against the shapes (each candidate is cast with the ray clipped to the
    /// best hit so far) and early-out (boxes beyond the best hit are never visited). Rays
    /// starting inside a solid shape do not hit it ([`ray_cast`]'s rule).
    pub fn ray_cast_closest<'s>(
        &self,
        ray: &Ray,
        mask: u64,
        shapes: impl Fn(ProxyId, u64) -> Option<(&'s Shape, Transform)>,
    ) -> Option<TreeRayHit> {
        let mut best: Option<TreeRayHit> = None;
        self.ray_cast(ray, mask, |clipped, id, user_data| {
            let Some((shape, xf)) = shapes(id, user_data) else {
                return Visit::Continue;
            };
            match ray_cast(shape, xf, clipped) {
                Some(hit) => {
                    best = Some(TreeRayHit { id, user_data, hit });
                    Visit::Clip(hit.fraction)
                }
                None => Visit::Continue,
            }
        });
        best
    }

    /// The first shape that `moving` touches (within `target_distance`, a skin ≥ 0) as it
    /// translates, or `None`. When it starts penetrating a shape, that one is reported as
    /// [`CastState::Overlapping`] at fraction 0 and the search stops (which of several it
    /// starts in is unspecified): the caller has to resolve the overlap before moving. A shape
    /// it starts touching and moves away from or slides along does not block it
    /// ([`crate::cast::shape_cast`]'s rule). Exact against the shapes and early-out (the swept
    /// box is clipped to the best hit so far).
    pub fn cast_closest<'s>(
        &self,
        moving: &CastShape<'_>,
        target_distance: f32,
        mask: u64,
        shapes: impl Fn(ProxyId, u64) -> Option<(&'s Shape, Transform)>,
    ) -> Option<TreeCastHit> {
        let aabb = moving.shape.aabb(moving.xf);
        if !aabb.is_valid() {
            return None;
        }
        // The swept box must reach candidates within the skin too.
        let skin = if target_distance > 0.0 {
            target_distance
        } else {
            0.0
        };
        let reach = aabb.inflated(skin);
        let mut best: Option<TreeCastHit> = None;
        self.box_cast(reach, moving.translation, mask, |max, id, user_data| {
            let Some((shape, xf)) = shapes(id, user_data) else {
                return Visit::Continue;
            };
            let output = shape_cast_pair(moving, &CastShape::at_rest(shape, xf), target_distance);
            match output.state {
                CastState::Overlapping => {
                    best = Some(TreeCastHit {
                        id,
                        user_data,
                        output,
                    });
                    Visit::Stop
                }
                CastState::Hit
                    if output.fraction <= max && best.is_none_or(|b| output.fraction < b.output.fraction) =>
                {
                    best = Some(TreeCastHit {
                        id,
                        user_data,
                        output,
                    });
                    // Stopping at 0 would skip a shape the mover starts inside.
                    if output.fraction > 0.0 {
                        Visit::Clip(output.fraction)
                    } else {
                        Visit::Continue
                    }
                }
                _ => Visit::Continue,
            }
        });
        best
    }

    /// Every proxy whose shape overlaps or touches `shape` at `xf` (exact: [`overlaps`] on
    /// each candidate of the box query), as `(id, user_data)`. An iterator: stop whenever.
    pub fn overlapping<'a, 's: 'a>(
        &'a self,
        shape: &'a Shape,
        xf: Transform,
        mask: u64,
        shapes: impl Fn(ProxyId, u64) -> Option<(&'s Shape, Transform)> + 'a,
    ) -> impl Iterator<Item = (ProxyId, u64)> + 'a {
        self.query_iter(shape.aabb(xf), mask)
            .filter(move |&(id, user_data)| {
                shapes(id, user_data).is_some_and(|(other, oxf)| overlaps(shape, xf, other, oxf))
            })
    }

    /// Every contact of `shape` at `xf` with the shapes in the tree: `(id, user_data,
    /// manifold)` for each proxy whose shape touches it or lies within `margin` (speculative
    /// points, see [`collide_with_margin`]), with `shape` as A (normals point from it to the
    /// other shape). The candidates come from a box query grown by the margin.
    pub fn contacts<'a, 's: 'a>(
        &'a self,
        shape: &'a Shape,
        xf: Transform,
        margin: f32,
        mask: u64,
        shapes: impl Fn(ProxyId, u64) -> Option<(&'s Shape, Transform)> + 'a,
    ) -> impl Iterator<Item = (ProxyId, u64, Manifold)> + 'a {
        let grow = if margin > 0.0 { margin } else { 0.0 };
        self.query_iter(shape.aabb(xf).inflated(grow), mask)
            .filter_map(move |(id, user_data)| {
                let (other, oxf) = shapes(id, user_data)?;
                let m = collide_with_margin(shape, xf, other, oxf, margin);
                (m.count > 0).then_some((id, user_data, m))
            })
    }
}
