//! Queries over the tree: the traversals (a fixed stack, or parent links for trees too tall
//! for it), box queries, ray and box casts, overlapping pairs, and `validate`.

use super::*;

impl<S: NodeStorage> DynamicTree<S> {
    /// Calls `f(id, user_data)` for every proxy whose fat box overlaps `aabb` and whose
    /// category bits intersect `mask`; [`Visit::Stop`] ends the query early. See
    /// [`DynamicTree::query_iter`] for the same as an iterator.
    pub fn query(&self, aabb: Aabb, mask: u64, mut f: impl FnMut(ProxyId, u64) -> Visit) {
        if !aabb.is_valid() {
            return;
        }
        self.traverse_fixed(
            |n| n.aabb.overlaps(aabb) && n.category_bits & mask != 0,
            |id, n| f(ProxyId(id), n.data) != Visit::Stop,
        );
    }

    /// The proxies whose fat box overlaps `aabb` and whose category bits intersect `mask`, as
    /// `(id, user_data)`: the same set as [`DynamicTree::query`], as an iterator that
    /// allocates nothing (a 64-entry stack inside it; trees too tall for it walk parent links).
    pub fn query_iter(&self, aabb: Aabb, mask: u64) -> QueryIter<'_> {
        let nodes = self.nodes.nodes();
        let root = self.root;
        let mut it = QueryIter {
            nodes,
            root,
            aabb,
            mask,
            stack: [0; STACK],
            top: 0,
            walk: None,
        };
        if root == NULL_NODE || !aabb.is_valid() {
            return it;
        }
        if usize::from(nodes[root as usize].height) + 2 > STACK {
            it.walk = Some(root);
        } else if nodes[root as usize].aabb.overlaps(aabb) && nodes[root as usize].category_bits & mask != 0 {
            it.stack[0] = root;
            it.top = 1;
        }
        it
    }

    /// [`DynamicTree::traverse`] for a predicate that never changes during the walk (AABB
    /// queries): children are tested when their parent is expanded, so rejected nodes never
    /// touch the stack and accepted leaves are reported at once. Same nodes, same bound on the
    /// stack (`height + 1`), leaves in a different order.
    #[inline]
    fn traverse_fixed(
        &self,
        mut enter: impl FnMut(&TreeNode) -> bool,
        mut leaf: impl FnMut(u32, &TreeNode) -> bool,
    ) {
        let nodes = self.nodes.nodes();
        let root = self.root;
        if root == NULL_NODE {
            return;
        }
        let rn = &nodes[root as usize];
        if usize::from(rn.height) + 2 > STACK {
            self.traverse_stackless(enter, leaf);
            return;
        }
        if !enter(rn) {
            return;
        }
        if rn.is_leaf() {
            leaf(root, rn);
            return;
        }
        let mut stack = [0u32; STACK];
        stack[0] = root;
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let n = &nodes[stack[top] as usize];
            for c in [n.child1(), n.child2()] {
                let cn = &nodes[c as usize];
                if !enter(cn) {
                    continue;
                }
                if cn.is_leaf() {
                    if !leaf(c, cn) {
                        return;
                    }
                } else {
                    stack[top] = c;
                    top += 1;
                }
            }
        }
    }

    /// Depth-first traversal: descends into nodes accepted by `enter`, calls `leaf` for accepted
    /// leaves (which returns false to stop). A depth-first walk never holds more than
    /// `height + 1` pending nodes, so a 64-entry stack serves every tree whose root height is
    /// below 63; taller trees (never produced by balanced insertion in practice) use the
    /// stackless walk over parent links. Either way no node is ever skipped.
    #[inline]
    fn traverse(
        &self,
        mut enter: impl FnMut(&TreeNode) -> bool,
        mut leaf: impl FnMut(u32, &TreeNode) -> bool,
    ) {
        let nodes = self.nodes.nodes();
        let root = self.root;
        if root == NULL_NODE {
            return;
        }
        if usize::from(nodes[root as usize].height) + 2 > STACK {
            self.traverse_stackless(enter, leaf);
            return;
        }
        let mut stack = [0u32; STACK];
        stack[0] = root;
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let id = stack[top];
            let n = &nodes[id as usize];
            if !enter(n) {
                continue;
            }
            if n.is_leaf() {
                if !leaf(id, n) {
                    return;
                }
            } else {
                stack[top] = n.child2();
                stack[top + 1] = n.child1();
                top += 2;
            }
        }
    }

    /// [`DynamicTree::query`] through the stackless walk that serves trees too tall for the
    /// traversal stack (root height 63 or more): the in-crate tests check that path on
    /// ordinary trees against `query` and brute force.
    #[cfg(test)]
    pub(crate) fn query_stackless(&self, aabb: Aabb, mask: u64, mut f: impl FnMut(ProxyId, u64) -> Visit) {
        if !aabb.is_valid() {
            return;
        }
        self.traverse_stackless(
            |n| n.aabb.overlaps(aabb) && n.category_bits & mask != 0,
            |id, n| f(ProxyId(id), n.data) != Visit::Stop,
        );
    }

    /// Stackless depth-first traversal over parent links (no depth limit).
    fn traverse_stackless(
        &self,
        mut enter: impl FnMut(&TreeNode) -> bool,
        mut leaf: impl FnMut(u32, &TreeNode) -> bool,
    ) {
        let nodes = self.nodes.nodes();
        let root = self.root;
        if root == NULL_NODE {
            return;
        }
        let mut node = Some(root);
        while let Some(id) = node {
            let n = &nodes[id as usize];
            if enter(n) {
                if !n.is_leaf() {
                    node = Some(n.child1());
                    continue;
                }
                if !leaf(id, n) {
                    return;
                }
            }
            node = next_after(nodes, root, id);
        }
    }

    /// Casts a ray through the tree. For every proxy whose fat box the (clipped) ray touches
    /// and whose category bits intersect `mask`, calls `f(ray, id, user_data)` with the ray's
    /// current `max_fraction`. The callback says what next ([`Visit`]): `Stop` ends the cast
    /// (any-hit), `Clip(fraction)` shortens the ray (closest-hit: return the hit fraction),
    /// `Continue` leaves it unchanged (all-hits, or ignore this proxy).
    pub fn ray_cast(&self, ray: &Ray, mask: u64, mut f: impl FnMut(&Ray, ProxyId, u64) -> Visit) {
        if !(ray.max_fraction >= 0.0) || !ray.origin.is_finite() || !ray.translation.is_finite() {
            return;
        }
        let mut input = *ray;
        self.sweep(
            ray.origin,
            Vec2::ZERO,
            ray.translation,
            ray.max_fraction,
            mask,
            |max, id, user| {
                input.max_fraction = max;
                f(&input, id, user)
            },
        );
    }

    /// Sweeps the box `aabb` along `translation` through the tree (the broad phase of a shape
    /// cast: pass the cast shape's AABB and test the shape exactly in the callback). Callback
    /// semantics as [`DynamicTree::ray_cast`], given the sweep's current `max_fraction`.
    pub fn box_cast(
        &self,
        aabb: Aabb,
        translation: Vec2,
        mask: u64,
        f: impl FnMut(f32, ProxyId, u64) -> Visit,
    ) {
        if !aabb.is_valid() || !translation.is_finite() {
            return;
        }
        self.sweep(aabb.center(), aabb.half_extents(), translation, 1.0, mask, f);
    }

    /// Sweeps a box with centre `p1` and half extents `ext` (zero for a ray) along `d` up to
    /// `max`, clipping by the callback's return value (see [`DynamicTree::ray_cast`]). A node is
    /// touched exactly when the centre's segment touches the node grown by `ext`: the segment's
    /// box overlaps it and the segment's own normal does not separate them.
    fn sweep(
        &self,
        p1: Vec2,
        ext: Vec2,
        d: Vec2,
        max: f32,
        mask: u64,
        mut f: impl FnMut(f32, ProxyId, u64) -> Visit,
    ) {
        let v = d.left_perp();
        let abs_v = v.abs();
        let max_fraction = core::cell::Cell::new(max);
        self.traverse(
            |n| {
                if n.category_bits & mask == 0 {
                    return false;
                }
                let grown = Aabb::new(n.aabb.min - ext, n.aabb.max + ext);
                let p2 = p1.mul_add(max_fraction.get(), d);
                if !grown.overlaps(Aabb::new(p1.min(p2), p1.max(p2))) {
                    return false;
                }
                v.dot(p1 - grown.center()).abs() - abs_v.dot(grown.half_extents()) <= 0.0
            },
            |id, n| match f(max_fraction.get(), ProxyId(id), n.data) {
                Visit::Continue => true,
                Visit::Stop => false,
                Visit::Clip(value) => {
                    if value <= 0.0 {
                        return false;
                    }
                    if value < max_fraction.get() {
                        max_fraction.set(value);
                    }
                    true
                }
            },
        );
    }

    /// Reports every pair of overlapping fat boxes in which at least one proxy was created or
    /// moved since the last call, each pair once, as `f(id_a, user_a, id_b, user_b)` with
    /// `id_a` a moved proxy (the lower id when both moved). Then clears the moved marks.
    /// Category bits are not consulted (filter in the callback). The order of the pairs is
    /// unspecified.
    ///
    /// One simultaneous descent of the tree against itself (as parry's `leaf_pairs`), pruned to
    /// subtrees that hold a moved proxy: every node pair is tested once, rather than one query
    /// per moved proxy that re-walks the top of the tree each time.
    pub fn query_pairs(&mut self, mut f: impl FnMut(ProxyId, u64, ProxyId, u64)) {
        let mut f = |a: u32, da: u64, b: u32, db: u64| f(ProxyId(a), da, ProxyId(b), db);
        let root = self.root;
        if root != NULL_NODE {
            let height = usize::from(self.nodes.nodes()[root as usize].height);
            if 4 * height < PAIR_STACK {
                self.mark_moved_ancestors();
                self.pairs_descent(&mut f);
            } else {
                self.pairs_per_proxy(&mut f);
            }
        }
        for n in self.nodes.nodes_mut() {
            n.flags &= !FLAG_MOVED;
        }
    }

    /// [`DynamicTree::query_pairs`] for a caller that keeps its own *move buffer*: reports
    /// every pair of overlapping fat boxes in which at least one proxy is in `moved`, each pair
    /// once, as `f(id_a, user_a, id_b, user_b)` with `id_a` from the list (the lower id when
    /// both are), then clears the moved marks of the listed proxies. One query per listed
    /// proxy: O(listed · log n), nothing proportional to the tree's size, so a world in which
    /// few proxies move (or everything sleeps) pays for those only. Duplicates in `moved` are
    /// reported once; stale or out-of-range ids are skipped. Category bits are not consulted.
    pub fn query_pairs_of(&mut self, moved: &[ProxyId], mut f: impl FnMut(ProxyId, u64, ProxyId, u64)) {
        let mut f = |a: u32, da: u64, b: u32, db: u64| f(ProxyId(a), da, ProxyId(b), db);
        for id in moved {
            if self.leaf(id.0).is_ok() {
                self.nodes.nodes_mut()[id.0 as usize].flags |= FLAG_LISTED;
            }
        }
        for id in moved {
            let me = id.0;
            match self.leaf(me) {
                // Done already: a duplicate.
                Ok(n) if n.flags & FLAG_DONE == 0 => self.pairs_of_leaf(me, FLAG_LISTED, &mut f),
                _ => continue,
            }
            self.nodes.nodes_mut()[me as usize].flags |= FLAG_DONE;
        }
        for id in moved {
            if self.leaf(id.0).is_ok() {
                self.nodes.nodes_mut()[id.0 as usize].flags &= !(FLAG_LISTED | FLAG_DONE | FLAG_MOVED);
            }
        }
    }

    /// Reports the pairs of leaf `me` with every leaf whose fat box overlaps its own; of two
    /// leaves that both carry `flag`, only from the lower id (so each pair comes once when
    /// every flagged leaf is asked).
    fn pairs_of_leaf(&self, me: u32, flag: u16, f: &mut impl FnMut(u32, u64, u32, u64)) {
        let n = self.nodes.nodes()[me as usize];
        self.traverse_fixed(
            |m| m.aabb.overlaps(n.aabb),
            |j, m| {
                if j != me && (m.flags & flag == 0 || j > me) {
                    f(me, n.data, j, m.data);
                }
                true
            },
        );
    }

    /// [`DynamicTree::query_pairs`] through one query per moved proxy, the path that serves
    /// trees too tall for the descent's stack (root height 64 or more). Exposed so tests can
    /// check that path on ordinary trees; prefer `query_pairs`.
    #[doc(hidden)]
    pub fn query_pairs_per_proxy(&mut self, mut f: impl FnMut(ProxyId, u64, ProxyId, u64)) {
        self.pairs_per_proxy(&mut |a, da, b, db| f(ProxyId(a), da, ProxyId(b), db));
        for n in self.nodes.nodes_mut() {
            n.flags &= !FLAG_MOVED;
        }
    }

    /// Sets the moved mark on every internal node with a moved leaf below it.
    fn mark_moved_ancestors(&mut self) {
        let nodes = self.nodes.nodes_mut();
        for i in 0..nodes.len() {
            let n = nodes[i];
            if !(n.is_allocated() && n.is_leaf() && n.flags & FLAG_MOVED != 0) {
                continue;
            }
            let mut p = n.parent_or_next;
            while p != NULL_NODE && nodes[p as usize].flags & FLAG_MOVED == 0 {
                nodes[p as usize].flags |= FLAG_MOVED;
                p = nodes[p as usize].parent_or_next;
            }
        }
    }

    /// The tree against itself. A stack entry `(a, a)` stands for "pairs within `a`", `(a, b)`
    /// for "pairs between `a` and `b`". Along any path of the descent a "within" step leaves
    /// two entries pending and a "between" step one; there are at most `height` of the first
    /// and `2 * height` of the second, so `4 * height + 1` entries suffice.
    fn pairs_descent(&self, f: &mut impl FnMut(u32, u64, u32, u64)) {
        let nodes = self.nodes.nodes();
        let moved = |n: &TreeNode| n.flags & FLAG_MOVED != 0;
        let mut stack = [(0u32, 0u32); PAIR_STACK];
        stack[0] = (self.root, self.root);
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let (a, b) = stack[top];
            let na = &nodes[a as usize];
            if a == b {
                if moved(na) && !na.is_leaf() {
                    let (c1, c2) = (na.child1(), na.child2());
                    stack[top] = (c1, c1);
                    stack[top + 1] = (c2, c2);
                    stack[top + 2] = (c1, c2);
                    top += 3;
                }
                continue;
            }
            let nb = &nodes[b as usize];
            if !(moved(na) || moved(nb)) || !na.aabb.overlaps(nb.aabb) {
                continue;
            }
            match (na.is_leaf(), nb.is_leaf()) {
                (true, true) => {
                    let (ma, mb) = (moved(na), moved(nb));
                    if ma && (!mb || a < b) {
                        f(a, na.data, b, nb.data);
                    } else {
                        f(b, nb.data, a, na.data);
                    }
                }
                // Split the internal node, the larger one when both are.
                (false, true) => {
                    stack[top] = (na.child1(), b);
                    stack[top + 1] = (na.child2(), b);
                    top += 2;
                }
                (false, false) if na.aabb.perimeter() >= nb.aabb.perimeter() => {
                    stack[top] = (na.child1(), b);
                    stack[top + 1] = (na.child2(), b);
                    top += 2;
                }
                _ => {
                    stack[top] = (a, nb.child1());
                    stack[top + 1] = (a, nb.child2());
                    top += 2;
                }
            }
        }
    }

    /// One query per moved proxy: the path for trees too tall for the descent's stack.
    fn pairs_per_proxy(&self, f: &mut impl FnMut(u32, u64, u32, u64)) {
        for (i, n) in self.nodes.nodes().iter().enumerate() {
            if n.is_allocated() && n.is_leaf() && n.flags & FLAG_MOVED != 0 {
                self.pairs_of_leaf(i as u32, FLAG_MOVED, f);
            }
        }
    }

    /// Checks every invariant: parent links, heights, boxes containing children, category ORs,
    /// leaf/internal flags, node and proxy counts, and the free list. Never panics.
    pub fn validate(&self) -> Result<(), TreeError> {
        let nodes = self.nodes.nodes();
        let cap = nodes.len();
        let bad = Err(TreeError::Corrupt);
        let mut reachable = 0usize;
        let mut leaves = 0usize;
        if self.root != NULL_NODE {
            match nodes.get(self.root as usize) {
                Some(r) if r.is_allocated() && r.parent_or_next == NULL_NODE => {}
                _ => return bad,
            }
            // Stackless walk; every step is checked before it is followed, and the walk is
            // bounded by the capacity so a cycle cannot hang it.
            let mut ok = true;
            let mut steps = 0usize;
            self.traverse_stackless(
                |n| {
                    steps += 1;
                    if steps > 2 * cap + 2 || !n.is_allocated() {
                        ok = false;
                        return false;
                    }
                    reachable += 1;
                    if n.is_leaf() {
                        leaves += 1;
                        ok &= n.height == 0;
                        return true;
                    }
                    let (c1, c2) = (n.child1() as usize, n.child2() as usize);
                    let (Some(a), Some(b)) = (nodes.get(c1), nodes.get(c2)) else {
                        ok = false;
                        return false;
                    };
                    let self_index = a.parent_or_next;
                    ok &= c1 != c2
                        && a.is_allocated()
                        && b.is_allocated()
                        && b.parent_or_next == self_index
                        && (self_index as usize) < cap
                        && core::ptr::eq(&nodes[self_index as usize], n)
                        && a.height.max(b.height).checked_add(1) == Some(n.height)
                        && n.aabb.contains(a.aabb)
                        && n.aabb.contains(b.aabb)
                        && n.category_bits == a.category_bits | b.category_bits;
                    ok
                },
                |_, _| true,
            );
            if !ok {
                return bad;
            }
        }
        let allocated = nodes.iter().filter(|n| n.is_allocated()).count();
        if reachable != self.node_count as usize
            || allocated != reachable
            || leaves != self.proxy_count as usize
        {
            return bad;
        }
        // Free list: every entry free, no cycle, covers every free node.
        let mut free = 0usize;
        let mut i = self.free_list;
        while i != NULL_NODE {
            match nodes.get(i as usize) {
                Some(n) if !n.is_allocated() && free < cap => {
                    free += 1;
                    i = n.parent_or_next;
                }
                _ => return bad,
            }
        }
        if free + allocated != cap {
            return bad;
        }
        Ok(())
    }
}

