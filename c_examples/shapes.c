/* Shapes with their own ids and data from C: a player body with a foot sensor
 * (c2d_shape_def, c2d_world_add_shape_def) whose sensor events name the foot shape, per-shape
 * friction on one sled changed after creation (c2d_world_set_shape_material), a shape's
 * definition read back, its filter and user data set, and an added shape removed (a stale
 * shape id is then refused); the world's bodies listed and its gravity set. Then a one-way
 * platform in a second world through the pre-solve hook (c2d_world_set_pre_solve): a box thrown
 * up from below passes through and lands on it, the touching contacts listed
 * (c2d_world_contacts), a chain added and removed as a whole (c2d_ChainDef), and the world's id
 * refused once destroyed. The
 * Rust test suite checks every line against the Rust API. */
#include <stdio.h>
#include "collide2d.h"

static int failed = 0;
static void check(c2d_Status s, const char *what) {
    if (s != C2D_STATUS_OK) {
        printf("%s failed: status %u\n", what, (unsigned)s);
        failed = 1;
    }
}

static c2d_BodyId add(c2d_WorldId w, uint32_t kind, float x, float y, const c2d_Shape *shape) {
    c2d_Transform xf = {{x, y}, {1.0f, 0.0f}};
    c2d_BodyDef def;
    c2d_BodyId id = {0, 0};
    check(c2d_body_def(kind, &xf, shape, &def), "body def");
    check(c2d_world_add_body(w, &def, &id), "add body");
    return id;
}

static int same(c2d_ShapeId a, c2d_ShapeId b) { return a.index == b.index && a.generation == b.generation; }

/* A box with half extents hx, hy centred at (x, y) in body space. */
static c2d_Shape offset_box(float hx, float hy, float x, float y) {
    c2d_Vec2 corners[4] = {{x - hx, y - hy}, {x + hx, y - hy}, {x + hx, y + hy}, {x - hx, y + hy}};
    c2d_Shape s;
    check(c2d_make_polygon(corners, 4, 0.0f, &s), "box");
    return s;
}

/* Box2D's one-way rule: solve a contact with the platform only while its normal, taken from
 * the platform towards the other shape, points up. */
typedef struct OneWay {
    c2d_ShapeId platform;
    int calls;
} OneWay;

static bool one_way(c2d_ShapeId a, c2d_ShapeId b, const c2d_Manifold *m, void *context) {
    OneWay *ow = (OneWay *)context;
    ow->calls += 1;
    float sign = same(a, ow->platform) ? 1.0f : same(b, ow->platform) ? -1.0f : 0.0f;
    if (sign == 0.0f) return true;
    return sign * m->normal.y > 0.7f;
}

static void platform_world(void) {
    c2d_WorldId w = {0};
    check(c2d_world_create(NULL, &w), "create platform world");
    c2d_Shape plank, crate_shape;
    check(c2d_make_box(2.0f, 0.1f, &plank), "plank");
    check(c2d_make_box(0.25f, 0.25f, &crate_shape), "crate");
    c2d_BodyId platform = add(w, C2D_BODY_KIND_STATIC, 0.0f, 2.9f, &plank);
    c2d_BodyId crate_id = add(w, C2D_BODY_KIND_DYNAMIC, 0.0f, 1.5f, &crate_shape);
    c2d_ShapeId first[1];
    uint32_t n = 0;
    check(c2d_world_body_shapes(w, platform, first, 1, &n), "platform shape");
    OneWay ow = {first[0], 0};
    check(c2d_world_set_pre_solve(w, one_way, &ow), "pre-solve");
    c2d_Vec2 up = {0.0f, 8.0f};
    check(c2d_world_set_velocity(w, crate_id, &up, 0.0f), "throw");
    float highest = -1e9f;
    c2d_Body b;
    for (int i = 0; i < 240; ++i) {
        check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
        check(c2d_world_get_body(w, crate_id, &b), "crate");
        if (b.transform.p.y > highest) highest = b.transform.p.y;
    }
    printf("one-way: highest %.4f, rests at %.4f, hook asked %d\n", highest, b.transform.p.y, ow.calls > 0);
    /* The touching contacts: the crate on the plank, its normal from the plank's shape up. */
    c2d_ContactEvent touching[4];
    uint32_t nt = 0;
    check(c2d_world_contacts(w, touching, 4, &nt), "contacts");
    printf("contacts %u: plank first %d, normal y %.3f, points %u\n", nt, same(touching[0].shape_a, first[0]),
           touching[0].manifold.normal.y, touching[0].manifold.count);
    /* A chain added and removed as a whole; its id is then refused. */
    c2d_Vec2 ledge[3] = {{-6.0f, 1.0f}, {-4.0f, 1.0f}, {-3.0f, 1.5f}};
    c2d_ChainDef chain_def;
    check(c2d_chain_def_default(&chain_def), "chain def");
    chain_def.points = ledge;
    chain_def.count = 3;
    c2d_ChainId chain;
    c2d_BodyId chain_body;
    check(c2d_world_add_chain(w, &chain_def, &chain), "chain");
    check(c2d_world_chain_body(w, chain, &chain_body), "chain body");
    uint32_t segments = 0;
    /* No room given: the count alone, with C2D_STATUS_BUFFER_TOO_SMALL. */
    if (c2d_world_body_shapes(w, chain_body, NULL, 0, &segments) != C2D_STATUS_BUFFER_TOO_SMALL) failed = 1;
    c2d_Status removed = c2d_world_remove_chain(w, chain);
    c2d_Status removed_again = c2d_world_remove_chain(w, chain);
    printf("chain of %u segments: removed %u, again %u\n", segments, (unsigned)removed, (unsigned)removed_again);
    c2d_Status destroyed = c2d_world_destroy(w);
    c2d_Status again = c2d_world_destroy(w);
    c2d_Status step = c2d_world_step(w, 1.0f / 60.0f, 4);
    printf("destroy %u, again %u, step after %u\n", (unsigned)destroyed, (unsigned)again, (unsigned)step);
}

