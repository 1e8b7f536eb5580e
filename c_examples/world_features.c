/* The World's per-frame features from C: sleeping and waking, forces and impulses, a
 * sensor zone, collision filters, filtered queries (ray, overlap, shape cast, ignore list),
 * a fast body against a thin wall, the end events of bodies removed between steps. The Rust
 * test suite checks each printed line against the Rust API on the same scene. */
#include <stdio.h>
#include <math.h>
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

static float count_hits(const c2d_WorldRayHit *hit, void *context) {
    (void)hit;
    *(int *)context += 1;
    return 1.0f; /* go on */
}

static bool same(c2d_BodyId a, c2d_BodyId b) { return a.index == b.index && a.generation == b.generation; }

/* How many of the world's end events name `body` (contact ends) and `visitor` (sensor ends). */
static void count_ends(c2d_WorldId w, c2d_BodyId body, c2d_BodyId visitor, int *contact, int *sensor) {
    c2d_ContactEvent ends[16];
    c2d_SensorEvent sensor_ends[16];
    size_t n = 0, m = 0;
    check(c2d_world_end_events(w, ends, 16, &n), "end events");
    check(c2d_world_sensor_end_events(w, sensor_ends, 16, &m), "sensor end events");
    *contact = 0;
    *sensor = 0;
    for (size_t i = 0; i < n && i < 16; ++i) *contact += same(ends[i].body_a, body) || same(ends[i].body_b, body);
    for (size_t i = 0; i < m && i < 16; ++i) *sensor += same(sensor_ends[i].visitor, visitor);
}

static bool count_bodies(c2d_BodyId body, void *context) {
    (void)body;
    *(int *)context += 1;
    return true;
}

/* A profile clock that counts its own reads. */
static uint64_t ticks = 0;
static uint64_t tick(void) { return ++ticks; }

