//! Level geometry built from shapes: tile maps outlined as chains (feature `alloc`).
//!
//! - [`tile_outlines`] / [`tile_outlines_from_cells`] — a grid of solid cells to the closed
//!   chains outlining its solid regions;
//! - [`slope_outlines`] / [`slope_outlines_from_tiles`] — the same for maps with slope,
//!   half-height and 2:1 ramp tiles and rectangular cells; [`heightfield`] — a terrain's
//!   heights to an open or closed chain;
//! - [`decompose()`] — a simple polygon of any vertex count (concave too) to convex polygons of at
//!   most 8 vertices.
//!
//! Their working memory and results are allocated fallibly: when the allocator runs out they
//! return [`GeometryError::OutOfMemory`](crate::geometry::GeometryError::OutOfMemory), having
//! freed everything they took, and never abort.

#[cfg(feature = "alloc")]
pub mod partition;
#[cfg(feature = "alloc")]
pub mod slopes;
#[cfg(feature = "alloc")]
pub mod tilemap;

#[cfg(feature = "alloc")]
pub use partition::decompose;
#[cfg(feature = "alloc")]
pub use slopes::{heightfield, slope_outlines, slope_outlines_from_tiles, HeightfieldKind, Tile};
#[cfg(feature = "alloc")]
pub use tilemap::{tile_outlines, tile_outlines_from_cells};
