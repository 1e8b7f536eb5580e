//! The nodes and where they live: [`TreeNode`] (40 bytes, as Box2D's), [`NodeStorage`] (a
//! growable `Vec` or a caller's fixed slice), and the free list through the nodes' parent
//! fields that hands nodes out and takes them back, growing the storage when it can.

use super::{DynamicTree, TreeError, FLAG_ALLOCATED, FLAG_LEAF, NULL_NODE};
use crate::math::Aabb;
use bytemuck::{Pod, Zeroable};

/// One node of the tree: 40 bytes, like Box2D's.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct TreeNode {
    /// Fat AABB (leaves) or union of the children's boxes (internal nodes), world space.
    pub aabb: Aabb,
    /// Category bits (leaves) or the OR of the children's (internal nodes).
    pub category_bits: u64,
    /// Leaf: user data. Internal node: `child1 | child2 << 32`.
    pub(super) data: u64,
    /// Parent index when allocated, next free node when free.
    pub(super) parent_or_next: u32,
    /// 0 for leaves, 1 + max child height otherwise.
    pub(super) height: u16,
    pub(super) flags: u16,
}

impl TreeNode {
    #[inline]
    pub(super) fn is_allocated(&self) -> bool {
        self.flags & FLAG_ALLOCATED != 0
    }
    #[inline]
    pub(super) fn is_leaf(&self) -> bool {
        self.flags & FLAG_LEAF != 0
    }
    #[inline]
    pub(super) fn child1(&self) -> u32 {
        self.data as u32
    }
    #[inline]
    pub(super) fn child2(&self) -> u32 {
        (self.data >> 32) as u32
    }
    #[inline]
    pub(super) fn set_children(&mut self, c1: u32, c2: u32) {
        self.data = u64::from(c1) | (u64::from(c2) << 32);
    }
}

/// Where the nodes live: a growable `Vec` or a fixed caller-provided slice.
pub trait NodeStorage {
    /// The nodes.
    fn nodes(&self) -> &[TreeNode];
    /// The nodes, mutable.
    fn nodes_mut(&mut self) -> &mut [TreeNode];
    /// Grows to at least `min_len` nodes; returns false when the storage cannot grow.
    fn try_grow(&mut self, min_len: usize) -> bool;
}

impl NodeStorage for &mut [TreeNode] {
    fn nodes(&self) -> &[TreeNode] {
        self
    }
    fn nodes_mut(&mut self) -> &mut [TreeNode] {
        self
    }
    fn try_grow(&mut self, _min_len: usize) -> bool {
        false
    }
}

#[cfg(feature = "alloc")]
impl NodeStorage for alloc::vec::Vec<TreeNode> {
    fn nodes(&self) -> &[TreeNode] {
        self
    }
    fn nodes_mut(&mut self) -> &mut [TreeNode] {
        self
    }
    fn try_grow(&mut self, min_len: usize) -> bool {
        if min_len > (NULL_NODE as usize) {
            return false;
        }
        // Fallible: an allocator that cannot provide the memory leaves the tree as it was
        // (the insertion reports `TreeError::Full`) instead of aborting.
        if self.try_reserve(min_len.saturating_sub(self.len())).is_err() {
            return false;
        }
        self.resize(min_len, TreeNode::default());
        true
    }
}

impl<S: NodeStorage> DynamicTree<S> {
    pub(super) fn grow_to(&mut self, min_len: usize) -> bool {
        let old = self.nodes.nodes().len();
        if !self.nodes.try_grow(min_len) {
            return false;
        }
        let new = self.nodes.nodes().len();
        let free_list = self.free_list;
        for (i, n) in (old..).zip(self.nodes.nodes_mut()[old..new].iter_mut()) {
            *n = TreeNode {
                parent_or_next: if i + 1 < new { (i + 1) as u32 } else { free_list },
                ..TreeNode::default()
            };
        }
        if new > old {
            self.free_list = old as u32;
        }
        true
    }

    fn free_nodes(&self) -> usize {
        self.capacity() - self.node_count as usize
    }

    /// Makes room for `count` more proxies, so that the next `count` calls of
    /// [`DynamicTree::create_proxy`] cannot fail for lack of room (each proxy takes up to two
    /// nodes). [`TreeError::Full`] when the storage cannot grow that far (a fixed buffer, or
    /// an allocation failure); the tree is unchanged.
    pub fn reserve_proxies(&mut self, count: usize) -> Result<(), TreeError> {
        self.reserve(count.saturating_mul(2))
    }

    /// Makes sure `count` nodes can be allocated without failing.
    pub(super) fn reserve(&mut self, count: usize) -> Result<(), TreeError> {
        if self.free_nodes() >= count {
            return Ok(());
        }
        let want = (self.capacity() * 2)
            .max(self.node_count as usize + count)
            .max(16);
        // Doubling first; when the allocator cannot give that much, just what is needed.
        let exact = self.node_count as usize + count;
        if (self.grow_to(want) || self.grow_to(exact)) && self.free_nodes() >= count {
            Ok(())
        } else {
            Err(TreeError::Full)
        }
    }

    pub(super) fn allocate(&mut self) -> u32 {
        let id = self.free_list;
        let node = &mut self.nodes.nodes_mut()[id as usize];
        self.free_list = node.parent_or_next;
        *node = TreeNode {
            parent_or_next: NULL_NODE,
            flags: FLAG_ALLOCATED,
            ..TreeNode::default()
        };
        self.node_count += 1;
        id
    }

    pub(super) fn free(&mut self, id: u32) {
        let node = &mut self.nodes.nodes_mut()[id as usize];
        *node = TreeNode {
            parent_or_next: self.free_list,
            ..TreeNode::default()
        };
        self.free_list = id;
        self.node_count -= 1;
    }
}
