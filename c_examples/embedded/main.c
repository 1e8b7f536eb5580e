/* The same collide2d queries on the host and on a Cortex-M4F (QEMU mps2-an386, semihosting).
 * Every float is printed as its IEEE-754 bit pattern, so the two outputs must match exactly. */
#include <stdio.h>
#include <string.h>
#include "collide2d.h"

static unsigned long bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (unsigned long)u;
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
    return 0;
}
