//! Dynamic AABB tree (broad phase), with growable storage (feature `alloc`) or a caller-provided
//! buffer of nodes (no allocator at all).
//!
//! - Nodes live in one array; free nodes form a list through their parent field. A proxy id is
//!   the index of its leaf node (a stable `u32` until the proxy is destroyed; ids of destroyed
//!   proxies are reused, as in Box2D).
//! - Leaves store a *fat* AABB (the tight box grown by the tree's margin) so small motions do
//!   not touch the tree; [`DynamicTree::move_proxy`] reinserts only when the tight box escapes.
//! - Insertion picks the sibling by the surface-area (perimeter) heuristic and rebalances with
//!   AVL rotations on the way up. [`DynamicTree::rebuild`] reinserts every leaf to restore
//!   quality after many moves.
//! - Traversals use a fixed 64-entry stack (a depth-first walk never holds more than
//!   `height + 1` pending nodes); a tree too tall for it (root height 63 or more, which
//!   balanced insertion never produces) and [`DynamicTree::validate`] walk parent links
//!   without a stack instead, so there is no depth limit and no node is ever silently skipped.
//! - Ids are [`ProxyId`]s; each proxy also carries a `u64` of user data and `u64` category
//!   bits. The payload stays a plain `u64` (an index into the caller's own array, as in the
//!   guides) rather than a generic `DynamicTree<T>`: nodes stay plain 40-byte `Pod` values that
//!   a caller's buffer and the C ABI can hold, and an index costs nothing to look up.
//! - Every callback returns a [`Visit`]; [`DynamicTree::query_iter`] is the box query as an
//!   iterator; the exact shape-level queries (closest ray hit, closest cast, overlapping
//!   shapes, contacts) take a function from a proxy to its shape.
//! - Misuse (stale or out-of-range ids, non-finite boxes, a full fixed buffer) returns a
//!   [`TreeError`] and leaves the tree valid; [`DynamicTree::validate`] checks every invariant.
//!
//! Files: `node.rs` (nodes, storage, free list), `proxies.rs` (creating, moving and
//! destroying proxies), `insert.rs` (insertion, removal, rotations), `rebuild.rs`, `query.rs`
//! (traversals, box queries, casts, pairs, `validate`) and `shapes.rs` (the shape-level
//! queries).

use crate::math::{Aabb, Ray, Vec2};
use bytemuck::{Pod, Zeroable};

mod insert;
mod node;
mod proxies;
mod query;
mod rebuild;
mod shapes;
pub use node::{NodeStorage, TreeNode};
pub use query::QueryIter;
pub use shapes::{TreeCastHit, TreeRayHit};

/// A proxy's id in a [`DynamicTree`]: the index of its leaf node, stable until the proxy is
/// destroyed (ids of destroyed proxies are reused, as in Box2D). A newtype, so a proxy id and a
/// caller's own index cannot be mixed up; the C ABI passes [`ProxyId::index`] as a `uint32_t`.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ProxyId(u32);

impl ProxyId {
    /// The node index (what the C ABI calls the proxy id).
    #[inline]
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0
    }

    /// The id of node `index` (for ids that crossed a C boundary or were stored as integers).
    /// The tree checks every id it is given: a wrong one is [`TreeError::InvalidProxy`].
    #[inline]
    #[must_use]
    pub const fn from_index(index: u32) -> ProxyId {
        ProxyId(index)
    }
}

/// What a tree traversal does after the callback saw a proxy: the one callback convention of
/// every [`DynamicTree`] query and cast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Visit {
    /// Go on (for a cast: with the ray or sweep unchanged; use it to ignore a proxy).
    Continue,
    /// End the traversal now (any-hit queries).
    Stop,
    /// For casts: shorten the ray or sweep to this fraction and go on (closest-hit queries
    /// return the hit fraction). Values at or above the current maximum change nothing, `0`
    /// or less stops, NaN is `Continue`. For box queries the same as `Continue`.
    Clip(f32),
}

