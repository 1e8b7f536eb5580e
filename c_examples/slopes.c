/* A platformer level with slopes from C: a map of slope, ramp and half-height tiles outlined
 * as chains (c2d_slope_outlines, cells 1 wide and 0.5 tall), a heightfield terrain
 * (c2d_heightfield), both added to a world; a crate slides down the 2:1 ramp against the
 * half block. Prints the
 * outline's corners, the terrain's points and where the crate ends; the Rust test suite
 * checks every line against the Rust API. */
#include <stdio.h>
#include "collide2d.h"

static int failed = 0;
static void check(c2d_Status s, const char *what) {
    if (s != C2D_STATUS_OK) {
        printf("%s failed: status %u\n", what, (unsigned)s);
        failed = 1;
    }
}

enum { W = 8, H = 3 };

int main(void) {
    /* Row 0 is the bottom: a 45° slope up, a plateau, a 2:1 ramp down, a half block. */
    static const uint8_t tiles[W * H] = {
        C2D_TILE_FULL, C2D_TILE_FULL, C2D_TILE_FULL, C2D_TILE_FULL,
        C2D_TILE_FULL, C2D_TILE_FULL, C2D_TILE_FULL, C2D_TILE_FULL,
        C2D_TILE_SLOPE_UP, C2D_TILE_FULL, C2D_TILE_FULL, C2D_TILE_FULL,
        C2D_TILE_RAMP_DOWN_HIGH, C2D_TILE_RAMP_DOWN_LOW, C2D_TILE_EMPTY, C2D_TILE_HALF_BOTTOM,
        C2D_TILE_EMPTY, C2D_TILE_SLOPE_UP, C2D_TILE_FULL, C2D_TILE_CEILING_DOWN,
        C2D_TILE_EMPTY, C2D_TILE_EMPTY, C2D_TILE_EMPTY, C2D_TILE_EMPTY,
    };
    c2d_Vec2 cell = {1.0f, 0.5f}, origin = {0.0f, 0.0f};
    uint32_t n_points = 0, n_loops = 0;
    /* Ask for the sizes, then fill. */
    c2d_Status s = c2d_slope_outlines(tiles, W, H, cell, origin, NULL, 0, NULL, 0, &n_points, &n_loops);
    printf("outline needs %u points in %u loops (status %u)\n", n_points, n_loops, (unsigned)s);
    c2d_Vec2 points[64];
    uint32_t loops[8];
    check(c2d_slope_outlines(tiles, W, H, cell, origin, points, 64, loops, 8, &n_points, &n_loops),
          "outline");
    uint32_t k = 0;
    for (uint32_t i = 0; i < n_loops; ++i) {
        printf("loop %u:", i);
        for (uint32_t j = 0; j < loops[i]; ++j, ++k) printf(" (%g, %g)", points[k].x, points[k].y);
        printf("\n");
    }
    uint8_t bad[1] = {12};
    printf("tile 12: status %u\n",
           (unsigned)c2d_slope_outlines(bad, 1, 1, cell, origin, NULL, 0, NULL, 0, &n_points, &n_loops));

    /* A terrain right of the map: samples every 0.5, closed down to y = -1. */
    static const float heights[7] = {1.0f, 1.25f, 1.5f, 1.5f, 1.0f, 0.5f, 0.5f};
    c2d_Vec2 terrain[16];
    uint32_t n_terrain = 0;
    check(c2d_heightfield((c2d_Vec2){9.0f, 0.0f}, 0.5f, heights, 7, C2D_HEIGHTFIELD_KIND_SAMPLES,
                          true, -1.0f, terrain, 16, &n_terrain),
          "heightfield");
    printf("terrain:");
    for (uint32_t i = 0; i < n_terrain; ++i) printf(" (%g, %g)", terrain[i].x, terrain[i].y);
    printf("\n");

    c2d_WorldId w = {0};
    check(c2d_world_create(NULL, &w), "create");
    c2d_Shape box;
    check(c2d_make_box(0.2f, 0.2f, &box), "box");
    c2d_Transform id = {{0.0f, 0.0f}, {1.0f, 0.0f}};
    c2d_ChainDef level;
    check(c2d_chain_def_default(&level), "level def");
    level.closed = 1;
    c2d_ChainId chain;
    k = 0;
    for (uint32_t i = 0; i < n_loops; ++i) {
        level.points = points + k;
        level.count = loops[i];
        check(c2d_world_add_chain(w, &level, &chain), "add outline");
        k += loops[i];
    }
    level.points = terrain;
    level.count = n_terrain;
    check(c2d_world_add_chain(w, &level, &chain), "add terrain");
    /* A frictionless crate resting on the 2:1 ramp (from (4, 1) down to (6, 0.5)), turned to
     * its slope. */
    c2d_Transform at = {{4.55f, 1.08f}, {0.9701425f, -0.24253563f}};
    c2d_BodyDef def;
    check(c2d_body_def(C2D_BODY_KIND_DYNAMIC, &id, &box, &def), "crate def");
    def.transform = at;
    def.material.friction = 0.0f;
    c2d_BodyId crate_id;
    check(c2d_world_add_body(w, &def, &crate_id), "add crate");
    for (int i = 0; i < 120; ++i) check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
    c2d_Body b;
    check(c2d_world_get_body(w, crate_id, &b), "get crate");
    printf("crate at x %.4f y %.4f\n", b.transform.p.x, b.transform.p.y);
    c2d_world_destroy(w);
    return failed;
}
