//! Snapshots: a world's whole state as bytes ([`World::snapshot`]) and back
//! ([`World::restore`], [`World::restore_into`]), for rollback, save games and replays.
//!
//! The bytes are a 44-byte header and the world's stores, every value little-endian and
//! field by field (`crate::wire`), so they are the same on every platform:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `C2DSNAP\0` |
//! | 8 | 4 | format version ([`SNAPSHOT_FORMAT`]) |
//! | 12 | 6 | crate version: major, minor, patch (`u16` each) |
//! | 18 | 2 | zero |
//! | 20 | 8 | total length in bytes, header included |
//! | 28 | 4 | bodies |
//! | 32 | 4 | contacts |
//! | 36 | 8 | checksum of the bytes after the header |
//!
//! What is stored is everything a step reads: bodies, shapes, both trees node by node (free
//! nodes too), the contact slab with its caches and warm-start impulses, the constraint
//! lanes of the last step, sleeping islands and timers, the queued and last step's events.
//! What is not: the per-step scratch (empty between steps), the pair table (rebuilt from
//! the contacts: it is only looked up, never walked) and the profile clock (the restoring
//! world's own is kept).

use super::contacts::PARKED;
use super::limits::{MAX_TIME_STEP, MIN_TIME_STEP};
use super::*;
use crate::wire::{self, wire_struct, In, Out, Wire, WireError};

/// The snapshot format [`World::snapshot`] writes and [`World::restore`] reads. Bytes of
/// another format, or of another crate version, are refused
/// ([`SnapshotError::UnsupportedVersion`]): the bit-identical guarantee holds only within one
/// crate version.
pub const SNAPSHOT_FORMAT: u32 = 1;

/// Bytes before the stores.
pub const SNAPSHOT_HEADER_BYTES: usize = 44;

const MAGIC: [u8; 8] = *b"C2DSNAP\0";

/// Why a snapshot could not be written or restored.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnapshotError {
    /// [`World::snapshot`]: the buffer is shorter than the snapshot (`needed` bytes,
    /// [`World::snapshot_size`]); nothing is written past its end.
    BufferTooSmall {
        /// The snapshot's size in bytes.
        needed: usize,
    },
    /// The bytes do not start with a snapshot's magic.
    NotASnapshot,
    /// A snapshot of another format or another crate version.
    UnsupportedVersion,
    /// The bytes end before the length the header gives.
    Truncated,
    /// The bytes after the header do not match the header's checksum (corrupted), or there
    /// are bytes after the length the header gives.
    ChecksumMismatch,
    /// The bytes match their checksum but do not describe a valid world (a value out of
    /// range, an index past its store, stores that disagree): hand-made or hostile bytes.
    Corrupt,
    /// Memory for the restored stores (or [`World::snapshot_to_vec`]'s bytes) could not be
    /// allocated.
    OutOfMemory,
}

impl core::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SnapshotError::BufferTooSmall { needed } => write!(f, "snapshot needs {needed} bytes"),
            SnapshotError::NotASnapshot => f.write_str("not a collide2d snapshot"),
            SnapshotError::UnsupportedVersion => f.write_str("snapshot of another format or crate version"),
            SnapshotError::Truncated => f.write_str("snapshot truncated"),
            SnapshotError::ChecksumMismatch => f.write_str("snapshot checksum mismatch"),
            SnapshotError::Corrupt => f.write_str("snapshot does not describe a valid world"),
            SnapshotError::OutOfMemory => f.write_str("out of memory"),
        }
    }
}

impl From<WireError> for SnapshotError {
    fn from(e: WireError) -> Self {
        match e {
            WireError::Truncated | WireError::Invalid => SnapshotError::Corrupt,
            WireError::OutOfMemory => SnapshotError::OutOfMemory,
        }
    }
}

/// A decimal crate version component, at compile time.
const fn parse_u16(s: &str) -> u16 {
    let b = s.as_bytes();
    let mut v = 0u16;
    let mut k = 0;
    while k < b.len() {
        v = v * 10 + (b[k] - b'0') as u16;
        k += 1;
    }
    v
}

const VERSION: [u16; 3] = [
    parse_u16(env!("CARGO_PKG_VERSION_MAJOR")),
    parse_u16(env!("CARGO_PKG_VERSION_MINOR")),
    parse_u16(env!("CARGO_PKG_VERSION_PATCH")),
];

