//! The sweep status: an ordered set of ids (edges or intervals) as a treap over a fixed arena,
//! with parent links so that an entry is removed, or its neighbours found, by id alone. The
//! order is never stored as keys: insertion descends with a comparison the caller makes
//! against the geometry at the sweep line. O(log n) expected per operation.

use crate::geometry::chain::try_vec;
use crate::geometry::GeometryError;
use alloc::vec::Vec;
use core::cmp::Ordering;

/// No node.
pub(super) const NIL: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Node {
    left: u32,
    right: u32,
    parent: u32,
}

/// An ordered set of ids below a fixed bound, each present at most once.
pub(super) struct Treap {
    nodes: Vec<Node>,
    root: u32,
}

/// The heap priority of `id`: a fixed mix of its bits, so the tree's shape is deterministic.
#[inline]
fn priority(id: u32) -> u32 {
    let mut x = id.wrapping_mul(0x9E37_79B9) ^ 0x85EB_CA6B;
    x ^= x >> 15;
    x = x.wrapping_mul(0x2C1B_3C6D);
    x ^= x >> 12;
    x
}

impl Treap {
    /// Room for ids `0..n`; [`GeometryError::OutOfMemory`] when the allocator cannot give it.
    pub(super) fn new(n: usize) -> Result<Treap, GeometryError> {
        let mut nodes = try_vec(n)?;
        nodes.resize(
            n,
            Node {
                left: NIL,
                right: NIL,
                parent: NIL,
            },
        );
        Ok(Treap { nodes, root: NIL })
    }

    /// The entry for which `cmp` says `Equal`, descending left on `Less` and right on
    /// `Greater` (the order of the sought place relative to each entry).
    pub(super) fn find(&self, mut cmp: impl FnMut(u32) -> Ordering) -> Option<u32> {
        let mut x = self.root;
        while x != NIL {
            x = match cmp(x) {
                Ordering::Less => self.nodes[x as usize].left,
                Ordering::Greater => self.nodes[x as usize].right,
                Ordering::Equal => return Some(x),
            };
        }
        None
    }

    /// Inserts `id` (not present) where `cmp` places it: `cmp(e)` is the order of `id`
    /// relative to entry `e` (`Equal` goes right).
    pub(super) fn insert(&mut self, id: u32, mut cmp: impl FnMut(u32) -> Ordering) {
        let (mut parent, mut x, mut left) = (NIL, self.root, false);
        while x != NIL {
            parent = x;
            left = cmp(x) == Ordering::Less;
            x = if left {
                self.nodes[x as usize].left
            } else {
                self.nodes[x as usize].right
            };
        }
        self.attach(id, parent, left);
    }

    /// Inserts `id` (not present) right after entry `after`.
    pub(super) fn insert_after(&mut self, after: u32, id: u32) {
        let r = self.nodes[after as usize].right;
        if r == NIL {
            self.attach(id, after, false);
        } else {
            let mut y = r;
            while self.nodes[y as usize].left != NIL {
                y = self.nodes[y as usize].left;
            }
            self.attach(id, y, true);
        }
    }

    /// Links `id` as a leaf under `parent` and restores the heap order.
    fn attach(&mut self, id: u32, parent: u32, left: bool) {
        self.nodes[id as usize] = Node {
            left: NIL,
            right: NIL,
            parent,
        };
        if parent == NIL {
            self.root = id;
        } else if left {
            self.nodes[parent as usize].left = id;
        } else {
            self.nodes[parent as usize].right = id;
        }
        let p = priority(id);
        while self.nodes[id as usize].parent != NIL && priority(self.nodes[id as usize].parent) < p {
            self.rotate_up(id);
        }
    }

