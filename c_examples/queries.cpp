// collide2d from C++: distance with a warm-start cache, a shape cast and a time of impact.
// The Rust test suite checks the output.
#include <cstdio>
#include "collide2d.h"

int main() {
    c2d_Shape box, pill;
    c2d_Transform xa = {{0.0f, 0.0f}, {1.0f, 0.0f}};
    c2d_Transform xb = {{2.0f, 0.5f}, {0.8f, 0.6f}};
    if (c2d_make_box(0.5f, 0.5f, &box) != C2D_STATUS_OK) return 1;
    if (c2d_make_capsule({-0.5f, 0.0f}, {0.5f, 0.0f}, 0.2f, &pill) != C2D_STATUS_OK) return 1;

    c2d_SimplexCache cache = {};
    c2d_DistanceOutput d;
    if (c2d_shape_distance(&box, &xa, &pill, &xb, &cache, &d) != C2D_STATUS_OK) return 1;
    std::printf("distance %.6f status %u normal %.6f %.6f\n", d.distance, unsigned(d.status), d.normal.x, d.normal.y);

    c2d_CastOutput c;
    if (c2d_shape_cast(&box, &xa, {0.0f, 0.0f}, &pill, &xb, {-3.0f, -0.5f}, 0.0f, &c) != C2D_STATUS_OK) return 1;
    std::printf("cast state %u fraction %.6f normal %.6f %.6f\n", unsigned(c.state), c.fraction, c.normal.x, c.normal.y);

    c2d_Sweep sa = {{0.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 0.0f}};
    c2d_Sweep sb = {{0.0f, 0.0f}, {2.0f, 0.5f}, {-1.0f, 0.5f}, {0.8f, 0.6f}, {0.6f, 0.8f}};
    c2d_ToiOutput t;
    if (c2d_time_of_impact(&box, &sa, &pill, &sb, 1.0f, &t) != C2D_STATUS_OK) return 1;
    std::printf("toi state %u fraction %.6f\n", unsigned(t.state), t.fraction);
    return 0;
}
