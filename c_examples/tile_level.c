/* A tile level from C: a grid of solid cells outlined as chains (c2d_tile_outlines), added to
 * a world as level geometry (c2d_chain_def_default, c2d_world_add_chain), a concave ledge, a concave crate and a
 * window frame drawn as one loop with a bridge to its hole decomposed into convex pieces
 * (c2d_decompose) and built as one body each (c2d_world_add_shape), a few bodies dropped on
 * it; prints their resting heights and the closest point of one of them to a point
 * (c2d_closest_point), and solves a mover's planes (c2d_solve_planes, c2d_clip_vector). The
 * Rust test suite checks every line against the Rust API on the same level. */
#include <stdio.h>
#include "collide2d.h"

static void check(c2d_Status s, const char *what) {
    if (s != C2D_STATUS_OK) printf("%s failed: status %u\n", what, (unsigned)s);
}

enum { W = 16, H = 6 };

int main(void) {
    /* Row 0 is the bottom. '#' solid, '.' empty: a floor, a step up, a pit, a block with a
     * hole in it (an inner loop). */
    static const char *rows[H] = {
        "################",
        "######...#######",
        "##.......###.###",
        "#........#.#.###",
        "#........###...#",
        "#..............#",
    };
    uint8_t cells[W * H];
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) cells[y * W + x] = rows[y][x] == '#';

    c2d_Vec2 points[512];
    uint32_t loop_counts[64];
    uint32_t n_points = 0, n_loops = 0;
    /* Ask for the sizes first, then fill. */
    c2d_Status s = c2d_tile_outlines(cells, W, H, 1.0f, (c2d_Vec2){0.0f, 0.0f}, NULL, 0, NULL, 0,
                                     &n_points, &n_loops);
    printf("outline needs %u points in %u loops (status %u)\n", n_points, n_loops, (unsigned)s);
    check(c2d_tile_outlines(cells, W, H, 1.0f, (c2d_Vec2){0.0f, 0.0f}, points, 512, loop_counts, 64,
                            &n_points, &n_loops),
          "outline");

    c2d_WorldId w = {0};
    check(c2d_world_create(NULL, &w), "create");
    /* Room up front (capacity hints): the level's segments, the ledge, and the moving bodies
     * with their pieces, so that adding them grows no array. */
    check(c2d_world_reserve(w, 16, n_points + 1, 64), "reserve");
    c2d_Transform id = {{0.0f, 0.0f}, {1.0f, 0.0f}};
    c2d_ChainDef level;
    check(c2d_chain_def_default(&level), "level def");
    level.closed = 1;
    uint32_t first = 0, segments = 0;
    for (uint32_t i = 0; i < n_loops; ++i) {
        c2d_ChainId chain;
        level.points = points + first;
        level.count = loop_counts[i];
        check(c2d_world_add_chain(w, &level, &chain), "add chain");
        segments += loop_counts[i]; /* a closed loop has as many segments as points */
        first += loop_counts[i];
    }
    uint32_t bodies_now = 0;
    check(c2d_world_body_count(w, &bodies_now), "body count");
    printf("level: %u loops, %u segments, %u bodies\n", n_loops, segments, bodies_now);

    /* A concave ledge (an L) floating in the open space, as convex pieces. */
    c2d_Vec2 ledge[6] = {{2.0f, 3.0f}, {5.0f, 3.0f}, {5.0f, 3.25f},
                         {2.5f, 3.25f}, {2.5f, 3.75f}, {2.0f, 3.75f}};
    c2d_Polygon pieces[8];
    uint32_t n_pieces = 0;
    check(c2d_decompose(ledge, 6, pieces, 8, &n_pieces), "decompose");
    printf("ledge: %u pieces\n", n_pieces);
    /* One static body whose shapes are the pieces. */
    c2d_BodyId ledge_id;
    for (uint32_t i = 0; i < n_pieces; ++i) {
        c2d_Shape piece = {C2D_SHAPE_POLYGON, {.polygon = pieces[i]}};
        if (i == 0) {
            c2d_BodyDef def;
            check(c2d_body_def(C2D_BODY_KIND_STATIC, &id, &piece, &def), "piece def");
            check(c2d_world_add_body(w, &def, &ledge_id), "add ledge");
        } else {
            check(c2d_world_add_shape(w, ledge_id, &piece, NULL), "add piece");
        }
    }

    /* A concave crate (a U, 8 vertices) as one dynamic body of convex pieces. */
    c2d_Vec2 u[8] = {{-0.5f, 0.0f}, {0.5f, 0.0f}, {0.5f, 0.6f}, {0.3f, 0.6f},
                     {0.3f, 0.2f},  {-0.3f, 0.2f}, {-0.3f, 0.6f}, {-0.5f, 0.6f}};
    c2d_Polygon u_pieces[8];
    uint32_t n_u = 0;
    check(c2d_decompose(u, 8, u_pieces, 8, &n_u), "decompose U");
    c2d_BodyId crate_id;
    for (uint32_t i = 0; i < n_u; ++i) {
        c2d_Shape piece = {C2D_SHAPE_POLYGON, {.polygon = u_pieces[i]}};
        if (i == 0) {
            c2d_Transform at = {{8.0f, 3.0f}, {1.0f, 0.0f}};
            c2d_BodyDef def;
            check(c2d_body_def(C2D_BODY_KIND_DYNAMIC, &at, &piece, &def), "crate def");
            check(c2d_world_add_body(w, &def, &crate_id), "add crate");
        } else {
            check(c2d_world_add_shape(w, crate_id, &piece, NULL), "add crate piece");
        }
    }
    printf("crate: %u pieces\n", n_u);

    /* A window frame drawn as one loop: the outline, a zero-width bridge in from its corner, the
     * hole clockwise and back (a keyhole: weakly simple, so decomposed like any polygon). Set
     * beside the level, where nothing reaches it. */
    c2d_Vec2 frame[10] = {{20.0f, 0.0f}, {24.0f, 0.0f}, {24.0f, 4.0f}, {20.0f, 4.0f}, {20.0f, 0.0f},
                          {21.0f, 1.0f}, {21.0f, 3.0f}, {23.0f, 3.0f}, {23.0f, 1.0f}, {21.0f, 1.0f}};
    c2d_Polygon frame_pieces[8];
    uint32_t n_frame = 0;
    check(c2d_decompose(frame, 10, frame_pieces, 8, &n_frame), "decompose frame");
    c2d_BodyId frame_id;
    for (uint32_t i = 0; i < n_frame; ++i) {
        c2d_Shape piece = {C2D_SHAPE_POLYGON, {.polygon = frame_pieces[i]}};
        if (i == 0) {
            c2d_BodyDef def;
            check(c2d_body_def(C2D_BODY_KIND_STATIC, &id, &piece, &def), "frame def");
            check(c2d_world_add_body(w, &def, &frame_id), "add frame");
        } else {
            check(c2d_world_add_shape(w, frame_id, &piece, NULL), "add frame piece");
        }
    }
    printf("frame: %u pieces\n", n_frame);

    /* Bodies dropped into the pit, onto the left shelf, onto the step and onto the ledge. */
    c2d_Shape box, ball, capsule;
    check(c2d_make_box(0.25f, 0.25f, &box), "box");
    check(c2d_make_circle((c2d_Vec2){0.0f, 0.0f}, 0.25f, &ball), "ball");
    check(c2d_make_capsule((c2d_Vec2){-0.3f, 0.0f}, (c2d_Vec2){0.3f, 0.0f}, 0.15f, &capsule), "capsule");
    const c2d_Shape *shapes[4] = {&box, &ball, &capsule, &box};
    const float xs[4] = {6.5f, 1.5f, 13.5f, 3.5f};
    c2d_BodyId bodies[4];
    for (int i = 0; i < 4; ++i) {
        c2d_Transform xf = {{xs[i], 5.0f}, {1.0f, 0.0f}};
        c2d_BodyDef def;
        check(c2d_body_def(C2D_BODY_KIND_DYNAMIC, &xf, shapes[i], &def), "body def");
        check(c2d_world_add_body(w, &def, &bodies[i]), "add body");
    }
    for (int i = 0; i < 180; ++i) check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
    for (int i = 0; i < 4; ++i) {
        c2d_Body b;
        check(c2d_world_get_body(w, bodies[i], &b), "get body");
        printf("body %d rests at x %.4f y %.4f\n", i, b.transform.p.x, b.transform.p.y);
    }
    c2d_Body c;
    check(c2d_world_get_body(w, crate_id, &c), "get crate");
    printf("crate rests at x %.4f y %.4f angle sin %.4f\n", c.transform.p.x, c.transform.p.y, c.transform.q.s);
    /* The point of the first box's surface nearest to a point above-left of it. */
    c2d_Body b0;
    check(c2d_world_get_body(w, bodies[0], &b0), "get body");
    c2d_PointProjection near;
    check(c2d_closest_point(&box, &b0.transform, (c2d_Vec2){5.0f, 3.0f}, &near), "closest point");
    printf("closest point %.4f %.4f distance %.4f inside %u\n", near.point.x, near.point.y, near.distance,
           near.inside);

    /* A kinematic mover's planes: the floor under it and a wall to its right. */
    c2d_CollisionPlane planes[2] = {
        {{{0.0f, 1.0f}, 0.0f}, 3.4e38f, 0.0f, 1u},
        {{{-1.0f, 0.0f}, -0.5f}, 3.4e38f, 0.0f, 1u},
    };
    c2d_PlaneSolverResult solved;
    check(c2d_solve_planes((c2d_Vec2){2.0f, -1.0f}, planes, 2, &solved), "solve planes");
    c2d_Vec2 clipped;
    check(c2d_clip_vector((c2d_Vec2){3.0f, -2.0f}, planes, 2, &clipped), "clip vector");
    printf("planes: move %.4f %.4f in %u iterations, velocity %.4f %.4f\n", solved.translation.x,
           solved.translation.y, solved.iteration_count, clipped.x, clipped.y);
    c2d_world_destroy(w);
    return 0;
}
