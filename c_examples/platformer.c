/* A character walking, jumping and sliding through a small level with the mover, from C:
 * c2d_world_move_and_slide through a World (a floor of separate boxes with seams, a 30 degree
 * ramp, a kinematic moving platform), then c2d_move_and_slide over an array of obstacles
 * (pushing into a corner), c2d_collide_mover and c2d_cast_mover. The Rust test suite checks
 * each printed line against the Rust API on the same scene. */
#include <stdio.h>
#include "collide2d.h"

static void check(c2d_Status s, const char *what) {
    if (s != C2D_STATUS_OK) printf("%s failed: status %u\n", what, (unsigned)s);
}

static c2d_BodyId add(c2d_WorldId w, uint32_t kind, float x, float y, const c2d_Shape *shape) {
    c2d_Transform xf = {{x, y}, {1.0f, 0.0f}};
    c2d_BodyDef def;
    c2d_BodyId id = {0, 0};
    check(c2d_body_def(kind, &xf, shape, &def), "body def");
    check(c2d_world_add_body(w, &def, &id), "add body");
    return id;
}

int main(void) {
    const float dt = 1.0f / 60.0f;
    c2d_WorldId w = {0};
    check(c2d_world_create(NULL, &w), "create");

    /* The level: 24 unit boxes side by side (23 seams), a ramp, a moving platform. */
    c2d_Shape tile, ramp, platform;
    check(c2d_make_box(0.5f, 0.5f, &tile), "tile");
    for (int i = 0; i < 24; ++i) add(w, C2D_BODY_KIND_STATIC, (float)i + 0.5f, -0.5f, &tile);
    c2d_Vec2 ramp_points[3] = {{14.0f, 0.0f}, {18.0f, 0.0f}, {18.0f, 2.309401f}};
    check(c2d_make_polygon(ramp_points, 3, 0.0f, &ramp), "ramp");
    add(w, C2D_BODY_KIND_STATIC, 0.0f, 0.0f, &ramp);
    check(c2d_make_box(1.5f, 0.2f, &platform), "platform");
    c2d_BodyId lift = add(w, C2D_BODY_KIND_KINEMATIC, 8.0f, 0.9f, &platform);
    c2d_Vec2 lift_v = {1.0f, 0.0f};
    check(c2d_world_set_velocity(w, lift, &lift_v, 0.0f), "lift velocity");

    /* The character: a capsule 1.2 tall resting a skin above the floor. */
    c2d_Shape body;
    check(c2d_make_capsule((c2d_Vec2){0.0f, -0.3f}, (c2d_Vec2){0.0f, 0.3f}, 0.3f, &body), "capsule");
    c2d_Transform xf = {{1.0f, 0.61f}, {1.0f, 0.0f}};
    c2d_Vec2 v = {0.0f, 0.0f};
    c2d_MoveOptions opts;
    check(c2d_move_options_default(&opts), "options");
    opts.ground_snap = 0.2f;
    opts.time_step = dt;
    bool on_ground = true;
    for (int frame = 1; frame <= 300; ++frame) {
        check(c2d_world_step(w, dt, 4), "step"); /* the platform moves first */
        v.x = frame < 270 ? 4.0f : 0.0f;
        if (frame == 70 && on_ground) v.y = 5.0f; /* jump onto the platform */
        v.y -= 9.8f * dt;
        c2d_Vec2 t = {v.x * dt, v.y * dt};
        c2d_MoveResult r;
        check(c2d_world_move_and_slide(w, &body, &xf, t, v, &opts, NULL, &r), "move");
        xf.p = r.position;
        v = r.velocity;
        on_ground = r.on_ground;
        if (frame % 30 == 0) {
            printf("frame %d pos %.4f %.4f vel %.4f %.4f ground %d supported %d on %u contacts %u\n", frame, xf.p.x,
                   xf.p.y, v.x, v.y, (int)r.on_ground, (int)r.supported,
                   r.on_ground ? (unsigned)c2d_body_id_from_bits(r.ground.user_data).index : 0u, r.contact_count);
        }
    }
    c2d_world_destroy(w);

    /* Without a world: a box pushed into the corner of a floor and a wall for 40 frames. */
    c2d_MoverObstacle level[2];
    check(c2d_make_box(5.0f, 0.5f, &level[0].shape), "floor");
    check(c2d_make_box(0.5f, 2.0f, &level[1].shape), "wall");
    c2d_Transform floor_xf = {{0.0f, -0.5f}, {1.0f, 0.0f}}, wall_xf = {{3.5f, 2.0f}, {1.0f, 0.0f}};
    level[0].xf = floor_xf;
    level[1].xf = wall_xf;
    for (int i = 0; i < 2; ++i) {
        level[i].user_data = 100u + (uint64_t)i;
        level[i].velocity = (c2d_Vec2){0.0f, 0.0f};
        level[i].angular_velocity = 0.0f;
        level[i].center = level[i].xf.p;
    }
    c2d_Shape crate;
    check(c2d_make_box(0.4f, 0.4f, &crate), "crate");
    c2d_Transform cxf = {{0.0f, 0.41f}, {1.0f, 0.0f}};
    c2d_Vec2 cv = {6.0f, -2.0f};
    for (int frame = 0; frame < 40; ++frame) {
        c2d_MoveResult r;
        c2d_Vec2 t = {cv.x * dt, cv.y * dt};
        check(c2d_move_and_slide(level, 2, &crate, &cxf, t, cv, NULL, &r), "move crate");
        cxf.p = r.position;
        cv = (c2d_Vec2){6.0f, r.velocity.y - 9.8f * dt};
    }
    printf("crate in the corner at %.4f %.4f\n", cxf.p.x, cxf.p.y);
    c2d_MoverPlane planes[4];
    uint32_t n = 0;
    check(c2d_collide_mover(level, 2, &crate, &cxf, 0.02f, planes, 4, &n), "collide mover");
    printf("planes %u:", n);
    for (uint32_t i = 0; i < n; ++i)
        printf(" [%.4f %.4f sep %.4f from %u]", planes[i].plane.normal.x, planes[i].plane.normal.y,
               -planes[i].plane.offset, (unsigned)planes[i].user_data);
    printf("\n");
    c2d_Transform start = {{-3.0f, 0.41f}, {1.0f, 0.0f}};
    bool hit = false;
    c2d_MoverHit h;
    check(c2d_cast_mover(level, 2, &crate, &start, (c2d_Vec2){10.0f, 0.0f}, 0.01f, &hit, &h), "cast mover");
    printf("cast hit %d fraction %.4f normal %.4f %.4f from %u\n", (int)hit, h.fraction, h.normal.x, h.normal.y,
           (unsigned)h.user_data);
    return 0;
}
