/* What a game sees when bodies land and characters move, from C: a box landing nearly flat
 * across two open chains laid end to end and a capsule landing tilted on a chain loop (World),
 * then the character mover over arrays of obstacles: a capsule jumping up through a one-way
 * chain platform and landing on it, a circle driven at 200 m/s into the wall of a clockwise
 * chain room (top-down), a 0.6 x 1.0 box started across both arms of a 30 degree V and
 * pushed out in one call, and a ball dropped into a steep V (supported, not on ground). The
 * Rust test suite checks each printed line against the Rust API on the same scenes, and the
 * figures against the README's bounds. Angles are given as their sines and cosines. */
#include <math.h>
#include <stdio.h>
#include "collide2d.h"

static void check(c2d_Status s, const char *what) {
    if (s != C2D_STATUS_OK) printf("%s failed: status %u\n", what, (unsigned)s);
}

/* Adds an open chain (static) through `count` points. */
static void add_chain(c2d_WorldId w, const c2d_Vec2 *points, uint32_t count, uint32_t closed) {
    c2d_ChainDef def;
    c2d_ChainId id;
    check(c2d_chain_def_default(&def), "chain def");
    def.points = points;
    def.count = count;
    def.closed = closed;
    check(c2d_world_add_chain(w, &def, &id), "add chain");
}

/* Drops `shape` turned by (c, s) at x = 0, its lowest point `lift` above y = 0, moving down
 * at `speed`, for 90 steps at 60 Hz; prints its largest spin, upward and sideways speed and
 * its lowest point at the end. */
static void drop(c2d_WorldId w, const char *name, const c2d_Shape *shape, float c, float s, float lowest,
                 float speed) {
    c2d_Transform xf = {{0.0f, 0.05f - lowest}, {c, s}};
    c2d_BodyDef def;
    c2d_BodyId id;
    check(c2d_body_def(C2D_BODY_KIND_DYNAMIC, &xf, shape, &def), "body def");
    def.linear_velocity = (c2d_Vec2){0.0f, -speed};
    check(c2d_world_add_body(w, &def, &id), "add body");
    float spin = 0.0f, hop = 0.0f, side = 0.0f;
    c2d_Body b;
    for (int k = 0; k < 90; ++k) {
        check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
        check(c2d_world_get_body(w, id, &b), "get body");
        spin = fmaxf(spin, fabsf(b.angular_velocity));
        hop = fmaxf(hop, b.linear_velocity.y);
        side = fmaxf(side, fabsf(b.linear_velocity.x));
    }
    c2d_Aabb box;
    check(c2d_shape_aabb(shape, &b.transform, &box), "aabb");
    printf("%s spin %.6f hop %.6f side %.6f lowest %.4f\n", name, spin, hop, side, box.min.y);
}

static c2d_MoverObstacle fixed(const c2d_Shape *shape, float x, float y, uint64_t user) {
    c2d_MoverObstacle o;
    o.shape = *shape;
    o.xf = (c2d_Transform){{x, y}, {1.0f, 0.0f}};
    o.velocity = (c2d_Vec2){0.0f, 0.0f};
    o.angular_velocity = 0.0f;
    o.center = o.xf.p;
    o.user_data = user;
    return o;
}