int main(void) {
    c2d_WorldId w = {0};
    check(c2d_world_create(NULL, &w), "create");
    c2d_Shape floor_box, player_box;
    check(c2d_make_box(50.0f, 0.5f, &floor_box), "floor");
    check(c2d_make_box(0.25f, 0.5f, &player_box), "player");
    c2d_BodyId ground = add(w, C2D_BODY_KIND_STATIC, 0.0f, -0.5f, &floor_box);
    c2d_BodyId player = add(w, C2D_BODY_KIND_DYNAMIC, 0.0f, 1.5f, &player_box);

    /* The foot: a thin massless sensor under the player's feet. */
    c2d_Shape foot_box = offset_box(0.2f, 0.05f, 0.0f, -0.5f);
    c2d_ShapeDef foot;
    check(c2d_shape_def(&foot_box, &foot), "foot def");
    foot.sensor = true;
    foot.material.density = 0.0f;
    foot.user_data = 77;
    c2d_ShapeId foot_id;
    check(c2d_world_add_shape_def(w, player, &foot, &foot_id), "add foot");
    c2d_ShapeId ids[4];
    uint32_t n = 0;
    check(c2d_world_body_shapes(w, player, ids, 4, &n), "shapes");
    printf("player has %u shapes, the foot second: %d\n", n, same(ids[1], foot_id));
    int landed = -1;
    for (int i = 0; i < 90; ++i) {
        check(c2d_world_step(w, 1.0f / 60.0f, 4), "step");
        c2d_SensorEvent events[4];
        size_t k = 0;
        check(c2d_world_sensor_begin_events(w, events, 4, &k), "sensor events");
        for (size_t j = 0; j < k; ++j)
            if (same(events[j].sensor_shape, foot_id) && events[j].visitor.index == ground.index && landed < 0)
                landed = i;
    }
    c2d_Body b;
    check(c2d_world_get_body(w, player, &b), "get player");
    printf("foot touched the ground at step %d; player rests at y %.4f\n", landed, b.transform.p.y);

    /* A sled of two boxes: the first icy, the second (added) rough. */
    c2d_Shape left = offset_box(0.5f, 0.25f, -0.5f, 0.0f), right = offset_box(0.5f, 0.25f, 0.5f, 0.0f);
    c2d_Transform at = {{10.0f, 0.25f}, {1.0f, 0.0f}};
    c2d_BodyDef sled_def;
    check(c2d_body_def(C2D_BODY_KIND_DYNAMIC, &at, &left, &sled_def), "sled def");
    sled_def.material.friction = 0.0f;
    c2d_BodyId sled;
    check(c2d_world_add_body(w, &sled_def, &sled), "add sled");
    c2d_ShapeDef rough;
    check(c2d_shape_def(&right, &rough), "rough def");
    rough.material.friction = 0.64f;
    c2d_ShapeId rough_id;
    check(c2d_world_add_shape_def(w, sled, &rough, &rough_id), "add rough");
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < 30; ++i) check(c2d_world_step(w, 1.0f / 60.0f, 4), "settle");
        c2d_Vec2 push = {3.0f, 0.0f};
        check(c2d_world_set_velocity(w, sled, &push, 0.0f), "push");
        for (int i = 0; i < 15; ++i) check(c2d_world_step(w, 1.0f / 60.0f, 4), "slide");
        check(c2d_world_get_body(w, sled, &b), "get sled");
        printf("pass %d: sled speed %.3f\n", pass, b.linear_velocity.x);
        /* Make the icy shape rough too (its id is the body's first shape). */
        c2d_ShapeId first = {sled.index, sled.generation};
        check(c2d_world_set_shape_material(w, first, &rough.material), "rough material");
    }

    c2d_ShapeDef read;
    check(c2d_world_get_shape_def(w, foot_id, &read), "read foot");
    printf("foot: sensor %d density %g user data %llu\n", (int)read.sensor, read.material.density,
           (unsigned long long)read.user_data);
    c2d_Filter none = c2d_filter_default();
    none.mask_bits = 0;
    check(c2d_world_set_shape_filter(w, rough_id, &none), "filter");
    check(c2d_world_set_shape_user_data(w, rough_id, 5), "user data");
    check(c2d_world_set_shape_sensor(w, rough_id, false), "sensor off");
    c2d_BodyId owner;
    check(c2d_world_shape_body(w, rough_id, &owner), "owner");
    printf("rough shape belongs to the sled: %d\n", owner.index == sled.index);
    check(c2d_world_remove_shape(w, rough_id), "remove");
    printf("removed: %u; again: %u\n", (unsigned)c2d_world_body_shapes(w, sled, ids, 4, &n),
           (unsigned)c2d_world_remove_shape(w, rough_id));
    printf("sled has %u shape(s)\n", n);

    /* Every body, and gravity turned sideways. */
    c2d_BodyId bodies[8];
    uint32_t nb = 0;
    check(c2d_world_body_ids(w, bodies, 8, &nb), "body ids");
    printf("%u bodies, the player second: %d\n", nb, bodies[1].index == player.index);
    c2d_Vec2 side = {3.0f, 0.0f}, g;
    check(c2d_world_set_gravity(w, &side), "gravity");
    check(c2d_world_get_gravity(w, &g), "get gravity");
    printf("gravity %g %g\n", g.x, g.y);
    c2d_world_destroy(w);
    platform_world();
    return failed;
}
