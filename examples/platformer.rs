//! A guide by example: a side-scrolling platformer's collision, written only with what
//! collide2d provides.
//!
//! - The level is an ASCII tile map. [`tile_outlines_from_cells`] turns its solid cells into a
//!   few closed chains (not one box per tile), and [`World::add_chain`] makes each a static
//!   body: nothing can catch on the seams between tiles.
//! - A one-way platform is an open [`Chain`] listed right to left, so its front side faces up:
//!   the character jumps up through it from below and lands on it from above.
//! - The character is a capsule moved by [`move_and_slide`] over the world
//!   ([`World::mover_level`]): it walks at a commanded speed, jumps when a wall blocks it (the
//!   result's contacts say so), is snapped to the ground when walking down, and cannot tunnel.
//! - Coins are sensor bodies, collected with [`World::overlap_shape`] (sensors included).
//! - A concave rock of 10 vertices is cut into convex pieces by [`decompose()`] and dropped as
//!   one dynamic body with several shapes ([`World::add_shape`]); it comes to rest on the
//!   tile-map chain.
//!
//! Run with `cargo run --example platformer`; `tests/examples.rs` runs it and checks the
//! summary against the map (brute force over the tile boxes, not through the chains).
use collide2d::*;

/// The level, top row first: `#` solid. Cell (x, y) spans [x, x + 1] × [y, y + 1] with y up,
/// so the bottom text row is y = 0 and the ground's top is at y = 2.
pub const MAP: [&str; 12] = [
    "#..........................................#",
    "#..........................................#",
    "#..........................................#",
    "#...........##.............................#",
    "#..........................................#",
    "#..........................................#",
    "#..........................................#",
    "#...............#..........................#",
    "#...............#..........................#",
    "#.......##......#..........................#",
    "############################################",
    "############################################",
];

/// Category bits: what the character collides with, and what it collects.
const LEVEL: u64 = 1;
const COIN: u64 = 2;
const ROCK: u64 = 4;

/// The one-way platform: y and x range.
pub const PLATFORM_Y: f32 = 5.0;
const PLATFORM_X: (f32, f32) = (27.0, 33.0);

/// Gravity (m/s², down), walking speed (m/s) and jump speed (m/s).
const GRAVITY: f32 = 20.0;
const WALK: f32 = 5.0;
const JUMP: f32 = 12.0;
/// Where the character stops walking.
pub const STOP_X: f32 = 37.0;

/// The solid cells of [`MAP`], row-major from y = 0.
pub fn cells() -> (usize, usize, Vec<bool>) {
    let (w, h) = (MAP[0].len(), MAP.len());
    let mut cells = vec![false; w * h];
    for (row, line) in MAP.iter().enumerate() {
        let y = h - 1 - row;
        for (x, c) in line.bytes().enumerate() {
            cells[y * w + x] = c == b'#';
        }
    }
    (w, h, cells)
}

/// What happened, for the test (and the printout).
#[derive(Debug, Default)]
pub struct Summary {
    /// Frames simulated.
    pub frames: u32,
    /// Closed chains the tile map became, and their segments in all.
    pub chains: usize,
    /// Segments of those chains.
    pub segments: usize,
    /// Coins collected, of how many.
    pub coins: u32,
    /// Coins placed.
    pub coins_placed: u32,
    /// Jumps made.
    pub jumps: u32,
    /// Frames the character stood on the one-way platform.
    pub frames_on_platform: u32,
    /// Whether the character's centre was below the platform, within its span, before it
    /// first stood on it (it came up through the platform from below).
    pub below_platform_before: bool,
    /// Deepest overlap of the character with any solid tile after any frame, by brute force
    /// over every tile box with `collide` (not through the chains).
    pub worst_overlap: f32,
    /// The character's final position.
    pub player: Vec2,
    /// Whether it stands on the ground at the end.
    pub on_ground: bool,
    /// Convex pieces of the rock, and the lowest point of the resting rock (world y).
    pub rock_pieces: usize,
    /// The rock's lowest vertex at the end.
    pub rock_bottom: f32,
    /// Whether the rock fell asleep.
    pub rock_asleep: bool,
}

