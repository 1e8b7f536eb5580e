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