impl Wire for BodyKind {
    const MIN: usize = 1;
    fn put(&self, o: &mut Out) {
        (*self as u8).put(o);
    }
    fn take(i: &mut In) -> Result<Self, WireError> {
        match u8::take(i)? {
            0 => Ok(BodyKind::Static),
            1 => Ok(BodyKind::Kinematic),
            2 => Ok(BodyKind::Dynamic),
            _ => Err(WireError::Invalid),
        }
    }
}

impl Wire for ProxyId {
    const MIN: usize = 4;
    fn put(&self, o: &mut Out) {
        self.index().put(o);
    }
    fn take(i: &mut In) -> Result<Self, WireError> {
        Ok(ProxyId::from_index(u32::take(i)?))
    }
}

/// A shape: its kind, then its fields; a polygon writes only its `count` vertices and
/// normals (the rest read back as zero, which no query reads).
impl Wire for Shape {
    const MIN: usize = 1 + 16;
    fn put(&self, o: &mut Out) {
        match self {
            Shape::Circle(c) => {
                0u8.put(o);
                c.center.put(o);
                c.radius.put(o);
            }
            Shape::Capsule(c) => {
                1u8.put(o);
                c.center1.put(o);
                c.center2.put(o);
                c.radius.put(o);
            }
            Shape::Polygon(p) => {
                2u8.put(o);
                let n = (p.count as usize).min(crate::geometry::MAX_POLYGON_VERTICES);
                (n as u8).put(o);
                for k in 0..n {
                    p.vertices[k].put(o);
                    p.normals[k].put(o);
                }
                p.centroid.put(o);
                p.radius.put(o);
            }
            Shape::ChainSegment(c) => {
                3u8.put(o);
                c.ghost1.put(o);
                c.point1.put(o);
                c.point2.put(o);
                c.ghost2.put(o);
            }
        }
    }
    fn take(i: &mut In) -> Result<Self, WireError> {
        use crate::geometry::{Capsule, ChainSegment, Circle, Polygon, MAX_POLYGON_VERTICES};
        Ok(match u8::take(i)? {
            0 => Shape::Circle(Circle {
                center: Wire::take(i)?,
                radius: Wire::take(i)?,
            }),
            1 => Shape::Capsule(Capsule {
                center1: Wire::take(i)?,
                center2: Wire::take(i)?,
                radius: Wire::take(i)?,
            }),
            2 => {
                let n = u8::take(i)? as usize;
                if n > MAX_POLYGON_VERTICES {
                    return Err(WireError::Invalid);
                }
                let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
                let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
                for k in 0..n {
                    vertices[k] = Wire::take(i)?;
                    normals[k] = Wire::take(i)?;
                }
                Shape::Polygon(Polygon {
                    vertices,
                    normals,
                    centroid: Wire::take(i)?,
                    radius: Wire::take(i)?,
                    count: n as u32,
                })
            }
            3 => Shape::ChainSegment(ChainSegment {
                ghost1: Wire::take(i)?,
                point1: Wire::take(i)?,
                point2: Wire::take(i)?,
                ghost2: Wire::take(i)?,
            }),
            _ => return Err(WireError::Invalid),
        })
    }
}

