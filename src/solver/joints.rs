//! Joints in the World's soft step: the joint set of Box2D 3.2-dev (distance, revolute,
//! prismatic, weld, wheel, motor; the filter joint only keeps two bodies from colliding),
//! each prepared once per step and solved, scalar, before the contacts in every sub-step
//! phase (warm start, solve with bias, relax without), as Box2D solves them.
//!
//! A joint is defined by a frame on each body (a point and a rotation in the body frame):
//! the joint's x axis is frame A's x axis (the prismatic and wheel axis), its angle is frame
//! B's rotation relative to frame A's (counter-clockwise positive), its translation is frame
//! B's origin relative to frame A's along that axis. Impulses are applied `+` to body B and
//! `−` to body A. Rigid constraints use the joint's constraint softness (Box2D's 60 Hz,
//! damping ratio 2, capped at a quarter of the sub-step rate); springs use their own hertz
//! and damping ratio; limits are speculative (a limit that is not reached yet lets the body
//! approach it within one sub-step, as a contact's speculative point does).

use crate::math::Vec2;

/// A distance joint: keeps the frames' origins `length` apart (rigid), or holds them there
/// with a spring, between `min_length` and `max_length` when the limit is on; a motor drives
/// the length's rate of change.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceJoint {
    /// Rest length (m), `> 0`.
    pub length: f32,
    /// A spring instead of a rigid rod (needs `hertz > 0`; with the limit on, also
    /// `min_length < max_length`).
    pub enable_spring: bool,
    /// The spring's force bounds (N): the spring pushes at most `-lower_spring_force` and pulls
    /// at most `upper_spring_force` (default unbounded).
    pub lower_spring_force: f32,
    /// See `lower_spring_force`.
    pub upper_spring_force: f32,
    /// Spring stiffness (Hz); 0 is a free length between the limits.
    pub hertz: f32,
    /// Spring damping ratio (1 is critical).
    pub damping_ratio: f32,
    /// Keep the length within `[min_length, max_length]` (with the spring on).
    pub enable_limit: bool,
    /// Shortest length (m).
    pub min_length: f32,
    /// Longest length (m).
    pub max_length: f32,
    /// Drive the length's rate at `motor_speed` with at most `max_motor_force` (with the spring on).
    pub enable_motor: bool,
    /// Largest motor force (N).
    pub max_motor_force: f32,
    /// Target rate of lengthening (m/s).
    pub motor_speed: f32,
}

impl Default for DistanceJoint {
    fn default() -> Self {
        DistanceJoint {
            length: 1.0,
            enable_spring: false,
            lower_spring_force: -f32::MAX,
            upper_spring_force: f32::MAX,
            hertz: 0.0,
            damping_ratio: 0.0,
            enable_limit: false,
            min_length: 0.0,
            max_length: HUGE,
            enable_motor: false,
            max_motor_force: 0.0,
            motor_speed: 0.0,
        }
    }
}

/// A revolute joint (hinge): the frames' origins kept together, the bodies free to turn
/// about them; a spring towards `target_angle`, angle limits and a motor.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RevoluteJoint {
    /// The angle the spring pulls towards (rad).
    pub target_angle: f32,
    /// A rotational spring towards `target_angle`.
    pub enable_spring: bool,
    /// Spring stiffness (Hz).
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
    /// Keep the angle within `[lower_angle, upper_angle]` (rad, within `[-0.99π, 0.99π]`).
    pub enable_limit: bool,
    /// Lowest angle (rad).
    pub lower_angle: f32,
    /// Highest angle (rad).
    pub upper_angle: f32,
    /// Drive the relative angular speed at `motor_speed` with at most `max_motor_torque`.
    pub enable_motor: bool,
    /// Largest motor torque (N·m).
    pub max_motor_torque: f32,
    /// Target relative angular speed (rad/s, counter-clockwise positive).
    pub motor_speed: f32,
}

/// A prismatic joint (slider): body B moves along frame A's x axis without turning relative
/// to A; a spring towards `target_translation`, translation limits and a motor.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PrismaticJoint {
    /// A spring along the axis towards `target_translation`.
    pub enable_spring: bool,
    /// Spring stiffness (Hz).
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
    /// The translation the spring pulls towards (m).
    pub target_translation: f32,
    /// Keep the translation within `[lower_translation, upper_translation]`.
    pub enable_limit: bool,
    /// Lowest translation (m).
    pub lower_translation: f32,
    /// Highest translation (m).
    pub upper_translation: f32,
    /// Drive the translation's rate at `motor_speed` with at most `max_motor_force`.
    pub enable_motor: bool,
    /// Largest motor force (N).
    pub max_motor_force: f32,
    /// Target speed along the axis (m/s).
    pub motor_speed: f32,
}