/// The rock: a concave "U" of 10 vertices, counter-clockwise, 2 wide and 1.2 tall.
pub fn rock_outline() -> Vec<Vec2> {
    [
        (-1.0, -0.6),
        (1.0, -0.6),
        (1.0, 0.6),
        (0.6, 0.6),
        (0.5, 0.0),
        (0.0, -0.2),
        (-0.5, 0.0),
        (-0.6, 0.6),
        (-1.0, 0.6),
        (-1.0, 0.0),
    ]
    .iter()
    .map(|&(x, y)| Vec2::new(x, y))
    .collect()
}

/// Deepest overlap of `shape` at `xf` with any solid tile of [`MAP`], by brute force.
pub fn tile_overlap(shape: &Shape, xf: Transform) -> f32 {
    let (w, h, cells) = cells();
    let tile = Shape::rect(0.5, 0.5);
    let mut worst = 0.0f32;
    for y in 0..h {
        for x in 0..w {
            if cells[y * w + x] {
                let at = Transform::from(Vec2::new(x as f32 + 0.5, y as f32 + 0.5));
                if let Some(d) = collide(shape, xf, &tile, at).max_depth() {
                    worst = worst.max(d);
                }
            }
        }
    }
    worst
}

/// Runs the level for `frames` frames at 60 Hz and reports what happened.
pub fn run(frames: u32) -> Summary {
    let mut summary = Summary::default();
    let mut world = World::default();
    world
        .set_settings(SolverSettings {
            gravity: Vec2::new(0.0, -GRAVITY),
            ..*world.settings()
        })
        .unwrap();

    // The tile map as chains: one static body per closed outline.
    let (w, h, cells) = cells();
    let outlines = tile_outlines_from_cells(w, h, &cells, 1.0, Vec2::ZERO).expect("a valid grid");
    summary.chains = outlines.len();
    let level_def = |chain| ChainDef {
        filter: Filter {
            category_bits: LEVEL,
            ..Filter::DEFAULT
        },
        ..ChainDef::new(chain)
    };
    for chain in &outlines {
        summary.segments += chain.segments().count();
        world.add_chain(&level_def(chain)).expect("a valid chain");
    }

    // The one-way platform: listed right to left, so its front (solid-facing) side is up.
    let one_way = Chain::open(&[
        Vec2::new(PLATFORM_X.1, PLATFORM_Y),
        Vec2::new(PLATFORM_X.0, PLATFORM_Y),
    ])
    .expect("two distinct points");
    let platform = world.add_chain(&level_def(&one_way)).expect("a valid chain");
    let platform = world.chain_body(platform).expect("a live chain");

    // Coins along the path: sensors in their own category.
    let mut coins = Vec::new();
    for &(x, y) in &[(5.0, 2.6), (14.5, 2.6), (21.5, 2.6), (32.0, 5.6), (37.0, 2.6)] {
        let def = BodyDef {
            sensor: true,
            filter: Filter {
                category_bits: COIN,
                ..Filter::DEFAULT
            },
            ..BodyDef::new(
                BodyKind::Static,
                Transform::from(Vec2::new(x, y)),
                Shape::circle(0.25),
            )
        };
        coins.push(world.add_body(&def).expect("a valid coin"));
    }
    summary.coins_placed = coins.len() as u32;

    // The rock: concave, so decomposed into convex pieces that make one dynamic body.
    let pieces = decompose(&rock_outline()).expect("a simple polygon");
    summary.rock_pieces = pieces.len();
    let rock_def = BodyDef {
        filter: Filter {
            category_bits: ROCK,
            ..Filter::DEFAULT
        },
        ..BodyDef::new(
            BodyKind::Dynamic,
            Transform::new(Vec2::new(40.5, 7.0), 0.3),
            Shape::Polygon(pieces[0]),
        )
    };
    let rock = world.add_body(&rock_def).expect("a valid rock");
    for piece in &pieces[1..] {
        world
            .add_shape(rock, &Shape::Polygon(*piece))
            .expect("a valid piece");
    }

    // The character: a capsule 1.2 tall, standing a skin above the ground.
    let player = Shape::capsule(Vec2::new(0.0, -0.3), Vec2::new(0.0, 0.3), 0.3);
    let mut xf = Transform::from(Vec2::new(2.0, 2.61));
    let mut velocity = Vec2::ZERO;
    let mut on_ground = true;
    let dt = 1.0 / 60.0;
    let opts = MoveOptions {
        ground_snap: 0.2,
        time_step: dt,
        ..MoveOptions::default()
    };
    let solid = QueryFilter {
        mask: LEVEL,
        ..QueryFilter::default()
    };
    let collectable = QueryFilter {
        mask: COIN,
        sensors: true,
        ..QueryFilter::default()
    };
    let mut blocked = false;
    let mut jumped_at_platform = false;
    for _ in 0..frames {
        world.step(dt, 4).expect("valid settings");

        // Intent: walk right until STOP_X; jump when a wall blocked the last move, and once
        // under the one-way platform (to go up through it).
        velocity.x = if xf.p.x < STOP_X { WALK } else { 0.0 };
        let under_platform = !jumped_at_platform && xf.p.y < PLATFORM_Y && xf.p.x >= PLATFORM_X.0 + 0.2;
        if on_ground && (blocked || under_platform) {
            velocity.y = JUMP;
            summary.jumps += 1;
            jumped_at_platform |= under_platform;
        }
        velocity.y -= GRAVITY * dt;

        let r = move_and_slide(
            &world.mover_level(&solid),
            &player,
            xf,
            velocity * dt,
            velocity,
            &opts,
        );
        xf.p = r.position;
        velocity = r.velocity;
        on_ground = r.on_ground;
        // A surface facing against the walking direction stopped it.
        blocked = r.contacts().iter().any(|c| c.plane.normal.x < -0.7);
        let in_span = xf.p.x > PLATFORM_X.0 && xf.p.x < PLATFORM_X.1;
        if in_span && xf.p.y < PLATFORM_Y && summary.frames_on_platform == 0 {
            summary.below_platform_before = true;
        }
        if on_ground && r.ground.user_data == platform.to_bits() {
            summary.frames_on_platform += 1;
        }

        // Coins the character touches are collected.
        let mut touched = Vec::new();
        world.overlap_shape(&player, xf, &collectable, |id| {
            touched.push(id);
            true
        });
        for id in touched {
            world.remove_body(id).expect("a live coin");
            summary.coins += 1;
        }

        summary.worst_overlap = summary.worst_overlap.max(tile_overlap(&player, xf));
        summary.frames += 1;
    }
    summary.player = xf.p;
    summary.on_ground = on_ground;

    let rock_xf = world.transform(rock).expect("live");
    summary.rock_bottom = rock_outline()
        .iter()
        .map(|&v| rock_xf.apply(v).y)
        .fold(f32::INFINITY, f32::min);
    summary.rock_asleep = !world.is_awake(rock).expect("live");
    summary
}

#[allow(dead_code)]
fn main() {
    let s = run(600);
    println!("collide2d platformer: {} frames", s.frames);
    println!(
        "tile map {}x{} -> {} chains, {} segments",
        MAP[0].len(),
        MAP.len(),
        s.chains,
        s.segments
    );
    println!(
        "character ends at ({:.3}, {:.3}), on ground: {}",
        s.player.x, s.player.y, s.on_ground
    );
    println!(
        "jumps {}, coins {}/{}, frames on the one-way platform {}",
        s.jumps, s.coins, s.coins_placed, s.frames_on_platform
    );
    println!("deepest overlap with a tile: {:.6}", s.worst_overlap);
    println!(
        "rock: {} convex pieces, resting with its lowest point at y = {:.4} (asleep: {})",
        s.rock_pieces, s.rock_bottom, s.rock_asleep
    );
}
