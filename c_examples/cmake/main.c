/* The CMake consumer's program: a box resting on the ground, the library's version, and a
 * tree built and freed (heap allocation through the library). Same output from the static
 * and the shared library. */
#include <stdio.h>
#include "collide2d.h"

int main(void) {
    c2d_Shape ground, box;
    c2d_Manifold m;
    c2d_Transform xg = c2d_transform_identity(), xb = c2d_transform_identity();
    c2d_Version v = c2d_get_version();
    c2d_Tree *tree = NULL;
    c2d_Aabb bounds = {{0.0f, 0.0f}, {1.0f, 1.0f}};
    uint32_t id = 0;
    xb.p.y = 0.9f;
    if (c2d_make_box(5.0f, 0.5f, &ground) != C2D_STATUS_OK || c2d_make_box(0.5f, 0.5f, &box) != C2D_STATUS_OK ||
        c2d_collide(&ground, &xg, &box, &xb, 0.0f, &m) != C2D_STATUS_OK || c2d_tree_create(&tree) != C2D_STATUS_OK ||
        c2d_tree_create_proxy(tree, &bounds, 1u, 42u, &id) != C2D_STATUS_OK) {
        printf("failed\n");
        return 1;
    }
    c2d_tree_free(tree);
    printf("collide2d %u.%u.%u (header %d.%d.%d): %u points, normal %.3f %.3f, depth %.3f, proxy %u\n", v.major,
           v.minor, v.patch, C2D_VERSION_MAJOR, C2D_VERSION_MINOR, C2D_VERSION_PATCH, m.count, (double)m.normal.x,
           (double)m.normal.y, (double)m.points[0].depth, id);
    return 0;
}