impl QueryIter<'_> {
    /// Switches a fresh iterator to the walk over parent links (tests check that path on
    /// ordinary trees).
    #[cfg(test)]
    fn force_walk(&mut self) {
        if self.top == 1 {
            self.top = 0;
            self.walk = Some(self.stack[0]);
        }
    }
}

/// Entries of every traversal stack (`traverse`, `traverse_fixed`, [`QueryIter`]): trees of
/// root height up to 62; taller ones walk parent links.
const STACK: usize = 64;

/// The node after `id`'s subtree in a depth-first walk over parent links, or `None` when the
/// walk is done: up until a step to a second child is possible.
fn next_after(nodes: &[TreeNode], root: u32, mut id: u32) -> Option<u32> {
    loop {
        if id == root {
            return None;
        }
        let parent = nodes[id as usize].parent_or_next;
        let p = &nodes[parent as usize];
        if p.child1() == id {
            return Some(p.child2());
        }
        id = parent;
    }
}

/// Iterator of [`DynamicTree::query_iter`]: `(id, user_data)` of every proxy whose fat box
/// overlaps the query box and whose category bits intersect the mask.
pub struct QueryIter<'a> {
    nodes: &'a [TreeNode],
    root: u32,
    aabb: Aabb,
    mask: u64,
    stack: [u32; STACK],
    top: usize,
    /// The next node of a walk over parent links (trees too tall for the stack).
    walk: Option<u32>,
}

