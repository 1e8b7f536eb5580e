/* Links collide2d next to another Rust static library (with std, unwinding panics and the
 * default allocator) and calls both: the link must succeed in either order, and each library
 * must keep its own runtime (the other one's caught panic still unwinds). */
#include <stdio.h>
#include <stdint.h>
#include "collide2d.h"

int64_t other_rust_sum(uint32_t n);

int main(void) {
    c2d_Tree *tree = NULL;
    c2d_Status s = c2d_tree_create(&tree);
    c2d_Aabb box = {{0.0f, 0.0f}, {1.0f, 1.0f}};
    uint32_t id = 0;
    if (s == C2D_STATUS_OK) s = c2d_tree_create_proxy(tree, &box, 1u, 7u, &id);
    c2d_tree_free(tree);
    printf("collide2d %u other %lld caught %lld\n", (unsigned)s, (long long)other_rust_sum(10),
           (long long)other_rust_sum(5000));
    return 0;
}
