//! The bytes a World holds per chain segment and per dynamic box, collide2d next to Box2D
//! 3.2-dev (`peers/examples/memory.rs` prints them for BENCHMARKS.md, `peers/tests/memory.rs`
//! bounds them). Level: a 100 000-point open chain; boxes: 20 000 added one by one to a fresh
//! world, and to a world already holding the chain, without and with `World::reserve`.
//! collide2d's bytes come from the caller's counting global allocator (`held`), Box2D's from
//! `b2GetByteCount` (every Box2D allocation goes through `b2Alloc`).
use crate::{b2, b2v};
use collide2d::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A global allocator that forwards to the system's and counts the bytes held: a binary that
/// measures declares `#[global_allocator] static A: Counting = Counting;` and reads [`held`].
pub struct Counting;

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

/// The bytes held through [`Counting`] (0 unless the binary made it its global allocator).
pub fn held() -> usize {
    HELD.load(Ordering::Relaxed)
}

/// Bytes held per item (spare capacity of the growable arrays included).
#[derive(Clone, Copy, Debug)]
pub struct WorldBytes {
    /// Per chain segment of the level.
    pub per_segment: f64,
    /// Per box added after the level, with no capacity hint.
    pub per_box_after_a_level: f64,
    /// Per box added after the level, with `World::reserve` first (collide2d only).
    pub per_box_after_a_level_reserved: Option<f64>,
    /// Per box added to an empty world.
    pub per_box: f64,
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

/// Bytes per chain segment and per box in collide2d's world; `held` reads the bytes the
/// process holds through Rust's allocator.
pub fn collide2d_world_bytes(held: fn() -> usize) -> WorldBytes {
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
    let before = held();
    for i in 0..BOXES {
        w.add_body(&boxed(i)).unwrap();
    }
    let per_box_after_a_level = (held() - before) as f64 / BOXES as f64;
    drop(w);
    let mut w = World::default();
    w.add_chain(&level).unwrap();
    let before = held();
    w.reserve(BOXES, 0, 0).unwrap();
    for i in 0..BOXES {
        w.add_body(&boxed(i)).unwrap();
    }
    let reserved = (held() - before) as f64 / BOXES as f64;
    drop(w);
    let before = held();
    let mut w = World::default();
    for i in 0..BOXES {
        w.add_body(&boxed(i)).unwrap();
    }
    let per_box = (held() - before) as f64 / BOXES as f64;
    WorldBytes {
        per_segment,
        per_box_after_a_level,
        per_box_after_a_level_reserved: Some(reserved),
        per_box,
    }
}

/// The same in Box2D (its own byte count: every allocation goes through `b2Alloc`). The
/// caller holds `box2d_worlds_guard()`.
pub fn box2d_world_bytes() -> WorldBytes {
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
        let before = b2::b2GetByteCount();
        boxes(world);
        let per_box_after_a_level = (b2::b2GetByteCount() - before) as f64 / BOXES as f64;
        b2::b2DestroyWorld(world);
        let world = b2::b2CreateWorld(&wd);
        let before = b2::b2GetByteCount();
        boxes(world);
        let per_box = (b2::b2GetByteCount() - before) as f64 / BOXES as f64;
        b2::b2DestroyWorld(world);
        WorldBytes {
            per_segment,
            per_box_after_a_level,
            per_box_after_a_level_reserved: None,
            per_box,
        }
    }
}