/// Collision filtering, with Box2D's meaning. A shape belongs to the categories in
/// `category_bits` and collides with the categories in `mask_bits`; two shapes collide when
/// each one's mask accepts the other's categories, unless they share a non-zero
/// `group_index`: then a positive group always collides and a negative group never does
/// (regardless of the bits).
///
/// In a world every body carries one. With the tree alone: store
/// `category_bits` as the proxy's category bits (queries prune by `mask_bits`), keep each
/// proxy's `Filter` beside your shapes, and call [`Filter::should_collide`] in the callback
/// (for [`DynamicTree::query_pairs`] as for queries by a filtered shape).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Filter {
    /// The categories this shape is in (default `1`, as Box2D's default category).
    pub category_bits: u64,
    /// The categories this shape collides with (default all).
    pub mask_bits: u64,
    /// Collision group: same positive group always collides, same negative group never;
    /// 0 (default) uses the bits only.
    pub group_index: i32,
}

impl Filter {
    /// Box2D's defaults: category 1, collides with everything, no group.
    pub const DEFAULT: Filter = Filter {
        category_bits: 1,
        mask_bits: u64::MAX,
        group_index: 0,
    };

    /// Whether shapes with these two filters collide (symmetric).
    #[inline]
    #[must_use]
    pub fn should_collide(&self, other: &Filter) -> bool {
        if self.group_index == other.group_index && self.group_index != 0 {
            return self.group_index > 0;
        }
        self.mask_bits & other.category_bits != 0 && other.mask_bits & self.category_bits != 0
    }
}

impl Default for Filter {
    fn default() -> Self {
        Filter::DEFAULT
    }
}

/// Index meaning "no node".
pub const NULL_NODE: u32 = u32::MAX;

/// Default fat-AABB margin (length units), as Box2D's 0.1 m.
pub const DEFAULT_AABB_MARGIN: f32 = 0.1;

const FLAG_ALLOCATED: u16 = 1;
const FLAG_LEAF: u16 = 2;
const FLAG_MOVED: u16 = 4;
/// Set only during [`DynamicTree::query_pairs_of`] on the proxies of its list.
const FLAG_LISTED: u16 = 8;
/// Set during [`DynamicTree::query_pairs_of`] on the listed proxies already queried.
const FLAG_DONE: u16 = 16;
/// On internal nodes: a descendant was moved by [`DynamicTree::move_proxy_lazy`] since the
/// last [`DynamicTree::rebuild_enlarged`], which rebuilds these nodes.
const FLAG_ENLARGED: u16 = 32;

/// Entries of the pair descent's stack (see `pairs_descent`): trees up to height 63.
const PAIR_STACK: usize = 256;

/// Smaller of two finite floats as one `minss` (`f32::min` adds NaN handling the tree does
/// not need: every box in it was validated finite on the way in).
#[inline(always)]
fn fmin(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}

/// Larger of two finite floats (see [`fmin`]).
#[inline(always)]
fn fmax(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}

/// Union of two finite boxes.
#[inline(always)]
fn join(a: Aabb, b: Aabb) -> Aabb {
    Aabb {
        min: Vec2::new(fmin(a.min.x, b.min.x), fmin(a.min.y, b.min.y)),
        max: Vec2::new(fmax(a.max.x, b.max.x), fmax(a.max.y, b.max.y)),
    }
}

/// Perimeter of the union of two finite boxes.
#[inline(always)]
fn join_perimeter(a: Aabb, b: Aabb) -> f32 {
    join(a, b).perimeter()
}

/// Why a tree operation was refused. Values are stable and shared with the C ABI.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TreeError {
    /// The AABB is not finite or has `min > max`.
    InvalidAabb = 1,
    /// The fixed node buffer has no room for the new proxy, or growable storage could not
    /// allocate more nodes (the tree is unchanged).
    Full = 2,
    /// The id is out of range, or names a destroyed proxy or an internal node.
    InvalidProxy = 3,
    /// `validate` found a broken invariant (a bug, or memory corrupted from outside).
    Corrupt = 4,
}

impl core::fmt::Display for TreeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            TreeError::InvalidAabb => "AABB is not finite or has min > max",
            TreeError::Full => "no room for another node (fixed buffer full, or out of memory)",
            TreeError::InvalidProxy => "stale, out-of-range or internal proxy id",
            TreeError::Corrupt => "tree invariant broken",
        })
    }
}

