/* Joints from C: a pendulum on a revolute joint, a slider on a prismatic joint with a motor
 * and a limit, a box dragged by a motor joint, and a joint that breaks. Prints the layout of
 * c2d_JointDef (checked against Rust's), then positions, forces and events (the Rust test
 * suite builds the same scene through the Rust API and checks every line). */
#include <float.h>
#include <stddef.h>
#include <stdio.h>
#include "collide2d.h"

static c2d_BodyId add(c2d_WorldId w, c2d_BodyKind kind, float x, float y, const c2d_Shape *shape) {
    c2d_Transform xf = {{x, y}, {1.0f, 0.0f}};
    c2d_BodyDef def;
    c2d_BodyId id = {0, 0};
    c2d_body_def(kind, &xf, shape, &def);
    if (c2d_world_add_body(w, &def, &id) != C2D_STATUS_OK) printf("add_body failed\n");
    return id;
}

int main(void) {
    printf("layout %u %u %u %u %u %u %u %u %u\n", (unsigned)sizeof(c2d_JointDef), (unsigned)sizeof(c2d_JointKind),
           (unsigned)offsetof(c2d_JointDef, body_a), (unsigned)offsetof(c2d_JointDef, local_frame_a),
           (unsigned)offsetof(c2d_JointDef, force_threshold), (unsigned)offsetof(c2d_JointDef, constraint_hertz),
           (unsigned)offsetof(c2d_JointDef, user_data), (unsigned)offsetof(c2d_JointDef, collide_connected),
           (unsigned)offsetof(c2d_JointKind, u));

    c2d_WorldId w;
    c2d_world_create(NULL, &w);
    c2d_Shape pin, bob, block;
    c2d_make_circle(c2d_vec2_zero(), 0.05f, &pin);
    c2d_make_circle(c2d_vec2_zero(), 0.1f, &bob);
    c2d_make_box(0.2f, 0.2f, &block);

    /* A pendulum: hinge at (0, 5), bob 1 m away at 0.64 rad. */
    c2d_BodyId top = add(w, C2D_BODY_KIND_STATIC, 0.0f, 5.0f, &pin);
    c2d_BodyId ball = add(w, C2D_BODY_KIND_DYNAMIC, 0.6f, 5.0f - 0.8f, &bob);
    c2d_JointDef def;
    c2d_joint_def(C2D_JOINT_REVOLUTE, top, ball, &def);
    c2d_Transform xa = {{0.0f, 5.0f}, {1.0f, 0.0f}};
    c2d_Transform xb = {{0.6f, 5.0f - 0.8f}, {1.0f, 0.0f}};
    c2d_Vec2 anchor = {0.0f, 5.0f};
    c2d_joint_def_at_world_anchor(&def, anchor, &xa, &xb);
    c2d_JointId hinge;
    printf("revolute: status %u\n", (unsigned)c2d_world_add_joint(w, &def, &hinge));

    /* A slider on a prismatic joint along +x, motor 1 m/s, limit 0.5 m. */
    c2d_BodyId base = add(w, C2D_BODY_KIND_STATIC, 5.0f, 0.0f, &pin);
    c2d_BodyId slider = add(w, C2D_BODY_KIND_DYNAMIC, 5.0f, 0.0f, &block);
    c2d_joint_def(C2D_JOINT_PRISMATIC, base, slider, &def);
    def.kind.u.prismatic.enable_motor = true;
    def.kind.u.prismatic.max_motor_force = 50.0f;
    def.kind.u.prismatic.motor_speed = 1.0f;
    def.kind.u.prismatic.enable_limit = true;
    def.kind.u.prismatic.lower_translation = 0.0f;
    def.kind.u.prismatic.upper_translation = 0.5f;
    c2d_JointId prismatic;
    printf("prismatic: status %u\n", (unsigned)c2d_world_add_joint(w, &def, &prismatic));

    /* A box dragged towards (10, 3) by a motor joint on a static body. */
    c2d_BodyId ground = add(w, C2D_BODY_KIND_STATIC, 10.0f, 3.0f, &pin);
    c2d_BodyId dragged = add(w, C2D_BODY_KIND_DYNAMIC, 12.0f, 3.0f, &block);
    c2d_joint_def(C2D_JOINT_MOTOR, ground, dragged, &def);
    def.kind.u.motor.linear_hertz = 4.0f;
    def.kind.u.motor.linear_damping_ratio = 1.0f;
    def.kind.u.motor.max_spring_force = 100.0f;
    def.kind.u.motor.max_velocity_force = 0.0f;
    c2d_JointId motor;
    printf("motor: status %u\n", (unsigned)c2d_world_add_joint(w, &def, &motor));

    /* A weld that breaks under a 1 N threshold (the box weighs 1.6 N). */
    c2d_BodyId hook = add(w, C2D_BODY_KIND_STATIC, -5.0f, 5.0f, &pin);
    c2d_BodyId hanging = add(w, C2D_BODY_KIND_DYNAMIC, -5.0f, 4.5f, &block);
    c2d_joint_def(C2D_JOINT_WELD, hook, hanging, &def);
    def.force_threshold = 1.0f;
    def.user_data = 42;
    c2d_JointId weld;
    printf("weld: status %u\n", (unsigned)c2d_world_add_joint(w, &def, &weld));

    /* Refused: an unknown tag, a bool that is not 0 or 1, a lower limit above the upper. */
    c2d_JointDef bad = def;
    bad.kind.tag = 9;
    c2d_JointId unused;
    printf("tag 9: status %u\n", (unsigned)c2d_world_add_joint(w, &bad, &unused));
    c2d_joint_def(C2D_JOINT_REVOLUTE, top, ball, &bad);
    unsigned char two = 2;
    *(unsigned char *)&bad.collide_connected = two;
    printf("bool 2: status %u\n", (unsigned)c2d_world_add_joint(w, &bad, &unused));
    c2d_joint_def(C2D_JOINT_REVOLUTE, top, ball, &bad);
    bad.kind.u.revolute.enable_limit = true;
    bad.kind.u.revolute.lower_angle = 1.0f;
    bad.kind.u.revolute.upper_angle = -1.0f;
    printf("limits: status %u\n", (unsigned)c2d_world_add_joint(w, &bad, &unused));

    size_t broke = 0;
    for (int i = 0; i < 90; ++i) {
        c2d_world_step(w, 1.0f / 60.0f, 4);
        size_t n = 0;
        c2d_JointEvent events[4];
        c2d_world_joint_events(w, events, 4, &n);
        for (size_t k = 0; k < n && k < 4; ++k) {
            printf("step %d: joint %u event %u user %llu\n", i, (unsigned)events[k].joint.index,
                   (unsigned)events[k].kind, (unsigned long long)events[k].user_data);
            broke += 1;
        }
    }
    c2d_Body b;
    c2d_BodyId show[4] = {ball, slider, dragged, hanging};
    for (int k = 0; k < 4; ++k) {
        c2d_world_get_body(w, show[k], &b);
        printf("body %d: %.6f %.6f\n", k, b.transform.p.x, b.transform.p.y);
    }
    c2d_Vec2 force;
    float torque;
    c2d_world_joint_reaction(w, hinge, &force, &torque);
    printf("hinge force %.6f %.6f\n", force.x, force.y);
    bool enabled = true;
    c2d_world_joint_enabled(w, weld, &enabled);
    size_t count = 0;
    c2d_world_joint_count(w, &count);
    printf("weld enabled %d, joints %zu, broke %zu\n", (int)enabled, count, broke);
    c2d_JointId on_top[4];
    c2d_world_body_joints(w, top, on_top, 4, &count);
    printf("joints on the pin %zu\n", count);
    c2d_Status first = c2d_world_remove_joint(w, hinge);
    c2d_Status again = c2d_world_remove_joint(w, hinge);
    printf("remove: status %u, again: status %u\n", (unsigned)first, (unsigned)again);
    c2d_world_destroy(w);
    return 0;
}
