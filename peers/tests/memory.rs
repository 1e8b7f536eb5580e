//! The bytes a World holds per chain segment and per box, bounded against Box2D 3.2-dev's for
//! the same level and boxes, measured in the same run (`collide2d_peers::memory`; the figures
//! are in BENCHMARKS.md, "Memory"). Bounds: a chain segment at most 1.5 × Box2D's (it is a
//! shape with its own proxy, boxes and body record here); a box at most Box2D's, in an empty
//! world and after a level with `World::reserve`; after a level without the hint at most 5 ×
//! Box2D's (the first box doubles every per-shape array of the level, see `World::reserve`).
use collide2d_peers::box2d_worlds_guard;
use collide2d_peers::memory::{box2d_world_bytes, collide2d_world_bytes};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts the bytes held through Rust's allocator (the only test in this binary, so nothing
/// else allocates while it measures).
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator, only counting sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        HELD.fetch_add(l.size(), Ordering::Relaxed);
        // SAFETY: the caller's layout, passed through.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        HELD.fetch_sub(l.size(), Ordering::Relaxed);
        // SAFETY: `p` came from `alloc` with this layout.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        HELD.fetch_add(n, Ordering::Relaxed);
        HELD.fetch_sub(l.size(), Ordering::Relaxed);
        // SAFETY: as `alloc` and `dealloc`.
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn held() -> usize {
    HELD.load(Ordering::Relaxed)
}

#[test]
fn world_bytes_are_of_box2d_order() {
    let ours = collide2d_world_bytes(held);
    let guard = box2d_worlds_guard();
    let theirs = box2d_world_bytes();
    drop(guard);
    println!("collide2d {ours:?}\nBox2D 3.2-dev {theirs:?}");
    assert!(ours.per_segment <= 1.5 * theirs.per_segment);
    assert!(ours.per_box <= theirs.per_box);
    assert!(ours.per_box_after_a_level_reserved.unwrap() <= theirs.per_box);
    assert!(ours.per_box_after_a_level <= 5.0 * theirs.per_box_after_a_level);
}
