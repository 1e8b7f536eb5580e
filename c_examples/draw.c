/* Debug drawing from C: a c2d_DebugDraw table of callbacks prints every primitive the library
 * draws for a small world (a ground, a stack of two boxes, a ball, a sensor zone), for the
 * mover planes of a capsule character walked into the stack, for the world's tree, and for a
 * ray. The Rust test suite draws the same scene through the Rust
 * DebugDraw trait and checks the lines are identical. */
#include <stdio.h>
#include "collide2d.h"

static void polygon(const c2d_Vec2 *v, int32_t n, uint32_t color, void *ctx) {
    (void)ctx;
    printf("polygon %06x", color);
    for (int32_t i = 0; i < n; ++i) printf(" %.4f,%.4f", v[i].x, v[i].y);
    printf("\n");
}
static void solid_polygon(c2d_Transform xf, const c2d_Vec2 *v, int32_t n, float r, uint32_t color, void *ctx) {
    (void)ctx;
    printf("solid_polygon %06x at %.4f,%.4f rot %.4f,%.4f radius %.3f", color, xf.p.x, xf.p.y, xf.q.c, xf.q.s, r);
    for (int32_t i = 0; i < n; ++i) printf(" %.4f,%.4f", v[i].x, v[i].y);
    printf("\n");
}
static void solid_circle(c2d_Transform xf, float r, uint32_t color, void *ctx) {
    (void)ctx;
    printf("solid_circle %06x at %.4f,%.4f radius %.3f\n", color, xf.p.x, xf.p.y, r);
}
static void segment(c2d_Vec2 a, c2d_Vec2 b, uint32_t color, void *ctx) {
    (void)ctx;
    printf("segment %06x %.4f,%.4f %.4f,%.4f\n", color, a.x, a.y, b.x, b.y);
}
static void point(c2d_Vec2 p, float size, uint32_t color, void *ctx) {
    (void)ctx;
    printf("point %06x %.4f,%.4f size %.1f\n", color, p.x, p.y, size);
}
static void axes(c2d_Transform xf, void *ctx) {
    (void)ctx;
    printf("transform %.4f,%.4f\n", xf.p.x, xf.p.y);
}

static c2d_BodyId add(c2d_WorldId w, uint32_t kind, float x, float y, const c2d_Shape *s, bool sensor) {
    c2d_Transform xf = c2d_transform_identity();
    c2d_BodyDef def;
    c2d_BodyId id = {0, 0};
    xf.p.x = x;
    xf.p.y = y;
    c2d_body_def(kind, &xf, s, &def);
    def.sensor = sensor;
    c2d_world_add_body(w, &def, &id);
    return id;
}

int main(void) {
    c2d_WorldId w = {0};
    c2d_Shape ground, box, ball, zone;
    c2d_world_create(NULL, &w);
    c2d_make_box(4.0f, 0.5f, &ground);
    c2d_make_box(0.5f, 0.5f, &box);
    c2d_make_circle(c2d_vec2_zero(), 0.4f, &ball);
    c2d_make_circle(c2d_vec2_zero(), 1.0f, &zone);
    add(w, C2D_BODY_KIND_STATIC, 0.0f, 0.0f, &ground, false);
    add(w, C2D_BODY_KIND_DYNAMIC, -1.0f, 1.0f, &box, false);
    add(w, C2D_BODY_KIND_DYNAMIC, -1.0f, 2.0f, &box, false);
    add(w, C2D_BODY_KIND_DYNAMIC, 2.0f, 3.0f, &ball, false);
    add(w, C2D_BODY_KIND_STATIC, 3.0f, 1.5f, &zone, true);
    for (int i = 0; i < 90; ++i) c2d_world_step(w, 1.0f / 60.0f, 4);

    c2d_DebugDraw draw = {0};
    draw.draw_polygon = polygon;
    draw.draw_solid_polygon = solid_polygon;
    draw.draw_solid_circle = solid_circle;
    draw.draw_segment = segment;
    draw.draw_point = point;
    draw.draw_transform = axes;
    draw.draw_shapes = true;
    draw.draw_contacts = true;
    draw.draw_transforms = true;
    printf("world %u\n", (unsigned)c2d_world_draw(w, &draw));

    /* A capsule character walked into the stack of boxes: its ground and wall planes. */
    c2d_Shape pill;
    c2d_make_capsule((c2d_Vec2){0.0f, -0.3f}, (c2d_Vec2){0.0f, 0.3f}, 0.3f, &pill);
    c2d_Transform at = c2d_transform_identity();
    at.p.x = -1.95f;
    at.p.y = 1.11f;
    c2d_MoveOptions opts;
    c2d_move_options_default(&opts);
    c2d_MoveResult moved;
    c2d_world_move_and_slide(w, &pill, &at, (c2d_Vec2){0.2f, -0.02f}, (c2d_Vec2){12.0f, -1.2f}, &opts,
                             NULL, &moved);
    printf("mover %u contacts %u\n", (unsigned)c2d_draw_move_result(&draw, &moved, 0.5f),
           (unsigned)moved.contact_count);

    /* A tree of three boxes: its five node boxes. */
    c2d_Tree *tree = NULL;
    c2d_tree_create(&tree);
    for (int i = 0; i < 3; ++i) {
        c2d_Aabb b = {{(float)i, 0.0f}, {(float)i + 0.5f, 0.5f}};
        uint32_t id;
        c2d_tree_create_proxy(tree, &b, 1u, (uint64_t)i, &id);
    }
    printf("tree %u\n", (unsigned)c2d_tree_draw(tree, &draw));
    c2d_tree_free(tree);

    /* A ray against the ground, drawn with its hit. */
    c2d_Ray ray = {{-6.0f, 0.25f}, {4.0f, 0.0f}, 1.0f};
    c2d_Transform id = c2d_transform_identity();
    bool hit = false;
    c2d_RayHit h;
    c2d_ray_cast(&ground, &id, &ray, &hit, &h);
    printf("ray %u\n", (unsigned)c2d_draw_ray(&draw, &ray, hit ? &h : NULL, 0.5f));
    printf("null table %u\n", (unsigned)c2d_world_draw(w, NULL));
    c2d_world_destroy(w);
    return 0;
}
