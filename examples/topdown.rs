//! A guide by example: a top-down arena game's collision, written only with what collide2d
//! provides — no hand-written closest-hit, cast or shape-query helper.
//!
//! - The level (48 walls and pillars) and the pickups live in one [`DynamicTree`], told apart
//!   by category bits; each proxy's user data indexes the game's own array.
//! - The player (a circle) moves and slides with [`move_and_slide`] in top-down mode over the
//!   tree as a [`TreeLevel`] (walls only, by category mask): it stops a skin short of every
//!   wall, slides along it and cannot pass through one.
//! - Pickups are sensors: [`DynamicTree::overlapping`] with the pickup mask.
//! - Twenty enemies chase the player with the same mover; their proxies follow them with
//!   [`DynamicTree::move_proxy`].
//! - Hitscan shots are [`DynamicTree::ray_cast_closest`] against walls and enemies at once.
//! - A fast projectile (60 units per frame, thinner than any wall) is a shape cast, so it can
//!   never pass through a wall.
//!
//! Run with `cargo run --example topdown`; `tests/examples.rs` runs it and checks the summary.
use collide2d::*;

const WALL: u64 = 1;
const PICKUP: u64 = 2;
const ENEMY: u64 = 4;

/// What a thing in the tree is: the game's own records, indexed by the proxies' user data.
#[derive(Clone, Copy)]
enum Kind {
    Wall,
    Pickup,
    Enemy,
}

struct Thing {
    shape: Shape,
    xf: Transform,
    kind: Kind,
    alive: bool,
    proxy: ProxyId,
}

/// What happened, for the test (and the printout).
#[derive(Debug, Default)]
pub struct Summary {
    /// Frames simulated.
    pub frames: u32,
    /// Pickups collected by the player.
    pub pickups: u32,
    /// Hitscan shots that hit an enemy, and that hit a wall first.
    pub shots_on_enemies: u32,
    /// Shots stopped by a wall.
    pub shots_on_walls: u32,
    /// Deepest overlap of the player with a wall after any frame, checked by brute force over
    /// every wall with `collide` (not through the tree).
    pub worst_player_overlap: f32,
    /// Deepest overlap of any enemy with a wall after any frame (same check).
    pub worst_enemy_overlap: f32,
    /// Where the fast projectile stopped (x), and the x of the wall face it hit.
    pub projectile_stop_x: f32,
    /// The face of the wall in its way.
    pub projectile_wall_x: f32,
    /// The player's final position.
    pub player: Vec2,
}

/// Moves `shape` from `xf` by `delta` through the things in `tree` whose category is in
/// `mask`, sliding along what it hits: the crate's [`move_and_slide`] in top-down mode (no up
/// direction: every surface is a wall to slide along) over the tree as a [`TreeLevel`].
fn slide(
    tree: &DynamicTree<Vec<TreeNode>>,
    things: &[Thing],
    shape: &Shape,
    xf: Transform,
    delta: Vec2,
    mask: u64,
) -> Transform {
    let level = TreeLevel::new(tree, mask, |_, user| {
        let t = &things[user as usize];
        t.alive.then(|| Obstacle::fixed(&t.shape, t.xf, user))
    });
    let opts = MoveOptions {
        up: Vec2::ZERO,
        ..MoveOptions::default()
    };
    let r = move_and_slide(&level, shape, xf, delta, Vec2::ZERO, &opts);
    Transform {
        p: r.position,
        q: xf.q,
    }
}

/// Deepest overlap of `shape` at `xf` with any wall, by brute force over every wall.
fn wall_overlap(things: &[Thing], shape: &Shape, xf: Transform) -> f32 {
    things
        .iter()
        .filter(|t| matches!(t.kind, Kind::Wall))
        .filter_map(|t| collide(shape, xf, &t.shape, t.xf).max_depth())
        .fold(0.0, f32::max)
}

