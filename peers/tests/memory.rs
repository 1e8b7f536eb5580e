//! The bytes a World holds per chain segment and per box, bounded against Box2D 3.2-dev's for
//! the same level and boxes, measured in the same run (`collide2d_peers::memory`; the figures
//! are in BENCHMARKS.md, "Memory"). Bounds: a chain segment at most 1.5 × Box2D's (it is a
//! shape with its own proxy, boxes and body record here); a box at most Box2D's, in an empty
//! world and after a level with `World::reserve`; after a level without the hint at most 5 ×
//! Box2D's (the first box doubles every per-shape array of the level, see `World::reserve`).
use collide2d_peers::box2d_worlds_guard;
use collide2d_peers::memory::{box2d_world_bytes, collide2d_world_bytes, held, Counting};

#[global_allocator]
static COUNTING: Counting = Counting;

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