impl core::error::Error for TreeError {}

/// A dynamic AABB tree over a node storage `S`.
///
/// `DynamicTree<Vec<TreeNode>>` (feature `alloc`, see [`DynamicTree::new`]) grows as needed;
/// `DynamicTree<&mut [TreeNode]>` ([`DynamicTree::from_buffer`]) never allocates: `n` proxies
/// need `2n - 1` nodes.
#[derive(Clone, Debug)]
pub struct DynamicTree<S: NodeStorage> {
    nodes: S,
    root: u32,
    free_list: u32,
    node_count: u32,
    proxy_count: u32,
    margin: f32,
    /// A proxy was enlarged since the last rebuild (the tree may have lost quality).
    enlarged: bool,
}

#[cfg(feature = "alloc")]
impl DynamicTree<alloc::vec::Vec<TreeNode>> {
    /// An empty growable tree with the default margin.
    #[must_use]
    pub fn new() -> Self {
        Self::with_capacity(16)
    }

    /// An empty growable tree with room for `nodes` nodes before it first grows.
    #[must_use]
    pub fn with_capacity(nodes: usize) -> Self {
        let mut t = DynamicTree {
            nodes: alloc::vec::Vec::new(),
            root: NULL_NODE,
            free_list: NULL_NODE,
            node_count: 0,
            proxy_count: 0,
            margin: DEFAULT_AABB_MARGIN,
            enlarged: false,
        };
        t.grow_to(nodes.max(1));
        t
    }
}

#[cfg(feature = "alloc")]
impl Default for DynamicTree<alloc::vec::Vec<TreeNode>> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> DynamicTree<&'a mut [TreeNode]> {
    /// An empty tree in a caller-provided buffer (no allocator). The buffer's contents are
    /// overwritten. Holds up to `(buffer.len() + 1) / 2` proxies.
    #[must_use]
    pub fn from_buffer(buffer: &'a mut [TreeNode]) -> Self {
        let len = buffer.len().min(NULL_NODE as usize - 1);
        let buffer = &mut buffer[..len];
        for (i, n) in buffer.iter_mut().enumerate() {
            *n = TreeNode::default();
            n.parent_or_next = if i + 1 < len { (i + 1) as u32 } else { NULL_NODE };
        }
        DynamicTree {
            nodes: buffer,
            root: NULL_NODE,
            free_list: if len > 0 { 0 } else { NULL_NODE },
            node_count: 0,
            proxy_count: 0,
            margin: DEFAULT_AABB_MARGIN,
            enlarged: false,
        }
    }
}

/// A fat margin as the tree uses it: negative and NaN (and infinite) become 0.
fn sane_margin(margin: f32) -> f32 {
    if margin > 0.0 && margin.is_finite() {
        margin
    } else {
        0.0
    }
}

impl<S: NodeStorage> DynamicTree<S> {
    /// The fat-AABB margin added around every tight box.
    #[must_use]
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// Sets the fat-AABB margin (negative and NaN become 0). Applies to boxes inserted or
    /// moved from now on.
    pub fn set_margin(&mut self, margin: f32) {
        self.margin = sane_margin(margin);
    }

    /// Number of proxies.
    #[must_use]
    pub fn proxy_count(&self) -> u32 {
        self.proxy_count
    }

