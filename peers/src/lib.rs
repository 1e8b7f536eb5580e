//! collide2d's comparisons with its peers, Box2D v3 (through `boxdd-sys`) and parry2d: the
//! differential tests (`tests/`), the benchmarks (`benches/`) and the whole-world scenes and
//! memory reports (`examples/`) behind BENCHMARKS.md. A workspace member of its own, so that
//! collide2d's own tests and examples build without compiling Box2D's C sources, parry2d or
//! criterion.
//!
//! This library holds what those share: the root crate's test support (`tests/common/mod.rs`:
//! random shapes, brute-force geometry, the test scenes), re-exported whole, and the
//! conversions of collide2d's types to each peer's, and Box2D's benchmark scenes as body
//! lists (`scenes`) for the scene runner and the snapshot comparison.
#![deny(missing_docs)]

#[path = "../../tests/common/mod.rs"]
pub mod common;

pub mod box2d;
pub mod memory;
pub mod parry;
#[cfg(feature = "solver")]
pub mod scenes;

pub use box2d::*;
pub use common::*;
pub use parry::*;
