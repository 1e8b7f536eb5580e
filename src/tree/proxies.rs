//! Proxies over their lifetime: creating and destroying them, moving them (reinserted only
//! when the tight box leaves the fat one), enlarging them in place, lazy moves that mark the
//! ancestors for [`DynamicTree::rebuild_enlarged`], and the moved marks
//! [`DynamicTree::query_pairs`] reads.

use super::*;

impl<S: NodeStorage> DynamicTree<S> {
    fn fatten(&self, aabb: Aabb, margin: f32) -> Result<Aabb, TreeError> {
        if !aabb.is_valid() {
            return Err(TreeError::InvalidAabb);
        }
        let fat = aabb.inflated(margin);
        if fat.is_valid() {
            Ok(fat)
        } else {
            Err(TreeError::InvalidAabb)
        }
    }

    /// Inserts a proxy for the tight box `aabb`; the tree stores it grown by the margin.
    /// Returns the proxy id. Errors: [`TreeError::InvalidAabb`], [`TreeError::Full`] (fixed
    /// buffer); the tree is unchanged on error.
    pub fn create_proxy(
        &mut self,
        aabb: Aabb,
        category_bits: u64,
        user_data: u64,
    ) -> Result<ProxyId, TreeError> {
        self.create_proxy_with_margin(aabb, self.margin, category_bits, user_data)
    }

    /// [`DynamicTree::create_proxy`] with this proxy's own fat margin instead of the tree's
    /// (negative and NaN count as 0), e.g. sized by the shape as Box2D v3 does
    /// (`min(0.05, 0.125 × extent)`): small shapes then get small fat boxes and fewer false
    /// pairs. The tree does not remember it: move the proxy with the `_with_margin` moves.
    pub fn create_proxy_with_margin(
        &mut self,
        aabb: Aabb,
        margin: f32,
        category_bits: u64,
        user_data: u64,
    ) -> Result<ProxyId, TreeError> {
        let fat = self.fatten(aabb, sane_margin(margin))?;
        self.reserve(if self.root == NULL_NODE { 1 } else { 2 })?;
        let id = self.allocate();
        let n = &mut self.nodes.nodes_mut()[id as usize];
        n.aabb = fat;
        n.category_bits = category_bits;
        n.data = user_data;
        n.flags = FLAG_ALLOCATED | FLAG_LEAF | FLAG_MOVED;
        self.insert_leaf(id);
        self.proxy_count += 1;
        Ok(ProxyId(id))
    }

    /// Removes a proxy. Errors with [`TreeError::InvalidProxy`] for a stale or out-of-range id
    /// (the tree is unchanged).
    pub fn destroy_proxy(&mut self, id: ProxyId) -> Result<(), TreeError> {
        let id = id.0;
        self.leaf(id)?;
        self.remove_leaf(id);
        self.free(id);
        self.proxy_count -= 1;
        Ok(())
    }

