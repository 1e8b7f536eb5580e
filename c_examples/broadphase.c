/* The dynamic tree from C: a tree in a static buffer (no allocator) and a heap tree, AABB
 * query, closest-hit ray cast with an exact shape test in the callback, pair finding, lazy
 * moves with one partial rebuild, and misuse reported by status codes. The Rust test suite
 * checks the output. */
#include <stdio.h>
#include "collide2d.h"

#define COUNT 40

static uint32_t seed = 12345u;
static float rnd(void) {
    seed = seed * 1664525u + 1013904223u;
    return (float)(seed >> 8) / 16777216.0f;
}

typedef struct Scene {
    c2d_Shape shapes[COUNT];
    c2d_Aabb boxes[COUNT];
    c2d_Transform xf;
    float best;
    uint32_t best_user;
} Scene;

static float on_ray(const c2d_Ray *ray, uint32_t id, uint64_t user, void *context) {
    Scene *s = (Scene *)context;
    bool hit = false;
    c2d_RayHit h;
    (void)id;
    if (c2d_ray_cast(&s->shapes[user], &s->xf, ray, &hit, &h) != C2D_STATUS_OK || !hit) return -1.0f;
    if (h.fraction < s->best) {
        s->best = h.fraction;
        s->best_user = (uint32_t)user;
    }
    return h.fraction; /* clip: closest hit */
}

static bool on_query(uint32_t id, uint64_t user, void *context) {
    unsigned long long *sum = (unsigned long long *)context;
    (void)id;
    *sum += user + 1;
    return true;
}

static void on_pair(uint32_t a, uint64_t ua, uint32_t b, uint64_t ub, void *context) {
    unsigned long long *acc = (unsigned long long *)context;
    (void)a;
    (void)b;
    acc[0] += 1;
    acc[1] += (ua + 1) * (ub + 1);
}

/* Shape-level queries: the tree asks for each candidate's shape and transform. */
static const c2d_Shape *shape_of(uint32_t id, uint64_t user, c2d_Transform *out_xf, void *context) {
    Scene *s = (Scene *)context;
    (void)id;
    *out_xf = s->xf;
    return &s->shapes[user];
}

static bool count_overlap(uint32_t id, uint64_t user, void *context) {
    unsigned long long *acc = (unsigned long long *)context;
    (void)id;
    acc[0] += 1;
    acc[1] += user + 1;
    return true;
}

typedef struct Contacts {
    unsigned shapes, points;
    float deepest;
} Contacts;

static bool on_contact(uint32_t id, uint64_t user, const c2d_Manifold *m, void *context) {
    Contacts *c = (Contacts *)context;
    uint32_t k;
    (void)id;
    (void)user;
    c->shapes += 1;
    c->points += m->count;
    for (k = 0; k < m->count; ++k)
        if (m->points[k].depth > c->deepest) c->deepest = m->points[k].depth;
    return true;
}

static uint64_t memory[4096]; /* 32 KiB, 8-byte aligned */

