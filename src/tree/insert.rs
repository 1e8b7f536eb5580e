//! Inserting and removing leaves: the surface-area-heuristic sibling search, refitting on the
//! way up, and the rotations that keep the tree shallow.

use super::*;

impl<S: NodeStorage> DynamicTree<S> {
    /// In `parent`, replaces the child `old` by `new` (the caller fixes `new`'s parent link).
    pub(super) fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        let p = &mut self.nodes.nodes_mut()[parent as usize];
        if p.child1() == old {
            p.set_children(new, p.child2());
        } else {
            p.set_children(p.child1(), new);
        }
    }

    pub(super) fn refit(&mut self, i: u32) {
        let nodes = self.nodes.nodes_mut();
        let (c1, c2) = (
            nodes[i as usize].child1() as usize,
            nodes[i as usize].child2() as usize,
        );
        let (a, b) = (nodes[c1], nodes[c2]);
        let n = &mut nodes[i as usize];
        n.aabb = join(a.aabb, b.aabb);
        n.height = 1 + a.height.max(b.height);
        n.category_bits = a.category_bits | b.category_bits;
    }

    pub(super) fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL_NODE {
            self.root = leaf;
            self.nodes.nodes_mut()[leaf as usize].parent_or_next = NULL_NODE;
            return;
        }
        let sibling = self.find_best_sibling(self.nodes.nodes()[leaf as usize].aabb);
        let old_parent = self.nodes.nodes()[sibling as usize].parent_or_next;
        let new_parent = self.allocate();
        {
            let nodes = self.nodes.nodes_mut();
            nodes[new_parent as usize].parent_or_next = old_parent;
            nodes[new_parent as usize].set_children(sibling, leaf);
            nodes[sibling as usize].parent_or_next = new_parent;
            nodes[leaf as usize].parent_or_next = new_parent;
        }
        if old_parent != NULL_NODE {
            self.replace_child(old_parent, sibling, new_parent);
        } else {
            self.root = new_parent;
        }
        self.refit(new_parent);
        self.fix_upwards(old_parent);
    }

    /// Surface-area-heuristic sibling search. The cost of pairing the new box `d` with node `x`
    /// is the perimeter of their union plus the growth of every ancestor of `x`; descending
    /// stops when a lower bound on the cost below a child cannot beat the best found.
    fn find_best_sibling(&self, d: Aabb) -> u32 {
        let nodes = self.nodes.nodes();
        let area_d = d.perimeter();
        let center_d = d.center();
        let mut index = self.root;
        let mut area_base = nodes[index as usize].aabb.perimeter();
        let mut direct = join_perimeter(nodes[index as usize].aabb, d);
        let mut inherited = 0.0f32;
        let mut best = index;
        let mut best_cost = direct;
        while !nodes[index as usize].is_leaf() {
            let n = &nodes[index as usize];
            let cost = direct + inherited;
            if cost < best_cost {
                best = index;
                best_cost = cost;
            }
            inherited += direct - area_base;
            let mut lower = [f32::MAX; 2];
            let mut areas = [0.0f32; 2];
            let mut directs = [0.0f32; 2];
            let children = [n.child1(), n.child2()];
            let mut leaves = [false; 2];
            for k in 0..2 {
                let c = &nodes[children[k] as usize];
                directs[k] = join_perimeter(c.aabb, d);
                if c.is_leaf() {
                    leaves[k] = true;
                    let cost_k = directs[k] + inherited;
                    if cost_k < best_cost {
                        best = children[k];
                        best_cost = cost_k;
                    }
                } else {
                    areas[k] = c.aabb.perimeter();
                    // Lower bound of the cost of inserting anywhere below this child.
                    lower[k] = inherited + directs[k] + (area_d - areas[k]).min(0.0);
                }
            }
            if leaves[0] && leaves[1] {
                break;
            }
            if best_cost <= lower[0] && best_cost <= lower[1] {
                break;
            }
            if lower[0] == lower[1] && !leaves[0] {
                // Both contain d: no area preference; fall back to the closer centre.
                lower[0] = (nodes[children[0] as usize].aabb.center() - center_d).length_squared();
                lower[1] = (nodes[children[1] as usize].aabb.center() - center_d).length_squared();
            }
            let k = if lower[0] < lower[1] && !leaves[0] { 0 } else { 1 };
            index = children[k];
            area_base = areas[k];
            direct = directs[k];
        }
        best
    }

    /// Walks from `index` towards the root, refitting and applying area-reducing rotations.
    /// Stops after two consecutive nodes that neither refitting nor rotation changed: above
    /// them no box, height or category changes, and a node's rotation only looks at its
    /// children and grandchildren, which are then as they were at the node's last visit.
    fn fix_upwards(&mut self, mut index: u32) {
        let mut unchanged = 0;
        while index != NULL_NODE {
            let before = self.nodes.nodes()[index as usize];
            self.refit(index);
            let rotated = self.rotate(index);
            let after = &self.nodes.nodes()[index as usize];
            let same = !rotated
                && after.aabb == before.aabb
                && after.height == before.height
                && after.category_bits == before.category_bits;
            unchanged = if same { unchanged + 1 } else { 0 };
            if unchanged == 2 {
                return;
            }
            index = after.parent_or_next;
        }
    }

    pub(super) fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL_NODE;
            return;
        }
        let parent = self.nodes.nodes()[leaf as usize].parent_or_next;
        let pn = self.nodes.nodes()[parent as usize];
        let grand = pn.parent_or_next;
        let sibling = if pn.child1() == leaf {
            pn.child2()
        } else {
            pn.child1()
        };
        if grand != NULL_NODE {
            self.replace_child(grand, parent, sibling);
            self.nodes.nodes_mut()[sibling as usize].parent_or_next = grand;
            self.free(parent);
            self.fix_upwards(grand);
        } else {
            self.root = sibling;
            self.nodes.nodes_mut()[sibling as usize].parent_or_next = NULL_NODE;
            self.free(parent);
        }
        self.nodes.nodes_mut()[leaf as usize].parent_or_next = NULL_NODE;
    }

    /// Swaps a child of `a` with a grandchild on the other side when that shrinks the
    /// perimeter of the affected child (the tree-rotation step of the surface-area heuristic).
    fn rotate(&mut self, a: u32) -> bool {
        let nodes = self.nodes.nodes();
        let na = nodes[a as usize];
        if na.is_leaf() || na.height < 2 {
            return false;
        }
        let (b, c) = (na.child1(), na.child2());
        let (nb, nc) = (nodes[b as usize], nodes[c as usize]);
        // Candidate: swap `x` (a child of a) with `y` (a child of the other child `p`, whose
        // other child is `z`): p's box becomes union(x, z).
        let mut best: Option<(u32, u32, u32)> = None; // (x, y, p)
        let mut best_gain = 0.0f32;
        let mut consider = |x: u32, p: &TreeNode, pi: u32| {
            if p.is_leaf() {
                return;
            }
            let (f, g) = (p.child1(), p.child2());
            let xbox = nodes[x as usize].aabb;
            let area_p = p.aabb.perimeter();
            for (y, z) in [(f, g), (g, f)] {
                let gain = area_p - join_perimeter(xbox, nodes[z as usize].aabb);
                if gain > best_gain {
                    best_gain = gain;
                    best = Some((x, y, pi));
                }
            }
        };
        consider(b, &nc, c);
        consider(c, &nb, b);
        let Some((x, y, p)) = best else {
            return false;
        };
        // a's child x moves under p in y's place; y moves up to a.
        self.replace_child(a, x, y);
        self.replace_child(p, y, x);
        let nodes = self.nodes.nodes_mut();
        nodes[x as usize].parent_or_next = p;
        nodes[y as usize].parent_or_next = a;
        self.refit(p);
        self.refit(a);
        true
    }
}
