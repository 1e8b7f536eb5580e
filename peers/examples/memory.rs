//! Memory per tree proxy, per shape and per solver object, collide2d next to Box2D v3 and
//! parry2d, as `key value` lines (read by `scripts/bench_report.py` for BENCHMARKS.md).
//! Trees: 10,000 random boxes inserted one by one (as in `benches/tree.rs`); bytes are the
//! node storage each tree holds, divided by the proxy count. Worlds: the bytes a world holds
//! per chain segment (a 100 000-point open chain as level geometry) and per dynamic box (20 000
//! added one by one to a fresh world; and to a world already holding the chain, without and
//! with `World::reserve`), counted by a global allocator for collide2d and by
//! `b2GetByteCount` for Box2D.
use collide2d::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::mem::size_of;
use std::sync::atomic::{AtomicUsize, Ordering};

use collide2d_peers::{b2, b2v, random_boxes, Rng};

const N: usize = 10_000;

/// Counts the bytes held through Rust's allocator.
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

const CHAIN_POINTS: usize = 100_000;
const BOXES: usize = 20_000;

/// The level: an open chain whose points never weld (a sawtooth).
fn level_points() -> Vec<Vec2> {
    (0..CHAIN_POINTS)
        .map(|i| Vec2::new(i as f32 * 0.5 - 25_000.0, if i % 2 == 0 { 0.0 } else { 0.25 }))
        .collect()
}

fn box_at(i: usize) -> Vec2 {
    Vec2::new((i % 200) as f32 * 1.1 - 110.0, 5.0 + (i / 200) as f32 * 1.1)
}

/// Bytes per chain segment and per box in collide2d's world.
fn world_memory() {
    let chain = Chain::open(&level_points()).unwrap();
    let segments = chain.segment_count();
    let level = ChainDef::new(&chain);
    let boxed = |i: usize| {
        BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(box_at(i)),
            Shape::rect(0.5, 0.5),
        )
    };
    let before = held();
    let mut w = World::default();
    w.add_chain(&level).unwrap();
    let per_segment = (held() - before) as f64 / segments as f64;
    println!("world_bytes_per_chain_segment collide2d {per_segment:.0}");
    let before = held();
    for i in 0..BOXES {
        w.add_body(&boxed(i)).unwrap();
    }
    println!(
        "world_bytes_per_box_after_a_level collide2d {:.0}",
        (held() - before) as f64 / BOXES as f64
    );
    drop(w);
    let mut w = World::default();
    w.add_chain(&level).unwrap();
    let before = held();
    w.reserve(BOXES, 0, 0).unwrap();
    for i in 0..BOXES {
        w.add_body(&boxed(i)).unwrap();
    }
    println!(
        "world_bytes_per_box_after_a_level_reserved collide2d {:.0}",
        (held() - before) as f64 / BOXES as f64
    );
    drop(w);
    let before = held();
    let mut w = World::default();
    for i in 0..BOXES {
        w.add_body(&boxed(i)).unwrap();
    }
    println!(
        "world_bytes_per_box collide2d {:.0}",
        (held() - before) as f64 / BOXES as f64
    );
}

/// The same in Box2D (its own byte count: every allocation goes through `b2Alloc`).
fn box2d_world_memory() {
    let points: Vec<b2::b2Vec2> = level_points().into_iter().map(b2v).collect();
    // SAFETY: worlds created, filled, measured and destroyed here; every pointer is to a local.
    unsafe {
        let wd = b2::b2DefaultWorldDef();
        let mat = b2::b2DefaultSurfaceMaterial();
        let mut sd = b2::b2DefaultShapeDef();
        sd.density = 1.0;
        let boxes = |world: b2::b2WorldId| {
            for i in 0..BOXES {
                let mut bd = b2::b2DefaultBodyDef();
                bd.type_ = b2::b2BodyType_b2_dynamicBody;
                bd.position = b2v(box_at(i));
                let b = b2::b2CreateBody(world, &bd);
                b2::b2CreatePolygonShape(b, &sd, &b2::b2MakeBox(0.5, 0.5));
            }
        };
        let world = b2::b2CreateWorld(&wd);
        let before = b2::b2GetByteCount();
        let ground = b2::b2CreateBody(world, &b2::b2DefaultBodyDef());
        let mut cd = b2::b2DefaultChainDef();
        cd.points = points.as_ptr();
        cd.count = points.len() as i32;
        cd.materials = &mat;
        cd.materialCount = 1;
        b2::b2CreateChain(ground, &cd);
        // An open chain of n points has n − 3 segments (its end points are ghosts).
        let per_segment = (b2::b2GetByteCount() - before) as f64 / (CHAIN_POINTS - 3) as f64;
        println!("world_bytes_per_chain_segment box2d {per_segment:.0}");
        let before = b2::b2GetByteCount();
        boxes(world);
        println!(
            "world_bytes_per_box_after_a_level box2d {:.0}",
            (b2::b2GetByteCount() - before) as f64 / BOXES as f64
        );
        b2::b2DestroyWorld(world);
        let world = b2::b2CreateWorld(&wd);
        let before = b2::b2GetByteCount();
        boxes(world);
        println!(
            "world_bytes_per_box box2d {:.0}",
            (b2::b2GetByteCount() - before) as f64 / BOXES as f64
        );
        b2::b2DestroyWorld(world);
    }
}

fn main() {
    world_memory();
    box2d_world_memory();
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
