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
//!   shapes, contacts) take a function from a proxy to its shape (`shapes.rs`).
//! - Misuse (stale or out-of-range ids, non-finite boxes, a full fixed buffer) returns a
//!   [`TreeError`] and leaves the tree valid; [`DynamicTree::validate`] checks every invariant.

use crate::math::{Aabb, Ray, Vec2};
use bytemuck::{Pod, Zeroable};

mod query;
mod shapes;
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
/// In the [`World`](crate::World) every body carries one. With the tree alone: store
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

/// One node of the tree: 40 bytes, like Box2D's.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct TreeNode {
    /// Fat AABB (leaves) or union of the children's boxes (internal nodes), world space.
    pub aabb: Aabb,
    /// Category bits (leaves) or the OR of the children's (internal nodes).
    pub category_bits: u64,
    /// Leaf: user data. Internal node: `child1 | child2 << 32`.
    data: u64,
    /// Parent index when allocated, next free node when free.
    parent_or_next: u32,
    /// 0 for leaves, 1 + max child height otherwise.
    height: u16,
    flags: u16,
}

impl TreeNode {
    #[inline]
    fn is_allocated(&self) -> bool {
        self.flags & FLAG_ALLOCATED != 0
    }
    #[inline]
    fn is_leaf(&self) -> bool {
        self.flags & FLAG_LEAF != 0
    }
    #[inline]
    fn child1(&self) -> u32 {
        self.data as u32
    }
    #[inline]
    fn child2(&self) -> u32 {
        (self.data >> 32) as u32
    }
    #[inline]
    fn set_children(&mut self, c1: u32, c2: u32) {
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
#[derive(Debug)]
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

/// The box `lo`..`hi` grown to contain the point `c`.
#[inline(always)]
fn grow_point_box((lo, hi): (Vec2, Vec2), c: Vec2) -> (Vec2, Vec2) {
    (
        Vec2::new(fmin(lo.x, c.x), fmin(lo.y, c.y)),
        Vec2::new(fmax(hi.x, c.x), fmax(hi.y, c.y)),
    )
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

    fn grow_to(&mut self, min_len: usize) -> bool {
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
    fn reserve(&mut self, count: usize) -> Result<(), TreeError> {
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

    fn allocate(&mut self) -> u32 {
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

    fn free(&mut self, id: u32) {
        let node = &mut self.nodes.nodes_mut()[id as usize];
        *node = TreeNode {
            parent_or_next: self.free_list,
            ..TreeNode::default()
        };
        self.free_list = id;
        self.node_count -= 1;
    }

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

    /// In `parent`, replaces the child `old` by `new` (the caller fixes `new`'s parent link).
    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        let p = &mut self.nodes.nodes_mut()[parent as usize];
        if p.child1() == old {
            p.set_children(new, p.child2());
        } else {
            p.set_children(p.child1(), new);
        }
    }

    fn refit(&mut self, i: u32) {
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

    fn insert_leaf(&mut self, leaf: u32) {
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

    fn remove_leaf(&mut self, leaf: u32) {
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
}
