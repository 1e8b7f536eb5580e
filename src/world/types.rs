//! The world's public value types: body kinds, materials, body definitions, ids, events,
//! query filters and query hits.

use crate::cast::CastOutput;
use crate::geometry::Shape;
use crate::math::{Transform, Vec2};
use crate::narrowphase::Manifold;
use crate::raycast::RayHit;
use crate::tree::Filter;

#[allow(unused_imports)] // doc links
use super::World;

/// How a body moves.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BodyKind {
    /// Never moves; infinite mass.
    Static = 0,
    /// Moves with its set velocity; infinite mass, ignores gravity and contacts.
    Kinematic = 1,
    /// Moved by gravity and contacts.
    Dynamic = 2,
}

/// Surface and mass material of a body's shape.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Material {
    /// Mass per unit area (kg/m²); must be positive for dynamic bodies.
    pub density: f32,
    /// Coulomb friction coefficient, ≥ 0.
    pub friction: f32,
    /// Restitution (bounciness), ≥ 0; 1 bounces back to the drop height.
    pub restitution: f32,
}

impl Default for Material {
    fn default() -> Self {
        Material {
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
        }
    }
}

/// Everything needed to add a body.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyDef {
    /// Static, kinematic or dynamic.
    pub kind: BodyKind,
    /// Initial world transform of the body origin (the shape's frame).
    pub transform: Transform,
    /// Initial velocity of the centre of mass.
    pub linear_velocity: Vec2,
    /// Initial angular velocity (rad/s).
    pub angular_velocity: f32,
    /// The body's shape, in body space.
    pub shape: Shape,
    /// Its material.
    pub material: Material,
    /// Free for the caller; returned by queries and events through [`World::user_data`].
    pub user_data: u64,
    /// Collision filtering (category, mask, group; Box2D's meaning, see [`Filter`]).
    pub filter: Filter,
    /// Linear damping rate (1/s, ≥ 0; default 0): velocity shrinks by `1 / (1 + h·rate)`
    /// per sub-step `h`.
    pub linear_damping: f32,
    /// Angular damping rate (1/s, ≥ 0; default 0).
    pub angular_damping: f32,
    /// Multiplies the world's gravity for this body (default 1; dynamic bodies only).
    pub gravity_scale: f32,
    /// Whether the body may fall asleep (default true). See [`World::set_sleep_enabled`].
    pub enable_sleep: bool,
    /// Whether the body starts awake (default true). A body added asleep forms a sleeping
    /// island of its own and wakes when touched (Box2D's `isAwake = false`, e.g. for a wall
    /// of boxes waiting to be smashed). Static bodies ignore it.
    pub awake: bool,
    /// A dynamic body swept by the continuous phase against dynamic bodies too, not only
    /// against static and kinematic ones (default false; Box2D's `isBullet`). Costs a
    /// time-of-impact sweep against each nearby body whenever the body moves fast.
    pub bullet: bool,
    /// A dynamic body that never rotates (infinite rotational inertia; default false).
    pub fixed_rotation: bool,
    /// A sensor: reports overlap begin/end with other bodies ([`World::sensor_begin_events`])
    /// and never collides (default false). Sensors do not detect other sensors, take part
    /// in no island and are skipped by the continuous phase and by ray and shape queries
    /// unless asked for. The shape must have an area (a segment cannot be a sensor). Fixed
    /// at creation.
    pub sensor: bool,
}

impl BodyDef {
    /// A definition with zero velocity, the default material, no user data, the default
    /// filter, no damping, gravity scale 1, awake, allowed to sleep, not a bullet, free to
    /// rotate, not a sensor.
    #[must_use]
    pub fn new(kind: BodyKind, transform: Transform, shape: Shape) -> BodyDef {
        BodyDef {
            kind,
            transform,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            shape,
            material: Material::default(),
            user_data: 0,
            filter: Filter::DEFAULT,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            enable_sleep: true,
            awake: true,
            bullet: false,
            fixed_rotation: false,
            sensor: false,
        }
    }
}