    /// Moves a proxy to the tight box `aabb`. Reinserts it (with a new fat box) only when the
    /// tight box leaves the current fat box; returns whether it did. A reinserted proxy is
    /// marked as moved for [`DynamicTree::query_pairs`].
    #[inline]
    pub fn move_proxy(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, TreeError> {
        self.move_proxy_with_margin(id, aabb, self.margin)
    }

    /// [`DynamicTree::move_proxy`] with the proxy's own fat margin (see
    /// [`DynamicTree::create_proxy_with_margin`]).
    #[inline]
    pub fn move_proxy_with_margin(
        &mut self,
        id: ProxyId,
        aabb: Aabb,
        margin: f32,
    ) -> Result<bool, TreeError> {
        let id = id.0;
        if self.stays_inside(id, aabb)? {
            return Ok(false);
        }
        self.reinsert(id, aabb, sane_margin(margin))
    }

    /// The slow path of [`DynamicTree::move_proxy`], kept out of line so the common
    /// "still inside" case inlines into the caller's loop.
    #[inline(never)]
    fn reinsert(&mut self, id: u32, aabb: Aabb, margin: f32) -> Result<bool, TreeError> {
        let fat = self.fatten(aabb, margin)?;
        self.remove_leaf(id);
        let n = &mut self.nodes.nodes_mut()[id as usize];
        n.aabb = fat;
        n.flags |= FLAG_MOVED;
        self.insert_leaf(id);
        Ok(true)
    }

    /// Grows a proxy's fat box to contain `aabb` (plus margin) without restructuring the tree:
    /// only ancestors' boxes grow. Cheaper than a move for many small motions; follow with
    /// [`DynamicTree::rebuild`] to restore quality. Returns whether the box grew.
    #[inline]
    pub fn enlarge_proxy(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, TreeError> {
        let id = id.0;
        if self.stays_inside(id, aabb)? {
            return Ok(false);
        }
        self.enlarge(id, aabb)
    }

    /// The slow path of [`DynamicTree::enlarge_proxy`] (out of line, as `reinsert`).
    #[inline(never)]
    fn enlarge(&mut self, id: u32, aabb: Aabb) -> Result<bool, TreeError> {
        let fat_now = self.leaf(id)?.aabb;
        let fat = join(fat_now, self.fatten(aabb, self.margin)?);
        self.enlarged = true;
        let nodes = self.nodes.nodes_mut();
        nodes[id as usize].aabb = fat;
        nodes[id as usize].flags |= FLAG_MOVED;
        self.grow_ancestors(id, fat);
        Ok(true)
    }

    /// Grows the boxes of `id`'s ancestors to contain `aabb`, from the parent up while they
    /// change (above the first that already contains it, all do).
    fn grow_ancestors(&mut self, id: u32, aabb: Aabb) {
        let nodes = self.nodes.nodes_mut();
        let mut p = nodes[id as usize].parent_or_next;
        while p != NULL_NODE {
            let grown = join(nodes[p as usize].aabb, aabb);
            if grown == nodes[p as usize].aabb {
                break;
            }
            nodes[p as usize].aabb = grown;
            p = nodes[p as usize].parent_or_next;
        }
    }

    /// [`DynamicTree::move_proxy`] without restructuring the tree (Box2D v3's
    /// `b2DynamicTree_EnlargeProxy`): when `aabb` leaves the proxy's fat box, the proxy gets
    /// the new fat box (`aabb` plus margin, exactly as a move would give it) and is marked
    /// moved, and its ancestors' boxes only grow to contain it; every ancestor is marked for
    /// [`DynamicTree::rebuild_enlarged`], which rebuilds them in one go. When many proxies
    /// move each step this costs a walk up the tree per proxy instead of a removal and an
    /// insertion. Queries stay exact in between (every box still contains its subtree), only
    /// slower as the marked boxes grow. Returns whether the proxy moved.
    #[inline]
    pub fn move_proxy_lazy(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, TreeError> {
        self.move_proxy_lazy_with_margin(id, aabb, self.margin)
    }

    /// [`DynamicTree::move_proxy_lazy`] with the proxy's own fat margin (see
    /// [`DynamicTree::create_proxy_with_margin`]).
    #[inline]
    pub fn move_proxy_lazy_with_margin(
        &mut self,
        id: ProxyId,
        aabb: Aabb,
        margin: f32,
    ) -> Result<bool, TreeError> {
        let id = id.0;
        if self.stays_inside(id, aabb)? {
            return Ok(false);
        }
        self.enlarge_lazily(id, aabb, sane_margin(margin))
    }

    /// The slow path of [`DynamicTree::move_proxy_lazy`] (out of line, as `reinsert`).
    #[inline(never)]
    fn enlarge_lazily(&mut self, id: u32, aabb: Aabb, margin: f32) -> Result<bool, TreeError> {
        let fat = self.fatten(aabb, margin)?;
        self.enlarged = true;
        let nodes = self.nodes.nodes_mut();
        nodes[id as usize].aabb = fat;
        nodes[id as usize].flags |= FLAG_MOVED;
        self.grow_ancestors(id, fat);
        // Every ancestor is marked, all the way to the root. (Stopping at the first marked
        // node would be cheaper, but an insertion's rotations can leave a mark below an
        // unmarked node, and the rebuild would then never reach what lies under it.)
        let nodes = self.nodes.nodes_mut();
        let mut p = nodes[id as usize].parent_or_next;
        while p != NULL_NODE {
            nodes[p as usize].flags |= FLAG_ENLARGED;
            p = nodes[p as usize].parent_or_next;
        }
        Ok(true)
    }

    /// The fast path of a move: whether the tight box `aabb` is well formed and inside the
    /// proxy's fat box. Inside a finite box means finite, so with `min <= max` this is a full
    /// validity check; a box that fails it goes on to `fatten`, which rejects it if invalid.
    #[inline]
    fn stays_inside(&self, id: u32, aabb: Aabb) -> Result<bool, TreeError> {
        let fat = self.leaf(id)?.aabb;
        // Non-short-circuit `&`: six compares, one branch.
        Ok((aabb.min.x <= aabb.max.x)
            & (aabb.min.y <= aabb.max.y)
            & (fat.min.x <= aabb.min.x)
            & (fat.min.y <= aabb.min.y)
            & (aabb.max.x <= fat.max.x)
            & (aabb.max.y <= fat.max.y))
    }

    /// Marks a proxy as moved without moving it, so that [`DynamicTree::query_pairs`]
    /// reports its pairs again (e.g. after its owner's collision filter changed).
    pub fn touch_proxy(&mut self, id: ProxyId) -> Result<(), TreeError> {
        self.leaf(id.0)?;
        self.nodes.nodes_mut()[id.0 as usize].flags |= FLAG_MOVED;
        Ok(())
    }

    /// True when the proxy was created or moved (reinserted or enlarged) since the last
    /// [`DynamicTree::query_pairs`].
    pub fn was_moved(&self, id: ProxyId) -> Result<bool, TreeError> {
        let id = id.0;
        self.leaf(id).map(|n| n.flags & FLAG_MOVED != 0)
    }
}