wire_struct!(Material {
    density: f32,
    friction: f32,
    restitution: f32,
});
wire_struct!(Filter {
    category_bits: u64,
    mask_bits: u64,
    group_index: i32,
});
wire_struct!(BodyId {
    index: u32,
    generation: u32,
});
wire_struct!(ShapeId {
    index: u32,
    generation: u32,
});
wire_struct!(crate::narrowphase::ManifoldPoint {
    point: Vec2,
    depth: f32,
    id: u32,
});
wire_struct!(Manifold {
    normal: Vec2,
    points: [crate::narrowphase::ManifoldPoint; 2],
    count: u32,
});
wire_struct!(ContactEvent {
    body_a: BodyId,
    body_b: BodyId,
    manifold: Manifold,
    shape_a: ShapeId,
    shape_b: ShapeId,
});
wire_struct!(SensorEvent {
    sensor: BodyId,
    visitor: BodyId,
    sensor_shape: ShapeId,
    visitor_shape: ShapeId,
});
wire_struct!(Slot {
    generation: u32,
    live: bool,
    kind: BodyKind,
    shape: Shape,
    material: Material,
    proxy: ProxyId,
    fixed_proxy: ProxyId,
    user_data: u64,
    sleep_time: f32,
    enable_sleep: bool,
    bullet: bool,
    filter: Filter,
    sensor: bool,
    fixed_rotation: bool,
    margin: f32,
    contact_head: u32,
    joint_head: u32,
    parent: u32,
    next_shape: u32,
    internal_edges: u8,
    internal_epoch: u32,
});
wire_struct!(Hot {
    awake_index: u32,
    island: u32,
    reach: f32,
    min_extent: f32,
    spin: f32,
    round: bool,
    velocity: Vec2,
    center: Vec2,
});
wire_struct!(SlotBoxes {
    fat: Aabb,
    tight: Aabb
});
wire_struct!(CachedPoint {
    anchor_a: Vec2,
    anchor_b: Vec2,
    separation: f32,
    id: u32,
});
wire_struct!(ContactCache {
    normal: Vec2,
    count: u32,
    margin: f32,
    points: [CachedPoint; 2],
    rotation_a: Rot,
    rotation_b: Rot,
    relative: Transform,
});
wire_struct!(ContactSim {
    id: u32,
    a: u32,
    b: u32,
    oa: u32,
    ob: u32,
    touching: bool,
    sensor: bool,
    friction: f32,
    restitution: f32,
    solved: u32,
    color: u8,
});
wire_struct!(SimMemory {
    cache: Option<ContactCache>,
});
wire_struct!(joints::JointSlot {
    generation: u32,
    live: bool,
    enabled: bool,
    kind: crate::solver::JointKind,
    a: u32,
    b: u32,
    frame_a: Transform,
    frame_b: Transform,
    collide_connected: bool,
    force_threshold: f32,
    torque_threshold: f32,
    hertz: f32,
    damping_ratio: f32,
    user_data: u64,
    impulses: crate::solver::JointImpulses,
    prev: [u32; 2],
    next: [u32; 2],
});
wire_struct!(JointId {
    index: u32,
    generation: u32,
});
impl Wire for JointEventKind {
    const MIN: usize = 1;
    fn put(&self, o: &mut Out) {
        (*self as u8).put(o);
    }
    fn take(i: &mut In) -> Result<Self, WireError> {
        match u8::take(i)? {
            0 => Ok(JointEventKind::Broke),
            1 => Ok(JointEventKind::BodyRemoved),
            _ => Err(WireError::Invalid),
        }
    }
}
wire_struct!(JointEvent {
    joint: JointId,
    body_a: BodyId,
    body_b: BodyId,
    kind: JointEventKind,
    force: Vec2,
    torque: f32,
    user_data: u64,
});
wire_struct!(Contact {
    a: u32,
    b: u32,
    oa: u32,
    ob: u32,
    touching: bool,
    sensor: bool,
    prev: [u32; 2],
    next: [u32; 2],
    active_index: u32,
    parked: u32,
});

/// Writes or reads every stored field of a world, in one order for both. A `bounded` store
/// holds at most as many entries as an earlier one (its entries are small on the wire but
/// large in memory: an `Option` of a contact cache is one byte when `None`), and is read
/// with that bound, so that its length cannot ask for memory out of proportion to the bytes.
macro_rules! stores {
    ($w:expr, $io:expr, $field:ident, $tree:ident, $bounded:ident) => {{
        let w = &mut *$w;
        let io = $io;
        $field!(w.tag, io);
        $field!(w.settings, io);
        $field!(w.slots, io);
        $field!(w.hot, io);
        $field!(w.bodies, io);
        $field!(w.free, io);
        $field!(w.live_count, io);
        $tree!(w.tree, io);
        $tree!(w.fixed_tree, io);
        $field!(w.boxes, io);
        $field!(w.move_buffer, io);
        $field!(w.contacts, io);
        $field!(w.free_contacts, io);
        $bounded!(w.sleep_impulses, io, w.contacts.len());
        $field!(w.active, io);
        $bounded!(w.active_memory, io, w.active.len());
        $field!(w.parked, io);
        $field!(w.free_parked, io);
        $field!(w.touching_count, io);
        $field!(w.sensor_overlaps, io);
        $field!(w.awake, io);
        $field!(w.islands, io);
        $field!(w.free_islands, io);
        $field!(w.blocks, io);
        $field!(w.block_ids, io);
        $field!(w.begin, io);
        $field!(w.end, io);
        $field!(w.sensor_begin, io);
        $field!(w.sensor_end, io);
        $field!(w.faults, io);
        $field!(w.joints, io);
        $field!(w.free_joints, io);
        $field!(w.joint_events, io);
        $field!(w.queued_joint_events, io);
        $field!(w.internal_edge_removal, io);
        $field!(w.static_epoch, io);
        $field!(w.queued_end, io);
        $field!(w.queued_sensor_end, io);
        $field!(w.last_dt, io);
        $field!(w.recycle_distance, io);
        $field!(w.sleep_enabled, io);
        $field!(w.continuous_enabled, io);
    }};
}

