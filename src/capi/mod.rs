//! The C ABI (feature `capi`): `c2d_*` functions over the same `#[repr(C)]` value types the
//! Rust API uses. The header `include/collide2d.h` is generated from this module by cbindgen.
//!
//! Rules: every pointer is checked for NULL; out-parameters are written only on success; a
//! `c2d_Shape` coming from C has its tag validated as an integer before it is read as a Rust
//! enum; nothing unwinds across the boundary (the core does not panic, and Rust aborts rather
//! than unwind out of an `extern "C"` function).

//!
//! Files by domain: `status.rs` (status codes, pointer reading and writing, the version),
//! `hooks.rs` (allocator, assert and log hooks, byte count), `shapes.rs`
//! (makers and single-shape utilities), `queries.rs` (pair queries, casts, distance),
//! `chains.rs` (level geometry: chain segments, welding, tile maps), `mover.rs` (the plane
//! solver),
//! `tree.rs` (the dynamic tree: handle, proxies) and `tree_queries.rs` (its queries and
//! casts), `solver.rs` (the immediate-mode solver), `world.rs` (the
//! `World`, with `alloc`) and `world_control.rs` (its per-body sleep, force, damping and
//! filter calls).

mod chains;
mod draw;
pub mod hooks;
mod mover;
mod queries;
mod shapes;
mod solver;
mod status;
mod tree;
mod tree_queries;
#[cfg(feature = "alloc")]
mod world;
#[cfg(feature = "alloc")]
mod world_chains;
#[cfg(feature = "alloc")]
mod world_control;
#[cfg(feature = "alloc")]
mod world_hooks;
#[cfg(feature = "alloc")]
mod world_id;
#[cfg(feature = "alloc")]
mod world_joints;
#[cfg(feature = "alloc")]
mod world_queries;
#[cfg(feature = "alloc")]
mod world_shapes;
#[cfg(feature = "alloc")]
mod world_snapshot;

pub use chains::*;
pub use draw::*;
pub use hooks::{
    c2d_get_byte_count, c2d_set_allocator, c2d_set_assert_fcn, c2d_set_log_fcn, AllocFcn, AssertFcn, FreeFcn,
    LogFcn,
};
pub use mover::*;
pub use queries::*;
pub use shapes::*;
pub use solver::*;
pub use status::{c2d_get_version, Status, Version};
pub use tree::*;
pub use tree_queries::*;
#[cfg(feature = "alloc")]
pub use world::*;
#[cfg(feature = "alloc")]
pub use world_chains::*;
#[cfg(feature = "alloc")]
pub use world_control::*;
#[cfg(feature = "alloc")]
pub use world_hooks::*;
#[cfg(feature = "alloc")]
pub use world_id::*;
#[cfg(feature = "alloc")]
pub use world_joints::*;
#[cfg(feature = "alloc")]
pub use world_queries::*;
#[cfg(feature = "alloc")]
pub use world_shapes::*;
#[cfg(feature = "alloc")]
pub use world_snapshot::*;
