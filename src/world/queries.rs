//! World queries: ray casts, box queries, shape overlaps and shape casts, all filtered.

use super::*;

impl World {
    /// Whether slot `i` (a body's shape) passes a query filter.
    pub(super) fn passes(&self, i: usize, filter: &QueryFilter<'_>) -> bool {
        let slot = &self.slots[i];
        let body = self.owner(i as u32) as usize;
        slot.filter.category_bits & filter.mask != 0
            && (filter.sensors || !slot.sensor)
            && !filter
                .ignore
                .iter()
                .any(|id| id.index as usize == body && id.generation == self.slots[body].generation)
    }

    /// The shape and pose of the body behind a proxy's user data, if it passes `filter`.
    pub(super) fn filtered(&self, user: u64, filter: &QueryFilter<'_>) -> Option<(&Shape, Transform)> {
        let i = user as usize;
        self.passes(i, filter)
            .then(|| (&self.slots[i].shape, self.bodies[i].transform))
    }

    /// Closest non-sensor body hit by the ray from `origin` along `translation` (a ray
    /// starting inside a shape does not hit it). `None` for no hit or non-finite input.
    /// [`World::ray_cast_filtered`] with [`QueryFilter::ALL`].
    #[must_use]
    pub fn ray_cast(&self, origin: Vec2, translation: Vec2) -> Option<WorldRayHit> {
        self.ray_cast_filtered(origin, translation, &QueryFilter::ALL)
    }

    /// Closest body passing `filter` hit by the ray from `origin` along `translation`
    /// (world frame; the hit's fraction is of `translation`, its normal points out of the
    /// body). `None` for no hit or non-finite input.
    #[must_use]
    pub fn ray_cast_filtered(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: &QueryFilter<'_>,
    ) -> Option<WorldRayHit> {
        let ray = Ray::new(origin, translation);
        self.tree
            .ray_cast_closest(&ray, filter.mask, |_, user| self.filtered(user, filter))
            .map(|h| WorldRayHit {
                body: self.id_of(h.user_data as u32),
                hit: h.hit,
            })
    }

    /// Every body passing `filter` that the ray from `origin` along `translation` hits, in no
    /// particular order, as `f(hit)`; `f` returns [`Visit::Continue`] for more,
    /// [`Visit::Clip`] with the hit's fraction to keep only nearer hits from then on, or
    /// [`Visit::Stop`]. A body is reported once per shape the ray enters, at its entry point.
    pub fn ray_cast_all(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: &QueryFilter<'_>,
        mut f: impl FnMut(WorldRayHit) -> Visit,
    ) {
        let ray = Ray::new(origin, translation);
        self.tree.ray_cast(&ray, filter.mask, |clipped, _, user| {
            let Some((shape, xf)) = self.filtered(user, filter) else {
                return Visit::Continue;
            };
            match crate::raycast::ray_cast(shape, xf, clipped) {
                Some(hit) => f(WorldRayHit {
                    body: self.id_of(user as u32),
                    hit,
                }),
                None => Visit::Continue,
            }
        });
    }

    /// Calls `f(body)` for every non-sensor body whose shape overlaps `aabb` (exact test,
    /// not just the fat box); `f` returns `false` to stop. Nothing is reported for an invalid
    /// box. [`World::query_aabb_filtered`] with [`QueryFilter::ALL`].
    pub fn query_aabb(&self, aabb: Aabb, f: impl FnMut(BodyId) -> bool) {
        self.query_aabb_filtered(aabb, &QueryFilter::ALL, f);
    }

    /// [`World::query_aabb`] for the bodies passing `filter`.
    pub fn query_aabb_filtered(
        &self,
        aabb: Aabb,
        filter: &QueryFilter<'_>,
        mut f: impl FnMut(BodyId) -> bool,
    ) {
        self.tree
            .query(aabb, filter.mask, |_, user| match self.filtered(user, filter) {
                Some((shape, xf)) if overlaps_aabb_shape(aabb, shape, xf) && !f(self.id_of(user as u32)) => {
                    Visit::Stop
                }
                _ => Visit::Continue,
            });
    }

    /// Calls `f(body)` for every body passing `filter` whose shape overlaps or touches
    /// `shape` placed at `xf` (exact); `f` returns `false` to stop.
    pub fn overlap_shape(
        &self,
        shape: &Shape,
        xf: Transform,
        filter: &QueryFilter<'_>,
        mut f: impl FnMut(BodyId) -> bool,
    ) {
        for (_, user) in self
            .tree
            .overlapping(shape, xf, filter.mask, |_, user| self.filtered(user, filter))
        {
            if !f(self.id_of(user as u32)) {
                break;
            }
        }
    }

    /// The first body passing `filter` that `shape`, starting at `xf`, touches as it
    /// translates by `translation` (world frame), or `None`. A start in overlap reports
    /// that body with state `Overlapping` at fraction 0 ([`DynamicTree::cast_closest`]'s
    /// rules; the normal points from the moving shape to the body).
    #[must_use]
    pub fn cast_shape(
        &self,
        shape: &Shape,
        xf: Transform,
        translation: Vec2,
        filter: &QueryFilter<'_>,
    ) -> Option<WorldCastHit> {
        let moving = CastShape {
            shape,
            xf,
            translation,
        };
        self.tree
            .cast_closest(&moving, 0.0, filter.mask, |_, user| self.filtered(user, filter))
            .map(|h| WorldCastHit {
                body: self.id_of(h.user_data as u32),
                output: h.output,
            })
    }

    /// The broad-phase tree, for queries the world does not wrap: proxy user data are body
    /// slot indices ([`BodyId::index`]), category bits the bodies' filter categories. The
    /// world owns it (it is the only mover, so its moved marks are the world's move
    /// buffer), which is why a caller's own tree cannot serve as the world's: add static
    /// level geometry to the world as static bodies and query it through the world. There is
    /// one proxy per shape: a body with several shapes has several proxies, and a proxy's user
    /// data is the slot of its shape (the body's index for its first shape, an internal slot
    /// for the others: map results through the world's queries, which report bodies).
    #[must_use]
    pub fn tree(&self) -> &DynamicTree<Vec<crate::tree::TreeNode>> {
        &self.tree
    }

    /// Sensor overlaps that began during the last step.
    #[must_use]
    pub fn sensor_begin_events(&self) -> &[SensorEvent] {
        &self.sensor_begin
    }

    /// Sensor overlaps that ended, as the last step reports them: first those ended between
    /// that step and the one before it (the sensor or the visitor removed with
    /// [`World::remove_body`], a filter changed with [`World::set_filter`]), in the order they
    /// were ended, then those that ended during the step. Every event of
    /// [`World::sensor_begin_events`] is matched by exactly one here; an end caused between
    /// steps is reported by the next step, not before. As for [`World::end_events`], the ids
    /// are as they were: a removed body's is stale when read, and its user data gone with it.
    #[must_use]
    pub fn sensor_end_events(&self) -> &[SensorEvent] {
        &self.sensor_end
    }

    /// Whether the body is a sensor.
    pub fn is_sensor(&self, id: BodyId) -> Result<bool, SolverError> {
        self.slot(id).map(|i| self.slots[i].sensor)
    }
}