macro_rules! put_field {
    ($f:expr, $o:expr) => {
        $f.put($o)
    };
}
macro_rules! put_bounded {
    ($f:expr, $o:expr, $max:expr) => {
        $f.put($o)
    };
}
macro_rules! take_bounded {
    ($f:expr, $i:expr, $max:expr) => {{
        let max = $max;
        wire::take_into_at_most(&mut $f, $i, max)?
    }};
}
macro_rules! put_tree {
    ($f:expr, $o:expr) => {
        $f.put($o)
    };
}
/// Reads a field in place: a `Vec` reuses its memory, anything else is replaced.
macro_rules! take_field {
    ($f:expr, $i:expr) => {
        Wire::take_into(&mut $f, $i)?
    };
}
macro_rules! take_tree {
    ($f:expr, $i:expr) => {
        $f.take_into($i)?
    };
}

impl World {
    /// The size in bytes of [`World::snapshot`]'s bytes for the world as it is now
    /// (O(bodies + contacts): one pass that counts without writing).
    #[must_use]
    pub fn snapshot_size(&self) -> usize {
        let mut o = Out::new(&mut []);
        self.put_stores(&mut o);
        SNAPSHOT_HEADER_BYTES + o.len()
    }

    /// Writes the world's whole state into `out` (see the module docs for the format) and
    /// returns the number of bytes written ([`World::snapshot_size`]). A buffer too short is
    /// [`SnapshotError::BufferTooSmall`] with the size needed. Allocates nothing: works
    /// without `std`. Restoring the bytes ([`World::restore`], [`World::restore_into`])
    /// gives a world whose every later step equals this world's, bit for bit, on any
    /// platform; the [`BodyId`]s, [`ShapeId`]s and [`ChainId`]s of this world name the same
    /// objects in the restored one.
    pub fn snapshot(&self, out: &mut [u8]) -> Result<usize, SnapshotError> {
        let (head, body) = match out.split_at_mut_checked(SNAPSHOT_HEADER_BYTES) {
            Some(parts) => parts,
            None => {
                return Err(SnapshotError::BufferTooSmall {
                    needed: self.snapshot_size(),
                })
            }
        };
        let mut o = Out::new(body);
        self.put_stores(&mut o);
        let (fits, len) = (o.fits(), o.len());
        if !fits {
            return Err(SnapshotError::BufferTooSmall {
                needed: SNAPSHOT_HEADER_BYTES + len,
            });
        }
        let total = SNAPSHOT_HEADER_BYTES + len;
        let sum = wire::checksum(&body[..len]);
        let mut h = Out::new(head);
        MAGIC.put(&mut h);
        SNAPSHOT_FORMAT.put(&mut h);
        VERSION.put(&mut h);
        0u16.put(&mut h);
        (total as u64).put(&mut h);
        (self.live_count as u32).put(&mut h);
        (self.pair_table.len() as u32).put(&mut h);
        sum.put(&mut h);
        debug_assert_eq!(h.len(), SNAPSHOT_HEADER_BYTES);
        Ok(total)
    }

    /// [`World::snapshot`] into a new `Vec` of exactly [`World::snapshot_size`] bytes
    /// ([`SnapshotError::OutOfMemory`] when it cannot be allocated).
    pub fn snapshot_to_vec(&self) -> Result<Vec<u8>, SnapshotError> {
        let n = self.snapshot_size();
        let mut v = Vec::new();
        v.try_reserve_exact(n).map_err(|_| SnapshotError::OutOfMemory)?;
        v.resize(n, 0);
        self.snapshot(&mut v)?;
        Ok(v)
    }

    /// A world restored from [`World::snapshot`]'s bytes: it continues exactly as the world
    /// that wrote them (see there). Bytes that are truncated, corrupted, of another format
    /// or crate version, or that do not describe a valid world are an error (never a panic),
    /// and nothing is allocated beyond a constant multiple of the bytes' length. The restored
    /// world has no profile clock ([`World::set_profile_clock`]).
    pub fn restore(bytes: &[u8]) -> Result<World, SnapshotError> {
        let mut w = World::with_settings(SolverSettings::default());
        w.restore_into(bytes)?;
        Ok(w)
    }

