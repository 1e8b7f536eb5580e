//! Rebuilding for quality: [`DynamicTree::rebuild`] and [`DynamicTree::rebuild_full`]
//! reinsert every leaf; [`DynamicTree::rebuild_enlarged`] rebuilds only the top that lazy
//! moves loosened, by a top-down split of the subtrees below it.

use super::*;

/// The box `lo`..`hi` grown to contain the point `c`.
#[inline(always)]
fn grow_point_box((lo, hi): (Vec2, Vec2), c: Vec2) -> (Vec2, Vec2) {
    (
        Vec2::new(fmin(lo.x, c.x), fmin(lo.y, c.y)),
        Vec2::new(fmax(hi.x, c.x), fmax(hi.y, c.y)),
    )
}

impl<S: NodeStorage> DynamicTree<S> {
    /// Rebuilds the tree by reinserting every leaf (fat boxes kept), restoring quality after
    /// enlargements. Does nothing when no proxy was enlarged since the last rebuild (moves
    /// reinsert and keep the tree balanced); [`DynamicTree::rebuild_full`] always rebuilds.
    /// Allocates nothing.
    pub fn rebuild(&mut self) {
        if self.enlarged {
            self.rebuild_full();
        }
    }

    /// Rebuilds the tree unconditionally (see [`DynamicTree::rebuild`]).
    pub fn rebuild_full(&mut self) {
        self.enlarged = false;
        let cap = self.capacity();
        // Free every internal node and detach every leaf.
        for i in 0..cap {
            let n = self.nodes.nodes()[i];
            if n.is_allocated() {
                if n.is_leaf() {
                    self.nodes.nodes_mut()[i].parent_or_next = NULL_NODE;
                } else {
                    self.free(i as u32);
                }
            }
        }
        self.root = NULL_NODE;
        // Reinsert leaves in a scattered order (bit-reversed index order) so that proxies
        // created in spatial order do not produce a degenerate insertion sequence.
        let bits = usize::BITS - cap.max(1).leading_zeros();
        for k in 0..(1usize << bits) {
            let i = k.reverse_bits() >> (usize::BITS - bits);
            if i >= cap {
                continue;
            }
            let n = self.nodes.nodes()[i];
            if n.is_allocated() && n.is_leaf() && n.parent_or_next == NULL_NODE && self.root != i as u32 {
                self.insert_leaf(i as u32);
            }
        }
    }

    /// Rebuilds the internal nodes marked by [`DynamicTree::move_proxy_lazy`] (Box2D v3's
    /// partial `b2DynamicTree_Rebuild`): the marked nodes form the top of the tree; they are
    /// freed, and the subtrees below them (single leaves, or unmarked subtrees kept whole) are
    /// joined again by a top-down build that splits each group at the middle of its box
    /// centres' extent along the longer axis, as Box2D does (at the median when that split
    /// is lopsided), giving a balanced top with tight boxes. O(k log k) for
    /// k subtrees below the marked nodes; nothing to do when none is marked. Leaves keep their
    /// ids, fat boxes, data and moved marks.
    ///
    /// `scratch` holds the subtree roots during the build: it needs [`proxy_count`] entries
    /// (at most that many subtrees exist); with fewer, [`TreeError::Full`] is returned and
    /// the tree is left as it was (valid, with its grown boxes). Allocates nothing.
    ///
    /// [`proxy_count`]: DynamicTree::proxy_count
    pub fn rebuild_enlarged(&mut self, scratch: &mut [u32]) -> Result<(), TreeError> {
        if self.root == NULL_NODE {
            return Ok(());
        }
        let root = self.nodes.nodes()[self.root as usize];
        if root.is_leaf() || root.flags & FLAG_ENLARGED == 0 {
            return Ok(());
        }
        if scratch.len() < self.proxy_count as usize {
            return Err(TreeError::Full);
        }
        // Walk the marked top: subtree roots go to the front of `scratch`, the walk's pending
        // nodes to the back (every pending node yields at least one subtree root, so the two
        // never meet), marked nodes are freed.
        let (mut count, mut top) = (0usize, scratch.len());
        scratch[top - 1] = self.root;
        top -= 1;
        while top < scratch.len() {
            let i = scratch[top];
            top += 1;
            let n = self.nodes.nodes()[i as usize];
            if n.is_leaf() || n.flags & FLAG_ENLARGED == 0 {
                self.nodes.nodes_mut()[i as usize].parent_or_next = NULL_NODE;
                scratch[count] = i;
                count += 1;
            } else {
                top -= 2;
                scratch[top] = n.child2();
                scratch[top + 1] = n.child1();
                self.free(i);
            }
        }
        self.root = self.build_top(&mut scratch[..count]);
        self.nodes.nodes_mut()[self.root as usize].parent_or_next = NULL_NODE;
        Ok(())
    }