/// A weld joint: the frames kept together and aligned, rigidly (hertz 0) or softly (a linear
/// and an angular spring).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WeldJoint {
    /// Linear stiffness (Hz); 0 is rigid.
    pub linear_hertz: f32,
    /// Angular stiffness (Hz); 0 is rigid.
    pub angular_hertz: f32,
    /// Linear damping ratio.
    pub linear_damping_ratio: f32,
    /// Angular damping ratio.
    pub angular_damping_ratio: f32,
}

/// A wheel joint: body B (the wheel) slides along frame A's x axis (the suspension axis) on a
/// spring and turns freely; translation limits and a motor that turns the wheel.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelJoint {
    /// The suspension spring along the axis.
    pub enable_spring: bool,
    /// Suspension stiffness (Hz).
    pub hertz: f32,
    /// Suspension damping ratio.
    pub damping_ratio: f32,
    /// Keep the translation within `[lower_translation, upper_translation]`.
    pub enable_limit: bool,
    /// Lowest translation (m).
    pub lower_translation: f32,
    /// Highest translation (m).
    pub upper_translation: f32,
    /// Drive the wheel's relative angular speed at `motor_speed` with at most `max_motor_torque`.
    pub enable_motor: bool,
    /// Largest motor torque (N·m).
    pub max_motor_torque: f32,
    /// Target relative angular speed (rad/s).
    pub motor_speed: f32,
}

impl Default for WheelJoint {
    fn default() -> Self {
        WheelJoint {
            enable_spring: true,
            hertz: 1.0,
            damping_ratio: 0.7,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            max_motor_torque: 0.0,
            motor_speed: 0.0,
        }
    }
}

/// A motor joint: drives body B's frame towards body A's (a spring with force and torque
/// bounds) and at a relative velocity (bounded too): how a game drags a body with the mouse
/// (A a static body, B the dragged one, frame A moved each frame) or animates a body while
/// it still collides.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MotorJoint {
    /// Target relative linear velocity of B's frame origin (m/s, world).
    pub linear_velocity: Vec2,
    /// Largest force driving the velocity (N); 0: no velocity drive.
    pub max_velocity_force: f32,
    /// Target relative angular velocity (rad/s).
    pub angular_velocity: f32,
    /// Largest torque driving the angular velocity (N·m); 0: none.
    pub max_velocity_torque: f32,
    /// Stiffness of the spring pulling B's frame origin to A's (Hz); 0: no spring.
    pub linear_hertz: f32,
    /// Its damping ratio.
    pub linear_damping_ratio: f32,
    /// Largest spring force (N).
    pub max_spring_force: f32,
    /// Stiffness of the spring turning B's frame to A's (Hz); 0: none.
    pub angular_hertz: f32,
    /// Its damping ratio.
    pub angular_damping_ratio: f32,
    /// Largest spring torque (N·m).
    pub max_spring_torque: f32,
}

/// What a joint does: its kind and that kind's settings.
#[repr(C, u32)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointKind {
    /// See [`DistanceJoint`].
    Distance(DistanceJoint) = 0,
    /// See [`RevoluteJoint`].
    Revolute(RevoluteJoint) = 1,
    /// See [`PrismaticJoint`].
    Prismatic(PrismaticJoint) = 2,
    /// See [`WeldJoint`].
    Weld(WeldJoint) = 3,
    /// See [`WheelJoint`].
    Wheel(WheelJoint) = 4,
    /// See [`MotorJoint`].
    Motor(MotorJoint) = 5,
    /// No constraint: only keeps the two bodies from colliding (Box2D's filter joint).
    Filter = 6,
}

/// Box2D's "huge" length: a maximum that is never reached.
pub(crate) const HUGE: f32 = 100_000.0;

/// A joint's accumulated impulses (N·s, N·m·s per sub-step), kept between steps for warm
/// starting and read for the reaction force and torque. Which fields a kind uses is stated
/// at each.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct JointImpulses {
    /// Revolute and weld: the point constraint; prismatic: (perpendicular, angular); motor:
    /// the velocity drive.
    pub linear: Vec2,
    /// Motor: the linear spring.
    pub linear_spring: Vec2,
    /// Distance: along the axis (rigid or spring); weld: angular; wheel: perpendicular;
    /// motor: the angular velocity drive.
    pub axial: f32,
    /// Revolute, prismatic and wheel: the spring; motor: the angular spring.
    pub spring: f32,
    /// The motor.
    pub motor: f32,
    /// The lower limit (`>= 0`).
    pub lower: f32,
    /// The upper limit (`>= 0`).
    pub upper: f32,
}