    /// Replaces this world's state with the snapshot in `bytes` (as [`World::restore`]),
    /// reusing this world's memory: restoring into the same world every frame, as rollback
    /// does, allocates only when a store outgrows what it held before. The profile clock is
    /// kept. On error the header's checks (magic, version, length, checksum) leave the world
    /// unchanged; bytes that pass them and still do not describe a valid world (only
    /// hand-made or hostile bytes do) leave it empty, with its settings and ids of a new
    /// world, and [`SnapshotError::Corrupt`] or [`SnapshotError::OutOfMemory`].
    pub fn restore_into(&mut self, bytes: &[u8]) -> Result<(), SnapshotError> {
        let payload = check_header(bytes)?;
        let result = self.take_stores(payload);
        if result.is_err() {
            let clock = self.profile_clock;
            *self = World::with_settings(SolverSettings::default());
            self.profile_clock = clock;
        }
        result
    }

    /// A copy of the world as `Clone` makes it (the copy steps bit for bit as the original,
    /// and the original's ids name the same objects in it), with out of memory an error
    /// ([`SolverError::OutOfMemory`], nothing allocated kept) where `Clone` aborts. Goes
    /// through a snapshot: about twice the time of `Clone`.
    pub fn try_clone(&self) -> Result<World, SolverError> {
        // Restoring the world's own bytes fails only for memory: they describe a valid world.
        let bytes = self.snapshot_to_vec().map_err(|_| SolverError::OutOfMemory)?;
        let mut w = World::restore(&bytes).map_err(|_| SolverError::OutOfMemory)?;
        w.profile_clock = self.profile_clock;
        Ok(w)
    }

    fn put_stores(&self, o: &mut Out) {
        stores!(&mut &*self, o, put_field, put_tree, put_bounded);
    }

    fn take_stores(&mut self, payload: &[u8]) -> Result<(), SnapshotError> {
        let mut i = In::new(payload);
        stores!(self, &mut i, take_field, take_tree, take_bounded);
        if i.left() != 0 {
            return Err(SnapshotError::Corrupt);
        }
        // Per-step scratch is empty between steps; the last step's blocks are scratch
        // until the next step swaps them in.
        self.scratch.clear();
        self.prev_blocks.clear();
        self.prev_block_ids.clear();
        self.profile = StepProfile::default();
        self.check_restored()?;
        self.pair_table = PairTable::default();
        self.pair_table
            .try_reserve(self.contacts.len() - self.free_contacts.len())
            .map_err(|_| SnapshotError::OutOfMemory)?;
        for (c, contact) in self.contacts.iter().enumerate() {
            if contact.a != NONE {
                if self.pair_table.get(pair_key(contact.a, contact.b)).is_some() {
                    return Err(SnapshotError::Corrupt);
                }
                self.pair_table.insert(pair_key(contact.a, contact.b), c as u32);
            }
        }
        self.check_invariants(false).map_err(|e| match e {
            super::invariants::OUT_OF_MEMORY => SnapshotError::OutOfMemory,
            _ => SnapshotError::Corrupt,
        })?;
        self.check_lists().map_err(|_| SnapshotError::Corrupt)?;
        // The room the world keeps between steps for ends and the next step's arrays.
        self.reserve_solver().map_err(|_| SnapshotError::OutOfMemory)?;
        self.reserve_step(0, 0).map_err(|_| SnapshotError::OutOfMemory)?;
        self.reserve_joint_step(0)
            .map_err(|_| SnapshotError::OutOfMemory)?;
        Ok(())
    }

