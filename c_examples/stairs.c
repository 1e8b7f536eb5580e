/* A character walking up stairs and pushing a crate, from C: c2d_world_move_and_push with
 * MoveOptions.max_step_height (auto-step) and ground_snap, and the default c2d_MoverPush (an
 * 80 kg character). Stairs of three 0.2 steps lead to a landing with a 1 kg crate on it; the
 * box-shaped character climbs them without jumping and walks the crate along the landing.
 * The Rust test suite checks each printed line against World::move_and_push on the same scene. */
#include <stdio.h>
#include "collide2d.h"

static void check(c2d_Status s, const char *what) {
    if (s != C2D_STATUS_OK) printf("%s failed: status %u\n", what, (unsigned)s);
}

static c2d_BodyId add_box(c2d_WorldId w, uint32_t kind, float x0, float y0, float x1, float y1) {
    c2d_Shape box;
    check(c2d_make_box(0.5f * (x1 - x0), 0.5f * (y1 - y0), &box), "box");
    c2d_Transform xf = {{0.5f * (x0 + x1), 0.5f * (y0 + y1)}, {1.0f, 0.0f}};
    c2d_BodyDef def;
    c2d_BodyId id = {0, 0};
    check(c2d_body_def(kind, &xf, &box, &def), "body def");
    check(c2d_world_add_body(w, &def, &id), "add body");
    return id;
}

int main(void) {
    const float dt = 1.0f / 60.0f;
    c2d_WorldId w = {0};
    check(c2d_world_create(NULL, &w), "create");
    /* Floor, three steps of 0.2 from x = 4, a landing at 0.6 from x = 7, a crate on it. */
    add_box(w, C2D_BODY_KIND_STATIC, -2.0f, -1.0f, 4.0f, 0.0f);
    for (int k = 0; k < 3; ++k) {
        float x = 4.0f + (float)k;
        add_box(w, C2D_BODY_KIND_STATIC, x, -1.0f, x + (k == 2 ? 20.0f : 1.0f), 0.2f * (float)(k + 1));
    }
    c2d_BodyId crate = add_box(w, C2D_BODY_KIND_DYNAMIC, 9.0f, 0.6f, 10.0f, 1.6f);

    c2d_Shape body;
    check(c2d_make_box(0.3f, 0.5f, &body), "character");
    c2d_Transform xf = {{0.0f, 0.51f}, {1.0f, 0.0f}};
    c2d_Vec2 v = {0.0f, 0.0f};
    c2d_MoveOptions opts;
    check(c2d_move_options_default(&opts), "options");
    opts.max_step_height = 0.25f;
    opts.ground_snap = 0.25f;
    opts.time_step = dt;
    c2d_MoverPush push;
    check(c2d_mover_push_default(&push), "push");
    float climbed = 0.0f;
    for (int frame = 1; frame <= 240; ++frame) {
        check(c2d_world_step(w, dt, 4), "step");
        v.x = 3.0f;
        v.y -= 9.8f * dt;
        c2d_Vec2 t = {v.x * dt, v.y * dt};
        c2d_MoveResult r;
        check(c2d_world_move_and_push(w, &body, &xf, t, v, &opts, NULL, &push, &r), "move");
        xf.p = r.position;
        v = r.velocity;
        climbed += r.stepped_up;
        if (frame % 30 == 0) {
            c2d_Body b;
            check(c2d_world_get_body(w, crate, &b), "crate");
            printf("frame %d pos %.4f %.4f ground %d climbed %.4f crate %.4f %.4f\n", frame, xf.p.x, xf.p.y,
                   (int)r.on_ground, climbed, b.transform.p.x, b.transform.p.y);
        }
    }
    c2d_world_destroy(w);
    return 0;
}
