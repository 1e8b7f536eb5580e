//! The dynamic tree behind an opaque `c2d_Tree` handle: `c2d_tree_create` / `c2d_tree_free`
//! (heap, needs `alloc`), or `c2d_tree_init` inside caller-provided memory (no allocator); its
//! proxies (create, move, enlarge, destroy, per-proxy data), rebuilds and checks. The queries
//! are in `tree_queries.rs`.

use super::status::{read, slice_mut, write, Status};
use crate::math::Aabb;
use crate::tree::{DynamicTree, ProxyId, TreeError, TreeNode};
use core::ffi::c_void;

pub(super) enum Storage {
    #[cfg(feature = "alloc")]
    Heap(DynamicTree<alloc::vec::Vec<TreeNode>>),
    Fixed(DynamicTree<&'static mut [TreeNode]>),
}

/// An opaque dynamic AABB tree.
pub struct Tree {
    pub(super) storage: Storage,
    /// True when the handle was made by `c2d_tree_create` (and must be freed by
    /// `c2d_tree_free`); false for `c2d_tree_init` memory, which the caller owns.
    heap: bool,
}

/// Dispatches a method call to whichever storage the tree uses.
macro_rules! with_tree {
    ($t:expr, $tree:ident => $body:expr) => {
        match &$t.storage {
            #[cfg(feature = "alloc")]
            Storage::Heap($tree) => $body,
            Storage::Fixed($tree) => $body,
        }
    };
    (mut $t:expr, $tree:ident => $body:expr) => {
        match &mut $t.storage {
            #[cfg(feature = "alloc")]
            Storage::Heap($tree) => $body,
            Storage::Fixed($tree) => $body,
        }
    };
}
pub(super) use with_tree;

impl From<TreeError> for Status {
    fn from(e: TreeError) -> Status {
        match e {
            TreeError::InvalidAabb => Status::InvalidAabb,
            TreeError::Full => Status::TreeFull,
            TreeError::InvalidProxy => Status::InvalidProxy,
            TreeError::Corrupt => Status::TreeCorrupt,
        }
    }
}

/// # Safety
/// `t` must be NULL or a handle from `c2d_tree_create` / `c2d_tree_init` not yet freed.
pub(super) unsafe fn tree_ref<'a>(t: *const Tree) -> Result<&'a Tree, Status> {
    // SAFETY: non-null handles are live trees by the caller's contract.
    unsafe { t.as_ref() }.ok_or(Status::NullPointer)
}

/// # Safety
/// As [`tree_ref`], and no other reference to the tree may be live.
pub(super) unsafe fn tree_mut<'a>(t: *mut Tree) -> Result<&'a mut Tree, Status> {
    // SAFETY: non-null handles are live, exclusively borrowed trees by the caller's contract.
    unsafe { t.as_mut() }.ok_or(Status::NullPointer)
}

/// Draws a tree's node boxes through `d`, whatever its storage.
pub(super) fn draw_tree(t: &Tree, d: &mut impl crate::draw::DebugDraw) {
    with_tree!(t, tr => tr.draw(d))
}

/// Creates an empty heap-allocated tree; writes the handle to `*out`. Free it with
/// `c2d_tree_free`. `C2D_STATUS_OUT_OF_MEMORY` (`*out` not written) when the allocator cannot
/// provide it.
///
/// # Safety
/// `out` must be NULL or point to a writable `c2d_Tree*`.
#[cfg(feature = "alloc")]
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_create(out: *mut *mut Tree) -> Status {
    if out.is_null() {
        return Status::NullPointer;
    }
    let Some(t) = super::status::try_box(Tree {
        storage: Storage::Heap(DynamicTree::new()),
        heap: true,
    }) else {
        return Status::OutOfMemory;
    };
    // SAFETY: `out` is non-null and writable by the caller's contract.
    unsafe { out.write_unaligned(alloc::boxed::Box::into_raw(t)) };
    Status::Ok
}

/// Frees a tree made by `c2d_tree_create`. NULL is ignored; a tree made by `c2d_tree_init` is
/// left alone (its memory belongs to the caller).
///
/// # Safety
/// `tree` must be NULL or a live handle, not used afterwards.
#[no_mangle]
// Without `alloc` there is no heap tree to free and the early return ends the function.
#[cfg_attr(not(feature = "alloc"), allow(clippy::needless_return))]
pub unsafe extern "C" fn c2d_tree_free(tree: *mut Tree) {
    if tree.is_null() {
        return;
    }
    // SAFETY: a live handle by the caller's contract.
    if unsafe { !(*tree).heap } {
        return;
    }
    #[cfg(feature = "alloc")]
    // SAFETY: heap handles come from Box::into_raw in c2d_tree_create and are freed once.
    drop(unsafe { alloc::boxed::Box::from_raw(tree) });
}

/// Bytes of caller memory `c2d_tree_init` needs for `max_proxies` proxies (aligned to 8).
#[no_mangle]
pub extern "C" fn c2d_tree_memory_size(max_proxies: u32) -> usize {
    let nodes = (max_proxies as usize).saturating_mul(2).saturating_sub(1).max(1);
    header_size().saturating_add(nodes.saturating_mul(core::mem::size_of::<TreeNode>()))
}

fn header_size() -> usize {
    let a = core::mem::align_of::<TreeNode>();
    core::mem::size_of::<Tree>().div_ceil(a) * a
}

/// Makes a tree inside caller memory (no allocator): `memory` must be 8-byte aligned and
/// `size` bytes long (see `c2d_tree_memory_size`). The handle points into `memory`, which must
/// outlive it. Inserting beyond the capacity returns `C2D_STATUS_TREE_FULL`.
///
/// # Safety
/// `memory` must be NULL or point to `size` writable bytes that stay valid, and are not used
/// otherwise, while the handle is in use; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_init(memory: *mut c_void, size: usize, out: *mut *mut Tree) -> Status {
    if memory.is_null() || out.is_null() {
        return Status::NullPointer;
    }
    let align = core::mem::align_of::<TreeNode>().max(core::mem::align_of::<Tree>());
    if (memory as usize) % align != 0 {
        return Status::Misaligned;
    }
    let header = header_size();
    if size < header + core::mem::size_of::<TreeNode>() {
        return Status::BufferTooSmall;
    }
    let count = (size - header) / core::mem::size_of::<TreeNode>();
    // SAFETY: the node area starts `header` bytes in (a multiple of TreeNode's alignment, on
    // an aligned base), holds `count` nodes within `size` bytes, is exclusively the tree's
    // while the handle lives (caller's contract), and any bytes are valid TreeNode values
    // (Pod) before from_buffer overwrites them. The 'static lifetime stands for "as long as
    // the caller keeps the memory", which the caller guarantees.
    let nodes: &'static mut [TreeNode] =
        unsafe { core::slice::from_raw_parts_mut((memory as *mut u8).add(header) as *mut TreeNode, count) };
    let tree = Tree {
        storage: Storage::Fixed(DynamicTree::from_buffer(nodes)),
        heap: false,
    };
    let handle = memory as *mut Tree;
    // SAFETY: `memory` is aligned for Tree and has room for it (header >= size_of Tree).
    unsafe { handle.write(tree) };
    // SAFETY: `out` checked non-null; writable by the caller's contract.
    unsafe { out.write_unaligned(handle) };
    Status::Ok
}