    /// Every index of the restored stores in range, every value inside what the world's
    /// door accepts, and the stores' one-to-one links (slot ↔ proxy, contact ↔ sim, body ↔
    /// awake entry and island) both ways: what makes [`World::check_invariants`] (which
    /// indexes freely) safe to run on them and every later call safe on the world.
    fn check_restored(&self) -> Result<(), SnapshotError> {
        let n = self.slots.len();
        // `what` names the broken rule for a reader of this code; the caller only learns
        // that the bytes are corrupt.
        let ok = |c: bool, _what: &'static str| if c { Ok(()) } else { Err(SnapshotError::Corrupt) };
        ok(
            self.hot.len() == n && self.bodies.len() == n && self.boxes.len() == n,
            "slot stores differ in length",
        )?;
        // Indices must stay clear of the sentinels, and contact edges (`c << 1 | side`) fit.
        ok(
            n < (PARKED as usize) && self.contacts.len() < (NONE >> 1) as usize,
            "too many",
        )?;
        ok(self.tag & 0xFFFF == 0 && self.tag != 0, "world tag out of range")?;
        ok(
            limits::world_settings(self.settings) == Ok(self.settings),
            "settings out of range",
        )?;
        ok(
            (MIN_TIME_STEP..=MAX_TIME_STEP).contains(&self.last_dt) && non_negative(self.recycle_distance),
            "time step or recycle distance out of range",
        )?;
        ok(
            self.blocks.len() == self.block_ids.len() && self.active.len() == self.active_memory.len(),
            "side arrays differ in length",
        )?;
        // A contact cache's points, and a sleeping contact's carried impulses, are read as
        // `points[..count]`: at most two (awake contacts' caches and parked ones' alike).
        ok(
            self.active_memory
                .iter()
                .chain(self.parked.iter().map(|p| &p.1))
                .filter_map(|m| m.cache.as_ref())
                .all(|c| c.count <= 2 && c.normal.is_finite() && c.margin.is_finite()),
            "contact cache out of range",
        )?;
        ok(
            self.sleep_impulses.iter().flatten().all(|c| c.is_valid()),
            "carried impulses out of range",
        )?;
        // The trees' insertions add one to a height: a valid but degenerate tree near
        // `u16::MAX` could not take them (a world's trees are balanced: below 100).
        ok(
            self.tree.height() < 1024 && self.fixed_tree.height() < 1024,
            "tree too tall",
        )?;
        let in_slots = |s: u32| (s as usize) < n;
        let edge_ok = |e: u32| e == NONE || ((e >> 1) as usize) < self.contacts.len();
        let mut live = 0usize;
        for (s, slot) in self.slots.iter().enumerate() {
            if !slot.live {
                continue;
            }
            live += usize::from(slot.parent == NONE);
            let (body, hot) = (&self.bodies[s], &self.hot[s]);
            ok(
                limits::check_shape(&slot.shape).is_ok()
                    && limits::check_material(&slot.material).is_ok()
                    && limits::check_transform(body.transform).is_ok()
                    && body.is_valid(),
                "body or shape out of range",
            )?;
            ok(
                !matches!(slot.shape, Shape::ChainSegment(_)) || slot.kind != BodyKind::Dynamic,
                "dynamic chain segment",
            )?;
            ok(
                non_negative(slot.sleep_time) && non_negative(slot.margin),
                "slot value out of range",
            )?;
            ok(
                self.tree.user_data(slot.proxy) == Ok(s as u64)
                    && (slot.kind == BodyKind::Dynamic
                        || self.fixed_tree.user_data(slot.fixed_proxy) == Ok(s as u64)),
                "slot and proxy disagree",
            )?;
            ok(
                slot.parent == NONE
                    || in_slots(slot.parent) && {
                        let p = &self.slots[slot.parent as usize];
                        p.live && p.parent == NONE && p.kind == slot.kind
                    },
                "extra shape without its body",
            )?;
            ok(
                (slot.next_shape == NONE || in_slots(slot.next_shape)) && edge_ok(slot.contact_head),
                "slot link out of range",
            )?;
            ok(
                (hot.awake_index == NONE || self.awake.get(hot.awake_index as usize) == Some(&(s as u32)))
                    && (hot.island == NONE || (hot.island as usize) < self.islands.len()),
                "body's awake index or island out of range",
            )?;
            ok(
                [hot.reach, hot.min_extent, hot.spin]
                    .into_iter()
                    .all(non_negative)
                    && [hot.velocity, hot.center].iter().all(|v| v.is_finite()),
                "body's cached values out of range",
            )?;
        }
        ok(live == self.live_count, "live count is off")?;
        // Each tree leaf is the proxy of the live slot its user data names: with the check
        // above, slots and leaves correspond one to one.
        for (node, data) in self.tree.proxies() {
            let slot = usize::try_from(data).ok().and_then(|s| self.slots.get(s));
            ok(
                slot.is_some_and(|x| x.live && x.proxy.index() == node),
                "tree leaf of no slot",
            )?;
        }
        for (node, data) in self.fixed_tree.proxies() {
            let slot = usize::try_from(data).ok().and_then(|s| self.slots.get(s));
            ok(
                slot.is_some_and(|x| x.live && x.kind != BodyKind::Dynamic && x.fixed_proxy.index() == node),
                "fixed tree leaf of no slot",
            )?;
        }
        // The move buffer may name destroyed proxies (a body moved, then removed): the
        // broad phase skips any id that is not a leaf, so every value is safe.
        // Every extra shape on its body's list, each once.
        let mut extras = 0usize;
        let mut listed = 0usize;
        for (s, slot) in self.slots.iter().enumerate() {
            if !slot.live {
                continue;
            }
            if slot.parent != NONE {
                extras += 1;
                continue;
            }
            let mut e = slot.next_shape;
            while e != NONE {
                let x = self.slots.get(e as usize).ok_or(SnapshotError::Corrupt)?;
                ok(x.live && x.parent == s as u32 && listed < n, "shape list broken")?;
                listed += 1;
                e = x.next_shape;
            }
        }
        ok(extras == listed, "extra shape missing from its body's list")?;
        // Free lists: in range, free, each once.
        let mut marks: Vec<bool> = Vec::new();
        let most = n
            .max(self.contacts.len())
            .max(self.islands.len())
            .max(self.parked.len());
        marks
            .try_reserve_exact(most)
            .map_err(|_| SnapshotError::OutOfMemory)?;
        let mut unique = |len: usize, items: &mut dyn Iterator<Item = u32>| -> bool {
            marks.clear();
            marks.resize(len, false);
            for k in items {
                match marks.get_mut(k as usize) {
                    Some(m) if !*m => *m = true,
                    _ => return false,
                }
            }
            true
        };
        ok(
            unique(n, &mut self.free.iter().copied())
                && self.free.iter().all(|&f| !self.slots[f as usize].live),
            "free slot list broken",
        )?;
        ok(
            unique(self.contacts.len(), &mut self.free_contacts.iter().copied())
                && self
                    .free_contacts
                    .iter()
                    .all(|&f| self.contacts[f as usize].a == NONE),
            "free contact list broken",
        )?;
        ok(
            unique(self.islands.len(), &mut self.free_islands.iter().copied())
                && self
                    .free_islands
                    .iter()
                    .all(|&f| self.islands[f as usize].is_empty()),
            "free island list broken",
        )?;
        ok(unique(n, &mut self.awake.iter().copied()), "awake list broken")?;
        // Parked sims: the ones contacts name, and the free ones, each once.
        let named = &mut self
            .contacts
            .iter()
            .filter(|c| c.a != NONE && c.parked != NONE)
            .map(|c| c.parked)
            .chain(self.free_parked.iter().copied());
        ok(unique(self.parked.len(), named), "parked list broken")?;
        for contact in &self.contacts {
            if contact.a == NONE {
                continue;
            }
            ok(
                contact.a < contact.b
                    && in_slots(contact.b)
                    && in_slots(contact.oa)
                    && in_slots(contact.ob)
                    && (contact.active_index == NONE || (contact.active_index as usize) < self.active.len())
                    && (contact.parked == NONE || (contact.parked as usize) < self.parked.len())
                    && contact.prev.iter().chain(&contact.next).all(|&e| edge_ok(e)),
                "contact index out of range",
            )?;
        }
        for sim in self.active.iter().chain(self.parked.iter().map(|p| &p.0)) {
            ok(
                (sim.id as usize) < self.contacts.len()
                    && limits::check_material(&Material {
                        density: 0.0,
                        friction: sim.friction,
                        restitution: sim.restitution,
                    })
                    .is_ok(),
                "contact sim out of range",
            )?;
        }
        self.check_restored_joints()?;
        for (i, island) in self.islands.iter().enumerate() {
            for &b in island {
                ok(
                    in_slots(b) && self.slots[b as usize].live && self.hot[b as usize].island == i as u32,
                    "island of a body elsewhere",
                )?;
            }
        }
        Ok(())
    }

