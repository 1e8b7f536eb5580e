//! # collide2d
//!
//! A `#![no_std]` 2D collision library in the spirit of tinyc2 (cute_c2.h): plain value types,
//! pure functions, no allocation in the core.
//!
//! ## Where everything is
//!
//! **Shapes** (local space; every query takes each shape's world [`Transform`]; identity
//! transforms give cute_c2's "everything in world space" style):
//! - [`Shape::circle`], [`Shape::rect`], [`Shape::capsule`], [`Shape::segment`] — infallible,
//!   `const` makers for shapes known when the program is written (they panic on bad constants).
//! - [`Circle::new`], [`Capsule::new`], [`Polygon::new`], [`Polygon::make_box`], … — the
//!   fallible constructors for untrusted data ([`GeometryError`]); [`Polygon`] holds 3–8 CCW
//!   vertices, optionally rounded; a capsule of radius 0 is a segment.
//! - [`closest_point`] — the nearest surface point to a point, signed distance and normal.
//! - [`Shape::mass`], [`Shape::aabb`], [`Shape::contains_point`], [`Shape::inflated`],
//!   [`Shape::as_circle`] / [`as_capsule`](Shape::as_capsule) / [`as_polygon`](Shape::as_polygon).
//!
//! **Pair queries** (`<operation>_<a>_<b>` in canonical order — polygon, then capsule, then
//! circle — and a generic form on [`Shape`]s that flips as needed):
//! - [`overlaps`] — does the pair touch; [`overlaps_aabb_shape`] for a world box.
//! - [`collide`] / [`collide_with_margin`] — the contact [`Manifold`] (normal A→B, ≤ 2 points).
//! - [`shape_distance`] / [`proxy_distance`] — GJK closest points, warm-started by a
//!   [`SimplexCache`]; [`segment_distance`], [`closest_point_on_segment`].
//! - [`ray_cast`] (and `ray_cast_<kind>`, [`ray_cast_aabb`]) — first hit of a [`Ray`].
//! - [`shape_cast_pair`] / [`shape_cast`] — both shapes translating (cute_c2's `c2TOI`,
//!   Box2D's `b2ShapeCast`), with an optional skin; [`CastShape`] names each side.
//! - [`time_of_impact`] — both shapes moving along a [`Sweep`] with rotation.
//!
//! **Level geometry** (no ghost collisions): [`ChainSegment`] — a one-sided segment with its
//! neighbours' vertices (front side: the right of `point1 → point2`), a [`Shape`] kind that
//! collides with circles, capsules and polygons ([`collide_chain_segment_polygon`], …) and is
//! hit by rays and casts only from the front; [`Chain::open`] / [`Chain::closed`] (`alloc`) —
//! polylines welded into segments; [`tile_outlines`] — a grid of solid cells to its outline
//! chains; [`decompose()`] — a simple polygon of any vertex count to convex pieces of at most
//! 8 vertices (a dynamic body of them through `World::add_shape`); `World::add_chain` — a
//! chain as one static body.
//!
//! **Character movement** ([`mover`]), any convex mover shape, over a level of the caller's
//! ([`MoverLevel`]: a slice of [`Obstacle`]s, a [`TreeLevel`], a callback, a `World`):
//! [`move_and_slide`] — one call per frame (skin, slopes, ground snap, moving platforms);
//! [`collide_mover`] / [`cast_mover`] — the planes of what the mover touches and how far it
//! can go; [`solve_planes`] / [`clip_vector`] — Box2D v3's plane solver.
//!
//! **Broad phase**: [`DynamicTree`] (growable with `alloc`, or in a caller buffer), ids are
//! [`ProxyId`]s, every callback returns a [`Visit`]:
//! - [`DynamicTree::create_proxy`] / [`move_proxy`](DynamicTree::move_proxy) /
//!   [`destroy_proxy`](DynamicTree::destroy_proxy) — the boxes;
//! - [`DynamicTree::query`] / [`query_iter`](DynamicTree::query_iter) — boxes overlapping a box;
//!   [`ray_cast`](DynamicTree::ray_cast), [`box_cast`](DynamicTree::box_cast),
//!   [`query_pairs`](DynamicTree::query_pairs) — the box-level traversals;
//! - [`DynamicTree::ray_cast_closest`], [`cast_closest`](DynamicTree::cast_closest),
//!   [`overlapping`](DynamicTree::overlapping), [`contacts`](DynamicTree::contacts) — the
//!   exact shape-level queries, given a function from a proxy to its shape.
//!
//! **Simulation**: `solver` (feature `solver`) — an immediate-mode rigid-body solver on
//! caller slices, no allocation: Box2D v3's soft step (sub-stepped sequential impulses, soft
//! contacts, accumulated clamping, warm starting by feature id, Coulomb friction,
//! restitution), runs of four independent constraints solved together in SIMD lanes, bit for
//! bit as one at a time; `world` (features `solver` + `alloc`) — `World`: tree broad phase
//! from a move buffer, O(1) pair bookkeeping, speculative manifolds (recycled while a pair
//! barely moves), graph-coloured constraint order, sleeping islands, continuous collision
//! (bullets too), forces and impulses, damping, gravity scale, fixed rotation, bodies with
//! several shapes (`World::add_shape`), chains as level geometry, a level for the character
//! mover (`World::mover_level`), collision
//! filters (`Filter`, also for the tree alone), sensors, contact and sensor events, filtered
//! ray / AABB / shape-overlap / shape-cast queries (`QueryFilter`), one call per frame.
//!
//! **Seeing it**: [`draw`] — a [`DebugDraw`](draw::DebugDraw) trait (Box2D's `b2DebugDraw`
//! primitives) and functions that draw shapes, manifolds, rays, casts and sweeps through it;
//! [`DynamicTree::draw`] (node boxes by height) and `World::draw` (bodies coloured by state,
//! bounds, contacts, transforms, the tree; `DrawFlags`), one palette ([`draw::Color`]).
//!
//! **C**: `capi` (feature `capi`) — the whole API as `c2d_*` functions; header
//! `include/collide2d.h`, static and shared libraries from the `clib/` crate
//! (`scripts/build_clib.sh`, CMake, pkg-config; allocator, assert and log hooks).
//!
//! **Interop** (optional features): `glam` and `mint` — `From`/`TryFrom` conversions for
//! [`Vec2`], [`Rot`], [`Transform`] and [`Aabb`] ([`interop`]); `serde` — `Serialize` and
//! `Deserialize` on the value types, with shapes, rotations, transforms and boxes validated on
//! deserialize (the constructors' checks; a polygon must pass [`Polygon::is_valid`]).
//!
//! **Guides** (runnable, and run by the tests): `examples/topdown.rs` — a top-down arena:
//! a level in the tree, a player and enemies that move and slide, sensors, hitscan shots and
//! a fast projectile that cannot tunnel, with no hand-written collision helper;
//! `examples/platformer.rs` — a side-scroller in a `World`: a tile map as chains, a one-way
//! platform, a capsule character with [`move_and_slide`], sensor coins and a concave rock from
//! [`decompose()`]; `examples/demo.rs` — every pair's manifold, printed.
//!
//! ## Layout
//! One module per algorithm family, each layer using only the ones before it (checked by
//! `tests/layers.rs`): `fmath` (the only caller of `libm`) → [`math`] (`Vec2`, `Rot`,
//! `Transform`, `Aabb`, `Ray`) → [`segment`] (closest points on segments) → [`geometry`]
//! (shapes, hull, mass, bounds, chains) → [`level`] (tile outlines, decomposition) →
//! [`distance`] (GJK, proxies) → [`narrowphase`] (overlap and
//! manifolds, one file per pair family) → [`raycast`], [`toi`], [`cast`] → [`tree`] → [`mover`] → `solver` →
//! `world` → `capi` (one file per C domain). The modules `manifold` and `overlap` keep the
//! earlier paths of the narrow phase's two halves.
//!
//! ## Conventions
//! | what | convention |
//! |---|---|
//! | units | `f32`, radians, counter-clockwise rotation and polygon winding |
//! | normals | unit length; polygon normals point outward |
//! | [`Manifold::normal`] | world space, unit, from shape A to shape B |
//! | [`ManifoldPoint::point`] | world space, midway between the two surfaces |
//! | [`ManifoldPoint::depth`] | `> 0` penetrating; `< 0` only for speculative points within the margin |
//! | [`ManifoldPoint::id`] | high byte: A's feature, low byte: B's (`i` vertex, `0x80 \| i` edge) |
//! | touching | counts as contact, everywhere: `overlaps == (collide().count > 0)`, bit for bit |
//! | swapping A and B | normal negated; count, points and depths bit-identical; feature bytes swapped (same-kind pairs run in a canonical order of the pair; the exception is coincident circle centres, see below) |
//! | [`DistanceOutput`] | world points on each surface, world unit normal A→B, `distance >= 0`; [`DistanceStatus::Overlapping`] with distance exactly 0 when touching or overlapping; [`DistanceStatus::NotConverged`] instead of a false "separated" |
//! | [`RayHit`] | `fraction` of the translation in `[0, max_fraction]`, world `point`, world unit `normal` pointing out of the shape; a ray starting inside or on a solid shape, or with zero length, reports no hit; a segment (radius 0) has no inside: a ray starting on it hits at `+0.0`, one along its line hits the end it reaches (see [`raycast`]) |
//! | [`CastOutput`] | `fraction` of both translations, world `point` on A's surface, world unit `normal` A→B (never zero for a hit); starting in contact and moving apart or sliding is a miss; starting penetrating is [`CastState::Overlapping`] with `depth` |
//! | [`ToiOutput`] | sweep `fraction` and a [`ToiState`]; conservative: no overlap before `fraction`, except grazes shallower than (reach A + reach B)·0.25²/8 (see [`time_of_impact`]) |
//! | frames | every query subtracts the two origins first and works relative to shape A (in A's local frame, or for circle pairs in world axes), so results do not lose precision far from the world origin |
//! | bad input | constructors return [`GeometryError`]; queries given NaN/inf, a rotation that is not unit length (see [`Transform::is_valid`]), negative radii or a polygon `count` outside 3..=8 return "no contact" / "no hit" / an invalid-input state |
//!
//! ## Degenerate cases (documented choices)
//! - Coincident circle centres: the normal is shape A's local +x axis (in world space).
//! - A circle centre exactly on a capsule's core segment: the segment's left normal.
//! - A circle centre inside a polygon: pushed out through the face of least penetration.
//! - A capsule whose two centres coincide behaves as a circle.
//! - Chain segments: one-sided (contacts only for a shape whose core centroid is in front of
//!   the segment or of a convex neighbour, with a normal the segment owns; see
//!   [`narrowphase`]'s chain file), never against another chain segment; distance is the
//!   two-sided geometric distance; open chain ends are square (90° convex corners).
//! - Polygon reference face: the face with the larger separation; on an exact tie, that of
//!   the shape first in the pair's canonical order. No hysteresis bias, so swapping A and B
//!   gives the same contact, bit for bit.
//!
//! ## Numeric advice
//! Sizes from 0.01 to 10 000 work in the same scene: tolerances are relative to the shapes'
//! sizes (hull welding uses [`HULL_RELATIVE_TOLERANCE`]). Keep positions within about 1e6 of
//! the origin if you need 0.1 precision, as with any `f32` code.
//!
//! ## Example
//! ```
//! use collide2d::*;
//! let ground = Shape::Polygon(Polygon::make_box(10.0, 0.5).unwrap());
//! let ball = Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap());
//! let xg = Transform::IDENTITY;
//! let xb = Transform::from_translation(Vec2::new(1.0, 0.9));
//! assert!(overlaps(&ground, xg, &ball, xb));
//! let m = collide(&ground, xg, &ball, xb);
//! assert_eq!(m.count, 1);
//! assert!((m.normal.y - 1.0).abs() < 1e-6); // from the ground up to the ball
//! assert!((m.points[0].depth - 0.1).abs() < 1e-6);
//! ```
#![no_std]
#![deny(missing_docs)]
#![warn(clippy::std_instead_of_core)]
// `!(x <= limit)` is deliberate throughout: unlike `x > limit` it is true for NaN, which is how
// non-finite input turns into "no contact".
#![allow(clippy::neg_cmp_op_on_partial_ord)]
// `unsafe` lives only in the C ABI layer (`capi`), each block with a SAFETY comment.
#![cfg_attr(not(feature = "capi"), forbid(unsafe_code))]
#![cfg_attr(feature = "capi", deny(unsafe_op_in_unsafe_fn))]