/// Inserts a proxy for the tight box `*aabb`; writes its id to `*out_id`. A heap tree grows
/// its storage as needed: `C2D_STATUS_OUT_OF_MEMORY` (the tree unchanged, `*out_id` not
/// written) when the allocator cannot provide it; a tree in caller memory that is full gives
/// `C2D_STATUS_TREE_FULL`.
///
/// # Safety
/// Pointers must be NULL or valid; `tree` a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_create_proxy(
    tree: *mut Tree,
    aabb: *const Aabb,
    category_bits: u64,
    user_data: u64,
    out_id: *mut u32,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe { create_proxy(tree, aabb, None, category_bits, user_data, out_id) }
}

/// Shared body of the two proxy creations: `margin` the proxy's own, or `None` for the
/// tree's.
///
/// # Safety
/// Pointers must be NULL or valid; `tree` a live handle.
unsafe fn create_proxy(
    tree: *mut Tree,
    aabb: *const Aabb,
    margin: Option<f32>,
    category_bits: u64,
    user_data: u64,
    out_id: *mut u32,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (t, b) = match unsafe { (tree_mut(tree), read(aabb)) } {
        (Ok(t), Ok(b)) => (t, b),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    if out_id.is_null() {
        return Status::NullPointer;
    }
    let heap = t.heap;
    let made = match margin {
        Some(m) => with_tree!(mut t, tr => tr.create_proxy_with_margin(b, m, category_bits, user_data)),
        None => with_tree!(mut t, tr => tr.create_proxy(b, category_bits, user_data)),
    };
    match made {
        // SAFETY: `out_id` checked non-null; writable by the caller's contract.
        Ok(id) => unsafe { write(out_id, id.index()) },
        // A heap tree is full only when the allocator failed.
        Err(TreeError::Full) if heap => Status::OutOfMemory,
        Err(e) => e.into(),
    }
}

/// `c2d_tree_create_proxy` with this proxy's own fat margin instead of the tree's (negative
/// and NaN count as 0), e.g. sized by the shape as Box2D v3 does (`min(0.05, 0.125 ×
/// extent)`). The tree does not remember it: move the proxy with the `_with_margin` moves.
/// Out of memory and a full tree as `c2d_tree_create_proxy` (`C2D_STATUS_OUT_OF_MEMORY`,
/// `C2D_STATUS_TREE_FULL`).
///
/// # Safety
/// Pointers must be NULL or valid; `tree` a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_create_proxy_with_margin(
    tree: *mut Tree,
    aabb: *const Aabb,
    margin: f32,
    category_bits: u64,
    user_data: u64,
    out_id: *mut u32,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe { create_proxy(tree, aabb, Some(margin), category_bits, user_data, out_id) }
}

