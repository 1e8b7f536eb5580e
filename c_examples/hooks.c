/* The C library's hooks: a counting allocator sees every allocation and free of a tree and a
 * world (the balance is zero after they are freed, and c2d_get_byte_count agrees with it); an
 * allocator that runs out makes c2d_tree_create_proxy, c2d_world_add_body, c2d_tree_create and
 * c2d_world_create return C2D_STATUS_OUT_OF_MEMORY instead of aborting, logs through the log
 * hook, and leaves the tree and the world valid (they go on once memory is back). Built by the
 * tests with AddressSanitizer, which also reports any leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collide2d.h"

typedef struct Counter {
    size_t live_bytes, allocs, frees, budget; /* budget 0: unlimited */
} Counter;

static void *counting_alloc(size_t size, size_t align, void *context) {
    Counter *c = (Counter *)context;
    if (c->budget != 0 && c->live_bytes + size > c->budget) return NULL;
    /* Over-allocate and keep the malloc pointer just below the aligned block. */
    unsigned char *raw = (unsigned char *)malloc(size + align + sizeof(void *));
    if (raw == NULL) return NULL;
    uintptr_t start = (uintptr_t)(raw + sizeof(void *));
    unsigned char *aligned = (unsigned char *)((start + align - 1) & ~(uintptr_t)(align - 1));
    memcpy(aligned - sizeof(void *), &raw, sizeof(void *));
    c->live_bytes += size;
    c->allocs += 1;
    return aligned;
}

static void counting_free(void *memory, size_t size, size_t align, void *context) {
    Counter *c = (Counter *)context;
    unsigned char *raw;
    (void)align;
    memcpy(&raw, (unsigned char *)memory - sizeof(void *), sizeof(void *));
    free(raw);
    c->live_bytes -= size;
    c->frees += 1;
}

static char last_log[256];
static void log_fcn(const char *message, void *context) {
    (void)context;
    strncpy(last_log, message, sizeof last_log - 1);
}

static c2d_Status add_box(c2d_WorldId w, float x, float y, c2d_BodyId *id) {
    c2d_Shape box;
    c2d_Transform xf = c2d_transform_identity();
    c2d_BodyDef def;
    xf.p.x = x;
    xf.p.y = y;
    c2d_make_box(0.5f, 0.5f, &box);
    c2d_body_def(C2D_BODY_KIND_DYNAMIC, &xf, &box, &def);
    return c2d_world_add_body(w, &def, id);
}