int main(void) {
    static Scene scene;
    c2d_Tree *tree = NULL, *heap = NULL;
    uint32_t ids[COUNT], heap_ids[COUNT], full = 0, i;
    size_t need = c2d_tree_memory_size(32);
    c2d_Aabb q = {{20.0f, 20.0f}, {60.0f, 60.0f}};
    c2d_Ray ray = {{-5.0f, 50.0f}, {110.0f, 3.0f}, 1.0f};
    unsigned long long sum = 0, pairs[2] = {0, 0}, heap_pairs[2] = {0, 0};

    scene.xf.p.x = 0.0f; scene.xf.p.y = 0.0f; scene.xf.q.c = 1.0f; scene.xf.q.s = 0.0f;
    if (need > sizeof memory || c2d_tree_init(memory, need, &tree) != C2D_STATUS_OK) return 1;
    if (c2d_tree_create(&heap) != C2D_STATUS_OK) return 1;
    for (i = 0; i < COUNT; ++i) {
        float cx = rnd() * 100.0f, cy = rnd() * 100.0f, hx = 1.0f + rnd() * 4.0f, hy = 1.0f + rnd() * 4.0f;
        c2d_Vec2 corners[4];
        corners[0].x = cx - hx; corners[0].y = cy - hy;
        corners[1].x = cx + hx; corners[1].y = cy - hy;
        corners[2].x = cx + hx; corners[2].y = cy + hy;
        corners[3].x = cx - hx; corners[3].y = cy + hy;
        if (c2d_make_polygon(corners, 4, 0.0f, &scene.shapes[i]) != C2D_STATUS_OK) return 1;
        scene.boxes[i].min = corners[0];
        scene.boxes[i].max = corners[2];
        if (c2d_tree_create_proxy(tree, &scene.boxes[i], 1, i, &ids[i]) == C2D_STATUS_TREE_FULL) ++full;
        if (c2d_tree_create_proxy(heap, &scene.boxes[i], 1, i, &heap_ids[i]) != C2D_STATUS_OK) return 1;
    }
    printf("fixed proxies %u full %u validate %u\n", c2d_tree_proxy_count(tree), full, (unsigned)c2d_tree_validate(tree));
    c2d_tree_query(tree, &q, ~0ull, on_query, &sum);
    printf("query sum %llu\n", sum);
    scene.best = 2.0f;
    scene.best_user = 999;
    c2d_tree_ray_cast(heap, &ray, ~0ull, on_ray, &scene);
    printf("ray user %u fraction %.6f\n", scene.best_user, scene.best);
    {
        bool hit = false;
        c2d_TreeRayHit rh;
        c2d_TreeCastHit ch;
        c2d_Shape probe;
        c2d_Transform at = {{50.0f, 50.0f}, {1.0f, 0.0f}}, start = {{-10.0f, 50.0f}, {1.0f, 0.0f}};
        c2d_Vec2 zero = {0.0f, 0.0f}, move = {120.0f, 1.5f};
        unsigned long long over[2] = {0, 0};
        Contacts contacts = {0, 0, -1.0f};
        if (c2d_tree_ray_cast_closest(heap, &ray, ~0ull, shape_of, &scene, &hit, &rh) != C2D_STATUS_OK) return 1;
        printf("closest hit %d user %llu fraction %.6f\n", (int)hit, (unsigned long long)rh.user_data, rh.hit.fraction);
        if (c2d_make_circle(zero, 2.0f, &probe) != C2D_STATUS_OK) return 1;
        if (c2d_tree_cast_closest(heap, &probe, &start, move, 0.0f, ~0ull, shape_of, &scene, &hit, &ch) != C2D_STATUS_OK)
            return 1;
        printf("cast hit %d user %llu state %u fraction %.6f\n", (int)hit, (unsigned long long)ch.user_data,
               (unsigned)ch.output.state, ch.output.fraction);
        if (c2d_make_circle(zero, 15.0f, &probe) != C2D_STATUS_OK) return 1;
        if (c2d_tree_query_shape(heap, &probe, &at, ~0ull, shape_of, &scene, count_overlap, over) != C2D_STATUS_OK)
            return 1;
        printf("overlapping %llu %llu\n", over[0], over[1]);
        if (c2d_tree_contacts(heap, &probe, &at, 1.0f, ~0ull, shape_of, &scene, on_contact, &contacts) != C2D_STATUS_OK)
            return 1;
        printf("contacts %u points %u deepest %.5f\n", contacts.shapes, contacts.points, contacts.deepest);
    }
    c2d_tree_query_pairs(tree, on_pair, pairs);
    c2d_tree_query_pairs(heap, on_pair, heap_pairs);
    printf("pairs fixed %llu %llu heap %llu %llu\n", pairs[0], pairs[1], heap_pairs[0], heap_pairs[1]);
    {
        /* Every proxy moved lazily (ancestors only grow), then one partial rebuild with our
         * own scratch: too small a scratch is refused, enough rebuilds. */
        uint32_t scratch[COUNT];
        unsigned moved = 0, short_status, rebuilt, valid;
        unsigned long long lazy_pairs[2] = {0, 0};
        for (i = 0; i < COUNT; ++i) {
            c2d_Aabb b = scene.boxes[i];
            bool m = false;
            b.min.x += 30.0f;
            b.max.x += 30.0f;
            if (c2d_tree_move_proxy_lazy(heap, heap_ids[i], &b, &m) != C2D_STATUS_OK) return 1;
            moved += m ? 1u : 0u;
        }
        short_status = (unsigned)c2d_tree_rebuild_enlarged(heap, scratch, 10);
        rebuilt = (unsigned)c2d_tree_rebuild_enlarged(heap, scratch, COUNT);
        valid = (unsigned)c2d_tree_validate(heap);
        c2d_tree_query_pairs(heap, on_pair, lazy_pairs);
        printf("lazy moved %u short %u rebuild %u validate %u pairs %llu %llu\n", moved, short_status, rebuilt, valid,
               lazy_pairs[0], lazy_pairs[1]);
    }
    {
        /* Per-proxy fat margins (Box2D v3 sizes them by the shape): 0.5 at creation; a
         * move within that box keeps it; one out of it refattens by the margin given then;
         * a negative margin counts as 0. Quarters and halves: exact in binary. */
        c2d_Aabb b = {{200.0f, 200.0f}, {201.0f, 201.0f}}, fat;
        uint32_t id;
        bool m1 = true, m2 = false, m3 = false;
        if (c2d_tree_create_proxy_with_margin(heap, &b, 0.5f, 1, 99, &id) != C2D_STATUS_OK) return 1;
        if (c2d_tree_fat_aabb(heap, id, &fat) != C2D_STATUS_OK) return 1;
        printf("margin fat %.2f %.2f %.2f %.2f\n", fat.min.x, fat.min.y, fat.max.x, fat.max.y);
        b.min.x += 0.25f;
        b.max.x += 0.25f;
        if (c2d_tree_move_proxy_with_margin(heap, id, &b, 0.25f, &m1) != C2D_STATUS_OK) return 1;
        b.min.x += 1.0f;
        b.max.x += 1.0f;
        if (c2d_tree_move_proxy_with_margin(heap, id, &b, 0.25f, &m2) != C2D_STATUS_OK) return 1;
        if (c2d_tree_fat_aabb(heap, id, &fat) != C2D_STATUS_OK) return 1;
        printf("margin moved %d %d fat %.2f %.2f %.2f %.2f\n", (int)m1, (int)m2, fat.min.x, fat.min.y, fat.max.x,
               fat.max.y);
        b.min.y += 2.0f;
        b.max.y += 2.0f;
        if (c2d_tree_move_proxy_lazy_with_margin(heap, id, &b, -1.0f, &m3) != C2D_STATUS_OK) return 1;
        if (c2d_tree_fat_aabb(heap, id, &fat) != C2D_STATUS_OK) return 1;
        printf("margin lazy %d fat %.2f %.2f %.2f %.2f\n", (int)m3, fat.min.x, fat.min.y, fat.max.x, fat.max.y);
        if (c2d_tree_destroy_proxy(heap, id) != C2D_STATUS_OK) return 1;
    }
    /* Sequenced explicitly: C leaves the order of argument evaluation unspecified. */
    {
        unsigned first = (unsigned)c2d_tree_destroy_proxy(tree, ids[0]);
        unsigned again = (unsigned)c2d_tree_destroy_proxy(tree, ids[0]);
        unsigned null_status = (unsigned)c2d_tree_query(NULL, &q, 1, on_query, &sum);
        unsigned valid = (unsigned)c2d_tree_validate(tree);
        printf("destroy %u again %u\n", first, again);
        printf("null %u validate %u\n", null_status, valid);
    }
    c2d_tree_free(heap);
    c2d_tree_free(tree); /* no-op: the memory is ours */
    return 0;
}