int main(void) {
    c2d_WorldId w = {0};
    check(c2d_world_create(NULL, &w), "create");
    c2d_Shape ground, box, ball, wall, zone;
    check(c2d_make_box(20.0f, 0.5f, &ground), "ground");
    check(c2d_make_box(0.5f, 0.5f, &box), "box");
    check(c2d_make_circle((c2d_Vec2){0.0f, 0.0f}, 0.25f, &ball), "ball");
    check(c2d_make_box(0.05f, 3.0f, &wall), "wall");
    check(c2d_make_box(1.0f, 1.0f, &zone), "zone");

    /* Sleeping: a two-box stack settles and sleeps; a force wakes it. */
    add(w, C2D_BODY_KIND_STATIC, 0.0f, -0.5f, &ground);
    c2d_BodyId low = add(w, C2D_BODY_KIND_DYNAMIC, 0.0f, 0.5f, &box);
    c2d_BodyId high = add(w, C2D_BODY_KIND_DYNAMIC, 0.0f, 1.5f, &box);
    for (int i = 0; i < 240; ++i) check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
    uint32_t awake = 99;
    bool is_awake = true;
    check(c2d_world_awake_body_count(w, &awake), "awake count");
    check(c2d_world_is_awake(w, high, &is_awake), "is awake");
    printf("asleep awake_count %u high_awake %d\n", awake, is_awake);
    c2d_Vec2 push = {5.0f, 0.0f};
    check(c2d_world_apply_force(w, high, &push, NULL), "force");
    check(c2d_world_is_awake(w, low, &is_awake), "is awake");
    printf("force wakes island %d\n", is_awake);
    check(c2d_world_set_awake(w, low, false), "set awake");
    check(c2d_world_awake_body_count(w, &awake), "awake count");
    printf("set_awake false awake_count %u\n", awake);

    /* An impulse on a free box: v = J / m (m = 1). */
    c2d_BodyId free_box = add(w, C2D_BODY_KIND_DYNAMIC, 10.0f, 10.0f, &box);
    c2d_Vec2 j = {2.0f, 0.0f};
    check(c2d_world_apply_linear_impulse(w, free_box, &j, NULL), "impulse");
    check(c2d_world_set_gravity_scale(w, free_box, 0.0f), "gravity scale");
    c2d_Body b;
    check(c2d_world_get_body(w, free_box, &b), "get body");
    printf("impulse vx %.6f\n", b.linear_velocity.x);

    /* A sensor zone over the ground at x = -5; a ball falls through it. */
    c2d_Transform zxf = {{-5.0f, 3.0f}, {1.0f, 0.0f}};
    c2d_BodyDef zdef;
    c2d_BodyId zone_id;
    check(c2d_body_def(C2D_BODY_KIND_STATIC, &zxf, &zone, &zdef), "zone def");
    zdef.sensor = true;
    check(c2d_world_add_body(w, &zdef, &zone_id), "add zone");
    add(w, C2D_BODY_KIND_DYNAMIC, -5.0f, 6.0f, &ball);
    size_t begins = 0, ends = 0, n = 0;
    for (int i = 0; i < 90; ++i) {
        check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
        check(c2d_world_sensor_begin_events(w, NULL, 0, &n), "sensor begin");
        begins += n;
        check(c2d_world_sensor_end_events(w, NULL, 0, &n), "sensor end");
        ends += n;
    }
    printf("sensor begins %zu ends %zu\n", begins, ends);

    /* Filters: a box that refuses category 1 (everything here) falls through the ground. */
    c2d_Transform fxf = {{5.0f, 0.5f}, {1.0f, 0.0f}};
    c2d_BodyDef fdef;
    c2d_BodyId ghost;
    check(c2d_body_def(C2D_BODY_KIND_DYNAMIC, &fxf, &box, &fdef), "ghost def");
    fdef.filter.mask_bits = ~(uint64_t)1;
    fdef.filter.category_bits = 2;
    check(c2d_world_add_body(w, &fdef, &ghost), "add ghost");
    for (int i = 0; i < 60; ++i) check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
    check(c2d_world_get_body(w, ghost, &b), "get ghost");
    printf("ghost below ground %d\n", b.transform.p.y < -1.0f);
    c2d_Filter fa = fdef.filter, fb = c2d_filter_default();
    bool collide = true;
    check(c2d_filter_should_collide(&fa, &fb, &collide), "should collide");
    printf("filter collide %d\n", collide);

    /* Filtered queries along y = 0.5 (through the sleeping stack at x = 0). */
    c2d_Vec2 origin = {-15.0f, 0.5f}, along = {30.0f, 0.0f};
    c2d_WorldQueryFilter all = {UINT64_MAX, NULL, 0, 0};
    c2d_WorldRayHit hit;
    bool any = false;
    check(c2d_world_ray_cast_filtered(w, &origin, &along, &all, &any, &hit), "ray");
    printf("ray hit %d body %u fraction %.6f\n", any, hit.body.index, any ? hit.hit.fraction : 0.0f);
    c2d_WorldQueryFilter skip_low = {UINT64_MAX, &low, 1, 0};
    check(c2d_world_ray_cast_filtered(w, &origin, &along, &skip_low, &any, &hit), "ray ignoring");
    printf("ray ignoring low hit %d\n", any);
    int hits = 0;
    check(c2d_world_ray_cast_all(w, &origin, &along, NULL, count_hits, &hits), "ray all");
    printf("ray all hits %d\n", hits);
    int overlapping = 0;
    c2d_Transform probe_xf = {{0.0f, 1.0f}, {1.0f, 0.0f}};
    check(c2d_world_overlap_shape(w, &zone, &probe_xf, NULL, count_bodies, &overlapping), "overlap");
    printf("overlap bodies %d\n", overlapping);
    c2d_Transform cast_xf = {{0.0f, 6.0f}, {1.0f, 0.0f}};
    c2d_Vec2 down = {0.0f, -10.0f};
    c2d_WorldCastHit chit;
    check(c2d_world_cast_shape(w, &ball, &cast_xf, &down, NULL, &any, &chit), "cast");
    printf("cast hit %d body %u fraction %.5f\n", any, chit.body.index, any ? chit.output.fraction : 0.0f);

    /* A fast small ball at a thin wall: the continuous phase stops it. */
    add(w, C2D_BODY_KIND_STATIC, 30.0f, 3.0f, &wall);
    c2d_BodyId shot = add(w, C2D_BODY_KIND_DYNAMIC, 20.0f, 3.0f, &ball);
    c2d_Vec2 fast = {300.0f, 0.0f};
    check(c2d_world_set_velocity(w, shot, &fast, 0.0f), "shoot");
    check(c2d_world_set_bullet(w, shot, true), "bullet");
    for (int i = 0; i < 30; ++i) check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
    check(c2d_world_get_body(w, shot, &b), "get shot");
    printf("shot stopped before wall %d\n", b.transform.p.x < 30.0f);

    /* Removed between steps: a box resting on the ground and a ball floating in the sensor
     * zone (both asleep by then). The ends are reported by the next step, once. */
    c2d_BodyId resting = add(w, C2D_BODY_KIND_DYNAMIC, -10.0f, 0.5f, &box);
    c2d_BodyId visitor = add(w, C2D_BODY_KIND_DYNAMIC, -5.0f, 3.0f, &ball);
    check(c2d_world_set_gravity_scale(w, visitor, 0.0f), "float");
    for (int i = 0; i < 60; ++i) check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
    check(c2d_world_remove_body(w, resting), "remove resting box");
    check(c2d_world_remove_body(w, visitor), "remove visitor");
    int box_ends = 0, ball_ends = 0;
    count_ends(w, resting, visitor, &box_ends, &ball_ends);
    printf("removed, before the step: box ends %d ball sensor ends %d\n", box_ends, ball_ends);
    check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
    count_ends(w, resting, visitor, &box_ends, &ball_ends);
    printf("removed, next step: box ends %d ball sensor ends %d\n", box_ends, ball_ends);
    check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
    count_ends(w, resting, visitor, &box_ends, &ball_ends);
    printf("removed, step after: box ends %d ball sensor ends %d\n", box_ends, ball_ends);

    /* Profiling with our own clock: a counter that ticks once per read, so each of the six
     * phases spans exactly one tick and the whole step six. NULL switches it off. */
    c2d_StepProfile prof;
    check(c2d_world_set_profile_clock(w, tick), "clock");
    check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
    check(c2d_world_profile(w, &prof), "profile");
    printf("profile total %llu pairs %llu narrow %llu solve %llu finalize %llu continuous %llu sleep %llu\n",
           (unsigned long long)prof.total, (unsigned long long)prof.pairs, (unsigned long long)prof.narrow,
           (unsigned long long)prof.solve, (unsigned long long)prof.finalize, (unsigned long long)prof.continuous,
           (unsigned long long)prof.sleep);
    check(c2d_world_set_profile_clock(w, NULL), "no clock");
    check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
    check(c2d_world_profile(w, &prof), "profile");
    printf("profile without clock %llu\n", (unsigned long long)prof.total);

    /* Misuse: bad numbers and stale ids are errors. */
    c2d_Vec2 nan_force = {NAN, 0.0f};
    printf("nan force status %u\n", (unsigned)c2d_world_apply_force(w, free_box, &nan_force, NULL));
    check(c2d_world_remove_body(w, free_box), "remove");
    printf("stale set_awake status %u\n", (unsigned)c2d_world_set_awake(w, free_box, true));
    printf("null filter ignore status %u\n",
           (unsigned)c2d_world_ray_cast_filtered(w, &origin, &along,
                                                 &(c2d_WorldQueryFilter){UINT64_MAX, NULL, 2, 0}, &any, &hit));
    c2d_world_destroy(w);
    return 0;
}