/// Removes a proxy. Stale or out-of-range ids return `C2D_STATUS_INVALID_PROXY`.
///
/// # Safety
/// `tree` must be NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_destroy_proxy(tree: *mut Tree, id: u32) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { tree_mut(tree) } {
        Ok(t) => with_tree!(mut t, tr => tr.destroy_proxy(ProxyId::from_index(id)))
            .map_or_else(Status::from, |_| Status::Ok),
        Err(e) => e,
    }
}

/// Moves a proxy to the tight box `*aabb`; writes whether it was reinserted to
/// `*out_reinserted` (may be NULL).
///
/// # Safety
/// Pointers must be NULL or valid; `tree` a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_move_proxy(
    tree: *mut Tree,
    id: u32,
    aabb: *const Aabb,
    out_reinserted: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        update_proxy(
            tree,
            id,
            aabb,
            out_reinserted,
            |t, id, b| with_tree!(mut t, tr => tr.move_proxy(ProxyId::from_index(id), b)),
        )
    }
}

/// `c2d_tree_move_proxy` with the proxy's own fat margin (see
/// `c2d_tree_create_proxy_with_margin`).
///
/// # Safety
/// Pointers must be NULL or valid; `tree` a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_move_proxy_with_margin(
    tree: *mut Tree,
    id: u32,
    aabb: *const Aabb,
    margin: f32,
    out_reinserted: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        update_proxy(
            tree,
            id,
            aabb,
            out_reinserted,
            |t, id, b| with_tree!(mut t, tr => tr.move_proxy_with_margin(ProxyId::from_index(id), b, margin)),
        )
    }
}