int main(void) {
    Counter counter = {0, 0, 0, 0};
    printf("bytes before %zu\n", c2d_get_byte_count());
    c2d_set_log_fcn(log_fcn, NULL);
    printf("half a hook %u\n", (unsigned)c2d_set_allocator(counting_alloc, NULL, &counter));
    printf("set %u\n", (unsigned)c2d_set_allocator(counting_alloc, counting_free, &counter));

    /* Everything goes through the counting allocator. */
    c2d_Tree *tree = NULL;
    c2d_WorldId world = {0};
    uint32_t proxy = 0;
    c2d_BodyId id;
    int ok = c2d_tree_create(&tree) == C2D_STATUS_OK && c2d_world_create(NULL, &world) == C2D_STATUS_OK;
    for (int i = 0; i < 100 && ok; ++i) {
        c2d_Aabb b = {{(float)i, 0.0f}, {(float)i + 0.5f, 0.5f}};
        ok = c2d_tree_create_proxy(tree, &b, 1u, (uint64_t)i, &proxy) == C2D_STATUS_OK;
    }
    for (int i = 0; i < 50 && ok; ++i) ok = add_box(world, (float)(i % 10), 1.0f + (float)(i / 10), &id) == C2D_STATUS_OK;
    for (int i = 0; i < 10 && ok; ++i) ok = c2d_world_step(world, 1.0f / 60.0f, 4) == C2D_STATUS_OK;
    printf("built %d counted %d agree %d\n", ok, counter.live_bytes > 0, c2d_get_byte_count() == counter.live_bytes);
    printf("replace while in use %u\n", (unsigned)c2d_set_allocator(NULL, NULL, NULL));
    c2d_tree_free(tree);
    c2d_world_destroy(world);
    printf("after free: live %zu bytes %zu balanced %d\n", counter.live_bytes, c2d_get_byte_count(),
           counter.allocs == counter.frees && counter.allocs > 0);

    /* Running out: creation fails cleanly ... */
    counter.budget = 1;
    printf("tree create %u world create %u\n", (unsigned)c2d_tree_create(&tree),
           (unsigned)c2d_world_create(NULL, &world));

    /* ... and so does growth, leaving the objects valid. */
    counter.budget = 0;
    c2d_tree_create(&tree);
    c2d_world_create(NULL, &world);
    counter.budget = counter.live_bytes + 20000;
    c2d_Status s = C2D_STATUS_OK;
    int proxies = 0, bodies = 0;
    while (s == C2D_STATUS_OK && proxies < 100000) {
        c2d_Aabb b = {{(float)proxies, 0.0f}, {(float)proxies + 0.5f, 0.5f}};
        s = c2d_tree_create_proxy(tree, &b, 1u, 0u, &proxy);
        proxies += s == C2D_STATUS_OK;
    }
    printf("tree out of memory %d after some %d\n", s == C2D_STATUS_OUT_OF_MEMORY, proxies > 0);
    counter.budget = counter.live_bytes + 40000;
    s = C2D_STATUS_OK;
    while (s == C2D_STATUS_OK && bodies < 100000) {
        s = add_box(world, (float)(bodies % 50), 1.0f + (float)(bodies / 50) * 1.1f, &id);
        bodies += s == C2D_STATUS_OK;
    }
    uint32_t count = 0;
    c2d_world_body_count(world, &count);
    printf("world out of memory %d after some %d, body count kept %d, logged %d\n", s == C2D_STATUS_OUT_OF_MEMORY,
           bodies > 0, count == (uint32_t)bodies, strstr(last_log, "out of memory") != NULL);
    /* Memory is back: both go on. */
    counter.budget = 0;
    c2d_Aabb b = {{-5.0f, -5.0f}, {-4.0f, -4.0f}};
    printf("then: proxy %u validate %u body %u step %u\n", (unsigned)c2d_tree_create_proxy(tree, &b, 1u, 0u, &proxy),
           (unsigned)c2d_tree_validate(tree), (unsigned)add_box(world, -10.0f, 5.0f, &id),
           (unsigned)c2d_world_step(world, 1.0f / 60.0f, 4));
    c2d_tree_free(tree);
    c2d_world_destroy(world);

    /* Stepping with too little memory: every step either runs or reports
     * C2D_STATUS_OUT_OF_MEMORY, and the world steps on once memory is back. */
    int stepped = 0, refused = 0, others = 0;
    for (size_t extra = 0; extra < 400000; extra += 10000) {
        counter.budget = 0;
        c2d_world_create(NULL, &world);
        for (int i = 0; i < 60; ++i) add_box(world, (float)(i % 12) * 1.05f, 1.0f + (float)(i / 12) * 1.05f, &id);
        c2d_Shape ground;
        c2d_Transform gxf = c2d_transform_identity();
        c2d_BodyDef gdef;
        c2d_make_box(50.0f, 0.5f, &ground);
        c2d_body_def(C2D_BODY_KIND_STATIC, &gxf, &ground, &gdef);
        c2d_world_add_body(world, &gdef, &id);
        counter.budget = counter.live_bytes + extra;
        for (int i = 0; i < 30; ++i) {
            c2d_Status st = c2d_world_step(world, 1.0f / 60.0f, 4);
            stepped += st == C2D_STATUS_OK;
            refused += st == C2D_STATUS_OUT_OF_MEMORY;
            others += st != C2D_STATUS_OK && st != C2D_STATUS_OUT_OF_MEMORY;
        }
        counter.budget = 0;
        for (int i = 0; i < 5; ++i) others += c2d_world_step(world, 1.0f / 60.0f, 4) != C2D_STATUS_OK;
        c2d_world_destroy(world);
    }
    printf("steps under a budget: some ran %d, some refused %d, other statuses %d\n", stepped > 0, refused > 0,
           others);
    printf("end: live %zu bytes %zu balanced %d\n", counter.live_bytes, c2d_get_byte_count(),
           counter.allocs == counter.frees);
    printf("restore %u\n", (unsigned)c2d_set_allocator(NULL, NULL, NULL));
    return 0;
}