impl Iterator for QueryIter<'_> {
    type Item = (ProxyId, u64);

    fn next(&mut self) -> Option<(ProxyId, u64)> {
        let enter = |n: &TreeNode| n.aabb.overlaps(self.aabb) && n.category_bits & self.mask != 0;
        if let Some(mut id) = self.walk {
            loop {
                let n = &self.nodes[id as usize];
                let next = if !enter(n) {
                    next_after(self.nodes, self.root, id)
                } else if n.is_leaf() {
                    self.walk = next_after(self.nodes, self.root, id);
                    return Some((ProxyId(id), n.data));
                } else {
                    Some(n.child1())
                };
                match next {
                    Some(k) => id = k,
                    None => {
                        self.walk = None;
                        return None;
                    }
                }
            }
        }
        // The stack holds only nodes already accepted: children are tested when their parent
        // is expanded (as `traverse_fixed` does), so rejected nodes never touch it.
        while self.top > 0 {
            self.top -= 1;
            let id = self.stack[self.top];
            let n = &self.nodes[id as usize];
            if n.is_leaf() {
                return Some((ProxyId(id), n.data));
            }
            for c in [n.child2(), n.child1()] {
                if enter(&self.nodes[c as usize]) {
                    self.stack[self.top] = c;
                    self.top += 1;
                }
            }
        }
        None
    }
}

