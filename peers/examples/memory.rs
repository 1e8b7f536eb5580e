//! Memory per tree proxy, per shape and per solver object, collide2d next to Box2D v3 and
//! parry2d, as `key value` lines (read by `scripts/bench_report.py` for BENCHMARKS.md).
//! Trees: 10,000 random boxes inserted one by one (as in `benches/tree.rs`); bytes are the
//! node storage each tree holds, divided by the proxy count. Worlds: the bytes a world holds
//! per chain segment (a 100 000-point open chain as level geometry) and per dynamic box (20 000
//! added one by one to a fresh world; and to a world already holding the chain, without and
//! with `World::reserve`), counted by a global allocator for collide2d and by
//! `b2GetByteCount` for Box2D.
use collide2d::*;
use std::mem::size_of;

use collide2d_peers::memory::{box2d_world_bytes, collide2d_world_bytes, held, Counting, WorldBytes};
use collide2d_peers::{b2, b2v, box2d_worlds_guard, random_boxes, Rng};

const N: usize = 10_000;

#[global_allocator]
static COUNTING: Counting = Counting;

/// Prints one engine's world figures as `key engine value` lines.
fn print_world(engine: &str, bytes: WorldBytes) {
    println!("world_bytes_per_chain_segment {engine} {:.0}", bytes.per_segment);
    println!(
        "world_bytes_per_box_after_a_level {engine} {:.0}",
        bytes.per_box_after_a_level
    );
    if let Some(reserved) = bytes.per_box_after_a_level_reserved {
        println!("world_bytes_per_box_after_a_level_reserved {engine} {reserved:.0}");
    }
    println!("world_bytes_per_box {engine} {:.0}", bytes.per_box);
}

fn main() {
    print_world("collide2d", collide2d_world_bytes(held));
    let guard = box2d_worlds_guard();
    print_world("box2d", box2d_world_bytes());
    drop(guard);
    let mut rng = Rng(2025);
    let boxes = random_boxes(&mut rng, N);

    let mut ours = DynamicTree::new();
    for (i, b) in boxes.iter().enumerate() {
        ours.create_proxy(*b, 1, i as u64).unwrap();
    }
    let ours_bytes = ours.capacity() * size_of::<TreeNode>();
    println!("tree_node_bytes collide2d {}", size_of::<TreeNode>());
    println!(
        "tree_bytes_per_proxy collide2d {:.1}",
        ours_bytes as f64 / N as f64
    );

    // SAFETY: the Box2D tree is created, filled, measured and destroyed here.
    unsafe {
        let mut t = b2::b2DynamicTree_Create(16);
        for (i, b) in boxes.iter().enumerate() {
            let fat = b.inflated(DEFAULT_AABB_MARGIN);
            let bb = b2::b2AABB {
                lowerBound: b2v(fat.min),
                upperBound: b2v(fat.max),
            };
            b2::b2DynamicTree_CreateProxy(&mut t, bb, 1, i as u64);
        }
        let bytes = t.nodeCapacity as usize * size_of::<b2::b2TreeNode>();
        println!("tree_node_bytes box2d {}", size_of::<b2::b2TreeNode>());
        println!("tree_bytes_per_proxy box2d {:.1}", bytes as f64 / N as f64);
        b2::b2DynamicTree_Destroy(&mut t);
    }

    let mut bvh = parry2d::partitioning::Bvh::new();
    for (i, b) in boxes.iter().enumerate() {
        let fat = b.inflated(DEFAULT_AABB_MARGIN);
        let pb = parry2d::bounding_volume::Aabb::new(
            parry2d::math::Vector::new(fat.min.x, fat.min.y),
            parry2d::math::Vector::new(fat.max.x, fat.max.y),
        );
        bvh.insert(pb, i as u32);
    }
    println!(
        "tree_node_bytes parry2d {}",
        size_of::<parry2d::partitioning::BvhNode>()
    );
    println!(
        "tree_bytes_per_proxy parry2d {:.1}",
        bvh.total_memory_size() as f64 / N as f64
    );

    println!("shape_bytes_circle collide2d {}", size_of::<Circle>());
    println!("shape_bytes_capsule collide2d {}", size_of::<Capsule>());
    println!("shape_bytes_polygon collide2d {}", size_of::<Polygon>());
    println!("shape_bytes_any collide2d {}", size_of::<Shape>());
    println!("shape_bytes_circle box2d {}", size_of::<b2::b2Circle>());
    println!("shape_bytes_capsule box2d {}", size_of::<b2::b2Capsule>());
    println!("shape_bytes_polygon box2d {}", size_of::<b2::b2Polygon>());
    println!("shape_bytes_circle parry2d {}", size_of::<parry2d::shape::Ball>());
    println!(
        "shape_bytes_capsule parry2d {}",
        size_of::<parry2d::shape::Capsule>()
    );
    // A ConvexPolygon holds two Vecs (points, normals): inline size plus the heap for an 8-gon.
    let v = size_of::<parry2d::math::Vector>();
    println!(
        "shape_bytes_polygon parry2d {}",
        size_of::<parry2d::shape::ConvexPolygon>() + 2 * 8 * v
    );
    println!("solver_body_bytes collide2d {}", size_of::<solver::Body>());
    println!(
        "solver_contact_bytes collide2d {}",
        size_of::<ContactConstraint>()
    );
    // Scratch for 4 packed contacts (`step_with_scratch`, `c2d_solver_scratch_bytes`).
    println!(
        "solver_scratch_block_bytes collide2d {}",
        size_of::<solver::ContactBlock>()
    );
}
