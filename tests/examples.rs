//! The guides in `examples/` run and do what they say.
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