impl<S: NodeStorage> DynamicTree<S> {
    /// Calls `f(aabb, depth, is_leaf)` for every node, parents before children (depth 0 is the
    /// root; a leaf's box is its proxy's fat box), walking parent links: no stack, no
    /// allocation, O(nodes). For drawing a tree by depth, or statistics.
    pub fn visit_nodes(&self, mut f: impl FnMut(&Aabb, u32, bool)) {
        let nodes = self.nodes.nodes();
        let root = self.root;
        if root == NULL_NODE {
            return;
        }
        let (mut id, mut depth) = (root, 0u32);
        loop {
            let n = &nodes[id as usize];
            f(&n.aabb, depth, n.is_leaf());
            if !n.is_leaf() {
                id = n.child1();
                depth += 1;
                continue;
            }
            // Up until a step to a second child is possible (same depth as the first).
            loop {
                if id == root {
                    return;
                }
                let parent = nodes[id as usize].parent_or_next;
                let p = &nodes[parent as usize];
                if p.child1() == id {
                    id = p.child2();
                    break;
                }
                id = parent;
                depth -= 1;
            }
        }
    }

    /// Draws every node's box through `d` ([`crate::draw::DebugDraw`]): leaves in
    /// [`Color::BOUNDS`](crate::draw::Color::BOUNDS), internal nodes darker the higher they
    /// sit (the root darkest). Allocates nothing.
    pub fn draw(&self, d: &mut (impl crate::draw::DebugDraw + ?Sized)) {
        let top = self.height().max(1) as f32;
        for n in self.nodes.nodes() {
            if n.is_allocated() {
                let k = 1.0 - 0.7 * f32::from(n.height) / top;
                crate::draw::draw_aabb(d, n.aabb, crate::draw::Color::BOUNDS.scaled(k));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::test_rng::Rng;
    use std::vec::Vec;

    /// `visit_nodes` visits every allocated node once, each at its depth counted by brute force
    /// (parent hops to the root), parents before children, leaves as many as proxies, on
    /// random trees at three scales with proxies moved and destroyed, and nothing on an empty
    /// tree.
    #[test]
    fn visit_nodes_reports_every_node_at_its_depth() {
        let mut rng = Rng(31);
        for (round, scale) in [0.01f32, 1.0, 1000.0].into_iter().cycle().take(12).enumerate() {
            let mut tree = DynamicTree::new();
            let mut ids = Vec::new();
            for i in 0..(1 + round * 23) {
                let c = Vec2::new(rng.f(-10.0, 10.0), rng.f(-10.0, 10.0)) * scale;
                let h = Vec2::new(rng.f(0.01, 1.0), rng.f(0.01, 1.0)) * scale;
                ids.push(tree.create_proxy(Aabb::new(c - h, c + h), 1, i as u64).unwrap());
            }
            for k in 0..ids.len() / 3 {
                tree.destroy_proxy(ids[3 * k]).unwrap();
            }
            let nodes = tree.nodes.nodes();
            let depth_of = |mut i: u32| {
                let mut d = 0;
                while i != tree.root {
                    i = nodes[i as usize].parent_or_next;
                    d += 1;
                }
                d
            };
            let mut want: Vec<(u32, u32)> = (0..nodes.len() as u32)
                .filter(|&i| nodes[i as usize].is_allocated())
                .map(|i| (i, depth_of(i)))
                .collect();
            let mut got = Vec::new();
            let mut leaves = 0;
            tree.visit_nodes(|aabb, depth, leaf| {
                let i = (0..nodes.len() as u32)
                    .find(|&i| {
                        nodes[i as usize].is_allocated()
                            && nodes[i as usize].aabb == *aabb
                            && depth_of(i) == depth
                    })
                    .expect("a node with that box at that depth");
                assert_eq!(nodes[i as usize].is_leaf(), leaf);
                leaves += u32::from(leaf);
                got.push((i, depth));
            });
            assert_eq!(got.first().map(|g| g.1), Some(0), "the root first");
            assert_eq!(leaves, tree.proxy_count());
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "round {round}");
        }
        let mut calls = 0;
        DynamicTree::new().visit_nodes(|_, _, _| calls += 1);
        assert_eq!(calls, 0);
    }

    /// The stackless walk (taken by trees too tall for the fixed stack, and by `validate`)
    /// reports exactly the leaves brute force finds, as `query` does, on random trees at three
    /// scales with proxies moved and destroyed; and it stops when the callback says so.
    #[test]
    fn stackless_query_matches_query_and_brute_force() {
        let mut rng = Rng(23);
        for (round, scale) in [0.01f32, 1.0, 1000.0].into_iter().cycle().take(30).enumerate() {
            let mut tree = DynamicTree::new();
            let mut boxes = Vec::new();
            let rand_box = |rng: &mut Rng| {
                let c = Vec2::new(rng.f(-10.0, 10.0), rng.f(-10.0, 10.0)) * scale;
                let h = Vec2::new(rng.f(0.01, 1.0), rng.f(0.01, 1.0)) * scale;
                Aabb::new(c - h, c + h)
            };
            for i in 0..(20 + round * 7) {
                let b = rand_box(&mut rng);
                let bits = 1u64 << (i % 3);
                let id = tree.create_proxy(b, bits, i as u64).unwrap();
                boxes.push(Some((id, bits)));
            }
            for k in 0..boxes.len() / 3 {
                let i = (rng.next() as usize) % boxes.len();
                if let Some((id, _)) = boxes[i] {
                    if k % 2 == 0 {
                        tree.destroy_proxy(id).unwrap();
                        boxes[i] = None;
                    } else {
                        tree.move_proxy(id, rand_box(&mut rng)).unwrap();
                    }
                }
            }
            for _ in 0..20 {
                let q = rand_box(&mut rng);
                let mask = [u64::MAX, 1, 6][(rng.next() % 3) as usize];
                let mut brute: Vec<ProxyId> = boxes
                    .iter()
                    .flatten()
                    .filter(|(id, bits)| bits & mask != 0 && tree.fat_aabb(*id).unwrap().overlaps(q))
                    .map(|(id, _)| *id)
                    .collect();
                let (mut fixed, mut stackless) = (Vec::new(), Vec::new());
                tree.query(q, mask, |id, _| {
                    fixed.push(id);
                    Visit::Continue
                });
                tree.query_stackless(q, mask, |id, _| {
                    stackless.push(id);
                    Visit::Continue
                });
                // The iterator, in both of its modes (stack, and the walk over parent links).
                let mut iter: Vec<ProxyId> = tree.query_iter(q, mask).map(|(id, _)| id).collect();
                let mut walk = tree.query_iter(q, mask);
                walk.force_walk();
                let mut walked: Vec<ProxyId> = walk.map(|(id, _)| id).collect();
                iter.sort_unstable();
                walked.sort_unstable();
                assert_eq!(iter, brute, "round {round}");
                assert_eq!(walked, brute, "round {round}");
                brute.sort_unstable();
                fixed.sort_unstable();
                let mut sorted = stackless.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, brute, "round {round}");
                assert_eq!(fixed, brute, "round {round}");
                // Stopping after the first leaf reports exactly one.
                let mut seen = 0;
                tree.query_stackless(q, mask, |_, _| {
                    seen += 1;
                    Visit::Stop
                });
                assert_eq!(seen, usize::from(!brute.is_empty()));
            }
            tree.validate().unwrap();
        }
    }
}