    /// Every live joint between two live bodies with settings the door accepts, each body's
    /// joint list running forward and back the same way over exactly its joints, the free
    /// list over the dead ones.
    pub(super) fn check_restored_joints(&self) -> Result<(), SnapshotError> {
        let bad = Err(SnapshotError::Corrupt);
        let n = self.slots.len();
        let edges = self.joints.len().checked_mul(2).filter(|&e| e < NONE as usize);
        let Some(edges) = edges else { return bad };
        let body = |s: u32| {
            self.slots
                .get(s as usize)
                .is_some_and(|x| x.live && x.parent == NONE)
        };
        let edge_ok = |e: u32| e == NONE || (e as usize) < edges;
        let mut live = 0usize;
        for j in &self.joints {
            if !j.live {
                continue;
            }
            live += 1;
            let def = JointDef {
                kind: j.kind,
                body_a: BodyId::default(),
                body_b: BodyId::default(),
                local_frame_a: j.frame_a,
                local_frame_b: j.frame_b,
                collide_connected: j.collide_connected,
                force_threshold: j.force_threshold,
                torque_threshold: j.torque_threshold,
                constraint_hertz: j.hertz,
                constraint_damping_ratio: j.damping_ratio,
                user_data: j.user_data,
            };
            let ok = body(j.a)
                && body(j.b)
                && j.a != j.b
                && limits::check_joint_def(&def).is_ok()
                && j.prev.iter().chain(&j.next).all(|&e| edge_ok(e));
            if !ok {
                return bad;
            }
        }
        if live + self.free_joints.len() != self.joints.len() {
            return bad;
        }
        let mut seen = 0usize;
        for (s, slot) in self.slots.iter().enumerate() {
            if slot.joint_head == NONE {
                continue;
            }
            if !slot.live || slot.parent != NONE || s >= n {
                return bad;
            }
            let (mut prev, mut e) = (NONE, slot.joint_head);
            while e != NONE {
                let Some(j) = self.joints.get((e >> 1) as usize) else {
                    return bad;
                };
                let side = (e & 1) as usize;
                let owner = if side == 0 { j.a } else { j.b };
                if !j.live || owner != s as u32 || j.prev[side] != prev || seen >= edges {
                    return bad;
                }
                seen += 1;
                (prev, e) = (e, j.next[side]);
            }
        }
        if seen != 2 * live {
            return bad;
        }
        for &f in &self.free_joints {
            if self.joints.get(f as usize).is_none_or(|j| j.live) {
                return bad;
            }
        }
        // Free entries are dead and `live + free == len`: with no entry dead twice over
        // the count, the free list names each dead joint once.
        let mut marks: Vec<bool> = Vec::new();
        marks
            .try_reserve_exact(self.joints.len())
            .map_err(|_| SnapshotError::OutOfMemory)?;
        marks.resize(self.joints.len(), false);
        for &f in &self.free_joints {
            if core::mem::replace(&mut marks[f as usize], true) {
                return bad;
            }
        }
        Ok(())
    }

