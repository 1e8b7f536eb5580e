/* A tour of the collide2d C ABI: shapes, overlap, a contact manifold and a ray cast.
 * Prints results that the Rust test suite checks against the Rust API. */
#include <stdio.h>
#include "collide2d.h"

int main(void) {
    c2d_Shape ground, ball, bad;
    c2d_Transform id = {{0.0f, 0.0f}, {1.0f, 0.0f}};
    c2d_Transform xb = {{1.0f, 0.9f}, {1.0f, 0.0f}};
    c2d_Manifold m;
    c2d_Vec2 center = {0.0f, 0.0f};
    c2d_Vec2 line[3] = {{0.0f, 0.0f}, {1.0f, 1.0f}, {2.0f, 2.0f}};
    c2d_Ray ray = {{-10.0f, 0.25f}, {20.0f, 0.0f}, 1.0f};
    c2d_RayHit hit;
    bool touching = false, was_hit = false;

    if (c2d_make_box(5.0f, 0.5f, &ground) != C2D_STATUS_OK) return 1;
    if (c2d_make_circle(center, 0.5f, &ball) != C2D_STATUS_OK) return 1;
    if (c2d_overlaps(&ground, &id, &ball, &xb, &touching) != C2D_STATUS_OK) return 1;
    printf("overlaps %d\n", touching ? 1 : 0);
    if (c2d_collide(&ground, &id, &ball, &xb, 0.0f, &m) != C2D_STATUS_OK) return 1;
    printf("manifold %u normal %.6f %.6f\n", (unsigned)m.count, m.normal.x, m.normal.y);
    for (uint32_t i = 0; i < m.count; ++i) {
        printf("point %.6f %.6f depth %.6f id %u\n", m.points[i].point.x, m.points[i].point.y,
               m.points[i].depth, (unsigned)m.points[i].id);
    }
    if (c2d_ray_cast(&ground, &id, &ray, &was_hit, &hit) != C2D_STATUS_OK) return 1;
    printf("ray %d fraction %.6f normal %.6f %.6f\n", was_hit ? 1 : 0, hit.fraction, hit.normal.x, hit.normal.y);
    printf("collinear status %u\n", (unsigned)c2d_make_polygon(line, 3, 0.0f, &bad));
    printf("null status %u\n", (unsigned)c2d_collide(NULL, &id, &ball, &xb, 0.0f, &m));
    return 0;
}