    /// Number of nodes the storage holds (allocated or free).
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.nodes.nodes().len()
    }

    /// Height of the tree (0 for a single leaf or an empty tree).
    #[must_use]
    pub fn height(&self) -> u32 {
        if self.root == NULL_NODE {
            0
        } else {
            u32::from(self.nodes.nodes()[self.root as usize].height)
        }
    }

    /// Sum of the perimeters of all internal nodes over the root's perimeter (quality: lower is
    /// better; 0 for an empty tree).
    #[must_use]
    pub fn area_ratio(&self) -> f32 {
        if self.root == NULL_NODE {
            return 0.0;
        }
        let nodes = self.nodes.nodes();
        let root_area = nodes[self.root as usize].aabb.perimeter();
        let mut total = 0.0;
        for n in nodes {
            if n.is_allocated() && !n.is_leaf() {
                total += n.aabb.perimeter();
            }
        }
        if root_area > 0.0 {
            total / root_area
        } else {
            0.0
        }
    }

    /// The root's box, or `None` when empty.
    #[must_use]
    pub fn root_bounds(&self) -> Option<Aabb> {
        (self.root != NULL_NODE).then(|| self.nodes.nodes()[self.root as usize].aabb)
    }

    fn leaf(&self, id: u32) -> Result<&TreeNode, TreeError> {
        match self.nodes.nodes().get(id as usize) {
            Some(n) if n.is_allocated() && n.is_leaf() => Ok(n),
            _ => Err(TreeError::InvalidProxy),
        }
    }

    /// The fat AABB of a proxy.
    pub fn fat_aabb(&self, id: ProxyId) -> Result<Aabb, TreeError> {
        let id = id.0;
        self.leaf(id).map(|n| n.aabb)
    }

    /// The user data of a proxy.
    pub fn user_data(&self, id: ProxyId) -> Result<u64, TreeError> {
        let id = id.0;
        self.leaf(id).map(|n| n.data)
    }

    /// The category bits of a proxy.
    pub fn category_bits(&self, id: ProxyId) -> Result<u64, TreeError> {
        let id = id.0;
        self.leaf(id).map(|n| n.category_bits)
    }

    /// Changes the category bits of a proxy (and the ORs stored in its ancestors).
    pub fn set_category_bits(&mut self, id: ProxyId, bits: u64) -> Result<(), TreeError> {
        let id = id.0;
        self.leaf(id)?;
        self.nodes.nodes_mut()[id as usize].category_bits = bits;
        let mut p = self.nodes.nodes()[id as usize].parent_or_next;
        while p != NULL_NODE {
            self.refit(p);
            p = self.nodes.nodes()[p as usize].parent_or_next;
        }
        Ok(())
    }
}

#[cfg(all(feature = "solver", feature = "alloc"))]
mod snapshot {
    //! A world's trees in its snapshot's byte encoding (see `crate::wire`): every node,
    //! free ones included, so that a restored tree hands out the same nodes in the same order.
    use super::{DynamicTree, TreeNode, FLAG_ALLOCATED, FLAG_LEAF};
    use crate::math::Aabb;
    use crate::wire::{take_into, wire_struct, In, Out, Wire, WireError};
    use alloc::vec::Vec;

    wire_struct!(TreeNode {
        aabb: Aabb,
        category_bits: u64,
        data: u64,
        parent_or_next: u32,
        height: u16,
        flags: u16,
    });

    impl DynamicTree<Vec<TreeNode>> {
        pub(crate) fn put(&self, o: &mut Out) {
            self.nodes.put(o);
            self.root.put(o);
            self.free_list.put(o);
            self.node_count.put(o);
            self.proxy_count.put(o);
            self.margin.put(o);
            self.enlarged.put(o);
        }

        /// Reads a tree written by `put` into this one, reusing its nodes' memory, and
        /// checks it ([`DynamicTree::validate`]); on error the tree is left empty.
        pub(crate) fn take_into(&mut self, i: &mut In) -> Result<(), WireError> {
            let read = |t: &mut Self, i: &mut In| -> Result<(), WireError> {
                take_into(&mut t.nodes, i)?;
                t.root = Wire::take(i)?;
                t.free_list = Wire::take(i)?;
                t.node_count = Wire::take(i)?;
                t.proxy_count = Wire::take(i)?;
                t.margin = Wire::take(i)?;
                t.enlarged = Wire::take(i)?;
                t.validate().map_err(|_| WireError::Invalid)
            };
            read(self, i).inspect_err(|_| {
                *self = DynamicTree {
                    nodes: Vec::new(),
                    ..DynamicTree::new()
                };
            })
        }

        /// Every proxy as (node index, user data), in node order.
        pub(crate) fn proxies(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
            self.nodes.iter().enumerate().filter_map(|(k, n)| {
                let leaf = n.flags & (FLAG_ALLOCATED | FLAG_LEAF) == FLAG_ALLOCATED | FLAG_LEAF;
                leaf.then_some((k as u32, n.data))
            })
        }
    }
}