    /// Each body's contact list runs forward and back the same way and holds only contacts
    /// of that body (after [`World::check_invariants`], which bounds the walks).
    fn check_lists(&self) -> Result<(), &'static str> {
        for (s, slot) in self.slots.iter().enumerate() {
            if !slot.live || slot.parent != NONE {
                continue;
            }
            let (mut prev, mut e) = (NONE, slot.contact_head);
            while e != NONE {
                let contact = &self.contacts[(e >> 1) as usize];
                let side = (e & 1) as usize;
                let owner = if side == 0 { contact.oa } else { contact.ob };
                if owner != s as u32 || contact.prev[side] != prev {
                    return Err("contact list links disagree");
                }
                (prev, e) = (e, contact.next[side]);
            }
        }
        Ok(())
    }
}

/// The stores' bytes of a snapshot whose header checks out.
fn check_header(bytes: &[u8]) -> Result<&[u8], SnapshotError> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(if bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes) {
            SnapshotError::Truncated
        } else {
            SnapshotError::NotASnapshot
        });
    }
    let head = bytes
        .get(..SNAPSHOT_HEADER_BYTES)
        .ok_or(SnapshotError::Truncated)?;
    let mut i = In::new(&head[MAGIC.len()..]);
    let read = |i: &mut In| -> Result<(u32, [u16; 3], u16, u64, u64), WireError> {
        let format = u32::take(i)?;
        let version = <[u16; 3]>::take(i)?;
        let zero = u16::take(i)?;
        let total = u64::take(i)?;
        let _counts = <(u32, u32)>::take(i)?;
        Ok((format, version, zero, total, u64::take(i)?))
    };
    let (format, version, zero, total, sum) = read(&mut i).map_err(|_| SnapshotError::Truncated)?;
    if format != SNAPSHOT_FORMAT || version != VERSION || zero != 0 {
        return Err(SnapshotError::UnsupportedVersion);
    }
    if (bytes.len() as u64) < total {
        return Err(SnapshotError::Truncated);
    }
    if bytes.len() as u64 != total || wire::checksum(&bytes[SNAPSHOT_HEADER_BYTES..]) != sum {
        return Err(SnapshotError::ChecksumMismatch);
    }
    Ok(&bytes[SNAPSHOT_HEADER_BYTES..])
}