/// A body handle: slot index plus generation. Stale handles (the body removed) and handles of
/// another world are refused with [`SolverError::InvalidBody`](crate::SolverError::InvalidBody),
/// never taken for another body: the generation carries the world's tag in its high 16 bits
/// (worlds are tagged 1 to 65 535 in creation order, wrapping) and a count of the slot's uses
/// in its low 16 bits (a stale id is refused until its slot has been reused 65 535 times, as
/// in Box2D).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyId {
    /// Slot index.
    pub index: u32,
    /// The world's tag (high 16 bits) and the slot's use count (low 16 bits, never 0) when
    /// the body was added.
    pub generation: u32,
}

impl BodyId {
    /// The id of the body's first shape (the one in its [`BodyDef`]): the same index and
    /// generation. Stale when the body is.
    #[must_use]
    pub const fn first_shape(self) -> ShapeId {
        ShapeId {
            index: self.index,
            generation: self.generation,
        }
    }
}

/// A shape handle: the shape's slot index plus generation, like [`BodyId`]. Stale handles
/// (the shape or its body removed) are refused with
/// [`SolverError::InvalidShapeId`](crate::SolverError::InvalidShapeId). A body's first shape
/// (the one in its [`BodyDef`]) has the same index and generation as the body.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShapeId {
    /// Slot index.
    pub index: u32,
    /// The world's tag and the slot's use count when the shape was added, as in [`BodyId`].
    pub generation: u32,
}

/// A chain handle ([`World::add_chain`]): the slot index and generation of the body the chain
/// makes. Stale handles (the chain or its body removed) and handles of another world are
/// refused with [`SolverError::InvalidChainId`](crate::SolverError::InvalidChainId).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChainId {
    /// Slot index.
    pub index: u32,
    /// The world's tag and the slot's use count when the chain was added, as in [`BodyId`].
    pub generation: u32,
}

/// Level geometry to add as one chain ([`World::add_chain`](crate::World::add_chain)): the
/// welded polyline (open, or a loop counter-clockwise around a solid), where it is, and what
/// its segments collide with. The chain becomes a static or kinematic body whose shapes are
/// its segments, each with this material, filter and user data. [`ChainDef::new`] gives the
/// defaults.
#[derive(Clone, Copy, Debug)]
pub struct ChainDef<'a> {
    /// The points, welded ([`Chain::open`](crate::Chain::open) /
    /// [`Chain::closed`](crate::Chain::closed)), in the chain body's frame.
    pub chain: &'a crate::geometry::Chain,
    /// [`BodyKind::Static`] (level geometry) or [`BodyKind::Kinematic`] (a moving level
    /// piece); a dynamic chain is [`SolverError::Unsupported`](crate::SolverError::Unsupported).
    pub kind: BodyKind,
    /// The chain body's world transform.
    pub transform: Transform,
    /// A kinematic chain's velocity (m/s, world) and angular velocity (rad/s,
    /// counter-clockwise).
    pub linear_velocity: Vec2,
    /// See `linear_velocity`.
    pub angular_velocity: f32,
    /// Every segment's friction and restitution (density is unused: a chain has no mass).
    pub material: Material,
    /// Every segment's collision filter.
    pub filter: Filter,
    /// The body's and every segment's user data.
    pub user_data: u64,
}

impl<'a> ChainDef<'a> {
    /// A static chain at the origin with the default material and filter, user data 0.
    #[must_use]
    pub fn new(chain: &'a crate::geometry::Chain) -> ChainDef<'a> {
        ChainDef {
            chain,
            kind: BodyKind::Static,
            transform: Transform::IDENTITY,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            material: Material::default(),
            filter: Filter::DEFAULT,
            user_data: 0,
        }
    }
}

/// A shape to add to a body ([`World::add_shape_def`](crate::World::add_shape_def)) with its
/// own material, filter, sensor flag and user data: per-shape friction on one body, a foot
/// sensor on a player. [`ShapeDef::new`] gives the defaults.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeDef {
    /// The shape, in body space.
    pub shape: Shape,
    /// Its density (kg/m², counted in a dynamic body's mass: 0 adds no mass), friction and
    /// restitution.
    pub material: Material,
    /// Its collision filter.
    pub filter: Filter,
    /// Overlap events only, no collision response; the shape must have an area.
    pub sensor: bool,
    /// Free for the caller ([`World::shape_user_data`](crate::World::shape_user_data)).
    pub user_data: u64,
}