    /// Removes entry `id`.
    pub(super) fn remove(&mut self, id: u32) {
        // Down to at most one child, the child of higher priority rising each time.
        loop {
            let n = self.nodes[id as usize];
            if n.left == NIL || n.right == NIL {
                break;
            }
            let c = if priority(n.left) > priority(n.right) {
                n.left
            } else {
                n.right
            };
            self.rotate_up(c);
        }
        let n = self.nodes[id as usize];
        let child = if n.left != NIL { n.left } else { n.right };
        if child != NIL {
            self.nodes[child as usize].parent = n.parent;
        }
        if n.parent == NIL {
            self.root = child;
        } else if self.nodes[n.parent as usize].left == id {
            self.nodes[n.parent as usize].left = child;
        } else {
            self.nodes[n.parent as usize].right = child;
        }
        self.nodes[id as usize] = Node {
            left: NIL,
            right: NIL,
            parent: NIL,
        };
    }

    /// The entry before `id`, if any.
    pub(super) fn prev(&self, id: u32) -> Option<u32> {
        let n = &self.nodes;
        let mut x = id;
        if n[x as usize].left != NIL {
            x = n[x as usize].left;
            while n[x as usize].right != NIL {
                x = n[x as usize].right;
            }
            return Some(x);
        }
        while n[x as usize].parent != NIL && n[n[x as usize].parent as usize].left == x {
            x = n[x as usize].parent;
        }
        let p = n[x as usize].parent;
        (p != NIL).then_some(p)
    }

    /// The entry after `id`, if any.
    pub(super) fn next(&self, id: u32) -> Option<u32> {
        let n = &self.nodes;
        let mut x = id;
        if n[x as usize].right != NIL {
            x = n[x as usize].right;
            while n[x as usize].left != NIL {
                x = n[x as usize].left;
            }
            return Some(x);
        }
        while n[x as usize].parent != NIL && n[n[x as usize].parent as usize].right == x {
            x = n[x as usize].parent;
        }
        let p = n[x as usize].parent;
        (p != NIL).then_some(p)
    }

    /// Rotates `x` above its parent, keeping the in-order sequence.
    fn rotate_up(&mut self, x: u32) {
        let p = self.nodes[x as usize].parent;
        let g = self.nodes[p as usize].parent;
        if self.nodes[p as usize].left == x {
            let b = self.nodes[x as usize].right;
            self.nodes[p as usize].left = b;
            if b != NIL {
                self.nodes[b as usize].parent = p;
            }
            self.nodes[x as usize].right = p;
        } else {
            let b = self.nodes[x as usize].left;
            self.nodes[p as usize].right = b;
            if b != NIL {
                self.nodes[b as usize].parent = p;
            }
            self.nodes[x as usize].left = p;
        }
        self.nodes[p as usize].parent = x;
        self.nodes[x as usize].parent = g;
        if g == NIL {
            self.root = x;
        } else if self.nodes[g as usize].left == p {
            self.nodes[g as usize].left = x;
        } else {
            self.nodes[g as usize].right = x;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inserting keys in scrambled order, removing some and inserting after others keeps the
    /// in-order sequence that a sorted list would have.
    #[test]
    fn treap_keeps_order() {
        let n = 500u32;
        let key = |i: u32| (i.wrapping_mul(7919) % 1000) as i64;
        let mut t = Treap::new(n as usize).unwrap();
        let mut reference: alloc::vec::Vec<u32> = alloc::vec::Vec::new();
        for i in 0..n / 2 {
            t.insert(i, |e| key(i).cmp(&key(e)).then(Ordering::Greater));
            reference.push(i);
        }
        reference.sort_by_key(|&i| key(i));
        for i in (0..n / 2).step_by(3) {
            t.remove(i);
            reference.retain(|&x| x != i);
        }
        for i in n / 2..n {
            let after = reference[(i as usize * 31) % reference.len()];
            t.insert_after(after, i);
            let at = reference.iter().position(|&x| x == after).unwrap();
            reference.insert(at + 1, i);
        }
        let mut first = reference[0];
        while let Some(p) = t.prev(first) {
            first = p;
        }
        let mut seen = alloc::vec![first];
        let mut x = first;
        while let Some(nx) = t.next(x) {
            seen.push(nx);
            x = nx;
        }
        assert_eq!(seen, reference);
    }
}