    /// Joins the subtrees `items` (detached roots) into one and returns its root: split at
    /// the middle of the box centres' extent along its longer axis (at the median when that
    /// is lopsided), each half built alike. Each half holds at most three quarters of the
    /// items, so the depth is at most log4/3 of the count plus one.
    fn build_top(&mut self, items: &mut [u32]) -> u32 {
        let (lo, hi) = self.centre_bounds(items);
        self.build_within(items, lo, hi)
    }

    /// The centre of node `i`'s box.
    #[inline(always)]
    fn centre(&self, i: u32) -> Vec2 {
        let b = self.nodes.nodes()[i as usize].aabb;
        (b.min + b.max) * 0.5
    }

    /// The box of the centres of `items`' boxes (`items` not empty).
    fn centre_bounds(&self, items: &[u32]) -> (Vec2, Vec2) {
        let first = self.centre(items[0]);
        items.iter().fold((first, first), |bounds, &i| {
            grow_point_box(bounds, self.centre(i))
        })
    }

    /// [`DynamicTree::build_top`] with the centres' box `lo`..`hi` known: the partition that
    /// splits `items` also gathers each side's centre box, so each level reads every node
    /// once.
    fn build_within(&mut self, items: &mut [u32], lo: Vec2, hi: Vec2) -> u32 {
        match *items {
            [] => NULL_NODE,
            [one] => one,
            _ => {
                let x_axis = hi.x - lo.x >= hi.y - lo.y;
                let key = |c: Vec2| if x_axis { c.x } else { c.y };
                // Box2D's split: at the middle of the centres' extent, one pass partitioning
                // in place. When that leaves fewer than a quarter on one side (clustered
                // centres), at the median instead, so each level keeps at most three
                // quarters and the depth stays logarithmic (the build recurses).
                let split = 0.5 * (key(lo) + key(hi));
                let empty = (
                    Vec2::new(f32::INFINITY, f32::INFINITY),
                    Vec2::new(f32::NEG_INFINITY, f32::NEG_INFINITY),
                );
                let (mut left, mut right) = (empty, empty);
                let (mut i, mut j) = (0, items.len());
                while i < j {
                    let c = self.centre(items[i]);
                    if key(c) < split {
                        left = grow_point_box(left, c);
                        i += 1;
                    } else {
                        right = grow_point_box(right, c);
                        j -= 1;
                        items.swap(i, j);
                    }
                }
                let n = items.len();
                let mid = if i.min(n - i) >= n / 4 && i > 0 && i < n {
                    i
                } else {
                    let mid = n / 2;
                    let nodes = self.nodes.nodes();
                    let key_of = |i: &u32| {
                        let b = nodes[*i as usize].aabb;
                        key((b.min + b.max) * 0.5)
                    };
                    items.select_nth_unstable_by(mid, |a, b| key_of(a).total_cmp(&key_of(b)));
                    left = self.centre_bounds(&items[..mid]);
                    right = self.centre_bounds(&items[mid..]);
                    mid
                };
                let (l, r) = items.split_at_mut(mid);
                let c1 = self.build_within(l, left.0, left.1);
                let c2 = self.build_within(r, right.0, right.1);
                // The marked nodes freed above are exactly as many as the joins made here.
                let p = self.allocate();
                let nodes = self.nodes.nodes_mut();
                nodes[c1 as usize].parent_or_next = p;
                nodes[c2 as usize].parent_or_next = p;
                nodes[p as usize].set_children(c1, c2);
                self.refit(p);
                p
            }
        }
    }
}