#[cfg(feature = "alloc")]
extern crate alloc;

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(all(doctest, feature = "solver", feature = "alloc"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
/// The guide's Rust examples (docs/guide.md), compiled and run as doctests.
#[cfg(all(doctest, feature = "solver", feature = "alloc"))]
#[doc = include_str!("../docs/guide.md")]
struct GuideDoctests;
#[cfg(feature = "capi")]
pub mod capi;
pub mod cast;
pub mod distance;
pub mod draw;
mod fmath;
pub mod geometry;
pub mod interop;
pub mod level;
pub mod math;
pub mod mover;
pub mod narrowphase;
pub mod point;
pub mod raycast;
pub mod segment;
#[cfg(feature = "solver")]
pub mod solver;
#[cfg(test)]
mod test_rng;
pub mod toi;
pub mod tree;
#[cfg(all(feature = "solver", feature = "alloc"))]
mod wire;
#[cfg(all(feature = "solver", feature = "alloc"))]
pub mod world;

/// Contact manifolds: the manifold half of [`narrowphase`], under its earlier path.
pub mod manifold {
    pub use crate::narrowphase::{
        collide, collide_capsule_circle, collide_capsules, collide_circles, collide_polygon_capsule,
        collide_polygon_circle, collide_polygons, collide_with_margin, Manifold, ManifoldPoint,
        CAPSULE_FACE_TOLERANCE, FEATURE_EDGE,
    };
}

/// Boolean overlap tests: the overlap half of [`narrowphase`], under its earlier path.
pub mod overlap {
    pub use crate::narrowphase::{
        overlaps, overlaps_aabb_capsule, overlaps_aabb_circle, overlaps_aabb_polygon, overlaps_aabb_shape,
        overlaps_aabbs, overlaps_capsule_circle, overlaps_capsules, overlaps_circles,
        overlaps_polygon_capsule, overlaps_polygon_circle, overlaps_polygons,
    };
}

pub use cast::{
    shape_cast, shape_cast_pair, CastOutput, CastShape, CastState, CAST_MAX_ITERATIONS,
    CAST_RELATIVE_TOLERANCE,
};
pub use distance::{
    proxy_distance, shape_distance, DistanceOutput, DistanceStatus, ShapeProxy, SimplexCache,
    GJK_MAX_ITERATIONS,
};
#[cfg(feature = "alloc")]
pub use geometry::Chain;
pub use geometry::{
    compute_hull, Capsule, ChainSegment, Circle, GeometryError, MassData, Polygon, Shape,
    CHAIN_COLLINEAR_RELATIVE, CHAIN_WELD_RELATIVE, HULL_RELATIVE_TOLERANCE, MAX_POLYGON_VERTICES,
};
#[cfg(feature = "alloc")]
pub use level::{
    decompose, heightfield, slope_outlines, slope_outlines_from_tiles, tile_outlines,
    tile_outlines_from_cells, HeightfieldKind, Tile,
};
pub use math::{Aabb, Ray, Rot, Transform, Vec2};
pub use mover::{
    cast_mover, clip_vector, collide_mover, level_fn, move_and_slide, solve_planes, solve_planes_with_slop,
    CollisionPlane, FnLevel, MoveOptions, MoveResult, MoverHit, MoverLevel, MoverPlane, Obstacle, Plane,
    PlaneSolverResult, TreeLevel, MAX_MOVER_CONTACTS, MAX_MOVE_ITERATIONS, MAX_MOVE_TRANSLATION, PLANE_SLOP,
    PLANE_SOLVER_MAX_ITERATIONS,
};
pub use narrowphase::{
    collide, collide_capsule_circle, collide_capsules, collide_chain_segment_capsule,
    collide_chain_segment_circle, collide_chain_segment_polygon, collide_circles, collide_polygon_capsule,
    collide_polygon_circle, collide_polygons, collide_with_margin, Manifold, ManifoldPoint,
    CAPSULE_FACE_TOLERANCE, FEATURE_EDGE,
};
pub use narrowphase::{
    overlaps, overlaps_aabb_capsule, overlaps_aabb_circle, overlaps_aabb_polygon, overlaps_aabb_shape,
    overlaps_aabbs, overlaps_capsule_circle, overlaps_capsules, overlaps_chain_segment_capsule,
    overlaps_chain_segment_circle, overlaps_chain_segment_polygon, overlaps_circles,
    overlaps_polygon_capsule, overlaps_polygon_circle, overlaps_polygons,
};
pub use point::{closest_point, PointProjection};
pub use raycast::{
    ray_cast, ray_cast_aabb, ray_cast_capsule, ray_cast_chain_segment, ray_cast_circle, ray_cast_polygon,
    RayHit,
};
pub use segment::{closest_point_on_segment, segment_distance, SegmentDistance};
#[cfg(feature = "solver")]
pub use solver::{
    prepare_contact_pair, Body, ConstraintPoint, ContactBlock, ContactConstraint, ContactPair, DistanceJoint,
    JointImpulses, JointKind, MotorJoint, PrismaticJoint, RevoluteJoint, SolverError, SolverSettings,
    WeldJoint, WheelJoint,
};
pub use toi::{time_of_impact, Sweep, ToiOutput, ToiState, MAX_SWEEP_ROTATION, TOI_MAX_ITERATIONS};
pub use tree::{
    DynamicTree, Filter, NodeStorage, ProxyId, QueryIter, TreeCastHit, TreeError, TreeNode, TreeRayHit,
    Visit, DEFAULT_AABB_MARGIN, NULL_NODE,
};
#[cfg(all(feature = "solver", feature = "alloc"))]
pub use world::{
    BodyDef, BodyId, BodyKind, ChainDef, ChainId, ContactEvent, ContactHooks, DrawFlags, JointDef,
    JointEvent, JointEventKind, JointId, Material, MoverPush, ProfileClock, QueryFilter, SensorEvent,
    ShapeDef, ShapeId, SnapshotError, StepProfile, World, WorldCastHit, WorldLevel, WorldRayHit,
    CONTACT_RECYCLE_COS_ANGLE, CONTACT_RECYCLE_DISTANCE, CONTINUOUS_SAFETY_FACTOR, EDGE_TOLERANCE,
    FAT_MARGIN_FRACTION, LINEAR_SLOP, MAX_FAT_MARGIN, SLEEP_VELOCITY, SNAPSHOT_FORMAT, SNAPSHOT_HEADER_BYTES,
    SPECULATIVE_DISTANCE, TIME_TO_SLEEP,
};
