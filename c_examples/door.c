/* The world's door from C: bad settings, shapes, positions, velocities and time steps are
 * refused with a status (never clamped), and c2d_world_validate / c2d_world_fault_events
 * report a healthy world. Prints each status; the Rust test suite checks every line. */
#include <math.h>
#include <stdio.h>
#include "collide2d.h"

int main(void) {
    c2d_SolverSettings s;
    c2d_solver_default_settings(&s);
    c2d_WorldId w = {0};
    s.gravity.y = NAN;
    printf("NaN gravity: status %u\n", (unsigned)c2d_world_create(&s, &w));
    c2d_solver_default_settings(&s);
    s.contact_hertz = -30.0f;
    printf("negative contact hertz: status %u\n", (unsigned)c2d_world_create(&s, &w));
    c2d_solver_default_settings(&s);
    printf("defaults: status %u\n", (unsigned)c2d_world_create(&s, &w));

    c2d_Shape box, bad;
    c2d_make_box(0.5f, 0.5f, &box);
    bad = box;
    bad.u.polygon.count = 9; /* hand-filled: more vertices than a polygon holds */
    c2d_BodyDef def;
    c2d_BodyId id;
    c2d_Transform xf = {{0.0f, 2.0f}, {1.0f, 0.0f}};
    printf("body definition of it: status %u\n", (unsigned)c2d_body_def(C2D_BODY_KIND_STATIC, &xf, &bad, &def));
    c2d_body_def(C2D_BODY_KIND_STATIC, &xf, &box, &def);
    def.shape = bad;
    printf("polygon with 9 vertices: status %u\n", (unsigned)c2d_world_add_body(w, &def, &id));
    xf.p.x = 2.0e6f;
    c2d_body_def(C2D_BODY_KIND_DYNAMIC, &xf, &box, &def);
    printf("body at 2e6 m: status %u\n", (unsigned)c2d_world_add_body(w, &def, &id));
    xf.p.x = 0.0f;
    c2d_body_def(C2D_BODY_KIND_DYNAMIC, &xf, &box, &def);
    printf("box: status %u\n", (unsigned)c2d_world_add_body(w, &def, &id));
    c2d_Vec2 fast = {1000.0f, 0.0f};
    printf("velocity 1000 m/s: status %u\n", (unsigned)c2d_world_set_velocity(w, id, &fast, 0.0f));
    printf("gravity scale 3e38: status %u\n", (unsigned)c2d_world_set_gravity_scale(w, id, 3.0e38f));
    printf("step of 2 s: status %u\n", (unsigned)c2d_world_step(w, 2.0f, 4));
    for (int i = 0; i < 60; ++i) c2d_world_step(w, 1.0f / 60.0f, 4);
    size_t faults = 99;
    c2d_world_fault_events(w, NULL, 0, &faults);
    printf("validate: status %u, faults %zu\n", (unsigned)c2d_world_validate(w), faults);
    c2d_world_destroy(w);
    return 0;
}
