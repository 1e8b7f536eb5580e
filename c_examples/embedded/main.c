/* The same collide2d queries on the host and on a Cortex-M4F (QEMU mps2-an386, semihosting).
 * Every float is printed as its IEEE-754 bit pattern, so the two outputs must match exactly. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "collide2d.h"

static unsigned long bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (unsigned long)u;
}

/* The determinism check (as Box2D's test_determinism, in immediate mode, no allocator): a
 * pyramid of 6 rows (21 boxes, each row offset and turned slightly so it collapses into a
 * pile) on a static ground, 150 steps at 60 Hz with 4 sub-steps, contacts found by brute
 * force and warm-started by pair; the final transforms are hashed (FNV-1a over their bit
 * patterns). Host and Cortex-M4F must print the same hash. */
#define ROWS 6
#define BODIES (1 + ROWS * (ROWS + 1) / 2)
#define PAIRS (BODIES * (BODIES - 1) / 2)

static c2d_Body bodies[BODIES];
static c2d_ContactConstraint previous[PAIRS], contacts[PAIRS];
static bool had[PAIRS];

static int pyramid(void) {
    c2d_Shape ground, unit;
    c2d_MassData mass;
    c2d_SolverSettings settings;
    c2d_Transform g = {{0.0f, -0.5f}, {1.0f, 0.0f}};
    uint32_t n = 1, i, j, k, step;
    uint64_t hash = 1469598103934665603ull;
    if (c2d_make_box(20.0f, 0.5f, &ground) || c2d_make_box(0.5f, 0.5f, &unit) ||
        c2d_shape_mass(&unit, 1.0f, &mass) || c2d_solver_default_settings(&settings) ||
        c2d_body_make_static(&g, &bodies[0])) {
        printf("pyramid setup failed\n");
        return 1;
    }
    for (i = 0; i < ROWS; ++i) {
        for (j = 0; j < ROWS - i; ++j) {
            float x = (float)j - 0.5f * (float)(ROWS - i - 1) + 0.3f * (float)i;
            /* A slight turn, normalised with sqrtf (correctly rounded on both targets). */
            float t = 0.05f * (float)(i + j), len = sqrtf(1.0f + t * t);
            c2d_Transform xf = {{x, 0.5f + 1.02f * (float)i}, {1.0f / len, t / len}};
            if (c2d_body_make_dynamic(&xf, &mass, &bodies[n++])) {
                printf("body failed\n");
                return 1;
            }
        }
    }
    for (step = 0; step < 150; ++step) {
        uint32_t count = 0, pair = 0;
        for (i = 0; i < BODIES; ++i) {
            for (j = i + 1; j < BODIES; ++j, ++pair) {
                const c2d_Shape *si = i == 0 ? &ground : &unit;
                c2d_Manifold mm;
                c2d_collide(si, &bodies[i].transform, &unit, &bodies[j].transform, 0.02f, &mm);
                if (mm.count == 0) {
                    had[pair] = false;
                    continue;
                }
                c2d_Status st = c2d_prepare_contact(bodies, BODIES, i, j, &mm, 0.6f, 0.0f,
                                                    had[pair] ? &previous[pair] : NULL, &contacts[count]);
                if (st) {
                    printf("prepare failed: %u\n", (unsigned)st);
                    return 1;
                }
                count++;
                had[pair] = true;
            }
        }
        if (c2d_solver_step(bodies, BODIES, contacts, count, &settings, 1.0f / 60.0f)) {
            printf("step failed\n");
            return 1;
        }
        /* Store each pair's constraint for next step's warm start (same pair order). */
        pair = 0;
        k = 0;
        for (i = 0; i < BODIES; ++i)
            for (j = i + 1; j < BODIES; ++j, ++pair)
                if (had[pair]) previous[pair] = contacts[k++];
    }
    for (i = 1; i < BODIES; ++i) {
        float f[4] = {bodies[i].transform.p.x, bodies[i].transform.p.y, bodies[i].transform.q.c,
                      bodies[i].transform.q.s};
        for (k = 0; k < 4; ++k) {
            uint32_t u = (uint32_t)bits(f[k]);
            for (j = 0; j < 4; ++j) {
                hash ^= (u >> (8 * j)) & 0xffu;
                hash *= 1099511628211ull;
            }
        }
    }
    printf("pyramid top %08lx %08lx\n", bits(bodies[BODIES - 1].transform.p.x), bits(bodies[BODIES - 1].transform.p.y));
    printf("pyramid hash %08lx%08lx\n", (unsigned long)(hash >> 32), (unsigned long)(hash & 0xffffffffu));
    return 0;
}

int main(void) {
    c2d_Shape box, ball, pill, rock;
    c2d_Transform id = {{0.0f, 0.0f}, {1.0f, 0.0f}};
    c2d_Transform xb = {{0.3f, 0.85f}, {0.8f, 0.6f}};
    c2d_Vec2 pts[5] = {{-0.6f, -0.4f}, {0.7f, -0.5f}, {0.4f, 0.6f}, {-0.5f, 0.5f}, {0.0f, 0.7f}};
    c2d_Vec2 o = {0.0f, 0.0f}, a = {-0.5f, 0.0f}, b = {0.5f, 0.0f};
    c2d_Manifold m;
    c2d_DistanceOutput d;
    c2d_CastOutput c;
    c2d_Ray ray = {{-3.0f, 0.2f}, {6.0f, 0.1f}, 1.0f};
    c2d_RayHit h;
    bool hit = false;
    uint32_t i;

    if (c2d_make_box(0.5f, 0.5f, &box) || c2d_make_circle(o, 0.4f, &ball) ||
        c2d_make_capsule(a, b, 0.2f, &pill) || c2d_make_polygon(pts, 5, 0.05f, &rock)) {
        printf("make failed\n");
        return 1;
    }
    c2d_collide(&box, &id, &rock, &xb, 0.0f, &m);
    printf("manifold %u n %08lx %08lx\n", (unsigned)m.count, bits(m.normal.x), bits(m.normal.y));
    for (i = 0; i < m.count; ++i)
        printf("  p %08lx %08lx d %08lx id %lu\n", bits(m.points[i].point.x), bits(m.points[i].point.y),
               bits(m.points[i].depth), (unsigned long)m.points[i].id);
    c2d_collide(&pill, &id, &ball, &xb, 0.0f, &m);
    printf("capsule-ball %u d %08lx\n", (unsigned)m.count, bits(m.count ? m.points[0].depth : 0.0f));
    c2d_shape_distance(&box, &id, &pill, &xb, NULL, &d);
    printf("distance %08lx status %u\n", bits(d.distance), (unsigned)d.status);
    c2d_ray_cast(&rock, &xb, &ray, &hit, &h);
    printf("ray %d f %08lx n %08lx %08lx\n", hit ? 1 : 0, bits(hit ? h.fraction : 0.0f), bits(hit ? h.normal.x : 0.0f),
           bits(hit ? h.normal.y : 0.0f));
    c2d_shape_cast(&box, &id, o, &ball, &xb, (c2d_Vec2){-2.0f, -3.0f}, 0.0f, &c);
    printf("cast %u f %08lx\n", (unsigned)c.state, bits(c.fraction));
    return pyramid();
}