/// Runs the game for `frames` frames and reports what happened.
pub fn run(frames: u32) -> Summary {
    let mut tree = DynamicTree::new();
    let mut things: Vec<Thing> = Vec::new();
    let mut add =
        |tree: &mut DynamicTree<Vec<TreeNode>>, shape: Shape, xf: Transform, kind: Kind, bits: u64| {
            let user = things.len() as u64;
            let proxy = tree.create_proxy(shape.aabb(xf), bits, user).unwrap();
            things.push(Thing {
                shape,
                xf,
                kind,
                alive: true,
                proxy,
            });
            user as usize
        };
    // The arena: a 40 × 30 room of 32 wall segments (boxes) and 16 pillars (rotated boxes).
    for i in 0..8 {
        let x = -17.5 + 5.0 * i as f32;
        add(
            &mut tree,
            Shape::rect(2.5, 0.5),
            Transform::from(Vec2::new(x, -15.0)),
            Kind::Wall,
            WALL,
        );
        add(
            &mut tree,
            Shape::rect(2.5, 0.5),
            Transform::from(Vec2::new(x, 15.0)),
            Kind::Wall,
            WALL,
        );
    }
    for i in 0..8 {
        let y = -13.125 + 3.75 * i as f32;
        add(
            &mut tree,
            Shape::rect(0.5, 1.875),
            Transform::from(Vec2::new(-20.0, y)),
            Kind::Wall,
            WALL,
        );
        add(
            &mut tree,
            Shape::rect(0.5, 1.875),
            Transform::from(Vec2::new(20.0, y)),
            Kind::Wall,
            WALL,
        );
    }
    for i in 0..16 {
        let (x, y) = (-12.0 + 8.0 * (i % 4) as f32, -9.0 + 6.0 * (i / 4) as f32);
        add(
            &mut tree,
            Shape::rect(1.0, 1.0),
            Transform::new(Vec2::new(x, y), 0.4 * i as f32),
            Kind::Wall,
            WALL,
        );
    }
    // Pickups along the player's path (up the slope, then along the north wall).
    for i in 0..5 {
        let x = -16.0 + 6.0 * i as f32;
        let y = (12.0 + 0.15 * (x + 18.0)).min(14.0);
        add(
            &mut tree,
            Shape::circle(0.5),
            Transform::from(Vec2::new(x, y)),
            Kind::Pickup,
            PICKUP,
        );
    }
    // Enemies scattered over the room.
    let mut enemies = Vec::new();
    for i in 0..20 {
        let p = Vec2::new(-16.0 + 1.7 * i as f32, -12.0 + ((i * 7) % 5) as f32);
        let slot = add(
            &mut tree,
            Shape::circle(0.4),
            Transform::from(p),
            Kind::Enemy,
            ENEMY,
        );
        enemies.push(slot);
    }
    let player_shape = Shape::circle(0.45);
    let mut player = Transform::from(Vec2::new(-18.0, 12.0));
    let mut summary = Summary::default();
    let dt = 1.0 / 60.0;
    for frame in 0..frames {
        // The player walks right along the top, then down through the pillars, sliding.
        let dir = if frame < 150 {
            Vec2::new(1.0, 0.15)
        } else {
            Vec2::new(0.3, -1.0)
        };
        player = slide(&tree, &things, &player_shape, player, dir * (12.0 * dt), WALL);
        summary.worst_player_overlap =
            summary
                .worst_player_overlap
                .max(wall_overlap(&things, &player_shape, player));
        // Pickups touched this frame are collected.
        let taken: Vec<(ProxyId, u64)> = tree
            .overlapping(&player_shape, player, PICKUP, |_, u| {
                let t = &things[u as usize];
                t.alive.then_some((&t.shape, t.xf))
            })
            .collect();
        for (id, u) in taken {
            things[u as usize].alive = false;
            tree.destroy_proxy(id).unwrap();
            summary.pickups += 1;
        }
        // Enemies chase the player through the same mover (walls only).
        for &slot in &enemies {
            let xf = things[slot].xf;
            let to_player = (player.p - xf.p).normalize_or_zero();
            let moved = slide(
                &tree,
                &things,
                &things[slot].shape,
                xf,
                to_player * (4.0 * dt),
                WALL,
            );
            things[slot].xf = moved;
            tree.move_proxy(things[slot].proxy, things[slot].shape.aabb(moved))
                .unwrap();
            summary.worst_enemy_overlap =
                summary
                    .worst_enemy_overlap
                    .max(wall_overlap(&things, &things[slot].shape, moved));
        }
        // Every 10th frame the player fires a hitscan shot at the nearest enemy's position.
        if frame % 10 == 0 {
            let target = things[enemies[(frame / 10) as usize % enemies.len()]].xf.p;
            let ray = Ray::new(player.p, (target - player.p) * 2.0);
            let hit = tree.ray_cast_closest(&ray, WALL | ENEMY, |_, u| {
                let t = &things[u as usize];
                t.alive.then_some((&t.shape, t.xf))
            });
            match hit.map(|h| things[h.user_data as usize].kind) {
                Some(Kind::Enemy) => summary.shots_on_enemies += 1,
                Some(Kind::Wall) => summary.shots_on_walls += 1,
                _ => {}
            }
        }
        summary.frames += 1;
    }
    // The fast projectile: a 0.1-radius bolt fired right at 60 units per frame from x = -19
    // across the room towards the east wall (0.5 thick at x = 20): one frame's motion is 120
    // times the wall's thickness, but a cast cannot pass through it.
    let bolt = Shape::circle(0.1);
    let mut at = Transform::from(Vec2::new(-19.0, 13.5));
    for _ in 0..10 {
        let step = Vec2::new(60.0, 0.0);
        match tree.cast_closest(&CastShape::new(&bolt, at, step), 0.0, WALL, |_, u| {
            let t = &things[u as usize];
            Some((&t.shape, t.xf))
        }) {
            Some(hit) => {
                at.p += step * hit.output.fraction;
                break;
            }
            None => at.p += step,
        }
    }
    summary.projectile_stop_x = at.p.x;
    summary.projectile_wall_x = 19.5;
    summary.player = player.p;
    summary
}

#[allow(dead_code)]
fn main() {
    let s = run(300);
    println!("collide2d top-down arena: {} frames", s.frames);
    println!("player ends at ({:.2}, {:.2})", s.player.x, s.player.y);
    println!("pickups collected: {}", s.pickups);
    println!(
        "hitscan shots: {} on enemies, {} stopped by walls",
        s.shots_on_enemies, s.shots_on_walls
    );
    println!(
        "deepest overlap with a wall: player {:.4}, enemies {:.4}",
        s.worst_player_overlap, s.worst_enemy_overlap
    );
    println!(
        "fast bolt stopped at x = {:.3} (wall face at x = {:.1})",
        s.projectile_stop_x, s.projectile_wall_x
    );
}
