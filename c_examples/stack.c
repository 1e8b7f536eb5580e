/* The solver from C: a world with a ground box, a stack of 8 boxes dropped from slightly
 * above each other (with a small sideways offset each), 3 seconds at 60 Hz with 4 sub-steps,
 * contact events, a ray cast and the final position of every box. Then the same drop in
 * immediate mode (caller arrays, no allocator) for one box. The Rust test suite checks the
 * output against the Rust API. */
#include <stdio.h>
#include "collide2d.h"

#define BOXES 8

static void check(c2d_Status s, const char *what) {
    if (s != C2D_STATUS_OK) printf("%s failed: status %u\n", what, (unsigned)s);
}

int main(void) {
    c2d_WorldId world = {0};
    check(c2d_world_create(NULL, &world), "create"); /* NULL settings: Box2D's defaults */

    c2d_Shape ground, box;
    c2d_Transform xf = {{0.0f, -0.5f}, {1.0f, 0.0f}};
    check(c2d_make_box(20.0f, 0.5f, &ground), "ground shape");
    check(c2d_make_box(0.5f, 0.5f, &box), "box shape");

    c2d_BodyDef def;
    c2d_BodyId ground_id, ids[BOXES];
    check(c2d_body_def(C2D_BODY_KIND_STATIC, &xf, &ground, &def), "ground def");
    check(c2d_world_add_body(world, &def, &ground_id), "add ground");
    for (int i = 0; i < BOXES; ++i) {
        xf.p.x = 0.02f * (float)(i % 3);
        xf.p.y = 0.6f + 1.1f * (float)i;
        check(c2d_body_def(C2D_BODY_KIND_DYNAMIC, &xf, &box, &def), "box def");
        def.user_data = (uint64_t)(100 + i);
        check(c2d_world_add_body(world, &def, &ids[i]), "add box");
    }

    size_t begins = 0, ends = 0, n = 0;
    for (int step = 0; step < 180; ++step) {
        check(c2d_world_step(world, 1.0f / 60.0f, 4), "step");
        check(c2d_world_begin_events(world, NULL, 0, &n), "begin events");
        begins += n;
        check(c2d_world_end_events(world, NULL, 0, &n), "end events");
        ends += n;
    }
    uint32_t bodies = 0, contacts = 0;
    check(c2d_world_counts(world, &bodies, &contacts), "counts");
    printf("bodies %u contacts %u begins %zu ends %zu\n", bodies, contacts, begins, ends);

    for (int i = 0; i < BOXES; ++i) {
        c2d_Body b;
        check(c2d_world_get_body(world, ids[i], &b), "get body");
        printf("box %d x %.6f y %.6f angle_sin %.6f\n", i, b.transform.p.x, b.transform.p.y, b.transform.q.s);
    }

    c2d_Vec2 origin = {5.0f, 3.2f}, translation = {-10.0f, 0.0f};
    c2d_WorldRayHit hit;
    bool any = false;
    check(c2d_world_ray_cast(world, &origin, &translation, &any, &hit), "ray cast");
    uint64_t user = 0;
    if (any) check(c2d_world_user_data(world, hit.body, &user), "user data");
    printf("ray %d body %u user %llu fraction %.6f\n", any, hit.body.index, (unsigned long long)user,
           any ? hit.hit.fraction : 0.0f);

    /* Misuse is reported, never fatal. */
    check(c2d_world_remove_body(world, ids[BOXES - 1]), "remove");
    printf("stale remove status %u\n", (unsigned)c2d_world_remove_body(world, ids[BOXES - 1]));
    printf("bad step status %u\n", (unsigned)c2d_world_step(world, 0.0f, 4));
    /* Below C2D_MIN_TIME_STEP (a microsecond) too. */
    printf("short step status %u\n", (unsigned)c2d_world_step(world, 0.5f * C2D_MIN_TIME_STEP, 4));
    def.kind = 7u;
    printf("bad kind status %u\n", (unsigned)c2d_world_add_body(world, &def, &ids[0]));
    c2d_world_destroy(world);

    /* Immediate mode: one box dropped 1 cm onto a static ground, 1 second. */
    c2d_Body arr[2];
    c2d_Transform g = {{0.0f, 0.0f}, {1.0f, 0.0f}}, b = {{0.0f, 1.01f}, {1.0f, 0.0f}};
    c2d_MassData mass;
    c2d_SolverSettings settings;
    c2d_ContactConstraint contact, previous;
    c2d_Manifold m;
    bool have_previous = false;
    check(c2d_shape_mass(&box, 1.0f, &mass), "mass");
    check(c2d_body_make_static(&g, &arr[0]), "static body");
    check(c2d_body_make_dynamic(&b, &mass, &arr[1]), "dynamic body");
    check(c2d_solver_default_settings(&settings), "settings");
    check(c2d_make_box(5.0f, 0.5f, &ground), "ground");
    for (int step = 0; step < 60; ++step) {
        check(c2d_collide(&ground, &arr[0].transform, &box, &arr[1].transform, 0.02f, &m), "collide");
        check(c2d_prepare_contact(arr, 2, 0, 1, &m, 0.6f, 0.0f, have_previous ? &previous : NULL, &contact),
              "prepare");
        check(c2d_solver_step(arr, 2, &contact, m.count > 0 ? 1 : 0, &settings, 1.0f / 60.0f), "solve");
        previous = contact;
        have_previous = m.count > 0;
    }
    printf("immediate y %.6f vy %.6f\n", arr[1].transform.p.y, arr[1].linear_velocity.y);
    return 0;
}