/// Shared body of move and enlarge: reads the box, applies `op`, reports its flag through the
/// optional `out_flag`.
///
/// # Safety
/// `tree` NULL or a live handle; `aabb` NULL or readable; `out_flag` NULL or writable.
unsafe fn update_proxy(
    tree: *mut Tree,
    id: u32,
    aabb: *const Aabb,
    out_flag: *mut bool,
    op: impl FnOnce(&mut Tree, u32, Aabb) -> Result<bool, TreeError>,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (t, b) = match unsafe { (tree_mut(tree), read(aabb)) } {
        (Ok(t), Ok(b)) => (t, b),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    match op(t, id, b) {
        Ok(flag) => {
            if !out_flag.is_null() {
                // SAFETY: non-null and writable by the caller's contract.
                unsafe { out_flag.write_unaligned(flag) };
            }
            Status::Ok
        }
        Err(e) => e.into(),
    }
}

/// Shared body of the per-proxy getters: reads one value of a leaf and writes it to `out`.
///
/// # Safety
/// `tree` NULL or a live handle; `out` NULL or writable.
unsafe fn write_leaf<T>(
    tree: *const Tree,
    out: *mut T,
    get: impl FnOnce(&Tree) -> Result<T, TreeError>,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let t = match unsafe { tree_ref(tree) } {
        Ok(t) => t,
        Err(e) => return e,
    };
    match get(t) {
        // SAFETY: `out` is checked by `write`; writable by the caller's contract.
        Ok(v) => unsafe { write(out, v) },
        Err(e) => e.into(),
    }
}

/// Rebuilds the tree if any proxy was enlarged.
///
/// # Safety
/// `tree` must be NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_rebuild(tree: *mut Tree) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { tree_mut(tree) } {
        Ok(t) => {
            with_tree!(mut t, tr => tr.rebuild());
            Status::Ok
        }
        Err(e) => e,
    }
}

/// Checks every invariant of the tree.
///
/// # Safety
/// `tree` must be NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_validate(tree: *const Tree) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { tree_ref(tree) } {
        Ok(t) => with_tree!(t, tr => tr.validate()).map_or_else(Status::from, |_| Status::Ok),
        Err(e) => e,
    }
}

/// Number of proxies (0 for NULL).
///
/// # Safety
/// `tree` must be NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_proxy_count(tree: *const Tree) -> u32 {
    // SAFETY: checked by the helper; validity is the caller's contract.
    unsafe { tree_ref(tree) }.map_or(0, |t| with_tree!(t, tr => tr.proxy_count()))
}

/// Height of the tree (0 for NULL).
///
/// # Safety
/// `tree` must be NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_height(tree: *const Tree) -> u32 {
    // SAFETY: checked by the helper; validity is the caller's contract.
    unsafe { tree_ref(tree) }.map_or(0, |t| with_tree!(t, tr => tr.height()))
}

/// Fat AABB of a proxy; writes `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_fat_aabb(tree: *const Tree, id: u32, out: *mut Aabb) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        write_leaf(
            tree,
            out,
            |t| with_tree!(t, tr => tr.fat_aabb(ProxyId::from_index(id))),
        )
    }
}

/// Grows a proxy's fat box to contain `*aabb` without restructuring; writes whether it grew to
/// `*out_grew` (may be NULL). Follow with `c2d_tree_rebuild`.
///
/// # Safety
/// Pointers must be NULL or valid; `tree` a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_enlarge_proxy(
    tree: *mut Tree,
    id: u32,
    aabb: *const Aabb,
    out_grew: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        update_proxy(
            tree,
            id,
            aabb,
            out_grew,
            |t, id, b| with_tree!(mut t, tr => tr.enlarge_proxy(ProxyId::from_index(id), b)),
        )
    }
}

/// Moves a proxy to the tight box `*aabb` as `c2d_tree_move_proxy` does (same fat box), but
/// without restructuring: its ancestors' boxes only grow, and are marked for
/// `c2d_tree_rebuild_enlarged`, which rebuilds them all at once (Box2D v3's way of moving many
/// proxies per frame). Queries stay exact in between. Writes whether the proxy moved to
/// `*out_moved` (may be NULL).
///
/// # Safety
/// Pointers must be NULL or valid; `tree` a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_move_proxy_lazy(
    tree: *mut Tree,
    id: u32,
    aabb: *const Aabb,
    out_moved: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        update_proxy(
            tree,
            id,
            aabb,
            out_moved,
            |t, id, b| with_tree!(mut t, tr => tr.move_proxy_lazy(ProxyId::from_index(id), b)),
        )
    }
}

/// `c2d_tree_move_proxy_lazy` with the proxy's own fat margin (see
/// `c2d_tree_create_proxy_with_margin`).
///
/// # Safety
/// Pointers must be NULL or valid; `tree` a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_move_proxy_lazy_with_margin(
    tree: *mut Tree,
    id: u32,
    aabb: *const Aabb,
    margin: f32,
    out_moved: *mut bool,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        update_proxy(
            tree,
            id,
            aabb,
            out_moved,
            |t, id, b| with_tree!(mut t, tr => tr.move_proxy_lazy_with_margin(ProxyId::from_index(id), b, margin)),
        )
    }
}

