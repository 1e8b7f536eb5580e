//! The guides in `examples/` run and do what they say.
use collide2d::*;
#[path = "../examples/topdown.rs"]
mod topdown;

/// The top-down arena (`cargo run --example topdown`): every pickup on the path is collected,
/// neither the player nor any enemy ever ends a frame inside a wall (checked by brute force
/// over every wall, not through the tree), hitscan shots reach both enemies and walls, and the
/// fast bolt stops at the wall it would otherwise tunnel through.
#[test]
fn topdown_arena_keeps_its_promises() {
    let s = topdown::run(300);
    assert_eq!(s.frames, 300);
    assert_eq!(s.pickups, 5, "{s:?}");
    assert!(s.worst_player_overlap <= 1e-3, "{s:?}");
    assert!(s.worst_enemy_overlap <= 1e-3, "{s:?}");
    assert_eq!(s.shots_on_enemies + s.shots_on_walls, 30, "{s:?}");
    assert!(s.shots_on_enemies > 0 && s.shots_on_walls > 0, "{s:?}");
    // The bolt (radius 0.1) stops touching the wall face at x = 19.5.
    assert!(
        (s.projectile_stop_x - (s.projectile_wall_x - 0.1)).abs() < 1e-3,
        "{s:?}"
    );
    // The player stays in the room (inner faces at x = ±19.5, y = ±14.5).
    assert!(s.player.x.abs() < 19.5 && s.player.y.abs() < 14.5, "{s:?}");
}

// The platformer is a `World` game: it needs the `solver` feature (its `[[example]]` entry says
// so too), the other guides run with the default features.
#[cfg(feature = "solver")]
#[path = "../examples/platformer.rs"]
mod platformer;

/// The platformer (`cargo run --example platformer`): the tile map becomes two closed chains
/// (the walls and ground as one region, the floating brick as another; counted by hand from
/// the map), the character walks the whole level (jumping the step and the wall when blocked,
/// up through the one-way platform from below and onto it), collects every coin, and never
/// ends a frame inside a tile (brute force over every tile box, not through the chains); the
/// concave rock is cut into convex pieces and comes to rest on the ground at y = 2.
#[cfg(feature = "solver")]
#[test]
fn platformer_level_keeps_its_promises() {
    let s = platformer::run(600);
    assert_eq!(s.frames, 600);
    assert_eq!(s.chains, 2, "{s:?}");
    // Outline segments counted by hand from the map: the main region's loop has 16 corners
    // (walls, ground, step, wall) and the brick 4.
    assert_eq!(s.segments, 20, "{s:?}");
    assert_eq!(s.coins, s.coins_placed, "{s:?}");
    assert_eq!(s.jumps, 3, "{s:?}");
    assert!(s.below_platform_before && s.frames_on_platform >= 10, "{s:?}");
    assert!(s.worst_overlap <= 0.0, "{s:?}");
    assert!(s.on_ground, "{s:?}");
    // Stopped at STOP_X (within one frame's walk), standing a skin above the ground.
    assert!(
        (s.player.x - platformer::STOP_X).abs() < 5.0 / 60.0 + 1e-3,
        "{s:?}"
    );
    assert!((s.player.y - 2.61).abs() < 1e-3, "{s:?}");
    assert!(s.rock_pieces >= 2 && s.rock_pieces <= 4, "{s:?}");
    // Resting on the ground chain, within the solver's linear slop (0.005).
    assert!((s.rock_bottom - 2.0).abs() < 0.005, "{s:?}");
    assert!(s.rock_asleep, "{s:?}");
}

#[path = "../examples/demo.rs"]
mod demo;

/// The demo (`cargo run --example demo`) draws every scenario it prints through the crate's
/// SVG backend; the pictures in `docs/` that docs/guide.md shows are its output, byte for byte,
/// and each picture holds its manifold's points where the manifold puts them.
#[test]
fn demo_pictures_are_the_ones_in_docs() {
    let pictures = demo::tour().unwrap();
    assert_eq!(pictures.len(), 11);
    for (name, svg) in &pictures {
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"), "{name}");
        let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs")
            .join(format!("demo-{name}"));
        if committed.exists() {
            assert_eq!(
                &std::fs::read_to_string(&committed).unwrap(),
                svg,
                "{name}: regenerate docs/ from the demo"
            );
        }
    }
    // The rounded rock against the ball: its one contact point is drawn where collide puts it.
    let rock = Shape::Polygon(
        Polygon::new_rounded(
            &[
                Vec2::new(-0.6, -0.4),
                Vec2::new(0.7, -0.5),
                Vec2::new(0.4, 0.6),
                Vec2::new(-0.5, 0.5),
            ],
            0.05,
        )
        .unwrap(),
    );
    let ball = Shape::circle(0.5);
    let (xr, xb) = (
        Transform::new(Vec2::new(0.0, 3.0), 0.3),
        Transform::new(Vec2::new(0.9, 3.4), 0.0),
    );
    let m = collide(&rock, xr, &ball, xb);
    assert_eq!(m.count, 1);
    // The picture's view: the two shapes' boxes with room for its 4 caption lines (title,
    // normal, one point, and nothing else).
    let view = demo::view_of(&[rock.aabb(xr), ball.aabb(xb)], 3);
    let svg = collide2d::draw::svg::Svg::begin(String::new(), view, demo::WIDTH);
    let p = svg.to_screen(m.points[0].point);
    let (_, picture) = pictures
        .iter()
        .find(|(n, _)| n == "rounded-rock-vs-ball.svg")
        .unwrap();
    let dot = format!(
        "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"2.50\" fill=\"#e63333\"/>",
        p.x, p.y
    );
    assert!(picture.contains(&dot), "{dot}");
    assert!(std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/demo-rounded-rock-vs-ball.svg")
        .exists());
}
