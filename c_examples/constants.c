/* The header's constants and version from C++ (the C twin of constants.cpp, built by the tests as C99
 * with -Wall -Wextra -Wpedantic -Werror): the macros are plain
 * numbers, the value-type constants are inline functions, and the version macros match the
 * library's c2d_get_version. */
#include <stdio.h>
#include "collide2d.h"

int main(void) {
    c2d_Transform xf = c2d_transform_identity();
    c2d_Vec2 zero = c2d_vec2_zero();
    c2d_Rot q = c2d_rot_identity();
    c2d_Filter f = c2d_filter_default();
    float vertices[C2D_MAX_POLYGON_VERTICES];
    for (int i = 0; i < C2D_MAX_POLYGON_VERTICES; ++i) vertices[i] = (float)i;
    c2d_Version v = c2d_get_version();
    printf("header %d.%d.%d library %u.%u.%u\n", C2D_VERSION_MAJOR, C2D_VERSION_MINOR, C2D_VERSION_PATCH,
                v.major, v.minor, v.patch);
    printf("identity %g %g %g %g zero %g %g rot %g %g\n", (double)xf.p.x, (double)xf.p.y, (double)xf.q.c,
                (double)xf.q.s, (double)zero.x, (double)zero.y, (double)q.c, (double)q.s);
    printf("filter %llu %llu %d max vertices %d last %g null node %u status %u\n",
                (unsigned long long)f.category_bits, (unsigned long long)f.mask_bits, (int)f.group_index,
                C2D_MAX_POLYGON_VERTICES, (double)vertices[C2D_MAX_POLYGON_VERTICES - 1], (unsigned)C2D_NULL_NODE,
                (unsigned)C2D_STATUS_OK);
    return 0;
}
