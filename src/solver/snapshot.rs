//! The solver's values in a world snapshot's byte encoding (see `crate::wire`).

use super::lanes::{Wide, V2};
use super::layout::{ContactLanes, PointLanes};
use super::prepare::Carried;
use super::{Body, SolverSettings};
use crate::math::{Rot, Transform, Vec2};
use crate::wire::{wire_struct, In, Out, Wire, WireError};

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide([0.0; N])
    }
}

impl<const N: usize> Wire for Wide<N> {
    const MIN: usize = 4 * N;
    #[inline]
    fn put(&self, o: &mut Out) {
        self.0.put(o);
    }
    #[inline]
    fn take(i: &mut In) -> Result<Self, WireError> {
        Ok(Wide(<[f32; N]>::take(i)?))
    }
}

impl<T: Wire> Wire for V2<T> {
    const MIN: usize = 2 * T::MIN;
    #[inline]
    fn put(&self, o: &mut Out) {
        self.x.put(o);
        self.y.put(o);
    }
    #[inline]
    fn take(i: &mut In) -> Result<Self, WireError> {
        Ok(V2 {
            x: T::take(i)?,
            y: T::take(i)?,
        })
    }
}

impl<const N: usize> Wire for PointLanes<N> {
    const MIN: usize = 11 * 4 * N;
    fn put(&self, o: &mut Out) {
        self.ra.put(o);
        self.rb.put(o);
        self.base_separation.put(o);
        self.normal_impulse.put(o);
        self.tangent_impulse.put(o);
        self.max_normal_impulse.put(o);
        self.normal_mass.put(o);
        self.tangent_mass.put(o);
        self.relative_velocity.put(o);
        self.active.put(o);
    }
    fn take(i: &mut In) -> Result<Self, WireError> {
        Ok(PointLanes {
            ra: Wire::take(i)?,
            rb: Wire::take(i)?,
            base_separation: Wire::take(i)?,
            normal_impulse: Wire::take(i)?,
            tangent_impulse: Wire::take(i)?,
            max_normal_impulse: Wire::take(i)?,
            normal_mass: Wire::take(i)?,
            tangent_mass: Wire::take(i)?,
            relative_velocity: Wire::take(i)?,
            active: Wire::take(i)?,
        })
    }
}

impl<const N: usize> Wire for ContactLanes<N> {
    const MIN: usize = 4 * N * 8 + 2 * PointLanes::<N>::MIN;
    fn put(&self, o: &mut Out) {
        self.n.put(o);
        self.friction.put(o);
        self.restitution.put(o);
        self.points[0].put(o);
        self.points[1].put(o);
        self.k.put(o);
        self.paired.put(o);
    }
    fn take(i: &mut In) -> Result<Self, WireError> {
        Ok(ContactLanes {
            n: Wire::take(i)?,
            friction: Wire::take(i)?,
            restitution: Wire::take(i)?,
            points: [Wire::take(i)?, Wire::take(i)?],
            k: Wire::take(i)?,
            paired: Wire::take(i)?,
        })
    }
}

wire_struct!(Carried {
    count: u32,
    points: [(u32, Vec2, f32, f32); 2],
});

wire_struct!(Body {
    transform: Transform,
    local_center: Vec2,
    linear_velocity: Vec2,
    angular_velocity: f32,
    inv_mass: f32,
    inv_inertia: f32,
    gravity_scale: f32,
    linear_damping: f32,
    angular_damping: f32,
    force: Vec2,
    torque: f32,
    delta_position: Vec2,
    delta_rotation: Rot,
});

wire_struct!(SolverSettings {
    gravity: Vec2,
    substeps: u32,
    contact_hertz: f32,
    contact_damping_ratio: f32,
    contact_push_max_velocity: f32,
    restitution_threshold: f32,
    max_linear_speed: f32,
});

use super::joints::{
    DistanceJoint, JointImpulses, JointKind, MotorJoint, PrismaticJoint, RevoluteJoint, WeldJoint, WheelJoint,
};

wire_struct!(DistanceJoint {
    length: f32,
    enable_spring: bool,
    lower_spring_force: f32,
    upper_spring_force: f32,
    hertz: f32,
    damping_ratio: f32,
    enable_limit: bool,
    min_length: f32,
    max_length: f32,
    enable_motor: bool,
    max_motor_force: f32,
    motor_speed: f32,
});
wire_struct!(RevoluteJoint {
    target_angle: f32,
    enable_spring: bool,
    hertz: f32,
    damping_ratio: f32,
    enable_limit: bool,
    lower_angle: f32,
    upper_angle: f32,
    enable_motor: bool,
    max_motor_torque: f32,
    motor_speed: f32,
});
wire_struct!(PrismaticJoint {
    enable_spring: bool,
    hertz: f32,
    damping_ratio: f32,
    target_translation: f32,
    enable_limit: bool,
    lower_translation: f32,
    upper_translation: f32,
    enable_motor: bool,
    max_motor_force: f32,
    motor_speed: f32,
});
wire_struct!(WeldJoint {
    linear_hertz: f32,
    angular_hertz: f32,
    linear_damping_ratio: f32,
    angular_damping_ratio: f32,
});
wire_struct!(WheelJoint {
    enable_spring: bool,
    hertz: f32,
    damping_ratio: f32,
    enable_limit: bool,
    lower_translation: f32,
    upper_translation: f32,
    enable_motor: bool,
    max_motor_torque: f32,
    motor_speed: f32,
});
wire_struct!(MotorJoint {
    linear_velocity: Vec2,
    max_velocity_force: f32,
    angular_velocity: f32,
    max_velocity_torque: f32,
    linear_hertz: f32,
    linear_damping_ratio: f32,
    max_spring_force: f32,
    angular_hertz: f32,
    angular_damping_ratio: f32,
    max_spring_torque: f32,
});
wire_struct!(JointImpulses {
    linear: Vec2,
    linear_spring: Vec2,
    axial: f32,
    spring: f32,
    motor: f32,
    lower: f32,
    upper: f32,
});

/// A joint kind: its tag, then its settings.
impl Wire for JointKind {
    const MIN: usize = 1;
    fn put(&self, o: &mut Out) {
        match self {
            JointKind::Distance(j) => {
                0u8.put(o);
                j.put(o);
            }
            JointKind::Revolute(j) => {
                1u8.put(o);
                j.put(o);
            }
            JointKind::Prismatic(j) => {
                2u8.put(o);
                j.put(o);
            }
            JointKind::Weld(j) => {
                3u8.put(o);
                j.put(o);
            }
            JointKind::Wheel(j) => {
                4u8.put(o);
                j.put(o);
            }
            JointKind::Motor(j) => {
                5u8.put(o);
                j.put(o);
            }
            JointKind::Filter => 6u8.put(o),
        }
    }
    fn take(i: &mut In) -> Result<Self, WireError> {
        Ok(match u8::take(i)? {
            0 => JointKind::Distance(Wire::take(i)?),
            1 => JointKind::Revolute(Wire::take(i)?),
            2 => JointKind::Prismatic(Wire::take(i)?),
            3 => JointKind::Weld(Wire::take(i)?),
            4 => JointKind::Wheel(Wire::take(i)?),
            5 => JointKind::Motor(Wire::take(i)?),
            6 => JointKind::Filter,
            _ => return Err(WireError::Invalid),
        })
    }
}
