//! Every tuning constant of the world, in one place (Box2D's `constants.h` style). Lengths
//! derive from [`LINEAR_SLOP`] as Box2D's do; the values are those of the Box2D the
//! differential tests run against, Box2D 3.2-dev at 56edae79 (vendored by `boxdd-sys` 0.6),
//! except where a constant says otherwise. Metres, seconds, radians.

/// The length (m) below which the world treats surfaces as touching: a resting contact's
/// target depth scale, the tolerance for covered edges and for growing margins (Box2D's
/// `B2_LINEAR_SLOP`).
pub const LINEAR_SLOP: f32 = 0.005;

/// Base speculative distance (m), `4 × LINEAR_SLOP` (Box2D's `B2_SPECULATIVE_DISTANCE`):
/// contact points are created for surfaces up to this far apart. Bounded, independent of
/// speed (see the module docs of `world`).
pub const SPECULATIVE_DISTANCE: f32 = 4.0 * LINEAR_SLOP;

/// Default distance (m) below which a pair's relative motion since its last full manifold
/// lets [`World::step`](crate::World::step) reuse that manifold: ten linear slops (Box2D's
/// `B2_CONTACT_RECYCLE_DISTANCE`), written as the nearest `f32` to 0.05 (`10.0 * LINEAR_SLOP`
/// rounds one ulp lower). See [`World::set_recycle_distance`](crate::World::set_recycle_distance).
pub const CONTACT_RECYCLE_DISTANCE: f32 = 0.05;

/// Recycling also requires each body to have turned by less than `acos` of this (about 11°)
/// since the last full manifold (Box2D's `B2_CONTACT_RECYCLE_COS_ANGLE`).
pub const CONTACT_RECYCLE_COS_ANGLE: f32 = 0.98;

/// How much a pair's speculative margin may have grown since its manifold was computed for
/// the manifold to be recycled (m), `LINEAR_SLOP`: the penetration a point missing from the
/// manifold can then reach in a step.
pub(crate) const MARGIN_GROWTH: f32 = LINEAR_SLOP;

/// Largest fat-box margin (m) of a moving shape's proxy: ten linear slops (Box2D's
/// `B2_MAX_AABB_MARGIN`), the nearest `f32` to 0.05 as [`CONTACT_RECYCLE_DISTANCE`]. A proxy's fat box is its tight box (the shape's box grown by
/// [`SPECULATIVE_DISTANCE`]) grown by [`FAT_MARGIN_FRACTION`] of the shape's extent, at most
/// this; a static body's by [`SPECULATIVE_DISTANCE`]. Pairs exist while fat boxes overlap; a
/// proxy is moved in the tree when its tight box leaves its fat box.
pub const MAX_FAT_MARGIN: f32 = 0.05;

/// Fraction of a moving shape's extent used as its proxy's fat margin (Box2D's
/// `B2_AABB_MARGIN_FRACTION`); see [`MAX_FAT_MARGIN`].
pub const FAT_MARGIN_FRACTION: f32 = 0.125;

/// How far apart (m) two static edges may lie and still cover each other for internal-edge
/// removal, and how far short of an edge's ends the cover may stop: `LINEAR_SLOP`.
pub const EDGE_TOLERANCE: f32 = LINEAR_SLOP;

/// A chain segment shorter than this (m), `LINEAR_SLOP`, has no reliable side for the
/// continuous phase's one-sided rule.
pub(crate) const MIN_SIDED_SEGMENT: f32 = LINEAR_SLOP;

/// Speed (m/s, including the rotation of the farthest point) under which a body counts as
/// resting for sleep (Box2D's default `sleepThreshold`).
pub const SLEEP_VELOCITY: f32 = 0.05;

/// Seconds every body of an island must have rested before the island sleeps (Box2D's
/// `B2_TIME_TO_SLEEP`).
pub const TIME_TO_SLEEP: f32 = 0.5;

/// A dynamic body is swept by the continuous phase when it moved in one step by more than
/// this fraction of its smallest extent (Box2D's continuous `safetyFactor`).
pub const CONTINUOUS_SAFETY_FACTOR: f32 = 0.5;

/// Colours of the contact graph; a constraint of a body with more contacts than this gets a
/// block of its own. Box2D uses 24 (`B2_GRAPH_COLOR_COUNT`); 64 lets a body touch more
/// constraints before they leave the SIMD blocks, at one `u64` mask per body.
pub(crate) const COLORS: usize = 64;