impl ShapeDef {
    /// `shape` with the default material (density 1, friction 0.6, restitution 0), the
    /// default filter, not a sensor, user data 0.
    #[must_use]
    pub fn new(shape: Shape) -> ShapeDef {
        ShapeDef {
            shape,
            material: Material::default(),
            filter: Filter::DEFAULT,
            sensor: false,
            user_data: 0,
        }
    }
}

/// A contact event: two bodies, `body_a.index < body_b.index`, with their ids as they were
/// when the event happened (a removed body's is stale when read; see [`World::end_events`]).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactEvent {
    /// The body with the smaller index.
    pub body_a: BodyId,
    /// The other body.
    pub body_b: BodyId,
    /// For begin events, the first manifold (normal from A to B); zeroed for end events.
    pub manifold: Manifold,
    /// The shape of `body_a` that touched.
    pub shape_a: ShapeId,
    /// The shape of `body_b` that touched.
    pub shape_b: ShapeId,
}

/// A sensor event: `visitor` began or stopped overlapping the sensor body `sensor` (ids as
/// they were when the event happened; see [`World::sensor_end_events`]).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SensorEvent {
    /// The sensor body.
    pub sensor: BodyId,
    /// The body that entered or left it.
    pub visitor: BodyId,
    /// The sensor shape (of `sensor`).
    pub sensor_shape: ShapeId,
    /// The shape of `visitor` that entered or left it.
    pub visitor_shape: ShapeId,
}

/// Which bodies a world query considers: those whose filter category is in `mask`, except
/// the bodies in `ignore`; sensors only when `sensors` is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueryFilter<'a> {
    /// Category mask: a body is considered when `category_bits & mask != 0`.
    pub mask: u64,
    /// Bodies never reported (e.g. the querying character itself).
    pub ignore: &'a [BodyId],
    /// Whether sensor bodies are reported.
    pub sensors: bool,
}

impl QueryFilter<'_> {
    /// Every non-sensor body.
    pub const ALL: QueryFilter<'static> = QueryFilter {
        mask: u64::MAX,
        ignore: &[],
        sensors: false,
    };
}

impl Default for QueryFilter<'_> {
    fn default() -> Self {
        QueryFilter::ALL
    }
}

/// The first hit of [`World::cast_shape`].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldCastHit {
    /// The body hit.
    pub body: BodyId,
    /// Fraction of the translation, world point on the moving shape, unit normal from the
    /// moving shape to the body, and for a start in overlap the depth (state
    /// [`CastState::Overlapping`](crate::CastState::Overlapping)).
    pub output: CastOutput,
}

/// The closest hit of [`World::ray_cast`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WorldRayHit {
    /// The body hit.
    pub body: BodyId,
    /// Where and how.
    pub hit: RayHit,
}

/// A clock for [`World::set_profile_clock`]: returns a monotonic tick count in any unit
/// (nanoseconds, CPU cycles...). `extern "C"` so that C callers can pass one too.
pub type ProfileClock = extern "C" fn() -> u64;

/// How long each phase of the last [`World::step`] took, in ticks of the clock given to
/// [`World::set_profile_clock`] (all zero without one, or after a step that failed).
/// Box2D's `b2Profile`, in the world's own phases.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepProfile {
    /// The whole step.
    pub total: u64,
    /// Broad phase: the tree's partial rebuild and the new pairs of moved proxies.
    pub pairs: u64,
    /// Narrow phase: manifolds of the awake contacts, events, waking, and building this
    /// step's constraints.
    pub narrow: u64,
    /// The sub-stepped solver (integration, constraint passes, restitution).
    pub solve: u64,
    /// Copying the solved bodies back, sleep timers and moving the slow bodies' proxies.
    pub finalize: u64,
    /// Sweeping the fast bodies (continuous collision).
    pub continuous: u64,
    /// Islands that fell asleep this step.
    pub sleep: u64,
}