/// Rebuilds the top of the tree that `c2d_tree_move_proxy_lazy` loosened (balanced, tight
/// boxes; leaves keep their ids and data). `scratch` is caller memory for `scratch_count`
/// `uint32_t`, at least `c2d_tree_proxy_count` of them (NULL with 0 when the tree is empty);
/// with fewer, `C2D_STATUS_TREE_FULL` and the tree is left as it was. Allocates nothing.
///
/// # Safety
/// `tree` NULL or a live handle; `scratch` NULL or `scratch_count` writable `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_rebuild_enlarged(
    tree: *mut Tree,
    scratch: *mut u32,
    scratch_count: usize,
) -> Status {
    // SAFETY: checked by the helpers; validity is the caller's contract.
    let (t, scratch) = match unsafe { (tree_mut(tree), slice_mut(scratch, scratch_count)) } {
        (Ok(t), Ok(s)) => (t, s),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    match with_tree!(mut t, tr => tr.rebuild_enlarged(scratch)) {
        Ok(()) => Status::Ok,
        Err(e) => e.into(),
    }
}

/// Sets the fat-AABB margin for boxes inserted or moved from now on (negative/NaN → 0).
///
/// # Safety
/// `tree` must be NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_set_margin(tree: *mut Tree, margin: f32) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { tree_mut(tree) } {
        Ok(t) => {
            with_tree!(mut t, tr => tr.set_margin(margin));
            Status::Ok
        }
        Err(e) => e,
    }
}

/// Tree quality: sum of internal-node perimeters over the root's (0 for NULL or empty).
///
/// # Safety
/// `tree` must be NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_area_ratio(tree: *const Tree) -> f32 {
    // SAFETY: checked by the helper; validity is the caller's contract.
    unsafe { tree_ref(tree) }.map_or(0.0, |t| with_tree!(t, tr => tr.area_ratio()))
}

/// User data of a proxy; writes `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_user_data(tree: *const Tree, id: u32, out: *mut u64) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        write_leaf(
            tree,
            out,
            |t| with_tree!(t, tr => tr.user_data(ProxyId::from_index(id))),
        )
    }
}

/// Category bits of a proxy; writes `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_category_bits(tree: *const Tree, id: u32, out: *mut u64) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        write_leaf(
            tree,
            out,
            |t| with_tree!(t, tr => tr.category_bits(ProxyId::from_index(id))),
        )
    }
}

/// Whether a proxy was created or moved since the last `c2d_tree_query_pairs`; writes `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_was_moved(tree: *const Tree, id: u32, out: *mut bool) -> Status {
    // SAFETY: forwarded contract.
    unsafe {
        write_leaf(
            tree,
            out,
            |t| with_tree!(t, tr => tr.was_moved(ProxyId::from_index(id))),
        )
    }
}

/// Sets the category bits of a proxy (its ancestors' unions are updated).
///
/// # Safety
/// `tree` must be NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_set_category_bits(tree: *mut Tree, id: u32, bits: u64) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    match unsafe { tree_mut(tree) } {
        Ok(t) => with_tree!(mut t, tr => tr.set_category_bits(ProxyId::from_index(id), bits))
            .map_or_else(Status::from, |_| Status::Ok),
        Err(e) => e,
    }
}

/// Box around every proxy: writes whether the tree has any to `*out_has` and, when it does,
/// the box to `*out`.
///
/// # Safety
/// Pointers must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn c2d_tree_root_bounds(
    tree: *const Tree,
    out_has: *mut bool,
    out: *mut Aabb,
) -> Status {
    // SAFETY: checked by the helper; validity is the caller's contract.
    let t = match unsafe { tree_ref(tree) } {
        Ok(t) => t,
        Err(e) => return e,
    };
    if out_has.is_null() || out.is_null() {
        return Status::NullPointer;
    }
    let b = with_tree!(t, tr => tr.root_bounds());
    if let Some(b) = b {
        // SAFETY: `out` checked non-null; writable by the caller's contract.
        unsafe { write(out, b) };
    }
    // SAFETY: `out_has` checked non-null; writable by the caller's contract.
    unsafe { write(out_has, b.is_some()) }
}