int main(void) {
    const float dt = 1.0f / 60.0f;

    /* Landing: a 0.5 box turned 0.05 rad at 5 m/s across two open chains meeting at x = 0
     * (each drawn right to left, so their solid side is below). */
    c2d_WorldId w = {0};
    check(c2d_world_create(NULL, &w), "create");
    c2d_Vec2 left[2] = {{0.0f, 0.0f}, {-10.0f, 0.0f}}, right[2] = {{10.0f, 0.0f}, {0.0f, 0.0f}};
    add_chain(w, left, 2, 0);
    add_chain(w, right, 2, 0);
    c2d_Shape box;
    check(c2d_make_box(0.25f, 0.25f, &box), "box");
    const float c05 = 0.99875027f, s05 = 0.04997917f; /* cos, sin 0.05 */
    drop(w, "box across two chains", &box, c05, s05, -0.25f * (c05 + s05), 5.0f);
    c2d_world_destroy(w);

    /* Landing: a capsule lying down, turned 0.1 rad, at 10 m/s onto the top of a chain loop
     * around a solid block (counter-clockwise). */
    check(c2d_world_create(NULL, &w), "create");
    c2d_Vec2 block[4] = {{-10.0f, -1.0f}, {10.0f, -1.0f}, {10.0f, 0.0f}, {-10.0f, 0.0f}};
    add_chain(w, block, 4, 1);
    c2d_Shape capsule;
    check(c2d_make_capsule((c2d_Vec2){-0.15f, 0.0f}, (c2d_Vec2){0.15f, 0.0f}, 0.1f, &capsule), "capsule");
    const float c1 = 0.9950042f, s1 = 0.09983342f; /* cos, sin 0.1 */
    drop(w, "capsule on a chain loop", &capsule, c1, s1, -(0.15f * s1 + 0.1f), 10.0f);
    c2d_world_destroy(w);

    /* Standing weight: a character (a 0.6 box; the default push is an 80 kg character)
     * standing on a floating plank (gravity scale 0, 2 x 0.2, 0.4 kg) presses it down with its
     * weight for one frame; the plank moves in the next step. */
    check(c2d_world_create(NULL, &w), "create");
    c2d_Shape plank, feet;
    check(c2d_make_box(1.0f, 0.1f, &plank), "plank");
    c2d_Transform plank_xf = {{0.0f, 0.0f}, {1.0f, 0.0f}};
    c2d_BodyDef plank_def;
    c2d_BodyId plank_id;
    check(c2d_body_def(C2D_BODY_KIND_DYNAMIC, &plank_xf, &plank, &plank_def), "plank def");
    plank_def.gravity_scale = 0.0f;
    check(c2d_world_add_body(w, &plank_def, &plank_id), "add plank");
    check(c2d_make_box(0.3f, 0.3f, &feet), "feet");
    c2d_Transform stand = {{0.0f, 0.1f + 0.3f + 0.01f}, {1.0f, 0.0f}};
    c2d_MoveOptions weigh;
    check(c2d_move_options_default(&weigh), "options");
    weigh.time_step = dt;
    c2d_MoverPush push;
    check(c2d_mover_push_default(&push), "push");
    c2d_MoveResult standing;
    check(c2d_world_move_and_push(w, &feet, &stand, (c2d_Vec2){0.0f, -9.8f * dt * dt}, (c2d_Vec2){0.0f, -9.8f * dt},
                                  &weigh, NULL, &push, &standing),
          "stand");
    check(c2d_world_step(w, dt, 4), "step");
    c2d_Body pressed;
    check(c2d_world_get_body(w, plank_id, &pressed), "plank");
    printf("standing %d presses the plank to %.5f m/s\n", (int)standing.on_ground, pressed.linear_velocity.y);
    c2d_world_destroy(w);

    /* One-way platform: a capsule 1.2 tall jumps at 10 m/s from the floor up through a chain
     * segment at y = 3.6 (front up, square ends) and lands on it. */
    c2d_Shape floor, platform, hero;
    check(c2d_make_box(10.0f, 0.5f, &floor), "floor");
    check(c2d_make_chain_segment((c2d_Vec2){2.0f, 3.6f}, (c2d_Vec2){2.0f, 3.6f}, (c2d_Vec2){-2.0f, 3.6f},
                                 (c2d_Vec2){-2.0f, 3.6f}, &platform),
          "platform");
    check(c2d_make_capsule((c2d_Vec2){0.0f, -0.3f}, (c2d_Vec2){0.0f, 0.3f}, 0.3f, &hero), "hero");
    c2d_MoverObstacle level[2] = {fixed(&floor, 0.0f, -0.5f, 1), fixed(&platform, 0.0f, 0.0f, 2)};
    c2d_Transform xf = {{0.0f, 0.61f}, {1.0f, 0.0f}};
    c2d_Vec2 v = {0.0f, 10.0f};
    float boost = 0.0f;
    int ground_inside = 0;
    c2d_MoveResult r;
    for (int frame = 0; frame < 120; ++frame) {
        v.y -= 9.8f * dt;
        c2d_Vec2 t = {v.x * dt, v.y * dt};
        check(c2d_move_and_slide(level, 2, &hero, &xf, t, v, NULL, &r), "jump");
        boost = fmaxf(boost, (r.position.y - xf.p.y) - t.y);
        /* On ground while its bottom is still under the platform's top: a double jump. */
        if (r.on_ground && r.position.y - 0.6f < 3.6f - 1e-3f && r.position.y > 1.0f) ground_inside += 1;
        xf.p = r.position;
        v = r.velocity;
    }
    printf("jump boost %.5f ground inside %d landed %d at %.4f\n", boost, ground_inside, (int)r.on_ground,
           xf.p.y);

    /* A fast slide: a circle 0.01 from the left wall of a clockwise square room, driven into
     * it at 200 m/s, 71 degrees from its tangent, for one frame, top-down. */
    c2d_Vec2 room[4] = {{-10.0f, -10.0f}, {-10.0f, 10.0f}, {10.0f, 10.0f}, {10.0f, -10.0f}};
    c2d_MoverObstacle walls[4];
    for (uint32_t i = 0; i < 4; ++i) {
        c2d_ChainSegment cs;
        c2d_Shape seg;
        check(c2d_chain_segment_from_polyline(room, 4, true, i, &cs), "room segment");
        check(c2d_make_chain_segment(cs.ghost1, cs.point1, cs.point2, cs.ghost2, &seg), "room shape");
        walls[i] = fixed(&seg, 0.0f, 0.0f, 10 + i);
    }
    c2d_Shape ball;
    check(c2d_make_circle((c2d_Vec2){0.0f, 0.0f}, 0.25f, &ball), "ball");
    c2d_MoveOptions top;
    check(c2d_move_options_default(&top), "options");
    top.up = (c2d_Vec2){0.0f, 0.0f};
    const float c71 = 0.32556814f, s71 = 0.94551855f; /* cos, sin 71 degrees */
    c2d_Vec2 drive = {-s71 * 200.0f * dt, c71 * 200.0f * dt};
    c2d_Transform start = {{-10.0f + 0.25f + 0.01f, -2.0f}, {1.0f, 0.0f}};
    check(c2d_move_and_slide(walls, 4, &ball, &start, drive, (c2d_Vec2){drive.x * 60.0f, drive.y * 60.0f}, &top,
                             &r),
          "slide");
    printf("slide %.4f of %.4f, x %.4f\n", r.position.y - start.p.y, drive.y, r.position.x);

    /* Push-out in one call: a 0.6 x 1.0 box 0.05 into both arms of a 30 degree V opening to
     * the left (apex at the origin), no translation. */
    const float c15 = 0.9659258f, s15 = 0.25881904f; /* cos, sin 15 degrees */
    c2d_Shape upper, lower, tall;
    check(c2d_make_capsule((c2d_Vec2){0.0f, 0.0f}, (c2d_Vec2){-20.0f * c15, 20.0f * s15}, 0.0f, &upper), "arm");
    check(c2d_make_capsule((c2d_Vec2){0.0f, 0.0f}, (c2d_Vec2){-20.0f * c15, -20.0f * s15}, 0.0f, &lower), "arm");
    check(c2d_make_box(0.3f, 0.5f, &tall), "tall box");
    c2d_MoverObstacle v_corner[2] = {fixed(&upper, 0.0f, 0.0f, 21), fixed(&lower, 0.0f, 0.0f, 22)};
    /* On the axis, the box's corners (x + 0.3, +-0.5) touch the arms at x = -0.5 / tan 15 - 0.3. */
    c2d_Transform wedge = {{-0.5f * c15 / s15 - 0.3f + 0.05f, 0.0f}, {1.0f, 0.0f}};
    check(c2d_move_and_slide(v_corner, 2, &tall, &wedge, (c2d_Vec2){0.0f, 0.0f}, (c2d_Vec2){0.0f, 0.0f}, NULL,
                             &r),
          "push out");
    c2d_MoverPlane planes[4];
    uint32_t n = 0;
    c2d_Transform out = {r.position, {1.0f, 0.0f}};
    check(c2d_collide_mover(v_corner, 2, &tall, &out, 0.05f, planes, 4, &n), "planes");
    float clearance = 1.0f;
    for (uint32_t i = 0; i < n; ++i) clearance = fminf(clearance, -planes[i].plane.offset);
    printf("pushed out to %.4f %.4f, clearance %.5f\n", r.position.x, r.position.y, clearance);

    /* Supported: a ball of radius 0.3 dropped into a V of two 65 degree slopes (each too steep
     * to stand on) for 120 frames. */
    const float c65 = 0.42261827f, s65 = 0.9063078f; /* cos, sin 65 degrees */
    c2d_Shape arm_l, arm_r, pebble;
    check(c2d_make_capsule((c2d_Vec2){0.0f, 0.0f}, (c2d_Vec2){-3.0f * c65, 3.0f * s65}, 0.0f, &arm_l), "slope");
    check(c2d_make_capsule((c2d_Vec2){0.0f, 0.0f}, (c2d_Vec2){3.0f * c65, 3.0f * s65}, 0.0f, &arm_r), "slope");
    check(c2d_make_circle((c2d_Vec2){0.0f, 0.0f}, 0.3f, &pebble), "pebble");
    c2d_MoverObstacle steep[2] = {fixed(&arm_l, 0.0f, 0.0f, 31), fixed(&arm_r, 0.0f, 0.0f, 32)};
    c2d_Transform fall = {{0.0f, 1.5f}, {1.0f, 0.0f}};
    v = (c2d_Vec2){0.0f, 0.0f};
    for (int frame = 0; frame < 120; ++frame) {
        v.y -= 9.8f * dt;
        c2d_Vec2 t = {v.x * dt, v.y * dt};
        check(c2d_move_and_slide(steep, 2, &pebble, &fall, t, v, NULL, &r), "fall");
        fall.p = r.position;
        v = r.velocity;
    }
    printf("wedged at %.4f %.4f on ground %d supported %d contacts %u\n", fall.p.x, fall.p.y, (int)r.on_ground,
           (int)r.supported, r.contact_count);
    return 0;
}
