/* A floor of 20 separate static box tiles, and a box sliding across it at 8 m/s without
 * friction: with internal-edge removal (the default) it crosses the 19 seams as it would a
 * chain; switched off (c2d_world_set_internal_edge_removal) it snags on them. Prints the
 * largest vertical speed and spin of each run; the Rust test suite checks every line against
 * the Rust API. */
#include <math.h>
#include <stdio.h>
#include "collide2d.h"

static void check(c2d_Status s, const char *what) {
    if (s != C2D_STATUS_OK) printf("%s failed: status %u\n", what, (unsigned)s);
}

static void run(bool removal) {
    c2d_WorldId w = {0};
    check(c2d_world_create(NULL, &w), "create");
    check(c2d_world_set_internal_edge_removal(w, removal), "removal");
    c2d_Shape tile, box;
    check(c2d_make_box(0.5f, 0.5f, &tile), "tile");
    check(c2d_make_box(0.25f, 0.25f, &box), "box");
    c2d_BodyDef def;
    c2d_BodyId id;
    for (int i = 0; i < 20; ++i) {
        c2d_Transform xf = {{(float)i + 0.5f, -0.5f}, {1.0f, 0.0f}};
        check(c2d_body_def(C2D_BODY_KIND_STATIC, &xf, &tile, &def), "tile def");
        def.material.friction = 0.0f;
        check(c2d_world_add_body(w, &def, &id), "add tile");
    }
    c2d_Transform start = {{1.3f, 0.25f}, {1.0f, 0.0f}};
    check(c2d_body_def(C2D_BODY_KIND_DYNAMIC, &start, &box, &def), "box def");
    def.material.friction = 0.0f;
    def.linear_velocity = (c2d_Vec2){8.0f, 0.0f};
    check(c2d_world_add_body(w, &def, &id), "add box");
    float max_vy = 0.0f, max_w = 0.0f;
    for (int step = 0; step < 120; ++step) {
        check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
        c2d_Body b;
        check(c2d_world_get_body(w, id, &b), "get body");
        if (b.transform.p.x > 18.0f) break;
        if (step >= 10) {
            max_vy = fmaxf(max_vy, fabsf(b.linear_velocity.y));
            max_w = fmaxf(max_w, fabsf(b.angular_velocity));
        }
    }
    printf("removal %d: max |vy| %.6f max |w| %.6f\n", removal ? 1 : 0, max_vy, max_w);
    c2d_world_destroy(w);
}

int main(void) {
    run(true);
    run(false);
    return 0;
}
